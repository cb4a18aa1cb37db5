// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_run.c - the microcoded processor and its PMU hardware:
 * runs and their chunks, lifetime, programs and their contexts, state.
 * The top of the engine's files: the others are below it.
 *
 * Implements the engine of Documentation/admin-guide/perf/vpmu.rst,
 * "Overview".  Portable C: built into the module and as host C for tests,
 * benchmarks and fuzzing.  How the engine is fast and still exact, and
 * which file holds what, is in vpmu_engine_priv.h.
 */
#include "vpmu_engine_priv.h"

/* ---- running ------------------------------------------------------------ */

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
 * @exact, the sparse counters whose growth in the slots ctr.grown is
 * exactly (vpmu_sparse_exact()), and of @mask those that have grown by
 * nothing the slots hold but what credits added (vpmu_arm_grow(),
 * vpmu_step_credit()): every chunk that ran and did not credit one left
 * its ctr.grown 1 at least.
 */
static u16 vpmu_exact_of(const struct vpmu_engine *e, u16 exact, u16 mask)
{
	for (mask &= e->ctr.sparse_mask & ~exact; mask; mask &= mask - 1)
		if (!e->ctr.grown[__builtin_ctz(mask)])
			exact |= mask & -mask;
	return exact;
}

/*
 * May a step that defers count counter @i's events itself, one event from
 * its wrap or not (vpmu_step_credit())?  It is sparse (its microwords
 * listed); its growth in the slots is exact (vpmu_exact_of()); its
 * event is one an execution of each microword that feeds it; and no fold
 * inside a run has taken counts from under the credits.  (Whether the
 * slots count it, the step finds out when it has run.)
 */
static bool vpmu_step_counts(const struct vpmu_engine *e, unsigned int i,
			     u16 exact)
{
	return (vpmu_exact_of(e, exact, 1u << i) >> i & 1) &&
	       e->ctr.cls[i] == VPMU_CLS_EXEC &&
	       vpmu_ev_unit(e->ctr.cfg[i].event) && !e->ctr.credit_lost;
}

/*
 * A step that defers and counts the counters one event from their wraps
 * (@cstep, vpmu_plan()): the other sparse ones whose growth is exact
 * (@exact; all are, vpmu_plan()) it counts too, which then stay exact.
 */
static void vpmu_step_plan(struct vpmu_engine *e, u16 exact, u16 cstep)
{
	unsigned int i;
	u16 m;

	e->ctr.cstep = cstep;
	e->ctr.cmeasure = cstep;
	for (m = e->ctr.sparse_mask & ~cstep; m; m &= m - 1) {
		i = __builtin_ctz(m);
		if (vpmu_step_counts(e, i, exact))
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
		if (r <= 1 && vpmu_step_counts(e, i, exact) &&
		    !(e->ctr.sparse_mask &
		      ~vpmu_exact_of(e, exact, e->ctr.sparse_mask))) {
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
static void vpmu_plan_grow(struct vpmu_engine *e, u64 n, u16 armed)
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
static void vpmu_plan_setup(struct vpmu_engine *e)
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
static u16 vpmu_arm_grow(struct vpmu_engine *e)
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
				vpmu_step_plan(e, exact, cstep);
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

static bool vpmu_plan_chunk(struct vpmu_engine *e, u64 *L, bool *defer)
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

static void vpmu_fill_stop(struct vpmu_engine *e, struct vpmu_stop *stop,
			   int x)
{
	switch (x) {
	case VPMU_INTERP_HALT:
		stop->reason = VPMU_STOP_HALT;
		break;
	case VPMU_INTERP_TRAP:
		stop->reason = VPMU_STOP_TRAP;
		stop->code = e->uc->dec[e->st.upc].target;
		break;
	default:
		stop->reason = VPMU_STOP_FAULT;
		stop->code = e->st.fault_kind;
		stop->addr = e->st.fault_addr;
		break;
	}
	stop->upc = e->st.upc;
	stop->ipc = e->mem.R[VPMU_RF_IPC];
}

/*
 * A CTR microword ended the chunk (VPMU_INTERP_CTR): the counter its
 * result selected goes into its destination (vpmu_isa.h), and the
 * program goes on after it.  Everything is folded here, so the value is exact.
 */
static void vpmu_ctr_serve(struct vpmu_engine *e)
{
	u32 upc = e->st.upc;
	unsigned int r = e->mem.reg_of[e->mem.slot[0][upc].d];
	u32 sel = e->mem.R[r];
	unsigned int i = sel & VPMU_CTR_SEL_MASK;
	u64 v = 0;

	if (i == VPMU_CTR_SEL_CYCLES || i == VPMU_CTR_SEL_TIME) {
		v = e->st.cyc;
	} else if (i == VPMU_CTR_SEL_INSNS) {
		v = vpmu_insn_count(e);
	} else if (i - VPMU_CTR_SEL_PMU < VPMU_NR_COUNTERS_MAX) {
		i -= VPMU_CTR_SEL_PMU;
		vpmu_settle(e);
		if (vpmu_ctr_enabled(e, i))
			v = e->ctr.val[i];
	}
	if (r != VPMU_RF_SINK) {
		e->mem.R[r] = sel & VPMU_CTR_SEL_HIGH ? (u32)(v >> 32) : (u32)v;
		e->mem.R[e->dp.zero_idx] = 0;
	}
	e->st.upc = upc + 1;
}

/*
 * Counters @wr, trigger sources, wrapped (after freeze on overflow took
 * effect): in counter order, the fgroups whose trigger each is change.
 */
static void vpmu_ovf_trig(struct vpmu_engine *e, u32 wr)
{
	unsigned int g;
	u16 t;

	for (; wr; wr &= wr - 1) {
		t = VPMU_TRIG_OVF(__builtin_ctz(wr));
		for (g = 0; g < VPMU_NR_FGROUPS_MAX; g++)
			if (e->trig.toggle[g] == t ||
			    (e->trig.frozen >> g & 1 ? e->trig.start[g] :
			     e->trig.stop[g]) == t)
				e->trig.frozen ^= 1u << g;
	}
	vpmu_gate_resync(e);
}

/*
 * Counters @wr wrapped in the chunk that ended with @x: those that freeze
 * on overflow freeze their fgroups; if any interrupts, the run stops with
 * OVERFLOW on the microword @upc (@ipc) they wrapped on, and a HALT or
 * TRAP the chunk also reached waits, sticky, for the next run.  Returns
 * true if the run stops.
 */
static bool vpmu_overflow(struct vpmu_engine *e, u32 wr, int x,
			  struct vpmu_stop *stop, u32 upc, u32 ipc)
{
	u32 irq = wr & e->ctr.int_mask, m;

	e->ctr.ovf |= wr;
	for (m = wr & e->ctr.fovf_mask; m; m &= m - 1) {
		e->trig.frozen |= 1u << e->ctr.cfg[__builtin_ctz(m)].fgroup;
		vpmu_gate_resync(e);
	}
	if (unlikely(wr & e->trig.ovf_src))
		vpmu_ovf_trig(e, wr & e->trig.ovf_src);
	if (!irq)
		return false;
	if (x == VPMU_INTERP_HALT || x == VPMU_INTERP_TRAP) {
		e->st.sticky = true;
		e->st.sticky_stop = *stop;
	}
	memset(stop, 0, sizeof(*stop));
	stop->reason = VPMU_STOP_OVERFLOW;
	stop->upc = upc;
	stop->ipc = ipc;
	stop->ovf = wr;
	return true;
}

/*
 * The executions of microword @upc the slots in use hold, summed as
 * vpmu_fold() sums them (from its segment's head), into @ran[i] for each
 * counter i of ctr.cmeasure that it feeds.
 */
static void vpmu_step_runs(const struct vpmu_engine *e, u32 upc, u64 *ran)
{
	unsigned int i, s;
	u32 k, h;
	u16 m;

	for (m = e->ctr.cmeasure; m; m &= m - 1) {
		const u32 *w;

		i = __builtin_ctz(m);
		ran[i] = 0;
		if (!(e->mem.ctr_hit[upc] >> i & 1))
			continue;
		w = e->mem.sparse_uw + e->ctr.sparse_at[i];
		for (k = 0; (w[k] & 0xffff) != upc; k++)
			;
		for (s = 0; s < e->ctr.nused; s++)
			for (h = w[k] >> 16; h <= upc; h++)
				ran[i] += e->mem.slot[s][h].cnt;
	}
}

/*
 * A step that defers ran microword @upc, counting the counters of
 * ctr.cmeasure (vpmu_step_plan()): what each grew by is the executions
 * of @upc it added (@ran before, vpmu_step_runs()), exactly.  One event
 * from its wrap (ctr.cstep), a counter whose event the step ran is
 * credited its growth in the slots, exact, and that event, and wraps on
 * it (*@wr).  Returns them all: their growth is known (vpmu_plan_grow()
 * leaves them alone).  But if the step took a slot that does not count
 * one of them, or a fold inside it took the counts from under the
 * credits, everything is folded now, as after a step that does not defer
 * (*@defer false).
 */
static u16 vpmu_step_credit(struct vpmu_engine *e, u32 upc, const u64 *ran,
			    u32 *wr, bool *defer)
{
	u64 now[VPMU_NR_COUNTERS_MAX];
	unsigned int i;
	u16 m;

	if (e->ctr.credit_lost ||
	    (e->ctr.slots_all & e->ctr.cmeasure) != e->ctr.cmeasure) {
		*wr |= vpmu_settle_all(e);
		*defer = false;
		return 0;
	}
	vpmu_step_runs(e, upc, now);
	for (m = e->ctr.cmeasure; m; m &= m - 1) {
		i = __builtin_ctz(m);
		if (now[i] == ran[i])
			continue;
		if (!(e->ctr.cstep >> i & 1)) {
			e->ctr.grown[i] += now[i] - ran[i];
			continue;
		}
		if (vpmu_ctr_credit_n(e, i, e->ctr.grown[i] + 1))
			*wr |= 1u << i;
		e->ctr.grown[i] = 0;
	}
	return e->ctr.cmeasure;
}

/*
 * A step that defers and counts the counters of ctr.cmeasure (its
 * microword @upc), vpmu_step_credit(): *@armed the counters whose growth
 * it knows, *@wr those that wrapped.  Returns X_*.
 */
static VPMU_NOINLINE int vpmu_step_counted(struct vpmu_engine *e, u32 upc,
					   u32 *wr, bool *defer, u16 *armed)
{
	u64 ran[VPMU_NR_COUNTERS_MAX];
	int x;

	vpmu_step_runs(e, upc, ran);
	x = vpmu_interp(e, 1);
	*armed = vpmu_step_credit(e, upc, ran, wr, defer);
	return x;
}

/*
 * One chunk of at most @L cycles, as vpmu_plan() cuts it (maybe a single
 * step), folded unless it defers (*@defer: it may; vpmu_plan_chunk()
 * says whether it does), its cycles given to the micro-PC histogram
 * and the histogram unit.  Returns X_*; *@wr: the counters that wrapped,
 * *@upc and *@ipc: the microword they wrapped on.  Yielding, the run that
 * began at cycle @c0 may end in it, if it ends where the run's budget
 * does: not where a counter's wrap, a window's edge or a sample is due,
 * which would only add a run before each.
 */
static int vpmu_chunk(struct vpmu_engine *e, u64 c0, u64 L, bool *defer,
		      u32 *wr, u32 *upc, u32 *ipc)
{
	u64 c1 = e->st.cyc, s1 = e->ctr.stalled, want = L;
	bool step = vpmu_plan_chunk(e, &L, defer);
	/* armed, it may run to ev_cend (vpmu_plan_arm()) */
	u64 len = e->tc.ev_gap ? e->tc.ev_cend + 1 - c1 : L;
	u16 armed = 0;
	u32 cwr = 0;
	int x;

	if (e->tc.ev_mask && !e->tc.ev_gap)	/* BLOCK_EV: nothing to count */
		memset(e->tc.ev_left, 0xff, sizeof(e->tc.ev_left));

	e->tc.yield_from = e->tc.yield && !step && len == want &&
			   !(e->uh.interval > 1 && e->uh.left < L) ? c0 : ~0ull;

	*wr = 0;
	*upc = e->st.upc;
	*ipc = e->mem.R[VPMU_RF_IPC];
	if (e->hu.prog.n)
		vpmu_hu_chunk_begin(e, c1);
	/* vpmu_fetch_in() */
	e->dp.fetch_lim = vpmu_fetch_limit(e->dp.fetch_shift, e->st.msz);
	if (step && e->ctr.cmeasure) {
		x = vpmu_step_counted(e, *upc, &cwr, defer, &armed);
	} else if (step) {
		x = vpmu_interp(e, 1);
		/* one microword; an early exit may sit after it */
		if (!*defer)
			*wr = vpmu_fold(e, *upc,
					*upc + e->mem.slot[0][*upc].seg);
	} else {
		x = vpmu_interp(e, (long)L);
		if (e->tc.ev_gap && *defer)
			armed = vpmu_arm_grow(e);
		e->tc.ev_gap = 0;
		e->tc.ev_eoi = 0;
		if (!*defer)
			*wr = vpmu_fold(e, 0, e->ncs);
	}
	if (*defer) {
		vpmu_plan_grow(e, e->st.cyc - c1, armed);
		*wr = vpmu_defer_done(e, e->st.cyc - c1,
				      e->ctr.stalled - s1);
	}
	*wr |= cwr;
	if (!step && (*wr || e->st.cyc - c1 > e->uh.left)) {
		/* only a last, stalling microword can */
		*upc = e->ctr.last_stall_upc;
		*ipc = e->mem.R[VPMU_RF_IPC];
	}
	if (e->uh.interval > 1)
		vpmu_uhist_advance(e, e->st.cyc - c1, *upc);
	if (e->hu.prog.n)
		vpmu_hu_chunk_end(e, c1);
	return x;
}

enum vpmu_stop_reason vpmu_engine_run(struct vpmu_engine *e, u64 budget,
				      struct vpmu_stop *stop)
{
	bool may_defer, rebuilt;
	u64 c0;

	memset(stop, 0, sizeof(*stop));
	if (!e->uc || !e->st.started) {
		stop->reason = VPMU_STOP_FAULT;
		stop->code = VPMU_FAULT_NOUCODE;
		return stop->reason;
	}
	if (e->st.sticky) {
		*stop = e->st.sticky_stop;
		stop->cycles = 0;
		return stop->reason;
	}
	rebuilt = e->dirty;
	vpmu_prepare(e);
	if (rebuilt)
		vpmu_plan_setup(e);
	may_defer = vpmu_defer_ok(e);
	c0 = e->st.cyc;
	for (;;) {
		u64 used = e->st.cyc - c0;
		bool defer = may_defer;
		u32 wr, x_upc, x_ipc;
		int x;

		if (used >= budget) {
			stop->reason = VPMU_STOP_BUDGET;
			stop->upc = e->st.upc;
			stop->ipc = e->mem.R[VPMU_RF_IPC];
			break;
		}
		x = vpmu_chunk(e, c0, budget - used, &defer, &wr, &x_upc,
			       &x_ipc);
		if (x == VPMU_INTERP_CTR)
			vpmu_ctr_serve(e);
		if (x == VPMU_INTERP_HALT || x == VPMU_INTERP_TRAP ||
		    x == VPMU_INTERP_FAULT)
			vpmu_fill_stop(e, stop, x);
		if (wr && vpmu_overflow(e, wr, x, stop, x_upc, x_ipc))
			break;
		if (x == VPMU_INTERP_HALT || x == VPMU_INTERP_TRAP) {
			e->st.sticky = true;
			e->st.sticky_stop = *stop;
			break;
		}
		if (x == VPMU_INTERP_FAULT)
			break;
		if (!e->ctr.unfolded)	/* else the slots keep their counts */
			vpmu_slot_reset(e);
		if (!e->ctr.unfolded || wr)	/* a wrap may have frozen fgroups */
			e->ctr.cur = vpmu_slot_get(e, vpmu_key(e->st.mode,
							       e->trig.frozen));
		if (x == VPMU_INTERP_YIELD) {
			stop->reason = VPMU_STOP_BUDGET;
			stop->upc = e->st.upc;
			stop->ipc = e->mem.R[VPMU_RF_IPC];
			break;
		}
	}
	stop->cycles = e->st.cyc - c0;
	return stop->reason;
}

/* ---- lifetime ----------------------------------------------------------- */

/* The translation cache's part of an engine's memory: a pool of @words. */
static int vpmu_tc_alloc(struct vpmu_engine_mem *m, u32 words)
{
	m->tc_words = words;
	m->tc_pool = vpmu_zalloc(sizeof(u32) * words);
	m->tc_map = vpmu_zalloc(sizeof(u32) * VPMU_TC_MAP);
	/*
	 * A translation takes more than 16 pool words; a link's log slot
	 * stands for at least VPMU_TC_LINK_RATIO of them (fewer links are
	 * made when it is full).
	 */
	m->tc_touch = vpmu_zalloc(sizeof(u32) * (words / 16));
	m->tc_links = vpmu_zalloc(sizeof(u32) * (words / VPMU_TC_LINK_RATIO));
	m->tc_scratch = vpmu_zalloc(vpmu_tc_scratch_size());
	m->tc_heat = vpmu_zalloc(VPMU_TC_MAP);
	m->tc_code = vpmu_zalloc(VPMU_TC_CODE_BITS / 8);
	if (!m->tc_pool || !m->tc_map || !m->tc_touch || !m->tc_links ||
	    !m->tc_scratch || !m->tc_heat || !m->tc_code)
		return -ENOMEM;
	return 0;
}

/*
 * Everything a ucode of up to @words microwords needs is allocated here,
 * so that attach, start, save, restore and run never allocate.
 */
struct vpmu_engine_mem *vpmu_engine_mem_alloc(u32 words, u32 tc_words)
{
	struct vpmu_engine_mem *m;
	size_t n = words, tgl_size = VPMU_TGL_ROUND(sizeof(s32) * n);
	unsigned int s;

	if (!words || words > VPMU_CS_MAX)
		return NULL;
	if (tc_words && (tc_words < VPMU_TC_POOL_MIN ||
			 tc_words > VPMU_TC_POOL_MAX))
		return NULL;
	m = vpmu_zalloc(sizeof(*m));
	if (!m)
		return NULL;
	m->words = words;
	/*
	 * Each slot: its toggle table, ID table and uops, aligned to
	 * VPMU_TGL_ALIGN, so that slots are a multiple of it apart.
	 */
	m->slot_stride = VPMU_TGL_ROUND(tgl_size + sizeof(u32) * VPMU_IDT +
				   sizeof(struct vpmu_uop) * n);
	m->slot_mem = vpmu_zalloc((size_t)m->slot_stride * VPMU_NSLOT);
	if (!m->slot_mem)
		goto out_free;
	for (s = 0; s < VPMU_NSLOT; s++)
		m->slot[s] = (struct vpmu_uop *)((char *)m->slot_mem +
						 (size_t)m->slot_stride * s +
						 tgl_size + sizeof(u32) * VPMU_IDT);
	m->R = vpmu_zalloc(sizeof(u32) * (VPMU_RF_IMM0 + n));
	m->reg_of = vpmu_zalloc(sizeof(u16) * (VPMU_RF_IMM0 + n));
	m->tot_cnt = vpmu_zalloc(sizeof(u64) * n);
	m->tot_dyn = vpmu_zalloc(sizeof(u64) * n);
	m->tot_tkn = vpmu_zalloc(sizeof(u64) * n);
	m->ctr_hit = vpmu_zalloc(sizeof(u16) * n);
	m->trig_static = vpmu_zalloc(n);
	m->tsrc = vpmu_zalloc(sizeof(u16) * n);
	m->hu_hit = vpmu_zalloc(sizeof(u16) * n);
	/* the buckets, then the sink of samples gated shut */
	m->uhist = vpmu_zalloc(sizeof(u64) * 2 * n);
	m->dc_tag = vpmu_zalloc(sizeof(u32) * VPMU_DC_LINES_MAX);
	m->gap_dist = vpmu_zalloc(sizeof(u32) * n);
	m->gap_q = vpmu_zalloc(sizeof(u32) * n);
	m->sparse_uw = vpmu_zalloc(sizeof(u32) * n);
	if (!m->R || !m->reg_of || !m->tot_cnt || !m->tot_dyn ||
	    !m->tot_tkn || !m->ctr_hit || !m->trig_static || !m->tsrc ||
	    !m->hu_hit || !m->uhist || !m->dc_tag || !m->gap_dist ||
	    !m->gap_q || !m->sparse_uw)
		goto out_free;
	/* even: records hold a u64 */
	if (tc_words && vpmu_tc_alloc(m, tc_words & ~1u))
		goto out_free;
	return m;

out_free:
	vpmu_engine_mem_free(m);
	return NULL;
}

void vpmu_engine_mem_free(struct vpmu_engine_mem *m)
{
	if (!m)
		return;
	vpmu_free(m->slot_mem);
	vpmu_free(m->R);
	vpmu_free(m->reg_of);
	vpmu_free(m->tot_cnt);
	vpmu_free(m->tot_dyn);
	vpmu_free(m->tot_tkn);
	vpmu_free(m->ctr_hit);
	vpmu_free(m->trig_static);
	vpmu_free(m->tsrc);
	vpmu_free(m->hu_hit);
	vpmu_free(m->uhist);
	vpmu_free(m->dc_tag);
	vpmu_free(m->gap_dist);
	vpmu_free(m->gap_q);
	vpmu_free(m->sparse_uw);
	vpmu_free(m->tc_pool);
	vpmu_free(m->tc_map);
	vpmu_free(m->tc_touch);
	vpmu_free(m->tc_links);
	vpmu_free(m->tc_scratch);
	vpmu_free(m->tc_heat);
	vpmu_free(m->tc_code);
	vpmu_free(m);
}

struct vpmu_engine_mem *vpmu_engine_mem_set(struct vpmu_engine *e,
					    struct vpmu_engine_mem *m)
{
	struct vpmu_engine_mem *old = e->mem_alloc;

	vpmu_settle(e);		/* into the counters, before the slots go */
	vpmu_tc_flush(e);	/* (the counts it holds are in the slots) */
	e->uc = NULL;
	e->ctr.image_reads = false;
	e->ncs = 0;
	e->st.started = false;
	e->mem_alloc = m;
	/* no memory: every pointer NULL, every size 0 */
	if (m)
		e->mem = *m;
	else
		memset(&e->mem, 0, sizeof(e->mem));
	e->trig.ntsrc = 0;
	e->uh.sink = m ? m->uhist + m->words : NULL;	/* no NULL + 0 */
	e->tc.ntouch = 0;
	vpmu_tc_flush(e);
	vpmu_slot_reset(e);
	vpmu_gate_sync(e);	/* uh.to: the buckets or the sink */
	e->dirty = true;
	return old;
}

u32 vpmu_engine_mem_words(const struct vpmu_engine *e)
{
	return e->mem.words;
}

struct vpmu_engine *vpmu_engine_create(u32 cs_limit)
{
	struct vpmu_engine *e;
	struct vpmu_engine_mem *m = NULL;
	unsigned int f, g;

	if (cs_limit > VPMU_CS_MAX)
		return NULL;
	if (cs_limit) {
		m = vpmu_engine_mem_alloc(cs_limit, VPMU_TC_POOL_DEFAULT);
		if (!m)
			return NULL;
	}
	e = vpmu_zalloc(sizeof(*e));
	if (!e) {
		vpmu_engine_mem_free(m);
		return NULL;
	}
	for (f = 0; f < 16; f++) {
		bool z = f & VPMU_FLAG_Z, n = f & VPMU_FLAG_N;
		bool c = f & VPMU_FLAG_C, v = f & VPMU_FLAG_V;
		bool holds[11] = { true, z, !z, n, !n, c, !c, v, !v,
				   n != v, n == v };

		for (g = 0; g < ARRAY_SIZE(holds); g++)
			if (holds[g])
				e->dp.condtab[g] |= 1u << f;
	}
	for (g = 0; g < VPMU_NR_FGROUPS_MAX; g++) {
		e->trig.toggle[g] = VPMU_TRIG_NONE;
		e->trig.start[g] = VPMU_TRIG_NONE;
		e->trig.stop[g] = VPMU_TRIG_NONE;
	}
	e->trig.gate_open = VPMU_GATE_ALL;
	e->dp.fetch_shift = 2;	/* 4-byte boundaries until an image says */
	vpmu_engine_mem_set(e, m);
	return e;
}

void vpmu_engine_destroy(struct vpmu_engine *e)
{
	if (!e)
		return;
	vpmu_engine_mem_free(e->mem_alloc);
	vpmu_free(e);
}

void vpmu_engine_start(struct vpmu_engine *e, u8 *mem, u32 mem_size,
		       u32 entry, unsigned int mode)
{
	bool ext;
	u32 ir;

	if (!e->uc)
		return;
	vpmu_settle(e);
	memset(e->mem.R, 0, sizeof(u32) * VPMU_RF_NREGS);
	memset(e->mem.tot_cnt, 0, sizeof(u64) * e->ncs);
	memset(e->mem.tot_dyn, 0, sizeof(u64) * e->ncs);
	memset(e->mem.tot_tkn, 0, sizeof(u64) * e->ncs);
	memset(e->mem.dc_tag, 0, sizeof(u32) * (e->dp.dc_mask + 1));
	ext = e->st.ext;
	memset(&e->st, 0, sizeof(e->st));
	e->st.ext = ext;
	vpmu_latch_maps(e);
	e->st.mem = mem;
	e->st.msz = mem_size;
	e->st.mode = mode ? VPMU_MODE_SUPER : VPMU_MODE_USER;
	e->st.mode_next = e->st.mode;
	e->st.started = true;
	vpmu_tc_mem(e, NULL);	/* new memory: translations check it */
	vpmu_insn_mark(e, false);
	e->mem.R[VPMU_RF_PC] = entry;
	e->mem.R[VPMU_RF_IPC] = entry;
	if (!vpmu_fetch_ok(e, entry, mem_size)) {
		e->st.sticky = true;
		e->st.sticky_stop.reason = VPMU_STOP_FAULT;
		e->st.sticky_stop.code = VPMU_FAULT_FETCH;
		e->st.sticky_stop.addr = entry;
		e->st.sticky_stop.ipc = entry;
		return;
	}
	ir = vpmu_get_le32(mem + entry);
	e->mem.R[VPMU_RF_IR] = ir;
	e->st.upc = e->uc->idtab[(ir >> e->uc->op_shift) & e->uc->op_mask];
}

/* ---- program contexts ---------------------------------------------------- */

struct vpmu_ctx *vpmu_ctx_create(void)
{
	return vpmu_zalloc_user(sizeof(struct vpmu_ctx));
}

void vpmu_ctx_destroy(struct vpmu_ctx *c)
{
	vpmu_free(c);
}

void vpmu_engine_ctx_save(struct vpmu_engine *e, struct vpmu_ctx *c)
{
	vpmu_flags_sync(e);
	if (e->uc)
		vpmu_insn_mark(e, true);
	c->uc = e->st.started ? e->uc : NULL;
	e->st.saved_by = e;
	e->st.save_seq = ++e->tc.nsaves;
	e->st.mem_new = false;
	c->st = e->st;
	e->tc.saved = c;
	e->tc.saved_seq = e->st.save_seq;
	memcpy(c->R, e->mem.R, sizeof(c->R));
	if (e->uc)
		memcpy(c->dc_tag, e->mem.dc_tag,
		       sizeof(u32) * (e->dp.dc_mask + 1));
}

int vpmu_engine_ctx_restore(struct vpmu_engine *e, const struct vpmu_ctx *c)
{
	if (!c->uc || c->uc != e->uc)
		return -ESTALE;
	e->st = c->st;
	vpmu_tc_mem(e, c);
	memcpy(e->mem.R, c->R, sizeof(c->R));
	memcpy(e->mem.dc_tag, c->dc_tag, sizeof(u32) * (e->dp.dc_mask + 1));
	vpmu_latch_maps(e);
	vpmu_insn_mark(e, false);
	return 0;
}

int vpmu_ctx_set_mem(struct vpmu_ctx *c, u8 *mem, u32 mem_size)
{
	if (!c->uc || mem_size != c->st.msz)
		return -EINVAL;
	c->st.mem = mem;
	c->st.mem_new = true;
	return 0;
}

/* ---- state -------------------------------------------------------------- */

u32 vpmu_engine_reg(const struct vpmu_engine *e, unsigned int opnd)
{
	if (!e->mem.R || opnd >= 64 ||
	    vpmu_opnd_info[opnd].access == VPMU_ACC_NONE ||
	    opnd == VPMU_OPND_IMM || opnd == VPMU_RF_ZERO)
		return 0;
	if (vpmu_is_at(opnd))
		return e->mem.R[e->mem.reg_of[opnd]];
	if (opnd == VPMU_RF_FLAGS)
		return vpmu_flags_now(e);
	return e->mem.R[opnd];
}

unsigned int vpmu_engine_mode(const struct vpmu_engine *e)
{
	return e->st.mode;
}

u32 vpmu_engine_upc(const struct vpmu_engine *e)
{
	return e->st.upc;
}

void vpmu_engine_set_ext(struct vpmu_engine *e, bool asserted)
{
	e->st.ext = asserted;
}

/* ---- the owner's services: a stopped program's registers, TRAP return ---- */

int vpmu_engine_set_reg(struct vpmu_engine *e, unsigned int opnd, u32 val)
{
	if (!e->mem.R || opnd > VPMU_OPND_T0 + 7)
		return -EINVAL;
	if (opnd != VPMU_OPND_R0 || !e->dp.r0zero)
		e->mem.R[opnd] = val;
	e->tc.resume.tb = 0;	/* a translation may know its value */
	return 0;
}

int vpmu_engine_trap_return(struct vpmu_engine *e)
{
	if (!e->uc || !e->st.started || !e->st.sticky ||
	    e->st.sticky_stop.reason != VPMU_STOP_TRAP ||
	    e->st.upc + 1 >= e->ncs)
		return -EINVAL;
	e->st.sticky = false;
	e->st.upc++;
	return 0;
}

u64 vpmu_engine_uword_count(struct vpmu_engine *e, u32 upc)
{
	if (!e->uc || upc >= e->ncs)
		return 0;
	vpmu_settle(e);
	return e->mem.tot_cnt[upc];
}
