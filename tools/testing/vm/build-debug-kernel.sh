#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-debug-kernel.sh - build (or find in the cache) the debug-tier
# kernel: Debian's linux-source-6.1, tinyconfig + debug.config (KASAN,
# lockdep, kmemleak, UBSAN).  vm-check.sh debug calls this implicitly;
# running it alone is handy to warm the cache.  Prints the tree path.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

ensure_host_deps
build_debug_kernel
echo "$KDIR"
