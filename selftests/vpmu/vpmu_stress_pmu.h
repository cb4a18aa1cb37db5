/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_stress_pmu.h - what the PMU says about itself, read into a struct
 * vt_stress_info before the workers start, and the configs built from it
 * (vpmu_stress_pmu.c).  Above vpmu_stress_lib.h; see vpmu_stress.c.
 */
#ifndef VPMU_STRESS_PMU_H
#define VPMU_STRESS_PMU_H

#include "vpmu_stress_lib.h"

#define VT_STRESS_NTRIGS	7

int vt_stress_read_info(struct vt_stress_info *info);
int vt_stress_read_images(struct vt_stress_info *info);
size_t vt_stress_mem_size(const struct vt_stress_info *info);
uint64_t vt_stress_expect_of(const struct vt_stress_info *info, int prog, const char *name);

/* A trigger row: a program and what a group under that trigger counts. */
struct vt_stress_trig {
	int prog;
	const char *field;	/* trig_mark, trig_tag, trig_ev */
	int val;		/* its value; trig_ev: an alias's event */
	bool frozen;
	uint64_t insns, uops;	/* per run; cycles = uops (no stalls) */
};

extern const struct vt_stress_trig vt_stress_trigs[VT_STRESS_NTRIGS];

/* Format helpers. */
int vt_stress_field_of(const struct vt_stress_info *info, const char *name);
uint64_t vt_stress_put(const struct vt_stress_info *info, uint64_t *cfg, const char *field,
		       uint64_t val);
const struct vt_stress_alias *vt_stress_alias(const struct vt_stress_info *info, const char *name);

/* Configs built from format/ and events/. */
uint64_t vt_stress_alias_cfg(const struct vt_stress_info *info, const char *name);
uint64_t vt_stress_ctr_cfg(const struct vt_stress_info *info, int n);
uint64_t vt_stress_trig_config1(const struct vt_stress_info *info, const struct vt_stress_trig *t,
				bool freeze_on_ovf);
uint64_t vt_stress_random_period(struct vt_stress_rng *r);

#endif /* VPMU_STRESS_PMU_H */
