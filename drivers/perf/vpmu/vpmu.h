/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu.h - interfaces between the parts of the vpmu module.
 *
 *   vpmu_main.c    module parameters, init and exit
 *   vpmu_core.c    the per-CPU engines and the current microcode image
 *   vpmu_loader.c  sysfs: ucode/ (the image loader) and caps/
 *   vpmu_cdev.c    /dev/vpmu: running programs on the engines
 *   vpmu_pmu.c     perf glue
 *   vpmu_irq.c     the counters' overflow interrupt lines
 *   vpmu_uhist.c   sysfs: uhist/ (the micro-PC histogram)
 *   vpmu_hu.c      sysfs: hist/ (the histogram unit)
 *   vpmu_hu_text.c the histogram unit's program as text (portable C)
 */
#ifndef _VPMU_H
#define _VPMU_H

#include <linux/irqreturn.h>
#include <linux/refcount.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct attribute_group;
struct vpmu_engine;
struct vpmu_ucode;
struct vpmu_verr;

/* The built-in microcode image (vpmu_ucode.c). */
extern const u8 vpmu_default_ucode[];
extern const size_t vpmu_default_ucode_len;

/*
 * Module parameters (vpmu_main.c).  All but uhist_interval are fixed once
 * the module is loaded, and checked by then.
 */
extern unsigned int vpmu_nr_counters;
extern unsigned int vpmu_cs_size;
unsigned int vpmu_counter_width(unsigned int idx);
u32 vpmu_uhist_interval(void);
void vpmu_uhist_interval_write(u32 interval);
int vpmu_builtin_load(struct vpmu_ucode **out, struct vpmu_verr *verr);

/**
 * struct vpmu_image - a microcode image as the module keeps it
 * @uc:		the validated, decoded image; immutable
 * @generation:	1 for the image installed at load, then one more for every
 *		image installed; never reused (ucode/generation, run results)
 * @ref:	one for being current, one for every run using the image and
 *		one for every engine attached to it
 * @free_work:	frees @uc and the image an RCU grace period after the last
 *		reference is dropped, in process context (dropping may
 *		happen with preemption disabled; freeing may sleep)
 */
struct vpmu_image {
	struct vpmu_ucode	*uc;
	u64			generation;
	refcount_t		ref;
	struct rcu_work		free_work;
};

/* The engines and the current image (vpmu_core.c). */
int vpmu_core_init(struct vpmu_ucode *uc);
void vpmu_core_exit(void);
struct vpmu_image *vpmu_image_get(void);
void vpmu_image_put(struct vpmu_image *img);
int vpmu_image_install(struct vpmu_ucode *uc, u64 *generation);
struct vpmu_engine *vpmu_cpu_engine_get(struct vpmu_image *img);
void vpmu_cpu_engine_put(void);
struct vpmu_engine *vpmu_this_engine(void);

/* sysfs (vpmu_loader.c). */
extern const struct attribute_group vpmu_ucode_group;
extern const struct attribute_group vpmu_caps_group;
void vpmu_loader_exit(void);

/* /dev/vpmu (vpmu_cdev.c). */
int vpmu_cdev_register(void);
void vpmu_cdev_enable(void);
void vpmu_cdev_unregister(void);

/* perf glue (vpmu_pmu.c). */
struct vpmu_stop;
int vpmu_pmu_register(void);
void vpmu_pmu_unregister(void);
void vpmu_pmu_overflow(struct vpmu_engine *e, const struct vpmu_stop *stop);
/*
 * Around every run chunk, interrupts disabled throughout, for current:
 * per-task freeze groups take current's state and give it back.
 */
void vpmu_pmu_chunk_begin(struct vpmu_engine *e);
void vpmu_pmu_chunk_end(struct vpmu_engine *e);
irqreturn_t vpmu_pmu_irq(unsigned int idx);

/* Overflow interrupt lines, one per counter (vpmu_irq.c). */
int vpmu_irq_init(unsigned int nr);
void vpmu_irq_exit(void);
int vpmu_irq_raise(unsigned int idx);

/*
 * Calls on one CPU's engine from process context (vpmu_core.c): @fn runs
 * on the engine's CPU in an IPI, or here if that CPU is offline, with
 * interrupts disabled either way.
 */
typedef void (*vpmu_cpu_fn)(struct vpmu_engine *e,
			    const struct vpmu_image *img, void *arg);
int vpmu_cpu_engine_call(unsigned int cpu, vpmu_cpu_fn fn, void *arg);

/* The micro-PC histogram's sysfs group (vpmu_uhist.c). */
extern struct attribute_group vpmu_uhist_group;
int vpmu_uhist_init(void);
void vpmu_uhist_exit(void);
u32 vpmu_uhist_active_interval(void);

/* The histogram unit's sysfs group (vpmu_hu.c) and its perf events. */
extern struct attribute_group vpmu_hu_group;
int vpmu_hu_init(void);
void vpmu_hu_exit(void);
unsigned int vpmu_hu_nr_buckets(void);
u64 vpmu_hu_bucket(struct vpmu_engine *e, unsigned int b);
/*
 * Around any change of this CPU's histogram-unit buckets other than
 * counting (a program, a reset, attaching an image): fold the open bucket
 * events' counts in before it, take their new start values after it
 * (vpmu_pmu.c).  Interrupts disabled, on the engine's CPU.
 */
void vpmu_pmu_hist_fold(struct vpmu_engine *e);
void vpmu_pmu_hist_rebase(struct vpmu_engine *e);

#endif /* _VPMU_H */
