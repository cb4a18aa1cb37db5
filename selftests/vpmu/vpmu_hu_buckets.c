// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hu_buckets - what the histogram unit counts
 * (Documentation/admin-guide/perf/vpmu.rst, "/dev/vpmu").
 *
 * Every case sets a program as text, through vpmu-hist (which zeroes the
 * buckets), runs a sample program pinned to CPU 0 and asserts the buckets
 * exactly: derived by hand where they can be (parallel entries with one
 * period covering the run count the run's totals, as its .expect file
 * says; cycle entries split a run of C cycles by the windows' arithmetic;
 * micro-PC ranges equal the micro-PC histogram's buckets summed over the
 * range), and otherwise equal, bucket for bucket, to what the host engine
 * gives for the same program (vpmu-sim --hu in the guest).  Sequential and
 * parallel, equal and unequal periods, 16 entries, write-queue occupancy
 * on a store burst with a slow queue, micro-PC ranges.
 */
#define _GNU_SOURCE
#include "vpmu_hu.h"

/* ---- expected values by hand --------------------------------------------- */

/* SEQ entries counting every cycle: bucket i of a run of @cyc cycles. */
static void seq_cycles(const uint32_t *p, int n, uint64_t cyc, uint64_t *c)
{
	uint64_t t = 0, full, rem, start = 0;
	int i;

	for (i = 0; i < n; i++)
		t += p[i];
	full = cyc / t;
	rem = cyc % t;
	for (i = 0; i < n; i++) {
		uint64_t part = rem > start ? rem - start : 0;

		c[i] = full * p[i] + (part < p[i] ? part : p[i]);
		start += p[i];
	}
}

/* PAR entries counting every cycle: entry i counts the first p_i of T. */
static void par_cycles(const uint32_t *p, int n, uint64_t cyc, uint64_t *c)
{
	uint64_t t = 0, full, rem;
	int i;

	for (i = 0; i < n; i++)
		if (p[i] > t)
			t = p[i];
	full = cyc / t;
	rem = cyc % t;
	for (i = 0; i < n; i++)
		c[i] = full * p[i] + (rem < p[i] ? rem : p[i]);
}

/* "seq\nvpmu_cycles P1\n..." for @n periods. */
static void cycles_prog(char *buf, size_t size, const char *mode,
			const uint32_t *p, int n)
{
	int i, len;

	len = snprintf(buf, size, "%s\n", mode);
	for (i = 0; i < n; i++)
		len += snprintf(buf + len, size - len, "vpmu_cycles %u\n", p[i]);
}

/*
 * Entries counting cycles with periods @p (@mode "seq" or "par"): sort,
 * run @runs times, gives, bucket for bucket, what seq_cycles() or
 * par_cycles() derives.  The buckets in @c; returns the cycles of a run.
 */
static uint64_t check_cycles(struct __test_metadata *_metadata,
			     FIXTURE_DATA(hu) *self, const char *mode,
			     const uint32_t *p, int n, int runs, uint64_t *c)
{
	uint64_t want[VT_HU_NB], cyc;
	char text[512];
	int i;

	cycles_prog(text, sizeof(text), mode, p, n);
	ASSERT_EQ(0, vt_hu_prog(text));
	cyc = vt_hu_run(self, &self->sort);
	ASSERT_NE(0ull, cyc);
	for (i = 1; i < runs; i++)
		ASSERT_EQ(cyc, vt_hu_run(self, &self->sort));
	if (!strcmp(mode, "seq"))
		seq_cycles(p, n, runs * cyc, want);
	else
		par_cycles(p, n, runs * cyc, want);
	ASSERT_EQ(n, vt_hu_buckets(0, c));
	for (i = 0; i < n; i++)
		EXPECT_EQ(want[i], c[i]) TH_LOG("%s C%d", mode, i + 1);
	return cyc;
}

/*
 * The host engine's buckets for @text on @prog (a share/build file), with
 * the module's current image; their number, or -1.
 */
static int sim_buckets(const char *text, const char *prog, uint64_t *c)
{
	char cmd[1024], share[256], out[4096];
	uint8_t *img;
	size_t len, n;
	FILE *f;

	img = vt_read_image(&len);
	if (!img)
		return -1;
	f = fopen(VT_HU_TMP_IMG, "w");
	if (!f || fwrite(img, 1, len, f) != len) {
		free(img);
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	free(img);
	f = fopen(VT_HU_TMP_PROG, "w");
	if (!f || fputs(text, f) < 0) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	snprintf(cmd, sizeof(cmd),
		 VT_SIM " -q -m " VT_HU_TMP_IMG " --hu-file " VT_HU_TMP_PROG " %s",
		 vt_share(share, sizeof(share), prog));
	f = popen(cmd, "r");
	if (!f)
		return -1;
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	if (pclose(f))
		return -1;
	unlink(VT_HU_TMP_IMG);
	unlink(VT_HU_TMP_PROG);
	return vt_parse_buckets(out, "hist ", c);
}

/*
 * Set @text, run @prog (file @rel) on CPU 0, and check CPU 0's buckets
 * and their sum against the host engine bucket for bucket.  Buckets into
 * @got.
 */
static void check_sim(struct __test_metadata *_metadata,
		      FIXTURE_DATA(hu) *self, const char *text,
		      const struct vt_prog *prog, const char *rel, int n,
		      uint64_t *got)
{
	uint64_t want[VT_HU_NB], sum[VT_HU_NB];
	int i;

	if (!vt_have_tool(VT_SIM))
		SKIP(return, "no %s", VT_SIM);
	ASSERT_EQ(n, sim_buckets(text, rel, want)) TH_LOG("%s", text);
	ASSERT_EQ(0, vt_hu_prog(text));
	ASSERT_NE(0ull, vt_hu_run(self, prog));
	ASSERT_EQ(n, vt_hu_buckets(0, got));
	ASSERT_EQ(n, vt_hu_buckets(VT_HU_SUM, sum));
	for (i = 0; i < n; i++) {
		EXPECT_EQ(want[i], got[i]) TH_LOG("%s on %s: C%d", text, rel, i + 1);
		EXPECT_EQ(got[i], sum[i]) TH_LOG("C%d: cpu0 vs sum", i + 1);
	}
}

/*
 * Parallel, one period covering the run: each bucket is the run's total
 * of its event, as sum.expect and sort.expect say; a range covering every
 * micro-address or every occupancy counts every cycle.
 */
TEST_F(hu, par_totals)
{
	static const char *const names[] = {
		"cycles", "uops", "insns", "ubr_taken", "dispatch", "dc_hit",
		"dc_miss", "wq_stall", "stores", "tag1", "tag2", "tag5",
	};
	static const char *const rels[] = { "samples/sum.expect", "samples/sort.expect" };
	const struct vt_prog *progs[] = { &self->sum, &self->sort };
	struct vt_expect x;
	char text[1024];
	uint64_t c[VT_HU_NB], cyc;
	int i, k, len, n = ARRAY_SIZE(names);

	len = snprintf(text, sizeof(text), "par\n");
	for (i = 0; i < n; i++)
		len += snprintf(text + len, sizeof(text) - len, "vpmu_%s %u\n",
				names[i], VT_HU_BIG);
	len += snprintf(text + len, sizeof(text) - len,
			"upc=0-0xfff %u\nwq=0-32 %u\n", VT_HU_BIG, VT_HU_BIG);
	for (k = 0; k < 2; k++) {
		ASSERT_EQ(0, vt_expect_load(rels[k], &x)) TH_LOG("%s", rels[k]);
		ASSERT_EQ(0, vt_hu_prog(text));
		cyc = vt_hu_run(self, progs[k]);
		ASSERT_EQ((uint64_t)vt_expect_event(&x, "cycles"), cyc);
		ASSERT_EQ(n + 2, vt_hu_buckets(0, c));
		for (i = 0; i < n; i++) {
			EXPECT_EQ(vt_expect_event(&x, names[i]), (long long)c[i])
				TH_LOG("%s: %s", rels[k], names[i]);
		}
		EXPECT_EQ(cyc, c[n]);
		EXPECT_EQ(cyc, c[n + 1]);
	}
}

/* Sequential, equal and unequal periods, counting cycles: by hand. */
TEST_F(hu, seq_cycles)
{
	/* sum: 179 cycles = 4 x 40 + 19 = 3 x 50 + 29 */
	static const struct {
		uint32_t p[4];
		int n;
		uint64_t want[4];
	} sum_cases[] = {
		{ { 10, 10, 10, 10 }, 4, { 50, 49, 40, 40 } },
		{ { 7, 13, 30 }, 3, { 28, 52, 99 } },
	};
	static const uint32_t big[] = { 100, 1, 999, 3, 50 };
	uint64_t c[VT_HU_NB];
	char text[512];
	unsigned int k;
	int i;

	for (k = 0; k < ARRAY_SIZE(sum_cases); k++) {
		cycles_prog(text, sizeof(text), "seq", sum_cases[k].p,
			    sum_cases[k].n);
		ASSERT_EQ(0, vt_hu_prog(text));
		ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
		ASSERT_EQ(sum_cases[k].n, vt_hu_buckets(0, c));
		for (i = 0; i < sum_cases[k].n; i++)
			EXPECT_EQ(sum_cases[k].want[i], c[i])
				TH_LOG("case %u C%d", k, i + 1);
	}
	/* sort, with stall cycles, twice: the period runs on across runs */
	check_cycles(_metadata, self, "seq", big, 5, 2, c);
}

/* Parallel, unequal periods, counting cycles: by hand. */
TEST_F(hu, par_cycles)
{
	static const uint32_t p[] = { 100, 7, 64, 1, 100 };
	uint64_t c[VT_HU_NB], cyc;

	cyc = check_cycles(_metadata, self, "par", p, 5, 1, c);
	/* 1081 cycles: C1 = C5 = 10 x 100 + 81 */
	EXPECT_EQ(1081u, cyc);
	EXPECT_EQ(1081u, c[0]);
	EXPECT_EQ(c[0], c[4]);
}

/* Sixteen entries: by hand on cycles, and a mixed one against the host. */
TEST_F(hu, sixteen_entries)
{
	static const char mixed[] =
		"seq\nvpmu_uops 3\nvpmu_insns 5\nvpmu_cycles 7\nvpmu_dc_hit 11\n"
		"vpmu_dc_miss 13\nvpmu_wq_stall 17\nvpmu_stores 19\ntag=1 23\n"
		"tag=2 29\ntag=3 31\ntag=4 37\ntag=5 41\nupc=0x0-0x3f 43\n"
		"upc=0x40-0xfff 47\nwq=0 53\nwq=1-4 59\n";
	uint32_t p[VT_HU_NB];
	uint64_t c[VT_HU_NB], cyc, total = 0;
	char text[1024], buf[1024];
	int i;

	for (i = 0; i < VT_HU_NB; i++)
		p[i] = i + 1;
	cyc = check_cycles(_metadata, self, "seq", p, VT_HU_NB, 1, c);
	for (i = 0; i < VT_HU_NB; i++)
		total += c[i];
	EXPECT_EQ(cyc, total);

	check_sim(_metadata, self, mixed, &self->memcpy_, "build/memcpy.vprg",
		  VT_HU_NB, c);
	EXPECT_STREQ(mixed, vt_hu_get(buf, sizeof(buf)));
	/* a seventeenth is one too many */
	snprintf(text, sizeof(text), "%svpmu_uops 1\n", mixed);
	EXPECT_EQ(-EINVAL, vt_hu_prog_msg(text, buf, sizeof(buf)));
	EXPECT_STREQ("vpmu-hist: -: entry 17: more than 16 entries\n", buf);
}

/* Events in sequential windows, several programs: as the host engine. */
TEST_F(hu, events_equal_simulation)
{
	static const struct {
		const char *text;
		const char *rel;
		int n;
	} cases[] = {
		{ "seq;vpmu_uops 10;vpmu_insns 10;vpmu_dc_miss 10;vpmu_stores 10",
		  "build/sort.vprg", 4 },
		{ "seq;vpmu_dc_miss 3;vpmu_dc_hit 5;vpmu_cycles 2",
		  "build/memcpy.vprg", 3 },
		{ "par;tag=1 17;tag=2 100;tag=6 33;vpmu_ubr_taken 1000",
		  "build/sort.vprg", 4 },
		{ "seq;vpmu_uops 1;vpmu_uops 1;vpmu_uops 1",
		  "build/sum.vprg", 3 },
	};
	const struct vt_prog *progs[] = { &self->sort, &self->memcpy_,
					  &self->sort, &self->sum };
	uint64_t c[VT_HU_NB], t;
	unsigned int k;
	int i;

	for (k = 0; k < ARRAY_SIZE(cases); k++) {
		check_sim(_metadata, self, cases[k].text, progs[k], cases[k].rel,
			  cases[k].n, c);
		/* the windows partition the run: events add up to the total */
		if (k == 3) {
			for (t = 0, i = 0; i < 3; i++)
				t += c[i];
			EXPECT_EQ(VT_SUM_CYCLES, t);
		}
	}
}

/*
 * Micro-PC ranges: each equals the micro-PC histogram (K = 1) summed over
 * the range, which the same run fills; and as the host engine.
 */
TEST_F(hu, upc_ranges)
{
	static const uint32_t lo[] = { 0, 0x10, 0x40, 0x80, 0 };
	static const uint32_t hi[] = { 0xf, 0x3f, 0x7f, 0xfff, 0xfff };
	struct vpmu_uhist_header h;
	uint64_t c[VT_HU_NB], want[5] = { 0 }, *b;
	char text[512], interval[32];
	uint8_t *file;
	size_t len;
	uint32_t u;
	int i, n = 5;

	if (access(VT_UHIST "control", F_OK))
		SKIP(return, "no uhist/");
	len = snprintf(text, sizeof(text), "par\n");
	for (i = 0; i < n; i++)
		len += snprintf(text + len, sizeof(text) - len,
				"upc=0x%x-0x%x %u\n", lo[i], hi[i], VT_HU_BIG);
	file = vt_read_file(VT_UHIST "interval", &len);
	ASSERT_NE(NULL, file);
	snprintf(interval, sizeof(interval), "%s", (char *)file);
	free(file);
	ASSERT_EQ(0, vt_write_file(VT_UHIST "interval", "1"));
	ASSERT_EQ(0, vt_write_file(VT_UHIST "control", "start"));
	ASSERT_EQ(0, vt_hu_prog(text));
	ASSERT_NE(0ull, vt_hu_run(self, &self->sort));
	vt_write_file(VT_UHIST "control", "pause");
	file = vt_read_file(VT_UHIST "cpu0", &len);
	vt_write_file(VT_UHIST "control", "stop");
	vt_write_file(VT_UHIST "interval", interval);
	ASSERT_NE(NULL, file);
	ASSERT_LE(sizeof(h), len);
	memcpy(&h, file, sizeof(h));
	ASSERT_EQ(len, sizeof(h) + 8ull * h.nbuckets);
	b = (uint64_t *)(file + sizeof(h));
	for (i = 0; i < n; i++)
		for (u = lo[i]; u <= hi[i] && u < h.nbuckets; u++)
			want[i] += b[u];
	ASSERT_EQ(n, vt_hu_buckets(0, c));
	for (i = 0; i < n; i++)
		EXPECT_EQ(want[i], c[i]) TH_LOG("upc=0x%x-0x%x", lo[i], hi[i]);
	EXPECT_EQ(h.samples, c[4]);
	free(file);
	check_sim(_metadata, self, text, &self->sort, "build/sort.vprg", n, c);
}

/*
 * Write-queue occupancy on a burst of stores: with the default queue it
 * never fills (no stalls); with a queue draining every 16 cycles it does.
 * Occupancy ranges partition every cycle; the buckets equal the host
 * engine's, and the full-queue bucket is non-zero on the slow queue.
 */
TEST_F(hu, wq_occupancy)
{
	static const char text[] =
		"par\nwq=0 1000000\nwq=1 1000000\nwq=2 1000000\nwq=3 1000000\n"
		"wq=4 1000000\nwq=5-32 1000000\nvpmu_wq_stall 1000000\n"
		"vpmu_cycles 1000000\nwq=0-32 1000000\n";
	uint64_t c[VT_HU_NB], occ;
	int i;

	check_sim(_metadata, self, text, &self->stores, "build/stores.vprg", 9, c);
	EXPECT_EQ(102u, c[7]);
	EXPECT_EQ(0u, c[6]);
	EXPECT_EQ(0u, c[5]);
	EXPECT_EQ(0u, c[4]);		/* 4 entries never all in use */
	EXPECT_NE(0u, c[1]);
	for (occ = 0, i = 0; i < 6; i++)
		occ += c[i];
	EXPECT_EQ(c[7], occ);
	EXPECT_EQ(c[7], c[8]);

	vt_hu_load_variant(_metadata, 200, 16);
	check_sim(_metadata, self, text, &self->stores, "build/stores.vprg", 9, c);
	vt_load_default();
	EXPECT_LT(102u, c[7]);		/* stalls */
	EXPECT_EQ(c[7] - 102, c[6]);	/* ...all of them write-queue stalls */
	EXPECT_NE(0u, c[4]);		/* the queue was full */
	EXPECT_EQ(0u, c[5]);
	for (occ = 0, i = 0; i < 6; i++)
		occ += c[i];
	EXPECT_EQ(c[7], occ);
}

TEST_HARNESS_MAIN
