// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_perf_sampling - sampling events of the "vpmu" PMU
 * (Documentation/admin-guide/perf/vpmu.rst, "Sampling").
 *
 * floor(events / period) samples exactly, each with the micro-PC and
 * macro PC of the microword that completed its period (found
 * independently: the next microword of a run whose budget ends just
 * before it), its IP the macro PC's address or, with sample_upc, the
 * micro-PC's, user-mode unless the event counts supervisor mode only;
 * one interrupt line per counter counted in /proc/interrupts; every
 * sample type either refused or delivered, a callchain the IP alone,
 * every precise_ip up to caps/max_precise (3) exact; a run chunk is
 * bounded in overflow stops.  Long runs on narrow counters are
 * vpmu_perf_narrow's.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/time.h>
#include "vpmu_perf.h"

VT_PERF_FIXTURE(perf, "sum");

/*
 * The micro-PC and macro PC of the @m-th microword sum executes (m >= 2):
 * the next microword of a run whose budget ends after m - 1 of them.
 */
static int nth_uword(struct vt_perf_fx *f, uint64_t m, uint32_t *upc,
		     uint32_t *ipc)
{
	if (vt_perf_run(f, m - 1) || f->r.stop != VPMU_RUN_BUDGET)
		return -1;
	*upc = f->r.upc;
	*ipc = f->r.ipc;
	return 0;
}

/*
 * A sample's IP (Documentation/admin-guide/perf/vpmu.rst, "Sampling"):
 * where the runners map the code, VPMU_SAMPLE_PC_BASE + macro PC, or with
 * the format term sample_upc VPMU_SAMPLE_UPC_BASE + micro-PC.
 */
static uint64_t sample_ip(bool upc_ip, uint32_t upc, uint32_t ipc)
{
	return upc_ip ? VPMU_SAMPLE_UPC_BASE + upc : VPMU_SAMPLE_PC_BASE + ipc;
}

TEST_F(perf, sample_exact_upc)
{
	static const uint64_t periods[] = { 1, 2, 7, 50, 178, 179, 180 };
	struct vt_sample s[VT_SUM_UOPS + 1];
	uint32_t upc[VT_SUM_UOPS + 1], ipc[VT_SUM_UOPS + 1];
	uint64_t uops, m, sample_upc;
	unsigned int i;
	int k, fd;

	ASSERT_EQ(0, vt_alias_cfg("uops", &uops));
	ASSERT_LE(0, vt_config_shift("sample_upc"));
	sample_upc = 1ull << vt_config_shift("sample_upc");
	for (m = 2; m <= VT_SUM_UOPS; m++)
		ASSERT_EQ(0, nth_uword(&self->f, m, &upc[m], &ipc[m]));

	/* Every period, then the same with sample_upc. */
	for (i = 0; i < 2 * ARRAY_SIZE(periods); i++) {
		bool upc_ip = i >= ARRAY_SIZE(periods);
		uint64_t p = periods[i % ARRAY_SIZE(periods)];
		struct vt_ring rb;
		struct vt_count c;
		int bad = 0;

		fd = vt_open_sampling(uops | (upc_ip ? sample_upc : 0), p, 0, &rb);
		ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(-fd));
		ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
		ASSERT_EQ(0, vt_read_count(fd, &c));
		EXPECT_EQ((uint64_t)VT_SUM_UOPS, c.value);
		vt_ring_samples(&rb, s, VT_SUM_UOPS + 1);
		EXPECT_EQ(VT_SUM_UOPS / p, (uint64_t)rb.samples)
			TH_LOG("period %llu", (unsigned long long)p);
		EXPECT_EQ(0ull, rb.lost_records);
		for (k = 0; k < (int)rb.samples && k <= (int)VT_SUM_UOPS; k++) {
			uint64_t n = (k + 1) * p;

			if (s[k].raw.count != n || s[k].raw.ctr >= VT_MAX_CTRS)
				bad++;
			if (n < 2)
				continue;
			if (s[k].raw.upc != upc[n] || s[k].raw.ipc != ipc[n] ||
			    s[k].ip != sample_ip(upc_ip, upc[n], ipc[n]) ||
			    (s[k].misc & PERF_RECORD_MISC_CPUMODE_MASK) !=
			    PERF_RECORD_MISC_USER) {
				TH_LOG("period %llu%s sample %d: upc 0x%x ipc 0x%x ip 0x%llx misc 0x%x, expected upc 0x%x ipc 0x%x, user",
				       (unsigned long long)p,
				       upc_ip ? " sample_upc" : "", k,
				       s[k].raw.upc, s[k].raw.ipc,
				       (unsigned long long)s[k].ip, s[k].misc,
				       upc[n], ipc[n]);
				bad++;
			}
		}
		EXPECT_EQ(0, bad);
		vt_close_sampling(fd, &rb);
	}
}

/*
 * caps/max_precise says 3 ("must have 0 skid": what perf asks for with
 * :P), and every precise_ip up to it samples the same exact PCs.
 */
TEST_F(perf, precise_ip_levels)
{
	struct perf_event_attr a;
	uint32_t upc[4], ipc[4];
	struct vt_sample s[4];
	struct vt_ring rb;
	uint64_t uops;
	int lvl, k, fd;

	ASSERT_EQ(3, vt_pmu_long("caps/max_precise"));
	ASSERT_EQ(0, vt_alias_cfg("uops", &uops));
	for (k = 1; k <= 3; k++)
		ASSERT_EQ(0, nth_uword(&self->f, 50 * k, &upc[k], &ipc[k]));
	for (lvl = 0; lvl <= 3; lvl++) {
		vt_count_attr(&a, uops, 0);
		a.sample_period = 50;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
		a.precise_ip = lvl;
		fd = vt_open(&a, 0, -1, -1);
		ASSERT_LE(0, fd) TH_LOG("precise_ip %d: %s", lvl, strerror(-fd));
		ASSERT_EQ(0, vt_ring_map_pages(fd, &rb, VT_PERF_RING_PAGES));
		ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
		vt_ring_samples(&rb, s, 4);
		EXPECT_EQ(3, (int)rb.samples) TH_LOG("precise_ip %d", lvl);
		for (k = 0; k < 3 && k < (int)rb.samples; k++)
			EXPECT_EQ(sample_ip(false, upc[k + 1], ipc[k + 1]),
				  s[k].ip) TH_LOG("precise_ip %d sample %d",
						  lvl, k);
		vt_close_sampling(fd, &rb);
	}
}

/*
 * Sum of the lines named @name over all CPUs in /proc/interrupts (one
 * per CPU: each engine has its own, from the first run on that CPU), or
 * -1 if there is none.
 */
static long long irq_count(const char *name)
{
	char line[1024], *tok, *save;
	long long sum = -1;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t n = strlen(line), l = strlen(name);

		while (n && (line[n - 1] == '\n' || line[n - 1] == ' '))
			line[--n] = 0;
		if (n < l || strcmp(line + n - l, name) ||
		    (n > l && line[n - l - 1] != ' '))
			continue;
		if (sum < 0)
			sum = 0;
		strtok_r(line, " ", &save);	/* "NN:" */
		while ((tok = strtok_r(NULL, " ", &save)) &&
		       tok[0] >= '0' && tok[0] <= '9')
			sum += atoll(tok);
	}
	fclose(f);
	return sum;
}

/*
 * Each counter raises its own line, once per wrap.  A CPU's lines come
 * with the first run there: none before means none raised yet.
 */
TEST_F(perf, irq_per_counter)
{
	long long before[VT_MAX_CTRS], after[VT_MAX_CTRS];
	char name[32];
	uint64_t uops;
	struct vt_ring rb;
	int i, fd, c = self->f.nr_counters > 1 ? 1 : 0;

	ASSERT_EQ(0, vt_alias_cfg("uops", &uops));
	for (i = 0; i < self->f.nr_counters; i++) {
		snprintf(name, sizeof(name), "vpmu-ctr%d", i);
		before[i] = irq_count(name);
		if (before[i] < 0)
			before[i] = 0;
	}
	snprintf(name, sizeof(name), "vpmu-ctr%d", self->f.nr_counters);
	EXPECT_EQ(-1, irq_count(name));

	fd = vt_open_sampling(uops | vt_ctr_config(c + 1), 10, 0, &rb);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	vt_ring_drain(&rb);
	EXPECT_EQ((uint64_t)VT_SUM_UOPS / 10, rb.samples);
	vt_close_sampling(fd, &rb);
	for (i = 0; i < self->f.nr_counters; i++) {
		snprintf(name, sizeof(name), "vpmu-ctr%d", i);
		after[i] = irq_count(name);
		ASSERT_LE(0, after[i]) TH_LOG("no %s in /proc/interrupts",
					      name);
		EXPECT_EQ(i == c ? (int)VT_SUM_UOPS / 10 : 0,
			  (int)(after[i] - before[i]))
			TH_LOG("%s: %lld -> %lld", name, before[i], after[i]);
	}
}

/* Every sample type: refused with EOPNOTSUPP (or EINVAL) or delivered. */
TEST_F(perf, sample_types)
{
	static const uint64_t refused[] = {
		PERF_SAMPLE_BRANCH_STACK,
		PERF_SAMPLE_REGS_USER, PERF_SAMPLE_STACK_USER,
		PERF_SAMPLE_REGS_INTR, PERF_SAMPLE_AUX,
	};
	uint64_t all = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
		       PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR |
		       PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
		       PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
		       PERF_SAMPLE_READ | PERF_SAMPLE_RAW |
		       PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC |
		       PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_PHYS_ADDR |
		       PERF_SAMPLE_DATA_PAGE_SIZE |
		       PERF_SAMPLE_CODE_PAGE_SIZE;
	struct perf_event_attr a;
	struct vt_ring rb;
	unsigned int i;
	uint64_t p = 100;
	int fd, sib;

	for (i = 0; i < ARRAY_SIZE(refused); i++) {
		vt_count_attr(&a, 1, 0);
		a.sample_period = 10;
		a.sample_type = PERF_SAMPLE_IP | refused[i];
		a.sample_regs_user = 1;
		a.sample_regs_intr = 1;
		a.sample_stack_user = 64;
		a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
		a.aux_sample_size = 64;
		EXPECT_EQ(-1, vt_perf_event_open(&a, 0, -1, -1, 0));
		EXPECT_TRUE(errno == EOPNOTSUPP || errno == EINVAL)
			TH_LOG("sample_type 0x%llx: %s",
			       (unsigned long long)refused[i], strerror(errno));
	}
	vt_count_attr(&a, 1, 0);
	a.sample_period = 10;
	a.sigtrap = 1;
	a.remove_on_exec = 1;
	EXPECT_EQ(-1, vt_perf_event_open(&a, 0, -1, -1, 0));

	/* Everything else at once, a group read and precise_ip 3. */
	vt_count_attr(&a, 1, 0);
	a.sample_period = 10;
	a.sample_type = all;
	a.precise_ip = 3;
	a.read_format |= PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	a.disabled = 1;
	fd = vt_perf_event_open(&a, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	vt_count_attr(&a, 2, 0);
	sib = vt_perf_event_open(&a, 0, -1, fd, 0);
	ASSERT_LE(0, sib);
	ASSERT_EQ(0, vt_ring_map_pages(fd, &rb, VT_PERF_RING_PAGES));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	vt_ring_drain(&rb);
	EXPECT_EQ(VT_SUM_CYCLES / 10, (uint64_t)rb.samples);
	/* PERIOD and REFRESH work on a sampling event. */
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_PERIOD, &p));
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_REFRESH, 1));
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	close(sib);
	vt_close_sampling(fd, &rb);
}

/* The IP and callchain of a sample of sample_type IP | CALLCHAIN. */
struct chain_sample {
	uint64_t ip, nr, chain[4];
	uint16_t misc;
};

static int chain_fn(struct vt_ring *rb, const struct perf_event_header *h,
		    const char *rec, void *arg)
{
	struct chain_sample *cs = arg;
	size_t at = sizeof(*h);

	if (h->type != PERF_RECORD_SAMPLE || rb->samples > 1)
		return 0;
	if (h->size < at + 16)
		return -1;
	cs->misc = h->misc;
	memcpy(&cs->ip, rec + at, 8);
	memcpy(&cs->nr, rec + at + 8, 8);
	if (cs->nr > 4 || h->size < at + 16 + 8 * cs->nr)
		return -1;
	memcpy(cs->chain, rec + at + 16, 8 * cs->nr);
	return 0;
}

/*
 * A callchain is the sample's IP alone, as a user-mode frame (perf record
 * -g; perf script then prints one frame a sample, which is what stack
 * collapsing for flame graphs reads).  An event that counts supervisor
 * mode only has kernel-mode samples and no callchain (EOPNOTSUPP).
 */
TEST_F(perf, callchain_is_the_ip)
{
	struct perf_event_attr a;
	struct chain_sample cs = { 0 };
	uint32_t upc, ipc;
	struct vt_ring rb;
	uint64_t uops;
	int fd;

	ASSERT_EQ(0, vt_alias_cfg("uops", &uops));
	ASSERT_EQ(0, nth_uword(&self->f, 50, &upc, &ipc));
	vt_count_attr(&a, uops, 0);
	a.sample_period = 50;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN;
	fd = vt_open(&a, 0, -1, -1);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(-fd));
	ASSERT_EQ(0, vt_ring_map_pages(fd, &rb, VT_PERF_RING_PAGES));
	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	ASSERT_EQ(0, vt_ring_read(&rb, chain_fn, &cs));
	EXPECT_EQ((uint64_t)VT_SUM_UOPS / 50, rb.samples);
	EXPECT_EQ(VPMU_SAMPLE_PC_BASE + ipc, cs.ip);
	EXPECT_EQ(PERF_RECORD_MISC_USER,
		  cs.misc & PERF_RECORD_MISC_CPUMODE_MASK);
	ASSERT_EQ(2ull, cs.nr);
	EXPECT_EQ((uint64_t)PERF_CONTEXT_USER, cs.chain[0]);
	EXPECT_EQ(cs.ip, cs.chain[1]);
	vt_close_sampling(fd, &rb);

	a.exclude_user = 1;
	EXPECT_EQ(-EOPNOTSUPP, vt_open(&a, 0, -1, -1));
}

/*
 * Samples are user-mode ones of the task that ran the engine, supervisor
 * microwords included, so that perf names them through the task's
 * mappings; an event that counts supervisor mode only (exclude_user)
 * samples in kernel mode, which perf's filter of user-mode samples
 * requires.  The syscall sample spends 13 of its 39 cycles in supervisor
 * mode.
 */
VT_PERF_FIXTURE(perf_syscall, "syscall");

TEST_F(perf_syscall, sample_mode_user)
{
	static const struct { int exclude_user, exclude_kernel; } f[] = {
		{ 0, 0 }, { 0, 1 }, { 1, 0 },
	};
	static const uint64_t want[] = { 39, 26, 13 };
	struct vt_sample s[40];
	struct vt_ring rb;
	unsigned int i;
	int k, fd;

	for (i = 0; i < 3; i++) {
		struct perf_event_attr a;
		int bad = 0;

		vt_count_attr(&a, 0, 0);	/* vpmu_cycles: event 0 */
		a.exclude_user = f[i].exclude_user;
		a.exclude_kernel = f[i].exclude_kernel;
		a.sample_period = 1;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
		fd = vt_open(&a, 0, -1, -1);
		ASSERT_LE(0, fd) TH_LOG("%s", strerror(-fd));
		ASSERT_EQ(0, vt_ring_map_pages(fd, &rb, VT_PERF_RING_PAGES));
		ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
		vt_ring_samples(&rb, s, 40);
		EXPECT_EQ(want[i], rb.samples) TH_LOG("case %u", i);
		for (k = 0; k < (int)rb.samples && k < 40; k++)
			if ((s[k].misc & PERF_RECORD_MISC_CPUMODE_MASK) !=
			    (f[i].exclude_user ? PERF_RECORD_MISC_KERNEL :
			     PERF_RECORD_MISC_USER))
				bad++;
		EXPECT_EQ(0, bad) TH_LOG("case %u", i);
		vt_close_sampling(fd, &rb);
	}
}

static volatile sig_atomic_t chunk_alarms;

static void on_chunk_alarm(int sig)
{
	chunk_alarms++;
}

/*
 * Interrupts stay off for a run chunk, which must be bounded in work, not
 * only in cycles: a sampling event at period 1 stops the engine on every
 * microword, and each stop runs the perf glue.  A chunk ends after 16
 * overflow stops, so an endless run of sortloop sampling vpmu_uops at
 * period 1, stopped by a signal (seen between chunks), has run exactly 16
 * microwords a chunk: its count is a multiple of 16.  Chunks of 5000 cycles
 * (stall cycles included) end at a multiple of 16 microwords only by
 * chance; four runs stopped at different times.  Built in, the perf core
 * would throttle the event (stop it until a tick) after a tick's worth of
 * samples: the sample rate is raised for the test.
 */
TEST_F_TIMEOUT(perf, chunk_bounded_in_stops, 120)
{
	struct sigaction sa = { .sa_handler = on_chunk_alarm };
	struct itimerval it = {};
	struct vt_prog p;
	struct vt_count c;
	struct vt_ring rb;
	uint64_t uops;
	uint8_t *mem;
	int fd, i, rate;

	ASSERT_EQ(0, vt_alias_cfg("uops", &uops));
	if (vt_need_prog(_metadata, &p, &mem, "sortloop"))
		return;
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	rate = vt_max_sample_rate(VT_HIGH_SAMPLE_RATE);
	ASSERT_LT(0, rate);
	fd = vt_open_sampling(uops, 1, 0, &rb);
	ASSERT_LE(0, fd);
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_RESET, 0));
		chunk_alarms = 0;
		it.it_value.tv_usec = 20000 + 17000 * i;
		ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
		ASSERT_EQ(0, vt_run(self->f.dev, &p, mem, VPMU_RUN_BUDGET_MAX,
				    &self->f.r));
		EXPECT_EQ(1, chunk_alarms);
		ASSERT_EQ((__u32)VPMU_RUN_SIGNAL, self->f.r.stop);
		ASSERT_EQ(0, vt_read_count(fd, &c));
		TH_LOG("run %d: %llu cycles, %llu microwords", i,
		       (unsigned long long)self->f.r.cycles,
		       (unsigned long long)c.value);
		EXPECT_LT(0ull, c.value);
		EXPECT_EQ(0ull, c.value % 16);
	}
	vt_ring_drain(&rb);
	EXPECT_EQ(0ull, rb.throttle);
	vt_close_sampling(fd, &rb);
	EXPECT_EQ(VT_HIGH_SAMPLE_RATE, vt_max_sample_rate(rate));
	free(mem);
	vt_prog_free(&p);
}

TEST_HARNESS_MAIN
