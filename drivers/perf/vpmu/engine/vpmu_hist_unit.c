// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hist_unit.c - the histogram unit: windows of its monitoring period,
 * its share of the fold, the write-queue occupancy and address predicates
 * counted in the trigger hook, and its programming interface, a register
 * of the PMU like the others.
 */
#include "vpmu_engine_priv.h"

/* ---- histogram unit ---------------------------------------------------- */

/*
 * The window holding cycle hu_pos of the monitoring period: which entries
 * count in it (by the fold, hu.fact, by occupancy, hu.wact, or in the
 * trigger hook, hu.mact) and how many cycles are left of it (hu.left >=
 * 1).  Past the end of a one-shot period (once), none, for ever: the
 * unit holds until it is set or reset.
 */
static void vpmu_hu_window(struct vpmu_engine *e)
{
	const struct vpmu_hu_prog *p = &e->hu.prog;
	u64 pos = e->hu.pos, s = 0, left = 0xffffffffu;
	u16 act = 0, wq = 0, mem = 0;
	unsigned int i;

	if (p->once && pos >= e->hu.period) {
		e->hu.pos = e->hu.period;
		p = NULL;
	}
	for (i = 0; p && i < p->n; i++) {
		const struct vpmu_hu_entry *x = &p->ent[i];

		if (x->kind == VPMU_HU_WQ)
			wq |= 1u << i;
		if (vpmu_hu_is_mem(x->kind))
			mem |= 1u << i;
		if (p->mode == VPMU_HU_SEQ) {
			if (!act && pos < s + x->period) {
				act = 1u << i;
				left = s + x->period - pos;
			}
			s += x->period;
		} else if (pos < x->period) {
			act |= 1u << i;
			if (left > x->period - pos)
				left = x->period - pos;
		}
	}
	e->hu.left = e->hu.prog.n ? (u32)left : 0;
	e->hu.fact = act & ~wq & ~mem;
	e->hu.wact = act & wq;
	e->hu.mact = act & mem;
}

/* @n (<= hu.left) cycles went by: on to the next window at the end. */
static void vpmu_hu_advance(struct vpmu_engine *e, u64 n)
{
	e->hu.left -= n;
	e->hu.pos += n;
	if (e->hu.left)
		return;
	if (e->hu.pos == e->hu.period && !e->hu.prog.once)
		e->hu.pos = 0;
	vpmu_hu_window(e);
}

/* Start the monitoring period over, buckets zeroed. */
void vpmu_hu_restart(struct vpmu_engine *e)
{
	memset(e->hu.bucket, 0, sizeof(e->hu.bucket));
	e->hu.pos = 0;
	vpmu_hu_window(e);
}

/* Entries (EVENT, UPC) that can count on microword @upc. */
u16 vpmu_hu_hit(const struct vpmu_engine *e, u32 upc)
{
	u16 m = 0;
	unsigned int i;

	for (i = 0; i < e->hu.prog.n; i++) {
		const struct vpmu_hu_entry *x = &e->hu.prog.ent[i];

		if (x->kind == VPMU_HU_EVENT ?
		    vpmu_ev_possible(e, x->event, upc) :
		    x->kind == VPMU_HU_UPC && upc >= x->lo && upc <= x->hi)
			m |= 1u << i;
	}
	return m;
}

/*
 * Cycles t in [@a, @b) whose write-queue occupancy is in [@lo, @hi], for a
 * queue whose newest entry drains at @w and with no entry entering in
 * between.  The entries are those whose drain times w - k * drain are
 * > t (see vpmu_wq_is_full()): occupancy(t) = ceil((w - t) / drain) for
 * t < w, else 0.  It is <= hi iff t >= w - hi * drain, and >= lo >= 1 iff
 * t < w - (lo - 1) * drain.
 */
static u64 vpmu_wq_cycles(const struct vpmu_engine *e, u64 w, u64 a, u64 b,
			  u32 lo, u32 hi)
{
	u64 d = e->dp.wq_drain, from, to = ~0ull;

	from = (u64)hi * d >= w ? 0 : w - (u64)hi * d;
	if (lo)
		to = (u64)(lo - 1) * d >= w ? 0 : w - (u64)(lo - 1) * d;
	if (from < a)
		from = a;
	if (to > b)
		to = b;
	return to > from ? to - from : 0;
}

/*
 * Add the cycles in [@a, @b) to the WQ entries in @m (newest drain @w),
 * unless the unit is gated shut for them.
 */
void vpmu_hu_wq_add(struct vpmu_engine *e, u16 m, u64 w, u64 a, u64 b)
{
	if (!(e->trig.gate_open & VPMU_GATE_HU))
		return;
	while (m) {
		unsigned int i = __builtin_ctz(m);
		const struct vpmu_hu_entry *x = &e->hu.prog.ent[i];

		m &= m - 1;
		e->hu.bucket[i] += vpmu_wq_cycles(e, w, a, b, x->lo, x->hi);
	}
}

/*
 * A routed store entered the queue in its last cycle, trig.hook.now; the
 * queue's newest drain time was trig_wq before it.  Count the occupancy
 * of the cycles up to it (within the window), on from it at the next.
 */
static void vpmu_hu_store(struct vpmu_engine *e)
{
	u64 enq = e->trig.hook.now;

	e->hu.w0 = e->trig.hook.wq;
	if (e->hu.wact)
		vpmu_hu_wq_add(e, e->hu.wact, e->trig.hook.wq, e->hu.acc,
			       enq < e->hu.b ? enq : e->hu.b);
	e->hu.acc = enq;
}

/*
 * A routed load or store of microword @upc ran (a load with @miss misses),
 * at data address trig_maddr, in the window of its first cycle: add one to
 * the address entries counting now that it satisfies.
 */
static VPMU_NOINLINE void vpmu_hu_mem(struct vpmu_engine *e, unsigned int kind, u32 miss)
{
	u32 a = e->trig.hook.maddr;
	u16 m = e->hu.mact;

	while (m) {
		unsigned int i = __builtin_ctz(m);
		const struct vpmu_hu_entry *x = &e->hu.prog.ent[i];
		bool ld = kind & VPMU_K_LOAD;

		m &= m - 1;
		if (a < x->lo || a > x->hi)
			continue;
		switch (x->kind) {
		case VPMU_HU_LOAD:
			e->hu.bucket[i] += ld;
			break;
		case VPMU_HU_HIT:
			e->hu.bucket[i] += ld && !miss;
			break;
		case VPMU_HU_MISS:
			e->hu.bucket[i] += ld && miss;
			break;
		case VPMU_HU_STORE:
			e->hu.bucket[i] += !ld;
			break;
		default:
			e->hu.bucket[i]++;
			break;
		}
	}
}

/* The histogram unit's share of routed microword @upc's hook. */
void vpmu_hu_hook(struct vpmu_engine *e, u32 upc, u32 miss)
{
	unsigned int kind = e->uc->dec[upc].kind;

	if (e->hu.wq && kind & VPMU_K_STORE)
		vpmu_hu_store(e);
	/* counted under the freeze state its microword runs in */
	if (e->hu.mact && kind & e->hu.route &&
	    e->trig.gate_open & VPMU_GATE_HU)
		vpmu_hu_mem(e, kind, miss);
}

/*
 * The cycles [@t, @end) of microword @upc, which fall past the window the
 * chunk ran in (the stall of its last microword), window by window from
 * the next one: per-cycle predicates only, since every other event
 * counted in the window holding the microword's first cycle.  A store's
 * stall cycles come before the cycle in which it enters the queue, its
 * last one (end - 1), so they see the queue before it (hu.w0).
 */
static void vpmu_hu_tail(struct vpmu_engine *e, u32 upc, u64 t, u64 end)
{
	bool store = e->uc->dec[upc].kind & VPMU_K_STORE;
	u64 enq = store ? end - 1 : 0;

	while (t < end) {
		u64 n = end - t < e->hu.left ? end - t : e->hu.left;
		u64 stall = store && enq > t ? (enq - t < n ? enq - t : n) : 0;
		u16 m = e->trig.gate_open & VPMU_GATE_HU ?
			e->hu.fact | e->hu.wact : 0;

		while (m) {
			unsigned int i = __builtin_ctz(m);
			const struct vpmu_hu_entry *x = &e->hu.prog.ent[i];

			m &= m - 1;
			if (x->kind == VPMU_HU_WQ)
				e->hu.bucket[i] +=
					vpmu_wq_cycles(e, e->hu.w0, t,
						       t + stall, x->lo,
						       x->hi) +
					vpmu_wq_cycles(e, e->st.wq_last,
						       t + stall, t + n, x->lo,
						       x->hi);
			else if (x->kind == VPMU_HU_UPC)
				e->hu.bucket[i] +=
					upc >= x->lo && upc <= x->hi ? n : 0;
			else if (x->event == VPMU_EV_CYCLES)
				e->hu.bucket[i] += n;
			else if (x->event == VPMU_EV_WQ_STALL)
				e->hu.bucket[i] += stall;
		}
		vpmu_hu_advance(e, n);
		t += n;
	}
}

/* Before a chunk starting at program cycle @c1. */
void vpmu_hu_chunk_begin(struct vpmu_engine *e, u64 c1)
{
	e->hu.b = c1 + e->hu.left;
	e->hu.acc = c1;
}

/*
 * After a chunk that ran from program cycle @c1 and was folded.  The chunk
 * stopped at the window's end unless its last microword stalled across
 * it: then the fold gave that microword's tail cycles to this window, and
 * they are taken back out and given to the windows they fall in.
 */
void vpmu_hu_chunk_end(struct vpmu_engine *e, u64 c1)
{
	u64 end = e->st.cyc, b = e->hu.b, x;
	u32 upc = e->ctr.last_stall_upc;
	bool store;
	u16 m;

	if (e->hu.wact)
		vpmu_hu_wq_add(e, e->hu.wact, e->st.wq_last, e->hu.acc,
			       end < b ? end : b);
	if (end <= b) {
		vpmu_hu_advance(e, end - c1);
		return;
	}
	x = end - b;
	store = e->uc->dec[upc].kind & VPMU_K_STORE;
	/* the fold gave a gated-shut microword nothing to take back */
	m = e->trig.gate_open & VPMU_GATE_HU ? e->hu.fact : 0;
	while (m) {
		unsigned int i = __builtin_ctz(m);
		const struct vpmu_hu_entry *y = &e->hu.prog.ent[i];

		m &= m - 1;
		if (y->kind == VPMU_HU_UPC)
			e->hu.bucket[i] -= upc >= y->lo && upc <= y->hi ? x : 0;
		else if (y->event == VPMU_EV_CYCLES)
			e->hu.bucket[i] -= x;
		else if (y->event == VPMU_EV_WQ_STALL && store)
			e->hu.bucket[i] -= x - 1;
	}
	vpmu_hu_advance(e, b - c1);
	vpmu_hu_tail(e, upc, b, end);
}

/* ---- programming the histogram unit ------------------------------------- */

/* What an EVENT or UPC entry adds up where it can count (hu_hit). */
static u8 vpmu_hu_cls(const struct vpmu_hu_entry *x)
{
	return x->kind == VPMU_HU_UPC ? VPMU_CLS_CYC : vpmu_ev_cls(x->event);
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
		e->hu.prog = *p;
		for (i = 0; i < p->n; i++) {
			wq |= p->ent[i].kind == VPMU_HU_WQ;
			rt |= route[p->ent[i].kind];
			e->hu.cls[i] = vpmu_hu_cls(&p->ent[i]);
		}
	} else {
		memset(&e->hu.prog, 0, sizeof(e->hu.prog));
	}
	e->hu.period = total;
	e->hu.wq = wq;		/* stores are routed, or no longer */
	e->hu.route = rt;	/* ...and loads */
	e->dirty = true;	/* hu_hit and the routes are rebuilt */
	vpmu_hu_restart(e);
	return 0;
}

void vpmu_engine_hu_read(struct vpmu_engine *e, u64 *c, unsigned int n)
{
	unsigned int i;

	vpmu_settle(e);
	for (i = 0; i < n && i < VPMU_HU_MAX; i++)
		c[i] = e->hu.bucket[i];
}

void vpmu_engine_hu_reset(struct vpmu_engine *e)
{
	vpmu_settle(e);
	vpmu_hu_restart(e);
}
