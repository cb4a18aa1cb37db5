#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# run-bench.sh - host instructions per executed microword, by callgrind.
#
# For each set-up (uncounted, counted, counted-int) run the engine for N and 2N cycles
# under callgrind, counting only inside vpmu_engine_run(), and divide the
# difference in instructions by the difference in microwords executed, so
# that set-up and the final fold cancel.  Callgrind is deterministic: the
# figures are exact for this build, not timings.

set -e
declare -A r c t u	# instructions/microword by set-up: whole, chunked, ...
here=$(cd "$(dirname "$0")" && pwd)
B=$here/build
N=${BENCH_CYCLES:-2000000}
src=$1	# "vpmu-as" or "builtin"

if [ "$src" = vpmu-as ]; then
	args="$B/default.vpmu $B/sortloop.vprg"
	what="default microcode + share/progs/sortloop.s (sort.s run forever), assembled by tools/vpmu/vpmu-as"
else
	args="--builtin"
	what="C-built 7-microword loop (tools/vpmu not available)"
fi

measure() {	# mode cycles -> "Ir uops"
	out=$B/callgrind.out.$1.$2
	uops=$(valgrind --tool=callgrind --callgrind-out-file="$out" \
		--toggle-collect=vpmu_engine_run \
		--toggle-collect=vpmu_engine_tc_work "$B/bench" $args "$2" "$1" \
		2>/dev/null | sed -n 's/^uops //p')
	ir=$(sed -n 's/^summary: *//p' "$out")
	echo "$ir $uops"
}

per_uop() {	# mode -> instructions per microword between N and 2N cycles
	local ir1 u1 ir2 u2

	read -r ir1 u1 < <(measure "$1" "$N")
	read -r ir2 u2 < <(measure "$1" $((2 * N)))
	awk -v a="$ir1" -v b="$ir2" -v c="$u1" -v d="$u2" \
		'BEGIN { printf "%.2f", (b - a) / (d - c) }'
}

echo "workload: $what"
echo "cycles per run: $N and $((2 * N)); counted = 8 x 16-bit counters (uops cycles insns tag1..5)"
echo "counted-int = the same with VPMU_CTR_INT, resumed after every OVERFLOW stop (as the perf"
echo "driver sets a sampling event's counter: perf record -e ... -c 65536; counting, it sets none)"
printf '%-11s %12s %14s %12s %14s %10s\n' set-up uops-N Ir-N uops-2N Ir-2N Ir/uop
for mode in uncounted counted counted-int; do
	read -r ir1 u1 < <(measure $mode "$N")
	read -r ir2 u2 < <(measure $mode $((2 * N)))
	r[$mode]=$(awk -v a="$ir1" -v b="$ir2" -v c="$u1" -v d="$u2" \
		'BEGIN { printf "%.1f", (b - a) / (d - c) }')
	printf '%-11s %12s %14s %12s %14s %10s\n' $mode "$u1" "$ir1" "$u2" "$ir2" "${r[$mode]}"
done
echo "counted-int: ${r[counted-int]} instructions/microword"
echo "uncounted: ${r[uncounted]} instructions/microword"
echo "counted: ${r[counted]} instructions/microword"
awk -v a="${r[uncounted]}" -v b="${r[counted]}" \
	'BEGIN { printf "counting adds %.1f%%\n", (b / a - 1) * 100 }'
# The same with the translation cache off (the microword interpreter
# alone, as vpmu.ko's tc=0 runs it).
r[off]=$(VPMU_BENCH_TC=off per_uop uncounted)
echo "uncounted, translation cache off: ${r[off]} instructions/microword"

# The same in the driver's run chunks (vpmu_machine_run.c: 5000 cycles
# each): what counting costs a /dev/vpmu run.  Runs leave their counts in
# the engine's microwords (folded when read, outside what is measured);
# counted-int's too, but for the runs near a counter's wrap
# (architecture.rst, "How the engine is fast and still exact").  As the
# driver's, chunks translate between them (vpmu_engine_tc_work(), counted)
# and may end early where a translated block begins (they yield).
export VPMU_BENCH_CHUNK=5000
echo
echo "in 5000-cycle chunks, as /dev/vpmu runs them:"
for mode in uncounted counted counted-int; do
	read -r ir1 u1 < <(measure $mode "$N")
	read -r ir2 u2 < <(measure $mode $((2 * N)))
	c[$mode]=$(awk -v a="$ir1" -v b="$ir2" -v c="$u1" -v d="$u2" \
		'BEGIN { printf "%.1f", (b - a) / (d - c) }')
done
echo "chunked uncounted: ${c[uncounted]} instructions/microword"
echo "chunked counted: ${c[counted]} instructions/microword"
echo "chunked counted-int: ${c[counted-int]} instructions/microword"
awk -v a="${c[uncounted]}" -v b="${c[counted]}" -v i="${c[counted-int]}" \
	'BEGIN { printf "chunked counting adds %.1f%%, with interrupts %.1f%%\n",
		(b / a - 1) * 100, (i / a - 1) * 100 }'

# The longest chunk the driver runs with interrupts off: the worst case
# is 16 counters sampling at period 1 (every counter wraps on every
# microword), which vpmu_machine_run.c bounds to 16 stops a chunk; the
# host instructions of such a chunk are those of the whole run divided by
# its chunks (the run's 5000 cycles take hundreds of them).
echo
echo "the longest chunk with interrupts off: sortloop, 16 counters sampling at period 1,"
echo "chunks bounded to 16 stops (instructions in vpmu_engine_run() per chunk)"
for tc in on off; do
	out=$B/callgrind.out.sample16.$tc
	chunks=$(VPMU_BENCH_TC=$tc VPMU_BENCH_STOPS=16 valgrind --tool=callgrind \
		--callgrind-out-file="$out" --toggle-collect=vpmu_engine_run \
		--toggle-collect=vpmu_engine_tc_work \
		"$B/bench" $args 5000 sample16 2>/dev/null |
		sed -n 's/^chunks \([0-9]*\) .*/\1/p')
	ir=$(sed -n 's/^summary: *//p' "$out")
	echo "cache $tc: $((ir / chunks)) instructions a chunk ($chunks chunks, $ir in all)"
done

# Triggers: share/progs/region.s (100 microwords from a mark to the next,
# then 12 of loop control, repeated) in the driver's chunks, with one
# counter on UOPS counting everything ("one") and counting only the
# regions ("triggered", perf's trig_mark=1,frozen=1).
[ "$src" = vpmu-as ] || exit 0
args="$B/default.vpmu $B/region.vprg"
echo
echo "triggers: share/progs/region.s, in 5000-cycle chunks; one = 1 counter on uops,"
echo "triggered = the same counter frozen outside [mark, mark) (trig_mark=1,frozen=1)"
# The count first: region.s takes 9 cycles to set up, then 112 a
# repetition, of which the first 100 are the region.
got=$("$B/bench" $args "$N" triggered | sed -n 's/^counted //p')
want=$(( (N - 9) / 112 * 100 + ((N - 9) % 112 < 100 ? (N - 9) % 112 : 100) ))
if [ "$got" != "$want" ]; then
	echo "triggered: counted $got microwords in $N cycles, not $want" >&2
	exit 1
fi
for mode in uncounted one triggered; do
	t[$mode]=$(per_uop $mode)
done
echo "uncounted: ${t[uncounted]} instructions/microword"
echo "one counter: ${t[one]} instructions/microword"
echo "triggered: ${t[triggered]} instructions/microword"
awk -v a="${t[uncounted]}" -v b="${t[one]}" -v c="${t[triggered]}" 'BEGIN {
	printf "triggered vs uncounted %+.1f%%, vs one counter %+.1f%%\n",
		(c / a - 1) * 100, (c / b - 1) * 100 }'

# The micro-PC histogram sampling every K cycles, on sortloop in the
# driver's chunks: K = 1 is computed from the fold; every other K ends a
# piece of the run at each sample (no fold: the counts stay deferred).
args="$B/default.vpmu $B/sortloop.vprg"
echo
echo "micro-PC histogram: sortloop.vprg, in 5000-cycle chunks, no counters"
for K in 0 1 32 1024; do
	u[$K]=$(VPMU_BENCH_UHIST=$K per_uop uncounted)
done
echo "uhist off: ${u[0]} instructions/microword"
for K in 1 32 1024; do
	awk -v k="$K" -v a="${u[0]}" -v b="${u[$K]}" 'BEGIN {
		printf "uhist K=%s: %s instructions/microword (x%.2f)\n", k, b, b / a }'
done

# RV32IM: the C samples on rv32im.vpmu against qemu-riscv32 (rv32-bench.sh).
"$here/rv32-bench.sh"
