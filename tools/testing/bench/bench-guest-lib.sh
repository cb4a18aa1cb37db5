#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-guest-lib.sh - what the guest halves of the VM benchmarks share
# (busybox sh; sourced from /opt/vpmu/selftests, where tools/testing/bench
# /lib.sh installs it beside them; it is never selected as a test).
#
#   bench_init NAME BUDGET FILE...   sets $budget (vpmu_bench_budget= on
#                                    the command line, else BUDGET) and
#                                    $bench_part (vpmu_bench_part=, else
#                                    all); fails unless every FILE exists
#   fail MESSAGE                     "NAME: MESSAGE" on stderr, exit 1
#   rate OUT                         cycles/s of the "total" line that
#                                    vpmu-run -t or vpmu-sim -t wrote
#   run_secs OUT CMD...              CMD's own wall time: budget over
#                                    its rate; in $(...), exits non-zero
#                                    when CMD fails
#   median FILE KEY                  median of the "KEY VALUE" lines

# shellcheck disable=SC2034 # used by the scripts that source this
{
B=/opt/vpmu/bin
S=/opt/vpmu/share/build
KO=/opt/vpmu/vpmu.ko
PMU=/sys/bus/event_source/devices/vpmu
}
budget=0
bench_part=all

bench_init() {
	bench_name=$1
	budget=$2
	shift 2
	read -r cmdline </proc/cmdline
	for arg in $cmdline; do
		case "$arg" in
		vpmu_bench_budget=*) budget=${arg#vpmu_bench_budget=} ;;
		vpmu_bench_part=*) bench_part=${arg#vpmu_bench_part=} ;;
		esac
	done
	for f in "$@"; do
		[ -e "$f" ] || fail "missing $f"
	done
}

fail() { echo "$bench_name: $*" >&2; exit 1; }

# rate OUT - cycles/s from vpmu-run's or vpmu-sim's "total" line in OUT
rate() {
	sed -n 's/^total .*: \([0-9]*\) cycles\/s$/\1/p' "$1"
}

run_secs() {
	out=$1
	shift
	"$@" >"$out" 2>&1 || { cat "$out" >&2; fail "$* failed"; }
	r=$(rate "$out")
	[ -n "$r" ] || { cat "$out" >&2; fail "$*: no rate"; }
	awk -v b="$budget" -v r="$r" 'BEGIN { printf "%.4f", b / r }'
}

median() {
	sed -n "s/^$2 //p" "$1" | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
