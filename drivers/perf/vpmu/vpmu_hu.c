// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_hu.c - the histogram unit: its program, its buckets, and the PMU
 * device's hist/ sysfs group.
 *
 * One program (struct vpmu_hu_prog, checked by vpmu_hu_uapi.c) is in force
 * on every engine; each engine counts into its own buckets, on its own
 * clock.  /dev/vpmu sets the program, reads it back and reads the buckets
 * (VPMU_IOC_HU_PROGRAM, VPMU_IOC_HU_GET_PROGRAM, VPMU_IOC_HU_READ) through
 * this file's struct vpmu_hu_ops; vpmu_pmu_hu.c reads the buckets as perf
 * events (the PMU vpmu_hu, bucket=1..16), through vpmu_machine_hu_bucket().
 *
 *   hist/control  w   "reset": zero the buckets, restart the periods
 *   hist/error    r   why the last rejected change was rejected, or empty
 *
 * Every engine is changed on its own CPU, between two run chunks
 * (vpmu_machine_hu_program(), vpmu_machine_hu_reset()); the machine has
 * the perf events of that CPU folded before and rebased after (its
 * hu_fold and hu_rebase ops), so that a change never shows in them as a
 * jump.  Documentation/admin-guide/perf/vpmu.rst ("/dev/vpmu" and
 * "sysfs") is the contract.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "vpmu.h"
#include "vpmu_engine.h"
#include "vpmu_hu_uapi.h"
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

/*
 * VPMU_IOC_HU_PROGRAM's work: @u, whose size and the caller's privilege
 * /dev/vpmu checked, on every engine; hist/error says why it was refused.
 */
static int vpmu_hu_program(struct vpmu *vpmu, const struct vpmu_hu_program *u)
{
	struct vpmu_hu *hu = &vpmu->hu;
	char err[VPMU_HU_ERR_MAX];
	struct vpmu_hu_prog *p;
	int ret;

	p = kmalloc_obj(*p, GFP_KERNEL);
	if (!p)
		return -ENOMEM;

	mutex_lock(&hu->lock);
	ret = vpmu_hu_from_uapi(u, p, err);
	if (ret) {
		vpmu_hu_reject(hu, ret, "VPMU_IOC_HU_PROGRAM: %s", err);
		goto out_unlock;
	}
	ret = vpmu_machine_hu_program(&vpmu->machine, p, &hu->prog);
	if (ret == -EINVAL) {
		vpmu_hu_reject(hu, ret,
			       "VPMU_IOC_HU_PROGRAM: refused by the engine");
	} else if (ret) {
		vpmu_hu_reject(hu, ret,
			       "VPMU_IOC_HU_PROGRAM: engine call failed (%d)",
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

/* VPMU_IOC_HU_GET_PROGRAM's work: the program in force into @u. */
static void vpmu_hu_get_program(struct vpmu *vpmu, struct vpmu_hu_program *u)
{
	struct vpmu_hu *hu = &vpmu->hu;

	mutex_lock(&hu->lock);
	vpmu_hu_to_uapi(&hu->prog, u);
	mutex_unlock(&hu->lock);
}

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

/*
 * VPMU_IOC_HU_READ's work: @out->cpu's buckets (a possible CPU: /dev/vpmu
 * checked), or with VPMU_HU_CPU_SUM their sum over the possible CPUs;
 * each CPU's copied on that CPU, between two of its run chunks.
 */
static int vpmu_hu_read(struct vpmu *vpmu, struct vpmu_hu_counts *out)
{
	struct vpmu_hu *hu = &vpmu->hu;
	struct vpmu_hu_copy c;
	unsigned int b, i;
	int ret = 0;

	memset(out->count, 0, sizeof(out->count));
	mutex_lock(&hu->lock);
	c.n = hu->prog.n;
	out->nr = c.n;
	if (!c.n)
		goto out_unlock;
	for_each_possible_cpu(i) {
		if (out->cpu != VPMU_HU_CPU_SUM && i != out->cpu)
			continue;
		ret = vpmu_machine_call(&vpmu->machine, i, vpmu_hu_copy_one,
					&c);
		if (ret)
			break;
		for (b = 0; b < c.n; b++)
			out->count[b] += c.c[b];
	}
out_unlock:
	mutex_unlock(&hu->lock);
	return ret;
}

static const struct vpmu_hu_ops vpmu_hu_ops = {
	.program	= vpmu_hu_program,
	.get_program	= vpmu_hu_get_program,
	.read		= vpmu_hu_read,
};

/* ---- files --------------------------------------------------------------- */

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

/* ---- the group ----------------------------------------------------------- */

static struct attribute *vpmu_hu_attrs[] = {
	&dev_attr_control.attr,
	&dev_attr_error.attr,
	NULL
};

/**
 * vpmu_hu_init() - set up the unit and the hist/ group; before the PMU
 *	registers and before /dev/vpmu takes opens
 * @vpmu: the device
 *
 * The unit starts off on every engine.
 */
void vpmu_hu_init(struct vpmu *vpmu)
{
	struct vpmu_hu *hu = &vpmu->hu;

	mutex_init(&hu->lock);
	vpmu->hu_ops = &vpmu_hu_ops;
	hu->group.name = "hist";
	hu->group.attrs = vpmu_hu_attrs;
	memset(&hu->prog, 0, sizeof(hu->prog));
	hu->error[0] = '\0';
}
