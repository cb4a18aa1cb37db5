// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_stress_perf.c - the perf workers of vpmu_stress: random events
 * (counting, sampling, groups with freeze triggers, on this task, on a
 * child or CPU-wide), every ioctl, reads, rings, closes in random orders,
 * forks and hostile attributes.  See vpmu_stress.c.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "vpmu_stress_ops.h"
#include "vpmu_stress_pmu.h"

#define NSLOTS		12

struct slot {
	int fd;
	int leader;		/* slot of the leader, or -1 */
	pid_t pid;
	int cpu;
	bool sampling, inherit, freq;
	uint64_t rf, config1;
	struct vt_stress_ring rb;
};

struct perf_state {
	struct slot s[NSLOTS];
};

/* The child the per-task events of this worker may also name. */
static void target_main(const struct vt_stress_info *info, uint64_t seed)
{
	struct vt_stress_worker w;

	memset(&w, 0, sizeof(w));
	w.info = info;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	w.r.s = seed;
	w.dev = open(VT_DEV, O_RDWR | O_CLOEXEC);
	if (w.dev < 0 || posix_memalign((void **)&w.mem, 8, vt_stress_mem_size(info)))
		_exit(1);
	for (;;) {
		struct vpmu_run r;
		int p = vt_stress_below(&w.r, 4) ?
			(int)vt_stress_below(&w.r, VT_STRESS_PROG_MARK1 + 1) :
			VT_STRESS_PROG_SORTLOOP;

		vt_stress_run(&w, p, p == VT_STRESS_PROG_SORTLOOP ? 20000 : 1000000, &r);
		if (vt_stress_chance(&w.r, 20))
			usleep(vt_stress_below(&w.r, 2000));
	}
}

void vt_stress_perf_init(struct vt_stress_worker *w)
{
	struct perf_state *ps = calloc(1, sizeof(*ps));
	int i;

	for (i = 0; i < NSLOTS; i++)
		ps->s[i].fd = -1;
	w->priv = ps;
	w->target = fork();
	if (!w->target)
		target_main(w->info, w->r.s);
	vt_stress_log(w, "target child %d", w->target);
}

static void slot_close(struct vt_stress_worker *w, int i)
{
	struct perf_state *ps = w->priv;
	struct slot *s = &ps->s[i];
	int j;

	if (s->fd < 0)
		return;
	vt_stress_ring_unmap(&s->rb);
	if (close(s->fd))
		vt_stress_fail(w, "close slot %d: %s", i, vt_stress_errname(errno));
	s->fd = -1;
	w->s.closes++;
	/* members of a closed leader live on as groups of their own */
	for (j = 0; j < NSLOTS; j++)
		if (ps->s[j].leader == i)
			ps->s[j].leader = -1;
}

void vt_stress_perf_fini(struct vt_stress_worker *w)
{
	struct perf_state *ps = w->priv;
	int i, status;

	/* leaders first: the order the perf core must survive */
	for (i = 0; i < NSLOTS; i++)
		if (ps->s[i].fd >= 0 && ps->s[i].leader < 0)
			slot_close(w, i);
	for (i = 0; i < NSLOTS; i++)
		slot_close(w, i);
	if (w->target > 0) {
		kill(w->target, SIGKILL);
		waitpid(w->target, &status, 0);
	}
}

static int free_slot(struct perf_state *ps)
{
	int i;

	for (i = 0; i < NSLOTS; i++)
		if (ps->s[i].fd < 0)
			return i;
	return -1;
}

static int random_slot(struct vt_stress_worker *w, bool leaders)
{
	struct perf_state *ps = w->priv;
	int i, k = vt_stress_below(&w->r, NSLOTS);

	for (i = 0; i < NSLOTS; i++) {
		struct slot *s = &ps->s[(k + i) % NSLOTS];

		if (s->fd >= 0 && (!leaders || s->leader < 0))
			return (k + i) % NSLOTS;
	}
	return -1;
}

/*
 * Whom a new event of group leader slot @lead (or -1) watches: its
 * leader's task and CPU, else this task, the target child or (pid -1) a
 * random CPU.
 */
static void open_target(struct vt_stress_worker *w, int lead, pid_t *pid,
			int *cpu)
{
	struct perf_state *ps = w->priv;

	if (lead >= 0) {
		*pid = ps->s[lead].pid;
		*cpu = ps->s[lead].cpu;
		return;
	}
	switch (vt_stress_below(&w->r, 4)) {
	case 0:
		*pid = w->target;
		break;
	case 1:
		*pid = -1;
		*cpu = vt_stress_below(&w->r, w->info->ncpus);
		break;
	default:
		break;
	}
}

/*
 * A random alias into @cfg (config, config1), maybe pinned to a counter;
 * a leader maybe with a freeze trigger, a member maybe with its leader's
 * config1; a bucket (vpmu_hu) as it is.  Returns the alias.
 */
static const struct vt_stress_alias *open_config(struct vt_stress_worker *w,
						 int lead, uint64_t *cfg)
{
	const struct vt_stress_info *info = w->info;
	struct perf_state *ps = w->priv;
	const struct vt_stress_alias *al;

	al = &info->alias[vt_stress_below(&w->r, info->nalias)];
	cfg[0] = al->config;
	if (al->type != info->type)
		return al;
	if (vt_stress_chance(&w->r, 30))
		vt_stress_put(info, cfg, "ctr",
			      1 + vt_stress_below(&w->r, info->nr_counters));
	if (lead < 0 && vt_stress_chance(&w->r, 35)) {
		const struct vt_stress_trig *t =
			&vt_stress_trigs[vt_stress_below(&w->r, VT_STRESS_NTRIGS)];

		cfg[1] = vt_stress_trig_config1(info, t, vt_stress_chance(&w->r, 25));
	} else if (lead >= 0 && vt_stress_chance(&w->r, 50)) {
		cfg[1] = ps->s[lead].config1;
	}
	return al;
}

/*
 * The attributes of @cfg's event of PMU @type on @pid: a random
 * read_format, maybe disabled, excluding user or kernel, inherited; maybe
 * sampling, by period or frequency, but for a bucket, which cannot.
 */
static void open_attr(struct vt_stress_worker *w, struct perf_event_attr *a,
		      long type, const uint64_t *cfg, pid_t pid)
{
	vt_attr_of(a, type, cfg[0], cfg[1]);
	a->read_format = vt_stress_rnd(&w->r) & (VT_STRESS_RF_ALL | PERF_FORMAT_LOST);
	a->disabled = vt_stress_chance(&w->r, 25);
	a->exclude_user = vt_stress_chance(&w->r, 10);
	a->exclude_kernel = !a->exclude_user && vt_stress_chance(&w->r, 20);
	a->inherit = pid >= 0 && vt_stress_chance(&w->r, 20);
	if (type == w->info->type && vt_stress_chance(&w->r, 35)) {
		if (vt_stress_chance(&w->r, 10)) {
			a->freq = 1;
			a->sample_freq = 100 + vt_stress_below(&w->r, 2000);
		} else {
			a->sample_period = vt_stress_random_period(&w->r);
		}
		a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
		a->sample_type |= vt_stress_rnd(&w->r) &
			(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			 PERF_SAMPLE_STREAM_ID);
		a->wakeup_events = vt_stress_below(&w->r, 4);
	}
}

/* Slot @i takes event @fd, opened with @a; a sampling one maybe a ring. */
static void slot_fill(struct vt_stress_worker *w, int i, int fd, int lead,
		      pid_t pid, int cpu, const struct perf_event_attr *a)
{
	struct perf_state *ps = w->priv;
	struct slot *s = &ps->s[i];

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->leader = lead;
	s->pid = pid;
	s->cpu = cpu;
	s->sampling = a->sample_period || a->freq;
	s->freq = a->freq;
	s->inherit = a->inherit;
	s->rf = a->read_format;
	s->config1 = a->config1;
	if (s->sampling && vt_stress_chance(&w->r, 60)) {
		int ret = vt_stress_ring_map(fd, &s->rb, 1u << vt_stress_below(&w->r, 5));

		if (ret && ret != -EINVAL && ret != -EBUSY)
			vt_stress_fail(w, "mmap slot %d: %s", i, vt_stress_errname(ret));
	}
}

/* A mostly valid random event (perhaps in a group); 'open' op. */
static void op_open(struct vt_stress_worker *w)
{
	struct perf_state *ps = w->priv;
	struct perf_event_attr a;
	int i = free_slot(ps), lead = -1, fd;
	const struct vt_stress_alias *al;
	pid_t pid = 0;
	int cpu = -1;
	uint64_t cfg[3] = { 0, 0, 0 };

	if (i < 0)
		return;
	if (vt_stress_chance(&w->r, 45))
		lead = random_slot(w, true);
	open_target(w, lead, &pid, &cpu);
	al = open_config(w, lead, cfg);
	open_attr(w, &a, al->type, cfg, pid);
	fd = vt_open(&a, pid, cpu, lead >= 0 ? ps->s[lead].fd : -1);
	w->s.opens++;
	vt_stress_log(w,
		      "open slot %d: %s config %#llx config1 %#llx pid %d cpu %d group %d rf %#llx%s%s%s%s period %llu: %s",
		      i, al->name, (unsigned long long)a.config,
		      (unsigned long long)a.config1, pid, cpu, lead,
		      (unsigned long long)a.read_format,
		      a.disabled ? " disabled" : "", a.exclude_user ? " u-excl" : "",
		      a.exclude_kernel ? " k-excl" : "", a.inherit ? " inherit" : "",
		      (unsigned long long)a.sample_period,
		      fd < 0 ? vt_stress_errname(fd) : "ok");
	if (fd < 0) {
		w->s.open_fail++;
		switch (-fd) {
		case EINVAL: case ENOENT: case EOPNOTSUPP: case ENODEV:
		case ESRCH: case EBUSY: case ENOSPC:
			return;
		}
		vt_stress_fail(w, "open slot %d: unexpected %s", i, vt_stress_errname(fd));
		return;
	}
	slot_fill(w, i, fd, lead, pid, cpu, &a);
}

/* Close one event, or a whole group in a random order. */
static void op_close(struct vt_stress_worker *w)
{
	struct perf_state *ps = w->priv;
	int i = random_slot(w, vt_stress_chance(&w->r, 60)), j, order[NSLOTS], n = 0;

	if (i < 0)
		return;
	if (ps->s[i].leader >= 0 || vt_stress_chance(&w->r, 50)) {
		vt_stress_log(w, "close slot %d%s", i,
			      ps->s[i].leader < 0 ? " (a leader)" : "");
		slot_close(w, i);
		return;
	}
	order[n++] = i;
	for (j = 0; j < NSLOTS; j++)
		if (ps->s[j].fd >= 0 && ps->s[j].leader == i)
			order[n++] = j;
	for (j = n - 1; j > 0; j--) {
		int k = vt_stress_below(&w->r, j + 1), t = order[j];

		order[j] = order[k];
		order[k] = t;
	}
	vt_stress_log(w, "close group of slot %d, %d events, first slot %d", i, n,
		      order[0]);
	for (j = 0; j < n; j++) {
		slot_close(w, order[j]);
		if (vt_stress_chance(&w->r, 30))
			vt_stress_run_checked(w, VT_STRESS_PROG_SUM, 1000);
	}
}

static void op_ioctl(struct vt_stress_worker *w)
{
	struct perf_state *ps = w->priv;
	int i = random_slot(w, false), k = vt_stress_below(&w->r, 7), ret;
	unsigned long flag = vt_stress_chance(&w->r, 30) ? PERF_IOC_FLAG_GROUP : 0;
	static const char *const names[] = { "ENABLE", "DISABLE", "RESET",
		"REFRESH", "PERIOD", "ID", "SET_OUTPUT" };
	struct slot *s;
	uint64_t v = 0;
	bool ok;

	if (i < 0)
		return;
	s = &ps->s[i];
	w->s.ioctls++;
	switch (k) {
	case 0:
		ret = ioctl(s->fd, PERF_EVENT_IOC_ENABLE, flag);
		break;
	case 1:
		ret = ioctl(s->fd, PERF_EVENT_IOC_DISABLE, flag);
		break;
	case 2:
		ret = ioctl(s->fd, PERF_EVENT_IOC_RESET, flag);
		break;
	case 3:
		v = vt_stress_below(&w->r, 4);
		ret = ioctl(s->fd, PERF_EVENT_IOC_REFRESH, (int)v);
		break;
	case 4:
		v = vt_stress_chance(&w->r, 10) ? 0 : vt_stress_random_period(&w->r);
		if (vt_stress_chance(&w->r, 5))
			v |= 1ull << 63;
		ret = ioctl(s->fd, PERF_EVENT_IOC_PERIOD, &v);
		break;
	case 5:
		ret = ioctl(s->fd, PERF_EVENT_IOC_ID, &v);
		break;
	default: {
		int j = vt_stress_chance(&w->r, 20) ? -1 : random_slot(w, false);

		v = j;
		/* the kernel compares an unsigned long with -1 */
		ret = ioctl(s->fd, PERF_EVENT_IOC_SET_OUTPUT,
			    j < 0 ? -1L : (long)ps->s[j].fd);
	}
	}
	ret = ret < 0 ? -errno : 0;
	vt_stress_log(w, "ioctl slot %d %s%s arg %lld: %s", i, names[k],
		      flag ? " group" : "", (long long)v, vt_stress_errname(ret));
	switch (k) {
	case 3:		/* REFRESH: sampling events without inherit only */
		ok = s->sampling && !s->inherit ? !ret : ret == -EINVAL;
		break;
	case 4:		/* PERIOD */
		ok = s->sampling && v && !(v >> 63) && !s->freq ? !ret :
		     s->sampling ? !ret || ret == -EINVAL : ret == -EINVAL;
		break;
	case 6:
		ok = !ret || ret == -EINVAL || ret == -EBUSY;
		break;
	default:
		ok = !ret;
	}
	if (!ok)
		vt_stress_fail(w, "ioctl %s on slot %d (%s, arg %lld): unexpected %s",
			       names[k], i, s->sampling ? "sampling" : "counting",
			       (long long)v, vt_stress_errname(ret));
}

static void op_read(struct vt_stress_worker *w)
{
	struct perf_state *ps = w->priv;
	int i = random_slot(w, false);
	uint64_t buf[128];
	struct slot *s;
	ssize_t n;
	size_t size = sizeof(buf);

	if (i < 0)
		return;
	s = &ps->s[i];
	if (vt_stress_chance(&w->r, 10))
		size = 8 * vt_stress_below(&w->r, 3);	/* too small: ENOSPC */
	n = read(s->fd, buf, size);
	w->s.reads++;
	vt_stress_log(w, "read slot %d (%zu bytes, rf %#llx): %zd", i, size,
		      (unsigned long long)s->rf, n < 0 ? -errno : n);
	if (n < 0) {
		if (errno != ENOSPC || size == sizeof(buf))
			vt_stress_fail(w, "read slot %d: %s", i, vt_stress_errname(errno));
		return;
	}
	if (n == 0 || n % 8 || (size_t)n > size) {
		vt_stress_fail(w, "read slot %d: %zd bytes", i, n);
		return;
	}
	if ((s->rf & PERF_FORMAT_GROUP) && (buf[0] < 1 || buf[0] > 17))
		vt_stress_fail(w, "group read slot %d: nr %llu", i,
			       (unsigned long long)buf[0]);
	if ((s->rf & PERF_FORMAT_TOTAL_TIME_ENABLED) &&
	    (s->rf & PERF_FORMAT_TOTAL_TIME_RUNNING)) {
		int off = s->rf & PERF_FORMAT_GROUP ? 1 : 1;

		if (buf[off + 1] > buf[off])
			vt_stress_fail(w, "read slot %d: running %llu > enabled %llu",
				       i, (unsigned long long)buf[off + 1],
				       (unsigned long long)buf[off]);
	}
}

static void op_fork(struct vt_stress_worker *w)
{
	int n = 1 + vt_stress_below(&w->r, 3), status;
	pid_t pid = fork();

	if (!pid) {
		int i, bad = 0;

		for (i = 0; i < n; i++)
			bad |= vt_stress_run_checked(w, i % 3, 1000000);
		_exit(bad ? 1 : 0);
	}
	if (pid < 0) {
		/* The copies of inherit events are made in fork (vpmu_inherit). */
		vt_stress_fail(w, "fork: %s", vt_stress_errname(-errno));
		return;
	}
	vt_stress_log(w, "fork: child %d runs %d programs", pid, n);
	if (waitpid(pid, &status, 0) != pid || status)
		vt_stress_fail(w, "forked child %d: status %#x", pid, status);
}

void vt_stress_perf_op(struct vt_stress_worker *w)
{
	struct perf_state *ps = w->priv;
	uint32_t k = vt_stress_below(&w->r, 100);
	int i;

	if (k < 30) {
		op_open(w);
	} else if (k < 45) {
		op_close(w);
	} else if (k < 60) {
		op_ioctl(w);
	} else if (k < 67) {
		op_read(w);
	} else if (k < 72) {
		i = random_slot(w, false);
		if (i >= 0 && ps->s[i].rb.vp.base) {
			vt_stress_ring_drain(w, &ps->s[i].rb, false);
			vt_stress_log(w, "drain slot %d: %llu samples %llu lost", i,
				      (unsigned long long)ps->s[i].rb.vp.samples,
				      (unsigned long long)ps->s[i].rb.vp.lost);
		}
	} else if (k < 88) {
		int p = vt_stress_below(&w->r, VT_STRESS_NPROGS);
		uint64_t b = vt_stress_chance(&w->r, 20) ? 1 + vt_stress_below(&w->r, 3000) :
			     p >= VT_STRESS_PROG_SPIN ? 30000 : 1000000;

		vt_stress_log(w, "run %s budget %llu", w->info->prog[p].name,
			      (unsigned long long)b);
		vt_stress_run_checked(w, p, b);
	} else if (k < 92) {
		vt_stress_random_affinity(w);
	} else if (k < 94) {
		op_fork(w);
	} else {
		vt_stress_hostile_op(w);
	}
}
