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

void st_perf_init(struct st_worker *w);
void st_perf_op(struct st_worker *w);
void st_perf_fini(struct st_worker *w);
void st_hostile_op(struct st_worker *w);
void st_exact_op(struct st_worker *w);
void st_exact_sampling(struct st_worker *w);
void st_cpu_sampling(struct st_worker *w);
void st_sys_op(struct st_worker *w);
void st_sys_fini(struct st_worker *w);
void st_runner_op(struct st_worker *w);

#endif /* VPMU_STRESS_OPS_H */
