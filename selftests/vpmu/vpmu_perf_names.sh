#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vpmu_perf_names.sh - perf names the engine's code by itself (busybox sh;
# include/uapi/linux/vpmu.h, VPMU_SAMPLE_PC_BASE).  vpmu-run maps the
# program and the microcode, as ELF files, where the samples' IPs point;
# after perf record nothing of vpmu runs: perf report, annotate and
# script name the samples with the ELF files' own symbols.
#
#   1. perf report --sort sym of fib.elf names its functions (fib, main);
#   2. every function's samples and percentage, in fib.elf and sort.elf,
#      are those of the samples' IPs (perf script -F ip) looked up in the
#      ELF's symbol table (riscv64-unknown-elf-objdump -t), and there are
#      floor(cycles / period) samples;
#   3. with sample_upc, the samples of sort.elf are named by the labels of
#      the RV32IM microcode (vpmu-as -f elf), each with the samples and
#      percentage vpmu-hist --perf gives that label;
#   4. a vpmu32 program written by vpmu-as -f elf (sortloop.s) is named by
#      its labels, exactly as in 2;
#   5. perf annotate --objdump=riscv64-unknown-elf-objdump shows fib's
#      RV32 instructions, each with its exact share of fib's samples;
#   6. with perf record -g, perf script prints each sample's one frame on
#      a line of its own, so it folds (as stackcollapse-perf.pl folds it,
#      weighing each sample by its period) into "vpmu-run;FUNCTION
#      PERIODS" lines, perf report's samples times the period;
#   7. fib.c built as a user builds it (make rv32plain: -O0, -O1 -g, -O2,
#      the RISC-V mapping symbols of GNU as left in): perf report --sort
#      sym names fib and main and no mapping symbol ("$x..."), each
#      function's samples are those of its IPs in the symbol table, and
#      perf annotate shows fib, under any perf (6.1 takes a mapping symbol
#      for a label, and vpmu-run maps a copy that hides them).
#
# TAP output; skips without perf, the tools, root (to load the RV32IM
# image) or the built RV32 samples; the checks against the symbol tables
# skip without riscv64-unknown-elf-objdump (the VM harness adds it).

PMU=/sys/bus/event_source/devices/vpmu
SHARE=${VPMU_SHARE:-/usr/share/vpmu}
RUN=$(command -v vpmu-run || echo vpmu-run)
AS=$(command -v vpmu-as || echo vpmu-as)
DIS=$(command -v vpmu-dis || echo vpmu-dis)
LOAD=$(command -v vpmu-load || echo vpmu-load)
HIST=$(command -v vpmu-hist || echo vpmu-hist)
OBJDUMP=$(command -v riscv64-unknown-elf-objdump || true)
ELFS=$SHARE/build/rv32
T=${TMPDIR:-/tmp}/vpmu_perf_names.$$
# The TAP helpers, beside this script (installed as a TEST_FILES).
# shellcheck source=vpmu_tap.sh
. "$(dirname "$0")/vpmu_tap.sh"

command -v perf >/dev/null 2>&1 || skip_all "no perf"
[ -w "$PMU/ucode/image" ] || skip_all "no loader (or not root)"
for t in "$RUN" "$AS" "$DIS" "$LOAD" "$HIST"; do
	[ -x "$t" ] || skip_all "no $t"
done
for f in build/default.vpmu ucode/rv32im.vus progs/sortloop.s; do
	[ -f "$SHARE/$f" ] || skip_all "no $SHARE/$f"
done
if [ ! -f "$ELFS/fib.elf" ] || [ ! -f "$ELFS/sort.elf" ]; then
	skip_all "no $ELFS/*.elf (no cross compiler?)"
fi

tap_plan 7
mkdir -p "$T"
cleanup() {
	"$LOAD" -q --default
	rm -rf "$T"
}
trap cleanup EXIT

# The microcode as ELF files: RV32IM from its source, the default image
# through its listing (vpmu-dis, then vpmu-as: the same bytes).
"$AS" -f elf -o "$T/rv32im.elf" "$SHARE/ucode/rv32im.vus"
"$DIS" -o "$T/default.vus" "$SHARE/build/default.vpmu"
"$AS" -f elf -o "$T/default.elf" "$T/default.vus"
"$AS" -m "$T/default.elf" -f elf -o "$T/sortloop.elf" "$SHARE/progs/sortloop.s"

# report DATA: "NAME SAMPLES PERCENT" for each line of perf report --sort
# sym -n (--no-children: the samples' own, with perf record -g too), sorted.
report() {
	perf report -i "$1" --stdio --no-children --sort sym -n -q 2>/dev/null |
		awk '/%/ { sub(/%$/, "", $1); print $NF, $2, $1 }' | sort
}

# ips DATA BASE: the samples' IPs less BASE, in decimal, one a line.
ips() {
	perf_fields "$1" ip 2>/dev/null | while read -r ip; do
		echo $((0x$ip - $2))
	done
}

# ranges ELF: "START END NAME" (decimal) for each function symbol of ELF,
# from its symbol table (objdump -t).
ranges() {
	"$OBJDUMP" -t "$1" | awk '$3 == "F" || $2 == "F" { print $1, $(NF - 1), $NF }' |
	while read -r addr size name; do
		echo $((0x$addr)) $((0x$addr + 0x$size)) "$name"
	done
}

# by_symbol ELF PCS: "NAME SAMPLES PERCENT" for each function symbol of
# ELF with samples among the addresses in file PCS, the percentage of all
# of them, sorted.
by_symbol() {
	ranges "$1" >"$T/ranges"
	awk 'NR == FNR { lo[NR] = $1; hi[NR] = $2; name[NR] = $3; n = NR; next }
	     { total++
	       for (i = 1; i <= n; i++)
		       if ($1 >= lo[i] && $1 < hi[i]) { c[name[i]]++; break } }
	     END { for (s in c)
			   printf "%s %d %.2f\n", s, c[s], 100 * c[s] / total }' \
		"$T/ranges" "$2" | sort
}

# same WANT GOT: ok if GOT has every line of WANT ("NAME SAMPLES
# PERCENT"), and WANT has some (GOT may name more: code outside functions).
same() {
	[ -s "$1" ] &&
	awk 'NR == FNR { want[$1] = $0; nw++; next }
	     ($1 in want) { if (want[$1] != $0) bad = 1; seen++ }
	     END { exit bad || seen != nw }' "$1" "$2"
	r=$?
	if [ $r != 0 ]; then
		echo "# expected (name samples %):"; sed 's/^/#   /' "$1"
		echo "# perf report:"; sed 's/^/#   /' "$2"
	fi
	return $r
}

PC_BASE=$((1 << 44))
# The period: fib.elf's 1748035 cycles give 349 samples, sortloop's budget
# of 1M cycles 200.  A run with more samples than the driver's throttle
# allows in one jiffy (DIV_ROUND_UP(100000, HZ): 400 at Debian's HZ of 250)
# would lose some in a guest whose jiffies stalled for a few ticks while the
# run went on, as seen on the debug kernels with -c 1000: 1747 samples of
# fib.elf's 1748.
P=5000
"$LOAD" -q "$T/rv32im.elf" || echo "# cannot load $T/rv32im.elf"

# main, a small part of a run of fib.c, takes a sample of its own only at a
# short period: the first NAMES_BUDGET cycles of a run at -c NAMES_P, where
# main has several samples (at -c 1000 over a whole run it had one, and a
# guest that lost a sample to the throttle lost main's), and no run can
# have more samples than the throttle allows in a tick.
NAMES_P=100
NAMES_BUDGET=39999

# names DATA ELF: perf record of ELF's first NAMES_BUDGET cycles into DATA
# (without vpmu-run's message that the budget ran out).
names() {
	perf_record -e vpmu/vpmu_cycles/ -c $NAMES_P -o "$1" \
		"$RUN" -m "$T/rv32im.elf" --budget=$NAMES_BUDGET "$2" >/dev/null 2>&1
}

# 1. fib.elf: its functions by name.
names "$T/names.data" "$ELFS/fib.elf"
report "$T/names.data" >"$T/names.report"
grep -q '^fib ' "$T/names.report" && grep -q '^main ' "$T/names.report"
r=$?
[ $r = 0 ] || sed 's/^/# /' "$T/names.report"
ok $r "perf report --sort sym of fib.elf: fib, main"

# At period P, for the exact checks below.
perf_record -e vpmu/vpmu_cycles/ -c $P -o "$T/fib.data" \
	"$RUN" -m "$T/rv32im.elf" --stats "$ELFS/fib.elf" >/dev/null 2>"$T/stats"
report "$T/fib.data" >"$T/fib.report"

# 2. Exactly the samples of each function, and floor(cycles / P).
if [ -n "$OBJDUMP" ]; then
	cycles=$(sed -n 's/^event cycles //p' "$T/stats")
	ips "$T/fib.data" $PC_BASE >"$T/fib.pcs"
	by_symbol "$ELFS/fib.elf" "$T/fib.pcs" >"$T/fib.want"
	[ "$(wc -l <"$T/fib.pcs")" = $((cycles / P)) ] ||
		echo "# $(wc -l <"$T/fib.pcs") samples of $cycles cycles"
	[ "$(wc -l <"$T/fib.pcs")" = $((cycles / P)) ] &&
	same "$T/fib.want" "$T/fib.report" &&
	perf_record -e vpmu/vpmu_cycles/ -c $P -o "$T/sort.data" \
		"$RUN" -m "$T/rv32im.elf" "$ELFS/sort.elf" >/dev/null &&
	report "$T/sort.data" >"$T/sort.report" &&
	ips "$T/sort.data" $PC_BASE >"$T/sort.pcs" &&
	by_symbol "$ELFS/sort.elf" "$T/sort.pcs" >"$T/sort.want" &&
	same "$T/sort.want" "$T/sort.report"
	ok $? "perf report of fib.elf and sort.elf: each function's samples and %, exactly"
else
	skip "perf report: each function's samples and %" "no riscv64-unknown-elf-objdump"
fi

# 3. Micro-PC samples by microcode label, as vpmu-hist --perf has them.
perf_record -e vpmu/vpmu_cycles,sample_upc/ -c $P -o "$T/upc.data" \
	"$RUN" -m "$T/rv32im.elf" "$ELFS/sort.elf" >/dev/null
report "$T/upc.data" >"$T/upc.report"
perf_fields "$T/upc.data" ip >"$T/upc.ips" 2>/dev/null
"$HIST" --perf -m "$T/rv32im.elf" --by-label "$T/upc.ips" 2>&1 |
	awk '$2 ~ /^0x/ && $3 ~ /\// { print $1, $4, $5 }' | sort >"$T/upc.want"
same "$T/upc.want" "$T/upc.report" &&
[ "$(wc -l <"$T/upc.want")" = "$(wc -l <"$T/upc.report")" ] &&
grep -q '^br_taken ' "$T/upc.report"
ok $? "sample_upc: perf report names microcode labels, with vpmu-hist --perf's samples and %"

# 4. A vpmu32 program written as ELF, by its labels.
"$LOAD" -q --default
perf_record -e vpmu/vpmu_cycles/ -c $P -o "$T/loop.data" \
	"$RUN" -q -b 1M "$T/sortloop.elf" >/dev/null
report "$T/loop.data" >"$T/loop.report"
if [ -n "$OBJDUMP" ]; then
	ips "$T/loop.data" $PC_BASE >"$T/loop.pcs"
	by_symbol "$T/sortloop.elf" "$T/loop.pcs" >"$T/loop.want"
	same "$T/loop.want" "$T/loop.report" &&
	[ "$(wc -l <"$T/loop.pcs")" = $((1000000 / P)) ]
	ok $? "vpmu-as -f elf program: perf report names its labels, with their samples and %"
else
	grep -q '^inner ' "$T/loop.report"
	ok $? "vpmu-as -f elf program: perf report names its labels"
fi
"$LOAD" -q "$T/rv32im.elf"

# 5. perf annotate shows fib's RV32 instructions, each with its share.
if [ -n "$OBJDUMP" ]; then
	ranges "$ELFS/fib.elf" | awk '$3 == "fib"' >"$T/fib.range"
	read -r lo hi _ <"$T/fib.range"
	awk -v lo="$lo" -v hi="$hi" '$1 >= lo && $1 < hi { c[$1]++; t++ }
		END { for (a in c) printf "%x %.2f\n", a, 100 * c[a] / t }' \
		"$T/fib.pcs" | sort >"$T/ann.want"
	perf annotate -i "$T/fib.data" --stdio \
		--objdump="$OBJDUMP" fib >"$T/ann.out" 2>"$T/ann.err"
	awk -F: 'NF >= 3 && $1 ~ /^ *[0-9]+\.[0-9]+ *$/ && $2 ~ /^ *[0-9a-f]+ *$/ {
			p = $1; a = $2; gsub(/ /, "", p); gsub(/[ \t]/, "", a)
			if (p + 0 > 0) print a, p }' "$T/ann.out" | sort >"$T/ann.got"
	# RV32 code: stores of the return address, the recursive call (perf
	# names some mnemonics as the host's parser reads them: addi as add)
	cmp -s "$T/ann.want" "$T/ann.got" &&
	grep -Eq ': +sw +ra,[0-9]+\(sp\)$' "$T/ann.out" &&
	grep -Eq ': +jal +[0-9a-f]+ <fib>$' "$T/ann.out"
	r=$?
	if [ $r != 0 ]; then
		echo "# expected (address %):"; sed 's/^/#   /' "$T/ann.want" | head -20
		echo "# perf annotate:"; head -40 "$T/ann.out" | sed 's/^/#   /'
		sed 's/^/#   /' "$T/ann.err" | head -5
	fi
	ok $r "perf annotate --objdump=riscv64-unknown-elf-objdump:" \
		"fib's RV32 instructions, each with its share"
else
	skip "perf annotate of fib" "no riscv64-unknown-elf-objdump"
fi

# 6. perf record -g: one frame a sample, folded as stack collapsing does.
perf_record -g -e vpmu/vpmu_cycles/ -c $P -o "$T/g.data" \
	"$RUN" -m "$T/rv32im.elf" "$ELFS/fib.elf" >/dev/null
perf script -i "$T/g.data" 2>/dev/null >"$T/g.script"
awk '/^[^ \t]/ { comm = $1; period = $(NF - 1); n = 0; next }
     /^[ \t]/ { n++; f = $2; sub(/\+0x[0-9a-f]+$/, "", f); frame = f; next }
     /^$/ { if (comm != "") { if (n != 1) bad++; c[comm ";" frame] += period }
	    comm = "" }
     END { for (s in c) print s, c[s]; exit bad != 0 }' "$T/g.script" |
	sort >"$T/g.folded"
r=$?
report "$T/g.data" | awk -v p=$P '{ print "vpmu-run;" $1, $2 * p }' | sort >"$T/g.want"
[ $r = 0 ] && cmp -s "$T/g.want" "$T/g.folded" &&
grep -q '^vpmu-run;fib ' "$T/g.folded"
r=$?
if [ $r != 0 ]; then
	echo "# folded:"; sed 's/^/#   /' "$T/g.folded"
	echo "# perf report:"; sed 's/^/#   /' "$T/g.want"
	head -8 "$T/g.script" | sed 's/^/#   /'
fi
ok $r "perf record -g + perf script: one frame a sample, folding into perf report's counts"

# 7. Programs built as users build them, the mapping symbols left in.
# plain ELF: ok if perf report of ELF's first cycles (names) names fib and
# main and no "$" symbol, and with a cross objdump, every function's samples
# are those of its IPs in the symbol table and perf annotate shows fib.
plain() {
	names "$T/plain.data" "$1"
	report "$T/plain.data" >"$T/plain.report"
	if ! grep -q '^fib ' "$T/plain.report" ||
	   ! grep -q '^main ' "$T/plain.report" ||
	   grep -q '^\$' "$T/plain.report"; then
		echo "# perf report of $1:"; sed 's/^/#   /' "$T/plain.report"
		return 1
	fi
	[ -z "$OBJDUMP" ] && return 0
	ips "$T/plain.data" $PC_BASE >"$T/plain.pcs"
	by_symbol "$1" "$T/plain.pcs" >"$T/plain.want"
	same "$T/plain.want" "$T/plain.report" || return 1
	perf annotate -i "$T/plain.data" --stdio --objdump="$OBJDUMP" fib \
		>"$T/plain.ann" 2>&1
	grep -Eq ': +jal +[0-9a-f]+ <fib>$' "$T/plain.ann" || {
		echo "# perf annotate fib of $1:"
		head -20 "$T/plain.ann" | sed 's/^/#   /'
		return 1
	}
}
if [ -f "$SHARE/build/rv32plain/fib-O1g.elf" ]; then
	r=0
	for f in "$SHARE"/build/rv32plain/fib-*.elf; do
		plain "$f" || r=1
	done
	ok $r "mapping symbols left in (-O0, -O1 -g, -O2):" \
		"perf report names fib and main, perf annotate shows fib"
else
	skip "programs with mapping symbols" "no $SHARE/build/rv32plain (make rv32plain)"
fi

tap_done
