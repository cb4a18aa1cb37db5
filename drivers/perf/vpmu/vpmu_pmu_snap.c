// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_pmu_snap.c - perf glue: the engine snapshot (VPMU_IOC_SNAPSHOT).
 *
 * Every counter of a CPU's engine and its overflow status at one
 * instant, copied on that CPU between two run chunks, and optionally
 * cleared without disturbing perf's counts
 * (Documentation/admin-guide/perf/vpmu.rst, "/dev/vpmu"; /dev/vpmu's
 * ioctl, vpmu_cdev.c, checks the request).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>

#include "vpmu_pmu_priv.h"

struct vpmu_snap_call {
	struct vpmu		*vpmu;
	unsigned int		cpu;
	bool			clear;
	struct vpmu_snapshot	*out;
};

/* The uapi flags of counter @i of @s, held by @event if not NULL. */
static u8 vpmu_snap_ctr_flags(const struct vpmu_engine_snap *s,
			      unsigned int i, struct perf_event *event)
{
	u8 f = s->cfg[i].flags, out = 0;

	if (f & VPMU_CTR_USER)
		out |= VPMU_SNAP_CTR_USER;
	if (f & VPMU_CTR_SUPER)
		out |= VPMU_SNAP_CTR_SUPER;
	if (f & VPMU_CTR_INT)
		out |= VPMU_SNAP_CTR_INT;
	if (f & VPMU_CTR_FREEZE_ON_OVF)
		out |= VPMU_SNAP_CTR_FREEZE;
	if (event)
		out |= VPMU_SNAP_CTR_PERF;
	if (event && is_sampling_event(event))
		out |= VPMU_SNAP_CTR_SAMPLING;
	return out;
}

/*
 * On the engine's CPU, interrupts off, between two run chunks: copy, then
 * clear what may be cleared.  A counter whose wrap does something (a
 * sample, a freeze, a trigger) keeps its value: clearing it would move
 * that.  A counting event's count is folded in before its counter is
 * zeroed, and its prev_count follows the counter, so perf's count stays
 * exact.  A stopped event's counter is reloaded when it starts again.
 */
static void vpmu_snap_here(struct vpmu_engine *e, const struct vpmu_cstore *cs,
			   void *arg)
{
	struct vpmu_snap_call *c = arg;
	struct vpmu_pmu_cpu *cpuc = per_cpu_ptr(c->vpmu->pmu_cpu, c->cpu);
	unsigned int i, n = c->vpmu->machine.nr_counters;
	struct vpmu_snapshot *out = c->out;
	struct vpmu_engine_snap s;
	struct perf_event *ev;
	u32 clear = 0;

	vpmu_engine_snapshot(e, &s, 0);
	out->generation = cs ? cs->generation : 0;
	out->nr_counters = n;
	out->ovf = s.ovf & (BIT(n) - 1);
	out->frozen = s.frozen;
	out->trig_ovf = s.trig_ovf & (BIT(n) - 1);
	for (i = 0; i < n; i++) {
		ev = cpuc->events[i];
		if (ev && (ev->hw.state & PERF_HES_STOPPED))
			ev = NULL;
		out->ctr[i].value = s.ctr[i];
		out->ctr[i].ovf_count = s.ovf_cnt[i];
		out->ctr[i].width = s.cfg[i].flags ? s.cfg[i].width : 0;
		out->ctr[i].event = out->ctr[i].width ? s.cfg[i].event : 0;
		out->ctr[i].group = s.cfg[i].fgroup;
		out->ctr[i].flags = vpmu_snap_ctr_flags(&s, i, ev);
		if (!c->clear || s.trig_ovf & BIT(i) ||
		    (s.cfg[i].flags & (VPMU_CTR_INT | VPMU_CTR_FREEZE_ON_OVF)) ||
		    (ev && is_sampling_event(ev)))
			continue;
		clear |= BIT(i);
		if (ev) {
			vpmu_event_update(e, ev);
			local64_set(&ev->hw.prev_count, 0);
		}
	}
	vpmu_engine_ctr_clear(e, clear);
	out->cleared = clear;
}

/**
 * vpmu_pmu_snapshot() - VPMU_IOC_SNAPSHOT: @cpu's counters at one instant
 * @vpmu:	the device
 * @cpu:	a possible CPU
 * @clear:	then clear the counters that may be (struct vpmu_snapshot)
 * @out:	filled in past its in fields, which the caller checked
 *
 * The device's pmu_ops->snapshot, for /dev/vpmu.
 *
 * Context: process context; may sleep.
 * Return: 0 or the errno of vpmu_machine_call().
 */
int vpmu_pmu_snapshot(struct vpmu *vpmu, unsigned int cpu, bool clear,
		      struct vpmu_snapshot *out)
{
	struct vpmu_snap_call c = {
		.vpmu = vpmu, .cpu = cpu, .clear = clear, .out = out,
	};

	return vpmu_machine_call(&vpmu->machine, cpu, vpmu_snap_here, &c);
}
