// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_selfcheck_race - harness self-check injector: a module whose init
 * runs a data race for a second, a plain counter written on one CPU and
 * read on another.  tools/testing/vm/kcsan-selfcheck.sh loads it next to
 * vpmu.ko on the KCSAN kernel; the run must then fail with "kernel splat",
 * a KCSAN report naming these functions (vpmu_*: the harness counts only
 * reports with a vpmu frame).  Never part of a normal run.
 */
#include <linux/compiler.h>
#include <linux/cpumask.h>
#include <linux/err.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>

static unsigned long vpmu_selfcheck_shared;
static unsigned long vpmu_selfcheck_sink;

static int vpmu_selfcheck_race_writer(void *unused)
{
	while (!kthread_should_stop()) {
		vpmu_selfcheck_shared++;	/* plain: the race */
		barrier();
		cond_resched();
	}
	return 0;
}

static int vpmu_selfcheck_race_reader(void *unused)
{
	while (!kthread_should_stop()) {
		vpmu_selfcheck_sink += vpmu_selfcheck_shared;	/* plain */
		barrier();
		cond_resched();
	}
	return 0;
}

static int __init vpmu_selfcheck_race_init(void)
{
	struct task_struct *w, *r;
	unsigned int other = cpumask_last(cpu_online_mask);

	w = kthread_run_on_cpu(vpmu_selfcheck_race_writer, NULL, 0,
			       "vpmu_race_w/%u");
	if (IS_ERR(w))
		return PTR_ERR(w);
	r = kthread_run_on_cpu(vpmu_selfcheck_race_reader, NULL, other,
			       "vpmu_race_r/%u");
	if (IS_ERR(r)) {
		kthread_stop(w);
		return PTR_ERR(r);
	}
	schedule_timeout_interruptible(2 * HZ);
	kthread_stop(r);
	kthread_stop(w);
	return 0;
}

static void __exit vpmu_selfcheck_race_exit(void)
{
}

module_init(vpmu_selfcheck_race_init);
module_exit(vpmu_selfcheck_race_exit);
MODULE_DESCRIPTION("vpmu harness self-check: a deliberate data race at load");
MODULE_LICENSE("GPL");
