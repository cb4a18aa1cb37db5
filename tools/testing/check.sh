#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh (make check) - run every test tier, in order:
#
#   host       make host-check                    -> "host: N passed, N failed"
#   lint       tools/testing/lint.sh              -> "lint: N passed, N failed"
#   selfcheck  tools/testing/vm/selfcheck.sh      -> "harness self-check: ok"
#   vm         tools/testing/vm/vm-check.sh stock -> vm-6.1, vm-6.12, ...;
#              then tools/testing/vm/demo.sh (make demo) -> "demo: N
#              passed, N failed"
#   debug      tools/testing/vm/vm-check.sh debug -> debug-6.1,
#              debug-6.12-fault, debug-6.12, kcsan-6.12, debug-6.1-fault;
#              then tools/testing/vm/kcsan-selfcheck.sh -> "kcsan
#              self-check: ok"
#              (one line per flavour of that set in
#              vm/lib/flavours.sh's VM_FLAVOURS, in its order)
#   pkg        tools/testing/pkg/check-pkg.sh     -> "pkg: N passed, N failed"
#              (make deb, lintian, the packages installed on this machine,
#              DKMS builds for the installed kernel headers, purge)
#
# selfcheck runs beside the vm tier, kcsan-selfcheck beside the debug
# tier, and pkg beside both (bg_start, below: it starts with the vm tier
# and its DKMS builds and guests wait for the vm tier's end), each shown
# whole once the tiers beside it are over; VPMU_OVERLAP=0 runs every tier
# after the one before.
# The summary also repeats the vm tiers' "kernel NAME: VERSION" lines (which
# kernel each run used), each tier's time and, of a tier that failed, the
# first 20 "not ok" and "NAME: FAIL:" lines.
# Each tier's output stays visible.  The last line sums every tier:
# "N passed, N failed".  A tier that ends without its result line counts as
# one failure, as does a failed self-check.  A tier whose script does not
# exist yet (host, lint) is reported as absent.  Exits non-zero on any failure.
#
# VPMU_TIERS="host vm" (for example) runs a subset; default is all six.
# VPMU_ACCT=FILE (root; acct is installed when missing) records every
# process's CPU time into FILE with the kernel's process accounting, and
# the summary lists the commands that took the most (sa): where a run's
# CPU time goes (testing.rst, "Time budget").  Accounting is the
# machine's: other work running meanwhile is counted too.
# Every compile goes through ccache (ccache.sh; VPMU_CCACHE=0: not), and
# the summary says how many of the run's came from the cache.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
# flavour_names: the vm and debug tiers' result lines
# shellcheck source=vm/lib.sh
. "$TOP/tools/testing/vm/lib.sh"
# shellcheck source=ccache.sh
. "$TOP/tools/testing/ccache.sh"
TIERS=${VPMU_TIERS:-host lint selfcheck vm debug pkg}
passed=0
failed=0
notes=()
times=()
kernels=()
failures=()
start_all=$SECONDS
tmp=$(mktemp)
prebuild=
acct=
if [ -n "${VPMU_ACCT:-}" ]; then
	if ! command -v accton >/dev/null && [ "$(id -u)" = 0 ]; then
		# shellcheck source=../pkg/apt.sh
		. "$TOP/tools/pkg/apt.sh"
		apt_retry /dev/null install acct || true
	fi
	if : >"$VPMU_ACCT" && accton "$VPMU_ACCT" >/dev/null; then
		acct=$VPMU_ACCT
	else
		echo "check: VPMU_ACCT: no process accounting (root, accton)" >&2
	fi
fi
# Every tier's compiles through ccache (ccache.sh): a warm run compiles
# only what changed.
ccache_setup "$TOP"
read -r cc_hits0 cc_miss0 < <(ccache_counts)
# On any exit: stop a background debug kernel build that is still going.
# And the tiers still running beside (bg_start), with what they started.
trap '[ -n "$acct" ] && accton off >/dev/null
	[ -n "$prebuild" ] && kill -- "-$prebuild" 2>/dev/null
	for p in "${bg_pid[@]}"; do pkill -TERM -P "$p"; kill "$p"; done 2>/dev/null
	for f in "${bg_out[@]}"; do rm -f "$f" "$f.end"; done
	rm -f "$tmp" "$tmp.vm-over"' EXIT

# The debug kernels are the longest part of a run from a cold cache (about
# four minutes each on two idle cores).  They build in the background, at
# the lowest priority, from the start, on what the tiers leave idle: the
# lint tier's one core, the harness's waits on downloads.  The debug tier
# starts the guests of each as it is built, waits for the others (a lock
# in vm/lib/debug.sh's build_debug_kernel) and reports a failed build itself.
# VPMU_PREBUILD=0 builds them in the debug tier instead.
PREBUILD_LOG=${VPMU_CACHE:-$HOME/.cache/vpmu}/debug-prebuild.log
if [[ " $TIERS " == *" debug "* ]] && [ "${VPMU_PREBUILD:-1}" = 1 ]; then
	mkdir -p "$(dirname "$PREBUILD_LOG")"
	echo "==== debug kernels: building in the background (log: $PREBUILD_LOG)"
	# Its own session is its own autogroup, and the scheduler shares the
	# CPUs between autogroups as their nice values say, not their tasks':
	# without the first echo the build takes half the machine from every
	# tier.
	# shellcheck disable=SC2016 # $0 is the inner shell's
	setsid sh -c 'echo 19 >/proc/self/autogroup 2>/dev/null
		exec nice -n 19 "$0"' "$TOP/tools/testing/vm/build-debug-kernel.sh" \
		>"$PREBUILD_LOG" 2>&1 &
	prebuild=$!
fi

# cpu_ticks - "BUSY TOTAL": the machine's CPU time so far (/proc/stat's
# first line, in ticks), busy being all but idle and iowait.
cpu_ticks() {
	awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i
		print t - $5 - $6, t; exit }' /proc/stat
}

# run_tier TIER CMD... - run CMD with its output shown and kept in $tmp;
# sets TIER_RC.  Its time line says how busy the CPUs were meanwhile
# (every CPU's share, all the machine's processes counted): what is left
# of the machine for the tiers to overlap.
run_tier() {
	local tier=$1 start=$SECONDS b0 t0
	shift

	echo "==== tier $tier: $*"
	read -r b0 t0 < <(cpu_ticks)
	set +e
	"$@" 2>&1 | tee "$tmp"
	TIER_RC=${PIPESTATUS[0]}
	set -e
	tier_end "$tier" "$start" "$b0" "$t0"
}

# tier_end TIER START BUSY0 TOTAL0 [BUSY1 TOTAL1] - the end of a tier
# whose output is in $tmp and exit status in TIER_RC, started at START
# ($SECONDS) with the CPU ticks BUSY0 TOTAL0 and ended now (or with the
# ticks BUSY1 TOTAL1): its time line, its kernels and its failures for
# the summary.
tier_end() {
	local tier=$1 start=$2 b0=$3 t0=$4 b1=${5:-} t1=${6:-} line busy

	if [ -z "$t1" ]; then
		read -r b1 t1 < <(cpu_ticks)
	fi
	busy=$(((b1 - b0) * 100 / (t1 - t0 > 0 ? t1 - t0 : 1)))
	echo "==== tier $tier: exit $TIER_RC, $((SECONDS - start))s, CPUs $busy% busy"
	times+=("$tier $((SECONDS - start))s ($busy%)")
	kernels+=("$(grep -E '^kernel [^ ]+: ' "$tmp" || true)")
	# What failed, by name, for the summary; a tier that passed has none
	# (the self-check's failures are injected).
	[ "$TIER_RC" = 0 ] && return
	while IFS= read -r line; do
		failures+=("$tier: $line")
	done < <(awk -f "$TOP/tools/testing/failures.awk" "$tmp")
}

# The tiers that boot guests and do little else run beside those that
# keep the CPUs busy with guests of their own: selfcheck beside vm,
# kcsan-selfcheck beside debug, pkg beside both: its make deb, lintian
# and installed tools' tests need nothing of the vm tier and take what
# its guests leave idle; its DKMS builds (for the kernels' headers the
# vm tier installs), trixie root and guests wait for the vm tier to end
# (check-pkg.sh's VPMU_PKG_WAIT) and run beside debug.  Each starts in
# the background with its first tier (bg_start), at nice 19, so that its
# builds take only what the guests leave; each guest takes one of the
# machine's slots (lib/guest.sh, run_guest), so no more guests run at
# once than before, and runs at the default priority.  Each one's output
# is kept in a file and shown whole once the tier beside it is over
# (bg_finish), with its own time.  VPMU_OVERLAP=0 runs every tier after
# the one before.
declare -A bg_pid=() bg_out=() bg_start_s=() bg_ticks=() bg_cmd=()

# bg_start TIER CMD... - start TIER in the background.
bg_start() {
	local tier=$1
	shift

	bg_out[$tier]=$(mktemp)
	bg_cmd[$tier]="$*"
	bg_start_s[$tier]=$SECONDS
	bg_ticks[$tier]=$(cpu_ticks)
	# Its end (seconds, CPU ticks) is noted as it ends, not when shown.
	( rc=0
	  nice -n 19 "$@" >"${bg_out[$tier]}" 2>&1 </dev/null || rc=$?
	  echo "$SECONDS $(cpu_ticks)" >"${bg_out[$tier]}.end"
	  exit "$rc" ) &
	bg_pid[$tier]=$!
	echo "==== tier $tier: started, beside the next ones ($*)"
}

# bg_finish TIER - wait for TIER (bg_start) and show it as run_tier would,
# with the time and CPU share from its start to its end.
bg_finish() {
	local tier=$1 b0 t0 end=() out

	out=${bg_out[$tier]}

	echo "==== tier $tier: ${bg_cmd[$tier]} (beside the tiers before)"
	set +e
	wait "${bg_pid[$tier]}"
	TIER_RC=$?
	set -e
	unset "bg_pid[$tier]"
	cp "$out" "$tmp"
	cat "$tmp"
	read -r b0 t0 <<<"${bg_ticks[$tier]}"
	read -ra end <"$out.end" || end=("$SECONDS")
	rm -f "$out" "$out.end"
	tier_end "$tier" "$((bg_start_s[$tier] + SECONDS - end[0]))" "$b0" "$t0" \
		"${end[1]:-}" "${end[2]:-}"
}

# after A B - true if tiers overlap (VPMU_OVERLAP) and $TIERS runs B
# after A.
after() {
	local rest=" $TIERS "

	[ "${VPMU_OVERLAP:-1}" != 0 ] && [[ "$rest" == *" $1 "* ]] || return 1
	rest=" ${rest#* "$1" }"
	[[ "$rest" == *" $2 "* ]]
}

# collect_selfcheck - the harness self-check's verdict.
collect_selfcheck() {
	collect_ok 'harness self-check: ok' \
		"harness self-check: FAILED (the harness missed an injected failure)"
}

# collect NAME... - add each "NAME: N passed, N failed" line of the last
# tier to the totals; a missing line is one failure.
collect() {
	local name line p f any_failed=0

	for name in "$@"; do
		line=$(grep -E "^${name//./\\.}: [0-9]+ passed, [0-9]+ failed$" \
			"$tmp" | tail -n 1) || true
		if [ -z "$line" ]; then
			notes+=("$name: no result line (tier crashed or was cut short)")
			failed=$((failed + 1))
			any_failed=1
			continue
		fi
		p=$(sed -E 's/.*: ([0-9]+) passed.*/\1/' <<<"$line")
		f=$(sed -E 's/.* ([0-9]+) failed$/\1/' <<<"$line")
		passed=$((passed + p))
		failed=$((failed + f))
		[ "$f" -gt 0 ] && any_failed=1
		notes+=("$line")
	done
	if [ "$TIER_RC" != 0 ] && [ "$any_failed" = 0 ]; then
		notes+=("$*: exit status $TIER_RC with no failure counted")
		failed=$((failed + 1))
	fi
}

# collect_ok LINE FAILED - a self-check tier: LINE among the last tier's
# output and exit 0 note LINE; anything else notes FAILED, one failure.
collect_ok() {
	if [ "$TIER_RC" = 0 ] && grep -qxF "$1" "$tmp"; then
		notes+=("$1")
	else
		notes+=("$2")
		failed=$((failed + 1))
	fi
}

for tier in $TIERS; do
	case "$tier" in
	host)
		if [ -f "$TOP/tools/testing/host/Makefile" ]; then
			run_tier host make --no-print-directory -C "$TOP" host-check
			collect host
		else
			echo "==== tier host: absent (no tools/testing/host/Makefile yet)"
			notes+=("host: absent")
		fi ;;
	lint)
		if [ -f "$TOP/tools/testing/lint.sh" ]; then
			run_tier lint bash "$TOP/tools/testing/lint.sh"
			collect lint
		else
			echo "==== tier lint: absent (no tools/testing/lint.sh)"
			notes+=("lint: absent")
		fi ;;
	selfcheck)
		if after selfcheck vm; then
			echo "==== tier selfcheck: beside the vm tier"
			continue
		fi
		run_tier selfcheck "$TOP/tools/testing/vm/selfcheck.sh"
		collect_selfcheck ;;
	vm)
		if after selfcheck vm; then
			bg_start selfcheck "$TOP/tools/testing/vm/selfcheck.sh"
		fi
		if after vm pkg; then
			bg_start pkg env VPMU_PKG_WAIT="$tmp.vm-over" \
				"$TOP/tools/testing/pkg/check-pkg.sh"
		fi
		run_tier vm "$TOP/tools/testing/vm/vm-check.sh" stock
		# The headers are installed, the trixie root made: pkg's
		# steps 4-6 may go on.
		: >"$tmp.vm-over"
		# After the tier: the newest kernel's line is named by the
		# version it found (vm-7.3).
		mapfile -t names < <(flavour_names stock)
		collect "${names[@]}"
		if [ -n "${bg_pid[selfcheck]:-}" ]; then
			bg_finish selfcheck
			collect_selfcheck
		fi
		# make demo, on the kernel and module the tier just used:
		# its checks of the numbers it shows are tests too.
		run_tier demo "$TOP/tools/testing/vm/demo.sh"
		collect demo ;;
	debug)
		if [ -n "$prebuild" ]; then
			# No longer in the background: the build goes on at
			# the tier's priority while the guests of the kernels
			# already built run (vm-check.sh boots each kernel's
			# guests when it is ready; build_debug_kernel's lock
			# makes its preparation wait for the one building).
			renice -n "$(nice)" -g "$prebuild" >/dev/null 2>&1 || true
			echo 0 >"/proc/$prebuild/autogroup" 2>/dev/null || true
		fi
		if [ "${VPMU_OVERLAP:-1}" != 0 ]; then
			bg_start kcsan-selfcheck "$TOP/tools/testing/vm/kcsan-selfcheck.sh"
		fi
		if after debug pkg && [ -z "${bg_pid[pkg]:-}" ]; then
			bg_start pkg "$TOP/tools/testing/pkg/check-pkg.sh"
		fi
		run_tier debug "$TOP/tools/testing/vm/vm-check.sh" debug
		if [ -n "$prebuild" ]; then
			wait "$prebuild" || true
			prebuild=
			echo "==== debug kernels: the background build's log:"
			sed 's/^/  | /' "$PREBUILD_LOG"
		fi
		mapfile -t names < <(flavour_names debug)
		collect "${names[@]}"
		# The KCSAN kernel is live and a race in vpmu fails a run.
		if [ -n "${bg_pid[kcsan-selfcheck]:-}" ]; then
			bg_finish kcsan-selfcheck
		else
			run_tier kcsan-selfcheck "$TOP/tools/testing/vm/kcsan-selfcheck.sh"
		fi
		collect_ok 'kcsan self-check: ok' \
			"kcsan self-check: FAILED (a race in vpmu went unnoticed)" ;;
	pkg)
		if [ -n "${bg_pid[pkg]:-}" ]; then
			bg_finish pkg
		else
			run_tier pkg "$TOP/tools/testing/pkg/check-pkg.sh"
		fi
		collect pkg ;;
	*)
		echo "check: unknown tier $tier (host lint selfcheck vm debug pkg)" >&2
		exit 2 ;;
	esac
done

echo "==== summary"
for n in "${notes[@]}"; do
	echo "  $n"
done
for n in "${kernels[@]}"; do
	if [ -n "$n" ]; then
		printf '%s\n' "$n" | sed 's/^/  /'
	fi
done
echo "  time: ${times[*]}, total $((SECONDS - start_all))s"
read -r cc_hits cc_miss < <(ccache_counts)
if [ "$((cc_hits + cc_miss))" != "$((cc_hits0 + cc_miss0))" ]; then
	echo "  ccache: $((cc_hits - cc_hits0)) compiles from the cache," \
		"$((cc_miss - cc_miss0)) compiled${CCACHE_DIR:+ ($CCACHE_DIR)}"
fi
if [ -n "$acct" ]; then
	accton off >/dev/null
	echo "  CPU by command (sa -a $acct; minutes: real, CPU):"
	# sed, not head: it reads to the end, so sa never takes a SIGPIPE
	# that pipefail and set -e would make the run's exit status.
	sa -a "$acct" | sed -n '1,16s/^/   /p'
	acct=
fi
if [ ${#failures[@]} -gt 0 ]; then
	echo "  failures (at most 20 a tier):"
	printf '    %s\n' "${failures[@]}"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
