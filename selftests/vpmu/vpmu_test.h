/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_test.h - the one TAP header of the vpmu kselftests: every test
 * program includes it (and vpmu_perf_lib.h if it opens perf events).  It
 * brings kselftest_harness.h (TAP output, FIXTURE/TEST_F, ASSERT_* and
 * EXPECT_*), the plain helpers of vpmu_lib.h, and the few helpers that
 * report through the harness themselves.
 *
 * Each test file holds one fixture (or one topic); what the files of one
 * topic share is in vpmu_TOPIC.h beside them (vpmu_perf.h, vpmu_hu.h, ...).
 */
#ifndef VPMU_TEST_H
#define VPMU_TEST_H

#include <stdarg.h>
#include "vpmu_lib.h"	/* first of the libc headers: _GNU_SOURCE */
#include <ctype.h>
#include "kselftest.h"

/*
 * kselftest's runner reads exit status 4 (KSFT_SKIP) as "skipped", but the
 * harness of 6.1 and 6.12 exits 0 when every test skipped (without the
 * module, say).  Its test_harness_run() ends in ksft_exit(), a macro of
 * kselftest.h: redefined here, before the harness is read, a program with
 * skips and no pass or failure exits KSFT_SKIP, whichever harness built it.
 */
#undef ksft_exit
#define ksft_exit(cond) vt_ksft_exit(cond)

static inline void __attribute__((noreturn)) vt_ksft_exit(int pass)
{
	if (pass && ksft_get_xskip_cnt() && !ksft_get_pass_cnt() &&
	    !ksft_get_xfail_cnt() && !ksft_get_xpass_cnt()) {
		ksft_print_cnts();
		exit(KSFT_SKIP);
	}
	if (pass)
		ksft_exit_pass();
	ksft_exit_fail();
	exit(KSFT_FAIL);	/* ksft_exit_fail() is not noreturn in 6.1 */
}

#include "kselftest_harness.h"

/*
 * A fixture's setup that skips ends its test: the body does not run.
 * kselftest_harness.h does so itself from 6.9 on (the one with
 * FIXTURE_TEARDOWN_PARENT, 6.12's), running no teardown either; 6.1's runs
 * the body after such a setup, then the teardown.  For 6.1, FIXTURE_SETUP()
 * is redefined here: the setup written under it becomes FIXTURE_vt_setup(),
 * which the harness's FIXTURE_setup() calls and, after a skip, runs the
 * teardown, as 6.1 does, and leaves the test the way a failed ASSERT_*()
 * does (a longjmp to the test's wrapper, which reports the skip).  Test
 * bodies need no check of their own.
 */
#ifndef FIXTURE_TEARDOWN_PARENT
#undef FIXTURE_SETUP
#define FIXTURE_SETUP(fixture_name)					\
	static void fixture_name##_vt_setup(				\
		struct __test_metadata *_metadata,			\
		FIXTURE_DATA(fixture_name) *self,			\
		const FIXTURE_VARIANT(fixture_name) *variant);		\
	void fixture_name##_teardown(					\
		struct __test_metadata *_metadata,			\
		FIXTURE_DATA(fixture_name) *self,			\
		const FIXTURE_VARIANT(fixture_name) *variant);		\
	void fixture_name##_setup(					\
		struct __test_metadata *_metadata,			\
		FIXTURE_DATA(fixture_name) *self,			\
		const FIXTURE_VARIANT(fixture_name) *variant)		\
	{								\
		fixture_name##_vt_setup(_metadata, self, variant);	\
		if (_metadata->skip) {					\
			fixture_name##_teardown(_metadata, self, variant); \
			longjmp(_metadata->env, 1);			\
		}							\
	}								\
	static void fixture_name##_vt_setup(				\
		struct __test_metadata __attribute__((unused)) *_metadata, \
		FIXTURE_DATA(fixture_name) __attribute__((unused)) *self, \
		const FIXTURE_VARIANT(fixture_name)			\
			__attribute__((unused)) *variant)
#endif

/* ---- programs and runs --------------------------------------------------- */

/*
 * Load share/build/@name.vprg into @p and fresh memory for it into *@mem;
 * -1 after skipping the test when there is no such program.
 */
static inline int vt_need_prog(struct __test_metadata *_metadata,
			       struct vt_prog *p, uint8_t **mem, const char *name)
{
	if (!vt_prog_get(p, mem, name))
		return 0;
	if (!p->file)
		SKIP(return -1, "no valid build/%s.vprg in $VPMU_SHARE", name);
	ASSERT_NE(NULL, *mem);
	return 0;
}

/*
 * A fixture's set-up for runs: the PMU there, /dev/vpmu opened into *@fd
 * (-1 until then), and for each pair (struct vt_prog *, NAME) of the
 * NULL-ended list the program share/build/NAME.vprg loaded; 0, or -1
 * after skipping the test.
 */
static inline int vt_setup_runs(struct __test_metadata *_metadata, int *fd,
				...)
{
	struct vt_prog *p;
	char rel[64];
	va_list ap;

	*fd = -1;
	if (!vt_pmu_present())
		SKIP(return -1, "no vpmu PMU");
	*fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	if (*fd < 0)
		SKIP(return -1, "no %s", VT_DEV);
	va_start(ap, fd);
	while ((p = va_arg(ap, struct vt_prog *))) {
		snprintf(rel, sizeof(rel), "build/%s.vprg",
			 va_arg(ap, const char *));
		if (vt_prog_load(p, rel))
			break;
	}
	va_end(ap);
	if (p)
		SKIP(return -1, "no valid %s in $VPMU_SHARE", rel);
	return 0;
}

/* Its teardown: @fd closed, the programs of the NULL-ended list freed. */
static inline void vt_teardown_runs(int fd, ...)
{
	struct vt_prog *p;
	va_list ap;

	if (fd >= 0)
		close(fd);
	va_start(ap, fd);
	while ((p = va_arg(ap, struct vt_prog *)))
		vt_prog_free(p);
	va_end(ap);
}

/* The microcode loader there, and root to write it; -1 after a skip. */
static inline int vt_need_loader(struct __test_metadata *_metadata)
{
	if (!vt_have_loader())
		SKIP(return -1, "no %s (module without the loader?)", VT_UCODE);
	if (geteuid())
		SKIP(return -1, "the loader needs root");
	return 0;
}

/*
 * Load the image $VPMU_SHARE/@rel (build/encoded.vpmu, ...) through the
 * loader: 0, or -1 after a skip (no loader, not root, no file) or a
 * failure.  The caller's teardown loads the default again.
 */
static inline int vt_load_share_image(struct __test_metadata *_metadata,
				      const char *rel)
{
	uint8_t *img;
	size_t len;
	int ret;

	if (vt_need_loader(_metadata))
		return -1;
	img = vt_read_share(rel, &len);
	if (!img)
		SKIP(return -1, "no %s in $VPMU_SHARE", rel);
	ret = vt_write_image(img, len, len);
	free(img);
	EXPECT_EQ(0, ret) TH_LOG("loading %s: %s", rel, strerror(-ret));
	return ret ? -1 : 0;
}

/*
 * One run of sum.vprg (@p, memory @mem) on /dev/vpmu file @fd gives its
 * result: a halt, r2 = 55, 179 cycles.  The run is left in @r.
 */
static inline void vt_check_sum(struct __test_metadata *_metadata, int fd,
				const struct vt_prog *p, uint8_t *mem,
				struct vpmu_run *r)
{
	ASSERT_EQ(0, vt_run(fd, p, mem, 1000000, r));
	EXPECT_EQ((__u32)VPMU_RUN_HALT, r->stop);
	EXPECT_EQ(VT_SUM_R2, r->regs[2]);
	EXPECT_EQ(VT_SUM_CYCLES, r->cycles);
}

/* ---- the kernel log ------------------------------------------------------ */

/* /dev/kmsg opened at its end: the mark vt_kmsg_bad() reads from; or -1. */
static inline int vt_kmsg_mark(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0 && lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Whether the text of a kernel log record names a frame of vpmu's: a
 * function vpmu_* ("vpmu_irq_handler+0x12/0x40") or one of the module's
 * ("[vpmu]").
 */
static inline int vt_kmsg_vpmu_frame(const char *text)
{
	const char *p, *q;

	if (strstr(text, "[vpmu]"))
		return 1;
	for (p = text; (p = strstr(p, "vpmu_")); p++) {
		if (p != text && p[-1] != ' ' && p[-1] != ']')
			continue;
		for (q = p + 5; isalnum((unsigned char)*q) || *q == '_' ||
		     *q == '.'; q++)
			;
		if (!strncmp(q, "+0x", 3))
			return 1;
	}
	return 0;
}

/* Whether @text is a rule, "=====...", as ends a KCSAN report. */
static inline int vt_kmsg_rule(const char *text)
{
	size_t n = strspn(text, "=");

	return n >= 8 && (!text[n] || text[n] == '\n');
}

/*
 * Whether the "BUG: KCSAN: data-race in A / B" record @text names, in
 * either order, one of the kernel's own races whose stacks pass through
 * vpmu only because it calls a scheduling point (the VM harness keeps the
 * same list).
 */
static inline int vt_kmsg_kernel_race(const char *text)
{
	static const char *const races[][2] = {
		{ "rcu_all_qs", "rcu_disable_urgency_upon_qs" },
	};
	char pair[256];
	const char *in = strstr(text, " in ");
	unsigned int i, k;

	if (!in)
		return 0;
	for (i = 0; i < ARRAY_SIZE(races); i++) {
		for (k = 0; k < 2; k++) {
			snprintf(pair, sizeof(pair), "%s / %s", races[i][k],
				 races[i][!k]);
			if (!strncmp(in + 4, pair, strlen(pair)) &&
			    strspn(in + 4 + strlen(pair), " \r\n") ==
			    strlen(in + 4 + strlen(pair)))
				return 1;
		}
	}
	return 0;
}

/*
 * Kernel log records since the mark @fd that carry a warning, bug or
 * oops; each is logged.
 *
 * A KCSAN report runs from its "BUG: KCSAN:" record to the rule that
 * closes it, and counts only if a record of it names a vpmu frame and
 * its pair of functions is not one of the kernel's own races listed in
 * vt_kmsg_kernel_race(): one without is the kernel's own race
 * (rcu_all_qs against rcu_disable_urgency_upon_qs, say), which vpmu
 * neither causes nor can annotate.  The VM harness reads the serial log
 * by the same rule; a report still being printed when the log is read
 * counts if it has named vpmu so far.
 */
static inline int vt_kmsg_bad(struct __test_metadata *_metadata, int fd)
{
	static const char *const bad_words[] = {
		"WARNING:", "BUG:", "Oops", "Call Trace", "general protection",
		"KASAN", "UBSAN", "lockdep", "RCU usage",
	};
	char rec[8192], kcsan[sizeof(rec)] = "";
	int bad = 0, in_kcsan = 0, ours = 0;
	const char *text;
	unsigned int i;
	ssize_t n;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten; keep going */
		if (n <= 0)
			break;
		rec[n] = '\0';
		text = strchr(rec, ';');	/* "prio,seq,usec,flags;text" */
		text = text ? text + 1 : rec;
		if (strstr(text, "BUG: KCSAN:")) {
			memcpy(kcsan, rec, n + 1);
			in_kcsan = 1;
			ours = vt_kmsg_kernel_race(text) ? -1 : 0;
			continue;
		}
		if (in_kcsan) {
			if (ours >= 0)
				ours |= vt_kmsg_vpmu_frame(text);
			if (!vt_kmsg_rule(text))
				continue;
			if (ours > 0) {
				TH_LOG("kernel log: %s", kcsan);
				bad++;
			}
			in_kcsan = 0;
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(bad_words); i++) {
			if (strstr(text, bad_words[i])) {
				TH_LOG("kernel log: %s", rec);
				bad++;
				break;
			}
		}
	}
	if (in_kcsan && ours > 0) {
		TH_LOG("kernel log: %s", kcsan);
		bad++;
	}
	return bad;
}

#endif /* VPMU_TEST_H */
