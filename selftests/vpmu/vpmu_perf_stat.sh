#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vpmu_perf_stat.sh - the vpmu PMU through the perf tool (busybox sh):
# perf list shows the aliases, and perf stat -x, counts sample programs
# exactly as their .expect files say (aliases, raw event= and tag= terms,
# the u/k modifiers, a CPU-wide count, trigger terms).  TAP output; skips without perf,
# the PMU, vpmu-run or the assembled samples.

PMU=/sys/bus/event_source/devices/vpmu
SHARE=${VPMU_SHARE:-/usr/share/vpmu}
RUN=$(command -v vpmu-run || echo vpmu-run)
OUT=/tmp/vpmu_perf_stat.$$
# The TAP helpers, beside this script (installed as a TEST_FILES).
# shellcheck source=vpmu_tap.sh
. "$(dirname "$0")/vpmu_tap.sh"

command -v perf >/dev/null 2>&1 || skip_all "no perf"
[ -d "$PMU" ] || skip_all "no vpmu PMU"
[ -x "$RUN" ] || skip_all "no vpmu-run"
[ -f "$SHARE/build/sum.vprg" ] || skip_all "no $SHARE/build/sum.vprg"

tap_plan 11

# expected NAME FILE: the "event NAME COUNT" line's count of an .expect file.
expected() {
	sed -n "s/^event $1 \([0-9]*\)\$/\1/p" "$2"
}

sum=$SHARE/samples/sum.expect
sort=$SHARE/samples/sort.expect
sysc=$SHARE/samples/syscall.expect

# 1. perf list knows every alias.
perf_lists vpmu vpmu_cycles vpmu_uops vpmu_insns vpmu_ubr_taken \
	vpmu_dispatch vpmu_dc_hit vpmu_dc_miss vpmu_wq_stall vpmu_trigger \
	vpmu_stores vpmu_tag1 vpmu_tag8
ok $? "perf list shows the vpmu events"

# 2. An alias, a raw event number and a tag number.
stat -e vpmu/vpmu_uops/,vpmu/event=2/,vpmu/tag=1/ "$RUN" "$SHARE/build/sum.vprg"
check "vpmu/vpmu_uops/=$(expected uops "$sum")" \
      "vpmu/event=2/=$(expected insns "$sum")" \
      "vpmu/tag=1/=$(expected tag1 "$sum")"
ok $? "perf stat: uops, event=2, tag=1 of sum"

# 3. Three more aliases on another program.
stat -e vpmu/vpmu_dc_hit/,vpmu/vpmu_stores/,vpmu/vpmu_tag8/ "$RUN" "$SHARE/build/sort.vprg"
check "vpmu/vpmu_dc_hit/=$(expected dc_hit "$sort")" \
      "vpmu/vpmu_stores/=$(expected stores "$sort")" \
      "vpmu/vpmu_tag8/=$(expected tag8 "$sort")"
ok $? "perf stat: dc_hit, stores, tag8 of sort"

# 4. The u and k modifiers: user + supervisor cycles.
total=$(expected cycles "$sysc")
super=$(sed -n 's/^super cycles \([0-9]*\)$/\1/p' "$sysc")
stat -e vpmu/vpmu_cycles/u,vpmu/vpmu_cycles/k,vpmu/vpmu_cycles/ "$RUN" "$SHARE/build/syscall.vprg"
check "vpmu/vpmu_cycles/u=$((total - super))" "vpmu/vpmu_cycles/k=$super" \
      "vpmu/vpmu_cycles/=$total"
ok $? "perf stat: cycles:u + cycles:k of syscall"

# 5. Runs repeated: three runs of sum, counted by one perf stat.
stat -e vpmu/vpmu_insns/ "$RUN" -n 3 "$SHARE/build/sum.vprg"
check "vpmu/vpmu_insns/=$((3 * $(expected insns "$sum")))"
ok $? "perf stat: three runs of sum"

# 6. CPU-wide on CPU 0: the runs there, whoever makes them.
if [ "$(nproc 2>/dev/null || echo 1)" -ge 1 ] && command -v taskset >/dev/null; then
	stat -a -C 0 -e vpmu/vpmu_insns/ -- taskset -c 0 "$RUN" -n 2 "$SHARE/build/sort.vprg"
	check "vpmu/vpmu_insns/=$((2 * $(expected insns "$sort")))"
	ok $? "perf stat -a -C 0: two runs of sort on CPU 0"
else
	skip "perf stat -a" "no taskset"
fi

# 7. perf record -c 50 on sum: floor(179 / 50) = 3 samples, each at the
#    microword that completed its 50 microwords: the next microword of a
#    run whose budget ends one cycle before it (sum has no stalls), the
#    IP being 0x100000000000 + macro PC, or with sample_upc
#    0x200000000000 + micro-PC (Documentation/admin-guide/perf/vpmu.rst,
#    "Sampling").
DATA=${TMPDIR:-/tmp}/vpmu_perf_record.$$
want=""
wantu=""
for k in 1 2 3; do
	line=$("$RUN" -b $((50 * k - 1)) "$SHARE/build/sum.vprg" | grep ' upc ')
	upc=$(echo "$line" | sed -n 's/.* upc \(0x[0-9a-f]*\).*/\1/p')
	ipc=$(echo "$line" | sed -n 's/.* ipc \(0x[0-9a-f]*\).*/\1/p')
	want="$want $(printf '%x' $(( (1 << 44) + ipc )))"
	wantu="$wantu $(printf '%x' $(( (1 << 45) + upc )))"
done
for t in "" ,sample_upc; do
	perf_record -e "vpmu/vpmu_uops$t/" -c 50 -o "$DATA" "$RUN" \
		"$SHARE/build/sum.vprg" >/dev/null 2>&1
	got=$(perf_fields "$DATA" ip 2>/dev/null | tr -s ' \n' ' ' |
		sed 's/^ *//; s/ *$//')
	[ -n "$t" ] && want=$wantu
	want=${want# }
	name="perf record -c 50${t:+ (${t#,})} + perf script:"
	name="$name 3 samples at the expected ${t:+micro-}PCs"
	if [ "$got" = "$want" ]; then
		ok 0 "$name"
	else
		echo "# got '$got', expected '$want'"
		ok 1 "$name"
	fi
done

# 8. perf record -F 1000 on a long run: samples, with varying periods.
perf_record -e vpmu/vpmu_cycles/ -F 1000 -o "$DATA" \
	"$RUN" -q -b 3000000 "$SHARE/build/sortloop.vprg" >/dev/null 2>&1
nsamples=$(perf_fields "$DATA" period 2>/dev/null | wc -l)
[ "$nsamples" -gt 0 ]
ok $? "perf record -F 1000: $nsamples samples"

# 9. A group counting only between marks (trig_mark, started frozen):
#    marks.s has 1000 regions of 4 instructions and 18 microwords; the
#    member without the terms follows its leader's freeze bit.
SEP=';'
stat -e '{vpmu/vpmu_insns,trig_mark=1,frozen=1/,vpmu/vpmu_uops/}' \
	"$RUN" "$SHARE/build/marks.vprg"
check "vpmu/vpmu_insns,trig_mark=1,frozen=1/=4000" "vpmu/vpmu_uops/=18000"
ok $? "perf stat: a group frozen outside the mark regions of marks"

# 10. A tag as trigger, started running: everything outside the 500 calls
#     of calls.s (14004 - 500 x 14 microwords).
stat -e vpmu/vpmu_uops,trig_tag=8/ "$RUN" "$SHARE/build/calls.vprg"
check "vpmu/vpmu_uops,trig_tag=8/=7004"
ok $? "perf stat: trig_tag=8 counts outside the calls of calls"

rm -f "$OUT" "$DATA" "$DATA.old"
tap_done
