/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_hist_perf.h - a micro-PC histogram of perf samples for vpmu-hist.
 *
 * Like the rest of the toolchain library, nothing here prints or exits:
 * text goes into struct vpmu_buf, diagnostics into @diag as one
 * "error: ..." or "warning: ..." line each.
 */
#ifndef _VPMU_HIST_PERF_H
#define _VPMU_HIST_PERF_H

#include <stdbool.h>
#include <stddef.h>

#include "vpmu_buf.h"
#include "vpmu_hist_file.h"
#include "vpmu_hist_img.h"

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

#endif /* _VPMU_HIST_PERF_H */
