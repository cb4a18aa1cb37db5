// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_pmu_ovf.c - perf glue: an event's count brought up to date from
 * its counter, sampling periods, samples and the overflow interrupt.
 *
 * The machine raises the line of every counter that wrapped
 * (vpmu_machine_irq.c); the line's handler calls vpmu_pmu_overflow()
 * through the machine's ops, which folds the wrap in and, for a sampling
 * event whose period that completed, emits a sample: built in through
 * perf_event_overflow(), as a module through perf_tp_event()
 * (vpmu_pmu.c's head says why).  Serialisation is vpmu_pmu.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/math64.h>
#include <linux/perf_event.h>
#include <linux/ptrace.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/trace_events.h>

#include "vpmu_pmu_priv.h"

/**
 * vpmu_event_update() - fold a counter into its event
 * @e:		this CPU's engine
 * @event:	the event, on its CPU's counter hwc->idx
 *
 * Folds what counter hwc->idx counted since prev_count into the event: the
 * difference of the values plus 2^width for every wrap the engine counted
 * since the status bit was last cleared.  (The count, not the comparison
 * of the values, says whether it wrapped: a counter that wraps on exactly
 * the value it was last read at looks unchanged.)
 *
 * Context: on the event's CPU with interrupts disabled.
 */
void vpmu_event_update(struct vpmu_engine *e, struct perf_event *event)
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

/*
 * Samples one event may emit in a tick's length of time (TICK_NSEC) before
 * the rest of that time's periods are counted but not sampled: the
 * kernel's default perf_event_max_sample_rate (100000 a second), which a
 * module cannot read.
 */
#define VPMU_MAX_SAMPLES_PER_TICK	DIV_ROUND_UP(100000, HZ)

/**
 * struct vpmu_sample_raw - a sample's PERF_SAMPLE_RAW record
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

/* ---- sampling periods ----------------------------------------------------- */

/*
 * A sampling event's hw.period_left counts down the events left in its
 * period, as on x86: the counter is preset to wrap on the event that
 * completes the period (or, for a period longer than the counter, after
 * as many events as it holds, and the rest is carried over).
 */

/**
 * vpmu_period_arm() - arm a sampling event's counter
 * @e:		this CPU's engine
 * @event:	the event, on its CPU's counter hwc->idx
 *
 * Arms counter hwc->idx to wrap when the period's events are in.
 *
 * Context: on the event's CPU with interrupts disabled.
 */
void vpmu_period_arm(struct vpmu_engine *e, struct perf_event *event)
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
 * Fill the fake interrupted registers a sample reports
 * (Documentation/admin-guide/perf/vpmu.rst, "Sampling"): the IP is where
 * the runner maps the code, the macro PC's address or, with sample_upc, the
 * micro-PC's; the sample is a user-mode one of the task that ran the engine
 * (perf names it through that task's mappings), unless the event counts
 * supervisor mode only, whose samples perf_tp_event() would drop as
 * user-mode ones.
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

/* The raw record with room to end u64-aligned, as raw records do. */
struct vpmu_sample_rec {
	struct vpmu_sample_raw	raw;
	u32			pad;
} __aligned(8);

/* The raw record's size, which with its u32 size field fills whole u64s. */
#define VPMU_SAMPLE_RAW_SIZE						\
	(ALIGN(sizeof(struct vpmu_sample_raw) + sizeof(u32), sizeof(u64)) - \
	 sizeof(u32))

/* Fill @rec and @regs for @event's sample at @stop. */
static void vpmu_sample_fill(struct vpmu_sample_rec *rec, struct pt_regs *regs,
			     struct vpmu_engine *e, struct perf_event *event,
			     const struct vpmu_stop *stop)
{
	memset(rec, 0, sizeof(*rec));
	rec->raw.upc = stop->upc;
	rec->raw.ipc = stop->ipc;
	rec->raw.ctr = event->hw.idx;
	rec->raw.mode = vpmu_engine_mode(e);
	rec->raw.count = local64_read(&event->count);
	vpmu_sample_regs(regs, event, stop->upc, stop->ipc);
}

#if IS_BUILTIN(CONFIG_PERF_VPMU)
/*
 * Built in, a sample is an overflow as a hardware PMU's is:
 * perf_event_overflow() samples, adjusts a frequency, counts
 * PERF_EVENT_IOC_REFRESH's limit, raises the sigtrap, runs a BPF overflow
 * handler and throttles, with the core's own limit and records.  Returns
 * true where the core asks for the event to be stopped (throttled, or its
 * limit reached); the core restarts a throttled one at a tick.
 */
static bool vpmu_sample(struct vpmu_engine *e, struct perf_event *event,
			const struct vpmu_stop *stop)
{
	struct perf_raw_record raw = {};
	struct perf_sample_data data;
	struct vpmu_sample_rec rec;
	struct pt_regs regs;

	vpmu_sample_fill(&rec, &regs, e, event, stop);
	perf_sample_data_init(&data, 0, event->hw.last_period);
	raw.frag.data = &rec;
	raw.frag.size = VPMU_SAMPLE_RAW_SIZE;
	vpmu_sample_save_raw(&data, event, &raw);
	return perf_event_overflow(event, &data, &regs);
}

/* The perf core throttles (vpmu_sample()). */
static bool vpmu_sample_allowed(struct vpmu_pmu_cpu *cpuc, unsigned int idx)
{
	return true;
}
#else
/*
 * As a module, without perf_event_overflow() (not exported), a sample goes
 * through the trace-event path.  perf_tp_event() treats it as a software
 * event: it adds @period to event->count (taken off first: the counter has
 * already been folded in), and runs the overflow (sample, freq adjustment,
 * event_limit, wakeups) exactly once: with PERF_SAMPLE_PERIOD and a fixed
 * period it overflows on every call, otherwise once period_left, set to
 * -period here, reaches 0.  It never throttles (vpmu_sample_allowed()
 * does); returns false.
 */
static bool vpmu_sample(struct vpmu_engine *e, struct perf_event *event,
			const struct vpmu_stop *stop)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 period = hwc->last_period, before;
	struct hlist_head head = {};
	struct vpmu_sample_rec rec;
	struct pt_regs regs;
	s64 left;
	int rctx;

	rctx = perf_swevent_get_recursion_context();
	if (rctx < 0)
		return false;

	vpmu_sample_fill(&rec, &regs, e, event, stop);
	/* perf_tp_event() delivers to the events on @head: this one only. */
	hlist_add_head(&event->hlist_entry, &head);
	left = local64_read(&hwc->period_left);
	local64_set(&hwc->period_left, -(s64)period);
	before = local64_read(&event->count);
	local64_sub(period, &event->count);
	perf_tp_event(0, period, &rec, VPMU_SAMPLE_RAW_SIZE, &regs, &head, rctx,
		      NULL);
	/* Not delivered (the core found it stopped): the count stands. */
	if (local64_read(&event->count) != before)
		local64_set(&event->count, before);
	local64_set(&hwc->period_left, left);
	hlist_del_init(&event->hlist_entry);
	return false;
}

/*
 * May @event's counter sample once more in this window?  A window is a
 * tick's length of this CPU's local_clock(), not a jiffy: a guest whose
 * timer interrupts come late (a busy host) would otherwise stretch one
 * jiffy over many ticks' worth of samples and drop those a real tick's
 * limit lets through.
 */
static bool vpmu_sample_allowed(struct vpmu_pmu_cpu *cpuc, unsigned int idx)
{
	u64 now = local_clock();

	if (now - cpuc->window[idx] >= TICK_NSEC) {
		cpuc->window[idx] = now;
		cpuc->nr_samples[idx] = 0;
	}
	if (cpuc->nr_samples[idx] >= VPMU_MAX_SAMPLES_PER_TICK)
		return false;
	cpuc->nr_samples[idx]++;
	return true;
}
#endif

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
irqreturn_t vpmu_pmu_overflow(struct vpmu_machine *m, struct vpmu_engine *e,
			      unsigned int idx, const struct vpmu_stop *stop)
{
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(machine_to_vpmu(m)->pmu_cpu);
	struct perf_event *event = cpuc->events[idx];
	bool stopped;
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
	 *    event has sampled too often in this window (as a module); built
	 *    in, the perf core throttles, and the event stops when it says.
	 */
	for (n = vpmu_period_advance(event); n; n--) {
		if (!vpmu_sample_allowed(cpuc, idx)) {
			/* Counted, not sampled: lost, as PERF_FORMAT_LOST says. */
			atomic64_add(n, &event->lost_samples);
			break;
		}
		stopped = vpmu_sample(e, event, stop);
		/*
		 * Its REFRESH limit reached, the core disables the event once
		 * interrupts are on again; a group that freezes on overflow
		 * stays frozen on this microword till then, and until
		 * re-enabled.
		 */
		if (vpmu_event_freezes_on_ovf(event) &&
		    READ_ONCE(event->pending_disable))
			vpmu_fgroup_hold(&cpuc->fgroups[event->hw.event_base]);
		if (stopped) {
			/* Counted, the periods after it go unsampled. */
			atomic64_add(n - 1, &event->lost_samples);
			event->pmu->stop(event, 0);
		}
		if (event->hw.state & PERF_HES_STOPPED)
			return IRQ_HANDLED;
	}
	/* 5. Restart: re-arm the counter; the caller runs the engine on. */
	vpmu_period_arm(e, event);
	return IRQ_HANDLED;
}

/**
 * vpmu_pmu_overflow_end() - thaw the fgroups the stop's counters froze
 * @m:		the machine
 * @e:		this CPU's engine, stopped
 * @stop:	the stop; with VPMU_STOP_OVERFLOW, @stop->ovf has the
 *		interrupting counters that wrapped on @stop->upc
 *
 * The machine's ops->overflow_end, once every line of @stop has been
 * handled and before the engine runs on.
 */
void vpmu_pmu_overflow_end(struct vpmu_machine *m, struct vpmu_engine *e,
			   const struct vpmu_stop *stop)
{
	struct vpmu_pmu_cpu *cpuc = this_cpu_ptr(machine_to_vpmu(m)->pmu_cpu);
	unsigned long status, frozen = 0, g;
	unsigned int idx;

	/* Freeze groups that froze on overflow on this stop's microword. */
	status = stop->reason == VPMU_STOP_OVERFLOW ? stop->ovf : 0;
	for_each_set_bit(idx, &status, VPMU_NR_COUNTERS_MAX) {
		struct perf_event *event = cpuc->events[idx];

		if (event && vpmu_event_freezes_on_ovf(event))
			frozen |= BIT(event->hw.event_base);
	}
	/*
	 * The handlers are done: thaw those fgroups, as a freeze-on-PMI
	 * handler does last, unless one is held (its event is being
	 * disabled).
	 */
	for_each_set_bit(g, &frozen, VPMU_NR_FGROUPS_MAX) {
		struct vpmu_fgroup *fg = &cpuc->fgroups[g];

		if (fg->frz && !vpmu_fgroup_held(fg))
			vpmu_engine_freeze(e, g, false);
	}
}
