// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_counts - counting anomalies reported by random stress (issue 12),
 * each reduced to a deterministic case with exact expected values.
 *
 * widths: sampling on counters of 1, 3, 8, 16 and 64 bits (the module is
 *	reloaded with nr_counters=5 counter_widths=1,3,8,16,64 and restored
 *	to its defaults after), at periods below, equal to and above each
 *	counter's range: floor(events / period) samples exactly, each at a
 *	multiple of the period, on the counter asked for (perf.rst,
 *	"Sampling").
 * task:  per-task events on a forked child that runs sum.vprg through
 *	/dev/vpmu (on this CPU and on the other), on a child that execs
 *	vpmu-run (enable_on_exec, as perf stat opens them), and inherit
 *	events of this task whose children run programs: the counts are
 *	exactly N x sum.expect's.
 * span:  trigger-frozen spans (trig_mark) whose run chunks are split by
 *	forced migrations, by another task's runs on the same CPU and by
 *	the runs of an inherited copy of the group, also when the perf
 *	core swaps the clone contexts of a task and its children, and
 *	across children that exit: every span counts exactly what marks.s
 *	and region.s derive, in the state of the task that runs it.
 *
 * Programs come from $VPMU_SHARE (tools/vpmu/share): sum.s 179
 * microwords and 32 instructions, one cycle each; marks.s 35004
 * microwords, 18000 of them in its 1000 regions (mark to mark); region.s
 * 11,200,008 microwords, 10,000,000 of them in its 100,000 regions.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/perf_event.h>
#include "vpmu_test.h"

#define BUDGET		100000000ull

#define EV_CYCLES	0
#define EV_UOPS		1
#define EV_INSNS	2

/* attr.config's ctr field and config1's freeze control (format/). */
#define CFG_CTR(n)	((uint64_t)(n) << 20)
#define C1_MARK		(1ull << 20)
#define C1_FROZEN	(1ull << 21)

#define SUM_UOPS	179ull
#define SUM_INSNS	32ull
#define MARKS_UOPS	35004ull
#define MARKS_REGIONS	18000ull
#define REGION_UOPS	11200008ull
#define REGION_REGIONS	10000000ull

#define VPMU_RUN_BIN	"/opt/vpmu/bin/vpmu-run"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

static long pmu_type(void)
{
	char buf[32];

	if (vl_pmu_read("type", buf, sizeof(buf)))
		return -1;
	return strtol(buf, NULL, 0);
}

static void attr_init(struct perf_event_attr *a, uint64_t config,
		      uint64_t config1)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = pmu_type();
	a->config = config;
	a->config1 = config1;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
}

/* perf_event_open(); fd or -errno. */
static int perf_open(struct perf_event_attr *a, pid_t pid, int cpu, int group)
{
	int fd = syscall(__NR_perf_event_open, a, pid, cpu, group,
			 PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

struct count {
	uint64_t value, enabled, running;
};

/* The event's value, or ~0 if it cannot be read. */
static uint64_t count_of(int fd)
{
	struct count c;

	if (read(fd, &c, sizeof(c)) != sizeof(c))
		return ~0ull;
	return c.value;
}

/* Run @p to its halt on @dev, fresh memory in @mem. */
static int run_halt(int dev, const struct vl_prog *p, uint8_t *mem)
{
	struct vpmu_run r;
	int ret = vl_run(dev, p, mem, BUDGET, &r);

	if (!ret && r.stop != VPMU_RUN_HALT)
		ret = -EPROTO;
	return ret;
}

/* Load share/build/@name.vprg and memory for it; 0 or -1. */
static int prog_get(struct vl_prog *p, uint8_t **mem, const char *name)
{
	char rel[64];

	snprintf(rel, sizeof(rel), "build/%s.vprg", name);
	if (vl_prog_load(p, rel))
		return -1;
	*mem = vl_prog_mem(p);
	return *mem ? 0 : -1;
}

/*
 * A gate between this task and a child: the child says it is ready (on
 * its CPU) and waits to be let go, so that events are opened on a child
 * that is where it will run and has not run yet.  A child whose parent
 * died sees the end of the pipe and exits.
 */
struct gate {
	int go[2], ready[2];
};

static int gate_init(struct gate *g)
{
	if (pipe(g->go))
		return -1;
	if (pipe(g->ready)) {
		close(g->go[0]);
		close(g->go[1]);
		return -1;
	}
	return 0;
}

static void gate_close(struct gate *g)
{
	close(g->go[0]);
	close(g->go[1]);
	close(g->ready[0]);
	close(g->ready[1]);
}

/* In the child: ready, then wait; 0 once let go. */
static int gate_pass(struct gate *g)
{
	char c;

	close(g->go[1]);
	close(g->ready[0]);
	if (write(g->ready[1], "r", 1) != 1 || read(g->go[0], &c, 1) != 1)
		return -1;
	return 0;
}

/* In the parent: wait until the child is ready; 0 or -1. */
static int gate_ready(struct gate *g)
{
	char c;

	return read(g->ready[0], &c, 1) == 1 ? 0 : -1;
}

static int gate_open(struct gate *g)
{
	return write(g->go[1], "g", 1) == 1 ? 0 : -1;
}

/*
 * Fork a child pinned to @cpu that passes @g (if any), then runs @p @runs
 * times through /dev/vpmu (or, with @exec, execs vpmu-run -n @runs on it)
 * and exits: 0 if every run halted.
 */
static pid_t child_runs(const struct vl_prog *p, uint8_t *mem, int cpu,
			struct gate *g, int runs, bool exec)
{
	char path[512], n[16];
	pid_t pid = fork();
	int dev, i;

	if (pid)
		return pid;
	if (vl_pin(cpu) || (g && gate_pass(g)))
		_exit(2);
	if (exec) {
		snprintf(n, sizeof(n), "%d", runs);
		execl(VPMU_RUN_BIN, "vpmu-run", "-q", "-n", n,
		      vl_share(path, sizeof(path), "build/sum.vprg"), NULL);
		_exit(3);
	}
	dev = open(VPMU_DEV, O_RDWR);
	if (dev < 0)
		_exit(3);
	for (i = 0; i < runs; i++)
		if (run_halt(dev, p, mem))
			_exit(4);
	_exit(0);
}

static int wait_ok(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

/* ---- sampling on narrow (and wide) counters ------------------------------- */

/* A sample's PERF_SAMPLE_RAW record (perf.rst, "Samples"). */
struct vpmu_raw {
	uint16_t type;
	uint8_t flags, preempt_count;
	int32_t pid;
	uint32_t upc, ipc, ctr, mode;
	uint64_t count;
} __attribute__((packed));

#define RING_PAGES	64
#define MAX_SAMPLES	400	/* under the driver's throttle (perf.rst) */

struct ring {
	char *base;
	size_t psz;
	int samples, lost, bad;
};

/*
 * Read the ring of an IP | RAW sampling event: count samples and lost
 * records, and those whose raw count is not (k + 1) x @period or whose
 * counter is not @ctr.
 */
static void ring_read(struct ring *rb, uint64_t period, uint32_t ctr,
		      bool exact)
{
	struct perf_event_mmap_page *pg = (void *)rb->base;
	char *data = rb->base + rb->psz, rec[256];
	size_t dsize = RING_PAGES * rb->psz;
	uint64_t head = pg->data_head, tail = pg->data_tail, i;

	__sync_synchronize();
	while (tail < head) {
		struct perf_event_header h;
		struct vpmu_raw raw;

		for (i = 0; i < sizeof(h); i++)
			((char *)&h)[i] = data[(tail + i) % dsize];
		if (h.size < sizeof(h) || h.size > sizeof(rec))
			break;
		for (i = 0; i < h.size; i++)
			rec[i] = data[(tail + i) % dsize];
		tail += h.size;
		if (h.type == PERF_RECORD_LOST) {
			rb->lost++;
			continue;
		}
		if (h.type != PERF_RECORD_SAMPLE)
			continue;
		/* header, ip (8), [period (8)], raw size (4), raw record */
		memcpy(&raw, rec + sizeof(h) + 12 + (exact ? 0 : 8),
		       sizeof(raw));
		if (raw.ctr != ctr ||
		    (exact ? raw.count != (rb->samples + 1) * period :
			     raw.count < (rb->samples + 1) * period))
			rb->bad++;
		rb->samples++;
	}
	pg->data_tail = tail;
}

#define NR_WIDTHS	5
static const unsigned int widths[NR_WIDTHS] = { 1, 3, 8, 16, 64 };

FIXTURE(widths) {
	int dev;
	bool reloaded;
	struct vl_prog sum, marks;
	uint8_t *sum_mem, *marks_mem;
};

/* Reload the module with @params; 0 or -errno. */
static int reload(const char *params)
{
	int ret, tries;

	/* A just-closed event may hold the module for a moment. */
	for (tries = 0; tries < 50; tries++) {
		ret = vl_rmmod();
		if (ret != -EAGAIN)
			break;
		usleep(100000);
	}
	if (ret && ret != -ENOENT)
		return ret;
	return vl_insmod(params);
}

FIXTURE_SETUP(widths)
{
	char name[64], buf[64];
	unsigned int i;
	int ret;

	self->dev = -1;
	self->reloaded = false;
	self->sum_mem = self->marks_mem = NULL;
	if (pmu_type() < 0)
		SKIP(return, "no vpmu PMU");
	if (access(vl_ko(), R_OK))
		SKIP(return, "no %s to reload the module", vl_ko());
	if (prog_get(&self->sum, &self->sum_mem, "sum") ||
	    prog_get(&self->marks, &self->marks_mem, "marks"))
		SKIP(return, "no sum.vprg or marks.vprg in $VPMU_SHARE");
	ret = reload("nr_counters=5 counter_widths=1,3,8,16,64");
	if (ret == -EPERM)
		SKIP(return, "not allowed to reload the module");
	ASSERT_EQ(0, ret) TH_LOG("reload: %s", strerror(-ret));
	self->reloaded = true;
	for (i = 0; i < NR_WIDTHS; i++) {
		snprintf(name, sizeof(name), "caps/counter%u_width", i);
		ASSERT_EQ(0, vl_pmu_read(name, buf, sizeof(buf)));
		ASSERT_EQ(widths[i], strtoul(buf, NULL, 0));
	}
	self->dev = open(VPMU_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->dev);
	ASSERT_EQ(0, vl_pin(0));
}

FIXTURE_TEARDOWN(widths)
{
	if (self->dev >= 0)
		close(self->dev);
	/* the defaults again, for the tests that follow */
	if (self->reloaded)
		EXPECT_EQ(0, reload(""));
	free(self->sum_mem);
	free(self->marks_mem);
	vl_prog_free(&self->sum);
	vl_prog_free(&self->marks);
}

/*
 * @runs runs of @p (@uops microwords each) under a uops sampling event of
 * period @period on counter @ctr (0-based) and a counting one on another
 * counter: both count runs x uops, and the samples are exactly
 * floor(runs x uops / period), the k-th at k x period.
 */
static void sample_case(struct __test_metadata *_metadata,
			FIXTURE_DATA(widths) *self, const struct vl_prog *p,
			uint8_t *mem, uint64_t uops, int runs,
			unsigned int ctr, uint64_t period)
{
	uint64_t want = runs * uops;
	struct perf_event_attr a;
	struct ring rb = {};
	int fd, fc, k;

	attr_init(&a, EV_UOPS | CFG_CTR(ctr + 1), 0);
	a.sample_period = period;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
	fd = perf_open(&a, 0, -1, -1);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
	rb.psz = sysconf(_SC_PAGESIZE);
	rb.base = mmap(NULL, (RING_PAGES + 1) * rb.psz,
		       PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, rb.base);
	/* the counting twin: the highest counter, or the lowest */
	attr_init(&a, EV_UOPS | CFG_CTR(ctr == NR_WIDTHS - 1 ? 1 : NR_WIDTHS),
		  0);
	fc = perf_open(&a, 0, -1, -1);
	ASSERT_LE(0, fc);
	for (k = 0; k < runs; k++)
		ASSERT_EQ(0, run_halt(self->dev, p, mem));
	EXPECT_EQ(want, count_of(fc));
	EXPECT_EQ(want, count_of(fd));
	ring_read(&rb, period, ctr, true);
	EXPECT_EQ(want / period, (uint64_t)rb.samples)
		TH_LOG("%u-bit counter %u, period %llu, %llu events: %d samples",
		       widths[ctr], ctr + 1, (unsigned long long)period,
		       (unsigned long long)want, rb.samples);
	EXPECT_EQ(0, rb.lost);
	EXPECT_EQ(0, rb.bad);
	munmap(rb.base, (RING_PAGES + 1) * rb.psz);
	close(fc);
	close(fd);
}

/* Periods around a counter's range 2^w, and the 44. */
static int periods_of(unsigned int w, uint64_t *p)
{
	uint64_t r = w < 64 ? 1ull << w : 0;
	int n = 0;

	p[n++] = 1;
	p[n++] = 2;
	p[n++] = 3;
	p[n++] = 44;
	if (r && r > 3) {
		p[n++] = r - 1;
		p[n++] = r;
	}
	if (r) {
		p[n++] = r + 1;
		p[n++] = 2 * r + 1;
		p[n++] = 5 * r - 1;
	}
	p[n++] = 178;
	p[n++] = 179;
	p[n++] = 180;
	return n;
}

/* One run of sum.s (179 microwords): every period up to 180. */
TEST_F_TIMEOUT(widths, sum_every_period, 120)
{
	uint64_t p[16];
	unsigned int c;
	int i, n;

	VL_SETUP_DONE();
	for (c = 0; c < NR_WIDTHS; c++) {
		n = periods_of(widths[c], p);
		for (i = 0; i < n; i++)
			if (p[i] <= 2 * SUM_UOPS)
				sample_case(_metadata, self, &self->sum,
					    self->sum_mem, SUM_UOPS, 1, c, p[i]);
	}
}

/* The case: period 44 on the 3-bit counter, over three runs. */
TEST_F(widths, period_44_on_3_bits)
{
	VL_SETUP_DONE();
	sample_case(_metadata, self, &self->sum, self->sum_mem, SUM_UOPS, 3,
		    1, 44);
}

/* marks.s (35004 microwords): periods of one to four hundred samples. */
TEST_F_TIMEOUT(widths, long_periods, 120)
{
	static const uint64_t p[] = {
		88, 255, 256, 257, 1000, 4095, 4096, 4097, 35004, 35005,
	};
	unsigned int c, i;

	VL_SETUP_DONE();
	for (c = 0; c < NR_WIDTHS; c++)
		for (i = 0; i < ARRAY_SIZE(p); i++)
			sample_case(_metadata, self, &self->marks,
				    self->marks_mem, MARKS_UOPS, 1, c, p[i]);
}

/*
 * Other events (cycles with stall cycles, insns, cache misses, a tag),
 * with and without each privilege filter, on every width: the samples
 * are floor(count / period) of the count a counting event gets for the
 * same run (a stalling microword may complete several periods at once,
 * so a sample's count is at least, not exactly, k x period).
 */
TEST_F_TIMEOUT(widths, events_filters_stalls, 300)
{
	static const char *const progs[] = { "sort", "syscall" };
	static const uint64_t evs[] = { EV_CYCLES, EV_INSNS, 7, 0x105 };
	static const uint64_t per[] = { 1, 3, 8, 44 };
	unsigned int pi, i, k;
	struct perf_event_attr a;
	struct vpmu_run r;
	int bad = 0;

	VL_SETUP_DONE();
	for (pi = 0; pi < 2; pi++) {
		struct vl_prog p;
		uint8_t *mem;

		ASSERT_EQ(0, prog_get(&p, &mem, progs[pi]));
		for (i = 0; i < 4 * 3 * NR_WIDTHS; i++) {
			/* every event, filter (none, kernel, user), width */
			unsigned int ei = i / (3 * NR_WIDTHS);
			unsigned int x = i / NR_WIDTHS % 3, c = i % NR_WIDTHS;
			uint64_t n;
			int fc;

			/* the count, on the 64-bit counter or the 16-bit one */
			attr_init(&a, evs[ei] | CFG_CTR(c == 4 ? 4 : 5), 0);
			a.exclude_user = x == 1;
			a.exclude_kernel = x == 2;
			fc = perf_open(&a, 0, -1, -1);
			ASSERT_LE(0, fc);
			ASSERT_EQ(0, vl_run(self->dev, &p, mem, BUDGET, &r));
			n = count_of(fc);
			close(fc);
			for (k = 0; k < 4; k++) {
				struct ring rb = {};
				int fd;

				if (n / per[k] >= MAX_SAMPLES)
					continue;
				a.config = evs[ei] | CFG_CTR(c + 1);
				a.sample_period = per[k];
				/* as perf record -c: with PERIOD */
				a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW |
						PERF_SAMPLE_PERIOD;
				fd = perf_open(&a, 0, -1, -1);
				ASSERT_LE(0, fd);
				rb.psz = sysconf(_SC_PAGESIZE);
				rb.base = mmap(NULL, (RING_PAGES + 1) * rb.psz,
					       PROT_READ | PROT_WRITE, MAP_SHARED,
					       fd, 0);
				ASSERT_NE(MAP_FAILED, rb.base);
				ASSERT_EQ(0, vl_run(self->dev, &p, mem, BUDGET,
						    &r));
				ring_read(&rb, per[k], c, false);
				if (count_of(fd) != n ||
				    (uint64_t)rb.samples != n / per[k] ||
				    rb.bad || rb.lost) {
					bad++;
					TH_LOG("%s event %#llx filter %u, %u-bit counter, period %llu: count %llu of %llu, %d samples, %d bad, %d lost",
					       progs[pi],
					       (unsigned long long)evs[ei], x,
					       widths[c],
					       (unsigned long long)per[k],
					       (unsigned long long)count_of(fd),
					       (unsigned long long)n, rb.samples,
					       rb.bad, rb.lost);
				}
				munmap(rb.base, (RING_PAGES + 1) * rb.psz);
				close(fd);
			}
		}
		free(mem);
		vl_prog_free(&p);
	}
	EXPECT_EQ(0, bad);
}

/*
 * Period 44 on the 3-bit counter for a child's runs (three of sum.s, 537
 * microwords: 12 samples), the child on this CPU or the other: an event
 * on the child's pid, and an inherited copy of an event of this task
 * (per CPU, as perf record opens them: an inherited event has a ring
 * buffer only per CPU).
 */
TEST_F(widths, period_44_in_a_child)
{
	struct perf_event_attr a;
	struct gate g;
	int k, fd;
	pid_t pid;

	VL_SETUP_DONE();
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	for (k = 0; k < 4; k++) {
		bool inherit = k & 1;
		int cpu = k >> 1;
		struct ring rb = {};

		ASSERT_EQ(0, gate_init(&g));
		attr_init(&a, EV_UOPS | CFG_CTR(2), 0);
		a.sample_period = 44;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
		a.inherit = inherit;
		fd = -1;
		if (inherit) {
			fd = perf_open(&a, 0, cpu, -1);
			ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
		}
		pid = child_runs(&self->sum, self->sum_mem, cpu, &g, 3, false);
		ASSERT_LT(0, pid);
		ASSERT_EQ(0, gate_ready(&g));
		if (!inherit) {
			fd = perf_open(&a, pid, -1, -1);
			ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
		}
		rb.psz = sysconf(_SC_PAGESIZE);
		rb.base = mmap(NULL, (RING_PAGES + 1) * rb.psz,
			       PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		ASSERT_NE(MAP_FAILED, rb.base);
		ASSERT_EQ(0, gate_open(&g));
		ASSERT_EQ(0, wait_ok(pid));
		EXPECT_EQ(3 * SUM_UOPS, count_of(fd));
		ring_read(&rb, 44, 1, true);
		EXPECT_EQ(3 * SUM_UOPS / 44, (uint64_t)rb.samples)
			TH_LOG("inherit %d, child on CPU %d", inherit, cpu);
		EXPECT_EQ(0, rb.bad);
		EXPECT_EQ(0, rb.lost);
		munmap(rb.base, (RING_PAGES + 1) * rb.psz);
		close(fd);
		gate_close(&g);
	}
}

/* ---- per-task and inherited counts of children ----------------------------- */

FIXTURE(task) {
	struct vl_prog sum;
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
	if (pmu_type() < 0)
		SKIP(return, "no vpmu PMU");
	if (access(VPMU_DEV, R_OK | W_OK))
		SKIP(return, "no %s", VPMU_DEV);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	if (prog_get(&self->sum, &self->mem, "sum"))
		SKIP(return, "no sum.vprg in $VPMU_SHARE");
	ASSERT_EQ(0, vl_pin(0));
}

FIXTURE_TEARDOWN(task)
{
	free(self->mem);
	vl_prog_free(&self->sum);
}

#define RUNS	5

/* Open uops, insns and cycles on @pid (@flags: enable_on_exec, inherit). */
static int open_three(int *fd, pid_t pid, bool on_exec, bool inherit)
{
	static const uint64_t ev[3] = { EV_UOPS, EV_INSNS, EV_CYCLES };
	struct perf_event_attr a;
	int i;

	for (i = 0; i < 3; i++) {
		attr_init(&a, ev[i], 0);
		a.disabled = on_exec;
		a.enable_on_exec = on_exec;
		a.inherit = inherit;
		fd[i] = perf_open(&a, pid, -1, -1);
		if (fd[i] < 0)
			return fd[i];
	}
	return 0;
}

static void expect_three(struct __test_metadata *_metadata, int *fd,
			 uint64_t runs)
{
	EXPECT_EQ(runs * SUM_UOPS, count_of(fd[0]));
	EXPECT_EQ(runs * SUM_INSNS, count_of(fd[1]));
	EXPECT_EQ(runs * SUM_UOPS, count_of(fd[2]));
	close(fd[0]);
	close(fd[1]);
	close(fd[2]);
}

/* Events on a forked child (pid = child) count its runs exactly. */
TEST_F(task, child_pid)
{
	struct gate g;
	int fd[3];
	pid_t pid;

	VL_SETUP_DONE();
	ASSERT_EQ(0, gate_init(&g));
	pid = child_runs(&self->sum, self->mem, variant->child_cpu, &g, RUNS,
			 false);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, gate_ready(&g));
	ASSERT_EQ(0, open_three(fd, pid, false, false));
	ASSERT_EQ(0, gate_open(&g));
	ASSERT_EQ(0, wait_ok(pid));
	expect_three(_metadata, fd, RUNS);
	gate_close(&g);
}

/* As perf stat does: enable_on_exec on a child that execs vpmu-run. */
TEST_F(task, child_exec_enable_on_exec)
{
	struct gate g;
	int fd[3];
	pid_t pid;

	VL_SETUP_DONE();
	if (access(VPMU_RUN_BIN, X_OK))
		SKIP(return, "no " VPMU_RUN_BIN);
	ASSERT_EQ(0, gate_init(&g));
	pid = child_runs(&self->sum, self->mem, variant->child_cpu, &g, RUNS,
			 true);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, gate_ready(&g));
	ASSERT_EQ(0, open_three(fd, pid, true, false));
	ASSERT_EQ(0, gate_open(&g));
	ASSERT_EQ(0, wait_ok(pid));
	expect_three(_metadata, fd, RUNS);
	gate_close(&g);
}

/*
 * inherit on this task: its own run and those of two children (one of
 * them on the variant's CPU, one on the other) all end up in its count.
 */
TEST_F(task, inherit_children)
{
	int fd[3], dev;
	pid_t a, b;

	VL_SETUP_DONE();
	ASSERT_EQ(0, open_three(fd, 0, false, true));
	dev = open(VPMU_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, dev);
	ASSERT_EQ(0, run_halt(dev, &self->sum, self->mem));
	close(dev);
	a = child_runs(&self->sum, self->mem, variant->child_cpu, NULL, RUNS,
		       false);
	ASSERT_LT(0, a);
	b = child_runs(&self->sum, self->mem, !variant->child_cpu, NULL, RUNS,
		       false);
	ASSERT_LT(0, b);
	ASSERT_EQ(0, wait_ok(a));
	ASSERT_EQ(0, wait_ok(b));
	expect_three(_metadata, fd, 1 + 2 * RUNS);
}

/* inherit on this task, a child that execs vpmu-run. */
TEST_F(task, inherit_exec)
{
	int fd[3];
	pid_t pid;

	VL_SETUP_DONE();
	if (access(VPMU_RUN_BIN, X_OK))
		SKIP(return, "no " VPMU_RUN_BIN);
	ASSERT_EQ(0, open_three(fd, 0, false, true));
	pid = child_runs(&self->sum, self->mem, variant->child_cpu, NULL, RUNS,
			 true);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, wait_ok(pid));
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
	struct count c;
	struct gate g;
	pid_t pid;
	char buf[32];

	VL_SETUP_DONE();
	ASSERT_EQ(0, vl_pmu_read("caps/nr_counters", buf, sizeof(buf)));
	n = atoi(buf);
	ASSERT_LT(0, n);
	ASSERT_GE(16, n);
	for (i = 0; i < n; i++) {
		attr_init(&a, EV_UOPS, 0);
		a.pinned = 1;
		fd[i] = perf_open(&a, -1, variant->child_cpu, -1);
		ASSERT_LE(0, fd[i]) TH_LOG("CPU-wide: %s", strerror(-fd[i]));
	}
	ASSERT_EQ(0, gate_init(&g));
	pid = child_runs(&self->sum, self->mem, variant->child_cpu, &g, RUNS,
			 false);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, gate_ready(&g));
	attr_init(&a, EV_UOPS, 0);
	ft = perf_open(&a, pid, -1, -1);
	ASSERT_LE(0, ft);
	ASSERT_EQ(0, gate_open(&g));
	ASSERT_EQ(0, wait_ok(pid));
	ASSERT_EQ((ssize_t)sizeof(c), read(ft, &c, sizeof(c)));
	EXPECT_EQ(0ull, c.value);
	EXPECT_EQ(0ull, c.running);
	EXPECT_LT(0ull, c.enabled);
	for (i = 0; i < n; i++) {
		EXPECT_EQ(RUNS * SUM_UOPS, count_of(fd[i]));
		close(fd[i]);
	}
	close(ft);
	gate_close(&g);
}

/* ---- trigger-frozen spans --------------------------------------------------- */

FIXTURE(span) {
	int dev;
	struct vl_prog marks, mark1, region;
	uint8_t *marks_mem, *mark1_mem, *region_mem;
};

FIXTURE_SETUP(span)
{
	self->dev = -1;
	self->marks_mem = self->mark1_mem = self->region_mem = NULL;
	if (pmu_type() < 0)
		SKIP(return, "no vpmu PMU");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	if (prog_get(&self->marks, &self->marks_mem, "marks") ||
	    prog_get(&self->mark1, &self->mark1_mem, "mark1") ||
	    prog_get(&self->region, &self->region_mem, "region"))
		SKIP(return, "no marks, mark1 or region.vprg in $VPMU_SHARE");
	self->dev = open(VPMU_DEV, O_RDWR | O_CLOEXEC);
	if (self->dev < 0)
		SKIP(return, "no %s", VPMU_DEV);
	ASSERT_EQ(0, vl_pin(0));
}

FIXTURE_TEARDOWN(span)
{
	if (self->dev >= 0)
		close(self->dev);
	free(self->marks_mem);
	free(self->mark1_mem);
	free(self->region_mem);
	vl_prog_free(&self->marks);
	vl_prog_free(&self->mark1);
	vl_prog_free(&self->region);
}

/*
 * A group on this task (@inherit: and its children): a uops leader with
 * trig_mark (@frozen: started frozen) and a cycles member that follows
 * it.  fd[0], fd[1].
 */
static int open_span(int *fd, bool frozen, bool inherit)
{
	struct perf_event_attr a;

	attr_init(&a, EV_UOPS, C1_MARK | (frozen ? C1_FROZEN : 0));
	a.inherit = inherit;
	fd[0] = perf_open(&a, 0, -1, -1);
	if (fd[0] < 0)
		return fd[0];
	attr_init(&a, EV_CYCLES, 0);
	a.inherit = inherit;
	fd[1] = perf_open(&a, 0, -1, fd[0]);
	return fd[1] < 0 ? fd[1] : 0;
}

static void expect_span(struct __test_metadata *_metadata, int *fd,
			uint64_t want)
{
	EXPECT_EQ(want, count_of(fd[0]));
	/* no memory access: a cycle a microword */
	EXPECT_EQ(want, count_of(fd[1]));
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

	VL_SETUP_DONE();
	CPU_ZERO(&all);
	CPU_SET(0, &all);
	CPU_SET(1, &all);
	for (k = 0; k < 2; k++) {
		ASSERT_EQ(0, open_span(fd, !k, false));
		b.stop = 0;
		b.moves = 0;
		ASSERT_EQ(0, pthread_create(&t, NULL, bounce, &b));
		ASSERT_EQ(0, run_halt(self->dev, &self->region,
				      self->region_mem));
		__atomic_store_n(&b.stop, 1, __ATOMIC_RELAXED);
		pthread_join(t, NULL);
		ASSERT_EQ(0, sched_setaffinity(0, sizeof(all), &all));
		TH_LOG("%d moves during the run", b.moves);
		expect_span(_metadata, fd, k ? REGION_UOPS - REGION_REGIONS :
					       REGION_REGIONS);
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

	VL_SETUP_DONE();
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
			    run_halt(self->dev, &self->region,
				     self->region_mem))
				_exit(2);
			v[0] = count_of(fd[0]);
			v[1] = count_of(fd[1]);
			if (write(res[1], v, sizeof(v)) != sizeof(v))
				_exit(3);
			_exit(0);
		}
	}
	ASSERT_EQ(2, write(go[1], "gg", 2));
	for (k = 0; k < 2; k++)
		ASSERT_EQ(0, wait_ok(pid[k]));
	for (k = 0; k < 2; k++) {
		uint64_t v[2];

		ASSERT_EQ((ssize_t)sizeof(v), read(res[0], v, sizeof(v)));
		/* one started frozen, the other running: either order */
		if (v[0] != REGION_REGIONS)
			EXPECT_EQ(REGION_UOPS - REGION_REGIONS, v[0]);
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
		dummy = perf_open(&a, 0, -1, -1);
		ASSERT_LE(0, dummy);
	}
	ASSERT_EQ(0, open_span(fd, false, true));
	ASSERT_EQ(0, run_halt(self->dev, &self->mark1, self->mark1_mem));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (vl_pin(cpu) ||
		    run_halt(self->dev, &self->marks, self->marks_mem))
			_exit(2);
		_exit(0);
	}
	ASSERT_EQ(0, wait_ok(pid));
	expect_span(_metadata, fd, MARKS_UOPS - MARKS_REGIONS);
	if (dummy >= 0)
		close(dummy);
}

TEST_F(span, inherit_state_not_cloned)
{
	VL_SETUP_DONE();
	inherit_state(_metadata, self, 0, true);
	inherit_state(_metadata, self, 1, true);
}

TEST_F(span, inherit_state_same_cpu)
{
	VL_SETUP_DONE();
	inherit_state(_metadata, self, 0, false);
}

TEST_F(span, inherit_state_other_cpu)
{
	VL_SETUP_DONE();
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

	VL_SETUP_DONE();
	ASSERT_EQ(0, open_span(fd, true, true));
	for (k = 0; k < 2; k++) {
		pid[k] = fork();
		ASSERT_LE(0, pid[k]);
		if (!pid[k]) {
			if (run_halt(self->dev, &self->region,
				     self->region_mem))
				_exit(2);
			_exit(0);
		}
	}
	for (k = 0; k < 2; k++)
		ASSERT_EQ(0, wait_ok(pid[k]));
	expect_span(_metadata, fd, 2 * REGION_REGIONS);
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

	VL_SETUP_DONE();
	ASSERT_EQ(0, open_span(fd, false, true));
	ASSERT_EQ(0, run_halt(self->dev, &self->mark1, self->mark1_mem));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (run_halt(self->dev, &self->marks, self->marks_mem))
			_exit(2);
		_exit(0);
	}
	ASSERT_EQ(0, wait_ok(pid));
	for (k = 0; k < 2; k++)
		ASSERT_EQ(0, run_halt(self->dev, &self->marks,
				      self->marks_mem));
	expect_span(_metadata, fd, (MARKS_UOPS - MARKS_REGIONS) +
				   2 * MARKS_REGIONS);
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
			if (run_halt(self->dev, &self->marks,
				     self->marks_mem))
				_exit(2);
			_exit(0);
		}
		EXPECT_EQ(0, wait_ok(pid));
		if (k % 16 == 0)
			EXPECT_EQ(0, run_halt(self->dev, &self->marks,
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

	VL_SETUP_DONE();
	control = children_growth(_metadata, self);
	ASSERT_EQ(0, open_span(fd, false, true));
	ASSERT_EQ(0, run_halt(self->dev, &self->mark1, self->mark1_mem));
	growth = children_growth(_metadata, self);
	if (control >= 0 && growth >= 0) {
		TH_LOG("task_structs left: %ld without the group, %ld with it",
		       control, growth);
		EXPECT_LT(growth, control + MANY_CHILDREN / 2);
	}
	expect_span(_metadata, fd,
		    MANY_CHILDREN * (MARKS_UOPS - MARKS_REGIONS) +
		    MANY_CHILDREN / 16 * MARKS_REGIONS);
}

TEST_HARNESS_MAIN
