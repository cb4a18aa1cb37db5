// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_run_break - stopping a run between instructions, for a debugger:
 * VPMU_RUN_F_STEP, breakpoints (nbreak, brk[]) and the VPMU_RUN_BREAK
 * stop (include/uapi/linux/vpmu.h, Documentation/admin-guide/perf/vpmu.rst,
 * "/dev/vpmu").
 *
 * Each program is stepped an instruction at a time to its end, resumed
 * after every step: each step stops right after one more instruction
 * retired (perf's insns, read at every stop), and the program ends
 * exactly as one unbroken run does (stop, cycles, registers, pc,
 * micro-PC, memory), in as many steps as it retires instructions (perf's
 * insns; its .expect file's, or the known length).  Breakpoints at pcs of
 * that trace stop the run at every visit and nowhere else, with the
 * cycles, instructions and registers the trace had there, and the run
 * still ends exactly; a breakpoint where a run starts does not stop it.
 * perf's counts, and the samples of small periods, are those of the
 * unbroken run.  A break where the budget ends is the break; a run not
 * armed never stops with VPMU_RUN_BREAK.  The arguments, older callers
 * and signals are vpmu_run_break_args's.
 *
 * The programs: vpmu32 programs of $VPMU_SHARE/build under the default
 * image, and an RV32 loop under rv32im (the loader and root: it skips
 * without).  Everything skips without /dev/vpmu or the programs.
 */
#define _GNU_SOURCE
#include "vpmu_perf.h"

#define BUDGET		10000000ull
#define MAX_STOPS	20000u		/* a run that stops more is broken */

/* The RV32 loop: 50 rounds of a load, an add, a store; then an ebreak. */
static const uint32_t rv32_loop[] = {
	0x03200293,	/* 0x00 li t0, 50 */
	0x20002303,	/* 0x04 lw t1, 0x200(zero) */
	0x006383b3,	/* 0x08 add t2, t2, t1 */
	0x20702223,	/* 0x0c sw t2, 0x204(zero) */
	0xfff28293,	/* 0x10 addi t0, t0, -1 */
	0xfe0298e3,	/* 0x14 bnez t0, 0x04 */
	0x00100073,	/* 0x18 ebreak */
};

#define RV32_MEM	4096u
#define RV32_DATA	0x200
#define RV32_INSNS	251ull	/* li, 50 x 5; the ebreak traps */

/* A boundary a run stopped at. */
struct stop_at {
	uint32_t pc, code;
	uint64_t cycles;	/* since the program's start, all calls */
	uint64_t insns;		/* ...retired, as perf counts them, or 0 */
	uint32_t regs[32];
};

/* A program run from its start to its end, stopping at breaks. */
struct trace {
	struct stop_at s[MAX_STOPS];
	size_t n;
	struct vpmu_run end;	/* the stop that was no break */
	uint64_t cycles;	/* all the calls' */
	uint8_t *mem;		/* the memory at the end */
};

FIXTURE(brk) {
	int fd;
	uint8_t *image;		/* the program's memory at its start */
	uint8_t *mem;		/* the memory the runs use */
	uint32_t mem_size, entry, mode;
	struct vpmu_run whole;	/* one unbroken run */
	uint8_t *whole_mem;
	struct trace *t;	/* the program stepped */
	bool loaded;		/* rv32im loaded: the default goes back */
};

FIXTURE_VARIANT(brk) {
	const char *prog;	/* build/PROG.vprg; NULL: the RV32 loop */
	const char *expect;	/* PROG's .expect in $VPMU_SHARE, or NULL */
};

#define PROG(name, dir)							\
	FIXTURE_VARIANT_ADD(brk, name) {				\
		.prog = #name, .expect = dir "/" #name ".expect",	\
	}

PROG(sum, "samples");		/* a loop: 32 instructions */
PROG(memcpy, "samples");	/* loads that miss, stores */
PROG(sort, "samples");
PROG(syscall, "samples");	/* ends on a TRAP */
PROG(fault, "progs");		/* ends on a fault */
PROG(calls, "progs");		/* micro-calls */

FIXTURE_VARIANT_ADD(brk, rv32_loop) {
	.prog = NULL,
};

/* One VPMU_IOC_RUN into @r: a new run unless @flags resumes; 0 or -errno. */
static int call(FIXTURE_DATA(brk) *self, struct vpmu_run *r, uint32_t flags,
		uint64_t budget, const uint32_t *brk, uint32_t nbreak)
{
	if (!(flags & VPMU_RUN_F_RESUME))
		memcpy(self->mem, self->image, self->mem_size);
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	r->flags = flags;
	r->mem = (uintptr_t)self->mem;
	r->mem_size = self->mem_size;
	r->entry = self->entry;
	r->budget = budget;
	r->mode = self->mode;
	r->nbreak = nbreak;
	if (nbreak)
		memcpy(r->brk, brk, nbreak * sizeof(*brk));
	return ioctl(self->fd, VPMU_IOC_RUN, r) ? -errno : 0;
}

/*
 * The program from its start to its end into @t, armed by @flags and
 * @brk[0..@nbreak-1] and resumed so after every VPMU_RUN_BREAK stop.
 * With @insns_fd (else -1), a perf event on this task counting insns, the
 * instructions retired at each stop too: an account of where the
 * boundaries are that is not the driver's.
 */
static void run_broken(struct __test_metadata *_metadata,
		       FIXTURE_DATA(brk) *self, uint32_t flags,
		       const uint32_t *brk, uint32_t nbreak, struct trace *t,
		       int insns_fd)
{
	uint64_t base = insns_fd >= 0 ? vt_count(insns_fd) : 0;
	uint32_t f = flags;
	struct vpmu_run r;

	t->n = 0;
	t->cycles = 0;
	for (;;) {
		ASSERT_EQ(0, call(self, &r, f, BUDGET, brk, nbreak));
		t->cycles += r.cycles;
		if (r.stop != VPMU_RUN_BREAK)
			break;
		ASSERT_GT((size_t)MAX_STOPS, t->n);
		/* a break is at a boundary one instruction at least away */
		ASSERT_LT(0ull, r.cycles);
		ASSERT_EQ(r.pc, r.ipc);
		t->s[t->n].pc = r.pc;
		t->s[t->n].code = r.code;
		t->s[t->n].cycles = t->cycles;
		if (insns_fd >= 0)
			t->s[t->n].insns = vt_count(insns_fd) - base;
		memcpy(t->s[t->n].regs, r.regs, sizeof(r.regs));
		t->n++;
		f = flags | VPMU_RUN_F_RESUME;
	}
	t->end = r;
	memcpy(t->mem, self->mem, self->mem_size);
}

/* @t ended exactly as the unbroken run. */
static void expect_whole(struct __test_metadata *_metadata,
			 FIXTURE_DATA(brk) *self, const struct trace *t)
{
	const struct vpmu_run *w = &self->whole, *e = &t->end;

	EXPECT_EQ(w->stop, e->stop);
	EXPECT_EQ(w->code, e->code);
	EXPECT_EQ(w->addr, e->addr);
	EXPECT_EQ(w->cycles, t->cycles);
	EXPECT_EQ(w->pc, e->pc);
	EXPECT_EQ(w->ipc, e->ipc);
	EXPECT_EQ(w->upc, e->upc);
	EXPECT_EQ(w->mode_out, e->mode_out);
	EXPECT_EQ(0, memcmp(w->regs, e->regs, sizeof(w->regs)));
	EXPECT_EQ(0, memcmp(self->whole_mem, t->mem, self->mem_size));
}

/* The RV32 loop under rv32im, or -1 after a skip. */
static int setup_rv32(struct __test_metadata *_metadata,
		      FIXTURE_DATA(brk) *self)
{
	uint32_t w = 0x12345678u;

	if (vt_load_share_image(_metadata, "build/rv32im.vpmu"))
		return -1;
	self->loaded = true;
	self->mem_size = RV32_MEM;
	self->image = calloc(1, RV32_MEM);
	ASSERT_NE(NULL, self->image);
	memcpy(self->image, rv32_loop, sizeof(rv32_loop));
	memcpy(self->image + RV32_DATA, &w, sizeof(w));
	return 0;
}

FIXTURE_SETUP(brk)
{
	struct vt_prog p;
	void *m;

	self->fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	if (self->fd < 0)
		SKIP(return, "no %s (module without the run device?)", VT_DEV);
	if (!variant->prog) {
		if (setup_rv32(_metadata, self))
			return;
	} else {
		char rel[64];

		snprintf(rel, sizeof(rel), "build/%s.vprg", variant->prog);
		if (vt_prog_load(&p, rel))
			SKIP(return, "no valid %s in $VPMU_SHARE", rel);
		self->image = vt_prog_mem(&p);
		self->mem_size = p.h.mem_size;
		self->entry = p.h.entry;
		self->mode = p.h.flags & VPMU_PROG_F_SUPER ? VPMU_MODE_SUPER :
							     VPMU_MODE_USER;
		vt_prog_free(&p);
		ASSERT_NE(NULL, self->image);
	}
	ASSERT_EQ(0, posix_memalign(&m, 8, self->mem_size));
	self->mem = m;
	self->whole_mem = malloc(self->mem_size);
	self->t = calloc(1, sizeof(*self->t));
	ASSERT_NE(NULL, self->whole_mem);
	ASSERT_NE(NULL, self->t);
	self->t->mem = malloc(self->mem_size);
	ASSERT_NE(NULL, self->t->mem);
	ASSERT_EQ(0, call(self, &self->whole, 0, BUDGET, NULL, 0));
	ASSERT_NE((__u32)VPMU_RUN_BREAK, self->whole.stop);
	ASSERT_NE((__u32)VPMU_RUN_BUDGET, self->whole.stop);
	memcpy(self->whole_mem, self->mem, self->mem_size);
}

FIXTURE_TEARDOWN(brk)
{
	if (self->loaded)
		EXPECT_EQ(0, vt_load_default());
	if (self->fd >= 0)
		close(self->fd);
	if (self->t)
		free(self->t->mem);
	free(self->t);
	free(self->whole_mem);
	free(self->mem);
	free(self->image);
}

/* The instructions the program retires, as known beside perf; or 0. */
static uint64_t known_insns(const FIXTURE_VARIANT(brk) *variant)
{
	struct vt_expect *x;
	long long n = 0;

	if (!variant->prog)
		return RV32_INSNS;
	x = malloc(sizeof(*x));
	if (x && !vt_expect_load(variant->expect, x))
		n = vt_expect_event(x, "insns");
	free(x);
	return n > 0 ? n : 0;
}

/* ---- stepping ------------------------------------------------------------ */

TEST_F_TIMEOUT(brk, step_to_the_end, 120)
{
	struct trace *t = self->t;
	uint64_t insns, known;
	size_t i;
	int fd = -1;

	if (vt_pmu_present()) {
		fd = vt_open_config(vt_alias("insns"), 0);
		ASSERT_LE(0, fd) TH_LOG("insns: %s", strerror(-fd));
	}
	run_broken(_metadata, self, VPMU_RUN_F_STEP, NULL, 0, t, fd);
	ASSERT_LT((size_t)0, t->n);	/* every program here retires one */
	expect_whole(_metadata, self, t);
	for (i = 0; i < t->n; i++) {
		ASSERT_EQ((__u32)VPMU_RUN_BREAK_STEP, t->s[i].code);
		if (i)
			ASSERT_LT(t->s[i - 1].cycles, t->s[i].cycles);
		/* each step stopped right after the one that retired */
		if (fd >= 0)
			ASSERT_EQ(i + 1, t->s[i].insns) TH_LOG("step %zu", i);
	}
	known = known_insns(variant);
	if (known)
		EXPECT_EQ(known, (uint64_t)t->n);
	if (fd >= 0) {
		insns = vt_count(fd);
		EXPECT_EQ(insns, (uint64_t)t->n);
		close(fd);
	}
	/* sum: addi r1, r0, 10 is 5 cycles (sum.s), the boundary after it */
	if (variant->prog && !strcmp(variant->prog, "sum")) {
		EXPECT_EQ(4u, t->s[0].pc);
		EXPECT_EQ(5ull, t->s[0].cycles);
		EXPECT_EQ(10u, t->s[0].regs[1]);
	}
	TH_LOG("%zu steps, %llu cycles", t->n,
	       (unsigned long long)t->cycles);
}

/* ---- breakpoints --------------------------------------------------------- */

/* Is @pc one of @brk[0..@n-1]? */
static bool in(const uint32_t *brk, uint32_t n, uint32_t pc)
{
	while (n--)
		if (brk[n] == pc)
			return true;
	return false;
}

/* Stop @k of a run, @got, is @want of the stepped trace, for @code. */
static void expect_stop(struct __test_metadata *_metadata,
			const struct stop_at *want, const struct stop_at *got,
			uint32_t code, size_t k)
{
	EXPECT_EQ(want->pc, got->pc) TH_LOG("stop %zu", k);
	EXPECT_EQ(code, got->code) TH_LOG("stop %zu", k);
	EXPECT_EQ(want->cycles, got->cycles) TH_LOG("stop %zu", k);
	EXPECT_EQ(want->insns, got->insns) TH_LOG("stop %zu", k);
	EXPECT_EQ(0, memcmp(want->regs, got->regs, sizeof(want->regs)))
		TH_LOG("stop %zu", k);
}

/*
 * Run with breakpoints @brk (and @flags): the stops are the boundaries of
 * the stepped trace @t whose pc is one of them (all of them with
 * VPMU_RUN_F_STEP), each with the cycles and registers @t had there and
 * the code saying why, and the run ends as the unbroken one.
 */
static void expect_breaks(struct __test_metadata *_metadata,
			  FIXTURE_DATA(brk) *self, const struct trace *t,
			  uint32_t flags, const uint32_t *brk, uint32_t nbreak,
			  int insns_fd)
{
	struct trace *b = calloc(1, sizeof(*b));
	size_t i, k = 0;
	uint32_t code;

	ASSERT_NE(NULL, b);
	b->mem = malloc(self->mem_size);
	ASSERT_NE(NULL, b->mem);
	run_broken(_metadata, self, flags, brk, nbreak, b, insns_fd);
	for (i = 0; i < t->n; i++) {
		code = (flags & VPMU_RUN_F_STEP ? VPMU_RUN_BREAK_STEP : 0) |
		       (in(brk, nbreak, t->s[i].pc) ? VPMU_RUN_BREAK_PC : 0);
		if (!code)
			continue;
		ASSERT_GT(b->n, k) TH_LOG("no stop at boundary %zu", i);
		expect_stop(_metadata, &t->s[i], &b->s[k], code, k);
		k++;
	}
	EXPECT_EQ(k, b->n);
	expect_whole(_metadata, self, b);
	free(b->mem);
	free(b);
}

/* The pc of the stepped trace's boundaries visited most often. */
static uint32_t most_visited(const struct trace *t, size_t *visits)
{
	size_t i, j, n, best = 0;
	uint32_t pc = 0;

	for (i = 0; i < t->n; i++) {
		for (n = 0, j = 0; j < t->n; j++)
			n += t->s[j].pc == t->s[i].pc;
		if (n > best) {
			best = n;
			pc = t->s[i].pc;
		}
	}
	*visits = best;
	return pc;
}

TEST_F_TIMEOUT(brk, breakpoints_stop_at_every_visit, 180)
{
	uint32_t brk[VPMU_RUN_NBREAK], n = 0, pc;
	struct trace *t = self->t;
	size_t i, visits;
	int fd = -1;

	if (vt_pmu_present()) {
		fd = vt_open_config(vt_alias("insns"), 0);
		ASSERT_LE(0, fd) TH_LOG("insns: %s", strerror(-fd));
	}
	run_broken(_metadata, self, VPMU_RUN_F_STEP, NULL, 0, t, fd);
	ASSERT_LT((size_t)0, t->n);	/* every program here retires one */
	for (i = 0; fd >= 0 && i < t->n; i++)
		ASSERT_EQ(i + 1, t->s[i].insns) TH_LOG("step %zu", i);

	/* a loop's head: a stop at every pass, the last one goes on */
	pc = most_visited(t, &visits);
	TH_LOG("break at 0x%x, %zu visits", pc, visits);
	expect_breaks(_metadata, self, t, 0, &pc, 1, fd);
	/* stepping there too: both bits */
	expect_breaks(_metadata, self, t, VPMU_RUN_F_STEP, &pc, 1, fd);

	/*
	 * Sixteen: every other pc of the trace, in the order reached, the
	 * entry (where the run starts: no stop there) and a pc never
	 * reached.
	 */
	brk[n++] = self->entry;
	brk[n++] = 0xfffffffcu;
	for (i = 0; i < t->n && n < VPMU_RUN_NBREAK; i++) {
		if (in(brk, n, t->s[i].pc))
			continue;
		if (i % 2 == 0)
			brk[n++] = t->s[i].pc;
	}
	expect_breaks(_metadata, self, t, 0, brk, n, fd);
	if (fd >= 0)
		close(fd);
}

/* ---- perf ---------------------------------------------------------------- */

/*
 * Events, three as the default counters are (more would be multiplexed):
 * cycles sampled every 7, insns every 3, uops counted.  A longer program
 * samples less often, so that the unbroken run stays under the driver's
 * throttle (400 samples in a tick's length of time at HZ 250) even if it
 * runs in one.
 */
#define NEV		3
#define NSAMPLE		2	/* the first NSAMPLE events sample */
#define MAX_SAMPLES	300

/* What perf saw of the program's runs: counts and samples. */
struct seen {
	uint64_t count[NEV], period[NSAMPLE];
	struct vt_sample s[NSAMPLE][MAX_SAMPLES];
	uint64_t n[NSAMPLE], lost[NSAMPLE];
};

/* The program run as @flags and @brk say, under perf's events, into @v. */
static void perf_run(struct __test_metadata *_metadata,
		     FIXTURE_DATA(brk) *self, uint32_t flags,
		     const uint32_t *brk, uint32_t nbreak, struct seen *v)
{
	static const char *const name[NEV] = { "cycles", "insns", "uops" };
	static const uint64_t base[NSAMPLE] = { 7, 3 };
	uint64_t period[NSAMPLE];
	struct vt_ring rb[NSAMPLE];
	unsigned int i;
	int fd[NEV];

	for (i = 0; i < NEV; i++) {
		if (i < NSAMPLE)
			period[i] = self->whole.cycles / base[i] < MAX_SAMPLES ?
				    base[i] :
				    self->whole.cycles / MAX_SAMPLES + 1;
		fd[i] = i < NSAMPLE ?
			vt_open_sampling(vt_alias(name[i]), period[i], 0,
					 &rb[i]) :
			vt_open_config(vt_alias(name[i]), 0);
		ASSERT_LE(0, fd[i]) TH_LOG("%s: %s", name[i], strerror(-fd[i]));
	}
	run_broken(_metadata, self, flags, brk, nbreak, self->t, fd[1]);
	for (i = 0; i < NEV; i++) {
		v->count[i] = vt_count(fd[i]);
		if (i >= NSAMPLE) {
			close(fd[i]);
			continue;
		}
		vt_ring_samples(&rb[i], v->s[i], MAX_SAMPLES);
		v->period[i] = period[i];
		v->n[i] = rb[i].samples;
		v->lost[i] = rb[i].lost;
		vt_close_sampling(fd[i], &rb[i]);
	}
}

/* Two runs' samples are the same: where, what and when. */
static bool same_sample(const struct vt_sample *a, const struct vt_sample *b)
{
	return a->ip == b->ip && a->misc == b->misc &&
	       a->raw.upc == b->raw.upc && a->raw.ipc == b->raw.ipc &&
	       a->raw.mode == b->raw.mode && a->raw.count == b->raw.count;
}

/* Sample @k of event @ev, @v's, is the unbroken run's @w; else says how. */
static void expect_sample(struct __test_metadata *_metadata,
			  const struct vt_sample *w, const struct vt_sample *v,
			  const char *how, unsigned int ev, uint64_t k)
{
	if (same_sample(w, v))
		return;
	TH_LOG("%s: event %u, sample %llu differs", how, ev,
	       (unsigned long long)k);
	EXPECT_EQ(w->ip, v->ip);
	EXPECT_EQ(w->misc, v->misc);
	EXPECT_EQ(w->raw.upc, v->raw.upc);
	EXPECT_EQ(w->raw.ipc, v->raw.ipc);
	EXPECT_EQ(w->raw.mode, v->raw.mode);
	EXPECT_EQ(w->raw.count, v->raw.count);
}

/* @v saw what the unbroken run's @w did: counts, then samples. */
static void expect_seen(struct __test_metadata *_metadata,
			const struct seen *w, const struct seen *v,
			const char *how)
{
	unsigned int i;
	uint64_t k;

	for (i = 0; i < NEV; i++)
		EXPECT_EQ(w->count[i], v->count[i]) TH_LOG("%s: count %u",
							   how, i);
	for (i = 0; i < NSAMPLE; i++) {
		EXPECT_EQ(0ull, v->lost[i]);
		EXPECT_EQ(w->n[i], v->n[i]) TH_LOG("%s: samples %u", how, i);
		for (k = 0; k < v->n[i] && k < w->n[i]; k++)
			if (!same_sample(&w->s[i][k], &v->s[i][k]))
				break;
		if (k < v->n[i] && k < w->n[i])
			expect_sample(_metadata, &w->s[i][k], &v->s[i][k], how,
				      i, k);
	}
}

TEST_F_TIMEOUT(brk, perf_counts_and_samples_unchanged, 180)
{
	struct seen *w, *v;
	size_t i, visits;
	uint32_t pc;

	if (!vt_pmu_present())
		SKIP(return, "no vpmu PMU");
	if (vt_pmu_long("caps/nr_counters") < NEV)
		SKIP(return, "fewer than %d counters", NEV);
	w = calloc(1, sizeof(*w));
	v = calloc(1, sizeof(*v));
	ASSERT_NE(NULL, w);
	ASSERT_NE(NULL, v);
	perf_run(_metadata, self, 0, NULL, 0, w);
	EXPECT_EQ((size_t)0, self->t->n);
	EXPECT_EQ(self->whole.cycles, w->count[0]);
	EXPECT_EQ(w->count[0] / w->period[0], w->n[0]);
	EXPECT_EQ(w->count[1] / w->period[1], w->n[1]);

	perf_run(_metadata, self, VPMU_RUN_F_STEP, NULL, 0, v);
	EXPECT_EQ(w->count[1], self->t->n);
	for (i = 0; i < self->t->n; i++)
		ASSERT_EQ(i + 1, self->t->s[i].insns) TH_LOG("step %zu", i);
	pc = most_visited(self->t, &visits);
	expect_seen(_metadata, w, v, "stepped");

	perf_run(_metadata, self, 0, &pc, 1, v);
	EXPECT_EQ(visits, self->t->n);
	expect_seen(_metadata, w, v, "a breakpoint");
	free(w);
	free(v);
}

/* ---- the budget, runs not armed ------------------------------------------ */

/*
 * The first boundary is c cycles in: a budget of c ends there with the
 * break; one of c - 1 ends on the budget (or the break, where the last
 * microword stalls past it), and a resumed step stops at the boundary
 * with the same c cycles in all.
 */
TEST_F(brk, break_where_the_budget_ends)
{
	struct vpmu_run r;
	uint64_t c;

	run_broken(_metadata, self, VPMU_RUN_F_STEP, NULL, 0, self->t, -1);
	ASSERT_LT((size_t)0, self->t->n);
	c = self->t->s[0].cycles;
	ASSERT_EQ(0, call(self, &r, VPMU_RUN_F_STEP, c, NULL, 0));
	EXPECT_EQ((__u32)VPMU_RUN_BREAK, r.stop);
	EXPECT_EQ((__u32)VPMU_RUN_BREAK_STEP, r.code);
	EXPECT_EQ(c, r.cycles);
	EXPECT_EQ(self->t->s[0].pc, r.pc);
	if (c < 2)
		return;
	ASSERT_EQ(0, call(self, &r, VPMU_RUN_F_STEP, c - 1, NULL, 0));
	if (r.stop == VPMU_RUN_BUDGET) {
		uint64_t used = r.cycles;

		EXPECT_EQ(c - 1, used);
		ASSERT_EQ(0, call(self, &r, VPMU_RUN_F_STEP |
				  VPMU_RUN_F_RESUME, BUDGET, NULL, 0));
		r.cycles += used;
	}
	EXPECT_EQ((__u32)VPMU_RUN_BREAK, r.stop);
	EXPECT_EQ(c, r.cycles);
	EXPECT_EQ(self->t->s[0].pc, r.pc);
	EXPECT_EQ(0, memcmp(self->t->s[0].regs, r.regs, sizeof(r.regs)));
	/* and on to the end, unarmed: as the unbroken run */
	ASSERT_EQ(0, call(self, &r, VPMU_RUN_F_RESUME, BUDGET, NULL, 0));
	EXPECT_EQ(self->whole.stop, r.stop);
	EXPECT_EQ(self->whole.cycles, c + r.cycles);
	EXPECT_EQ(0, memcmp(self->whole.regs, r.regs, sizeof(r.regs)));
}

/*
 * With neither VPMU_RUN_F_STEP nor breakpoints no run stops with a
 * break: cut by small budgets it stops on them only, and ends exactly;
 * a program that stopped at a step and goes on unarmed runs to its end.
 */
TEST_F(brk, unarmed_never_breaks)
{
	uint64_t cycles = 0;
	struct vpmu_run r;
	uint32_t f = 0;
	int calls = 0;

	for (;;) {
		ASSERT_EQ(0, call(self, &r, f, 13, NULL, 0));
		cycles += r.cycles;
		ASSERT_NE((__u32)VPMU_RUN_BREAK, r.stop);
		if (r.stop != VPMU_RUN_BUDGET)
			break;
		ASSERT_GT((int)MAX_STOPS, ++calls);
		f = VPMU_RUN_F_RESUME;
	}
	EXPECT_EQ(self->whole.stop, r.stop);
	EXPECT_EQ(self->whole.cycles, cycles);
	EXPECT_EQ(0, memcmp(self->whole.regs, r.regs, sizeof(r.regs)));

	ASSERT_EQ(0, call(self, &r, VPMU_RUN_F_STEP, BUDGET, NULL, 0));
	ASSERT_EQ((__u32)VPMU_RUN_BREAK, r.stop);
	cycles = r.cycles;
	ASSERT_EQ(0, call(self, &r, VPMU_RUN_F_RESUME, BUDGET, NULL, 0));
	EXPECT_EQ(self->whole.stop, r.stop);
	EXPECT_EQ(self->whole.cycles, cycles + r.cycles);
	EXPECT_EQ(0, memcmp(self->whole.regs, r.regs, sizeof(r.regs)));
	EXPECT_EQ(0, memcmp(self->whole_mem, self->mem, self->mem_size));
}

TEST_HARNESS_MAIN
