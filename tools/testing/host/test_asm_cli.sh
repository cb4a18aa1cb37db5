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
"$AS" >/dev/null 2>&1; [ $? = 125 ]; ok $? "vpmu-as without a source: exit 125"

"$AS" -o "$tmp/d.vpmu" "$UCODE"; ok $? "assemble default.vus"
"$DIS" -o "$tmp/d.vus" "$tmp/d.vpmu" 2>"$tmp/err"
ok $? "disassemble it"
[ ! -s "$tmp/err" ]; ok $? "no re-assembly warning"
"$AS" -o "$tmp/d2.vpmu" "$tmp/d.vus" && cmp -s "$tmp/d.vpmu" "$tmp/d2.vpmu"
ok $? "as(dis(image)) is byte-identical"

"$AS" --format=c --symbol=vpmu_default_image -o "$tmp/u.c" "$UCODE"
ok $? "--format=c"
grep -q '^const u8 vpmu_default_image\[\] = {$' "$tmp/u.c" &&
grep -q '^const size_t vpmu_default_image_len = sizeof(vpmu_default_image);$' \
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
[ $? = 125 ]; ok $? "bad source: exit 125"
[ ! -e "$tmp/bad.vpmu" ] && [ -z "$(find "$tmp" -mindepth 1 -maxdepth 1 -name '*tmp*')" ]
ok $? "bad source: no output file, no temporary left"
[ "$(cat "$tmp/err")" = "$tmp/bad.vus:1:12: error: expected ',' but found end of line
    	ADD t0, t1
    	          ^
$tmp/bad.vus:2:4: error: unknown mnemonic 'FROB'
    x:	FROB
      	^" ]
ok $? "bad source: every error as gcc's file:line:col: error: message, line, caret"
"$AS" --max-errors=1 -o "$tmp/bad.vpmu" "$tmp/bad.vus" 2>"$tmp/err"
[ $? = 125 ] && [ "$(sed -n '1p;$p' "$tmp/err")" = "$tmp/bad.vus:1:12: error: expected ',' but found end of line
vpmu-as: $tmp/bad.vus: too many errors, stopping" ]
ok $? "bad source: no location, PROG: FILE: message"

printf 'garbage' > "$tmp/junk"
"$DIS" "$tmp/junk" >/dev/null 2>"$tmp/err"
[ $? = 125 ] && [ "$(cat "$tmp/err")" = "vpmu-dis: $tmp/junk: image shorter than its header (image is 7 bytes, header needs 160)" ]
ok $? "vpmu-dis of a non-image: exit 125, names it"

# A bad image is blamed, not the program assembled or listed with it.
head -c 100 "$tmp/d.vpmu" >"$tmp/trunc.vpmu"
"$DIS" -m "$tmp/trunc.vpmu" "$tmp/sum.vprg" >/dev/null 2>"$tmp/err"
[ $? = 125 ] && [ "$(cat "$tmp/err")" = "vpmu-dis: $tmp/trunc.vpmu: image shorter than its header (image is 100 bytes, header needs 160)" ]
ok $? "vpmu-dis -m trunc.vpmu sum.vprg: blames trunc.vpmu, exit 125"
"$AS" -m "$tmp/trunc.vpmu" -o "$tmp/x.vprg" "$SAMPLES/sum.s" 2>"$tmp/err"
[ $? = 125 ] && [ "$(cat "$tmp/err")" = "vpmu-as: $tmp/trunc.vpmu: image shorter than its header (image is 100 bytes, header needs 160)" ] &&
[ ! -e "$tmp/x.vprg" ]
ok $? "vpmu-as -m trunc.vpmu: names trunc.vpmu, exit 125"
"$DIS" -m "$tmp/d.vpmu" "$tmp/d.vpmu" >/dev/null 2>"$tmp/err"
[ $? = 125 ] && [ "$(cat "$tmp/err")" = "vpmu-dis: $tmp/d.vpmu: bad magic number (not a vpmu program)" ]
ok $? "vpmu-dis -m IMAGE IMAGE: the program is not one, exit 125"

# ---- CTR through vpmu-dis and back --------------------------------------
# vpmu-dis may write a CTR microword as text only where vpmu-as takes the
# text back: an ALU result, a register to write it to, not the last word.
# Every other CTR word is a .uword, and each image here comes back whole,
# with no warning from vpmu-dis.  The raw words are built from the fields
# (include/uapi/linux/vpmu.h): MOV is 0x0c, SW 0x17, LW 0x14; t0 is 32,
# pc 40, ds 43, flags 46, # 62.
ctr_equ='.equ OP_MOV, 0x0c << 1
.equ OP_SW, 0x17 << 1
.equ OP_LW, 0x14 << 1
.equ SEQ_CTR, 9 << 51
.equ MOV_T0_3, OP_MOV | 32 << 7 | 62 << 19 | 3 << 25'

ctr_round_trip() {	# ctr_round_trip NAME LINE... - as, dis, as: same bytes
	local name=$1

	shift
	{ echo "$ctr_equ"; printf '\t%s\n' "$@"; } >"$tmp/ctr.vus"
	# vpmu-as warns of the words the engine rejects, which are the point
	"$AS" -o "$tmp/ctr.vpmu" "$tmp/ctr.vus" 2>/dev/null &&
	"$DIS" -o "$tmp/ctr.dis" "$tmp/ctr.vpmu" 2>"$tmp/err" &&
	[ ! -s "$tmp/err" ] &&
	"$AS" -o "$tmp/ctr2.vpmu" "$tmp/ctr.dis" 2>/dev/null &&
	cmp -s "$tmp/ctr.vpmu" "$tmp/ctr2.vpmu"
	ok $? "CTR round trip: $name"
}

ctr_round_trip "into a register, zero, @ds" "MOV t0, #3 ; CTR" \
	"ADD.s r1, t0, #0 ; CTR ; {1}" "MOV zero, t0 ; CTR" \
	"MOV @ds, t0 ; CTR" "HALT"
grep -q '^	MOV t0, #3 ; CTR$' "$tmp/ctr.dis" &&
grep -q '^	MOV @ds, t0 ; CTR$' "$tmp/ctr.dis"
ok $? "CTR into a register: vpmu-dis writes it as text"
ctr_round_trip "NOP ; CTR (no ALU result)" ".uword SEQ_CTR" "HALT"
ctr_round_trip "SW ; CTR (no ALU result)" \
	".uword OP_SW | 32 << 13 | 37 << 19 | SEQ_CTR" "HALT"
ctr_round_trip "LW ; CTR (no ALU result)" \
	".uword OP_LW | 32 << 7 | 33 << 13 | SEQ_CTR" "HALT"
ctr_round_trip "MOV pc, t0 ; CTR (not a register)" \
	".uword OP_MOV | 40 << 7 | 32 << 19 | SEQ_CTR" "HALT"
ctr_round_trip "MOV ds, t0 ; CTR (a latch, not a register)" \
	".uword OP_MOV | 43 << 7 | 32 << 19 | SEQ_CTR" "HALT"
ctr_round_trip "MOV flags, t0 ; CTR (not a register)" \
	".uword OP_MOV | 46 << 7 | 32 << 19 | SEQ_CTR" "HALT"
ctr_round_trip "CTR as the last word" "HALT" ".uword MOV_T0_3 | SEQ_CTR"
ctr_round_trip "NOP ; CTR as the only word" ".uword SEQ_CTR"
grep -q '^	\.uword 0x0048000000000000$' "$tmp/ctr.dis"
ok $? "NOP ; CTR: vpmu-dis writes a .uword"

# ---- ELF files (-f elf), for perf ---------------------------------------
# readelf reads any ELF file; its lines for the one program header, the
# vpmu section and the symbols.
if command -v readelf >/dev/null 2>&1; then
	"$AS" -f elf -o "$tmp/d.elf" "$UCODE" && "$AS" -f elf "$tmp/d.vus" &&
	[ -f "$tmp/d.elf" ]
	ok $? "-f elf: a microcode ELF file (default name SOURCE.elf)"
	readelf -hlSW "$tmp/d.elf" >"$tmp/re" &&
	grep -Eq 'Type: +EXEC' "$tmp/re" && grep -Eq 'Class: +ELF32' "$tmp/re" &&
	[ "$(grep -c ' LOAD ' "$tmp/re")" = 1 ] &&
	grep -Eq " LOAD +0x001000 0x00000000 0x00000000 (0x0*$(printf '%x' "$(od -An -tu4 -j36 -N4 "$tmp/d.vpmu")")) \1 R E 0x1000" "$tmp/re" &&
	grep -q ' \.vpmu\.image ' "$tmp/re"
	ok $? "microcode ELF: one R E segment at 0, a byte a microword, page-aligned in the file; .vpmu.image"
	"$DIS" "$tmp/d.vpmu" >"$tmp/l1" && "$DIS" "$tmp/d.elf" >"$tmp/l2" &&
	cmp -s "$tmp/l1" "$tmp/l2"
	ok $? "vpmu-dis of the microcode ELF: the image's listing"
	# the labels: vpmu-dis's (label: lines, in order) and the ELF's
	grep -o '^[A-Za-z_$.][A-Za-z0-9_$.]*:' "$tmp/d.vus" | tr -d : |
		grep -v '^\.L' | sort >"$tmp/labels"
	readelf -sW "$tmp/d.elf" | awk '$4 == "FUNC" { print $8 }' | sort >"$tmp/syms"
	[ -s "$tmp/labels" ] && cmp -s "$tmp/labels" "$tmp/syms"
	ok $? "microcode ELF: a function symbol per label of the source"
	readelf -sW "$tmp/d.elf" | awk '$8 == "next" && $2 == "00000001" && $3 == 1 { f = 1 } END { exit !f }'
	ok $? "microcode ELF: next at 0x1, sized to the following label"
	"$AS" -m "$tmp/d.elf" -f elf -o "$tmp/sum.elf" "$SAMPLES/sum.s" &&
	readelf -lsW "$tmp/sum.elf" >"$tmp/re" &&
	grep -Eq " LOAD +0x001000 0x00000000 0x00000000 0x00018 0x01000 R E 0x1000" "$tmp/re" &&
	awk '$4 == "FUNC" { print $2, $3, $8 }' "$tmp/re" | tr '\n' ' ' |
		grep -qx '00000000 8 start 00000008 16 loop '
	ok $? "program ELF (-m IMAGE.elf -f elf): its bytes at 0, memsize, labels sized"
	"$AS" -m "$tmp/d.vpmu" -o "$tmp/sum2.vprg" "$SAMPLES/sum.s" &&
	"$DIS" -m "$tmp/d.elf" "$tmp/sum.elf" >"$tmp/l1" 2>"$tmp/err" &&
	"$DIS" -m "$tmp/d.vpmu" "$tmp/sum2.vprg" >"$tmp/l2" && cmp -s "$tmp/l1" "$tmp/l2" &&
	[ ! -s "$tmp/err" ]
	ok $? "vpmu-dis of the program ELF: the program file's listing"
else
	for t in "microcode ELF file" "microcode ELF segment" "vpmu-dis microcode ELF" \
		 "microcode ELF symbols" "microcode ELF sizes" "program ELF" \
		 "vpmu-dis program ELF"; do
		skip "$t" "no readelf"
	done
fi
"$DIS" "$tmp/sum.elf" >/dev/null 2>"$tmp/err"
[ $? = 125 ] && [ "$(cat "$tmp/err")" = "vpmu-dis: $tmp/sum.elf: an ELF file without a microcode image (not from vpmu-as -f elf)" ]
ok $? "vpmu-dis of a program ELF as an image: says what it is not, exit 125"

# Tag names travel in the image: vpmu-dis gives the .tag lines back, in
# source order, so the round trip above keeps them; a source without
# .tag has no tag table (tag_count and tag_offset, bytes 100..107, 0).
"$DIS" "$tmp/d.vpmu" | grep '^\.tag' >"$tmp/tags"
[ "$(cat "$tmp/tags")" = ".tag decode, 1
.tag alu, 2
.tag load, 3
.tag store, 4
.tag branch, 5
.tag taken, 6
.tag priv, 7
.tag call, 8" ]
ok $? "vpmu-dis: default.vus's .tag lines, from the image's tag table"
printf '.evmode encoded, 3\n.tag zeta, 7\n.tag alpha_2, 2\n\tHALT ; {zeta}\n' >"$tmp/t.vus"
"$AS" -o "$tmp/t.vpmu" "$tmp/t.vus" && "$DIS" -o "$tmp/t2.vus" "$tmp/t.vpmu" &&
	"$AS" -o "$tmp/t2.vpmu" "$tmp/t2.vus" && cmp -s "$tmp/t.vpmu" "$tmp/t2.vpmu" &&
	[ "$(grep '^\.tag' "$tmp/t2.vus")" = ".tag zeta, 7
.tag alpha_2, 2" ]
ok $? "encoded tags: as(dis(image)) byte-identical, .tag lines in source order"
printf '\tHALT\n' >"$tmp/n.vus"
"$AS" -o "$tmp/n.vpmu" "$tmp/n.vus" &&
	[ "$(od -An -tx1 -j100 -N8 "$tmp/n.vpmu" | tr -d ' ')" = 0000000000000000 ]
ok $? "no .tag: tag_count and tag_offset 0, the image as before"
printf '.tag Decode, 1\n.tag cycles, 2\n.tag tag3, 3\n.tag config, 4\n.tag ok, 5\n.tag again, 5\n.tag ok, 6\n\tHALT\n' >"$tmp/bt.vus"
"$AS" -o "$tmp/bt.vpmu" "$tmp/bt.vus" 2>"$tmp/err"
[ $? = 125 ] && [ "$(grep error: "$tmp/err")" = "$tmp/bt.vus:1:6: error: tag name 'Decode' is not a-z, then a-z, 0-9 or _, at most 31 long
$tmp/bt.vus:2:6: error: tag name 'cycles' is a basic event
$tmp/bt.vus:3:6: error: tag name 'tag3' is the PMU's (tagN, histN, vpmu_*)
$tmp/bt.vus:4:6: error: tag name 'config' is a perf term
$tmp/bt.vus:6:6: error: tag 5 already named 'ok' (line 5)
$tmp/bt.vus:7:6: error: duplicate tag 'ok' (first defined on line 5)" ]
ok $? "bad tag names: the validator's reasons, one name per tag, at the name"

tap_done
