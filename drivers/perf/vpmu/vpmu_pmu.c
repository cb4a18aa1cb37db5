// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_pmu.c - perf glue: the "vpmu" PMU, counting events on the engines.
 *
 * Documentation/admin-guide/perf/vpmu.rst, "PMU events", is the contract.
 * In short: every CPU's engine has nr_counters narrow counters; an event
 * takes one of them while it is scheduled on that CPU and the driver
 * extends it to 64 bits.  A counting event's counter wraps freely: the
 * engine counts its wraps, and every read of the event folds (wraps x
 * 2^width) in, so no wrap is ever missed, however narrow the counter or
 * long the run, and counting costs no stops.  A sampling event's counter
 * also has its interrupt enable set: the engine stops a run on the exact
 * microword that wraps it, and the run loop raises the overflow lines of
 * every counter that wrapped.
 *
 * Serialisation: the perf core calls add/del/start/stop/read on the
 * event's CPU with interrupts disabled, and run chunks
 * (vpmu_machine_run.c) run with interrupts disabled and deliver their
 * overflow stops before enabling them again.  The per-CPU state below
 * and the engine are therefore only ever touched by one of these at a
 * time, on their own CPU: no locks.
 *
 * Overflow interrupts and sampling: the machine raises the line of every
 * counter that wrapped (vpmu_machine_irq.c); the line's handler calls
 * vpmu_pmu_overflow() through the machine's ops, which folds the wrap in
 * and, for a sampling event whose period that completed, emits a sample:
 * built in through perf_event_overflow(), as a hardware PMU does, and as a
 * module, where that is not exported, through perf_tp_event(), the
 * exported path trace events use, with the driver's own throttle
 * (Documentation/admin-guide/perf/vpmu.rst, "Sampling").  A sampling
 * event's counter is preset so that it wraps exactly on the event that
 * completes the period, and the engine stops right after that microword:
 * a sample's micro-PC and macro PC are those of that microword, exactly.
 *
 * The histogram unit's buckets are another PMU's, "vpmu_hu"
 * (vpmu_pmu_hu.c), under the same serialisation.
 *
 * This file has the perf callbacks and registration; vpmu_pmu_priv.h lists
 * the perf glue's other files.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>

#include "vpmu_pmu_priv.h"

/*
 * Sample types a sample from an engine cannot honour
 * (Documentation/admin-guide/perf/vpmu.rst, "Sampling"); a callchain is the
 * sample's IP alone, and only user-mode samples have one
 * (vpmu_sample_regs()).
 */
#define VPMU_SAMPLE_REFUSED	(PERF_SAMPLE_BRANCH_STACK |		\
				 PERF_SAMPLE_REGS_USER |		\
				 PERF_SAMPLE_STACK_USER |		\
				 PERF_SAMPLE_REGS_INTR |		\
				 PERF_SAMPLE_AUX)

/* ---- counter primitives --------------------------------------------------- */

/* Program counter @idx of this CPU's engine for @event, counting. */
static void vpmu_ctr_enable(struct vpmu_engine *e, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	struct vpmu_ctr_cfg cfg = {
		.event	= hwc->config,
		.width	= vpmu_event_width(event),
		/* Only a sample needs the exact microword of a wrap. */
		.flags	= hwc->config_base |
			  (is_sampling_event(event) ? VPMU_CTR_INT : 0) |
			  (vpmu_event_freezes_on_ovf(event) ? VPMU_CTR_FREEZE_ON_OVF : 0),
		.fgroup	= hwc->event_base,
	};

	WARN_ON_ONCE(vpmu_engine_ctr_config(e, hwc->idx, &cfg));
}

static void vpmu_ctr_disable(struct vpmu_engine *e, unsigned int idx)
{
	vpmu_engine_ctr_config(e, idx, NULL);
	vpmu_engine_ovf_clear(e, BIT(idx));
}

/* ---- attr.config ---------------------------------------------------------- */

/* Decode attr.config into the engine event number, or a negative errno. */
static int vpmu_config_event(struct vpmu_machine *m, u64 config)
{
	unsigned int event = VPMU_CFG_GET(config, EVENT);
	unsigned int tag = VPMU_CFG_GET(config, TAG);
	unsigned int ctr = VPMU_CFG_GET(config, CTR);

	if (config & ~VPMU_CFG_ALL)
		return -EINVAL;
	if (ctr > m->nr_counters)
		return -EINVAL;
	if (tag) {
		if (event)
			return -EINVAL;
		event = VPMU_EV_TAG(tag);
	}
	if (event < VPMU_EV_NR_BASIC)
		return event;
	/* Tags 1..VPMU_TAG_MAX; which of them the image has: vpmu_now_check(). */
	if (event > VPMU_EV_TAG_BASE && event <= VPMU_EV_TAG(VPMU_TAG_MAX))
		return event;
	/* Tag 0, the rest: histogram-unit buckets are vpmu_hu's events. */
	return -ENOENT;
}

/* ---- counter allocation --------------------------------------------------- */

/*
 * One model says which counter an event takes and whether a group can
 * ever be on the counters at once: vpmu_ctr_alloc(), run by pmu::add on
 * its CPU's counters and by event_init on a scratch set, for the whole
 * group in the order the perf core adds it (vpmu_group_fits()).
 */

/* The counter an event must have (0-based), or -1 for any free one. */
static int vpmu_event_ctr(const struct perf_event *event)
{
	return (int)VPMU_CFG_GET(event->attr.config, CTR) - 1;
}

/* The counter @member of a group of @pmu pins, as a mask (0: none). */
static unsigned long vpmu_member_pin(const struct pmu *pmu,
				     const struct perf_event *member)
{
	int c = vpmu_event_ctr(member);

	return member->pmu == pmu && c >= 0 ? BIT(c) : 0;
}

/*
 * The counters the members of @leader's group pin (ctr=), which an event
 * that takes any counter leaves to them; @extra is a member not on the
 * group's sibling list yet (event_init's), or NULL.  Only events of
 * @pmu take counters.
 */
static unsigned long vpmu_group_pinned(const struct pmu *pmu,
				       struct perf_event *leader,
				       const struct perf_event *extra)
{
	unsigned long mask = vpmu_member_pin(pmu, leader);
	struct perf_event *sibling;

	for_each_sibling_event(sibling, leader)
		mask |= vpmu_member_pin(pmu, sibling);
	if (extra)
		mask |= vpmu_member_pin(pmu, extra);
	return mask;
}

/*
 * Take one of the first @nr counters of @used for @event: the one it
 * names, or the lowest free one no member of its group pins (@pinned).
 * @used is a CPU's counters (pmu::add) or a scratch set
 * (vpmu_group_fits()).  Returns the counter or -EAGAIN.
 */
static int vpmu_ctr_alloc(unsigned long *used, unsigned int nr,
			  const struct perf_event *event, unsigned long pinned)
{
	DECLARE_BITMAP(busy, VPMU_NR_COUNTERS_MAX);
	int idx = vpmu_event_ctr(event);

	if (idx >= 0)
		return test_and_set_bit(idx, used) ? -EAGAIN : idx;

	bitmap_copy(busy, used, VPMU_NR_COUNTERS_MAX);
	busy[0] |= pinned;
	idx = find_first_zero_bit(busy, nr);
	if (idx >= nr)
		return -EAGAIN;
	set_bit(idx, used);
	return idx;
}

/*
 * Can @member of @event's group take a counter of @used, those its
 * members added before it have taken?  Another PMU's software event goes
 * anywhere, and no other PMU's event can join.
 */
static bool vpmu_member_fits(unsigned long *used, struct perf_event *event,
			     struct perf_event *member, unsigned long pinned)
{
	if (member->pmu != event->pmu)
		return is_software_event(member);
	return vpmu_ctr_alloc(used, vpmu_event_machine(event)->nr_counters,
			      member, pinned) >= 0;
}

/*
 * Can @event's group, @event included, be on the counters at once?  The
 * allocator answers, on scratch counters, for the members in the order
 * the perf core adds them: the leader, its siblings, then @event (not on
 * the sibling list yet), as arm_dsu_pmu.c validates a group.
 */
static bool vpmu_group_fits(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	unsigned long pinned = vpmu_group_pinned(event->pmu, leader, event);
	DECLARE_BITMAP(used, VPMU_NR_COUNTERS_MAX);

	bitmap_zero(used, VPMU_NR_COUNTERS_MAX);
	if (!vpmu_member_fits(used, event, leader, pinned))
		return false;
	for_each_sibling_event(sibling, leader) {
		if (!vpmu_member_fits(used, event, sibling, pinned))
			return false;
	}
	return vpmu_member_fits(used, event, event, pinned);
}

/* ---- event_init ----------------------------------------------------------- */

/*
 * What the image in force allows: a tag the image's event field can
 * select, as the event or as a leader's trigger
 * (Documentation/admin-guide/perf/vpmu.rst, "PMU events").  Only new
 * opens are checked.  An inherited copy (fork, clone) is its original,
 * checked when that was opened; the image may have changed since, and an
 * error here would fail the fork.  The copy counts what the original
 * counts: nothing, for a tag no microword of the new image carries.
 */
static int vpmu_now_check(struct perf_event *event, unsigned int ev)
{
	unsigned int trig = FIELD_GET(VPMU_CFG1_TRIG_TAG, event->attr.config1);
	unsigned int stop = FIELD_GET(VPMU_CFG1_STOP_TAG, event->attr.config1);
	struct vpmu_machine *m = vpmu_event_machine(event);

	if (event->parent)
		return 0;
	if (ev > VPMU_EV_TAG_BASE && ev <= VPMU_EV_TAG(VPMU_TAG_MAX) &&
	    !vpmu_tag_valid(m, ev - VPMU_EV_TAG_BASE))
		return -EINVAL;
	if (event == event->group_leader && trig && !vpmu_tag_valid(m, trig))
		return -EINVAL;
	if (event == event->group_leader && stop && !vpmu_tag_valid(m, stop))
		return -EINVAL;
	return 0;
}

static int vpmu_event_init(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	int ev, ret;

	if (attr->type != event->pmu->type)
		return -ENOENT;

	/*
	 * Samples carry the PCs of an engine, not a CPU's registers: no
	 * register or stack dumps, branch stacks or AUX data, and a
	 * callchain of one frame, for user-mode samples.  Every sample is
	 * exact, so any precise_ip is honoured.
	 */
	if (has_branch_stack(event))
		return -EOPNOTSUPP;
	if (is_sampling_event(event) &&
	    ((attr->sample_type & VPMU_SAMPLE_REFUSED) || attr->sigtrap ||
	     (attr->exclude_kernel && !VPMU_REGS_USER_MODE) ||
	     ((attr->sample_type & PERF_SAMPLE_CALLCHAIN) &&
	      (attr->exclude_user || !VPMU_REGS_USER_MODE))))
		return -EOPNOTSUPP;
	/* Engines are never guests: a host-free count would count nothing. */
	if (attr->exclude_host)
		return -EOPNOTSUPP;
	/* Fields vpmu has no use for must be clear. */
	if (attr->config2 || VPMU_ATTR_CONFIG3(attr) || VPMU_ATTR_CONFIG4(attr))
		return -EINVAL;
	/* Every microword runs in one of the two modes: none would count. */
	if (attr->exclude_user && attr->exclude_kernel)
		return -EINVAL;
	if (vpmu_leader_refused(event, &to_vpmu(event->pmu)->hu_pmu))
		return -EINVAL;
	if (vpmu_leader_detached(event))
		return -ENODEV;

	ev = vpmu_config_event(vpmu_event_machine(event), attr->config);
	if (ev < 0)
		return ev;
	ret = vpmu_config1_check(event);
	if (ret)
		return ret;
	ret = vpmu_now_check(event, ev);
	if (ret)
		return ret;

	/*
	 * A group that can never be on the counters is refused, where the
	 * perf core lets event_init walk the group (VPMU_GROUP_VALIDATE);
	 * elsewhere such a group opens and never runs.
	 */
	if (VPMU_GROUP_VALIDATE && event->group_leader != event &&
	    !vpmu_group_fits(event))
		return -EINVAL;

	event->hw.idx = -1;
	event->hw.event_base = 0;
	event->hw.config = ev;
	event->hw.config_base = (attr->exclude_user ? 0 : VPMU_CTR_USER) |
				(attr->exclude_kernel ? 0 : VPMU_CTR_SUPER);
	return vpmu_frz_attach(event);
}

/* ---- add, del, start, stop, read ------------------------------------------ */

static void vpmu_start(struct perf_event *event, int flags)
{
	struct vpmu_engine *e = vpmu_event_engine(event);
	struct hw_perf_event *hwc = &event->hw;

	if (WARN_ON_ONCE(!(hwc->state & PERF_HES_STOPPED)))
		return;
	if (flags & PERF_EF_RELOAD)
		WARN_ON_ONCE(!(hwc->state & PERF_HES_UPTODATE));
	hwc->state = 0;

	vpmu_engine_ovf_clear(e, BIT(hwc->idx));
	vpmu_ctr_enable(e, event);
	if (is_sampling_event(event)) {
		vpmu_period_arm(e, event);
	} else {
		/* From 0: the whole width before the first wrap. */
		vpmu_engine_ctr_write(e, hwc->idx, 0);
		local64_set(&hwc->prev_count, 0);
	}
	perf_event_update_userpage(event);
}

static void vpmu_stop(struct perf_event *event, int flags)
{
	struct vpmu_engine *e = vpmu_event_engine(event);
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->state & PERF_HES_STOPPED)) {
		vpmu_event_update(e, event);
		vpmu_ctr_disable(e, hwc->idx);
		hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	}
}

static int vpmu_add(struct perf_event *event, int flags)
{
	struct vpmu_pmu_cpu *cpuc = vpmu_event_cpuc(event);
	struct hw_perf_event *hwc = &event->hw;
	int idx, g;

	idx = vpmu_ctr_alloc(cpuc->used_mask,
			     vpmu_event_machine(event)->nr_counters, event,
			     vpmu_group_pinned(event->pmu, event->group_leader,
					       NULL));
	if (idx < 0)
		return idx;
	g = vpmu_fgroup_get(cpuc, vpmu_event_engine(event), event);
	if (g < 0) {
		clear_bit(idx, cpuc->used_mask);
		return g;
	}

	hwc->idx = idx;
	hwc->event_base = g;
	cpuc->events[idx] = event;
	cpuc->window[idx] = local_clock();
	cpuc->nr_samples[idx] = 0;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		vpmu_start(event, PERF_EF_RELOAD);
	perf_event_update_userpage(event);
	return 0;
}

static void vpmu_del(struct perf_event *event, int flags)
{
	struct vpmu_pmu_cpu *cpuc = vpmu_event_cpuc(event);
	struct hw_perf_event *hwc = &event->hw;

	vpmu_stop(event, PERF_EF_UPDATE);
	cpuc->events[hwc->idx] = NULL;
	clear_bit(hwc->idx, cpuc->used_mask);
	vpmu_fgroup_put(cpuc, vpmu_event_engine(event), hwc->event_base);
	hwc->event_base = 0;
	hwc->idx = -1;
	perf_event_update_userpage(event);
}

/*
 * Runs cannot interleave with a read (both have interrupts disabled on the
 * engine's CPU), so a group read, which reads every member in one go on
 * that CPU, sees all counters as of one instant.
 */
static void vpmu_read(struct perf_event *event)
{
	/*
	 * Not from an NMI, which can land in the middle of a run chunk (a
	 * hardware breakpoint's sample of a group that holds a vpmu event,
	 * on 6.1): the engine's counters may be part-way through a
	 * microword there.  The count stays as of the last fold.
	 */
	if (in_nmi() || (event->hw.state & PERF_HES_STOPPED))
		return;
	vpmu_event_update(vpmu_event_engine(event), event);
}

/* ---- registration --------------------------------------------------------- */

/* What the machine calls up for: run chunks, overflows, bucket changes. */
static const struct vpmu_machine_ops vpmu_pmu_machine_ops = {
	.chunk_begin	= vpmu_pmu_chunk_begin,
	.chunk_end	= vpmu_pmu_chunk_end,
	.overflow	= vpmu_pmu_overflow,
	.overflow_end	= vpmu_pmu_overflow_end,
	.hu_fold	= vpmu_pmu_hu_fold,
	.hu_rebase	= vpmu_pmu_hu_rebase,
};

/* What the other front ends ask of the perf glue (struct vpmu). */
static const struct vpmu_pmu_ops vpmu_pmu_ops = {
	.image_prepare	= vpmu_pmu_image_prepare,
	.image_changed	= vpmu_pmu_image_changed,
	.snapshot	= vpmu_pmu_snapshot,
};

/**
 * vpmu_pmu_register() - register the "vpmu" and "vpmu_hu" PMUs; the last
 * step of init
 * @vpmu: the device, every other part up and its attr_groups filled in
 *
 * What can fail after the first registration is an allocation (the second
 * PMU's, the tag names'), before the module is up; an event opened on the
 * first PMU in that window would outlive the module, as for any module
 * whose init fails after it registered a PMU.
 *
 * Return: 0 or a negative errno.
 */
int vpmu_pmu_register(struct vpmu *vpmu)
{
	struct pmu *pmu = &vpmu->pmu;
	unsigned int cpu;
	int ret;

	vpmu->pmu_cpu = alloc_percpu(struct vpmu_pmu_cpu);
	if (!vpmu->pmu_cpu)
		return -ENOMEM;
	vpmu->pmu_ops = &vpmu_pmu_ops;
	for_each_possible_cpu(cpu)
		INIT_LIST_HEAD(&per_cpu_ptr(vpmu->pmu_cpu, cpu)->hu_active);

	pmu->module = THIS_MODULE;
	pmu->task_ctx_nr = VPMU_TASK_CTX;
	pmu->attr_groups = vpmu->attr_groups;
	vpmu_tag_attrs_init(vpmu);
	pmu->attr_update = vpmu_attr_update;
	pmu->event_init = vpmu_event_init;
	pmu->add = vpmu_add;
	pmu->del = vpmu_del;
	pmu->start = vpmu_start;
	pmu->stop = vpmu_stop;
	pmu->read = vpmu_read;
	vpmu_machine_set_ops(&vpmu->machine, &vpmu_pmu_machine_ops);
	ret = perf_pmu_register(pmu, "vpmu", -1);
	if (ret) {
		pr_err("perf_pmu_register failed: %d\n", ret);
		goto out_ops;
	}
	ret = vpmu_hu_pmu_register(vpmu);
	if (ret)
		goto out_unregister;
	ret = vpmu_tag_names_init(vpmu);
	if (!ret)
		return 0;
	pr_err("cannot make the image's events/ tag names: %d\n", ret);
	vpmu_hu_pmu_unregister(vpmu);
out_unregister:
	perf_pmu_unregister(pmu);
out_ops:
	vpmu_machine_set_ops(&vpmu->machine, NULL);
	free_percpu(vpmu->pmu_cpu);
	vpmu->pmu_cpu = NULL;
	return ret;
}

/**
 * vpmu_pmu_unregister() - unregister the PMUs; the first step of exit
 * @vpmu: the device; no event is open (the module is unused)
 */
void vpmu_pmu_unregister(struct vpmu *vpmu)
{
	vpmu_hu_pmu_unregister(vpmu);
	perf_pmu_unregister(&vpmu->pmu);
	vpmu_tag_names_exit(vpmu);
	vpmu_machine_set_ops(&vpmu->machine, NULL);
	free_percpu(vpmu->pmu_cpu);
	vpmu->pmu_cpu = NULL;
}
