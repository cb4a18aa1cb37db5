/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_validate_uword.h - the validator's lower half, for its upper
 * (vpmu_validate.c): the image being checked, the verdict recorded
 * (why it fails, or that it passed), and the check of one microword.
 * Private to the two.
 */
#ifndef _VPMU_VALIDATE_UWORD_H
#define _VPMU_VALIDATE_UWORD_H

#include "vpmu_ucode.h"

/* The image being checked. */
struct vpmu_vctx {
	const u8 *img;
	size_t len;
	struct vpmu_image_header h;	/* host byte order */
	struct vpmu_verr *err;
};

__printf(4, 5)
int vpmu_reject(struct vpmu_vctx *c, enum vpmu_verr_code code, u64 offset,
		const char *fmt, ...);
void vpmu_accept(struct vpmu_vctx *c);
int vpmu_check_uword(struct vpmu_vctx *c, u32 i, struct vpmu_dec *d);

#endif /* _VPMU_VALIDATE_UWORD_H */
