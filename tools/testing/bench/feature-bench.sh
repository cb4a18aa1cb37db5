#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# feature-bench.sh (make feature-bench) - boot a VM and measure, in one
# run, what freeze/trigger counting and the micro-PC histogram cost:
#
#   - a region of 100 microwords (share/progs/region.s) repeated 100,000
#     times, uncounted, counted whole, and counted only inside the
#     region by a group that triggers on its marks; against 100,000 runs
#     of the region alone, each bracketed by PERF_EVENT_IOC_ENABLE and
#     DISABLE from userspace, and the same runs without the ioctls;
#   - sortloop with the histogram off and at interval K = 1, 32, 1024.
#
# Prints the table feature-bench-guest.sh writes (ratios in one run; no
# pass/fail on times), and fails if a count is wrong.  Not a test.
#
#   VPMU_BENCH_KERNEL   6.1 or 6.12 (default 6.12)
#   VPMU_BENCH_BUDGET   cycles of each histogram run (default 20000000)
#
# The target: counting with triggers costs nothing measurable over
# uncounted execution (b/a ~ 1.00).  The VM set-up is lib.sh's; the
# guest-side program trigger-bench.c is built here, static.
set -euo pipefail

# shellcheck source=lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"

bench_build
log "building trigger-bench"
make -s -C "$USER_SRC/tools/testing/bench" vm-progs >/dev/null ||
	die "building trigger-bench failed"
bench_boot feature-bench 20000000 "$USER_SRC/tools/testing/bench/build/trigger-bench"
