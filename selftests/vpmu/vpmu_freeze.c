// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_freeze - freeze bits, triggers and freeze-on-overflow through
 * perf_event_open() (Documentation/admin-guide/perf/vpmu.rst, "Freezing
 * and triggers").
 *
 * A group leader's attr.config1 names a trigger (trig_mark, trig_ev or
 * trig_tag), whether the group starts frozen, and freeze-on-overflow
 * (freeze_on_ovf).  The programs come from $VPMU_SHARE/progs, whose
 * comments derive every count used here from the microword table: marks.s runs
 * 1000 regions between two marks (18 microwords and 4 instructions in
 * each region, 35004 microwords and 8001 instructions in all), calls.s
 * 500 calls whose jal and jalr carry tag 8 (14 microwords and 2
 * instructions inside each call, 14004 and 2501 in all), mark1.s one
 * mark and a halt (2 microwords), sum.s 179 microwords.  Counting runs
 * exactly from a trigger to the next, in every member of the group, for
 * both start states; the freeze bit is the group's and survives runs,
 * migration and DISABLE/ENABLE; with freeze_on_ovf and a REFRESH limit
 * the whole group stops on the exact microword that completed the period, where
 * without it the counts run on to the end of the run chunk.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <linux/perf_event.h>
#include "vpmu_test.h"
#include "vpmu_perf_lib.h"

#define BUDGET		10000000ull

/* attr.config1 fields, as format/ says (checked in format_files). */
#define C1_TRIG_EV(ev)	((uint64_t)(ev))
#define C1_TRIG_TAG(k)	((uint64_t)(k) << 12)
#define C1_MARK		_BITULL(20)
#define C1_FROZEN	_BITULL(21)
#define C1_FREEZE_ON_OVF		_BITULL(22)

#define EV_UOPS		1
#define EV_INSNS	2
#define EV_CYCLES	0
#define EV_TRIGGER	8

/* Open a counting event of this task (in @group, or a leader: -1). */
static int open_ev(uint64_t config, uint64_t config1, int group)
{
	struct perf_event_attr a;

	vt_attr(&a, config, config1);
	return vt_open(&a, 0, -1, group);
}

FIXTURE(frz) {
	int dev;
	struct vt_prog marks, calls, mark1, sum;
	uint8_t *mem;
	struct vpmu_run r;
};

FIXTURE_SETUP(frz)
{
	if (vt_setup_runs(_metadata, &self->dev, &self->marks, "marks",
			  &self->calls, "calls", &self->mark1, "mark1",
			  &self->sum, "sum", NULL))
		return;
	/* every program's memory fits in the largest */
	self->mem = aligned_alloc(8, 1 << 20);
	ASSERT_NE(NULL, self->mem);
	ASSERT_EQ(0, vt_pin(0));
}

FIXTURE_TEARDOWN(frz)
{
	vt_teardown_runs(self->dev, &self->marks, &self->calls, &self->mark1,
			 &self->sum, NULL);
	free(self->mem);
}

/* Run @p to its halt. */
static int run(FIXTURE_DATA(frz) *self, const struct vt_prog *p)
{
	return vt_run_halt(self->dev, p, self->mem, BUDGET, &self->r);
}

TEST_F(frz, format_files)
{
	static const char *const want[][2] = {
		{ "format/trig_ev", "config1:0-11" },
		{ "format/trig_tag", "config1:12-19" },
		{ "format/trig_mark", "config1:20" },
		{ "format/frozen", "config1:21" },
		{ "format/freeze_on_ovf", "config1:22" },
	};
	char buf[64];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		ASSERT_EQ(0, vt_pmu_read(want[i][0], buf, sizeof(buf)));
		EXPECT_STREQ(want[i][1], buf);
	}
	/* freeze_on_ovf has one name: "foo" never shipped in a release. */
	EXPECT_NE(0, access(VT_PMU_DIR "/format/foo", F_OK));
}

/*
 * A group of three (insns, uops, cycles) under a trigger, started frozen
 * or running, on marks.s or calls.s: every member counts the same span.
 */
struct span {
	uint64_t config1;
	const char *prog;
	uint64_t insns, uops;
};

static void group_span(struct __test_metadata *_metadata,
		       FIXTURE_DATA(frz) *self, const struct span *s)
{
	const struct vt_prog *p = !strcmp(s->prog, "marks") ? &self->marks :
							      &self->calls;
	int lead, uops, cyc;

	lead = open_ev(EV_INSNS, s->config1, -1);
	ASSERT_LE(0, lead);
	/* members: one repeats the leader's control, one leaves it out */
	uops = open_ev(EV_UOPS, s->config1, lead);
	ASSERT_LE(0, uops);
	cyc = open_ev(EV_CYCLES, 0, lead);
	ASSERT_LE(0, cyc);
	ASSERT_EQ(0, run(self, p));
	EXPECT_EQ(s->insns, vt_count(lead));
	EXPECT_EQ(s->uops, vt_count(uops));
	/* no memory access: every microword one cycle */
	EXPECT_EQ(s->uops, vt_count(cyc));
	close(cyc);
	close(uops);
	close(lead);
}

TEST_F(frz, mark_started_frozen)
{
	struct span s = { C1_MARK | C1_FROZEN, "marks", 4000, 18000 };

	group_span(_metadata, self, &s);
}

TEST_F(frz, mark_started_running)
{
	struct span s = { C1_MARK, "marks", 8001 - 4000, 35004 - 18000 };

	group_span(_metadata, self, &s);
}

TEST_F(frz, trigger_event_frozen)
{
	struct span s = { C1_TRIG_EV(EV_TRIGGER) | C1_FROZEN, "marks",
			  4000, 18000 };

	group_span(_metadata, self, &s);
}

TEST_F(frz, tag_trigger_frozen)
{
	struct span s = { C1_TRIG_TAG(8) | C1_FROZEN, "calls", 1000, 7000 };

	group_span(_metadata, self, &s);
}

TEST_F(frz, tag_trigger_running)
{
	struct span s = { C1_TRIG_TAG(8), "calls", 2501 - 1000,
			  14004 - 7000 };

	group_span(_metadata, self, &s);
}

/* Two trigger groups and a plain event at once, each on its own. */
TEST_F(frz, groups_independent)
{
	int a, b, plain;

	a = open_ev(EV_UOPS, C1_MARK | C1_FROZEN, -1);
	b = open_ev(EV_UOPS, C1_MARK, -1);
	plain = open_ev(EV_UOPS, 0, -1);
	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_LE(0, plain);
	ASSERT_EQ(0, run(self, &self->marks));
	EXPECT_EQ(18000u, vt_count(a));
	EXPECT_EQ((35004 - 18000u), vt_count(b));
	EXPECT_EQ(35004u, vt_count(plain));
	close(plain);
	close(b);
	close(a);
}

/*
 * The freeze bit is the group's: mark1 opens the region (its mark and
 * halt counted: 2), sum runs inside it on the other CPU (179), mark1
 * closes it there (0), sum on the first CPU is outside (0).
 */
TEST_F(frz, state_across_runs_and_cpus)
{
	int fd;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs");
	fd = open_ev(EV_UOPS, C1_MARK | C1_FROZEN, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, run(self, &self->mark1));
	ASSERT_EQ(0, vt_pin(1));
	ASSERT_EQ(0, run(self, &self->sum));
	ASSERT_EQ(0, run(self, &self->mark1));
	ASSERT_EQ(0, vt_pin(0));
	ASSERT_EQ(0, run(self, &self->sum));
	EXPECT_EQ((2 + 179u), vt_count(fd));
	close(fd);
}

TEST_F(frz, state_across_disable_enable)
{
	int fd;

	fd = open_ev(EV_UOPS, C1_MARK | C1_FROZEN, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, run(self, &self->mark1));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, run(self, &self->sum));	/* disabled: not counted */
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, run(self, &self->sum));	/* still inside the region */
	EXPECT_EQ((2 + 179u), vt_count(fd));
	close(fd);
}

/*
 * A sampling leader (uops, period 1000) limited to one overflow by
 * REFRESH, with a counting uops member.  With freeze_on_ovf the group
 * freezes on the 1000th microword and both read 1000; without, the member
 * runs on to the end of the run chunk before the core disables the group
 * (the leader too as a module; built in, the driver stops the leader's
 * counter on its limit).
 */
static void refresh_one(struct __test_metadata *_metadata,
			FIXTURE_DATA(frz) *self, bool freeze_on_ovf,
			uint64_t *lead_v, uint64_t *memb_v)
{
	struct perf_event_attr a;
	int lead, memb;

	vt_attr(&a, EV_UOPS, freeze_on_ovf ? C1_FREEZE_ON_OVF : 0);
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IP;
	a.disabled = 1;
	lead = vt_open(&a, 0, -1, -1);
	ASSERT_LE(0, lead);
	memb = open_ev(EV_UOPS, 0, lead);
	ASSERT_LE(0, memb);
	ASSERT_EQ(0, ioctl(lead, PERF_EVENT_IOC_REFRESH, 1));
	ASSERT_EQ(0, run(self, &self->marks));
	*lead_v = vt_count(lead);
	*memb_v = vt_count(memb);
	close(memb);
	close(lead);
}

TEST_F(frz, freeze_on_ovf_stops_on_the_exact_microword)
{
	uint64_t l, m;

	refresh_one(_metadata, self, true, &l, &m);
	EXPECT_EQ(1000u, l);
	EXPECT_EQ(1000u, m);
	refresh_one(_metadata, self, false, &l, &m);
	EXPECT_LT(1000u, m);
	EXPECT_GT(35004u, m);
}

/* Without a limit, freeze_on_ovf thaws the group after each overflow. */
TEST_F(frz, freeze_on_ovf_thaws_after_each_overflow)
{
	struct perf_event_attr a;
	int lead, memb;

	vt_attr(&a, EV_UOPS, C1_FREEZE_ON_OVF);
	a.sample_period = 1000;
	a.sample_type = PERF_SAMPLE_IP;
	lead = vt_open(&a, 0, -1, -1);
	ASSERT_LE(0, lead);
	memb = open_ev(EV_CYCLES, 0, lead);
	ASSERT_LE(0, memb);
	ASSERT_EQ(0, run(self, &self->marks));
	EXPECT_EQ(35004u, vt_count(lead));
	EXPECT_EQ(35004u, vt_count(memb));
	close(memb);
	close(lead);
}

TEST_F(frz, invalid_config1)
{
	static const uint64_t bad[] = {
		C1_MARK | C1_TRIG_EV(EV_TRIGGER),	/* two triggers */
		C1_TRIG_TAG(1) | C1_TRIG_EV(EV_UOPS),
		C1_MARK | C1_TRIG_TAG(2),
		C1_TRIG_EV(10),				/* not an event */
		C1_TRIG_EV(0x101),			/* a tag: trig_tag */
		C1_TRIG_EV(0x201),			/* a bucket */
		C1_TRIG_TAG(9),				/* beyond ev_bits */
		C1_FROZEN,				/* never thawed */
		C1_FREEZE_ON_OVF | C1_FROZEN,
		1ull << 44, 1ull << 63,			/* reserved */
	};
	unsigned int i;
	int lead, fd;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		fd = open_ev(EV_UOPS, bad[i], -1);
		EXPECT_EQ(-EINVAL, fd) TH_LOG("config1 %#llx",
					      (unsigned long long)bad[i]);
		if (fd >= 0)
			close(fd);
	}
	/* members: the leader's control or none */
	lead = open_ev(EV_UOPS, C1_MARK, -1);
	ASSERT_LE(0, lead);
	EXPECT_EQ(-EINVAL, open_ev(EV_INSNS, C1_MARK | C1_FROZEN, lead));
	EXPECT_EQ(-EINVAL, open_ev(EV_INSNS, C1_FREEZE_ON_OVF, lead));
	close(lead);
	lead = open_ev(EV_UOPS, 0, -1);
	ASSERT_LE(0, lead);
	EXPECT_EQ(-EINVAL, open_ev(EV_INSNS, C1_MARK, lead));
	close(lead);
	{
		struct perf_event_attr a = {
			.size = sizeof(a),
			.type = PERF_TYPE_SOFTWARE,
			.config = PERF_COUNT_SW_CPU_CLOCK,
		};

		lead = vt_open(&a, 0, -1, -1);
		ASSERT_LE(0, lead);
		EXPECT_EQ(-EINVAL, open_ev(EV_INSNS, C1_MARK, lead));
		close(lead);
	}
}

TEST_HARNESS_MAIN
