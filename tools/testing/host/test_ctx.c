// SPDX-License-Identifier: GPL-2.0
/*
 * test_ctx.c - program contexts: running in pieces on several engines.
 *
 * The module runs a task's program in chunks on its CPU's engine and may
 * move it to another CPU between chunks, with other tasks' programs run in
 * between.  For every sample program (tools/vpmu/share/samples/NAME.s on the
 * default microcode), compare a whole run on one engine with runs split at
 * many budgets, saved and restored alternately on two engines attached to
 * the same image, with a second program interleaved on the same engines:
 * the architectural results (registers, memory, stop, cycles) must be
 * identical, and the counters of both engines together must hold exactly
 * the counts of the two programs run whole.  The interleaved runs yield
 * (vpmu_engine_tc_yield()), as the module's chunks do.  Then the API's edges:
 * -ESTALE, -EFBIG, what attach keeps, the engine-local histogram clock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "test_samples.h"

#define WHOLE		100000000ull
#define NCTR		12

#define NSAMPLES	TS_NSAMPLES

/* Counters on every engine: all 64-bit, so sums are exact. */
static const struct vpmu_ctr_cfg ctrs[NCTR] = {
	{ VPMU_EV_CYCLES, 64, VPMU_CTR_USER | VPMU_CTR_SUPER, 0 },
	{ VPMU_EV_UOPS, 64, VPMU_CTR_USER | VPMU_CTR_SUPER, 0 },
	{ VPMU_EV_INSNS, 64, VPMU_CTR_USER | VPMU_CTR_SUPER, 0 },
	{ VPMU_EV_UBR_TAKEN, 64, VPMU_CTR_USER | VPMU_CTR_SUPER, 0 },
	{ VPMU_EV_DISPATCH, 64, VPMU_CTR_USER | VPMU_CTR_SUPER, 0 },
	{ VPMU_EV_DC_HIT, 64, VPMU_CTR_USER | VPMU_CTR_SUPER, 0 },
	{ VPMU_EV_DC_MISS, 64, VPMU_CTR_USER | VPMU_CTR_SUPER, 0 },
	{ VPMU_EV_WQ_STALL, 64, VPMU_CTR_USER | VPMU_CTR_SUPER, 0 },
	{ VPMU_EV_STORES, 64, VPMU_CTR_USER | VPMU_CTR_SUPER, 0 },
	{ VPMU_EV_CYCLES, 64, VPMU_CTR_SUPER, 0 },
	{ VPMU_EV_UOPS, 64, VPMU_CTR_USER, 0 },
	{ VPMU_EV_TAG(1), 64, VPMU_CTR_USER | VPMU_CTR_SUPER, 0 },
};

/* What a program's run leaves behind. */
struct outcome {
	struct vpmu_stop stop;	/* the final stop; cycles = the run's total */
	u32 regs[47];		/* operand codes 0..46 */
	unsigned int mode;
	u32 upc;
	u8 *mem;
};

static struct vpmu_buf img;
static struct vpmu_ucode *uc;
static u64 yields, resumed;	/* the interleaved runs' */
static struct ts_prog progs[NSAMPLES];

static void die(const char *what, const struct vpmu_buf *d)
{
	fprintf(stderr, "test_ctx: %s\n%s", what, d && d->p ? d->p : "");
	exit(2);
}

static void setup(void)
{
	ts_load("test_ctx", &img, &uc, progs);
}

static struct vpmu_engine *engine(const struct vpmu_ucode *u)
{
	struct vpmu_engine *e = vpmu_engine_create(VPMU_CS_MAX);
	unsigned int i;

	if (!e || vpmu_engine_attach(e, u))
		die("cannot create an engine", NULL);
	for (i = 0; i < NCTR; i++)
		vpmu_engine_ctr_config(e, i, &ctrs[i]);
	return e;
}

static void zero_ctrs(struct vpmu_engine *e)
{
	unsigned int i;

	for (i = 0; i < NCTR; i++)
		vpmu_engine_ctr_write(e, i, 0);
}

static void add_ctrs(struct vpmu_engine *e, u64 *sum)
{
	unsigned int i;

	for (i = 0; i < NCTR; i++)
		sum[i] += vpmu_engine_ctr_read(e, i);
}

static void outcome_take(struct vpmu_engine *e, struct outcome *o)
{
	unsigned int i;

	for (i = 0; i < 47; i++)
		o->regs[i] = vpmu_engine_reg(e, i);
	o->mode = vpmu_engine_mode(e);
	o->upc = vpmu_engine_upc(e);
}

static bool outcome_same(const struct ts_prog *p, const struct outcome *a,
			 const struct outcome *b, const char *how)
{
	unsigned int i;
	bool ok = true;

	if (a->stop.reason != b->stop.reason || a->stop.code != b->stop.code ||
	    a->stop.addr != b->stop.addr || a->stop.upc != b->stop.upc ||
	    a->stop.ipc != b->stop.ipc || a->stop.cycles != b->stop.cycles) {
		tap_diag("%s %s: stop %u/%u/%u upc %u ipc %u cycles %llu, "
			 "whole: %u/%u/%u upc %u ipc %u cycles %llu", p->name,
			 how, b->stop.reason, b->stop.code, b->stop.addr,
			 b->stop.upc, b->stop.ipc,
			 (unsigned long long)b->stop.cycles, a->stop.reason,
			 a->stop.code, a->stop.addr, a->stop.upc, a->stop.ipc,
			 (unsigned long long)a->stop.cycles);
		ok = false;
	}
	for (i = 0; i < 47; i++) {
		if (a->regs[i] != b->regs[i]) {
			tap_diag("%s %s: operand %u = %#x, whole: %#x", p->name,
				 how, i, b->regs[i], a->regs[i]);
			ok = false;
		}
	}
	if (a->mode != b->mode || a->upc != b->upc) {
		tap_diag("%s %s: mode %u upc %u, whole: mode %u upc %u",
			 p->name, how, b->mode, b->upc, a->mode, a->upc);
		ok = false;
	}
	if (memcmp(a->mem, b->mem, p->mem_size)) {
		tap_diag("%s %s: memory differs", p->name, how);
		ok = false;
	}
	return ok;
}

/* Run @p whole on a fresh engine: its outcome and its counts. */
static void run_whole(const struct ts_prog *p, struct outcome *o, u64 *counts)
{
	struct vpmu_engine *e = engine(uc);

	memset(o, 0, sizeof(*o));
	o->mem = malloc(p->mem_size);
	memcpy(o->mem, p->image, p->mem_size);
	vpmu_engine_start(e, o->mem, p->mem_size, p->entry, p->mode);
	vpmu_engine_run(e, WHOLE, &o->stop);
	if (o->stop.reason == VPMU_STOP_BUDGET)
		die("a sample does not finish", NULL);
	outcome_take(e, o);
	memset(counts, 0, sizeof(u64) * NCTR);
	add_ctrs(e, counts);
	vpmu_engine_destroy(e);
}

/* A program being run in pieces. */
struct piecewise {
	const struct ts_prog *p;
	struct vpmu_ctx *ctx;
	struct outcome o;
	bool done;
};

static void pw_init(struct piecewise *w, const struct ts_prog *p,
		    struct vpmu_engine *e)
{
	memset(w, 0, sizeof(*w));
	w->p = p;
	w->ctx = vpmu_ctx_create();
	w->o.mem = malloc(p->mem_size);
	memcpy(w->o.mem, p->image, p->mem_size);
	vpmu_engine_start(e, w->o.mem, p->mem_size, p->entry, p->mode);
	vpmu_engine_ctx_save(e, w->ctx);
}

/* One piece of at most @budget cycles on @e; false on a failed restore. */
static bool pw_piece(struct piecewise *w, struct vpmu_engine *e, u64 budget)
{
	struct vpmu_stop s;

	if (w->done)
		return true;
	if (vpmu_engine_ctx_restore(e, w->ctx))
		return false;
	vpmu_engine_run(e, budget, &s);
	w->o.stop.cycles += s.cycles;
	if (s.reason != VPMU_STOP_BUDGET) {
		u64 c = w->o.stop.cycles;

		w->o.stop = s;
		w->o.stop.cycles = c;
		outcome_take(e, &w->o);
		w->done = true;
	}
	vpmu_engine_ctx_save(e, w->ctx);
	return true;
}

static void pw_free(struct piecewise *w)
{
	vpmu_ctx_destroy(w->ctx);
	free(w->o.mem);
}

/*
 * @p split at @budget, alternating @na engines; with @q, @q's pieces (of
 * @qbudget) run between @p's, on the engine @p just left and then on the
 * other one.  Checks both outcomes and the counters' sums.
 */
static bool split_run(const struct ts_prog *p, const struct ts_prog *q, u64 budget,
		      u64 qbudget, unsigned int na, struct vpmu_engine **eng,
		      const struct outcome *wp, const u64 *cp,
		      const struct outcome *wq, const u64 *cq)
{
	struct piecewise a, b;
	u64 sum[NCTR] = { 0 };
	unsigned int k, i;
	char how[96];
	bool ok = true;

	/* interleaved, runs yield (vpmu_engine_tc_yield()), as the module's */
	for (i = 0; i < na; i++) {
		zero_ctrs(eng[i]);
		vpmu_engine_tc_yield(eng[i], q != NULL);
	}
	pw_init(&a, p, eng[0]);
	if (q)
		pw_init(&b, q, eng[na - 1]);
	for (k = 0; !a.done || (q && !b.done); k++) {
		struct vpmu_engine *e = eng[k % na];

		if (k > 100000) {
			tap_diag("%s: does not finish in pieces", p->name);
			ok = false;
			break;
		}
		ok &= pw_piece(&a, e, budget);
		if (q) {
			ok &= pw_piece(&b, e, qbudget);
			ok &= pw_piece(&b, eng[(k + 1) % na], qbudget);
		}
	}
	for (i = 0; i < na; i++)
		add_ctrs(eng[i], sum);
	snprintf(how, sizeof(how), "budget %llu, %u engines%s%s",
		 (unsigned long long)budget, na, q ? ", with " : "",
		 q ? q->name : "");
	ok &= outcome_same(p, wp, &a.o, how);
	if (q)
		ok &= outcome_same(q, wq, &b.o, how);
	for (i = 0; i < NCTR; i++) {
		u64 want = cp[i] + (q ? cq[i] : 0);

		if (sum[i] != want) {
			tap_diag("%s %s: counter %u = %llu, want %llu", p->name,
				 how, i, (unsigned long long)sum[i],
				 (unsigned long long)want);
			ok = false;
		}
	}
	pw_free(&a);
	if (q)
		pw_free(&b);
	return ok;
}

static void test_sample(unsigned int pi)
{
	const struct ts_prog *p = &progs[pi], *q = &progs[(pi + 1) % NSAMPLES];
	struct vpmu_engine *eng[2] = { engine(uc), engine(uc) };
	struct outcome wp, wq;
	u64 cp[NCTR], cq[NCTR], b;
	bool ok1 = true, ok2 = true, ok3 = true, ok4 = true;

	run_whole(p, &wp, cp);
	run_whole(q, &wq, cq);
	tap_ok(wp.stop.cycles > 0 && cp[0] == wp.stop.cycles,
	       "%s: whole run, %llu cycles", p->name,
	       (unsigned long long)wp.stop.cycles);
	for (b = 1; b <= 64; b++)
		ok1 &= split_run(p, NULL, b, 0, 1, eng, &wp, cp, NULL, NULL);
	tap_ok(ok1, "%s: saved and restored on one engine, budgets 1..64",
	       p->name);
	for (b = 1; b <= 64; b++)
		ok2 &= split_run(p, NULL, b, 0, 2, eng, &wp, cp, NULL, NULL);
	for (b = 65; b < wp.stop.cycles + 2; b += b / 3)
		ok2 &= split_run(p, NULL, b, 0, 2, eng, &wp, cp, NULL, NULL);
	tap_ok(ok2, "%s: alternating two engines, budgets 1..%llu", p->name,
	       (unsigned long long)wp.stop.cycles + 1);
	for (b = 1; b <= 40; b++)
		ok3 &= split_run(p, q, b, 1 + (b * 7) % 13, 1, eng, &wp, cp,
				 &wq, cq);
	tap_ok(ok3, "%s: %s interleaved on the same engine", p->name,
	       q->name);
	for (b = 1; b <= 40; b++)
		ok4 &= split_run(p, q, b, 1 + (b * 5) % 17, 2, eng, &wp, cp,
				 &wq, cq);
	for (b = 41; b < wp.stop.cycles + 2; b += b / 2)
		ok4 &= split_run(p, q, b, b / 3 + 1, 2, eng, &wp, cp, &wq, cq);
	tap_ok(ok4, "%s: %s interleaved, alternating two engines", p->name,
	       q->name);
	free(wp.mem);
	free(wq.mem);
	for (b = 0; b < 2; b++) {
		struct vpmu_tc_stats tc;

		vpmu_engine_tc_stats(eng[b], &tc);
		yields += tc.yields;
		resumed += tc.resumed;
	}
	vpmu_engine_destroy(eng[0]);
	vpmu_engine_destroy(eng[1]);
}

/* Restore refuses a context of another image, or one never started. */
static bool test_stale(void)
{
	struct vpmu_engine *e = engine(uc), *f;
	struct vpmu_ctx *c = vpmu_ctx_create(), *fresh = vpmu_ctx_create();
	struct vpmu_ucode *uc2 = NULL;
	struct vpmu_verr verr;
	const struct ts_prog *p = &progs[0];
	u8 *mem = calloc(1, p->mem_size);
	struct vpmu_stop s;
	bool ok;

	if (vpmu_ucode_load(&uc2, img.p, img.len, VPMU_CS_MAX, &verr))
		die(verr.msg, NULL);
	f = engine(uc2);
	memcpy(mem, p->image, p->mem_size);
	ok = vpmu_engine_ctx_restore(e, fresh) == -ESTALE;
	vpmu_engine_start(e, mem, p->mem_size, p->entry, p->mode);
	vpmu_engine_run(e, 10, &s);
	vpmu_engine_ctx_save(e, c);
	ok = ok && vpmu_engine_ctx_restore(f, c) == -ESTALE;
	ok = ok && vpmu_engine_ctx_restore(e, c) == 0;
	/* the same engine re-attached to another image: stale too */
	ok = ok && !vpmu_engine_attach(e, uc2) &&
	     vpmu_engine_ctx_restore(e, c) == -ESTALE;
	ok = ok && !vpmu_engine_attach(e, uc) &&
	     vpmu_engine_ctx_restore(e, c) == 0;
	vpmu_engine_run(e, WHOLE, &s);
	ok = ok && s.reason == VPMU_STOP_HALT;
	vpmu_ctx_destroy(c);
	vpmu_ctx_destroy(fresh);
	vpmu_engine_destroy(e);
	vpmu_engine_destroy(f);
	vpmu_ucode_free(uc2);
	free(mem);
	return ok;
}

/* An engine refuses images larger than it was created for. */
static bool test_efbig(void)
{
	u32 n = vpmu_ucode_header(uc)->cs_words;
	struct vpmu_engine *small = vpmu_engine_create(n - 1);
	struct vpmu_engine *exact = vpmu_engine_create(n);
	struct vpmu_engine *bare = vpmu_engine_create(0);
	bool ok = small && exact && bare &&
		  vpmu_engine_attach(small, uc) == -EFBIG &&
		  vpmu_engine_attach(exact, uc) == 0 &&
		  vpmu_engine_attach(bare, uc) == -EFBIG &&
		  vpmu_engine_mem_words(bare) == 0 &&
		  vpmu_engine_mem_words(exact) == n &&
		  !vpmu_engine_create(VPMU_CS_MAX + 1) &&
		  !vpmu_engine_mem_alloc(0, VPMU_TC_POOL_DEFAULT) &&
		  !vpmu_engine_mem_alloc(VPMU_CS_MAX + 1, 0);

	vpmu_engine_destroy(small);
	vpmu_engine_destroy(exact);
	vpmu_engine_destroy(bare);
	return ok;
}

/*
 * An engine made without memory has its PMU hardware from the start; given
 * memory it runs, with what its counters counted before kept; memory taken
 * away (and a smaller one given) leaves it unable to attach, counters kept.
 */
static bool test_mem(void)
{
	u32 n = vpmu_ucode_header(uc)->cs_words;
	struct vpmu_engine *e = vpmu_engine_create(0);
	struct vpmu_ctr_cfg uops = { VPMU_EV_UOPS, 64,
				     VPMU_CTR_USER | VPMU_CTR_SUPER, 0 };
	const struct ts_prog *p = &progs[0];
	u8 *mem = calloc(1, p->mem_size);
	struct vpmu_engine_mem *old;
	struct vpmu_stop s;
	bool ok = e && mem && !vpmu_engine_ctr_config(e, 0, &uops);
	u64 once;

	if (!ok)
		goto out;
	vpmu_engine_ctr_write(e, 0, 5);
	old = vpmu_engine_mem_set(e, vpmu_engine_mem_alloc(n, VPMU_TC_POOL_DEFAULT));
	ok = !old && vpmu_engine_ctr_read(e, 0) == 5 &&
	     !vpmu_engine_attach(e, uc);
	memcpy(mem, p->image, p->mem_size);
	vpmu_engine_start(e, mem, p->mem_size, p->entry, p->mode);
	vpmu_engine_run(e, 1000000, &s);
	once = vpmu_engine_ctr_read(e, 0) - 5;
	ok = ok && s.reason == VPMU_STOP_HALT && once == s.cycles;
	/* the counts in flight are in the counter before the memory goes */
	memcpy(mem, p->image, p->mem_size);
	vpmu_engine_start(e, mem, p->mem_size, p->entry, p->mode);
	vpmu_engine_run(e, 1000000, &s);
	old = vpmu_engine_mem_set(e, vpmu_engine_mem_alloc(n - 1, 0));
	ok = ok && old && vpmu_engine_ctr_read(e, 0) == 5 + 2 * once &&
	     vpmu_engine_attach(e, uc) == -EFBIG &&
	     vpmu_engine_run(e, 10, &s) == VPMU_STOP_FAULT &&
	     s.code == VPMU_FAULT_NOUCODE;
	vpmu_engine_mem_free(old);
	vpmu_engine_mem_free(vpmu_engine_mem_set(e, NULL));
	ok = ok && vpmu_engine_mem_words(e) == 0 &&
	     vpmu_engine_ctr_read(e, 0) == 5 + 2 * once;
out:
	vpmu_engine_destroy(e);
	free(mem);
	return ok;
}

/* Attach keeps counters, overflow status, freeze bits and triggers. */
static bool test_attach_keeps(void)
{
	struct vpmu_engine *e = engine(uc);
	struct vpmu_ctr_cfg narrow = { VPMU_EV_UOPS, 4,
				       VPMU_CTR_USER | VPMU_CTR_SUPER, 1 };
	struct vpmu_ucode *uc2 = NULL;
	struct vpmu_verr verr;
	const struct ts_prog *p = &progs[0];
	u8 *mem = calloc(1, p->mem_size);
	struct vpmu_stop s;
	u64 before[NCTR], after[NCTR];
	bool ok;

	if (vpmu_ucode_load(&uc2, img.p, img.len, VPMU_CS_MAX, &verr))
		die(verr.msg, NULL);
	vpmu_engine_ctr_config(e, NCTR, &narrow);
	memcpy(mem, p->image, p->mem_size);
	vpmu_engine_start(e, mem, p->mem_size, p->entry, p->mode);
	vpmu_engine_run(e, 100, &s);
	vpmu_engine_freeze(e, 2, true);
	vpmu_engine_fgroup_trigger(e, 3, VPMU_TRIG_MARK);
	vpmu_engine_ctr_snapshot(e, before, NCTR);
	ok = (vpmu_engine_ovf_status(e) >> NCTR & 1) && before[0] == 100;
	ok = ok && !vpmu_engine_attach(e, uc2);
	vpmu_engine_ctr_snapshot(e, after, NCTR);
	ok = ok && !memcmp(before, after, sizeof(before)) &&
	     (vpmu_engine_ovf_status(e) >> NCTR & 1) &&
	     vpmu_engine_frozen(e, 2) && !vpmu_engine_frozen(e, 1) &&
	     vpmu_engine_event_total(e, VPMU_EV_CYCLES) == 0;
	/* a new program on the new image counts on from there */
	memcpy(mem, p->image, p->mem_size);
	vpmu_engine_start(e, mem, p->mem_size, p->entry, p->mode);
	vpmu_engine_run(e, 50, &s);
	ok = ok && vpmu_engine_ctr_read(e, 0) == 150 &&
	     vpmu_engine_ctr_read(e, NCTR) == (before[1] + 50) % 16;
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc2);
	free(mem);
	return ok;
}

/*
 * The histogram's countdown is the engine's: with programs switched in
 * and out, an engine that ran C cycles took C / K samples.
 */
static bool test_hist_engine_clock(u32 k)
{
	struct vpmu_engine *e = engine(uc);
	struct piecewise a, b;
	const u64 *h;
	u64 samples = 0, cycles;
	u32 n, i;
	bool ok = true;

	vpmu_engine_uhist_set(e, k);
	pw_init(&a, &progs[2], e);
	pw_init(&b, &progs[0], e);
	while (!a.done || !b.done) {
		ok &= pw_piece(&a, e, 7);
		ok &= pw_piece(&b, e, 5);
	}
	cycles = a.o.stop.cycles + b.o.stop.cycles;
	h = vpmu_engine_uhist(e, &n);
	for (i = 0; i < n; i++)
		samples += h[i];
	if (samples != cycles / k) {
		tap_diag("K=%u: %llu samples in %llu cycles", k,
			 (unsigned long long)samples,
			 (unsigned long long)cycles);
		ok = false;
	}
	pw_free(&a);
	pw_free(&b);
	vpmu_engine_destroy(e);
	return ok;
}

int main(void)
{
	unsigned int i;

	setup();
	tap_plan(5 * NSAMPLES + 8);
	for (i = 0; i < NSAMPLES; i++)
		test_sample(i);
	/* and not into another program's block (the code generation) */
	tap_ok(resumed > 1000 && yields > resumed,
	       "interleaved runs yield and go on in the block (%llu of %llu)",
	       (unsigned long long)resumed, (unsigned long long)yields);
	tap_ok(test_stale(), "restore: -ESTALE for another image or no program");
	tap_ok(test_efbig(), "attach: -EFBIG beyond cs_limit; create's limits");
	tap_ok(test_mem(), "memory given later and taken away; counters kept");
	tap_ok(test_attach_keeps(),
	       "attach keeps counters, overflow, freeze bits");
	tap_ok(test_hist_engine_clock(1), "histogram K=1 across programs");
	tap_ok(test_hist_engine_clock(3), "histogram K=3 on the engine's clock");
	tap_ok(test_hist_engine_clock(7), "histogram K=7 on the engine's clock");
	for (i = 0; i < NSAMPLES; i++)
		free(progs[i].image);
	vpmu_ucode_free(uc);
	vpmu_buf_free(&img);
	return tap_done();
}
