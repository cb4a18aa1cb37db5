// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_registered - the "vpmu" PMU is registered with the perf core.
 *
 * Checks that the sysfs directory exists, that its "type" is a dynamic PMU
 * type, and that perf_event_open() on that type reaches the driver (any
 * answer but ENOENT, which would mean no PMU claims the type).  Skips when
 * the module is not loaded at all.
 */
#include "vpmu_test.h"
#include "vpmu_perf_lib.h"

/* False, with the test skipped, when there is no vpmu (the caller returns). */
static bool need_module(struct __test_metadata *_metadata)
{
	struct stat st;

	if (stat("/sys/module/vpmu", &st))
		SKIP(return false, "vpmu module not loaded");
	return true;
}

TEST(sysfs_dir)
{
	struct stat st;

	if (!need_module(_metadata))
		return;
	ASSERT_EQ(0, stat(VT_PMU_DIR, &st));
	ASSERT_TRUE(S_ISDIR(st.st_mode));
	ASSERT_EQ(0, stat(VT_PMU_DIR "/type", &st));
}

TEST(type_is_dynamic)
{
	long type;

	if (!need_module(_metadata))
		return;
	type = vt_type();
	TH_LOG("vpmu type %ld", type);
	/* Dynamic PMU types are allocated from PERF_TYPE_MAX upwards. */
	ASSERT_GE(type, PERF_TYPE_MAX);
	ASSERT_LT(type, 1L << 30);
}

TEST(open_reaches_driver)
{
	struct perf_event_attr attr;
	long type;
	int fd;

	if (!need_module(_metadata))
		return;
	type = vt_type();
	ASSERT_GE(type, PERF_TYPE_MAX);

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config = 0;
	attr.disabled = 1;

	/* CPU-wide on CPU 0: valid whichever task context the PMU uses. */
	fd = vt_perf_event_open(&attr, -1, 0, -1, 0);
	if (fd >= 0) {
		TH_LOG("event opened (fd %d)", fd);
		close(fd);
		return;
	}
	TH_LOG("perf_event_open: %s", strerror(errno));
	ASSERT_NE(ENOENT, errno);
}

TEST_HARNESS_MAIN
