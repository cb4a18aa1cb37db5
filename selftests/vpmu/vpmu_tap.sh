# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# vpmu_tap.sh - the TAP helpers of the vpmu selftests written in sh (the C
# ones have vpmu_test.h).  Sourced (busybox sh); installed beside the
# test scripts (TEST_FILES: the runners do not run it).
#
#   tap_plan N          the TAP header and the plan
#   skip_all REASON     a plan of no cases, skipped: exit 4
#   ok STATUS NAME...   one case, passed if STATUS is 0 (NAME's words
#                       joined by spaces: a long name on two lines)
#   skip NAME [REASON]  one case, skipped
#   tap_done            the script's status: 1 if a case failed, 4
#                       (KSFT_SKIP) if every case skipped, else 0
#
# and for the tests of the perf tool, perf stat -x output in $OUT:
#
#   stat ARGS...        perf stat -x$SEP ARGS into $OUT (output dropped)
#   counted EVENT       EVENT's count in the last stat ("" if none)
#   check "EVENT=COUNT"...
#                       every EVENT counted COUNT in the last stat; the
#                       differences and the stat as TAP comments
#
# SEP is "," unless the script sets another (event names with several
# terms hold commas).
#
#   perf_lists PMU NAME...
#                       every PMU/NAME/ in one perf list (it takes seconds
#                       on the debug kernels); each missing one as a TAP
#                       comment
#
# and for the tests of perf record:
#
#   perf_record ARGS... perf record -q ARGS, without the BPF events perf
#                       record synthesizes (none is vpmu's: reading the
#                       kernel's BTF for them costs most of a second in
#                       the test VMs, more on the debug kernels)
#   perf_fields DATA FIELDS
#                       perf script -F FIELDS of the samples in file DATA,
#                       without the kernel's symbols (fields that name
#                       none: ip, period; reading /proc/kallsyms costs a
#                       second in the test VMs)
#
# and for the tests that reload the module:
#
#   vpmu_loadable       is there a module file to load: $VPMU_KO, or
#                       else one modprobe finds
#   vpmu_insmod PARAM...
#                       insmod $VPMU_KO, or else modprobe vpmu

n=0
fails=0
skips=0
SEP=,

tap_plan() {
	echo "TAP version 13"
	echo "1..$1"
}

skip_all() {
	echo "1..0 # SKIP $1"
	exit 4
}

ok() {
	n=$((n + 1))
	[ "$1" = 0 ] || { fails=$((fails + 1)); printf 'not '; }
	shift
	echo "ok $n $*"
}

skip() {
	n=$((n + 1))
	skips=$((skips + 1))
	echo "ok $n $1 # SKIP${2:+ $2}"
}

tap_done() {
	[ "$fails" = 0 ] || return 1
	if [ "$n" -gt 0 ] && [ "$skips" = "$n" ]; then
		return 4
	fi
	return 0
}

stat() {
	perf stat -x"$SEP" -o "$OUT" "$@" >/dev/null 2>&1
}

counted() {
	awk -F"$SEP" -v ev="$1" '$3 == ev { print $1 }' "$OUT"
}

perf_lists() {
	list=$(perf list 2>/dev/null) pmu=$1 missing=0
	shift
	for name in "$@"; do
		case $list in
		*"$pmu/$name/"*) ;;
		*) echo "# no $pmu/$name/"; missing=1 ;;
		esac
	done
	return $missing
}

perf_record() {
	perf record -q --no-bpf-event "$@"
}

perf_fields() {
	perf script -i "$1" --kallsyms=/dev/null -F "$2"
}

# (one awk for all the pairs, one a line in its environment: a process
# costs tens of milliseconds on the debug kernels, and a check may have a
# dozen pairs; an event's count is what counted() gives)
check() {
	diffs=$(VPMU_PAIRS=$(printf '%s\n' "$@") awk -F"$SEP" '
		$3 in got { got[$3] = got[$3] "\n" $1; next }
		{ got[$3] = $1 }
		END {
			n = split(ENVIRON["VPMU_PAIRS"], p, "\n")
			for (i = 1; i <= n; i++) {
				want = p[i]
				sub(/.*=/, "", want)
				ev = p[i]
				sub(/=[^=]*$/, "", ev)
				if (got[ev] != want)
					printf "# %s: got \047%s\047, expected %s\n",
					       ev, got[ev], want
			}
		}' "$OUT") || diffs="# cannot read $OUT"
	[ -z "$diffs" ] && return 0
	echo "$diffs"
	sed 's/^/# /' "$OUT"
	return 1
}

vpmu_loadable() {
	if [ -n "${VPMU_KO:-}" ]; then
		[ -f "$VPMU_KO" ]
	else
		modinfo -n vpmu 2>/dev/null | grep -q '^/'
	fi
}

vpmu_insmod() {
	if [ -n "${VPMU_KO:-}" ]; then
		insmod "$VPMU_KO" "$@"
	else
		modprobe vpmu "$@"
	fi
}
