// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_asm_lex.c - what both of the assembler's modes read their source
 * with: the symbol tables, the diagnostics, the lexer (blanks and
 * comments, punctuation, identifiers, strings) and constant expressions.
 *
 * Everything works on the current line of struct as (vpmu_asm_priv.h)
 * and reports through error(), which prints in pass 2 only (vpmu_asm.c's
 * head says why).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_asm_priv.h"

/* ---- symbol tables ----------------------------------------------------- */

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

struct sym *asm_sym_find(struct symtab *t, const char *name)
{
	uint32_t i;

	if (!t->icap)
		return NULL;
	for (i = hash(name) & (t->icap - 1); t->idx[i];
	     i = (i + 1) & (t->icap - 1))
		if (!strcmp(t->v[t->idx[i] - 1].name, name))
			return &t->v[t->idx[i] - 1];
	return NULL;
}

static void sym_index(struct symtab *t, uint32_t k)
{
	uint32_t i = hash(t->v[k].name) & (t->icap - 1);

	while (t->idx[i])
		i = (i + 1) & (t->icap - 1);
	t->idx[i] = k + 1;
}

struct sym *asm_sym_add(struct symtab *t, const char *name)
{
	uint32_t k;

	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->v = realloc(t->v, t->cap * sizeof(*t->v));
		if (!t->v)
			abort();
	}
	if (2 * (t->n + 1) > t->icap) {
		free(t->idx);
		t->icap = t->icap ? 2 * t->icap : 128;
		t->idx = calloc(t->icap, sizeof(*t->idx));
		if (!t->idx)
			abort();
		for (k = 0; k < t->n; k++)
			sym_index(t, k);
	}
	k = t->n++;
	memset(&t->v[k], 0, sizeof(t->v[k]));
	t->v[k].name = strdup(name);
	if (!t->v[k].name)
		abort();
	sym_index(t, k);
	return &t->v[k];
}

void asm_symtab_free(struct symtab *t)
{
	uint32_t k;

	for (k = 0; k < t->n; k++)
		free(t->v[k].name);
	free(t->v);
	free(t->idx);
}

/* ---- diagnostics ------------------------------------------------------ */

/*
 * Source line @line, indented by four blanks, and under it a caret at
 * column @col, as gcc shows them; the caret line copies the line's tabs,
 * so that the caret stands under its column however tabs are expanded.
 * Nothing for a line the source does not have (an empty file's line 0).
 */
static void quote_line(struct as *a, int line, int col)
{
	const char *s = a->src, *e;
	int n;

	for (n = 1; n < line && s < a->end; n++) {
		s = memchr(s, '\n', a->end - s);
		s = s ? s + 1 : a->end;
	}
	if (line < 1 || s >= a->end)
		return;
	e = memchr(s, '\n', a->end - s);
	e = e ? e : a->end;
	if (e > s && e[-1] == '\r')
		e--;
	vpmu_buf_put(a->diag, "    ", 4);
	vpmu_buf_put(a->diag, s, e - s);
	vpmu_buf_put(a->diag, "\n    ", 5);
	for (n = 1; n < col; n++)
		vpmu_buf_put(a->diag, s + n - 1 < e && s[n - 1] == '\t' ?
			     "\t" : " ", 1);
	vpmu_buf_put(a->diag, "^\n", 2);
}

static void verror(struct as *a, int line, int col, const char *fmt,
		   va_list ap)
{
	if (a->pass != 2 || a->stop)
		return;
	if ((unsigned int)a->nerr >= a->max_errors) {
		vpmu_buf_printf(a->diag, "%s: error: too many errors, stopping\n",
				a->file);
		a->stop = true;
		a->nerr++;
		return;
	}
	a->nerr++;
	vpmu_buf_printf(a->diag, "%s:%d:%d: error: ", a->file, line, col);
	vpmu_buf_vprintf(a->diag, fmt, ap);
	vpmu_buf_put(a->diag, "\n", 1);
	quote_line(a, line, col);
}

/* Report an error at @at on the current line (only its first error). */
__attribute__((format(printf, 3, 4)))
void asm_error(struct as *a, const char *at, const char *fmt, ...)
{
	va_list ap;

	if (a->line_err)
		return;
	a->line_err = a->pass == 2;
	va_start(ap, fmt);
	verror(a, a->line, (int)(at - a->ls) + 1, fmt, ap);
	va_end(ap);
}

/* Report an error about an earlier line (found at the end of pass 2). */
__attribute__((format(printf, 4, 5)))
void asm_error_lc(struct as *a, int line, int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(a, line, col, fmt, ap);
	va_end(ap);
}

/* ---- lexing ------------------------------------------------------------ */

void asm_skip_ws(struct as *a)
{
	while (a->p < a->le) {
		if (*a->p == ' ' || *a->p == '\t' || *a->p == '\r' ||
		    *a->p == '\f' || *a->p == '\v')
			a->p++;
		else if (*a->p == '/' && a->p + 1 < a->le && a->p[1] == '/')
			a->p = a->le;
		else
			break;
	}
}

bool asm_at_end(struct as *a)
{
	asm_skip_ws(a);
	return a->p == a->le;
}

bool asm_accept(struct as *a, char c)
{
	asm_skip_ws(a);
	if (a->p < a->le && *a->p == c) {
		a->p++;
		return true;
	}
	return false;
}

const char *asm_what(struct as *a)
{
	static char buf[8];

	asm_skip_ws(a);
	if (a->p == a->le)
		return "end of line";
	if (isprint((unsigned char)*a->p))
		snprintf(buf, sizeof(buf), "'%c'", *a->p);
	else
		snprintf(buf, sizeof(buf), "\\x%02x", (unsigned char)*a->p);
	return buf;
}

bool asm_expect(struct as *a, char c)
{
	if (asm_accept(a, c))
		return true;
	asm_error(a, a->p, "expected '%c' but found %s", c, asm_what(a));
	return false;
}

static bool is_ident_start(char c)
{
	return isalpha((unsigned char)c) || c == '_' || c == '.' || c == '@' ||
	       c == '$';
}

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$';
}

/* An identifier into @buf (IDENT_MAX bytes); false, without error, if none. */
bool asm_ident(struct as *a, char *buf)
{
	const char *s;
	size_t n;

	asm_skip_ws(a);
	if (a->p == a->le || !is_ident_start(*a->p))
		return false;
	s = a->p++;
	while (a->p < a->le && is_ident_char(*a->p))
		a->p++;
	n = a->p - s;
	if (n >= IDENT_MAX) {
		asm_error(a, s, "identifier longer than %d characters", IDENT_MAX - 1);
		n = IDENT_MAX - 1;
	}
	memcpy(buf, s, n);
	buf[n] = '\0';
	return true;
}

bool asm_need_ident(struct as *a, char *buf, const char *what_for)
{
	asm_skip_ws(a);
	if (asm_ident(a, buf))
		return true;
	asm_error(a, a->p, "expected %s but found %s", what_for, asm_what(a));
	return false;
}

/* A quoted string with C escapes \n \t \0 \xHH \\ \". */
bool asm_string(struct as *a, struct vpmu_buf *out)
{
	asm_skip_ws(a);
	if (a->p == a->le || *a->p != '"') {
		asm_error(a, a->p, "expected a string but found %s", asm_what(a));
		return false;
	}
	a->p++;
	while (a->p < a->le && *a->p != '"') {
		char c = *a->p++;

		if (c == '\\' && a->p < a->le) {
			const char *esc = a->p - 1;

			c = *a->p++;
			if (c == 'n') {
				c = '\n';
			} else if (c == 't') {
				c = '\t';
			} else if (c == '0') {
				c = '\0';
			} else if (c == 'x' && a->le - a->p >= 2 &&
				   isxdigit((unsigned char)a->p[0]) &&
				   isxdigit((unsigned char)a->p[1])) {
				char hex[3] = { a->p[0], a->p[1], 0 };

				c = (char)strtoul(hex, NULL, 16);
				a->p += 2;
			} else if (c != '\\' && c != '"') {
				asm_error(a, esc, "unknown escape sequence");
				return false;
			}
		}
		vpmu_buf_put(out, &c, 1);
	}
	return asm_expect(a, '"');
}

/* ---- expressions ------------------------------------------------------- */

int64_t asm_location(struct as *a)
{
	return a->prog ? a->lc : a->ncs;
}

static bool parse_number(struct as *a, int64_t *v)
{
	const char *s = a->p;
	unsigned int base = 10;
	uint64_t n = 0;
	bool any = false;

	if (a->p + 1 < a->le && a->p[0] == '0' &&
	    (a->p[1] == 'x' || a->p[1] == 'X')) {
		base = 16;
		a->p += 2;
	} else if (a->p + 1 < a->le && a->p[0] == '0' &&
		   (a->p[1] == 'b' || a->p[1] == 'B')) {
		base = 2;
		a->p += 2;
	}
	for (; a->p < a->le && isalnum((unsigned char)*a->p); a->p++) {
		unsigned int d;

		if (isdigit((unsigned char)*a->p))
			d = *a->p - '0';
		else
			d = tolower((unsigned char)*a->p) - 'a' + 10;
		if (d >= base) {
			asm_error(a, a->p, "bad digit in number");
			return false;
		}
		if (n > (UINT64_MAX - d) / base) {
			asm_error(a, s, "number too large");
			return false;
		}
		n = n * base + d;
		any = true;
	}
	if (!any) {
		asm_error(a, s, "bad number");
		return false;
	}
	*v = (int64_t)n;
	return true;
}

static bool primary(struct as *a, int64_t *v)
{
	char name[IDENT_MAX];
	const char *at;
	struct sym *s;

	asm_skip_ws(a);
	at = a->p;
	if (asm_accept(a, '(')) {
		if (!asm_expr(a, v))
			return false;
		return asm_expect(a, ')');
	}
	if (asm_accept(a, '-')) {
		if (!primary(a, v))
			return false;
		*v = (int64_t)(0 - (uint64_t)*v);
		return true;
	}
	if (asm_accept(a, '~')) {
		if (!primary(a, v))
			return false;
		*v = ~*v;
		return true;
	}
	if (asm_accept(a, '+'))
		return primary(a, v);
	if (a->p < a->le && isdigit((unsigned char)*a->p))
		return parse_number(a, v);
	if (a->p + 2 < a->le && *a->p == '\'' && a->p[2] == '\'') {
		*v = (unsigned char)a->p[1];
		a->p += 3;
		return true;
	}
	if (!asm_ident(a, name)) {
		asm_error(a, at, "expected an expression but found %s", asm_what(a));
		return false;
	}
	if (!strcmp(name, ".")) {
		*v = asm_location(a);
		return true;
	}
	s = asm_sym_find(&a->syms, name);
	if (!s || !s->known) {
		if (a->pass == 2)
			asm_error(a, at, "undefined symbol '%s'", name);
		a->undef = true;
		*v = 0;
		return a->pass == 1;
	}
	*v = s->val;
	return true;
}

/* Binary operators, loosest first. */
static const struct {
	const char *op;
	int prec;
} binops[] = {
	{ "|", 1 }, { "^", 2 }, { "&", 3 }, { "<<", 4 }, { ">>", 4 },
	{ "+", 5 }, { "-", 5 }, { "*", 6 }, { "/", 6 }, { "%", 6 },
};

static int binop(struct as *a, int min, const char **op)
{
	size_t i, n;

	asm_skip_ws(a);
	for (i = 0; i < ARRAY_SIZE(binops); i++) {
		n = strlen(binops[i].op);
		if (binops[i].prec >= min && (size_t)(a->le - a->p) >= n &&
		    !memcmp(a->p, binops[i].op, n)) {
			*op = binops[i].op;
			return binops[i].prec;
		}
	}
	return 0;
}

static bool expr_prec(struct as *a, int64_t *v, int min)
{
	const char *op, *at;
	uint64_t l, r;
	int64_t rv;
	int prec;

	if (!primary(a, v))
		return false;
	while ((prec = binop(a, min, &op))) {
		at = a->p;
		a->p += strlen(op);
		if (!expr_prec(a, &rv, prec + 1))
			return false;
		l = (uint64_t)*v;
		r = (uint64_t)rv;
		switch (op[0]) {
		case '|':
			l |= r;
			break;
		case '^':
			l ^= r;
			break;
		case '&':
			l &= r;
			break;
		case '+':
			l += r;
			break;
		case '-':
			l -= r;
			break;
		case '*':
			l *= r;
			break;
		case '<':
			l = r > 63 ? 0 : l << r;
			break;
		case '>':
			l = r > 63 ? 0 : (uint64_t)(*v >> r);
			break;
		default:	/* / and % */
			if (!rv) {
				if (a->undef)	/* pass 1, value unknown */
					break;
				asm_error(a, at, "division by zero");
				return false;
			}
			if (*v == INT64_MIN && rv == -1)
				l = op[0] == '/' ? l : 0;
			else
				l = op[0] == '/' ? (uint64_t)(*v / rv) :
						   (uint64_t)(*v % rv);
			break;
		}
		*v = (int64_t)l;
	}
	return true;
}

bool asm_expr(struct as *a, int64_t *v)
{
	return expr_prec(a, v, 1);
}

/* An expression whose value must lie in [lo, hi]. */
bool asm_expr_range(struct as *a, int64_t *v, int64_t lo, int64_t hi,
		    const char *what_for)
{
	const char *at;

	asm_skip_ws(a);
	at = a->p;
	if (!asm_expr(a, v))
		return false;
	if (*v < lo || *v > hi) {	/* reported in pass 2 */
		asm_error(a, at, "%s %lld out of range %lld..%lld", what_for,
			  (long long)*v, (long long)lo, (long long)hi);
		return false;
	}
	return true;
}

/*
 * An expression that decides where later things go (.space, .org, ...):
 * it must be computable in pass 1, so it may not use later symbols.
 */
bool asm_layout_expr(struct as *a, int64_t *v, int64_t lo, int64_t hi,
		     const char *what_for)
{
	const char *at;
	bool ok;

	asm_skip_ws(a);
	at = a->p;
	a->undef = false;
	ok = asm_expr_range(a, v, lo, hi, what_for);
	if (a->pass == 1 && a->undef) {
		a->layout_undef[a->line] = true;
		return false;
	}
	if (!ok)
		return false;
	if (a->pass == 2 && a->layout_undef[a->line]) {
		asm_error(a, at, "%s must not depend on symbols defined later",
			  what_for);
		return false;
	}
	return true;
}
