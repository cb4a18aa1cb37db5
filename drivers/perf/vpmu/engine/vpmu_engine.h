/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_engine.h - the engine core's interface.
 *
 * Three forms of microcode, each with its own name here:
 *
 *  image               the bytes of a microcode image, in the format of
 *                      include/uapi/linux/vpmu.h, as loaded or built.
 *  struct vpmu_ucode   an image validated and decoded by
 *                      vpmu_ucode_load().  Immutable; shared by every
 *                      engine attached to it.
 *  uops                an engine's own executable form of the ucode it is
 *                      attached to (vpmu_uop_build.c), rebuilt on attach.
 *
 * and one processor, struct vpmu_engine: registers, sequencer, cache and
 * write-queue state, and its PMU hardware (counters, freeze bits,
 * overflow status, micro-PC histogram, histogram unit).
 *
 * The core never sleeps, locks or allocates while running; callers
 * serialise access to an engine (the module keeps one per CPU).  Every run
 * is bounded by a cycle budget.  Everything is deterministic: the same
 * ucode, memory, entry point and counter set-up give the same state and
 * counts on every host and kernel.
 */
#ifndef _VPMU_ENGINE_H
#define _VPMU_ENGINE_H

#include "vpmu_port.h"
#include "vpmu_isa.h"

/* ---- images and ucodes -------------------------------------------------- */

/*
 * Why an image was rejected: X(name, errno, message).  The message is
 * completed with details (offset, index, value) in struct vpmu_verr.
 */
#define VPMU_VERR_LIST(X)						\
	X(OK,		0,	   "image accepted")			\
	X(TRUNCATED,	EINVAL,	   "image shorter than its header")	\
	X(MAGIC,	ENOEXEC,   "bad magic number")			\
	X(VERSION,	EPROTONOSUPPORT, "unsupported image version")	\
	X(SIZE,		EMSGSIZE,  "total_size does not match the data")	\
	X(CHECKSUM,	EBADMSG,   "checksum mismatch")			\
	X(HEADER,	EINVAL,	   "reserved header field not zero")	\
	X(LAYOUT,	ERANGE,	   "section out of bounds, misaligned or overlapping") \
	X(TOO_BIG,	EFBIG,	   "control store larger than this engine") \
	X(EVMODE,	EDOM,	   "bad event-field mode or width")	\
	X(PARAM,	EDOM,	   "machine parameter out of range")	\
	X(OPCODE,	EILSEQ,	   "reserved ALU, sequencer or condition code") \
	X(OPERAND,	EILSEQ,	   "operand not valid in this position")	\
	X(RESERVED,	EILSEQ,	   "unused microword field not zero")	\
	X(EVENT,	EILSEQ,	   "event field uses bits beyond ev_bits") \
	X(ADDRESS,	ENXIO,	   "micro-address outside the control store") \
	X(IDTAB,	ENXIO,	   "ID-table entry outside the control store") \
	X(SYMBOL,	EBADR,	   "bad symbol table entry")		\
	X(INSN,		EBADR,	   "bad macro-instruction declaration")	\
	X(STRING,	EBADR,	   "bad string table")			\
	X(TAG,		EBADR,	   "bad tag name")

enum vpmu_verr_code {
#define VPMU_X(name, ...) VPMU_VERR_##name,
	VPMU_VERR_LIST(VPMU_X)
#undef VPMU_X
	VPMU_VERR_NR,
};

struct vpmu_verr {
	enum vpmu_verr_code code;
	int err;		/* negative errno, 0 when accepted */
	u32 offset;		/* byte offset of the offending item */
	char msg[160];		/* human-readable reason with details */
};

struct vpmu_ucode;

/*
 * Validate @len bytes at @img completely, then decode.  Nothing is kept on
 * failure; @err says why.  @cs_limit is the largest control store this
 * engine accepts (<= VPMU_CS_MAX).  The ucode keeps a copy of the bytes.
 */
int vpmu_ucode_load(struct vpmu_ucode **out, const void *img, size_t len,
		    u32 cs_limit, struct vpmu_verr *err);
void vpmu_ucode_free(struct vpmu_ucode *uc);
const struct vpmu_image_header *vpmu_ucode_header(const struct vpmu_ucode *uc);
const void *vpmu_ucode_bytes(const struct vpmu_ucode *uc, size_t *len);
/*
 * Tag name @i (0..tag_count - 1) of @uc, its tag in *@k; NULL past the
 * last.  Names are valid (include/uapi/linux/vpmu.h, struct
 * vpmu_image_tag) and live as long as @uc.
 */
const char *vpmu_ucode_tag(const struct vpmu_ucode *uc, u32 i,
			   unsigned int *k);
/*
 * Why @name cannot name a tag ("is a basic event", ...), or NULL if it
 * can: the validator's rule, for the assembler to apply too.
 */
const char *vpmu_tag_name_why(const char *name);
/* The name @uc gives tag @k, or NULL. */
const char *vpmu_ucode_tag_name(const struct vpmu_ucode *uc, unsigned int k);

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32()) over @len bytes. */
u32 vpmu_crc32(u32 crc, const void *buf, size_t len);
/* Compute and store the header checksum of a complete image in place. */
void vpmu_image_seal(void *img, size_t len);

/* ---- the engine ------------------------------------------------------- */

enum vpmu_stop_reason {
	VPMU_STOP_BUDGET,	/* cycle budget used up */
	VPMU_STOP_HALT,		/* HALT executed */
	VPMU_STOP_TRAP,		/* TRAP executed; code = trap code */
	VPMU_STOP_FAULT,	/* a microword faulted; code = VPMU_FAULT_* */
	VPMU_STOP_OVERFLOW,	/* a counter with VPMU_CTR_INT wrapped */
};

enum vpmu_fault {
	VPMU_FAULT_NONE,
	VPMU_FAULT_LOAD,	/* load outside memory; addr = address */
	VPMU_FAULT_STORE,	/* store outside memory */
	VPMU_FAULT_ALIGN,	/* misaligned load or store */
	VPMU_FAULT_FETCH, /* instruction fetch outside memory/misaligned */
	VPMU_FAULT_USTACK,	/* micro-stack overflow or underflow */
	VPMU_FAULT_NOUCODE,	/* no ucode attached */
};

struct vpmu_stop {
	enum vpmu_stop_reason reason;
	u32 code;		/* trap code or enum vpmu_fault */
	u32 addr;		/* faulting address */
	/*
	 * FAULT: the faulting microword; OVERFLOW: the microword on which
	 * the counter wrapped; otherwise the next microword.
	 */
	u32 upc;
	u32 ipc;		/* macro PC of the instruction of upc */
	u32 ovf;		/* OVERFLOW: counters that wrapped (bitmask) */
	u64 cycles;		/* cycles this run used */
};

#define VPMU_NR_COUNTERS_MAX	16
#define VPMU_NR_FGROUPS_MAX	4	/* freeze groups */

/* Counter control flags (struct vpmu_ctr_cfg.flags). */
#define VPMU_CTR_USER		BIT(0)	/* count in user mode */
#define VPMU_CTR_SUPER		BIT(1)	/* count in supervisor mode */
#define VPMU_CTR_INT		BIT(2)	/* stop with OVERFLOW on wrap */
#define VPMU_CTR_FREEZE_ON_OVF	BIT(3)	/* freeze the fgroup on wrap */

/*
 * A counter as the hardware has it.  A counter with neither USER nor SUPER
 * is disabled.  It counts while its freeze group's bit is clear.
 */
struct vpmu_ctr_cfg {
	u16 event;		/* enum vpmu_event, VPMU_EV_TAG(k), ... */
	u8 width;		/* bits, 1..64; wraps to 0 at 2^width */
	u8 flags;		/* VPMU_CTR_* */
	u8 fgroup;		/* freeze group, < VPMU_NR_FGROUPS_MAX */
};

/* Freeze-group trigger sources (vpmu_engine_fgroup_trigger()). */
#define VPMU_TRIG_NONE		0xffff	/* software and FREEZE_ON_OVF only */
#define VPMU_TRIG_MARK		0xfffe	/* microwords with the T bit */
/* ...or any event number: each microword on which it occurs toggles. */
/*
 * ...or the wrap of counter @i: it acts right after the microword that
 * wrapped the counter, as a freeze on overflow does (counter i is then
 * stepped to its wrap like one that interrupts).
 */
#define VPMU_TRIG_OVF(i)	(0xffe0 + (i))
#define VPMU_TRIG_IS_OVF(t)						\
	((t) >= VPMU_TRIG_OVF(0) && (t) < VPMU_TRIG_OVF(VPMU_NR_COUNTERS_MAX))

struct vpmu_engine;
struct vpmu_ctx;

/*
 * Engine lifetime.  vpmu_engine_create() allocates an engine, and with
 * @cs_limit (1..VPMU_CS_MAX) the memory a ucode of up to that many
 * microwords needs; it returns NULL on a bad limit or no memory.  An
 * engine made with 0 has its PMU hardware (counters, freeze bits,
 * triggers, the histogram unit's program and buckets) and nothing to run:
 * it takes a ucode once it has memory (vpmu_engine_mem_set()).  Nothing
 * else here allocates but vpmu_engine_mem_alloc() and vpmu_ctx_create():
 * attach, start, run, save and restore may be called with preemption
 * disabled.
 *
 * vpmu_engine_attach() attaches a ucode (-EFBIG if it has more words than
 * the engine's memory holds) and may be called again to switch ucodes
 * between runs.
 * It keeps the PMU hardware state: counter configurations and values,
 * overflow status, freeze bits, fgroup triggers (their microword hooks are
 * re-routed for the new ucode), the micro-PC histogram's interval and the
 * histogram unit's program.  It rebuilds or resets what belongs to a
 * ucode: the uops, the event totals and per-microword counts, the micro-PC
 * histogram's buckets and sampling phase, the histogram unit's buckets
 * and its monitoring period.  The program state on the engine becomes
 * unusable: vpmu_engine_start() or vpmu_engine_ctx_restore() next.
 */
struct vpmu_engine *vpmu_engine_create(u32 cs_limit);
void vpmu_engine_destroy(struct vpmu_engine *e);
int vpmu_engine_attach(struct vpmu_engine *e, const struct vpmu_ucode *uc);

/*
 * An engine's memory: what a ucode of up to @words microwords needs (and,
 * with @tc_words, the translation cache with a pool of that many 32-bit
 * words, VPMU_TC_POOL_MIN to VPMU_TC_POOL_MAX: about 4.5 bytes a pool
 * word and 100 KiB more; with 0 the engine interprets every microword,
 * with the same results), made where allocating is allowed
 * (vpmu_engine_mem_alloc(), NULL on a bad size or no memory) and given
 * to the engine where it runs (vpmu_engine_mem_set(), which does not
 * allocate).  Setting folds the counts in flight into the counters and
 * detaches the ucode (attach again next), keeping the PMU hardware state
 * as attach does; it returns the memory the engine had, for the caller to
 * free where freeing is allowed (vpmu_engine_mem_free()).  NULL takes the
 * memory away.
 * vpmu_engine_mem_words() is the largest ucode the engine can attach now.
 */
struct vpmu_engine_mem;
#define VPMU_TC_POOL_DEFAULT	(128 * 1024)
#define VPMU_TC_POOL_MIN	1024
#define VPMU_TC_POOL_MAX	(4 * 1024 * 1024)
struct vpmu_engine_mem *vpmu_engine_mem_alloc(u32 words, u32 tc_words);
void vpmu_engine_mem_free(struct vpmu_engine_mem *m);
struct vpmu_engine_mem *vpmu_engine_mem_set(struct vpmu_engine *e,
					    struct vpmu_engine_mem *m);
u32 vpmu_engine_mem_words(const struct vpmu_engine *e);

/*
 * Begin a program: memory is the caller's (@mem_size bytes, used in place),
 * registers and flags are zeroed, mode set, pc = @entry, and the first
 * instruction is fetched and dispatched (at no cycle cost).  Resets all
 * program state (see struct vpmu_ctx) and the event totals; counters keep
 * their configuration and values.
 */
void vpmu_engine_start(struct vpmu_engine *e, u8 *mem, u32 mem_size,
		       u32 entry, unsigned int mode);

/*
 * Program contexts: a program's architectural state off the engine, so that
 * it can be run in pieces, on different engines, with other programs run
 * in between.  A context holds everything the program owns: r0..r31,
 * t0..t7, pc, ir, ipc, the latches, flags, mode (and a pending mode
 * change), upc, the micro-stack, the ext line, the program's cycle count,
 * the data-cache tags, the write queue, the last-miss condition, the
 * halted/trapped stop, and the memory pointer and size (the memory itself
 * stays the caller's).  The engine keeps the PMU state: counters, overflow
 * status, freeze bits, triggers, event totals and per-microword counts,
 * the micro-PC histogram's buckets and sampling countdown, the histogram
 * unit (both run on the engine's own clock, so switching programs does
 * not disturb them).
 *
 * vpmu_ctx_create() allocates (process context), for its caller: charged
 * to the caller's memory cgroup (vpmu_zalloc_user()); save and restore do
 * not allocate and cost O(registers + cache lines).  Saving records the
 * ucode the engine runs; restore fails with -ESTALE, changing nothing,
 * unless the engine is attached to that same ucode (and the context was
 * saved from a started program).  Running a program whole, or in pieces
 * with save / restore between them on any engines attached to the ucode,
 * gives the same architectural results and cycles, and the same counts
 * summed over the engines.
 */
struct vpmu_ctx *vpmu_ctx_create(void);
void vpmu_ctx_destroy(struct vpmu_ctx *c);
void vpmu_engine_ctx_save(struct vpmu_engine *e, struct vpmu_ctx *c);
int vpmu_engine_ctx_restore(struct vpmu_engine *e, const struct vpmu_ctx *c);

/*
 * The program of context @c goes on in memory at @mem (its copy, say):
 * -EINVAL, changing nothing, unless @mem_size is the size it has.
 */
int vpmu_ctx_set_mem(struct vpmu_ctx *c, u8 *mem, u32 mem_size);

/*
 * The caller wrote the memory of the program on the engine between runs
 * (its memory is the caller's, used in place): the translation cache
 * compares what it translated from it again before it runs it.  Starting
 * a program, restoring another or one whose memory was set
 * (vpmu_ctx_set_mem()) does this too; a program restored as this engine
 * saved it does not need it.
 */
void vpmu_engine_mem_written(struct vpmu_engine *e);

/*
 * Run until the budget is used up or something stops the engine.  With
 * no counter interrupting or freezing on overflow and the histogram unit
 * off, the counts a run makes may stay in the engine's uops after it
 * returns, for later runs to add to; every function below that reads
 * counts (counters, overflow status and counts, event totals,
 * per-microword counts, the micro-PC histogram) or changes what they feed
 * (counter configuration and values, freeze bits, triggers, the micro-PC
 * histogram, the histogram unit, starting a program, attaching a ucode)
 * folds them in first, so no caller can tell.
 */
enum vpmu_stop_reason vpmu_engine_run(struct vpmu_engine *e, u64 budget,
				      struct vpmu_stop *stop);

/*
 * The translation cache: on unless turned off here; the counts, samples
 * and state of a run are the same either way.  Its memory is part of the
 * engine's.  The statistics count since the engine was made.
 */
struct vpmu_tc_stats {
	u64 translated;		/* instructions translated */
	u64 none;		/* ...found not worth it: interpreted */
	u64 words;		/* microwords the translations cover */
	u64 ops;		/* ops they hold */
	u64 flushes;		/* the cache emptied: new ucode, routes */
	u64 exits;		/* exits to the interpreter */
	u64 links;		/* translations linked to the next */
	u64 checks;		/* checked words compared again */
	u64 stale;		/* ...and one found changed */
	u32 pool_used;		/* pool words in use now */
	u32 blocks_used;	/* block counters in use now */
	u64 evicted;		/* translations evicted to make room */
	u64 yields;		/* runs ended before a block */
	u64 resumed;		/* ...entering that block on the next run */
	u64 yields_warm;	/* runs ended for an instruction found warm */
	u64 armed;		/* chunks run on, counting to a wrap */
	u64 turned;		/* the blocks made to count or not */
};

void vpmu_engine_tc_enable(struct vpmu_engine *e, bool on);

/*
 * Translation between runs.  Deferred (vpmu_engine_tc_defer(e, true)), a
 * run translates nothing: the instructions it finds warm wait (up to 16),
 * and the caller translates up to @max of them between runs with
 * vpmu_engine_tc_work(), which returns how many it did.  So what a run
 * costs does not depend on what it found to translate, and a translation
 * covers as much as it would in one long run, however the runs are cut.
 * vpmu_engine_tc_work() runs where a run may, with the program to run
 * next on the engine.
 */
void vpmu_engine_tc_defer(struct vpmu_engine *e, bool on);
unsigned int vpmu_engine_tc_work(struct vpmu_engine *e, unsigned int max);

/*
 * Runs that yield (vpmu_engine_tc_yield(e, true)), for a caller that cuts
 * a run into pieces and runs each piece until its cycles are used: a run
 * that has used cycles may end where a translated block it has too few
 * cycles left for begins, with VPMU_STOP_BUDGET and fewer cycles than its
 * budget, and the next run enters that block at once, where the
 * interpreter would otherwise have run to the next translated
 * instruction.  Deferring too, it may end after an instruction it found
 * warm, so that the caller's vpmu_engine_tc_work() translates it before
 * the run that would otherwise interpret it to its end.  Nothing else
 * differs: every count, stop and sample is where it would be.  Between
 * the two, saving and restoring the same
 * program, reading and setting counters and vpmu_engine_tc_work() keep
 * the block to enter; anything that changes the program's registers,
 * memory or microcode, or runs another program, makes the next run start
 * in the interpreter.
 */
void vpmu_engine_tc_yield(struct vpmu_engine *e, bool on);
void vpmu_engine_tc_stats(const struct vpmu_engine *e,
			  struct vpmu_tc_stats *s);

/* Architectural state, for tests, tools and the character device. */
u32 vpmu_engine_reg(const struct vpmu_engine *e, unsigned int opnd);
unsigned int vpmu_engine_mode(const struct vpmu_engine *e);
u32 vpmu_engine_upc(const struct vpmu_engine *e);
void vpmu_engine_set_ext(struct vpmu_engine *e, bool asserted);

/*
 * The owner's services, for microcode that stops with TRAP to ask its
 * owner for something (a system call, say) and goes on afterwards.
 * vpmu_engine_set_reg() writes r0..r31 or t0..t7 of the program on the
 * engine between runs (-EINVAL for any other operand; r0 stays 0 with
 * R0_ZERO).  vpmu_engine_trap_return() makes a program stopped by TRAP
 * go on at the microword after the TRAP on the next run, which starts
 * counting there: the TRAP itself was executed and counted once.
 * -EINVAL, changing nothing, if the program is not stopped by a TRAP or
 * the TRAP is the last word of the control store.
 */
int vpmu_engine_set_reg(struct vpmu_engine *e, unsigned int opnd, u32 val);
int vpmu_engine_trap_return(struct vpmu_engine *e);

/*
 * Totals since vpmu_engine_start() of any event (basic or tag), in all
 * modes, unaffected by counters and freezing: the reference the counters
 * are tested against.
 */
u64 vpmu_engine_event_total(struct vpmu_engine *e, unsigned int event);
/* Executions of microword @upc since start (both modes). */
u64 vpmu_engine_uword_count(struct vpmu_engine *e, u32 upc);
/*
 * Does an execution of microword @upc retire a macro instruction (count
 * VPMU_EV_INSNS once)?  For a caller that runs a program a microword at
 * a time (runs of one cycle) and stops it between instructions: the
 * microword about to run, asked before the run, says whether the run
 * ends on an instruction boundary.  O(1), and it folds nothing, unlike
 * the totals.  False for a bad @upc or without a ucode.
 */
bool vpmu_engine_uword_retires(const struct vpmu_engine *e, u32 upc);

/* The PMU hardware. */
int vpmu_engine_ctr_config(struct vpmu_engine *e, unsigned int idx,
			   const struct vpmu_ctr_cfg *cfg);
u64 vpmu_engine_ctr_read(struct vpmu_engine *e, unsigned int idx);
void vpmu_engine_ctr_write(struct vpmu_engine *e, unsigned int idx, u64 val);
/* All counters as of one instant (a group read's snapshot). */
void vpmu_engine_ctr_snapshot(struct vpmu_engine *e, u64 *vals,
			      unsigned int n);
/*
 * Overflow status: bit i is set when counter i wraps.  A counter with
 * VPMU_CTR_INT stops the run on the microword that wraps it, so it wraps
 * at most once between stops; any other counter wraps as its counts are
 * folded in, possibly many times per run, and its overflow count says how
 * often.  Status and counts stay until cleared: the 64-bit value of a
 * narrow counter is its value plus its overflow count times 2^width.
 */
u32 vpmu_engine_ovf_status(struct vpmu_engine *e);
/* Wraps of counter @idx since its status bit was last cleared. */
u64 vpmu_engine_ovf_count(struct vpmu_engine *e, unsigned int idx);
/* Clear the status bits in @mask and those counters' overflow counts. */
void vpmu_engine_ovf_clear(struct vpmu_engine *e, u32 mask);

/**
 * struct vpmu_engine_snap - the PMU hardware at one instant
 * @cycles:	the program's cycle count (0 before the first start)
 * @ovf:	overflow status, as vpmu_engine_ovf_status()
 * @frozen:	freeze bits, bit g for freeze group g
 * @trig_ovf:	counters whose wrap is a freeze group's trigger
 * @cfg:	each counter's configuration (all zero: disabled)
 * @ctr:	each counter's value
 * @ovf_cnt:	each counter's wraps since its status bit was cleared
 */
struct vpmu_engine_snap {
	u64 cycles;
	u32 ovf;
	u32 frozen;
	u32 trig_ovf;
	struct vpmu_ctr_cfg cfg[VPMU_NR_COUNTERS_MAX];
	u64 ctr[VPMU_NR_COUNTERS_MAX];
	u64 ovf_cnt[VPMU_NR_COUNTERS_MAX];
};

/*
 * The engine snapshot (the event counter's save registers): copy every
 * counter, its overflow status and count, the freeze bits and the cycle
 * count into @s, then clear the counters in @clear as
 * vpmu_engine_ctr_clear() does.  Between two runs (the caller's job, as
 * for every call here) nothing counts, so all of it is of one instant;
 * the program's state is not touched: a run resumed after it goes on as
 * if there had been none, its counters in @clear counting from 0.
 */
void vpmu_engine_snapshot(struct vpmu_engine *e, struct vpmu_engine_snap *s,
			  u32 clear);
/* Zero the counters in @mask: values, status bits, overflow counts. */
void vpmu_engine_ctr_clear(struct vpmu_engine *e, u32 mask);
void vpmu_engine_freeze(struct vpmu_engine *e, unsigned int fgroup,
			bool frozen);
/*
 * Each microword on which @trigger occurs toggles @fgroup's freeze bit with
 * no software involved.  The toggle takes effect before that microword's
 * events are counted: counting covers [start trigger, stop trigger).
 */
int vpmu_engine_fgroup_trigger(struct vpmu_engine *e, unsigned int fgroup,
			       u16 trigger);
/*
 * Start and stop as two events: a frozen @fgroup thaws on a microword on
 * which @start occurs, a running one freezes on one on which @stop
 * occurs (each before that microword's events are counted; a counter's
 * wrap right after its microword).  Either may be VPMU_TRIG_NONE; they
 * work beside the toggle of vpmu_engine_fgroup_trigger(), which flips the
 * bit whatever its state.  -EINVAL, changing nothing, for a bad fgroup or
 * trigger; -EOPNOTSUPP for a histogram-unit bucket.
 */
int vpmu_engine_fgroup_start_stop(struct vpmu_engine *e, unsigned int fgroup,
				  u16 start, u16 stop);
bool vpmu_engine_frozen(const struct vpmu_engine *e, unsigned int fgroup);

/*
 * Gating (Documentation/admin-guide/perf/vpmu.rst, "Freezing and
 * triggers"): the micro-PC histogram and the histogram unit may count
 * only while a freeze group runs.  vpmu_engine_fgroup_gate() makes freeze
 * group @fgroup (1 .. VPMU_NR_FGROUPS_MAX - 1) gate @units (VPMU_GATE_*,
 * 0: none); -EINVAL, changing nothing, for fgroup 0 or another bit.  A
 * gated unit counts a cycle only if one of the fgroups gating it is
 * thawed for the microword occupying it (its own toggle included, as for
 * counters).  With vpmu_engine_gate_closed() a unit is gated even while
 * no fgroup gates it on this engine: it then counts nothing.  The clocks
 * run on while a unit is gated: the micro-PC histogram's countdown and the
 * histogram unit's monitoring period count every cycle, and a sample or a
 * cycle that falls in a frozen span is dropped.
 */
#define VPMU_GATE_UHIST		BIT(0)	/* the micro-PC histogram */
#define VPMU_GATE_HU		BIT(1)	/* the histogram unit */
#define VPMU_GATE_ALL		(VPMU_GATE_UHIST | VPMU_GATE_HU)
int vpmu_engine_fgroup_gate(struct vpmu_engine *e, unsigned int fgroup,
			    unsigned int units);
int vpmu_engine_gate_closed(struct vpmu_engine *e, unsigned int units);

/*
 * Micro-PC histogram: every @interval cycles (stall cycles included) the
 * bucket of the microword occupying that cycle is incremented.  0 stops
 * sampling.  Buckets are 64-bit, one per control-store word.  The
 * countdown to the next sample is the engine's: it counts every cycle the
 * engine runs, whichever program runs.  Setting, resetting or attaching a
 * ucode restarts it.
 */
void vpmu_engine_uhist_set(struct vpmu_engine *e, u32 interval);
const u64 *vpmu_engine_uhist(struct vpmu_engine *e, u32 *nbuckets);
void vpmu_engine_uhist_reset(struct vpmu_engine *e);

/*
 * Histogram unit: a program of up to VPMU_HU_MAX entries, each a predicate
 * (an event, or a range of engine state) with a sub-monitoring period in
 * cycles, counted in sequence by one mechanism or all at once; results are
 * the 64-bit buckets C1..Cn.  Runs on the engine's own clock, like the
 * micro-PC histogram.  Exact however runs are cut; free while off.  While
 * on, chunks end at the windows' edges, a WQ entry routes every store
 * through the trigger hook, and an address entry the loads or stores it
 * looks at.  With once set, the unit counts one monitoring period and then
 * holds the buckets until the next set, reset or attach.
 */
#define VPMU_HU_MAX	VPMU_HU_BUCKETS

/* enum vpmu_hu_kind (VPMU_HU_EVENT ...) is the uapi header's. */

/* An address predicate (VPMU_HU_LOAD .. VPMU_HU_ACCESS)? */
static inline bool vpmu_hu_is_mem(unsigned int kind)
{
	return kind >= VPMU_HU_LOAD && kind <= VPMU_HU_ACCESS;
}

enum vpmu_hu_mode {
	VPMU_HU_SEQ,	/* one counting mechanism: entries in turn */
	VPMU_HU_PAR,	/* several: all entries at once */
};

struct vpmu_hu_entry {
	u8 kind;	/* enum vpmu_hu_kind */
	u16 event;	/* EVENT: a basic event or VPMU_EV_TAG(k) */
	u32 lo, hi;	/* WQ: occupancy; UPC: micro-address; else address */
	u32 period;	/* sub-monitoring period in cycles, >= 1 */
};

struct vpmu_hu_prog {
	u8 mode;	/* enum vpmu_hu_mode */
	u8 n;		/* entries, 1..VPMU_HU_MAX */
	struct vpmu_hu_entry ent[VPMU_HU_MAX];
	u8 once;	/* 1: one monitoring period, then hold the buckets */
};

/*
 * Program the histogram unit (NULL: off).  -EINVAL, changing nothing, for a
 * bad mode, once, n, kind, event, lo > hi, a zero period or a monitoring
 * period over U32_MAX cycles.  On success the buckets are zeroed and the
 * monitoring period starts over.  Does not allocate.
 */
int vpmu_engine_hu_set(struct vpmu_engine *e, const struct vpmu_hu_prog *p);
/* Buckets C1..Cn as of now into @c[0..n-1]; @n <= VPMU_HU_MAX. */
void vpmu_engine_hu_read(struct vpmu_engine *e, u64 *c, unsigned int n);
/* Zero the buckets and start the monitoring period over. */
void vpmu_engine_hu_reset(struct vpmu_engine *e);

#endif /* _VPMU_ENGINE_H */
