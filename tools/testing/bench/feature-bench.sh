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
#   VPMU_BENCH_PADS     other code placements, bytes (default "16 32 48")
#
# Under TCG the same instructions cost more or less by where they sit
# (moving the trigger handlers elsewhere in the loop moved b/a from 1.05
# to 1.02), so the trigger cases also run with the module built again
# with its loop's code moved by each of VPMU_BENCH_PADS bytes (a guest
# each, -DVPMU_BENCH_PAD), and the last table has every placement's
# ratios and their mean.
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
tb=$USER_SRC/tools/testing/bench/build/trigger-bench
table=$(bench_boot feature-bench 20000000 "$tb")
printf '%s\n' "$table"
layouts="0 $(printf '%s\n' "$table" | sed -n 's/^layout //p' | tail -n 1)"
for pad in ${VPMU_BENCH_PADS-16 32 48}; do
	log "the trigger cases with the loop's code moved by $pad bytes"
	table=$(export KCFLAGS="-DVPMU_BENCH_PAD=$pad"
		BENCH_ARGS=vpmu_bench_part=triggers
		bench_boot feature-bench 20000000 "$tb")
	layouts+="
$pad $(printf '%s\n' "$table" | sed -n 's/^layout //p' | tail -n 1)"
done
echo
echo "code placements (bytes moved): b/a median, paired median, fastest; f/a paired median, fastest"
printf '%s\n' "$layouts" | awk '
	NF == 6 { printf "%-6s %8.4f %8.4f %8.4f   %8.4f %8.4f\n", $1, $2, $3,
			  $4, $5, $6
		  for (i = 2; i <= 6; i++) s[i] += $i
		  n++ }
	END { if (n > 1)
		printf "%-6s %8.4f %8.4f %8.4f   %8.4f %8.4f\n", "mean",
			s[2] / n, s[3] / n, s[4] / n, s[5] / n, s[6] / n
		if (n == 0) exit 1 }' || die "no layout line in a table"
