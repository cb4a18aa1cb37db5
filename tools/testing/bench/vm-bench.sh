#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-bench.sh (make vm-bench) - boot a VM and measure, in one run, the
# engine in the kernel (/dev/vpmu) against the host build of the same
# engine core run inside the same guest (vpmu-sim), and the time to load
# a maximum-size microcode image.  Prints the table vm-bench-guest.sh
# writes.  Not a test.
#
#   VPMU_BENCH_KERNEL   6.1 or 6.12 (default 6.12)
#   VPMU_BENCH_BUDGET   cycles per run (default 50000000), passed on the
#                       guest's command line
#
# Uses the VM harness (tools/testing/vm/lib.sh) unchanged: the guest
# script travels as an extra selftest and is the only one selected.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../vm/lib.sh
. "$here/../vm/lib.sh"

ensure_host_deps
build_userspace
[ -z "${TOOLS_BUILD_FAILED:-}" ] || die "make tools failed"
export VPMU_RUN_NAME=vm-bench
export VPMU_EXTRA_SELFTESTS=$here/vm-bench-guest.sh
run_kernel "${VPMU_BENCH_KERNEL:-6.12}" test vpmu_test=vm-bench-guest \
	"vpmu_bench_budget=${VPMU_BENCH_BUDGET:-50000000}"
if ! grep -q '^VPMU-BENCH end' "$OUT/serial.log"; then
	grep -E '^vm-bench:' "$OUT/serial.log" >&2 || true
	die "the benchmark did not finish (qemu rc $QEMU_RC; log: $OUT/serial.log)"
fi
echo
sed -n '/^VPMU-BENCH begin/,/^VPMU-BENCH end/{/^VPMU-BENCH/d;p}' "$OUT/serial.log"
