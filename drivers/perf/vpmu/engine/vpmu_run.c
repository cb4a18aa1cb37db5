// SPDX-License-Identifier: GPL-2.0
/*
 * vpmu_run.c - the microcoded processor and its PMU hardware:
 * runs and their chunks (vpmu_plan.c plans them), lifetime, programs and
 * their contexts, state.  The top of the engine's files: the others are
 * below it.
 *
 * Implements the engine of Documentation/admin-guide/perf/vpmu.rst,
 * "Overview".  Portable C: built into the module and as host C for tests,
 * benchmarks and fuzzing.  How the engine is fast and still exact, and
 * which file holds what, is in vpmu_engine_priv.h.
 */
#include "vpmu_engine_priv.h"

/* ---- running ------------------------------------------------------------ */

static void vpmu_fill_stop(struct vpmu_engine *e, struct vpmu_stop *stop,
			   int x)
{
	switch (x) {
	case VPMU_INTERP_HALT:
		stop->reason = VPMU_STOP_HALT;
		break;
	case VPMU_INTERP_TRAP:
		stop->reason = VPMU_STOP_TRAP;
		stop->code = e->uc->dec[e->st.upc].target;
		break;
	default:
		stop->reason = VPMU_STOP_FAULT;
		stop->code = e->st.fault_kind;
		stop->addr = e->st.fault_addr;
		break;
	}
	stop->upc = e->st.upc;
	stop->ipc = e->mem.R[VPMU_RF_IPC];
}

/*
 * A CTR microword ended the chunk (VPMU_INTERP_CTR): the counter its
 * result selected goes into its destination (vpmu_isa.h), and the
 * program goes on after it.  Everything is folded here, so the value is exact.
 */
static void vpmu_ctr_serve(struct vpmu_engine *e)
{
	u32 upc = e->st.upc;
	unsigned int r = e->mem.reg_of[e->mem.slot[0][upc].d];
	u32 sel = e->mem.R[r];
	unsigned int i = sel & VPMU_CTR_SEL_MASK;
	u64 v = 0;

	if (i == VPMU_CTR_SEL_CYCLES || i == VPMU_CTR_SEL_TIME) {
		v = e->st.cyc;
	} else if (i == VPMU_CTR_SEL_INSNS) {
		v = vpmu_insn_count(e);
	} else if (i - VPMU_CTR_SEL_PMU < VPMU_NR_COUNTERS_MAX) {
		i -= VPMU_CTR_SEL_PMU;
		vpmu_settle(e);
		if (vpmu_ctr_enabled(e, i))
			v = e->ctr.val[i];
	}
	if (r != VPMU_RF_SINK) {
		e->mem.R[r] = sel & VPMU_CTR_SEL_HIGH ? (u32)(v >> 32) : (u32)v;
		e->mem.R[e->dp.zero_idx] = 0;
	}
	e->st.upc = upc + 1;
}

/*
 * Counters @wr, trigger sources, wrapped (after freeze on overflow took
 * effect): in counter order, the fgroups whose trigger each is change.
 */
static void vpmu_ovf_trig(struct vpmu_engine *e, u32 wr)
{
	unsigned int g;
	u16 t;

	for (; wr; wr &= wr - 1) {
		t = VPMU_TRIG_OVF(__builtin_ctz(wr));
		for (g = 0; g < VPMU_NR_FGROUPS_MAX; g++)
			if (e->trig.toggle[g] == t ||
			    (e->trig.frozen >> g & 1 ? e->trig.start[g] :
			     e->trig.stop[g]) == t)
				e->trig.frozen ^= 1u << g;
	}
	vpmu_gate_resync(e);
}

/*
 * Counters @wr wrapped in the chunk that ended with @x: those that freeze
 * on overflow freeze their fgroups; if any interrupts, the run stops with
 * OVERFLOW on the microword @upc (@ipc) they wrapped on, and a HALT or
 * TRAP the chunk also reached waits, sticky, for the next run.  Returns
 * true if the run stops.
 */
static bool vpmu_overflow(struct vpmu_engine *e, u32 wr, int x,
			  struct vpmu_stop *stop, u32 upc, u32 ipc)
{
	u32 irq = wr & e->ctr.int_mask, m;

	e->ctr.ovf |= wr;
	for (m = wr & e->ctr.fovf_mask; m; m &= m - 1) {
		e->trig.frozen |= 1u << e->ctr.cfg[__builtin_ctz(m)].fgroup;
		vpmu_gate_resync(e);
	}
	if (unlikely(wr & e->trig.ovf_src))
		vpmu_ovf_trig(e, wr & e->trig.ovf_src);
	if (!irq)
		return false;
	if (x == VPMU_INTERP_HALT || x == VPMU_INTERP_TRAP) {
		e->st.sticky = true;
		e->st.sticky_stop = *stop;
	}
	memset(stop, 0, sizeof(*stop));
	stop->reason = VPMU_STOP_OVERFLOW;
	stop->upc = upc;
	stop->ipc = ipc;
	stop->ovf = wr;
	return true;
}

/*
 * The executions of microword @upc the slots in use hold, summed as
 * vpmu_fold() sums them (from its segment's head), into @ran[i] for each
 * counter i of ctr.cmeasure that it feeds.
 */
static void vpmu_step_runs(const struct vpmu_engine *e, u32 upc, u64 *ran)
{
	unsigned int i, s;
	u32 k;
	u16 m;

	for (m = e->ctr.cmeasure; m; m &= m - 1) {
		const u32 *w;

		i = __builtin_ctz(m);
		ran[i] = 0;
		if (!(e->mem.ctr_hit[upc] >> i & 1))
			continue;
		w = e->mem.sparse_uw + e->ctr.sparse_at[i];
		for (k = 0; (w[k] & 0xffff) != upc; k++)
			;
		for (s = 0; s < e->ctr.nused; s++)
			ran[i] += vpmu_uw_runs(e->mem.slot[s], w[k]);
	}
}

/*
 * A step that defers ran microword @upc, counting the counters of
 * ctr.cmeasure (vpmu_step_plan()): what each grew by is the executions
 * of @upc it added (@ran before, vpmu_step_runs()), exactly.  One event
 * from its wrap (ctr.cstep), a counter whose event the step ran is
 * credited its growth in the slots, exact, and that event, and wraps on
 * it (*@wr).  Returns them all: their growth is known (vpmu_plan_grow()
 * leaves them alone).  But if the step took a slot that does not count
 * one of them, or a fold inside it took the counts from under the
 * credits, everything is folded now, as after a step that does not defer
 * (*@defer false).
 */
static u16 vpmu_step_credit(struct vpmu_engine *e, u32 upc, const u64 *ran,
			    u32 *wr, bool *defer)
{
	u64 now[VPMU_NR_COUNTERS_MAX];
	unsigned int i;
	u16 m;

	if (e->ctr.credit_lost ||
	    (e->ctr.slots_all & e->ctr.cmeasure) != e->ctr.cmeasure) {
		*wr |= vpmu_settle_all(e);
		*defer = false;
		return 0;
	}
	vpmu_step_runs(e, upc, now);
	for (m = e->ctr.cmeasure; m; m &= m - 1) {
		i = __builtin_ctz(m);
		if (now[i] == ran[i])
			continue;
		if (!(e->ctr.cstep >> i & 1)) {
			e->ctr.grown[i] += now[i] - ran[i];
			continue;
		}
		if (vpmu_ctr_credit_n(e, i, e->ctr.grown[i] + 1))
			*wr |= 1u << i;
		e->ctr.grown[i] = 0;
	}
	return e->ctr.cmeasure;
}

/*
 * A step that defers and counts the counters of ctr.cmeasure (its
 * microword @upc), vpmu_step_credit(): *@armed the counters whose growth
 * it knows, *@wr those that wrapped.  Returns X_*.
 */
static VPMU_NOINLINE int vpmu_step_counted(struct vpmu_engine *e, u32 upc,
					   u32 *wr, bool *defer, u16 *armed)
{
	u64 ran[VPMU_NR_COUNTERS_MAX];
	int x;

	vpmu_step_runs(e, upc, ran);
	x = vpmu_interp(e, 1);
	*armed = vpmu_step_credit(e, upc, ran, wr, defer);
	return x;
}

/*
 * One chunk of at most @L cycles, as vpmu_plan() cuts it (maybe a single
 * step), folded unless it defers (*@defer: it may; vpmu_plan_chunk()
 * says whether it does), its cycles given to the micro-PC histogram
 * and the histogram unit.  Returns X_*; *@wr: the counters that wrapped,
 * *@upc and *@ipc: the microword they wrapped on.  Yielding, the run that
 * began at cycle @c0 may end in it, if it ends where the run's budget
 * does: not where a counter's wrap, a window's edge or a sample is due,
 * which would only add a run before each.
 */
static int vpmu_chunk(struct vpmu_engine *e, u64 c0, u64 L, bool *defer,
		      u32 *wr, u32 *upc, u32 *ipc)
{
	u64 c1 = e->st.cyc, s1 = e->ctr.stalled, want = L;
	bool step = vpmu_plan_chunk(e, &L, defer);
	/* armed, it may run to ev_cend (vpmu_plan_arm()) */
	u64 len = e->tc.ev_gap ? e->tc.ev_cend + 1 - c1 : L;
	u16 armed = 0;
	u32 cwr = 0;
	int x;

	if (e->tc.ev_mask && !e->tc.ev_gap)	/* BLOCK_EV: nothing to count */
		memset(e->tc.ev_left, 0xff, sizeof(e->tc.ev_left));

	e->tc.yield_from = e->tc.yield && !step && len == want &&
			   !(e->uh.interval > 1 && e->uh.left < L) ? c0 : ~0ull;

	*wr = 0;
	*upc = e->st.upc;
	*ipc = e->mem.R[VPMU_RF_IPC];
	if (e->hu.prog.n)
		vpmu_hu_chunk_begin(e, c1);
	/* vpmu_fetch_in() */
	e->dp.fetch_lim = vpmu_fetch_limit(e->dp.fetch_shift, e->st.msz);
	if (step && e->ctr.cmeasure) {
		x = vpmu_step_counted(e, *upc, &cwr, defer, &armed);
	} else if (step) {
		x = vpmu_interp(e, 1);
		/* one microword; an early exit may sit after it */
		if (!*defer)
			*wr = vpmu_fold(e, *upc,
					*upc + e->mem.slot[0][*upc].seg);
	} else {
		x = vpmu_interp(e, (long)L);
		if (e->tc.ev_gap && *defer)
			armed = vpmu_arm_grow(e);
		e->tc.ev_gap = 0;
		e->tc.ev_eoi = 0;
		if (!*defer)
			*wr = vpmu_fold(e, 0, e->ncs);
	}
	if (*defer) {
		vpmu_plan_grow(e, e->st.cyc - c1, armed);
		*wr = vpmu_defer_done(e, e->st.cyc - c1,
				      e->ctr.stalled - s1);
	}
	*wr |= cwr;
	if (!step && (*wr || e->st.cyc - c1 > e->uh.left)) {
		/* only a last, stalling microword can */
		*upc = e->ctr.last_stall_upc;
		*ipc = e->mem.R[VPMU_RF_IPC];
	}
	if (e->uh.interval > 1)
		vpmu_uhist_advance(e, e->st.cyc - c1, *upc);
	if (e->hu.prog.n)
		vpmu_hu_chunk_end(e, c1);
	return x;
}

enum vpmu_stop_reason vpmu_engine_run(struct vpmu_engine *e, u64 budget,
				      struct vpmu_stop *stop)
{
	bool may_defer, rebuilt;
	u64 c0;

	memset(stop, 0, sizeof(*stop));
	if (!e->uc || !e->st.started) {
		stop->reason = VPMU_STOP_FAULT;
		stop->code = VPMU_FAULT_NOUCODE;
		return stop->reason;
	}
	if (e->st.sticky) {
		*stop = e->st.sticky_stop;
		stop->cycles = 0;
		return stop->reason;
	}
	rebuilt = e->dirty;
	vpmu_prepare(e);
	if (rebuilt)
		vpmu_plan_setup(e);
	may_defer = vpmu_defer_ok(e);
	c0 = e->st.cyc;
	for (;;) {
		u64 used = e->st.cyc - c0;
		bool defer = may_defer;
		u32 wr, x_upc, x_ipc;
		int x;

		if (used >= budget) {
			stop->reason = VPMU_STOP_BUDGET;
			stop->upc = e->st.upc;
			stop->ipc = e->mem.R[VPMU_RF_IPC];
			break;
		}
		x = vpmu_chunk(e, c0, budget - used, &defer, &wr, &x_upc,
			       &x_ipc);
		if (x == VPMU_INTERP_CTR)
			vpmu_ctr_serve(e);
		if (x == VPMU_INTERP_HALT || x == VPMU_INTERP_TRAP ||
		    x == VPMU_INTERP_FAULT)
			vpmu_fill_stop(e, stop, x);
		if (wr && vpmu_overflow(e, wr, x, stop, x_upc, x_ipc))
			break;
		if (x == VPMU_INTERP_HALT || x == VPMU_INTERP_TRAP) {
			e->st.sticky = true;
			e->st.sticky_stop = *stop;
			break;
		}
		if (x == VPMU_INTERP_FAULT)
			break;
		if (!e->ctr.unfolded)	/* else the slots keep their counts */
			vpmu_slot_reset(e);
		if (!e->ctr.unfolded || wr)	/* a wrap may have frozen fgroups */
			e->ctr.cur = vpmu_slot_get(e, vpmu_key(e->st.mode,
							       e->trig.frozen));
		if (x == VPMU_INTERP_YIELD) {
			stop->reason = VPMU_STOP_BUDGET;
			stop->upc = e->st.upc;
			stop->ipc = e->mem.R[VPMU_RF_IPC];
			break;
		}
	}
	stop->cycles = e->st.cyc - c0;
	return stop->reason;
}

/* ---- lifetime ----------------------------------------------------------- */

/* The translation cache's part of an engine's memory: a pool of @words. */
static int vpmu_tc_alloc(struct vpmu_engine_mem *m, u32 words)
{
	m->tc_words = words;
	m->tc_pool = vpmu_zalloc(sizeof(u32) * words);
	m->tc_map = vpmu_zalloc(sizeof(u32) * VPMU_TC_MAP);
	/*
	 * A translation takes more than 16 pool words; a link's log slot
	 * stands for at least VPMU_TC_LINK_RATIO of them (fewer links are
	 * made when it is full).
	 */
	m->tc_touch = vpmu_zalloc(sizeof(u32) * (words / 16));
	m->tc_links = vpmu_zalloc(sizeof(u32) * (words / VPMU_TC_LINK_RATIO));
	m->tc_scratch = vpmu_zalloc(vpmu_tc_scratch_size());
	m->tc_heat = vpmu_zalloc(VPMU_TC_MAP);
	m->tc_code = vpmu_zalloc(VPMU_TC_CODE_BITS / 8);
	if (!m->tc_pool || !m->tc_map || !m->tc_touch || !m->tc_links ||
	    !m->tc_scratch || !m->tc_heat || !m->tc_code)
		return -ENOMEM;
	return 0;
}

/*
 * Everything a ucode of up to @words microwords needs is allocated here,
 * so that attach, start, save, restore and run never allocate.
 */
struct vpmu_engine_mem *vpmu_engine_mem_alloc(u32 words, u32 tc_words)
{
	struct vpmu_engine_mem *m;
	size_t n = words, tgl_size = VPMU_TGL_ROUND(sizeof(s32) * n);
	unsigned int s;

	if (!words || words > VPMU_CS_MAX)
		return NULL;
	if (tc_words && (tc_words < VPMU_TC_POOL_MIN ||
			 tc_words > VPMU_TC_POOL_MAX))
		return NULL;
	m = vpmu_zalloc(sizeof(*m));
	if (!m)
		return NULL;
	m->words = words;
	/*
	 * Each slot: its toggle table, ID table and uops, aligned to
	 * VPMU_TGL_ALIGN, so that slots are a multiple of it apart.
	 */
	m->slot_stride = VPMU_TGL_ROUND(tgl_size + sizeof(u32) * VPMU_IDT +
				   sizeof(struct vpmu_uop) * n);
	m->slot_mem = vpmu_zalloc((size_t)m->slot_stride * VPMU_NSLOT);
	if (!m->slot_mem)
		goto out_free;
	for (s = 0; s < VPMU_NSLOT; s++)
		m->slot[s] = (struct vpmu_uop *)((char *)m->slot_mem +
						 (size_t)m->slot_stride * s +
						 tgl_size + sizeof(u32) * VPMU_IDT);
	m->R = vpmu_zalloc(sizeof(u32) * (VPMU_RF_IMM0 + n));
	m->reg_of = vpmu_zalloc(sizeof(u16) * (VPMU_RF_IMM0 + n));
	m->tot_cnt = vpmu_zalloc(sizeof(u64) * n);
	m->tot_dyn = vpmu_zalloc(sizeof(u64) * n);
	m->tot_tkn = vpmu_zalloc(sizeof(u64) * n);
	m->ctr_hit = vpmu_zalloc(sizeof(u16) * n);
	m->trig_static = vpmu_zalloc(n);
	m->tsrc = vpmu_zalloc(sizeof(u16) * n);
	m->hu_hit = vpmu_zalloc(sizeof(u16) * n);
	/* the buckets, then the sink of samples gated shut */
	m->uhist = vpmu_zalloc(sizeof(u64) * 2 * n);
	m->dc_tag = vpmu_zalloc(sizeof(u32) * VPMU_DC_LINES_MAX);
	m->gap_dist = vpmu_zalloc(sizeof(u32) * n);
	m->gap_q = vpmu_zalloc(sizeof(u32) * n);
	m->sparse_uw = vpmu_zalloc(sizeof(u32) * n);
	if (!m->R || !m->reg_of || !m->tot_cnt || !m->tot_dyn ||
	    !m->tot_tkn || !m->ctr_hit || !m->trig_static || !m->tsrc ||
	    !m->hu_hit || !m->uhist || !m->dc_tag || !m->gap_dist ||
	    !m->gap_q || !m->sparse_uw)
		goto out_free;
	/* even: records hold a u64 */
	if (tc_words && vpmu_tc_alloc(m, tc_words & ~1u))
		goto out_free;
	return m;

out_free:
	vpmu_engine_mem_free(m);
	return NULL;
}

void vpmu_engine_mem_free(struct vpmu_engine_mem *m)
{
	if (!m)
		return;
	vpmu_free(m->slot_mem);
	vpmu_free(m->R);
	vpmu_free(m->reg_of);
	vpmu_free(m->tot_cnt);
	vpmu_free(m->tot_dyn);
	vpmu_free(m->tot_tkn);
	vpmu_free(m->ctr_hit);
	vpmu_free(m->trig_static);
	vpmu_free(m->tsrc);
	vpmu_free(m->hu_hit);
	vpmu_free(m->uhist);
	vpmu_free(m->dc_tag);
	vpmu_free(m->gap_dist);
	vpmu_free(m->gap_q);
	vpmu_free(m->sparse_uw);
	vpmu_free(m->tc_pool);
	vpmu_free(m->tc_map);
	vpmu_free(m->tc_touch);
	vpmu_free(m->tc_links);
	vpmu_free(m->tc_scratch);
	vpmu_free(m->tc_heat);
	vpmu_free(m->tc_code);
	vpmu_free(m);
}

struct vpmu_engine_mem *vpmu_engine_mem_set(struct vpmu_engine *e,
					    struct vpmu_engine_mem *m)
{
	struct vpmu_engine_mem *old = e->mem_alloc;

	vpmu_settle(e);		/* into the counters, before the slots go */
	vpmu_tc_flush(e);	/* (the counts it holds are in the slots) */
	e->uc = NULL;
	e->ctr.image_reads = false;
	e->ncs = 0;
	e->st.started = false;
	e->mem_alloc = m;
	/* no memory: every pointer NULL, every size 0 */
	if (m)
		e->mem = *m;
	else
		memset(&e->mem, 0, sizeof(e->mem));
	e->trig.ntsrc = 0;
	e->uh.sink = m ? m->uhist + m->words : NULL;	/* no NULL + 0 */
	e->tc.ntouch = 0;
	vpmu_tc_flush(e);
	vpmu_slot_reset(e);
	vpmu_gate_sync(e);	/* uh.to: the buckets or the sink */
	e->dirty = true;
	return old;
}

u32 vpmu_engine_mem_words(const struct vpmu_engine *e)
{
	return e->mem.words;
}

struct vpmu_engine *vpmu_engine_create(u32 cs_limit)
{
	struct vpmu_engine *e;
	struct vpmu_engine_mem *m = NULL;
	unsigned int f, g;

	if (cs_limit > VPMU_CS_MAX)
		return NULL;
	if (cs_limit) {
		m = vpmu_engine_mem_alloc(cs_limit, VPMU_TC_POOL_DEFAULT);
		if (!m)
			return NULL;
	}
	e = vpmu_zalloc(sizeof(*e));
	if (!e) {
		vpmu_engine_mem_free(m);
		return NULL;
	}
	for (f = 0; f < 16; f++) {
		bool z = f & VPMU_FLAG_Z, n = f & VPMU_FLAG_N;
		bool c = f & VPMU_FLAG_C, v = f & VPMU_FLAG_V;
		bool holds[11] = { true, z, !z, n, !n, c, !c, v, !v,
				   n != v, n == v };

		for (g = 0; g < ARRAY_SIZE(holds); g++)
			if (holds[g])
				e->dp.condtab[g] |= 1u << f;
	}
	for (g = 0; g < VPMU_NR_FGROUPS_MAX; g++) {
		e->trig.toggle[g] = VPMU_TRIG_NONE;
		e->trig.start[g] = VPMU_TRIG_NONE;
		e->trig.stop[g] = VPMU_TRIG_NONE;
	}
	e->trig.gate_open = VPMU_GATE_ALL;
	e->dp.fetch_shift = 2;	/* 4-byte boundaries until an image says */
	vpmu_engine_mem_set(e, m);
	return e;
}

void vpmu_engine_destroy(struct vpmu_engine *e)
{
	if (!e)
		return;
	vpmu_engine_mem_free(e->mem_alloc);
	vpmu_free(e);
}

void vpmu_engine_start(struct vpmu_engine *e, u8 *mem, u32 mem_size,
		       u32 entry, unsigned int mode)
{
	bool ext;
	u32 ir;

	if (!e->uc)
		return;
	vpmu_settle(e);
	memset(e->mem.R, 0, sizeof(u32) * VPMU_RF_NREGS);
	memset(e->mem.tot_cnt, 0, sizeof(u64) * e->ncs);
	memset(e->mem.tot_dyn, 0, sizeof(u64) * e->ncs);
	memset(e->mem.tot_tkn, 0, sizeof(u64) * e->ncs);
	memset(e->mem.dc_tag, 0, sizeof(u32) * (e->dp.dc_mask + 1));
	ext = e->st.ext;
	memset(&e->st, 0, sizeof(e->st));
	e->st.ext = ext;
	vpmu_latch_maps(e);
	e->st.mem = mem;
	e->st.msz = mem_size;
	e->st.mode = mode ? VPMU_MODE_SUPER : VPMU_MODE_USER;
	e->st.mode_next = e->st.mode;
	e->st.started = true;
	vpmu_tc_mem(e, NULL);	/* new memory: translations check it */
	vpmu_insn_mark(e, false);
	e->mem.R[VPMU_RF_PC] = entry;
	e->mem.R[VPMU_RF_IPC] = entry;
	if (!vpmu_fetch_ok(e, entry, mem_size)) {
		e->st.sticky = true;
		e->st.sticky_stop.reason = VPMU_STOP_FAULT;
		e->st.sticky_stop.code = VPMU_FAULT_FETCH;
		e->st.sticky_stop.addr = entry;
		e->st.sticky_stop.ipc = entry;
		return;
	}
	ir = vpmu_get_le32(mem + entry);
	e->mem.R[VPMU_RF_IR] = ir;
	e->st.upc = e->uc->idtab[(ir >> e->uc->op_shift) & e->uc->op_mask];
}

/* ---- program contexts ---------------------------------------------------- */

struct vpmu_ctx *vpmu_ctx_create(void)
{
	return vpmu_zalloc_user(sizeof(struct vpmu_ctx));
}

void vpmu_ctx_destroy(struct vpmu_ctx *c)
{
	vpmu_free(c);
}

void vpmu_engine_ctx_save(struct vpmu_engine *e, struct vpmu_ctx *c)
{
	vpmu_flags_sync(e);
	if (e->uc)
		vpmu_insn_mark(e, true);
	c->uc = e->st.started ? e->uc : NULL;
	e->st.saved_by = e;
	e->st.save_seq = ++e->tc.nsaves;
	e->st.mem_new = false;
	c->st = e->st;
	e->tc.saved = c;
	e->tc.saved_seq = e->st.save_seq;
	memcpy(c->R, e->mem.R, sizeof(c->R));
	if (e->uc)
		memcpy(c->dc_tag, e->mem.dc_tag,
		       sizeof(u32) * (e->dp.dc_mask + 1));
}

int vpmu_engine_ctx_restore(struct vpmu_engine *e, const struct vpmu_ctx *c)
{
	if (!c->uc || c->uc != e->uc)
		return -ESTALE;
	e->st = c->st;
	vpmu_tc_mem(e, c);
	memcpy(e->mem.R, c->R, sizeof(c->R));
	memcpy(e->mem.dc_tag, c->dc_tag, sizeof(u32) * (e->dp.dc_mask + 1));
	vpmu_latch_maps(e);
	vpmu_insn_mark(e, false);
	return 0;
}

int vpmu_ctx_set_mem(struct vpmu_ctx *c, u8 *mem, u32 mem_size)
{
	if (!c->uc || mem_size != c->st.msz)
		return -EINVAL;
	c->st.mem = mem;
	c->st.mem_new = true;
	return 0;
}

/* ---- state -------------------------------------------------------------- */

u32 vpmu_engine_reg(const struct vpmu_engine *e, unsigned int opnd)
{
	if (!e->mem.R || opnd >= 64 ||
	    vpmu_opnd_info[opnd].access == VPMU_ACC_NONE ||
	    opnd == VPMU_OPND_IMM || opnd == VPMU_RF_ZERO)
		return 0;
	if (vpmu_is_at(opnd))
		return e->mem.R[e->mem.reg_of[opnd]];
	if (opnd == VPMU_RF_FLAGS)
		return vpmu_flags_now(e);
	return e->mem.R[opnd];
}

unsigned int vpmu_engine_mode(const struct vpmu_engine *e)
{
	return e->st.mode;
}

u32 vpmu_engine_upc(const struct vpmu_engine *e)
{
	return e->st.upc;
}

void vpmu_engine_set_ext(struct vpmu_engine *e, bool asserted)
{
	e->st.ext = asserted;
}

/* ---- the owner's services: a stopped program's registers, TRAP return ---- */

int vpmu_engine_set_reg(struct vpmu_engine *e, unsigned int opnd, u32 val)
{
	if (!e->mem.R || opnd > VPMU_OPND_T0 + 7)
		return -EINVAL;
	if (opnd != VPMU_OPND_R0 || !e->dp.r0zero)
		e->mem.R[opnd] = val;
	e->tc.resume.tb = 0;	/* a translation may know its value */
	return 0;
}

int vpmu_engine_trap_return(struct vpmu_engine *e)
{
	if (!e->uc || !e->st.started || !e->st.sticky ||
	    e->st.sticky_stop.reason != VPMU_STOP_TRAP ||
	    e->st.upc + 1 >= e->ncs)
		return -EINVAL;
	e->st.sticky = false;
	e->st.upc++;
	return 0;
}

u64 vpmu_engine_uword_count(struct vpmu_engine *e, u32 upc)
{
	if (!e->uc || upc >= e->ncs)
		return 0;
	vpmu_settle(e);
	return e->mem.tot_cnt[upc];
}
