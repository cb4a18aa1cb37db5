#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vpmu_trig_stat.sh - start and stop triggers through the perf tool
# (busybox sh): the format/ terms stop_tag, stop_mark and trig_ovf as
# perf stat parses them, with the exact counts vpmu_startstop.c derives
# from marks.s (1000 passes: 31 microwords and 7 instructions of each
# from the first mark to the bne's branch decision).  Each stat is also
# printed whole as TAP comments.
# TAP output; skips without perf, vpmu-run or the assembled samples.

SHARE=${VPMU_SHARE:-/usr/share/vpmu}
RUN=$(command -v vpmu-run || echo vpmu-run)
OUT=/tmp/vpmu_trig_stat.$$
# The TAP helpers, beside this script (installed as a TEST_FILES).
# shellcheck source=vpmu_tap.sh
. "$(dirname "$0")/vpmu_tap.sh"

command -v perf >/dev/null 2>&1 || skip_all "no perf"
[ -x "$RUN" ] || skip_all "no vpmu-run"
[ -f "$SHARE/build/marks.vprg" ] || skip_all "no $SHARE/build/marks.vprg"
command -v taskset >/dev/null 2>&1 || skip_all "no taskset"
trap 'rm -f "$OUT"' EXIT

tap_plan 2
SEP=';'

# perf stat ARGS as people see it, as TAP comments.
show() {
	echo "# \$ perf stat $*"
	perf stat "$@" 2>&1 | sed 's/^/# /'
}

# 1. Start on the mark, stop on the branch (tag 5), started frozen.
ev='{vpmu/vpmu_insns,trig_mark=1,stop_tag=5,frozen=1/,vpmu/vpmu_uops/}'
show -e "$ev" taskset -c 0 "$RUN" -q "$SHARE/build/marks.vprg"
stat -e "$ev" taskset -c 0 "$RUN" -q "$SHARE/build/marks.vprg"
check "vpmu/vpmu_insns,trig_mark=1,stop_tag=5,frozen=1/=7000" \
      "vpmu/vpmu_uops/=31000"
ok $? "perf stat: start on the mark, stop on the branch"

# 2. Start on the branch, stop on the mark, started running: the first
#    addi, 4 microwords of each taken bne, 2 of the last and the halt.
ev='vpmu/vpmu_uops,trig_tag=5,stop_mark=1/'
show -e "$ev" taskset -c 0 "$RUN" -q "$SHARE/build/marks.vprg"
stat -e "$ev" taskset -c 0 "$RUN" -q "$SHARE/build/marks.vprg"
check "vpmu/vpmu_uops,trig_tag=5,stop_mark=1/=4004"
ok $? "perf stat: start on the branch, stop on the mark"

tap_done
