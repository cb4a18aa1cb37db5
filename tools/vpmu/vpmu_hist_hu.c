// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hist_hu.c - the histogram unit's buckets C1..Cn for vpmu-hist
 * (vpmu_hu_buckets_*): read from the text of vpmu-hist --get-buckets or
 * vpmu-sim --hu, and reported and plotted as vpmu_hist_report.c does
 * micro-PC histograms.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_hist_hu.h"
#include "vpmu_hist_report.h"
#include "vpmu_hu_text.h"

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
				  "(--get-buckets prints nothing while the "
				  "unit is off)");
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
	char label[VPMU_HU_TEXT_MAX], b[HIST_BAR_WIDTH + 1];
	struct hist_row r[VPMU_HU_MAX];
	uint64_t total = 0, max = 0, shown = 0;
	unsigned int i, n, w = 5, wc;

	for (i = 0; i < hh->n; i++) {
		r[i] = (struct hist_row){ i, i, hh->c[i], 0 };
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
	      o->order == VPMU_REPORT_BY_ADDR ? hist_by_addr : hist_by_count);
	n = o->top && o->top < hh->n ? o->top : hh->n;
	if (p)
		vpmu_buf_printf(out, "%-6s  %-*s  %*s  %6s  bar\n", "bucket",
				w, "label", wc, "count", "%");
	else
		vpmu_buf_printf(out, "%-6s  %*s  %6s  bar\n", "bucket", wc,
				"count", "%");
	for (i = 0; i < n; i++) {
		char cb[12];

		hist_bar(b, r[i].count, max);
		shown += r[i].count;
		snprintf(cb, sizeof(cb), "C%u", r[i].idx + 1);
		vpmu_buf_printf(out, "%-6s  ", cb);
		if (p) {
			vpmu_hu_entry_label(p, r[i].idx, label, sizeof(label));
			vpmu_buf_printf(out, "%-*s  ", w, label);
		}
		vpmu_buf_printf(out, "%*llu  %6.2f%s%s\n", wc,
				(unsigned long long)r[i].count,
				hist_pct(r[i].count, total), *b ? "  " : "", b);
	}
	if (n < hh->n)
		vpmu_buf_printf(out, "(%u more bucket%s with %llu counted, "
				"%.2f%%, not shown)\n", hh->n - n,
				hh->n - n == 1 ? "" : "s",
				(unsigned long long)(total - shown),
				hist_pct(total - shown, total));
}

/* --json's header object: the file, the buckets, the program's mode. */
static void hu_json_head(struct vpmu_json *j, FILE *f,
			 const struct vpmu_hu_buckets *hh,
			 const struct vpmu_hu_prog *p, const char *what,
			 uint64_t total)
{
	vpmu_json_begin(j, f);
	vpmu_json_str(j, "file", what);
	vpmu_json_u64(j, "buckets", hh->n);
	vpmu_json_u64(j, "total", total);
	if (p) {
		vpmu_json_str(j, "mode", hu_mode_name(p));
		vpmu_json_u64(j, "period", hu_monitoring_period(p));
	}
	vpmu_json_end(j);
}

void vpmu_hu_buckets_json(struct vpmu_json *j, FILE *f,
			  const struct vpmu_hu_buckets *hh,
			  const struct vpmu_hu_prog *p, const char *what,
			  const struct vpmu_report_opts *o)
{
	char label[VPMU_HU_TEXT_MAX], cb[12];
	struct hist_row r[VPMU_HU_MAX];
	uint64_t total = 0, shown = 0;
	unsigned int i, n;

	for (i = 0; i < hh->n; i++) {
		r[i] = (struct hist_row){ i, i, hh->c[i], 0 };
		total += hh->c[i];
	}
	hu_json_head(j, f, hh, p, what, total);
	qsort(r, hh->n, sizeof(*r),
	      o->order == VPMU_REPORT_BY_ADDR ? hist_by_addr : hist_by_count);
	n = o->top && o->top < hh->n ? o->top : hh->n;
	for (i = 0; i < n; i++) {
		shown += r[i].count;
		snprintf(cb, sizeof(cb), "C%u", r[i].idx + 1);
		vpmu_json_begin(j, f);
		vpmu_json_str(j, "bucket", cb);
		if (p) {
			vpmu_hu_entry_label(p, r[i].idx, label, sizeof(label));
			vpmu_json_str(j, "label", label);
		}
		vpmu_json_u64(j, "count", r[i].count);
		vpmu_json_double(j, "share", hist_pct(r[i].count, total));
		vpmu_json_end(j);
	}
	if (n < hh->n) {
		vpmu_json_begin(j, f);
		vpmu_json_u64(j, "more", hh->n - n);
		vpmu_json_u64(j, "count", total - shown);
		vpmu_json_double(j, "share", hist_pct(total - shown, total));
		vpmu_json_end(j);
	}
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

	if (hist_plot_output(o, path, 1000, 600, diag))
		return -1;
	for (i = 0; i < hh->n; i++) {
		total += hh->c[i];
		max = hh->c[i] > max ? hh->c[i] : max;
	}
	/* bucket, [predicate, period,] count, count as text (every digit) */
	vpmu_buf_printf(o, "\n$buckets << EOD\n");
	for (i = 0; i < hh->n; i++) {
		snprintf(cb, sizeof(cb), "C%u", i + 1);
		hist_plot_name(o, cb);
		if (p) {
			vpmu_hu_entry_label(p, i, label, sizeof(label));
			period = strrchr(label, '(');
			period[-1] = '\0';
			vpmu_buf_put(o, " ", 1);
			hist_plot_name(o, label);
			vpmu_buf_put(o, " ", 1);
			hist_plot_name(o, period);
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
	hist_plot_quote(o, title.p);
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
