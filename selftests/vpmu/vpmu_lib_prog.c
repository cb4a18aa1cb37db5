// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_lib_prog.c - the plain helpers of the vpmu selftests (vpmu_lib.h,
 * which says what each does) for what vpmu runs: image CRC and sealing,
 * program files (VPRG), runs through /dev/vpmu and .expect files.
 */
#include "vpmu_lib.h"	/* first of the libc headers: _GNU_SOURCE */
#include <assert.h>

/* ---- images -------------------------------------------------------------- */

uint32_t vt_crc32(uint32_t crc, const void *buf, size_t len)
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

void vt_seal(void *img, size_t len)
{
	struct vpmu_image_header *h = img;

	h->checksum = 0;
	h->checksum = vt_crc32(0, img, len);
}

int vt_write_image(const void *img, size_t len, size_t chunk)
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

int vt_load_default(void)
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

uint8_t *vt_variant(const uint8_t *img, size_t len,
		    const char *name, uint32_t miss_penalty)
{
	struct vpmu_image_header *h;
	uint8_t *v = malloc(len);

	if (!v)
		return NULL;
	memcpy(v, img, len);
	h = (struct vpmu_image_header *)v;
	memset(h->name, 0, sizeof(h->name));
	snprintf(h->name, sizeof(h->name), "%s", name);
	h->dc_miss_penalty = miss_penalty;
	h->image_version += 100;
	vt_seal(v, len);
	return v;
}

/* ---- programs and runs --------------------------------------------------- */

int vt_prog_load(struct vt_prog *p, const char *rel)
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

uint8_t *vt_prog_mem(const struct vt_prog *p)
{
	void *m;

	if (posix_memalign(&m, 8, p->h.mem_size))
		return NULL;
	memset(m, 0, p->h.mem_size);
	memcpy(m, p->data, p->h.load_size);
	return m;
}

void vt_run_init(struct vpmu_run *r, const struct vt_prog *p,
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

int vt_run(int fd, const struct vt_prog *p, uint8_t *mem,
	   uint64_t budget, struct vpmu_run *r)
{
	memset(mem, 0, p->h.mem_size);
	memcpy(mem, p->data, p->h.load_size);
	vt_run_init(r, p, mem, budget);
	return ioctl(fd, VPMU_IOC_RUN, r) ? -errno : 0;
}

int vt_run_halt(int fd, const struct vt_prog *p, uint8_t *mem,
		uint64_t budget, struct vpmu_run *r)
{
	int ret = vt_run(fd, p, mem, budget, r);

	if (!ret && r->stop != VPMU_RUN_HALT)
		ret = -EPROTO;
	return ret;
}

int vt_prog_get(struct vt_prog *p, uint8_t **mem, const char *name)
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

/* An "event" line's NAME is copied whole from its fact's arg. */
static_assert(sizeof(((struct vt_fact *)0)->arg) ==
	      sizeof(((struct vt_expect *)0)->ev_name[0]),
	      "struct vt_expect's ev_name[] are as long as a fact's arg");

int vt_expect_load(const char *rel, struct vt_expect *x)
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
			memcpy(x->ev_name[x->nev], f->arg, sizeof(f->arg));
			x->ev_count[x->nev++] = f->val;
		} else if (!strcmp(f->key, "super") &&
			   !strcmp(f->arg, "cycles")) {
			x->super_cycles = f->val;
		}
	}
	free(text);
	return 0;
}

long long vt_expect_event(const struct vt_expect *x, const char *name)
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

int vt_expect(const char *rel, const struct vpmu_run *r,
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
