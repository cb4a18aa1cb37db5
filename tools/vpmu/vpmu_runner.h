/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_runner.h - what the program runners share: vpmu-run (the kernel's
 * engine through /dev/vpmu) and vpmu-sim (the engine core as host C).
 *
 * Both describe a finished run with the uapi's struct vpmu_run, print it
 * the same way and check it against a sample's .expect file, so their
 * outputs can be compared line by line.
 */
#ifndef _VPMU_RUNNER_H
#define _VPMU_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <linux/vpmu.h>

#include "vpmu_buf.h"
#include "vpmu_elf.h"
#include "vpmu_json.h"
#include "vpmu_tool.h"

/* "budget", "halt", "trap", "fault", "signal", or NULL. */
const char *vpmu_stop_name(unsigned int stop);
/* Fault kinds as the engine numbers them: "load", "store", ... or NULL. */
const char *vpmu_fault_name(unsigned int code);

/*
 * Print one run: a "stop ..." line in .expect syntax, cycles, image
 * generation (when @show_gen), pc/upc/mode, and the registers: the
 * non-zero ones, or all with @all_regs.  @prefix starts every line.
 */
void vpmu_run_print(FILE *f, const char *prefix, const struct vpmu_run *r,
		    bool show_gen, bool all_regs);

/*
 * The same as members of JSON object @j: "stop" (its name), "code",
 * "fault" and "addr" where it has them, "cycles", "generation" (when
 * @show_gen), "pc", "ipc", "upc", "mode", and "regs" (an object, "r2":
 * 55, ...: the non-zero ones, or all with @all_regs).
 */
void vpmu_run_json(struct vpmu_json *j, const struct vpmu_run *r,
		   bool show_gen, bool all_regs);

/*
 * An event count for "event NAME COUNT" and "super cycles COUNT" lines:
 * returns true and sets *val if the runner knows it.  "cycles" is always
 * known (struct vpmu_run.cycles) and never reaches the callback.
 */
typedef bool (*vpmu_event_fn)(void *ctx, const char *name, uint64_t *val);

struct vpmu_expect_res {
	unsigned int checked;	/* lines compared */
	unsigned int skipped;	/* event lines the runner cannot check */
	unsigned int failed;	/* mismatches */
};

/*
 * Check a run against the text of a .expect file (stop, reg, mem and
 * event lines; see Documentation/vpmu/toolchain.rst).  Mismatches and
 * malformed lines are described in @diag as "FILE:LINE: ...".  Returns 0
 * when the file could be read, -1 on a malformed line (counted in failed
 * as well).
 */
int vpmu_expect_check(const char *text, const char *fname,
		      const struct vpmu_run *r, const uint8_t *mem,
		      uint32_t mem_size, vpmu_event_fn event, void *ctx,
		      struct vpmu_expect_res *res, struct vpmu_buf *diag);

/*
 * A number with an optional k, M, G, T (powers of 1000) or Ki, Mi, Gi,
 * Ti suffix, or 2^N written "2^N".  Returns 0, or -1 if @s is not one.
 */
int vpmu_parse_count(const char *s, uint64_t *val);

/* The options vpmu-run and vpmu-sim share, and their getopt spellings. */
struct vpmu_runner_opts {
	uint64_t runs, budget;
	bool super, timed, verbose, quiet;
	bool json;		/* --json: a JSON object a line, not text */
	bool ext;		/* --ext: the ext line asserted at the start */
	uint32_t ext_at;	/* --ext-at: the cycle it flips at, 0 never */
	const char *expect;
};

/* No short forms: their getopt values, above the tools' own. */
#define VPMU_RUNNER_OPT_EXT_AT	0x200
#define VPMU_RUNNER_OPT_JSON	0x201

#define VPMU_RUNNER_OPTSTRING	"r:n:b:sxe:tvqj"
#define VPMU_RUNNER_LONGOPTS					\
	{ "repeat", required_argument, NULL, 'r' },		\
	{ "runs", required_argument, NULL, 'n' },		\
	{ "budget", required_argument, NULL, 'b' },		\
	{ "super", no_argument, NULL, 's' },			\
	{ "ext", no_argument, NULL, 'x' },			\
	{ "ext-at", required_argument, NULL, VPMU_RUNNER_OPT_EXT_AT }, \
	{ "expect", required_argument, NULL, 'e' },		\
	{ "time", no_argument, NULL, 't' },			\
	{ "verbose", no_argument, NULL, 'v' },			\
	{ "quiet", no_argument, NULL, 'q' },			\
	{ "json", no_argument, NULL, VPMU_RUNNER_OPT_JSON }

/*
 * Take option @c with argument @arg if it is one of the shared ones.
 * Budgets above @budget_max are refused (UINT64_MAX: no limit but the
 * type's).  Returns 1 if taken, 0 if @c is not a shared option; a bad
 * value is a usage error (vpmu_usage_error(): "PROG: bad ...").
 */
int vpmu_runner_opt(struct vpmu_runner_opts *o, int c, const char *arg,
		    const char *prog, uint64_t budget_max);

/* Seconds on the monotonic clock. */
double vpmu_now(void);

/*
 * One program file run o->runs times by vpmu_runner_loop(): what the
 * runner gives it, and what it calls back for.  @ctx is the callbacks'
 * first argument.
 */
struct vpmu_runner {
	const struct vpmu_runner_opts *o;
	const char *path;	/* the program file, for messages */
	const char *expect;	/* the text of the file o->expect names */
	const uint8_t *mem;	/* the memory a run leaves, for mem lines */
	uint32_t mem_size;
	/* vpmu-run's, not vpmu-sim's: */
	bool show_gen;		/* print each run's image generation */
	bool compare;		/* the runs must give the same results */
	bool show_skipped;	/* say how many event lines went unchecked */
	/*
	 * One run from a fresh copy of the program's memory, described in
	 * @r, its wall time in *@secs.  0, or -1 after saying why not (the
	 * loop stops; VPMU_EXIT_TOOL).
	 */
	int (*run)(void *ctx, struct vpmu_run *r, double *secs);
	/*
	 * NULL, or more lines after a printed run's (vpmu-sim --events),
	 * or with --json more members of its object, in @j (else NULL)
	 */
	void (*print)(void *ctx, const char *prefix, struct vpmu_json *j);
	/* NULL, or the event counts .expect lines may check */
	vpmu_event_fn event;
	/*
	 * NULL, or lines after the last run, before the total (--hu); not
	 * called if a run failed
	 */
	void (*done)(void *ctx, bool json);
	void *ctx;
};

/*
 * The start of a program file's runs: view @file, from @rn->path
 * (vpmu_prog_view(): @v; @rn->mem_size), and with --expect read the
 * .expect file into @exp (@rn->expect).  0, or after saying why not
 * VPMU_EXIT_CANNOT_RUN (not a program file) or _TOOL (the .expect file).
 */
int vpmu_runner_read(struct vpmu_runner *rn, const struct vpmu_buf *file,
		     struct vpmu_prog_view *v, struct vpmu_buf *exp);

/*
 * The program file @path could not be read (errno): "PROG: PATH: reason",
 * and the exit status, as env(1) has it for a command:
 * VPMU_EXIT_NOT_FOUND if there is no such file, else _CANNOT_RUN.
 */
int vpmu_runner_unreadable(const char *path);

/*
 * Run the program @rn->o->runs times ("run N: " before every line when
 * more than once): print each run unless --quiet (vpmu_run_print(),
 * @rn->print, the --time line), check it against @rn->expect with
 * --expect, and print the --time total at the end.  A run that fails or
 * a malformed .expect line ends the loop; after a run that failed
 * @rn->done is not called.  Returns the exit status:
 * VPMU_EXIT_OK, _DIFFER (a mismatch, or with @rn->compare runs that
 * differ) or _TOOL (a run that failed, a malformed .expect line).
 */
int vpmu_runner_loop(const struct vpmu_runner *rn);

/*
 * Static RV32 ELF programs (vpmu_elf.h), run by vpmu-sim on the host
 * engine and by vpmu-run on the kernel's: the rv32im microcode's trap
 * codes (share/ucode/rv32im.vus) and what both runners print and return.
 */
#define VPMU_RV_TRAP_ILLEGAL	1
#define VPMU_RV_TRAP_ECALL	2
#define VPMU_RV_TRAP_EBREAK	3

/* How one call of an ELF program's run ended, on either engine. */
struct vpmu_elf_stop {
	unsigned int stop;	/* VPMU_RUN_*, the engine's VPMU_STOP_* */
	uint32_t code, addr, ipc;
	uint64_t cycles;	/* this call's */
	bool more;		/* the call's own stop (its budget, a signal) */
};

/*
 * A runner's engine for vpmu_elf_loop(): the kernel's through /dev/vpmu
 * (vpmu-run) or the host's (vpmu-sim).  @ctx is each call's first
 * argument.
 */
struct vpmu_elf_ops {
	/*
	 * Run the program on, from its entry the first time, else from
	 * where it stopped, for at most @left cycles; say how it stopped in
	 * @st.  0, or -1 after saying why it could not run.
	 */
	int (*run)(void *ctx, uint64_t left, struct vpmu_elf_stop *st);
	/* Its registers x0..x31 where it stopped. */
	void (*regs)(void *ctx, uint32_t x[32]);
	/*
	 * Give the program @a0, its ecall's result, and resume it after
	 * the ecall, @left cycles of its budget left; false if it cannot go
	 * on (it stops then as if on its budget).
	 */
	bool (*ecall_return)(void *ctx, uint32_t a0, uint64_t left);
	void *ctx;
};

/* How an ELF program's run ended. */
struct vpmu_elf_end {
	struct vpmu_elf_stop st;	/* the last call's stop */
	struct vpmu_sys_res res;	/* the last ecall's; exited, status */
	uint64_t cycles;		/* all calls' */
	uint64_t budget;		/* the whole run's */
};

/*
 * Run the static RV32 ELF program in @mem (@mem_size bytes) on @ops
 * until it exits or stops otherwise, serving its ecalls
 * (vpmu_sys_call()) between calls; @budget covers the whole run, and a
 * call that stops for its own reasons (@st.more) is followed by another
 * while cycles are left.  How it ended goes to @end.  0, or -1 if a call
 * failed.
 */
int vpmu_elf_loop(const struct vpmu_elf_ops *ops, uint8_t *mem,
		  uint32_t mem_size, uint64_t budget, struct vpmu_elf_end *end);

/*
 * After vpmu_elf_loop(): the stop reported (vpmu_elf_report_stop()),
 * unless the program exited or @quiet, and the exit status, the
 * program's own or its stop's (vpmu_elf_status()).
 */
int vpmu_elf_exit(const char *path, const struct vpmu_elf_end *end,
		  bool quiet);

/*
 * The exit status of a program that stopped with @stop (VPMU_RUN_*) and
 * @code without exiting, as a shell sees qemu-riscv32's: VPMU_EXIT_BUDGET
 * (124), _SIGTRAP (133) ebreak, _SIGILL (132) another trap or a halt,
 * _SIGSEGV (139) a fault.
 */
int vpmu_elf_status(unsigned int stop, unsigned int code);

/*
 * --stats: "exit STATUS" if the program exited, else "stop REASON at pc
 * IPC", REASON "budget", "halt", "trap CODE" or "fault CODE (KIND at
 * ADDR)" as a program file's stop line has it, ADDR the address the
 * fault was on (print_end); then, after the caller's event lines, "xN
 * 0x%08x" for x0..x31 and "pc 0x%08x" (print_regs).
 */
void vpmu_elf_print_end(FILE *f, const struct vpmu_elf_end *end);
void vpmu_elf_print_regs(FILE *f, const uint32_t x[32], uint32_t pc);

/*
 * --stats --json: the same as members of @j: "exit" (the status), or
 * "stop" (its name), "code" and "ipc", and for a fault "fault" (its
 * kind) and "addr"; then "regs" ("x0": ..., the values as numbers) and
 * "pc".
 */
void vpmu_elf_json_end(struct vpmu_json *j, const struct vpmu_elf_end *end);
void vpmu_elf_json_regs(struct vpmu_json *j, const uint32_t x[32],
			uint32_t pc);

/*
 * --mem SIZE: a count (vpmu_parse_count()), a multiple of 4 in
 * 4..VPMU_PROG_MEM_MAX; otherwise a usage error ("PROG: bad memory size
 * 'ARG'", VPMU_EXIT_TOOL).
 */
int vpmu_elf_parse_mem(const char *prog, const char *arg, uint64_t *mem);

/*
 * "PROG: PATH: program stopped: REASON at pc IPC" (the callers skip it
 * under --quiet); for a trap or a fault, REASON is "trap CODE (WHAT)" or
 * "fault CODE (WHAT)", WHAT the trap's name in the rv32im microcode
 * (illegal instruction, ecall, ebreak) or the fault's, and a fault ends
 * with ", address ADDR", the address it faulted on.  Out of budget:
 * "PROG: PATH: program stopped: its cycle budget of N cycles is used up
 * at pc IPC (-b raises it)".
 */
void vpmu_elf_report_stop(const char *path, const struct vpmu_elf_end *end);

/*
 * Map the executable PT_LOAD segments of the ELF file @path (its @len
 * bytes at @file) read-only into this process at @base plus their
 * addresses, so that perf names the samples of the code they hold
 * (VPMU_SAMPLE_PC_BASE for a program, VPMU_SAMPLE_UPC_BASE for a
 * microcode ELF file of vpmu-as).  Returns 0, or -1 with the reason in
 * @diag (not an ELF32 file, a segment not page-aligned in the file, an
 * address in use, a file system that refuses executable mappings).
 */
int vpmu_map_elf(const char *path, const void *file, size_t len,
		 uint64_t base, struct vpmu_buf *diag);

#endif /* _VPMU_RUNNER_H */
