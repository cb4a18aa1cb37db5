/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - a tiny TAP producer for the host tests.
 *
 *   tap_plan(n);                    "1..n"
 *   tap_ok(cond, "fmt", ...);       "ok k - name" / "not ok k - name"
 *   tap_eq(name, got, want)         ok when equal; prints both otherwise
 *   return tap_done();              exit status: 0 when all passed
 *
 * A test program may print diagnostics as "# ..." lines.
 */
#ifndef _VPMU_TAP_H
#define _VPMU_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int tap_n, tap_failed;

static inline void tap_plan(int n)
{
	printf("1..%d\n", n);
	fflush(stdout);
}

__attribute__((format(printf, 2, 3)))
static inline bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		tap_failed++;
	return cond;
}

#define tap_diag(...)	(printf("# " __VA_ARGS__), printf("\n"))

static inline int tap_done(void)
{
	return tap_failed ? 1 : 0;
}

#endif /* _VPMU_TAP_H */
