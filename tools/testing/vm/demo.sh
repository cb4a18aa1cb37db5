#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh (make demo) - boot the newest bookworm 6.12 kernel (VPMU_DEMO_KERNEL
# to change) with vpmu.ko loaded and show through sysfs and perf that the
# PMU is there; runs tools/vpmu/share/demo.sh in the guest when it exists.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ensure_host_deps
build_userspace
export VPMU_RUN_NAME=demo
export VPMU_SLUB_DEBUG=${VPMU_SLUB_DEBUG-}
run_kernel "${VPMU_DEMO_KERNEL:-6.12}" demo
grep -q '^VPMU-DEMO done' "$OUT/serial.log" ||
	die "demo did not finish (qemu rc $QEMU_RC; log: $OUT/serial.log)"
