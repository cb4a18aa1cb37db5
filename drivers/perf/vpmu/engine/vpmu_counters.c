// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_counters.c - the counters: the fold of the uops' counts into them,
 * the slots that split those counts by what was counting (and their
 * toggle tables), and the counters' registers (configuration, values,
 * overflow status).
 */
#include "vpmu_engine_priv.h"

/* ---- counting ----------------------------------------------------------- */

bool vpmu_ctr_enabled(const struct vpmu_engine *e, unsigned int i)
{
	return e->ctr.cfg[i].flags & (VPMU_CTR_USER | VPMU_CTR_SUPER);
}

/* The units (VPMU_GATE_*) counting under the freeze bits @frozen. */
unsigned int vpmu_gate_open(const struct vpmu_engine *e, unsigned int frozen)
{
	unsigned int u, open = VPMU_GATE_ALL;

	for (u = 0; u < ARRAY_SIZE(e->trig.gate_fgroups); u++)
		if (e->trig.gate_req >> u & 1 &&
		    !(e->trig.gate_fgroups[u] & ~frozen))
			open &= ~(1u << u);
	return open;
}

/*
 * Counters counting under (mode, frozen), and the gated units shut under
 * it (VPMU_SLOT_*).
 */
static u32 vpmu_active(const struct vpmu_engine *e, unsigned int key)
{
	unsigned int mode = key & 1, frozen = key >> 1, i;
	u32 m = 0;

	for (i = 0; i < VPMU_NR_COUNTERS_MAX; i++) {
		const struct vpmu_ctr_cfg *c = &e->ctr.cfg[i];

		if (!(c->flags & (mode ? VPMU_CTR_SUPER : VPMU_CTR_USER)))
			continue;
		if (frozen >> c->fgroup & 1)
			continue;
		m |= 1u << i;
	}
	if (unlikely(e->trig.gate_req))
		m |= (~vpmu_gate_open(e, frozen) & VPMU_GATE_ALL) <<
		     VPMU_SLOT_SHIFT;
	return m;
}

/*
 * Add @n to counter @i; returns how many times it wrapped (a narrow
 * counter can wrap many times in one fold), also added to its overflow
 * count.
 */
static u64 vpmu_ctr_add(struct vpmu_engine *e, unsigned int i, u64 n)
{
	unsigned int w = e->ctr.cfg[i].width;
	u64 v = e->ctr.val[i], nv = v + n, wraps;

	if (w >= 64) {
		e->ctr.val[i] = nv;
		wraps = nv < v;
	} else {
		/* v < 2^w and n < 2^62 (a chunk's worth): nv cannot overflow */
		e->ctr.val[i] = nv & ((1ull << w) - 1);
		wraps = nv >> w;
	}
	e->ctr.ovf_cnt[i] += wraps;
	return wraps;
}

/*
 * Fold the counts of microwords [lo, hi) of every slot in use.  cnt holds
 * segment entries (minus early exits), so a microword's executions are the
 * running sum of cnt from its segment's start; @lo must start a segment or
 * have nothing counted before it in its segment.
 */
u32 vpmu_fold(struct vpmu_engine *e, u32 lo, u32 hi)
{
	u64 add[VPMU_NR_COUNTERS_MAX], v[VPMU_CLS_NR];
	u32 wrapped = e->ctr.wrap_pending, end;
	/* micro-PC histogram at K = 1, histogram unit: one test for both */
	bool extra = e->uh.interval == 1 || e->hu.fact;
	u16 any = 0, m;
	unsigned int s, i;
	u32 upc;

	if (e->tc.ntouch)
		vpmu_tc_drain(e);
	memset(add, 0, sizeof(add));
	for (s = 0; s < e->ctr.nused; s++) {
		struct vpmu_uop *U = e->mem.slot[s];
		u16 sm = (u16)e->ctr.slot_mask[s];
		u32 c = 0;

		for (upc = lo, end = lo; upc < hi; upc++) {
			struct vpmu_uop *x = &U[upc];
			u32 dy, tk;
			u64 stall;
			u16 hm;

			/* c: executions, summed over each segment from its start */
			if (upc == end) {
				end = upc + x->seg;
				c = 0;
			}
			c += x->cnt;
			x->cnt = 0;
			if (!c)
				continue;
			dy = x->dyn;
			tk = x->tkn;
			x->dyn = 0;
			x->tkn = 0;
			e->mem.tot_cnt[upc] += c;
			e->mem.tot_dyn[upc] += dy;
			e->mem.tot_tkn[upc] += tk;
			stall = dy ? vpmu_stall_of(e, &e->uc->dec[upc], dy) : 0;
			/* ...for the units the slot feeds (vpmu_gate_open()) */
			if (unlikely(extra)) {
				u32 shut = e->ctr.slot_mask[s];

				if (e->uh.interval == 1 &&
				    !(shut & VPMU_SLOT_UH))
					e->mem.uhist[upc] += c + stall;
				if (!(shut & VPMU_SLOT_HU))
					vpmu_hu_fold(e,
						     e->hu.fact &
							     e->mem.hu_hit[upc],
						     c, stall, dy, tk);
			}
			hm = sm & e->mem.ctr_hit[upc];
			if (!hm)
				continue;
			any |= hm;
			vpmu_cls_values(v, c, stall, dy, tk);
			while (hm) {
				i = __builtin_ctz(hm);
				hm &= hm - 1;
				add[i] += v[e->ctr.cls[i]];
			}
		}
	}
	/*
	 * What credits added already: its part of add[] is at least that,
	 * but should an armed chunk's credit (vpmu_ctr_credit_n()) have
	 * taken more than ran, the value goes back down by the difference.
	 */
	for (m = e->ctr.credited_mask; m; m &= m - 1) {
		i = __builtin_ctz(m);
		if (unlikely(add[i] < e->ctr.credited[i])) {
			e->ctr.val[i] -= e->ctr.credited[i] - add[i];
			e->ctr.overcredit++;
			add[i] = 0;
		} else {
			add[i] -= e->ctr.credited[i];
		}
		e->ctr.credited[i] = 0;
	}
	e->ctr.credited_mask = 0;
	while (any) {
		i = __builtin_ctz(any);
		any &= any - 1;
		if (add[i] && vpmu_ctr_add(e, i, add[i]))
			wrapped |= 1u << i;
	}
	e->ctr.wrap_pending = 0;
	return wrapped;
}

/*
 * Fold what deferred runs left in the slots; returns the counters that
 * wrapped (also those a fold for a new slot left pending).
 */
u32 vpmu_settle_wraps(struct vpmu_engine *e)
{
	if (!e->ctr.unfolded)
		return 0;
	return vpmu_settle_all(e);
}

/* vpmu_settle_wraps(), even where the slots hold a run not yet added. */
u32 vpmu_settle_all(struct vpmu_engine *e)
{
	u32 wrapped = vpmu_fold(e, 0, e->ncs);

	e->ctr.unfolded = 0;
	e->ctr.unfolded_stall = 0;
	e->ctr.credit_lost = false;
	memset(e->ctr.grown, 0, sizeof(e->ctr.grown));
	return wrapped;
}

/*
 * Fold what deferred runs left in the slots (vpmu_defer_ok()).  Everything
 * that reads the counts (counters, overflow status, totals, the micro-PC
 * histogram at K = 1) or changes what they would feed calls this first,
 * so the deferral is never visible.
 */
void vpmu_settle(struct vpmu_engine *e)
{
	e->ctr.ovf |= vpmu_settle_wraps(e);
}

/* The counters some slot in use counts; *@all: those every one counts. */
static u32 vpmu_slots_count(const struct vpmu_engine *e, u32 *all)
{
	*all = e->ctr.slots_all;
	return e->ctr.slots_any;
}

/*
 * Of the counters @mask, those a credit makes exact: counters of CYCLES
 * or UOPS that every slot in use counts, so that every cycle run since
 * the last fold (ctr.unfolded), or every one but the stall cycles, is one
 * of their events.
 */
u32 vpmu_ctr_creditable(const struct vpmu_engine *e, u32 mask)
{
	u32 all, any;

	if (e->ctr.credit_lost)
		return 0;
	any = vpmu_slots_count(e, &all);
	/* (one that no slot in use counts grew by nothing) */
	return mask & ((all & (e->ctr.cyc_mask | e->ctr.uops_mask)) | ~any);
}

/* What creditable counter @i grew by in the slots since the last fold. */
static u64 vpmu_ctr_unfolded(const struct vpmu_engine *e, unsigned int i)
{
	if (e->ctr.uops_mask >> i & 1)
		return e->ctr.unfolded - e->ctr.unfolded_stall;
	return e->ctr.unfolded;
}

/*
 * Add to the counters @mask (vpmu_ctr_creditable()) what they grew by in
 * the slots since the last fold or credit, leaving the counts there (the
 * fold takes the credit off); returns those that wrapped.  A handful of
 * instructions a counter, where a settle costs the microcode's size and
 * the translations entered.
 */
u32 vpmu_ctr_credit(struct vpmu_engine *e, u32 mask)
{
	u32 wrapped = 0, all, any = vpmu_slots_count(e, &all);
	unsigned int i;
	u64 n, t;

	for (; mask; mask &= mask - 1) {
		i = __builtin_ctz(mask);
		e->ctr.grown[i] = 0;
		t = vpmu_ctr_unfolded(e, i);
		n = t - e->ctr.credited[i];
		if (!n || !(any >> i & 1))
			continue;
		e->ctr.credited[i] = t;
		e->ctr.credited_mask |= 1u << i;
		if (vpmu_ctr_add(e, i, n))
			wrapped |= 1u << i;
	}
	return wrapped;
}

/*
 * Counter @i grew by @n in the slots, as an armed chunk or a step counted
 * exactly (vpmu_arm_grow(), vpmu_step_credit()): a credit of @n, which
 * the next fold takes off.  Returns whether it wrapped.
 */
bool vpmu_ctr_credit_n(struct vpmu_engine *e, unsigned int i, u64 n)
{
	e->ctr.credited[i] += n;
	e->ctr.credited_mask |= 1u << i;
	return vpmu_ctr_add(e, i, n);
}

/*
 * The sparse counters that plan chunks (of ctr.sparse_mask), if the
 * values of all are exact as they stand: all they grew by in the slots
 * since the last fold, credits added (vpmu_ctr_credit_n()), nothing left
 * to their bounds (ctr.grown; every chunk that ran and did not credit one
 * left it 1 at least); else none, and the fold that makes the one asked
 * for exact makes them all so, which spares sums.  Written, such a
 * counter's credits stay for the fold to take off: they are of what ran
 * before.
 */
u32 vpmu_ctrs_credited(const struct vpmu_engine *e)
{
	u16 s = e->ctr.sparse_mask;

	return vpmu_exact_of(e, 0, s) == s ? s : 0;
}

/*
 * Make the counters @mask exact where they are read or written: by a
 * credit where every enabled one among them allows it, else by a settle.
 * Their wraps go into the overflow status, as a settle's do.
 */
static void vpmu_settle_ctrs(struct vpmu_engine *e, u32 mask)
{
	if (!e->ctr.unfolded)
		return;
	mask &= e->ctr.on_mask;	/* (the others count nothing) */
	mask &= ~vpmu_ctrs_credited(e);
	if (!mask)
		return;
	if (vpmu_ctr_creditable(e, mask) != mask)
		vpmu_settle(e);
	else
		e->ctr.ovf |= vpmu_ctr_credit(e, mask);
}

u64 vpmu_engine_event_total(struct vpmu_engine *e, unsigned int event)
{
	u64 t = 0;
	u32 upc;

	if (!e->uc)
		return 0;
	vpmu_settle(e);
	for (upc = 0; upc < e->ncs; upc++)
		t += vpmu_ev_count(e, event, upc, e->mem.tot_cnt[upc],
				   e->mem.tot_dyn[upc], e->mem.tot_tkn[upc]);
	return t;
}

/*
 * The instructions the current program retired, for CTR: its own where
 * programs take turns on the engine, because each brings its count
 * (st.insn_acc) and vpmu_insn_mark() notes where the engine's total
 * (INSNS) stood when it arrived.
 */
u64 vpmu_insn_count(struct vpmu_engine *e)
{
	return e->st.insn_acc + vpmu_engine_event_total(e, VPMU_EV_INSNS) -
	       e->ctr.insn_mark;
}

/*
 * The program arrives on the engine (started or restored), or, @leaving,
 * is about to be saved: its count so far goes into its state.  Only
 * images that read counters pay for it (a fold each time).
 */
void vpmu_insn_mark(struct vpmu_engine *e, bool leaving)
{
	u64 t;

	if (!e->ctr.image_reads)
		return;
	t = vpmu_engine_event_total(e, VPMU_EV_INSNS);
	if (leaving)
		e->st.insn_acc += t - e->ctr.insn_mark;
	e->ctr.insn_mark = t;
}

/*
 * A deferring chunk of @n cycles, @stall of them stall cycles, left its
 * counts in the slots: a uop counts at most one entry a cycle, so u32
 * holds them while fewer than VPMU_CHUNK_MAX cycles are left unfolded
 * before a chunk (of at most as many) runs.  The counters of CYCLES and
 * UOPS that vpmu_plan() planned to the cycle (ctr.x_now) are made exact
 * again: by a credit, or by a settle where one is counted by some slots
 * in use and not others.  Returns the counters that wrapped.
 */
u32 vpmu_defer_done(struct vpmu_engine *e, u64 n, u64 stall)
{
	u32 x = e->ctr.x_now, wrapped = 0;

	e->ctr.unfolded += n;
	e->ctr.unfolded_stall += stall;
	if (x && vpmu_ctr_creditable(e, x) == x)
		wrapped = vpmu_ctr_credit(e, x);
	else if (x)
		wrapped = vpmu_settle_wraps(e);
	if (e->ctr.unfolded >= VPMU_CHUNK_MAX)
		wrapped |= vpmu_settle_wraps(e);
	return wrapped;
}

/*
 * List, for each counter in plan_mask whose event occurs on at most half
 * of the microcode, the microwords that feed it, each with the head of
 * its segment, where vpmu_fold()'s running sum starts: those counters are
 * ctr.sparse_mask, as many as the list holds (a microword per word of
 * mem.sparse_uw), and counter i's run is sparse_at[i], sparse_n[i].
 * Built when the configuration or the ucode changed (vpmu_engine_run()).
 */
void vpmu_sparse_build(struct vpmu_engine *e)
{
	u32 nhit[VPMU_NR_COUNTERS_MAX] = { 0 }, upc, end, head, n = 0;
	u16 m = 0, hm;
	unsigned int i;

	/* (those of CYCLES and UOPS, on every microword, never are) */
	for (hm = e->ctr.plan_mask; hm; hm &= hm - 1) {
		i = __builtin_ctz(hm);
		if (e->ctr.cfg[i].event != VPMU_EV_CYCLES &&
		    e->ctr.cfg[i].event != VPMU_EV_UOPS)
			m |= 1u << i;
	}
	e->ctr.sparse_mask = 0;
	if (!m)
		return;
	for (upc = 0; upc < e->ncs; upc++)
		for (hm = e->mem.ctr_hit[upc] & m; hm; hm &= hm - 1)
			nhit[__builtin_ctz(hm)]++;
	for (i = 0; i < VPMU_NR_COUNTERS_MAX; i++) {
		if (!(m >> i & 1) || nhit[i] > e->ncs / 2 ||
		    nhit[i] > e->mem.words - n)
			continue;
		e->ctr.sparse_mask |= 1u << i;
		e->ctr.sparse_at[i] = n;
		e->ctr.sparse_n[i] = nhit[i];
		for (upc = 0, end = 0, head = 0; upc < e->ncs; upc++) {
			if (upc == end) {
				head = upc;
				end = upc + e->mem.slot[0][upc].seg;
			}
			if (e->mem.ctr_hit[upc] >> i & 1)
				e->mem.sparse_uw[n++] = upc | head << 16;
		}
	}
}

/*
 * Make ctr.grown exact for the counters @mask (of ctr.sparse_mask): what
 * their events grew by in the slots since the last fold, summed as
 * vpmu_fold() will sum it, without folding.  It costs the translations
 * entered since the last drain and the few microwords listed, not the
 * microcode's size.
 */
void vpmu_sparse_exact(struct vpmu_engine *e, u16 mask)
{
	u64 v[VPMU_CLS_NR], t;
	unsigned int s, i;
	u32 k;

	if (e->tc.ntouch)
		vpmu_tc_drain(e);
	for (; mask; mask &= mask - 1) {
		const u32 *w;

		i = __builtin_ctz(mask);
		w = e->mem.sparse_uw + e->ctr.sparse_at[i];
		t = 0;
		for (s = 0; s < e->ctr.nused; s++) {
			const struct vpmu_uop *U = e->mem.slot[s];

			if (!(e->ctr.slot_mask[s] >> i & 1))
				continue;
			for (k = 0; k < e->ctr.sparse_n[i]; k++) {
				u32 upc = w[k] & 0xffff;
				u32 c = vpmu_uw_runs(U, w[k]), dy;

				if (!c)
					continue;
				if (e->ctr.cls[i] == VPMU_CLS_EXEC) {
					t += c;
					continue;
				}
				dy = U[upc].dyn;
				vpmu_cls_values(v, c, dy ?
						vpmu_stall_of(e,
							      &e->uc->dec[upc],
							      dy) : 0,
						dy, U[upc].tkn);
				t += v[e->ctr.cls[i]];
			}
		}
		/* (what credits added is in its value already) */
		if (e->ctr.credited_mask >> i & 1)
			t = t > e->ctr.credited[i] ? t - e->ctr.credited[i] : 0;
		e->ctr.grown[i] = t;
	}
}

/* ---- slots -------------------------------------------------------------- */

void vpmu_slot_reset(struct vpmu_engine *e)
{
	memset(e->ctr.key_slot, 0xff, sizeof(e->ctr.key_slot));
	e->ctr.nused = 0;
	e->ctr.slots_all = ~0u;
	e->ctr.slots_any = 0;
}

/*
 * Where a static toggle by fgroups @g leaves each key of slot @s, or -1 if
 * not known (a key it would reach has no slot yet) or not the same for
 * all of them.
 */
static int vpmu_tgl_dest(const struct vpmu_engine *e, unsigned int s,
			 unsigned int g)
{
	int dest = -1;
	unsigned int k;

	for (k = 0; k < VPMU_NKEYS; k++) {
		u8 t;

		if (e->ctr.key_slot[k] != s)
			continue;
		t = e->ctr.key_slot[k ^ g << 1];
		if (t == 0xff || (dest >= 0 && dest != t))
			return -1;
		dest = t;
	}
	return dest;
}

/*
 * Rewrite the toggle tables of the slots in use (after a key got a slot):
 * each static trigger source's entry, where its toggle is resolved, and a
 * mark's dispatch (TRIG_PC_ADDI_EOI*, the entry in the uop, or TRIG).
 */
static void vpmu_tgl_update(struct vpmu_engine *e)
{
	unsigned int s, g, i;

	for (s = 0; s < e->ctr.nused; s++) {
		s32 *tab = (s32 *)e->mem.slot[s] - VPMU_IDT - 1;
		s32 ent[VPMU_TSRC_FGROUPS + 1];

		for (g = 1; g <= VPMU_TSRC_FGROUPS; g++) {
			int d;

			if (!(e->trig.tsrc_fgroups >> g & 1))
				continue;	/* no fast source reads it */
			d = vpmu_tgl_dest(e, s, g);

			ent[g] = d < 0 ? 0 :
				 (d - (s32)s) * (s32)e->mem.slot_stride | g;
		}
		for (i = 0; i < e->trig.ntsrc; i++) {
			u32 upc = e->mem.tsrc[i];
			u8 tm = e->mem.trig_static[upc];
			struct vpmu_uop *x = &e->mem.slot[s][upc];
			s32 t = tm & VPMU_TSRC_FAST ?
					ent[tm & VPMU_TSRC_FGROUPS] :
					0;

			tab[-(s32)upc] = t;
			if (x->h_fast != VPMU_HANDLER_PC_ADDI_EOI &&
			    x->h_fast != VPMU_HANDLER_PC_ADDI_EOI8 &&
			    x->h_fast != VPMU_HANDLER_PC_ADDI_EOI8H)
				continue;
			/* a mark's shape: resolved, its fused handler runs */
			x->toggle_dist = t & VPMU_TGL_SLOT;
			x->toggle_fgroups = t & VPMU_TGL_FGROUPS;
			/* ...EOI8 fetches on 4-byte boundaries only */
			if (!t)
				x->h_dispatch = VPMU_HANDLER_TRIG;
			else if (x->h_fast == VPMU_HANDLER_PC_ADDI_EOI8)
				x->h_dispatch = VPMU_HANDLER_TRIG_PC_ADDI_EOI8;
			else
				x->h_dispatch = VPMU_HANDLER_TRIG_PC_ADDI_EOI;
			x->h_label = e->lab[x->h_dispatch];
		}
	}
}

/*
 * The slot that counts under @key.  Slots are shared by keys with the same
 * active counters.  When all are taken, everything is folded first (never
 * while a microword's counts are in flight: callers take them out).
 */
unsigned int vpmu_slot_get(struct vpmu_engine *e, unsigned int key)
{
	unsigned int s;
	u32 m;

	if (e->ctr.key_slot[key] != 0xff)
		return e->ctr.key_slot[key];
	m = vpmu_active(e, key);
	for (s = 0; s < e->ctr.nused; s++)
		if (e->ctr.slot_mask[s] == m)
			goto found;
	if (e->ctr.nused == VPMU_NSLOT) {
		e->ctr.wrap_pending = vpmu_fold(e, 0, e->ncs);
		/*
		 * unfolded (and the chunk this may be inside of, which adds
		 * its cycles at its end) would count cycles folded: no
		 * credits till a settle
		 */
		e->ctr.credit_lost = true;
		vpmu_slot_reset(e);
	}
	s = e->ctr.nused++;
	e->ctr.slot_mask[s] = m;
	e->ctr.slots_all &= m;
	e->ctr.slots_any |= m;
found:
	e->ctr.key_slot[key] = s;
	if (e->trig.ntsrc)
		vpmu_tgl_update(e);
	return s;
}

/* ---- the counters' registers -------------------------------------------- */

static int vpmu_ctr_cfg_check(const struct vpmu_ctr_cfg *cfg)
{
	if (vpmu_event_hu_bucket(cfg->event))
		return -EOPNOTSUPP;
	if (!vpmu_event_valid(cfg->event) || cfg->width < 1 ||
	    cfg->width > 64 || cfg->fgroup >= VPMU_NR_FGROUPS_MAX ||
	    cfg->flags & ~(VPMU_CTR_USER | VPMU_CTR_SUPER | VPMU_CTR_INT |
			   VPMU_CTR_FREEZE_ON_OVF))
		return -EINVAL;
	return 0;
}

int vpmu_engine_ctr_config(struct vpmu_engine *e, unsigned int idx,
			   const struct vpmu_ctr_cfg *cfg)
{
	int err;

	if (idx >= VPMU_NR_COUNTERS_MAX)
		return -EINVAL;
	err = cfg ? vpmu_ctr_cfg_check(cfg) : 0;
	if (err)
		return err;
	vpmu_settle(e);
	e->dirty = true;
	e->ctr.on_mask &= ~(1u << idx);
	e->ctr.cyc_mask &= ~(1u << idx);
	e->ctr.uops_mask &= ~(1u << idx);
	if (!cfg) {
		memset(&e->ctr.cfg[idx], 0, sizeof(e->ctr.cfg[idx]));
		return 0;
	}
	e->ctr.cfg[idx] = *cfg;
	e->ctr.cls[idx] = vpmu_ev_cls(cfg->event);
	if (vpmu_ctr_enabled(e, idx))
		e->ctr.on_mask |= 1u << idx;
	if (cfg->event == VPMU_EV_CYCLES)
		e->ctr.cyc_mask |= 1u << idx;
	if (cfg->event == VPMU_EV_UOPS)
		e->ctr.uops_mask |= 1u << idx;
	if (cfg->width < 64)
		e->ctr.val[idx] &= (1ull << cfg->width) - 1;
	return 0;
}

u64 vpmu_engine_ctr_read(struct vpmu_engine *e, unsigned int idx)
{
	if (idx >= VPMU_NR_COUNTERS_MAX)
		return 0;
	vpmu_settle_ctrs(e, 1u << idx);
	return e->ctr.val[idx];
}

void vpmu_engine_ctr_write(struct vpmu_engine *e, unsigned int idx, u64 val)
{
	unsigned int w;

	if (idx >= VPMU_NR_COUNTERS_MAX)
		return;
	vpmu_settle_ctrs(e, 1u << idx);
	w = e->ctr.cfg[idx].width;
	e->ctr.val[idx] = (w && w < 64) ? val & ((1ull << w) - 1) : val;
}

void vpmu_engine_ctr_snapshot(struct vpmu_engine *e, u64 *vals,
			      unsigned int n)
{
	unsigned int i;

	vpmu_settle_ctrs(e, n < VPMU_NR_COUNTERS_MAX ? (1u << n) - 1 : ~0u);
	for (i = 0; i < n && i < VPMU_NR_COUNTERS_MAX; i++)
		vals[i] = e->ctr.val[i];
}

u32 vpmu_engine_ovf_status(struct vpmu_engine *e)
{
	vpmu_settle_ctrs(e, ~0u);
	return e->ctr.ovf;
}

u64 vpmu_engine_ovf_count(struct vpmu_engine *e, unsigned int idx)
{
	if (idx >= VPMU_NR_COUNTERS_MAX)
		return 0;
	vpmu_settle_ctrs(e, 1u << idx);
	return e->ctr.ovf_cnt[idx];
}

void vpmu_engine_ovf_clear(struct vpmu_engine *e, u32 mask)
{
	unsigned int i;

	vpmu_settle_ctrs(e, mask);
	e->ctr.ovf &= ~mask;
	for (i = 0; i < VPMU_NR_COUNTERS_MAX; i++)
		if (mask >> i & 1)
			e->ctr.ovf_cnt[i] = 0;
}

void vpmu_engine_ctr_clear(struct vpmu_engine *e, u32 mask)
{
	unsigned int i;

	vpmu_settle_ctrs(e, mask);
	mask &= (1u << VPMU_NR_COUNTERS_MAX) - 1;
	e->ctr.ovf &= ~mask;
	for (i = 0; i < VPMU_NR_COUNTERS_MAX; i++) {
		if (mask >> i & 1) {
			e->ctr.val[i] = 0;
			e->ctr.ovf_cnt[i] = 0;
		}
	}
}
