#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# rv32-bench.sh - the RV32 table of make bench: for each C sample of
# tools/vpmu/share/rv32, run by vpmu-sim -m rv32im.vpmu and by
# qemu-riscv32, each under callgrind:
#
#   insns     RV32 instructions executed (vpmu-sim's decode tag, tag1,
#             "event decode" in its --stats, which test_rv32.sh checks
#             equal to qemu-riscv32's count)
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
# Then where the driver runs them: whole runs cut in 5000- and 1000-cycle
# chunks (vpmu-sim --chunk, as /dev/vpmu and perf's tasks run; the
# translating between chunks, vpmu_engine_tc_work(), counted with the
# runs), the samples and workload.elf (rv32/workload.c, ten million
# instructions whose hot code outgrows the translation pool), each
# against qemu-riscv32 on the same binary.
#
# Installs gcc-riscv64-unknown-elf, picolibc-riscv64-unknown-elf and
# qemu-user when missing (root, apt, as test_rv32.sh); without them it
# says so and prints no table.

set -e
here=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$here/../../.." && pwd)
B=$here/build
RVCC=${RV32_CC:-riscv64-unknown-elf-gcc}
QEMU=${QEMU_RISCV32:-qemu-riscv32}
VPMU_TOOLS=$TOP/tools/vpmu
SHARE=$VPMU_TOOLS/share

if { ! command -v "$RVCC" || ! command -v "$QEMU" ||
     ! [ -d /usr/lib/picolibc/riscv64-unknown-elf ]; } >/dev/null 2>&1 &&
   [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	# shellcheck source=../../pkg/apt.sh
	. "$TOP/tools/pkg/apt.sh"
	apt_retry /dev/null install gcc-riscv64-unknown-elf \
		picolibc-riscv64-unknown-elf qemu-user || true
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

# ELF [vpmu-sim option] -> the Ir inside vpmu_engine_run(), the
# translating between runs, and the counter accesses a sample's handler
# makes (--sample: read, clear, re-arm, as the driver's)
sim_ir() {
	local out=$B/rv32/cg.out elf=$1

	shift
	valgrind --tool=callgrind --callgrind-out-file="$out" \
		--log-file=/dev/null --toggle-collect=vpmu_engine_run \
		--toggle-collect=vpmu_engine_tc_work \
		--toggle-collect='vpmu_engine_ctr_*' \
		--toggle-collect='vpmu_engine_ovf_*' \
		"$VPMU_TOOLS/vpmu-sim" -q -m "$SHARE/build/rv32im.vpmu" \
		--stats "$@" "$elf" >"$B/rv32/vpmu.stdout" 2>"$B/rv32/stats"
	cg_ir "$out"
}

qemu_ir() {	# ELF -> the Ir of the whole qemu-riscv32 process
	local out=$B/rv32/cg.out

	$norand valgrind --tool=callgrind --callgrind-out-file="$out" \
		--log-file=/dev/null "$QEMU" "$1" >"$B/rv32/qemu.stdout"
	cg_ir "$out"
}

# The longest 5000-cycle chunk of a whole run (vpmu-sim --chunk, as the
# driver runs /dev/vpmu and perf's tasks) with the translating after it,
# which the driver does with interrupts still off: callgrind dumps its
# counts after each vpmu_engine_tc_work(), one chunk each.
worst_chunk() {	# ELF [vpmu-sim option] -> "first longest-other" Ir
	local elf=$1 d=$B/rv32/chunks f

	shift
	rm -rf "$d"
	mkdir -p "$d"
	valgrind --tool=callgrind --callgrind-out-file="$d/cg.out" \
		--log-file=/dev/null --toggle-collect=vpmu_engine_run \
		--toggle-collect=vpmu_engine_tc_work \
		--dump-after=vpmu_engine_tc_work --dump-instr=no \
		"$VPMU_TOOLS/vpmu-sim" -q -m "$SHARE/build/rv32im.vpmu" \
		--chunk=5000 "$@" "$elf" >/dev/null 2>&1
	f=$(sed -n 's/^summary: *//p' "$d/cg.out.1")
	echo "$f $(for x in "$d"/cg.out.*; do
		[ "$x" = "$d/cg.out.1" ] || sed -n 's/^summary: *//p' "$x"
	done | sort -n | tail -n 1)"
}

measure() {	# ELF -> "insns uops vpmu-Ir qemu-Ir vpmu-Ir-no-tc"
	local out=$B/rv32/cg.out stats=$B/rv32/stats vir qir nir

	nir=$(sim_ir "$1" --no-tc)
	vir=$(sim_ir "$1")
	qir=$(qemu_ir "$1")
	if ! cmp -s "$B/rv32/vpmu.stdout" "$B/rv32/qemu.stdout"; then
		echo "rv32: $1: vpmu-sim and qemu-riscv32 print differently" >&2
		exit 1
	fi
	awk -v v="$vir" -v q="$qir" -v o="$nir" '
		$2 == "decode" { n = $3 } $2 == "uops" { u = $3 }
		END { print n, u, v, q, o }' "$stats"
}

echo "RV32: tools/vpmu/share/rv32 samples (-O2), vpmu-sim -m rv32im.vpmu vs $QEMU ($("$QEMU" --version | sed -n '1s/.*version \([^ ]*\).*/\1/p'))"
echo "per RV32 instruction beyond empty.elf's; vpmu Ir: inside vpmu_engine_run(), with the"
echo "translation cache (tc) and without (--no-tc: the microword interpreter alone); qemu Ir:"
echo "the whole process (translation included: it depends on the run's length, these binaries only)"
read -r n0 u0 v0 q0 o0 < <(measure "$B/rv32/empty.elf")
echo "empty.elf: $n0 insns, $u0 uops, vpmu Ir $v0 ($o0 no-tc), qemu Ir $q0 (subtracted below)"
printf '%-8s %9s %10s %9s %11s %9s %9s %11s %9s %9s\n' sample insns uops \
	uops/insn "vpmu Ir" Ir/insn no-tc "qemu Ir" Ir/insn vpmu/qemu
for elf in "$SHARE"/build/rv32/*.elf; do
	read -r n u v q o < <(measure "$elf")
	awk -v s="$(basename "$elf" .elf)" -v n=$((n - n0)) -v u=$((u - u0)) \
	    -v v=$((v - v0)) -v q=$((q - q0)) -v o=$((o - o0)) 'BEGIN {
		printf "%-8s %9d %10d %9.2f %11d %9.1f %9.1f %11d %9.1f %9.2f\n",
			s, n, u, u / n, v, v / n, o / n, q, q / n,
			(v / n) / (q / n) }'
done | tee "$B/rv32/table"
# The mean of the samples' ratios, then the ratios of the sums (all the
# samples as one run: the long ones weigh most).
awk '{ u += $4; v += $6; o += $7; q += $9; r += $10; k++
	N += $2; U += $3; V += $5; Q += $8; O += $7 * $2 } END {
	printf "%-8s %9s %10s %9.2f %11s %9.1f %9.1f %11s %9.1f %9.2f\n",
		"mean", "", "", u / k, "", v / k, o / k, "", q / k, r / k
	printf "%-8s %9d %10d %9.2f %11d %9.1f %9.1f %11d %9.1f %9.2f\n",
		"all", N, U, U / N, V, V / N, O / N, Q, Q / N, V / Q }' "$B/rv32/table"

echo
echo "5000-cycle chunks (vpmu-sim --chunk=5000, as /dev/vpmu runs them): Ir inside"
echo "vpmu_engine_run() and the vpmu_engine_tc_work() after it, of the first chunk (it also"
echo "builds the image's uops) and of the longest other"
printf '%-8s %12s %12s %12s %12s\n' sample "first tc" "first no-tc" "other tc" \
	"other no-tc"
for elf in "$SHARE"/build/rv32/*.elf; do
	read -r f1 o1 < <(worst_chunk "$elf")
	read -r f2 o2 < <(worst_chunk "$elf" --no-tc)
	printf '%-8s %12s %12s %12s %12s\n' "$(basename "$elf" .elf)" \
		"$f1" "$f2" "$o1" "$o2"
done

# Where users run: chunks, and samples.  Ir per instruction beyond
# empty.elf's (run whole, in chunks, in 5000-cycle chunks with a counter
# of cycles interrupting every 1000 cycles as perf record -c 1000
# samples, and one of instructions every 1000 instructions as perf record
# -e vpmu/vpmu_insns/ -c 1000 samples), the translating between chunks
# included.
"$VPMU_TOOLS/vpmu-cc" -O2 -o "$B/rv32/workload.elf" "$here/rv32/workload.c"
echo
echo "Where the driver runs: whole runs cut in chunks (vpmu-sim --chunk=N, translating"
echo "between them as the module does) and sampled (s1000: 5000-cycle chunks, a sample"
echo "every 1000 cycles, vpmu-sim --sample=1000, as perf record -c 1000; i1000: every"
echo "1000 instructions, --sample-event=insns, as perf record -e vpmu/vpmu_insns/ -c"
echo "1000), Ir per RV32 instruction beyond empty.elf's, inside vpmu_engine_run() and"
echo "vpmu_engine_tc_work(), and the sample handler's counter accesses; workload.elf:"
echo "rv32/workload.c"
read -r c50 < <(sim_ir "$B/rv32/empty.elf" --chunk=5000)
read -r c10 < <(sim_ir "$B/rv32/empty.elf" --chunk=1000)
read -r s10 < <(sim_ir "$B/rv32/empty.elf" --chunk=5000 --sample=1000)
read -r i10 < <(sim_ir "$B/rv32/empty.elf" --chunk=5000 --sample=1000 \
		--sample-event=insns)
printf '%-9s %9s %8s %8s %8s %8s %8s %8s %8s %9s %9s\n' sample insns whole \
	c5000 c1000 s1000 i1000 no-tc qemu c5000/qemu c5000/whole
for elf in "$SHARE"/build/rv32/*.elf "$B/rv32/workload.elf"; do
	read -r n u v q o < <(measure "$elf")
	w5=$(sim_ir "$elf" --chunk=5000)
	w1=$(sim_ir "$elf" --chunk=1000)
	ws=$(sim_ir "$elf" --chunk=5000 --sample=1000)
	wi=$(sim_ir "$elf" --chunk=5000 --sample=1000 --sample-event=insns)
	awk -v s="$(basename "$elf" .elf)" -v n=$((n - n0)) -v v=$((v - v0)) \
	    -v q=$((q - q0)) -v o=$((o - o0)) -v a=$((w5 - c50)) \
	    -v b=$((w1 - c10)) -v c=$((ws - s10)) -v d=$((wi - i10)) 'BEGIN {
		printf "%-9s %9d %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %9.2f %9.2f\n",
			s, n, v / n, a / n, b / n, c / n, d / n, o / n, q / n,
			(a / n) / (q / n), a / v }'
done | tee "$B/rv32/chunked"
awk '{ k++; w += $3; a += $4; b += $5; c += $6; d += $7; o += $8; q += $9 }
END {
	printf "%-9s %9s %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %8.1f %9.2f %9.2f\n",
		"mean", "", w / k, a / k, b / k, c / k, d / k, o / k, q / k,
		(a / k) / (q / k), a / w }' "$B/rv32/chunked"

# The pool: workload.elf's hot code fills about 500 KiB of it (vpmu-sim
# --stats' "pool", in words); the module's default (tc_pool_kb) is 128
# KiB, a quarter of that, where the oldest translations make room.
echo
echo "workload.elf and the translation pool (vpmu-sim --tc-pool=KiB), in 5000-cycle"
echo "chunks: Ir per RV32 instruction as above, translations made and evicted"
printf '%-9s %9s %8s %11s %9s\n' pool Ir/insn "vs 512" translated evicted
nw=$(awk '$1 == "workload" { print $2 }' "$B/rv32/chunked")
fits=
for kb in 512 256 128; do
	w=$(sim_ir "$B/rv32/workload.elf" --chunk=5000 --tc-pool="$kb")
	read -r t x < <(awk '$1 == "tc" { print $3, $25 }' "$B/rv32/stats")
	e=$(sim_ir "$B/rv32/empty.elf" --chunk=5000 --tc-pool="$kb")
	r=$(awk -v w="$w" -v e="$e" -v n="$nw" \
		'BEGIN { printf "%.1f", (w - e) / n }')
	fits=${fits:-$r}
	awk -v k="$kb KiB" -v r="$r" -v f="$fits" -v t="$t" -v x="$x" 'BEGIN {
		printf "%-9s %9s %8.2f %11s %9s\n", k, r, r / f, t, x }'
done
