# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib/builds.sh - what the VM harness builds from the work tree, in
# copies of it: vpmu.ko (on the host, or in the trixie root for the
# newest kernel), the self-check's helper modules, the selftests and the
# tools, and vpmu's kselftests in a kernel tree's tools/testing/selftests
# (sourced by ../lib.sh).

# --- source tree copies and builds ----------------------------------------

# sync_tree NAME [DIR] - copy the work tree (minus .git and anything
# .gitignore'd, so build products never travel) to DIR/NAME (default
# $VM_SRC, the work tree's own); echoes the copy.  Build products inside
# the copy are protected from --delete by the same filter, so rebuilds
# are incremental.
sync_tree() {
	local dst=${2:-$VM_SRC}/$1

	mkdir -p "$dst"
	# By content, and a copied file gets the time of the copy: with the
	# source's time, a file that changed back (another work tree using
	# the same cache) would look older than what was built from the
	# other version, and make would not rebuild it.
	rsync -rlpD --checksum --delete --exclude=/.git \
		--filter=':- .gitignore' "$TOP/" "$dst/"
	printf '%s\n' "$dst"
}

# build_module NAME KDIR - build vpmu.ko through the wrapper Makefile in
# the copy $CACHE/src/NAME, one a kernel and every work tree's; sets
# MODULE_KO to the work tree's own copy of the result
# ($VM_TREE/ko/NAME.ko).  The copy is synced by content (sync_tree), so a
# work tree with the sources of the last build, a fresh clone of the same
# commit included, builds nothing, and another rebuilds what differs;
# kbuild records the sources by their absolute paths, so a copy in each
# work tree's place would compile every object again for each new clone.
# Builds of one copy wait for each other (two makes in one tree race:
# vpmu-as rewritten while the other runs it), and the .ko is copied out
# before the next may change it.
build_module() {
	local name=$1 kdir=$2 src lock

	mkdir -p "$CACHE/src"
	exec {lock}>"$CACHE/src/$name.lock"
	flock "$lock"
	src=$(sync_tree "$name" "$CACHE/src")
	log "building vpmu.ko for $name"
	if ! make -C "$src" modules KDIR="$kdir" >"$src/.vpmu-build.log" 2>&1; then
		tail -n 40 "$src/.vpmu-build.log" >&2
		die "module build for $name failed (log: $src/.vpmu-build.log)"
	fi
	module_out "$name" "$src/drivers/perf/vpmu/vpmu.ko"
	exec {lock}>&-
}

# module_out NAME KO - KO copied to $VM_TREE/ko/NAME.ko, as MODULE_KO.
module_out() {
	[ -f "$2" ] || die "no $2 after build"
	mkdir -p "$VM_TREE/ko"
	MODULE_KO=$VM_TREE/ko/$1.ko
	cp "$2" "$MODULE_KO.tmp.$$"
	mv "$MODULE_KO.tmp.$$" "$MODULE_KO"
}

# build_module_in_root NAME KDIR - build vpmu.ko in the trixie root, from a
# tree copy inside it (every work tree's, as build_module's); sets
# MODULE_KO to the work tree's copy of it.
build_module_in_root() {
	local name=$1 kdir=$2 src=$TRIXIE_ROOT/build/$1 lock

	mkdir -p "$src"
	exec {lock}>"$src.lock"
	flock "$lock"
	rsync -rlpD --checksum --delete --exclude=/.git --filter=':- .gitignore' \
		"$TOP/" "$src/"
	log "building vpmu.ko for $name (trixie root)"
	if ! in_root make -C "/build/$name" modules KDIR="$kdir" \
			>"$src/.vpmu-build.log" 2>&1; then
		tail -n 40 "$src/.vpmu-build.log" >&2
		die "module build for $name failed (log: $src/.vpmu-build.log)"
	fi
	module_out "$name" "$src/drivers/perf/vpmu/vpmu.ko"
	exec {lock}>&-
}

# kdir_id KDIR - what identifies a kernel tree to a module built against
# it: its real path and a hash of its auto.conf, as the top Makefile's
# KDIR_STAMP records them.
kdir_id() {
	echo "$(realpath "$1") $(sha256sum <"$1/include/config/auto.conf" 2>/dev/null | cut -c1-16)"
}

# build_extra_module DIR NAME KDIR - build an out-of-tree helper module
# (selfcheck injectors) in a cache copy; echoes the .ko.  A copy last
# built against another kernel tree, or the same tree configured anew,
# starts over (the top Makefile's KDIR_STAMP says why).
build_extra_module() {
	local dir=$1 name=$2 kdir=$3 dst=$VM_SRC/extra-$2 id

	id=$(kdir_id "$kdir")
	if [ "$(cat "$dst/.vpmu-kdir" 2>/dev/null)" != "$id" ]; then
		rm -rf "$dst"
	fi
	mkdir -p "$dst"
	rsync -a --delete --exclude='*.o' --exclude='*.ko' "$dir/" "$dst/"
	echo "$id" >"$dst/.vpmu-kdir"
	make -C "$kdir" M="$dst" modules >"$dst/.build.log" 2>&1 ||
		{ tail -n 30 "$dst/.build.log" >&2; die "build of $dir failed"; }
	ls "$dst"/*.ko
}

# ksft_headers - extract what selftests/vpmu builds on from Debian's
# linux-source tarball (never copied into the repo): kselftest.h,
# kselftest_harness.h, lib.mk and the runner scripts, laid out as in
# tools/testing/selftests; sets KSFT_INC.
ksft_headers() {
	local ver dir s=linux-source-6.1/tools/testing/selftests

	ver=$(dpkg-query -W -f='${Version}' "$LINUX_SRC_PKG")
	dir=$CACHE/ksft/$ver
	if [ ! -f "$dir/lib.mk" ]; then
		log "extracting the kselftest framework from $LINUX_SRC_TAR"
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp"
		tar -xJf "$LINUX_SRC_TAR" -C "$dir.tmp" --strip-components=4 \
			$s/kselftest.h $s/kselftest_harness.h $s/lib.mk \
			$s/kselftest $s/run_kselftest.sh
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
	fi
	ln -sfn "$ver" "$CACHE/ksft/include"
	KSFT_INC=$dir
}

# build_userspace - selftests and (when they exist) tools, built once per
# run in a host tree copy; sets USER_SRC.
build_userspace() {
	local lock

	# Checks that run at once (the pkg tier's boots, the self-check
	# beside the vm tier) share the copy: one builds while the others
	# wait, then find it built.
	mkdir -p "$VM_SRC"
	exec {lock}>"$VM_SRC/host.lock"
	flock "$lock"
	ksft_headers
	USER_SRC=$(sync_tree host)
	export USER_SRC KSFT_INC
	log "building selftests"
	make -C "$USER_SRC/selftests/vpmu" KSFT_INC="$KSFT_INC" \
		>"$USER_SRC/.selftests-build.log" 2>&1 ||
		{ tail -n 40 "$USER_SRC/.selftests-build.log" >&2
		  die "selftests build failed"; }
	if [ -f "$USER_SRC/tools/vpmu/Makefile" ]; then
		log "building tools"
		# A broken tools build must not hide the kernel-side results:
		# the guest runs without (some) tools and the run is failed.
		if ! make -C "$USER_SRC" tools >"$USER_SRC/.tools-build.log" 2>&1; then
			tail -n 40 "$USER_SRC/.tools-build.log" >&2
			log "tools build FAILED; the runs will be failed"
			export TOOLS_BUILD_FAILED=1
		fi
	else
		log "tools/vpmu has no Makefile yet; no tools in the guest"
	fi
	exec {lock}>&-
}

# --- the kselftest target in a kernel tree ----------------------------------

# The kernel source whose tools/testing/selftests builds and installs vpmu's
# kselftests for the vm-6.12 run (prepare_kernel).
KSFT_TREE_PKG=linux-source-6.12

# build_ksft_tree - $KSFT_TREE_PKG's tools/testing/selftests (and the few
# files tools/pkg/in-tree.sh edits), vpmu added by in-tree.sh from the
# build_userspace copy, then built and installed as a kernel developer
# would (ksft_install), and copied for the guest (ksft_for_guest).  Sets
# KSFT_TREE_INSTALL.
build_ksft_tree() {
	local ver dir tree s log lock

	ensure_pkgs "$KSFT_TREE_PKG"
	ver=$(dpkg-query -W -f='${Version}' "$KSFT_TREE_PKG")
	# Every work tree's, as build_module's copies: in-tree.sh writes only
	# the files that differ, so a fresh clone of the sources built last
	# builds nothing.  One build at a time; the install is copied out
	# to the work tree's own place before the next may change it.
	dir=$CACHE/ksft-tree/$ver
	mkdir -p "$CACHE/ksft-tree"
	exec {lock}>"$dir.lock"
	flock "$lock"
	tree=$dir/$KSFT_TREE_PKG
	s=$KSFT_TREE_PKG/tools/testing/selftests
	log=$dir/build.log
	if [ ! -f "$dir/.extracted" ]; then
		log "extracting the selftests framework of $KSFT_TREE_PKG"
		rm -rf "$dir"
		mkdir -p "$dir"
		tar -xJf "/usr/src/$KSFT_TREE_PKG.tar.xz" -C "$dir" \
			$s/Makefile $s/lib.mk $s/kselftest.h $s/kselftest_harness.h \
			$s/kselftest $s/kselftest_install.sh $s/run_kselftest.sh \
			$KSFT_TREE_PKG/scripts/subarch.include \
			$KSFT_TREE_PKG/drivers/perf/Kconfig \
			$KSFT_TREE_PKG/drivers/perf/Makefile
		touch "$dir/.extracted"
	fi
	log "building the vpmu kselftests in $KSFT_TREE_PKG's tree (log: $log)"
	rm -rf "$dir/install"
	mkdir -p "$dir/install"
	if ! { "$USER_SRC/tools/pkg/in-tree.sh" "$tree" &&
	       ksft_install "$tree" "$dir/install"; } >"$log" 2>&1; then
		tail -n 40 "$log" >&2
		die "the vpmu kselftests do not build and install in $KSFT_TREE_PKG's tree ($log)"
	fi
	ksft_for_guest "$dir/install" "$VM_TREE/ksft-install/$ver"
	exec {lock}>&-
}

# ksft_install TREE DEST - the vpmu kselftests of kernel tree TREE built
# and installed as a kernel developer does: "make -C
# tools/testing/selftests TARGETS=vpmu", then kselftest_install.sh into
# DEST (which must exist) for TARGETS=vpmu only; what they print to
# stdout and stderr.  False unless each step succeeds and DEST's
# kselftest-list.txt lists the vpmu programs (build_ksft_tree, and make
# series SERIES_CHECK=1's check_am).  7.x's lib.mk installs with rsync,
# which a fresh machine may lack until the VM tier's packages are in.
ksft_install() {
	local s=$1/tools/testing/selftests

	ensure_pkgs rsync &&
	make -C "$s" TARGETS=vpmu -j"$(nproc)" &&
	(cd "$s" && MAKEFLAGS="TARGETS=vpmu" ./kselftest_install.sh "$2") &&
	grep -qx 'vpmu:vpmu_registered' "$2/kselftest-list.txt"
}

# ksft_for_guest INSTALL DEST - a copy of the kselftest install INSTALL
# at DEST, this work tree's own, with the random RV32 programs of this
# tree's build added (a kernel tree cannot make them).  Sets
# KSFT_TREE_INSTALL to DEST.
# shellcheck disable=SC2034 # KSFT_TREE_INSTALL: prepare_kernel's (guest.sh)
ksft_for_guest() {
	KSFT_TREE_INSTALL=$2
	rm -rf "$KSFT_TREE_INSTALL"
	mkdir -p "${KSFT_TREE_INSTALL%/*}"
	cp -a "$1" "$KSFT_TREE_INSTALL"
	if [ -d "$USER_SRC/selftests/vpmu/rv32" ]; then
		cp -a "$USER_SRC/selftests/vpmu/rv32" "$KSFT_TREE_INSTALL/vpmu/"
	fi
}

# series_ksft - the kselftests make series SERIES_CHECK=1 installed from
# its patched tree ($VPMU_SERIES_KSFT, ksft_install's output), copied for
# the guest (ksft_for_guest).  Sets KSFT_TREE_INSTALL.
series_ksft() {
	ksft_for_guest "$VPMU_SERIES_KSFT" \
		"$VM_TREE/ksft-install/series-$VPMU_SERIES_KVER"
}
