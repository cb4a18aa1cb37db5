/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_uhist.h - the histogram reports of vpmu-hist.  Micro-PC histogram
 * files (struct vpmu_uhist_header and its buckets; vpmu_uhist_*): read
 * and check, sum, write, produce one on the host build of the engine, and
 * turn one into an annotated report or a gnuplot script.  The histogram
 * unit's buckets C1..Cn (vpmu_hu_buckets_*): read, report and plot.
 *
 * Like the rest of the toolchain library, nothing here prints or exits:
 * text goes into struct vpmu_buf, diagnostics into @diag as one
 * "error: ..." or "warning: ..." line each.
 * Documentation/vpmu/histogram.rst describes the file and the report.
 */
#ifndef _VPMU_UHIST_H
#define _VPMU_UHIST_H

#include <stdbool.h>
#include <stdint.h>

#include <linux/vpmu.h>

#include "vpmu_buf.h"
#include "vpmu_hu_text.h"
#include "vpmu_tool.h"

/* A histogram in memory: the header as read, and nbuckets buckets. */
struct vpmu_uhist {
	struct vpmu_uhist_header h;
	uint64_t *bucket;
};

/*
 * Check a histogram file completely (magic, version, sizes, reserved
 * fields, samples = sum of the buckets) and copy it into @hs.
 */
int vpmu_uhist_parse(struct vpmu_uhist *hs, const void *data, size_t len,
		     struct vpmu_buf *diag);
/* The file form of @hs (samples recomputed), appended to @out. */
void vpmu_uhist_write(const struct vpmu_uhist *hs, struct vpmu_buf *out);
void vpmu_uhist_free(struct vpmu_uhist *hs);

/*
 * Add @b's buckets to @a's (per-CPU files into one).  The bucket counts
 * must match; the image checksum and the interval must too, unless
 * @force (then a warning).  The sum's cpu is VPMU_UHIST_CPU_SUM unless
 * both are the same CPU, its generation 0 unless both have the same one.
 */
int vpmu_uhist_add(struct vpmu_uhist *a, const struct vpmu_uhist *b, bool force,
		   struct vpmu_buf *diag);

/* How a simulated run ended (the engine's struct vpmu_stop, in brief). */
struct vpmu_uhist_run {
	unsigned int reason;	/* enum vpmu_stop_reason */
	uint32_t code;		/* trap code or fault kind */
	uint64_t cycles;
};

/*
 * Run program file @prog on the host build of the engine with image
 * @img, sampling the micro-PC every @interval cycles (>= 1) for at most
 * @budget cycles, and fill @hs as the module's uhist files would (cpu
 * VPMU_UHIST_CPU_SUM, generation 0).  A program assembled for another
 * image gets a warning.
 */
int vpmu_uhist_simulate(struct vpmu_uhist *hs, const void *img, size_t img_len,
			const void *prog, size_t prog_len, uint32_t interval,
			uint64_t budget, struct vpmu_uhist_run *run,
			struct vpmu_buf *diag);

/*
 * An image as the report sees it: every microword's source text (the
 * disassembler's) and the routine it belongs to, the nearest symbol at or
 * before it.
 */
struct vpmu_uhist_sym {
	const char *name;
	uint32_t addr;
	uint32_t size;		/* microwords up to the next symbol */
};

struct vpmu_uhist_img {
	struct vpmu_img_view v;
	struct vpmu_buf text;	/* cs_words lines */
	char **uword;		/* per micro-address: its line in text */
	struct vpmu_uhist_sym *sym;	/* by address, one per address */
	uint32_t nsym;
	uint32_t *routine;	/* per micro-address: index in sym */
};

/*
 * @img must stay valid while @hi is used.  Microwords before the first
 * symbol belong to a routine named "-".
 */
int vpmu_uhist_img_open(struct vpmu_uhist_img *hi, const void *img, size_t len,
			struct vpmu_buf *diag);
void vpmu_uhist_img_close(struct vpmu_uhist_img *hi);
/* "name" or "name+offset" for micro-address @upc. */
void vpmu_uhist_label(const struct vpmu_uhist_img *hi, uint32_t upc, char *buf,
		      size_t size);

/*
 * Whether @hs was sampled on @hi's image: the same number of buckets
 * (always required) and the same checksum (a warning with @force).
 */
int vpmu_uhist_match(const struct vpmu_uhist *hs,
		     const struct vpmu_uhist_img *hi, bool force,
		     struct vpmu_buf *diag);

/*
 * A histogram of perf samples: the text of perf script (from file @name,
 * for messages) whose lines each end with a sample's IP, as "perf script
 * -F ip" prints them: a micro-PC sample's (VPMU_SAMPLE_UPC_BASE +
 * micro-PC, the format term sample_upc; perf.rst, "Samples") or the
 * combined micro-PC << 32 | macro PC of earlier versions.  Each sample
 * counts one in the bucket of its micro-PC; @hi gives the buckets and the
 * checksum.  A macro-PC sample is an error; so is a micro-PC beyond the
 * image, or with @force a skipped sample and a warning.
 */
int vpmu_uhist_from_perf(struct vpmu_uhist *hs, const struct vpmu_uhist_img *hi,
			 const char *text, size_t len, const char *name,
			 bool force, struct vpmu_buf *diag);

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
 * A self-contained gnuplot script (data inline) that draws @hs into
 * @path, PNG or SVG by its extension: per-routine bars above, every
 * microword's bucket below, colored by routine.  @what names the source
 * in the title (a program or file name).  Returns -1 for an unknown
 * extension.
 */
int vpmu_uhist_plot(struct vpmu_buf *script, const struct vpmu_uhist *hs,
		    const struct vpmu_uhist_img *hi, const char *path,
		    const char *what, struct vpmu_buf *diag);

/* ---- histogram-unit buckets ---------------------------------------------- */

/* Buckets C1..Cn of the histogram unit, as read from a text file. */
struct vpmu_hu_buckets {
	uint32_t n;			/* 1..VPMU_HU_MAX */
	uint64_t c[VPMU_HU_MAX];	/* c[b - 1] is bucket Cb */
};

/*
 * Read bucket text: hist/sum or hist/cpuN ("C<b> <count>" lines, nothing
 * else but blank lines) or vpmu-sim --hu output ("hist C<b> <count>"
 * lines; its other lines are skipped), told apart by whether a line starts
 * with "hist ".  Buckets must come in order, C1 first, each once, and
 * add up to at most UINT64_MAX (the report's total).  An
 * error is one "@name:LINE: error: ..." line in @diag (or "@name: error:
 * ..." when it is about the whole file).
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

#endif /* _VPMU_UHIST_H */
