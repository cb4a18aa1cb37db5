// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_core.c - the per-CPU engines and the current microcode image.
 *
 * Every possible CPU has one engine, created at load for cs_size
 * control-store words, so that neither a run nor CPU hotplug ever
 * allocates an engine.  An engine is used only on its own CPU with
 * preemption disabled (vpmu_cpu_engine_get() .. vpmu_cpu_engine_put()),
 * which is all the serialisation it needs.
 *
 * One image is current.  A run takes a reference to it when it starts and
 * keeps using that image to the end, even if another is installed
 * meanwhile; installing never waits for runs.  Engines are attached to an
 * image lazily, when a run that uses another image reaches them.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/cpuhotplug.h>
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "vpmu.h"
#include "vpmu_engine.h"

/**
 * struct vpmu_cpu - one CPU's engine
 * @engine:	the engine; lives from module load to unload
 * @generation:	generation of the image @engine is attached to, 0 for none.
 *		The engine keeps a pointer to that image's microcode, which
 *		may have been freed since; only @generation is ever compared,
 *		and the engine is attached again before it runs.
 * @uhist:	the uhist_interval last applied to @engine
 *
 * Only used on its own CPU with preemption disabled: by a run chunk or by
 * the CPU hotplug callback, which runs on that CPU too.  No lock needed.
 */
struct vpmu_cpu {
	struct vpmu_engine	*engine;
	u64			generation;
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
 * @hp_state:	the dynamic CPU hotplug state of the engines
 */
struct vpmu_core {
	struct vpmu_image __rcu	*current_image;
	struct mutex		lock;		/* serialises installs */
	u64			generation;
	struct workqueue_struct	*free_wq;
	enum cpuhp_state	hp_state;
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

/**
 * vpmu_cpu_engine_get() - this CPU's engine, ready to run @img
 * @img: the image of the run, referenced by the caller
 *
 * Disables preemption until vpmu_cpu_engine_put(), even on failure.
 * Attaches the engine to @img if it runs another image, and applies a
 * changed uhist_interval.  Attaching discards the program state on the
 * engine: the caller starts or restores a program next.
 *
 * Return: the engine, or an ERR_PTR if it could not take @img (which
 * cannot happen: every image was validated against the engines' size).
 */
struct vpmu_engine *vpmu_cpu_engine_get(const struct vpmu_image *img)
{
	struct vpmu_cpu *vc = get_cpu_ptr(&vpmu_cpu);
	u32 interval = vpmu_uhist_interval();
	int ret;

	if (vc->generation != img->generation) {
		ret = vpmu_engine_attach(vc->engine, img->uc);
		if (WARN_ON_ONCE(ret)) {
			vc->generation = 0;
			return ERR_PTR(ret);
		}
		vc->generation = img->generation;
	}
	if (vc->uhist != interval) {
		vpmu_engine_uhist_set(vc->engine, interval);
		vc->uhist = interval;
	}
	return vc->engine;
}

/**
 * vpmu_cpu_engine_put() - done with this CPU's engine; enables preemption
 */
void vpmu_cpu_engine_put(void)
{
	put_cpu_ptr(&vpmu_cpu);
}

/*
 * A CPU going down.  Nothing can be left half-run on it: a run holds the
 * engine only for one chunk with preemption disabled, saves the program's
 * state off the engine before enabling preemption, and carries on from
 * that state on whatever CPU it is on next.  What is left is the engine's
 * attachment, which would go stale while the CPU is away (the image it
 * points to may be freed): forget it, so that the engine is attached
 * afresh before it is used again.
 *
 * Runs on @cpu itself (an AP state); preemption is disabled so that it
 * cannot interleave with a run chunk of a task still on this CPU.
 */
static int vpmu_cpu_offline(unsigned int cpu)
{
	struct vpmu_cpu *vc = get_cpu_ptr(&vpmu_cpu);

	vc->generation = 0;
	put_cpu_ptr(&vpmu_cpu);
	return 0;
}

static void vpmu_engines_destroy(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct vpmu_cpu *vc = per_cpu_ptr(&vpmu_cpu, cpu);

		vpmu_engine_destroy(vc->engine);
		vc->engine = NULL;
		vc->generation = 0;
		vc->uhist = 0;
	}
}

static int vpmu_engines_create(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct vpmu_cpu *vc = per_cpu_ptr(&vpmu_cpu, cpu);

		vc->engine = vpmu_engine_create(vpmu_cs_size);
		if (!vc->engine) {
			vpmu_engines_destroy();
			return -ENOMEM;
		}
	}
	return 0;
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
	int ret;

	vpmu_core.free_wq = alloc_workqueue("vpmu_free", 0, 0);
	if (!vpmu_core.free_wq) {
		vpmu_ucode_free(uc);
		return -ENOMEM;
	}

	ret = vpmu_image_install(uc, NULL);
	if (ret)
		goto out_destroy_wq;

	ret = vpmu_engines_create();
	if (ret)
		goto out_put_image;

	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "perf/vpmu:online",
				NULL, vpmu_cpu_offline);
	if (ret < 0)
		goto out_destroy_engines;
	vpmu_core.hp_state = ret;
	return 0;

out_destroy_engines:
	vpmu_engines_destroy();
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
 * Called when nothing can run any more: /dev/vpmu and the sysfs files are
 * gone.
 */
void vpmu_core_exit(void)
{
	cpuhp_remove_state(vpmu_core.hp_state);
	vpmu_engines_destroy();
	vpmu_image_put(rcu_replace_pointer(vpmu_core.current_image, NULL,
					   true));
	/*
	 * The last put queued the free behind a grace period: wait for the
	 * grace period to queue it, then for the workqueue to run it.
	 */
	rcu_barrier();
	destroy_workqueue(vpmu_core.free_wq);
	vpmu_core.generation = 0;
}
