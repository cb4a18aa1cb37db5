// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hu - the histogram unit's sysfs files, hist/
 * (Documentation/vpmu/histogram.rst, "Histogram unit").
 *
 * The files and their modes; a program written reads back in canonical
 * form; bad programs are refused with EINVAL and a reason in hist/error,
 * changing nothing; control resets; non-root writes are refused.  The
 * same through /dev/vpmu's VPMU_IOC_HU_PROGRAM, the program as a struct:
 * it reads back as the text that says it, counts as that text does, and
 * a bad struct, size or caller is refused, changing nothing.  Bucket
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

/* ---- VPMU_IOC_HU_PROGRAM ------------------------------------------------ */

#define VT_RULE(k, ev, l, h, per) \
	{ .kind = (k), .event = (ev), .lo = (l), .hi = (h), .period = (per) }

/* par: uops every 16 cycles, write-queue occupancy 1..2, loads of src. */
static void hu_struct(struct vpmu_hu_program *u)
{
	static const struct vpmu_hu_rule rules[] = {
		VT_RULE(VPMU_HU_EVENT, VPMU_EV_UOPS, 0, 0, 16),
		VT_RULE(VPMU_HU_WQ, 0, 1, 2, 9),
		VT_RULE(VPMU_HU_LOAD, 0, 0x60, 0x9f, 7),	/* memcpy's src */
	};

	memset(u, 0, sizeof(*u));
	u->size = sizeof(*u);
	u->flags = VPMU_HU_F_PAR;
	u->nr = 3;
	memcpy(u->rule, rules, sizeof(rules));
}

#define VT_HU_STRUCT_TEXT "par\nvpmu_uops 16\nwq=1-2 9\nload=0x60-0xa0 7\n"

/* The ioctl on @fd: 0 or -errno. */
static int hu_ioctl(int fd, void *u)
{
	return ioctl(fd, VPMU_IOC_HU_PROGRAM, u) ? -errno : 0;
}

/*
 * A struct reads back as the text that says it and counts as that text
 * does (memcpy, whose loads and stores fill the write queue); nr 0 is
 * off; a larger struct whose tail is zero is the same program.
 */
TEST_F(hu, ioctl_program)
{
	uint64_t c[VT_HU_NB], t[VT_HU_NB];
	struct {
		struct vpmu_hu_program u;
		uint32_t tail;
	} big;
	char buf[512];
	int i;

	hu_struct(&big.u);
	ASSERT_EQ(0, hu_ioctl(self->fd, &big.u));
	EXPECT_STREQ(VT_HU_STRUCT_TEXT, vt_hu_text("program", buf, sizeof(buf)));
	EXPECT_STREQ("", vt_hu_text("error", buf, sizeof(buf)));
	ASSERT_NE(0ull, vt_hu_run(self, &self->memcpy_));
	ASSERT_EQ(3, vt_hu_buckets("cpu0", c));

	ASSERT_EQ(0, vt_hu_prog(VT_HU_STRUCT_TEXT));
	ASSERT_NE(0ull, vt_hu_run(self, &self->memcpy_));
	ASSERT_EQ(3, vt_hu_buckets("cpu0", t));
	for (i = 0; i < 3; i++)
		EXPECT_EQ(t[i], c[i]) TH_LOG("C%d", i + 1);
	EXPECT_NE(0u, c[1]);
	EXPECT_NE(0u, c[2]);

	big.u.size = sizeof(big);
	big.tail = 0;
	big.u.nr = 0;
	big.u.flags = 0;
	memset(big.u.rule, 0, sizeof(big.u.rule));
	ASSERT_EQ(0, hu_ioctl(self->fd, &big));
	EXPECT_STREQ("off\n", vt_hu_text("program", buf, sizeof(buf)));
	EXPECT_EQ(0, vt_hu_buckets("cpu0", c));
}

/*
 * Refused, changing nothing (the program in force and its buckets stay):
 * a bad rule (EINVAL, hist/error says which and why), a size below the
 * first or beyond a page, bytes this kernel does not know that are not
 * zero; and a caller without CAP_SYS_ADMIN (EPERM).
 */
TEST_F(hu, ioctl_refused)
{
	struct {
		struct vpmu_hu_program u;
		uint32_t tail;
	} big;
	struct vpmu_hu_program u;
	uint64_t c[VT_HU_NB], d[VT_HU_NB];
	char buf[512];
	int status;
	pid_t pid;

	ASSERT_EQ(0, vt_hu_prog("seq;vpmu_uops 50;vpmu_insns 50"));
	ASSERT_NE(0ull, vt_hu_run(self, &self->sum));
	ASSERT_EQ(2, vt_hu_buckets("cpu0", c));

	hu_struct(&u);
	u.rule[1].period = 0;
	EXPECT_EQ(-EINVAL, hu_ioctl(self->fd, &u));
	EXPECT_STREQ("VPMU_IOC_HU_PROGRAM: entry 2: period 0\n",
		     vt_hu_text("error", buf, sizeof(buf)));
	hu_struct(&u);
	u.rule[2].hi = 0x100000;
	u.rule[2].kind = VPMU_HU_UPC;
	EXPECT_EQ(-EINVAL, hu_ioctl(self->fd, &u));
	hu_struct(&u);
	u.flags |= 1u << 31;
	EXPECT_EQ(-EINVAL, hu_ioctl(self->fd, &u));
	hu_struct(&u);
	u.size = VPMU_HU_PROGRAM_SIZE_VER0 - 4;
	EXPECT_EQ(-EINVAL, hu_ioctl(self->fd, &u));
	hu_struct(&u);
	u.size = 8192;
	EXPECT_EQ(-E2BIG, hu_ioctl(self->fd, &u));
	hu_struct(&big.u);
	big.u.size = sizeof(big);
	big.tail = 1;
	EXPECT_EQ(-EINVAL, hu_ioctl(self->fd, &big));
	EXPECT_EQ(-EFAULT, hu_ioctl(self->fd, NULL));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		hu_struct(&u);
		if (setgid(65534) || setuid(65534))
			_exit(10);
		_exit(hu_ioctl(self->fd, &u) == -EPERM ? 0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));

	EXPECT_STREQ("seq\nvpmu_uops 50\nvpmu_insns 50\n",
		     vt_hu_text("program", buf, sizeof(buf)));
	ASSERT_EQ(2, vt_hu_buckets("cpu0", d));
	EXPECT_EQ(c[0], d[0]);
	EXPECT_EQ(c[1], d[1]);
}

TEST_HARNESS_MAIN
