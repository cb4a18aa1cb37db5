#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vpmu_perf_surface.sh - what the perf tool sees of the PMU beyond counts
# (busybox sh; Documentation/vpmu/perf.rst): perf list shows a tag alias
# for exactly the tags of the image loaded, perf stat counts every tag
# 1..7 of the encoded sample image exactly (encoded/tags.expect), :P
# (caps/max_precise) samples as exactly as no modifier, and vpmu-hist
# --perf reports a perf record profile as the host engine's micro-PC
# histogram of the same run.  TAP output; skips without perf, the loader,
# the tools or the assembled programs.

PMU=/sys/bus/event_source/devices/vpmu
SHARE=${VPMU_SHARE:-/usr/share/vpmu}
RUN=$(command -v vpmu-run || echo vpmu-run)
LOAD=$(command -v vpmu-load || echo vpmu-load)
HIST=$(command -v vpmu-hist || echo vpmu-hist)
T=${TMPDIR:-/tmp}/vpmu_perf_surface.$$
# shellcheck disable=SC2034 # vpmu_tap.sh's stat and check read it
OUT=$T/stat
# The TAP helpers, beside this script (installed as a TEST_FILES).
# shellcheck source=vpmu_tap.sh
. "$(dirname "$0")/vpmu_tap.sh"

command -v perf >/dev/null 2>&1 || skip_all "no perf"
[ -w "$PMU/ucode/image" ] || skip_all "no loader (or not root)"
for t in "$RUN" "$LOAD" "$HIST"; do
	[ -x "$t" ] || skip_all "no $t"
done
for f in build/encoded.vpmu build/tags.vprg build/sum.vprg \
	 encoded/tags.expect; do
	[ -f "$SHARE/$f" ] || skip_all "no $SHARE/$f"
done

tap_plan 5
mkdir -p "$T"

# listed: the vpmu_tagN aliases perf list shows, one line.
listed() {
	perf list 2>/dev/null | sed -n 's|.*vpmu/\(vpmu_tag[0-9]*\)/.*|\1|p' |
		sort -t g -k 2 -n | tr '\n' ' '
}

# 1. The aliases follow the image: tags 1..7 encoded (3 below: 1..8).
"$LOAD" -q "$SHARE/build/encoded.vpmu"
got=$(listed)
want="vpmu_tag1 vpmu_tag2 vpmu_tag3 vpmu_tag4 vpmu_tag5 vpmu_tag6 vpmu_tag7 "
[ "$got" = "$want" ] || echo "# perf list: '$got'"
[ "$got" = "$want" ]
ok $? "perf list: vpmu_tag1..7 with the encoded image"

# 2. perf stat of every tag of tags.s, nr_counters events a run.
rc=0
nr=$(cat "$PMU/caps/nr_counters")
k=1
while [ $k -le 7 ]; do
	evs='' pairs='' i=0
	while [ $k -le 7 ] && [ $i -lt "$nr" ]; do
		evs="${evs:+$evs,}vpmu/vpmu_tag$k/"
		pairs="$pairs vpmu/vpmu_tag$k/=$(sed -n "s/^event tag$k //p" "$SHARE/encoded/tags.expect")"
		k=$((k + 1))
		i=$((i + 1))
	done
	stat -e "$evs" "$RUN" "$SHARE/build/tags.vprg"
	# shellcheck disable=SC2086
	check $pairs || rc=1
done
ok $rc "perf stat: every tag 1..7 of tags.s, as tags.expect"

# 3. The default image again: its 8 tags.
"$LOAD" -q --default
got=$(listed)
want="vpmu_tag1 vpmu_tag2 vpmu_tag3 vpmu_tag4 vpmu_tag5 vpmu_tag6 vpmu_tag7 vpmu_tag8 "
[ "$got" = "$want" ] || echo "# perf list: '$got'"
[ "$got" = "$want" ]
ok $? "perf list: vpmu_tag1..8 with the default image again"

# 4. :P asks for caps/max_precise: the same 3 samples as no modifier.
for m in "" P; do
	perf record -q -e "vpmu/vpmu_uops/$m" -c 50 -o "$T/data$m" \
		"$RUN" "$SHARE/build/sum.vprg" >/dev/null 2>&1
	perf script -i "$T/data$m" -F ip >"$T/ip$m" 2>/dev/null
done
[ "$(cat "$PMU/caps/max_precise")" = 3 ] && [ "$(wc -l <"$T/ip")" = 3 ] &&
	cmp -s "$T/ip" "$T/ipP"
ok $? "perf record :P (max_precise 3): the exact samples of no modifier"

# 5. A sampled profile by microcode label: every microword of sum (period
#    1) through perf script is the host engine's histogram of every cycle
#    (sum has no stall cycles), but for the line saying what was sampled.
cat "$PMU/ucode/image" >"$T/image.vpmu"
perf record -q -e vpmu/vpmu_uops,sample_upc/ -c 1 -o "$T/data1" \
	"$RUN" "$SHARE/build/sum.vprg" >/dev/null 2>&1
perf script -i "$T/data1" -F ip >"$T/ip1" 2>/dev/null
"$HIST" --perf -m "$T/image.vpmu" --by-label "$T/ip1" >"$T/perf.txt" 2>&1
"$HIST" --simulate -m "$T/image.vpmu" --by-label "$SHARE/build/sum.vprg" \
	>"$T/sim.txt" 2>/dev/null
if sed -n 2p "$T/perf.txt" | grep -q '^179 perf samples' &&
   [ "$(sed 2d "$T/perf.txt")" = "$(sed 2d "$T/sim.txt")" ]; then
	ok 0 "vpmu-hist --perf: perf record's profile of sum by label"
else
	diff "$T/sim.txt" "$T/perf.txt" | sed 's/^/# /'
	ok 1 "vpmu-hist --perf: perf record's profile of sum by label"
fi

rm -rf "$T"
tap_done
