// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_counts_span - trigger-frozen spans across run chunks, tasks and
 * children (issue 12, Documentation/admin-guide/perf/vpmu.rst, "Freezing
 * and triggers").
 *
 * Spans (trig_mark) whose run chunks are split by forced migrations, by
 * another task's runs on the same CPU and by the runs of an inherited
 * copy of the group, also when the perf core swaps the clone contexts of
 * a task and its children, and across children that exit: every span
 * counts exactly what marks.s and region.s derive, in the state of the
 * task that runs it; exited children's task_structs are not held.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include "vpmu_counts.h"

FIXTURE(span) {
	int dev;
	struct vt_prog marks, mark1, region;
	uint8_t *marks_mem, *mark1_mem, *region_mem;
};

FIXTURE_SETUP(span)
{
	self->dev = -1;
	self->marks_mem = NULL;
	self->mark1_mem = NULL;
	self->region_mem = NULL;
	if (vt_type() < 0)
		SKIP(return, "no vpmu PMU");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	if (vt_prog_get(&self->marks, &self->marks_mem, "marks") ||
	    vt_prog_get(&self->mark1, &self->mark1_mem, "mark1") ||
	    vt_prog_get(&self->region, &self->region_mem, "region"))
		SKIP(return, "no marks, mark1 or region.vprg in $VPMU_SHARE");
	self->dev = open(VT_DEV, O_RDWR | O_CLOEXEC);
	if (self->dev < 0)
		SKIP(return, "no %s", VT_DEV);
	ASSERT_EQ(0, vt_pin(0));
}

FIXTURE_TEARDOWN(span)
{
	if (self->dev >= 0)
		close(self->dev);
	free(self->marks_mem);
	free(self->mark1_mem);
	free(self->region_mem);
	vt_prog_free(&self->marks);
	vt_prog_free(&self->mark1);
	vt_prog_free(&self->region);
}

/*
 * A group on this task (@inherit: and its children): a uops leader with
 * trig_mark (@frozen: started frozen) and a cycles member that follows
 * it.  fd[0], fd[1].
 */
static int open_span(int *fd, bool frozen, bool inherit)
{
	struct perf_event_attr a;

	vt_count_attr(&a, VT_EV_UOPS, VT_C1_MARK | (frozen ? VT_C1_FROZEN : 0));
	a.inherit = inherit;
	fd[0] = vt_open(&a, 0, -1, -1);
	if (fd[0] < 0)
		return fd[0];
	vt_count_attr(&a, VT_EV_CYCLES, 0);
	a.inherit = inherit;
	fd[1] = vt_open(&a, 0, -1, fd[0]);
	return fd[1] < 0 ? fd[1] : 0;
}

static void expect_span(struct __test_metadata *_metadata, int *fd,
			uint64_t want)
{
	EXPECT_EQ(want, vt_count(fd[0]));
	/* no memory access: a cycle a microword */
	EXPECT_EQ(want, vt_count(fd[1]));
	close(fd[1]);
	close(fd[0]);
}

struct bouncer {
	pid_t tid;
	int stop;		/* __atomic */
	int moves;
};

/* Move the runner between CPU 0 and 1 until told to stop. */
static void *bounce(void *arg)
{
	struct bouncer *b = arg;
	cpu_set_t set;

	while (!__atomic_load_n(&b->stop, __ATOMIC_RELAXED)) {
		CPU_ZERO(&set);
		CPU_SET(b->moves & 1, &set);
		if (sched_setaffinity(b->tid, sizeof(set), &set))
			break;
		b->moves++;
		usleep(2000);
	}
	return NULL;
}

/*
 * region.s (2240 run chunks) while another thread moves this one between
 * the CPUs: chunks begin and end inside frozen and counted spans on
 * either engine, and the group's state follows it every time.
 */
TEST_F_TIMEOUT(span, migrated_between_chunks, 120)
{
	struct bouncer b = { .tid = syscall(SYS_gettid) };
	cpu_set_t all;
	pthread_t t;
	int fd[2], k;

	CPU_ZERO(&all);
	CPU_SET(0, &all);
	CPU_SET(1, &all);
	for (k = 0; k < 2; k++) {
		ASSERT_EQ(0, open_span(fd, !k, false));
		b.stop = 0;
		b.moves = 0;
		ASSERT_EQ(0, pthread_create(&t, NULL, bounce, &b));
		ASSERT_EQ(0, vt_counts_run_halt(self->dev, &self->region,
						self->region_mem));
		__atomic_store_n(&b.stop, 1, __ATOMIC_RELAXED);
		pthread_join(t, NULL);
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(all), &all));
		TH_LOG("%d moves during the run", b.moves);
		expect_span(_metadata, fd, k ? VT_REGION_UOPS - VT_REGION_REGIONS :
					       VT_REGION_REGIONS);
	}
}

/*
 * Two tasks with a group each, on one CPU, each running region.s: their
 * chunks interleave on the one engine, each group keeps its own state.
 */
TEST_F_TIMEOUT(span, two_tasks_one_cpu, 120)
{
	int go[2], res[2], k;
	pid_t pid[2];

	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(res));
	for (k = 0; k < 2; k++) {
		pid[k] = fork();
		ASSERT_LE(0, pid[k]);
		if (!pid[k]) {
			uint64_t v[2];
			int fd[2];
			char c;

			close(go[1]);
			close(res[0]);
			/* opened after the fork: not an inherited copy */
			if (open_span(fd, !k, false) ||
			    read(go[0], &c, 1) != 1 ||
			    vt_counts_run_halt(self->dev, &self->region,
					       self->region_mem))
				_exit(2);
			v[0] = vt_count(fd[0]);
			v[1] = vt_count(fd[1]);
			if (write(res[1], v, sizeof(v)) != sizeof(v))
				_exit(3);
			_exit(0);
		}
	}
	ASSERT_EQ(2, write(go[1], "gg", 2));
	for (k = 0; k < 2; k++)
		ASSERT_EQ(0, vt_wait_ok(pid[k]));
	for (k = 0; k < 2; k++) {
		uint64_t v[2];

		ASSERT_EQ((ssize_t)sizeof(v), read(res[0], v, sizeof(v)));
		/* one started frozen, the other running: either order */
		if (v[0] != VT_REGION_REGIONS)
			EXPECT_EQ(VT_REGION_UOPS - VT_REGION_REGIONS, v[0]);
		EXPECT_EQ(v[0], v[1]);
	}
	close(go[0]);
	close(go[1]);
	close(res[0]);
	close(res[1]);
}

/*
 * An inherited copy of a group starts in the state its config1 says:
 * this task closes the span it started running in (mark1: frozen from
 * here, nothing counted), then a child on @cpu runs marks.s in its own
 * copy, started running: 17004 in all.
 *
 * The perf core switches between a task and its child (or two children)
 * whose contexts are clones of each other by swapping the contexts, with
 * no pmu::del or pmu::add (perf_event_context_sched_out(),
 * context_equiv()): the events on the counters stay for the next task,
 * and the driver must give them that task's freeze state (a driver that
 * kept it per event copy ran the child in this task's: 18000).  With
 * @no_clone an event of this task that is not inherited keeps the
 * child's context from being a clone, so the switch goes through del
 * and add.
 */
static void inherit_state(struct __test_metadata *_metadata,
			  FIXTURE_DATA(span) *self, int cpu, bool no_clone)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
	};
	int fd[2], dummy = -1;
	pid_t pid;

	if (no_clone) {
		dummy = vt_open(&a, 0, -1, -1);
		ASSERT_LE(0, dummy);
	}
	ASSERT_EQ(0, open_span(fd, false, true));
	ASSERT_EQ(0, vt_counts_run_halt(self->dev, &self->mark1, self->mark1_mem));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (vt_pin(cpu) ||
		    vt_counts_run_halt(self->dev, &self->marks, self->marks_mem))
			_exit(2);
		_exit(0);
	}
	ASSERT_EQ(0, vt_wait_ok(pid));
	expect_span(_metadata, fd, VT_MARKS_UOPS - VT_MARKS_REGIONS);
	if (dummy >= 0)
		close(dummy);
}

TEST_F(span, inherit_state_not_cloned)
{
	inherit_state(_metadata, self, 0, true);
	inherit_state(_metadata, self, 1, true);
}

TEST_F(span, inherit_state_same_cpu)
{
	inherit_state(_metadata, self, 0, false);
}

TEST_F(span, inherit_state_other_cpu)
{
	inherit_state(_metadata, self, 1, false);
}

/*
 * Two children with inherited copies of a group started frozen, on one
 * CPU, each running region.s: each copy counts its own regions.
 */
TEST_F_TIMEOUT(span, inherit_children_one_cpu, 120)
{
	int fd[2], k;
	pid_t pid[2];

	ASSERT_EQ(0, open_span(fd, true, true));
	for (k = 0; k < 2; k++) {
		pid[k] = fork();
		ASSERT_LE(0, pid[k]);
		if (!pid[k]) {
			if (vt_counts_run_halt(self->dev, &self->region,
					       self->region_mem))
				_exit(2);
			_exit(0);
		}
	}
	for (k = 0; k < 2; k++)
		ASSERT_EQ(0, vt_wait_ok(pid[k]));
	expect_span(_metadata, fd, 2 * VT_REGION_REGIONS);
}

/*
 * The freeze state is the task's, and outlives a swap with a child that
 * exits.  This task closes its span (mark1: frozen from here), a child
 * on the same CPU runs marks.s in its own copy, started running (17004),
 * and exits; this task, still frozen, runs marks.s twice (18000 each).
 * While this task waits for the child the perf core swaps their contexts
 * (clones): the child runs on this task's events and exits with them,
 * and this task goes on with the child's copies.
 */
TEST_F(span, inherit_child_exits_parent_counts)
{
	int fd[2], k;
	pid_t pid;

	ASSERT_EQ(0, open_span(fd, false, true));
	ASSERT_EQ(0, vt_counts_run_halt(self->dev, &self->mark1, self->mark1_mem));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (vt_counts_run_halt(self->dev, &self->marks, self->marks_mem))
			_exit(2);
		_exit(0);
	}
	ASSERT_EQ(0, vt_wait_ok(pid));
	for (k = 0; k < 2; k++)
		ASSERT_EQ(0, vt_counts_run_halt(self->dev, &self->marks,
						self->marks_mem));
	expect_span(_metadata, fd, (VT_MARKS_UOPS - VT_MARKS_REGIONS) +
				   2 * VT_MARKS_REGIONS);
}

/* Active task_struct objects (/proc/slabinfo), or -1. */
static long task_structs(void)
{
	char line[256];
	long n = -1;
	FILE *f = fopen("/proc/slabinfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "task_struct ", 12)) {
			n = strtol(line + 12, NULL, 10);
			break;
		}
	}
	fclose(f);
	return n;
}

#define MANY_CHILDREN	64

/*
 * Growth of the active task_structs (/proc/slabinfo) over MANY_CHILDREN
 * children, one after the other, that each run marks.s (and exit), this
 * task running marks.s after every 16th; -1 if slabinfo is unreadable.
 * Reaped children's task_structs are freed an RCU grace period later
 * (and KASAN quarantines them): the growth is what is left after up to
 * 2 s.  With @span the children have inherited copies of the group.
 */
static long children_growth(struct __test_metadata *_metadata,
			    FIXTURE_DATA(span) *self)
{
	long before = task_structs(), after = -1;
	pid_t pid;
	int k;

	for (k = 1; k <= MANY_CHILDREN; k++) {
		pid = fork();
		if (pid < 0)
			return -1;
		if (!pid) {
			if (vt_counts_run_halt(self->dev, &self->marks,
					       self->marks_mem))
				_exit(2);
			_exit(0);
		}
		EXPECT_EQ(0, vt_wait_ok(pid));
		if (k % 16 == 0)
			EXPECT_EQ(0, vt_counts_run_halt(self->dev, &self->marks,
							self->marks_mem));
	}
	for (k = 0; k < 20 && before >= 0; k++) {
		usleep(100000);
		after = task_structs();
	}
	return before < 0 || after < 0 ? -1 : after - before;
}

/*
 * Many short-lived children, one after the other on this task's CPU,
 * each with its own copy (started running: 17004 for its marks.s), while
 * this task, frozen since its mark1, runs marks.s after every 16th
 * (18000 each).  The driver keeps a state per task and drops it once the
 * task has exited: the children's task_structs are not held while the
 * group stays open (no more of them are left than after as many children
 * without the group).
 */
TEST_F_TIMEOUT(span, inherit_many_children, 120)
{
	long control, growth;
	int fd[2];

	control = children_growth(_metadata, self);
	ASSERT_EQ(0, open_span(fd, false, true));
	ASSERT_EQ(0, vt_counts_run_halt(self->dev, &self->mark1, self->mark1_mem));
	growth = children_growth(_metadata, self);
	if (control >= 0 && growth >= 0) {
		TH_LOG("task_structs left: %ld without the group, %ld with it",
		       control, growth);
		EXPECT_LT(growth, control + MANY_CHILDREN / 2);
	}
	expect_span(_metadata, fd,
		    MANY_CHILDREN * (VT_MARKS_UOPS - VT_MARKS_REGIONS) +
		    MANY_CHILDREN / 16 * VT_MARKS_REGIONS);
}

TEST_HARNESS_MAIN
