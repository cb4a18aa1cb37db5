#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-tests.sh - in-guest test runner (busybox sh).
#
# Loads vpmu.ko (with an installation's files, /opt/vpmu/installed: modprobe
# vpmu) and any helper modules in /opt/vpmu/extra (with vpmu built into
# the kernel, checks that its PMU is there instead), runs every
# program of /opt/vpmu/kselftest/kselftest-list.txt (the kselftest install:
# vpmu/ beside run_kselftest.sh; /opt/vpmu/selftests is vpmu/) in name
# order, tallies TAP test cases
# ("ok N" / "not ok N", "# SKIP" counted apart; a program printing no TAP
# counts as one case by exit status: 0 pass, 4 skip, else fail; one whose
# cases all skipped must exit 4, KSFT_SKIP), prints
#   VPMU-TEST <name>: PASS|FAIL|SKIP (pass=P fail=F skip=S)
#   VPMU-TIME <name> <seconds>s <forks> forks
# per program (the second its wall time and the processes it made, for
# make check's timings: a process costs tens of milliseconds on the debug
# kernels) and the
# marker
#   VPMU-RESULT passed=N failed=M skipped=K
# then, on a kmemleak kernel, scans for leaks and prints the report.
#
# Kernel command line knobs: vpmu_test=NAME[,NAME...] (run only programs
# whose name contains one of the NAMEs), vpmu_skip=NAME[,NAME...] (and
# none whose name contains one of these), vpmu_test_timeout=SECONDS (per
# program, default 300), vpmu_params=P[+P...] (module parameters for
# every load of vpmu.ko, this one's and the tests' own: VPMU_PARAMS),
# vpmu_kselftest=1 (run each program through kselftest's
# run_kselftest.sh -t vpmu:NAME, and count the cases of its output,
# unprefixed).
# Option --no-load skips module loading (for use from the shell).

KSFT=/opt/vpmu/kselftest
SELFTESTS=$KSFT/vpmu
KMEMLEAK=/sys/kernel/debug/kmemleak
filter=
skip=
tmo=300
load=1
kselftest=
read -r cmdline </proc/cmdline
for arg in $cmdline; do
	case "$arg" in
	vpmu_test=*) filter=${arg#vpmu_test=} ;;
	vpmu_skip=*) skip=${arg#vpmu_skip=} ;;
	vpmu_test_timeout=*) tmo=${arg#vpmu_test_timeout=} ;;
	vpmu_params=*) VPMU_PARAMS=$(echo "${arg#vpmu_params=}" | tr + ' ') ;;
	vpmu_kselftest=1) kselftest=1 ;;
	esac
done
export VPMU_PARAMS
[ "$1" = --no-load ] && load=

passed=0
failed=0
skipped=0

echo "VPMU-BEGIN kernel $(uname -r)"

# Leaks that exist before the module loads are not ours: scan once and
# mark them reported so the final report only shows new ones.  Then no
# scans but the two at the end: kmemleak's thread scans a minute after
# boot and every ten minutes, each scan 5 s or more of the guest's one
# host CPU (5.4 s at 30 s of uptime on debug-6.12), and what it would
# report the final scans report.
if [ -w "$KMEMLEAK" ]; then
	echo scan >"$KMEMLEAK"
	echo clear >"$KMEMLEAK"
	echo scan=off >"$KMEMLEAK"
fi

# load_vpmu PARAM... - the harness's vpmu.ko, or with an installation's
# files (/opt/vpmu/installed) the module modprobe finds.
load_vpmu() {
	if [ -f /opt/vpmu/installed ]; then
		modprobe vpmu "$@"
	else
		insmod /opt/vpmu/vpmu.ko "$@"
	fi
}

if [ -n "$load" ] && [ -d /sys/module/vpmu ] &&
   [ ! -e /sys/module/vpmu/initstate ]; then
	# Built in (CONFIG_PERF_VPMU=y): only loadable modules have initstate.
	if [ -d /sys/bus/event_source/devices/vpmu ]; then
		echo "VPMU-TEST vpmu-built-in: PASS"
		passed=$((passed + 1))
	else
		echo "VPMU-TEST vpmu-built-in: FAIL (no PMU registered)"
		failed=$((failed + 1))
	fi
elif [ -n "$load" ]; then
	# shellcheck disable=SC2086 # the parameters, one word each
	if load_vpmu ${VPMU_PARAMS:-}; then
		echo "VPMU-TEST insmod-vpmu: PASS"
		passed=$((passed + 1))
		# The run is with the cache off only if the module says so.
		case " ${VPMU_PARAMS:-} " in
		*" tc=0 "*)
			if [ "$(cat /sys/module/vpmu/parameters/tc)" = N ]; then
				echo "VPMU-TEST vpmu-tc-off: PASS"
				passed=$((passed + 1))
			else
				echo "VPMU-TEST vpmu-tc-off: FAIL"
				failed=$((failed + 1))
			fi ;;
		esac
	else
		echo "VPMU-TEST insmod-vpmu: FAIL"
		failed=$((failed + 1))
	fi
fi
if [ -n "$load" ]; then
	for ko in /opt/vpmu/extra/*.ko; do
		[ -f "$ko" ] || continue
		echo "loading helper module $ko"
		insmod "$ko" || echo "helper module $ko failed to load"
	done
fi

# name_in NAME LIST - does NAME contain one of LIST's comma-separated
# words?
name_in() {
	old_ifs=$IFS
	IFS=,
	for word in $2; do
		case "$1" in
		*"$word"*) IFS=$old_ifs; return 0 ;;
		esac
	done
	IFS=$old_ifs
	return 1
}

# tally OUTFILE RC NAME - add one program's TAP cases to the totals.
tally() {
	p=0; f=0; s=0
	while IFS= read -r line; do
		case "$line" in
		"not ok "[0-9]*)
			case "$line" in
			*"# SKIP"*|*"# skip"*) s=$((s + 1)) ;;
			*) f=$((f + 1)) ;;
			esac ;;
		"ok "[0-9]*)
			case "$line" in
			*"# SKIP"*|*"# skip"*) s=$((s + 1)) ;;
			*) p=$((p + 1)) ;;
			esac ;;
		esac
	done <"$1"
	if [ $((p + f + s)) -eq 0 ]; then
		case "$2" in
		0) p=1 ;;
		4) s=1 ;;
		*) f=1 ;;
		esac
	elif [ "$2" != 0 ] && [ "$2" != 4 ] && [ "$f" -eq 0 ]; then
		# Printed only passes yet exited with an error: crashed or
		# timed out part-way; that is a failure of its own.
		echo "# $3: exit status $2 after $((p + s)) cases"
		f=1
	elif [ "$p" -eq 0 ] && [ "$f" -eq 0 ] && [ "$2" != 4 ]; then
		# kselftest's runners report a program by its exit status.
		echo "# $3: every case skipped, but exit status $2, not 4 (KSFT_SKIP)"
		f=1
	fi
	if [ "$f" -gt 0 ]; then verdict=FAIL
	elif [ "$p" -gt 0 ]; then verdict=PASS
	else verdict=SKIP; fi
	echo "VPMU-TEST $3: $verdict (pass=$p fail=$f skip=$s)"
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
}

# forks - the processes made since boot into nforks (/proc/stat; read
# without making one)
forks() {
	while read -r key nforks _; do
		[ "$key" = processes ] && return
	done </proc/stat
}

# ksft_unwrap NAME - run_kselftest.sh's output for NAME on stdin: the
# program's own lines, unprefixed, on stdout, and the runner's result line
# as a "# kselftest: " comment (which no tally counts); the program's exit
# status, as that line gives it, into /tmp/rc.
ksft_unwrap() {
	rc=1
	while IFS= read -r line; do
		case "$line" in
		"ok 1 selftests: vpmu: $1"*|"not ok 1 selftests: vpmu: $1"*)
			echo "# kselftest: $line" ;;
		esac
		case "$line" in
		"TAP version 13"|"1..1"|"# timeout set to "*|\
		"# overriding timeout to "*|"# selftests: vpmu: $1") ;;
		"ok 1 selftests: vpmu: $1") rc=0 ;;
		"ok 1 selftests: vpmu: $1 # SKIP") rc=4 ;;
		"not ok 1 selftests: vpmu: $1 # exit="*) rc=${line##*# exit=} ;;
		"not ok 1 selftests: vpmu: $1 # TIMEOUT"*) rc=124 ;;
		"not ok 1 selftests: vpmu: $1"*) rc=1 ;;
		"# "*) printf '%s\n' "${line#\# }" ;;
		"#") echo ;;
		*) printf '%s\n' "$line" ;;
		esac
	done
	echo "$rc" >/tmp/rc
}

for name in $(sed -n 's/^vpmu://p' "$KSFT/kselftest-list.txt" | sort); do
	t=$SELFTESTS/$name
	if { [ -n "$filter" ] && ! name_in "$name" "$filter"; } ||
	   { [ -n "$skip" ] && name_in "$name" "$skip"; }; then
		continue
	fi
	read -r t0 _ </proc/uptime
	forks
	f0=$nforks
	echo "VPMU-RUN $name"
	if [ -n "$kselftest" ]; then
		"$KSFT/run_kselftest.sh" -o "$tmo" -t "vpmu:$name" 2>&1 |
			ksft_unwrap "$name" | tee /tmp/out
	else
		{ (cd "$SELFTESTS" && timeout "$tmo" "$t"); echo $? >/tmp/rc; } \
			2>&1 | tee /tmp/out
	fi
	tally /tmp/out "$(cat /tmp/rc)" "$name"
	read -r t1 _ </proc/uptime
	forks
	echo "VPMU-TIME $name $((${t1%.*} - ${t0%.*}))s $((nforks - f0)) forks"
done

echo "VPMU-RESULT passed=$passed failed=$failed skipped=$skipped"

if [ -w "$KMEMLEAK" ]; then
	# kmemleak only reports objects older than 5 s, and a second scan
	# weeds out transient false positives (Documentation/dev-tools/kmemleak).
	echo scan >"$KMEMLEAK"
	sleep 6
	echo scan >"$KMEMLEAK"
	echo "VPMU-KMEMLEAK begin"
	cat "$KMEMLEAK"
	echo "VPMU-KMEMLEAK end"
fi
