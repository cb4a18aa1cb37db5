// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_memcg - what a user without privileges makes the kernel allocate
 * through /dev/vpmu is charged to that user's memory cgroup
 * (Documentation/admin-guide/perf/vpmu.rst, "/dev/vpmu").
 *
 * Each test forks a child that joins a fresh memory cgroup with a limit,
 * drops to nobody (uid and gid 65534, no capabilities) and runs programs
 * as such a user can.  A run whose memory is over the limit fails with
 * ENOMEM, leaving the caller's memory, the cgroup's usage and the file's
 * saved program as they were, and without the OOM killer or a warning;
 * the same run under the limit gives the program's exact result; an
 * endless run stops at the caller's signal.
 *
 * On recent kernels (7.3; not 6.1 or 6.12) vmalloc() hands the pages of
 * an allocation that failed part-way to a work item to free (mm/vmalloc.c,
 * defer_vm_area_cleanup()), so the cgroup's usage comes back a little
 * after the ENOMEM, not with it; meanwhile the cgroup is at its limit,
 * where any allocation charged to it (a struct file, a page of stack)
 * calls the OOM killer.  The children of the ENOMEM tests run SCHED_FIFO
 * on one CPU, where that work cannot run before they sleep: the window is
 * always there, and the tests wait it out without allocating
 * (usage_back()), as a caller at its limit must.  Skips without
 * /dev/vpmu, the sample programs, or a cgroup v2 hierarchy with the
 * memory controller.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include "vpmu_test.h"

#define CG_ROOT		"/sys/fs/cgroup"
#define LIMIT		(8u << 20)	/* the cgroup's memory.max */
#define SMALL		(1u << 20)	/* a run's memory well under it */
/*
 * How far memory.current may stay above its value before a call that
 * frees all it allocated: the memcg's per-CPU charge stocks keep what
 * they pre-charged, a batch of 64 pages (256 KiB) on each CPU the caller
 * ran on, and the test's own pages come and go.  A run's memory left
 * charged would be 16 MiB.
 */
#define SLACK		(1u << 20)
#define NOBODY		65534
/* as_user()'s flags: the child runs SCHED_FIFO, pinned to its CPU */
#define AS_FIFO		1

FIXTURE(memcg) {
	char dir[64];
	struct vt_prog p;
};

/* Write @val to the cgroup file @dir/@name; 0 or -errno. */
static int cg_write(const char *dir, const char *name, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return vt_write_file(path, val);
}

/*
 * @dir/@name opened to be read again and again with cg_pread(); the fd,
 * or -1.
 */
static int cg_open(const char *dir, const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return open(path, O_RDONLY | O_CLOEXEC);
}

/*
 * The number in the file @fd (cg_open()), or -1.  The first read gives
 * the file its buffer; the next ones allocate nothing.
 */
static long long cg_pread(int fd)
{
	char buf[64];
	ssize_t n;

	n = pread(fd, buf, sizeof(buf) - 1, 0);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return strtoll(buf, NULL, 10);
}

/* The count of @key in @dir/memory.events ("oom", "max", ...), or -1. */
static long long cg_event(const char *dir, const char *key)
{
	char path[128], k[32];
	long long v, ret = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/memory.events", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%31s %lld", k, &v) == 2)
		if (!strcmp(k, key))
			ret = v;
	fclose(f);
	return ret;
}

/* cgroup v2 at CG_ROOT (mounted if nothing is there), memory delegated. */
static int cg_prepare(void)
{
	char buf[256] = "";
	FILE *f;

	if (access(CG_ROOT "/cgroup.controllers", F_OK) &&
	    mount("cgroup2", CG_ROOT, "cgroup2", 0, NULL))
		return -1;
	f = fopen(CG_ROOT "/cgroup.controllers", "r");
	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	if (!strstr(buf, "memory"))
		return -1;
	return cg_write(CG_ROOT, "cgroup.subtree_control", "+memory");
}

FIXTURE_SETUP(memcg)
{
	self->dir[0] = 0;
	if (!vt_pmu_present())
		SKIP(return, "no vpmu PMU");
	if (access(VT_DEV, F_OK))
		SKIP(return, "no %s", VT_DEV);
	if (getuid())
		SKIP(return, "needs root to make the cgroup and drop to nobody");
	if (vt_prog_load(&self->p, "build/sum.vprg"))
		SKIP(return, "no valid build/sum.vprg in $VPMU_SHARE");
	if (cg_prepare())
		SKIP(return, "no cgroup v2 with the memory controller");
	snprintf(self->dir, sizeof(self->dir), CG_ROOT "/vpmu_memcg.%d",
		 getpid());
	ASSERT_EQ(0, mkdir(self->dir, 0755));
}

FIXTURE_TEARDOWN(memcg)
{
	if (self->dir[0])
		rmdir(self->dir);
	vt_prog_free(&self->p);
}

/*
 * In the child: join the cgroup (limit @limit bytes) and become nobody;
 * 0, or the exit status that says which step failed.
 */
static int become_user(const char *dir, unsigned int limit)
{
	char v[32];

	snprintf(v, sizeof(v), "%u", limit);
	if (cg_write(dir, "memory.max", v))
		return 10;
	snprintf(v, sizeof(v), "%d", getpid());
	if (cg_write(dir, "cgroup.procs", v))
		return 11;
	if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
		return 12;
	return 0;
}

/* In the child: SCHED_FIFO on the CPU it runs on; 0 or 13. */
static int become_fifo(void)
{
	struct sched_param sp = { .sched_priority = 1 };

	if (vt_pin(sched_getcpu()) || sched_setscheduler(0, SCHED_FIFO, &sp))
		return 13;
	return 0;
}

/*
 * Fork, run @fn as nobody in @dir's cgroup (@flags: AS_FIFO); its exit
 * status, or -1.
 */
static int as_user(const char *dir, unsigned int limit, int flags,
		   int (*fn)(const char *dir, const struct vt_prog *p,
			     uint8_t *big),
		   const struct vt_prog *p)
{
	pid_t pid;
	int st;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		uint8_t *big;
		int ret;

		/*
		 * The caller's own buffer is charged before it joins, to
		 * the cgroup it comes from: only what the kernel allocates
		 * for the run counts against the limit.
		 */
		if (posix_memalign((void **)&big, 8, VPMU_PROG_MEM_MAX))
			_exit(9);
		memset(big, 0, VPMU_PROG_MEM_MAX);
		memcpy(big, p->data, p->h.load_size);
		ret = (flags & AS_FIFO) ? become_fifo() : 0;
		if (!ret)
			ret = become_user(dir, limit);
		_exit(ret ? ret : fn(dir, p, big));
	}
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	if (WIFSIGNALED(st))
		return 100 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

/* sum.vprg in @size bytes of @mem, to its halt; 0 or -errno. */
static int run_sum(int fd, const struct vt_prog *p, uint8_t *mem,
		   uint32_t size, struct vpmu_run *r)
{
	vt_run_init(r, p, mem, 1000000);
	r->mem_size = size;
	return ioctl(fd, VPMU_IOC_RUN, r) ? -errno : 0;
}

/*
 * memory.current (@cur, cg_open()) back within SLACK of @before within ten
 * seconds; says so on stderr if not.  What a refused run allocated is
 * uncharged a little after the call returns (the deferred free, above):
 * on 7.3 one read right after it found 5.4 MB more.  Allocates nothing
 * while it waits, and sleeps, which lets the freeing work run.  A leak
 * would stay.
 */
static bool usage_back(int cur, long long before)
{
	long long now = -1;
	int i;

	for (i = 0; i < 500; i++) {
		now = cg_pread(cur);
		if (now >= 0 && now <= before + SLACK)
			return true;
		usleep(20000);
	}
	fprintf(stderr, "# memory.current %lld, %lld before\n", now, before);
	return false;
}

/*
 * Over the limit: ENOMEM, nothing written back, usage as before; under
 * it: the program's result, then usage as before again.
 */
static int run_over_limit(const char *dir, const struct vt_prog *p,
			  uint8_t *big)
{
	long long before, oom;
	struct vpmu_run r;
	uint8_t head[64];
	int fd, cur;

	fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	cur = cg_open(dir, "memory.current");
	if (fd < 0 || cur < 0)
		return 20;
	oom = cg_event(dir, "oom");
	before = cg_pread(cur);
	if (before < 0 || oom < 0)
		return 21;
	memcpy(head, big, sizeof(head));
	if (run_sum(fd, p, big, VPMU_PROG_MEM_MAX, &r) != -ENOMEM)
		return 22;
	if (memcmp(head, big, sizeof(head)) || r.stop || r.cycles)
		return 23;
	if (!usage_back(cur, before))
		return 24;
	if (run_sum(fd, p, big, SMALL, &r) || r.stop != VPMU_RUN_HALT ||
	    r.regs[2] != VT_SUM_R2)
		return 25;
	if (!usage_back(cur, before))
		return 26;
	/* no OOM kill was asked for: the limit refused the run itself */
	if (cg_event(dir, "oom") != oom)
		return 27;
	close(cur);
	close(fd);
	return 0;
}

TEST_F(memcg, run_memory_charged)
{
	EXPECT_EQ(0, as_user(self->dir, LIMIT, AS_FIFO, run_over_limit,
			     &self->p));
}

/*
 * A run stopped by its budget keeps its program on the file (its context
 * charged); a run refused over the limit leaves it there, and resuming
 * it, once the refused run's memory is back, finishes the program
 * exactly.
 */
static int resume_under_limit(const char *dir, const struct vt_prog *p,
			      uint8_t *big)
{
	struct vpmu_run r;
	long long before;
	uint64_t first;
	int fd, cur;

	fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	cur = cg_open(dir, "memory.current");
	if (fd < 0 || cur < 0)
		return 20;
	vt_run_init(&r, p, big, 50);
	r.mem_size = SMALL;
	if (ioctl(fd, VPMU_IOC_RUN, &r) || r.stop != VPMU_RUN_BUDGET)
		return 30;
	first = r.cycles;
	before = cg_pread(cur);
	if (before < 0)
		return 21;
	if (run_sum(fd, p, big, VPMU_PROG_MEM_MAX, &r) != -ENOMEM)
		return 31;
	if (!usage_back(cur, before))
		return 24;
	vt_run_init(&r, p, big, 1000000);
	r.mem_size = SMALL;
	r.flags = VPMU_RUN_F_RESUME;
	if (ioctl(fd, VPMU_IOC_RUN, &r) || r.stop != VPMU_RUN_HALT ||
	    r.regs[2] != VT_SUM_R2 || first + r.cycles != VT_SUM_CYCLES)
		return 32;
	close(cur);
	close(fd);
	return 0;
}

TEST_F(memcg, resume_kept)
{
	EXPECT_EQ(0, as_user(self->dir, LIMIT, AS_FIFO, resume_under_limit,
			     &self->p));
}

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	alarms++;
}

/*
 * One call's kernel time is the caller's to end: an endless run of
 * spin.vprg by nobody stops at its timer's signal (VPMU_RUN_SIGNAL).
 */
static int endless_run(const char *dir, const struct vt_prog *unused,
		       uint8_t *big)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { 0, 300000 } };
	struct vt_prog p;
	struct vpmu_run r;
	int fd;

	if (vt_prog_load(&p, "build/spin.vprg"))
		return 40;
	memset(big, 0, p.h.mem_size);
	memcpy(big, p.data, p.h.load_size);
	fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return 20;
	if (sigaction(SIGALRM, &sa, NULL) || setitimer(ITIMER_REAL, &it, NULL))
		return 41;
	vt_run_init(&r, &p, big, VPMU_RUN_BUDGET_MAX);
	if (ioctl(fd, VPMU_IOC_RUN, &r))
		return 42;
	if (alarms != 1 || r.stop != VPMU_RUN_SIGNAL || !r.cycles)
		return 43;
	close(fd);
	vt_prog_free(&p);
	return 0;
}

TEST_F_TIMEOUT(memcg, signal_ends_call, 120)
{
	EXPECT_EQ(0, as_user(self->dir, LIMIT, 0, endless_run, &self->p));
}

TEST_HARNESS_MAIN
