# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib/debug.sh - the debug kernels (make debug-check), built here from
# Debian's linux-source with the config fragments and the patch series,
# vpmu built in when the fragments say so, cached by key (sourced by
# ../lib.sh, after flavours.sh: VM_FLAVOURS names the series).

# Series the debug tier builds, each from Debian's linux-source of its
# kernel series: the debug flavours' kernels (VM_FLAVOURS), "6.1 6.12
# 6.12-kcsan".
DEBUG_SERIES=$(awk '$3 == "debug" { sub(/^debug-/, "", $4); print $4 }' \
	<<<"$VM_FLAVOURS" | sort -u -V | paste -sd' ')

# Kernel patch series (git format-patch output in upstream/, README.md
# there) applied to a debug tree, by series; the kselftests they add run in
# its guest (build_series_selftests).
debug_patch_dirs() {
	case "$1" in
	6.12|6.12-*)	echo "$TOP/upstream/perf-detached-leader" ;;
	esac
}

# debug_setup SERIES - sets DBG_SRC (the kernel series: SERIES up to its
# first "-"), DBG_SRC_PKG, DBG_SRC_TAR, DBG_FRAGMENTS (the common
# debug.config, then debug-DBG_SRC.config when the kernel series needs
# something different, then for SERIES X-VARIANT debug-VARIANT.config;
# where two set one option the last one wins) and DBG_PATCHES (every
# patch of the series' debug_patch_dirs but the cover letters, in order).
# SERIES 6.12-kcsan: 6.12 with debug-kcsan.config (KCSAN, not KASAN).
debug_setup() {
	local d p

	case " $DEBUG_SERIES " in
	*" $1 "*) ;;
	*) die "no debug kernel for series $1 (have: $DEBUG_SERIES)" ;;
	esac
	DBG_SRC=${1%%-*}
	DBG_SRC_PKG=linux-source-$DBG_SRC
	DBG_SRC_TAR=/usr/src/linux-source-$DBG_SRC.tar.xz
	DBG_FRAGMENTS=("$VM_DIR/debug.config")
	if [ -f "$VM_DIR/debug-$DBG_SRC.config" ]; then
		DBG_FRAGMENTS+=("$VM_DIR/debug-$DBG_SRC.config")
	fi
	if [ "$1" != "$DBG_SRC" ]; then
		[ -f "$VM_DIR/debug-${1#*-}.config" ] ||
			die "no debug-${1#*-}.config for series $1"
		DBG_FRAGMENTS+=("$VM_DIR/debug-${1#*-}.config")
	fi
	DBG_PATCHES=()
	for d in $(debug_patch_dirs "$1"); do
		for p in "$d"/[0-9][0-9][0-9][0-9]-*.patch; do
			[ -f "$p" ] || die "no patches in $d"
			case "${p##*/}" in 0000-*) continue ;; esac
			DBG_PATCHES+=("$p")
		done
	done
}

# debug_kernel_key - linux-source version + hash of the config fragments
# and of the patches' diffs (for a series with only debug.config and no
# patches, the hash of that file).  A patch's commit message is not part of
# the tree: editing it does not rebuild the kernel.
debug_kernel_key() {
	local ver

	ver=$(dpkg-query -W -f='${Version}' "$DBG_SRC_PKG")
	printf '%s-%s\n' "$ver" "$( {
		cat "${DBG_FRAGMENTS[@]}"
		if [ ${#DBG_PATCHES[@]} -gt 0 ]; then
			sed -n '/^diff --git /,/^-- $/p' "${DBG_PATCHES[@]}"
		fi
	} | sha256sum | cut -c1-12)"
}

# fragment_lines - the fragments' option lines, each option's last one
# (a later fragment overrides an earlier: debug-kcsan.config turns KASAN
# off), in the order of first appearance.
fragment_lines() {
	cat "${DBG_FRAGMENTS[@]}" | awk '
		/^CONFIG_[A-Za-z0-9_]+=/ { o = $0; sub(/=.*/, "", o) }
		/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { o = $2 }
		/^CONFIG_|^# CONFIG_.* is not set$/ {
			if (!(o in line)) order[n++] = o
			line[o] = $0
		}
		END { for (i = 0; i < n; i++) print line[order[i]] }'
}

# check_debug_config CONFIG - every =y line of the fragments must be =y in
# CONFIG, every "is not set" line must not be =y (fragment_lines).
check_debug_config() {
	local cfg=$1 bad=0 line opt

	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qx "$line" "$cfg" || {
				log "debug config: wanted $line, got:" \
				    "$(grep -E "^(# )?${line%%=*}[= ]" "$cfg" || echo unset)"
				bad=1
			} ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# }
			opt=${opt%% *}
			! grep -q "^$opt=y" "$cfg" || {
				log "debug config: wanted $opt off, it is on"
				bad=1
			} ;;
		esac
	done < <(fragment_lines)
	return $bad
}

# apply_fragment - scripts/config every line of the fragments into .config.
apply_fragment() {
	local line opt val

	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			opt=${line%%=*}
			val=${line#*=}
			case "$val" in
			y)	scripts/config --enable "${opt#CONFIG_}" ;;
			*)	scripts/config --set-val "${opt#CONFIG_}" "$val" ;;
			esac ;;
		"# CONFIG_"*" is not set")
			opt=${line#\# CONFIG_}
			scripts/config --disable "${opt%% *}" ;;
		esac
	done < <(fragment_lines)
}

# --- vpmu built into a debug kernel (CONFIG_PERF_VPMU=y in its fragments) ---

# debug_vpmu_builtin - do the fragments build vpmu into the kernel?
debug_vpmu_builtin() {
	fragment_lines | grep -qx 'CONFIG_PERF_VPMU=y'
}

# debug_vpmu_sync TREE - put this work tree's vpmu into the kernel TREE
# (tools/pkg/in-tree.sh, run from a cache copy, where it also makes the
# generated headers); only changed files are written.
debug_vpmu_sync() {
	local src

	src=$(sync_tree intree)
	"$src/tools/pkg/in-tree.sh" "$1"
}

# debug_vpmu_sum TREE - a checksum of vpmu's files that the kernel build
# reads in TREE (not its documentation or selftests).
debug_vpmu_sum() {
	(cd "$1" && cat drivers/perf/vpmu/*.[ch] drivers/perf/vpmu/engine/*.[ch] \
		drivers/perf/vpmu/Kconfig \
		drivers/perf/vpmu/Makefile include/uapi/linux/vpmu.h \
		drivers/perf/Kconfig drivers/perf/Makefile) | sha256sum
}

# debug_vpmu_seed DIR - copy another work tree's build of the same kernel
# (the same key) into DIR, if there is one: the refresh that follows
# rebuilds only what differs, instead of the whole kernel.
debug_vpmu_seed() {
	local dir=$1 other olock from to

	for other in "$CACHE"/tree/*/debug-kernel/"${dir##*/}"; do
		[ "$other" != "$dir" ] && [ -f "$other/.done" ] || continue
		log "$KVER: copying the kernel tree built for another work tree ($other)"
		# Not while its owner rebuilds it.
		exec {olock}>"$other.lock"
		flock -s "$olock"
		rm -rf "$dir" "$dir.tmp"
		if cp -a "$other" "$dir.tmp"; then
			# objtool's build records absolute paths: pointed at the
			# copy, or make rebuilds objtool and every object after it.
			from=$(realpath "$other")
			to=$(realpath "${dir%/*}")/${dir##*/}
			grep -rlF --include='*.cmd' --include='*.d' "$from" \
				"$dir.tmp" | xargs -r sed -i "s|$from|$to|g"
			mv "$dir.tmp" "$dir"
		fi
		exec {olock}>&-
		[ -f "$dir/.done" ] && return 0
	done
	return 0
}

# debug_vpmu_warnings LOG - a kernel build's LOG has no compiler, sparse
# or objtool warning about vpmu (the debug kernels build for size, -Os,
# where objtool reads the engine's jump tables differently than at -O2).
debug_vpmu_warnings() {
	if grep -E 'drivers/perf/vpmu/.*(warning|error):|objtool: vpmu_' "$1" |
	   sort -u | grep .; then
		die "$KVER: the kernel build warned about vpmu ($1)"
	fi
}

# debug_vpmu_refresh DIR TREE - a built tree that carries vpmu: put this
# work tree's vpmu into it and, when what the kernel build reads of it
# differs from the last good build's (DIR/.vpmu-built), rebuild
# incrementally: vpmu's objects and the link.
debug_vpmu_refresh() {
	local dir=$1 tree=$2 out start sum

	out=$(debug_vpmu_sync "$tree" 2>&1) ||
		{ printf '%s\n' "$out" >&2; die "adding vpmu to $tree failed"; }
	sum=$(debug_vpmu_sum "$tree")
	if [ "$(cat "$dir/.vpmu-built" 2>/dev/null)" = "$sum" ]; then
		return 0
	fi
	log "$KVER: vpmu changed; rebuilding the kernel (log: $dir/vpmu-build.log)"
	start=$SECONDS
	rm -f "$dir/.vpmu-built"
	if ! make -C "$tree" ARCH=x86_64 -j"$(nproc)" >"$dir/vpmu-build.log" 2>&1
	then
		tail -n 40 "$dir/vpmu-build.log" >&2
		die "$KVER: kernel build with vpmu failed ($dir/vpmu-build.log)"
	fi
	debug_vpmu_warnings "$dir/vpmu-build.log"
	echo "$sum" >"$dir/.vpmu-built"
	log "$KVER: kernel rebuilt with vpmu in $((SECONDS - start))s"
}

# build_debug_kernel SERIES - tinyconfig + the debug fragments from Debian's
# linux-source-SERIES, cached by key under $CACHE/debug-kernel; sets
# VMLINUZ, KDIR, KVER (debug-SERIES).  Takes ~15-25 min cold on 2 cores.
# A series whose fragments set CONFIG_PERF_VPMU=y carries vpmu built in:
# it is added to the tree before the first build and brought up to date,
# incrementally, every time after.
# shellcheck disable=SC2034 # VMLINUZ, KDIR, KDESC: prepare_kernel's (guest.sh)
build_debug_kernel() {
	local series=$1 key dir tree lock

	debug_setup "$series"
	ensure_debug_build_deps
	ensure_pkgs "$DBG_SRC_PKG"
	key=$(debug_kernel_key)
	dir=$CACHE/debug-kernel/$key
	# With vpmu built in the tree holds this work tree's vpmu: it is the
	# work tree's own, as its copies are.
	if debug_vpmu_builtin; then
		dir=$VM_TREE/debug-kernel/$key
	fi
	tree=$dir/linux-source-$DBG_SRC
	VMLINUZ=$tree/arch/x86/boot/bzImage
	KDIR=$tree
	KVER=debug-$series
	KDESC="$KVER (Debian $DBG_SRC_PKG $key)"
	# One build of a tree at a time: make check starts these builds in
	# the background while the first tiers run, and whoever comes second
	# waits here for the first to finish (the lock goes with the process).
	mkdir -p "${dir%/*}"
	exec {lock}>"$dir.lock"
	flock "$lock"
	if [ ! -f "$dir/.done" ] && debug_vpmu_builtin; then
		debug_vpmu_seed "$dir"
	fi
	if [ -f "$dir/.done" ]; then
		if debug_vpmu_builtin; then
			debug_vpmu_refresh "$dir" "$tree"
		fi
		exec {lock}>&-
		return 0
	fi
	log "building debug kernel $key (log: $dir/build.log)"
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -xJf "$DBG_SRC_TAR" -C "$dir"
	for p in "${DBG_PATCHES[@]}"; do
		patch -d "$tree" -p1 --forward --batch <"$p" >>"$dir/patch.log" 2>&1 ||
			die "${p#"$TOP"/} does not apply to $DBG_SRC_PKG ($dir/patch.log)"
	done
	if debug_vpmu_builtin; then
		debug_vpmu_sync "$tree" >"$dir/build.log" 2>&1 ||
			die "adding vpmu to $tree failed ($dir/build.log)"
	fi
	(
		cd "$tree"
		make ARCH=x86_64 tinyconfig
		# Twice: options enabled the first time can unlock others.
		for _ in 1 2; do
			apply_fragment
			make ARCH=x86_64 olddefconfig
		done
	) >>"$dir/build.log" 2>&1 || die "debug kernel config failed ($dir/build.log)"
	check_debug_config "$tree/.config" ||
		die "debug kernel config is missing required options"
	# A full build (not just bzImage) also writes Module.symvers, which
	# out-of-tree module builds against this tree need.
	if ! make -C "$tree" ARCH=x86_64 -j"$(nproc)" >>"$dir/build.log" 2>&1; then
		tail -n 40 "$dir/build.log" >&2
		die "debug kernel build failed ($dir/build.log)"
	fi
	build_series_selftests "$tree" >>"$dir/build.log" 2>&1 ||
		die "the patches' kselftests do not build ($dir/build.log)"
	if debug_vpmu_builtin; then
		debug_vpmu_warnings "$dir/build.log"
		debug_vpmu_sum "$tree" >"$dir/.vpmu-built"
	fi
	touch "$dir/.done"
	exec {lock}>&-
	log "debug kernel $key ready"
}

# build_series_selftests TREE - the kselftests DBG_PATCHES add or change
# (tools/testing/selftests/DIR/NAME.c), built static against TREE's
# headers into TREE/.vpmu-selftests/DIR_NAME.  A file the series only
# adds tests to runs just those: its program goes to .DIR_NAME (which the
# guest gets but does not list, lib/initramfs.sh) and DIR_NAME is a
# script running it with -t for each (its other tests may need what a
# guest lacks, remove_on_exec.c's a hardware PMU).
build_series_selftests() {
	local tree=$1 out=$1/.vpmu-selftests src kind tests name

	rm -rf "$out"
	mkdir -p "$out"
	[ ${#DBG_PATCHES[@]} -gt 0 ] || return 0
	make -C "$tree" ARCH=x86_64 headers
	while read -r src kind tests; do
		name=${src#tools/testing/selftests/}
		name=${name%.c}
		name=${name//\//_}
		if [ "$kind" = new ]; then
			tests=
		elif [ -z "$tests" ]; then
			continue
		fi
		gcc -O2 -g -Wall -static -isystem "$tree/usr/include" \
			-I"$tree/tools/testing/selftests" \
			-o "$out/${tests:+.}$name" "$tree/$src" -lpthread || return 1
		[ -n "$tests" ] || continue
		# $0 is the script's, in the guest; $tests one name a word.
		# shellcheck disable=SC2016,SC2086
		printf '#!/bin/sh\nexec "${0%%/*}/.%s"%s\n' "$name" \
			"$(printf ' -t %s' $tests)" >"$out/$name"
		chmod +x "$out/$name"
	done < <(series_selftests "${DBG_PATCHES[@]}")
}

# series_selftests PATCH... - "FILE new" for each kselftest source the
# patches create, "FILE mod TEST..." for each they change, with the tests
# (TEST(), TEST_F() and TEST_F_TIMEOUT() names) their added lines define.
series_selftests() {
	awk '
	/^diff --git / { file = ""; isnew = 0 }
	/^--- \/dev\/null$/ { isnew = 1 }
	/^\+\+\+ b\/tools\/testing\/selftests\/.*\.c$/ {
		file = substr($2, 3)
		if (!(file in kind)) order[n++] = file
		if (isnew) kind[file] = "new"
		else if (kind[file] != "new") kind[file] = "mod"
		next
	}
	file != "" && match($0, /^\+TEST(_F|_F_TIMEOUT)?\([^)]*\)/) {
		t = substr($0, RSTART, RLENGTH)
		sub(/^\+TEST(_F|_F_TIMEOUT)?\(/, "", t)
		sub(/\)$/, "", t)
		k = split(t, a, /, */)
		name = (k > 1) ? a[2] : a[1]
		tests[file] = tests[file] " " name
	}
	END {
		for (i = 0; i < n; i++)
			print order[i], kind[order[i]] tests[order[i]]
	}' "$@"
}
