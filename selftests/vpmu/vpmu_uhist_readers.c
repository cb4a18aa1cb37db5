// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_uhist_readers - the micro-PC histogram's files read while sampling
 * runs (Documentation/admin-guide/perf/vpmu.rst, "sysfs").
 *
 * Every read of uhist/cpu0 and uhist/sum is a whole, valid file whose
 * samples never go down; a reader whose snapshot went to another (more
 * readers than snapshots) is told so with ESTALE and starts over; a file
 * opened where a closed one was reads a snapshot of its own; sixteen
 * readers reading in pieces only ever see consistent snapshots.  Skips
 * without uhist/, /dev/vpmu or the assembled samples.
 */
#define _GNU_SOURCE
#include <sys/wait.h>
#include "vpmu_uhist.h"

/*
 * A child pinned to CPU 0 runs sortloop (many chunks) over and over while
 * this process reads cpu0 and sum: every read is a whole, valid file whose
 * samples never go down; at the end they are the child's cycles exactly.
 */
TEST_F_TIMEOUT(uhist, read_while_sampling, 300)
{
	uint64_t total = 0, last = 0, last_sum = 0;
	int p[2], status, reads = 0;
	struct vt_hist x;
	pid_t pid;

	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "1"));
	ASSERT_EQ(0, vt_uhist_ctl("start"));
	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct vpmu_run r;
		uint64_t sum = 0;
		int i;

		close(p[0]);
		for (i = 0; i < 8; i++) {
			if (vt_run(self->fd, &self->loop, self->loop_mem,
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
	vt_pin(1);
	for (;;) {
		ASSERT_EQ(0, vt_uhist_read("cpu0", &x));
		EXPECT_LE(last, x.h.samples);
		last = x.h.samples;
		vt_hist_free(&x);
		ASSERT_EQ(0, vt_uhist_read("sum", &x));
		EXPECT_LE(last_sum, x.h.samples);
		last_sum = x.h.samples;
		vt_hist_free(&x);
		reads++;
		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
	}
	ASSERT_TRUE(WIFEXITED(status));
	ASSERT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ((ssize_t)sizeof(total), read(p[0], &total, sizeof(total)));
	close(p[0]);
	ASSERT_EQ(0, vt_uhist_read("cpu0", &x));
	EXPECT_EQ(total, x.h.samples);
	vt_hist_free(&x);
	ASSERT_EQ(0, vt_uhist_read("sum", &x));
	EXPECT_EQ(total, x.h.samples);
	vt_hist_free(&x);
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
 * the snapshot their header came from.
 */
TEST_F(uhist, more_readers_than_snapshots)
{
	static uint8_t buf[NREADERS][HBUF], ref[HBUF];
	struct vpmu_uhist_header h;
	int fd[NREADERS], i;
	ssize_t len, rlen;

	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "1"));
	ASSERT_EQ(0, vt_uhist_ctl("start"));
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	/* the histogram as the readers start, read whole by another file */
	fd[0] = open(VT_UHIST "cpu0", O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd[0]);
	rlen = hist_read_rest(fd[0], 0, HBUF, ref, HBUF);
	close(fd[0]);
	ASSERT_TRUE(hist_consistent(ref, rlen, &h));
	ASSERT_EQ(VT_SORT_CYCLES, h.samples);

	for (i = 0; i < NREADERS; i++) {
		fd[i] = open(VT_UHIST "cpu0", O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fd[i]);
		ASSERT_EQ((ssize_t)sizeof(h), read(fd[i], buf[i], sizeof(h)));
	}
	ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
	for (i = 0; i < NREADERS; i++) {
		len = hist_read_rest(fd[i], sizeof(h), 64, buf[i], HBUF);
		if (i >= 7 && i < NREADERS - 1) {
			EXPECT_EQ(-ESTALE, len) TH_LOG("reader %d", i);
			/* starting over gives the histogram as it is now */
			len = hist_read_rest(fd[i], 0, 64, buf[i], HBUF);
			ASSERT_TRUE(hist_consistent(buf[i], len, &h));
			EXPECT_EQ(2 * VT_SORT_CYCLES, h.samples);
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

	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "1"));
	ASSERT_EQ(0, vt_uhist_ctl("start"));
	for (round = 1; round <= 8; round++) {
		ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
		fa = open(VT_UHIST "cpu0", O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fa);
		ASSERT_EQ((ssize_t)sizeof(h), read(fa, a, sizeof(h)));
		memcpy(&h, a, sizeof(h));
		ASSERT_EQ((2 * round - 1) * VT_SORT_CYCLES, h.samples);
		close(fa);
		usleep(50000);
		ASSERT_EQ(VT_SORT_CYCLES, vt_run_sort(self));
		fb = open(VT_UHIST "cpu0", O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fb);
		/* starts past offset 0 */
		len = hist_read_rest(fb, sizeof(h), 64, b, HBUF);
		close(fb);
		fb = open(VT_UHIST "cpu0", O_RDONLY | O_CLOEXEC);
		ASSERT_LE(0, fb);
		rlen = hist_read_rest(fb, 0, HBUF, ref, HBUF);
		close(fb);
		ASSERT_TRUE(hist_consistent(ref, rlen, &h));
		ASSERT_EQ(2 * round * VT_SORT_CYCLES, h.samples);
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

	ASSERT_EQ(0, vt_pmu_write("uhist/interval", "1"));
	ASSERT_EQ(0, vt_uhist_ctl("start"));
	runner = fork();
	ASSERT_LE(0, runner);
	if (!runner) {
		struct vpmu_run r;

		for (i = 0; i < 4; i++)
			if (vt_run(self->fd, &self->loop, self->loop_mem,
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

			vt_pin(i % 2);
			while (whole < 20) {
				fd = open(i % 3 ? VT_UHIST "cpu0" : VT_UHIST "sum",
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

TEST_HARNESS_MAIN
