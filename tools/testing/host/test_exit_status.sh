#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_exit_status.sh - the exit-status table every tool shares
# (toolchain.rst, "Command-line conventions"; each man page's EXIT
# STATUS; enum vpmu_exit in tools/vpmu/vpmu_cli.h), row by row, in every
# tool a row applies to (TAP):
#
#     0  success
#     1  a result differs from the expected (.expect, vpmu-load)
#   124  an RV32 ELF program out of its budget        (vpmu-sim, vpmu-run)
#   125  the tool's own failure: a bad option, a file that cannot be read
#        or written (stdout, stderr: /dev/full), an invalid input
#   126  the program file cannot be run                (vpmu-sim, vpmu-run)
#   127  there is no program file                      (vpmu-sim, vpmu-run)
#   132, 133, 139  an RV32 ELF program's illegal instruction, ebreak,
#        fault                                         (vpmu-sim, vpmu-run)
#
# and an RV32 ELF program's own status passed on, 2 and 125 among them
# (a program's own 125 looks like the tool's, as under timeout(1)).
# vpmu-cc: the compiler's status passes through, "no input files" the
# same with options or without; its own failures 125.  The man pages
# list the same rows, those of the enum.
#
# The RV32 programs need riscv64-unknown-elf-gcc (the host tier's deps
# install it; without it they are skipped).  vpmu-run's rows that need a
# run need /dev/vpmu: the VM tier (vpmu_rv32_stat.sh compares vpmu-run's
# exit status with vpmu-sim's); here they are skipped.  Against the
# tree's tools, or installed ones (VPMU_BIN, VPMU_SHARE).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/tap.sh"
TOOLS="vpmu-as vpmu-dis vpmu-run vpmu-load vpmu-sim vpmu-hist"
# shellcheck disable=SC2086 # the list of tools
tap_build $TOOLS vpmu-cc share
S=$SHARE
IMG=$S/build/default.vpmu
PROG=$S/build/sum.vprg
RVCC=${RV32_CC:-riscv64-unknown-elf-gcc}
if [ -n "${VPMU_BIN:-}" ]; then
	MAN=$(dirname "$VPMU_BIN")/share/man/man1
else
	MAN=$TOP/tools/vpmu/man
fi

# exits WANT NAME CMD... - CMD exits WANT, its stdin /dev/null, its
# stdout $OUT (default $tmp/out), its stderr $ERR (default $tmp/err).
exits() {
	local want=$1 name=$2 rc r
	shift 2
	"$@" <"/dev/null" >"${OUT:-$tmp/out}" 2>"${ERR:-$tmp/err}"
	rc=$?
	[ "$rc" = "$want" ]
	r=$?
	if [ $r != 0 ]; then
		echo "# exit $rc, not $want"
		[ -z "${ERR:-}" ] && sed 's/^/#   /' "$tmp/err" | head -5
	fi
	ok $r "$name: exit $want"
}

# says LINE - the last command's stderr ($tmp/err) is exactly LINE.
says() {
	[ "$(cat "$tmp/err")" = "$1" ]
	local r=$?
	[ $r = 0 ] || sed 's/^/#   got: /' "$tmp/err" | head -5
	ok $r "  ... and says \"$1\""
}

# full NAME LINE CMD... - CMD, its stdout on /dev/full, exits 125 and,
# LINE given, says LINE; skipped where there is no /dev/full.
full() {
	local name=$1 line=$2
	shift 2
	if [ ! -c /dev/full ]; then
		skip "$name >/dev/full" "no /dev/full"
		return
	fi
	OUT=/dev/full exits 125 "$name >/dev/full" "$@"
	[ -z "$line" ] || says "$line"
}

printf 'junk\n' >"$tmp/junk"
printf 'bogus\n' >"$tmp/bad.s"
"$BIN/vpmu-as" -f elf -o "$tmp/d.elf" "$UCODE_SRC" &&
	"$BIN/vpmu-as" -m "$tmp/d.elf" -f elf -o "$tmp/sum.elf" "$S/samples/sum.s"
ok $? "vpmu-as -f elf: an image and a program ELF to test with"

# ---- in every tool: 0, and 125 for its own failures -----------------------
for t in $TOOLS; do
	exits 0 "$t --version" "$BIN/$t" --version
	exits 125 "$t --no-such-option" "$BIN/$t" --no-such-option x
	full "$t --help" "" "$BIN/$t" --help
	full "$t --version" "$t: standard output: No space left on device" \
		"$BIN/$t" --version
done

# vpmu-as
exits 0 "vpmu-as SOURCE" "$BIN/vpmu-as" -o "$tmp/a.vpmu" "$UCODE_SRC"
exits 125 "vpmu-as of a missing source" "$BIN/vpmu-as" "$tmp/nope.vus"
says "vpmu-as: $tmp/nope.vus: No such file or directory"
exits 125 "vpmu-as of a source with errors" "$BIN/vpmu-as" -o "$tmp/b.vpmu" "$tmp/bad.s"
exits 125 "vpmu-as -m IMAGE that is not one" "$BIN/vpmu-as" -m "$tmp/junk" -o "$tmp/p.vprg" "$S/samples/sum.s"
full "vpmu-as -o -" "vpmu-as: -: No space left on device" \
	"$BIN/vpmu-as" -o - "$UCODE_SRC"
if [ -c /dev/full ]; then
	exits 125 "vpmu-as -o /dev/full" "$BIN/vpmu-as" -o /dev/full "$UCODE_SRC"
	says "vpmu-as: /dev/full: No space left on device"
else
	skip "vpmu-as -o /dev/full" "no /dev/full"
fi

# vpmu-dis
exits 0 "vpmu-dis IMAGE" "$BIN/vpmu-dis" "$IMG"
exits 125 "vpmu-dis of a missing image" "$BIN/vpmu-dis" "$tmp/nope.vpmu"
exits 125 "vpmu-dis of a file that is no image" "$BIN/vpmu-dis" "$tmp/junk"
exits 125 "vpmu-dis -m IMAGE of a file that is no program" "$BIN/vpmu-dis" -m "$IMG" "$IMG"
full "vpmu-dis IMAGE" "vpmu-dis: -: No space left on device" \
	"$BIN/vpmu-dis" "$IMG"

# vpmu-load (no module here: a fake sysfs directory, or none)
exits 0 "vpmu-load --check IMAGE" "$BIN/vpmu-load" --check "$IMG"
exits 1 "vpmu-load --check of an invalid image" "$BIN/vpmu-load" --check "$PROG"
exits 1 "vpmu-load --status without a module" "$BIN/vpmu-load" --sysfs="$tmp/none" --status
exits 125 "vpmu-load of a missing image" "$BIN/vpmu-load" "$tmp/nope.vpmu"
exits 125 "vpmu-load of an ELF file without an image" "$BIN/vpmu-load" --check "$tmp/sum.elf"
exits 125 "vpmu-load IMAGE without a loader to write to" "$BIN/vpmu-load" --sysfs="$tmp/none" "$IMG"
full "vpmu-load --check IMAGE" \
	"vpmu-load: standard output: No space left on device" \
	"$BIN/vpmu-load" --check "$IMG"

# vpmu-hist
exits 0 "vpmu-hist --simulate" "$BIN/vpmu-hist" -q -o "$tmp/h.vuhs" --simulate -m "$IMG" "$PROG"
exits 125 "vpmu-hist of a missing histogram" "$BIN/vpmu-hist" -m "$IMG" "$tmp/nope.vuhs"
exits 125 "vpmu-hist of a file that is no histogram" "$BIN/vpmu-hist" -m "$IMG" "$tmp/junk"
exits 125 "vpmu-hist --buckets of a missing file" "$BIN/vpmu-hist" --buckets="$tmp/nope"
full "vpmu-hist HIST" "vpmu-hist: standard output: No space left on device" \
	"$BIN/vpmu-hist" -m "$IMG" "$tmp/h.vuhs"
# stderr too: --simulate says how the run stopped there
if [ -c /dev/full ]; then
	ERR=/dev/full exits 125 "vpmu-hist --simulate 2>/dev/full" \
		"$BIN/vpmu-hist" -o "$tmp/h2.vuhs" --simulate -m "$IMG" "$PROG"
else
	skip "vpmu-hist --simulate 2>/dev/full" "no /dev/full"
fi

# ---- vpmu-sim and vpmu-run: 1, 125, 126 and 127 for program files -------
printf 'stop halt\nreg r2 54\n' >"$tmp/mis.expect"
printf 'stop halt\nreg r2 zz\n' >"$tmp/bad.expect"
exits 0 "vpmu-sim PROGRAM" "$BIN/vpmu-sim" -e "$S/samples/sum.expect" "$PROG"
exits 1 "vpmu-sim -e of a run that does not match" "$BIN/vpmu-sim" -e "$tmp/mis.expect" "$PROG"
exits 125 "vpmu-sim -e of a malformed .expect file" "$BIN/vpmu-sim" -e "$tmp/bad.expect" "$PROG"
exits 125 "vpmu-sim -e of a missing .expect file" "$BIN/vpmu-sim" -e "$tmp/nope.expect" "$PROG"
exits 125 "vpmu-sim -m of a missing image" "$BIN/vpmu-sim" -m "$tmp/nope.vpmu" "$PROG"
exits 125 "vpmu-sim -m of a file that is no image" "$BIN/vpmu-sim" -m "$tmp/junk" "$PROG"
exits 125 "vpmu-sim --hu of a bad histogram-unit program" "$BIN/vpmu-sim" --hu=bogus "$PROG"
full "vpmu-sim PROGRAM" "vpmu-sim: standard output: No space left on device" \
	"$BIN/vpmu-sim" "$PROG"

exits 0 "vpmu-run --help" "$BIN/vpmu-run" --help
exits 125 "vpmu-run -m of a file that is no image" "$BIN/vpmu-run" -m "$tmp/junk" "$PROG"
exits 125 "vpmu-run -e of a missing .expect file" "$BIN/vpmu-run" -e "$tmp/nope.expect" "$PROG"
exits 125 "vpmu-run without /dev/vpmu" "$BIN/vpmu-run" -d "$tmp/none" "$PROG"
exits 125 "vpmu-run, the run refused (not the vpmu device)" "$BIN/vpmu-run" -d /dev/null "$PROG"

mkdir "$tmp/dir"
for t in vpmu-sim vpmu-run; do
	exits 127 "$t of a missing program file" "$BIN/$t" "$tmp/nope.vprg"
	says "$t: $tmp/nope.vprg: No such file or directory"
	exits 127 "$t of a program file under a file" "$BIN/$t" "$tmp/junk/x.vprg"
	exits 126 "$t of a directory" "$BIN/$t" "$tmp/dir"
	exits 126 "$t of a file that is no program" "$BIN/$t" "$tmp/junk"
	exits 126 "$t of an image given as the program" "$BIN/$t" "$IMG"
	exits 126 "$t of a host ELF executable" "$BIN/$t" /bin/sh
	if [ "$(id -u)" != 0 ]; then
		cp "$PROG" "$tmp/unreadable.vprg"
		chmod 0 "$tmp/unreadable.vprg"
		exits 126 "$t of an unreadable program file" "$BIN/$t" "$tmp/unreadable.vprg"
	else
		skip "$t of an unreadable program file" "root reads it"
	fi
done

# ---- RV32 ELF programs: their own status, 124, 132, 133, 139 ------------
# rv32 NAME INSN... - $tmp/NAME.elf, the instructions at _start
rv32() {
	local name=$1
	shift
	{ printf '\t.globl _start\n_start:\n'; printf '\t%s\n' "$@"; } >"$tmp/$name.S"
	"$RVCC" -march=rv32im -mabi=ilp32 -nostdlib -static -Ttext=0x10000 \
		-o "$tmp/$name.elf" "$tmp/$name.S" 2>"$tmp/cc.err"
}
if ! command -v "$RVCC" >/dev/null 2>&1; then
	skip "RV32 ELF programs' statuses" "no $RVCC"
else
	rv32 exit0 'li a0, 0' 'li a7, 93' 'ecall' &&
	rv32 exit2 'li a0, 2' 'li a7, 93' 'ecall' &&
	rv32 exit125 'li a0, 125' 'li a7, 93' 'ecall' &&
	rv32 loop '1: j 1b' &&
	rv32 unimp 'nop' 'unimp' &&
	rv32 ebreak 'nop' 'ebreak' &&
	rv32 load 'nop' 'lui t0, 0x80000' 'lw a0, 4(t0)'
	ok $? "$RVCC: the RV32 programs build"
	exits 0 "vpmu-sim of a program that exits 0" "$BIN/vpmu-sim" "$tmp/exit0.elf"
	exits 2 "vpmu-sim of a program that exits 2 (its own, not a usage error)" "$BIN/vpmu-sim" "$tmp/exit2.elf"
	[ ! -s "$tmp/err" ]
	ok $? "  ... and says nothing"
	exits 125 "vpmu-sim of a program that exits 125 (its own: as under timeout(1), the status alone does not tell)" "$BIN/vpmu-sim" "$tmp/exit125.elf"
	[ ! -s "$tmp/err" ]
	ok $? "  ... and says nothing: the tool's own 125 comes with a message"
	exits 124 "vpmu-sim of a program out of budget" "$BIN/vpmu-sim" -b 1000 "$tmp/loop.elf"
	exits 132 "vpmu-sim of a program on an illegal instruction" "$BIN/vpmu-sim" "$tmp/unimp.elf"
	exits 133 "vpmu-sim of a program on an ebreak" "$BIN/vpmu-sim" "$tmp/ebreak.elf"
	exits 139 "vpmu-sim of a program on a fault" "$BIN/vpmu-sim" "$tmp/load.elf"
	exits 126 "vpmu-sim of a program outside its memory (--mem)" "$BIN/vpmu-sim" --mem=4096 "$tmp/exit0.elf"
	head -c 100 "$tmp/exit0.elf" >"$tmp/short.elf"
	exits 126 "vpmu-sim of a truncated ELF file" "$BIN/vpmu-sim" "$tmp/short.elf"
	exits 126 "vpmu-run of a program outside its memory (--mem)" "$BIN/vpmu-run" --mem=4096 "$tmp/exit0.elf"
	exits 125 "vpmu-sim -m of a missing image, with an RV32 program" "$BIN/vpmu-sim" -m "$tmp/nope.vpmu" "$tmp/exit2.elf"
fi
for row in "0 its own status" "1 a mismatch" "124 out of budget" \
	   "132 illegal instruction" "133 ebreak" "139 fault"; do
	skip "vpmu-run: ${row#* } (${row%% *})" "a run needs /dev/vpmu: the VM tier"
done

# ---- vpmu-cc: the compiler's status; its own failures 125 ----------------
export VPMU_CC_CACHE=$tmp/cache
echo 'int main(void) { return 0; }' >"$tmp/z.c"
"$BIN/vpmu-cc" >/dev/null 2>"$tmp/err0"
rc0=$?
"$BIN/vpmu-cc" -O2 -o "$tmp/x.elf" >/dev/null 2>"$tmp/err1"
rc1=$?
if command -v "$RVCC" >/dev/null 2>&1 &&
   [ -f /usr/lib/picolibc/riscv64-unknown-elf/include/stdio.h ]; then
	want=1
else
	want=125	# no compiler or picolibc: vpmu-cc's own failure first
fi
[ "$rc0" = "$want" ] && [ "$rc1" = "$want" ]
ok $? "vpmu-cc with no input files, with options or without: one status, $want ($rc0, $rc1)"
VPMU_CC_GCC=$tmp/no-gcc exits 125 "vpmu-cc without its compiler" "$BIN/vpmu-cc" -o "$tmp/z.elf" "$tmp/z.c"
VPMU_SHARE=$tmp/no-share exits 125 "vpmu-cc without the runtime's sources" "$BIN/vpmu-cc" -o "$tmp/z.elf" "$tmp/z.c"
if [ "$want" = 1 ]; then
	echo 'int main(void) { return x; }' >"$tmp/bad.c"
	exits 1 "vpmu-cc of a program with errors: the compiler's status" "$BIN/vpmu-cc" -o "$tmp/bad.elf" "$tmp/bad.c"
else
	skip "vpmu-cc of a program with errors" "no $RVCC or picolibc"
fi

# ---- the man pages: the same rows everywhere, the enum's ------------------
rows="0 1 124 125 126 127 132 133 139"
h=$TOP/tools/vpmu/vpmu_cli.h
if [ -f "$h" ]; then
	got=$(sed -n 's/^[[:space:]]*VPMU_EXIT_[A-Z_]*[[:space:]]*=[[:space:]]*\([0-9]*\),.*/\1/p' \
		"$h" | sort -n | tr '\n' ' ')
	[ "${got% }" = "$rows" ]
	ok $? "vpmu_cli.h: enum vpmu_exit has the table's rows (${got% })"
else
	skip "vpmu_cli.h: enum vpmu_exit" "no source tree"
fi
for t in $TOOLS; do
	m=$MAN/$t.1
	[ -f "$m" ] || m=$m.gz
	if [ ! -f "$m" ]; then
		skip "man $t: EXIT STATUS" "no man page under $MAN"
		continue
	fi
	got=$(zcat -f "$m" | awk '/^\.SH / { sec = $2 }
		sec == "EXIT" && /^\.B [0-9]+$/ { print $2 }' | tr '\n' ' ')
	[ "${got% }" = "$rows" ]
	ok $? "man $t: EXIT STATUS lists ${got% }"
	"$BIN/$t" --help | grep -q ' 125 '
	ok $? "$t --help: its exit statuses, 125 among them"
done
tap_done
