#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# rv32-bench.sh - the RV32 table of make bench: for each C sample of
# tools/vpmu/share/rv32, run by vpmu-sim -m rv32im.vpmu and by
# qemu-riscv32, each under callgrind:
#
#   insns     RV32 instructions executed (vpmu-sim's decode tag, tag1,
#             which test_rv32.sh checks equal to qemu-riscv32's count)
#   uops      microwords executed (event uops)
#   vpmu Ir   host instructions inside vpmu_engine_run() only (callgrind
#             --toggle-collect): the engine's run, not the ELF and image
#             loading, vpmu-sim's start-up or its serving of the ecalls
#   qemu Ir   host instructions of the whole qemu-riscv32 process: its
#             translation of the code it meets (qemu JIT-compiles) and
#             the translated code's run, and its start-up
#
# Every figure is the sample's minus that of empty.elf (rv32-empty.c:
# main returns 0, with the samples' start.S), so that what both do for
# any program (qemu's start-up, above all) cancels, and each ratio is
# per instruction of the sample's own.  qemu's cost per instruction
# includes translating each block once, so it falls with the length of
# the run: it is for these binaries, not a constant.  vpmu's is exact for
# a build; qemu's moves by a few instructions from run to run (threads),
# and runs with address randomisation off (setarch -R) to keep it so.
#
# Installs gcc-riscv64-unknown-elf and qemu-user when missing (root, apt,
# as test_rv32.sh); without them it says so and prints no table.

set -e
here=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$here/../../.." && pwd)
B=$here/build
RVCC=${RV32_CC:-riscv64-unknown-elf-gcc}
QEMU=${QEMU_RISCV32:-qemu-riscv32}
VPMU_TOOLS=$TOP/tools/vpmu
SHARE=$VPMU_TOOLS/share

if { ! command -v "$RVCC" || ! command -v "$QEMU"; } >/dev/null 2>&1 &&
   [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	# shellcheck source=../../pkg/apt.sh
	. "$TOP/tools/pkg/apt.sh"
	apt_retry /dev/null install gcc-riscv64-unknown-elf qemu-user || true
fi
echo
if ! command -v "$RVCC" >/dev/null 2>&1 ||
   ! command -v "$QEMU" >/dev/null 2>&1; then
	echo "rv32: no $RVCC or $QEMU, no RV32 table"
	exit 0
fi
make -s -C "$VPMU_TOOLS" vpmu-sim share rv32 >/dev/null
mkdir -p "$B/rv32"
"$RVCC" -march=rv32im -mabi=ilp32 -static -nostdlib -ffreestanding -O2 \
	-I"$SHARE/rv32" -o "$B/rv32/empty.elf" "$SHARE/rv32/start.S" \
	"$here/rv32-empty.c"
norand=
setarch -R true 2>/dev/null && norand="setarch -R"

cg_ir() {	# out-file -> the Ir callgrind counted
	sed -n 's/^summary: *//p' "$1"
}

measure() {	# ELF -> "insns uops vpmu-Ir qemu-Ir"
	local out=$B/rv32/cg.out stats=$B/rv32/stats vir qir

	valgrind --tool=callgrind --callgrind-out-file="$out" \
		--log-file=/dev/null --toggle-collect=vpmu_engine_run \
		"$VPMU_TOOLS/vpmu-sim" -q -m "$SHARE/build/rv32im.vpmu" \
		--stats "$1" >"$B/rv32/vpmu.stdout" 2>"$stats"
	vir=$(cg_ir "$out")
	$norand valgrind --tool=callgrind --callgrind-out-file="$out" \
		--log-file=/dev/null "$QEMU" "$1" >"$B/rv32/qemu.stdout"
	qir=$(cg_ir "$out")
	if ! cmp -s "$B/rv32/vpmu.stdout" "$B/rv32/qemu.stdout"; then
		echo "rv32: $1: vpmu-sim and qemu-riscv32 print differently" >&2
		exit 1
	fi
	awk -v v="$vir" -v q="$qir" '
		$2 == "tag1" { n = $3 } $2 == "uops" { u = $3 }
		END { print n, u, v, q }' "$stats"
}

echo "RV32: tools/vpmu/share/rv32 samples (-O2), vpmu-sim -m rv32im.vpmu vs $QEMU ($("$QEMU" --version | sed -n '1s/.*version \([^ ]*\).*/\1/p'))"
echo "per RV32 instruction beyond empty.elf's; vpmu Ir: inside vpmu_engine_run(); qemu Ir: the whole"
echo "process (translation included: it depends on the run's length, these binaries only)"
read -r n0 u0 v0 q0 < <(measure "$B/rv32/empty.elf")
echo "empty.elf: $n0 insns, $u0 uops, vpmu Ir $v0, qemu Ir $q0 (subtracted below)"
printf '%-8s %9s %10s %9s %11s %10s %11s %10s %10s\n' sample insns uops \
	uops/insn "vpmu Ir" Ir/insn "qemu Ir" Ir/insn vpmu/qemu
for elf in "$SHARE"/build/rv32/*.elf; do
	read -r n u v q < <(measure "$elf")
	awk -v s="$(basename "$elf" .elf)" -v n=$((n - n0)) -v u=$((u - u0)) \
	    -v v=$((v - v0)) -v q=$((q - q0)) 'BEGIN {
		printf "%-8s %9d %10d %9.2f %11d %10.1f %11d %10.1f %10.2f\n",
			s, n, u, u / n, v, v / n, q, q / n, (v / n) / (q / n) }'
done | tee "$B/rv32/table"
# The mean of the samples' ratios, then the ratios of the sums (all the
# samples as one run: the long ones weigh most).
awk '{ u += $4; v += $6; q += $8; r += $9; k++
	N += $2; U += $3; V += $5; Q += $7 } END {
	printf "%-8s %9s %10s %9.2f %11s %10.1f %11s %10.1f %10.2f\n",
		"mean", "", "", u / k, "", v / k, "", q / k, r / k
	printf "%-8s %9d %10d %9.2f %11d %10.1f %11d %10.1f %10.2f\n",
		"all", N, U, U / N, V, V / N, Q, Q / N, V / Q }' "$B/rv32/table"
