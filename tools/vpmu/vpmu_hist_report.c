// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hist_report.c - vpmu-hist's report of a micro-PC histogram, the
 * buckets joined to the image's routines and to the text of each
 * microword (vpmu_hist_img.c), and its plot, a gnuplot script; the rows,
 * bars and script pieces the histogram unit's report and plot share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_hist_file.h"
#include "vpmu_hist_img.h"
#include "vpmu_hist_report.h"

/* ---- the report ---------------------------------------------------------- */

int hist_by_count(const void *pa, const void *pb)
{
	const struct hist_row *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

int hist_by_addr(const void *pa, const void *pb)
{
	const struct hist_row *a = pa, *b = pb;

	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Per-routine rows: every routine, counts summed. */
static struct hist_row *routine_rows(const struct vpmu_uhist *hs,
				     const struct vpmu_uhist_img *hi)
{
	struct hist_row *r = calloc(hi->nsym, sizeof(*r));
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
static uint32_t select_rows(struct hist_row **out, const struct vpmu_uhist *hs,
			    const struct vpmu_uhist_img *hi,
			    const struct vpmu_report_opts *o, uint32_t *nall)
{
	uint32_t i, n, k = 0;
	struct hist_row *r;

	if (o->by_label) {
		r = routine_rows(hs, hi);
		n = hi->nsym;
	} else {
		n = hs->h.nbuckets;
		r = calloc(n, sizeof(*r));
		if (!r)
			abort();
		for (i = 0; i < n; i++)
			r[i] = (struct hist_row){ i, i, hs->bucket[i], 0 };
	}
	for (i = 0; i < n; i++)
		if (o->all || r[i].count)
			r[k++] = r[i];
	qsort(r, k, sizeof(*r),
	      o->order == VPMU_REPORT_BY_ADDR ? hist_by_addr : hist_by_count);
	*nall = k;
	*out = r;
	return o->top && o->top < k ? o->top : k;
}

void hist_bar(char *buf, uint64_t count, uint64_t max)
{
	/* rounded up, so that every sampled row shows */
	uint64_t n = !max ? 0 : count <= (UINT64_MAX - max) / HIST_BAR_WIDTH ?
		     (count * HIST_BAR_WIDTH + max - 1) / max :
		     (uint64_t)(count / (max / (long double)HIST_BAR_WIDTH) +
				0.999);

	if (n > HIST_BAR_WIDTH)
		n = HIST_BAR_WIDTH;
	if (count && !n)
		n = 1;

	memset(buf, '#', n);
	buf[n] = '\0';
}

double hist_pct(uint64_t count, uint64_t total)
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
	char label[96], b[HIST_BAR_WIDTH + 1];
	struct hist_row *r;

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
				w, "label", "upc", "count", "%", HIST_BAR_WIDTH,
				"bar");
	for (i = 0; i < n; i++) {
		const struct hist_row *x = &r[i];

		hist_bar(b, x->count, max);
		shown += x->count;
		if (o->by_label) {
			const struct vpmu_uhist_sym *s = &hi->sym[x->idx];
			char words[24];

			snprintf(words, sizeof(words), "%u/%u", x->hit, s->size);
			vpmu_buf_printf(out, "%-*s  0x%03x  %7s  %10llu  %6.2f  "
					"%s\n", w, s->name, s->addr, words,
					(unsigned long long)x->count,
					hist_pct(x->count, hs->h.samples), b);
		} else {
			vpmu_uhist_label(hi, x->idx, label, sizeof(label));
			vpmu_buf_printf(out, "%-*s  0x%03x  %10llu  %6.2f  "
					"%-*s  %s\n", w, label, x->addr,
					(unsigned long long)x->count,
					hist_pct(x->count, hs->h.samples),
					HIST_BAR_WIDTH, b, hi->uword[x->idx]);
		}
	}
	if (n < nall)
		vpmu_buf_printf(out, "(%u more %s with %llu samples, %.2f%%, "
				"not shown)\n", nall - n,
				o->by_label ? "labels" : "microwords",
				(unsigned long long)(hs->h.samples - shown),
				hist_pct(hs->h.samples - shown, hs->h.samples));
	free(r);
}

/* --json's header object: the image, the samples, what was sampled. */
static void uhist_json_head(struct vpmu_json *j, FILE *f,
			    const struct vpmu_uhist *hs,
			    const struct vpmu_image_header *ih)
{
	char name[VPMU_IMAGE_NAME_LEN + 1];
	uint32_t i, sampled = 0;

	for (i = 0; i < hs->h.nbuckets; i++)
		sampled += !!hs->bucket[i];
	snprintf(name, sizeof(name), "%.*s", VPMU_IMAGE_NAME_LEN, ih->name);
	vpmu_json_begin(j, f);
	vpmu_json_str(j, "image", name);
	vpmu_json_u64(j, "checksum", ih->checksum);
	vpmu_json_u64(j, "microwords", ih->cs_words);
	if (hs->h.interval)
		vpmu_json_u64(j, "interval", hs->h.interval);
	else	/* perf samples */
		vpmu_json_null(j, "interval");
	vpmu_json_u64(j, "samples", hs->h.samples);
	if (hs->h.cpu != VPMU_UHIST_CPU_SUM)
		vpmu_json_u64(j, "cpu", hs->h.cpu);
	vpmu_json_u64(j, "sampled", sampled);
	vpmu_json_end(j);
}

void vpmu_uhist_report_json(struct vpmu_json *j, FILE *f,
			    const struct vpmu_uhist *hs,
			    const struct vpmu_uhist_img *hi,
			    const struct vpmu_report_opts *o)
{
	uint32_t i, n, nall;
	uint64_t shown = 0;
	struct hist_row *r;
	char label[96];

	uhist_json_head(j, f, hs, &hi->v.h);
	n = select_rows(&r, hs, hi, o, &nall);
	for (i = 0; i < n; i++) {
		const struct hist_row *x = &r[i];

		shown += x->count;
		vpmu_json_begin(j, f);
		if (o->by_label) {
			vpmu_json_str(j, "label", hi->sym[x->idx].name);
			vpmu_json_u64(j, "upc", x->addr);
			vpmu_json_u64(j, "uwords_sampled", x->hit);
			vpmu_json_u64(j, "uwords", hi->sym[x->idx].size);
		} else {
			vpmu_uhist_label(hi, x->idx, label, sizeof(label));
			vpmu_json_str(j, "label", label);
			vpmu_json_u64(j, "upc", x->addr);
		}
		vpmu_json_u64(j, "count", x->count);
		vpmu_json_double(j, "share", hist_pct(x->count,
						      hs->h.samples));
		if (!o->by_label)
			vpmu_json_str(j, "microword", hi->uword[x->idx]);
		vpmu_json_end(j);
	}
	if (n < nall) {
		vpmu_json_begin(j, f);
		vpmu_json_u64(j, "more", nall - n);
		vpmu_json_u64(j, "count", hs->h.samples - shown);
		vpmu_json_double(j, "share", hist_pct(hs->h.samples - shown,
						      hs->h.samples));
		vpmu_json_end(j);
	}
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
void hist_plot_name(struct vpmu_buf *o, const char *s)
{
	vpmu_buf_put(o, "\"", 1);
	for (; *s; s++)
		vpmu_buf_printf(o, "%c", (*s == '"' || *s == '\\' ||
					  (unsigned char)*s < 0x20) ? '?' : *s);
	vpmu_buf_put(o, "\"", 1);
}

/* @s between gnuplot single quotes: no escapes but '' for a quote. */
void hist_plot_quote(struct vpmu_buf *o, const char *s)
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
int hist_plot_output(struct vpmu_buf *o, const char *path, unsigned int w,
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
		return hist_fail(diag, "the plot must be a .png or .svg file");
	vpmu_buf_printf(o, "set output ");
	hist_plot_quote(o, path);
	return 0;
}

/* Each routine's color: the first @shown of @r by rank, the rest gray. */
static uint32_t *routine_colors(const struct vpmu_uhist_img *hi,
				const struct hist_row *r, uint32_t shown)
{
	uint32_t *color = calloc(hi->nsym, sizeof(*color)), i;

	if (!color)
		abort();
	for (i = 0; i < hi->nsym; i++)
		color[i] = OTHER_COLOR;
	for (i = 0; i < shown; i++)
		color[r[i].idx] = palette[i % (sizeof(palette) /
					       sizeof(palette[0]))];
	return color;
}

/*
 * $routines: the first @shown of the @nall routines @r (by count), with
 * their share and color, then the rest as one bar "(N others)".
 */
static void plot_routines(struct vpmu_buf *o, const struct vpmu_uhist *hs,
			  const struct vpmu_uhist_img *hi,
			  const struct hist_row *r, uint32_t nall,
			  uint32_t shown, const uint32_t *color)
{
	uint64_t rest = 0;
	uint32_t i;

	vpmu_buf_printf(o, "\n$routines << EOD\n");
	for (i = 0; i < nall; i++) {
		if (i >= shown) {
			rest += r[i].count;
			continue;
		}
		hist_plot_name(o, hi->sym[r[i].idx].name);
		vpmu_buf_printf(o, " %llu %.2f %u\n",
				(unsigned long long)r[i].count,
				hist_pct(r[i].count, hs->h.samples),
				color[r[i].idx]);
	}
	if (shown < nall)
		vpmu_buf_printf(o, "\"(%u others)\" %llu %.2f %u\n",
				nall - shown, (unsigned long long)rest,
				hist_pct(rest, hs->h.samples), OTHER_COLOR);
	vpmu_buf_printf(o, "EOD\n");
}

/* $uwords: every sampled microword, in its routine's color. */
static void plot_uwords(struct vpmu_buf *o, const struct vpmu_uhist *hs,
			const struct vpmu_uhist_img *hi, const uint32_t *color)
{
	uint32_t i;

	vpmu_buf_printf(o, "$uwords << EOD\n");
	for (i = 0; i < hs->h.nbuckets; i++)
		if (hs->bucket[i])
			vpmu_buf_printf(o, "%u %llu %u\n", i,
					(unsigned long long)hs->bucket[i],
					color[hi->routine[i]]);
	vpmu_buf_printf(o, "EOD\n");
}

/* $names: the name of each colored routine over its sampled microwords. */
static void plot_names(struct vpmu_buf *o, const struct vpmu_uhist *hs,
		       const struct vpmu_uhist_img *hi,
		       const struct hist_row *r, uint32_t shown)
{
	uint32_t i;

	vpmu_buf_printf(o, "$names << EOD\n");
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
		hist_plot_name(o, s->name);
		vpmu_buf_put(o, "\n", 1);
	}
	vpmu_buf_printf(o, "EOD\n");
}

/* The title over both panels: what ran on which image, the samples. */
static void plot_title(struct vpmu_buf *o, const struct vpmu_uhist *hs,
		       const struct vpmu_image_header *ih, const char *what)
{
	struct vpmu_buf title = { 0 };
	char name[VPMU_IMAGE_NAME_LEN + 1];

	snprintf(name, sizeof(name), "%.*s", VPMU_IMAGE_NAME_LEN, ih->name);
	vpmu_buf_printf(o, "set multiplot title ");
	vpmu_buf_printf(&title, "micro-PC histogram of %s on %s (0x%08x): ",
			what, name, ih->checksum);
	if (hs->h.interval)
		vpmu_buf_printf(&title, "interval %u, %llu samples",
				hs->h.interval,
				(unsigned long long)hs->h.samples);
	else	/* perf samples, as the report says */
		vpmu_buf_printf(&title, "%llu perf samples",
				(unsigned long long)hs->h.samples);
	hist_plot_quote(o, title.p);
	vpmu_buf_free(&title);
}

/*
 * The two panels, per routine above, per microword below, of the data
 * blocks above; then the end of the script.
 */
static void plot_panels(struct vpmu_buf *o,
			const struct vpmu_image_header *ih)
{
	uint32_t step;

	/* address tics: a power of 2, at most about 12 of them */
	for (step = 4; ih->cs_words / step > 12; step *= 2)
		;
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
}

int vpmu_uhist_plot(struct vpmu_buf *o, const struct vpmu_uhist *hs,
		    const struct vpmu_uhist_img *hi, const char *path,
		    const char *what, struct vpmu_buf *diag)
{
	struct vpmu_report_opts ro = { .order = VPMU_REPORT_BY_COUNT,
				     .by_label = true };
	uint32_t *color, nall, shown;
	struct hist_row *r;

	if (hist_plot_output(o, path, 1100, 720, diag))
		return -1;
	/* routines by count; colors follow that rank */
	select_rows(&r, hs, hi, &ro, &nall);
	shown = nall > PLOT_ROUTINES ? PLOT_ROUTINES - 1 : nall;
	color = routine_colors(hi, r, shown);
	plot_routines(o, hs, hi, r, nall, shown, color);
	plot_uwords(o, hs, hi, color);
	plot_names(o, hs, hi, r, shown);
	plot_title(o, hs, &hi->v.h, what);
	plot_panels(o, &hi->v.h);
	free(color);
	free(r);
	return 0;
}
