/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_ucode.h - the built-in microcode image's bytes (vpmu_ucode.c),
 * which the machine validates and installs at load and on
 * ucode/load_default.
 */
#ifndef _VPMU_UCODE_H
#define _VPMU_UCODE_H

#include <linux/types.h>

extern const u8 vpmu_default_ucode[];
extern const size_t vpmu_default_ucode_len;

#endif /* _VPMU_UCODE_H */
