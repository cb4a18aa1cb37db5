#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_run_tests.sh - the host tier's runner, run-tests.sh, on stand-in
# programs (TAP).  A copy of it runs in a directory of its own, beside a
# stand-in fuzz directory, so it finds only the scripts and fuzz run made
# here:
#
#   - its counts: passes, failures, a plan cut short, a bare exit status,
#     a program that is not there, a script, the fuzz run; its exit status;
#   - each run's output whole, in the order the runs start, the slowest
#     (test_tc.sh, then the fuzz run) first;
#   - HOST_JOBS=2 runs two at once: each of two programs waits for the
#     other's mark, which only a second run at the same time can leave;
#     HOST_JOBS=1 runs one at a time (the first of the pair waits alone);
#   - SIGTERM or SIGINT to the runner ends every run it started with its
#     children, and the runner exits 143 or 130.
set -u

. "$(dirname "$0")/tap.sh"
here=$(cd "$(dirname "$0")" && pwd)
h=$tmp/host
mkdir -p "$h" "$tmp/fuzz"
cp "$here/run-tests.sh" "$h/"
cd "$h" || exit 1

prog() {	# prog NAME BODY - an executable shell program
	printf '#!/bin/sh\n%s\n' "$2" >"$1"
	chmod +x "$1"
}
prog pass 'echo 1..2; echo "ok 1 - a"; echo "ok 2 - b"'
prog fail 'echo 1..2; echo "ok 1 - a"; echo "not ok 2 - b"'
prog short 'echo 1..3; echo "ok 1 - a"; exit 3'
prog status 'exit 5'
echo 'echo 1..1; echo "ok 1 - a script"' >test_x.sh
echo 'echo 1..1; echo "ok 1 - the slow one"' >test_tc.sh
printf 'run:\n\t@echo 1..1; echo "ok 1 - fuzzed"\n' >"$tmp/fuzz/Makefile"

HOST_JOBS=2 sh ./run-tests.sh ./pass ./fail ./short ./status ./absent \
	>"$tmp/out" 2>&1
rc=$?
[ "$rc" = 1 ] && [ "$(tail -n 1 "$tmp/out")" = "host: 7 passed, 5 failed" ]
ok $? "counts and exit status: $(tail -n 1 "$tmp/out"), $rc"
grep -qx 'not ok - ./short: 2 planned tests did not run' "$tmp/out" &&
	grep -qx 'not ok - ./status exited with status 5' "$tmp/out" &&
	grep -qx 'not ok - ./absent exited with status 127' "$tmp/out"
ok $? "a plan cut short, an exit status and a missing program fail"
sed '/^# the longest runs/,$d' "$tmp/out" | grep '^# ' | tr '\n' ' ' >"$tmp/order"
[ "$(cat "$tmp/order")" = "# test_tc.sh # fuzz # ./pass # ./fail # ./short # ./status # ./absent # test_x.sh " ]
ok $? "the output in starting order, the slowest first: $(cat "$tmp/order")"
sed -n '/^# the longest runs (wall seconds, 2 at a time):$/,$p' "$tmp/out" |
	grep -cE '^#   [0-9]+s (test_tc\.sh|fuzz|\./(pass|fail|short|status|absent)|test_x\.sh)$' \
	>"$tmp/times"
[ "$(cat "$tmp/times")" = 8 ]
ok $? "the longest runs listed at the end, each with its seconds: $(cat "$tmp/times") of 8"
sed -n '/^# \.\/fail$/,/^# /p' "$tmp/out" >"$tmp/fail"
[ "$(sed -n 2,4p "$tmp/fail" | tr '\n' '|')" = "1..2|ok 1 - a|not ok 2 - b|" ]
ok $? "a run's output is shown whole"

# Two programs that each wait (up to 5 s) for the other's mark.
rm -f test_x.sh test_tc.sh "$tmp/fuzz/Makefile"
printf 'run:\n\t@echo 1..1; echo "ok 1 - fuzzed"\n' >"$tmp/fuzz/Makefile"
for p in a b; do
	o=b
	[ "$p" = b ] && o=a
	prog "meet_$p" "touch $tmp/mark_$p; i=0
while [ ! -e $tmp/mark_$o ] && [ \$i -lt 50 ]; do sleep 0.1; i=\$((i + 1)); done
echo 1..1; if [ -e $tmp/mark_$o ]; then echo 'ok 1 - met'; else echo 'not ok 1 - alone'; fi"
done
HOST_JOBS=2 sh ./run-tests.sh ./meet_a ./meet_b >"$tmp/out" 2>&1
[ "$(tail -n 1 "$tmp/out")" = "host: 3 passed, 0 failed" ]
ok $? "HOST_JOBS=2: two programs run at once ($(tail -n 1 "$tmp/out"))"
rm -f "$tmp"/mark_*
HOST_JOBS=1 sh ./run-tests.sh ./meet_a ./meet_b >"$tmp/out" 2>&1
[ "$(tail -n 1 "$tmp/out")" = "host: 2 passed, 1 failed" ]
ok $? "HOST_JOBS=1: one at a time, the first waits alone ($(tail -n 1 "$tmp/out"))"

# alive PID - PID runs (a zombie, killed but not yet reaped, does not).
alive() {
	case $(ps -o stat= -p "$1" 2>/dev/null) in
	""|Z*)	return 1 ;;
	esac
}

# A run that leaves its pid and that of a child, then sleeps; the runner
# is signalled once both are there.
prog linger "sleep 300 & echo \$! >$tmp/child; echo \$\$ >$tmp/self; wait"
for sig in TERM INT; do
	rm -f "$tmp/child" "$tmp/self"
	# A shell ignores SIGINT in what it starts in the background;
	# perl gives the runner the default, as a terminal's job has.
	perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV' \
		env HOST_JOBS=2 sh ./run-tests.sh ./linger >"$tmp/out" 2>&1 &
	runner=$!
	i=0
	while { [ ! -s "$tmp/child" ] || [ ! -s "$tmp/self" ]; } && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill -s "$sig" "$runner"
	wait "$runner"
	rc=$?
	# What the runner signalled has up to 5 s to end.
	i=0
	while :; do
		left=
		for p in $(cat "$tmp/child" "$tmp/self" 2>/dev/null); do
			alive "$p" && left="$left $p"
		done
		[ -z "$left" ] || [ $i -ge 50 ] && break
		sleep 0.1
		i=$((i + 1))
	done
	want=143
	[ "$sig" = INT ] && want=130
	[ -s "$tmp/child" ] && [ -z "$left" ] && [ "$rc" = "$want" ]
	ok $? "SIG$sig: the runner exits $rc, its runs end with their children${left:+ (left:$left)}"
	for p in $left; do
		kill "$p" 2>/dev/null
	done
done
tap_done
