// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_run_break_args - the arguments of stopping a run between
 * instructions (VPMU_RUN_F_STEP, nbreak, brk[]; include/uapi/linux/vpmu.h,
 * Documentation/admin-guide/perf/vpmu.rst, "/dev/vpmu"), on sum.vprg: bad
 * breakpoint arguments are refused with EINVAL, changing nothing; sixteen
 * are fine; a caller whose struct is VPMU_RUN_SIZE_VER0 or between the
 * versions runs, steps and resumes, and gets no byte past its size; an
 * armed run is stopped by a signal, with the state at the stop, and steps
 * on.  The stepping itself is vpmu_run_break's.  Skips without /dev/vpmu or
 * the programs.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/time.h>
#include "vpmu_test.h"

#define BUDGET		10000000ull
#define POISON		0xaa
#define CANARY		0x5a

FIXTURE(args) {
	int fd;
	struct vt_prog p;
	uint8_t *mem;
};

FIXTURE_SETUP(args)
{
	if (vt_setup_runs(_metadata, &self->fd, &self->p, "sum", NULL))
		return;
	self->mem = vt_prog_mem(&self->p);
	ASSERT_NE(NULL, self->mem);
}

FIXTURE_TEARDOWN(args)
{
	vt_teardown_runs(self->fd, &self->p, NULL);
	free(self->mem);
}

/* The outputs: from cycles to the inputs of VPMU_RUN_SIZE_VER1 (nbreak). */
#define OUT_OFF		offsetof(struct vpmu_run, cycles)
#define OUT_LEN		(offsetof(struct vpmu_run, nbreak) - OUT_OFF)

/* @r is refused with EINVAL, and neither it nor the memory is written. */
static void expect_einval(struct __test_metadata *_metadata,
			  FIXTURE_DATA(args) *self, struct vpmu_run *r)
{
	uint32_t msz = self->p.h.mem_size;
	uint8_t before[sizeof(*r)];
	uint8_t *mbefore = malloc(msz);

	ASSERT_NE(NULL, mbefore);
	memset((uint8_t *)r + OUT_OFF, POISON, OUT_LEN);
	memcpy(before, r, sizeof(*r));
	memcpy(mbefore, self->mem, msz);
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, VPMU_IOC_RUN, r));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, memcmp(before, r, sizeof(*r)));
	EXPECT_EQ(0, memcmp(mbefore, self->mem, msz));
	free(mbefore);
}

#define REFUSED(...) do {						\
		struct vpmu_run r;					\
		vt_run_init(&r, &self->p, self->mem, BUDGET);		\
		r.flags = VPMU_RUN_F_STEP;				\
		__VA_ARGS__;						\
		expect_einval(_metadata, self, &r);			\
	} while (0)

TEST_F(args, bad_breakpoints)
{
	REFUSED(r.nbreak = VPMU_RUN_NBREAK + 1);
	REFUSED(r.nbreak = 0xffffffffu);
	REFUSED(r.reserved_in = 1);
	REFUSED(r.reserved_in = 0x80000000u);
	/* entries past nbreak must be zero */
	REFUSED(r.nbreak = 1; r.brk[1] = 8);
	REFUSED(r.nbreak = 0; r.brk[VPMU_RUN_NBREAK - 1] = 4);
	REFUSED(r.flags = 0; r.nbreak = 15; r.brk[15] = 0xfffffffcu);
	/* nothing to resume on a new file */
	REFUSED(r.flags |= VPMU_RUN_F_RESUME);
	/* all sixteen are fine */
	{
		struct vpmu_run r;
		unsigned int i;

		vt_run_init(&r, &self->p, self->mem, BUDGET);
		r.nbreak = VPMU_RUN_NBREAK;
		for (i = 0; i < VPMU_RUN_NBREAK; i++)
			r.brk[i] = 0x1000 + 4 * i;	/* none reached */
		ASSERT_EQ(0, ioctl(self->fd, VPMU_IOC_RUN, &r));
		EXPECT_EQ((__u32)VPMU_RUN_HALT, r.stop);
		EXPECT_EQ(VT_SUM_CYCLES, r.cycles);
	}
}

/*
 * A caller whose struct is @size bytes, canaries after it: the kernel
 * writes none of them, and the call does what it says.  Returns the
 * call's result and copies the struct out into @r (zeros past @size).
 */
static int call_sized(FIXTURE_DATA(args) *self, struct vpmu_run *r,
		      uint32_t size, uint32_t flags, int *written)
{
	uint8_t *buf = aligned_alloc(8, 1024);
	int ret, i;

	if (!buf)
		return -ENOMEM;
	memset(buf, CANARY, 1024);
	vt_run_init(r, &self->p, self->mem, BUDGET);
	r->size = size;
	r->flags = flags;
	memcpy(buf, r, size);
	ret = ioctl(self->fd, VPMU_IOC_RUN, buf) ? -errno : 0;
	*written = 0;
	for (i = size; i < 1024; i++)
		*written += buf[i] != CANARY;
	memset(r, 0, sizeof(*r));
	memcpy(r, buf, size < sizeof(*r) ? size : sizeof(*r));
	free(buf);
	return ret;
}

TEST_F(args, older_callers)
{
	static const uint32_t sizes[] = { VPMU_RUN_SIZE_VER0, 220, 224,
					  VPMU_RUN_SIZE_VER1 };
	struct vpmu_run r;
	unsigned int i;
	uint64_t c;
	int written;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		memcpy(self->mem, self->p.data, self->p.h.load_size);
		ASSERT_EQ(0, call_sized(self, &r, sizes[i], 0, &written));
		EXPECT_EQ(0, written) TH_LOG("size %u", sizes[i]);
		EXPECT_EQ((__u32)VPMU_RUN_HALT, r.stop);
		EXPECT_EQ(VT_SUM_CYCLES, r.cycles);
		EXPECT_EQ(VT_SUM_R2, r.regs[2]);

		/* it steps too, and goes on */
		memcpy(self->mem, self->p.data, self->p.h.load_size);
		ASSERT_EQ(0, call_sized(self, &r, sizes[i], VPMU_RUN_F_STEP,
					&written));
		EXPECT_EQ(0, written) TH_LOG("size %u", sizes[i]);
		EXPECT_EQ((__u32)VPMU_RUN_BREAK, r.stop);
		EXPECT_EQ((__u32)VPMU_RUN_BREAK_STEP, r.code);
		EXPECT_EQ(4u, r.pc);	/* after the first addi */
		c = r.cycles;
		ASSERT_EQ(0, call_sized(self, &r, sizes[i], VPMU_RUN_F_RESUME,
					&written));
		EXPECT_EQ(0, written) TH_LOG("size %u", sizes[i]);
		EXPECT_EQ((__u32)VPMU_RUN_HALT, r.stop);
		EXPECT_EQ(VT_SUM_CYCLES, c + r.cycles);
		EXPECT_EQ(VT_SUM_R2, r.regs[2]);
	}
}

/* ---- signals ------------------------------------------------------------- */

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	alarms++;
}

/*
 * An armed run that never reaches its breakpoint (spin loops at 0 and 4)
 * is stopped by a signal, with the state at the stop (10 cycles a pass),
 * and goes on to its next step.
 */
TEST_F_TIMEOUT(args, signal_stops_armed_run, 120)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { 0, 300000 } };
	struct vt_prog p;
	struct vpmu_run r;
	uint8_t *mem;

	if (vt_need_prog(_metadata, &p, &mem, "spin"))
		return;
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
	vt_run_init(&r, &p, mem, VPMU_RUN_BUDGET_MAX);
	r.nbreak = 1;
	r.brk[0] = 8;
	ASSERT_EQ(0, ioctl(self->fd, VPMU_IOC_RUN, &r));
	EXPECT_EQ(1, alarms);
	EXPECT_EQ((__u32)VPMU_RUN_SIGNAL, r.stop);
	EXPECT_LT(0ull, r.cycles);
	EXPECT_GE(r.regs[3], r.cycles / 10 - 1);
	EXPECT_LE(r.regs[3], r.cycles / 10 + 1);
	TH_LOG("armed: interrupted after %llu cycles",
	       (unsigned long long)r.cycles);
	r.flags = VPMU_RUN_F_RESUME | VPMU_RUN_F_STEP;
	r.nbreak = 0;
	r.brk[0] = 0;
	ASSERT_EQ(0, ioctl(self->fd, VPMU_IOC_RUN, &r));
	EXPECT_EQ((__u32)VPMU_RUN_BREAK, r.stop);
	EXPECT_GE(5ull, r.cycles);
	free(mem);
	vt_prog_free(&p);
}

TEST_HARNESS_MAIN
