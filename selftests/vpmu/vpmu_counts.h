/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_counts.h - what the tests of counting anomalies reported by random
 * stress (issue 12) share (vpmu_counts_widths.c, vpmu_counts_task.c,
 * vpmu_counts_span.c): the events they use, the programs' counts, runs to
 * a halt, and children that run programs once let go.
 *
 * Programs come from $VPMU_SHARE: sum.s 179 microwords and 32
 * instructions, one cycle each; marks.s 35004 microwords, 18000 of them
 * in its 1000 regions (mark to mark); region.s 11,200,008 microwords,
 * 10,000,000 of them in its 100,000 regions.
 */
#ifndef VPMU_COUNTS_H
#define VPMU_COUNTS_H

#include <sys/wait.h>
#include "vpmu_test.h"
#include "vpmu_perf_lib.h"

#define VT_COUNTS_BUDGET		100000000ull

#define VT_EV_CYCLES	0
#define VT_EV_UOPS		1
#define VT_EV_INSNS	2

/* attr.config's ctr field and config1's freeze control (format/). */
#define VT_CFG_CTR(n)	((uint64_t)(n) << 20)
#define VT_C1_MARK		_BITULL(20)
#define VT_C1_FROZEN	_BITULL(21)

#define VT_MARKS_UOPS	35004ull
#define VT_MARKS_REGIONS	18000ull
#define VT_REGION_UOPS	11200008ull
#define VT_REGION_REGIONS	10000000ull

#define VT_RUN_BIN	"vpmu-run"	/* on PATH */

/* Run @p to its halt on @dev, fresh memory in @mem. */
static inline int vt_counts_run_halt(int dev, const struct vt_prog *p, uint8_t *mem)
{
	struct vpmu_run r;

	return vt_run_halt(dev, p, mem, VT_COUNTS_BUDGET, &r);
}

/*
 * A gate between this task and a child: the child says it is ready (on
 * its CPU) and waits to be let go, so that events are opened on a child
 * that is where it will run and has not run yet.  A child whose parent
 * died sees the end of the pipe and exits.
 */
struct vt_gate {
	int go[2], ready[2];
};

static inline int vt_gate_init(struct vt_gate *g)
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

static inline void vt_gate_close(struct vt_gate *g)
{
	close(g->go[0]);
	close(g->go[1]);
	close(g->ready[0]);
	close(g->ready[1]);
}

/* In the child: ready, then wait; 0 once let go. */
static inline int vt_gate_pass(struct vt_gate *g)
{
	char c;

	close(g->go[1]);
	close(g->ready[0]);
	if (write(g->ready[1], "r", 1) != 1 || read(g->go[0], &c, 1) != 1)
		return -1;
	return 0;
}

/* In the parent: wait until the child is ready; 0 or -1. */
static inline int vt_gate_ready(struct vt_gate *g)
{
	char c;

	return read(g->ready[0], &c, 1) == 1 ? 0 : -1;
}

static inline int vt_gate_open(struct vt_gate *g)
{
	return write(g->go[1], "g", 1) == 1 ? 0 : -1;
}

/*
 * Fork a child pinned to @cpu that passes @g (if any), then runs @p @runs
 * times through /dev/vpmu (or, with @exec, execs vpmu-run -n @runs on it)
 * and exits: 0 if every run halted.
 */
static inline pid_t vt_child_runs(const struct vt_prog *p, uint8_t *mem,
				  int cpu, struct vt_gate *g, int runs, bool exec)
{
	char path[512], n[16];
	pid_t pid = fork();
	int dev, i;

	if (pid)
		return pid;
	if (vt_pin(cpu) || (g && vt_gate_pass(g)))
		_exit(2);
	if (exec) {
		snprintf(n, sizeof(n), "%d", runs);
		execlp(VT_RUN_BIN, "vpmu-run", "-q", "-n", n,
		       vt_share(path, sizeof(path), "build/sum.vprg"), NULL);
		_exit(3);
	}
	dev = open(VT_DEV, O_RDWR);
	if (dev < 0)
		_exit(3);
	for (i = 0; i < runs; i++)
		if (vt_counts_run_halt(dev, p, mem))
			_exit(4);
	_exit(0);
}

static inline int vt_wait_ok(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

#endif /* VPMU_COUNTS_H */
