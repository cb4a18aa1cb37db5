#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-check.sh stock|debug - run the selftests in QEMU.
#
#   stock   newest Debian bookworm 6.1 and 6.12 kernels (vm-6.1, vm-6.12)
#   debug   linux-source-6.1 built with KASAN, lockdep, kmemleak, UBSAN
#           (debug-6.1)
#
# Each kernel prints "NAME: N passed, N failed"; the exit status is non-zero
# if any kernel failed.  See Documentation/vpmu/testing.rst.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

case "${1:-}" in
stock)	kernels=(6.1 6.12) ;;
debug)	kernels=(debug) ;;
*)	echo "usage: $0 stock|debug" >&2; exit 2 ;;
esac

ensure_host_deps
build_userspace
rc=0
for k in "${kernels[@]}"; do
	check_kernel "$k" || rc=1
done
exit $rc
