/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_hu_text.h - the histogram unit's program as text.
 *
 * One parser and one printer for the host tools (vpmu-sim --hu,
 * vpmu-hist --set-program and --program), so that the same text means the
 * same program everywhere: vpmu-hist compiles it into the uapi header's
 * struct vpmu_hu_program, which the module takes (VPMU_IOC_HU_PROGRAM) and
 * checks as the parser checks text (vpmu_hu_uapi.h, in the module's
 * directory).  Portable C like the engine core: no allocation.
 * Documentation/vpmu/histogram.rst, "Histogram unit", has the grammar; in
 * short:
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

#include "vpmu_hu_uapi.h"

/* Room for any printed program, NUL included. */
#define VPMU_HU_TEXT_MAX	1024

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
