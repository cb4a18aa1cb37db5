// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_rv32_resume - VPMU_RUN_F_REGS and VPMU_RUN_F_RESUME
 * (include/uapi/linux/vpmu.h, Documentation/admin-guide/perf/vpmu.rst,
 * "/dev/vpmu"): a program stopped by a TRAP, its budget or a signal goes
 * on where it stopped, as if it had never left the engine, so that the
 * caller can serve an RV32 ecall between two calls.
 *
 * The programs are RV32 machine code written here (the words below, at
 * address 0), run under the rv32im image.  The numbers are the host
 * simulator's for the same code linked at 0 (rv32im.vpmu, 4096 bytes of
 * memory; the ecall is served there as an unknown system call:
 * a0 = -ENOSYS): the resumed program ends with the cycles, counts,
 * registers and memory of one uninterrupted run, its data cache kept
 * across the ecall (the second load hits: a cold cache would cost 8 cycles
 * more).  Old callers (flags 0) see no change, and every bad combination
 * is refused, changing nothing.  Skips without the loader, root or
 * build/rv32im.vpmu in $VPMU_SHARE.
 */
#define _GNU_SOURCE
#include <sys/wait.h>
#include "vpmu_test.h"
#include "vpmu_perf_lib.h"

#define MEM_SIZE	4096u
#define BUDGET		1000000ull
#define RV_TRAP_ECALL	2
#define RV_TRAP_EBREAK	3
#define ENOSYS_A0	((uint32_t)-38)

/*
 * ecall.S: a load (a miss), a0 = 7, a7 = 999, ecall; then a load of the
 * same word (a hit, if the cache survived the ecall), a1 = a0 + a0 (a0 is
 * the caller's result), a store of a1, exit(a0) and an ebreak after it.
 */
static const uint32_t ecall_prog[] = {
	0x20002303,	/* 0x00 lw t1, 0x200(zero) */
	0x00700513,	/* 0x04 li a0, 7 */
	0x3e700893,	/* 0x08 li a7, 999 */
	0x00000073,	/* 0x0c ecall */
	0x20002383,	/* 0x10 lw t2, 0x200(zero) */
	0x00a505b3,	/* 0x14 add a1, a0, a0 */
	0x20b02223,	/* 0x18 sw a1, 0x204(zero) */
	0x05d00893,	/* 0x1c li a7, 93 */
	0x00000073,	/* 0x20 ecall */
	0x00100073,	/* 0x24 ebreak */
};

#define DATA_ADDR	0x200
#define DATA_WORD	0x12345678u
#define OUT_ADDR	0x204

/* The simulator's figures for ecall.S: the whole program to its exit ecall. */
#define ECALL1_CYCLES	30ull	/* lw (a miss) 15, li 6, li 6, ecall 3 */
#define ECALL_CYCLES	64ull
#define ECALL_INSNS	8ull
#define ECALL_TAG1	9ull	/* decode: instructions begun */

/*
 * loop.S: 50 rounds of load, add, store, count down, branch; then an
 * ebreak.  The simulator: 2357 cycles.
 */
static const uint32_t loop_prog[] = {
	0x03200293,	/* 0x00 li t0, 50 */
	0x20002303,	/* 0x04 lw t1, 0x200(zero) */
	0x006383b3,	/* 0x08 add t2, t2, t1 */
	0x20702223,	/* 0x0c sw t2, 0x204(zero) */
	0xfff28293,	/* 0x10 addi t0, t0, -1 */
	0xfe0298e3,	/* 0x14 bnez t0, 0x04 */
	0x00100073,	/* 0x18 ebreak */
};

#define LOOP_CYCLES	2357ull

/* jump_out.S: a jump out of memory, a fetch fault. */
static const uint32_t jump_out[] = {
	0x000102b7,	/* 0x00 lui t0, 0x10 */
	0x00028067,	/* 0x04 jr t0 */
};

FIXTURE(rv32) {
	int fd;
	uint8_t *mem;
	struct vpmu_run r;
};

FIXTURE_SETUP(rv32)
{
	void *m;

	self->fd = -1;
	self->mem = NULL;
	if (!vt_pmu_present())
		SKIP(return, "no vpmu PMU");
	if (vt_load_share_image(_metadata, "build/rv32im.vpmu"))
		return;
	self->fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, posix_memalign(&m, 8, MEM_SIZE));
	self->mem = m;
}

FIXTURE_TEARDOWN(rv32)
{
	if (vt_have_loader() && !geteuid())
		EXPECT_EQ(0, vt_load_default());
	if (self->fd >= 0)
		close(self->fd);
	free(self->mem);
}

/* Fresh memory holding @prog (@len bytes) and the data word. */
static void load(FIXTURE_DATA(rv32) *self, const uint32_t *prog, size_t len)
{
	uint32_t w = DATA_WORD;

	memset(self->mem, 0, MEM_SIZE);
	memcpy(self->mem, prog, len);
	memcpy(self->mem + DATA_ADDR, &w, sizeof(w));
}

static uint32_t mem_word(FIXTURE_DATA(rv32) *self, uint32_t addr)
{
	uint32_t w;

	memcpy(&w, self->mem + addr, sizeof(w));
	return w;
}

/* The arguments of a call with @flags and @budget, in self->r. */
static void args(FIXTURE_DATA(rv32) *self, uint32_t flags, uint64_t budget)
{
	self->r.size = sizeof(self->r);
	self->r.flags = flags;
	self->r.mem = (uintptr_t)self->mem;
	self->r.mem_size = MEM_SIZE;
	self->r.entry = 0;
	self->r.budget = budget;
	self->r.mode = VPMU_MODE_USER;
}

/* That call; 0 or -errno. */
static int run(FIXTURE_DATA(rv32) *self, uint32_t flags, uint64_t budget)
{
	args(self, flags, budget);
	return ioctl(self->fd, VPMU_IOC_RUN, &self->r) ? -errno : 0;
}

/* ecall.S from its start, with sp = MEM_SIZE as the simulator sets it. */
static int start_ecall(FIXTURE_DATA(rv32) *self)
{
	load(self, ecall_prog, sizeof(ecall_prog));
	memset(&self->r, 0, sizeof(self->r));
	self->r.regs[2] = MEM_SIZE;
	return run(self, VPMU_RUN_F_REGS, BUDGET);
}

/* Stopped at the first ecall, as the simulator hands it to its owner. */
static void check_first_ecall(struct __test_metadata *_metadata,
			      FIXTURE_DATA(rv32) *self)
{
	EXPECT_EQ((uint32_t)VPMU_RUN_TRAP, self->r.stop);
	EXPECT_EQ((uint32_t)RV_TRAP_ECALL, self->r.code);
	EXPECT_EQ(0x0cu, self->r.ipc);
	EXPECT_EQ(0x0cu, self->r.pc);
	EXPECT_EQ(ECALL1_CYCLES, self->r.cycles);
	EXPECT_EQ(MEM_SIZE, self->r.regs[2]);
	EXPECT_EQ(DATA_WORD, self->r.regs[6]);
	EXPECT_EQ(7u, self->r.regs[10]);
	EXPECT_EQ(999u, self->r.regs[17]);
	EXPECT_EQ(0u, self->r.regs[7]);
}

/* Stopped at the exit ecall with the simulator's registers and memory. */
static void check_exit_ecall(struct __test_metadata *_metadata,
			     FIXTURE_DATA(rv32) *self)
{
	unsigned int i;

	EXPECT_EQ((uint32_t)VPMU_RUN_TRAP, self->r.stop);
	EXPECT_EQ((uint32_t)RV_TRAP_ECALL, self->r.code);
	EXPECT_EQ(0x20u, self->r.ipc);
	EXPECT_EQ(0x20u, self->r.pc);
	EXPECT_EQ(ECALL_CYCLES - ECALL1_CYCLES, self->r.cycles);
	for (i = 0; i < 32; i++) {
		uint32_t want = 0;

		switch (i) {
		case 2:
			want = MEM_SIZE;
			break;
		case 6:
		case 7:
			want = DATA_WORD;
			break;
		case 10:
			want = ENOSYS_A0;
			break;
		case 11:
			want = 2 * ENOSYS_A0;
			break;
		case 17:
			want = 93;
			break;
		}
		EXPECT_EQ(want, self->r.regs[i]) TH_LOG("x%u", i);
	}
	EXPECT_EQ(2 * ENOSYS_A0, mem_word(self, OUT_ADDR));
}

/*
 * The ecall served as the simulator serves it: the run goes on after the
 * TRAP with the caller's a0, the cache it had (the second load hits) and
 * the cycles and counts of one uninterrupted run, counted for the task.
 */
TEST_F(rv32, ecall_resumed_exactly)
{
	/* Three events: the module's default nr_counters. */
	static const char *const ev[] = { "cycles", "insns", "tag1" };
	static const uint64_t want[] = { ECALL_CYCLES, ECALL_INSNS,
					 ECALL_TAG1 };
	struct perf_event_attr a;
	int pfd[ARRAY_SIZE(ev)];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		ASSERT_NE(~0ull, vt_alias(ev[i])) TH_LOG("no alias %s", ev[i]);
		vt_attr(&a, vt_alias(ev[i]), 0);
		pfd[i] = vt_open(&a, 0, -1, -1);
		ASSERT_LE(0, pfd[i]) TH_LOG("%s: %s", ev[i], strerror(-pfd[i]));
	}
	ASSERT_EQ(0, start_ecall(self));
	check_first_ecall(_metadata, self);
	self->r.regs[10] = ENOSYS_A0;
	ASSERT_EQ(0, run(self, VPMU_RUN_F_REGS | VPMU_RUN_F_RESUME, BUDGET));
	check_exit_ecall(_metadata, self);
	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		EXPECT_EQ(want[i], vt_count(pfd[i])) TH_LOG("%s", ev[i]);
		close(pfd[i]);
	}
	/* A TRAP again: the run goes on to the ebreak, one more stop. */
	ASSERT_EQ(0, run(self, VPMU_RUN_F_RESUME, BUDGET));
	EXPECT_EQ((uint32_t)VPMU_RUN_TRAP, self->r.stop);
	EXPECT_EQ((uint32_t)RV_TRAP_EBREAK, self->r.code);
	EXPECT_EQ(0x24u, self->r.ipc);
	EXPECT_EQ(ENOSYS_A0, self->r.regs[10]);
}

/* Without VPMU_RUN_F_REGS the program goes on with its own registers. */
TEST_F(rv32, resume_keeps_registers)
{
	ASSERT_EQ(0, start_ecall(self));
	memset(self->r.regs, 0xa5, sizeof(self->r.regs));
	ASSERT_EQ(0, run(self, VPMU_RUN_F_RESUME, BUDGET));
	EXPECT_EQ((uint32_t)VPMU_RUN_TRAP, self->r.stop);
	EXPECT_EQ(0x20u, self->r.ipc);
	EXPECT_EQ(7u, self->r.regs[10]);
	EXPECT_EQ(14u, self->r.regs[11]);
	EXPECT_EQ(MEM_SIZE, self->r.regs[2]);
	EXPECT_EQ(14u, mem_word(self, OUT_ADDR));
}

/*
 * A run cut by its budget, resumed slice after slice, ends exactly as the
 * run made in one call: cycles, registers, memory, the stop.
 */
TEST_F(rv32, budget_slices_add_up)
{
	static const uint64_t slices[] = { 1, 7, 100, 999 };
	struct vpmu_run whole;
	unsigned int i, n;
	uint64_t cycles;

	load(self, loop_prog, sizeof(loop_prog));
	memset(&self->r, 0, sizeof(self->r));
	ASSERT_EQ(0, run(self, 0, BUDGET));
	whole = self->r;
	EXPECT_EQ((uint32_t)VPMU_RUN_TRAP, whole.stop);
	EXPECT_EQ((uint32_t)RV_TRAP_EBREAK, whole.code);
	EXPECT_EQ(0x18u, whole.ipc);
	EXPECT_EQ(LOOP_CYCLES, whole.cycles);
	EXPECT_EQ(50 * DATA_WORD, whole.regs[7]);
	for (i = 0; i < ARRAY_SIZE(slices); i++) {
		load(self, loop_prog, sizeof(loop_prog));
		memset(&self->r, 0, sizeof(self->r));
		ASSERT_EQ(0, run(self, 0, slices[i]));
		cycles = self->r.cycles;
		for (n = 1; self->r.stop == VPMU_RUN_BUDGET && n < 100000; n++) {
			EXPECT_LE(slices[i], self->r.cycles);
			ASSERT_EQ(0, run(self, VPMU_RUN_F_RESUME, slices[i]));
			cycles += self->r.cycles;
		}
		EXPECT_EQ(whole.stop, self->r.stop) TH_LOG("slices of %llu",
							   (unsigned long long)slices[i]);
		EXPECT_EQ(whole.code, self->r.code);
		EXPECT_EQ(whole.ipc, self->r.ipc);
		EXPECT_EQ(whole.pc, self->r.pc);
		EXPECT_EQ(whole.cycles, cycles);
		EXPECT_EQ(0, memcmp(whole.regs, self->r.regs,
				    sizeof(whole.regs)));
		EXPECT_EQ(50 * DATA_WORD, mem_word(self, OUT_ADDR));
		if (slices[i] == 1)
			EXPECT_LT(LOOP_CYCLES / 16, n);
	}
}

/* The program keeps its image: a reload between the calls changes nothing. */
TEST_F(rv32, resume_keeps_image)
{
	uint64_t gen;

	ASSERT_EQ(0, start_ecall(self));
	gen = self->r.generation;
	ASSERT_EQ(0, vt_load_default());
	self->r.regs[10] = ENOSYS_A0;
	ASSERT_EQ(0, run(self, VPMU_RUN_F_REGS | VPMU_RUN_F_RESUME, BUDGET));
	EXPECT_EQ(gen, self->r.generation);
	check_exit_ecall(_metadata, self);
}

/* Old callers: flags 0 starts afresh, regs[] ignored, whatever was kept. */
TEST_F(rv32, flags_zero_starts_afresh)
{
	ASSERT_EQ(0, start_ecall(self));
	load(self, ecall_prog, sizeof(ecall_prog));
	memset(self->r.regs, 0xa5, sizeof(self->r.regs));
	ASSERT_EQ(0, run(self, 0, BUDGET));
	EXPECT_EQ((uint32_t)VPMU_RUN_TRAP, self->r.stop);
	EXPECT_EQ(0x0cu, self->r.ipc);
	EXPECT_EQ(ECALL1_CYCLES, self->r.cycles);
	EXPECT_EQ(0u, self->r.regs[2]);
	EXPECT_EQ(7u, self->r.regs[10]);
	EXPECT_EQ(0u, self->r.regs[11]);
	/* VPMU_RUN_F_REGS sets x1..x31; x0 stays 0 (R0_ZERO). */
	load(self, ecall_prog, sizeof(ecall_prog));
	memset(self->r.regs, 0xa5, sizeof(self->r.regs));
	ASSERT_EQ(0, run(self, VPMU_RUN_F_REGS, BUDGET));
	EXPECT_EQ(0u, self->r.regs[0]);
	EXPECT_EQ(0xa5a5a5a5u, self->r.regs[2]);
	EXPECT_EQ(7u, self->r.regs[10]);
}

/* A refused call: -EINVAL, and the caller's struct as it was. */
static void refused(struct __test_metadata *_metadata,
		    FIXTURE_DATA(rv32) *self, uint32_t flags, const char *why)
{
	struct vpmu_run before;

	args(self, flags, BUDGET);
	self->r.cycles = 12345;
	self->r.stop = 77;
	before = self->r;
	EXPECT_EQ(-EINVAL, ioctl(self->fd, VPMU_IOC_RUN, &self->r) ? -errno : 0)
		TH_LOG("%s", why);
	EXPECT_EQ(0, memcmp(&before, &self->r, sizeof(before))) TH_LOG("%s",
								       why);
}

/*
 * Nothing to resume: a fresh file, a program that faulted, one resumed
 * already, another file's.  A refused resume leaves the program kept.
 */
TEST_F(rv32, nothing_to_resume)
{
	uint32_t rs = VPMU_RUN_F_RESUME | VPMU_RUN_F_REGS;
	int fd2;

	load(self, ecall_prog, sizeof(ecall_prog));
	memset(&self->r, 0, sizeof(self->r));
	refused(_metadata, self, VPMU_RUN_F_RESUME, "fresh file");
	refused(_metadata, self, rs, "fresh file, regs");

	/* A fault (a jump out of memory) ends what the file kept. */
	ASSERT_EQ(0, start_ecall(self));
	load(self, jump_out, sizeof(jump_out));
	ASSERT_EQ(0, run(self, 0, BUDGET));
	EXPECT_EQ((uint32_t)VPMU_RUN_FAULT, self->r.stop);
	refused(_metadata, self, VPMU_RUN_F_RESUME, "after a fault");

	/* Another file's program is not this file's. */
	ASSERT_EQ(0, start_ecall(self));
	fd2 = self->fd;
	self->fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	refused(_metadata, self, VPMU_RUN_F_RESUME, "another file");
	close(self->fd);
	self->fd = fd2;

	/* The wrong memory size is refused; the program stays kept. */
	ASSERT_EQ(0, start_ecall(self));
	self->r.mem_size = MEM_SIZE - 4;
	self->r.size = sizeof(self->r);
	self->r.flags = VPMU_RUN_F_RESUME;
	self->r.cycles = 4242;
	EXPECT_EQ(-EINVAL, ioctl(self->fd, VPMU_IOC_RUN, &self->r) ? -errno : 0);
	EXPECT_EQ(4242u, self->r.cycles);
	self->r.regs[10] = ENOSYS_A0;
	ASSERT_EQ(0, run(self, rs, BUDGET));
	check_exit_ecall(_metadata, self);

	/* A resume with bad common arguments is refused as always. */
	self->r.budget = 0;
	self->r.flags = VPMU_RUN_F_RESUME;
	EXPECT_EQ(-EINVAL, ioctl(self->fd, VPMU_IOC_RUN, &self->r) ? -errno : 0);
	/* ... and the kept program still goes on (to the ebreak). */
	ASSERT_EQ(0, run(self, VPMU_RUN_F_RESUME, BUDGET));
	EXPECT_EQ((uint32_t)RV_TRAP_EBREAK, self->r.code);
}

/* Unknown flag bits next to the new ones are refused. */
TEST_F(rv32, unknown_flags_refused)
{
	load(self, ecall_prog, sizeof(ecall_prog));
	memset(&self->r, 0, sizeof(self->r));
	refused(_metadata, self, VPMU_RUN_F_STEP << 1, "bit 4");
	refused(_metadata, self, VPMU_RUN_F_RESUME | 1u << 31, "bit 31");
}

/*
 * Processes sharing the file (fork) start, resume and reload the image
 * at once, with snapshots clearing CPU 0 meanwhile: every call runs or
 * is refused with EINVAL, and the kernel neither leaks nor warns.
 */
TEST_F(rv32, racing_resumes)
{
	int i, p, st, bad = 0;
	pid_t pid[3];

	load(self, loop_prog, sizeof(loop_prog));
	for (p = 0; p < 3; p++) {
		pid[p] = fork();
		ASSERT_LE(0, pid[p]);
		if (pid[p])
			continue;
		for (i = 0; i < 400; i++) {
			struct vpmu_snapshot sn = { .size = sizeof(sn),
				.flags = VPMU_SNAP_F_CLEAR, .cpu = 0 };
			int ret = run(self, i % 3 ? VPMU_RUN_F_RESUME : 0,
				      37 + p);

			if (ret && ret != -EINVAL)
				_exit(1);
			if (p == 2 && i % 50 == 0 && vt_load_default())
				_exit(2);
			if (p == 1 && ioctl(self->fd, VPMU_IOC_SNAPSHOT, &sn))
				_exit(3);
		}
		_exit(0);
	}
	for (p = 0; p < 3; p++) {
		ASSERT_EQ(pid[p], waitpid(pid[p], &st, 0));
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			bad = st;
	}
	EXPECT_EQ(0, bad);
	/* the file keeps a program across the children */
	EXPECT_EQ(0, run(self, 0, 10));
}

TEST_HARNESS_MAIN
