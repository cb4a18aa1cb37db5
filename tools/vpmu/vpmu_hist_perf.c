// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hist_perf.c - a micro-PC histogram of perf samples for vpmu-hist:
 * the sample IPs perf script prints, counted by micro-PC.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_hist_file.h"
#include "vpmu_hist_img.h"
#include "vpmu_hist_perf.h"

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
