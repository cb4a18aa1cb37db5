// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hu.c - the PMU device's hist/ sysfs group: the histogram unit.
 *
 * One program (vpmu_hu_text.c's text, parsed into struct vpmu_hu_prog) is
 * in force on every engine; each engine counts into its own buckets, on
 * its own clock.  This file sets the program on every engine, resets the
 * buckets and copies them out; vpmu_pmu.c reads them as perf events
 * (event=0x201..0x210), through vpmu_hu_bucket() below.
 *
 *   hist/program  rw  the program in force, in canonical text, or "off";
 *                     a write sets it on every engine (all or nothing) and
 *                     zeroes the buckets
 *   hist/control  w   "reset": zero the buckets, restart the periods
 *   hist/error    r   why the last rejected write was rejected, or empty
 *   hist/sum      r   "C<b> <count>" for b = 1..n, summed over the CPUs
 *   hist/cpuN     r   the same for CPU N's engine
 *
 * Every engine is changed on its own CPU, between two run chunks, by
 * vpmu_cpu_engine_call(); the perf events of that CPU are folded before and
 * rebased after (vpmu_pmu_hist_fold(), vpmu_pmu_hist_rebase()), so that a
 * change never shows in them as a jump.  Documentation/vpmu/histogram.rst,
 * "Histogram unit", is the contract.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "vpmu.h"
#include "vpmu_engine.h"
#include "vpmu_hu_text.h"

/**
 * struct vpmu_hu - the histogram unit's module-wide state
 * @lock:	serialises writes and the reads that walk the engines, so
 *		that every engine has the program in @prog
 * @prog:	the program in force on every engine (n == 0: off)
 * @nr:		@prog's n, for event_init, which must not take @lock
 * @error:	why the last rejected write was rejected; empty otherwise
 */
struct vpmu_hu {
	struct mutex		lock;		/* serialises engine changes */
	struct vpmu_hu_prog	prog;
	unsigned int		nr;
	char			error[VPMU_HU_ERR_MAX + 32];
};

static struct vpmu_hu vpmu_hu = {
	.lock	= __MUTEX_INITIALIZER(vpmu_hu.lock),
};

/*
 * The number of buckets of the program in force on each engine.  Written
 * on the engine's CPU with interrupts disabled (or, for an offline CPU,
 * where nothing reads it), read by perf callbacks on that CPU.
 */
static DEFINE_PER_CPU(unsigned int, vpmu_hu_n);

/**
 * vpmu_hu_nr_buckets() - buckets of the program in force (0: off)
 *
 * Context: any.
 */
unsigned int vpmu_hu_nr_buckets(void)
{
	return READ_ONCE(vpmu_hu.nr);
}

/**
 * vpmu_hu_bucket() - bucket @b of this CPU's engine
 * @e:	this CPU's engine
 * @b:	1-based bucket
 *
 * Context: interrupts disabled, on the engine's CPU (perf callbacks).
 * Return: the 64-bit bucket, or 0 if the program in force has no bucket @b.
 */
u64 vpmu_hu_bucket(struct vpmu_engine *e, unsigned int b)
{
	u64 c[VPMU_HU_MAX];

	if (b < 1 || b > __this_cpu_read(vpmu_hu_n))
		return 0;
	vpmu_engine_hu_read(e, c, b);
	return c[b - 1];
}

__printf(2, 3)
static int vpmu_hu_reject(int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(vpmu_hu.error, sizeof(vpmu_hu.error), fmt, ap);
	va_end(ap);
	return err;
}

/* ---- changing the engines ------------------------------------------------ */

struct vpmu_hu_call {
	const struct vpmu_hu_prog *prog;	/* NULL: reset */
	unsigned int cpu;
	int ret;
};

/* On @a->cpu's engine: set @a->prog, or reset; perf events folded around. */
static void vpmu_hu_change(struct vpmu_engine *e, const struct vpmu_image *img,
			   void *arg)
{
	struct vpmu_hu_call *a = arg;
	/* An offline CPU's engine is changed elsewhere and has no events. */
	bool here = e == vpmu_this_engine();

	if (here)
		vpmu_pmu_hist_fold(e);
	if (a->prog) {
		a->ret = vpmu_engine_hu_set(e, a->prog->n ? a->prog : NULL);
		if (!a->ret)
			per_cpu(vpmu_hu_n, a->cpu) = a->prog->n;
	} else {
		vpmu_engine_hu_reset(e);
		a->ret = 0;
	}
	if (here)
		vpmu_pmu_hist_rebase(e);
}

static int vpmu_hu_call(unsigned int cpu, const struct vpmu_hu_prog *prog)
{
	struct vpmu_hu_call a = { .prog = prog, .cpu = cpu };
	int ret;

	ret = vpmu_cpu_engine_call(cpu, vpmu_hu_change, &a);
	return ret ? ret : a.ret;
}

/*
 * Set @p on every engine, or on none.  The engines check a program alike,
 * and the parser has checked everything they check: the first engine's
 * verdict is every engine's.  Should a later one refuse all the same, the
 * ones already changed get the old program back.
 */
static int vpmu_hu_set_all(const struct vpmu_hu_prog *p)
{
	struct vpmu_hu *hu = &vpmu_hu;
	unsigned int cpu, undo;
	int ret;

	lockdep_assert_held(&hu->lock);
	for_each_possible_cpu(cpu) {
		ret = vpmu_hu_call(cpu, p);
		if (ret)
			goto out_undo;
	}
	hu->prog = *p;
	WRITE_ONCE(hu->nr, p->n);
	return 0;

out_undo:
	for_each_possible_cpu(undo) {
		if (undo == cpu)
			break;
		WARN_ON_ONCE(vpmu_hu_call(undo, &hu->prog));
	}
	return ret;
}

static int vpmu_hu_reset_all(void)
{
	unsigned int cpu;
	int ret;

	for_each_possible_cpu(cpu) {
		ret = vpmu_hu_call(cpu, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- files --------------------------------------------------------------- */

static ssize_t program_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	ssize_t ret;

	mutex_lock(&vpmu_hu.lock);
	ret = vpmu_hu_print(&vpmu_hu.prog, buf, PAGE_SIZE);
	mutex_unlock(&vpmu_hu.lock);
	return min_t(ssize_t, ret, PAGE_SIZE - 1);
}

static ssize_t program_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct vpmu_hu *hu = &vpmu_hu;
	char err[VPMU_HU_ERR_MAX];
	struct vpmu_hu_prog *p;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	p = kmalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;

	mutex_lock(&hu->lock);
	ret = vpmu_hu_parse(buf, count, p, err);
	if (ret) {
		vpmu_hu_reject(ret, "program: %s", err);
		goto out_unlock;
	}
	ret = vpmu_hu_set_all(p);
	if (ret == -EINVAL)
		vpmu_hu_reject(ret, "program: refused by the engine");
	else if (ret)
		vpmu_hu_reject(ret, "program: engine call failed (%d)", ret);
	else
		hu->error[0] = '\0';
out_unlock:
	mutex_unlock(&hu->lock);
	kfree(p);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(program);

static ssize_t control_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct vpmu_hu *hu = &vpmu_hu;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	mutex_lock(&hu->lock);
	if (sysfs_streq(buf, "reset")) {
		ret = vpmu_hu_reset_all();
		if (ret)
			vpmu_hu_reject(ret, "control: engine call failed (%d)",
				       ret);
		else
			hu->error[0] = '\0';
	} else {
		ret = vpmu_hu_reject(-EINVAL,
				     "control: unknown command '%.*s' (reset)",
				     (int)min_t(size_t, strcspn(buf, "\n"), 32),
				     buf);
	}
	mutex_unlock(&hu->lock);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(control);

static ssize_t error_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	ssize_t ret = 0;

	mutex_lock(&vpmu_hu.lock);
	if (vpmu_hu.error[0])
		ret = sysfs_emit(buf, "%s\n", vpmu_hu.error);
	mutex_unlock(&vpmu_hu.lock);
	return ret;
}
static DEVICE_ATTR_RO(error);

struct vpmu_hu_copy {
	unsigned int n;
	u64 c[VPMU_HU_MAX];
};

static void vpmu_hu_copy_one(struct vpmu_engine *e,
			     const struct vpmu_image *img, void *arg)
{
	struct vpmu_hu_copy *c = arg;

	vpmu_engine_hu_read(e, c->c, c->n);
}

/* @cpu's buckets, or (@cpu < 0) their sum over the CPUs, as text. */
static ssize_t vpmu_hu_show_buckets(int cpu, char *buf)
{
	struct vpmu_hu_copy c, sum = {};
	unsigned int b, i;
	ssize_t len = 0;
	int ret = 0;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	mutex_lock(&vpmu_hu.lock);
	c.n = vpmu_hu.prog.n;
	sum.n = c.n;
	if (c.n) {
		for_each_possible_cpu(i) {
			if (cpu >= 0 && i != (unsigned int)cpu)
				continue;
			ret = vpmu_cpu_engine_call(i, vpmu_hu_copy_one, &c);
			if (ret)
				goto out_unlock;
			for (b = 0; b < c.n; b++)
				sum.c[b] += c.c[b];
		}
	}
	for (b = 0; b < sum.n; b++)
		len += sysfs_emit_at(buf, len, "C%u %llu\n", b + 1,
				     (unsigned long long)sum.c[b]);
out_unlock:
	mutex_unlock(&vpmu_hu.lock);
	return ret ? ret : len;
}

static ssize_t sum_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	return vpmu_hu_show_buckets(-1, buf);
}
static DEVICE_ATTR_ADMIN_RO(sum);

struct vpmu_hu_cpu_attr {
	struct device_attribute attr;
	unsigned int cpu;
	char name[16];
};

static ssize_t vpmu_hu_cpu_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct vpmu_hu_cpu_attr *a = container_of(attr, typeof(*a), attr);

	return vpmu_hu_show_buckets(a->cpu, buf);
}

/* ---- the group ----------------------------------------------------------- */

static struct attribute *vpmu_hu_fixed_attrs[] = {
	&dev_attr_program.attr,
	&dev_attr_control.attr,
	&dev_attr_error.attr,
	&dev_attr_sum.attr,
};

/* Not const: its attrs (the fixed ones, then cpuN) are built at init. */
struct attribute_group vpmu_hu_group = {
	.name	= "hist",
};

static struct vpmu_hu_cpu_attr *vpmu_hu_cpu_attrs;

/**
 * vpmu_hu_init() - build the hist/ group; before the PMU registers
 *
 * The unit starts off on every engine.
 *
 * Return: 0 or -ENOMEM.
 */
int vpmu_hu_init(void)
{
	unsigned int nfixed = ARRAY_SIZE(vpmu_hu_fixed_attrs);
	unsigned int ncpus = num_possible_cpus(), cpu, i = 0;
	struct attribute **attrs;

	attrs = kcalloc(nfixed + ncpus + 1, sizeof(*attrs), GFP_KERNEL);
	vpmu_hu_cpu_attrs = kcalloc(ncpus, sizeof(*vpmu_hu_cpu_attrs),
				    GFP_KERNEL);
	if (!attrs || !vpmu_hu_cpu_attrs) {
		kfree(attrs);
		kfree(vpmu_hu_cpu_attrs);
		vpmu_hu_cpu_attrs = NULL;
		return -ENOMEM;
	}
	memcpy(attrs, vpmu_hu_fixed_attrs, sizeof(vpmu_hu_fixed_attrs));
	for_each_possible_cpu(cpu) {
		struct vpmu_hu_cpu_attr *a = &vpmu_hu_cpu_attrs[i++];

		snprintf(a->name, sizeof(a->name), "cpu%u", cpu);
		sysfs_attr_init(&a->attr.attr);
		a->attr.attr.name = a->name;
		a->attr.attr.mode = 0400;
		a->attr.show = vpmu_hu_cpu_show;
		a->cpu = cpu;
		attrs[nfixed++] = &a->attr.attr;
	}
	vpmu_hu_group.attrs = attrs;
	memset(&vpmu_hu.prog, 0, sizeof(vpmu_hu.prog));
	WRITE_ONCE(vpmu_hu.nr, 0);
	vpmu_hu.error[0] = '\0';
	return 0;
}

/* After the PMU (and so hist/) is gone. */
void vpmu_hu_exit(void)
{
	kfree(vpmu_hu_group.attrs);
	vpmu_hu_group.attrs = NULL;
	kfree(vpmu_hu_cpu_attrs);
	vpmu_hu_cpu_attrs = NULL;
}
