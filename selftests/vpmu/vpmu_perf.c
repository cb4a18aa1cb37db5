// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_perf - the "vpmu" PMU through perf_event_open()
 * (Documentation/admin-guide/perf/vpmu.rst): what an event counts and
 * where.
 *
 * Per-task events count their task's runs only and CPU-wide ones their
 * CPU's, also read while a long run goes on; ENABLE, DISABLE and RESET do
 * what perf_event_open(2) says, PERIOD and REFRESH are refused on counting
 * events; invalid configurations are refused with the documented errno; an
 * open event holds the module.  The other vpmu_perf_* files test exact
 * counts, groups, sampling, narrow counters and image changes.  Skips when
 * the PMU, /dev/vpmu or the assembled samples ($VPMU_SHARE) are missing.
 */
#define _GNU_SOURCE
#include <sys/wait.h>
#include "vpmu_perf.h"

VT_PERF_FIXTURE(perf, "sum");

/* ---- attribution: per task and per CPU ----------------------------------- */

/* A child on @cpu that runs @prog @runs times once told to go. */
static pid_t spawn(int cpu, const char *prog, int runs, int go)
{
	pid_t pid = fork();
	struct vpmu_run r;
	struct vt_prog p;
	cpu_set_t set;
	uint8_t *mem;
	char c;
	int dev, i;

	if (pid)
		return pid;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) || vt_prog_load(&p, prog))
		_exit(2);
	mem = vt_prog_mem(&p);
	if (!mem)
		_exit(2);
	dev = open(VT_DEV, O_RDWR);
	if (dev < 0 || read(go, &c, 1) != 1)
		_exit(3);
	for (i = 0; i < runs; i++)
		if (vt_run(dev, &p, mem, VT_PERF_BUDGET, &r) || r.stop != VPMU_RUN_HALT)
			_exit(4);
	_exit(0);
}

static int open_on(uint64_t config, pid_t pid, int cpu)
{
	struct perf_event_attr a;

	vt_count_attr(&a, config, 0);
	return vt_open(&a, pid, cpu, -1);
}

/*
 * Child A runs sum once on CPU 0, child B sort twice on CPU 1.  Per-task
 * events on each child count that child's runs wherever they ran;
 * CPU-wide events count the runs on their CPU, whoever ran them.
 */
TEST_F_TIMEOUT(perf, per_task_and_cpu_wide, 60)
{
	struct vt_expect sum, sort;
	uint64_t insns;
	int go[2], fa, fb, f0, f1, status;
	struct vt_count ca, cb, c0, c1;
	pid_t a, b;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	ASSERT_EQ(0, vt_expect_load("samples/sum.expect", &sum));
	ASSERT_EQ(0, vt_expect_load("samples/sort.expect", &sort));
	ASSERT_EQ(0, vt_alias_cfg("insns", &insns));
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

	ASSERT_EQ(0, vt_read_count(fa, &ca));
	ASSERT_EQ(0, vt_read_count(fb, &cb));
	ASSERT_EQ(0, vt_read_count(f0, &c0));
	ASSERT_EQ(0, vt_read_count(f1, &c1));
	/* "event insns" is the third event line of both files. */
	ASSERT_STREQ("insns", sum.ev_name[2]);
	ASSERT_STREQ("insns", sort.ev_name[2]);
	EXPECT_EQ(sum.ev_count[2], ca.value);
	EXPECT_EQ(2 * sort.ev_count[2], cb.value);
	EXPECT_EQ(sum.ev_count[2], c0.value);
	EXPECT_EQ(2 * sort.ev_count[2], c1.value);
	close(fa);
	close(fb);
	close(f0);
	close(f1);
	close(go[0]);
	close(go[1]);
}

/*
 * perf's times resolve a single short run: the event that counted the
 * 179 cycles of one sum run was enabled and running for a non-zero time,
 * the same; an event that never got its counter (counter 1 held by a
 * pinned CPU event) was enabled for a non-zero time, never running, and
 * counted nothing.  Tools tell "fully counted" from "never counted"
 * (perf stat's <not counted>) by these times: a clock that stands still
 * between ticks (the 6.1 guest's unstable sched_clock before the
 * harness's tsc=reliable) reads 0 for both, and the stress then took
 * a never-scheduled event for a miscount.
 */
TEST_F(perf, times_of_one_run)
{
	struct perf_event_attr a;
	struct vt_count c, b;
	uint64_t cfg;
	int i, fd, hold, busy;

	ASSERT_EQ(0, vt_pin(0));
	ASSERT_EQ(0, vt_alias_cfg("cycles", &cfg));
	for (i = 0; i < 20; i++) {
		fd = open_on(cfg, 0, -1);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
		ASSERT_EQ(0, vt_read_count(fd, &c));
		close(fd);
		EXPECT_EQ(VT_SUM_CYCLES, c.value);
		EXPECT_LT(0u, c.enabled) TH_LOG("run %d: enabled 0 ns", i);
		EXPECT_EQ(c.enabled, c.running);
	}

	vt_count_attr(&a, cfg | vt_ctr_config(1), 0);
	a.pinned = 1;		/* never rotated off for the task's */
	hold = vt_open(&a, -1, 0, -1);
	ASSERT_LE(0, hold);
	for (i = 0; i < 20; i++) {
		busy = open_on(cfg | vt_ctr_config(1), 0, -1);
		ASSERT_LE(0, busy);
		ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
		ASSERT_EQ(0, vt_read_count(busy, &b));
		close(busy);
		EXPECT_EQ(0u, b.value);
		EXPECT_EQ(0u, b.running);
		EXPECT_LT(0u, b.enabled) TH_LOG("busy %d: enabled 0 ns", i);
	}
	ASSERT_EQ(0, vt_read_count(hold, &c));
	EXPECT_EQ(20 * VT_SUM_CYCLES, c.value);
	close(hold);
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
	struct vt_prog p;
	struct vt_count c;
	pid_t pid;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	if (vt_prog_load(&p, "build/spin.vprg"))
		SKIP(return, "no build/spin.vprg");
	ASSERT_EQ(0, vt_alias_cfg("cycles", &cycles));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(res));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		cpu_set_t set;
		uint8_t *mem = vt_prog_mem(&p);
		char ch;

		CPU_ZERO(&set);
		CPU_SET(1, &set);
		if (!mem || sched_setaffinity(0, sizeof(set), &set) ||
		    read(go[0], &ch, 1) != 1 ||
		    vt_run(self->f.dev, &p, mem, want, &r) ||
		    write(res[1], &r.cycles, sizeof(r.cycles)) != sizeof(r.cycles))
			_exit(1);
		_exit(0);
	}
	/* cycles on the 14-bit counter for the CPU-wide event */
	fd[0] = open_on(cycles, pid, -1);
	fd[1] = open_on(cycles | vt_ctr_config(self->f.nr_counters >= 3 ? 3 : 1),
			-1, 1);
	ASSERT_LE(0, fd[0]);
	ASSERT_LE(0, fd[1]);
	ASSERT_EQ(1, write(go[1], "g", 1));
	while (waitpid(pid, &status, WNOHANG) == 0) {
		for (k = 0; k < 2; k++) {
			ASSERT_EQ(0, vt_read_count(fd[k], &c));
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
		ASSERT_EQ(0, vt_read_count(fd[k], &c));
		EXPECT_EQ(want, c.value) TH_LOG("event %d", k);
		close(fd[k]);
	}
	TH_LOG("%d reads during the run", reads);
	vt_prog_free(&p);
	close(go[0]);
	close(go[1]);
	close(res[0]);
	close(res[1]);
}

/* ---- ioctls -------------------------------------------------------------- */

TEST_F(perf, enable_disable_reset)
{
	struct vt_count c;
	uint64_t uops;
	int fd;

	ASSERT_EQ(0, vt_alias_cfg("uops", &uops));
	fd = vt_open_config(uops, 1);
	ASSERT_LE(0, fd);

	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));		/* disabled: not counted */
	ASSERT_EQ(0, vt_read_count(fd, &c));
	EXPECT_EQ(0ull, c.value);
	EXPECT_EQ(0ull, c.enabled);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));		/* disabled again */
	ASSERT_EQ(0, vt_read_count(fd, &c));
	EXPECT_EQ(2 * VT_SUM_CYCLES, c.value);	/* sum: uops = cycles */
	EXPECT_EQ(c.enabled, c.running);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, vt_read_count(fd, &c));
	EXPECT_EQ(0ull, c.value);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	/* A reset while counting drops what was counted before it. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	ASSERT_EQ(0, vt_read_count(fd, &c));
	EXPECT_EQ(VT_SUM_CYCLES, c.value);
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

	vt_count_attr(&a, 0, 0);
	a.read_format = PERF_FORMAT_ID;
	fd = vt_perf_event_open(&a, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_PERIOD, &period));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id));
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	ASSERT_EQ((ssize_t)sizeof(r), read(fd, &r, sizeof(r)));
	EXPECT_EQ(id, r.id);
	EXPECT_EQ(VT_SUM_CYCLES, r.value);
	/* Still counting after the refused ioctls. */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &id2));
	EXPECT_EQ(id, id2);
	close(fd);
}

/* ---- invalid configurations ---------------------------------------------- */

TEST_F(perf, invalid_configs)
{
	long limit = vt_tag_limit();
	int ev = vt_config_shift("event"), tag = vt_config_shift("tag");
	uint64_t bad_tag;
	struct {
		const char *what;
		uint64_t config;
		int err;
	} cases[] = {
		{ "event 10", 10, ENOENT },
		{ "event 0x100 (tag 0)", 0x100, ENOENT },
		{ "event 0x200", 0x200, ENOENT },
		{ "event 0xfff", 0xfff, ENOENT },
		{ "tag with event", (1ull << tag) | 1, EINVAL },
		{ "tag out of range", 0, EINVAL },
		{ "event 0x100 + tag out of range", 0, EINVAL },
		{ "ctr beyond nr_counters", vt_ctr_config(self->f.nr_counters + 1),
		  EINVAL },
		{ "ctr 31", vt_ctr_config(31), EINVAL },
		{ "unused bit 26", 1ull << 26, EINVAL },
		{ "unused bit 63", 1ull << 63, EINVAL },
		{ "event 0x201 (vpmu_hu's bucket 1)", 0x201, ENOENT },
	};
	struct perf_event_attr a;
	unsigned int i;
	int fd;

	ASSERT_EQ(0, ev);
	ASSERT_LE(0, tag);
	ASSERT_LT(1, limit);
	bad_tag = limit;
	if (bad_tag > VPMU_TAG_MAX)
		SKIP(return, "every tag is valid in this image");
	cases[5].config = bad_tag << tag;
	cases[6].config = 0x100 + bad_tag;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		fd = vt_open_config(cases[i].config, 0);
		EXPECT_EQ(-cases[i].err, fd) TH_LOG("%s (config %#llx)",
						    cases[i].what,
						    (unsigned long long)cases[i].config);
		if (fd >= 0)
			close(fd);
	}

	/* The largest valid of each. */
	fd = vt_open_config(((bad_tag - 1) << tag) | vt_ctr_config(self->f.nr_counters), 0);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
	fd = vt_open_config(0x100 + bad_tag - 1, 0);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);

	/* config1 is the freeze control (vpmu_freeze): reserved bits */
	vt_count_attr(&a, 1, 0);
	a.config1 = 1ull << 40;
	EXPECT_EQ(-1, vt_perf_event_open(&a, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	vt_count_attr(&a, 1, 0);
	a.config2 = 1ull << 40;
	EXPECT_EQ(-1, vt_perf_event_open(&a, 0, -1, -1, 0));
	EXPECT_EQ(EINVAL, errno);
	vt_count_attr(&a, 1, 0);
	a.exclude_host = 1;
	EXPECT_EQ(-1, vt_perf_event_open(&a, 0, -1, -1, 0));
	EXPECT_EQ(EOPNOTSUPP, errno);
}

/* ---- the module stays while an event is open ----------------------------- */

/*
 * An open event pins the module (pmu.module), of either of its PMUs:
 * unloading fails, and works once the event is closed.  The module is
 * loaded again afterwards, with default parameters, for the tests that
 * follow.
 */
TEST(module_busy_while_open)
{
	struct perf_event_attr a;
	int fd, k, ret = 0, tries;

	if (!vt_pmu_present())
		SKIP(return, "no vpmu PMU");
	if (vt_module_builtin())
		SKIP(return, VT_BUILTIN_REASON);
	if (access(vt_ko(), R_OK))
		SKIP(return, VT_NO_KO_REASON);

	for (k = 0; k < 3; k++) {
		/*
		 * k = 0: a per-task event; k = 1: a CPU-wide one; k = 2: a
		 * per-task vpmu_hu event, of a bucket of the program written.
		 */
		vt_count_attr(&a, 1, 0);
		if (k == 2) {
			ASSERT_EQ(0, vt_hu_prog("par;vpmu_uops 5"));
			vt_hu_attr(&a, 1);
		}
		fd = vt_perf_event_open(&a, k == 1 ? -1 : 0, k == 1 ? 0 : -1,
					-1, 0);
		ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
		/*
		 * In use: delete_module(O_NONBLOCK) says EWOULDBLOCK (EAGAIN),
		 * not EBUSY (kernel/module/main.c, try_stop_module()).
		 */
		EXPECT_EQ(-EAGAIN, vt_rmmod());
		close(fd);
		/* close() drops the module reference before it returns. */
		for (tries = 0; tries < 20; tries++) {
			ret = vt_rmmod();
			if (ret != -EAGAIN)
				break;
			usleep(100000);
		}
		EXPECT_EQ(0, tries);
		ASSERT_EQ(0, ret) TH_LOG("rmmod after close: %s", strerror(-ret));
		ret = vt_insmod("");
		ASSERT_EQ(0, ret) TH_LOG("insmod: %s", strerror(-ret));
	}
}

TEST_HARNESS_MAIN
