// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_gate - a freeze group gating the micro-PC histogram and the
 * histogram unit (Documentation/admin-guide/perf/vpmu.rst, "Freezing and
 * triggers").
 *
 * config1 gate_uhist (bit 55) and gate_hu (bit 56) on a group leader with
 * a trigger: the histogram and the unit then count only the cycles in
 * which the group is thawed, and, while any such group is open, nothing
 * outside one (other tasks' runs included).  Their clocks run on.
 *
 * marks.s ($VPMU_SHARE/progs, whose comments derive the counts):
 * addi (5 cycles), 1000 passes of 35 cycles (the last 33), halt: 35004
 * cycles, no stalls.  Pass p starts at cycle 5 + 35p with its first
 * mark; the region [first mark, second mark) is its first 18 cycles
 * (mark 1, add 6, add 6, addi 5), 4 instructions.  A group started
 * frozen and toggled on the mark is thawed exactly there.
 *
 * K = 1: the gated histogram's buckets are the region's microword
 * executions, 18000 in all, and with the complement group (started
 * running) the two add up, bucket by bucket, to the whole run's.
 * K = 7: the samples fall on cycles 6, 13, 20, ... of the run (the
 * countdown starts with the histogram, K - 1 = 6 cycles before the first
 * sample), and 35 = 5 x 7, so every pass has the same phase: a pass
 * starting at 5 + 35p is sampled at its cycles 1, 8 and 15, all in its
 * region: the first add's first microword, the second add's second and
 * the addi's third, three buckets of 1000.  Ungated, floor(35004 / 7) =
 * 5000 samples.
 *
 * The unit: par with long periods counts the region's 18000 cycles and
 * uops and its 1000 marks; seq 35 + 70 cycles (a monitoring period of
 * three passes, the clock running while gated) puts the regions of
 * passes 0, 3, ..., 999 (334) in C1 and the other 666 in C2.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <sys/wait.h>
#define VT_HU_NO_FIXTURE
#include "vpmu_hu.h"
#include "vpmu_perf_lib.h"

#define C1_TRIG_TAG(k)	((uint64_t)(k) << 12)
#define C1_MARK		_BITULL(20)
#define C1_FROZEN	_BITULL(21)
#define C1_FOO		_BITULL(22)
#define C1_STOP_TAG(k)	((uint64_t)(k) << 35)
#define C1_GATE_UHIST	_BITULL(55)
#define C1_GATE_HU	_BITULL(56)

#define EV_UOPS		1
#define EV_CYCLES	0x0

#define MARKS_CYCLES	35004ull
#define REGION		18000ull

FIXTURE(gate) {
	int dev;
	struct vt_prog marks;
	uint8_t *mem;
	char interval[32];
	uint64_t *whole;	/* the ungated K = 1 histogram of marks */
	uint32_t n;
};

/* uhist/cpu0's buckets into a new array (@n of them), NULL on error. */
static uint64_t *uh_cpu0(uint32_t *n)
{
	struct vpmu_uhist_header h;
	uint64_t *b = NULL;
	uint8_t *p;
	size_t len;

	p = vt_read_file(VT_UHIST "cpu0", &len);
	if (!p || len < sizeof(h))
		goto out;
	memcpy(&h, p, sizeof(h));
	if (len != sizeof(h) + 8ull * h.nbuckets)
		goto out;
	b = malloc(8ull * h.nbuckets);
	if (b)
		memcpy(b, p + sizeof(h), 8ull * h.nbuckets);
	*n = h.nbuckets;
out:
	free(p);
	return b;
}

static uint64_t sum_of(const uint64_t *b, uint32_t n)
{
	uint64_t s = 0;
	uint32_t i;

	for (i = 0; i < n; i++)
		s += b[i];
	return s;
}

/* Start the histogram at @k on every CPU: buckets zero, countdown k - 1. */
static int uh_start(unsigned int k)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%u", k);
	if (vt_pmu_write("uhist/interval", buf))
		return -1;
	return vt_pmu_write("uhist/control", "start");
}

static int run_marks(FIXTURE_DATA(gate) *self)
{
	struct vpmu_run r;

	if (vt_run_halt(self->dev, &self->marks, self->mem, VT_HU_BUDGET, &r))
		return -1;
	return r.cycles == MARKS_CYCLES ? 0 : -1;
}

FIXTURE_SETUP(gate)
{
	size_t len;
	uint8_t *p;

	self->dev = -1;
	self->interval[0] = '\0';
	self->whole = NULL;
	if (access(VT_UHIST "control", F_OK) || access(VT_HIST "control", F_OK))
		SKIP(return, "no uhist/ or hist/");
	if (!vt_have_tool(VT_HIST_TOOL))
		SKIP(return, "no %s on PATH", VT_HIST_TOOL);
	if (vt_setup_runs(_metadata, &self->dev, &self->marks, "marks", NULL))
		return;
	self->mem = aligned_alloc(8, 1 << 20);
	ASSERT_NE(NULL, self->mem);
	p = vt_read_file(VT_UHIST "interval", &len);
	ASSERT_NE(NULL, p);
	snprintf(self->interval, sizeof(self->interval), "%s", (char *)p);
	free(p);
	ASSERT_EQ(0, vt_pin(0));
	ASSERT_EQ(0, vt_hu_prog("off"));
	/* the whole run, ungated: what the gated ones are parts of */
	ASSERT_EQ(0, uh_start(1));
	ASSERT_EQ(0, run_marks(self));
	self->whole = uh_cpu0(&self->n);
	ASSERT_NE(NULL, self->whole);
	ASSERT_EQ(MARKS_CYCLES, sum_of(self->whole, self->n));
}

FIXTURE_TEARDOWN(gate)
{
	if (self->interval[0]) {
		vt_pmu_write("uhist/control", "stop");
		vt_pmu_write("uhist/interval", self->interval);
	}
	if (self->dev >= 0)
		vt_hu_prog("off");
	vt_teardown_runs(self->dev, &self->marks, NULL);
	free(self->mem);
	free(self->whole);
}

/* A counting event of this task: a leader (@group -1) or a member. */
static int open_ev(uint64_t config, uint64_t config1, int group)
{
	struct perf_event_attr a;

	vt_attr(&a, config, config1);
	return vt_open(&a, 0, -1, group);
}

TEST_F(gate, format_files)
{
	char buf[64];

	ASSERT_EQ(0, vt_pmu_read("format/gate_uhist", buf, sizeof(buf)));
	EXPECT_STREQ("config1:55", buf);
	ASSERT_EQ(0, vt_pmu_read("format/gate_hu", buf, sizeof(buf)));
	EXPECT_STREQ("config1:56", buf);
}

/*
 * K = 1 gated by the region's group and by its complement: 18000 and
 * 17004 samples, the buckets of the two adding up to the whole run's;
 * the group's own uops count equals its histogram's sum.  The first
 * mark of each pass is in the region (1000 in its bucket), the second is
 * not, so the mark's bucket is 1000 in both; the halt is the complement's.
 */
TEST_F(gate, k1_region_and_complement)
{
	uint64_t *in, *out;
	uint32_t n, i, marks = 0;
	int fd;

	ASSERT_EQ(0, uh_start(1));
	fd = open_ev(EV_UOPS, C1_MARK | C1_FROZEN | C1_GATE_UHIST, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, run_marks(self));
	EXPECT_EQ(REGION, vt_count(fd));
	close(fd);
	in = uh_cpu0(&n);
	ASSERT_NE(NULL, in);
	ASSERT_EQ(self->n, n);
	EXPECT_EQ(REGION, sum_of(in, n));

	ASSERT_EQ(0, uh_start(1));
	fd = open_ev(EV_UOPS, C1_MARK | C1_GATE_UHIST, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, run_marks(self));
	EXPECT_EQ(MARKS_CYCLES - REGION, vt_count(fd));
	close(fd);
	out = uh_cpu0(&n);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(MARKS_CYCLES - REGION, sum_of(out, n));

	for (i = 0; i < n; i++) {
		EXPECT_EQ(self->whole[i], in[i] + out[i]) TH_LOG("upc %#x", i);
		/* the mark: 2000 executions, one in the region per pass */
		if (self->whole[i] == 2000 && in[i] == 1000 && out[i] == 1000)
			marks++;
	}
	EXPECT_LE(1u, marks);
	free(in);
	free(out);
}

/* K = 7: three buckets of 1000, on cycles 1, 8 and 15 of each pass. */
TEST_F(gate, k7_samples_in_region)
{
	uint64_t *b;
	uint32_t n, i, nz = 0;
	int fd;

	ASSERT_EQ(0, uh_start(7));
	fd = open_ev(EV_UOPS, C1_MARK | C1_FROZEN | C1_GATE_UHIST, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, run_marks(self));
	close(fd);
	b = uh_cpu0(&n);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(3000u, sum_of(b, n));
	for (i = 0; i < n; i++) {
		if (!b[i])
			continue;
		EXPECT_EQ(1000u, b[i]) TH_LOG("upc %#x", i);
		/* executed twice a pass (add) or three times (addi) */
		EXPECT_LE(2000u, self->whole[i]) TH_LOG("upc %#x", i);
		nz++;
	}
	EXPECT_EQ(3u, nz);
	free(b);

	/* closed again: ungated, 5000 */
	ASSERT_EQ(0, uh_start(7));
	ASSERT_EQ(0, run_marks(self));
	b = uh_cpu0(&n);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(5000u, sum_of(b, n));
	free(b);
}

/* The unit gated: par counts the regions, seq windows on a running clock. */
TEST_F(gate, hu_gated)
{
	uint64_t c[VT_HU_NB], *b;
	uint32_t n;
	int fd;

	ASSERT_EQ(0, vt_hu_prog("par\nvpmu_cycles 1000000000\n"
				"vpmu_uops 1000000000\nvpmu_trigger 1000000000\n"));
	fd = open_ev(EV_UOPS, C1_MARK | C1_FROZEN | C1_GATE_HU, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, run_marks(self));
	ASSERT_EQ(3, vt_hu_buckets(0, c));
	EXPECT_EQ(REGION, c[0]);
	EXPECT_EQ(REGION, c[1]);
	EXPECT_EQ(1000u, c[2]);

	/* gate_hu only: the histogram is not gated */
	ASSERT_EQ(0, uh_start(1));
	ASSERT_EQ(0, vt_hu_prog("seq\nvpmu_cycles 35\nvpmu_cycles 70\n"));
	ASSERT_EQ(0, run_marks(self));
	close(fd);
	ASSERT_EQ(2, vt_hu_buckets(0, c));
	EXPECT_EQ(334u * 18, c[0]);
	EXPECT_EQ(666u * 18, c[1]);
	b = uh_cpu0(&n);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(MARKS_CYCLES, sum_of(b, n));
	free(b);

	/* no gate open any more: the whole run */
	ASSERT_EQ(0, vt_hu_prog("par\nvpmu_cycles 1000000000\n"));
	ASSERT_EQ(0, run_marks(self));
	ASSERT_EQ(1, vt_hu_buckets(0, c));
	EXPECT_EQ(MARKS_CYCLES, c[0]);
}

/*
 * While a gating group is open, runs of a task without it count in
 * neither unit: the histogram covers only the group's regions.
 */
TEST_F(gate, other_tasks_shut_out)
{
	uint64_t c[VT_HU_NB], *b;
	uint32_t n;
	pid_t pid;
	int fd, st;

	ASSERT_EQ(0, uh_start(1));
	ASSERT_EQ(0, vt_hu_prog("par\nvpmu_cycles 1000000000\n"));
	fd = open_ev(EV_UOPS, C1_MARK | C1_FROZEN | C1_GATE_UHIST |
		     C1_GATE_HU, -1);
	ASSERT_LE(0, fd);
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		_exit(run_marks(self) ? 1 : 0);
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFEXITED(st) && !WEXITSTATUS(st));
	b = uh_cpu0(&n);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(0u, sum_of(b, n));
	free(b);
	ASSERT_EQ(1, vt_hu_buckets(0, c));
	EXPECT_EQ(0u, c[0]);
	/* this task's own run: its regions */
	ASSERT_EQ(0, run_marks(self));
	EXPECT_EQ(REGION, vt_count(fd));
	close(fd);
	b = uh_cpu0(&n);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(REGION, sum_of(b, n));
	free(b);
	ASSERT_EQ(1, vt_hu_buckets(0, c));
	EXPECT_EQ(REGION, c[0]);
}

/* This task's leader as an unprivileged user may open it: user mode only. */
static int open_user(uint64_t config1)
{
	struct perf_event_attr a;

	vt_attr(&a, EV_UOPS, config1);
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	return vt_open(&a, 0, -1, -1);
}

/*
 * A gate shuts every engine's histograms for every task, root's
 * included: an unprivileged task may not open one (EACCES), though it
 * may open the same group ungated.
 */
static int paranoid(const char *set, char *old, size_t n)
{
	const char *p = "/proc/sys/kernel/perf_event_paranoid";
	FILE *f = fopen(p, old ? "r" : "w");
	int ok;

	if (!f)
		return -1;
	ok = old ? !!fgets(old, n, f) : fputs(set, f) >= 0;
	return fclose(f) || !ok ? -1 : 0;
}

TEST_F(gate, unprivileged_refused)
{
	char old[16];
	pid_t pid;
	int st;

	/* upstream's default (Debian's is 3: no unprivileged events) */
	ASSERT_EQ(0, paranoid(NULL, old, sizeof(old)));
	ASSERT_EQ(0, paranoid("2", NULL, 0));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(2);
		fd = open_user(C1_MARK | C1_FROZEN);
		if (fd < 0)
			_exit(3);	/* paranoid: no per-task events */
		close(fd);
		fd = open_user(C1_MARK | C1_FROZEN | C1_GATE_UHIST);
		if (fd != -EACCES)
			_exit(4);
		fd = open_user(C1_MARK | C1_FROZEN | C1_GATE_HU);
		_exit(fd == -EACCES ? 0 : 5);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_EQ(0, paranoid(old, NULL, 0));
	ASSERT_TRUE(WIFEXITED(st));
	if (WEXITSTATUS(st) == 3)
		SKIP(return, "unprivileged per-task events refused");
	EXPECT_EQ(0, WEXITSTATUS(st));
}

/*
 * A start on the mark and a stop on the branch (tag 5) gate the 31
 * cycles from each first mark to the bne's decision: 31000.
 */
TEST_F(gate, start_stop_gate)
{
	uint64_t *b;
	uint32_t n;
	int fd;

	ASSERT_EQ(0, uh_start(1));
	fd = open_ev(EV_UOPS, C1_MARK | C1_STOP_TAG(5) | C1_FROZEN |
		     C1_GATE_UHIST, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, run_marks(self));
	EXPECT_EQ(31000u, vt_count(fd));
	close(fd);
	b = uh_cpu0(&n);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(31000u, sum_of(b, n));
	free(b);
}

/*
 * A gate needs a trigger; a member carries its leader's config1 or none;
 * bits past gate_hu are reserved.  A refused open leaves nothing gated.
 */
TEST_F(gate, invalid_config1)
{
	static const uint64_t bad[] = {
		C1_GATE_UHIST, C1_GATE_HU, C1_GATE_UHIST | C1_GATE_HU,
		C1_GATE_UHIST | C1_FROZEN,
		C1_GATE_HU | C1_FOO,
		1ull << 57, 1ull << 63,
	};
	uint64_t *b;
	uint32_t n, i;
	int fd, lead;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		fd = open_ev(EV_UOPS, bad[i], -1);
		EXPECT_EQ(-EINVAL, fd) TH_LOG("config1 %#llx",
					      (unsigned long long)bad[i]);
		if (fd >= 0)
			close(fd);
	}
	lead = open_ev(EV_UOPS, C1_MARK | C1_FROZEN, -1);
	ASSERT_LE(0, lead);
	fd = open_ev(EV_CYCLES, C1_MARK | C1_FROZEN | C1_GATE_UHIST, lead);
	EXPECT_EQ(-EINVAL, fd);
	if (fd >= 0)
		close(fd);
	close(lead);
	/* nothing gated */
	ASSERT_EQ(0, uh_start(1));
	ASSERT_EQ(0, run_marks(self));
	b = uh_cpu0(&n);
	ASSERT_NE(NULL, b);
	EXPECT_EQ(MARKS_CYCLES, sum_of(b, n));
	free(b);
}

TEST_HARNESS_MAIN
