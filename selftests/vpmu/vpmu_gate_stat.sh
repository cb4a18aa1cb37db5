#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vpmu_gate_stat.sh - a group gating the micro-PC histogram and the
# histogram unit, through the perf tool and vpmu-hist (busybox sh): the
# format/ terms gate_uhist and gate_hu as perf stat parses them, with the
# exact counts vpmu_gate.c derives from marks.s (1000 regions between two
# marks, 18 microwords and cycles each, 1000 marks in them); the unit's
# program is set by vpmu-hist --set-program.  The stats and the report of
# the gated histogram are printed whole as TAP comments.
# TAP output; skips without perf, vpmu-run, vpmu-hist, uhist/, hist/ or
# the assembled samples.

PMU=/sys/bus/event_source/devices/vpmu
UH=$PMU/uhist
HU=$PMU/hist
SHARE=${VPMU_SHARE:-/usr/share/vpmu}
RUN=$(command -v vpmu-run || echo vpmu-run)
HIST=$(command -v vpmu-hist || echo vpmu-hist)
T=/tmp/vpmu_gate_stat.$$
OUT=$T/stat
# The TAP helpers, beside this script (installed as a TEST_FILES).
# shellcheck source=vpmu_tap.sh
. "$(dirname "$0")/vpmu_tap.sh"

command -v perf >/dev/null 2>&1 || skip_all "no perf"
[ -x "$RUN" ] || skip_all "no vpmu-run"
[ -x "$HIST" ] || skip_all "no vpmu-hist"
[ -w "$UH/control" ] || skip_all "no $UH/control"
[ -w "$HU/control" ] || skip_all "no $HU/control"
[ -f "$SHARE/build/marks.vprg" ] || skip_all "no $SHARE/build/marks.vprg"
command -v taskset >/dev/null 2>&1 || skip_all "no taskset"

tap_plan 4
SEP=';'
mkdir -p "$T"
old=$(cat "$UH/interval")
cleanup() {
	echo stop >"$UH/control"
	echo "$old" >"$UH/interval"
	echo off | "$HIST" --set-program=-
	rm -rf "$T"
}
trap cleanup EXIT
cat "$PMU/ucode/image" >"$T/image.vpmu"

# perf stat ARGS as people see it, as TAP comments.
show() {
	echo "# \$ perf stat $*"
	perf stat "$@" 2>&1 | sed 's/^/# /'
}

# 1. The histogram, every cycle, gated by the regions' group: perf stat
#    counts them, and the histogram holds their 18000 cycles.
ev='{vpmu/vpmu_uops,trig_mark=1,frozen=1,gate_uhist=1/,vpmu/vpmu_cycles/}'
echo 1 >"$UH/interval" && echo start >"$UH/control"
show -e "$ev" taskset -c 0 "$RUN" -q "$SHARE/build/marks.vprg"
echo "# \$ vpmu-hist -m image.vpmu -l uhist/cpu0"
cat "$UH/cpu0" >"$T/cpu0.vuhs"
"$HIST" -m "$T/image.vpmu" -l "$T/cpu0.vuhs" | sed 's/^/# /'
"$HIST" -m "$T/image.vpmu" "$T/cpu0.vuhs" | grep -q '^interval 1, 18000 samples on cpu 0,'
ok $? "perf stat with gate_uhist: the histogram holds the regions' 18000 cycles"

echo start >"$UH/control"
stat -e "$ev" taskset -c 0 "$RUN" -q "$SHARE/build/marks.vprg"
check "vpmu/vpmu_uops,trig_mark=1,frozen=1,gate_uhist=1/=18000" \
      "vpmu/vpmu_cycles/=18000"
ok $? "perf stat: the gating group counts the regions"

# 2. The unit gated: uops and marks in the regions, read as perf events
#    of vpmu_hu beside the gating group.
printf 'par\nvpmu_uops 1000000000\nvpmu_trigger 1000000000\n' |
	"$HIST" --set-program=-
ev='{vpmu/vpmu_cycles,trig_mark=1,frozen=1,gate_hu=1/}'
show -e "$ev" -e vpmu_hu/hist1/,vpmu_hu/hist2/ taskset -c 0 "$RUN" -q "$SHARE/build/marks.vprg"
stat -e "$ev" -e vpmu_hu/hist1/,vpmu_hu/hist2/ taskset -c 0 "$RUN" -q "$SHARE/build/marks.vprg"
check "vpmu/vpmu_cycles,trig_mark=1,frozen=1,gate_hu=1/=18000" \
      "vpmu_hu/hist1/=18000" "vpmu_hu/hist2/=1000"
ok $? "perf stat with gate_hu: the unit counts the regions"

# 3. A gate with no trigger is refused (EINVAL: perf stat says so and
#    counts nothing).
stat -e vpmu/vpmu_uops,gate_uhist=1/ taskset -c 0 "$RUN" -q \
	"$SHARE/build/marks.vprg"
case $(counted "vpmu/vpmu_uops,gate_uhist=1/") in
''|*[!0-9]*) rc=0 ;;
*) rc=1; sed 's/^/# /' "$OUT" ;;
esac
ok $rc "perf stat refuses gate_uhist without a trigger"

tap_done
