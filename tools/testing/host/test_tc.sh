#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_tc.sh - the translation cache against the interpreter (TAP):
#
#   1. test_tc (test_tc.c) on every program and configuration, with the
#      RV32 C samples (tools/vpmu's "make rv32") and gen_rv32's random
#      programs, RV32IM, RV32IMC and RV32IMAC, when the cross compiler is there
#      (installed when missing, as root);
#   2. the same test on engines built with a deliberate fault in the cache
#      (MUTANTS below: a file of drivers/perf/vpmu/engine, a line of it,
#      and what it becomes), as many at once as there are CPUs, beside
#      step 1: each must be caught, by a failed test or a crash.  A line
#      that is no longer in the file fails too, so the faults follow the
#      code.  Faults in what both engines of test_tc share (the counters'
#      credits, the chunks' plan) are run against test_trig's model of
#      the counts or test_engine's stepped references instead (a fifth
#      field names the test).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/tap.sh"
here=$(cd "$(dirname "$0")" && pwd)
VPMU=$TOP/drivers/perf/vpmu/engine
RVCC=${RV32_CC:-riscv64-unknown-elf-gcc}
SEEDS=${TC_SEEDS:-2}

# shellcheck source=../../pkg/apt.sh
. "$TOP/tools/pkg/apt.sh"
command -v "$RVCC" >/dev/null 2>&1 ||
	apt_install_missing gcc-riscv64-unknown-elf
elfs=()
if command -v "$RVCC" >/dev/null 2>&1; then
	tap_build share rv32
	elfs=("$SHARE"/build/rv32/*.elf)
	${CC:-cc} -O2 -o "$tmp/gen_rv32" "$here/gen_rv32.c"
	for seed in 1 2 3 4; do
		"$tmp/gen_rv32" "$seed" 300 >"$tmp/r.S" &&
			"$RVCC" -march=rv32im -mabi=ilp32 -nostdlib -static \
				-o "$tmp/gen$seed.elf" "$tmp/r.S" &&
			elfs+=("$tmp/gen$seed.elf")
	done
	# RV32IMC: compressed instructions on 2-byte boundaries
	for seed in 1 2; do
		"$tmp/gen_rv32" -c "$seed" 300 >"$tmp/r.S" &&
			"$RVCC" -march=rv32imc -mabi=ilp32 -nostdlib -static \
				-o "$tmp/genc$seed.elf" "$tmp/r.S" &&
			elfs+=("$tmp/genc$seed.elf")
	done
	# RV32IMAC: the atomics' forks on data (SC.W's two compares),
	# misaligned loads and stores (their dispatch on data, guarded), and
	# counter reads kept in registers (CTR: each ends a translation)
	for seed in 1 2; do
		"$tmp/gen_rv32" -c -a -m -Z "$seed" 300 >"$tmp/r.S" &&
			"$RVCC" -march=rv32imac_zicsr -mabi=ilp32 -nostdlib -static \
				-o "$tmp/genca$seed.elf" "$tmp/r.S" &&
			elfs+=("$tmp/genca$seed.elf")
	done
fi

make -s -C "$here" build/test_tc >/dev/null 2>&1
ok $? "test_tc builds"
# Its own tests, numbered on from here (its plan line is ours to write),
# in the background: the faults below build and run beside it, as many at
# once as there are CPUs (HOST_JOBS), this run counted as one of them.
"$here/build/test_tc" -s "$SEEDS" "${elfs[@]}" >"$tmp/tc.out" 2>&1 &
tc_pid=$!

# The faults: FILE#LINE#REPLACEMENT#WHAT[#TEST[#FIRST]], LINE and
# REPLACEMENT exact; FIRST names test_tc's tests to run first, those that
# catch the fault after a minute of the others (test_tc -f): the verdict
# is the same, in seconds, and should they no longer catch it the others
# still run.
# Not among them: a link into an evicted translation kept (tc_forget()).
# Entering a link compares the next word with the linked translation's,
# so a stale link runs the wrong code only when a translation of the same
# word at another pc lands where the evicted one was; no program here
# makes that happen within the time a fault may take (it ran the whole
# 600 s uncaught), and a fault no test catches would fail the tier.
# Nor a yielded block entered in another code generation: test_tc runs
# one program on an engine, whose code changes the translation's own
# check on entry sees; test_ctx, whose programs take turns on one
# engine, catches it (another program at the same micro-PC).
MUTANTS=(
"vpmu_tc_translate.c#		vpmu_tc_count(tr, upc | VPMU_TC_BLOCK_TAKEN);#		(void)0;#a resolved branch's taken count dropped"
"vpmu_tc_pool.c#			U[upc].tkn += n;#			U[upc].tkn += 0;#taken counts not drained"
"vpmu_tc_pool.c#			for (s = 0; s < nused; s++) {#			for (s = 0; s + 1 < nused; s++) {#the last slot in use not drained"
"vpmu_tc_pool.c#			U[upc].cnt += n;#			U[upc].cnt += n + (n > 7);#executions miscounted when many"
"vpmu_tc_emit.c#		if (U[ent].seg > 1)#		if (U[ent].seg > 0)#a block's netted counts carried across a segment's end"
"vpmu_tc_emit.c#		if (nd && d[nd - 1] == (ent | VPMU_TC_BLOCK_DOWN))#		if (nd)#a block's netted counts cancelled where they do not meet##rv32 counter reads, trigger toggles, wide counters"
"vpmu_tc_emit.c#			ncyc - tr->cut_execs[i];#			ncyc - tr->cut_execs[i] + 1;#a refund one cycle off"
"vpmu_tc_emit.c#		tr->ops[tr->st_ops[i]].d = ncyc - tr->st_execs[i];#		tr->ops[tr->st_ops[i]].d = 0;#a store's cycle taken at its block's end"
"vpmu_tc_cache.c#		if (tb->kill & VPMU_TC_REG(fin->p[i].idx))#		if (1)#a link's pairs never written"
"vpmu_tc_cache.c#		vpmu_tc_apply(base, b, x->kpos, 1);#		vpmu_tc_apply(base, b, 0, 1);#an exit forgets what ran of its block"
"vpmu_tc_cache.c#	vpmu_latch_maps(e);#	(void)0;#an exit leaves @ds, @s1, @s2 stale"
"vpmu_tc_cache.c#			vpmu_latch_maps(e);#			(void)0;#an instruction found warm, then interpreted, with the maps of the translation before it##divide.elf"
"vpmu_tc_translate.c#	return (tr->e->dp.condtab[d->cond] >> fl) & 1;#	return 0;#branches on known flags not followed"
"vpmu_tc_exec.c#	if (tb->gen != e->tc.gen && !vpmu_tc_check(e, tb))#	if (0)#a superblock's later words not checked when it is entered"
"vpmu_tc_exec.c#			e->tc.gen++;	/* the others check */		\\#			(void)0;					\\#a translation's store into a checked word starts no new generation##rv32 rewriting an instruction each pass, after it ran, nothing counted"
"vpmu_tc_exec.c#			goto tc_code_exit;				\\#			(void)0;					\\#a translation runs on after its store into a checked word##rv32 rewriting its next instruction each pass, nothing counted"
"vpmu_engine_priv.h#	if (e->mem.tc_pool && unlikely(vpmu_tc_code(e, maddr)))#	if (0)#the interpreter's stores into checked words not seen"
"vpmu_tc_cache.c#	e->tc.gen++;#	(void)0;#code the caller rewrote in place between runs not checked"
"vpmu_tc_cache.c#		e->tc.gen++;#		(void)0;#a program resumed in new memory runs what the old held"
"vpmu_tc_pool.c#			e->mem.tc_map[i] = 0;#			(void)0;#the table keeps evicted translations"
"vpmu_tc_pool.c#		vpmu_tc_drain(e);	/* counts first: they may go */#		(void)0;#counts of evicted translations lost"
"vpmu_tc_exec.c#		if (unlikely(t->y && left < 0))				\\#		if (0)							\\#a stall that runs past the chunk not left"
"vpmu_tc_exec.c#	left -= (s32)t->imm;#	left -= (s32)t->imm - 1;#a block charged one cycle short"
"vpmu_tc_exec.c#		if (unlikely(r & t->y))					\\#		if (0)							\\#a dispatch on an address always to its first entry"
"vpmu_tc_translate.c#	t->y = (1u << d->cond) - 1;#	t->y = 1;#a dispatch on data guarded on its low bit only"
"vpmu_tc_translate.c#	    d->seq == VPMU_SEQ_CTR ||#	    0 ||#the translator not stopped before a counter read (CTR)"
"vpmu_tc_exec.c#		maddr = r;						\\#		maddr = R[t->a];					\\#a fused guard's access at the address without its offset"
"vpmu_tc_exec.c#		t++;	/* the access, whose base is d and offset 0 */	\\#		(void)0;						\\#a fused guard's access run with the guard's fields"
"vpmu_tc_exec.c#			if (r & t->y)					\\#			if (0)						\\#a fused guard's failed check taken for the access's, whatever the dispatch's index"
"vpmu_tc_exec.c#			R[t->d] = r;					\\#			(void)0;					\\#a fused guard's exit before its access without the dispatch's sum##off the end"
"vpmu_tc_emit.c#		    (g->y & ~(tc_access_size(m->h) - 1)))#		    (g->y & ~(tc_access_size(m->h) * 0 - 1)))#a dispatch fused with an access whose check does not cover its index##behind a dispatch"
"vpmu_tc_exec.c#		if (chain_ && likely(t->chain == e->tc.stamp)) {	\\#		if (chain_ && likely((u32)t->chain == e->tc.epoch)) {	\\#a chained link followed in any code generation"
"vpmu_tc_exec.c#		if (chain_ && likely(t->chain == e->tc.stamp)) {	\\#		if (chain_ && likely((u32)(t->chain >> 32) == e->tc.gen)) {	\\#a chained link followed in any drain epoch: into an evicted translation"
"vpmu_tc_exec.c#			if (!tc_may_enter(e, t))			\\#			if (0)						\\#a link chained into a translation entered unchecked"
"vpmu_tc_exec.c#		vpmu_tc_code_mark(e, npc);#		(void)npc;#a chained link's next word not marked: stores into it unseen"
"vpmu_tc_exec.c#	return t->chain_gen == e->tc.gen && t->chain != VPMU_TC_UNCHAINED &&#	return e && t->chain != VPMU_TC_UNCHAINED &&#a link chained again in a new code generation without its word compared"
"vpmu_tc_exec.c#	       l->tb;#	       l;#a link chained again after its translation was evicted"
"vpmu_engine_priv.h#		if (lo > e->tc.code_lo)#		if (0)#a word marked below the others outside the span a store is looked up in##rv32 rewriting its hot loop, nothing counted"
"vpmu_engine_priv.h#		if (hi < e->tc.code_lo + e->tc.code_span)#		if (0)#a word marked above the others outside the span a store is looked up in##rv32 rewriting its hot loop, nothing counted"
"vpmu_tc_emit.c#			ops[i].chain = VPMU_TC_UNCHAINED;#			ops[i].chain = e->tc.stamp;#a new EOI's link chained before its word was compared"
"vpmu_tc_cache.c#	if (x->blk || now <= e->tc.yield_from)#	if (now <= e->tc.yield_from)#a yield at a branch's taken side: the branch counted twice"
"vpmu_tc_pool.c#		e->tc.resume.tb = 0;#		(void)0;#a yielded block entered after its translation was evicted"
"vpmu_interp.c#					.left = left,#					.left = left - 1,#a run that yields for an instruction it found warm charged a cycle more"
"vpmu_interp.c#			if (cend + 1 - left > e->tc.yield_from) {#			if (1) {#a run yields for an instruction it found warm where it may not"
"vpmu_interp.c#			if (cend + 1 - left > e->tc.yield_from) {#			if (0) {#a run that defers never yields for an instruction it found warm"
"vpmu_tc_exec.c#	if (unlikely(tb->stamp != e->tc.stamp) && !tc_restamp(e, tb))#	if (0)#a yielded block entered unchecked: its counts not drained"
"vpmu_run.c#	e->tc.resume.tb = 0;	/* a translation may know its value */#	(void)0;#a yielded block entered after a register was set"
"vpmu_tc_translate.c#	if (!tc_at(st, &code) || !(st->known & VPMU_TC_REG(code)))#	if (!tc_at(st, &code))#the short path takes an operand on data for known"
"vpmu_tc_translate.c#		   (e->dp.r0zero ? VPMU_TC_REG(VPMU_OPND_R0) : 0);#		   0;#a result into r0 that reads 0 kept"
"vpmu_tc_exec.c#	e->st.wq_last = wq_last;#	(void)0;#a translation's write-queue time not written back when it leaves"
"vpmu_tc_exec.c#			e->st.wq_last = wq_last;			\\#			(void)0;					\\#a translation's write-queue time not written back before the next is looked up"
"vpmu_tc_exec.c#	GOTO_TAKE(vpmu_cond_at(e, t->b, cend - left, e->st.last_miss, wq_last));#	GOTO_TAKE(vpmu_cond_ext(e, t->b, cend - left));#a translated branch on a full write queue reads the engine's stale copy"
"vpmu_tc_exec.c#	return e->mem.slot[tcnt - tpool];#	return e->mem.slot[tcnt - tpool + 1];#translated misses, stalls and exits counted in the next slot"
"vpmu_tc_exec.c#	if (unlikely(l->pairs))#	if (0)#a link's pairs not written where it is followed unchained, or chained again"
"vpmu_tc_exec.c#	t->h = pairs ? VPMU_TC_OP_EOI_KNOWN : VPMU_TC_OP_EOI_KNOWN_NP;#	t->h = VPMU_TC_OP_EOI_KNOWN_NP;#a link with pairs chained as one without: its pairs not written"
"vpmu_tc_exec.c#	if (likely(tc_of_first(t)->stamp == e->tc.stamp))#	if (1)#a linked translation entered without its stamp compared"
"vpmu_tc_emit.c#		    ops[i].h == VPMU_TC_OP_BLOCK_TGL)#		    0)#a toggling block's counter left where its translation was made"
"vpmu_tc_exec.c#	e->trig.frozen ^= t->d;#	(void)0;#a translated trigger source counts in the new slot but toggles nothing"
"vpmu_tc_cache.c#	e->trig.frozen ^= x->untoggle;#	(void)0;#an exit before a toggling block's first microword leaves it toggled"
"vpmu_tc_exec.c#	if (unlikely(x->untoggle))	/* back in the slot it came from */#	if (0)#an exit before a toggling block's first microword stays in its slot"
"vpmu_tc_emit.c#	if (tr->blk_tgl && !(cut ? kpos : vpmu_tc_cur_block(tr)->n))#	if (tr->blk_tgl && cut && !kpos)#an exit after a toggling block that ran nothing leaves it toggled"
"vpmu_interp.c#		base = e->mem.slot[nx.slot];#		(void)0;#the interpreter goes on in the slot a translation toggled out of"
"vpmu_counters.c#			add[i] -= e->ctr.credited[i];#			(void)0;#a fold adds again what credits added#trig"
"vpmu_counters.c#		e->ctr.credit_lost = true;#		(void)0;#credits after a fold for a new slot inside a chunk#trig"
"vpmu_counters.c#	return mask & ((all & (e->ctr.cyc_mask | e->ctr.uops_mask)) | ~any);#	return mask & (all | ~any);#credits to counters of events other than CYCLES and UOPS#trig"
"vpmu_counters.c#		return e->ctr.unfolded - e->ctr.unfolded_stall;#		return e->ctr.unfolded;#a credit to a counter of UOPS counts stall cycles as microwords#trig"
"vpmu_counters.c#	e->ctr.unfolded_stall = 0;#	(void)0;#a settle leaves the stall cycles it folded to the next credit#trig"
"vpmu_engine_priv.h#	e->ctr.stalled += stall;#	(void)0;#stall cycles not counted: a credit takes them for microwords#trig"
"vpmu_counters.c#		e->ctr.on_mask |= 1u << idx;#		(void)0;#reads of a counter whose counts are in the slots settle nothing#trig"
"vpmu_counters.c#		if (!n || !(any >> i & 1))#		if (!n)#credits to a counter no slot in use counts#trig"
"vpmu_counters.c#	else if (x)#	else if (0)#a chunk's CYCLES counter left inexact where no credit can make it exact#engine"
"vpmu_plan.c#		if (r > e->ctr.grown[i] + *L + e->dp.stall_max)#		if (r > e->ctr.grown[i] + *L)#a counter within a stall of its wrap not planned#engine"
"vpmu_counters.c#	e->ctr.slots_all &= m;#	(void)0;#a credit to a counter a new slot does not count#trig"
"vpmu_plan.c#	for (m = e->ctr.plan_mask & ~e->ctr.x_now & ~armed; m; m &= m - 1) {#	for (m = e->ctr.plan_mask & 0; m; m &= m - 1) {#deferring chunks' growth not bounded#engine"
"vpmu_run.c#		if (!e->ctr.unfolded || wr)	/* a wrap may have frozen fgroups */#		if (!e->ctr.unfolded)	/* a wrap may have frozen fgroups */#a deferred chunk's freeze on overflow not seen by the slots#engine"
"vpmu_plan.c#				*defer_len = r - 1;#				*defer_len = r;#a deferring chunk one cycle past a CYCLES counter's wrap#engine"
"vpmu_tc_exec.c#	if (unlikely(!tc_ev_take(&e->tc, t, left)))#	if (0)#an armed chunk's translations count no event##instructions"
"vpmu_tc_exec.c#	if (left < (s32)t->imm)#	if (0)#a counting block takes its events, then finds it has not the cycles to run##instructions"
"vpmu_tc_cache.c#		if (x->counted && e->tc.ev_gap)#		if (0)#an armed chunk's block left part-way keeps the events of what did not run##instructions"
"vpmu_tc_exec.c#		tc->ev_left[k] -= v[k];#		(void)0;#a counting block's events not taken off what is left##instructions"
"vpmu_tc_exec.c#				tc->ev_left[k] - (u32)n : 0;#				tc->ev_left[k] - 0 : 0;#an armed chunk's interpreted cycles not charged##instructions"
"vpmu_tc_exec.c#		r.left = (s32)n;#		(void)0;#the interpreter's clock after armed translations not cut to what is left##instructions"
"vpmu_tc_pool.c#			v++;#			(void)0;#blocks' events not counted: every block a BLOCK##instructions"
"vpmu_tc_pool.c#		tb->epoch |= VPMU_TC_EV_FIRST;#		(void)0;#a translation whose first block counts entered the fast way, counting nothing##instructions"
"vpmu_tc_emit.c#		vpmu_tc_ev_trans(e, tb);#		(void)tb;#translations made while a counter is near its wrap count nothing##instructions"
"vpmu_interp.c#		cend = e->tc.ev_icend;#		(void)0;#the interpreter keeps its clock after armed translations##instructions"
"vpmu_interp.c#				cend = e->tc.ev_icend;#				(void)0;#the interpreter keeps its clock after a resumed armed block##instructions"
"vpmu_plan.c#		n = e->tc.ev_arm[k] - e->tc.ev_left[k];#		n = 0;#an armed chunk's events neither credited nor added to the counter's growth##instructions"
"vpmu_plan.c#	return (e->tc.ev_eoi >> k & 1) && !e->tc.ev_over &&#	return !e->tc.ev_over &&#credits for an armed counter the interpreter does not count, only bounds##instructions"
"vpmu_plan.c#	       !e->ctr.credit_lost && (e->ctr.slots_all >> i & 1);#	       !e->ctr.credit_lost;#credits for an armed chunk's events in a slot that does not count them##instructions"
"vpmu_counters.c#	return vpmu_exact_of(e, 0, s) == s ? s : 0;#	return s;#reads of sparse counters whose growth is only bounded settle nothing##instructions"
"vpmu_engine_priv.h#		if (!e->ctr.grown[__builtin_ctz(mask)])#		if (1)#a sparse counter whose growth is only bounded planned as exact##instructions"
"vpmu_run.c#		if (vpmu_ctr_credit_n(e, i, e->ctr.grown[i] + 1))#		if (vpmu_ctr_credit_n(e, i, e->ctr.grown[i]))#a step's event not counted: the counter wraps an event late##instructions"
"vpmu_run.c#	    (e->ctr.slots_all & e->ctr.cmeasure) != e->ctr.cmeasure) {#	    0) {#a step counts events in a slot that does not count them##trigger toggles"
"vpmu_run.c#		if (now[i] == ran[i])#		if (now[i] == ran[i] || 1)#a step that counts counts nothing##instructions"
"vpmu_plan.c#	a.ev[i] = *L / e->ctr.plan_gap[i];#	a.ev[i] = *L / e->ctr.plan_gap[i] + 1;#an armed counter allowed its wrap's event##instructions"
"vpmu_plan.c#					a->ev[i] = *L / e->ctr.plan_gap[i];#					a->ev[i] = *L / e->ctr.plan_gap[i] + 1;#a second armed counter allowed its wrap's event##instructions"
"vpmu_plan.c#		    vpmu_arm_far(e))#		    1)#the blocks turned back to plain counting whenever a chunk goes unarmed##instructions"
"vpmu_interp.c#			tc->ev_left[k]--;#			(void)0;#an armed chunk's interpreter counts no instruction##instructions"
"vpmu_interp.c#		    vpmu_eoi_armed(&e->tc, cend - left))#		    vpmu_eoi_armed(&e->tc, cend - left) && 0)#an armed chunk's interpreter runs on past its last instruction##instructions"
"vpmu_tc_exec.c#		if (tc->ev_eoi >> k & 1 && tc->ev_left[k])#		if (tc->ev_eoi >> k & 1)#the interpreter runs after translations took the last instruction##instructions"
"vpmu_plan.c#			len = a->ev[i] * g;#			(void)0;#an armed chunk's interpreter on the chunk's clock for a counter it does not count##instructions"
"vpmu_uop_build.c#				e->tc.eoi_hook = true;#				(void)0;#an EOI with a hook after it, which counts nothing, not seen##system calls"
)

# Objects that do not change, built once: test_tc.c and the toolchain
# library, as tools/vpmu/sources.mk lists it (VPMU_LIB_SRCS).
CFLAGS_TC=(-std=gnu11 -O1 -g -w -I"$TOP/include/uapi" -I"$here"
	   -I"$TOP/drivers/perf/vpmu" -I"$TOP/drivers/perf/vpmu/asm"
	   -I"$TOP/tools/vpmu" -DVPMU_TOP="\"$TOP\"")
# shellcheck disable=SC2016 # $(VPMU_LIB_SRCS) is make's, not the shell's
read -ra lib_srcs < <(printf 'print:\n\t@echo $(VPMU_LIB_SRCS)\n' |
	make -s --no-print-directory -f "$TOP/tools/vpmu/sources.mk" -f - print)
[ ${#lib_srcs[@]} -gt 0 ] || { echo "# tools/vpmu/sources.mk: no VPMU_LIB_SRCS"; exit 1; }
# In a fixed place of the build directory rather than $tmp: the same
# paths from one run to the next, so that ccache (make check's,
# testing.rst) gives back what an unchanged object or fault compiled to.
wd=$here/build/test_tc.sh.d
trap 'rm -rf "$tmp" "$wd"' EXIT
rm -rf "$wd"
mkdir -p "$wd/obj" "$wd/core"
for f in "$here/test_tc.c" "${lib_srcs[@]}"; do
	${CC:-cc} "${CFLAGS_TC[@]}" -I"$VPMU" -c -o "$wd/obj/$(basename "$f" .c).o" "$f" || exit 1
done
# The engine core unchanged, once: a fault in a .c file compiles that
# file again, one in a header every file.
for f in "$VPMU"/*.c; do
	${CC:-cc} "${CFLAGS_TC[@]}" -I"$VPMU" -c \
		-o "$wd/core/$(basename "$f" .c).o" "$f" || exit 1
done

# test_trig and test_engine: the engine core alone besides their own.
for t in trig engine; do
	mkdir -p "$wd/obj-$t"
	${CC:-cc} "${CFLAGS_TC[@]}" -I"$VPMU" -c -o "$wd/obj-$t/test_$t.o" \
		"$here/test_$t.c" || exit 1
done

# mutant I FILE LINE REPL WHAT [TEST [FIRST]] - build the engine with
# FILE's LINE replaced by REPL in $wd/mI and run test_TEST on it (test_tc
# by default; FIRST, test_tc's tests named so first: test_tc -f); the
# verdict into $wd/mI/ok as "STATUS WHAT".
mutant() {
	local d=$wd/m$1 file=$2 line=$3 repl=$4 what=$5 test=${6:-tc}
	local try_first=${7:-}
	local f objs=() rc first t0=$SECONDS

	mkdir -p "$d"
	cp -r "$VPMU" "$d/vpmu"
	if [ "$(grep -cxF -- "$line" "$d/vpmu/$file")" = 0 ]; then
		echo "1 fault \"$what\": its line is no longer in $file" >"$d/ok"
		return
	fi
	LINE=$line REPL=$repl perl -0pi -e \
		's/^\Q$ENV{LINE}\E$/$ENV{REPL}/mg' "$d/vpmu/$file"
	for f in "$d"/vpmu/*.c; do
		if [ "${file%.h}" = "$file" ] && [ "${f##*/}" != "$file" ]; then
			objs+=("$wd/core/$(basename "$f" .c).o")
			continue
		fi
		${CC:-cc} "${CFLAGS_TC[@]}" -I"$d/vpmu" -c -o "$f.o" "$f" || break
		objs+=("$f.o")
	done
	if [ "$test" = tc ]; then
		objs+=("$wd"/obj/*.o)
	else
		objs+=("$wd/obj-$test/test_$test.o")
	fi
	if ! ${CC:-cc} -o "$d/mutant" "${objs[@]}" 2>"$d/link.err"; then
		echo "1 fault \"$what\": does not build" >"$d/ok"
		return
	fi
	if [ "$test" = tc ]; then
		timeout 600 "$d/mutant" -x -s 1 ${try_first:+-f "$try_first"} \
			"${elfs[@]}" >"$d/m.out" 2>&1
	else
		timeout 600 "$d/mutant" >"$d/m.out" 2>&1
	fi
	rc=$?
	first=$(grep -m1 '^not ok' "$d/m.out" | sed 's/^not ok [0-9]* - //')
	# a crash is caught too (not a timeout's kill)
	[ -z "$first" ] && [ "$rc" -gt 128 ] && [ "$rc" != 137 ] &&
		first="the run crashed (signal $((rc - 128)))"
	[ "$rc" != 0 ] && [ -n "$first" ]
	echo "$? fault \"$what\" caught: ${first:-not caught} ($((SECONDS - t0)) s)" >"$d/ok"
}

jobs_max=${HOST_JOBS:-$(nproc 2>/dev/null || echo 1)}
i=0
for m in "${MUTANTS[@]}"; do
	IFS='#' read -r file line repl what test first <<<"$m"
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do
		wait -n
	done
	mutant "$i" "$file" "$line" "$repl" "$what" "$test" "$first" &
	i=$((i + 1))
done

wait "$tc_pid"
rc=$?
while IFS= read -r line; do
	case $line in
	"ok "*) ok 0 "${line#ok * - }" ;;
	"not ok "*) ok 1 "${line#not ok * - }" ;;
	"1.."*) ;;
	*) echo "$line" ;;
	esac
done <"$tmp/tc.out"
[ "$rc" = 0 ] || [ "$failed" -gt 0 ] || ok 1 "test_tc exited with $rc"

wait
for ((j = 0; j < i; j++)); do
	if [ -f "$wd/m$j/ok" ]; then
		read -r rc what <"$wd/m$j/ok"
		ok "$rc" "$what"
	else
		ok 1 "fault $j: no verdict (its run died)"
	fi
done
tap_done
