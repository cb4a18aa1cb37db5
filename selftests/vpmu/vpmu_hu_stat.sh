#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vpmu_hu_stat.sh - the histogram unit through the perf tool (busybox sh):
# perf list shows the bucket aliases (PMU vpmu_hu), and perf stat -x,
# prints the buckets of a program set by vpmu-hist --set-program
# (VPMU_IOC_HU_PROGRAM) exactly: by hand (sum.s: 179 cycles, 179
# microwords, 32 instructions), equal to vpmu-hist --get-buckets=0
# (VPMU_IOC_HU_READ), in a group of buckets beside a counter event (never
# in one group with it), per task and CPU-wide; and a program in free form
# reads back in canonical form (vpmu-hist --get-program) and counts the
# same, in perf stat and in the sum of the CPUs' buckets (--get-buckets),
# bad text refused.  TAP output; skips without perf, hist/, vpmu-run,
# vpmu-hist or the assembled samples.

PMU=/sys/bus/event_source/devices/vpmu
HIST=$PMU/hist
SHARE=${VPMU_SHARE:-/usr/share/vpmu}
RUN=$(command -v vpmu-run || echo vpmu-run)
VHIST=$(command -v vpmu-hist || echo vpmu-hist)
OUT=/tmp/vpmu_hu_stat.$$
# The TAP helpers, beside this script (installed as a TEST_FILES).
# shellcheck source=vpmu_tap.sh
. "$(dirname "$0")/vpmu_tap.sh"

command -v perf >/dev/null 2>&1 || skip_all "no perf"
[ -w "$HIST/control" ] || skip_all "no $HIST/control"
[ -x "$RUN" ] || skip_all "no vpmu-run"
[ -x "$VHIST" ] || skip_all "no vpmu-hist"
[ -f "$SHARE/build/sum.vprg" ] || skip_all "no $SHARE/build/sum.vprg"
command -v taskset >/dev/null 2>&1 || skip_all "no taskset"

tap_plan 9

# Set the program to the text $1 (vpmu-hist compiles it).
prog() {
	printf '%s' "$1" | "$VHIST" --set-program=-
}

# bucket B of CPU C (vpmu-hist --get-buckets=C)
bucket() {
	"$VHIST" --get-buckets="$2" | sed -n "s/^C$1 \([0-9]*\)\$/\1/p"
}

# 1. perf list knows the bucket aliases.
perf_lists vpmu_hu hist1 hist2 hist9 hist16
ok $? "perf list shows vpmu_hu/hist1..16"

# 2. Parallel, one period for the whole run: the run's totals.
prog "par
vpmu_cycles 1000000
vpmu_uops 1000000
vpmu_insns 1000000
"
stat -e vpmu_hu/hist1/,vpmu_hu/hist2/,vpmu_hu/hist3/ taskset -c 0 "$RUN" "$SHARE/build/sum.vprg"
check "vpmu_hu/hist1/=179" "vpmu_hu/hist2/=179" "vpmu_hu/hist3/=32"
ok $? "perf stat: par buckets of sum = cycles, uops, insns"

# 3. Sequential, four windows of 10 cycles: 179 = 4 x 40 + 19; as CPU 0's
#    buckets read by vpmu-hist --get-buckets=0.
prog "seq; vpmu_cycles 10; vpmu_cycles 10; vpmu_cycles 10; vpmu_cycles 10"
stat -e vpmu_hu/hist1/,vpmu_hu/hist2/,vpmu_hu/hist3/,vpmu_hu/hist4/ \
	taskset -c 0 "$RUN" "$SHARE/build/sum.vprg"
check "vpmu_hu/hist1/=50" "vpmu_hu/hist2/=49" "vpmu_hu/hist3/=40" \
      "vpmu_hu/hist4/=40"
r=$?
for b in 1 2 3 4; do
	c=$(bucket $b 0)
	check "vpmu_hu/hist$b/=$c" || r=1
done
ok $r "perf stat: seq buckets of sum, equal to vpmu-hist --get-buckets=0"

# 4. A group of buckets beside a counter event; the two in one group are
#    refused (vpmu and vpmu_hu events never share a group).
prog "par; vpmu_uops 1000000; vpmu_insns 1000000"
stat -e vpmu/vpmu_cycles/ -e '{vpmu_hu/hist1/,vpmu_hu/hist2/}' \
	taskset -c 0 "$RUN" -n 2 "$SHARE/build/sum.vprg"
check "vpmu/vpmu_cycles/=358" "vpmu_hu/hist1/=358" "vpmu_hu/hist2/=64"
ok $? "perf stat: cycles and a {hist1, hist2} group, two runs of sum"
rm -f "$OUT"
stat -e '{vpmu/vpmu_cycles/,vpmu_hu/hist1/}' taskset -c 0 "$RUN" "$SHARE/build/sum.vprg"
got=$(counted vpmu_hu/hist1/)
case "$got" in
*[0-9]*) echo "# got count '$got'"; ok 1 "perf stat: {cycles, hist1} refused" ;;
*) ok 0 "perf stat: {cycles, hist1} refused" ;;
esac

# 6. CPU-wide on CPU 0.
prog "par; vpmu_insns 1000000"
stat -a -C 0 -e vpmu_hu/hist1/ -- taskset -c 0 "$RUN" -n 3 "$SHARE/build/sum.vprg"
check "vpmu_hu/hist1/=96"
ok $? "perf stat -a -C 0: three runs of sum"

# 7. No bucket 2 in a one-entry program, none at all with the unit off.
prog "par; vpmu_insns 1000000"
stat -e vpmu_hu/hist2/ "$RUN" "$SHARE/build/sum.vprg"
got2=$(counted vpmu_hu/hist2/)
prog off
stat -e vpmu_hu/hist1/ "$RUN" "$SHARE/build/sum.vprg"
got1=$(counted vpmu_hu/hist1/)
case "$got2$got1" in
*[0-9]*)
	echo "# got counts '$got2' '$got1'"
	ok 1 "perf stat: buckets beyond the program refused" ;;
*)	ok 0 "perf stat: buckets beyond the program refused" ;;
esac

# 8. The text of test 2 in free form (a comment, ';'): vpmu-hist
#    --get-program prints it back in canonical form, and it counts the
#    same, in perf stat and in the sum of the CPUs' buckets (only CPU 0
#    ran anything since it was set).
prog off
printf 'par # as test 2\nvpmu_cycles 1000000; vpmu_uops 1000000\nvpmu_insns 1000000\n' |
	"$VHIST" --set-program=-
r=$?
prog_want=$(printf 'par\nvpmu_cycles 1000000\nvpmu_uops 1000000\nvpmu_insns 1000000')
prog_got=$("$VHIST" --get-program)
[ "$prog_got" = "$prog_want" ] ||
	{ echo "$prog_got" | sed 's/^/# program: /'; r=1; }
stat -e vpmu_hu/hist1/,vpmu_hu/hist2/,vpmu_hu/hist3/ taskset -c 0 "$RUN" "$SHARE/build/sum.vprg"
check "vpmu_hu/hist1/=179" "vpmu_hu/hist2/=179" "vpmu_hu/hist3/=32" || r=1
sum_got=$("$VHIST" --get-buckets)
[ "$sum_got" = "$(printf 'C1 179\nC2 179\nC3 32')" ] ||
	{ echo "$sum_got" | sed 's/^/# --get-buckets: /'; r=1; }
ok $r "vpmu-hist --set-program: --get-program reads it back, the counts of test 2"

# 9. Bad text (an unknown predicate; a seq monitoring period over 2^32
#    cycles) is refused by vpmu-hist, which checks as the module does
#    (vpmu_hu.c's structs: vpmu_hu ioctl_refused); the program stays.
r=0
echo 'par; vpmu_bogus 5' | "$VHIST" --set-program=- 2>/dev/null &&
	{ echo "# vpmu_bogus taken"; r=1; }
printf 'seq\nvpmu_uops 4294967295\nvpmu_uops 1\n' |
	"$VHIST" --set-program=- 2>/dev/null &&
	{ echo "# 2^32 cycles taken"; r=1; }
prog_got=$("$VHIST" --get-program)
[ "$prog_got" = "$prog_want" ] ||
	{ echo "$prog_got" | sed 's/^/# program: /'; r=1; }
ok $r "vpmu-hist --set-program: bad programs refused, the program kept"

rm -f "$OUT"
tap_done
