// SPDX-License-Identifier: GPL-2.0
/*
 * perf_core_child_times - a perf core bug that vpmu's few counters expose:
 * an inherited event that is off the PMU when its task exits hands its
 * parent the times of its last schedule-in, not those of the exit
 * (upstream/perf-exit-child-times; found by vpmu_stress).
 *
 * The parent, on CPU 0, opens a vpmu counting event with inherit on
 * itself, and on CPU 1 as many CPU-wide vpmu events as there are
 * counters: CPU events go on before a task's, so a task's copy never gets
 * a counter there.  ROUNDS times, a child on CPU 1 runs a program, reads
 * the inherited fd (the core brings every copy's times up to date for a
 * read), sleeps (a schedule-in follows), runs the program RUNS times,
 * timing them, and exits.  The child's copy was off the counters
 * throughout, so time enabled minus time running must grow across those
 * runs: the parent's read after the exit must show at least half their
 * time more of it than the child's read did, every round.  On a kernel
 * with mainline's c418d8b4d7a4 ("perf/core: Fix missing read event
 * generation on task exit", 6.19, and its stable backports) and without
 * the fix, it grows only by what came before the child's last
 * schedule-in: in a round with no other task on CPU 1 during the runs,
 * by nothing.  The PMU's multiplexing interval is set to a minute
 * meanwhile: every rotation is a schedule-in attempt too.
 *
 * Needs vpmu, CPUs 0 and 1, and CPU-wide events (root, or
 * perf_event_paranoid <= 0).  Prints TAP; exits 0 when it passed, 1 when
 * it failed, 4 when it cannot run here.  Installed beside the tests and
 * run on purpose: Debian's 7.3 kernels fail it.
 */
#define _GNU_SOURCE
#include <sys/wait.h>
#include <time.h>
#include "vpmu_lib.h"
#include "vpmu_perf_lib.h"

#define NAME	"inherited_child_times_at_exit"
#define ROUNDS	20
#define RUNS	50

/* What the child reports: its read, then how long its last runs took. */
struct report {
	struct vt_count t;
	uint64_t runs_ns;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int skip(const char *why)
{
	printf("ok 1 %s # SKIP %s\n", NAME, why);
	return 4;
}

/*
 * The child, on CPU 1: a run, a read of @fd, a sleep, RUNS runs; what it
 * read and how long the runs took go to @report.
 */
static void child(int fd, int report)
{
	struct vpmu_run r;
	struct vt_prog p;
	struct report rep;
	uint8_t *mem;
	int dev, i;

	if (vt_pin(1) || vt_prog_get(&p, &mem, "sum"))
		_exit(2);
	dev = open(VT_DEV, O_RDWR);
	if (dev < 0 || vt_run_halt(dev, &p, mem, 1000000, &r))
		_exit(3);
	if (vt_read_count(fd, &rep.t))
		_exit(4);
	usleep(2000);
	rep.runs_ns = now_ns();
	for (i = 0; i < RUNS; i++)
		if (vt_run_halt(dev, &p, mem, 1000000, &r))
			_exit(5);
	rep.runs_ns = now_ns() - rep.runs_ns;
	if (write(report, &rep, sizeof(rep)) != sizeof(rep))
		_exit(6);
	_exit(0);
}

int main(void)
{
	long type = vt_type(), nr = vt_pmu_long("caps/nr_counters");
	int fd, cpu_fds[64], rep[2], status = 0, i, round, bad = 0, ret = 1;
	struct perf_event_attr a;
	struct report t;
	struct vt_count c;
	char mux[32];
	uint64_t grew;
	pid_t pid;

	printf("TAP version 13\n1..1\n");
	if (type < 0 || nr < 1 || nr > 64)
		return skip("no vpmu PMU");
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || vt_pin(0))
		return skip("needs CPUs 0 and 1");
	vt_attr_of(&a, type, 0, 0);	/* cycles */
	for (i = 0; i < nr; i++) {
		cpu_fds[i] = vt_open(&a, -1, 1, -1);
		if (cpu_fds[i] < 0)
			return skip("no CPU-wide events here (root, or perf_event_paranoid <= 0)");
	}
	if (vt_pmu_read("perf_event_mux_interval_ms", mux, sizeof(mux)) < 0 ||
	    vt_pmu_write("perf_event_mux_interval_ms", "60000"))
		return skip("cannot set the PMU's multiplexing interval");
	a.inherit = 1;
	a.read_format = VT_RF_TIMES;
	fd = vt_open(&a, 0, -1, -1);
	if (fd < 0 || pipe(rep)) {
		vt_pmu_write("perf_event_mux_interval_ms", mux);
		return skip("cannot open the inherited event");
	}

	for (round = 0; round < ROUNDS; round++) {
		pid = fork();
		if (!pid)
			child(fd, rep[1]);
		if (pid < 0 || waitpid(pid, &status, 0) != pid || status ||
		    read(rep[0], &t, sizeof(t)) != sizeof(t) ||
		    vt_read_count(fd, &c)) {
			printf("# round %d: the child or a read failed (status %#x)\n",
			       round, status);
			bad++;
			break;
		}
		grew = (c.enabled - c.running) - (t.t.enabled - t.t.running);
		if (grew >= t.runs_ns / 2)
			continue;
		printf("# round %d: off the counters %llu ns since the child's read;\n",
		       round, (unsigned long long)grew);
		printf("#   its last %d runs took %llu ns\n", RUNS,
		       (unsigned long long)t.runs_ns);
		bad++;
	}
	close(rep[1]);
	if (bad)
		printf("# %d of %d rounds: the child's last runs are missing from time enabled:\n"
		       "# the perf core synced its copy before updating its times\n",
		       bad, ROUNDS);
	else
		ret = 0;
	vt_pmu_write("perf_event_mux_interval_ms", mux);
	printf("%sok 1 %s\n", ret ? "not " : "", NAME);
	return ret;
}
