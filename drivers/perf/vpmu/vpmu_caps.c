// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_caps.c - the PMU device's caps/ sysfs group: what the engines
 * have.
 *
 * The counters and the control store are fixed at load (the module
 * parameters); the event field's mode and width are the current image's.
 * Documentation/ABI/testing/sysfs-bus-event_source-devices-vpmu is the
 * contract for every file here.
 */
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/sysfs.h>

#include "vpmu.h"
#include "vpmu_engine.h"
#include "vpmu_machine.h"

static ssize_t nr_counters_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_vpmu(dev)->machine.nr_counters);
}
static DEVICE_ATTR_RO(nr_counters);

static ssize_t cs_size_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%u\n", dev_to_vpmu(dev)->machine.cs_size);
}
static DEVICE_ATTR_RO(cs_size);

static ssize_t ev_mode_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct vpmu_cstore *cs = vpmu_cstore_get(&dev_to_vpmu(dev)->machine);
	u32 mode = vpmu_ucode_header(cs->uc)->ev_mode;

	vpmu_cstore_put(cs);
	return sysfs_emit(buf, "%s\n",
			  mode == VPMU_EVMODE_ENCODED ? "encoded" : "onehot");
}
static DEVICE_ATTR_RO(ev_mode);

static ssize_t ev_bits_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct vpmu_cstore *cs = vpmu_cstore_get(&dev_to_vpmu(dev)->machine);
	u32 bits = vpmu_ucode_header(cs->uc)->ev_bits;

	vpmu_cstore_put(cs);
	return sysfs_emit(buf, "%u\n", bits);
}
static DEVICE_ATTR_RO(ev_bits);

/*
 * Every sample carries the micro-PC and macro PC of the microword that
 * overflowed the counter: no skid, so every precise_ip level perf can ask
 * for is met, up to 3 ("must have 0 skid").  perf reads this file for
 * :P (the highest level the PMU supports).
 */
static ssize_t max_precise_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "3\n");
}
static DEVICE_ATTR_RO(max_precise);

/* counterN_width: the counter's index is the attribute's variable. */
static ssize_t counter_width_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct dev_ext_attribute *ea = container_of(attr,
						    struct dev_ext_attribute,
						    attr);
	const struct vpmu_machine *m = &dev_to_vpmu(dev)->machine;

	return sysfs_emit(buf, "%u\n", m->widths[(unsigned long)ea->var]);
}

#define VPMU_WIDTH_ATTR(n)						\
	(&((struct dev_ext_attribute[]) { {				\
		.attr = __ATTR(counter##n##_width, 0444,		\
			       counter_width_show, NULL),		\
		.var = (void *)n,					\
	} })[0].attr.attr)

static struct attribute *vpmu_caps_attrs[] = {
	&dev_attr_nr_counters.attr,
	&dev_attr_cs_size.attr,
	&dev_attr_ev_mode.attr,
	&dev_attr_ev_bits.attr,
	&dev_attr_max_precise.attr,
	VPMU_WIDTH_ATTR(0), VPMU_WIDTH_ATTR(1), VPMU_WIDTH_ATTR(2),
	VPMU_WIDTH_ATTR(3), VPMU_WIDTH_ATTR(4), VPMU_WIDTH_ATTR(5),
	VPMU_WIDTH_ATTR(6), VPMU_WIDTH_ATTR(7), VPMU_WIDTH_ATTR(8),
	VPMU_WIDTH_ATTR(9), VPMU_WIDTH_ATTR(10), VPMU_WIDTH_ATTR(11),
	VPMU_WIDTH_ATTR(12), VPMU_WIDTH_ATTR(13), VPMU_WIDTH_ATTR(14),
	VPMU_WIDTH_ATTR(15),
	NULL,
};

static_assert(VPMU_NR_COUNTERS_MAX == 16);

/* Only the counters that exist have a width file. */
static umode_t vpmu_caps_is_visible(struct kobject *kobj,
				    struct attribute *attr, int i)
{
	struct device_attribute *da = container_of(attr,
						   struct device_attribute,
						   attr);
	const struct vpmu_machine *m = &kobj_to_vpmu(kobj)->machine;
	struct dev_ext_attribute *ea;

	if (da->show != counter_width_show)
		return attr->mode;
	ea = container_of(da, struct dev_ext_attribute, attr);
	return (unsigned long)ea->var < m->nr_counters ? attr->mode : 0;
}

const struct attribute_group vpmu_caps_group = {
	.name		= "caps",
	.attrs		= vpmu_caps_attrs,
	.is_visible	= vpmu_caps_is_visible,
};
