// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_ucode_bad - malformed images through the sysfs microcode loader
 * (Documentation/admin-guide/perf/vpmu.rst, "sysfs").
 *
 * Every kind of malformed image, built by corrupting the built-in one and
 * resealing its CRC, is refused with the validator's errno, status
 * "rejected" and the errno's name and reason in ucode/error, leaving name,
 * generation and image unchanged and programs running; the loader then
 * takes a good image.  Needs root; skips without the loader.
 */
#define _GNU_SOURCE
#include "vpmu_ucode.h"

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
	struct vt_snap s;
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
	if (vt_need_loader(_metadata))
		return;
	ASSERT_EQ(0, vt_load_default());
	vt_snap_take(&self->s);
	ASSERT_NE(NULL, self->s.img);
	self->len = self->s.len;
	self->img = malloc(self->len);
	ASSERT_NE(NULL, self->img);
	memcpy(self->img, self->s.img, self->len);
}

FIXTURE_TEARDOWN(bad)
{
	if (self->img)
		vt_load_default();
	free(self->img);
	vt_snap_free(&self->s);
}

TEST_F(bad, rejected)
{
	char err[512], want[64];
	size_t n;

	n = variant->corrupt(self->img, self->len);
	ASSERT_NE((size_t)0, n) TH_LOG("no microword to corrupt in the default image");
	if (variant->reseal)
		vt_seal(self->img, self->len);
	EXPECT_EQ(-variant->err, vt_write_image(self->img, n, VT_CHUNK)) {
		vt_ucode_attr("error", err, sizeof(err));
		TH_LOG("ucode/error: %s", err);
	}
	vt_assert_status(_metadata, "rejected");
	ASSERT_EQ(0, vt_ucode_attr("error", err, sizeof(err)));
	snprintf(want, sizeof(want), "%s (%d): ", variant->errname, variant->err);
	EXPECT_EQ(0, strncmp(err, want, strlen(want)))
		TH_LOG("ucode/error '%s' does not start with '%s'", err, want);
	EXPECT_NE(NULL, strstr(err, variant->text))
		TH_LOG("ucode/error '%s' does not say '%s'", err, variant->text);
	vt_assert_unchanged(_metadata, &self->s);
	vt_assert_runs(_metadata, self->s.gen);
	/* and the loader still takes a good image */
	ASSERT_EQ(0, vt_write_image(self->s.img, self->s.len, VT_CHUNK));
	vt_assert_status(_metadata, "ok");
	EXPECT_EQ(self->s.gen + 1, vt_generation());
}

TEST_HARNESS_MAIN
