/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_perf_lib.h - the perf_event_open() helpers of the vpmu selftests
 * and of the vpmu_stress program (no TAP in them): events built from the
 * PMU's own format/ and events/ files, opening and reading them, group
 * reads, and sample rings with vpmu's raw sample record
 * (Documentation/admin-guide/perf/vpmu.rst, "Sampling"), compiled from
 * vpmu_perf_lib.c.
 * Everything else is vpmu_lib.h's.
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
long vt_type(void);

/* The same of the histogram unit's PMU, vpmu_hu. */
long vt_hu_type(void);

/* The low bit of format/@field, a field of attr.config itself; or -1. */
int vt_config_shift(const char *field);

/* @val in format/@field: config, config1 or config2 alike. */
uint64_t vt_field(const char *field, uint64_t val);

/*
 * attr.config of alias events/vpmu_@name ("uops", "tag3", ...) as perf
 * builds it: each "term=value" shifted to its format/ field, which must be
 * one of attr.config.  0, or -1 without such an alias.
 */
int vt_alias_cfg(const char *name, uint64_t *config);

/* attr.config of alias events/vpmu_@name, or ~0 without it. */
static inline uint64_t vt_alias(const char *name)
{
	uint64_t config;

	return vt_alias_cfg(name, &config) ? ~0ull : config;
}

/*
 * Does the running kernel come before @major.@minor?  (Before 6.2 vpmu is
 * in perf_sw_context.)  An unreadable release counts as old.
 */
bool vt_kernel_before(int major, int minor);

/*
 * Set kernel.perf_event_max_sample_rate to @rate; returns what it was, or
 * -1 if it could not be read or written.  Built in, vpmu's samples are the
 * perf core's overflows, which it throttles at that rate
 * (Documentation/admin-guide/perf/vpmu.rst, "Sampling"); a test of
 * something else raises it and puts it back.
 */
int vt_max_sample_rate(int rate);

/*
 * A rate no test reaches: 10^8 a second, 400000 samples a tick at HZ 250
 * (the core computes DIV_ROUND_UP(rate, HZ) in an int: INT_MAX would
 * overflow it).
 */
#define VT_HIGH_SAMPLE_RATE	100000000

/* ---- events -------------------------------------------------------------- */

/* A vpmu event of PMU type @type, nothing else set. */
void vt_attr_of(struct perf_event_attr *a, long type,
		uint64_t config, uint64_t config1);

/* A vpmu event, the PMU's type read from sysfs. */
static inline void vt_attr(struct perf_event_attr *a, uint64_t config,
			   uint64_t config1)
{
	vt_attr_of(a, vt_type(), config, config1);
}

/* A vpmu_hu event counting bucket @b. */
static inline void vt_hu_attr(struct perf_event_attr *a, unsigned int b)
{
	vt_attr_of(a, vt_hu_type(), b, 0);
}

/* A counting event read as perf stat reads it (struct vt_count). */
void vt_count_attr(struct perf_event_attr *a, uint64_t config,
		   uint64_t config1);

/* The raw system call: the fd, or -1 and errno. */
static inline int vt_perf_event_open(struct perf_event_attr *attr, pid_t pid,
				     int cpu, int group_fd,
				     unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* perf_event_open() with FD_CLOEXEC; the fd or -errno. */
int vt_open(struct perf_event_attr *a, pid_t pid, int cpu, int group);

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
uint64_t vt_count(int fd);

/* A read of read_format VT_RF_TIMES | GROUP | ID, up to 17 members. */
struct vt_group_read {
	uint64_t nr, enabled, running;
	struct { uint64_t value, id; } cntr[VT_MAX_CTRS + 1];
};

/* ---- samples and their rings --------------------------------------------- */

/*
 * A sample's PERF_SAMPLE_RAW record (Documentation/admin-guide/perf/vpmu.rst,
 * "Sampling").
 */
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
int vt_ring_map_pages(int fd, struct vt_ring *rb, size_t pages);

static inline int vt_ring_map(int fd, struct vt_ring *rb)
{
	return vt_ring_map_pages(fd, rb, 0);
}

void vt_ring_unmap(struct vt_ring *rb);

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
int vt_ring_read(struct vt_ring *rb, vt_record_fn fn, void *arg);

/* vt_ring_read() with nothing but the counting. */
static inline int vt_ring_drain(struct vt_ring *rb)
{
	return vt_ring_read(rb, NULL, NULL);
}

/*
 * The IP and raw record of sample @rec of sample_type IP | RAW, with
 * PERIOD between them if @period (the order of perf_event_open(2)).
 */
void vt_sample_parse(const char *rec, uint16_t size,
		     bool period, struct vt_sample *s);

/*
 * vt_ring_read() of an IP | RAW sampling event, its samples from the
 * @rb->samples-th on stored in @s, up to the @max-th.
 */
int vt_ring_samples(struct vt_ring *rb, struct vt_sample *s, size_t max);

#endif /* VPMU_PERF_LIB_H */
