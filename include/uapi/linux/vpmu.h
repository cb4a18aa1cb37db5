/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * vpmu.h - userspace ABI of vpmu, the perf PMU backed by an emulated
 * microcoded processor.
 *
 * This header is shared by the kernel module, the engine's host build and
 * the tools.  It defines the microcode image format, the microword bit
 * layout and the engine event numbers.
 * Documentation/admin-guide/perf/vpmu.rst is the prose reference; where
 * they disagree, this file is the bug.
 */
#ifndef _UAPI_LINUX_VPMU_H
#define _UAPI_LINUX_VPMU_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

/*
 * Microword: 64 bits, little-endian in the image.
 *
 *  63 62       55 54  51 50  47 46         35 34      25 24  19 18  13 12   7 6    1 0
 * +--+-----------+------+------+-------------+----------+------+------+------+------+-+
 * |T |   EVENT   | SEQ  | COND |   TARGET    |   IMM    |  B   |  A   | DST  |  OP  |S|
 * +--+-----------+------+------+-------------+----------+------+------+------+------+-+
 *   1      8        4      4         12           10       6      6      6      6    1
 *
 *  S       ALU result updates the flags (Z N C V)
 *  OP      ALU or memory operation (enum vpmu_op, see vpmu_isa.h)
 *  DST     destination operand code
 *  A, B    source operand codes; B = VPMU_OPND_IMM selects IMM
 *  IMM     10-bit signed immediate (value, memory offset, or field spec)
 *  TARGET  micro-address for JUMP/BR/CALL/DISP, trap code for TRAP
 *  COND    condition for BR, dispatch width for DISP
 *  SEQ     sequencer operation (enum vpmu_seq)
 *  EVENT   event-counter field: one-hot or encoded, see VPMU_EVMODE_*
 *  T       trigger: this microword is a trigger occurrence
 */
#define VPMU_UW_S_SHIFT		0
#define VPMU_UW_S_BITS		1
#define VPMU_UW_OP_SHIFT	1
#define VPMU_UW_OP_BITS		6
#define VPMU_UW_DST_SHIFT	7
#define VPMU_UW_DST_BITS	6
#define VPMU_UW_A_SHIFT		13
#define VPMU_UW_A_BITS		6
#define VPMU_UW_B_SHIFT		19
#define VPMU_UW_B_BITS		6
#define VPMU_UW_IMM_SHIFT	25
#define VPMU_UW_IMM_BITS	10
#define VPMU_UW_TARGET_SHIFT	35
#define VPMU_UW_TARGET_BITS	12
#define VPMU_UW_COND_SHIFT	47
#define VPMU_UW_COND_BITS	4
#define VPMU_UW_SEQ_SHIFT	51
#define VPMU_UW_SEQ_BITS	4
#define VPMU_UW_EVENT_SHIFT	55
#define VPMU_UW_EVENT_BITS	8
#define VPMU_UW_T_SHIFT		63
#define VPMU_UW_T_BITS		1

/* Largest control store the TARGET field can address. */
#define VPMU_CS_MAX		_BITUL(VPMU_UW_TARGET_BITS)
/* Depth of the micro-call stack (CALL/RET). */
#define VPMU_USTACK_DEPTH	8
/* Largest ID translation table: opcode fields of up to 10 bits. */
#define VPMU_OP_BITS_MAX	10

/*
 * Operand codes (DST, A, B).  Codes not listed are reserved and rejected by
 * the validator.
 */
#define VPMU_OPND_R0		0	/* r0..r31: macro registers */
#define VPMU_OPND_T0		32	/* t0..t7: micro temporaries */
#define VPMU_OPND_PC		40	/* macro program counter */
#define VPMU_OPND_IR		41	/* instruction register */
#define VPMU_OPND_IPC		42	/* address of current instruction (ro) */
#define VPMU_OPND_DS		43	/* register-select latches: low 5 bits */
#define VPMU_OPND_S1		44	/*   name the macro register that */
#define VPMU_OPND_S2		45	/*   @ds/@s1/@s2 stand for */
#define VPMU_OPND_FLAGS		46	/* Z N C V as bits 0..3 */
#define VPMU_OPND_AT_DS		56	/* r[ds] */
#define VPMU_OPND_AT_S1		57	/* r[s1] */
#define VPMU_OPND_AT_S2		58	/* r[s2] */
#define VPMU_OPND_IMM		62	/* B only: sign-extended IMM */
#define VPMU_OPND_ZERO		63	/* reads 0, writes are discarded */

#define VPMU_FLAG_Z		_BITUL(0)
#define VPMU_FLAG_N		_BITUL(1)
#define VPMU_FLAG_C		_BITUL(2)
#define VPMU_FLAG_V		_BITUL(3)

/* Privilege modes. */
#define VPMU_MODE_USER		0
#define VPMU_MODE_SUPER		1

/* Event-counter field interpretation (image header ev_mode). */
#define VPMU_EVMODE_ONEHOT	0	/* bit k-1 set: count tag k */
#define VPMU_EVMODE_ENCODED	1	/* value k != 0: count tag k */

/*
 * Engine events.  Basic events are numbered from 0; tag k (1..255) is
 * VPMU_EV_TAG(k); histogram-unit bucket b is VPMU_EV_HU(b).
 */
enum vpmu_event {
	VPMU_EV_CYCLES		= 0,	/* cycles, stall cycles included */
	VPMU_EV_UOPS		= 1,	/* microwords executed */
	VPMU_EV_INSNS		= 2,	/* macro instructions retired (EOI) */
	VPMU_EV_UBR_TAKEN	= 3,	/* conditional micro-branches taken */
	VPMU_EV_DISPATCH	= 4,	/* multiway dispatches (DISP) */
	VPMU_EV_DC_HIT		= 5,	/* data-cache hits (loads) */
	VPMU_EV_DC_MISS		= 6,	/* data-cache misses (loads) */
	VPMU_EV_WQ_STALL	= 7,	/* cycles stalled on a full write queue */
	VPMU_EV_TRIGGER		= 8,	/* trigger-marked microwords executed */
	VPMU_EV_STORES		= 9,	/* stores entering the write queue */
	VPMU_EV_NR_BASIC,
};

#define VPMU_EV_TAG_BASE	0x100
#define VPMU_EV_TAG(k)		(VPMU_EV_TAG_BASE + (k))
#define VPMU_TAG_MAX		255
#define VPMU_EV_HU_BASE		0x200
#define VPMU_EV_HU(b)		(VPMU_EV_HU_BASE + (b))
#define VPMU_HU_BUCKETS		16

/* Deprecated: the histogram unit's names before they were VPMU_*HU*. */
#define VPMU_EV_HIST_BASE	VPMU_EV_HU_BASE
#define VPMU_EV_HIST(b)		VPMU_EV_HU(b)
#define VPMU_HIST_BUCKETS	VPMU_HU_BUCKETS

/*
 * Microcode image.  All multi-byte fields are little-endian.  Sections start
 * at 8-byte aligned offsets, lie inside total_size and do not overlap.
 *
 *   header | control store (__u64 x cs_words) | ID table (__u32 x
 *   1 << op_bits) | symbols | macro instructions | tag names | strings
 *
 * The tag-name table is optional: an image without one has tag_count and
 * tag_offset 0 (images made before it existed load as they did).
 */
#define VPMU_IMAGE_MAGIC	0x554d5056	/* "VPMU" */
#define VPMU_IMAGE_VERSION	1
#define VPMU_IMAGE_NAME_LEN	32
#define VPMU_IMAGE_MAX		_BITUL(20)	/* largest image the loader takes */

/* Image flags. */
#define VPMU_IMG_F_R0_ZERO	_BITUL(0)	/* r0 reads 0, writes discarded */
#define VPMU_IMG_F_IALIGN16	_BITUL(1)	/* fetch at any even pc */
#define VPMU_IMG_F_ALL		(VPMU_IMG_F_R0_ZERO | VPMU_IMG_F_IALIGN16)

struct vpmu_image_header {
	__u32 magic;		/* VPMU_IMAGE_MAGIC */
	__u32 version;		/* VPMU_IMAGE_VERSION */
	__u32 header_size;	/* sizeof(struct vpmu_image_header) */
	__u32 total_size;	/* bytes in the whole image */
	__u32 checksum;		/* CRC-32 (IEEE) of the image, this field 0 */
	__u32 flags;		/* VPMU_IMG_F_* */
	__u32 image_version;	/* the microcode author's version number */
	__u32 ev_mode;		/* VPMU_EVMODE_* */
	__u32 ev_bits;		/* 1..8: event-field bits in use */
	__u32 cs_words;		/* microwords, 1..VPMU_CS_MAX */
	__u32 cs_offset;
	__u32 op_shift;		/* opcode = (IR >> op_shift) & */
	__u32 op_bits;		/*          ((1 << op_bits) - 1) */
	__u32 id_offset;	/* __u32 micro-address x (1 << op_bits) */
	__u32 sym_count;
	__u32 sym_offset;	/* struct vpmu_image_sym x sym_count */
	__u32 insn_count;
	__u32 insn_offset;	/* struct vpmu_image_insn x insn_count */
	__u32 str_size;		/* string table: NUL-terminated names */
	__u32 str_offset;
	/* machine parameters */
	__u32 dc_lines;		/* data cache lines: power of 2, 1..1024 */
	__u32 dc_line_size;	/* bytes per line: power of 2, 4..256 */
	__u32 dc_miss_penalty;	/* stall cycles per load miss, 0..64 */
	__u32 wq_depth;		/* write-queue entries, 1..32 */
	__u32 wq_drain;		/* cycles to drain one entry, 1..64 */
	__u32 tag_count;	/* tag names: 0..VPMU_TAG_MAX */
	__u32 tag_offset;	/* struct vpmu_image_tag x tag_count; 0 if none */
	__u32 reserved[5];	/* must be zero */
	char name[VPMU_IMAGE_NAME_LEN];	/* NUL-terminated, NUL-padded */
};

/*
 * A tag's name, under which it is a perf event (events/NAME) and the
 * tools print its count.  The name, in the string table, is 1 to
 * VPMU_TAG_NAME_MAX - 1 characters: a lowercase letter, then lowercase
 * letters, digits and '_'; not a name of the PMU's own (a basic event's,
 * tagN, histN, vpmu_*, a format/ field) nor one perf's event parser
 * takes as a term inside pmu/.../ (config, name, period, rNNN, ...).
 * Each name and each tag at most once.
 */
struct vpmu_image_tag {
	__u32 name;		/* offset in the string table */
	__u32 tag;		/* k: 1..ev_bits one-hot, 1..2^ev_bits - 1 encoded */
};

#define VPMU_TAG_NAME_MAX	32	/* bytes, the NUL included */

/* A label: a name for a micro-address. */
struct vpmu_image_sym {
	__u32 name;		/* offset in the string table */
	__u32 addr;		/* micro-address < cs_words */
};

/* Macro-instruction operand kinds (struct vpmu_image_operand.kind). */
#define VPMU_MOP_REG		1	/* register number, written rN */
#define VPMU_MOP_UIMM		2	/* unsigned immediate */
#define VPMU_MOP_SIMM		3	/* signed immediate */
#define VPMU_MOP_PCREL		4	/* (label - insn address) >> shift */
#define VPMU_MOP_ABS		5	/* label >> shift, unsigned */

/* Operand flags. */
/* REG operand written as "(rN)" right after the preceding operand */
#define VPMU_MOPF_PAREN		_BITUL(0)

struct vpmu_image_operand {
	__u8 kind;		/* VPMU_MOP_* */
	__u8 pos;		/* lowest bit in the instruction word */
	__u8 width;		/* field width in bits, pos + width <= 32 */
	__u8 shift;		/* value is stored >> shift (PCREL, ABS) */
	__u8 flags;		/* VPMU_MOPF_* */
	__u8 reserved[3];	/* must be zero */
};

#define VPMU_INSN_MAX_OPS	4

/*
 * A macro instruction, so that assemblers can encode programs for whatever
 * instruction set an image implements: word = match | operand fields.
 */
struct vpmu_image_insn {
	__u32 name;		/* mnemonic: offset in the string table */
	__u32 match;		/* fixed bits; match & ~mask == 0 */
	__u32 mask;		/* which bits are fixed; covers the opcode */
	__u32 nops;		/* operands used, 0..VPMU_INSN_MAX_OPS */
	struct vpmu_image_operand ops[VPMU_INSN_MAX_OPS];
};

/*
 * Machine-code program file ("VPRG"), written by the assembler
 * (drivers/perf/vpmu/asm/, in its machine-code mode) and taken by the
 * program runner and the character device.  Little-endian:
 *
 *   header | load bytes (load_size)
 *
 * The program runs in mem_size bytes of memory: the load bytes at address
 * 0, the rest zero.  It starts at entry, in user mode unless
 * VPMU_PROG_F_SUPER is set.  image_checksum records the checksum of the
 * microcode image whose instruction set the program was assembled for, so
 * a runner can warn about a mismatch; 0 means not recorded.
 */
#define VPMU_PROG_MAGIC		0x47525056	/* "VPRG" */
#define VPMU_PROG_VERSION	1
#define VPMU_PROG_MEM_MAX	_BITUL(24)	/* largest mem_size: 16 MiB */

#define VPMU_PROG_F_SUPER	_BITUL(0)	/* start in supervisor mode */
#define VPMU_PROG_F_ALL		VPMU_PROG_F_SUPER

struct vpmu_program_header {
	__u32 magic;		/* VPMU_PROG_MAGIC */
	__u32 version;		/* VPMU_PROG_VERSION */
	__u32 header_size;	/* sizeof(struct vpmu_program_header) */
	__u32 total_size;	/* header_size + load_size */
	__u32 checksum;		/* CRC-32 (IEEE) of the file, this field 0 */
	__u32 flags;		/* VPMU_PROG_F_* */
	__u32 entry;		/* initial pc: 4-byte aligned, < mem_size */
	__u32 load_size;	/* bytes after the header, loaded at 0 */
	__u32 mem_size;		/* 4-byte multiple, load_size..MEM_MAX */
	__u32 image_checksum;	/* checksum field of the image, or 0 */
	__u32 reserved[6];	/* must be zero */
};

/*
 * /dev/vpmu: run a program on the calling task's CPU's engine.
 *
 * VPMU_IOC_RUN copies mem_size bytes from mem, runs the program from entry
 * under the microcode image current at the start of the call (the whole
 * run uses that one image), and writes memory, registers and the stop
 * reason back.  The run is bounded by budget cycles, reschedules as it
 * goes, and stops early with VPMU_RUN_SIGNAL when a signal is pending.
 *
 * struct vpmu_run is versioned by its size field, as perf_event_attr is:
 * the kernel accepts any size from VPMU_RUN_SIZE_VER0 up, requires bytes
 * it does not know to be zero, and writes back at most size bytes.  The
 * driver matches the command by type and number only, so a larger struct
 * keeps the same command.
 */
#define VPMU_RUN_SIZE_VER0	216
#define VPMU_RUN_SIZE_VER1	288	/* nbreak, brk[]: breakpoints */

/* Stop reasons (struct vpmu_run.stop). */
#define VPMU_RUN_BUDGET		0	/* the cycle budget was used up */
#define VPMU_RUN_HALT		1	/* HALT */
#define VPMU_RUN_TRAP		2	/* TRAP; code = trap code */
#define VPMU_RUN_FAULT		3	/* fault; code = kind, addr = address */
#define VPMU_RUN_SIGNAL		4	/* a signal interrupted the run */
#define VPMU_RUN_BREAK		5	/* a breakpoint or step; code = why */

/* struct vpmu_run.code of a VPMU_RUN_BREAK stop: one bit or both. */
#define VPMU_RUN_BREAK_STEP	_BITUL(0)	/* VPMU_RUN_F_STEP's step */
#define VPMU_RUN_BREAK_PC	_BITUL(1)	/* pc is one of brk[] */

/* Breakpoints a run takes at most (struct vpmu_run.brk[]). */
#define VPMU_RUN_NBREAK		16

/* Largest budget of one call: about a minute of TCG time at worst. */
#define VPMU_RUN_BUDGET_MAX	_BITULL(40)

/*
 * Run flags (struct vpmu_run.flags).  VPMU_RUN_F_EXT asserts the engine's
 * external signal line (the microcode condition EXT) from the start of
 * the run; ext_at, if not 0, flips it once, at the first microword
 * boundary at which the run has used at least ext_at cycles.  Without
 * either the line stays deasserted, as before they existed.
 *
 * VPMU_RUN_F_REGS makes regs[] input as well as output: the program
 * starts with r0..r31 = regs[] (r0 stays 0 under an R0_ZERO image)
 * instead of zeros, at entry as always.
 *
 * VPMU_RUN_F_RESUME goes on with the program this open file's last run
 * left stopped by a TRAP, a break, the end of its budget or a signal,
 * instead of starting one: with the image, registers, pc, micro-PC, data
 * cache, write queue and cycle count it had, at the microword after the
 * TRAP (vpmu_engine_trap_return()) or where the break, budget or signal
 * cut it.  A program that stops at TRAP for a service (an RV32 ecall,
 * say) thus goes on as if it had never left the engine: the caller serves
 * the call from regs[] and mem, writes the result with VPMU_RUN_F_REGS,
 * and resumes.  mem is copied in again (the caller may have changed it)
 * and mem_size must be the stopped run's; entry and mode are checked as
 * always but not used.  budget, ext_at, VPMU_RUN_F_EXT and the outputs
 * (cycles included) are this call's.  Each call that runs replaces what
 * the file keeps: by its program if that stopped by TRAP, break, budget
 * or signal, by nothing otherwise; refused calls change nothing.  EINVAL
 * if there is nothing to resume or mem_size differs.
 */
#define VPMU_RUN_F_EXT		_BITUL(0)
#define VPMU_RUN_F_REGS		_BITUL(1)
#define VPMU_RUN_F_RESUME	_BITUL(2)

/*
 * Stopping at an instruction boundary, for a debugger (a runner's gdb stub):
 * the microword boundary right after a microword that retired a macro
 * instruction (counted VPMU_EV_INSNS), where pc (and ipc) is the next
 * one's.  VPMU_RUN_F_STEP stops the run at the first boundary it reaches
 * (one instruction ran); brk[0..nbreak-1] stop it at any boundary where
 * pc is one of them (a struct of VPMU_RUN_SIZE_VER1 or more).  nbreak
 * above VPMU_RUN_NBREAK, reserved_in or an entry of brk[] past nbreak
 * not 0: EINVAL.  The stop is VPMU_RUN_BREAK, code saying which (both
 * bits if both), and the program can go on from there with
 * VPMU_RUN_F_RESUME; the boundary a run starts on never stops it, so a
 * run resumed at a breakpoint goes past it.  A halt, trap or fault ends
 * the run as always, at no boundary (a microword that halts, traps or
 * faults retires nothing); a break where the budget ends is reported as
 * the break.  Stopping costs nothing in the counts: a run stopped and
 * resumed counts exactly as one that was not (cycles, registers, memory,
 * perf counts and samples).  Armed, the run goes a microword at a time
 * (slower; without either, at full speed).
 */
#define VPMU_RUN_F_STEP		_BITUL(3)
#define VPMU_RUN_F_ALL		(VPMU_RUN_F_EXT | VPMU_RUN_F_REGS | \
				 VPMU_RUN_F_RESUME | VPMU_RUN_F_STEP)

struct vpmu_run {
	/* in */
	__u32 size;		/* sizeof(struct vpmu_run) as the caller knows */
	__u32 flags;		/* VPMU_RUN_F_*; unknown bits: EINVAL */
	__aligned_u64 mem;	/* user address, 8-byte aligned */
	__u32 mem_size;		/* multiple of 4, 4..VPMU_PROG_MEM_MAX */
	__u32 entry;		/* initial pc: 4-byte aligned, < mem_size */
	__aligned_u64 budget;	/* cycles, 1..VPMU_RUN_BUDGET_MAX */
	__u32 mode;		/* VPMU_MODE_USER or VPMU_MODE_SUPER */
	__u32 ext_at;		/* 0, or cycles before the ext line flips */
	/* out */
	__aligned_u64 cycles;	/* cycles used */
	__aligned_u64 generation;	/* generation of the image used */
	__u32 stop;		/* VPMU_RUN_* */
	__u32 code;		/* trap code or fault kind */
	__u32 addr;		/* fault address */
	__u32 upc;		/* micro-PC where the run stopped */
	__u32 pc;		/* macro pc */
	__u32 ipc;		/* address of the current instruction */
	__u32 mode_out;		/* privilege mode at the stop */
	__u32 reserved_out;	/* written as 0 */
	__u32 regs[32];		/* r0..r31; in too with VPMU_RUN_F_REGS */
	/* in, from VPMU_RUN_SIZE_VER1 */
	__u32 nbreak;		/* breakpoints in brk[]: 0..VPMU_RUN_NBREAK */
	__u32 reserved_in;	/* 0 */
	__u32 brk[VPMU_RUN_NBREAK];	/* pcs the run stops at */
};

/*
 * Sample addresses (Documentation/admin-guide/perf/vpmu.rst, "Sampling").
 * A sample's instruction pointer is an address in the sampled task's own
 * address space, where a runner maps the program and the microcode as ELF
 * files, so that perf names the code with the ELF files' symbols: the macro
 * PC plus VPMU_SAMPLE_PC_BASE, or, with the format term sample_upc, the
 * micro-PC plus VPMU_SAMPLE_UPC_BASE (one address per microword).  Both lie
 * above every value the combined form micro-PC << 32 | macro PC (the IP of
 * earlier versions, still in PERF_SAMPLE_RAW) can take, and far from where
 * the kernel places a process's own mappings.
 */
#define VPMU_SAMPLE_PC_BASE	_BITULL(44)
#define VPMU_SAMPLE_UPC_BASE	_BITULL(45)

/* vpmu's code in Documentation/userspace-api/ioctl/ioctl-number.rst */
#define VPMU_IOC_MAGIC		0xb9
#define VPMU_IOC_RUN		_IOWR(VPMU_IOC_MAGIC, 0x01, struct vpmu_run)

/*
 * Micro-PC histogram file: what the module's uhist/ sysfs files read (one
 * per CPU and their sum) and what user-space tools take.  Little-endian:
 *
 *   header | __u64 bucket[nbuckets]
 *
 * bucket[u] counts the samples that found the engine on microword u; a
 * sample is taken every interval cycles, stall cycles included.
 */
#define VPMU_UHIST_MAGIC	0x53485556	/* "VUHS" */
#define VPMU_UHIST_VERSION	1
#define VPMU_UHIST_CPU_SUM	0xffffffffu	/* header.cpu of the sum */

struct vpmu_uhist_header {
	__u32 magic;		/* VPMU_UHIST_MAGIC */
	__u32 version;		/* VPMU_UHIST_VERSION */
	__u32 header_size;	/* sizeof(struct vpmu_uhist_header) */
	__u32 nbuckets;		/* the image's cs_words */
	__u32 interval;		/* sampling interval in cycles */
	__u32 cpu;		/* CPU, or VPMU_UHIST_CPU_SUM */
	__u32 image_checksum;	/* checksum field of the image sampled */
	__u32 reserved0;	/* 0 */
	__aligned_u64 generation;	/* module image generation, 0 if none */
	__aligned_u64 samples;	/* sum of the buckets */
	__u32 reserved[4];	/* 0 */
};

/*
 * Histogram unit program (Documentation/admin-guide/perf/vpmu.rst,
 * "/dev/vpmu"): VPMU_IOC_HU_PROGRAM on /dev/vpmu sets it on every engine,
 * all or nothing, and zeroes the buckets; user-space tools compile a
 * program's text into it.  Needs CAP_SYS_ADMIN (EPERM).  nr rules (0: the
 * unit off), each counting into bucket C1..Cnr; a rule or field the engine
 * cannot take is EINVAL, with the reason in sysfs hist/error, and nothing
 * changes.  VPMU_IOC_HU_GET_PROGRAM writes the program in force back in
 * the same struct: size in, at most size bytes out, and size out the
 * bytes written (the struct as this kernel knows it, if the caller's is
 * larger).  Versioned by size as struct vpmu_run is.
 */
enum vpmu_hu_kind {
	VPMU_HU_EVENT	= 0,	/* occurrences of an engine event (basic or tag) */
	VPMU_HU_WQ	= 1,	/* cycles with write-queue occupancy in [lo, hi] */
	VPMU_HU_UPC	= 2,	/* cycles spent in microwords lo..hi */
	/* data accesses whose byte address is in [lo, hi]: */
	VPMU_HU_LOAD	= 3,	/* loads */
	VPMU_HU_HIT	= 4,	/* loads that hit the data cache */
	VPMU_HU_MISS	= 5,	/* loads that miss it */
	VPMU_HU_STORE	= 6,	/* stores */
	VPMU_HU_ACCESS	= 7,	/* loads and stores */
	VPMU_HU_NKINDS
};

/* struct vpmu_hu_program.flags; unknown bits: EINVAL. */
#define VPMU_HU_F_PAR		_BITUL(0)	/* all rules at once; else in turn */
#define VPMU_HU_F_ONCE		_BITUL(1)	/* one monitoring period, then hold */
#define VPMU_HU_F_ALL		(VPMU_HU_F_PAR | VPMU_HU_F_ONCE)

struct vpmu_hu_rule {
	__u32 kind;		/* enum vpmu_hu_kind */
	__u32 event;		/* VPMU_HU_EVENT: a basic event or VPMU_EV_TAG(k); else 0 */
	__u32 lo;		/* range, both ends included: occupancy, */
	__u32 hi;		/* micro-addresses or byte addresses; else 0 */
	__u32 period;		/* sub-monitoring period in cycles, >= 1 */
	__u32 reserved;		/* 0 */
};

struct vpmu_hu_program {
	__u32 size;		/* sizeof(struct vpmu_hu_program) as known */
	__u32 flags;		/* VPMU_HU_F_* */
	__u32 nr;		/* rules, 0..VPMU_HU_BUCKETS; 0: off */
	__u32 reserved;		/* 0 */
	struct vpmu_hu_rule rule[VPMU_HU_BUCKETS];	/* nr of them; the rest 0 */
};

#define VPMU_HU_PROGRAM_SIZE_VER0	400	/* the first published size */

#define VPMU_IOC_HU_PROGRAM	_IOW(VPMU_IOC_MAGIC, 0x20, struct vpmu_hu_program)
#define VPMU_IOC_HU_GET_PROGRAM	_IOWR(VPMU_IOC_MAGIC, 0x21, struct vpmu_hu_program)

/*
 * Histogram unit buckets: VPMU_IOC_HU_READ copies one CPU's buckets, or
 * with cpu VPMU_HU_CPU_SUM their sum over every possible CPU, each CPU's
 * at one instant (between two of its run chunks).  count[b - 1] is bucket
 * Cb, for b = 1..nr, nr the program's rules (0: the unit off); the rest
 * are written as 0.  The same counts as the PMU vpmu_hu's events read
 * (perf stat -a -C N -e vpmu_hu/histB/), without a perf event.  Reading
 * every CPU's counts is what a CPU-wide perf event may: CAP_PERFMON
 * (EACCES).  A cpu that is not possible: EINVAL.  Versioned by size as
 * struct vpmu_run is.
 */
#define VPMU_HU_CPU_SUM		0xffffffffu

struct vpmu_hu_counts {
	__u32 size;		/* sizeof(struct vpmu_hu_counts) as known */
	__u32 cpu;		/* in: a possible CPU, or VPMU_HU_CPU_SUM */
	__u32 nr;		/* out: buckets of the program in force */
	__u32 reserved;		/* 0 */
	__aligned_u64 count[VPMU_HU_BUCKETS];	/* out: C1..Cnr, then 0 */
};

#define VPMU_HU_COUNTS_SIZE_VER0	144	/* the first published size */

#define VPMU_IOC_HU_READ	_IOWR(VPMU_IOC_MAGIC, 0x22, struct vpmu_hu_counts)

/*
 * Engine snapshot (the event counter's save registers): VPMU_IOC_SNAPSHOT
 * on /dev/vpmu copies every counter of one CPU's engine, with its overflow
 * status and count, at one instant: between two run chunks of that CPU,
 * where nothing counts.  With VPMU_SNAP_F_CLEAR it then zeroes the
 * counters it may (cleared) in the same instant, without disturbing the
 * run or any perf event's count: a counter a counting perf event holds has
 * its count folded into the event first; a counter whose wrap is due to
 * do something (a sampling event's, one freezing its group on overflow, a
 * group trigger) is left as it is.  Documentation/admin-guide/perf/vpmu.rst,
 * "/dev/vpmu".
 *
 * Versioned by size as struct vpmu_run is: any size from
 * VPMU_SNAPSHOT_SIZE_VER0 up, unknown bytes zero, at most size bytes
 * written back.
 */
#define VPMU_SNAPSHOT_SIZE_VER0	432

#define VPMU_SNAP_COUNTERS	16	/* ctr[]: an engine has at most 16 */

#define VPMU_SNAP_F_CLEAR	_BITUL(0)	/* then clear what may be */
#define VPMU_SNAP_F_ALL		VPMU_SNAP_F_CLEAR

/* struct vpmu_snap_ctr.flags */
#define VPMU_SNAP_CTR_USER	_BITUL(0)	/* counts in user mode */
#define VPMU_SNAP_CTR_SUPER	_BITUL(1)	/* counts in supervisor mode */
#define VPMU_SNAP_CTR_INT	_BITUL(2)	/* stops the run on its wrap */
#define VPMU_SNAP_CTR_FREEZE	_BITUL(3)	/* freezes its group on wrap */
#define VPMU_SNAP_CTR_PERF	_BITUL(4)	/* a started perf event's */
#define VPMU_SNAP_CTR_SAMPLING	_BITUL(5)	/* ...a sampling one */

struct vpmu_snap_ctr {
	__aligned_u64 value;	/* as it stands: 0 .. 2^width - 1 */
	__aligned_u64 ovf_count;	/* wraps since its status bit cleared */
	__u16 event;		/* VPMU_EV_*, VPMU_EV_TAG(k); 0 if disabled */
	__u8 width;		/* bits; 0: disabled (neither USER nor SUPER) */
	__u8 flags;		/* VPMU_SNAP_CTR_* */
	__u8 group;		/* freeze group */
	__u8 reserved[3];	/* 0 */
};

struct vpmu_snapshot {
	/* in */
	__u32 size;		/* sizeof(struct vpmu_snapshot) as known */
	__u32 flags;		/* VPMU_SNAP_F_*; unknown bits: EINVAL */
	__u32 cpu;		/* the engine's CPU: a possible CPU */
	__u32 reserved_in;	/* 0 */
	/* out */
	__aligned_u64 generation;	/* its engine's image, 0 if none yet */
	__u32 nr_counters;	/* the engine's counters; ctr[] past them 0 */
	__u32 ovf;		/* overflow status: bit i, counter i wrapped */
	__u32 frozen;		/* freeze bits: bit g, group g is frozen */
	__u32 trig_ovf;		/* counters whose wrap is a group trigger */
	__u32 cleared;		/* counters zeroed by VPMU_SNAP_F_CLEAR */
	__u32 reserved_out;	/* 0 */
	struct vpmu_snap_ctr ctr[VPMU_SNAP_COUNTERS];
};

#define VPMU_IOC_SNAPSHOT	_IOWR(VPMU_IOC_MAGIC, 0x10, struct vpmu_snapshot)

#endif /* _UAPI_LINUX_VPMU_H */
