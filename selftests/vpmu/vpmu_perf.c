// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_perf - the "vpmu" PMU through perf_event_open()
 * (Documentation/vpmu/perf.rst).
 *
 * Counts are exact: every basic event and tag of every sample program
 * equals its .expect line; per-task events count their task's runs only
 * and CPU-wide ones their CPU's; user + kernel = total; the 14-bit counter
 * wraps many times within one run and loses nothing.  Groups, ioctls,
 * invalid configurations and the module reference of an open event are
 * checked against what perf.rst says.  Sampling: floor(events / period)
 * samples exactly, each with the micro-PC and macro PC of the microword
 * that completed its period (found independently: the next microword of
 * a run whose budget ends just before it), one interrupt line per counter
 * counted in /proc/interrupts, frequency mode, throttling, and every
 * sample type either refused or delivered.  Events are configured from the
 * PMU's own format/ and events/ files, so those are checked too.  Skips
 * when the PMU, /dev/vpmu or the assembled samples ($VPMU_SHARE) are
 * missing.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <linux/perf_event.h>
#include "vpmu_test.h"

#define BUDGET		1000000ull
#define MAX_EVENTS	32
#define MAX_CTRS	16	/* VPMU_NR_COUNTERS_MAX */

/* ---- the PMU's sysfs files ------------------------------------------------ */

static long sysfs_long(const char *rel)
{
	char buf[64];

	return vl_pmu_read(rel, buf, sizeof(buf)) ? -1 : strtol(buf, NULL, 0);
}

/* The low bit of a format/ field ("config:12-19" -> 12), or -1. */
static int format_shift(const char *field)
{
	char rel[64], buf[64];
	int lo;

	snprintf(rel, sizeof(rel), "format/%s", field);
	if (vl_pmu_read(rel, buf, sizeof(buf)) ||
	    sscanf(buf, "config:%d", &lo) != 1)
		return -1;
	return lo;
}

/*
 * attr.config of an events/ alias ("vpmu_" + @name, e.g. "uops", "tag3"),
 * as perf builds it: each term's value shifted to its format/ field.
 */
static int alias_config(const char *name, uint64_t *config)
{
	char rel[128], buf[128], *term, *save = NULL;

	snprintf(rel, sizeof(rel), "events/vpmu_%s", name);
	if (vl_pmu_read(rel, buf, sizeof(buf)))
		return -1;
	*config = 0;
	for (term = strtok_r(buf, ",", &save); term;
	     term = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(term, '=');
		int shift;

		if (!eq)
			return -1;
		*eq = '\0';
		shift = format_shift(term);
		if (shift < 0)
			return -1;
		*config |= strtoull(eq + 1, NULL, 0) << shift;
	}
	return 0;
}

/* Config of counter @n (1-based) pinned, from format/ctr. */
static uint64_t ctr_config(int n)
{
	return (uint64_t)n << format_shift("ctr");
}

/* ---- perf ----------------------------------------------------------------- */

static int perf_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		     int group, unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group, flags);
}

static void attr_init(struct perf_event_attr *a, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = sysfs_long("type");
	a->config = config;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
}

/* Open a counting event on this task, any CPU; fd or -errno. */
static int open_config(uint64_t config, int disabled)
{
	struct perf_event_attr a;
	int fd;

	attr_init(&a, config);
	a.disabled = disabled;
	fd = perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

struct count {
	uint64_t value, enabled, running;
};

static int read_count(int fd, struct count *c)
{
	return read(fd, c, sizeof(*c)) == sizeof(*c) ? 0 : -1;
}

/* Kernels before 6.2 put vpmu in perf_sw_context (perf.rst, "Kernels"). */
static bool old_kernel(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	uname(&u);
	sscanf(u.release, "%d.%d", &major, &minor);
	return major < 6 || (major == 6 && minor < 2);
}

/* ---- .expect files -------------------------------------------------------- */

struct expect {
	char name[MAX_EVENTS][16];
	uint64_t count[MAX_EVENTS];
	int n;
	long long super_cycles;		/* -1: not given */
};

static int expect_load(const char *rel, struct expect *x)
{
	char *text, *line, *save = NULL;
	size_t len;

	memset(x, 0, sizeof(*x));
	x->super_cycles = -1;
	text = (char *)vl_read_share(rel, &len);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char key[16], arg[16];
		unsigned long long v;

		if (sscanf(line, "%15s %15s %llu", key, arg, &v) != 3)
			continue;
		if (!strcmp(key, "event") && x->n < MAX_EVENTS) {
			strcpy(x->name[x->n], arg);
			x->count[x->n++] = v;
		} else if (!strcmp(key, "super") && !strcmp(arg, "cycles")) {
			x->super_cycles = v;
		}
	}
	free(text);
	return 0;
}

/* ---- the fixture: PMU, device, one program -------------------------------- */

FIXTURE(perf) {
	int dev;
	struct vl_prog p;
	uint8_t *mem;
	int nr_counters;
	struct vpmu_run r;
};

static void fx_setup(struct __test_metadata *_metadata,
		       FIXTURE_DATA(perf) *self, const char *prog)
{
	self->dev = -1;
	self->mem = NULL;
	if (access(VPMU_PMU_DIR "/type", F_OK))
		SKIP(return, "no vpmu PMU");
	self->nr_counters = sysfs_long("caps/nr_counters");
	ASSERT_LT(0, self->nr_counters);
	self->dev = open(VPMU_DEV, O_RDWR | O_CLOEXEC);
	if (self->dev < 0)
		SKIP(return, "no %s", VPMU_DEV);
	if (vl_prog_load(&self->p, prog))
		SKIP(return, "no valid %s in $VPMU_SHARE", prog);
	self->mem = vl_prog_mem(&self->p);
	ASSERT_NE(NULL, self->mem);
}

FIXTURE_SETUP(perf)
{
	fx_setup(_metadata, self, "build/sum.vprg");
}

FIXTURE_TEARDOWN(perf)
{
	if (self->dev >= 0)
		close(self->dev);
	free(self->mem);
	vl_prog_free(&self->p);
}

static int run(FIXTURE_DATA(perf) *self, uint64_t budget)
{
	return vl_run(self->dev, &self->p, self->mem, budget, &self->r);
}

/* ---- exact counts of every event of every sample ------------------------ */

FIXTURE(sample) {
	FIXTURE_DATA(perf) f;
	struct expect x;
};

FIXTURE_VARIANT(sample) {
	const char *prog, *expect;
};

#define SAMPLE(name)							\
	FIXTURE_VARIANT_ADD(sample, name) {				\
		.prog = "build/" #name ".vprg",				\
		.expect = "samples/" #name ".expect",			\
	}
SAMPLE(sum);
SAMPLE(sort);
SAMPLE(memcpy);
SAMPLE(syscall);

FIXTURE_SETUP(sample)
{
	fx_setup(_metadata, &self->f, variant->prog);
	VL_SETUP_DONE();
	if (expect_load(variant->expect, &self->x) || self->x.n < 18)
		SKIP(return, "no full %s in $VPMU_SHARE", variant->expect);
}

FIXTURE_TEARDOWN(sample)
{
	if (self->f.dev >= 0)
		close(self->f.dev);
	free(self->f.mem);
	vl_prog_free(&self->f.p);
}

/*
 * Every event line, nr_counters events per run (all on the counters for
 * the whole run: time_running == time_enabled), per task.
 */
TEST_F_TIMEOUT(sample, exact_counts, 120)
{
	int fds[MAX_EVENTS], i, j, bad = 0;

	VL_SETUP_DONE();
	for (i = 0; i < self->x.n; i += self->f.nr_counters) {
		int n = self->x.n - i;

		if (n > self->f.nr_counters)
			n = self->f.nr_counters;
		for (j = 0; j < n; j++) {
			uint64_t config;

			ASSERT_EQ(0, alias_config(self->x.name[i + j], &config))
				TH_LOG("no events/vpmu_%s", self->x.name[i + j]);
			fds[j] = open_config(config, 0);
			ASSERT_LE(0, fds[j]) TH_LOG("open vpmu_%s: %s",
				self->x.name[i + j], strerror(-fds[j]));
		}
		ASSERT_EQ(0, run(&self->f, BUDGET));
		for (j = 0; j < n; j++) {
			struct count c;

			ASSERT_EQ(0, read_count(fds[j], &c));
			close(fds[j]);
			EXPECT_EQ(c.enabled, c.running);
			if (c.value != self->x.count[i + j]) {
				TH_LOG("%s: vpmu_%s: %llu, expected %llu",
				       variant->prog, self->x.name[i + j],
				       (unsigned long long)c.value,
				       (unsigned long long)self->x.count[i + j]);
				bad++;
			}
		}
	}
	EXPECT_EQ(0, bad);
}

/* User-only + kernel-only = total, and kernel-only = "super cycles". */
TEST_F(sample, exclude_user_kernel)
{
	struct perf_event_attr a;
	struct count u, k, t;
	int fu, fk, ft;

	VL_SETUP_DONE();
	if (self->x.super_cycles < 0)
		SKIP(return, "no super cycles line");
	attr_init(&a, 0);	/* vpmu_cycles */
	a.exclude_kernel = 1;
	fu = perf_open(&a, 0, -1, -1, 0);
	ASSERT_LE(0, fu);
	a.exclude_kernel = 0;
	a.exclude_user = 1;
	fk = perf_open(&a, 0, -1, -1, 0);
	ASSERT_LE(0, fk);
	a.exclude_user = 0;
	a.exclude_hv = 1;	/* changes nothing */
	a.exclude_idle = 1;
	a.exclude_guest = 1;
	ft = perf_open(&a, 0, -1, -1, 0);
	ASSERT_LE(0, ft);

	ASSERT_EQ(0, run(&self->f, BUDGET));
	ASSERT_EQ(0, read_count(fu, &u));
	ASSERT_EQ(0, read_count(fk, &k));
	ASSERT_EQ(0, read_count(ft, &t));
	EXPECT_EQ(self->f.r.cycles, t.value);
	EXPECT_EQ((uint64_t)self->x.super_cycles, k.value);
	EXPECT_EQ(t.value, u.value + k.value);
	close(fu);
	close(fk);
	close(ft);
}

/* ---- attribution: per task and per CPU ------------------------------------ */

/* A child on @cpu that runs @prog @runs times once told to go. */
static pid_t spawn(int cpu, const char *prog, int runs, int go)
{
	pid_t pid = fork();
	struct vpmu_run r;
	struct vl_prog p;
	cpu_set_t set;
	uint8_t *mem;
	char c;
	int dev, i;

	if (pid)
		return pid;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) ||
	    vl_prog_load(&p, prog) || !(mem = vl_prog_mem(&p)))
		_exit(2);
	dev = open(VPMU_DEV, O_RDWR);
	if (dev < 0 || read(go, &c, 1) != 1)
		_exit(3);
	for (i = 0; i < runs; i++)
		if (vl_run(dev, &p, mem, BUDGET, &r) || r.stop != VPMU_RUN_HALT)
			_exit(4);
	_exit(0);
}

static int open_on(uint64_t config, pid_t pid, int cpu)
{
	struct perf_event_attr a;

	attr_init(&a, config);
	return perf_open(&a, pid, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/*
 * Child A runs sum once on CPU 0, child B sort twice on CPU 1.  Per-task
 * events on each child count that child's runs wherever they ran;
 * CPU-wide events count the runs on their CPU, whoever ran them.
 */
TEST_F_TIMEOUT(perf, per_task_and_cpu_wide, 60)
{
	struct expect sum, sort;
	uint64_t insns;
	int go[2], fa, fb, f0, f1, status;
	struct count ca, cb, c0, c1;
	pid_t a, b;

	VL_SETUP_DONE();
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, expect_load("samples/sum.expect", &sum));
	ASSERT_EQ(0, expect_load("samples/sort.expect", &sort));
	ASSERT_EQ(0, alias_config("insns", &insns));
	ASSERT_EQ(0, pipe(go));
	a = spawn(0, "build/sum.vprg", 1, go[0]);
	b = spawn(1, "build/sort.vprg", 2, go[0]);
	ASSERT_LT(0, a);
	ASSERT_LT(0, b);

	fa = open_on(insns, a, -1);
	fb = open_on(insns, b, -1);
	f0 = open_on(insns, -1, 0);
	f1 = open_on(insns, -1, 1);
	ASSERT_LE(0, fa);
	ASSERT_LE(0, fb);
	ASSERT_LE(0, f0);
	ASSERT_LE(0, f1);
	ASSERT_EQ(2, write(go[1], "gg", 2));
	ASSERT_EQ(a, waitpid(a, &status, 0));
	EXPECT_EQ(0, status);
	ASSERT_EQ(b, waitpid(b, &status, 0));
	EXPECT_EQ(0, status);

	ASSERT_EQ(0, read_count(fa, &ca));
	ASSERT_EQ(0, read_count(fb, &cb));
	ASSERT_EQ(0, read_count(f0, &c0));
	ASSERT_EQ(0, read_count(f1, &c1));
	/* "event insns" is the third event line of both files. */
	ASSERT_STREQ("insns", sum.name[2]);
	ASSERT_STREQ("insns", sort.name[2]);
	EXPECT_EQ(sum.count[2], ca.value);
	EXPECT_EQ(2 * sort.count[2], cb.value);
	EXPECT_EQ(sum.count[2], c0.value);
	EXPECT_EQ(2 * sort.count[2], c1.value);
	close(fa);
	close(fb);
	close(f0);
	close(f1);
	close(go[0]);
	close(go[1]);
}

/*
 * Reads racing a long run: a child on CPU 1 spins for 10M cycles (2000
 * chunks, 610 wraps of a 14-bit counter) while this task keeps reading
 * a per-task and a CPU-wide event on it, each read an IPI to CPU 1 that
 * lands between chunks.  Counts only grow and end exact.
 */
TEST_F_TIMEOUT(perf, reads_during_long_run, 180)
{
	uint64_t cycles, last[2] = { 0, 0 }, want = 10000000;
	int go[2], res[2], fd[2], k, status, reads = 0;
	struct vpmu_run r;
	struct vl_prog p;
	struct count c;
	pid_t pid;

	VL_SETUP_DONE();
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	if (vl_prog_load(&p, "build/spin.vprg"))
		SKIP(return, "no build/spin.vprg");
	ASSERT_EQ(0, alias_config("cycles", &cycles));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(res));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		cpu_set_t set;
		uint8_t *mem = vl_prog_mem(&p);
		char ch;

		CPU_ZERO(&set);
		CPU_SET(1, &set);
		if (!mem || sched_setaffinity(0, sizeof(set), &set) ||
		    read(go[0], &ch, 1) != 1 ||
		    vl_run(self->dev, &p, mem, want, &r) ||
		    write(res[1], &r.cycles, sizeof(r.cycles)) != sizeof(r.cycles))
			_exit(1);
		_exit(0);
	}
	/* cycles on the 14-bit counter for the CPU-wide event */
	fd[0] = open_on(cycles, pid, -1);
	fd[1] = open_on(cycles | ctr_config(3 <= self->nr_counters ? 3 : 1),
			-1, 1);
	ASSERT_LE(0, fd[0]);
	ASSERT_LE(0, fd[1]);
	ASSERT_EQ(1, write(go[1], "g", 1));
	while (waitpid(pid, &status, WNOHANG) == 0) {
		for (k = 0; k < 2; k++) {
			ASSERT_EQ(0, read_count(fd[k], &c));
			ASSERT_LE(last[k], c.value);
			last[k] = c.value;
		}
		reads++;
	}
	ASSERT_EQ(0, status);
	ASSERT_EQ((ssize_t)sizeof(r.cycles), read(res[0], &r.cycles,
						  sizeof(r.cycles)));
	EXPECT_EQ(want, r.cycles);
	for (k = 0; k < 2; k++) {
		ASSERT_EQ(0, read_count(fd[k], &c));
		EXPECT_EQ(want, c.value) TH_LOG("event %d", k);
		close(fd[k]);
	}
	TH_LOG("%d reads during the run", reads);
	vl_prog_free(&p);
	close(go[0]);
	close(go[1]);
	close(res[0]);
	close(res[1]);
}

/* ---- a new image while counting ------------------------------------------- */

FIXTURE(reload) {
	FIXTURE_DATA(perf) f;
	uint8_t *img[2];
	size_t len;
};

FIXTURE_SETUP(reload)
{
	self->img[0] = self->img[1] = NULL;
	fx_setup(_metadata, &self->f, "build/memcpy.vprg");
	VL_SETUP_DONE();
	if (!vl_have_loader() || geteuid())
		SKIP(return, "no loader, or not root");
	ASSERT_EQ(0, vl_load_default());
	self->img[0] = vl_read_image(&self->len);
	ASSERT_NE(NULL, self->img[0]);
	self->img[1] = vl_variant(self->img[0], self->len, "vpmu32-perf", 20);
	ASSERT_NE(NULL, self->img[1]);
}

FIXTURE_TEARDOWN(reload)
{
	if (self->img[0])
		vl_load_default();
	free(self->img[0]);
	free(self->img[1]);
	if (self->f.dev >= 0)
		close(self->f.dev);
	free(self->f.mem);
	vl_prog_free(&self->f.p);
}

/*
 * Images come and go under open events: memcpy on the default image
 * (3120 cycles, 8 misses), on a variant with a 20-cycle miss penalty
 * (3056 + 8 x 20), and on the default again.  The counters belong to the
 * engines, not to an image, so the events count all three runs exactly;
 * the images replaced meanwhile are freed (kmemleak on the debug kernel).
 */
TEST_F(reload, counts_across_images)
{
	uint64_t cycles, miss;
	struct count c;
	int fc, fm;

	VL_SETUP_DONE();
	ASSERT_EQ(0, alias_config("cycles", &cycles));
	ASSERT_EQ(0, alias_config("dc_miss", &miss));
	fc = open_config(cycles, 0);
	fm = open_config(miss, 0);
	ASSERT_LE(0, fc);
	ASSERT_LE(0, fm);
	ASSERT_EQ(0, run(&self->f, BUDGET));
	EXPECT_EQ(3120ull, self->f.r.cycles);
	ASSERT_EQ(0, vl_write_image(self->img[1], self->len, 4096));
	ASSERT_EQ(0, run(&self->f, BUDGET));
	EXPECT_EQ(3056ull + 8 * 20, self->f.r.cycles);
	ASSERT_EQ(0, vl_load_default());
	ASSERT_EQ(0, run(&self->f, BUDGET));
	ASSERT_EQ(0, read_count(fc, &c));
	EXPECT_EQ(2 * 3120ull + 3056 + 8 * 20, c.value);
	ASSERT_EQ(0, read_count(fm, &c));
	EXPECT_EQ(24ull, c.value);
	close(fc);
	close(fm);
}

/* ---- groups ---------------------------------------------------------------- */

struct group_read {
	uint64_t nr, enabled, running;
	struct { uint64_t value, id; } cntr[MAX_CTRS + 1];
};

/* Open @n events of @configs as one group; fds in @fds; -errno of a failure. */
static int open_group(const uint64_t *configs, int n, int *fds)
{
	struct perf_event_attr a;
	int i;

	for (i = 0; i < n; i++) {
		attr_init(&a, configs[i]);
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
				PERF_FORMAT_TOTAL_TIME_ENABLED |
				PERF_FORMAT_TOTAL_TIME_RUNNING;
		a.disabled = !i;
		fds[i] = perf_open(&a, 0, -1, i ? fds[0] : -1,
				   PERF_FLAG_FD_CLOEXEC);
		if (fds[i] < 0) {
			int err = -errno;

			while (i--)
				close(fds[i]);
			return err;
		}
	}
	return 0;
}

static void close_all(int *fds, int n)
{
	while (n--)
		close(fds[n]);
}

/* cycles, uops, insns as a group: one read, exact values, matching IDs. */
TEST_F(perf, group_read)
{
	const char *names[] = { "cycles", "uops", "insns" };
	uint64_t configs[3], want[3] = { 179, 179, 32 };
	struct group_read g;
	int fds[3], i;

	VL_SETUP_DONE();
	if (self->nr_counters < 3)
		SKIP(return, "needs 3 counters");
	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, alias_config(names[i], &configs[i]));
	ASSERT_EQ(0, open_group(configs, 3, fds));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, run(self, BUDGET));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_LT(0, read(fds[0], &g, sizeof(g)));
	ASSERT_EQ(3ull, g.nr);
	EXPECT_LT(0ull, g.running);
	EXPECT_EQ(g.enabled, g.running);
	for (i = 0; i < 3; i++) {
		uint64_t id;

		ASSERT_EQ(0, ioctl(fds[i], PERF_EVENT_IOC_ID, &id));
		EXPECT_EQ(id, g.cntr[i].id);
		EXPECT_EQ(want[i], g.cntr[i].value) TH_LOG("%s", names[i]);
	}
	close_all(fds, 3);
}

/*
 * A member pinned to counter 1 and one that takes any counter: the free
 * one must leave counter 1 to its sibling, whichever is added first.
 */
TEST_F(perf, group_pinned_and_free)
{
	uint64_t configs[2];
	struct group_read g;
	int fds[2];

	VL_SETUP_DONE();
	ASSERT_EQ(0, alias_config("uops", &configs[0]));
	ASSERT_EQ(0, alias_config("cycles", &configs[1]));
	if (self->nr_counters < 2)
		SKIP(return, "needs 2 counters");
	configs[1] |= ctr_config(1);
	ASSERT_EQ(0, open_group(configs, 2, fds));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, run(self, BUDGET));
	ASSERT_LT(0, read(fds[0], &g, sizeof(g)));
	EXPECT_EQ(g.enabled, g.running);
	EXPECT_EQ(SUM_CYCLES, g.cntr[0].value);
	EXPECT_EQ(SUM_CYCLES, g.cntr[1].value);
	close_all(fds, 2);
}

/*
 * Groups that can never be on the counters at once: more members than
 * counters, or two pinned to one counter.  From 6.2 on the last member's
 * open fails with EINVAL; on 6.1 (perf_sw_context, where event_init may
 * not walk the group) the group opens and never runs: time_running stays
 * 0 and every value 0 (perf.rst, "Kernels").
 */
static void group_never_fits(struct __test_metadata *_metadata,
			     FIXTURE_DATA(perf) *self, const uint64_t *configs,
			     int n)
{
	struct group_read g;
	int fds[MAX_CTRS + 1], ret, i;

	ret = open_group(configs, n, fds);
	if (!old_kernel()) {
		ASSERT_EQ(-EINVAL, ret);
		return;
	}
	ASSERT_EQ(0, ret) TH_LOG("open: %s", strerror(-ret));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, run(self, BUDGET));
	ASSERT_LT(0, read(fds[0], &g, sizeof(g)));
	ASSERT_EQ((uint64_t)n, g.nr);
	EXPECT_LT(0ull, g.enabled);
	EXPECT_EQ(0ull, g.running);
	for (i = 0; i < n; i++)
		EXPECT_EQ(0ull, g.cntr[i].value);
	close_all(fds, n);
}

TEST_F(perf, group_too_big)
{
	uint64_t configs[MAX_CTRS + 1];
	int i;

	VL_SETUP_DONE();
	for (i = 0; i <= self->nr_counters; i++)
		ASSERT_EQ(0, alias_config("uops", &configs[i]));
	group_never_fits(_metadata, self, configs, self->nr_counters + 1);
}

TEST_F(perf, group_pinned_conflict)
{
	uint64_t configs[2];

	VL_SETUP_DONE();
	ASSERT_EQ(0, alias_config("uops", &configs[0]));
	configs[0] |= ctr_config(1);
	configs[1] = configs[0];
	group_never_fits(_metadata, self, configs, 2);
}

/*
 * One event more than there are counters, all counting cycles, on one
 * 10M-cycle run.  At every instant of the run exactly nr_counters of them
 * are on the counters (the rest wait; the perf core switches them only
 * between run chunks), so their counts add up to exactly nr_counters x
 * the run's cycles on every kernel.  From 6.2 the core rotates them
 * (every event runs a while); on 6.1 (perf_sw_context) it does not: the
 * first nr_counters run the whole time, the last never (perf.rst,
 * "Kernels").
 */
TEST_F_TIMEOUT(perf, more_events_than_counters, 180)
{
	struct count c[MAX_CTRS + 1];
	int fds[MAX_CTRS + 1], n = self->nr_counters + 1, i;
	uint64_t total = 0, want = 10000000;
	struct vl_prog p;
	uint8_t *mem;

	VL_SETUP_DONE();
	if (vl_prog_load(&p, "build/spin.vprg"))
		SKIP(return, "no build/spin.vprg");
	mem = vl_prog_mem(&p);
	ASSERT_NE(NULL, mem);
	for (i = 0; i < n; i++) {
		fds[i] = open_config(0, 0);	/* vpmu_cycles */
		ASSERT_LE(0, fds[i]);
	}
	ASSERT_EQ(0, vl_run(self->dev, &p, mem, want, &self->r));
	ASSERT_EQ(want, self->r.cycles);
	/*
	 * Read them all before closing any: closing one frees its counter,
	 * and the waiting event may then get on (and run a little) before
	 * it is read.
	 */
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, read_count(fds[i], &c[i]));
	for (i = 0; i < n; i++) {
		close(fds[i]);
		total += c[i].value;
		TH_LOG("event %d: %llu, running %llu of %llu ns", i,
		       (unsigned long long)c[i].value,
		       (unsigned long long)c[i].running,
		       (unsigned long long)c[i].enabled);
		if (c[i].running == c[i].enabled)
			EXPECT_EQ(want, c[i].value);
		if (!c[i].running)
			EXPECT_EQ(0ull, c[i].value);
	}
	EXPECT_EQ(self->nr_counters * want, total);
	if (old_kernel()) {
		for (i = 0; i < n - 1; i++)
			EXPECT_EQ(want, c[i].value);
		EXPECT_EQ(0ull, c[n - 1].running);
	} else {
		for (i = 0; i < n; i++)
			EXPECT_LT(0ull, c[i].running) TH_LOG("not rotated in");
	}
	free(mem);
	vl_prog_free(&p);
}

/* ---- ioctls ---------------------------------------------------------------- */

TEST_F(perf, enable_disable_reset)
{
	struct count c;
	uint64_t uops;
	int fd;

	VL_SETUP_DONE();
	ASSERT_EQ(0, alias_config("uops", &uops));
	fd = open_config(uops, 1);
	ASSERT_LE(0, fd);

	ASSERT_EQ(0, run(self, BUDGET));		/* disabled: not counted */
	ASSERT_EQ(0, read_count(fd, &c));
	EXPECT_EQ(0ull, c.value);
	EXPECT_EQ(0ull, c.enabled);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, run(self, BUDGET));
	ASSERT_EQ(0, run(self, BUDGET));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, run(self, BUDGET));		/* disabled again */
	ASSERT_EQ(0, read_count(fd, &c));
	EXPECT_EQ(2 * SUM_CYCLES, c.value);	/* sum: uops = cycles */
	EXPECT_EQ(c.enabled, c.running);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, read_count(fd, &c));
	EXPECT_EQ(0ull, c.value);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, run(self, BUDGET));
	/* A reset while counting drops what was counted before it. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, run(self, BUDGET));
	ASSERT_EQ(0, read_count(fd, &c));
	EXPECT_EQ(SUM_CYCLES, c.value);
	close(fd);
}

/*
 * PERIOD and REFRESH are for sampling events; the perf core refuses them
 * on a counting event with EINVAL before the driver is asked.  ID works.
 */
TEST_F(perf, period_refresh_id)
{
	struct perf_event_attr a;
	uint64_t period = 1000, id = 0, id2 = 0;
	struct { uint64_t value, id; } r;
	int fd;

	VL_SETUP_DONE();
	attr_init(&a, 0);
	a.read_format = PERF_FORMAT_ID;
	fd = perf_open(&a, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	ASSERT_EQ(0, run(self, BUDGET));
	ASSERT_EQ((ssize_t)sizeof(r), read(fd, &r, sizeof(r)));
	EXPECT_EQ(id, r.id);
	EXPECT_EQ(SUM_CYCLES, r.value);
	/* Still counting after the refused ioctls. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id2));
	EXPECT_EQ(id, id2);
	close(fd);
}

/* ---- narrow counters ------------------------------------------------------- */

FIXTURE(narrow) {
	FIXTURE_DATA(perf) f;
};

FIXTURE_SETUP(narrow)
{
	fx_setup(_metadata, &self->f, "build/sortloop.vprg");
}

FIXTURE_TEARDOWN(narrow)
{
	if (self->f.dev >= 0)
		close(self->f.dev);
	free(self->f.mem);
	vl_prog_free(&self->f.p);
}

/*
 * The sort loop for 3 million cycles: cycles on the 14-bit counter 3 wrap
 * 183 times and insns (about 585,000) 35 times within the one run; both
 * must come out exact, the same as on a 16-bit counter, and cycles equal
 * to the run's.
 */
#define LONG_BUDGET	3000017ull

TEST_F_TIMEOUT(narrow, wraps_within_one_run, 120)
{
	uint64_t cycles, insns, ins[2];
	int fc, fi, k, w;
	struct count c;

	VL_SETUP_DONE();
	if (self->f.nr_counters < 3)
		SKIP(return, "needs 3 counters");
	w = sysfs_long("caps/counter2_width");
	TH_LOG("counter 3 is %d bits wide", w);
	ASSERT_LT(0, w);
	ASSERT_EQ(0, alias_config("cycles", &cycles));
	ASSERT_EQ(0, alias_config("insns", &insns));

	for (k = 0; k < 2; k++) {
		/* k = 0: cycles on counter 3, insns on 1; k = 1 swapped. */
		fc = open_config(cycles | ctr_config(k ? 1 : 3), 0);
		fi = open_config(insns | ctr_config(k ? 3 : 1), 0);
		ASSERT_LE(0, fc);
		ASSERT_LE(0, fi);
		ASSERT_EQ(0, run(&self->f, LONG_BUDGET));
		EXPECT_EQ((__u32)VPMU_RUN_BUDGET, self->f.r.stop);
		EXPECT_EQ(LONG_BUDGET, self->f.r.cycles);
		ASSERT_EQ(0, read_count(fc, &c));
		EXPECT_EQ(c.enabled, c.running);
		EXPECT_EQ(LONG_BUDGET, c.value);
		ASSERT_EQ(0, read_count(fi, &c));
		EXPECT_EQ(c.enabled, c.running);
		ins[k] = c.value;
		close(fc);
		close(fi);
	}
	EXPECT_EQ(ins[0], ins[1]);
	EXPECT_LT(4ull << w, ins[0]);
}

/* ---- invalid configurations ------------------------------------------------ */

TEST_F(perf, invalid_configs)
{
	long mode = sysfs_long("caps/ev_mode"), bits = sysfs_long("caps/ev_bits");
	int ev = format_shift("event"), tag = format_shift("tag");
	uint64_t bad_tag;
	struct {
		const char *what;
		uint64_t config;
		int err;
	} cases[] = {
		{ "event 10", 10, ENOENT },
		{ "event 0x100 (tag 0)", 0x100, ENOENT },
		{ "event 0x200 (bucket 0)", 0x200, EINVAL },
		{ "event 0xfff", 0xfff, ENOENT },
		{ "tag with event", (1ull << tag) | 1, EINVAL },
		{ "tag out of range", 0, EINVAL },
		{ "event 0x100 + tag out of range", 0, EINVAL },
		{ "ctr beyond nr_counters", ctr_config(self->nr_counters + 1),
		  EINVAL },
		{ "ctr 31", ctr_config(31), EINVAL },
		{ "unused bit 25", 1ull << 25, EINVAL },
		{ "unused bit 63", 1ull << 63, EINVAL },
	};
	struct perf_event_attr a;
	unsigned int i;
	int fd;

	VL_SETUP_DONE();
	ASSERT_EQ(0, ev);
	ASSERT_LE(0, tag);
	ASSERT_LE(0, mode);
	bad_tag = mode == VPMU_EVMODE_ONEHOT ? (uint64_t)bits + 1 : 1ull << bits;
	if (bad_tag > VPMU_TAG_MAX)
		SKIP(return, "every tag is valid in this image");
	cases[5].config = bad_tag << tag;
	cases[6].config = 0x100 + bad_tag;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fd = open_config(cases[i].config, 0);
		EXPECT_EQ(-cases[i].err, fd) TH_LOG("%s (config %#llx)",
			cases[i].what, (unsigned long long)cases[i].config);
		if (fd >= 0)
			close(fd);
	}

	/* The largest valid of each. */
	fd = open_config(((bad_tag - 1) << tag) | ctr_config(self->nr_counters), 0);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
	fd = open_config(0x100 + bad_tag - 1, 0);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);

	/* config1 is the freeze control (vpmu_freeze): reserved bits */
	attr_init(&a, 1);
	a.config1 = 1ull << 40;
	EXPECT_EQ(-1, perf_open(&a, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	attr_init(&a, 1);
	a.config2 = 1ull << 40;
	EXPECT_EQ(-1, perf_open(&a, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	attr_init(&a, 1);
	a.exclude_host = 1;
	EXPECT_EQ(-1, perf_open(&a, 0, -1, -1, 0));
	EXPECT_EQ(EOPNOTSUPP, errno);
}

/* ---- sampling --------------------------------------------------------------- */

/* A sample's PERF_SAMPLE_RAW record (perf.rst, "Samples"). */
struct vpmu_raw {
	uint16_t type;
	uint8_t flags, preempt_count;
	int32_t pid;
	uint32_t upc, ipc, ctr, mode;
	uint64_t count;
} __attribute__((packed));

struct smp {
	uint64_t ip;
	struct vpmu_raw raw;
};

#define RING_PAGES	256

struct ring {
	char *base;
	size_t psz;
	int samples, lost, throttle, other;
};

static int ring_map(int fd, struct ring *rb)
{
	memset(rb, 0, sizeof(*rb));
	rb->psz = sysconf(_SC_PAGESIZE);
	rb->base = mmap(NULL, (RING_PAGES + 1) * rb->psz,
			PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	return rb->base == MAP_FAILED ? -ENOMEM : 0;
}

/* Open a sampling event (sample_type IP | RAW unless @type) with a ring. */
static int open_sampling(uint64_t config, uint64_t period, uint64_t type,
			 struct ring *rb)
{
	struct perf_event_attr a;
	int fd;

	attr_init(&a, config);
	a.sample_period = period;
	a.sample_type = type ? type : PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
	fd = perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ring_map(fd, rb)) {
		close(fd);
		return -ENOMEM;
	}
	return fd;
}

static void ring_close(int fd, struct ring *rb)
{
	munmap(rb->base, (RING_PAGES + 1) * rb->psz);
	close(fd);
}

/*
 * Read the ring: up to @max samples into @s if @parse (sample_type IP |
 * RAW), counting samples, lost and throttle records.
 */
static void ring_read(struct ring *rb, struct smp *s, int max, bool parse)
{
	struct perf_event_mmap_page *pg = (void *)rb->base;
	char *data = rb->base + rb->psz, rec[1024];
	size_t dsize = RING_PAGES * rb->psz;
	uint64_t head = pg->data_head, tail = pg->data_tail, i;

	__sync_synchronize();
	while (tail < head) {
		struct perf_event_header h;

		for (i = 0; i < sizeof(h); i++)
			((char *)&h)[i] = data[(tail + i) % dsize];
		if (h.size < sizeof(h) || h.size > sizeof(rec))
			break;
		for (i = 0; i < h.size; i++)
			rec[i] = data[(tail + i) % dsize];
		tail += h.size;
		if (h.type == PERF_RECORD_LOST) {
			rb->lost++;
		} else if (h.type == PERF_RECORD_THROTTLE) {
			rb->throttle++;
		} else if (h.type != PERF_RECORD_SAMPLE) {
			rb->other++;
		} else {
			if (parse && rb->samples < max) {
				struct smp *p = &s[rb->samples];
				uint32_t rsize;

				memcpy(&p->ip, rec + 8, 8);
				memcpy(&rsize, rec + 16, 4);
				memset(&p->raw, 0xff, sizeof(p->raw));
				if (rsize >= sizeof(p->raw))
					memcpy(&p->raw, rec + 20,
					       sizeof(p->raw));
			}
			rb->samples++;
		}
	}
	pg->data_tail = tail;
}

/* The sum sample: 179 cycles, one microword each (no stalls). */
#define SUM_UOPS	179

/*
 * The micro-PC and macro PC of the @m-th microword sum executes (m >= 2):
 * the next microword of a run whose budget ends after m - 1 of them.
 */
static int nth_uword(FIXTURE_DATA(perf) *self, uint64_t m, uint32_t *upc,
		     uint32_t *ipc)
{
	if (run(self, m - 1) || self->r.stop != VPMU_RUN_BUDGET)
		return -1;
	*upc = self->r.upc;
	*ipc = self->r.ipc;
	return 0;
}

TEST_F(perf, sample_exact_upc)
{
	static const uint64_t periods[] = { 1, 2, 7, 50, 178, 179, 180 };
	struct smp s[SUM_UOPS + 1];
	uint32_t upc[SUM_UOPS + 1], ipc[SUM_UOPS + 1];
	uint64_t uops, m;
	unsigned int i;
	int k, fd;

	VL_SETUP_DONE();
	ASSERT_EQ(0, alias_config("uops", &uops));
	for (m = 2; m <= SUM_UOPS; m++)
		ASSERT_EQ(0, nth_uword(self, m, &upc[m], &ipc[m]));

	for (i = 0; i < sizeof(periods) / sizeof(periods[0]); i++) {
		uint64_t p = periods[i];
		struct ring rb;
		struct count c;
		int bad = 0;

		fd = open_sampling(uops, p, 0, &rb);
		ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
		ASSERT_EQ(0, run(self, BUDGET));
		ASSERT_EQ(0, read_count(fd, &c));
		EXPECT_EQ((uint64_t)SUM_UOPS, c.value);
		ring_read(&rb, s, SUM_UOPS + 1, true);
		EXPECT_EQ(SUM_UOPS / p, (uint64_t)rb.samples)
			TH_LOG("period %llu", (unsigned long long)p);
		EXPECT_EQ(0, rb.lost);
		for (k = 0; k < rb.samples && k <= SUM_UOPS; k++) {
			uint64_t n = (k + 1) * p;

			if (s[k].raw.count != n || s[k].raw.ctr >= MAX_CTRS)
				bad++;
			if (n < 2)
				continue;
			if (s[k].raw.upc != upc[n] || s[k].raw.ipc != ipc[n] ||
			    s[k].ip != ((uint64_t)upc[n] << 32 | ipc[n])) {
				TH_LOG("period %llu sample %d: upc 0x%x ipc 0x%x ip 0x%llx, expected upc 0x%x ipc 0x%x",
				       (unsigned long long)p, k, s[k].raw.upc,
				       s[k].raw.ipc,
				       (unsigned long long)s[k].ip,
				       upc[n], ipc[n]);
				bad++;
			}
		}
		EXPECT_EQ(0, bad);
		ring_close(fd, &rb);
	}
}

/*
 * Sum of the lines named @name over all CPUs in /proc/interrupts (one
 * per CPU: each engine has its own), or -1.
 */
static long long irq_count(const char *name)
{
	char line[1024], *tok, *save;
	long long sum = -1;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line), l = strlen(name);

		while (n && (line[n - 1] == '\n' || line[n - 1] == ' '))
			line[--n] = 0;
		if (n < l || strcmp(line + n - l, name) ||
		    (n > l && line[n - l - 1] != ' '))
			continue;
		if (sum < 0)
			sum = 0;
		strtok_r(line, " ", &save);	/* "NN:" */
		while ((tok = strtok_r(NULL, " ", &save)) &&
		       tok[0] >= '0' && tok[0] <= '9')
			sum += atoll(tok);
	}
	fclose(f);
	return sum;
}

/* Each counter raises its own line, once per wrap. */
TEST_F(perf, irq_per_counter)
{
	long long before[MAX_CTRS], after[MAX_CTRS];
	char name[32];
	uint64_t uops;
	struct ring rb;
	int i, fd, c = self->nr_counters > 1 ? 1 : 0;

	VL_SETUP_DONE();
	ASSERT_EQ(0, alias_config("uops", &uops));
	for (i = 0; i < self->nr_counters; i++) {
		snprintf(name, sizeof(name), "vpmu-ctr%d", i);
		before[i] = irq_count(name);
		ASSERT_LE(0, before[i]) TH_LOG("no %s in /proc/interrupts",
					       name);
	}
	snprintf(name, sizeof(name), "vpmu-ctr%d", self->nr_counters);
	EXPECT_EQ(-1, irq_count(name));

	fd = open_sampling(uops | ctr_config(c + 1), 10, 0, &rb);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, run(self, BUDGET));
	ring_read(&rb, NULL, 0, false);
	EXPECT_EQ(SUM_UOPS / 10, rb.samples);
	ring_close(fd, &rb);
	for (i = 0; i < self->nr_counters; i++) {
		snprintf(name, sizeof(name), "vpmu-ctr%d", i);
		after[i] = irq_count(name);
		EXPECT_EQ(i == c ? SUM_UOPS / 10 : 0, (int)(after[i] - before[i]))
			TH_LOG("%s: %lld -> %lld", name, before[i], after[i]);
	}
}

/* Every sample type: refused with EOPNOTSUPP (or EINVAL) or delivered. */
TEST_F(perf, sample_types)
{
	static const uint64_t refused[] = {
		PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_BRANCH_STACK,
		PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER,
		PERF_SAMPLE_REGS_INTR, PERF_SAMPLE_AUX,
	};
	uint64_t all = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
		       PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		       PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
		       PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
		       PERF_SAMPLE_READ | PERF_SAMPLE_RAW |
		       PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
		       PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR |
		       PERF_SAMPLE_DATA_PAGE_SIZE |
		       PERF_SAMPLE_CODE_PAGE_SIZE;
	struct perf_event_attr a;
	struct ring rb;
	unsigned int i;
	uint64_t p = 100;
	int fd, sib;

	VL_SETUP_DONE();
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		attr_init(&a, 1);
		a.sample_period = 10;
		a.sample_type = PERF_SAMPLE_IP | refused[i];
		a.sample_regs_user = a.sample_regs_intr = 1;
		a.sample_stack_user = 64;
		a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
		a.aux_sample_size = 64;
		EXPECT_EQ(-1, perf_open(&a, 0, -1, -1, 0));
		EXPECT_TRUE(errno == EOPNOTSUPP || errno == EINVAL)
			TH_LOG("sample_type 0x%llx: %s",
			       (unsigned long long)refused[i], strerror(errno));
	}
	attr_init(&a, 1);
	a.sample_period = 10;
	a.sigtrap = 1;
	a.remove_on_exec = 1;
	EXPECT_EQ(-1, perf_open(&a, 0, -1, -1, 0));

	/* Everything else at once, a group read and precise_ip 3. */
	attr_init(&a, 1);
	a.sample_period = 10;
	a.sample_type = all;
	a.precise_ip = 3;
	a.read_format |= PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	a.disabled = 1;
	fd = perf_open(&a, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	attr_init(&a, 2);
	sib = perf_open(&a, 0, -1, fd, 0);
	ASSERT_LE(0, sib);
	ASSERT_EQ(0, ring_map(fd, &rb));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, run(self, BUDGET));
	ring_read(&rb, NULL, 0, false);
	EXPECT_EQ(SUM_CYCLES / 10, (uint64_t)rb.samples);
	/* PERIOD and REFRESH work on a sampling event. */
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &p));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	ASSERT_EQ(0, run(self, BUDGET));
	close(sib);
	ring_close(fd, &rb);
}

/*
 * Periods longer than the 14-bit counter (carried over) and shorter,
 * over a long run in many chunks: floor(events / period) samples, each
 * at a multiple of the period; frequency mode and period 1 (throttled if
 * the guest is fast enough) count exactly and do not crash.
 */
TEST_F_TIMEOUT(narrow, sample_long_run, 300)
{
	static const uint64_t periods[] = { 100003, 997 };
	static struct smp s[4000];
	struct perf_event_attr a;
	uint64_t uops, cycles;
	struct ring rb;
	struct count c;
	unsigned int i;
	int k, fd, fc;

	VL_SETUP_DONE();
	if (self->f.nr_counters < 3)
		SKIP(return, "needs 3 counters");
	ASSERT_EQ(0, alias_config("uops", &uops));
	ASSERT_EQ(0, alias_config("cycles", &cycles));
	for (i = 0; i < 2; i++) {
		uint64_t p = periods[i];
		int bad = 0;

		fd = open_sampling(uops | ctr_config(3), p, 0, &rb);
		ASSERT_LE(0, fd);
		fc = open_config(uops | ctr_config(1), 0);
		ASSERT_LE(0, fc);
		ASSERT_EQ(0, run(&self->f, LONG_BUDGET));
		ASSERT_EQ(0, read_count(fc, &c));
		close(fc);
		ring_read(&rb, s, 4000, true);
		EXPECT_EQ(c.value / p, (uint64_t)rb.samples)
			TH_LOG("period %llu, %llu events",
			       (unsigned long long)p,
			       (unsigned long long)c.value);
		EXPECT_EQ(0, rb.lost);
		for (k = 0; k < rb.samples && k < 4000; k++)
			if (s[k].raw.count != (uint64_t)(k + 1) * p || s[k].raw.ctr != 2)
				bad++;
		EXPECT_EQ(0, bad);
		ASSERT_EQ(0, read_count(fd, &c));
		EXPECT_EQ(c.enabled, c.running);
		ring_close(fd, &rb);
	}

	/* Frequency mode: samples, and the count still exact. */
	attr_init(&a, cycles);
	a.freq = 1;
	a.sample_freq = 1000;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_PERIOD;
	fd = perf_open(&a, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ring_map(fd, &rb));
	ASSERT_EQ(0, run(&self->f, LONG_BUDGET));
	ASSERT_EQ(0, read_count(fd, &c));
	EXPECT_EQ(LONG_BUDGET, c.value);
	ring_read(&rb, NULL, 0, false);
	EXPECT_LT(0, rb.samples);
	TH_LOG("-F 1000: %d samples", rb.samples);
	ring_close(fd, &rb);

	/* Period 1: at most one sample per event, the count exact. */
	fd = open_sampling(cycles, 1, 0, &rb);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, run(&self->f, 200000));
	ASSERT_EQ(0, read_count(fd, &c));
	EXPECT_EQ(200000ull, c.value);
	ring_read(&rb, NULL, 0, false);
	EXPECT_GE(200000, rb.samples + rb.lost);
	TH_LOG("period 1: %d samples, %d lost records", rb.samples, rb.lost);
	ring_close(fd, &rb);
}

/* ---- the module stays while an event is open ------------------------------- */

/*
 * An open event pins the module (pmu.module): unloading fails, and works
 * once the event is closed.  The module is loaded again afterwards, with
 * default parameters, for the tests that follow.
 */
static volatile sig_atomic_t chunk_alarms;

static void on_chunk_alarm(int sig)
{
	chunk_alarms++;
}

/*
 * Interrupts stay off for a run chunk, which must be bounded in work, not
 * only in cycles: a sampling event at period 1 stops the engine on every
 * microword, and each stop runs the perf glue.  A chunk ends after 16
 * overflow stops (perf.rst, "Serialisation"), so an endless run of
 * sortloop sampling vpmu_uops at period 1, stopped by a signal (seen
 * between chunks), has run exactly 16 microwords a chunk: its count is a
 * multiple of 16.  Chunks of 5000 cycles (stall cycles included) end at
 * a multiple of 16 microwords only by chance; four runs stopped at
 * different times.
 */
TEST_F_TIMEOUT(perf, chunk_bounded_in_stops, 120)
{
	struct sigaction sa = { .sa_handler = on_chunk_alarm };
	struct itimerval it = {};
	struct vl_prog p;
	struct count c;
	struct ring rb;
	uint64_t uops;
	uint8_t *mem;
	int fd, i;

	VL_SETUP_DONE();
	ASSERT_EQ(0, alias_config("uops", &uops));
	if (vl_prog_load(&p, "build/sortloop.vprg"))
		SKIP(return, "no build/sortloop.vprg");
	mem = vl_prog_mem(&p);
	ASSERT_NE(NULL, mem);
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	fd = open_sampling(uops, 1, 0, &rb);
	ASSERT_LE(0, fd);
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
		chunk_alarms = 0;
		it.it_value.tv_usec = 20000 + 17000 * i;
		ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
		ASSERT_EQ(0, vl_run(self->dev, &p, mem, VPMU_RUN_BUDGET_MAX,
				    &self->r));
		EXPECT_EQ(1, chunk_alarms);
		ASSERT_EQ((__u32)VPMU_RUN_SIGNAL, self->r.stop);
		ASSERT_EQ(0, read_count(fd, &c));
		TH_LOG("run %d: %llu cycles, %llu microwords", i,
		       (unsigned long long)self->r.cycles,
		       (unsigned long long)c.value);
		EXPECT_LT(0ull, c.value);
		EXPECT_EQ(0ull, c.value % 16);
	}
	ring_close(fd, &rb);
	free(mem);
	vl_prog_free(&p);
}

TEST(module_busy_while_open)
{
	struct perf_event_attr a;
	int fd, k, ret = 0, tries;

	if (access(VPMU_PMU_DIR "/type", F_OK))
		SKIP(return, "no vpmu PMU");
	if (access(vl_ko(), R_OK))
		SKIP(return, "no %s to load the module again", vl_ko());

	for (k = 0; k < 2; k++) {
		/* k = 0: a per-task event; k = 1: a CPU-wide one. */
		attr_init(&a, 1);
		fd = perf_open(&a, k ? -1 : 0, k ? 0 : -1, -1, 0);
		ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
		/*
		 * In use: delete_module(O_NONBLOCK) says EWOULDBLOCK (EAGAIN),
		 * not EBUSY (kernel/module/main.c, try_stop_module()).
		 */
		EXPECT_EQ(-EAGAIN, vl_rmmod());
		close(fd);
		/* close() drops the module reference before it returns. */
		for (tries = 0; tries < 20; tries++) {
			ret = vl_rmmod();
			if (ret != -EAGAIN)
				break;
			usleep(100000);
		}
		EXPECT_EQ(0, tries);
		ASSERT_EQ(0, ret) TH_LOG("rmmod after close: %s", strerror(-ret));
		ret = vl_insmod("");
		ASSERT_EQ(0, ret) TH_LOG("insmod: %s", strerror(-ret));
	}
}

TEST_HARNESS_MAIN
