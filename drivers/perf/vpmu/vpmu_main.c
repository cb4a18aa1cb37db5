// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu - a perf PMU backed by an emulated microcoded processor.
 *
 * Module entry points: bring the parts up in order, tear them down in
 * reverse.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include "vpmu.h"

static int __init vpmu_init(void)
{
	int ret;

	ret = vpmu_pmu_register();
	if (ret)
		return ret;

	pr_info("loaded\n");
	return 0;
}

static void __exit vpmu_exit(void)
{
	vpmu_pmu_unregister();
	pr_info("unloaded\n");
}

module_init(vpmu_init);
module_exit(vpmu_exit);

MODULE_DESCRIPTION("perf PMU backed by an emulated microcoded processor");
MODULE_LICENSE("GPL");
