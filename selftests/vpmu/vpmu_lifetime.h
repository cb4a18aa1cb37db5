/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_lifetime.h - what the lifetime tests share (vpmu_lifetime.c: close
 * orders, racing CPUs; vpmu_lifetime_refused.c: what cannot count): the
 * life fixture (marks.vprg and sum.vprg, uops and the freeze control of a
 * group that starts frozen and toggles on marks), runs, freeze pairs.
 *
 * marks.vprg runs 1000 regions of 18 microwords between two marks (35004
 * in all), so a group that starts frozen and toggles on marks counts
 * 18000 uops per run; sum.vprg is 179 microwords.
 */
#ifndef VPMU_LIFETIME_H
#define VPMU_LIFETIME_H

#include "vpmu_test.h"
#include "vpmu_perf_lib.h"

#define VT_LIFE_BUDGET		10000000ull
#define VT_MARKS_REGION	18000ull	/* uops of marks.vprg inside regions */

FIXTURE(life) {
	int dev;
	struct vt_prog marks, sum;
	uint8_t *mem;
	uint64_t uops, c1_frz;
};

FIXTURE_SETUP(life)
{
	if (vt_setup_runs(_metadata, &self->dev, &self->marks, "marks",
			  &self->sum, "sum", NULL))
		return;
	self->mem = aligned_alloc(8, 1 << 20);
	ASSERT_NE(NULL, self->mem);
	self->uops = vt_alias("uops");
	ASSERT_NE(~0ull, self->uops);
	self->c1_frz = vt_field("trig_mark", 1) | vt_field("frozen", 1);
	ASSERT_EQ(0, vt_pin(0));
}

FIXTURE_TEARDOWN(life)
{
	vt_teardown_runs(self->dev, &self->marks, &self->sum, NULL);
	free(self->mem);
}

/* Run @p to its halt; 0 or -errno. */
static inline int vt_life_run(FIXTURE_DATA(life) *self, const struct vt_prog *p)
{
	struct vpmu_run r;

	return vt_run_halt(self->dev, p, self->mem, VT_LIFE_BUDGET, &r);
}

/*
 * A freeze group of two uops counters, leader and member, on @pid/@cpu
 * (@inherit for per-task ones); 0 or -errno.
 */
static inline int vt_open_frz_pair(FIXTURE_DATA(life) *self, pid_t pid,
				   int cpu, int inherit, int fd[2])
{
	struct perf_event_attr a;

	vt_attr(&a, self->uops, self->c1_frz);
	a.inherit = inherit;
	fd[0] = vt_open(&a, pid, cpu, -1);
	if (fd[0] < 0)
		return fd[0];
	vt_attr(&a, self->uops, 0);
	a.inherit = inherit;
	fd[1] = vt_open(&a, pid, cpu, fd[0]);
	if (fd[1] < 0) {
		close(fd[0]);
		return fd[1];
	}
	return 0;
}

/* Block until a byte arrives on @fd. */
static inline void vt_wait_byte(int fd)
{
	char c;

	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
}

#endif /* VPMU_LIFETIME_H */
