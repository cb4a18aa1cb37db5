/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu.h - interfaces between the parts of the vpmu module.
 */
#ifndef _VPMU_H
#define _VPMU_H

#include <linux/types.h>

/* The built-in microcode image (vpmu_ucode.c). */
extern const u8 vpmu_default_ucode[];
extern const size_t vpmu_default_ucode_len;

int vpmu_pmu_register(void);
void vpmu_pmu_unregister(void);

#endif /* _VPMU_H */
