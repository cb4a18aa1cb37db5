#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - the guest side of "make demo" (busybox sh): vpmu from a
# newcomer's seat, one short step for each thing it does.  Every step
# prints the commands it runs and their output, then a "check:" line that
# compares a number in that output with where it must come from (the
# program's source, vpmu-sim, perf's sample count), so a reader can
# follow it by eye; a check that fails makes "make demo" fail.

PMU=/sys/bus/event_source/devices/vpmu
SHARE=${VPMU_SHARE:-/usr/share/vpmu}
KO=${VPMU_KO:-/opt/vpmu/vpmu.ko}
ELF=$SHARE/build/rv32/fib.elf
T=/tmp/demo
failed=0

step() {
	echo
	echo "==== $*"
}

run() {
	echo
	echo "guest# $1"
	eval "$1" 2>&1
}

# check WHAT GOT WANT: one line, and a failure counted if they differ.
check() {
	if [ "$2" = "$3" ]; then
		echo "  check: $1: $2, as expected"
	else
		echo "  check FAILED: $1: $2, expected $3"
		failed=$((failed + 1))
	fi
}

# stat_count EVENT FILE: the count perf stat -x, wrote for EVENT.
stat_count() {
	awk -F, -v ev="$1" '$3 == ev { print $1 }' "$2"
}

# sim_count EVENT: the count vpmu-sim --stats gave for EVENT.
sim_count() {
	awk -v ev="$1" '$1 == "event" && $2 == ev { print $3 }' "$T/sim.txt"
}

# irqs: every vpmu-ctrN interrupt taken so far, on every CPU.
irqs() {
	awk '/vpmu-ctr/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++)
			      n += $i } END { print n + 0 }' /proc/interrupts
}

echo "VPMU-BEGIN demo, kernel $(uname -r)"
mkdir -p "$T"

step "1. vpmu.ko registers a PMU; perf lists its events"
run "insmod $KO nr_counters=4"
run "grep . $PMU/caps/nr_counters $PMU/caps/counter0_width $PMU/ucode/name"
run "perf list 2>/dev/null | grep vpmu/ | head -n 4; echo '  ...'"

step "2. perf stat on a program of the default microcode (vpmu32)"
# marks.s: 1000 passes of 35 microwords, 8 instructions; 18 of those
# microwords and 4 instructions lie between its two marks.  A freeze
# group started frozen and toggled by the marks counts only those.
ev=vpmu/uops/,vpmu/insns/
ev=$ev,vpmu/uops,trig_mark=1,frozen=1/
ev=$ev,vpmu/insns,trig_mark=1,frozen=1/
run "sed -n '/^start:/,/halt/p' $SHARE/progs/marks.s"
run "perf stat -e $ev vpmu-run -q $SHARE/build/marks.vprg"
perf stat -x, -e "$ev" vpmu-run -q "$SHARE/build/marks.vprg" \
	2>"$T/marks.csv" >/dev/null
# shellcheck disable=SC2046 # four counts, one word each
set -- $(awk -F, '{ print $1 }' "$T/marks.csv")
check "all microwords, instructions (35 * 1000 + 4, 8 * 1000 + 1)" \
	"$1 $2" "35004 8001"
check "between the marks (18 * 1000, 4 * 1000)" "$3 $4" "18000 4000"

step "3. Microcode written through sysfs: an RV32IM processor"
run "cat $SHARE/build/rv32im.vpmu >$PMU/ucode/image"
run "grep . $PMU/ucode/name $PMU/ucode/generation $PMU/ucode/status"
check "ucode/name" "$(cat $PMU/ucode/name)" rv32im

step "4. A C program for RV32 (riscv64-unknown-elf-gcc), counted by perf stat"
ev=vpmu/cycles/,vpmu/uops/,vpmu/insns/
run "perf stat -e $ev vpmu-run $ELF"
perf stat -x, -e "$ev" vpmu-run "$ELF" 2>"$T/fib.csv" >/dev/null
echo
echo "vpmu-sim runs the same engine as host C:"
run "vpmu-sim --stats -m $SHARE/build/rv32im.vpmu $ELF 2>&1 >/dev/null | grep -E '^event (cycles|uops|insns) '"
vpmu-sim --stats -m "$SHARE/build/rv32im.vpmu" "$ELF" >/dev/null 2>"$T/sim.txt"
for e in cycles uops insns; do
	check "$e: perf stat in the kernel, vpmu-sim on the host" \
		"$(stat_count "vpmu/$e/" "$T/fib.csv")" "$(sim_count $e)"
done

step "5. perf record samples it, one overflow interrupt a sample; perf report names its functions"
before=$(irqs)
run "perf record -q -e vpmu/cycles/ -c 5000 -o $T/fib.data vpmu-run $ELF >/dev/null"
after=$(irqs)
run "grep -E 'CPU|vpmu-ctr' /proc/interrupts"
run "perf report -i $T/fib.data --stdio --sort sym -q 2>/dev/null | head -n 5"
samples=$(perf report -i "$T/fib.data" --stdio -n --sort sym -q 2>/dev/null |
	  awk '{ n += $2 } END { print n + 0 }')
check "vpmu-ctr interrupts during the run, samples perf wrote" \
	"$((after - before))" "$samples"
check "samples at one a 5000 cycles" "$samples" \
	"$(($(sim_count cycles) / 5000))"

step "6. The micro-PC histogram: where the microcode spent its cycles"
run "echo 1 >$PMU/uhist/interval && echo start >$PMU/uhist/control"
run "vpmu-run $ELF >/dev/null; echo pause >$PMU/uhist/control"
run "cat $PMU/uhist/sum >$T/fib.vuhs && vpmu-hist -m $SHARE/build/rv32im.vpmu --top 5 $T/fib.vuhs"
check "samples in the histogram (every cycle of the run)" \
	"$(vpmu-hist -m "$SHARE/build/rv32im.vpmu" "$T/fib.vuhs" |
	   sed -n 's/^interval 1, \([0-9]*\) samples.*/\1/p')" \
	"$(sim_count cycles)"
echo stop >$PMU/uhist/control

echo
if [ "$failed" = 0 ]; then
	echo "VPMU-DEMO done"
else
	echo "VPMU-DEMO failed: $failed checks"
fi
