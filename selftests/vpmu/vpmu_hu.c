// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hu - the histogram unit's sysfs files, hist/
 * (Documentation/vpmu/histogram.rst, "Histogram unit").
 *
 * The files and their modes; a program written reads back in canonical
 * form; bad programs are refused with EINVAL and a reason in hist/error,
 * changing nothing; control resets; non-root writes are refused.  Bucket
 * contents are vpmu_hu_buckets', the perf bucket events vpmu_hu_perf's.
 * Skips without hist/, /dev/vpmu or the assembled samples.
 */
#define _GNU_SOURCE
#include <sys/wait.h>
#include "vpmu_hu.h"

TEST_F(hu, files)
{
	uint64_t c[VT_HU_NB];
	struct stat st;
	char buf[256];

	ASSERT_EQ(0, stat(VT_HIST "program", &st));
	EXPECT_EQ(0644u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(VT_HIST "control", &st));
	EXPECT_EQ(0200u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(VT_HIST "error", &st));
	EXPECT_EQ(0444u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(VT_HIST "sum", &st));
	EXPECT_EQ(0400u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(VT_HIST "cpu0", &st));
	EXPECT_EQ(0400u, st.st_mode & 0777);
	EXPECT_STREQ("off\n", vt_hu_text("program", buf, sizeof(buf)));
	EXPECT_EQ(0, vt_hu_buckets("sum", c));
	EXPECT_EQ(0, vt_hu_buckets("cpu0", c));
	EXPECT_STREQ("", vt_hu_text("error", buf, sizeof(buf)));
}

/* What is written reads back in canonical form; off and "" switch off. */
TEST_F(hu, program_canonical)
{
	char buf[1024];
	uint64_t c[VT_HU_NB];

	ASSERT_EQ(0, vt_hu_prog("par vpmu_uops 0x10; event=2 7 # insns\n"
				"tag=3 5;vpmu_tag4 5\nwq=1-2 9\nupc=0x40-0x5f 10\n"
				"wq=0 1;upc=7 2"));
	EXPECT_STREQ("par\nvpmu_uops 16\nvpmu_insns 7\ntag=3 5\ntag=4 5\n"
		     "wq=1-2 9\nupc=0x40-0x5f 10\nwq=0 1\nupc=0x7 2\n",
		     vt_hu_text("program", buf, sizeof(buf)));
	/* the canonical text is a program too, the same one */
	ASSERT_EQ(0, vt_hu_prog(buf));
	EXPECT_STREQ("par\nvpmu_uops 16\nvpmu_insns 7\ntag=3 5\ntag=4 5\n"
		     "wq=1-2 9\nupc=0x40-0x5f 10\nwq=0 1\nupc=0x7 2\n",
		     vt_hu_text("program", buf, sizeof(buf)));
	EXPECT_EQ(8, vt_hu_buckets("sum", c));
	ASSERT_EQ(0, vt_hu_prog("off\n"));
	EXPECT_STREQ("off\n", vt_hu_text("program", buf, sizeof(buf)));
	EXPECT_EQ(0, vt_hu_buckets("sum", c));
	ASSERT_EQ(0, vt_hu_prog("seq\nvpmu_cycles 1\n"));
	ASSERT_EQ(0, vt_hu_prog("\n"));
	EXPECT_STREQ("off\n", vt_hu_text("program", buf, sizeof(buf)));
}

/* Bad programs: EINVAL, a reason in hist/error, nothing changed. */
TEST_F(hu, bad_programs)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "sequence\nvpmu_uops 5", "program: expected 'seq', 'par' or 'off' first, not 'sequence'" },
		{ "seq", "program: no entries after 'seq'" },
		{ "seq\nvpmu_uops", "program: entry 1: expected PREDICATE PERIOD, got 1 word" },
		{ "seq\nvpmu_uops 5\nvpmu_nothing 5", "program: entry 2: unknown predicate 'vpmu_nothing' (event=N, tag=K, an event name, wq=, upc=, load=, hit=, miss=, store= or access=)" },
		{ "par\nvpmu_uops 0", "program: entry 1: period '0' not in 1..4294967295 cycles" },
		{ "par\nevent=0x10 5", "program: entry 1: event=0x10: not a basic event (0..9; tags are tag=K)" },
		{ "par\ntag=256 5", "program: entry 1: tag=256: tag not in 1..255" },
		{ "par\nwq=4-1 5", "program: entry 1: wq=4-1: LO above HI" },
		{ "par\nwq=33 5", "program: entry 1: wq=33: occupancy beyond 32" },
		{ "par\nupc=0x1000 5", "program: entry 1: upc=0x1000: micro-address beyond 4095" },
		{ "seq\nvpmu_uops 4000000000\nvpmu_insns 400000000", "program: seq: the periods add up to 4400000000 cycles, over 4294967295" },
	};
	const char *good = "seq\nvpmu_cycles 10\nvpmu_cycles 10\n";
	uint64_t c[VT_HU_NB], d[VT_HU_NB];
	char buf[1024];
	unsigned int k;

	ASSERT_EQ(0, vt_hu_prog(good));
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	ASSERT_EQ(2, vt_hu_buckets("cpu0", c));
	EXPECT_EQ(90u, c[0]);
	EXPECT_EQ(89u, c[1]);
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		EXPECT_EQ(-EINVAL, vt_hu_prog(bad[k].text)) TH_LOG("%s", bad[k].text);
		vt_hu_text("error", buf, sizeof(buf));
		buf[strcspn(buf, "\n")] = '\0';
		EXPECT_STREQ(bad[k].err, buf);
		EXPECT_STREQ(good, vt_hu_text("program", buf, sizeof(buf)));
		ASSERT_EQ(2, vt_hu_buckets("cpu0", d));
		EXPECT_EQ(0, memcmp(c, d, 2 * sizeof(c[0])));
	}
	/* the unit kept counting from where it was: 358 = 17 x 20 + 18 */
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	ASSERT_EQ(2, vt_hu_buckets("cpu0", d));
	EXPECT_EQ(180u, d[0]);
	EXPECT_EQ(178u, d[1]);
	/* a good write clears the error */
	ASSERT_EQ(0, vt_hu_prog(good));
	EXPECT_STREQ("", vt_hu_text("error", buf, sizeof(buf)));
}

TEST_F(hu, control)
{
	uint64_t c[VT_HU_NB];
	char buf[256];

	ASSERT_EQ(0, vt_hu_prog("seq;vpmu_cycles 100;vpmu_cycles 100"));
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	ASSERT_EQ(2, vt_hu_buckets("sum", c));
	EXPECT_EQ(100u, c[0]);
	EXPECT_EQ(79u, c[1]);
	/* reset: zero, and the period starts over */
	ASSERT_EQ(0, vt_pmu_write("hist/control", "reset\n"));
	ASSERT_EQ(2, vt_hu_buckets("sum", c));
	EXPECT_EQ(0u, c[0]);
	EXPECT_EQ(0u, c[1]);
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	ASSERT_EQ(2, vt_hu_buckets("cpu0", c));
	EXPECT_EQ(100u, c[0]);
	EXPECT_EQ(79u, c[1]);
	EXPECT_EQ(-EINVAL, vt_pmu_write("hist/control", "zero"));
	EXPECT_STREQ("control: unknown command 'zero' (reset)\n",
		     vt_hu_text("error", buf, sizeof(buf)));
	ASSERT_EQ(2, vt_hu_buckets("cpu0", c));
	EXPECT_EQ(100u, c[0]);
	/* rewriting a program zeroes too */
	ASSERT_EQ(0, vt_hu_prog("seq;vpmu_cycles 100;vpmu_cycles 100"));
	ASSERT_EQ(2, vt_hu_buckets("cpu0", c));
	EXPECT_EQ(0u, c[0] + c[1]);
}

/* Only root writes; only root reads the buckets. */
TEST_F(hu, non_root)
{
	char buf[256];
	int status;
	pid_t pid;

	ASSERT_EQ(0, vt_hu_prog("par;vpmu_uops 5"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int fd;

		if (setgid(65534) || setuid(65534))
			_exit(10);
		if (vt_hu_prog("off") != -EACCES)
			_exit(1);
		if (vt_pmu_write("hist/control", "reset") != -EACCES)
			_exit(2);
		fd = open(VT_HIST "sum", O_RDONLY);
		if (fd >= 0 || errno != EACCES)
			_exit(3);
		if (strcmp(vt_hu_text("program", buf, sizeof(buf)),
			   "par\nvpmu_uops 5\n"))
			_exit(4);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_STREQ("par\nvpmu_uops 5\n", vt_hu_text("program", buf, sizeof(buf)));
}

TEST_HARNESS_MAIN
