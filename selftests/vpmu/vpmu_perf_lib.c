// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_perf_lib.c - the perf_event_open() helpers of the vpmu selftests
 * (vpmu_perf_lib.h, which says what each does): events built from the
 * PMU's format/ and events/ files, opening and reading them, and sample
 * rings.
 */
#include "vpmu_perf_lib.h"

/* ---- the PMU's sysfs files ----------------------------------------------- */

/* The number in @buf (a sysfs file's, its newline cut), or -1. */
static long vt_parse_type(const char *buf)
{
	char *end;
	long type;

	errno = 0;
	type = strtol(buf, &end, 10);
	if (errno || end == buf || *end != '\0')
		return -1;
	return type;
}

long vt_type(void)
{
	char buf[32];

	if (vt_pmu_read("type", buf, sizeof(buf)))
		return -1;
	return vt_parse_type(buf);
}

long vt_hu_type(void)
{
	char buf[32];

	if (vt_read_line(VT_HU_PMU_DIR "/type", buf, sizeof(buf)))
		return -1;
	return vt_parse_type(buf);
}

/*
 * format/@field: the low bit of the field ("config1:20" -> 20), and in
 * *@word which config it is in (0 config, 1 config1, 2 config2); -1 if
 * there is no such field.
 */
static int vt_format(const char *field, int *word)
{
	char rel[64], buf[64], *colon;

	snprintf(rel, sizeof(rel), "format/%s", field);
	if (vt_pmu_read(rel, buf, sizeof(buf)))
		return -1;
	colon = strchr(buf, ':');
	if (!colon || strncmp(buf, "config", 6))
		return -1;
	*colon = '\0';
	*word = buf[6] ? atoi(buf + 6) : 0;
	return atoi(colon + 1);
}

/* The low bit of format/@field in whichever config it is, or -1. */
static int vt_shift(const char *field)
{
	int word;

	return vt_format(field, &word);
}

int vt_config_shift(const char *field)
{
	int word, lo = vt_format(field, &word);

	return lo >= 0 && word == 0 ? lo : -1;
}

uint64_t vt_field(const char *field, uint64_t val)
{
	return val << vt_shift(field);
}

int vt_alias_cfg(const char *name, uint64_t *config)
{
	char rel[128], buf[128], *term, *save = NULL;

	snprintf(rel, sizeof(rel), "events/vpmu_%s", name);
	if (vt_pmu_read(rel, buf, sizeof(buf)))
		return -1;
	*config = 0;
	for (term = strtok_r(buf, ",", &save); term;
	     term = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(term, '=');
		int shift;

		if (!eq)
			return -1;
		*eq = '\0';
		shift = vt_config_shift(term);
		if (shift < 0)
			return -1;
		*config |= strtoull(eq + 1, NULL, 0) << shift;
	}
	return 0;
}

bool vt_kernel_before(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return true;
	return ma < major || (ma == major && mi < minor);
}

#define VT_MAX_SAMPLE_RATE "/proc/sys/kernel/perf_event_max_sample_rate"

int vt_max_sample_rate(int rate)
{
	FILE *f = fopen(VT_MAX_SAMPLE_RATE, "r+");
	int old = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &old) == 1) {
		rewind(f);
		if (fprintf(f, "%d\n", rate) < 0)
			old = -1;
	} else {
		old = -1;
	}
	if (fclose(f))
		old = -1;
	return old;
}

/* ---- events -------------------------------------------------------------- */

void vt_attr_of(struct perf_event_attr *a, long type,
		uint64_t config, uint64_t config1)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->config1 = config1;
}

void vt_count_attr(struct perf_event_attr *a, uint64_t config, uint64_t config1)
{
	vt_attr(a, config, config1);
	a->read_format = VT_RF_TIMES;
}

int vt_open(struct perf_event_attr *a, pid_t pid, int cpu, int group)
{
	int fd = vt_perf_event_open(a, pid, cpu, group, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

uint64_t vt_count(int fd)
{
	uint64_t v[4];
	ssize_t n = read(fd, v, sizeof(v));

	return n >= 8 && n % 8 == 0 ? v[0] : ~0ull;
}

/* ---- samples and their rings --------------------------------------------- */

int vt_ring_map_pages(int fd, struct vt_ring *rb, size_t pages)
{
	memset(rb, 0, sizeof(*rb));
	rb->psz = sysconf(_SC_PAGESIZE);
	rb->pages = pages ? pages : VT_RING_PAGES;
	rb->base = mmap(NULL, (rb->pages + 1) * rb->psz,
			PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (rb->base == MAP_FAILED) {
		rb->base = NULL;
		return -errno;
	}
	return 0;
}

void vt_ring_unmap(struct vt_ring *rb)
{
	if (rb->base)
		munmap(rb->base, (rb->pages + 1) * rb->psz);
	rb->base = NULL;
}

int vt_ring_read(struct vt_ring *rb, vt_record_fn fn, void *arg)
{
	struct perf_event_mmap_page *pg = (void *)rb->base;
	const char *data = rb->base + rb->psz;
	size_t dsize = rb->pages * rb->psz;
	struct perf_event_header h;
	uint64_t head, tail, i, lost;
	char rec[2048];
	int ret = 0;

	if (!rb->base)
		return 0;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	while (tail < head) {
		for (i = 0; i < sizeof(h); i++)
			((char *)&h)[i] = data[(tail + i) % dsize];
		if (h.size < sizeof(h) || h.size > sizeof(rec) ||
		    tail + h.size > head) {
			ret = -1;
			break;
		}
		for (i = 0; i < h.size; i++)
			rec[i] = data[(tail + i) % dsize];
		tail += h.size;
		if (h.type == PERF_RECORD_SAMPLE) {
			rb->samples++;
		} else if (h.type == PERF_RECORD_LOST && h.size >= 24) {
			/* { header, id, lost } */
			memcpy(&lost, rec + 16, 8);
			rb->lost += lost;
			rb->lost_records++;
		} else if (h.type == PERF_RECORD_THROTTLE) {
			rb->throttle++;
		} else {
			rb->other++;
		}
		if (fn && fn(rb, &h, rec, arg)) {
			tail -= h.size;
			ret = -1;
			break;
		}
	}
	if (ret) {
		rb->bad = h;
		rb->bad_at = tail;
		rb->bad_head = head;
	}
	__atomic_store_n(&pg->data_tail, ret ? head : tail, __ATOMIC_RELEASE);
	return ret;
}

void vt_sample_parse(const char *rec, uint16_t size,
		     bool period, struct vt_sample *s)
{
	size_t at = sizeof(struct perf_event_header) + 8 + (period ? 8 : 0);
	uint32_t rsize = 0;

	memcpy(&s->ip, rec + sizeof(struct perf_event_header), 8);
	s->misc = ((const struct perf_event_header *)rec)->misc;
	memset(&s->raw, 0xff, sizeof(s->raw));
	if (at + 4 > size)
		return;
	memcpy(&rsize, rec + at, 4);
	if (rsize >= sizeof(s->raw) && at + 4 + sizeof(s->raw) <= size)
		memcpy(&s->raw, rec + at + 4, sizeof(s->raw));
}

struct vt_samples {
	struct vt_sample *s;
	size_t max;
	bool period;
};

static int vt_samples_fn(struct vt_ring *rb,
			 const struct perf_event_header *h,
			 const char *rec, void *arg)
{
	struct vt_samples *to = arg;

	if (h->type == PERF_RECORD_SAMPLE && rb->samples <= to->max)
		vt_sample_parse(rec, h->size, to->period,
				&to->s[rb->samples - 1]);
	return 0;
}

int vt_ring_samples(struct vt_ring *rb, struct vt_sample *s, size_t max)
{
	struct vt_samples to = { .s = s, .max = max };

	return vt_ring_read(rb, vt_samples_fn, &to);
}
