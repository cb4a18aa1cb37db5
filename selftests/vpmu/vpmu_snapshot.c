// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_snapshot - the engine snapshot (VPMU_IOC_SNAPSHOT on /dev/vpmu)
 * and perf group reads, each at one instant
 * (Documentation/admin-guide/perf/vpmu.rst, "/dev/vpmu").
 *
 * A counting event's counter reads exactly in a snapshot; a clearing
 * snapshot zeroes it without changing the event's count; a sampling
 * event's counter is reported and never cleared; a counter no event holds
 * clears; two counters counting the same thing read equal in every group
 * read and every snapshot taken from another CPU while a long run goes on;
 * bad requests are refused and clear nothing.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <sys/wait.h>

#include "vpmu_perf.h"

VT_PERF_FIXTURE(snap, "sum");

/* The snapshot of @cpu's engine, cleared if @flags says so; 0 or -errno. */
static int snapshot(int dev, unsigned int cpu, unsigned int flags,
		    struct vpmu_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->size = sizeof(*s);
	s->cpu = cpu;
	s->flags = flags;
	return ioctl(dev, VPMU_IOC_SNAPSHOT, s) ? -errno : 0;
}

/* @s as "# " lines in the TAP output. */
static void print_snapshot(const char *what, const struct vpmu_snapshot *s)
{
	unsigned int i;

	ksft_print_msg("%s: cpu %u generation %llu nr_counters %u ovf %#x frozen %#x trig_ovf %#x cleared %#x\n",
		       what, s->cpu, (unsigned long long)s->generation,
		       s->nr_counters, s->ovf, s->frozen, s->trig_ovf,
		       s->cleared);
	for (i = 0; i < s->nr_counters; i++)
		ksft_print_msg("  ctr%u value %llu ovf_count %llu event %u width %u flags %#x group %u\n",
			       i, (unsigned long long)s->ctr[i].value,
			       (unsigned long long)s->ctr[i].ovf_count,
			       s->ctr[i].event, s->ctr[i].width,
			       s->ctr[i].flags, s->ctr[i].group);
	fflush(stdout);		/* the harness's child ends with _exit() */
}

/*
 * A pinned counting event of CPU 0 on counter @n (1-based) of "uops".
 * Not a per-task event: one starts over from 0 on its counter each time its
 * task is switched in, and a kworker taking CPU 0 between the run and the
 * snapshot would leave the counter holding nothing of the run.  A pinned
 * CPU event stays on its counter.
 */
static int open_uops_on(int n)
{
	struct perf_event_attr a;
	uint64_t cfg;

	if (vt_alias_cfg("uops", &cfg))
		return -ENOENT;
	vt_count_attr(&a, cfg | vt_ctr_config(n), 0);
	a.pinned = 1;
	return vt_open(&a, -1, 0, -1);
}

/*
 * Take this task off CPU 0 and back: a child (on CPU 0 too, by the
 * inherited affinity) runs while this task waits for it.  Per-task events
 * are switched out and in; CPU events stay.
 */
static int switch_out(void)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -errno;
	if (!pid)
		_exit(0);
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ECHILD;
}

/*
 * A counting event's counter, as perf holds it: the snapshot reads the
 * run's 179 microwords; a clearing snapshot returns them and zeroes the
 * counter; the event's count goes on exact (2 x 179 after a second run)
 * while the counter holds only the second run's.
 */
TEST_F(snap, counting_event_clear)
{
	struct vpmu_snapshot s;
	int fd;

	ASSERT_EQ(0, vt_pin(0));
	fd = open_uops_on(1);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	ASSERT_EQ(0, switch_out());
	ASSERT_EQ(0, snapshot(self->f.dev, 0, 0, &s));
	EXPECT_EQ((uint32_t)self->f.nr_counters, s.nr_counters);
	EXPECT_EQ(vt_generation(), s.generation);
	EXPECT_EQ(VT_SUM_UOPS, s.ctr[0].value);
	EXPECT_EQ(0ull, s.ctr[0].ovf_count);
	EXPECT_NE(0, s.ctr[0].width);
	EXPECT_EQ(VPMU_EV_UOPS, s.ctr[0].event);
	EXPECT_TRUE(!!(s.ctr[0].flags & VPMU_SNAP_CTR_PERF));
	EXPECT_FALSE(!!(s.ctr[0].flags & VPMU_SNAP_CTR_SAMPLING));
	EXPECT_EQ(0u, s.ovf & 1);

	ASSERT_EQ(0, snapshot(self->f.dev, 0, VPMU_SNAP_F_CLEAR, &s));
	print_snapshot("snapshot, clear", &s);
	EXPECT_EQ(VT_SUM_UOPS, s.ctr[0].value);
	EXPECT_TRUE(!!(s.cleared & 1));
	ASSERT_EQ(0, snapshot(self->f.dev, 0, 0, &s));
	print_snapshot("snapshot", &s);
	EXPECT_EQ(0ull, s.ctr[0].value);
	EXPECT_EQ(VT_SUM_UOPS, vt_count(fd));

	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	ASSERT_EQ(0, switch_out());
	ASSERT_EQ(0, snapshot(self->f.dev, 0, 0, &s));
	EXPECT_EQ(VT_SUM_UOPS, s.ctr[0].value);
	EXPECT_EQ(2 * VT_SUM_UOPS, vt_count(fd));
	close(fd);
}

/*
 * A sampling event's counter holds its period's position: reported with
 * its flags, never cleared.  A counting event beside it clears.
 */
TEST_F(snap, sampling_event_kept)
{
	struct vpmu_snapshot s, t;
	struct vt_ring rb;
	uint64_t cfg;
	int fd, sfd;

	if (self->f.nr_counters < 2)
		SKIP(return, "needs 2 counters");
	ASSERT_EQ(0, vt_pin(0));
	ASSERT_EQ(0, vt_alias_cfg("uops", &cfg));
	fd = open_uops_on(1);
	ASSERT_LE(0, fd);
	sfd = vt_open_sampling(cfg | vt_ctr_config(2), 100, 0, &rb);
	ASSERT_LE(0, sfd) TH_LOG("open: %s", strerror(-sfd));
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	ASSERT_EQ(0, switch_out());
	ASSERT_EQ(0, snapshot(self->f.dev, 0, VPMU_SNAP_F_CLEAR, &s));
	EXPECT_EQ(VT_SUM_UOPS, s.ctr[0].value);
	EXPECT_EQ(VPMU_SNAP_CTR_SAMPLING | VPMU_SNAP_CTR_PERF |
		  VPMU_SNAP_CTR_INT,
		  s.ctr[1].flags & (VPMU_SNAP_CTR_SAMPLING |
				    VPMU_SNAP_CTR_PERF | VPMU_SNAP_CTR_INT));
	EXPECT_EQ(1u, s.cleared & 3);
	ASSERT_EQ(0, snapshot(self->f.dev, 0, 0, &t));
	EXPECT_EQ(0ull, t.ctr[0].value);
	EXPECT_EQ(s.ctr[1].value, t.ctr[1].value);
	/* 179 = 100 + 79: the counter is 21 short of its next wrap */
	EXPECT_EQ(s.ctr[1].value + 21,
		  s.ctr[1].width < 64 ? 1ull << s.ctr[1].width : 0);
	vt_close_sampling(sfd, &rb);
	close(fd);
}

/*
 * A counter no event holds keeps what its last event left; a clearing
 * snapshot zeroes it.  Refused requests clear nothing.
 */
TEST_F(snap, idle_counter_and_refusals)
{
	struct vpmu_snapshot s;
	struct {
		struct vpmu_snapshot s;
		uint64_t tail;
	} big;
	int fd;

	ASSERT_EQ(0, vt_pin(0));
	fd = open_uops_on(1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	ASSERT_EQ(0, switch_out());
	close(fd);
	ASSERT_EQ(0, snapshot(self->f.dev, 0, 0, &s));
	EXPECT_EQ(VT_SUM_UOPS, s.ctr[0].value);
	EXPECT_EQ(0, s.ctr[0].width);
	EXPECT_EQ(0, s.ctr[0].flags);

	/* each refused, with the counter kept */
	memset(&s, 0, sizeof(s));
	s.size = VPMU_SNAPSHOT_SIZE_VER0 - 8;
	s.flags = VPMU_SNAP_F_CLEAR;
	EXPECT_EQ(-1, ioctl(self->f.dev, VPMU_IOC_SNAPSHOT, &s));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-EINVAL, snapshot(self->f.dev, 0, VPMU_SNAP_F_CLEAR | 2, &s));
	EXPECT_EQ(-EINVAL, snapshot(self->f.dev, 4096, VPMU_SNAP_F_CLEAR, &s));
	EXPECT_EQ(-EINVAL, snapshot(self->f.dev, ~0u, VPMU_SNAP_F_CLEAR, &s));
	memset(&s, 0, sizeof(s));
	s.size = sizeof(s);
	s.flags = VPMU_SNAP_F_CLEAR;
	s.reserved_in = 1;
	EXPECT_EQ(-1, ioctl(self->f.dev, VPMU_IOC_SNAPSHOT, &s));
	EXPECT_EQ(EINVAL, errno);
	/* a larger struct: zero tail accepted, anything else refused */
	memset(&big, 0, sizeof(big));
	big.s.size = sizeof(big);
	big.tail = 1;
	big.s.flags = VPMU_SNAP_F_CLEAR;
	EXPECT_EQ(-1, ioctl(self->f.dev, VPMU_IOC_SNAPSHOT, &big));
	EXPECT_EQ(EINVAL, errno);
	big.s.size = 1 << 20;
	EXPECT_EQ(-1, ioctl(self->f.dev, VPMU_IOC_SNAPSHOT, &big));
	EXPECT_EQ(E2BIG, errno);
	EXPECT_EQ(-1, ioctl(self->f.dev, VPMU_IOC_SNAPSHOT, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(self->f.dev, _IOWR(VPMU_IOC_MAGIC, 0x7f,
					       struct vpmu_snapshot), &s));
	EXPECT_EQ(ENOTTY, errno);
	ASSERT_EQ(0, snapshot(self->f.dev, 0, 0, &s));
	EXPECT_EQ(VT_SUM_UOPS, s.ctr[0].value);

	big.s.size = sizeof(big);
	big.tail = 0;
	big.s.cpu = 0;
	ASSERT_EQ(0, ioctl(self->f.dev, VPMU_IOC_SNAPSHOT, &big));
	EXPECT_EQ(VT_SUM_UOPS, big.s.ctr[0].value);
	EXPECT_TRUE(!!(big.s.cleared & 1));
	EXPECT_EQ(0ull, big.tail);
	ASSERT_EQ(0, snapshot(self->f.dev, 0, 0, &s));
	EXPECT_EQ(0ull, s.ctr[0].value);
}

/* ---- one instant while a run goes on ------------------------------------- */

#define LONG_BUDGET	20000000ull

struct long_run {
	int dev;
	struct vt_prog *p;
	uint8_t *mem;
	struct vpmu_run r;
	pid_t tid;
	volatile int ready, done;
	int fds[3];
	int ret;
};

/* On CPU 0: open a group {uops, uops, cycles} on itself, run sortloop. */
static void *long_run_thread(void *arg)
{
	struct long_run *l = arg;
	struct perf_event_attr a;
	uint64_t cfg;
	int i;

	l->ret = vt_pin(0);
	l->tid = gettid();
	for (i = 0; !l->ret && i < 3; i++) {
		l->ret = vt_alias_cfg(i < 2 ? "uops" : "cycles", &cfg);
		vt_attr(&a, cfg | vt_ctr_config(i + 1), 0);
		a.read_format = PERF_FORMAT_GROUP;
		l->fds[i] = vt_open(&a, 0, -1, i ? l->fds[0] : -1);
		if (l->fds[i] < 0)
			l->ret = l->fds[i];
	}
	l->ready = 1;
	if (!l->ret)
		l->ret = vt_run(l->dev, l->p, l->mem, LONG_BUDGET, &l->r);
	l->done = 1;
	return NULL;
}

/*
 * From CPU 1, while a thread on CPU 0 runs sortloop for 20M cycles under
 * a group of two uops counters and a cycles counter: every group read
 * (PERF_FORMAT_GROUP, which perf takes in one IPI to CPU 0) and every
 * snapshot of CPU 0 finds the two uops counters equal, and some of them
 * catch the run in the middle.
 */
TEST(one_instant)
{
	struct long_run l = { .fds = { -1, -1, -1 } };
	struct { uint64_t nr, v[3]; } g;
	struct vpmu_snapshot s;
	struct vt_prog p;
	unsigned int reads = 0, mid = 0, snaps = 0, bad = 0;
	uint64_t last = 0;
	pthread_t t;
	int i;

	if (!vt_pmu_present())
		SKIP(return, "no vpmu PMU");
	if (vt_cpu1_online() != 1)
		SKIP(return, "needs CPU 1 online");
	if (vt_pmu_long("caps/nr_counters") < 3)
		SKIP(return, "needs 3 counters");
	l.dev = open(VT_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, l.dev);
	if (vt_need_prog(_metadata, &p, &l.mem, "sortloop"))
		return;
	l.p = &p;
	ASSERT_EQ(0, vt_pin(1));
	ASSERT_EQ(0, pthread_create(&t, NULL, long_run_thread, &l));
	while (!l.ready)
		sched_yield();
	while (!l.ret && !l.done) {
		if (read(l.fds[0], &g, sizeof(g)) == sizeof(g)) {
			reads++;
			bad += g.v[0] != g.v[1] || g.v[0] < last;
			mid += g.v[0] > 0 && g.v[0] < LONG_BUDGET;
			last = g.v[0];
		}
		if (!snapshot(l.dev, 0, 0, &s) && !l.done) {
			snaps++;
			bad += s.ctr[0].value != s.ctr[1].value ||
			       s.ctr[0].ovf_count != s.ctr[1].ovf_count;
		}
		usleep(2000);
	}
	pthread_join(t, NULL);
	ASSERT_EQ(0, l.ret) TH_LOG("%s", strerror(-l.ret));
	EXPECT_EQ((__u32)VPMU_RUN_BUDGET, l.r.stop);
	ASSERT_EQ((ssize_t)sizeof(g), read(l.fds[0], &g, sizeof(g)));
	EXPECT_EQ(g.v[0], g.v[1]);
	EXPECT_EQ(l.r.cycles, g.v[2]);
	EXPECT_EQ(0u, bad);
	EXPECT_LT(2u, mid) TH_LOG("%u reads, %u snapshots", reads, snaps);
	EXPECT_LT(2u, snaps);
	for (i = 0; i < 3; i++)
		close(l.fds[i]);
	free(l.mem);
	vt_prog_free(&p);
	close(l.dev);
}

TEST_HARNESS_MAIN
