#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vpmu_uhist_report.sh - vpmu-hist on the module's uhist/ files (busybox
# sh): sort run with every cycle sampled, then the report of uhist/sum and
# of the per-CPU files together is the host engine's report of the same
# run (vpmu-hist --simulate), line for line, on the image read back from
# ucode/image; so are the buckets.  TAP output; skips without uhist/,
# vpmu-run, vpmu-hist or the assembled samples.

PMU=/sys/bus/event_source/devices/vpmu
UH=$PMU/uhist
SHARE=${VPMU_SHARE:-/usr/share/vpmu}
RUN=$(command -v vpmu-run || echo vpmu-run)
HIST=$(command -v vpmu-hist || echo vpmu-hist)
T=/tmp/vpmu_uhist_report.$$
# The TAP helpers, beside this script (installed as a TEST_FILES).
# shellcheck source=vpmu_tap.sh
. "$(dirname "$0")/vpmu_tap.sh"

[ -w "$UH/control" ] || skip_all "no $UH/control"
[ -x "$RUN" ] || skip_all "no vpmu-run"
[ -x "$HIST" ] || skip_all "no vpmu-hist"
[ -f "$SHARE/build/sort.vprg" ] || skip_all "no $SHARE/build/sort.vprg"

tap_plan 4

# same WANT GOT: identical files, or a diff as TAP comments.
same() {
	cmp -s "$1" "$2" && return 0
	diff "$1" "$2" | sed 's/^/# /'
	return 1
}

mkdir -p "$T"
old=$(cat "$UH/interval")
cat "$PMU/ucode/image" >"$T/image.vpmu"

# 1. The host engine's histogram of sort, every cycle.
"$HIST" --simulate -m "$T/image.vpmu" -K 1 -o "$T/want.vuhs" -q \
	"$SHARE/build/sort.vprg" 2>/dev/null &&
	"$HIST" -m "$T/image.vpmu" "$T/want.vuhs" >"$T/want.txt"
ok $? "vpmu-hist --simulate: sort with K=1"

# 2. The module's: sampling every cycle, one run of sort, paused.  A run
# on every CPU first attaches each engine to the current image (another
# test may have left one on an image of another size).
rc=0
cpus=
if command -v taskset >/dev/null 2>&1; then
	for f in "$UH"/cpu*; do
		c=${f##*/cpu}
		taskset -c "$c" "$RUN" -q "$SHARE/build/sort.vprg" &&
			cpus="$cpus $f"
	done
fi
echo 1 >"$UH/interval" && echo start >"$UH/control" || rc=1
"$RUN" -q "$SHARE/build/sort.vprg" || rc=1
echo pause >"$UH/control" || rc=1
cat "$UH/sum" >"$T/sum.vuhs" || rc=1
"$HIST" -m "$T/image.vpmu" "$T/sum.vuhs" >"$T/sum.txt" || rc=1
[ $rc = 0 ] && same "$T/want.txt" "$T/sum.txt"
ok $? "vpmu-hist of uhist/sum is the simulated report"
"$HIST" -m "$T/image.vpmu" --top 5 "$T/sum.vuhs" | sed 's/^/# /'

# 3. The per-CPU files, summed by vpmu-hist, give the same report.
if [ -n "$cpus" ]; then
	rc=0
	for f in $cpus; do
		cat "$f" >"$T/${f##*/}.vuhs" || rc=1
	done
	"$HIST" -m "$T/image.vpmu" "$T"/cpu*.vuhs >"$T/cpus.txt" || rc=1
	[ $rc = 0 ] && same "$T/want.txt" "$T/cpus.txt"
	ok $? "vpmu-hist of every uhist/cpuN is the simulated report"
else
	skip "vpmu-hist of every uhist/cpuN" "no taskset"
fi

# 4. The buckets themselves, past the 64-byte header.
tail -c +65 "$T/want.vuhs" >"$T/want.b"
tail -c +65 "$T/sum.vuhs" >"$T/sum.b"
same "$T/want.b" "$T/sum.b"
ok $? "uhist/sum buckets equal the simulated ones"

echo stop >"$UH/control"
echo "$old" >"$UH/interval"
rm -rf "$T"
tap_done
