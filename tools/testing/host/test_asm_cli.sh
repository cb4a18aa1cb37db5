#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_asm_cli.sh - vpmu-as and vpmu-dis on the command line (TAP): help,
# exit codes, error format, no output left behind on error, the C form,
# and the round trips through files.  The library itself is tested by
# test_asm.
set -u

. "$(dirname "$0")/tap.sh"
AS=$BIN/vpmu-as
DIS=$BIN/vpmu-dis
UCODE=$UCODE_SRC
SAMPLES=$SHARE/samples
# Build the tools if needed (quietly; a build failure is a test failure).
tap_build vpmu-as vpmu-dis

"$AS" --help | grep -q '^Usage: vpmu-as'; ok $? "vpmu-as --help"
"$DIS" --help | grep -q '^Usage: vpmu-dis'; ok $? "vpmu-dis --help"
"$AS" >/dev/null 2>&1; [ $? = 2 ]; ok $? "vpmu-as without a source: exit 2"

"$AS" -o "$tmp/d.vpmu" "$UCODE"; ok $? "assemble default.vus"
"$DIS" -o "$tmp/d.vus" "$tmp/d.vpmu" 2>"$tmp/err"
ok $? "disassemble it"
[ ! -s "$tmp/err" ]; ok $? "no re-assembly warning"
"$AS" -o "$tmp/d2.vpmu" "$tmp/d.vus" && cmp -s "$tmp/d.vpmu" "$tmp/d2.vpmu"
ok $? "as(dis(image)) is byte-identical"

"$AS" --format=c --symbol=vpmu_default_ucode -o "$tmp/u.c" "$UCODE"
ok $? "--format=c"
grep -q '^const u8 vpmu_default_ucode\[\] = {$' "$tmp/u.c" &&
grep -q '^const size_t vpmu_default_ucode_len = sizeof(vpmu_default_ucode);$' \
	"$tmp/u.c" && head -1 "$tmp/u.c" | grep -q SPDX &&
! grep -q '.\{81\}' "$tmp/u.c"
ok $? "C form: symbols, SPDX line, lines within 80 columns"

for s in "$SAMPLES"/*.s; do
	b=$(basename "$s" .s)
	"$AS" -m "$tmp/d.vpmu" -o "$tmp/$b.vprg" "$s" &&
	"$DIS" -m "$tmp/d.vpmu" -o "$tmp/$b.lst" "$tmp/$b.vprg" 2>"$tmp/err" &&
	[ ! -s "$tmp/err" ] &&
	"$AS" -m "$tmp/d.vpmu" -o "$tmp/$b.2.vprg" "$tmp/$b.lst" &&
	cmp -s "$tmp/$b.vprg" "$tmp/$b.2.vprg"
	ok $? "program $b: as -> dis -> as through files"
done
# memcpy.s ends in "dst: .space WORDS * 4": one line, not a .word per word
grep -Eq '^	\.space 64 +// 00a0: 16 zero words$' "$tmp/memcpy.lst"
ok $? "vpmu-dis lists a run of zero words as one .space"
! grep -q '\.word 0x00000000' "$tmp/memcpy.lst"
ok $? "no .word per zero word"

printf '\tADD t0, t1\nx:\tFROB\n\tHALT\n' > "$tmp/bad.vus"
"$AS" -o "$tmp/bad.vpmu" "$tmp/bad.vus" 2>"$tmp/err"
[ $? = 1 ]; ok $? "bad source: exit 1"
[ ! -e "$tmp/bad.vpmu" ] && [ -z "$(find "$tmp" -mindepth 1 -maxdepth 1 -name '*tmp*')" ]
ok $? "bad source: no output file, no temporary left"
grep -qx "$tmp/bad.vus:1:12: error: expected ',' but found end of line" \
	"$tmp/err" &&
grep -qx "$tmp/bad.vus:2:4: error: unknown mnemonic 'FROB'" "$tmp/err"
ok $? "bad source: every error as file:line:col: error: message"

printf 'garbage' > "$tmp/junk"
"$DIS" "$tmp/junk" >/dev/null 2>&1; [ $? = 1 ]
ok $? "vpmu-dis of a non-image: exit 1"

tap_done
