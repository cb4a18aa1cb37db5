// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_perf_groups - event groups of the "vpmu" PMU
 * (Documentation/admin-guide/perf/vpmu.rst, "PMU events").
 *
 * A group reads in one go with exact values and matching IDs; a pinned
 * member keeps its counter; groups that can never be on the counters at
 * once are refused (6.2 on) or never run (6.1); more events than counters
 * share them, nr_counters at every instant.
 */
#define _GNU_SOURCE
#include "vpmu_perf.h"

VT_PERF_FIXTURE(perf, "sum");

/* Open @n events of @configs as one group; fds in @fds; -errno of a failure. */
static int open_group(const uint64_t *configs, int n, int *fds)
{
	struct perf_event_attr a;
	int i;

	for (i = 0; i < n; i++) {
		vt_attr(&a, configs[i], 0);
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID | VT_RF_TIMES;
		a.disabled = !i;
		fds[i] = vt_open(&a, 0, -1, i ? fds[0] : -1);
		if (fds[i] < 0) {
			int err = fds[i];

			while (i--)
				close(fds[i]);
			return err;
		}
	}
	return 0;
}

static void close_all(int *fds, int n)
{
	while (n--)
		close(fds[n]);
}

/* cycles, uops, insns as a group: one read, exact values, matching IDs. */
TEST_F(perf, group_read)
{
	static const char *const names[] = { "cycles", "uops", "insns" };
	uint64_t configs[3], want[3] = { 179, 179, 32 };
	struct vt_group_read g;
	int fds[3], i;

	if (self->f.nr_counters < 3)
		SKIP(return, "needs 3 counters");
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, vt_alias_cfg(names[i], &configs[i]));
	ASSERT_EQ(0, open_group(configs, 3, fds));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_LT(0, read(fds[0], &g, sizeof(g)));
	ASSERT_EQ(3ull, g.nr);
	EXPECT_LT(0ull, g.running);
	EXPECT_EQ(g.enabled, g.running);
	for (i = 0; i < 3; i++) {
		uint64_t id;

		ASSERT_EQ(0, ioctl(fds[i], PERF_EVENT_IOC_ID, &id));
		EXPECT_EQ(id, g.cntr[i].id);
		EXPECT_EQ(want[i], g.cntr[i].value) TH_LOG("%s", names[i]);
	}
	close_all(fds, 3);
}

/*
 * A member pinned to counter 1 and one that takes any counter: the free
 * one must leave counter 1 to its sibling, whichever is added first.
 */
TEST_F(perf, group_pinned_and_free)
{
	uint64_t configs[2];
	struct vt_group_read g;
	int fds[2];

	ASSERT_EQ(0, vt_alias_cfg("uops", &configs[0]));
	ASSERT_EQ(0, vt_alias_cfg("cycles", &configs[1]));
	if (self->f.nr_counters < 2)
		SKIP(return, "needs 2 counters");
	configs[1] |= vt_ctr_config(1);
	ASSERT_EQ(0, open_group(configs, 2, fds));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	ASSERT_LT(0, read(fds[0], &g, sizeof(g)));
	EXPECT_EQ(g.enabled, g.running);
	EXPECT_EQ(VT_SUM_CYCLES, g.cntr[0].value);
	EXPECT_EQ(VT_SUM_CYCLES, g.cntr[1].value);
	close_all(fds, 2);
}

/*
 * Groups that can never be on the counters at once: more members than
 * counters, or two pinned to one counter.  From 6.2 on the last member's
 * open fails with EINVAL; on 6.1 (perf_sw_context, where event_init may
 * not walk the group) the group opens and never runs: time_running stays
 * 0 and every value 0.
 */
static void group_never_fits(struct __test_metadata *_metadata,
			     struct vt_perf_fx *f, const uint64_t *configs, int n)
{
	struct vt_group_read g;
	int fds[VT_MAX_CTRS + 1], ret, i;

	ret = open_group(configs, n, fds);
	if (!vt_kernel_before(6, 2)) {
		ASSERT_EQ(-EINVAL, ret);
		return;
	}
	ASSERT_EQ(0, ret) TH_LOG("open: %s", strerror(-ret));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, vt_perf_run(f, VT_PERF_BUDGET));
	ASSERT_LT(0, read(fds[0], &g, sizeof(g)));
	ASSERT_EQ((uint64_t)n, g.nr);
	EXPECT_LT(0ull, g.enabled);
	EXPECT_EQ(0ull, g.running);
	for (i = 0; i < n; i++)
		EXPECT_EQ(0ull, g.cntr[i].value);
	close_all(fds, n);
}

TEST_F(perf, group_too_big)
{
	uint64_t configs[VT_MAX_CTRS + 1];
	int i;

	for (i = 0; i <= self->f.nr_counters; i++)
		ASSERT_EQ(0, vt_alias_cfg("uops", &configs[i]));
	group_never_fits(_metadata, &self->f, configs, self->f.nr_counters + 1);
}

TEST_F(perf, group_pinned_conflict)
{
	uint64_t configs[2];

	ASSERT_EQ(0, vt_alias_cfg("uops", &configs[0]));
	configs[0] |= vt_ctr_config(1);
	configs[1] = configs[0];
	group_never_fits(_metadata, &self->f, configs, 2);
}

/*
 * One event more than there are counters, all counting cycles, on one
 * 10M-cycle run.  At every instant of the run exactly nr_counters of them
 * are on the counters (the rest wait; the perf core switches them only
 * between run chunks), so their counts add up to exactly nr_counters x
 * the run's cycles on every kernel.  From 6.2 the core rotates them
 * (every event runs a while); on 6.1 (perf_sw_context) it does not: the
 * first nr_counters run the whole time, the last never.
 */
TEST_F_TIMEOUT(perf, more_events_than_counters, 180)
{
	struct vt_count c[VT_MAX_CTRS + 1];
	int fds[VT_MAX_CTRS + 1], n = self->f.nr_counters + 1, i;
	uint64_t total = 0, want = 10000000;
	struct vt_prog p;
	uint8_t *mem;

	if (vt_need_prog(_metadata, &p, &mem, "spin"))
		return;
	for (i = 0; i < n; i++) {
		fds[i] = vt_open_config(0, 0);	/* vpmu_cycles */
		ASSERT_LE(0, fds[i]);
	}
	ASSERT_EQ(0, vt_run(self->f.dev, &p, mem, want, &self->f.r));
	ASSERT_EQ(want, self->f.r.cycles);
	/*
	 * Read them all before closing any: closing one frees its counter,
	 * and the waiting event may then get on (and run a little) before
	 * it is read.
	 */
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, vt_read_count(fds[i], &c[i]));
	for (i = 0; i < n; i++) {
		close(fds[i]);
		total += c[i].value;
		TH_LOG("event %d: %llu, running %llu of %llu ns", i,
		       (unsigned long long)c[i].value,
		       (unsigned long long)c[i].running,
		       (unsigned long long)c[i].enabled);
		if (c[i].running == c[i].enabled)
			EXPECT_EQ(want, c[i].value);
		if (!c[i].running)
			EXPECT_EQ(0ull, c[i].value);
	}
	EXPECT_EQ(self->f.nr_counters * want, total);
	if (vt_kernel_before(6, 2)) {
		for (i = 0; i < n - 1; i++)
			EXPECT_EQ(want, c[i].value);
		EXPECT_EQ(0ull, c[n - 1].running);
	} else {
		for (i = 0; i < n; i++)
			EXPECT_LT(0ull, c[i].running) TH_LOG("not rotated in");
	}
	free(mem);
	vt_prog_free(&p);
}

TEST_HARNESS_MAIN
