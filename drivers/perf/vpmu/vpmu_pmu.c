// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_pmu.c - perf glue: the "vpmu" PMU, counting events on the engines.
 *
 * Documentation/vpmu/perf.rst is the contract.  In short: every CPU's
 * engine has nr_counters narrow counters; an event takes one of them while
 * it is scheduled on that CPU and the driver extends it to 64 bits.  A
 * counting event's counter wraps freely inside a run: the engine counts
 * its wraps, and at the end of the run chunk its overflow line is raised
 * and the handler folds (wraps x 2^width) into the event, so no wrap is
 * ever missed, however narrow the counter or long the run, and counting
 * costs no stops.  A sampling event's counter also has its interrupt
 * enable set: the engine stops a run on the exact microword that wraps it.
 *
 * Serialisation: the perf core calls add/del/start/stop/read on the
 * event's CPU with interrupts disabled, and run chunks (vpmu_cdev.c) run
 * with interrupts disabled and call vpmu_pmu_overflow() before enabling
 * them again.  The per-CPU state below and the engine are therefore only
 * ever touched by one of these at a time, on their own CPU: no locks.
 *
 * Overflow interrupts and sampling: vpmu_pmu_overflow() raises the line of
 * every counter that wrapped (vpmu_irq.c); vpmu_pmu_irq(), the handler,
 * folds the wrap in and, for a sampling event whose period that completed,
 * emits a sample through perf_tp_event(), the exported path trace events
 * use (perf_event_overflow() is not exported to modules).  A sampling
 * event's counter is preset so that it wraps exactly on the event that
 * completes the period, and the engine stops right after that microword:
 * a sample's micro-PC and macro PC are those of that microword, exactly.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitfield.h>
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/ptrace.h>
#include <linux/sysfs.h>
#include <linux/trace_events.h>

#include "vpmu.h"
#include "vpmu_compat.h"
#include "vpmu_engine.h"

/*
 * attr.config, as format/ describes it (generated from these masks):
 *
 *   24    20 19    12 11          0
 *  +--------+--------+-------------+
 *  |  ctr   |  tag   |    event    |
 *  +--------+--------+-------------+
 */
#define VPMU_CFG_EVENT		GENMASK_ULL(11, 0)
#define VPMU_CFG_TAG		GENMASK_ULL(19, 12)
#define VPMU_CFG_CTR		GENMASK_ULL(24, 20)
#define VPMU_CFG_ALL		(VPMU_CFG_EVENT | VPMU_CFG_TAG | VPMU_CFG_CTR)

#define VPMU_CFG_GET(cfg, f)	FIELD_GET(VPMU_CFG_##f, (cfg))

/*
 * Samples one event may emit per jiffy before the rest of that jiffy's
 * periods are counted but not sampled: the kernel's default
 * perf_event_max_sample_rate (100000 a second), which a module cannot read.
 */
#define VPMU_MAX_SAMPLES_PER_TICK	DIV_ROUND_UP(100000, HZ)

/* Sample types a sample from an engine cannot honour (perf.rst). */
#define VPMU_SAMPLE_REFUSED	(PERF_SAMPLE_CALLCHAIN |		\
				 PERF_SAMPLE_BRANCH_STACK |		\
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
 * struct vpmu_pmu_cpu - one CPU's counters as perf uses them
 * @events:	the event holding each counter, NULL if free
 * @used_mask:	counters taken (bit n: counter n, 0-based)
 * @ovf_engine:	while vpmu_pmu_overflow() raises lines: the stopped engine
 * @ovf_stop:	...and its stop
 * @tick:	the jiffy of each counter's last sample
 * @nr_samples:	samples of each counter in that jiffy (throttling)
 *
 * Touched only on its own CPU with interrupts disabled (see the head of
 * this file).
 */
struct vpmu_pmu_cpu {
	struct perf_event	*events[VPMU_NR_COUNTERS_MAX];
	DECLARE_BITMAP(used_mask, VPMU_NR_COUNTERS_MAX);
	struct vpmu_engine	*ovf_engine;
	const struct vpmu_stop	*ovf_stop;
	unsigned long		tick[VPMU_NR_COUNTERS_MAX];
	unsigned int		nr_samples[VPMU_NR_COUNTERS_MAX];
};

static DEFINE_PER_CPU(struct vpmu_pmu_cpu, vpmu_pmu_cpu);

/* ---- sysfs: format/ and events/ ------------------------------------------ */

struct vpmu_format_attr {
	struct device_attribute attr;
	u64 field;
};

static ssize_t vpmu_format_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct vpmu_format_attr *fmt = container_of(attr, typeof(*fmt), attr);
	int lo = __ffs64(fmt->field), hi = fls64(fmt->field) - 1;

	if (lo == hi)
		return sysfs_emit(buf, "config:%d\n", lo);
	return sysfs_emit(buf, "config:%d-%d\n", lo, hi);
}

#define VPMU_FORMAT_ATTR(_name, _field)					\
	(&((struct vpmu_format_attr[]) {{				\
		.attr = __ATTR(_name, 0444, vpmu_format_show, NULL),	\
		.field = _field,					\
	}})[0].attr.attr)

static struct attribute *vpmu_format_attrs[] = {
	VPMU_FORMAT_ATTR(event, VPMU_CFG_EVENT),
	VPMU_FORMAT_ATTR(tag, VPMU_CFG_TAG),
	VPMU_FORMAT_ATTR(ctr, VPMU_CFG_CTR),
	NULL,
};

static const struct attribute_group vpmu_format_group = {
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
#define VPMU_TAG_ATTR(k)	VPMU_EVENT_ATTR("vpmu_tag" #k, 0, k)

/*
 * Counts of occurrences, so no .unit or .scale: perf's defaults (no unit,
 * scale 1) say it.  Tags beyond the current image's event field stay
 * listed: the image can change under a listing; event_init refuses them.
 */
static struct attribute *vpmu_event_attrs[] = {
	VPMU_EVENT_LIST(VPMU_BASIC_ATTR)
	VPMU_TAG_ATTR(1), VPMU_TAG_ATTR(2), VPMU_TAG_ATTR(3), VPMU_TAG_ATTR(4),
	VPMU_TAG_ATTR(5), VPMU_TAG_ATTR(6), VPMU_TAG_ATTR(7), VPMU_TAG_ATTR(8),
	NULL,
};

static const struct attribute_group vpmu_events_group = {
	.name	= "events",
	.attrs	= vpmu_event_attrs,
};

/* ---- counter primitives --------------------------------------------------- */

/* Program counter @idx of this CPU's engine for @event, counting. */
static void vpmu_ctr_enable(struct vpmu_engine *e, struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	struct vpmu_ctr_cfg cfg = {
		.event	= hwc->config,
		.width	= vpmu_counter_width(hwc->idx),
		/* Only a sample needs the exact microword of a wrap. */
		.flags	= hwc->config_base |
			  (is_sampling_event(event) ? VPMU_CTR_INT : 0),
		.group	= 0,
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
	unsigned int idx = hwc->idx, width = vpmu_counter_width(idx);
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
	unsigned int width = vpmu_counter_width(hwc->idx);
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

/* Fill the fake interrupted registers a sample reports (perf.rst). */
static void vpmu_sample_regs(struct pt_regs *regs, struct perf_event *event,
			     u32 upc, u32 ipc, bool user)
{
	memset(regs, 0, sizeof(*regs));
	instruction_pointer_set(regs, (unsigned long)upc << 32 | ipc);
	vpmu_regs_set_mode(regs, user);
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
	vpmu_sample_regs(&regs, event, stop->upc, stop->ipc,
			 event->attr.exclude_kernel ||
			 rec.raw.mode == VPMU_MODE_USER);

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

/* ---- the overflow stop ---------------------------------------------------- */

/**
 * vpmu_pmu_overflow() - raise the lines of the counters that wrapped
 * @e:		this CPU's engine, stopped
 * @stop:	the stop; with VPMU_STOP_OVERFLOW, @stop->ovf has the
 *		interrupting counters that wrapped on @stop->upc
 *
 * Called by the run loop with interrupts disabled, between the engine's
 * stop and the run going on (an overflow stop), and at the end of a run
 * chunk if any counter wrapped in it: the engine's interrupt controller.
 * Every
 * counter with its overflow status bit set raises its own line, whose
 * handler, vpmu_pmu_irq(), runs before this returns.
 */
void vpmu_pmu_overflow(struct vpmu_engine *e, const struct vpmu_stop *stop)
{
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(&vpmu_pmu_cpu);
	unsigned long status;
	unsigned int idx;

	lockdep_assert_irqs_disabled();
	cpuc->ovf_engine = e;
	cpuc->ovf_stop = stop;
	status = vpmu_engine_ovf_status(e) | stop->ovf;
	for_each_set_bit(idx, &status, VPMU_NR_COUNTERS_MAX) {
		/* No line (a counter beyond nr_counters): handle it here. */
		if (vpmu_irq_raise(idx))
			vpmu_pmu_irq(idx);
	}
	cpuc->ovf_engine = NULL;
	cpuc->ovf_stop = NULL;
}

/**
 * vpmu_pmu_irq() - counter @idx's overflow interrupt handler
 * @idx:	the counter whose line was raised
 *
 * Runs on the CPU whose engine stopped, with interrupts disabled, from
 * vpmu_pmu_overflow().
 *
 * Return: IRQ_HANDLED, or IRQ_NONE if no engine stopped on this CPU.
 */
irqreturn_t vpmu_pmu_irq(unsigned int idx)
{
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(&vpmu_pmu_cpu);
	struct vpmu_engine *e = cpuc->ovf_engine;
	struct perf_event *event;
	u64 n;

	if (!e)
		return IRQ_NONE;
	event = cpuc->events[idx];
	/*
	 * 1. Stop: the engine has stopped itself: right after the microword
	 *    on which an interrupting counter wrapped, or at the end of the
	 *    chunk in which a counting one did; nothing counts until it runs
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
		if (!vpmu_sample_allowed(cpuc, idx))
			break;
		vpmu_sample(e, event, cpuc->ovf_stop);
		if (event->hw.state & PERF_HES_STOPPED)
			return IRQ_HANDLED;
	}
	/* 5. Restart: re-arm the counter; the caller runs the engine on. */
	vpmu_period_arm(e, event);
	return IRQ_HANDLED;
}

/* ---- event_init ----------------------------------------------------------- */

/* Is tag @k in the current image's event field (perf.rst)? */
static bool vpmu_tag_valid(unsigned int k)
{
	const struct vpmu_image_header *h;
	struct vpmu_image *img;
	bool ok;

	img = vpmu_image_get();
	h = vpmu_ucode_header(img->uc);
	if (h->ev_mode == VPMU_EVMODE_ONEHOT)
		ok = k <= h->ev_bits;
	else
		ok = k < BIT(h->ev_bits);
	vpmu_image_put(img);
	return ok;
}

/* Decode attr.config into the engine event number, or a negative errno. */
static int vpmu_config_event(u64 config)
{
	unsigned int event = VPMU_CFG_GET(config, EVENT);
	unsigned int tag = VPMU_CFG_GET(config, TAG);
	unsigned int ctr = VPMU_CFG_GET(config, CTR);

	if (config & ~VPMU_CFG_ALL)
		return -EINVAL;
	if (ctr > vpmu_nr_counters)
		return -EINVAL;
	if (tag) {
		if (event)
			return -EINVAL;
		event = VPMU_EV_TAG(tag);
	}
	if (event < VPMU_EV_NR_BASIC)
		return event;
	if (event > VPMU_EV_TAG_BASE && event <= VPMU_EV_TAG(VPMU_TAG_MAX))
		return vpmu_tag_valid(event - VPMU_EV_TAG_BASE) ? event :
								   -EINVAL;
	/* Tag 0, the histogram unit (not in the engine yet), the rest. */
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
	       hweight32(need.pinned) + need.any <= vpmu_nr_counters;
}

static int vpmu_event_init(struct perf_event *event)
{
	struct perf_event_attr *attr = &event->attr;
	int ev;

	if (attr->type != event->pmu->type)
		return -ENOENT;

	/*
	 * Samples carry the PCs of an engine, not a CPU's registers: no
	 * callchains, register or stack dumps, branch stacks or AUX data.
	 * Every sample is exact, so any precise_ip is honoured.
	 */
	if (has_branch_stack(event))
		return -EOPNOTSUPP;
	if (is_sampling_event(event) &&
	    ((attr->sample_type & VPMU_SAMPLE_REFUSED) || attr->sigtrap ||
	     (attr->exclude_kernel && !VPMU_REGS_USER_MODE)))
		return -EOPNOTSUPP;
	/* Engines are never guests: a host-free count would count nothing. */
	if (attr->exclude_host)
		return -EOPNOTSUPP;
	if (attr->config1 || attr->config2)
		return -EINVAL;

	ev = vpmu_config_event(attr->config);
	if (ev < 0)
		return ev;

	/*
	 * A group that can never be on the counters is refused, where the
	 * perf core lets event_init walk the group (VPMU_GROUP_VALIDATE);
	 * elsewhere such a group opens and never runs.
	 */
	if (VPMU_GROUP_VALIDATE && event->group_leader != event &&
	    !vpmu_group_fits(event))
		return -EINVAL;

	event->hw.idx = -1;
	event->hw.config = ev;
	event->hw.config_base = (attr->exclude_user ? 0 : VPMU_CTR_USER) |
				(attr->exclude_kernel ? 0 : VPMU_CTR_SUPER);
	return 0;
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
	DECLARE_BITMAP(busy, VPMU_NR_COUNTERS_MAX);
	int idx = vpmu_event_ctr(event);

	if (idx >= 0)
		return test_and_set_bit(idx, cpuc->used_mask) ? -EAGAIN : idx;

	bitmap_copy(busy, cpuc->used_mask, VPMU_NR_COUNTERS_MAX);
	busy[0] |= vpmu_group_pinned(event);
	idx = find_first_zero_bit(busy, vpmu_nr_counters);
	if (idx >= vpmu_nr_counters)
		return -EAGAIN;
	set_bit(idx, cpuc->used_mask);
	return idx;
}

static void vpmu_start(struct perf_event *event, int flags)
{
	struct vpmu_engine *e = vpmu_this_engine();
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
	struct vpmu_engine *e = vpmu_this_engine();
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->state & PERF_HES_STOPPED)) {
		vpmu_event_update(e, event);
		vpmu_ctr_disable(e, hwc->idx);
		hwc->state |= PERF_HES_STOPPED | PERF_HES_UPTODATE;
	}
}

static int vpmu_add(struct perf_event *event, int flags)
{
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(&vpmu_pmu_cpu);
	struct hw_perf_event *hwc = &event->hw;
	int idx;

	idx = vpmu_get_idx(cpuc, event);
	if (idx < 0)
		return idx;

	hwc->idx = idx;
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
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(&vpmu_pmu_cpu);
	struct hw_perf_event *hwc = &event->hw;

	vpmu_stop(event, PERF_EF_UPDATE);
	cpuc->events[hwc->idx] = NULL;
	clear_bit(hwc->idx, cpuc->used_mask);
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
	if (!(event->hw.state & PERF_HES_STOPPED))
		vpmu_event_update(vpmu_this_engine(), event);
}

/* ---- registration --------------------------------------------------------- */

static const struct attribute_group *vpmu_attr_groups[] = {
	&vpmu_format_group,
	&vpmu_events_group,
	&vpmu_ucode_group,
	&vpmu_caps_group,
	&vpmu_uhist_group,
	NULL,
};

static struct pmu vpmu_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= VPMU_TASK_CTX,
	.attr_groups	= vpmu_attr_groups,
	.event_init	= vpmu_event_init,
	.add		= vpmu_add,
	.del		= vpmu_del,
	.start		= vpmu_start,
	.stop		= vpmu_stop,
	.read		= vpmu_read,
};

int vpmu_pmu_register(void)
{
	int ret;

	ret = vpmu_irq_init(vpmu_nr_counters);
	if (ret)
		return ret;
	ret = perf_pmu_register(&vpmu_pmu, "vpmu", -1);
	if (ret) {
		pr_err("perf_pmu_register failed: %d\n", ret);
		vpmu_irq_exit();
	}
	return ret;
}

void vpmu_pmu_unregister(void)
{
	perf_pmu_unregister(&vpmu_pmu);
	vpmu_irq_exit();
}
