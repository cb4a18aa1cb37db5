// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_ucode - the sysfs microcode loader
 * (Documentation/admin-guide/perf/vpmu.rst, "sysfs"): valid images.
 *
 * Valid images (the built-in one read back, the shipped default.vpmu and
 * max.vpmu) are accepted and read back byte-identical; partial images
 * leave everything as it was and programs running, a write at offset 0
 * starts again; non-root writers are refused; generations and
 * load_default.  Malformed images are vpmu_ucode_bad's.  Needs root;
 * skips without the loader.
 */
#define _GNU_SOURCE
#include <sys/wait.h>
#include "vpmu_ucode.h"

/* The checksum vt_seal() computes for a copy of @img. */
static uint32_t resealed_crc(const uint8_t *img, size_t len)
{
	uint8_t *c = malloc(len);
	uint32_t crc;

	if (!c)
		return 0;
	memcpy(c, img, len);
	vt_seal(c, len);
	crc = ((struct vpmu_image_header *)c)->checksum;
	free(c);
	return crc;
}

FIXTURE(ucode) {
	uint8_t *img;		/* the built-in image, read back */
	size_t len;
	unsigned long long gen;
};

FIXTURE_SETUP(ucode)
{
	if (vt_need_loader(_metadata))
		return;
	ASSERT_EQ(0, vt_load_default());
	self->img = vt_read_image(&self->len);
	ASSERT_NE(NULL, self->img);
	ASSERT_GE(self->len, sizeof(struct vpmu_image_header));
	self->gen = vt_generation();
	ASSERT_GT(self->gen, 0ull);
}

FIXTURE_TEARDOWN(ucode)
{
	if (self->img)
		vt_load_default();
	free(self->img);
}

TEST_F(ucode, builtin_reads_back_and_reloads)
{
	const struct vpmu_image_header *h = (void *)self->img;
	char buf[64];
	uint8_t *back;
	size_t len;

	EXPECT_EQ((__u32)VPMU_IMAGE_MAGIC, h->magic);
	EXPECT_EQ(self->len, h->total_size);
	EXPECT_EQ(h->checksum, resealed_crc(self->img, self->len));
	ASSERT_EQ(0, vt_ucode_attr("name", buf, sizeof(buf)));
	EXPECT_STREQ(VT_DEFAULT_NAME, buf);
	vt_assert_status(_metadata, "ok");
	ASSERT_EQ(0, vt_ucode_attr("error", buf, sizeof(buf)));
	EXPECT_STREQ("", buf);

	ASSERT_EQ(0, vt_write_image(self->img, self->len, VT_CHUNK));
	EXPECT_EQ(self->gen + 1, vt_generation());
	vt_assert_status(_metadata, "ok");
	back = vt_read_image(&len);
	ASSERT_NE(NULL, back);
	ASSERT_EQ(self->len, len);
	EXPECT_EQ(0, memcmp(self->img, back, len));
	free(back);
	vt_assert_runs(_metadata, self->gen + 1);
}

TEST_F(ucode, odd_chunks)
{
	ASSERT_EQ(0, vt_write_image(self->img, self->len, 7));
	EXPECT_EQ(self->gen + 1, vt_generation());
	vt_assert_status(_metadata, "ok");
}

TEST_F(ucode, shipped_default_identical)
{
	uint8_t *img;
	size_t len;

	img = vt_read_share("build/default.vpmu", &len);
	if (!img)
		SKIP(return, "no build/default.vpmu in $VPMU_SHARE");
	ASSERT_EQ(self->len, len);
	EXPECT_EQ(0, memcmp(self->img, img, len));
	ASSERT_EQ(0, vt_write_image(img, len, VT_CHUNK));
	EXPECT_EQ(self->gen + 1, vt_generation());
	free(img);
}

TEST_F(ucode, max_size_image)
{
	struct vpmu_image_header *h;
	uint8_t *img, *back;
	size_t len, blen;
	char buf[64];

	img = vt_read_share("build/max.vpmu", &len);
	if (!img)
		SKIP(return, "no build/max.vpmu in $VPMU_SHARE");
	h = (void *)img;
	ASSERT_EQ(VPMU_CS_MAX, h->cs_words);
	ASSERT_EQ(0, vt_write_image(img, len, VT_CHUNK));
	EXPECT_EQ(self->gen + 1, vt_generation());
	ASSERT_EQ(0, vt_ucode_attr("name", buf, sizeof(buf)));
	EXPECT_STREQ("vpmu32-max", buf);
	back = vt_read_image(&blen);
	ASSERT_NE(NULL, back);
	ASSERT_EQ(len, blen);
	EXPECT_EQ(0, memcmp(img, back, len));
	/* the same microcode padded with HALTs: same results */
	vt_assert_runs(_metadata, self->gen + 1);
	free(back);
	free(img);
}

TEST_F(ucode, partial_image_left_incomplete)
{
	struct vt_snap s;
	int fd;

	vt_snap_take(&s);
	fd = open(VT_UCODE "image", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)self->len / 2, write(fd, self->img, self->len / 2));
	close(fd);
	vt_assert_status(_metadata, "incomplete");
	vt_assert_unchanged(_metadata, &s);
	vt_assert_runs(_metadata, s.gen);
	/* a write at offset 0 discards it and starts again */
	ASSERT_EQ(0, vt_write_image(self->img, self->len, VT_CHUNK));
	vt_assert_status(_metadata, "ok");
	EXPECT_EQ(s.gen + 1, vt_generation());
	/* so does load_default */
	fd = open(VT_UCODE "image", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(100, write(fd, self->img, 100));
	close(fd);
	vt_assert_status(_metadata, "incomplete");
	ASSERT_EQ(0, vt_load_default());
	vt_assert_status(_metadata, "ok");
	EXPECT_EQ(s.gen + 2, vt_generation());
	vt_snap_free(&s);
}

TEST_F(ucode, restart_at_offset_0)
{
	size_t off;
	ssize_t n;
	int fd;

	fd = open(VT_UCODE "image", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(100, write(fd, self->img, 100));
	ASSERT_EQ(100, pwrite(fd, self->img, 100, 0));
	/* the rest at explicit offsets (sysfs takes a page per write) */
	for (off = 100; off < self->len; off += n) {
		n = pwrite(fd, self->img + off, self->len - off, off);
		ASSERT_LT(0, n);
	}
	close(fd);
	vt_assert_status(_metadata, "ok");
	EXPECT_EQ(self->gen + 1, vt_generation());
}

TEST_F(ucode, non_contiguous_write)
{
	struct vt_snap s;
	size_t off;
	ssize_t n;
	int fd;

	vt_snap_take(&s);
	fd = open(VT_UCODE "image", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	/* nothing pending: a write past 0 is refused */
	EXPECT_EQ(-1, pwrite(fd, self->img + 64, 64, 64));
	EXPECT_EQ(EINVAL, errno);
	/* a gap after a partial image */
	ASSERT_EQ(64, pwrite(fd, self->img, 64, 0));
	EXPECT_EQ(-1, pwrite(fd, self->img + 128, 64, 128));
	EXPECT_EQ(EINVAL, errno);
	vt_assert_status(_metadata, "incomplete");
	vt_assert_unchanged(_metadata, &s);
	vt_assert_runs(_metadata, s.gen);
	/* the partial image is still pending: continue where it ends */
	for (off = 64; off < self->len; off += n) {
		n = pwrite(fd, self->img + off, self->len - off, off);
		ASSERT_LT(0, n);
	}
	close(fd);
	vt_assert_status(_metadata, "ok");
	EXPECT_EQ(s.gen + 1, vt_generation());
	vt_snap_free(&s);
}

/* In a child with uid/gid 65534: every loader write is refused. */
TEST_F(ucode, non_root_refused)
{
	struct vt_snap s;
	pid_t pid;
	int st;

	vt_snap_take(&s);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int bad = 0, fd;

		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(10);
		fd = open(VT_UCODE "image", O_WRONLY);
		bad |= !(fd < 0 && errno == EACCES) << 0;
		fd = open(VT_UCODE "image", O_RDONLY);
		bad |= !(fd < 0 && errno == EACCES) << 1;
		fd = open(VT_UCODE "load_default", O_WRONLY);
		bad |= !(fd < 0 && errno == EACCES) << 2;
		/* everyone may read the rest */
		fd = open(VT_UCODE "generation", O_RDONLY);
		bad |= (fd < 0) << 3;
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st)) {
		TH_LOG("child: status %d (10: setresuid failed; bits: image write, image read, load_default, generation)",
		       WEXITSTATUS(st));
	}
	vt_assert_unchanged(_metadata, &s);
	vt_snap_free(&s);
}

TEST_F(ucode, generation_and_load_default)
{
	uint8_t *v, *back;
	char buf[64], ver[32];
	size_t len;

	v = vt_variant(self->img, self->len, "vpmu32-variant", 9);
	ASSERT_NE(NULL, v);
	/* failures never count */
	v[0] ^= 1;
	EXPECT_EQ(-ENOEXEC, vt_write_image(v, self->len, VT_CHUNK));
	EXPECT_EQ(self->gen, vt_generation());
	v[0] ^= 1;
	ASSERT_EQ(0, vt_write_image(v, self->len, VT_CHUNK));
	EXPECT_EQ(self->gen + 1, vt_generation());
	ASSERT_EQ(0, vt_ucode_attr("name", buf, sizeof(buf)));
	EXPECT_STREQ("vpmu32-variant", buf);
	ASSERT_EQ(0, vt_ucode_attr("version", ver, sizeof(ver)));
	EXPECT_EQ(((struct vpmu_image_header *)v)->image_version,
		  strtoul(ver, NULL, 0));
	/* the built-in image again */
	ASSERT_EQ(0, vt_load_default());
	EXPECT_EQ(self->gen + 2, vt_generation());
	ASSERT_EQ(0, vt_ucode_attr("name", buf, sizeof(buf)));
	EXPECT_STREQ(VT_DEFAULT_NAME, buf);
	vt_assert_status(_metadata, "ok");
	back = vt_read_image(&len);
	ASSERT_NE(NULL, back);
	ASSERT_EQ(self->len, len);
	EXPECT_EQ(0, memcmp(self->img, back, len));
	vt_assert_runs(_metadata, self->gen + 2);
	free(back);
	free(v);
}

TEST_F(ucode, load_default_bad_values)
{
	int fd;

	fd = open(VT_UCODE "load_default", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, write(fd, "2", 1));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	EXPECT_EQ(self->gen, vt_generation());
}

TEST_HARNESS_MAIN
