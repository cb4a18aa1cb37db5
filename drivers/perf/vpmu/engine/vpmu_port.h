/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_port.h - the little the engine core needs from its environment.
 *
 * The core (drivers/perf/vpmu/engine/) is built both into the module and
 * as plain host C for tests, benchmarks and fuzzing.  Everything
 * that differs between the two lives here: fixed-width types, memory
 * allocation, branch hints, formatted printing and the few compiler
 * attributes the core uses; this is the only place the core includes
 * kernel or C library headers.  No locking, no perf, no sysfs.
 */
#ifndef _VPMU_PORT_H
#define _VPMU_PORT_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#include <linux/stringify.h>
#include <linux/types.h>

/*
 * What one caller's operation allocates and keeps for that caller (a
 * stopped run's context, a run's memory, a freeze control) is charged to
 * the caller's memory cgroup and, over its limit, fails with -ENOMEM
 * instead of calling the OOM killer or warning: an unprivileged user
 * reaches all of these (Documentation/admin-guide/perf/vpmu.rst, "Limits").
 * What the module keeps for everyone (a CPU's engine) is not charged.
 */
#define VPMU_GFP_USER		(GFP_KERNEL_ACCOUNT | __GFP_RETRY_MAYFAIL | \
				 __GFP_NOWARN)

#define vpmu_zalloc(size)	kvzalloc(size, GFP_KERNEL)
#define vpmu_zalloc_user(size)	kvzalloc(size, VPMU_GFP_USER)
#define vpmu_free(ptr)		kvfree(ptr)

#else /* host */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define BIT(nr)			(1UL << (nr))
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define vpmu_zalloc(size)	calloc(1, size)
#define vpmu_zalloc_user(size)	calloc(1, size)
#define vpmu_free(ptr)		free(ptr)

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
/* The kernel's attribute macros, spelled for the host compiler. */
#define VPMU_HOST_ATTR(...)	__attribute__((__VA_ARGS__))
#ifndef __printf
#define __printf(a, b)	VPMU_HOST_ATTR(format(printf, a, b))
#endif
#ifndef __always_inline
#define __always_inline	inline VPMU_HOST_ATTR(__always_inline__)
#endif
#ifndef barrier
static inline void barrier(void)
{
	__asm__ __volatile__("" : : : "memory");
}
#endif
#ifndef BIT_ULL
#define BIT_ULL(nr)	(1ULL << (nr))
#endif
#ifndef fallthrough
#define fallthrough	__attribute__((__fallthrough__))
#endif
#ifndef BUILD_BUG_ON
#define BUILD_BUG_ON(cond)	static_assert(!(cond), #cond)
#endif
#ifndef hweight16
#define hweight16(w)	((unsigned int)__builtin_popcount((u16)(w)))
#endif
#endif

#endif /* _VPMU_PORT_H */
