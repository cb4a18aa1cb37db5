#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vpmu_perf_surface.sh - what the perf tool sees of the PMU beyond counts
# (busybox sh; Documentation/admin-guide/perf/vpmu.rst, "PMU events"):
# events/ holds every event under its name (cycles, tag1) and its old name
# (vpmu_cycles, vpmu_tag1), the same config under both, and perf list shows
# each, and vpmu_hu's hist1..16; perf stat counts the same under both names
# and the raw config; perf list shows the two tag aliases for exactly the
# tags of the image loaded, a dropped tag cannot be opened by name, perf
# stat counts every tag 1..7 of the encoded sample image exactly
# (encoded/tags.expect), the image's tag names (decode ...) are events that
# count as their tags, :P (caps/max_precise) samples as exactly as no
# modifier, and vpmu-hist --perf reports a perf record profile as the host
# engine's micro-PC histogram of the same run.  TAP output; skips without
# perf, the loader, the tools or the assembled programs.

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

tap_plan 9
mkdir -p "$T"

# listed: the tag aliases perf list shows, tagN then vpmu_tagN, one line
# (one perf list for both: it takes seconds on the debug kernels).
listed() {
	list=$(perf list 2>/dev/null)
	echo "$list" | sed -n 's|.*vpmu/\(tag[0-9]*\)/.*|\1|p' |
		sort -t g -k 2 -n | tr '\n' ' '
	echo "$list" | sed -n 's|.*vpmu/\(vpmu_tag[0-9]*\)/.*|\1|p' |
		sort -t g -k 2 -n | tr '\n' ' '
}

# tags N: what listed should print for tags 1..N.
tags() {
	i=1; while [ $i -le "$1" ]; do printf 'tag%d ' $i; i=$((i + 1)); done
	i=1; while [ $i -le "$1" ]; do printf 'vpmu_tag%d ' $i; i=$((i + 1)); done
}

# names: every event name of the default image, sorted; each of them is
# also there as vpmu_NAME.
names() {
	for ev in cycles uops insns ubr_taken dispatch dc_hit dc_miss \
		  wq_stall trigger stores; do
		echo $ev
	done
	i=1; while [ $i -le 8 ]; do echo tag$i; i=$((i + 1)); done
}

# TAGNAMES: the default image's tag names (default.vus), tag 1..8.
TAGNAMES="decode alu load store branch taken priv call"

# expected NAME: NAME's count in sum.expect.
expected() {
	sed -n "s/^event $1 \([0-9]*\)\$/\1/p" "$SHARE/samples/sum.expect"
}

# 1. events/ of the default image: the 18 events under their names and
#    under their old ones, and its 8 tag names, no other file; each pair
#    of files says the same, each name its tag; perf list shows all 44,
#    and vpmu_hu's 16 buckets (one perf list for both).
"$LOAD" -q --default
names | sort >"$T/names"
{ cat "$T/names"; sed 's/^/vpmu_/' "$T/names"; echo "$TAGNAMES" | tr ' ' '\n'; } |
	sort >"$T/want"
for f in "$PMU"/events/*; do echo "${f##*/}"; done | sort >"$T/got"
rc=0
cmp -s "$T/want" "$T/got" || { diff "$T/want" "$T/got" | sed 's/^/# /'; rc=1; }
while read -r ev; do
	[ "$(cat "$PMU/events/$ev" 2>&1)" = "$(cat "$PMU/events/vpmu_$ev")" ] ||
		{ echo "# events/$ev and events/vpmu_$ev differ"; rc=1; }
done <"$T/names"
list=$(perf list 2>/dev/null)
echo "$list" | sed -n 's|.*vpmu/\([a-z0-9_][a-z0-9_]*\)/.*|\1|p' |
	sort -u >"$T/listed"
cmp -s "$T/want" "$T/listed" ||
	{ diff "$T/want" "$T/listed" | sed 's/^/# perf list: /'; rc=1; }
k=1
for ev in $TAGNAMES; do
	[ "$(cat "$PMU/events/$ev")" = "tag=$k" ] ||
		{ echo "# events/$ev is not tag=$k"; rc=1; }
	k=$((k + 1))
done
[ "$(wc -l <"$T/want")" = 44 ] || rc=1
i=1
while [ $i -le 16 ]; do echo hist$i; i=$((i + 1)); done | sort >"$T/want_hu"
echo "$list" | sed -n 's|.*vpmu_hu/\([a-z0-9_][a-z0-9_]*\)/.*|\1|p' |
	sort -u >"$T/listed_hu"
cmp -s "$T/want_hu" "$T/listed_hu" ||
	{ diff "$T/want_hu" "$T/listed_hu" | sed 's/^/# perf list: /'; rc=1; }
ok $rc "events/, perf list: 18 events under their names and their old ones," \
	"8 tag names, vpmu_hu's hist1..16"

# 2. perf stat: an event's name, its old name and its config count the
#    same, sum.expect's count.
rc=0
if [ ! -f "$SHARE/samples/sum.expect" ]; then
	skip "perf stat: name, old name and config count the same" \
		"no samples/sum.expect"
else
	for ev in cycles uops insns dc_hit tag1 tag2 tag5 tag8; do
		cfg=$(cat "$PMU/events/$ev")
		stat -e "vpmu/$ev/,vpmu/vpmu_$ev/,vpmu/$cfg/" \
			"$RUN" "$SHARE/build/sum.vprg"
		want=$(expected "$ev")
		check "vpmu/$ev/=$want" "vpmu/vpmu_$ev/=$want" \
		      "vpmu/$cfg/=$want" || rc=1
	done
	ok $rc "perf stat: name, old name and config count the same"
fi

# 3. The aliases follow the image: tags 1..7 encoded (6 below: 1..8);
#    a tag the image dropped is no event perf can open.
"$LOAD" -q "$SHARE/build/encoded.vpmu"
got=$(listed)
want=$(tags 7)
[ "$got" = "$want" ] || echo "# perf list: '$got'"
[ "$got" = "$want" ]
ok $? "perf list: tag1..7, vpmu_tag1..7 with the encoded image"

# 4. What the encoded image dropped is gone, what it kept is there.
rc=0
for ev in tag7 vpmu_tag7; do
	[ -e "$PMU/events/$ev" ] || { echo "# no events/$ev"; rc=1; }
done
for ev in tag8 vpmu_tag8; do
	[ ! -e "$PMU/events/$ev" ] || { echo "# events/$ev is there"; rc=1; }
	if perf stat -e "vpmu/$ev/" "$RUN" "$SHARE/build/tags.vprg" \
		>/dev/null 2>&1; then
		echo "# perf stat -e vpmu/$ev/ ran"
		rc=1
	fi
done
ok $rc "encoded image: events/tag7, no events/tag8, vpmu/tag8/ refused"

# 5. perf stat of every tag of tags.s, nr_counters events a run.
rc=0
nr=$(cat "$PMU/caps/nr_counters")
k=1
while [ $k -le 7 ]; do
	evs='' pairs='' i=0
	while [ $k -le 7 ] && [ $i -lt "$nr" ]; do
		evs="${evs:+$evs,}vpmu/tag$k/"
		want=$(sed -n "s/^event tag$k //p" "$SHARE/encoded/tags.expect")
		pairs="$pairs vpmu/tag$k/=$want"
		k=$((k + 1))
		i=$((i + 1))
	done
	stat -e "$evs" "$RUN" "$SHARE/build/tags.vprg"
	# shellcheck disable=SC2086
	check $pairs || rc=1
done
ok $rc "perf stat: every tag 1..7 of tags.s by name, as tags.expect"

# 6. The default image again: its 8 tags.
"$LOAD" -q --default
got=$(listed)
want=$(tags 8)
[ "$got" = "$want" ] || echo "# perf list: '$got'"
[ "$got" = "$want" ]
ok $? "perf list: tag1..8, vpmu_tag1..8 with the default image again"

# 7. A tag's name counts as the tag (the default image, loaded again
#    in 6): vpmu/decode/ as vpmu/tag1/, sum.expect's count, and so on.
rc=0
if [ ! -f "$SHARE/samples/sum.expect" ]; then
	skip "perf stat: vpmu/decode/, call, branch, load count as their tags" \
		"no samples/sum.expect"
else
	# two events a run: no multiplexing on the fewest counters
	# (branch is a legacy-cache word to perf's parser: the PMU's own
	# event comes first)
	for pair in decode:tag1 call:tag8 branch:tag5 load:tag3; do
		name=${pair%:*} tag=${pair#*:}
		stat -e "vpmu/$name/,vpmu/$tag/" "$RUN" "$SHARE/build/sum.vprg"
		check "vpmu/$name/=$(expected "$tag")" \
		      "vpmu/$tag/=$(expected "$tag")" || rc=1
	done
	ok $rc "perf stat: vpmu/decode/, call, branch, load count as their tags"
fi

# 8. :P asks for caps/max_precise: the same 3 samples as no modifier.
for m in "" P; do
	perf_record -e "vpmu/vpmu_uops/$m" -c 50 -o "$T/data$m" \
		"$RUN" "$SHARE/build/sum.vprg" >/dev/null 2>&1
	perf_fields "$T/data$m" ip >"$T/ip$m" 2>/dev/null
done
[ "$(cat "$PMU/caps/max_precise")" = 3 ] && [ "$(wc -l <"$T/ip")" = 3 ] &&
	cmp -s "$T/ip" "$T/ipP"
ok $? "perf record :P (max_precise 3): the exact samples of no modifier"

# 9. A sampled profile by microcode label: every microword of sum (period
#    1) through perf script is the host engine's histogram of every cycle
#    (sum has no stall cycles), but for the line saying what was sampled.
cat "$PMU/ucode/image" >"$T/image.vpmu"
perf_record -e vpmu/vpmu_uops,sample_upc/ -c 1 -o "$T/data1" \
	"$RUN" "$SHARE/build/sum.vprg" >/dev/null 2>&1
perf_fields "$T/data1" ip >"$T/ip1" 2>/dev/null
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
