// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_lifetime_refused - what cannot count is refused at open
 * (Documentation/admin-guide/perf/vpmu.rst, "PMU events").
 *
 * A member joining a leader that a CPU going offline or an exec took out of
 * its context (the perf core bug the stress tier found), whatever PMU
 * leads; both modes excluded; an unknown config3 or config4; a group led
 * by another hardware PMU.  A group opened after the CPU is back counts exactly.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/wait.h>
#include <linux/hw_breakpoint.h>
#include "vpmu_lifetime.h"

/* A leader of kind @kind: 0 a vpmu uops, 1 a vpmu freeze leader, 2 software. */
static void detached_leader_attr(FIXTURE_DATA(life) *self,
				 struct perf_event_attr *a, int kind, int cpu)
{
	if (kind < 2) {
		vt_attr(a, self->uops, kind ? self->c1_frz : 0);
		return;
	}
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = PERF_TYPE_SOFTWARE;
	a->config = cpu >= 0 ? PERF_COUNT_SW_CPU_CLOCK :
			       PERF_COUNT_SW_TASK_CLOCK;
}

/*
 * Taking a CPU offline takes every CPU-wide group of that CPU apart for
 * good (the perf core removes the events with DETACH_GROUP), yet each
 * leader lives on and its fd still names a group.  perf_event_open()
 * would let a member join it once the CPU is back, and closing the
 * leader then leaves the member pointing at the freed leader (the core's
 * perf_group_detach() does nothing for a detached event): the stress
 * tier's use-after-free.  A vpmu member is refused, whatever PMU leads;
 * should it open anyway, the leader is closed first and the member after,
 * which is what the slub poison and KASAN reports need.  A group opened
 * after the CPU is back counts exactly.
 */
TEST_F(life, member_of_offlined_leader_refused)
{
	struct perf_event_attr a;
	int kind, leader, member, fd[2];

	if (access(VT_CPU1_ONLINE, W_OK))
		SKIP(return, "no %s", VT_CPU1_ONLINE);
	for (kind = 0; kind < 3; kind++) {
		detached_leader_attr(self, &a, kind, 1);
		leader = vt_open(&a, -1, 1, -1);
		ASSERT_LE(0, leader) TH_LOG("leader kind %d", kind);
		ASSERT_EQ(0, vt_write_file(VT_CPU1_ONLINE, "0"));
		ASSERT_EQ(0, vt_write_file(VT_CPU1_ONLINE, "1"));
		vt_attr(&a, self->uops, kind == 1 ? self->c1_frz : 0);
		member = vt_open(&a, -1, 1, leader);
		EXPECT_EQ(-ENODEV, member) TH_LOG("leader kind %d", kind);
		close(leader);
		usleep(100000);	/* the leader is freed after a grace period */
		if (member >= 0)
			close(member);
	}
	ASSERT_EQ(0, vt_open_frz_pair(self, -1, 1, 0, fd));
	ASSERT_EQ(0, vt_pin(1));
	ASSERT_EQ(0, vt_life_run(self, &self->marks));
	ASSERT_EQ(0, vt_pin(0));
	EXPECT_EQ(VT_MARKS_REGION, vt_count(fd[0]));
	EXPECT_EQ(VT_MARKS_REGION, vt_count(fd[1]));
	close(fd[0]);
	close(fd[1]);
}

/*
 * An exec does the same to a leader with attr.remove_on_exec: the task's
 * context lives on without it, and a member opened on the task after the
 * exec would join the detached leader.  Refused as well; needs no root.
 */
TEST_F(life, member_of_exec_detached_leader_refused)
{
	struct perf_event_attr a;
	int kind, leader, member, go[2], done[2], status;
	pid_t pid;
	char c;

	for (kind = 0; kind < 3; kind++) {
		ASSERT_EQ(0, pipe(go));
		ASSERT_EQ(0, pipe2(done, O_CLOEXEC));
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			close(go[1]);
			vt_wait_byte(go[0]);
			/* done[1] closes on exec: the parent reads EOF */
			execlp("sleep", "sleep", "10", (char *)NULL);
			_exit(1);
		}
		close(go[0]);
		close(done[1]);
		detached_leader_attr(self, &a, kind, -1);
		a.remove_on_exec = 1;
		leader = vt_open(&a, pid, -1, -1);
		ASSERT_LE(0, leader) TH_LOG("leader kind %d", kind);
		ASSERT_EQ(1, write(go[1], "x", 1));
		ASSERT_EQ(0, read(done[0], &c, 1));
		ASSERT_EQ(0, waitpid(pid, &status, WNOHANG)) TH_LOG("no exec");
		vt_attr(&a, self->uops, kind == 1 ? self->c1_frz : 0);
		member = vt_open(&a, pid, -1, leader);
		EXPECT_EQ(-ENODEV, member) TH_LOG("leader kind %d", kind);
		close(leader);
		usleep(100000);	/* the leader is freed after a grace period */
		if (member >= 0)
			close(member);
		kill(pid, SIGKILL);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		close(go[1]);
		close(done[0]);
	}
}

/* Excluding both modes would count nothing. */
TEST_F(life, exclude_user_and_kernel_refused)
{
	struct perf_event_attr a;

	vt_attr(&a, self->uops, 0);
	a.exclude_user = 1;
	a.exclude_kernel = 1;
	EXPECT_EQ(-EINVAL, vt_open(&a, 0, -1, -1));
	a.sample_period = 100;
	EXPECT_EQ(-EINVAL, vt_open(&a, 0, -1, -1));
}

/*
 * vpmu's uops event opened with an attribute of @size bytes whose last
 * u64 (a config field newer than the headers may know) is @val.
 */
static int open_config_ext(FIXTURE_DATA(life) *self, unsigned int size,
			   uint64_t val)
{
	union {
		struct perf_event_attr a;
		uint64_t u[24];
	} big;

	memset(&big, 0, sizeof(big));
	vt_attr(&big.a, self->uops, 0);
	big.a.size = size;
	big.u[size / 8 - 1] = val;
	return vt_open(&big.a, 0, -1, -1);
}

/*
 * attr.config3 (PERF_ATTR_SIZE_VER8, 136 bytes, 6.3) and attr.config4
 * (PERF_ATTR_SIZE_VER9, 144 bytes, after 6.12) have no vpmu field:
 * refused, by vpmu (EINVAL) or, on a kernel without the field, by the
 * core as an unknown attribute byte (E2BIG).  The same attribute with the
 * field zero opens.
 */
static void config_ext_refused(struct __test_metadata *_metadata,
			       FIXTURE_DATA(life) *self, unsigned int size)
{
	int fd;

	fd = open_config_ext(self, size, 1);
	EXPECT_TRUE(fd == -EINVAL || fd == -E2BIG) TH_LOG("open: %d", fd);
	if (fd >= 0)
		close(fd);
	fd = open_config_ext(self, size, 0);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
}

TEST_F(life, config3_refused)
{
	config_ext_refused(_metadata, self, 136);
}

TEST_F(life, config4_refused)
{
	config_ext_refused(_metadata, self, 144);
}

static void bp_target(void)
{
	__asm__ volatile("" ::: "memory");
}

/*
 * A group led by another hardware PMU could read vpmu's counters from
 * its interrupt (an NMI, or a debug exception): refused.  A hardware
 * breakpoint is such a PMU, and on 6.1 it shares perf_sw_context with
 * vpmu, so only vpmu can say no.
 */
TEST_F(life, foreign_hw_leader_refused)
{
	struct perf_event_attr a;
	int bp, fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_X;
	a.bp_addr = (uintptr_t)bp_target;
	a.bp_len = sizeof(long);
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	bp = vt_open(&a, 0, -1, -1);
	if (bp < 0)
		SKIP(return, "no hardware breakpoints: %d", bp);
	vt_attr(&a, self->uops, 0);
	fd = vt_open(&a, 0, -1, bp);
	EXPECT_EQ(-EINVAL, fd);
	if (fd >= 0)
		close(fd);
	close(bp);
}

TEST_HARNESS_MAIN
