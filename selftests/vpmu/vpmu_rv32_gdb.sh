#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vpmu_rv32_gdb.sh - vpmu-run --gdb (busybox sh): an RV32 C sample
# debugged on the kernel's engine, whose run stops at instruction
# boundaries (VPMU_RUN_F_STEP, struct vpmu_run.brk[]: VPMU_RUN_BREAK),
# must show gdb exactly what vpmu-sim --gdb shows for it on the same
# engine in host C.  The guest has no gdb: vpmu_gdb_wire (beside this
# script) speaks the remote protocol's packets, the same script of them
# to both stubs, and the two transcripts must be equal, byte for byte:
#
#   - 200 single steps from the entry, x0..x31 and pc after each (g);
#   - a breakpoint on the pc the steps visited most, continued to it
#     twice, the registers and 64 bytes at sp there, a register written
#     (a0) and the run continued to its end with the breakpoint removed;
#   - steps to the budget's end (SIGXCPU), for four budgets a cycle apart;
#
# and each debugged run, under perf stat, must count exactly what the
# same program counts undebugged (cycles, uops, insns), exit as it does
# and print what it prints.  And what the kernel's stub refuses: a 17th
# breakpoint (VPMU_RUN_NBREAK), write watchpoints, pc moved, a program
# file.
#
# TAP output; skips without the tools, perf, root, the built samples or
# Unix sockets (the debug kernels' configs).

SHARE=${VPMU_SHARE:-/usr/share/vpmu}
RUN=$(command -v vpmu-run || echo vpmu-run)
SIM=$(command -v vpmu-sim || echo vpmu-sim)
LOAD=$(command -v vpmu-load || echo vpmu-load)
WIRE=$(dirname "$0")/vpmu_gdb_wire
IMG=$SHARE/build/rv32im.vpmu
ELF=$SHARE/build/rv32/fib.elf
T=/tmp/vpmu_rv32_gdb.$$
OUT=$T.stat
SEP=';'
# The TAP helpers, beside this script (installed as a TEST_FILES).
# shellcheck source=vpmu_tap.sh
. "$(dirname "$0")/vpmu_tap.sh"

command -v perf >/dev/null 2>&1 || skip_all "no perf"
for t in "$RUN" "$SIM" "$LOAD" "$WIRE"; do
	[ -x "$t" ] || skip_all "no $t"
done
[ -f "$IMG" ] || skip_all "no $IMG"
[ -f "$ELF" ] || skip_all "no $ELF (no cross compiler?)"
[ "$(id -u)" = 0 ] || skip_all "loading the image needs root"
# The debug kernels' minimal configs have no CONFIG_UNIX: no socket for
# the stubs to listen on.
"$WIRE" --probe 2>/dev/null ||
	skip_all "no Unix sockets in this kernel (CONFIG_UNIX), where the stubs listen"
cleanup() {
	rm -f "$T".*
	"$LOAD" --default >/dev/null 2>&1
}
trap cleanup EXIT
tap_plan 11

"$LOAD" "$IMG" >/dev/null
ok $? "the rv32im image loads"

EVENTS=vpmu/vpmu_cycles/,vpmu/vpmu_uops/,vpmu/vpmu_insns/

# session TOOL NAME [BUDGET] - the packets of $T.NAME.gdb to TOOL --gdb
# running $ELF (vpmu-run under perf stat: the counts in $T.NAME.stat):
# replies in $T.NAME.TOOL.gdb, the program's output in .out, --stats'
# cycles in .cycles, the exit status in .rc.  A client that could not
# finish kills the stub, which would wait for it for ever.
session() {
	s=$T.sock
	o=$T.$2.$(basename "$1")
	b=--budget=${3:-1G}
	rm -f "$s"
	if [ "$1" = "$RUN" ]; then
		# shellcheck disable=SC2016 # sh -c's own arguments
		perf stat -x"$SEP" -o "$T.$2.stat" -e "$EVENTS" sh -c \
			'"$0" -q --stats "$4" --gdb=unix:"$1" "$2"; echo $? >"$3"' \
			"$1" "$s" "$ELF" "$o.rc" "$b" >"$o.out" 2>"$o.stats" &
	else
		# shellcheck disable=SC2016 # as above
		sh -c '"$0" -q --stats "$4" --gdb=unix:"$1" "$2"; echo $? >"$3"' \
			"$1" "$s" "$ELF" "$o.rc" "$b" >"$o.out" 2>"$o.stats" &
	fi
	pid=$!
	if ! "$WIRE" "$s" <"$T.$2.gdb" >"$o.gdb"; then
		echo "# $2: vpmu_gdb_wire failed on $(basename "$1")"
		pkill -f "unix:$s" 2>/dev/null || kill "$pid"
	fi
	wait $pid
	grep '^event cycles ' "$o.stats" >"$o.cycles"
}

# same NAME - do vpmu-run's and vpmu-sim's sessions NAME agree?  The
# differences as TAP comments.
same() {
	r=$T.$1.$(basename "$RUN")
	m=$T.$1.$(basename "$SIM")
	for f in gdb out cycles rc; do
		if ! cmp -s "$r.$f" "$m.$f"; then
			echo "# $1: vpmu-run and vpmu-sim differ in .$f:"
			diff "$m.$f" "$r.$f" | head -20 | sed 's/^/# /'
			return 1
		fi
	done
	[ -s "$r.gdb" ] && [ -s "$r.cycles" ]
}

# counts_as_undebugged NAME - session NAME's perf counts, exit status and
# output against an undebugged vpmu-run of $ELF.
counts_as_undebugged() {
	r=$T.$1.$(basename "$RUN")
	stat -e "$EVENTS" "$RUN" -q "$ELF"
	want=
	for e in cycles uops insns; do
		cnt=$(counted "vpmu/vpmu_$e/")
		case $cnt in
		'' | 0 | *[!0-9]*)
			echo "# vpmu/vpmu_$e/ not counted: '$cnt'"
			return 1 ;;
		esac
		want="$want vpmu/vpmu_$e/=$cnt"
	done
	cp "$T.$1.stat" "$OUT"
	# shellcheck disable=SC2086 # one word per event
	check $want
}

# The steps: from the entry, 200 of them, the registers after each.
{
	echo qSupported
	echo '?'
	echo g
	i=0
	while [ $i -lt 200 ]; do
		echo s
		echo g
		i=$((i + 1))
	done
	echo c
} >"$T.step.gdb"
session "$SIM" step
session "$RUN" step
same step
ok $? "200 steps: every stop and x0..x31, pc after it as vpmu-sim's, the exit too"
nsteps=$(grep -c '^T05$' "$T.step.$(basename "$RUN").gdb")
[ "$nsteps" = 200 ]
ok $? "200 steps: 200 stops (T05), $nsteps seen"
counts_as_undebugged step
ok $? "200 steps: perf counts the debugged run as an undebugged one"

# The pc the steps visited most (g's last 8 hex digits, little-endian).
bple=$(grep -E '^[0-9a-f]{264}$' "$T.step.$(basename "$RUN").gdb" |
	cut -c257-264 | sort | uniq -c | sort -rn | head -1 |
	sed 's/.* //')
bp=$(echo "$bple" | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/')
echo "# breakpoint at 0x$bp"
# the top of the stack, where sp starts (1 MiB of memory)
{
	echo qSupported
	echo "Z0,$bp,4"
	echo c
	echo g
	echo mfffc0,40
	echo c
	echo g
	echo mfffc0,40
	echo "z0,$bp,4"
	echo c
} >"$T.bp.gdb"
session "$SIM" bp
session "$RUN" bp
same bp
ok $? "breakpoint at 0x$bp: its stops, registers and stack as vpmu-sim's, the exit too"
r=$T.bp.$(basename "$RUN").gdb
[ "$(grep -c '^T05swbreak:;$' "$r")" = 2 ] &&
	[ "$(grep -E '^[0-9a-f]{264}$' "$r" | cut -c257-264 | sort -u)" = "$bple" ]
ok $? "breakpoint: two stops (T05swbreak), pc 0x$bp at both"
counts_as_undebugged bp
ok $? "breakpoint: perf counts the debugged run as an undebugged one"

# A register written at the breakpoint goes in with the next run.
{
	echo qSupported
	echo "Z0,$bp,4"
	echo c
	echo P0a=03000000
	echo p0a
	echo "z0,$bp,4"
	echo s
	echo g
	echo c
} >"$T.wr.gdb"
session "$SIM" wr
session "$RUN" wr
same wr && grep -qx 03000000 "$T.wr.$(basename "$RUN").gdb"
ok $? "a0 written at the breakpoint: the step, the registers, the rest of the run as vpmu-sim's"

# The budget's end while stepping: SIGXCPU (T18), then the end (X18),
# at the same step as vpmu-sim's, whatever microword of an instruction
# the budget ends on (1000 cycles, then 1001 to 1003).
brc=0
for bud in 1000 1001 1002 1003; do
	{
		echo qSupported
		i=0
		while [ $i -lt 400 ]; do
			echo s
			i=$((i + 1))
		done
		echo g
		echo c
	} >"$T.bud.gdb"
	session "$SIM" bud $bud
	session "$RUN" bud $bud
	same bud && grep -qx T18 "$T.bud.$(basename "$RUN").gdb" || brc=1
done
ok $brc "budget's end while stepping: T18 at the same step as vpmu-sim's, for 4 budgets"

# What the kernel's stub refuses, and how (k ends it: exit 137).
{
	echo qSupported
	i=0
	while [ $i -lt 17 ]; do
		printf 'Z0,%x,4\n' $((0x1000 + 4 * i))
		i=$((i + 1))
	done
	echo Z2,1000,4
	echo P20=00000000
	echo qRcmd,757063
	echo k
} >"$T.no.gdb"
{
	echo 'PacketSize=1000;qXfer:features:read+;swbreak+;hwbreak+;vContSupported+'
	i=0
	while [ $i -lt 16 ]; do
		echo OK
		i=$((i + 1))
	done
	echo E01
	echo
	echo E01
	printf 'O'
	printf '%s%s\n' "monitor upc: no monitor commands on the kernel's engine" \
		' (vpmu-sim --gdb steps the microcode)' |
		od -An -tx1 -v | tr -d ' \n'
	echo
	echo OK
	echo OK
} >"$T.no.want"
session "$RUN" no
r=$T.no.$(basename "$RUN")
if cmp -s "$T.no.want" "$r.gdb" && [ "$(cat "$r.rc")" = 137 ]; then
	ok 0 "refused: a 17th breakpoint, write watchpoints, pc moved; no monitor; k: exit 137"
else
	diff "$T.no.want" "$r.gdb" | sed 's/^/# /'
	echo "# exit $(cat "$r.rc")"
	ok 1 "refused: a 17th breakpoint, write watchpoints, pc moved; no monitor; k: exit 137"
fi

prog=
for f in "$SHARE"/build/*.vprg; do
	[ -f "$f" ] && prog=$f && break
done
if [ -n "$prog" ]; then
	"$RUN" -q --gdb=unix:"$T.sock" "$prog" 2>"$T.err"
	[ $? = 125 ] && grep -q 'RV32 ELF programs only' "$T.err"
	ok $? "a program file: refused, exit 125"
else
	skip "a program file: refused" "no $SHARE/build/*.vprg"
fi

tap_done
