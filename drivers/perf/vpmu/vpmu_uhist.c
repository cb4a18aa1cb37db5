// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_uhist.c - the PMU device's uhist/ sysfs group: the micro-PC
 * histogram.
 *
 * The buckets live in the engines (one 64-bit bucket per control-store
 * word, allocated with the engine at load); this file only switches
 * sampling on and off and copies buckets out.  The sampling interval K is
 * the uhist_interval module parameter, which uhist/interval reads and
 * writes too.  An engine samples at K while uhist/state is "running" and
 * not at all otherwise; it picks that up at its next run chunk, and at
 * once when a control or interval write reaches it by IPI.
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
 * Documentation/vpmu/histogram.rst is the contract.
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

enum vpmu_uhist_state {
	VPMU_UHIST_OFF,
	VPMU_UHIST_RUNNING,
	VPMU_UHIST_PAUSED,
};

static const char *const vpmu_uhist_state_name[] = {
	[VPMU_UHIST_OFF]	= "off",
	[VPMU_UHIST_RUNNING]	= "running",
	[VPMU_UHIST_PAUSED]	= "paused",
};

/*
 * Open files whose snapshot is kept for reads past offset 0: a reader
 * takes one for as long as it reads, so this many read at once without
 * disturbing each other (histogram.rst).
 */
#define VPMU_UHIST_SNAPS	8
#define VPMU_UHIST_SUM		(-1)

/**
 * struct vpmu_uhist_snap - a histogram file as it read at offset 0
 * @cookie:	the open file it was taken for (vpmu_uhist_cookie()), 0 if
 *		the slot is free
 * @stamp:	when it was last used, in snapshot uses
 * @born:	when it was taken, in snapshot uses
 * @used:	when it was last used, in jiffies
 * @done:	a read at or past its end returned 0
 * @len:	bytes in @buf
 * @buf:	header and buckets; room for cs_size buckets
 */
struct vpmu_uhist_snap {
	unsigned long		cookie;
	u64			stamp;
	u64			born;
	unsigned long		used;
	bool			done;
	size_t			len;
	u8			*buf;
};

/**
 * struct vpmu_uhist - the histogram's module-wide state
 * @lock:	serialises control and interval writes, so that the state
 *		each engine is brought to is the last one written
 * @state:	enum vpmu_uhist_state; read by run chunks without a lock
 * @snap_lock:	protects @snaps, @stamp, @cookie, @tmp and the cookies in
 *		the open files
 * @snaps:	snapshots of open files
 * @stamp:	counts snapshot uses
 * @cookie:	the last cookie given to an open file
 * @tmp:	one CPU's buckets, while summing
 */
struct vpmu_uhist {
	struct mutex		lock;		/* serialises writers */
	int			state;
	struct mutex		snap_lock;	/* protects the snapshots */
	struct vpmu_uhist_snap	snaps[VPMU_UHIST_SNAPS];
	u64			stamp;
	unsigned long		cookie;
	u64			*tmp;
};

static struct vpmu_uhist vpmu_uhist = {
	.lock		= __MUTEX_INITIALIZER(vpmu_uhist.lock),
	.snap_lock	= __MUTEX_INITIALIZER(vpmu_uhist.snap_lock),
};

/**
 * vpmu_uhist_active_interval() - the interval engines should sample at
 *
 * Context: any; run chunks call it with interrupts disabled.
 * Return: uhist_interval while sampling runs, else 0.
 */
u32 vpmu_uhist_active_interval(void)
{
	if (READ_ONCE(vpmu_uhist.state) != VPMU_UHIST_RUNNING)
		return 0;
	return vpmu_uhist_interval();
}

/* ---- control ----------------------------------------------------------- */

/* vpmu_cpu_engine_call() has applied the new state; zero if asked to. */
static void vpmu_uhist_apply(struct vpmu_engine *e,
			     const struct vpmu_image *img, void *arg)
{
	if (*(bool *)arg)
		vpmu_engine_uhist_reset(e);
}

/* Bring every engine to the current state, zeroing it if @zero. */
static int vpmu_uhist_apply_all(bool zero)
{
	unsigned int cpu;
	int ret;

	for_each_possible_cpu(cpu) {
		ret = vpmu_cpu_engine_call(cpu, vpmu_uhist_apply, &zero);
		if (ret)
			return ret;
	}
	return 0;
}

static ssize_t control_store(struct device *dev,
			     struct device_attribute *attr,
			     const char *buf, size_t count)
{
	struct vpmu_uhist *uh = &vpmu_uhist;
	int state;
	bool zero;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	mutex_lock(&uh->lock);
	state = uh->state;
	if (sysfs_streq(buf, "start")) {
		ret = -EINVAL;
		if (!vpmu_uhist_interval())
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
	WRITE_ONCE(uh->state, state);
	ret = vpmu_uhist_apply_all(zero);
out_unlock:
	mutex_unlock(&uh->lock);
	return ret ? ret : count;
}
static DEVICE_ATTR_WO(control);

static ssize_t state_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  vpmu_uhist_state_name[READ_ONCE(vpmu_uhist.state)]);
}
static DEVICE_ATTR_RO(state);

static ssize_t interval_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", vpmu_uhist_interval());
}

static ssize_t interval_store(struct device *dev,
			      struct device_attribute *attr,
			      const char *buf, size_t count)
{
	struct vpmu_uhist *uh = &vpmu_uhist;
	u32 val;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = kstrtou32(buf, 0, &val);
	if (ret)
		return ret;

	mutex_lock(&uh->lock);
	vpmu_uhist_interval_write(val);
	ret = vpmu_uhist_apply_all(false);
	mutex_unlock(&uh->lock);
	return ret ? ret : count;
}
static DEVICE_ATTR_RW(interval);

/* ---- reading ----------------------------------------------------------- */

/**
 * struct vpmu_uhist_copy - one CPU's buckets, copied on that CPU
 * @buckets:	room for vpmu_cs_size buckets
 * @n:		buckets copied: the attached image's cs_words
 * @checksum:	that image's checksum
 * @generation:	that image's generation
 */
struct vpmu_uhist_copy {
	u64	*buckets;
	u32	n;
	u32	checksum;
	u64	generation;
};

static void vpmu_uhist_copy_one(struct vpmu_engine *e,
				const struct vpmu_image *img, void *arg)
{
	struct vpmu_uhist_copy *c = arg;
	const u64 *b;
	u32 n;

	b = vpmu_engine_uhist(e, &n);
	c->n = b ? min(n, vpmu_cs_size) : 0;
	if (c->n)
		memcpy(c->buckets, b, sizeof(u64) * c->n);
	c->checksum = vpmu_ucode_header(img->uc)->checksum;
	c->generation = img->generation;
}

static void vpmu_uhist_header_fill(struct vpmu_uhist_header *h, u32 cpu,
				   const struct vpmu_uhist_copy *c)
{
	u32 i;

	memset(h, 0, sizeof(*h));
	h->magic = VPMU_UHIST_MAGIC;
	h->version = VPMU_UHIST_VERSION;
	h->header_size = sizeof(*h);
	h->nbuckets = c->n;
	h->interval = vpmu_uhist_interval();
	h->cpu = cpu;
	h->image_checksum = c->checksum;
	h->generation = c->generation;
	for (i = 0; i < c->n; i++)
		h->samples += c->buckets[i];
}

/* @cpu's buckets into @s. */
static int vpmu_uhist_snap_cpu(struct vpmu_uhist_snap *s, unsigned int cpu)
{
	struct vpmu_uhist_header *h = (struct vpmu_uhist_header *)s->buf;
	struct vpmu_uhist_copy c = { .buckets = (u64 *)(h + 1) };
	int ret;

	ret = vpmu_cpu_engine_call(cpu, vpmu_uhist_copy_one, &c);
	if (ret)
		return ret;
	vpmu_uhist_header_fill(h, cpu, &c);
	s->len = sizeof(*h) + sizeof(u64) * c.n;
	return 0;
}

/*
 * The sum over the CPUs whose engines are attached to the current image;
 * the others hold buckets of an older one, which they zero when they next
 * run (attaching the current image).
 */
static int vpmu_uhist_snap_sum(struct vpmu_uhist_snap *s)
{
	struct vpmu_uhist_header *h = (struct vpmu_uhist_header *)s->buf;
	struct vpmu_uhist_copy sum = { .buckets = (u64 *)(h + 1) };
	struct vpmu_uhist_copy c = { .buckets = vpmu_uhist.tmp };
	struct vpmu_image *img = vpmu_image_get();
	const struct vpmu_image_header *ih = vpmu_ucode_header(img->uc);
	unsigned int cpu;
	u32 i;
	int ret = 0;

	sum.n = min(ih->cs_words, vpmu_cs_size);
	sum.checksum = ih->checksum;
	sum.generation = img->generation;
	memset(sum.buckets, 0, sizeof(u64) * sum.n);
	for_each_possible_cpu(cpu) {
		ret = vpmu_cpu_engine_call(cpu, vpmu_uhist_copy_one, &c);
		if (ret)
			goto out_put;
		if (c.generation != sum.generation || c.n != sum.n)
			continue;
		for (i = 0; i < c.n; i++)
			sum.buckets[i] += c.buckets[i];
	}
	vpmu_uhist_header_fill(h, VPMU_UHIST_CPU_SUM, &sum);
	s->len = sizeof(*h) + sizeof(u64) * sum.n;
out_put:
	vpmu_image_put(img);
	return ret;
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
static struct vpmu_uhist_snap *vpmu_uhist_find(unsigned long cookie)
{
	struct vpmu_uhist_snap *s;

	if (!cookie)
		return NULL;
	for (s = vpmu_uhist.snaps; s < vpmu_uhist.snaps + VPMU_UHIST_SNAPS;
	     s++)
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
static struct vpmu_uhist_snap *vpmu_uhist_victim(void)
{
	struct vpmu_uhist_snap *s, *done = NULL, *lru = NULL, *newest = NULL;

	for (s = vpmu_uhist.snaps; s < vpmu_uhist.snaps + VPMU_UHIST_SNAPS;
	     s++) {
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
 *
 * A read at offset 0 takes a snapshot for the reading open file; later
 * reads continue it.  A file whose first read is past offset 0 takes a
 * snapshot there.  A file that has taken a snapshot that is no longer
 * kept (its slot went to another file: vpmu_uhist_victim()) reads
 * -ESTALE: reading again from offset 0 takes a new snapshot.
 *
 * Return: bytes read, 0 at the end, -ESTALE, -EPERM, or an error of
 * vpmu_cpu_engine_call().
 */
static ssize_t vpmu_uhist_read(struct file *file, struct kobject *kobj,
			       VPMU_BIN_CONST struct bin_attribute *attr,
			       char *buf, loff_t off, size_t count)
{
	struct vpmu_uhist *uh = &vpmu_uhist;
	int which = (int)(long)attr->private;
	unsigned long *cookie;
	struct vpmu_uhist_snap *s;
	ssize_t ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	mutex_lock(&uh->snap_lock);
	cookie = vpmu_uhist_cookie(file);
	s = vpmu_uhist_find(*cookie);
	if (off && *cookie && !s) {
		ret = -ESTALE;
		goto out_unlock;
	}
	if (!off || !s) {
		if (!s)
			s = vpmu_uhist_victim();
		s->cookie = 0;
		ret = which == VPMU_UHIST_SUM ? vpmu_uhist_snap_sum(s) :
						vpmu_uhist_snap_cpu(s, which);
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

/* cpuN for every possible CPU, then sum; built at init. */
static VPMU_BIN_CONST struct bin_attribute **vpmu_uhist_bin_attrs;

/* Not const: its bin_attrs are built at init, before the PMU registers. */
struct attribute_group vpmu_uhist_group = {
	.name		= "uhist",
	.attrs		= vpmu_uhist_attrs,
};

static struct bin_attribute *vpmu_uhist_bin_attr(const char *name, int which)
{
	struct bin_attribute *a = kzalloc(sizeof(*a), GFP_KERNEL);

	if (!a)
		return NULL;
	sysfs_bin_attr_init(a);
	a->attr.name = name;
	a->attr.mode = 0400;
	a->VPMU_BIN_READ = vpmu_uhist_read;
	a->private = (void *)(long)which;
	return a;
}

static void vpmu_uhist_free(void)
{
	VPMU_BIN_CONST struct bin_attribute **a;
	unsigned int i;

	for (a = vpmu_uhist_bin_attrs; a && *a; a++) {
		if ((long)(*a)->private != VPMU_UHIST_SUM)
			kfree((*a)->attr.name);
		kfree(*a);
	}
	kfree(vpmu_uhist_bin_attrs);
	vpmu_uhist_bin_attrs = NULL;
	for (i = 0; i < VPMU_UHIST_SNAPS; i++) {
		kvfree(vpmu_uhist.snaps[i].buf);
		vpmu_uhist.snaps[i].buf = NULL;
		vpmu_uhist.snaps[i].cookie = 0;
	}
	kvfree(vpmu_uhist.tmp);
	vpmu_uhist.tmp = NULL;
}

/**
 * vpmu_uhist_init() - build the uhist/ group; before the PMU registers
 *
 * Sampling starts at load when uhist_interval was given, as it always did.
 *
 * Return: 0 or -ENOMEM.
 */
int vpmu_uhist_init(void)
{
	size_t size = sizeof(struct vpmu_uhist_header) +
		      sizeof(u64) * vpmu_cs_size;
	unsigned int cpu, n = 0, i;
	char *name;

	vpmu_uhist_bin_attrs = kcalloc(num_possible_cpus() + 2,
				       sizeof(*vpmu_uhist_bin_attrs),
				       GFP_KERNEL);
	if (!vpmu_uhist_bin_attrs)
		goto out_free;
	for_each_possible_cpu(cpu) {
		name = kasprintf(GFP_KERNEL, "cpu%u", cpu);
		if (!name)
			goto out_free;
		vpmu_uhist_bin_attrs[n] = vpmu_uhist_bin_attr(name, cpu);
		if (!vpmu_uhist_bin_attrs[n]) {
			kfree(name);
			goto out_free;
		}
		n++;
	}
	vpmu_uhist_bin_attrs[n] = vpmu_uhist_bin_attr("sum", VPMU_UHIST_SUM);
	if (!vpmu_uhist_bin_attrs[n])
		goto out_free;
	for (i = 0; i < VPMU_UHIST_SNAPS; i++) {
		vpmu_uhist.snaps[i].buf = kvzalloc(size, GFP_KERNEL);
		if (!vpmu_uhist.snaps[i].buf)
			goto out_free;
	}
	vpmu_uhist.tmp = kvcalloc(vpmu_cs_size, sizeof(u64), GFP_KERNEL);
	if (!vpmu_uhist.tmp)
		goto out_free;
	vpmu_uhist.stamp = 0;
	vpmu_uhist_group.VPMU_GROUP_BIN_ATTRS = vpmu_uhist_bin_attrs;
	WRITE_ONCE(vpmu_uhist.state, vpmu_uhist_interval() ?
		   VPMU_UHIST_RUNNING : VPMU_UHIST_OFF);
	return 0;

out_free:
	vpmu_uhist_free();
	return -ENOMEM;
}

/* After the PMU (and so uhist/) is gone. */
void vpmu_uhist_exit(void)
{
	vpmu_uhist_group.VPMU_GROUP_BIN_ATTRS = NULL;
	vpmu_uhist_free();
	WRITE_ONCE(vpmu_uhist.state, VPMU_UHIST_OFF);
}
