/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_hu_text.h - the histogram unit's program as text, and as the uapi
 * header's struct vpmu_hu_program.
 *
 * One parser and one printer, shared by the module (sysfs hist/program) and
 * the host tools (vpmu-sim --hu, vpmu-hist --set-program), so that the
 * same text means the same program everywhere; and the conversions to and
 * from the struct VPMU_IOC_HU_PROGRAM takes, which vpmu-hist compiles the
 * text into and the module checks as the parser checks text.  Portable C
 * like the engine core: no perf, no sysfs, no allocation.
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

/*
 * @u into @p (zeroed first; p->n == 0 means "off"), with the checks of
 * vpmu_hu_parse(): unknown flags, reserved fields, rules beyond nr that
 * are not zero, and whatever the text could not say are -EINVAL, with
 * @err (VPMU_HU_ERR_MAX bytes, may be NULL) saying which rule and why.
 * u->size is the caller's to check.
 */
int vpmu_hu_from_uapi(const struct vpmu_hu_program *u, struct vpmu_hu_prog *p,
		      char *err);

/* @p (NULL or n == 0: off) as the uapi struct, its size set. */
void vpmu_hu_to_uapi(const struct vpmu_hu_prog *p, struct vpmu_hu_program *u);

#endif /* _VPMU_HU_TEXT_H */
