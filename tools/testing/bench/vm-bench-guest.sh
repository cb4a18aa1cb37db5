#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vm-bench-guest.sh - the guest half of make vm-bench (busybox sh; installed
# as a "selftest" through the harness's VPMU_EXTRA_SELFTESTS and selected
# with vpmu_test=vm-bench-guest).  Prints a table between VPMU-BENCH begin
# and VPMU-BENCH end:
#
#   - engine throughput on sortloop.vprg (runs exactly its budget):
#     in the kernel through /dev/vpmu (vpmu-run) and in the host build of
#     the same engine core run inside this same VM (vpmu-sim, static),
#     alternated ROUNDS times; the ratio kernel / host build;
#   - the time to load a maximum-size image (max.vpmu, cs_words 4096,
#     about 36 KiB) through ucode/image, and the default image for scale.
#
# Figures are wall-clock inside a TCG guest: only the ratio, measured in
# one run, means something across machines.  Not a test: exit 0 unless a
# tool fails.

# shellcheck source=bench-guest-lib.sh
. "$(dirname "$0")/bench-guest-lib.sh"
rounds=3
loads=10

bench_init vm-bench 50000000 "$B/vpmu-run" "$B/vpmu-sim" "$B/vpmu-load" \
	"$S/sortloop.vprg" "$S/max.vpmu" "$S/default.vpmu"
[ -c /dev/vpmu ] || fail "no /dev/vpmu"

# engine_rate TOOL - TOOL's cycles/s on sortloop.vprg
engine_rate() {
	"$@" -t -b "$budget" "$S/sortloop.vprg" >/tmp/bench.out 2>&1 ||
		{ cat /tmp/bench.out >&2; fail "$1 failed"; }
	rate /tmp/bench.out
}

# load_ms IMAGE - mean load time in ms over $loads loads
load_ms() {
	i=0
	while [ $i -lt $loads ]; do
		"$B/vpmu-load" -q -t "$1" || fail "vpmu-load $1 failed"
		i=$((i + 1))
	done | sed -n 's/.*load time \([0-9.]*\) ms.*/\1/p' |
		awk '{ s += $1; n++ } END { if (n) printf "%.3f", s / n }'
}

echo "VPMU-BENCH begin"
echo "kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs (TCG)"
echo "workload: sortloop.vprg, budget $budget cycles per run, $rounds rounds alternated"
printf '%-6s %16s %16s %8s\n' round kernel-cyc/s host-build-cyc/s ratio
k_all=0
h_all=0
r=1
while [ $r -le $rounds ]; do
	k=$(engine_rate "$B/vpmu-run") || exit 1
	h=$(engine_rate "$B/vpmu-sim") || exit 1
	[ -n "$k" ] && [ -n "$h" ] || fail "no rate"
	awk -v r=$r -v k="$k" -v h="$h" \
		'BEGIN { printf "%-6s %16.0f %16.0f %8.3f\n", r, k, h, k / h }'
	k_all="$k_all $k"
	h_all="$h_all $h"
	r=$((r + 1))
done
echo "$k_all" "|" "$h_all" | awk '{
	for (i = 2; $i != "|"; i++) { k += $i; n++ }
	for (i++; i <= NF; i++) h += $i
	printf "%-6s %16.0f %16.0f %8.3f\n", "mean", k / n, h / n, k / h
}'
"$B/vpmu-load" -q "$S/max.vpmu" || fail "cannot load max.vpmu"
max=$(load_ms "$S/max.vpmu")
dflt=$(load_ms "$S/default.vpmu")
"$B/vpmu-load" -q --default
printf 'image load (mean of %d): max.vpmu %s bytes, 4096 words: %s ms; default.vpmu %s bytes: %s ms\n' \
	$loads "$(wc -c <"$S/max.vpmu")" "$max" "$(wc -c <"$S/default.vpmu")" "$dflt"
echo "VPMU-BENCH end"
