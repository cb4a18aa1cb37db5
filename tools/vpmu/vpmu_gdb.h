/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_gdb.h - vpmu-sim --gdb: a GDB remote serial protocol stub for a
 * static RV32 ELF program on the host engine, so that gdb (gdb-multiarch,
 * riscv64-unknown-elf-gdb) debugs it as it debugs one under
 * qemu-riscv32 -g; or for a vpmu program file (vpmu32, the default
 * microcode's instruction set), which gdb sees as a 32-bit RISC-V of the
 * same registers with the engine's own beside them (vpmu_gdb.c).  The
 * stub stops at instruction boundaries (inside an instruction only for
 * its monitor's micro-PC breakpoints and microword steps,
 * vpmu_gdb_mon.h), which it finds through the public engine API
 * alone: runs of one cycle (one microword each) until the
 * retired-instruction total (VPMU_EV_INSNS) moves.  Breakpoints and
 * watchpoints are the stub's: it never writes the guest's memory to
 * stop, so the counts of a debugged run are those of an undebugged one.
 */
#ifndef _VPMU_GDB_H
#define _VPMU_GDB_H

#include <stddef.h>
#include <stdint.h>

#include "vpmu_gdb_net.h"
#include "vpmu_runner.h"

struct vpmu_engine;

/* What the program does under the debugger, and where gdb connects. */
struct vpmu_gdb_target {
	const char *where;	/* "PORT" (TCP, loopback) or "unix:PATH" */
	struct vpmu_engine *e;	/* the program started on it */
	uint8_t *mem;		/* its memory */
	uint32_t mem_size;
	uint64_t budget;	/* the whole run's cycles */
	const void *img;	/* the image it runs, for the monitor */
	size_t img_len;
	/*
	 * A vpmu program file, not an RV32 ELF program: no ecalls to serve
	 * (a TRAP ends it, as any stop but the budget's), HALT is its exit
	 * (status 0, as vpmu-sim's), and the target description adds the
	 * engine's registers (org.vpmu.vpmu32)
	 */
	bool prog;
};

/*
 * Wait for gdb on @t->where, then run the program as gdb says, serving
 * an RV32 program's ecalls as vpmu_elf_loop() does, until it exits or
 * stops otherwise (how it ended in @end, as vpmu_elf_loop() says it; a
 * program file's HALT as an exit, status 0), or gdb kills it or
 * disconnects (VPMU_GDB_KILLED).  A detach (D) runs it on to its end.
 * 0, VPMU_GDB_KILLED, or -1 after saying why gdb could not connect.
 */
int vpmu_gdb_run(const struct vpmu_gdb_target *t, struct vpmu_elf_end *end);

#endif /* _VPMU_GDB_H */
