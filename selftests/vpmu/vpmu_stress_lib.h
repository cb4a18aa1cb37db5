/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_stress_lib.h - the bottom of vpmu_stress (vpmu_stress.c lists its
 * files): the generator, what the PMU says about itself (struct vt_stress_info,
 * filled in by vpmu_stress_pmu.c), a worker and what every worker uses
 * (vpmu_stress_lib.c: its log and failures, runs, affinity, sample
 * rings).
 *
 * No global state: main() owns the one struct vt_stress_info and every worker
 * reaches it through its struct vt_stress_worker.
 *
 * Every operation is drawn from its own generator, seeded from the run's
 * seed, the worker's index and the operation's number, so a worker does
 * the same operations in the same order whatever the others do: a seed
 * replays a run's operations (not the interleaving of the workers).
 */
#ifndef VPMU_STRESS_LIB_H
#define VPMU_STRESS_LIB_H

#include <stdarg.h>
#include "vpmu_lib.h"
#include "vpmu_perf_lib.h"

#define VT_STRESS_MAX_WORKERS	16
#define VT_STRESS_MAX_ALIASES	64
#define VT_STRESS_MAX_FIELDS	32
#define VT_STRESS_MAX_EXPECT	32

/* Every read_format bit but LOST. */
#define VT_STRESS_RF_ALL		(PERF_FORMAT_TOTAL_TIME_ENABLED | \
					 PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | \
					 PERF_FORMAT_GROUP)

/* ---- the generator ------------------------------------------------------- */

struct vt_stress_rng {
	uint64_t s;
};

/* splitmix64: one 64-bit state, good enough spread for test choices. */
static inline uint64_t vt_stress_rnd(struct vt_stress_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* 0 .. n - 1 (0 if n is 0) */
static inline uint32_t vt_stress_below(struct vt_stress_rng *r, uint32_t n)
{
	return n ? (uint32_t)(vt_stress_rnd(r) % n) : 0;
}

/* true with @percent % probability */
static inline bool vt_stress_chance(struct vt_stress_rng *r, unsigned int percent)
{
	return vt_stress_below(r, 100) < percent;
}

/* ---- what the PMU says about itself (read once, before the workers) ------ */

/* A format/ field: "config1:20" is word 1, bits 20..20. */
struct vt_stress_field {
	char name[24];
	int word, lo, hi;
};

/* An events/ alias, "vpmu_" stripped, with its attr.config. */
struct vt_stress_alias {
	char name[24];
	long type;		/* vpmu's, or vpmu_hu's (the buckets) */
	uint64_t config;
};

/* A program of share/build and what one run of it to its end gives. */
struct vt_stress_prog {
	const char *name;	/* "sum" */
	const char *expect;	/* its .expect file in $VPMU_SHARE, or NULL */
	uint32_t stop;		/* VPMU_RUN_* of a run to the end */
	uint64_t cycles;	/* 0: not fixed (loads, misses, image) */
	bool exact;		/* events of .expect usable for exact counts */
	struct vt_prog p;
	char ev_name[VT_STRESS_MAX_EXPECT][16];
	uint64_t ev_count[VT_STRESS_MAX_EXPECT];
	int nev;
};

enum {
	VT_STRESS_PROG_SUM, VT_STRESS_PROG_MARKS, VT_STRESS_PROG_CALLS,
	VT_STRESS_PROG_SORT, VT_STRESS_PROG_MEMCPY, VT_STRESS_PROG_STORES,
	VT_STRESS_PROG_SYSCALL, VT_STRESS_PROG_MARK1, VT_STRESS_PROG_SPIN,
	VT_STRESS_PROG_SORTLOOP, VT_STRESS_NPROGS
};

/* Filled in once by vt_stress_read_info() and vt_stress_read_images(), then read only. */
struct vt_stress_info {
	int type;
	int nr_counters;
	int ncpus;
	struct vt_stress_field field[VT_STRESS_MAX_FIELDS];
	int nfield;
	struct vt_stress_alias alias[VT_STRESS_MAX_ALIASES];
	int nalias;
	struct vt_stress_prog prog[VT_STRESS_NPROGS];
	uint8_t *img_default, *img_max, *img_variant;
	size_t img_len, max_len;
	bool have_uhist, have_hist, have_hotplug;
};

/* ---- a worker ------------------------------------------------------------ */

enum vt_stress_role {
	VT_STRESS_ROLE_PERF, VT_STRESS_ROLE_EXACT, VT_STRESS_ROLE_SYS,
	VT_STRESS_ROLE_RUNNER
};

struct vt_stress_stats {
	uint64_t ops, opens, open_fail, closes, ioctls, reads, runs, samples,
		 lost, exact_full, exact_partial, sample_checks, ucode, uhist,
		 hotplug, hostile;
};

struct vt_stress_worker {
	int id;
	enum vt_stress_role role;
	const struct vt_stress_info *info;	/* what the PMU says, the programs */
	uint64_t seed;		/* the run's */
	uint64_t op;		/* number of the current operation */
	struct vt_stress_rng r;	/* the current operation's generator */
	FILE *log;
	bool verbose;
	int failures;
	int dev;		/* /dev/vpmu */
	uint8_t *mem;		/* program memory, large enough for all */
	pid_t target;		/* a child the per-task events may name */
	struct vt_stress_stats s;
	void *priv;		/* the role's state */
};

extern const char *const vt_stress_role_names[];

void vt_stress_log(struct vt_stress_worker *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void vt_stress_fail(struct vt_stress_worker *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Runs. */
int vt_stress_run(struct vt_stress_worker *w, int prog, uint64_t budget,
		  struct vpmu_run *r);
int vt_stress_run_checked(struct vt_stress_worker *w, int prog, uint64_t budget);
void vt_stress_log_engines(struct vt_stress_worker *w);
void vt_stress_probe_event(struct vt_stress_worker *w, int fd, int prog);
void vt_stress_random_affinity(struct vt_stress_worker *w);
const char *vt_stress_errname(int err);

/* A sample ring, and the raw count its next sample must carry. */
struct vt_stress_ring {
	struct vt_ring vp;
	uint64_t period, next, bad_count;
};

int vt_stress_ring_map(int fd, struct vt_stress_ring *r, size_t pages);
void vt_stress_ring_unmap(struct vt_stress_ring *r);
int vt_stress_ring_drain(struct vt_stress_worker *w, struct vt_stress_ring *r, bool raw);

/* An operation drawn with probability (below - the previous one's) %. */
struct vt_stress_op {
	uint32_t below;
	void (*fn)(struct vt_stress_worker *w);
};

void vt_stress_pick_op(struct vt_stress_worker *w, const struct vt_stress_op *ops, int n);

#endif /* VPMU_STRESS_LIB_H */
