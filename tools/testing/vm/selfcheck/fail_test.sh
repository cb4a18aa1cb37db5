#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Harness self-check injector: a selftest with one passing and one failing
# TAP case.  tools/testing/vm/selfcheck.sh adds it to the guest; the run
# must then fail with "test failures".  Never part of a normal run.
echo "TAP version 13"
echo "1..2"
echo "ok 1 selfcheck.passes"
echo "not ok 2 selfcheck.fails_on_purpose"
exit 1
