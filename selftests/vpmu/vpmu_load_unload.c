// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_load_unload - unload and reload vpmu.ko a few times.
 *
 * The PMU's sysfs directory must disappear on unload and come back on load,
 * and the kernel log written meanwhile (read from /dev/kmsg, from a mark
 * taken at setup) must hold no warning, bug or oops.  A nonzero
 * uhist_interval at load starts the micro-PC histogram at that interval
 * (Documentation/admin-guide/perf/vpmu.rst, "Module parameters").  The
 * module is left loaded, with default parameters.  The module file is
 * $VPMU_KO, default the one modprobe loads (vt_ko()).
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

	if (vt_module_builtin())
		SKIP(return, VT_BUILTIN_REASON);
	if (access(vt_ko(), R_OK))
		SKIP(return, VT_NO_KO_REASON);
	if (!vt_module_loaded()) {
		ret = vt_insmod("");
		if (ret == -EPERM)
			SKIP(return, "not allowed to load modules");
		ASSERT_EQ(0, ret);
	}
	self->kmsg = vt_kmsg_mark();
	ASSERT_LE(0, self->kmsg);
}

FIXTURE_TEARDOWN(load_unload)
{
	if (!vt_module_loaded())
		vt_insmod("");
	if (self->kmsg > 0)
		close(self->kmsg);
}

TEST_F(load_unload, cycle)
{
	int i, ret;

	for (i = 0; i < CYCLES; i++) {
		ret = vt_rmmod();
		if (ret == -EPERM)
			SKIP(return, "not allowed to unload modules");
		ASSERT_EQ(0, ret) TH_LOG("delete_module: %s", strerror(-ret));
		ASSERT_FALSE(vt_pmu_present());
		ASSERT_FALSE(vt_module_loaded());

		ret = vt_insmod("");
		ASSERT_EQ(0, ret) TH_LOG("finit_module: %s", strerror(-ret));
		ASSERT_TRUE(vt_pmu_present());
		ASSERT_GE(vt_type(), PERF_TYPE_MAX);
	}
}

TEST_F(load_unload, kernel_log_clean)
{
	int i;

	for (i = 0; i < CYCLES; i++) {
		ASSERT_EQ(0, vt_rmmod());
		ASSERT_EQ(0, vt_insmod(""));
	}
	ASSERT_EQ(0, vt_kmsg_bad(_metadata, self->kmsg));
}

/* uhist/state, without its newline, into @buf; "" if unreadable. */
static const char *lu_uhist_state(char *buf, size_t size)
{
	vt_pmu_read("uhist/state", buf, size);
	return buf;
}

/*
 * Loaded with uhist_interval=7, the histogram is running from the start:
 * sum.vprg's 179 cycles on CPU 0 give floor(179 / 7) samples there, in
 * a header that says interval 7.  Loaded again without it, it is off.
 */
TEST_F(load_unload, uhist_interval_at_load)
{
	struct vpmu_uhist_header h;
	struct vt_prog sum;
	struct vpmu_run r;
	uint8_t *mem, *p;
	char buf[32];
	size_t len;
	int fd;

	ASSERT_EQ(0, vt_reload("uhist_interval=7"));
	if (access(VT_UHIST "state", F_OK)) {
		ASSERT_EQ(0, vt_reload(""));
		SKIP(return, "no %sstate", VT_UHIST);
	}
	EXPECT_STREQ("running", lu_uhist_state(buf, sizeof(buf)));
	p = vt_read_file(VT_UHIST "interval", &len);
	ASSERT_NE(NULL, p);
	EXPECT_STREQ("7\n", (char *)p);
	free(p);

	if (vt_setup_runs(_metadata, &fd, &sum, "sum", NULL)) {
		ASSERT_EQ(0, vt_reload(""));
		return;
	}
	mem = vt_prog_mem(&sum);
	ASSERT_NE(NULL, mem);
	ASSERT_EQ(0, vt_pin(0));
	vt_check_sum(_metadata, fd, &sum, mem, &r);
	p = vt_read_file(VT_UHIST "cpu0", &len);
	ASSERT_NE(NULL, p);
	ASSERT_LE(sizeof(h), len);
	memcpy(&h, p, sizeof(h));
	free(p);
	EXPECT_EQ(7u, h.interval);
	EXPECT_EQ(VT_SUM_CYCLES / 7, h.samples);
	free(mem);
	vt_teardown_runs(fd, &sum, NULL);

	ASSERT_EQ(0, vt_reload(""));
	EXPECT_STREQ("off", lu_uhist_state(buf, sizeof(buf)));
}

TEST_HARNESS_MAIN
