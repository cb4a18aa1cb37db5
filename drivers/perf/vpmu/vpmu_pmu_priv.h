/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vpmu_pmu_priv.h - the perf glue's own header: what its files share.
 *
 * The perf glue is the front end that puts perf events on the engines'
 * counters (vpmu.h lists the front ends;
 * Documentation/admin-guide/perf/vpmu.rst, "PMU events", is its
 * contract).  Its files, and only they, include this header:
 *
 *   vpmu_pmu.c         the perf callbacks (event_init, add, del, start,
 *                      stop, read), the counters and registration
 *   vpmu_pmu_sysfs.c   format/ and events/
 *   vpmu_pmu_freeze.c  freeze controls (attr.config1) and the engine
 *                      freeze groups lent to them
 *   vpmu_pmu_ovf.c     an event's count from its counter, sampling
 *                      periods, samples, the overflow interrupt
 *   vpmu_pmu_hu.c      the "vpmu_hu" PMU: histogram-unit bucket events
 *   vpmu_pmu_snap.c    the engine snapshot (VPMU_IOC_SNAPSHOT)
 */
#ifndef _VPMU_PMU_PRIV_H
#define _VPMU_PMU_PRIV_H

#include <linux/bitfield.h>
#include <linux/bitmap.h>
#include <linux/bits.h>
#include <linux/irqreturn.h>
#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/types.h>

#include "vpmu.h"
#include "vpmu_compat.h"
#include "vpmu_engine.h"
#include "vpmu_machine.h"

/*
 * vpmu's one architecture difference: a sample's fake interrupted
 * registers (vpmu_pmu_ovf.c) say whether the sample is a user-mode one,
 * which perf_tp_event() checks against exclude_user and exclude_kernel and
 * perf reports in the sample's misc field.  x86 takes it from the code
 * segment, and marks an exact IP with PERF_EFLAGS_EXACT.  A user-mode
 * callchain there is the IP and then the frames from regs->bp; a frame
 * pointer and stack pointer outside user space end it at the IP, the one
 * frame an engine's sample has.  Elsewhere sampling events with
 * exclude_kernel and callchains are refused (VPMU_REGS_USER_MODE 0).
 */
#ifdef CONFIG_X86
#define VPMU_REGS_USER_MODE	1
static inline void vpmu_regs_set_mode(struct pt_regs *regs, bool user)
{
	regs->cs = user ? __USER_CS : __KERNEL_CS;
	regs->flags = PERF_EFLAGS_EXACT;
	regs->bp = ~0UL;
	regs->sp = ~0UL;
}
#else
#define VPMU_REGS_USER_MODE	0
static inline void vpmu_regs_set_mode(struct pt_regs *regs, bool user)
{
}
#endif

/*
 * attr.config, as format/ describes it (generated from these masks):
 *
 *       25    24    20 19    12 11          0
 *  +------------+--------+--------+-------------+
 *  | sample_upc |  ctr   |  tag   |    event    |
 *  +------------+--------+--------+-------------+
 *
 * sample_upc: a sample's IP is the micro-PC (VPMU_SAMPLE_UPC_BASE + upc)
 * instead of the macro PC (VPMU_SAMPLE_PC_BASE + pc); uapi vpmu.h.
 */
#define VPMU_CFG_EVENT		GENMASK_ULL(11, 0)
#define VPMU_CFG_TAG		GENMASK_ULL(19, 12)
#define VPMU_CFG_CTR		GENMASK_ULL(24, 20)
#define VPMU_CFG_SAMPLE_UPC	BIT_ULL(25)
#define VPMU_CFG_ALL		(VPMU_CFG_EVENT | VPMU_CFG_TAG | VPMU_CFG_CTR | \
				 VPMU_CFG_SAMPLE_UPC)

#define VPMU_CFG_GET(cfg, f)	FIELD_GET(VPMU_CFG_##f, (cfg))

/*
 * attr.config1: the group's freeze control, on its leader
 * (Documentation/admin-guide/perf/vpmu.rst, "Freezing and triggers"):
 *
 *          22          21     20    19      12 11         0
 *  +---------------+--------+------+----------+------------+
 *  | freeze_on_ovf | frozen | mark | trig_tag |  trig_ev   |
 *  +---------------+--------+------+----------+------------+
 *    56        55         54      50 49      45   43   42      35 34        23
 *  +---------+------------+----------+----------+-----------+----------+----------+
 *  | gate_hu | gate_uhist | stop_ovf | trig_ovf | stop_mark | stop_tag | stop_ev  |
 *  +---------+------------+----------+----------+-----------+----------+----------+
 *
 * At most one trigger: trig_ev (a basic event other than CYCLES),
 * trig_tag (a tag), mark (microwords with the trigger bit) or trig_ovf
 * (counter n - 1 wrapping); it toggles, or with a stop trigger (at most
 * one of the stop_* fields, the same kinds) it starts.  gate_uhist and
 * gate_hu make the group gate the micro-PC histogram and the histogram
 * unit; they need a trigger.
 */
#define VPMU_CFG1_TRIG_EV		GENMASK_ULL(11, 0)
#define VPMU_CFG1_TRIG_TAG		GENMASK_ULL(19, 12)
#define VPMU_CFG1_MARK			BIT_ULL(20)
#define VPMU_CFG1_FROZEN		BIT_ULL(21)
#define VPMU_CFG1_FREEZE_ON_OVF		BIT_ULL(22)
#define VPMU_CFG1_STOP_EV		GENMASK_ULL(34, 23)
#define VPMU_CFG1_STOP_TAG		GENMASK_ULL(42, 35)
#define VPMU_CFG1_STOP_MARK		BIT_ULL(43)
#define VPMU_CFG1_TRIG_OVF		GENMASK_ULL(49, 45)
#define VPMU_CFG1_STOP_OVF		GENMASK_ULL(54, 50)
/* VPMU_GATE_UHIST, VPMU_GATE_HU */
#define VPMU_CFG1_GATE			GENMASK_ULL(56, 55)
#define VPMU_CFG1_ALL			(GENMASK_ULL(43, 0) |		\
					 GENMASK_ULL(56, 45))

struct vpmu_frz;
struct vpmu_frz_state;

/**
 * struct vpmu_fgroup - an engine freeze group lent to a perf group
 * @frz:	the control it is lent to, NULL if free; each of the @users
 *		holds a reference to it
 * @users:	events under @frz on this CPU's counters
 * @task:	per-task control: the task whose state @state is (compared,
 *		never dereferenced), NULL if none was looked up yet
 * @state:	...that task's state, NULL if it has none
 * @gen:	...looked up while @frz->gen was this: valid while it is
 *
 * vpmu_pmu_freeze.c's head says how it, the control and the states
 * relate.
 */
struct vpmu_fgroup {
	struct vpmu_frz		*frz;
	unsigned int		users;
	const struct task_struct *task;
	struct vpmu_frz_state	*state;
	unsigned int		gen;
};

/**
 * struct vpmu_pmu_cpu - one CPU's counters as perf uses them
 * @events:	the event holding each counter, NULL if free
 * @fgroups:	the engine's freeze groups; 0 is every plain event's, never
 *		frozen, 1.. are lent to groups with a freeze control
 * @hu_active: the started bucket events (vpmu_hu's), linked by their
 *		active_entry
 * @used_mask:	counters taken (bit n: counter n, 0-based)
 * @task_fgroups: freeze groups lent to per-task controls (bit g: fgroup g)
 * @window:	where each counter's throttling window began (local_clock())
 * @nr_samples:	samples of each counter in that window (throttling)
 *
 * Touched only on its own CPU with interrupts disabled (see the head of
 * vpmu_pmu.c).
 */
struct vpmu_pmu_cpu {
	struct perf_event	*events[VPMU_NR_COUNTERS_MAX];
	struct vpmu_fgroup	fgroups[VPMU_NR_FGROUPS_MAX];
	DECLARE_BITMAP(used_mask, VPMU_NR_COUNTERS_MAX);
	unsigned long		task_fgroups;
	u64			window[VPMU_NR_COUNTERS_MAX];
	unsigned int		nr_samples[VPMU_NR_COUNTERS_MAX];
	struct list_head	hu_active;
};

static inline struct vpmu_machine *vpmu_event_machine(const struct perf_event *event)
{
	return &to_vpmu(event->pmu)->machine;
}

/* This CPU's counters, for a callback of @event on its CPU. */
static inline struct vpmu_pmu_cpu *vpmu_event_cpuc(const struct perf_event *event)
{
	return this_cpu_ptr(to_vpmu(event->pmu)->pmu_cpu);
}

/* This CPU's engine, for a callback of @event on its CPU. */
static inline struct vpmu_engine *vpmu_event_engine(const struct perf_event *event)
{
	return vpmu_this_engine(vpmu_event_machine(event));
}

/* The width of the counter @event holds. */
static inline unsigned int vpmu_event_width(const struct perf_event *event)
{
	return vpmu_event_machine(event)->widths[event->hw.idx];
}

/* vpmu_pmu_sysfs.c: format/ and events/ */
extern const struct attribute_group *vpmu_attr_update[];
void vpmu_tag_attrs_init(struct vpmu *vpmu);
bool vpmu_tag_valid(struct vpmu_machine *m, unsigned int k);
int vpmu_pmu_image_prepare(struct vpmu *vpmu, const struct vpmu_ucode *uc);
void vpmu_pmu_image_changed(struct vpmu *vpmu);
int vpmu_tag_names_init(struct vpmu *vpmu);
void vpmu_tag_names_exit(struct vpmu *vpmu);

/* vpmu_pmu_freeze.c: freeze controls and freeze groups */
int vpmu_config1_check(struct perf_event *event);
int vpmu_frz_attach(struct perf_event *event);
bool vpmu_event_freezes_on_ovf(struct perf_event *event);
int vpmu_fgroup_get(struct vpmu_pmu_cpu *cpuc, struct vpmu_engine *e,
		    struct perf_event *event);
void vpmu_fgroup_put(struct vpmu_pmu_cpu *cpuc, struct vpmu_engine *e,
		     unsigned int g);
void vpmu_fgroup_hold(struct vpmu_fgroup *fg);
bool vpmu_fgroup_held(struct vpmu_fgroup *fg);
void vpmu_pmu_chunk_begin(struct vpmu_machine *m, struct vpmu_engine *e);
void vpmu_pmu_chunk_end(struct vpmu_machine *m, struct vpmu_engine *e);

/* vpmu_pmu_ovf.c: counts, sampling and the overflow interrupt */
void vpmu_event_update(struct vpmu_engine *e, struct perf_event *event);
void vpmu_period_arm(struct vpmu_engine *e, struct perf_event *event);
irqreturn_t vpmu_pmu_overflow(struct vpmu_machine *m, struct vpmu_engine *e,
			      unsigned int idx, const struct vpmu_stop *stop);
void vpmu_pmu_overflow_end(struct vpmu_machine *m, struct vpmu_engine *e,
			   const struct vpmu_stop *stop);

/* ---- what either PMU's event_init asks of the group an event joins ---- */

/**
 * vpmu_leader_refused() - may @event not join the group it names?
 * @event:	a new event of one of the device's two PMUs
 * @other:	the device's other PMU
 *
 * Refused: a group of the other PMU, whose events the perf core would not
 * group with this one's from 6.2 on (two PMUs' contexts) and 6.1 would
 * (both of perf_sw_context): refused on every kernel alike; and a group
 * led by another PMU whose overflow is an exception: a hardware PMU's
 * NMI, or a breakpoint's debug exception.  Either could read the engine in
 * the middle of a run chunk (a sample with PERF_SAMPLE_READ of the
 * group).  Breakpoints share perf_sw_context with the software PMUs, so
 * the perf core groups them with vpmu on every kernel; a hardware PMU's
 * context only joins on 6.1.  vpmu_read() and vpmu_hu_read() are
 * NMI-safe anyway, for groups led by vpmu that such events join.
 *
 * Return: true if @event must not be opened (EINVAL).
 */
static inline bool vpmu_leader_refused(const struct perf_event *event,
				       const struct pmu *other)
{
	struct perf_event *leader = event->group_leader;

	if (leader->pmu == event->pmu)
		return false;
	if (leader->pmu == other)
		return true;
	return !is_software_event(leader) ||
	       leader->attr.type == PERF_TYPE_BREAKPOINT;
}

/**
 * vpmu_leader_detached() - has the perf core already taken apart the
 * group @event would join?
 * @event:	a new event of one of the device's two PMUs
 *
 * Two core paths remove a leader from its context with DETACH_GROUP yet
 * leave it alive, its fd still a valid group_fd: taking its CPU offline
 * (every event of that CPU's context) and an exec of its task (a
 * remove_on_exec leader).  perf_event_open() does not check that a
 * leader is still attached, and lets a new member onto its sibling list;
 * but perf_group_detach() does nothing for a detached event, so closing
 * that leader would leave the member pointing at the freed leader (a
 * use-after-free in the core, whatever the PMUs, which vpmu_stress
 * found).  A vpmu event never joins such a group: ENODEV, as 6.12's core
 * answers itself for a leader in state EXIT, which is what an exec leaves
 * (6.1 does not check; a CPU going offline leaves the leader OFF, which
 * neither checks).  The fix for every PMU is the core's (proposed
 * upstream); this check stays until the kernels vpmu supports carry it,
 * and answers as the fixed core does.
 * PERF_ATTACH_GROUP only changes under the leader's ctx->mutex, which the
 * core holds around event_init from 6.2 on; on 6.1 this is a snapshot.
 *
 * Return: true if @event must not be opened (ENODEV).
 */
static inline bool vpmu_leader_detached(const struct perf_event *event)
{
	const struct perf_event *leader = event->group_leader;

	return leader != event &&
	       !(READ_ONCE(leader->attach_state) & PERF_ATTACH_GROUP);
}

/* vpmu_pmu_hu.c: the "vpmu_hu" PMU, histogram-unit bucket events */
int vpmu_hu_pmu_register(struct vpmu *vpmu);
void vpmu_hu_pmu_unregister(struct vpmu *vpmu);
void vpmu_pmu_hu_fold(struct vpmu_machine *m, struct vpmu_engine *e);
void vpmu_pmu_hu_rebase(struct vpmu_machine *m, struct vpmu_engine *e);

/* vpmu_pmu_snap.c: the engine snapshot */
int vpmu_pmu_snapshot(struct vpmu *vpmu, unsigned int cpu, bool clear,
		      struct vpmu_snapshot *out);

#endif /* _VPMU_PMU_PRIV_H */
