/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_hist_hu.h - the histogram unit's buckets C1..Cn for vpmu-hist
 * (vpmu_hu_buckets_*): read, report and plot.
 *
 * Like the rest of the toolchain library, nothing here prints or exits:
 * text goes into struct vpmu_buf, diagnostics into @diag as one
 * "error: ..." or "warning: ..." line each.
 */
#ifndef _VPMU_HIST_HU_H
#define _VPMU_HIST_HU_H

#include <stddef.h>
#include <stdint.h>

#include "vpmu_buf.h"
#include "vpmu_hist_report.h"
#include "vpmu_hu_text.h"

/* Buckets C1..Cn of the histogram unit, as read from a text file. */
struct vpmu_hu_buckets {
	uint32_t n;			/* 1..VPMU_HU_MAX */
	uint64_t c[VPMU_HU_MAX];	/* c[b - 1] is bucket Cb */
};

/*
 * Read bucket text: vpmu-hist --get-buckets output ("C<b> <count>" lines,
 * nothing else but blank lines) or vpmu-sim --hu output ("hist C<b>
 * <count>" lines; its other lines are skipped), told apart by whether a
 * line starts with "hist ".  Buckets must come in order, C1 first, each
 * once, and add up to at most UINT64_MAX (the report's total).  An error
 * is one "@name:LINE: error: ..." line in @diag (or "@name: error: ..."
 * when it is about the whole file).
 */
int vpmu_hu_buckets_parse(struct vpmu_hu_buckets *hh, const char *text,
			  size_t len, const char *name, struct vpmu_buf *diag);

/*
 * Entry @i (0-based) of @p as a bucket label: its predicate in canonical
 * form and its period, "wq=2 (500 cycles)".
 */
void vpmu_hu_entry_label(const struct vpmu_hu_prog *p, unsigned int i,
			 char *buf, size_t size);

/*
 * The report of @hh: a heading naming @what (the bucket file) and, with
 * @p (NULL: no program known; else p->n == hh->n), the mode and the
 * monitoring period; then one row per bucket (with its label when @p is
 * given), count, share of the total of the buckets and a bar.  o->order
 * VPMU_REPORT_BY_ADDR is bucket order; o->top limits the rows.
 */
void vpmu_hu_buckets_report(struct vpmu_buf *out,
			    const struct vpmu_hu_buckets *hh,
			    const struct vpmu_hu_prog *p, const char *what,
			    const struct vpmu_report_opts *o);

/* The same report as JSON (--json), one object a line through @j onto @f. */
void vpmu_hu_buckets_json(struct vpmu_json *j, FILE *f,
			  const struct vpmu_hu_buckets *hh,
			  const struct vpmu_hu_prog *p, const char *what,
			  const struct vpmu_report_opts *o);

/*
 * A self-contained gnuplot script drawing @hh as a bar chart into @path
 * (PNG or SVG by its extension): one bar per bucket in bucket order,
 * labelled with its predicate and period when @p is given, its count on
 * top; the title names @what and, with @p, the mode.  Returns -1 for an
 * unknown extension.
 */
int vpmu_hu_buckets_plot(struct vpmu_buf *script,
			 const struct vpmu_hu_buckets *hh,
			 const struct vpmu_hu_prog *p, const char *path,
			 const char *what, struct vpmu_buf *diag);

#endif /* _VPMU_HIST_HU_H */
