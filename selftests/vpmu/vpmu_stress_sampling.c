// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_stress_sampling.c - the sampling checks of the exact workers of
 * vpmu_stress: samples + lost = floor(count / period), per task with each
 * sample's raw count the next multiple of the period, and CPU-wide.  See
 * vpmu_stress.c.
 */
#define _GNU_SOURCE
#include "vpmu_stress_ops.h"
#include "vpmu_stress_pmu.h"

#define MAX_SAMPLES_PER_TICK 400	/* DIV_ROUND_UP(100000, HZ), HZ <= 250 */

/* One sampling leader's case: its program, event and period. */
struct vt_sampling_case {
	int prog, runs;
	const char *name;
	uint64_t per_run, total, period, cfg;
	bool freeze_on_ovf;
};

/* The read_format's three values. */
struct vt_sampling_read {
	uint64_t value, enabled, running;
};

/*
 * The leader's attributes for case @sc, its period raised to stay under
 * the throttle limit, maybe pinned to a counter, maybe user only.
 */
static void sampling_attr(struct vt_stress_worker *w,
			  struct vt_sampling_case *sc,
			  struct perf_event_attr *a)
{
	const struct vt_stress_info *info = w->info;
	uint64_t min;

	min = sc->total / MAX_SAMPLES_PER_TICK + 1;
	if (sc->period < min)
		sc->period = min;
	if (vt_stress_chance(&w->r, 60))
		sc->cfg |= vt_stress_ctr_cfg(info, 1 + vt_stress_below(&w->r,
							info->nr_counters));
	vt_attr_of(a, info->type, sc->cfg, 0);
	if (sc->freeze_on_ovf) {
		uint64_t c[3] = { 0, 0, 0 };

		a->config1 = vt_stress_put(info, c, "freeze_on_ovf", 1);
	}
	a->sample_period = sc->period;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	a->exclude_kernel = vt_stress_chance(&w->r, 30);
}

/*
 * The leader's count @c after its runs (exact if it was on the counters
 * all along, nothing if never) and its samples in @rb: samples + lost =
 * floor(count / period).
 */
static void sampling_check(struct vt_stress_worker *w,
			   const struct vt_sampling_case *sc,
			   const struct vt_sampling_read *c,
			   const struct vt_stress_ring *rb, int fd)
{
	const struct vt_stress_prog *p = &w->info->prog[sc->prog];

	w->s.samples += rb->vp.samples;
	w->s.lost += rb->vp.lost;
	w->s.sample_checks++;
	vt_stress_log(w, "  count %llu, %llu samples, %llu lost, on the counters %llu of %llu ns",
		      (unsigned long long)c->value,
		      (unsigned long long)rb->vp.samples,
		      (unsigned long long)rb->vp.lost,
		      (unsigned long long)c->running,
		      (unsigned long long)c->enabled);
	if (!c->running) {
		/* never on the counters (perf stat: <not counted>) */
		w->s.exact_partial++;
		if (c->value)
			vt_stress_fail(w,
				       "exact sampling: %s on %s: %llu counted with no time on the counters",
				       sc->name, p->name,
				       (unsigned long long)c->value);
	} else if (c->running == c->enabled) {
		w->s.exact_full++;
		if (c->value != sc->total) {
			vt_stress_fail(w,
				       "exact sampling: %s on %s: count %llu, expected %d x %llu = %llu (on the counters %llu of %llu ns)",
				       sc->name, p->name,
				       (unsigned long long)c->value,
				       sc->runs, (unsigned long long)sc->per_run,
				       (unsigned long long)sc->total,
				       (unsigned long long)c->running,
				       (unsigned long long)c->enabled);
			vt_stress_log_engines(w);
			vt_stress_probe_event(w, fd, sc->prog);
		}
	} else {
		w->s.exact_partial++;
	}
	if (rb->vp.samples + rb->vp.lost != c->value / sc->period)
		vt_stress_fail(w,
			       "exact sampling: %s period %llu config %#llx%s: %llu samples + %llu lost, expected floor(%llu / %llu) = %llu",
			       sc->name, (unsigned long long)sc->period,
			       (unsigned long long)sc->cfg,
			       sc->freeze_on_ovf ? " freeze_on_ovf" : "",
			       (unsigned long long)rb->vp.samples,
			       (unsigned long long)rb->vp.lost,
			       (unsigned long long)c->value,
			       (unsigned long long)sc->period,
			       (unsigned long long)(c->value / sc->period));
}

/* The leader @fd and its member @mem (if any) closed, either first. */
static void close_leader_member(struct vt_stress_worker *w, int fd, int mem)
{
	if (vt_stress_chance(&w->r, 50)) {
		close(fd);
		if (mem >= 0)
			close(mem);
	} else {
		if (mem >= 0)
			close(mem);
		close(fd);
	}
}

/*
 * A sampling leader (IP | RAW, maybe freeze_on_ovf, maybe counting
 * members) on this task: exact count, samples + lost = floor(count / period), each
 * sample's raw count the next multiple of the period.  The period keeps
 * the samples under one window's throttle limit even if every run fell in
 * one window, so throttling cannot drop any.
 */
void vt_stress_exact_sampling(struct vt_stress_worker *w)
{
	const struct vt_stress_info *info = w->info;
	static const char *const names[] = { "uops", "cycles", "insns",
					     "tag1", "tag2" };
	struct vt_sampling_case sc;
	struct perf_event_attr a;
	struct vt_stress_ring rb;
	struct vt_sampling_read c;
	int fd, mem = -1, i, ret;

	sc.prog = vt_stress_below(&w->r, 3);
	sc.runs = 1 + vt_stress_below(&w->r, 6);
	sc.name = names[vt_stress_below(&w->r, 5)];
	sc.per_run = vt_stress_expect_of(info, sc.prog, sc.name);
	sc.total = sc.runs * sc.per_run;
	sc.period = vt_stress_random_period(&w->r);
	sc.cfg = vt_stress_alias_cfg(info, sc.name);
	sc.freeze_on_ovf = vt_stress_chance(&w->r, 25);
	sampling_attr(w, &sc, &a);
	vt_stress_log(w, "exact sampling: %s config %#llx%s period %llu, %d runs of %s",
		      sc.name, (unsigned long long)sc.cfg,
		      sc.freeze_on_ovf ? " freeze_on_ovf" : "",
		      (unsigned long long)sc.period, sc.runs,
		      info->prog[sc.prog].name);
	fd = vt_open(&a, 0, -1, -1);
	w->s.opens++;
	if (fd < 0) {
		vt_stress_fail(w, "exact sampling: open: %s", vt_stress_errname(fd));
		return;
	}
	vt_stress_log(w, "  opened on cpu %d", sched_getcpu());
	if (vt_stress_chance(&w->r, 40)) {	/* a counting member */
		vt_attr_of(&a, info->type, vt_stress_alias_cfg(info, "cycles"), 0);
		mem = vt_open(&a, 0, -1, fd);
		if (mem < 0 && mem != -EINVAL)
			vt_stress_fail(w, "exact sampling: member: %s",
				       vt_stress_errname(mem));
	}
	ret = vt_stress_ring_map(fd, &rb, 64);
	if (ret) {
		vt_stress_fail(w, "exact sampling: mmap: %s", vt_stress_errname(ret));
		goto out;
	}
	rb.period = sc.period;
	for (i = 0; i < sc.runs; i++) {
		if (vt_stress_chance(&w->r, 30))
			vt_stress_random_affinity(w);
		vt_stress_run_checked(w, sc.prog, 1000000);
		vt_stress_ring_drain(w, &rb, true);
	}
	if (read(fd, &c, sizeof(c)) != sizeof(c)) {
		vt_stress_fail(w, "exact sampling: read: %s", vt_stress_errname(errno));
		goto out;
	}
	vt_stress_ring_drain(w, &rb, true);
	sampling_check(w, &sc, &c, &rb, fd);
out:
	vt_stress_ring_unmap(&rb);
	close_leader_member(w, fd, mem);
}

/*
 * A CPU-wide sampling event: whoever runs on that CPU, samples + lost
 * = floor(count / period), read after DISABLE.  It is opened disabled
 * and enabled once its ring is mapped, as perf record does: enabled
 * before, it would sample the other workers' runs on that CPU into no
 * buffer, and the perf core drops such samples without a trace (no
 * PERF_RECORD_LOST) while the count keeps their events.
 */
void vt_stress_cpu_sampling(struct vt_stress_worker *w)
{
	const struct vt_stress_info *info = w->info;
	static const uint64_t periods[] = { 5003, 20011, 100003 };
	int cpu = vt_stress_below(&w->r, info->ncpus), fd, i;
	int runs = 1 + vt_stress_below(&w->r, 4);
	uint64_t period = periods[vt_stress_below(&w->r, 3)];
	uint64_t cfg = vt_stress_alias_cfg(info, vt_stress_chance(&w->r, 50) ?
					   "uops" : "cycles");
	struct perf_event_attr a;
	struct { uint64_t value, enabled, running; } c;
	struct vt_stress_ring rb;
	cpu_set_t set;

	if (vt_stress_chance(&w->r, 50))
		cfg |= vt_stress_ctr_cfg(info, 1 + vt_stress_below(&w->r, info->nr_counters));
	vt_attr_of(&a, info->type, cfg, 0);
	a.sample_period = period;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.disabled = 1;
	fd = vt_open(&a, -1, cpu, -1);
	w->s.opens++;
	vt_stress_log(w, "cpu sampling: cpu %d config %#llx period %llu: %s", cpu,
		      (unsigned long long)cfg, (unsigned long long)period,
		      fd < 0 ? vt_stress_errname(fd) : "ok");
	if (fd < 0) {
		if (fd != -ENODEV)
			vt_stress_fail(w, "cpu sampling: open: %s", vt_stress_errname(fd));
		return;
	}
	if (vt_stress_ring_map(fd, &rb, 128)) {
		vt_stress_fail(w, "cpu sampling: mmap: %s", vt_stress_errname(errno));
		close(fd);
		return;
	}
	rb.period = period;
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		vt_stress_fail(w, "cpu sampling: ENABLE: %s", vt_stress_errname(errno));
		vt_stress_ring_unmap(&rb);
		close(fd);
		return;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (i = 0; i < runs; i++) {
		vt_stress_run_checked(w, VT_STRESS_PROG_SORTLOOP, 50000);
		vt_stress_ring_drain(w, &rb, false);
	}
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
		vt_stress_fail(w, "cpu sampling: DISABLE: %s", vt_stress_errname(errno));
	usleep(10000);
	vt_stress_ring_drain(w, &rb, false);
	if (read(fd, &c, sizeof(c)) != sizeof(c)) {
		vt_stress_fail(w, "cpu sampling: read: %s", vt_stress_errname(errno));
	} else {
		w->s.sample_checks++;
		w->s.samples += rb.vp.samples;
		w->s.lost += rb.vp.lost;
		vt_stress_log(w, "  count %llu, %llu samples, %llu lost",
			      (unsigned long long)c.value,
			      (unsigned long long)rb.vp.samples,
			      (unsigned long long)rb.vp.lost);
		if (rb.vp.samples + rb.vp.lost != c.value / period)
			vt_stress_fail(w,
				       "cpu sampling: cpu %d config %#llx period %llu: %llu samples + %llu lost, expected floor(%llu / %llu) = %llu",
				       cpu, (unsigned long long)cfg,
				       (unsigned long long)period,
				       (unsigned long long)rb.vp.samples,
				       (unsigned long long)rb.vp.lost,
				       (unsigned long long)c.value,
				       (unsigned long long)period,
				       (unsigned long long)(c.value / period));
	}
	vt_stress_ring_unmap(&rb);
	close(fd);
}
