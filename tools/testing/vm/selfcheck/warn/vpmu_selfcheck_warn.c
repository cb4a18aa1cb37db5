// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_selfcheck_warn - harness self-check injector: a module whose init
 * raises a kernel WARNING.  tools/testing/vm/selfcheck.sh loads it next to
 * vpmu.ko; the run must then fail with "kernel splat" although every test
 * passes.  Never part of a normal run.
 */
#include <linux/bug.h>
#include <linux/module.h>

static int __init vpmu_selfcheck_warn_init(void)
{
	WARN(1, "vpmu harness self-check: deliberate warning\n");
	return 0;
}

static void __exit vpmu_selfcheck_warn_exit(void)
{
}

module_init(vpmu_selfcheck_warn_init);
module_exit(vpmu_selfcheck_warn_exit);
MODULE_DESCRIPTION("vpmu harness self-check: deliberate WARN at load");
MODULE_LICENSE("GPL");
