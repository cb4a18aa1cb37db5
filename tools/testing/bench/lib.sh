# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib.sh - the host half the VM benchmarks share (sourced by vm-bench.sh,
# perf-bench.sh and feature-bench.sh).  Each boots one guest through the
# VM harness (tools/testing/vm/lib.sh), unchanged: the benchmark's guest
# script, NAME-guest.sh, travels as an extra selftest with
# bench-guest-lib.sh (what the guest scripts share) and is the only one
# selected; it prints its table between "VPMU-BENCH begin" and
# "VPMU-BENCH end", which is all the host prints.
#
#   VPMU_BENCH_KERNEL   6.1 or 6.12 (default 6.12)
#   VPMU_BENCH_BUDGET   cycles per run (each benchmark has its default),
#                       passed on the guest's command line
#   VPMU_VM_TIMEOUT     the harness's guest timeout, s (here default 600)
#
# bench_boot adds $BENCH_ARGS (words) to the guest's command line.

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=../vm/lib.sh
. "$BENCH_DIR/../vm/lib.sh"

# bench_build - host packages, then the selftests and tools in the
# harness's host tree copy ($USER_SRC), where a benchmark may build more.
bench_build() {
	ensure_host_deps
	build_userspace
	[ -z "${TOOLS_BUILD_FAILED:-}" ] || die "make tools failed"
}

# bench_boot NAME BUDGET [FILE...] - boot the guest with NAME-guest.sh
# (and FILE..., installed beside it) and print its table; BUDGET is the
# default of $VPMU_BENCH_BUDGET.  Dies when the table is not complete.
bench_boot() {
	local name=$1 budget=$2
	shift 2

	export VPMU_RUN_NAME=$name
	export VPMU_VM_TIMEOUT=${VPMU_VM_TIMEOUT:-600}
	# Timings, not checks: no slub_debug unless asked for.
	export VPMU_SLUB_DEBUG=${VPMU_SLUB_DEBUG-}
	VPMU_EXTRA_SELFTESTS="$BENCH_DIR/$name-guest.sh"
	VPMU_EXTRA_SELFTESTS+=" $BENCH_DIR/bench-guest-lib.sh $*"
	export VPMU_EXTRA_SELFTESTS
	# shellcheck disable=SC2086 # BENCH_ARGS is a list of words
	run_kernel "${VPMU_BENCH_KERNEL:-6.12}" test "vpmu_test=$name-guest" \
		"vpmu_bench_budget=${VPMU_BENCH_BUDGET:-$budget}" \
		${BENCH_ARGS:-}
	if ! grep -q '^VPMU-BENCH end' "$OUT/serial.log"; then
		grep -E "^$name:" "$OUT/serial.log" >&2 || true
		die "the benchmark did not finish (qemu rc $QEMU_RC; log: $OUT/serial.log)"
	fi
	echo
	sed -n '/^VPMU-BENCH begin/,/^VPMU-BENCH end/{/^VPMU-BENCH/d;p}' \
		"$OUT/serial.log"
}
