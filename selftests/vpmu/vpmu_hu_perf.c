// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hu_perf - the histogram unit's buckets as perf events
 * (Documentation/admin-guide/perf/vpmu.rst, "The vpmu_hu PMU").
 *
 * Bucket events (PMU vpmu_hu, bucket=1..16) count what the sysfs buckets
 * say, per task, CPU-wide and in a group of buckets, never in one with
 * vpmu's events, and do not jump when the program changes or the buckets
 * are reset under them; an image change loses nothing; an offline CPU's
 * engine takes programs and resets.
 */
#define _GNU_SOURCE
#include "vpmu_hu.h"
#include "vpmu_perf_lib.h"

/* A counting bucket event on this task; fd or -errno. */
static int open_bucket(unsigned int b)
{
	struct perf_event_attr a;

	vt_hu_attr(&a, b);
	return vt_open(&a, 0, -1, -1);
}

/*
 * vpmu_hu's events/histB say "bucket=B", its format/bucket config:0-7;
 * vpmu's events/ has no bucket under either of its names.
 */
TEST_F(hu, perf_aliases)
{
	char path[128], buf[64], want[32];
	unsigned int b;

	ASSERT_LT(0, vt_hu_type());
	EXPECT_NE(vt_type(), vt_hu_type());
	ASSERT_EQ(0, vt_read_line(VT_HU_PMU_DIR "/format/bucket", buf,
				  sizeof(buf)));
	EXPECT_STREQ("config:0-7", buf);
	for (b = 1; b <= VT_HU_NB; b++) {
		snprintf(path, sizeof(path), VT_HU_PMU_DIR "/events/hist%u", b);
		snprintf(want, sizeof(want), "bucket=%u", b);
		ASSERT_EQ(0, vt_read_line(path, buf, sizeof(buf))) TH_LOG("%s", path);
		EXPECT_STREQ(want, buf);
		snprintf(path, sizeof(path), "events/hist%u", b);
		EXPECT_EQ(-1, vt_pmu_read(path, buf, sizeof(buf))) TH_LOG("%s", path);
		snprintf(path, sizeof(path), "events/vpmu_hist%u", b);
		EXPECT_EQ(-1, vt_pmu_read(path, buf, sizeof(buf))) TH_LOG("%s", path);
	}
	snprintf(path, sizeof(path), VT_HU_PMU_DIR "/events/hist%u", b);
	EXPECT_NE(0, access(path, F_OK));
}

TEST_F(hu, perf_bad_configs)
{
	/* counting only, both modes */
	static const struct {
		uint64_t config, period;
		bool exclude_user, exclude_kernel, exclude_host;
	} refused[] = {
		{ 1, 1000, false, false, false },
		{ 1, 0, true, false, false },
		{ 2, 0, false, true, false },
		{ 2, 0, false, false, true },
	};
	union {
		struct perf_event_attr a;
		uint64_t u[24];
	} big;
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
	/* no bit beyond the bucket, no config1 (a bucket has no freeze bit) */
	EXPECT_EQ(-EINVAL, open_bucket(0x101));
	EXPECT_EQ(-EINVAL, open_bucket(1 | 1u << 20));
	vt_hu_attr(&a, 1);
	a.config1 = 1ull << 20;
	EXPECT_EQ(-EINVAL, vt_open(&a, 0, -1, -1));
	vt_hu_attr(&a, 1);
	a.config2 = 1;
	EXPECT_EQ(-EINVAL, vt_open(&a, 0, -1, -1));
	/*
	 * nor config3 (an attribute of 136 bytes) or config4 (144): refused
	 * by vpmu_hu, or by a core without the field (E2BIG)
	 */
	for (i = 136; i <= 144; i += 8) {
		memset(&big, 0, sizeof(big));
		vt_hu_attr(&big.a, 1);
		big.a.size = i;
		big.u[i / 8 - 1] = 1;
		fd = vt_open(&big.a, 0, -1, -1);
		EXPECT_TRUE(fd == -EINVAL || fd == -E2BIG) TH_LOG("size %u: %d", i, fd);
		if (fd >= 0)
			close(fd);
	}
	/* vpmu's events 0x200..0x2ff: none, the buckets are vpmu_hu's */
	vt_attr(&a, 0x201, 0);
	EXPECT_EQ(-ENOENT, vt_open(&a, 0, -1, -1));
	vt_attr(&a, 0x2ff, 0);
	EXPECT_EQ(-ENOENT, vt_open(&a, 0, -1, -1));
	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		vt_hu_attr(&a, refused[i].config);
		a.sample_period = refused[i].period;
		a.exclude_user = refused[i].exclude_user;
		a.exclude_kernel = refused[i].exclude_kernel;
		a.exclude_host = refused[i].exclude_host;
		EXPECT_EQ(-EOPNOTSUPP, vt_open(&a, 0, -1, -1)) TH_LOG("case %u", i);
	}
	vt_hu_attr(&a, 2);
	a.exclude_hv = 1;
	a.exclude_idle = 1;
	fd = vt_open(&a, 0, -1, -1);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
}

/* Per-task bucket events count what VPMU_IOC_HU_READ shows of CPU 0 and the sum. */
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
	ASSERT_EQ(6, vt_hu_buckets(0, c));
	ASSERT_EQ(6, vt_hu_buckets(VT_HU_SUM, s));
	for (i = 0; i < 6; i++) {
		EXPECT_EQ(c[i], vt_count(fd[i])) TH_LOG("C%d", i + 1);
		EXPECT_EQ(c[i], s[i]);
		close(fd[i]);
	}
	EXPECT_NE(0u, c[0]);
}

/*
 * vpmu's and vpmu_hu's events never share a group, whichever leads (the
 * perf core from 6.2 on refuses two hardware PMUs in one group itself;
 * 6.1, where both are of the software context, would not).
 */
TEST_F(hu, perf_mixed_group_refused)
{
	struct perf_event_attr a;
	int lead, fd;

	ASSERT_EQ(0, vt_hu_prog("par;vpmu_uops 1000000"));
	vt_attr(&a, 0, 0);	/* vpmu_cycles */
	a.disabled = 1;
	lead = vt_open(&a, 0, -1, -1);
	ASSERT_LE(0, lead);
	vt_hu_attr(&a, 1);
	fd = vt_open(&a, 0, -1, lead);
	EXPECT_EQ(-EINVAL, fd);
	if (fd >= 0)
		close(fd);
	close(lead);

	vt_hu_attr(&a, 1);
	a.disabled = 1;
	lead = vt_open(&a, 0, -1, -1);
	ASSERT_LE(0, lead);
	vt_attr(&a, 0, 0);
	fd = vt_open(&a, 0, -1, lead);
	EXPECT_EQ(-EINVAL, fd);
	if (fd >= 0)
		close(fd);
	close(lead);
}

/* CPU-wide on CPU 0, and a group of buckets beside a counter event. */
TEST_F(hu, perf_cpu_wide_group)
{
	struct perf_event_attr a;
	struct {
		uint64_t nr, v[3];
	} g;
	uint64_t c[VT_HU_NB], cyc;
	int lead, m[2], cycles, cw, i;

	ASSERT_EQ(0, vt_hu_prog("par;vpmu_uops 1000000;vpmu_insns 1000000;vpmu_stores 1000000"));
	vt_hu_attr(&a, 1);
	cw = vt_open(&a, -1, 0, -1);
	if (cw == -EACCES)
		SKIP(return, "CPU-wide events not allowed");
	ASSERT_LE(0, cw);
	vt_attr(&a, 0, 0);	/* vpmu_cycles on a counter */
	cycles = vt_open(&a, 0, -1, -1);
	ASSERT_LE(0, cycles);
	vt_hu_attr(&a, 1);
	a.read_format = PERF_FORMAT_GROUP;
	a.disabled = 1;
	lead = vt_open(&a, 0, -1, -1);
	ASSERT_LE(0, lead);
	for (i = 0; i < 2; i++) {
		vt_hu_attr(&a, 2 + i);
		a.read_format = PERF_FORMAT_GROUP;
		m[i] = vt_open(&a, 0, -1, lead);
		ASSERT_LE(0, m[i]);
	}
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	cyc = vt_hu_run(self, &self->memcpy_);
	ASSERT_EQ(3120u, cyc);
	ASSERT_EQ((ssize_t)sizeof(g), read(lead, &g, sizeof(g)));
	EXPECT_EQ(3u, g.nr);
	EXPECT_EQ(cyc, vt_count(cycles));
	EXPECT_EQ(3056u, g.v[0]);
	EXPECT_EQ(551u, g.v[1]);
	EXPECT_EQ(16u, g.v[2]);
	ASSERT_EQ(3, vt_hu_buckets(0, c));
	EXPECT_EQ(c[0], g.v[0]);
	EXPECT_EQ(c[0], vt_count(cw));
	for (i = 0; i < 2; i++)
		close(m[i]);
	close(lead);
	close(cycles);
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
	ASSERT_EQ(1, vt_hu_buckets(1, c));
	EXPECT_EQ(179u, c[0]);
	ASSERT_EQ(1, vt_hu_buckets(VT_HU_SUM, s));
	EXPECT_EQ(358u, s[0]);

	ASSERT_EQ(0, vt_write_file(VT_CPU1_ONLINE, "0"));
	ASSERT_EQ(1, vt_hu_buckets(1, c));
	EXPECT_EQ(179u, c[0]);
	ASSERT_EQ(0, vt_pmu_write("hist/control", "reset"));
	ASSERT_EQ(1, vt_hu_buckets(1, c));
	EXPECT_EQ(0u, c[0]);
	ASSERT_EQ(0, vt_hu_prog("seq;vpmu_cycles 10;vpmu_cycles 10"));
	ASSERT_EQ(2, vt_hu_buckets(1, c));
	EXPECT_EQ(0u, c[0] + c[1]);
	ASSERT_EQ(0, vt_write_file(VT_CPU1_ONLINE, "1"));

	/* 179 = 8 x 20 + 19 */
	ASSERT_EQ(0, vt_pin(1));
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	ASSERT_EQ(0, vt_pin(0));
	ASSERT_EQ(2, vt_hu_buckets(1, c));
	EXPECT_EQ(90u, c[0]);
	EXPECT_EQ(89u, c[1]);
	ASSERT_EQ(2, vt_hu_buckets(0, c));
	EXPECT_EQ(0u, c[0] + c[1]);
	ASSERT_EQ(2, vt_hu_buckets(VT_HU_SUM, s));
	EXPECT_EQ(90u, s[0]);
	EXPECT_EQ(89u, s[1]);
}

TEST_HARNESS_MAIN
