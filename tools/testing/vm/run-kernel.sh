#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-kernel.sh FLAVOUR [CMDLINE...] - internal: one test run on one kernel
# (6.1, 6.12 or debug), writing $OUT/summary.  check_kernel in lib.sh runs
# this as its own process so that "set -e" holds here even though the
# caller tests the exit status (bash ignores -e inside "cmd || ..." and
# everything it calls).  Expects build_userspace's USER_SRC and KSFT_INC in
# the environment.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

: "${USER_SRC:?run by check_kernel only}" "${KSFT_INC:?}"
run_kernel "$1" test "${@:2}"
analyse_log "$NAME" | tee "$OUT/summary"
