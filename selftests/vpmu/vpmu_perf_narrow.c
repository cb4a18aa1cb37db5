// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_perf_narrow - counters narrower than a run
 * (Documentation/admin-guide/perf/vpmu.rst, "Examples"): the 14-bit counter
 * wraps many times within one run of the sort loop and loses nothing,
 * counting or sampling; periods longer than the counter carry over,
 * frequency mode and period 1 count exactly.
 */
#define _GNU_SOURCE
#include "vpmu_perf.h"

VT_PERF_FIXTURE(narrow, "sortloop");

/*
 * The sort loop for 3 million cycles: cycles on the 14-bit counter 3 wrap
 * 183 times and insns (about 585,000) 35 times within the one run; both
 * must come out exact, the same as on a 16-bit counter, and cycles equal
 * to the run's.
 */
#define LONG_BUDGET	3000017ull

TEST_F_TIMEOUT(narrow, wraps_within_one_run, 120)
{
	uint64_t cycles, insns, ins[2];
	int fc, fi, k, w;
	struct vt_count c;

	if (self->f.nr_counters < 3)
		SKIP(return, "needs 3 counters");
	w = vt_pmu_long("caps/counter2_width");
	TH_LOG("counter 3 is %d bits wide", w);
	ASSERT_LT(0, w);
	ASSERT_EQ(0, vt_alias_cfg("cycles", &cycles));
	ASSERT_EQ(0, vt_alias_cfg("insns", &insns));

	for (k = 0; k < 2; k++) {
		/* k = 0: cycles on counter 3, insns on 1; k = 1 swapped. */
		fc = vt_open_config(cycles | vt_ctr_config(k ? 1 : 3), 0);
		fi = vt_open_config(insns | vt_ctr_config(k ? 3 : 1), 0);
		ASSERT_LE(0, fc);
		ASSERT_LE(0, fi);
		ASSERT_EQ(0, vt_perf_run(&self->f, LONG_BUDGET));
		EXPECT_EQ((__u32)VPMU_RUN_BUDGET, self->f.r.stop);
		EXPECT_EQ(LONG_BUDGET, self->f.r.cycles);
		ASSERT_EQ(0, vt_read_count(fc, &c));
		EXPECT_EQ(c.enabled, c.running);
		EXPECT_EQ(LONG_BUDGET, c.value);
		ASSERT_EQ(0, vt_read_count(fi, &c));
		EXPECT_EQ(c.enabled, c.running);
		ins[k] = c.value;
		close(fc);
		close(fi);
	}
	EXPECT_EQ(ins[0], ins[1]);
	EXPECT_LT(4ull << w, ins[0]);
}

/*
 * Periods longer than the 14-bit counter (carried over) and shorter, over a
 * long run in many chunks: floor(events / period) samples, each at a
 * multiple of the period; frequency mode and period 1 (throttled if the
 * guest is fast enough) count exactly and do not crash.  Built in, the perf
 * core throttles by stopping the event until a tick, as it does a hardware
 * PMU's (Documentation/admin-guide/perf/vpmu.rst, "Sampling"): a throttled
 * event's count misses that time's events, and its PERF_RECORD_THROTTLE may
 * not fit in a full ring, so the count is at most the run's.  As a module,
 * the driver's throttle drops samples and counts on.
 */
TEST_F_TIMEOUT(narrow, sample_long_run, 300)
{
	static const uint64_t periods[] = { 100003, 997 };
	static struct vt_sample s[4000];
	struct perf_event_attr a;
	uint64_t uops, cycles;
	struct vt_ring rb;
	struct vt_count c;
	unsigned int i;
	int k, fd, fc, rate;

	if (self->f.nr_counters < 3)
		SKIP(return, "needs 3 counters");
	ASSERT_EQ(0, vt_alias_cfg("uops", &uops));
	ASSERT_EQ(0, vt_alias_cfg("cycles", &cycles));
	/* Every period sampled: no throttle, whoever's. */
	rate = vt_max_sample_rate(VT_HIGH_SAMPLE_RATE);
	ASSERT_LT(0, rate);
	for (i = 0; i < 2; i++) {
		uint64_t p = periods[i];
		int bad = 0;

		fd = vt_open_sampling(uops | vt_ctr_config(3), p, 0, &rb);
		ASSERT_LE(0, fd);
		fc = vt_open_config(uops | vt_ctr_config(1), 0);
		ASSERT_LE(0, fc);
		ASSERT_EQ(0, vt_perf_run(&self->f, LONG_BUDGET));
		ASSERT_EQ(0, vt_read_count(fc, &c));
		close(fc);
		vt_ring_samples(&rb, s, 4000);
		EXPECT_EQ(c.value / p, (uint64_t)rb.samples)
			TH_LOG("period %llu, %llu events",
			       (unsigned long long)p,
			       (unsigned long long)c.value);
		EXPECT_EQ(0ull, rb.lost_records);
		for (k = 0; k < (int)rb.samples && k < 4000; k++)
			if (s[k].raw.count != (uint64_t)(k + 1) * p || s[k].raw.ctr != 2)
				bad++;
		EXPECT_EQ(0, bad);
		ASSERT_EQ(0, vt_read_count(fd, &c));
		EXPECT_EQ(c.enabled, c.running);
		vt_close_sampling(fd, &rb);
	}
	ASSERT_EQ(VT_HIGH_SAMPLE_RATE, vt_max_sample_rate(rate));

	/* Frequency mode: samples, and the count still exact. */
	vt_count_attr(&a, cycles, 0);
	a.freq = 1;
	a.sample_freq = 1000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
	fd = vt_perf_event_open(&a, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vt_ring_map_pages(fd, &rb, VT_PERF_RING_PAGES));
	ASSERT_EQ(0, vt_perf_run(&self->f, LONG_BUDGET));
	ASSERT_EQ(0, vt_read_count(fd, &c));
	vt_ring_drain(&rb);
	if (vt_module_builtin()) {
		EXPECT_GE(LONG_BUDGET, c.value);
	} else {
		EXPECT_EQ(LONG_BUDGET, c.value);
	}
	EXPECT_LT(0ull, rb.samples);
	TH_LOG("-F 1000: %llu samples, %llu throttled",
	       (unsigned long long)rb.samples,
	       (unsigned long long)rb.throttle);
	vt_close_sampling(fd, &rb);

	/* Period 1: at most one sample per event, the count exact. */
	fd = vt_open_sampling(cycles, 1, 0, &rb);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vt_perf_run(&self->f, 200000));
	ASSERT_EQ(0, vt_read_count(fd, &c));
	vt_ring_drain(&rb);
	if (vt_module_builtin()) {
		EXPECT_GE(200000ull, c.value);
	} else {
		EXPECT_EQ(200000ull, c.value);
	}
	EXPECT_GE(c.value, rb.samples + rb.lost);
	TH_LOG("period 1: %llu samples, %llu lost, %llu throttled",
	       (unsigned long long)rb.samples,
	       (unsigned long long)rb.lost,
	       (unsigned long long)rb.throttle);
	vt_close_sampling(fd, &rb);
}

/*
 * Who throttles (Documentation/admin-guide/perf/vpmu.rst, "Sampling"), with
 * kernel.perf_event_max_sample_rate at 1, one sample a tick: built in, the
 * perf core, which stops the event until a tick and says so
 * (PERF_RECORD_THROTTLE): the count short of the run's cycles, every period
 * of it sampled, none lost; as a module the driver, at the default rate
 * whatever the sysctl says: no throttle records, the count exact, every
 * period a sample or a loss.
 */
TEST_F_TIMEOUT(narrow, throttle_owner, 120)
{
	struct perf_event_attr a;
	struct vt_ring rb;
	uint64_t cycles, v[2], periods;	/* value, lost (PERF_FORMAT_LOST) */
	int fd, rate;

	ASSERT_EQ(0, vt_alias_cfg("cycles", &cycles));
	vt_attr(&a, cycles, 0);
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IP;
	a.read_format = PERF_FORMAT_LOST;
	rate = vt_max_sample_rate(1);
	ASSERT_LT(0, rate);
	fd = vt_open(&a, 0, -1, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vt_ring_map_pages(fd, &rb, VT_PERF_RING_PAGES));
	ASSERT_EQ(0, vt_perf_run(&self->f, LONG_BUDGET));
	EXPECT_EQ(1, vt_max_sample_rate(rate));
	ASSERT_EQ((ssize_t)sizeof(v), read(fd, v, sizeof(v)));
	vt_ring_drain(&rb);
	periods = v[0] / 1000;
	TH_LOG("%s: count %llu, %llu samples, %llu lost, %llu throttled",
	       vt_module_builtin() ? "built in" : "module",
	       (unsigned long long)v[0], (unsigned long long)rb.samples,
	       (unsigned long long)v[1], (unsigned long long)rb.throttle);
	if (vt_module_builtin()) {
		EXPECT_LT(0ull, rb.throttle);
		EXPECT_GT(LONG_BUDGET, v[0]);
		EXPECT_EQ(0ull, v[1]);
		EXPECT_EQ(periods, rb.samples);
	} else {
		EXPECT_EQ(0ull, rb.throttle);
		EXPECT_EQ(LONG_BUDGET, v[0]);
		EXPECT_EQ(periods, rb.samples + v[1]);
	}
	vt_ring_unmap(&rb);
	close(fd);
}

TEST_HARNESS_MAIN
