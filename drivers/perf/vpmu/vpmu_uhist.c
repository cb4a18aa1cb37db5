// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_uhist.c - the PMU device's uhist/ sysfs group: the micro-PC
 * histogram.
 *
 * The buckets live in the engines (one 64-bit bucket per control-store
 * word, allocated with the engine's memory on the first run on its CPU);
 * this file only switches sampling on and off and copies buckets out.
 * The sampling interval K is the uhist_interval module parameter, which
 * uhist/interval reads and writes too.  An engine samples at K while
 * uhist/state is "running" and not at all otherwise; it picks that up at
 * its next run chunk, and at once when a control or interval write
 * reaches it by IPI.
 *
 * cpuN and sum read as struct vpmu_uhist_header + buckets.  A read at
 * offset 0 takes a snapshot (each CPU's buckets copied on that CPU,
 * between two chunks); the later reads of the same open file continue
 * that snapshot, so a file read from start to end is consistent even
 * though sysfs hands it over a page at a time.  Snapshots are kept for
 * the last few files that read; an open file is known by a cookie that
 * is never reused (not by its struct file, whose memory a later open may
 * get), and a file whose snapshot was given to another reads -ESTALE
 * instead of a mix of two snapshots.
 * Documentation/admin-guide/perf/vpmu.rst, "sysfs", is the contract.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/kernfs.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "vpmu.h"
#include "vpmu_compat.h"
#include "vpmu_engine.h"
#include "vpmu_machine.h"

static const char *const vpmu_uhist_state_name[] = {
	[VPMU_UHIST_OFF]	= "off",
	[VPMU_UHIST_RUNNING]	= "running",
	[VPMU_UHIST_PAUSED]	= "paused",
};

#define VPMU_UHIST_SUM		(-1)

/* ---- control ----------------------------------------------------------- */

/* vpmu_machine_call() has applied the new state; zero if asked to. */
static void vpmu_uhist_apply(struct vpmu_engine *e,
			     const struct vpmu_cstore *cs, void *arg)
{
	if (*(bool *)arg)
		vpmu_engine_uhist_reset(e);
}

/* Bring every engine to the current state, zeroing it if @zero. */
static int vpmu_uhist_apply_all(struct vpmu_machine *m, bool zero)
{
	unsigned int cpu;
	int ret;

	for_each_possible_cpu(cpu) {
		ret = vpmu_machine_call(m, cpu, vpmu_uhist_apply, &zero);
		if (ret)
			return ret;
	}
	return 0;
}

static ssize_t control_store(struct device *dev,
			     struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct vpmu *vpmu = dev_to_vpmu(dev);
	struct vpmu_machine *m = &vpmu->machine;
	struct vpmu_uhist *uh = &vpmu->uhist;
	enum vpmu_uhist_state state;
	bool zero;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	mutex_lock(&uh->lock);
	state = vpmu_machine_uhist_state(m);
	if (sysfs_streq(buf, "start")) {
		ret = -EINVAL;
		if (!vpmu_machine_uhist_interval(m))
			goto out_unlock;
		state = VPMU_UHIST_RUNNING;
		zero = true;
	} else if (sysfs_streq(buf, "pause")) {
		ret = -EINVAL;
		if (state != VPMU_UHIST_RUNNING)
			goto out_unlock;
		state = VPMU_UHIST_PAUSED;
		zero = false;
	} else if (sysfs_streq(buf, "resume")) {
		ret = -EINVAL;
		if (state != VPMU_UHIST_PAUSED)
			goto out_unlock;
		state = VPMU_UHIST_RUNNING;
		zero = false;
	} else if (sysfs_streq(buf, "reset")) {
		zero = true;
	} else if (sysfs_streq(buf, "stop")) {
		state = VPMU_UHIST_OFF;
		zero = true;
	} else {
		ret = -EINVAL;
		goto out_unlock;
	}
	vpmu_machine_uhist_set_state(m, state);
	ret = vpmu_uhist_apply_all(m, zero);
out_unlock:
	mutex_unlock(&uh->lock);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(control);

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	struct vpmu_machine *m = &dev_to_vpmu(dev)->machine;

	return sysfs_emit(buf, "%s\n",
			  vpmu_uhist_state_name[vpmu_machine_uhist_state(m)]);
}
static DEVICE_ATTR_RO(state);

static ssize_t interval_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  vpmu_machine_uhist_interval(&dev_to_vpmu(dev)->machine));
}

static ssize_t interval_store(struct device *dev,
			      struct device_attribute *attr,
			      const char *buf, size_t count)
{
	struct vpmu *vpmu = dev_to_vpmu(dev);
	struct vpmu_uhist *uh = &vpmu->uhist;
	u32 val;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = kstrtou32(buf, 0, &val);
	if (ret)
		return ret;

	mutex_lock(&uh->lock);
	vpmu_machine_uhist_set_interval(&vpmu->machine, val);
	ret = vpmu_uhist_apply_all(&vpmu->machine, false);
	mutex_unlock(&uh->lock);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(interval);

/* ---- reading ----------------------------------------------------------- */

/**
 * struct vpmu_uhist_copy - one CPU's buckets, copied on that CPU
 * @cs_size:	the engines' control-store size
 * @buckets:	room for @cs_size buckets
 * @n:		buckets copied: the attached image's cs_words
 * @checksum:	that image's checksum
 * @generation:	that image's generation
 */
struct vpmu_uhist_copy {
	u32	cs_size;
	u64	*buckets;
	u32	n;
	u32	checksum;
	u64	generation;
};

static void vpmu_uhist_copy_one(struct vpmu_engine *e,
				const struct vpmu_cstore *cs, void *arg)
{
	struct vpmu_uhist_copy *c = arg;
	const u64 *b;
	u32 n;

	if (!cs) {
		/* no run has reached this CPU: its engine has no buckets */
		c->n = 0;
		c->checksum = 0;
		c->generation = 0;
		return;
	}
	b = vpmu_engine_uhist(e, &n);
	c->n = b ? min(n, c->cs_size) : 0;
	if (c->n)
		memcpy(c->buckets, b, sizeof(u64) * c->n);
	c->checksum = vpmu_ucode_header(cs->uc)->checksum;
	c->generation = cs->generation;
}

static void vpmu_uhist_header_fill(struct vpmu_uhist_header *h, u32 cpu,
				   const struct vpmu_uhist_copy *c,
				   u32 interval)
{
	u32 i;

	memset(h, 0, sizeof(*h));
	h->magic = VPMU_UHIST_MAGIC;
	h->version = VPMU_UHIST_VERSION;
	h->header_size = sizeof(*h);
	h->nbuckets = c->n;
	h->interval = interval;
	h->cpu = cpu;
	h->image_checksum = c->checksum;
	h->generation = c->generation;
	for (i = 0; i < c->n; i++)
		h->samples += c->buckets[i];
}

/*
 * A CPU no run has reached has sampled nothing: it reads as the current
 * image with every bucket zero, as every CPU did at load when engines were
 * attached to the first image there, so that the cpuN files of a machine
 * that has run on some CPUs only can still be summed, as tools do.
 */
static void vpmu_uhist_copy_none(struct vpmu_machine *m,
				 struct vpmu_uhist_copy *c)
{
	struct vpmu_cstore *cs = vpmu_cstore_get(m);

	c->n = min(vpmu_ucode_header(cs->uc)->cs_words, c->cs_size);
	c->checksum = vpmu_ucode_header(cs->uc)->checksum;
	c->generation = cs->generation;
	memset(c->buckets, 0, sizeof(u64) * c->n);
	vpmu_cstore_put(cs);
}

/* @cpu's buckets into @s. */
static int vpmu_uhist_snap_cpu(struct vpmu_machine *m,
			       struct vpmu_uhist_snap *s, unsigned int cpu)
{
	struct vpmu_uhist_header *h = (struct vpmu_uhist_header *)s->buf;
	struct vpmu_uhist_copy c = {
		.cs_size = m->cs_size,
		.buckets = (u64 *)(h + 1),
	};
	int ret;

	ret = vpmu_machine_call(m, cpu, vpmu_uhist_copy_one, &c);
	if (ret)
		return ret;
	if (!c.generation)
		vpmu_uhist_copy_none(m, &c);
	vpmu_uhist_header_fill(h, cpu, &c, vpmu_machine_uhist_interval(m));
	s->len = sizeof(*h) + sizeof(u64) * c.n;
	return 0;
}

/*
 * The sum over the CPUs whose engines are attached to the current image;
 * the others hold buckets of an older one, which they zero when they next
 * run (attaching the current image), or none (no run has reached them).
 */
static int vpmu_uhist_snap_sum(struct vpmu *vpmu, struct vpmu_uhist_snap *s)
{
	struct vpmu_machine *m = &vpmu->machine;
	struct vpmu_uhist_header *h = (struct vpmu_uhist_header *)s->buf;
	struct vpmu_uhist_copy sum = { .buckets = (u64 *)(h + 1) };
	struct vpmu_uhist_copy c = {
		.cs_size = m->cs_size,
		.buckets = vpmu->uhist.tmp,
	};
	struct vpmu_cstore *cs = vpmu_cstore_get(m);
	const struct vpmu_image_header *ih = vpmu_ucode_header(cs->uc);
	unsigned int cpu;
	u32 i;
	int ret = 0;

	sum.n = min(ih->cs_words, m->cs_size);
	sum.checksum = ih->checksum;
	sum.generation = cs->generation;
	memset(sum.buckets, 0, sizeof(u64) * sum.n);
	for_each_possible_cpu(cpu) {
		ret = vpmu_machine_call(m, cpu, vpmu_uhist_copy_one, &c);
		if (ret)
			goto out_put;
		if (c.generation != sum.generation || c.n != sum.n)
			continue;
		for (i = 0; i < c.n; i++)
			sum.buckets[i] += c.buckets[i];
	}
	vpmu_uhist_header_fill(h, VPMU_UHIST_CPU_SUM, &sum,
			       vpmu_machine_uhist_interval(m));
	s->len = sizeof(*h) + sizeof(u64) * sum.n;
out_put:
	vpmu_cstore_put(cs);
	return ret;
}

/* A snapshot's buffer: the header and room for cs_size buckets. */
static size_t vpmu_uhist_snap_size(const struct vpmu_machine *m)
{
	return sizeof(struct vpmu_uhist_header) + sizeof(u64) * m->cs_size;
}

/*
 * Take a snapshot of @which (a CPU or VPMU_UHIST_SUM) into slot @s.  The
 * buffers are made at their first use rather than at load, as the
 * engines' buckets are: most machines never read a histogram.  -ENOMEM
 * changes nothing.
 */
static int vpmu_uhist_snap(struct vpmu *vpmu, struct vpmu_uhist_snap *s,
			   int which)
{
	struct vpmu_machine *m = &vpmu->machine;
	struct vpmu_uhist *uh = &vpmu->uhist;

	if (!s->buf)
		s->buf = kvzalloc(vpmu_uhist_snap_size(m), GFP_KERNEL);
	if (!uh->tmp && which == VPMU_UHIST_SUM)
		uh->tmp = kvcalloc(m->cs_size, sizeof(u64), GFP_KERNEL);
	if (!s->buf || (!uh->tmp && which == VPMU_UHIST_SUM))
		return -ENOMEM;
	s->cookie = 0;
	if (which == VPMU_UHIST_SUM)
		return vpmu_uhist_snap_sum(vpmu, s);
	return vpmu_uhist_snap_cpu(m, s, which);
}

/*
 * Which open file is reading.  A bin attribute has no open or release
 * hook, and a struct file's memory is reused by later opens, so an open
 * file is known by a cookie, given at its first read and kept in its
 * kernfs open file's @priv: sysfs leaves that field to the attribute
 * (fs/sysfs/file.c uses the node's priv, never the open file's, from 6.1
 * through 7.x) and kernfs zeroes it at open and frees it at release, so
 * the cookie lives and dies with the open file.  Cookies count up from 1
 * and are never reused (an unsigned long: 64 bits on the kernels vpmu
 * supports).  A kernfs file's private_data is its seq_file, whose
 * private is the kernfs open file.
 */
static unsigned long *vpmu_uhist_cookie(struct file *file)
{
	struct seq_file *sf = file->private_data;
	struct kernfs_open_file *of = sf->private;

	return (unsigned long *)&of->priv;
}

/* The slot of the snapshot of the file with @cookie, or NULL. */
static struct vpmu_uhist_snap *vpmu_uhist_find(struct vpmu_uhist *uh,
					       unsigned long cookie)
{
	struct vpmu_uhist_snap *s;

	if (!cookie)
		return NULL;
	for (s = uh->snaps; s < uh->snaps + VPMU_UHIST_SNAPS; s++)
		if (s->cookie == cookie)
			return s;
	return NULL;
}

/* A snapshot unused for this long is taken to be abandoned. */
#define VPMU_UHIST_IDLE		HZ

/*
 * The slot for a new snapshot: a free one; else the least recently used
 * of those read to the end; else the least recently used one if it has
 * been idle for VPMU_UHIST_IDLE; else the newest.  Readers still reading
 * keep their snapshots, the oldest first, so that however many read at
 * once, all but one of the slots go on to be read to the end: there is
 * no round in which every reader loses its snapshot to the next.
 */
static struct vpmu_uhist_snap *vpmu_uhist_victim(struct vpmu_uhist *uh)
{
	struct vpmu_uhist_snap *s, *done = NULL, *lru = NULL, *newest = NULL;

	for (s = uh->snaps; s < uh->snaps + VPMU_UHIST_SNAPS; s++) {
		if (!s->cookie)
			return s;
		if (s->done && (!done || s->stamp < done->stamp))
			done = s;
		if (!lru || s->stamp < lru->stamp)
			lru = s;
		if (!newest || s->born > newest->born)
			newest = s;
	}
	if (done)
		return done;
	if (time_after(jiffies, lru->used + VPMU_UHIST_IDLE))
		return lru;
	return newest;
}

/**
 * vpmu_uhist_read() - read a cpuN or the sum file
 * @file:	the open file
 * @kobj:	the PMU device's
 * @attr:	the file's attribute; its private is the CPU, or VPMU_UHIST_SUM
 * @buf:	where the bytes go
 * @off:	the offset in the file
 * @count:	bytes asked for
 *
 * A read at offset 0 takes a snapshot for the reading open file; later
 * reads continue it.  A file whose first read is past offset 0 takes a
 * snapshot there.  A file that has taken a snapshot that is no longer
 * kept (its slot went to another file: vpmu_uhist_victim()) reads
 * -ESTALE: reading again from offset 0 takes a new snapshot.
 *
 * Return: bytes read, 0 at the end, -ESTALE, -EPERM, or an error of
 * vpmu_machine_call().
 */
static ssize_t vpmu_uhist_read(struct file *file, struct kobject *kobj,
			       VPMU_BIN_CONST struct bin_attribute *attr,
			       char *buf, loff_t off, size_t count)
{
	struct vpmu *vpmu = kobj_to_vpmu(kobj);
	struct vpmu_uhist *uh = &vpmu->uhist;
	int which = (int)(long)attr->private;
	unsigned long *cookie;
	struct vpmu_uhist_snap *s;
	ssize_t ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	mutex_lock(&uh->snap_lock);
	cookie = vpmu_uhist_cookie(file);
	s = vpmu_uhist_find(uh, *cookie);
	if (off && *cookie && !s) {
		ret = -ESTALE;
		goto out_unlock;
	}
	if (!off || !s) {
		if (!s)
			s = vpmu_uhist_victim(uh);
		ret = vpmu_uhist_snap(vpmu, s, which);
		if (ret)
			goto out_unlock;
		if (!*cookie)
			*cookie = ++uh->cookie;
		s->cookie = *cookie;
		s->born = uh->stamp + 1;
		s->done = false;
	}
	s->stamp = ++uh->stamp;
	s->used = jiffies;
	if (off >= s->len)
		count = 0;
	else
		count = min_t(size_t, count, s->len - off);
	if (!count)
		s->done = true;
	memcpy(buf, s->buf + off, count);
	ret = count;
out_unlock:
	mutex_unlock(&uh->snap_lock);
	return ret;
}

/* ---- the group --------------------------------------------------------- */

static struct attribute *vpmu_uhist_attrs[] = {
	&dev_attr_control.attr,
	&dev_attr_state.attr,
	&dev_attr_interval.attr,
	NULL,
};

static struct bin_attribute *vpmu_uhist_bin_attr(const char *name, int which)
{
	struct bin_attribute *a = kzalloc_obj(*a, GFP_KERNEL);

	if (!a)
		return NULL;
	sysfs_bin_attr_init(a);
	a->attr.name = name;
	a->attr.mode = 0400;
	a->VPMU_BIN_READ = vpmu_uhist_read;
	a->private = (void *)(long)which;
	return a;
}

static void vpmu_uhist_free(struct vpmu_uhist *uh)
{
	VPMU_BIN_CONST struct bin_attribute **a;
	unsigned int i;

	for (a = uh->bin_attrs; a && *a; a++) {
		if ((long)(*a)->private != VPMU_UHIST_SUM)
			kfree((*a)->attr.name);
		kfree(*a);
	}
	kfree(uh->bin_attrs);
	uh->bin_attrs = NULL;
	for (i = 0; i < VPMU_UHIST_SNAPS; i++) {
		kvfree(uh->snaps[i].buf);
		uh->snaps[i].buf = NULL;
		uh->snaps[i].cookie = 0;
	}
	kvfree(uh->tmp);
	uh->tmp = NULL;
}

/* cpuN for every possible CPU, then sum. */
static int vpmu_uhist_bin_attrs_build(struct vpmu_uhist *uh)
{
	unsigned int cpu, n = 0;
	char *name;

	uh->bin_attrs = kcalloc(num_possible_cpus() + 2,
				sizeof(*uh->bin_attrs), GFP_KERNEL);
	if (!uh->bin_attrs)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		name = kasprintf(GFP_KERNEL, "cpu%u", cpu);
		if (!name)
			return -ENOMEM;
		uh->bin_attrs[n] = vpmu_uhist_bin_attr(name, cpu);
		if (!uh->bin_attrs[n]) {
			kfree(name);
			return -ENOMEM;
		}
		n++;
	}
	uh->bin_attrs[n] = vpmu_uhist_bin_attr("sum", VPMU_UHIST_SUM);
	return uh->bin_attrs[n] ? 0 : -ENOMEM;
}

/**
 * vpmu_uhist_init() - build the uhist/ group; before the PMU registers
 * @vpmu: the device
 *
 * Sampling starts at load when uhist_interval was given, as it always did.
 * The snapshots' buffers come with the first reads (vpmu_uhist_snap()).
 *
 * Return: 0 or -ENOMEM.
 */
int vpmu_uhist_init(struct vpmu *vpmu)
{
	struct vpmu_machine *m = &vpmu->machine;
	struct vpmu_uhist *uh = &vpmu->uhist;

	mutex_init(&uh->lock);
	mutex_init(&uh->snap_lock);
	if (vpmu_uhist_bin_attrs_build(uh))
		goto out_free;
	uh->stamp = 0;
	uh->group.name = "uhist";
	uh->group.attrs = vpmu_uhist_attrs;
	uh->group.VPMU_GROUP_BIN_ATTRS = uh->bin_attrs;
	vpmu_machine_uhist_set_state(m, vpmu_machine_uhist_interval(m) ?
				     VPMU_UHIST_RUNNING : VPMU_UHIST_OFF);
	return 0;

out_free:
	vpmu_uhist_free(uh);
	return -ENOMEM;
}

/* After the PMU (and so uhist/) is gone. */
void vpmu_uhist_exit(struct vpmu *vpmu)
{
	vpmu->uhist.group.VPMU_GROUP_BIN_ATTRS = NULL;
	vpmu_uhist_free(&vpmu->uhist);
	vpmu_machine_uhist_set_state(&vpmu->machine, VPMU_UHIST_OFF);
}
