// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_triggers.c - triggers and gates: the freeze groups' triggers, the
 * trigger hook that toggles freeze bits after a microword, the gates
 * that let the histograms count only while a freeze group runs, and the
 * registers that set them up.  See Documentation/admin-guide/perf/vpmu.rst,
 * "Freezing and triggers".
 */
#include "vpmu_engine_priv.h"

/* ---- triggers and the hook ---------------------------------------------- */

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
		u16 se = e->trig.frozen >> g & 1 ? e->trig.start[g] :
						   e->trig.stop[g];

		if (vpmu_trig_occurs(e, e->trig.toggle[g], upc, ddyn, dtkn) ||
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
	e->trig.gate_open = vpmu_gate_open(e, e->trig.frozen);
	e->uh.to = e->trig.gate_open & VPMU_GATE_UHIST ? e->mem.uhist :
							 e->uh.sink;
}

/* The gates again, if any unit is gated (a freeze bit changed). */
void vpmu_gate_resync(struct vpmu_engine *e)
{
	if (unlikely(e->trig.gate_req))
		vpmu_gate_sync(e);
}

/*
 * Microword @upc (memory count @ddyn) toggled freeze groups to @nf, maybe
 * opening or shutting gated units from its own cycles on (its first: the
 * hooked microword's last, hook.now, less its stall).  The fold splits
 * its counts by slot; here go what is counted by time: samples at K > 1
 * (one taken in its first cycle, before it ran, moves to where that cycle
 * now belongs) and write-queue occupancy up to its first cycle, under the
 * state before it.
 */
static void vpmu_gate_post(struct vpmu_engine *e, u32 upc, u32 ddyn,
			   unsigned int nf)
{
	struct vpmu_uhist_sampler *us = &e->uh.sampler;
	unsigned int open = vpmu_gate_open(e, nf);
	u64 first = e->trig.hook.now - vpmu_stall_of(e, &e->uc->dec[upc], ddyn);

	if ((open ^ e->trig.gate_open) & VPMU_GATE_UHIST) {
		u64 *to = open & VPMU_GATE_UHIST ? e->mem.uhist : e->uh.sink;

		if (us->k && us->last && us->next - us->k == first) {
			(*us->last)--;
			us->last = &to[upc];
			(*us->last)++;
		}
		e->uh.to = to;
	}
	if ((open ^ e->trig.gate_open) & VPMU_GATE_HU && e->hu.wact) {
		vpmu_hu_wq_add(e, e->hu.wact, e->trig.hook.wq, e->hu.acc,
			       first);
		e->hu.acc = first;
	}
	e->trig.gate_open = open;
}

/*
 * After a microword with hooks: toggle freeze groups whose trigger occurred
 * (moving the microword's counts to where they now belong: the toggle takes
 * effect before its events are counted), then apply a mode change.
 */
void vpmu_hook_post(struct vpmu_engine *e, unsigned int hook)
{
	unsigned int toggles;

	if (hook & VPMU_HOOK_TRIG) {
		struct vpmu_uop *x = e->trig.hook.u;
		u32 upc = x->upc, ddyn = x->dyn - e->trig.hook.dyn;
		u32 dtkn = x->tkn - e->trig.hook.tkn;

		toggles = vpmu_trig_changes(e, upc, ddyn, dtkn);
		if (unlikely(toggles && e->trig.gate_req))
			vpmu_gate_post(e, upc, ddyn, e->trig.frozen ^ toggles);
		if (unlikely(e->hu.route))
			vpmu_hu_hook(e, upc, ddyn);
		if (toggles) {
			unsigned int s;
			struct vpmu_uop *y;

			x->cnt -= 1;
			x->dyn -= ddyn;
			x->tkn -= dtkn;
			e->trig.frozen ^= toggles;
			s = vpmu_slot_get(e, vpmu_key(e->trig.hook.mode,
						      e->trig.frozen));
			y = &e->mem.slot[s][upc];
			y->cnt += 1;
			y->dyn += ddyn;
			y->tkn += dtkn;
		}
	}
	if (hook & VPMU_HOOK_MODE)
		e->st.mode = e->st.mode_next;
	e->ctr.cur = vpmu_slot_get(e, vpmu_key(e->st.mode, e->trig.frozen));
}

/*
 * Any trigger set?  And into ovf_src, the counters whose wrap is one.
 * Inlined: vpmu_prepare() runs at every run's start.
 */
bool vpmu_trig_any(struct vpmu_engine *e)
{
	unsigned int g, k;
	bool any = false;

	e->trig.ovf_src = 0;
	for (g = 0; g < VPMU_NR_FGROUPS_MAX; g++) {
		const u16 t[3] = { e->trig.toggle[g], e->trig.start[g],
				   e->trig.stop[g] };

		for (k = 0; k < 3; k++) {
			if (t[k] != VPMU_TRIG_NONE)
				any = true;
			if (VPMU_TRIG_IS_OVF(t[k]))
				e->trig.ovf_src |= 1u
						   << (t[k] - VPMU_TRIG_OVF(0));
		}
	}
	return any;
}

/* ---- registers ---------------------------------------------------------- */

void vpmu_engine_snapshot(struct vpmu_engine *e, struct vpmu_engine_snap *s,
			  u32 clear)
{
	vpmu_settle(e);
	memset(s, 0, sizeof(*s));
	s->cycles = e->st.cyc;
	s->ovf = e->ctr.ovf;
	s->frozen = e->trig.frozen;
	/*
	 * ovf_src from the triggers as they are: what the next run's
	 * vpmu_prepare() computes if they changed (dirty), the same if not.
	 */
	vpmu_trig_any(e);
	s->trig_ovf = e->trig.ovf_src;
	memcpy(s->cfg, e->ctr.cfg, sizeof(s->cfg));
	memcpy(s->ctr, e->ctr.val, sizeof(s->ctr));
	memcpy(s->ovf_cnt, e->ctr.ovf_cnt, sizeof(s->ovf_cnt));
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
		e->trig.frozen |= 1u << fgroup;
	else
		e->trig.frozen &= ~(1u << fgroup);
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
	e->trig.toggle[fgroup] = trigger;
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
	e->trig.start[fgroup] = start;
	e->trig.stop[fgroup] = stop;
	e->dirty = true;
	return 0;
}

bool vpmu_engine_frozen(const struct vpmu_engine *e, unsigned int fgroup)
{
	return fgroup < VPMU_NR_FGROUPS_MAX && (e->trig.frozen >> fgroup & 1);
}

/* New gating: slots count under other states, sources route anew. */
static void vpmu_gate_update(struct vpmu_engine *e)
{
	unsigned int u;

	e->trig.gate_req = e->trig.gate_closed;
	for (u = 0; u < ARRAY_SIZE(e->trig.gate_fgroups); u++)
		if (e->trig.gate_fgroups[u])
			e->trig.gate_req |= 1u << u;
	e->dirty = true;
	vpmu_gate_sync(e);
}

int vpmu_engine_fgroup_gate(struct vpmu_engine *e, unsigned int fgroup,
			    unsigned int units)
{
	u8 fgroups[ARRAY_SIZE(e->trig.gate_fgroups)];
	unsigned int u;

	if (!fgroup || fgroup >= VPMU_NR_FGROUPS_MAX || units & ~VPMU_GATE_ALL)
		return -EINVAL;
	for (u = 0; u < ARRAY_SIZE(fgroups); u++) {
		fgroups[u] = e->trig.gate_fgroups[u] & ~(1u << fgroup);
		if (units >> u & 1)
			fgroups[u] |= 1u << fgroup;
	}
	if (!memcmp(fgroups, e->trig.gate_fgroups, sizeof(fgroups)))
		return 0;	/* as it was: nothing to settle or rebuild */
	vpmu_settle(e);
	memcpy(e->trig.gate_fgroups, fgroups, sizeof(fgroups));
	vpmu_gate_update(e);
	return 0;
}

int vpmu_engine_gate_closed(struct vpmu_engine *e, unsigned int units)
{
	if (units & ~VPMU_GATE_ALL)
		return -EINVAL;
	if (units == e->trig.gate_closed)
		return 0;
	vpmu_settle(e);
	e->trig.gate_closed = units;
	vpmu_gate_update(e);
	return 0;
}
