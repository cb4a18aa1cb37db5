/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_hu.h - what the tests of the histogram unit share (vpmu_hu.c: the
 * program and hist/; vpmu_hu_buckets.c: bucket contents; vpmu_hu_perf.c:
 * the perf bucket events): setting and reading the program, reading the
 * buckets, and the hu fixture.
 *
 * The module takes the program only as a struct (VPMU_IOC_HU_PROGRAM);
 * the tests write it as text, which vpmu-hist compiles, as a user does
 * (vpmu-hist --set-program), and read it back as vpmu-hist prints it
 * (--get-program).  The buckets come from VPMU_IOC_HU_READ.
 */
#ifndef VPMU_HU_H
#define VPMU_HU_H

#include "vpmu_test.h"

#define VT_HU_BUDGET		100000000ull
#define VT_SIM		"vpmu-sim"	/* on PATH */
#define VT_HU_TMP_IMG		"/tmp/vpmu_hu.vpmu"
#define VT_HU_TMP_PROG	"/tmp/vpmu_hu.prog"
#define VT_HU_NB		16
#define VT_HU_BIG		1000000000u	/* a period longer than any run here */

/* hist/NAME into @buf (NUL-terminated); "" if unreadable. */
static inline const char *vt_hu_text(const char *name, char *buf, size_t size)
{
	char path[256];
	size_t len;
	uint8_t *p;

	snprintf(path, sizeof(path), VT_HIST "%s", name);
	p = vt_read_file(path, &len);
	buf[0] = '\0';
	if (p)
		snprintf(buf, size, "%s", (char *)p);
	free(p);
	return buf;
}

/*
 * Parse "PREFIXC<b> <count>" lines (b = 1, 2, ... in order) into @c.
 * Returns the number of buckets, or -1 if a line is malformed.
 */
static inline int vt_parse_buckets(const char *text, const char *prefix,
				   uint64_t *c)
{
	const char *line = text;
	int n = 0;

	while (line && *line) {
		unsigned int b;
		unsigned long long v;
		char fmt[64];

		snprintf(fmt, sizeof(fmt), "%sC%%u %%llu", prefix);
		if (!strncmp(line, prefix, strlen(prefix))) {
			if (sscanf(line, fmt, &b, &v) != 2 || b != (unsigned int)n + 1 ||
			    n == VT_HU_NB)
				return -1;
			c[n++] = v;
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return n;
}

/* ---- the fixture: samples on CPU 0, the unit off around each test -------- */

/*
 * Not for a file that only borrows the helpers above (vpmu_gate.c): it
 * defines VT_HU_NO_FIXTURE, since the kselftest harness of 6.12 and later
 * warns of a fixture's setup and teardown that no test uses.
 */
#ifndef VT_HU_NO_FIXTURE

FIXTURE(hu) {
	int fd;
	struct vt_prog sum, sort, memcpy_, stores;
	uint8_t *mem;
	unsigned long long gen;
};

FIXTURE_SETUP(hu)
{
	self->fd = -1;
	self->mem = NULL;
	self->gen = vt_generation();
	if (access(VT_HIST "control", F_OK))
		SKIP(return, "no %scontrol (module without the histogram unit?)",
		     VT_HIST);
	if (!vt_have_tool(VT_HIST_TOOL))
		SKIP(return, "no %s on PATH", VT_HIST_TOOL);
	if (vt_setup_runs(_metadata, &self->fd, &self->sum, "sum",
			  &self->sort, "sort", &self->memcpy_, "memcpy",
			  &self->stores, "stores", NULL))
		return;
	self->mem = malloc(65536);
	ASSERT_NE(NULL, self->mem);
	ASSERT_EQ(0, vt_pin(0));
	ASSERT_EQ(0, vt_hu_prog("off"));
}

FIXTURE_TEARDOWN(hu)
{
	if (self->fd >= 0)
		vt_hu_prog("off");
	if (!access(VT_CPU1_ONLINE, F_OK))
		vt_cpu1_set(1);
	/* a test that installed an image and failed before restoring */
	if (self->gen && vt_generation() != self->gen)
		vt_load_default();
	vt_teardown_runs(self->fd, &self->sum, &self->sort, &self->memcpy_,
			 &self->stores, NULL);
	free(self->mem);
}

/* Run @p once on this CPU (CPU 0); its cycles, or 0 on failure. */
static inline uint64_t vt_hu_run(FIXTURE_DATA(hu) *self, const struct vt_prog *p)
{
	struct vpmu_run r;

	if (p->h.mem_size > 65536 ||
	    vt_run(self->fd, p, self->mem, VT_HU_BUDGET, &r) ||
	    r.stop != VPMU_RUN_HALT)
		return 0;
	return r.cycles;
}
#endif /* VT_HU_NO_FIXTURE */

/*
 * Load the current image again with its version raised by @bump and, if
 * @wq_drain, a write queue that drains one entry every @wq_drain cycles.
 */
static inline void vt_hu_load_variant(struct __test_metadata *_metadata,
				      uint32_t bump, uint32_t wq_drain)
{
	struct vpmu_image_header *h;
	uint8_t *img;
	size_t len;

	img = vt_read_image(&len);
	ASSERT_NE(NULL, img);
	h = (struct vpmu_image_header *)img;
	if (wq_drain)
		h->wq_drain = wq_drain;
	h->image_version += bump;
	vt_seal(img, len);
	ASSERT_EQ(0, vt_write_image(img, len, len));
	free(img);
}

#endif /* VPMU_HU_H */
