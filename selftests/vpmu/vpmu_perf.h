/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_perf.h - what the tests of the "vpmu" PMU through perf_event_open()
 * share (vpmu_perf.c: attribution, ioctls, invalid configurations, the
 * module reference; vpmu_perf_expect.c: exact counts of every sample;
 * vpmu_perf_groups.c; vpmu_perf_sampling.c; vpmu_perf_narrow.c: 14-bit
 * counters; vpmu_perf_reload.c: images replaced under open events): the
 * data of their fixtures (the PMU, /dev/vpmu and one program), runs, and
 * counting and sampling events as perf opens them.  Events are configured
 * from the PMU's own format/ and events/ files, so those are checked too.
 */
#ifndef VPMU_PERF_H
#define VPMU_PERF_H

#include "vpmu_test.h"
#include "vpmu_perf_lib.h"

#define VT_PERF_BUDGET		1000000ull
#define VT_PERF_RING_PAGES	256

/* What every fixture here sets up: the PMU, the device, one program. */
struct vt_perf_fx {
	int dev;
	struct vt_prog p;
	uint8_t *mem;
	int nr_counters;
	struct vpmu_run r;
};

static inline void vt_perf_fx_setup(struct __test_metadata *_metadata,
				    struct vt_perf_fx *f, const char *prog)
{
	if (vt_setup_runs(_metadata, &f->dev, &f->p, prog, NULL))
		return;
	f->nr_counters = vt_pmu_long("caps/nr_counters");
	ASSERT_LT(0, f->nr_counters);
	f->mem = vt_prog_mem(&f->p);
	ASSERT_NE(NULL, f->mem);
}

static inline void vt_perf_fx_teardown(struct vt_perf_fx *f)
{
	vt_teardown_runs(f->dev, &f->p, NULL);
	free(f->mem);
}

/* FIXTURE(@name) of struct vt_perf_fx f, set up with share/build/@prog.vprg. */
#define VT_PERF_FIXTURE(name, prog)					\
	FIXTURE(name) {							\
		struct vt_perf_fx f;					\
	};								\
	FIXTURE_SETUP(name)						\
	{								\
		vt_perf_fx_setup(_metadata, &self->f, prog);		\
	}								\
	FIXTURE_TEARDOWN(name)						\
	{								\
		vt_perf_fx_teardown(&self->f);				\
	}

/* One run of the fixture's program from fresh memory, into f->r. */
static inline int vt_perf_run(struct vt_perf_fx *f, uint64_t budget)
{
	return vt_run(f->dev, &f->p, f->mem, budget, &f->r);
}

/* Config of counter @n (1-based) pinned, from format/ctr. */
static inline uint64_t vt_ctr_config(int n)
{
	return (uint64_t)n << vt_config_shift("ctr");
}

/* A counting event (struct vt_count) on this task, any CPU; fd or -errno. */
static inline int vt_open_config(uint64_t config, int disabled)
{
	struct perf_event_attr a;

	vt_count_attr(&a, config, 0);
	a.disabled = disabled;
	return vt_open(&a, 0, -1, -1);
}

/*
 * Open a sampling event on this task (sample_type IP | RAW unless @type)
 * with a ring of VT_PERF_RING_PAGES; fd or -errno.
 */
static inline int vt_open_sampling(uint64_t config, uint64_t period,
				   uint64_t type, struct vt_ring *rb)
{
	struct perf_event_attr a;
	int fd;

	vt_count_attr(&a, config, 0);
	a.sample_period = period;
	a.sample_type = type ? type : PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
	fd = vt_open(&a, 0, -1, -1);
	if (fd < 0)
		return fd;
	if (vt_ring_map_pages(fd, rb, VT_PERF_RING_PAGES)) {
		close(fd);
		return -ENOMEM;
	}
	return fd;
}

static inline void vt_close_sampling(int fd, struct vt_ring *rb)
{
	vt_ring_unmap(rb);
	close(fd);
}

#endif /* VPMU_PERF_H */
