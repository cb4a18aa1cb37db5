// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hu_perf - the histogram unit's buckets as perf events
 * (Documentation/vpmu/histogram.rst, "Histogram unit").
 *
 * Bucket events (event=0x201..) count what the sysfs buckets say, per
 * task, CPU-wide and in a group with a counter, and do not jump when the
 * program changes or the buckets are reset under them; an image change
 * loses nothing; an offline CPU's engine takes programs and resets.
 */
#define _GNU_SOURCE
#include "vpmu_hu.h"
#include "vpmu_perf_lib.h"

/* The event number of events/vpmu_histN ("event=0x2NN"), or -1. */
static long bucket_alias(const char *rel)
{
	char buf[64];

	if (vt_pmu_read(rel, buf, sizeof(buf)))
		return -1;
	return strtol(buf[0] == 'e' ? buf + 6 : buf, NULL, 0);
}

/* A counting bucket event on this task; fd or -errno. */
static int open_bucket(unsigned int b)
{
	struct perf_event_attr a;

	vt_attr(&a, 0x200 + b, 0);
	return vt_open(&a, 0, -1, -1);
}

TEST_F(hu, perf_aliases)
{
	char rel[64];
	unsigned int b;

	for (b = 1; b <= VT_HU_NB; b++) {
		snprintf(rel, sizeof(rel), "events/vpmu_hist%u", b);
		EXPECT_EQ(0x200 + (long)b, bucket_alias(rel)) TH_LOG("%s", rel);
	}
}

TEST_F(hu, perf_bad_configs)
{
	/* counting only, both modes */
	static const struct {
		uint64_t config, period;
		bool exclude_user, exclude_kernel;
	} refused[] = {
		{ 0x201, 1000, false, false },
		{ 0x201, 0, true, false },
		{ 0x202, 0, false, true },
	};
	struct perf_event_attr a;
	unsigned int i;
	int fd;

	/* no program: no buckets */
	EXPECT_EQ(-EINVAL, open_bucket(1));
	ASSERT_EQ(0, vt_hu_prog("par;vpmu_uops 5;vpmu_insns 5"));
	EXPECT_EQ(-EINVAL, open_bucket(0));
	EXPECT_EQ(-EINVAL, open_bucket(3));
	EXPECT_EQ(-EINVAL, open_bucket(17));
	EXPECT_EQ(-EINVAL, open_bucket(0xff));
	/* a bucket takes no counter */
	vt_attr(&a, 0x201 | 1ull << 20, 0);
	EXPECT_EQ(-EINVAL, vt_open(&a, 0, -1, -1));
	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		vt_attr(&a, refused[i].config, 0);
		a.sample_period = refused[i].period;
		a.exclude_user = refused[i].exclude_user;
		a.exclude_kernel = refused[i].exclude_kernel;
		EXPECT_EQ(-EOPNOTSUPP, vt_open(&a, 0, -1, -1)) TH_LOG("case %u", i);
	}
	vt_attr(&a, 0x202, 0);
	a.exclude_hv = 1;
	a.exclude_idle = 1;
	fd = vt_open(&a, 0, -1, -1);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
}

/* Per-task bucket events count what hist/cpu0 and hist/sum show. */
TEST_F(hu, perf_equals_sysfs)
{
	static const char text[] =
		"seq\nvpmu_uops 13\nvpmu_cycles 29\nvpmu_dc_miss 7\nupc=0x40-0xfff 31\n"
		"wq=1-4 11\ntag=4 5\n";
	uint64_t c[VT_HU_NB], s[VT_HU_NB];
	int fd[6], i;

	ASSERT_EQ(0, vt_hu_prog(text));
	for (i = 0; i < 6; i++) {
		fd[i] = open_bucket(i + 1);
		ASSERT_LE(0, fd[i]);
	}
	ASSERT_NE(0ull, vt_hu_run(self, &self->memcpy_));
	ASSERT_NE(0ull, vt_hu_run(self, &self->sort));
	ASSERT_EQ(6, vt_hu_buckets("cpu0", c));
	ASSERT_EQ(6, vt_hu_buckets("sum", s));
	for (i = 0; i < 6; i++) {
		EXPECT_EQ(c[i], vt_count(fd[i])) TH_LOG("C%d", i + 1);
		EXPECT_EQ(c[i], s[i]);
		close(fd[i]);
	}
	EXPECT_NE(0u, c[0]);
}

/* CPU-wide on CPU 0, and in a group led by a counter event. */
TEST_F(hu, perf_cpu_wide_group)
{
	struct perf_event_attr a;
	struct {
		uint64_t nr, v[4];
	} g;
	uint64_t c[VT_HU_NB], cyc;
	int lead, m[3], cw, i;

	ASSERT_EQ(0, vt_hu_prog("par;vpmu_uops 1000000;vpmu_insns 1000000;vpmu_stores 1000000"));
	vt_attr(&a, 0x201, 0);
	cw = vt_open(&a, -1, 0, -1);
	if (cw == -EACCES)
		SKIP(return, "CPU-wide events not allowed");
	ASSERT_LE(0, cw);
	vt_attr(&a, 0, 0);	/* vpmu_cycles on a counter */
	a.read_format = PERF_FORMAT_GROUP;
	a.disabled = 1;
	lead = vt_open(&a, 0, -1, -1);
	ASSERT_LE(0, lead);
	for (i = 0; i < 3; i++) {
		vt_attr(&a, 0x201 + i, 0);
		a.read_format = PERF_FORMAT_GROUP;
		m[i] = vt_open(&a, 0, -1, lead);
		ASSERT_LE(0, m[i]);
	}
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	cyc = vt_hu_run(self, &self->memcpy_);
	ASSERT_EQ(3120u, cyc);
	ASSERT_EQ((ssize_t)sizeof(g), read(lead, &g, sizeof(g)));
	EXPECT_EQ(4u, g.nr);
	EXPECT_EQ(cyc, g.v[0]);
	EXPECT_EQ(3056u, g.v[1]);
	EXPECT_EQ(551u, g.v[2]);
	EXPECT_EQ(16u, g.v[3]);
	ASSERT_EQ(3, vt_hu_buckets("cpu0", c));
	EXPECT_EQ(c[0], g.v[1]);
	EXPECT_EQ(c[0], vt_count(cw));
	for (i = 0; i < 3; i++)
		close(m[i]);
	close(lead);
	close(cw);
}

/*
 * A program write or a reset under open events: they keep what they
 * counted and go on counting from the new zero, never jumping; a bucket
 * the new program lacks counts nothing.
 */
TEST_F(hu, perf_program_change)
{
	int f1, f2;

	ASSERT_EQ(0, vt_hu_prog("par;vpmu_uops 1000000;vpmu_insns 1000000"));
	f1 = open_bucket(1);
	f2 = open_bucket(2);
	ASSERT_LE(0, f1);
	ASSERT_LE(0, f2);
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	EXPECT_EQ(179u, vt_count(f1));
	EXPECT_EQ(32u, vt_count(f2));
	/* the same program again: buckets zeroed, counts kept */
	ASSERT_EQ(0, vt_hu_prog("par;vpmu_uops 1000000;vpmu_insns 1000000"));
	EXPECT_EQ(179u, vt_count(f1));
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	EXPECT_EQ(358u, vt_count(f1));
	EXPECT_EQ(64u, vt_count(f2));
	/* reset under them */
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	ASSERT_EQ(0, vt_pmu_write("hist/control", "reset"));
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	EXPECT_EQ(716u, vt_count(f1));
	EXPECT_EQ(128u, vt_count(f2));
	/* a program with one bucket: the second event stops counting */
	ASSERT_EQ(0, vt_hu_prog("par;vpmu_cycles 1000000"));
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	EXPECT_EQ(716u + 179u, vt_count(f1));
	EXPECT_EQ(128u, vt_count(f2));
	/* and off */
	ASSERT_EQ(0, vt_hu_prog("off"));
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	EXPECT_EQ(716u + 179u, vt_count(f1));
	close(f1);
	close(f2);
}

/*
 * An image change zeroes an engine's buckets when it first runs the new
 * image; the bucket events of that CPU are folded before and restarted
 * after, so they lose nothing (sum: 179 microwords a run).
 */
TEST_F(hu, perf_image_switch)
{
	int fd;

	ASSERT_EQ(0, vt_hu_prog("par;vpmu_uops 1000000"));
	fd = open_bucket(1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	vt_hu_load_variant(_metadata, 300, 0);
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	EXPECT_EQ(358u, vt_count(fd));
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	ASSERT_EQ(0, vt_load_default());
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	EXPECT_EQ(716u, vt_count(fd));
	close(fd);
}

/*
 * CPU 1 offline: its engine takes programs and resets all the same, and
 * its file reads; back online, it counts with the program set meanwhile.
 * A per-task bucket event follows its task from CPU to CPU.
 */
TEST_F(hu, offline_cpu)
{
	uint64_t c[VT_HU_NB], s[VT_HU_NB];
	int fd;

	if (access(VT_CPU1_ONLINE, F_OK))
		SKIP(return, "no %s", VT_CPU1_ONLINE);
	ASSERT_EQ(0, vt_hu_prog("par;vpmu_uops 1000000"));
	fd = open_bucket(1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vt_pin(1));
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	ASSERT_EQ(0, vt_pin(0));
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	EXPECT_EQ(358u, vt_count(fd));
	close(fd);
	ASSERT_EQ(1, vt_hu_buckets("cpu1", c));
	EXPECT_EQ(179u, c[0]);
	ASSERT_EQ(1, vt_hu_buckets("sum", s));
	EXPECT_EQ(358u, s[0]);

	ASSERT_EQ(0, vt_write_file(VT_CPU1_ONLINE, "0"));
	ASSERT_EQ(1, vt_hu_buckets("cpu1", c));
	EXPECT_EQ(179u, c[0]);
	ASSERT_EQ(0, vt_pmu_write("hist/control", "reset"));
	ASSERT_EQ(1, vt_hu_buckets("cpu1", c));
	EXPECT_EQ(0u, c[0]);
	ASSERT_EQ(0, vt_hu_prog("seq;vpmu_cycles 10;vpmu_cycles 10"));
	ASSERT_EQ(2, vt_hu_buckets("cpu1", c));
	EXPECT_EQ(0u, c[0] + c[1]);
	ASSERT_EQ(0, vt_write_file(VT_CPU1_ONLINE, "1"));

	/* 179 = 8 x 20 + 19 */
	ASSERT_EQ(0, vt_pin(1));
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	ASSERT_EQ(0, vt_pin(0));
	ASSERT_EQ(2, vt_hu_buckets("cpu1", c));
	EXPECT_EQ(90u, c[0]);
	EXPECT_EQ(89u, c[1]);
	ASSERT_EQ(2, vt_hu_buckets("cpu0", c));
	EXPECT_EQ(0u, c[0] + c[1]);
	ASSERT_EQ(2, vt_hu_buckets("sum", s));
	EXPECT_EQ(90u, s[0]);
	EXPECT_EQ(89u, s[1]);
}

TEST_HARNESS_MAIN
