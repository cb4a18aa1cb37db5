// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_plan.c - planning a run's chunks: how far each may go before a
 * counter that interrupts or freezes on overflow could wrap, whether its
 * counts may stay in the slots (deferred) and what bounds their growth
 * there, and the chunks armed to a wrap, whose translations count the
 * events of the counters near it.
 *
 * Part of the engine of Documentation/admin-guide/perf/vpmu.rst,
 * "Overview", below vpmu_run.c, which runs the chunks it plans;
 * architecture.rst, "How the engine is fast and still exact", says why.
 */
#include "vpmu_engine_priv.h"

/*
 * Does @ev occur at most once per execution of the microwords on which
 * it can occur (vpmu_ev_possible())?  All do but the two that grow by
 * stall cycles.
 */
static bool vpmu_ev_unit(unsigned int ev)
{
	return ev != VPMU_EV_CYCLES && ev != VPMU_EV_WQ_STALL;
}

/* Reach @v at distance @d (breadth-first: the first reach is the least). */
static inline void vpmu_gap_reach(struct vpmu_engine *e, u32 *qt, u32 v,
				  u32 d)
{
	if (e->mem.gap_dist[v] != VPMU_GAP_NONE)
		return;
	e->mem.gap_dist[v] = d;
	e->mem.gap_q[(*qt)++] = v;
}

/*
 * Add the successors of microword @u, at distance @d, to the search.  EOI
 * goes to every ID-table entry and RET to the word after every CALL: all
 * that may follow them, whatever the state.
 */
static void vpmu_gap_succ(struct vpmu_engine *e, u32 *qt, u32 u, u32 d,
			  bool *eoi_done, bool *ret_done)
{
	const struct vpmu_dec *x = &e->uc->dec[u];
	u32 k, n;

	switch (x->seq) {
	case VPMU_SEQ_NEXT:
	case VPMU_SEQ_CTR:
		vpmu_gap_reach(e, qt, u + 1, d);
		break;
	case VPMU_SEQ_BR:
		vpmu_gap_reach(e, qt, u + 1, d);
		fallthrough;
	case VPMU_SEQ_JUMP:
	case VPMU_SEQ_CALL:
		vpmu_gap_reach(e, qt, x->target, d);
		break;
	case VPMU_SEQ_DISP:
		n = 1u << x->cond;
		for (k = 0; k < n && x->target + k < e->ncs; k++)
			vpmu_gap_reach(e, qt, x->target + k, d);
		break;
	case VPMU_SEQ_EOI:
		if (*eoi_done)
			break;
		*eoi_done = true;
		for (k = 0; k <= e->uc->op_mask; k++)
			vpmu_gap_reach(e, qt, e->uc->idtab[k], d);
		break;
	case VPMU_SEQ_RET:
		if (*ret_done)
			break;
		*ret_done = true;
		for (k = 0; k + 1 < e->ncs; k++)
			if (e->uc->dec[k].seq == VPMU_SEQ_CALL)
				vpmu_gap_reach(e, qt, k + 1, d);
		break;
	}
}

/*
 * The least number of microwords from a microword on which @ev can occur
 * to the next one (a path of the flow graph of the ucode, any length
 * >= 1): 1 for CYCLES and WQ_STALL, VPMU_GAP_NONE if it cannot recur.
 * Searched breadth-first from all its microwords at once.
 */
static VPMU_NOINLINE u32 vpmu_ev_gap_search(struct vpmu_engine *e,
					    unsigned int ev)
{
	bool eoi_done = false, ret_done = false;
	u32 qh = 0, qt = 0, u, g = VPMU_GAP_NONE;

	for (u = 0; u < e->ncs; u++)
		e->mem.gap_dist[u] = VPMU_GAP_NONE;
	for (u = 0; u < e->ncs; u++)
		if (vpmu_ev_possible(e, ev, u))
			vpmu_gap_succ(e, &qt, u, 1, &eoi_done, &ret_done);
	while (qh < qt) {
		u = e->mem.gap_q[qh++];
		if (vpmu_ev_possible(e, ev, u)) {
			g = e->mem.gap_dist[u];
			break;
		}
		vpmu_gap_succ(e, &qt, u, e->mem.gap_dist[u] + 1, &eoi_done,
			      &ret_done);
	}
	return g;
}

/* ...computed once per ucode and event */
static inline u32 vpmu_ev_gap(struct vpmu_engine *e, unsigned int ev)
{
	unsigned int idx = ev < VPMU_EV_NR_BASIC ? ev :
			   VPMU_EV_NR_BASIC + ev - VPMU_EV_TAG_BASE - 1;

	if (!vpmu_ev_unit(ev))
		return 1;
	if (!e->ctr.gap[idx])
		e->ctr.gap[idx] = vpmu_ev_gap_search(e, ev);
	return e->ctr.gap[idx];
}

/* The events counter @i may count before it wraps. */
static inline u64 vpmu_ctr_room(const struct vpmu_engine *e, unsigned int i)
{
	const struct vpmu_ctr_cfg *c = &e->ctr.cfg[i];

	if (c->width >= 64)
		return e->ctr.val[i] ? -e->ctr.val[i] : ~0ull;
	return (1ull << c->width) - e->ctr.val[i];
}

/*
 * Of @r, counter @i's room (vpmu_ctr_room()), what is left past what
 * deferred chunks may have added to it (ctr.grown): 1 at least.
 */
static inline u64 vpmu_room_past_grown(const struct vpmu_engine *e,
				       unsigned int i, u64 r)
{
	return r > e->ctr.grown[i] ? r - e->ctr.grown[i] : 1;
}

/* The events counter @i may count before its wrap, less ctr.grown. */
static inline u64 vpmu_ctr_left(const struct vpmu_engine *e, unsigned int i)
{
	return vpmu_room_past_grown(e, i, vpmu_ctr_room(e, i));
}

/*
 * May a step that defers count counter @i's events itself, one event from
 * its wrap or not (vpmu_step_credit()), where its growth in the slots is
 * exact (vpmu_plan() sees to that)?  If it is sparse (its microwords
 * listed), its event is one an execution of each microword that feeds
 * it, and no fold inside a run has taken counts from under the credits.
 * (Whether the slots count it, the step finds out when it has run.)
 */
static bool vpmu_step_counts(const struct vpmu_engine *e, unsigned int i)
{
	return (e->ctr.sparse_mask >> i & 1) &&
	       e->ctr.cls[i] == VPMU_CLS_EXEC &&
	       vpmu_ev_unit(e->ctr.cfg[i].event) && !e->ctr.credit_lost;
}

/*
 * A step that defers and counts the counters one event from their wraps
 * (@cstep, vpmu_plan()): the other sparse ones, all exact (vpmu_plan()),
 * it counts too where it may, which then stay exact.
 */
static void vpmu_step_plan(struct vpmu_engine *e, u16 cstep)
{
	unsigned int i;
	u16 m;

	e->ctr.cstep = cstep;
	e->ctr.cmeasure = cstep;
	for (m = e->ctr.sparse_mask & ~cstep; m; m &= m - 1) {
		i = __builtin_ctz(m);
		if (vpmu_step_counts(e, i))
			e->ctr.cmeasure |= 1u << i;
	}
}

/*
 * How far the next chunk may go (*L), or whether it must be a step of one
 * microword (a counter is one event from its wrap): the counters that
 * interrupt or freeze on overflow must not wrap before its last microword,
 * as far as their values and what deferred chunks may have added to them
 * since the last fold (ctr.grown) tell.  *@defer_len: how far it may go
 * if it defers, when none may wrap even on its last microword however
 * long that stalls: a counter of CYCLES or WQ_STALL keeps dp.stall_max
 * cycles more from its wrap (0: it may not defer); an event that occurs
 * at most once a microword cannot grow by a stall.  *@cut: the counters
 * that shortened either or ask for the step; *@bind: the one whose bound
 * *@defer_len is.  A counter of CYCLES among them (ctr.x_mask) is made
 * exact after every chunk, deferring or not (vpmu_defer_done()), so it
 * bounds both to the cycle, no margin for a stall: it may wrap on a
 * chunk's last microword, which is where the chunk's end finds it; one
 * event from its wrap, it asks for a step (*@xstep) that may defer.
 */
static __always_inline bool vpmu_plan(struct vpmu_engine *e, u64 *L,
				      u64 *defer_len, u16 *cut, u16 *bind,
				      bool *xstep, u16 skip, u16 exact,
				      u16 *cstep)
{
	unsigned int i, m;
	u32 g;

	if (*L > VPMU_CHUNK_MAX)
		*L = VPMU_CHUNK_MAX;
	*defer_len = *L;
	/*
	 * Only an interrupt or a freeze needs to know the microword a counter
	 * wraps on; otherwise the fold wraps it (any number of times), sets
	 * its overflow bit and counts the wraps.
	 */
	for (m = e->ctr.plan_mask & ~skip; m; m &= m - 1) {
		const struct vpmu_ctr_cfg *c;
		u64 r, rd;

		i = __builtin_ctz(m);
		c = &e->ctr.cfg[i];
		r = vpmu_ctr_room(e, i);
		/* (most are: none of the bounds below is shorter than L) */
		if (r > e->ctr.grown[i] + *L + e->dp.stall_max)
			continue;
		if ((e->trig.frozen >> c->fgroup & 1) &&
		    e->trig.toggle[c->fgroup] == VPMU_TRIG_NONE &&
		    e->trig.start[c->fgroup] == VPMU_TRIG_NONE)
			continue;
		if (e->ctr.x_now >> i & 1) {
			if (r - 1 >= *L)
				continue;
			*cut |= 1u << i;
			*L = r - 1;
			if (r <= 1)
				*xstep = true;
			else if (*defer_len > r - 1)
				*defer_len = r - 1;
			continue;
		}
		/* what deferred chunks may have added (vpmu_plan_grow()) */
		r = vpmu_room_past_grown(e, i, r);
		/*
		 * (only where every sparse counter is exact, which it keeps
		 * so; a fold before a step that does not defer makes the
		 * others exact too, and spares their sums)
		 */
		if (r <= 1 && vpmu_step_counts(e, i) &&
		    vpmu_exact_of(e, exact, e->ctr.sparse_mask) ==
		    (exact | e->ctr.sparse_mask)) {
			/* a step that defers, counted (vpmu_step_credit()) */
			*cut |= 1u << i;
			*cstep |= 1u << i;
			*L = 0;
			*xstep = true;
			continue;
		}
		if (r <= 1) {
			*cut |= 1u << i;
			return true;
		}
		g = e->ctr.plan_gap[i];
		if (e->ctr.stall_mask >> i & 1) {
			/* g is 1 */
			rd = r > e->dp.stall_max ? r - e->dp.stall_max : 1;
			if (rd - 1 < *defer_len) {
				*cut |= 1u << i;
				*bind = 1u << i;
				*defer_len = rd - 1;
			}
		} else if (g != VPMU_GAP_NONE && r - 1 <= *defer_len / g) {
			*cut |= 1u << i;
			if (*defer_len > (r - 1) * g) {
				*bind = 1u << i;
				*defer_len = (r - 1) * g;
			}
		}
		if (g == VPMU_GAP_NONE || r - 1 > (g == 1 ? *L : *L / g))
			continue;
		*cut |= 1u << i;
		if (*L > (r - 1) * g)
			*L = (r - 1) * g;
	}
	/* the histogram unit's window: its entries stay the same in a chunk */
	if (e->hu.prog.n && *L > e->hu.left)
		*L = e->hu.left;
	return false;
}

/*
 * Are the counters the translations count (tc.ev_mask) all too far from
 * their wraps to arm a chunk of VPMU_ARM_MAX cycles?  Until they are, their
 * blocks keep counting (a chunk the run's budget cuts shorter than their
 * bounds does not arm, and the next arms again).
 */
static VPMU_NOINLINE bool vpmu_arm_far(const struct vpmu_engine *e)
{
	unsigned int i;
	u16 m;

	for (m = e->tc.ev_mask; m; m &= m - 1) {
		i = __builtin_ctz(m);
		if (vpmu_ctr_left(e, i) - 1 <= VPMU_ARM_MAX / e->ctr.plan_gap[i])
			return false;
	}
	return true;
}

/*
 * The counter of @cut that may arm a chunk (ctr.arm_mask) whose bound cut
 * it to @L, or VPMU_NR_COUNTERS_MAX: (r - 1) * g is L, r its events to
 * the wrap less what they may have grown.
 */
static VPMU_NOINLINE unsigned int vpmu_arm_pick(const struct vpmu_engine *e,
						u16 cut, u64 L)
{
	unsigned int i;

	for (cut &= e->ctr.arm_mask; cut; cut &= cut - 1) {
		i = __builtin_ctz(cut);
		if ((vpmu_ctr_left(e, i) - 1) * e->ctr.plan_gap[i] == L)
			return i;
	}
	return VPMU_NR_COUNTERS_MAX;
}

/*
 * A deferred chunk ran @n cycles: each counter that plans chunks may have
 * grown by at most one event every g microwords (the first at once), or
 * by @n for WQ_STALL (vpmu_defer_done() sees to those of CYCLES); but
 * those it was @armed for (vpmu_arm_grow()).
 */
void vpmu_plan_grow(struct vpmu_engine *e, u64 n, u16 armed)
{
	unsigned int i, m;
	u64 g;

	e->ctr.tight &= armed;
	for (m = e->ctr.plan_mask & ~e->ctr.x_now & ~armed; m; m &= m - 1) {
		i = __builtin_ctz(m);
		g = e->ctr.plan_gap[i];
		e->ctr.grown[i] += g == 1 ? n : (n + g - 1) / g;
	}
}

/*
 * What planning needs of each counter in plan_mask, once per
 * configuration: its event's gap, whether a stall grows it, the
 * microwords of the sparse ones (vpmu_sparse_build()).
 */
void vpmu_plan_setup(struct vpmu_engine *e)
{
	unsigned int i, m;

	e->ctr.stall_mask = 0;
	e->ctr.x_mask = 0;
	e->ctr.xu_mask = 0;
	for (m = e->ctr.plan_mask; m; m &= m - 1) {
		i = __builtin_ctz(m);
		e->ctr.plan_gap[i] = vpmu_ev_gap(e, e->ctr.cfg[i].event);
		if (!vpmu_ev_unit(e->ctr.cfg[i].event))
			e->ctr.stall_mask |= 1u << i;
		if (e->ctr.cfg[i].event == VPMU_EV_CYCLES)
			e->ctr.x_mask |= 1u << i;
		if (e->ctr.cfg[i].event == VPMU_EV_UOPS)
			e->ctr.xu_mask |= 1u << i;
	}
	vpmu_sparse_build(e);
	e->ctr.arm_mask = 0;
	for (m = e->ctr.sparse_mask & ~e->ctr.stall_mask; m; m &= m - 1) {
		i = __builtin_ctz(m);
		if (e->ctr.plan_gap[i] != VPMU_GAP_NONE)
			e->ctr.arm_mask |= 1u << i;
	}
	/* what the translations' blocks counted may feed others now */
	if (e->tc.ev_mask)
		vpmu_tc_ev(e, 0);
}

/*
 * May the next chunk be armed (vpmu_plan_chunk())?  Where it runs
 * translations and nothing else cuts its clock: no trigger source that
 * toggles as it begins (its translated block could not count), no
 * histogram unit, no micro-PC histogram sampling in the loop.
 */
static bool vpmu_arm_ok(const struct vpmu_engine *e)
{
	return e->mem.tc_pool && !e->tc.off && !e->trig.ntsrc &&
	       !e->hu.prog.n && e->uh.interval <= 1;
}

/*
 * A chunk armed (vpmu_plan_chunk()): the counters planned without their
 * bounds (skip), whose events have one gap; the least of those bounds
 * (len); the events each may count (ev[i]).
 */
struct vpmu_arm {
	u16 skip;
	u64 len;
	u64 ev[VPMU_NR_COUNTERS_MAX];
};

/*
 * The chunk planned, *@L cycles long (@step: one microword), without the
 * bounds of the counters @a->skip (@a: NULL, none): armed, where it is
 * longer than the least of those bounds by VPMU_ARM_GAIN.  The
 * interpreter's clock ends at the least bound of those it does not count
 * (all but INSNS: tc.ev_eoi), else at the chunk's end; translations count
 * those counters' events and may run on to the chunk's end
 * (vpmu_tc_exec_armed()).  Else, or if the translations cannot count them
 * (vpmu_tc_ev()), it ends at the least bound.  Returns @step.
 */
static VPMU_NOINLINE bool vpmu_plan_armed(struct vpmu_engine *e, u64 *L,
					  bool step, const struct vpmu_arm *a)
{
	unsigned int k, i;
	u64 len = *L;
	u32 g;
	u16 m;

	if (step || *L <= a->len)
		return step;
	if (*L < VPMU_ARM_GAIN * a->len || a->len > VPMU_ARM_MAX) {
		*L = a->len;
		return false;
	}
	if (a->skip != e->tc.ev_mask && !vpmu_tc_ev(e, a->skip)) {
		vpmu_tc_ev(e, 0);
		*L = a->len;
		return false;
	}
	/*
	 * The interpreter counts INSNS at EOIs where it may enter
	 * translations: no hook runs after the EOI, and its clock has
	 * VPMU_STEP_BELOW cycles or more (every armed counter's bound has
	 * VPMU_ARM_MIN).  Its clock ends at the least bound of the others
	 * (a->ev[i] * g is counter i's: a->len, with all of them).
	 */
	BUILD_BUG_ON(VPMU_ARM_MIN < VPMU_STEP_BELOW);
	g = e->ctr.plan_gap[__builtin_ctz(a->skip)];
	e->tc.ev_eoi = 0;
	for (m = a->skip, k = 0; m; m &= m - 1, k++) {
		i = __builtin_ctz(m);
		e->tc.ev_arm[k] = (u32)a->ev[i];
		e->tc.ev_left[k] = e->tc.ev_arm[k];
		if (e->ctr.cfg[i].event == VPMU_EV_INSNS && !e->tc.eoi_hook)
			e->tc.ev_eoi |= 1u << k;
		else if (len > a->ev[i] * g)
			len = a->ev[i] * g;
	}
	e->tc.ev_gap = g;
	e->tc.ev_t0 = e->st.cyc;
	e->tc.ev_cend = e->st.cyc + *L - 1;
	e->tc.stats.armed++;
	*L = len;
	return false;
}

static __always_inline bool vpmu_plan_arm(struct vpmu_engine *e, u64 *L,
					  bool step, const struct vpmu_arm *a)
{
	if (!a)
		return step;
	return vpmu_plan_armed(e, L, step, a);
}

/*
 * Did the armed chunk that ran count the events of counter @i (its k-th)
 * exactly?  Those of INSNS it did (tc.ev_eoi): the interpreter at each
 * EOI, the translations by block, giving back what a block they left
 * had not run (vpmu_tc_ev_refund()); unless a block took the most any
 * may (tc.ev_over), a slot in use does not count it (it counted EOIs
 * there too), or a fold inside the run (a new slot's) took some.
 */
static bool vpmu_arm_exact(const struct vpmu_engine *e, unsigned int k,
			   unsigned int i)
{
	return (e->tc.ev_eoi >> k & 1) && !e->tc.ev_over &&
	       !e->ctr.credit_lost && (e->ctr.slots_all >> i & 1);
}

/*
 * An armed chunk that defers ran: its counters' growth is what they
 * counted of what they had, which is tight (ctr.tight), and exact where
 * vpmu_arm_exact() says so: credited then, the value exact again as far
 * as it was before the chunk; the others' growth is bounded as
 * vpmu_plan_grow() bounds it.  Returns those counters.
 */
u16 vpmu_arm_grow(struct vpmu_engine *e)
{
	unsigned int k, i;
	u32 n;
	u16 m;

	vpmu_tc_ev_ran(&e->tc, e->st.cyc);
	for (m = e->tc.ev_mask, k = 0; m; m &= m - 1, k++) {
		i = __builtin_ctz(m);
		n = e->tc.ev_arm[k] - e->tc.ev_left[k];
		if (vpmu_arm_exact(e, k, i))
			vpmu_ctr_credit_n(e, i, n);
		else
			e->ctr.grown[i] += n;
	}
	e->ctr.tight |= e->tc.ev_mask;
	return e->tc.ev_mask;
}

/*
 * Plan the next chunk, of at most *@L cycles (vpmu_plan()), and say
 * whether it may leave its counts in the slots (*@defer, if it may defer
 * at all).  With counters that plan chunks it may if none can wrap in it,
 * as far as the growth deferred chunks left unfolded is bounded, even if
 * its last microword stalls the longest a microword can; it is shortened
 * to what none can wrap in.  Where a bound on an event that occurs on few
 * microwords shortens it, the bound is made exact first
 * (vpmu_sparse_exact(): cheaper than a fold), so that chunks near such a
 * counter's wrap defer too; and then the chunk may run on, armed, up to
 * where the other counters bound it (@a, vpmu_plan_arm_from()).  Only a
 * chunk in which a counter may wrap is planned by the counters' exact
 * values after everything is folded.  @exact: the sparse counters whose
 * bound is.  Returns true to step one microword.
 */
static VPMU_NOINLINE bool vpmu_plan_arm_from(struct vpmu_engine *e, u64 *L,
					     bool *defer, u64 want,
					     u16 exact, unsigned int i);

static __always_inline bool vpmu_plan_from(struct vpmu_engine *e, u64 *L,
					   bool *defer, u64 want, u16 exact,
					   struct vpmu_arm *a)
{
	u16 skip = a ? a->skip : 0;
	u64 defer_len;
	u16 cut, bind, cstep;
	bool must, xstep;
	unsigned int i;

	for (;;) {
		*L = want;
		cut = 0;
		bind = 0;
		cstep = 0;
		xstep = false;
		must = vpmu_plan(e, L, &defer_len, &cut, &bind, &xstep, skip,
				 exact, &cstep);
		/*
		 * Where an exact (or tight) bound on the events of a counter
		 * that may arm cuts the chunk, it may run on, armed: planned
		 * without that counter, whose events its translations count
		 * (vpmu_plan_arm()); with it, those of the same gap whose
		 * bounds cut it next.
		 */
		if (unlikely(cut & e->ctr.arm_mask) && !must &&
		    (!a || hweight16(a->skip) < VPMU_TC_EV_MAX)) {
			i = vpmu_arm_pick(e, cut, *L);
			if (i < VPMU_NR_COUNTERS_MAX &&
			    (!e->ctr.unfolded ||
			     ((vpmu_exact_of(e, exact, 1u << i) |
			       e->ctr.tight) >> i & 1))) {
				if (!a && *L >= VPMU_ARM_MIN && vpmu_arm_ok(e))
					return vpmu_plan_arm_from(e, L, defer,
								  want, exact,
								  i);
				if (a && e->ctr.plan_gap[i] ==
				    e->ctr.plan_gap[__builtin_ctz(a->skip)]) {
					/* *L: (r - 1) * g, r to the wrap */
					a->ev[i] = *L / e->ctr.plan_gap[i];
					a->skip |= 1u << i;
					skip = a->skip;
					continue;
				}
			}
		}
		/* the translations count a counter far from its wrap: no more */
		if (e->tc.ev_mask && !must && !((cut | skip) & e->tc.ev_mask) &&
		    vpmu_arm_far(e))
			vpmu_tc_ev(e, 0);
		if (!*defer || !e->ctr.plan_mask)	/* nothing needs a step */
			return vpmu_plan_arm(e, L, !*defer &&
					     (must || xstep ||
					      *L < VPMU_STEP_BELOW), a);
		/*
		 * Not up to where a counter that cannot be made exact
		 * cheaply (WQ_STALL, UOPS where no credit can) bounds it:
		 * the next chunk would settle anyway, and this one would
		 * only add a chunk before its wrap.  (Counters of x_now bind
		 * nothing: they are planned to the cycle, vpmu_plan().)  Nor
		 * up to where a sparse counter's bound does, until that bound
		 * was made exact: the next chunk would make it exact anyway,
		 * after one more chunk before its wrap.  (exact: the sparse
		 * counters whose bound is, which all are while nothing is
		 * unfolded.)
		 */
		if (!must && defer_len >= VPMU_DEFER_MIN &&
		    !(bind & ~vpmu_exact_of(e, exact, bind))) {
			*L = defer_len;
			if (cstep)
				vpmu_step_plan(e, cstep);
			return vpmu_plan_arm(e, L, xstep, a); /* a step that defers */
		}
		cut &= e->ctr.sparse_mask & ~vpmu_exact_of(e, exact, cut);
		if (cut && e->ctr.unfolded) {
			exact |= cut;
			vpmu_sparse_exact(e, cut);
			continue;
		}
		if (!e->ctr.unfolded) {
			/* the values are exact: a counter may wrap in it */
			*defer = false;
			return vpmu_plan_arm(e, L, must || xstep ||
					     *L < VPMU_STEP_BELOW, a);
		}
		vpmu_settle(e);
	}
}

/*
 * vpmu_plan_from() armed: its first counter @i, whose bound is the least,
 * *@L.
 */
static VPMU_NOINLINE bool vpmu_plan_arm_from(struct vpmu_engine *e, u64 *L,
					     bool *defer, u64 want,
					     u16 exact, unsigned int i)
{
	struct vpmu_arm a = { .skip = 1u << i, .len = *L };

	a.ev[i] = *L / e->ctr.plan_gap[i];
	return vpmu_plan_from(e, L, defer, want, exact, &a);
}

bool vpmu_plan_chunk(struct vpmu_engine *e, u64 *L, bool *defer)
{
	/*
	 * Counters of UOPS are planned to the cycle, as those of CYCLES,
	 * where a credit can make them exact after the chunk.  Those that
	 * can be credited only shrink from one settle to the next (slots
	 * are added, credits lost), so each is exact here: a credit made it
	 * so after the chunk before, or a settle did.
	 */
	e->ctr.cstep = 0;
	e->ctr.cmeasure = 0;
	e->ctr.x_now = e->ctr.x_mask;
	if (e->ctr.xu_mask)
		e->ctr.x_now |= vpmu_ctr_creditable(e, e->ctr.xu_mask);
	return vpmu_plan_from(e, L, defer,
			      *L < VPMU_CHUNK_MAX ? *L : VPMU_CHUNK_MAX, 0,
			      NULL);
}
