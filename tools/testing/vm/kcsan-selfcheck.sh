#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kcsan-selfcheck.sh - prove the KCSAN flavour notices a data race in
# vpmu's code.  Boots kcsan-6.12 running vpmu_registered only, with
# selfcheck/race/ (a module whose init races two threads over a plain
# counter, in functions named vpmu_selfcheck_race_*) loaded beside
# vpmu.ko: the run must fail for "kernel splat" (and not for a test),
# and the flagged lines must include KCSAN's report of that race.  Also
# shows the KCSAN kernel works: a report the harness counts, where its
# stacks have a vpmu frame (kcsan_foreign in lib/logs.sh).  Prints "kcsan
# self-check: ok" and exits 0 only then.  About a minute; make check and
# make debug-check run it after the debug set (testing.rst, "Data races").
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ensure_host_deps
build_userspace
if selfcheck_inject kcsan-6.12 kcsan-race "kernel splat" "test failures" \
	'BUG: KCSAN: data-race in vpmu_selfcheck_race_' \
	VPMU_APPEND="${VPMU_APPEND:+$VPMU_APPEND }vpmu_test=vpmu_registered" \
	VPMU_EXTRA_MODULE_DIRS="$VM_DIR/selfcheck/race"; then
	echo "kcsan self-check: ok"
else
	echo "kcsan self-check: FAILED"
	exit 1
fi
