#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-debug-kernel.sh [SERIES...] - build (or find in the cache) the
# debug-tier kernels: Debian's linux-source-SERIES (default: 6.1 and 6.12),
# tinyconfig + debug.config (+ debug-SERIES.config): KASAN, lockdep,
# kmemleak, UBSAN.  vm-check.sh debug calls this implicitly; running it alone
# is handy to warm the cache.  Prints each tree's path.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ensure_host_deps
# shellcheck disable=SC2206 # word splitting of the series list is wanted
series=(${*:-$DEBUG_SERIES})
for s in "${series[@]}"; do
	build_debug_kernel "$s"
	echo "$KDIR"
done
