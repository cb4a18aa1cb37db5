// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_pmu_sysfs.c - perf glue: the PMU's format/ and events/ files.
 *
 * format/ is generated from the masks attr.config and attr.config1 are
 * decoded with (vpmu_pmu_priv.h); events/ has an alias for every basic
 * event, and one for every tag the current image's event field selects
 * (Documentation/admin-guide/perf/vpmu.rst, "PMU events"), each twice:
 * under its name (cycles, tag1) and under the name it had first, with the
 * PMU's name in front (vpmu_cycles, vpmu_tag1), which scripts use; and one
 * for every tag the image names, under that name (decode).  The histogram
 * unit's buckets are vpmu_hu's (vpmu_pmu_hu.c).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/device.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "vpmu_pmu_priv.h"

struct vpmu_format_attr {
	struct device_attribute attr;
	const char *word;	/* "config" or "config1" */
	u64 field;
};

static ssize_t vpmu_format_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct vpmu_format_attr *fmt = container_of(attr, typeof(*fmt), attr);
	int lo = __ffs64(fmt->field), hi = fls64(fmt->field) - 1;

	if (lo == hi)
		return sysfs_emit(buf, "%s:%d\n", fmt->word, lo);
	return sysfs_emit(buf, "%s:%d-%d\n", fmt->word, lo, hi);
}

#define VPMU_FORMAT_ATTR(_name, _word, _field)				\
	(&((struct vpmu_format_attr[]) {{				\
		.attr = __ATTR(_name, 0444, vpmu_format_show, NULL),	\
		.word = _word,						\
		.field = _field,					\
	}})[0].attr.attr)

static struct attribute *vpmu_format_attrs[] = {
	VPMU_FORMAT_ATTR(event, "config", VPMU_CFG_EVENT),
	VPMU_FORMAT_ATTR(tag, "config", VPMU_CFG_TAG),
	VPMU_FORMAT_ATTR(ctr, "config", VPMU_CFG_CTR),
	VPMU_FORMAT_ATTR(sample_upc, "config", VPMU_CFG_SAMPLE_UPC),
	VPMU_FORMAT_ATTR(trig_ev, "config1", VPMU_CFG1_TRIG_EV),
	VPMU_FORMAT_ATTR(trig_tag, "config1", VPMU_CFG1_TRIG_TAG),
	VPMU_FORMAT_ATTR(trig_mark, "config1", VPMU_CFG1_MARK),
	VPMU_FORMAT_ATTR(frozen, "config1", VPMU_CFG1_FROZEN),
	VPMU_FORMAT_ATTR(freeze_on_ovf, "config1", VPMU_CFG1_FREEZE_ON_OVF),
	VPMU_FORMAT_ATTR(stop_ev, "config1", VPMU_CFG1_STOP_EV),
	VPMU_FORMAT_ATTR(stop_tag, "config1", VPMU_CFG1_STOP_TAG),
	VPMU_FORMAT_ATTR(stop_mark, "config1", VPMU_CFG1_STOP_MARK),
	VPMU_FORMAT_ATTR(trig_ovf, "config1", VPMU_CFG1_TRIG_OVF),
	VPMU_FORMAT_ATTR(stop_ovf, "config1", VPMU_CFG1_STOP_OVF),
	VPMU_FORMAT_ATTR(gate_uhist, "config1", BIT_ULL(55)),
	VPMU_FORMAT_ATTR(gate_hu, "config1", BIT_ULL(56)),
	NULL,
};

const struct attribute_group vpmu_format_group = {
	.name	= "format",
	.attrs	= vpmu_format_attrs,
};

/*
 * An events/ alias: a basic event number, or a tag when @tag is not 0
 * (which a tag name's changes while it is read: READ_ONCE).
 */
struct vpmu_event_attr {
	struct device_attribute attr;
	u16 event;
	u8 tag;
};

static ssize_t vpmu_event_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct vpmu_event_attr *ev = container_of(attr, typeof(*ev), attr);
	u8 tag = READ_ONCE(ev->tag);

	if (tag)
		return sysfs_emit(buf, "tag=%u\n", tag);
	return sysfs_emit(buf, "event=0x%02x\n", ev->event);
}

#define VPMU_EVENT_ATTR(_name, _event, _tag)				\
	(&((struct vpmu_event_attr[]) {{				\
		.attr = {						\
			.attr = { .name = _name, .mode = 0444 },	\
			.show = vpmu_event_show,			\
		},							\
		.event = _event,					\
		.tag = _tag,						\
	}})[0].attr.attr)

/*
 * The engine's alias of a basic event is the old name, "vpmu_" and the
 * name; the name alone is what events/ has first.
 */
#define VPMU_OLD_PREFIX		"vpmu_"
#define VPMU_NEW_NAME(alias)	((alias) + sizeof(VPMU_OLD_PREFIX) - 1)

#define VPMU_BASIC_ATTR(name, alias, ...) \
	VPMU_EVENT_ATTR(VPMU_NEW_NAME(alias), VPMU_EV_##name, 0),
#define VPMU_BASIC_OLD_ATTR(name, alias, ...) \
	VPMU_EVENT_ATTR(alias, VPMU_EV_##name, 0),

/*
 * Counts of occurrences, so no .unit or .scale: perf's defaults (no unit,
 * scale 1) say it.  No description either: perf reads none from sysfs
 * (Documentation/admin-guide/perf/vpmu.rst, "PMU events").  The tags are
 * a group of their own (below).
 */
static struct attribute *vpmu_event_attrs[] = {
	VPMU_EVENT_LIST(VPMU_BASIC_ATTR)
	/* The old names. */
	VPMU_EVENT_LIST(VPMU_BASIC_OLD_ATTR)
	NULL,
};

const struct attribute_group vpmu_events_group = {
	.name	= "events",
	.attrs	= vpmu_event_attrs,
};

/* Does @uc's event field select tag @k (1..VPMU_TAG_MAX)? */
static bool vpmu_ucode_has_tag(const struct vpmu_ucode *uc, unsigned int k)
{
	const struct vpmu_image_header *h = vpmu_ucode_header(uc);

	if (h->ev_mode == VPMU_EVMODE_ONEHOT)
		return k <= h->ev_bits;
	return k < BIT(h->ev_bits);
}

/**
 * vpmu_tag_valid() - is tag @k in the current image's event field?
 * @m:	the machine
 * @k:	a tag, 1..VPMU_TAG_MAX
 *
 * Documentation/admin-guide/perf/vpmu.rst, "PMU events".
 *
 * Context: any context but NMI (takes a reference to the image).
 * Return: true if a microword of the image can select tag @k.
 */
bool vpmu_tag_valid(struct vpmu_machine *m, unsigned int k)
{
	struct vpmu_cstore *cs = vpmu_cstore_get(m);
	bool ok = vpmu_ucode_has_tag(cs->uc, k);

	vpmu_cstore_put(cs);
	return ok;
}

/*
 * events/tagK and events/vpmu_tagK for exactly the tags the current
 * image's event field selects: 1..ev_bits one-hot, 1..2^ev_bits - 1
 * encoded, so up to 255 of each, made here at init rather than spelt out:
 * attribute i < VPMU_TAG_MAX is tag i + 1's name, VPMU_TAG_MAX + i its old
 * one.  They are a second "events" group, in the PMU's attr_update: the
 * perf core adds those of the image in force at registration to the
 * directory the first made, with is_visible.  From then on the loader
 * adds those an image needs before installing it
 * (vpmu_pmu_image_prepare(): an image whose aliases cannot be made is not
 * installed) and removes those it lacks once it is in force
 * (vpmu_pmu_image_changed()), one file at a time: sysfs_update_group()
 * would make every file again, and when one cannot be made it removes them
 * all.  struct vpmu's tag_aliases says which tags have their two files.  A
 * listing may race an install: event_init checks the image in force
 * (vpmu_tag_valid()).
 */
#define VPMU_TAG_ATTRS	(2 * VPMU_TAG_MAX)

static struct vpmu_event_attr vpmu_tag_attr[VPMU_TAG_ATTRS];
static char vpmu_tag_name[VPMU_TAG_ATTRS][sizeof(VPMU_OLD_PREFIX "tag255")];
static struct attribute *vpmu_tag_attrs[VPMU_TAG_ATTRS + 1];

static umode_t vpmu_tag_is_visible(struct kobject *kobj,
				   struct attribute *attr, int i)
{
	unsigned long *tags = kobj_to_vpmu(kobj)->tag_aliases;

	return test_bit(i % VPMU_TAG_MAX, tags) ? attr->mode : 0;
}

static const struct attribute_group vpmu_tag_events_group = {
	.name		= "events",
	.attrs		= vpmu_tag_attrs,
	.is_visible	= vpmu_tag_is_visible,
};

/* The PMU's attr_update: the tag aliases. */
const struct attribute_group *vpmu_attr_update[] = {
	&vpmu_tag_events_group,
	NULL,
};

/**
 * vpmu_tag_attrs_init() - name the tag aliases, before registration
 * @vpmu: the device, its image in force
 *
 * The aliases the perf core makes at registration are the image's.
 */
void vpmu_tag_attrs_init(struct vpmu *vpmu)
{
	unsigned int i;

	bitmap_zero(vpmu->tag_aliases, VPMU_TAG_MAX);
	INIT_LIST_HEAD(&vpmu->tag_names);
	for (i = 0; i < VPMU_TAG_ATTRS; i++) {
		struct vpmu_event_attr *ev = &vpmu_tag_attr[i];
		unsigned int k = i % VPMU_TAG_MAX + 1;

		snprintf(vpmu_tag_name[i], sizeof(vpmu_tag_name[i]), "%stag%u",
			 i < VPMU_TAG_MAX ? "" : VPMU_OLD_PREFIX, k);
		sysfs_attr_init(&ev->attr.attr);
		ev->attr.attr.name = vpmu_tag_name[i];
		ev->attr.attr.mode = 0444;
		ev->attr.show = vpmu_event_show;
		ev->tag = k;
		vpmu_tag_attrs[i] = &ev->attr.attr;
	}
	for (i = 0; i < VPMU_TAG_MAX; i++)
		if (vpmu_tag_valid(&vpmu->machine, i + 1))
			__set_bit(i, vpmu->tag_aliases);
}

/* Remove tag @i + 1's two files, or those of them there are. */
static void vpmu_tag_remove(struct kobject *kobj, unsigned int i)
{
	sysfs_remove_file_from_group(kobj, vpmu_tag_attrs[i], "events");
	sysfs_remove_file_from_group(kobj, vpmu_tag_attrs[VPMU_TAG_MAX + i],
				     "events");
}

/* Add tag @i + 1's two files: 0, or a negative errno with neither added. */
static int vpmu_tag_add(struct kobject *kobj, unsigned int i)
{
	int ret;

	ret = sysfs_add_file_to_group(kobj, vpmu_tag_attrs[i], "events");
	if (ret)
		return ret;
	ret = sysfs_add_file_to_group(kobj, vpmu_tag_attrs[VPMU_TAG_MAX + i],
				      "events");
	if (ret)
		sysfs_remove_file_from_group(kobj, vpmu_tag_attrs[i], "events");
	return ret;
}

/*
 * events/NAME for every tag an image names (struct vpmu_image_tag):
 * allocated, each its own file, added and removed in the steps of the
 * tag aliases (above), one file at a time, under the loader's lock:
 * those of an image, but the names events/ has, before it is installed
 * (vpmu_tag_names_add()), and once it is, or failed to be, those of
 * the names the image in force lacks removed, those of its names set to
 * its tags (vpmu_pmu_image_changed()).  A name that stays but changes
 * its tag shows the old one until then, as a tag alias shows a tag the
 * image lacks (event_init checks the image in force).  The validator
 * has made sure no name is one events/ has besides.  sysfs waits for a
 * file's readers as it removes it: then it is freed.
 */
struct vpmu_tag_name_attr {
	struct vpmu_event_attr ev;
	struct list_head node;
	char name[VPMU_TAG_NAME_MAX];
};

static struct vpmu_tag_name_attr *vpmu_tag_name_find(struct list_head *l,
						     const char *name)
{
	struct vpmu_tag_name_attr *a;

	list_for_each_entry(a, l, node)
		if (!strcmp(a->name, name))
			return a;
	return NULL;
}

/* Remove and free the files of @l (with @remove: still in events/). */
static void vpmu_tag_names_drop(struct kobject *kobj, struct list_head *l,
				bool remove)
{
	struct vpmu_tag_name_attr *a, *tmp;

	list_for_each_entry_safe(a, tmp, l, node) {
		if (remove)
			sysfs_remove_file_from_group(kobj, &a->ev.attr.attr,
						     "events");
		list_del(&a->node);
		kfree(a);
	}
}

/* A new events/@name for tag @k, on @l; 0 or a negative errno. */
static int vpmu_tag_name_add(struct kobject *kobj, struct list_head *l,
			     const char *name, unsigned int k)
{
	struct vpmu_tag_name_attr *a = kzalloc(sizeof(*a), GFP_KERNEL);
	int ret;

	if (!a)
		return -ENOMEM;
	strscpy(a->name, name, sizeof(a->name));
	sysfs_attr_init(&a->ev.attr.attr);
	a->ev.attr.attr.name = a->name;
	a->ev.attr.attr.mode = 0444;
	a->ev.attr.show = vpmu_event_show;
	a->ev.tag = k;
	ret = sysfs_add_file_to_group(kobj, &a->ev.attr.attr, "events");
	if (ret) {
		kfree(a);
		return ret;
	}
	list_add_tail(&a->node, l);
	return 0;
}

/*
 * Add events/NAME for each name of @uc events/ lacks, onto @added: 0, or
 * a negative errno with none added.
 */
static int vpmu_tag_names_add(struct vpmu *vpmu, const struct vpmu_ucode *uc,
			      struct list_head *added)
{
	struct kobject *kobj = &vpmu->pmu.dev->kobj;
	const char *name;
	unsigned int k;
	int ret = 0;
	u32 i;

	for (i = 0; !ret && (name = vpmu_ucode_tag(uc, i, &k)); i++)
		if (!vpmu_tag_name_find(&vpmu->tag_names, name))
			ret = vpmu_tag_name_add(kobj, added, name, k);
	if (ret)
		vpmu_tag_names_drop(kobj, added, true);
	return ret;
}

/*
 * The names of the image in force: drop the files of those it lacks, set
 * the others' tags to its own.
 */
static void vpmu_tag_names_changed(struct vpmu *vpmu,
				   const struct vpmu_ucode *uc)
{
	struct vpmu_tag_name_attr *a, *tmp;
	LIST_HEAD(gone);
	const char *name;
	unsigned int k;
	u32 i;

	list_for_each_entry_safe(a, tmp, &vpmu->tag_names, node) {
		for (i = 0; (name = vpmu_ucode_tag(uc, i, &k)); i++)
			if (!strcmp(name, a->name))
				break;
		if (name)
			WRITE_ONCE(a->ev.tag, k);
		else
			list_move_tail(&a->node, &gone);
	}
	vpmu_tag_names_drop(&vpmu->pmu.dev->kobj, &gone, true);
}

/**
 * vpmu_tag_names_init() - events/NAME for the image in force, once
 *	registered
 * @vpmu: the device, its PMU just registered
 *
 * Under the loader's lock, as a load's: one may have begun already.
 *
 * Context: process context; may sleep.
 * Return: 0, or a negative errno (-ENOMEM) with no file added.
 */
int vpmu_tag_names_init(struct vpmu *vpmu)
{
	struct vpmu_cstore *cs;
	LIST_HEAD(added);
	int ret;

	mutex_lock(&vpmu->loader.lock);
	cs = vpmu_cstore_get(&vpmu->machine);
	ret = vpmu_tag_names_add(vpmu, cs->uc, &added);
	vpmu_cstore_put(cs);
	list_splice_tail(&added, &vpmu->tag_names);
	mutex_unlock(&vpmu->loader.lock);
	return ret;
}

/**
 * vpmu_tag_names_exit() - free the events/NAME files' attributes
 * @vpmu: the device, its PMU unregistered: its directory and files gone,
 *	no load under way or to come
 */
void vpmu_tag_names_exit(struct vpmu *vpmu)
{
	vpmu_tag_names_drop(NULL, &vpmu->tag_names, false);
}

/**
 * vpmu_pmu_image_prepare() - add the events/ aliases an image needs
 * @vpmu: the device
 * @uc:	the image about to be installed
 *
 * Adds the tag aliases of @uc's event field that events/ lacks.  Those of
 * the image in force that @uc lacks stay until vpmu_pmu_image_changed().
 * The device's pmu_ops->image_prepare: called by the loader before it
 * installs @uc, serialised by its lock.
 *
 * Context: process context; may sleep.
 * Return: 0, or a negative errno (-ENOMEM) with no alias added.
 */
int vpmu_pmu_image_prepare(struct vpmu *vpmu, const struct vpmu_ucode *uc)
{
	struct kobject *kobj = &vpmu->pmu.dev->kobj;
	DECLARE_BITMAP(added, VPMU_TAG_MAX);
	LIST_HEAD(names);
	unsigned int i;
	int ret;

	ret = vpmu_tag_names_add(vpmu, uc, &names);
	if (ret)
		return ret;
	bitmap_zero(added, VPMU_TAG_MAX);
	for (i = 0; i < VPMU_TAG_MAX; i++) {
		if (test_bit(i, vpmu->tag_aliases) ||
		    !vpmu_ucode_has_tag(uc, i + 1))
			continue;
		ret = vpmu_tag_add(kobj, i);
		if (ret)
			break;
		__set_bit(i, added);
	}
	if (ret) {
		for_each_set_bit(i, added, VPMU_TAG_MAX)
			vpmu_tag_remove(kobj, i);
		vpmu_tag_names_drop(kobj, &names, true);
		return ret;
	}
	bitmap_or(vpmu->tag_aliases, vpmu->tag_aliases, added, VPMU_TAG_MAX);
	list_splice_tail(&names, &vpmu->tag_names);
	return 0;
}

/**
 * vpmu_pmu_image_changed() - remove the events/ aliases the image lacks
 * @vpmu: the device
 *
 * After an install, or a failed one (whose vpmu_pmu_image_prepare() added
 * aliases the image in force lacks): events/ then shows exactly the tags
 * of the image in force.  The device's pmu_ops->image_changed: called by
 * the loader, serialised by its lock.
 *
 * Context: process context; may sleep.
 */
void vpmu_pmu_image_changed(struct vpmu *vpmu)
{
	struct kobject *kobj = &vpmu->pmu.dev->kobj;
	struct vpmu_cstore *cs = vpmu_cstore_get(&vpmu->machine);
	unsigned int i;

	for_each_set_bit(i, vpmu->tag_aliases, VPMU_TAG_MAX) {
		if (vpmu_ucode_has_tag(cs->uc, i + 1))
			continue;
		vpmu_tag_remove(kobj, i);
		__clear_bit(i, vpmu->tag_aliases);
	}
	vpmu_tag_names_changed(vpmu, cs->uc);
	vpmu_cstore_put(cs);
}
