// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_load_unload - unload and reload vpmu.ko a few times.
 *
 * The PMU's sysfs directory must disappear on unload and come back on
 * load, and the kernel log written meanwhile (read from /dev/kmsg, from a
 * mark taken at setup) must hold no warning, bug or oops.  The module is
 * left loaded.  The module file is $VPMU_KO, default /opt/vpmu/vpmu.ko.
 */
#include "vpmu_test.h"
#include "vpmu_perf_lib.h"

#define CYCLES	3

FIXTURE(load_unload) {
	int kmsg;
};

FIXTURE_SETUP(load_unload)
{
	int ret;

	if (access(vl_ko(), R_OK))
		SKIP(return, "no module file (set VPMU_KO)");
	if (!vl_module_loaded()) {
		ret = vl_insmod("");
		if (ret == -EPERM)
			SKIP(return, "not allowed to load modules");
		ASSERT_EQ(0, ret);
	}
	self->kmsg = vt_kmsg_mark();
	ASSERT_LE(0, self->kmsg);
}

FIXTURE_TEARDOWN(load_unload)
{
	if (!vl_module_loaded())
		vl_insmod("");
	if (self->kmsg > 0)
		close(self->kmsg);
}

TEST_F(load_unload, cycle)
{
	int i, ret;

	for (i = 0; i < CYCLES; i++) {
		ret = vl_rmmod();
		if (ret == -EPERM)
			SKIP(return, "not allowed to unload modules");
		ASSERT_EQ(0, ret) TH_LOG("delete_module: %s", strerror(-ret));
		ASSERT_FALSE(vl_pmu_present());
		ASSERT_FALSE(vl_module_loaded());

		ret = vl_insmod("");
		ASSERT_EQ(0, ret) TH_LOG("finit_module: %s", strerror(-ret));
		ASSERT_TRUE(vl_pmu_present());
		ASSERT_GE(vp_type(), PERF_TYPE_MAX);
	}
}

TEST_F(load_unload, kernel_log_clean)
{
	int i;

	for (i = 0; i < CYCLES; i++) {
		ASSERT_EQ(0, vl_rmmod());
		ASSERT_EQ(0, vl_insmod(""));
	}
	ASSERT_EQ(0, vt_kmsg_bad(_metadata, self->kmsg));
}

TEST_HARNESS_MAIN
