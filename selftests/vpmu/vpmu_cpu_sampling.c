// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_cpu_sampling - CPU-wide sampling is exact: samples + lost =
 * floor(count / period) (Documentation/admin-guide/perf/vpmu.rst,
 * "Sampling").
 *
 * The stress tier's CPU-wide check opened its event enabled and mapped
 * the ring buffer after: the other workers' runs on that CPU completed
 * periods meanwhile, which the perf core discards with no buffer to
 * write them to (no PERF_RECORD_LOST, no PERF_FORMAT_LOST), while the
 * count keeps their events.  samples_before_the_ring shows exactly that;
 * the other cases check that, with the ring mapped before the event is
 * enabled, no sample is ever missing where the stress looked for one:
 * the event taken off its counter and put back between overflows
 * (PERF_EVENT_IOC_DISABLE/ENABLE, pinned and free counters, periods
 * longer than narrow counters), more CPU-wide samplers than counters
 * (rotated on 6.2 and later), and another task's runs on the CPU.
 *
 * sortloop.vprg never halts: a run of B cycles stops on its budget, so
 * vpmu_cycles counts exactly B.  Nothing else runs programs in the VM,
 * so a CPU-wide event on CPU 0 counts exactly this test's runs.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include "vpmu_test.h"
#include "vpmu_perf_lib.h"

#define CPU		0
#define PERIOD		5003ull

FIXTURE(cs) {
	int dev;
	struct vt_prog loop;
	uint8_t *mem;
	uint64_t cycles;
	int nr_counters;
};

FIXTURE_SETUP(cs)
{
	if (vt_setup_runs(_metadata, &self->dev, &self->loop, "sortloop",
			  NULL))
		return;
	self->mem = vt_prog_mem(&self->loop);
	ASSERT_NE(NULL, self->mem);
	self->cycles = vt_alias("cycles");
	ASSERT_NE(~0ull, self->cycles);
	self->nr_counters = vt_pmu_long("caps/nr_counters");
	ASSERT_LT(0, self->nr_counters);
	ASSERT_EQ(0, vt_pin(CPU));
}

FIXTURE_TEARDOWN(cs)
{
	vt_teardown_runs(self->dev, &self->loop, NULL);
	free(self->mem);
}

/* Run sortloop for exactly @budget cycles on this CPU; 0 or -errno. */
static int run(FIXTURE_DATA(cs) *self, uint64_t budget)
{
	struct vpmu_run r;
	int ret = vt_run(self->dev, &self->loop, self->mem, budget, &r);

	if (!ret && (r.stop != VPMU_RUN_BUDGET || r.cycles != budget))
		ret = -EPROTO;
	return ret;
}

struct cs_event {
	int fd;
	uint64_t period;
	struct vt_ring rb;
	struct { uint64_t value, enabled, running, lost; } c;
};

/*
 * A CPU-wide sampling event on CPU, @config (a ctr pin or not), period
 * @period, disabled or not, its ring mapped unless @disabled is -1.
 */
static int cs_open(struct cs_event *ev, uint64_t config, uint64_t period,
		   int disabled)
{
	struct perf_event_attr a;

	memset(ev, 0, sizeof(*ev));
	vt_attr(&a, config, 0);
	a.sample_period = period;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_LOST;
	a.disabled = disabled > 0;
	ev->period = period;
	ev->fd = vt_open(&a, -1, CPU, -1);
	if (ev->fd < 0)
		return ev->fd;
	if (disabled >= 0 && vt_ring_map(ev->fd, &ev->rb)) {
		close(ev->fd);
		return -ENOMEM;
	}
	return 0;
}

/* Disable, drain and read @ev; 0 or -errno. */
static int cs_finish(struct cs_event *ev)
{
	if (ioctl(ev->fd, PERF_EVENT_IOC_DISABLE, 0))
		return -errno;
	vt_ring_drain(&ev->rb);
	if (read(ev->fd, &ev->c, sizeof(ev->c)) != sizeof(ev->c))
		return -EIO;
	return 0;
}

static void cs_close(struct cs_event *ev)
{
	vt_ring_unmap(&ev->rb);
	if (ev->fd >= 0)
		close(ev->fd);
	ev->fd = -1;
}

/*
 * What the stress tier saw: the event enabled at open samples two runs'
 * periods before its ring exists.  The perf core drops those samples
 * (perf_output_begin() finds no buffer) and counts no loss, as for any
 * PMU; the count has their events.  Only the periods completed after
 * the mmap are in the ring.
 */
TEST_F(cs, samples_before_the_ring)
{
	struct cs_event ev;

	ASSERT_EQ(0, cs_open(&ev, self->cycles, PERIOD, -1));
	ASSERT_EQ(0, run(self, 50000));
	ASSERT_EQ(0, vt_ring_map(ev.fd, &ev.rb));
	ASSERT_EQ(0, run(self, 50000));
	ASSERT_EQ(0, cs_finish(&ev));
	EXPECT_EQ(100000ull, ev.c.value);
	EXPECT_EQ(0ull, ev.rb.lost);
	EXPECT_EQ(0ull, ev.c.lost);
	EXPECT_EQ(100000 / PERIOD - 50000 / PERIOD, ev.rb.samples);
	cs_close(&ev);

	/* Mapped before it is enabled, as perf record does: all of them. */
	ASSERT_EQ(0, cs_open(&ev, self->cycles, PERIOD, 1));
	ASSERT_EQ(0, ioctl(ev.fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, run(self, 50000));
	ASSERT_EQ(0, run(self, 50000));
	ASSERT_EQ(0, cs_finish(&ev));
	EXPECT_EQ(100000ull, ev.c.value);
	EXPECT_EQ(100000 / PERIOD, ev.rb.samples + ev.rb.lost);
	cs_close(&ev);
}

/*
 * Taken off the counter and put back between overflows, 40 times, the
 * period goes on where it was: on a free counter and on each counter
 * pinned, with a period shorter and one longer than a 16-bit counter
 * (carried over several wraps).  A run while disabled counts nothing.
 * Periods keep every round's samples below the throttle limit.
 */
TEST_F(cs, disable_enable_between_overflows)
{
	static const uint64_t periods[] = { 1009, PERIOD, 70001 };
	struct cs_event ev;
	unsigned int p, i;
	int c;

	for (c = 0; c <= self->nr_counters; c++) {
		for (p = 0; p < 3; p++) {
			uint64_t cfg = self->cycles |
				       (c ? vt_field("ctr", c) : 0);
			uint64_t total = 0;

			ASSERT_EQ(0, cs_open(&ev, cfg, periods[p], 1));
			for (i = 0; i < 40; i++) {
				ASSERT_EQ(0, ioctl(ev.fd, PERF_EVENT_IOC_ENABLE,
						   0));
				ASSERT_EQ(0, run(self, 3001 + 1000 * (i % 7)));
				total += 3001 + 1000 * (i % 7);
				ASSERT_EQ(0, ioctl(ev.fd,
						   PERF_EVENT_IOC_DISABLE, 0));
				ASSERT_EQ(0, run(self, 777));
				vt_ring_drain(&ev.rb);
			}
			ASSERT_EQ(0, cs_finish(&ev));
			EXPECT_EQ(total, ev.c.value) TH_LOG("ctr %d", c);
			EXPECT_EQ(total / periods[p], ev.rb.samples +
							  ev.rb.lost)
				TH_LOG("ctr %d period %llu: %llu samples, %llu lost, count %llu",
				       c, (unsigned long long)periods[p],
				       (unsigned long long)ev.rb.samples,
				       (unsigned long long)ev.rb.lost,
				       (unsigned long long)ev.c.value);
			cs_close(&ev);
		}
	}
}

/*
 * One CPU-wide sampler more than there are counters: the perf core
 * rotates them (6.2 and later; on 6.1 the last one never gets a
 * counter).  Each one's samples are exactly its count's periods,
 * however often it was taken off and put back.
 */
TEST_F(cs, more_samplers_than_counters)
{
	struct cs_event ev[17];
	uint64_t enabled = 0, running = 0;
	int n = self->nr_counters + 1, i, k;

	ASSERT_GE(17, n);
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, cs_open(&ev[i], self->cycles, PERIOD + 2 * i, 1));
	for (i = 0; i < n; i++)
		ASSERT_EQ(0, ioctl(ev[i].fd, PERF_EVENT_IOC_ENABLE, 0));
	for (k = 0; k < 30; k++) {
		ASSERT_EQ(0, run(self, 100003));
		usleep(3000);	/* a rotation tick */
		for (i = 0; i < n; i++)
			vt_ring_drain(&ev[i].rb);
	}
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, cs_finish(&ev[i]));
		EXPECT_EQ(ev[i].c.value / ev[i].period,
			  ev[i].rb.samples + ev[i].rb.lost)
			TH_LOG("event %d period %llu: %llu samples, %llu lost, count %llu, on the counter %llu of %llu ns",
			       i, (unsigned long long)ev[i].period,
			       (unsigned long long)ev[i].rb.samples,
			       (unsigned long long)ev[i].rb.lost,
			       (unsigned long long)ev[i].c.value,
			       (unsigned long long)ev[i].c.running,
			       (unsigned long long)ev[i].c.enabled);
		EXPECT_GE(30 * 100003ull, ev[i].c.value);
		/* Rotated: each one was on the counters some of the time. */
		if (!vt_kernel_before(6, 2))
			EXPECT_LT(0ull, ev[i].c.running) TH_LOG("event %d", i);
		enabled += ev[i].c.enabled;
		running += ev[i].c.running;
	}
	/* Someone was off the counters some of the time. */
	EXPECT_LT(running, enabled);
	for (i = 0; i < n; i++)
		cs_close(&ev[i]);
}

/*
 * Another task's runs on the CPU: a child pinned to it runs while this
 * task waits; the CPU-wide event samples every period of them.
 */
TEST_F(cs, another_task_runs)
{
	struct cs_event ev;
	int status, i;
	pid_t pid;

	ASSERT_EQ(0, cs_open(&ev, self->cycles, PERIOD, 1));
	ASSERT_EQ(0, ioctl(ev.fd, PERF_EVENT_IOC_ENABLE, 0));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		for (i = 0; i < 5; i++)
			if (run(self, 50021))
				_exit(1);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	ASSERT_EQ(0, cs_finish(&ev));
	EXPECT_EQ(5 * 50021ull, ev.c.value);
	EXPECT_EQ(5 * 50021 / PERIOD, ev.rb.samples + ev.rb.lost);
	cs_close(&ev);
}

/*
 * A stalling microword may take a run past its budget; if a sampling
 * counter wraps on that same microword, the engine stops for the overflow
 * with no budget left, and the run must end there.  (The chunk loop once
 * computed what was left as budget - used, which wrapped: the run went on
 * to the program's halt.)  memcpy.vprg stalls on load misses and on a
 * full write queue; for every budget b short of its 3120 cycles, vpmu_cycles
 * sampled with period b wraps on the microword that reaches cycle b.  A
 * microword stalls for at most 64 + 64 cycles (dc_miss_penalty, wq_drain).
 * One event, its period set to b before each run (PERF_EVENT_IOC_PERIOD
 * starts a new period: vpmu_period_arm()).  Not an event for each budget:
 * on PREEMPT_RT freeing an event waits for two RCU grace periods
 * (irq_work_sync() of its two irq_works, 6.12.y), and the 3,119 closes
 * kept this test waiting 50 s there.
 */
TEST_F_TIMEOUT(cs, overflow_on_the_budget_overshoot, 240)
{
	struct perf_event_attr a;
	struct vt_prog memcpy_prog;
	struct vpmu_run r;
	uint8_t *mem;
	uint64_t b, over = 0, bad = 0;
	int fd;

	if (vt_need_prog(_metadata, &memcpy_prog, &mem, "memcpy"))
		return;
	vt_attr(&a, self->cycles, 0);
	a.sample_period = 1;
	fd = vt_open(&a, 0, -1, -1);
	ASSERT_LE(0, fd);
	for (b = 1; b < 3120; b++) {
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &b));
		ASSERT_EQ(0, vt_run(self->dev, &memcpy_prog, mem, b, &r));
		over += r.cycles > b;
		if (r.stop != VPMU_RUN_BUDGET || r.cycles < b ||
		    r.cycles > b + 128) {
			if (bad++ < 5)
				TH_LOG("budget %llu: stop %u after %llu cycles",
				       (unsigned long long)b, r.stop,
				       (unsigned long long)r.cycles);
		}
	}
	close(fd);
	EXPECT_EQ(0ull, bad);
	/* The case is there: some budgets end inside a stall. */
	EXPECT_LT(0ull, over);
	free(mem);
	vt_prog_free(&memcpy_prog);
}

TEST_HARNESS_MAIN
