#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-kernel.sh FLAVOUR [CMDLINE...] - internal: one test run on one kernel
# (a flavour prepare_kernel in lib/guest.sh knows), writing $OUT/summary.
# check_kernel, also there, runs this as its own process so that "set -e"
# holds here even though the caller tests the exit status (bash ignores -e
# inside "cmd || ..." and everything it calls).  Expects build_userspace's
# USER_SRC and KSFT_INC in the environment.
#
# run-kernel.sh --prepare FLAVOUR - only fetch or build the kernel, install
# its headers and build the module (apt and kernel builds happen here, one
# kernel at a time, so that parallel runs only boot).
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

if [ "${1:-}" = --prepare ]; then
	prepare_kernel "$2"
	build_base_initramfs
	exit 0
fi
: "${USER_SRC:?run by check_kernel only}" "${KSFT_INC:?}"
run_kernel "$1" test "${@:2}"
analyse_log "${VM_RUN[name]}" | tee "$OUT/summary"
