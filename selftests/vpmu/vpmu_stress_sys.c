// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_stress_sys.c - the sys worker (microcode, hist/, uhist/, CPU
 * hotplug) and the runners of vpmu_stress.  See vpmu_stress.c.
 */
#define _GNU_SOURCE
#include "vpmu_stress_ops.h"
#include "vpmu_stress_pmu.h"

#define UHIST	VT_PMU_DIR "/uhist/"
#define HIST	VT_PMU_DIR "/hist/"
#define MAX_FILES 12

/* Write @val to @path; log and check the result against @ok (errnos, 0-ended). */
static int sys_write(struct vt_stress_worker *w, const char *path, const char *val,
		     const int *ok)
{
	int ret = vt_write_file(path, val), i;

	vt_stress_log(w, "write %s <- \"%s\": %s", path + strlen(VT_PMU_DIR) + 1,
		      val, vt_stress_errname(ret));
	if (!ret)
		return 0;
	for (i = 0; ok && ok[i]; i++)
		if (ret == -ok[i])
			return ret;
	vt_stress_fail(w, "write %s <- \"%s\": unexpected %s", path, val,
		       vt_stress_errname(ret));
	return ret;
}

static void op_ucode(struct vt_stress_worker *w)
{
	const struct vt_stress_info *info = w->info;
	static const int bad[] = { EBADMSG, EINVAL, EFBIG, EMSGSIZE, ENOSPC,
				   E2BIG, ENOEXEC, ERANGE, EPROTO, EFAULT,
				   EOVERFLOW, ENOENT, EILSEQ, 0 };
	unsigned long long gen = vt_generation();
	int k = vt_stress_below(&w->r, 6), ret;
	size_t chunk = vt_stress_chance(&w->r, 50) ? 4096 : 1 + vt_stress_below(&w->r, 9000);
	uint8_t *img;

	w->s.ucode++;
	switch (k) {
	case 0:
		ret = vt_load_default();
		break;
	case 1:
		ret = vt_write_image(info->img_default, info->img_len, chunk);
		break;
	case 2:
		if (!info->img_max)
			return;
		ret = vt_write_image(info->img_max, info->max_len, chunk);
		break;
	case 3:
		ret = vt_write_image(info->img_variant, info->img_len, chunk);
		break;
	case 4:		/* a byte changed: the checksum refuses it */
		img = malloc(info->img_len);
		memcpy(img, info->img_default, info->img_len);
		img[64 + vt_stress_below(&w->r, info->img_len - 64)] ^=
			1 + vt_stress_below(&w->r, 255);
		ret = vt_write_image(img, info->img_len, chunk);
		free(img);
		vt_stress_log(w, "ucode: corrupt image in %zu-byte writes: %s", chunk,
			      vt_stress_errname(ret));
		if (!ret) {
			vt_stress_fail(w, "a corrupt image was accepted");
			return;
		}
		for (k = 0; bad[k] && ret != -bad[k]; k++)
			;
		if (!bad[k])
			vt_stress_fail(w, "corrupt image: unexpected %s",
				       vt_stress_errname(ret));
		if (vt_generation() != gen)
			vt_stress_fail(w, "corrupt image: generation %llu -> %llu",
				       gen, vt_generation());
		return;
	default:	/* half an image, then close */
	{
		int fd = open(VT_UCODE "image", O_WRONLY | O_CLOEXEC);

		ret = 0;
		if (fd < 0 ||
		    write(fd, info->img_default, info->img_len / 2) < 0)
			ret = -errno;
		if (fd >= 0)
			close(fd);
		vt_stress_log(w, "ucode: half an image: %s", vt_stress_errname(ret));
		if (ret)
			vt_stress_fail(w, "half an image: %s", vt_stress_errname(ret));
		return;
	}
	}
	vt_stress_log(w, "ucode: image %d in %zu-byte writes: %s (generation %llu -> %llu)",
		      k, chunk, vt_stress_errname(ret), gen, vt_generation());
	if (ret)
		vt_stress_fail(w, "loading image %d: %s", k, vt_stress_errname(ret));
	else if (vt_generation() != gen + 1)
		vt_stress_fail(w, "image %d: generation %llu -> %llu", k, gen,
			       vt_generation());
}

/*
 * A random struct through /dev/vpmu's VPMU_IOC_HU_PROGRAM, good or bad
 * (any kind, an event or a range, a period of 0 now and then, any flags,
 * up to one rule too many): set, or EINVAL.
 */
static void hist_ioctl(struct vt_stress_worker *w)
{
	struct vpmu_hu_program u;
	unsigned int i;
	int fd, ret;

	memset(&u, 0, sizeof(u));
	u.size = sizeof(u);
	u.flags = vt_stress_below(&w->r, 8);
	u.nr = vt_stress_below(&w->r, VPMU_HU_BUCKETS + 2);
	for (i = 0; i < u.nr && i < VPMU_HU_BUCKETS; i++) {
		struct vpmu_hu_rule *r = &u.rule[i];

		r->kind = vt_stress_below(&w->r, VPMU_HU_NKINDS + 1);
		if (r->kind == VPMU_HU_EVENT) {
			r->event = vt_stress_below(&w->r, 0x110);
		} else {
			r->lo = vt_stress_below(&w->r, 64);
			r->hi = r->lo + vt_stress_below(&w->r, 64);
		}
		r->period = vt_stress_chance(&w->r, 5) ? 0 :
			    1 + vt_stress_below(&w->r, 100000);
	}
	fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		vt_stress_fail(w, "open %s: %s", VT_DEV, vt_stress_errname(-errno));
		return;
	}
	ret = ioctl(fd, VPMU_IOC_HU_PROGRAM, &u) ? -errno : 0;
	close(fd);
	vt_stress_log(w, "VPMU_IOC_HU_PROGRAM flags %#x nr %u: %s", u.flags,
		      u.nr, ret ? vt_stress_errname(ret) : "ok");
	if (ret && ret != -EINVAL)
		vt_stress_fail(w, "VPMU_IOC_HU_PROGRAM: unexpected %s",
			       vt_stress_errname(ret));
}

/* A CPU's buckets, or their sum, through VPMU_IOC_HU_READ. */
static void hist_read(struct vt_stress_worker *w)
{
	struct vpmu_hu_counts k = { .size = sizeof(k) };
	int fd, ret;

	k.cpu = vt_stress_chance(&w->r, 50) ? VPMU_HU_CPU_SUM :
		vt_stress_below(&w->r, 2);	/* online or not, possible */
	fd = open(VT_DEV, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		vt_stress_fail(w, "open %s: %s", VT_DEV, vt_stress_errname(-errno));
		return;
	}
	ret = ioctl(fd, VPMU_IOC_HU_READ, &k) ? -errno : 0;
	close(fd);
	vt_stress_log(w, "VPMU_IOC_HU_READ cpu %#x: %s, %u buckets", k.cpu,
		      ret ? vt_stress_errname(ret) : "ok", k.nr);
	if (ret)
		vt_stress_fail(w, "VPMU_IOC_HU_READ cpu %#x: unexpected %s",
			       k.cpu, vt_stress_errname(ret));
	if (!ret && k.nr > VPMU_HU_BUCKETS)
		vt_stress_fail(w, "VPMU_IOC_HU_READ: %u buckets", k.nr);
}

static void op_hist(struct vt_stress_worker *w)
{
	static const int einval[] = { EINVAL, 0 };

	if (!w->info->have_hist)
		return;
	switch (vt_stress_below(&w->r, 3)) {
	case 0:
		hist_ioctl(w);
		break;
	case 1:
		if (vt_stress_chance(&w->r, 80))
			sys_write(w, HIST "control", "reset", NULL);
		else if (!sys_write(w, HIST "control", "start", einval))
			vt_stress_fail(w, "hist/control \"start\" accepted");
		break;
	default:
		hist_read(w);
	}
}

/* A uhist file read through one open file in random pieces. */
struct piece_file {
	int fd;
	char name[16];
	uint8_t *buf;
	size_t len, cap;
	int restarts;
	bool done;
};

/* ESTALE restarts one reader may take before it counts as starved. */
#define MAX_RESTARTS	1000

/*
 * Open several uhist files at once (sometimes more than the module keeps
 * snapshots for), read each from offset 0 to its end in random pieces,
 * all interleaved: each must still read as one consistent snapshot of its
 * own file (samples is the sum of its buckets), after starting again on
 * ESTALE if its snapshot went to another reader.
 */
static void uhist_pieces(struct vt_stress_worker *w)
{
	const struct vt_stress_info *info = w->info;
	struct piece_file f[MAX_FILES];
	int n = 1 + vt_stress_below(&w->r, MAX_FILES), i, left;

	for (i = 0; i < n; i++) {
		int cpu = vt_stress_below(&w->r, info->ncpus + 1);
		char path[128];

		if (cpu == info->ncpus)
			snprintf(f[i].name, sizeof(f[i].name), "sum");
		else
			snprintf(f[i].name, sizeof(f[i].name), "cpu%d", cpu);
		snprintf(path, sizeof(path), UHIST "%s", f[i].name);
		f[i].fd = open(path, O_RDONLY | O_CLOEXEC);
		f[i].cap = 65536 + 64;
		f[i].buf = malloc(f[i].cap);
		f[i].len = 0;
		f[i].restarts = 0;
		f[i].done = f[i].fd < 0;
		if (f[i].fd < 0)
			vt_stress_fail(w, "open %s: %s", path, vt_stress_errname(errno));
	}
	vt_stress_log(w, "uhist: %d files read in pieces, interleaved", n);
	for (left = n; left;) {
		for (i = 0; i < n; i++) {
			size_t want = 1 + vt_stress_below(&w->r, 5000);
			ssize_t r;

			if (f[i].done)
				continue;
			if (want > f[i].cap - f[i].len)
				want = f[i].cap - f[i].len;
			r = read(f[i].fd, f[i].buf + f[i].len, want);
			/*
			 * More readers than snapshots: one whose snapshot
			 * went to another reader is told so, and starts
			 * again from offset 0.
			 */
			if (r < 0 && errno == ESTALE &&
			    ++f[i].restarts <= MAX_RESTARTS &&
			    lseek(f[i].fd, 0, SEEK_SET) == 0) {
				f[i].len = 0;
				continue;
			}
			if (r < 0) {
				vt_stress_fail(w, "read uhist/%s at %zu: %s",
					       f[i].name, f[i].len,
					       vt_stress_errname(errno));
				r = 0;
			}
			if (!r || !want) {
				f[i].done = true;
				left--;
			}
			f[i].len += r;
		}
	}
	for (i = 0; i < n; i++) {
		struct vpmu_uhist_header h;
		uint64_t sum = 0, b;
		size_t off;

		if (f[i].fd < 0)
			goto next;
		close(f[i].fd);
		memcpy(&h, f[i].buf, sizeof(h));
		if (f[i].len < sizeof(h) || h.magic != VPMU_UHIST_MAGIC ||
		    h.header_size != sizeof(h) ||
		    f[i].len != sizeof(h) + 8ull * h.nbuckets ||
		    (strcmp(f[i].name, "sum") ?
		     h.cpu != (uint32_t)atoi(f[i].name + 3) :
		     h.cpu != VPMU_UHIST_CPU_SUM)) {
			vt_stress_fail(w,
				       "uhist/%s (file %d of %d) read in pieces: %zu bytes, magic %#x, cpu %#x, %u buckets",
				       f[i].name, i, n, f[i].len, h.magic, h.cpu,
				       h.nbuckets);
			goto next;
		}
		for (off = sizeof(h); off < f[i].len; off += 8) {
			memcpy(&b, f[i].buf + off, 8);
			sum += b;
		}
		if (sum != h.samples)
			vt_stress_fail(w,
				       "uhist/%s (file %d of %d) read in pieces: buckets sum to %llu, header says %llu samples",
				       f[i].name, i, n, (unsigned long long)sum,
				       (unsigned long long)h.samples);
next:
		free(f[i].buf);
	}
}

static void op_uhist(struct vt_stress_worker *w)
{
	const struct vt_stress_info *info = w->info;
	static const char *const words[] = { "start", "pause", "resume",
					     "reset", "stop", "bogus" };
	static const char *const ks[] = { "0", "1", "7", "32", "1024",
					  "100000" };
	static const int einval[] = { EINVAL, 0 };
	int k = vt_stress_below(&w->r, 6);

	if (!info->have_uhist)
		return;
	w->s.uhist++;
	switch (vt_stress_below(&w->r, 5)) {
	case 0:
		sys_write(w, UHIST "interval", ks[k], NULL);
		break;
	case 1:
		/* start (K 0), pause, resume: EINVAL in some states */
		if (!sys_write(w, UHIST "control", words[k],
			       k == 3 || k == 4 ? NULL : einval) && k == 5)
			vt_stress_fail(w, "uhist/control \"bogus\" accepted");
		break;
	case 2: {
		char path[128];
		uint8_t buf[9000];
		int fd, cpu = vt_stress_below(&w->r, info->ncpus + 1);
		off_t off = vt_stress_below(&w->r, 70000);
		size_t size = vt_stress_below(&w->r, sizeof(buf));
		ssize_t r;

		if (cpu == info->ncpus)
			snprintf(path, sizeof(path), UHIST "sum");
		else
			snprintf(path, sizeof(path), UHIST "cpu%d", cpu);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		r = fd < 0 ? -1 : pread(fd, buf, size, off);
		vt_stress_log(w, "pread %s %zu bytes at %lld: %zd", path + strlen(UHIST),
			      size, (long long)off, r < 0 ? -errno : r);
		if (r < 0)
			vt_stress_fail(w, "pread %s at %lld: %s", path,
				       (long long)off, vt_stress_errname(errno));
		if (fd >= 0)
			close(fd);
		break;
	}
	default:
		uhist_pieces(w);
	}
}

static void op_hotplug(struct vt_stress_worker *w)
{
	static const int busy[] = { EBUSY, EAGAIN, 0 };
	bool off = vt_stress_chance(&w->r, 50);

	if (!w->info->have_hotplug)
		return;
	w->s.hotplug++;
	sys_write(w, VT_CPU1_ONLINE, off ? "0" : "1", busy);
}

static void op_run(struct vt_stress_worker *w)
{
	vt_stress_run_checked(w, vt_stress_below(&w->r, VT_STRESS_NPROGS), 20000);
}

void vt_stress_sys_op(struct vt_stress_worker *w)
{
	static const struct vt_stress_op ops[] = {
		{ 20, op_ucode }, { 35, op_hist }, { 75, op_uhist },
		{ 85, op_hotplug }, { 100, op_run },
	};

	vt_stress_pick_op(w, ops, ARRAY_SIZE(ops));
	if (vt_stress_chance(&w->r, 30))
		usleep(vt_stress_below(&w->r, 20000));
}

void vt_stress_sys_fini(struct vt_stress_worker *w)
{
	if (w->info->have_hotplug)
		vt_write_file(VT_CPU1_ONLINE, "1");
}

void vt_stress_runner_op(struct vt_stress_worker *w)
{
	int p = vt_stress_below(&w->r, VT_STRESS_NPROGS);
	uint64_t budget = p >= VT_STRESS_PROG_SPIN ? 5000 + vt_stress_below(&w->r, 100000) :
			  vt_stress_chance(&w->r, 10) ? 1 + vt_stress_below(&w->r, 2000) :
			  1000000;

	if (vt_stress_chance(&w->r, 15))
		vt_stress_random_affinity(w);
	vt_stress_log(w, "run %s budget %llu", w->info->prog[p].name,
		      (unsigned long long)budget);
	vt_stress_run_checked(w, p, budget);
}
