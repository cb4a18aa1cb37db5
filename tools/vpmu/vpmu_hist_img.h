/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_hist_img.h - an image as vpmu-hist's reports see it: the text of
 * each microword, its routine, its label; whether a histogram was
 * sampled on it.
 *
 * Like the rest of the toolchain library, nothing here prints or exits:
 * text goes into struct vpmu_buf, diagnostics into @diag as one
 * "error: ..." or "warning: ..." line each.
 */
#ifndef _VPMU_HIST_IMG_H
#define _VPMU_HIST_IMG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vpmu_buf.h"
#include "vpmu_hist_file.h"
#include "vpmu_tool.h"

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

#endif /* _VPMU_HIST_IMG_H */
