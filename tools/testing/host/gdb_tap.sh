# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # GDB, vpid, r1, r2, vrc: for the scripts that source this
# shellcheck disable=SC2154 # tmp, BIN: tap.sh's, sourced before this
#
# gdb_tap.sh - what the host tier's vpmu-sim --gdb tests (test_gdb_cli.sh,
# test_gdb_ucode_cli.sh, test_gdb_vprg_cli.sh) share; sourced after
# tap.sh, not run (run-tests.sh runs test_*.sh only):
#
#   . "$(dirname "$0")/gdb_tap.sh"
#   gdb_need CMD NAME         unless CMD is there, print test 1, NAME,
#                             skipped ("# SKIP no CMD") and the plan, and
#                             exit 0
#   port                      a free TCP port
#   listening ERRFILE         wait until vpmu-sim says it waits for gdb
#   raw PORT BUDGET PROG [OPTION...]
#                             vpmu-sim -b BUDGET OPTION... --gdb=PORT PROG
#                             in the background, fd 3 to it
#   put BODY                  send a packet on fd 3
#   reply                     the body of the next packet on fd 3, in body
#   ctrlc_kill PROG           an endless PROG continued, Ctrl-C, pc read,
#                             killed: the stop in r1, pc in r2, exit in vrc
#   budget_end PROG           PROG under a 1M budget continued twice: the
#                             replies in r1 and r2, the exit in vrc
#
# It sets GDB: gdb-multiarch, or $GDB_MULTIARCH.

GDB=${GDB_MULTIARCH:-gdb-multiarch}

gdb_need() {
	command -v "$1" >/dev/null 2>&1 && return
	echo "ok 1 - $2 # SKIP no $1"
	echo "1..1"
	exit 0
}

# port - a free TCP port (none listening on it now, if ss can tell): gdb
# retries the connection while the target opens it
port() {
	local p

	for _ in $(seq 20); do
		p=$((20000 + RANDOM % 20000))
		command -v ss >/dev/null 2>&1 || break
		ss -Htln "sport = :$p" 2>/dev/null | grep -q . || break
	done
	echo "$p"
}

# listening ERRFILE - wait (up to 10 s) until the vpmu-sim whose stderr
# is ERRFILE says it waits for gdb: neither gdb on a Unix socket nor
# /dev/tcp retries a connection.  The caller removes ERRFILE before it
# starts vpmu-sim: the shell empties it in the child, after the fork, so
# an earlier session's words could otherwise still be read there.
listening() {
	for _ in $(seq 100); do
		grep -q 'waiting for gdb' "$1" && return
		sleep 0.1
	done
}

# raw PORT BUDGET PROG [OPTION...] - vpmu-sim -b BUDGET OPTION...
# --gdb=PORT on PROG in the background (its pid in vpid, its stdout and
# stderr in $tmp/raw.out and .err; bounded: a connection that failed
# would leave it waiting), fd 3 to it once it listens
raw() {
	local p=$1 b=$2 prog=$3

	shift 3
	rm -f "$tmp/raw.err"
	timeout 120 "$BIN/vpmu-sim" -b "$b" "$@" --gdb="$p" "$prog" \
		>"$tmp/raw.out" 2>"$tmp/raw.err" &
	vpid=$!
	listening "$tmp/raw.err"
	exec 3<>"/dev/tcp/127.0.0.1/$p"
}

# put BODY - send the packet $BODY#checksum to fd 3
put() {
	local b=$1 s=0 i

	for ((i = 0; i < ${#b}; i++)); do
		s=$(((s + $(printf '%d' "'${b:i:1}")) & 255))
	done
	printf '$%s#%02x' "$b" "$s" >&3
}

# reply - the body of the next packet on fd 3 (acks skipped), in $body
reply() {
	local c

	body=
	while IFS= read -r -N1 -t 10 c <&3 && [ "$c" != '$' ]; do :; done
	while IFS= read -r -N1 -t 10 c <&3 && [ "$c" != '#' ]; do
		body+=$c
	done
	read -r -N2 -t 10 c <&3
}

# ctrlc_kill PROG - PROG (an endless loop) under a 100G budget: continue,
# Ctrl-C half a second later, pc read, k.  The stop's reply in r1, pc's
# in r2, vpmu-sim's exit status in vrc.
ctrlc_kill() {
	raw "$(port)" 100G "$1"
	put c
	sleep 0.5
	printf '\003' >&3
	reply
	r1=$body
	put p20
	reply
	r2=$body
	put k
	reply
	exec 3<&-
	vrc=0
	wait "$vpid" || vrc=$?
}

# budget_end PROG - PROG (an endless loop) under a 1M budget, continued
# to the budget's end and once more.  The two replies in r1 and r2,
# vpmu-sim's exit status in vrc.
budget_end() {
	raw "$(port)" 1M "$1"
	put c
	reply
	r1=$body
	put c
	reply
	r2=$body
	exec 3<&-
	vrc=0
	wait "$vpid" || vrc=$?
}
