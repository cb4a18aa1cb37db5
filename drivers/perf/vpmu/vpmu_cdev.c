// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_cdev.c - /dev/vpmu: run machine code on this CPU's engine.
 *
 * VPMU_IOC_RUN copies the caller's memory in, runs the program in chunks
 * and copies memory and registers back.  A chunk runs on the engine of
 * the CPU the task is on, with interrupts disabled (perf callbacks touch
 * the engine from interrupts; Documentation/vpmu/perf.rst,
 * "Serialisation"); between chunks the
 * program's state lives in a struct vpmu_ctx, off every engine, so the
 * task can be rescheduled, migrated or stopped by a signal there.  The
 * whole run uses the image that was current when it started.
 * Documentation/vpmu/module.rst gives the semantics and the errors.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "vpmu.h"
#include "vpmu_engine.h"
#include "vpmu_machine.h"

/*
 * Cycles per chunk: the longest the CPU runs with interrupts disabled on
 * behalf of one task, and how late a signal is noticed.  Under TCG the
 * engine was measured at about 19 million cycles a second (a tight loop on
 * a 6.1 guest), so 5000 cycles are about a quarter of a millisecond there
 * and far less natively, while the per-chunk cost (context save and
 * restore, a signal check) stays small next to 5000 cycles of work.
 */
#define VPMU_RUN_CHUNK	5000

/*
 * Overflow stops per chunk.  Cycles bound a chunk's engine work, but not
 * the perf work of its overflow stops: each raises the lines of the
 * counters that wrapped and may take a sample per counter, and with every
 * counter sampling at period 1 a 5000-cycle chunk had a stop on every
 * microword.  After this many stops the chunk ends (the run goes on in
 * the next one, exactly as a chunk that ends on its budget), so that
 * the longest a chunk keeps interrupts off is bounded in work whatever
 * perf asks: Documentation/vpmu/perf.rst, "Serialisation", has the
 * numbers it was chosen by.
 */
#ifndef VPMU_RUN_CHUNK_STOPS	/* make chunk-bench sets it for a baseline */
#define VPMU_RUN_CHUNK_STOPS	16
#endif

#ifdef VPMU_BENCH_CHUNK_TIME
/*
 * make chunk-bench only (KCFLAGS=-DVPMU_BENCH_CHUNK_TIME): the longest
 * chunk since the parameters were last written, in ns with interrupts
 * off and in overflow stops.  Never in a normal build.
 */
static unsigned long vpmu_bench_chunk_ns, vpmu_bench_chunk_stops;
module_param_named(bench_chunk_ns, vpmu_bench_chunk_ns, ulong, 0644);
module_param_named(bench_chunk_stops, vpmu_bench_chunk_stops, ulong, 0644);
#endif

static_assert(sizeof(struct vpmu_run) == VPMU_RUN_SIZE_VER0);

/**
 * struct vpmu_runner - one VPMU_IOC_RUN in progress
 * @vpmu:	the device
 * @run:	the caller's arguments; the results are filled in
 * @img:	the image the whole run uses (a reference)
 * @ctx:	the program's state between chunks
 * @mem:	the program's memory, a kernel copy
 * @left:	cycles of the budget not used yet
 * @started:	the first chunk has run (later chunks restore @ctx)
 *
 * Private to the calling task: no locking.
 */
struct vpmu_runner {
	struct vpmu		*vpmu;
	struct vpmu_run		*run;
	struct vpmu_image	*img;
	struct vpmu_ctx		*ctx;
	u8			*mem;
	u64			left;
	bool			started;
};

/* Everything VPMU_IOC_RUN refuses before running, as module.rst lists. */
static int vpmu_run_check(const struct vpmu_run *run)
{
	if (run->flags || run->reserved_in)
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

/* Was that the end of the run?  If so, say why in @run. */
static bool vpmu_run_ended(struct vpmu_runner *r, const struct vpmu_stop *stop)
{
	struct vpmu_run *run = r->run;

	switch (stop->reason) {
	case VPMU_STOP_HALT:
		run->stop = VPMU_RUN_HALT;
		return true;
	case VPMU_STOP_TRAP:
		run->stop = VPMU_RUN_TRAP;
		run->code = stop->code;
		return true;
	case VPMU_STOP_FAULT:
		run->stop = VPMU_RUN_FAULT;
		run->code = stop->code;
		run->addr = stop->addr;
		return true;
	case VPMU_STOP_BUDGET:
	case VPMU_STOP_OVERFLOW:
		/* vpmu_run_engine() never ends a chunk on an overflow. */
		break;
	}
	if (!r->left) {
		run->stop = VPMU_RUN_BUDGET;
		return true;
	}
	if (signal_pending(current)) {
		run->stop = VPMU_RUN_SIGNAL;
		return true;
	}
	return false;
}

/* The program's state at its stop; the engine must still be ours. */
static void vpmu_run_capture(struct vpmu_run *run, struct vpmu_engine *e,
			     const struct vpmu_stop *stop)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(run->regs); i++)
		run->regs[i] = vpmu_engine_reg(e, VPMU_OPND_R0 + i);
	run->pc = vpmu_engine_reg(e, VPMU_OPND_PC);
	run->upc = stop->upc;
	run->ipc = stop->ipc;
	run->mode_out = vpmu_engine_mode(e);
}

/*
 * Run up to @budget cycles on @e, letting the PMU fold every counter wrap
 * in.  An interrupting counter (a sampling event's) stops the engine
 * right after the microword that wrapped it; the PMU takes its sample and
 * the run carries on with what is left of the budget.  Such a stop is not
 * the program's: it ends nothing and may even have used no cycles (a wrap
 * on the microword that halted, reported first), so it is not counted
 * against anything.  With the budget used up the engine is still asked
 * once more, with none left: it then reports a halt or trap of that last
 * microword, or the end of the budget, exactly as it would have without
 * the wrap.  A wrap needs at least one counted event, so the engine cannot
 * report wraps forever without running; the bound only guards against an
 * engine bug.  Counting events' counters wrap freely: the engine counts
 * their wraps, and perf folds them in whenever it reads the event (with
 * only counting events open the engine may even leave the counts in its
 * microwords until then: reading settles them).
 *
 * After VPMU_RUN_CHUNK_STOPS overflow stops the engine is asked with no
 * budget left, as at the budget's end: it reports a halt or trap of the
 * microword it stopped after, or the end of the budget, and the chunk
 * ends there, the run going on in the next chunk with the cycles left.
 */
static void vpmu_run_engine(struct vpmu *vpmu, struct vpmu_engine *e,
			    u64 budget, struct vpmu_stop *stop)
{
	unsigned int idle = 0, stops = 0;
	u64 used = 0;

	for (;;) {
		/*
		 * A stalling microword may overshoot the budget, and an
		 * overflow stop may come right after it: then none is left.
		 */
		vpmu_engine_run(e, stops < VPMU_RUN_CHUNK_STOPS && used < budget ?
				   budget - used : 0, stop);
		used += stop->cycles;
		if (stop->reason != VPMU_STOP_OVERFLOW)
			break;
		vpmu_pmu_overflow(vpmu, e, stop);
		stops++;
#ifdef VPMU_BENCH_CHUNK_TIME
		if (stops > vpmu_bench_chunk_stops)
			vpmu_bench_chunk_stops = stops;
#endif
		idle = stop->cycles ? 0 : idle + 1;
		if (WARN_ON_ONCE(idle > VPMU_NR_COUNTERS_MAX)) {
			stop->reason = VPMU_STOP_BUDGET;
			break;
		}
	}
	stop->cycles = used;
}

/*
 * One chunk on this CPU's engine, with interrupts disabled throughout: the
 * program is put on the engine (started, or restored from @r->ctx), run,
 * and saved off it again before anyone else can use the engine, perf
 * callbacks included.
 *
 * Return: 1 if the run has ended, 0 if it goes on, or a negative errno.
 */
static int vpmu_run_chunk(struct vpmu_runner *r)
{
	struct vpmu_machine *m = &r->vpmu->machine;
	struct vpmu_run *run = r->run;
	struct vpmu_stop stop;
	struct vpmu_engine *e;
	unsigned long flags;
	int ret = 0;
#ifdef VPMU_BENCH_CHUNK_TIME
	u64 t0;
#endif

	local_irq_save(flags);
#ifdef VPMU_BENCH_CHUNK_TIME
	t0 = ktime_get_ns();
#endif
	e = vpmu_cpu_engine_get(m, r->img);
	if (IS_ERR(e)) {
		ret = PTR_ERR(e);
		goto out_put_engine;
	}
	if (r->started) {
		/* The engine runs r->img: restoring cannot be stale. */
		ret = vpmu_engine_ctx_restore(e, r->ctx);
		if (WARN_ON_ONCE(ret))
			goto out_put_engine;
	} else {
		vpmu_engine_start(e, r->mem, run->mem_size, run->entry,
				  run->mode);
		r->started = true;
	}
	/* Triggers toggle the freeze state of current's groups (perf.rst). */
	vpmu_pmu_chunk_begin(r->vpmu, e);
	vpmu_run_engine(r->vpmu, e, min_t(u64, r->left, VPMU_RUN_CHUNK), &stop);
	vpmu_pmu_chunk_end(r->vpmu, e);
	vpmu_engine_ctx_save(e, r->ctx);

	run->cycles += stop.cycles;
	r->left -= min(stop.cycles, r->left);
	if (vpmu_run_ended(r, &stop)) {
		vpmu_run_capture(run, e, &stop);
		ret = 1;
	}
out_put_engine:
	vpmu_cpu_engine_put(m);
#ifdef VPMU_BENCH_CHUNK_TIME
	t0 = ktime_get_ns() - t0;
	if (t0 > vpmu_bench_chunk_ns)
		vpmu_bench_chunk_ns = t0;
#endif
	local_irq_restore(flags);
	return ret;
}

static int vpmu_run_program(struct vpmu_runner *r)
{
	int ret;

	r->img = vpmu_image_get(&r->vpmu->machine);
	r->run->generation = r->img->generation;
	r->ctx = vpmu_ctx_create();
	if (!r->ctx) {
		ret = -ENOMEM;
		goto out_put_image;
	}
	r->left = r->run->budget;
	while (!(ret = vpmu_run_chunk(r)))
		cond_resched();
	if (ret > 0)
		ret = 0;

	vpmu_ctx_destroy(r->ctx);
out_put_image:
	vpmu_image_put(r->img);
	return ret;
}

static long vpmu_ioctl_run(struct vpmu *vpmu, struct vpmu_run __user *urun)
{
	struct vpmu_runner r = { .vpmu = vpmu };
	struct vpmu_run run;
	void __user *umem;
	u32 size;
	int ret;

	if (get_user(size, &urun->size))
		return -EFAULT;
	if (size < VPMU_RUN_SIZE_VER0)
		return -EINVAL;
	if (size > PAGE_SIZE)
		return -E2BIG;
	/* Bytes this kernel does not know must be zero: EINVAL, not E2BIG. */
	ret = copy_struct_from_user(&run, sizeof(run), urun, size);
	if (ret)
		return ret == -E2BIG ? -EINVAL : ret;
	ret = vpmu_run_check(&run);
	if (ret)
		return ret;
	/*
	 * Nothing is run unless the results can be written back: probe
	 * both destinations by writing back what was just read from them.
	 */
	if (copy_to_user(urun, &run, sizeof(run)))
		return -EFAULT;
	/* Nothing of the kernel's stack may reach the caller. */
	memset_after(&run, 0, reserved_in);

	umem = u64_to_user_ptr(run.mem);
	r.run = &run;
	r.mem = kvmalloc(run.mem_size, GFP_KERNEL_ACCOUNT);
	if (!r.mem)
		return -ENOMEM;
	if (copy_from_user(r.mem, umem, run.mem_size) ||
	    copy_to_user(umem, r.mem, run.mem_size)) {
		ret = -EFAULT;
		goto out_free_mem;
	}

	ret = vpmu_run_program(&r);
	if (ret)
		goto out_free_mem;

	if (copy_to_user(umem, r.mem, run.mem_size) ||
	    copy_to_user(urun, &run, sizeof(run)))
		ret = -EFAULT;
out_free_mem:
	kvfree(r.mem);
	return ret;
}

/* An open file's private_data is the misc device (misc_open()). */
static struct vpmu *file_to_vpmu(struct file *file)
{
	return container_of(file->private_data, struct vpmu, cdev.misc);
}

/* The command is matched by type and number: its size is run.size's job. */
static long vpmu_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	if (_IOC_TYPE(cmd) == VPMU_IOC_MAGIC &&
	    _IOC_NR(cmd) == _IOC_NR(VPMU_IOC_RUN))
		return vpmu_ioctl_run(file_to_vpmu(file),
				      (struct vpmu_run __user *)arg);
	return -ENOTTY;
}

/*
 * Opens succeed once the module is up (vpmu_cdev_enable()): a module
 * whose init fails after registering the device is freed, open files or
 * not.
 */
static int vpmu_open(struct inode *inode, struct file *file)
{
	/* Pairs with vpmu_cdev_enable(): all of init is seen done. */
	if (!smp_load_acquire(&file_to_vpmu(file)->cdev.live))
		return -ENODEV;
	return nonseekable_open(inode, file);
}

/* An open file pins the module (owner), so no run outlives it. */
static const struct file_operations vpmu_fops = {
	.owner		= THIS_MODULE,
	.open		= vpmu_open,
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
