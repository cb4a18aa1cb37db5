#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_hu_cli.sh - vpmu-sim --hu and --hu-file on the command line (TAP):
# the buckets of hand-derived programs on the sum sample (179 cycles, 179
# microwords, 32 instructions), runs adding up, --quiet keeping the
# buckets, and bad programs refused with the parser's message and exit
# status 125; address predicates and a one-shot period on memcpy.  The module's side is selftests/vpmu/vpmu_hu in the VM.
set -u

. "$(dirname "$0")/tap.sh"
T=$BIN
S=$SHARE
tap_build vpmu-sim share
sum=$S/build/sum.vprg

# same NAME EXPECTED GOT
same() {
	if [ "$2" = "$3" ]; then
		ok 0 "$1"
	else
		printf '# expected:\n%s\n# got:\n%s\n' "$2" "$3" | sed 's/^/# /'
		ok 1 "$1"
	fi
}

"$T/vpmu-sim" --help | grep -q -- "--hu=PROGRAM"; ok $? "vpmu-sim --help documents --hu"

got=$("$T/vpmu-sim" -q --hu 'par; vpmu_cycles 1000; vpmu_uops 1000; vpmu_insns 1000; tag=1 1000' "$sum")
same "par, one period for the run: the totals" \
     "$(printf 'hist C1 179\nhist C2 179\nhist C3 32\nhist C4 33')" "$got"

# 179 = 4 x 40 + 19
got=$("$T/vpmu-sim" -q --hu 'seq; vpmu_cycles 10; vpmu_cycles 10; vpmu_cycles 10; vpmu_cycles 10' "$sum")
same "seq, four windows of 10 cycles" \
     "$(printf 'hist C1 50\nhist C2 49\nhist C3 40\nhist C4 40')" "$got"

# two runs: 358 = 7 x 50 + 8 (periods 7, 13, 30)
got=$("$T/vpmu-sim" -q -n 2 --hu 'seq; vpmu_cycles 7; vpmu_cycles 13; vpmu_cycles 30' "$sum")
same "seq, unequal periods, two runs adding up" \
     "$(printf 'hist C1 56\nhist C2 92\nhist C3 210')" "$got"

printf 'par # a comment\nvpmu_insns 1000000\n\nupc=0-0xfff 1000000\n' >"$tmp/p.hu"
got=$("$T/vpmu-sim" --hu-file "$tmp/p.hu" "$sum" | grep '^hist')
same "--hu-file, not quiet" "$(printf 'hist C1 32\nhist C2 179')" "$got"

# the last of --hu and --hu-file wins
got=$("$T/vpmu-sim" -q --hu-file "$tmp/p.hu" --hu 'par;vpmu_uops 5' "$sum")
same "the last program option wins" "hist C1 179" "$got"

got=$("$T/vpmu-sim" -q "$sum")
same "no --hu: no buckets" "" "$got"

# memcpy (histogram.rst, "Worked example: data addresses"): src 0x60..0x9f,
# dst 0xa0..0xdf; 80 and 64 loads, 4 misses in each, 16 stores to dst
mc=$S/build/memcpy.vprg
got=$("$T/vpmu-sim" -q --hu 'par; load=0x60-0xa0 1000000; load=0xa0-0xe0 1000000; hit=0x60 1000000; miss=0x60 1000000; miss=0xa0-0xe0 1000000; store=0xa0-0xe0 1000000; access=0-0x60 1000000' "$mc")
same "address predicates on memcpy" \
     "$(printf 'hist C1 80\nhist C2 64\nhist C3 1\nhist C4 1\nhist C5 4\nhist C6 16\nhist C7 0')" "$got"

# one period of 1000 cycles, held through a second run
got=$("$T/vpmu-sim" -q -n 2 --hu 'par once; vpmu_cycles 1000; load=0x60-0xa0 1000; miss=0x0-0x100000000 1000' "$mc")
same "once: one period, held through two runs" \
     "$(printf 'hist C1 1000\nhist C2 27\nhist C3 5')" "$got"

err=$("$T/vpmu-sim" -q --hu 'par; store=0x100-0x100 5' "$mc" 2>&1 >/dev/null)
rc=$?
[ $rc = 125 ] && [ "$err" = "vpmu-sim: --hu: bad histogram-unit program: entry 1: store=0x100-0x100: LO not below HI (HI is excluded)" ]
ok $? "an empty address range: exit 125 and the parser's message"

err=$("$T/vpmu-sim" -q --hu 'seq; vpmu_uops 5; wq=5-2 5' "$sum" 2>&1 >/dev/null)
rc=$?
[ $rc = 125 ] && [ "$err" = "vpmu-sim: --hu: bad histogram-unit program: entry 2: wq=5-2: LO above HI" ]
ok $? "a bad --hu program: exit 125 and the parser's message"
[ $rc = 125 ] || echo "# exit $rc: $err"

printf 'seq\nvpmu_bogus 1\n' >"$tmp/bad.hu"
err=$("$T/vpmu-sim" -q --hu-file "$tmp/bad.hu" "$sum" 2>&1 >/dev/null)
rc=$?
[ $rc = 125 ] && [ "$err" = "vpmu-sim: $tmp/bad.hu: bad histogram-unit program: entry 1: unknown predicate 'vpmu_bogus' (event=N, tag=K, an event name, wq=, upc=, load=, hit=, miss=, store= or access=)" ]
ok $? "a bad --hu-file program: exit 125 and the parser's message"

"$T/vpmu-sim" -q --hu-file "$tmp/missing.hu" "$sum" >/dev/null 2>&1
[ $? = 125 ]; ok $? "a missing --hu-file: exit 125"

tap_done
