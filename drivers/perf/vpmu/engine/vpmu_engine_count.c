// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_engine_count.c - counting: the fold of the uops' counts into the
 * counters, the slots that split them by what was counting, trigger
 * toggles and gates, and the PMU hardware's registers (counters, overflow
 * status, freeze bits, triggers, the micro-PC histogram's interval, the
 * histogram unit's program and buckets).  See vpmu_engine_priv.h.
 */
#include "vpmu_engine_priv.h"

/* ---- counting ----------------------------------------------------------- */

bool vpmu_ctr_enabled(const struct vpmu_engine *e, unsigned int i)
{
	return e->cfg[i].flags & (VPMU_CTR_USER | VPMU_CTR_SUPER);
}

/* The units (VPMU_GATE_*) counting under the freeze bits @frozen. */
static unsigned int vpmu_gate_open(const struct vpmu_engine *e,
				   unsigned int frozen)
{
	unsigned int u, open = VPMU_GATE_ALL;

	for (u = 0; u < ARRAY_SIZE(e->gate_fgroups); u++)
		if (e->gate_req >> u & 1 && !(e->gate_fgroups[u] & ~frozen))
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
		const struct vpmu_ctr_cfg *c = &e->cfg[i];

		if (!(c->flags & (mode ? VPMU_CTR_SUPER : VPMU_CTR_USER)))
			continue;
		if (frozen >> c->fgroup & 1)
			continue;
		m |= 1u << i;
	}
	if (unlikely(e->gate_req))
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
	unsigned int w = e->cfg[i].width;
	u64 v = e->ctr[i], nv = v + n, wraps;

	if (w >= 64) {
		e->ctr[i] = nv;
		wraps = nv < v;
	} else {
		/* v < 2^w and n < 2^62 (a chunk's worth): nv cannot overflow */
		e->ctr[i] = nv & ((1ull << w) - 1);
		wraps = nv >> w;
	}
	e->ovf_cnt[i] += wraps;
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
	u64 add[VPMU_NR_COUNTERS_MAX], v[CLS_NR];
	u32 wrapped = e->wrap_pending, end;
	/* micro-PC histogram at K = 1, histogram unit: one test for both */
	bool extra = e->uhist_k == 1 || e->hu_fact;
	u16 any = 0;
	unsigned int s, i;
	u32 upc;

	if (e->tc_ntouch)
		vpmu_tc_drain(e);
	memset(add, 0, sizeof(add));
	for (s = 0; s < e->nused; s++) {
		struct vpmu_uop *U = e->slot[s];
		u16 m = (u16)e->slot_mask[s];
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
			e->tot_cnt[upc] += c;
			e->tot_dyn[upc] += dy;
			e->tot_tkn[upc] += tk;
			stall = dy ? vpmu_stall_of(e, &e->uc->dec[upc], dy) : 0;
			/* ...for the units the slot feeds (vpmu_gate_open()) */
			if (unlikely(extra)) {
				u32 sm = e->slot_mask[s];

				if (e->uhist_k == 1 && !(sm & VPMU_SLOT_UH))
					e->uhist[upc] += c + stall;
				if (!(sm & VPMU_SLOT_HU))
					vpmu_hu_fold(e, e->hu_fact &
						     e->hu_hit[upc], c, stall,
						     dy, tk);
			}
			hm = m & e->ctr_hit[upc];
			if (!hm)
				continue;
			any |= hm;
			vpmu_cls_values(v, c, stall, dy, tk);
			while (hm) {
				i = __builtin_ctz(hm);
				hm &= hm - 1;
				add[i] += v[e->ctr_cls[i]];
			}
		}
	}
	while (any) {
		i = __builtin_ctz(any);
		any &= any - 1;
		if (add[i] && vpmu_ctr_add(e, i, add[i]))
			wrapped |= 1u << i;
	}
	e->wrap_pending = 0;
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
	if (!e->unfolded)
		return;
	e->ovf |= vpmu_fold(e, 0, e->ncs);
	e->unfolded = 0;
}

u64 vpmu_engine_event_total(struct vpmu_engine *e, unsigned int event)
{
	u64 t = 0;
	u32 upc;

	if (!e->uc)
		return 0;
	vpmu_settle(e);
	for (upc = 0; upc < e->ncs; upc++)
		t += vpmu_ev_count(e, event, upc, e->tot_cnt[upc],
				   e->tot_dyn[upc], e->tot_tkn[upc]);
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
	       e->insn_mark;
}

/*
 * The program arrives on the engine (started or restored), or, @leaving,
 * is about to be saved: its count so far goes into its state.  Only
 * images that read counters pay for it (a fold each time).
 */
void vpmu_insn_mark(struct vpmu_engine *e, bool leaving)
{
	u64 t;

	if (!e->has_ctr)
		return;
	t = vpmu_engine_event_total(e, VPMU_EV_INSNS);
	if (leaving)
		e->st.insn_acc += t - e->insn_mark;
	e->insn_mark = t;
}

void vpmu_slot_reset(struct vpmu_engine *e)
{
	memset(e->key_slot, 0xff, sizeof(e->key_slot));
	e->nused = 0;
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

		if (e->key_slot[k] != s)
			continue;
		t = e->key_slot[k ^ g << 1];
		if (t == 0xff || (dest >= 0 && dest != t))
			return -1;
		dest = t;
	}
	return dest;
}

/*
 * Rewrite the toggle tables of the slots in use (after a key got a slot):
 * each static trigger source's entry, where its toggle is resolved, and a
 * mark's dispatch (H_TPI*, the entry in the uop, or H_TRIG).
 */
static void vpmu_tgl_update(struct vpmu_engine *e)
{
	unsigned int s, g, i;

	for (s = 0; s < e->nused; s++) {
		s32 *tab = (s32 *)e->slot[s] - VPMU_IDT - 1;
		s32 ent[TRIG_FGROUPS + 1];

		for (g = 1; g <= TRIG_FGROUPS; g++) {
			int d;

			if (!(e->tsrc_fgroups >> g & 1))
				continue;	/* no fast source reads it */
			d = vpmu_tgl_dest(e, s, g);

			ent[g] = d < 0 ? 0 :
				 (d - (s32)s) * (s32)e->slot_stride | g;
		}
		for (i = 0; i < e->ntsrc; i++) {
			u32 upc = e->tsrc[i];
			u8 tm = e->trig_static[upc];
			struct vpmu_uop *x = &e->slot[s][upc];
			s32 t = tm & TRIG_FAST ? ent[tm & TRIG_FGROUPS] : 0;

			tab[-(s32)upc] = t;
			if (x->h_fast != H_PI && x->h_fast != H_PI0 &&
			    x->h_fast != H_PI0H)
				continue;
			/* a mark's shape: resolved, its fused handler runs */
			x->toggle_dist = t & TGL_SLOT;
			x->toggle_fgroups = t & TGL_FGROUPS;
			/* TPI0 fetches on 4-byte boundaries only (PI0's) */
			x->h_dispatch = !t ? H_TRIG : x->h_fast == H_PI0 ? H_TPI0 : H_TPI;
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

	if (e->key_slot[key] != 0xff)
		return e->key_slot[key];
	m = vpmu_active(e, key);
	for (s = 0; s < e->nused; s++)
		if (e->slot_mask[s] == m)
			goto found;
	if (e->nused == VPMU_NSLOT) {
		e->wrap_pending = vpmu_fold(e, 0, e->ncs);
		vpmu_slot_reset(e);
	}
	s = e->nused++;
	e->slot_mask[s] = m;
found:
	e->key_slot[key] = s;
	if (e->ntsrc)
		vpmu_tgl_update(e);
	return s;
}

/*
 * A deferring chunk of @n cycles left its counts in the slots: a uop counts
 * at most one entry a cycle, so u32 holds them while fewer than
 * VPMU_CHUNK_MAX cycles are left unfolded before a chunk (of at most as
 * many) runs.
 */
void vpmu_defer_add(struct vpmu_engine *e, u64 n)
{
	e->unfolded += n;
	if (e->unfolded >= VPMU_CHUNK_MAX)
		vpmu_settle(e);
}

/*
 * Does @trigger depend on what a microword on which it can occur does
 * (taken or not, hit or miss, stalled or not)?  The others occur on every
 * execution of those microwords.
 */
bool vpmu_trig_dynamic(u16 trigger)
{
	switch (trigger) {
	case VPMU_EV_CYCLES:
	case VPMU_EV_UBR_TAKEN:
	case VPMU_EV_DC_HIT:
	case VPMU_EV_DC_MISS:
	case VPMU_EV_WQ_STALL:
		return true;
	}
	return false;
}

/* Does @trigger occur on the microword just executed? */
static bool vpmu_trig_occurs(const struct vpmu_engine *e, u16 trigger,
			     u32 upc, u32 ddyn, u32 dtkn)
{
	if (trigger == VPMU_TRIG_MARK)
		return e->uc->dec[upc].kind & VPMU_K_TRIG;
	/* none, or a counter's wrap (vpmu_ovf_trig()) */
	if (trigger >= VPMU_TRIG_OVF(0))
		return false;
	return vpmu_ev_count(e, trigger, upc, 1, ddyn, dtkn) != 0;
}

/*
 * The freeze groups that change on microword @upc: those whose toggle
 * occurs, frozen ones whose start occurs and running ones whose stop
 * does.
 */
static unsigned int vpmu_trig_changes(const struct vpmu_engine *e, u32 upc,
				      u32 ddyn, u32 dtkn)
{
	unsigned int g, ch = 0;

	for (g = 0; g < VPMU_NR_FGROUPS_MAX; g++) {
		u16 se = e->frozen >> g & 1 ? e->trig_on[g] : e->trig_off[g];

		if (vpmu_trig_occurs(e, e->trig[g], upc, ddyn, dtkn) ||
		    vpmu_trig_occurs(e, se, upc, ddyn, dtkn))
			ch |= 1u << g;
	}
	return ch;
}

/*
 * The gated units as of the freeze bits now.  Every change of the bits
 * outside a chunk calls this (vpmu_gate_resync()); in a chunk, the
 * toggles of gating fgroups go through vpmu_gate_post().
 */
void vpmu_gate_sync(struct vpmu_engine *e)
{
	e->gate_open = vpmu_gate_open(e, e->frozen);
	e->uhist_to = e->gate_open & VPMU_GATE_UHIST ? e->uhist : e->uhist_sink;
}

/* The gates again, if any unit is gated (a freeze bit changed). */
void vpmu_gate_resync(struct vpmu_engine *e)
{
	if (unlikely(e->gate_req))
		vpmu_gate_sync(e);
}

/*
 * Microword @upc (memory count @ddyn) toggled freeze groups to @nf, maybe
 * opening or shutting gated units from its own cycles on (its first: the
 * hooked microword's last, hook_now, less its stall).  The fold splits
 * its counts by slot; here go what is counted by time: samples at K > 1
 * (one taken in its first cycle, before it ran, moves to where that cycle
 * now belongs) and write-queue occupancy up to its first cycle, under the
 * state before it.
 */
static void vpmu_gate_post(struct vpmu_engine *e, u32 upc, u32 ddyn,
			   unsigned int nf)
{
	struct vpmu_usample *us = &e->us;
	unsigned int open = vpmu_gate_open(e, nf);
	u64 first = e->hook_now - vpmu_stall_of(e, &e->uc->dec[upc], ddyn);

	if ((open ^ e->gate_open) & VPMU_GATE_UHIST) {
		u64 *to = open & VPMU_GATE_UHIST ? e->uhist : e->uhist_sink;

		if (us->k && us->last && us->next - us->k == first) {
			(*us->last)--;
			us->last = &to[upc];
			(*us->last)++;
		}
		e->uhist_to = to;
	}
	if ((open ^ e->gate_open) & VPMU_GATE_HU && e->hu_wact) {
		vpmu_hu_wq_add(e, e->hu_wact, e->trig_wq, e->hu_acc, first);
		e->hu_acc = first;
	}
	e->gate_open = open;
}

/*
 * After a microword with hooks: toggle freeze groups whose trigger occurred
 * (moving the microword's counts to where they now belong: the toggle takes
 * effect before its events are counted), then apply a mode change.
 */
void vpmu_hook_post(struct vpmu_engine *e, unsigned int hook)
{
	unsigned int toggles;

	if (hook & HOOK_TRIG) {
		struct vpmu_uop *x = e->trig_u;
		u32 upc = x->upc, ddyn = x->dyn - e->trig_dyn;
		u32 dtkn = x->tkn - e->trig_tkn;

		toggles = vpmu_trig_changes(e, upc, ddyn, dtkn);
		if (unlikely(toggles && e->gate_req))
			vpmu_gate_post(e, upc, ddyn, e->frozen ^ toggles);
		if (unlikely(e->hu_route))
			vpmu_hu_hook(e, upc, ddyn);
		if (toggles) {
			unsigned int s;
			struct vpmu_uop *y;

			x->cnt -= 1;
			x->dyn -= ddyn;
			x->tkn -= dtkn;
			e->frozen ^= toggles;
			s = vpmu_slot_get(e, vpmu_key(e->trig_mode, e->frozen));
			y = &e->slot[s][upc];
			y->cnt += 1;
			y->dyn += ddyn;
			y->tkn += dtkn;
		}
	}
	if (hook & HOOK_MODE)
		e->st.mode = e->st.mode_next;
	e->cur = vpmu_slot_get(e, vpmu_key(e->st.mode, e->frozen));
}

/*
 * Any trigger set?  And into ovf_src, the counters whose wrap is one.
 * Inlined: vpmu_prepare() runs at every run's start.
 */
bool vpmu_trig_any(struct vpmu_engine *e)
{
	unsigned int g, k;
	bool any = false;

	e->ovf_src = 0;
	for (g = 0; g < VPMU_NR_FGROUPS_MAX; g++) {
		const u16 t[3] = { e->trig[g], e->trig_on[g], e->trig_off[g] };

		for (k = 0; k < 3; k++) {
			if (t[k] != VPMU_TRIG_NONE)
				any = true;
			if (VPMU_TRIG_IS_OVF(t[k]))
				e->ovf_src |= 1u << (t[k] - VPMU_TRIG_OVF(0));
		}
	}
	return any;
}

/* ---- PMU hardware ------------------------------------------------------- */

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
	if (!cfg) {
		memset(&e->cfg[idx], 0, sizeof(e->cfg[idx]));
		return 0;
	}
	e->cfg[idx] = *cfg;
	e->ctr_cls[idx] = vpmu_ev_cls(cfg->event);
	if (cfg->width < 64)
		e->ctr[idx] &= (1ull << cfg->width) - 1;
	return 0;
}

u64 vpmu_engine_ctr_read(struct vpmu_engine *e, unsigned int idx)
{
	vpmu_settle(e);
	return idx < VPMU_NR_COUNTERS_MAX ? e->ctr[idx] : 0;
}

void vpmu_engine_ctr_write(struct vpmu_engine *e, unsigned int idx, u64 val)
{
	unsigned int w;

	if (idx >= VPMU_NR_COUNTERS_MAX)
		return;
	vpmu_settle(e);
	w = e->cfg[idx].width;
	e->ctr[idx] = (w && w < 64) ? val & ((1ull << w) - 1) : val;
}

void vpmu_engine_ctr_snapshot(struct vpmu_engine *e, u64 *vals,
			      unsigned int n)
{
	unsigned int i;

	vpmu_settle(e);
	for (i = 0; i < n && i < VPMU_NR_COUNTERS_MAX; i++)
		vals[i] = e->ctr[i];
}

u32 vpmu_engine_ovf_status(struct vpmu_engine *e)
{
	vpmu_settle(e);
	return e->ovf;
}

u64 vpmu_engine_ovf_count(struct vpmu_engine *e, unsigned int idx)
{
	vpmu_settle(e);
	return idx < VPMU_NR_COUNTERS_MAX ? e->ovf_cnt[idx] : 0;
}

void vpmu_engine_ovf_clear(struct vpmu_engine *e, u32 mask)
{
	unsigned int i;

	vpmu_settle(e);
	e->ovf &= ~mask;
	for (i = 0; i < VPMU_NR_COUNTERS_MAX; i++)
		if (mask >> i & 1)
			e->ovf_cnt[i] = 0;
}

void vpmu_engine_ctr_clear(struct vpmu_engine *e, u32 mask)
{
	unsigned int i;

	vpmu_settle(e);
	mask &= (1u << VPMU_NR_COUNTERS_MAX) - 1;
	e->ovf &= ~mask;
	for (i = 0; i < VPMU_NR_COUNTERS_MAX; i++) {
		if (mask >> i & 1) {
			e->ctr[i] = 0;
			e->ovf_cnt[i] = 0;
		}
	}
}

void vpmu_engine_snapshot(struct vpmu_engine *e, struct vpmu_engine_snap *s,
			  u32 clear)
{
	vpmu_settle(e);
	memset(s, 0, sizeof(*s));
	s->cycles = e->st.cyc;
	s->ovf = e->ovf;
	s->frozen = e->frozen;
	/*
	 * ovf_src from the triggers as they are: what the next run's
	 * vpmu_prepare() computes if they changed (dirty), the same if not.
	 */
	vpmu_trig_any(e);
	s->trig_ovf = e->ovf_src;
	memcpy(s->cfg, e->cfg, sizeof(s->cfg));
	memcpy(s->ctr, e->ctr, sizeof(s->ctr));
	memcpy(s->ovf_cnt, e->ovf_cnt, sizeof(s->ovf_cnt));
	if (clear)
		vpmu_engine_ctr_clear(e, clear);
}

void vpmu_engine_freeze(struct vpmu_engine *e, unsigned int fgroup,
			bool frozen)
{
	if (fgroup >= VPMU_NR_FGROUPS_MAX)
		return;
	vpmu_settle(e);
	if (frozen)
		e->frozen |= 1u << fgroup;
	else
		e->frozen &= ~(1u << fgroup);
	vpmu_gate_resync(e);
}

/* 0 if @trigger may be a freeze group's trigger, or the errno it is refused with. */
static int vpmu_trig_check(u16 trigger)
{
	if (vpmu_event_hu_bucket(trigger))
		return -EOPNOTSUPP;
	if (trigger != VPMU_TRIG_NONE && trigger != VPMU_TRIG_MARK &&
	    !VPMU_TRIG_IS_OVF(trigger) && !vpmu_event_valid(trigger))
		return -EINVAL;
	return 0;
}

int vpmu_engine_fgroup_trigger(struct vpmu_engine *e, unsigned int fgroup,
			       u16 trigger)
{
	int ret = vpmu_trig_check(trigger);

	if (fgroup >= VPMU_NR_FGROUPS_MAX)
		return -EINVAL;
	if (ret)
		return ret;
	vpmu_settle(e);
	e->trig[fgroup] = trigger;
	e->dirty = true;
	return 0;
}

int vpmu_engine_fgroup_start_stop(struct vpmu_engine *e, unsigned int fgroup,
				  u16 start, u16 stop)
{
	int ret = vpmu_trig_check(start);

	if (fgroup >= VPMU_NR_FGROUPS_MAX)
		return -EINVAL;
	if (!ret)
		ret = vpmu_trig_check(stop);
	if (ret)
		return ret;
	vpmu_settle(e);
	e->trig_on[fgroup] = start;
	e->trig_off[fgroup] = stop;
	e->dirty = true;
	return 0;
}

bool vpmu_engine_frozen(const struct vpmu_engine *e, unsigned int fgroup)
{
	return fgroup < VPMU_NR_FGROUPS_MAX && (e->frozen >> fgroup & 1);
}

/* New gating: slots count under other states, sources route anew. */
static void vpmu_gate_update(struct vpmu_engine *e)
{
	unsigned int u;

	e->gate_req = e->gate_closed;
	for (u = 0; u < ARRAY_SIZE(e->gate_fgroups); u++)
		if (e->gate_fgroups[u])
			e->gate_req |= 1u << u;
	e->dirty = true;
	vpmu_gate_sync(e);
}

int vpmu_engine_fgroup_gate(struct vpmu_engine *e, unsigned int fgroup,
			    unsigned int units)
{
	u8 fgroups[ARRAY_SIZE(e->gate_fgroups)];
	unsigned int u;

	if (!fgroup || fgroup >= VPMU_NR_FGROUPS_MAX || units & ~VPMU_GATE_ALL)
		return -EINVAL;
	for (u = 0; u < ARRAY_SIZE(fgroups); u++) {
		fgroups[u] = e->gate_fgroups[u] & ~(1u << fgroup);
		if (units >> u & 1)
			fgroups[u] |= 1u << fgroup;
	}
	if (!memcmp(fgroups, e->gate_fgroups, sizeof(fgroups)))
		return 0;	/* as it was: nothing to settle or rebuild */
	vpmu_settle(e);
	memcpy(e->gate_fgroups, fgroups, sizeof(fgroups));
	vpmu_gate_update(e);
	return 0;
}

int vpmu_engine_gate_closed(struct vpmu_engine *e, unsigned int units)
{
	if (units & ~VPMU_GATE_ALL)
		return -EINVAL;
	if (units == e->gate_closed)
		return 0;
	vpmu_settle(e);
	e->gate_closed = units;
	vpmu_gate_update(e);
	return 0;
}

void vpmu_engine_uhist_set(struct vpmu_engine *e, u32 interval)
{
	vpmu_settle(e);
	e->uhist_k = interval;
	e->uhist_left = interval ? interval - 1 : 0;
}

const u64 *vpmu_engine_uhist(struct vpmu_engine *e, u32 *nbuckets)
{
	vpmu_settle(e);
	if (nbuckets)
		*nbuckets = e->uc ? e->ncs : 0;
	return e->uc ? e->uhist : NULL;
}

void vpmu_engine_uhist_reset(struct vpmu_engine *e)
{
	vpmu_settle(e);
	if (e->uhist)
		memset(e->uhist, 0, sizeof(u64) * e->ncs);
	e->uhist_left = e->uhist_k ? e->uhist_k - 1 : 0;
}

/* ---- programming the histogram unit ------------------------------------- */

/* What an EVENT or UPC entry adds up where it can count (hu_hit). */
static u8 vpmu_hu_cls(const struct vpmu_hu_entry *x)
{
	return x->kind == VPMU_HU_UPC ? CLS_CYC : vpmu_ev_cls(x->event);
}

static int vpmu_hu_check(const struct vpmu_hu_prog *p, u32 *total)
{
	u64 t = 0;
	unsigned int i;

	if (p->mode != VPMU_HU_SEQ && p->mode != VPMU_HU_PAR)
		return -EINVAL;
	if (p->once > 1)
		return -EINVAL;
	if (p->n < 1 || p->n > VPMU_HU_MAX)
		return -EINVAL;
	for (i = 0; i < p->n; i++) {
		const struct vpmu_hu_entry *x = &p->ent[i];

		switch (x->kind) {
		case VPMU_HU_EVENT:
			if (!vpmu_event_valid(x->event))
				return -EINVAL;
			break;
		default:
			if (x->kind >= VPMU_HU_NKINDS || x->lo > x->hi)
				return -EINVAL;
			break;
		}
		if (!x->period)
			return -EINVAL;
		if (p->mode == VPMU_HU_SEQ)
			t += x->period;
		else if (t < x->period)
			t = x->period;
	}
	if (t > 0xffffffffu)
		return -EINVAL;
	*total = (u32)t;
	return 0;
}

int vpmu_engine_hu_set(struct vpmu_engine *e, const struct vpmu_hu_prog *p)
{
	/* what each kind routes through the trigger hook */
	static const u8 route[VPMU_HU_NKINDS] = {
		[VPMU_HU_WQ] = VPMU_K_STORE,
		[VPMU_HU_LOAD] = VPMU_K_LOAD,
		[VPMU_HU_HIT] = VPMU_K_LOAD,
		[VPMU_HU_MISS] = VPMU_K_LOAD,
		[VPMU_HU_STORE] = VPMU_K_STORE,
		[VPMU_HU_ACCESS] = VPMU_K_LOAD | VPMU_K_STORE,
	};
	u32 total = 0;
	bool wq = false;
	u8 rt = 0;
	unsigned int i;
	int err;

	err = p ? vpmu_hu_check(p, &total) : 0;
	if (err)
		return err;
	vpmu_settle(e);
	if (p) {
		e->hu = *p;
		for (i = 0; i < p->n; i++) {
			wq |= p->ent[i].kind == VPMU_HU_WQ;
			rt |= route[p->ent[i].kind];
			e->hu_cls[i] = vpmu_hu_cls(&p->ent[i]);
		}
	} else {
		memset(&e->hu, 0, sizeof(e->hu));
	}
	e->hu_total = total;
	e->hu_wq = wq;		/* stores are routed, or no longer */
	e->hu_route = rt;	/* ...and loads */
	e->dirty = true;	/* hu_hit and the routes are rebuilt */
	vpmu_hu_restart(e);
	return 0;
}

void vpmu_engine_hu_read(struct vpmu_engine *e, u64 *c, unsigned int n)
{
	unsigned int i;

	vpmu_settle(e);
	for (i = 0; i < n && i < VPMU_HU_MAX; i++)
		c[i] = e->hu_c[i];
}

void vpmu_engine_hu_reset(struct vpmu_engine *e)
{
	vpmu_settle(e);
	vpmu_hu_restart(e);
}
