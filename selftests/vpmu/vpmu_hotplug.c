// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hotplug - CPU1 taken offline and back while idle and while a
 * runner pinned to it is in the middle of multi-chunk runs: the kernel
 * migrates the runner, and every run still completes with exactly the
 * result of sortloop.expect.  Skips without cpu1/online or /dev/vpmu.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "vpmu_test.h"

#define SORT_BUDGET	1000003ull	/* sortloop.expect's budget */
#define CYCLES		3

FIXTURE(hotplug) {
	int fd;
	struct vt_prog sum, sort;
	uint8_t *sum_mem, *sort_mem;
};

FIXTURE_SETUP(hotplug)
{
	self->fd = -1;
	if (access(VT_CPU1_ONLINE, F_OK))
		SKIP(return, "no %s", VT_CPU1_ONLINE);
	if (geteuid())
		SKIP(return, "CPU hotplug needs root");
	self->fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	if (self->fd < 0)
		SKIP(return, "no %s", VT_DEV);
	if (vt_prog_load(&self->sum, "build/sum.vprg") ||
	    vt_prog_load(&self->sort, "build/sortloop.vprg"))
		SKIP(return, "no build/sum.vprg or build/sortloop.vprg");
	self->sum_mem = vt_prog_mem(&self->sum);
	self->sort_mem = vt_prog_mem(&self->sort);
	ASSERT_NE(NULL, self->sum_mem);
	ASSERT_NE(NULL, self->sort_mem);
	if (!vt_cpu1_online())
		ASSERT_EQ(0, vt_cpu1_set(1));
}

FIXTURE_TEARDOWN(hotplug)
{
	if (vt_cpu1_online() == 0)
		vt_cpu1_set(1);
	if (self->fd >= 0)
		close(self->fd);
	free(self->sum_mem);
	free(self->sort_mem);
	vt_prog_free(&self->sum);
	vt_prog_free(&self->sort);
}

static void assert_sum(struct __test_metadata *_metadata,
		       FIXTURE_DATA(hotplug) *self)
{
	struct vpmu_run r;

	vt_check_sum(_metadata, self->fd, &self->sum, self->sum_mem, &r);
}

TEST_F_TIMEOUT(hotplug, idle, 120)
{
	int i, ret;

	for (i = 0; i < CYCLES; i++) {
		ret = vt_cpu1_set(0);
		if (ret == -EBUSY || ret == -EPERM || ret == -EINVAL)
			SKIP(return, "cpu1 cannot go offline (%s)", strerror(-ret));
		ASSERT_EQ(0, ret);
		ASSERT_EQ(0, vt_cpu1_online());
		ASSERT_EQ(0, vt_pin(0));
		assert_sum(_metadata, self);
		ASSERT_EQ(0, vt_cpu1_set(1));
		ASSERT_EQ(1, vt_cpu1_online());
		ASSERT_EQ(0, vt_pin(1));
		assert_sum(_metadata, self);
	}
}

/* Shared with the runner. */
struct tally {
	volatile int stop;
	unsigned long runs, bad, errors, on_cpu0;
	char first_bad[128];
};

/* Runs sortloop pinned to CPU1 (re-pinned when it can) until told. */
static void runner(FIXTURE_DATA(hotplug) *self, struct tally *t)
{
	struct vpmu_run r;
	int checks, bad;

	while (!t->stop) {
		vt_pin(1);		/* fails while cpu1 is offline: fine */
		if (vt_run(self->fd, &self->sort, self->sort_mem, SORT_BUDGET,
			   &r)) {
			t->errors++;
			continue;
		}
		t->runs++;
		if (sched_getcpu() == 0)
			t->on_cpu0++;
		bad = vt_expect("progs/sortloop.expect", &r, self->sort_mem,
				self->sort.h.mem_size, &checks);
		if (bad || checks < 2) {
			if (!t->bad++)
				snprintf(t->first_bad, sizeof(t->first_bad),
					 "run %lu: %d mismatches, %d checks, cycles %llu",
					 t->runs, bad, checks,
					 (unsigned long long)r.cycles);
		}
	}
	_exit(0);
}

/* Wait (bounded: 30 s) until the runner has done @n more runs. */
static void wait_runs(struct tally *t, unsigned long n)
{
	unsigned long before = t->runs;
	int i;

	for (i = 0; i < 3000 && t->runs < before + n && !t->errors; i++)
		usleep(10000);
}

TEST_F_TIMEOUT(hotplug, busy_runner_migrates, 180)
{
	struct tally *t;
	int i, st, ret = 0;
	pid_t pid;

	t = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, t);
	memset(t, 0, sizeof(*t));
	ASSERT_EQ(0, vt_pin(0));	/* the parent stays off CPU1 */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		runner(self, t);
	/* no ASSERT until the runner is reaped */
	for (i = 0; i < CYCLES && !ret; i++) {
		wait_runs(t, 2);
		usleep(15000);		/* well inside a run */
		ret = vt_cpu1_set(0);
		if (!ret) {
			wait_runs(t, 2);
			ret = vt_cpu1_set(1);
		}
	}
	wait_runs(t, 2);
	t->stop = 1;
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	EXPECT_EQ(0, ret) TH_LOG("cpu hotplug: %s", strerror(-ret));
	EXPECT_EQ(0ul, t->errors);
	EXPECT_EQ(0ul, t->bad) TH_LOG("%lu wrong runs, first: %s", t->bad,
				      t->first_bad);
	EXPECT_LT((unsigned long)CYCLES, t->runs);
	EXPECT_LT(0ul, t->on_cpu0);
	TH_LOG("%lu runs of %llu cycles, %lu ended on cpu0, %d offline cycles",
	       t->runs, SORT_BUDGET, t->on_cpu0, i);
	munmap(t, sizeof(*t));
}

TEST_HARNESS_MAIN
