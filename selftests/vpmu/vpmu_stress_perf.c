// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_stress_perf.c - the perf workers (random events, ioctls, closes)
 * and the exact workers (known programs, exact counts and samples) of
 * vpmu_stress.  See vpmu_stress.c.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include "vpmu_stress.h"

#define NSLOTS		12
#define RF_ALL		(PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | \
			 PERF_FORMAT_GROUP)
#define MAX_SAMPLES_PER_TICK 400	/* DIV_ROUND_UP(100000, HZ), HZ >= 250 */

/* ---- rings ------------------------------------------------------------------ */

struct ring {
	char *base;
	size_t pages;		/* data pages, a power of 2 */
	uint64_t samples, lost, bad_count;
	uint64_t period, next;	/* raw.count the next sample must carry */
};

static int ring_map(int fd, struct ring *rb, size_t pages)
{
	size_t psz = sysconf(_SC_PAGESIZE);

	memset(rb, 0, sizeof(*rb));
	rb->base = mmap(NULL, (pages + 1) * psz, PROT_READ | PROT_WRITE,
			MAP_SHARED, fd, 0);
	if (rb->base == MAP_FAILED) {
		rb->base = NULL;
		return -errno;
	}
	rb->pages = pages;
	return 0;
}

static void ring_unmap(struct ring *rb)
{
	if (rb->base)
		munmap(rb->base, (rb->pages + 1) * sysconf(_SC_PAGESIZE));
	rb->base = NULL;
}

/*
 * Consume every record; count samples and lost ones.  With @raw (the
 * event's sample_type is IP | RAW) each sample's raw count must be the
 * next multiple of the period.  -1 on a malformed record.
 */
static int ring_drain(struct st_worker *w, struct ring *rb, bool raw)
{
	size_t psz = sysconf(_SC_PAGESIZE), dsize = rb->pages * psz;
	struct perf_event_mmap_page *pg = (void *)rb->base;
	char *data = rb->base + psz, rec[2048];
	uint64_t head, tail, i;

	if (!rb->base)
		return 0;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	while (tail < head) {
		struct perf_event_header h;

		for (i = 0; i < sizeof(h); i++)
			((char *)&h)[i] = data[(tail + i) % dsize];
		if (h.size < sizeof(h) || h.size > sizeof(rec) ||
		    tail + h.size > head || h.type >= PERF_RECORD_MAX) {
			st_fail(w, "ring: malformed record type %u size %u at %llu (head %llu)",
				h.type, h.size, (unsigned long long)tail,
				(unsigned long long)head);
			pg->data_tail = head;
			return -1;
		}
		for (i = 0; i < h.size; i++)
			rec[i] = data[(tail + i) % dsize];
		tail += h.size;
		if (h.type == PERF_RECORD_LOST) {
			uint64_t n;

			memcpy(&n, rec + 16, 8);
			rb->lost += n;
			rb->next += n * rb->period;
		} else if (h.type == PERF_RECORD_SAMPLE) {
			rb->samples++;
			if (raw && h.size >= 52) {
				uint64_t count;

				memcpy(&count, rec + 44, 8);
				rb->next += rb->period;
				if (count != rb->next && !rb->bad_count++)
					st_fail(w, "sample %llu: raw count %llu, expected %llu (period %llu)",
						(unsigned long long)rb->samples,
						(unsigned long long)count,
						(unsigned long long)rb->next,
						(unsigned long long)rb->period);
			}
		}
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
	return 0;
}

/* ---- configs ----------------------------------------------------------------- */

static uint64_t alias_cfg(const char *name)
{
	const struct st_alias *a = st_alias(name);

	return a ? a->config : 0;
}

static uint64_t ctr_cfg(int n)
{
	uint64_t cfg[3] = { 0, 0, 0 };

	st_put(cfg, "ctr", n);
	return cfg[0];
}

static void attr_base(struct perf_event_attr *a, uint64_t config,
		      uint64_t config1)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = st.type;
	a->config = config;
	a->config1 = config1;
}

/* A trigger row: a program and what a group under that trigger counts. */
struct trig {
	int prog;
	const char *field;	/* trig_mark, trig_tag, trig_ev */
	int val;		/* its value; trig_ev: an alias's event */
	bool frozen;
	uint64_t insns, uops;	/* per run; cycles = uops (no stalls) */
};

static const struct trig trigs[] = {
	{ P_MARKS, "trig_mark", 1, true, 4000, 18000 },
	{ P_MARKS, "trig_mark", 1, false, 8001 - 4000, 35004 - 18000 },
	{ P_MARKS, "trig_ev", -1, true, 4000, 18000 },	/* vpmu_trigger */
	{ P_CALLS, "trig_tag", 8, true, 1000, 7000 },
	{ P_CALLS, "trig_tag", 8, false, 2501 - 1000, 14004 - 7000 },
	{ P_SUM, "trig_mark", 1, true, 0, 0 },
	{ P_SUM, "trig_mark", 1, false, 32, 179 },
};

static uint64_t trig_config1(const struct trig *t, bool foo)
{
	uint64_t cfg[3] = { 0, 0, 0 };
	uint64_t val = t->val;

	if (val == (uint64_t)-1) {	/* the "trigger" event's number */
		uint64_t ev[3] = { alias_cfg("trigger"), 0, 0 };
		const struct st_field *f = &st.field[st_field_of("event")];

		val = (ev[0] >> f->lo) & ((1ull << (f->hi - f->lo + 1)) - 1);
	}
	st_put(cfg, t->field, val);
	if (t->frozen)
		st_put(cfg, "frozen", 1);
	if (foo)
		st_put(cfg, "foo", 1);
	return cfg[1];
}

/* ---- the perf worker ------------------------------------------------------------ */

struct slot {
	int fd;
	int leader;		/* slot of the leader, or -1 */
	pid_t pid;
	int cpu;
	bool sampling, inherit, freq;
	uint64_t rf, config1;
	struct ring rb;
};

struct perf_state {
	struct slot s[NSLOTS];
};

/* The child the per-task events of this worker may also name. */
static void target_main(uint64_t seed)
{
	struct st_worker w;
	size_t max = 0;
	int i;

	memset(&w, 0, sizeof(w));
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	w.r.s = seed;
	w.dev = open(VPMU_DEV, O_RDWR | O_CLOEXEC);
	for (i = 0; i < P_NPROGS; i++)
		if (st.prog[i].p.h.mem_size > max)
			max = st.prog[i].p.h.mem_size;
	if (w.dev < 0 || posix_memalign((void **)&w.mem, 8, max))
		_exit(1);
	for (;;) {
		struct vpmu_run r;
		int p = st_below(&w.r, 4) ? (int)st_below(&w.r, P_MARK1 + 1) :
			P_SORTLOOP;

		st_run(&w, p, p == P_SORTLOOP ? 20000 : 1000000, &r);
		if (st_chance(&w.r, 20))
			usleep(st_below(&w.r, 2000));
	}
}

void st_perf_init(struct st_worker *w)
{
	struct perf_state *ps = calloc(1, sizeof(*ps));
	int i;

	for (i = 0; i < NSLOTS; i++)
		ps->s[i].fd = -1;
	w->priv = ps;
	w->target = fork();
	if (!w->target)
		target_main(w->r.s);
	st_log(w, "target child %d", w->target);
}

static void slot_close(struct st_worker *w, int i)
{
	struct perf_state *ps = w->priv;
	struct slot *s = &ps->s[i];
	int j;

	if (s->fd < 0)
		return;
	ring_unmap(&s->rb);
	if (close(s->fd))
		st_fail(w, "close slot %d: %s", i, st_errname(errno));
	s->fd = -1;
	w->s.closes++;
	/* members of a closed leader live on as groups of their own */
	for (j = 0; j < NSLOTS; j++)
		if (ps->s[j].leader == i)
			ps->s[j].leader = -1;
}

void st_perf_fini(struct st_worker *w)
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

static int random_slot(struct st_worker *w, bool leaders)
{
	struct perf_state *ps = w->priv;
	int i, k = st_below(&w->r, NSLOTS);

	for (i = 0; i < NSLOTS; i++) {
		struct slot *s = &ps->s[(k + i) % NSLOTS];

		if (s->fd >= 0 && (!leaders || s->leader < 0))
			return (k + i) % NSLOTS;
	}
	return -1;
}

static uint64_t random_period(struct st_rng *r)
{
	static const uint64_t p[] = { 7, 50, 101, 997, 5003, 65537,
				      1000003 };

	return p[st_below(r, 7)];
}

/* A mostly valid random event (perhaps in a group); 'open' op. */
static void op_open(struct st_worker *w)
{
	struct perf_state *ps = w->priv;
	struct perf_event_attr a;
	int i = free_slot(ps), lead = -1, fd;
	const struct st_alias *al;
	struct slot *s;
	pid_t pid = 0;
	int cpu = -1;
	uint64_t cfg[3] = { 0, 0, 0 };

	if (i < 0)
		return;
	s = &ps->s[i];
	if (st_chance(&w->r, 45))
		lead = random_slot(w, true);
	if (lead >= 0) {
		pid = ps->s[lead].pid;
		cpu = ps->s[lead].cpu;
	} else {
		switch (st_below(&w->r, 4)) {
		case 0:
			pid = w->target;
			break;
		case 1:
			pid = -1;
			cpu = st_below(&w->r, st.ncpus);
			break;
		default:
			break;
		}
	}
	al = &st.alias[st_below(&w->r, st.nalias)];
	cfg[0] = al->config;
	if (st_chance(&w->r, 30))
		st_put(cfg, "ctr", 1 + st_below(&w->r, st.nr_counters));
	if (lead < 0 && st_chance(&w->r, 35)) {
		const struct trig *t = &trigs[st_below(&w->r, 7)];

		cfg[1] = trig_config1(t, st_chance(&w->r, 25));
	} else if (lead >= 0 && st_chance(&w->r, 50)) {
		cfg[1] = ps->s[lead].config1;
	}
	attr_base(&a, cfg[0], cfg[1]);
	a.read_format = st_rnd(&w->r) & (RF_ALL | PERF_FORMAT_LOST);
	a.disabled = st_chance(&w->r, 25);
	a.exclude_user = st_chance(&w->r, 10);
	a.exclude_kernel = !a.exclude_user && st_chance(&w->r, 20);
	a.inherit = pid >= 0 && st_chance(&w->r, 20);
	if (st_chance(&w->r, 35)) {
		if (st_chance(&w->r, 10)) {
			a.freq = 1;
			a.sample_freq = 100 + st_below(&w->r, 2000);
		} else {
			a.sample_period = random_period(&w->r);
		}
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
		a.sample_type |= st_rnd(&w->r) &
			(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			 PERF_SAMPLE_STREAM_ID);
		a.wakeup_events = st_below(&w->r, 4);
	}
	fd = st_perf_open(&a, pid, cpu, lead >= 0 ? ps->s[lead].fd : -1,
			  PERF_FLAG_FD_CLOEXEC);
	w->s.opens++;
	st_log(w, "open slot %d: %s config %#llx config1 %#llx pid %d cpu %d group %d rf %#llx%s%s%s%s period %llu: %s",
	       i, al->name, (unsigned long long)a.config,
	       (unsigned long long)a.config1, pid, cpu, lead,
	       (unsigned long long)a.read_format,
	       a.disabled ? " disabled" : "", a.exclude_user ? " u-excl" : "",
	       a.exclude_kernel ? " k-excl" : "", a.inherit ? " inherit" : "",
	       (unsigned long long)a.sample_period,
	       fd < 0 ? st_errname(fd) : "ok");
	if (fd < 0) {
		w->s.open_fail++;
		switch (-fd) {
		case EINVAL: case ENOENT: case EOPNOTSUPP: case ENODEV:
		case ESRCH: case EBUSY: case ENOSPC:
			return;
		}
		st_fail(w, "open slot %d: unexpected %s", i, st_errname(fd));
		return;
	}
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->leader = lead;
	s->pid = pid;
	s->cpu = cpu;
	s->sampling = a.sample_period || a.freq;
	s->freq = a.freq;
	s->inherit = a.inherit;
	s->rf = a.read_format;
	s->config1 = a.config1;
	if (s->sampling && st_chance(&w->r, 60)) {
		int ret = ring_map(fd, &s->rb, 1u << st_below(&w->r, 5));

		if (ret && ret != -EINVAL && ret != -EBUSY)
			st_fail(w, "mmap slot %d: %s", i, st_errname(ret));
	}
}

/* Close one event, or a whole group in a random order. */
static void op_close(struct st_worker *w)
{
	struct perf_state *ps = w->priv;
	int i = random_slot(w, st_chance(&w->r, 60)), j, order[NSLOTS], n = 0;

	if (i < 0)
		return;
	if (ps->s[i].leader >= 0 || st_chance(&w->r, 50)) {
		st_log(w, "close slot %d%s", i,
		       ps->s[i].leader < 0 ? " (a leader)" : "");
		slot_close(w, i);
		return;
	}
	order[n++] = i;
	for (j = 0; j < NSLOTS; j++)
		if (ps->s[j].fd >= 0 && ps->s[j].leader == i)
			order[n++] = j;
	for (j = n - 1; j > 0; j--) {
		int k = st_below(&w->r, j + 1), t = order[j];

		order[j] = order[k];
		order[k] = t;
	}
	st_log(w, "close group of slot %d, %d events, first slot %d", i, n,
	       order[0]);
	for (j = 0; j < n; j++) {
		slot_close(w, order[j]);
		if (st_chance(&w->r, 30))
			st_run_checked(w, P_SUM, 1000);
	}
}

static void op_ioctl(struct st_worker *w)
{
	struct perf_state *ps = w->priv;
	int i = random_slot(w, false), k = st_below(&w->r, 7), ret;
	unsigned long flag = st_chance(&w->r, 30) ? PERF_IOC_FLAG_GROUP : 0;
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
		v = st_below(&w->r, 4);
		ret = ioctl(s->fd, PERF_EVENT_IOC_REFRESH, (int)v);
		break;
	case 4:
		v = st_chance(&w->r, 10) ? 0 : random_period(&w->r);
		if (st_chance(&w->r, 5))
			v |= 1ull << 63;
		ret = ioctl(s->fd, PERF_EVENT_IOC_PERIOD, &v);
		break;
	case 5:
		ret = ioctl(s->fd, PERF_EVENT_IOC_ID, &v);
		break;
	default: {
		int j = st_chance(&w->r, 20) ? -1 : random_slot(w, false);

		v = j;
		/* the kernel compares an unsigned long with -1 */
		ret = ioctl(s->fd, PERF_EVENT_IOC_SET_OUTPUT,
			    j < 0 ? -1L : (long)ps->s[j].fd);
	}
	}
	ret = ret < 0 ? -errno : 0;
	st_log(w, "ioctl slot %d %s%s arg %lld: %s", i, names[k],
	       flag ? " group" : "", (long long)v, st_errname(ret));
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
		st_fail(w, "ioctl %s on slot %d (%s, arg %lld): unexpected %s",
			names[k], i, s->sampling ? "sampling" : "counting",
			(long long)v, st_errname(ret));
}

static void op_read(struct st_worker *w)
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
	if (st_chance(&w->r, 10))
		size = 8 * st_below(&w->r, 3);	/* too small: ENOSPC */
	n = read(s->fd, buf, size);
	w->s.reads++;
	st_log(w, "read slot %d (%zu bytes, rf %#llx): %zd", i, size,
	       (unsigned long long)s->rf, n < 0 ? -errno : n);
	if (n < 0) {
		if (errno != ENOSPC || size == sizeof(buf))
			st_fail(w, "read slot %d: %s", i, st_errname(errno));
		return;
	}
	if (n == 0 || n % 8 || (size_t)n > size) {
		st_fail(w, "read slot %d: %zd bytes", i, n);
		return;
	}
	if ((s->rf & PERF_FORMAT_GROUP) && (buf[0] < 1 || buf[0] > 17))
		st_fail(w, "group read slot %d: nr %llu", i,
			(unsigned long long)buf[0]);
	if ((s->rf & PERF_FORMAT_TOTAL_TIME_ENABLED) &&
	    (s->rf & PERF_FORMAT_TOTAL_TIME_RUNNING)) {
		int off = s->rf & PERF_FORMAT_GROUP ? 1 : 1;

		if (buf[off + 1] > buf[off])
			st_fail(w, "read slot %d: running %llu > enabled %llu",
				i, (unsigned long long)buf[off + 1],
				(unsigned long long)buf[off]);
	}
}

/* Hostile attributes: each must fail with a clean error. */
static void op_hostile(struct st_worker *w)
{
	union {
		struct perf_event_attr a;
		uint64_t u[32];
	} x;
	int k = st_below(&w->r, 6), fd;
	bool must_fail = false;

	attr_base(&x.a, alias_cfg("uops"), 0);
	switch (k) {
	case 0:		/* random config bits */
		x.a.config = st_rnd(&w->r);
		break;
	case 1:		/* random config1 bits */
		x.a.config1 = st_rnd(&w->r) & st_rnd(&w->r);
		break;
	case 2:		/* config2 (nothing there) */
		x.a.config2 = 1ull << st_below(&w->r, 64);
		must_fail = true;
		break;
	case 3:		/* a period no counter can take */
		x.a.sample_period = 1ull << 63 | st_rnd(&w->r);
		x.a.sample_type = PERF_SAMPLE_IP;
		must_fail = true;
		break;
	case 4:		/* excludes both modes: could never count */
		x.a.exclude_user = 1;
		x.a.exclude_kernel = 1;
		must_fail = true;
		break;
	default:	/* config3 (attr size VER8, offset 128) */
		x.a.size = 136;
		x.u[16] = 1ull << st_below(&w->r, 64);
		must_fail = true;
		break;
	}
	fd = st_perf_open(&x.a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	w->s.hostile++;
	st_log(w, "hostile open %d: config %#llx config1 %#llx config2 %#llx period %#llx size %u: %s",
	       k, (unsigned long long)x.a.config,
	       (unsigned long long)x.a.config1,
	       (unsigned long long)x.a.config2,
	       (unsigned long long)x.a.sample_period, x.a.size,
	       fd < 0 ? st_errname(fd) : "ok");
	if (fd >= 0) {
		if (must_fail)
			st_fail(w, "hostile open %d accepted", k);
		st_run_checked(w, P_SUM, 1000);
		close(fd);
		return;
	}
	if (fd != -EINVAL && fd != -ENOENT && fd != -EOPNOTSUPP && fd != -E2BIG)
		st_fail(w, "hostile open %d: unexpected %s", k,
			st_errname(fd));
}

static void op_fork(struct st_worker *w)
{
	int n = 1 + st_below(&w->r, 3), status;
	pid_t pid = fork();

	if (!pid) {
		int i, bad = 0;

		for (i = 0; i < n; i++)
			bad |= st_run_checked(w, i % 3, 1000000);
		_exit(bad ? 1 : 0);
	}
	if (pid < 0) {
		/* The copies of inherit events are made in fork (vpmu_inherit). */
		st_fail(w, "fork: %s", st_errname(-errno));
		return;
	}
	st_log(w, "fork: child %d runs %d programs", pid, n);
	if (waitpid(pid, &status, 0) != pid || status)
		st_fail(w, "forked child %d: status %#x", pid, status);
}

void st_perf_op(struct st_worker *w)
{
	struct perf_state *ps = w->priv;
	uint32_t k = st_below(&w->r, 100);
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
		if (i >= 0 && ps->s[i].rb.base) {
			ring_drain(w, &ps->s[i].rb, false);
			st_log(w, "drain slot %d: %llu samples %llu lost", i,
			       (unsigned long long)ps->s[i].rb.samples,
			       (unsigned long long)ps->s[i].rb.lost);
		}
	} else if (k < 88) {
		int p = st_below(&w->r, P_NPROGS);
		uint64_t b = st_chance(&w->r, 20) ? 1 + st_below(&w->r, 3000) :
			     p >= P_SPIN ? 30000 : 1000000;

		st_log(w, "run %s budget %llu", st.prog[p].name,
		       (unsigned long long)b);
		st_run_checked(w, p, b);
	} else if (k < 92) {
		st_random_affinity(w);
	} else if (k < 94) {
		op_fork(w);
	} else {
		op_hostile(w);
	}
}

/* ---- the exact worker -------------------------------------------------------------- */

struct member {
	const char *name;
	uint64_t config, config1, per_run;
	bool exclude_user, exclude_kernel;
};

static uint64_t expect_of(int prog, const char *name)
{
	const struct st_prog *p = &st.prog[prog];
	int i;

	for (i = 0; i < p->nev; i++)
		if (!strcmp(p->ev_name[i], name))
			return p->ev_count[i];
	return 0;
}

/*
 * 1..@max members on program @prog: under a random trigger row (then
 * insns, uops or cycles, whose spans are known) or plain (any event of
 * the program's .expect file, with exclude_* now and then); distinct
 * counter pins.  Returns the program.
 */
static int pick_members(struct st_worker *w, struct member *m, int *n, int max,
			bool allow_exclude)
{
	static const char *const tnames[] = { "insns", "uops", "cycles" };
	bool used[17] = { false };
	int prog, i;

	*n = 1 + st_below(&w->r, max);
	if (st_chance(&w->r, 50)) {
		const struct trig *t = &trigs[st_below(&w->r, 7)];
		uint64_t c1 = trig_config1(t, false);

		prog = t->prog;
		for (i = 0; i < *n; i++) {
			int k = st_below(&w->r, 3);

			m[i].name = tnames[k];
			m[i].per_run = k ? t->uops : t->insns;
			m[i].config1 = !i || st_chance(&w->r, 50) ? c1 : 0;
		}
	} else {
		const struct st_prog *p;

		prog = st_below(&w->r, 3);	/* P_SUM, P_MARKS, P_CALLS */
		p = &st.prog[prog];
		for (i = 0; i < *n; i++) {
			int k = st_below(&w->r, p->nev);

			m[i].name = p->ev_name[k];
			m[i].per_run = p->ev_count[k];
			m[i].config1 = 0;
		}
	}
	for (i = 0; i < *n; i++) {
		m[i].config = alias_cfg(m[i].name);
		m[i].exclude_user = m[i].exclude_kernel = false;
		if (allow_exclude && !m[i].config1 && st_chance(&w->r, 15)) {
			m[i].exclude_user = true;	/* all runs are user */
			m[i].per_run = 0;
		} else if (allow_exclude && st_chance(&w->r, 20)) {
			m[i].exclude_kernel = true;
		}
		if (st_chance(&w->r, 30)) {
			int c = 1 + st_below(&w->r, st.nr_counters);

			if (!used[c]) {
				used[c] = true;
				m[i].config |= ctr_cfg(c);
			}
		}
	}
	return prog;
}

static void exact_attr(struct perf_event_attr *a, const struct member *m)
{
	attr_base(a, m->config, m->config1);
	a->exclude_user = m->exclude_user;
	a->exclude_kernel = m->exclude_kernel;
}

static void close_fds(struct st_worker *w, int *fds, int n)
{
	int i, first = st_chance(&w->r, 50) ? 0 : n - 1;

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
static void check_group(struct st_worker *w, const char *what, int *fds,
			const struct member *m, int n, uint64_t runs)
{
	struct gread g;
	ssize_t len = read(fds[0], &g, sizeof(g));
	int i;

	w->s.reads++;
	if (len != (ssize_t)(24 + 16 * n) || g.nr != (uint64_t)n) {
		st_fail(w, "%s: group read %zd bytes, nr %llu, expected %d members",
			what, len, (unsigned long long)g.nr, n);
		return;
	}
	if (g.running != g.enabled) {
		w->s.exact_partial++;
		st_log(w, "%s: on the counters %llu of %llu ns: not checked",
		       what, (unsigned long long)g.running,
		       (unsigned long long)g.enabled);
		return;
	}
	w->s.exact_full++;
	for (i = 0; i < n; i++) {
		uint64_t id = 0;

		if (ioctl(fds[i], PERF_EVENT_IOC_ID, &id) || id != g.v[i].id)
			st_fail(w, "%s: member %d id %llu, group read says %llu",
				what, i, (unsigned long long)id,
				(unsigned long long)g.v[i].id);
		if (g.v[i].value != runs * m[i].per_run)
			st_fail(w, "%s: member %d (%s config %#llx config1 %#llx%s%s): %llu, expected %llu x %llu = %llu",
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
}

static int open_members(struct st_worker *w, const char *what, pid_t pid,
			struct member *m, int n, int *fds, bool disabled)
{
	struct perf_event_attr a;
	int i;

	for (i = 0; i < n; i++) {
		exact_attr(&a, &m[i]);
		a.read_format = RF_ALL;
		a.disabled = !i && disabled;
		fds[i] = st_perf_open(&a, pid, -1, i ? fds[0] : -1,
				      PERF_FLAG_FD_CLOEXEC);
		w->s.opens++;
		if (fds[i] < 0) {
			/* 6.2+: a group that can never fit is refused */
			if (fds[i] != -EINVAL)
				st_fail(w, "%s: open member %d (%s config %#llx config1 %#llx): %s",
					what, i, m[i].name,
					(unsigned long long)m[i].config,
					(unsigned long long)m[i].config1,
					st_errname(fds[i]));
			else
				st_log(w, "%s: member %d refused (EINVAL)",
				       what, i);
			close_fds(w, fds, i);
			return -1;
		}
	}
	return 0;
}

/* A per-task counting group on this task over runs of a known program. */
static void exact_group(struct st_worker *w)
{
	struct member m[5];
	int fds[5], n, i, prog, runs = 1 + st_below(&w->r, 5);
	int max = st.nr_counters < 5 ? st.nr_counters : 5;
	bool disabled = st_chance(&w->r, 50);
	uint64_t counted = runs;

	prog = pick_members(w, m, &n, max, true);
	st_log(w, "exact group: %d members on %s, %d runs%s", n,
	       st.prog[prog].name, runs, disabled ? ", enabled later" : "");
	for (i = 0; i < n; i++)
		st_log(w, "  member %d: %s config %#llx config1 %#llx%s%s", i,
		       m[i].name, (unsigned long long)m[i].config,
		       (unsigned long long)m[i].config1,
		       m[i].exclude_user ? " u-excl" : "",
		       m[i].exclude_kernel ? " k-excl" : "");
	if (open_members(w, "exact group", 0, m, n, fds, disabled))
		return;
	if (disabled && ioctl(fds[0], PERF_EVENT_IOC_ENABLE, 0))
		st_fail(w, "exact group: ENABLE: %s", st_errname(errno));
	for (i = 0; i < runs; i++) {
		if (st_chance(&w->r, 30))
			st_random_affinity(w);
		if (st_chance(&w->r, 15)) {
			/* not counted: disabled around one run */
			ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
			st_run_checked(w, prog, 1000000);
			ioctl(fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
			st_log(w, "  one run while disabled");
		}
		if (st_run_checked(w, prog, 1000000))
			counted = ~0ull;
		if (st_chance(&w->r, 15)) {
			ioctl(fds[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
			counted = runs - i - 1;
			st_log(w, "  reset after run %d", i + 1);
		}
	}
	if (counted != ~0ull)
		check_group(w, "exact group", fds, m, n, counted);
	close_fds(w, fds, n);
}

/*
 * A sampling leader (IP | RAW, maybe foo, maybe counting members) on this
 * task: exact count, samples + lost = floor(count / period), each
 * sample's raw count the next multiple of the period.  The period keeps
 * the samples under one jiffy's throttle limit even if every run fell in
 * one jiffy, so throttling cannot drop any.
 */
static void exact_sampling(struct st_worker *w)
{
	int prog = st_below(&w->r, 3), runs = 1 + st_below(&w->r, 6);
	const struct st_prog *p = &st.prog[prog];
	static const char *const names[] = { "uops", "cycles", "insns",
					     "tag1", "tag2" };
	const char *name = names[st_below(&w->r, 5)];
	uint64_t per_run = expect_of(prog, name), total = runs * per_run;
	uint64_t period = random_period(&w->r), min, cfg = alias_cfg(name);
	struct perf_event_attr a;
	struct ring rb;
	struct { uint64_t value, enabled, running; } c;
	int fd, mem = -1, i, ret;
	bool foo = st_chance(&w->r, 25);

	min = total / MAX_SAMPLES_PER_TICK + 1;
	if (period < min)
		period = min;
	if (st_chance(&w->r, 60))
		cfg |= ctr_cfg(1 + st_below(&w->r, st.nr_counters));
	attr_base(&a, cfg, 0);
	if (foo) {
		uint64_t c[3] = { 0, 0, 0 };

		a.config1 = st_put(c, "foo", 1);
	}
	a.sample_period = period;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.exclude_kernel = st_chance(&w->r, 30);
	st_log(w, "exact sampling: %s config %#llx%s period %llu, %d runs of %s",
	       name, (unsigned long long)cfg, foo ? " foo" : "",
	       (unsigned long long)period, runs, p->name);
	fd = st_perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	w->s.opens++;
	if (fd < 0) {
		st_fail(w, "exact sampling: open: %s", st_errname(fd));
		return;
	}
	if (st_chance(&w->r, 40)) {	/* a counting member */
		attr_base(&a, alias_cfg("cycles"), 0);
		mem = st_perf_open(&a, 0, -1, fd, PERF_FLAG_FD_CLOEXEC);
		if (mem < 0 && mem != -EINVAL)
			st_fail(w, "exact sampling: member: %s",
				st_errname(mem));
	}
	ret = ring_map(fd, &rb, 64);
	if (ret) {
		st_fail(w, "exact sampling: mmap: %s", st_errname(ret));
		goto out;
	}
	rb.period = period;
	for (i = 0; i < runs; i++) {
		if (st_chance(&w->r, 30))
			st_random_affinity(w);
		st_run_checked(w, prog, 1000000);
		ring_drain(w, &rb, true);
	}
	if (read(fd, &c, sizeof(c)) != sizeof(c)) {
		st_fail(w, "exact sampling: read: %s", st_errname(errno));
		goto out;
	}
	ring_drain(w, &rb, true);
	w->s.samples += rb.samples;
	w->s.lost += rb.lost;
	w->s.sample_checks++;
	st_log(w, "  count %llu, %llu samples, %llu lost, on the counters %llu of %llu ns",
	       (unsigned long long)c.value, (unsigned long long)rb.samples,
	       (unsigned long long)rb.lost, (unsigned long long)c.running,
	       (unsigned long long)c.enabled);
	if (c.running == c.enabled) {
		w->s.exact_full++;
		if (c.value != total)
			st_fail(w, "exact sampling: %s on %s: count %llu, expected %d x %llu = %llu",
				name, p->name, (unsigned long long)c.value,
				runs, (unsigned long long)per_run,
				(unsigned long long)total);
	} else {
		w->s.exact_partial++;
	}
	if (rb.samples + rb.lost != c.value / period)
		st_fail(w, "exact sampling: %s period %llu config %#llx%s: %llu samples + %llu lost, expected floor(%llu / %llu) = %llu",
			name, (unsigned long long)period,
			(unsigned long long)cfg, foo ? " foo" : "",
			(unsigned long long)rb.samples,
			(unsigned long long)rb.lost,
			(unsigned long long)c.value,
			(unsigned long long)period,
			(unsigned long long)(c.value / period));
out:
	ring_unmap(&rb);
	if (st_chance(&w->r, 50)) {
		close(fd);
		if (mem >= 0)
			close(mem);
	} else {
		if (mem >= 0)
			close(mem);
		close(fd);
	}
}

/* A child runs @prog @runs times after a byte on @go; 0 or -1. */
static pid_t spawn_runner(struct st_worker *w, int prog, int runs, int go)
{
	pid_t pid = fork();
	char c;
	int i, bad = 0;

	if (pid)
		return pid;
	if (go >= 0 && read(go, &c, 1) != 1)
		_exit(3);
	for (i = 0; i < runs; i++) {
		if (i && st_chance(&w->r, 30))
			st_random_affinity(w);
		bad |= st_run_checked(w, prog, 1000000);
	}
	_exit(bad ? 1 : 0);
}

/* An inherited counting event: a child's runs count for the parent's fd. */
static void exact_inherit(struct st_worker *w)
{
	struct member m[1];
	struct perf_event_attr a;
	int n, prog, runs = 1 + st_below(&w->r, 4), fd, status;
	struct { uint64_t value, enabled, running; } c;
	pid_t pid;

	prog = pick_members(w, m, &n, 1, false);
	exact_attr(&a, &m[0]);
	a.inherit = 1;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	st_log(w, "exact inherit: %s config %#llx config1 %#llx, child runs %s %d times",
	       m[0].name, (unsigned long long)m[0].config,
	       (unsigned long long)m[0].config1, st.prog[prog].name, runs);
	fd = st_perf_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	w->s.opens++;
	if (fd < 0) {
		st_fail(w, "exact inherit: open: %s", st_errname(fd));
		return;
	}
	pid = spawn_runner(w, prog, runs, -1);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status) {
		st_fail(w, "exact inherit: child status %#x", status);
		close(fd);
		return;
	}
	if (read(fd, &c, sizeof(c)) != sizeof(c)) {
		st_fail(w, "exact inherit: read: %s", st_errname(errno));
	} else if (c.running != c.enabled) {
		w->s.exact_partial++;
	} else {
		w->s.exact_full++;
		if (c.value != runs * m[0].per_run)
			st_fail(w, "exact inherit: %s config %#llx config1 %#llx: %llu, expected %d x %llu",
				m[0].name, (unsigned long long)m[0].config,
				(unsigned long long)m[0].config1,
				(unsigned long long)c.value, runs,
				(unsigned long long)m[0].per_run);
	}
	close(fd);
}

/* A group on a child's pid, read after the child has exited. */
static void exact_child(struct st_worker *w)
{
	struct member m[5];
	int fds[5], n, prog, runs = 1 + st_below(&w->r, 4), go[2], status;
	int max = st.nr_counters < 5 ? st.nr_counters : 5;
	pid_t pid;

	prog = pick_members(w, m, &n, max, true);
	if (pipe(go))
		return;
	pid = spawn_runner(w, prog, runs, go[0]);
	st_log(w, "exact child %d: %d members, %s %d times", pid, n,
	       st.prog[prog].name, runs);
	if (!open_members(w, "exact child", pid, m, n, fds, false)) {
		if (write(go[1], "g", 1) != 1)
			st_fail(w, "exact child: pipe");
		if (waitpid(pid, &status, 0) != pid || status)
			st_fail(w, "exact child: status %#x", status);
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

/*
 * A CPU-wide sampling event: whoever runs on that CPU, samples + lost
 * = floor(count / period), read after DISABLE.  It is opened disabled
 * and enabled once its ring is mapped, as perf record does: enabled
 * before, it would sample the other workers' runs on that CPU into no
 * buffer, and the perf core drops such samples without a trace (no
 * PERF_RECORD_LOST) while the count keeps their events (perf.rst,
 * "Sampling").
 */
static void cpu_sampling(struct st_worker *w)
{
	static const uint64_t periods[] = { 5003, 20011, 100003 };
	int cpu = st_below(&w->r, st.ncpus), fd, i, runs = 1 + st_below(&w->r, 4);
	uint64_t period = periods[st_below(&w->r, 3)];
	uint64_t cfg = alias_cfg(st_chance(&w->r, 50) ? "uops" : "cycles");
	struct perf_event_attr a;
	struct { uint64_t value, enabled, running; } c;
	struct ring rb;
	cpu_set_t set;

	if (st_chance(&w->r, 50))
		cfg |= ctr_cfg(1 + st_below(&w->r, st.nr_counters));
	attr_base(&a, cfg, 0);
	a.sample_period = period;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.disabled = 1;
	fd = st_perf_open(&a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	w->s.opens++;
	st_log(w, "cpu sampling: cpu %d config %#llx period %llu: %s", cpu,
	       (unsigned long long)cfg, (unsigned long long)period,
	       fd < 0 ? st_errname(fd) : "ok");
	if (fd < 0) {
		if (fd != -ENODEV)
			st_fail(w, "cpu sampling: open: %s", st_errname(fd));
		return;
	}
	if (ring_map(fd, &rb, 128)) {
		st_fail(w, "cpu sampling: mmap: %s", st_errname(errno));
		close(fd);
		return;
	}
	rb.period = period;
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
		st_fail(w, "cpu sampling: ENABLE: %s", st_errname(errno));
		ring_unmap(&rb);
		close(fd);
		return;
	}
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (i = 0; i < runs; i++) {
		st_run_checked(w, P_SORTLOOP, 50000);
		ring_drain(w, &rb, false);
	}
	if (ioctl(fd, PERF_EVENT_IOC_DISABLE, 0))
		st_fail(w, "cpu sampling: DISABLE: %s", st_errname(errno));
	usleep(10000);
	ring_drain(w, &rb, false);
	if (read(fd, &c, sizeof(c)) != sizeof(c)) {
		st_fail(w, "cpu sampling: read: %s", st_errname(errno));
	} else {
		w->s.sample_checks++;
		w->s.samples += rb.samples;
		w->s.lost += rb.lost;
		st_log(w, "  count %llu, %llu samples, %llu lost",
		       (unsigned long long)c.value,
		       (unsigned long long)rb.samples,
		       (unsigned long long)rb.lost);
		if (rb.samples + rb.lost != c.value / period)
			st_fail(w, "cpu sampling: cpu %d config %#llx period %llu: %llu samples + %llu lost, expected floor(%llu / %llu) = %llu",
				cpu, (unsigned long long)cfg,
				(unsigned long long)period,
				(unsigned long long)rb.samples,
				(unsigned long long)rb.lost,
				(unsigned long long)c.value,
				(unsigned long long)period,
				(unsigned long long)(c.value / period));
	}
	ring_unmap(&rb);
	close(fd);
}

void st_exact_op(struct st_worker *w)
{
	uint32_t k = st_below(&w->r, 100);

	if (k < 35)
		exact_group(w);
	else if (k < 65)
		exact_sampling(w);
	else if (k < 77)
		exact_inherit(w);
	else if (k < 89)
		exact_child(w);
	else
		cpu_sampling(w);
}
