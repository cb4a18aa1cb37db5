/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_perf_lib.h - perf_event_open() helpers of the selftests: events
 * built from the PMU's own format/ and events/ files, and a sample ring
 * that counts what it holds.
 */
#ifndef VPMU_PERF_LIB_H
#define VPMU_PERF_LIB_H

#include <sys/mman.h>
#include <linux/perf_event.h>
#include "vpmu_lib.h"

/* The PMU's type, or -1 without it. */
static inline long vp_type(void)
{
	char buf[32];

	return vl_pmu_read("type", buf, sizeof(buf)) ? -1 :
						       strtol(buf, NULL, 0);
}

/* The low bit of format/@field ("config1:20" -> 20), or -1. */
static inline int vp_shift(const char *field)
{
	char rel[64], buf[64], *colon;

	snprintf(rel, sizeof(rel), "format/%s", field);
	if (vl_pmu_read(rel, buf, sizeof(buf)))
		return -1;
	colon = strchr(buf, ':');
	return colon ? atoi(colon + 1) : -1;
}

/* @val in format/@field: config, config1 or config2 alike. */
static inline uint64_t vp_field(const char *field, uint64_t val)
{
	return val << vp_shift(field);
}

/* attr.config of alias events/vpmu_@name (a single "term=value"). */
static inline uint64_t vp_alias(const char *name)
{
	char rel[128], buf[128], *eq;

	snprintf(rel, sizeof(rel), "events/vpmu_%s", name);
	if (vl_pmu_read(rel, buf, sizeof(buf)))
		return ~0ull;
	eq = strchr(buf, '=');
	if (!eq)
		return ~0ull;
	*eq = '\0';
	return vp_field(buf, strtoull(eq + 1, NULL, 0));
}

static inline void vp_attr(struct perf_event_attr *a, uint64_t config,
			   uint64_t config1)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = vp_type();
	a->config = config;
	a->config1 = config1;
}

/* perf_event_open(); the fd or -errno. */
static inline int vp_open(struct perf_event_attr *a, pid_t pid, int cpu,
			  int group)
{
	int fd = syscall(__NR_perf_event_open, a, pid, cpu, group,
			 PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* An event's count (read_format 0), or ~0 on error. */
static inline uint64_t vp_count(int fd)
{
	uint64_t v;

	return read(fd, &v, sizeof(v)) == sizeof(v) ? v : ~0ull;
}

/* ---- sample rings ------------------------------------------------------- */

#define VP_RING_PAGES	64

struct vp_ring {
	char *base;
	size_t psz;
	uint64_t samples, lost, throttle;
};

static inline int vp_ring_map(int fd, struct vp_ring *rb)
{
	memset(rb, 0, sizeof(*rb));
	rb->psz = sysconf(_SC_PAGESIZE);
	rb->base = mmap(NULL, (VP_RING_PAGES + 1) * rb->psz,
			PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (rb->base == MAP_FAILED) {
		rb->base = NULL;
		return -ENOMEM;
	}
	return 0;
}

static inline void vp_ring_unmap(struct vp_ring *rb)
{
	if (rb->base)
		munmap(rb->base, (VP_RING_PAGES + 1) * rb->psz);
	rb->base = NULL;
}

/*
 * Consume the ring, counting samples, the samples PERF_RECORD_LOST says
 * were lost, and throttle records.  Call often enough for the ring not to
 * fill, or count on the lost records.
 */
static inline void vp_ring_drain(struct vp_ring *rb)
{
	struct perf_event_mmap_page *pg = (void *)rb->base;
	const char *data = rb->base + rb->psz;
	size_t dsize = VP_RING_PAGES * rb->psz;
	uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = pg->data_tail, i;

	while (tail < head) {
		struct perf_event_header h;
		uint64_t rec[3];

		for (i = 0; i < sizeof(h); i++)
			((char *)&h)[i] = data[(tail + i) % dsize];
		if (h.size < sizeof(h))
			break;
		if (h.type == PERF_RECORD_SAMPLE) {
			rb->samples++;
		} else if (h.type == PERF_RECORD_LOST) {
			/* { header, id, lost } */
			for (i = 0; i < sizeof(rec); i++)
				((char *)rec)[i] = data[(tail + i) % dsize];
			rb->lost += rec[2];
		} else if (h.type == PERF_RECORD_THROTTLE) {
			rb->throttle++;
		}
		tail += h.size;
	}
	__atomic_store_n(&pg->data_tail, tail, __ATOMIC_RELEASE);
}

#endif /* VPMU_PERF_LIB_H */
