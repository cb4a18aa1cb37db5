// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_stress - a seeded random stress of the vpmu PMU, its /dev/vpmu,
 * its microcode loader, its histograms and CPU hotplug, with exact
 * invariants (Documentation/vpmu/testing.rst, "Stress tier").
 *
 *   vpmu_stress [--seed N] [--seconds S] [--ops N] [--workers N]
 *               [--log DIR] [--verbose] [--keep-module]
 *
 * The module is reloaded with parameters drawn from the seed (counters
 * and their widths), then --workers processes run at once until
 * --seconds pass or each has done --ops operations:
 *
 *   perf    random perf_event_open() events built from format/ and
 *           events/ (counting, sampling, groups of 1-5 with freeze
 *           triggers, ctr pins, exclude_*, inherit; on itself, on a child
 *           or CPU-wide), closed in random orders (leaders first more
 *           often than not), every ioctl, reads, rings, affinity, fork,
 *           and hostile attributes that must fail cleanly;
 *   exact   groups, sampling events, inherit and child-pid events on known
 *           programs whose counts must come out exact, and samples + lost
 *           = floor(count / period);
 *   sys     microcode reloads, hist/ and uhist/ controls and reads
 *           (uhist files read in pieces must be one snapshot), CPU 1
 *           offline and online;
 *   runner  programs through /dev/vpmu on every CPU, results checked.
 *
 * At the end every worker has exited, this process holds no perf event,
 * the module unloads and loads again with default parameters.
 *
 * Each worker logs every operation to DIR/wN.log ("w2 op 17: ...");
 * --verbose copies them to stdout.  A failure prints the seed, worker
 * and operation number, then the end of that worker's log.  The same
 * --seed (and --workers) replays each worker's operations in the same
 * order; --ops bounds them exactly.  Exit status 0: no failure.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "vpmu_stress.h"

struct st_info st;

static const struct {
	const char *name, *expect;
	uint32_t stop;
	uint64_t cycles;
	bool exact;
} prog_table[P_NPROGS] = {
	[P_SUM]		= { "sum", "samples/sum.expect", VPMU_RUN_HALT, 179, true },
	[P_MARKS]	= { "marks", "progs/marks.expect", VPMU_RUN_HALT, 35004, true },
	[P_CALLS]	= { "calls", "progs/calls.expect", VPMU_RUN_HALT, 14004, true },
	[P_SORT]	= { "sort", NULL, VPMU_RUN_HALT, 0, false },
	[P_MEMCPY]	= { "memcpy", NULL, VPMU_RUN_HALT, 0, false },
	[P_STORES]	= { "stores", NULL, VPMU_RUN_HALT, 102, false },
	[P_SYSCALL]	= { "syscall", NULL, VPMU_RUN_TRAP, 0, false },
	[P_MARK1]	= { "mark1", NULL, VPMU_RUN_HALT, 2, false },
	[P_SPIN]	= { "spin", NULL, VPMU_RUN_BUDGET, 0, false },
	[P_SORTLOOP]	= { "sortloop", NULL, VPMU_RUN_BUDGET, 0, false },
};

/* ---- logging --------------------------------------------------------------- */

static const char *const role_names[] = { "perf", "exact", "sys", "runner" };

static void st_vlog(struct st_worker *w, const char *tag, const char *fmt,
		    va_list ap)
{
	char line[768];
	int n;

	n = snprintf(line, sizeof(line), "w%d op %llu: %s", w->id,
		     (unsigned long long)w->op, tag);
	vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	n = strlen(line);
	line[n++] = '\n';
	if (w->log)
		fwrite(line, 1, n, w->log);
	if (w->verbose || *tag) {
		/* one write() per line, so workers' lines do not mix */
		char out[800];
		int m = snprintf(out, sizeof(out), "# %.*s", n, line);

		if (write(1, out, m) < 0)
			return;
	}
}

void st_log(struct st_worker *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	st_vlog(w, "", fmt, ap);
	va_end(ap);
}

/*
 * A failure.  Each kind (format string) is printed three times per
 * worker at most, then only counted, so one frequent defect does not
 * hide the others.
 */
void st_fail(struct st_worker *w, const char *fmt, ...)
{
	static const char *kinds[64];
	static int times[64];
	char tag[96];
	va_list ap;
	int i;

	for (i = 0; i < 64 && kinds[i] && kinds[i] != fmt; i++)
		;
	if (i < 64) {
		kinds[i] = fmt;
		if (++times[i] > 3) {
			w->failures++;
			return;
		}
	}

	snprintf(tag, sizeof(tag), "FAIL (seed %llu, %s worker): ",
		 (unsigned long long)w->seed, role_names[w->role]);
	va_start(ap, fmt);
	st_vlog(w, tag, fmt, ap);
	va_end(ap);
	w->failures++;
	if (w->log)
		fflush(w->log);
}

const char *st_errname(int err)
{
	static __thread char buf[24];

	switch (err < 0 ? -err : err) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EBUSY: return "EBUSY";
	case ENODEV: return "ENODEV";
	case ESRCH: return "ESRCH";
	case EBADF: return "EBADF";
	case EFAULT: return "EFAULT";
	case ENOSPC: return "ENOSPC";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case E2BIG: return "E2BIG";
	case EMFILE: return "EMFILE";
	case ENOMEM: return "ENOMEM";
	case EAGAIN: return "EAGAIN";
	case EIO: return "EIO";
	case EBADMSG: return "EBADMSG";
	case EFBIG: return "EFBIG";
	case EMSGSIZE: return "EMSGSIZE";
	case EINTR: return "EINTR";
	}
	snprintf(buf, sizeof(buf), "errno %d", err < 0 ? -err : err);
	return buf;
}

/* ---- the PMU's sysfs description --------------------------------------------- */

int st_field_of(const char *name)
{
	int i;

	for (i = 0; i < st.nfield; i++)
		if (!strcmp(st.field[i].name, name))
			return i;
	return -1;
}

/*
 * Put @val into format/ field @field of config word @cfg[word]; returns
 * the bits set (0 if the field does not exist).
 */
uint64_t st_put(uint64_t *cfg, const char *field, uint64_t val)
{
	int i = st_field_of(field);
	const struct st_field *f;
	uint64_t mask;

	if (i < 0)
		return 0;
	f = &st.field[i];
	mask = f->hi - f->lo >= 63 ? ~0ull : ((1ull << (f->hi - f->lo + 1)) - 1);
	cfg[f->word] &= ~(mask << f->lo);
	cfg[f->word] |= (val & mask) << f->lo;
	return (val & mask) << f->lo;
}

const struct st_alias *st_alias(const char *name)
{
	int i;

	for (i = 0; i < st.nalias; i++)
		if (!strcmp(st.alias[i].name, name))
			return &st.alias[i];
	return NULL;
}

static int read_formats(void)
{
	DIR *d = opendir(VPMU_PMU_DIR "/format");
	struct dirent *e;

	if (!d)
		return -1;
	st.nfield = 0;
	while ((e = readdir(d)) && st.nfield < ST_MAX_FIELDS) {
		struct st_field *f = &st.field[st.nfield];
		char rel[128], buf[64], word[16];
		int n;

		if (e->d_name[0] == '.')
			continue;
		snprintf(rel, sizeof(rel), "format/%.60s", e->d_name);
		if (vl_pmu_read(rel, buf, sizeof(buf)))
			continue;
		n = sscanf(buf, "%15[a-z0-9]:%d-%d", word, &f->lo, &f->hi);
		if (n < 2)
			continue;
		if (n == 2)
			f->hi = f->lo;
		f->word = !strcmp(word, "config") ? 0 :
			  !strcmp(word, "config1") ? 1 :
			  !strcmp(word, "config2") ? 2 : -1;
		if (f->word < 0 || f->lo > f->hi || f->hi > 63)
			continue;
		snprintf(f->name, sizeof(f->name), "%.23s", e->d_name);
		st.nfield++;
	}
	closedir(d);
	return st.nfield ? 0 : -1;
}

static int read_aliases(void)
{
	DIR *d = opendir(VPMU_PMU_DIR "/events");
	struct dirent *e;

	if (!d)
		return -1;
	st.nalias = 0;
	while ((e = readdir(d)) && st.nalias < ST_MAX_ALIASES) {
		struct st_alias *a = &st.alias[st.nalias];
		char rel[128], buf[128], *term, *save = NULL;
		uint64_t cfg[3] = { 0, 0, 0 };
		bool ok = true;

		if (strncmp(e->d_name, "vpmu_", 5) || strchr(e->d_name, '.'))
			continue;
		snprintf(rel, sizeof(rel), "events/%.60s", e->d_name);
		if (vl_pmu_read(rel, buf, sizeof(buf)))
			continue;
		for (term = strtok_r(buf, ",", &save); term;
		     term = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(term, '=');

			if (eq)
				*eq = '\0';
			if (!eq || st_field_of(term) < 0) {
				ok = false;
				break;
			}
			st_put(cfg, term, strtoull(eq + 1, NULL, 0));
		}
		if (!ok || cfg[1] || cfg[2])
			continue;
		snprintf(a->name, sizeof(a->name), "%s", e->d_name + 5);
		a->config = cfg[0];
		st.nalias++;
	}
	closedir(d);
	return st.nalias ? 0 : -1;
}

static int load_expect(struct st_prog *p)
{
	char *text, *line, *save = NULL;
	size_t len;

	p->nev = 0;
	text = (char *)vl_read_share(p->expect, &len);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char key[16], arg[16];
		unsigned long long v;

		if (sscanf(line, "%15s %15s %llu", key, arg, &v) == 3 &&
		    !strcmp(key, "event") && p->nev < ST_MAX_EXPECT &&
		    st_alias(arg)) {
			strcpy(p->ev_name[p->nev], arg);
			p->ev_count[p->nev++] = v;
		}
	}
	free(text);
	return p->nev ? 0 : -1;
}

static long pmu_long(const char *rel)
{
	char buf[64];

	return vl_pmu_read(rel, buf, sizeof(buf)) ? -1 : strtol(buf, NULL, 0);
}

static int read_info(void)
{
	char rel[128];
	int i;

	st.type = pmu_long("type");
	st.nr_counters = pmu_long("caps/nr_counters");
	st.ncpus = sysconf(_SC_NPROCESSORS_CONF);
	if (st.ncpus > 64)
		st.ncpus = 64;
	if (st.type < 0 || st.nr_counters < 1 || read_formats() ||
	    read_aliases())
		return -1;
	for (i = 0; i < P_NPROGS; i++) {
		struct st_prog *p = &st.prog[i];

		vl_prog_free(&p->p);
		p->name = prog_table[i].name;
		p->expect = prog_table[i].expect;
		p->stop = prog_table[i].stop;
		p->cycles = prog_table[i].cycles;
		p->exact = prog_table[i].exact;
		snprintf(rel, sizeof(rel), "build/%s.vprg", p->name);
		if (vl_prog_load(&p->p, rel))
			return -1;
		if (p->expect && load_expect(p))
			return -1;
	}
	st.have_uhist = !access(VPMU_PMU_DIR "/uhist/control", W_OK);
	st.have_hist = !access(VPMU_PMU_DIR "/hist/program", W_OK);
	st.have_hotplug = !access(ST_CPU1_ONLINE, W_OK);
	return 0;
}

static int read_images(void)
{
	free(st.img_default);
	free(st.img_max);
	free(st.img_variant);
	st.img_default = vl_read_image(&st.img_len);
	st.img_max = vl_read_share("build/max.vpmu", &st.max_len);
	if (!st.img_default)
		return -1;
	st.img_variant = vl_variant(st.img_default, st.img_len,
				    "vpmu32-stress", 20);
	return st.img_variant ? 0 : -1;
}

/* ---- runs ---------------------------------------------------------------------- */

int st_run(struct st_worker *w, int prog, uint64_t budget, struct vpmu_run *r)
{
	return vl_run(w->dev, &st.prog[prog].p, w->mem, budget, r);
}

/*
 * Run @prog for @budget cycles and check what the run says: the stop
 * reason, and the cycles where they are fixed.  0, or -1 after a failure.
 */
int st_run_checked(struct st_worker *w, int prog, uint64_t budget)
{
	const struct st_prog *p = &st.prog[prog];
	struct vpmu_run r;
	uint32_t stop = p->stop;
	int ret;

	ret = st_run(w, prog, budget, &r);
	w->s.runs++;
	if (ret) {
		st_fail(w, "run %s budget %llu: %s", p->name,
			(unsigned long long)budget, st_errname(ret));
		return -1;
	}
	if (p->cycles && budget < p->cycles)
		stop = VPMU_RUN_BUDGET;
	/*
	 * Programs with loads end by the budget when it is short, a few
	 * stall cycles past it at most (a stall is not cut).
	 */
	if (!p->cycles && r.stop == VPMU_RUN_BUDGET && r.cycles >= budget &&
	    r.cycles < budget + 64)
		return 0;
	if (r.stop != stop || (p->cycles && stop == VPMU_RUN_HALT &&
			       r.cycles != p->cycles) ||
	    (stop == VPMU_RUN_BUDGET && (p->cycles || prog == P_SPIN) &&
	     r.cycles != budget)) {
		st_fail(w, "run %s budget %llu: stop %u cycles %llu, expected stop %u cycles %llu",
			p->name, (unsigned long long)budget, r.stop,
			(unsigned long long)r.cycles, stop,
			(unsigned long long)(stop == VPMU_RUN_BUDGET ? budget :
					     p->cycles));
		return -1;
	}
	return 0;
}

static bool cpu_online(int cpu)
{
	char path[96], c = '1';
	int fd;

	if (!cpu)
		return true;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	if (read(fd, &c, 1) != 1)
		c = '1';
	close(fd);
	return c == '1';
}

/* Move to a random CPU (EINVAL if it is offline), or to all of them. */
void st_random_affinity(struct st_worker *w)
{
	cpu_set_t set;
	int cpu = st_below(&w->r, st.ncpus + 1), ret;

	CPU_ZERO(&set);
	if (cpu == st.ncpus) {
		for (cpu = 0; cpu < st.ncpus; cpu++)
			CPU_SET(cpu, &set);
		cpu = -1;
	} else {
		CPU_SET(cpu, &set);
	}
	ret = sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
	st_log(w, "affinity cpu %d: %s", cpu, st_errname(ret));
	/* CPU 1 may go offline (and back) under us: EINVAL */
	if (ret && !(ret == -EINVAL && cpu > 0 &&
		     (st.have_hotplug || !cpu_online(cpu))))
		st_fail(w, "sched_setaffinity(cpu %d): %s", cpu,
			st_errname(ret));
}

/* ---- workers --------------------------------------------------------------------- */

struct st_opts {
	uint64_t seed;
	unsigned int seconds, workers;
	uint64_t ops;
	const char *logdir;
	bool verbose, keep_module;
};

static enum st_role role_of(unsigned int i)
{
	static const enum st_role order[] = {
		R_EXACT, R_PERF, R_SYS, R_RUNNER, R_EXACT, R_PERF, R_RUNNER,
		R_PERF,
	};

	return i < sizeof(order) / sizeof(order[0]) ? order[i] :
		(i % 2 ? R_PERF : R_RUNNER);
}

static uint64_t op_seed(uint64_t seed, int worker, uint64_t op)
{
	struct st_rng r = { seed * 0x100000001b3ull ^ ((uint64_t)worker << 48) ^ op };

	st_rnd(&r);
	return st_rnd(&r);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void worker_main(const struct st_opts *o, int id, double end)
{
	struct st_worker w;
	char path[512];
	size_t max = 0;
	int i;

	memset(&w, 0, sizeof(w));
	w.id = id;
	w.role = role_of(id);
	w.seed = o->seed;
	w.verbose = o->verbose;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	snprintf(path, sizeof(path), "%s/w%d.log", o->logdir, id);
	w.log = fopen(path, "w");
	if (w.log)
		setvbuf(w.log, NULL, _IOLBF, 0);
	for (i = 0; i < P_NPROGS; i++)
		if (st.prog[i].p.h.mem_size > max)
			max = st.prog[i].p.h.mem_size;
	if (posix_memalign((void **)&w.mem, 8, max))
		_exit(2);
	w.dev = open(VPMU_DEV, O_RDWR | O_CLOEXEC);
	if (w.dev < 0) {
		st_fail(&w, "open %s: %s", VPMU_DEV, st_errname(errno));
		_exit(1);
	}
	st_log(&w, "%s worker, seed %llu", role_names[w.role],
	       (unsigned long long)o->seed);
	w.r.s = op_seed(o->seed, id, ~0ull);
	if (w.role == R_PERF)
		st_perf_init(&w);
	for (w.op = 1; w.op <= o->ops && now() < end; w.op++) {
		w.r.s = op_seed(o->seed, id, w.op);
		w.s.ops++;
		if (w.role == R_PERF)
			st_perf_op(&w);
		else if (w.role == R_EXACT)
			st_exact_op(&w);
		else if (w.role == R_SYS)
			st_sys_op(&w);
		else
			st_runner_op(&w);
		if (w.failures >= 1000) {
			st_log(&w, "1000 failures: stopping this worker");
			break;
		}
	}
	w.op = 0;
	if (w.role == R_PERF)
		st_perf_fini(&w);
	if (w.role == R_SYS)
		st_sys_fini(&w);
	printf("# w%d %s: %llu ops, %llu opens (%llu refused), %llu closes, %llu ioctls, %llu reads, %llu runs, %llu samples, %llu lost, exact %llu (+%llu not fully on the counters), %llu sample checks, %llu ucode, %llu uhist, %llu hotplug, %llu hostile, %d failures\n",
	       id, role_names[w.role], (unsigned long long)w.s.ops,
	       (unsigned long long)w.s.opens, (unsigned long long)w.s.open_fail,
	       (unsigned long long)w.s.closes, (unsigned long long)w.s.ioctls,
	       (unsigned long long)w.s.reads, (unsigned long long)w.s.runs,
	       (unsigned long long)w.s.samples, (unsigned long long)w.s.lost,
	       (unsigned long long)w.s.exact_full,
	       (unsigned long long)w.s.exact_partial,
	       (unsigned long long)w.s.sample_checks,
	       (unsigned long long)w.s.ucode, (unsigned long long)w.s.uhist,
	       (unsigned long long)w.s.hotplug, (unsigned long long)w.s.hostile,
	       w.failures);
	fflush(stdout);
	if (w.log)
		fclose(w.log);
	_exit(w.failures ? 1 : 0);
}

/* ---- module parameters, drawn from the seed ------------------------------------- */

static void module_params(uint64_t seed, char *buf, size_t size)
{
	static const char *const widths[] = {
		"16,16,14", "16,8,3,64", "64", "12,10,8,6,4", "32,16,5",
		"16,16,14,7",
	};
	static const int counters[] = { 3, 4, 8, 16 };
	struct st_rng r = { seed ^ 0x6d6f64756c65ull };

	snprintf(buf, size, "nr_counters=%d counter_widths=%s",
		 counters[st_below(&r, 4)], widths[st_below(&r, 6)]);
}

/* Unload (retrying while the last references go away); 0 or -errno. */
static int rmmod_retry(void)
{
	int ret = 0, tries;

	for (tries = 0; tries < 50; tries++) {
		ret = vl_rmmod();
		if (ret != -EAGAIN && ret != -EBUSY)
			break;
		usleep(100000);
	}
	return ret;
}

static int perf_fds_open(void)
{
	char link[300], target[128];
	struct dirent *e;
	int n = 0;
	DIR *d = opendir("/proc/self/fd");

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		ssize_t len;

		snprintf(link, sizeof(link), "/proc/self/fd/%s", e->d_name);
		len = readlink(link, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		if (strstr(target, "perf_event"))
			n++;
	}
	closedir(d);
	return n;
}

static void tail_log(const char *path)
{
	char *text, *p;
	size_t len;
	int lines = 0;

	text = (char *)vl_read_file(path, &len);
	if (!text)
		return;
	for (p = text + len; p > text; p--)
		if (p[-1] == '\n' && ++lines > 40)
			break;
	printf("# ---- last operations of %s:\n", path);
	for (char *l = strtok(p, "\n"); l; l = strtok(NULL, "\n"))
		printf("#   %s\n", l);
	free(text);
}

static void usage(void)
{
	fprintf(stderr, "usage: vpmu_stress [--seed N] [--seconds S] [--ops N] [--workers N] [--log DIR] [--verbose] [--keep-module]\n");
	exit(2);
}

static void restore_sysfs(void)
{
	if (st.have_hotplug)
		vl_write_file(ST_CPU1_ONLINE, "1");
	if (st.have_uhist)
		vl_write_file(VPMU_PMU_DIR "/uhist/control", "stop");
	if (st.have_hist)
		vl_write_file(VPMU_PMU_DIR "/hist/program", "off");
	vl_load_default();
}

int main(int argc, char **argv)
{
	struct st_opts o = { .seed = 1, .seconds = 20, .workers = 6,
			     .ops = ~0ull, .logdir = NULL };
	pid_t pids[ST_MAX_WORKERS];
	char params[128], logdir[256];
	unsigned int i, left;
	int failures = 0, ret;
	double end, start = now();

	for (i = 1; i < (unsigned int)argc; i++) {
		const char *a = argv[i], *v = i + 1 < (unsigned int)argc ?
					       argv[i + 1] : NULL;

		if (!strcmp(a, "--verbose") || !strcmp(a, "-v")) {
			o.verbose = true;
			continue;
		}
		if (!strcmp(a, "--keep-module")) {
			o.keep_module = true;
			continue;
		}
		if (!v)
			usage();
		i++;
		if (!strcmp(a, "--seed"))
			o.seed = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--seconds"))
			o.seconds = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--ops"))
			o.ops = strtoull(v, NULL, 0);
		else if (!strcmp(a, "--workers"))
			o.workers = strtoul(v, NULL, 0);
		else if (!strcmp(a, "--log"))
			o.logdir = v;
		else
			usage();
	}
	if (!o.workers || o.workers > ST_MAX_WORKERS)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!o.logdir) {
		snprintf(logdir, sizeof(logdir), "/tmp/vpmu_stress-%llu",
			 (unsigned long long)o.seed);
		o.logdir = logdir;
	}
	mkdir(o.logdir, 0755);
	module_params(o.seed, params, sizeof(params));
	printf("# vpmu_stress --seed %llu --seconds %u --workers %u%s: module %s, logs in %s\n",
	       (unsigned long long)o.seed, o.seconds, o.workers,
	       o.ops != ~0ull ? " (--ops bound)" : "",
	       o.keep_module ? "as loaded" : params, o.logdir);

	if (!vl_module_loaded() || access(VPMU_DEV, F_OK)) {
		printf("# SKIP: vpmu is not loaded\n");
		return 4;
	}
	if (geteuid()) {
		printf("# SKIP: needs root\n");
		return 4;
	}
	if (!o.keep_module) {
		ret = rmmod_retry();
		if (!ret)
			ret = vl_insmod(params);
		if (ret) {
			printf("# FAIL (seed %llu): reloading the module with %s: %s\n",
			       (unsigned long long)o.seed, params,
			       st_errname(ret));
			vl_insmod("");
			return 1;
		}
	}
	if (read_info() || read_images()) {
		printf("# SKIP: cannot read the PMU's sysfs files or $VPMU_SHARE/build\n");
		return 4;
	}
	printf("# PMU type %d, %d counters, %d format fields, %d aliases, %d CPUs\n",
	       st.type, st.nr_counters, st.nfield, st.nalias, st.ncpus);

	end = start + o.seconds;
	for (i = 0; i < o.workers; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			printf("# FAIL: fork: %s\n", strerror(errno));
			return 1;
		}
		if (!pids[i])
			worker_main(&o, i, end);
	}
	/* Wait; a worker still there 60 s after the end is hung. */
	for (left = o.workers; left;) {
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);

		if (pid <= 0) {
			if (now() > end + 60) {
				printf("# FAIL (seed %llu): %u workers hung after the end; killing them\n",
				       (unsigned long long)o.seed, left);
				failures++;
				for (i = 0; i < o.workers; i++)
					if (pids[i] > 0)
						kill(pids[i], SIGKILL);
				while (wait(NULL) > 0)
					;
				break;
			}
			usleep(50000);
			continue;
		}
		for (i = 0; i < o.workers; i++) {
			if (pids[i] != pid)
				continue;
			pids[i] = 0;
			left--;
			if (!WIFEXITED(status) || WEXITSTATUS(status)) {
				char path[512];

				failures++;
				printf("# FAIL (seed %llu): worker %u (%s) %s %d\n",
				       (unsigned long long)o.seed, i,
				       role_names[role_of(i)],
				       WIFEXITED(status) ? "exit status" : "killed by signal",
				       WIFEXITED(status) ? WEXITSTATUS(status) :
							   WTERMSIG(status));
				snprintf(path, sizeof(path), "%s/w%u.log",
					 o.logdir, i);
				tail_log(path);
			}
		}
	}

	/* The end: nothing open, unload, load with default parameters. */
	restore_sysfs();
	if (perf_fds_open()) {
		printf("# FAIL (seed %llu): %d perf event fds still open in the parent\n",
		       (unsigned long long)o.seed, perf_fds_open());
		failures++;
	}
	if (!o.keep_module) {
		ret = rmmod_retry();
		if (ret) {
			printf("# FAIL (seed %llu): rmmod vpmu at the end: %s\n",
			       (unsigned long long)o.seed, st_errname(ret));
			failures++;
		}
		ret = vl_insmod("");
		if (ret && !vl_module_loaded()) {
			printf("# FAIL (seed %llu): insmod %s at the end: %s\n",
			       (unsigned long long)o.seed, vl_ko(),
			       st_errname(ret));
			failures++;
		}
	}
	printf("# seed %llu: %s after %.1f s (%d failures)\n",
	       (unsigned long long)o.seed, failures ? "FAIL" : "pass",
	       now() - start, failures);
	return failures ? 1 : 0;
}
