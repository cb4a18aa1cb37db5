// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_unload_busy - module unload against /dev/vpmu users, module
 * parameters, repeated load/unload with runs in between.
 *
 * While a program runs through an open /dev/vpmu, delete_module is
 * refused (the open file pins the module; the kernel answers
 * EWOULDBLOCK, i.e. EAGAIN, for a module in use) and nothing breaks;
 * after close the module unloads and loads again.  Invalid parameters
 * fail insmod with EINVAL; cs_size=256 makes a 4096-word image fail with
 * EFBIG.  The module is loaded with default parameters at the end.
 * $VPMU_KO names the module file (default: modinfo -n vpmu).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/wait.h>
#include "vpmu_test.h"

#define CYCLES	20

static long refcnt(void)
{
	char buf[32] = "";
	int fd = open("/sys/module/vpmu/refcnt", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (read(fd, buf, sizeof(buf) - 1) < 0)
		buf[0] = '\0';
	close(fd);
	return strtol(buf, NULL, 10);
}

FIXTURE(unload) {
	int kmsg;
	struct vt_prog sum, spin;
	uint8_t *mem;
};

FIXTURE_SETUP(unload)
{
	self->kmsg = -1;
	if (vt_module_builtin())
		SKIP(return, VT_BUILTIN_REASON);
	if (access(vt_ko(), R_OK))
		SKIP(return, VT_NO_KO_REASON);
	if (geteuid())
		SKIP(return, "module loading needs root");
	if (!vt_module_loaded())
		ASSERT_EQ(0, vt_insmod(""));
	if (access(VT_DEV, F_OK))
		SKIP(return, "no %s (module without the run device?)", VT_DEV);
	if (vt_prog_load(&self->sum, "build/sum.vprg") ||
	    vt_prog_load(&self->spin, "build/spin.vprg"))
		SKIP(return, "no build/sum.vprg or build/spin.vprg");
	self->mem = vt_prog_mem(&self->spin);
	ASSERT_NE(NULL, self->mem);
	self->kmsg = vt_kmsg_mark();
	ASSERT_LE(0, self->kmsg);
}

FIXTURE_TEARDOWN(unload)
{
	/* leave the module loaded, with its default parameters */
	if (!vt_module_loaded())
		vt_insmod("");
	if (self->kmsg >= 0)
		close(self->kmsg);
	free(self->mem);
	vt_prog_free(&self->sum);
	vt_prog_free(&self->spin);
}

/* Open the device, run sum once, close. */
static void assert_sum_runs(struct __test_metadata *_metadata,
			    FIXTURE_DATA(unload) *self)
{
	struct vpmu_run r;
	uint8_t *mem;
	int fd;

	fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd) TH_LOG("%s: %s", VT_DEV, strerror(errno));
	mem = vt_prog_mem(&self->sum);
	ASSERT_NE(NULL, mem);
	vt_check_sum(_metadata, fd, &self->sum, mem, &r);
	free(mem);
	close(fd);
}

static void on_usr1(int sig)
{
}

TEST_F_TIMEOUT(unload, refused_while_running, 120)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	int fd, st, ret, pipefd[2];
	struct vpmu_run r;
	pid_t pid;
	char c;

	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, NULL));
	ASSERT_EQ(0, pipe(pipefd));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			_exit(10);
		if (write(pipefd[1], "x", 1) != 1)
			_exit(11);
		if (vt_run(fd, &self->spin, self->mem, VPMU_RUN_BUDGET_MAX, &r))
			_exit(12);
		close(fd);
		_exit(r.stop == VPMU_RUN_SIGNAL && r.cycles ? 0 : 13);
	}
	close(pipefd[1]);
	ASSERT_EQ(1, read(pipefd[0], &c, 1));
	usleep(200000);		/* in the run by now */
	EXPECT_LT(0, refcnt());
	ret = vt_rmmod();
	/* in use: EWOULDBLOCK from delete_module (kernel/module/main.c) */
	EXPECT_EQ(-EAGAIN, ret) TH_LOG("delete_module: %s", strerror(-ret));
	EXPECT_TRUE(vt_module_loaded());
	EXPECT_EQ(0, access(VT_DEV, F_OK));
	ASSERT_EQ(0, kill(pid, SIGUSR1));
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	EXPECT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st))
		TH_LOG("runner exit %d (10 open, 12 ioctl, 13 not SIGNAL)",
		       WEXITSTATUS(st));
	close(pipefd[0]);

	/* an open file, even idle, pins it too */
	fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EAGAIN, vt_rmmod());
	close(fd);

	/* closed: it goes, and comes back working */
	ASSERT_EQ(0, vt_rmmod());
	EXPECT_FALSE(vt_module_loaded());
	EXPECT_NE(0, access(VT_DEV, F_OK));
	ASSERT_EQ(0, vt_insmod(""));
	assert_sum_runs(_metadata, self);
	EXPECT_EQ(0, vt_kmsg_bad(_metadata, self->kmsg));
}

TEST_F_TIMEOUT(unload, repeated_cycles, 300)
{
	int i, ret;

	for (i = 0; i < CYCLES; i++) {
		ret = vt_rmmod();
		ASSERT_EQ(0, ret) TH_LOG("cycle %d: delete_module: %s", i,
					 strerror(-ret));
		ASSERT_FALSE(vt_module_loaded());
		ret = vt_insmod("");
		ASSERT_EQ(0, ret) TH_LOG("cycle %d: finit_module: %s", i,
					 strerror(-ret));
		assert_sum_runs(_metadata, self);
		if (vt_have_loader() && i % 5 == 4) {
			/* a loaded image dies with the module */
			ASSERT_EQ(0, vt_load_default());
			EXPECT_EQ(2ull, vt_generation());
		} else if (vt_have_loader()) {
			EXPECT_EQ(1ull, vt_generation());
		}
	}
	EXPECT_EQ(0, vt_kmsg_bad(_metadata, self->kmsg));
}

/* Each of these must fail insmod with EINVAL and leave no module. */
static const char *const bad_params[] = {
	"cs_size=63", "cs_size=4097", "cs_size=100", "nr_counters=0",
	"nr_counters=17", "counter_widths=0", "counter_widths=16,65",
};

TEST_F_TIMEOUT(unload, bad_parameters, 120)
{
	unsigned int i;
	int ret;

	ASSERT_EQ(0, vt_rmmod());
	for (i = 0; i < ARRAY_SIZE(bad_params); i++) {
		ret = vt_insmod(bad_params[i]);
		EXPECT_EQ(-EINVAL, ret) TH_LOG("insmod vpmu %s: %s",
					       bad_params[i], strerror(-ret));
		if (!ret)
			vt_rmmod();
		EXPECT_FALSE(vt_module_loaded());
	}
	ASSERT_EQ(0, vt_insmod(""));
	assert_sum_runs(_metadata, self);
}

/* A control store smaller than the image: EFBIG, and nothing changes. */
TEST_F_TIMEOUT(unload, image_too_big_for_cs_size, 120)
{
	char buf[512];
	uint8_t *img;
	size_t len;
	int ret;

	img = vt_read_share("build/max.vpmu", &len);
	if (!img)
		SKIP(return, "no build/max.vpmu");
	ASSERT_EQ(0, vt_rmmod());
	ASSERT_EQ(0, vt_insmod("cs_size=256"));
	ASSERT_TRUE(vt_have_loader());
	EXPECT_EQ(256, vt_pmu_long("caps/cs_size"));
	ret = vt_write_image(img, len, 4096);
	EXPECT_EQ(-EFBIG, ret);
	ASSERT_EQ(0, vt_ucode_attr("status", buf, sizeof(buf)));
	EXPECT_STREQ("rejected", buf);
	ASSERT_EQ(0, vt_ucode_attr("error", buf, sizeof(buf)));
	EXPECT_EQ(0, strncmp(buf, "EFBIG (27): ", 12)) TH_LOG("error: %s", buf);
	EXPECT_EQ(1ull, vt_generation());
	ASSERT_EQ(0, vt_ucode_attr("name", buf, sizeof(buf)));
	EXPECT_STREQ(VT_DEFAULT_NAME, buf);
	assert_sum_runs(_metadata, self);
	free(img);
	ASSERT_EQ(0, vt_rmmod());
	ASSERT_EQ(0, vt_insmod(""));
}

TEST_HARNESS_MAIN
