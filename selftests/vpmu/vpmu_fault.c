// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_fault - every allocation on an entry point's path failed in turn.
 *
 * The kernel's fault injection (Documentation/fault-injection/ in the
 * kernel tree): N written to /proc/thread-self/fail-nth makes the Nth
 * fault-injection point this thread reaches fail, and the file reads 0
 * once it has.  With failslab and fail_page_alloc both points (every
 * slab and page allocation, sleeping or not, of any order, highmem too;
 * but kmemleak's own where the kernel was booted to mark the others,
 * kmemleak_unmarked()) and the module's own vpmu/fail_engine_mem, each
 * entry point below runs with its 1st, 2nd, 3rd ... point failing until
 * it runs with none failed.  After each injected failure: the errno the
 * entry point documents (ENOMEM for all of them: an allocation is all
 * that fails here), and nothing changed: the loader's generation and
 * image name, a sibling event's count, the histogram unit's program,
 * uhist's state and interval, the program a /dev/vpmu file keeps for a
 * resume, the snapshot's generation of an engine no run reached.  A
 * failure the kernel absorbs (kvmalloc() falling back to vmalloc(), say)
 * is counted too and must leave the operation as it would be without
 * it.  Each entry point prints "# fault: ENTRY: K sites failed"; one
 * that saw no site at all means the mechanism is broken (the snapshot
 * ioctl, which allocates nothing, excepted).  What leaks or splats is
 * the tier's to find: kmemleak and the serial log (the allocation-failure
 * reports of warn_alloc(), a vmalloc() that fails, are expected here:
 * vm/lib/logs.sh).
 *
 * Only on a kernel with fail-nth and failslab's debugfs (the debug
 * tier's); elsewhere every case skips.  The module is left loaded with
 * default parameters, the default image loaded.
 */
#include "vpmu_test.h"
#include "vpmu_perf_lib.h"

#include <ctype.h>
#include <dirent.h>
#include <sys/wait.h>
#include <time.h>

#define FAIL_NTH	"/proc/thread-self/fail-nth"
#define DBGFS		"/sys/kernel/debug/"
#define FAIL_MEM	DBGFS "vpmu/fail_engine_mem/"
#define MAX_SITES	4000u
#define STOP_BUDGET	50
#define EV_CYCLES	0
#define EV_UOPS		1
#define C1_MARK		_BITULL(20)
#define C1_FROZEN	_BITULL(21)
/* an image whose event field is encoded: 7 tags */
#define ENCODED_IMAGE	"build/encoded.vpmu"
/* a load vpmu_init() refuses before it allocates */
#define REFUSED_PARAMS	"nr_counters=0"
/* the loader's clean-up after a refused init: at most this many points */
#define LOADER_TAIL	64u
/* a load's count of points before vpmu_init() varies by no more */
#define LOADER_SLACK	16u

FIXTURE(fault) {
	int nth;		/* this thread's fail-nth, open */
	int dev;		/* /dev/vpmu */
	int sib;		/* a counting cycles event of this task */
	int fd;			/* what the entry point opened */
	long type;		/* the PMU's, read before any injection */
	int cpu;		/* where runs go */
	bool bare;		/* and no run reached it yet */
	struct vt_prog sum;
	uint8_t *mem, *left;
	struct vpmu_run r;
	uint64_t stop_cycles;	/* of the run a resume goes on with */
	unsigned long long gen;
	uint8_t *img;		/* a variant of the default image */
	size_t img_len;
	int tags;		/* events/ tag aliases of the default */
	uint8_t *enc;		/* an image of another event field */
	size_t enc_len;
	int enc_tags;		/* its tag aliases */
	const char *params;	/* of the loads insmod_call makes */
};

/* ---- the mechanism ----------------------------------------------------- */

/*
 * Whether every slab cache but kmemleak's own may fail: booted with
 * slub_debug=A;-,kmemleak_object (the fault flavours, vm/lib/flavours.sh),
 * every cache is marked failslab but kmemleak's.  kmemleak tracks each
 * allocation with an object of that cache, whose failure it absorbs (its
 * pool): a point of its own after each of vpmu's, half of a walk's
 * points, and none of them runs a line of vpmu.  With failslab's
 * cache-filter on, those are no points at all, and every other cache's
 * allocations are as before: only if all of them are marked.
 */
static bool kmemleak_unmarked(void)
{
	bool others = true, kmemleak = false;
	char path[300], val[8];
	struct dirent *d;
	DIR *dir;

	dir = opendir("/sys/kernel/slab");
	if (!dir)
		return false;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/kernel/slab/%s/failslab",
			 d->d_name);
		if (vt_read_line(path, val, sizeof(val)))
			others = false;
		else if (!strcmp(d->d_name, "kmemleak_object"))
			kmemleak = !strcmp(val, "0");
		else if (strcmp(d->d_name, "kmemleak_scan_area"))
			others &= !strcmp(val, "1");
	}
	closedir(dir);
	return others && kmemleak;
}

/* fault_config() left kmemleak's points out (kmemleak_unmarked()) */
static bool kmemleak_out;

/*
 * Every point may fail, quietly: verbose 0, or each failure's stack dump
 * would read as a splat; sleeping allocations, highmem and order 0 too
 * (fail-nth goes before probability and task-filter, lib/fault-inject.c
 * of 6.1 and 6.12, but not before these).  0 or -errno.
 */
static int fault_config(void)
{
	static const char *const files[][2] = {
		{ "failslab/verbose", "0" },
		{ "failslab/ignore-gfp-wait", "N" },
		{ "fail_page_alloc/verbose", "0" },
		{ "fail_page_alloc/ignore-gfp-wait", "N" },
		{ "fail_page_alloc/ignore-gfp-highmem", "N" },
		{ "fail_page_alloc/min-order", "0" },
	};
	char path[128];
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), DBGFS "%s", files[i][0]);
		ret = vt_write_file(path, files[i][1]);
		if (ret)
			return ret;
	}
	kmemleak_out = kmemleak_unmarked();
	ret = vt_write_file(DBGFS "failslab/cache-filter",
			    kmemleak_out ? "Y" : "N");
	if (ret)
		return ret;
	/* the module's own point: there on 6.12 after each reload */
	if (!access(FAIL_MEM "verbose", W_OK))
		return vt_write_file(FAIL_MEM "verbose", "0");
	return 0;
}

/* The @n-th fault-injection point of this thread from now fails. */
static void fault_arm(int nth, unsigned int n)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", n);

	if (pwrite(nth, buf, len, 0) != len)
		ksft_print_msg("fail-nth: %s\n", strerror(errno));
}

/*
 * Disarm; how many points were left before the armed one (0: it was
 * reached, and failed), or -1 if fail-nth cannot be read or written.
 */
static long fault_disarm_left(int nth)
{
	char buf[16] = "";
	ssize_t n = pread(nth, buf, sizeof(buf) - 1, 0);

	if (pwrite(nth, "0", 1, 0) != 1 || n <= 0)
		return -1;
	return strtol(buf, NULL, 10);
}

/* Disarm; 1 if the armed point was reached (and failed), else 0. */
static int fault_disarm(int nth)
{
	long left = fault_disarm_left(nth);

	return left < 0 ? -1 : left == 0;
}

/*
 * One entry point: @call (0 or -errno) under injection, after @setup
 * (0 or -1) without; @check after each call (@ret its result, @inj
 * whether a failure was injected) says what differs from what it must
 * be, as TAP comments, and undoes a success; it returns their number.
 */
struct fault_op {
	const char *name;
	int (*setup)(FIXTURE_DATA(fault) *self);
	int (*call)(FIXTURE_DATA(fault) *self);
	int (*check)(FIXTURE_DATA(fault) *self, int ret, int inj);
	bool no_site_ok;	/* allocates nothing: 0 sites is right */
};

static void fault_loop_from(struct __test_metadata *_metadata,
			    FIXTURE_DATA(fault) *self,
			    const struct fault_op *op, unsigned int from)
{
	unsigned int n, sites = 0, absorbed = 0, bad = 0;
	const char *left_out;
	struct timespec t0, t1;
	long secs;
	int ret, inj;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(0, fault_config());
	for (n = from; n <= MAX_SITES; n++) {
		if (op->setup)
			ASSERT_EQ(0, op->setup(self)) TH_LOG("%s: set-up", op->name);
		fault_arm(self->nth, n);
		ret = op->call(self);
		inj = fault_disarm(self->nth);
		ASSERT_LE(0, inj) TH_LOG("%s: fail-nth unreadable", op->name);
		if (inj) {
			sites++;
			absorbed += !ret;
			if (ret && ret != -ENOMEM) {
				ksft_print_msg("%s: site %u: %s, not ENOMEM\n",
					       op->name, n, strerror(-ret));
				bad++;
			}
		} else if (ret) {
			ksft_print_msg("%s: no failure injected, yet %s\n",
				       op->name, strerror(-ret));
			bad++;
		}
		if (op->check(self, ret, inj)) {
			ksft_print_msg("%s: site %u (%s) changed things\n",
				       op->name, n, ret ? strerror(-ret) : "ok");
			bad++;
		}
		if (!inj || bad > 10)
			break;
	}
	/* A walk's time: where the longest test runs spend it. */
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = t1.tv_sec - t0.tv_sec;
	left_out = kmemleak_out ? ", kmemleak's left out" : "";
	if (from > 1)
		ksft_print_msg("fault: %s: %u sites failed from site %u (%u absorbed), %lds%s\n",
			       op->name, sites, from, absorbed, secs, left_out);
	else
		ksft_print_msg("fault: %s: %u sites failed (%u absorbed), %lds%s\n",
			       op->name, sites, absorbed, secs, left_out);
	fflush(stdout);
	EXPECT_EQ(0u, bad);
	EXPECT_GE(MAX_SITES, n) TH_LOG("%s: still failing", op->name);
	if (!op->no_site_ok)
		EXPECT_LT(0u, sites) TH_LOG("%s: no site: fail-nth broken?",
					    op->name);
}

static void fault_loop(struct __test_metadata *_metadata,
		       FIXTURE_DATA(fault) *self, const struct fault_op *op)
{
	fault_loop_from(_metadata, self, op, 1);
}

/* Have the kernel fail-nth and failslab's debugfs? */
static bool have_fault(void)
{
	return !access(FAIL_NTH, W_OK) && !access(DBGFS "failslab", F_OK);
}

/* ---- fixture ----------------------------------------------------------- */

static int dev_open(FIXTURE_DATA(fault) *self)
{
	if (self->dev >= 0)
		close(self->dev);
	self->dev = open(VT_DEV, O_RDWR | O_CLOEXEC);
	return self->dev < 0 ? -1 : 0;
}

static int sib_open(FIXTURE_DATA(fault) *self)
{
	struct perf_event_attr a;

	if (self->sib >= 0)
		close(self->sib);
	vt_attr_of(&a, self->type, EV_CYCLES, 0);
	self->sib = vt_open(&a, 0, -1, -1);
	return self->sib < 0 ? -1 : 0;
}

FIXTURE_SETUP(fault)
{
	self->nth = -1;
	self->dev = -1;
	self->sib = -1;
	self->fd = -1;
	self->mem = NULL;
	self->left = NULL;
	self->img = NULL;
	self->enc = NULL;
	self->sum.file = NULL;
	self->params = "";
	if (!have_fault())
		SKIP(return, "no %s or failslab in debugfs (no fault injection)",
		     FAIL_NTH);
	if (!vt_pmu_present())
		SKIP(return, "no vpmu PMU");
	if (vt_need_loader(_metadata))
		return;
	if (vt_prog_get(&self->sum, &self->mem, "sum"))
		SKIP(return, "no valid build/sum.vprg in $VPMU_SHARE");
	self->left = malloc(self->sum.h.mem_size);
	ASSERT_NE(NULL, self->left);
	self->type = vt_type();
	ASSERT_LE(PERF_TYPE_MAX, self->type);
	self->nth = open(FAIL_NTH, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->nth);
	ASSERT_EQ(0, vt_pin(0));
	ASSERT_EQ(0, dev_open(self));
	ASSERT_EQ(0, sib_open(self));
	ASSERT_EQ(0, vt_load_default());
	self->gen = vt_generation();
}

FIXTURE_TEARDOWN(fault)
{
	cpu_set_t all;

	if (self->nth >= 0) {
		fault_disarm(self->nth);
		close(self->nth);
	}
	if (self->fd >= 0)
		close(self->fd);
	if (self->sib >= 0)
		close(self->sib);
	if (self->dev >= 0)
		close(self->dev);
	vt_prog_free(&self->sum);
	free(self->mem);
	free(self->left);
	free(self->img);
	free(self->enc);
	memset(&all, 0xff, sizeof(all));
	sched_setaffinity(0, sizeof(all), &all);
	if (!vt_module_loaded())
		vt_insmod("");
}

/* ---- checks ------------------------------------------------------------ */

/*
 * One sum run on self->cpu, and the sibling event's count of it: exactly
 * sum's cycles, whatever failed before.  0, or 1 after saying what is
 * wrong.
 */
static int sum_counts(FIXTURE_DATA(fault) *self)
{
	uint64_t before = vt_count(self->sib);
	int ret = vt_run_halt(self->dev, &self->sum, self->mem, 1000000,
			      &self->r);

	if (ret || self->r.regs[2] != VT_SUM_R2 || self->r.cycles != VT_SUM_CYCLES) {
		ksft_print_msg("sum run: %s, r2 %u, %llu cycles\n",
			       strerror(-ret), self->r.regs[2],
			       (unsigned long long)self->r.cycles);
		return 1;
	}
	if (vt_count(self->sib) - before != VT_SUM_CYCLES) {
		ksft_print_msg("sibling counted %llu for sum\n",
			       (unsigned long long)(vt_count(self->sib) - before));
		return 1;
	}
	return 0;
}

/* The loader as before: the same generation, the default image. */
static int loader_same(FIXTURE_DATA(fault) *self)
{
	char name[64];

	vt_ucode_attr("name", name, sizeof(name));
	if (vt_generation() == self->gen && !strcmp(name, VT_DEFAULT_NAME))
		return 0;
	ksft_print_msg("loader: generation %llu (was %llu), image %s\n",
		       vt_generation(), self->gen, name);
	return 1;
}

/* Close what the call opened; a success is checked by a sum run. */
static int opened_check(FIXTURE_DATA(fault) *self, int ret, int inj)
{
	int bad = 0;

	if (!ret && self->fd < 0)
		bad++;
	if (self->fd >= 0)
		close(self->fd);
	self->fd = -1;
	return bad + sum_counts(self) + loader_same(self);
}

/* ---- /dev/vpmu ----------------------------------------------------------- */

static int dev_open_call(FIXTURE_DATA(fault) *self)
{
	self->fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	return self->fd < 0 ? -errno : 0;
}

static int run_call(FIXTURE_DATA(fault) *self)
{
	return vt_run(self->dev, &self->sum, self->mem, 1000000, &self->r);
}

/* A failed run changed nothing; a run that went ended as sum does. */
static int run_check(FIXTURE_DATA(fault) *self, int ret, int inj)
{
	if (!ret && (self->r.stop != VPMU_RUN_HALT ||
		     self->r.cycles != VT_SUM_CYCLES || self->r.regs[2] != VT_SUM_R2)) {
		ksft_print_msg("run: stop %u, %llu cycles\n", self->r.stop,
			       (unsigned long long)self->r.cycles);
		return 1;
	}
	return sum_counts(self) + loader_same(self);
}

/* The snapshot of @cpu's engine: its generation, or ~0 on error. */
static unsigned long long snap_gen(int dev, int cpu)
{
	struct vpmu_snapshot s;

	memset(&s, 0, sizeof(s));
	s.size = sizeof(s);
	s.cpu = cpu;
	return ioctl(dev, VPMU_IOC_SNAPSHOT, &s) ? ~0ull : s.generation;
}

/* The highest online CPU whose engine has no image yet, or -1. */
static int bare_cpu(FIXTURE_DATA(fault) *self)
{
	int cpu;

	for (cpu = sysconf(_SC_NPROCESSORS_ONLN) - 1; cpu >= 0; cpu--)
		if (!snap_gen(self->dev, cpu))
			break;
	return cpu;
}

/*
 * A CPU no run has reached yet.  A failed first run leaves its CPU bare
 * (first_check() sees to it), so the module is reloaded (a fresh
 * /dev/vpmu file and sibling) only once the runs that went have used up
 * every CPU: a reload per site costs ~0.5 s under KASAN and TCG, and
 * there are ~190 sites.  vpmu built in, once the CPUs are used up, the
 * CPU of the last run is run on again: not a first run.
 */
static int first_setup(FIXTURE_DATA(fault) *self)
{
	int cpu = bare_cpu(self);

	if (cpu < 0 && !vt_module_builtin()) {
		close(self->dev);
		close(self->sib);
		self->dev = -1;
		self->sib = -1;
		if (vt_reload("") || fault_config())
			return -1;
		self->type = vt_type();
		if (dev_open(self) || sib_open(self))
			return -1;
		self->gen = vt_generation();
		cpu = bare_cpu(self);
	}
	self->bare = cpu >= 0;
	if (cpu >= 0)
		self->cpu = cpu;
	return self->cpu < 0 || vt_pin(self->cpu) ? -1 : 0;
}

/*
 * A failed first run leaves the engine bare and changes nothing else
 * (no run there: it would give the engine an image); a run that went
 * gives sum's results.
 */
static int first_check(FIXTURE_DATA(fault) *self, int ret, int inj)
{
	int bad = 0;

	if (!ret)
		return run_check(self, ret, inj);
	if (self->bare && snap_gen(self->dev, self->cpu)) {
		ksft_print_msg("CPU %d's engine got an image\n", self->cpu);
		bad++;
	}
	return bad + loader_same(self);
}

/* A program stopped by its budget, its memory kept in self->left. */
static int resume_setup(FIXTURE_DATA(fault) *self)
{
	if (vt_run(self->dev, &self->sum, self->mem, STOP_BUDGET, &self->r) ||
	    self->r.stop != VPMU_RUN_BUDGET)
		return -1;
	self->stop_cycles = self->r.cycles;
	memcpy(self->left, self->mem, self->sum.h.mem_size);
	return vt_pin(1) ? vt_pin(0) : 0;	/* resumed elsewhere if can */
}

static int resume_call(FIXTURE_DATA(fault) *self)
{
	vt_run_init(&self->r, &self->sum, self->mem, 1000000);
	self->r.flags = VPMU_RUN_F_RESUME;
	return ioctl(self->dev, VPMU_IOC_RUN, &self->r) ? -errno : 0;
}

/*
 * A failed resume leaves the program with the file: resumed again, it
 * ends as one run of sum would.
 */
static int resume_check(FIXTURE_DATA(fault) *self, int ret, int inj)
{
	int bad = 0;

	if (ret) {
		memcpy(self->mem, self->left, self->sum.h.mem_size);
		ret = resume_call(self);
	}
	if (ret || self->r.stop != VPMU_RUN_HALT || self->r.regs[2] != VT_SUM_R2 ||
	    self->r.cycles != VT_SUM_CYCLES - self->stop_cycles) {
		ksft_print_msg("resume: %s, stop %u, %llu cycles\n",
			       strerror(-ret), self->r.stop,
			       (unsigned long long)self->r.cycles);
		bad++;
	}
	vt_pin(0);
	return bad + loader_same(self);
}

static int snap_call(FIXTURE_DATA(fault) *self)
{
	struct vpmu_snapshot s;

	memset(&s, 0, sizeof(s));
	s.size = sizeof(s);
	return ioctl(self->dev, VPMU_IOC_SNAPSHOT, &s) ? -errno : 0;
}

static int plain_check(FIXTURE_DATA(fault) *self, int ret, int inj)
{
	return sum_counts(self) + loader_same(self);
}

/* ---- perf_event_open ----------------------------------------------------- */

static int perf_count_call(FIXTURE_DATA(fault) *self)
{
	struct perf_event_attr a;

	vt_attr_of(&a, self->type, EV_CYCLES, 0);
	self->fd = vt_open(&a, 0, -1, -1);
	return self->fd < 0 ? self->fd : 0;
}

/* A sampling event and its ring: the open and the mmap. */
static int perf_sample_call(FIXTURE_DATA(fault) *self)
{
	struct perf_event_attr a;
	void *p;

	vt_attr_of(&a, self->type, EV_CYCLES, 0);
	a.sample_period = 50;
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_RAW;
	self->fd = vt_open(&a, 0, -1, -1);
	if (self->fd < 0)
		return self->fd;
	p = mmap(NULL, 2 * sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
		 MAP_SHARED, self->fd, 0);
	if (p == MAP_FAILED) {
		int ret = -errno;

		close(self->fd);
		self->fd = -1;
		return ret;
	}
	munmap(p, 2 * sysconf(_SC_PAGESIZE));
	return 0;
}

/* A group under a mark trigger, started frozen: leader and member. */
static int perf_freeze_call(FIXTURE_DATA(fault) *self)
{
	struct perf_event_attr a;
	int m;

	vt_attr_of(&a, self->type, EV_CYCLES, C1_MARK | C1_FROZEN);
	self->fd = vt_open(&a, 0, -1, -1);
	if (self->fd < 0)
		return self->fd;
	vt_attr_of(&a, self->type, EV_UOPS, C1_MARK | C1_FROZEN);
	m = vt_open(&a, 0, -1, self->fd);
	if (m < 0) {
		close(self->fd);
		self->fd = -1;
		return m;
	}
	close(m);
	return 0;
}

/* An inherited event (opened before, untouched) copied into a fork. */
static int inherit_setup(FIXTURE_DATA(fault) *self)
{
	struct perf_event_attr a;

	vt_attr_of(&a, self->type, EV_CYCLES, 0);
	a.inherit = 1;
	self->fd = vt_open(&a, 0, -1, -1);
	return self->fd < 0 ? -1 : 0;
}

static int inherit_call(FIXTURE_DATA(fault) *self)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return -errno;
	if (!pid) {
		_exit(vt_run_halt(self->dev, &self->sum, self->mem, 1000000,
				  &self->r) ? 1 : 0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return -EPROTO;
	return 0;
}

/* The child's run counted in the inherited event if it ran, else 0. */
static int inherit_check(FIXTURE_DATA(fault) *self, int ret, int inj)
{
	uint64_t want = ret ? 0 : VT_SUM_CYCLES, got = vt_count(self->fd);
	int bad = 0;

	if (got != want) {
		ksft_print_msg("inherited event: %llu, not %llu\n",
			       (unsigned long long)got,
			       (unsigned long long)want);
		bad++;
	}
	return bad + opened_check(self, 0, inj);
}

/* ---- sysfs ------------------------------------------------------------- */

/* Write @val to the file @fd (opened before); 0 or -errno. */
static int fd_write(int fd, const void *val, size_t len)
{
	ssize_t n = write(fd, val, len);

	return n < 0 ? -errno : n != (ssize_t)len ? -EIO : 0;
}

static int image_setup(FIXTURE_DATA(fault) *self)
{
	self->fd = open(VT_UCODE "image", O_WRONLY | O_CLOEXEC);
	return self->fd < 0 ? -1 : 0;
}

/* The whole image, in the writes sysfs takes (a page at most each). */
static int image_call(FIXTURE_DATA(fault) *self)
{
	size_t off = 0;
	ssize_t n;

	while (off < self->img_len) {
		n = write(self->fd, self->img + off, self->img_len - off);
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		off += n;
	}
	return 0;
}

/*
 * How many events/tagK and events/vpmu_tagK aliases there are (two a
 * tag); -1 if events/ is gone.
 */
static int tag_aliases(void)
{
	struct dirent *de;
	int n = 0;
	DIR *d;

	d = opendir(VT_PMU_DIR "/events");
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		const char *name = de->d_name;

		if (!strncmp(name, "vpmu_", 5))
			name += 5;
		n += !strncmp(name, "tag", 3) && isdigit((unsigned char)name[3]);
	}
	closedir(d);
	return n;
}

/*
 * A failed load changes no image; a good one is undone.  The variant has
 * the default's event field: whether the load went or not, events/ must
 * show the same tag aliases, right after it.
 */
static int image_check(FIXTURE_DATA(fault) *self, int ret, int inj)
{
	char name[64];
	int bad = 0, tags = tag_aliases();

	close(self->fd);
	self->fd = -1;
	if (tags != self->tags) {
		ksft_print_msg("events/: %d tag aliases, not %d\n", tags,
			       self->tags);
		bad++;
	}
	if (!ret) {
		vt_ucode_attr("name", name, sizeof(name));
		if (vt_generation() != self->gen + 1 || strcmp(name, "fault")) {
			ksft_print_msg("loaded: generation %llu, image %s\n",
				       vt_generation(), name);
			bad++;
		}
		if (vt_load_default())
			bad++;
		self->gen = vt_generation();
	}
	return bad + plain_check(self, 0, inj);
}

static int sysfs_setup(FIXTURE_DATA(fault) *self, const char *rel)
{
	char path[128];

	snprintf(path, sizeof(path), VT_PMU_DIR "/%s", rel);
	self->fd = open(path, O_WRONLY | O_CLOEXEC);
	return self->fd < 0 ? -1 : 0;
}

/* Is the PMU's file @rel @want; if not, say so. */
static int pmu_file_is(const char *rel, const char *want)
{
	char buf[256] = "";
	char path[128];
	uint8_t *f;
	size_t len;

	snprintf(path, sizeof(path), VT_PMU_DIR "/%s", rel);
	f = vt_read_file(path, &len);
	if (f)
		snprintf(buf, sizeof(buf), "%s", (char *)f);
	free(f);
	if (!strcmp(buf, want))
		return 0;
	ksft_print_msg("%s: \"%s\", not \"%s\"\n", rel, buf, want);
	return 1;
}

/* par: uops every 16 cycles, insns every 7 (or, !@on, off). */
static void hu_struct(struct vpmu_hu_program *u, bool on)
{
	static const struct vpmu_hu_rule rules[] = {
		{ .kind = VPMU_HU_EVENT, .event = VPMU_EV_UOPS, .period = 16 },
		{ .kind = VPMU_HU_EVENT, .event = VPMU_EV_INSNS, .period = 7 },
	};

	memset(u, 0, sizeof(*u));
	u->size = sizeof(*u);
	if (!on)
		return;
	u->flags = VPMU_HU_F_PAR;
	u->nr = 2;
	memcpy(u->rule, rules, sizeof(rules));
}

/* Is the program in force hu_struct(@on)?  0, or 1 with a message. */
static int hu_is(FIXTURE_DATA(fault) *self, bool on)
{
	struct vpmu_hu_program want, got = { .size = sizeof(got) };

	hu_struct(&want, on);
	if (ioctl(self->dev, VPMU_IOC_HU_GET_PROGRAM, &got)) {
		ksft_print_msg("VPMU_IOC_HU_GET_PROGRAM: %s\n", strerror(errno));
		return 1;
	}
	if (!memcmp(&want, &got, sizeof(got)))
		return 0;
	ksft_print_msg("the program in force: %u rules, not %u\n", got.nr,
		       want.nr);
	return 1;
}

static int hu_ioctl_call(FIXTURE_DATA(fault) *self)
{
	struct vpmu_hu_program u;

	hu_struct(&u, true);
	return ioctl(self->fd, VPMU_IOC_HU_PROGRAM, &u) ? -errno : 0;
}

/* Set or not, all or nothing; then off again for the next site. */
static int hu_check(FIXTURE_DATA(fault) *self, int ret, int inj)
{
	struct vpmu_hu_program off;
	int bad = hu_is(self, !ret);

	hu_struct(&off, false);
	if (!ret && ioctl(self->fd, VPMU_IOC_HU_PROGRAM, &off))
		bad++;
	close(self->fd);
	self->fd = -1;
	return bad + plain_check(self, 0, inj);
}

static int hu_get_call(FIXTURE_DATA(fault) *self)
{
	struct vpmu_hu_program u = { .size = sizeof(u) };

	if (ioctl(self->fd, VPMU_IOC_HU_GET_PROGRAM, &u))
		return -errno;
	return u.nr == 2 ? 0 : -EIO;
}

/* A read, failed or not, changes nothing. */
static int hu_get_check(FIXTURE_DATA(fault) *self, int ret, int inj)
{
	int bad = hu_is(self, true);

	close(self->fd);
	self->fd = -1;
	return bad + plain_check(self, 0, inj);
}

static int uhist_setup(FIXTURE_DATA(fault) *self)
{
	return sysfs_setup(self, "uhist/control");
}

static int uhist_call(FIXTURE_DATA(fault) *self)
{
	return fd_write(self->fd, "start", 5);
}

static int uhist_check(FIXTURE_DATA(fault) *self, int ret, int inj)
{
	int bad = pmu_file_is("uhist/state", ret ? "off\n" : "running\n");

	close(self->fd);
	self->fd = -1;
	if (!ret && vt_pmu_write("uhist/control", "stop"))
		bad++;
	return bad + pmu_file_is("uhist/interval", "9\n");
}

static int interval_setup(FIXTURE_DATA(fault) *self)
{
	return sysfs_setup(self, "uhist/interval");
}

static int interval_call(FIXTURE_DATA(fault) *self)
{
	return fd_write(self->fd, "5", 1);
}

static int interval_check(FIXTURE_DATA(fault) *self, int ret, int inj)
{
	int bad = pmu_file_is("uhist/interval", ret ? "9\n" : "5\n");

	close(self->fd);
	self->fd = -1;
	if (!ret && vt_pmu_write("uhist/interval", "9"))
		bad++;
	return bad + pmu_file_is("uhist/state", "off\n");
}

/* ---- insmod ------------------------------------------------------------ */

/* Why the module cannot be loaded here, or NULL. */
static const char *insmod_skip(void)
{
	if (vt_module_builtin())
		return VT_BUILTIN_REASON;
	if (access(vt_ko(), R_OK))
		return VT_NO_KO_REASON;
	return NULL;
}

/* Let the module go: close what the fixture holds open. */
static void insmod_unhold(FIXTURE_DATA(fault) *self)
{
	close(self->dev);
	close(self->sib);
	self->dev = -1;
	self->sib = -1;
}

static int insmod_setup(FIXTURE_DATA(fault) *self)
{
	int ret = vt_rmmod_retry();

	return ret && ret != -ENOENT ? -1 : 0;
}

static int insmod_call(FIXTURE_DATA(fault) *self)
{
	return vt_insmod(self->params);
}

/* A failed load leaves no module; a good one counts sum exactly. */
static int insmod_check(FIXTURE_DATA(fault) *self, int ret, int inj)
{
	int bad;

	if (ret) {
		bad = vt_module_loaded() || vt_pmu_present();
		if (bad)
			ksft_print_msg("a failed load left the module\n");
		return bad;
	}
	self->type = vt_type();
	if (fault_config() || dev_open(self) || sib_open(self))
		return 1;
	self->gen = vt_generation();
	bad = sum_counts(self) + loader_same(self);
	insmod_unhold(self);
	return bad;
}

/* ---- the entry points -------------------------------------------------- */

TEST_F(fault, dev_open)
{
	static const struct fault_op op = {
		.name = "open",
		.call = dev_open_call,
		.check = opened_check,
	};

	fault_loop(_metadata, self, &op);
}

TEST_F(fault, run)
{
	static const struct fault_op op = {
		.name = "run",
		.call = run_call,
		.check = run_check,
	};

	self->cpu = 0;
	fault_loop(_metadata, self, &op);
}

/* ~190 sites, a reload every two that went: ~40 s on debug-6.12. */
TEST_F_TIMEOUT(fault, run_first_on_cpu, 120)
{
	static const struct fault_op op = {
		.name = "run_first",
		.setup = first_setup,
		.call = run_call,
		.check = first_check,
	};

	self->cpu = -1;
	if (first_setup(self) || !self->bare)
		SKIP(return, "every online CPU has run (vpmu built in)");
	fault_loop(_metadata, self, &op);
}

TEST_F(fault, resume)
{
	static const struct fault_op op = {
		.name = "resume",
		.setup = resume_setup,
		.call = resume_call,
		.check = resume_check,
	};

	fault_loop(_metadata, self, &op);
}

TEST_F(fault, snapshot)
{
	static const struct fault_op op = {
		.name = "snapshot",
		.call = snap_call,
		.check = plain_check,
		.no_site_ok = true,
	};

	fault_loop(_metadata, self, &op);
}

TEST_F(fault, perf_counting)
{
	static const struct fault_op op = {
		.name = "perf_counting",
		.call = perf_count_call,
		.check = opened_check,
	};

	fault_loop(_metadata, self, &op);
}

TEST_F(fault, perf_sampling)
{
	static const struct fault_op op = {
		.name = "perf_sampling",
		.call = perf_sample_call,
		.check = opened_check,
	};

	fault_loop(_metadata, self, &op);
}

TEST_F(fault, perf_freeze_group)
{
	static const struct fault_op op = {
		.name = "perf_freeze_group",
		.call = perf_freeze_call,
		.check = opened_check,
	};

	fault_loop(_metadata, self, &op);
}

TEST_F(fault, perf_inherit_fork)
{
	static const struct fault_op op = {
		.name = "perf_inherit_fork",
		.setup = inherit_setup,
		.call = inherit_call,
		.check = inherit_check,
	};

	fault_loop(_metadata, self, &op);
}

/*
 * From an image of another event field to the variant: the aliases of
 * the one in force, before and after, whatever failed.
 */
static int image_tags_setup(FIXTURE_DATA(fault) *self)
{
	if (vt_write_image(self->enc, self->enc_len, self->enc_len))
		return -1;
	self->gen = vt_generation();
	return image_setup(self);
}

static int image_tags_check(FIXTURE_DATA(fault) *self, int ret, int inj)
{
	int tags = tag_aliases(), want = ret ? self->enc_tags : self->tags;
	unsigned long long gen = self->gen + !ret;

	close(self->fd);
	self->fd = -1;
	if (tags == want && vt_generation() == gen)
		return 0;
	ksft_print_msg("events/: %d tag aliases, not %d; generation %llu, not %llu\n",
		       tags, want, vt_generation(), gen);
	return 1;
}

TEST_F(fault, image_load)
{
	static const struct fault_op op = {
		.name = "image_load",
		.setup = image_setup,
		.call = image_call,
		.check = image_check,
	};
	static const struct fault_op tags = {
		.name = "image_load_tags",
		.setup = image_tags_setup,
		.call = image_call,
		.check = image_tags_check,
	};
	uint8_t *def;
	size_t len;

	def = vt_read_image(&len);
	ASSERT_NE(NULL, def);
	self->img = vt_variant(def, len, "fault", 0);
	free(def);
	ASSERT_NE(NULL, self->img);
	self->img_len = len;
	self->tags = tag_aliases();
	ASSERT_LT(0, self->tags) TH_LOG("no events/tagK alias");
	fault_loop(_metadata, self, &op);

	/* The encoded image selects 7 tags, the default 8. */
	self->enc = vt_read_share(ENCODED_IMAGE, &self->enc_len);
	if (!self->enc)
		SKIP(return, "no %s in $VPMU_SHARE", ENCODED_IMAGE);
	ASSERT_EQ(0, vt_write_image(self->enc, self->enc_len, self->enc_len));
	self->enc_tags = tag_aliases();
	ASSERT_EQ(0, vt_load_default());
	ASSERT_NE(self->tags, self->enc_tags);
	fault_loop(_metadata, self, &tags);
	ASSERT_EQ(0, vt_load_default());
	self->gen = vt_generation();
}

TEST_F(fault, hu_program)
{
	static const struct fault_op set = {
		.name = "hu_ioctl",
		.setup = dev_open_call,
		.call = hu_ioctl_call,
		.check = hu_check,
	};
	static const struct fault_op get = {
		.name = "hu_get_program",
		.setup = dev_open_call,
		.call = hu_get_call,
		.check = hu_get_check,
	};
	struct vpmu_hu_program u;

	if (access(VT_HIST "control", W_OK))
		SKIP(return, "no %scontrol", VT_HIST);
	hu_struct(&u, false);
	ASSERT_EQ(0, ioctl(self->dev, VPMU_IOC_HU_PROGRAM, &u));
	fault_loop(_metadata, self, &set);
	hu_struct(&u, true);
	ASSERT_EQ(0, ioctl(self->dev, VPMU_IOC_HU_PROGRAM, &u));
	fault_loop(_metadata, self, &get);
	hu_struct(&u, false);
	ASSERT_EQ(0, ioctl(self->dev, VPMU_IOC_HU_PROGRAM, &u));
}

TEST_F(fault, uhist_controls)
{
	static const struct fault_op start = {
		.name = "uhist_control",
		.setup = uhist_setup,
		.call = uhist_call,
		.check = uhist_check,
	};
	static const struct fault_op interval = {
		.name = "uhist_interval",
		.setup = interval_setup,
		.call = interval_call,
		.check = interval_check,
	};

	if (access(VT_UHIST "control", W_OK))
		SKIP(return, "no %scontrol", VT_UHIST);
	ASSERT_EQ(0, vt_pmu_write("uhist/control", "stop"));
	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "9"));
	fault_loop(_metadata, self, &start);
	fault_loop(_metadata, self, &interval);
	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "0"));
}

/*
 * How many fault-injection points a load passes before vpmu_init() runs:
 * the kernel's module loader's share, which the parameters do not change
 * (they are parsed into static storage).  A load vpmu_init() refuses
 * before it allocates (nr_counters=0) passes all of them, and then those
 * of the loader's clean-up; with one before vpmu_init() failed, the load
 * fails with ENOMEM instead of EINVAL.  The share is the last point that
 * does, counted back from the refused load's total: never past
 * vpmu_init()'s first, short of it by the points after it whose failure
 * the kernel absorbs (kmemleak's metadata, its pool).  0 if it cannot be
 * found.
 */
static unsigned int loader_share(FIXTURE_DATA(fault) *self)
{
	const unsigned int big = 1000000;
	unsigned int n, total;
	long left;
	int ret;

	fault_arm(self->nth, big);
	ret = vt_insmod(REFUSED_PARAMS);
	left = fault_disarm_left(self->nth);
	if (ret != -EINVAL || left <= 0)
		return 0;
	total = big - left;
	for (n = total; n > 0 && total - n < LOADER_TAIL; n--) {
		fault_arm(self->nth, n);
		ret = vt_insmod(REFUSED_PARAMS);
		fault_disarm(self->nth);
		if (ret == -ENOMEM)
			return n;
		if (ret != -EINVAL)
			return 0;
	}
	return 0;
}

/*
 * Where a walk of insmod's sites starts: the module unloaded and
 * fail-nth set up, a few sites before the module loader's share ends
 * (loader_share()); 0 if the share is not found.
 */
static unsigned int insmod_first_site(struct __test_metadata *_metadata,
				      FIXTURE_DATA(fault) *self)
{
	unsigned int share;

	insmod_unhold(self);
	if (insmod_setup(self) || fault_config()) {
		TH_LOG("insmod: set-up or fail-nth configuration failed");
		return 0;
	}
	share = loader_share(self);
	EXPECT_LT(LOADER_SLACK, share) TH_LOG("the module loader's share not found");
	ksft_print_msg("fault: the module loader's share: %u sites\n", share);
	return share > LOADER_SLACK ? share - LOADER_SLACK : 0;
}

/*
 * insmod with the default parameters.  Module loading has ~900 sites,
 * each a load under KASAN (0.3 s on debug-6.12 under TCG); ~400 of them,
 * the first, are the kernel's module loader's own, whose failure never
 * runs a line of vpmu (the loader frees what it made and vpmu_init() is
 * not called): the walk starts a few sites before the loader's share
 * ends, as the other parameter sets' (insmod_params, below).
 */
TEST_F_TIMEOUT(fault, insmod, 900)
{
	static const struct fault_op op = {
		.name = "insmod",
		.setup = insmod_setup,
		.call = insmod_call,
		.check = insmod_check,
	};
	unsigned int first;

	if (insmod_skip())
		SKIP(return, "%s", insmod_skip());
	first = insmod_first_site(_metadata, self);
	ASSERT_NE(0u, first);
	fault_loop_from(_metadata, self, &op, first);
	ASSERT_EQ(0, vt_reload(""));
}

/*
 * insmod with every module parameter off its default, in two
 * sets: the translation cache off and the micro-PC histogram sampling
 * from the load; the most counters, of two widths, and a smaller control
 * store.  Each walked from a few sites before the loader's share ends (a
 * load's count of points varies by a few from one to the next): the
 * sites before those are the module loader's, which no vpmu code runs
 * after (insmod, above).  ~500 sites each, 3 minutes on debug-6.12
 * (the timeout leaves room for a machine running two guests and more:
 * beside a second full test run, the two sets took over 15 minutes).
 */
TEST_F_TIMEOUT(fault, insmod_params, 1500)
{
	static const char *const sets[] = {
		"tc=0 uhist_interval=7",
		"nr_counters=16 counter_widths=64,32 cs_size=2048",
	};
	struct fault_op op = {
		.setup = insmod_setup,
		.call = insmod_call,
		.check = insmod_check,
	};
	unsigned int i, first;
	char name[64];

	if (insmod_skip())
		SKIP(return, "%s", insmod_skip());
	first = insmod_first_site(_metadata, self);
	ASSERT_NE(0u, first);
	op.name = name;
	for (i = 0; i < ARRAY_SIZE(sets); i++) {
		snprintf(name, sizeof(name), "insmod %s", sets[i]);
		self->params = sets[i];
		fault_loop_from(_metadata, self, &op, first);
	}
	self->params = "";
	ASSERT_EQ(0, vt_reload(""));
}

TEST_HARNESS_MAIN
