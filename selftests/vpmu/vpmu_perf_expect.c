// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_perf_expect - exact counts of every sample program through
 * perf_event_open() (Documentation/admin-guide/perf/vpmu.rst, "PMU
 * events").
 *
 * Every basic event and tag of every sample program equals its .expect
 * line, counted per task with nr_counters events a run, on the counters
 * for the whole run; user + kernel = total, and kernel alone the file's
 * "super cycles".  The samples run on the default image (a one-hot event
 * field of 8 tags); encoded/tags.s runs on the encoded sample image
 * (build/encoded.vpmu: 3 bits, tags 1..7), loaded for it and replaced by
 * the default afterwards, and counts every one of its tags.
 */
#define _GNU_SOURCE
#include "vpmu_perf.h"

FIXTURE(sample) {
	struct vt_perf_fx f;
	struct vt_expect x;
};

FIXTURE_VARIANT(sample) {
	const char *prog, *expect;
	const char *image;	/* in $VPMU_SHARE; NULL: the default */
	int tags;		/* tags the image's event field selects */
	int nev;		/* event lines of the .expect file */
};

#define SAMPLE(name)							\
	FIXTURE_VARIANT_ADD(sample, name) {				\
		.prog = #name,						\
		.expect = "samples/" #name ".expect",			\
		.tags = 8, .nev = 18,					\
	}
SAMPLE(sum);
SAMPLE(sort);
SAMPLE(memcpy);
SAMPLE(syscall);

FIXTURE_VARIANT_ADD(sample, encoded_tags) {
	.prog = "tags",
	.expect = "encoded/tags.expect",
	.image = "build/encoded.vpmu",
	.tags = 7, .nev = 17,
};

FIXTURE_SETUP(sample)
{
	vt_perf_fx_setup(_metadata, &self->f, variant->prog);
	if (variant->image &&
	    vt_load_share_image(_metadata, variant->image))
		return;
	if (vt_expect_load(variant->expect, &self->x) ||
	    self->x.nev != variant->nev) {
		/* 6.12's harness runs no teardown after a skipped setup */
		if (variant->image)
			vt_load_default();
		SKIP(return, "no full %s in $VPMU_SHARE", variant->expect);
	}
}

FIXTURE_TEARDOWN(sample)
{
	/* Whatever the setup got to: the default image again. */
	if (variant->image && vt_have_loader() && !geteuid())
		EXPECT_EQ(0, vt_load_default());
	vt_perf_fx_teardown(&self->f);
}

/*
 * Every event line, nr_counters events per run (all on the counters for
 * the whole run: time_running == time_enabled), per task.
 */
TEST_F_TIMEOUT(sample, exact_counts, 120)
{
	int fds[VT_MAX_CTRS], i, j, bad = 0;

	for (i = 0; i < self->x.nev; i += self->f.nr_counters) {
		int n = self->x.nev - i;

		if (n > self->f.nr_counters)
			n = self->f.nr_counters;
		for (j = 0; j < n; j++) {
			uint64_t config;

			ASSERT_EQ(0, vt_alias_cfg(self->x.ev_name[i + j], &config))
				TH_LOG("no events/vpmu_%s", self->x.ev_name[i + j]);
			fds[j] = vt_open_config(config, 0);
			ASSERT_LE(0, fds[j]) TH_LOG("open vpmu_%s: %s",
						    self->x.ev_name[i + j], strerror(-fds[j]));
		}
		ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
		for (j = 0; j < n; j++) {
			struct vt_count c;

			ASSERT_EQ(0, vt_read_count(fds[j], &c));
			close(fds[j]);
			EXPECT_EQ(c.enabled, c.running);
			if (c.value != self->x.ev_count[i + j]) {
				TH_LOG("%s: vpmu_%s: %llu, expected %llu",
				       variant->prog, self->x.ev_name[i + j],
				       (unsigned long long)c.value,
				       (unsigned long long)self->x.ev_count[i + j]);
				bad++;
			}
		}
	}
	EXPECT_EQ(0, bad);
}

/*
 * The tag aliases listed, events/vpmu_tag1..vpmu_tag255: n if exactly
 * vpmu_tag1..vpmu_tagn are there, else -1.
 */
static int tags_listed(void)
{
	int k, n = 0;
	char rel[32], buf[32];

	for (k = 1; k <= VPMU_TAG_MAX; k++) {
		snprintf(rel, sizeof(rel), "events/vpmu_tag%d", k);
		if (vt_pmu_read(rel, buf, sizeof(buf)))
			continue;
		snprintf(rel, sizeof(rel), "tag=%d", k);
		if (n != k - 1 || strcmp(buf, rel))
			return -1;
		n = k;
	}
	return n;
}

/*
 * The tags the image selects, from caps/ev_mode and caps/ev_bits: the
 * last of them opens, the one after is refused, and events/ lists
 * exactly them, following the image loaded.
 */
TEST_F(sample, tag_range)
{
	uint64_t tag = vt_field("tag", 1);
	int fd;

	ASSERT_EQ(variant->tags + 1, vt_tag_limit());
	EXPECT_EQ(variant->tags, tags_listed());
	if (variant->image) {
		ASSERT_EQ(0, vt_load_default());
		EXPECT_EQ(8, tags_listed());
		ASSERT_EQ(0, vt_load_share_image(_metadata, variant->image));
		EXPECT_EQ(variant->tags, tags_listed());
	}
	fd = vt_open_config(tag * variant->tags, 0);
	EXPECT_LE(0, fd);
	if (fd >= 0)
		close(fd);
	EXPECT_EQ(-EINVAL, vt_open_config(tag * (variant->tags + 1), 0));
}

/* User-only + kernel-only = total, and kernel-only = "super cycles". */
TEST_F(sample, exclude_user_kernel)
{
	struct perf_event_attr a;
	struct vt_count u, k, t;
	int fu, fk, ft;

	if (self->x.super_cycles < 0)
		SKIP(return, "no super cycles line");
	vt_count_attr(&a, 0, 0);	/* vpmu_cycles */
	a.exclude_kernel = 1;
	fu = vt_perf_event_open(&a, 0, -1, -1, 0);
	ASSERT_LE(0, fu);
	a.exclude_kernel = 0;
	a.exclude_user = 1;
	fk = vt_perf_event_open(&a, 0, -1, -1, 0);
	ASSERT_LE(0, fk);
	a.exclude_user = 0;
	a.exclude_hv = 1;	/* changes nothing */
	a.exclude_idle = 1;
	a.exclude_guest = 1;
	ft = vt_perf_event_open(&a, 0, -1, -1, 0);
	ASSERT_LE(0, ft);

	ASSERT_EQ(0, vt_perf_run(&self->f, VT_PERF_BUDGET));
	ASSERT_EQ(0, vt_read_count(fu, &u));
	ASSERT_EQ(0, vt_read_count(fk, &k));
	ASSERT_EQ(0, vt_read_count(ft, &t));
	EXPECT_EQ(self->f.r.cycles, t.value);
	EXPECT_EQ((uint64_t)self->x.super_cycles, k.value);
	EXPECT_EQ(t.value, u.value + k.value);
	close(fu);
	close(fk);
	close(ft);
}

TEST_HARNESS_MAIN
