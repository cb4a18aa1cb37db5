/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_compat.h - the differences between the kernels vpmu supports.
 *
 * Every #if on LINUX_VERSION_CODE belongs here and nowhere else.
 */
#ifndef _VPMU_COMPAT_H
#define _VPMU_COMPAT_H

#include <linux/perf_event.h>
#include <linux/version.h>

/*
 * Before 6.2 only one PMU could own perf_hw_context; a second one asking for
 * it is warned about and demoted to perf_invalid_context, which refuses
 * per-task events.  perf_sw_context allows per-task events there (at the cost
 * of having no rotation timer).  From 6.2 on every PMU has a context of its
 * own and perf_hw_context is the right choice.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 2, 0)
#define VPMU_TASK_CTX	perf_sw_context
#else
#define VPMU_TASK_CTX	perf_hw_context
#endif

#endif /* _VPMU_COMPAT_H */
