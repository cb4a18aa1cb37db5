// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hu - the histogram unit through sysfs hist/ and the perf bucket
 * events (Documentation/vpmu/histogram.rst, "Histogram unit").
 *
 * Every case sets a program through hist/program (which zeroes the
 * buckets), runs a sample program pinned to CPU 0 and asserts the buckets
 * exactly: derived by hand where they can be (parallel entries with one
 * period covering the run count the run's totals, as its .expect file
 * says; cycle entries split a run of C cycles by the windows' arithmetic;
 * micro-PC ranges equal the micro-PC histogram's buckets summed over the
 * range), and otherwise equal, bucket for bucket, to what the host engine
 * gives for the same program (vpmu-sim --hu in the guest).  Sequential and
 * parallel, equal and unequal periods, 16 entries, write-queue occupancy
 * on a store burst with a slow queue, micro-PC ranges.  Bad programs are
 * refused with EINVAL and a reason in hist/error, changing nothing; non-root
 * writes are refused.  Bucket events (event=0x201..) count what the sysfs
 * buckets say, per task, CPU-wide and in a group with a counter, and do
 * not jump when the program changes or the buckets are reset under them;
 * an offline CPU's engine takes programs and resets.
 * Skips without hist/, /dev/vpmu or the assembled samples.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/wait.h>
#include <linux/perf_event.h>
#include "vpmu_test.h"

#define HIST		VPMU_PMU_DIR "/hist/"
#define UHIST		VPMU_PMU_DIR "/uhist/"
#define BUDGET		100000000ull
#define SIM		"/opt/vpmu/bin/vpmu-sim"
#define TMP_IMG		"/tmp/vpmu_hu.vpmu"
#define TMP_PROG	"/tmp/vpmu_hu.prog"
#define NB		16
#define BIG		1000000000u	/* a period longer than any run here */
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

/* ---- sysfs ------------------------------------------------------------- */

static int hu_write(const char *name, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), HIST "%s", name);
	return vl_write_file(path, val);
}

static int hu_prog(const char *text)
{
	return hu_write("program", text);
}

/* hist/NAME into @buf (NUL-terminated); "" if unreadable. */
static const char *hu_text(const char *name, char *buf, size_t size)
{
	char path[256];
	size_t len;
	uint8_t *p;

	snprintf(path, sizeof(path), HIST "%s", name);
	p = vl_read_file(path, &len);
	buf[0] = '\0';
	if (p)
		snprintf(buf, size, "%s", (char *)p);
	free(p);
	return buf;
}

/*
 * Parse "PREFIXC<b> <count>" lines (b = 1, 2, ... in order) into @c.
 * Returns the number of buckets, or -1 if a line is malformed.
 */
static int parse_buckets(const char *text, const char *prefix, uint64_t *c)
{
	const char *line = text;
	int n = 0;

	while (line && *line) {
		unsigned int b;
		unsigned long long v;
		char fmt[64];

		snprintf(fmt, sizeof(fmt), "%sC%%u %%llu", prefix);
		if (!strncmp(line, prefix, strlen(prefix))) {
			if (sscanf(line, fmt, &b, &v) != 2 || b != (unsigned int)n + 1 ||
			    n == NB)
				return -1;
			c[n++] = v;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return n;
}

/* hist/NAME's buckets into @c; their number, or -1. */
static int hu_buckets(const char *name, uint64_t *c)
{
	char buf[4096];

	hu_text(name, buf, sizeof(buf));
	return parse_buckets(buf, "", c);
}

/* "event NAME COUNT" of an .expect file in $VPMU_SHARE; -1 if none. */
static long long expect_event(const char *rel, const char *name)
{
	char *text, *line, *save = NULL, key[64];
	long long v = -1, x;
	size_t len;

	text = (char *)vl_read_share(rel, &len);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "event %63s %lld", key, &x) == 2 &&
		    !strcmp(key, name))
			v = x;
	}
	free(text);
	return v;
}

/* ---- expected values by hand ---------------------------------------- */

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

/* ---- the fixture ------------------------------------------------------- */

FIXTURE(hu) {
	int fd;
	struct vl_prog sum, sort, memcpy_, stores;
	uint8_t *mem;
	unsigned long long gen;
};

FIXTURE_SETUP(hu)
{
	self->fd = -1;
	self->mem = NULL;
	self->gen = vl_generation();
	if (access(HIST "program", F_OK))
		SKIP(return, "no %sprogram (module without the histogram unit?)",
		     HIST);
	self->fd = open(VPMU_DEV, O_RDWR | O_CLOEXEC);
	if (self->fd < 0)
		SKIP(return, "no %s", VPMU_DEV);
	if (vl_prog_load(&self->sum, "build/sum.vprg") ||
	    vl_prog_load(&self->sort, "build/sort.vprg") ||
	    vl_prog_load(&self->memcpy_, "build/memcpy.vprg") ||
	    vl_prog_load(&self->stores, "build/stores.vprg"))
		SKIP(return, "no build/{sum,sort,memcpy,stores}.vprg in $VPMU_SHARE");
	self->mem = malloc(65536);
	ASSERT_NE(NULL, self->mem);
	ASSERT_EQ(0, vl_pin(0));
	ASSERT_EQ(0, hu_prog("off"));
}

FIXTURE_TEARDOWN(hu)
{
	if (self->fd >= 0) {
		hu_prog("off");
		close(self->fd);
	}
	if (!access(CPU1_ONLINE, F_OK))
		vl_write_file(CPU1_ONLINE, "1");
	/* a test that installed an image and failed before restoring */
	if (self->gen && vl_generation() != self->gen)
		vl_load_default();
	free(self->mem);
	vl_prog_free(&self->sum);
	vl_prog_free(&self->sort);
	vl_prog_free(&self->memcpy_);
	vl_prog_free(&self->stores);
}

/* Run @p once on this CPU (CPU 0); its cycles, or 0 on failure. */
static uint64_t run(FIXTURE_DATA(hu) *self, const struct vl_prog *p)
{
	struct vpmu_run r;

	if (p->h.mem_size > 65536 ||
	    vl_run(self->fd, p, self->mem, BUDGET, &r) ||
	    r.stop != VPMU_RUN_HALT)
		return 0;
	return r.cycles;
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

	img = vl_read_image(&len);
	if (!img)
		return -1;
	f = fopen(TMP_IMG, "w");
	if (!f || fwrite(img, 1, len, f) != len) {
		free(img);
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	free(img);
	f = fopen(TMP_PROG, "w");
	if (!f || fputs(text, f) < 0) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	snprintf(cmd, sizeof(cmd), SIM " -q -m " TMP_IMG " --hu-file " TMP_PROG " %s",
		 vl_share(share, sizeof(share), prog));
	f = popen(cmd, "r");
	if (!f)
		return -1;
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	if (pclose(f))
		return -1;
	unlink(TMP_IMG);
	unlink(TMP_PROG);
	return parse_buckets(out, "hist ", c);
}

/*
 * Set @text, run @prog (file @rel) on CPU 0, and check hist/cpu0 and
 * hist/sum against the host engine bucket for bucket.  Buckets into @got.
 */
static void check_sim(struct __test_metadata *_metadata,
		      FIXTURE_DATA(hu) *self, const char *text,
		      const struct vl_prog *prog, const char *rel, int n,
		      uint64_t *got)
{
	uint64_t want[NB], sum[NB];
	int i;

	if (access(SIM, X_OK))
		SKIP(return, "no %s", SIM);
	ASSERT_EQ(n, sim_buckets(text, rel, want)) TH_LOG("%s", text);
	ASSERT_EQ(0, hu_prog(text));
	ASSERT_NE(0ull, run(self, prog));
	ASSERT_EQ(n, hu_buckets("cpu0", got));
	ASSERT_EQ(n, hu_buckets("sum", sum));
	for (i = 0; i < n; i++) {
		EXPECT_EQ(want[i], got[i]) TH_LOG("%s on %s: C%d", text, rel, i + 1);
		EXPECT_EQ(got[i], sum[i]) TH_LOG("C%d: cpu0 vs sum", i + 1);
	}
}

/* ---- sysfs: files, programs, control ------------------------------------ */

TEST_F(hu, files)
{
	uint64_t c[NB];
	struct stat st;
	char buf[256];

	VL_SETUP_DONE();
	ASSERT_EQ(0, stat(HIST "program", &st));
	EXPECT_EQ(0644u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(HIST "control", &st));
	EXPECT_EQ(0200u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(HIST "error", &st));
	EXPECT_EQ(0444u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(HIST "sum", &st));
	EXPECT_EQ(0400u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(HIST "cpu0", &st));
	EXPECT_EQ(0400u, st.st_mode & 0777);
	EXPECT_STREQ("off\n", hu_text("program", buf, sizeof(buf)));
	EXPECT_EQ(0, hu_buckets("sum", c));
	EXPECT_EQ(0, hu_buckets("cpu0", c));
	EXPECT_STREQ("", hu_text("error", buf, sizeof(buf)));
}

/* What is written reads back in canonical form; off and "" switch off. */
TEST_F(hu, program_canonical)
{
	char buf[1024];
	uint64_t c[NB];

	VL_SETUP_DONE();
	ASSERT_EQ(0, hu_prog("par vpmu_uops 0x10; event=2 7 # insns\n"
			     "tag=3 5;vpmu_tag4 5\nwq=1-2 9\nupc=0x40-0x5f 10\n"
			     "wq=0 1;upc=7 2"));
	EXPECT_STREQ("par\nvpmu_uops 16\nvpmu_insns 7\ntag=3 5\ntag=4 5\n"
		     "wq=1-2 9\nupc=0x40-0x5f 10\nwq=0 1\nupc=0x7 2\n",
		     hu_text("program", buf, sizeof(buf)));
	/* the canonical text is a program too, the same one */
	ASSERT_EQ(0, hu_prog(buf));
	EXPECT_STREQ("par\nvpmu_uops 16\nvpmu_insns 7\ntag=3 5\ntag=4 5\n"
		     "wq=1-2 9\nupc=0x40-0x5f 10\nwq=0 1\nupc=0x7 2\n",
		     hu_text("program", buf, sizeof(buf)));
	EXPECT_EQ(8, hu_buckets("sum", c));
	ASSERT_EQ(0, hu_prog("off\n"));
	EXPECT_STREQ("off\n", hu_text("program", buf, sizeof(buf)));
	EXPECT_EQ(0, hu_buckets("sum", c));
	ASSERT_EQ(0, hu_prog("seq\nvpmu_cycles 1\n"));
	ASSERT_EQ(0, hu_prog("\n"));
	EXPECT_STREQ("off\n", hu_text("program", buf, sizeof(buf)));
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
	const char *rels[] = { "samples/sum.expect", "samples/sort.expect" };
	const struct vl_prog *progs[] = { &self->sum, &self->sort };
	char text[1024];
	uint64_t c[NB], cyc;
	int i, k, len, n = sizeof(names) / sizeof(names[0]);

	VL_SETUP_DONE();
	len = snprintf(text, sizeof(text), "par\n");
	for (i = 0; i < n; i++)
		len += snprintf(text + len, sizeof(text) - len, "vpmu_%s %u\n",
				names[i], BIG);
	len += snprintf(text + len, sizeof(text) - len,
			"upc=0-0xfff %u\nwq=0-32 %u\n", BIG, BIG);
	for (k = 0; k < 2; k++) {
		ASSERT_EQ(0, hu_prog(text));
		cyc = run(self, progs[k]);
		ASSERT_EQ((uint64_t)expect_event(rels[k], "cycles"), cyc);
		ASSERT_EQ(n + 2, hu_buckets("cpu0", c));
		for (i = 0; i < n; i++) {
			EXPECT_EQ(expect_event(rels[k], names[i]), (long long)c[i])
				TH_LOG("%s: %s", rels[k], names[i]);
		}
		EXPECT_EQ(cyc, c[n]);
		EXPECT_EQ(cyc, c[n + 1]);
	}
}

/* Sequential, equal and unequal periods, counting cycles: by hand. */
TEST_F(hu, seq_cycles)
{
	static const uint32_t eq[] = { 10, 10, 10, 10 };
	static const uint32_t uneq[] = { 7, 13, 30 };
	static const uint32_t big[] = { 100, 1, 999, 3, 50 };
	uint64_t c[NB], want[NB], cyc;
	char text[512];
	int i;

	VL_SETUP_DONE();
	/* sum: 179 cycles = 4 x 40 + 19 */
	cycles_prog(text, sizeof(text), "seq", eq, 4);
	ASSERT_EQ(0, hu_prog(text));
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	ASSERT_EQ(4, hu_buckets("cpu0", c));
	EXPECT_EQ(50u, c[0]);
	EXPECT_EQ(49u, c[1]);
	EXPECT_EQ(40u, c[2]);
	EXPECT_EQ(40u, c[3]);
	/* 179 = 3 x 50 + 29 */
	cycles_prog(text, sizeof(text), "seq", uneq, 3);
	ASSERT_EQ(0, hu_prog(text));
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	ASSERT_EQ(3, hu_buckets("cpu0", c));
	EXPECT_EQ(28u, c[0]);
	EXPECT_EQ(52u, c[1]);
	EXPECT_EQ(99u, c[2]);
	/* sort, with stall cycles, twice: the period runs on across runs */
	cycles_prog(text, sizeof(text), "seq", big, 5);
	ASSERT_EQ(0, hu_prog(text));
	cyc = run(self, &self->sort);
	ASSERT_NE(0ull, cyc);
	ASSERT_EQ(cyc, run(self, &self->sort));
	seq_cycles(big, 5, 2 * cyc, want);
	ASSERT_EQ(5, hu_buckets("cpu0", c));
	for (i = 0; i < 5; i++)
		EXPECT_EQ(want[i], c[i]) TH_LOG("C%d", i + 1);
}

/* Parallel, unequal periods, counting cycles: by hand. */
TEST_F(hu, par_cycles)
{
	static const uint32_t p[] = { 100, 7, 64, 1, 100 };
	uint64_t c[NB], want[NB], cyc;
	char text[512];
	int i;

	VL_SETUP_DONE();
	cycles_prog(text, sizeof(text), "par", p, 5);
	ASSERT_EQ(0, hu_prog(text));
	cyc = run(self, &self->sort);
	ASSERT_NE(0ull, cyc);
	par_cycles(p, 5, cyc, want);
	ASSERT_EQ(5, hu_buckets("cpu0", c));
	for (i = 0; i < 5; i++)
		EXPECT_EQ(want[i], c[i]) TH_LOG("C%d", i + 1);
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
	uint32_t p[NB];
	uint64_t c[NB], want[NB], cyc, total = 0;
	char text[1024], buf[1024];
	int i;

	VL_SETUP_DONE();
	for (i = 0; i < NB; i++)
		p[i] = i + 1;
	cycles_prog(text, sizeof(text), "seq", p, NB);
	ASSERT_EQ(0, hu_prog(text));
	cyc = run(self, &self->sort);
	seq_cycles(p, NB, cyc, want);
	ASSERT_EQ(NB, hu_buckets("cpu0", c));
	for (i = 0; i < NB; i++) {
		EXPECT_EQ(want[i], c[i]) TH_LOG("C%d", i + 1);
		total += c[i];
	}
	EXPECT_EQ(cyc, total);

	check_sim(_metadata, self, mixed, &self->memcpy_, "build/memcpy.vprg",
		  NB, c);
	EXPECT_STREQ(mixed, hu_text("program", buf, sizeof(buf)));
	/* a seventeenth is one too many */
	snprintf(text, sizeof(text), "%svpmu_uops 1\n", mixed);
	EXPECT_EQ(-EINVAL, hu_prog(text));
	EXPECT_STREQ("program: entry 17: more than 16 entries\n",
		     hu_text("error", buf, sizeof(buf)));
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
	const struct vl_prog *progs[] = { &self->sort, &self->memcpy_,
					  &self->sort, &self->sum };
	uint64_t c[NB], t;
	unsigned int k;
	int i;

	VL_SETUP_DONE();
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		check_sim(_metadata, self, cases[k].text, progs[k], cases[k].rel,
			  cases[k].n, c);
		/* the windows partition the run: events add up to the total */
		if (k == 3) {
			for (t = 0, i = 0; i < 3; i++)
				t += c[i];
			EXPECT_EQ(SUM_CYCLES, t);
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
	uint64_t c[NB], want[5] = { 0 }, *b;
	char text[512], interval[32];
	uint8_t *file;
	size_t len;
	uint32_t u;
	int i, n = 5;

	VL_SETUP_DONE();
	if (access(UHIST "control", F_OK))
		SKIP(return, "no uhist/");
	len = snprintf(text, sizeof(text), "par\n");
	for (i = 0; i < n; i++)
		len += snprintf(text + len, sizeof(text) - len,
				"upc=0x%x-0x%x %u\n", lo[i], hi[i], BIG);
	file = vl_read_file(UHIST "interval", &len);
	ASSERT_NE(NULL, file);
	snprintf(interval, sizeof(interval), "%s", (char *)file);
	free(file);
	ASSERT_EQ(0, vl_write_file(UHIST "interval", "1"));
	ASSERT_EQ(0, vl_write_file(UHIST "control", "start"));
	ASSERT_EQ(0, hu_prog(text));
	ASSERT_NE(0ull, run(self, &self->sort));
	vl_write_file(UHIST "control", "pause");
	file = vl_read_file(UHIST "cpu0", &len);
	vl_write_file(UHIST "control", "stop");
	vl_write_file(UHIST "interval", interval);
	ASSERT_NE(NULL, file);
	ASSERT_LE(sizeof(h), len);
	memcpy(&h, file, sizeof(h));
	ASSERT_EQ(len, sizeof(h) + 8ull * h.nbuckets);
	b = (uint64_t *)(file + sizeof(h));
	for (i = 0; i < n; i++)
		for (u = lo[i]; u <= hi[i] && u < h.nbuckets; u++)
			want[i] += b[u];
	ASSERT_EQ(n, hu_buckets("cpu0", c));
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
	struct vpmu_image_header *h;
	uint64_t c[NB], occ;
	uint8_t *img, *slow;
	size_t len;
	int i;

	VL_SETUP_DONE();
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

	img = vl_read_image(&len);
	ASSERT_NE(NULL, img);
	slow = malloc(len);
	ASSERT_NE(NULL, slow);
	memcpy(slow, img, len);
	h = (struct vpmu_image_header *)slow;
	h->wq_drain = 16;
	h->image_version += 200;
	vl_seal(slow, len);
	ASSERT_EQ(0, vl_write_image(slow, len, len));
	check_sim(_metadata, self, text, &self->stores, "build/stores.vprg", 9, c);
	vl_load_default();
	EXPECT_LT(102u, c[7]);		/* stalls */
	EXPECT_EQ(c[7] - 102, c[6]);	/* ...all of them write-queue stalls */
	EXPECT_NE(0u, c[4]);		/* the queue was full */
	EXPECT_EQ(0u, c[5]);
	for (occ = 0, i = 0; i < 6; i++)
		occ += c[i];
	EXPECT_EQ(c[7], occ);
	free(slow);
	free(img);
}

/* Bad programs: EINVAL, a reason in hist/error, nothing changed. */
TEST_F(hu, bad_programs)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "sequence\nvpmu_uops 5", "program: expected 'seq', 'par' or 'off' first, not 'sequence'" },
		{ "seq", "program: no entries after 'seq'" },
		{ "seq\nvpmu_uops", "program: entry 1: expected PREDICATE PERIOD, got 1 word" },
		{ "seq\nvpmu_uops 5\nvpmu_nothing 5", "program: entry 2: unknown predicate 'vpmu_nothing' (event=N, tag=K, an event name, wq=LO[-HI] or upc=LO[-HI])" },
		{ "par\nvpmu_uops 0", "program: entry 1: period '0' not in 1..4294967295 cycles" },
		{ "par\nevent=0x10 5", "program: entry 1: event=0x10: not a basic event (0..9; tags are tag=K)" },
		{ "par\ntag=256 5", "program: entry 1: tag=256: tag not in 1..255" },
		{ "par\nwq=4-1 5", "program: entry 1: wq=4-1: LO above HI" },
		{ "par\nwq=33 5", "program: entry 1: wq=33: occupancy beyond 32" },
		{ "par\nupc=0x1000 5", "program: entry 1: upc=0x1000: micro-address beyond 4095" },
		{ "seq\nvpmu_uops 4000000000\nvpmu_insns 400000000", "program: seq: the periods add up to 4400000000 cycles, over 4294967295" },
	};
	const char *good = "seq\nvpmu_cycles 10\nvpmu_cycles 10\n";
	uint64_t c[NB], d[NB];
	char buf[1024];
	unsigned int k;

	VL_SETUP_DONE();
	ASSERT_EQ(0, hu_prog(good));
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	ASSERT_EQ(2, hu_buckets("cpu0", c));
	EXPECT_EQ(90u, c[0]);
	EXPECT_EQ(89u, c[1]);
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		EXPECT_EQ(-EINVAL, hu_prog(bad[k].text)) TH_LOG("%s", bad[k].text);
		hu_text("error", buf, sizeof(buf));
		buf[strcspn(buf, "\n")] = '\0';
		EXPECT_STREQ(bad[k].err, buf);
		EXPECT_STREQ(good, hu_text("program", buf, sizeof(buf)));
		ASSERT_EQ(2, hu_buckets("cpu0", d));
		EXPECT_EQ(0, memcmp(c, d, 2 * sizeof(c[0])));
	}
	/* the unit kept counting from where it was: 358 = 17 x 20 + 18 */
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	ASSERT_EQ(2, hu_buckets("cpu0", d));
	EXPECT_EQ(180u, d[0]);
	EXPECT_EQ(178u, d[1]);
	/* a good write clears the error */
	ASSERT_EQ(0, hu_prog(good));
	EXPECT_STREQ("", hu_text("error", buf, sizeof(buf)));
}

TEST_F(hu, control)
{
	uint64_t c[NB];
	char buf[256];

	VL_SETUP_DONE();
	ASSERT_EQ(0, hu_prog("seq;vpmu_cycles 100;vpmu_cycles 100"));
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	ASSERT_EQ(2, hu_buckets("sum", c));
	EXPECT_EQ(100u, c[0]);
	EXPECT_EQ(79u, c[1]);
	/* reset: zero, and the period starts over */
	ASSERT_EQ(0, hu_write("control", "reset\n"));
	ASSERT_EQ(2, hu_buckets("sum", c));
	EXPECT_EQ(0u, c[0]);
	EXPECT_EQ(0u, c[1]);
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	ASSERT_EQ(2, hu_buckets("cpu0", c));
	EXPECT_EQ(100u, c[0]);
	EXPECT_EQ(79u, c[1]);
	EXPECT_EQ(-EINVAL, hu_write("control", "zero"));
	EXPECT_STREQ("control: unknown command 'zero' (reset)\n",
		     hu_text("error", buf, sizeof(buf)));
	ASSERT_EQ(2, hu_buckets("cpu0", c));
	EXPECT_EQ(100u, c[0]);
	/* rewriting a program zeroes too */
	ASSERT_EQ(0, hu_prog("seq;vpmu_cycles 100;vpmu_cycles 100"));
	ASSERT_EQ(2, hu_buckets("cpu0", c));
	EXPECT_EQ(0u, c[0] + c[1]);
}

/* Only root writes; only root reads the buckets. */
TEST_F(hu, non_root)
{
	char buf[256];
	int status;
	pid_t pid;

	VL_SETUP_DONE();
	ASSERT_EQ(0, hu_prog("par;vpmu_uops 5"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(10);
		if (hu_prog("off") != -EACCES)
			_exit(1);
		if (hu_write("control", "reset") != -EACCES)
			_exit(2);
		fd = open(HIST "sum", O_RDONLY);
		if (fd >= 0 || errno != EACCES)
			_exit(3);
		if (strcmp(hu_text("program", buf, sizeof(buf)),
			   "par\nvpmu_uops 5\n"))
			_exit(4);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_STREQ("par\nvpmu_uops 5\n", hu_text("program", buf, sizeof(buf)));
}

/* ---- perf bucket events ------------------------------------------------- */

static long sysfs_long(const char *rel)
{
	char buf[64];

	if (vl_pmu_read(rel, buf, sizeof(buf)))
		return -1;
	return strtol(buf[0] == 'e' ? buf + 6 : buf, NULL, 0);
}

static void attr_init(struct perf_event_attr *a, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = sysfs_long("type");
	a->config = config;
}

static int perf_open(struct perf_event_attr *a, pid_t pid, int cpu, int group)
{
	int fd = syscall(__NR_perf_event_open, a, pid, cpu, group,
			 PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* A counting bucket event on this task; fd or -errno. */
static int open_bucket(unsigned int b)
{
	struct perf_event_attr a;

	attr_init(&a, 0x200 + b);
	return perf_open(&a, 0, -1, -1);
}

static uint64_t read1(int fd)
{
	uint64_t v = ~0ull;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return ~0ull;
	return v;
}

TEST_F(hu, perf_aliases)
{
	char rel[64];
	unsigned int b;

	VL_SETUP_DONE();
	for (b = 1; b <= NB; b++) {
		snprintf(rel, sizeof(rel), "events/vpmu_hist%u", b);
		EXPECT_EQ(0x200 + (long)b, sysfs_long(rel)) TH_LOG("%s", rel);
	}
}

TEST_F(hu, perf_bad_configs)
{
	struct perf_event_attr a;
	int fd;

	VL_SETUP_DONE();
	/* no program: no buckets */
	EXPECT_EQ(-EINVAL, open_bucket(1));
	ASSERT_EQ(0, hu_prog("par;vpmu_uops 5;vpmu_insns 5"));
	EXPECT_EQ(-EINVAL, open_bucket(0));
	EXPECT_EQ(-EINVAL, open_bucket(3));
	EXPECT_EQ(-EINVAL, open_bucket(17));
	EXPECT_EQ(-EINVAL, open_bucket(0xff));
	/* a bucket takes no counter */
	attr_init(&a, 0x201 | 1ull << 20);
	EXPECT_EQ(-EINVAL, perf_open(&a, 0, -1, -1));
	/* counting only, both modes */
	attr_init(&a, 0x201);
	a.sample_period = 1000;
	EXPECT_EQ(-EOPNOTSUPP, perf_open(&a, 0, -1, -1));
	attr_init(&a, 0x201);
	a.exclude_user = 1;
	EXPECT_EQ(-EOPNOTSUPP, perf_open(&a, 0, -1, -1));
	attr_init(&a, 0x202);
	a.exclude_kernel = 1;
	EXPECT_EQ(-EOPNOTSUPP, perf_open(&a, 0, -1, -1));
	attr_init(&a, 0x202);
	a.exclude_hv = 1;
	a.exclude_idle = 1;
	fd = perf_open(&a, 0, -1, -1);
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
	uint64_t c[NB], s[NB];
	int fd[6], i;

	VL_SETUP_DONE();
	ASSERT_EQ(0, hu_prog(text));
	for (i = 0; i < 6; i++) {
		fd[i] = open_bucket(i + 1);
		ASSERT_LE(0, fd[i]);
	}
	ASSERT_NE(0ull, run(self, &self->memcpy_));
	ASSERT_NE(0ull, run(self, &self->sort));
	ASSERT_EQ(6, hu_buckets("cpu0", c));
	ASSERT_EQ(6, hu_buckets("sum", s));
	for (i = 0; i < 6; i++) {
		EXPECT_EQ(c[i], read1(fd[i])) TH_LOG("C%d", i + 1);
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
	uint64_t c[NB], cyc;
	int lead, m[3], cw, i;

	VL_SETUP_DONE();
	ASSERT_EQ(0, hu_prog("par;vpmu_uops 1000000;vpmu_insns 1000000;vpmu_stores 1000000"));
	attr_init(&a, 0x201);
	cw = perf_open(&a, -1, 0, -1);
	if (cw == -EACCES)
		SKIP(return, "CPU-wide events not allowed");
	ASSERT_LE(0, cw);
	attr_init(&a, 0);	/* vpmu_cycles on a counter */
	a.read_format = PERF_FORMAT_GROUP;
	a.disabled = 1;
	lead = perf_open(&a, 0, -1, -1);
	ASSERT_LE(0, lead);
	for (i = 0; i < 3; i++) {
		attr_init(&a, 0x201 + i);
		a.read_format = PERF_FORMAT_GROUP;
		m[i] = perf_open(&a, 0, -1, lead);
		ASSERT_LE(0, m[i]);
	}
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	cyc = run(self, &self->memcpy_);
	ASSERT_EQ(3120u, cyc);
	ASSERT_EQ((ssize_t)sizeof(g), read(lead, &g, sizeof(g)));
	EXPECT_EQ(4u, g.nr);
	EXPECT_EQ(cyc, g.v[0]);
	EXPECT_EQ(3056u, g.v[1]);
	EXPECT_EQ(551u, g.v[2]);
	EXPECT_EQ(16u, g.v[3]);
	ASSERT_EQ(3, hu_buckets("cpu0", c));
	EXPECT_EQ(c[0], g.v[1]);
	EXPECT_EQ(c[0], read1(cw));
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

	VL_SETUP_DONE();
	ASSERT_EQ(0, hu_prog("par;vpmu_uops 1000000;vpmu_insns 1000000"));
	f1 = open_bucket(1);
	f2 = open_bucket(2);
	ASSERT_LE(0, f1);
	ASSERT_LE(0, f2);
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	EXPECT_EQ(179u, read1(f1));
	EXPECT_EQ(32u, read1(f2));
	/* the same program again: buckets zeroed, counts kept */
	ASSERT_EQ(0, hu_prog("par;vpmu_uops 1000000;vpmu_insns 1000000"));
	EXPECT_EQ(179u, read1(f1));
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	EXPECT_EQ(358u, read1(f1));
	EXPECT_EQ(64u, read1(f2));
	/* reset under them */
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	ASSERT_EQ(0, hu_write("control", "reset"));
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	EXPECT_EQ(716u, read1(f1));
	EXPECT_EQ(128u, read1(f2));
	/* a program with one bucket: the second event stops counting */
	ASSERT_EQ(0, hu_prog("par;vpmu_cycles 1000000"));
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	EXPECT_EQ(716u + 179u, read1(f1));
	EXPECT_EQ(128u, read1(f2));
	/* and off */
	ASSERT_EQ(0, hu_prog("off"));
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	EXPECT_EQ(716u + 179u, read1(f1));
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
	struct vpmu_image_header *h;
	uint8_t *img, *other;
	size_t len;
	int fd;

	VL_SETUP_DONE();
	ASSERT_EQ(0, hu_prog("par;vpmu_uops 1000000"));
	fd = open_bucket(1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	img = vl_read_image(&len);
	ASSERT_NE(NULL, img);
	other = malloc(len);
	ASSERT_NE(NULL, other);
	memcpy(other, img, len);
	h = (struct vpmu_image_header *)other;
	h->image_version += 300;
	vl_seal(other, len);
	ASSERT_EQ(0, vl_write_image(other, len, len));
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	EXPECT_EQ(358u, read1(fd));
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	ASSERT_EQ(0, vl_load_default());
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	EXPECT_EQ(716u, read1(fd));
	close(fd);
	free(other);
	free(img);
}

/*
 * CPU 1 offline: its engine takes programs and resets all the same, and
 * its file reads; back online, it counts with the program set meanwhile.
 * A per-task bucket event follows its task from CPU to CPU.
 */
TEST_F(hu, offline_cpu)
{
	uint64_t c[NB], s[NB];
	int fd;

	VL_SETUP_DONE();
	if (access(CPU1_ONLINE, F_OK))
		SKIP(return, "no %s", CPU1_ONLINE);
	ASSERT_EQ(0, hu_prog("par;vpmu_uops 1000000"));
	fd = open_bucket(1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vl_pin(1));
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	ASSERT_EQ(0, vl_pin(0));
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	EXPECT_EQ(358u, read1(fd));
	close(fd);
	ASSERT_EQ(1, hu_buckets("cpu1", c));
	EXPECT_EQ(179u, c[0]);
	ASSERT_EQ(1, hu_buckets("sum", s));
	EXPECT_EQ(358u, s[0]);

	ASSERT_EQ(0, vl_write_file(CPU1_ONLINE, "0"));
	ASSERT_EQ(1, hu_buckets("cpu1", c));
	EXPECT_EQ(179u, c[0]);
	ASSERT_EQ(0, hu_write("control", "reset"));
	ASSERT_EQ(1, hu_buckets("cpu1", c));
	EXPECT_EQ(0u, c[0]);
	ASSERT_EQ(0, hu_prog("seq;vpmu_cycles 10;vpmu_cycles 10"));
	ASSERT_EQ(2, hu_buckets("cpu1", c));
	EXPECT_EQ(0u, c[0] + c[1]);
	ASSERT_EQ(0, vl_write_file(CPU1_ONLINE, "1"));

	/* 179 = 8 x 20 + 19 */
	ASSERT_EQ(0, vl_pin(1));
	ASSERT_EQ(SUM_CYCLES, run(self, &self->sum));
	ASSERT_EQ(0, vl_pin(0));
	ASSERT_EQ(2, hu_buckets("cpu1", c));
	EXPECT_EQ(90u, c[0]);
	EXPECT_EQ(89u, c[1]);
	ASSERT_EQ(2, hu_buckets("cpu0", c));
	EXPECT_EQ(0u, c[0] + c[1]);
	ASSERT_EQ(2, hu_buckets("sum", s));
	EXPECT_EQ(90u, s[0]);
	EXPECT_EQ(89u, s[1]);
}

TEST_HARNESS_MAIN
