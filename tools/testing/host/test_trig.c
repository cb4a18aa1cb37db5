// SPDX-License-Identifier: GPL-2.0
/*
 * test_trig.c - freeze triggers, deferred folding and the micro-PC
 * histogram, against a stepping reference.
 *
 * Random microcode loops (trigger marks, tags, mode switches, loads that
 * stall, every shape of trigger source: fast and general handlers, the
 * mark's fused one, unchecked fall-through) run on an engine with random
 * counters in freeze groups whose triggers are the mark and tags, in
 * random run budgets, with reads, rewrites and reconfigurations of
 * counters between runs.  A second engine with no counters runs the same
 * program one microword at a time in lockstep; the test applies the
 * architecture's rules itself (the toggle takes effect before the
 * microword's events are counted; MODE takes effect after its microword;
 * the histogram samples every K-th cycle, stalls belonging to their
 * microword) and must get every counter's 64-bit count, every freeze bit,
 * the event totals and the micro-PC histogram (K = 1 and random K > 1)
 * exactly.  This covers the engine's slots (more keys than slots), its
 * toggle table, counts left in the slots between runs, and samples taken
 * inside a run.  The start/stop cases give groups start and stop
 * triggers besides the toggle, among them counters' wraps (which act
 * after the wrapping microword).
 */
#include <stdio.h>

#include "tap.h"
#include "vpmu_test_image.h"

#define NCTR	VPMU_NR_COUNTERS_MAX
#define NGRP	VPMU_NR_FGROUPS_MAX
#define MAXUW	40
#define BOTH	(VPMU_CTR_USER | VPMU_CTR_SUPER)
#define ITERS	23
/* memory: an instruction word for each EOI the loop runs, and one more */
#define MEMSZ	(4 * (ITERS * MAXUW + 2))
#define OPBITS	6			/* opcode: a microword's upc */

static u64 rng = 0x9e3779b97f4a7c15ull;

static u32 rnd(u32 n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (u32)((rng >> 16) % n);
}

struct prog {
	u32 n;
	u64 uw[MAXUW];
	u8 mem[MEMSZ];
};

/*
 * 0: MOV t0, #ITERS; 1..n-3: the body; n-2: SUB.S t0, t0, #1 ; BR NZ 1;
 * n-1: HALT.  Body microwords, each perhaps marked (T) and tagged (tags
 * 1..3): NOP ; NEXT (unchecked), ADD ; NEXT (unchecked), ADD ; JUMP next
 * and NOP ; JUMP next (fast handlers that end their segment), MODE ;
 * NEXT, OR ; EOI-free BR AL next (a branch), LBU ; NEXT from an address
 * that grows (data-cache misses: stall cycles at a segment end), and
 * ADD pc, pc, #4 ; EOI (the mark's shape, the engine's fused
 * TRIG_PC_ADDI_EOI8 when it toggles).  The ID table maps each opcode to the upc of its
 * value, and memory holds, at the address each EOI fetches, the opcode
 * of the microword after it: the body runs straight through, so the EOIs
 * come in the same order in every iteration and pc only grows.
 */
static void gen(struct prog *p)
{
	u32 body = 4 + rnd(MAXUW - 8), i, eoi[MAXUW], neoi = 0, j;

	p->n = body + 3;
	p->uw[0] = UW(MOV, T(0), 0, IM, ITERS) | Q(NEXT, 0, 0);
	for (i = 1; i <= body; i++) {
		u64 w;

		switch (rnd(9)) {
		case 0:
			w = NOPW | Q(NEXT, 0, 0);
			break;
		case 1:
			w = UW(ADD, T(1), T(1), IM, 1) | Q(NEXT, 0, 0);
			break;
		case 2:
			w = UW(ADD, T(2), T(2), IM, 3) | Q(JUMP, 0, i + 1);
			break;
		case 3:
			w = NOPW | Q(JUMP, 0, i + 1);
			break;
		case 4:
			w = UW(MODE, 0, 0, 0, rnd(2)) | Q(NEXT, 0, 0);
			break;
		case 5:
			w = UW(OR, T(3), T(3), IM, 4) | QC(AL, i + 1);
			break;
		case 6:
			w = UW(ADD, PC, PC, IM, 4) | Q(EOI, 0, 0);
			eoi[neoi++] = i + 1;
			break;
		case 7:		/* t1 < MAXUW * ITERS: inside memory */
			w = UW(LBU, T(5), T(1), 0, rnd(64)) | Q(NEXT, 0, 0);
			break;
		default:
			w = UW(XOR, T(4), T(4), IM, 5) | Q(NEXT, 0, 0);
			break;
		}
		if (!rnd(3))
			w |= UT;
		if (!rnd(3))
			w |= UEV(1u << rnd(3));
		p->uw[i] = w;
	}
	p->uw[body + 1] = UW(SUB, T(0), T(0), IM, 1) | US | QC(NZ, 1) |
			  (rnd(4) ? 0 : UT);
	p->uw[body + 2] = NOPW | Q(HALT, 0, 0);
	memset(p->mem, 0, sizeof(p->mem));
	for (j = 0; neoi && j < ITERS * neoi; j++)
		p->mem[4 * (j + 1)] = eoi[j % neoi];
}

static struct vpmu_ucode *load(const struct prog *p)
{
	struct tb_image *b = tb_new();
	struct vpmu_ucode *uc;
	struct vpmu_verr err;
	u32 i;

	b->ncs = p->n;
	memcpy(b->cs, p->uw, sizeof(u64) * p->n);
	b->op_bits = OPBITS;
	for (i = 0; i < 1u << OPBITS; i++)
		b->id[i] = i < p->n ? i : 0;
	uc = tb_load(b, &err);
	if (!uc)
		tap_diag("image rejected: %s", err.msg);
	return uc;
}

/* The reference's view of the PMU. */
struct model {
	struct vpmu_ctr_cfg cfg[NCTR];
	bool on[NCTR];
	u64 count[NCTR];		/* 64-bit counts */
	u16 trig[NGRP], start[NGRP], stop[NGRP];
	bool frozen[NGRP];
	u64 per_upc[MAXUW];		/* cycles (K = 1) */
	u64 samples[MAXUW];		/* K > 1 */
	u64 cyc;
	/* gating: the groups gating each unit (VPMU_GATE_*), closed units */
	u8 gate[2];
	u8 closed;
	/* the histogram unit: its program, total period and buckets */
	struct vpmu_hu_prog hu;
	u64 hu_total;
	u64 hu_c[VPMU_HU_MAX];
};

/* Does gated unit @u (0: histogram, 1: the unit) count now? */
static bool model_open(const struct model *m, unsigned int u)
{
	unsigned int g;

	if (!m->gate[u] && !(m->closed >> u & 1))
		return true;
	for (g = 1; g < NGRP; g++)
		if (m->gate[u] >> g & 1 && !m->frozen[g])
			return true;
	return false;
}

/* The unit's entries counting at cycle @pos of its monitoring period. */
static u16 model_hu_active(const struct vpmu_hu_prog *p, u64 pos)
{
	u64 s = 0;
	u16 act = 0;
	unsigned int i;

	for (i = 0; i < p->n; i++) {
		if (p->mode == VPMU_HU_SEQ) {
			if (pos >= s && pos < s + p->ent[i].period)
				act |= 1u << i;
			s += p->ent[i].period;
		} else if (pos < p->ent[i].period) {
			act |= 1u << i;
		}
	}
	return act;
}

static bool has_tag(u64 uw, unsigned int k)
{
	return VPMU_UW_GET(uw, EVENT) >> (k - 1) & 1;
}

/* @ev on microword @uw, which took @cyc cycles (stalls after the first) */
static u64 ev_of(u64 uw, u16 ev, u64 cyc)
{
	switch (ev) {
	case VPMU_EV_UOPS:
		return 1;
	case VPMU_EV_CYCLES:
		return cyc;
	case VPMU_EV_TRIGGER:
		return !!(uw & UT);
	}
	return has_tag(uw, ev - VPMU_EV_TAG_BASE);
}

static bool trig_occurs(u64 uw, u16 t)
{
	if (t == VPMU_TRIG_NONE)
		return false;
	if (t == VPMU_TRIG_MARK)
		return uw & UT;
	if (VPMU_TRIG_IS_OVF(t))
		return false;
	return ev_of(uw, t, 1);
}

/* Does @g's freeze bit change on a microword (or wrap) where @occurs? */
static bool changes(const struct model *m, unsigned int g,
		    bool (*occurs)(const void *, u16), const void *arg)
{
	u16 se = m->frozen[g] ? m->start[g] : m->stop[g];

	return occurs(arg, m->trig[g]) || occurs(arg, se);
}

static bool uw_occurs(const void *uw, u16 t)
{
	return trig_occurs(*(const u64 *)uw, t);
}

static bool wrap_occurs(const void *i, u16 t)
{
	return t == VPMU_TRIG_OVF(*(const unsigned int *)i);
}

static u64 ev_of(u64 uw, u16 ev, u64 cyc);

/*
 * The unit's share of microword @uw at @upc, @cyc cycles from the
 * model's clock: events in the window of its first cycle, cycles (and
 * micro-PC ranges, and an empty write queue) in the window of each.
 */
static void model_hu(struct model *m, u64 uw, u32 upc, u64 cyc)
{
	unsigned int i;
	u64 c;

	for (c = 0; c < cyc; c++) {
		u16 act = model_hu_active(&m->hu, (m->cyc + c) % m->hu_total);

		for (i = 0; i < m->hu.n; i++) {
			const struct vpmu_hu_entry *x = &m->hu.ent[i];

			if (!(act >> i & 1))
				continue;
			if (x->kind == VPMU_HU_UPC)
				m->hu_c[i] += upc >= x->lo && upc <= x->hi;
			else if (x->kind == VPMU_HU_WQ)
				m->hu_c[i] += x->lo == 0;
			else if (x->event == VPMU_EV_CYCLES)
				m->hu_c[i]++;
			else if (!c)
				m->hu_c[i] += ev_of(uw, x->event, cyc);
		}
	}
}

/*
 * Microword @uw runs in @mode for @cyc cycles: toggle, then count; the
 * micro-PC histogram at interval @k samples cycles k - 1, 2k - 1, ...
 * (those of gated-shut microwords dropped), and the unit counts if open.
 */
static void model_step(struct model *m, u64 uw, u32 upc, unsigned int mode,
		       u64 cyc, u32 k)
{
	unsigned int g, i;
	u64 c;
	bool uh_open, hu_open;
	u32 wrapped = 0;

	for (g = 0; g < NGRP; g++)
		if (changes(m, g, uw_occurs, &uw))
			m->frozen[g] = !m->frozen[g];
	/* the gates as the microword's own toggles leave them */
	uh_open = model_open(m, 0);
	hu_open = model_open(m, 1);
	for (i = 0; i < NCTR; i++) {
		const struct vpmu_ctr_cfg *c = &m->cfg[i];
		u8 need = mode == VPMU_MODE_SUPER ? VPMU_CTR_SUPER :
						   VPMU_CTR_USER;
		u64 old = m->count[i];

		if (m->on[i] && (c->flags & need) && !m->frozen[c->fgroup])
			m->count[i] += ev_of(uw, c->event, cyc);
		if (c->width < 64 && old >> c->width != m->count[i] >> c->width)
			wrapped |= 1u << i;
	}
	/* wraps act after the microword, in counter order */
	for (i = 0; i < NCTR; i++)
		for (g = 0; wrapped >> i & 1 && g < NGRP; g++)
			if (changes(m, g, wrap_occurs, &i))
				m->frozen[g] = !m->frozen[g];
	if (uh_open)
		m->per_upc[upc] += cyc;
	for (c = 0; uh_open && k > 1 && c < cyc; c++)
		if ((m->cyc + c) % k == k - 1)
			m->samples[upc]++;
	if (m->hu.n && hu_open)
		model_hu(m, uw, upc, cyc);
	m->cyc += cyc;
}

static const u16 events[] = {
	VPMU_EV_UOPS, VPMU_EV_CYCLES, VPMU_EV_TRIGGER,
	VPMU_EV_TAG(1), VPMU_EV_TAG(2), VPMU_EV_TAG(3),
};

static void rand_cfg(struct vpmu_ctr_cfg *c, u8 width)
{
	static const u8 modes[] = { BOTH, VPMU_CTR_USER, VPMU_CTR_SUPER };

	c->event = events[rnd(sizeof(events) / sizeof(events[0]))];
	c->width = width;
	c->flags = modes[rnd(3)];
	c->fgroup = rnd(NGRP);
}

/* The engine's 64-bit count of counter @i. */
static u64 count_of(struct vpmu_engine *e, const struct model *m,
		    unsigned int i)
{
	u64 v = vpmu_engine_ctr_read(e, i);
	unsigned int w = m->cfg[i].width;

	return w < 64 ? v + (vpmu_engine_ovf_count(e, i) << w) : v;
}

/*
 * One random case: returns false (with a diagnostic) on the first
 * difference.  @interrupting adds a sampling-like counter (INT), whose
 * wraps cut the runs into chunks planned to it and stop them; @hk is the
 * micro-PC histogram's interval (0: off).
 */
/* A random start or stop trigger: none, a mark, a tag or a wrap. */
static u16 rand_se(void)
{
	static const u16 t[] = {
		VPMU_TRIG_NONE, VPMU_TRIG_MARK, VPMU_EV_TAG(1), VPMU_EV_TAG(2),
		VPMU_EV_TAG(3),
	};

	if (!rnd(4))
		return VPMU_TRIG_OVF(rnd(NCTR - 1));
	return t[rnd(sizeof(t) / sizeof(t[0]))];
}

/* Random gating: each group gates either unit or both or none. */
static void rand_gate(struct vpmu_engine *e, struct model *m)
{
	unsigned int g, u, k;

	m->gate[0] = m->gate[1] = 0;
	for (g = 1; g < NGRP; g++) {
		u = rnd(4);
		vpmu_engine_fgroup_gate(e, g, u);
		for (k = 0; k < 2; k++)
			if (u >> k & 1)
				m->gate[k] |= 1u << g;
	}
	m->closed = rnd(4) ? 0 : rnd(4);
	vpmu_engine_gate_closed(e, m->closed);
}

/*
 * A random histogram-unit program for a loop of @ncs microwords: events,
 * micro-PC ranges and write-queue ranges (the loop never stores: the
 * queue stays empty), short windows and long.
 */
static void rand_hu(struct model *m, u32 ncs)
{
	static const u16 ev[] = {
		VPMU_EV_CYCLES, VPMU_EV_UOPS, VPMU_EV_TAG(1), VPMU_EV_TRIGGER,
	};
	struct vpmu_hu_prog *p = &m->hu;
	unsigned int i;

	memset(p, 0, sizeof(*p));
	p->mode = rnd(2) ? VPMU_HU_SEQ : VPMU_HU_PAR;
	p->n = 1 + rnd(4);
	m->hu_total = 0;
	for (i = 0; i < p->n; i++) {
		struct vpmu_hu_entry *x = &p->ent[i];

		x->period = rnd(3) ? 1 + rnd(30) : 100000;
		switch (rnd(3)) {
		case 0:
			x->kind = VPMU_HU_EVENT;
			x->event = ev[rnd(sizeof(ev) / sizeof(ev[0]))];
			break;
		case 1:
			x->kind = VPMU_HU_UPC;
			x->lo = rnd(ncs);
			x->hi = x->lo + rnd(ncs - x->lo);
			break;
		default:
			x->kind = VPMU_HU_WQ;
			x->lo = rnd(2);
			x->hi = x->lo + rnd(3);
			break;
		}
		if (p->mode == VPMU_HU_SEQ)
			m->hu_total += x->period;
		else if (m->hu_total < x->period)
			m->hu_total = x->period;
	}
}

/*
 * @gated: groups gate the micro-PC histogram and a random program of the
 * histogram unit, which are then checked against the model too.
 */
static bool one_case(unsigned int seed, bool interrupting, u32 hk,
		     bool startstop, bool gated)
{
	struct vpmu_engine *e = vpmu_engine_create(VPMU_CS_MAX);
	struct vpmu_engine *r = vpmu_engine_create(VPMU_CS_MAX);
	static const u16 trigs[] = {
		VPMU_TRIG_NONE, VPMU_TRIG_MARK, VPMU_EV_TAG(1), VPMU_EV_TAG(2),
		VPMU_EV_TAG(3), VPMU_TRIG_MARK,
	};
	struct model m = { 0 };
	struct vpmu_ucode *uc;
	struct vpmu_stop s, rs;
	struct prog p;
	static u8 mem[MEMSZ], rmem[MEMSZ];
	unsigned int i, g, mode = rnd(2);
	bool ok = true, done = false;

	gen(&p);
	memcpy(mem, p.mem, MEMSZ);
	memcpy(rmem, p.mem, MEMSZ);
	uc = load(&p);
	if (!uc || !e || !r || vpmu_engine_attach(e, uc) ||
	    vpmu_engine_attach(r, uc)) {
		tap_diag("case %u: set-up failed", seed);
		return false;
	}
	for (g = 0; g < NGRP; g++) {
		m.trig[g] = g ? trigs[rnd(sizeof(trigs) / sizeof(trigs[0]))] :
			    VPMU_TRIG_NONE;
		m.frozen[g] = rnd(2);
		vpmu_engine_fgroup_trigger(e, g, m.trig[g]);
		vpmu_engine_freeze(e, g, m.frozen[g]);
		m.start[g] = m.stop[g] = VPMU_TRIG_NONE;
		if (!startstop || !g)
			continue;
		m.start[g] = rand_se();
		m.stop[g] = rand_se();
		if (rnd(2))
			m.trig[g] = VPMU_TRIG_NONE;
		vpmu_engine_fgroup_trigger(e, g, m.trig[g]);
		vpmu_engine_fgroup_start_stop(e, g, m.start[g], m.stop[g]);
	}
	for (i = 0; i < NCTR; i++) {
		m.on[i] = rnd(4);
		if (!m.on[i])
			continue;
		rand_cfg(&m.cfg[i], rnd(3) ? 64 : 3 + rnd(6));
		vpmu_engine_ctr_config(e, i, &m.cfg[i]);
	}
	if (interrupting) {
		/*
		 * The model need not know it: it only stops runs.  On UOPS,
		 * no group: it never freezes.  On CYCLES (odd cases) in any
		 * group and mode: credited where every slot counts it,
		 * settled where a freeze or the mode leaves it out of some
		 * (vpmu_defer_done()).
		 */
		struct vpmu_ctr_cfg c = { VPMU_EV_UOPS, 4,
					  BOTH | VPMU_CTR_INT, 0 };

		if (seed & 1) {
			rand_cfg(&c, 4 + rnd(3));	/* a mode, a group */
			c.event = VPMU_EV_CYCLES;
			c.flags |= VPMU_CTR_INT;
		}
		vpmu_engine_ctr_config(e, NCTR - 1, &c);
		m.on[NCTR - 1] = false;
	}
	if (hk)
		vpmu_engine_uhist_set(e, hk);
	if (gated) {
		rand_gate(e, &m);
		rand_hu(&m, p.n);
		if (vpmu_engine_hu_set(e, &m.hu)) {
			tap_diag("case %u: program refused", seed);
			return false;
		}
	}
	vpmu_engine_start(e, mem, sizeof(mem), 0, mode);
	vpmu_engine_start(r, rmem, sizeof(rmem), 0, mode);

	while (ok && !done) {
		u64 budget = 1 + rnd(rnd(4) ? 40 : 400), until;

		vpmu_engine_run(e, budget, &s);
		/* the interrupt's handler: the others' wraps stay counted */
		if (s.reason == VPMU_STOP_OVERFLOW)
			vpmu_engine_ovf_clear(e, s.ovf & 1u << (NCTR - 1));
		/* the same cycles, one microword (and its stalls) at a time */
		for (until = m.cyc + s.cycles; m.cyc < until;) {
			u32 upc = vpmu_engine_upc(r);
			unsigned int md = vpmu_engine_mode(r);

			vpmu_engine_run(r, 1, &rs);
			if (!rs.cycles) {
				tap_diag("case %u: reference stopped", seed);
				ok = false;
				break;
			}
			model_step(&m, p.uw[upc], upc, md, rs.cycles, hk);
		}
		if (ok && m.cyc != until) {
			tap_diag("case %u: run ends inside a stall", seed);
			ok = false;
		}
		done = s.reason == VPMU_STOP_HALT;
		if (!ok || done)
			break;
		if (s.reason != VPMU_STOP_BUDGET &&
		    s.reason != VPMU_STOP_OVERFLOW) {
			tap_diag("case %u: stop %d", seed, s.reason);
			ok = false;
			break;
		}
		/* between runs: what the driver and perf do */
		switch (rnd(8)) {
		case 0: {	/* read one (settles the slots) */
			i = rnd(NCTR);
			if (m.on[i] && count_of(e, &m, i) != m.count[i]) {
				tap_diag("case %u: counter %u mid-run %llu, want %llu",
					 seed, i, (unsigned long long)
					 count_of(e, &m, i),
					 (unsigned long long)m.count[i]);
				ok = false;
			}
			break;
		}
		case 1:		/* rewrite one */
			i = rnd(NCTR - 1);
			if (!m.on[i])
				break;
			vpmu_engine_ctr_write(e, i, 1);
			vpmu_engine_ovf_clear(e, 1u << i);
			m.count[i] = 1;
			break;
		case 2:		/* reconfigure one, same width */
			i = rnd(NCTR - 1);
			if (!m.on[i])
				break;
			rand_cfg(&m.cfg[i], m.cfg[i].width);
			vpmu_engine_ctr_config(e, i, &m.cfg[i]);
			break;
		case 3:		/* software freeze or thaw of a group */
			g = rnd(NGRP);
			m.frozen[g] = rnd(2);
			vpmu_engine_freeze(e, g, m.frozen[g]);
			break;
		case 4:		/* new triggers: a toggle may become a start */
			if (!startstop)
				break;
			g = 1 + rnd(NGRP - 1);
			m.trig[g] = rnd(2) ? rand_se() : VPMU_TRIG_NONE;
			m.start[g] = rand_se();
			m.stop[g] = rand_se();
			vpmu_engine_fgroup_trigger(e, g, m.trig[g]);
			vpmu_engine_fgroup_start_stop(e, g, m.start[g],
						      m.stop[g]);
			break;
		case 5:		/* new gates */
			if (gated)
				rand_gate(e, &m);
			break;
		}
	}
	for (i = 0; ok && i < NCTR; i++) {
		if (!m.on[i] || count_of(e, &m, i) == m.count[i])
			continue;
		tap_diag("case %u: counter %u (event %u group %u flags %u width %u) %llu, want %llu",
			 seed, i, m.cfg[i].event, m.cfg[i].fgroup,
			 m.cfg[i].flags, m.cfg[i].width,
			 (unsigned long long)count_of(e, &m, i),
			 (unsigned long long)m.count[i]);
		ok = false;
	}
	for (g = 0; ok && g < NGRP; g++)
		if (vpmu_engine_frozen(e, g) != m.frozen[g]) {
			tap_diag("case %u: group %u frozen %d", seed, g,
				 vpmu_engine_frozen(e, g));
			ok = false;
		}
	if (ok && vpmu_engine_event_total(e, VPMU_EV_UOPS) !=
	    vpmu_engine_event_total(r, VPMU_EV_UOPS)) {
		tap_diag("case %u: uops total", seed);
		ok = false;
	}
	if (ok && hk) {
		const u64 *h = vpmu_engine_uhist(e, NULL);
		const u64 *want = hk == 1 ? m.per_upc : m.samples;

		for (i = 0; i < p.n; i++)
			if (h[i] != want[i]) {
				tap_diag("case %u: K=%u uhist[%u] %llu, want %llu",
					 seed, hk, i, (unsigned long long)h[i],
					 (unsigned long long)want[i]);
				ok = false;
				break;
			}
	}
	if (ok && gated) {
		u64 c[VPMU_HU_MAX];

		vpmu_engine_hu_read(e, c, m.hu.n);
		for (i = 0; i < m.hu.n; i++)
			if (c[i] != m.hu_c[i]) {
				tap_diag("case %u: hu C%u %llu, want %llu (kind %u)",
					 seed, i + 1, (unsigned long long)c[i],
					 (unsigned long long)m.hu_c[i],
					 m.hu.ent[i].kind);
				ok = false;
				break;
			}
	}
	vpmu_engine_destroy(e);
	vpmu_engine_destroy(r);
	vpmu_ucode_free(uc);
	return ok;
}

/*
 * Counts a deferring run leaves in the slots belong to the configuration
 * they were made under: a counter reconfigured, rewritten or read between
 * runs sees exactly its share, and a new program's start or an image
 * switch does not lose them.
 */
static bool test_settle(void)
{
	static const u64 uw[] = {
		NOPW | Q(NEXT, 0, 0), NOPW | Q(NEXT, 0, 0) | UEV(1),
		NOPW | Q(JUMP, 0, 0),
	};
	struct prog p = { 3 };
	struct vpmu_engine *e = vpmu_engine_create(VPMU_CS_MAX);
	struct vpmu_ctr_cfg uops = { VPMU_EV_UOPS, 64, BOTH, 0 };
	struct vpmu_ctr_cfg tag = { VPMU_EV_TAG(1), 64, BOTH, 0 };
	struct vpmu_ucode *uc;
	struct vpmu_stop s;
	u8 mem[64] = { 0 };
	bool ok;

	memcpy(p.uw, uw, sizeof(uw));
	uc = load(&p);
	if (!uc || !e || vpmu_engine_attach(e, uc))
		return false;
	vpmu_engine_ctr_config(e, 0, &uops);
	vpmu_engine_ctr_config(e, 1, &uops);
	vpmu_engine_start(e, mem, sizeof(mem), 0, 0);
	vpmu_engine_run(e, 30, &s);		/* 30 uops, 10 tagged */
	vpmu_engine_ctr_config(e, 0, &tag);	/* from now on, tags */
	vpmu_engine_run(e, 30, &s);
	ok = vpmu_engine_ctr_read(e, 0) == 40 &&
	     vpmu_engine_ctr_read(e, 1) == 60;
	vpmu_engine_run(e, 30, &s);
	vpmu_engine_ctr_write(e, 1, 5);		/* the 30 before are gone */
	vpmu_engine_run(e, 3, &s);
	ok = ok && vpmu_engine_ctr_read(e, 1) == 8;
	vpmu_engine_run(e, 30, &s);
	vpmu_engine_start(e, mem, sizeof(mem), 0, 0);	/* totals restart */
	ok = ok && vpmu_engine_ctr_read(e, 1) == 38 &&
	     vpmu_engine_event_total(e, VPMU_EV_UOPS) == 0;
	vpmu_engine_run(e, 30, &s);
	vpmu_engine_ctr_config(e, 1, NULL);	/* off: its share stays */
	vpmu_engine_run(e, 30, &s);
	ok = ok && vpmu_engine_ctr_read(e, 1) == 68 &&
	     vpmu_engine_event_total(e, VPMU_EV_UOPS) == 60;
	vpmu_engine_run(e, 30, &s);
	vpmu_engine_attach(e, uc);		/* an image switch */
	ok = ok && vpmu_engine_ctr_read(e, 0) == 40 + 10 + 1 + 4 * 10 &&
	     vpmu_engine_event_total(e, VPMU_EV_UOPS) == 0;
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/*
 * A loop of 10 iterations, 4 microwords each: tag 1 on the first, tag 2
 * on the third.  Started frozen, start = tag 1 and stop = tag 2 count
 * microwords 1 and 2 of each iteration (20 uops); the toggle on tag 1
 * alone would count every other iteration whole.  A 2-bit counter of
 * tag 2 wraps every 4th iteration; as a start trigger it thaws a group
 * after the wrapping microword.  Bad triggers change nothing.
 */
static bool test_start_stop(void)
{
	static const u64 uw[] = {
		UW(MOV, T(0), 0, IM, 10) | Q(NEXT, 0, 0),
		NOPW | Q(NEXT, 0, 0) | UEV(1),
		NOPW | Q(NEXT, 0, 0),
		NOPW | Q(NEXT, 0, 0) | UEV(2),
		UW(SUB, T(0), T(0), IM, 1) | US | QC(NZ, 1),
		NOPW | Q(HALT, 0, 0),
	};
	struct prog p = { 6 };
	struct vpmu_engine *e = vpmu_engine_create(VPMU_CS_MAX);
	struct vpmu_ctr_cfg uops1 = { VPMU_EV_UOPS, 64, BOTH, 1 };
	struct vpmu_ctr_cfg uops2 = { VPMU_EV_UOPS, 64, BOTH, 2 };
	struct vpmu_ctr_cfg tag2 = { VPMU_EV_TAG(2), 2, BOTH, 0 };
	struct vpmu_ucode *uc;
	struct vpmu_stop s;
	u8 mem[64] = { 0 };
	bool ok;

	memcpy(p.uw, uw, sizeof(uw));
	uc = load(&p);
	if (!uc || !e || vpmu_engine_attach(e, uc))
		return false;
	vpmu_engine_ctr_config(e, 0, &uops1);
	vpmu_engine_ctr_config(e, 1, &uops2);
	vpmu_engine_ctr_config(e, 2, &tag2);
	vpmu_engine_freeze(e, 1, true);
	vpmu_engine_freeze(e, 2, true);
	ok = !vpmu_engine_fgroup_start_stop(e, 1, VPMU_EV_TAG(1),
					    VPMU_EV_TAG(2)) &&
	     !vpmu_engine_fgroup_start_stop(e, 2, VPMU_TRIG_OVF(2),
					    VPMU_TRIG_NONE);
	ok = ok && vpmu_engine_fgroup_start_stop(e, 4, VPMU_TRIG_MARK,
						 VPMU_TRIG_NONE) == -EINVAL &&
	     vpmu_engine_fgroup_start_stop(e, 1, VPMU_TRIG_OVF(16),
					   VPMU_TRIG_NONE) == -EINVAL &&
	     vpmu_engine_fgroup_start_stop(e, 1, VPMU_TRIG_NONE, 0x2ff) ==
	     -EINVAL &&
	     vpmu_engine_fgroup_start_stop(e, 1, VPMU_EV_HU(1),
					   VPMU_TRIG_NONE) == -EOPNOTSUPP;
	vpmu_engine_start(e, mem, sizeof(mem), 0, 0);
	vpmu_engine_run(e, 1000, &s);
	/*
	 * Group 1: uops 1, 2 of each of 10 iterations.  Group 2: thawed
	 * after the 4th tag 2 (iteration 4's microword 3): its SUB, 6
	 * iterations and the HALT, 1 + 4 * 6 + 1 = 26.
	 */
	ok = ok && s.reason == VPMU_STOP_HALT &&
	     vpmu_engine_ctr_read(e, 0) == 20 &&
	     vpmu_engine_ctr_read(e, 1) == 26 &&
	     vpmu_engine_frozen(e, 1) && !vpmu_engine_frozen(e, 2);
	if (!ok)
		tap_diag("start/stop: %llu %llu",
			 (unsigned long long)vpmu_engine_ctr_read(e, 0),
			 (unsigned long long)vpmu_engine_ctr_read(e, 1));
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/*
 * test_start_stop()'s loop with group 1 started on tag 1 and stopped on
 * tag 2, gating the micro-PC histogram (K = 1) and the unit: microwords
 * 1 and 2 of each iteration, 10 each, 20 uops.  Refused gates (group 0,
 * a group beyond the last, an unknown unit) change nothing.  Closed with
 * no gating group, neither counts; at K = 3 the countdown runs on
 * through a closed run, so the next open one samples at the same phase.
 */
static bool test_gate_api(void)
{
	static const u64 uw[] = {
		UW(MOV, T(0), 0, IM, 10) | Q(NEXT, 0, 0),
		NOPW | Q(NEXT, 0, 0) | UEV(1),
		NOPW | Q(NEXT, 0, 0),
		NOPW | Q(NEXT, 0, 0) | UEV(2),
		UW(SUB, T(0), T(0), IM, 1) | US | QC(NZ, 1),
		NOPW | Q(HALT, 0, 0),
	};
	static const u64 want[6] = { 0, 10, 10, 0, 0, 0 };
	struct vpmu_hu_prog hp = { VPMU_HU_PAR, 1,
				   { { VPMU_HU_EVENT, VPMU_EV_UOPS, 0, 0,
				       100000 } } };
	struct prog p = { 6 };
	struct vpmu_engine *e = vpmu_engine_create(VPMU_CS_MAX);
	struct vpmu_ucode *uc;
	struct vpmu_stop s;
	u8 mem[64] = { 0 };
	const u64 *h;
	u64 c = 0, n = 0;
	unsigned int i;
	bool ok;

	memcpy(p.uw, uw, sizeof(uw));
	uc = load(&p);
	if (!uc || !e || vpmu_engine_attach(e, uc))
		return false;
	vpmu_engine_freeze(e, 1, true);
	ok = !vpmu_engine_fgroup_start_stop(e, 1, VPMU_EV_TAG(1),
					    VPMU_EV_TAG(2)) &&
	     !vpmu_engine_fgroup_gate(e, 1, VPMU_GATE_ALL) &&
	     !vpmu_engine_hu_set(e, &hp);
	ok = ok && vpmu_engine_fgroup_gate(e, 0, VPMU_GATE_ALL) == -EINVAL &&
	     vpmu_engine_fgroup_gate(e, NGRP, VPMU_GATE_ALL) == -EINVAL &&
	     vpmu_engine_fgroup_gate(e, 1, 4) == -EINVAL &&
	     vpmu_engine_gate_closed(e, 4) == -EINVAL;
	vpmu_engine_uhist_set(e, 1);
	vpmu_engine_start(e, mem, sizeof(mem), 0, 0);
	vpmu_engine_run(e, 1000, &s);
	h = vpmu_engine_uhist(e, NULL);
	for (i = 0; i < 6; i++)
		ok = ok && h[i] == want[i];
	vpmu_engine_hu_read(e, &c, 1);
	ok = ok && c == 20 && s.reason == VPMU_STOP_HALT;
	if (!ok)
		tap_diag("gate: uhist %llu %llu, hu %llu",
			 (unsigned long long)h[1], (unsigned long long)h[2],
			 (unsigned long long)c);
	/* closed, no group: nothing; the K = 3 countdown runs on */
	vpmu_engine_fgroup_gate(e, 1, 0);
	vpmu_engine_gate_closed(e, VPMU_GATE_ALL);
	vpmu_engine_uhist_set(e, 3);
	vpmu_engine_uhist_reset(e);
	vpmu_engine_hu_reset(e);
	vpmu_engine_start(e, mem, sizeof(mem), 0, 0);
	vpmu_engine_run(e, 1000, &s);	/* 42 cycles: 14 samples dropped */
	h = vpmu_engine_uhist(e, NULL);
	for (i = 0; i < 6; i++)
		n += h[i];
	vpmu_engine_hu_read(e, &c, 1);
	ok = ok && !n && !c && s.cycles == 42;
	vpmu_engine_gate_closed(e, 0);
	vpmu_engine_start(e, mem, sizeof(mem), 0, 0);
	vpmu_engine_run(e, 1000, &s);
	/* cycles 42..83 of the clock: samples at 44, 47, ..., 83: 14 */
	h = vpmu_engine_uhist(e, NULL);
	for (i = 0; i < 6; i++)
		n += h[i];
	vpmu_engine_hu_read(e, &c, 1);
	ok = ok && n == 14 && c == 42;
	if (!ok)
		tap_diag("gate closed: %llu samples, hu %llu",
			 (unsigned long long)n, (unsigned long long)c);
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

/*
 * The unit's address entries are gated too: a loop of 10 whose loads at
 * microwords 2 (inside tag 1 .. tag 2, group 1's thawed span) and 4
 * (outside it) both read address 0..3.  Gated by group 1, load=0-64
 * counts the 10 inside; ungated, all 20.
 */
static bool test_gate_addr(void)
{
	static const u64 uw[] = {
		UW(MOV, T(0), 0, IM, 10) | Q(NEXT, 0, 0),
		NOPW | Q(NEXT, 0, 0) | UEV(1),
		UW(LW, T(2), T(1), 0, 0) | Q(NEXT, 0, 0),
		NOPW | Q(NEXT, 0, 0) | UEV(2),
		UW(LW, T(2), T(1), 0, 0) | Q(NEXT, 0, 0),
		UW(SUB, T(0), T(0), IM, 1) | US | QC(NZ, 1),
		NOPW | Q(HALT, 0, 0),
	};
	struct vpmu_hu_prog hp = { VPMU_HU_PAR, 1,
				   { { VPMU_HU_LOAD, 0, 0, 63, 100000 } } };
	struct prog p = { 7 };
	struct vpmu_engine *e = vpmu_engine_create(VPMU_CS_MAX);
	struct vpmu_ucode *uc;
	struct vpmu_stop s;
	u8 mem[64] = { 0 };
	u64 gated = 0, all = 0;
	bool ok;

	memcpy(p.uw, uw, sizeof(uw));
	uc = load(&p);
	if (!uc || !e || vpmu_engine_attach(e, uc))
		return false;
	vpmu_engine_freeze(e, 1, true);
	ok = !vpmu_engine_fgroup_start_stop(e, 1, VPMU_EV_TAG(1),
					    VPMU_EV_TAG(2)) &&
	     !vpmu_engine_fgroup_gate(e, 1, VPMU_GATE_HU) &&
	     !vpmu_engine_hu_set(e, &hp);
	vpmu_engine_start(e, mem, sizeof(mem), 0, 0);
	vpmu_engine_run(e, 1000, &s);
	vpmu_engine_hu_read(e, &gated, 1);
	ok = ok && s.reason == VPMU_STOP_HALT;
	vpmu_engine_fgroup_gate(e, 1, 0);
	vpmu_engine_hu_reset(e);
	vpmu_engine_start(e, mem, sizeof(mem), 0, 0);
	vpmu_engine_run(e, 1000, &s);
	vpmu_engine_hu_read(e, &all, 1);
	ok = ok && gated == 10 && all == 20;
	if (!ok)
		tap_diag("gated address entry: %llu of %llu loads",
			 (unsigned long long)gated, (unsigned long long)all);
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	return ok;
}

int main(void)
{
	unsigned int i, fails = 0;
	const unsigned int ncases = 400;

	tap_plan(15);
	tap_ok(test_settle(), "counts left between runs go where they were made");
	for (i = 0; i < ncases; i++)
		fails += !one_case(i, false, 0, false, false);
	tap_ok(!fails, "%u random trigger cases, deferred folding", ncases);
	for (fails = 0, i = 0; i < ncases; i++)
		fails += !one_case(i, true, 0, false, false);
	tap_ok(!fails, "%u random trigger cases, an interrupting counter", ncases);
	for (fails = 0, i = 0; i < ncases / 4; i++)
		fails += !one_case(i, false, 1, false, false);
	tap_ok(!fails, "%u random trigger cases with the K = 1 histogram",
	       ncases / 4);
	for (fails = 0, i = 0; i < ncases / 2; i++)
		fails += !one_case(i, false, 2 + rnd(40), false, false);
	tap_ok(!fails, "%u random trigger cases with the K > 1 histogram",
	       ncases / 2);
	for (fails = 0, i = 0; i < ncases / 4; i++)
		fails += !one_case(i, true, 2 + rnd(40), false, false);
	tap_ok(!fails, "%u random cases, K > 1 histogram and an interrupting counter",
	       ncases / 4);
	for (fails = 0, i = 0; i < ncases; i++)
		fails += !one_case(i, false, 0, true, false);
	tap_ok(!fails, "%u random start/stop cases, deferred folding", ncases);
	for (fails = 0, i = 0; i < ncases; i++)
		fails += !one_case(i, true, 0, true, false);
	tap_ok(!fails, "%u random start/stop cases, an interrupting counter",
	       ncases);
	for (fails = 0, i = 0; i < ncases / 4; i++)
		fails += !one_case(i, false, 1, true, false);
	tap_ok(!fails, "%u random start/stop cases with the K = 1 histogram",
	       ncases / 4);
	tap_ok(test_start_stop(), "start and stop: exact spans, bad triggers refused");
	for (fails = 0, i = 0; i < ncases / 2; i++)
		fails += !one_case(i, false, 1, rnd(2), true);
	tap_ok(!fails, "%u random gated cases, K = 1 histogram and the unit",
	       ncases / 2);
	for (fails = 0, i = 0; i < ncases / 2; i++)
		fails += !one_case(i, false, 2 + rnd(40), rnd(2), true);
	tap_ok(!fails, "%u random gated cases, K > 1 histogram and the unit",
	       ncases / 2);
	for (fails = 0, i = 0; i < ncases / 2; i++)
		fails += !one_case(i, true, 1 + rnd(40), rnd(2), true);
	tap_ok(!fails, "%u random gated cases, an interrupting counter",
	       ncases / 2);
	tap_ok(test_gate_api(), "gating: bad groups and units refused, nothing changed");
	tap_ok(test_gate_addr(), "gating: the unit's address entries count only where thawed");
	return tap_done();
}
