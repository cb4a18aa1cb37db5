// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_pmu_freeze.c - perf glue: freeze controls (attr.config1).
 *
 * A group's leader names a freeze control in config1: its trigger, the
 * state it starts in, freeze on overflow and the histograms it gates
 * (Documentation/admin-guide/perf/vpmu.rst, "Freezing and triggers").
 * Three objects, one role each:
 *
 *   struct vpmu_frz        the control: what config1 asked for, shared
 *                          by every event opened under it
 *   struct vpmu_frz_state  the freeze state of one copy of the group:
 *                          its freeze bit while off the engine, and its
 *                          freeze-on-overflow hold.  A CPU-wide group
 *                          has one, in the control; a per-task group
 *                          one per task (inherit makes copies)
 *   struct vpmu_fgroup     an engine freeze group a CPU lends the
 *                          control while its events are on that CPU's
 *                          counters, and the state it runs
 *
 * Serialisation is vpmu_pmu.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/capability.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "vpmu_pmu_priv.h"

/* vpmu_frz_state.flags */
#define VPMU_FRZ_FROZEN		BIT(0)	/* the group's freeze bit, saved */
#define VPMU_FRZ_HOLD		BIT(1)	/* frozen on overflow till re-enabled */

/**
 * struct vpmu_frz_state - the freeze state of one copy of a group
 * @flags:	VPMU_FRZ_*: the freeze bit as the copy last left the engine,
 *		and its freeze-on-overflow hold
 * @task:	a per-task group's: the task (a reference); NULL for the
 *		CPU-wide group's
 * @node:	a per-task group's: in vpmu_frz.tasks
 * @rcu:	a per-task group's: frees it
 *
 * A CPU-wide group's is its control's (vpmu_frz.cpu), touched only where
 * the group's events are scheduled, on their CPU with interrupts
 * disabled.  A per-task group's is created in process context when an
 * event of the control is created for @task (event->hw.target), and
 * dropped once @task is exiting (it never runs a chunk again) or with
 * the control; its @flags are only touched on behalf of @task itself: in
 * its run chunks and in perf callbacks of its task context, which the
 * perf core makes with @task current.
 */
struct vpmu_frz_state {
	unsigned int		flags;
	struct task_struct	*task;
	struct list_head	node;
	struct rcu_head		rcu;
};

/**
 * struct vpmu_frz - a perf group's freeze control, shared by its events
 * @ref:	one for every event opened under the control: the leader
 *		that names it in config1, each member opened in its group,
 *		and every inherited copy of either (event->pmu_private;
 *		dropped by event->destroy)
 * @config1:	the leader's attr.config1: trigger, start state,
 *		freeze on overflow, gates
 * @gated:	with a gate, the device's count of gating controls
 *		(struct vpmu.gated), which this one is in
 * @per_task:	the leader was opened on a task: each task has a state of
 *		its own, in @tasks, and @cpu is unused
 * @cpu:	a CPU-wide group's state
 * @lock:	protects @tasks and @gen
 * @tasks:	the state of every task with events of the control
 * @gen:	bumped whenever an entry leaves @tasks (lockless cache check)
 * @rcu:	frees it
 *
 * The perf core frees a leader closed before its members and promotes
 * each member to a group of its own (perf_group_detach()), so nothing
 * may point at the leader beyond its own callbacks.  The control is an
 * object of its own instead, which lives as long as any event opened
 * under it: a member whose leader was closed keeps counting between the
 * same triggers.
 *
 * With inherit every task has its own copy of the group, and the perf
 * core switches between two tasks whose contexts are clones by swapping
 * the contexts, with no pmu::del or pmu::add: the copies on the counters
 * then run for the other task.  So the freeze state of a per-task group
 * is kept per task (@tasks), in the control all copies share (found
 * through event->parent), and each run chunk loads the running task's
 * state into the engine and stores it back (vpmu_pmu_chunk_begin(),
 * _end()): the engine toggles freeze bits only in run chunks.
 */
struct vpmu_frz {
	refcount_t		ref;
	u64			config1;
	atomic_t		*gated;
	bool			per_task;
	struct vpmu_frz_state	cpu;
	raw_spinlock_t		lock;
	struct list_head	tasks;
	unsigned int		gen;
	struct rcu_head		rcu;
};

/* The freeze control @event was opened under, or NULL. */
static struct vpmu_frz *vpmu_event_frz(const struct perf_event *event)
{
	return event->pmu_private;
}

/* The flags a copy of the group under @frz starts with. */
static unsigned int vpmu_frz_start(const struct vpmu_frz *frz)
{
	return frz->config1 & VPMU_CFG1_FROZEN ? VPMU_FRZ_FROZEN : 0;
}

/* Task @t's state under per-task control @frz, NULL if it has none. */
static struct vpmu_frz_state *vpmu_frz_task_find(struct vpmu_frz *frz,
						 const struct task_struct *t)
{
	struct vpmu_frz_state *st;

	lockdep_assert_held(&frz->lock);
	list_for_each_entry(st, &frz->tasks, node) {
		if (st->task == t)
			return st;
	}
	return NULL;
}

/*
 * Give @t a state under @frz, unless it has one: it starts as config1
 * says.  Process context (the allocation).
 */
static int vpmu_frz_task_add(struct vpmu_frz *frz, struct task_struct *t)
{
	struct vpmu_frz_state *st, *new;

	raw_spin_lock_irq(&frz->lock);
	st = vpmu_frz_task_find(frz, t);
	raw_spin_unlock_irq(&frz->lock);
	if (st)
		return 0;

	new = kzalloc_obj(*new, VPMU_GFP_USER);
	if (!new)
		return -ENOMEM;
	new->flags = vpmu_frz_start(frz);
	raw_spin_lock_irq(&frz->lock);
	if (!vpmu_frz_task_find(frz, t)) {
		new->task = get_task_struct(t);
		list_add_tail(&new->node, &frz->tasks);
		new = NULL;
	}
	raw_spin_unlock_irq(&frz->lock);
	kfree(new);
	return 0;
}

/*
 * Drop the states of tasks that are exiting: they never run a chunk
 * again, and their events are going (perf_event_exit_task()).  Process
 * context; the task references are put outside the lock.  A CPU may
 * still have such a state cached (struct vpmu_fgroup): @gen tells it not
 * to use it, and the state is freed after a grace period.
 */
static void vpmu_frz_prune(struct vpmu_frz *frz)
{
	struct vpmu_frz_state *st, *next;
	LIST_HEAD(dead);

	raw_spin_lock_irq(&frz->lock);
	list_for_each_entry_safe(st, next, &frz->tasks, node) {
		if (READ_ONCE(st->task->flags) & PF_EXITING)
			list_move(&st->node, &dead);
	}
	if (!list_empty(&dead))
		WRITE_ONCE(frz->gen, frz->gen + 1);
	raw_spin_unlock_irq(&frz->lock);

	list_for_each_entry_safe(st, next, &dead, node) {
		put_task_struct(st->task);
		kfree_rcu(st, rcu);
	}
}

/*
 * Count control @frz in or out (@d) of those gating each unit: while any
 * does, every engine's gated units count only inside a thawed gating
 * group (vpmu_pmu_chunk_begin()).
 */
static void vpmu_gated_add(struct vpmu_frz *frz, int d)
{
	unsigned int u;

	for (u = 0; u < 2; u++)
		if (FIELD_GET(VPMU_CFG1_GATE, frz->config1) >> u & 1)
			atomic_add(d, &frz->gated[u]);
}

/* The units (VPMU_GATE_*) some control gates. */
static unsigned int vpmu_gated_units(struct vpmu *vpmu)
{
	return (atomic_read(&vpmu->gated[0]) ? VPMU_GATE_UHIST : 0) |
	       (atomic_read(&vpmu->gated[1]) ? VPMU_GATE_HU : 0);
}

static struct vpmu_frz *vpmu_frz_create(struct perf_event *event)
{
	struct vpmu_frz *frz = kzalloc_obj(*frz, VPMU_GFP_USER);

	if (!frz)
		return NULL;
	refcount_set(&frz->ref, 1);
	frz->config1 = event->attr.config1;
	if (frz->config1 & VPMU_CFG1_GATE) {
		frz->gated = to_vpmu(event->pmu)->gated;
		vpmu_gated_add(frz, 1);
	}
	frz->cpu.flags = vpmu_frz_start(frz);
	frz->per_task = event->attach_state & PERF_ATTACH_TASK;
	raw_spin_lock_init(&frz->lock);
	INIT_LIST_HEAD(&frz->tasks);
	return frz;
}

/*
 * Drop a reference; the last frees the control and every task state left
 * (no event of the control is on any counter, nor can be again).
 * Process context: event->destroy or a failed event_init.
 */
static void vpmu_frz_put(struct vpmu_frz *frz)
{
	struct vpmu_frz_state *st, *next;

	if (!frz || !refcount_dec_and_test(&frz->ref))
		return;
	if (frz->gated)
		vpmu_gated_add(frz, -1);
	list_for_each_entry_safe(st, next, &frz->tasks, node) {
		put_task_struct(st->task);
		kfree_rcu(st, rcu);
	}
	kfree_rcu(frz, rcu);
}

/* event->destroy: the event is off every counter for good. */
static void vpmu_event_destroy(struct perf_event *event)
{
	struct vpmu_frz *frz = vpmu_event_frz(event);

	if (frz && frz->per_task)
		vpmu_frz_prune(frz);
	vpmu_frz_put(frz);
	event->pmu_private = NULL;
}

/**
 * vpmu_frz_attach() - attach @event to its group's freeze control
 * @event:	the event, otherwise initialised
 *
 * The last step of a
 * successful event_init (the core calls ->destroy only after one): a
 * leader with a config1 creates it, a member of such a leader takes a
 * reference to the leader's, and an inherited copy of either takes one
 * to the control of the event it was copied from (event->parent, always
 * an original: all copies of a group share one control).  The leader, or
 * the parent, is alive here: the caller of perf_event_open() holds its
 * file; inherit_group() creates a child's leader before its members,
 * with the parent on its context, whose mutex it holds.  An event
 * created for a task gives the task a state of its own under the control.
 *
 * Context: process context; may sleep.
 * Return: 0 or -ENOMEM.
 */
int vpmu_frz_attach(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct vpmu_frz *frz = NULL;
	int ret;

	if (event->parent) {
		frz = vpmu_event_frz(event->parent);
		if (frz)
			refcount_inc(&frz->ref);
	} else if (leader != event) {
		frz = leader->pmu == event->pmu ? vpmu_event_frz(leader) : NULL;
		if (frz)
			refcount_inc(&frz->ref);
	} else if (event->attr.config1) {
		frz = vpmu_frz_create(event);
		if (!frz)
			return -ENOMEM;
	}
	if (!frz)
		return 0;
	if (frz->per_task && event->hw.target) {
		vpmu_frz_prune(frz);
		ret = vpmu_frz_task_add(frz, event->hw.target);
		if (ret) {
			vpmu_frz_put(frz);
			return ret;
		}
	}
	event->pmu_private = frz;
	event->destroy = vpmu_event_destroy;
	return 0;
}

/* The field @mask of @v (FIELD_GET() with a mask known at run time). */
static unsigned int vpmu_field(u64 mask, u64 v)
{
	return (v & mask) >> __ffs64(mask);
}

/* The config1 fields of one trigger: the toggle or start, or the stop. */
struct vpmu_cfg1_trig {
	u64 ev, tag, mark, ovf;
};

static const struct vpmu_cfg1_trig vpmu_cfg1_start = {
	VPMU_CFG1_TRIG_EV, VPMU_CFG1_TRIG_TAG, VPMU_CFG1_MARK,
	VPMU_CFG1_TRIG_OVF,
};

static const struct vpmu_cfg1_trig vpmu_cfg1_stop = {
	VPMU_CFG1_STOP_EV, VPMU_CFG1_STOP_TAG, VPMU_CFG1_STOP_MARK,
	VPMU_CFG1_STOP_OVF,
};

/*
 * The engine trigger @f's fields of @config1 name: VPMU_TRIG_NONE, _MARK,
 * _OVF(counter) or an event.
 */
static u16 vpmu_cfg1_get(u64 config1, const struct vpmu_cfg1_trig *f)
{
	unsigned int tag = vpmu_field(f->tag, config1);
	unsigned int ev = vpmu_field(f->ev, config1);
	unsigned int ovf = vpmu_field(f->ovf, config1);

	if (config1 & f->mark)
		return VPMU_TRIG_MARK;
	if (tag)
		return VPMU_EV_TAG(tag);
	if (ovf)
		return VPMU_TRIG_OVF(ovf - 1);
	return ev ? ev : VPMU_TRIG_NONE;
}

/* The toggle, or with a stop trigger the start trigger, @config1 names. */
static u16 vpmu_cfg1_trigger(u64 config1)
{
	return vpmu_cfg1_get(config1, &vpmu_cfg1_start);
}

/* Give engine freeze group @g the triggers @config1 names (NULL: none). */
static void vpmu_cfg1_program(struct vpmu_engine *e, unsigned int g,
			      const u64 *config1)
{
	u16 trig = config1 ? vpmu_cfg1_trigger(*config1) : VPMU_TRIG_NONE;
	u16 stop = config1 ? vpmu_cfg1_get(*config1, &vpmu_cfg1_stop) :
			     VPMU_TRIG_NONE;

	if (stop == VPMU_TRIG_NONE) {
		WARN_ON_ONCE(vpmu_engine_fgroup_trigger(e, g, trig));
		trig = VPMU_TRIG_NONE;
	} else {
		WARN_ON_ONCE(vpmu_engine_fgroup_trigger(e, g, VPMU_TRIG_NONE));
	}
	WARN_ON_ONCE(vpmu_engine_fgroup_start_stop(e, g, trig, stop));
	WARN_ON_ONCE(vpmu_engine_fgroup_gate(e, g, config1 ?
					     FIELD_GET(VPMU_CFG1_GATE,
						       *config1) : 0));
}

/**
 * vpmu_event_freezes_on_ovf() - does @event's counter freeze its group?
 * @event:	the event
 *
 * Return: true if @event's counter freezes its group when it completes
 * a period (config1 freeze_on_ovf, a sampling event).
 */
bool vpmu_event_freezes_on_ovf(struct perf_event *event)
{
	const struct vpmu_frz *frz = vpmu_event_frz(event);

	return frz && (frz->config1 & VPMU_CFG1_FREEZE_ON_OVF) &&
	       is_sampling_event(event);
}

/*
 * The state of the copy of the group that @fg runs: a CPU-wide group's
 * one, or the running task's under a per-task control (NULL if it has
 * none; the perf core calls pmu::add and pmu::del of a task context's
 * events with that task current).  A task's is cached in @fg while no
 * state has left the control since, so that a chunk of the task that
 * last ran here costs two compares.  Only the running task's own state
 * is ever dereferenced, and a task's state is dropped only once it
 * exits: a cached state found stale by @gen is looked up again, never
 * used.
 *
 * Context: interrupts disabled, on @fg's CPU, for current.
 */
static struct vpmu_frz_state *vpmu_fgroup_state(struct vpmu_fgroup *fg)
{
	struct vpmu_frz *frz = fg->frz;
	unsigned int gen;

	if (!frz->per_task)
		return &frz->cpu;
	gen = READ_ONCE(frz->gen);
	if (likely(fg->task == current && fg->gen == gen))
		return fg->state;
	raw_spin_lock(&frz->lock);
	fg->state = vpmu_frz_task_find(frz, current);
	fg->gen = frz->gen;
	raw_spin_unlock(&frz->lock);
	fg->task = current;
	return fg->state;
}

/* Keep freeze bit @frozen in @st: its copy of the group leaves the engine. */
static void vpmu_frz_state_save(struct vpmu_frz_state *st, bool frozen)
{
	if (frozen)
		st->flags |= VPMU_FRZ_FROZEN;
	else
		st->flags &= ~VPMU_FRZ_FROZEN;
}

/*
 * End @st's freeze-on-overflow hold, thawed (it was counting when it
 * overflowed).  Returns whether it was held.
 */
static bool vpmu_frz_state_release(struct vpmu_frz_state *st)
{
	if (!st || !(st->flags & VPMU_FRZ_HOLD))
		return false;
	st->flags &= ~(VPMU_FRZ_HOLD | VPMU_FRZ_FROZEN);
	return true;
}

/**
 * vpmu_fgroup_hold() - hold a group frozen until re-enabled
 * @fg:	the freeze group lent to it
 *
 * Its freeze-on-overflow stop.
 *
 * Context: interrupts disabled, on @fg's CPU.
 */
void vpmu_fgroup_hold(struct vpmu_fgroup *fg)
{
	struct vpmu_frz_state *st = vpmu_fgroup_state(fg);

	if (st)
		st->flags |= VPMU_FRZ_HOLD;
}

/**
 * vpmu_fgroup_held() - is a group frozen on overflow until re-enabled?
 * @fg:	the freeze group lent to it
 *
 * Context: interrupts disabled, on @fg's CPU.
 * Return: true if vpmu_fgroup_hold() holds it.
 */
bool vpmu_fgroup_held(struct vpmu_fgroup *fg)
{
	struct vpmu_frz_state *st = vpmu_fgroup_state(fg);

	return st && (st->flags & VPMU_FRZ_HOLD);
}

/* The freeze bit @fg's group last left the engine with. */
static bool vpmu_fgroup_saved(struct vpmu_fgroup *fg)
{
	struct vpmu_frz_state *st = vpmu_fgroup_state(fg);

	return (st ? st->flags : vpmu_frz_start(fg->frz)) & VPMU_FRZ_FROZEN;
}

/**
 * vpmu_fgroup_get() - the engine freeze group @event is to count in
 * @cpuc:	this CPU's counters
 * @e:		this CPU's engine
 * @event:	the event being added
 *
 * 0 without a freeze control;
 * otherwise the one lent to its group on this CPU, lent now to its first
 * member here, with the group's trigger and the freeze bit as the group
 * last left it (a per-task group: as the running task last left it).
 *
 * Context: pmu::add, on the event's CPU with interrupts disabled.
 * Return: the group, or -EAGAIN when every group is lent (the perf core
 * then treats it like a lack of counters).
 */
int vpmu_fgroup_get(struct vpmu_pmu_cpu *cpuc, struct vpmu_engine *e,
		    struct perf_event *event)
{
	struct vpmu_frz *frz = vpmu_event_frz(event);
	struct vpmu_fgroup *fg;
	int g, free = -1;

	if (!frz)
		return 0;
	for (g = 1; g < VPMU_NR_FGROUPS_MAX; g++) {
		fg = &cpuc->fgroups[g];
		if (fg->frz == frz) {
			fg->users++;
			/* Re-enabled after its freeze-on-overflow stop: thaw. */
			if (vpmu_frz_state_release(vpmu_fgroup_state(fg)))
				vpmu_engine_freeze(e, g, false);
			return g;
		}
		if (!fg->frz && free < 0)
			free = g;
	}
	if (free < 0)
		return -EAGAIN;
	fg = &cpuc->fgroups[free];
	fg->frz = frz;
	fg->users = 1;
	fg->task = NULL;
	if (frz->per_task)
		__set_bit(free, &cpuc->task_fgroups);
	vpmu_cfg1_program(e, free, &frz->config1);
	vpmu_engine_freeze(e, free, vpmu_fgroup_saved(fg));
	return free;
}

/**
 * vpmu_fgroup_put() - an event leaves freeze group @g
 * @cpuc:	this CPU's counters
 * @e:		this CPU's engine
 * @g:		the group the event counted in (0: none)
 *
 * Gives back freeze group @g when its last event leaves this CPU, keeping
 * the group's freeze bit for wherever it is scheduled next (context
 * switch, migration, DISABLE/ENABLE): a CPU-wide group's in its control;
 * a per-task group's is in the running task's state already, stored at
 * the end of its last chunk (the engine's bit may be another task's, if
 * the perf core swapped the contexts since).  A group held frozen on
 * overflow leaves thawed: it was counting when it overflowed.  The
 * leaving event still holds its reference to the control.
 *
 * Context: pmu::del, on the event's CPU with interrupts disabled.
 */
void vpmu_fgroup_put(struct vpmu_pmu_cpu *cpuc, struct vpmu_engine *e,
		     unsigned int g)
{
	struct vpmu_fgroup *fg = &cpuc->fgroups[g];
	struct vpmu_frz *frz = fg->frz;
	struct vpmu_frz_state *st;

	if (!g || WARN_ON_ONCE(!frz) || --fg->users)
		return;
	st = vpmu_fgroup_state(fg);
	if (!vpmu_frz_state_release(st) && !frz->per_task)
		vpmu_frz_state_save(st, vpmu_engine_frozen(e, g));
	vpmu_cfg1_program(e, g, NULL);
	vpmu_engine_freeze(e, g, false);
	__clear_bit(g, &cpuc->task_fgroups);
	fg->frz = NULL;
	fg->task = NULL;
	fg->state = NULL;
}

/**
 * vpmu_pmu_chunk_begin() - give per-task groups the running task's state
 * @m:		the machine
 * @e:	this CPU's engine, about to run a chunk for current
 *
 * The perf core may have swapped current's task context with that of the
 * task that ran here last (clones under inherit: no pmu::del, no
 * pmu::add), leaving that task's freeze bits on the engine.  Load
 * current's into every freeze group lent to a per-task control, so that
 * the triggers toggle current's state; vpmu_pmu_chunk_end() stores it
 * back.  The engine changes freeze bits only in run chunks.  The
 * machine's ops->chunk_begin.
 *
 * Context: interrupts disabled, on the engine's CPU, for current.
 */
void vpmu_pmu_chunk_begin(struct vpmu_machine *m, struct vpmu_engine *e)
{
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(machine_to_vpmu(m)->pmu_cpu);
	unsigned long g, fgroups = cpuc->task_fgroups;
	bool frozen;

	lockdep_assert_irqs_disabled();
	for_each_set_bit(g, &fgroups, VPMU_NR_FGROUPS_MAX) {
		frozen = vpmu_fgroup_saved(&cpuc->fgroups[g]);
		/* An unchanged bit costs no settling of the engine. */
		if (vpmu_engine_frozen(e, g) != frozen)
			vpmu_engine_freeze(e, g, frozen);
	}
	/*
	 * While a control gates a unit, the unit counts only inside a
	 * thawed gating group, on every engine, whatever runs.
	 */
	vpmu_engine_gate_closed(e, vpmu_gated_units(machine_to_vpmu(m)));
}

/**
 * vpmu_pmu_chunk_end() - store the running task's freeze bits
 * @m:		the machine
 * @e:	this CPU's engine, whose chunk for current has just ended
 *
 * The machine's ops->chunk_end.
 *
 * Context: interrupts disabled since vpmu_pmu_chunk_begin(), on the
 * engine's CPU, for current.
 */
void vpmu_pmu_chunk_end(struct vpmu_machine *m, struct vpmu_engine *e)
{
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(machine_to_vpmu(m)->pmu_cpu);
	unsigned long g, fgroups = cpuc->task_fgroups;
	struct vpmu_fgroup *fg;

	lockdep_assert_irqs_disabled();
	for_each_set_bit(g, &fgroups, VPMU_NR_FGROUPS_MAX) {
		fg = &cpuc->fgroups[g];
		if (fg->task == current && fg->state)
			vpmu_frz_state_save(fg->state, vpmu_engine_frozen(e, g));
	}
}

/*
 * Are @f's fields of @c1 one trigger at most, a basic event below
 * VPMU_EV_NR_BASIC or a counter of @m?
 */
static bool vpmu_cfg1_trig_ok(struct vpmu_machine *m, u64 c1,
			      const struct vpmu_cfg1_trig *f)
{
	unsigned int ev = vpmu_field(f->ev, c1);
	unsigned int ovf = vpmu_field(f->ovf, c1);

	return !!ev + !!vpmu_field(f->tag, c1) + !!(c1 & f->mark) + !!ovf <= 1 &&
	       ev < VPMU_EV_NR_BASIC && ovf <= m->nr_counters;
}

/**
 * vpmu_config1_check() - is attr.config1 an allowed freeze control?
 * @event:	the event being initialised
 *
 * Context: event_init.
 * Return: 0, -EINVAL or -EACCES.
 */
int vpmu_config1_check(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;
	struct vpmu_machine *m = vpmu_event_machine(event);
	u64 c1 = event->attr.config1;

	if (c1 & ~VPMU_CFG1_ALL)
		return -EINVAL;
	if (event != leader) {
		/* A member carries its leader's control or none. */
		if (c1 && (leader->pmu != event->pmu ||
			   leader->attr.config1 != c1))
			return -EINVAL;
		return 0;
	}
	if (!vpmu_cfg1_trig_ok(m, c1, &vpmu_cfg1_start) ||
	    !vpmu_cfg1_trig_ok(m, c1, &vpmu_cfg1_stop))
		return -EINVAL;
	/* Frozen with nothing to thaw it would never count. */
	if ((c1 & VPMU_CFG1_FROZEN) &&
	    vpmu_cfg1_trigger(c1) == VPMU_TRIG_NONE)
		return -EINVAL;
	/* A gate with no trigger would be open or shut for good. */
	if ((c1 & VPMU_CFG1_GATE) &&
	    vpmu_cfg1_trigger(c1) == VPMU_TRIG_NONE &&
	    vpmu_cfg1_get(c1, &vpmu_cfg1_stop) == VPMU_TRIG_NONE)
		return -EINVAL;
	/*
	 * A gate shuts the histograms of every engine, for every task: as
	 * much a system-wide control as a CPU-wide event (CAP_PERFMON).  An
	 * inherited copy was allowed with its parent.
	 */
	if ((c1 & VPMU_CFG1_GATE) && !event->parent && !perfmon_capable())
		return -EACCES;
	return 0;
}
