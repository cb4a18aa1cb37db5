// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_startstop - start and stop as two events, and a counter's wrap as
 * a trigger, through perf_event_open()
 * (Documentation/admin-guide/perf/vpmu.rst, "Freezing and triggers").
 *
 * A group leader's attr.config1 names a stop trigger (stop_ev, stop_tag,
 * stop_mark or stop_ovf); its trig_* trigger then starts the group
 * instead of toggling it.  trig_ovf=n and stop_ovf=n name the wrap of
 * counter n - 1: a sampling event pinned there (ctr=n) wraps once per
 * period, and the group changes right after that microword.
 *
 * marks.s ($VPMU_SHARE/progs, whose comments derive the counts):
 * addi (5 microwords), then 1000 passes of mark 1, add 6, add 6, addi 5,
 * mark 1, addi 5, addi 5, bne 6 (4 the last time), then halt 1.  The
 * bne's third microword carries tag 5 (branch).  So a group started
 * frozen with start = mark and stop = tag 5 counts 31 microwords and 7
 * instructions of every pass (mark .. addi, addi, and the bne's first
 * two microwords); the second mark of a pass finds it running.
 */
#include <linux/perf_event.h>
#include "vpmu_test.h"
#include "vpmu_perf_lib.h"

#define BUDGET		10000000ull

/* attr.config1 fields, as format/ says (checked in format_files). */
#define C1_TRIG_EV(ev)	((uint64_t)(ev))
#define C1_TRIG_TAG(k)	((uint64_t)(k) << 12)
#define C1_MARK		_BITULL(20)
#define C1_FROZEN	_BITULL(21)
#define C1_STOP_EV(ev)	((uint64_t)(ev) << 23)
#define C1_STOP_TAG(k)	((uint64_t)(k) << 35)
#define C1_STOP_MARK	_BITULL(43)
#define C1_TRIG_OVF(n)	((uint64_t)(n) << 45)
#define C1_STOP_OVF(n)	((uint64_t)(n) << 50)

#define EV_UOPS		1
#define EV_INSNS	2
#define EV_TRIGGER	8
#define CFG_CTR(n)	((uint64_t)(n) << 20)

#define TAG_BRANCH	5

FIXTURE(ss) {
	int dev;
	struct vt_prog marks;
	uint8_t *mem;
	struct vpmu_run r;
};

FIXTURE_SETUP(ss)
{
	if (vt_setup_runs(_metadata, &self->dev, &self->marks, "marks", NULL))
		return;
	self->mem = aligned_alloc(8, 1 << 20);
	ASSERT_NE(NULL, self->mem);
	ASSERT_EQ(0, vt_pin(0));
}

FIXTURE_TEARDOWN(ss)
{
	vt_teardown_runs(self->dev, &self->marks, NULL);
	free(self->mem);
}

/* Open a counting event of this task (in @group, or a leader: -1). */
static int open_ev(uint64_t config, uint64_t config1, int group)
{
	struct perf_event_attr a;

	vt_attr(&a, config, config1);
	return vt_open(&a, 0, -1, group);
}

/* A sampling event of this task, period @period, on counter @ctr - 1. */
static int open_sampling(uint64_t config, unsigned int ctr, uint64_t period)
{
	struct perf_event_attr a;

	vt_attr(&a, config | CFG_CTR(ctr), 0);
	a.sample_period = period;
	a.sample_type = PERF_SAMPLE_IP;
	return vt_open(&a, 0, -1, -1);
}

static int run_marks(FIXTURE_DATA(ss) *self)
{
	return vt_run_halt(self->dev, &self->marks, self->mem, BUDGET,
			   &self->r);
}

TEST_F(ss, format_files)
{
	static const char *const want[][2] = {
		{ "format/stop_ev", "config1:23-34" },
		{ "format/stop_tag", "config1:35-42" },
		{ "format/stop_mark", "config1:43" },
		{ "format/trig_ovf", "config1:45-49" },
		{ "format/stop_ovf", "config1:50-54" },
	};
	char buf[64];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		ASSERT_EQ(0, vt_pmu_read(want[i][0], buf, sizeof(buf)));
		EXPECT_STREQ(want[i][1], buf);
	}
}

/* A group {insns, uops} under @config1 on marks.s: both count one span. */
static void span(struct __test_metadata *_metadata, FIXTURE_DATA(ss) *self,
		 uint64_t config1, uint64_t insns, uint64_t uops)
{
	int lead = open_ev(EV_INSNS, config1, -1), memb;

	ASSERT_LE(0, lead);
	memb = open_ev(EV_UOPS, 0, lead);
	ASSERT_LE(0, memb);
	ASSERT_EQ(0, run_marks(self));
	EXPECT_EQ(insns, vt_count(lead));
	EXPECT_EQ(uops, vt_count(memb));
	close(memb);
	close(lead);
}

/* Start on the mark, stop on the branch: 31 microwords of every pass. */
TEST_F(ss, start_mark_stop_tag)
{
	span(_metadata, self, C1_MARK | C1_STOP_TAG(TAG_BRANCH) | C1_FROZEN,
	     7000, 31000);
}

/* The same with the start as an event (TRIGGER) and the stop a tag. */
TEST_F(ss, start_event_stop_tag)
{
	span(_metadata, self,
	     C1_TRIG_EV(EV_TRIGGER) | C1_STOP_TAG(TAG_BRANCH) | C1_FROZEN,
	     7000, 31000);
}

/*
 * Start on the branch, stop on the mark, started running: the addi, and
 * from each pass's bne (its third microword on) to the next mark, 4 + 0
 * microwords (bne taken: 6 - 2) and the halt's 1 after the last.
 */
TEST_F(ss, start_tag_stop_mark_running)
{
	span(_metadata, self, C1_TRIG_TAG(TAG_BRANCH) | C1_STOP_MARK,
	     1 + 1000, 5 + 999 * 4 + 2 + 1);
}

/* A stop with no start: counts up to the first branch, then never. */
TEST_F(ss, stop_only)
{
	span(_metadata, self, C1_STOP_TAG(TAG_BRANCH), 1 + 7, 5 + 31);
}

/*
 * A sampling event of marks (TRIGGER), period 500, on counter 0 (ctr=1)
 * wraps after marks 500, 1000, 1500 and 2000: the second mark of passes
 * 250, 500, 750 and 1000.  As a toggle it counts passes 250..500 and
 * 750..1000 from after one such mark to after the next: 2 x 250 passes
 * of 35 microwords.  As the start, with a stop on the branch, it counts
 * addi, addi and the bne's first two microwords after each: 4 x 12.
 */
TEST_F(ss, overflow_toggles)
{
	int src, fd;

	src = open_sampling(EV_TRIGGER, 1, 500);
	ASSERT_LE(0, src);
	fd = open_ev(EV_UOPS, C1_TRIG_OVF(1) | C1_FROZEN, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, run_marks(self));
	EXPECT_EQ(2 * 250 * 35u, vt_count(fd));
	EXPECT_EQ(2000u, vt_count(src));
	close(fd);
	close(src);
}

TEST_F(ss, overflow_starts_tag_stops)
{
	int src, fd;

	src = open_sampling(EV_TRIGGER, 1, 500);
	ASSERT_LE(0, src);
	fd = open_ev(EV_UOPS,
		     C1_TRIG_OVF(1) | C1_STOP_TAG(TAG_BRANCH) | C1_FROZEN, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, run_marks(self));
	EXPECT_EQ(4 * 12u, vt_count(fd));
	close(fd);
	close(src);
}

/*
 * Start on the mark, stop on the wrap: everything but the first addi (5)
 * and what follows marks 500, 1000 and 1500 up to the next pass's mark
 * (addi, addi, bne: 16 each), and mark 2000 (addi, addi, the last bne
 * and halt: 5 + 5 + 4 + 1).
 */
TEST_F(ss, mark_starts_overflow_stops)
{
	int src, fd;

	src = open_sampling(EV_TRIGGER, 1, 500);
	ASSERT_LE(0, src);
	fd = open_ev(EV_UOPS, C1_MARK | C1_STOP_OVF(1) | C1_FROZEN, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, run_marks(self));
	EXPECT_EQ(35004u - 5 - 3 * 16 - 15, vt_count(fd));
	close(fd);
	close(src);
}

TEST_F(ss, invalid_config1)
{
	static const uint64_t bad[] = {
		C1_STOP_TAG(1) | C1_STOP_MARK,		/* two stops */
		C1_STOP_EV(EV_UOPS) | C1_STOP_OVF(1),
		C1_MARK | C1_TRIG_OVF(1),		/* two starts */
		C1_STOP_EV(10),				/* not an event */
		C1_STOP_EV(0x101),			/* a tag: stop_tag */
		C1_STOP_TAG(9),				/* beyond ev_bits */
		C1_TRIG_OVF(4), C1_STOP_OVF(31),	/* 3 counters */
		C1_STOP_MARK | C1_FROZEN,		/* never started */
		1ull << 44, 1ull << 57, 1ull << 63,	/* reserved */
	};
	unsigned int i;
	int fd;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		fd = open_ev(EV_UOPS, bad[i], -1);
		EXPECT_EQ(-EINVAL, fd) TH_LOG("config1 %#llx",
					      (unsigned long long)bad[i]);
		if (fd >= 0)
			close(fd);
	}
}

TEST_HARNESS_MAIN
