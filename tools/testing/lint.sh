#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh - the lint tier of "make check": checkpatch --strict on every
# kernel-side source file (the kselftests' C too) and on the patches kept
# in upstream/, shellcheck on every shell script (warnings and errors), the
# driver's structure
# (layers.sh: the layers depend one way; circles.sh: no include/call
# circle among the C files of the driver, the tools and the selftests;
# glossary.sh: no old name of a concept the glossary names;
# func-lengths.sh: no function over its limit in the driver, the tools
# or the selftests), sparse (C=2) over a module build against each stock
# kernel's headers, the last build made again against a copy of its
# headers (every object compiled again), and the documentation
# (lint-docs.sh: RST, the ABI through get_abi.pl, man pages).  Prints TAP
# and ends with "lint: N passed, N failed".
#
# checkpatch.pl and its data files come from the newest Debian
# linux-source-7.* (trixie-backports, through the vm tier's trixie root),
# get_abi.pl from linux-source-6.1, extracted into the cache; nothing is
# copied into the repository.
set -euo pipefail

# shellcheck source=vm/lib.sh
. "$(dirname "$0")/vm/lib.sh"
# shellcheck source=lint-docs.sh
. "$(dirname "$0")/lint-docs.sh"

SERIES=${VPMU_LINT_KERNELS:-"6.1 6.12"}
passed=0
failed=0
n=0

tap() {	# tap STATUS NAME [DETAIL-FILE]
	n=$((n + 1))
	if [ "$1" = ok ]; then
		passed=$((passed + 1))
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		[ -n "${3:-}" ] && sed 's/^/# /' "$3"
	fi
	return 0
}

# linux_src_files NAME STRIP PATH... - the PATHs of $LINUX_SRC_TAR, their
# first STRIP components dropped, extracted once into $CACHE/NAME/VERSION
# (the package's version) unless they are there; sets LINUX_SRC_FILES to
# that directory.
linux_src_files() {
	local name=$1 strip=$2 ver dir

	shift 2
	ensure_pkgs "$LINUX_SRC_PKG" perl
	ver=$(dpkg-query -W -f='${Version}' "$LINUX_SRC_PKG")
	dir=$CACHE/$name/$ver
	if [ ! -d "$dir" ]; then
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp"
		tar -C "$dir.tmp" --strip-components="$strip" \
			-xf "$LINUX_SRC_TAR" "$@" && mv "$dir.tmp" "$dir"
	fi
	LINUX_SRC_FILES=$dir
}

# ensure_checkpatch - the newest kernel's checkpatch.pl (the newest
# linux-source-7.* of trixie-backports, the vm tier's newest kernel), with
# its data files, extracted once into $CACHE/checkpatch/VERSION; sets
# CHECKPATCH and CHECKPATCH_DESC.
ensure_checkpatch() {
	local pkg ver dir deb

	trixie_lists
	pkg=$(in_root apt-cache search --names-only '^linux-source-7\.[0-9]+$' |
		awk '{ print $1 }' | sort -V | tail -n 1)
	[ -n "$pkg" ] || die "no linux-source-7.* in trixie(-backports)"
	ver=$(in_root apt-cache show "$pkg" | sed -n 's/^Version: //p' |
		sort -V | tail -n 1)
	dir=$CACHE/checkpatch/$ver
	if [ ! -f "$dir/scripts/checkpatch.pl" ]; then
		log "downloading $pkg $ver for its checkpatch.pl (trixie root)"
		rm -rf "$TRIXIE_ROOT/tmp/debs" "$dir.tmp"
		mkdir -p "$TRIXIE_ROOT/tmp/debs" "$dir.tmp"
		in_root sh -c "cd /tmp/debs && apt-get download $pkg=$ver" \
			>>"$TRIXIE_ROOT.log" 2>&1 || die "cannot download $pkg"
		deb=$(find "$TRIXIE_ROOT/tmp/debs" -name "${pkg}_*.deb" | head -n 1)
		dpkg-deb --fsys-tarfile "$deb" |
			tar -xO "./usr/src/$pkg.tar.xz" |
			tar -C "$dir.tmp" --strip-components=1 -xJ \
				"$pkg/scripts/checkpatch.pl" \
				"$pkg/scripts/spelling.txt" \
				"$pkg/scripts/const_structs.checkpatch" ||
			die "cannot extract checkpatch.pl from $deb"
		rm -rf "$TRIXIE_ROOT/tmp/debs" "$dir"
		mv "$dir.tmp" "$dir"
	fi
	CHECKPATCH=$dir/scripts/checkpatch.pl
	CHECKPATCH_DESC="$pkg $ver"
}

# Kernel-side sources: the module, the assembler its build runs on the host
# (asm/), the uapi header and the kselftests (tools/testing/selftests/vpmu
# of a kernel tree).  In a git checkout that is what git tracks (generated
# files are ignored); in an exported tree, every such file but the
# generated microcode table.
kernel_files() {
	if git -C "$TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$TOP" ls-files 'drivers/perf/vpmu/*.[ch]' \
			'include/uapi/linux/vpmu.h' 'selftests/vpmu/*.[ch]'
	else
		(cd "$TOP" && find drivers/perf/vpmu -maxdepth 2 -name '*.[ch]' \
			! -name vpmu_default_image_data.h | sort &&
			echo include/uapi/linux/vpmu.h &&
			find selftests/vpmu -maxdepth 1 -name '*.[ch]' | sort)
	fi
}

# The few places where checkpatch's advice does not apply, file by file:
# the X-macro tables are the design's "one table" (checkpatch cannot tell a
# list macro from an expression), vpmu_compat.h is the one sanctioned home
# of LINUX_VERSION_CODE, vpmu_port.h defines the kernel's type names
# and attribute macros for the host build, and the kselftests are user
# space.
cp_ignores() {
	local ign

	case "$1" in
	# The kselftests (selftests/vpmu here, tools/testing/selftests/vpmu
	# in make series' patches; first, as some of their names are the
	# driver's) are user-space C like the kernel's other selftests: the
	# C library's types (uint64_t; u64 is the kernel's).  Their other
	# exceptions, kind by kind, each for the files it names:
	*selftests/vpmu/*)
		ign=PREFER_KERNEL_TYPES
		# The harness's type macros before a pointer's name,
		# FIXTURE_DATA(f) *self and FIXTURE_VARIANT(f) *variant, as
		# the kernel's selftests write them: checkpatch reads a
		# product (it flags exec/non-regular.c the same way).
		case "${1##*/}" in
		vpmu_counts_span.c|vpmu_counts_task.c|vpmu_counts_widths.c|\
		vpmu_cpu_sampling.c|vpmu_fault.c|vpmu_freeze.c|vpmu_gate.c|\
		vpmu_hotplug.c|vpmu_hu.h|vpmu_hu_buckets.c|vpmu_lifetime.c|\
		vpmu_lifetime.h|vpmu_lifetime_refused.c|vpmu_mem.c|\
		vpmu_reload_stress.c|vpmu_run_break.c|vpmu_run_break_args.c|\
		vpmu_run_ext.c|vpmu_rv32_resume.c|vpmu_startstop.c|\
		vpmu_test.h|vpmu_uhist.h|vpmu_unload_busy.c)
			ign=$ign,SPACING ;;
		esac
		# A message's format that starts at its call (TH_LOG(),
		# ksft_print_msg(), printf()) and runs past column 100: not
		# split, so that grep finds it; checkpatch allows that to the
		# kernel's log functions (pr_*(), dev_*()) only.
		case "${1##*/}" in
		vpmu_counts_widths.c|vpmu_cpu_sampling.c|vpmu_mem.c|\
		vpmu_perf_sampling.c|vpmu_snapshot.c|vpmu_stress.c|\
		vpmu_ucode.c)
			ign=$ign,LONG_LINE_STRING ;;
		esac
		# volatile sig_atomic_t: what C gives a signal handler to set;
		# and stop or ready flags polled by another process in a
		# MAP_SHARED page (vpmu_hotplug.c, vpmu_reload_stress.c) or by
		# another thread (vpmu_snapshot.c): user space has no
		# READ_ONCE()/WRITE_ONCE().
		case "${1##*/}" in
		vpmu_memcg.c|vpmu_perf_sampling.c|vpmu_run.c|\
		vpmu_run_break_args.c|vpmu_hotplug.c|vpmu_reload_stress.c|\
		vpmu_snapshot.c)
			ign=$ign,VOLATILE ;;
		esac
		# The harness's EXPECT_*() is two statements (a do-while and
		# the for of its TH_LOG() handler): a loop or if around one
		# needs its braces.
		case "${1##*/}" in
		vpmu_perf_narrow.c|vpmu_uhist.c) ign=$ign,BRACES ;;
		esac
		# Variant tables: the macro expands to a FIXTURE_VARIANT_ADD()
		# definition, not to a value.
		case "${1##*/}" in
		vpmu_perf_expect.c|vpmu_run.c|vpmu_run_break.c|\
		vpmu_ucode_bad.c)
			ign=$ign,COMPLEX_MACRO ;;
		esac
		case "${1##*/}" in
		# The harness's own spelling of its attributes
		# (__attribute__((unused)) in the 6.1 FIXTURE_SETUP() it
		# redefines) and noreturn: 6.1's kselftest.h defines no
		# __noreturn or __maybe_unused; and the fixture's name, pasted
		# into the names it defines, is no argument evaluated twice.
		vpmu_test.h)
			ign=$ign,PREFER_DEFINED_ATTRIBUTE_MACRO,MACRO_ARG_REUSE ;;
		# __packed and __printf() are the kernel's: the library's
		# headers include no kselftest.h.
		vpmu_perf_lib.h|vpmu_stress_lib.h)
			ign=$ign,PREFER_DEFINED_ATTRIBUTE_MACRO ;;
		# VT_PERF_FIXTURE() defines a fixture (FIXTURE(),
		# FIXTURE_SETUP(), FIXTURE_TEARDOWN()): declarations, not
		# statements; its name is pasted, not evaluated.
		vpmu_perf.h)
			ign=$ign,MULTISTATEMENT_MACRO_USE_DO_WHILE,MACRO_ARG_REUSE ;;
		# 1 MiB in bytes, (1u << 20) beside the limit's (8u << 20): an
		# unsigned int size, not a bit.
		vpmu_memcg.c) ign=$ign,BIT_MACRO ;;
		# strscpy() and kstrto*() are the kernel's: the path's length
		# is checked before its strcpy(); sscanf() reads a number at
		# the head of a CPU list ("0-3,5").
		vpmu_gdb_wire.c) ign=$ign,STRCPY ;;
		vpmu_mem.c) ign=$ign,SSCANF_TO_KSTRTO ;;
		# refcnt() reads /sys/module/vpmu/refcnt, and its name is in
		# the test's failure message (EXPECT_LT(0, refcnt())).
		vpmu_unload_busy.c) ign=$ign,EMBEDDED_FUNCTION_NAME ;;
		esac
		echo "$ign" ;;
	*/vpmu_isa.h|*/vpmu_engine.h) echo COMPLEX_MACRO,MACRO_ARG_REUSE ;;
	# The interpreter and the translated-code executor, built like
	# kernel/bpf/core.c: generator macros expand to their handlers and
	# jump-table entries, and the dispatch macros (vpmu_dispatch.h,
	# GOTO_*) jump; all live inside vpmu_interp() and vpmu_tc_exec().
	*/vpmu_interp.c) echo COMPLEX_MACRO,MACRO_WITH_FLOW_CONTROL ;;
	# The kernel jumps through the table, the host to the label: each
	# build's VPMU_GOTO_HANDLER() leaves the other's operand unused (the
	# label is a member the kernel's structures do not have).
	*/vpmu_dispatch.h)
		echo COMPLEX_MACRO,MACRO_WITH_FLOW_CONTROL,MACRO_ARG_UNUSED ;;
	*/vpmu_tc_exec.c) echo COMPLEX_MACRO ;;
	# The handler lists, X-macros too.
	*/vpmu_uop.h|*/vpmu_tc.h) echo COMPLEX_MACRO,MACRO_ARG_REUSE ;;
	*/vpmu_compat.h) echo LINUX_VERSION_CODE,CONSTANT_COMPARISON ;;
	# A bin_attribute and its callbacks' argument are const from 6.16 on
	# only (vpmu_compat.h's VPMU_BIN_CONST, which checkpatch cannot read),
	# and vpmu_uhist.c allocates its attributes.
	*/vpmu.h|*/vpmu_loader.c|*/vpmu_uhist.c) echo CONST_STRUCT ;;
	# vpmu_port.h spells the kernel's type names and attribute macros
	# (__always_inline: "inline __attribute__(...)") for the host build.
	*/vpmu_port.h) echo PREFER_KERNEL_TYPES,COMPLEX_MACRO ;;
	# The assembler is host C (as scripts/ and aicasm are): the C
	# library's types and attribute spelling, not the kernel's, and the
	# C emitter's output has an SPDX line in a string.
	*/asm/vpmu_tool.c)
		echo PREFER_KERNEL_TYPES,PREFER_DEFINED_ATTRIBUTE_MACRO,SPDX_LICENSE_TAG ;;
	*/asm/*) echo PREFER_KERNEL_TYPES,PREFER_DEFINED_ATTRIBUTE_MACRO ;;
	*) echo NONE ;;
	esac
}

# each_par WHAT FUNC ITEM... - "FUNC ITEM" for every ITEM, one per CPU at
# a time, each one's output kept apart; then a TAP line "WHAT ITEM" for
# each, in ITEM order (its output shown if it failed).  It counts and
# waits for its own jobs only: the sparse builds run beside it.
each_par() {
	local what=$1 fn=$2 d i=0 item jobs p pids=() live

	shift 2
	jobs=$(nproc 2>/dev/null || echo 1)
	d=$(mktemp -d)
	for item in "$@"; do
		i=$((i + 1))
		( "$fn" "$item" >"$d/$i.out" 2>&1; echo $? >"$d/$i.rc" ) &
		pids+=("$!")
		while :; do
			live=()
			for p in "${pids[@]}"; do
				kill -0 "$p" 2>/dev/null && live+=("$p")
			done
			[ "${#live[@]}" -lt "$jobs" ] && break
			wait -n "${live[@]}" || true
		done
	done
	wait "${pids[@]}" || true
	i=0
	for item in "$@"; do
		i=$((i + 1))
		if [ "$(cat "$d/$i.rc" 2>/dev/null)" = 0 ]; then
			tap ok "$what $item"
		else
			tap fail "$what $item" "$d/$i.out"
		fi
	done
	rm -rf "$d"
}

checkpatch_one() {
	"$CHECKPATCH" --no-tree --strict --quiet --terse \
		--ignore "$(cp_ignores "$1")" -f "$TOP/$1"
}

run_checkpatch() {
	[ -n "$(kernel_files)" ] || { tap fail "checkpatch: no files found"; return; }
	# shellcheck disable=SC2046 # one path a word
	each_par checkpatch checkpatch_one $(kernel_files)
}

# The kernel patch series in upstream/ (git format-patch output, README.md
# there), checked as they would be sent: without the Signed-off-by a person
# adds then.  Cover letters (0000-*) carry no code.  The path must be
# absolute: given the relative path of a file git tracks, checkpatch
# checks it as a source file, not as a patch.  Two warnings only a kernel
# clone can answer are off: UNKNOWN_COMMIT_ID (a Fixes: names a mainline
# commit, which checkpatch looks up in the git history it runs in, here
# vpmu's) and FILE_PATH_CHANGES (a new file whose MAINTAINERS entry is a
# patch of its own earlier in the series: checkpatch reads one patch).
run_checkpatch_upstream() {
	local p out

	out=$(mktemp)
	for p in "$TOP"/upstream/*/[0-9][0-9][0-9][0-9]-*.patch; do
		[ -f "$p" ] || continue
		case "${p##*/}" in 0000-*) continue ;; esac
		# make series's output (tools/pkg/series.sh checks it, with
		# the exceptions cp_ignores names for the files it adds)
		case "${p#"$TOP"/upstream/}" in vpmu/*|vpmu-*/*) continue ;; esac
		if "$CHECKPATCH" --no-tree --strict --quiet --terse --no-signoff \
				--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES \
				"$p" >"$out" 2>&1; then
			tap ok "checkpatch ${p#"$TOP"/}"
		else
			tap fail "checkpatch ${p#"$TOP"/}" "$out"
		fi
	done
	rm -f "$out"
}

# Every shell script of the project: *.sh, and those named otherwise
# (.ci/run, the guest's init, vpmu-cc's source).  Sourced files are followed from the
# script's own directory; a deliberate exception carries a shellcheck
# directive with its reason where it applies.
shell_files() {
	(cd "$TOP" && {
		if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
			git ls-files '*.sh'
		else
			find . -name '*.sh' -not -path './build/*' | sed 's|^\./||' | sort
		fi
		echo .ci/run
		echo tools/testing/vm/guest/init
		echo tools/vpmu/vpmu-cc.in
	})
}

shellcheck_one() {
	cd "$TOP" && shellcheck -x -P SCRIPTDIR -S warning "$1"
}

run_shellcheck() {
	local f files=()

	ensure_pkgs shellcheck
	for f in $(shell_files); do
		[ -f "$TOP/$f" ] && files+=("$f")
	done
	each_par shellcheck shellcheck_one "${files[@]}"
}

# kdoc_files DIR - the files of the series as series_src.py made them in
# DIR (the driver's sources, Makefile, Kconfig and built-in microcode, the
# uapi header, the kselftests, the vpmu ABI files), absolute, one a line,
# whose references kdoc-refs.sh checks.  Left out, whole files (a line of
# one cannot be left out alone):
kdoc_files() {
	local f

	find "$1" -type f | sort | while read -r f; do
		case "${f#"$1"/}" in
		# The admin guide: kdoc-refs.sh reads this tree's.
		Documentation/admin-guide/*) continue ;;
		# Their Users: lines name vpmu's user-space tools (and the
		# chunk benchmark of this repository), which is what Users: is
		# for.
		Documentation/ABI/testing/sysfs-bus-event_source-devices-vpmu | \
		Documentation/ABI/testing/sysfs-module-vpmu) continue ;;
		# Tests that run vpmu's user-space tools (vpmu-run, vpmu-hist,
		# vpmu-sim, vpmu-load, vpmu-as, vpmu-dis): their code names
		# them, and they skip without them.
		selftests/vpmu/vpmu_counts.h | selftests/vpmu/vpmu_lib.h | \
		selftests/vpmu/vpmu_hu.h | selftests/vpmu/vpmu_uhist.h | \
		selftests/vpmu/vpmu_hu.c | selftests/vpmu/vpmu_hu_addr.c | \
		selftests/vpmu/vpmu_hu_buckets.c | \
		selftests/vpmu/vpmu_gate_stat.sh | selftests/vpmu/vpmu_hu_stat.sh | \
		selftests/vpmu/vpmu_perf_names.sh | \
		selftests/vpmu/vpmu_perf_stat.sh | \
		selftests/vpmu/vpmu_perf_surface.sh | \
		selftests/vpmu/vpmu_rv32_gdb.sh | selftests/vpmu/vpmu_rv32_stat.sh | \
		selftests/vpmu/vpmu_trig_stat.sh | \
		selftests/vpmu/vpmu_uhist_report.sh | \
		selftests/vpmu/vpmu_version.sh) continue ;;
		# Their code names files of $VPMU_SHARE (samples/sum.expect),
		# which kdoc-refs.sh takes for the kernel's samples/.
		selftests/vpmu/vpmu_perf.c | selftests/vpmu/vpmu_stress_pmu.c) continue ;;
		esac
		echo "$f"
	done
}

# The series' sources (tools/pkg/series_src.py) for each kernel the series
# is made for: vpmu_compat.h resolved, every edit applied where it is
# written, nothing of the out-of-tree build left; then what they refer to
# (kdoc-refs.sh, with the admin guide): only files of a kernel tree.
run_series_src() {
	local d k out

	d=$(mktemp -d)
	out=$d/out
	# vpmu_version.h, generated, is one of the series' files
	make -s -C "$TOP" version-h
	for k in 6.12 7.3; do
		if python3 "$TOP/tools/pkg/series_src.py" "$k" "$d/$k" >"$out" 2>&1; then
			tap ok "series_src: the series' sources for $k, without compat code"
		else
			tap fail "series_src: the series' sources for $k" "$out"
		fi
	done
	# kdoc-refs.sh checks against the file list of linux-source-6.12;
	# on a fresh machine the debug tier may not have installed it yet,
	# and its fallback allowlist is too short for the series.
	ensure_pkgs linux-source-6.12 >&2
	# A script that stops early may exit 0 with nothing said: only its
	# own last line, with no fault, passes.
	# shellcheck disable=SC2046 # one path a word
	if [ -d "$d/7.3" ] &&
	   "$TOP/tools/testing/kdoc-refs.sh" $(kdoc_files "$d/7.3") >"$out" 2>&1 &&
	   tail -n 1 "$out" | grep -Eq '^kdoc-refs: [0-9]+ files, [0-9]+ references, 0 faults$'; then
		tap ok "$(tail -n 1 "$out"): the series names only kernel-tree files"
	else
		tap fail "kdoc-refs: the series names only kernel-tree files" "$out"
	fi
	rm -rf "$d"
}

# The driver's shape, checked from its sources (architecture.rst, "The
# driver in one page"), and no circle among the C files of each directory.
run_structure() {
	local out

	out=$(mktemp)
	# A script that stops early (a quoting slip in its perl) may exit 0
	# with nothing said: only its own last line, with no fault, passes.
	if "$TOP/tools/testing/layers.sh" --quiet >"$out" 2>&1 &&
	   tail -n 1 "$out" | grep -Eq '^layers: [0-9]+ files, 0 violations$'; then
		tap ok "$(tail -n 1 "$out")"
	else
		tap fail "layers: no call or include goes up a layer" "$out"
	fi
	if "$TOP/tools/testing/circles.sh" >"$out" 2>&1 &&
	   tail -n 1 "$out" | grep -Eq '^circles: [0-9]+ dirs, 0 circles$'; then
		tap ok "$(tail -n 1 "$out")"
	else
		tap fail "circles: no include/call circle among the C files" "$out"
	fi
	if "$TOP/tools/testing/glossary.sh" >"$out" 2>&1 &&
	   tail -n 1 "$out" | grep -Eq '^glossary: [0-9]+ files, 0 faults$'; then
		tap ok "$(tail -n 1 "$out")"
	else
		tap fail "glossary: only the glossary's names are used" "$out"
	fi
	if "$TOP/tools/testing/func-lengths.sh" >"$out" 2>&1; then
		tap ok "function lengths within their limits"
	else
		tap fail "function lengths within their limits" "$out"
	fi
	if core_lists_agree >"$out" 2>&1; then
		tap ok "the module and the host build the same engine core"
	else
		tap fail "the module and the host build the same engine core" "$out"
	fi
	if asm_lists_agree >"$out" 2>&1; then
		tap ok "the module's build and the tools build the same assembler"
	else
		tap fail "the module's build and the tools build the same assembler" "$out"
	fi
	rm -f "$out"
}

# mk_lines MAKEFILE - MAKEFILE's lines with their continuations joined.
mk_lines() {
	sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$1"
}

# kbuild_objs MAKEFILE - the objects of vpmu.ko in the module's MAKEFILE
# (its vpmu-y lines), one a line.
kbuild_objs() {
	mk_lines "$1" | sed -n 's/^vpmu-y [:+]= //p' | tr ' \t' '\n\n' | grep .
}

# lists_agree FILES MAKEFILE SOURCES_MK - whether the three lists of .c
# files (one a line) are the same; prints them when they are not.
lists_agree() {
	[ "$1" = "$2" ] && [ "$1" = "$3" ] && return 0
	printf 'files:\n%s\nMakefile:\n%s\nsources.mk:\n%s\n' "$1" "$2" "$3"
	return 1
}

# The engine core's files are listed twice: in the module's Makefile
# (Kbuild objects, engine/*.o) and in tools/vpmu/sources.mk (the host's
# sources).  Both must name every .c file of drivers/perf/vpmu/engine.
core_lists_agree() {
	local dir=$TOP/drivers/perf/vpmu files kbuild host

	files=$(cd "$dir/engine" && ls ./*.c | sed 's|^\./||' | sort)
	kbuild=$(kbuild_objs "$dir/Makefile" | sed -n 's|^engine/\(.*\)\.o$|\1.c|p' |
		sort)
	host=$(mk_lines "$TOP/tools/vpmu/sources.mk" |
		sed -n '/^VPMU_CORE_SRCS/,/)/p' | tr ' \t' '\n\n' |
		grep -oE '^vpmu_[a-z0-9_]*\.c' | sort)
	lists_agree "$files" "$kbuild" "$host"
}

# The assembler's files are listed twice too: in the module's Makefile (the
# host program vpmu_mkimage's objects, asm/*.o) and in sources.mk
# (VPMU_LIB_SRCS, from VPMU_ASM_DIR).  Both must name every .c file of
# drivers/perf/vpmu/asm but the two that are the host program's alone: its
# main (vpmu_mkimage.c) and the engine files it includes
# (vpmu_engine_host.c; the tools link the engine core itself).
asm_lists_agree() {
	local dir=$TOP/drivers/perf/vpmu files kbuild host
	local own='vpmu_mkimage\.c|vpmu_engine_host\.c'

	files=$(cd "$dir/asm" && ls ./*.c | sed 's|^\./||' | grep -vxE "$own" | sort)
	kbuild=$(mk_lines "$dir/Makefile" | sed -n 's/^vpmu_mkimage-objs [:+]= //p' |
		tr ' \t' '\n\n' | sed -n 's|^asm/\(.*\)\.o$|\1.c|p' |
		grep -vxE "$own" | sort)
	host=$(mk_lines "$TOP/tools/vpmu/sources.mk" |
		sed -n 's/^VPMU_LIB_SRCS[ \t]*:= //p' |
		sed -n 's|.*$(addprefix $(VPMU_ASM_DIR)/, *\([^)]*\)).*|\1|p' |
		tr ' \t' '\n\n' | grep -oE '^vpmu_[a-z0-9_]*\.c' | sort)
	lists_agree "$files" "$kbuild" "$host"
}

# sparse_start SERIES - sparse (C=2) over a module build against SERIES's
# headers, in the background; sparse_report reports it.  The builds start
# before the other checks and run beside them and each other: sparse
# alone takes over two minutes of one CPU on vpmu_interp.c (one function
# of some 260 labels its computed gotos reach), where the rest of the
# module takes a minute of both.  Sparse runs through
# sparse-cached.sh, which prints again what sparse printed for a file it
# has checked before, by the file's content as sparse preprocesses it
# (results unused for 30 days are removed here).  The packages are
# installed here, one series after the other, not in the background.
sparse_start() {
	local series=$1 src

	resolve_stock "$series"
	ensure_pkgs "linux-headers-$KVER" sparse rsync make gcc libc6-dev
	src=$(sync_tree "lint-$series")
	rm -f "$src/.vpmu-sparse.rc"
	(
		rc=0
		make -C "$src" clean KDIR="/usr/src/linux-headers-$KVER" >/dev/null 2>&1 || true
		VPMU_SPARSE_CACHE=$CACHE/sparse VPMU_SPARSE_ROOT=$src \
			make -C "$src" -j"$(nproc)" modules \
			KDIR="/usr/src/linux-headers-$KVER" C=2 \
			CHECK="$TOP/tools/testing/sparse-cached.sh" \
			>"$src/.vpmu-sparse.log" 2>&1 || rc=$?
		echo "$rc" >"$src/.vpmu-sparse.rc"
	) &
	sparse_pids+=("$!")
}

# sparse_report SERIES - once every sparse build is done: the TAP lines of
# SERIES's.
sparse_report() {
	local src=$VM_SRC/lint-$1 log

	[ "${#sparse_pids[@]}" = 0 ] || wait "${sparse_pids[@]}" || true
	sparse_pids=()
	resolve_stock "$1"
	log=$src/.vpmu-sparse.log
	if [ "$(cat "$src/.vpmu-sparse.rc" 2>/dev/null)" != 0 ]; then
		tap fail "sparse build against $KVER" "$log"
		return
	fi
	# Sparse and the compiler report as "file:line:col: warning|error:".
	if grep -E '(warning|error):' "$log" >"$log.hits"; then
		tap fail "sparse clean against $KVER" "$log.hits"
	else
		tap ok "sparse clean against $KVER"
	fi
}

# run_kdir_switch SERIES - the tree built against SERIES's headers (by
# run_sparse) built again against a copy of them elsewhere, as old as
# they are: another kernel tree.  Kbuild names an external module's
# kernel headers by paths relative to the kernel tree, so unless the
# wrapper notices that the kernel changed, every object built for the
# first kernel looks up to date and the module links the first kernel's
# code with the second's struct module ("section size must match the
# kernel's built struct module size" at insmod: CI's debug tier, when a
# debug kernel's key changed under a cached tree copy).  Every object must
# be compiled again.
run_kdir_switch() {
	local src=$VM_SRC/lint-$1 kdir log objs cc l

	resolve_stock "$1"
	kdir=$CACHE/lint-kdir/linux-headers-$KVER
	if [ ! -d "$kdir" ]; then
		rm -rf "$kdir.tmp"
		mkdir -p "${kdir%/*}"
		cp -a "/usr/src/linux-headers-$KVER" "$kdir.tmp"
		# scripts/ and tools/ are relative links into linux-kbuild.
		for l in "$kdir.tmp"/*; do
			if [ -L "$l" ]; then
				ln -sfn "$(realpath "/usr/src/linux-headers-$KVER/${l##*/}")" "$l"
			fi
		done
		mv "$kdir.tmp" "$kdir"
	fi
	log=$src/.vpmu-kdir-switch.log
	if ! make -C "$src" -j"$(nproc)" modules KDIR="$kdir" >"$log" 2>&1; then
		tap fail "module build against a copy of $KVER's headers" "$log"
		return
	fi
	objs=$(kbuild_objs "$src/drivers/perf/vpmu/Makefile" | wc -l)
	cc=$(grep -cE ' CC \[M\] .*/drivers/perf/vpmu/(engine/)?vpmu_[a-z0-9_]*\.o$' "$log" || true)
	if [ "$cc" -ne "$objs" ]; then
		echo "compiled $cc of $objs objects" >>"$log"
		tap fail "kernel tree changed: every object of the module rebuilt" "$log"
	else
		tap ok "kernel tree changed: every object of the module rebuilt"
	fi
}

mkdir -p "$CACHE"
if [ -d "$CACHE/sparse" ]; then
	find "$CACHE/sparse" -name '*.rc' -mtime +30 |
		while read -r f; do rm -f "$f" "${f%.rc}.err"; done
fi
sparse_pids=()
for s in $SERIES; do
	sparse_start "$s"
done
ensure_checkpatch
echo "# checkpatch.pl of $CHECKPATCH_DESC"
run_checkpatch
run_checkpatch_upstream
run_shellcheck
run_structure
run_series_src
run_docs
for s in $SERIES; do
	sparse_report "$s"
done
# After the sparse builds: the last one's copy holds a module for its kernel.
run_kdir_switch "${SERIES##* }"
echo "1..$n"
echo "lint: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
