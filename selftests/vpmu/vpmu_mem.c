// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_mem - what the module costs in kernel memory, and an engine that
 * has none yet.
 *
 * Loading gives every possible CPU's engine only its PMU hardware; the
 * first run on a CPU gives that engine the memory its image needs, and a
 * larger image grows it.  Measured as /proc/meminfo's MemAvailable and Slab
 * before and after, each the median of a few reads with the per-CPU vm
 * counters folded in first (vm/stat_refresh) and the caches dropped; the
 * pages on the per-CPU free lists (/proc/zoneinfo's pagesets) count as
 * available, as they are: on a 1 GB guest they hold tens of MB, moving by
 * MBs as slabs come and go.
 * Loading must cost at most 1 MiB however many CPUs are possible (the vm
 * tier boots 6.1 with 64, vm-6.1-cpus64); the cost of a CPU's first run
 * is printed.  With slub_debug or on a debug kernel (KASAN, kmemleak)
 * allocations cost several times what they do on a stock kernel (a 4 KB
 * object takes 12 KB with slub_debug's red zones): the figures are
 * printed there, not checked against bounds; on a debug kernel, whose
 * KASAN quarantine returns freed memory whenever, nothing is checked.
 *
 * An engine no run has reached reads as nothing (a snapshot's generation
 * 0, uhist's buckets all zero); a run whose engine memory cannot be
 * allocated fails with ENOMEM and changes nothing, a resumed program
 * going back to its file (on a kernel with fault injection, the debug
 * tier's: the module's debugfs vpmu/fail_engine_mem/).  The module is
 * left loaded, with default parameters.
 */
#include "vpmu_test.h"

#include <limits.h>
#include <linux/magic.h>
#include <sys/statfs.h>

#define KB			1024ll
#define INSMOD_MAX_KB		1024ll	/* issue 22: at most 1 MiB at load */
/*
 * The default image on one CPU: its translation pool (tc_pool_kb, 128 KiB
 * by default) and about 250 KiB more.
 */
#define FIRST_USE_MAX_KB	512ll
#define SAMPLES			5
#define TRIALS			3
#define FAIL_MEM		"/sys/kernel/debug/vpmu/fail_engine_mem/"
#define MAKE_IT_FAIL		"/proc/thread-self/make-it-fail"

struct meminfo {
	long long avail;	/* MemAvailable, kB */
	long long slab;		/* Slab, kB */
};

/* Pages on the per-CPU free lists, in kB (-1 if unknown). */
static long long pcp_free_kb(void)
{
	long long sum = 0, n;
	char line[128];
	FILE *f;

	f = fopen("/proc/zoneinfo", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " count: %lld", &n) == 1)
			sum += n;
	fclose(f);
	return sum * (sysconf(_SC_PAGESIZE) / KB);
}

/* One read of /proc/meminfo, the per-CPU free lists added; 0 or -1. */
static int meminfo_read(struct meminfo *m)
{
	char line[128];
	int got = 0;
	FILE *f;

	f = fopen("/proc/meminfo", "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "MemAvailable: %lld kB", &m->avail) == 1)
			got |= 1;
		else if (sscanf(line, "Slab: %lld kB", &m->slab) == 1)
			got |= 2;
	}
	fclose(f);
	if (got != 3 || pcp_free_kb() < 0)
		return -1;
	m->avail += pcp_free_kb();
	return 0;
}

/*
 * A debug kernel (the debug tier's: KASAN, kmemleak): freed memory sits
 * in KASAN's quarantine and comes back whenever, so no before and after
 * means anything there.
 */
static bool debug_kernel(void)
{
	return !access("/sys/kernel/debug/kmemleak", F_OK);
}

/* Allocations inflated by debugging: slub_debug, or a debug kernel. */
static bool debug_alloc(void)
{
	char cmdline[4096] = "";
	FILE *f = fopen("/proc/cmdline", "re");

	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = 0;
		fclose(f);
	}
	return strstr(cmdline, "slub_debug=") || debug_kernel();
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static long long median(long long *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_ll);
	return v[n / 2];
}

/*
 * MemAvailable and Slab as of now: caches dropped, the per-CPU vm
 * counters folded in (they lag by up to their threshold per CPU), then
 * the median of SAMPLES reads.
 */
static int meminfo_settled(struct meminfo *m)
{
	long long avail[SAMPLES], slab[SAMPLES];
	int i;

	sync();
	vt_write_file("/proc/sys/vm/drop_caches", "3");
	for (i = 0; i < SAMPLES; i++) {
		/* any write folds them; it may say EINVAL all the same */
		vt_write_file("/proc/sys/vm/stat_refresh", "1");
		usleep(20000);
		if (meminfo_read(m))
			return -1;
		avail[i] = m->avail;
		slab[i] = m->slab;
	}
	m->avail = median(avail, SAMPLES);
	m->slab = median(slab, SAMPLES);
	return 0;
}

/* The possible CPUs: how many, and the highest. */
static int possible_cpus(int *last)
{
	char buf[64], *p = buf;
	int n = 0, lo, hi;
	uint8_t *f;
	size_t len;

	f = vt_read_file("/sys/devices/system/cpu/possible", &len);
	if (!f)
		return -1;
	snprintf(buf, sizeof(buf), "%.*s", (int)len, (char *)f);
	free(f);
	*last = 0;
	while (*p && *p != '\n') {
		if (sscanf(p, "%d", &lo) != 1)
			return -1;
		hi = lo;
		while (*p && *p != '-' && *p != ',' && *p != '\n')
			p++;
		if (*p == '-' && sscanf(++p, "%d", &hi) != 1)
			return -1;
		while (*p && *p != ',' && *p != '\n')
			p++;
		if (*p == ',')
			p++;
		n += hi - lo + 1;
		*last = hi;
	}
	return n;
}

/* The snapshot of @cpu's engine; 0 or -errno. */
static int snapshot(int dev, unsigned int cpu, struct vpmu_snapshot *s)
{
	memset(s, 0, sizeof(*s));
	s->size = sizeof(*s);
	s->cpu = cpu;
	return ioctl(dev, VPMU_IOC_SNAPSHOT, s) ? -errno : 0;
}

/* The current image's header; 0 or -1. */
static int image_header(struct vpmu_image_header *h)
{
	uint8_t *img;
	size_t len;

	img = vt_read_image(&len);
	if (!img || len < sizeof(*h)) {
		free(img);
		return -1;
	}
	memcpy(h, img, sizeof(*h));
	free(img);
	return 0;
}

FIXTURE(mem) {
	int fd;
	struct vt_prog sum;
	uint8_t *mem;
};

FIXTURE_SETUP(mem)
{
	self->fd = -1;
	self->mem = NULL;
	self->sum.file = NULL;
	if (access(vt_ko(), R_OK))
		SKIP(return, VT_NO_KO_REASON);
	if (vt_reload("") == -EPERM)
		SKIP(return, "not allowed to load modules");
	ASSERT_TRUE(vt_pmu_present());
	if (vt_setup_runs(_metadata, &self->fd, &self->sum, "sum", NULL))
		return;
	self->mem = vt_prog_mem(&self->sum);
	ASSERT_NE(NULL, self->mem);
}

FIXTURE_TEARDOWN(mem)
{
	cpu_set_t all;

	vt_teardown_runs(self->fd, &self->sum, NULL);
	free(self->mem);
	if (!access(FAIL_MEM "probability", W_OK))
		vt_write_file(FAIL_MEM "probability", "0");
	if (!access(MAKE_IT_FAIL, W_OK))
		vt_write_file(MAKE_IT_FAIL, "0");
	memset(&all, 0xff, sizeof(all));
	sched_setaffinity(0, sizeof(all), &all);
	vt_rmmod_retry();
	vt_insmod("");
}

/* sum.vprg run to its halt on @cpu, from fresh memory. */
static int run_sum_on(FIXTURE_DATA(mem) *self, int cpu, struct vpmu_run *r)
{
	if (vt_pin(cpu))
		return -errno;
	return vt_run_halt(self->fd, &self->sum, self->mem, 1000000, r);
}

/* Print and return (kB) what MemAvailable lost since @before. */
static long long cost(const char *what, const struct meminfo *before,
		      struct meminfo *now)
{
	if (meminfo_settled(now))
		return LLONG_MIN;
	ksft_print_msg("%s: MemAvailable %+lld kB, Slab %+lld kB\n", what,
		       now->avail - before->avail, now->slab - before->slab);
	fflush(stdout);
	return before->avail - now->avail;
}

/*
 * insmod costs at most 1 MiB, in MemAvailable and in Slab, with as many
 * possible CPUs as there are: the median of TRIALS unload-load cycles.
 */
TEST_F(mem, insmod)
{
	long long avail[TRIALS], slab[TRIALS];
	struct meminfo a, b;
	int i, n, last;

	n = possible_cpus(&last);
	ASSERT_LT(0, n);
	close(self->fd);	/* it holds the module */
	self->fd = -1;
	for (i = 0; i < TRIALS; i++) {
		ASSERT_EQ(0, vt_rmmod_retry());
		ASSERT_EQ(0, meminfo_settled(&a));
		ASSERT_EQ(0, vt_insmod(""));
		ASSERT_EQ(0, meminfo_settled(&b));
		avail[i] = a.avail - b.avail;
		slab[i] = b.slab - a.slab;
		ksft_print_msg("insmod with %d possible CPUs: MemAvailable %+lld kB, Slab %+lld kB\n",
			       n, -avail[i], slab[i]);
	}
	fflush(stdout);
	if (debug_alloc())
		SKIP(return, "allocations inflated by slub_debug or KASAN: not checked");
	EXPECT_GE(INSMOD_MAX_KB, median(avail, TRIALS));
	EXPECT_GE(INSMOD_MAX_KB, median(slab, TRIALS));
}

/*
 * The first run on a CPU gives its engine memory for the image; the next
 * runs there cost nothing more; a larger image grows it.
 */
TEST_F(mem, first_use)
{
	struct vpmu_image_header h;
	struct meminfo a, b, c;
	struct vpmu_run r;
	uint8_t *img;
	size_t len;
	long long first;

	ASSERT_EQ(0, image_header(&h));
	ASSERT_EQ(0, meminfo_settled(&a));
	ASSERT_EQ(0, run_sum_on(self, 0, &r));
	first = cost("first run on CPU 0", &a, &b);
	ksft_print_msg("  image \"%s\", %u microwords\n", h.name, h.cs_words);
	if (!debug_kernel())
		EXPECT_LT(0, first);
	if (!debug_alloc())
		EXPECT_GE(FIRST_USE_MAX_KB, first);
	ASSERT_EQ(0, run_sum_on(self, 0, &r));
	cost("second run on CPU 0", &b, &c);
	if (vt_cpu1_online() == 1) {
		ASSERT_EQ(0, meminfo_settled(&a));
		ASSERT_EQ(0, run_sum_on(self, 1, &r));
		cost("first run on CPU 1", &a, &b);
	}

	img = vt_read_share("build/max.vpmu", &len);
	if (!img)
		SKIP(return, "no build/max.vpmu in $VPMU_SHARE");
	ASSERT_EQ(0, vt_write_image(img, len, 4096));
	free(img);
	ASSERT_EQ(0, image_header(&h));
	ASSERT_EQ(0, meminfo_settled(&a));
	ASSERT_EQ(0, run_sum_on(self, 0, &r));
	first = cost("CPU 0 grown for a larger image", &a, &b);
	ksft_print_msg("  image \"%s\", %u microwords\n", h.name, h.cs_words);
	if (!debug_kernel())
		EXPECT_LT(0, first);
	ASSERT_EQ(0, vt_load_default());
}

/*
 * The last possible CPU before any run there: its snapshot's generation
 * is 0 (no image attached) and its uhist file reads the current image
 * with no sample; a run there attaches it.
 */
TEST_F(mem, bare_engine)
{
	struct vpmu_uhist_header uh;
	struct vpmu_image_header h;
	struct vpmu_snapshot s;
	char path[128];
	uint8_t *f;
	size_t len;
	int last;

	ASSERT_LT(0, possible_cpus(&last));
	ASSERT_EQ(0, image_header(&h));
	ASSERT_EQ(0, snapshot(self->fd, last, &s));
	EXPECT_EQ(0ull, s.generation);
	snprintf(path, sizeof(path), VT_UHIST "cpu%d", last);
	f = vt_read_file(path, &len);
	ASSERT_NE(NULL, f);
	ASSERT_EQ(sizeof(uh) + 8ull * h.cs_words, len);
	memcpy(&uh, f, sizeof(uh));
	free(f);
	EXPECT_EQ(h.cs_words, uh.nbuckets);
	EXPECT_EQ(h.checksum, uh.image_checksum);
	EXPECT_EQ(vt_generation(), uh.generation);
	EXPECT_EQ(0ull, uh.samples);
	EXPECT_EQ((uint32_t)last, uh.cpu);
}

/* Has the kernel fault injection (make-it-fail), and debugfs mounted? */
static bool fault_injection(void)
{
	struct statfs st;

	return !access(MAKE_IT_FAIL, F_OK) &&
	       !statfs("/sys/kernel/debug", &st) && st.f_type == DEBUGFS_MAGIC;
}

/*
 * Every engine-memory allocation of this thread fails (@on), or none;
 * 0 or -errno.  verbose 0: a failure's stack dump would read as a splat.
 */
static int fail_mem(bool on)
{
	static const char *const files[][2] = {
		{ "verbose", "0" }, { "task-filter", "Y" }, { "interval", "1" },
		{ "times", "-1" }, { "probability", "100" },
	};
	char path[128];
	unsigned int i;
	int ret;

	if (!on) {
		vt_write_file(MAKE_IT_FAIL, "0");
		return vt_write_file(FAIL_MEM "probability", "0");
	}
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), FAIL_MEM "%s", files[i][0]);
		ret = vt_write_file(path, files[i][1]);
		if (ret)
			return ret;
	}
	return vt_write_file(MAKE_IT_FAIL, "1");
}

/*
 * With the engine memory of CPU 1 failing: a run there fails with ENOMEM
 * and changes nothing there; a program stopped on CPU 0 and resumed on
 * CPU 1 fails so and stays with its file, and goes on to sum's results
 * once the memory comes.
 */
TEST_F(mem, enomem)
{
	struct vpmu_snapshot s;
	struct vpmu_run r;
	uint64_t cycles;
	uint8_t *left;
	int ret;

	if (access(FAIL_MEM "probability", W_OK)) {
		/* a kernel with fault injection and debugfs: the module's */
		ASSERT_FALSE(fault_injection())
			TH_LOG("no %s: the engines' memory cannot fail?",
			       FAIL_MEM);
		SKIP(return, "no fault injection (CONFIG_FAULT_INJECTION_DEBUG_FS)");
	}
	if (vt_cpu1_online() != 1)
		SKIP(return, "CPU 1 is not online");
	ASSERT_EQ(0, vt_pin(0));
	ASSERT_EQ(0, vt_run(self->fd, &self->sum, self->mem, 50, &r));
	ASSERT_EQ((uint32_t)VPMU_RUN_BUDGET, r.stop);
	cycles = r.cycles;
	left = malloc(self->sum.h.mem_size);
	ASSERT_NE(NULL, left);
	memcpy(left, self->mem, self->sum.h.mem_size);

	ret = fail_mem(true);
	ASSERT_EQ(0, ret) TH_LOG("%s: %s", FAIL_MEM, strerror(-ret));
	ASSERT_EQ(0, vt_pin(1));
	vt_run_init(&r, &self->sum, self->mem, 1000000);
	r.flags = VPMU_RUN_F_RESUME;
	EXPECT_EQ(-1, ioctl(self->fd, VPMU_IOC_RUN, &r));
	EXPECT_EQ(ENOMEM, errno);
	EXPECT_EQ(-ENOMEM, vt_run(self->fd, &self->sum, self->mem, 1000000,
				  &r));
	ASSERT_EQ(0, snapshot(self->fd, 1, &s));
	EXPECT_EQ(0ull, s.generation);
	ASSERT_EQ(0, fail_mem(false));

	/* the program is still the file's: it ends as one run would */
	memcpy(self->mem, left, self->sum.h.mem_size);
	free(left);
	vt_run_init(&r, &self->sum, self->mem, 1000000);
	r.flags = VPMU_RUN_F_RESUME;
	ASSERT_EQ(0, ioctl(self->fd, VPMU_IOC_RUN, &r))
		TH_LOG("resume: %s", strerror(errno));
	EXPECT_EQ((uint32_t)VPMU_RUN_HALT, r.stop);
	EXPECT_EQ(VT_SUM_CYCLES - cycles, r.cycles);
	EXPECT_EQ(VT_SUM_R2, r.regs[2]);
	ASSERT_EQ(0, snapshot(self->fd, 1, &s));
	EXPECT_EQ(vt_generation(), s.generation);
}

TEST_HARNESS_MAIN
