# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# rv32_qemu.sh - qemu-riscv32 as the reference for RV32 ELF programs
# (sourced by test_rv32.sh and selftests/vpmu/vpmu_rv32_ref.sh):
#
#   qemu_regs ELF    x0..x31 as the exit ecall (symbol rv_exit_ecall)
#                    finds them, one "xN 0x%08x" line each, as vpmu-sim
#                    --stats and vpmu-run --stats print them
#   qemu_insns ELF   the instructions executed, the exit ecall included
#
# They use $RVCC (riscv64-unknown-elf-gcc: its nm) and $QEMU.

qemu_regs() {
	_a=$("${RVCC%gcc}nm" "$1" | awk '$3 == "rv_exit_ecall" { print $1 }')
	[ -n "$_a" ] || return 1
	"$QEMU" -singlestep -d nochain,cpu -dfilter "0x$_a+4" "$1" 2>&1 \
		>/dev/null | awk '
		{ for (i = 1; i < NF; i++) if ($i ~ /^x[0-9]+\//) {
			split($i, p, "/"); v[substr(p[1], 2) + 0] = $(i + 1) } }
		END { for (r = 0; r < 32; r++) printf "x%d 0x%s\n", r, v[r] }'
}

qemu_insns() {
	"$QEMU" -singlestep -d nochain,exec "$1" 2>&1 >/dev/null |
		grep -c '^Trace'
}
