// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_lifetime - close orders, racing CPUs and attributes that cannot
 * count.
 *
 * The perf core frees a group leader while its members live on: closing
 * the leader first promotes every member to a group of its own.  A
 * member keeps the freeze control it was opened under, so it goes on
 * counting exactly between triggers, on this CPU, after a migration and
 * in an inherited child, and nothing the driver keeps refers to the freed
 * leader (the VM harness boots stock kernels with slub_debug=FZPU and the
 * debug kernels with KASAN, so a write to it fails the run).
 *
 * Overflow interrupts are per CPU: two CPUs sampling on the same counter
 * at the same time each get every sample due.  What cannot count is
 * vpmu_lifetime_refused's.
 */
#define _GNU_SOURCE
#include <sys/wait.h>
#include "vpmu_lifetime.h"

/*
 * The reproducer: a CPU-wide freeze group whose leader is closed
 * first, 60 times; the member counts on between triggers.
 */
TEST_F(life, leader_closed_first_cpu_wide)
{
	int fd[2], i;

	for (i = 0; i < 60; i++) {
		ASSERT_EQ(0, vt_open_frz_pair(self, -1, 0, 0, fd));
		ASSERT_EQ(0, vt_life_run(self, &self->marks));
		EXPECT_EQ(VT_MARKS_REGION, vt_count(fd[0]));
		EXPECT_EQ(VT_MARKS_REGION, vt_count(fd[1]));
		close(fd[0]);
		usleep(100000);	/* the leader is freed after a grace period */
		ASSERT_EQ(0, vt_life_run(self, &self->marks));
		EXPECT_EQ(2 * VT_MARKS_REGION, vt_count(fd[1])) TH_LOG("round %d", i);
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

	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, vt_pin(0));
		ASSERT_EQ(0, vt_open_frz_pair(self, 0, -1, 0, fd));
		ASSERT_EQ(0, vt_life_run(self, &self->marks));
		close(fd[0]);
		ASSERT_EQ(0, vt_pin(1));
		ASSERT_EQ(0, vt_life_run(self, &self->marks));
		ASSERT_EQ(0, vt_pin(0));
		ASSERT_EQ(0, vt_life_run(self, &self->marks));
		EXPECT_EQ(3 * VT_MARKS_REGION, vt_count(fd[1])) TH_LOG("round %d", i);
		close(fd[1]);
	}
}

/* Members closed first, the other order: nothing changes for the leader. */
TEST_F(life, members_closed_first)
{
	int fd[2], i;

	for (i = 0; i < 20; i++) {
		ASSERT_EQ(0, vt_open_frz_pair(self, 0, -1, 0, fd));
		ASSERT_EQ(0, vt_life_run(self, &self->marks));
		close(fd[1]);
		ASSERT_EQ(0, vt_life_run(self, &self->marks));
		EXPECT_EQ(2 * VT_MARKS_REGION, vt_count(fd[0]));
		close(fd[0]);
	}
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

	for (i = 0; i < 10; i++) {
		ASSERT_EQ(0, pipe(go));
		ASSERT_EQ(0, pipe(done));
		ASSERT_EQ(0, vt_open_frz_pair(self, 0, -1, 1, fd));
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			int ok;

			/* The parent's close must be the last one. */
			close(fd[0]);
			close(fd[1]);
			vt_wait_byte(go[0]);
			ok = !vt_life_run(self, &self->marks);
			ok = ok && write(done[1], "x", 1) == 1;
			vt_wait_byte(go[0]);
			/* On the other CPU: the member is put back there. */
			ok = ok && !vt_pin(1) && !vt_life_run(self, &self->marks);
			_exit(ok ? 0 : 1);
		}
		ASSERT_EQ(1, write(go[1], "x", 1));
		vt_wait_byte(done[0]);
		close(fd[0]);
		ASSERT_EQ(1, write(go[1], "x", 1));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_EQ(0, status);
		EXPECT_EQ(2 * VT_MARKS_REGION, vt_count(fd[1])) TH_LOG("round %d", i);
		close(fd[1]);
		close(go[0]);
		close(go[1]);
		close(done[0]);
		close(done[1]);
	}
}

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

	if (access(VT_CPU1_ONLINE, W_OK))
		SKIP(return, "no %s", VT_CPU1_ONLINE);
	ASSERT_EQ(0, vt_pin(1));
	ASSERT_EQ(0, vt_open_frz_pair(self, -1, 1, 0, cw));
	ASSERT_EQ(0, vt_life_run(self, &self->marks));
	ASSERT_EQ(0, vt_pin(0));
	ASSERT_EQ(0, vt_open_frz_pair(self, 0, -1, 0, task));
	ASSERT_EQ(0, vt_life_run(self, &self->marks));
	ASSERT_EQ(0, vt_write_file(VT_CPU1_ONLINE, "0"));
	close(cw[0]);
	close(task[0]);
	usleep(100000);		/* the leaders are freed after a grace period */
	ASSERT_EQ(0, vt_life_run(self, &self->marks));
	ASSERT_EQ(0, vt_write_file(VT_CPU1_ONLINE, "1"));
	ASSERT_EQ(0, vt_pin(1));
	ASSERT_EQ(0, vt_life_run(self, &self->marks));
	ASSERT_EQ(0, vt_pin(0));
	EXPECT_EQ(VT_MARKS_REGION, vt_count(cw[1]));
	EXPECT_EQ(3 * VT_MARKS_REGION, vt_count(task[1]));
	close(cw[1]);
	close(task[1]);
}

/* ---- overflow interrupts on two CPUs at once ----------------------------- */

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
	struct vt_ring rb;
	int fd, i;

	res->err = -1;
	if (vt_pin(cpu))
		_exit(1);
	vt_attr(&a, self->uops | vt_field("ctr", 2), 0);
	a.sample_period = IRQ_PERIOD;
	a.sample_type = PERF_SAMPLE_IP;
	a.read_format = PERF_FORMAT_LOST;
	fd = vt_open(&a, 0, -1, -1);
	if (fd < 0 || vt_ring_map(fd, &rb))
		_exit(2);
	vt_wait_byte(go);
	for (i = 0; i < IRQ_RUNS; i++) {
		if (vt_life_run(self, &self->sum))
			_exit(3);
		vt_ring_drain(&rb);
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
	vt_ring_unmap(&rb);
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
	int go[2], i, status, rate;
	pid_t pid[2];

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	/* Built in, the core's throttle would stop the event. */
	rate = vt_max_sample_rate(VT_HIGH_SAMPLE_RATE);
	ASSERT_LT(0, rate);
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
	EXPECT_EQ(VT_HIGH_SAMPLE_RATE, vt_max_sample_rate(rate));
	for (i = 0; i < 2; i++) {
		EXPECT_EQ(0, res[i].err);
		EXPECT_EQ(IRQ_RUNS * VT_SUM_UOPS, res[i].count);
		EXPECT_EQ(0ull, res[i].throttle);
		/*
		 * Every period is a sample, or a loss perf reports: a full
		 * ring, or the driver's limit per tick's length of time
		 * (PERF_FORMAT_LOST).
		 */
		EXPECT_EQ(IRQ_RUNS * VT_SUM_UOPS / IRQ_PERIOD,
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

TEST_HARNESS_MAIN
