/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_gdb_mon.h - vpmu-sim --gdb's monitor commands (qRcmd): the
 * microcode beneath the program.  What they show comes from the public
 * engine API and the image (the disassembler's text of each microword,
 * its labels, through vpmu_hist_img.h); stepping microwords is the
 * stub's (vpmu_gdb.c), which runs the engine.
 */
#ifndef _VPMU_GDB_MON_H
#define _VPMU_GDB_MON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vpmu_buf.h"
#include "vpmu_hist_img.h"

struct vpmu_engine;
struct vpmu_ucode;

#define VPMU_GDB_NUBP	64	/* micro-PC breakpoints */

struct vpmu_gdb_mon {
	struct vpmu_uhist_img hi;	/* the image's microwords, labels */
	bool have_img;
	struct vpmu_ucode *uc;		/* ...its tag names; NULL: none */
	uint32_t ubp[VPMU_GDB_NUBP];	/* micro-PC breakpoints */
	unsigned int nubp;
};

/* Open @img (the image the engine runs); false if it cannot be read. */
bool vpmu_gdb_mon_open(struct vpmu_gdb_mon *m, const void *img, size_t len);
void vpmu_gdb_mon_close(struct vpmu_gdb_mon *m);

/*
 * True if the image has a CTR microword: it reads the counter CSRs
 * (cycle, time, instret, hpmcounterN), which the target description
 * then offers.
 */
bool vpmu_gdb_mon_has_ctr(const struct vpmu_gdb_mon *m);

/* True if a micro-PC breakpoint is on @upc. */
bool vpmu_gdb_mon_ubp(const struct vpmu_gdb_mon *m, uint32_t upc);

/* "upc 0xUPC LABEL: MICROWORD\n" for the microword at @e's micro-PC. */
void vpmu_gdb_mon_where(const struct vpmu_gdb_mon *m, struct vpmu_engine *e,
			struct vpmu_buf *out);

/*
 * The monitor command @cmd but ustep (the stub's) into @out: 0, or -1
 * with the reason in @out.
 */
int vpmu_gdb_mon_cmd(struct vpmu_gdb_mon *m, struct vpmu_engine *e,
		     const char *cmd, struct vpmu_buf *out);

#endif /* _VPMU_GDB_MON_H */
