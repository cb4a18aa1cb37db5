// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_inherit - an inherited event is a copy, not a new open.
 *
 * fork() and clone() copy every inherit event of the task through the
 * PMU's event_init; an error there makes the fork itself fail.  Whether a
 * tag or a histogram-unit bucket can be opened depends on what is loaded
 * now (the image's event field, the unit's program), which may have
 * changed since the original was opened: new opens are checked against
 * it, copies are not.  Found by vpmu_stress (a fork of its perf worker
 * failed with EINVAL after its sys worker set a shorter program).
 * Skips without vpmu_hu and VT_HIST_TOOL, the loader or the encoded
 * sample image.
 */
#define _GNU_SOURCE
#include <sys/wait.h>
#include "vpmu_test.h"
#include "vpmu_perf_lib.h"

/* fork(); the child exits at once.  0, or the fork's -errno. */
static int fork_and_reap(void)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid)
		_exit(0);
	if (waitpid(pid, &status, 0) != pid || status)
		return -ECHILD;
	return 0;
}

/* A counting event of PMU @type, this task and its children, or -errno. */
static int open_inherited_of(long type, uint64_t config)
{
	struct perf_event_attr a;

	vt_attr_of(&a, type, config, 0);
	a.inherit = 1;
	return vt_open(&a, 0, -1, -1);
}

static int open_inherited(uint64_t config)
{
	return open_inherited_of(vt_type(), config);
}

/* A bucket of a program that has been replaced by a shorter one. */
TEST(bucket_of_a_replaced_program)
{
	long hu = vt_hu_type();
	int fd;

	if (hu < 0 || !vt_have_tool(VT_HIST_TOOL))
		SKIP(return, "no vpmu_hu PMU or no %s", VT_HIST_TOOL);
	ASSERT_EQ(0, vt_hu_prog("seq;vpmu_uops 10;vpmu_uops 10;vpmu_uops 10"));
	fd = open_inherited_of(hu, 3);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vt_hu_prog("seq;vpmu_uops 10"));

	EXPECT_EQ(0, fork_and_reap());
	/* A new open is checked against the program in force. */
	EXPECT_EQ(-EINVAL, open_inherited_of(hu, 3));

	close(fd);
	ASSERT_EQ(0, vt_hu_prog("off"));
}

/* A tag the image loaded since can no longer select. */
TEST(tag_of_a_replaced_image)
{
	uint64_t tag8 = vt_field("tag", 8);
	int fd;

	if (vt_type() < 0 || !vt_have_loader())
		SKIP(return, "no vpmu PMU or no loader");
	/* The default image: a one-hot field of 8 tags. */
	ASSERT_EQ(0, vt_load_default());
	fd = open_inherited(tag8);
	ASSERT_LE(0, fd);
	/* Encoded, 3 bits: tags 1..7. */
	if (vt_load_share_image(_metadata, "build/encoded.vpmu")) {
		close(fd);
		return;
	}

	EXPECT_EQ(0, fork_and_reap());
	EXPECT_EQ(-EINVAL, open_inherited(tag8));

	close(fd);
	ASSERT_EQ(0, vt_load_default());
}

TEST_HARNESS_MAIN
