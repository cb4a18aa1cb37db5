#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh (make demo) - boot the newest bookworm 6.12 kernel (VPMU_DEMO_KERNEL
# to change) and walk through vpmu as a newcomer would (guest/demo.sh):
# perf stat, a freeze trigger, microcode written through sysfs, an RV32 C
# program counted and sampled, the micro-PC histogram.  Fails if any of
# the guest's checks of the numbers shown fails.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ensure_host_deps
build_userspace
export VPMU_RUN_NAME=demo
export VPMU_SLUB_DEBUG=${VPMU_SLUB_DEBUG-}
run_kernel "${VPMU_DEMO_KERNEL:-6.12}" demo
# make check's demo tier reads the result line.
ok=$(grep -c '^  check: ' "$OUT/serial.log" || true)
bad=$(grep -c '^  check FAILED: ' "$OUT/serial.log" || true)
grep -q '^VPMU-DEMO done' "$OUT/serial.log" || bad=$((bad + 1))
echo "demo: $ok passed, $bad failed"
grep -q '^VPMU-DEMO \(done\|failed\)' "$OUT/serial.log" ||
	die "demo did not finish (qemu rc $QEMU_RC; log: $OUT/serial.log)"
[ "$bad" = 0 ] || die "demo: a check failed (log: $OUT/serial.log)"
