// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hu - the histogram unit's program: set, read back, refused
 * (Documentation/admin-guide/perf/vpmu.rst, "/dev/vpmu").
 *
 * hist/ has control and error only (one value each); the program is set
 * and read through /dev/vpmu.  As a user does it, with vpmu-hist: a
 * program set as text reads back in canonical form; bad text is refused
 * by vpmu-hist, which says why, and never reaches the module; control
 * resets; non-root callers are refused.  As the module takes it, through
 * VPMU_IOC_HU_PROGRAM: the struct reads back (VPMU_IOC_HU_GET_PROGRAM) as
 * the text that says it, counts as that text does, and a bad struct, size
 * or caller is refused, changing nothing, with the reason in hist/error.
 * VPMU_IOC_HU_READ's own checks are here; the bucket contents are
 * vpmu_hu_buckets', the perf bucket events vpmu_hu_perf's.  Skips without
 * hist/, /dev/vpmu, vpmu-hist or the assembled samples.
 */
#define _GNU_SOURCE
#include <sys/wait.h>
#include "vpmu_hu.h"

TEST_F(hu, files)
{
	static const char *const gone[] = { "program", "sum", "cpu0" };
	uint64_t c[VT_HU_NB];
	struct stat st;
	char buf[256];
	unsigned int k;

	ASSERT_EQ(0, stat(VT_HIST "control", &st));
	EXPECT_EQ(0200u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(VT_HIST "error", &st));
	EXPECT_EQ(0444u, st.st_mode & 0777);
	/* one value per file: the program and the buckets are ioctls now */
	for (k = 0; k < ARRAY_SIZE(gone); k++) {
		snprintf(buf, sizeof(buf), VT_HIST "%s", gone[k]);
		EXPECT_EQ(-1, stat(buf, &st)) TH_LOG("%s", buf);
		EXPECT_EQ(ENOENT, errno);
	}
	EXPECT_STREQ("off\n", vt_hu_get(buf, sizeof(buf)));
	EXPECT_EQ(0, vt_hu_buckets(VT_HU_SUM, c));
	EXPECT_EQ(0, vt_hu_buckets(0, c));
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
		     vt_hu_get(buf, sizeof(buf)));
	/* the canonical text is a program too, the same one */
	ASSERT_EQ(0, vt_hu_prog(buf));
	EXPECT_STREQ("par\nvpmu_uops 16\nvpmu_insns 7\ntag=3 5\ntag=4 5\n"
		     "wq=1-2 9\nupc=0x40-0x5f 10\nwq=0 1\nupc=0x7 2\n",
		     vt_hu_get(buf, sizeof(buf)));
	EXPECT_EQ(8, vt_hu_buckets(VT_HU_SUM, c));
	ASSERT_EQ(0, vt_hu_prog("off\n"));
	EXPECT_STREQ("off\n", vt_hu_get(buf, sizeof(buf)));
	EXPECT_EQ(0, vt_hu_buckets(VT_HU_SUM, c));
	ASSERT_EQ(0, vt_hu_prog("seq\nvpmu_cycles 1\n"));
	ASSERT_EQ(0, vt_hu_prog("\n"));
	EXPECT_STREQ("off\n", vt_hu_get(buf, sizeof(buf)));
}

/*
 * Bad text: vpmu-hist refuses it and says why; nothing reaches the module
 * (hist/error stays empty) and nothing changes.
 */
TEST_F(hu, bad_programs)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{
			"sequence\nvpmu_uops 5",
			"vpmu-hist: -: expected 'seq', 'par' or 'off' first, not 'sequence'"
		},
		{
			"seq",
			"vpmu-hist: -: no entries after 'seq'"
		},
		{
			"seq\nvpmu_uops",
			"vpmu-hist: -: entry 1: expected PREDICATE PERIOD, got 1 word"
		},
		{
			"seq\nvpmu_uops 5\nvpmu_nothing 5",
			"vpmu-hist: -: entry 2: unknown predicate 'vpmu_nothing' (event=N, tag=K, an event name, wq=, upc=, load=, hit=, miss=, store= or access=)"
		},
		{
			"par\nvpmu_uops 0",
			"vpmu-hist: -: entry 1: period '0' not in 1..4294967295 cycles"
		},
		{
			"par\nevent=0x10 5",
			"vpmu-hist: -: entry 1: event=0x10: not a basic event (0..9; tags are tag=K)"
		},
		{
			"par\ntag=256 5",
			"vpmu-hist: -: entry 1: tag=256: tag not in 1..255"
		},
		{
			"par\nwq=4-1 5",
			"vpmu-hist: -: entry 1: wq=4-1: LO above HI"
		},
		{
			"par\nwq=33 5",
			"vpmu-hist: -: entry 1: wq=33: occupancy beyond 32"
		},
		{
			"par\nupc=0x1000 5",
			"vpmu-hist: -: entry 1: upc=0x1000: micro-address beyond 4095"
		},
		{
			"seq\nvpmu_uops 4000000000\nvpmu_insns 400000000",
			"vpmu-hist: -: seq: the periods add up to 4400000000 cycles, over 4294967295"
		},
	};
	const char *good = "seq\nvpmu_cycles 10\nvpmu_cycles 10\n";
	uint64_t c[VT_HU_NB], d[VT_HU_NB];
	char buf[1024];
	unsigned int k;

	ASSERT_EQ(0, vt_hu_prog(good));
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	ASSERT_EQ(2, vt_hu_buckets(0, c));
	EXPECT_EQ(90u, c[0]);
	EXPECT_EQ(89u, c[1]);
	for (k = 0; k < ARRAY_SIZE(bad); k++) {
		EXPECT_EQ(-EINVAL, vt_hu_prog_msg(bad[k].text, buf, sizeof(buf)))
			TH_LOG("%s", bad[k].text);
		buf[strcspn(buf, "\n")] = '\0';
		EXPECT_STREQ(bad[k].err, buf);
		EXPECT_STREQ("", vt_hu_text("error", buf, sizeof(buf)));
		EXPECT_STREQ(good, vt_hu_get(buf, sizeof(buf)));
		ASSERT_EQ(2, vt_hu_buckets(0, d));
		EXPECT_EQ(0, memcmp(c, d, 2 * sizeof(c[0])));
	}
	/* the unit kept counting from where it was: 358 = 17 x 20 + 18 */
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	ASSERT_EQ(2, vt_hu_buckets(0, d));
	EXPECT_EQ(180u, d[0]);
	EXPECT_EQ(178u, d[1]);
}

TEST_F(hu, control)
{
	uint64_t c[VT_HU_NB];
	char buf[256];

	ASSERT_EQ(0, vt_hu_prog("seq;vpmu_cycles 100;vpmu_cycles 100"));
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	ASSERT_EQ(2, vt_hu_buckets(VT_HU_SUM, c));
	EXPECT_EQ(100u, c[0]);
	EXPECT_EQ(79u, c[1]);
	/* reset: zero, and the period starts over */
	ASSERT_EQ(0, vt_pmu_write("hist/control", "reset\n"));
	ASSERT_EQ(2, vt_hu_buckets(VT_HU_SUM, c));
	EXPECT_EQ(0u, c[0]);
	EXPECT_EQ(0u, c[1]);
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	ASSERT_EQ(2, vt_hu_buckets(0, c));
	EXPECT_EQ(100u, c[0]);
	EXPECT_EQ(79u, c[1]);
	EXPECT_EQ(-EINVAL, vt_pmu_write("hist/control", "zero"));
	EXPECT_STREQ("control: unknown command 'zero' (reset)\n",
		     vt_hu_text("error", buf, sizeof(buf)));
	ASSERT_EQ(2, vt_hu_buckets(0, c));
	EXPECT_EQ(100u, c[0]);
	/* rewriting a program zeroes too */
	ASSERT_EQ(0, vt_hu_prog("seq;vpmu_cycles 100;vpmu_cycles 100"));
	ASSERT_EQ(2, vt_hu_buckets(0, c));
	EXPECT_EQ(0u, c[0] + c[1]);
}

/*
 * Only root sets a program (EPERM) or resets (EACCES); reading every
 * CPU's buckets needs CAP_PERFMON (EACCES); anyone reads the program.
 */
TEST_F(hu, non_root)
{
	char buf[256];
	int status;
	pid_t pid;

	ASSERT_EQ(0, vt_hu_prog("par;vpmu_uops 5"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct vpmu_hu_counts k = { .size = sizeof(k), .cpu = 0 };
		struct vpmu_hu_program u = { .size = sizeof(u) };

		if (setgid(65534) || setuid(65534))
			_exit(10);
		if (!ioctl(self->fd, VPMU_IOC_HU_PROGRAM, &u) || errno != EPERM)
			_exit(1);
		if (vt_pmu_write("hist/control", "reset") != -EACCES)
			_exit(2);
		if (!ioctl(self->fd, VPMU_IOC_HU_READ, &k) || errno != EACCES)
			_exit(3);
		if (ioctl(self->fd, VPMU_IOC_HU_GET_PROGRAM, &u) ||
		    u.nr != 1 || u.flags != VPMU_HU_F_PAR ||
		    u.rule[0].event != VPMU_EV_UOPS || u.rule[0].period != 5)
			_exit(4);
		if (strcmp(vt_hu_get(buf, sizeof(buf)), "par\nvpmu_uops 5\n"))
			_exit(5);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_STREQ("par\nvpmu_uops 5\n", vt_hu_get(buf, sizeof(buf)));
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
	EXPECT_STREQ(VT_HU_STRUCT_TEXT, vt_hu_get(buf, sizeof(buf)));
	EXPECT_STREQ("", vt_hu_text("error", buf, sizeof(buf)));
	ASSERT_NE(0ull, vt_hu_run(self, &self->memcpy_));
	ASSERT_EQ(3, vt_hu_buckets(0, c));

	ASSERT_EQ(0, vt_hu_prog(VT_HU_STRUCT_TEXT));
	ASSERT_NE(0ull, vt_hu_run(self, &self->memcpy_));
	ASSERT_EQ(3, vt_hu_buckets(0, t));
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
	EXPECT_STREQ("off\n", vt_hu_get(buf, sizeof(buf)));
	EXPECT_EQ(0, vt_hu_buckets(0, c));
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
	ASSERT_EQ(2, vt_hu_buckets(0, c));

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
		     vt_hu_get(buf, sizeof(buf)));
	ASSERT_EQ(2, vt_hu_buckets(0, d));
	EXPECT_EQ(c[0], d[0]);
	EXPECT_EQ(c[1], d[1]);
	/* a program taken clears the error */
	EXPECT_STRNE("", vt_hu_text("error", buf, sizeof(buf)));
	ASSERT_EQ(0, vt_hu_prog("off"));
	EXPECT_STREQ("", vt_hu_text("error", buf, sizeof(buf)));
}

/* ---- VPMU_IOC_HU_GET_PROGRAM, VPMU_IOC_HU_READ --------------------------- */

/*
 * The program reads back as the struct that set it; of a larger struct,
 * the tail is left alone and size says what was written; a shorter size
 * than the first is EINVAL, a tail not zero EINVAL, a bad pointer EFAULT.
 */
TEST_F(hu, ioctl_get_program)
{
	struct {
		struct vpmu_hu_program u;
		uint32_t tail;
	} big;
	struct vpmu_hu_program set, got;

	hu_struct(&set);
	ASSERT_EQ(0, hu_ioctl(self->fd, &set));
	memset(&got, 0xa5, sizeof(got));
	got.size = sizeof(got);
	ASSERT_EQ(0, ioctl(self->fd, VPMU_IOC_HU_GET_PROGRAM, &got));
	EXPECT_EQ(0, memcmp(&set, &got, sizeof(got)));

	memset(&big, 0, sizeof(big));
	big.u.size = sizeof(big);
	ASSERT_EQ(0, ioctl(self->fd, VPMU_IOC_HU_GET_PROGRAM, &big));
	EXPECT_EQ(3u, big.u.nr);
	EXPECT_EQ(0u, big.tail);
	/* size out: what this kernel knows, and wrote */
	EXPECT_EQ((uint32_t)VPMU_HU_PROGRAM_SIZE_VER0, big.u.size);
	big.u.size = sizeof(big);
	big.tail = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VPMU_IOC_HU_GET_PROGRAM, &big));
	EXPECT_EQ(EINVAL, errno);
	got.size = VPMU_HU_PROGRAM_SIZE_VER0 - 4;
	EXPECT_EQ(-1, ioctl(self->fd, VPMU_IOC_HU_GET_PROGRAM, &got));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->fd, VPMU_IOC_HU_GET_PROGRAM, NULL));
	EXPECT_EQ(EFAULT, errno);

	ASSERT_EQ(0, vt_hu_prog("off"));
	memset(&got, 0xa5, sizeof(got));
	got.size = sizeof(got);
	ASSERT_EQ(0, ioctl(self->fd, VPMU_IOC_HU_GET_PROGRAM, &got));
	memset(&set, 0, sizeof(set));
	set.size = sizeof(set);
	EXPECT_EQ(0, memcmp(&set, &got, sizeof(got)));
}

/*
 * One CPU's buckets, or their sum: CPU 1's run shows in CPU 1's and the
 * sum only; the counts past nr are written as 0; a CPU that is not
 * possible, reserved bits, a bad size or pointer are refused.
 */
TEST_F(hu, ioctl_read)
{
	struct vpmu_hu_counts k;
	uint64_t c0[VT_HU_NB], c1[VT_HU_NB], sum[VT_HU_NB];
	int ncpu = vt_cpu1_online() == 1 ? 2 : 1;
	int i;

	ASSERT_EQ(0, vt_hu_prog("seq;vpmu_cycles 100;vpmu_cycles 100"));
	ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
	if (ncpu == 2) {
		ASSERT_EQ(0, vt_pin(1));
		ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
		ASSERT_EQ(VT_SUM_CYCLES, vt_hu_run(self, &self->sum));
		ASSERT_EQ(0, vt_pin(0));
		ASSERT_EQ(2, vt_hu_buckets(1, c1));
		/* 358 = 3 x 100 + 58 */
		EXPECT_EQ(200u, c1[0]);
		EXPECT_EQ(158u, c1[1]);
	} else {
		memset(c1, 0, sizeof(c1));
	}
	ASSERT_EQ(2, vt_hu_buckets(0, c0));
	EXPECT_EQ(100u, c0[0]);
	EXPECT_EQ(79u, c0[1]);
	ASSERT_EQ(2, vt_hu_buckets(VT_HU_SUM, sum));
	for (i = 0; i < 2; i++)
		EXPECT_EQ(c0[i] + c1[i], sum[i]) TH_LOG("C%d", i + 1);

	memset(&k, 0xa5, sizeof(k));
	k.size = sizeof(k);
	k.cpu = 0;
	k.reserved = 0;
	ASSERT_EQ(0, ioctl(self->fd, VPMU_IOC_HU_READ, &k));
	EXPECT_EQ(2u, k.nr);
	EXPECT_EQ(100u, k.count[0]);
	for (i = 2; i < VT_HU_NB; i++)
		EXPECT_EQ(0u, k.count[i]) TH_LOG("count[%d]", i);

	k.cpu = 4096;
	EXPECT_EQ(-1, ioctl(self->fd, VPMU_IOC_HU_READ, &k));
	EXPECT_EQ(EINVAL, errno);
	k.cpu = VPMU_HU_CPU_SUM - 1;
	EXPECT_EQ(-1, ioctl(self->fd, VPMU_IOC_HU_READ, &k));
	EXPECT_EQ(EINVAL, errno);
	k.cpu = 0;
	k.reserved = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VPMU_IOC_HU_READ, &k));
	EXPECT_EQ(EINVAL, errno);
	k.reserved = 0;
	k.size = VPMU_HU_COUNTS_SIZE_VER0 - 8;
	EXPECT_EQ(-1, ioctl(self->fd, VPMU_IOC_HU_READ, &k));
	EXPECT_EQ(EINVAL, errno);
	k.size = 8192;
	EXPECT_EQ(-1, ioctl(self->fd, VPMU_IOC_HU_READ, &k));
	EXPECT_EQ(E2BIG, errno);
	EXPECT_EQ(-1, ioctl(self->fd, VPMU_IOC_HU_READ, NULL));
	EXPECT_EQ(EFAULT, errno);

	ASSERT_EQ(0, vt_hu_prog("off"));
	EXPECT_EQ(0, vt_hu_buckets(VT_HU_SUM, sum));
}

TEST_HARNESS_MAIN
