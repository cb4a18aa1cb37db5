// SPDX-License-Identifier: GPL-2.0
/*
 * ksft_setup_skip.c - the selftests' fixture rule on a kselftest harness
 * (built by test_ksft_setup_skip.sh against 6.1's and 6.12's): a fixture
 * whose setup skips does not run the test's body (its teardown runs as
 * the harness has it), and a fixture whose setup passes runs both.  Body
 * and teardown say so on stdout, which the script reads.
 */
#include "vpmu_test.h"

FIXTURE(skips) {
	int unused;
};

FIXTURE_SETUP(skips)
{
	SKIP(return, "setup skips");
}

FIXTURE_TEARDOWN(skips)
{
	dprintf(STDOUT_FILENO, "TEARDOWN skips\n");
}

TEST_F(skips, body)
{
	dprintf(STDOUT_FILENO, "BODY skips\n");
	ASSERT_TRUE(0);
}

FIXTURE(runs) {
	int set;
};

FIXTURE_SETUP(runs)
{
	self->set = 1;
}

FIXTURE_TEARDOWN(runs)
{
	dprintf(STDOUT_FILENO, "TEARDOWN runs\n");
}

TEST_F(runs, body)
{
	dprintf(STDOUT_FILENO, "BODY runs\n");
	ASSERT_EQ(1, self->set);
}

TEST_HARNESS_MAIN
