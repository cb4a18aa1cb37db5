// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_run - /dev/vpmu's VPMU_IOC_RUN
 * (Documentation/admin-guide/perf/vpmu.rst, "/dev/vpmu").
 *
 * Every sample program gives exactly the results and cycle count of its
 * .expect file; long runs, which go in chunks, end exactly as the host
 * engine ends them; a signal stops an endless run with VPMU_RUN_SIGNAL;
 * every malformed call fails with the documented errno and writes
 * nothing back; the output has no uninitialised bytes.  Skips without
 * /dev/vpmu or without the assembled programs ($VPMU_SHARE/build).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>
#include "vpmu_test.h"

#define BUDGET		10000000ull
#define PAGE		4096
#define POISON		0xaa

FIXTURE(run) {
	int fd;
	struct vt_prog p;
	uint8_t *mem;
};

/* Open the device and load @prog; both fixtures' set-up. */
static void open_prog(struct __test_metadata *_metadata, int *fd,
		      struct vt_prog *p, uint8_t **mem, const char *prog)
{
	*fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	if (*fd < 0)
		SKIP(return, "no %s (module without the run device?)", VT_DEV);
	if (vt_prog_load(p, prog))
		SKIP(return, "no valid %s in $VPMU_SHARE", prog);
	*mem = vt_prog_mem(p);
	ASSERT_NE(NULL, *mem);
}

FIXTURE_SETUP(run)
{
	self->fd = -1;
	open_prog(_metadata, &self->fd, &self->p, &self->mem, "build/sum.vprg");
}

FIXTURE_TEARDOWN(run)
{
	if (self->fd >= 0)
		close(self->fd);
	free(self->mem);
	vt_prog_free(&self->p);
}

/* ---- results ------------------------------------------------------------- */

FIXTURE(sample) {
	int fd;
	struct vt_prog p;
	uint8_t *mem;
};

FIXTURE_VARIANT(sample) {
	const char *prog, *expect;
	uint64_t budget;
};

#define SAMPLE(name, dir, b)						\
	FIXTURE_VARIANT_ADD(sample, name) {				\
		.prog = "build/" #name ".vprg",				\
		.expect = dir "/" #name ".expect", .budget = b,		\
	}

SAMPLE(sum, "samples", BUDGET);
SAMPLE(memcpy, "samples", BUDGET);
SAMPLE(sort, "samples", BUDGET);
SAMPLE(syscall, "samples", BUDGET);
SAMPLE(fault, "progs", BUDGET);
SAMPLE(spin, "progs", 10000000);		/* 2000 chunks */
SAMPLE(sortloop, "progs", 1000003);	/* chunks and a partial one */

FIXTURE_SETUP(sample)
{
	self->fd = -1;
	open_prog(_metadata, &self->fd, &self->p, &self->mem, variant->prog);
}

FIXTURE_TEARDOWN(sample)
{
	if (self->fd >= 0)
		close(self->fd);
	free(self->mem);
	vt_prog_free(&self->p);
}

TEST_F_TIMEOUT(sample, expected_results, 120)
{
	struct vpmu_run r, r2;
	int checks, bad;

	ASSERT_EQ(0, vt_run(self->fd, &self->p, self->mem, variant->budget, &r));
	bad = vt_expect(variant->expect, &r, self->mem, self->p.h.mem_size,
			&checks);
	ASSERT_LE(0, bad) TH_LOG("no %s in $VPMU_SHARE", variant->expect);
	EXPECT_EQ(0, bad);
	EXPECT_LT(1, checks);
	EXPECT_EQ(0u, r.reserved_out);
	EXPECT_EQ(0u, r.regs[0]);
	if (vt_have_loader())
		EXPECT_EQ(vt_generation(), r.generation);
	/* the same again, from fresh memory */
	ASSERT_EQ(0, vt_run(self->fd, &self->p, self->mem, variant->budget, &r2));
	EXPECT_EQ(r.cycles, r2.cycles);
	EXPECT_EQ(r.stop, r2.stop);
	EXPECT_EQ(r.pc, r2.pc);
	EXPECT_EQ(r.upc, r2.upc);
	EXPECT_EQ(0, memcmp(r.regs, r2.regs, sizeof(r.regs)));
}

TEST_F(run, fault_reports_address)
{
	struct vt_prog p;
	struct vpmu_run r;
	uint8_t *mem;

	if (vt_need_prog(_metadata, &p, &mem, "fault"))
		return;
	ASSERT_EQ(0, vt_run(self->fd, &p, mem, BUDGET, &r));
	EXPECT_EQ((__u32)VPMU_RUN_FAULT, r.stop);
	EXPECT_EQ(1u, r.code);		/* load */
	EXPECT_EQ(0x10000u, r.addr);
	EXPECT_EQ(4u, r.ipc);		/* the lw */
	free(mem);
	vt_prog_free(&p);
}

TEST_F(run, budget_is_exact)
{
	struct vpmu_run r;

	/* sum needs 179 cycles: with 100 it stops on the budget */
	ASSERT_EQ(0, vt_run(self->fd, &self->p, self->mem, 100, &r));
	EXPECT_EQ((__u32)VPMU_RUN_BUDGET, r.stop);
	EXPECT_EQ(100ull, r.cycles);
	ASSERT_EQ(0, vt_run(self->fd, &self->p, self->mem, 179, &r));
	EXPECT_EQ((__u32)VPMU_RUN_HALT, r.stop);
	EXPECT_EQ(179ull, r.cycles);
	ASSERT_EQ(0, vt_run(self->fd, &self->p, self->mem, VPMU_RUN_BUDGET_MAX, &r));
	EXPECT_EQ((__u32)VPMU_RUN_HALT, r.stop);
	EXPECT_EQ(179ull, r.cycles);
}

TEST_F(run, supervisor_mode)
{
	struct vpmu_run r;

	vt_run_init(&r, &self->p, self->mem, BUDGET);
	r.mode = VPMU_MODE_SUPER;
	ASSERT_EQ(0, ioctl(self->fd, VPMU_IOC_RUN, &r));
	EXPECT_EQ((__u32)VPMU_RUN_HALT, r.stop);
	EXPECT_EQ((__u32)VPMU_MODE_SUPER, r.mode_out);
	EXPECT_EQ(VT_SUM_R2, r.regs[2]);
}

/* ---- signals ------------------------------------------------------------- */

static volatile sig_atomic_t alarms;

static void on_alarm(int sig)
{
	alarms++;
}

TEST_F_TIMEOUT(run, signal_stops_endless_run, 120)
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
	ASSERT_EQ(0, vt_run(self->fd, &p, mem, VPMU_RUN_BUDGET_MAX, &r));
	EXPECT_EQ(1, alarms);
	EXPECT_EQ((__u32)VPMU_RUN_SIGNAL, r.stop);
	EXPECT_LT(0ull, r.cycles);
	EXPECT_GT(VPMU_RUN_BUDGET_MAX, r.cycles);
	/* the state written back is the state at the stop: 10 cycles a pass */
	EXPECT_GE(r.regs[3], r.cycles / 10 - 1);
	EXPECT_LE(r.regs[3], r.cycles / 10 + 1);
	TH_LOG("interrupted after %llu cycles", (unsigned long long)r.cycles);
	free(mem);
	vt_prog_free(&p);
}

/* ---- malformed calls ----------------------------------------------------- */

/* The outputs: from cycles to the inputs of VPMU_RUN_SIZE_VER1 (nbreak). */
#define OUT_OFF		offsetof(struct vpmu_run, cycles)
#define OUT_LEN		(offsetof(struct vpmu_run, nbreak) - OUT_OFF)

/*
 * The call fails with @err, and neither the struct nor the memory was
 * written: out fields keep their poison, memory its content.
 */
static void expect_refused(struct __test_metadata *_metadata, int fd,
			   struct vpmu_run *r, uint8_t *mem, uint32_t mem_size,
			   int err)
{
	uint8_t before[sizeof(*r)];
	uint8_t *mbefore = NULL;

	memset((uint8_t *)r + OUT_OFF, POISON, OUT_LEN);
	memcpy(before, r, sizeof(*r));
	if (mem) {
		mbefore = malloc(mem_size);
		ASSERT_NE(NULL, mbefore);
		memcpy(mbefore, mem, mem_size);
	}
	errno = 0;
	EXPECT_EQ(-1, ioctl(fd, VPMU_IOC_RUN, r));
	EXPECT_EQ(err, errno) TH_LOG("errno %d (%s), want %d (%s)", errno,
				     strerror(errno), err, strerror(err));
	EXPECT_EQ(0, memcmp(before, r, sizeof(*r)));
	if (mem) {
		EXPECT_EQ(0, memcmp(mbefore, mem, mem_size));
		free(mbefore);
	}
}

#define REFUSED(field, value, err) do {					\
		struct vpmu_run r;					\
		vt_run_init(&r, &self->p, self->mem, BUDGET);		\
		r.field = value;					\
		expect_refused(_metadata, self->fd, &r, self->mem,	\
			       self->p.h.mem_size, err);		\
	} while (0)

TEST_F(run, bad_size)
{
	REFUSED(size, 0, EINVAL);
	REFUSED(size, VPMU_RUN_SIZE_VER0 - 1, EINVAL);
	REFUSED(size, 8, EINVAL);
	REFUSED(size, PAGE + 1, E2BIG);
	REFUSED(size, 0xffffffffu, E2BIG);
}

/* A larger struct than the kernel knows: zero tail fine, else EINVAL. */
TEST_F(run, larger_struct)
{
	uint8_t *buf = aligned_alloc(8, 2 * PAGE);
	struct vpmu_run *r = (void *)buf;
	const size_t size = 512;
	size_t i;

	ASSERT_NE(NULL, buf);
	memset(buf, POISON, 2 * PAGE);
	vt_run_init(r, &self->p, self->mem, BUDGET);
	memset(buf + sizeof(*r), 0, size - sizeof(*r));
	r->size = size;
	ASSERT_EQ(0, ioctl(self->fd, VPMU_IOC_RUN, r));
	EXPECT_EQ((__u32)VPMU_RUN_HALT, r->stop);
	EXPECT_EQ(VT_SUM_R2, r->regs[2]);
	/* the tail it does not know is left as it was, beyond size too */
	for (i = sizeof(*r); i < size; i++)
		ASSERT_EQ(0, buf[i]) TH_LOG("byte %zu written", i);
	for (i = size; i < 2 * PAGE; i++)
		ASSERT_EQ(POISON, buf[i]) TH_LOG("byte %zu written", i);

	/* a non-zero byte anywhere in the tail, up to a page */
	for (i = sizeof(*r); i <= PAGE - 1; i += PAGE / 4 - 1) {
		vt_run_init(r, &self->p, self->mem, BUDGET);
		r->size = PAGE;
		memset(buf + sizeof(*r), 0, PAGE - sizeof(*r));
		buf[i] = 1;
		expect_refused(_metadata, self->fd, r, self->mem,
			       self->p.h.mem_size, EINVAL);
	}
	vt_run_init(r, &self->p, self->mem, BUDGET);
	r->size = PAGE;
	memset(buf + sizeof(*r), 0, PAGE - sizeof(*r));
	buf[PAGE - 1] = 1;
	expect_refused(_metadata, self->fd, r, self->mem, self->p.h.mem_size,
		       EINVAL);
	/* a whole zero page is fine */
	buf[PAGE - 1] = 0;
	ASSERT_EQ(0, ioctl(self->fd, VPMU_IOC_RUN, r));
	free(buf);
}

TEST_F(run, bad_mem)
{
	struct vpmu_run r;
	uint8_t *none;

	REFUSED(mem, 0, EINVAL);
	REFUSED(mem, (uintptr_t)self->mem + 4, EINVAL);
	REFUSED(mem, (uintptr_t)self->mem + 1, EINVAL);
	/* aligned but not accessible */
	none = mmap(NULL, 2 * PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	ASSERT_NE(MAP_FAILED, none);
	vt_run_init(&r, &self->p, self->mem, BUDGET);
	r.mem = (uintptr_t)none;
	r.mem_size = 2 * PAGE;
	expect_refused(_metadata, self->fd, &r, NULL, 0, EFAULT);
	/* readable but not writable */
	ASSERT_EQ(0, mprotect(none, 2 * PAGE, PROT_READ));
	expect_refused(_metadata, self->fd, &r, NULL, 0, EFAULT);
	munmap(none, 2 * PAGE);
}

TEST_F(run, bad_mem_size)
{
	REFUSED(mem_size, 0, EINVAL);
	REFUSED(mem_size, self->p.h.mem_size - 2, EINVAL);
	REFUSED(mem_size, 6, EINVAL);
	REFUSED(mem_size, VPMU_PROG_MEM_MAX + 4, EINVAL);
	REFUSED(mem_size, 0xfffffffcu, EINVAL);
}

TEST_F(run, bad_entry)
{
	REFUSED(entry, 2, EINVAL);
	REFUSED(entry, 1, EINVAL);
	REFUSED(entry, self->p.h.mem_size, EINVAL);
	REFUSED(entry, self->p.h.mem_size + 4, EINVAL);
	REFUSED(entry, 0xfffffffcu, EINVAL);
}

TEST_F(run, bad_budget)
{
	REFUSED(budget, 0, EINVAL);
	REFUSED(budget, VPMU_RUN_BUDGET_MAX + 1, EINVAL);
	REFUSED(budget, ~0ull, EINVAL);
}

TEST_F(run, bad_mode_flags_reserved)
{
	REFUSED(mode, 2, EINVAL);
	REFUSED(mode, 0xffffffffu, EINVAL);
	/* Beyond VPMU_RUN_F_ALL (vpmu_run_ext.c, vpmu_run_break.c run ours). */
	REFUSED(flags, VPMU_RUN_F_STEP << 1, EINVAL);
	REFUSED(flags, ~(__u32)VPMU_RUN_F_ALL, EINVAL);
	REFUSED(flags, 0x80000000u, EINVAL);
}

TEST_F(run, bad_pointer)
{
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, VPMU_IOC_RUN, NULL));
	EXPECT_EQ(EFAULT, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, VPMU_IOC_RUN, (void *)8));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(run, unknown_ioctl)
{
	struct vpmu_run r;

	vt_run_init(&r, &self->p, self->mem, BUDGET);
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, _IO(VPMU_IOC_MAGIC, 0x7f)));
	EXPECT_EQ(ENOTTY, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, _IOWR(VPMU_IOC_MAGIC, 0x02,
					    struct vpmu_run), &r));
	EXPECT_EQ(ENOTTY, errno);
	errno = 0;
	EXPECT_EQ(-1, ioctl(self->fd, _IOWR('x', 0x01, struct vpmu_run), &r));
	EXPECT_EQ(ENOTTY, errno);
	/* the size in the command does not matter: run.size does */
	errno = 0;
	EXPECT_EQ(0, ioctl(self->fd, _IOWR(VPMU_IOC_MAGIC, 0x01, __u64), &r));
	EXPECT_EQ((__u32)VPMU_RUN_HALT, r.stop);
}

/* ---- the output ---------------------------------------------------------- */

TEST_F(run, output_fully_written)
{
	struct vpmu_run r;
	unsigned int i;

	memset(&r, 0, sizeof(r));
	memset((uint8_t *)&r + OUT_OFF, POISON, OUT_LEN);
	r.size = sizeof(r);
	r.flags = 0;
	r.mem = (uintptr_t)self->mem;
	r.mem_size = self->p.h.mem_size;
	r.entry = self->p.h.entry;
	r.budget = BUDGET;
	r.mode = VPMU_MODE_USER;
	r.ext_at = 0;
	ASSERT_EQ(0, ioctl(self->fd, VPMU_IOC_RUN, &r));
	EXPECT_EQ((__u32)VPMU_RUN_HALT, r.stop);
	EXPECT_EQ(VT_SUM_CYCLES, r.cycles);
	EXPECT_NE(0xaaaaaaaaaaaaaaaaull, r.generation);
	EXPECT_EQ(0u, r.code);		/* no trap, no fault */
	EXPECT_EQ(0u, r.addr);
	EXPECT_EQ(0u, r.reserved_out);
	EXPECT_EQ((__u32)VPMU_MODE_USER, r.mode_out);
	EXPECT_EQ(0x14u, r.pc);		/* the halt */
	EXPECT_EQ(0x14u, r.ipc);
	EXPECT_NE(0xaaaaaaaau, r.upc);
	for (i = 0; i < 32; i++)
		EXPECT_EQ(i == 2 ? VT_SUM_R2 : 0u, r.regs[i]) TH_LOG("r%u", i);
	/* the in fields are given back as they were */
	EXPECT_EQ(sizeof(r), r.size);
	EXPECT_EQ(BUDGET, r.budget);
	EXPECT_EQ((uintptr_t)self->mem, r.mem);
}

TEST_HARNESS_MAIN
