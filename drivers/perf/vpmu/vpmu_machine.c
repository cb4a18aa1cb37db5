// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_machine.c - the per-CPU engines and the current control store.
 *
 * Every possible CPU has one engine from load to unload, made with its PMU
 * hardware only (counters, freeze bits, triggers, the histogram unit): a
 * few KB, so that perf events can be added on any CPU at any time and CPU
 * hotplug never allocates.  What running a ucode needs (the uops, the
 * per-microword counts, the micro-PC histogram's buckets: about 270 bytes
 * a microword) comes with the first run on that CPU, sized by the run's
 * ucode, not by cs_size: the run allocates it in process context before
 * its chunk disables interrupts, and the chunk gives it to the engine
 * (vpmu_machine_cpu_prepare(), vpmu_machine_engine_get()).  A larger
 * ucode later grows it the same way; it never shrinks before unload.  The
 * CPU's overflow interrupt lines are requested then too
 * (vpmu_machine_irq.c).
 *
 * An engine is used only on its own CPU with interrupts disabled: by run
 * chunks (vpmu_machine_engine_get() .. vpmu_machine_engine_put() inside
 * local_irq_save()) and by perf callbacks, which the perf core calls with
 * interrupts disabled, IPIs included.  That is all the serialisation it
 * needs.
 *
 * One control store (struct vpmu_cstore: an installed ucode) is current.
 * A run takes a reference to it when it starts and keeps using that
 * control store to the end, even if another is installed meanwhile;
 * installing never waits for runs.  Engines are attached to a control
 * store lazily, when a run that uses another one reaches them.
 *
 * Every engine holds a reference to the control store it is attached to,
 * from the first run chunk on its CPU to unload: the engine keeps pointers
 * into its ucode, and perf callbacks program the counters of idle
 * engines, so an engine must never point at freed microcode.  Any engine
 * call is safe at any time on that account; on an engine with no memory
 * yet, the counters, freeze bits and histogram unit work and count
 * nothing.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bug.h>
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fault-inject.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#include "vpmu_compat.h"
#include "vpmu_engine.h"
#include "vpmu_machine_priv.h"
#include "vpmu_default_image.h"

/* ---- the layer above ---------------------------------------------------- */

static void vpmu_machine_nop(struct vpmu_machine *m, struct vpmu_engine *e)
{
}

static void vpmu_machine_nop_end(struct vpmu_machine *m,
				 struct vpmu_engine *e,
				 const struct vpmu_stop *stop)
{
}

/* With nobody above to tell, an overflow is only acknowledged. */
static irqreturn_t vpmu_machine_nop_overflow(struct vpmu_machine *m,
					     struct vpmu_engine *e,
					     unsigned int idx,
					     const struct vpmu_stop *stop)
{
	vpmu_engine_ovf_clear(e, BIT(idx));
	return IRQ_HANDLED;
}

/* The ops while no layer above has registered its own. */
static const struct vpmu_machine_ops vpmu_machine_nop_ops = {
	.chunk_begin	= vpmu_machine_nop,
	.chunk_end	= vpmu_machine_nop,
	.overflow	= vpmu_machine_nop_overflow,
	.overflow_end	= vpmu_machine_nop_end,
	.hu_fold	= vpmu_machine_nop,
	.hu_rebase	= vpmu_machine_nop,
};

/* An overflow line's handler: the layer above takes the overflow. */
static irqreturn_t vpmu_machine_overflow(struct vpmu_irq_lines *irq,
					 struct vpmu_engine *e,
					 unsigned int idx,
					 const struct vpmu_stop *stop)
{
	struct vpmu_machine_priv *mp;

	mp = container_of(irq, struct vpmu_machine_priv, irq);
	return mp->ops->overflow(mp->m, e, idx, stop);
}

/**
 * vpmu_machine_set_ops() - register the layer above's callbacks
 * @m:		the machine
 * @ops:	the callbacks, or NULL for none
 *
 * Context: while nothing runs on the engines and no engine is changed:
 * before the layer above makes itself reachable, and after it is gone.
 */
void vpmu_machine_set_ops(struct vpmu_machine *m,
			  const struct vpmu_machine_ops *ops)
{
	m->priv->ops = ops ? ops : &vpmu_machine_nop_ops;
}

/* ---- control stores ---------------------------------------------------- */

static void vpmu_cstore_free_work(struct work_struct *work)
{
	struct vpmu_cstore *cs = container_of(to_rcu_work(work),
					      struct vpmu_cstore, free_work);

	vpmu_ucode_free(cs->uc);
	kfree(cs);
}

/**
 * vpmu_machine_ucode_load() - validate and decode an image for the engines
 * @m:		the machine, whose cs_size limits the control store
 * @out:	the decoded image, owned by the caller
 * @bytes:	the image
 * @len:	its length
 * @verr:	why it was rejected
 *
 * Return: 0 or the validator's negative errno.
 */
int vpmu_machine_ucode_load(const struct vpmu_machine *m,
			    struct vpmu_ucode **out, const void *bytes,
			    size_t len, struct vpmu_verr *verr)
{
	return vpmu_ucode_load(out, bytes, len, m->cs_size, verr);
}

/**
 * vpmu_machine_builtin_load() - validate and decode the built-in image
 * @m:		the machine
 * @out:	the decoded image, owned by the caller
 * @verr:	why it was rejected
 *
 * The default image is assembled from ucode/default.vus at build time.  It
 * goes through the same validator, with the same control-store limit, as
 * any image a user loads; ucode/load_default decodes it afresh each time,
 * so every installed image owns its decoded copy.
 *
 * Return: 0 or the validator's negative errno.
 */
int vpmu_machine_builtin_load(const struct vpmu_machine *m,
			      struct vpmu_ucode **out, struct vpmu_verr *verr)
{
	return vpmu_machine_ucode_load(m, out, vpmu_default_image,
				       vpmu_default_image_len, verr);
}

/**
 * vpmu_cstore_get() - take a reference to the current control store
 * @m:	the machine
 *
 * Context: any; does not sleep.
 * Return: the control store, never NULL between module init and exit.
 */
struct vpmu_cstore *vpmu_cstore_get(struct vpmu_machine *m)
{
	struct vpmu_cstore *cs;

	/*
	 * It may be replaced, and its last reference dropped, between
	 * reading the pointer and taking the reference.  Its memory stays
	 * valid for the read-side section (it is freed a grace period after
	 * the last put), and a reference that already reached zero is not
	 * revived: read the pointer again, it has moved on.
	 */
	rcu_read_lock();
	do {
		cs = rcu_dereference(m->priv->current_cs);
	} while (!refcount_inc_not_zero(&cs->ref));
	rcu_read_unlock();
	return cs;
}

/**
 * vpmu_cstore_put() - drop a reference taken by vpmu_cstore_get()
 * @cs: the control store, or NULL
 *
 * Context: any, including with preemption disabled: @cs is freed
 * later from a workqueue, since freeing microcode may sleep.
 */
void vpmu_cstore_put(struct vpmu_cstore *cs)
{
	if (cs && refcount_dec_and_test(&cs->ref))
		queue_rcu_work(cs->free_wq, &cs->free_work);
}

/**
 * vpmu_cstore_install() - make a validated ucode the current control store
 * @m:	the machine
 * @uc:	the ucode; ownership passes to the callee, even on failure
 *
 * Runs in progress keep the control store they started with; the old one
 * goes when the last of them drops it.
 *
 * Context: process context; may sleep.
 * Return: 0 or -ENOMEM.
 */
int vpmu_cstore_install(struct vpmu_machine *m, struct vpmu_ucode *uc)
{
	struct vpmu_cstore *cs, *old;

	cs = kzalloc_obj(*cs, GFP_KERNEL);
	if (!cs) {
		vpmu_ucode_free(uc);
		return -ENOMEM;
	}
	cs->uc = uc;
	refcount_set(&cs->ref, 1);
	cs->free_wq = m->priv->free_wq;
	INIT_RCU_WORK(&cs->free_work, vpmu_cstore_free_work);

	mutex_lock(&m->priv->lock);
	cs->generation = ++m->priv->generation;
	old = rcu_replace_pointer(m->priv->current_cs, cs,
				  lockdep_is_held(&m->priv->lock));
	mutex_unlock(&m->priv->lock);

	vpmu_cstore_put(old);
	return 0;
}

/* ---- the micro-PC histogram's settings --------------------------------- */

/**
 * vpmu_machine_uhist_interval() - the micro-PC histogram's interval K
 * @m: the machine
 *
 * Context: any.
 * Return: K in cycles; 0 when no interval is set.
 */
u32 vpmu_machine_uhist_interval(const struct vpmu_machine *m)
{
	return READ_ONCE(m->priv->uhist_interval);
}

/**
 * vpmu_machine_uhist_set_interval() - set the micro-PC histogram's interval
 * @m:		the machine
 * @interval:	K in cycles; 0 samples nothing
 *
 * The value uhist/interval and the uhist_interval module parameter show.
 * Each engine takes it at its next run chunk, or when a
 * vpmu_machine_call() reaches it.
 *
 * Context: any.
 */
void vpmu_machine_uhist_set_interval(struct vpmu_machine *m, u32 interval)
{
	WRITE_ONCE(m->priv->uhist_interval, interval);
}

/**
 * vpmu_machine_uhist_state() - the micro-PC histogram's sampling state
 * @m: the machine
 *
 * Context: any.
 * Return: the state uhist/state shows.
 */
enum vpmu_uhist_state vpmu_machine_uhist_state(const struct vpmu_machine *m)
{
	return READ_ONCE(m->priv->uhist_state);
}

/**
 * vpmu_machine_uhist_set_state() - set the micro-PC histogram's state
 * @m:		the machine
 * @state:	engines sample at the interval only while it is running
 *
 * Each engine takes it at its next run chunk, or when a
 * vpmu_machine_call() reaches it.
 *
 * Context: any; the caller serialises changes (uhist/control).
 */
void vpmu_machine_uhist_set_state(struct vpmu_machine *m,
				  enum vpmu_uhist_state state)
{
	WRITE_ONCE(m->priv->uhist_state, state);
}

/* The interval engines should sample at: K while sampling runs, else 0. */
static u32 vpmu_machine_uhist_active(const struct vpmu_machine *m)
{
	if (vpmu_machine_uhist_state(m) != VPMU_UHIST_RUNNING)
		return 0;
	return vpmu_machine_uhist_interval(m);
}

/* ---- engines ----------------------------------------------------------- */

/* Apply the histogram interval in force now, if it changed. */
static void vpmu_machine_uhist_sync(struct vpmu_machine *m,
				    struct vpmu_machine_cpu *mc)
{
	u32 interval = vpmu_machine_uhist_active(m);

	if (mc->uhist != interval) {
		vpmu_engine_uhist_set(mc->engine, interval);
		mc->uhist = interval;
	}
}

/* The control-store words @cs's ucode needs. */
static u32 vpmu_cstore_words(const struct vpmu_cstore *cs)
{
	return vpmu_ucode_header(cs->uc)->cs_words;
}

/* Must an engine get more memory before it can attach @cs? */
static bool vpmu_machine_mem_short(const struct vpmu_machine_cpu *mc,
				   const struct vpmu_cstore *cs)
{
	return mc->cs != cs &&
	       vpmu_engine_mem_words(mc->engine) < vpmu_cstore_words(cs);
}

#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS
/*
 * Engine memory fails on demand on a kernel with fault injection
 * (Documentation/fault-injection/ in the kernel tree), through
 * /sys/kernel/debug/vpmu/fail_engine_mem/: the debug tier's vpmu_mem
 * fails a CPU's first run so.  It is asked where the run allocates, in
 * process context, so task-filter and fail-nth work as for any
 * allocation (fail_function would ask from a kprobe's int3 handler,
 * where taking the random pool's lock makes lockdep report).
 */
static DECLARE_FAULT_ATTR(vpmu_fail_engine_mem);
static struct dentry *vpmu_fault_dir;

static void vpmu_machine_fault_init(void)
{
	vpmu_fault_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	fault_create_debugfs_attr("fail_engine_mem", vpmu_fault_dir,
				  &vpmu_fail_engine_mem);
}

static void vpmu_machine_fault_exit(void)
{
	debugfs_remove_recursive(vpmu_fault_dir);
	vpmu_fault_dir = NULL;
}

static bool vpmu_machine_fail_mem(u32 words)
{
	return should_fail(&vpmu_fail_engine_mem, words);
}
#else
static inline void vpmu_machine_fault_init(void)
{
}

static inline void vpmu_machine_fault_exit(void)
{
}

static inline bool vpmu_machine_fail_mem(u32 words)
{
	return false;
}
#endif

/* Engine memory for @words microwords; NULL when it cannot be had. */
static struct vpmu_engine_mem *vpmu_machine_mem_alloc(struct vpmu_machine *m,
						      u32 words)
{
	if (vpmu_machine_fail_mem(words))
		return NULL;
	return vpmu_engine_mem_alloc(words, m->tc_words);
}

/**
 * vpmu_machine_cpu_prepare() - bring what this CPU needs for a chunk of @cs
 * @m:	the machine
 * @cs: the control store of the run, referenced by the caller
 * @pp:	what the run brings to the CPUs it reaches
 *
 * Before each run chunk: frees the memory an engine gave up in the last
 * one; allocates memory for @cs if the engine of the CPU the task is on
 * now cannot attach @cs and @pp has none; and requests that CPU's
 * overflow lines if no run has reached it before.  The task may move to
 * another CPU before its chunk disables interrupts: the chunk then gives
 * the memory to that CPU's engine if it needs it, or keeps it for a later
 * one, or, if that CPU lacks its lines or memory @pp has not got, fails
 * with -EAGAIN for the caller to come back here, and this readies the CPU
 * that chunk found unready.  Each time round thus readies a CPU's lines
 * for good or brings memory that only an engine short of it takes, so
 * that cannot go on for ever.
 *
 * Context: process context; may sleep.
 * Return: 0, or -ENOMEM (or an errno of request_irq()): nothing changed
 * on any engine.
 */
int vpmu_machine_cpu_prepare(struct vpmu_machine *m,
			     const struct vpmu_cstore *cs,
			     struct vpmu_machine_prep *pp)
{
	struct vpmu_machine_cpu *mc;
	bool lines, short_now;
	unsigned int cpu;

	vpmu_engine_mem_free(pp->old);
	pp->old = NULL;
	if (pp->retry) {
		/* as the chunk found it; the lines are rechecked below */
		cpu = pp->cpu;
		lines = false;
		short_now = pp->retry_mem && !pp->mem;
		pp->retry = false;
	} else {
		/* Only this CPU's chunks change its engine's memory, cs. */
		cpu = get_cpu();
		mc = per_cpu_ptr(m->priv->cpu, cpu);
		/* rechecked, locked */
		lines = vpmu_irq_cpu_ready(&m->priv->irq, cpu);
		short_now = !pp->mem && vpmu_machine_mem_short(mc, cs);
		put_cpu();
	}
	if (short_now) {
		pp->mem = vpmu_machine_mem_alloc(m, vpmu_cstore_words(cs));
		if (!pp->mem)
			return -ENOMEM;
	}
	return lines ? 0 : vpmu_irq_cpu_prepare(&m->priv->irq, cpu);
}

/**
 * vpmu_machine_prep_release() - free what a run still holds for the CPUs
 * @pp:	what the run brought, emptied
 *
 * Context: process context; may sleep.
 */
void vpmu_machine_prep_release(struct vpmu_machine_prep *pp)
{
	vpmu_engine_mem_free(pp->mem);
	vpmu_engine_mem_free(pp->old);
	*pp = (struct vpmu_machine_prep){ };
}

/*
 * Attach @mc's engine to @cs, giving it @pp's memory first if it has too
 * little.  Giving memory detaches the engine from its image, so the
 * reference to that control store goes too.  The caller's reference keeps @cs
 * alive meanwhile.  The attach zeroes the histogram unit's buckets:
 * bucket events take what they counted first and start over from zero.
 */
static int vpmu_machine_attach(struct vpmu_machine *m,
			       struct vpmu_machine_cpu *mc,
			       struct vpmu_cstore *cs,
			       struct vpmu_machine_prep *pp)
{
	bool grow = vpmu_machine_mem_short(mc, cs);
	int ret;

	if (grow && (!pp->mem || WARN_ON_ONCE(pp->old))) {
		pp->retry = true;
		pp->retry_mem = true;
		pp->cpu = smp_processor_id();
		return -EAGAIN;
	}
	m->priv->ops->hu_fold(m, mc->engine);
	if (grow) {
		/* folds the counts in flight into the counters first */
		pp->old = vpmu_engine_mem_set(mc->engine, pp->mem);
		pp->mem = NULL;
		vpmu_cstore_put(mc->cs);
		mc->cs = NULL;
	}
	ret = vpmu_engine_attach(mc->engine, cs->uc);
	m->priv->ops->hu_rebase(m, mc->engine);
	if (WARN_ON_ONCE(ret))
		return ret;
	refcount_inc(&cs->ref);
	vpmu_cstore_put(mc->cs);
	mc->cs = cs;
	return 0;
}

/**
 * vpmu_machine_engine_get() - this CPU's engine, ready to run @cs
 * @m: the machine
 * @cs: the control store of the run, referenced by the caller
 * @pp: what the run brings (vpmu_machine_cpu_prepare())
 *
 * Disables preemption until vpmu_machine_engine_put(), even on failure; run
 * chunks call it with interrupts disabled.  Attaches the engine to @cs if
 * it runs another image, moving the engine's reference from the old image
 * to @cs (dropping a reference only queues the free, so this is fine with
 * interrupts off), after giving it @pp's memory if it has too little for
 * @cs (the memory it gives up goes to @pp->old), and applies a changed
 * histogram interval.  Attaching discards the program state on the
 * engine: the caller starts or restores a program next.  Allocates
 * nothing.
 *
 * Return: the engine, ERR_PTR(-EAGAIN) if this CPU has no overflow lines
 * yet or its engine needs memory and @pp has none (the task moved here
 * after vpmu_machine_cpu_prepare(); nothing changed but @pp, which says
 * so for the next vpmu_machine_cpu_prepare()), or another ERR_PTR
 * if it could not take @cs (which cannot happen: every image was
 * validated against cs_size).
 */
struct vpmu_engine *vpmu_machine_engine_get(struct vpmu_machine *m,
					    struct vpmu_cstore *cs,
					    struct vpmu_machine_prep *pp)
{
	struct vpmu_machine_cpu *mc = get_cpu_ptr(m->priv->cpu);
	int ret;

	/* once set, for good: the lines come before any memory */
	if (!vpmu_irq_cpu_ready(&m->priv->irq, smp_processor_id())) {
		pp->retry = true;
		pp->retry_mem = vpmu_machine_mem_short(mc, cs);
		pp->cpu = smp_processor_id();
		return ERR_PTR(-EAGAIN);
	}
	if (mc->cs != cs) {
		ret = vpmu_machine_attach(m, mc, cs, pp);
		if (ret)
			return ERR_PTR(ret);
	}
	vpmu_machine_uhist_sync(m, mc);
	return mc->engine;
}

/**
 * vpmu_machine_engine_put() - done with this CPU's engine; enables preemption
 * @m: the machine
 */
void vpmu_machine_engine_put(struct vpmu_machine *m)
{
	put_cpu_ptr(m->priv->cpu);
}

/**
 * vpmu_this_engine() - this CPU's engine, as it is, for the perf glue
 * @m: the machine
 *
 * The engine stays attached to whatever image it has (it holds a
 * reference to it), or to none before the first run on this CPU, so its
 * counters can be programmed and read at any time.
 *
 * Context: interrupts disabled, on the engine's CPU (perf callbacks).
 * Return: the engine, never NULL between module init and exit.
 */
struct vpmu_engine *vpmu_this_engine(struct vpmu_machine *m)
{
	lockdep_assert_irqs_disabled();
	return this_cpu_ptr(m->priv->cpu)->engine;
}

struct vpmu_machine_call_args {
	struct vpmu_machine	*m;
	vpmu_machine_call_fn	fn;
	void			*arg;
};

/* Bring @mc's engine up to date, then call @c->fn on it. */
static void vpmu_machine_call_on(struct vpmu_machine_call_args *c,
				 struct vpmu_machine_cpu *mc)
{
	vpmu_machine_uhist_sync(c->m, mc);
	c->fn(mc->engine, mc->cs, c->arg);
}

static void vpmu_machine_call_here(void *info)
{
	struct vpmu_machine_call_args *c = info;

	vpmu_machine_call_on(c, this_cpu_ptr(c->m->priv->cpu));
}

/**
 * vpmu_machine_call() - call @fn on @cpu's engine where it may be used
 * @m: the machine
 * @cpu: a possible CPU
 * @fn: called with the engine, the image it is attached to (NULL if no
 *	run has reached it yet) and @arg
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
int vpmu_machine_call(struct vpmu_machine *m, unsigned int cpu,
		      vpmu_machine_call_fn fn, void *arg)
{
	struct vpmu_machine_call_args c = { .m = m, .fn = fn, .arg = arg };
	unsigned long flags;
	int ret = 0;

	cpus_read_lock();
	if (cpu_online(cpu)) {
		ret = smp_call_function_single(cpu, vpmu_machine_call_here, &c, 1);
	} else {
		/* for lockdep's sake as much as anything: @fn expects it */
		local_irq_save(flags);
		vpmu_machine_call_on(&c, per_cpu_ptr(m->priv->cpu, cpu));
		local_irq_restore(flags);
	}
	cpus_read_unlock();
	return ret;
}

/* ---- the histogram unit ------------------------------------------------ */

/**
 * vpmu_machine_hu_nr() - buckets of the histogram-unit program in force
 * @m: the machine
 *
 * Context: any.
 * Return: the number of buckets, 0 when the unit is off.
 */
unsigned int vpmu_machine_hu_nr(const struct vpmu_machine *m)
{
	return READ_ONCE(m->priv->hu_nr);
}

/**
 * vpmu_machine_hu_bucket() - bucket @b of this CPU's engine
 * @m:	the machine
 * @e:	this CPU's engine
 * @b:	1-based bucket
 *
 * Context: interrupts disabled, on the engine's CPU (perf callbacks).
 * Return: the 64-bit bucket, or 0 if the program in force has no bucket @b.
 */
u64 vpmu_machine_hu_bucket(struct vpmu_machine *m, struct vpmu_engine *e,
			   unsigned int b)
{
	u64 c[VPMU_HU_MAX];

	if (b < 1 || b > this_cpu_ptr(m->priv->cpu)->hu_n)
		return 0;
	vpmu_engine_hu_read(e, c, b);
	return c[b - 1];
}

struct vpmu_machine_hu_args {
	struct vpmu_machine *m;
	const struct vpmu_hu_prog *prog;	/* NULL: reset */
	unsigned int cpu;
	int ret;
};

/* On @a->cpu's engine: set @a->prog, or reset; perf events folded around. */
static void vpmu_machine_hu_change(struct vpmu_engine *e,
				   const struct vpmu_cstore *cs, void *arg)
{
	struct vpmu_machine_hu_args *a = arg;
	struct vpmu_machine *m = a->m;
	/* An offline CPU's engine is changed elsewhere and has no events. */
	bool here = e == vpmu_this_engine(m);

	if (here)
		m->priv->ops->hu_fold(m, e);
	if (a->prog) {
		a->ret = vpmu_engine_hu_set(e, a->prog->n ? a->prog : NULL);
		if (!a->ret)
			per_cpu_ptr(m->priv->cpu, a->cpu)->hu_n = a->prog->n;
	} else {
		vpmu_engine_hu_reset(e);
		a->ret = 0;
	}
	if (here)
		m->priv->ops->hu_rebase(m, e);
}

static int vpmu_machine_hu_call(struct vpmu_machine *m, unsigned int cpu,
				const struct vpmu_hu_prog *prog)
{
	struct vpmu_machine_hu_args a = { .m = m, .prog = prog, .cpu = cpu };
	int ret;

	ret = vpmu_machine_call(m, cpu, vpmu_machine_hu_change, &a);
	return ret ? ret : a.ret;
}

/**
 * vpmu_machine_hu_program() - set a histogram-unit program on every engine
 * @m:		the machine
 * @p:		the program (n == 0: off)
 * @undo:	the program in force, for the engines already changed if a
 *		later one refuses
 *
 * Every engine or none.  The engines check a program alike, and the
 * parser has checked everything they check: the first engine's verdict is
 * every engine's.  Should a later one refuse all the same, the ones
 * already changed get @undo back.
 *
 * Context: process context; the caller serialises changes to the unit.
 * Return: 0, -EINVAL if the engines refuse @p, or an errno of
 * vpmu_machine_call().
 */
int vpmu_machine_hu_program(struct vpmu_machine *m,
			    const struct vpmu_hu_prog *p,
			    const struct vpmu_hu_prog *undo)
{
	unsigned int cpu, done;
	int ret;

	for_each_possible_cpu(cpu) {
		ret = vpmu_machine_hu_call(m, cpu, p);
		if (ret)
			goto out_undo;
	}
	WRITE_ONCE(m->priv->hu_nr, p->n);
	return 0;

out_undo:
	for_each_possible_cpu(done) {
		if (done == cpu)
			break;
		WARN_ON_ONCE(vpmu_machine_hu_call(m, done, undo));
	}
	return ret;
}

/**
 * vpmu_machine_hu_reset() - zero every engine's histogram-unit buckets
 * @m: the machine
 *
 * Context: process context; the caller serialises changes to the unit.
 * Return: 0 or an errno of vpmu_machine_call().
 */
int vpmu_machine_hu_reset(struct vpmu_machine *m)
{
	unsigned int cpu;
	int ret;

	for_each_possible_cpu(cpu) {
		ret = vpmu_machine_hu_call(m, cpu, NULL);
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- init and exit ----------------------------------------------------- */

/*
 * Nothing is left on an engine when its CPU goes down: a run holds the
 * engine only for one chunk with interrupts disabled and carries on from
 * its saved context wherever it is next, and the perf core removes the
 * CPU's events first.  The engine keeps its memory and image reference
 * while the CPU is away, so it needs no hotplug callback.
 */
static void vpmu_engines_destroy(struct vpmu_machine *m)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct vpmu_machine_cpu *mc = per_cpu_ptr(m->priv->cpu, cpu);

		vpmu_engine_destroy(mc->engine);	/* and its memory */
		vpmu_cstore_put(mc->cs);
		memset(mc, 0, sizeof(*mc));
	}
}

/*
 * Create every engine with its PMU hardware only, attached to nothing: the
 * first run chunk on a CPU brings the memory and attaches the image.
 */
static int vpmu_engines_create(struct vpmu_machine *m)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct vpmu_machine_cpu *mc = per_cpu_ptr(m->priv->cpu, cpu);

		mc->engine = vpmu_engine_create(0);
		if (!mc->engine) {
			vpmu_engines_destroy(m);
			return -ENOMEM;
		}
		/*
		 * Translated between chunks, which may end early at a block
		 * the next enters (vpmu_run_chunk())
		 */
		vpmu_engine_tc_defer(mc->engine, true);
		vpmu_engine_tc_yield(mc->engine, true);
	}
	return 0;
}

/* Drop the current control store and wait for every one to be freed. */
static void vpmu_cstores_drain(struct vpmu_machine *m)
{
	vpmu_cstore_put(rcu_replace_pointer(m->priv->current_cs, NULL, true));
	/*
	 * The last puts queued the frees behind a grace period: wait for the
	 * grace period to queue them, then for the workqueue to run them.
	 */
	rcu_barrier();
	destroy_workqueue(m->priv->free_wq);
	m->priv->free_wq = NULL;
	m->priv->generation = 0;
}

/**
 * vpmu_machine_init() - create the engines and make @uc current
 * @m:	the machine, its parameters filled in
 * @uc:	the first ucode (generation 1); ownership passes to the callee,
 *	even on failure
 *
 * Sets up the engines, the first control store and the counters' interrupt
 * lines.
 *
 * Return: 0 or a negative errno.
 */
int vpmu_machine_init(struct vpmu_machine *m, struct vpmu_ucode *uc)
{
	struct vpmu_machine_priv *mp;
	int ret;

	mp = kzalloc_obj(*mp, GFP_KERNEL);
	if (!mp) {
		vpmu_ucode_free(uc);
		return -ENOMEM;
	}
	m->priv = mp;
	mp->m = m;
	mutex_init(&mp->lock);
	vpmu_machine_set_ops(m, NULL);
	mp->cpu = alloc_percpu(struct vpmu_machine_cpu);
	/*
	 * Unbound: freeing a control store has no use for locality.  Saying so also
	 * keeps 7.x quiet, which warns about a workqueue that names neither
	 * WQ_PERCPU nor WQ_UNBOUND.
	 */
	mp->free_wq = alloc_workqueue("vpmu_free", WQ_UNBOUND, 0);
	if (!mp->cpu || !mp->free_wq) {
		vpmu_ucode_free(uc);
		ret = -ENOMEM;
		goto out_free;
	}

	ret = vpmu_cstore_install(m, uc);
	if (ret)
		goto out_free;
	ret = vpmu_engines_create(m);
	if (ret)
		goto out_drain;
	ret = vpmu_irq_init(&mp->irq, m->nr_counters, vpmu_machine_overflow);
	if (ret)
		goto out_engines_destroy;
	vpmu_machine_fault_init();
	return 0;

out_engines_destroy:
	vpmu_engines_destroy(m);
out_drain:
	vpmu_cstores_drain(m);
out_free:
	if (mp->free_wq)
		destroy_workqueue(mp->free_wq);
	free_percpu(mp->cpu);
	kfree(mp);
	m->priv = NULL;
	return ret;
}

/*
 * Called when nothing can run any more: /dev/vpmu, the PMU and the sysfs
 * files are gone.
 */
void vpmu_machine_exit(struct vpmu_machine *m)
{
	vpmu_machine_fault_exit();
	vpmu_irq_exit(&m->priv->irq);
	vpmu_engines_destroy(m);
	vpmu_cstores_drain(m);
	free_percpu(m->priv->cpu);
	kfree(m->priv);
	m->priv = NULL;
}
