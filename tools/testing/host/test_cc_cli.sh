#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_cc_cli.sh - vpmu-cc, the compiler wrapper for C programs with
# picolibc (TAP):
#
#   - --version, --help, its man page's exit statuses;
#   - a missing compiler or missing runtime sources: one line, exit 125;
#   - with riscv64-unknown-elf-gcc and picolibc: hello.c builds and runs
#     under vpmu-sim as under qemu-riscv32 (output and exit status), a
#     program with <vpmu_counters.h> reads its counters, -march and -mabi
#     given are the caller's, a compile error is the compiler's exit 1
#     and so is no input file, with options or without; the runtime is
#     built once into the cache and again when its sources change,
#     --print-specs names the cache's specs file.
#
# Against the tree's vpmu-cc or an installed one (VPMU_BIN, VPMU_SHARE).
# The compiler and picolibc are not installed here: the host tier's deps
# (tools/testing/host/Makefile) install them, and test_rv32.sh.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/tap.sh"
tap_build vpmu-cc vpmu-sim share
CC=$BIN/vpmu-cc
export VPMU_CC_CACHE=$tmp/cache
if [ -n "${VPMU_BIN:-}" ]; then
	MAN=$(dirname "$VPMU_BIN")/share/man/man1
else
	MAN=$TOP/tools/vpmu/man
fi
VERSION=${VPMU_VERSION:-$(sed -n '1s/^vpmu (\([^ ]*\)) .*/\1/p' "$TOP/debian/changelog")}

out=$("$CC" --version 2>"$tmp/err")
[ $? = 0 ] && [ "$out" = "vpmu-cc (vpmu) $VERSION" ] && [ ! -s "$tmp/err" ]
ok $? "vpmu-cc --version: \"vpmu-cc (vpmu) $VERSION\", exit 0"
"$CC" --help >"$tmp/out" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
	grep -q -- '--print-specs' "$tmp/out" && grep -q -- '--version' "$tmp/out"
ok $? "vpmu-cc --help: exit 0, lists --print-specs and --version"
m=$MAN/vpmu-cc.1
[ -f "$m" ] || m=$m.gz
zcat -f "$m" 2>/dev/null | awk '
	/^\.SH / { sec = $2 }
	sec == "EXIT" && /^\.B (0|1|125)$/ { seen[$2] = 1 }
	/(\\-\\-|--)version/ { v = 1 }
	END { exit !(seen[0] && seen[1] && seen[125] && v) }'
ok $? "man vpmu-cc: exit statuses 0, 1, 125 and --version"

echo 'int main(void) { return 0; }' >"$tmp/z.c"
VPMU_CC_GCC=$tmp/no-gcc "$CC" -o "$tmp/z.elf" "$tmp/z.c" >"$tmp/out" 2>"$tmp/err"
[ $? = 125 ] && [ ! -s "$tmp/out" ] &&
	[ "$(cat "$tmp/err")" = "vpmu-cc: no $tmp/no-gcc (apt install gcc-riscv64-unknown-elf)" ]
ok $? "no compiler: one line naming the package, exit 125"
VPMU_SHARE=$tmp/no-share "$CC" -o "$tmp/z.elf" "$tmp/z.c" >"$tmp/out" 2>"$tmp/err"
[ $? = 125 ] && [ "$(cat "$tmp/err")" = "vpmu-cc: $tmp/no-share/rv32/libc/vpmu_rt.c: No such file or directory" ]
ok $? "no runtime sources: one line, exit 125"

PICOLIBC=/usr/lib/picolibc/riscv64-unknown-elf
if ! command -v riscv64-unknown-elf-gcc >/dev/null 2>&1 ||
   [ ! -f "$PICOLIBC/include/stdio.h" ]; then
	ok 0 "programs built with vpmu-cc # SKIP no riscv64-unknown-elf-gcc or picolibc"
	tap_done
	exit
fi
IMG=$SHARE/build/rv32im.vpmu

"$CC" -O2 -o "$tmp/hello.elf" "$SHARE/rv32/libc/hello.c"
ok $? "vpmu-cc -O2 -o hello.elf hello.c"
"$BIN/vpmu-sim" -q -m "$IMG" "$tmp/hello.elf" >"$tmp/v.out"
vrc=$?
if command -v qemu-riscv32 >/dev/null 2>&1; then
	qemu-riscv32 "$tmp/hello.elf" >"$tmp/q.out"
	qrc=$?
	[ "$vrc" = 3 ] && [ "$qrc" = 3 ] && cmp -s "$tmp/v.out" "$tmp/q.out"
	ok $? "hello.elf: vpmu-sim's output and exit status (3) as qemu-riscv32's"
else
	[ "$vrc" = 3 ] && grep -q '^setjmp: longjmp from 10 calls deep returned 42$' "$tmp/v.out"
	ok $? "hello.elf: vpmu-sim's output and exit status 3 # qemu-riscv32 not installed"
fi
# elf_flags ELF - the ELF header's Flags line (RVC: compressed code)
elf_flags() {
	riscv64-unknown-elf-readelf -h "$1" | sed -n 's/^ *Flags: *//p'
}
elf_flags "$tmp/hello.elf" | grep -q RVC
ok $? "hello.elf is built for rv32imac: RVC in its flags ($(elf_flags "$tmp/hello.elf"))"

cat >"$tmp/c.c" <<'C'
#include <stdio.h>
#include <time.h>
#include <vpmu_counters.h>

int main(void)
{
	unsigned long i0 = rv_csr_read(RV_CSR_INSTRET);
	unsigned long i1 = rv_csr_read(RV_CSR_INSTRET);
	unsigned long long c = rv_counter64(RV_CSR_CYCLE);

	printf("%lu %lu %d\n", i1 - i0,
	       rv_csr_read(RV_CSR_HPMCOUNTER(3)), c > 0 && clock() > 0);
	return 0;
}
C
"$CC" -O2 -o "$tmp/c.elf" "$tmp/c.c" &&
	"$BIN/vpmu-sim" -q -m "$IMG" "$tmp/c.elf" >"$tmp/c.out" &&
	[ "$(cat "$tmp/c.out")" = "1 0 1" ]
ok $? "<vpmu_counters.h>: instret 1 apart, hpmcounter3 0 with no event, the cycles and clock() running ($(cat "$tmp/c.out" 2>/dev/null))"

"$CC" -march=rv32im -O2 -o "$tmp/im.elf" "$tmp/z.c" &&
	! elf_flags "$tmp/im.elf" | grep -q RVC &&
	"$BIN/vpmu-sim" -q -m "$IMG" "$tmp/im.elf"
ok $? "-march=rv32im given: the caller's, no RVC ($(elf_flags "$tmp/im.elf")), runs"
echo 'int main(void) { return x; }' >"$tmp/bad.c"
"$CC" -o "$tmp/bad.elf" "$tmp/bad.c" >/dev/null 2>&1
[ $? = 1 ]
ok $? "a compile error: the compiler's exit status 1"
# No input file: the compiler's error, the same with options or without.
"$CC" >"$tmp/out" 2>"$tmp/err0"
rc0=$?
"$CC" -O2 -o "$tmp/none.elf" >"$tmp/out" 2>"$tmp/err1"
rc1=$?
[ $rc0 = 1 ] && [ $rc1 = 1 ] && grep -q 'no input files' "$tmp/err0" &&
	cmp -s "$tmp/err0" "$tmp/err1"
ok $? "no input file, with options or without: the compiler's message and exit 1 ($rc0, $rc1)"

specs=$("$CC" --print-specs)
[ -f "$specs" ] && [ "${specs#"$tmp/cache/"}" != "$specs" ] &&
	[ "$(find "$tmp/cache" -mindepth 1 -maxdepth 1 | wc -l)" = 1 ]
ok $? "the runtime built once, into the cache: --print-specs $specs"
cp -r "$SHARE" "$tmp/share"
echo '/* changed */' >>"$tmp/share/rv32/libc/vpmu_rt.c"
VPMU_SHARE=$tmp/share "$CC" -o "$tmp/z.elf" "$tmp/z.c" &&
	[ "$(find "$tmp/cache" -mindepth 1 -maxdepth 1 | wc -l)" = 2 ]
ok $? "changed runtime sources: built again, beside the first"
tap_done
