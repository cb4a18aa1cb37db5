#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vpmu_rv32_ref.sh OUTDIR - run on the host when the selftests are built:
# the random RV32IM, RV32IMC and RV32IMAC programs vpmu_rv32_stat.sh runs in
# the guest
# (tools/testing/host/gen_rv32.c, seeds other than the host tier's), each
# with qemu-riscv32's results as the reference, which the guest cannot
# compute (no qemu there):
#
#   rSEED.elf     the program (rcSEED.*, raSEED.*: the same for an RV32IMC,
#                 an RV32IMAC one)
#   rSEED.out     its output under qemu-riscv32, rSEED.rc its exit status
#   rSEED.insns   the instructions qemu executed, the exit ecall included
#   rSEED.regs    x0..x31 at the exit ecall, as vpmu-run --stats prints
#
# Without the cross compiler or qemu-user OUTDIR stays empty and the
# guest test skips those checks (the VM harness installs both).
set -eu

out=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
RVCC=${RV32_CC:-riscv64-unknown-elf-gcc}
QEMU=${QEMU_RISCV32:-qemu-riscv32}
SEEDS=${RV32_VM_SEEDS:-4}
COUNT=${RV32_COUNT:-400}

rm -rf "$out"
mkdir -p "$out"
if ! command -v "$RVCC" >/dev/null 2>&1 ||
   ! command -v "$QEMU" >/dev/null 2>&1; then
	echo "vpmu_rv32_ref.sh: no $RVCC or $QEMU: no random RV32 programs" >&2
	exit 0
fi
# shellcheck source=../../tools/testing/host/rv32_qemu.sh
. "$top/tools/testing/host/rv32_qemu.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${HOSTCC:-cc} -O2 -o "$tmp/gen_rv32" "$top/tools/testing/host/gen_rv32.c"
# rSEED: RV32IM; rcSEED: RV32IMC (gen_rv32 -c, compressed instructions);
# raSEED: RV32IMAC with Zicntr (gen_rv32 -c -a -m -z: the atomics,
# misaligned loads and stores and counter reads too)
for seed in $(seq 1001 $((1000 + SEEDS))) $(seq 2001 $((2000 + SEEDS))) \
	    $(seq 3001 $((3000 + SEEDS))); do
	if [ "$seed" -gt 3000 ]; then
		r=$out/ra$seed
		"$tmp/gen_rv32" -c -a -m -z "$seed" "$COUNT" >"$tmp/r.S"
		march=rv32imac_zicsr
	elif [ "$seed" -gt 2000 ]; then
		r=$out/rc$seed
		"$tmp/gen_rv32" -c "$seed" "$COUNT" >"$tmp/r.S"
		march=rv32imc
	else
		r=$out/r$seed
		"$tmp/gen_rv32" "$seed" "$COUNT" >"$tmp/r.S"
		march=rv32im
	fi
	"$RVCC" -march=$march -mabi=ilp32 -nostdlib -static -o "$r.elf" \
		"$tmp/r.S"
	rc=0
	"$QEMU" "$r.elf" >"$r.out" 2>/dev/null || rc=$?
	echo "$rc" >"$r.rc"
	qemu_insns "$r.elf" >"$r.insns"
	qemu_regs "$r.elf" >"$r.regs"
done
