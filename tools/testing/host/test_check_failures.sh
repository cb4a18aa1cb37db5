#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_check_failures.sh - failures.awk, which names in check.sh's summary
# what failed (TAP): a host run's "not ok" lines under its program's name,
# the vm tiers' indented "not ok" and "NAME: FAIL:" lines, the pkg tier's
# commented ones, each with the kselftest harness's "FILE.c:LINE:" line
# before it, but one of a test that passed; nothing from a tier whose
# output has no failure; at most 20 lines.
set -u

. "$(dirname "$0")/tap.sh"
awk_prog=$TOP/tools/testing/failures.awk

# expect NAME INPUT WANT - failures.awk on INPUT prints exactly WANT
expect() {
	printf '%s' "$2" >"$tmp/in"
	printf '%s' "$3" >"$tmp/want"
	awk -f "$awk_prog" "$tmp/in" >"$tmp/got" 2>&1
	cmp -s "$tmp/want" "$tmp/got"
	rc=$?
	ok $rc "$1"
	[ $rc = 0 ] || diff "$tmp/want" "$tmp/got" | sed 's/^/# /'
}

expect "a host run's failures under its name" \
'# test_a
1..2
ok 1 - one
not ok 2 - two
# test_b.sh
ok 1 - x
not ok - test_b.sh exited with status 1
' \
'test_a: not ok 2 - two
test_b.sh: not ok - test_b.sh exited with status 1
'

expect "a vm tier's guest failures and reasons" \
'vm: booting
  not ok 7 vpmu_event: bad_config
vm-6.12: FAIL: test failures: 1 failed
vm-6.12: 351 passed, 1 failed
' \
'not ok 7 vpmu_event: bad_config
vm-6.12: FAIL: test failures: 1 failed
'

expect "a failed test's harness line, not a passed one's" \
'  # vpmu_memcg.c:275:Expected 0 (0) == as_user() (109)
  not ok 1 memcg.run_memory_charged
  # vpmu_memcg.c:300:Expected 1 (1) == 1 (1)
  ok 2 memcg.resume_kept
  not ok 3 memcg.signal_ends_call
' \
'not ok 1 memcg.run_memory_charged [vpmu_memcg.c:275:Expected 0 (0) == as_user() (109)]
not ok 3 memcg.signal_ends_call
'

expect "the pkg tier's commented failures" \
'# not ok 3 - dkms build
pkg: 61 passed, 1 failed
' \
'not ok 3 - dkms build
'

expect "nothing from a tier that passed" \
'# test_a
ok 1 - one
host: 1 passed, 0 failed
' ''

i=0
: >"$tmp/many"
while [ $i -lt 25 ]; do
	i=$((i + 1))
	echo "not ok $i - f$i" >>"$tmp/many"
done
awk -f "$awk_prog" "$tmp/many" >"$tmp/got" 2>&1
[ "$(wc -l <"$tmp/got")" = 20 ] && [ "$(tail -n 1 "$tmp/got")" = "not ok 20 - f20" ]
ok $? "at most 20 lines"

tap_done
