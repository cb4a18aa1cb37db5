// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_uhist - the micro-PC histogram's sysfs files, uhist/
 * (Documentation/vpmu/histogram.rst).
 *
 * With K = 1 the buckets of a run pinned to one CPU equal, bucket by
 * bucket, the histogram the host engine gives for the same program
 * (vpmu-hist --simulate: executions plus stall cycles per microword) and
 * sum to the run's cycles; with larger K the samples are floor(cycles /
 * K), the countdown running across programs.  start, pause, resume,
 * reset and stop do what the documentation says; an interval change
 * applies at once and keeps the buckets; files read while a program runs
 * are consistent snapshots that only grow; an offline CPU's buckets stay
 * readable and resettable; another image restarts an engine's buckets.
 * Skips without uhist/, /dev/vpmu or the assembled samples.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include "vpmu_test.h"

#define UHIST		VPMU_PMU_DIR "/uhist/"
#define BUDGET		10000000ull
#define SORT_CYCLES	1081ull		/* samples/sort.expect */
#define HIST_TOOL	"/opt/vpmu/bin/vpmu-hist"
#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

struct hist {
	struct vpmu_uhist_header h;
	uint64_t *b;
	size_t len;
};

static int uh_write(const char *name, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), UHIST "%s", name);
	return vl_write_file(path, val);
}

static int uh_ctl(const char *word)
{
	return uh_write("control", word);
}

/* uhist/state, or "" */
static const char *uh_state(char *buf, size_t size)
{
	size_t len;
	uint8_t *p = vl_read_file(UHIST "state", &len);

	buf[0] = '\0';
	if (p) {
		snprintf(buf, size, "%s", (char *)p);
		buf[strcspn(buf, "\n")] = '\0';
		free(p);
	}
	return buf;
}

static void hist_free(struct hist *x)
{
	free(x->b);
	x->b = NULL;
}

/*
 * Read uhist/NAME (or any histogram file) and check it as vpmu-hist does:
 * magic, version, sizes, reserved fields, samples.  0 or -1.
 */
static int hist_load(const char *path, struct hist *x)
{
	uint8_t *p = vl_read_file(path, &x->len);
	uint64_t sum = 0;
	uint32_t i;

	x->b = NULL;
	if (!p || x->len < sizeof(x->h))
		goto bad;
	memcpy(&x->h, p, sizeof(x->h));
	if (x->h.magic != VPMU_UHIST_MAGIC ||
	    x->h.version != VPMU_UHIST_VERSION ||
	    x->h.header_size != sizeof(x->h) ||
	    x->h.nbuckets < 1 || x->h.nbuckets > 4096 ||
	    x->len != sizeof(x->h) + 8ull * x->h.nbuckets || x->h.reserved0 ||
	    x->h.reserved[0] || x->h.reserved[1] || x->h.reserved[2] ||
	    x->h.reserved[3])
		goto bad;
	x->b = malloc(8ull * x->h.nbuckets);
	if (!x->b)
		goto bad;
	memcpy(x->b, p + sizeof(x->h), 8ull * x->h.nbuckets);
	for (i = 0; i < x->h.nbuckets; i++)
		sum += x->b[i];
	free(p);
	if (sum != x->h.samples) {
		hist_free(x);
		return -1;
	}
	return 0;
bad:
	free(p);
	return -1;
}

static int uh_read(const char *name, struct hist *x)
{
	char path[256];

	snprintf(path, sizeof(path), UHIST "%s", name);
	return hist_load(path, x);
}

static int cpu1_set(int on)
{
	int fd = open(CPU1_ONLINE, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, on ? "1" : "0", 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}

FIXTURE(uhist) {
	int fd;
	struct vl_prog sort, loop;
	uint8_t *sort_mem, *loop_mem;
	char interval[32];
};

FIXTURE_SETUP(uhist)
{
	size_t len;
	uint8_t *p;

	self->fd = -1;
	self->interval[0] = '\0';
	if (access(UHIST "control", F_OK))
		SKIP(return, "no %scontrol (module without the histogram?)",
		     UHIST);
	self->fd = open(VPMU_DEV, O_RDWR | O_CLOEXEC);
	if (self->fd < 0)
		SKIP(return, "no %s", VPMU_DEV);
	if (vl_prog_load(&self->sort, "build/sort.vprg") ||
	    vl_prog_load(&self->loop, "build/sortloop.vprg"))
		SKIP(return, "no build/sort.vprg, sortloop.vprg in $VPMU_SHARE");
	self->sort_mem = vl_prog_mem(&self->sort);
	self->loop_mem = vl_prog_mem(&self->loop);
	ASSERT_NE(NULL, self->sort_mem);
	ASSERT_NE(NULL, self->loop_mem);
	p = vl_read_file(UHIST "interval", &len);
	ASSERT_NE(NULL, p);
	snprintf(self->interval, sizeof(self->interval), "%s", (char *)p);
	free(p);
	ASSERT_EQ(0, vl_pin(0));
	ASSERT_EQ(0, uh_ctl("stop"));
}

FIXTURE_TEARDOWN(uhist)
{
	if (!access(CPU1_ONLINE, F_OK))
		cpu1_set(1);
	if (self->interval[0]) {
		uh_ctl("stop");
		uh_write("interval", self->interval);
	}
	if (self->fd >= 0)
		close(self->fd);
	free(self->sort_mem);
	free(self->loop_mem);
	vl_prog_free(&self->sort);
	vl_prog_free(&self->loop);
}

/* Run sort once on this CPU; its cycles, or 0 on failure. */
static uint64_t run_sort(FIXTURE_DATA(uhist) *self)
{
	struct vpmu_run r;

	if (vl_run(self->fd, &self->sort, self->sort_mem, BUDGET, &r) ||
	    r.stop != VPMU_RUN_HALT)
		return 0;
	return r.cycles;
}

static int hist_zero(const struct hist *x)
{
	uint32_t i;

	for (i = 0; i < x->h.nbuckets; i++)
		if (x->b[i])
			return 0;
	return x->h.samples == 0;
}

TEST_F(uhist, files_and_header)
{
	const struct vpmu_image_header *ih;
	struct hist c0, s;
	struct stat st;
	uint8_t *img;
	size_t len;
	char buf[32];

	VL_SETUP_DONE();
	ASSERT_EQ(0, stat(UHIST "control", &st));
	EXPECT_EQ(0200u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(UHIST "interval", &st));
	EXPECT_EQ(0644u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(UHIST "state", &st));
	EXPECT_EQ(0444u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(UHIST "cpu0", &st));
	EXPECT_EQ(0400u, st.st_mode & 0777);
	ASSERT_EQ(0, stat(UHIST "sum", &st));
	EXPECT_EQ(0400u, st.st_mode & 0777);
	EXPECT_STREQ("off", uh_state(buf, sizeof(buf)));

	ASSERT_EQ(0, uh_write("interval", "1"));
	ASSERT_EQ(0, uh_ctl("start"));
	EXPECT_STREQ("running", uh_state(buf, sizeof(buf)));
	ASSERT_EQ(SORT_CYCLES, run_sort(self));

	img = vl_read_image(&len);
	ASSERT_NE(NULL, img);
	ih = (const struct vpmu_image_header *)img;
	ASSERT_EQ(0, uh_read("cpu0", &c0));
	ASSERT_EQ(0, uh_read("sum", &s));
	EXPECT_EQ(ih->cs_words, c0.h.nbuckets);
	EXPECT_EQ(ih->checksum, c0.h.image_checksum);
	EXPECT_EQ(vl_generation(), c0.h.generation);
	EXPECT_EQ(1u, c0.h.interval);
	EXPECT_EQ(0u, c0.h.cpu);
	EXPECT_EQ(SORT_CYCLES, c0.h.samples);
	EXPECT_EQ(VPMU_UHIST_CPU_SUM, s.h.cpu);
	EXPECT_EQ(ih->cs_words, s.h.nbuckets);
	EXPECT_EQ(ih->checksum, s.h.image_checksum);
	EXPECT_EQ(vl_generation(), s.h.generation);
	/* nothing ran anywhere else: the sum is CPU 0's */
	EXPECT_EQ(0, memcmp(c0.b, s.b, 8ull * c0.h.nbuckets));
	hist_free(&c0);
	hist_free(&s);
	free(img);
}

/* K = 1: exactly the host engine's histogram of the same program. */
TEST_F(uhist, k1_equals_simulation)
{
	char cmd[512], share[256];
	struct hist got, want;
	uint32_t u;
	uint8_t *img;
	size_t len;
	FILE *f;

	VL_SETUP_DONE();
	if (access(HIST_TOOL, X_OK))
		SKIP(return, "no %s", HIST_TOOL);
	img = vl_read_image(&len);
	ASSERT_NE(NULL, img);
	f = fopen("/tmp/vpmu_uhist.vpmu", "w");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(len, fwrite(img, 1, len, f));
	fclose(f);
	free(img);
	snprintf(cmd, sizeof(cmd),
		 HIST_TOOL " --simulate -q -m /tmp/vpmu_uhist.vpmu -K 1 -o /tmp/vpmu_uhist.want %s 2>/dev/null",
		 vl_share(share, sizeof(share), "build/sort.vprg"));
	ASSERT_EQ(0, system(cmd));
	ASSERT_EQ(0, hist_load("/tmp/vpmu_uhist.want", &want));

	ASSERT_EQ(0, uh_write("interval", "1"));
	ASSERT_EQ(0, uh_ctl("start"));
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	ASSERT_EQ(0, uh_ctl("pause"));
	ASSERT_EQ(0, uh_read("cpu0", &got));
	ASSERT_EQ(want.h.nbuckets, got.h.nbuckets);
	EXPECT_EQ(want.h.image_checksum, got.h.image_checksum);
	EXPECT_EQ(SORT_CYCLES, want.h.samples);
	EXPECT_EQ(want.h.samples, got.h.samples);
	for (u = 0; u < got.h.nbuckets; u++) {
		EXPECT_EQ(want.b[u], got.b[u]) TH_LOG("bucket 0x%03x", u);
	}
	hist_free(&got);
	hist_free(&want);
	unlink("/tmp/vpmu_uhist.vpmu");
	unlink("/tmp/vpmu_uhist.want");
}

/* K = 7: floor(cycles / 7), the countdown going on across programs. */
TEST_F(uhist, k7_countdown)
{
	struct hist x;

	VL_SETUP_DONE();
	ASSERT_EQ(0, uh_write("interval", "7"));
	ASSERT_EQ(0, uh_ctl("start"));
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	ASSERT_EQ(0, uh_read("cpu0", &x));
	EXPECT_EQ(SORT_CYCLES / 7, x.h.samples);
	EXPECT_EQ(7u, x.h.interval);
	hist_free(&x);
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	ASSERT_EQ(0, uh_read("cpu0", &x));
	EXPECT_EQ(2 * SORT_CYCLES / 7, x.h.samples);
	hist_free(&x);
}

TEST_F(uhist, pause_resume)
{
	struct hist a, b, c;
	char buf[32];
	uint32_t u;

	VL_SETUP_DONE();
	ASSERT_EQ(0, uh_write("interval", "1"));
	ASSERT_EQ(0, uh_ctl("start"));
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	ASSERT_EQ(0, uh_ctl("pause"));
	EXPECT_STREQ("paused", uh_state(buf, sizeof(buf)));
	ASSERT_EQ(0, uh_read("cpu0", &a));
	EXPECT_EQ(SORT_CYCLES, a.h.samples);
	/* paused: runs leave the buckets alone */
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	ASSERT_EQ(0, uh_read("cpu0", &b));
	EXPECT_EQ(0, memcmp(a.b, b.b, 8ull * a.h.nbuckets));
	EXPECT_EQ(-EINVAL, uh_ctl("pause"));
	ASSERT_EQ(0, uh_ctl("resume"));
	EXPECT_STREQ("running", uh_state(buf, sizeof(buf)));
	EXPECT_EQ(-EINVAL, uh_ctl("resume"));
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	ASSERT_EQ(0, uh_read("cpu0", &c));
	EXPECT_EQ(2 * SORT_CYCLES, c.h.samples);
	for (u = 0; u < c.h.nbuckets; u++) {
		EXPECT_EQ(2 * a.b[u], c.b[u]) TH_LOG("bucket 0x%03x", u);
	}
	hist_free(&a);
	hist_free(&b);
	hist_free(&c);
}

TEST_F(uhist, reset_and_start_zero)
{
	struct hist a, b;
	char buf[32];

	VL_SETUP_DONE();
	ASSERT_EQ(0, uh_write("interval", "1"));
	ASSERT_EQ(0, uh_ctl("start"));
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	ASSERT_EQ(0, uh_read("cpu0", &a));
	ASSERT_EQ(0, uh_ctl("reset"));
	EXPECT_STREQ("running", uh_state(buf, sizeof(buf)));
	ASSERT_EQ(0, uh_read("cpu0", &b));
	EXPECT_TRUE(hist_zero(&b));
	hist_free(&b);
	ASSERT_EQ(0, uh_read("sum", &b));
	EXPECT_TRUE(hist_zero(&b));
	hist_free(&b);
	/* still sampling, from zero */
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	ASSERT_EQ(0, uh_read("cpu0", &b));
	EXPECT_EQ(0, memcmp(a.b, b.b, 8ull * a.h.nbuckets));
	hist_free(&b);
	/* reset while paused stays paused */
	ASSERT_EQ(0, uh_ctl("pause"));
	ASSERT_EQ(0, uh_ctl("reset"));
	EXPECT_STREQ("paused", uh_state(buf, sizeof(buf)));
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	ASSERT_EQ(0, uh_read("cpu0", &b));
	EXPECT_TRUE(hist_zero(&b));
	hist_free(&b);
	/* start zeroes too, and runs */
	ASSERT_EQ(0, uh_ctl("resume"));
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	ASSERT_EQ(0, uh_ctl("start"));
	EXPECT_STREQ("running", uh_state(buf, sizeof(buf)));
	ASSERT_EQ(0, uh_read("cpu0", &b));
	EXPECT_TRUE(hist_zero(&b));
	hist_free(&b);
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	ASSERT_EQ(0, uh_read("cpu0", &b));
	EXPECT_EQ(0, memcmp(a.b, b.b, 8ull * a.h.nbuckets));
	hist_free(&b);
	hist_free(&a);
}

TEST_F(uhist, stop)
{
	struct hist x;
	char buf[32];

	VL_SETUP_DONE();
	ASSERT_EQ(0, uh_write("interval", "1"));
	ASSERT_EQ(0, uh_ctl("start"));
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	ASSERT_EQ(0, uh_ctl("stop"));
	EXPECT_STREQ("off", uh_state(buf, sizeof(buf)));
	ASSERT_EQ(0, uh_read("cpu0", &x));
	EXPECT_TRUE(hist_zero(&x));
	hist_free(&x);
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	ASSERT_EQ(0, uh_read("cpu0", &x));
	EXPECT_TRUE(hist_zero(&x));
	hist_free(&x);
	EXPECT_EQ(-EINVAL, uh_ctl("pause"));
	EXPECT_EQ(-EINVAL, uh_ctl("resume"));
	ASSERT_EQ(0, uh_ctl("stop"));
	EXPECT_STREQ("off", uh_state(buf, sizeof(buf)));
}

TEST_F(uhist, bad_writes)
{
	char buf[32], *p;
	size_t len;

	VL_SETUP_DONE();
	EXPECT_EQ(-EINVAL, uh_ctl("go"));
	EXPECT_EQ(-EINVAL, uh_ctl("start now"));
	EXPECT_EQ(-EINVAL, uh_write("interval", "-1"));
	EXPECT_EQ(-EINVAL, uh_write("interval", "x"));
	EXPECT_EQ(-ERANGE, uh_write("interval", "4294967296"));
	ASSERT_EQ(0, uh_write("interval", "0"));
	EXPECT_EQ(-EINVAL, uh_ctl("start"));
	EXPECT_STREQ("off", uh_state(buf, sizeof(buf)));
	/* the module parameter is the same value */
	ASSERT_EQ(0, uh_write("interval", "4294967295"));
	p = (char *)vl_read_file("/sys/module/vpmu/parameters/uhist_interval",
				 &len);
	ASSERT_NE(NULL, p);
	EXPECT_EQ(4294967295ul, strtoul(p, NULL, 10));
	free(p);
}

/* A new interval applies at once and keeps the buckets. */
TEST_F(uhist, interval_change)
{
	struct hist x;

	VL_SETUP_DONE();
	ASSERT_EQ(0, uh_write("interval", "1"));
	ASSERT_EQ(0, uh_ctl("start"));
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	ASSERT_EQ(0, uh_write("interval", "5"));
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	ASSERT_EQ(0, uh_read("cpu0", &x));
	EXPECT_EQ(5u, x.h.interval);
	EXPECT_EQ(SORT_CYCLES + SORT_CYCLES / 5, x.h.samples);
	hist_free(&x);
}

/*
 * A child pinned to CPU 0 runs sortloop (many chunks) over and over while
 * this process reads cpu0 and sum: every read is a whole, valid file whose
 * samples never go down; at the end they are the child's cycles exactly.
 */
TEST_F_TIMEOUT(uhist, read_while_sampling, 300)
{
	uint64_t total = 0, last = 0, last_sum = 0;
	int p[2], status, reads = 0;
	struct hist x;
	pid_t pid;

	VL_SETUP_DONE();
	ASSERT_EQ(0, uh_write("interval", "1"));
	ASSERT_EQ(0, uh_ctl("start"));
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct vpmu_run r;
		uint64_t sum = 0;
		int i;

		close(p[0]);
		for (i = 0; i < 8; i++) {
			if (vl_run(self->fd, &self->loop, self->loop_mem,
				   1000003, &r))
				_exit(1);
			sum += r.cycles;
		}
		if (write(p[1], &sum, sizeof(sum)) != sizeof(sum))
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	/* read from the other CPU if there is one */
	vl_pin(1);
	for (;;) {
		ASSERT_EQ(0, uh_read("cpu0", &x));
		EXPECT_LE(last, x.h.samples);
		last = x.h.samples;
		hist_free(&x);
		ASSERT_EQ(0, uh_read("sum", &x));
		EXPECT_LE(last_sum, x.h.samples);
		last_sum = x.h.samples;
		hist_free(&x);
		reads++;
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
	}
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ((ssize_t)sizeof(total), read(p[0], &total, sizeof(total)));
	close(p[0]);
	ASSERT_EQ(0, uh_read("cpu0", &x));
	EXPECT_EQ(total, x.h.samples);
	hist_free(&x);
	ASSERT_EQ(0, uh_read("sum", &x));
	EXPECT_EQ(total, x.h.samples);
	hist_free(&x);
	TH_LOG("%d reads while running, %llu cycles", reads,
	       (unsigned long long)total);
	EXPECT_LT(1, reads);
}

/*
 * Read the rest of open histogram file @fd from @off on, @chunk bytes a
 * read, into @buf (room for @size), sleeping @us microseconds between
 * reads; the file's length, or -errno.
 */
static ssize_t hist_read_slowly(int fd, off_t off, size_t chunk, uint8_t *buf,
				size_t size, unsigned int us)
{
	ssize_t r;

	for (;;) {
		if (us && off)
			usleep(us);
		r = pread(fd, buf + off, chunk < size - off ? chunk : size - off,
			  off);
		if (r < 0)
			return -errno;
		if (!r)
			return off;
		off += r;
		if ((size_t)off == size)
			return -EFBIG;
	}
}

/* The same without pausing. */
static ssize_t hist_read_rest(int fd, off_t off, size_t chunk, uint8_t *buf,
			      size_t size)
{
	return hist_read_slowly(fd, off, chunk, buf, size, 0);
}

/* Is @buf (@len bytes) a whole histogram file whose samples add up? */
static int hist_consistent(const uint8_t *buf, size_t len,
			   struct vpmu_uhist_header *h)
{
	const uint64_t *b = (const uint64_t *)(buf + sizeof(*h));
	uint64_t sum = 0;
	uint32_t i;

	if (len < sizeof(*h))
		return 0;
	memcpy(h, buf, sizeof(*h));
	if (h->magic != VPMU_UHIST_MAGIC ||
	    len != sizeof(*h) + 8ull * h->nbuckets)
		return 0;
	for (i = 0; i < h->nbuckets; i++)
		sum += b[i];
	return sum == h->samples;
}

#define NREADERS	10	/* more than the 8 snapshots kept */
#define HBUF		(sizeof(struct vpmu_uhist_header) + 8 * 4096 + 1)

/*
 * More readers than snapshots, sampling running between their reads:
 * each has read the header of cpu0 when sort runs again, then each reads
 * the rest.  No snapshot was read to its end or idle when the ninth and
 * later readers came, so each took the newest slot: the readers from the
 * eighth to the last but one read -ESTALE rather than mixing an old
 * header with new buckets, and start over at offset 0; the others read
 * the snapshot their header came from (histogram.rst).
 */
TEST_F(uhist, more_readers_than_snapshots)
{
	static uint8_t buf[NREADERS][HBUF], ref[HBUF];
	struct vpmu_uhist_header h;
	int fd[NREADERS], i;
	ssize_t len, rlen;

	VL_SETUP_DONE();
	ASSERT_EQ(0, uh_write("interval", "1"));
	ASSERT_EQ(0, uh_ctl("start"));
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	/* the histogram as the readers start, read whole by another file */
	fd[0] = open(UHIST "cpu0", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd[0]);
	rlen = hist_read_rest(fd[0], 0, HBUF, ref, HBUF);
	close(fd[0]);
	ASSERT_TRUE(hist_consistent(ref, rlen, &h));
	ASSERT_EQ(SORT_CYCLES, h.samples);

	for (i = 0; i < NREADERS; i++) {
		fd[i] = open(UHIST "cpu0", O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd[i]);
		ASSERT_EQ((ssize_t)sizeof(h), read(fd[i], buf[i], sizeof(h)));
	}
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	for (i = 0; i < NREADERS; i++) {
		len = hist_read_rest(fd[i], sizeof(h), 64, buf[i], HBUF);
		if (i >= 7 && i < NREADERS - 1) {
			EXPECT_EQ(-ESTALE, len) TH_LOG("reader %d", i);
			/* starting over gives the histogram as it is now */
			len = hist_read_rest(fd[i], 0, 64, buf[i], HBUF);
			ASSERT_TRUE(hist_consistent(buf[i], len, &h));
			EXPECT_EQ(2 * SORT_CYCLES, h.samples);
		} else {
			ASSERT_EQ(rlen, len) TH_LOG("reader %d", i);
			EXPECT_EQ(0, memcmp(ref, buf[i], rlen))
				TH_LOG("reader %d", i);
		}
		close(fd[i]);
	}
}

/*
 * A file that has read part of cpu0 is closed and another is opened,
 * which the kernel may well allocate at the closed one's address; the
 * histogram has changed between.  The new file's first read, past offset
 * 0, takes a snapshot of its own: the histogram as it is now, never the
 * closed file's.  Several rounds, with a pause for RCU-freed files.
 */
TEST_F(uhist, reopened_file_reads_fresh)
{
	static uint8_t a[HBUF], b[HBUF], ref[HBUF];
	struct vpmu_uhist_header h;
	ssize_t len, rlen;
	int round, fa, fb;

	VL_SETUP_DONE();
	ASSERT_EQ(0, uh_write("interval", "1"));
	ASSERT_EQ(0, uh_ctl("start"));
	for (round = 1; round <= 8; round++) {
		ASSERT_EQ(SORT_CYCLES, run_sort(self));
		fa = open(UHIST "cpu0", O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fa);
		ASSERT_EQ((ssize_t)sizeof(h), read(fa, a, sizeof(h)));
		memcpy(&h, a, sizeof(h));
		ASSERT_EQ((2 * round - 1) * SORT_CYCLES, h.samples);
		close(fa);
		usleep(50000);
		ASSERT_EQ(SORT_CYCLES, run_sort(self));
		fb = open(UHIST "cpu0", O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fb);
		/* starts past offset 0 */
		len = hist_read_rest(fb, sizeof(h), 64, b, HBUF);
		close(fb);
		fb = open(UHIST "cpu0", O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fb);
		rlen = hist_read_rest(fb, 0, HBUF, ref, HBUF);
		close(fb);
		ASSERT_TRUE(hist_consistent(ref, rlen, &h));
		ASSERT_EQ(2 * round * SORT_CYCLES, h.samples);
		ASSERT_EQ(rlen, len);
		ASSERT_EQ(0, memcmp(ref + sizeof(h), b + sizeof(h),
				    rlen - sizeof(h)))
			TH_LOG("round %d: a closed file's snapshot", round);
	}
}

/*
 * Sixteen processes read cpu0 and sum 64 to 184 bytes at a time, pausing
 * between reads, over and over, while another runs sortloop on CPU 0
 * with K = 1: every file read to the end is one consistent snapshot
 * (samples = the buckets' sum), or a read fails with -ESTALE and the
 * reader starts over.  Nothing else.
 */
TEST_F_TIMEOUT(uhist, concurrent_readers, 300)
{
	int i, status, failed = 0, nr = 16;
	pid_t runner, pid[16];

	VL_SETUP_DONE();
	ASSERT_EQ(0, uh_write("interval", "1"));
	ASSERT_EQ(0, uh_ctl("start"));
	runner = fork();
	ASSERT_LE(0, runner);
	if (!runner) {
		struct vpmu_run r;

		for (i = 0; i < 4; i++)
			if (vl_run(self->fd, &self->loop, self->loop_mem,
				   1000003, &r))
				_exit(1);
		_exit(0);
	}
	for (i = 0; i < nr; i++) {
		pid[i] = fork();
		ASSERT_LE(0, pid[i]);
		if (!pid[i]) {
			static uint8_t buf[HBUF];
			struct vpmu_uhist_header h;
			int whole = 0, stale = 0;
			ssize_t len;
			int fd;

			vl_pin(i % 2);
			while (whole < 20) {
				fd = open(i % 3 ? UHIST "cpu0" : UHIST "sum",
					  O_RDONLY | O_CLOEXEC);
				if (fd < 0)
					_exit(2);
				len = hist_read_slowly(fd, 0, 64 + 8 * i, buf,
						       HBUF, 500);
				close(fd);
				if (len == -ESTALE) {
					if (++stale > 100000)
						_exit(4);
					continue;
				}
				if (!hist_consistent(buf, len, &h))
					_exit(3);
				whole++;
			}
			_exit(0);
		}
	}
	for (i = 0; i < nr; i++) {
		ASSERT_EQ(pid[i], waitpid(pid[i], &status, 0));
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			TH_LOG("reader %d: status 0x%x", i, status);
			failed++;
		}
	}
	ASSERT_EQ(runner, waitpid(runner, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	EXPECT_EQ(0, failed);
}

/* CPU 1 offline: its buckets stay readable, and reset reaches them. */
TEST_F(uhist, offline_cpu)
{
	struct hist a, b;

	VL_SETUP_DONE();
	if (access(CPU1_ONLINE, F_OK))
		SKIP(return, "no %s", CPU1_ONLINE);
	ASSERT_EQ(0, uh_write("interval", "1"));
	ASSERT_EQ(0, uh_ctl("start"));
	ASSERT_EQ(0, vl_pin(1));
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	ASSERT_EQ(0, vl_pin(0));
	ASSERT_EQ(0, uh_read("cpu1", &a));
	EXPECT_EQ(SORT_CYCLES, a.h.samples);
	EXPECT_EQ(1u, a.h.cpu);
	ASSERT_EQ(0, cpu1_set(0));
	ASSERT_EQ(0, uh_read("cpu1", &b));
	EXPECT_EQ(0, memcmp(a.b, b.b, 8ull * a.h.nbuckets));
	hist_free(&b);
	ASSERT_EQ(0, uh_read("sum", &b));
	EXPECT_EQ(SORT_CYCLES, b.h.samples);
	hist_free(&b);
	ASSERT_EQ(0, uh_ctl("reset"));
	ASSERT_EQ(0, uh_read("cpu1", &b));
	EXPECT_TRUE(hist_zero(&b));
	hist_free(&b);
	ASSERT_EQ(0, cpu1_set(1));
	ASSERT_EQ(0, uh_read("cpu1", &b));
	EXPECT_TRUE(hist_zero(&b));
	hist_free(&b);
	hist_free(&a);
}

/*
 * Another image: an engine's buckets belong to the image it runs, and
 * restart when it first runs another; the sum covers only engines on the
 * current image.
 */
TEST_F(uhist, new_image)
{
	unsigned long long gen;
	uint64_t cycles;
	struct hist x;
	uint8_t *img, *v;
	size_t len;

	VL_SETUP_DONE();
	img = vl_read_image(&len);
	ASSERT_NE(NULL, img);
	v = vl_variant(img, len, "uhist-test", 8);
	ASSERT_NE(NULL, v);
	ASSERT_EQ(0, uh_write("interval", "1"));
	ASSERT_EQ(0, uh_ctl("start"));
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	gen = vl_generation();
	ASSERT_EQ(0, vl_write_image(v, len, len));
	ASSERT_EQ(gen + 1, vl_generation());
	/* CPU 0 has not run the new image yet */
	ASSERT_EQ(0, uh_read("cpu0", &x));
	EXPECT_EQ(gen, x.h.generation);
	EXPECT_EQ(SORT_CYCLES, x.h.samples);
	hist_free(&x);
	ASSERT_EQ(0, uh_read("sum", &x));
	EXPECT_EQ(gen + 1, x.h.generation);
	EXPECT_EQ(((struct vpmu_image_header *)v)->checksum,
		  x.h.image_checksum);
	EXPECT_EQ(0u, x.h.samples);
	hist_free(&x);
	cycles = run_sort(self);
	ASSERT_NE(0ull, cycles);
	ASSERT_EQ(0, uh_read("cpu0", &x));
	EXPECT_EQ(gen + 1, x.h.generation);
	EXPECT_EQ(cycles, x.h.samples);
	hist_free(&x);
	ASSERT_EQ(0, vl_load_default());
	ASSERT_EQ(SORT_CYCLES, run_sort(self));
	free(v);
	free(img);
}

TEST_HARNESS_MAIN
