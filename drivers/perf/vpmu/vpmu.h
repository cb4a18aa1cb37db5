/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu.h - the vpmu device and its front ends.
 *
 * The driver is four layers; each uses only the ones below it, and the
 * machine reaches the layer above only through the ops the perf glue
 * registers (struct vpmu_machine_ops):
 *
 *   main      vpmu_main.c      module parameters; creates the device and
 *                              tears it down
 *   front     vpmu.h           the device, struct vpmu
 *   ends      vpmu_pmu*.c      perf glue (vpmu_pmu_priv.h lists its files)
 *             vpmu_cdev.c      /dev/vpmu: running programs on the engines
 *             vpmu_loader.c    sysfs: ucode/ (the image loader)
 *             vpmu_caps.c      sysfs: caps/ (what the engines have)
 *             vpmu_uhist.c     sysfs: uhist/ (the micro-PC histogram)
 *             vpmu_hu.c        sysfs: hist/ (the histogram unit)
 *   machine   vpmu_machine.h   per-CPU engines, images, runs, overflow
 *                              interrupts (vpmu_machine*.c,
 *                              vpmu_default_image.c)
 *   core      vpmu_engine.h    the portable engine core (engine/) and
 *                              the histogram unit's program as the uapi
 *                              struct (vpmu_hu_uapi.c)
 *
 * No file calls or includes anything of a layer above its own, and no
 * front end calls or includes anything of another but this header
 * (struct vpmu_pmu_ops).
 */
#ifndef _VPMU_H
#define _VPMU_H

#include <linux/device.h>
#include <linux/list.h>
#include <linux/miscdevice.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/sysfs.h>
#include <linux/types.h>

#include "vpmu_compat.h"
#include "vpmu_hu_uapi.h"
#include "vpmu_machine.h"

/* Bytes of the header needed to know how long the image is. */
#define VPMU_LOADER_HEAD_LEN	offsetofend(struct vpmu_image_header, \
					    total_size)

enum vpmu_load_status {
	VPMU_LOAD_OK,
	VPMU_LOAD_REJECTED,
	VPMU_LOAD_INCOMPLETE,
};

/**
 * struct vpmu_loader - ucode/: the image being written to ucode/image
 * @lock:	serialises loaders (ucode/image writes, ucode/load_default)
 *		and protects every field below
 * @head:	the first bytes of an image, until total_size is known
 * @buf:	the image being assembled, @total bytes; allocated once
 *		total_size is known and sane
 * @len:	bytes received so far
 * @total:	the header's total_size, 0 until known
 * @status:	outcome of the last load, or a partial image pending
 * @error:	why the last image was rejected; empty otherwise
 */
struct vpmu_loader {
	struct mutex		lock;		/* serialises loaders */
	u8			head[VPMU_LOADER_HEAD_LEN];
	u8			*buf;
	size_t			len;
	u32			total;
	enum vpmu_load_status	status;
	char			error[256];
};

/*
 * Open files whose micro-PC histogram snapshot is kept for reads past
 * offset 0: a reader takes one for as long as it reads, so this many
 * read at once without disturbing each other.
 */
#define VPMU_UHIST_SNAPS	8

/**
 * struct vpmu_uhist_snap - a histogram file as it read at offset 0
 * @cookie:	the open file it was taken for (vpmu_uhist_cookie()), 0 if
 *		the slot is free
 * @stamp:	when it was last used, in snapshot uses
 * @born:	when it was taken, in snapshot uses
 * @used:	when it was last used, in jiffies
 * @done:	a read at or past its end returned 0
 * @len:	bytes in @buf
 * @buf:	header and buckets; room for cs_size buckets, or NULL until
 *		the slot is first used
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
 * struct vpmu_uhist - uhist/: the micro-PC histogram's files
 * @bin_attrs:	cpuN for every possible CPU, then sum; built at init
 * @group:	the group, with @bin_attrs
 * @lock:	serialises control and interval writes, so that the state
 *		each engine is brought to is the last one written
 * @snap_lock:	protects @snaps, @stamp, @cookie, @tmp and the cookies in
 *		the open files
 * @snaps:	snapshots of open files
 * @stamp:	counts snapshot uses
 * @cookie:	the last cookie given to an open file
 * @tmp:	one CPU's buckets, while summing; NULL until the first sum
 */
struct vpmu_uhist {
	VPMU_BIN_CONST struct bin_attribute **bin_attrs;
	struct attribute_group	group;
	struct mutex		lock;		/* serialises writers */
	struct mutex		snap_lock;	/* protects the snapshots */
	struct vpmu_uhist_snap	snaps[VPMU_UHIST_SNAPS];
	u64			stamp;
	unsigned long		cookie;
	u64			*tmp;
};

/**
 * struct vpmu_hu - the histogram unit's program and hist/'s files
 * @lock:	serialises program changes and the reads that walk the
 *		engines, so that every engine has the program in @prog
 * @prog:	the program in force on every engine (n == 0: off)
 * @error:	why the last rejected change was rejected; empty otherwise
 * @group:	hist/: control and error
 */
struct vpmu_hu {
	struct mutex		lock;		/* serialises engine changes */
	struct vpmu_hu_prog	prog;
	char			error[VPMU_HU_ERR_MAX + 32];
	struct attribute_group	group;
};

/**
 * struct vpmu_cdev - /dev/vpmu
 * @misc:	the misc device (an open file's private_data is its own,
 *		vpmu_cdev.c's struct vpmu_cdev_file)
 * @live:	opens succeed once the module is up (vpmu_cdev_enable())
 */
struct vpmu_cdev {
	struct miscdevice	misc;
	bool			live;
};

/* format, events, ucode, caps, uhist, hist */
#define VPMU_NR_ATTR_GROUPS	6

struct vpmu;
struct vpmu_pmu_cpu;
struct vpmu_ucode;

/**
 * struct vpmu_pmu_ops - what the perf glue does for the other front ends
 * @image_prepare: an image is about to be installed: add the events/
 *		aliases of the tags it has that are not there; 0, or an
 *		errno with none added, and the image is not installed (the
 *		loader, under its lock; process context)
 * @image_changed: an image was installed, or an install failed: remove
 *		the events/ aliases of the tags the image in force lacks
 *		(the loader, under its lock; process context)
 * @snapshot:	VPMU_IOC_SNAPSHOT: fill @out with @cpu's counters at one
 *		instant, then clear those that may be if @clear (/dev/vpmu,
 *		which checked the request; process context); 0 or an errno
 *
 * Front ends do not call one another's functions: what one needs of
 * another goes through the device, and this is the perf glue's part of
 * it.  The glue fills it in (vpmu_pmu_register()) before the PMU, and
 * with it ucode/, is registered and before /dev/vpmu takes opens.
 */
struct vpmu_pmu_ops {
	int	(*image_prepare)(struct vpmu *vpmu,
				 const struct vpmu_ucode *uc);
	void	(*image_changed)(struct vpmu *vpmu);
	int	(*snapshot)(struct vpmu *vpmu, unsigned int cpu, bool clear,
			    struct vpmu_snapshot *out);
};

/**
 * struct vpmu_hu_ops - what the histogram unit does for the other front ends
 * @program:	VPMU_IOC_HU_PROGRAM: set @u (its size and the caller's
 *		privilege checked) on every engine; 0, -EINVAL for a program
 *		it refuses (hist/error says why), or another errno, and
 *		nothing changed
 * @get_program: VPMU_IOC_HU_GET_PROGRAM: the program in force into @u
 * @read:	VPMU_IOC_HU_READ: @out->cpu's buckets (checked possible), or
 *		with VPMU_HU_CPU_SUM their sum, into @out->nr and @out->count;
 *		0 or an errno
 *
 * All three from /dev/vpmu, in process context.  Filled in by
 * vpmu_hu_init(), before /dev/vpmu takes opens.
 */
struct vpmu_hu_ops {
	int	(*program)(struct vpmu *vpmu, const struct vpmu_hu_program *u);
	void	(*get_program)(struct vpmu *vpmu, struct vpmu_hu_program *u);
	int	(*read)(struct vpmu *vpmu, struct vpmu_hu_counts *out);
};

/**
 * struct vpmu - the device: one per module, made by vpmu_main.c
 * @pmu:	the perf PMU "vpmu"; its device carries the sysfs groups
 * @hu_pmu:	the perf PMU "vpmu_hu": the histogram unit's buckets
 * @machine:	the engines and the image they run
 * @pmu_cpu:	each CPU's counters as perf uses them (vpmu_pmu_priv.h)
 * @pmu_ops:	what the perf glue does for the other front ends
 * @loader:	ucode/
 * @uhist:	uhist/
 * @hu:		hist/
 * @hu_ops:	what the histogram unit does for the other front ends
 * @cdev:	/dev/vpmu
 * @attr_groups: the PMU device's sysfs groups, NULL-terminated
 * @gated:	freeze controls gating the micro-PC histogram and the
 *		histogram unit (config1 gate_uhist, gate_hu;
 *		vpmu_pmu_freeze.c)
 * @tag_aliases: the events/vpmu_tagK files there are, bit K - 1 (the
 *		perf glue's, vpmu_pmu_sysfs.c; changed under the loader's
 *		lock)
 * @tag_names:	the events/NAME files of the tags an image names, a list
 *		of the perf glue's struct vpmu_tag_name_attr (as
 *		@tag_aliases)
 */
struct vpmu {
	struct pmu			pmu;
	struct pmu			hu_pmu;
	struct vpmu_machine		machine;
	struct vpmu_pmu_cpu __percpu	*pmu_cpu;
	const struct vpmu_pmu_ops	*pmu_ops;
	struct vpmu_loader		loader;
	struct vpmu_uhist		uhist;
	struct vpmu_hu			hu;
	const struct vpmu_hu_ops	*hu_ops;
	struct vpmu_cdev		cdev;
	const struct attribute_group	*attr_groups[VPMU_NR_ATTR_GROUPS + 1];
	atomic_t			gated[2];
	DECLARE_BITMAP(tag_aliases, VPMU_TAG_MAX);
	struct list_head		tag_names;
};

static inline struct vpmu *to_vpmu(struct pmu *pmu)
{
	return container_of(pmu, struct vpmu, pmu);
}

/* The device of a sysfs callback: the perf core's drvdata is the PMU. */
static inline struct vpmu *dev_to_vpmu(struct device *dev)
{
	return to_vpmu(dev_get_drvdata(dev));
}

static inline struct vpmu *kobj_to_vpmu(struct kobject *kobj)
{
	return dev_to_vpmu(kobj_to_dev(kobj));
}

static inline struct vpmu *machine_to_vpmu(struct vpmu_machine *m)
{
	return container_of(m, struct vpmu, machine);
}

/* sysfs: ucode/ (vpmu_loader.c). */
extern const struct attribute_group vpmu_ucode_group;
void vpmu_loader_init(struct vpmu *vpmu);
void vpmu_loader_exit(struct vpmu *vpmu);

/* sysfs: caps/ (vpmu_caps.c). */
extern const struct attribute_group vpmu_caps_group;

/* /dev/vpmu (vpmu_cdev.c). */
int vpmu_cdev_register(struct vpmu *vpmu);
void vpmu_cdev_enable(struct vpmu *vpmu);
void vpmu_cdev_unregister(struct vpmu *vpmu);

/* perf glue (vpmu_pmu*.c). */
extern const struct attribute_group vpmu_format_group;
extern const struct attribute_group vpmu_events_group;
int vpmu_pmu_register(struct vpmu *vpmu);
void vpmu_pmu_unregister(struct vpmu *vpmu);

/* The micro-PC histogram's sysfs group (vpmu_uhist.c). */
int vpmu_uhist_init(struct vpmu *vpmu);
void vpmu_uhist_exit(struct vpmu *vpmu);

/* The histogram unit: its hu_ops and sysfs group (vpmu_hu.c). */
void vpmu_hu_init(struct vpmu *vpmu);

#endif /* _VPMU_H */
