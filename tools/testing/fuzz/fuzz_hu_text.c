// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_hu_text.c - libFuzzer target for the histogram unit's program text
 * (tools/vpmu/vpmu_hu_text.c, the parser and printer behind vpmu-hist
 * --set-program, --get-program and --program and vpmu-sim --hu, on the
 * range rules of drivers/perf/vpmu/vpmu_hu_uapi.c).
 *
 * The whole input is the text.  Beyond not crashing (the text and the
 * error buffer are heap blocks of their exact size, so ASan sees any
 * overrun), it must hold that:
 *
 *   - a rejected text returns -EINVAL with a non-empty, NUL-terminated
 *     message in the VPMU_HU_ERR_MAX bytes;
 *   - an accepted program prints (return value == strlen, under
 *     VPMU_HU_TEXT_MAX) to a canonical text that parses back to the same
 *     program, field by field and by memcmp, and prints to the same text;
 *     printed into any shorter buffer it returns the same length and gives
 *     a NUL-terminated prefix, like snprintf();
 *   - it keeps within the grammar's limits (in_grammar());
 *   - the engine accepts it: vpmu_engine_hu_set() on one engine (created
 *     once, with a small image attached) returns 0 (NULL for "off"), and
 *     its buckets then read zero, even after the previous program ran;
 *   - a NUL ends the text: the bytes before the first NUL parse the same.
 *
 * Any violation prints the input's text and abort()s.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vpmu_test_image.h"
#include "vpmu_hu_text.h"

#define MEMSZ	256

static struct vpmu_engine *engine;
static struct vpmu_ucode *ucode;
static uint8_t mem[MEMSZ];

static void fail(const char *what, const uint8_t *data, size_t size,
		 const char *extra)
{
	fprintf(stderr, "fuzz_hu_text: %s\n--- input (%zu bytes) ---\n%.*s\n",
		what, size, (int)size, (const char *)data);
	if (extra)
		fprintf(stderr, "--- detail ---\n%s\n", extra);
	abort();
}

/*
 * One engine for the whole run: a three-word loop that counts tag 1,
 * stores (so WQ entries see occupancy) and marks a trigger.
 */
static void engine_init(void)
{
	static uint8_t img[4096];
	struct vpmu_verr err;
	struct tb_image *t;
	size_t n;

	if (engine)
		return;
	t = tb_new();
	t->cs[0] = UW(ADD, T(0), T(0), IM, 1) | Q(NEXT, 0, 0) | UEV(1);
	t->cs[1] = UW(SW, 0, T(1), T(0), 0) | Q(NEXT, 0, 0) | UT;
	t->cs[2] = NOPW | Q(JUMP, 0, 0);
	t->ncs = 3;
	n = tb_build(t, img, sizeof(img));
	free(t);
	if (!n || vpmu_ucode_load(&ucode, img, n, VPMU_CS_MAX, &err)) {
		fprintf(stderr, "fuzz_hu_text: test image rejected: %s\n",
			n ? err.msg : "too big");
		abort();
	}
	engine = vpmu_engine_create(vpmu_ucode_header(ucode)->cs_words);
	if (!engine || vpmu_engine_attach(engine, ucode)) {
		fprintf(stderr, "fuzz_hu_text: cannot set up the engine\n");
		abort();
	}
	vpmu_engine_start(engine, mem, MEMSZ, 0, 0);
}

static bool same_prog(const struct vpmu_hu_prog *a,
		      const struct vpmu_hu_prog *b)
{
	unsigned int i;

	if (a->mode != b->mode || a->n != b->n || a->once != b->once)
		return false;
	for (i = 0; i < VPMU_HU_MAX; i++) {
		const struct vpmu_hu_entry *x = &a->ent[i], *y = &b->ent[i];

		if (x->kind != y->kind || x->event != y->event ||
		    x->lo != y->lo || x->hi != y->hi || x->period != y->period)
			return false;
	}
	/* both were zeroed by the parser before it filled them */
	return !memcmp(a, b, sizeof(*a));
}

/*
 * The grammar's own limits (vpmu_hu_text.h), tighter than the engine's:
 * a basic event or tag 1..VPMU_TAG_MAX, occupancy up to VPMU_HU_WQ_MAX,
 * micro-addresses below VPMU_CS_MAX, lo <= hi (data addresses: any 32-bit
 * pair), once 0 or 1, periods of 1 cycle or more; the fields an entry's
 * kind does not use stay zero.
 */
static bool in_grammar(const struct vpmu_hu_prog *p)
{
	unsigned int i;

	if (p->n > VPMU_HU_MAX || p->once > 1 ||
	    (!p->n && (p->mode != VPMU_HU_SEQ || p->once)))
		return false;
	for (i = 0; i < p->n; i++) {
		const struct vpmu_hu_entry *e = &p->ent[i];

		if (!e->period)
			return false;
		switch (e->kind) {
		case VPMU_HU_EVENT:
			if (e->lo || e->hi ||
			    (e->event >= VPMU_EV_NR_BASIC &&
			     (e->event <= VPMU_EV_TAG_BASE ||
			      e->event > VPMU_EV_TAG(VPMU_TAG_MAX))))
				return false;
			break;
		case VPMU_HU_WQ:
		case VPMU_HU_UPC:
			if (e->event || e->lo > e->hi ||
			    e->hi > (e->kind == VPMU_HU_WQ ? VPMU_HU_WQ_MAX :
							   VPMU_CS_MAX - 1))
				return false;
			break;
		default:
			/* an address range: any 32-bit lo <= hi */
			if (!vpmu_hu_is_mem(e->kind) || e->event || e->lo > e->hi)
				return false;
			break;
		}
	}
	return true;
}

/* Parse @len bytes; the error buffer is exactly VPMU_HU_ERR_MAX bytes. */
static int parse(const uint8_t *data, size_t size, size_t len,
		 struct vpmu_hu_prog *p, char *msg)
{
	char *err = malloc(VPMU_HU_ERR_MAX);
	char *text = malloc(len ? len : 1);
	int ret;

	memcpy(text, data, len);
	memset(err, 0xa5, VPMU_HU_ERR_MAX);
	ret = vpmu_hu_parse(text, len, p, err);
	if (ret && ret != -EINVAL)
		fail("vpmu_hu_parse() returned neither 0 nor -EINVAL", data,
		     size, NULL);
	if (!memchr(err, 0, VPMU_HU_ERR_MAX))
		fail("error buffer not NUL-terminated", data, size, NULL);
	if (ret && !err[0])
		fail("rejected with an empty message", data, size, NULL);
	if (!ret && err[0])
		fail("accepted with a message", data, size, err);
	strcpy(msg, err);
	free(text);
	free(err);
	return ret;
}

/* Print @p into an exact-size heap buffer of @size bytes. */
static int print(const struct vpmu_hu_prog *p, size_t size, char *out)
{
	char *buf = size ? malloc(size) : NULL;
	int len;

	len = vpmu_hu_print(p, buf, size);
	if (size)
		memcpy(out, buf, size);
	free(buf);
	return len;
}

static void check_print(const struct vpmu_hu_prog *p, const uint8_t *data,
			size_t size, char *canon)
{
	static char part[VPMU_HU_TEXT_MAX];
	int len = print(p, VPMU_HU_TEXT_MAX, canon);
	size_t cut;

	if (len <= 0 || len >= VPMU_HU_TEXT_MAX ||
	    strlen(canon) != (size_t)len || canon[len - 1] != '\n')
		fail("canonical text: bad length or no final newline", data,
		     size, canon);
	/* any shorter buffer: same length, a prefix, NUL-terminated */
	cut = size ? data[size - 1] % (len + 1) : 0;
	if (print(p, cut, part) != len ||
	    (cut && (strlen(part) != cut - 1 || memcmp(part, canon, cut - 1))))
		fail("truncated print differs from the canonical text", data,
		     size, canon);
}

static void check_engine(const struct vpmu_hu_prog *p, const uint8_t *data,
			 size_t size)
{
	u64 c[VPMU_HU_MAX];
	struct vpmu_stop s;
	unsigned int i;
	int ret;

	ret = vpmu_engine_hu_set(engine, p->n ? p : NULL);
	if (ret)
		fail("vpmu_engine_hu_set() rejects a parsed program", data,
		     size, NULL);
	vpmu_engine_hu_read(engine, c, VPMU_HU_MAX);
	for (i = 0; i < VPMU_HU_MAX; i++)
		if (c[i])
			fail("buckets not zero after vpmu_engine_hu_set()",
			     data, size, NULL);
	/* run the new program a little: the next input's set must zero it */
	if (vpmu_engine_run(engine, 1 + (size ? data[0] : 0), &s) !=
	    VPMU_STOP_BUDGET)
		vpmu_engine_start(engine, mem, MEMSZ, 0, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char msg[VPMU_HU_ERR_MAX], msg2[VPMU_HU_ERR_MAX];
	static char canon[VPMU_HU_TEXT_MAX], again[VPMU_HU_TEXT_MAX];
	struct vpmu_hu_prog p, q;
	const uint8_t *nul;
	int ret;

	engine_init();
	ret = parse(data, size, size, &p, msg);

	/* the bytes before a NUL are the whole text */
	nul = memchr(data, 0, size);
	if (nul) {
		if (parse(data, size, nul - data, &q, msg2) != ret ||
		    (ret ? strcmp(msg, msg2) : !same_prog(&p, &q)))
			fail("text cut at its NUL parses differently", data,
			     size, ret ? msg2 : NULL);
	}
	if (ret)
		return 0;

	if (!in_grammar(&p))
		fail("accepted a program outside the grammar's limits", data,
		     size, NULL);
	check_print(&p, data, size, canon);
	if (parse((const uint8_t *)canon, strlen(canon), strlen(canon), &q,
		  msg2))
		fail("canonical text rejected", data, size, msg2);
	if (!same_prog(&p, &q))
		fail("canonical text parses to another program", data, size,
		     canon);
	print(&q, VPMU_HU_TEXT_MAX, again);
	if (strcmp(canon, again))
		fail("canonical text prints differently", data, size, again);
	if (!p.n && strcmp(canon, "off\n"))
		fail("an empty program does not print as off", data, size,
		     canon);
	check_engine(&p, data, size);
	return 0;
}
