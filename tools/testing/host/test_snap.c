// SPDX-License-Identifier: GPL-2.0
/*
 * test_snap.c - the engine snapshot (vpmu_engine_snapshot(), the event
 * counter's save registers): every counter, its overflow status and
 * count, the freeze bits and the cycle count copied at one instant, and
 * the counters asked for cleared, without disturbing the run.
 *
 * A loop (loads whose misses stall, stores, tags, a trigger mark) runs
 * on one engine uninterrupted, the reference, and on another in pieces
 * of pseudo-random length with a snapshot between every two, clearing a
 * pseudo-random set of counters.  Each snapshot must equal what the
 * single-counter reads give at that instant; each cleared counter must
 * read 0 with its status and count cleared while the others keep theirs;
 * and at the end the program (registers, memory, cycles, event totals,
 * freeze bits) must be the reference's, and every counter's 64-bit count
 * (value + wraps x 2^width) plus what the snapshots cleared from it must
 * be the reference's exactly.
 */
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "vpmu_test_image.h"

#define NCTR	VPMU_NR_COUNTERS_MAX
#define BOTH	(VPMU_CTR_USER | VPMU_CTR_SUPER)
#define MEMSZ	16384
#define TOTAL	200000ull	/* cycles of the run, at least */

static u64 rng = 0x2545f4914f6cdd1dull;

static u32 rnd(u32 n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (u32)((rng >> 16) % n);
}

/*
 * 0: t0 += 1 (tag 1); 1-2: t1 = (t0 & 1023) * 16; 3: t2 = [t1] (tag 2);
 * 4-5: [t1] = t0 + t2 (store); 6: r1 += t2; 7: mark (T) and back to 0.
 * The loads walk 16 KiB, so the data cache misses and stalls.
 */
static struct vpmu_ucode *loop_uc(void)
{
	struct tb_image *t = tb_new();
	struct vpmu_ucode *uc;
	struct vpmu_verr err;

	t->cs[0] = UW(ADD, T(0), T(0), IM, 1) | Q(NEXT, 0, 0) | UEV(1);
	t->cs[1] = UW(SHL, T(1), T(0), IM, 22) | Q(NEXT, 0, 0);
	t->cs[2] = UW(SHR, T(1), T(1), IM, 18) | Q(NEXT, 0, 0);
	t->cs[3] = UW(LW, T(2), T(1), 0, 0) | Q(NEXT, 0, 0) | UEV(2);
	t->cs[4] = UW(ADD, T(3), T(0), T(2), 0) | Q(NEXT, 0, 0);
	t->cs[5] = UW(SW, 0, T(1), T(3), 0) | Q(NEXT, 0, 0);
	t->cs[6] = UW(ADD, R(1), R(1), T(2), 0) | Q(NEXT, 0, 0);
	t->cs[7] = NOPW | Q(JUMP, 0, 0) | UT;
	t->ncs = 8;
	uc = tb_load(t, &err);
	if (!uc)
		tap_diag("image refused: %s", err.msg);
	return uc;
}

struct rig {
	struct vpmu_engine *e;
	u8 mem[MEMSZ];
};

static const struct vpmu_ctr_cfg cfgs[] = {
	{ VPMU_EV_UOPS, 64, BOTH, 0 },
	{ VPMU_EV_CYCLES, 5, BOTH, 0 },		/* wraps every 32 cycles */
	{ VPMU_EV_TAG(1), 16, BOTH, 0 },
	{ VPMU_EV_TAG(2), 3, BOTH, 0 },
	{ VPMU_EV_UOPS, 8, BOTH, 1 },		/* counts mark to mark */
	{ VPMU_EV_CYCLES, 32, VPMU_CTR_SUPER, 0 },	/* never: user mode */
};
#define NCFG	(sizeof(cfgs) / sizeof(cfgs[0]))
#define IDLE	9	/* a disabled counter with a value left in it */

static bool rig_init(struct rig *r, const struct vpmu_ucode *uc)
{
	unsigned int i;

	memset(r->mem, 0, sizeof(r->mem));
	r->e = vpmu_engine_create(VPMU_CS_MAX);
	if (!r->e || vpmu_engine_attach(r->e, uc)) {
		tap_diag("attach failed");
		return false;
	}
	for (i = 0; i < NCFG; i++)
		if (vpmu_engine_ctr_config(r->e, i, &cfgs[i])) {
			tap_diag("counter %u refused", i);
			return false;
		}
	vpmu_engine_ctr_write(r->e, IDLE, 1234);
	if (vpmu_engine_fgroup_trigger(r->e, 1, VPMU_TRIG_MARK)) {
		tap_diag("trigger refused");
		return false;
	}
	vpmu_engine_freeze(r->e, 1, true);
	vpmu_engine_start(r->e, r->mem, MEMSZ, 0, VPMU_MODE_USER);
	return true;
}

/* Counter @i's 64-bit count: its value plus its wraps x 2^width. */
static u64 count64(const struct vpmu_engine_snap *s, unsigned int i)
{
	unsigned int w = s->cfg[i].width;

	return s->ctr[i] + (w && w < 64 ? s->ovf_cnt[i] << w : 0);
}

/* Does @s say what the engine's single reads say now? */
static bool snap_matches(struct vpmu_engine *e,
			 const struct vpmu_engine_snap *s, u64 cycles)
{
	unsigned int i;

	if (s->cycles != cycles || s->ovf != vpmu_engine_ovf_status(e) ||
	    s->cycles != vpmu_engine_event_total(e, VPMU_EV_CYCLES) ||
	    s->frozen != (vpmu_engine_frozen(e, 1) ? 2u : 0u) ||
	    s->trig_ovf)
		return false;
	for (i = 0; i < NCTR; i++) {
		const struct vpmu_ctr_cfg *want = i < NCFG ? &cfgs[i] : NULL;

		if (s->ctr[i] != vpmu_engine_ctr_read(e, i) ||
		    s->ovf_cnt[i] != vpmu_engine_ovf_count(e, i))
			return false;
		if (want ? (s->cfg[i].event != want->event ||
			    s->cfg[i].width != want->width ||
			    s->cfg[i].flags != want->flags ||
			    s->cfg[i].fgroup != want->fgroup) :
			   (s->cfg[i].width || s->cfg[i].flags))
			return false;
	}
	return true;
}

/* The reference and a run in pieces with snapshots clearing @mode's sets. */
static bool test_pieces(const struct vpmu_ucode *uc, int mode)
{
	static struct rig a, b;
	struct vpmu_engine_snap sa, sb, s2;
	u64 cleared[NCTR] = { 0 }, used = 0;
	unsigned int i, snaps = 0;
	struct vpmu_stop st;
	bool ok = true;

	if (!rig_init(&a, uc) || !rig_init(&b, uc))
		return false;
	while (ok && used < TOTAL) {
		u64 n = 1 + rnd(mode == 2 ? 40 : 7000);
		u32 clear = mode == 0 ? 0 : mode == 1 ? ~0u : rnd(1u << NCTR);

		vpmu_engine_run(b.e, n, &st);
		if (st.reason != VPMU_STOP_BUDGET || st.cycles < n) {
			tap_diag("piece: stop %d after %llu", st.reason,
				 (unsigned long long)st.cycles);
			ok = false;
			break;
		}
		used += st.cycles;
		vpmu_engine_snapshot(b.e, &sb, clear);
		snaps++;
		for (i = 0; i < NCTR; i++)
			if (clear >> i & 1)
				cleared[i] += count64(&sb, i);
		/* after the clear: cleared counters 0, the rest as taken */
		vpmu_engine_snapshot(b.e, &s2, 0);
		for (i = 0; i < NCTR; i++) {
			bool c = clear >> i & 1;

			if (s2.ctr[i] != (c ? 0 : sb.ctr[i]) ||
			    s2.ovf_cnt[i] != (c ? 0 : sb.ovf_cnt[i]) ||
			    (s2.ovf >> i & 1) != (c ? 0 : (sb.ovf >> i & 1)))
				ok = false;
		}
		if (!clear && memcmp(&sb, &s2, sizeof(sb)))
			ok = false;
		if (!ok)
			tap_diag("snapshot %u: a cleared counter kept a count, or another changed",
				 snaps);
		if (!snap_matches(b.e, &s2, used)) {
			tap_diag("snapshot %u does not read as the counters do",
				 snaps);
			ok = false;
		}
	}
	/*
	 * The reference in one run to the same microword boundary (a run
	 * ends at the first boundary past its budget: a stall may pass it).
	 */
	vpmu_engine_run(a.e, used, &st);
	if (st.reason != VPMU_STOP_BUDGET || st.cycles != used) {
		tap_diag("reference: stop %d after %llu cycles, not %llu",
			 st.reason, (unsigned long long)st.cycles,
			 (unsigned long long)used);
		ok = false;
	}
	vpmu_engine_snapshot(a.e, &sa, 0);
	vpmu_engine_snapshot(b.e, &sb, 0);
	ok = ok && snap_matches(a.e, &sa, used) && sa.cycles == sb.cycles &&
	     sa.frozen == sb.frozen && !memcmp(a.mem, b.mem, MEMSZ) &&
	     count64(&sa, 5) == 0 && count64(&sa, 0) > 20000;
	for (i = 0; ok && i < VPMU_OPND_PC + 1; i++)
		ok = vpmu_engine_reg(a.e, i) == vpmu_engine_reg(b.e, i);
	for (i = 0; ok && i < VPMU_EV_NR_BASIC; i++)
		ok = vpmu_engine_event_total(a.e, i) ==
		     vpmu_engine_event_total(b.e, i);
	for (i = 0; ok && i < NCTR; i++) {
		u64 want = count64(&sa, i);

		if (count64(&sb, i) + cleared[i] != want) {
			tap_diag("counter %u: %llu + %llu cleared, reference %llu",
				 i, (unsigned long long)count64(&sb, i),
				 (unsigned long long)cleared[i],
				 (unsigned long long)want);
			ok = false;
		}
	}
	if (ok && mode == 0 && memcmp(&sa, &sb, sizeof(sa)))
		ok = false;
	vpmu_engine_destroy(a.e);
	vpmu_engine_destroy(b.e);
	return ok && snaps > 20;
}

/* Before a start, the overflow and trigger bits, the mask's bounds. */
static bool test_fields(const struct vpmu_ucode *uc)
{
	static struct rig r;
	struct vpmu_engine *e = vpmu_engine_create(VPMU_CS_MAX);
	struct vpmu_ctr_cfg c = { VPMU_EV_UOPS, 4, BOTH | VPMU_CTR_INT, 2 };
	struct vpmu_engine_snap s;
	struct vpmu_stop st;
	bool ok;

	/* a new engine: all zero */
	vpmu_engine_snapshot(e, &s, 0);
	ok = !s.cycles && !s.ovf && !s.frozen && !s.trig_ovf &&
	     !s.ctr[0] && !s.cfg[15].width;
	vpmu_engine_destroy(e);
	if (!ok || !rig_init(&r, uc))
		return false;
	/* an interrupting counter: the stop's status bit, value 0 */
	vpmu_engine_ctr_config(r.e, 12, &c);
	vpmu_engine_ctr_write(r.e, 12, 0);
	vpmu_engine_fgroup_trigger(r.e, 3, VPMU_TRIG_OVF(12));
	vpmu_engine_fgroup_start_stop(r.e, 2, VPMU_TRIG_OVF(3),
				      VPMU_TRIG_NONE);
	vpmu_engine_run(r.e, 1000, &st);
	vpmu_engine_snapshot(r.e, &s, 0);
	ok = st.reason == VPMU_STOP_OVERFLOW && st.ovf == 1u << 12 &&
	     s.ovf >> 12 & 1 && s.ctr[12] == 0 && s.ovf_cnt[12] == 1 &&
	     s.cycles == st.cycles && s.trig_ovf == (1u << 12 | 1u << 3) &&
	     s.frozen >> 3 & 1 && s.ctr[IDLE] == 1234 &&
	     s.cfg[12].flags == c.flags && s.cfg[12].fgroup == 2;
	if (!ok)
		tap_diag("stop %d ovf %#x snap ovf %#x trig %#x frozen %#x",
			 st.reason, st.ovf, s.ovf, s.trig_ovf, s.frozen);
	/* bits past the counters are ignored; the idle counter clears */
	vpmu_engine_snapshot(r.e, &s, 0xffff0000u | 1u << IDLE);
	vpmu_engine_snapshot(r.e, &s, 0);
	ok = ok && s.ctr[IDLE] == 0 && s.ovf >> 12 & 1 && s.ctr[0];
	vpmu_engine_destroy(r.e);
	return ok;
}

int main(void)
{
	struct vpmu_ucode *uc = loop_uc();

	tap_plan(4);
	tap_ok(uc && test_pieces(uc, 0),
	       "snapshots between pieces read as the counters, change nothing");
	tap_ok(uc && test_pieces(uc, 1),
	       "snapshot-clear of every counter: the run as the reference, counts add up");
	tap_ok(uc && test_pieces(uc, 2),
	       "snapshot-clear of random counters in short pieces: exact");
	tap_ok(uc && test_fields(uc),
	       "snapshot fields: fresh engine, overflow stop, triggers, idle counter");
	vpmu_ucode_free(uc);
	return tap_done();
}
