/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_port.h - the little the engine core needs from its environment.
 *
 * The core (vpmu_isa.c, vpmu_image.c, vpmu_engine.c) is built both into the
 * module and as plain host C for tests, benchmarks and fuzzing.  Everything
 * that differs between the two lives here: fixed-width types, memory
 * allocation, and branch hints.  No locking, no perf, no sysfs.
 */
#ifndef _VPMU_PORT_H
#define _VPMU_PORT_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/compiler.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/types.h>

#define vpmu_zalloc(size)	kvzalloc(size, GFP_KERNEL)
#define vpmu_free(ptr)		kvfree(ptr)

#else /* host */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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
#define vpmu_free(ptr)		free(ptr)
#endif

#endif /* _VPMU_PORT_H */
