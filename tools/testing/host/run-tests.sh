#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-tests.sh PROGRAM... - run every host test program given, every
# test_*.sh beside this script and the bounded fuzz runs; each prints TAP.
# Count "ok"/"not ok" lines (a program that dies before its plan is done
# or exits non-zero without a "not ok" counts as failed), then end with
# exactly one line: "host: N passed, N failed".  Exit non-zero on failure.
#
# HOST_JOBS runs (default: one per CPU) go at once, each into its own
# file; each one's output is shown whole, in the order they start, once it
# and those before it are over.  The slowest (SLOW: test_tc.sh, then the
# fuzz runs) start first, so the others fill the remaining CPUs around
# them.  Whatever the scripts build is built beforehand (the Makefile's
# check target), so no two of them make the same file at once.  Each run
# is its own session (setsid), killed with its children when this script
# is interrupted or ends early: a shell ignores SIGINT in what it starts
# in the background, so Ctrl-C would not reach them.
#
# run-tests.sh --one NAME I DIR runs one of them (NAME) for the others,
# its output into DIR/I.out, its wall seconds into DIR/I.time, then its
# exit status into DIR/I.rc.  The end lists the longest runs.

here=$(cd "$(dirname "$0")" && pwd)
SLOW="test_tc.sh fuzz"
jobs=${HOST_JOBS:-$(nproc 2>/dev/null || echo 1)}
pass=0
fail=0

# run NAME - run it, its output to stdout.
run() {
	case $1 in
	fuzz)	${MAKE:-make} -s --no-print-directory -C "$here/../fuzz" run \
			FUZZ_TIME="${FUZZ_TIME:-15}" ;;
	*.sh)	sh "$here/$1" ;;
	*)	"$1" ;;
	esac
}

if [ "${1:-}" = --one ]; then
	t0=$(date +%s)
	run "$2" >"$4/$3.out" 2>&1
	echo $? >"$4/$3.rc.tmp"
	echo $(($(date +%s) - t0)) >"$4/$3.time"
	mv "$4/$3.rc.tmp" "$4/$3.rc"
	exit 0
fi

dir=$(mktemp -d)
: >"$dir/pids"
# stop - end every run still going (no I.rc yet), each with its session
# (procps' kill: dash's takes no process group).
stop() {
	while read -r i p; do
		[ -f "$dir/$i.rc" ] || env kill -s TERM -- "-$p" 2>/dev/null
	done <"$dir/pids"
	rm -rf "$dir"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The runs' names: the programs, the scripts, "fuzz".
list() {
	for t in "$@"; do
		echo "$t"
	done
	for t in "$here"/test_*.sh; do
		[ -e "$t" ] || continue
		case " $* " in *" $t "*|*" $(basename "$t") "*) continue ;; esac
		basename "$t"
	done
	echo fuzz
}

list "$@" >"$dir/all"
# shellcheck disable=SC2086 # one name per line
printf '%s\n' $SLOW >"$dir/slow"
grep -xF -f "$dir/slow" "$dir/all" >"$dir/runs"
grep -vxF -f "$dir/slow" "$dir/all" >>"$dir/runs"
n=$(wc -l <"$dir/runs")

# start I - start run I (from 1) in the background, in its own session.
start() {
	setsid sh "$here/run-tests.sh" --one "$(sed -n "$1p" "$dir/runs")" \
		"$1" "$dir" &
	echo "$1 $!" >>"$dir/pids"
}

# show I - print run I's output, its verdict, and add up its counts.
show() {
	out=$dir/$1.out
	name=$(sed -n "$1p" "$dir/runs")
	rc=$(cat "$dir/$1.rc")
	echo "# $name"
	cat "$out"
	echo "$(cat "$dir/$1.time")s $name" >>"$dir/times"
	# shellcheck disable=SC2046 # three numbers
	set -- $(awk '
		/^1\.\.[0-9]+/ { split($0, a, "\\.\\."); plan = a[2] + 0 }
		/^ok /      { ok++ }
		/^not ok /  { nok++ }
		END { printf "%d %d %d\n", ok, nok, plan }' "$out")
	ok=$1 nok=$2 plan=$3
	missing=0
	[ "$plan" -gt $((ok + nok)) ] && missing=$((plan - ok - nok))
	if [ "$rc" -ne 0 ] && [ $((nok + missing)) -eq 0 ]; then
		echo "not ok - $name exited with status $rc"
		nok=$((nok + 1))
	fi
	[ $missing -gt 0 ] && echo "not ok - $name: $missing planned tests did not run"
	pass=$((pass + ok))
	fail=$((fail + nok + missing))
}

next=1
shown=1
while [ "$shown" -le "$n" ]; do
	running=0
	i=$shown
	while [ "$i" -lt "$next" ]; do
		[ -f "$dir/$i.rc" ] || running=$((running + 1))
		i=$((i + 1))
	done
	while [ "$next" -le "$n" ] && [ "$running" -lt "$jobs" ]; do
		start "$next"
		next=$((next + 1))
		running=$((running + 1))
	done
	while [ "$shown" -lt "$next" ] && [ -f "$dir/$shown.rc" ]; do
		show "$shown"
		shown=$((shown + 1))
	done
	[ "$shown" -le "$n" ] && sleep 1
done
wait

# Where the tier's time went: the longest runs (make check's tier time).
echo "# the longest runs (wall seconds, $jobs at a time):"
sort -rn "$dir/times" | head -n 8 | sed 's/^/#   /'
echo "host: $pass passed, $fail failed"
[ $fail -eq 0 ]
