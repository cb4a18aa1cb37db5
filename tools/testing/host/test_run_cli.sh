#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_run_cli.sh - vpmu-sim, vpmu-run and vpmu-load on the command line
# (TAP), on the host: every sample and share/progs program on vpmu-sim
# with its whole .expect file; vpmu-run's and vpmu-load's usage, exit
# codes and errors without a module (vpmu-load against a fake sysfs
# directory).  The kernel side is tested by the selftests in the VM.
set -u

. "$(dirname "$0")/tap.sh"
T=$BIN
S=$SHARE
tap_build vpmu-sim vpmu-run vpmu-load share

for t in vpmu-sim vpmu-run vpmu-load; do
	"$T/$t" --help | grep -q "^Usage: $t"; ok $? "$t --help"
	"$T/$t" >/dev/null 2>&1; [ $? = 125 ]; ok $? "$t without arguments: exit 125"
done

for e in "$S"/samples/*.expect; do
	b=$(basename "$e" .expect)
	"$T/vpmu-sim" -q -e "$e" "$S/build/$b.vprg"
	ok $? "vpmu-sim $b.vprg matches $b.expect"
done
for b in fault marks calls mark1 region; do
	"$T/vpmu-sim" -q -e "$S/progs/$b.expect" "$S/build/$b.vprg"
	ok $? "vpmu-sim $b.vprg matches $b.expect"
done
"$T/vpmu-sim" -q -b 1000003 -e "$S/progs/sortloop.expect" "$S/build/sortloop.vprg"
ok $? "vpmu-sim sortloop.vprg -b 1000003 matches sortloop.expect"
"$T/vpmu-sim" -q -b 10M -e "$S/progs/spin.expect" "$S/build/spin.vprg"
ok $? "vpmu-sim spin.vprg -b 10M matches spin.expect"
"$T/vpmu-sim" -q -m "$S/build/max.vpmu" -e "$S/samples/sum.expect" "$S/build/sum.vprg"
ok $? "vpmu-sim -m max.vpmu: same results as the default image"
E=$S/build/encoded.vpmu
"$T/vpmu-sim" -q -m "$E" -e "$S/encoded/tags.expect" "$S/build/tags.vprg"
ok $? "vpmu-sim -m encoded.vpmu tags.vprg matches tags.expect"
# The external signal line: asserted from the start, or after N cycles.
"$T/vpmu-sim" -q -x -m "$E" -e "$S/encoded/wait.expect" "$S/build/wait.vprg"
ok $? "vpmu-sim -x wait.vprg matches wait.expect"
"$T/vpmu-sim" -m "$E" --ext-at=100 "$S/build/wait.vprg" >"$tmp/out"
grep -qx 'reg r1 50' "$tmp/out" && grep -qx 'cycles 110' "$tmp/out"
ok $? "vpmu-sim --ext-at=100 wait.vprg: 50 polls, 110 cycles"
"$T/vpmu-sim" -m "$E" -b 1000 "$S/build/wait.vprg" >"$tmp/out"
grep -qx 'stop budget' "$tmp/out" && grep -qx 'reg r1 499' "$tmp/out"
ok $? "vpmu-sim wait.vprg without the line: spins to the budget"
"$T/vpmu-sim" --ext-at=0 "$S/build/sum.vprg" >/dev/null 2>"$tmp/err"
[ $? = 125 ] && grep -q "bad --ext-at '0'" "$tmp/err"
ok $? "vpmu-sim --ext-at=0: exit 125, says why"
for t in vpmu-sim vpmu-run; do
	bad=0
	for m in 0 7 0x1000001 2^40 4x; do
		"$T/$t" --mem="$m" "$S/build/sum.vprg" >/dev/null 2>"$tmp/err"
		[ $? = 125 ] && grep -qx "$t: bad memory size '$m'" "$tmp/err" ||
			bad=1
	done
	[ $bad = 0 ]
	ok $? "$t --mem: 0, not a multiple of 4, beyond 16 MiB, junk: exit 125, says so"
done
"$T/vpmu-sim" -n 3 "$S/build/sum.vprg" | grep -c '^run [123]: stop halt' | grep -qx 3
ok $? "vpmu-sim -n 3 runs three times"
"$T/vpmu-sim" -q -e "$S/samples/sum.expect" "$S/build/memcpy.vprg" 2>"$tmp/err"
[ $? = 1 ] && grep -q 'sum.expect:[0-9]*: error: event cycles: got 3120, want 179' "$tmp/err"
ok $? "vpmu-sim: a mismatch exits 1 and names file, line, got and want"
"$T/vpmu-sim" "$S/build/default.vpmu" 2>"$tmp/err"
[ $? = 126 ] && [ "$(cat "$tmp/err")" = "vpmu-sim: $S/build/default.vpmu: bad magic number (not a vpmu program)" ]
ok $? "vpmu-sim: an image given as program: exit 126, names it, says why"
cp "$S/build/sum.vprg" "$tmp/bad.vprg"
printf '\001' | dd of="$tmp/bad.vprg" bs=1 seek=70 conv=notrunc 2>/dev/null
"$T/vpmu-run" "$tmp/bad.vprg" 2>"$tmp/err"
[ $? = 126 ] && grep -q 'checksum mismatch' "$tmp/err"
ok $? "vpmu-run: bad checksum: exit 126 (a program it cannot run)"
"$T/vpmu-run" -b 2^41 "$S/build/sum.vprg" 2>/dev/null; [ $? = 125 ]
ok $? "vpmu-run: budget above 2^40: exit 125"
"$T/vpmu-run" -d "$tmp/none" "$S/build/sum.vprg" 2>"$tmp/err"
[ $? = 125 ] && grep -q "^vpmu-run: $tmp/none: No such file" "$tmp/err"
ok $? "vpmu-run: no device: exit 125, names it"
"$T/vpmu-run" -d /dev/null "$S/build/sum.vprg" 2>"$tmp/err"
[ $? = 125 ] && grep -q '^vpmu-run: VPMU_IOC_RUN: .*does not know VPMU_IOC_RUN' "$tmp/err"
ok $? "vpmu-run: not the vpmu device: exit 125, ENOTTY explained"
"$T/vpmu-run" -j -d /dev/null "$S/build/sum.vprg" 2>"$tmp/err"
[ $? = 125 ] && grep -q '^vpmu-run: VPMU_IOC_RUN: ' "$tmp/err"
ok $? "vpmu-run -j (perf stat's short for --json): taken, on to the device"
"$T/vpmu-run" -r 2 -d /dev/null "$S/build/sum.vprg" 2>"$tmp/err"
[ $? = 125 ] && grep -q '^vpmu-run: VPMU_IOC_RUN: ' "$tmp/err" &&
	"$T/vpmu-run" --repeat=2 --device=/dev/null "$S/build/sum.vprg" \
		2>"$tmp/err"
[ $? = 125 ] && grep -q '^vpmu-run: VPMU_IOC_RUN: ' "$tmp/err"
ok $? "vpmu-run -r 2, --repeat=2 (perf stat's): taken, on to the device"

# perf stat's letters: -r is its --repeat; the old short forms it means
# something else by (-n, -b, -x, -e, -t, vpmu-run's -d) are kept for
# scripts but --help lists only their long forms.
sum=$S/build/sum.vprg
"$T/vpmu-sim" --runs=3 "$sum" >"$tmp/o1" &&
	"$T/vpmu-sim" -r 3 "$sum" >"$tmp/o2" &&
	"$T/vpmu-sim" --repeat=3 "$sum" >"$tmp/o3" &&
	"$T/vpmu-sim" -n 3 "$sum" >"$tmp/o4" &&
	cmp -s "$tmp/o1" "$tmp/o2" && cmp -s "$tmp/o1" "$tmp/o3" &&
	cmp -s "$tmp/o1" "$tmp/o4" && grep -q '^run 3: ' "$tmp/o1"
ok $? "vpmu-sim -r 3, --repeat=3, -n 3 and --runs=3: the same three runs"
"$T/vpmu-sim" -q -n 2 -b 1M -t -e "$S/samples/sum.expect" "$sum" \
	>"$tmp/out" 2>&1 && "$T/vpmu-sim" -q -x "$sum" >/dev/null 2>&1
ok $? "vpmu-sim: the old short forms -n -b -t -e -x still taken"
bad=
for t in vpmu-sim vpmu-run; do
	"$T/$t" --help >"$tmp/help"
	grep -q '^  -r, --repeat=N ' "$tmp/help" || bad="$bad $t:-r"
	for o in n b x e t d; do
		! grep -q "^  -$o, " "$tmp/help" || bad="$bad $t:-$o"
	done
	grep -q "^The short forms -n (--runs), -b, -x, -e" "$tmp/help" ||
		bad="$bad $t:note"
done
[ -z "$bad" ] || echo "# $bad"
[ -z "$bad" ]
ok $? "vpmu-sim/vpmu-run --help: -r, --repeat; -n -b -x -e -t -d long-only, a note"

# A malformed .expect file is an input error (125), a mismatch a differing
# result (1); both are named with their line.
printf 'stop halt\nreg r2 zz\n' >"$tmp/bad.expect"
"$T/vpmu-sim" -q -e "$tmp/bad.expect" "$S/build/sum.vprg" 2>"$tmp/err"
[ $? = 125 ] && [ "$(cat "$tmp/err")" = "$tmp/bad.expect:2: error: malformed line: bad number" ]
ok $? "vpmu-sim: a malformed .expect line: exit 125, file:line named"
printf 'stop halt\nreg r2 54\n' >"$tmp/mis.expect"
"$T/vpmu-sim" -q -n 2 -e "$tmp/mis.expect" "$S/build/sum.vprg" 2>"$tmp/err"
[ $? = 1 ] && [ "$(cat "$tmp/err")" = "$tmp/mis.expect:2: error: run 1: reg r2: got 55, want 54
$tmp/mis.expect:2: error: run 2: reg r2: got 55, want 54" ]
ok $? "vpmu-sim -n 2: a mismatch in each run: exit 1, file:line: run N: what"

# The ELF files of vpmu-as -f elf run as the files they hold.
"$BIN/vpmu-as" -f elf -o "$tmp/d.elf" "$UCODE_SRC" &&
"$BIN/vpmu-as" -m "$tmp/d.elf" -f elf -o "$tmp/sum.elf" "$S/samples/sum.s" &&
"$T/vpmu-sim" -e "$S/samples/sum.expect" "$S/build/sum.vprg" >"$tmp/o1" &&
"$T/vpmu-sim" -m "$tmp/d.elf" -e "$S/samples/sum.expect" "$tmp/sum.elf" >"$tmp/o2" &&
cmp -s "$tmp/o1" "$tmp/o2"
ok $? "vpmu-sim -m IMAGE.elf PROGRAM.elf: as the image and program they hold"
"$T/vpmu-sim" -m "$tmp/sum.elf" "$S/build/sum.vprg" 2>"$tmp/err"
[ $? = 125 ] && [ "$(cat "$tmp/err")" = "vpmu-sim: $tmp/sum.elf: an ELF file without a microcode image (not from vpmu-as -f elf)" ]
ok $? "vpmu-sim -m PROGRAM.elf: not an image, exit 125"
# Where vpmu-run maps them for perf (the device is /dev/null: the run
# itself fails, after the mapping).
if command -v strace >/dev/null 2>&1; then
	strace -o "$tmp/trace" -e trace=mmap "$T/vpmu-run" -d /dev/null \
		-m "$tmp/d.elf" "$tmp/sum.elf" >/dev/null 2>"$tmp/err"
	rc=$?
	grep -q '^mmap(0x200000000000, [0-9]*, PROT_READ|PROT_EXEC, MAP_PRIVATE|MAP_FIXED_NOREPLACE, [0-9]*, 0x1000) = 0x200000000000$' "$tmp/trace" &&
	grep -q '^mmap(0x100000000000, 24, PROT_READ|PROT_EXEC, MAP_PRIVATE|MAP_FIXED_NOREPLACE, [0-9]*, 0x1000) = 0x100000000000$' "$tmp/trace" &&
	[ $rc = 125 ] && grep -q 'VPMU_IOC_RUN' "$tmp/err"
	ok $? "vpmu-run maps the microcode ELF at 0x200000000000 and the program ELF at 0x100000000000"
	if [ -f "$S/build/rv32/fib.elf" ]; then
		strace -o "$tmp/trace" -e trace=mmap "$T/vpmu-run" -d /dev/null \
			"$S/build/rv32/fib.elf" >/dev/null 2>&1
		grep -q '^mmap(0x100000010000, [0-9]*, PROT_READ|PROT_EXEC, MAP_PRIVATE|MAP_FIXED_NOREPLACE, [0-9]*, 0) = 0x100000010000$' "$tmp/trace" &&
		[ "$(grep -c 'MAP_FIXED_NOREPLACE' "$tmp/trace")" = 1 ]
		ok $? "vpmu-run maps an RV32 ELF's executable segment at 0x100000000000 + its address"
	else
		ok 0 "vpmu-run maps an RV32 ELF # SKIP no share/build/rv32/fib.elf"
	fi
else
	ok 0 "vpmu-run maps the ELF files # SKIP no strace"
	ok 0 "vpmu-run maps an RV32 ELF # SKIP no strace"
fi
# An RV32 ELF with the RISC-V mapping symbols GNU as emits: mapped as a
# copy in $XDG_CACHE_HOME/vpmu/perf/HASH/NAME whose mapping symbols, and
# nothing else, are hidden (one byte each: st_other), written once.
P=$S/build/rv32plain/fib-O1g.elf
if [ -f "$P" ] && command -v riscv64-unknown-elf-readelf >/dev/null 2>&1 &&
   command -v strace >/dev/null 2>&1; then
	"$T/vpmu-run" -d /dev/null "$P" >/dev/null 2>&1
	c=$(find "$XDG_CACHE_HOME/vpmu/perf" -type f -name fib-O1g.elf)
	syms() { riscv64-unknown-elf-readelf -sW "$1" | awk '$1 ~ /:$/'; }
	nm=$(syms "$P" | grep -c ' DEFAULT .*\$[xd]')
	[ -n "$c" ] && [ "$(printf '%s\n' "$c" | wc -l)" = 1 ] && [ "$nm" -gt 0 ] &&
	[ "$(syms "$c" | grep -c ' HIDDEN .*\$[xd]')" = "$nm" ] &&
	[ "$(syms "$c" | grep -c ' HIDDEN ')" = "$nm" ] &&
	[ "$(cmp -l "$P" "$c" | wc -l)" = "$nm" ] &&
	{ strace -o "$tmp/trace" -e trace=openat "$T/vpmu-run" -d /dev/null \
		"$P" >/dev/null 2>&1; true; } &&
	grep -q "^openat(.*\"$c\", O_RDONLY|O_CLOEXEC) = " "$tmp/trace" &&
	! grep -q "O_CREAT" "$tmp/trace"
	ok $? "vpmu-run maps an RV32 ELF with mapping symbols as a copy that hides them, written once"
	# The symbols perf loads (dso__load_sym(), as perf report does): the
	# file's, less the mapping symbols perf 6.1 takes for labels.
	if command -v perf >/dev/null 2>&1; then
		perf probe -x "$c" -F --filter='*' >"$tmp/syms" 2>&1
		grep -qx fib "$tmp/syms" && grep -qx main "$tmp/syms" &&
		! grep -q '^\$' "$tmp/syms"
		ok $? "perf probe -F of the copy: fib, main, no mapping symbol"
	else
		skip "perf probe -F of the copy" "no perf"
	fi
	"$T/vpmu-run" -d /dev/null "$S/build/rv32/fib.elf" >/dev/null 2>&1
	[ -z "$(find "$XDG_CACHE_HOME/vpmu/perf" -type f -name fib.elf)" ]
	ok $? "vpmu-run maps an RV32 ELF without mapping symbols as it is"
	# A cache directory of another user's (root under sudo, HOME kept):
	# ${TMPDIR:-/tmp}/vpmu-perf-UID instead, made mode 0700.
	mkdir -p "$tmp/theirs" "$tmp/t"
	if [ "$(id -u)" = 0 ] && chown nobody "$tmp/theirs" 2>/dev/null; then
		XDG_CACHE_HOME=$tmp/theirs TMPDIR=$tmp/t "$T/vpmu-run" \
			-d /dev/null "$P" >/dev/null 2>&1
		[ -z "$(find "$tmp/theirs" -mindepth 1)" ] &&
		[ "$(stat -c %a "$tmp/t/vpmu-perf-0")" = 700 ] &&
		[ -n "$(find "$tmp/t/vpmu-perf-0" -type f -name fib-O1g.elf)" ]
		ok $? "vpmu-run: a cache directory of another user's: the copy in \$TMPDIR/vpmu-perf-UID"
	else
		skip "vpmu-run: a cache directory of another user's" "not root"
	fi
else
	skip "vpmu-run: a copy without mapping symbols" "no $P, cross readelf or strace"
	skip "perf probe -F of the copy" "no $P, cross readelf or strace"
	skip "vpmu-run: a cache directory of another user's" "no $P, cross readelf or strace"
	skip "vpmu-run: no copy without mapping symbols" "no $P, cross readelf or strace"
fi

# vpmu-load against a fake sysfs directory
f=$tmp/sys
mkdir -p "$f/ucode" "$f/caps"
echo vpmu32 >"$f/ucode/name"; echo 1 >"$f/ucode/version"
echo 1 >"$f/ucode/generation"; echo ok >"$f/ucode/status"
: >"$f/ucode/error"; : >"$f/ucode/image"; : >"$f/ucode/load_default"
echo 4096 >"$f/caps/cs_size"
"$T/vpmu-load" --sysfs="$f" --status | grep -q '^generation *1$'
ok $? "vpmu-load --status"
if ! command -v python3 >/dev/null; then
	n=$((n + 1))
	echo "ok $n - vpmu-load --status --json # SKIP no python3"
else
"$T/vpmu-load" --sysfs="$f" --status --json >"$tmp/j" &&
	python3 -c 'import json, sys
o = json.load(open(sys.argv[1]))
assert o["name"] == "vpmu32" and o["version"] == 1 and o["generation"] == 1, o
assert o["status"] == "ok" and o["error"] == "" and o["cs_size"] == 4096, o
assert o["nr_counters"] is None and o["ev_mode"] == "", o  # files not there
assert len(o) == 11, o' "$tmp/j"
ok $? "vpmu-load --status --json: one object, numbers as numbers, null for a number not there"
fi
"$T/vpmu-load" --sysfs="$f" --default --json >/dev/null 2>"$tmp/err"
[ $? = 125 ] && grep -q -- "--json goes with --status" "$tmp/err"
ok $? "vpmu-load --json without --status: exit 125, says why"
"$T/vpmu-load" --sysfs="$f" --status --json >"$tmp/j" &&
	"$T/vpmu-load" --sysfs="$f" -S -j >"$tmp/j2" && cmp -s "$tmp/j" "$tmp/j2"
ok $? "vpmu-load -S -j: perf stat's short for --json, the same object"
"$T/vpmu-load" --help >"$tmp/help"
! grep -q '^  -[dSt], ' "$tmp/help" &&
	grep -q '^The short forms -d, -S and -t still work' "$tmp/help" &&
	"$T/vpmu-load" --sysfs="$f" -S -t >"$tmp/o1" 2>&1 &&
	"$T/vpmu-load" --sysfs="$f" --status --time >"$tmp/o2" 2>&1 &&
	cmp -s "$tmp/o1" "$tmp/o2"
ok $? "vpmu-load --help: -d -S -t long-only, a note; -S -t still taken"
"$T/vpmu-load" --sysfs="$tmp/none" --status >"$tmp/out" 2>"$tmp/err"
[ $? = 1 ] && [ ! -s "$tmp/out" ] &&
	grep -q "none/ucode/name: No such file or directory (is vpmu.ko loaded?)" "$tmp/err"
ok $? "vpmu-load --status without the module: exit 1, says why"
"$T/vpmu-load" --sysfs="$f" -c 1000 "$S/build/max.vpmu" >/dev/null &&
	cmp -s "$f/ucode/image" "$S/build/max.vpmu"
ok $? "vpmu-load writes the image, in chunks, whole"
"$T/vpmu-load" --sysfs="$f" --default >/dev/null && [ "$(cat "$f/ucode/load_default")" = 1 ]
ok $? "vpmu-load --default writes 1"
echo rejected >"$f/ucode/status"
echo 'EBADMSG (74): checksum mismatch: x' >"$f/ucode/error"
"$T/vpmu-load" --sysfs="$f" "$S/build/default.vpmu" 2>"$tmp/err"
[ $? = 1 ] && grep -q 'kernel: EBADMSG (74): checksum mismatch' "$tmp/err"
ok $? "vpmu-load: a rejection prints ucode/error, exit 1"
"$T/vpmu-load" --check "$S/build/max.vpmu" | grep -q '4096 microwords'
ok $? "vpmu-load --check max.vpmu"
"$T/vpmu-load" --check "$S/build/sum.vprg" 2>/dev/null; [ $? = 1 ]
ok $? "vpmu-load --check of a program: exit 1"
echo ok >"$f/ucode/status"
: >"$f/ucode/image"
"$T/vpmu-load" --sysfs="$f" "$tmp/d.elf" >/dev/null &&
	cmp -s "$f/ucode/image" "$S/build/default.vpmu"
ok $? "vpmu-load IMAGE.elf writes the image the ELF file holds"
"$T/vpmu-load" --sysfs="$tmp/none" "$S/build/default.vpmu" 2>"$tmp/err"
[ $? = 125 ] && grep -q "^vpmu-load: $tmp/none/ucode/image: No such file or directory (is vpmu.ko loaded?)" "$tmp/err"
ok $? "vpmu-load without the module: exit 125, names the file"

tap_done
