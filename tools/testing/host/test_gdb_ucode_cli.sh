#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_gdb_ucode_cli.sh - vpmu-sim --gdb's monitor commands: the microcode
# beneath an RV32 program under gdb-multiarch (TAP).  The image is
# share/ucode/rv32im.vus assembled with vpmu-as -f elf (its labels as
# symbols); its listing by vpmu-dis is the independent reference:
#
#   - monitor ubreak i_op (a label) stops the continue on i_op's
#     microword, as a SIGTRAP with pc the instruction's; monitor upc shows
#     the address the listing gives i_op and the listing's microword;
#   - there, monitor counters shows the cycles C and event totals that
#     vpmu-sim -b C --stats shows for an undebugged run, which stops at
#     the same pc;
#   - monitor ustep 3, then ustep one at a time, walk a MUL through the
#     microcode as rv32im.vus routes it (i_op+3, op_f7, op_m, op_mtab,
#     next), each microword shown as the listing has it at its address;
#   - monitor ubreak ADDR (op_mtab's, a number) stops the next MUL there;
#     monitor udelete removes it, a bad label is refused;
#   - vpmu-sim --stats after the debugged run (micro-PC breakpoints,
#     usteps, continue to the exit) the same as after an undebugged one;
#   - monitor ustep past the program's exit says so, and the next
#     continue reports the exit, the counts again an undebugged run's.
#
# Skipped without gdb-multiarch (test_gdb_cli.sh installs it).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/gdb_tap.sh"
gdb_need "$GDB" "vpmu-sim --gdb monitor commands"
tap_build vpmu-sim vpmu-cc vpmu-as vpmu-dis
export VPMU_CC_CACHE=$tmp/cache

cat >"$tmp/prog.c" <<'EOT'
static __attribute__((noinline)) int square(int n)
{
	return n * n;
}

int main(void)
{
	int i, sum = 0;

	for (i = 0; i < 4; i++)
		sum += square(i);
	return sum == 14 ? 3 : 1;
}
EOT
img=$tmp/rv32im.vpmu
"$BIN/vpmu-cc" -g -O0 -o "$tmp/prog.elf" "$tmp/prog.c" 2>"$tmp/cc.err" &&
	"$BIN/vpmu-as" -f elf -o "$img" "$SHARE/ucode/rv32im.vus" &&
	"$BIN/vpmu-dis" "$img" >"$tmp/img.dis"
ok $? "the program (vpmu-cc -g -O0), the image (vpmu-as -f elf), its listing"

# The listing's microwords, one a line in address order ($tmp/uw, line
# ADDR+1), and each label's address ($tmp/labels: "NAME ADDR").
awk '/^\t/ { sub(/^\t/, ""); print > "/dev/stderr"; n++; next }
     /^[A-Za-z_.][A-Za-z0-9_.]*:$/ { sub(/:$/, ""); print $0, n }' \
	"$tmp/img.dis" >"$tmp/labels" 2>"$tmp/uw"
addr() { awk -v l="$1" '$1 == l { print $2 }' "$tmp/labels"; }
i_op=$(addr i_op)
op_mtab=$(addr op_mtab)

cat >"$tmp/cmds.gdb" <<EOT
set pagination off
set confirm off
monitor ubreak nosuch
monitor ubreak i_op
continue
echo STOP i_op\n
info registers pc
monitor upc
monitor counters
echo USTEP\n
monitor ustep 3
monitor ustep
monitor ustep
monitor ustep
monitor ustep
echo END\n
monitor udelete i_op
monitor ubreak $op_mtab
continue
echo STOP op_mtab\n
monitor upc
monitor udelete
continue
EOT
# a free TCP port (none listening on it now, if ss can tell): gdb
# retries the connection while vpmu-sim opens it
for _ in $(seq 20); do
	p=$((20000 + RANDOM % 20000))
	command -v ss >/dev/null 2>&1 || break
	ss -Htln "sport = :$p" 2>/dev/null | grep -q . || break
done
timeout 120 "$BIN/vpmu-sim" -m "$img" --gdb="$p" --stats "$tmp/prog.elf" \
	>/dev/null 2>"$tmp/v.stats" &
vpid=$!
timeout 120 "$GDB" -batch -nx -ex "file $tmp/prog.elf" \
	-ex "target remote localhost:$p" -x "$tmp/cmds.gdb" \
	>"$tmp/s.gdb" 2>&1
wait $vpid
vrc=$?

# section NAME - the session's lines after "STOP NAME" or "NAME" up to
# the next such line
section() {
	awk -v s="$1" '$0 == "STOP " s || $0 == s { on = 1; next }
		       /^(STOP |USTEP$|END$)/ { on = 0 } on' "$tmp/s.gdb"
}
# listed - true if every "upc 0xADDR LABEL: TEXT" line on stdin has the
# listing's microword at ADDR
listed() {
	local a t

	while read -r _ a _ t; do
		[ "$(sed -n "$((a + 1))p" "$tmp/uw")" = "$t" ] || return 1
	done
}

grep -q "no microword 'nosuch'" "$tmp/s.gdb" &&
	grep -q "micro-PC breakpoint at 0x$(printf %x "$i_op") set" "$tmp/s.gdb"
ok $? "monitor ubreak: a label set (i_op, $i_op), a bad one refused"

section i_op >"$tmp/i_op"
grep -q '^Program received signal SIGTRAP' "$tmp/s.gdb" &&
	grep -q "^upc 0x$(printf %x "$i_op") i_op: " "$tmp/i_op" &&
	grep '^upc ' "$tmp/i_op" | listed
st=$?
ok $st "the continue stops on i_op's microword, shown as the listing has it"
[ $st = 0 ] || sed 's/^/# /' "$tmp/s.gdb"

pc=$(awk '$1 == "pc" { print $2 }' "$tmp/i_op")
cyc=$(awk '$1 == "cycles" { print $2 }' "$tmp/i_op")
"$BIN/vpmu-sim" -m "$img" -b "${cyc:-0}" --stats "$tmp/prog.elf" \
	>/dev/null 2>"$tmp/b.stats"
grep '^event ' "$tmp/i_op" >"$tmp/i_op.ev"
grep '^event ' "$tmp/b.stats" >"$tmp/b.ev"
[ -n "$pc" ] && grep -q "^stop budget at pc $pc\$" "$tmp/b.stats" &&
	grep -q '^event insns [1-9]' "$tmp/b.ev" &&
	diff "$tmp/b.ev" "$tmp/i_op.ev" >"$tmp/ev.diff"
ok $? "monitor counters there: the events of vpmu-sim -b $cyc, which stops at pc $pc too"
[ -s "$tmp/ev.diff" ] && sed 's/^/# /' "$tmp/ev.diff"

section USTEP >"$tmp/ustep"
awk '{ print $3 }' "$tmp/ustep" | tr '\n' ' ' >"$tmp/flow"
[ "$(cat "$tmp/flow")" = "i_op+3: op_f7: op_m: op_mtab: next: " ] &&
	listed <"$tmp/ustep"
st=$?
ok $st "monitor ustep 3, ustep x4: a MUL's microwords as rv32im.vus routes it"
[ $st = 0 ] || sed 's/^/# /' "$tmp/ustep"

section op_mtab >"$tmp/op_mtab"
grep -q "^upc 0x$(printf %x "$op_mtab") op_mtab: MUL " "$tmp/op_mtab" &&
	grep -q 'micro-PC breakpoints deleted' "$tmp/s.gdb"
ok $? "monitor ubreak $op_mtab (a number): the next MUL stops on op_mtab"

"$BIN/vpmu-sim" -m "$img" --stats "$tmp/prog.elf" >/dev/null \
	2>"$tmp/u.stats"
urc=$?
grep -v -e '^tc ' -e 'waiting for gdb' "$tmp/v.stats" >"$tmp/v.cmp"
grep -v '^tc ' "$tmp/u.stats" >"$tmp/u.cmp"
grep -q 'exited with code 03\]' "$tmp/s.gdb" && [ "$vrc" = 3 ] &&
	[ "$urc" = 3 ] && grep -q '^event insns [1-9]' "$tmp/u.cmp" &&
	diff "$tmp/u.cmp" "$tmp/v.cmp" >"$tmp/stats.diff"
ok $? "the exit, and --stats after the debugged run as after an undebugged one"
[ -s "$tmp/stats.diff" ] && sed 's/^/# /' "$tmp/stats.diff"

# monitor ustep past the exit: said so, then the continue reports it
p2=$((p + 1))
timeout 120 "$BIN/vpmu-sim" -m "$img" --gdb="$p2" --stats "$tmp/prog.elf" \
	>/dev/null 2>"$tmp/v2.stats" &
vpid=$!
timeout 120 "$GDB" -batch -nx -ex "file $tmp/prog.elf" \
	-ex "target remote localhost:$p2" -ex 'monitor ustep 100000000' \
	-ex continue >"$tmp/s2.gdb" 2>&1
wait $vpid
vrc=$?
grep -v -e '^tc ' -e 'waiting for gdb' "$tmp/v2.stats" >"$tmp/v2.cmp"
grep -q '^the program exited' "$tmp/s2.gdb" &&
	grep -q 'exited with code 03\]' "$tmp/s2.gdb" && [ "$vrc" = 3 ] &&
	diff "$tmp/u.cmp" "$tmp/v2.cmp" >/dev/null
ok $? "monitor ustep past the exit: the continue reports it, the counts unchanged"

tap_done
