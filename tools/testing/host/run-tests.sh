#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-tests.sh PROGRAM... - run every host test program given, every
# test_*.sh beside this script and the bounded fuzz runs; each prints TAP.
# Count "ok"/"not ok" lines (a program that dies before its plan is done
# or exits non-zero without a "not ok" counts as failed), then end with
# exactly one line: "host: N passed, N failed".  Exit non-zero on failure.

here=$(cd "$(dirname "$0")" && pwd)
pass=0
fail=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT

run() {
	name=$1
	shift
	echo "# $name"
	"$@" >"$out" 2>&1
	rc=$?
	cat "$out"
	# shellcheck disable=SC2046 # three numbers
	set -- $(awk '
		/^1\.\.[0-9]+/ { split($0, a, "\\.\\."); plan = a[2] + 0 }
		/^ok /      { ok++ }
		/^not ok /  { nok++ }
		END { printf "%d %d %d\n", ok, nok, plan }' "$out")
	ok=$1 nok=$2 plan=$3
	missing=0
	[ "$plan" -gt $((ok + nok)) ] && missing=$((plan - ok - nok))
	if [ $rc -ne 0 ] && [ $((nok + missing)) -eq 0 ]; then
		echo "not ok - $name exited with status $rc"
		nok=$((nok + 1))
	fi
	[ $missing -gt 0 ] && echo "not ok - $name: $missing planned tests did not run"
	pass=$((pass + ok))
	fail=$((fail + nok + missing))
}

for t in "$@"; do
	run "$t" "$t"
done
for t in "$here"/test_*.sh; do
	[ -e "$t" ] || continue
	case " $* " in *" $t "*|*" $(basename "$t") "*) continue ;; esac
	run "$(basename "$t")" sh "$t"
done
run fuzz ${MAKE:-make} -s --no-print-directory -C "$here/../fuzz" \
	run FUZZ_TIME="${FUZZ_TIME:-15}"

echo "host: $pass passed, $fail failed"
[ $fail -eq 0 ]
