#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-run.sh - boot one test VM, for debugging.
#
#   vm-run.sh --kernel FLAVOUR [--test NAME] [--shell] [--verbose]
#
#   FLAVOUR       one of lib/flavours.sh's VM_FLAVOURS: 6.1, 6.12,
#                 6.12-rt, 7.x, debug-6.1, debug-6.12, debug-6.12-fault, ...
#   --test NAME   run only the selftests whose file name contains NAME
#                 (even one the flavour skips)
#   --shell       interactive busybox shell on the serial console, with
#                 vpmu.ko loaded (exit the shell to power off; Ctrl-A X
#                 kills QEMU)
#   --verbose     echo the whole serial log, boot included
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

usage() {
	sed -n '4,15s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

kernel=
test=
mode="test"
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel)	kernel=${2:-}; shift 2 ;;
	--test)		test=${2:-}; shift 2 ;;
	--shell)	mode=shell; shift ;;
	--verbose)	export VPMU_VERBOSE=1; shift ;;
	*)		usage ;;
	esac
done
[ -n "$kernel" ] || usage

ensure_host_deps
build_userspace
if [ "$mode" = shell ]; then
	export VPMU_VM_TIMEOUT=${VPMU_SHELL_TIMEOUT:-3600}
	export VPMU_DEBUG_TIMEOUT=${VPMU_SHELL_TIMEOUT:-3600}
	run_kernel "$kernel" shell
	exit 0
fi
if [ -n "$test" ]; then
	check_kernel "$kernel" "vpmu_test=$test" vpmu_skip=
else
	check_kernel "$kernel"
fi
