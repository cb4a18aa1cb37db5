// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_uhist.c - the histogram reports of vpmu-hist.  Micro-PC histograms
 * (vpmu_uhist_*): the file format of include/uapi/linux/vpmu.h, a
 * producer on the host build of the engine, and the report: buckets
 * joined to the image's symbols and to the disassembler's text of each
 * microword (vpmu_dis_uwords(), so there is one formatter for
 * microwords).  The histogram unit's buckets (vpmu_hu_buckets_*).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_dis.h"
#include "vpmu_engine.h"
#include "vpmu_uhist.h"
#include "vpmu_tool.h"

/* ---- the file ------------------------------------------------------------ */

static int fail(struct vpmu_buf *diag, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct vpmu_buf *diag, const char *fmt, ...)
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
		return fail(diag, "truncated: %zu bytes, the header alone is %zu",
			    len, sizeof(*h));
	memcpy(&hs->h, data, sizeof(*h));
	if (h->magic != VPMU_UHIST_MAGIC)
		return fail(diag, "bad magic number 0x%08x (not a vpmu "
			    "micro-PC histogram)", h->magic);
	if (h->version != VPMU_UHIST_VERSION)
		return fail(diag, "unsupported histogram version %u (this tool "
			    "reads version %u)", h->version, VPMU_UHIST_VERSION);
	if (h->header_size != sizeof(*h))
		return fail(diag, "header_size is %u, not %zu", h->header_size,
			    sizeof(*h));
	if (!h->nbuckets || h->nbuckets > VPMU_CS_MAX)
		return fail(diag, "nbuckets %u out of range (1..%lu)",
			    h->nbuckets, (unsigned long)VPMU_CS_MAX);
	want = sizeof(*h) + 8ull * h->nbuckets;
	if (len != want)
		return fail(diag, "%s: %zu bytes, the header and %u buckets "
			    "take %llu", len < want ? "truncated" : "too long",
			    len, h->nbuckets, (unsigned long long)want);
	for (i = 0; i < sizeof(h->reserved) / 4; i++)
		if (h->reserved[i])
			break;
	if (h->reserved0 || i < sizeof(h->reserved) / 4)
		return fail(diag, "reserved header field not zero");
	hs->bucket = malloc(8ull * h->nbuckets);
	if (!hs->bucket)
		abort();
	memcpy(hs->bucket, (const uint8_t *)data + sizeof(*h),
	       8ull * h->nbuckets);
	for (i = 0; i < h->nbuckets; i++)
		sum += hs->bucket[i];
	if (sum != h->samples) {
		vpmu_uhist_free(hs);
		return fail(diag, "samples is %llu, the buckets sum to %llu",
			    (unsigned long long)h->samples,
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
		return fail(diag, "%u buckets, the first file has %u: not "
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
		return fail(diag, "the interval must be at least 1 cycle");
	if (vpmu_prog_view(&pv, prog, prog_len, diag))
		return -1;
	if (vpmu_ucode_load(&uc, img, img_len, VPMU_CS_MAX, &err))
		return fail(diag, "image rejected: %s", err.msg);
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
		fail(diag, "the engine cannot take the image");
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

/* ---- the image: text and routines ---------------------------------------- */

static int sym_cmp(const void *pa, const void *pb)
{
	const struct vpmu_uhist_sym *a = pa, *b = pb;

	if (a->addr != b->addr)
		return a->addr < b->addr ? -1 : 1;
	return a->size < b->size ? -1 : a->size > b->size;	/* table order */
}

static void find_routines(struct vpmu_uhist_img *hi)
{
	const struct vpmu_image_header *h = &hi->v.h;
	uint32_t i, j, n = 0;

	hi->sym = calloc(h->sym_count + 1, sizeof(*hi->sym));
	hi->routine = calloc(h->cs_words, sizeof(*hi->routine));
	if (!hi->sym || !hi->routine)
		abort();
	hi->sym[n++] = (struct vpmu_uhist_sym){ "-", 0, 0 };
	for (i = 0; i < h->sym_count; i++) {
		struct vpmu_image_sym s;
		const char *name;

		vpmu_img_sym(&hi->v, i, &s);
		name = vpmu_img_str(&hi->v, s.name);
		if (name && *name && s.addr < h->cs_words)
			/* size holds the table index until sorted */
			hi->sym[n++] = (struct vpmu_uhist_sym){ name, s.addr,
								i + 1 };
	}
	qsort(hi->sym, n, sizeof(*hi->sym), sym_cmp);
	/* the first symbol at each address names it ("-" only if none) */
	for (i = j = 0; i < n; i++)
		if (!j || hi->sym[i].addr != hi->sym[j - 1].addr)
			hi->sym[j++] = hi->sym[i];
		else if (!strcmp(hi->sym[j - 1].name, "-"))
			hi->sym[j - 1] = hi->sym[i];
	hi->nsym = j;
	for (i = 0; i < hi->nsym; i++)
		hi->sym[i].size = (i + 1 < hi->nsym ? hi->sym[i + 1].addr :
				   h->cs_words) - hi->sym[i].addr;
	for (i = j = 0; i < h->cs_words; i++) {
		while (j + 1 < hi->nsym && hi->sym[j + 1].addr <= i)
			j++;
		hi->routine[i] = j;
	}
}

int vpmu_uhist_img_open(struct vpmu_uhist_img *hi, const void *img, size_t len,
			struct vpmu_buf *diag)
{
	uint32_t i;
	char *p;

	memset(hi, 0, sizeof(*hi));
	if (vpmu_dis_uwords(img, len, &hi->text, diag))
		return -1;
	vpmu_img_view(&hi->v, img, len, diag);
	hi->uword = calloc(hi->v.h.cs_words + 1, sizeof(*hi->uword));
	if (!hi->uword)
		abort();
	for (i = 0, p = hi->text.p; i < hi->v.h.cs_words; i++) {
		hi->uword[i] = p;
		p = strchr(p, '\n');
		*p++ = '\0';
	}
	find_routines(hi);
	return 0;
}

void vpmu_uhist_img_close(struct vpmu_uhist_img *hi)
{
	vpmu_buf_free(&hi->text);
	free(hi->uword);
	free(hi->sym);
	free(hi->routine);
	memset(hi, 0, sizeof(*hi));
}

void vpmu_uhist_label(const struct vpmu_uhist_img *hi, uint32_t upc, char *buf,
		      size_t size)
{
	const struct vpmu_uhist_sym *s = &hi->sym[hi->routine[upc]];

	if (upc == s->addr)
		snprintf(buf, size, "%s", s->name);
	else
		snprintf(buf, size, "%s+%u", s->name, upc - s->addr);
}

int vpmu_uhist_match(const struct vpmu_uhist *hs,
		     const struct vpmu_uhist_img *hi, bool force,
		     struct vpmu_buf *diag)
{
	const struct vpmu_image_header *h = &hi->v.h;

	if (hs->h.nbuckets != h->cs_words)
		return fail(diag, "%u buckets, but image \"%.*s\" has %u "
			    "microwords", hs->h.nbuckets, VPMU_IMAGE_NAME_LEN,
			    h->name, h->cs_words);
	if (hs->h.image_checksum != h->checksum) {
		vpmu_buf_printf(diag, "%s: sampled on image 0x%08x, but image "
				"\"%.*s\" is 0x%08x%s\n",
				force ? "warning" : "error",
				hs->h.image_checksum, VPMU_IMAGE_NAME_LEN,
				h->name, h->checksum, force ? "" :
				" (--force reports it anyway)");
		if (!force)
			return -1;
	}
	return 0;
}

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
			return fail(diag, "%s:%u: 0x%llx is %s", name, lineno,
				    (unsigned long long)ip, why);
		}
		if (ret) {
			vpmu_uhist_free(hs);
			return fail(diag, "%s:%u: no sample IP at the end (perf "
				    "script -F ip, or fields ending with ip)",
				    name, lineno);
		}
		if (upc >= n) {
			if (!force) {
				vpmu_uhist_free(hs);
				return fail(diag, "%s:%u: micro-PC 0x%llx beyond "
					    "the image's %u microwords: sampled "
					    "on another image? (--force skips "
					    "such samples)", name, lineno,
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

/* ---- the report ---------------------------------------------------------- */

struct row {
	uint32_t idx;		/* micro-address or routine */
	uint32_t addr;
	uint64_t count;
	uint32_t hit;		/* routines: microwords sampled */
};

static int by_count(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

static int by_addr(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Per-routine rows: every routine, counts summed. */
static struct row *routine_rows(const struct vpmu_uhist *hs,
				const struct vpmu_uhist_img *hi)
{
	struct row *r = calloc(hi->nsym, sizeof(*r));
	uint32_t i;

	if (!r)
		abort();
	for (i = 0; i < hi->nsym; i++) {
		r[i].idx = i;
		r[i].addr = hi->sym[i].addr;
	}
	for (i = 0; i < hs->h.nbuckets; i++) {
		r[hi->routine[i]].count += hs->bucket[i];
		r[hi->routine[i]].hit += !!hs->bucket[i];
	}
	return r;
}

/*
 * Rows to show, in order; returns how many, and in *nall how many there
 * were before --top.
 */
static uint32_t select_rows(struct row **out, const struct vpmu_uhist *hs,
			    const struct vpmu_uhist_img *hi,
			    const struct vpmu_report_opts *o, uint32_t *nall)
{
	uint32_t i, n, k = 0;
	struct row *r;

	if (o->by_label) {
		r = routine_rows(hs, hi);
		n = hi->nsym;
	} else {
		n = hs->h.nbuckets;
		r = calloc(n, sizeof(*r));
		if (!r)
			abort();
		for (i = 0; i < n; i++)
			r[i] = (struct row){ i, i, hs->bucket[i], 0 };
	}
	for (i = 0; i < n; i++)
		if (o->all || r[i].count)
			r[k++] = r[i];
	qsort(r, k, sizeof(*r),
	      o->order == VPMU_REPORT_BY_ADDR ? by_addr : by_count);
	*nall = k;
	*out = r;
	return o->top && o->top < k ? o->top : k;
}

#define BAR_WIDTH	20

static void bar(char *buf, uint64_t count, uint64_t max)
{
	/* rounded up, so that every sampled row shows */
	uint64_t n = !max ? 0 : count <= (UINT64_MAX - max) / BAR_WIDTH ?
		     (count * BAR_WIDTH + max - 1) / max :
		     (uint64_t)(count / (max / (long double)BAR_WIDTH) + 0.999);

	if (n > BAR_WIDTH)
		n = BAR_WIDTH;
	if (count && !n)
		n = 1;

	memset(buf, '#', n);
	buf[n] = '\0';
}

static double pct(uint64_t count, uint64_t total)
{
	return total ? 100.0 * count / total : 0.0;
}

void vpmu_uhist_report(struct vpmu_buf *out, const struct vpmu_uhist *hs,
		       const struct vpmu_uhist_img *hi,
		       const struct vpmu_report_opts *o)
{
	const struct vpmu_image_header *ih = &hi->v.h;
	uint64_t max = 0, shown = 0;
	uint32_t i, n, nall, sampled = 0, w = 5;
	char label[96], b[BAR_WIDTH + 1];
	struct row *r;

	for (i = 0; i < hs->h.nbuckets; i++)
		sampled += !!hs->bucket[i];
	vpmu_buf_printf(out, "image \"%.*s\" (checksum 0x%08x), %u "
			"microwords\n", VPMU_IMAGE_NAME_LEN, ih->name,
			ih->checksum, ih->cs_words);
	if (hs->h.interval)	/* 0: perf samples (vpmu_uhist_from_perf()) */
		vpmu_buf_printf(out, "interval %u, %llu samples",
				hs->h.interval,
				(unsigned long long)hs->h.samples);
	else
		vpmu_buf_printf(out, "%llu perf samples",
				(unsigned long long)hs->h.samples);
	if (hs->h.cpu != VPMU_UHIST_CPU_SUM)
		vpmu_buf_printf(out, " on cpu %u", hs->h.cpu);
	vpmu_buf_printf(out, ", %u microwords sampled\n\n", sampled);

	n = select_rows(&r, hs, hi, o, &nall);
	for (i = 0; i < nall; i++)
		max = r[i].count > max ? r[i].count : max;
	for (i = 0; i < n; i++) {
		if (o->by_label)
			snprintf(label, sizeof(label), "%s",
				 hi->sym[r[i].idx].name);
		else
			vpmu_uhist_label(hi, r[i].idx, label, sizeof(label));
		w = strlen(label) > w ? strlen(label) : w;
	}
	if (o->by_label)
		vpmu_buf_printf(out, "%-*s  %-5s  %7s  %10s  %6s  bar\n", w,
				"label", "upc", "uwords", "count", "%");
	else
		vpmu_buf_printf(out, "%-*s  %-5s  %10s  %6s  %-*s  microword\n",
				w, "label", "upc", "count", "%", BAR_WIDTH,
				"bar");
	for (i = 0; i < n; i++) {
		const struct row *x = &r[i];

		bar(b, x->count, max);
		shown += x->count;
		if (o->by_label) {
			const struct vpmu_uhist_sym *s = &hi->sym[x->idx];
			char words[24];

			snprintf(words, sizeof(words), "%u/%u", x->hit, s->size);
			vpmu_buf_printf(out, "%-*s  0x%03x  %7s  %10llu  %6.2f  "
					"%s\n", w, s->name, s->addr, words,
					(unsigned long long)x->count,
					pct(x->count, hs->h.samples), b);
		} else {
			vpmu_uhist_label(hi, x->idx, label, sizeof(label));
			vpmu_buf_printf(out, "%-*s  0x%03x  %10llu  %6.2f  "
					"%-*s  %s\n", w, label, x->addr,
					(unsigned long long)x->count,
					pct(x->count, hs->h.samples),
					BAR_WIDTH, b, hi->uword[x->idx]);
		}
	}
	if (n < nall)
		vpmu_buf_printf(out, "(%u more %s with %llu samples, %.2f%%, "
				"not shown)\n", nall - n,
				o->by_label ? "labels" : "microwords",
				(unsigned long long)(hs->h.samples - shown),
				pct(hs->h.samples - shown, hs->h.samples));
	free(r);
}

/* ---- the plot ------------------------------------------------------------ */

/* Distinct colors for the routines, biggest first: PLOT_ROUTINES. */
static const uint32_t palette[] = {
	0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b,
	0xe377c2, 0x17becf, 0xbcbd22, 0x7f7f7f, 0xaec7e8, 0xffbb78,
	0x98df8a, 0xff9896, 0xc5b0d5, 0x9edae5,
};

#define OTHER_COLOR	0xc8c8c8
#define PLOT_ROUTINES	16	/* bars in the top panel, the rest "other" */

/* A name gnuplot can take between double quotes in any mode. */
static void plot_name(struct vpmu_buf *o, const char *s)
{
	vpmu_buf_put(o, "\"", 1);
	for (; *s; s++)
		vpmu_buf_printf(o, "%c", (*s == '"' || *s == '\\' ||
					  (unsigned char)*s < 0x20) ? '?' : *s);
	vpmu_buf_put(o, "\"", 1);
}

/* @s between gnuplot single quotes: no escapes but '' for a quote. */
static void plot_quote(struct vpmu_buf *o, const char *s)
{
	vpmu_buf_put(o, "'", 1);
	for (; *s; s++)
		vpmu_buf_put(o, *s == '\'' ? "''" : s, 1 + (*s == '\''));
	vpmu_buf_put(o, "'", 1);
}

/*
 * The terminal, by @path's extension (.png or .svg), @w x @h pixels, and
 * the output; no newline after it.
 */
static int plot_output(struct vpmu_buf *o, const char *path, unsigned int w,
		       unsigned int h, struct vpmu_buf *diag)
{
	const char *ext = strrchr(path, '.');

	if (ext && !strcmp(ext, ".png"))
		vpmu_buf_printf(o, "set terminal pngcairo size %u,%u "
				"noenhanced font 'DejaVu Sans,10'\n", w, h);
	else if (ext && !strcmp(ext, ".svg"))
		vpmu_buf_printf(o, "set terminal svg size %u,%u dynamic "
				"noenhanced font 'DejaVu Sans,10' background "
				"'white'\n", w, h);
	else
		return fail(diag, "the plot must be a .png or .svg file");
	vpmu_buf_printf(o, "set output ");
	plot_quote(o, path);
	return 0;
}

int vpmu_uhist_plot(struct vpmu_buf *o, const struct vpmu_uhist *hs,
		    const struct vpmu_uhist_img *hi, const char *path,
		    const char *what, struct vpmu_buf *diag)
{
	const struct vpmu_image_header *ih = &hi->v.h;
	struct vpmu_report_opts ro = { .order = VPMU_REPORT_BY_COUNT,
				     .by_label = true };
	uint32_t *color, i, nall, shown, step;
	uint64_t rest = 0;
	struct vpmu_buf title = { 0 };
	struct row *r;
	char name[VPMU_IMAGE_NAME_LEN + 1];

	if (plot_output(o, path, 1100, 720, diag))
		return -1;
	snprintf(name, sizeof(name), "%.*s", VPMU_IMAGE_NAME_LEN, ih->name);
	/* address tics: a power of 2, at most about 12 of them */
	for (step = 4; ih->cs_words / step > 12; step *= 2)
		;

	/* routines by count; colors follow that rank */
	select_rows(&r, hs, hi, &ro, &nall);
	shown = nall > PLOT_ROUTINES ? PLOT_ROUTINES - 1 : nall;
	color = calloc(hi->nsym, sizeof(*color));
	if (!color)
		abort();
	for (i = 0; i < hi->nsym; i++)
		color[i] = OTHER_COLOR;
	for (i = 0; i < shown; i++)
		color[r[i].idx] = palette[i % (sizeof(palette) /
					       sizeof(palette[0]))];
	vpmu_buf_printf(o, "\n$routines << EOD\n");
	for (i = 0; i < nall; i++) {
		if (i >= shown) {
			rest += r[i].count;
			continue;
		}
		plot_name(o, hi->sym[r[i].idx].name);
		vpmu_buf_printf(o, " %llu %.2f %u\n",
				(unsigned long long)r[i].count,
				pct(r[i].count, hs->h.samples),
				color[r[i].idx]);
	}
	if (shown < nall)
		vpmu_buf_printf(o, "\"(%u others)\" %llu %.2f %u\n",
				nall - shown, (unsigned long long)rest,
				pct(rest, hs->h.samples), OTHER_COLOR);
	vpmu_buf_printf(o, "EOD\n$uwords << EOD\n");
	for (i = 0; i < hs->h.nbuckets; i++)
		if (hs->bucket[i])
			vpmu_buf_printf(o, "%u %llu %u\n", i,
					(unsigned long long)hs->bucket[i],
					color[hi->routine[i]]);
	/* the name of each colored routine over its sampled microwords */
	vpmu_buf_printf(o, "EOD\n$names << EOD\n");
	for (i = 0; i < shown; i++) {
		const struct vpmu_uhist_sym *s = &hi->sym[r[i].idx];
		uint64_t top = 0;
		uint32_t u, lo = UINT32_MAX, up = 0;

		for (u = s->addr; u < s->addr + s->size; u++) {
			if (!hs->bucket[u])
				continue;
			lo = u < lo ? u : lo;
			up = u;
			top = hs->bucket[u] > top ? hs->bucket[u] : top;
		}
		vpmu_buf_printf(o, "%.1f %llu ", (lo + up) / 2.0,
				(unsigned long long)top);
		plot_name(o, s->name);
		vpmu_buf_put(o, "\n", 1);
	}
	vpmu_buf_printf(o, "EOD\nset multiplot title ");
	vpmu_buf_printf(&title, "micro-PC histogram of %s on %s (0x%08x): ",
			what, name, ih->checksum);
	if (hs->h.interval)
		vpmu_buf_printf(&title, "interval %u, %llu samples",
				hs->h.interval,
				(unsigned long long)hs->h.samples);
	else	/* perf samples, as the report says */
		vpmu_buf_printf(&title, "%llu perf samples",
				(unsigned long long)hs->h.samples);
	plot_quote(o, title.p);
	vpmu_buf_free(&title);
	/* two panels: per routine above, per microword below */
	vpmu_buf_printf(o,
" font ',13'\n"
"set border 3\n"
"set tics nomirror out\n"
"set grid ytics lc rgb '#e0e0e0'\n"
"set style fill solid 0.9 noborder\n"
"unset key\n"
"set lmargin 10\n"
"set rmargin 3\n"
"# per routine (label), biggest first\n"
"set origin 0,0.45\n"
"set size 1,0.5\n"
"set title 'samples per label (routine)'\n"
"set ylabel '%% of samples'\n"
"set yrange [0:*]\n"
"set offsets 0.5,0.5,0,0\n"
"set xtics rotate by -40 left\n"
"set boxwidth 0.75\n"
"stats $routines using 3 nooutput\n"
"set yrange [0:STATS_max * 1.15]\n"
"plot $routines using 0:3:4:xtic(1) with boxes lc rgb variable, \\\n"
"     '' using 0:3:(sprintf('%%.1f%%%%', $3)) with labels offset 0,0.6 "
"font ',9'\n"
"# every microword, colored by its routine\n"
"set origin 0,0\n"
"set size 1,0.45\n"
"set title 'samples per microword (colors as above)'\n"
"set ylabel 'samples'\n"
"set xlabel 'micro-address'\n"
"set offsets 0,0,0,0\n"
"set xtics norotate format '0x%%03x' %u\n"
"set mxtics %u\n"
"set xrange [-0.5:%u.5]\n"
"set autoscale y\n"
"stats $uwords using 2 nooutput\n"
"set yrange [0:STATS_max * 1.45]\n"
"set boxwidth 0.9\n"
"plot $uwords using 1:2:3 with boxes lc rgb variable, \\\n"
"     $names using 1:2:3 with labels rotate by 90 left offset 0,0.4 "
"font ',8' tc rgb '#404040'\n"
"unset multiplot\n", step, step >= 16 ? 4 : 2, ih->cs_words - 1);
	free(color);
	free(r);
	return 0;
}

/* ---- histogram-unit buckets ---------------------------------------------- */

#define HU_QUOTE	40	/* longest piece of a bad line quoted */

/* @n bytes of @s for a message: cut short, unprintables as '?'. */
static void hu_quote(char *buf, const char *s, size_t n)
{
	size_t i, k = n > HU_QUOTE ? HU_QUOTE : n;

	for (i = 0; i < k; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	strcpy(buf + k, n > k ? "..." : "");
}

static bool hu_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Digits at *@s into @v: 0, -1 if none, 1 if over UINT64_MAX. */
static int hu_count(const char **s, const char *end, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0;
	int ret = 0;

	if (p == end || *p < '0' || *p > '9')
		return -1;
	for (; p < end && *p >= '0' && *p <= '9'; p++) {
		unsigned int d = *p - '0';

		if (x > (UINT64_MAX - d) / 10)
			ret = 1;
		x = x * 10 + d;
	}
	*s = p;
	*v = x;
	return ret;
}

/*
 * One bucket line, [s, end) without "hist " and trailing blanks:
 * "C<b> <count>", @b the number expected next.
 */
static int hu_bucket_line(struct vpmu_hu_buckets *hh, const char *s,
			  const char *end, const char *line, size_t line_len,
			  bool sim, const char *name, unsigned int lineno,
			  struct vpmu_buf *diag)
{
	const char *p = s + 1;
	char q[HU_QUOTE + 4];
	uint64_t b, v;
	int ret;

	hu_quote(q, line, line_len);
	if (s == end || *s != 'C' || hu_count(&p, end, &b) < 0 ||
	    p == end || !hu_blank(*p))
		goto bad;
	while (p < end && hu_blank(*p))
		p++;
	s = p;
	ret = hu_count(&p, end, &v);
	if (ret < 0 || p != end)
		goto bad;
	if (ret > 0) {
		hu_quote(q, s, end - s);
		vpmu_buf_printf(diag, "%s:%u: error: count %s is over "
				"18446744073709551615\n", name, lineno, q);
		return -1;
	}
	if (b < 1 || b > VPMU_HU_MAX) {
		vpmu_buf_printf(diag, "%s:%u: error: '%s': the unit has buckets "
				"C1..C%u\n", name, lineno, q, VPMU_HU_MAX);
		return -1;
	}
	if (b != hh->n + 1) {
		vpmu_buf_printf(diag, "%s:%u: error: C%llu where C%u was "
				"expected (buckets come in order, C1 first, "
				"each once)\n", name, lineno,
				(unsigned long long)b, hh->n + 1);
		return -1;
	}
	hh->c[hh->n++] = v;
	return 0;
bad:
	vpmu_buf_printf(diag, "%s:%u: error: '%s' is not a bucket line "
			"(%sC<b> <count>)\n", name, lineno, q,
			sim ? "hist " : "");
	return -1;
}

static bool hu_is_sim_line(const char *s, const char *end)
{
	return end - s > 5 && !memcmp(s, "hist", 4) && hu_blank(s[4]);
}

static int fail_named(struct vpmu_buf *diag, const char *name,
		      const char *msg)
{
	vpmu_buf_printf(diag, "%s: error: %s\n", name, msg);
	return -1;
}

int vpmu_hu_buckets_parse(struct vpmu_hu_buckets *hh, const char *text,
			  size_t len, const char *name, struct vpmu_buf *diag)
{
	const char *p, *end = text + len, *nl, *e;
	unsigned int lineno;
	uint64_t total = 0;
	bool sim = false;

	memset(hh, 0, sizeof(*hh));
	/* vpmu-sim's output if any line is one of its "hist" lines */
	for (p = text; p < end; p = nl + 1) {
		nl = memchr(p, '\n', end - p);
		nl = nl ? nl : end;
		if (hu_is_sim_line(p, nl)) {
			sim = true;
			break;
		}
	}
	for (p = text, lineno = 1; p < end; p = nl + 1, lineno++) {
		nl = memchr(p, '\n', end - p);
		nl = nl ? nl : end;
		for (e = nl; e > p && (hu_blank(e[-1]) || e[-1] == '\r'); e--)
			;
		if (e == p || (sim && !hu_is_sim_line(p, e)))
			continue;
		if (hu_bucket_line(hh, sim ? p + 5 : p, e, p, e - p, sim,
				   name, lineno, diag))
			return -1;
	}
	if (!hh->n)
		return fail_named(diag, name, "no buckets: the file is empty "
				  "(hist/sum is, while the unit is off)");
	for (lineno = 0; lineno < hh->n; lineno++) {
		if (hh->c[lineno] > UINT64_MAX - total)
			return fail_named(diag, name, "the buckets add up to "
					  "more than 18446744073709551615");
		total += hh->c[lineno];
	}
	return 0;
}

void vpmu_hu_entry_label(const struct vpmu_hu_prog *p, unsigned int i,
			 char *buf, size_t size)
{
	struct vpmu_hu_prog one = { .mode = p->mode, .n = 1 };
	char text[VPMU_HU_TEXT_MAX];
	char *pred, *sp;

	/* the shared printer's canonical predicate: line 2 less the period */
	one.ent[0] = p->ent[i];
	vpmu_hu_print(&one, text, sizeof(text));
	pred = strchr(text, '\n') + 1;
	sp = strrchr(pred, ' ');
	if (sp)
		*sp = '\0';
	snprintf(buf, size, "%s (%u cycle%s)", pred, p->ent[i].period,
		 p->ent[i].period == 1 ? "" : "s");
}

/* The monitoring period: the sum (seq) or the largest (par) period. */
static uint64_t hu_monitoring_period(const struct vpmu_hu_prog *p)
{
	uint64_t t = 0;
	unsigned int i;

	for (i = 0; i < p->n; i++)
		if (p->mode == VPMU_HU_SEQ)
			t += p->ent[i].period;
		else if (p->ent[i].period > t)
			t = p->ent[i].period;
	return t;
}

/* The mode as the program text says it, "once" included. */
static const char *hu_mode_name(const struct vpmu_hu_prog *p)
{
	if (p->once)
		return p->mode == VPMU_HU_PAR ? "par once" : "seq once";
	return p->mode == VPMU_HU_PAR ? "par" : "seq";
}

static unsigned int digits(uint64_t v)
{
	unsigned int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

void vpmu_hu_buckets_report(struct vpmu_buf *out,
			    const struct vpmu_hu_buckets *hh,
			    const struct vpmu_hu_prog *p, const char *what,
			    const struct vpmu_report_opts *o)
{
	char label[VPMU_HU_TEXT_MAX], b[BAR_WIDTH + 1];
	struct row r[VPMU_HU_MAX];
	uint64_t total = 0, max = 0, shown = 0;
	unsigned int i, n, w = 5, wc;

	for (i = 0; i < hh->n; i++) {
		r[i] = (struct row){ i, i, hh->c[i], 0 };
		total += hh->c[i];
		max = hh->c[i] > max ? hh->c[i] : max;
		if (p) {
			vpmu_hu_entry_label(p, i, label, sizeof(label));
			w = strlen(label) > w ? strlen(label) : w;
		}
	}
	wc = digits(max) > 5 ? digits(max) : 5;
	vpmu_buf_printf(out, "histogram-unit buckets of %s: %u bucket%s, "
			"%llu counted in all\n", what, hh->n,
			hh->n == 1 ? "" : "s", (unsigned long long)total);
	if (p)
		vpmu_buf_printf(out, "program: %s, monitoring period %llu "
				"cycles\n", hu_mode_name(p),
				(unsigned long long)hu_monitoring_period(p));
	vpmu_buf_printf(out, "\n");
	qsort(r, hh->n, sizeof(*r),
	      o->order == VPMU_REPORT_BY_ADDR ? by_addr : by_count);
	n = o->top && o->top < hh->n ? o->top : hh->n;
	if (p)
		vpmu_buf_printf(out, "%-6s  %-*s  %*s  %6s  bar\n", "bucket",
				w, "label", wc, "count", "%");
	else
		vpmu_buf_printf(out, "%-6s  %*s  %6s  bar\n", "bucket", wc,
				"count", "%");
	for (i = 0; i < n; i++) {
		char cb[12];

		bar(b, r[i].count, max);
		shown += r[i].count;
		snprintf(cb, sizeof(cb), "C%u", r[i].idx + 1);
		vpmu_buf_printf(out, "%-6s  ", cb);
		if (p) {
			vpmu_hu_entry_label(p, r[i].idx, label, sizeof(label));
			vpmu_buf_printf(out, "%-*s  ", w, label);
		}
		vpmu_buf_printf(out, "%*llu  %6.2f%s%s\n", wc,
				(unsigned long long)r[i].count,
				pct(r[i].count, total), *b ? "  " : "", b);
	}
	if (n < hh->n)
		vpmu_buf_printf(out, "(%u more bucket%s with %llu counted, "
				"%.2f%%, not shown)\n", hh->n - n,
				hh->n - n == 1 ? "" : "s",
				(unsigned long long)(total - shown),
				pct(total - shown, total));
}

int vpmu_hu_buckets_plot(struct vpmu_buf *o, const struct vpmu_hu_buckets *hh,
			 const struct vpmu_hu_prog *p, const char *path,
			 const char *what, struct vpmu_buf *diag)
{
	struct vpmu_buf title = { 0 };
	char label[VPMU_HU_TEXT_MAX], cb[12];
	uint64_t total = 0, max = 0;
	bool tilt = hh->n > 8;	/* labels on one slanted line */
	unsigned int i;
	char *period;

	if (plot_output(o, path, 1000, 600, diag))
		return -1;
	for (i = 0; i < hh->n; i++) {
		total += hh->c[i];
		max = hh->c[i] > max ? hh->c[i] : max;
	}
	/* bucket, [predicate, period,] count, count as text (every digit) */
	vpmu_buf_printf(o, "\n$buckets << EOD\n");
	for (i = 0; i < hh->n; i++) {
		snprintf(cb, sizeof(cb), "C%u", i + 1);
		plot_name(o, cb);
		if (p) {
			vpmu_hu_entry_label(p, i, label, sizeof(label));
			period = strrchr(label, '(');
			period[-1] = '\0';
			vpmu_buf_put(o, " ", 1);
			plot_name(o, label);
			vpmu_buf_put(o, " ", 1);
			plot_name(o, period);
		}
		vpmu_buf_printf(o, " %llu \"%llu\"\n",
				(unsigned long long)hh->c[i],
				(unsigned long long)hh->c[i]);
	}
	vpmu_buf_printf(o, "EOD\nset title ");
	vpmu_buf_printf(&title, "histogram-unit buckets of %s: ", what);
	if (p)
		vpmu_buf_printf(&title, "%s program, monitoring period %llu "
				"cycles, ", hu_mode_name(p),
				(unsigned long long)hu_monitoring_period(p));
	else
		vpmu_buf_printf(&title, "%u buckets, ", hh->n);
	vpmu_buf_printf(&title, "%llu counted in all",
			(unsigned long long)total);
	plot_quote(o, title.p);
	vpmu_buf_free(&title);
	vpmu_buf_printf(o,
" font ',12'\n"
"set border 3\n"
"set tics nomirror out\n"
"set grid ytics lc rgb '#e0e0e0'\n"
"set style fill solid 0.9 noborder\n"
"unset key\n"
"set lmargin %u\n"
"set rmargin 3\n"
"set ylabel 'count'\n"
"set format y '%%.0f'\n"
"set xrange [-0.6:%u.6]\n"
"set yrange [0:%.17g]\n"
"set boxwidth 0.7\n",
			digits(max) + 5, hh->n - 1, max ? max * 1.15 : 1.0);
	if (max < 10)
		vpmu_buf_printf(o, "set ytics 1\n");
	/* room for three lines of labels, or slanted ones */
	if (tilt)
		vpmu_buf_printf(o, "set xtics rotate by -35 left\n"
				"set rmargin 22\n");
	else if (p)
		vpmu_buf_printf(o, "set bmargin 5\n");
	vpmu_buf_printf(o, "plot $buckets using 0:%u:xtic(%s) with boxes "
			"lc rgb '#1f77b4', \\\n"
			"     '' using 0:%u:(strcol(%u)) with labels "
			"offset 0,0.7 font ',9'\n", p ? 4 : 2,
			!p ? "1" : tilt ?
			"strcol(1).' '.strcol(2).' '.strcol(3)" :
			"strcol(1).\"\\n\".strcol(2).\"\\n\".strcol(3)",
			p ? 4 : 2, p ? 5 : 3);
	return 0;
}
