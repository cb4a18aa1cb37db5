#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_gdb_cli.sh - vpmu-sim --gdb against qemu-riscv32 -g (TAP): the same
# gdb-multiarch batch session on a C program built with vpmu-cc -g (a
# breakpoint on a function, info registers, stepi, step, a write
# watchpoint, continue to the exit) against both, and:
#
#   - every register but sp the same at each of the session's stops;
#   - the stops where they should be (the breakpoint's function, the
#     watchpoint's store), the exit code gdb reports and the program's
#     output and exit status the same;
#   - vpmu-sim --stats after the debugged run the same as after an
#     undebugged one (how it ended, every event total, x0..x31, pc; the
#     translation cache's line left out: stepping runs one microword at a
#     time, which the cache does not translate);
#   - a watched store that is the first instruction a stepi or a
#     continue runs (stepped onto, or a breakpoint on it) shown once, as
#     under qemu-riscv32 -g;
#   - a session on a Unix socket (--gdb=unix:PATH) to the exit, memory
#     read, written and read back, a register written;
#   - at the protocol's level (bash's /dev/tcp, no gdb): Ctrl-C stops an
#     endless loop (T02), k kills it (exit 137), and the budget's end is
#     SIGXCPU (T18, then X18 on a continue; exit 124);
#   - the counter CSRs in the target description (cycle, instret, ...),
#     each what the program reads with csrr at the same point, read only;
#   - a bad --gdb argument refused (exit 125).
#
# gdb-multiarch, qemu-user, the cross compiler and picolibc are installed
# when missing (root, apt); without them the test is skipped.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/gdb_tap.sh"
QEMU=${QEMU_RISCV32:-qemu-riscv32}
RVCC=${RV32_CC:-riscv64-unknown-elf-gcc}
PICOLIBC=/usr/lib/picolibc/riscv64-unknown-elf

pkgs=
command -v "$GDB" >/dev/null 2>&1 || pkgs=gdb-multiarch
command -v "$QEMU" >/dev/null 2>&1 || pkgs="$pkgs qemu-user"
command -v "$RVCC" >/dev/null 2>&1 || pkgs="$pkgs gcc-riscv64-unknown-elf"
[ -f "$PICOLIBC/include/stdio.h" ] ||
	pkgs="$pkgs picolibc-riscv64-unknown-elf"
# shellcheck source=../../pkg/apt.sh
. "$TOP/tools/pkg/apt.sh"
# shellcheck disable=SC2086 # one word per package
apt_install_missing $pkgs
for c in "$GDB" "$QEMU" "$RVCC"; do
	gdb_need "$c" "vpmu-sim --gdb against qemu-riscv32 -g"
done
tap_build vpmu-sim vpmu-cc
export VPMU_CC_CACHE=$tmp/cache

cat >"$tmp/prog.c" <<'EOF'
#include <stdio.h>

int counter;

static __attribute__((noinline)) int square(int n)
{
	int r = n * n;

	counter += r;
	return r;
}

int main(void)
{
	int i, sum = 0;

	for (i = 0; i < 4; i++)
		sum += square(i);
	printf("sum %d\n", sum);
	return sum == 14 ? 3 : 1;
}
EOF
"$BIN/vpmu-cc" -g -O0 -o "$tmp/prog.elf" "$tmp/prog.c" 2>"$tmp/cc.err"
ok $? "vpmu-cc -g -O0: the program to debug"

# The session: each stop's registers after a "STOP name" line.
cat >"$tmp/cmds.gdb" <<'EOF'
set pagination off
set confirm off
break square
continue
echo STOP break\n
info registers
stepi
echo STOP stepi\n
info registers
step
echo STOP step\n
info registers
delete
watch counter
continue
echo STOP watch\n
info registers
delete
continue
EOF

# gdb_batch NAME ELF CMDS TARGET [GDB-COMMAND] - gdb on ELF against
# TARGET, GDB-COMMAND before it connects, then the commands of the file
# CMDS, into $tmp/NAME.gdb
gdb_batch() {
	timeout 120 "$GDB" -batch -nx -ex "file $2" -ex "${5:-echo}" \
		-ex "target remote $4" -x "$3" >"$tmp/$1.gdb" 2>&1
}

# session NAME TARGET [GDB-COMMAND] - gdb's session against TARGET into
# $tmp/NAME.gdb
session() {
	gdb_batch "$1" "$tmp/prog.elf" "$tmp/cmds.gdb" "$2" "${3:-}"
}

# regs NAME - "STOP reg value" lines of each stop: ra..t6 (gdb does not
# show zero) and pc, sp left out
regs() {
	awk '$1 == "STOP" { stop = $2; next }
	     stop != "" && $2 ~ /^0x/ && $1 != "sp" { print stop, $1, $2 }
	     /^\[Inferior/ { stop = "" }' "$tmp/$1.gdb"
}

p=$(port)
# each vpmu-sim --gdb bounded: a gdb that never came would leave it waiting
timeout 120 "$BIN/vpmu-sim" --gdb="$p" --stats "$tmp/prog.elf" \
	>"$tmp/v.out" 2>"$tmp/v.stats" &
vpid=$!
session vpmu "localhost:$p"
wait $vpid
vrc=$?
q=$(port)
[ "$q" = "$p" ] && q=$((p + 1))
"$QEMU" -g "$q" "$tmp/prog.elf" >"$tmp/q.out" 2>/dev/null &
qpid=$!
# qemu-user has no watchpoints: gdb's own, stepping, stop where a
# RISC-V hardware one does (before the store, which gdb steps over)
session qemu "localhost:$q" "set can-use-hw-watchpoints 0"
wait $qpid
qrc=$?

grep -q '^Breakpoint 1, square (n=0)' "$tmp/vpmu.gdb"
ok $? "vpmu-sim --gdb: gdb stops at the breakpoint on square()"
[ "$(grep -c '^STOP' "$tmp/vpmu.gdb")" = 4 ] &&
	grep -q '^Hardware watchpoint 2: counter' "$tmp/vpmu.gdb" &&
	grep -A3 '^Old value = 0' "$tmp/vpmu.gdb" |
	tr '\n' ' ' | grep -q 'New value = 1 square (n=1) at .*prog.c:10'
ok $? "vpmu-sim --gdb: four stops, the write watchpoint on counter after its store"
regs vpmu >"$tmp/vpmu.regs"
regs qemu >"$tmp/qemu.regs"
[ "$(wc -l <"$tmp/vpmu.regs")" = $((4 * 31)) ] &&
	diff "$tmp/qemu.regs" "$tmp/vpmu.regs" >"$tmp/regs.diff"
ok $? "every register but sp at each stop as under qemu-riscv32 -g"
[ -s "$tmp/regs.diff" ] && sed 's/^/# /' "$tmp/regs.diff"
grep -q 'exited with code 03\]' "$tmp/vpmu.gdb" &&
	grep -q 'exited with code 03\]' "$tmp/qemu.gdb"
ok $? "gdb sees the program exit with code 3, as under qemu-riscv32"
[ "$vrc" = 3 ] && [ "$qrc" = 3 ] && cmp -s "$tmp/v.out" "$tmp/q.out"
ok $? "vpmu-sim --gdb exits 3 ($vrc), qemu-riscv32 too ($qrc), same output"

"$BIN/vpmu-sim" --stats "$tmp/prog.elf" >"$tmp/u.out" 2>"$tmp/u.stats"
grep -v -e '^tc ' -e 'waiting for gdb' "$tmp/v.stats" >"$tmp/v.cmp"
grep -v '^tc ' "$tmp/u.stats" >"$tmp/u.cmp"
grep -q '^event insns [1-9]' "$tmp/u.cmp" &&
	diff "$tmp/u.cmp" "$tmp/v.cmp" >"$tmp/stats.diff"
ok $? "--stats after the debugged run as after an undebugged one"
[ -s "$tmp/stats.diff" ] && sed 's/^/# /' "$tmp/stats.diff"

# serve NAME ELF - vpmu-sim --gdb on the Unix socket $tmp/NAME.sock for
# ELF, in the background (its pid in vpid, its stderr in $tmp/NAME.err),
# once it listens
serve() {
	rm -f "$tmp/$1.err"
	timeout 120 "$BIN/vpmu-sim" --gdb="unix:$tmp/$1.sock" "$2" \
		>/dev/null 2>"$tmp/$1.err" &
	vpid=$!
	listening "$tmp/$1.err"
}

# A watched store that is the first instruction a resume runs: stepped
# onto (stepi, then stepi), and stopped on by a breakpoint (continue,
# then continue); gdb shows each store once, as under qemu-riscv32 -g.
# word has a value: with .bss alone the RW segment shares the text's
# page, which qemu-riscv32 cannot map (SIGSEGV at _start).
cat >"$tmp/st.c" <<'EOF2'
int word = 5;

int main(void)
{
	__asm__ volatile(".globl st0, st1, st2\n"
			 "st0:\tnop\n"
			 "st1:\tsw %1, 0(%0)\n"
			 "\tnop\n"
			 "st2:\tsw %2, 0(%0)\n"
			 : : "r"(&word), "r"(77), "r"(2) : "memory");
	return 0;
}
EOF2
"$BIN/vpmu-cc" -g -O0 -o "$tmp/st.elf" "$tmp/st.c" 2>>"$tmp/cc.err"
cat >"$tmp/st.cmds" <<'EOF2'
set pagination off
set confirm off
break *st0
continue
watch word
stepi
stepi
printf "STOP pc st1+%d\n", $pc - (int)st1
break *st2
continue
continue
printf "STOP pc st2+%d\n", $pc - (int)st2
delete
continue
EOF2
# stsession NAME TARGET [GDB-COMMAND] - the session on st.elf into
# $tmp/NAME.gdb; $tmp/NAME.st: its watchpoint stops' values and pcs
stsession() {
	gdb_batch "$1" "$tmp/st.elf" "$tmp/st.cmds" "$2" "${3:-}"
	grep -e '^Old value' -e '^New value' -e '^STOP' -e 'exited' \
		"$tmp/$1.gdb" | sed 's/.*\(exited normally\).*/\1/' >"$tmp/$1.st"
}
serve stv "$tmp/st.elf"
stsession stv "$tmp/stv.sock"
wait $vpid
q=$(port)
"$QEMU" -g "$q" "$tmp/st.elf" >/dev/null 2>&1 &
qpid=$!
stsession stq "localhost:$q" "set can-use-hw-watchpoints 0"
wait $qpid
[ "$(grep -c '^New value' "$tmp/stv.st")" = 2 ] &&
	diff "$tmp/stq.st" "$tmp/stv.st" >"$tmp/st.diff"
st=$?
ok $st "a watched store stepped onto, and one at a breakpoint: each once, as under qemu"
[ $st = 0 ] || cat "$tmp/st.diff" "$tmp/stv.gdb" 2>/dev/null | sed 's/^/# /'

sock=$tmp/unix.sock
serve unix "$tmp/prog.elf"
# 8 KiB of code read (m), written to free memory (M) and read back; a
# register written (P) and read (p)
timeout 60 "$GDB" -batch -nx -ex "file $tmp/prog.elf" \
	-ex "target remote $sock" -ex 'break main' -ex continue \
	-ex "dump binary memory $tmp/a.bin 0x10000 0x12000" \
	-ex "restore $tmp/a.bin binary 0x30000" \
	-ex "dump binary memory $tmp/b.bin 0x30000 0x32000" \
	-ex 'set var $t6 = 0x1234abcd' -ex 'echo T6 \n' -ex 'p/x $t6' \
	-ex continue >"$tmp/unix.gdb" 2>&1
wait $vpid
vrc=$?
grep -q '^Breakpoint 1, main ()' "$tmp/unix.gdb" &&
	grep -q 'exited with code 03\]' "$tmp/unix.gdb" && [ "$vrc" = 3 ]
st=$?
ok $st "--gdb=unix:PATH: a session to the exit on a Unix socket"
[ $st = 0 ] || sed 's/^/# /' "$tmp/unix.err" "$tmp/unix.gdb"
[ "$(stat -c %s "$tmp/a.bin" 2>/dev/null)" = 8192 ] &&
	cmp -s "$tmp/a.bin" "$tmp/b.bin" &&
	grep -A1 '^T6' "$tmp/unix.gdb" | grep -q '= 0x1234abcd'
ok $? "memory read and written in 2 KiB packets, a register written"

printf 'volatile int i;\nint main(void)\n{\n\tfor (;;)\n\t\ti++;\n}\n' \
	>"$tmp/loop.c"
"$BIN/vpmu-cc" -O0 -o "$tmp/loop.elf" "$tmp/loop.c" 2>>"$tmp/cc.err"

ctrlc_kill "$tmp/loop.elf"
[ "$r1" = T02 ] && [[ $r2 =~ ^[0-9a-f]{8}$ ]] && [ "$vrc" = 137 ] &&
	grep -q 'killed by gdb' "$tmp/raw.err"
ok $? "Ctrl-C stops a running loop ($r1, pc $r2), k kills it (exit $vrc)"

budget_end "$tmp/loop.elf"
[ "$r1" = T18 ] && [ "$r2" = X18 ] && [ "$vrc" = 124 ]
ok $? "the budget's end: $r1 (SIGXCPU), then $r2, exit $vrc"

# The counter CSRs the image reads (CTR), in the target description:
# at the stop before "rdinstret a3", $instret is what a3 gets (the
# instructions retired before it); after "rdcycle a4", $cycle is a4 + 1
# (the CTR microword ends a cycle before the instruction's last); every
# hpmcounter a program reads 0 (vpmu-sim enables no counter), and the
# monitor's cycles agree; a write is refused (read only, as the image
# makes them).
cat >"$tmp/csr.c" <<'EOF2'
unsigned int ic, cc;

int main(void)
{
	unsigned int a, b;

	__asm__ volatile("rdinstret %0" : "=r"(a));
	__asm__ volatile("rdcycle %0" : "=r"(b));
	ic = a;
	cc = b;
	return 0;
}
EOF2
"$BIN/vpmu-cc" -g -O1 -o "$tmp/csr.elf" "$tmp/csr.c" 2>>"$tmp/cc.err"
serve csr "$tmp/csr.elf"
timeout 60 "$GDB" -batch -nx -ex "file $tmp/csr.elf" \
	-ex "target remote $tmp/csr.sock" -ex 'break main' -ex continue \
	-ex 'echo I0 \n' -ex 'p $instret' -ex stepi \
	-ex 'echo A3 \n' -ex 'p $a3' -ex stepi \
	-ex 'echo A4 \n' -ex 'p $a4' -ex 'echo C1 \n' -ex 'p $cycle' \
	-ex 'echo H \n' -ex 'p $hpmcounter3 + $hpmcounter31 + $cycleh' \
	-ex 'monitor counters' -ex 'set var $instret = 7' \
	-ex continue >"$tmp/csr.gdb" 2>&1
wait $vpid
vrc=$?
val() {	# the value gdb printed after "$1"
	grep -A1 "^$1 *\$" "$tmp/csr.gdb" | sed -n 's/^\$[0-9]* = //p'
}
i0=$(val I0) a3=$(val A3) a4=$(val A4) c1=$(val C1)
[ -n "$i0" ] && [ "$i0" -gt 0 ] && [ "$i0" = "$a3" ] &&
	[ -n "$a4" ] && [ "$c1" = $((a4 + 1)) ] && [ "$(val H)" = 0 ] &&
	grep -q "^cycles $c1\$" "$tmp/csr.gdb" &&
	grep -q 'Could not write register "instret"' "$tmp/csr.gdb" &&
	grep -q 'exited normally' "$tmp/csr.gdb" && [ "$vrc" = 0 ]
st=$?
ok $st "counter CSRs: \$instret $i0 as rdinstret reads it ($a3), \$cycle $c1 after rdcycle $a4, read only"
[ $st = 0 ] || sed 's/^/# /' "$tmp/csr.gdb"

"$BIN/vpmu-sim" --gdb=port "$tmp/prog.elf" >/dev/null 2>"$tmp/bad.err"
[ $? = 125 ] && grep -q "bad --gdb 'port'" "$tmp/bad.err"
ok $? "--gdb=port: refused, exit 125"

tap_done
