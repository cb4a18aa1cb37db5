# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# shellcheck disable=SC2034 # BIN, SHARE, UCODE_SRC: for the scripts that source this
#
# tap.sh - what the host tier's test_*.sh scripts share; sourced, not run
# (run-tests.sh runs test_*.sh only):
#
#   . "$(dirname "$0")/tap.sh"
#   tap_build vpmu-as vpmu-dis   make those tools/vpmu targets, quietly; if
#                                that fails, print one failed test and exit 1
#   ok STATUS NAME               test N: "ok N - NAME" if STATUS is 0,
#                                "not ok N - NAME" otherwise
#   skip NAME REASON             test N: "ok N - NAME # SKIP REASON"
#   tap_done                     the plan line, last; true if all passed
#   ksft_harness SERIES          the directory holding SERIES' (6.1, 6.12)
#                                kselftest.h and kselftest_harness.h, from
#                                /usr/src/linux-source-SERIES.tar.xz as the
#                                VM tier takes them; fails without it
#   ksft_build DIR SRC OUT [CFLAGS...]
#                                build SRC (beside this script) with
#                                selftests/vpmu/vpmu_test.h on the harness
#                                in DIR, linked with the selftests' library;
#                                the compiler's messages go to $tmp/cc.log
#   ksft_lib_srcs                the selftests' library, the .c files of
#                                selftests/vpmu/Makefile's LIB_SRCS (names
#                                in that directory, on one line)
#
# It sets TOP (the repository), tmp (a directory removed on exit), the
# counters n and failed, and where the tools and their files are:
#
#   BIN        the tools               $VPMU_BIN or tools/vpmu
#   SHARE      samples/, progs/,       $VPMU_SHARE or tools/vpmu/share
#              ucode/, build/
#   UCODE_SRC  the default microcode   $VPMU_SHARE/ucode/default.vus or
#                                      drivers/perf/vpmu/ucode/default.vus
#
# With VPMU_BIN set (installed tools, e.g. VPMU_BIN=/usr/bin
# VPMU_SHARE=/usr/share/vpmu from the vpmu-tools package), tap_build builds
# nothing: the tests run against what is installed.

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
BIN=${VPMU_BIN:-$TOP/tools/vpmu}
SHARE=${VPMU_SHARE:-$TOP/tools/vpmu/share}
if [ -n "${VPMU_SHARE:-}" ]; then
	UCODE_SRC=$VPMU_SHARE/ucode/default.vus
else
	UCODE_SRC=$TOP/drivers/perf/vpmu/ucode/default.vus
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# vpmu-run's copies for perf (vpmu_map_elf()) go here, not into ~/.cache.
export XDG_CACHE_HOME=$tmp/cache
n=0
failed=0

tap_build() {
	[ -n "${VPMU_BIN:-}" ] && return 0
	make -s -C "$TOP/tools/vpmu" "$@" >/dev/null 2>&1 && return 0
	echo "not ok 1 - build $*"
	echo "1..1"
	exit 1
}

ok() {	# ok STATUS NAME
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		failed=$((failed + 1))
	fi
}

skip() {	# skip NAME REASON
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

tap_done() {
	echo "1..$n"
	[ "$failed" = 0 ]
}

ksft_harness() {	# ksft_harness SERIES
	local tar=/usr/src/linux-source-$1.tar.xz dir=$TOP/tools/testing/host/build/ksft/$1
	local s=linux-source-$1/tools/testing/selftests

	[ -f "$tar" ] || return 1
	# Extracted once per tarball (-m: the headers are dated when taken, so
	# only a newer tarball is taken again).  Two scripts may take the same
	# harness at once: each extracts into its own directory and renames
	# the headers in, the one tested for last.
	if [ ! -f "$dir/kselftest_harness.h" ] || [ "$tar" -nt "$dir/kselftest_harness.h" ]; then
		mkdir -p "$dir" "$tmp/ksft-$1"
		tar -xmJf "$tar" -C "$tmp/ksft-$1" --strip-components=4 \
			"$s/kselftest.h" "$s/kselftest_harness.h" || return 1
		mv -f "$tmp/ksft-$1/kselftest.h" "$dir/" &&
			mv -f "$tmp/ksft-$1/kselftest_harness.h" "$dir/" || return 1
	fi
	echo "$dir"
}

ksft_lib_srcs() {
	sed -n 's/^LIB_SRCS[[:space:]]*:=[[:space:]]*//p' "$TOP/selftests/vpmu/Makefile"
}

ksft_build() {	# ksft_build DIR SRC OUT [CFLAGS...]
	local dir=$1 src=$2 out=$3 f

	shift 3
	for f in $(ksft_lib_srcs); do
		set -- "$@" "$TOP/selftests/vpmu/$f"
	done
	gcc -O2 -Wall -Wextra -Wno-unused-parameter "$@" -I"$dir" \
		-I"$TOP/selftests/vpmu" -idirafter "$TOP/include/uapi" \
		-o "$out" "$TOP/tools/testing/host/$src" 2>"$tmp/cc.log"
}
