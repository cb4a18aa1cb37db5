// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_core.c - the per-CPU engines and the current microcode image.
 *
 * Every possible CPU has one engine, created at load for cs_size
 * control-store words, so that neither a run nor CPU hotplug ever
 * allocates an engine.  An engine is used only on its own CPU with
 * interrupts disabled: by run chunks (vpmu_cpu_engine_get() ..
 * vpmu_cpu_engine_put() inside local_irq_save()) and by perf callbacks,
 * which the perf core calls with interrupts disabled, IPIs included.
 * That is all the serialisation it needs.
 *
 * One image is current.  A run takes a reference to it when it starts and
 * keeps using that image to the end, even if another is installed
 * meanwhile; installing never waits for runs.  Engines are attached to an
 * image lazily, when a run that uses another image reaches them.
 *
 * Every engine holds a reference to the image it is attached to, from
 * module load (when all are attached to the first image) to unload: the
 * engine keeps pointers into that image's microcode, and perf callbacks
 * program the counters of idle engines, so an engine must never point at
 * freed microcode.  Any engine call is safe at any time on that account.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/cpu.h>
#include <linux/err.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include "vpmu.h"
#include "vpmu_engine.h"

/**
 * struct vpmu_cpu - one CPU's engine
 * @engine:	the engine; lives from module load to unload
 * @img:	the image @engine is attached to, a reference; never NULL
 *		between module init and exit
 * @uhist:	the histogram interval last applied to @engine: the
 *		uhist_interval while uhist/state is running, else 0
 *
 * Only used on its own CPU with interrupts disabled: by a run chunk or by a
 * perf callback.  No lock needed.  Init and exit, when nothing runs, touch
 * every CPU's.
 */
struct vpmu_cpu {
	struct vpmu_engine	*engine;
	struct vpmu_image	*img;
	u32			uhist;
};

static DEFINE_PER_CPU(struct vpmu_cpu, vpmu_cpu);

/**
 * struct vpmu_core - the module-wide state
 * @current_image: the image new runs use; holds one reference.  Readers
 *		use RCU (vpmu_image_get()); writers hold @lock.
 * @lock:	serialises image installs: protects @current_image updates
 *		and @generation
 * @generation:	generation of the last image installed
 * @free_wq:	where images are freed; flushed at unload so that no free
 *		runs after the module is gone
 */
struct vpmu_core {
	struct vpmu_image __rcu	*current_image;
	struct mutex		lock;		/* serialises installs */
	u64			generation;
	struct workqueue_struct	*free_wq;
};

static struct vpmu_core vpmu_core = {
	.lock	= __MUTEX_INITIALIZER(vpmu_core.lock),
};

/* ---- images ------------------------------------------------------------ */

static void vpmu_image_free_work(struct work_struct *work)
{
	struct vpmu_image *img = container_of(to_rcu_work(work),
					      struct vpmu_image, free_work);

	vpmu_ucode_free(img->uc);
	kfree(img);
}

/**
 * vpmu_image_get() - take a reference to the current image
 *
 * Context: any; does not sleep.
 * Return: the image, never NULL between module init and exit.
 */
struct vpmu_image *vpmu_image_get(void)
{
	struct vpmu_image *img;

	/*
	 * The image may be replaced, and its last reference dropped, between
	 * reading the pointer and taking the reference.  Its memory stays
	 * valid for the read-side section (it is freed a grace period after
	 * the last put), and a reference that already reached zero is not
	 * revived: read the pointer again, it has moved on.
	 */
	rcu_read_lock();
	do {
		img = rcu_dereference(vpmu_core.current_image);
	} while (!refcount_inc_not_zero(&img->ref));
	rcu_read_unlock();
	return img;
}

/**
 * vpmu_image_put() - drop a reference taken by vpmu_image_get()
 * @img: the image, or NULL
 *
 * Context: any, including with preemption disabled: the image is freed
 * later from a workqueue, since freeing microcode may sleep.
 */
void vpmu_image_put(struct vpmu_image *img)
{
	if (img && refcount_dec_and_test(&img->ref))
		queue_rcu_work(vpmu_core.free_wq, &img->free_work);
}

/**
 * vpmu_image_install() - make a validated image current
 * @uc: the image; ownership passes to the callee, even on failure
 * @generation: if not NULL, set to the new image's generation
 *
 * Runs in progress keep the image they started with; the old image goes
 * when the last of them drops it.
 *
 * Context: process context; may sleep.
 * Return: 0 or -ENOMEM.
 */
int vpmu_image_install(struct vpmu_ucode *uc, u64 *generation)
{
	struct vpmu_image *img, *old;

	img = kzalloc(sizeof(*img), GFP_KERNEL);
	if (!img) {
		vpmu_ucode_free(uc);
		return -ENOMEM;
	}
	img->uc = uc;
	refcount_set(&img->ref, 1);
	INIT_RCU_WORK(&img->free_work, vpmu_image_free_work);

	mutex_lock(&vpmu_core.lock);
	img->generation = ++vpmu_core.generation;
	if (generation)
		*generation = img->generation;
	old = rcu_replace_pointer(vpmu_core.current_image, img,
				  lockdep_is_held(&vpmu_core.lock));
	mutex_unlock(&vpmu_core.lock);

	vpmu_image_put(old);
	return 0;
}

/* ---- engines ----------------------------------------------------------- */

/* Apply the histogram interval in force now, if it changed. */
static void vpmu_cpu_uhist_sync(struct vpmu_cpu *vc)
{
	u32 interval = vpmu_uhist_active_interval();

	if (vc->uhist != interval) {
		vpmu_engine_uhist_set(vc->engine, interval);
		vc->uhist = interval;
	}
}

/**
 * vpmu_cpu_engine_get() - this CPU's engine, ready to run @img
 * @img: the image of the run, referenced by the caller
 *
 * Disables preemption until vpmu_cpu_engine_put(), even on failure; run
 * chunks call it with interrupts disabled.  Attaches the engine to @img if
 * it runs another image, moving the engine's reference from the old image
 * to @img (dropping a reference only queues the free, so this is fine with
 * interrupts off), and applies a changed histogram interval.  Attaching
 * discards the program state on the engine: the caller starts or restores
 * a program next.
 *
 * Return: the engine, or an ERR_PTR if it could not take @img (which
 * cannot happen: every image was validated against the engines' size).
 */
struct vpmu_engine *vpmu_cpu_engine_get(struct vpmu_image *img)
{
	struct vpmu_cpu *vc = get_cpu_ptr(&vpmu_cpu);
	int ret;

	if (vc->img != img) {
		/*
		 * The caller's reference keeps @img alive meanwhile.  The
		 * attach zeroes the histogram unit's buckets: bucket events
		 * take what they counted first and start over from zero.
		 */
		vpmu_pmu_hist_fold(vc->engine);
		ret = vpmu_engine_attach(vc->engine, img->uc);
		vpmu_pmu_hist_rebase(vc->engine);
		if (WARN_ON_ONCE(ret))
			return ERR_PTR(ret);
		refcount_inc(&img->ref);
		vpmu_image_put(vc->img);
		vc->img = img;
	}
	vpmu_cpu_uhist_sync(vc);
	return vc->engine;
}

/**
 * vpmu_cpu_engine_put() - done with this CPU's engine; enables preemption
 */
void vpmu_cpu_engine_put(void)
{
	put_cpu_ptr(&vpmu_cpu);
}

/**
 * vpmu_this_engine() - this CPU's engine, as it is, for the perf glue
 *
 * The engine stays attached to whatever image it has (it holds a
 * reference to it), so its counters can be programmed and read at any
 * time.
 *
 * Context: interrupts disabled, on the engine's CPU (perf callbacks).
 */
struct vpmu_engine *vpmu_this_engine(void)
{
	lockdep_assert_irqs_disabled();
	return this_cpu_ptr(&vpmu_cpu)->engine;
}

struct vpmu_cpu_call {
	vpmu_cpu_fn	fn;
	void		*arg;
};

static void vpmu_cpu_call_here(void *info)
{
	struct vpmu_cpu_call *c = info;
	struct vpmu_cpu *vc = this_cpu_ptr(&vpmu_cpu);

	vpmu_cpu_uhist_sync(vc);
	c->fn(vc->engine, vc->img, c->arg);
}

/**
 * vpmu_cpu_engine_call() - call @fn on @cpu's engine where it may be used
 * @cpu: a possible CPU
 * @fn: called with the engine, the image it is attached to and @arg
 * @arg: for @fn
 *
 * An online CPU's engine is only touched on that CPU with interrupts
 * disabled, so @fn runs there in an IPI, between two run chunks (a chunk
 * keeps interrupts off).  An offline CPU runs nothing: @fn runs here, with
 * CPU hotplug held off.  Before @fn, the engine takes the histogram
 * interval now in force, as its next chunk would; so a uhist/control
 * write takes effect on every engine by the time it returns.
 *
 * Context: process context; may sleep.  @fn must not sleep.
 * Return: 0 or the errno of smp_call_function_single().
 */
int vpmu_cpu_engine_call(unsigned int cpu, vpmu_cpu_fn fn, void *arg)
{
	struct vpmu_cpu_call c = { .fn = fn, .arg = arg };
	unsigned long flags;
	int ret = 0;

	cpus_read_lock();
	if (cpu_online(cpu)) {
		ret = smp_call_function_single(cpu, vpmu_cpu_call_here, &c, 1);
	} else {
		struct vpmu_cpu *vc = per_cpu_ptr(&vpmu_cpu, cpu);

		/* for lockdep's sake as much as anything: @fn expects it */
		local_irq_save(flags);
		vpmu_cpu_uhist_sync(vc);
		fn(vc->engine, vc->img, arg);
		local_irq_restore(flags);
	}
	cpus_read_unlock();
	return ret;
}

/*
 * Nothing is left on an engine when its CPU goes down: a run holds the
 * engine only for one chunk with interrupts disabled and carries on from
 * its saved context wherever it is next, and the perf core removes the
 * CPU's events first.  The engine keeps its image reference while the CPU
 * is away, so it needs no hotplug callback.
 */
static void vpmu_engines_destroy(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct vpmu_cpu *vc = per_cpu_ptr(&vpmu_cpu, cpu);

		vpmu_engine_destroy(vc->engine);
		vc->engine = NULL;
		vpmu_image_put(vc->img);
		vc->img = NULL;
		vc->uhist = 0;
	}
}

/* Create every engine and attach it to @img, taking a reference each. */
static int vpmu_engines_create(struct vpmu_image *img)
{
	unsigned int cpu;
	int ret;

	for_each_possible_cpu(cpu) {
		struct vpmu_cpu *vc = per_cpu_ptr(&vpmu_cpu, cpu);

		vc->engine = vpmu_engine_create(vpmu_cs_size);
		if (!vc->engine) {
			ret = -ENOMEM;
			goto out_destroy;
		}
		ret = vpmu_engine_attach(vc->engine, img->uc);
		if (ret)
			goto out_destroy;
		refcount_inc(&img->ref);
		vc->img = img;
	}
	return 0;

out_destroy:
	vpmu_engines_destroy();
	return ret;
}

/* ---- init and exit ----------------------------------------------------- */

/**
 * vpmu_core_init() - create the engines and make @uc current
 * @uc: the first image (generation 1); ownership passes to the callee,
 *	even on failure
 *
 * Return: 0 or a negative errno.
 */
int vpmu_core_init(struct vpmu_ucode *uc)
{
	struct vpmu_image *img;
	int ret;

	/*
	 * Unbound: freeing an image has no use for locality.  Saying so also
	 * keeps 7.x quiet, which warns about a workqueue that names neither
	 * WQ_PERCPU nor WQ_UNBOUND.
	 */
	vpmu_core.free_wq = alloc_workqueue("vpmu_free", WQ_UNBOUND, 0);
	if (!vpmu_core.free_wq) {
		vpmu_ucode_free(uc);
		return -ENOMEM;
	}

	ret = vpmu_image_install(uc, NULL);
	if (ret)
		goto out_destroy_wq;

	img = rcu_dereference_protected(vpmu_core.current_image, true);
	ret = vpmu_engines_create(img);
	if (ret)
		goto out_put_image;
	return 0;

out_put_image:
	vpmu_image_put(rcu_replace_pointer(vpmu_core.current_image, NULL,
					   true));
	rcu_barrier();
out_destroy_wq:
	destroy_workqueue(vpmu_core.free_wq);
	vpmu_core.generation = 0;
	return ret;
}

/*
 * Called when nothing can run any more: /dev/vpmu, the PMU and the sysfs
 * files are gone.
 */
void vpmu_core_exit(void)
{
	vpmu_engines_destroy();
	vpmu_image_put(rcu_replace_pointer(vpmu_core.current_image, NULL,
					   true));
	/*
	 * The last puts queued the frees behind a grace period: wait for the
	 * grace period to queue them, then for the workqueue to run them.
	 */
	rcu_barrier();
	destroy_workqueue(vpmu_core.free_wq);
	vpmu_core.generation = 0;
}
