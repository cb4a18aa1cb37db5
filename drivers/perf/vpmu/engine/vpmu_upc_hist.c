// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_upc_hist.c - the micro-PC histogram: every K cycles the bucket of
 * the microword occupying that cycle counts one.  The loop takes the
 * samples that fall inside a chunk (vpmu_uhist_sample() in
 * vpmu_interp.c); K = 1 is counted by the fold (vpmu_fold()).
 */
#include "vpmu_engine_priv.h"

/*
 * @n cycles went by, the sampled ones (if any) in microword @upc: take the
 * samples due.  The countdown is the engine's, not the program's clock.
 */
void vpmu_uhist_advance(struct vpmu_engine *e, u64 n, u32 upc)
{
	while (e->uh.left < n) {
		e->uh.to[upc]++;
		e->uh.left += e->uh.interval;
	}
	e->uh.left -= n;
}

void vpmu_engine_uhist_set(struct vpmu_engine *e, u32 interval)
{
	vpmu_settle(e);
	e->uh.interval = interval;
	e->uh.left = interval ? interval - 1 : 0;
}

const u64 *vpmu_engine_uhist(struct vpmu_engine *e, u32 *nbuckets)
{
	vpmu_settle(e);
	if (nbuckets)
		*nbuckets = e->uc ? e->ncs : 0;
	return e->uc ? e->mem.uhist : NULL;
}

void vpmu_engine_uhist_reset(struct vpmu_engine *e)
{
	vpmu_settle(e);
	if (e->mem.uhist)
		memset(e->mem.uhist, 0, sizeof(u64) * e->ncs);
	e->uh.left = e->uh.interval ? e->uh.interval - 1 : 0;
}
