// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hu_uapi.c - the histogram unit's program as struct vpmu_hu_program:
 * checks and conversions (vpmu_hu_uapi.h).  Built into the module and into
 * the host tools.
 */
#include "vpmu_hu_uapi.h"

const struct vpmu_hu_range_rule vpmu_hu_range_rules[] = {
	{ "wq=", VPMU_HU_WQ, VPMU_HU_INCL, VPMU_HU_WQ_MAX, "occupancy" },
	{ "upc=", VPMU_HU_UPC, VPMU_HU_UPCS, VPMU_CS_MAX - 1, "micro-address" },
	{ "load=", VPMU_HU_LOAD, VPMU_HU_ADDR, 1ull << 32, "address" },
	{ "hit=", VPMU_HU_HIT, VPMU_HU_ADDR, 1ull << 32, "address" },
	{ "miss=", VPMU_HU_MISS, VPMU_HU_ADDR, 1ull << 32, "address" },
	{ "store=", VPMU_HU_STORE, VPMU_HU_ADDR, 1ull << 32, "address" },
	{ "access=", VPMU_HU_ACCESS, VPMU_HU_ADDR, 1ull << 32, "address" },
	{ }
};

const struct vpmu_hu_range_rule *vpmu_hu_range_rule(unsigned int kind)
{
	const struct vpmu_hu_range_rule *r;

	for (r = vpmu_hu_range_rules; r->key; r++)
		if (r->kind == kind)
			return r;
	return NULL;
}

int vpmu_hu_vfail(char *err, unsigned int entry, const char *fmt, va_list ap)
{
	int n = 0;

	if (!err)
		return -EINVAL;
	if (entry)
		n = snprintf(err, VPMU_HU_ERR_MAX, "entry %u: ", entry);
	vsnprintf(err + n, VPMU_HU_ERR_MAX - n, fmt, ap);
	return -EINVAL;
}

int vpmu_hu_fail(char *err, unsigned int entry, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vpmu_hu_vfail(err, entry, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

int vpmu_hu_check_total(const struct vpmu_hu_prog *p, char *err)
{
	u64 t = 0;
	unsigned int i;

	if (p->mode != VPMU_HU_SEQ)
		return 0;
	for (i = 0; i < p->n; i++)
		t += p->ent[i].period;
	if (t > ~0u)
		return vpmu_hu_fail(err, 0, "seq: the periods add up to %llu cycles, over %u",
				    (unsigned long long)t, ~0u);
	return 0;
}

/* Is @ev an event a rule can count: a basic event or tag 1..255? */
static bool vpmu_hu_event_ok(u32 ev)
{
	return ev < VPMU_EV_NR_BASIC ||
	       (ev > VPMU_EV_TAG_BASE && ev <= VPMU_EV_TAG(VPMU_TAG_MAX));
}

/* Rule @r (entry @entry) into @e. */
static int vpmu_hu_rule(const struct vpmu_hu_rule *r, unsigned int entry,
			struct vpmu_hu_entry *e, char *err)
{
	const struct vpmu_hu_range_rule *range;

	if (r->reserved)
		return vpmu_hu_fail(err, entry, "reserved field not 0");
	if (!r->period)
		return vpmu_hu_fail(err, entry, "period 0");
	e->kind = r->kind;
	e->period = r->period;
	if (r->kind == VPMU_HU_EVENT) {
		if (!vpmu_hu_event_ok(r->event) || r->lo || r->hi)
			return vpmu_hu_fail(err, entry,
					    "event %#x: not a basic event or tag=1..%u, or a range with it",
					    r->event, VPMU_TAG_MAX);
		e->event = r->event;
		return 0;
	}
	range = vpmu_hu_range_rule(r->kind);
	if (!range)
		return vpmu_hu_fail(err, entry, "kind %u: not a kind of rule",
				    r->kind);
	/* Both ends included; an address range's max, 2^32, bounds no u32. */
	if (r->event || r->lo > r->hi || r->hi > range->max)
		return vpmu_hu_fail(err, entry,
				    "%s%u-%u: an event with it, LO above HI, or %s beyond %llu",
				    range->key, r->lo, r->hi, range->what,
				    (unsigned long long)range->max);
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
	unsigned int i;
	int ret;

	memset(p, 0, sizeof(*p));
	if (err)
		err[0] = '\0';
	if (u->flags & ~VPMU_HU_F_ALL || u->reserved)
		return vpmu_hu_fail(err, 0, "flags %#x or reserved %#x: unknown bits",
				    u->flags, u->reserved);
	if (u->nr > VPMU_HU_MAX || (!u->nr && u->flags))
		return vpmu_hu_fail(err, 0,
				    "%u rules with flags %#x: 1..%u, or 0 (off) without flags",
				    u->nr, u->flags, VPMU_HU_MAX);
	if (!vpmu_hu_zero(u->rule + u->nr,
			  sizeof(u->rule[0]) * (VPMU_HU_MAX - u->nr)))
		return vpmu_hu_fail(err, 0, "a rule beyond the %u given is not 0",
				    u->nr);
	if (!u->nr)
		return 0;
	p->mode = u->flags & VPMU_HU_F_PAR ? VPMU_HU_PAR : VPMU_HU_SEQ;
	p->once = !!(u->flags & VPMU_HU_F_ONCE);
	for (i = 0; i < u->nr; i++) {
		ret = vpmu_hu_rule(&u->rule[i], i + 1, &p->ent[i], err);
		if (ret)
			return ret;
	}
	p->n = u->nr;
	return vpmu_hu_check_total(p, err);
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
