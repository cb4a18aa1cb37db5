// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_stress_exact.c - the exact workers of vpmu_stress: groups,
 * inherited events and events on a child's pid on programs whose counts
 * are known, which must come out exact.  Their sampling checks are in
 * vpmu_stress_sampling.c.  See vpmu_stress.c.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/wait.h>
#include "vpmu_stress_ops.h"
#include "vpmu_stress_pmu.h"

struct member {
	const char *name;
	uint64_t config, config1, per_run;
	bool exclude_user, exclude_kernel;
};

/*
 * 1..@max members on program @prog: under a random trigger row (then
 * insns, uops or cycles, whose spans are known) or plain (any event of
 * the program's .expect file, with exclude_* now and then); distinct
 * counter pins.  Returns the program.
 */
static int pick_members(struct vt_stress_worker *w, struct member *m, int *n, int max,
			bool allow_exclude)
{
	const struct vt_stress_info *info = w->info;
	static const char *const tnames[] = { "insns", "uops", "cycles" };
	bool used[17] = { false };
	int prog, i;

	*n = 1 + vt_stress_below(&w->r, max);
	if (vt_stress_chance(&w->r, 50)) {
		const struct vt_stress_trig *t =
			&vt_stress_trigs[vt_stress_below(&w->r, VT_STRESS_NTRIGS)];
		uint64_t c1 = vt_stress_trig_config1(info, t, false);

		prog = t->prog;
		for (i = 0; i < *n; i++) {
			int k = vt_stress_below(&w->r, 3);

			m[i].name = tnames[k];
			m[i].per_run = k ? t->uops : t->insns;
			m[i].config1 = !i || vt_stress_chance(&w->r, 50) ? c1 : 0;
		}
	} else {
		const struct vt_stress_prog *p;

		/* VT_STRESS_PROG_SUM, VT_STRESS_PROG_MARKS or VT_STRESS_PROG_CALLS */
		prog = vt_stress_below(&w->r, 3);
		p = &info->prog[prog];
		for (i = 0; i < *n; i++) {
			int k = vt_stress_below(&w->r, p->nev);

			m[i].name = p->ev_name[k];
			m[i].per_run = p->ev_count[k];
			m[i].config1 = 0;
		}
	}
	for (i = 0; i < *n; i++) {
		m[i].config = vt_stress_alias_cfg(info, m[i].name);
		m[i].exclude_user = false;
		m[i].exclude_kernel = false;
		if (allow_exclude && !m[i].config1 && vt_stress_chance(&w->r, 15)) {
			m[i].exclude_user = true;	/* all runs are user */
			m[i].per_run = 0;
		} else if (allow_exclude && vt_stress_chance(&w->r, 20)) {
			m[i].exclude_kernel = true;
		}
		if (vt_stress_chance(&w->r, 30)) {
			int c = 1 + vt_stress_below(&w->r, info->nr_counters);

			if (!used[c]) {
				used[c] = true;
				m[i].config |= vt_stress_ctr_cfg(info, c);
			}
		}
	}
	return prog;
}

static void exact_attr(const struct vt_stress_info *info, struct perf_event_attr *a,
		       const struct member *m)
{
	vt_attr_of(a, info->type, m->config, m->config1);
	a->exclude_user = m->exclude_user;
	a->exclude_kernel = m->exclude_kernel;
}

static void close_fds(struct vt_stress_worker *w, int *fds, int n)
{
	int i, first = vt_stress_chance(&w->r, 50) ? 0 : n - 1;

	/* the leader first, or last */
	if (fds[first] >= 0)
		close(fds[first]);
	for (i = 0; i < n; i++)
		if (i != first && fds[i] >= 0)
			close(fds[i]);
}

struct gread {
	uint64_t nr, enabled, running;
	struct { uint64_t value, id; } v[16];
};

/*
 * A group read of @n members with per-run counts @m after @runs runs:
 * exact when the group was on the counters all the time it was
 * enabled, all zero when it never was.
 */
static void check_group(struct vt_stress_worker *w, const char *what, int *fds,
			const struct member *m, int n, uint64_t runs)
{
	struct gread g;
	ssize_t len = read(fds[0], &g, sizeof(g));
	int failures = w->failures;
	int i;

	w->s.reads++;
	if (len != (ssize_t)(24 + 16 * n) || g.nr != (uint64_t)n) {
		vt_stress_fail(w, "%s: group read %zd bytes, nr %llu, expected %d members",
			       what, len, (unsigned long long)g.nr, n);
		return;
	}
	if (!g.running) {
		/* never on the counters (perf stat: <not counted>) */
		w->s.exact_partial++;
		for (i = 0; i < n; i++)
			if (g.v[i].value)
				vt_stress_fail(w,
					       "%s: member %d (%s): %llu counted with no time on the counters (%llu ns enabled)",
					       what, i, m[i].name,
					       (unsigned long long)g.v[i].value,
					       (unsigned long long)g.enabled);
		return;
	}
	if (g.running != g.enabled) {
		w->s.exact_partial++;
		vt_stress_log(w, "%s: on the counters %llu of %llu ns: not checked",
			      what, (unsigned long long)g.running,
			      (unsigned long long)g.enabled);
		return;
	}
	w->s.exact_full++;
	vt_stress_log(w, "%s: on the counters %llu of %llu ns", what,
		      (unsigned long long)g.running, (unsigned long long)g.enabled);
	for (i = 0; i < n; i++) {
		uint64_t id = 0;

		if (ioctl(fds[i], PERF_EVENT_IOC_ID, &id) || id != g.v[i].id)
			vt_stress_fail(w, "%s: member %d id %llu, group read says %llu",
				       what, i, (unsigned long long)id,
				       (unsigned long long)g.v[i].id);
		if (g.v[i].value != runs * m[i].per_run)
			vt_stress_fail(w,
				       "%s: member %d (%s config %#llx config1 %#llx%s%s): %llu, expected %llu x %llu = %llu",
				       what, i, m[i].name,
				       (unsigned long long)m[i].config,
				       (unsigned long long)m[i].config1,
				       m[i].exclude_user ? " u-excl" : "",
				       m[i].exclude_kernel ? " k-excl" : "",
				       (unsigned long long)g.v[i].value,
				       (unsigned long long)runs,
				       (unsigned long long)m[i].per_run,
				       (unsigned long long)(runs * m[i].per_run));
	}
	if (w->failures != failures)
		vt_stress_log_engines(w);
}

static int open_members(struct vt_stress_worker *w, const char *what, pid_t pid,
			struct member *m, int n, int *fds, bool disabled)
{
	struct perf_event_attr a;
	int i;

	for (i = 0; i < n; i++) {
		exact_attr(w->info, &a, &m[i]);
		a.read_format = VT_STRESS_RF_ALL;
		a.disabled = !i && disabled;
		fds[i] = vt_open(&a, pid, -1, i ? fds[0] : -1);
		w->s.opens++;
		if (fds[i] < 0) {
			/* 6.2+: a group that can never fit is refused */
			if (fds[i] != -EINVAL)
				vt_stress_fail(w,
					       "%s: open member %d (%s config %#llx config1 %#llx): %s",
					       what, i, m[i].name,
					       (unsigned long long)m[i].config,
					       (unsigned long long)m[i].config1,
					       vt_stress_errname(fds[i]));
			else
				vt_stress_log(w, "%s: member %d refused (EINVAL)",
					      what, i);
			close_fds(w, fds, i);
			return -1;
		}
	}
	return 0;
}

/* A per-task counting group on this task over runs of a known program. */
static void exact_group(struct vt_stress_worker *w)
{
	const struct vt_stress_info *info = w->info;
	struct member m[5];
	int fds[5], n, i, prog, runs = 1 + vt_stress_below(&w->r, 5);
	int max = info->nr_counters < 5 ? info->nr_counters : 5;
	bool disabled = vt_stress_chance(&w->r, 50);
	uint64_t counted = runs;

	prog = pick_members(w, m, &n, max, true);
	vt_stress_log(w, "exact group: %d members on %s, %d runs%s", n,
		      info->prog[prog].name, runs, disabled ? ", enabled later" : "");
	for (i = 0; i < n; i++)
		vt_stress_log(w, "  member %d: %s config %#llx config1 %#llx%s%s", i,
			      m[i].name, (unsigned long long)m[i].config,
			      (unsigned long long)m[i].config1,
			      m[i].exclude_user ? " u-excl" : "",
			      m[i].exclude_kernel ? " k-excl" : "");
	if (open_members(w, "exact group", 0, m, n, fds, disabled))
		return;
	if (disabled && ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0))
		vt_stress_fail(w, "exact group: ENABLE: %s", vt_stress_errname(errno));
	for (i = 0; i < runs; i++) {
		if (vt_stress_chance(&w->r, 30))
			vt_stress_random_affinity(w);
		if (vt_stress_chance(&w->r, 15)) {
			/* not counted: disabled around one run */
			ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
			vt_stress_run_checked(w, prog, 1000000);
			ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
			vt_stress_log(w, "  one run while disabled");
		}
		if (vt_stress_run_checked(w, prog, 1000000))
			counted = ~0ull;
		if (vt_stress_chance(&w->r, 15)) {
			ioctl(fds[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
			counted = runs - i - 1;
			vt_stress_log(w, "  reset after run %d", i + 1);
		}
	}
	if (counted != ~0ull)
		check_group(w, "exact group", fds, m, n, counted);
	close_fds(w, fds, n);
}

/*
 * A child runs @prog @runs times after a byte on @go; 0 or -1.  With
 * @fd >= 0 (an inherited event's), it then reads @fd and writes what it
 * read to @report.
 */
static pid_t spawn_runner(struct vt_stress_worker *w, int prog, int runs, int go,
			  int fd, int report)
{
	pid_t pid = fork();
	struct vt_count t;
	char c;
	int i, bad = 0;

	if (pid)
		return pid;
	if (go >= 0 && read(go, &c, 1) != 1)
		_exit(3);
	for (i = 0; i < runs; i++) {
		if (i && vt_stress_chance(&w->r, 30))
			vt_stress_random_affinity(w);
		bad |= vt_stress_run_checked(w, prog, 1000000);
	}
	if (fd >= 0 && (vt_read_count(fd, &t) ||
			write(report, &t, sizeof(t)) != sizeof(t)))
		_exit(4);
	_exit(bad ? 1 : 0);
}

/*
 * An inherited counting event: a child's runs count for the parent's fd.
 * Whether the child's copy was on the counters for all of them is what
 * the child reads through the inherited fd after its last run, where the
 * perf core brings that copy's times up to date.  The parent's read after
 * the exit cannot tell on kernels with mainline's c418d8b4d7a4 (6.19, and
 * its stable backports): a child's copy that was off the counters when
 * the child exited hands the parent its times as of its last
 * schedule-in, so time enabled can equal time running though runs went
 * uncounted (upstream/perf-exit-child-times).
 */
static void exact_inherit(struct vt_stress_worker *w)
{
	struct member m[1];
	struct perf_event_attr a;
	int n, prog, runs = 1 + vt_stress_below(&w->r, 4), fd, status = 0, rep[2];
	struct vt_count c, t;
	pid_t pid;

	prog = pick_members(w, m, &n, 1, false);
	exact_attr(w->info, &a, &m[0]);
	a.inherit = 1;
	a.read_format = VT_RF_TIMES;
	vt_stress_log(w, "exact inherit: %s config %#llx config1 %#llx, child runs %s %d times",
		      m[0].name, (unsigned long long)m[0].config,
		      (unsigned long long)m[0].config1, w->info->prog[prog].name, runs);
	fd = vt_open(&a, 0, -1, -1);
	w->s.opens++;
	if (fd < 0) {
		vt_stress_fail(w, "exact inherit: open: %s", vt_stress_errname(fd));
		return;
	}
	if (pipe(rep)) {
		vt_stress_fail(w, "exact inherit: pipe: %s", vt_stress_errname(errno));
		close(fd);
		return;
	}
	pid = spawn_runner(w, prog, runs, -1, fd, rep[1]);
	close(rep[1]);
	if (pid < 0) {
		vt_stress_fail(w, "exact inherit: fork: %s", vt_stress_errname(errno));
		goto out;
	}
	if (waitpid(pid, &status, 0) != pid || status ||
	    read(rep[0], &t, sizeof(t)) != sizeof(t)) {
		vt_stress_fail(w, "exact inherit: child status %#x", status);
		goto out;
	}
	if (vt_read_count(fd, &c)) {
		vt_stress_fail(w, "exact inherit: read: %s", vt_stress_errname(errno));
	} else if (c.value != t.value) {
		vt_stress_fail(w, "exact inherit: %s: %llu after the exit, the child read %llu",
			       m[0].name, (unsigned long long)c.value,
			       (unsigned long long)t.value);
	} else if (!t.running) {
		w->s.exact_partial++;
		if (t.value)
			vt_stress_fail(w,
				       "exact inherit: %s: %llu counted with no time on the counters",
				       m[0].name, (unsigned long long)t.value);
	} else if (t.running != t.enabled) {
		w->s.exact_partial++;
	} else {
		w->s.exact_full++;
		if (t.value != runs * m[0].per_run)
			vt_stress_fail(w,
				       "exact inherit: %s config %#llx config1 %#llx: %llu, expected %d x %llu",
				       m[0].name, (unsigned long long)m[0].config,
				       (unsigned long long)m[0].config1,
				       (unsigned long long)t.value, runs,
				       (unsigned long long)m[0].per_run);
	}
out:
	close(rep[0]);
	close(fd);
}

/* A group on a child's pid, read after the child has exited. */
static void exact_child(struct vt_stress_worker *w)
{
	const struct vt_stress_info *info = w->info;
	struct member m[5];
	int fds[5], n, prog, runs = 1 + vt_stress_below(&w->r, 4), go[2], status = 0;
	int max = info->nr_counters < 5 ? info->nr_counters : 5;
	pid_t pid;

	prog = pick_members(w, m, &n, max, true);
	if (pipe(go))
		return;
	pid = spawn_runner(w, prog, runs, go[0], -1, -1);
	if (pid < 0) {
		/* (no child: kill(-1) below would signal every process) */
		vt_stress_fail(w, "exact child: fork: %s", vt_stress_errname(errno));
		close(go[0]);
		close(go[1]);
		return;
	}
	vt_stress_log(w, "exact child %d: %d members, %s %d times", pid, n,
		      info->prog[prog].name, runs);
	if (!open_members(w, "exact child", pid, m, n, fds, false)) {
		if (write(go[1], "g", 1) != 1)
			vt_stress_fail(w, "exact child: pipe");
		if (waitpid(pid, &status, 0) != pid || status)
			vt_stress_fail(w, "exact child: status %#x", status);
		else
			check_group(w, "exact child", fds, m, n, runs);
		close_fds(w, fds, n);
	} else {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	close(go[0]);
	close(go[1]);
}

void vt_stress_exact_op(struct vt_stress_worker *w)
{
	static const struct vt_stress_op ops[] = {
		{ 35, exact_group }, { 65, vt_stress_exact_sampling },
		{ 77, exact_inherit }, { 89, exact_child },
		{ 100, vt_stress_cpu_sampling },
	};

	vt_stress_pick_op(w, ops, ARRAY_SIZE(ops));
}
