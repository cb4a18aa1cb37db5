/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_stress_pmu.h - what the PMU says about itself, read into a struct
 * st_info before the workers start, and the configs built from it
 * (vpmu_stress_pmu.c).  Above vpmu_stress_lib.h; see vpmu_stress.c.
 */
#ifndef VPMU_STRESS_PMU_H
#define VPMU_STRESS_PMU_H

#include "vpmu_stress_lib.h"

#define ST_NTRIGS	7

int st_read_info(struct st_info *info);
int st_read_images(struct st_info *info);
size_t st_mem_size(const struct st_info *info);
uint64_t st_expect_of(const struct st_info *info, int prog, const char *name);

/* A trigger row: a program and what a group under that trigger counts. */
struct trig {
	int prog;
	const char *field;	/* trig_mark, trig_tag, trig_ev */
	int val;		/* its value; trig_ev: an alias's event */
	bool frozen;
	uint64_t insns, uops;	/* per run; cycles = uops (no stalls) */
};

extern const struct trig st_trigs[ST_NTRIGS];

/* Format helpers. */
int st_field_of(const struct st_info *info, const char *name);
uint64_t st_put(const struct st_info *info, uint64_t *cfg, const char *field,
		uint64_t val);
const struct st_alias *st_alias(const struct st_info *info, const char *name);

/* Configs built from format/ and events/. */
uint64_t st_alias_cfg(const struct st_info *info, const char *name);
uint64_t st_ctr_cfg(const struct st_info *info, int n);
uint64_t st_trig_config1(const struct st_info *info, const struct trig *t,
			 bool freeze_on_ovf);
uint64_t st_random_period(struct st_rng *r);

#endif /* VPMU_STRESS_PMU_H */
