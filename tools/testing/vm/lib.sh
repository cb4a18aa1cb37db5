# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib.sh - shared code of the vpmu VM harness (sourced, not run).
#
# Everything the harness downloads or builds lives under $VPMU_CACHE
# (default ~/.cache/vpmu), never in the repository:
#
#   debs/                     downloaded kernel image packages
#   kernels/<kver>/           extracted image packages (vmlinuz)
#   ksft/<srcver>/            kselftest.h + kselftest_harness.h
#   ksft/include              symlink to the newest of the above
#   src/<name>/               per-kernel copies of the source tree
#   debug-kernel/<key>/       the debug-tier kernel build tree
#   initramfs/base-<key>.cpio.gz   busybox + perf + shared libraries
#   out/<run>/                serial logs and initrds of the last runs

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$VM_DIR/../../.." && pwd)
CACHE=${VPMU_CACHE:-$HOME/.cache/vpmu}
LINUX_SRC_PKG=linux-source-6.1
LINUX_SRC_TAR=/usr/src/linux-source-6.1.tar.xz

log() { printf '%s\n' "vm: $*" >&2; }
die() { printf '%s\n' "vm: error: $*" >&2; exit 1; }

# --- packages -------------------------------------------------------------

pkg_installed() {
	[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = \
		"install ok installed" ]
}

# ensure_pkgs PKG... - install the missing ones; apt-get update only when
# the first install attempt fails (stale or missing package lists).
ensure_pkgs() {
	local missing=() p

	for p in "$@"; do
		pkg_installed "$p" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get install -y --no-install-recommends "${missing[@]}" \
			>"$CACHE/apt.log" 2>&1; then
		log "apt-get install failed; running apt-get update and retrying"
		apt-get update >>"$CACHE/apt.log" 2>&1 || true
		apt-get install -y --no-install-recommends "${missing[@]}" \
			>>"$CACHE/apt.log" 2>&1 ||
			{ tail -20 "$CACHE/apt.log" >&2; die "cannot install ${missing[*]}"; }
	fi
}

ensure_host_deps() {
	mkdir -p "$CACHE/out"
	ensure_pkgs qemu-system-x86 busybox-static cpio gzip xz-utils rsync \
		kmod linux-perf make gcc libc6-dev "$LINUX_SRC_PKG"
}

ensure_debug_build_deps() {
	ensure_pkgs bc bison flex libelf-dev libssl-dev dwarves python3 \
		build-essential
}

# newest_pkg REGEX - newest package name matching REGEX in the apt lists.
newest_pkg() {
	local name

	name=$(apt-cache search --names-only "$1" 2>/dev/null |
		awk '{ print $1 }' | grep -E "$1" | sort -V | tail -n 1) || true
	if [ -z "$name" ] && [ -z "${VPMU_APT_UPDATED:-}" ]; then
		log "no package matches $1; running apt-get update"
		apt-get update >>"$CACHE/apt.log" 2>&1 || true
		VPMU_APT_UPDATED=1
		name=$(apt-cache search --names-only "$1" 2>/dev/null |
			awk '{ print $1 }' | grep -E "$1" | sort -V | tail -n 1) || true
	fi
	[ -n "$name" ] || die "no package matches $1"
	printf '%s\n' "$name"
}

# --- stock kernels --------------------------------------------------------

# resolve_stock SERIES - sets KVER, IMG_PKG for the newest bookworm kernel
# of SERIES (6.1 or 6.12); the ABI number is never hard-coded.
resolve_stock() {
	case "$1" in
	6.1)	IMG_PKG=$(newest_pkg '^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$') ;;
	6.12)	IMG_PKG=$(newest_pkg '^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$') ;;
	*)	die "unknown kernel series $1" ;;
	esac
	KVER=${IMG_PKG#linux-image-}
	KVER=${KVER%-unsigned}
}

# fetch_stock_kernel - extract $IMG_PKG into the cache (the host kernel is
# never touched), install the matching headers; sets VMLINUZ and KDIR.
fetch_stock_kernel() {
	local kdir=$CACHE/kernels/$KVER deb

	VMLINUZ=$kdir/vmlinuz
	if [ ! -s "$VMLINUZ" ]; then
		mkdir -p "$CACHE/debs" "$kdir"
		log "downloading $IMG_PKG"
		(cd "$CACHE/debs" && apt-get download "$IMG_PKG" >/dev/null 2>&1) ||
			(cd "$CACHE/debs" && apt-get update >/dev/null 2>&1 &&
			 apt-get download "$IMG_PKG" >/dev/null) ||
			die "cannot download $IMG_PKG"
		deb=$(find "$CACHE/debs" -name "${IMG_PKG}_*.deb" | sort -V | tail -n 1)
		rm -rf "$kdir/root"
		dpkg-deb -x "$deb" "$kdir/root"
		cp "$kdir/root/boot/vmlinuz-$KVER" "$VMLINUZ.tmp"
		mv "$VMLINUZ.tmp" "$VMLINUZ"
	fi
	ensure_pkgs "linux-headers-$KVER"
	KDIR=/usr/src/linux-headers-$KVER
}

# --- source tree copies and builds ----------------------------------------

# sync_tree NAME - copy the work tree (minus .git and anything .gitignore'd,
# so build products never travel) to $CACHE/src/NAME; echoes the copy.
# Build products inside the copy are protected from --delete by the same
# filter, so rebuilds are incremental.
sync_tree() {
	local dst=$CACHE/src/$1

	mkdir -p "$dst"
	rsync -a --delete --exclude=/.git --filter=':- .gitignore' \
		"$TOP/" "$dst/"
	printf '%s\n' "$dst"
}

# build_module NAME KDIR - build vpmu.ko through the wrapper Makefile in
# its own tree copy; sets MODULE_KO.
build_module() {
	local name=$1 kdir=$2 src

	src=$(sync_tree "$name")
	log "building vpmu.ko for $name"
	if ! make -C "$src" modules KDIR="$kdir" >"$src/.vpmu-build.log" 2>&1; then
		tail -n 40 "$src/.vpmu-build.log" >&2
		die "module build for $name failed (log: $src/.vpmu-build.log)"
	fi
	MODULE_KO=$src/drivers/perf/vpmu/vpmu.ko
	[ -f "$MODULE_KO" ] || die "no $MODULE_KO after build"
}

# build_extra_module DIR NAME KDIR - build an out-of-tree helper module
# (selfcheck injectors) in a cache copy; echoes the .ko.
build_extra_module() {
	local dir=$1 name=$2 kdir=$3 dst=$CACHE/src/extra-$2

	mkdir -p "$dst"
	rsync -a --delete --exclude='*.o' --exclude='*.ko' "$dir/" "$dst/"
	make -C "$kdir" M="$dst" modules >"$dst/.build.log" 2>&1 ||
		{ tail -n 30 "$dst/.build.log" >&2; die "build of $dir failed"; }
	ls "$dst"/*.ko
}

# ksft_headers - extract kselftest.h and kselftest_harness.h from Debian's
# linux-source tarball (never copied into the repo); sets KSFT_INC.
ksft_headers() {
	local ver dir

	ver=$(dpkg-query -W -f='${Version}' "$LINUX_SRC_PKG")
	dir=$CACHE/ksft/$ver
	if [ ! -f "$dir/kselftest_harness.h" ]; then
		log "extracting kselftest headers from $LINUX_SRC_TAR"
		mkdir -p "$dir.tmp"
		tar -xJf "$LINUX_SRC_TAR" -C "$dir.tmp" --strip-components=4 \
			linux-source-6.1/tools/testing/selftests/kselftest.h \
			linux-source-6.1/tools/testing/selftests/kselftest_harness.h
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
	fi
	ln -sfn "$ver" "$CACHE/ksft/include"
	KSFT_INC=$dir
}

# build_userspace - selftests and (when they exist) tools, built once per
# run in a host tree copy; sets USER_SRC.
build_userspace() {
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
}

# --- debug kernel ---------------------------------------------------------

# debug_kernel_key - linux-source version + hash of the config fragment.
debug_kernel_key() {
	local ver

	ver=$(dpkg-query -W -f='${Version}' "$LINUX_SRC_PKG")
	printf '%s-%s\n' "$ver" \
		"$(sha256sum "$VM_DIR/debug.config" | cut -c1-12)"
}

# check_debug_config CONFIG - every =y line of the fragment must be =y in
# CONFIG, every "is not set" line must not be =y.
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
	done <"$VM_DIR/debug.config"
	return $bad
}

# apply_fragment - scripts/config every line of the fragment into .config.
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
	done <"$VM_DIR/debug.config"
}

# build_debug_kernel - tinyconfig + debug.config from Debian's linux-source,
# cached by key; sets VMLINUZ, KDIR, KVER.  Takes ~15 min cold on 2 cores.
build_debug_kernel() {
	local key dir tree

	ensure_debug_build_deps
	key=$(debug_kernel_key)
	dir=$CACHE/debug-kernel/$key
	tree=$dir/linux-source-6.1
	VMLINUZ=$tree/arch/x86/boot/bzImage
	KDIR=$tree
	KVER=debug-6.1
	if [ -f "$dir/.done" ]; then
		return 0
	fi
	log "building debug kernel $key (log: $dir/build.log)"
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -xJf "$LINUX_SRC_TAR" -C "$dir"
	(
		cd "$tree"
		make ARCH=x86_64 tinyconfig
		# Twice: options enabled the first time can unlock others.
		for _ in 1 2; do
			apply_fragment
			make ARCH=x86_64 olddefconfig
		done
	) >"$dir/build.log" 2>&1 || die "debug kernel config failed ($dir/build.log)"
	check_debug_config "$tree/.config" ||
		die "debug kernel config is missing required options"
	# A full build (not just bzImage) also writes Module.symvers, which
	# out-of-tree module builds against this tree need.
	if ! make -C "$tree" ARCH=x86_64 -j"$(nproc)" >>"$dir/build.log" 2>&1; then
		tail -n 40 "$dir/build.log" >&2
		die "debug kernel build failed ($dir/build.log)"
	fi
	touch "$dir/.done"
	log "debug kernel ready"
}

# --- initramfs ------------------------------------------------------------

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
	local root=$1 file=$2 dest=${3:-$2} lib

	mkdir -p "$root/$(dirname "$dest")"
	cp -L "$file" "$root/$dest"
	for lib in $(ldd "$file" 2>/dev/null |
			grep -oE '/[^ ]+' | grep -v ':' || true); do
		[ -f "$root/$lib" ] && continue
		mkdir -p "$root/$(dirname "$lib")"
		cp -L "$lib" "$root/$lib"
	done
}

# build_base_initramfs - busybox + perf + libraries, cached by the package
# versions and this file's hash; sets BASE_CPIO.
build_base_initramfs() {
	local key root perf a

	perf=$(real_perf)
	key=$( { dpkg-query -W -f='${Version}\n' busybox-static linux-perf
		 sha256sum "$perf" "${BASH_SOURCE[0]}"; } | sha256sum | cut -c1-12)
	BASE_CPIO=$CACHE/initramfs/base-$key.cpio.gz
	[ -s "$BASE_CPIO" ] && return 0
	log "building base initramfs"
	root=$CACHE/initramfs/base-root
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,root,etc}
	cp /bin/busybox "$root/bin/busybox"
	for a in $("$root/bin/busybox" --list-full); do
		[ -e "$root/$a" ] || ln -s /bin/busybox "$root/$a"
	done
	copy_elf "$root" "$perf" /usr/bin/perf
	echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
	echo 'root:x:0:' >"$root/etc/group"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet |
		gzip -1) >"$BASE_CPIO.tmp"
	mv "$BASE_CPIO.tmp" "$BASE_CPIO"
	rm -rf "$root"
}

# build_initrd OUTDIR KO [EXTRA_KO...] - base + an overlay with /init, the
# module, tools, selftests, share/ and $VPMU_EXTRA_SELFTESTS; sets INITRD.
build_initrd() {
	local out=$1 ko=$2 root f
	shift 2

	build_base_initramfs
	root=$out/overlay
	rm -rf "$root"
	mkdir -p "$root/opt/vpmu"/{bin,selftests,extra}
	install -m 0755 "$VM_DIR/guest/init" "$root/init"
	install -m 0755 "$VM_DIR/guest/run-tests.sh" "$VM_DIR/guest/demo.sh" \
		"$root/opt/vpmu/"
	cp "$ko" "$root/opt/vpmu/vpmu.ko"
	for f in "$@"; do
		cp "$f" "$root/opt/vpmu/extra/"
	done
	for f in "$USER_SRC"/tools/vpmu/vpmu-*; do
		if [ ! -f "$f" ] || [ ! -x "$f" ]; then
			continue
		fi
		copy_elf "$root" "$f" "/opt/vpmu/bin/$(basename "$f")"
	done
	make -s -C "$USER_SRC/selftests/vpmu" KSFT_INC="$KSFT_INC" \
		INSTALL_PATH="$root/opt/vpmu/selftests" install >/dev/null
	for f in ${VPMU_EXTRA_SELFTESTS:-}; do
		install -m 0755 "$f" "$root/opt/vpmu/selftests/"
	done
	if [ -d "$USER_SRC/tools/vpmu/share" ]; then
		cp -r "$USER_SRC/tools/vpmu/share" "$root/opt/vpmu/share"
	fi
	INITRD=$out/initrd.gz
	cp "$BASE_CPIO" "$INITRD.tmp"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet |
		gzip -1) >>"$INITRD.tmp"
	mv "$INITRD.tmp" "$INITRD"
}

# --- running a guest ------------------------------------------------------

# run_guest NAME MODE TIMEOUT MEM [CMDLINE...] - boot $VMLINUZ with $INITRD;
# serial output goes to $OUT/serial.log.  MODE "shell" keeps stdio
# interactive; other modes echo the guest's part of the log.  Sets QEMU_RC.
run_guest() {
	local name=$1 mode=$2 tmo=$3 mem=$4 append
	shift 4

	append="console=ttyS0 printk.time=1 loglevel=5 softlockup_panic=1"
	append+=" panic=-1 vpmu_mode=$mode $*"
	# Extra kernel command line (slub_debug=FZPU, vpmu_stress_seed=N).
	[ -n "${VPMU_APPEND:-}" ] && append+=" $VPMU_APPEND"
	# shellcheck disable=SC2054 # commas are QEMU's, not array separators
	local qemu=(timeout -k 10 "$tmo" qemu-system-x86_64
		-accel "tcg,thread=${VPMU_TCG_THREAD:-single}" -smp 2 -m "$mem"
		-nographic -no-reboot -nic none
		-kernel "$VMLINUZ" -initrd "$INITRD" -append "$append")
	log "booting $name (timeout ${tmo}s, log: $OUT/serial.log)"
	if [ "$mode" = shell ]; then
		set +e
		"${qemu[0]}" --foreground "${qemu[@]:1}"
		QEMU_RC=$?
		set -e
		return 0
	fi
	set +e
	"${qemu[@]}" </dev/null 2>&1 | tr -d '\r' | tee "$OUT/serial.log" |
		if [ -n "${VPMU_VERBOSE:-}" ]; then cat; else
			sed -n '/^VPMU-BEGIN/,$p'; fi
	QEMU_RC=${PIPESTATUS[0]}
	set -e
}

# Kernel log lines that fail a run.  Matched only on kernel lines (they
# carry the printk timestamp) so test output cannot trip them, except for
# kmemleak's report which the guest cats from debugfs.
SPLAT_RE='WARNING:|BUG:|kernel BUG at|Oops|general protection|KASAN|UBSAN'
SPLAT_RE+='|possible circular locking|inconsistent lock state|INFO: lockdep'
SPLAT_RE+='|suspicious RCU usage|sleeping function called|soft lockup'
SPLAT_RE+='|detected stalls|RCU stall|hung task|blocked for more than'
SPLAT_RE+='|Call Trace|Kernel panic|double fault|stack-protector'
BENIGN_RE='module verification failed: signature and/or required key missing'
BENIGN_RE+='|loading out-of-tree module taints kernel'

# analyse_log NAME - decide pass/fail from $OUT/serial.log and $QEMU_RC;
# prints the reasons, then "NAME: N passed, N failed"; returns 1 on failure.
analyse_log() {
	local name=$1 log=$OUT/serial.log res passed=0 failed=0 skipped=0
	local reasons=() splats

	res=$(grep -E '^VPMU-RESULT passed=[0-9]+ failed=[0-9]+ skipped=[0-9]+' \
		"$log" | tail -n 1) || true
	if [ -n "$res" ]; then
		passed=$(sed -E 's/.*passed=([0-9]+).*/\1/' <<<"$res")
		failed=$(sed -E 's/.*failed=([0-9]+).*/\1/' <<<"$res")
		skipped=$(sed -E 's/.*skipped=([0-9]+).*/\1/' <<<"$res")
		if [ "$failed" -gt 0 ]; then
			reasons+=("test failures: $failed failed")
			grep -E '^(not ok [0-9]+|VPMU-TEST .* FAIL)' "$log" |
				sed 's/^/  /' >&2 || true
		fi
		if [ -n "${REQUIRE_KMEMLEAK:-}" ] &&
		   ! grep -q '^VPMU-KMEMLEAK begin' "$log"; then
			reasons+=("kmemleak is not active on the debug kernel")
			failed=$((failed + 1))
		fi
		if ! grep -q '^VPMU-END' "$log"; then
			reasons+=("guest did not shut down after the tests (qemu rc $QEMU_RC)")
			failed=$((failed + 1))
		fi
	else
		failed=$((failed + 1))
		if [ "$QEMU_RC" = 124 ] || [ "$QEMU_RC" = 137 ]; then
			reasons+=("guest timed out (no VPMU-RESULT line)")
		elif grep -q 'Kernel panic' "$log"; then
			reasons+=("guest kernel panicked (no VPMU-RESULT line)")
		else
			reasons+=("guest exited without a VPMU-RESULT line (qemu rc $QEMU_RC; crash?)")
		fi
	fi
	if [ -n "${TOOLS_BUILD_FAILED:-}" ]; then
		reasons+=("make tools failed (see the build output above)")
		failed=$((failed + 1))
	fi
	splats=$( { grep -nE "\[ *[0-9]+\.[0-9]+\].*($SPLAT_RE)" "$log"
		    grep -n 'unreferenced object' "$log"; } |
		grep -vE "$BENIGN_RE" | sort -n -t: -k1,1 | cut -d: -f1 | uniq) || true
	if [ -n "$splats" ]; then
		reasons+=("kernel splat in the serial log")
		failed=$((failed + 1))
		log "$name: offending kernel log lines ($log):"
		# Each offending line with context; overlapping blocks merged,
		# at most 10 blocks.
		local ln from shown=0 blocks=0
		for ln in $splats; do
			[ "$ln" -le "$shown" ] && continue
			[ $((blocks += 1)) -gt 10 ] && break
			from=$((ln - 3 > shown ? ln - 3 : shown + 1))
			shown=$((ln + 15))
			echo "---- $log:$ln" >&2
			sed -n "${from},${shown}p" "$log" >&2
		done
	fi
	local r
	for r in "${reasons[@]}"; do
		echo "$name: FAIL: $r"
	done
	[ "$skipped" -gt 0 ] && echo "$name: $skipped skipped"
	echo "$name: $passed passed, $failed failed"
	[ ${#reasons[@]} -eq 0 ]
}

# prepare_kernel FLAVOUR - 6.1, 6.12 or debug; sets NAME, VMLINUZ, KDIR,
# KVER, MODULE_KO, TIMEOUT, MEM.
prepare_kernel() {
	case "$1" in
	6.1|6.12)
		resolve_stock "$1"
		fetch_stock_kernel
		NAME=vm-$1
		TIMEOUT=${VPMU_VM_TIMEOUT:-300}
		MEM=1G ;;
	debug)
		build_debug_kernel
		NAME=debug-6.1
		REQUIRE_KMEMLEAK=1
		TIMEOUT=${VPMU_DEBUG_TIMEOUT:-900}
		MEM=2G ;;
	*)	die "unknown kernel $1 (6.1, 6.12 or debug)" ;;
	esac
	log "$NAME: kernel $KVER"
	build_module "$NAME" "$KDIR"
	# Self-check runs report under their own name, same kernel and build.
	NAME=${VPMU_RUN_NAME:-$NAME}
	OUT=$CACHE/out/$NAME
	mkdir -p "$OUT"
}

# run_kernel FLAVOUR MODE [CMDLINE...] - build everything for one kernel
# and boot it.  $VPMU_EXTRA_MODULE_DIRS names module source dirs to build
# against the same kernel and load after vpmu.ko (selfcheck injectors).
run_kernel() {
	local flavour=$1 mode=$2 d extra=()
	shift 2

	prepare_kernel "$flavour"
	for d in ${VPMU_EXTRA_MODULE_DIRS:-}; do
		extra+=("$(build_extra_module "$d" "$(basename "$d")-$KVER" "$KDIR")")
	done
	build_initrd "$OUT" "$MODULE_KO" "${extra[@]}"
	run_guest "$NAME" "$mode" "$TIMEOUT" "$MEM" \
		"vpmu_test_timeout=$((TIMEOUT * 2 / 3))" "$@"
}

# flavour_name FLAVOUR - the summary-line name of a kernel flavour.
flavour_name() {
	if [ -n "${VPMU_RUN_NAME:-}" ]; then
		echo "$VPMU_RUN_NAME"
		return
	fi
	case "$1" in
	debug)	echo debug-6.1 ;;
	*)	echo "vm-$1" ;;
	esac
}

# check_kernel FLAVOUR [CMDLINE...] - run the suite on one kernel; always
# prints "NAME: N passed, N failed", even when the harness itself broke.
check_kernel() {
	local name rc=0 start

	name=$(flavour_name "$1")
	start=$SECONDS
	rm -f "$CACHE/out/$name/summary"
	"$VM_DIR/run-kernel.sh" "$@" || rc=1
	if [ ! -s "$CACHE/out/$name/summary" ]; then
		echo "$name: FAIL: harness error before a result (see above)"
		echo "$name: 0 passed, 1 failed"
		rc=1
	fi
	log "$name: took $((SECONDS - start))s"
	return $rc
}
