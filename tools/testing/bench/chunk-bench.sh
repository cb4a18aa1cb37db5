#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# chunk-bench.sh - the longest a /dev/vpmu run chunk keeps interrupts off,
# in the guest, as the module measures it with bench_chunk_time=1 (its
# bench_chunk_ns and bench_chunk_stops parameters).  Boots one guest per
# bound: VPMU_RUN_CHUNK_STOPS as built (16), and a baseline without a
# bound (-DVPMU_RUN_CHUNK_STOPS=1000000000, the driver before the bound).
# Prints chunk-bench-guest.sh's tables.  Not a test.
#
#   VPMU_BENCH_KERNEL   6.1 or 6.12 (default 6.12)
#   VPMU_BENCH_BUDGET   cycles per run (default 2000000)
set -euo pipefail

# shellcheck source=lib.sh
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"

bench_build
for bound in default 1000000000; do
	flags=
	[ "$bound" = default ] || flags="-DVPMU_RUN_CHUNK_STOPS=$bound"
	echo "== stops per chunk: $bound (KCFLAGS=$flags)"
	(export KCFLAGS="$flags"; bench_boot chunk-bench 2000000)
done
