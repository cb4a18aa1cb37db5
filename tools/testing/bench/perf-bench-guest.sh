#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perf-bench-guest.sh - the guest half of make perf-bench (busybox sh;
# installed as a "selftest" through the harness's VPMU_EXTRA_SELFTESTS and
# selected with vpmu_test=perf-bench-guest).  Reloads vpmu.ko with
# nr_counters=8, then runs sortloop.vprg for its budget under:
#
#   none        vpmu-run alone
#   count x8    perf stat, 8 counting events (one per counter)
#   sample P    perf record -c P on vpmu_cycles, P = 1000, 10000, 100000
#
# each ROUNDS times, the configurations alternated, and prints the run
# time vpmu-run measures itself (so perf's own start-up is not counted),
# the median over the rounds (a TCG guest on a shared host has outliers
# of 2-3x), and its ratio to the median of "none", between VPMU-BENCH
# begin and VPMU-BENCH end.  Not a test: exit 0 unless a tool fails.

# shellcheck source=bench-guest-lib.sh
. "$(dirname "$0")/bench-guest-lib.sh"
rounds=7
data=/tmp/perf-bench.data

bench_init perf-bench 20000000 "$B/vpmu-run" "$S/sortloop.vprg" "$KO"
command -v perf >/dev/null 2>&1 || fail "no perf"
rmmod vpmu 2>/dev/null
insmod "$KO" nr_counters=8 || fail "insmod nr_counters=8 failed"
[ -c /dev/vpmu ] || fail "no /dev/vpmu"

events=vpmu/vpmu_cycles/,vpmu/vpmu_uops/,vpmu/vpmu_insns/,vpmu/vpmu_ubr_taken/
events=$events,vpmu/vpmu_dispatch/,vpmu/vpmu_dc_hit/,vpmu/vpmu_dc_miss/,vpmu/vpmu_tag1/

# secs CONFIG - vpmu-run's own wall time (budget / its cycles/s) under CONFIG
secs() {
	set -- "$1" "$B/vpmu-run" -t -b "$budget" "$S/sortloop.vprg"
	case "$1" in
	none)	shift; run_secs /tmp/perf-bench.out "$@" ;;
	count)	shift; run_secs /tmp/perf-bench.out \
			perf stat -x, -o /tmp/perf-bench.stat -e "$events" "$@" ;;
	*)	p=$1; shift; run_secs /tmp/perf-bench.out \
			perf record -q -o "$data" -e vpmu/vpmu_cycles/ -c "$p" "$@" ;;
	esac
}

configs="none count 1000 10000 100000"
echo "VPMU-BENCH begin"
echo "kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs (TCG), nr_counters=8"
echo "workload: sortloop.vprg, budget $budget cycles per run, $rounds rounds alternated"
round=0
: >/tmp/perf-bench.times
while [ $round -lt $rounds ]; do
	for c in $configs; do
		t=$(secs "$c") || exit 1
		echo "$c $t" >>/tmp/perf-bench.times
	done
	round=$((round + 1))
done
nsamples=$(perf script -i "$data" -F period 2>/dev/null | wc -l)
printf '%-14s %10s %8s\n' config "median (s)" ratio
base=$(median /tmp/perf-bench.times none)
for c in $configs; do
	case $c in
	none)	name="no events" ;;
	count)	name="8 counting" ;;
	*)	name="sample $c" ;;
	esac
	m=$(median /tmp/perf-bench.times "$c")
	awk -v n="$name" -v m="$m" -v b="$base" \
		'BEGIN { printf "%-14s %10.3f %8.3f\n", n, m, m / b }'
done
echo "samples in the last period-100000 run: $nsamples"
echo "targets: 8 counting <= 1.05, sample 10000 <= 1.30"
rm -f "$data" "$data.old" /tmp/perf-bench.out /tmp/perf-bench.stat \
	/tmp/perf-bench.times
if ! { rmmod vpmu && insmod "$KO"; }; then
	fail "reloading vpmu.ko with defaults failed"
fi
echo "VPMU-BENCH end"
