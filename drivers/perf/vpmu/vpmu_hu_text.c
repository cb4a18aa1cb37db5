// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hu_text.c - the histogram unit's program as text: parser and
 * printer (vpmu_hu_text.h).  Built into the module and into the host tools.
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

/* How a range predicate spells its range. */
enum {
	VPMU_HU_INCL,	/* LO[-HI], both included, decimal */
	VPMU_HU_UPCS,	/* the same, printed in hexadecimal */
	VPMU_HU_ADDR,	/* LO-HI, HI excluded, or one address; hexadecimal */
};

/*
 * The range predicates, one row each: the parser reads and checks them by
 * it, the printer prints them by it.  @max bounds HI (excluded for
 * VPMU_HU_ADDR).
 */
static const struct vpmu_hu_pred {
	const char *key;
	u8 kind;		/* enum vpmu_hu_kind */
	u8 style;
	u64 max;
	const char *what;	/* for "beyond" */
} vpmu_hu_preds[] = {
	{ "wq=", VPMU_HU_WQ, VPMU_HU_INCL, VPMU_HU_WQ_MAX, "occupancy" },
	{ "upc=", VPMU_HU_UPC, VPMU_HU_UPCS, VPMU_CS_MAX - 1, "micro-address" },
	{ "load=", VPMU_HU_LOAD, VPMU_HU_ADDR, 1ull << 32, "address" },
	{ "hit=", VPMU_HU_HIT, VPMU_HU_ADDR, 1ull << 32, "address" },
	{ "miss=", VPMU_HU_MISS, VPMU_HU_ADDR, 1ull << 32, "address" },
	{ "store=", VPMU_HU_STORE, VPMU_HU_ADDR, 1ull << 32, "address" },
	{ "access=", VPMU_HU_ACCESS, VPMU_HU_ADDR, 1ull << 32, "address" },
};

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
int vpmu_hu_fail(struct vpmu_hu_lexer *lx, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!lx->err)
		return -EINVAL;
	if (lx->entry)
		n = snprintf(lx->err, VPMU_HU_ERR_MAX, "entry %u: ", lx->entry);
	va_start(ap, fmt);
	vsnprintf(lx->err + n, VPMU_HU_ERR_MAX - n, fmt, ap);
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
			 struct vpmu_hu_word w, const struct vpmu_hu_pred *r,
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
		return vpmu_hu_fail(lx, "%s: expected a number or LO-HI",
				    vpmu_hu_quote(lx, pred));
	if (addr && i == w.len)
		b = a < r->max ? a + 1 : a;	/* one address: [LO, LO + 1) */
	if (addr ? a >= b && a < r->max : a > b)
		return vpmu_hu_fail(lx, addr ? "%s: LO not below HI (HI is excluded)" :
				    "%s: LO above HI", vpmu_hu_quote(lx, pred));
	if (b > r->max || (addr && a >= r->max))
		return vpmu_hu_fail(lx, addr ? "%s: %s beyond 0x%llx" :
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
		return vpmu_hu_fail(lx, "%s: tag not in 1..%u",
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
			return vpmu_hu_fail(lx, "%s: not a basic event (0..%u; tags are tag=K)",
					    vpmu_hu_quote(lx, pred), VPMU_EV_NR_BASIC - 1);
		e->kind = VPMU_HU_EVENT;
		e->event = v;
		return 0;
	}
	if (vpmu_hu_skip(&w, "tag="))
		return vpmu_hu_tag(lx, pred, &w, e);
	for (i = 0; i < ARRAY_SIZE(vpmu_hu_preds); i++)
		if (vpmu_hu_skip(&w, vpmu_hu_preds[i].key))
			return vpmu_hu_range(lx, pred, w, &vpmu_hu_preds[i], e);
	for (i = 0; i < VPMU_EV_NR_BASIC; i++) {
		if (vpmu_hu_is(pred, vpmu_event_info[i].name)) {
			e->kind = VPMU_HU_EVENT;
			e->event = i;
			return 0;
		}
	}
	if (vpmu_hu_skip(&w, "vpmu_tag"))
		return vpmu_hu_tag(lx, pred, &w, e);
	return vpmu_hu_fail(lx, "unknown predicate '%s' (%s)", vpmu_hu_quote(lx, pred),
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
		return vpmu_hu_fail(lx, "more than %u entries", VPMU_HU_MAX);
	if (nw != 2)
		return vpmu_hu_fail(lx, "expected PREDICATE PERIOD, got %u word%s",
				    nw, nw == 1 ? "" : "s");
	e = &p->ent[p->n];
	ret = vpmu_hu_predicate(lx, &w[0], e);
	if (ret)
		return ret;
	if (vpmu_hu_number(&w[1], ~0u, &v) || !v)
		return vpmu_hu_fail(lx, "period '%s' not in 1..%u cycles",
				    vpmu_hu_quote(lx, &w[1]), ~0u);
	e->period = v;
	p->n++;
	return 0;
}

/* The monitoring period must fit in 32 bits (the engine's limit). */
static int vpmu_hu_check_total(struct vpmu_hu_lexer *lx,
			       const struct vpmu_hu_prog *p)
{
	u64 t = 0;
	unsigned int i;

	if (p->mode != VPMU_HU_SEQ)
		return 0;
	for (i = 0; i < p->n; i++)
		t += p->ent[i].period;
	if (t > ~0u)
		return vpmu_hu_fail(lx, "seq: the periods add up to %llu cycles, over %u",
				    (unsigned long long)t, ~0u);
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
			return vpmu_hu_fail(lx, "'off' takes nothing after it, not '%s'",
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
		return vpmu_hu_fail(&lx, "expected 'seq', 'par' or 'off' first, not '%s'",
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
		return vpmu_hu_fail(&lx, "no entries after '%s%s'",
				    vpmu_hu_modes[p->mode],
				    p->once ? " once" : "");
	return vpmu_hu_check_total(&lx, p);
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

/* Range predicate @e, by its row of vpmu_hu_preds[] (false: none). */
static bool vpmu_hu_print_range(const struct vpmu_hu_entry *e, char *buf,
				size_t size, int *len)
{
	const struct vpmu_hu_pred *r;

	for (r = vpmu_hu_preds; r < vpmu_hu_preds + ARRAY_SIZE(vpmu_hu_preds);
	     r++) {
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

/* ---- the program as the uapi struct -------------------------------------- */

/* Is @ev an event the text can name: a basic event or tag 1..255? */
static bool vpmu_hu_event_ok(u32 ev)
{
	return ev < VPMU_EV_NR_BASIC ||
	       (ev > VPMU_EV_TAG_BASE && ev <= VPMU_EV_TAG(VPMU_TAG_MAX));
}

/* Rule @r (of @lx->entry) into @e, checked as the parser checks text. */
static int vpmu_hu_rule(struct vpmu_hu_lexer *lx, const struct vpmu_hu_rule *r,
			struct vpmu_hu_entry *e)
{
	const struct vpmu_hu_pred *pred = NULL;
	unsigned int i;

	if (r->reserved)
		return vpmu_hu_fail(lx, "reserved field not 0");
	if (!r->period)
		return vpmu_hu_fail(lx, "period 0");
	e->kind = r->kind;
	e->period = r->period;
	if (r->kind == VPMU_HU_EVENT) {
		if (!vpmu_hu_event_ok(r->event) || r->lo || r->hi)
			return vpmu_hu_fail(lx,
					    "event %#x: not a basic event or tag=1..%u, or a range with it",
					    r->event, VPMU_TAG_MAX);
		e->event = r->event;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(vpmu_hu_preds); i++)
		if (vpmu_hu_preds[i].kind == r->kind)
			pred = &vpmu_hu_preds[i];
	if (!pred)
		return vpmu_hu_fail(lx, "kind %u: not a kind of rule", r->kind);
	/* Both ends included; an address range's max, 2^32, bounds no u32. */
	if (r->event || r->lo > r->hi || r->hi > pred->max)
		return vpmu_hu_fail(lx, "%s%u-%u: an event with it, LO above HI, or %s beyond %llu",
				    pred->key, r->lo, r->hi, pred->what,
				    (unsigned long long)pred->max);
	e->lo = r->lo;
	e->hi = r->hi;
	return 0;
}

/* Are the @n bytes at @p all zero? */
static bool vpmu_hu_zero(const void *p, size_t n)
{
	const u8 *b = p;

	while (n--)
		if (*b++)
			return false;
	return true;
}

int vpmu_hu_from_uapi(const struct vpmu_hu_program *u, struct vpmu_hu_prog *p,
		      char *err)
{
	struct vpmu_hu_lexer lx = { .err = err };
	unsigned int i;
	int ret;

	memset(p, 0, sizeof(*p));
	if (err)
		err[0] = '\0';
	if (u->flags & ~VPMU_HU_F_ALL || u->reserved)
		return vpmu_hu_fail(&lx, "flags %#x or reserved %#x: unknown bits",
				    u->flags, u->reserved);
	if (u->nr > VPMU_HU_MAX || (!u->nr && u->flags))
		return vpmu_hu_fail(&lx, "%u rules with flags %#x: 1..%u, or 0 (off) without flags",
				    u->nr, u->flags, VPMU_HU_MAX);
	if (!vpmu_hu_zero(u->rule + u->nr,
			  sizeof(u->rule[0]) * (VPMU_HU_MAX - u->nr)))
		return vpmu_hu_fail(&lx, "a rule beyond the %u given is not 0",
				    u->nr);
	if (!u->nr)
		return 0;
	p->mode = u->flags & VPMU_HU_F_PAR ? VPMU_HU_PAR : VPMU_HU_SEQ;
	p->once = !!(u->flags & VPMU_HU_F_ONCE);
	for (i = 0; i < u->nr; i++) {
		lx.entry = i + 1;
		ret = vpmu_hu_rule(&lx, &u->rule[i], &p->ent[i]);
		if (ret)
			return ret;
	}
	p->n = u->nr;
	lx.entry = 0;
	return vpmu_hu_check_total(&lx, p);
}

void vpmu_hu_to_uapi(const struct vpmu_hu_prog *p, struct vpmu_hu_program *u)
{
	unsigned int i;

	memset(u, 0, sizeof(*u));
	u->size = sizeof(*u);
	if (!p || !p->n)
		return;
	u->flags = (p->mode == VPMU_HU_PAR ? VPMU_HU_F_PAR : 0) |
		   (p->once ? VPMU_HU_F_ONCE : 0);
	u->nr = p->n;
	for (i = 0; i < p->n && i < VPMU_HU_MAX; i++) {
		u->rule[i].kind = p->ent[i].kind;
		u->rule[i].event = p->ent[i].event;
		u->rule[i].lo = p->ent[i].lo;
		u->rule[i].hi = p->ent[i].hi;
		u->rule[i].period = p->ent[i].period;
	}
}
