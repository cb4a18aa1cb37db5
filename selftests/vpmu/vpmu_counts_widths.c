// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_counts_widths - sampling on counters of 1, 3, 8, 16 and 64 bits
 * (issue 12, Documentation/admin-guide/perf/vpmu.rst, "Sampling").
 *
 * The module is reloaded with nr_counters=5 counter_widths=1,3,8,16,64
 * (and restored to its defaults after); at periods below, equal to and
 * above each counter's range, floor(events / period) samples exactly,
 * each at a multiple of the period, on the counter asked for; also with
 * stall cycles and privilege filters, and for a child's runs.  An
 * inherited event's samples come from as many event objects as the perf
 * core passed the child's runs between (its context swap with the parent
 * on one CPU): each object's samples are at multiples of the period of
 * its own count, told apart by PERF_SAMPLE_STREAM_ID.
 */
#define _GNU_SOURCE
#include "vpmu_counts.h"

#define MAX_SAMPLES	400	/* under the driver's throttle */

/* What the samples of a ring must carry. */
struct sample_check {
	uint64_t period;
	uint32_t ctr;
	bool exact;
	int bad;
};

static int check_sample(struct vt_ring *rb, const struct perf_event_header *h,
			const char *rec, void *arg)
{
	struct sample_check *c = arg;
	uint64_t at = rb->samples * c->period;	/* the k-th: k x period */
	struct vt_sample s;

	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	vt_sample_parse(rec, h->size, !c->exact, &s);
	if (s.raw.ctr != c->ctr ||
	    (c->exact ? s.raw.count != at : s.raw.count < at))
		c->bad++;
	return 0;
}

/*
 * Read the ring of an IP | RAW sampling event (IP | PERIOD | RAW unless
 * @exact), counting samples and lost records; the number of samples
 * whose raw count is not k x @period (less than that, unless @exact) or
 * whose counter is not @ctr.
 */
static int read_samples(struct vt_ring *rb, uint64_t period, uint32_t ctr,
			bool exact)
{
	struct sample_check c = { period, ctr, exact, 0 };

	vt_ring_read(rb, check_sample, &c);
	return c.bad;
}

/*
 * The samples of a ring whose sample_type is IP | STREAM_ID | RAW, per
 * event object (stream id): the k-th sample of a stream must be at k x
 * @period of that object's count, on counter @ctr.
 */
#define MAX_STREAMS	4
struct stream_check {
	uint64_t period;
	uint32_t ctr;
	int nr, bad;
	struct {
		uint64_t id, samples;
	} s[MAX_STREAMS];
};

static int check_stream_sample(struct vt_ring *rb,
			       const struct perf_event_header *h,
			       const char *rec, void *arg)
{
	struct stream_check *c = arg;
	struct vt_sample s;
	uint64_t id;
	int i;

	if (h->type != PERF_RECORD_SAMPLE)
		return 0;
	if (h->size < sizeof(*h) + 16) {
		c->bad++;
		return 0;
	}
	/* { header, ip, stream_id, raw }: the id sits where PERIOD would */
	memcpy(&id, rec + sizeof(*h) + 8, 8);
	vt_sample_parse(rec, h->size, true, &s);
	for (i = 0; i < c->nr && c->s[i].id != id; i++)
		;
	if (i == c->nr) {
		if (c->nr == MAX_STREAMS) {
			c->bad++;
			return 0;
		}
		c->s[c->nr++].id = id;
	}
	c->s[i].samples++;
	if (s.raw.ctr != c->ctr || s.raw.count != c->s[i].samples * c->period)
		c->bad++;
	return 0;
}

/*
 * Check the samples of @rb for @total events at @period on counter @ctr
 * (0-based) in every event object that counted them: each object's are
 * exact, and the objects' samples add up to what their counts allow (an
 * object ends with less than a period left over: exactly floor(@total /
 * @period) for one object).  The number of objects, or -1.
 */
static int check_streams(struct __test_metadata *_metadata, struct vt_ring *rb,
			 uint64_t total, uint64_t period, uint32_t ctr)
{
	struct stream_check c = { .period = period, .ctr = ctr };
	uint64_t sampled = 0;
	int i;

	EXPECT_EQ(0, vt_ring_read(rb, check_stream_sample, &c));
	for (i = 0; i < c.nr; i++)
		sampled += c.s[i].samples * period;
	EXPECT_EQ(0, c.bad);
	EXPECT_LE(sampled, total);
	EXPECT_GE((uint64_t)c.nr * (period - 1), total - sampled)
		TH_LOG("%llu events, %llu samples in %d objects",
		       (unsigned long long)total,
		       (unsigned long long)rb->samples, c.nr);
	EXPECT_EQ(0ull, rb->lost_records);
	return c.bad ? -1 : c.nr;
}

#define NR_WIDTHS	5
static const unsigned int widths[NR_WIDTHS] = { 1, 3, 8, 16, 64 };

FIXTURE(widths) {
	int dev;
	bool reloaded;
	struct vt_prog sum, marks;
	uint8_t *sum_mem, *marks_mem;
};

FIXTURE_SETUP(widths)
{
	char name[64], buf[64];
	unsigned int i;
	int ret;

	self->dev = -1;
	self->reloaded = false;
	self->sum_mem = NULL;
	self->marks_mem = NULL;
	if (vt_type() < 0)
		SKIP(return, "no vpmu PMU");
	if (vt_module_builtin())
		SKIP(return, VT_BUILTIN_REASON);
	if (access(vt_ko(), R_OK))
		SKIP(return, VT_NO_KO_REASON);
	if (vt_prog_get(&self->sum, &self->sum_mem, "sum") ||
	    vt_prog_get(&self->marks, &self->marks_mem, "marks"))
		SKIP(return, "no sum.vprg or marks.vprg in $VPMU_SHARE");
	ret = vt_reload("nr_counters=5 counter_widths=1,3,8,16,64");
	if (ret == -EPERM)
		SKIP(return, "not allowed to reload the module");
	ASSERT_EQ(0, ret) TH_LOG("reload: %s", strerror(-ret));
	self->reloaded = true;
	for (i = 0; i < NR_WIDTHS; i++) {
		snprintf(name, sizeof(name), "caps/counter%u_width", i);
		ASSERT_EQ(0, vt_pmu_read(name, buf, sizeof(buf)));
		ASSERT_EQ(widths[i], strtoul(buf, NULL, 0));
	}
	self->dev = open(VT_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->dev);
	ASSERT_EQ(0, vt_pin(0));
}

FIXTURE_TEARDOWN(widths)
{
	if (self->dev >= 0)
		close(self->dev);
	/* the defaults again, for the tests that follow */
	if (self->reloaded)
		EXPECT_EQ(0, vt_reload(""));
	free(self->sum_mem);
	free(self->marks_mem);
	vt_prog_free(&self->sum);
	vt_prog_free(&self->marks);
}

/*
 * @runs runs of @p (@uops microwords each) under a uops sampling event of
 * period @period on counter @ctr (0-based) and a counting one on another
 * counter: both count runs x uops, and the samples are exactly
 * floor(runs x uops / period), the k-th at k x period.
 */
static void sample_case(struct __test_metadata *_metadata,
			FIXTURE_DATA(widths) *self, const struct vt_prog *p,
			uint8_t *mem, uint64_t uops, int runs,
			unsigned int ctr, uint64_t period)
{
	uint64_t want = runs * uops;
	struct perf_event_attr a;
	struct vt_ring rb;
	int fd, fc, k, bad;

	vt_count_attr(&a, VT_EV_UOPS | VT_CFG_CTR(ctr + 1), 0);
	a.sample_period = period;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
	fd = vt_open(&a, 0, -1, -1);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
	ASSERT_EQ(0, vt_ring_map(fd, &rb));
	/* the counting twin: the highest counter, or the lowest */
	vt_count_attr(&a, VT_EV_UOPS | VT_CFG_CTR(ctr == NR_WIDTHS - 1 ? 1 :
						      NR_WIDTHS), 0);
	fc = vt_open(&a, 0, -1, -1);
	ASSERT_LE(0, fc);
	for (k = 0; k < runs; k++)
		ASSERT_EQ(0, vt_counts_run_halt(self->dev, p, mem));
	EXPECT_EQ(want, vt_count(fc));
	EXPECT_EQ(want, vt_count(fd));
	bad = read_samples(&rb, period, ctr, true);
	EXPECT_EQ(want / period, rb.samples)
		TH_LOG("%u-bit counter %u, period %llu, %llu events: %llu samples",
		       widths[ctr], ctr + 1, (unsigned long long)period,
		       (unsigned long long)want,
		       (unsigned long long)rb.samples);
	EXPECT_EQ(0ull, rb.lost_records);
	EXPECT_EQ(0, bad);
	vt_ring_unmap(&rb);
	close(fc);
	close(fd);
}

/* Periods around a counter's range 2^w, and the 44. */
static int periods_of(unsigned int w, uint64_t *p)
{
	uint64_t r = w < 64 ? 1ull << w : 0;
	int n = 0;

	p[n++] = 1;
	p[n++] = 2;
	p[n++] = 3;
	p[n++] = 44;
	if (r && r > 3) {
		p[n++] = r - 1;
		p[n++] = r;
	}
	if (r) {
		p[n++] = r + 1;
		p[n++] = 2 * r + 1;
		p[n++] = 5 * r - 1;
	}
	p[n++] = 178;
	p[n++] = 179;
	p[n++] = 180;
	return n;
}

/* One run of sum.s (179 microwords): every period up to 180. */
TEST_F_TIMEOUT(widths, sum_every_period, 120)
{
	uint64_t p[16];
	unsigned int c;
	int i, n;

	for (c = 0; c < NR_WIDTHS; c++) {
		n = periods_of(widths[c], p);
		for (i = 0; i < n; i++)
			if (p[i] <= 2 * VT_SUM_UOPS)
				sample_case(_metadata, self, &self->sum,
					    self->sum_mem, VT_SUM_UOPS, 1, c, p[i]);
	}
}

/* The case: period 44 on the 3-bit counter, over three runs. */
TEST_F(widths, period_44_on_3_bits)
{
	sample_case(_metadata, self, &self->sum, self->sum_mem, VT_SUM_UOPS, 3,
		    1, 44);
}

/* marks.s (35004 microwords): periods of one to four hundred samples. */
TEST_F_TIMEOUT(widths, long_periods, 120)
{
	static const uint64_t p[] = {
		88, 255, 256, 257, 1000, 4095, 4096, 4097, 35004, 35005,
	};
	unsigned int c, i;

	for (c = 0; c < NR_WIDTHS; c++)
		for (i = 0; i < ARRAY_SIZE(p); i++)
			sample_case(_metadata, self, &self->marks,
				    self->marks_mem, VT_MARKS_UOPS, 1, c, p[i]);
}

/*
 * Other events (cycles with stall cycles, insns, cache misses, a tag),
 * with and without each privilege filter, on every width: the samples
 * are floor(count / period) of the count a counting event gets for the
 * same run (a stalling microword may complete several periods at once,
 * so a sample's count is at least, not exactly, k x period).
 */
TEST_F_TIMEOUT(widths, events_filters_stalls, 300)
{
	static const char *const progs[] = { "sort", "syscall" };
	static const uint64_t evs[] = { VT_EV_CYCLES, VT_EV_INSNS, 7, 0x105 };
	static const uint64_t per[] = { 1, 3, 8, 44 };
	unsigned int pi, i, k;
	struct perf_event_attr a;
	struct vpmu_run r;
	int bad = 0;

	for (pi = 0; pi < 2; pi++) {
		struct vt_prog p;
		uint8_t *mem;

		ASSERT_EQ(0, vt_prog_get(&p, &mem, progs[pi]));
		for (i = 0; i < 4 * 3 * NR_WIDTHS; i++) {
			/* every event, filter (none, kernel, user), width */
			unsigned int ei = i / (3 * NR_WIDTHS);
			unsigned int x = i / NR_WIDTHS % 3, c = i % NR_WIDTHS;
			uint64_t n;
			int fc;

			/* the count, on the 64-bit counter or the 16-bit one */
			vt_count_attr(&a, evs[ei] | VT_CFG_CTR(c == 4 ? 4 : 5), 0);
			a.exclude_user = x == 1;
			a.exclude_kernel = x == 2;
			fc = vt_open(&a, 0, -1, -1);
			ASSERT_LE(0, fc);
			ASSERT_EQ(0, vt_run(self->dev, &p, mem, VT_COUNTS_BUDGET, &r));
			n = vt_count(fc);
			close(fc);
			for (k = 0; k < 4; k++) {
				struct vt_ring rb;
				int fd, nbad;

				if (n / per[k] >= MAX_SAMPLES)
					continue;
				a.config = evs[ei] | VT_CFG_CTR(c + 1);
				a.sample_period = per[k];
				/* as perf record -c: with PERIOD */
				a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW |
						PERF_SAMPLE_PERIOD;
				fd = vt_open(&a, 0, -1, -1);
				ASSERT_LE(0, fd);
				ASSERT_EQ(0, vt_ring_map(fd, &rb));
				ASSERT_EQ(0, vt_run(self->dev, &p, mem, VT_COUNTS_BUDGET,
						    &r));
				nbad = read_samples(&rb, per[k], c, false);
				if (vt_count(fd) != n ||
				    rb.samples != n / per[k] ||
				    nbad || rb.lost_records) {
					bad++;
					TH_LOG("%s event %#llx filter %u, %u-bit counter, period %llu: count %llu of %llu, %llu samples, %d bad, %llu lost",
					       progs[pi],
					       (unsigned long long)evs[ei], x,
					       widths[c],
					       (unsigned long long)per[k],
					       (unsigned long long)vt_count(fd),
					       (unsigned long long)n,
					       (unsigned long long)rb.samples,
					       nbad,
					       (unsigned long long)rb.lost_records);
				}
				vt_ring_unmap(&rb);
				close(fd);
			}
		}
		free(mem);
		vt_prog_free(&p);
	}
	EXPECT_EQ(0, bad);
}

/*
 * Period 44 on the 3-bit counter for a child's runs (three of sum.s, 537
 * microwords: 12 samples), the child on this CPU or the other: an event
 * on the child's pid, and an inherited copy of an event of this task
 * (per CPU, as perf record opens them: an inherited event has a ring
 * buffer only per CPU).  While this task waits on the child's CPU, the
 * perf core may swap their contexts and the child go on counting in this
 * task's event: its samples then come from two objects.
 */
TEST_F(widths, period_44_in_a_child)
{
	struct perf_event_attr a;
	struct vt_gate g;
	int k, fd, nr;
	pid_t pid;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	for (k = 0; k < 4; k++) {
		bool inherit = k & 1;
		int cpu = k >> 1;
		struct vt_ring rb;

		ASSERT_EQ(0, vt_gate_init(&g));
		vt_count_attr(&a, VT_EV_UOPS | VT_CFG_CTR(2), 0);
		a.sample_period = 44;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_STREAM_ID |
				PERF_SAMPLE_RAW;
		a.inherit = inherit;
		fd = -1;
		if (inherit) {
			fd = vt_open(&a, 0, cpu, -1);
			ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
		}
		pid = vt_child_runs(&self->sum, self->sum_mem, cpu, &g, 3, false);
		ASSERT_LT(0, pid);
		ASSERT_EQ(0, vt_gate_ready(&g));
		if (!inherit) {
			fd = vt_open(&a, pid, -1, -1);
			ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
		}
		ASSERT_EQ(0, vt_ring_map(fd, &rb));
		ASSERT_EQ(0, vt_gate_open(&g));
		ASSERT_EQ(0, vt_wait_ok(pid));
		EXPECT_EQ(3 * VT_SUM_UOPS, vt_count(fd));
		nr = check_streams(_metadata, &rb, 3 * VT_SUM_UOPS, 44, 1);
		/* no copy, no swap: one object */
		if (!inherit)
			EXPECT_EQ(1, nr);
		TH_LOG("inherit %d, child on CPU %d: %llu samples, %d objects",
		       inherit, cpu, (unsigned long long)rb.samples, nr);
		vt_ring_unmap(&rb);
		close(fd);
		vt_gate_close(&g);
	}
}

/*
 * The context swap made to happen: a child with an inherited copy of this
 * task's sampling event runs sum.s six times on this task's CPU, each
 * time this task wakes from a sleep and lets it go.  The child blocks
 * with this task asleep (its object leaves the counters), this task comes
 * back on its own object and goes to sleep with the child runnable (the
 * perf core hands the child this task's object): with nothing else on
 * the CPU the runs alternate between the two objects, 537 microwords and
 * 12 samples in each.  Whether to swap is the perf core's choice, so the
 * test asserts each object's samples, not how many objects there were
 * (it logs that: 2 on every supported kernel).
 */
TEST_F(widths, period_44_in_a_swapping_child)
{
	struct perf_event_attr a;
	struct vt_ring rb;
	int go[2], fd, k, nr;
	pid_t pid;
	char c;

	vt_count_attr(&a, VT_EV_UOPS | VT_CFG_CTR(2), 0);
	a.sample_period = 44;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_STREAM_ID |
			PERF_SAMPLE_RAW;
	a.inherit = 1;
	fd = vt_open(&a, 0, 0, -1);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
	ASSERT_EQ(0, vt_ring_map(fd, &rb));
	ASSERT_EQ(0, pipe(go));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		close(go[1]);
		for (k = 0; k < 6; k++)
			if (read(go[0], &c, 1) != 1 ||
			    vt_counts_run_halt(self->dev, &self->sum, self->sum_mem))
				_exit(2);
		_exit(0);
	}
	close(go[0]);
	for (k = 0; k < 6; k++) {
		usleep(20000);
		ASSERT_EQ(1, write(go[1], "g", 1));
	}
	close(go[1]);
	ASSERT_EQ(0, vt_wait_ok(pid));
	EXPECT_EQ(6 * VT_SUM_UOPS, vt_count(fd));
	nr = check_streams(_metadata, &rb, 6 * VT_SUM_UOPS, 44, 1);
	TH_LOG("%llu samples in %d objects", (unsigned long long)rb.samples,
	       nr);
	vt_ring_unmap(&rb);
	close(fd);
}

TEST_HARNESS_MAIN
