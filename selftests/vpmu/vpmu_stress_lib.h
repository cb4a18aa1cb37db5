/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_stress_lib.h - the bottom of vpmu_stress (vpmu_stress.c lists its
 * files): the generator, what the PMU says about itself (struct st_info,
 * filled in by vpmu_stress_pmu.c), a worker and what every worker uses
 * (vpmu_stress_lib.c: its log and failures, runs, affinity, sample
 * rings).
 *
 * No global state: main() owns the one struct st_info and every worker
 * reaches it through its struct st_worker.
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

#define ST_MAX_WORKERS	16
#define ST_MAX_ALIASES	64
#define ST_MAX_FIELDS	32
#define ST_MAX_EXPECT	32

/* Every read_format bit but LOST. */
#define RF_ALL		(PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | \
			 PERF_FORMAT_GROUP)

/* ---- the generator ------------------------------------------------------- */

struct st_rng {
	uint64_t s;
};

/* splitmix64: one 64-bit state, good enough spread for test choices. */
static inline uint64_t st_rnd(struct st_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* 0 .. n - 1 (0 if n is 0) */
static inline uint32_t st_below(struct st_rng *r, uint32_t n)
{
	return n ? (uint32_t)(st_rnd(r) % n) : 0;
}

/* true with @percent % probability */
static inline bool st_chance(struct st_rng *r, unsigned int percent)
{
	return st_below(r, 100) < percent;
}

/* ---- what the PMU says about itself (read once, before the workers) ------ */

/* A format/ field: "config1:20" is word 1, bits 20..20. */
struct st_field {
	char name[24];
	int word, lo, hi;
};

/* An events/ alias, "vpmu_" stripped, with its attr.config. */
struct st_alias {
	char name[24];
	uint64_t config;
};

/* A program of share/build and what one run of it to its end gives. */
struct st_prog {
	const char *name;	/* "sum" */
	const char *expect;	/* "samples/sum.expect", or NULL */
	uint32_t stop;		/* VPMU_RUN_* of a run to the end */
	uint64_t cycles;	/* 0: not fixed (loads, misses, image) */
	bool exact;		/* events of .expect usable for exact counts */
	struct vl_prog p;
	char ev_name[ST_MAX_EXPECT][16];
	uint64_t ev_count[ST_MAX_EXPECT];
	int nev;
};

enum { P_SUM, P_MARKS, P_CALLS, P_SORT, P_MEMCPY, P_STORES, P_SYSCALL,
       P_MARK1, P_SPIN, P_SORTLOOP, P_NPROGS };

/* Filled in once by st_read_info() and st_read_images(), then read only. */
struct st_info {
	int type;
	int nr_counters;
	int ncpus;
	struct st_field field[ST_MAX_FIELDS];
	int nfield;
	struct st_alias alias[ST_MAX_ALIASES];
	int nalias;
	struct st_prog prog[P_NPROGS];
	uint8_t *img_default, *img_max, *img_variant;
	size_t img_len, max_len;
	bool have_uhist, have_hist, have_hotplug;
};

/* ---- a worker ------------------------------------------------------------ */

enum st_role { R_PERF, R_EXACT, R_SYS, R_RUNNER };

struct st_stats {
	uint64_t ops, opens, open_fail, closes, ioctls, reads, runs, samples,
		 lost, exact_full, exact_partial, sample_checks, ucode, uhist,
		 hotplug, hostile;
};

struct st_worker {
	int id;
	enum st_role role;
	const struct st_info *info;	/* what the PMU says, the programs */
	uint64_t seed;		/* the run's */
	uint64_t op;		/* number of the current operation */
	struct st_rng r;	/* the current operation's generator */
	FILE *log;
	bool verbose;
	int failures;
	int dev;		/* /dev/vpmu */
	uint8_t *mem;		/* program memory, large enough for all */
	pid_t target;		/* a child the per-task events may name */
	struct st_stats s;
	void *priv;		/* the role's state */
};

extern const char *const st_role_names[];

void st_log(struct st_worker *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void st_fail(struct st_worker *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Runs. */
int st_run(struct st_worker *w, int prog, uint64_t budget,
	   struct vpmu_run *r);
int st_run_checked(struct st_worker *w, int prog, uint64_t budget);
void st_log_engines(struct st_worker *w);
void st_probe_event(struct st_worker *w, int fd, int prog);
void st_random_affinity(struct st_worker *w);
const char *st_errname(int err);

/* A sample ring, and the raw count its next sample must carry. */
struct st_ring {
	struct vp_ring vp;
	uint64_t period, next, bad_count;
};

int st_ring_map(int fd, struct st_ring *r, size_t pages);
void st_ring_unmap(struct st_ring *r);
int st_ring_drain(struct st_worker *w, struct st_ring *r, bool raw);

/* An operation drawn with probability (below - the previous one's) %. */
struct st_op {
	uint32_t below;
	void (*fn)(struct st_worker *w);
};

void st_pick_op(struct st_worker *w, const struct st_op *ops, int n);

#endif /* VPMU_STRESS_LIB_H */
