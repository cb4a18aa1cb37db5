/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_default_image.h - the built-in microcode image's bytes
 * (vpmu_default_image.c), which the machine validates and installs at
 * load and on ucode/load_default.
 */
#ifndef _VPMU_DEFAULT_IMAGE_H
#define _VPMU_DEFAULT_IMAGE_H

#include <linux/types.h>

extern const u8 vpmu_default_image[];
extern const size_t vpmu_default_image_len;

#endif /* _VPMU_DEFAULT_IMAGE_H */
