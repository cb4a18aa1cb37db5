// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_uhist - the micro-PC histogram's sysfs files, uhist/
 * (Documentation/admin-guide/perf/vpmu.rst, "sysfs").
 *
 * With K = 1 the buckets of a run pinned to one CPU equal, bucket by
 * bucket, the histogram the host engine gives for the same program
 * (VT_HIST_TOOL --simulate: executions plus stall cycles per microword) and
 * sum to the run's cycles; with larger K the samples are floor(cycles /
 * K), the countdown running across programs.  start, pause, resume,
 * reset and stop do what the documentation says; an interval change
 * applies at once and keeps the buckets; files read while a program runs
 * are consistent snapshots that only grow (vpmu_uhist_readers); an
 * offline CPU's buckets stay readable and resettable; another image
 * restarts an engine's buckets.
 * Skips without uhist/, /dev/vpmu or the assembled samples.
 */
#define _GNU_SOURCE
#include "vpmu_uhist.h"

TEST_F(uhist, files_and_header)
{
	const struct vpmu_image_header *ih;
	struct vt_hist c0, s;
	struct stat st;
	uint8_t *img;
	size_t len;
	char buf[32];

	ASSERT_EQ(0, stat(VT_UHIST "control", &st));
	EXPECT_EQ(0200u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(VT_UHIST "interval", &st));
	EXPECT_EQ(0644u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(VT_UHIST "state", &st));
	EXPECT_EQ(0444u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(VT_UHIST "cpu0", &st));
	EXPECT_EQ(0400u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(VT_UHIST "sum", &st));
	EXPECT_EQ(0400u, st.st_mode & 0777);
	EXPECT_STREQ("off", vt_uhist_state(buf, sizeof(buf)));

	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "1"));
	ASSERT_EQ(0, vt_uhist_ctl("start"));
	EXPECT_STREQ("running", vt_uhist_state(buf, sizeof(buf)));
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));

	img = vt_read_image(&len);
	ASSERT_NE(NULL, img);
	ih = (const struct vpmu_image_header *)img;
	ASSERT_EQ(0, vt_uhist_read("cpu0", &c0));
	ASSERT_EQ(0, vt_uhist_read("sum", &s));
	EXPECT_EQ(ih->cs_words, c0.h.nbuckets);
	EXPECT_EQ(ih->checksum, c0.h.image_checksum);
	EXPECT_EQ(vt_generation(), c0.h.generation);
	EXPECT_EQ(1u, c0.h.interval);
	EXPECT_EQ(0u, c0.h.cpu);
	EXPECT_EQ(VT_SORT_CYCLES, c0.h.samples);
	EXPECT_EQ(VPMU_UHIST_CPU_SUM, s.h.cpu);
	EXPECT_EQ(ih->cs_words, s.h.nbuckets);
	EXPECT_EQ(ih->checksum, s.h.image_checksum);
	EXPECT_EQ(vt_generation(), s.h.generation);
	/* nothing ran anywhere else: the sum is CPU 0's */
	EXPECT_EQ(0, memcmp(c0.b, s.b, 8ull * c0.h.nbuckets));
	vt_hist_free(&c0);
	vt_hist_free(&s);
	free(img);
}

/* K = 1: exactly the host engine's histogram of the same program. */
TEST_F(uhist, k1_equals_simulation)
{
	char cmd[512], share[256];
	struct vt_hist got, want;
	uint32_t u;
	uint8_t *img;
	size_t len;
	FILE *f;

	if (!vt_have_tool(VT_HIST_TOOL))
		SKIP(return, "no %s", VT_HIST_TOOL);
	img = vt_read_image(&len);
	ASSERT_NE(NULL, img);
	f = fopen("/tmp/vpmu_uhist.vpmu", "w");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(len, fwrite(img, 1, len, f));
	fclose(f);
	free(img);
	snprintf(cmd, sizeof(cmd),
		 VT_HIST_TOOL
		 " --simulate -q -m /tmp/vpmu_uhist.vpmu -K 1 -o /tmp/vpmu_uhist.want %s 2>/dev/null",
		 vt_share(share, sizeof(share), "build/sort.vprg"));
	ASSERT_EQ(0, system(cmd));
	ASSERT_EQ(0, vt_hist_load("/tmp/vpmu_uhist.want", &want));

	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "1"));
	ASSERT_EQ(0, vt_uhist_ctl("start"));
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	ASSERT_EQ(0, vt_uhist_ctl("pause"));
	ASSERT_EQ(0, vt_uhist_read("cpu0", &got));
	ASSERT_EQ(want.h.nbuckets, got.h.nbuckets);
	EXPECT_EQ(want.h.image_checksum, got.h.image_checksum);
	EXPECT_EQ(VT_SORT_CYCLES, want.h.samples);
	EXPECT_EQ(want.h.samples, got.h.samples);
	for (u = 0; u < got.h.nbuckets; u++) {
		EXPECT_EQ(want.b[u], got.b[u]) TH_LOG("bucket 0x%03x", u);
	}
	vt_hist_free(&got);
	vt_hist_free(&want);
	unlink("/tmp/vpmu_uhist.vpmu");
	unlink("/tmp/vpmu_uhist.want");
}

/* K = 7: floor(cycles / 7), the countdown going on across programs. */
TEST_F(uhist, k7_countdown)
{
	struct vt_hist x;

	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "7"));
	ASSERT_EQ(0, vt_uhist_ctl("start"));
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	ASSERT_EQ(0, vt_uhist_read("cpu0", &x));
	EXPECT_EQ(VT_SORT_CYCLES / 7, x.h.samples);
	EXPECT_EQ(7u, x.h.interval);
	vt_hist_free(&x);
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	ASSERT_EQ(0, vt_uhist_read("cpu0", &x));
	EXPECT_EQ(2 * VT_SORT_CYCLES / 7, x.h.samples);
	vt_hist_free(&x);
}

TEST_F(uhist, pause_resume)
{
	struct vt_hist a, b, c;
	char buf[32];
	uint32_t u;

	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "1"));
	ASSERT_EQ(0, vt_uhist_ctl("start"));
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	ASSERT_EQ(0, vt_uhist_ctl("pause"));
	EXPECT_STREQ("paused", vt_uhist_state(buf, sizeof(buf)));
	ASSERT_EQ(0, vt_uhist_read("cpu0", &a));
	EXPECT_EQ(VT_SORT_CYCLES, a.h.samples);
	/* paused: runs leave the buckets alone */
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	ASSERT_EQ(0, vt_uhist_read("cpu0", &b));
	EXPECT_EQ(0, memcmp(a.b, b.b, 8ull * a.h.nbuckets));
	EXPECT_EQ(-EINVAL, vt_uhist_ctl("pause"));
	ASSERT_EQ(0, vt_uhist_ctl("resume"));
	EXPECT_STREQ("running", vt_uhist_state(buf, sizeof(buf)));
	EXPECT_EQ(-EINVAL, vt_uhist_ctl("resume"));
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	ASSERT_EQ(0, vt_uhist_read("cpu0", &c));
	EXPECT_EQ(2 * VT_SORT_CYCLES, c.h.samples);
	for (u = 0; u < c.h.nbuckets; u++) {
		EXPECT_EQ(2 * a.b[u], c.b[u]) TH_LOG("bucket 0x%03x", u);
	}
	vt_hist_free(&a);
	vt_hist_free(&b);
	vt_hist_free(&c);
}

TEST_F(uhist, reset_and_start_zero)
{
	struct vt_hist a, b;
	char buf[32];

	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "1"));
	ASSERT_EQ(0, vt_uhist_ctl("start"));
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	ASSERT_EQ(0, vt_uhist_read("cpu0", &a));
	ASSERT_EQ(0, vt_uhist_ctl("reset"));
	EXPECT_STREQ("running", vt_uhist_state(buf, sizeof(buf)));
	ASSERT_EQ(0, vt_uhist_read("cpu0", &b));
	EXPECT_TRUE(vt_hist_zero(&b));
	vt_hist_free(&b);
	ASSERT_EQ(0, vt_uhist_read("sum", &b));
	EXPECT_TRUE(vt_hist_zero(&b));
	vt_hist_free(&b);
	/* still sampling, from zero */
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	ASSERT_EQ(0, vt_uhist_read("cpu0", &b));
	EXPECT_EQ(0, memcmp(a.b, b.b, 8ull * a.h.nbuckets));
	vt_hist_free(&b);
	/* reset while paused stays paused */
	ASSERT_EQ(0, vt_uhist_ctl("pause"));
	ASSERT_EQ(0, vt_uhist_ctl("reset"));
	EXPECT_STREQ("paused", vt_uhist_state(buf, sizeof(buf)));
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	ASSERT_EQ(0, vt_uhist_read("cpu0", &b));
	EXPECT_TRUE(vt_hist_zero(&b));
	vt_hist_free(&b);
	/* start zeroes too, and runs */
	ASSERT_EQ(0, vt_uhist_ctl("resume"));
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	ASSERT_EQ(0, vt_uhist_ctl("start"));
	EXPECT_STREQ("running", vt_uhist_state(buf, sizeof(buf)));
	ASSERT_EQ(0, vt_uhist_read("cpu0", &b));
	EXPECT_TRUE(vt_hist_zero(&b));
	vt_hist_free(&b);
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	ASSERT_EQ(0, vt_uhist_read("cpu0", &b));
	EXPECT_EQ(0, memcmp(a.b, b.b, 8ull * a.h.nbuckets));
	vt_hist_free(&b);
	vt_hist_free(&a);
}

TEST_F(uhist, stop)
{
	struct vt_hist x;
	char buf[32];

	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "1"));
	ASSERT_EQ(0, vt_uhist_ctl("start"));
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	ASSERT_EQ(0, vt_uhist_ctl("stop"));
	EXPECT_STREQ("off", vt_uhist_state(buf, sizeof(buf)));
	ASSERT_EQ(0, vt_uhist_read("cpu0", &x));
	EXPECT_TRUE(vt_hist_zero(&x));
	vt_hist_free(&x);
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	ASSERT_EQ(0, vt_uhist_read("cpu0", &x));
	EXPECT_TRUE(vt_hist_zero(&x));
	vt_hist_free(&x);
	EXPECT_EQ(-EINVAL, vt_uhist_ctl("pause"));
	EXPECT_EQ(-EINVAL, vt_uhist_ctl("resume"));
	ASSERT_EQ(0, vt_uhist_ctl("stop"));
	EXPECT_STREQ("off", vt_uhist_state(buf, sizeof(buf)));
}

TEST_F(uhist, bad_writes)
{
	char buf[32], *p;
	size_t len;

	EXPECT_EQ(-EINVAL, vt_uhist_ctl("go"));
	EXPECT_EQ(-EINVAL, vt_uhist_ctl("start now"));
	EXPECT_EQ(-EINVAL, vt_pmu_write("uhist/interval", "-1"));
	EXPECT_EQ(-EINVAL, vt_pmu_write("uhist/interval", "x"));
	EXPECT_EQ(-ERANGE, vt_pmu_write("uhist/interval", "4294967296"));
	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "0"));
	EXPECT_EQ(-EINVAL, vt_uhist_ctl("start"));
	EXPECT_STREQ("off", vt_uhist_state(buf, sizeof(buf)));
	/* the module parameter is the same value */
	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "4294967295"));
	p = (char *)vt_read_file("/sys/module/vpmu/parameters/uhist_interval",
				 &len);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(4294967295ul, strtoul(p, NULL, 10));
	free(p);
}

/* A new interval applies at once and keeps the buckets. */
TEST_F(uhist, interval_change)
{
	struct vt_hist x;

	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "1"));
	ASSERT_EQ(0, vt_uhist_ctl("start"));
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "5"));
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	ASSERT_EQ(0, vt_uhist_read("cpu0", &x));
	EXPECT_EQ(5u, x.h.interval);
	EXPECT_EQ(VT_SORT_CYCLES + VT_SORT_CYCLES / 5, x.h.samples);
	vt_hist_free(&x);
}

/* CPU 1 offline: its buckets stay readable, and reset reaches them. */
TEST_F(uhist, offline_cpu)
{
	struct vt_hist a, b;

	if (access(VT_CPU1_ONLINE, F_OK))
		SKIP(return, "no %s", VT_CPU1_ONLINE);
	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "1"));
	ASSERT_EQ(0, vt_uhist_ctl("start"));
	ASSERT_EQ(0, vt_pin(1));
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	ASSERT_EQ(0, vt_pin(0));
	ASSERT_EQ(0, vt_uhist_read("cpu1", &a));
	EXPECT_EQ(VT_SORT_CYCLES, a.h.samples);
	EXPECT_EQ(1u, a.h.cpu);
	ASSERT_EQ(0, vt_cpu1_set(0));
	ASSERT_EQ(0, vt_uhist_read("cpu1", &b));
	EXPECT_EQ(0, memcmp(a.b, b.b, 8ull * a.h.nbuckets));
	vt_hist_free(&b);
	ASSERT_EQ(0, vt_uhist_read("sum", &b));
	EXPECT_EQ(VT_SORT_CYCLES, b.h.samples);
	vt_hist_free(&b);
	ASSERT_EQ(0, vt_uhist_ctl("reset"));
	ASSERT_EQ(0, vt_uhist_read("cpu1", &b));
	EXPECT_TRUE(vt_hist_zero(&b));
	vt_hist_free(&b);
	ASSERT_EQ(0, vt_cpu1_set(1));
	ASSERT_EQ(0, vt_uhist_read("cpu1", &b));
	EXPECT_TRUE(vt_hist_zero(&b));
	vt_hist_free(&b);
	vt_hist_free(&a);
}

/*
 * Another image: an engine's buckets belong to the image it runs, and
 * restart when it first runs another; the sum covers only engines on the
 * current image.
 */
TEST_F(uhist, new_image)
{
	unsigned long long gen;
	uint64_t cycles;
	struct vt_hist x;
	uint8_t *img, *v;
	size_t len;

	img = vt_read_image(&len);
	ASSERT_NE(NULL, img);
	v = vt_variant(img, len, "uhist-test", 8);
	ASSERT_NE(NULL, v);
	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "1"));
	ASSERT_EQ(0, vt_uhist_ctl("start"));
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	gen = vt_generation();
	ASSERT_EQ(0, vt_write_image(v, len, len));
	ASSERT_EQ(gen + 1, vt_generation());
	/* CPU 0 has not run the new image yet */
	ASSERT_EQ(0, vt_uhist_read("cpu0", &x));
	EXPECT_EQ(gen, x.h.generation);
	EXPECT_EQ(VT_SORT_CYCLES, x.h.samples);
	vt_hist_free(&x);
	ASSERT_EQ(0, vt_uhist_read("sum", &x));
	EXPECT_EQ(gen + 1, x.h.generation);
	EXPECT_EQ(((struct vpmu_image_header *)v)->checksum,
		  x.h.image_checksum);
	EXPECT_EQ(0u, x.h.samples);
	vt_hist_free(&x);
	cycles = vt_run_sort(self);
	ASSERT_NE(0ull, cycles);
	ASSERT_EQ(0, vt_uhist_read("cpu0", &x));
	EXPECT_EQ(gen + 1, x.h.generation);
	EXPECT_EQ(cycles, x.h.samples);
	vt_hist_free(&x);
	ASSERT_EQ(0, vt_load_default());
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	free(v);
	free(img);
}

TEST_HARNESS_MAIN
