/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tc_pair.h - two engines run alike, one interpreting and one translating,
 * and compared on everything a caller can see: what test_tc.c and the
 * fuzz target fuzz_tc.c share (header-only, like the other test headers).
 * The rules are test_tc.c's head comment's.
 */
#ifndef _VPMU_TC_PAIR_H
#define _VPMU_TC_PAIR_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_elf.h"
#include "vpmu_engine.h"
#include "vpmu_engine_priv.h"	/* the data path's state: same_state() */

#define NCTR		VPMU_NR_COUNTERS_MAX

/* ---- a fixed generator, the same on every host ------------------------- */

static u64 rng;

static u32 rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (u32)((rng * 2685821657736338717ull) >> 32);
}

static u32 pick(u32 n)
{
	return n ? rnd() % n : 0;
}

/* ---- the programs ---------------------------------------------------------- */

struct prog {
	char name[96];
	const struct vpmu_ucode *uc;
	u8 *image;		/* mem_size bytes */
	u32 mem_size, entry;
	unsigned int mode;
	bool rv32;		/* ecall traps are Linux system calls */
	u64 cycles;		/* how far to run it */
	u32 swap[2];		/* words the caller exchanges between pieces */
};

/* ---- configurations ---------------------------------------------------------- */

struct setup {
	const char *name;
	void (*apply)(struct vpmu_engine *e, u32 seed);
};

static void cfg(struct vpmu_engine *e, unsigned int i, u16 ev, u8 width,
		u8 flags, u8 fgroup)
{
	struct vpmu_ctr_cfg c = { ev, width, flags, fgroup };

	if (vpmu_engine_ctr_config(e, i, &c))
		abort();
}

#define UK	(VPMU_CTR_USER | VPMU_CTR_SUPER)

static void s_none(struct vpmu_engine *e, u32 seed)
{
	(void)e;
	(void)seed;
}

static void s_count(struct vpmu_engine *e, u32 seed)
{
	unsigned int i;

	for (i = 0; i < VPMU_EV_NR_BASIC && i < NCTR; i++)
		cfg(e, i, i, 64, UK, 0);
	for (; i < NCTR; i++)
		cfg(e, i, VPMU_EV_TAG(1 + (i + seed) % 9), 64, UK, 0);
}

/* The events that interrupt, at small periods. */
static const u16 sample_ev[] = {
	VPMU_EV_UOPS, VPMU_EV_CYCLES, VPMU_EV_INSNS, VPMU_EV_DC_MISS,
	VPMU_EV_TAG(1), VPMU_EV_UBR_TAKEN, VPMU_EV_WQ_STALL, VPMU_EV_TAG(3),
	VPMU_EV_DISPATCH, VPMU_EV_DC_HIT, VPMU_EV_STORES, VPMU_EV_TAG(2),
};

static void s_sample(struct vpmu_engine *e, u32 seed)
{
	unsigned int i;

	for (i = 0; i < 8; i++)
		cfg(e, i, sample_ev[(i + seed) % 12], 2 + (i + seed) % 6,
		    UK | VPMU_CTR_INT, 0);
	cfg(e, 8, VPMU_EV_CYCLES, 64, UK, 0);
}

static void s_freeze_ovf(struct vpmu_engine *e, u32 seed)
{
	cfg(e, 0, sample_ev[seed % 12], 4 + seed % 5,
	    UK | VPMU_CTR_FREEZE_ON_OVF, 1);
	cfg(e, 1, VPMU_EV_UOPS, 64, UK, 1);
	cfg(e, 2, VPMU_EV_CYCLES, 9, UK | VPMU_CTR_INT, 1);
	cfg(e, 3, VPMU_EV_INSNS, 64, UK, 0);
}

static void s_triggers(struct vpmu_engine *e, u32 seed)
{
	static const u16 trig[] = {
		VPMU_TRIG_MARK, VPMU_EV_TAG(1), VPMU_EV_DC_MISS,
		VPMU_EV_UBR_TAKEN, VPMU_EV_DISPATCH, VPMU_EV_TAG(5),
		VPMU_EV_STORES, VPMU_EV_WQ_STALL,
	};
	unsigned int g;

	for (g = 1; g < VPMU_NR_FGROUPS_MAX; g++) {
		vpmu_engine_fgroup_trigger(e, g, trig[(g + seed) % 8]);
		cfg(e, 2 * g, VPMU_EV_UOPS, 64, UK, g);
		cfg(e, 2 * g + 1, sample_ev[(g + seed) % 12], 5,
		    UK | VPMU_CTR_INT, g);
		if (seed & 1)
			vpmu_engine_freeze(e, g, true);
	}
	cfg(e, 0, VPMU_EV_CYCLES, 64, UK, 0);
}

/*
 * Toggles on every execution of a mark and of a static event, with wide
 * counters: runs long enough for the translations to toggle as the
 * interpreter does (BLOCK_TGL), in and out of slots in use.  One counter
 * of instructions interrupts every 4096, so that blocks are netted and
 * drained after many entries (tc_block_net()).
 */
static void s_toggles(struct vpmu_engine *e, u32 seed)
{
	static const u16 ev[] = {
		VPMU_EV_TAG(1), VPMU_EV_TAG(2), VPMU_EV_DISPATCH,
		VPMU_EV_STORES,
	};

	vpmu_engine_fgroup_trigger(e, 1, VPMU_TRIG_MARK);
	vpmu_engine_fgroup_trigger(e, 2, ev[seed % 4]);
	vpmu_engine_freeze(e, 1, seed & 1);
	vpmu_engine_freeze(e, 2, seed & 2);
	cfg(e, 0, VPMU_EV_UOPS, 64, UK, 1);
	cfg(e, 1, VPMU_EV_CYCLES, 64, UK, 2);
	cfg(e, 2, VPMU_EV_INSNS, 64, UK, 1);
	cfg(e, 3, VPMU_EV_TRIGGER, 64, UK, 0);
	cfg(e, 4, VPMU_EV_INSNS, 12, UK | VPMU_CTR_INT, 0);
}

static void s_startstop(struct vpmu_engine *e, u32 seed)
{
	cfg(e, 0, VPMU_EV_UOPS, 4, UK | VPMU_CTR_INT, 0);
	vpmu_engine_fgroup_start_stop(e, 1, VPMU_TRIG_OVF(0),
				      seed & 1 ? VPMU_EV_TAG(2) : VPMU_EV_TAG(4));
	vpmu_engine_fgroup_start_stop(e, 2, VPMU_EV_TAG(1), VPMU_EV_DC_MISS);
	vpmu_engine_fgroup_trigger(e, 3, VPMU_TRIG_OVF(0));
	vpmu_engine_freeze(e, 1, true);
	vpmu_engine_freeze(e, 2, true);
	cfg(e, 1, VPMU_EV_CYCLES, 64, UK, 1);
	cfg(e, 2, VPMU_EV_INSNS, 64, UK, 2);
	cfg(e, 3, VPMU_EV_UOPS, 64, UK, 3);
	cfg(e, 4, VPMU_EV_TAG(1), 3, UK | VPMU_CTR_INT, 2);
}

static void s_uhist(struct vpmu_engine *e, u32 seed)
{
	static const u32 k[] = { 1, 2, 3, 5, 7, 13, 32, 97, 256, 1024 };

	vpmu_engine_uhist_set(e, k[seed % 10]);
	if (seed & 1)
		cfg(e, 0, VPMU_EV_UOPS, 6, UK | VPMU_CTR_INT, 0);
}

static void s_hu(struct vpmu_engine *e, u32 seed)
{
	struct vpmu_hu_prog p = { 0 };

	p.mode = seed & 1 ? VPMU_HU_PAR : VPMU_HU_SEQ;
	p.once = (seed & 6) == 6;
	p.n = 6;
	p.ent[0] = (struct vpmu_hu_entry){ VPMU_HU_EVENT, VPMU_EV_UOPS, 0,
					   0, 7 + seed % 50 };
	p.ent[1] = (struct vpmu_hu_entry){ VPMU_HU_EVENT, VPMU_EV_CYCLES, 0,
					   0, 13 };
	p.ent[2] = (struct vpmu_hu_entry){ VPMU_HU_UPC, 0, 10, 40, 29 };
	p.ent[3] = (struct vpmu_hu_entry){ VPMU_HU_WQ, 0, 1, 3, 101 };
	p.ent[4] = (struct vpmu_hu_entry){ seed & 2 ? VPMU_HU_LOAD :
					   VPMU_HU_ACCESS, 0, 0, 0x3000, 17 };
	p.ent[5] = (struct vpmu_hu_entry){ VPMU_HU_EVENT, VPMU_EV_TAG(1), 0,
					   0, 5 };
	if (vpmu_engine_hu_set(e, &p))
		abort();
	cfg(e, 0, VPMU_EV_INSNS, 64, UK, 0);
}

static void s_gate(struct vpmu_engine *e, u32 seed)
{
	vpmu_engine_fgroup_trigger(e, 1, seed & 1 ? VPMU_TRIG_MARK :
						     VPMU_EV_TAG(1));
	vpmu_engine_fgroup_gate(e, 1, VPMU_GATE_ALL);
	vpmu_engine_uhist_set(e, 1 + seed % 5);
	s_hu(e, seed);
	cfg(e, 1, VPMU_EV_UOPS, 64, UK, 1);
}

static void s_modes(struct vpmu_engine *e, u32 seed)
{
	cfg(e, 0, VPMU_EV_CYCLES, 64, VPMU_CTR_USER, 0);
	cfg(e, 1, VPMU_EV_CYCLES, 64, VPMU_CTR_SUPER, 0);
	cfg(e, 2, VPMU_EV_UOPS, 5, VPMU_CTR_USER | VPMU_CTR_INT, 0);
	cfg(e, 3, VPMU_EV_INSNS, 3 + seed % 4, VPMU_CTR_SUPER | VPMU_CTR_INT,
	    0);
}

static const struct setup setups[] = {
	{ "nothing counted", s_none },
	{ "counting every event", s_count },
	{ "sampling at small periods", s_sample },
	{ "freeze on overflow", s_freeze_ovf },
	{ "trigger toggles", s_triggers },
	{ "trigger toggles, wide counters", s_toggles },
	{ "start and stop triggers", s_startstop },
	{ "micro-PC histogram", s_uhist },
	{ "histogram unit", s_hu },
	{ "gating", s_gate },
	{ "privilege filters", s_modes },
};

#define NSETUPS	(sizeof(setups) / sizeof(setups[0]))

/*
 * How the perf driver runs a task's program (drivers/perf/vpmu): in
 * chunks of a fixed length that a yield may end early, translating at
 * most two instructions after each, deferred; a sampling event (a 16-bit
 * counter that interrupts, re-armed to wrap @period events on: of
 * cycles, as perf record's default, or of instructions, loads, a tag, as
 * perf record -e), maybe a second one, beside two counting ones (perf
 * stat's); the pool the module's or one too small for the program.
 */
struct pace {
	const char *name;
	u64 chunk;		/* cycles a run is given */
	u32 period;		/* events between samples; 0: counting only */
	bool small_pool;
	u16 event;		/* counter 0's, sampling (VPMU_EV_CYCLES: 0) */
	u32 period2;		/* counter 3 samples too, every period2 */
	u16 event2;		/* event2s (0: it does not) */
	const char *only;	/* the one program it runs (NULL: RV32's) */
	u8 modes;		/* counter 0's (0: UK) */
};

#define PACE_WIDTH	16
#define PACE_TRANSLATE	2	/* VPMU_RUN_CHUNK_TRANSLATE */
#define PACE_PIECES	1000	/* samples at most: a run's length */

/* perf stat's counters: cycles, instructions, microwords */
static void s_pace(struct vpmu_engine *e, u32 seed)
{
	(void)seed;
	cfg(e, 0, VPMU_EV_CYCLES, PACE_WIDTH, UK, 0);
	cfg(e, 1, VPMU_EV_INSNS, 16, UK, 0);
	cfg(e, 2, VPMU_EV_UOPS, 14, UK, 0);
}

static const struct setup pace_setup = { "as the driver runs it", s_pace };

/* Counter @i to wrap @period events from now, as the driver arms it. */
static void pace_arm(struct vpmu_engine *e, unsigned int i, u32 period)
{
	vpmu_engine_ctr_write(e, i, ((1ull << PACE_WIDTH) - period) &
				    ((1ull << PACE_WIDTH) - 1));
}

/* With a period, counter 0 samples (perf record's): it interrupts. */
static void pace_sample(struct vpmu_engine *e, const struct pace *pace)
{
	if (!pace->period)
		return;
	cfg(e, 0, pace->event, PACE_WIDTH,
	    (pace->modes ? pace->modes : UK) | VPMU_CTR_INT, 0);
	pace_arm(e, 0, pace->period);
	if (!pace->period2)
		return;
	cfg(e, 3, pace->event2, PACE_WIDTH, UK | VPMU_CTR_INT, 0);
	pace_arm(e, 3, pace->period2);
}

/* ---- running two engines alike --------------------------------------------- */

struct pair {
	struct vpmu_engine *e[2];	/* [0] interprets, [1] translates */
	u8 *mem[2];
	u32 msz;
	const struct prog *p;
	char why[256];
	u64 pieces;
	bool defer;		/* translations made between pieces */
};

static bool differ(struct pair *pr, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(pr->why, sizeof(pr->why), fmt, ap);
	va_end(ap);
	return false;
}

static bool same_stop(struct pair *pr, const struct vpmu_stop *a,
		      const struct vpmu_stop *b)
{
	if (a->reason != b->reason || a->code != b->code ||
	    a->addr != b->addr || a->upc != b->upc || a->ipc != b->ipc ||
	    a->ovf != b->ovf || a->cycles != b->cycles)
		return differ(pr, "piece %llu: stop %d/%u/%#x upc %u ipc %#x ovf %#x cyc %llu vs %d/%u/%#x upc %u ipc %#x ovf %#x cyc %llu",
			      (unsigned long long)pr->pieces, a->reason,
			      a->code, a->addr, a->upc, a->ipc, a->ovf,
			      (unsigned long long)a->cycles, b->reason,
			      b->code, b->addr, b->upc, b->ipc, b->ovf,
			      (unsigned long long)b->cycles);
	return true;
}

/* What a caller can see after a piece. */
static bool same_state(struct pair *pr)
{
	struct vpmu_engine *a = pr->e[0], *b = pr->e[1];
	unsigned int i;

	for (i = 0; i < 64; i++)
		if (vpmu_engine_reg(a, i) != vpmu_engine_reg(b, i))
			return differ(pr, "piece %llu: operand %u: %#x vs %#x",
				      (unsigned long long)pr->pieces, i,
				      vpmu_engine_reg(a, i),
				      vpmu_engine_reg(b, i));
	if (vpmu_engine_mode(a) != vpmu_engine_mode(b) ||
	    vpmu_engine_upc(a) != vpmu_engine_upc(b))
		return differ(pr, "piece %llu: mode %u upc %u vs mode %u upc %u",
			      (unsigned long long)pr->pieces,
			      vpmu_engine_mode(a), vpmu_engine_upc(a),
			      vpmu_engine_mode(b), vpmu_engine_upc(b));
	if (memcmp(pr->mem[0], pr->mem[1], pr->msz))
		return differ(pr, "piece %llu: memory",
			      (unsigned long long)pr->pieces);
	/*
	 * What a saved context carries besides registers and memory, and
	 * the next piece's stalls and external conditions read: the write
	 * queue and the last load's miss (the translated-code executor keeps
	 * them in locals while it runs).
	 */
	if (a->st.wq_last != b->st.wq_last ||
	    a->st.last_miss != b->st.last_miss)
		return differ(pr, "piece %llu: write queue %llu miss %d vs %llu miss %d",
			      (unsigned long long)pr->pieces,
			      (unsigned long long)a->st.wq_last,
			      a->st.last_miss,
			      (unsigned long long)b->st.wq_last,
			      b->st.last_miss);
	for (i = 0; i < NCTR; i++)
		if (vpmu_engine_ctr_read(a, i) != vpmu_engine_ctr_read(b, i) ||
		    vpmu_engine_ovf_count(a, i) != vpmu_engine_ovf_count(b, i))
			return differ(pr, "piece %llu: counter %u: %llu (%llu wraps) vs %llu (%llu wraps)",
				      (unsigned long long)pr->pieces, i,
				      (unsigned long long)vpmu_engine_ctr_read(a, i),
				      (unsigned long long)vpmu_engine_ovf_count(a, i),
				      (unsigned long long)vpmu_engine_ctr_read(b, i),
				      (unsigned long long)vpmu_engine_ovf_count(b, i));
	if (vpmu_engine_ovf_status(a) != vpmu_engine_ovf_status(b))
		return differ(pr, "piece %llu: overflow status %#x vs %#x",
			      (unsigned long long)pr->pieces,
			      vpmu_engine_ovf_status(a),
			      vpmu_engine_ovf_status(b));
	/* an armed chunk's or a step's credit is what ran, never more */
	if (a->ctr.overcredit || b->ctr.overcredit)
		return differ(pr, "piece %llu: folds found credits larger than what ran: %llu, %llu",
			      (unsigned long long)pr->pieces,
			      (unsigned long long)a->ctr.overcredit,
			      (unsigned long long)b->ctr.overcredit);
	for (i = 0; i < VPMU_NR_FGROUPS_MAX; i++)
		if (vpmu_engine_frozen(a, i) != vpmu_engine_frozen(b, i))
			return differ(pr, "piece %llu: group %u frozen %d vs %d",
				      (unsigned long long)pr->pieces, i,
				      vpmu_engine_frozen(a, i),
				      vpmu_engine_frozen(b, i));
	return true;
}

/* The counts and histograms, in full. */
static bool same_counts(struct pair *pr)
{
	struct vpmu_engine *a = pr->e[0], *b = pr->e[1];
	const u64 *ha, *hb;
	u64 ca[VPMU_HU_MAX], cb[VPMU_HU_MAX];
	u32 na, nb, ev, u;

	for (ev = 0; ev < VPMU_EV_NR_BASIC; ev++)
		if (vpmu_engine_event_total(a, ev) !=
		    vpmu_engine_event_total(b, ev))
			return differ(pr, "event %u total: %llu vs %llu", ev,
				      (unsigned long long)vpmu_engine_event_total(a, ev),
				      (unsigned long long)vpmu_engine_event_total(b, ev));
	for (ev = 1; ev <= 16; ev++)
		if (vpmu_engine_event_total(a, VPMU_EV_TAG(ev)) !=
		    vpmu_engine_event_total(b, VPMU_EV_TAG(ev)))
			return differ(pr, "tag %u total differs", ev);
	for (u = 0; u < vpmu_ucode_header(pr->p->uc)->cs_words; u++)
		if (vpmu_engine_uword_count(a, u) !=
		    vpmu_engine_uword_count(b, u))
			return differ(pr, "microword %u: %llu vs %llu runs", u,
				      (unsigned long long)vpmu_engine_uword_count(a, u),
				      (unsigned long long)vpmu_engine_uword_count(b, u));
	ha = vpmu_engine_uhist(a, &na);
	hb = vpmu_engine_uhist(b, &nb);
	if (na != nb || (na && memcmp(ha, hb, sizeof(u64) * na))) {
		for (u = 0; u < na && ha[u] == hb[u]; u++)
			;
		return differ(pr, "micro-PC histogram bucket %u: %llu vs %llu",
			      u, (unsigned long long)(u < na ? ha[u] : 0),
			      (unsigned long long)(u < na ? hb[u] : 0));
	}
	vpmu_engine_hu_read(a, ca, VPMU_HU_MAX);
	vpmu_engine_hu_read(b, cb, VPMU_HU_MAX);
	for (u = 0; u < VPMU_HU_MAX; u++)
		if (ca[u] != cb[u])
			return differ(pr, "histogram unit C%u: %llu vs %llu",
				      u + 1, (unsigned long long)ca[u],
				      (unsigned long long)cb[u]);
	return true;
}

/*
 * A piece's budget: from one cycle to hundreds of thousands; with @short,
 * mostly a few blocks long, so that blocks begin near a piece's end.
 */
static u64 piece(bool short_pieces)
{
	if (short_pieces && pick(4))
		return 8 + pick(72);
	switch (pick(8)) {
	case 0:
		return 1 + pick(3);
	case 1:
		return 1 + pick(20);
	case 2: case 3:
		return 1 + pick(500);
	case 4: case 5:
		return 1 + pick(5000);
	default:
		return 1 + pick(200000);
	}
}

/* What a caller does between pieces, the same to both. */
static void between(struct pair *pr, const struct vpmu_stop *st)
{
	u32 r = pick(64), i;

	for (i = 0; i < 2; i++) {
		struct vpmu_engine *e = pr->e[i];
		u32 w = st->ovf;

		/* re-arm what wrapped, as the perf driver does */
		while (w) {
			unsigned int c = __builtin_ctz(w);

			w &= w - 1;
			vpmu_engine_ovf_clear(e, 1u << c);
			vpmu_engine_ctr_write(e, c, ~0ull << (r % 3));
		}
		if (r == 1)
			vpmu_engine_set_ext(e, !(vpmu_engine_reg(e, 0) & 1));
		if (r == 2)
			vpmu_engine_set_ext(e, true);
		if (r == 3)
			vpmu_engine_set_ext(e, false);
		if (r == 4)
			vpmu_engine_freeze(e, 1, false);
		if (r == 5)
			vpmu_engine_freeze(e, 2, !vpmu_engine_frozen(e, 2));
		if (r == 6)
			vpmu_engine_uhist_reset(e);
		if (r == 7)
			vpmu_engine_hu_reset(e);
		if (r == 8)
			vpmu_engine_ctr_write(e, 1, 12345);
		if (r == 9) {
			struct vpmu_engine_snap s;

			vpmu_engine_snapshot(e, &s, 0x5);
		}
	}
}

/* Serve a stopped RV32 program's ecall; false when it exits. */
static bool serve(struct pair *pr)
{
	u32 x[32], i, k;
	struct vpmu_sys_res res = { 0 };

	for (k = 0; k < 2; k++) {
		for (i = 0; i < 32; i++)
			x[i] = vpmu_engine_reg(pr->e[k], VPMU_OPND_R0 + i);
		/* quietly: the same result, nothing written */
		if (x[17] == VPMU_SYS_EXIT || x[17] == VPMU_SYS_EXIT_GROUP)
			return false;
		res.a0 = x[17] == VPMU_SYS_WRITE ? x[12] : (u32)-38;
		vpmu_engine_set_reg(pr->e[k], VPMU_OPND_R0 + 10, res.a0);
		if (vpmu_engine_trap_return(pr->e[k]))
			return false;
	}
	return true;
}

/*
 * The caller exchanges two words of the program's code between pieces:
 * in place, saying so (vpmu_engine_mem_written()), or every other time
 * in a copy of the memory that the program, saved, goes on in
 * (vpmu_ctx_set_mem()), as the module resumes a program in a new copy.
 */
static void swap_code(struct pair *pr)
{
	const struct prog *p = pr->p;
	bool copy = pr->pieces & 1;
	unsigned int i;

	for (i = 0; i < 2; i++) {
		struct vpmu_engine *e = pr->e[i];
		struct vpmu_ctx *c = copy ? vpmu_ctx_create() : NULL;
		u8 w[4], *mem = pr->mem[i], *a, *b;

		if (copy) {
			if (!c)
				abort();
			vpmu_engine_ctx_save(e, c);
			mem = malloc(p->mem_size);
			if (!mem)
				abort();
			memcpy(mem, pr->mem[i], p->mem_size);
		}
		a = mem + p->swap[0];
		b = mem + p->swap[1];
		memcpy(w, a, 4);
		memcpy(a, b, 4);
		memcpy(b, w, 4);
		if (!copy) {
			vpmu_engine_mem_written(e);
			continue;
		}
		if (vpmu_ctx_set_mem(c, mem, p->mem_size) ||
		    vpmu_engine_ctx_restore(e, c))
			abort();
		vpmu_ctx_destroy(c);
		free(pr->mem[i]);
		pr->mem[i] = mem;
	}
}

#define TC_SMALL_POOL	2048	/* pool words that hold a few translations */

/*
 * Run @p under setup @s with @seed on both engines, in pieces as @pace
 * says (NULL: random pieces and random changes between them); "" or why
 * not.
 */
static bool run_pair_paced(const struct prog *p, const struct setup *s,
			   u32 seed, const struct pace *pace,
			   struct vpmu_tc_stats *tc, char *why, size_t whylen)
{
	struct pair pr = { .p = p, .msz = p->mem_size };
	struct vpmu_stop st[2];
	u64 used = 0, end = p->cycles;
	bool ok = true, small;
	unsigned int i;

	/*
	 * Odd seeds: the cache deferred and its runs yielding, as the module
	 * runs it; seeds 1 and 2 (mod 4): a pool of 8 KiB, so that
	 * translations are evicted.
	 */
	pr.defer = pace || (seed & 1);
	small = pace ? pace->small_pool : (seed ^ (seed >> 1)) & 1;
	if (pace && pace->period && end > (u64)pace->period * PACE_PIECES)
		end = (u64)pace->period * PACE_PIECES;
	for (i = 0; i < 2; i++) {
		u32 words = vpmu_ucode_header(p->uc)->cs_words;

		pr.e[i] = vpmu_engine_create(words);
		pr.mem[i] = malloc(p->mem_size);
		if (!pr.e[i] || !pr.mem[i])
			abort();
		if (i == 1 && small)
			vpmu_engine_mem_free(vpmu_engine_mem_set(pr.e[i],
				vpmu_engine_mem_alloc(words, TC_SMALL_POOL)));
		if (vpmu_engine_attach(pr.e[i], p->uc))
			abort();
		vpmu_engine_tc_enable(pr.e[i], i == 1);
		vpmu_engine_tc_defer(pr.e[i], pr.defer);
		vpmu_engine_tc_yield(pr.e[i], pr.defer);
		memcpy(pr.mem[i], p->image, p->mem_size);
		rng = seed;
		s->apply(pr.e[i], seed);
		if (pace)
			pace_sample(pr.e[i], pace);
		vpmu_engine_start(pr.e[i], pr.mem[i], p->mem_size, p->entry,
				  p->mode);
	}
	rng = (u64)seed * 0x9e3779b97f4a7c15ull + 1;
	while (ok && used < end) {
		u64 b = pace ? pace->chunk : piece(seed & 1);

		pr.pieces++;
		vpmu_engine_run(pr.e[1], b, &st[1]);
		/*
		 * Yielded (cycles left): the interpreter runs as far, and
		 * everything a piece's end brings comes before the next run
		 * enters the block the cache's yielded at
		 */
		if (st[1].reason == VPMU_STOP_BUDGET && st[1].cycles < b)
			b = st[1].cycles;
		vpmu_engine_run(pr.e[0], b, &st[0]);
		ok = same_stop(&pr, &st[0], &st[1]) && same_state(&pr);
		used += st[0].cycles;
		if (!ok || st[0].reason == VPMU_STOP_HALT ||
		    st[0].reason == VPMU_STOP_FAULT)
			break;
		if (st[0].reason == VPMU_STOP_TRAP) {
			if (!p->rv32 || st[0].code != 2 || !serve(&pr)) {
				/* a TRAP that is not a call: on past it */
				if (p->rv32 ||
				    vpmu_engine_trap_return(pr.e[0]) ||
				    vpmu_engine_trap_return(pr.e[1]))
					break;
			}
		}
		if (pace) {
			/* the samples taken, their counters re-armed */
			for (i = 0; i < 2 && st[0].ovf & 1; i++) {
				vpmu_engine_ovf_clear(pr.e[i], 1);
				pace_arm(pr.e[i], 0, pace->period);
			}
			for (i = 0; i < 2 && st[0].ovf & 8; i++) {
				vpmu_engine_ovf_clear(pr.e[i], 8);
				pace_arm(pr.e[i], 3, pace->period2);
			}
		} else {
			between(&pr, &st[0]);
		}
		if (p->swap[1])
			swap_code(&pr);
		/*
		 * Deferred: what the piece found warm, translated after it,
		 * up to 0 to 3 at a time (as the driver: 2)
		 */
		if (pr.defer)
			vpmu_engine_tc_work(pr.e[1], pace ? PACE_TRANSLATE :
						     pr.pieces % 4);
		if (pr.pieces % 64 == 0)
			ok = same_counts(&pr);
	}
	ok = ok && same_state(&pr) && same_counts(&pr);
	vpmu_engine_tc_stats(pr.e[1], tc);
	snprintf(why, whylen, "%s", ok ? "" : pr.why);
	for (i = 0; i < 2; i++) {
		vpmu_engine_destroy(pr.e[i]);
		free(pr.mem[i]);
	}
	return ok;
}

static bool run_pair(const struct prog *p, const struct setup *s, u32 seed,
		     struct vpmu_tc_stats *tc, char *why, size_t whylen)
{
	return run_pair_paced(p, s, seed, NULL, tc, why, whylen);
}

#endif /* _VPMU_TC_PAIR_H */
