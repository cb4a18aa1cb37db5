// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_events.c - what each event counts on a microword: the
 * bottom of the engine's counting, used by the fold, the uop builder and
 * the histogram unit, and asked by a caller that steps a program
 * (vpmu_engine_uword_retires()).  See vpmu_engine_priv.h.
 */
#include "vpmu_engine_priv.h"

u8 vpmu_ev_cls(unsigned int ev)
{
	switch (ev) {
	case VPMU_EV_CYCLES:
		return VPMU_CLS_CYC;
	case VPMU_EV_UBR_TAKEN:
		return VPMU_CLS_TKN;
	case VPMU_EV_DC_HIT:
		return VPMU_CLS_HIT;
	case VPMU_EV_DC_MISS:
	case VPMU_EV_WQ_STALL:
		return VPMU_CLS_DYN;
	}
	return VPMU_CLS_EXEC;
}

/*
 * Occurrences of @ev on microword @upc given its executions @c, memory
 * count @dy and taken branches @tk.
 */
u64 vpmu_ev_count(const struct vpmu_engine *e, unsigned int ev,
		  u32 upc, u64 c, u64 dy, u64 tk)
{
	const struct vpmu_dec *d = &e->uc->dec[upc];

	switch (ev) {
	case VPMU_EV_CYCLES:
		return c + vpmu_stall_of(e, d, dy);
	case VPMU_EV_UOPS:
		return c;
	case VPMU_EV_INSNS:
		return d->kind & VPMU_K_EOI ? c : 0;
	case VPMU_EV_UBR_TAKEN:
		return tk;
	case VPMU_EV_DISPATCH:
		return d->kind & VPMU_K_DISP ? c : 0;
	case VPMU_EV_DC_HIT:
		return d->kind & VPMU_K_LOAD ? c - dy : 0;
	case VPMU_EV_DC_MISS:
		return d->kind & VPMU_K_LOAD ? dy : 0;
	case VPMU_EV_WQ_STALL:
		return d->kind & VPMU_K_STORE ? dy : 0;
	case VPMU_EV_TRIGGER:
		return d->kind & VPMU_K_TRIG ? c : 0;
	case VPMU_EV_STORES:
		return d->kind & VPMU_K_STORE ? c : 0;
	}
	if (ev > VPMU_EV_TAG_BASE && ev <= VPMU_EV_TAG(VPMU_TAG_MAX))
		return vpmu_dec_has_tag(e->uc, d, ev - VPMU_EV_TAG_BASE) ? c : 0;
	return 0;
}

/* Can @ev ever occur on @upc? */
bool vpmu_ev_possible(const struct vpmu_engine *e, unsigned int ev,
		      u32 upc)
{
	const struct vpmu_dec *d = &e->uc->dec[upc];

	switch (ev) {
	case VPMU_EV_UBR_TAKEN:
		return d->kind & VPMU_K_BR;
	case VPMU_EV_DC_HIT:
	case VPMU_EV_DC_MISS:
		return d->kind & VPMU_K_LOAD;
	case VPMU_EV_WQ_STALL:
		return d->kind & VPMU_K_STORE;
	}
	return vpmu_ev_count(e, ev, upc, 1, 0, 0) != 0;
}

bool vpmu_engine_uword_retires(const struct vpmu_engine *e, u32 upc)
{
	return e->uc && upc < e->ncs &&
	       vpmu_ev_count(e, VPMU_EV_INSNS, upc, 1, 0, 0);
}
