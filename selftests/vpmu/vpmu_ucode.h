/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_ucode.h - what the tests of the sysfs microcode loader share
 * (vpmu_ucode.c: valid images; vpmu_ucode_bad.c: malformed ones): the
 * state a failed load must leave alone, and the checks of it.
 */
#ifndef VPMU_UCODE_H
#define VPMU_UCODE_H

#include "vpmu_test.h"

#define VT_CHUNK	4096

/* The image's state that a failed load must leave alone. */
struct vt_snap {
	char name[64], version[32];
	unsigned long long gen;
	uint8_t *img;
	size_t len;
};

static inline void vt_snap_take(struct vt_snap *s)
{
	vt_ucode_attr("name", s->name, sizeof(s->name));
	vt_ucode_attr("version", s->version, sizeof(s->version));
	s->gen = vt_generation();
	s->img = vt_read_image(&s->len);
}

static inline void vt_snap_free(struct vt_snap *s)
{
	free(s->img);
	s->img = NULL;
}

/* Name, version, generation and bytes are still those of @s. */
static inline void vt_assert_unchanged(struct __test_metadata *_metadata,
				       const struct vt_snap *s)
{
	struct vt_snap now;

	vt_snap_take(&now);
	EXPECT_STREQ(s->name, now.name);
	EXPECT_STREQ(s->version, now.version);
	EXPECT_EQ(s->gen, now.gen);
	ASSERT_NE(NULL, now.img);
	EXPECT_EQ(s->len, now.len);
	EXPECT_EQ(0, memcmp(s->img, now.img, s->len < now.len ? s->len : now.len));
	vt_snap_free(&now);
}

/*
 * sum.s still gives its result on the current image, generation @gen.
 * Skipped (logged) when there is no run device or no sample.
 */
static inline void vt_assert_runs(struct __test_metadata *_metadata,
				  unsigned long long gen)
{
	struct vt_prog p;
	struct vpmu_run r;
	uint8_t *mem;
	int fd;

	fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0 || vt_prog_load(&p, "build/sum.vprg")) {
		TH_LOG("no %s or build/sum.vprg: run not checked", VT_DEV);
		if (fd >= 0)
			close(fd);
		return;
	}
	mem = vt_prog_mem(&p);
	ASSERT_NE(NULL, mem);
	vt_check_sum(_metadata, fd, &p, mem, &r);
	EXPECT_EQ(gen, r.generation);
	free(mem);
	vt_prog_free(&p);
	close(fd);
}

static inline void vt_assert_status(struct __test_metadata *_metadata,
				    const char *want)
{
	char buf[64];

	ASSERT_EQ(0, vt_ucode_attr("status", buf, sizeof(buf)));
	EXPECT_STREQ(want, buf);
}

#endif /* VPMU_UCODE_H */
