#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_rv32.sh - RV32IMAC on the engine against qemu-riscv32 (TAP): the C
# samples (tools/vpmu/share/rv32, built by tools/vpmu's "make rv32" for
# rv32im and "make rv32c" for rv32imac) and random programs (gen_rv32.c: every
# instruction once, then random ones with edge operands; with -c the
# compressed ones too, with -a the atomics, with -m misaligned loads and
# stores) run under vpmu-sim -m rv32im.vpmu and under
# qemu-riscv32, and must agree exactly on:
#
#   - the output and the exit status;
#   - the instructions executed: qemu-riscv32 -singlestep -d nochain,exec
#     logs one "Trace" line per instruction, the exit ecall included;
#     vpmu-sim's decode tag (tag1, which --stats names "decode" as
#     rv32im.vus does) counts the same, and its retired count (insns) is
#     one less (the exit ecall does not retire);
#   - x0..x31 at the exit ecall: qemu -d cpu with -dfilter on that one
#     address logs them as the ecall finds them, vpmu-sim --stats too.
#
# The cross compiler and qemu-user are installed when missing (root,
# apt); without them the test is skipped.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/tap.sh"
RVCC=${RV32_CC:-riscv64-unknown-elf-gcc}
QEMU=${QEMU_RISCV32:-qemu-riscv32}
SEEDS=${RV32_SEEDS:-24}
ASEEDS=${RV32_ASEEDS:-8}
COUNT=${RV32_COUNT:-400}

# tools/vpmu's PICOLIBC_DIR: picolibc, for the ordinary C programs
PICOLIBC=/usr/lib/picolibc/riscv64-unknown-elf

# What is missing, installed in one go (root, apt).
pkgs=
{ ! command -v "$RVCC" || ! command -v "$QEMU"; } >/dev/null 2>&1 &&
	pkgs="gcc-riscv64-unknown-elf qemu-user"
[ -f "$PICOLIBC/include/stdio.h" ] ||
	pkgs="$pkgs picolibc-riscv64-unknown-elf"
# shellcheck source=../../pkg/apt.sh
. "$TOP/tools/pkg/apt.sh"
# shellcheck disable=SC2086 # one word per package
apt_install_missing $pkgs
if ! command -v "$RVCC" >/dev/null 2>&1 ||
   ! command -v "$QEMU" >/dev/null 2>&1; then
	echo "ok 1 - RV32IM against qemu-riscv32 # SKIP no $RVCC or $QEMU"
	echo "1..1"
	exit 0
fi
tap_build vpmu-sim share rv32
IMG=$SHARE/build/rv32im.vpmu
ELFS=$SHARE/build/rv32

# shellcheck source=rv32_qemu.sh
. "$(dirname "$0")/rv32_qemu.sh"

# compare NAME ELF - the checks above, four TAP lines.
compare() {
	local name=$1 elf=$2 qrc vrc qn tag insns

	"$QEMU" "$elf" >"$tmp/q.out" 2>/dev/null
	qrc=$?
	"$BIN/vpmu-sim" -q -m "$IMG" --stats "$elf" >"$tmp/v.out" \
		2>"$tmp/v.stats"
	vrc=$?
	cmp -s "$tmp/q.out" "$tmp/v.out" && [ "$qrc" = "$vrc" ]
	ok $? "$name: output and exit status ($vrc) as qemu-riscv32's"
	qn=$(qemu_insns "$elf")
	tag=$(awk '$2 == "decode" { print $3 }' "$tmp/v.stats")
	insns=$(awk '$2 == "insns" { print $3 }' "$tmp/v.stats")
	[ "$qn" = "$tag" ]
	ok $? "$name: $tag instructions executed, qemu-riscv32 $qn"
	[ "$((insns + 1))" = "$qn" ]
	ok $? "$name: $insns instructions retired, all but the exit ecall"
	qemu_regs "$elf" >"$tmp/q.regs" &&
		grep '^x' "$tmp/v.stats" | diff "$tmp/q.regs" - >"$tmp/regs.diff"
	ok $? "$name: x0..x31 at the exit ecall as qemu-riscv32's"
	[ -s "$tmp/regs.diff" ] && sed 's/^/# /' "$tmp/regs.diff"
}

for elf in "$ELFS"/*.elf; do
	if [ ! -e "$elf" ]; then
		ok 1 "the C samples in $ELFS"
		break
	fi
	compare "$(basename "$elf")" "$elf"
done

# Random programs: generated, assembled, compared.
${CC:-cc} -O2 -o "$tmp/gen_rv32" "$(dirname "$0")/gen_rv32.c"
ok $? "gen_rv32 builds"
# random_progs MARCH NAME SEEDS [GEN_FLAG...] - SEEDS programs of gen_rv32 with
# the flags, built for MARCH and compared.
random_progs() {
	local march=$1 name=$2 seeds=$3 seed
	shift 3

	for seed in $(seq 1 "$seeds"); do
		"$tmp/gen_rv32" "$@" "$seed" "$COUNT" >"$tmp/r.S" &&
			"$RVCC" -march="$march" -mabi=ilp32 -nostdlib -static \
				-o "$tmp/r.elf" "$tmp/r.S"
		ok $? "$name $seed ($COUNT instructions) assembles"
		compare "$name $seed" "$tmp/r.elf"
	done
}
random_progs rv32im "random program" "$SEEDS"

# RV32C: the C samples built for rv32imac (tools/vpmu's "make rv32c";
# start.S keeps the entry on a word), and random programs with every
# compressed instruction.
tap_build rv32c
for elf in "$SHARE"/build/rv32c/*.elf; do
	if [ ! -e "$elf" ]; then
		ok 1 "the rv32imac samples in $SHARE/build/rv32c"
		break
	fi
	compare "$(basename "$elf") (rv32imac)" "$elf"
done
random_progs rv32imc "random RV32IMC program" "$SEEDS" -c

# Ordinary C programs with picolibc (vpmu.specs, tools/vpmu's make
# rv32libc: printf, malloc, qsort, setjmp, 64-bit and soft-float), for
# rv32imac; and one built by hand with the specs, as rv32.rst shows.
if [ -f "$PICOLIBC/include/stdio.h" ]; then
	tap_build rv32libc
	for elf in "$SHARE"/build/rv32libc/*.elf; do
		compare "$(basename "$elf") (picolibc)" "$elf"
	done
	# specs_cc NAME - $tmp/NAME.c into $tmp/NAME.elf as rv32.rst shows
	specs_cc() {
		"$RVCC" --specs="$SHARE/build/rv32libc/vpmu.specs" \
			-march=rv32imac -mabi=ilp32 -O2 -o "$tmp/$1.elf" \
			"$tmp/$1.c"
	}
	printf '#include <stdio.h>\n#include <stdlib.h>\nint main(void)\n{\n\tchar *p = malloc(100);\n\n\tprintf("%%s %%d\\n", p ? "ok" : "no", 7 * 6);\n\treturn 0;\n}\n' >"$tmp/p.c"
	specs_cc p
	ok $? "a C program builds with --specs=vpmu.specs"
	compare "the program built with vpmu.specs" "$tmp/p.elf"
	grep -qx 'ok 42' "$tmp/v.out"
	ok $? "its output: ok 42"
	# read(0): a line in, counted out, on both
	printf '#include <stdio.h>\n#include <string.h>\nint main(void)\n{\n\tchar b[64];\n\n\tif (!fgets(b, sizeof(b), stdin))\n\t\treturn 1;\n\tprintf("%%zu %%s", strlen(b), b);\n\treturn getchar() == EOF ? 0 : 2;\n}\n' >"$tmp/rd.c"
	specs_cc rd &&
		echo 'a line of input' | "$QEMU" "$tmp/rd.elf" >"$tmp/q.out"
	qrc=$?
	echo 'a line of input' | "$BIN/vpmu-sim" -q -m "$IMG" "$tmp/rd.elf" \
		>"$tmp/v.out"
	vrc=$?
	cmp -s "$tmp/q.out" "$tmp/v.out" && [ "$qrc" = "$vrc" ] &&
		grep -qx '16 a line of input' "$tmp/v.out"
	ok $? "read(0): a line of stdin, then its end, as on qemu-riscv32 ($vrc)"
else
	ok 0 "C programs with picolibc # SKIP no picolibc-riscv64-unknown-elf"
fi

# RV32A: random programs with the atomics (LR.W/SC.W and the AMOs at
# words they share with stores); misaligned loads and stores (-m); then
# all of it with the compressed instructions.
random_progs rv32ima_zicsr "random RV32IMA+Zicntr program" "$ASEEDS" -a -z
random_progs rv32im "random RV32IM program, misaligned" "$ASEEDS" -m
random_progs rv32imac_zicsr "random RV32IMAC+Zicntr program, misaligned" "$SEEDS" \
	-c -a -m -z

# --time on an ELF program: a line on stderr with the run's cycles and
# instructions (as --stats counts them); the program's output unchanged.
"$BIN/vpmu-sim" -m "$IMG" --stats -t "$ELFS/fib.elf" >"$tmp/t.out" \
	2>"$tmp/t.err"
"$BIN/vpmu-sim" -m "$IMG" "$ELFS/fib.elf" >"$tmp/n.out" 2>/dev/null
cyc=$(awk '$2 == "cycles" { print $3 }' "$tmp/t.err")
tag=$(awk '$2 == "decode" { print $3 }' "$tmp/t.err")
grep -Eq "^time [0-9]+\.[0-9]{6} s, $cyc cycles, [0-9]+ cycles/s, $tag instructions, [0-9]+ instructions/s\$" \
	"$tmp/t.err" && [ -n "$cyc" ] && [ -n "$tag" ] &&
	cmp -s "$tmp/t.out" "$tmp/n.out"
ok $? "vpmu-sim -t: an ELF's time line ($cyc cycles, $tag instructions)"
"$BIN/vpmu-sim" -q -m "$IMG" -t "$ELFS/fib.elf" 2>&1 >/dev/null |
	grep -q '^time '
[ $? = 1 ]
ok $? "vpmu-sim -t -q: no time line"

# --chunk and --tc-pool change the host's work, never a result: every
# sample in 1000-cycle chunks with the smallest pool (4 KiB, where the
# oldest translations go all the time) prints, exits and counts as run
# whole with the default pool; only the tc line differs, and it shows
# translations evicted.
for elf in "$ELFS"/*.elf; do
	name=$(basename "$elf" .elf)
	"$BIN/vpmu-sim" -m "$IMG" --stats "$elf" >"$tmp/w.out" 2>"$tmp/w.err"
	rw=$?
	"$BIN/vpmu-sim" -m "$IMG" --stats --chunk=1000 --tc-pool=4 "$elf" \
		>"$tmp/p.out" 2>"$tmp/p.err"
	rp=$?
	ev=$(awk '$1 == "tc" { print $25 }' "$tmp/p.err")
	[ "$rw" = "$rp" ] && cmp -s "$tmp/w.out" "$tmp/p.out" &&
		cmp -s <(grep -v '^tc ' "$tmp/w.err") \
			<(grep -v '^tc ' "$tmp/p.err") &&
		[ "${ev:-0}" -gt 0 ]
	ok $? "vpmu-sim --chunk=1000 --tc-pool=4: $name as run whole (exit $rw, $ev evicted)"
done
# --sample: a counter of cycles interrupting every PERIOD cycles, as
# perf record -c PERIOD; the run goes on after each, with the same
# results, and takes exactly cycles / PERIOD samples.
for period in 1000 777 1; do
	"$BIN/vpmu-sim" -m "$IMG" --stats --chunk=5000 --sample=$period \
		"$ELFS/crc32.elf" >"$tmp/p.out" 2>"$tmp/p.err"
	rp=$?
	"$BIN/vpmu-sim" -m "$IMG" --stats "$ELFS/crc32.elf" >"$tmp/w.out" \
		2>"$tmp/w.err"
	cyc=$(awk '$2 == "cycles" { print $3 }' "$tmp/w.err")
	got=$(awk '$1 == "samples" { print $2 "/" $4 }' "$tmp/p.err")
	[ "$rp" = 0 ] && cmp -s "$tmp/w.out" "$tmp/p.out" &&
		cmp -s <(grep -v '^tc \|^samples ' "$tmp/p.err") \
			<(grep -v '^tc ' "$tmp/w.err") &&
		[ -n "$cyc" ] && [ "$got" = "$((cyc / period))/$period" ]
	ok $? "vpmu-sim --sample=$period: crc32 as unsampled, $got samples in $cyc cycles"
done
"$BIN/vpmu-sim" --sample=0 "$ELFS/fib.elf" >/dev/null 2>"$tmp/err"
[ $? = 125 ] && grep -q "bad sample period '0'" "$tmp/err"
ok $? "vpmu-sim --sample=0: refused, exit 125"
"$BIN/vpmu-sim" --tc-pool=3 "$ELFS/fib.elf" >/dev/null 2>"$tmp/err"
[ $? = 125 ] && grep -q "bad translation pool '3' (KiB, 4..16384)" "$tmp/err"
ok $? "vpmu-sim --tc-pool=3: refused, exit 125"

# The ELF loader's refusals: a program that cannot be run (126).
"$BIN/vpmu-sim" -m "$IMG" /bin/sh >/dev/null 2>"$tmp/err"
[ $? = 126 ] && grep -q "not a 32-bit little-endian ELF\|not a RISC-V" "$tmp/err"
ok $? "vpmu-sim refuses a host ELF, exit 126"
"$BIN/vpmu-sim" --stats "$ELFS/fib.elf" >"$tmp/nom.out" 2>"$tmp/nom.err"
rc=$?
"$BIN/vpmu-sim" --stats -m "$IMG" "$ELFS/fib.elf" >"$tmp/m.out" 2>"$tmp/m.err"
[ $rc = $? ] && [ -s "$tmp/nom.out" ] && cmp -s "$tmp/nom.out" "$tmp/m.out" &&
	cmp -s "$tmp/nom.err" "$tmp/m.err"
ok $? "vpmu-sim: an ELF without -m runs on the built-in RV32IM image, as with -m (exit $rc)"
"$BIN/vpmu-sim" -m "$IMG" --mem=4096 "$ELFS/fib.elf" >/dev/null 2>"$tmp/err"
[ $? = 126 ] && grep -q "outside memory" "$tmp/err"
ok $? "vpmu-sim: a program outside --mem, exit 126"
head -c 100 "$ELFS/fib.elf" >"$tmp/short.elf"
"$BIN/vpmu-sim" -m "$IMG" "$tmp/short.elf" >/dev/null 2>"$tmp/err"
[ $? = 126 ] && grep -q "truncated" "$tmp/err"
ok $? "vpmu-sim: a truncated ELF, exit 126"
"$BIN/vpmu-sim" -q -m "$IMG" -b 1000 "$ELFS/fib.elf" >/dev/null 2>&1
[ $? = 124 ]
ok $? "vpmu-sim: an ELF out of budget exits 124"

# A trap stops the program as a signal stops qemu-riscv32's, named on
# stderr: an illegal instruction (trap 1, SIGILL: 132), ebreak (trap 3,
# SIGTRAP: 133).
for t in "unimp 1 132 illegal instruction" "ebreak 3 133 ebreak"; do
	read -r insn code st what <<<"$t"
	printf '\t.globl _start\n_start:\n\tnop\n\t%s\n' "$insn" >"$tmp/$insn.S"
	# (the shell's own note of qemu's signal too, in the braces)
	{ "$RVCC" -march=rv32im -mabi=ilp32 -nostdlib -static \
		-Ttext=0x10000 -o "$tmp/$insn.elf" "$tmp/$insn.S" &&
		"$QEMU" "$tmp/$insn.elf"; } 2>/dev/null
	qrc=$?
	"$BIN/vpmu-sim" -m "$IMG" "$tmp/$insn.elf" 2>"$tmp/err"
	vrc=$?
	[ "$vrc" = "$st" ] && [ "$qrc" = "$vrc" ] &&
		[ "$(cat "$tmp/err")" = "vpmu-sim: $tmp/$insn.elf: program stopped: trap $code ($what) at pc 0x10004" ]
	ok $? "vpmu-sim: $insn stops with trap $code ($what), exit $st as qemu-riscv32 ($qrc)"
done

# A fault names its address as well as its pc; SIGSEGV (139) as qemu's.
printf '\t.globl _start\n_start:\n\tnop\n\tlui t0, 0x80000\n\tlw a0, 4(t0)\n' \
	>"$tmp/load.S"
{ "$RVCC" -march=rv32im -mabi=ilp32 -nostdlib -static -Ttext=0x10000 \
	-o "$tmp/load.elf" "$tmp/load.S" && "$QEMU" "$tmp/load.elf"; } 2>/dev/null
qrc=$?
"$BIN/vpmu-sim" "$tmp/load.elf" 2>"$tmp/err"
vrc=$?
[ "$vrc" = 139 ] && [ "$qrc" = 139 ] &&
	[ "$(cat "$tmp/err")" = "vpmu-sim: $tmp/load.elf: program stopped: fault 1 (load) at pc 0x10008, address 0x80000004" ]
ok $? "vpmu-sim: a load outside memory names pc and address, exit 139 as qemu-riscv32 ($qrc)"
# --stats names the address too, in its stop line and in --json.
"$BIN/vpmu-sim" -q --stats "$tmp/load.elf" 2>"$tmp/err"
[ "$(head -1 "$tmp/err")" = "stop fault 1 (load at 0x80000004) at pc 0x10008" ]
ok $? "vpmu-sim --stats: a fault's stop line names kind and address"
"$BIN/vpmu-sim" -q --stats --json "$tmp/load.elf" 2>"$tmp/err"
python3 -c 'import json, sys; o = json.load(open(sys.argv[1]))
assert (o["stop"], o["fault"], o["addr"], o["ipc"]) == ("fault", "load", 0x80000004, 0x10008), o' "$tmp/err"
ok $? "vpmu-sim --stats --json: a fault's \"fault\" and \"addr\""

# Out of budget: which budget ran out, and how to raise it; no code,
# which a budget stop has not, in --stats either.
"$BIN/vpmu-sim" -b 1000 "$ELFS/fib.elf" 2>"$tmp/err" >/dev/null
grep -Eqx "vpmu-sim: $ELFS/fib.elf: program stopped: its cycle budget of 1000 cycles is used up at pc 0x[0-9a-f]+ \(--budget raises it\)" "$tmp/err"
ok $? "vpmu-sim: out of budget, 'its cycle budget of 1000 cycles is used up'"
"$BIN/vpmu-sim" -q --stats -b 1000 "$ELFS/fib.elf" 2>"$tmp/err" >/dev/null
head -1 "$tmp/err" | grep -Eqx "stop budget at pc 0x[0-9a-f]+"
ok $? "vpmu-sim --stats: out of budget, 'stop budget at pc'"
tap_done
