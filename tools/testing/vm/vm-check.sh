#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-check.sh stock|debug|KERNEL... - run the selftests in QEMU.
#
#   stock   the stock set of lib/flavours.sh's VM_FLAVOURS, in its order:
#           the newest Debian bookworm 6.1, 6.12 and 6.12 PREEMPT_RT
#           kernels (vm-6.1, vm-6.12, vm-6.12-rt) and the newest 7.x of
#           trixie-backports (vm-7.N, module built in a trixie build
#           root), all booted with slub_debug=FZPU; and on the same
#           kernels, the suite on 6.12 with the translation cache off
#           (vm-6.12-notc: the tests whose outcome depends on how
#           programs run), a few tests again on 6.12 under
#           multi-threaded TCG (vm-6.12-mttcg) and on 6.1 with 64
#           possible CPUs (vm-6.1-cpus64)
#   debug   its debug set: linux-source-6.1 and linux-source-6.12 built
#           with KASAN, lockdep, kmemleak, UBSAN and fault injection: the
#           fault tier alone on each (debug-6.12-fault, debug-6.1-fault),
#           every other test on each (debug-6.1, debug-6.12); and the
#           KCSAN kernel's (kcsan-6.12)
#   KERNEL  any flavour of VM_FLAVOURS, e.g. "6.12 debug-6.12"
#
# Every kernel is fetched or built and its module built, one at a time,
# in the background; the guests boot VPMU_VM_JOBS at a time (default 2:
# TCG runs each guest on one host thread), each as soon as its kernel is
# ready, of those ready the one whose guest ran longest last time first
# ($VPMU_CACHE/vm-times; a free slot waits up to VPMU_VM_HOLD seconds
# for a longer one still being prepared).  Each kernel's output is
# printed whole, in the order above, ending with "NAME: N passed, N
# failed"; then one "kernel NAME: VERSION" line per run.  The exit status
# is non-zero if any kernel failed.  See Documentation/vpmu/testing.rst.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$(dirname "$0")/lib.sh"

case "${1:-}" in
stock|debug) mapfile -t kernels < <(flavours "$1") ;;
"")	echo "usage: $0 stock|debug|KERNEL..." >&2; exit 2 ;;
*)	kernels=("$@") ;;
esac

ensure_host_deps
build_userspace
rc=0
names=()
# The names these kernels' last runs found (a 7.x kernel's).  The
# preparations' marks are this check's own: two checks may run at once
# (the pkg tier's boots, each its own kernel and run name).
mkdir -p "$VM_OUT"
for k in "${kernels[@]}"; do
	rm -f "$VM_OUT/$k.name"
done
marks=$(mktemp -d "$VM_OUT/.marks.XXXXXX")
# The kernels are prepared one at a time, in the background, each marked
# (prepared.I, holding its run's name: 7.x is named by the version its
# preparation found) when done, so that a kernel's guests boot as soon
# as it exists while the next is fetched or built.
(
	for i in "${!kernels[@]}"; do
		rm -f "$VM_OUT/$(flavour_name "${kernels[i]}")/kernel"
		# A failure here shows up again, with its result line, in
		# the run.
		"$VM_DIR/run-kernel.sh" --prepare "${kernels[i]}" || true
		flavour_name "${kernels[i]}" >"$marks/prepared.$i.tmp"
		mv "$marks/prepared.$i.tmp" "$marks/prepared.$i"
	done
) &
preparing=$!
trap 'kill "$preparing" 2>/dev/null; rm -rf "$marks"' EXIT

jobs=${VPMU_VM_JOBS:-2}
n=${#kernels[@]}
shown=0
started=()
# How long each flavour's last guest ran (run_guest's guest-seconds, not
# its wait for a guest slot; a file a flavour under $CACHE/vm-times,
# every work tree's): of the kernels ready, the one whose guest ran
# longest starts first, so that the longest runs do not end the tier
# alone.  A flavour never run counts 0; ties go in order.
TIMES=$CACHE/vm-times
mkdir -p "$TIMES"
# Read once: this check writes only those of runs it has started.
last=()
for i in "${!kernels[@]}"; do
	last[i]=$(cat "$TIMES/${kernels[i]}" 2>/dev/null) || true
	last[i]=${last[i]:-0}
done

# next_run - set NEXT to the index of the run to start next, or to
# nothing: of those prepared and not started, the longest last time.
# While a longer one is still being prepared, and a run is going, the
# slot is kept for it (the order the kernels are prepared in is the
# table's, for a cold cache, where they come one by one; warm, the
# longest would otherwise start second, after the first prepared: the
# debug set's 931 s debug-6.12 after debug-6.12-fault): at most
# VPMU_VM_HOLD seconds (default 45; a warm preparation takes a few,
# a kernel still building minutes), and a guest of another tier
# (selfcheck, pkg) may take the machine's slot meanwhile.
hold_since=
next_run() {
	local i t best="" bt=-1 lt=-1

	NEXT=
	for ((i = 0; i < n; i++)); do
		[ -z "${started[i]:-}" ] || continue
		t=${last[i]}
		[ "$t" -le "$lt" ] || lt=$t
		[ -f "$marks/prepared.$i" ] || continue
		if [ "$t" -gt "$bt" ]; then
			best=$i
			bt=$t
		fi
	done
	[ -n "$best" ] || return 0
	if [ "$bt" -lt "$lt" ] && [ "$running" -gt 0 ]; then
		hold_since=${hold_since:-$SECONDS}
		[ $((SECONDS - hold_since)) -ge "${VPMU_VM_HOLD:-45}" ] ||
			return 0
	fi
	hold_since=
	NEXT=$best
}

# Start runs, of prepared kernels, while fewer than $jobs are unfinished;
# print finished ones in order.  A run's rc file appears when it is over.
while [ "$shown" -lt "$n" ]; do
	running=0
	for ((i = 0; i < n; i++)); do
		[ -n "${started[i]:-}" ] && [ ! -f "$VM_OUT/${names[i]}.rc" ] &&
			running=$((running + 1))
	done
	while [ "$running" -lt "$jobs" ]; do
		next_run
		[ -n "$NEXT" ] || break
		i=$NEXT
		started[i]=1
		names[i]=$(cat "$marks/prepared.$i")
		mkdir -p "$VM_OUT"
		rm -f "$VM_OUT/${names[i]}.rc"
		log "starting ${names[i]}"
		( r=0 secs=$VM_OUT/${names[i]}/guest-seconds
		  rm -f "$secs"
		  check_kernel "${kernels[i]}" >"$VM_OUT/${names[i]}.txt" 2>&1 || r=1
		  # Not a pkg tier's run under another name: its suite differs.
		  if [ -z "${VPMU_RUN_NAME:-}" ] && [ -s "$secs" ]; then
			cp "$secs" "$TIMES/${kernels[i]}.$BASHPID"
			mv "$TIMES/${kernels[i]}.$BASHPID" "$TIMES/${kernels[i]}"
		  fi
		  echo "$r" >"$VM_OUT/${names[i]}.rc" ) &
		running=$((running + 1))
	done
	while [ "$shown" -lt "$n" ] && [ -n "${started[shown]:-}" ] &&
	      [ -f "$VM_OUT/${names[shown]}.rc" ]; do
		cat "$VM_OUT/${names[shown]}.txt"
		[ "$(cat "$VM_OUT/${names[shown]}.rc")" = 0 ] || rc=1
		shown=$((shown + 1))
	done
	if [ "$shown" -lt "$n" ]; then
		sleep 2
	fi
done
wait
trap - EXIT
rm -rf "$marks"
for name in "${names[@]}"; do
	echo "kernel $name: $(cat "$VM_OUT/$name/kernel" 2>/dev/null || echo unknown)"
done
exit $rc
