/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_uhist.h - what the tests of the micro-PC histogram's sysfs files,
 * uhist/, share (vpmu_uhist.c: controls, contents and CPUs;
 * vpmu_uhist_readers.c: files read while sampling runs): the files and
 * their checks, and the fixture (sort.vprg and sortloop.vprg pinned to
 * CPU 0, the histogram stopped and its interval restored after).
 */
#ifndef VPMU_UHIST_H
#define VPMU_UHIST_H

#include "vpmu_test.h"

#define VT_UHIST_BUDGET		10000000ull
#define VT_SORT_CYCLES	1081ull		/* samples/sort.expect */
#define VT_HIST_TOOL	"vpmu-hist"	/* on PATH */

struct vt_hist {
	struct vpmu_uhist_header h;
	uint64_t *b;
	size_t len;
};

/* Write @word to uhist/control; 0 or -errno. */
static inline int vt_uhist_ctl(const char *word)
{
	return vt_pmu_write("uhist/control", word);
}

/* uhist/state, or "" */
static inline const char *vt_uhist_state(char *buf, size_t size)
{
	vt_pmu_read("uhist/state", buf, size);
	return buf;
}

static inline void vt_hist_free(struct vt_hist *x)
{
	free(x->b);
	x->b = NULL;
}

/*
 * Read uhist/NAME (or any histogram file) and check it as vpmu-hist does:
 * magic, version, sizes, reserved fields, samples.  0 or -1.
 */
static inline int vt_hist_load(const char *path, struct vt_hist *x)
{
	uint8_t *p = vt_read_file(path, &x->len);
	uint64_t sum = 0;
	uint32_t i;

	x->b = NULL;
	if (!p || x->len < sizeof(x->h))
		goto bad;
	memcpy(&x->h, p, sizeof(x->h));
	if (x->h.magic != VPMU_UHIST_MAGIC ||
	    x->h.version != VPMU_UHIST_VERSION ||
	    x->h.header_size != sizeof(x->h) ||
	    x->h.nbuckets < 1 || x->h.nbuckets > 4096 ||
	    x->len != sizeof(x->h) + 8ull * x->h.nbuckets || x->h.reserved0 ||
	    x->h.reserved[0] || x->h.reserved[1] || x->h.reserved[2] ||
	    x->h.reserved[3])
		goto bad;
	x->b = malloc(8ull * x->h.nbuckets);
	if (!x->b)
		goto bad;
	memcpy(x->b, p + sizeof(x->h), 8ull * x->h.nbuckets);
	for (i = 0; i < x->h.nbuckets; i++)
		sum += x->b[i];
	free(p);
	if (sum != x->h.samples) {
		vt_hist_free(x);
		return -1;
	}
	return 0;
bad:
	free(p);
	return -1;
}

static inline int vt_uhist_read(const char *name, struct vt_hist *x)
{
	char path[256];

	snprintf(path, sizeof(path), VT_UHIST "%s", name);
	return vt_hist_load(path, x);
}

FIXTURE(uhist) {
	int fd;
	struct vt_prog sort, loop;
	uint8_t *sort_mem, *loop_mem;
	char interval[32];
};

FIXTURE_SETUP(uhist)
{
	size_t len;
	uint8_t *p;

	self->fd = -1;
	self->interval[0] = '\0';
	if (access(VT_UHIST "control", F_OK))
		SKIP(return, "no %scontrol (module without the histogram?)",
		     VT_UHIST);
	if (vt_setup_runs(_metadata, &self->fd, &self->sort, "sort",
			  &self->loop, "sortloop", NULL))
		return;
	self->sort_mem = vt_prog_mem(&self->sort);
	self->loop_mem = vt_prog_mem(&self->loop);
	ASSERT_NE(NULL, self->sort_mem);
	ASSERT_NE(NULL, self->loop_mem);
	p = vt_read_file(VT_UHIST "interval", &len);
	ASSERT_NE(NULL, p);
	snprintf(self->interval, sizeof(self->interval), "%s", (char *)p);
	free(p);
	ASSERT_EQ(0, vt_pin(0));
	ASSERT_EQ(0, vt_uhist_ctl("stop"));
}

FIXTURE_TEARDOWN(uhist)
{
	if (!access(VT_CPU1_ONLINE, F_OK))
		vt_cpu1_set(1);
	if (self->interval[0]) {
		vt_uhist_ctl("stop");
		vt_pmu_write("uhist/interval", self->interval);
	}
	vt_teardown_runs(self->fd, &self->sort, &self->loop, NULL);
	free(self->sort_mem);
	free(self->loop_mem);
}

/* Run sort once on this CPU; its cycles, or 0 on failure. */
static inline uint64_t vt_run_sort(FIXTURE_DATA(uhist) *self)
{
	struct vpmu_run r;

	if (vt_run(self->fd, &self->sort, self->sort_mem, VT_UHIST_BUDGET, &r) ||
	    r.stop != VPMU_RUN_HALT)
		return 0;
	return r.cycles;
}

static inline int vt_hist_zero(const struct vt_hist *x)
{
	uint32_t i;

	for (i = 0; i < x->h.nbuckets; i++)
		if (x->b[i])
			return 0;
	return x->h.samples == 0;
}

#endif /* VPMU_UHIST_H */
