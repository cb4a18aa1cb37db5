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
#   VPMU_BENCH_BUDGET   cycles per run (default 50000000)
#
# The VM set-up is lib.sh's.
set -euo pipefail

# shellcheck source=lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"

bench_build
bench_boot vm-bench 50000000
