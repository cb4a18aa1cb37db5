// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_reload_stress - images replaced while programs run on every CPU.
 *
 * Two images whose programs give different, recognisable results: A, the
 * built-in image, and B, a copy with another name and a data-cache miss
 * penalty of 40 instead of 8 (memcpy.s: 3120 cycles on A, 3376 on B).
 * One runner process per CPU (pinned) runs memcpy (one chunk) and a
 * sortloop of 200003 cycles (many chunks: image replacement meets runs
 * in progress) in a loop while the parent reloads B, A, B, ... for a
 * bounded time.  Every run must equal the reference run of exactly one
 * image, the one its returned generation names (A at even distances from
 * the start generation, B at odd): no mixed result, no crash.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include "vpmu_test.h"

#define DURATION	5	/* seconds of reloading */
#define NPROG		2
#define MAX_RUNNERS	4
#define B_PENALTY	40
#define CHUNK		4096

static const char *const progs[NPROG] = {
	"build/memcpy.vprg", "build/sortloop.vprg",
};

static const uint64_t budgets[NPROG] = { 1000000, 200003 };

/* What a run gives, as compared. */
struct outcome {
	uint64_t cycles;
	uint32_t stop, pc, regs[32];
	uint32_t memsum;	/* CRC of the memory after the run */
};

/* Shared with the runners (MAP_SHARED). */
struct shared {
	volatile int stop;
	struct {
		unsigned long runs, bad, seen[2], failed_calls;
		char first_bad[256];
	} r[MAX_RUNNERS];
};

static void outcome_of(const struct vpmu_run *r, const uint8_t *mem,
		       uint32_t mem_size, struct outcome *o)
{
	memset(o, 0, sizeof(*o));
	o->cycles = r->cycles;
	o->stop = r->stop;
	o->pc = r->pc;
	memcpy(o->regs, r->regs, sizeof(o->regs));
	o->memsum = vt_crc32(0, mem, mem_size);
}

FIXTURE(stress) {
	int fd;
	struct vt_prog p[NPROG];
	uint8_t *mem[NPROG];
	uint8_t *img[2];	/* A, B */
	size_t len;
	struct outcome want[2][NPROG];	/* [image][program] */
	unsigned long long gen0;
	struct shared *sh;
};

/* Run every program on the current image and record the outcomes. */
static void reference(struct __test_metadata *_metadata,
		      FIXTURE_DATA(stress) *self, int image)
{
	struct vpmu_run r;
	int i;

	for (i = 0; i < NPROG; i++) {
		ASSERT_EQ(0, vt_run(self->fd, &self->p[i], self->mem[i],
				    budgets[i], &r));
		EXPECT_EQ(vt_generation(), r.generation);
		outcome_of(&r, self->mem[i], self->p[i].h.mem_size,
			   &self->want[image][i]);
	}
}

FIXTURE_SETUP(stress)
{
	int i;

	self->fd = -1;
	if (vt_need_loader(_metadata))
		return;
	self->fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	if (self->fd < 0)
		SKIP(return, "no %s", VT_DEV);
	for (i = 0; i < NPROG; i++) {
		if (vt_prog_load(&self->p[i], progs[i]))
			SKIP(return, "no %s in $VPMU_SHARE", progs[i]);
		self->mem[i] = vt_prog_mem(&self->p[i]);
		ASSERT_NE(NULL, self->mem[i]);
	}
	ASSERT_EQ(0, vt_load_default());
	self->img[0] = vt_read_image(&self->len);
	ASSERT_NE(NULL, self->img[0]);
	self->img[1] = vt_variant(self->img[0], self->len, "vpmu32-stress-b",
				  B_PENALTY);
	ASSERT_NE(NULL, self->img[1]);

	ASSERT_EQ(0, vt_write_image(self->img[1], self->len, CHUNK));
	reference(_metadata, self, 1);
	ASSERT_EQ(0, vt_write_image(self->img[0], self->len, CHUNK));
	reference(_metadata, self, 0);
	self->gen0 = vt_generation();
	/* recognisable: every program ends differently on A and on B */
	for (i = 0; i < NPROG; i++)
		ASSERT_NE(0, memcmp(&self->want[0][i], &self->want[1][i],
				    sizeof(self->want[0][i])));
	ASSERT_EQ(3120ull, self->want[0][0].cycles);
	ASSERT_EQ(3056ull + 8 * B_PENALTY, self->want[1][0].cycles);

	self->sh = mmap(NULL, sizeof(*self->sh), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->sh);
	memset(self->sh, 0, sizeof(*self->sh));
}

FIXTURE_TEARDOWN(stress)
{
	int i;

	if (self->img[0])
		vt_load_default();
	for (i = 0; i < NPROG; i++) {
		free(self->mem[i]);
		vt_prog_free(&self->p[i]);
	}
	free(self->img[0]);
	free(self->img[1]);
	if (self->sh && self->sh != MAP_FAILED)
		munmap(self->sh, sizeof(*self->sh));
	if (self->fd >= 0)
		close(self->fd);
}

/* A runner pinned to @cpu: runs until told to stop, checks every run. */
static void runner(FIXTURE_DATA(stress) *self, int idx, int cpu)
{
	typeof(self->sh->r[0]) *me = &self->sh->r[idx];
	struct outcome got;
	struct vpmu_run r;
	cpu_set_t set;
	int i, img;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		_exit(3);
	for (i = 0; !self->sh->stop; i = (i + 1) % NPROG) {
		if (vt_run(self->fd, &self->p[i], self->mem[i], budgets[i], &r)) {
			me->failed_calls++;
			continue;
		}
		me->runs++;
		outcome_of(&r, self->mem[i], self->p[i].h.mem_size, &got);
		img = (r.generation - self->gen0) % 2;
		if (r.generation < self->gen0 ||
		    memcmp(&got, &self->want[img][i], sizeof(got))) {
			if (!me->bad++)
				snprintf(me->first_bad, sizeof(me->first_bad),
					 "%s on cpu %d: generation %llu (image %c), cycles %llu, want %llu (A %llu, B %llu)",
					 progs[i], cpu,
					 (unsigned long long)r.generation,
					 "AB"[img], (unsigned long long)got.cycles,
					 (unsigned long long)self->want[img][i].cycles,
					 (unsigned long long)self->want[0][i].cycles,
					 (unsigned long long)self->want[1][i].cycles);
		} else {
			me->seen[img]++;
		}
	}
	_exit(0);
}

TEST_F_TIMEOUT(stress, reload_while_running, 120)
{
	int ncpu = sysconf(_SC_NPROCESSORS_ONLN), nrun, i, st;
	unsigned long loads = 0, runs = 0, seen[2] = { 0, 0 };
	pid_t pid[MAX_RUNNERS];
	time_t end;
	int ret = 0;

	nrun = ncpu < 2 ? 2 : ncpu > MAX_RUNNERS ? MAX_RUNNERS : ncpu;
	for (i = 0; i < nrun; i++) {
		pid[i] = fork();
		if (pid[i] < 0) {
			nrun = i;	/* stop and reap the others first */
			break;
		}
		if (!pid[i])
			runner(self, i, i % (ncpu > 0 ? ncpu : 1));
	}
	end = time(NULL) + DURATION;
	/* no ASSERT until the runners are reaped: they would run on */
	while (time(NULL) < end && nrun > 0) {
		ret = vt_write_image(self->img[(loads + 1) % 2], self->len,
				     CHUNK);
		if (ret)
			break;
		loads++;
		usleep(2000);
	}
	self->sh->stop = 1;
	EXPECT_EQ(0, ret) TH_LOG("load %lu failed: %s", loads, strerror(-ret));
	EXPECT_LE(2, nrun);
	for (i = 0; i < nrun; i++) {
		ASSERT_EQ(pid[i], waitpid(pid[i], &st, 0));
		EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		EXPECT_EQ(0ul, self->sh->r[i].bad)
			TH_LOG("runner %d: %lu mixed or wrong results, first: %s",
			       i, self->sh->r[i].bad, self->sh->r[i].first_bad);
		EXPECT_EQ(0ul, self->sh->r[i].failed_calls);
		EXPECT_LT(0ul, self->sh->r[i].runs);
		runs += self->sh->r[i].runs;
		seen[0] += self->sh->r[i].seen[0];
		seen[1] += self->sh->r[i].seen[1];
	}
	EXPECT_EQ(self->gen0 + loads, vt_generation());
	TH_LOG("%d runners, %lu runs (%lu on A, %lu on B), %lu image loads",
	       nrun, runs, seen[0], seen[1], loads);
	/* the test tested something: both images ran */
	EXPECT_LT(0ul, seen[0]);
	EXPECT_LT(0ul, seen[1]);
}

TEST_HARNESS_MAIN
