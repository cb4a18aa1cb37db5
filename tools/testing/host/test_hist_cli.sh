#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_hist_cli.sh - vpmu-hist on the command line (TAP): the report of a
# hand-made histogram for the default image against golden files, the
# round trip --simulate -o FILE then FILE, summing, every error case with
# its message and exit status, and --plot (PNG and SVG files that are
# valid).  test_uhist checks the numbers themselves against the engine.
# --buckets (the histogram unit's C1..Cn): the report of a hand-made
# bucket file and program against golden files, in both input formats
# (--get-buckets and vpmu-sim --hu output), vpmu-sim's real buckets of
# share/progs/stores.s, every refusal with its file:line message, and
# --plot (PNG, SVG, quotes in names, a failing gnuplot reported).
# --set-program, --get-program and --get-buckets (the module's unit,
# through /dev/vpmu): their usage errors, and a device that is missing or
# is not vpmu's; the guest's vpmu_hu_stat.sh runs them on the module.
#
# The golden files are in test_hist.golden/; after a deliberate change
# of the report or of default.vus, regenerate them with
#   VPMU_HIST_UPDATE=1 sh test_hist_cli.sh
# and review the diff.
# run-tests.sh runs every test_*.sh with sh; this one needs bash.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/tap.sh"
AS=$BIN/vpmu-as
HIST=$BIN/vpmu-hist
UCODE=$UCODE_SRC
SAMPLES=$SHARE/samples
GOLDEN=$HERE/test_hist.golden
SIM=$BIN/vpmu-sim
tap_build vpmu-as vpmu-hist vpmu-sim
# --plot needs gnuplot, and the SVG checks xmllint (or python3): install
# them when missing and we may (root, apt).
# shellcheck source=../../pkg/apt.sh
. "$HERE/../../pkg/apt.sh"
{ command -v gnuplot && command -v xmllint; } >/dev/null 2>&1 ||
	apt_install_missing gnuplot-nox libxml2-utils

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
"$HIST" >/dev/null 2>&1; [ $? = 125 ]; ok $? "no arguments: exit 125"

"$AS" -o "$tmp/d.vpmu" "$UCODE" || exit 1
IMG=$tmp/d.vpmu
CK=$(od -An -tu4 -j16 -N4 "$IMG" | tr -d ' ')
NB=$(od -An -tu4 -j36 -N4 "$IMG" | tr -d ' ')
for s in "$SAMPLES"/*.s; do
	"$AS" -m "$IMG" -o "$tmp/$(basename "$s" .s).vprg" "$s" || exit 1
done

"$HIST" -m "$IMG" -K 2 "$tmp/x" >/dev/null 2>"$tmp/err"
[ $? = 125 ] && grep -qx 'vpmu-hist: -K and -b need --simulate' "$tmp/err"
ok $? "-K without --simulate: exit 125, says why"
"$HIST" -m "$IMG" --sort=name "$tmp/x" >/dev/null 2>&1; [ $? = 125 ]
ok $? "bad --sort: exit 125"
"$HIST" "$tmp/x" >/dev/null 2>"$tmp/err"
[ $? = 125 ] && grep -qx 'vpmu-hist: no image given (-m IMAGE)' "$tmp/err"
ok $? "no image: exit 125, says why"

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

# ---- perf samples (--perf): perf script lines ending with the IP --------
# The same counts as micro-PC samples (VPMU_SAMPLE_UPC_BASE + micro-PC:
# the format term sample_upc) give the same report as the hand-made
# histogram, but for the line saying what it is.
UPC_BASE=$((1 << 45))
PC_BASE=$((1 << 44))
for c in $COUNTS; do
	i=0
	while [ $i -lt "${c#*=}" ]; do
		printf '  vpmu-run   147   50 vpmu/vpmu_uops,sample_upc/:  %x\n' \
			$((UPC_BASE + ${c%=*}))
		i=$((i + 1))
	done
done >"$tmp/script"
"$HIST" -m "$IMG" "$tmp/h.vuhs" | sed 2d >"$tmp/want"
"$HIST" --perf -m "$IMG" "$tmp/script" >"$tmp/out" 2>"$tmp/err" &&
[ ! -s "$tmp/err" ] && sed -n 2p "$tmp/out" |
	grep -qx '1323 perf samples, 11 microwords sampled' &&
sed 2d "$tmp/out" | cmp -s - "$tmp/want"
ok $? "--perf: perf script samples, reported as the same counts in a file"
# The IP of earlier versions, micro-PC << 32 | macro PC, still reads.
for c in $COUNTS; do
	i=0
	while [ $i -lt "${c#*=}" ]; do
		printf '%x%08x\n' "${c%=*}" $((i * 4))
		i=$((i + 1))
	done
done >"$tmp/script0"
"$HIST" --perf -m "$IMG" "$tmp/script0" 2>"$tmp/err" | sed 2d |
cmp -s - "$tmp/want" && [ ! -s "$tmp/err" ]
ok $? "--perf: the combined IP micro-PC << 32 | macro PC as well"
printf '\n  %x\n\n' $((UPC_BASE + 0x4b)) >"$tmp/script1"
"$HIST" --perf -m "$IMG" --by-label "$tmp/script1" "$tmp/script1" >"$tmp/out" &&
grep -q '^i_lw  *0x047  *1/5  *2  *100.00 ' "$tmp/out"
ok $? "--perf: two files summed, blank lines skipped, by label"
printf '%x\n  vpmu-run 147 nonsense\n' $((UPC_BASE + 1)) >"$tmp/bad"
"$HIST" --perf -m "$IMG" "$tmp/bad" >/dev/null 2>"$tmp/err"
[ $? = 125 ] && [ "$(cat "$tmp/err")" = "$tmp/bad:2: error: no sample IP at the end (perf script -F ip, or fields ending with ip)" ]
ok $? "--perf: a line without an IP: exit 125, names the file and line"
printf '%x\n' $((UPC_BASE + 1)) $((UPC_BASE + NB)) >"$tmp/bad"
"$HIST" --perf -m "$IMG" "$tmp/bad" >/dev/null 2>"$tmp/err"
[ $? = 125 ] && grep -q "^$tmp/bad:2: error: micro-PC 0x$(printf '%x' "$NB") beyond the image's $NB microwords" "$tmp/err"
ok $? "--perf: a micro-PC beyond the image: exit 125, names the file and line"
"$HIST" --perf -f -m "$IMG" "$tmp/bad" >"$tmp/out" 2>"$tmp/err" &&
grep -q "^vpmu-hist: $tmp/bad: warning: 1 samples beyond" "$tmp/err" &&
grep -q '^1 perf samples' "$tmp/out"
ok $? "--perf --force: skips it, with a warning"
printf '%x\n' $((PC_BASE + 8)) >"$tmp/bad"
"$HIST" --perf -m "$IMG" "$tmp/bad" >/dev/null 2>"$tmp/err"
[ $? = 125 ] && grep -q "^$tmp/bad:1: error: 0x100000000008 is a macro-PC sample: record micro-PCs with the format term sample_upc" "$tmp/err"
ok $? "--perf: a macro-PC sample: exit 125, says to record micro-PCs"
"$HIST" --perf --simulate -m "$IMG" "$tmp/sort.vprg" >/dev/null 2>&1; [ $? = 125 ]
ok $? "--perf with --simulate: exit 125"

# ---- round trip: --simulate -o, then the file ---------------------------
# shellcheck disable=SC2086 # $args is a list of options
for args in "-K 1" "-K 5 --by-label" "-K 3 --sort=addr --all"; do
	"$HIST" --simulate -m "$IMG" $args -o "$tmp/s.vuhs" "$tmp/sort.vprg" \
		>"$tmp/direct" 2>"$tmp/err" &&
	grep -qx "vpmu-hist: $tmp/sort.vprg: stop halt after 1081 cycles" \
		"$tmp/err" &&
	[ "$(stat -c %s "$tmp/s.vuhs")" = $((64 + 8 * NB)) ] &&
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
err() {	# err NAME EXPECTED-STDERR-LINE ARGS...: exit 125, that line
	local name=$1 want=$2
	shift 2
	"$HIST" -m "$IMG" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ $rc = 125 ] && grep -qxF "$want" "$tmp/err" && [ ! -s "$tmp/out" ]
	local r=$?
	[ $r = 0 ] || { echo "# exit $rc, stderr:"; sed 's/^/# /' "$tmp/err"; }
	ok $r "$name: exit 125, \"${want#vpmu-hist: }\""
}
mkhist "$tmp/magic.vuhs" "$NB" 1 "$CK" "1=1" 0x12345678
err "bad magic" "vpmu-hist: $tmp/magic.vuhs: bad magic number 0x12345678 (not a vpmu micro-PC histogram)" "$tmp/magic.vuhs"
mkhist "$tmp/ver.vuhs" "$NB" 1 "$CK" "1=1" 0x53485556 2
err "wrong version" "vpmu-hist: $tmp/ver.vuhs: unsupported histogram version 2 (this tool reads version 1)" "$tmp/ver.vuhs"
head -c 1000 "$tmp/h.vuhs" >"$tmp/trunc.vuhs"
err "truncated buckets" "vpmu-hist: $tmp/trunc.vuhs: truncated: 1000 bytes, the header and $NB buckets take $((64 + 8 * NB))" "$tmp/trunc.vuhs"
head -c 20 "$tmp/h.vuhs" >"$tmp/short.vuhs"
err "truncated header" "vpmu-hist: $tmp/short.vuhs: truncated: 20 bytes, the header alone is 64" "$tmp/short.vuhs"
mkhist "$tmp/samples.vuhs" "$NB" 1 "$CK" "1=5" 0x53485556 1 1
err "samples field wrong" "vpmu-hist: $tmp/samples.vuhs: samples is 6, the buckets sum to 5" "$tmp/samples.vuhs"
mkhist "$tmp/ck.vuhs" "$NB" 4 $((CK ^ 1)) "$COUNTS"
err "checksum mismatch" "vpmu-hist: $tmp/ck.vuhs: sampled on image $(printf 0x%08x $((CK ^ 1))), but image \"vpmu32\" is $(printf 0x%08x "$CK") (--force reports it anyway)" "$tmp/ck.vuhs"
"$HIST" -m "$IMG" --force "$tmp/ck.vuhs" >"$tmp/out" 2>"$tmp/err" &&
grep -q '^vpmu-hist: .*: warning: sampled on image' "$tmp/err" &&
tail -n +2 "$tmp/out" | cmp -s - <(tail -n +2 "$GOLDEN/report.txt")
ok $? "checksum mismatch with --force: warning, the report"
mkhist "$tmp/small.vuhs" 10 4 "$CK" "1=1"
err "summing different nbuckets" "vpmu-hist: $tmp/small.vuhs: 10 buckets, the first file has $NB: not samples of the same image" "$tmp/h.vuhs" "$tmp/small.vuhs"
err "nbuckets is not the image's" "vpmu-hist: $tmp/small.vuhs: 10 buckets, but image \"vpmu32\" has $NB microwords" "$tmp/small.vuhs"
mkhist "$tmp/k8.vuhs" "$NB" 8 "$CK" "1=1"
err "summing different intervals" "vpmu-hist: $tmp/k8.vuhs: interval 8, the first file has 4 (--force sums them anyway)" "$tmp/h.vuhs" "$tmp/k8.vuhs"
err "missing file" "vpmu-hist: $tmp/nope.vuhs: No such file or directory" "$tmp/nope.vuhs"
err "not an image" "vpmu-hist: $tmp/h.vuhs: bad magic number (magic 0x53485556, expected 0x554d5056)" -m "$tmp/h.vuhs" "$tmp/h.vuhs"

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
	"$HIST" --perf -m "$IMG" -q --plot="$tmp/p.svg" "$tmp/script" &&
	xml_ok "$tmp/p.svg" && grep -q '1323 perf samples' "$tmp/p.svg" &&
	! grep -q 'interval 0' "$tmp/p.svg"
	ok $? "--perf --plot FILE.svg: titled with the perf samples"
else
	skip "--plot FILE.png" "gnuplot not installed"
	skip "--plot FILE.svg" "gnuplot not installed"
	skip "--perf --plot FILE.svg" "gnuplot not installed"
fi
err "--plot of another format" "vpmu-hist: $tmp/x.pdf: the plot must be a .png or .svg file" -p "$tmp/x.pdf" "$tmp/h.vuhs"
PATH=/nonexistent "$HIST" -m "$IMG" -p "$tmp/g.png" "$tmp/h.vuhs" \
	>/dev/null 2>"$tmp/err"
[ $? = 125 ] && grep -q 'gnuplot not found on PATH; install it' "$tmp/err" &&
[ ! -e "$tmp/g.png" ]
ok $? "--plot without gnuplot: exit 125, says how to install it"

# ---- --buckets: the histogram unit's buckets ----------------------------
# A program in free form (comments, ';', hex period, event=2 printed as
# its alias) and buckets as --get-buckets prints them.
mkdir -p "$tmp/sysfs" "$tmp/sim"
cat >"$tmp/prog" <<'EOP'
# instructions, tag 3, queue and lw cycles, in turn
seq
vpmu_insns 780 ; tag=3 0x30c
wq=1-4 780   # one to four entries
upc=0x47-0x4b 780
event=2 1
EOP
printf 'C1 135\nC2 0\nC3 64\nC4 112\nC5 7\n' >"$tmp/sysfs/sum"
# the same buckets as vpmu-sim --hu prints them, among its other lines
printf 'stop halt\ncycles 3120\nhist C1 135\nhist C2 0\nreg r1 80\nhist C3 64\nhist C4 112\nhist C5 7\n' \
	>"$tmp/sim/sum"
"$HIST" --buckets="$tmp/sysfs/sum" --program="$tmp/prog" >"$tmp/out" \
	2>"$tmp/err" && [ ! -s "$tmp/err" ]
ok $? "--buckets FILE --program: exit 0, nothing on stderr"
golden hu-report.txt "$tmp/out"; ok $? "--buckets: as test_hist.golden/hu-report.txt"
"$HIST" --buckets "$tmp/sim/sum" --program "$tmp/prog" >"$tmp/out2" &&
cmp -s "$tmp/out" "$tmp/out2"
ok $? "--buckets of vpmu-sim --hu output: the same report"
"$HIST" --buckets="$tmp/sim/sum" --sort=count --top=3 >"$tmp/out"
golden hu-count-top.txt "$tmp/out"
ok $? "--buckets --sort=count --top=3, no program: as test_hist.golden/hu-count-top.txt"
"$HIST" --buckets="$tmp/sysfs/sum" --program="$tmp/prog" --sort=addr \
	>"$tmp/out2" && "$HIST" --buckets="$tmp/sysfs/sum" \
	--program="$tmp/prog" | cmp -s - "$tmp/out2"
ok $? "--buckets: bucket order by default, as --sort=addr"

# Real buckets: the write-queue occupancy of stores.s (16 stores, 102
# cycles, never more than one entry with the default queue).
WQ='par;wq=0 1000000;wq=1 1000000;wq=2 1000000;wq=3 1000000;wq=4 1000000'
echo "$WQ" >"$tmp/wq.prog"
"$AS" -m "$IMG" -o "$tmp/stores.vprg" "$SHARE/progs/stores.s" &&
"$SIM" --hu="$WQ" "$tmp/stores.vprg" >"$tmp/stores.out" &&
"$HIST" --buckets="$tmp/stores.out" --program="$tmp/wq.prog" >"$tmp/out" &&
diff -u - "$tmp/out" <<'EOP' | sed 's/^/# /'
histogram-unit buckets of stores.out: 5 buckets, 102 counted in all
program: par, monitoring period 1000000 cycles

bucket  label                  count       %  bar
C1      wq=0 (1000000 cycles)     39   38.24  #############
C2      wq=1 (1000000 cycles)     63   61.76  ####################
C3      wq=2 (1000000 cycles)      0    0.00
C4      wq=3 (1000000 cycles)      0    0.00
C5      wq=4 (1000000 cycles)      0    0.00
EOP
[ "${PIPESTATUS[0]}" = 0 ]
ok $? "--buckets of vpmu-sim --hu on stores.s: 39 + 63 cycles at occupancy 0 and 1"

# errors: exit 1, exactly that message, nothing on stdout
berr() {	# berr NAME EXPECTED-STDERR ARGS...
	local name=$1 want=$2
	shift 2
	"$HIST" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ $rc = 125 ] && [ "$(cat "$tmp/err")" = "$want" ] && [ ! -s "$tmp/out" ]
	local r=$?
	[ $r = 0 ] || { echo "# exit $rc, stderr:"; sed 's/^/# /' "$tmp/err"; }
	ok $r "--buckets, $name: exit 125, \"${want#vpmu-hist: }\""
}
printf 'C1 5\nC2 x\n' >"$tmp/b"
berr "bad line" "$tmp/b:2: error: 'C2 x' is not a bucket line (C<b> <count>)" --buckets="$tmp/b"
printf 'C1 5\n\nC2 7 # no\n' >"$tmp/b"
berr "trailing words" "$tmp/b:3: error: 'C2 7 # no' is not a bucket line (C<b> <count>)" --buckets="$tmp/b"
printf 'stop halt\nhist C1 4\nhist C 1\n' >"$tmp/b"
berr "bad vpmu-sim line" "$tmp/b:3: error: 'hist C 1' is not a bucket line (hist C<b> <count>)" --buckets="$tmp/b"
printf 'stop halt\ncycles 102\n' >"$tmp/b"
berr "vpmu-sim output without --hu" "$tmp/b:1: error: 'stop halt' is not a bucket line (C<b> <count>)" --buckets="$tmp/b"
printf 'C1 5\nC3 1\n' >"$tmp/b"
berr "a bucket missing" "$tmp/b:2: error: C3 where C2 was expected (buckets come in order, C1 first, each once)" --buckets="$tmp/b"
printf 'C1 5\nC1 1\n' >"$tmp/b"
berr "a bucket twice" "$tmp/b:2: error: C1 where C2 was expected (buckets come in order, C1 first, each once)" --buckets="$tmp/b"
printf 'C0 5\n' >"$tmp/b"
berr "C0" "$tmp/b:1: error: 'C0 5': the unit has buckets C1..C16" --buckets="$tmp/b"
seq 1 17 | sed 's/.*/C& 1/' >"$tmp/b"
berr "C17" "$tmp/b:17: error: 'C17 1': the unit has buckets C1..C16" --buckets="$tmp/b"
printf 'C1 18446744073709551616\n' >"$tmp/b"
berr "count over 64 bits" "$tmp/b:1: error: count 18446744073709551616 is over 18446744073709551615" --buckets="$tmp/b"
printf 'C1 18446744073709551615\nC2 1\n' >"$tmp/b"
berr "total over 64 bits" "vpmu-hist: $tmp/b: the buckets add up to more than 18446744073709551615" --buckets="$tmp/b"
: >"$tmp/b"
berr "empty file (unit off)" "vpmu-hist: $tmp/b: no buckets: the file is empty (--get-buckets prints nothing while the unit is off)" --buckets="$tmp/b"
printf 'par; wq=0 100; wq=1 100\n' >"$tmp/p2"
berr "5 buckets, program of 2" "vpmu-hist: $tmp/sysfs/sum: 5 buckets, but the program in $tmp/p2 has 2 entries" --buckets="$tmp/sysfs/sum" --program="$tmp/p2"
printf 'seq; vpmu_uops 100; wq=5-2 100\n' >"$tmp/p2"
berr "bad program" "vpmu-hist: $tmp/p2: entry 2: wq=5-2: LO above HI" --buckets="$tmp/sysfs/sum" --program="$tmp/p2"
echo off >"$tmp/p2"
berr "program off" "vpmu-hist: $tmp/p2: the program is 'off': it has no buckets to label" --buckets="$tmp/sysfs/sum" --program="$tmp/p2"
berr "missing bucket file" "vpmu-hist: $tmp/nope: No such file or directory" --buckets="$tmp/nope"
berr "unreadable bucket file (a directory)" "vpmu-hist: $tmp/sysfs: Is a directory" --buckets="$tmp/sysfs"
berr "missing program" "vpmu-hist: $tmp/nope: No such file or directory" --buckets="$tmp/sysfs/sum" --program="$tmp/nope"
berr "--plot of another format" "vpmu-hist: $tmp/x.pdf: the plot must be a .png or .svg file" --buckets="$tmp/sysfs/sum" -q --plot="$tmp/x.pdf"
usage() {	# usage NAME EXPECTED-STDERR ARGS...: exit 125
	local name=$1 want=$2
	shift 2
	"$HIST" "$@" >/dev/null 2>"$tmp/err"
	[ $? = 125 ] && [ "$(cat "$tmp/err")" = "$want
Try 'vpmu-hist --help' for more information." ]
	ok $? "--buckets, $name: exit 125, \"${want#vpmu-hist: }\", then Try"
}
usage "--program alone" "vpmu-hist: --program needs --buckets" --program="$tmp/prog"
usage "with -m" "vpmu-hist: -m is for micro-PC histograms, not with --buckets" --buckets="$tmp/sysfs/sum" -m "$IMG"
usage "with --by-label" "vpmu-hist: -l is for micro-PC histograms, not with --buckets" --buckets="$tmp/sysfs/sum" --by-label
usage "with an operand" "vpmu-hist: --buckets takes no operand ('$tmp/h.vuhs')" --buckets="$tmp/sysfs/sum" "$tmp/h.vuhs"
"$HIST" --help | grep -q -- '--buckets=SUMFILE \[--program=PROGFILE\]'
ok $? "--help shows --buckets"

# ---- the character device: --set-program, --get-program, --get-buckets --
# No module on the host: the usage errors, a device that is not there
# and one that is not vpmu's (/dev/null: every ioctl ENOTTY).
dusage() {	# dusage NAME EXPECTED-STDERR ARGS...: exit 125, then Try
	local name=$1 want=$2
	shift 2
	"$HIST" "$@" </dev/null >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ $rc = 125 ] && [ "$(cat "$tmp/err")" = "$want
Try 'vpmu-hist --help' for more information." ] && [ ! -s "$tmp/out" ]
	local r=$?
	[ $r = 0 ] || { echo "# exit $rc, stderr:"; sed 's/^/# /' "$tmp/err"; }
	ok $r "$name: exit 125, \"${want#vpmu-hist: }\", then Try"
}
DEVOPS="vpmu-hist: --set-program, --get-program and --get-buckets take no other option or operand"
dusage "--get-buckets=x" "vpmu-hist: bad CPU 'x'" --get-buckets=x
dusage "--get-buckets=-1" "vpmu-hist: bad CPU '-1'" --get-buckets=-1
dusage "--get-buckets=4294967295 (VPMU_HU_CPU_SUM)" "vpmu-hist: bad CPU '4294967295'" --get-buckets=4294967295
dusage "--get-program --get-buckets" "$DEVOPS" --get-program --get-buckets
dusage "--set-program=- --get-program" "$DEVOPS" --set-program=- --get-program
dusage "--get-program with an operand" "$DEVOPS" --get-program extra-operand
dusage "--get-buckets with --buckets" "$DEVOPS" --get-buckets --buckets="$tmp/sysfs/sum"
dusage "--get-program with -m" "$DEVOPS" --get-program -m "$IMG"
dusage "--get-program=x" "vpmu-hist: option '--get-program' takes no argument" --get-program=x
dusage "--device alone" "vpmu-hist: --device needs --set-program, --get-program or --get-buckets" --device=/dev/null
# derr NAME EXPECTED-STDERR STDIN ARGS...: exit 125, exactly that message
# (no Try), nothing on stdout; STDIN is the text on standard input.
derr() {
	local name=$1 want=$2
	printf '%s' "$3" >"$tmp/in"
	shift 3
	"$HIST" "$@" <"$tmp/in" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ $rc = 125 ] && [ "$(cat "$tmp/err")" = "$want" ] && [ ! -s "$tmp/out" ]
	local r=$?
	[ $r = 0 ] || { echo "# exit $rc, stderr:"; sed 's/^/# /' "$tmp/err"; }
	ok $r "$name: exit 125, \"${want#vpmu-hist: }\""
}
derr "--get-program, no such device" "vpmu-hist: /nonexistent: No such file or directory" "" --device=/nonexistent --get-program
derr "--get-buckets=sum, no such device" "vpmu-hist: /nonexistent: No such file or directory" "" --get-buckets=sum --device=/nonexistent
derr "--set-program, no such device" "vpmu-hist: /nonexistent: No such file or directory" "par; vpmu_uops 5" --set-program=- --device=/nonexistent
derr "--get-program on /dev/null" "vpmu-hist: /dev/null: VPMU_IOC_HU_GET_PROGRAM: Inappropriate ioctl for device" "" --device=/dev/null --get-program
derr "--get-buckets=0 on /dev/null" "vpmu-hist: /dev/null: VPMU_IOC_HU_READ: Inappropriate ioctl for device" "" --device=/dev/null --get-buckets=0
derr "--set-program on /dev/null" "vpmu-hist: /dev/null: VPMU_IOC_HU_PROGRAM: Inappropriate ioctl for device" "par; vpmu_uops 5" --device=/dev/null --set-program=-
# The text is compiled on the host, before the device is opened.
derr "--set-program, bad text" "vpmu-hist: -: entry 1: unknown predicate 'vpmu_bogus' (event=N, tag=K, an event name, wq=, upc=, load=, hit=, miss=, store= or access=)" "par; vpmu_bogus 5" --set-program=- --device=/nonexistent
printf 'seq; vpmu_uops 100; wq=5-2 100\n' >"$tmp/p2"
derr "--set-program=FILE, bad text" "vpmu-hist: $tmp/p2: entry 2: wq=5-2: LO above HI" "" --set-program="$tmp/p2" --device=/nonexistent
derr "--set-program, missing file" "vpmu-hist: $tmp/nope: No such file or directory" "" --set-program="$tmp/nope" --device=/dev/null
"$HIST" --help >"$tmp/help" &&
grep -q -- '--set-program=PROGFILE | --get-program | --get-buckets\[=CPU\]' "$tmp/help" &&
grep -q -- '^      --get-program ' "$tmp/help" &&
grep -q -- '^      --get-buckets\[=CPU|sum\] ' "$tmp/help"
ok $? "--help shows --set-program, --get-program and --get-buckets"

# --plot
if command -v gnuplot >/dev/null 2>&1; then
	"$HIST" --buckets="$tmp/sysfs/sum" --program="$tmp/prog" -q \
		--plot="$tmp/hu.png" >"$tmp/out" && [ ! -s "$tmp/out" ] &&
	png_ok "$tmp/hu.png"
	ok $? "--buckets --plot FILE.png -q: a PNG with sane dimensions, no report"
	"$HIST" --buckets="$tmp/sysfs/sum" --program="$tmp/prog" \
		--plot="$tmp/hu.svg" >"$tmp/out" &&
	cmp -s "$GOLDEN/hu-report.txt" "$tmp/out" &&
	xml_ok "$tmp/hu.svg" && grep -q '<svg' "$tmp/hu.svg" &&
	grep -q '>wq=1-4<' "$tmp/hu.svg" && grep -q '>vpmu_insns<' "$tmp/hu.svg" &&
	grep -q '>(780 cycles)<' "$tmp/hu.svg" && grep -q '>112<' "$tmp/hu.svg" &&
	grep -q 'seq program, monitoring period 3121 cycles' "$tmp/hu.svg"
	ok $? "--buckets --plot FILE.svg: well-formed, bars labelled by predicate and period, the mode in the title, and the report"
	# 16 buckets: labels slanted; both quotes in the file names
	q="$tmp/it's \"16\""
	"$SIM" -q --hu="seq$(for i in $(seq 1 16); do printf ';vpmu_cycles %d' "$i"; done)" \
		"$tmp/sum.vprg" >"$q" &&
	"$HIST" --buckets="$q" -q --plot="$tmp/q'16.svg" &&
	xml_ok "$tmp/q'16.svg" &&
	grep -qF "histogram-unit buckets of it's \"16\": 16 buckets, 179 counted in all" "$tmp/q'16.svg"
	r=$?
	[ $r = 0 ] || grep -o 'histogram-unit[^<]*' "$tmp/q'16.svg" | sed 's/^/# /'
	ok $r "--buckets --plot: 16 buckets, quotes in the file names escaped"
else
	for t in PNG SVG "16 buckets"; do
		skip "--buckets --plot $t" "gnuplot not installed"
	done
fi
# gnuplot's failures: its exit status, or no file, and nothing left behind
mkdir -p "$tmp/fake"
printf '#!/bin/sh\necho partial >"%s"\nexit 3\n' "$tmp/f.png" >"$tmp/fake/gnuplot"
chmod +x "$tmp/fake/gnuplot"
PATH=$tmp/fake "$HIST" --buckets="$tmp/sysfs/sum" --plot="$tmp/f.png" \
	>"$tmp/out" 2>"$tmp/err"
[ $? = 125 ] && [ "$(cat "$tmp/err")" = "vpmu-hist: $tmp/f.png: gnuplot failed (exit status 3)" ] &&
[ ! -e "$tmp/f.png" ] && [ ! -s "$tmp/out" ]
ok $? "--buckets --plot, gnuplot exits 3: exit 125, says so, no file left"
printf '#!/bin/sh\nexit 0\n' >"$tmp/fake/gnuplot"
PATH=$tmp/fake "$HIST" --buckets="$tmp/sysfs/sum" --plot="$tmp/f.svg" \
	>/dev/null 2>"$tmp/err"
[ $? = 125 ] && [ "$(cat "$tmp/err")" = "vpmu-hist: $tmp/f.svg: gnuplot failed (it wrote no file)" ]
ok $? "--buckets --plot, gnuplot writes nothing: exit 125, says so"
PATH=/nonexistent "$HIST" --buckets="$tmp/sysfs/sum" --plot="$tmp/g.png" \
	>/dev/null 2>"$tmp/err"
[ $? = 125 ] && grep -q 'gnuplot not found on PATH; install it' "$tmp/err"
ok $? "--buckets --plot without gnuplot: exit 125, says how to install it"

# ---- perf stat's letters ------------------------------------------------
# -S, -r, -b, -a, -n, -p and -B mean other things to perf stat: long
# options in --help, their short forms still taken.
"$HIST" --help >"$tmp/help"
bad=
for o in S r b a n p B; do
	! grep -q "^  -$o, " "$tmp/help" || bad="$bad -$o"
done
grep -q "^The short forms -S, -r, -b, -a, -n, -p and -B still work" \
	"$tmp/help" || bad="$bad note"
[ -z "$bad" ] || echo "# $bad"
[ -z "$bad" ]
ok $? "--help: -S -r -b -a -n -p -B long-only, and a note that they still work"
"$HIST" --simulate -m "$IMG" --budget=1M --all --top=5 "$tmp/sum.vprg" \
	>"$tmp/o1" 2>/dev/null &&
	"$HIST" -S -m "$IMG" -b 1M -a -n 5 "$tmp/sum.vprg" >"$tmp/o2" \
		2>/dev/null && cmp -s "$tmp/o1" "$tmp/o2" &&
	"$HIST" -B "$tmp/sysfs/sum" >"$tmp/o1" &&
	"$HIST" --buckets="$tmp/sysfs/sum" >"$tmp/o2" && cmp -s "$tmp/o1" "$tmp/o2"
ok $? "the old short forms -S -b -a -n -B: the same reports as the long ones"

tap_done
