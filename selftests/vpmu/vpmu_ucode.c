// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_ucode - the sysfs microcode loader (Documentation/vpmu/module.rst).
 *
 * Valid images (the built-in one read back, the shipped default.vpmu and
 * max.vpmu) are accepted and read back byte-identical; every kind of
 * malformed image, built by corrupting the built-in one and resealing its
 * CRC, is refused with the validator's errno, status "rejected" and the
 * errno's name and reason in ucode/error, leaving name, generation and
 * image unchanged and programs running; partial images, non-root writers,
 * generations and load_default.  Needs root; skips without the loader.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/wait.h>
#include "vpmu_test.h"

#ifndef VPMU_IMAGE_MAX
#define VPMU_IMAGE_MAX	(1u << 20)
#endif

#define CHUNK	4096
#define HOFF(f)	offsetof(struct vpmu_image_header, f)

/* The image's state that a failed load must leave alone. */
struct snap {
	char name[64], version[32];
	unsigned long long gen;
	uint8_t *img;
	size_t len;
};

static void snap_take(struct snap *s)
{
	vl_attr("name", s->name, sizeof(s->name));
	vl_attr("version", s->version, sizeof(s->version));
	s->gen = vl_generation();
	s->img = vl_read_image(&s->len);
}

static void snap_free(struct snap *s)
{
	free(s->img);
	s->img = NULL;
}

/* Name, version, generation and bytes are still those of @s. */
static void assert_unchanged(struct __test_metadata *_metadata,
			     const struct snap *s)
{
	struct snap now;

	snap_take(&now);
	EXPECT_STREQ(s->name, now.name);
	EXPECT_STREQ(s->version, now.version);
	EXPECT_EQ(s->gen, now.gen);
	ASSERT_NE(NULL, now.img);
	EXPECT_EQ(s->len, now.len);
	EXPECT_EQ(0, memcmp(s->img, now.img, s->len < now.len ? s->len : now.len));
	snap_free(&now);
}

/*
 * sum.s still gives its result on the current image, generation @gen.
 * Skipped (logged) when there is no run device or no sample.
 */
static void assert_runs(struct __test_metadata *_metadata,
			unsigned long long gen)
{
	struct vl_prog p;
	struct vpmu_run r;
	uint8_t *mem;
	int fd;

	fd = open(VPMU_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0 || vl_prog_load(&p, "build/sum.vprg")) {
		TH_LOG("no %s or build/sum.vprg: run not checked", VPMU_DEV);
		if (fd >= 0)
			close(fd);
		return;
	}
	mem = vl_prog_mem(&p);
	ASSERT_NE(NULL, mem);
	ASSERT_EQ(0, vl_run(fd, &p, mem, 1000000, &r));
	EXPECT_EQ((__u32)VPMU_RUN_HALT, r.stop);
	EXPECT_EQ(SUM_R2, r.regs[2]);
	EXPECT_EQ(SUM_CYCLES, r.cycles);
	EXPECT_EQ(gen, r.generation);
	free(mem);
	vl_prog_free(&p);
	close(fd);
}

static void assert_status(struct __test_metadata *_metadata, const char *want)
{
	char buf[64];

	ASSERT_EQ(0, vl_attr("status", buf, sizeof(buf)));
	EXPECT_STREQ(want, buf);
}

/* The checksum vl_seal() computes for a copy of @img. */
static uint32_t resealed_crc(const uint8_t *img, size_t len)
{
	uint8_t *c = malloc(len);
	uint32_t crc;

	if (!c)
		return 0;
	memcpy(c, img, len);
	vl_seal(c, len);
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
	if (!vl_have_loader())
		SKIP(return, "no %s (module without the loader?)", VPMU_UCODE);
	if (geteuid())
		SKIP(return, "the loader needs root");
	ASSERT_EQ(0, vl_load_default());
	self->img = vl_read_image(&self->len);
	ASSERT_NE(NULL, self->img);
	ASSERT_GE(self->len, sizeof(struct vpmu_image_header));
	self->gen = vl_generation();
	ASSERT_GT(self->gen, 0ull);
}

FIXTURE_TEARDOWN(ucode)
{
	if (self->img)
		vl_load_default();
	free(self->img);
}

TEST_F(ucode, builtin_reads_back_and_reloads)
{
	const struct vpmu_image_header *h = (void *)self->img;
	char buf[64];
	uint8_t *back;
	size_t len;

	VL_SETUP_DONE();

	EXPECT_EQ((__u32)VPMU_IMAGE_MAGIC, h->magic);
	EXPECT_EQ(self->len, h->total_size);
	EXPECT_EQ(h->checksum, resealed_crc(self->img, self->len));
	ASSERT_EQ(0, vl_attr("name", buf, sizeof(buf)));
	EXPECT_STREQ(VPMU_DEFAULT_NAME, buf);
	assert_status(_metadata, "ok");
	ASSERT_EQ(0, vl_attr("error", buf, sizeof(buf)));
	EXPECT_STREQ("", buf);

	ASSERT_EQ(0, vl_write_image(self->img, self->len, CHUNK));
	EXPECT_EQ(self->gen + 1, vl_generation());
	assert_status(_metadata, "ok");
	back = vl_read_image(&len);
	ASSERT_NE(NULL, back);
	ASSERT_EQ(self->len, len);
	EXPECT_EQ(0, memcmp(self->img, back, len));
	free(back);
	assert_runs(_metadata, self->gen + 1);
}

TEST_F(ucode, odd_chunks)
{
	VL_SETUP_DONE();

	ASSERT_EQ(0, vl_write_image(self->img, self->len, 7));
	EXPECT_EQ(self->gen + 1, vl_generation());
	assert_status(_metadata, "ok");
}

TEST_F(ucode, shipped_default_identical)
{
	uint8_t *img;
	size_t len;

	VL_SETUP_DONE();

	img = vl_read_share("build/default.vpmu", &len);
	if (!img)
		SKIP(return, "no build/default.vpmu in $VPMU_SHARE");
	ASSERT_EQ(self->len, len);
	EXPECT_EQ(0, memcmp(self->img, img, len));
	ASSERT_EQ(0, vl_write_image(img, len, CHUNK));
	EXPECT_EQ(self->gen + 1, vl_generation());
	free(img);
}

TEST_F(ucode, max_size_image)
{
	struct vpmu_image_header *h;
	uint8_t *img, *back;
	size_t len, blen;
	char buf[64];

	VL_SETUP_DONE();

	img = vl_read_share("build/max.vpmu", &len);
	if (!img)
		SKIP(return, "no build/max.vpmu in $VPMU_SHARE");
	h = (void *)img;
	ASSERT_EQ(VPMU_CS_MAX, h->cs_words);
	ASSERT_EQ(0, vl_write_image(img, len, CHUNK));
	EXPECT_EQ(self->gen + 1, vl_generation());
	ASSERT_EQ(0, vl_attr("name", buf, sizeof(buf)));
	EXPECT_STREQ("vpmu32-max", buf);
	back = vl_read_image(&blen);
	ASSERT_NE(NULL, back);
	ASSERT_EQ(len, blen);
	EXPECT_EQ(0, memcmp(img, back, len));
	/* the same microcode padded with HALTs: same results */
	assert_runs(_metadata, self->gen + 1);
	free(back);
	free(img);
}

TEST_F(ucode, partial_image_left_incomplete)
{
	struct snap s;
	int fd;

	VL_SETUP_DONE();

	snap_take(&s);
	fd = open(VPMU_UCODE "image", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)self->len / 2, write(fd, self->img, self->len / 2));
	close(fd);
	assert_status(_metadata, "incomplete");
	assert_unchanged(_metadata, &s);
	assert_runs(_metadata, s.gen);
	/* a write at offset 0 discards it and starts again */
	ASSERT_EQ(0, vl_write_image(self->img, self->len, CHUNK));
	assert_status(_metadata, "ok");
	EXPECT_EQ(s.gen + 1, vl_generation());
	/* so does load_default */
	fd = open(VPMU_UCODE "image", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(100, write(fd, self->img, 100));
	close(fd);
	assert_status(_metadata, "incomplete");
	ASSERT_EQ(0, vl_load_default());
	assert_status(_metadata, "ok");
	EXPECT_EQ(s.gen + 2, vl_generation());
	snap_free(&s);
}

TEST_F(ucode, restart_at_offset_0)
{
	size_t off;
	ssize_t n;
	int fd;

	VL_SETUP_DONE();

	fd = open(VPMU_UCODE "image", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(100, write(fd, self->img, 100));
	ASSERT_EQ(100, pwrite(fd, self->img, 100, 0));
	/* the rest at explicit offsets (sysfs takes a page per write) */
	for (off = 100; off < self->len; off += n) {
		n = pwrite(fd, self->img + off, self->len - off, off);
		ASSERT_LT(0, n);
	}
	close(fd);
	assert_status(_metadata, "ok");
	EXPECT_EQ(self->gen + 1, vl_generation());
}

TEST_F(ucode, non_contiguous_write)
{
	struct snap s;
	size_t off;
	ssize_t n;
	int fd;

	VL_SETUP_DONE();

	snap_take(&s);
	fd = open(VPMU_UCODE "image", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	/* nothing pending: a write past 0 is refused */
	EXPECT_EQ(-1, pwrite(fd, self->img + 64, 64, 64));
	EXPECT_EQ(EINVAL, errno);
	/* a gap after a partial image */
	ASSERT_EQ(64, pwrite(fd, self->img, 64, 0));
	EXPECT_EQ(-1, pwrite(fd, self->img + 128, 64, 128));
	EXPECT_EQ(EINVAL, errno);
	assert_status(_metadata, "incomplete");
	assert_unchanged(_metadata, &s);
	assert_runs(_metadata, s.gen);
	/* the partial image is still pending: continue where it ends */
	for (off = 64; off < self->len; off += n) {
		n = pwrite(fd, self->img + off, self->len - off, off);
		ASSERT_LT(0, n);
	}
	close(fd);
	assert_status(_metadata, "ok");
	EXPECT_EQ(s.gen + 1, vl_generation());
	snap_free(&s);
}

/* In a child with uid/gid 65534: every loader write is refused. */
TEST_F(ucode, non_root_refused)
{
	struct snap s;
	pid_t pid;
	int st;

	VL_SETUP_DONE();

	snap_take(&s);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int bad = 0, fd;

		if (setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(10);
		fd = open(VPMU_UCODE "image", O_WRONLY);
		bad |= !(fd < 0 && errno == EACCES) << 0;
		fd = open(VPMU_UCODE "image", O_RDONLY);
		bad |= !(fd < 0 && errno == EACCES) << 1;
		fd = open(VPMU_UCODE "load_default", O_WRONLY);
		bad |= !(fd < 0 && errno == EACCES) << 2;
		/* everyone may read the rest */
		fd = open(VPMU_UCODE "generation", O_RDONLY);
		bad |= (fd < 0) << 3;
		_exit(bad);
	}
	ASSERT_EQ(pid, waitpid(pid, &st, 0));
	ASSERT_TRUE(WIFEXITED(st));
	EXPECT_EQ(0, WEXITSTATUS(st)) {
		TH_LOG("child: status %d (10: setresuid failed; bits: image "
		       "write, image read, load_default, generation)",
		       WEXITSTATUS(st));
	}
	assert_unchanged(_metadata, &s);
	snap_free(&s);
}

TEST_F(ucode, generation_and_load_default)
{
	uint8_t *v, *back;
	char buf[64], ver[32];
	size_t len;

	VL_SETUP_DONE();

	v = vl_variant(self->img, self->len, "vpmu32-variant", 9);
	ASSERT_NE(NULL, v);
	/* failures never count */
	v[0] ^= 1;
	EXPECT_EQ(-ENOEXEC, vl_write_image(v, self->len, CHUNK));
	EXPECT_EQ(self->gen, vl_generation());
	v[0] ^= 1;
	ASSERT_EQ(0, vl_write_image(v, self->len, CHUNK));
	EXPECT_EQ(self->gen + 1, vl_generation());
	ASSERT_EQ(0, vl_attr("name", buf, sizeof(buf)));
	EXPECT_STREQ("vpmu32-variant", buf);
	ASSERT_EQ(0, vl_attr("version", ver, sizeof(ver)));
	EXPECT_EQ(((struct vpmu_image_header *)v)->image_version,
		  strtoul(ver, NULL, 0));
	/* the built-in image again */
	ASSERT_EQ(0, vl_load_default());
	EXPECT_EQ(self->gen + 2, vl_generation());
	ASSERT_EQ(0, vl_attr("name", buf, sizeof(buf)));
	EXPECT_STREQ(VPMU_DEFAULT_NAME, buf);
	assert_status(_metadata, "ok");
	back = vl_read_image(&len);
	ASSERT_NE(NULL, back);
	ASSERT_EQ(self->len, len);
	EXPECT_EQ(0, memcmp(self->img, back, len));
	assert_runs(_metadata, self->gen + 2);
	free(back);
	free(v);
}

TEST_F(ucode, load_default_bad_values)
{
	int fd;

	VL_SETUP_DONE();

	fd = open(VPMU_UCODE "load_default", O_WRONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, write(fd, "2", 1));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	EXPECT_EQ(self->gen, vl_generation());
}

/* ---- malformed images ---------------------------------------------------- */

/* Index of the first microword whose sequencer field is @seq, or -1. */
static int find_seq(const uint8_t *img, unsigned int seq)
{
	const struct vpmu_image_header *h = (const void *)img;
	uint32_t i;
	uint64_t uw;

	for (i = 0; i < h->cs_words; i++) {
		memcpy(&uw, img + h->cs_offset + 8 * i, 8);
		if ((uw >> VPMU_UW_SEQ_SHIFT & 0xf) == seq)
			return i;
	}
	return -1;
}

static void set_uword(uint8_t *img, int i, uint64_t clear, uint64_t set)
{
	const struct vpmu_image_header *h = (const void *)img;
	uint64_t uw;

	memcpy(&uw, img + h->cs_offset + 8 * i, 8);
	uw = (uw & ~clear) | set;
	memcpy(img + h->cs_offset + 8 * i, &uw, 8);
}

#define HDR(img)	((struct vpmu_image_header *)(img))
#define TARGET_MASK	(0xfffull << VPMU_UW_TARGET_SHIFT)

/* Each returns the number of bytes to write (the image's by default). */
static size_t bad_magic(uint8_t *img, size_t len)
{
	HDR(img)->magic = 0x4d504856;
	return len;
}

static size_t bad_version(uint8_t *img, size_t len)
{
	HDR(img)->version = 2;
	return len;
}

static size_t bad_size(uint8_t *img, size_t len)
{
	HDR(img)->total_size = len - 8;	/* 8 bytes too many arrive */
	return len;
}

static size_t small_size(uint8_t *img, size_t len)
{
	HDR(img)->total_size = 16;
	return len;
}

static size_t huge_size(uint8_t *img, size_t len)
{
	HDR(img)->total_size = VPMU_IMAGE_MAX + 8;
	return len;
}

static size_t bad_checksum(uint8_t *img, size_t len)
{
	HDR(img)->checksum ^= 0x1234;
	return len;
}

static size_t bad_reserved_hdr(uint8_t *img, size_t len)
{
	HDR(img)->reserved[3] = 1;
	return len;
}

static size_t too_big(uint8_t *img, size_t len)
{
	HDR(img)->cs_words = VPMU_CS_MAX + 1;
	return len;
}

static size_t bad_evmode(uint8_t *img, size_t len)
{
	HDR(img)->ev_mode = 7;
	return len;
}

static size_t bad_param(uint8_t *img, size_t len)
{
	HDR(img)->dc_lines = 3;		/* not a power of 2 */
	return len;
}

static size_t reserved_opcode(uint8_t *img, size_t len)
{
	set_uword(img, 0, 0x3full << VPMU_UW_OP_SHIFT,
		  0x3full << VPMU_UW_OP_SHIFT);
	return len;
}

static size_t reserved_field(uint8_t *img, size_t len)
{
	int i = find_seq(img, 0);	/* NEXT: TARGET must be zero */

	if (i >= 0)
		set_uword(img, i, TARGET_MASK, 1ull << VPMU_UW_TARGET_SHIFT);
	return i < 0 ? 0 : len;
}

static size_t target_outside(uint8_t *img, size_t len)
{
	int i = find_seq(img, 1);	/* JUMP */

	if (i >= 0)
		set_uword(img, i, TARGET_MASK, TARGET_MASK);
	return i < 0 ? 0 : len;
}

static size_t idtab_outside(uint8_t *img, size_t len)
{
	uint32_t a = HDR(img)->cs_words;

	memcpy(img + HDR(img)->id_offset, &a, 4);
	return len;
}

FIXTURE(bad) {
	struct snap s;
	uint8_t *img;
	size_t len;
};

FIXTURE_VARIANT(bad) {
	size_t (*corrupt)(uint8_t *img, size_t len);
	bool reseal;
	int err;
	const char *errname;
	const char *text;	/* in ucode/error after "NAME (N): " */
};

#define BAD(vname, fn, rs, e, t)					\
	FIXTURE_VARIANT_ADD(bad, vname) {				\
		.corrupt = fn, .reseal = rs, .err = e, .errname = #e,	\
		.text = t,						\
	}

BAD(magic, bad_magic, true, ENOEXEC, "bad magic number");
BAD(version, bad_version, true, EPROTONOSUPPORT, "unsupported image version");
BAD(total_size_mismatch, bad_size, true, EMSGSIZE, "total_size");
BAD(total_size_below_header, small_size, false, EINVAL, "total_size 16");
BAD(total_size_too_big, huge_size, false, EFBIG, "larger than the largest");
BAD(checksum, bad_checksum, false, EBADMSG, "checksum mismatch");
BAD(header_reserved, bad_reserved_hdr, true, EINVAL, "reserved header field");
BAD(too_big_for_cs_size, too_big, true, EFBIG, "control store larger");
BAD(ev_mode, bad_evmode, true, EDOM, "bad event-field mode");
BAD(machine_param, bad_param, true, EDOM, "machine parameter");
BAD(reserved_opcode, reserved_opcode, true, EILSEQ, "reserved ALU");
BAD(reserved_uword_bits, reserved_field, true, EILSEQ, "unused microword field not zero");
BAD(target_out_of_range, target_outside, true, ENXIO, "micro-address outside");
BAD(idtab_out_of_range, idtab_outside, true, ENXIO, "ID-table entry outside");

FIXTURE_SETUP(bad)
{
	if (!vl_have_loader())
		SKIP(return, "no %s (module without the loader?)", VPMU_UCODE);
	if (geteuid())
		SKIP(return, "the loader needs root");
	ASSERT_EQ(0, vl_load_default());
	snap_take(&self->s);
	ASSERT_NE(NULL, self->s.img);
	self->len = self->s.len;
	self->img = malloc(self->len);
	ASSERT_NE(NULL, self->img);
	memcpy(self->img, self->s.img, self->len);
}

FIXTURE_TEARDOWN(bad)
{
	if (self->img)
		vl_load_default();
	free(self->img);
	snap_free(&self->s);
}

TEST_F(bad, rejected)
{
	char err[512], want[64];
	size_t n;

	VL_SETUP_DONE();

	n = variant->corrupt(self->img, self->len);
	ASSERT_NE((size_t)0, n) TH_LOG("no microword to corrupt in the default image");
	if (variant->reseal)
		vl_seal(self->img, self->len);
	EXPECT_EQ(-variant->err, vl_write_image(self->img, n, CHUNK)) {
		vl_attr("error", err, sizeof(err));
		TH_LOG("ucode/error: %s", err);
	}
	assert_status(_metadata, "rejected");
	ASSERT_EQ(0, vl_attr("error", err, sizeof(err)));
	snprintf(want, sizeof(want), "%s (%d): ", variant->errname, variant->err);
	EXPECT_EQ(0, strncmp(err, want, strlen(want)))
		TH_LOG("ucode/error '%s' does not start with '%s'", err, want);
	EXPECT_NE(NULL, strstr(err, variant->text))
		TH_LOG("ucode/error '%s' does not say '%s'", err, variant->text);
	assert_unchanged(_metadata, &self->s);
	assert_runs(_metadata, self->s.gen);
	/* and the loader still takes a good image */
	ASSERT_EQ(0, vl_write_image(self->s.img, self->s.len, CHUNK));
	assert_status(_metadata, "ok");
	EXPECT_EQ(self->s.gen + 1, vl_generation());
}

TEST_HARNESS_MAIN
