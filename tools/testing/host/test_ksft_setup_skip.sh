#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_ksft_setup_skip.sh - the selftests' fixture rule (TAP): built with
# selftests/vpmu/vpmu_test.h against the kselftest harness of 6.1 and of
# 6.12 (kselftest_harness.h and kselftest.h from Debian's linux-source
# tarballs, as the VM tier takes them; a missing tarball skips its
# series), ksft_setup_skip.c's fixture whose setup skips does not run its
# test's body, and its teardown runs as each harness does it (6.1: yes,
# 6.12: no); its other fixture runs both.  Also shown: 6.1's harness
# without vpmu_test.h's redefinition of FIXTURE_SETUP() runs the body
# after such a setup (the case it mends).
set -u

. "$(dirname "$0")/tap.sh"

has() {	# has LINE FILE
	grep -qx -- "$1" "$2"
}

for series in 6.1 6.12; do
	if ! dir=$(ksft_harness "$series"); then
		n=$((n + 1))
		echo "ok $n - $series: fixtures # SKIP no /usr/src/linux-source-$series.tar.xz"
		continue
	fi
	if ! ksft_build "$dir" ksft_setup_skip.c "$tmp/t-$series"; then
		sed 's/^/# /' "$tmp/cc.log"
		ok 1 "$series: ksft_setup_skip.c builds"
		continue
	fi
	"$tmp/t-$series" >"$tmp/out" 2>&1
	ok $? "$series: one test passed, one skipped: exit status 0"
	grep -q '^ok 1 .*# SKIP setup skips$' "$tmp/out"
	ok $? "$series: the test whose fixture's setup skips is reported skipped"
	! has "BODY skips" "$tmp/out"
	ok $? "$series: its body did not run"
	if [ "$series" = 6.1 ]; then
		has "TEARDOWN skips" "$tmp/out"
		ok $? "$series: its teardown ran, as the harness does"
	else
		! has "TEARDOWN skips" "$tmp/out"
		ok $? "$series: its teardown did not run, as the harness does"
	fi
	has "BODY runs" "$tmp/out" && has "TEARDOWN runs" "$tmp/out" &&
		grep -q '^ok 2 runs.body$' "$tmp/out"
	ok $? "$series: the other fixture's body and teardown ran, and it passed"
	sed 's/^/# /' "$tmp/out"
	if [ "$series" = 6.1 ]; then
		# FIXTURE_TEARDOWN_PARENT (6.9's) turns vpmu_test.h's rule off.
		ksft_build "$dir" ksft_setup_skip.c "$tmp/t-bare" \
			-DFIXTURE_TEARDOWN_PARENT &&
			{ "$tmp/t-bare" >"$tmp/out" 2>&1; has "BODY skips" "$tmp/out"; }
		ok $? "$series: without vpmu_test.h's rule the harness runs the body"
	fi
done
tap_done
