// SPDX-License-Identifier: GPL-2.0
/*
 * workload.c - make bench's long RV32 workload: about ten million
 * instructions of ordinary C, its hot code spread over tens of KiB, the
 * way real programs are rather than one tight loop.  Linked lists,
 * matrices, a tokenizer and an expression evaluator (state machines),
 * CRCs, a hash table, sorting, strings, base64 and a bytecode
 * interpreter, each in functions of its own, run in rounds; the last
 * line is a checksum of everything, the same under vpmu and
 * qemu-riscv32.  Built with vpmu-cc -O2 (rv32-bench.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static uint32_t seed = 12345;

static uint32_t rnd(void)
{
	seed ^= seed << 13;
	seed ^= seed >> 17;
	seed ^= seed << 5;
	return seed;
}

/* ---- linked lists --------------------------------------------------------- */

struct node {
	struct node *next;
	int32_t key;
	uint32_t val;
};

#define NNODES 512
static struct node pool[NNODES];

static NOINLINE struct node *list_build(unsigned int n)
{
	struct node *head = NULL;
	unsigned int i;

	for (i = 0; i < n; i++) {
		pool[i].key = (int32_t)(rnd() % 10000) - 5000;
		pool[i].val = i;
		pool[i].next = head;
		head = &pool[i];
	}
	return head;
}

static NOINLINE struct node *list_sort(struct node *head)
{
	struct node *sorted = NULL;

	while (head) {
		struct node *n = head, **pp = &sorted;

		head = head->next;
		while (*pp && (*pp)->key < n->key)
			pp = &(*pp)->next;
		n->next = *pp;
		*pp = n;
	}
	return sorted;
}

static NOINLINE struct node *list_reverse(struct node *head)
{
	struct node *prev = NULL;

	while (head) {
		struct node *next = head->next;

		head->next = prev;
		prev = head;
		head = next;
	}
	return prev;
}

static NOINLINE struct node *list_drop_odd(struct node *head)
{
	struct node **pp = &head;

	while (*pp) {
		if ((*pp)->key & 1)
			*pp = (*pp)->next;
		else
			pp = &(*pp)->next;
	}
	return head;
}

static NOINLINE uint32_t list_sum(const struct node *n)
{
	uint32_t s = 0;

	for (; n; n = n->next)
		s = s * 31 + (uint32_t)n->key + n->val;
	return s;
}

static uint32_t lists(void)
{
	struct node *l = list_build(NNODES / 2);

	l = list_sort(l);
	l = list_reverse(l);
	l = list_drop_odd(l);
	return list_sum(l);
}

/* ---- matrices ----------------------------------------------------------- */

#define N 20
static int32_t ma[N][N], mb[N][N], mc[N][N];

static NOINLINE void mat_fill(int32_t m[N][N])
{
	unsigned int i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			m[i][j] = (int32_t)(rnd() % 201) - 100;
}

static NOINLINE void mat_mul(int32_t c[N][N], int32_t a[N][N],
			     int32_t b[N][N])
{
	unsigned int i, j, k;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++) {
			int32_t s = 0;

			for (k = 0; k < N; k++)
				s += a[i][k] * b[k][j];
			c[i][j] = s;
		}
}

static NOINLINE void mat_transpose(int32_t m[N][N])
{
	unsigned int i, j;

	for (i = 0; i < N; i++)
		for (j = i + 1; j < N; j++) {
			int32_t t = m[i][j];

			m[i][j] = m[j][i];
			m[j][i] = t;
		}
}

/* Gaussian elimination modulo a prime: the rank of m mod 65521. */
static NOINLINE unsigned int mat_rank(int32_t m[N][N])
{
	static uint32_t w[N][N];
	const uint32_t p = 65521;
	unsigned int r = 0, c, i, j;

	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			w[i][j] = (uint32_t)((m[i][j] % (int32_t)p + (int32_t)p) %
					     (int32_t)p);
	for (c = 0; c < N && r < N; c++) {
		uint32_t inv = 1, b, x;

		for (i = r; i < N && !w[i][c]; i++)
			;
		if (i == N)
			continue;
		for (j = 0; j < N; j++) {
			uint32_t t = w[i][j];

			w[i][j] = w[r][j];
			w[r][j] = t;
		}
		/* inverse by Fermat: x^(p - 2) */
		for (b = p - 2, x = w[r][c]; b; b >>= 1, x = x * x % p)
			if (b & 1)
				inv = inv * x % p;
		for (i = 0; i < N; i++) {
			uint32_t f;

			if (i == r || !w[i][c])
				continue;
			f = w[i][c] * inv % p;
			for (j = c; j < N; j++)
				w[i][j] = (w[i][j] + p - f * w[r][j] % p) % p;
		}
		r++;
	}
	return r;
}

static uint32_t matrices(void)
{
	uint32_t s = 0;
	unsigned int i, j;

	mat_fill(ma);
	mat_fill(mb);
	mat_mul(mc, ma, mb);
	mat_transpose(mc);
	for (i = 0; i < N; i++)
		for (j = 0; j < N; j++)
			s = s * 7 + (uint32_t)mc[i][j];
	return s + mat_rank(mc);
}

/* ---- a tokenizer and an evaluator: state machines -------------------------- */

static char text[2048];

static NOINLINE unsigned int gen_text(void)
{
	static const char *const words[] = {
		"alpha", "beta", "x", "y1", "count", "if", "then", "else",
	};
	static const char ops[] = "+-*/()=<>;,";
	unsigned int n = 0;

	while (n < sizeof(text) - 16) {
		uint32_t r = rnd();
		const char *w;

		switch (r % 4) {
		case 0:
			w = words[(r >> 4) % 8];
			while (*w)
				text[n++] = *w++;
			break;
		case 1:
			n += (unsigned int)snprintf(text + n, 12, "%u",
						    (unsigned int)(r >> 8) % 9999);
			break;
		case 2:
			text[n++] = ops[(r >> 4) % (sizeof(ops) - 1)];
			break;
		default:
			text[n++] = ' ';
			break;
		}
	}
	text[n] = 0;
	return n;
}

enum { T_IDENT, T_NUM, T_OP, T_SPACE, T_NR };

static NOINLINE void tokenize(const char *s, uint32_t *count)
{
	enum { S_START, S_IDENT, S_NUM } st = S_START;

	for (;; s++) {
		char c = *s;
		int alpha = (c >= 'a' && c <= 'z') || c == '_';
		int digit = c >= '0' && c <= '9';

		switch (st) {
		case S_IDENT:
			if (alpha || digit)
				continue;
			count[T_IDENT]++;
			st = S_START;
			break;
		case S_NUM:
			if (digit)
				continue;
			count[T_NUM]++;
			st = S_START;
			break;
		default:
			break;
		}
		if (!c)
			return;
		if (alpha)
			st = S_IDENT;
		else if (digit)
			st = S_NUM;
		else if (c == ' ')
			count[T_SPACE]++;
		else
			count[T_OP]++;
	}
}

/* A recursive-descent evaluator of + - * / ( ) over numbers. */
static const char *ep;

static NOINLINE int32_t ev_expr(int depth);

static NOINLINE int32_t ev_atom(int depth)
{
	int32_t v = 0;

	while (*ep == ' ')
		ep++;
	if (*ep == '(' && depth < 20) {
		ep++;
		v = ev_expr(depth + 1);
		if (*ep == ')')
			ep++;
		return v;
	}
	if (*ep == '-') {
		ep++;
		return -ev_atom(depth);
	}
	while (*ep >= '0' && *ep <= '9')
		v = v * 10 + (*ep++ - '0');
	return v;
}

static NOINLINE int32_t ev_term(int depth)
{
	int32_t v = ev_atom(depth);

	for (;;) {
		while (*ep == ' ')
			ep++;
		if (*ep == '*') {
			ep++;
			v *= ev_atom(depth);
		} else if (*ep == '/') {
			int32_t d;

			ep++;
			d = ev_atom(depth);
			v = d ? v / d : v;
		} else {
			return v;
		}
	}
}

static NOINLINE int32_t ev_expr(int depth)
{
	int32_t v = ev_term(depth);

	for (;;) {
		while (*ep == ' ')
			ep++;
		if (*ep == '+') {
			ep++;
			v += ev_term(depth);
		} else if (*ep == '-') {
			ep++;
			v -= ev_term(depth);
		} else {
			return v;
		}
	}
}

static NOINLINE unsigned int gen_expr(char *s, unsigned int n, int depth)
{
	unsigned int i = 0, k = 1 + rnd() % 4;

	while (k-- && i < n - 24) {
		uint32_t r = rnd();

		if (depth < 4 && r % 3 == 0) {
			s[i++] = '(';
			i += gen_expr(s + i, n - i - 2, depth + 1);
			s[i++] = ')';
		} else {
			i += (unsigned int)snprintf(s + i, 8, "%u",
						    (unsigned int)r % 100);
		}
		if (k)
			s[i++] = "+-*/"[(r >> 8) % 4];
	}
	s[i] = 0;
	return i;
}

static uint32_t parsing(void)
{
	uint32_t count[T_NR] = { 0 }, s = 0;
	static char ex[512];
	unsigned int i;

	gen_text();
	tokenize(text, count);
	for (i = 0; i < T_NR; i++)
		s = s * 131 + count[i];
	for (i = 0; i < 8; i++) {
		gen_expr(ex, sizeof(ex), 0);
		ep = ex;
		s = s * 17 + (uint32_t)ev_expr(0);
	}
	return s;
}

/* ---- checksums ------------------------------------------------------------ */

static uint8_t buf[4096];

static NOINLINE uint32_t crc32_table(const uint8_t *p, unsigned int n)
{
	static uint32_t tab[256];
	uint32_t c = ~0u;
	unsigned int i, k;

	if (!tab[1]) {
		for (i = 0; i < 256; i++) {
			uint32_t v = i;

			for (k = 0; k < 8; k++)
				v = v & 1 ? 0xedb88320u ^ (v >> 1) : v >> 1;
			tab[i] = v;
		}
	}
	for (i = 0; i < n; i++)
		c = tab[(c ^ p[i]) & 0xff] ^ (c >> 8);
	return ~c;
}

static NOINLINE uint16_t crc16_bits(const uint8_t *p, unsigned int n)
{
	uint16_t c = 0xffff;
	unsigned int i, k;

	for (i = 0; i < n; i++) {
		c ^= (uint16_t)(p[i] << 8);
		for (k = 0; k < 8; k++)
			c = c & 0x8000 ? (uint16_t)((c << 1) ^ 0x1021) :
					 (uint16_t)(c << 1);
	}
	return c;
}

static NOINLINE uint32_t adler32(const uint8_t *p, unsigned int n)
{
	uint32_t a = 1, b = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		a = (a + p[i]) % 65521;
		b = (b + a) % 65521;
	}
	return b << 16 | a;
}

static uint32_t checksums(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rnd();
	return crc32_table(buf, sizeof(buf)) ^
	       (uint32_t)crc16_bits(buf, 512) << 3 ^ adler32(buf, 1024);
}

/* ---- a hash table ----------------------------------------------------------- */

#define HSIZE 1024
static uint32_t hkeys[HSIZE], hvals[HSIZE];

static NOINLINE void ht_put(uint32_t k, uint32_t v)
{
	uint32_t h = (k * 2654435761u) >> 22;

	while (hkeys[h] && hkeys[h] != k)
		h = (h + 1) & (HSIZE - 1);
	hkeys[h] = k;
	hvals[h] = v;
}

static NOINLINE uint32_t ht_get(uint32_t k)
{
	uint32_t h = (k * 2654435761u) >> 22;

	while (hkeys[h]) {
		if (hkeys[h] == k)
			return hvals[h];
		h = (h + 1) & (HSIZE - 1);
	}
	return 0;
}

static uint32_t hashing(void)
{
	uint32_t s = 0, i;

	memset(hkeys, 0, sizeof(hkeys));
	for (i = 1; i <= 600; i++)
		ht_put(i * 7919, i);
	for (i = 1; i <= 1200; i++)
		s += ht_get(i * 7919 / 2 + 1) + ht_get(i * 7919);
	return s;
}

/* ---- sorting ----------------------------------------------------------------- */

static int32_t arr[600];

static NOINLINE void heap_sift(int32_t *a, unsigned int i, unsigned int n)
{
	for (;;) {
		unsigned int m = i, l = 2 * i + 1, r = l + 1;
		int32_t t;

		if (l < n && a[l] > a[m])
			m = l;
		if (r < n && a[r] > a[m])
			m = r;
		if (m == i)
			return;
		t = a[i];
		a[i] = a[m];
		a[m] = t;
		i = m;
	}
}

static NOINLINE void heap_sort(int32_t *a, unsigned int n)
{
	unsigned int i;

	for (i = n / 2; i--;)
		heap_sift(a, i, n);
	for (i = n; --i;) {
		int32_t t = a[0];

		a[0] = a[i];
		a[i] = t;
		heap_sift(a, 0, i);
	}
}

static NOINLINE void shell_sort(int32_t *a, unsigned int n)
{
	static const unsigned int gaps[] = { 301, 132, 57, 23, 10, 4, 1 };
	unsigned int g, i, j;

	for (g = 0; g < 7; g++) {
		for (i = gaps[g]; i < n; i++) {
			int32_t t = a[i];

			for (j = i; j >= gaps[g] && a[j - gaps[g]] > t;
			     j -= gaps[g])
				a[j] = a[j - gaps[g]];
			a[j] = t;
		}
	}
}

static uint32_t sorting(void)
{
	uint32_t s = 0;
	unsigned int i;

	for (i = 0; i < 600; i++)
		arr[i] = (int32_t)(rnd() % 100000);
	heap_sort(arr, 600);
	for (i = 0; i < 600; i += 37)
		s = s * 3 + (uint32_t)arr[i];
	for (i = 0; i < 600; i++)
		arr[i] = (int32_t)(rnd() % 1000) - 500;
	shell_sort(arr, 600);
	return s + (uint32_t)arr[0] + (uint32_t)arr[599];
}

/* ---- strings and base64 -------------------------------------------------------- */

static NOINLINE unsigned int b64_encode(char *out, const uint8_t *in,
					unsigned int n)
{
	static const char a[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned int i, o = 0;

	for (i = 0; i + 2 < n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16 | in[i + 1] << 8 | in[i + 2];

		out[o++] = a[v >> 18];
		out[o++] = a[v >> 12 & 63];
		out[o++] = a[v >> 6 & 63];
		out[o++] = a[v & 63];
	}
	out[o] = 0;
	return o;
}

static NOINLINE unsigned int str_count(const char *s, char c)
{
	unsigned int n = 0;

	for (; *s; s++)
		n += *s == c;
	return n;
}

static uint32_t strings(void)
{
	static char out[1400];
	unsigned int n = b64_encode(out, buf, 999);

	return n + str_count(out, 'A') * 5 + (uint32_t)strlen(text);
}

/* ---- a bytecode interpreter ------------------------------------------------------ */

enum { OP_PUSH, OP_ADD, OP_SUB, OP_MUL, OP_DUP, OP_SWAP, OP_JNZ, OP_DEC,
       OP_HALT };

static NOINLINE int32_t vm_run(const uint8_t *code)
{
	int32_t st[16];
	unsigned int sp = 0, pc = 0, steps = 0;

	while (steps++ < 20000) {
		switch (code[pc++]) {
		case OP_PUSH:
			st[sp++] = (int8_t)code[pc++];
			break;
		case OP_ADD:
			sp--;
			st[sp - 1] += st[sp];
			break;
		case OP_SUB:
			sp--;
			st[sp - 1] -= st[sp];
			break;
		case OP_MUL:
			sp--;
			st[sp - 1] *= st[sp];
			break;
		case OP_DUP:
			st[sp] = st[sp - 1];
			sp++;
			break;
		case OP_SWAP: {
			int32_t t = st[sp - 1];

			st[sp - 1] = st[sp - 2];
			st[sp - 2] = t;
			break;
		}
		case OP_DEC:
			st[sp - 1]--;
			break;
		case OP_JNZ:
			if (st[sp - 1])
				pc = code[pc];
			else
				pc++;
			break;
		default:
			return sp ? st[sp - 1] : 0;
		}
	}
	return -1;
}

static uint32_t bytecode(void)
{
	/* acc = 0; for (n = 200; n; n--) acc += n * 3 */
	static const uint8_t prog[] = {
		OP_PUSH, 0, OP_PUSH, 100, OP_PUSH, 2, OP_MUL,
		/* loop at 7: acc n */
		OP_DUP, OP_PUSH, 3, OP_MUL, OP_SWAP, OP_DEC, OP_SWAP,
		/* acc n 3n -> swap dec swap: acc 3n n-1 ... keep it simple */
		OP_ADD, OP_SWAP, OP_JNZ, 7, OP_HALT,
	};

	return (uint32_t)vm_run(prog);
}

int main(void)
{
	uint32_t sum = 0;
	unsigned int round;

	for (round = 0; round < 10; round++) {
		sum = sum * 3 + lists();
		sum = sum * 3 + matrices();
		sum = sum * 3 + parsing();
		sum = sum * 3 + checksums();
		sum = sum * 3 + hashing();
		sum = sum * 3 + sorting();
		sum = sum * 3 + strings();
		sum = sum * 3 + bytecode();
	}
	printf("workload %08lx\n", (unsigned long)sum);
	return 0;
}
