#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kcsan-selfcheck.sh - prove the KCSAN flavour notices a data race in
# vpmu's code.  Boots kcsan-6.12 running vpmu_registered only, with
# selfcheck/race/ (a module whose init races two threads over a plain
# counter, in functions named vpmu_selfcheck_race_*) loaded beside
# vpmu.ko: the run must fail for "kernel splat", and the flagged lines
# must include KCSAN's report of that race.  Also shows the KCSAN kernel
# works: a report the harness counts, where its stacks have a vpmu frame
# (kcsan_foreign in lib.sh).  Prints "kcsan self-check: ok" and exits 0
# only then.  About five minutes; not part of make check (testing.rst,
# "Data races").
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ensure_host_deps
build_userspace
out=$VM_OUT/kcsan-selfcheck.txt
rc=0
(
	export VPMU_RUN_NAME=kcsan-selfcheck
	export VPMU_EXTRA_MODULE_DIRS="$VM_DIR/selfcheck/race"
	check_kernel kcsan-6.12 vpmu_test=vpmu_registered
) >"$out" 2>&1 || rc=$?
grep -E 'FAIL|passed,|KCSAN' "$out" | sed 's/^/  | /' || true
bad=
if [ "$rc" = 0 ]; then
	echo "kcsan self-check: the run passed; the harness missed the race"
	bad=1
elif ! grep -q '^kcsan-selfcheck: FAIL: kernel splat' "$out"; then
	echo "kcsan self-check: failed, but not for \"kernel splat\""
	bad=1
elif ! grep -qE 'BUG: KCSAN: data-race in vpmu_selfcheck_race_' \
		"$VM_OUT/kcsan-selfcheck/splats"; then
	echo "kcsan self-check: no flagged KCSAN report of vpmu_selfcheck_race"
	bad=1
fi
if [ -n "$bad" ]; then
	echo "kcsan self-check: FAILED (log: $out)"
	exit 1
fi
echo "kcsan self-check: ok"
