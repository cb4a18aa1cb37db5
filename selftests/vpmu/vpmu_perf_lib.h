/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_perf_lib.h - the perf_event_open() helpers of the vpmu selftests
 * and of the vpmu_stress program (no TAP in them): events built from the
 * PMU's own format/ and events/ files, opening and reading them, group
 * reads, and sample rings with vpmu's raw sample record
 * (Documentation/vpmu/perf.rst).  Everything else is vpmu_lib.h's.
 */
#ifndef VPMU_PERF_LIB_H
#define VPMU_PERF_LIB_H

#include <sys/mman.h>
#include <sys/utsname.h>
#include <linux/perf_event.h>
#include "vpmu_lib.h"

#define VT_MAX_CTRS	16	/* VPMU_NR_COUNTERS_MAX */
#define VT_RING_PAGES	64	/* data pages of a ring, unless told */

/* What perf stat reads with each count. */
#define VT_RF_TIMES	(PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING)

/* ---- the PMU's sysfs files ----------------------------------------------- */

/* The PMU's dynamic type from sysfs, or -1 without it. */
static inline long vt_type(void)
{
	char buf[32], *end;
	long type;

	if (vt_pmu_read("type", buf, sizeof(buf)))
		return -1;
	errno = 0;
	type = strtol(buf, &end, 10);
	if (errno || end == buf || *end != '\0')
		return -1;
	return type;
}

/*
 * format/@field: the low bit of the field ("config1:20" -> 20), and in
 * *@word which config it is in (0 config, 1 config1, 2 config2); -1 if
 * there is no such field.
 */
static inline int vt_format(const char *field, int *word)
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
static inline int vt_shift(const char *field)
{
	int word;

	return vt_format(field, &word);
}

/* The low bit of format/@field, a field of attr.config itself; or -1. */
static inline int vt_config_shift(const char *field)
{
	int word, lo = vt_format(field, &word);

	return lo >= 0 && word == 0 ? lo : -1;
}

/* @val in format/@field: config, config1 or config2 alike. */
static inline uint64_t vt_field(const char *field, uint64_t val)
{
	return val << vt_shift(field);
}

/*
 * attr.config of alias events/vpmu_@name ("uops", "tag3", ...) as perf
 * builds it: each "term=value" shifted to its format/ field, which must be
 * one of attr.config.  0, or -1 without such an alias.
 */
static inline int vt_alias_cfg(const char *name, uint64_t *config)
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

/* attr.config of alias events/vpmu_@name, or ~0 without it. */
static inline uint64_t vt_alias(const char *name)
{
	uint64_t config;

	return vt_alias_cfg(name, &config) ? ~0ull : config;
}

/*
 * Does the running kernel come before @major.@minor?  (Before 6.2 vpmu is
 * in perf_sw_context: perf.rst, "Kernels".)  An unreadable release counts
 * as old.
 */
static inline bool vt_kernel_before(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return true;
	return ma < major || (ma == major && mi < minor);
}

/* ---- events -------------------------------------------------------------- */

/* A vpmu event of PMU type @type, nothing else set. */
static inline void vt_attr_of(struct perf_event_attr *a, long type,
			      uint64_t config, uint64_t config1)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->config1 = config1;
}

/* A vpmu event, the PMU's type read from sysfs. */
static inline void vt_attr(struct perf_event_attr *a, uint64_t config,
			   uint64_t config1)
{
	vt_attr_of(a, vt_type(), config, config1);
}

/* A counting event read as perf stat reads it (struct vt_count). */
static inline void vt_count_attr(struct perf_event_attr *a, uint64_t config,
				 uint64_t config1)
{
	vt_attr(a, config, config1);
	a->read_format = VT_RF_TIMES;
}

/* The raw system call: the fd, or -1 and errno. */
static inline int vt_perf_event_open(struct perf_event_attr *attr, pid_t pid,
				     int cpu, int group_fd,
				     unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* perf_event_open() with FD_CLOEXEC; the fd or -errno. */
static inline int vt_open(struct perf_event_attr *a, pid_t pid, int cpu,
			  int group)
{
	int fd = vt_perf_event_open(a, pid, cpu, group, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* A read of read_format VT_RF_TIMES. */
struct vt_count {
	uint64_t value, enabled, running;
};

static inline int vt_read_count(int fd, struct vt_count *c)
{
	return read(fd, c, sizeof(*c)) == sizeof(*c) ? 0 : -1;
}

/*
 * An event's count: the first word of a read of read_format 0 (or of any
 * format that starts with the value), or ~0 on error.
 */
static inline uint64_t vt_count(int fd)
{
	uint64_t v[4];
	ssize_t n = read(fd, v, sizeof(v));

	return n >= 8 && n % 8 == 0 ? v[0] : ~0ull;
}

/* A read of read_format VT_RF_TIMES | GROUP | ID, up to 17 members. */
struct vt_group_read {
	uint64_t nr, enabled, running;
	struct { uint64_t value, id; } cntr[VT_MAX_CTRS + 1];
};

/* ---- samples and their rings --------------------------------------------- */

/* A sample's PERF_SAMPLE_RAW record (perf.rst, "Samples"). */
struct vt_raw {
	uint16_t type;
	uint8_t flags, preempt_count;
	int32_t pid;
	uint32_t upc, ipc, ctr, mode;
	uint64_t count;
} __attribute__((packed));

/* A sample of sample_type IP | RAW, maybe with PERIOD. */
struct vt_sample {
	uint64_t ip;
	uint16_t misc;		/* the record's header.misc */
	struct vt_raw raw;	/* all ones if the record is too short */
};

/*
 * The ring of a sampling event, and what its records said so far: the
 * samples, the samples PERF_RECORD_LOST reported lost (and the number of
 * those records), throttle records and the other records; and the last
 * malformed record, where it was and where the data ended.
 */
struct vt_ring {
	char *base;
	size_t psz, pages;	/* data pages: a power of 2 */
	uint64_t samples, lost, lost_records, throttle, other;
	struct perf_event_header bad;
	uint64_t bad_at, bad_head;
};

/* Map @pages data pages (0: VT_RING_PAGES) of @fd's ring; 0 or -errno. */
static inline int vt_ring_map_pages(int fd, struct vt_ring *rb, size_t pages)
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

static inline int vt_ring_map(int fd, struct vt_ring *rb)
{
	return vt_ring_map_pages(fd, rb, 0);
}

static inline void vt_ring_unmap(struct vt_ring *rb)
{
	if (rb->base)
		munmap(rb->base, (rb->pages + 1) * rb->psz);
	rb->base = NULL;
}

/*
 * Called for every record with the record copied out of the ring (@rec,
 * h->size bytes); non-zero stops the reading as if it were malformed.
 */
typedef int (*vt_record_fn)(struct vt_ring *rb,
			    const struct perf_event_header *h,
			    const char *rec, void *arg);

/*
 * Consume every record in the ring, counting them as struct vt_ring says
 * and handing each to @fn (if any).  A malformed record (or @fn's refusal)
 * ends the reading with the rest of the ring consumed: -1; else 0.  Call
 * often enough for the ring not to fill, or count on the lost records.
 */
static inline int vt_ring_read(struct vt_ring *rb, vt_record_fn fn, void *arg)
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

/* vt_ring_read() with nothing but the counting. */
static inline int vt_ring_drain(struct vt_ring *rb)
{
	return vt_ring_read(rb, NULL, NULL);
}

/*
 * The IP and raw record of sample @rec of sample_type IP | RAW, with
 * PERIOD between them if @period (the order of perf_event_open(2)).
 */
static inline void vt_sample_parse(const char *rec, uint16_t size,
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

static inline int vt_samples_fn(struct vt_ring *rb,
				const struct perf_event_header *h,
				const char *rec, void *arg)
{
	struct vt_samples *to = arg;

	if (h->type == PERF_RECORD_SAMPLE && rb->samples <= to->max)
		vt_sample_parse(rec, h->size, to->period,
				&to->s[rb->samples - 1]);
	return 0;
}

/*
 * vt_ring_read() of an IP | RAW sampling event, its samples from the
 * @rb->samples-th on stored in @s, up to the @max-th.
 */
static inline int vt_ring_samples(struct vt_ring *rb, struct vt_sample *s,
				  size_t max)
{
	struct vt_samples to = { .s = s, .max = max };

	return vt_ring_read(rb, vt_samples_fn, &to);
}

#endif /* VPMU_PERF_LIB_H */
