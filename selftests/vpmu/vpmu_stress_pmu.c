// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_stress_pmu.c - what the PMU says about itself, read once before the
 * workers start (format/ fields, events/ aliases, the programs and their
 * .expect files, the images) into the struct vt_stress_info main() owns, and
 * the configs built from it.  See vpmu_stress.c.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include "vpmu_stress_pmu.h"

static const struct {
	const char *name, *expect;
	uint32_t stop;
	uint64_t cycles;
	bool exact;
} prog_table[VT_STRESS_NPROGS] = {
	[VT_STRESS_PROG_SUM]		= { "sum", "samples/sum.expect", VPMU_RUN_HALT, 179, true },
	[VT_STRESS_PROG_MARKS]	= { "marks", "progs/marks.expect", VPMU_RUN_HALT, 35004, true },
	[VT_STRESS_PROG_CALLS]	= { "calls", "progs/calls.expect", VPMU_RUN_HALT, 14004, true },
	[VT_STRESS_PROG_SORT]	= { "sort", NULL, VPMU_RUN_HALT, 0, false },
	[VT_STRESS_PROG_MEMCPY]	= { "memcpy", NULL, VPMU_RUN_HALT, 0, false },
	[VT_STRESS_PROG_STORES]	= { "stores", NULL, VPMU_RUN_HALT, 102, false },
	[VT_STRESS_PROG_SYSCALL]	= { "syscall", NULL, VPMU_RUN_TRAP, 0, false },
	[VT_STRESS_PROG_MARK1]	= { "mark1", NULL, VPMU_RUN_HALT, 2, false },
	[VT_STRESS_PROG_SPIN]	= { "spin", NULL, VPMU_RUN_BUDGET, 0, false },
	[VT_STRESS_PROG_SORTLOOP]	= { "sortloop", NULL, VPMU_RUN_BUDGET, 0, false },
};

/* ---- the PMU's sysfs description ----------------------------------------- */

int vt_stress_field_of(const struct vt_stress_info *info, const char *name)
{
	int i;

	for (i = 0; i < info->nfield; i++)
		if (!strcmp(info->field[i].name, name))
			return i;
	return -1;
}

/*
 * Put @val into format/ field @field of config word @cfg[word]; returns
 * the bits set (0 if the field does not exist).
 */
uint64_t vt_stress_put(const struct vt_stress_info *info, uint64_t *cfg, const char *field,
		       uint64_t val)
{
	int i = vt_stress_field_of(info, field);
	const struct vt_stress_field *f;
	uint64_t mask;

	if (i < 0)
		return 0;
	f = &info->field[i];
	mask = f->hi - f->lo >= 63 ? ~0ull : ((1ull << (f->hi - f->lo + 1)) - 1);
	cfg[f->word] &= ~(mask << f->lo);
	cfg[f->word] |= (val & mask) << f->lo;
	return (val & mask) << f->lo;
}

const struct vt_stress_alias *vt_stress_alias(const struct vt_stress_info *info, const char *name)
{
	int i;

	for (i = 0; i < info->nalias; i++)
		if (!strcmp(info->alias[i].name, name))
			return &info->alias[i];
	return NULL;
}

/*
 * Call @add(@info, name, first line) for each file of the PMU's sysfs
 * directory @dir (dot files and unreadable ones left out).  Fails if @add
 * does: a table too small for what the PMU describes must not drop terms
 * quietly.
 */
static int each_pmu_file(struct vt_stress_info *info, const char *dir,
			 int (*add)(struct vt_stress_info *info, const char *name,
				    char *line))
{
	char path[128], rel[128], buf[128];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), VT_PMU_DIR "/%s", dir);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "%s/%.60s", dir, e->d_name);
		if (!vt_pmu_read(rel, buf, sizeof(buf)) &&
		    add(info, e->d_name, buf)) {
			fprintf(stderr, "# %s/%s: no room left in the table\n",
				path, e->d_name);
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	return 0;
}

/* format/NAME "config1:0-11" as a field; non-zero if the table is full. */
static int add_field(struct vt_stress_info *info, const char *name, char *line)
{
	struct vt_stress_field *f = &info->field[info->nfield];
	char word[16];
	int n;

	if (info->nfield == VT_STRESS_MAX_FIELDS)
		return -1;
	n = sscanf(line, "%15[a-z0-9]:%d-%d", word, &f->lo, &f->hi);
	if (n < 2)
		return 0;
	if (n == 2)
		f->hi = f->lo;
	f->word = !strcmp(word, "config") ? 0 :
		  !strcmp(word, "config1") ? 1 :
		  !strcmp(word, "config2") ? 2 : -1;
	if (f->word < 0 || f->lo > f->hi || f->hi > 63)
		return 0;
	snprintf(f->name, sizeof(f->name), "%.23s", name);
	info->nfield++;
	return 0;
}

/*
 * events/vpmu_NAME "term=value,..." as an alias if every term is a field
 * of attr.config; non-zero if the table is full.
 */
static int add_alias(struct vt_stress_info *info, const char *name, char *line)
{
	struct vt_stress_alias *a = &info->alias[info->nalias];
	uint64_t cfg[3] = { 0, 0, 0 };
	char *term, *save = NULL;

	if (strncmp(name, "vpmu_", 5) || strchr(name, '.'))
		return 0;
	if (info->nalias == VT_STRESS_MAX_ALIASES)
		return -1;
	for (term = strtok_r(line, ",", &save); term;
	     term = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(term, '=');

		if (eq)
			*eq = '\0';
		if (!eq || vt_stress_field_of(info, term) < 0)
			return 0;
		vt_stress_put(info, cfg, term, strtoull(eq + 1, NULL, 0));
	}
	if (cfg[1] || cfg[2])
		return 0;
	snprintf(a->name, sizeof(a->name), "%s", name + 5);
	a->type = info->type;
	a->config = cfg[0];
	info->nalias++;
	return 0;
}

/*
 * vpmu_hu's buckets as aliases "hu_hist1".."hu_hist16", of its type, when
 * it is there; non-zero if the table is full.
 */
static int add_hu_aliases(struct vt_stress_info *info)
{
	long type = vt_hu_type();
	unsigned int b;

	for (b = 1; type >= 0 && b <= VPMU_HU_BUCKETS; b++) {
		struct vt_stress_alias *a = &info->alias[info->nalias];

		if (info->nalias == VT_STRESS_MAX_ALIASES)
			return -1;
		snprintf(a->name, sizeof(a->name), "hu_hist%u", b);
		a->type = type;
		a->config = b;
		info->nalias++;
	}
	return 0;
}

/* The events of @p's .expect file that the PMU has aliases for. */
static int load_expect(const struct vt_stress_info *info, struct vt_stress_prog *p)
{
	struct vt_expect *x = malloc(sizeof(*x));
	int i;

	p->nev = 0;
	if (!x || vt_expect_load(p->expect, x)) {
		free(x);
		return -1;
	}
	for (i = 0; i < x->nev && p->nev < VT_STRESS_MAX_EXPECT; i++) {
		if (!vt_stress_alias(info, x->ev_name[i]))
			continue;
		snprintf(p->ev_name[p->nev], sizeof(p->ev_name[0]), "%s",
			 x->ev_name[i]);
		p->ev_count[p->nev++] = x->ev_count[i];
	}
	free(x);
	return p->nev ? 0 : -1;
}

int vt_stress_read_info(struct vt_stress_info *info)
{
	char rel[128];
	int i;

	info->type = vt_type();
	info->nr_counters = vt_pmu_long("caps/nr_counters");
	info->ncpus = sysconf(_SC_NPROCESSORS_CONF);
	if (info->ncpus > 64)
		info->ncpus = 64;
	info->nfield = 0;
	info->nalias = 0;
	if (info->type < 0 || info->nr_counters < 1 ||
	    each_pmu_file(info, "format", add_field) || !info->nfield ||
	    each_pmu_file(info, "events", add_alias) || !info->nalias ||
	    add_hu_aliases(info))
		return -1;
	for (i = 0; i < VT_STRESS_NPROGS; i++) {
		struct vt_stress_prog *p = &info->prog[i];

		vt_prog_free(&p->p);
		p->name = prog_table[i].name;
		p->expect = prog_table[i].expect;
		p->stop = prog_table[i].stop;
		p->cycles = prog_table[i].cycles;
		p->exact = prog_table[i].exact;
		snprintf(rel, sizeof(rel), "build/%s.vprg", p->name);
		if (vt_prog_load(&p->p, rel))
			return -1;
		if (p->expect && load_expect(info, p))
			return -1;
	}
	info->have_uhist = !access(VT_PMU_DIR "/uhist/control", W_OK);
	info->have_hist = !access(VT_PMU_DIR "/hist/control", W_OK);
	info->have_hotplug = !access(VT_CPU1_ONLINE, W_OK);
	return 0;
}

int vt_stress_read_images(struct vt_stress_info *info)
{
	free(info->img_default);
	free(info->img_max);
	free(info->img_variant);
	info->img_default = vt_read_image(&info->img_len);
	info->img_max = vt_read_share("build/max.vpmu", &info->max_len);
	if (!info->img_default)
		return -1;
	info->img_variant = vt_variant(info->img_default, info->img_len,
				       "vpmu32-stress", 20);
	return info->img_variant ? 0 : -1;
}

/* The count of "event @name" in @prog's .expect file, or 0. */
uint64_t vt_stress_expect_of(const struct vt_stress_info *info, int prog, const char *name)
{
	const struct vt_stress_prog *p = &info->prog[prog];
	int i;

	for (i = 0; i < p->nev; i++)
		if (!strcmp(p->ev_name[i], name))
			return p->ev_count[i];
	return 0;
}

/* Memory large enough for every program. */
size_t vt_stress_mem_size(const struct vt_stress_info *info)
{
	size_t max = 0;
	int i;

	for (i = 0; i < VT_STRESS_NPROGS; i++)
		if (info->prog[i].p.h.mem_size > max)
			max = info->prog[i].p.h.mem_size;
	return max;
}

/* ---- configs built from it ----------------------------------------------- */

uint64_t vt_stress_alias_cfg(const struct vt_stress_info *info, const char *name)
{
	const struct vt_stress_alias *a = vt_stress_alias(info, name);

	return a ? a->config : 0;
}

uint64_t vt_stress_ctr_cfg(const struct vt_stress_info *info, int n)
{
	uint64_t cfg[3] = { 0, 0, 0 };

	vt_stress_put(info, cfg, "ctr", n);
	return cfg[0];
}

const struct vt_stress_trig vt_stress_trigs[VT_STRESS_NTRIGS] = {
	{ VT_STRESS_PROG_MARKS, "trig_mark", 1, true, 4000, 18000 },
	{ VT_STRESS_PROG_MARKS, "trig_mark", 1, false, 8001 - 4000, 35004 - 18000 },
	{ VT_STRESS_PROG_MARKS, "trig_ev", -1, true, 4000, 18000 },	/* vpmu_trigger */
	{ VT_STRESS_PROG_CALLS, "trig_tag", 8, true, 1000, 7000 },
	{ VT_STRESS_PROG_CALLS, "trig_tag", 8, false, 2501 - 1000, 14004 - 7000 },
	{ VT_STRESS_PROG_SUM, "trig_mark", 1, true, 0, 0 },
	{ VT_STRESS_PROG_SUM, "trig_mark", 1, false, 32, 179 },
};

uint64_t vt_stress_trig_config1(const struct vt_stress_info *info, const struct vt_stress_trig *t,
				bool freeze_on_ovf)
{
	uint64_t cfg[3] = { 0, 0, 0 };
	uint64_t val = t->val;

	if (val == (uint64_t)-1) {	/* the "trigger" event's number */
		uint64_t ev[3] = { vt_stress_alias_cfg(info, "trigger"), 0, 0 };
		const struct vt_stress_field *f =
			&info->field[vt_stress_field_of(info, "event")];

		val = (ev[0] >> f->lo) & ((1ull << (f->hi - f->lo + 1)) - 1);
	}
	vt_stress_put(info, cfg, t->field, val);
	if (t->frozen)
		vt_stress_put(info, cfg, "frozen", 1);
	if (freeze_on_ovf)
		vt_stress_put(info, cfg, "freeze_on_ovf", 1);
	return cfg[1];
}

/* A sampling period, from short to longer than any counter. */
uint64_t vt_stress_random_period(struct vt_stress_rng *r)
{
	static const uint64_t p[] = { 7, 50, 101, 997, 5003, 65537,
				      1000003 };

	return p[vt_stress_below(r, 7)];
}
