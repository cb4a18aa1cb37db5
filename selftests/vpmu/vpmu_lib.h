/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_lib.h - the plain helpers of the vpmu selftests, with no TAP in
 * them, so that the vpmu_stress program shares them with the kselftest
 * programs (which include them through vpmu_test.h): files and sysfs,
 * CPUs, the microcode loader's files, image CRC and sealing, program files
 * (VPRG), runs through /dev/vpmu, .expect files and the module itself.
 * The perf_event_open() helpers are vpmu_perf_lib.h's.
 *
 * Where vpmu is: the data files in $VPMU_SHARE, by default
 * /usr/share/vpmu, where the vpmu-tools package puts tools/vpmu/share
 * ("make share" there builds it in the tree); the tools on PATH; the
 * module file in $VPMU_KO, by default the one modprobe would load
 * ("modinfo -n vpmu").  The VM harness sets both variables for its own
 * layout.  Tests skip when a file or the feature is missing.
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
static inline uint8_t *vt_read_file(const char *path, size_t *len)
{
	uint8_t *p = NULL;
	size_t n = 0, cap = 0;
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	for (;;) {
		if (cap - n < 4097) {
			uint8_t *q;

			cap = cap ? 2 * cap : 65536;
			q = realloc(p, cap);
			if (!q)
				goto fail;
			p = q;
		}
		r = read(fd, p + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (!r)
			break;
		n += r;
	}
	close(fd);
	p[n] = '\0';
	*len = n;
	return p;
fail:
	free(p);
	close(fd);
	return NULL;
}

/* $VPMU_SHARE/REL into @buf. */
static inline const char *vt_share(char *buf, size_t size, const char *rel)
{
	const char *s = getenv("VPMU_SHARE");

	snprintf(buf, size, "%s/%s", s && *s ? s : VT_SHARE_DEFAULT, rel);
	return buf;
}

static inline uint8_t *vt_read_share(const char *rel, size_t *len)
{
	char path[512];

	return vt_read_file(vt_share(path, sizeof(path), rel), len);
}

/*
 * First line of the PMU's sysfs file REL (format/freeze_on_ovf,
 * ucode/name, ...), newline stripped; "" and -1 if unreadable.
 */
static inline int vt_pmu_read(const char *rel, char *buf, size_t size)
{
	char path[256];
	ssize_t n;
	int fd;

	buf[0] = '\0';
	snprintf(path, sizeof(path), VT_PMU_DIR "/%s", rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Is the vpmu PMU registered (its sysfs directory there)? */
static inline bool vt_pmu_present(void)
{
	return access(VT_PMU_DIR, F_OK) == 0;
}

/* The number in the PMU's sysfs file REL (caps/nr_counters, ...), or -1. */
static inline long vt_pmu_long(const char *rel)
{
	char buf[64];

	return vt_pmu_read(rel, buf, sizeof(buf)) ? -1 : strtol(buf, NULL, 0);
}

/*
 * The first tag the current image's event field cannot select: ev_bits + 1
 * one-hot, 2^ev_bits encoded (caps/ev_mode is a word, not a number); -1
 * if the caps cannot be read.
 */
static inline long vt_tag_limit(void)
{
	long bits = vt_pmu_long("caps/ev_bits");
	char mode[16];

	if (bits < 1 || vt_pmu_read("caps/ev_mode", mode, sizeof(mode)))
		return -1;
	if (!strcmp(mode, "encoded"))
		return 1l << bits;
	return !strcmp(mode, "onehot") ? bits + 1 : -1;
}

/* Write @val to the file at @path; 0 or -errno. */
static inline int vt_write_file(const char *path, const char *val)
{
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Write @val to the PMU's sysfs file REL (hist/program, ...); 0 or -errno. */
static inline int vt_pmu_write(const char *rel, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), VT_PMU_DIR "/%s", rel);
	return vt_write_file(path, val);
}

/* Run this task on @cpu only; sched_setaffinity()'s result. */
static inline int vt_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Take CPU 1 offline (@on 0) or bring it back; 0 or -errno. */
static inline int vt_cpu1_set(int on)
{
	return vt_write_file(VT_CPU1_ONLINE, on ? "1" : "0");
}

/* Is CPU 1 online: 1, 0, or -1 if it cannot go offline at all. */
static inline int vt_cpu1_online(void)
{
	char c = '?';
	int fd = open(VT_CPU1_ONLINE, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (read(fd, &c, 1) != 1)
		c = '?';
	close(fd);
	return c == '1';
}

/* First line of ucode/NAME, as vt_pmu_read(). */
static inline int vt_ucode_attr(const char *name, char *buf, size_t size)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "ucode/%s", name);
	return vt_pmu_read(rel, buf, size);
}

static inline unsigned long long vt_generation(void)
{
	char buf[64];

	if (vt_ucode_attr("generation", buf, sizeof(buf)))
		return 0;
	return strtoull(buf, NULL, 10);
}

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

static inline uint32_t vt_crc32(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	int k;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = crc >> 1 ^ (0xedb88320u & -(crc & 1));
	}
	return ~crc;
}

/* Store the CRC-32 of @len bytes (checksum field as 0) in the header. */
static inline void vt_seal(void *img, size_t len)
{
	struct vpmu_image_header *h = img;

	h->checksum = 0;
	h->checksum = vt_crc32(0, img, len);
}

/*
 * Write @len bytes to ucode/image in @chunk-byte write()s from offset 0.
 * Returns 0, or -errno of the first failing write (or open).
 */
static inline int vt_write_image(const void *img, size_t len, size_t chunk)
{
	size_t off = 0;
	int fd, ret = 0;

	fd = open(VT_UCODE "image", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (off < len) {
		size_t n = len - off < chunk ? len - off : chunk;
		ssize_t w = write(fd, (const uint8_t *)img + off, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			break;
		}
		off += w;
	}
	close(fd);
	return ret;
}

static inline int vt_load_default(void)
{
	int fd, ret = 0;

	fd = open(VT_UCODE "load_default", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "1", 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}

/* A copy of @img with another name and miss penalty, resealed. */
static inline uint8_t *vt_variant(const uint8_t *img, size_t len,
				  const char *name, uint32_t miss_penalty)
{
	struct vpmu_image_header *h;
	uint8_t *v = malloc(len);

	if (!v)
		return NULL;
	memcpy(v, img, len);
	h = (struct vpmu_image_header *)v;
	memset(h->name, 0, sizeof(h->name));
	strncpy(h->name, name, sizeof(h->name) - 1);
	h->dc_miss_penalty = miss_penalty;
	h->image_version += 100;
	vt_seal(v, len);
	return v;
}

/* ---- programs and runs --------------------------------------------------- */

struct vt_prog {
	struct vpmu_program_header h;
	uint8_t *file;
	const uint8_t *data;
};

/* Read and check a VPRG file (magic, sizes, CRC); 0 or -1. */
static inline int vt_prog_load(struct vt_prog *p, const char *rel)
{
	size_t len;

	p->file = vt_read_share(rel, &len);
	if (!p->file || len < sizeof(p->h))
		goto bad;
	memcpy(&p->h, p->file, sizeof(p->h));
	p->data = p->file + sizeof(p->h);
	if (p->h.magic != VPMU_PROG_MAGIC || p->h.total_size != len ||
	    p->h.header_size != sizeof(p->h) ||
	    p->h.load_size + sizeof(p->h) != len ||
	    p->h.load_size > p->h.mem_size)
		goto bad;
	{
		struct vpmu_program_header h = p->h;

		h.checksum = 0;
		if (vt_crc32(vt_crc32(0, &h, sizeof(h)), p->data,
			     p->h.load_size) != p->h.checksum)
			goto bad;
	}
	return 0;
bad:
	free(p->file);
	p->file = NULL;
	return -1;
}

static inline void vt_prog_free(struct vt_prog *p)
{
	free(p->file);
	p->file = NULL;
}

/* Program memory: 8-byte aligned, the file's bytes then zeros. */
static inline uint8_t *vt_prog_mem(const struct vt_prog *p)
{
	void *m;

	if (posix_memalign(&m, 8, p->h.mem_size))
		return NULL;
	memset(m, 0, p->h.mem_size);
	memcpy(m, p->data, p->h.load_size);
	return m;
}

static inline void vt_run_init(struct vpmu_run *r, const struct vt_prog *p,
			       uint8_t *mem, uint64_t budget)
{
	memset(r, 0, sizeof(*r));
	r->size = sizeof(*r);
	r->mem = (uintptr_t)mem;
	r->mem_size = p->h.mem_size;
	r->entry = p->h.entry;
	r->budget = budget;
	r->mode = p->h.flags & VPMU_PROG_F_SUPER ? VPMU_MODE_SUPER :
						   VPMU_MODE_USER;
}

/* One run from fresh memory into @r (and @mem); 0 or -errno. */
static inline int vt_run(int fd, const struct vt_prog *p, uint8_t *mem,
			 uint64_t budget, struct vpmu_run *r)
{
	memset(mem, 0, p->h.mem_size);
	memcpy(mem, p->data, p->h.load_size);
	vt_run_init(r, p, mem, budget);
	return ioctl(fd, VPMU_IOC_RUN, r) ? -errno : 0;
}

/*
 * A run to the program's halt: 0, -errno of the call, or -EPROTO if the
 * run stopped for another reason.
 */
static inline int vt_run_halt(int fd, const struct vt_prog *p, uint8_t *mem,
			      uint64_t budget, struct vpmu_run *r)
{
	int ret = vt_run(fd, p, mem, budget, r);

	if (!ret && r->stop != VPMU_RUN_HALT)
		ret = -EPROTO;
	return ret;
}

/* Load share/build/@name.vprg and memory for it; 0 or -1. */
static inline int vt_prog_get(struct vt_prog *p, uint8_t **mem,
			      const char *name)
{
	char rel[64];

	*mem = NULL;
	snprintf(rel, sizeof(rel), "build/%s.vprg", name);
	if (vt_prog_load(p, rel))
		return -1;
	*mem = vt_prog_mem(p);
	return *mem ? 0 : -1;
}

/* ---- .expect files ------------------------------------------------------- */

/*
 * An .expect file (tools/vpmu/share: samples/sum.expect, ...) is one fact
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
static inline int vt_expect_load(const char *rel, struct vt_expect *x)
{
	char *text, *line, *save = NULL;
	size_t len;

	memset(x, 0, sizeof(*x));
	x->super_cycles = -1;
	text = (char *)vt_read_share(rel, &len);
	if (!text)
		return -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct vt_fact *f = &x->fact[x->n];
		int n;

		if (x->n == VT_EXPECT_MAX) {
			free(text);
			return -1;
		}
		n = sscanf(line, "%31s %31s %lli", f->key, f->arg, &f->val);
		if (n < 2 || f->key[0] == '#')
			continue;
		f->has_val = n == 3;
		snprintf(f->line, sizeof(f->line), "%s", line);
		x->n++;
		if (!f->has_val)
			continue;
		if (!strcmp(f->key, "event")) {
			strcpy(x->ev_name[x->nev], f->arg);
			x->ev_count[x->nev++] = f->val;
		} else if (!strcmp(f->key, "super") &&
			   !strcmp(f->arg, "cycles")) {
			x->super_cycles = f->val;
		}
	}
	free(text);
	return 0;
}

/* The count of "event @name", or -1 if @x has none. */
static inline long long vt_expect_event(const struct vt_expect *x,
					const char *name)
{
	int i;

	for (i = 0; i < x->nev; i++)
		if (!strcmp(x->ev_name[i], name))
			return x->ev_count[i];
	return -1;
}

static const char *const vt_stop_names[] = {
	"budget", "halt", "trap", "fault", "signal",
};

/*
 * Check a run against an .expect file's stop, reg, mem and "event
 * cycles" lines (the rest is perf's).  Mismatches are printed as TAP
 * comments; returns their number, or -1 if the file is unreadable.
 */
static inline int vt_expect(const char *rel, const struct vpmu_run *r,
			    const uint8_t *mem, uint32_t mem_size, int *checks)
{
	struct vt_expect *x = malloc(sizeof(*x));
	int bad = 0, i;

	*checks = 0;
	if (!x || vt_expect_load(rel, x)) {
		free(x);
		return -1;
	}
	for (i = 0; i < x->n; i++) {
		const struct vt_fact *f = &x->fact[i];
		long long want = f->val;
		unsigned long long got;

		if (!strcmp(f->key, "stop")) {
			(*checks)++;
			if (r->stop >= 5 ||
			    strcmp(f->arg, vt_stop_names[r->stop]) ||
			    (f->has_val && r->code != (uint32_t)want)) {
				printf("# %s: %s: got stop %u code %u\n", rel,
				       f->line, r->stop, r->code);
				bad++;
			}
			continue;
		}
		if (!f->has_val)
			continue;
		if (!strcmp(f->key, "reg")) {
			got = r->regs[atoi(f->arg + 1) & 31];
			want &= 0xffffffff;
		} else if (!strcmp(f->key, "mem")) {
			unsigned long a = strtoul(f->arg, NULL, 0);

			if (a % 4 || a + 4 > mem_size) {
				bad++;
				continue;
			}
			memcpy(&got, mem + a, 4);
			got &= 0xffffffff;
			want &= 0xffffffff;
		} else if (!strcmp(f->key, "event") &&
			   !strcmp(f->arg, "cycles")) {
			got = r->cycles;
		} else {
			continue;
		}
		(*checks)++;
		if (got != (unsigned long long)want) {
			printf("# %s: %s: got %llu\n", rel, f->line, got);
			bad++;
		}
	}
	free(x);
	return bad;
}

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
static inline const char *vt_ko(void)
{
	static char path[4096];
	const char *ko = getenv("VPMU_KO");
	FILE *f;

	if (ko && *ko)
		return ko;
	if (path[0])
		return path;
	f = popen("modinfo -n vpmu 2>/dev/null", "r");
	if (!f)
		return "";
	if (!fgets(path, sizeof(path), f) || path[0] != '/')
		path[0] = 0;
	pclose(f);
	path[strcspn(path, "\n")] = 0;
	return path;
}

#define VT_NO_KO_REASON \
	"no module file to load (set VPMU_KO; modinfo -n vpmu found none)"

/* Is tool @name (vpmu-run, vpmu-sim...) on PATH, as a shell finds it? */
static inline bool vt_have_tool(const char *name)
{
	char dirs[4096], file[4096];
	const char *path = getenv("PATH");
	char *dir, *save;

	snprintf(dirs, sizeof(dirs), "%s", path ? path : "/usr/bin:/bin");
	for (dir = strtok_r(dirs, ":", &save); dir;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(file, sizeof(file), "%s/%s", *dir ? dir : ".", name);
		if (!access(file, X_OK))
			return true;
	}
	return false;
}

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE	4
#endif

/* A module file the kernel decompresses itself (finit_module's flag). */
static inline int vt_ko_flags(const char *ko)
{
	const char *dot = strrchr(ko, '.');

	return dot && (!strcmp(dot, ".xz") || !strcmp(dot, ".zst") ||
		       !strcmp(dot, ".gz")) ? MODULE_INIT_COMPRESSED_FILE : 0;
}

/*
 * finit_module with the run's parameters (VPMU_PARAMS, e.g. "tc=0": the
 * harness's vpmu_params=) and then @params, which win where both name
 * one; 0 or -errno.
 */
static inline int vt_insmod(const char *params)
{
	const char *run = getenv("VPMU_PARAMS");
	char all[512];
	int fd, ret;

	if (snprintf(all, sizeof(all), "%s %s", run ? run : "", params) >=
	    (int)sizeof(all))
		return -E2BIG;
	fd = open(vt_ko(), O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(__NR_finit_module, fd, all, vt_ko_flags(vt_ko())) ?
	      -errno : 0;
	close(fd);
	return ret;
}

static inline int vt_rmmod(void)
{
	return syscall(__NR_delete_module, "vpmu", O_NONBLOCK) ? -errno : 0;
}

/*
 * Unload, retrying for up to 5 s while the last references go away (a
 * just-closed event or device may hold the module for a moment); 0 or
 * -errno.
 */
static inline int vt_rmmod_retry(void)
{
	int ret = 0, tries;

	for (tries = 0; tries < 50; tries++) {
		ret = vt_rmmod();
		if (ret != -EAGAIN && ret != -EBUSY)
			break;
		usleep(100000);
	}
	return ret;
}

/* Unload if loaded, and load again with @params; 0 or -errno. */
static inline int vt_reload(const char *params)
{
	int ret = vt_rmmod_retry();

	if (ret && ret != -ENOENT)
		return ret;
	return vt_insmod(params);
}

#endif /* VPMU_LIB_H */
