// SPDX-License-Identifier: GPL-2.0
/*
 * test_hu.c - the histogram unit against a reference model.
 *
 * The reference steps a program one microword at a time on an engine of
 * its own (a budget of 1 cycle runs exactly one microword), reading the
 * microword's upc, its cycles and its events from the event totals, and
 * keeps its own write queue as architecture.rst describes it (entries
 * with enqueue and drain times), checking the stalls it predicts against
 * WQ_STALL.  That gives a trace: per microword, its cycles, events and,
 * per cycle, the queue's occupancy.  The unit's buckets are then computed
 * from the trace cycle by cycle, window by window, and compared with what
 * the engine under test reports however its run is cut, whatever else
 * its PMU does, across contexts and engines, and after set, reset, NULL,
 * bad programs and attach.
 *
 * Programs: the sample programs on the default microcode (as test_ctx.c
 * assembles them) and two C-built images: a store-heavy loop that keeps
 * the write queue full and stalls (and misses the cache), and a loop with
 * long load-miss stalls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "test_samples.h"
#include "vpmu_test_image.h"
#include "vpmu_ucode.h"

#define WHOLE		100000000ull
#define QRING		64	/* >= VPMU_WQ_DEPTH_MAX */

/* The events the trace records per microword. */
static const u16 evs[] = {
	VPMU_EV_CYCLES, VPMU_EV_UOPS, VPMU_EV_INSNS, VPMU_EV_UBR_TAKEN,
	VPMU_EV_DISPATCH, VPMU_EV_DC_HIT, VPMU_EV_DC_MISS, VPMU_EV_WQ_STALL,
	VPMU_EV_TRIGGER, VPMU_EV_STORES, VPMU_EV_TAG(1), VPMU_EV_TAG(2),
	VPMU_EV_TAG(3), VPMU_EV_TAG(4), VPMU_EV_TAG(5),
};
#define NEV	(sizeof(evs) / sizeof(evs[0]))
#define I_MISS	6
#define I_WQS	7
#define I_ST	9

static int ev_index(u16 ev)
{
	unsigned int i;

	for (i = 0; i < NEV; i++)
		if (evs[i] == ev)
			return i;
	return -1;
}

/* ---- programs ------------------------------------------------------------ */

struct prog {
	const char *name;
	struct vpmu_ucode *uc;
	u8 *image;		/* load image, msz bytes */
	u32 msz, entry;
	unsigned int mode;
};

#define NSAMPLES	TS_NSAMPLES
#define NPROGS		(NSAMPLES + 2)
#define P_WQ		NSAMPLES	/* the store-heavy C-built loop */
#define P_MISS		(NSAMPLES + 1)

static struct vpmu_buf img;
static struct vpmu_ucode *duc;
static struct prog progs[NPROGS];

static void die(const char *what, const struct vpmu_buf *d)
{
	fprintf(stderr, "test_hu: %s\n%s", what, d && d->p ? d->p : "");
	exit(2);
}

static struct vpmu_ucode *load(struct tb_image *t)
{
	struct vpmu_verr err;
	struct vpmu_ucode *uc = tb_load(t, &err);

	if (!uc)
		die(err.msg, NULL);
	return uc;
}

/*
 * Three stores per iteration of about eight microwords into a 3-entry
 * queue draining every 5 cycles: the queue is full most of the time and
 * stores stall, but every eighth iteration waits long enough for it to
 * empty.  One store commits late (CALL), the loop's branch carries the T
 * bit, a load misses now and then (5-cycle penalty).
 */
static struct vpmu_ucode *wq_uc(void)
{
	struct tb_image *t = tb_new();

	t->cs[0] = UW(MOV, T(0), 0, IM, 300) | Q(NEXT, 0, 0);
	t->cs[1] = UW(SHL, T(1), T(0), IM, 2) | Q(NEXT, 0, 0) | UEV(1);
	t->cs[2] = UW(SW, 0, T(1), T(0), 0) | Q(NEXT, 0, 0) | UEV(2);
	t->cs[3] = UW(SW, 0, T(1), T(0), 4) | Q(NEXT, 0, 0) | UEV(2);
	t->cs[4] = UW(LW, T(2), T(1), 0, 256) | Q(NEXT, 0, 0) | UEV(3);
	t->cs[5] = UW(SW, 0, T(1), T(2), 8) | Q(CALL, 0, 8) | UEV(2);
	t->cs[6] = UW(SUB, T(0), T(0), IM, 1) | US | QC(NZ, 1) | UT;
	t->cs[7] = NOPW | Q(HALT, 0, 0);
	t->cs[8] = UW(AND, T(3), T(0), IM, 7) | US | QC(NZ, 11) | UEV(4);
	t->cs[9] = UW(MOV, T(4), 0, IM, 12) | Q(NEXT, 0, 0);
	t->cs[10] = UW(SUB, T(4), T(4), IM, 1) | US | QC(NZ, 10);
	t->cs[11] = NOPW | Q(RET, 0, 0) | UEV(5);
	t->ncs = 12;
	t->wq_depth = 3;
	t->wq_drain = 5;
	t->dc_miss_penalty = 5;
	return load(t);
}

/*
 * Loads that always miss (penalty 13), two stores in a row into a
 * 1-entry queue draining every 20 cycles: long stalls of both kinds.
 */
static struct vpmu_ucode *miss_uc(void)
{
	struct tb_image *t = tb_new();

	t->cs[0] = UW(MOV, T(0), 0, IM, 100) | Q(NEXT, 0, 0);
	t->cs[1] = UW(SHL, T(1), T(0), IM, 4) | Q(NEXT, 0, 0) | UEV(1);
	t->cs[2] = UW(LW, T(2), T(1), 0, 0) | Q(NEXT, 0, 0) | UEV(3);
	t->cs[3] = UW(SW, 0, T(1), T(2), 4) | Q(JUMP, 0, 4) | UEV(2);
	t->cs[4] = UW(SW, 0, T(1), T(2), 8) | Q(NEXT, 0, 0) | UEV(2);
	t->cs[5] = UW(SUB, T(0), T(0), IM, 1) | US | QC(NZ, 1) | UEV(5);
	t->cs[6] = NOPW | Q(HALT, 0, 0);
	t->ncs = 7;
	t->wq_depth = 1;
	t->wq_drain = 20;
	t->dc_miss_penalty = 13;
	return load(t);
}

static void setup(void)
{
	struct ts_prog sp[TS_NSAMPLES];
	unsigned int i;

	ts_load("test_hu", &img, &duc, sp);
	for (i = 0; i < NSAMPLES; i++) {
		progs[i].name = sp[i].name;
		progs[i].uc = duc;
		progs[i].image = sp[i].image;
		progs[i].msz = sp[i].mem_size;
		progs[i].entry = sp[i].entry;
		progs[i].mode = sp[i].mode;
	}
	progs[P_WQ].name = "wq-loop";
	progs[P_WQ].uc = wq_uc();
	progs[P_MISS].name = "miss-loop";
	progs[P_MISS].uc = miss_uc();
	for (i = P_WQ; i < NPROGS; i++) {
		progs[i].msz = 2048;
		progs[i].image = calloc(1, 2048);
	}
}

/* ---- the reference -------------------------------------------------------- */

/* What one microword did, as the reference saw it. */
struct rec {
	u32 upc;
	u8 cycles;
	u8 stall;		/* a store's stall cycles (its first ones) */
	u8 acc;			/* VPMU_K_LOAD or VPMU_K_STORE: accessed */
	u32 addr;		/* ...this data address */
	u8 ev[NEV];		/* occurrences of evs[] */
};

/* The microwords one engine ran, in order; occ[] per cycle. */
struct trace {
	struct rec *r;
	size_t n, cap;
	u8 *occ;
	u64 ncyc, occ_cap;
};

/* A program stepped by the reference on an engine of its own. */
struct prun {
	const struct prog *p;
	struct vpmu_engine *r;
	u8 *mem;
	u64 cyc;		/* the program's cycles */
	u64 tot[NEV];
	u64 enq[QRING], drn[QRING];	/* the last QRING stores' entries */
	u64 nq;
	u32 depth, drain;
	bool done, bad;
};

static void trace_free(struct trace *t)
{
	free(t->r);
	free(t->occ);
	memset(t, 0, sizeof(*t));
}

static void prun_init(struct prun *pr, const struct prog *p)
{
	const struct vpmu_image_header *h = vpmu_ucode_header(p->uc);

	memset(pr, 0, sizeof(*pr));
	pr->p = p;
	pr->r = vpmu_engine_create(VPMU_CS_MAX);
	if (!pr->r || vpmu_engine_attach(pr->r, p->uc))
		die("no reference engine", NULL);
	pr->mem = malloc(p->msz);
	memcpy(pr->mem, p->image, p->msz);
	pr->depth = h->wq_depth;
	pr->drain = h->wq_drain;
	vpmu_engine_start(pr->r, pr->mem, p->msz, p->entry, p->mode);
}

static void prun_free(struct prun *pr)
{
	vpmu_engine_destroy(pr->r);
	free(pr->mem);
}

/* Entries in the queue during program cycle @t: enqueued, not drained. */
static unsigned int prun_occ(const struct prun *pr, u64 t)
{
	unsigned int n = 0;
	u64 k;

	for (k = pr->nq > QRING ? pr->nq - QRING : 0; k < pr->nq; k++)
		if (pr->enq[k % QRING] <= t && t < pr->drn[k % QRING])
			n++;
	return n;
}

/*
 * A store at program cycle @c: retire what has drained by @c; if the
 * queue is still full, stall until the oldest entry drains; enqueue,
 * draining wq_drain after the entry ahead, or after entering if there is
 * none.  Returns the stall.
 */
static u64 prun_store(struct prun *pr, u64 c)
{
	u64 oldest = ~0ull, newest = 0, enq, k;
	unsigned int live = 0;

	for (k = pr->nq > QRING ? pr->nq - QRING : 0; k < pr->nq; k++) {
		u64 d = pr->drn[k % QRING];

		if (d > c) {
			live++;
			if (d < oldest)
				oldest = d;
		}
		if (d > newest)
			newest = d;
	}
	enq = live >= pr->depth ? oldest : c;
	pr->enq[pr->nq % QRING] = enq;
	pr->drn[pr->nq % QRING] = newest > enq ? newest + pr->drain :
				  enq + pr->drain;
	pr->nq++;
	return enq - c;
}

static void trace_add(struct trace *t, const struct rec *r, const u8 *occ)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 4096;
		t->r = realloc(t->r, t->cap * sizeof(*t->r));
	}
	t->r[t->n++] = *r;
	if (t->ncyc + r->cycles > t->occ_cap) {
		t->occ_cap = t->occ_cap ? 2 * t->occ_cap : 16384;
		t->occ = realloc(t->occ, t->occ_cap);
	}
	memcpy(t->occ + t->ncyc, occ, r->cycles);
	t->ncyc += r->cycles;
}

/* Step one microword of @pr into @t; returns its cycles (0: stopped). */
static u64 prun_step(struct prun *pr, struct trace *t)
{
	const struct vpmu_dec *d;
	struct vpmu_stop s;
	struct rec r;
	u8 occ[256];
	unsigned int i;
	u64 c = pr->cyc;

	if (pr->done)
		return 0;
	memset(&r, 0, sizeof(r));
	r.upc = vpmu_engine_upc(pr->r);
	/* a load's or store's address, from its base register and offset */
	d = &pr->p->uc->dec[r.upc];
	r.acc = d->kind & (VPMU_K_LOAD | VPMU_K_STORE);
	r.addr = vpmu_engine_reg(pr->r, d->a) + (u32)d->imm;
	vpmu_engine_run(pr->r, 1, &s);
	if (s.reason != VPMU_STOP_BUDGET)
		pr->done = true;
	if (!s.cycles)
		return 0;
	if (s.cycles > 255) {
		pr->bad = true;
		return s.cycles;
	}
	r.cycles = s.cycles;
	for (i = 0; i < NEV; i++) {
		u64 v = vpmu_engine_event_total(pr->r, evs[i]);

		r.ev[i] = v - pr->tot[i];
		pr->tot[i] = v;
	}
	if (r.ev[I_ST]) {
		r.stall = prun_store(pr, c);
		if (r.stall != r.ev[I_WQS] || r.stall + 1u != s.cycles) {
			tap_diag("%s: model stall %u, engine %u, cycles %llu",
				 pr->p->name, r.stall, r.ev[I_WQS],
				 (unsigned long long)s.cycles);
			pr->bad = true;
		}
	}
	for (i = 0; i < s.cycles; i++)
		occ[i] = prun_occ(pr, c + i);
	trace_add(t, &r, occ);
	pr->cyc += s.cycles;
	return s.cycles;
}

/* Step @pr for exactly @cycles (a run of the engine under test). */
static bool prun_piece(struct prun *pr, struct trace *t, u64 cycles)
{
	u64 n = 0;

	while (n < cycles) {
		u64 c = prun_step(pr, t);

		if (!c)
			break;
		n += c;
	}
	if (n != cycles)
		tap_diag("%s: reference ran %llu cycles, engine %llu",
			 pr->p->name, (unsigned long long)n,
			 (unsigned long long)cycles);
	return n == cycles && !pr->bad;
}

/* The whole program's trace. */
static void prun_whole(const struct prog *p, struct trace *t)
{
	struct prun pr;

	prun_init(&pr, p);
	while (prun_step(&pr, t))
		;
	if (pr.bad)
		die("the reference's write queue disagrees", NULL);
	prun_free(&pr);
}

/* Entries of @p counting at cycle @pos of the monitoring period. */
static u16 ref_active(const struct vpmu_hu_prog *p, u64 pos)
{
	u64 s = 0;
	u16 m = 0;
	unsigned int i;

	for (i = 0; i < p->n; i++) {
		if (p->mode == VPMU_HU_SEQ) {
			if (pos >= s && pos < s + p->ent[i].period)
				m |= 1u << i;
			s += p->ent[i].period;
		} else if (pos < p->ent[i].period) {
			m |= 1u << i;
		}
	}
	return m;
}

static u64 ref_period(const struct vpmu_hu_prog *p)
{
	u64 t = 0;
	unsigned int i;

	for (i = 0; i < p->n; i++) {
		if (p->mode == VPMU_HU_SEQ)
			t += p->ent[i].period;
		else if (t < p->ent[i].period)
			t = p->ent[i].period;
	}
	return t;
}

/*
 * Buckets of @p over trace @t, the monitoring period at cycle @pos0 when
 * the trace begins, cycle by cycle: per-cycle predicates in the window of
 * each cycle, other events in the window of the microword's first cycle.
 * Adds to @c.
 */
static void ref_eval(const struct trace *t, const struct vpmu_hu_prog *p,
		     u64 pos0, u64 *c)
{
	u64 T = ref_period(p), clk = pos0, cyc = 0;
	size_t k;

	for (k = 0; k < t->n; k++) {
		const struct rec *r = &t->r[k];
		unsigned int j, i;

		for (j = 0; j < r->cycles; j++) {
			/* once: nothing counts after the first period */
			u64 pos = p->once ? clk + j : (clk + j) % T;
			u16 m = pos < T ? ref_active(p, pos) : 0;
			bool ld = r->acc & VPMU_K_LOAD, miss = r->ev[I_MISS];
			u8 occ = t->occ[cyc + j];

			for (i = 0; i < p->n; i++) {
				const struct vpmu_hu_entry *x = &p->ent[i];
				int ei;

				if (!(m >> i & 1))
					continue;
				switch (x->kind) {
				case VPMU_HU_WQ:
					c[i] += occ >= x->lo && occ <= x->hi;
					break;
				case VPMU_HU_UPC:
					c[i] += r->upc >= x->lo &&
						r->upc <= x->hi;
					break;
				case VPMU_HU_LOAD:
				case VPMU_HU_HIT:
				case VPMU_HU_MISS:
				case VPMU_HU_STORE:
				case VPMU_HU_ACCESS:
					if (j || !r->acc || r->addr < x->lo ||
					    r->addr > x->hi)
						break;
					c[i] += x->kind == VPMU_HU_ACCESS ||
						(x->kind == VPMU_HU_STORE ?
						 !ld : ld &&
						 (x->kind == VPMU_HU_LOAD ||
						  miss == (x->kind ==
							   VPMU_HU_MISS)));
					break;
				default:
					if (x->event == VPMU_EV_CYCLES) {
						c[i]++;
					} else if (x->event ==
						   VPMU_EV_WQ_STALL) {
						c[i] += j < r->stall;
					} else if (!j) {
						ei = ev_index(x->event);
						if (ei < 0)
							die("event not traced",
							    NULL);
						c[i] += r->ev[ei];
					}
				}
			}
		}
		clk += r->cycles;
		cyc += r->cycles;
	}
}

/* ---- histogram programs --------------------------------------------------- */

static struct vpmu_hu_entry EVE(u16 ev, u32 period)
{
	struct vpmu_hu_entry x = { VPMU_HU_EVENT, ev, 0, 0, period };

	return x;
}

static struct vpmu_hu_entry RNG(u8 kind, u32 lo, u32 hi, u32 period)
{
	struct vpmu_hu_entry x = { kind, 0, lo, hi, period };

	return x;
}

#define NHP	16
static struct vpmu_hu_prog hps[NHP];
static const char *const hp_names[NHP] = {
	"SEQ n=1 CYCLES", "SEQ n=16 unequal, mixed", "PAR n=16 unequal, mixed",
	"PAR n=16 equal", "SEQ n=16 equal 13", "SEQ long periods",
	"PAR 1 and 100000", "SEQ n=3 periods 1", "WQ partition PAR",
	"UPC ranges SEQ", "PAR n=1 period 1", "SEQ events 7/11/17",
	"PAR addresses", "SEQ addresses, mixed", "PAR once", "SEQ once addresses",
};

static void hps_init(void)
{
	static const u16 mix_ev[] = {
		VPMU_EV_CYCLES, VPMU_EV_UOPS, VPMU_EV_WQ_STALL, VPMU_EV_TAG(1),
		VPMU_EV_STORES, VPMU_EV_DC_MISS, VPMU_EV_INSNS,
		VPMU_EV_UBR_TAKEN, VPMU_EV_TAG(2), VPMU_EV_DC_HIT,
	};
	struct vpmu_hu_prog *p;
	unsigned int i;

	p = &hps[0];
	p->mode = VPMU_HU_SEQ;
	p->n = 1;
	p->ent[0] = EVE(VPMU_EV_CYCLES, 1);
	for (i = 1; i <= 4; i++) {
		p = &hps[i];
		p->mode = i == 2 || i == 3 ? VPMU_HU_PAR : VPMU_HU_SEQ;
		p->n = 16;
	}
	for (i = 0; i < 16; i++) {
		static const u32 per[16] = { 1, 2, 3, 5, 7, 1, 11, 4,
					     9, 2, 6, 1, 13, 8, 3, 10 };
		struct vpmu_hu_entry x;

		if (i < 10)
			x = EVE(mix_ev[i], per[i]);
		else if (i < 13)
			x = RNG(VPMU_HU_WQ, i - 10, i == 12 ? 32 : i - 10,
				per[i]);
		else
			x = RNG(VPMU_HU_UPC, i == 13 ? 0 : 4, i == 13 ? 3 :
				i == 14 ? 60 : 1000, per[i]);
		hps[1].ent[i] = x;
		x.period = per[(i * 7) % 16] * 3 + (i == 5 ? 40 : 0);
		hps[2].ent[i] = x;
		x.period = 29;
		hps[3].ent[i] = x;
		x.period = 13;
		hps[4].ent[(i * 5) % 16] = x;
	}
	p = &hps[5];
	p->mode = VPMU_HU_SEQ;
	p->n = 3;
	p->ent[0] = EVE(VPMU_EV_UOPS, 5000);
	p->ent[1] = RNG(VPMU_HU_WQ, 1, 2, 777);
	p->ent[2] = EVE(VPMU_EV_CYCLES, 12345);
	p = &hps[6];
	p->mode = VPMU_HU_PAR;
	p->n = 4;
	p->ent[0] = EVE(VPMU_EV_CYCLES, 1);
	p->ent[1] = EVE(VPMU_EV_WQ_STALL, 100000);
	p->ent[2] = RNG(VPMU_HU_WQ, 0, 0, 100000);
	p->ent[3] = EVE(VPMU_EV_UOPS, 1);
	p = &hps[7];
	p->mode = VPMU_HU_SEQ;
	p->n = 3;
	p->ent[0] = EVE(VPMU_EV_WQ_STALL, 1);
	p->ent[1] = RNG(VPMU_HU_WQ, 2, 2, 1);
	p->ent[2] = EVE(VPMU_EV_CYCLES, 1);
	p = &hps[8];
	p->mode = VPMU_HU_PAR;
	p->n = 5;
	for (i = 0; i < 4; i++)
		p->ent[i] = RNG(VPMU_HU_WQ, i, i, 1000);
	p->ent[4] = RNG(VPMU_HU_WQ, 4, 0xffffffffu, 1000);
	p = &hps[9];
	p->mode = VPMU_HU_SEQ;
	p->n = 4;
	p->ent[0] = RNG(VPMU_HU_UPC, 0, 2, 3);
	p->ent[1] = RNG(VPMU_HU_UPC, 2, 2, 2);
	p->ent[2] = RNG(VPMU_HU_UPC, 5, 0xffffffffu, 17);
	p->ent[3] = RNG(VPMU_HU_UPC, 0, 0xffffffffu, 1);
	p = &hps[10];
	p->mode = VPMU_HU_PAR;
	p->n = 1;
	p->ent[0] = EVE(VPMU_EV_TAG(2), 1);
	p = &hps[11];
	p->mode = VPMU_HU_SEQ;
	p->n = 3;
	p->ent[0] = EVE(VPMU_EV_STORES, 7);
	p->ent[1] = EVE(VPMU_EV_TAG(3), 11);
	p->ent[2] = EVE(VPMU_EV_WQ_STALL, 17);
	/* address predicates: everything, halves, one address */
	p = &hps[12];
	p->mode = VPMU_HU_PAR;
	p->n = 9;
	p->ent[0] = RNG(VPMU_HU_LOAD, 0, 0xffffffffu, 1000);
	p->ent[1] = RNG(VPMU_HU_HIT, 0, 0x3ff, 1000);
	p->ent[2] = RNG(VPMU_HU_MISS, 0x400, 0xffffffffu, 1000);
	p->ent[3] = RNG(VPMU_HU_STORE, 0x100, 0x4ff, 1000);
	p->ent[4] = RNG(VPMU_HU_ACCESS, 0x4b0, 0x4b0, 1000);
	p->ent[5] = RNG(VPMU_HU_MISS, 0, 0xffffffffu, 1000);
	p->ent[6] = RNG(VPMU_HU_HIT, 0, 0xffffffffu, 1000);
	p->ent[7] = RNG(VPMU_HU_STORE, 0, 0xffffffffu, 1000);
	p->ent[8] = RNG(VPMU_HU_ACCESS, 0x200, 0x5ff, 1);
	p = &hps[13];
	p->mode = VPMU_HU_SEQ;
	p->n = 6;
	p->ent[0] = RNG(VPMU_HU_LOAD, 0, 0x7ff, 7);
	p->ent[1] = RNG(VPMU_HU_WQ, 1, 3, 13);
	p->ent[2] = RNG(VPMU_HU_STORE, 0x300, 0xffffffffu, 1);
	p->ent[3] = EVE(VPMU_EV_DC_MISS, 50);
	p->ent[4] = RNG(VPMU_HU_MISS, 0, 0x6ff, 3);
	p->ent[5] = RNG(VPMU_HU_ACCESS, 0, 0xffffffffu, 29);
	/* one monitoring period, then the buckets hold */
	p = &hps[14];
	p->mode = VPMU_HU_PAR;
	p->once = 1;
	p->n = 4;
	p->ent[0] = EVE(VPMU_EV_CYCLES, 500);
	p->ent[1] = RNG(VPMU_HU_LOAD, 0, 0xffffffffu, 300);
	p->ent[2] = EVE(VPMU_EV_WQ_STALL, 500);
	p->ent[3] = RNG(VPMU_HU_UPC, 0, 0xfff, 200);
	p = &hps[15];
	p->mode = VPMU_HU_SEQ;
	p->once = 1;
	p->n = 3;
	p->ent[0] = RNG(VPMU_HU_ACCESS, 0, 0xffffffffu, 100);
	p->ent[1] = RNG(VPMU_HU_HIT, 0, 0xffffffffu, 200);
	p->ent[2] = RNG(VPMU_HU_WQ, 0, 1, 300);
}

/* ---- the engine under test ------------------------------------------------ */

/* Extras on the engine under test besides the unit. */
#define X_CTRS		BIT(0)	/* narrow interrupting and freezing counters */
#define X_TRIG		BIT(1)	/* triggers on MARK, a tag and STORES */
#define X_UHIST		BIT(2)	/* micro-PC histogram, K = 3 */

static struct vpmu_engine *eng(const struct vpmu_ucode *uc, unsigned int x)
{
	struct vpmu_engine *e = vpmu_engine_create(VPMU_CS_MAX);
	static const struct vpmu_ctr_cfg cfg[] = {
		{ VPMU_EV_UOPS, 5, VPMU_CTR_USER | VPMU_CTR_SUPER |
		  VPMU_CTR_INT, 0 },
		{ VPMU_EV_CYCLES, 7, VPMU_CTR_USER | VPMU_CTR_SUPER |
		  VPMU_CTR_INT, 1 },
		{ VPMU_EV_WQ_STALL, 3, VPMU_CTR_USER | VPMU_CTR_SUPER |
		  VPMU_CTR_FREEZE_ON_OVF, 2 },
		{ VPMU_EV_TAG(2), 4, VPMU_CTR_USER | VPMU_CTR_INT, 3 },
		{ VPMU_EV_STORES, 64, VPMU_CTR_USER | VPMU_CTR_SUPER, 3 },
	};
	unsigned int i;

	if (!e || vpmu_engine_attach(e, uc))
		die("no engine", NULL);
	if (x & X_CTRS)
		for (i = 0; i < sizeof(cfg) / sizeof(cfg[0]); i++)
			vpmu_engine_ctr_config(e, i, &cfg[i]);
	if (x & X_TRIG) {
		vpmu_engine_fgroup_trigger(e, 1, VPMU_TRIG_MARK);
		vpmu_engine_fgroup_trigger(e, 2, VPMU_EV_STORES);
		vpmu_engine_fgroup_trigger(e, 3, VPMU_EV_TAG(1));
	}
	if (x & X_UHIST)
		vpmu_engine_uhist_set(e, 3);
	return e;
}

/* Run @e (started) to its end in runs of @budget; the cycles. */
static u64 run_out(struct vpmu_engine *e, u64 budget)
{
	struct vpmu_stop s;
	u64 n = 0;

	do {
		vpmu_engine_run(e, budget, &s);
		n += s.cycles;
		if (s.reason == VPMU_STOP_OVERFLOW)
			vpmu_engine_ovf_clear(e, s.ovf);
	} while (s.reason == VPMU_STOP_BUDGET ||
		 s.reason == VPMU_STOP_OVERFLOW);
	return n;
}

static bool same(const char *what, const u64 *got, const u64 *want,
		 unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (got[i] != want[i]) {
			tap_diag("%s: C%u = %llu, reference %llu", what, i + 1,
				 (unsigned long long)got[i],
				 (unsigned long long)want[i]);
			return false;
		}
	}
	return true;
}

/* @p run whole in runs of @budget with @h programmed and extras @x. */
static bool check_run(const struct prog *p, const struct trace *t,
		      const struct vpmu_hu_prog *h, const char *hname,
		      u64 budget, unsigned int x)
{
	struct vpmu_engine *e = eng(p->uc, x);
	u8 *mem = malloc(p->msz);
	u64 want[VPMU_HU_MAX] = { 0 }, got[VPMU_HU_MAX];
	char what[160];
	bool ok;

	memcpy(mem, p->image, p->msz);
	ok = !vpmu_engine_hu_set(e, h);
	vpmu_engine_start(e, mem, p->msz, p->entry, p->mode);
	ok = ok && run_out(e, budget) == t->ncyc;
	vpmu_engine_hu_read(e, got, h->n);
	ref_eval(t, h, 0, want);
	snprintf(what, sizeof(what), "%s, %s, budget %llu, extras %u",
		 p->name, hname, (unsigned long long)budget, x);
	ok = ok && same(what, got, want, h->n);
	vpmu_engine_destroy(e);
	free(mem);
	return ok;
}

/* Every histogram program on @p, whole and cut at many budgets. */
static void test_prog(const struct prog *p)
{
	struct trace t = { 0 };
	bool ok1 = true, ok2 = true, ok3 = true;
	unsigned int i;
	u64 b;

	prun_whole(p, &t);
	for (i = 0; i < NHP; i++)
		ok1 &= check_run(p, &t, &hps[i], hp_names[i], WHOLE, 0);
	tap_ok(ok1, "%s: %u programs, whole run of %llu cycles", p->name, NHP,
	       (unsigned long long)t.ncyc);
	for (i = 0; i < NHP; i++) {
		for (b = 1; b <= 24; b++)
			ok2 &= check_run(p, &t, &hps[i], hp_names[i], b, 0);
		for (b = 25; b < t.ncyc + 2; b += b / 2)
			ok2 &= check_run(p, &t, &hps[i], hp_names[i], b, 0);
	}
	tap_ok(ok2, "%s: the same cut at budgets 1..%llu", p->name,
	       (unsigned long long)t.ncyc + 1);
	for (i = 0; i < NHP; i++) {
		ok3 &= check_run(p, &t, &hps[i], hp_names[i], WHOLE,
				 X_CTRS | X_TRIG | X_UHIST);
		ok3 &= check_run(p, &t, &hps[i], hp_names[i], 1 + i * 3,
				 X_CTRS | X_TRIG | X_UHIST);
		ok3 &= check_run(p, &t, &hps[i], hp_names[i], 100 + i, X_CTRS);
		ok3 &= check_run(p, &t, &hps[i], hp_names[i], 50 + i, X_TRIG);
	}
	tap_ok(ok3, "%s: the same with counters, triggers, uhist active",
	       p->name);
	trace_free(&t);
}

/* ---- exact cases by hand -------------------------------------------------- */

/*
 * MOV; three SWs; HALT with a 1-entry queue draining every 3 cycles.
 * Cycle 0 MOV; 1 SW (enters, drains at 4); 2-3 SW stalls, 4 it enters
 * (drains at 7); 5-6 SW stalls, 7 it enters (drains at 10); 8 HALT.
 * Occupancy 0 in cycle 0, 1 in cycles 1-8.  WQ_STALL cycles 2, 3, 5, 6.
 * Microwords start in cycles 0, 1, 2, 5, 8; upc 2 occupies cycles 2-4.
 */
static bool test_by_hand(void)
{
	struct tb_image *t = tb_new();
	struct vpmu_ucode *uc;
	static const struct {
		u8 mode, n;
		struct vpmu_hu_entry ent[3];
		u64 want[3];
	} cases[] = {
		{ VPMU_HU_SEQ, 2, { { VPMU_HU_EVENT, VPMU_EV_CYCLES, 0, 0, 2 },
				    { VPMU_HU_EVENT, VPMU_EV_WQ_STALL, 0, 0, 3 } },
		  { 4, 2 } },
		{ VPMU_HU_PAR, 3, { { VPMU_HU_EVENT, VPMU_EV_UOPS, 0, 0, 1 },
				    { VPMU_HU_WQ, 0, 1, 1, 4 },
				    { VPMU_HU_EVENT, VPMU_EV_STORES, 0, 0, 4 } },
		  { 2, 8, 3 } },
		{ VPMU_HU_SEQ, 2, { { VPMU_HU_EVENT, VPMU_EV_CYCLES, 0, 0, 1 },
				    { VPMU_HU_EVENT, VPMU_EV_CYCLES, 0, 0, 1 } },
		  { 5, 4 } },
		{ VPMU_HU_SEQ, 2, { { VPMU_HU_EVENT, VPMU_EV_UOPS, 0, 0, 1 },
				    { VPMU_HU_EVENT, VPMU_EV_UOPS, 0, 0, 1 } },
		  { 3, 2 } },
		{ VPMU_HU_SEQ, 3, { { VPMU_HU_EVENT, VPMU_EV_CYCLES, 0, 0, 1 },
				    { VPMU_HU_EVENT, VPMU_EV_WQ_STALL, 0, 0, 1 },
				    { VPMU_HU_UPC, 0, 2, 2, 1 } },
		  { 3, 0, 1 } },
		{ VPMU_HU_PAR, 3, { { VPMU_HU_EVENT, VPMU_EV_UOPS, 0, 0, 7 },
				    { VPMU_HU_EVENT, VPMU_EV_UOPS, 0, 0, 7 },
				    { VPMU_HU_WQ, 0, 0, 0, 7 } },
		  { 5, 5, 1 } },
		{ VPMU_HU_SEQ, 2, { { VPMU_HU_WQ, 0, 1, 32, 4 },
				    { VPMU_HU_UPC, 0, 1, 3, 3 } },
		  { 5, 3 } },
	};
	unsigned int i, j;
	bool ok = true;
	u8 mem[64];

	t->cs[0] = UW(MOV, T(0), 0, IM, 4) | Q(NEXT, 0, 0);
	t->cs[1] = UW(SW, 0, T(0), T(0), 0) | Q(NEXT, 0, 0);
	t->cs[2] = UW(SW, 0, T(0), T(0), 4) | Q(NEXT, 0, 0);
	t->cs[3] = UW(SW, 0, T(0), T(0), 8) | Q(NEXT, 0, 0);
	t->cs[4] = NOPW | Q(HALT, 0, 0);
	t->ncs = 5;
	t->wq_depth = 1;
	t->wq_drain = 3;
	uc = load(t);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vpmu_engine *e = eng(uc, 0);
		struct vpmu_hu_prog h = { cases[i].mode, cases[i].n };
		u64 got[3];
		char what[32];

		for (j = 0; j < h.n; j++)
			h.ent[j] = cases[i].ent[j];
		memset(mem, 0, sizeof(mem));
		ok &= !vpmu_engine_hu_set(e, &h);
		vpmu_engine_start(e, mem, sizeof(mem), 0, 0);
		ok &= run_out(e, i + 1) == 9;
		vpmu_engine_hu_read(e, got, h.n);
		snprintf(what, sizeof(what), "case %u", i);
		ok &= same(what, got, cases[i].want, h.n);
		vpmu_engine_destroy(e);
	}
	vpmu_ucode_free(uc);
	return ok;
}

/* Sums that must hold whatever the program: partitions of the cycles. */
static bool test_sums(const struct prog *p)
{
	struct vpmu_hu_prog h = { VPMU_HU_PAR, 16 };
	struct vpmu_engine *e = eng(p->uc, 0);
	u8 *mem = malloc(p->msz);
	u64 c[16], cyc, wq = 0;
	unsigned int i;
	bool ok;

	/* equal periods: every entry counts all the time */
	h.ent[0] = EVE(VPMU_EV_UOPS, 1000);
	h.ent[1] = EVE(VPMU_EV_UOPS, 1000);
	h.ent[2] = EVE(VPMU_EV_CYCLES, 1000);
	h.ent[3] = RNG(VPMU_HU_UPC, 0, 0xffffffffu, 1000);
	h.ent[4] = RNG(VPMU_HU_WQ, 0, 0xffffffffu, 1000);
	for (i = 5; i < 16; i++)
		h.ent[i] = RNG(VPMU_HU_WQ, i - 5, i == 15 ? 32 : i - 5, 1000);
	memcpy(mem, p->image, p->msz);
	ok = !vpmu_engine_hu_set(e, &h);
	vpmu_engine_start(e, mem, p->msz, p->entry, p->mode);
	cyc = run_out(e, 333);
	vpmu_engine_hu_read(e, c, 16);
	for (i = 5; i < 16; i++)
		wq += c[i];
	ok = ok && c[0] == vpmu_engine_event_total(e, VPMU_EV_UOPS) &&
	     c[1] == c[0] && c[2] == cyc && c[3] == cyc && c[4] == cyc &&
	     wq == cyc;
	if (!ok)
		tap_diag("%s: %llu %llu %llu %llu %llu, WQ sum %llu, cycles %llu",
			 p->name, (unsigned long long)c[0],
			 (unsigned long long)c[1], (unsigned long long)c[2],
			 (unsigned long long)c[3], (unsigned long long)c[4],
			 (unsigned long long)wq, (unsigned long long)cyc);
	vpmu_engine_destroy(e);
	free(mem);
	return ok;
}

/* ---- the API's edges ------------------------------------------------------- */

static bool check_ref(struct vpmu_engine *e, const struct trace *t,
		      const struct vpmu_hu_prog *h, u64 pos0, const char *what)
{
	u64 want[VPMU_HU_MAX] = { 0 }, got[VPMU_HU_MAX];

	ref_eval(t, h, pos0, want);
	vpmu_engine_hu_read(e, got, VPMU_HU_MAX);
	return same(what, got, want, VPMU_HU_MAX);
}

/* Run @e on @pr's program for @budget, the reference alongside. */
static bool piece(struct vpmu_engine *e, struct prun *pr, struct trace *t,
		  u64 budget)
{
	struct vpmu_stop s;

	vpmu_engine_run(e, budget, &s);
	if (s.reason == VPMU_STOP_OVERFLOW)
		vpmu_engine_ovf_clear(e, s.ovf);
	return prun_piece(pr, t, s.cycles);
}

static bool all_zero(struct vpmu_engine *e)
{
	u64 c[VPMU_HU_MAX];
	unsigned int i;

	memset(c, 0xff, sizeof(c));
	vpmu_engine_hu_read(e, c, VPMU_HU_MAX);
	for (i = 0; i < VPMU_HU_MAX; i++)
		if (c[i])
			return false;
	return true;
}

/* Reset mid-run: zeroes and restarts the period; NULL: off, reads 0. */
static bool test_reset_null(const struct prog *p, const struct vpmu_hu_prog *h)
{
	struct vpmu_engine *e = eng(p->uc, 0);
	u8 *mem = malloc(p->msz);
	struct trace t1 = { 0 }, t2 = { 0 }, t3 = { 0 }, t4 = { 0 };
	struct prun pr;
	bool ok = true;

	prun_init(&pr, p);
	memcpy(mem, p->image, p->msz);
	vpmu_engine_start(e, mem, p->msz, p->entry, p->mode);
	ok &= !vpmu_engine_hu_set(e, h);
	ok &= piece(e, &pr, &t1, 301);
	ok &= check_ref(e, &t1, h, 0, "before reset");
	vpmu_engine_hu_reset(e);
	ok &= all_zero(e);
	ok &= piece(e, &pr, &t2, 257);
	ok &= piece(e, &pr, &t2, 3);
	ok &= check_ref(e, &t2, h, 0, "after reset");
	ok &= !vpmu_engine_hu_set(e, NULL) && all_zero(e);
	ok &= piece(e, &pr, &t3, 400);
	ok &= all_zero(e);
	ok &= !vpmu_engine_hu_set(e, h);
	ok &= piece(e, &pr, &t4, WHOLE);
	ok &= check_ref(e, &t4, h, 0, "set again");
	ok &= pr.done;
	prun_free(&pr);
	trace_free(&t1);
	trace_free(&t2);
	trace_free(&t3);
	trace_free(&t4);
	vpmu_engine_destroy(e);
	free(mem);
	return ok;
}

/* Every bad program: -EINVAL, and the unit goes on as before. */
static bool test_einval(const struct prog *p, const struct vpmu_hu_prog *h)
{
	struct vpmu_engine *e = eng(p->uc, 0);
	u8 *mem = malloc(p->msz);
	struct vpmu_hu_prog bad;
	struct trace t = { 0 };
	struct prun pr;
	u64 before[VPMU_HU_MAX], after[VPMU_HU_MAX];
	unsigned int k;
	bool ok = true;

	prun_init(&pr, p);
	memcpy(mem, p->image, p->msz);
	vpmu_engine_start(e, mem, p->msz, p->entry, p->mode);
	ok &= !vpmu_engine_hu_set(e, h);
	ok &= piece(e, &pr, &t, 211);
	vpmu_engine_hu_read(e, before, VPMU_HU_MAX);
	for (k = 0; k < 15; k++) {
		bad = *h;
		switch (k) {
		case 0: bad.mode = 2; break;
		case 1: bad.n = 0; break;
		case 2: bad.n = VPMU_HU_MAX + 1; break;
		case 3: bad.ent[0].kind = VPMU_HU_NKINDS; break;
		case 4: bad.ent[0] = EVE(VPMU_EV_NR_BASIC, 1); break;
		case 5: bad.ent[0] = EVE(VPMU_EV_TAG_BASE, 1); break;
		case 6: bad.ent[0] = EVE(VPMU_EV_HU(1), 1); break;
		case 7: bad.ent[0] = EVE(VPMU_EV_TAG(VPMU_TAG_MAX) + 1, 1);
			break;
		case 8: bad.ent[0] = RNG(VPMU_HU_WQ, 2, 1, 1); break;
		case 9: bad.ent[0] = RNG(VPMU_HU_UPC, 5, 4, 1); break;
		case 10: bad.ent[bad.n - 1].period = 0; break;
		case 11:
			bad.mode = VPMU_HU_SEQ;
			bad.n = 2;
			bad.ent[0] = EVE(VPMU_EV_UOPS, 0x80000000u);
			bad.ent[1] = EVE(VPMU_EV_UOPS, 0x80000000u);
			break;
		case 13: bad.once = 2; break;
		case 14: bad.ent[0] = RNG(VPMU_HU_MISS, 0x41, 0x40, 1); break;
		default:
			bad.mode = VPMU_HU_SEQ;
			bad.n = 2;
			bad.ent[0] = RNG(VPMU_HU_WQ, 0, 1, 0xffffffffu);
			bad.ent[1] = EVE(VPMU_EV_UOPS, 1);
			break;
		}
		if (vpmu_engine_hu_set(e, &bad) != -EINVAL) {
			tap_diag("bad program %u accepted", k);
			ok = false;
		}
	}
	vpmu_engine_hu_read(e, after, VPMU_HU_MAX);
	ok &= !memcmp(before, after, sizeof(before));
	ok &= piece(e, &pr, &t, WHOLE);
	ok &= check_ref(e, &t, h, 0, "after -EINVAL");
	/* the limits themselves are fine */
	bad.mode = VPMU_HU_PAR;
	bad.n = 2;
	bad.ent[0] = EVE(VPMU_EV_UOPS, 0xffffffffu);
	bad.ent[1] = EVE(VPMU_EV_UOPS, 0xffffffffu);
	ok &= !vpmu_engine_hu_set(e, &bad);
	bad.mode = VPMU_HU_SEQ;
	bad.ent[0].period = 1;
	bad.ent[1].period = 0xfffffffeu;
	ok &= !vpmu_engine_hu_set(e, &bad);
	prun_free(&pr);
	trace_free(&t);
	vpmu_engine_destroy(e);
	free(mem);
	return ok;
}

/* Attach keeps the program, zeroes the buckets, restarts the period. */
static bool test_attach(const struct prog *p, const struct vpmu_hu_prog *h)
{
	struct vpmu_engine *e = eng(p->uc, 0);
	u8 *mem = malloc(p->msz);
	struct trace t1 = { 0 }, t2 = { 0 };
	struct prun pr;
	bool ok = true;

	prun_init(&pr, p);
	memcpy(mem, p->image, p->msz);
	vpmu_engine_start(e, mem, p->msz, p->entry, p->mode);
	ok &= !vpmu_engine_hu_set(e, h);
	ok &= piece(e, &pr, &t1, 123);
	ok &= check_ref(e, &t1, h, 0, "before attach") && !all_zero(e);
	ok &= !vpmu_engine_attach(e, p->uc) && all_zero(e);
	prun_free(&pr);
	prun_init(&pr, p);
	memcpy(mem, p->image, p->msz);
	vpmu_engine_start(e, mem, p->msz, p->entry, p->mode);
	ok &= piece(e, &pr, &t2, WHOLE);
	ok &= check_ref(e, &t2, h, 0, "after attach");
	prun_free(&pr);
	trace_free(&t1);
	trace_free(&t2);
	vpmu_engine_destroy(e);
	free(mem);
	return ok;
}

/*
 * Programs @p and @q (the same image) in pieces through contexts on two
 * engines, alternately: each engine's unit counts the cycles it ran, in
 * its own order, whichever program.
 */
static bool test_ctx(const struct prog *p, const struct prog *q,
		     const struct vpmu_hu_prog *h, u64 bp, u64 bq,
		     unsigned int x)
{
	struct vpmu_engine *en[2] = { eng(p->uc, x), eng(p->uc, x) };
	struct vpmu_ctx *cp = vpmu_ctx_create(), *cq = vpmu_ctx_create();
	u8 *mp = malloc(p->msz), *mq = malloc(q->msz);
	struct trace t[2] = { { 0 } };
	struct prun rp, rq;
	unsigned int k;
	bool ok = true;

	prun_init(&rp, p);
	prun_init(&rq, q);
	memcpy(mp, p->image, p->msz);
	memcpy(mq, q->image, q->msz);
	vpmu_engine_start(en[0], mp, p->msz, p->entry, p->mode);
	vpmu_engine_ctx_save(en[0], cp);
	vpmu_engine_start(en[1], mq, q->msz, q->entry, q->mode);
	vpmu_engine_ctx_save(en[1], cq);
	ok &= !vpmu_engine_hu_set(en[0], h) && !vpmu_engine_hu_set(en[1], h);
	for (k = 0; ok && (!rp.done || !rq.done); k++) {
		struct vpmu_engine *e = en[k & 1], *f = en[!(k & 1)];

		if (!rp.done) {
			ok &= !vpmu_engine_ctx_restore(e, cp);
			ok &= piece(e, &rp, &t[k & 1], bp);
			vpmu_engine_ctx_save(e, cp);
		}
		if (!rq.done) {
			ok &= !vpmu_engine_ctx_restore(e, cq);
			ok &= piece(e, &rq, &t[k & 1], bq);
			vpmu_engine_ctx_save(e, cq);
			ok &= !vpmu_engine_ctx_restore(f, cq);
			ok &= piece(f, &rq, &t[!(k & 1)], bq + 1);
			vpmu_engine_ctx_save(f, cq);
		}
	}
	ok &= check_ref(en[0], &t[0], h, 0, "engine 0");
	ok &= check_ref(en[1], &t[1], h, 0, "engine 1");
	prun_free(&rp);
	prun_free(&rq);
	trace_free(&t[0]);
	trace_free(&t[1]);
	vpmu_ctx_destroy(cp);
	vpmu_ctx_destroy(cq);
	vpmu_engine_destroy(en[0]);
	vpmu_engine_destroy(en[1]);
	free(mp);
	free(mq);
	return ok;
}

/* Everything the rest of the engine reports after a run of @p. */
struct outcome {
	u64 stops[4096][4];	/* reason, upc, ovf, cycles */
	unsigned int nstops;
	u64 ctr[VPMU_NR_COUNTERS_MAX];
	u32 ovf, regs[47], nb;
	u64 uhist[VPMU_CS_MAX];
	bool frozen[VPMU_NR_FGROUPS_MAX];
};

static void outcome(const struct prog *p, const struct vpmu_hu_prog *h,
		    u64 budget, struct outcome *o)
{
	struct vpmu_engine *e = eng(p->uc, X_CTRS | X_TRIG | X_UHIST);
	u8 *mem = malloc(p->msz);
	struct vpmu_stop s;
	const u64 *uh;
	unsigned int i;

	memset(o, 0, sizeof(*o));
	memcpy(mem, p->image, p->msz);
	if (h)
		vpmu_engine_hu_set(e, h);
	vpmu_engine_start(e, mem, p->msz, p->entry, p->mode);
	do {
		vpmu_engine_run(e, budget, &s);
		if (o->nstops < 4096) {
			o->stops[o->nstops][0] = s.reason;
			o->stops[o->nstops][1] = s.upc;
			o->stops[o->nstops][2] = s.ovf;
			o->stops[o->nstops][3] = s.cycles;
			o->nstops++;
		}
		if (s.reason == VPMU_STOP_OVERFLOW)
			vpmu_engine_ovf_clear(e, s.ovf & 1);
	} while (s.reason == VPMU_STOP_BUDGET ||
		 s.reason == VPMU_STOP_OVERFLOW);
	vpmu_engine_ctr_snapshot(e, o->ctr, VPMU_NR_COUNTERS_MAX);
	o->ovf = vpmu_engine_ovf_status(e);
	for (i = 0; i < 47; i++)
		o->regs[i] = vpmu_engine_reg(e, i);
	for (i = 0; i < VPMU_NR_FGROUPS_MAX; i++)
		o->frozen[i] = vpmu_engine_frozen(e, i);
	uh = vpmu_engine_uhist(e, &o->nb);
	memcpy(o->uhist, uh, o->nb * sizeof(u64));
	vpmu_engine_destroy(e);
	free(mem);
}

/* The unit changes nothing else: counters, stops, triggers, uhist. */
static bool test_no_effect(const struct prog *p)
{
	static struct outcome a, b;
	bool ok = true;
	unsigned int i;

	outcome(p, NULL, 41, &a);
	for (i = 0; i < NHP; i++) {
		outcome(p, &hps[i], 41, &b);
		ok &= !memcmp(&a, &b, sizeof(a));
	}
	return ok;
}

/* hu_read: entries past n read 0; n beyond VPMU_HU_MAX is clamped. */
static bool test_read(void)
{
	const struct prog *p = &progs[P_WQ];
	struct vpmu_engine *e = eng(p->uc, 0);
	u8 *mem = malloc(p->msz);
	struct vpmu_hu_prog h = { VPMU_HU_PAR, 3 };
	u64 c[VPMU_HU_MAX + 4];
	unsigned int i;
	bool ok;

	h.ent[0] = EVE(VPMU_EV_UOPS, 10);
	h.ent[1] = EVE(VPMU_EV_CYCLES, 10);
	h.ent[2] = RNG(VPMU_HU_WQ, 0, 32, 10);
	memcpy(mem, p->image, p->msz);
	ok = !vpmu_engine_hu_set(e, &h);
	vpmu_engine_start(e, mem, p->msz, p->entry, p->mode);
	run_out(e, WHOLE);
	memset(c, 0xee, sizeof(c));
	vpmu_engine_hu_read(e, c, VPMU_HU_MAX + 4);
	ok = ok && c[0] && c[1] && c[2];
	for (i = 3; i < VPMU_HU_MAX; i++)
		ok = ok && !c[i];
	for (i = VPMU_HU_MAX; i < VPMU_HU_MAX + 4; i++)
		ok = ok && c[i] == 0xeeeeeeeeeeeeeeeeull;
	vpmu_engine_destroy(e);
	free(mem);
	return ok;
}

int main(void)
{
	unsigned int i;
	bool ok;

	setup();
	hps_init();
	tap_plan(3 * NPROGS + 12);
	for (i = 0; i < NPROGS; i++)
		test_prog(&progs[i]);
	tap_ok(test_by_hand(), "exact cases by hand");
	ok = true;
	for (i = 0; i < NPROGS; i++)
		ok &= test_sums(&progs[i]);
	tap_ok(ok, "PAR equal periods: C = UOPS, cycles; WQ ranges partition");
	ok = true;
	for (i = 0; i < NHP; i++)
		ok &= test_reset_null(&progs[P_WQ], &hps[i]) &&
		      test_reset_null(&progs[1], &hps[i]);
	tap_ok(ok, "hu_reset mid-run; NULL turns the unit off");
	ok = true;
	for (i = 0; i < NHP; i++)
		ok &= test_einval(&progs[P_MISS], &hps[i]);
	tap_ok(ok, "every bad program: -EINVAL, nothing changes");
	ok = true;
	for (i = 0; i < NHP; i++)
		ok &= test_attach(&progs[P_WQ], &hps[i]);
	tap_ok(ok, "attach keeps the program, zeroes buckets, restarts period");
	ok = true;
	for (i = 0; i < NHP; i++)
		ok &= test_ctx(&progs[4], &progs[1], &hps[i], 7 + i, 5, 0) &&
		      test_ctx(&progs[4], &progs[1], &hps[i], 100 + i, 33,
			       X_CTRS | X_TRIG);
	tap_ok(ok, "stores and memcpy through contexts on two engines");
	ok = true;
	for (i = 0; i < NHP; i++)
		ok &= test_ctx(&progs[P_WQ], &progs[P_WQ], &hps[i], 5 + i, 3,
			       0) &&
		      test_ctx(&progs[P_WQ], &progs[P_WQ], &hps[i], 64, 17,
			       X_CTRS | X_UHIST);
	tap_ok(ok, "two wq-loops through contexts on two engines");
	ok = true;
	for (i = 0; i < NPROGS; i++)
		ok &= test_no_effect(&progs[i]);
	tap_ok(ok, "counters, stops, triggers and uhist unchanged by the unit");
	tap_ok(test_read(), "hu_read: 0 past n, n clamped to VPMU_HU_MAX");
	ok = true;
	for (i = 0; i < NPROGS; i++) {
		struct vpmu_engine *e = eng(progs[i].uc, 0);

		ok &= all_zero(e);
		vpmu_engine_destroy(e);
	}
	tap_ok(ok, "a new engine's unit is off and reads 0");
	ok = true;
	for (i = 0; i < NPROGS; i++)
		ok &= test_reset_null(&progs[i], &hps[1]);
	tap_ok(ok, "reset and NULL on every program");
	ok = true;
	for (i = 0; i < NPROGS; i++)
		ok &= test_attach(&progs[i], &hps[2]);
	tap_ok(ok, "attach on every program");
	for (i = 0; i < NPROGS; i++)
		free(progs[i].image);
	vpmu_ucode_free(progs[P_WQ].uc);
	vpmu_ucode_free(progs[P_MISS].uc);
	vpmu_ucode_free(duc);
	vpmu_buf_free(&img);
	return tap_done();
}
