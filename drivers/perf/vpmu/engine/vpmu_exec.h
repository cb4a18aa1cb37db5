/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_exec.h - what the interpreter (vpmu_interp.c) and the
 * translated-code executor (vpmu_tc_exec.c) share: the checks on fetches
 * and accesses, the flags, the external signals their microwords see
 * (data cache, write queue, conditions) and the memory write.
 */
#ifndef _VPMU_EXEC_H
#define _VPMU_EXEC_H

#include "vpmu_engine_priv.h"
#include "vpmu_dispatch.h"

/*
 * An instruction fetch at @npc in this chunk: vpmu_fetch_ok(), its limit
 * for this run's memory set by vpmu_chunk() (kept out of the loop's
 * registers: most fetches take vpmu_word_ok()).
 */
static __always_inline bool vpmu_fetch_in(const struct vpmu_engine *e,
					  u32 npc)
{
	u32 sh = e->dp.fetch_shift;

	return (npc >> sh | npc << (32 - sh)) < e->dp.fetch_lim;
}

/*
 * A word at @x, @fwords words of memory: aligned and inside.  Also a
 * fetch on 4-byte boundaries (fetch_shift 2), as the handlers ending in
 * EOI8 make (images with IALIGN16 get the EOI8H ones).
 */
static __always_inline bool vpmu_word_ok(u32 x, u32 fwords)
{
	return (x >> 2 | x << 30) < fwords;
}

/* An access of @size bytes at @x: aligned and inside memory. */
static __always_inline bool vpmu_access_ok(u32 x, unsigned int size,
					   u32 fwords, u32 hwords, u32 msz)
{
	if (size == 4)
		return vpmu_word_ok(x, fwords);
	if (size == 2)
		return (x >> 1 | x << 31) < hwords;
	return x < msz;
}

/* The flags register @R holds, computed if a fused compare left it lazy. */
static __always_inline u32 vpmu_flags_read(struct vpmu_engine *e, u32 *R)
{
	return likely(R[VPMU_RF_FLAGS] < VPMU_FLAGS_LAZY) ?
	       R[VPMU_RF_FLAGS] : vpmu_flags_sync(e);
}

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
 * are > @now: it is full iff wq_last > now + (depth - 1) * drain.  The
 * translated-code executor keeps wq_last in a local while it runs, so
 * these take it (@last) and the datapath's @full = (depth - 1) * drain
 * and @drain apart.
 */
static __always_inline bool vpmu_wq_full_at(u64 last, u64 now, u32 full)
{
	return last > now + full;
}

static inline bool vpmu_wq_is_full(const struct vpmu_engine *e, u64 now)
{
	return vpmu_wq_full_at(e->st.wq_last, now, e->dp.wq_full);
}

/* A store enters the queue at @now; returns the stall cycles. */
static __always_inline u32 vpmu_wq_enter(u64 *last, u64 now, u32 full,
					 u32 drain)
{
	u64 l = *last;
	u32 stall = 0;

	if (unlikely(l > now + full))
		/* until the oldest drains */
		stall = (u32)(l - now - full);
	*last = (l > now ? l : now) + drain;
	return stall;
}

/* The same on the engine's queue, as the interpreter keeps it. */
static inline u32 vpmu_wq_store(struct vpmu_engine *e, u64 now)
{
	return vpmu_wq_enter(&e->st.wq_last, now, e->dp.wq_full,
			     e->dp.wq_drain);
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

/*
 * External condition @cond at cycle @now, with the last load's miss
 * (@last_miss) and the write queue's newest drain time (@wq_last) given:
 * the translated-code executor keeps both in locals while it runs.
 */
static __always_inline bool vpmu_cond_at(const struct vpmu_engine *e,
					 unsigned int cond, u64 now,
					 bool last_miss, u64 wq_last)
{
	switch (cond) {
	case VPMU_COND_MISS:
		return last_miss;
	case VPMU_COND_WQF:
		return vpmu_wq_full_at(wq_last, now, e->dp.wq_full);
	case VPMU_COND_USER:
		return e->st.mode == VPMU_MODE_USER;
	case VPMU_COND_SUPER:
		return e->st.mode == VPMU_MODE_SUPER;
	default:
		return e->st.ext;
	}
}

/* The same with the engine's own (the interpreter's). */
static inline bool vpmu_cond_ext(struct vpmu_engine *e, unsigned int cond,
				 u64 now)
{
	return vpmu_cond_at(e, cond, now, e->st.last_miss, e->st.wq_last);
}

/*
 * The interpreter runs translations from @tb (vpmu_tc_exec()), as the
 * chunk is armed or not (vpmu_tc_exec_armed()).
 */
static __always_inline struct vpmu_tc_ret
vpmu_tc_run(struct vpmu_engine *e, struct vpmu_uop *base,
	    const struct vpmu_tc_trans *tb, u32 at, s32 left, u64 cend)
{
	if (unlikely(e->tc.ev_gap))
		return vpmu_tc_exec_armed(e, base, tb, at, left, cend);
	return vpmu_tc_exec(e, base, tb, at, left, cend);
}

#endif /* _VPMU_EXEC_H */
