/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_gdb_stub.h - the GDB remote serial protocol's core, shared by the
 * two stubs: vpmu-sim's on the host engine (vpmu_gdb.c) and vpmu-run's
 * on the kernel's through /dev/vpmu (vpmu_gdb_dev.c).  The core
 * (vpmu_gdb_stub.c) parses the packets and answers what needs no engine:
 * memory, the breakpoint and watchpoint lists, the target description's
 * RISC-V part, the stop replies; a backend (struct vpmu_gdb_ops) reads
 * and writes the registers, runs the program and serves the monitor.
 * Private to the stubs: vpmu_gdb.h and vpmu_gdb_dev.h are what the
 * runners see.
 */
#ifndef _VPMU_GDB_STUB_H
#define _VPMU_GDB_STUB_H

#include <stdbool.h>
#include <stdint.h>

#include "vpmu_buf.h"
#include "vpmu_gdb_net.h"
#include "vpmu_runner.h"

#define GDB_NBP		64	/* breakpoints, at most */
#define GDB_NWP		8	/* write watchpoints */
#define GDB_POLL_INSNS	4096	/* stepped instructions between polls */

/* Register numbers as gdb numbers RISC-V's: x0..x31, then pc. */
#define GDB_REG_PC	32

/* Signals in stop replies, as gdb numbers them. */
#define GDB_SIGINT	2
#define GDB_SIGILL	4
#define GDB_SIGTRAP	5
#define GDB_SIGKILL	9
#define GDB_SIGSEGV	11
#define GDB_SIGXCPU	24

/*
 * How a resume ended (struct vpmu_gdb_ops.resume): an instruction
 * stepped, the program exited (end->res), stopped for good (end->st),
 * hit a breakpoint, a write watchpoint (hit_wp), a Ctrl-C, a micro-PC
 * breakpoint; or the backend failed (said why on stderr): the session
 * ends, gdb told the program was killed.
 */
enum { RES_STEP, RES_EXIT, RES_DEAD, RES_BP, RES_WP, RES_INTR, RES_UBP,
       RES_FAIL };

struct gdb_wp {
	uint32_t addr, len;
};

struct vpmu_gdb_stub;

/* A backend: the program's engine as the core reaches it. */
struct vpmu_gdb_ops {
	/* Is gdb's register @i in the target description? */
	bool (*has_reg)(const struct vpmu_gdb_stub *g, unsigned long i);
	uint32_t (*reg)(const struct vpmu_gdb_stub *g, unsigned int i);
	/* Write it; false if the engine cannot */
	bool (*set_reg)(struct vpmu_gdb_stub *g, unsigned int i, uint32_t v);
	/* gdb wrote memory (M); NULL if nothing needs to know */
	void (*mem_written)(struct vpmu_gdb_stub *g);
	/* s (@step) or c: RES_* */
	int (*resume)(struct vpmu_gdb_stub *g, bool step);
	/* The target description's features past RISC-V's cpu; or NULL */
	void (*features)(const struct vpmu_gdb_stub *g, struct vpmu_buf *x);
	/* The monitor command @cmd, its text into @out */
	void (*monitor)(struct vpmu_gdb_stub *g, const char *cmd,
			struct vpmu_buf *out);
	/* After D: run the program on to its end */
	void (*detach)(struct vpmu_gdb_stub *g);
};

/*
 * A session's state the core keeps; a backend's own struct starts with
 * it.  The backend fills in ops, end, mem, mem_size, prog, wp_ok and
 * nbp_max before vpmu_gdb_serve().
 */
struct vpmu_gdb_stub {
	const struct vpmu_gdb_ops *ops;
	struct vpmu_elf_end *end;	/* how the program ended */
	uint8_t *mem;			/* its memory */
	uint32_t mem_size;
	bool prog;			/* a vpmu program file, not RV32 ELF */
	bool wp_ok;			/* Z2 served: the stores are known */
	unsigned int nbp_max;		/* breakpoints, GDB_NBP at most */
	struct vpmu_gdb_conn c;		/* gdb's connection */
	bool dead;			/* stopped for good: the next resume ends */
	uint32_t bp[GDB_NBP];
	unsigned int nbp;
	struct gdb_wp wp[GDB_NWP];
	unsigned int nwp;
	uint32_t hit_wp;		/* the watchpoint that stopped it */
};

/*
 * Wait for gdb on @where ("PORT" or "unix:PATH") and serve it until the
 * program ends or gdb ends the session: 0, VPMU_GDB_KILLED (vpmu_gdb_net.h),
 * or -1 after saying why gdb could not connect.
 */
int vpmu_gdb_serve(struct vpmu_gdb_stub *g, const char *where);

/* A little-endian 32-bit word at @b. */
uint32_t vpmu_gdb_le32(const uint8_t *b);
/* Is [@addr, @addr + @len) in the program's memory? */
bool vpmu_gdb_in_mem(const struct vpmu_gdb_stub *g, uint32_t addr,
		     uint32_t len);
/* Is a breakpoint of gdb's at @addr? */
bool vpmu_gdb_bp_at(const struct vpmu_gdb_stub *g, uint32_t addr);
/*
 * True if the instruction at pc, not yet run, stores to a watched
 * location (hit_wp set).
 */
bool vpmu_gdb_wp_hit(struct vpmu_gdb_stub *g);
/*
 * The count of monitor @cmd [N] at @arg, 1 without one, in *@n; false
 * after saying why in @out.
 */
bool vpmu_gdb_mon_count(const char *cmd, const char *arg, unsigned long *n,
			struct vpmu_buf *out);

#endif /* _VPMU_GDB_STUB_H */
