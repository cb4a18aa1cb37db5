# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib/initramfs.sh - the guest's initramfs: a base of busybox, perf and
# their libraries, cached, and each run's overlay with /init, the module,
# the tools, the kselftests and share/, or an installation's files
# instead of those three (VPMU_GUEST_ROOT) (sourced by ../lib.sh).

# real_perf - bookworm's /usr/bin/perf may be a wrapper script that execs
# perf_<version>; find the ELF binary either way.
real_perf() {
	local p f

	p=$(command -v perf) || die "no perf binary (linux-perf)"
	if head -c 4 "$p" | grep -q ELF; then
		printf '%s\n' "$p"
		return
	fi
	for f in /usr/bin/perf_[0-9]*; do
		[ -x "$f" ] && head -c 4 "$f" | grep -q ELF && p=$f
	done
	head -c 4 "$p" | grep -q ELF || die "cannot find the real perf binary"
	printf '%s\n' "$p"
}

# copy_elf ROOT FILE [DEST] - copy an executable and every shared library it
# needs (ldd, plus the dynamic loader) into ROOT, libraries at their paths.
copy_elf() {
	local root=$1 file=$2 dest=${3:-$2}

	mkdir -p "$root/$(dirname "$dest")"
	cp -L "$file" "$root/$dest"
	copy_libs "$root" "$file"
}

# copy_libs ROOT FILE - copy the shared libraries FILE needs (none for a
# script or a static program) into ROOT, at their paths.
copy_libs() {
	local root=$1 file=$2 lib

	for lib in $(ldd "$file" 2>/dev/null |
			grep -oE '/[^ ]+' | grep -v ':' || true); do
		[ -f "$root/$lib" ] && continue
		mkdir -p "$root/$(dirname "$lib")"
		cp -L "$lib" "$root/$lib"
	done
}

# build_base_initramfs - busybox + perf + libraries, cached by the package
# versions and this file's hash; sets BASE_CPIO.  Not compressed, as the
# guest's whole initramfs (build_initrd): the debug kernels' zlib is
# instrumented, every byte a check, and their guests spent most of their
# boot inflating its 94 MB under TCG (6.12-kcsan on a busy machine: 53 s
# from the serial driver to "Freeing initrd memory" gzipped, 2.4 s as it
# is; in make check, vpmu's load 16 s into its boot rather than 41,
# debug-6.12-fault's 17 rather than 32).  QEMU loads the file as fast
# either way.
build_base_initramfs() {
	local key root perf a lock

	perf=$(real_perf)
	# By content: sha256sum's lines also name the files, and this one
	# lives in each work tree.
	key=$( { dpkg-query -W -f='${Version}\n' busybox-static linux-perf
		 sha256sum "$perf" "${BASH_SOURCE[0]}" | cut -d' ' -f1; } |
		sha256sum | cut -c1-12)
	BASE_CPIO=$CACHE/initramfs/base-$key.cpio
	[ -s "$BASE_CPIO" ] && return 0
	# One build at a time (runs of several tiers start at once); the
	# others find it made.
	mkdir -p "$CACHE/initramfs"
	exec {lock}>"$CACHE/initramfs/base.lock"
	flock "$lock"
	if [ -s "$BASE_CPIO" ]; then
		exec {lock}>&-
		return 0
	fi
	log "building base initramfs"
	root=$CACHE/initramfs/base-root
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,root,etc}
	cp /bin/busybox "$root/bin/busybox"
	for a in $("$root/bin/busybox" --list-full); do
		[ -e "$root/$a" ] || ln -s /bin/busybox "$root/$a"
	done
	copy_elf "$root" "$perf" /usr/bin/perf
	# kselftest's runner runs each test under "timeout --foreground",
	# which busybox's timeout lacks (its link is replaced, not written
	# through).
	rm -f "$root/usr/bin/timeout"
	copy_elf "$root" /usr/bin/timeout
	echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
	echo 'root:x:0:' >"$root/etc/group"
	(cd "$root" && find . | LC_ALL=C sort |
		cpio -o -H newc --quiet) >"$BASE_CPIO.tmp"
	mv "$BASE_CPIO.tmp" "$BASE_CPIO"
	rm -rf "$root"
	exec {lock}>&-
}

# install_kselftest DIR - the selftests as kselftest installs them into DIR:
# run_kselftest.sh and its kselftest/ scripts, kselftest-list.txt and vpmu/
# (lib.mk's install); the run's build_ksft_tree install (VM_RUN[ksft])
# when it has one, else this tree's build (build_userspace) with
# linux-source-6.1's runner.
install_kselftest() {
	local dir=$1

	if [ -n "${VM_RUN[ksft]:-}" ]; then
		cp -a "${VM_RUN[ksft]}" "$dir"
		return
	fi
	mkdir -p "$dir"
	make -s -C "$USER_SRC/selftests/vpmu" KSFT_INC="$KSFT_INC" \
		INSTALL_PATH="$dir/vpmu" install >/dev/null
	make -s --no-print-directory -C "$USER_SRC/selftests/vpmu" \
		KSFT_INC="$KSFT_INC" COLLECTION=vpmu emit_tests \
		>"$dir/kselftest-list.txt"
	cp -a "$KSFT_INC/run_kselftest.sh" "$KSFT_INC/kselftest" "$dir/"
}

# install_root ROOT DIR - DIR's files (an installation) into ROOT, with the
# shared libraries of its executables, and the mark /opt/vpmu/installed.
install_root() {
	local root=$1 dir=$2 f

	[ -d "$dir" ] || die "VPMU_GUEST_ROOT: no directory $dir"
	cp -a "$dir/." "$root/"
	while IFS= read -r f; do
		copy_libs "$root" "$f"
	done < <(find "$dir" -type f -perm -u+x)
	touch "$root/opt/vpmu/installed"
}

# build_initrd OUTDIR KO [EXTRA_KO...] - base + an overlay with /init, the
# module (none if KO is ""), tools, selftests, share/,
# $VPMU_EXTRA_SELFTESTS and the run's VM_RUN[selftests] (their dot files
# installed but not listed); sets
# VM_RUN[initrd].  With $VPMU_GUEST_ROOT, a directory holding an
# installation (the pkg tier's: the packages' files, the module under
# /lib/modules with its modules.dep), that directory's files and the
# shared libraries of its programs take the place of the module, the
# tools and share/, and /opt/vpmu/installed tells /init so (KO must be "").
build_initrd() {
	local out=$1 ko=$2 root f initrd extra=()
	shift 2

	build_base_initramfs
	root=$out/overlay
	rm -rf "$root"
	mkdir -p "$root/opt/vpmu"/{bin,extra}
	install -m 0755 "$VM_DIR/guest/init" "$root/init"
	install -m 0755 "$VM_DIR/guest/run-tests.sh" "$VM_DIR/guest/demo.sh" \
		"$root/opt/vpmu/"
	if [ -n "$ko" ]; then
		cp "$ko" "$root/opt/vpmu/vpmu.ko"
	fi
	for f in "$@"; do
		cp "$f" "$root/opt/vpmu/extra/"
	done
	if [ -n "${VPMU_GUEST_ROOT:-}" ]; then
		install_root "$root" "$VPMU_GUEST_ROOT"
	else
		for f in "$USER_SRC"/tools/vpmu/vpmu-*; do
			if [ ! -f "$f" ] || [ ! -x "$f" ]; then
				continue
			fi
			copy_elf "$root" "$f" "/opt/vpmu/bin/$(basename "$f")"
		done
	fi
	install_kselftest "$root/opt/vpmu/kselftest"
	ln -s kselftest/vpmu "$root/opt/vpmu/selftests"
	# shellcheck disable=SC2206 # a list of paths, split on blanks
	extra=(${VPMU_EXTRA_SELFTESTS:-})
	if [ -n "${VM_RUN[selftests]:-}" ]; then
		for f in "${VM_RUN[selftests]}"/* "${VM_RUN[selftests]}"/.[!.]*; do
			if [ -f "$f" ]; then
				extra+=("$f")
			fi
		done
	fi
	# A dot file is a program a listed script runs (lib/debug.sh,
	# build_series_selftests): installed, not listed.
	for f in "${extra[@]}"; do
		install -m 0755 "$f" "$root/opt/vpmu/selftests/"
		case "${f##*/}" in .*) continue ;; esac
		echo "vpmu:${f##*/}" >>"$root/opt/vpmu/kselftest/kselftest-list.txt"
	done
	if [ -z "${VPMU_GUEST_ROOT:-}" ] && [ -d "$USER_SRC/tools/vpmu/share" ]; then
		cp -r "$USER_SRC/tools/vpmu/share" "$root/opt/vpmu/share"
	fi
	# perf annotate of RV32 samples runs the cross objdump, and
	# vpmu_perf_names.sh reads symbol tables with it (when installed).
	f=$(command -v riscv64-unknown-elf-objdump || true)
	[ -z "$f" ] || copy_elf "$root" "$f" /usr/bin/riscv64-unknown-elf-objdump
	initrd=$out/initrd
	rm -f "$out/initrd.gz"
	cp "$BASE_CPIO" "$initrd.tmp"
	(cd "$root" && find . | LC_ALL=C sort |
		cpio -o -H newc --quiet) >>"$initrd.tmp"
	mv "$initrd.tmp" "$initrd"
	VM_RUN[initrd]=$initrd
}
