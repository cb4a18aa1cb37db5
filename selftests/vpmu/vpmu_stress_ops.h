/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_stress_ops.h - the roles of vpmu_stress's workers, one operation
 * a call: what main() calls (vpmu_stress.c) and one role's files call of
 * another (the perf worker's hostile attributes, the exact worker's
 * sampling checks).  Each is defined in its vpmu_stress_ROLE.c.
 */
#ifndef VPMU_STRESS_OPS_H
#define VPMU_STRESS_OPS_H

#include "vpmu_stress_lib.h"

void vt_stress_perf_init(struct vt_stress_worker *w);
void vt_stress_perf_op(struct vt_stress_worker *w);
void vt_stress_perf_fini(struct vt_stress_worker *w);
void vt_stress_hostile_op(struct vt_stress_worker *w);
void vt_stress_exact_op(struct vt_stress_worker *w);
void vt_stress_exact_sampling(struct vt_stress_worker *w);
void vt_stress_cpu_sampling(struct vt_stress_worker *w);
void vt_stress_sys_op(struct vt_stress_worker *w);
void vt_stress_sys_fini(struct vt_stress_worker *w);
void vt_stress_runner_op(struct vt_stress_worker *w);

#endif /* VPMU_STRESS_OPS_H */
