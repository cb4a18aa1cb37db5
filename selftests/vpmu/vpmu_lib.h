/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_lib.h - the plain helpers of the vpmu selftests, with no TAP in
 * them, so that the vpmu_stress program shares them with the kselftest
 * programs (which include them through vpmu_test.h): files and sysfs,
 * CPUs, the microcode loader's files and the module itself, in
 * vpmu_lib.c; image CRC and sealing, program files (VPRG), runs through
 * /dev/vpmu and .expect files, in vpmu_lib_prog.c.  Every program links
 * both (the Makefile's LIB_OBJS); only one-line wrappers are inline here.
 * The perf_event_open() helpers are vpmu_perf_lib.h's.
 *
 * Where vpmu is: the data files in $VPMU_SHARE, by default /usr/share/vpmu,
 * where vpmu's user-space tools package installs its sample microcode and
 * programs; the tools on PATH; the module file in $VPMU_KO, by default the
 * one modprobe would load ("modinfo -n vpmu").  The VM harness sets both
 * variables for its own layout.  Tests skip when a file or the feature is
 * missing.
 */
#ifndef VPMU_LIB_H
#define VPMU_LIB_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <linux/vpmu.h>

#define VT_DEV	"/dev/vpmu"
#define VT_PMU_DIR	"/sys/bus/event_source/devices/vpmu"
/* The histogram unit's buckets: a PMU of their own. */
#define VT_HU_PMU_DIR	"/sys/bus/event_source/devices/vpmu_hu"
#define VT_UCODE	VT_PMU_DIR "/ucode/"
#define VT_HIST	VT_PMU_DIR "/hist/"
#define VT_UHIST	VT_PMU_DIR "/uhist/"
#define VT_SHARE_DEFAULT "/usr/share/vpmu"
#define VT_CPU1_ONLINE "/sys/devices/system/cpu/cpu1/online"

/*
 * The default microcode's name and the sample results used as probes:
 * sum.s runs 179 microwords, one cycle each, and retires 32 instructions.
 */
#define VT_DEFAULT_NAME "vpmu32"
#define VT_SUM_R2		55u
#define VT_SUM_CYCLES	179ull
#define VT_SUM_UOPS	179ull
#define VT_SUM_INSNS	32ull

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* ---- files --------------------------------------------------------------- */

/* A whole file, malloc'ed (NUL-terminated, not counted); NULL on error. */
uint8_t *vt_read_file(const char *path, size_t *len);

/* $VPMU_SHARE/REL into @buf. */
const char *vt_share(char *buf, size_t size, const char *rel);

uint8_t *vt_read_share(const char *rel, size_t *len);

/*
 * First line of the PMU's sysfs file REL (format/freeze_on_ovf,
 * ucode/name, ...), newline stripped; "" and -1 if unreadable.
 */
int vt_pmu_read(const char *rel, char *buf, size_t size);

/* The same of the file at @path. */
int vt_read_line(const char *path, char *buf, size_t size);

/* Is the vpmu PMU registered (its sysfs directory there)? */
static inline bool vt_pmu_present(void)
{
	return access(VT_PMU_DIR, F_OK) == 0;
}

/* The number in the PMU's sysfs file REL (caps/nr_counters, ...), or -1. */
long vt_pmu_long(const char *rel);

/*
 * The first tag the current image's event field cannot select: ev_bits + 1
 * one-hot, 2^ev_bits encoded (caps/ev_mode is a word, not a number); -1
 * if the caps cannot be read.
 */
long vt_tag_limit(void);

/* Write @val to the file at @path; 0 or -errno. */
int vt_write_file(const char *path, const char *val);

/* Write @val to the PMU's sysfs file REL (hist/control, ...); 0 or -errno. */
int vt_pmu_write(const char *rel, const char *val);

/* Run this task on @cpu only; sched_setaffinity()'s result. */
int vt_pin(int cpu);

/* Take CPU 1 offline (@on 0) or bring it back; 0 or -errno. */
static inline int vt_cpu1_set(int on)
{
	return vt_write_file(VT_CPU1_ONLINE, on ? "1" : "0");
}

/* Is CPU 1 online: 1, 0, or -1 if it cannot go offline at all. */
int vt_cpu1_online(void);

/* First line of ucode/NAME, as vt_pmu_read(). */
int vt_ucode_attr(const char *name, char *buf, size_t size);

unsigned long long vt_generation(void);

static inline bool vt_have_loader(void)
{
	return access(VT_UCODE "image", F_OK) == 0;
}

/* The current image, read back; NULL on error. */
static inline uint8_t *vt_read_image(size_t *len)
{
	return vt_read_file(VT_UCODE "image", len);
}

/* ---- images -------------------------------------------------------------- */

uint32_t vt_crc32(uint32_t crc, const void *buf, size_t len);

/* Store the CRC-32 of @len bytes (checksum field as 0) in the header. */
void vt_seal(void *img, size_t len);

/*
 * Write @len bytes to ucode/image in @chunk-byte write()s from offset 0.
 * Returns 0, or -errno of the first failing write (or open).
 */
int vt_write_image(const void *img, size_t len, size_t chunk);

int vt_load_default(void);

/* A copy of @img with another name and miss penalty, resealed. */
uint8_t *vt_variant(const uint8_t *img, size_t len,
		    const char *name, uint32_t miss_penalty);

/* ---- programs and runs --------------------------------------------------- */

struct vt_prog {
	struct vpmu_program_header h;
	uint8_t *file;
	const uint8_t *data;
};

/* Read and check a VPRG file (magic, sizes, CRC); 0 or -1. */
int vt_prog_load(struct vt_prog *p, const char *rel);

static inline void vt_prog_free(struct vt_prog *p)
{
	free(p->file);
	p->file = NULL;
}

/* Program memory: 8-byte aligned, the file's bytes then zeros. */
uint8_t *vt_prog_mem(const struct vt_prog *p);

void vt_run_init(struct vpmu_run *r, const struct vt_prog *p,
		 uint8_t *mem, uint64_t budget);

/* One run from fresh memory into @r (and @mem); 0 or -errno. */
int vt_run(int fd, const struct vt_prog *p, uint8_t *mem,
	   uint64_t budget, struct vpmu_run *r);

/*
 * A run to the program's halt: 0, -errno of the call, or -EPROTO if the
 * run stopped for another reason.
 */
int vt_run_halt(int fd, const struct vt_prog *p, uint8_t *mem,
		uint64_t budget, struct vpmu_run *r);

/* Load share/build/@name.vprg and memory for it; 0 or -1. */
int vt_prog_get(struct vt_prog *p, uint8_t **mem, const char *name);

/* ---- .expect files ------------------------------------------------------- */

/*
 * An .expect file ($VPMU_SHARE/samples/sum.expect, ...) is one fact
 * a line: "stop REASON [CODE]", "reg rN VALUE", "mem ADDR WORD", "event
 * NAME COUNT" (NAME the perf alias without "vpmu_", or tagK), "super
 * cycles COUNT"; '#' starts a comment line.  vt_expect_load() is the one
 * parser; the "event" lines are also kept apart, in file order.
 */
#define VT_EXPECT_MAX	128

struct vt_fact {
	char key[32], arg[32];
	long long val;
	bool has_val;
	char line[80];
};

struct vt_expect {
	int n;
	struct vt_fact fact[VT_EXPECT_MAX];
	int nev;				/* "event NAME COUNT" lines */
	char ev_name[VT_EXPECT_MAX][32];
	uint64_t ev_count[VT_EXPECT_MAX];
	long long super_cycles;			/* "super cycles", or -1 */
};

/* Parse $VPMU_SHARE/@rel into @x; 0, or -1 if it cannot be read whole. */
int vt_expect_load(const char *rel, struct vt_expect *x);

/* The count of "event @name", or -1 if @x has none. */
long long vt_expect_event(const struct vt_expect *x, const char *name);

/*
 * Check a run against an .expect file's stop, reg, mem and "event
 * cycles" lines (the rest is perf's).  Mismatches are printed as TAP
 * comments; returns their number, or -1 if the file is unreadable.
 */
int vt_expect(const char *rel, const struct vpmu_run *r,
	      const uint8_t *mem, uint32_t mem_size, int *checks);

/* ---- modules ------------------------------------------------------------- */

static inline int vt_module_loaded(void)
{
	return access("/sys/module/vpmu", F_OK) == 0;
}

/*
 * vpmu built into the kernel (CONFIG_PERF_VPMU=y): it cannot be unloaded,
 * nor loaded again with other parameters.  Only a loadable module has
 * /sys/module/NAME/initstate.
 */
static inline int vt_module_builtin(void)
{
	return vt_module_loaded() &&
	       access("/sys/module/vpmu/initstate", F_OK) != 0;
}

#define VT_BUILTIN_REASON \
	"vpmu is built into the kernel (CONFIG_PERF_VPMU=y): no unload or reload"

/*
 * The module file: $VPMU_KO, or the one modprobe would load ("modinfo -n
 * vpmu"), or "" if there is none (access() fails on it).
 */
const char *vt_ko(void);

#define VT_NO_KO_REASON \
	"no module file to load (set VPMU_KO; modinfo -n vpmu found none)"

/* Is tool @name (vpmu-run, vpmu-sim...) on PATH, as a shell finds it? */
bool vt_have_tool(const char *name);

/* A module file the kernel decompresses itself (finit_module's flag). */
int vt_ko_flags(const char *ko);

/*
 * finit_module with the run's parameters (VPMU_PARAMS, e.g. "tc=0": the
 * harness's vpmu_params=) and then @params, which win where both name
 * one; 0 or -errno.
 */
int vt_insmod(const char *params);

static inline int vt_rmmod(void)
{
	return syscall(__NR_delete_module, "vpmu", O_NONBLOCK) ? -errno : 0;
}

/*
 * Unload, retrying for up to 5 s while the last references go away (a
 * just-closed event or device may hold the module for a moment); 0 or
 * -errno.
 */
int vt_rmmod_retry(void);

/* Unload if loaded, and load again with @params; 0 or -errno. */
int vt_reload(const char *params);

/* ---- the histogram unit (vpmu_hu.h has the fixture) --------------------- */

/*
 * The module takes the unit's program only as a struct
 * (VPMU_IOC_HU_PROGRAM); the tests write it as text, which vpmu-hist
 * compiles, as a user does (vpmu-hist --set-program), and read it back as
 * vpmu-hist prints it (--get-program).  The buckets come from
 * VPMU_IOC_HU_READ.
 */
#define VT_HIST_TOOL	"vpmu-hist"	/* on PATH */
#define VT_HU_SUM	VPMU_HU_CPU_SUM	/* vt_hu_buckets(): every CPU's */

/*
 * Run "vpmu-hist ARGS" (@args shell words), with @in (if not NULL) on its
 * stdin, its stdout and stderr into @out (NUL-terminated, may be NULL).
 * Its exit status, or -1 if it could not be run.
 */
int vt_hist_tool(const char *args, const char *in, char *out, size_t size);

/*
 * Set the unit's program from @text, as vpmu-hist --set-program=- does:
 * 0, or -EINVAL when vpmu-hist refused the text or the module the program
 * (nothing changed either way), with vpmu-hist's message in @msg (may be
 * NULL).
 */
int vt_hu_prog_msg(const char *text, char *msg, size_t size);

static inline int vt_hu_prog(const char *text)
{
	return vt_hu_prog_msg(text, NULL, 0);
}

/*
 * The program in force as vpmu-hist --get-program prints it (canonical
 * text, "off\n" when off) into @buf; "" if that fails.
 */
const char *vt_hu_get(char *buf, size_t size);

/*
 * CPU @cpu's buckets (VT_HU_SUM: their sum) into @c through
 * VPMU_IOC_HU_READ; their number (the program's rules), or -errno.
 */
int vt_hu_buckets(uint32_t cpu, uint64_t *c);

#endif /* VPMU_LIB_H */
