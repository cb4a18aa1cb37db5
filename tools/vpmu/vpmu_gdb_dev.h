/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_gdb_dev.h - vpmu-run --gdb: the GDB stub (vpmu_gdb_stub.h) for a
 * static RV32 ELF program on the kernel's engine, through /dev/vpmu.
 * The kernel stops the run where gdb asks: one instruction
 * (VPMU_RUN_F_STEP) or a breakpoint's address (struct vpmu_run.brk[]),
 * both at an instruction boundary, as stops of the engine (VPMU_RUN_BREAK)
 * that cost nothing in the counts; the program goes on from there with
 * VPMU_RUN_F_RESUME.  gdb thus sees the registers, memory and stops
 * vpmu-sim --gdb shows for the same program (the same engine), and perf
 * counts a debugged run as an undebugged one.
 */
#ifndef _VPMU_GDB_DEV_H
#define _VPMU_GDB_DEV_H

#include <stdint.h>

#include <linux/vpmu.h>

#include "vpmu_runner.h"

struct vpmu_gdb_dev_target {
	const char *where;	/* "PORT" (TCP, loopback) or "unix:PATH" */
	int fd;			/* /dev/vpmu */
	/*
	 * The program, not started: mem, mem_size, entry, mode and regs[]
	 * (with VPMU_RUN_F_REGS) as a first VPMU_IOC_RUN takes them.  Where
	 * it stopped last when vpmu_gdb_dev_run() returns.
	 */
	struct vpmu_run *r;
	uint64_t budget;	/* the whole run's cycles */
	void (*run_error)(int err);	/* says why an ioctl failed */
};

/*
 * Wait for gdb on @t->where, then run the program as gdb says, serving
 * its ecalls as vpmu_elf_loop() does, until it exits or stops otherwise
 * (how it ended in @end), or gdb kills it or disconnects
 * (VPMU_GDB_KILLED); a detach (D) runs it on to its end.  0,
 * VPMU_GDB_KILLED, or -1 after saying why gdb could not connect or the
 * kernel refused a run.
 */
int vpmu_gdb_dev_run(const struct vpmu_gdb_dev_target *t,
		     struct vpmu_elf_end *end);

#endif /* _VPMU_GDB_DEV_H */
