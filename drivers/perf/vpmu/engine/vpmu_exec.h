/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_exec.h - what the interpreter (vpmu_interp.c) and the
 * translated-code executor (vpmu_tc_exec.c) share: the external signals
 * their microwords see (data cache, write queue, conditions) and the
 * memory write.
 */
#ifndef _VPMU_EXEC_H
#define _VPMU_EXEC_H

#include "vpmu_engine_priv.h"

/* Look up @addr in the data cache; returns true on a miss (and fills). */
static inline bool vpmu_dc_access(struct vpmu_engine *e, u32 addr)
{
	u32 line = addr >> e->dp.dc_shift;
	u32 *t = &e->mem.dc_tag[line & e->dp.dc_mask];

	if (*t == line + 1)
		return false;
	*t = line + 1;
	return true;
}

/*
 * The write queue needs one number.  Entries drain wq_drain cycles apart
 * from the newest one's drain time back, all those in the queue belonging
 * to one busy period (an entry entering an empty queue drains wq_drain
 * after it enters, the others wq_drain after the one ahead), so at cycle
 * @now the queue holds the entries whose drain times wq_last - k * drain
 * are > @now: it is full iff wq_last > now + (depth - 1) * drain.
 */
static inline bool vpmu_wq_is_full(const struct vpmu_engine *e, u64 now)
{
	return e->st.wq_last > now + e->dp.wq_full;
}

/* A store enters the queue at @now; returns the stall cycles. */
static inline u32 vpmu_wq_store(struct vpmu_engine *e, u64 now)
{
	u64 last = e->st.wq_last;
	u32 stall = 0;

	if (unlikely(last > now + e->dp.wq_full))
		stall = (u32)(last - now - e->dp.wq_full);	/* the oldest drains */
	e->st.wq_last = (last > now ? last : now) + e->dp.wq_drain;
	return stall;
}

static inline void vpmu_mem_store(u8 *p, u32 v, unsigned int size)
{
	p[0] = v;
	if (size >= 2)
		p[1] = v >> 8;
	if (size == 4) {
		p[2] = v >> 16;
		p[3] = v >> 24;
	}
}

static inline bool vpmu_cond_ext(struct vpmu_engine *e, unsigned int cond,
				 u64 now)
{
	switch (cond) {
	case VPMU_COND_MISS:
		return e->st.last_miss;
	case VPMU_COND_WQF:
		return vpmu_wq_is_full(e, now);
	case VPMU_COND_USER:
		return e->st.mode == VPMU_MODE_USER;
	case VPMU_COND_SUPER:
		return e->st.mode == VPMU_MODE_SUPER;
	default:
		return e->st.ext;
	}
}

#endif /* _VPMU_EXEC_H */
