/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_hu_text.h - the histogram unit's program as text.
 *
 * One parser and one printer, shared by the module (sysfs hist/program) and
 * the host tools (vpmu-sim --hu), so that the same text means the same
 * program everywhere.  Portable C like the engine core: no perf, no sysfs,
 * no allocation.  Documentation/vpmu/histogram.rst, "Histogram unit", has
 * the grammar; in short:
 *
 *   seq|par  ENTRY ; ENTRY ...       (entries also separated by newlines)
 *   ENTRY:   PREDICATE PERIOD
 *   PREDICATE: event=N | tag=K | vpmu_uops ... | vpmu_tagK
 *              | wq=LO[-HI] | upc=LO[-HI]
 *   "off", or nothing but blanks and comments (# to the end of the line),
 *   switches the unit off.
 */
#ifndef _VPMU_HU_TEXT_H
#define _VPMU_HU_TEXT_H

#include "vpmu_engine.h"

/* The largest write-queue occupancy (the deepest queue an image may have). */
#define VPMU_HU_WQ_MAX		32
/* Room for any printed program, NUL included. */
#define VPMU_HU_TEXT_MAX	1024
/* Room for any parse error message, NUL included. */
#define VPMU_HU_ERR_MAX		160

/*
 * Parse @len bytes of @text into @p (zeroed first; p->n == 0 means "off").
 * On error, returns -EINVAL with @err (VPMU_HU_ERR_MAX bytes, may be NULL)
 * saying which entry and why, and @p unspecified.  A program it accepts is
 * one vpmu_engine_hu_set() accepts.
 */
int vpmu_hu_parse(const char *text, size_t len, struct vpmu_hu_prog *p,
		  char *err);

/*
 * Print @p (NULL or n == 0: "off") in the canonical form, one entry a line,
 * ending with a newline, into @buf of @size bytes (NUL-terminated when
 * @size > 0).  Returns the length of the whole text, as snprintf() does.
 * vpmu_hu_parse() of the text gives @p back, for any program it accepts.
 */
int vpmu_hu_print(const struct vpmu_hu_prog *p, char *buf, size_t size);

#endif /* _VPMU_HU_TEXT_H */
