// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_tag_names - the tags an image names are perf events under their
 * names (Documentation/admin-guide/perf/vpmu.rst, "PMU events").
 *
 * The built-in image names its tags (default.vus: .tag decode, 1 ...
 * .tag call, 8): events/decode says "tag=1" and so on.  An event opened
 * with the config events/NAME gives counts as tagK's.  An image of other
 * names (the built-in one with "decode" renamed "ifetch" and the tags of
 * "alu" and "load" swapped, resealed) replaces them: events/ifetch there,
 * events/decode gone, events/alu "tag=3"; the built-in image again puts
 * them back.  An image without a tag table leaves no name.  A name the
 * validator refuses (a basic event's, a name given twice) is rejected
 * with its reason in ucode/error, and nothing changes: image, generation,
 * events/.  Needs root; skips without the loader (and the count without
 * build/sum.vprg).
 */
#define _GNU_SOURCE
#include "vpmu_ucode.h"
#include "vpmu_perf.h"

#define HDR(img)	((struct vpmu_image_header *)(img))

/* The built-in image's names, tag 1..8. */
static const char *const dflt[] = {
	"decode", "alu", "load", "store", "branch", "taken", "priv", "call",
};

/* Tag entry @i of @img; its name in *@name (NULL: no such entry). */
static struct vpmu_image_tag *tag_entry(uint8_t *img, uint32_t i,
					char **name)
{
	struct vpmu_image_tag *t;

	*name = NULL;
	if (i >= HDR(img)->tag_count)
		return NULL;
	t = (struct vpmu_image_tag *)(img + HDR(img)->tag_offset) + i;
	*name = (char *)img + HDR(img)->str_offset + t->name;
	return t;
}

/* The entry named @name in @img, or NULL. */
static struct vpmu_image_tag *tag_named(uint8_t *img, const char *name)
{
	struct vpmu_image_tag *t;
	char *s;
	uint32_t i;

	for (i = 0; (t = tag_entry(img, i, &s)); i++)
		if (!strcmp(s, name))
			return t;
	return NULL;
}

/* Rename @from @to (as long) in @img; 0, or -1 if @img has no @from. */
static int rename_tag(uint8_t *img, const char *from, const char *to)
{
	struct vpmu_image_tag *t = tag_named(img, from);

	if (!t || strlen(from) != strlen(to))
		return -1;
	memcpy(img + HDR(img)->str_offset + t->name, to, strlen(to));
	return 0;
}

/* events/@name's first line, "" without the file. */
static const char *event_file(const char *name)
{
	static char buf[64];
	char rel[96];

	snprintf(rel, sizeof(rel), "events/%s", name);
	if (vt_pmu_read(rel, buf, sizeof(buf)))
		buf[0] = '\0';
	return buf;
}

static bool has_event(const char *name)
{
	char path[128];

	snprintf(path, sizeof(path), VT_PMU_DIR "/events/%s", name);
	return access(path, F_OK) == 0;
}

/* events/ shows the built-in image's names, each its tag. */
static void assert_default_names(struct __test_metadata *_metadata)
{
	char want[16];
	unsigned int k;

	for (k = 1; k <= 8; k++) {
		snprintf(want, sizeof(want), "tag=%u", k);
		EXPECT_STREQ(want, event_file(dflt[k - 1]))
			TH_LOG("events/%s", dflt[k - 1]);
	}
}

FIXTURE(names) {
	struct vt_snap s;	/* the built-in image, loaded */
	uint8_t *img;		/* a copy to change */
};

FIXTURE_SETUP(names)
{
	if (vt_need_loader(_metadata))
		return;
	ASSERT_EQ(0, vt_load_default());
	vt_snap_take(&self->s);
	ASSERT_NE(NULL, self->s.img);
	self->img = malloc(self->s.len);
	ASSERT_NE(NULL, self->img);
	memcpy(self->img, self->s.img, self->s.len);
	ASSERT_EQ(8u, HDR(self->img)->tag_count)
		TH_LOG("the built-in image names no tags");
}

FIXTURE_TEARDOWN(names)
{
	if (self->img)
		vt_load_default();
	free(self->img);
	vt_snap_free(&self->s);
}

/* The built-in image's names in events/, each as its tag. */
TEST_F(names, default_image)
{
	assert_default_names(_metadata);
	EXPECT_FALSE(has_event("vpmu_decode"));
}

/* An event opened with events/NAME's config counts as tagK's. */
TEST_F(names, counts_as_tag)
{
	struct vt_perf_fx f = { .dev = -1 };
	struct vt_count named, tag;
	uint64_t cfg;
	int fdn, fdt;

	vt_perf_fx_setup(_metadata, &f, "sum");
	if (!f.mem) {
		if (f.dev >= 0)
			close(f.dev);
		return;
	}
	ASSERT_STREQ("tag=1", event_file("decode"));
	cfg = vt_field("tag", 1);
	ASSERT_EQ(cfg, vt_alias("tag1"));
	fdn = vt_open_config(cfg, 0);
	fdt = vt_open_config(vt_alias("tag1"), 0);
	ASSERT_LE(0, fdn);
	ASSERT_LE(0, fdt);
	ASSERT_EQ(0, vt_perf_run(&f, VT_PERF_BUDGET));
	ASSERT_EQ(0, vt_read_count(fdn, &named));
	ASSERT_EQ(0, vt_read_count(fdt, &tag));
	EXPECT_LT(0ull, named.value);
	EXPECT_EQ(tag.value, named.value);
	close(fdn);
	close(fdt);
	vt_perf_fx_teardown(&f);
}

/* A second image's names replace the first's; the default's come back. */
TEST_F(names, replaced_on_load)
{
	ASSERT_EQ(0, rename_tag(self->img, "decode", "ifetch"));
	tag_named(self->img, "alu")->tag = 3;
	tag_named(self->img, "load")->tag = 2;
	vt_seal(self->img, self->s.len);
	ASSERT_EQ(0, vt_write_image(self->img, self->s.len, VT_CHUNK));
	vt_assert_status(_metadata, "ok");
	EXPECT_STREQ("tag=1", event_file("ifetch"));
	EXPECT_FALSE(has_event("decode"));
	EXPECT_STREQ("tag=3", event_file("alu"));
	EXPECT_STREQ("tag=2", event_file("load"));
	EXPECT_STREQ("tag=8", event_file("call"));
	EXPECT_STREQ("tag=1", event_file("tag1"));
	ASSERT_EQ(0, vt_load_default());
	assert_default_names(_metadata);
	EXPECT_FALSE(has_event("ifetch"));
}

/* An image without a tag table (as every image was before) leaves none. */
TEST_F(names, none_without_table)
{
	unsigned int k, n = 0;

	HDR(self->img)->tag_count = 0;
	HDR(self->img)->tag_offset = 0;
	vt_seal(self->img, self->s.len);
	ASSERT_EQ(0, vt_write_image(self->img, self->s.len, VT_CHUNK));
	vt_assert_status(_metadata, "ok");
	for (k = 0; k < ARRAY_SIZE(dflt); k++) {
		if (has_event(dflt[k])) {
			ksft_print_msg("events/%s is there\n", dflt[k]);
			n++;
		}
	}
	EXPECT_EQ(0u, n);
	EXPECT_STREQ("tag=1", event_file("tag1"));
	EXPECT_STREQ("tag=1", event_file("vpmu_tag1"));
	ASSERT_EQ(0, vt_load_default());
	assert_default_names(_metadata);
}

/* Names the validator refuses: a rename, and the reason in ucode/error. */
static const struct {
	const char *from, *to;
	const char *text;
} bad[] = {
	{ "decode", "cycles",
	  "EBADR (53): bad tag name: tag entry 0: name 'cycles' is a basic event" },
	{ "call", "load",
	  "EBADR (53): bad tag name: tag entry 7: name 'load' given twice (entry 2)" },
	{ "priv", "tag\0",
	  "EBADR (53): bad tag name: tag entry 6: name 'tag' is a format/ field" },
};

/* Each bad name: rejected, its reason said, nothing changed. */
TEST_F(names, bad_name_rejected)
{
	char err[512];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		memcpy(self->img, self->s.img, self->s.len);
		ASSERT_NE(NULL, tag_named(self->img, bad[i].from));
		memcpy((char *)self->img + HDR(self->img)->str_offset +
		       tag_named(self->img, bad[i].from)->name, bad[i].to,
		       strlen(bad[i].from));
		vt_seal(self->img, self->s.len);
		EXPECT_EQ(-EBADR, vt_write_image(self->img, self->s.len,
						 VT_CHUNK));
		vt_assert_status(_metadata, "rejected");
		ASSERT_EQ(0, vt_ucode_attr("error", err, sizeof(err)));
		EXPECT_STREQ(bad[i].text, err);
		vt_assert_unchanged(_metadata, &self->s);
		assert_default_names(_metadata);
	}
}

TEST_HARNESS_MAIN
