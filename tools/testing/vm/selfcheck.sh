#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selfcheck.sh - prove the harness notices failures.  Boots the stock
# kernel VPMU_SELFCHECK_KERNEL (default 6.1) twice, each running a few
# selftests (VPMU_SELFCHECK_TESTS, a vpmu_test= list; default
# vpmu_registered and vpmu_run: the vm tier runs them all):
#   1. with selfcheck/fail_test.sh added: must fail for "test failures";
#   2. with selfcheck/warn/ (a module that WARNs at load) and
#      selfcheck/slub/ (a module that writes to a freed slab object) loaded:
#      must fail for "kernel splat" while no test fails, and the matched
#      kernel lines must include both the WARNING and SLUB's "BUG <cache>
#      (...): Poison overwritten" (which also proves slub_debug is on).
# The two runs boot at the same time.  Prints "harness self-check: ok" and
# exits 0 only if both were caught for the right reason.  The runs' own pass/fail lines are not test results.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

kernel=${VPMU_SELFCHECK_KERNEL:-6.1}
tests="vpmu_test=${VPMU_SELFCHECK_TESTS:-vpmu_registered,vpmu_run},fail_test"
append="${VPMU_APPEND:+$VPMU_APPEND }$tests"
ensure_host_deps
build_userspace

# The kernel and module first (apt and builds, once), then both runs at
# once, one guest per core; their reports are printed in order.
"$VM_DIR/run-kernel.sh" --prepare "$kernel" || true
ok=1
selfcheck_inject "$kernel" failing-test "test failures" "kernel splat" "" \
	VPMU_APPEND="$append" VPMU_EXTRA_SELFTESTS="$VM_DIR/selfcheck/fail_test.sh" \
	>"$VM_OUT/selfcheck-1.log" 2>&1 &
p1=$!
selfcheck_inject "$kernel" kernel-warning "kernel splat" "test failures" \
	'WARNING:.*vpmu_selfcheck_warn|BUG vpmu_selfcheck_slub \(.*\): Poison overwritten' \
	VPMU_APPEND="$append" \
	VPMU_EXTRA_MODULE_DIRS="$VM_DIR/selfcheck/warn $VM_DIR/selfcheck/slub" \
	>"$VM_OUT/selfcheck-2.log" 2>&1 &
p2=$!
wait "$p1" || ok=
wait "$p2" || ok=
cat "$VM_OUT/selfcheck-1.log" "$VM_OUT/selfcheck-2.log"
if [ -n "$ok" ]; then
	echo "harness self-check: ok"
else
	echo "harness self-check: FAILED"
	exit 1
fi
