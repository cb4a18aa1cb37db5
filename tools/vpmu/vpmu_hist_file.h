/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_hist_file.h - micro-PC histograms for vpmu-hist (vpmu_uhist_*):
 * the file of struct vpmu_uhist_header and its buckets (read and check,
 * write, sum) and the producer on the host build of the engine.
 * Documentation/vpmu/histogram.rst describes the file.
 *
 * Like the rest of the toolchain library, nothing here prints or exits:
 * text goes into struct vpmu_buf, diagnostics into @diag as one
 * "error: ..." or "warning: ..." line each.
 */
#ifndef _VPMU_HIST_FILE_H
#define _VPMU_HIST_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/vpmu.h>

#include "vpmu_buf.h"

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

/* For vpmu_hist_*.c: "error: ", the message and a newline into @diag; -1. */
int hist_fail(struct vpmu_buf *diag, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* _VPMU_HIST_FILE_H */
