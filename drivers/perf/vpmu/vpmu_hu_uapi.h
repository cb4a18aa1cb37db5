/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_hu_uapi.h - the histogram unit's program as the uapi header's
 * struct vpmu_hu_program: the checks VPMU_IOC_HU_PROGRAM makes of it and
 * the conversions to and from the engine's struct vpmu_hu_prog.
 *
 * Built into the module and into the user-space tools, which compile a
 * program's text into the struct (reading the same table of range rules
 * and reporting errors in the same words).
 * Portable C like the engine core: no perf, no sysfs, no allocation.
 */
#ifndef _VPMU_HU_UAPI_H
#define _VPMU_HU_UAPI_H

#include "vpmu_engine.h"

/* The largest write-queue occupancy (the deepest queue an image may have). */
#define VPMU_HU_WQ_MAX		32
/* Room for any error message, NUL included. */
#define VPMU_HU_ERR_MAX		160

/* How a range rule's text spells its range. */
enum vpmu_hu_style {
	VPMU_HU_INCL,	/* LO[-HI], both included, decimal */
	VPMU_HU_UPCS,	/* the same, printed in hexadecimal */
	VPMU_HU_ADDR,	/* LO-HI, HI excluded, or one address; hexadecimal */
};

/**
 * struct vpmu_hu_range_rule - a kind of rule that counts over a range
 * @key:	its text's predicate, "wq=" and so on
 * @kind:	enum vpmu_hu_kind
 * @style:	enum vpmu_hu_style
 * @max:	the largest HI (for VPMU_HU_ADDR, the first address beyond)
 * @what:	what the range is of, for messages ("beyond")
 */
struct vpmu_hu_range_rule {
	const char	*key;
	u8		kind;
	u8		style;
	u64		max;
	const char	*what;
};

/* The range rules, one row each, ended by a row whose @key is NULL. */
extern const struct vpmu_hu_range_rule vpmu_hu_range_rules[];

/* The row of vpmu_hu_range_rules[] for @kind, or NULL. */
const struct vpmu_hu_range_rule *vpmu_hu_range_rule(unsigned int kind);

/*
 * Write an error message into @err (VPMU_HU_ERR_MAX bytes; NULL: none),
 * "entry N: " first if @entry (1-based) is not 0.  Returns -EINVAL.
 */
__printf(3, 4)
int vpmu_hu_fail(char *err, unsigned int entry, const char *fmt, ...);
__printf(3, 0)
int vpmu_hu_vfail(char *err, unsigned int entry, const char *fmt, va_list ap);

/*
 * A sequential program's periods must add up to a monitoring period of
 * 32 bits (the engine's limit): 0 or -EINVAL with @err.
 */
int vpmu_hu_check_total(const struct vpmu_hu_prog *p, char *err);

/*
 * @u into @p (zeroed first; p->n == 0 means "off"): unknown flags,
 * reserved fields, rules beyond nr that are not zero, and a rule the
 * engine cannot take are -EINVAL, with @err (VPMU_HU_ERR_MAX bytes, may
 * be NULL) saying which rule and why.  u->size is the caller's to check.
 * A program it accepts is one vpmu_engine_hu_set() accepts.
 */
int vpmu_hu_from_uapi(const struct vpmu_hu_program *u, struct vpmu_hu_prog *p,
		      char *err);

/* @p (NULL or n == 0: off) as the uapi struct, its size set. */
void vpmu_hu_to_uapi(const struct vpmu_hu_prog *p, struct vpmu_hu_program *u);

#endif /* _VPMU_HU_UAPI_H */
