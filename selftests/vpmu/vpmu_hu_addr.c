// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hu_addr - the histogram unit's data-address predicates and its
 * one-shot monitoring period (Documentation/admin-guide/perf/vpmu.rst,
 * "/dev/vpmu").
 *
 * memcpy (memcpy.s, memcpy.expect) copies 16 words from src (0x60) to dst
 * (0xa0) and compares the 64 bytes with lbu; the data cache has 16-byte
 * lines.  By hand: 80 loads of src (16 lw, 64 lbu), 64 of dst; 4 misses
 * in each (one per line; stores do not allocate), so 76 and 60 hits; 16
 * stores, all to dst; the byte at 0x60 misses once (the first lw) and hits
 * once (its lbu), the one at 0xa0 misses once (its lbu).  Every bucket is
 * also checked against the host engine (vpmu-sim --hu).  "once" counts one
 * period and then holds through more runs until reset; bad address
 * ranges are refused with their message and change nothing.
 */
#define _GNU_SOURCE
#include "vpmu_hu.h"

#define ADDR_PROG							\
	"par\n"								\
	"load=0x60-0xa0 1000000\nload=0xa0-0xe0 1000000\n"		\
	"miss=0x60-0xa0 1000000\nmiss=0xa0-0xe0 1000000\n"		\
	"hit=0x60-0xa0 1000000\nhit=0xa0-0xe0 1000000\n"		\
	"store=0xa0-0xe0 1000000\nstore=0x60-0xa0 1000000\n"		\
	"access=0xa0-0xe0 1000000\nhit=0x60 1000000\n"			\
	"miss=0x60 1000000\nmiss=0xa0 1000000\n"

/* The host engine's buckets for @text on build/memcpy.vprg; or -1. */
static int sim_memcpy(const char *text, uint64_t *c)
{
	char cmd[1024], share[256], out[4096];
	uint8_t *img;
	size_t len, n;
	FILE *f;

	img = vt_read_image(&len);
	if (!img)
		return -1;
	f = fopen(VT_HU_TMP_IMG, "w");
	n = f ? fwrite(img, 1, len, f) : 0;
	free(img);
	if (f)
		fclose(f);
	if (n != len)
		return -1;
	snprintf(cmd, sizeof(cmd), VT_SIM " -q -m " VT_HU_TMP_IMG " --hu '%s' %s", text,
		 vt_share(share, sizeof(share), "build/memcpy.vprg"));
	f = popen(cmd, "r");
	if (!f)
		return -1;
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	if (pclose(f))
		return -1;
	unlink(VT_HU_TMP_IMG);
	return vt_parse_buckets(out, "hist ", c);
}

TEST_F(hu, addresses)
{
	static const uint64_t want[] = { 80, 64, 4, 4, 76, 60, 16, 0, 80,
					 1, 1, 1 };
	uint64_t c[VT_HU_NB], s[VT_HU_NB];
	char buf[2048];
	int i, n = ARRAY_SIZE(want);

	ASSERT_EQ(0, vt_hu_prog(ADDR_PROG));
	EXPECT_STREQ(ADDR_PROG, vt_hu_get(buf, sizeof(buf)));
	ASSERT_EQ(3120ull, vt_hu_run(self, &self->memcpy_));
	ASSERT_EQ(n, vt_hu_buckets(0, c));
	ASSERT_EQ(n, vt_hu_buckets(VT_HU_SUM, s));
	for (i = 0; i < n; i++) {
		EXPECT_EQ(want[i], c[i]) TH_LOG("C%d", i + 1);
		EXPECT_EQ(c[i], s[i]) TH_LOG("C%d: cpu0 vs sum", i + 1);
	}
	if (!vt_have_tool(VT_SIM))
		SKIP(return, "no %s", VT_SIM);
	ASSERT_EQ(n, sim_memcpy(ADDR_PROG, s));
	for (i = 0; i < n; i++)
		EXPECT_EQ(s[i], c[i]) TH_LOG("C%d: host engine", i + 1);
}

/*
 * One period of 1000 cycles: the copy loop (573 cycles, 16 lw, 4 misses)
 * and the check loop up to cycle 1000 (11 lbu of src, the miss of dst's
 * first line); then nothing more, however many runs, until reset.
 */
TEST_F(hu, once)
{
	static const char *text = "par once\nvpmu_cycles 1000\n"
				  "load=0x60-0xa0 1000\nmiss=0x0-0x100000000 1000\n";
	static const uint64_t want[] = { 1000, 27, 5 };
	uint64_t c[VT_HU_NB], s[VT_HU_NB];
	char buf[512];
	int i, k;

	ASSERT_EQ(0, vt_hu_prog(text));
	EXPECT_STREQ(text, vt_hu_get(buf, sizeof(buf)));
	for (k = 0; k < 3; k++) {
		ASSERT_EQ(3120ull, vt_hu_run(self, &self->memcpy_));
		ASSERT_EQ(3, vt_hu_buckets(0, c));
		for (i = 0; i < 3; i++)
			EXPECT_EQ(want[i], c[i]) TH_LOG("run %d C%d", k + 1, i + 1);
	}
	/* reset arms it again */
	ASSERT_EQ(0, vt_pmu_write("hist/control", "reset"));
	ASSERT_EQ(3, vt_hu_buckets(0, c));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(0ull, c[i]);
	ASSERT_EQ(3120ull, vt_hu_run(self, &self->memcpy_));
	ASSERT_EQ(3, vt_hu_buckets(0, c));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(want[i], c[i]) TH_LOG("after reset C%d", i + 1);
	/* the repeating period counts on: 3 periods and 120 cycles */
	ASSERT_EQ(0, vt_hu_prog("par\nvpmu_cycles 1000\n"));
	ASSERT_EQ(3120ull, vt_hu_run(self, &self->memcpy_));
	ASSERT_EQ(1, vt_hu_buckets(0, c));
	EXPECT_EQ(3120ull, c[0]);
	if (!vt_have_tool(VT_SIM))
		SKIP(return, "no %s", VT_SIM);
	ASSERT_EQ(3, sim_memcpy(text, s));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(want[i], s[i]) TH_LOG("host C%d", i + 1);
}

/* Bad ranges and words: vpmu-hist refuses them and says why; nothing changed. */
TEST_F(hu, bad_addresses)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{
			"par\nload=0xa0-0x60 5",
			"vpmu-hist: -: entry 1: load=0xa0-0x60: LO not below HI (HI is excluded)"
		},
		{
			"par\nhit=0x60-0x60 5",
			"vpmu-hist: -: entry 1: hit=0x60-0x60: LO not below HI (HI is excluded)"
		},
		{
			"par\nmiss=0-0x100000001 5",
			"vpmu-hist: -: entry 1: miss=0-0x100000001: address beyond 0x100000000"
		},
		{
			"par\nstore=0x100000000 5",
			"vpmu-hist: -: entry 1: store=0x100000000: address beyond 0x100000000"
		},
		{
			"par\naccess=99999999999999999999 5",
			"vpmu-hist: -: entry 1: access=99999999999999999...: expected a number or LO-HI"
		},
		{
			"par\nloads=0x60 5",
			"vpmu-hist: -: entry 1: unknown predicate 'loads=0x60' (event=N, tag=K, an event name, wq=, upc=, load=, hit=, miss=, store= or access=)"
		},
		{
			"par once",
			"vpmu-hist: -: no entries after 'par once'"
		},
		{
			"once par\nvpmu_uops 1",
			"vpmu-hist: -: expected 'seq', 'par' or 'off' first, not 'once'"
		},
	};
	const char *good = "par\naccess=0xa0-0xe0 1000000\n";
	uint64_t c[VT_HU_NB], d[VT_HU_NB];
	char buf[1024];
	unsigned int k;

	ASSERT_EQ(0, vt_hu_prog(good));
	ASSERT_EQ(3120ull, vt_hu_run(self, &self->memcpy_));
	ASSERT_EQ(1, vt_hu_buckets(0, c));
	EXPECT_EQ(80ull, c[0]);
	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		EXPECT_EQ(-EINVAL, vt_hu_prog_msg(bad[k].text, buf, sizeof(buf)))
			TH_LOG("%s", bad[k].text);
		buf[strcspn(buf, "\n")] = '\0';
		EXPECT_STREQ(bad[k].err, buf);
		EXPECT_STREQ(good, vt_hu_get(buf, sizeof(buf)));
		ASSERT_EQ(1, vt_hu_buckets(0, d));
		EXPECT_EQ(c[0], d[0]);
	}
}

TEST_HARNESS_MAIN
