// SPDX-License-Identifier: GPL-2.0
/*
 * test_hu_text.c - the histogram unit's text program format
 * (tools/vpmu/vpmu_hu_text.c): what each spelling parses to, the
 * canonical form the printer gives, every error with its message, and the
 * round trip parse(print(p)) == p over many generated programs, each also
 * accepted by the engine (vpmu_engine_hu_set()); and the program as the
 * uapi struct VPMU_IOC_HU_PROGRAM takes (drivers/perf/vpmu/vpmu_hu_uapi.c):
 * the round trip from_uapi(to_uapi(p)) == p over the same programs, and
 * every struct the module must refuse, with its message.
 */
#include <stdio.h>

#include "tap.h"
#include "vpmu_engine.h"
#include "vpmu_hu_text.h"

#define EV(e, per)	{ .kind = VPMU_HU_EVENT, .event = (e), .period = (per) }
#define WQ(l, h, per)	{ .kind = VPMU_HU_WQ, .lo = (l), .hi = (h), .period = (per) }
#define UPC(l, h, per)	{ .kind = VPMU_HU_UPC, .lo = (l), .hi = (h), .period = (per) }
#define MEM(k, l, h, per) { .kind = VPMU_HU_##k, .lo = (l), .hi = (h), .period = (per) }

struct good {
	const char *text;
	struct vpmu_hu_prog prog;
	const char *canon;	/* the printer's text */
};

static const struct good good[] = {
	{ "seq\nvpmu_uops 1000\nwq=0 500\nupc=0x40-0x5f 500\n",
	  { VPMU_HU_SEQ, 3, { EV(VPMU_EV_UOPS, 1000), WQ(0, 0, 500),
			      UPC(0x40, 0x5f, 500) } },
	  "seq\nvpmu_uops 1000\nwq=0 500\nupc=0x40-0x5f 500\n" },
	{ "par vpmu_cycles 10; event=0x9 0x10 ;tag=3 7",
	  { VPMU_HU_PAR, 3, { EV(VPMU_EV_CYCLES, 10), EV(VPMU_EV_STORES, 16),
			      EV(VPMU_EV_TAG(3), 7) } },
	  "par\nvpmu_cycles 10\nvpmu_stores 16\ntag=3 7\n" },
	{ "  # a comment\n\n  par # the mode\n\tvpmu_tag255\t4294967295 # max\r\n;;\n",
	  { VPMU_HU_PAR, 1, { EV(VPMU_EV_TAG(255), 4294967295u) } },
	  "par\ntag=255 4294967295\n" },
	{ "seq;wq=3-32 1;upc=0-0xfff 2;upc=0XABC-0xAbc 3;event=0 4",
	  { VPMU_HU_SEQ, 4, { WQ(3, 32, 1), UPC(0, 0xfff, 2),
			      UPC(0xabc, 0xabc, 3), EV(0, 4) } },
	  "seq\nwq=3-32 1\nupc=0x0-0xfff 2\nupc=0xabc 3\nvpmu_cycles 4\n" },
	{ "seq\nvpmu_wq_stall 0001\n",
	  { VPMU_HU_SEQ, 1, { EV(VPMU_EV_WQ_STALL, 1) } },
	  "seq\nvpmu_wq_stall 1\n" },
	/* the periods of seq add up to exactly U32_MAX */
	{ "seq;vpmu_uops 4294967294;vpmu_insns 1",
	  { VPMU_HU_SEQ, 2, { EV(VPMU_EV_UOPS, 4294967294u),
			      EV(VPMU_EV_INSNS, 1) } },
	  "seq\nvpmu_uops 4294967294\nvpmu_insns 1\n" },
	/* address ranges: HI excluded; one address; the whole space */
	{ "par\nload=0x100-0x140 10\nhit=64 10\nmiss=0-0x100000000 10\n"
	  "store=0x10-0x11 10\naccess=0xfffffffe-0x100000000 10\n",
	  { VPMU_HU_PAR, 5, { MEM(LOAD, 0x100, 0x13f, 10), MEM(HIT, 64, 64, 10),
			      MEM(MISS, 0, 0xffffffffu, 10),
			      MEM(STORE, 0x10, 0x10, 10),
			      MEM(ACCESS, 0xfffffffeu, 0xffffffffu, 10) } },
	  "par\nload=0x100-0x140 10\nhit=0x40 10\nmiss=0x0-0x100000000 10\n"
	  "store=0x10 10\naccess=0xfffffffe-0x100000000 10\n" },
	{ "seq once\naccess=0xffffffff 5;vpmu_uops 7",
	  { VPMU_HU_SEQ, 2, { MEM(ACCESS, 0xffffffffu, 0xffffffffu, 5),
			      EV(VPMU_EV_UOPS, 7) }, 1 },
	  "seq once\naccess=0xffffffff 5\nvpmu_uops 7\n" },
	{ "par once vpmu_cycles 3", { VPMU_HU_PAR, 1, { EV(VPMU_EV_CYCLES, 3) }, 1 },
	  "par once\nvpmu_cycles 3\n" },
	{ "off", { 0 }, "off\n" },
	{ "  off ;\n# nothing\n", { 0 }, "off\n" },
	{ "", { 0 }, "off\n" },
	{ "\n \n# only a comment", { 0 }, "off\n" },
};

struct bad {
	const char *text;
	const char *msg;	/* the whole error message */
};

static const struct bad bad[] = {
	{ "sequential\nvpmu_uops 1", "expected 'seq', 'par' or 'off' first, not 'sequential'" },
	{ "vpmu_uops 100", "expected 'seq', 'par' or 'off' first, not 'vpmu_uops'" },
	{ "off vpmu_uops", "'off' takes nothing after it, not 'vpmu_uops'" },
	{ "seq", "no entries after 'seq'" },
	{ "par\n\n;# none\n", "no entries after 'par'" },
	{ "seq\nvpmu_uops", "entry 1: expected PREDICATE PERIOD, got 1 word" },
	{ "seq\nvpmu_uops 1 2", "entry 1: expected PREDICATE PERIOD, got 3 words" },
	{ "seq\nvpmu_uops 1\nvpmu_bogus 5", "entry 2: unknown predicate 'vpmu_bogus' (event=N, tag=K, an event name, wq=, upc=, load=, hit=, miss=, store= or access=)" },
	{ "seq;vpmu_uops 0", "entry 1: period '0' not in 1..4294967295 cycles" },
	{ "seq;vpmu_uops 4294967296", "entry 1: period '4294967296' not in 1..4294967295 cycles" },
	{ "seq;vpmu_uops -1", "entry 1: period '-1' not in 1..4294967295 cycles" },
	{ "seq;vpmu_uops 1k", "entry 1: period '1k' not in 1..4294967295 cycles" },
	{ "seq;vpmu_uops 0x", "entry 1: period '0x' not in 1..4294967295 cycles" },
	{ "seq;event=10 5", "entry 1: event=10: not a basic event (0..9; tags are tag=K)" },
	{ "seq;event=0x101 5", "entry 1: event=0x101: not a basic event (0..9; tags are tag=K)" },
	{ "seq;event= 5", "entry 1: event=: not a basic event (0..9; tags are tag=K)" },
	{ "seq;tag=0 5", "entry 1: tag=0: tag not in 1..255" },
	{ "seq;tag=256 5", "entry 1: tag=256: tag not in 1..255" },
	{ "seq;vpmu_tag0 5", "entry 1: vpmu_tag0: tag not in 1..255" },
	{ "seq;vpmu_tagx 5", "entry 1: vpmu_tagx: tag not in 1..255" },
	{ "seq;wq=3-2 5", "entry 1: wq=3-2: LO above HI" },
	{ "seq;wq=33 5", "entry 1: wq=33: occupancy beyond 32" },
	{ "seq;wq= 5", "entry 1: wq=: expected a number or LO-HI" },
	{ "seq;wq=1- 5", "entry 1: wq=1-: expected a number or LO-HI" },
	{ "seq;wq=1-2-3 5", "entry 1: wq=1-2-3: expected a number or LO-HI" },
	{ "seq;upc=0x1000 5", "entry 1: upc=0x1000: micro-address beyond 4095" },
	{ "seq;upc=0x20-0x10 5", "entry 1: upc=0x20-0x10: LO above HI" },
	{ "seq;upc=123456789012345678901234567890 5", "entry 1: upc=12345678901234567890...: expected a number or LO-HI" },
	{ "seq;vpmu_uops 4294967295;vpmu_insns 1",
	  "seq: the periods add up to 4294967296 cycles, over 4294967295" },
	{ "seq;load=0x140-0x100 5", "entry 1: load=0x140-0x100: LO not below HI (HI is excluded)" },
	{ "seq;hit=0x100-0x100 5", "entry 1: hit=0x100-0x100: LO not below HI (HI is excluded)" },
	{ "seq;miss=0-0x100000001 5", "entry 1: miss=0-0x100000001: address beyond 0x100000000" },
	{ "seq;store=0x100000000 5", "entry 1: store=0x100000000: address beyond 0x100000000" },
	{ "seq;access=0x1ffffffffffffffff 5", "entry 1: access=0x1ffffffffffffff...: expected a number or LO-HI" },
	{ "seq;access=18446744073709551615 5", "entry 1: access=18446744073709551...: address beyond 0x100000000" },
	{ "seq;access=0x100000000-0x100000000 5", "entry 1: access=0x100000000-0x100...: address beyond 0x100000000" },
	{ "seq;load= 5", "entry 1: load=: expected a number or LO-HI" },
	{ "seq;load=0x10-0x20-0x30 5", "entry 1: load=0x10-0x20-0x30: expected a number or LO-HI" },
	{ "seq;loads=0x10 5", "entry 1: unknown predicate 'loads=0x10' (event=N, tag=K, an event name, wq=, upc=, load=, hit=, miss=, store= or access=)" },
	{ "seq once", "no entries after 'seq once'" },
	{ "par\nonce\nvpmu_uops 1", "entry 1: expected PREDICATE PERIOD, got 1 word" },
	{ "once par\nvpmu_uops 1", "expected 'seq', 'par' or 'off' first, not 'once'" },
	{ "par once once vpmu_uops 1", "entry 1: expected PREDICATE PERIOD, got 3 words" },
	{ "par\n1 vpmu_uops", "entry 1: unknown predicate '1' (event=N, tag=K, an event name, wq=, upc=, load=, hit=, miss=, store= or access=)" },
	{ "seq;vpmu_uops 1;vpmu_uops 1;vpmu_uops 1;vpmu_uops 1;vpmu_uops 1;"
	  "vpmu_uops 1;vpmu_uops 1;vpmu_uops 1;vpmu_uops 1;vpmu_uops 1;"
	  "vpmu_uops 1;vpmu_uops 1;vpmu_uops 1;vpmu_uops 1;vpmu_uops 1;"
	  "vpmu_uops 1;vpmu_uops 1", "entry 17: more than 16 entries" },
};

static u32 rnd_state = 12345;

static u32 rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 8;
}

/* A random valid program: every kind, boundary values now and then. */
static void gen(struct vpmu_hu_prog *p)
{
	unsigned int i;
	u32 a, b;

	memset(p, 0, sizeof(*p));
	p->mode = rnd() & 1 ? VPMU_HU_PAR : VPMU_HU_SEQ;
	p->once = rnd() % 3 == 0;
	p->n = 1 + rnd() % VPMU_HU_MAX;
	for (i = 0; i < p->n; i++) {
		struct vpmu_hu_entry *e = &p->ent[i];

		switch (rnd() % 5) {
		case 0:
			e->kind = VPMU_HU_EVENT;
			e->event = rnd() % VPMU_EV_NR_BASIC;
			break;
		case 1:
			e->kind = VPMU_HU_EVENT;
			e->event = VPMU_EV_TAG(1 + rnd() % VPMU_TAG_MAX);
			break;
		case 2:
			e->kind = VPMU_HU_WQ;
			a = rnd() % (VPMU_HU_WQ_MAX + 1);
			b = rnd() % (VPMU_HU_WQ_MAX + 1);
			e->lo = a < b ? a : b;
			e->hi = rnd() % 3 ? (a < b ? b : a) : e->lo;
			break;
		case 3:
			e->kind = VPMU_HU_LOAD + rnd() % 5;
			a = rnd() % 4 ? rnd() << 8 ^ rnd() : 0xffffffffu;
			b = rnd() % 4 ? rnd() << 8 ^ rnd() : 0;
			e->lo = a < b ? a : b;
			e->hi = rnd() % 3 ? (a < b ? b : a) : e->lo;
			break;
		default:
			e->kind = VPMU_HU_UPC;
			a = rnd() % VPMU_CS_MAX;
			b = rnd() % VPMU_CS_MAX;
			e->lo = a < b ? a : b;
			e->hi = rnd() % 3 ? (a < b ? b : a) : e->lo;
			break;
		}
		e->period = rnd() % 4 ? 1 + rnd() % 100000 :
			    p->mode == VPMU_HU_PAR ? 4294967295u : 1;
	}
}

/* A change to a good struct that makes it bad, and the message it gets. */
struct bad_uapi {
	const char *what;
	void (*spoil)(struct vpmu_hu_program *u);
	const char *msg;
};

static void u_flags(struct vpmu_hu_program *u) { u->flags |= 4; }
static void u_reserved(struct vpmu_hu_program *u) { u->reserved = 1; }
static void u_nr17(struct vpmu_hu_program *u) { u->nr = 17; }
static void u_off_flags(struct vpmu_hu_program *u)
{
	memset(u->rule, 0, sizeof(u->rule));
	u->nr = 0;
}
static void u_beyond(struct vpmu_hu_program *u) { u->rule[15].period = 1; }
static void u_rule_reserved(struct vpmu_hu_program *u) { u->rule[1].reserved = 1; }
static void u_period0(struct vpmu_hu_program *u) { u->rule[0].period = 0; }
static void u_kind8(struct vpmu_hu_program *u) { u->rule[1].kind = 8; }
static void u_event10(struct vpmu_hu_program *u) { u->rule[0].event = 10; }
static void u_tag0(struct vpmu_hu_program *u) { u->rule[0].event = 0x100; }
static void u_bucket(struct vpmu_hu_program *u) { u->rule[0].event = 0x201; }
static void u_event_range(struct vpmu_hu_program *u) { u->rule[0].hi = 1; }
static void u_wq_event(struct vpmu_hu_program *u) { u->rule[1].event = 1; }
static void u_wq_hi(struct vpmu_hu_program *u) { u->rule[1].hi = VPMU_HU_WQ_MAX + 1; }
static void u_upc_hi(struct vpmu_hu_program *u) { u->rule[2].hi = VPMU_CS_MAX; }
static void u_lo_hi(struct vpmu_hu_program *u) { u->rule[2].lo = 0x60; }
static void u_total(struct vpmu_hu_program *u)
{
	u->rule[0].period = 0xffffffffu;
}

/* Each against good[0]'s struct: seq, vpmu_uops, wq=0, upc=0x40-0x5f. */
static const struct bad_uapi bad_uapi[] = {
	{ "unknown flag", u_flags, "flags 0x4 or reserved 0: unknown bits" },
	{ "reserved", u_reserved, "flags 0 or reserved 0x1: unknown bits" },
	{ "17 rules", u_nr17,
	  "17 rules with flags 0: 1..16, or 0 (off) without flags" },
	{ "a rule beyond nr", u_beyond, "a rule beyond the 3 given is not 0" },
	{ "a rule's reserved", u_rule_reserved, "entry 2: reserved field not 0" },
	{ "period 0", u_period0, "entry 1: period 0" },
	{ "kind 8", u_kind8, "entry 2: kind 8: not a kind of rule" },
	{ "event 10", u_event10,
	  "entry 1: event 0xa: not a basic event or tag=1..255, or a range with it" },
	{ "tag 0", u_tag0,
	  "entry 1: event 0x100: not a basic event or tag=1..255, or a range with it" },
	{ "a bucket", u_bucket,
	  "entry 1: event 0x201: not a basic event or tag=1..255, or a range with it" },
	{ "an event with a range", u_event_range,
	  "entry 1: event 0x1: not a basic event or tag=1..255, or a range with it" },
	{ "a range with an event", u_wq_event,
	  "entry 2: wq=0-0: an event with it, LO above HI, or occupancy beyond 32" },
	{ "wq beyond 32", u_wq_hi,
	  "entry 2: wq=0-33: an event with it, LO above HI, or occupancy beyond 32" },
	{ "upc beyond", u_upc_hi,
	  "entry 3: upc=64-4096: an event with it, LO above HI, or micro-address beyond 4095" },
	{ "LO above HI", u_lo_hi,
	  "entry 3: upc=96-95: an event with it, LO above HI, or micro-address beyond 4095" },
	{ "seq periods over 2^32", u_total,
	  "seq: the periods add up to 4294968295 cycles, over 4294967295" },
};

/*
 * The uapi struct: good[0] and off through to_uapi and back; each of
 * bad_uapi refused with its message; flags on an empty program refused.
 */
static void test_uapi(void)
{
	unsigned int i, n = sizeof(bad_uapi) / sizeof(bad_uapi[0]);
	char err[VPMU_HU_ERR_MAX];
	struct vpmu_hu_program u, base;
	struct vpmu_hu_prog p;
	int ret;

	vpmu_hu_to_uapi(&good[0].prog, &base);
	ret = vpmu_hu_from_uapi(&base, &p, err);
	tap_ok(!ret && base.size == VPMU_HU_PROGRAM_SIZE_VER0 &&
	       base.nr == 3 && !base.flags &&
	       !memcmp(&p, &good[0].prog, sizeof(p)),
	       "uapi: good 1 there and back");
	vpmu_hu_to_uapi(NULL, &u);
	ret = vpmu_hu_from_uapi(&u, &p, err);
	tap_ok(!ret && !u.nr && !p.n, "uapi: off there and back");
	u.flags = VPMU_HU_F_PAR;
	ret = vpmu_hu_from_uapi(&u, &p, err);
	tap_ok(ret == -EINVAL &&
	       !strcmp(err, "0 rules with flags 0x1: 1..16, or 0 (off) without flags"),
	       "uapi: off with a flag");
	for (i = 0; i < n; i++) {
		u = base;
		bad_uapi[i].spoil(&u);
		ret = vpmu_hu_from_uapi(&u, &p, err);
		if (ret != -EINVAL || strcmp(err, bad_uapi[i].msg))
			tap_diag("got %d '%s', want '%s'", ret, err,
				 bad_uapi[i].msg);
		tap_ok(ret == -EINVAL && !strcmp(err, bad_uapi[i].msg),
		       "uapi: %s", bad_uapi[i].what);
	}
	u = base;
	u_off_flags(&u);
	tap_ok(!vpmu_hu_from_uapi(&u, &p, NULL) && !p.n,
	       "uapi: nr 0, no error buffer: off");
}

int main(void)
{
	unsigned int ngood = sizeof(good) / sizeof(good[0]);
	unsigned int nbad = sizeof(bad) / sizeof(bad[0]);
	char err[VPMU_HU_ERR_MAX], text[VPMU_HU_TEXT_MAX];
	struct vpmu_hu_prog p, q;
	struct vpmu_engine *e;
	unsigned int nbadu = sizeof(bad_uapi) / sizeof(bad_uapi[0]);
	unsigned int i, rt_ok = 0, eng_ok = 0, uapi_ok = 0, N = 2000;
	struct vpmu_hu_program u;
	int ret, len;

	tap_plan(3 * ngood + nbad + 6 + 5 + nbadu);

	for (i = 0; i < ngood; i++) {
		ret = vpmu_hu_parse(good[i].text, strlen(good[i].text), &p, err);
		if (ret)
			tap_diag("error: %s", err);
		tap_ok(!ret && !memcmp(&p, &good[i].prog, sizeof(p)),
		       "parse good %u", i + 1);
		len = vpmu_hu_print(&p, text, sizeof(text));
		if (strcmp(text, good[i].canon))
			tap_diag("printed '%s'", text);
		tap_ok(len == (int)strlen(text) && !strcmp(text, good[i].canon),
		       "print good %u", i + 1);
		ret = vpmu_hu_parse(text, len, &q, err);
		tap_ok(!ret && !memcmp(&p, &q, sizeof(p)),
		       "parse(print()) of good %u", i + 1);
	}

	for (i = 0; i < nbad; i++) {
		ret = vpmu_hu_parse(bad[i].text, strlen(bad[i].text), &p, err);
		if (ret != -EINVAL || strcmp(err, bad[i].msg))
			tap_diag("got %d '%s', want '%s'", ret, err, bad[i].msg);
		tap_ok(ret == -EINVAL && !strcmp(err, bad[i].msg), "bad %u",
		       i + 1);
	}

	/* A NUL ends the text; @len bounds it. */
	ret = vpmu_hu_parse("seq;vpmu_uops 1\0garbage", 24, &p, err);
	tap_ok(!ret && p.n == 1, "a NUL ends the text");
	ret = vpmu_hu_parse("seq;vpmu_uops 12345", 15, &p, err);
	tap_ok(!ret && p.n == 1 && p.ent[0].period == 1,
	       "the length bounds the text");
	/* No error buffer: still -EINVAL. */
	tap_ok(vpmu_hu_parse("seq", 3, &p, NULL) == -EINVAL,
	       "no error buffer");
	/* Truncated output: the whole length, a NUL-terminated prefix. */
	vpmu_hu_parse(good[0].text, strlen(good[0].text), &p, err);
	len = vpmu_hu_print(&p, text, 10);
	tap_ok(len == (int)strlen(good[0].canon) && strlen(text) == 9 &&
	       !strncmp(text, good[0].canon, 9), "print into a short buffer");

	e = vpmu_engine_create(64);
	for (i = 0; i < N; i++) {
		char again[VPMU_HU_TEXT_MAX];

		gen(&p);
		len = vpmu_hu_print(&p, text, sizeof(text));
		if (len >= (int)sizeof(text))
			break;
		if (vpmu_hu_parse(text, len, &q, err) ||
		    memcmp(&p, &q, sizeof(p))) {
			tap_diag("round trip failed: %s\n%s", err, text);
			break;
		}
		vpmu_hu_print(&q, again, sizeof(again));
		if (strcmp(text, again))
			break;
		rt_ok++;
		vpmu_hu_to_uapi(&p, &u);
		if (!vpmu_hu_from_uapi(&u, &q, err) && !memcmp(&p, &q, sizeof(p)))
			uapi_ok++;
		else
			tap_diag("uapi round trip failed: %s\n%s", err, text);
		if (e && !vpmu_engine_hu_set(e, &q))
			eng_ok++;
		else
			tap_diag("engine refused:\n%s", text);
	}
	tap_ok(rt_ok == N, "round trip of %u generated programs", N);
	tap_ok(e && eng_ok == N, "the engine accepts all %u", N);
	tap_ok(uapi_ok == N, "uapi round trip of the %u", N);
	vpmu_engine_destroy(e);
	test_uapi();
	return tap_done();
}
