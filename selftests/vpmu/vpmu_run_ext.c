// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_run_ext - the external signal line driven by VPMU_IOC_RUN
 * (Documentation/admin-guide/perf/vpmu.rst, "/dev/vpmu"): VPMU_RUN_F_EXT
 * asserts it from the start, ext_at flips it once at the first microword
 * boundary at or after that cycle of the run, however the run is cut into
 * chunks.
 *
 * encoded/wait.s runs on the encoded sample image, whose "wait rd" spins
 * in microcode until the line is asserted, counting its polls (one every
 * 2 cycles) in rd: the counts are exact, and the host simulator gives the
 * same.  Skips without the loader, root or the encoded image and program
 * in $VPMU_SHARE.
 */
#define _GNU_SOURCE
#include "vpmu_test.h"

#define BUDGET		1000000ull

FIXTURE(ext) {
	int fd;
	struct vt_prog p;
	uint8_t *mem;
	struct vpmu_run r;
};

FIXTURE_SETUP(ext)
{
	if (vt_setup_runs(_metadata, &self->fd, &self->p, "wait", NULL))
		return;
	if (vt_load_share_image(_metadata, "build/encoded.vpmu"))
		return;
	self->mem = vt_prog_mem(&self->p);
	ASSERT_NE(NULL, self->mem);
}

FIXTURE_TEARDOWN(ext)
{
	if (vt_have_loader() && !geteuid())
		EXPECT_EQ(0, vt_load_default());
	vt_teardown_runs(self->fd, &self->p, NULL);
	free(self->mem);
}

/* One run of wait.s with @flags and @ext_at; 0 or -errno. */
static int run_ext(FIXTURE_DATA(ext) *self, uint32_t flags, uint32_t ext_at,
		   uint64_t budget)
{
	memset(self->mem, 0, self->p.h.mem_size);
	memcpy(self->mem, self->p.data, self->p.h.load_size);
	vt_run_init(&self->r, &self->p, self->mem, budget);
	self->r.flags = flags;
	self->r.ext_at = ext_at;
	return ioctl(self->fd, VPMU_IOC_RUN, &self->r) ? -errno : 0;
}

/* Asserted from the start: one poll, exactly wait.expect. */
TEST_F(ext, asserted_from_start)
{
	int checks;

	ASSERT_EQ(0, run_ext(self, VPMU_RUN_F_EXT, 0, BUDGET));
	EXPECT_EQ(0, vt_expect("encoded/wait.expect", &self->r, self->mem,
			       self->p.h.mem_size, &checks));
	EXPECT_EQ(4, checks);
	EXPECT_EQ(1u, self->r.regs[1]);
	EXPECT_EQ(12u, self->r.cycles);
}

/* Never asserted: the wait spins to the end of the budget. */
TEST_F(ext, never_asserted)
{
	ASSERT_EQ(0, run_ext(self, 0, 0, 1000));
	EXPECT_EQ((uint32_t)VPMU_RUN_BUDGET, self->r.stop);
	EXPECT_EQ(1000u, self->r.cycles);
	EXPECT_EQ(499u, self->r.regs[1]);
}

/*
 * Asserted at cycle N: polls at cycles 2, 4, ..., the one at the first
 * boundary >= N finds it; also across the 5000-cycle chunks of a run.
 */
TEST_F(ext, asserted_at_cycle)
{
	static const struct { uint32_t at, polls; uint64_t cycles; } c[] = {
		{ 100, 50, 110 }, { 101, 51, 112 },
		{ 5001, 2501, 5012 }, { 12345, 6173, 12356 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c); i++) {
		ASSERT_EQ(0, run_ext(self, 0, c[i].at, BUDGET));
		EXPECT_EQ((uint32_t)VPMU_RUN_HALT, self->r.stop);
		EXPECT_EQ(c[i].polls, self->r.regs[1]) TH_LOG("ext_at %u",
							      c[i].at);
		EXPECT_EQ(c[i].cycles, self->r.cycles);
		EXPECT_EQ(7u, self->r.regs[2]);
	}
}

/* Asserted, then deasserted at cycle 1: before the first poll. */
TEST_F(ext, deasserted_at_cycle)
{
	ASSERT_EQ(0, run_ext(self, VPMU_RUN_F_EXT, 1, 1000));
	EXPECT_EQ((uint32_t)VPMU_RUN_BUDGET, self->r.stop);
	EXPECT_EQ(499u, self->r.regs[1]);
}

/* The line belongs to the run: the next run starts with it down. */
TEST_F(ext, not_left_to_the_next_run)
{
	ASSERT_EQ(0, run_ext(self, VPMU_RUN_F_EXT, 0, BUDGET));
	EXPECT_EQ((uint32_t)VPMU_RUN_HALT, self->r.stop);
	ASSERT_EQ(0, run_ext(self, 0, 0, 1000));
	EXPECT_EQ((uint32_t)VPMU_RUN_BUDGET, self->r.stop);
	EXPECT_EQ(499u, self->r.regs[1]);
}

/* Unknown flags are refused and run nothing; the caller's copy stays. */
TEST_F(ext, unknown_flag_refused)
{
	EXPECT_EQ(-EINVAL, run_ext(self, VPMU_RUN_F_EXT | 1u << 31, 0, BUDGET));
	EXPECT_EQ(0u, self->r.cycles);
	EXPECT_EQ(0u, self->r.regs[1]);
}

TEST_HARNESS_MAIN
