// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_pmu.c - perf glue: the "vpmu" PMU, counting events on the engines.
 *
 * Documentation/vpmu/perf.rst is the contract.  In short: every CPU's
 * engine has nr_counters narrow counters; an event takes one of them while
 * it is scheduled on that CPU and the driver extends it to 64 bits.  A
 * counting event's counter wraps freely: the engine counts its wraps, and
 * every read of the event folds (wraps x 2^width) in, so no wrap is ever
 * missed, however narrow the counter or long the run, and counting costs
 * no stops.  A sampling event's counter also has its interrupt enable
 * set: the engine stops a run on the exact microword that wraps it, and
 * the run loop raises the overflow lines of every counter that wrapped.
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
 * and, for a sampling event whose period that completed, emits a sample
 * through perf_tp_event(), the exported path trace events use
 * (perf_event_overflow() is not exported to modules).  A sampling
 * event's counter is preset so that it wraps exactly on the event that
 * completes the period, and the engine stops right after that microword:
 * a sample's micro-PC and macro PC are those of that microword, exactly.
 *
 * Histogram-unit bucket events (event=0x201..0x210) take no counter: they
 * read the engine's 64-bit bucket as a free-running counter (the "bucket
 * events" section below), under the same serialisation.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/capability.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/trace_events.h>

#include "vpmu.h"
#include "vpmu_compat.h"
#include "vpmu_engine.h"
#include "vpmu_machine.h"

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
 * attr.config1: the group's freeze control, on its leader (perf.rst,
 * "Freezing and triggers"):
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
 * unit (perf.rst, "Gating the histograms"); they need a trigger.
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

/* vpmu_frz.flags and vpmu_frz_task.flags */
#define VPMU_FRZ_FROZEN		BIT(0)	/* the group's freeze bit, saved */
#define VPMU_FRZ_HOLD		BIT(1)	/* frozen on overflow till re-enabled */

/*
 * Samples one event may emit per jiffy before the rest of that jiffy's
 * periods are counted but not sampled: the kernel's default
 * perf_event_max_sample_rate (100000 a second), which a module cannot read.
 */
#define VPMU_MAX_SAMPLES_PER_TICK	DIV_ROUND_UP(100000, HZ)

/*
 * Sample types a sample from an engine cannot honour (perf.rst); a
 * callchain is the sample's IP alone, and only user-mode samples have one
 * (vpmu_sample_regs()).
 */
#define VPMU_SAMPLE_REFUSED	(PERF_SAMPLE_BRANCH_STACK |		\
				 PERF_SAMPLE_REGS_USER |		\
				 PERF_SAMPLE_STACK_USER |		\
				 PERF_SAMPLE_REGS_INTR |		\
				 PERF_SAMPLE_AUX)

/**
 * struct vpmu_sample_raw - a sample's PERF_SAMPLE_RAW record (perf.rst)
 * @ent:	the trace-event header perf_tp_event() fills in (type 0)
 * @upc:	micro-PC of the microword on which the counter wrapped
 * @ipc:	macro PC of the instruction that microword belongs to
 * @ctr:	the counter (0-based)
 * @mode:	VPMU_MODE_USER or VPMU_MODE_SUPER after that microword
 * @count:	the event's count up to and including that microword
 */
struct vpmu_sample_raw {
	struct trace_entry	ent;
	u32			upc;
	u32			ipc;
	u32			ctr;
	u32			mode;
	u64			count;
};

/**
 * struct vpmu_frz_task - one task's state under a per-task freeze control
 * @node:	in vpmu_frz.tasks
 * @task:	the task (a reference)
 * @flags:	VPMU_FRZ_*: the task's freeze bit as of its last run chunk,
 *		and its freeze-on-overflow hold
 * @rcu:	frees it
 *
 * Created in process context when an event of the control is created for
 * @task (event->hw.target), dropped once @task is exiting (it never runs
 * a chunk again) or with the control.  @flags is only touched on behalf
 * of @task itself: in its run chunks and in perf callbacks of its task
 * context, which the perf core makes with @task current.
 */
struct vpmu_frz_task {
	struct list_head	node;
	struct task_struct	*task;
	unsigned int		flags;
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
 * @flags:	CPU-wide group: VPMU_FRZ_*, the freeze bit while the group
 *		is off the counters, and its freeze-on-overflow hold
 * @per_task:	the leader was opened on a task: the state is each task's,
 *		in @tasks, and @flags is unused
 * @lock:	protects @tasks and @gen
 * @tasks:	the vpmu_frz_task of every task with events of the control
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
 * _end()): the engine toggles freeze bits only in run chunks.  @flags is
 * only touched where the group's events are scheduled, on their CPU with
 * interrupts disabled.
 */
struct vpmu_frz {
	refcount_t		ref;
	u64			config1;
	atomic_t		*gated;
	unsigned int		flags;
	bool			per_task;
	raw_spinlock_t		lock;
	struct list_head	tasks;
	unsigned int		gen;
	struct rcu_head		rcu;
};

/**
 * struct vpmu_fgroup - an engine freeze group lent to a perf group
 * @frz:	the control it is lent to, NULL if free; each of the @users
 *		holds a reference to it
 * @users:	events under @frz on this CPU's counters
 * @task:	per-task control: the task whose state @ft is (compared,
 *		never dereferenced), NULL if none was looked up yet
 * @ft:		...that task's state, NULL if it has none
 * @gen:	...looked up while @frz->gen was this: valid while it is
 */
struct vpmu_fgroup {
	struct vpmu_frz		*frz;
	unsigned int		users;
	const struct task_struct *task;
	struct vpmu_frz_task	*ft;
	unsigned int		gen;
};

/**
 * struct vpmu_pmu_cpu - one CPU's counters as perf uses them
 * @events:	the event holding each counter, NULL if free
 * @fgroups:	the engine's freeze groups; 0 is every plain event's, never
 *		frozen, 1.. are lent to groups with a freeze control
 * @hu_active: the started bucket events, linked by their active_entry
 * @used_mask:	counters taken (bit n: counter n, 0-based)
 * @task_fgroups: freeze groups lent to per-task controls (bit g: group g)
 * @tick:	the jiffy of each counter's last sample
 * @nr_samples:	samples of each counter in that jiffy (throttling)
 *
 * Touched only on its own CPU with interrupts disabled (see the head of
 * this file).
 */
struct vpmu_pmu_cpu {
	struct perf_event	*events[VPMU_NR_COUNTERS_MAX];
	struct vpmu_fgroup	fgroups[VPMU_NR_GROUPS_MAX];
	DECLARE_BITMAP(used_mask, VPMU_NR_COUNTERS_MAX);
	unsigned long		task_fgroups;
	unsigned long		tick[VPMU_NR_COUNTERS_MAX];
	unsigned int		nr_samples[VPMU_NR_COUNTERS_MAX];
	struct list_head	hu_active;
};

static struct vpmu_machine *vpmu_event_machine(const struct perf_event *event)
{
	return &to_vpmu(event->pmu)->machine;
}

/* This CPU's counters, for a callback of @event on its CPU. */
static struct vpmu_pmu_cpu *vpmu_event_cpuc(const struct perf_event *event)
{
	return this_cpu_ptr(to_vpmu(event->pmu)->pmu_cpu);
}

/* This CPU's engine, for a callback of @event on its CPU. */
static struct vpmu_engine *vpmu_event_engine(const struct perf_event *event)
{
	return vpmu_this_engine(vpmu_event_machine(event));
}

/* The width of the counter @event holds. */
static unsigned int vpmu_event_width(const struct perf_event *event)
{
	return vpmu_event_machine(event)->widths[event->hw.idx];
}

/* ---- sysfs: format/ and events/ ------------------------------------------ */

struct vpmu_format_attr {
	struct device_attribute attr;
	const char *word;	/* "config" or "config1" */
	u64 field;
};

static ssize_t vpmu_format_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct vpmu_format_attr *fmt = container_of(attr, typeof(*fmt), attr);
	int lo = __ffs64(fmt->field), hi = fls64(fmt->field) - 1;

	if (lo == hi)
		return sysfs_emit(buf, "%s:%d\n", fmt->word, lo);
	return sysfs_emit(buf, "%s:%d-%d\n", fmt->word, lo, hi);
}

#define VPMU_FORMAT_ATTR(_name, _word, _field)				\
	(&((struct vpmu_format_attr[]) {{				\
		.attr = __ATTR(_name, 0444, vpmu_format_show, NULL),	\
		.word = _word,						\
		.field = _field,					\
	}})[0].attr.attr)

static struct attribute *vpmu_format_attrs[] = {
	VPMU_FORMAT_ATTR(event, "config", VPMU_CFG_EVENT),
	VPMU_FORMAT_ATTR(tag, "config", VPMU_CFG_TAG),
	VPMU_FORMAT_ATTR(ctr, "config", VPMU_CFG_CTR),
	VPMU_FORMAT_ATTR(sample_upc, "config", VPMU_CFG_SAMPLE_UPC),
	VPMU_FORMAT_ATTR(trig_ev, "config1", VPMU_CFG1_TRIG_EV),
	VPMU_FORMAT_ATTR(trig_tag, "config1", VPMU_CFG1_TRIG_TAG),
	VPMU_FORMAT_ATTR(trig_mark, "config1", VPMU_CFG1_MARK),
	VPMU_FORMAT_ATTR(frozen, "config1", VPMU_CFG1_FROZEN),
	VPMU_FORMAT_ATTR(freeze_on_ovf, "config1", VPMU_CFG1_FREEZE_ON_OVF),
	VPMU_FORMAT_ATTR(stop_ev, "config1", VPMU_CFG1_STOP_EV),
	VPMU_FORMAT_ATTR(stop_tag, "config1", VPMU_CFG1_STOP_TAG),
	VPMU_FORMAT_ATTR(stop_mark, "config1", VPMU_CFG1_STOP_MARK),
	VPMU_FORMAT_ATTR(trig_ovf, "config1", VPMU_CFG1_TRIG_OVF),
	VPMU_FORMAT_ATTR(stop_ovf, "config1", VPMU_CFG1_STOP_OVF),
	VPMU_FORMAT_ATTR(gate_uhist, "config1", BIT_ULL(55)),
	VPMU_FORMAT_ATTR(gate_hu, "config1", BIT_ULL(56)),
	NULL,
};

const struct attribute_group vpmu_format_group = {
	.name	= "format",
	.attrs	= vpmu_format_attrs,
};

/* An events/ alias: a basic event number, or a tag when @tag is not 0. */
struct vpmu_event_attr {
	struct device_attribute attr;
	u16 event;
	u8 tag;
};

static ssize_t vpmu_event_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct vpmu_event_attr *ev = container_of(attr, typeof(*ev), attr);

	if (ev->tag)
		return sysfs_emit(buf, "tag=%u\n", ev->tag);
	return sysfs_emit(buf, "event=0x%02x\n", ev->event);
}

#define VPMU_EVENT_ATTR(_name, _event, _tag)				\
	(&((struct vpmu_event_attr[]) {{				\
		.attr = {						\
			.attr = { .name = _name, .mode = 0444 },	\
			.show = vpmu_event_show,			\
		},							\
		.event = _event,					\
		.tag = _tag,						\
	}})[0].attr.attr)

#define VPMU_BASIC_ATTR(sym, num, alias, doc)	VPMU_EVENT_ATTR(alias, num, 0),
#define VPMU_HU_ATTR(b)	\
	VPMU_EVENT_ATTR("vpmu_hist" #b, VPMU_EV_HIST(b), 0)

/*
 * Counts of occurrences, so no .unit or .scale: perf's defaults (no unit,
 * scale 1) say it.  The tags are a group of their own (below).
 */
static struct attribute *vpmu_event_attrs[] = {
	VPMU_EVENT_LIST(VPMU_BASIC_ATTR)
	VPMU_HU_ATTR(1), VPMU_HU_ATTR(2), VPMU_HU_ATTR(3),
	VPMU_HU_ATTR(4), VPMU_HU_ATTR(5), VPMU_HU_ATTR(6),
	VPMU_HU_ATTR(7), VPMU_HU_ATTR(8), VPMU_HU_ATTR(9),
	VPMU_HU_ATTR(10), VPMU_HU_ATTR(11), VPMU_HU_ATTR(12),
	VPMU_HU_ATTR(13), VPMU_HU_ATTR(14), VPMU_HU_ATTR(15),
	VPMU_HU_ATTR(16),
	NULL,
};

const struct attribute_group vpmu_events_group = {
	.name	= "events",
	.attrs	= vpmu_event_attrs,
};

/* Is tag @k in the current image's event field (perf.rst)? */
static bool vpmu_tag_valid(struct vpmu_machine *m, unsigned int k)
{
	const struct vpmu_image_header *h;
	struct vpmu_image *img;
	bool ok;

	img = vpmu_image_get(m);
	h = vpmu_ucode_header(img->uc);
	if (h->ev_mode == VPMU_EVMODE_ONEHOT)
		ok = k <= h->ev_bits;
	else
		ok = k < BIT(h->ev_bits);
	vpmu_image_put(img);
	return ok;
}

/*
 * events/vpmu_tagK for exactly the tags the current image's event field
 * selects: 1..ev_bits one-hot, 1..2^ev_bits - 1 encoded, so up to 255
 * files, made here at init rather than spelt out.  They are a second
 * "events" group, in the PMU's attr_update: the perf core adds them to
 * the directory the first made, with is_visible, and
 * vpmu_pmu_image_changed() asks again after every image install.  A
 * listing may still race an install: event_init checks the image in
 * force (vpmu_tag_valid()).
 */
static struct vpmu_event_attr vpmu_tag_attr[VPMU_TAG_MAX];
static char vpmu_tag_name[VPMU_TAG_MAX][sizeof("vpmu_tag255")];
static struct attribute *vpmu_tag_attrs[VPMU_TAG_MAX + 1];

static umode_t vpmu_tag_is_visible(struct kobject *kobj,
				   struct attribute *attr, int i)
{
	return vpmu_tag_valid(&kobj_to_vpmu(kobj)->machine, i + 1) ?
	       attr->mode : 0;
}

static const struct attribute_group vpmu_tag_events_group = {
	.name		= "events",
	.attrs		= vpmu_tag_attrs,
	.is_visible	= vpmu_tag_is_visible,
};

static const struct attribute_group *vpmu_attr_update[] = {
	&vpmu_tag_events_group,
	NULL,
};

static void vpmu_tag_attrs_init(void)
{
	unsigned int i;

	for (i = 0; i < VPMU_TAG_MAX; i++) {
		struct vpmu_event_attr *ev = &vpmu_tag_attr[i];

		snprintf(vpmu_tag_name[i], sizeof(vpmu_tag_name[i]),
			 "vpmu_tag%u", i + 1);
		sysfs_attr_init(&ev->attr.attr);
		ev->attr.attr.name = vpmu_tag_name[i];
		ev->attr.attr.mode = 0444;
		ev->attr.show = vpmu_event_show;
		ev->tag = i + 1;
		vpmu_tag_attrs[i] = &ev->attr.attr;
	}
}

/**
 * vpmu_pmu_image_changed() - an image was installed: update events/
 * @vpmu: the device
 *
 * Shows the tag aliases the new image's event field selects and hides
 * the others.  Called by the loader, serialised by its lock.
 *
 * Context: process context; may sleep.
 */
void vpmu_pmu_image_changed(struct vpmu *vpmu)
{
	int ret = sysfs_update_group(&vpmu->pmu.dev->kobj,
				     &vpmu_tag_events_group);

	if (ret)
		pr_warn("events/: tag aliases not updated: %d\n", ret);
}

/* ---- freeze control (attr.config1) ---------------------------------------- */

/* The freeze control @event was opened under, or NULL. */
static struct vpmu_frz *vpmu_event_frz(const struct perf_event *event)
{
	return event->pmu_private;
}

/* The state a task's copy of the group under @frz starts in. */
static unsigned int vpmu_frz_start(const struct vpmu_frz *frz)
{
	return frz->config1 & VPMU_CFG1_FROZEN ? VPMU_FRZ_FROZEN : 0;
}

static struct vpmu_frz_task *vpmu_frz_task_find(struct vpmu_frz *frz,
						const struct task_struct *t)
{
	struct vpmu_frz_task *ft;

	lockdep_assert_held(&frz->lock);
	list_for_each_entry(ft, &frz->tasks, node) {
		if (ft->task == t)
			return ft;
	}
	return NULL;
}

/*
 * Give @t a state under @frz, unless it has one: it starts as config1
 * says.  Process context (the allocation).
 */
static int vpmu_frz_task_add(struct vpmu_frz *frz, struct task_struct *t)
{
	struct vpmu_frz_task *ft, *new;

	raw_spin_lock_irq(&frz->lock);
	ft = vpmu_frz_task_find(frz, t);
	raw_spin_unlock_irq(&frz->lock);
	if (ft)
		return 0;

	new = kzalloc(sizeof(*new), GFP_KERNEL);
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
	struct vpmu_frz_task *ft, *next;
	LIST_HEAD(dead);

	raw_spin_lock_irq(&frz->lock);
	list_for_each_entry_safe(ft, next, &frz->tasks, node) {
		if (READ_ONCE(ft->task->flags) & PF_EXITING)
			list_move(&ft->node, &dead);
	}
	if (!list_empty(&dead))
		WRITE_ONCE(frz->gen, frz->gen + 1);
	raw_spin_unlock_irq(&frz->lock);

	list_for_each_entry_safe(ft, next, &dead, node) {
		put_task_struct(ft->task);
		kfree_rcu(ft, rcu);
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
	struct vpmu_frz *frz = kzalloc(sizeof(*frz), GFP_KERNEL);

	if (!frz)
		return NULL;
	refcount_set(&frz->ref, 1);
	frz->config1 = event->attr.config1;
	if (frz->config1 & VPMU_CFG1_GATE) {
		frz->gated = to_vpmu(event->pmu)->gated;
		vpmu_gated_add(frz, 1);
	}
	frz->flags = vpmu_frz_start(frz);
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
	struct vpmu_frz_task *ft, *next;

	if (!frz || !refcount_dec_and_test(&frz->ref))
		return;
	if (frz->gated)
		vpmu_gated_add(frz, -1);
	list_for_each_entry_safe(ft, next, &frz->tasks, node) {
		put_task_struct(ft->task);
		kfree_rcu(ft, rcu);
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

/*
 * Attach @event to its group's freeze control, the last step of a
 * successful event_init (the core calls ->destroy only after one): a
 * leader with a config1 creates it, a member of such a leader takes a
 * reference to the leader's, and an inherited copy of either takes one
 * to the control of the event it was copied from (event->parent, always
 * an original: all copies of a group share one control).  The leader, or
 * the parent, is alive here: the caller of perf_event_open() holds its
 * file; inherit_group() creates a child's leader before its members,
 * with the parent on its context, whose mutex it holds.  An event
 * created for a task gives the task a state of its own under the control.
 */
static int vpmu_frz_attach(struct perf_event *event)
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

/* Give engine group @g the triggers @config1 names (NULL: none). */
static void vpmu_cfg1_program(struct vpmu_engine *e, unsigned int g,
			      const u64 *config1)
{
	u16 trig = config1 ? vpmu_cfg1_trigger(*config1) : VPMU_TRIG_NONE;
	u16 stop = config1 ? vpmu_cfg1_get(*config1, &vpmu_cfg1_stop) :
			     VPMU_TRIG_NONE;

	if (stop == VPMU_TRIG_NONE) {
		WARN_ON_ONCE(vpmu_engine_group_trigger(e, g, trig));
		trig = VPMU_TRIG_NONE;
	} else {
		WARN_ON_ONCE(vpmu_engine_group_trigger(e, g, VPMU_TRIG_NONE));
	}
	WARN_ON_ONCE(vpmu_engine_group_start_stop(e, g, trig, stop));
	WARN_ON_ONCE(vpmu_engine_group_gate(e, g, config1 ?
					    FIELD_GET(VPMU_CFG1_GATE,
						      *config1) : 0));
}

/* Does @event's counter freeze its group when it completes a period? */
static bool vpmu_event_freezes_on_ovf(struct perf_event *event)
{
	const struct vpmu_frz *frz = vpmu_event_frz(event);

	return frz && (frz->config1 & VPMU_CFG1_FREEZE_ON_OVF) &&
	       is_sampling_event(event);
}

/*
 * The running task's state under per-task control @fg->frz, NULL if it
 * has none.  Cached in @fg while no state has left the control since,
 * so that a chunk of the task that last ran here costs two compares.
 * Only the running task's own state is ever dereferenced, and a task's
 * state is dropped only once it exits: a cached state found stale by
 * @gen is looked up again, never used.
 *
 * Context: interrupts disabled, on @fg's CPU, for current.
 */
static struct vpmu_frz_task *vpmu_fgroup_task(struct vpmu_fgroup *fg)
{
	struct vpmu_frz *frz = fg->frz;
	unsigned int gen = READ_ONCE(frz->gen);

	if (likely(fg->task == current && fg->gen == gen))
		return fg->ft;
	raw_spin_lock(&frz->lock);
	fg->ft = vpmu_frz_task_find(frz, current);
	fg->gen = frz->gen;
	raw_spin_unlock(&frz->lock);
	fg->task = current;
	return fg->ft;
}

/*
 * Where the state of the group lent @fg is kept: the control's flags for
 * a CPU-wide group, the running task's state for a per-task one (NULL if
 * it has none).  The perf core calls pmu::add and pmu::del of a task
 * context's events with that task current.
 */
static unsigned int *vpmu_fgroup_flags(struct vpmu_fgroup *fg)
{
	struct vpmu_frz_task *ft;

	if (!fg->frz->per_task)
		return &fg->frz->flags;
	ft = vpmu_fgroup_task(fg);
	return ft ? &ft->flags : NULL;
}

/*
 * Hold the group lent @fg frozen until re-enabled (its freeze-on-overflow
 * stop).
 */
static void vpmu_fgroup_hold(struct vpmu_fgroup *fg)
{
	unsigned int *flags = vpmu_fgroup_flags(fg);

	if (flags)
		*flags |= VPMU_FRZ_HOLD;
}

/* Is the group lent @fg frozen on overflow until re-enabled? */
static bool vpmu_fgroup_held(struct vpmu_fgroup *fg)
{
	unsigned int *flags = vpmu_fgroup_flags(fg);

	return flags && (*flags & VPMU_FRZ_HOLD);
}

/* The freeze bit @fg's group last left the engine with. */
static bool vpmu_fgroup_saved(struct vpmu_fgroup *fg)
{
	unsigned int *flags = vpmu_fgroup_flags(fg);

	return (flags ? *flags : vpmu_frz_start(fg->frz)) & VPMU_FRZ_FROZEN;
}

/*
 * The engine freeze group @event counts in: 0 without a freeze control;
 * otherwise the one lent to its group on this CPU, lent now to its first
 * member here, with the group's trigger and the freeze bit as the group
 * last left it (a per-task group: as the running task last left it).
 * -EAGAIN when every group is lent (the perf core then treats it like a
 * lack of counters).
 */
static int vpmu_fgroup_get(struct vpmu_pmu_cpu *cpuc, struct vpmu_engine *e,
			   struct perf_event *event)
{
	struct vpmu_frz *frz = vpmu_event_frz(event);
	struct vpmu_fgroup *fg;
	unsigned int *flags;
	int g, free = -1;

	if (!frz)
		return 0;
	for (g = 1; g < VPMU_NR_GROUPS_MAX; g++) {
		fg = &cpuc->fgroups[g];
		if (fg->frz == frz) {
			fg->users++;
			/* Re-enabled after its freeze-on-overflow stop: thaw. */
			flags = vpmu_fgroup_flags(fg);
			if (flags && (*flags & VPMU_FRZ_HOLD)) {
				*flags &= ~(VPMU_FRZ_HOLD | VPMU_FRZ_FROZEN);
				vpmu_engine_freeze(e, g, false);
			}
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

/*
 * Give back freeze group @g when its last event leaves this CPU, keeping
 * the group's freeze bit for wherever it is scheduled next (context
 * switch, migration, DISABLE/ENABLE): a CPU-wide group's in its control;
 * a per-task group's is in the running task's state already, stored at
 * the end of its last chunk (the engine's bit may be another task's, if
 * the perf core swapped the contexts since).  A group held frozen on
 * overflow leaves thawed: it was counting when it overflowed.  The
 * leaving event still holds its reference to the control.
 */
static void vpmu_fgroup_put(struct vpmu_pmu_cpu *cpuc, struct vpmu_engine *e,
			    unsigned int g)
{
	struct vpmu_fgroup *fg = &cpuc->fgroups[g];
	struct vpmu_frz *frz = fg->frz;
	unsigned int *flags;

	if (!g || WARN_ON_ONCE(!frz) || --fg->users)
		return;
	flags = vpmu_fgroup_flags(fg);
	if (flags && (*flags & VPMU_FRZ_HOLD))
		*flags &= ~(VPMU_FRZ_HOLD | VPMU_FRZ_FROZEN);
	else if (!frz->per_task && vpmu_engine_frozen(e, g))
		*flags |= VPMU_FRZ_FROZEN;
	else if (!frz->per_task)
		*flags &= ~VPMU_FRZ_FROZEN;
	vpmu_cfg1_program(e, g, NULL);
	vpmu_engine_freeze(e, g, false);
	__clear_bit(g, &cpuc->task_fgroups);
	fg->frz = NULL;
	fg->task = NULL;
	fg->ft = NULL;
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
static void vpmu_pmu_chunk_begin(struct vpmu_machine *m, struct vpmu_engine *e)
{
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(machine_to_vpmu(m)->pmu_cpu);
	unsigned long g, groups = cpuc->task_fgroups;
	bool frozen;

	lockdep_assert_irqs_disabled();
	for_each_set_bit(g, &groups, VPMU_NR_GROUPS_MAX) {
		frozen = vpmu_fgroup_saved(&cpuc->fgroups[g]);
		/* An unchanged bit costs no settling of the engine. */
		if (vpmu_engine_frozen(e, g) != frozen)
			vpmu_engine_freeze(e, g, frozen);
	}
	/*
	 * While a control gates a unit, the unit counts only inside a
	 * thawed gating group, on every engine, whatever runs (perf.rst).
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
static void vpmu_pmu_chunk_end(struct vpmu_machine *m, struct vpmu_engine *e)
{
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(machine_to_vpmu(m)->pmu_cpu);
	unsigned long g, groups = cpuc->task_fgroups;
	struct vpmu_fgroup *fg;

	lockdep_assert_irqs_disabled();
	for_each_set_bit(g, &groups, VPMU_NR_GROUPS_MAX) {
		fg = &cpuc->fgroups[g];
		if (fg->task != current || !fg->ft)
			continue;
		if (vpmu_engine_frozen(e, g))
			fg->ft->flags |= VPMU_FRZ_FROZEN;
		else
			fg->ft->flags &= ~VPMU_FRZ_FROZEN;
	}
}

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
		.group	= hwc->event_base,
	};

	WARN_ON_ONCE(vpmu_engine_ctr_config(e, hwc->idx, &cfg));
}

static void vpmu_ctr_disable(struct vpmu_engine *e, unsigned int idx)
{
	vpmu_engine_ctr_config(e, idx, NULL);
	vpmu_engine_ovf_clear(e, BIT(idx));
}

/*
 * Fold what counter hwc->idx counted since prev_count into the event: the
 * difference of the values plus 2^width for every wrap the engine counted
 * since the status bit was last cleared.  (The count, not the comparison
 * of the values, says whether it wrapped: a counter that wraps on exactly
 * the value it was last read at looks unchanged.)
 */
static void vpmu_event_update(struct vpmu_engine *e, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	unsigned int idx = hwc->idx, width = vpmu_event_width(event);
	u64 prev, now, delta;

	prev = local64_read(&hwc->prev_count);
	now = vpmu_engine_ctr_read(e, idx);
	delta = now - prev;
	if (vpmu_engine_ovf_status(e) & BIT(idx)) {
		if (width < 64)
			delta += vpmu_engine_ovf_count(e, idx) << width;
		vpmu_engine_ovf_clear(e, BIT(idx));
	}
	local64_set(&hwc->prev_count, now);
	local64_add(delta, &event->count);
	if (is_sampling_event(event))
		local64_sub(delta, &hwc->period_left);
}

/* ---- sampling periods ----------------------------------------------------- */

/*
 * A sampling event's hw.period_left counts down the events left in its
 * period, as on x86: the counter is preset to wrap on the event that
 * completes the period (or, for a period longer than the counter, after
 * as many events as it holds, and the rest is carried over).
 */

/* Arm counter hwc->idx to wrap when the period's events are in. */
static void vpmu_period_arm(struct vpmu_engine *e, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	unsigned int width = vpmu_event_width(event);
	u64 max = width < 64 ? BIT_ULL(width) - 1 : S64_MAX;
	s64 left = local64_read(&hwc->period_left);
	u64 val;

	if (left <= 0) {
		/* A new period (PERF_EVENT_IOC_PERIOD, freq adjustment). */
		left = hwc->sample_period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = left;
	}
	val = -(u64)min_t(u64, left, max);
	if (width < 64)
		val &= BIT_ULL(width) - 1;
	local64_set(&hwc->prev_count, val);
	vpmu_engine_ctr_write(e, hwc->idx, val);
}

/*
 * How many periods have completed (period_left at or below 0), starting
 * the next one.  One microword can complete several at once only if it
 * adds more events than a period has (stall cycles, a period of 1).
 */
static u64 vpmu_period_advance(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);
	u64 period = hwc->sample_period, n;

	if (left > 0)
		return 0;
	n = 1 + div64_u64(-left, period);
	local64_set(&hwc->period_left, left + n * period);
	hwc->last_period = period;
	return n;
}

/*
 * Fill the fake interrupted registers a sample reports (perf.rst,
 * "Samples"): the IP is where the runner maps the code, the macro PC's
 * address or, with sample_upc, the micro-PC's; the sample is a user-mode
 * one of the task that ran the engine (perf names it through that task's
 * mappings), unless the event counts supervisor mode only, whose samples
 * perf_tp_event() would drop as user-mode ones.
 */
static void vpmu_sample_regs(struct pt_regs *regs, struct perf_event *event,
			     u32 upc, u32 ipc)
{
	u64 ip = event->attr.config & VPMU_CFG_SAMPLE_UPC ?
		 VPMU_SAMPLE_UPC_BASE + upc : VPMU_SAMPLE_PC_BASE + ipc;

	memset(regs, 0, sizeof(*regs));
	instruction_pointer_set(regs, ip);
	vpmu_regs_set_mode(regs, !event->attr.exclude_user);
}

/*
 * Emit one sample for @event through the trace-event path.  perf_tp_event()
 * treats it as a software event: it adds @period to event->count (taken
 * off first: the counter has already been folded in), and runs the
 * overflow (sample, freq adjustment, event_limit, wakeups) exactly once:
 * with PERF_SAMPLE_PERIOD and a fixed period it overflows on every call,
 * otherwise once period_left, set to -period here, reaches 0.
 */
static void vpmu_sample(struct vpmu_engine *e, struct perf_event *event,
			const struct vpmu_stop *stop)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 period = hwc->last_period, before;
	struct {
		struct vpmu_sample_raw raw;
		u32 pad;	/* raw records end u64-aligned with their size */
	} __aligned(8) rec = {};
	struct hlist_head head = {};
	struct pt_regs regs;
	s64 left;
	int rctx;

	rctx = perf_swevent_get_recursion_context();
	if (rctx < 0)
		return;

	rec.raw.upc = stop->upc;
	rec.raw.ipc = stop->ipc;
	rec.raw.ctr = hwc->idx;
	rec.raw.mode = vpmu_engine_mode(e);
	rec.raw.count = local64_read(&event->count);
	vpmu_sample_regs(&regs, event, stop->upc, stop->ipc);

	/* perf_tp_event() delivers to the events on @head: this one only. */
	hlist_add_head(&event->hlist_entry, &head);
	left = local64_read(&hwc->period_left);
	local64_set(&hwc->period_left, -(s64)period);
	before = local64_read(&event->count);
	local64_sub(period, &event->count);
	perf_tp_event(0, period, &rec,
		      ALIGN(sizeof(rec.raw) + sizeof(u32), sizeof(u64)) -
		      sizeof(u32),
		      &regs, &head, rctx, NULL);
	/* Not delivered (the core found it stopped): the count stands. */
	if (local64_read(&event->count) != before)
		local64_set(&event->count, before);
	local64_set(&hwc->period_left, left);
	hlist_del_init(&event->hlist_entry);
}

/* May @event's counter sample once more in this jiffy? */
static bool vpmu_sample_allowed(struct vpmu_pmu_cpu *cpuc, unsigned int idx)
{
	if (time_after(jiffies, cpuc->tick[idx])) {
		cpuc->tick[idx] = jiffies;
		cpuc->nr_samples[idx] = 0;
	}
	if (cpuc->nr_samples[idx] >= VPMU_MAX_SAMPLES_PER_TICK)
		return false;
	cpuc->nr_samples[idx]++;
	return true;
}

/* ---- the overflow interrupt ---------------------------------------------- */

/**
 * vpmu_pmu_overflow() - counter @idx's overflow interrupt handler
 * @m:		the machine
 * @e:		this CPU's engine, stopped
 * @idx:	the counter whose line was raised
 * @stop:	the stop being delivered
 *
 * The machine's ops->overflow: runs on the CPU whose engine stopped, with
 * interrupts disabled, from the line's handler (vpmu_machine_irq.c).
 *
 * Return: IRQ_HANDLED.
 */
static irqreturn_t vpmu_pmu_overflow(struct vpmu_machine *m,
				     struct vpmu_engine *e, unsigned int idx,
				     const struct vpmu_stop *stop)
{
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(machine_to_vpmu(m)->pmu_cpu);
	struct perf_event *event = cpuc->events[idx];
	u64 n;

	/*
	 * 1. Stop: the engine has stopped itself, right after the microword
	 *    on which an interrupting counter wrapped (a counting one's line
	 *    rides along if it wrapped too); nothing counts until it runs
	 *    on.
	 * 2. Read the status: the counter's bit is set if it has wrapped
	 *    since it was last folded (a group read in a sample may have
	 *    folded it already: then the bit is clear and nothing wrapped).
	 * 3. Clear: vpmu_event_update() clears the bit and the overflow
	 *    count as it folds (count x 2^width) in; the bit of a counter no
	 *    event holds is cleared here.
	 */
	if (!event || (event->hw.state & PERF_HES_STOPPED)) {
		vpmu_engine_ovf_clear(e, BIT(idx));
		return IRQ_HANDLED;
	}
	vpmu_event_update(e, event);
	if (!is_sampling_event(event))
		return IRQ_HANDLED;
	/*
	 * 4. Report: a sample for every period completed (its events are
	 *    in; the microword that completed it is the stop's), unless the
	 *    event has sampled too often in this jiffy.
	 */
	for (n = vpmu_period_advance(event); n; n--) {
		if (!vpmu_sample_allowed(cpuc, idx)) {
			/* Counted, not sampled: lost, as PERF_FORMAT_LOST says. */
			atomic64_add(n, &event->lost_samples);
			break;
		}
		vpmu_sample(e, event, stop);
		/*
		 * Its REFRESH limit reached, the core disables the event once
		 * interrupts are on again; a group that freezes on overflow
		 * stays frozen on this microword till then, and until
		 * re-enabled.
		 */
		if (vpmu_event_freezes_on_ovf(event) &&
		    READ_ONCE(event->pending_disable))
			vpmu_fgroup_hold(&cpuc->fgroups[event->hw.event_base]);
		if (event->hw.state & PERF_HES_STOPPED)
			return IRQ_HANDLED;
	}
	/* 5. Restart: re-arm the counter; the caller runs the engine on. */
	vpmu_period_arm(e, event);
	return IRQ_HANDLED;
}

/**
 * vpmu_pmu_overflow_end() - thaw the groups the stop's counters froze
 * @m:		the machine
 * @e:		this CPU's engine, stopped
 * @stop:	the stop; with VPMU_STOP_OVERFLOW, @stop->ovf has the
 *		interrupting counters that wrapped on @stop->upc
 *
 * The machine's ops->overflow_end, once every line of @stop has been
 * handled and before the engine runs on.
 */
static void vpmu_pmu_overflow_end(struct vpmu_machine *m,
				  struct vpmu_engine *e,
				  const struct vpmu_stop *stop)
{
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(machine_to_vpmu(m)->pmu_cpu);
	unsigned long status, frozen = 0, g;
	unsigned int idx;

	/* Groups that froze on overflow on this stop's microword. */
	status = stop->reason == VPMU_STOP_OVERFLOW ? stop->ovf : 0;
	for_each_set_bit(idx, &status, VPMU_NR_COUNTERS_MAX) {
		struct perf_event *event = cpuc->events[idx];

		if (event && vpmu_event_freezes_on_ovf(event))
			frozen |= BIT(event->hw.event_base);
	}
	/*
	 * The handlers are done: thaw those groups, as a freeze-on-PMI
	 * handler does last, unless one is held (its event is being
	 * disabled).
	 */
	for_each_set_bit(g, &frozen, VPMU_NR_GROUPS_MAX) {
		struct vpmu_fgroup *fg = &cpuc->fgroups[g];

		if (fg->frz && !vpmu_fgroup_held(fg))
			vpmu_engine_freeze(e, g, false);
	}
}

/* ---- bucket events -------------------------------------------------------- */

/*
 * A bucket event reads bucket b of its CPU's engine as a free-running
 * 64-bit counter: hwc->prev_count holds the bucket as of the last fold.
 * Anything that changes the buckets other than counting (a program write,
 * a reset, attaching an image) folds every started bucket event of the
 * CPU first and rebases it after (vpmu_pmu_hu_fold(), _rebase()), so
 * counts only ever grow by what was counted.  Should a bucket still be
 * found below its start value, it was zeroed unseen: the count goes on
 * from 0.
 */

static int vpmu_hu_event_init(struct perf_event *event, unsigned int ev)
{
	struct perf_event_attr *attr = &event->attr;

	/* The bucket is the counter: it cannot take one of the narrow ones. */
	if (VPMU_CFG_GET(attr->config, CTR) ||
	    attr->config & VPMU_CFG_SAMPLE_UPC)
		return -EINVAL;
	/* A bucket has no overflow to sample on, nor a mode filter. */
	if (is_sampling_event(event) || attr->exclude_user ||
	    attr->exclude_kernel)
		return -EOPNOTSUPP;
	return 0;
}

static void vpmu_hu_event_update(struct vpmu_engine *e, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev = local64_read(&hwc->prev_count);
	u64 now = vpmu_machine_hu_bucket(vpmu_event_machine(event), e,
					 hwc->config - VPMU_EV_HIST_BASE);

	local64_set(&hwc->prev_count, now);
	local64_add(now >= prev ? now - prev : now, &event->count);
}

static void vpmu_hu_event_start(struct perf_event *event, int flags)
{
	struct vpmu_pmu_cpu *cpuc = vpmu_event_cpuc(event);
	struct vpmu_machine *m = vpmu_event_machine(event);
	struct vpmu_engine *e = vpmu_this_engine(m);
	struct hw_perf_event *hwc = &event->hw;

	if (WARN_ON_ONCE(!(hwc->state & PERF_HES_STOPPED)))
		return;
	hwc->state = 0;
	local64_set(&hwc->prev_count,
		    vpmu_machine_hu_bucket(m, e,
					   hwc->config - VPMU_EV_HIST_BASE));
	list_add_tail(&event->active_entry, &cpuc->hu_active);
	perf_event_update_userpage(event);
}

static void vpmu_hu_event_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->state & PERF_HES_STOPPED)) {
		vpmu_hu_event_update(vpmu_event_engine(event), event);
		list_del_init(&event->active_entry);
		hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	}
}

static int vpmu_hu_event_add(struct perf_event *event, int flags)
{
	event->hw.idx = -1;
	event->hw.state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		vpmu_hu_event_start(event, PERF_EF_RELOAD);
	perf_event_update_userpage(event);
	return 0;
}

/**
 * vpmu_pmu_hu_fold() - fold this CPU's started bucket events
 * @m:	the machine
 * @e:	this CPU's engine, whose buckets are about to change
 *
 * The machine's ops->hu_fold.
 *
 * Context: interrupts disabled, on the engine's CPU.
 */
static void vpmu_pmu_hu_fold(struct vpmu_machine *m, struct vpmu_engine *e)
{
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(machine_to_vpmu(m)->pmu_cpu);
	struct perf_event *event;

	lockdep_assert_irqs_disabled();
	list_for_each_entry(event, &cpuc->hu_active, active_entry)
		vpmu_hu_event_update(e, event);
}

/**
 * vpmu_pmu_hu_rebase() - restart this CPU's started bucket events
 * @m:	the machine
 * @e:	this CPU's engine, whose buckets have changed
 *
 * The machine's ops->hu_rebase.
 *
 * Context: interrupts disabled, on the engine's CPU.
 */
static void vpmu_pmu_hu_rebase(struct vpmu_machine *m, struct vpmu_engine *e)
{
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(machine_to_vpmu(m)->pmu_cpu);
	struct perf_event *event;

	lockdep_assert_irqs_disabled();
	list_for_each_entry(event, &cpuc->hu_active, active_entry)
		local64_set(&event->hw.prev_count,
			    vpmu_machine_hu_bucket(m, e,
						   event->hw.config -
						   VPMU_EV_HIST_BASE));
}

/* ---- event_init ----------------------------------------------------------- */

static bool vpmu_ev_is_hu_bucket(unsigned int ev)
{
	return ev > VPMU_EV_HIST_BASE && ev <= VPMU_EV_HIST(VPMU_HIST_BUCKETS);
}

static bool vpmu_event_is_hu_bucket(const struct perf_event *event)
{
	return vpmu_ev_is_hu_bucket(event->hw.config);
}

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
	/* Histogram-unit buckets 1..16; bucket 0 and 17..255 do not exist. */
	if (event >= VPMU_EV_HIST_BASE && event <= VPMU_EV_HIST(0xff))
		return vpmu_ev_is_hu_bucket(event) ? event : -EINVAL;
	/* Tag 0, the rest. */
	return -ENOENT;
}

/* The counter an event must have (0-based), or -1 for any free one. */
static int vpmu_event_ctr(const struct perf_event *event)
{
	return (int)VPMU_CFG_GET(event->attr.config, CTR) - 1;
}

/* What a group needs of the counters: pinned ones, any ones, or no way. */
struct vpmu_group_need {
	unsigned int pinned;
	unsigned int any;
	bool impossible;
};

static void vpmu_group_add(struct vpmu_group_need *need, struct pmu *pmu,
			   struct perf_event *member)
{
	int c = vpmu_event_ctr(member);

	if (member->pmu != pmu) {
		/* Software events go anywhere; other PMUs' cannot join. */
		if (!is_software_event(member))
			need->impossible = true;
	} else if (vpmu_ev_is_hu_bucket(VPMU_CFG_GET(member->attr.config, EVENT))) {
		/* Bucket events take no counter. */
	} else if (c < 0) {
		need->any++;
	} else if (need->pinned & BIT(c)) {
		need->impossible = true;
	} else {
		need->pinned |= BIT(c);
	}
}

/*
 * Can @event's group, @event included, be on the counters at once?  Only
 * events of this PMU take counters.
 */
static bool vpmu_group_fits(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	struct vpmu_group_need need = {};

	vpmu_group_add(&need, event->pmu, leader);
	for_each_sibling_event(sibling, leader)
		vpmu_group_add(&need, event->pmu, sibling);
	if (event != leader)
		vpmu_group_add(&need, event->pmu, event);

	return !need.impossible &&
	       hweight32(need.pinned) + need.any <=
	       vpmu_event_machine(event)->nr_counters;
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

/* Is attr.config1 a freeze control perf.rst allows for @event? */
static int vpmu_config1_check(struct perf_event *event)
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

/*
 * Is @event's group led by another PMU whose overflow is an exception: a
 * hardware PMU's NMI, or a breakpoint's debug exception?  Either could
 * read these counters in the middle of a run chunk (a sample with
 * PERF_SAMPLE_READ of the group).  Breakpoints share perf_sw_context
 * with the software PMUs, so the perf core groups them with vpmu on
 * every kernel; a hardware PMU's context only joins on 6.1.  vpmu_read()
 * is NMI-safe anyway, for groups led by vpmu that such events join.
 */
static bool vpmu_leader_refused(const struct perf_event *event)
{
	struct perf_event *leader = event->group_leader;

	if (leader->pmu == event->pmu)
		return false;
	return !is_software_event(leader) ||
	       leader->attr.type == PERF_TYPE_BREAKPOINT;
}

/*
 * Has the perf core already taken apart the group @event would join?
 * Two core paths remove a leader from its context with DETACH_GROUP yet
 * leave it alive, its fd still a valid group_fd: taking its CPU offline
 * (every event of that CPU's context) and an exec of its task (a
 * remove_on_exec leader).  perf_event_open() does not check that a
 * leader is still attached, and lets a new member onto its sibling list;
 * but perf_group_detach() does nothing for a detached event, so closing
 * that leader would leave the member pointing at the freed leader (a
 * use-after-free in the core, whatever the PMUs: testing.rst, "A perf
 * core bug the stress found").  A vpmu event never joins such a group:
 * ENODEV, as 6.12's core answers itself for a leader in state EXIT,
 * which is what an exec leaves (6.1 does not check; a CPU going offline
 * leaves the leader OFF, which neither checks).  The fix for every PMU
 * is the core's (upstream/perf-detached-leader/); this check stays until
 * the kernels vpmu supports carry it, and answers as the fixed core does.
 * PERF_ATTACH_GROUP only changes under the leader's ctx->mutex, which the
 * core holds around event_init from 6.2 on; on 6.1 this is a snapshot.
 */
static bool vpmu_leader_detached(const struct perf_event *event)
{
	const struct perf_event *leader = event->group_leader;

	return leader != event &&
	       !(READ_ONCE(leader->attach_state) & PERF_ATTACH_GROUP);
}

/*
 * What the image and the histogram unit's program in force allow: a tag
 * the image's event field can select, as the event or as a leader's
 * trigger, and a bucket of the program (perf.rst).  Only new opens are
 * checked.  An inherited copy (fork, clone) is its original, checked when
 * that was opened; the image or the program may have changed since, and
 * an error here would fail the fork.  The copy counts what the original
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
	if (vpmu_ev_is_hu_bucket(ev) &&
	    ev - VPMU_EV_HIST_BASE > vpmu_machine_hu_nr(m))
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
	if (attr->config2 || VPMU_ATTR_CONFIG3(attr))
		return -EINVAL;
	/* Every microword runs in one of the two modes: none would count. */
	if (attr->exclude_user && attr->exclude_kernel)
		return -EINVAL;
	if (vpmu_leader_refused(event))
		return -EINVAL;
	if (vpmu_leader_detached(event))
		return -ENODEV;

	ev = vpmu_config_event(vpmu_event_machine(event), attr->config);
	if (ev < 0)
		return ev;
	if (vpmu_ev_is_hu_bucket(ev)) {
		/* Bucket registers have no freeze bit. */
		if (attr->config1)
			return -EINVAL;
		ret = vpmu_hu_event_init(event, ev);
		if (ret)
			return ret;
	}
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

/*
 * Counters pinned by other members of @event's group, which an event that
 * takes any counter should leave to them.
 */
static unsigned long vpmu_group_pinned(struct perf_event *event)
{
	struct perf_event *leader = event->group_leader, *sibling;
	unsigned long mask = 0;

	if (leader != event && leader->pmu == event->pmu &&
	    vpmu_event_ctr(leader) >= 0)
		mask |= BIT(vpmu_event_ctr(leader));
	for_each_sibling_event(sibling, leader) {
		if (sibling != event && sibling->pmu == event->pmu &&
		    vpmu_event_ctr(sibling) >= 0)
			mask |= BIT(vpmu_event_ctr(sibling));
	}
	return mask;
}

/* Take a counter for @event: the one it names, or the lowest free one. */
static int vpmu_get_idx(struct vpmu_pmu_cpu *cpuc, struct perf_event *event)
{
	unsigned int nr = vpmu_event_machine(event)->nr_counters;
	DECLARE_BITMAP(busy, VPMU_NR_COUNTERS_MAX);
	int idx = vpmu_event_ctr(event);

	if (idx >= 0)
		return test_and_set_bit(idx, cpuc->used_mask) ? -EAGAIN : idx;

	bitmap_copy(busy, cpuc->used_mask, VPMU_NR_COUNTERS_MAX);
	busy[0] |= vpmu_group_pinned(event);
	idx = find_first_zero_bit(busy, nr);
	if (idx >= nr)
		return -EAGAIN;
	set_bit(idx, cpuc->used_mask);
	return idx;
}

static void vpmu_start(struct perf_event *event, int flags)
{
	struct vpmu_engine *e = vpmu_event_engine(event);
	struct hw_perf_event *hwc = &event->hw;

	if (vpmu_event_is_hu_bucket(event)) {
		vpmu_hu_event_start(event, flags);
		return;
	}
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

	if (vpmu_event_is_hu_bucket(event)) {
		vpmu_hu_event_stop(event, flags);
		return;
	}
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

	if (vpmu_event_is_hu_bucket(event))
		return vpmu_hu_event_add(event, flags);
	idx = vpmu_get_idx(cpuc, event);
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
	cpuc->tick[idx] = jiffies;
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
	if (vpmu_event_is_hu_bucket(event)) {
		perf_event_update_userpage(event);
		return;
	}
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
	if (vpmu_event_is_hu_bucket(event))
		vpmu_hu_event_update(vpmu_event_engine(event), event);
	else
		vpmu_event_update(vpmu_event_engine(event), event);
}

/* ---- engine snapshot (VPMU_IOC_SNAPSHOT) --------------------------------- */

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
static void vpmu_snap_here(struct vpmu_engine *e, const struct vpmu_image *img,
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
	out->generation = img ? img->generation : 0;
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
		out->ctr[i].group = s.cfg[i].group;
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

/**
 * vpmu_pmu_register() - register the "vpmu" PMU; the last step of init
 * @vpmu: the device, every other part up and its attr_groups filled in
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
	for_each_possible_cpu(cpu)
		INIT_LIST_HEAD(&per_cpu_ptr(vpmu->pmu_cpu, cpu)->hu_active);

	pmu->module = THIS_MODULE;
	pmu->task_ctx_nr = VPMU_TASK_CTX;
	pmu->attr_groups = vpmu->attr_groups;
	vpmu_tag_attrs_init();
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
		vpmu_machine_set_ops(&vpmu->machine, NULL);
		free_percpu(vpmu->pmu_cpu);
		vpmu->pmu_cpu = NULL;
	}
	return ret;
}

/**
 * vpmu_pmu_unregister() - unregister the PMU; the first step of exit
 * @vpmu: the device; no event is open (the module is unused)
 */
void vpmu_pmu_unregister(struct vpmu *vpmu)
{
	perf_pmu_unregister(&vpmu->pmu);
	vpmu_machine_set_ops(&vpmu->machine, NULL);
	free_percpu(vpmu->pmu_cpu);
	vpmu->pmu_cpu = NULL;
}
