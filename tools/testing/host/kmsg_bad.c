// SPDX-License-Identifier: GPL-2.0
/*
 * kmsg_bad.c - vpmu_test.h's reading of the kernel log, vt_kmsg_bad(), on
 * records made up here (built and run by test_kmsg_bad.sh against 6.12's
 * kselftest harness).  /dev/kmsg gives one record per read(); a
 * SOCK_SEQPACKET socket pair keeps the same boundaries.  Each test writes
 * its records, closes the writing end and wants vt_kmsg_bad()'s count.
 */
#include <sys/socket.h>
#include "vpmu_test.h"

/* The records of KCSAN's report of a race in frames @a and @b. */
#define KCSAN_REPORT(a, b)						\
	"4,330,211600000,-;==================================================================", \
	"3,331,211600001,-;BUG: KCSAN: data-race in " a " / " b,	\
	"3,332,211600002,-;",						\
	"3,333,211600003,-;write to 0xffffffff82a4e0c8 of 1 bytes by task 15 on cpu 1:", \
	"3,334,211600004,-; " a "+0x4c/0x1e0",				\
	"3,335,211600005,-; kthread+0x176/0x17e",			\
	"3,336,211600006,-;",						\
	"3,337,211600007,-;read to 0xffffffff82a4e0c8 of 1 bytes by task 0 on cpu 0:", \
	"3,338,211600008,-; " b "+0x22/0x90",				\
	"3,339,211600009,-;no locks held by rcu_sched/15.",		\
	"3,340,211600010,-;Reported by Kernel Concurrency Sanitizer on:", \
	"3,341,211600011,-;CPU: 1 UID: 0 PID: 15 Comm: rcu_sched Tainted: G           O       6.12.117 #1", \
	"3,342,211600012,-;=================================================================="

static const char *const ok_line = "6,100,200000000,-;vpmu: registered";
static const char *const warn_line =
	"4,101,200000001,-;WARNING: CPU: 0 PID: 1 at drivers/vpmu/x.c:1 f+0x1/0x2";

/* vt_kmsg_bad() over the @n records @recs */
static int kmsg_bad(struct __test_metadata *_metadata,
		    const char *const *recs, size_t n)
{
	int sv[2], bad;
	size_t i;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv))
		return -1;
	for (i = 0; i < n; i++)
		if (write(sv[1], recs[i], strlen(recs[i])) < 0)
			break;
	close(sv[1]);
	bad = i < n ? -1 : vt_kmsg_bad(_metadata, sv[0]);
	close(sv[0]);
	return bad;
}

#define KMSG_BAD(...) ({						\
	static const char *const r_[] = { __VA_ARGS__ };		\
	kmsg_bad(_metadata, r_, ARRAY_SIZE(r_));			\
})

TEST(clean_log)
{
	EXPECT_EQ(0, KMSG_BAD(ok_line, ok_line));
}

TEST(warning)
{
	EXPECT_EQ(1, KMSG_BAD(ok_line, warn_line, ok_line));
}

TEST(kcsan_kernel_race_not_counted)
{
	EXPECT_EQ(0, KMSG_BAD(ok_line,
			      KCSAN_REPORT("rcu_all_qs",
					   "rcu_disable_urgency_upon_qs"),
			      ok_line));
}

TEST(kcsan_race_in_vpmu_counted)
{
	EXPECT_EQ(1, KMSG_BAD(KCSAN_REPORT("vpmu_machine_stop",
					   "vpmu_irq_handler")));
}

TEST(kcsan_race_with_vpmu_in_the_other_stack_counted)
{
	EXPECT_EQ(1, KMSG_BAD(KCSAN_REPORT("perf_event_update_userpage",
					   "vpmu_machine_read")));
}

TEST(kcsan_module_frame_counted)
{
	EXPECT_EQ(1, KMSG_BAD(KCSAN_REPORT("rcu_all_qs",
					   "engine_step+0x1/0x2 [vpmu]")));
}

TEST(not_a_vpmu_frame)
{
	/* "xvpmu_f" and a vpmu_ word that is no frame name vpmu no more */
	EXPECT_EQ(0, KMSG_BAD(KCSAN_REPORT("xvpmu_f", "rcu_all_qs"),
			      "6,200,300000000,-;vpmu_stress: run 3"));
}

TEST(warning_after_kernel_race_counted)
{
	EXPECT_EQ(1, KMSG_BAD(KCSAN_REPORT("rcu_all_qs",
					   "rcu_disable_urgency_upon_qs"),
			      warn_line));
}

TEST(kernel_race_through_vpmu_not_counted)
{
	/* RCU's own race, its read under vpmu's cond_resched() (CI's) */
	EXPECT_EQ(0, KMSG_BAD(
		"3,1,1,-;BUG: KCSAN: data-race in rcu_all_qs / rcu_disable_urgency_upon_qs",
		"3,2,2,-;write (marked) to 0xffff88807bd2a97d of 1 bytes by interrupt on cpu 1:",
		"3,3,3,-; rcu_disable_urgency_upon_qs+0x45/0x62",
		"3,4,4,-;read to 0xffff88807bd2a97d of 1 bytes by task 84 on cpu 1:",
		"3,5,5,-; rcu_all_qs+0x19/0xf3",
		"3,6,6,-; __cond_resched+0x4b/0x50",
		"3,7,7,-; vpmu_machine_run+0xc19/0xdb2 [vpmu]",
		"3,8,8,-;=================================================================="));
	/* the same pair in the other order too */
	EXPECT_EQ(0, KMSG_BAD(KCSAN_REPORT("rcu_disable_urgency_upon_qs",
					   "rcu_all_qs"),
			      "3,9,9,-; vpmu_run_chunks+0x1/0x2 [vpmu]"));
}

TEST(two_reports_one_ours)
{
	EXPECT_EQ(1, KMSG_BAD(KCSAN_REPORT("rcu_all_qs", "tick_sched_timer"),
			      KCSAN_REPORT("vpmu_uhist_read", "tick_sched_timer")));
}

TEST(unfinished_report)
{
	/* cut off before its rule: counts if it named vpmu so far */
	EXPECT_EQ(1, KMSG_BAD("3,1,1,-;BUG: KCSAN: data-race in a / b",
			      "3,2,2,-; vpmu_gate_set+0x1/0x2 [vpmu]"));
	EXPECT_EQ(0, KMSG_BAD("3,1,1,-;BUG: KCSAN: data-race in a / b",
			      "3,2,2,-; a+0x1/0x2"));
}

TEST_HARNESS_MAIN
