#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh (make demo) - boot the newest bookworm 6.12 kernel (VPMU_DEMO_KERNEL
# to change) and walk through vpmu as a newcomer would (guest/demo.sh):
# perf stat, a freeze trigger, microcode written through sysfs, an RV32 C
# program counted and sampled, the micro-PC histogram; then, on the host,
# gdb on the same program down to its microcode.  Fails if any check of
# the numbers shown fails.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

# listed_uword LISTING LABEL[+N] - the microword vpmu-dis's LISTING has
# at LABEL+N: the (N+1)th line under "LABEL:".
listed_uword() {
	local label=${2%+*} n=0

	[ "$label" = "$2" ] || n=${2#*+}
	awk -v l="$label:" -v n="$n" '
		f && /^\t/ { if (n-- == 0) { sub(/^\t/, ""); print; exit } }
		$0 == l { f = 1 }' "$1"
}

# gdb_step - the host part: gdb-multiarch on fib.elf under vpmu-sim
# --gdb, down to the microcode beneath an instruction (monitor upc,
# ustep); each microword shown checked against the image's listing.
gdb_step() (
	local bin=$USER_SRC/tools/vpmu d=$VM_OUT/demo-gdb upc at text want

	ensure_pkgs gdb-multiarch
	rm -rf "$d" && mkdir -p "$d" && cd "$d" || return
	cp "$USER_SRC/tools/vpmu/share/build/rv32/fib.elf" .
	"$bin/vpmu-as" -f elf -o rv32im.elf \
		"$USER_SRC/tools/vpmu/share/ucode/rv32im.vus"
	"$bin/vpmu-dis" rv32im.elf >rv32im.dis
	echo
	echo "==== 7. On the host: gdb on the same program, and the microcode beneath"
	echo
	echo "host\$ vpmu-sim --gdb=unix:gdb.sock -m rv32im.elf fib.elf &"
	"$bin/vpmu-sim" --gdb=unix:gdb.sock -m rv32im.elf fib.elf \
		>/dev/null 2>sim.err &
	for _ in $(seq 100); do
		grep -q 'waiting for gdb' sim.err && break
		sleep 0.1
	done
	# shellcheck disable=SC2016 # $pc is gdb's
	set -- -ex 'target remote gdb.sock' -ex 'break fib' -ex continue \
		-ex 'x/i $pc' -ex 'monitor upc' -ex 'monitor ustep 4' -ex kill
	echo "host\$ gdb-multiarch -batch $(printf "%s '%s' " "$@")fib.elf" |
		sed 's/ -ex / \\\n      -ex /3'
	timeout 120 gdb-multiarch -q -batch "$@" fib.elf </dev/null 2>&1 |
		grep -v '^\[\|^Kill the program' | tee gdb.out
	wait || true
	while read -r _ upc at text; do
		at=${at%:}
		want=$(listed_uword rv32im.dis "$at")
		if [ -n "$text" ] && [ "$text" = "$want" ]; then
			echo "  check: microword $upc ($at) as vpmu-dis lists it: $text"
		else
			echo "  check FAILED: microword $upc ($at): '$text', listed '$want'"
		fi
	done < <(grep '^upc ' gdb.out) >checks
	cat checks
	[ "$(grep -c '^  check: ' checks)" = 2 ] ||
		echo "  check FAILED: gdb showed $(grep -c '^upc ' gdb.out) microwords, not 2"
)

ensure_host_deps
build_userspace
export VPMU_RUN_NAME=demo
export VPMU_SLUB_DEBUG=${VPMU_SLUB_DEBUG-}
run_kernel "${VPMU_DEMO_KERNEL:-6.12}" demo
gdb_step | tee "$OUT/gdb.txt"
# make check's demo tier reads the result line.
ok=$(cat "$OUT/serial.log" "$OUT/gdb.txt" | grep -c '^  check: ' || true)
bad=$(cat "$OUT/serial.log" "$OUT/gdb.txt" |
	grep -c '^  check FAILED: ' || true)
grep -q '^VPMU-DEMO done' "$OUT/serial.log" || bad=$((bad + 1))
echo "demo: $ok passed, $bad failed"
grep -q '^VPMU-DEMO \(done\|failed\)' "$OUT/serial.log" ||
	die "demo did not finish (qemu rc $QEMU_RC; log: $OUT/serial.log)"
[ "$bad" = 0 ] || die "demo: a check failed (log: $OUT/serial.log)"
