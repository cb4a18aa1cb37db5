#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_gdb_vprg_cli.sh - vpmu-sim --gdb on a vpmu32 program file (TAP):
# gdb-multiarch with no ELF file (target remote only), the target
# description's riscv:rv32 shape and its org.vpmu.vpmu32 registers.  The
# program, assembled here with vpmu-as, gives each register a value the
# test computes itself:
#
#   - a breakpoint at an address (break *0x100) stops there; x0..x31 and
#     pc are the values the program's arithmetic gives them, and what
#     vpmu-sim -v -b C prints for an undebugged run of the C cycles
#     monitor counters shows there (which stops at the same pc); mode,
#     ipc and ir (the word vpmu-dis lists at 0x100) are shown too;
#   - monitor dis lists the instructions at pc as vpmu-dis does;
#   - a register and memory written, read back, and restored;
#   - stepi over an addi and over a taken branch: pc the next
#     instruction, the branch's target;
#   - a write watchpoint fires at the store to its word (not at the store
#     beside it), with the value stored;
#   - a watched store that is the first instruction a continue runs (a
#     breakpoint on it) or a stepi does (stepped onto): reported once,
#     with the value it stored, as the next store is;
#   - monitor dis and ustep refuse a count that is not decimal (foo,
#     -1, 1x), and take 010 as ten;
#   - the same under share/build/max.vpmu ("vpmu32-max", vpmu32 padded);
#     under an image of another name the stub cannot decode the stores:
#     gdb cannot insert its watchpoint, and watches by single steps after
#     "set can-use-hw-watchpoints 0" (as rv32.rst says);
#   - continue to the HALT: gdb sees the exit ("exited normally"), and
#     vpmu-sim exits 0 and prints what an undebugged run prints (stop,
#     cycles, pc, all registers, every event total);
#   - a TRAP (sret in user mode) is a SIGILL stop, the next continue the
#     exit; vpmu-sim prints the trap, as undebugged;
#   - at the protocol's level (bash's /dev/tcp): Ctrl-C stops an endless
#     loop (T02), k kills it (exit 137); the budget's end is T18, then
#     W00 (vpmu-sim exits 0, stop budget); --hu prints no buckets
#     after a killed run, nor when the socket cannot be opened; a
#     register number that names no register (P100000005) is refused,
#     and so are addresses and lengths past 32 bits (m100000000,4);
#     resumed with a watchpoint still in, the store it stopped before
#     runs, not reported again;
#   - --gdb with -r 2 refused (exit 125).
#
# Skipped without gdb-multiarch (test_gdb_cli.sh installs it).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/gdb_tap.sh"
gdb_need "$GDB" "vpmu-sim --gdb on a vpmu32 program"
tap_build vpmu-sim vpmu-as vpmu-dis share

# The program: r1..r29 = 37 * N - 500, r30 and r31 from lui/ori and mul,
# then at 0x100 a loop of three, two stores and the HALT.
img=$tmp/default.vpmu
{
	printf '\t.entry start\n\t.memsize 0x400\nstart:\n'
	for i in $(seq 29); do
		printf '\taddi r%d, r0, %d\n' "$i" $((37 * i - 500))
	done
	cat <<'EOT'
	lui r30, 0x8123
	ori r30, r30, 0x4567
	mul r31, r29, r28
	j stage
	.org 0x100
stage:	addi r3, r0, 3		// 0x100
loop:	addi r3, r3, -1		// 0x104
	bne r3, r0, loop	// 0x108
	addi r4, r0, slot	// 0x10c
	sw r31, 0(r4)		// 0x110: the word beside the watched one
	sw r30, 4(r4)		// 0x114: the watched word
	halt			// 0x118
	.org 0x200
slot:	.word 0, 0
EOT
} >"$tmp/prog.s"
"$BIN/vpmu-as" -o "$img" "$UCODE_SRC" &&
	"$BIN/vpmu-as" -m "$img" -o "$tmp/prog.vprg" "$tmp/prog.s" &&
	"$BIN/vpmu-dis" -m "$img" "$tmp/prog.vprg" >"$tmp/prog.dis"
ok $? "the program (vpmu-as -m), its listing (vpmu-dis -m)"

# The registers at 0x100, as the program computes them: "xN 0xVALUE"
for i in $(seq 0 31); do
	case $i in
	0)	v=0 ;;
	30)	v=$((0x81234567)) ;;
	31)	v=$(((37 * 29 - 500) * (37 * 28 - 500))) ;;
	*)	v=$((37 * i - 500)) ;;
	esac
	printf 'x%d 0x%08x\n' "$i" $((v & 0xffffffff))
done >"$tmp/want.regs"
echo "pc 0x00000100" >>"$tmp/want.regs"

# listed ADDR - "TEXT|WORD": the listing's instruction at ADDR, its
# labels (Lxxxx) as the addresses they are
listed() {
	awk -v a="$(printf '%04x:' "$1")" 'NF > 2 && $(NF - 1) == a { w = $NF
		sub(/^\t/, ""); sub(/[ \t]*\/\/.*/, ""); print $0 "|" w }' \
		"$tmp/prog.dis" | sed -E 's/\<L0*([0-9a-f]+)\>/0x\1/g'
}

# serve NAME PROG [OPTION...] - vpmu-sim -E -v --gdb on the Unix socket
# $tmp/NAME.sock for PROG, in the background (its pid in vpid, its
# stdout and stderr in $tmp/NAME.out and .err), once it listens
serve() {
	local name=$1 prog=$2

	shift 2
	rm -f "$tmp/$name.err"
	timeout 120 "$BIN/vpmu-sim" -E -v "$@" --gdb="unix:$tmp/$name.sock" \
		"$prog" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	vpid=$!
	listening "$tmp/$name.err"
}

# session NAME - gdb's session ($tmp/NAME.cmds) against $tmp/NAME.sock,
# no file, into $tmp/NAME.gdb
session() {
	timeout 120 "$GDB" -batch -nx -ex 'set pagination off' \
		-ex "target remote $tmp/$1.sock" -x "$tmp/$1.cmds" \
		>"$tmp/$1.gdb" 2>&1
}

# section NAME - the session's lines after "@NAME" up to the next "@"
section() {
	awk -v s="@$1" '$0 == s { on = 1; next } /^@/ { on = 0 } on' \
		"$tmp/main.gdb"
}

{
	echo 'break *0x100'
	echo 'continue'
	echo 'echo @regs\n'
	for i in $(seq 0 31); do
		printf 'printf "x%d 0x%%08x\\n", $x%d\n' "$i" "$i"
	done
	echo 'printf "pc 0x%08x\n", $pc'
	echo 'echo @eng\n'
	echo 'printf "mode %d ipc 0x%x ir 0x%08x\n", $mode, $ipc, $ir'
	echo 'echo @counters\n'
	echo 'monitor counters'
	echo 'echo @dis\n'
	echo 'monitor dis 3'
	echo 'echo @write\n'
	echo 'set $x5 = 0x1234abcd'
	echo 'set {unsigned int}0x300 = 0xfeedbeef'
	echo 'set $ut7 = 0x55'
	echo 'printf "x5 0x%08x mem 0x%08x ut7 0x%x\n", $x5, *(unsigned int *)0x300, $ut7'
	printf 'set $x5 = %d\n' $((37 * 5 - 500))
	echo 'set {unsigned int}0x300 = 0'
	echo 'set $ut7 = 0'
	echo 'echo @stepi\n'
	echo 'stepi'
	echo 'printf "pc 0x%x x3 %d\n", $pc, $x3'
	echo 'stepi'
	echo 'stepi'
	echo 'printf "pc 0x%x x3 %d\n", $pc, $x3'
	echo 'delete'
	echo 'echo @watch\n'
	echo 'watch *(unsigned int *)0x204'
	echo 'continue'
	echo 'printf "pc 0x%x\n", $pc'
	echo 'delete'
	echo 'echo @end\n'
	echo 'continue'
} >"$tmp/main.cmds"

serve main "$tmp/prog.vprg"
session main
wait $vpid
vrc=$?
"$BIN/vpmu-sim" -E -v "$tmp/prog.vprg" >"$tmp/undebugged.out"
urc=$?

section regs >"$tmp/got.regs"
grep -q '^Breakpoint 1, 0x00000100 in ' "$tmp/main.gdb" &&
	diff "$tmp/want.regs" "$tmp/got.regs" >"$tmp/regs.diff"
st=$?
ok $st "break *0x100: x0..x31 and pc the program's values"
[ $st = 0 ] || sed 's/^/# /' "$tmp/regs.diff" "$tmp/main.gdb" | head -60

# vpmu-sim -v -b C: r0..r31 and pc after the cycles the stop took
cyc=$(section counters | awk '$1 == "cycles" { print $2 }')
"$BIN/vpmu-sim" -v -b "${cyc:-0}" "$tmp/prog.vprg" >"$tmp/b.out"
while read -r k r v _; do
	case $k in
	reg)	printf 'x%s 0x%08x\n' "${r#r}" "$v" ;;
	pc)	printf 'pc 0x%08x\n' $((r)) ;;
	esac
done <"$tmp/b.out" >"$tmp/b.regs"
[ -n "$cyc" ] && grep -q '^stop budget' "$tmp/b.out" &&
	diff <(sort "$tmp/b.regs") <(sort "$tmp/got.regs") >"$tmp/b.diff"
st=$?
ok $st "the same as vpmu-sim -v -b $cyc prints (monitor counters' cycles)"
[ $st = 0 ] || sed 's/^/# /' "$tmp/b.diff" "$tmp/b.out"

ir=$(listed 0x100 | sed 's/.*|//')
[ "$(section eng)" = "mode 0 ipc 0x100 ir 0x$ir" ]
ok $? "org.vpmu.vpmu32: mode user, ipc 0x100, ir the listed word ($ir)"

for a in 0x100 0x104 0x108; do
	IFS='|' read -r t w < <(listed $a)
	[ $a = 0x100 ] && m='=> ' || m='   '
	printf '%s0x%04x: %s  %s\n' "$m" $((a)) "$w" "$t"
done >"$tmp/want.dis"
section dis | diff "$tmp/want.dis" - >"$tmp/dis.diff"
st=$?
ok $st "monitor dis 3: the instructions at pc as vpmu-dis lists them"
[ $st = 0 ] || sed 's/^/# /' "$tmp/dis.diff"

[ "$(section write)" = "x5 0x1234abcd mem 0xfeedbeef ut7 0x55" ]
ok $? "a register, memory and a micro temporary written and read back"

want='0x00000104 in ?? () pc 0x104 x3 3 0x00000108 in ?? () '
want+='0x00000104 in ?? () pc 0x104 x3 2 '
[ "$(section stepi | tr '\n' ' ')" = "$want" ]
st=$?
ok $st "stepi: an addi to the next instruction, a taken bne to its target"
[ $st = 0 ] || section stepi | sed 's/^/# /'

section watch >"$tmp/watch"
grep -q '^New value = 2166572391$' "$tmp/watch" &&
	grep -q '^Old value = 0$' "$tmp/watch" &&
	[ "$(tail -n 1 "$tmp/watch")" = "pc 0x118" ]
st=$?
ok $st "a write watchpoint: the store to its word (at 0x114), not the one beside"
[ $st = 0 ] || sed 's/^/# /' "$tmp/watch"

grep -q '^\[Inferior 1 (Remote target) exited normally\]' "$tmp/main.gdb" &&
	[ "$vrc" = 0 ] && [ "$urc" = 0 ] &&
	grep -q '^stop halt$' "$tmp/undebugged.out" &&
	grep -q '^event insns [1-9]' "$tmp/undebugged.out" &&
	diff "$tmp/undebugged.out" "$tmp/main.out" >"$tmp/out.diff"
st=$?
ok $st "the HALT: exited normally, exit $vrc, the output (every count) an undebugged run's"
[ $st = 0 ] || sed 's/^/# /' "$tmp/out.diff" "$tmp/main.err"

# A TRAP: sret in user mode
printf '\t.entry start\nstart:\taddi r1, r0, 9\n\tsret\n\thalt\n' \
	>"$tmp/trap.s"
"$BIN/vpmu-as" -m "$img" -o "$tmp/trap.vprg" "$tmp/trap.s"
printf 'continue\nprintf "pc 0x%%x x1 %%d\\n", $pc, $x1\ncontinue\n' \
	>"$tmp/trap.cmds"
serve trap "$tmp/trap.vprg"
session trap
wait $vpid
vrc=$?
"$BIN/vpmu-sim" -E -v "$tmp/trap.vprg" >"$tmp/trap.want"
grep -q '^Program received signal SIGILL' "$tmp/trap.gdb" &&
	grep -q '^pc 0x4 x1 9$' "$tmp/trap.gdb" &&
	grep -q 'exited normally' "$tmp/trap.gdb" && [ "$vrc" = 0 ] &&
	grep -q '^stop trap 2$' "$tmp/trap.out" &&
	diff "$tmp/trap.want" "$tmp/trap.out" >/dev/null
st=$?
ok $st "a TRAP (sret in user mode): SIGILL at its pc, then the exit; output as undebugged"
[ $st = 0 ] || sed 's/^/# /' "$tmp/trap.gdb" "$tmp/trap.out"

# A store that is the first instruction a continue or a stepi runs: sw at
# 0xc stores 77 to 0x204, sw at 0x14 then 2
cat >"$tmp/st.s" <<'EOT'
	.entry start
	.memsize 0x400
start:	addi r1, r0, 77		// 0x0
	addi r2, r0, 2		// 0x4
	addi r4, r0, 0x200	// 0x8
	sw r1, 4(r4)		// 0xc
	addi r5, r0, 1		// 0x10
	sw r2, 4(r4)		// 0x14
	halt			// 0x18
	.org 0x200
	.word 0, 0
EOT
"$BIN/vpmu-as" -m "$img" -o "$tmp/st.vprg" "$tmp/st.s"

# watched NAME - the session's watchpoint stops: "OLD>NEW@PC" each
watched() {
	awk '/^Old value = / { o = $4 } /^New value = / { n = $4 }
		/^pc 0x/ && n != "" { print o ">" n "@" $2; n = "" }' \
		"$tmp/$1.gdb" | tr '\n' ' '
}

# watch_case NAME TEXT [OPTION...] - the session NAME.cmds on st.vprg
# (vpmu-sim OPTION...): test TEXT, its watchpoint stops both stores,
# each once, 0 to 77 at 0x10 then 77 to 2 at 0x18
watch_case() {
	local name=$1 text=$2 st

	shift 2
	serve "$name" "$tmp/st.vprg" "$@"
	session "$name"
	wait $vpid
	[ "$(watched "$name")" = "0>77@0x10 77>2@0x18 " ]
	st=$?
	ok $st "$text"
	[ $st = 0 ] || sed 's/^/# /' "$tmp/$name.gdb"
}

# break *0xc stops on the first store; the next continue runs it first
printf '%s\n' 'break *0xc' 'watch *(unsigned int *)0x204' continue \
	continue 'printf "pc 0x%x\n", $pc' \
	continue 'printf "pc 0x%x\n", $pc' delete continue >"$tmp/stbp.cmds"
watch_case stbp "a watched store at a breakpoint: continue reports it (77 at 0x10, then 2)"

# stepi onto the first store, then stepi over it
printf '%s\n' 'break *0x8' continue delete 'watch *(unsigned int *)0x204' \
	stepi stepi 'printf "pc 0x%x\n", $pc' \
	continue 'printf "pc 0x%x\n", $pc' delete continue >"$tmp/stst.cmds"
watch_case stst "a watched store stepped onto: the stepi over it reports it, once"

# monitor dis and ustep: N in decimal, junk refused
printf '%s\n' 'monitor dis foo' 'monitor dis -1' 'monitor ustep 1x' \
	'echo @dis010\n' 'monitor dis 010' 'echo @end\n' continue >"$tmp/junk.cmds"
serve junk "$tmp/st.vprg"
session junk
wait $vpid
awk '/^@dis010/ { on = 1; next } /^@end/ { on = 0 } on' "$tmp/junk.gdb" \
	>"$tmp/dis010"
[ "$(grep -c "is not a count" "$tmp/junk.gdb")" = 3 ] &&
	grep -q '^monitor dis: .*"foo"' "$tmp/junk.gdb" &&
	grep -q '^monitor dis: .*"-1"' "$tmp/junk.gdb" &&
	grep -q '^monitor ustep: .*"1x"' "$tmp/junk.gdb" &&
	[ "$(grep -c '^\(=>\|  \) 0x' "$tmp/dis010")" = 10 ]
st=$?
ok $st "monitor dis foo, dis -1, ustep 1x refused; dis 010 is ten"
[ $st = 0 ] || sed 's/^/# /' "$tmp/junk.gdb"

# vpmu32's family by name: max.vpmu, the instruction set padded
max=$SHARE/build/max.vpmu
if [ -f "$max" ]; then
	cp "$tmp/stbp.cmds" "$tmp/stmax.cmds"
	watch_case stmax "a write watchpoint under max.vpmu (vpmu32-max)" \
		-m "$max"
else
	skip "a write watchpoint under max.vpmu (vpmu32-max)" "no $max"
fi

# An image of another name: its stores are not decoded
sed 's/^\.name .*/.name "other32"/' "$UCODE_SRC" >"$tmp/other.vus"
"$BIN/vpmu-as" -o "$tmp/other.vpmu" "$tmp/other.vus"
cp "$tmp/stbp.cmds" "$tmp/sthw.cmds"
serve sthw "$tmp/st.vprg" -m "$tmp/other.vpmu"
session sthw
kill $vpid 2>/dev/null
wait $vpid
{ echo 'set can-use-hw-watchpoints 0'; cat "$tmp/stbp.cmds"; } >"$tmp/stsw.cmds"
serve stsw "$tmp/st.vprg" -m "$tmp/other.vpmu"
session stsw
wait $vpid
grep -q '^Could not insert hardware watchpoint 2' "$tmp/sthw.gdb" &&
	grep -q '^Watchpoint 2: ' "$tmp/stsw.gdb" &&
	[ "$(watched stsw)" = "0>77@0x10 77>2@0x18 " ]
st=$?
ok $st "another image: no hardware watchpoint; can-use-hw-watchpoints 0 watches"
[ $st = 0 ] || sed 's/^/# /' "$tmp/sthw.gdb" "$tmp/stsw.gdb"

printf '\t.entry start\nstart:\taddi r1, r1, 1\n\tj start\n' >"$tmp/loop.s"
"$BIN/vpmu-as" -m "$img" -o "$tmp/loop.vprg" "$tmp/loop.s"
ctrlc_kill "$tmp/loop.vprg"
[ "$r1" = T02 ] && [[ $r2 =~ ^0[04]000000$ ]] && [ "$vrc" = 137 ] &&
	grep -q 'killed by gdb' "$tmp/raw.err"
ok $? "Ctrl-C stops the endless loop ($r1, pc $r2), k kills it (exit $vrc)"

budget_end "$tmp/loop.vprg"
[ "$r1" = T18 ] && [ "$r2" = W00 ] && [ "$vrc" = 0 ] &&
	grep -q '^stop budget$' "$tmp/raw.out"
ok $? "the budget's end: $r1 (SIGXCPU), then $r2; exit $vrc, stop budget"

# Register numbers that name no register, the low bits x5's: refused
p=$(port)
raw "$p" 1M "$tmp/loop.vprg"
put P100000005=11111111
reply
r1=$body
put P5x=11111111
reply
r2=$body
put p5
reply
r3=$body
put P5=22222222
reply
r4=$body
put p5
reply
r5=$body
# Addresses and lengths past 32 bits or with a sign: refused, not
# wrapped (m100000000,4 read address 0); the word at 0 still read
put m100000000,4
reply
m1=$body
put m-4,4
reply
m2=$body
put M100000000,4:00000000
reply
m3=$body
put m0,100000004
reply
m4=$body
put m0,4
reply
m5=$body
put k
reply
exec 3<&-
wait $vpid
[ "$r1 $r2 $r3 $r4 $r5" = "E01 E01 00000000 OK 22222222" ]
ok $? "P100000005 and P5x refused, x5 left as it was; P5 written ($r1 $r2 $r3 $r4 $r5)"
# the program's first word: the file's bytes after its header
# (struct vpmu_program_header's header_size, the third word)
hdr=$(od -An -tu4 -j 8 -N4 "$tmp/loop.vprg" | tr -d ' ')
word0=$(od -An -tx1 -j "$hdr" -N4 "$tmp/loop.vprg" | tr -d ' ')
[ "$m1 $m2 $m3 $m4" = "E01 E01 E01 E01" ] && [ "$m5" = "$word0" ]
ok $? "m and M past 32 bits or signed refused ($m1 $m2 $m3 $m4); m0,4 the program's first word ($m5 = $word0)"

# A client that resumes with the watchpoint still in, as gdb does not:
# the store it stopped before runs then, reported once, not again
p=$(port)
raw "$p" 1M "$tmp/st.vprg"
got=
for k in Z2,204,4 c p20 c p20 c; do
	put $k
	reply
	got+="$body "
done
exec 3<&-
wait $vpid
[ "$got" = "OK T05watch:204; 0c000000 T05watch:204; 14000000 W00 " ]
ok $? "raw Z2 then c, c, c: each store once, then the exit ($got)"

# A killed run, or one gdb never came to, has no --hu buckets to print
p=$(port)
raw "$p" 1M "$tmp/loop.vprg" --hu='seq;vpmu_insns 100'
put s
reply
put s
reply
put k
reply
exec 3<&-
wait $vpid
vrc=$?
timeout 10 "$BIN/vpmu-sim" --hu='seq;vpmu_insns 100' \
	--gdb=unix:/nonexistent/x.sock "$tmp/loop.vprg" >"$tmp/nohu.out" 2>/dev/null
nrc=$?
[ "$vrc" = 137 ] && ! grep -q '^hist' "$tmp/raw.out" &&
	[ "$nrc" = 125 ] && ! grep -q '^hist' "$tmp/nohu.out"
st=$?
ok $st "--hu: no buckets after a killed run (exit $vrc) or a refused socket (exit $nrc)"
[ $st = 0 ] || sed 's/^/# /' "$tmp/raw.out" "$tmp/nohu.out"

# bounded: were it taken, it would wait for gdb
timeout 10 "$BIN/vpmu-sim" -r 2 --gdb="unix:$tmp/usage.sock" "$tmp/prog.vprg" \
	>/dev/null 2>"$tmp/usage.err"
[ $? = 125 ] && grep -q -- '--gdb runs once' "$tmp/usage.err"
ok $? "--gdb with -r 2 refused (exit 125)"

tap_done
