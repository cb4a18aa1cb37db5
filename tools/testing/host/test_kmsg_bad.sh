#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_kmsg_bad.sh - the selftests' reading of the kernel log (TAP):
# kmsg_bad.c, built with selftests/vpmu/vpmu_test.h against 6.12's
# kselftest harness, feeds vt_kmsg_bad() records as /dev/kmsg gives them.
# A warning counts; a KCSAN report counts only with a vpmu frame in it,
# as the VM harness's kcsan_foreign has it for the serial log.  Each of
# kmsg_bad.c's tests is one TAP line here.
set -u

. "$(dirname "$0")/tap.sh"

if ! dir=$(ksft_harness 6.12); then
	echo "ok 1 - kmsg records # SKIP no /usr/src/linux-source-6.12.tar.xz"
	echo "1..1"
	exit 0
fi
if ! ksft_build "$dir" kmsg_bad.c "$tmp/kmsg_bad"; then
	sed 's/^/# /' "$tmp/cc.log"
	ok 1 "kmsg_bad.c builds"
	tap_done
	exit
fi
"$tmp/kmsg_bad" >"$tmp/out" 2>&1
rc=$?
sed -n 's/^# //p' "$tmp/out" | grep -v '^ *\(RUN\|OK\|PASSED\|Totals\)' | sed 's/^/# /'
sed -n 's/^ok [0-9]* \(.*\)$/0 \1/p; s/^not ok [0-9]* \(.*\)$/1 \1/p' \
	"$tmp/out" >"$tmp/results"
while read -r status name; do
	ok "$status" "vt_kmsg_bad: $name"
done <"$tmp/results"
[ "$n" -gt 0 ] || ok 1 "kmsg_bad ran its tests (exit status $rc)"
tap_done
