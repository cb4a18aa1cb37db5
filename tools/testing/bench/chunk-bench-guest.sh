#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# chunk-bench-guest.sh - the guest half of chunk-bench.sh (busybox sh).
# Reloads vpmu.ko with nr_counters=16 and runs sortloop.vprg for its
# budget under each configuration, printing the longest run chunk (ns
# with interrupts off, and overflow stops) that the module measured:
#
#   none        vpmu-run alone
#   count x16   perf stat, 16 counting events
#   sample x16  perf record, 16 events on vpmu_uops at period 1 (every
#               counter wraps on every microword: the worst case)
#
# Each ROUNDS times; the maximum over the rounds.  Not a test.

# shellcheck source=bench-guest-lib.sh
. "$(dirname "$0")/bench-guest-lib.sh"
rounds=3

bench_init chunk-bench 2000000 "$B/vpmu-run" "$S/sortloop.vprg" "$KO"
command -v perf >/dev/null 2>&1 || fail "no perf"
rmmod vpmu 2>/dev/null
insmod "$KO" nr_counters=16 bench_chunk_time=1 ||
	fail "insmod nr_counters=16 bench_chunk_time=1 failed"
P=/sys/module/vpmu/parameters

count=vpmu/vpmu_uops/
sample=vpmu/vpmu_uops,period=1/
i=1
while [ $i -lt 16 ]; do
	count=$count,vpmu/vpmu_uops/
	sample=$sample,vpmu/vpmu_uops,period=1/
	i=$((i + 1))
done

run() {
	set -- "$1" "$B/vpmu-run" -q -b "$budget" "$S/sortloop.vprg"
	case "$1" in
	none)	shift; "$@" ;;
	count)	shift; perf stat -o /tmp/chunk.stat -e "$count" "$@" ;;
	sample)	shift; perf record -q -o /tmp/chunk.data -e "$sample" "$@" ;;
	esac
}

echo "VPMU-BENCH begin"
echo "kernel $(uname -r) (TCG), nr_counters=16, sortloop.vprg, budget $budget cycles, max of $rounds runs"
printf '%-8s %12s %8s\n' config "chunk ns" stops
for c in none count sample; do
	echo 0 >$P/bench_chunk_ns
	echo 0 >$P/bench_chunk_stops
	r=0
	while [ $r -lt $rounds ]; do
		run $c >/dev/null 2>&1 || fail "$c failed"
		r=$((r + 1))
	done
	printf '%-8s %12s %8s\n' $c "$(cat $P/bench_chunk_ns)" \
		"$(cat $P/bench_chunk_stops)"
done
echo "VPMU-BENCH end"
