// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hist_file.c - micro-PC histograms (vpmu_uhist_*) for vpmu-hist:
 * the file format of include/uapi/linux/vpmu.h (read and check, write,
 * sum) and a producer on the host build of the engine.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_engine.h"
#include "vpmu_hist_file.h"
#include "vpmu_tool.h"

/* ---- the file ------------------------------------------------------------ */

int hist_fail(struct vpmu_buf *diag, const char *fmt, ...)
{
	va_list ap;

	vpmu_buf_printf(diag, "error: ");
	va_start(ap, fmt);
	vpmu_buf_vprintf(diag, fmt, ap);
	va_end(ap);
	vpmu_buf_put(diag, "\n", 1);
	return -1;
}

int vpmu_uhist_parse(struct vpmu_uhist *hs, const void *data, size_t len,
		     struct vpmu_buf *diag)
{
	const struct vpmu_uhist_header *h = &hs->h;
	uint64_t want, sum = 0;
	unsigned int i;

	memset(hs, 0, sizeof(*hs));
	if (len < sizeof(*h))
		return hist_fail(diag, "truncated: %zu bytes, the header alone "
				 "is %zu", len, sizeof(*h));
	memcpy(&hs->h, data, sizeof(*h));
	if (h->magic != VPMU_UHIST_MAGIC)
		return hist_fail(diag, "bad magic number 0x%08x (not a vpmu "
				 "micro-PC histogram)", h->magic);
	if (h->version != VPMU_UHIST_VERSION)
		return hist_fail(diag, "unsupported histogram version %u (this "
				 "tool reads version %u)", h->version,
				 VPMU_UHIST_VERSION);
	if (h->header_size != sizeof(*h))
		return hist_fail(diag, "header_size is %u, not %zu",
				 h->header_size, sizeof(*h));
	if (!h->nbuckets || h->nbuckets > VPMU_CS_MAX)
		return hist_fail(diag, "nbuckets %u out of range (1..%lu)",
				 h->nbuckets, (unsigned long)VPMU_CS_MAX);
	want = sizeof(*h) + 8ull * h->nbuckets;
	if (len != want)
		return hist_fail(diag, "%s: %zu bytes, the header and %u "
				 "buckets take %llu",
				 len < want ? "truncated" : "too long", len,
				 h->nbuckets, (unsigned long long)want);
	for (i = 0; i < sizeof(h->reserved) / 4; i++)
		if (h->reserved[i])
			break;
	if (h->reserved0 || i < sizeof(h->reserved) / 4)
		return hist_fail(diag, "reserved header field not zero");
	hs->bucket = malloc(8ull * h->nbuckets);
	if (!hs->bucket)
		abort();
	memcpy(hs->bucket, (const uint8_t *)data + sizeof(*h),
	       8ull * h->nbuckets);
	for (i = 0; i < h->nbuckets; i++)
		sum += hs->bucket[i];
	if (sum != h->samples) {
		vpmu_uhist_free(hs);
		return hist_fail(diag, "samples is %llu, the buckets sum to "
				 "%llu", (unsigned long long)h->samples,
				 (unsigned long long)sum);
	}
	return 0;
}

void vpmu_uhist_write(const struct vpmu_uhist *hs, struct vpmu_buf *out)
{
	struct vpmu_uhist_header h = hs->h;
	uint32_t i;

	h.magic = VPMU_UHIST_MAGIC;
	h.version = VPMU_UHIST_VERSION;
	h.header_size = sizeof(h);
	h.samples = 0;
	for (i = 0; i < h.nbuckets; i++)
		h.samples += hs->bucket[i];
	vpmu_buf_put(out, &h, sizeof(h));
	vpmu_buf_put(out, hs->bucket, 8ull * h.nbuckets);
}

void vpmu_uhist_free(struct vpmu_uhist *hs)
{
	free(hs->bucket);
	hs->bucket = NULL;
}

int vpmu_uhist_add(struct vpmu_uhist *a, const struct vpmu_uhist *b, bool force,
		   struct vpmu_buf *diag)
{
	const char *what = force ? "warning" : "error";
	uint32_t i;

	if (a->h.nbuckets != b->h.nbuckets)
		return hist_fail(diag, "%u buckets, the first file has %u: not "
				 "samples of the same image", b->h.nbuckets,
				 a->h.nbuckets);
	if (a->h.image_checksum != b->h.image_checksum) {
		vpmu_buf_printf(diag, "%s: sampled on image 0x%08x, the first "
				"file on 0x%08x%s\n", what, b->h.image_checksum,
				a->h.image_checksum, force ? "" :
				" (--force sums them anyway)");
		if (!force)
			return -1;
	}
	if (a->h.interval != b->h.interval) {
		vpmu_buf_printf(diag, "%s: interval %u, the first file has "
				"%u%s\n", what, b->h.interval, a->h.interval,
				force ? "" : " (--force sums them anyway)");
		if (!force)
			return -1;
	}
	for (i = 0; i < a->h.nbuckets; i++)
		a->bucket[i] += b->bucket[i];
	a->h.samples += b->h.samples;
	if (a->h.cpu != b->h.cpu)
		a->h.cpu = VPMU_UHIST_CPU_SUM;
	if (a->h.generation != b->h.generation)
		a->h.generation = 0;
	return 0;
}

/* ---- the producer -------------------------------------------------------- */

int vpmu_uhist_simulate(struct vpmu_uhist *hs, const void *img, size_t img_len,
			const void *prog, size_t prog_len, uint32_t interval,
			uint64_t budget, struct vpmu_uhist_run *run,
			struct vpmu_buf *diag)
{
	struct vpmu_engine *e = NULL;
	struct vpmu_ucode *uc = NULL;
	struct vpmu_prog_view pv;
	struct vpmu_stop stop;
	struct vpmu_verr err;
	const u64 *b;
	uint8_t *mem = NULL;
	u32 n;
	int ret = -1;

	memset(hs, 0, sizeof(*hs));
	if (!interval)
		return hist_fail(diag, "the interval must be at least 1 cycle");
	if (vpmu_prog_view(&pv, prog, prog_len, diag))
		return -1;
	if (vpmu_ucode_load(&uc, img, img_len, VPMU_CS_MAX, &err)) {
		vpmu_img_rejected(diag, &err);
		return -1;
	}
	if (pv.h.image_checksum &&
	    pv.h.image_checksum != vpmu_ucode_header(uc)->checksum)
		vpmu_buf_printf(diag, "warning: program was assembled for image "
				"0x%08x, not 0x%08x\n", pv.h.image_checksum,
				vpmu_ucode_header(uc)->checksum);
	e = vpmu_engine_create(VPMU_CS_MAX);
	mem = calloc(1, pv.h.mem_size ? pv.h.mem_size : 4);
	if (!e || !mem)
		abort();
	if (vpmu_engine_attach(e, uc)) {
		hist_fail(diag, "the engine cannot take the image");
		goto out_free;
	}
	memcpy(mem, pv.data, pv.h.load_size);
	vpmu_engine_uhist_set(e, interval);
	vpmu_engine_start(e, mem, pv.h.mem_size, pv.h.entry,
			  pv.h.flags & VPMU_PROG_F_SUPER ? VPMU_MODE_SUPER :
			  VPMU_MODE_USER);
	vpmu_engine_run(e, budget, &stop);
	b = vpmu_engine_uhist(e, &n);
	hs->h.magic = VPMU_UHIST_MAGIC;
	hs->h.version = VPMU_UHIST_VERSION;
	hs->h.header_size = sizeof(hs->h);
	hs->h.nbuckets = n;
	hs->h.interval = interval;
	hs->h.cpu = VPMU_UHIST_CPU_SUM;
	hs->h.image_checksum = vpmu_ucode_header(uc)->checksum;
	hs->bucket = malloc(8ull * n);
	if (!hs->bucket)
		abort();
	for (; n--; )
		hs->h.samples += hs->bucket[n] = b[n];
	if (run) {
		run->reason = stop.reason;
		run->code = stop.code;
		run->cycles = stop.cycles;
	}
	ret = 0;
out_free:
	vpmu_engine_destroy(e);
	vpmu_ucode_free(uc);
	free(mem);
	return ret;
}
