/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_compat.h - the differences between the kernels vpmu supports.
 *
 * Every #if on LINUX_VERSION_CODE belongs here and nowhere else.
 */
#ifndef _VPMU_COMPAT_H
#define _VPMU_COMPAT_H

#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/version.h>

/*
 * Before 6.2 only one PMU could own perf_hw_context; a second one asking for
 * it is warned about and demoted to perf_invalid_context, which refuses
 * per-task events.  perf_sw_context allows per-task events there (at the cost
 * of having no rotation timer).  From 6.2 on every PMU has a context of its
 * own and perf_hw_context is the right choice.
 */
/*
 * VPMU_GROUP_VALIDATE: may event_init walk the group?  perf_try_init_event()
 * holds the group leader's ctx->mutex around pmu::event_init of a new group
 * member, so that event_init may walk the group (for_each_sibling_event()
 * asserts it under lockdep), except for PMUs of perf_sw_context: their
 * groups "always fit".  On 6.1, where vpmu is such a PMU, the group cannot
 * be walked safely there, so a group too big for the counters is not
 * refused at open: it opens and never gets on the counters (time_running
 * stays 0).  The event callbacks, which run under ctx->lock, may walk the
 * group on every kernel.
 */

#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define VPMU_TASK_CTX		perf_sw_context
#define VPMU_GROUP_VALIDATE	0
#else
#define VPMU_TASK_CTX		perf_hw_context
#define VPMU_GROUP_VALIDATE	1
#endif

/*
 * attr.config3 came with 6.3 (PERF_ATTR_SIZE_VER8).  vpmu has no field in
 * it, so it must be zero; older kernels refuse its bytes themselves, as
 * attribute bytes they do not know (E2BIG).
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
#define VPMU_ATTR_CONFIG3(attr)	((attr)->config3)
#else
#define VPMU_ATTR_CONFIG3(attr)	((void)(attr), 0ULL)
#endif

/*
 * attr.config4 came after 6.12 (PERF_ATTR_SIZE_VER9; 7.3 has it): as
 * config3, no vpmu field, so it must be zero.  Tested by the uapi header's
 * size macro, which comes with the field.
 */
#ifdef PERF_ATTR_SIZE_VER9
#define VPMU_ATTR_CONFIG4(attr)	((attr)->config4)
#else
#define VPMU_ATTR_CONFIG4(attr)	((void)(attr), 0ULL)
#endif

/*
 * sysfs binary attributes (ucode/image, uhist/cpuN and uhist/sum) became
 * const in three steps:
 *
 * - 6.13 added bin_attribute::read_new/write_new, whose attribute argument
 *   is const, and attribute_group::bin_attrs_new, an array of const
 *   pointers; read/write/bin_attrs stayed non-const.
 * - 6.16 made read/write's attribute argument and attribute_group::bin_attrs
 *   const as well ("sysfs: constify bin_attribute argument of
 *   bin_attribute::read/write()", "sysfs: constify attribute_group::
 *   bin_attrs"); the _new names stayed as aliases.
 * - 6.18 removed read_new/write_new and bin_attrs_new.
 *
 * VPMU_BIN_CONST qualifies the callbacks' attribute argument and the
 * elements of bin_attrs arrays; VPMU_BIN_READ, VPMU_BIN_WRITE and
 * VPMU_GROUP_BIN_ATTRS name the members to fill on the running kernel.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#define VPMU_BIN_CONST		const
#define VPMU_BIN_READ		read
#define VPMU_BIN_WRITE		write
#define VPMU_GROUP_BIN_ATTRS	bin_attrs
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#define VPMU_BIN_CONST		const
#define VPMU_BIN_READ		read_new
#define VPMU_BIN_WRITE		write_new
#define VPMU_GROUP_BIN_ATTRS	bin_attrs_new
#else
#define VPMU_BIN_CONST
#define VPMU_BIN_READ		read
#define VPMU_BIN_WRITE		write
#define VPMU_GROUP_BIN_ATTRS	bin_attrs
#endif

/*
 * A sample's raw record (vpmu_pmu_ovf.c, built in): before 6.3 the driver
 * sets perf_sample_data::raw and its flag itself; 6.3 added
 * perf_sample_save_raw_data(), which "perf/core: Save raw sample data
 * conditionally based on sample type" (6.13, and in stable 6.12.13 and
 * 6.6.76) gave the event as a second argument.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 13) ||			\
	(LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 76) &&		\
	 LINUX_VERSION_CODE < KERNEL_VERSION(6, 7, 0))
#define VPMU_SAVE_RAW_HAS_EVENT	1
#else
#define VPMU_SAVE_RAW_HAS_EVENT	0
#endif

static inline void vpmu_sample_save_raw(struct perf_sample_data *data,
					struct perf_event *event,
					struct perf_raw_record *raw)
{
	if (!(event->attr.sample_type & PERF_SAMPLE_RAW))
		return;
#if VPMU_SAVE_RAW_HAS_EVENT
	perf_sample_save_raw_data(data, event, raw);
#elif LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	perf_sample_save_raw_data(data, raw);
#else
	data->raw = raw;
	data->sample_flags |= PERF_SAMPLE_RAW;
#endif
}

/*
 * kmalloc_obj() and kzalloc_obj() (the size from the pointer's type) came
 * with 7.0 and were backported to 6.12.y; 6.1 has neither.
 */
#ifndef kmalloc_obj
#define kmalloc_obj(obj, gfp)	kmalloc(sizeof(obj), gfp)
#endif
#ifndef kzalloc_obj
#define kzalloc_obj(obj, gfp)	kzalloc(sizeof(obj), gfp)
#endif

#endif /* _VPMU_COMPAT_H */
