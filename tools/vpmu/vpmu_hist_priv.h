/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_hist_priv.h - what vpmu-hist's library files share besides
 * vpmu_uhist.h: the error line (vpmu_hist_file.c), and the report's rows
 * and bars and the gnuplot script's pieces (vpmu_hist_report.c), which
 * the histogram unit's report and plot (vpmu_hist_hu.c) use too.
 */
#ifndef _VPMU_HIST_PRIV_H
#define _VPMU_HIST_PRIV_H

#include <stdint.h>

#include "vpmu_buf.h"
#include "vpmu_uhist.h"

/* "error: ..." and a newline into @diag; returns -1. */
int fail(struct vpmu_buf *diag, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- the report's rows and bars ------------------------------------------ */

struct row {
	uint32_t idx;		/* micro-address or routine */
	uint32_t addr;
	uint64_t count;
	uint32_t hit;		/* routines: microwords sampled */
};

/* qsort() orders: by count, highest first, then by address; by address. */
int by_count(const void *pa, const void *pb);
int by_addr(const void *pa, const void *pb);

#define BAR_WIDTH	20

/* @count's bar of '#', BAR_WIDTH for @max, into @buf (BAR_WIDTH + 1). */
void bar(char *buf, uint64_t count, uint64_t max);
/* @count as a percentage of @total (0 if @total is). */
double pct(uint64_t count, uint64_t total);

/* ---- gnuplot scripts ------------------------------------------------------ */

void plot_name(struct vpmu_buf *o, const char *s);
void plot_quote(struct vpmu_buf *o, const char *s);
int plot_output(struct vpmu_buf *o, const char *path, unsigned int w,
		unsigned int h, struct vpmu_buf *diag);

#endif /* _VPMU_HIST_PRIV_H */
