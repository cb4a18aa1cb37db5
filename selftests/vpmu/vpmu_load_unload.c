// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_load_unload - unload and reload vpmu.ko a few times.
 *
 * The PMU's sysfs directory must disappear on unload and come back on
 * load, and the kernel log written meanwhile (read from /dev/kmsg, from a
 * mark taken at setup) must hold no warning, bug or oops.  The module is
 * left loaded.  The module file is $VPMU_KO, default /opt/vpmu/vpmu.ko.
 */
#include <sys/stat.h>
#include "vpmu_test.h"
#include "kselftest_harness.h"

#define CYCLES	3

static const char *const bad_words[] = {
	"WARNING:", "BUG:", "Oops", "Call Trace", "general protection",
	"KASAN", "UBSAN", "lockdep", "RCU usage",
};

static int module_loaded(void)
{
	struct stat st;

	return stat("/sys/module/vpmu", &st) == 0;
}

static int load(void)
{
	const char *ko = getenv("VPMU_KO") ? : VPMU_KO_DEFAULT;
	int fd, ret;

	fd = open(ko, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(__NR_finit_module, fd, "", 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

static int unload(void)
{
	return syscall(__NR_delete_module, "vpmu", O_NONBLOCK) ? -errno : 0;
}

/* Count kmsg records since the mark that carry a bad word; log them. */
static int kmsg_bad_lines(struct __test_metadata *_metadata, int fd)
{
	char rec[8192];
	unsigned int i;
	ssize_t n;
	int bad = 0;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten; keep going */
		if (n <= 0)
			break;
		rec[n] = '\0';
		for (i = 0; i < sizeof(bad_words) / sizeof(bad_words[0]); i++) {
			if (strstr(rec, bad_words[i])) {
				TH_LOG("kernel log: %s", rec);
				bad++;
				break;
			}
		}
	}
	return bad;
}

FIXTURE(load_unload) {
	int kmsg;
};

FIXTURE_SETUP(load_unload)
{
	int ret;

	if (access(getenv("VPMU_KO") ? : VPMU_KO_DEFAULT, R_OK))
		SKIP(return, "no module file (set VPMU_KO)");
	if (!module_loaded()) {
		ret = load();
		if (ret == -EPERM)
			SKIP(return, "not allowed to load modules");
		ASSERT_EQ(0, ret);
	}
	self->kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, self->kmsg);
	ASSERT_LE(0, lseek(self->kmsg, 0, SEEK_END));
}

FIXTURE_TEARDOWN(load_unload)
{
	if (!module_loaded())
		load();
	if (self->kmsg > 0)
		close(self->kmsg);
}

TEST_F(load_unload, cycle)
{
	int i, ret;

	for (i = 0; i < CYCLES; i++) {
		ret = unload();
		if (ret == -EPERM)
			SKIP(return, "not allowed to unload modules");
		ASSERT_EQ(0, ret) TH_LOG("delete_module: %s", strerror(-ret));
		ASSERT_FALSE(vpmu_present());
		ASSERT_FALSE(module_loaded());

		ret = load();
		ASSERT_EQ(0, ret) TH_LOG("finit_module: %s", strerror(-ret));
		ASSERT_TRUE(vpmu_present());
		ASSERT_GE(vpmu_type(), PERF_TYPE_MAX);
	}
}

TEST_F(load_unload, kernel_log_clean)
{
	int i;

	for (i = 0; i < CYCLES; i++) {
		ASSERT_EQ(0, unload());
		ASSERT_EQ(0, load());
	}
	ASSERT_EQ(0, kmsg_bad_lines(_metadata, self->kmsg));
}

TEST_HARNESS_MAIN
