// SPDX-License-Identifier: GPL-2.0
/*
 * test_uhist.c - vpmu-hist's producer (vpmu_uhist_simulate()) against the
 * engine, on every sample program (each .s in tools/vpmu/share/samples)
 * run on the default microcode:
 *
 *  - K = 1: every bucket is its microword's executions
 *    (vpmu_engine_uword_count()) plus the stall cycles spent in it (none
 *    when .expect says no misses and no queue stalls), and the buckets
 *    sum to the .expect file's "event cycles";
 *  - K > 1: the buckets are what sampling every K-th cycle (the K-th,
 *    2K-th, ... cycle from when sampling was set, stall cycles included:
 *    architecture.rst) gives, and sum to floor(cycles / K).
 *
 * The reference steps the program one microword at a time (budget 1)
 * on a second engine: a step's cycles beyond the first are that
 * microword's stall cycles.  Also: the file form survives
 * write/parse, and summing two histograms doubles every bucket.
 */
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "vpmu_asm.h"
#include "vpmu_engine.h"
#include "vpmu_hist_file.h"
#include "vpmu_tool.h"

#ifndef VPMU_TOP
#define VPMU_TOP "../../.."
#endif
#define UCODE		VPMU_TOP "/drivers/perf/vpmu/ucode/default.vus"
#define SAMPLE_DIR	VPMU_TOP "/tools/vpmu/share/samples"

static const uint32_t intervals[] = { 2, 3, 7, 64 };
#define NK	(sizeof(intervals) / sizeof(intervals[0]))

static struct vpmu_buf img;
static struct vpmu_ucode *uc;

static void die(const char *what, const char *path, const struct vpmu_buf *d)
{
	printf("Bail out! %s %s\n%s", what, path, d && d->p ? d->p : "");
	exit(1);
}

static void read_or_die(const char *path, struct vpmu_buf *b)
{
	if (vpmu_read_file(path, b))
		die("cannot read", path, NULL);
}

/* "event cycles N" from a .expect file. */
static uint64_t expect_cycles(const char *text)
{
	const char *p = strstr(text, "\nevent cycles ");

	return p ? strtoull(p + 14, NULL, 10) : UINT64_MAX;
}

/* Per-microword executions of a whole run, and its cycles. */
static uint64_t counts(const struct vpmu_prog_view *v, uint64_t *cnt,
		       uint32_t n)
{
	struct vpmu_engine *e = vpmu_engine_create(VPMU_CS_MAX);
	uint8_t *mem = calloc(1, v->h.mem_size);
	struct vpmu_stop s;
	uint32_t u;

	if (!e || !mem || vpmu_engine_attach(e, uc))
		abort();
	memcpy(mem, v->data, v->h.load_size);
	vpmu_engine_start(e, mem, v->h.mem_size, v->h.entry,
			  v->h.flags & VPMU_PROG_F_SUPER ? VPMU_MODE_SUPER :
			  VPMU_MODE_USER);
	vpmu_engine_run(e, 1ull << 32, &s);
	for (u = 0; u < n; u++)
		cnt[u] = vpmu_engine_uword_count(e, u);
	vpmu_engine_destroy(e);
	free(mem);
	return s.cycles;
}

/*
 * Step one microword at a time: stall[u] gets every cycle of a step
 * beyond its first, ref[k][u] the samples at interval intervals[k].
 */
static void step(const struct vpmu_prog_view *v, uint64_t *stall,
		 uint64_t (*ref)[VPMU_CS_MAX])
{
	struct vpmu_engine *e = vpmu_engine_create(VPMU_CS_MAX);
	uint8_t *mem = calloc(1, v->h.mem_size);
	uint64_t c = 0, next[NK];
	struct vpmu_stop s;
	unsigned int k;

	if (!e || !mem || vpmu_engine_attach(e, uc))
		abort();
	for (k = 0; k < NK; k++)
		next[k] = intervals[k] - 1;	/* cycle index of the 1st sample */
	memcpy(mem, v->data, v->h.load_size);
	vpmu_engine_start(e, mem, v->h.mem_size, v->h.entry,
			  v->h.flags & VPMU_PROG_F_SUPER ? VPMU_MODE_SUPER :
			  VPMU_MODE_USER);
	for (;;) {
		uint32_t upc = vpmu_engine_upc(e);

		vpmu_engine_run(e, 1, &s);
		if (!s.cycles)
			break;
		stall[upc] += s.cycles - 1;
		c += s.cycles;
		for (k = 0; k < NK; k++)
			for (; next[k] < c; next[k] += intervals[k])
				ref[k][upc]++;
		if (s.reason != VPMU_STOP_BUDGET)
			break;
	}
	vpmu_engine_destroy(e);
	free(mem);
}

static uint64_t sum(const struct vpmu_uhist *h)
{
	uint64_t t = 0;
	uint32_t u;

	for (u = 0; u < h->h.nbuckets; u++)
		t += h->bucket[u];
	return t;
}

static void test_sample(const char *src)
{
	static uint64_t cnt[VPMU_CS_MAX], stall[VPMU_CS_MAX];
	static uint64_t ref[NK][VPMU_CS_MAX];
	struct vpmu_buf text = { 0 }, prog = { 0 }, exp = { 0 }, d = { 0 };
	struct vpmu_asm_opts ao = { .filename = src };
	struct vpmu_uhist h, h2;
	struct vpmu_uhist_run run;
	struct vpmu_prog_view v;
	char name[64], path[512];
	uint64_t cycles, stalls = 0;
	uint32_t u, n, bad;
	unsigned int k;
	bool ok;

	snprintf(name, sizeof(name), "%s", strrchr(src, '/') + 1);
	*strrchr(name, '.') = '\0';
	snprintf(path, sizeof(path), SAMPLE_DIR "/%s.expect", name);
	read_or_die(src, &text);
	read_or_die(path, &exp);
	if (vpmu_asm_prog(text.p, text.len, img.p, img.len, &ao, &prog, &d) ||
	    vpmu_prog_view(&v, prog.p, prog.len, &d))
		die("cannot assemble", src, &d);
	n = vpmu_ucode_header(uc)->cs_words;
	memset(cnt, 0, sizeof(cnt));
	memset(stall, 0, sizeof(stall));
	memset(ref, 0, sizeof(ref));
	cycles = counts(&v, cnt, n);
	step(&v, stall, ref);

	ok = !vpmu_uhist_simulate(&h, img.p, img.len, prog.p, prog.len, 1,
				  1ull << 32, &run, &d);
	tap_ok(ok && h.h.nbuckets == n && run.cycles == cycles &&
	       h.h.interval == 1 && h.h.image_checksum ==
	       vpmu_ucode_header(uc)->checksum,
	       "%s: K=1 simulated, %u buckets, %llu cycles", name, n,
	       (unsigned long long)cycles);
	if (!ok)
		die("simulate", src, &d);
	for (u = 0, bad = 0; u < n; u++) {
		stalls += stall[u];
		if (h.bucket[u] != cnt[u] + stall[u]) {
			if (!bad++)
				tap_diag("upc 0x%03x: bucket %llu, executions "
					 "%llu + stalls %llu", u,
					 (unsigned long long)h.bucket[u],
					 (unsigned long long)cnt[u],
					 (unsigned long long)stall[u]);
		}
	}
	if (strstr(exp.p, "\nevent dc_miss 0\n") &&
	    strstr(exp.p, "\nevent wq_stall 0\n"))
		tap_ok(!bad && !stalls, "%s: K=1 stall-free: every bucket = "
		       "its executions", name);
	else
		tap_ok(!bad && stalls, "%s: K=1 every bucket = executions + "
		       "stall cycles (%llu of them)", name,
		       (unsigned long long)stalls);
	tap_ok(sum(&h) == expect_cycles(exp.p) && h.h.samples == sum(&h),
	       "%s: K=1 buckets sum to .expect's event cycles (%llu)", name,
	       (unsigned long long)expect_cycles(exp.p));

	/* the file form: write, parse, the same; two summed: doubled */
	d.len = 0;
	text.len = 0;
	vpmu_uhist_write(&h, &text);
	ok = text.len == sizeof(h.h) + 8ull * n &&
	     !vpmu_uhist_parse(&h2, text.p, text.len, &d) &&
	     !memcmp(&h.h, &h2.h, sizeof(h.h)) &&
	     !memcmp(h.bucket, h2.bucket, 8ull * n) &&
	     !vpmu_uhist_add(&h2, &h, false, &d) && h2.h.samples == 2 * cycles;
	for (u = 0; ok && u < n; u++)
		ok = h2.bucket[u] == 2 * h.bucket[u];
	tap_ok(ok, "%s: file round trip; the sum of two doubles every bucket",
	       name);
	vpmu_uhist_free(&h);
	vpmu_uhist_free(&h2);

	for (k = 0; k < NK; k++) {
		uint32_t K = intervals[k];

		ok = !vpmu_uhist_simulate(&h, img.p, img.len, prog.p, prog.len,
					  K, 1ull << 32, NULL, &d);
		ok = ok && h.h.interval == K && sum(&h) == cycles / K &&
		     h.h.samples == cycles / K;
		for (u = 0; ok && u < n; u++)
			ok = h.bucket[u] == ref[k][u];
		tap_ok(ok, "%s: K=%u buckets as sampled every K-th cycle, sum "
		       "floor(%llu / %u) = %llu", name, K,
		       (unsigned long long)cycles, K,
		       (unsigned long long)(cycles / K));
		vpmu_uhist_free(&h);
	}
	vpmu_buf_free(&text);
	vpmu_buf_free(&prog);
	vpmu_buf_free(&exp);
	vpmu_buf_free(&d);
}

int main(void)
{
	struct vpmu_buf src = { 0 }, d = { 0 };
	struct vpmu_asm_opts ao = { .filename = UCODE };
	struct vpmu_verr err;
	glob_t g;
	size_t i;

	read_or_die(UCODE, &src);
	if (vpmu_asm_ucode(src.p, src.len, &ao, &img, &d))
		die("cannot assemble", UCODE, &d);
	if (vpmu_ucode_load(&uc, img.p, img.len, VPMU_CS_MAX, &err))
		die("image rejected:", err.msg, NULL);
	if (glob(SAMPLE_DIR "/*.s", 0, NULL, &g) || !g.gl_pathc)
		die("no samples in", SAMPLE_DIR, NULL);
	tap_plan(g.gl_pathc * (4 + NK));
	for (i = 0; i < g.gl_pathc; i++)
		test_sample(g.gl_pathv[i]);
	globfree(&g);
	vpmu_ucode_free(uc);
	vpmu_buf_free(&img);
	vpmu_buf_free(&src);
	vpmu_buf_free(&d);
	return tap_done();
}
