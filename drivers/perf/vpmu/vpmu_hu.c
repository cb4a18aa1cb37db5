// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hu.c - the PMU device's hist/ sysfs group: the histogram unit.
 *
 * One program (vpmu_hu_text.c's text, parsed into struct vpmu_hu_prog) is
 * in force on every engine; each engine counts into its own buckets, on
 * its own clock.  This file parses and prints the program, has the
 * machine set it on every engine or reset the buckets, and copies them
 * out; vpmu_pmu_hu.c reads them as perf events (the PMU vpmu_hu,
 * bucket=1..16), through vpmu_machine_hu_bucket().
 *
 *   hist/program  rw  the program in force, in canonical text, or "off";
 *                     a write sets it on every engine (all or nothing) and
 *                     zeroes the buckets, as /dev/vpmu's VPMU_IOC_HU_PROGRAM
 *                     does with the same program as a struct (hu_ops)
 *   hist/control  w   "reset": zero the buckets, restart the periods
 *   hist/error    r   why the last rejected write was rejected, or empty
 *   hist/sum      r   "C<b> <count>" for b = 1..n, summed over the CPUs
 *   hist/cpuN     r   the same for CPU N's engine
 *
 * Every engine is changed on its own CPU, between two run chunks
 * (vpmu_machine_hu_program(), vpmu_machine_hu_reset()); the machine has
 * the perf events of that CPU folded before and rebased after (its
 * hu_fold and hu_rebase ops), so that a change never shows in them as a
 * jump.  Documentation/vpmu/histogram.rst, "Histogram unit", is the
 * contract.
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
#include "vpmu_machine.h"

__printf(3, 4)
static int vpmu_hu_reject(struct vpmu_hu *hu, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(hu->error, sizeof(hu->error), fmt, ap);
	va_end(ap);
	return err;
}

/* ---- files --------------------------------------------------------------- */

static ssize_t program_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct vpmu_hu *hu = &dev_to_vpmu(dev)->hu;
	ssize_t ret;

	mutex_lock(&hu->lock);
	ret = vpmu_hu_print(&hu->prog, buf, PAGE_SIZE);
	mutex_unlock(&hu->lock);
	return min_t(ssize_t, ret, PAGE_SIZE - 1);
}

/*
 * Set @p, which @parse made from what the caller gave (hist/program's
 * text, VPMU_IOC_HU_PROGRAM's struct), on every engine; @what names the
 * way in, in hist/error's message when it is rejected.
 */
static int vpmu_hu_program(struct vpmu *vpmu, const char *what,
			   int (*parse)(const void *in, size_t len,
					struct vpmu_hu_prog *p, char *err),
			   const void *in, size_t len)
{
	struct vpmu_hu *hu = &vpmu->hu;
	char err[VPMU_HU_ERR_MAX];
	struct vpmu_hu_prog *p;
	int ret;

	p = kmalloc_obj(*p, GFP_KERNEL);
	if (!p)
		return -ENOMEM;

	mutex_lock(&hu->lock);
	ret = parse(in, len, p, err);
	if (ret) {
		vpmu_hu_reject(hu, ret, "%s: %s", what, err);
		goto out_unlock;
	}
	ret = vpmu_machine_hu_program(&vpmu->machine, p, &hu->prog);
	if (ret == -EINVAL) {
		vpmu_hu_reject(hu, ret, "%s: refused by the engine", what);
	} else if (ret) {
		vpmu_hu_reject(hu, ret, "%s: engine call failed (%d)", what,
			       ret);
	} else {
		hu->prog = *p;
		hu->error[0] = '\0';
	}
out_unlock:
	mutex_unlock(&hu->lock);
	kfree(p);
	return ret;
}

static int vpmu_hu_parse_text(const void *in, size_t len,
			      struct vpmu_hu_prog *p, char *err)
{
	return vpmu_hu_parse(in, len, p, err);
}

static ssize_t program_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = vpmu_hu_program(dev_to_vpmu(dev), "program", vpmu_hu_parse_text,
			      buf, count);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(program);

static int vpmu_hu_parse_uapi(const void *in, size_t len,
			      struct vpmu_hu_prog *p, char *err)
{
	return vpmu_hu_from_uapi(in, p, err);
}

/*
 * VPMU_IOC_HU_PROGRAM's work (/dev/vpmu, through vpmu->hu_ops): @u, whose
 * size and the caller's privilege /dev/vpmu checked, on every engine.
 */
static int vpmu_hu_program_uapi(struct vpmu *vpmu,
				const struct vpmu_hu_program *u)
{
	return vpmu_hu_program(vpmu, "VPMU_IOC_HU_PROGRAM", vpmu_hu_parse_uapi,
			       u, sizeof(*u));
}

static const struct vpmu_hu_ops vpmu_hu_ops = {
	.program	= vpmu_hu_program_uapi,
};

static ssize_t control_store(struct device *dev, struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct vpmu *vpmu = dev_to_vpmu(dev);
	struct vpmu_hu *hu = &vpmu->hu;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	mutex_lock(&hu->lock);
	if (sysfs_streq(buf, "reset")) {
		ret = vpmu_machine_hu_reset(&vpmu->machine);
		if (ret)
			vpmu_hu_reject(hu, ret,
				       "control: engine call failed (%d)", ret);
		else
			hu->error[0] = '\0';
	} else {
		ret = vpmu_hu_reject(hu, -EINVAL,
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
	struct vpmu_hu *hu = &dev_to_vpmu(dev)->hu;
	ssize_t ret = 0;

	mutex_lock(&hu->lock);
	if (hu->error[0])
		ret = sysfs_emit(buf, "%s\n", hu->error);
	mutex_unlock(&hu->lock);
	return ret;
}
static DEVICE_ATTR_RO(error);

struct vpmu_hu_copy {
	unsigned int n;
	u64 c[VPMU_HU_MAX];
};

static void vpmu_hu_copy_one(struct vpmu_engine *e,
			     const struct vpmu_cstore *cs, void *arg)
{
	struct vpmu_hu_copy *c = arg;

	vpmu_engine_hu_read(e, c->c, c->n);
}

/* @cpu's buckets, or (@cpu < 0) their sum over the CPUs, as text. */
static ssize_t vpmu_hu_show_buckets(struct vpmu *vpmu, int cpu, char *buf)
{
	struct vpmu_hu *hu = &vpmu->hu;
	struct vpmu_hu_copy c, sum = {};
	unsigned int b, i;
	ssize_t len = 0;
	int ret = 0;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	mutex_lock(&hu->lock);
	c.n = hu->prog.n;
	sum.n = c.n;
	if (c.n) {
		for_each_possible_cpu(i) {
			if (cpu >= 0 && i != (unsigned int)cpu)
				continue;
			ret = vpmu_machine_call(&vpmu->machine, i,
						vpmu_hu_copy_one, &c);
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
	mutex_unlock(&hu->lock);
	return ret ? ret : len;
}

static ssize_t sum_show(struct device *dev, struct device_attribute *attr,
			char *buf)
{
	return vpmu_hu_show_buckets(dev_to_vpmu(dev), -1, buf);
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

	return vpmu_hu_show_buckets(dev_to_vpmu(dev), a->cpu, buf);
}

/* ---- the group ----------------------------------------------------------- */

static struct attribute *vpmu_hu_fixed_attrs[] = {
	&dev_attr_program.attr,
	&dev_attr_control.attr,
	&dev_attr_error.attr,
	&dev_attr_sum.attr,
};

/**
 * vpmu_hu_init() - build the hist/ group; before the PMU registers
 * @vpmu: the device
 *
 * The unit starts off on every engine.
 *
 * Return: 0 or -ENOMEM.
 */
int vpmu_hu_init(struct vpmu *vpmu)
{
	struct vpmu_hu *hu = &vpmu->hu;
	unsigned int nfixed = ARRAY_SIZE(vpmu_hu_fixed_attrs);
	unsigned int ncpus = num_possible_cpus(), cpu, i = 0;
	struct attribute **attrs;

	mutex_init(&hu->lock);
	vpmu->hu_ops = &vpmu_hu_ops;
	attrs = kcalloc(nfixed + ncpus + 1, sizeof(*attrs), GFP_KERNEL);
	hu->cpu_attrs = kcalloc(ncpus, sizeof(*hu->cpu_attrs), GFP_KERNEL);
	if (!attrs || !hu->cpu_attrs) {
		kfree(attrs);
		kfree(hu->cpu_attrs);
		hu->cpu_attrs = NULL;
		return -ENOMEM;
	}
	memcpy(attrs, vpmu_hu_fixed_attrs, sizeof(vpmu_hu_fixed_attrs));
	for_each_possible_cpu(cpu) {
		struct vpmu_hu_cpu_attr *a = &hu->cpu_attrs[i++];

		snprintf(a->name, sizeof(a->name), "cpu%u", cpu);
		sysfs_attr_init(&a->attr.attr);
		a->attr.attr.name = a->name;
		a->attr.attr.mode = 0400;
		a->attr.show = vpmu_hu_cpu_show;
		a->cpu = cpu;
		attrs[nfixed++] = &a->attr.attr;
	}
	hu->group.name = "hist";
	hu->group.attrs = attrs;
	memset(&hu->prog, 0, sizeof(hu->prog));
	hu->error[0] = '\0';
	return 0;
}

/* After the PMU (and so hist/) is gone. */
void vpmu_hu_exit(struct vpmu *vpmu)
{
	struct vpmu_hu *hu = &vpmu->hu;

	kfree(hu->group.attrs);
	hu->group.attrs = NULL;
	kfree(hu->cpu_attrs);
	hu->cpu_attrs = NULL;
}
