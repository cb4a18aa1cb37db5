#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# series.sh [--check] [KVER] - vpmu as a kernel patch series
# (make series [KVER=7.3] [SERIES_CHECK=1]).
#
# Writes git format-patch output for Linux KVER (major.minor; default: the
# newest linux-source-7.x of Debian's trixie(-backports)) into
# upstream/vpmu/, or upstream/vpmu-KVER/ for a KVER given: a cover
# letter and one patch per part of tools/pkg/in-tree.sh, in this order:
#
#   1 uapi       include/uapi/linux/vpmu.h, its ioctl-number.rst row
#   2 engine     the engine core, the assembler, the default microcode
#   3 driver     the driver, its Kconfig and Makefile lines
#   4 docs       the admin guide (in its toctree), the ABI files
#   5 selftests  tools/testing/selftests/vpmu
#
# each with its lines of vpmu's MAINTAINERS entry.  The files are
# series_src.py's: this tree's, with vpmu_compat.h resolved for KVER and
# the out-of-tree build's parts dropped.  The commit messages and the
# cover letter are tools/pkg/series/*.txt (the first line the subject);
# like upstream/perf-detached-leader's, the patches are ready to send once
# a person adds their Signed-off-by: (the author is debian/control's
# Maintainer:).  The output is made, not kept: upstream/vpmu*/ is ignored
# by git.
#
# The patches are made in a git tree of Debian's linux-source-KVER,
# extracted once into $VPMU_CACHE/series/linux-KVER (outside this tree)
# and committed whole as its base; the linux-source package comes from the
# host's apt (6.x of bookworm) or from the VM harness's trixie build root.
# Commit dates are this tree's HEAD's, so the same tree writes the same
# series.
#
# --check then checks every patch, applied one by one on the base: the
# kernel tree's checkpatch.pl --strict on the patch (--no-signoff, as
# above; with the per-file exceptions of the lint tier's checkpatch,
# tools/testing/lint.sh's cp_ignores, each with its reason there); the
# kernel built (tinyconfig with the debug tier's guest options,
# debug.config's "what the guest needs" section, and -O2) with the driver
# =y and, in a second build directory, =m, and drivers/perf/vpmu rebuilt
# with W=1 and C=2 (sparse) in both: any compiler, sparse or objtool
# warning about the driver fails it.  Then that the patches apply with
# git am to the base, where the kselftests build with no warning; that
# the whole series' =y kernel boots in QEMU and passes those kselftests,
# installed from the tree (the VM harness's "series" flavour); and the
# admin guide's HTML (make SPHINXDIRS=admin-guide htmldocs, Debian's
# Sphinx) with no warning about vpmu's documents.  The first build of
# each directory takes ~10 minutes (cached beside the tree), a patch's
# rebuild seconds to a minute.  Prints TAP, then "N passed, N failed".
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=tools/testing/vm/lib.sh
. "$TOP/tools/testing/vm/lib.sh"

CHECK=0
if [ "${1:-}" = --check ]; then
	CHECK=1
	shift
fi
KVER=${1:-}
PARTS=(uapi engine driver docs selftests)
MSGS=$TOP/tools/pkg/series
SDIR=$CACHE/series

# newest_7 - the newest linux-source-7.x the trixie build root can install.
newest_7() {
	trixie_lists
	in_root apt-cache search --names-only '^linux-source-7\.[0-9]+$' |
		awk '{ print $1 }' | sed 's/^linux-source-//' | sort -V | tail -n 1
}

# source_tarball - the path of linux-source-$KVER's tarball, installed
# from the host's apt or, for a kernel bookworm lacks, downloaded in the
# trixie root and extracted into $SDIR.
source_tarball() {
	local tar=/usr/src/linux-source-$KVER.tar.xz deb

	if apt-cache show "linux-source-$KVER" >/dev/null 2>&1; then
		ensure_pkgs "linux-source-$KVER"
		printf '%s\n' "$tar"
		return
	fi
	tar=$SDIR/linux-source-$KVER.tar.xz
	if [ ! -s "$tar" ]; then
		trixie_lists
		log "downloading linux-source-$KVER (trixie root)"
		rm -rf "$TRIXIE_ROOT/tmp/debs" "$SDIR/deb"
		mkdir -p "$TRIXIE_ROOT/tmp/debs" "$SDIR"
		in_root sh -c "cd /tmp/debs && apt-get download linux-source-$KVER" \
			>>"$TRIXIE_ROOT.log" 2>&1 ||
			die "cannot download linux-source-$KVER"
		deb=$(find "$TRIXIE_ROOT/tmp/debs" -name "linux-source-${KVER}_*.deb" |
			head -n 1)
		dpkg-deb -x "$deb" "$SDIR/deb"
		mv "$SDIR/deb/usr/src/linux-source-$KVER.tar.xz" "$tar"
		rm -rf "$SDIR/deb" "$TRIXIE_ROOT/tmp/debs"
	fi
	printf '%s\n' "$tar"
}

# base_tree - $TREE, a git tree of linux-source-$KVER whose first commit,
# tagged base, is the tarball as it is but for its .gitignore (Debian's
# packaging rules out, upstream's !.gitignore in).
base_tree() {
	local tar

	TREE=$SDIR/linux-$KVER
	[ "$(cat "$TREE.done" 2>/dev/null)" = 2 ] && return 0
	tar=$(source_tarball)
	log "making the git tree of $(basename "$tar") in $TREE"
	rm -rf "$TREE"
	mkdir -p "$TREE"
	tar -xJf "$tar" -C "$TREE" --strip-components=1
	# Debian's .gitignore ignores everything at the top level (its
	# packaging's repository has only debian/): that part goes, the
	# kernel's own ignore rules stay.
	sed -i '/^# Debian packaging: ignore everything/,/^!\/debian\/$/d' \
		"$TREE/.gitignore"
	# and upstream's exception for the ignore files themselves (".*"
	# would ignore the series' own .gitignore files)
	grep -qx '!.gitignore' "$TREE/.gitignore" ||
		echo '!.gitignore' >>"$TREE/.gitignore"
	git -C "$TREE" init -q
	git -C "$TREE" add -A -f
	GIT_AUTHOR_DATE=$(date -r "$tar" -Iseconds) \
	GIT_COMMITTER_DATE=$(date -r "$tar" -Iseconds) \
		git -C "$TREE" -c user.name=vpmu -c user.email=vpmu@localhost \
		commit -q -m "$(basename "$tar" .tar.xz) as Debian ships it"
	git -C "$TREE" tag -f base >/dev/null
	# the base's version: a change to how it is made makes it again
	echo 2 >"$TREE.done"
}

# make_series OUT - the commits on branch vpmu, and their patches in OUT.
make_series() {
	local out=$1 stage=$SDIR/stage-$KVER i=0 p who date author

	who=$(sed -n 's/^Maintainer: //p' "$TOP/debian/control")
	# git's identity options for the author (debian/control's Maintainer:)
	author=(-c user.name="${who% <*}"
		-c user.email="$(echo "${who#*<}" | tr -d '>')")
	date=$(git -C "$TOP" log -1 --format=%cI)
	make -s -C "$TOP" version-h
	python3 "$TOP/tools/pkg/series_src.py" "$KVER" "$stage" >&2
	git -C "$TREE" checkout -q -f -B vpmu base
	git -C "$TREE" clean -q -f -d -x
	for p in "${PARTS[@]}"; do
		i=$((i + 1))
		VPMU_SRC=$stage "$TOP/tools/pkg/in-tree.sh" --part "$p" "$TREE" >&2
		git -C "$TREE" add -A
		GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
			git -C "$TREE" "${author[@]}" commit -q -F "$MSGS/$i-$p.txt"
	done
	# The cover letter: the branch's description (first line the
	# subject), written as format-patch's --cover-from-description does.
	git -C "$TREE" config branch.vpmu.description "$(cat "$MSGS/cover.txt"
		printf "\nFor Linux %s, made on Debian's linux-source-%s.\n" \
			"$KVER" "$KVER")"
	rm -rf "$out"
	mkdir -p "$out"
	git -C "$TREE" "${author[@]}" format-patch -q --cover-letter \
		--cover-from-description=subject \
		--no-signature -o "$out" base..vpmu
	log "$(find "$out" -name '*.patch' | wc -l) files in ${out#"$TOP"/}"
}

# --- --check -----------------------------------------------------------

ntap=0
nfail=0
tap() {
	ntap=$((ntap + 1))
	if [ "$1" = ok ]; then
		echo "ok $ntap - $2"
	else
		nfail=$((nfail + 1))
		echo "not ok $ntap - $2"
	fi
}

# build_dir MODE - the build directory for PERF_VPMU=MODE (y or m), made
# and built once at the base (the driver is not there yet).
build_dir() {
	local b=$SDIR/build-$KVER-$1 line

	# .done holds the recipe's version: a new one builds again
	if [ "$(cat "$b.done" 2>/dev/null)" != 2 ]; then
		log "configuring and building Linux $KVER in $b (once)"
		rm -rf "$b"
		mkdir -p "$b"
		git -C "$TREE" checkout -q -f base
		git -C "$TREE" clean -q -f -d -x
		make -C "$TREE" O="$b" -s tinyconfig >/dev/null
		sed -n '/^# --- what the guest needs ---$/,/^# --- /p' \
			"$TOP/tools/testing/vm/debug.config" |
		while IFS= read -r line; do
			case $line in
			CONFIG_*=y) "$TREE/scripts/config" --file "$b/.config" \
					--enable "${line%%=*}" ;;
			"# CONFIG_"*" is not set")
				line=${line#\# }
				"$TREE/scripts/config" --file "$b/.config" \
					--disable "${line%% *}" ;;
			esac
		done
		# -O2, as distributions and defconfig build (tinyconfig's -Os
		# factors the engine's computed gotos into one jump, through
		# which objtool follows only one of its two tables).
		"$TREE/scripts/config" --file "$b/.config" \
			--enable HEADERS_INSTALL --enable UAPI_HEADER_TEST \
			--enable CC_OPTIMIZE_FOR_PERFORMANCE \
			--disable CC_OPTIMIZE_FOR_SIZE
		make -C "$TREE" O="$b" -s olddefconfig
		make -C "$TREE" O="$b" -j"$(nproc)" >"$b.log" 2>&1 ||
			{ tail -n 20 "$b.log" >&2; die "Linux $KVER did not build ($b.log)"; }
		echo 2 >"$b.done"
	fi
	printf '%s\n' "$b"
}

# check_builds N SUBJECT - patch N's commit checked out and built, PERF_VPMU=y
# and =m.
check_builds() {
	local n=$1 subj=$2 mode b log

	for mode in y m; do
		b=$(build_dir "$mode")
		log=$b.patch$n.log
		git -C "$TREE" checkout -q -f "vpmu~$((${#PARTS[@]} - n))"
		"$TREE/scripts/config" --file "$b/.config" \
			"$([ "$mode" = y ] && echo --enable || echo --module)" PERF_VPMU
		# The option exists from the driver's patch on (the engine's
		# adds files that patch builds).
		if ! { make -C "$TREE" O="$b" -s olddefconfig &&
		       if [ -f "$TREE/drivers/perf/vpmu/Kconfig" ]; then
			       grep -qx "CONFIG_PERF_VPMU=$mode" "$b/.config" ||
				       { echo "PERF_VPMU=$mode did not stay"; false; }
		       fi &&
		       make -C "$TREE" O="$b" -j"$(nproc)" &&
		       if [ -f "$TREE/drivers/perf/vpmu/Kconfig" ]; then
			       make -C "$TREE" O="$b" -j"$(nproc)" W=1 C=2 \
				       drivers/perf/vpmu/
		       fi; } >"$log" 2>&1; then
			tap fail "patch $n builds, PERF_VPMU=$mode ($subj): $log"
			tail -n 20 "$log" | sed 's/^/# /'
		elif grep -E 'drivers/perf/vpmu/.*(warning|error):|objtool: vpmu_' \
			"$log" | sort -u | sed 's/^/# /' | grep .; then
			tap fail "patch $n: no warning, PERF_VPMU=$mode, W=1 C=2 ($subj)"
		elif grep -q 'C=2 specified, but sparse is not available' "$log"; then
			# Kbuild turns C=2 off where sparse is older than the
			# tree needs (7.x needs __typeof_unqual__: bookworm's
			# 0.6.4 lacks it); the 6.12 series runs it.
			tap ok "patch $n builds with no warning, PERF_VPMU=$mode, W=1 # SKIP sparse: this machine's is too old for Linux $KVER"
		else
			tap ok "patch $n builds with no warning, PERF_VPMU=$mode, W=1 C=2"
		fi
	done
}

# check_am OUT - the patches apply with git am to the base, in a worktree
# of their own, and there the kselftests build with no warning and install
# (kselftest_install.sh, into $SDIR/ksft-KVER: check_boot runs them).
check_am() {
	local out=$1 wt=$SDIR/am-$KVER ksft=$SDIR/ksft-$KVER

	git -C "$TREE" worktree remove --force "$wt" >/dev/null 2>&1 || true
	rm -rf "$wt"
	git -C "$TREE" worktree prune
	git -C "$TREE" worktree add -q --detach "$wt" base
	# shellcheck disable=SC2046 # one patch a word
	if git -C "$wt" -c user.name=vpmu -c user.email=vpmu@localhost \
			am -q $(find "$out" -name '[0-9]*.patch' ! -name '0000-*' |
				sort) >"$wt.log" 2>&1 &&
	   git -C "$wt" diff --quiet vpmu; then
		tap ok "the series applies with git am to linux-source-$KVER"
	else
		tap fail "the series applies with git am to linux-source-$KVER"
		sed 's/^/# /' "$wt.log"
	fi
	# The kselftests as a kernel tree builds them (its headers first),
	# with that tree's harness, with no compiler warning.
	rm -rf "$ksft"
	mkdir -p "$ksft"
	if make -C "$wt" -s headers >"$wt.log" 2>&1 &&
	   ksft_install "$wt" "$ksft" >>"$wt.log" 2>&1 &&
	   ! grep -q 'warning:' "$wt.log"; then
		tap ok "the kselftests build with no warning and install in the tree (TARGETS=vpmu)"
	else
		tap fail "the kselftests build with no warning and install in the tree (TARGETS=vpmu): $wt.log"
		{ grep 'warning:' "$wt.log" || tail -n 20 "$wt.log"; } |
			sed 's/^/# /'
	fi
	git -C "$TREE" worktree remove --force "$wt"
}

# check_boot - the whole series' PERF_VPMU=y kernel (the =y build
# directory, as the last patch's check_builds left it) booted by the VM
# harness (the "series" flavour of tools/testing/vm/lib/flavours.sh), which
# runs the kselftests check_am installed from the patched tree with their
# runner, run_kselftest.sh: none may fail.
check_boot() {
	local b log=$SDIR/boot-$KVER.log sum

	b=$(build_dir y)
	if ! grep -qx 'CONFIG_PERF_VPMU=y' "$b/.config" ||
	   [ ! -f "$SDIR/ksft-$KVER/kselftest-list.txt" ]; then
		tap fail "the series' =y kernel runs its kselftests: no kernel or no kselftests"
		return
	fi
	VPMU_SERIES_KERNEL=$b/arch/x86/boot/bzImage \
	VPMU_SERIES_KSFT=$SDIR/ksft-$KVER VPMU_SERIES_KVER=$KVER \
		"$TOP/tools/testing/vm/vm-run.sh" --kernel series >"$log" 2>&1 || true
	sum=$(grep -E "^series-$KVER: [0-9]+ passed, [0-9]+ failed$" "$log" |
		tail -n 1)
	case $sum in
	*": 0 passed, "*|"") ;;
	*", 0 failed")
		tap ok "the series' =y kernel boots in QEMU and runs the kselftests installed from its tree (${sum#*: })"
		return ;;
	esac
	tap fail "the series' =y kernel boots and runs its kselftests${sum:+ (${sum#*: })}: $log"
	grep -E 'FAIL|not ok' "$log" | head -n 20 | sed 's/^/# /'
}

# check_htmldocs - make SPHINXDIRS=admin-guide htmldocs of the whole
# series: no warning about vpmu's document or ABI files but the one every
# ABI file's cross-reference gets in a build of one directory ("unknown
# document: '/admin-guide/...'": the ABI pages resolve document names
# from Documentation/, the build has only admin-guide/).
check_htmldocs() {
	local log=$SDIR/htmldocs-$KVER.log

	ensure_pkgs python3-sphinx python3-sphinx-rtd-theme python3-yaml >&2
	git -C "$TREE" checkout -q -f vpmu
	rm -rf "$TREE/Documentation/output"
	if ! make -C "$TREE" SPHINXDIRS=admin-guide htmldocs >"$log" 2>&1 ||
	   [ ! -f "$TREE/Documentation/output/admin-guide/perf/vpmu.html" ]; then
		tap fail "htmldocs (admin-guide) builds vpmu.rst: $log"
		tail -n 20 "$log" | sed 's/^/# /'
	# Paths relative to the tree: the cache's own path has "vpmu" in it.
	elif sed "s|$TREE/||g" "$log" | grep -i 'vpmu' | grep -iE 'warning|error' |
	     grep -v "WARNING: unknown document: '/admin-guide/perf/vpmu'" |
	     sed 's/^/# /' | grep .; then
		tap fail "htmldocs (admin-guide): no warning about vpmu's documents"
	else
		tap ok "htmldocs (admin-guide): vpmu.rst with no warning about vpmu's documents"
	fi
	rm -rf "$TREE/Documentation/output"
}

# checkpatch_series PATCH - the tree's checkpatch.pl --strict on PATCH,
# but for the findings lint.sh's cp_ignores exempts in their file, with
# its reasons (the engine's X-macro tables, the assembler's host C, the
# bin_attribute vpmu_uhist.c allocates); prints what is left, fails if
# anything is.
checkpatch_series() {
	local f ign

	ign=$(mktemp)
	eval "$(sed -n '/^cp_ignores()/,/^}/p' "$TOP/tools/testing/lint.sh")"
	for f in $(sed -n 's|^+++ b/||p' "$1"); do
		echo "$f $(cp_ignores "$f")"
	done >"$ign"
	# Debian's python3 (spdxcheck.py needs its ply), whatever PATH has.
	# checkpatch.pl exits 1 on any finding, an exempted one too: what is
	# left decides (the script below).
	{ PATH=/usr/bin:$PATH "$TREE/scripts/checkpatch.pl" --strict --quiet \
		--no-signoff --show-types --no-summary "$1" 2>&1 || true; } |
		python3 -c '
import re, sys
ign = {}
for line in open(sys.argv[1]):
    path, types = line.split()
    ign[path] = set(types.split(","))
left = 0
text = sys.stdin.read()
if "Traceback" in text:
    print(text)
    left += 1
# A finding is a block: its type line, then "#N: FILE: path:line:" and the
# lines quoted; a block without a type line is an explanation of one.
for block in text.split("\n\n"):
    m = re.search(r"^(ERROR|WARNING|CHECK):(\w+):", block, re.M)
    if not m:
        continue
    f = re.search(r"FILE: ([^:]+):", block)
    if f and m.group(2) in ign.get(f.group(1), ()):
        continue
    left += 1
    print(block.strip() + "\n")
sys.exit(1 if left else 0)' "$ign"
	local rc=$?
	rm -f "$ign"
	return $rc
}

check_series() {
	local out=$1 n=0 f subj

	# python3-ply and python3-git: checkpatch's spdxcheck.py (7.x's
	# imports git)
	ensure_pkgs sparse flex bison bc libelf-dev libssl-dev python3-ply \
		python3-git >&2
	echo "TAP version 13"
	echo "1..$((${#PARTS[@]} * 3 + 4))"
	check_am "$out"
	for f in "$out"/[0-9][0-9][0-9][0-9]-*.patch; do
		case ${f##*/} in 0000-*) continue ;; esac
		n=$((n + 1))
		subj=$(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$f")
		if checkpatch_series "$f" >"$f.cp" 2>&1; then
			tap ok "patch $n passes checkpatch --strict ($subj)"
		else
			tap fail "patch $n passes checkpatch --strict ($subj)"
			sed 's/^/# /' "$f.cp"
		fi
		rm -f "$f.cp"
		check_builds "$n" "$subj"
	done
	check_boot
	check_htmldocs
	echo "$((ntap - nfail)) passed, $nfail failed"
	[ "$nfail" -eq 0 ]
}

mkdir -p "$SDIR"
[ -n "$KVER" ] || KVER=$(newest_7)
[ -n "$KVER" ] || die "no linux-source-7.x in trixie(-backports)"
case $KVER in
[0-9]*.[0-9]*) ;;
*) die "KVER is major.minor (6.12, 7.3), not $KVER" ;;
esac
base_tree
OUT=$TOP/upstream/vpmu
[ -z "${1:-}" ] || OUT=$TOP/upstream/vpmu-$KVER
make_series "$OUT"
if [ "$CHECK" = 1 ]; then
	check_series "$OUT"
fi
