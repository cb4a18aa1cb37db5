#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_hist_cli.sh - vpmu-hist on the command line (TAP): the report of a
# hand-made histogram for the default image against golden files, the
# round trip --simulate -o FILE then FILE, summing, every error case with
# its message and exit status, and --plot (PNG and SVG files that are
# valid).  test_hist checks the numbers themselves against the engine.
#
# The golden files are in test_hist.golden/; after a deliberate change
# of the report or of default.vus, regenerate them with
#   VPMU_HIST_UPDATE=1 sh test_hist_cli.sh
# and review the diff.
# run-tests.sh runs every test_*.sh with sh; this one needs bash.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../../.." && pwd)
AS=$TOP/tools/vpmu/vpmu-as
HIST=$TOP/tools/vpmu/vpmu-hist
UCODE=$TOP/drivers/perf/vpmu/ucode/default.vus
SAMPLES=$TOP/tools/vpmu/share/samples
GOLDEN=$HERE/test_hist.golden
if ! make -s -C "$TOP/tools/vpmu" vpmu-as vpmu-hist >/dev/null 2>&1; then
	echo "not ok 1 - build vpmu-as and vpmu-hist"
	echo "1..1"
	exit 1
fi
# --plot needs gnuplot: install it when missing and we may (root, apt).
if ! command -v gnuplot >/dev/null 2>&1 && [ "$(id -u)" = 0 ] &&
   command -v apt-get >/dev/null 2>&1; then
	apt-get install -y gnuplot-nox >/dev/null 2>&1 ||
	{ apt-get update >/dev/null 2>&1 &&
	  apt-get install -y gnuplot-nox >/dev/null 2>&1; }
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
failed=0

ok() {	# ok STATUS NAME
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

skip() {	# skip NAME REASON
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

# Little-endian binary fields.
le32() {
	local v=$1
	printf "$(printf '\\%03o\\%03o\\%03o\\%03o' $((v & 255)) \
		$((v >> 8 & 255)) $((v >> 16 & 255)) $((v >> 24 & 255)))"
}
le64() {
	le32 $(($1 & 0xffffffff))
	le32 $(($1 >> 32 & 0xffffffff))
}

# mkhist FILE NBUCKETS INTERVAL CHECKSUM "UPC=COUNT ..." [MAGIC VERSION
#        SAMPLES_DELTA]: a histogram file, struct vpmu_uhist_header (cpu
# $CPU or 3, generation 7) and the buckets; the last three break it on
# purpose.
mkhist() {
	local f=$1 nb=$2 k=$3 ck=$4 counts=$5
	local magic=${6:-0x53485556} ver=${7:-1} delta=${8:-0}
	local u c total=0 i
	declare -A b=()

	for uc in $counts; do
		u=$((${uc%=*}))
		c=${uc#*=}
		b[$u]=$c
		total=$((total + c))
	done
	{
		le32 "$magic"; le32 "$ver"; le32 64; le32 "$nb"; le32 "$k"
		le32 "${CPU:-3}"; le32 "$ck"; le32 0
		le64 7; le64 $((total + delta))
		le32 0; le32 0; le32 0; le32 0
		for ((i = 0; i < nb; i++)); do
			le64 "${b[$i]:-0}"
		done
	} >"$f"
}

# golden NAME FILE: compare with test_hist.golden/NAME (or rewrite it).
golden() {
	if [ -n "${VPMU_HIST_UPDATE:-}" ]; then
		mkdir -p "$GOLDEN" && cp "$2" "$GOLDEN/$1"
	fi
	diff -u "$GOLDEN/$1" "$2" | sed 's/^/# /'
	cmp -s "$GOLDEN/$1" "$2"
}

"$HIST" --help | grep -q '^Usage: vpmu-hist -m IMAGE'; ok $? "--help"
"$HIST" >/dev/null 2>&1; [ $? = 2 ]; ok $? "no arguments: exit 2"

"$AS" -o "$tmp/d.vpmu" "$UCODE" || exit 1
IMG=$tmp/d.vpmu
CK=$(od -An -tu4 -j16 -N4 "$IMG" | tr -d ' ')
NB=$(od -An -tu4 -j36 -N4 "$IMG" | tr -d ' ')
for s in "$SAMPLES"/*.s; do
	"$AS" -m "$IMG" -o "$tmp/$(basename "$s" .s).vprg" "$s" || exit 1
done

"$HIST" -m "$IMG" -K 2 "$tmp/x" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -qx 'vpmu-hist: -K and -b need --simulate' "$tmp/err"
ok $? "-K without --simulate: exit 2, says why"
"$HIST" -m "$IMG" --sort=name "$tmp/x" >/dev/null 2>&1; [ $? = 2 ]
ok $? "bad --sort: exit 2"
"$HIST" "$tmp/x" >/dev/null 2>"$tmp/err"
[ $? = 2 ] && grep -qx 'vpmu-hist: no image given (-m IMAGE)' "$tmp/err"
ok $? "no image: exit 2, says why"

# ---- the report of a hand-made histogram (golden) -----------------------
# next, i_r's DISP word, r_funct+10 (MUL), i_addi's four, i_lw's load,
# i_beq's compare, br_taken, halt.
COUNTS="0x001=500 0x005=40 0x010=7 0x016=100 0x017=100 0x018=100 0x019=100
	0x04b=300 0x067=50 0x07d=25 0x094=1"
mkhist "$tmp/h.vuhs" "$NB" 4 "$CK" "$COUNTS"
"$HIST" -m "$IMG" "$tmp/h.vuhs" >"$tmp/out" 2>"$tmp/err" && [ ! -s "$tmp/err" ]
ok $? "report of a hand-made histogram: exit 0, nothing on stderr"
golden report.txt "$tmp/out"; ok $? "report: as test_hist.golden/report.txt"
"$HIST" -m "$IMG" --by-label "$tmp/h.vuhs" >"$tmp/out"
golden by-label.txt "$tmp/out"; ok $? "--by-label: as test_hist.golden/by-label.txt"
"$HIST" -m "$IMG" --sort=addr --top 4 "$tmp/h.vuhs" >"$tmp/out"
golden addr-top.txt "$tmp/out"; ok $? "--sort=addr --top 4: as test_hist.golden/addr-top.txt"
"$HIST" -m "$IMG" --all "$tmp/h.vuhs" >"$tmp/out"
[ "$(wc -l <"$tmp/out")" = $((NB + 4)) ]
ok $? "--all: one row per microword ($NB)"
CPU=5 mkhist "$tmp/h5.vuhs" "$NB" 4 "$CK" "$COUNTS"
"$HIST" -m "$IMG" "$tmp/h.vuhs" "$tmp/h5.vuhs" >"$tmp/out" &&
grep -qx 'interval 4, 2646 samples, 11 microwords sampled' "$tmp/out" &&
grep -q '^next  *0x001  *1000  *37.79 ' "$tmp/out" &&
"$HIST" -m "$IMG" -q -o "$tmp/sum.vuhs" "$tmp/h.vuhs" "$tmp/h5.vuhs" &&
[ "$(od -An -tx4 -j20 -N4 "$tmp/sum.vuhs" | tr -d ' ')" = ffffffff ]
ok $? "files of CPUs 3 and 5 are summed; -o writes the sum, cpu 0xffffffff"

# ---- round trip: --simulate -o, then the file ---------------------------
for args in "-K 1" "-K 5 --by-label" "-K 3 --sort=addr --all"; do
	# shellcheck disable=SC2086
	"$HIST" --simulate -m "$IMG" $args -o "$tmp/s.vuhs" "$tmp/sort.vprg" \
		>"$tmp/direct" 2>"$tmp/err" &&
	grep -qx "vpmu-hist: $tmp/sort.vprg: stop halt after 1081 cycles" \
		"$tmp/err" &&
	[ "$(stat -c %s "$tmp/s.vuhs")" = $((64 + 8 * NB)) ] &&
	# shellcheck disable=SC2086
	"$HIST" -m "$IMG" ${args#-K [0-9]} "$tmp/s.vuhs" >"$tmp/file" &&
	cmp -s "$tmp/direct" "$tmp/file"
	ok $? "sort $args: --simulate -o FILE, then FILE: the same report"
done
"$HIST" --simulate -m "$IMG" -q -o - "$tmp/sum.vprg" >"$tmp/sum.vuhs" &&
[ "$(od -An -tu8 -j40 -N8 "$tmp/sum.vuhs" | tr -d ' ')" = 179 ]
ok $? "--simulate -o -: the file on stdout, samples 179 (sum, K=1)"
"$HIST" --simulate -m "$IMG" -b 100 -q -o "$tmp/b.vuhs" "$tmp/sum.vprg" &&
[ "$(od -An -tu8 -j40 -N8 "$tmp/b.vuhs" | tr -d ' ')" = 100 ]
ok $? "--simulate -b 100: 100 samples"

# ---- errors -------------------------------------------------------------
err() {	# err NAME EXPECTED-STDERR-LINE ARGS...: exit 1, that line
	local name=$1 want=$2
	shift 2
	"$HIST" -m "$IMG" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ $rc = 1 ] && grep -qxF "$want" "$tmp/err" && [ ! -s "$tmp/out" ]
	local r=$?
	[ $r = 0 ] || { echo "# exit $rc, stderr:"; sed 's/^/# /' "$tmp/err"; }
	ok $r "$name: exit 1, \"${want#vpmu-hist: }\""
}
mkhist "$tmp/magic.vuhs" "$NB" 1 "$CK" "1=1" 0x12345678
err "bad magic" "vpmu-hist: $tmp/magic.vuhs: error: bad magic number 0x12345678 (not a vpmu micro-PC histogram)" "$tmp/magic.vuhs"
mkhist "$tmp/ver.vuhs" "$NB" 1 "$CK" "1=1" 0x53485556 2
err "wrong version" "vpmu-hist: $tmp/ver.vuhs: error: unsupported histogram version 2 (this tool reads version 1)" "$tmp/ver.vuhs"
head -c 1000 "$tmp/h.vuhs" >"$tmp/trunc.vuhs"
err "truncated buckets" "vpmu-hist: $tmp/trunc.vuhs: error: truncated: 1000 bytes, the header and $NB buckets take $((64 + 8 * NB))" "$tmp/trunc.vuhs"
head -c 20 "$tmp/h.vuhs" >"$tmp/short.vuhs"
err "truncated header" "vpmu-hist: $tmp/short.vuhs: error: truncated: 20 bytes, the header alone is 64" "$tmp/short.vuhs"
mkhist "$tmp/samples.vuhs" "$NB" 1 "$CK" "1=5" 0x53485556 1 1
err "samples field wrong" "vpmu-hist: $tmp/samples.vuhs: error: samples is 6, the buckets sum to 5" "$tmp/samples.vuhs"
mkhist "$tmp/ck.vuhs" "$NB" 4 $((CK ^ 1)) "$COUNTS"
err "checksum mismatch" "vpmu-hist: $tmp/ck.vuhs: error: sampled on image $(printf 0x%08x $((CK ^ 1))), but image \"vpmu32\" is $(printf 0x%08x "$CK") (--force reports it anyway)" "$tmp/ck.vuhs"
"$HIST" -m "$IMG" --force "$tmp/ck.vuhs" >"$tmp/out" 2>"$tmp/err" &&
grep -q '^vpmu-hist: .*: warning: sampled on image' "$tmp/err" &&
tail -n +2 "$tmp/out" | cmp -s - <(tail -n +2 "$GOLDEN/report.txt")
ok $? "checksum mismatch with --force: warning, the report"
mkhist "$tmp/small.vuhs" 10 4 "$CK" "1=1"
err "summing different nbuckets" "vpmu-hist: $tmp/small.vuhs: error: 10 buckets, the first file has $NB: not samples of the same image" "$tmp/h.vuhs" "$tmp/small.vuhs"
err "nbuckets is not the image's" "vpmu-hist: $tmp/small.vuhs: error: 10 buckets, but image \"vpmu32\" has $NB microwords" "$tmp/small.vuhs"
mkhist "$tmp/k8.vuhs" "$NB" 8 "$CK" "1=1"
err "summing different intervals" "vpmu-hist: $tmp/k8.vuhs: error: interval 8, the first file has 4 (--force sums them anyway)" "$tmp/h.vuhs" "$tmp/k8.vuhs"
err "missing file" "vpmu-hist: $tmp/nope.vuhs: No such file or directory" "$tmp/nope.vuhs"
err "not an image" "vpmu-hist: $tmp/h.vuhs: not a valid vpmu image: error: bad magic number (not a vpmu image)" -m "$tmp/h.vuhs" "$tmp/h.vuhs"

# ---- --plot -------------------------------------------------------------
# PNG: signature, IHDR first, width and height 200..4000.
png_ok() {
	[ "$(od -An -tx1 -N8 "$1" | tr -d ' \n')" = 89504e470d0a1a0a ] &&
	[ "$(od -An -c -j12 -N4 "$1" | tr -d ' \n')" = IHDR ] || return 1
	local w h
	w=$(od -An -tu1 -j16 -N4 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4 }')
	h=$(od -An -tu1 -j20 -N4 "$1" | awk '{ print $1*16777216+$2*65536+$3*256+$4 }')
	echo "# $1: ${w}x$h"
	[ "$w" -ge 200 ] && [ "$w" -le 4000 ] && [ "$h" -ge 200 ] && [ "$h" -le 4000 ]
}
xml_ok() {
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1"
	else
		python3 -c 'import sys, xml.etree.ElementTree as E
sys.exit(0 if E.parse(sys.argv[1]).getroot().tag.endswith("svg") else 1)' "$1"
	fi
}
if command -v gnuplot >/dev/null 2>&1; then
	"$HIST" --simulate -m "$IMG" -q -p "$tmp/sort.png" "$tmp/sort.vprg" &&
	png_ok "$tmp/sort.png"
	ok $? "--plot FILE.png: a PNG with sane dimensions"
	"$HIST" -m "$IMG" -q --plot="$tmp/h.svg" "$tmp/h.vuhs" &&
	xml_ok "$tmp/h.svg" && grep -q '<svg' "$tmp/h.svg" &&
	grep -q 'i_addi' "$tmp/h.svg"
	ok $? "--plot FILE.svg: well-formed SVG naming the labels"
else
	skip "--plot FILE.png" "gnuplot not installed"
	skip "--plot FILE.svg" "gnuplot not installed"
fi
err "--plot of another format" "vpmu-hist: $tmp/x.pdf: error: the plot must be a .png or .svg file" -p "$tmp/x.pdf" "$tmp/h.vuhs"
PATH=/nonexistent "$HIST" -m "$IMG" -p "$tmp/g.png" "$tmp/h.vuhs" \
	>/dev/null 2>"$tmp/err"
[ $? = 1 ] && grep -q 'gnuplot not found on PATH; install it' "$tmp/err" &&
[ ! -e "$tmp/g.png" ]
ok $? "--plot without gnuplot: exit 1, says how to install it"

echo "1..$n"
[ "$failed" = 0 ]
