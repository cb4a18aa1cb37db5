// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_perf_reload - microcode images replaced under open perf events
 * (Documentation/admin-guide/perf/vpmu.rst, "sysfs"): the counters belong
 * to the engines, not to an image, so events count across images exactly.
 * Needs root and the loader.
 */
#define _GNU_SOURCE
#include "vpmu_perf.h"

FIXTURE(reload) {
	struct vt_perf_fx f;
	uint8_t *img[2];
	size_t len;
};

FIXTURE_SETUP(reload)
{
	self->img[0] = NULL;
	self->img[1] = NULL;
	vt_perf_fx_setup(_metadata, &self->f, "memcpy");
	if (vt_need_loader(_metadata))
		return;
	ASSERT_EQ(0, vt_load_default());
	self->img[0] = vt_read_image(&self->len);
	ASSERT_NE(NULL, self->img[0]);
	self->img[1] = vt_variant(self->img[0], self->len, "vpmu32-perf", 20);
	ASSERT_NE(NULL, self->img[1]);
}

FIXTURE_TEARDOWN(reload)
{
	if (self->img[0])
		vt_load_default();
	free(self->img[0]);
	free(self->img[1]);
	vt_perf_fx_teardown(&self->f);
}

/*
 * Images come and go under open events: memcpy on the default image
 * (3120 cycles, 8 misses), on a variant with a 20-cycle miss penalty
 * (3056 + 8 x 20), and on the default again.  The counters belong to the
 * engines, not to an image, so the events count all three runs exactly;
 * the images replaced meanwhile are freed (kmemleak on the debug kernel).
 */
TEST_F(reload, counts_across_images)
{
	uint64_t cycles, miss;
	struct vt_count c;
	int fc, fm;

	ASSERT_EQ(0, vt_alias_cfg("cycles", &cycles));
	ASSERT_EQ(0, vt_alias_cfg("dc_miss", &miss));
	fc = vt_open_config(cycles, 0);
	fm = vt_open_config(miss, 0);
	ASSERT_LE(0, fc);
	ASSERT_LE(0, fm);
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	EXPECT_EQ(3120ull, self->f.r.cycles);
	ASSERT_EQ(0, vt_write_image(self->img[1], self->len, 4096));
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	EXPECT_EQ(3056ull + 8 * 20, self->f.r.cycles);
	ASSERT_EQ(0, vt_load_default());
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	ASSERT_EQ(0, vt_read_count(fc, &c));
	EXPECT_EQ(2 * 3120ull + 3056 + 8 * 20, c.value);
	ASSERT_EQ(0, vt_read_count(fm, &c));
	EXPECT_EQ(24ull, c.value);
	close(fc);
	close(fm);
}

TEST_HARNESS_MAIN
