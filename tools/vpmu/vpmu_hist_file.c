// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hist_file.c - micro-PC histograms (vpmu_uhist_*) for vpmu-hist:
 * the file format of include/uapi/linux/vpmu.h (read and check, write,
 * sum) and the histograms made on the host rather than read: a producer
 * on the host build of the engine, and the samples of perf script.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_engine.h"
#include "vpmu_hist_priv.h"
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
	if (vpmu_ucode_load(&uc, img, img_len, VPMU_CS_MAX, &err))
		return hist_fail(diag, "image rejected: %s", err.msg);
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

/* ---- perf samples ------------------------------------------------------- */

/*
 * The last field of a perf script line, as a sample IP (hex, 0x or not):
 * 0, 1 for a blank line, or -1 if the line has no IP.
 */
static int perf_line_ip(const char *line, size_t n, uint64_t *ip)
{
	char field[24], *end;
	size_t k = n;

	while (k && (line[k - 1] == ' ' || line[k - 1] == '\t' ||
		     line[k - 1] == '\r'))
		k--;
	if (!k)
		return 1;
	n = k;
	while (k && line[k - 1] != ' ' && line[k - 1] != '\t')
		k--;
	if (n - k >= sizeof(field) || !isxdigit((unsigned char)line[k]))
		return -1;
	memcpy(field, line + k, n - k);
	field[n - k] = '\0';
	*ip = strtoull(field, &end, 16);
	return *end ? -1 : 0;
}

/*
 * The micro-PC of a sample's IP: VPMU_SAMPLE_UPC_BASE + micro-PC (the
 * format term sample_upc), or micro-PC << 32 | macro PC (the IP of
 * earlier versions, every value of which lies below VPMU_SAMPLE_PC_BASE).
 * Returns 0, or -1 with the reason in @why.
 */
static int perf_ip_upc(uint64_t ip, uint64_t *upc, const char **why)
{
	if (ip >= VPMU_SAMPLE_UPC_BASE && ip - VPMU_SAMPLE_UPC_BASE <= UINT32_MAX) {
		*upc = ip - VPMU_SAMPLE_UPC_BASE;
		return 0;
	}
	if (ip < VPMU_SAMPLE_PC_BASE) {
		*upc = ip >> 32;
		return 0;
	}
	*why = ip - VPMU_SAMPLE_PC_BASE <= UINT32_MAX ?
	       "a macro-PC sample: record micro-PCs with the format term "
	       "sample_upc (vpmu/EVENT,sample_upc/)" :
	       "not the IP of a vpmu sample";
	return -1;
}

int vpmu_uhist_from_perf(struct vpmu_uhist *hs, const struct vpmu_uhist_img *hi,
			 const char *text, size_t len, const char *name,
			 bool force, struct vpmu_buf *diag)
{
	const char *p = text, *end = text + len, *nl, *why;
	unsigned int lineno = 0, beyond = 0;
	uint32_t n = hi->v.h.cs_words;
	uint64_t ip, upc;
	int ret;

	memset(hs, 0, sizeof(*hs));
	hs->h.magic = VPMU_UHIST_MAGIC;
	hs->h.version = VPMU_UHIST_VERSION;
	hs->h.header_size = sizeof(hs->h);
	hs->h.nbuckets = n;
	hs->h.cpu = VPMU_UHIST_CPU_SUM;
	hs->h.image_checksum = hi->v.h.checksum;
	hs->bucket = calloc(n, sizeof(*hs->bucket));
	if (!hs->bucket)
		abort();
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		if (!nl)
			nl = end;
		lineno++;
		ret = perf_line_ip(p, nl - p, &ip);
		if (ret > 0)
			continue;
		if (!ret && perf_ip_upc(ip, &upc, &why)) {
			vpmu_uhist_free(hs);
			return hist_fail(diag, "%s:%u: 0x%llx is %s", name,
					 lineno, (unsigned long long)ip, why);
		}
		if (ret) {
			vpmu_uhist_free(hs);
			return hist_fail(diag, "%s:%u: no sample IP at the end "
					 "(perf script -F ip, or fields ending "
					 "with ip)", name, lineno);
		}
		if (upc >= n) {
			if (!force) {
				vpmu_uhist_free(hs);
				return hist_fail(diag, "%s:%u: micro-PC 0x%llx "
						 "beyond the image's %u "
						 "microwords: sampled on "
						 "another image? (--force "
						 "skips such samples)", name,
						 lineno,
						 (unsigned long long)upc, n);
			}
			beyond++;
			continue;
		}
		hs->bucket[upc]++;
		hs->h.samples++;
	}
	if (beyond)
		vpmu_buf_printf(diag, "warning: %u samples beyond the image's "
				"%u microwords skipped\n", beyond, n);
	return 0;
}
