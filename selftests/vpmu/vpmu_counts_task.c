// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_counts_task - per-task and inherited counts of children (issue 12,
 * Documentation/admin-guide/perf/vpmu.rst, "Overview").
 *
 * Per-task events on a forked child that runs sum.vprg through /dev/vpmu
 * (on this CPU and on the other), on a child that execs VT_RUN_BIN
 * (enable_on_exec, as perf stat opens them), and inherit events of this
 * task whose children run programs: the counts are exactly N x
 * sum.expect's; a child's event left no counter counts nothing, rightly.
 */
#define _GNU_SOURCE
#include "vpmu_counts.h"

FIXTURE(task) {
	struct vt_prog sum;
	uint8_t *mem;
};

FIXTURE_VARIANT(task) {
	int child_cpu;		/* this task is on CPU 0 */
};

FIXTURE_VARIANT_ADD(task, same_cpu) { .child_cpu = 0 };
FIXTURE_VARIANT_ADD(task, other_cpu) { .child_cpu = 1 };

FIXTURE_SETUP(task)
{
	self->mem = NULL;
	if (vt_type() < 0)
		SKIP(return, "no vpmu PMU");
	if (access(VT_DEV, R_OK | W_OK))
		SKIP(return, "no %s", VT_DEV);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	if (vt_prog_get(&self->sum, &self->mem, "sum"))
		SKIP(return, "no sum.vprg in $VPMU_SHARE");
	ASSERT_EQ(0, vt_pin(0));
}

FIXTURE_TEARDOWN(task)
{
	free(self->mem);
	vt_prog_free(&self->sum);
}

#define RUNS	5

/* Open uops, insns and cycles on @pid (@flags: enable_on_exec, inherit). */
static int open_three(int *fd, pid_t pid, bool on_exec, bool inherit)
{
	static const uint64_t ev[3] = { VT_EV_UOPS, VT_EV_INSNS, VT_EV_CYCLES };
	struct perf_event_attr a;
	int i;

	for (i = 0; i < 3; i++) {
		vt_count_attr(&a, ev[i], 0);
		a.disabled = on_exec;
		a.enable_on_exec = on_exec;
		a.inherit = inherit;
		fd[i] = vt_open(&a, pid, -1, -1);
		if (fd[i] < 0)
			return fd[i];
	}
	return 0;
}

static void expect_three(struct __test_metadata *_metadata, int *fd,
			 uint64_t runs)
{
	EXPECT_EQ(runs * VT_SUM_UOPS, vt_count(fd[0]));
	EXPECT_EQ(runs * VT_SUM_INSNS, vt_count(fd[1]));
	EXPECT_EQ(runs * VT_SUM_UOPS, vt_count(fd[2]));
	close(fd[0]);
	close(fd[1]);
	close(fd[2]);
}

/*
 * Events opened on a child about to run (@exec: that execs VT_RUN_BIN, the
 * events enable_on_exec as perf stat opens them) count its runs exactly.
 */
static void child_counts(struct __test_metadata *_metadata,
			 FIXTURE_DATA(task) *self, int cpu, bool exec)
{
	struct vt_gate g;
	int fd[3];
	pid_t pid;

	ASSERT_EQ(0, vt_gate_init(&g));
	pid = vt_child_runs(&self->sum, self->mem, cpu, &g, RUNS, exec);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, vt_gate_ready(&g));
	ASSERT_EQ(0, open_three(fd, pid, exec, false));
	ASSERT_EQ(0, vt_gate_open(&g));
	ASSERT_EQ(0, vt_wait_ok(pid));
	expect_three(_metadata, fd, RUNS);
	vt_gate_close(&g);
}

/* Events on a forked child (pid = child) count its runs exactly. */
TEST_F(task, child_pid)
{
	child_counts(_metadata, self, variant->child_cpu, false);
}

/* As perf stat does: enable_on_exec on a child that execs VT_RUN_BIN. */
TEST_F(task, child_exec_enable_on_exec)
{
	if (!vt_have_tool(VT_RUN_BIN))
		SKIP(return, "no " VT_RUN_BIN);
	child_counts(_metadata, self, variant->child_cpu, true);
}

/*
 * inherit on this task: its own run and those of two children (one of
 * them on the variant's CPU, one on the other) all end up in its count.
 */
TEST_F(task, inherit_children)
{
	int fd[3], dev;
	pid_t a, b;

	ASSERT_EQ(0, open_three(fd, 0, false, true));
	dev = open(VT_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, dev);
	ASSERT_EQ(0, vt_counts_run_halt(dev, &self->sum, self->mem));
	close(dev);
	a = vt_child_runs(&self->sum, self->mem, variant->child_cpu, NULL, RUNS,
			  false);
	ASSERT_LT(0, a);
	b = vt_child_runs(&self->sum, self->mem, !variant->child_cpu, NULL, RUNS,
			  false);
	ASSERT_LT(0, b);
	ASSERT_EQ(0, vt_wait_ok(a));
	ASSERT_EQ(0, vt_wait_ok(b));
	expect_three(_metadata, fd, 1 + 2 * RUNS);
}

/* inherit on this task, a child that execs VT_RUN_BIN. */
TEST_F(task, inherit_exec)
{
	int fd[3];
	pid_t pid;

	if (!vt_have_tool(VT_RUN_BIN))
		SKIP(return, "no " VT_RUN_BIN);
	ASSERT_EQ(0, open_three(fd, 0, false, true));
	pid = vt_child_runs(&self->sum, self->mem, variant->child_cpu, NULL, RUNS,
			    true);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, vt_wait_ok(pid));
	expect_three(_metadata, fd, RUNS);
}

/*
 * Why a child's count can be 0 and still right: CPU-wide events pinned
 * on every counter of the child's CPU leave none to the child's event,
 * which then never runs (time_running 0: perf stat prints "<not
 * counted>"), while the CPU-wide events count the child's runs.
 */
TEST_F(task, no_counter_left)
{
	struct perf_event_attr a;
	int fd[16], n, i, ft;
	struct vt_count c;
	struct vt_gate g;
	pid_t pid;
	char buf[32];

	ASSERT_EQ(0, vt_pmu_read("caps/nr_counters", buf, sizeof(buf)));
	n = atoi(buf);
	ASSERT_LT(0, n);
	ASSERT_GE(16, n);
	for (i = 0; i < n; i++) {
		vt_count_attr(&a, VT_EV_UOPS, 0);
		a.pinned = 1;
		fd[i] = vt_open(&a, -1, variant->child_cpu, -1);
		ASSERT_LE(0, fd[i]) TH_LOG("CPU-wide: %s", strerror(-fd[i]));
	}
	ASSERT_EQ(0, vt_gate_init(&g));
	pid = vt_child_runs(&self->sum, self->mem, variant->child_cpu, &g, RUNS,
			    false);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, vt_gate_ready(&g));
	vt_count_attr(&a, VT_EV_UOPS, 0);
	ft = vt_open(&a, pid, -1, -1);
	ASSERT_LE(0, ft);
	ASSERT_EQ(0, vt_gate_open(&g));
	ASSERT_EQ(0, vt_wait_ok(pid));
	ASSERT_EQ((ssize_t)sizeof(c), read(ft, &c, sizeof(c)));
	EXPECT_EQ(0ull, c.value);
	EXPECT_EQ(0ull, c.running);
	EXPECT_LT(0ull, c.enabled);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(RUNS * VT_SUM_UOPS, vt_count(fd[i]));
		close(fd[i]);
	}
	close(ft);
	vt_gate_close(&g);
}

TEST_HARNESS_MAIN
