#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# feature-bench-guest.sh - the guest half of make feature-bench (busybox
# sh; installed as a "selftest" by lib.sh and selected with
# vpmu_test=feature-bench-guest).  Every run is pinned to CPU 0.
#
# Freeze/trigger counting, on region.vprg (share/progs/region.s): a
# region of 100 microwords from one mark to the next, repeated 100,000
# times, and the same region run alone (entry at "region", budget 100):
#
#   a  uncounted   one run of region.vprg, no event
#   b  triggers    the same run under a vpmu_uops event with trig_mark=1,
#                  frozen=1: it counts only the regions
#   f  uncounted   a again, right after b: two runs of one configuration
#      again       in the same round differ only by the VM's noise
#   e  count all   the same run under vpmu_uops without a trigger (to
#                  tell the cost of counting from that of triggers)
#   c  ioctl       100,000 runs of the region alone, each between
#                  PERF_EVENT_IOC_ENABLE and _DISABLE of a vpmu_uops event
#                  without a trigger
#   d  runs        the same 100,000 runs without an event or ioctl
#
# b and c must each count exactly 100,000 x 100 microwords, e every
# microword of the run, and every run must use the cycles region.expect
# (or the region's 100) says, else the benchmark fails.  Times are
# trigger-bench's own (the runs and ioctls, not start-up).  Ratios: b/a
# (what counting with triggers costs: the target is nothing), b/e (the
# triggers alone), c/b, d/b, c/d (the ioctls' cost alone).
#
# Whether b costs anything measurable: b/a and f/a are also taken run by
# run (each over the a just before it), and between the fastest runs of
# each case (timing noise only adds time).  f/a, two identical
# configurations, shows what the VM's noise alone does to those figures.
#
# The micro-PC histogram: sortloop.vprg for the budget (default 20M
# cycles) with uhist off and started at interval K = 1, 32, 1024; the
# time vpmu-run measures itself, as a ratio to off.  Every sampled run
# must leave exactly floor(budget / K) samples in uhist/cpu0.
#
# Each configuration runs ROUNDS times (a, b and f three times as often),
# all of them alternated; the table (between VPMU-BENCH begin and end)
# has the medians.  With vpmu_bench_part=triggers on the command line
# only a, b and f run (feature-bench.sh's other code placements).  Either
# way the table ends its trigger part with a "layout" line: b/a's median,
# paired median and fastest-run ratio, then f/a's paired median and
# fastest-run ratio.  Not a test: exit 0 unless a tool or a count fails.

# shellcheck source=bench-guest-lib.sh
. "$(dirname "$0")/bench-guest-lib.sh"
TB=$(dirname "$0")/trigger-bench
EXPECT=/opt/vpmu/share/progs/region.expect
UH=$PMU/uhist
rounds=9
reps=100000		# region.s's REPS
region=100		# microwords from a mark to the next
entry=8			# address of region.s's "region"
times=/tmp/feature-bench.times
out=/tmp/feature-bench.out
image=/tmp/feature-bench.vpmu

bench_init feature-bench 20000000 "$B/vpmu-run" "$B/vpmu-hist" "$TB" \
	"$S/region.vprg" "$S/sortloop.vprg" "$EXPECT"
[ -c /dev/vpmu ] || fail "no /dev/vpmu"
[ -e "$PMU/format/trig_mark" ] ||
	fail "no $PMU/format/trig_mark: this module has no triggers"
[ -w "$UH/control" ] || fail "no $UH/control: this module has no uhist"
command -v taskset >/dev/null 2>&1 || fail "no taskset"
cpu0() { taskset -c 0 "$@"; }

# The workload must be what the table says it is.
cpu0 "$B/vpmu-run" -q -e "$EXPECT" "$S/region.vprg" ||
	fail "region.vprg does not run as region.expect says"
full=$(sed -n 's/^event cycles //p' "$EXPECT")
uops=$(sed -n 's/^event uops //p' "$EXPECT")
total=$((reps * region))
cat "$PMU/ucode/image" >"$image" || fail "cannot read ucode/image"

# tb CASE - trigger-bench's time for case a, b, c, d or e into $times and
# its count into $out.CASE (it checks every run's cycles and the count)
tb() {
	t=$1
	case $t in
	a | f) set -- -C "$full" plain ;;
	b) set -- -C "$full" -c "$total" trigger ;;
	e) set -- -C "$full" -c "$uops" count ;;
	c) set -- -n "$reps" -e "$entry" -b "$region" -C "$region" \
		-c "$total" ioctl ;;
	d) set -- -n "$reps" -e "$entry" -b "$region" -C "$region" plain ;;
	esac
	cpu0 "$TB" "$@" "$S/region.vprg" >"$out" 2>&1 ||
		fail "trigger-bench $* failed: $(tail -n 1 "$out")"
	sed -n 's/^count //p' "$out" >"$out.$t"
	echo "$t $(sed -n 's/^time //p' "$out")" >>"$times"
}

# uh K - vpmu-run's time on sortloop.vprg with uhist off (K = 0) or
# started at interval K into $times; checks the samples in cpu0
uh() {
	if [ "$1" = 0 ]; then
		echo stop >"$UH/control" || fail "uhist stop failed"
	else
		{ echo "$1" >"$UH/interval" && echo start >"$UH/control"; } ||
			fail "uhist start at $1 failed"
	fi
	s=$(run_secs "$out" cpu0 "$B/vpmu-run" -t -b "$budget" \
		"$S/sortloop.vprg") || exit 1
	if [ "$1" != 0 ]; then
		"$B/vpmu-hist" -m "$image" -n 1 "$UH/cpu0" >"$out.hist" 2>&1 ||
			{ cat "$out.hist" >&2; fail "vpmu-hist of cpu0 failed"; }
		n=$(sed -n 's/^interval [0-9]*, \([0-9]*\) samples.*/\1/p' \
			"$out.hist")
		[ "$n" = $((budget / $1)) ] || { cat "$out.hist" >&2
			fail "K=$1: $n samples, not $((budget / $1))"; }
		echo stop >"$UH/control" || fail "uhist stop failed"
	fi
	echo "u$1 $s" >>"$times"
}

# a, b and f are short: three of each (alternated) in every round
configs="a b f a b f a b f e c d 0 1 32 1024"
[ "$bench_part" = triggers ] && configs="a b f a b f a b f"
echo "VPMU-BENCH begin"
echo "kernel $(uname -r), $(grep -c ^processor /proc/cpuinfo) CPUs (TCG), runs pinned to CPU 0, $rounds rounds alternated"
round=0
: >"$times"
while [ $round -lt $rounds ]; do
	for c in $configs; do
		case $c in
		[a-f]) tb "$c" ;;
		*) uh "$c" ;;
		esac
	done
	round=$((round + 1))
done

m() { median "$times" "$1"; }
# pairs X Y - the median, least and greatest of each X run's time over
# that of the Y run in its turn (the nth X over the nth Y)
pairs() {
	awk -v x="$1" -v y="$2" '
		$1 == x { X[++nx] = $2 }
		$1 == y { Y[++ny] = $2 }
		END {
			for (i = 1; i <= nx; i++) {
				v = X[i] / Y[i]
				for (j = i; j > 1 && r[j - 1] > v; j--)
					r[j] = r[j - 1]
				r[j] = v
			}
			printf "%.4f %.4f %.4f\n", r[int((nx + 1) / 2)], r[1], r[nx]
		}' "$times"
}
# row LABEL KEY [EXTRA...] - LABEL, then the median, min and max of KEY's
# times, then EXTRA
row() {
	l=$1 k=$2
	shift 2
	sed -n "s/^$k //p" "$times" | sort -n | awk -v l="$l" -v x="$*" '
		{ v[NR] = $1 }
		END { printf "%-32s %10.3f %7.3f %7.3f", l,
			v[int((NR + 1) / 2)], v[1], v[NR]
			print (x == "" ? "" : " " x) }'
}
echo "triggers: region.vprg, a $region-microword region (mark to mark), $reps times"
printf '%-32s %10s %7s %7s\n' case "median (s)" min max
row "a uncounted, 1 run" a
row "b trig_mark=1,frozen=1, 1 run" b
row "f uncounted again, 1 run" f
if [ "$bench_part" = all ]; then
	row "e counting all, 1 run" e
	row "c ENABLE/run/DISABLE x $reps" c
	row "d run x $reps" d
	echo "counts: b $(cat "$out.b"), c $(cat "$out.c") (each exactly $reps x $region), e $(cat "$out.e") (all)"
	printf '%-6s %8s  %s\n' ratio median meaning
	awk -v a="$(m a)" -v b="$(m b)" -v c="$(m c)" -v d="$(m d)" \
		-v e="$(m e)" 'BEGIN {
	printf "%-6s %8.3f  %s\n", "b/a", b / a, "triggers vs uncounted (target: 1.00)"
	printf "%-6s %8.3f  %s\n", "b/e", b / e, "triggers vs counting all"
	printf "%-6s %8.3f  %s\n", "c/b", c / b, "ioctl-bracketed runs vs triggers"
	printf "%-6s %8.3f  %s\n", "d/b", d / b, "bare single-region runs vs triggers"
	printf "%-6s %8.3f  %s\n", "c/d", c / d, "ioctl-bracketed vs bare runs"
}'
else
	echo "counts: b $(cat "$out.b") (exactly $reps x $region)"
fi
pb=$(pairs b a)
pf=$(pairs f a)
echo "paired (each run over the a just before it): median, least, greatest"
echo "b/a $pb  triggers vs uncounted"
echo "f/a $pf  uncounted vs uncounted: the noise"
least() { sed -n "s/^$1 //p" "$times" | sort -n | head -n 1; }
awk -v a="$(least a)" -v b="$(least b)" -v f="$(least f)" \
	-v bm="$(m b)" -v am="$(m a)" -v pb="$pb" -v pf="$pf" 'BEGIN {
	printf "fastest runs: b/a %.4f, f/a %.4f\n", b / a, f / a
	split(pb, B, " ")
	split(pf, F, " ")
	printf "layout %.4f %.4f %.4f %.4f %.4f\n", bm / am, B[1], b / a,
		F[1], f / a
}'
if [ "$bench_part" = triggers ]; then
	rm -f "$times" "$out" "$out".* "$image"
	echo "VPMU-BENCH end"
	exit 0
fi
echo "uhist: sortloop.vprg, budget $budget cycles per run"
printf '%-32s %10s %7s %7s %7s %9s\n' config "median (s)" min max ratio samples
base=$(m u0)
for k in 0 1 32 1024; do
	if [ $k = 0 ]; then name=off n=0; else name="K=$k" n=$((budget / k)); fi
	row "$name" "u$k" "$(awk -v m="$(m "u$k")" -v b="$base" -v n="$n" \
		'BEGIN { printf "%7.3f %9d", m / b, n }')"
done
rm -f "$times" "$out" "$out".* "$image"
echo "VPMU-BENCH end"
