// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_stress_lib.c - what every worker of vpmu_stress uses: its log and
 * failures, runs and their checks, affinity, and sample rings checked
 * as they are read.  The bottom of vpmu_stress: it uses no other file of
 * it (vpmu_stress.c lists them).
 */
#define _GNU_SOURCE
#include "vpmu_stress_lib.h"

/* ---- logging ------------------------------------------------------------- */

const char *const vt_stress_role_names[] = { "perf", "exact", "sys", "runner" };

static void vt_stress_vlog(struct vt_stress_worker *w, const char *tag, const char *fmt,
			   va_list ap)
{
	char line[768];
	int n;

	n = snprintf(line, sizeof(line), "w%d op %llu: %s", w->id,
		     (unsigned long long)w->op, tag);
	vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	n = strlen(line);
	line[n++] = '\n';
	if (w->log)
		fwrite(line, 1, n, w->log);
	if (w->verbose || *tag) {
		/* one write() per line, so workers' lines do not mix */
		char out[800];
		int m = snprintf(out, sizeof(out), "# %.*s", n, line);

		if (write(1, out, m) < 0)
			return;
	}
}

void vt_stress_log(struct vt_stress_worker *w, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vt_stress_vlog(w, "", fmt, ap);
	va_end(ap);
}

/*
 * A failure.  Each kind (format string) is printed three times per
 * worker at most, then only counted, so one frequent defect does not
 * hide the others.
 */
void vt_stress_fail(struct vt_stress_worker *w, const char *fmt, ...)
{
	static const char *kinds[64];
	static int times[64];
	char tag[96];
	va_list ap;
	int i;

	for (i = 0; i < 64 && kinds[i] && kinds[i] != fmt; i++)
		;
	if (i < 64) {
		kinds[i] = fmt;
		if (++times[i] > 3) {
			w->failures++;
			return;
		}
	}

	snprintf(tag, sizeof(tag), "FAIL (seed %llu, %s worker): ",
		 (unsigned long long)w->seed, vt_stress_role_names[w->role]);
	va_start(ap, fmt);
	vt_stress_vlog(w, tag, fmt, ap);
	va_end(ap);
	w->failures++;
	if (w->log)
		fflush(w->log);
}

const char *vt_stress_errname(int err)
{
	static __thread char buf[24];

	switch (err < 0 ? -err : err) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case ENOENT: return "ENOENT";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EBUSY: return "EBUSY";
	case ENODEV: return "ENODEV";
	case ESRCH: return "ESRCH";
	case EBADF: return "EBADF";
	case EFAULT: return "EFAULT";
	case ENOSPC: return "ENOSPC";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case E2BIG: return "E2BIG";
	case EMFILE: return "EMFILE";
	case ENOMEM: return "ENOMEM";
	case EAGAIN: return "EAGAIN";
	case EIO: return "EIO";
	case EBADMSG: return "EBADMSG";
	case EFBIG: return "EFBIG";
	case EMSGSIZE: return "EMSGSIZE";
	case EINTR: return "EINTR";
	}
	snprintf(buf, sizeof(buf), "errno %d", err < 0 ? -err : err);
	return buf;
}

/*
 * One operation of a worker: a number below 100 is drawn, and the first of
 * @ops whose bound it is below runs (the last one takes the rest).
 */
void vt_stress_pick_op(struct vt_stress_worker *w, const struct vt_stress_op *ops, int n)
{
	uint32_t k = vt_stress_below(&w->r, 100);
	int i;

	for (i = 0; i < n - 1 && k >= ops[i].below; i++)
		;
	ops[i].fn(w);
}

/* ---- runs ---------------------------------------------------------------- */

int vt_stress_run(struct vt_stress_worker *w, int prog, uint64_t budget, struct vpmu_run *r)
{
	return vt_run(w->dev, &w->info->prog[prog].p, w->mem, budget, r);
}

/*
 * Run @prog for @budget cycles and check what the run says: the stop
 * reason, and the cycles where they are fixed.  0, or -1 after a failure.
 */
int vt_stress_run_checked(struct vt_stress_worker *w, int prog, uint64_t budget)
{
	const struct vt_stress_prog *p = &w->info->prog[prog];
	struct vpmu_run r;
	uint32_t stop = p->stop;
	int ret, cpu = sched_getcpu();

	memset(&r, 0, sizeof(r));
	ret = vt_stress_run(w, prog, budget, &r);
	w->s.runs++;
	if (w->role == VT_STRESS_ROLE_EXACT)
		vt_stress_log(w,
			      "  run %s: %s, stop %u cycles %llu generation %llu, cpu %d then %d",
			      p->name, vt_stress_errname(ret), r.stop,
			      (unsigned long long)r.cycles,
			      (unsigned long long)r.generation, cpu, sched_getcpu());
	if (ret) {
		vt_stress_fail(w, "run %s budget %llu: %s", p->name,
			       (unsigned long long)budget, vt_stress_errname(ret));
		return -1;
	}
	if (p->cycles && budget < p->cycles)
		stop = VPMU_RUN_BUDGET;
	/*
	 * Programs with loads end by the budget when it is short, a few
	 * stall cycles past it at most (a stall is not cut).
	 */
	if (!p->cycles && r.stop == VPMU_RUN_BUDGET && r.cycles >= budget &&
	    r.cycles < budget + 64)
		return 0;
	if (r.stop != stop || (p->cycles && stop == VPMU_RUN_HALT &&
			       r.cycles != p->cycles) ||
	    (stop == VPMU_RUN_BUDGET && (p->cycles || prog == VT_STRESS_PROG_SPIN) &&
	     r.cycles != budget)) {
		vt_stress_fail(w,
			       "run %s budget %llu: stop %u cycles %llu, expected stop %u cycles %llu",
			       p->name, (unsigned long long)budget, r.stop,
			       (unsigned long long)r.cycles, stop,
			       (unsigned long long)(stop == VPMU_RUN_BUDGET ? budget :
						    p->cycles));
		return -1;
	}
	return 0;
}

static bool cpu_online(int cpu)
{
	char path[96], c = '1';
	int fd;

	if (!cpu)
		return true;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	if (read(fd, &c, 1) != 1)
		c = '1';
	close(fd);
	return c == '1';
}

/* Move to a random CPU (EINVAL if it is offline), or to all of them. */
void vt_stress_random_affinity(struct vt_stress_worker *w)
{
	cpu_set_t set;
	int cpu = vt_stress_below(&w->r, w->info->ncpus + 1), ret;

	CPU_ZERO(&set);
	if (cpu == w->info->ncpus) {
		for (cpu = 0; cpu < w->info->ncpus; cpu++)
			CPU_SET(cpu, &set);
		cpu = -1;
	} else {
		CPU_SET(cpu, &set);
	}
	ret = sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
	vt_stress_log(w, "affinity cpu %d: %s", cpu, vt_stress_errname(ret));
	/* CPU 1 may go offline (and back) under us: EINVAL */
	if (ret && !(ret == -EINVAL && cpu > 0 &&
		     (w->info->have_hotplug || !cpu_online(cpu))))
		vt_stress_fail(w, "sched_setaffinity(cpu %d): %s", cpu,
			       vt_stress_errname(ret));
}

/* ---- sample rings -------------------------------------------------------- */

int vt_stress_ring_map(int fd, struct vt_stress_ring *r, size_t pages)
{
	memset(r, 0, sizeof(*r));
	return vt_ring_map_pages(fd, &r->vp, pages);
}

void vt_stress_ring_unmap(struct vt_stress_ring *r)
{
	vt_ring_unmap(&r->vp);
}

struct drain {
	struct vt_stress_worker *w;
	struct vt_stress_ring *r;
	bool raw;
};

static int drain_record(struct vt_ring *rb, const struct perf_event_header *h,
			const char *rec, void *arg)
{
	struct drain *d = arg;
	struct vt_stress_ring *r = d->r;
	struct vt_sample s;
	uint64_t n;

	if (h->type >= PERF_RECORD_MAX)
		return -1;
	if (h->type == PERF_RECORD_LOST) {
		memcpy(&n, rec + 16, 8);
		r->next += n * r->period;
	} else if (h->type == PERF_RECORD_SAMPLE && d->raw && h->size >= 52) {
		vt_sample_parse(rec, h->size, false, &s);
		r->next += r->period;
		if (s.raw.count != r->next && !r->bad_count++)
			vt_stress_fail(d->w,
				       "sample %llu: raw count %llu, expected %llu (period %llu)",
				       (unsigned long long)rb->samples,
				       (unsigned long long)s.raw.count,
				       (unsigned long long)r->next,
				       (unsigned long long)r->period);
	}
	return 0;
}

/*
 * Consume every record; count samples and lost ones.  With @raw (the
 * event's sample_type is IP | RAW) each sample's raw count must be the
 * next multiple of the period.  -1 on a malformed record.
 */
int vt_stress_ring_drain(struct vt_stress_worker *w, struct vt_stress_ring *r, bool raw)
{
	struct drain d = { w, r, raw };

	if (!vt_ring_read(&r->vp, drain_record, &d))
		return 0;
	vt_stress_fail(w, "ring: malformed record type %u size %u at %llu (head %llu)",
		       r->vp.bad.type, r->vp.bad.size,
		       (unsigned long long)r->vp.bad_at,
		       (unsigned long long)r->vp.bad_head);
	return -1;
}

/*
 * Every engine's counters, as a snapshot reads them, into the log: what a
 * failed exact check leaves behind for whoever reads it.
 */
void vt_stress_log_engines(struct vt_stress_worker *w)
{
	struct vpmu_snapshot s;
	int cpu, i;

	for (cpu = 0; cpu < w->info->ncpus; cpu++) {
		memset(&s, 0, sizeof(s));
		s.size = sizeof(s);
		s.cpu = cpu;
		if (ioctl(w->dev, VPMU_IOC_SNAPSHOT, &s)) {
			vt_stress_log(w, "  engine %d: snapshot: %s", cpu,
				      vt_stress_errname(errno));
			continue;
		}
		vt_stress_log(w, "  engine %d: generation %llu ovf %#x frozen %#x trig_ovf %#x",
			      cpu, (unsigned long long)s.generation, s.ovf, s.frozen,
			      s.trig_ovf);
		for (i = 0; i < (int)s.nr_counters && i < VPMU_SNAP_COUNTERS; i++)
			vt_stress_log(w,
				      "    ctr%d value %llu ovf_count %llu event %u width %u flags %#x group %u",
				      i, (unsigned long long)s.ctr[i].value,
				      (unsigned long long)s.ctr[i].ovf_count,
				      s.ctr[i].event, s.ctr[i].width, s.ctr[i].flags,
				      s.ctr[i].group);
	}
}

/*
 * After a failed exact check of @fd (read_format TOTAL_TIME_ENABLED |
 * _RUNNING, no group): does the event count one more run of @prog, and
 * after an explicit ENABLE?  Into the log.
 */
void vt_stress_probe_event(struct vt_stress_worker *w, int fd, int prog)
{
	struct { uint64_t value, enabled, running; } c;
	int i;

	for (i = 0; i < 2; i++) {
		if (i && ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
			vt_stress_log(w, "  probe: ENABLE: %s", vt_stress_errname(errno));
		vt_stress_run_checked(w, prog, 1000000);
		if (read(fd, &c, sizeof(c)) != sizeof(c))
			vt_stress_log(w, "  probe: read: %s", vt_stress_errname(errno));
		else
			vt_stress_log(w,
				      "  probe: one more run%s: count %llu, on the counters %llu of %llu ns",
				      i ? " after ENABLE" : "",
				      (unsigned long long)c.value,
				      (unsigned long long)c.running,
				      (unsigned long long)c.enabled);
	}
	vt_stress_log_engines(w);
}
