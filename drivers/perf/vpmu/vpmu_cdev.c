// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_cdev.c - /dev/vpmu: run machine code on this CPU's engine.
 *
 * VPMU_IOC_RUN checks the caller's arguments, copies the caller's memory
 * in, has the machine run the program (vpmu_machine_run(), in chunks, on
 * the engine of whatever CPU the task is on) and copies memory and
 * registers back.  Each open file keeps the program its last run left
 * stopped by a TRAP, a break, its budget or a signal, for
 * VPMU_RUN_F_RESUME.
 * VPMU_IOC_SNAPSHOT copies one CPU's counters at one instant.
 * VPMU_IOC_HU_PROGRAM sets the histogram unit's program,
 * VPMU_IOC_HU_GET_PROGRAM reads it back and VPMU_IOC_HU_READ reads its
 * buckets.  Documentation/admin-guide/perf/vpmu.rst, "/dev/vpmu", gives
 * the semantics and the errors of each.
 * Every argument is a struct versioned by its size (vpmu_struct_in()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "vpmu.h"
#include "vpmu_engine.h"
#include "vpmu_machine.h"

static_assert(sizeof(struct vpmu_run) == VPMU_RUN_SIZE_VER1);
/* The outputs: from cycles, right after the inputs of VER0, to regs[]. */
static_assert(offsetof(struct vpmu_run, cycles) ==
	      offsetofend(struct vpmu_run, ext_at));
static_assert(offsetofend(struct vpmu_run, regs) ==
	      offsetof(struct vpmu_run, nbreak));

/*
 * Copy in the caller's versioned struct at @src, whose __u32 size comes
 * first, into @dst, this kernel's struct of @ksize bytes: any size from
 * @ver0 (the first published) up to a page; a shorter struct (an older
 * caller's) is zero-extended; of a longer one, the bytes this kernel does
 * not know must be zero.  The caller's size into @size.  0, -EFAULT,
 * -EINVAL (below @ver0, or unknown bytes not zero) or -E2BIG (over a
 * page).
 */
static int vpmu_struct_in(void *dst, size_t ksize, const void __user *src,
			  u32 ver0, u32 *size)
{
	int ret;

	if (get_user(*size, (const u32 __user *)src))
		return -EFAULT;
	if (*size < ver0)
		return -EINVAL;
	if (*size > PAGE_SIZE)
		return -E2BIG;
	ret = copy_struct_from_user(dst, ksize, src, *size);
	return ret == -E2BIG ? -EINVAL : ret;
}

/**
 * struct vpmu_cdev_file - an open /dev/vpmu, its private_data
 * @vpmu:	the device
 * @lock:	protects @saved (held to take or replace it, never to run)
 * @saved:	the program the file's last run left stopped so that it can
 *		go on (VPMU_RUN_F_RESUME), or empty
 */
struct vpmu_cdev_file {
	struct vpmu		*vpmu;
	struct mutex		lock;	/* protects @saved */
	struct vpmu_run_saved	saved;
};

/*
 * Breakpoints: at most VPMU_RUN_NBREAK, and the entries past nbreak zero,
 * as reserved_in, so that they can mean something one day and a caller
 * whose nbreak leaves one of its breakpoints out hears of it.
 */
static int vpmu_run_check_brk(const struct vpmu_run *run)
{
	unsigned int i;

	if (run->nbreak > VPMU_RUN_NBREAK || run->reserved_in)
		return -EINVAL;
	for (i = run->nbreak; i < VPMU_RUN_NBREAK; i++)
		if (run->brk[i])
			return -EINVAL;
	return 0;
}

/* Everything VPMU_IOC_RUN refuses before running. */
static int vpmu_run_check(const struct vpmu_run *run)
{
	if (run->flags & ~VPMU_RUN_F_ALL)
		return -EINVAL;
	if (vpmu_run_check_brk(run))
		return -EINVAL;
	if (!run->mem || !IS_ALIGNED(run->mem, 8))
		return -EINVAL;
	if (!run->mem_size || run->mem_size % 4 ||
	    run->mem_size > VPMU_PROG_MEM_MAX)
		return -EINVAL;
	if (run->entry % 4 || run->entry > run->mem_size - 4)
		return -EINVAL;
	if (!run->budget || run->budget > VPMU_RUN_BUDGET_MAX)
		return -EINVAL;
	if (run->mode != VPMU_MODE_USER && run->mode != VPMU_MODE_SUPER)
		return -EINVAL;
	return 0;
}

/*
 * VPMU_RUN_F_RESUME takes the file's program into @saved, if it has one
 * of @run's memory size; -EINVAL, changing nothing, if not.
 */
static int vpmu_run_take(struct vpmu_cdev_file *f, const struct vpmu_run *run,
			 struct vpmu_run_saved *saved)
{
	int ret = -EINVAL;

	mutex_lock(&f->lock);
	if (f->saved.cs && f->saved.mem_size == run->mem_size) {
		*saved = f->saved;
		f->saved = (struct vpmu_run_saved){ };
		ret = 0;
	}
	mutex_unlock(&f->lock);
	return ret;
}

/*
 * What the file keeps after a run: @saved (emptied), whatever it kept
 * before freed; with @back, a taken program going back, unless another
 * run has left one since.
 */
static void vpmu_run_keep(struct vpmu_cdev_file *f,
			  struct vpmu_run_saved *saved, bool back)
{
	mutex_lock(&f->lock);
	if (!back || !f->saved.cs)
		swap(*saved, f->saved);
	mutex_unlock(&f->lock);
	vpmu_run_saved_release(saved);
}

/*
 * The outputs (cycles to regs[]) start at zero, but for regs[] as
 * VPMU_RUN_F_REGS gives them; the inputs after them (nbreak, brk[]) stay.
 */
static void vpmu_run_clear_out(struct vpmu_run *run)
{
	size_t from = offsetof(struct vpmu_run, cycles);
	size_t to = run->flags & VPMU_RUN_F_REGS ?
		    offsetof(struct vpmu_run, regs) :
		    offsetofend(struct vpmu_run, regs);

	memset((u8 *)run + from, 0, to - from);
}

static long vpmu_ioctl_run(struct vpmu_cdev_file *f,
			   struct vpmu_run __user *urun)
{
	struct vpmu_run_saved saved = { };
	struct vpmu *vpmu = f->vpmu;
	struct vpmu_run run;
	void __user *umem;
	size_t out;
	u8 *mem;
	u32 size;
	int ret;

	ret = vpmu_struct_in(&run, sizeof(run), urun, VPMU_RUN_SIZE_VER0, &size);
	if (ret)
		return ret;
	/* An older caller's struct is shorter: none of it is written past. */
	out = min_t(size_t, size, sizeof(run));
	ret = vpmu_run_check(&run);
	if (ret)
		return ret;
	if (run.flags & VPMU_RUN_F_RESUME) {
		ret = vpmu_run_take(f, &run, &saved);
		if (ret)
			return ret;
	}
	/*
	 * Nothing is run unless the results can be written back: probe
	 * both destinations by writing back what was just read from them.
	 */
	if (copy_to_user(urun, &run, out)) {
		ret = -EFAULT;
		goto out_keep;
	}
	vpmu_run_clear_out(&run);

	umem = u64_to_user_ptr(run.mem);
	mem = kvmalloc(run.mem_size, VPMU_GFP_USER);
	if (!mem) {
		ret = -ENOMEM;
		goto out_keep;
	}
	if (copy_from_user(mem, umem, run.mem_size) ||
	    copy_to_user(umem, mem, run.mem_size)) {
		ret = -EFAULT;
		goto out_free_mem;
	}

	ret = vpmu_machine_run(&vpmu->machine, &run, mem, &saved);
	if (ret)
		goto out_free_mem;
	/* The run replaces what the file kept, even if copying back fails. */
	vpmu_run_keep(f, &saved, false);

	if (copy_to_user(umem, mem, run.mem_size) ||
	    copy_to_user(urun, &run, out))
		ret = -EFAULT;
out_free_mem:
	kvfree(mem);
out_keep:
	/* A program taken for a run that never ran goes back. */
	if (saved.cs)
		vpmu_run_keep(f, &saved, true);
	return ret;
}

static_assert(sizeof(struct vpmu_snapshot) == VPMU_SNAPSHOT_SIZE_VER0);
static_assert(VPMU_SNAP_COUNTERS == VPMU_NR_COUNTERS_MAX);

/* A CPU number from userspace that names a possible CPU. */
static bool vpmu_cpu_possible(u32 cpu)
{
	return cpu < nr_cpu_ids && cpu_possible(cpu);
}

/*
 * VPMU_IOC_SNAPSHOT: one CPU's counters at one instant (the perf glue's
 * pmu_ops->snapshot does the copy on that CPU).  Reading every event's
 * counts on a CPU is what a CPU-wide perf event may: CAP_PERFMON;
 * clearing changes the engine, as the sysfs writes do: CAP_SYS_ADMIN.
 */
static long vpmu_ioctl_snapshot(struct vpmu *vpmu,
				struct vpmu_snapshot __user *usnap)
{
	struct vpmu_snapshot snap;
	u32 size;
	int ret;

	ret = vpmu_struct_in(&snap, sizeof(snap), usnap,
			     VPMU_SNAPSHOT_SIZE_VER0, &size);
	if (ret)
		return ret;
	if (snap.flags & ~VPMU_SNAP_F_ALL || snap.reserved_in ||
	    !vpmu_cpu_possible(snap.cpu))
		return -EINVAL;
	if (!perfmon_capable())
		return -EACCES;
	if ((snap.flags & VPMU_SNAP_F_CLEAR) && !capable(CAP_SYS_ADMIN))
		return -EPERM;
	/* Nothing is cleared unless the snapshot can be written back. */
	if (copy_to_user(usnap, &snap, sizeof(snap)))
		return -EFAULT;
	memset_after(&snap, 0, reserved_in);
	ret = vpmu->pmu_ops->snapshot(vpmu, snap.cpu,
				      snap.flags & VPMU_SNAP_F_CLEAR, &snap);
	if (ret)
		return ret;
	return copy_to_user(usnap, &snap, sizeof(snap)) ? -EFAULT : 0;
}

static_assert(sizeof(struct vpmu_hu_program) == VPMU_HU_PROGRAM_SIZE_VER0);
static_assert(VPMU_HU_BUCKETS == VPMU_HU_MAX);

/*
 * VPMU_IOC_HU_PROGRAM: the histogram unit's program as a struct (the
 * unit's hu_ops->program sets it).  It changes every engine: CAP_SYS_ADMIN.
 */
static long vpmu_ioctl_hu_program(struct vpmu *vpmu,
				  struct vpmu_hu_program __user *uprog)
{
	struct vpmu_hu_program *prog;
	u32 size;
	long ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	prog = kmalloc_obj(*prog, VPMU_GFP_USER);
	if (!prog)
		return -ENOMEM;
	ret = vpmu_struct_in(prog, sizeof(*prog), uprog,
			     VPMU_HU_PROGRAM_SIZE_VER0, &size);
	if (!ret)
		ret = vpmu->hu_ops->program(vpmu, prog);
	kfree(prog);
	return ret;
}

/*
 * VPMU_IOC_HU_GET_PROGRAM: the program in force, in the caller's struct
 * (at most its size written; its unknown bytes, if longer, zero).  The
 * program is no secret: anyone who may open /dev/vpmu.
 */
static long vpmu_ioctl_hu_get_program(struct vpmu *vpmu,
				      struct vpmu_hu_program __user *uprog)
{
	struct vpmu_hu_program *prog;
	u32 size;
	long ret;

	prog = kmalloc_obj(*prog, VPMU_GFP_USER);
	if (!prog)
		return -ENOMEM;
	ret = vpmu_struct_in(prog, sizeof(*prog), uprog,
			     VPMU_HU_PROGRAM_SIZE_VER0, &size);
	if (!ret) {
		vpmu->hu_ops->get_program(vpmu, prog);
		/* An older caller's struct is shorter: none written past. */
		prog->size = min_t(u32, size, sizeof(*prog));
		if (copy_to_user(uprog, prog, prog->size))
			ret = -EFAULT;
	}
	kfree(prog);
	return ret;
}

static_assert(sizeof(struct vpmu_hu_counts) == VPMU_HU_COUNTS_SIZE_VER0);

/*
 * VPMU_IOC_HU_READ: one CPU's buckets or their sum (the unit's
 * hu_ops->read).  Every CPU's counts, as a CPU-wide perf event reads
 * them: CAP_PERFMON.
 */
static long vpmu_ioctl_hu_read(struct vpmu *vpmu,
			       struct vpmu_hu_counts __user *ucounts)
{
	struct vpmu_hu_counts counts;
	u32 size;
	long ret;

	ret = vpmu_struct_in(&counts, sizeof(counts), ucounts,
			     VPMU_HU_COUNTS_SIZE_VER0, &size);
	if (ret)
		return ret;
	if (counts.reserved ||
	    (counts.cpu != VPMU_HU_CPU_SUM && !vpmu_cpu_possible(counts.cpu)))
		return -EINVAL;
	if (!perfmon_capable())
		return -EACCES;
	ret = vpmu->hu_ops->read(vpmu, &counts);
	if (ret)
		return ret;
	return copy_to_user(ucounts, &counts,
			    min_t(size_t, size, sizeof(counts))) ? -EFAULT : 0;
}

/* An open file's private_data is its struct vpmu_cdev_file. */
static struct vpmu_cdev_file *file_to_cdev_file(struct file *file)
{
	return file->private_data;
}

/* The command is matched by type and number: its size is run.size's job. */
static long vpmu_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) == VPMU_IOC_MAGIC &&
	    _IOC_NR(cmd) == _IOC_NR(VPMU_IOC_RUN))
		return vpmu_ioctl_run(file_to_cdev_file(file),
				      (struct vpmu_run __user *)arg);
	if (_IOC_TYPE(cmd) == VPMU_IOC_MAGIC &&
	    _IOC_NR(cmd) == _IOC_NR(VPMU_IOC_SNAPSHOT))
		return vpmu_ioctl_snapshot(file_to_cdev_file(file)->vpmu,
					   (struct vpmu_snapshot __user *)arg);
	if (_IOC_TYPE(cmd) == VPMU_IOC_MAGIC &&
	    _IOC_NR(cmd) == _IOC_NR(VPMU_IOC_HU_PROGRAM))
		return vpmu_ioctl_hu_program(file_to_cdev_file(file)->vpmu,
					     (struct vpmu_hu_program __user *)arg);
	if (_IOC_TYPE(cmd) == VPMU_IOC_MAGIC &&
	    _IOC_NR(cmd) == _IOC_NR(VPMU_IOC_HU_GET_PROGRAM))
		return vpmu_ioctl_hu_get_program(file_to_cdev_file(file)->vpmu,
						 (struct vpmu_hu_program __user *)arg);
	if (_IOC_TYPE(cmd) == VPMU_IOC_MAGIC &&
	    _IOC_NR(cmd) == _IOC_NR(VPMU_IOC_HU_READ))
		return vpmu_ioctl_hu_read(file_to_cdev_file(file)->vpmu,
					  (struct vpmu_hu_counts __user *)arg);
	return -ENOTTY;
}

/*
 * Opens succeed once the module is up (vpmu_cdev_enable()): a module
 * whose init fails after registering the device is freed, open files or
 * not.
 */
static int vpmu_open(struct inode *inode, struct file *file)
{
	/* misc_open() left the misc device in private_data. */
	struct vpmu *vpmu = container_of(file->private_data, struct vpmu,
					 cdev.misc);
	struct vpmu_cdev_file *f;
	int ret;

	/* Pairs with vpmu_cdev_enable(): all of init is seen done. */
	if (!smp_load_acquire(&vpmu->cdev.live))
		return -ENODEV;
	ret = nonseekable_open(inode, file);
	if (ret)
		return ret;
	f = kzalloc_obj(*f, VPMU_GFP_USER);
	if (!f)
		return -ENOMEM;
	f->vpmu = vpmu;
	mutex_init(&f->lock);
	file->private_data = f;
	return 0;
}

static int vpmu_release(struct inode *inode, struct file *file)
{
	struct vpmu_cdev_file *f = file_to_cdev_file(file);

	vpmu_run_saved_release(&f->saved);
	mutex_destroy(&f->lock);
	kfree(f);
	return 0;
}

/* An open file pins the module (owner), so no run outlives it. */
static const struct file_operations vpmu_fops = {
	.owner		= THIS_MODULE,
	.open		= vpmu_open,
	.release	= vpmu_release,
	.unlocked_ioctl	= vpmu_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
};

int vpmu_cdev_register(struct vpmu *vpmu)
{
	struct miscdevice *misc = &vpmu->cdev.misc;
	int ret;

	misc->minor = MISC_DYNAMIC_MINOR;
	misc->name = "vpmu";
	misc->fops = &vpmu_fops;
	misc->mode = 0666;
	ret = misc_register(misc);
	if (ret)
		pr_err("cannot register /dev/vpmu: %d\n", ret);
	return ret;
}

/* The last step of module init: nothing can fail after it. */
void vpmu_cdev_enable(struct vpmu *vpmu)
{
	/* Pairs with vpmu_open(): init's stores are visible first. */
	smp_store_release(&vpmu->cdev.live, true);
}

void vpmu_cdev_unregister(struct vpmu *vpmu)
{
	misc_deregister(&vpmu->cdev.misc);
}
