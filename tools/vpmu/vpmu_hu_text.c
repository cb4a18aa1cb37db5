// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hu_text.c - the histogram unit's program as text: parser and
 * printer (vpmu_hu_text.h).  Host tools only: the module takes the program
 * as a struct (drivers/perf/vpmu/vpmu_hu_uapi.c, whose table of range
 * rules this reads).
 *
 * The text is read as words (runs of anything but blanks, ';', newlines and
 * comments) and separators (';' and newlines).  The first word is the mode;
 * then every non-empty stretch between separators is one entry of exactly
 * two words.  Nothing is copied: words are (pointer, length) pairs into the
 * caller's text, so any length of text is fine and nothing allocates.
 */
#include "vpmu_hu_text.h"

/* Longest word quoted in an error message. */
#define VPMU_HU_QUOTE	24

/* The modes, by enum vpmu_hu_mode. */
static const char *const vpmu_hu_modes[] = { "seq", "par" };

struct vpmu_hu_word {
	const char *s;
	unsigned int len;
};

struct vpmu_hu_lexer {
	const char *p, *end;
	char *err;
	unsigned int entry;	/* 1-based, for messages; 0: the mode */
	char q[VPMU_HU_QUOTE + 4];	/* a word quoted in a message */
};

static bool vpmu_hu_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool vpmu_hu_sep(char c)
{
	return c == '\n' || c == ';';
}

/*
 * Next token: 1 a word in @w, 0 a separator, -1 the end.  Blanks and
 * comments are skipped (a comment ends at its newline, which separates).
 * A NUL ends the text too.
 */
static int vpmu_hu_next(struct vpmu_hu_lexer *lx, struct vpmu_hu_word *w)
{
	while (lx->p < lx->end) {
		char c = *lx->p;

		if (!c) {
			lx->end = lx->p;
			break;
		}
		if (vpmu_hu_blank(c)) {
			lx->p++;
			continue;
		}
		if (c == '#') {
			while (lx->p < lx->end && *lx->p && *lx->p != '\n')
				lx->p++;
			continue;
		}
		if (vpmu_hu_sep(c)) {
			lx->p++;
			return 0;
		}
		w->s = lx->p;
		while (lx->p < lx->end && *lx->p && !vpmu_hu_blank(*lx->p) &&
		       !vpmu_hu_sep(*lx->p) && *lx->p != '#')
			lx->p++;
		w->len = lx->p - w->s;
		return 1;
	}
	return -1;
}

/* Report an error about the current entry; always -EINVAL. */
static __printf(2, 3)
int vpmu_hu_text_fail(struct vpmu_hu_lexer *lx, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vpmu_hu_vfail(lx->err, lx->entry, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* @w as a string for a message, cut short if long. */
static const char *vpmu_hu_quote(struct vpmu_hu_lexer *lx,
				 const struct vpmu_hu_word *w)
{
	unsigned int n = w->len < VPMU_HU_QUOTE ? w->len : VPMU_HU_QUOTE;

	memcpy(lx->q, w->s, n);
	if (w->len > n) {
		memcpy(lx->q + n, "...", 3);
		n += 3;
	}
	lx->q[n] = '\0';
	return lx->q;
}

static bool vpmu_hu_is(const struct vpmu_hu_word *w, const char *s)
{
	unsigned int n = strlen(s);

	return w->len == n && !memcmp(w->s, s, n);
}

/* Does @w start with @prefix?  Then advance past it. */
static bool vpmu_hu_skip(struct vpmu_hu_word *w, const char *prefix)
{
	unsigned int n = strlen(prefix);

	if (w->len < n || memcmp(w->s, prefix, n))
		return false;
	w->s += n;
	w->len -= n;
	return true;
}

/*
 * A whole number in @w: decimal, or hexadecimal after 0x.  0, or -1 if @w
 * is not one or exceeds @max.
 */
static int vpmu_hu_number(const struct vpmu_hu_word *w, u64 max, u64 *val)
{
	unsigned int i = 0, base = 10, d;
	u64 v = 0;

	if (w->len > 2 && w->s[0] == '0' && (w->s[1] == 'x' || w->s[1] == 'X')) {
		base = 16;
		i = 2;
	}
	if (i == w->len)
		return -1;
	for (; i < w->len; i++) {
		char c = w->s[i];

		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return -1;
		if (v > (max - d) / base)
			return -1;
		v = v * base + d;
	}
	*val = v;
	return 0;
}

/*
 * The range of predicate @r in @w into @e (lo..hi, both included): LO or
 * LO-HI, LO <= HI <= max; or for an address range LO-HI with LO < HI <=
 * max (HI excluded), or one address LO < max.
 */
static int vpmu_hu_range(struct vpmu_hu_lexer *lx, const struct vpmu_hu_word *pred,
			 struct vpmu_hu_word w, const struct vpmu_hu_range_rule *r,
			 struct vpmu_hu_entry *e)
{
	bool addr = r->style == VPMU_HU_ADDR;
	struct vpmu_hu_word lo = w, hi = w;
	unsigned int i;
	u64 a, b;

	for (i = 0; i < w.len && w.s[i] != '-'; i++)
		;
	lo.len = i;
	if (i < w.len) {
		hi.s = w.s + i + 1;
		hi.len = w.len - i - 1;
	}
	if (vpmu_hu_number(&lo, ~0ull, &a) || vpmu_hu_number(&hi, ~0ull, &b))
		return vpmu_hu_text_fail(lx, "%s: expected a number or LO-HI",
				    vpmu_hu_quote(lx, pred));
	if (addr && i == w.len)
		b = a < r->max ? a + 1 : a;	/* one address: [LO, LO + 1) */
	if (addr ? a >= b && a < r->max : a > b)
		return vpmu_hu_text_fail(lx, addr ? "%s: LO not below HI (HI is excluded)" :
				    "%s: LO above HI", vpmu_hu_quote(lx, pred));
	if (b > r->max || (addr && a >= r->max))
		return vpmu_hu_text_fail(lx, addr ? "%s: %s beyond 0x%llx" :
				    "%s: %s beyond %llu", vpmu_hu_quote(lx, pred),
				    r->what, (unsigned long long)r->max);
	e->kind = r->kind;
	e->lo = a;
	e->hi = addr ? b - 1 : b;
	return 0;
}

/* A tag number 1..VPMU_TAG_MAX into @e. */
static int vpmu_hu_tag(struct vpmu_hu_lexer *lx, const struct vpmu_hu_word *pred,
		       const struct vpmu_hu_word *k, struct vpmu_hu_entry *e)
{
	u64 v;

	if (vpmu_hu_number(k, ~0ull, &v) || v < 1 || v > VPMU_TAG_MAX)
		return vpmu_hu_text_fail(lx, "%s: tag not in 1..%u",
				    vpmu_hu_quote(lx, pred), VPMU_TAG_MAX);
	e->kind = VPMU_HU_EVENT;
	e->event = VPMU_EV_TAG(v);
	return 0;
}

static int vpmu_hu_predicate(struct vpmu_hu_lexer *lx,
			     const struct vpmu_hu_word *pred,
			     struct vpmu_hu_entry *e)
{
	struct vpmu_hu_word w = *pred;
	unsigned int i;
	u64 v;

	if (vpmu_hu_skip(&w, "event=")) {
		if (vpmu_hu_number(&w, ~0ull, &v) || v >= VPMU_EV_NR_BASIC)
			return vpmu_hu_text_fail(lx, "%s: not a basic event (0..%u; tags are tag=K)",
					    vpmu_hu_quote(lx, pred), VPMU_EV_NR_BASIC - 1);
		e->kind = VPMU_HU_EVENT;
		e->event = v;
		return 0;
	}
	if (vpmu_hu_skip(&w, "tag="))
		return vpmu_hu_tag(lx, pred, &w, e);
	for (i = 0; vpmu_hu_range_rules[i].key; i++)
		if (vpmu_hu_skip(&w, vpmu_hu_range_rules[i].key))
			return vpmu_hu_range(lx, pred, w, &vpmu_hu_range_rules[i],
					     e);
	for (i = 0; i < VPMU_EV_NR_BASIC; i++) {
		if (vpmu_hu_is(pred, vpmu_event_info[i].name)) {
			e->kind = VPMU_HU_EVENT;
			e->event = i;
			return 0;
		}
	}
	if (vpmu_hu_skip(&w, "vpmu_tag"))
		return vpmu_hu_tag(lx, pred, &w, e);
	return vpmu_hu_text_fail(lx, "unknown predicate '%s' (%s)", vpmu_hu_quote(lx, pred),
			    "event=N, tag=K, an event name, wq=, upc=, load=, hit=, miss=, store= or access=");
}

/* One entry of @nw words (@w holds the first two); appended to @p. */
static int vpmu_hu_entry(struct vpmu_hu_lexer *lx, const struct vpmu_hu_word *w,
			 unsigned int nw, struct vpmu_hu_prog *p)
{
	struct vpmu_hu_entry *e;
	u64 v;
	int ret;

	if (p->n == VPMU_HU_MAX)
		return vpmu_hu_text_fail(lx, "more than %u entries", VPMU_HU_MAX);
	if (nw != 2)
		return vpmu_hu_text_fail(lx, "expected PREDICATE PERIOD, got %u word%s",
				    nw, nw == 1 ? "" : "s");
	e = &p->ent[p->n];
	ret = vpmu_hu_predicate(lx, &w[0], e);
	if (ret)
		return ret;
	if (vpmu_hu_number(&w[1], ~0u, &v) || !v)
		return vpmu_hu_text_fail(lx, "period '%s' not in 1..%u cycles",
				    vpmu_hu_quote(lx, &w[1]), ~0u);
	e->period = v;
	p->n++;
	return 0;
}

/* After "off": nothing but blanks, comments and separators. */
static int vpmu_hu_off(struct vpmu_hu_lexer *lx)
{
	struct vpmu_hu_word w;
	int t;

	do {
		t = vpmu_hu_next(lx, &w);
		if (t > 0)
			return vpmu_hu_text_fail(lx, "'off' takes nothing after it, not '%s'",
					    vpmu_hu_quote(lx, &w));
	} while (t == 0);
	return 0;
}

int vpmu_hu_parse(const char *text, size_t len, struct vpmu_hu_prog *p,
		  char *err)
{
	struct vpmu_hu_lexer lx = { .p = text, .end = text + len, .err = err };
	struct vpmu_hu_word w[2], extra;
	unsigned int nw = 0, m;
	int t, ret;

	memset(p, 0, sizeof(*p));
	if (err)
		err[0] = '\0';
	do {
		t = vpmu_hu_next(&lx, &w[0]);
	} while (t == 0);
	if (t < 0)
		return 0;
	if (vpmu_hu_is(&w[0], "off"))
		return vpmu_hu_off(&lx);
	for (m = 0; m < ARRAY_SIZE(vpmu_hu_modes); m++)
		if (vpmu_hu_is(&w[0], vpmu_hu_modes[m]))
			break;
	if (m == ARRAY_SIZE(vpmu_hu_modes))
		return vpmu_hu_text_fail(&lx, "expected 'seq', 'par' or 'off' first, not '%s'",
				    vpmu_hu_quote(&lx, &w[0]));
	p->mode = m;

	/* "once" right after the mode: one monitoring period */
	t = vpmu_hu_next(&lx, &w[0]);
	if (t > 0 && vpmu_hu_is(&w[0], "once")) {
		p->once = 1;
		t = vpmu_hu_next(&lx, &w[0]);
	}
	nw = t > 0;
	lx.entry = 1;
	while (t >= 0) {
		t = vpmu_hu_next(&lx, nw < 2 ? &w[nw] : &extra);
		if (t > 0) {
			nw++;
			continue;
		}
		if (!nw)
			continue;
		ret = vpmu_hu_entry(&lx, w, nw, p);
		if (ret)
			return ret;
		lx.entry++;
		nw = 0;
	}
	lx.entry = 0;
	if (!p->n)
		return vpmu_hu_text_fail(&lx, "no entries after '%s%s'",
				    vpmu_hu_modes[p->mode],
				    p->once ? " once" : "");
	return vpmu_hu_check_total(p, lx.err);
}

/* snprintf() into what is left of @buf, counting the whole length. */
static __printf(4, 5)
void vpmu_hu_out(char *buf, size_t size, int *len, const char *fmt, ...)
{
	size_t off = *len < 0 ? 0 : (size_t)*len;
	va_list ap;

	va_start(ap, fmt);
	*len += vsnprintf(off < size ? buf + off : NULL,
			  off < size ? size - off : 0, fmt, ap);
	va_end(ap);
}

/* Range predicate @e, by its row of vpmu_hu_range_rules[] (false: none). */
static bool vpmu_hu_print_range(const struct vpmu_hu_entry *e, char *buf,
				size_t size, int *len)
{
	const struct vpmu_hu_range_rule *r;

	for (r = vpmu_hu_range_rules; r->key; r++) {
		unsigned long long lo = e->lo, hi = e->hi;
		bool hex = r->style != VPMU_HU_INCL;

		if (r->kind != e->kind)
			continue;
		if (r->style == VPMU_HU_ADDR)
			hi++;		/* printed excluded */
		if (e->lo == e->hi)
			vpmu_hu_out(buf, size, len, hex ? "%s0x%llx" : "%s%llu",
				    r->key, lo);
		else
			vpmu_hu_out(buf, size, len, hex ? "%s0x%llx-0x%llx" :
				    "%s%llu-%llu", r->key, lo, hi);
		return true;
	}
	return false;
}

int vpmu_hu_print(const struct vpmu_hu_prog *p, char *buf, size_t size)
{
	const struct vpmu_hu_entry *e;
	int len = 0;

	if (size)
		buf[0] = '\0';
	if (!p || !p->n) {
		vpmu_hu_out(buf, size, &len, "off\n");
		return len;
	}
	vpmu_hu_out(buf, size, &len, "%s%s\n",
		    vpmu_hu_modes[p->mode == VPMU_HU_PAR],
		    p->once ? " once" : "");
	for (e = p->ent; e < p->ent + p->n && e < p->ent + VPMU_HU_MAX; e++) {
		if (e->kind == VPMU_HU_EVENT) {
			if (e->event < VPMU_EV_NR_BASIC)
				vpmu_hu_out(buf, size, &len, "%s",
					    vpmu_event_info[e->event].name);
			else if (e->event > VPMU_EV_TAG_BASE &&
				 e->event <= VPMU_EV_TAG(VPMU_TAG_MAX))
				vpmu_hu_out(buf, size, &len, "tag=%u",
					    e->event - VPMU_EV_TAG_BASE);
			else
				vpmu_hu_out(buf, size, &len, "event=0x%x",
					    e->event);
		} else if (!vpmu_hu_print_range(e, buf, size, &len)) {
			vpmu_hu_out(buf, size, &len, "kind=%u", e->kind);
		}
		vpmu_hu_out(buf, size, &len, " %u\n", e->period);
	}
	return len;
}
