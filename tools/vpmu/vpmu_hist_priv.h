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
int hist_fail(struct vpmu_buf *diag, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- the report's rows and bars ------------------------------------------ */

struct hist_row {
	uint32_t idx;		/* micro-address or routine */
	uint32_t addr;
	uint64_t count;
	uint32_t hit;		/* routines: microwords sampled */
};

/* qsort() orders: by count, highest first, then by address; by address. */
int hist_by_count(const void *pa, const void *pb);
int hist_by_addr(const void *pa, const void *pb);

#define HIST_BAR_WIDTH	20

/*
 * @count's bar of '#' (HIST_BAR_WIDTH for @max, at least one for any
 * count) into @buf, which holds HIST_BAR_WIDTH + 1.
 */
void hist_bar(char *buf, uint64_t count, uint64_t max);
/* @count as a percentage of @total (0 if @total is). */
double hist_pct(uint64_t count, uint64_t total);

/* ---- gnuplot scripts ------------------------------------------------------ */

void hist_plot_name(struct vpmu_buf *o, const char *s);
void hist_plot_quote(struct vpmu_buf *o, const char *s);
int hist_plot_output(struct vpmu_buf *o, const char *path, unsigned int w,
		     unsigned int h, struct vpmu_buf *diag);

#endif /* _VPMU_HIST_PRIV_H */
