/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_hist_report.h - vpmu-hist's report and gnuplot script of a
 * micro-PC histogram, and the rows, bars and script pieces that the
 * histogram unit's report and plot (vpmu_hist_hu.c) share.
 * Documentation/vpmu/histogram.rst describes the report.
 *
 * Like the rest of the toolchain library, nothing here prints or exits:
 * text goes into struct vpmu_buf, diagnostics into @diag as one
 * "error: ..." or "warning: ..." line each.
 */
#ifndef _VPMU_HIST_REPORT_H
#define _VPMU_HIST_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "vpmu_buf.h"
#include "vpmu_hist_file.h"
#include "vpmu_hist_img.h"
#include "vpmu_json.h"

enum vpmu_report_order {
	VPMU_REPORT_BY_COUNT,	/* highest count first, then by address */
	VPMU_REPORT_BY_ADDR,
};

struct vpmu_report_opts {
	enum vpmu_report_order order;
	bool all;		/* also rows with a zero count */
	bool by_label;		/* one row per routine, not per microword */
	uint32_t top;		/* at most this many rows; 0: all */
};

/* The annotated listing (or per-routine summary) of @hs. */
void vpmu_uhist_report(struct vpmu_buf *out, const struct vpmu_uhist *hs,
		       const struct vpmu_uhist_img *hi,
		       const struct vpmu_report_opts *o);

/*
 * The same report as JSON (--json), one object a line through @j onto
 * @f: the header's facts, then a row each, then what --top left out.
 */
void vpmu_uhist_report_json(struct vpmu_json *j, FILE *f,
			    const struct vpmu_uhist *hs,
			    const struct vpmu_uhist_img *hi,
			    const struct vpmu_report_opts *o);

/*
 * A self-contained gnuplot script (data inline) that draws @hs into
 * @path, PNG or SVG by its extension: per-routine bars above, every
 * microword's bucket below, colored by routine.  @what names the source
 * in the title (a program or file name).  Returns -1 for an unknown
 * extension.
 */
int vpmu_uhist_plot(struct vpmu_buf *script, const struct vpmu_uhist *hs,
		    const struct vpmu_uhist_img *hi, const char *path,
		    const char *what, struct vpmu_buf *diag);

/* ---- rows and bars, for vpmu_hist_hu.c's report too --------------------- */

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

/* ---- gnuplot scripts' pieces, for vpmu_hist_hu.c's plot too ------------- */

/* @s between double quotes, any '"', '\\' or control character as '?'. */
void hist_plot_name(struct vpmu_buf *o, const char *s);
/* @s between single quotes, each quote in it doubled. */
void hist_plot_quote(struct vpmu_buf *o, const char *s);
/*
 * The terminal by @path's extension (.png or .svg: else an error into
 * @diag and -1), @w x @h pixels, and "set output '@path'", unended.
 */
int hist_plot_output(struct vpmu_buf *o, const char *path, unsigned int w,
		     unsigned int h, struct vpmu_buf *diag);

#endif /* _VPMU_HIST_REPORT_H */
