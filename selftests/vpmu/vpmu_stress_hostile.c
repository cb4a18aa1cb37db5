// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_stress_hostile.c - the hostile attributes a perf worker of
 * vpmu_stress tries now and then: random config bits, config2, periods no
 * counter can take, both modes excluded, config3.  Each must fail with a
 * clean error, or open and count harmlessly.  See vpmu_stress.c.
 */
#define _GNU_SOURCE
#include "vpmu_stress_ops.h"
#include "vpmu_stress_pmu.h"

/* Hostile attributes: each must fail with a clean error. */
void vt_stress_hostile_op(struct vt_stress_worker *w)
{
	union {
		struct perf_event_attr a;
		uint64_t u[32];
	} x;
	int k = vt_stress_below(&w->r, 6), fd;
	bool must_fail = false;

	vt_attr_of(&x.a, w->info->type, vt_stress_alias_cfg(w->info, "uops"), 0);
	switch (k) {
	case 0:		/* random config bits */
		x.a.config = vt_stress_rnd(&w->r);
		break;
	case 1:		/* random config1 bits */
		x.a.config1 = vt_stress_rnd(&w->r) & vt_stress_rnd(&w->r);
		break;
	case 2:		/* config2 (nothing there) */
		x.a.config2 = 1ull << vt_stress_below(&w->r, 64);
		must_fail = true;
		break;
	case 3:		/* a period no counter can take */
		x.a.sample_period = 1ull << 63 | vt_stress_rnd(&w->r);
		x.a.sample_type = PERF_SAMPLE_IP;
		must_fail = true;
		break;
	case 4:		/* excludes both modes: could never count */
		x.a.exclude_user = 1;
		x.a.exclude_kernel = 1;
		must_fail = true;
		break;
	default:	/* config3 (attr size VER8, offset 128) */
		x.a.size = 136;
		x.u[16] = 1ull << vt_stress_below(&w->r, 64);
		must_fail = true;
		break;
	}
	fd = vt_open(&x.a, 0, -1, -1);
	w->s.hostile++;
	vt_stress_log(w,
		      "hostile open %d: config %#llx config1 %#llx config2 %#llx period %#llx size %u: %s",
		      k, (unsigned long long)x.a.config,
		      (unsigned long long)x.a.config1,
		      (unsigned long long)x.a.config2,
		      (unsigned long long)x.a.sample_period, x.a.size,
		      fd < 0 ? vt_stress_errname(fd) : "ok");
	if (fd >= 0) {
		if (must_fail)
			vt_stress_fail(w, "hostile open %d accepted", k);
		vt_stress_run_checked(w, VT_STRESS_PROG_SUM, 1000);
		close(fd);
		return;
	}
	if (fd != -EINVAL && fd != -ENOENT && fd != -EOPNOTSUPP && fd != -E2BIG)
		vt_stress_fail(w, "hostile open %d: unexpected %s", k,
			       vt_stress_errname(fd));
}
