/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu.h - interfaces between the parts of the vpmu module.
 */
#ifndef _VPMU_H
#define _VPMU_H

int vpmu_pmu_register(void);
void vpmu_pmu_unregister(void);

#endif /* _VPMU_H */
