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

# inject NAME WANT UNWANTED SPLATS ENV... - one injected run; WANT must
# appear in its FAIL lines and UNWANTED must not; every |-separated regex
# of SPLATS (may be empty) must match a kernel line the harness flagged.
inject() {
	local name=$1 want=$2 unwanted=$3 splats=$4 out rc=0 re
	shift 4

	out=$VM_OUT/selfcheck-$name.txt
	log "self-check: $name"
	(
		export VPMU_RUN_NAME="selfcheck-$name"
		# shellcheck disable=SC2163 # exports the NAME=value words given
		export "$@"
		check_kernel "$kernel"
	) >"$out" 2>&1 || rc=$?
	sed 's/^/  | /' "$out" | grep -E 'FAIL|passed,|WARNING|not ok' || true
	if [ "$rc" = 0 ]; then
		echo "self-check $name: the run passed; the harness missed it"
		return 1
	fi
	if ! grep -q "^selfcheck-$name: FAIL: $want" "$out"; then
		echo "self-check $name: failed, but not for \"$want\""
		return 1
	fi
	if grep -q "^selfcheck-$name: FAIL: $unwanted" "$out"; then
		echo "self-check $name: also failed for \"$unwanted\""
		return 1
	fi
	local IFS='|'
	for re in $splats; do
		if ! grep -qE "$re" "$VM_OUT/selfcheck-$name/splats"; then
			echo "self-check $name: no flagged kernel line matches \"$re\""
			return 1
		fi
	done
	echo "self-check $name: caught ($want)"
}

# The kernel and module first (apt and builds, once), then both runs at
# once, one guest per core; their reports are printed in order.
"$VM_DIR/run-kernel.sh" --prepare "$kernel" || true
ok=1
inject failing-test "test failures" "kernel splat" "" \
	VPMU_APPEND="$append" VPMU_EXTRA_SELFTESTS="$VM_DIR/selfcheck/fail_test.sh" \
	>"$VM_OUT/selfcheck-1.log" 2>&1 &
p1=$!
inject kernel-warning "kernel splat" "test failures" \
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
