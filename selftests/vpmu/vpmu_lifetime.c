// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_lifetime - close orders, racing CPUs and attributes that cannot
 * count (Documentation/vpmu/perf.rst, "Lifetimes").
 *
 * The perf core frees a group leader while its members live on: closing
 * the leader first promotes every member to a group of its own.  A
 * member keeps the freeze control it was opened under, so it goes on
 * counting exactly between triggers, on this CPU, after a migration and
 * in an inherited child, and nothing the driver keeps refers to the freed
 * leader (the VM harness boots stock kernels with slub_debug=FZPU and the
 * debug kernels with KASAN, so a write to it fails the run).  marks.vprg
 * runs 1000 regions of 18 microwords between two marks (35004 in all), so
 * a group that starts frozen and toggles on marks counts 18000 uops per
 * run; sum.vprg is 179 microwords.
 *
 * Overflow interrupts are per CPU: two CPUs sampling on the same counter
 * at the same time each get every sample due.  Attributes that cannot
 * count (both modes excluded, an unknown config3, a group led by another
 * hardware PMU) are refused at open.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <linux/hw_breakpoint.h>
#include "vpmu_test.h"
#include "vpmu_perf_lib.h"

#define BUDGET		10000000ull
#define MARKS_REGION	18000ull	/* uops of marks.vprg inside regions */
#define SUM_UOPS	179ull

FIXTURE(life) {
	int dev;
	struct vl_prog marks, sum;
	uint8_t *mem;
	uint64_t uops, c1_frz;
};

FIXTURE_SETUP(life)
{
	self->dev = -1;
	self->mem = NULL;
	if (vp_type() < 0)
		SKIP(return, "no vpmu PMU");
	if (vl_prog_load(&self->marks, "build/marks.vprg") ||
	    vl_prog_load(&self->sum, "build/sum.vprg"))
		SKIP(return, "no marks.vprg or sum.vprg in $VPMU_SHARE");
	self->dev = open(VPMU_DEV, O_RDWR | O_CLOEXEC);
	if (self->dev < 0)
		SKIP(return, "no %s", VPMU_DEV);
	self->mem = aligned_alloc(8, 1 << 20);
	ASSERT_NE(NULL, self->mem);
	self->uops = vp_alias("uops");
	ASSERT_NE(~0ull, self->uops);
	self->c1_frz = vp_field("trig_mark", 1) | vp_field("frozen", 1);
	ASSERT_EQ(0, vl_pin(0));
}

FIXTURE_TEARDOWN(life)
{
	if (self->dev >= 0)
		close(self->dev);
	free(self->mem);
	vl_prog_free(&self->marks);
	vl_prog_free(&self->sum);
}

/* Run @p to its halt; 0 or -errno. */
static int run(FIXTURE_DATA(life) *self, const struct vl_prog *p)
{
	struct vpmu_run r;
	int ret = vl_run(self->dev, p, self->mem, BUDGET, &r);

	if (!ret && r.stop != VPMU_RUN_HALT)
		ret = -EPROTO;
	return ret;
}

/*
 * A freeze group of two uops counters, leader and member, on @pid/@cpu
 * (@inherit for per-task ones); 0 or -errno.
 */
static int open_frz_pair(FIXTURE_DATA(life) *self, pid_t pid, int cpu,
			 int inherit, int fd[2])
{
	struct perf_event_attr a;

	vp_attr(&a, self->uops, self->c1_frz);
	a.inherit = inherit;
	fd[0] = vp_open(&a, pid, cpu, -1);
	if (fd[0] < 0)
		return fd[0];
	vp_attr(&a, self->uops, 0);
	a.inherit = inherit;
	fd[1] = vp_open(&a, pid, cpu, fd[0]);
	if (fd[1] < 0) {
		close(fd[0]);
		return fd[1];
	}
	return 0;
}

/*
 * The reproducer: a CPU-wide freeze group whose leader is closed
 * first, 60 times; the member counts on between triggers.
 */
TEST_F(life, leader_closed_first_cpu_wide)
{
	int fd[2], i;

	VL_SETUP_DONE();
	for (i = 0; i < 60; i++) {
		ASSERT_EQ(0, open_frz_pair(self, -1, 0, 0, fd));
		ASSERT_EQ(0, run(self, &self->marks));
		EXPECT_EQ(MARKS_REGION, vp_count(fd[0]));
		EXPECT_EQ(MARKS_REGION, vp_count(fd[1]));
		close(fd[0]);
		usleep(100000);	/* the leader is freed after a grace period */
		ASSERT_EQ(0, run(self, &self->marks));
		EXPECT_EQ(2 * MARKS_REGION, vp_count(fd[1])) TH_LOG("round %d", i);
		close(fd[1]);
	}
}

/*
 * Per task, with the promoted member taken off the counters and put back
 * on the other CPU and on this one again.
 */
TEST_F(life, leader_closed_first_migrating)
{
	int fd[2], i;

	VL_SETUP_DONE();
	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, vl_pin(0));
		ASSERT_EQ(0, open_frz_pair(self, 0, -1, 0, fd));
		ASSERT_EQ(0, run(self, &self->marks));
		close(fd[0]);
		ASSERT_EQ(0, vl_pin(1));
		ASSERT_EQ(0, run(self, &self->marks));
		ASSERT_EQ(0, vl_pin(0));
		ASSERT_EQ(0, run(self, &self->marks));
		EXPECT_EQ(3 * MARKS_REGION, vp_count(fd[1])) TH_LOG("round %d", i);
		close(fd[1]);
	}
}

/* Members closed first, the other order: nothing changes for the leader. */
TEST_F(life, members_closed_first)
{
	int fd[2], i;

	VL_SETUP_DONE();
	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, open_frz_pair(self, 0, -1, 0, fd));
		ASSERT_EQ(0, run(self, &self->marks));
		close(fd[1]);
		ASSERT_EQ(0, run(self, &self->marks));
		EXPECT_EQ(2 * MARKS_REGION, vp_count(fd[0]));
		close(fd[0]);
	}
}

/* Block until a byte arrives on @fd. */
static void wait_byte(int fd)
{
	char c;

	while (read(fd, &c, 1) < 0 && errno == EINTR)
		;
}

/*
 * An inherited freeze group whose parent leader is closed while the child
 * runs: the child's copy of the leader goes with it, the child's member
 * counts on, and the parent's member sums the child's counts at its exit.
 */
TEST_F(life, leader_closed_first_inherited)
{
	int fd[2], go[2], done[2], i, status;
	pid_t pid;

	VL_SETUP_DONE();
	for (i = 0; i < 10; i++) {
		ASSERT_EQ(0, pipe(go));
		ASSERT_EQ(0, pipe(done));
		ASSERT_EQ(0, open_frz_pair(self, 0, -1, 1, fd));
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			int ok;

			/* The parent's close must be the last one. */
			close(fd[0]);
			close(fd[1]);
			wait_byte(go[0]);
			ok = !run(self, &self->marks);
			ok = ok && write(done[1], "x", 1) == 1;
			wait_byte(go[0]);
			/* On the other CPU: the member is put back there. */
			ok = ok && !vl_pin(1) && !run(self, &self->marks);
			_exit(ok ? 0 : 1);
		}
		ASSERT_EQ(1, write(go[1], "x", 1));
		wait_byte(done[0]);
		close(fd[0]);
		ASSERT_EQ(1, write(go[1], "x", 1));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_EQ(0, status);
		EXPECT_EQ(2 * MARKS_REGION, vp_count(fd[1])) TH_LOG("round %d", i);
		close(fd[1]);
		close(go[0]);
		close(go[1]);
		close(done[0]);
		close(done[1]);
	}
}

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

/*
 * CPU-wide groups on a CPU that goes offline are taken off it for good
 * (the perf core removes them); closing the leader first afterwards, and
 * bringing the CPU back, touches nothing freed.  A per-task group moves
 * with its task.  The two groups never share a CPU's counters (with
 * nr_counters=3 they would be multiplexed, and counts not exact).
 */
TEST_F(life, cpu_offline_then_leader_closed)
{
	int cw[2], task[2];

	VL_SETUP_DONE();
	if (access(CPU1_ONLINE, W_OK))
		SKIP(return, "no %s", CPU1_ONLINE);
	ASSERT_EQ(0, vl_pin(1));
	ASSERT_EQ(0, open_frz_pair(self, -1, 1, 0, cw));
	ASSERT_EQ(0, run(self, &self->marks));
	ASSERT_EQ(0, vl_pin(0));
	ASSERT_EQ(0, open_frz_pair(self, 0, -1, 0, task));
	ASSERT_EQ(0, run(self, &self->marks));
	ASSERT_EQ(0, vl_write_file(CPU1_ONLINE, "0"));
	close(cw[0]);
	close(task[0]);
	usleep(100000);		/* the leaders are freed after a grace period */
	ASSERT_EQ(0, run(self, &self->marks));
	ASSERT_EQ(0, vl_write_file(CPU1_ONLINE, "1"));
	ASSERT_EQ(0, vl_pin(1));
	ASSERT_EQ(0, run(self, &self->marks));
	ASSERT_EQ(0, vl_pin(0));
	EXPECT_EQ(MARKS_REGION, vp_count(cw[1]));
	EXPECT_EQ(3 * MARKS_REGION, vp_count(task[1]));
	close(cw[1]);
	close(task[1]);
}

/* A leader of kind @kind: 0 a vpmu uops, 1 a vpmu freeze leader, 2 software. */
static void detached_leader_attr(FIXTURE_DATA(life) *self,
				 struct perf_event_attr *a, int kind, int cpu)
{
	if (kind < 2) {
		vp_attr(a, self->uops, kind ? self->c1_frz : 0);
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
 * tier's use-after-free (testing.rst, "A perf core bug the stress
 * found").  A vpmu member is refused, whatever PMU leads; should it open
 * anyway, the leader is closed first and the member after, which is
 * what the slub poison and KASAN reports need.  A group opened after the
 * CPU is back counts exactly.
 */
TEST_F(life, member_of_offlined_leader_refused)
{
	struct perf_event_attr a;
	int kind, leader, member, fd[2];

	VL_SETUP_DONE();
	if (access(CPU1_ONLINE, W_OK))
		SKIP(return, "no %s", CPU1_ONLINE);
	for (kind = 0; kind < 3; kind++) {
		detached_leader_attr(self, &a, kind, 1);
		leader = vp_open(&a, -1, 1, -1);
		ASSERT_LE(0, leader) TH_LOG("leader kind %d", kind);
		ASSERT_EQ(0, vl_write_file(CPU1_ONLINE, "0"));
		ASSERT_EQ(0, vl_write_file(CPU1_ONLINE, "1"));
		vp_attr(&a, self->uops, kind == 1 ? self->c1_frz : 0);
		member = vp_open(&a, -1, 1, leader);
		EXPECT_EQ(-ENODEV, member) TH_LOG("leader kind %d", kind);
		close(leader);
		usleep(100000);	/* the leader is freed after a grace period */
		if (member >= 0)
			close(member);
	}
	ASSERT_EQ(0, open_frz_pair(self, -1, 1, 0, fd));
	ASSERT_EQ(0, vl_pin(1));
	ASSERT_EQ(0, run(self, &self->marks));
	ASSERT_EQ(0, vl_pin(0));
	EXPECT_EQ(MARKS_REGION, vp_count(fd[0]));
	EXPECT_EQ(MARKS_REGION, vp_count(fd[1]));
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

	VL_SETUP_DONE();
	for (kind = 0; kind < 3; kind++) {
		ASSERT_EQ(0, pipe(go));
		ASSERT_EQ(0, pipe2(done, O_CLOEXEC));
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			close(go[1]);
			wait_byte(go[0]);
			/* done[1] closes on exec: the parent reads EOF */
			execlp("sleep", "sleep", "10", (char *)NULL);
			_exit(1);
		}
		close(go[0]);
		close(done[1]);
		detached_leader_attr(self, &a, kind, -1);
		a.remove_on_exec = 1;
		leader = vp_open(&a, pid, -1, -1);
		ASSERT_LE(0, leader) TH_LOG("leader kind %d", kind);
		ASSERT_EQ(1, write(go[1], "x", 1));
		ASSERT_EQ(0, read(done[0], &c, 1));
		ASSERT_EQ(0, waitpid(pid, &status, WNOHANG)) TH_LOG("no exec");
		vp_attr(&a, self->uops, kind == 1 ? self->c1_frz : 0);
		member = vp_open(&a, pid, -1, leader);
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

/* ---- overflow interrupts on two CPUs at once ------------------------------ */

#define IRQ_RUNS	300
#define IRQ_PERIOD	50

struct irq_result {
	uint64_t samples, lost, throttle, count, lost_read;
	int err;
};

/*
 * Child on @cpu: sample uops on counter 2 (index 1) of its engine, period
 * IRQ_PERIOD, over IRQ_RUNS runs of sum.vprg, started by a byte on @go.
 */
static void irq_child(FIXTURE_DATA(life) *self, int cpu, int go,
		      struct irq_result *res)
{
	struct perf_event_attr a;
	struct vp_ring rb;
	int fd, i;

	res->err = -1;
	if (vl_pin(cpu))
		_exit(1);
	vp_attr(&a, self->uops | vp_field("ctr", 2), 0);
	a.sample_period = IRQ_PERIOD;
	a.sample_type = PERF_SAMPLE_IP;
	a.read_format = PERF_FORMAT_LOST;
	fd = vp_open(&a, 0, -1, -1);
	if (fd < 0 || vp_ring_map(fd, &rb))
		_exit(2);
	wait_byte(go);
	for (i = 0; i < IRQ_RUNS; i++) {
		if (run(self, &self->sum))
			_exit(3);
		vp_ring_drain(&rb);
	}
	res->samples = rb.samples;
	res->lost = rb.lost;
	res->throttle = rb.throttle;
	{
		uint64_t v[2];	/* value, lost (PERF_FORMAT_LOST) */

		if (read(fd, v, sizeof(v)) != sizeof(v))
			_exit(4);
		res->count = v[0];
		res->lost_read = v[1];
	}
	res->err = 0;
	vp_ring_unmap(&rb);
	close(fd);
	_exit(0);
}

/*
 * Both CPUs overflow counter 1 of their own engines at the same time,
 * IRQ_RUNS x 179 / 50 = 1074 times each: every one of them is sampled.
 */
TEST_F_TIMEOUT(life, overflow_irq_two_cpus, 240)
{
	struct irq_result *res;
	int go[2], i, status;
	pid_t pid[2];

	VL_SETUP_DONE();
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	res = mmap(NULL, 2 * sizeof(*res), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, res);
	ASSERT_EQ(0, pipe(go));
	for (i = 0; i < 2; i++) {
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (!pid[i])
			irq_child(self, i, go[0], &res[i]);
	}
	usleep(100000);
	ASSERT_EQ(2, write(go[1], "xx", 2));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(pid[i], waitpid(pid[i], &status, 0));
		EXPECT_EQ(0, status) TH_LOG("child on CPU %d", i);
	}
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, res[i].err);
		EXPECT_EQ(IRQ_RUNS * SUM_UOPS, res[i].count);
		EXPECT_EQ(0, res[i].throttle);
		/*
		 * Every period is a sample, or a loss perf reports: a full
		 * ring, or the driver's per-jiffy limit, reachable when the
		 * host starves the guest's timer (PERF_FORMAT_LOST).
		 */
		EXPECT_EQ(IRQ_RUNS * SUM_UOPS / IRQ_PERIOD,
			  res[i].samples + res[i].lost_read)
			TH_LOG("CPU %d: %llu samples, %llu lost (%llu records)",
			       i, (unsigned long long)res[i].samples,
			       (unsigned long long)res[i].lost_read,
			       (unsigned long long)res[i].lost);
	}
	munmap(res, 2 * sizeof(*res));
	close(go[0]);
	close(go[1]);
}

/* ---- what cannot count is refused ----------------------------------------- */

/* Excluding both modes would count nothing. */
TEST_F(life, exclude_user_and_kernel_refused)
{
	struct perf_event_attr a;

	VL_SETUP_DONE();
	vp_attr(&a, self->uops, 0);
	a.exclude_user = 1;
	a.exclude_kernel = 1;
	EXPECT_EQ(-EINVAL, vp_open(&a, 0, -1, -1));
	a.sample_period = 100;
	EXPECT_EQ(-EINVAL, vp_open(&a, 0, -1, -1));
}

/*
 * attr.config3 (PERF_ATTR_SIZE_VER8, 6.3) has no vpmu field: refused,
 * by vpmu (EINVAL) or, before 6.3, by the core as an unknown attribute
 * byte (E2BIG).
 */
TEST_F(life, config3_refused)
{
	struct {
		struct perf_event_attr a;
		uint64_t pad[4];
	} big;
	uint64_t config3 = 1;
	int fd;

	VL_SETUP_DONE();
	memset(&big, 0, sizeof(big));
	vp_attr(&big.a, self->uops, 0);
	big.a.size = 136;	/* PERF_ATTR_SIZE_VER8 */
	memcpy((char *)&big + 128, &config3, sizeof(config3));
	fd = vp_open(&big.a, 0, -1, -1);
	EXPECT_TRUE(fd == -EINVAL || fd == -E2BIG) TH_LOG("open: %d", fd);
	if (fd >= 0)
		close(fd);
	/* The same attribute without config3 opens. */
	config3 = 0;
	memcpy((char *)&big + 128, &config3, sizeof(config3));
	fd = vp_open(&big.a, 0, -1, -1);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
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

	VL_SETUP_DONE();
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_X;
	a.bp_addr = (uintptr_t)bp_target;
	a.bp_len = sizeof(long);
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	bp = vp_open(&a, 0, -1, -1);
	if (bp < 0)
		SKIP(return, "no hardware breakpoints: %d", bp);
	vp_attr(&a, self->uops, 0);
	fd = vp_open(&a, 0, -1, bp);
	EXPECT_EQ(-EINVAL, fd);
	if (fd >= 0)
		close(fd);
	close(bp);
}

TEST_HARNESS_MAIN
