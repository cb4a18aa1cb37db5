/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_engine_priv.h - private to the engine's files: struct vpmu_engine,
 * the program state it runs, and what the files call of one another.
 * Top to bottom, each file calls only those below it:
 *
 *   vpmu_run.c           runs and chunks, lifetime, contexts, state
 *   vpmu_plan.c          planning the chunks: bounds, deferring, arming
 *   vpmu_uop_build.c     the uops: building, routing, fusing, segments
 *   vpmu_interp.c        the interpreter loop and its hot helpers
 *   vpmu_tc_exec.c       the translated-code executor
 *   vpmu_triggers.c      triggers, the trigger hook, gates
 *   vpmu_upc_hist.c      the micro-PC histogram
 *   vpmu_hist_unit.c     the histogram unit
 *   vpmu_counters.c      the fold, the slots, the counters' registers
 *   vpmu_tc_pool.c       the translation cache's pool: its ring of
 *                        records, eviction, draining their counts
 *   vpmu_tc_cache.c      the translation cache: finding, linking and
 *                        leaving translations
 *   vpmu_tc_translate.c  ...and making them (vpmu_tc_emit.c)
 *   vpmu_events.c        what each event counts on a microword
 *   vpmu_validate.c      the image validator and decoder
 *   vpmu_validate_uword.c  the rejection, one microword's checks
 *   vpmu_isa.c           the instruction set's tables
 *
 * How the engine is fast and still exact: segments, counts folded per
 * chunk or later, a copy of the uops per counting state, chunk limits.
 */
#ifndef _VPMU_ENGINE_PRIV_H
#define _VPMU_ENGINE_PRIV_H

#include "vpmu_uop.h"
#include "vpmu_tc.h"

/*
 * Kept out of the loop's function, whose registers it would cost; and,
 * VPMU_COLD, its rare paths (the call does not shape the loop's code).
 */
#ifdef __KERNEL__
#define VPMU_NOINLINE	noinline
#define VPMU_COLD	__cold
#else
#define VPMU_NOINLINE	VPMU_HOST_ATTR(__noinline__)
#define VPMU_COLD	VPMU_HOST_ATTR(__cold__)
#endif

#define VPMU_NKEYS	32		/* mode (1 bit) x freeze bits (4) */
/* slot_mask: besides the counters, the gated units a slot does not feed */
#define VPMU_SLOT_SHIFT	16		/* VPMU_GATE_* << VPMU_SLOT_SHIFT */
#define VPMU_SLOT_UH	(VPMU_GATE_UHIST << VPMU_SLOT_SHIFT)
#define VPMU_SLOT_HU	(VPMU_GATE_HU << VPMU_SLOT_SHIFT)
#define VPMU_CHUNK_MAX	BIT_ULL(30)	/* keeps uop counts in u32 */
#define VPMU_STEP_BELOW	8		/* chunks shorter than this: step */
/* ...deferring ones shorter than this: fold, plan by exact values */
#define VPMU_DEFER_MIN	1
/*
 * A chunk armed to a counter's wrap (vpmu_plan_chunk()) when the bound
 * of its events would cut it to fewer cycles than the chunk may run and
 * to at least this many.
 */
#define VPMU_ARM_MIN	VPMU_STEP_BELOW
/*
 * ...and that bound a quarter of the chunk or less, and no more than
 * VPMU_ARM_MAX cycles: else a few more chunks cost less than counting
 * in every block all the way.
 */
#define VPMU_ARM_GAIN	4
#define VPMU_ARM_MAX	4096
/* Event gaps are cached per event: basic events, then tags 1..max. */
#define VPMU_NGAP	(VPMU_EV_NR_BASIC + VPMU_TAG_MAX)
#define VPMU_GAP_NONE	0xffffffffu	/* the event never recurs */

/* A trigger or mode hook makes the next segment entry fail (see ENTER). */
#define VPMU_HOOK_BIAS	0x40000000

/* Hooks run after the current microword (vpmu_interp()'s hook). */
#define VPMU_HOOK_TRIG	BIT(0)
#define VPMU_HOOK_MODE	BIT(1)

/* vpmu_interp() results. */
enum vpmu_interp_exit {
	VPMU_INTERP_CHUNK,	/* the chunk's cycles are used up */
	VPMU_INTERP_HALT,
	VPMU_INTERP_TRAP,
	VPMU_INTERP_FAULT,
	VPMU_INTERP_CTR,	/* a counter read (CTR) waits to be served */
	VPMU_INTERP_YIELD,	/* a block does not fit: the run yields */
};

/*
 * The part of a program's architectural state that is not in the register
 * file or the cache tags: what struct vpmu_ctx saves besides those.  The
 * engine runs on its own copy (vpmu_engine.st).
 */
struct vpmu_prog_state {
	u32 ustack[VPMU_USTACK_DEPTH];	/* byte offsets */
	u32 sp;
	u8 *mem;
	u32 msz;
	u32 upc;
	unsigned int mode, mode_next;
	bool ext;
	u64 cyc;			/* the program's cycle count */
	/* instructions it retired before ctr.insn_mark (CTR) */
	u64 insn_acc;
	bool last_miss;
	u64 wq_last;			/* drain time of the newest entry */
	bool started, sticky;		/* sticky: halted or trapped */
	struct vpmu_stop sticky_stop;
	u32 fault_kind, fault_addr;
	/*
	 * For the translation cache (vpmu_tc_mem()): the engine that saved
	 * the program last and the number of that save on it, and whether
	 * its memory was replaced since (vpmu_ctx_set_mem()).
	 */
	const struct vpmu_engine *saved_by;
	u64 save_seq;
	bool mem_new;
};

/* A program's architectural state, off the engine (vpmu_engine_ctx_save()). */
struct vpmu_ctx {
	const struct vpmu_ucode *uc;	/* what it runs under; NULL: none */
	struct vpmu_prog_state st;
	u32 R[VPMU_RF_NREGS];		/* registers by operand code */
	u32 dc_tag[VPMU_DC_LINES_MAX];	/* only the ucode's dc_lines used */
};

/*
 * The micro-PC histogram's samples at K > 1, taken in the loop
 * (vpmu_interp()): its left then counts down to the next sample when that
 * comes before the chunk's end, and the entry that fails there takes it
 * (vpmu_uhist_sample()).  Valid during a chunk.
 */
struct vpmu_uhist_sampler {
	u32 k;			/* K, or 0: none in the loop */
	bool due;		/* left ends at a sample */
	s64 rest;		/* cycles of the chunk after that sample */
	u64 next;		/* the cycle of the next sample */
	u64 *last;		/* the bucket of the last sample taken */
};

/*
 * An engine's memory: the arrays a ucode of up to @words microwords needs
 * (vpmu_engine_mem_alloc()), each used by one part of the engine below.
 * The engine holds a copy of the whole struct (all NULL without memory).
 */
struct vpmu_engine_mem {
	u32 words;
	/* the uops: VPMU_NSLOT slots in one block (vpmu_uop_build.c) */
	u32 slot_stride;
	void *slot_mem;
	struct vpmu_uop *slot[VPMU_NSLOT];
	/* registers by operand code, then immediates: VPMU_RF_IMM0 + words */
	u32 *R;
	/* the register-file index an operand code names (@: its latch's) */
	u16 *reg_of;
	u32 *dc_tag;			/* data cache: line + 1; 0 invalid */
	/* counting: totals, counters each microword can feed, event gaps */
	u64 *tot_cnt, *tot_dyn, *tot_tkn;
	u16 *ctr_hit;
	u32 *gap_dist, *gap_q;
	/* the microwords of ctr.sparse_mask's counters: upc | head << 16 */
	u32 *sparse_uw;
	/* triggers: what source each microword is, the static ones */
	u8 *trig_static;
	u16 *tsrc;
	u16 *hu_hit;			/* histogram-unit entries it can feed */
	u64 *uhist;			/* micro-PC histogram, then its sink */
	/* the translation cache */
	u32 tc_words;			/* the pool's words; 0: no cache */
	u32 *tc_pool;
	u32 *tc_map;			/* VPMU_TC_MAP translations */
	u32 *tc_touch;			/* translations counted since drain */
	u32 *tc_links;			/* the links made: their slots */
	void *tc_scratch;		/* a translation in the making */
	u8 *tc_heat;			/* VPMU_TC_MAP: runs not translated */
	u32 *tc_code;			/* VPMU_TC_CODE_BITS bits */
};

/*
 * The datapath the image describes: how operands reach the register
 * file, the flags a fused compare leaves lazy, the fetch check, the data
 * cache and the write queue.  Set on attach (vpmu_engine_attach()).
 */
struct vpmu_datapath {
	/*
	 * VPMU_FLAGS_LAZY: the SUB's operands, apart so that the host
	 * compiler does not pair their stores through a vector register.
	 */
	u32 lazy_a;
	u32 zero_idx;		/* re-zeroed after @ writes: r0 or zero */
	u32 lazy_b;
	bool r0zero;			/* VPMU_IMG_F_R0_ZERO */
	u8 fetch_shift;		/* vpmu_fetch_ok(): 2, or 1 (IALIGN16) */
	u32 fetch_lim;			/* ...its limit, for a chunk */
	u32 op_shift, op_mask;		/* the opcode in ir */
	u16 condtab[16];		/* flag conditions: bit f holds */
	u32 dc_shift, dc_mask, penalty;
	u32 wq_full, wq_drain;		/* (depth - 1) * drain; drain */
	u32 stall_max;			/* more than a microword stalls */
};

/*
 * Counting (vpmu_counters.c): the counters, the slots that split the
 * uops' counts by what was counting (a slot per set of active counters,
 * found by key: mode and freeze bits), and what plans a run's chunks.
 */
struct vpmu_counting {
	struct vpmu_ctr_cfg cfg[VPMU_NR_COUNTERS_MAX];
	u64 val[VPMU_NR_COUNTERS_MAX];
	u8 cls[VPMU_NR_COUNTERS_MAX];	/* enum vpmu_cls of each */
	u32 ovf;			/* overflow status */
	u64 ovf_cnt[VPMU_NR_COUNTERS_MAX];	/* wraps since status clear */
	u32 wrap_pending;		/* wrapped in a fold for a new slot */
	u8 key_slot[VPMU_NKEYS];
	u32 slot_mask[VPMU_NSLOT];	/* active counters, VPMU_SLOT_* shut */
	unsigned int nused, cur;	/* slots in use; the current one */
	u32 slots_all, slots_any;	/* what all of them, any, count */
	u16 plan_mask;			/* enabled: INT or FREEZE_ON_OVF */
	u16 int_mask, fovf_mask;	/* enabled: INT; FREEZE_ON_OVF */
	/*
	 * Cycles run since the counts were last folded out of the slots
	 * (deferred folding, vpmu_defer_ok()); 0: nothing left in them.
	 */
	u64 unfolded;
	/*
	 * Stall cycles run, in all (vpmu_stalled()); of unfolded, those
	 * stalled: a microword is a cycle, so the rest are UOPS.
	 */
	u64 stalled, unfolded_stall;
	/*
	 * Of each counter in plan_mask, the most its event can have grown
	 * in the slots since (vpmu_plan()), past what credits added to its
	 * value; 0 when nothing is left in them but that (a sparse one's
	 * value is then exact, vpmu_exact_of()).
	 */
	u64 grown[VPMU_NR_COUNTERS_MAX];
	/*
	 * Counters of CYCLES that every slot in use counts grew by unfolded
	 * exactly, counters of UOPS by unfolded - unfolded_stall
	 * (vpmu_ctr_unfolded()): vpmu_ctr_credit() adds that to their
	 * values without a fold, noting in credited[i] how much it added,
	 * which the next fold takes off (credited_mask: those with some);
	 * so does vpmu_ctr_credit_n() for a sparse counter what an armed
	 * chunk or a step counted of it exactly.
	 * A fold with unfolded left (a new slot's, inside a run) makes
	 * unfolded unknown to credits until the next settle: credit_lost.
	 * x_mask: those of CYCLES in plan_mask, exact after every chunk
	 * (vpmu_defer_done()), which vpmu_plan() plans to the cycle;
	 * xu_mask: those of UOPS in plan_mask, planned so where a credit
	 * can make them exact; x_now: the chunk's, x_mask and those of
	 * xu_mask a credit could make exact when it was planned.
	 */
	u64 credited[VPMU_NR_COUNTERS_MAX];
	/* folds that found a credit larger than what ran: none, ever */
	u64 overcredit;
	/*
	 * Of the counters a step that defers counts (cmeasure), those one
	 * event from their wraps (cstep), vpmu_step_credit(); 0 unless the
	 * chunk is one.
	 */
	u16 cstep, cmeasure;
	u16 credited_mask, x_mask, xu_mask, x_now;
	bool credit_lost;
	/*
	 * counters enabled; counters of CYCLES, of UOPS
	 * (vpmu_engine_ctr_config())
	 */
	u16 on_mask, cyc_mask, uops_mask;
	/*
	 * The counters in plan_mask whose events occur on few microwords
	 * (mem.sparse_uw lists them, counter i's from sparse_at[i], each
	 * with the head of its segment): what they grew by in the slots is
	 * cheap to sum exactly (vpmu_sparse_exact()), so that a bound grown
	 * far past it does not cut chunks short.
	 */
	u16 sparse_mask;
	/*
	 * Of those, the ones a chunk may count up to their wrap, armed
	 * (vpmu_plan_chunk()): no stall grows them, and while translations
	 * run, their events are counted per block (vpmu_tc_ev()).
	 */
	u16 arm_mask;
	/*
	 * Of those, the ones whose grown an armed chunk made (what it
	 * counted of what it had left): close enough to arm the next
	 * chunk without making it exact.
	 */
	u16 tight;
	/* of those in plan_mask: gaps; events a stall grows (vpmu_plan()) */
	u32 plan_gap[VPMU_NR_COUNTERS_MAX];
	u16 stall_mask;
	u32 sparse_at[VPMU_NR_COUNTERS_MAX], sparse_n[VPMU_NR_COUNTERS_MAX];
	u32 last_stall_upc;		/* the last microword that stalled */
	/*
	 * Least microwords from one occurrence of a static event to the
	 * next, per event (0: not computed yet).
	 */
	u32 gap[VPMU_NGAP];
	/*
	 * The image reads counters (CTR): the program's instructions are
	 * the engine's since insn_mark plus st.insn_acc (vpmu_insn_mark()).
	 */
	bool image_reads;
	u64 insn_mark;
};

/* A trigger source's microword, between it and vpmu_hook_post(). */
struct vpmu_trig_hook {
	struct vpmu_uop *u;
	u32 dyn, tkn;			/* its counts before it ran */
	unsigned int mode;
	u64 wq;				/* wq_last before it ran */
	u32 maddr;			/* its data address, if hu.route */
	u64 now;			/* its last cycle */
};

/*
 * Triggers and gates (vpmu_triggers.c): the freeze bits, what toggles,
 * starts and stops each freeze group, the static trigger sources, and
 * gating (vpmu_engine_fgroup_gate()): per unit (VPMU_GATE_*), the freeze
 * groups gating it; units gated with no group (closed); units gated at
 * all (req); units counting under the freeze bits now (open: all while
 * none is gated).  Slots count under one state of each unit
 * (VPMU_SLOT_UH, _HU in slot_mask).
 */
struct vpmu_triggers {
	unsigned int frozen;
	u16 toggle[VPMU_NR_FGROUPS_MAX];
	u16 start[VPMU_NR_FGROUPS_MAX], stop[VPMU_NR_FGROUPS_MAX];
	u16 ovf_src;			/* counters whose wrap is a trigger */
	u32 ntsrc;			/* microwords with static toggles */
	u16 tsrc_fgroups;	/* bit g: a fast one toggles fgroups g */
	u8 gate_fgroups[2];
	u8 gate_closed, gate_req, gate_open;
	struct vpmu_trig_hook hook;
};

/* The micro-PC histogram (vpmu_upc_hist.c): engine-local clock. */
struct vpmu_uhist {
	u32 interval;			/* K, 0: off */
	u64 left;			/* cycles before the next sample */
	struct vpmu_uhist_sampler sampler;	/* ...as the loop takes them */
	/* where samples at K > 1 go: uhist, or sink while gated shut */
	u64 *to, *sink;
};

/*
 * The histogram unit (vpmu_hist_unit.c): engine-local clock.  The
 * monitoring period is cut into windows (runs of cycles with the same
 * entries counting); chunks end at window ends, so the set is constant
 * in a chunk.
 */
struct vpmu_hu {
	struct vpmu_hu_prog prog;	/* prog.n == 0: off */
	u64 bucket[VPMU_HU_MAX];	/* C1..Cn */
	u32 period;			/* the monitoring period, cycles */
	u64 pos;			/* cycle in it; period: held (once) */
	u32 left;			/* cycles to the window's end */
	u8 cls[VPMU_HU_MAX];		/* enum vpmu_cls of each */
	u16 fact;		/* counting now, by the fold: EVENT, UPC */
	u16 wact;			/* counting now, by occupancy: WQ */
	u16 mact;		/* counting now, in the hook: addresses */
	bool wq;			/* a WQ entry: stores are routed */
	u8 route;			/* VPMU_K_LOAD, _STORE: routed for it */
	u64 b;				/* program cycle at the window's end */
	u64 acc;			/* occupancy counted up to this cycle */
	u64 w0;			/* wq_last before the last routed store */
};

/*
 * The translation cache (vpmu_tc_cache.c): its arrays are the memory's
 * (tc_*).  The words of memory that hold a translation's checked words
 * have a bit each (tc_code); the code generation starts anew on a store
 * into one of them, or a run whose memory may have changed
 * (vpmu_tc_check()).
 */
struct vpmu_tc {
	union {
		struct {
			u32 epoch;	/* of vpmu_tc_drain() */
			u32 gen;	/* the code generation */
		};
		u64 stamp;		/* as a translation's stamp */
	};
	/*
	 * The program this engine saved last, if nothing has been started
	 * or restored on it since, and the number of that save (of nsaves):
	 * restored as it was, its memory is as this engine left it
	 * (vpmu_tc_mem()).
	 */
	const struct vpmu_ctx *saved;
	u64 saved_seq, nsaves;
	/*
	 * The pool's ring: records from tail to head, or when it has
	 * wrapped, from tail to the pool's end and from its start to head.
	 */
	u32 head, tail;
	bool wrapped;
	u32 nlinks;			/* in mem.tc_links */
	u32 nblocks;			/* blocks of the live translations */
	u32 ntouch;			/* translations counted since drain */
	u32 msz;			/* memory its fetches are inside of */
	/* the words tc_code marks lie in [code_lo, code_lo + code_span) */
	u32 code_lo, code_span;
	bool off;			/* vpmu_engine_tc_enable(e, false) */
	/*
	 * The interpreter runs an instruction whose translation is a
	 * "none", or one a translation left at a trigger source: the next
	 * instruction earns heat even if control falls into it.
	 */
	bool head_next;
	/*
	 * Deferred (vpmu_engine_tc_defer()): runs translate nothing; the
	 * warm instructions they find wait in want[] for
	 * vpmu_engine_tc_work().
	 */
	bool defer;
	bool wanted;	/* one was added to want[]: the run yields */
	/*
	 * Yielding (vpmu_engine_tc_yield()): a run that has used cycles
	 * since yield_from (~0: never) ends at the entry of a block
	 * it has too few left for, and the next run enters that block
	 * (resume: the translation's pool offset, 0 for none, the op, and
	 * what the engine was then) if nothing but saving and restoring
	 * the program, counting and translating happened in between.
	 */
	bool yield;
	u64 yield_from;
	struct {
		u32 tb, op, upc, gen, mode;
	} resume;
	/*
	 * Counting up to a wrap (vpmu_plan_chunk()): ev_mask has the bits
	 * of the counters whose events the pool's BLOCK_EV ops count (0:
	 * none, every block is a BLOCK), at most VPMU_TC_EV_MAX, in bit
	 * order; ev_vec[] the counts of those events a block may add, one
	 * per counter, of which BLOCK_EV names one (the first: the most any
	 * block may add), vpmu_tc_ev().  While a chunk runs armed, ev_gap is
	 * their gap (0: not armed), ev_left[] the events each may still
	 * count (never short unarmed) of ev_arm[] when it began, ev_t0 the
	 * cycle since which the interpreter ran, ev_cend the chunk's last
	 * cycle, and ev_icend the interpreter's after translations ran
	 * (vpmu_tc_exec_armed()).  Of those counters (bit k for ev_left[k]),
	 * ev_eoi has the ones of INSNS: the interpreter counts their events
	 * exactly, one at each EOI it runs, and stops after the one that
	 * leaves none (vpmu_eoi()), rather than being charged a gap's worth
	 * of its cycles for each.
	 */
	u16 ev_mask;
	u8 ev_n, ev_nvec, ev_eoi;
	/*
	 * Some block BLOCK_EV counts by the most any block may add
	 * (ev_vec[0]: the table was full), not by its own events.
	 */
	bool ev_over;
	/*
	 * Some EOI microword runs a hook after it (it is routed, or it
	 * changes the mode), and the interpreter's EOI then counts nothing:
	 * no chunk counts INSNS at EOIs (vpmu_prepare()).
	 */
	bool eoi_hook;
	u8 ev_vec[VPMU_TC_EV_VECS][VPMU_TC_EV_MAX];
	u32 ev_gap, ev_left[VPMU_TC_EV_MAX], ev_arm[VPMU_TC_EV_MAX];
	u64 ev_t0;
	u64 ev_cend, ev_icend;
	u32 nwant;
	struct {
		u32 key, ir;
	} want[VPMU_TC_WANT];
	struct vpmu_tc_stats stats;
};

/*
 * An engine: its memory, the ucode it runs, the program on it, and its
 * parts, one per concern; each file of the engine works on its own part.
 */
struct vpmu_engine {
	struct vpmu_engine_mem *mem_alloc;	/* NULL: no ucode can attach */
	struct vpmu_engine_mem mem;	/* a copy of *mem_alloc, or zeroes */
	const struct vpmu_ucode *uc;
	u32 ncs;			/* uc's control-store words */
	bool dirty;			/* configuration changed: re-route */
	const void *const *lab;		/* the interpreter's handlers */
	const void *const *tlab;	/* ...and the translations' */
	struct vpmu_prog_state st;	/* the program's architectural state */
	struct vpmu_datapath dp;
	struct vpmu_counting ctr;
	struct vpmu_triggers trig;
	struct vpmu_uhist uh;
	struct vpmu_hu hu;
	struct vpmu_tc tc;
};

/*
 * Microword @upc stalled @stall cycles (a miss, a full write queue): the
 * last that did, for the chunk's end, and the stall cycles run, which
 * tell a credit to a counter of UOPS what of the cycles run are not
 * microwords (vpmu_ctr_unfolded()).
 */
static __always_inline void vpmu_stalled(struct vpmu_engine *e, u32 upc,
					 u32 stall)
{
	e->ctr.last_stall_upc = upc;
	e->ctr.stalled += stall;
}

static inline u64 vpmu_stall_of(const struct vpmu_engine *e,
				const struct vpmu_dec *d, u64 dyn)
{
	if (d->kind & VPMU_K_LOAD)
		return dyn * e->dp.penalty;
	if (d->kind & VPMU_K_STORE)
		return dyn;
	return 0;
}

/*
 * What an event counts on a microword where it can occur at all
 * (vpmu_ev_possible(), which ctr_hit caches per counter): one of these
 * linear forms of the microword's counts, the same on every such microword.
 */
enum vpmu_cls {
	/* executions: UOPS, INSNS, DISPATCH, TRIGGER, STORES, tags */
	VPMU_CLS_EXEC,
	VPMU_CLS_CYC,	/* executions + stall cycles: CYCLES */
	VPMU_CLS_TKN,	/* taken: UBR_TAKEN */
	VPMU_CLS_HIT,	/* executions - misses: DC_HIT */
	VPMU_CLS_DYN,	/* misses or stall cycles: DC_MISS, WQ_STALL */
	VPMU_CLS_NR
};

/* Each form's value on a microword: @c executions, @stall, @dy, @tk. */
static inline void vpmu_cls_values(u64 *v, u64 c, u64 stall, u64 dy, u64 tk)
{
	v[VPMU_CLS_EXEC] = c;
	v[VPMU_CLS_CYC] = c + stall;
	v[VPMU_CLS_TKN] = tk;
	v[VPMU_CLS_HIT] = c - dy;
	v[VPMU_CLS_DYN] = dy;
}

/*
 * The fold's share: a microword's executions @c, stall cycles @stall,
 * memory count @dy and taken branches @tk to the entries @m it feeds.
 */
static inline void vpmu_hu_fold(struct vpmu_engine *e, u16 m, u64 c, u64 stall,
				u64 dy, u64 tk)
{
	u64 v[VPMU_CLS_NR];

	if (!m)
		return;
	vpmu_cls_values(v, c, stall, dy, tk);
	while (m) {
		unsigned int i = __builtin_ctz(m);

		m &= m - 1;
		e->hu.bucket[i] += v[e->hu.cls[i]];
	}
}

/* The slot whose uops start at @base (a run's exit: toggles move base). */
static inline unsigned int vpmu_slot_of(const struct vpmu_engine *e,
					const struct vpmu_uop *base)
{
	return (unsigned int)(((const char *)base -
			       (const char *)e->mem.slot[0]) /
			      e->mem.slot_stride);
}

static inline unsigned int vpmu_key(unsigned int mode, unsigned int frozen)
{
	return mode | frozen << 1;
}

/*
 * The executions of a sparse counter's microword the uops @U of one slot
 * hold: @w, its word of mem.sparse_uw (upc | its segment's head << 16),
 * summed from the head as vpmu_fold() sums them.
 */
static inline u32 vpmu_uw_runs(const struct vpmu_uop *U, u32 w)
{
	u32 upc = w & 0xffff, h = w >> 16, c = U[upc].cnt;

	for (; h < upc; h++)
		c += U[h].cnt;
	return c;
}

/*
 * @exact, the sparse counters whose growth in the slots ctr.grown is
 * exactly (vpmu_sparse_exact()), and of @mask those that have grown by
 * nothing the slots hold but what credits added (vpmu_arm_grow(),
 * vpmu_step_credit()): every chunk that ran and did not credit one left
 * its ctr.grown 1 at least.
 */
static inline u16 vpmu_exact_of(const struct vpmu_engine *e, u16 exact,
				u16 mask)
{
	for (mask &= e->ctr.sparse_mask & ~exact; mask; mask &= mask - 1)
		if (!e->ctr.grown[__builtin_ctz(mask)])
			exact |= mask & -mask;
	return exact;
}

/*
 * May a run leave the counts in the uops, between its chunks and after it
 * ends, until vpmu_settle()?  Only if nothing needs each chunk's counts
 * apart (the histogram unit's windows).  Then a run's end costs no fold:
 * the driver's runs are short chunks of a program, and counts are read
 * far less often than that.  Counters that plan chunks by their values
 * (an interrupt or a freeze on overflow) let a chunk defer while the most
 * their events can have grown since the last fold keeps them from
 * wrapping in it (vpmu_chunk()); nearer their wrap, chunks fold.
 */
static inline bool vpmu_defer_ok(const struct vpmu_engine *e)
{
	return !e->hu.prog.n;
}

static inline bool vpmu_event_valid(unsigned int ev)
{
	return ev < VPMU_EV_NR_BASIC ||
	       (ev > VPMU_EV_TAG_BASE && ev <= VPMU_EV_TAG(VPMU_TAG_MAX));
}

/* Is @ev a histogram unit's bucket (VPMU_EV_HU(b), uapi)? */
static inline bool vpmu_event_hu_bucket(unsigned int ev)
{
	return ev >= VPMU_EV_HU_BASE &&
	       ev < VPMU_EV_HU(VPMU_HU_BUCKETS);
}

/* The flags, computed if a fused compare left them lazy. */
static inline u32 vpmu_flags_now(const struct vpmu_engine *e)
{
	u32 f = e->mem.R[VPMU_RF_FLAGS];

	if (f & VPMU_FLAGS_LAZY)
		f = vpmu_flags(3, e->dp.lazy_a, e->dp.lazy_b,
			       e->dp.lazy_a - e->dp.lazy_b);
	return f;
}

static inline u32 vpmu_flags_sync(struct vpmu_engine *e)
{
	e->mem.R[VPMU_RF_FLAGS] = vpmu_flags_now(e);
	return e->mem.R[VPMU_RF_FLAGS];
}

/*
 * Point @ds @s1 @s2 at the registers the latches name.  With R0_ZERO, r0
 * is read from R[0], which only @ writes can reach and which they zero
 * again at once (dp.zero_idx); direct writes of r0 go to the sink.
 */
static inline void vpmu_latch_maps(struct vpmu_engine *e)
{
	unsigned int k;

	for (k = 0; k < 3; k++)
		e->mem.reg_of[VPMU_OPND_AT_DS + k] = e->mem.R[VPMU_RF_DS + k] &
						     31;
}

/* vpmu_events.c: what each event counts on a microword */
u8 vpmu_ev_cls(unsigned int ev);
u64 vpmu_ev_count(const struct vpmu_engine *e, unsigned int ev,
		  u32 upc, u64 c, u64 dy, u64 tk);
bool vpmu_ev_possible(const struct vpmu_engine *e, unsigned int ev, u32 upc);

/* vpmu_triggers.c: triggers, the hook, gates */
bool vpmu_trig_dynamic(u16 trigger);
bool vpmu_trig_any(struct vpmu_engine *e);
void vpmu_gate_sync(struct vpmu_engine *e);
void vpmu_gate_resync(struct vpmu_engine *e);
void vpmu_hook_post(struct vpmu_engine *e, unsigned int hook);

/* vpmu_counters.c: the fold, slots, the counters */
bool vpmu_ctr_enabled(const struct vpmu_engine *e, unsigned int i);
unsigned int vpmu_gate_open(const struct vpmu_engine *e, unsigned int frozen);
u32 vpmu_fold(struct vpmu_engine *e, u32 lo, u32 hi);
u32 vpmu_settle_wraps(struct vpmu_engine *e);
u32 vpmu_settle_all(struct vpmu_engine *e);
u32 vpmu_ctr_creditable(const struct vpmu_engine *e, u32 mask);
u32 vpmu_ctr_credit(struct vpmu_engine *e, u32 mask);
bool vpmu_ctr_credit_n(struct vpmu_engine *e, unsigned int i, u64 n);
u32 vpmu_ctrs_credited(const struct vpmu_engine *e);
void vpmu_slot_reset(struct vpmu_engine *e);
unsigned int vpmu_slot_get(struct vpmu_engine *e, unsigned int key);
u32 vpmu_defer_done(struct vpmu_engine *e, u64 n, u64 stall);
void vpmu_sparse_build(struct vpmu_engine *e);
void vpmu_sparse_exact(struct vpmu_engine *e, u16 mask);
void vpmu_settle(struct vpmu_engine *e);
u64 vpmu_insn_count(struct vpmu_engine *e);
void vpmu_insn_mark(struct vpmu_engine *e, bool leaving);

/* vpmu_upc_hist.c: the micro-PC histogram */
void vpmu_uhist_advance(struct vpmu_engine *e, u64 n, u32 upc);

/* vpmu_hist_unit.c: the histogram unit */
void vpmu_hu_restart(struct vpmu_engine *e);
u16 vpmu_hu_hit(const struct vpmu_engine *e, u32 upc);
void vpmu_hu_wq_add(struct vpmu_engine *e, u16 m, u64 w, u64 a, u64 b);
void vpmu_hu_hook(struct vpmu_engine *e, u32 upc, u32 miss);
void vpmu_hu_chunk_begin(struct vpmu_engine *e, u64 c1);
void vpmu_hu_chunk_end(struct vpmu_engine *e, u64 c1);

/* vpmu_plan.c: planning a run's chunks */
void vpmu_plan_setup(struct vpmu_engine *e);
bool vpmu_plan_chunk(struct vpmu_engine *e, u64 *L, bool *defer);
void vpmu_plan_grow(struct vpmu_engine *e, u64 n, u16 armed);
u16 vpmu_arm_grow(struct vpmu_engine *e);

/* vpmu_interp.c: the interpreter loop */
int vpmu_interp(struct vpmu_engine *e, s64 L);

/* vpmu_uop_build.c: the uops, their routes and segments */
void vpmu_prepare(struct vpmu_engine *e);

/*
 * The fetch check.  An instruction word is fetched at a pc on the image's
 * instruction boundary (4 bytes, or 2 with VPMU_IMG_F_IALIGN16) with all
 * its 4 bytes in memory: ror(pc, shift) < vpmu_fetch_limit().  With shift
 * 2 that is pc / 4 < msz / 4; with shift 1, pc / 2 < msz / 2 - 1, so pc + 4
 * <= msz.  A pc off the boundary has a high bit set once rotated.
 */
static inline u32 vpmu_fetch_limit(u32 shift, u32 msz)
{
	if (shift == 2)
		return msz >> 2;
	return msz >= 4 ? (msz >> 1) - 1 : 0;
}

static inline bool vpmu_fetch_ok(const struct vpmu_engine *e, u32 pc, u32 msz)
{
	return (pc >> e->dp.fetch_shift | pc << (32 - e->dp.fetch_shift)) <
	       vpmu_fetch_limit(e->dp.fetch_shift, msz);
}

/*
 * The table entry of @key (pc | mode): by pc / 2, so that instructions on
 * 2-byte boundaries (IALIGN16) have entries of their own; those on 4-byte
 * boundaries use every other one.
 */
static inline u32 vpmu_tc_slot(u32 key)
{
	return (key >> 1) & (VPMU_TC_MAP - 1);
}

/* The bit of tc_code for the word of memory at @addr. */
static inline u32 vpmu_tc_code_bit(u32 addr)
{
	return (addr / 4) & (VPMU_TC_CODE_BITS - 1);
}

/*
 * Is @maddr in a word of memory that holds (part of) a word a translation
 * checks, or one a multiple of 256 KiB apart?  A store there starts a new
 * code generation: every translation compares its words again before it
 * runs (vpmu_tc_check()).  Stores are aligned: one word holds each.
 */
static inline bool vpmu_tc_code(const struct vpmu_engine *e, u32 maddr)
{
	u32 w;

	/* (most stores are nowhere near the words marked: no bit to read) */
	if (maddr - e->tc.code_lo >= e->tc.code_span)
		return false;
	w = vpmu_tc_code_bit(maddr);
	return e->mem.tc_code[w / 32] >> (w % 32) & 1;
}

/*
 * Mark the words of memory that hold the instruction word at @pc (two,
 * on a 2-byte boundary) as ones a translation relies on: a store into
 * either starts a new code generation.
 */
static inline void vpmu_tc_code_mark(struct vpmu_engine *e, u32 pc)
{
	u32 w = vpmu_tc_code_bit(pc), w3 = vpmu_tc_code_bit(pc + 3);
	u32 lo = pc & ~3u, hi = ((pc + 3) & ~3u) + 4;

	e->mem.tc_code[w / 32] |= 1u << (w % 32);
	e->mem.tc_code[w3 / 32] |= 1u << (w3 % 32);
	if (e->tc.code_span) {
		if (hi < e->tc.code_lo + e->tc.code_span)
			hi = e->tc.code_lo + e->tc.code_span;
		if (lo > e->tc.code_lo)
			lo = e->tc.code_lo;
	}
	e->tc.code_lo = lo;
	e->tc.code_span = hi - lo;
}

/*
 * The interpreter stored to @maddr: a new code generation if into such a
 * word, whether this chunk uses the cache or not (its translations stay).
 */
static inline void vpmu_tc_stored(struct vpmu_engine *e, u32 maddr)
{
	if (e->mem.tc_pool && unlikely(vpmu_tc_code(e, maddr)))
		e->tc.gen++;
}

/* The translation of (@key = pc | mode, @ir), or NULL; maybe a "none". */
static inline const struct vpmu_tc_trans *
vpmu_tc_probe(const struct vpmu_engine *e, u32 key, u32 ir)
{
	u32 off = e->mem.tc_map[vpmu_tc_slot(key)];
	const struct vpmu_tc_trans *tb =
		(const struct vpmu_tc_trans *)(e->mem.tc_pool + off);

	return off && tb->key == key && tb->ir == ir ? tb : NULL;
}

/*
 * Is the instruction (@key = pc | mode, @ir), not translated, worth
 * translating now?  It has run VPMU_TC_WARM times (counted by its table
 * entry).  Deferred, it waits for vpmu_engine_tc_work() instead (queued
 * at most once: its heat marks it), and the run goes on interpreting.
 */
static inline bool vpmu_tc_warm(struct vpmu_engine *e, u32 key, u32 ir)
{
	u8 *heat = &e->mem.tc_heat[vpmu_tc_slot(key)];

	if (*heat < VPMU_TC_WARM) {
		++*heat;
		return false;
	}
	if (!e->tc.defer)
		return true;
	if (*heat == VPMU_TC_WARM && e->tc.nwant < VPMU_TC_WANT) {
		e->tc.want[e->tc.nwant].key = key;
		e->tc.want[e->tc.nwant++].ir = ir;
		e->tc.wanted = true;
		*heat = VPMU_TC_WARM + 1;
	}
	return false;
}

#endif /* _VPMU_ENGINE_PRIV_H */
