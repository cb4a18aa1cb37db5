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
#   ksft/<srcver>/            kselftest.h, kselftest_harness.h, lib.mk and
#                             the runner of linux-source-6.1
#   ksft/include              symlink to the newest of the above
#   debug-kernel/<key>/       the debug-tier kernel build tree
#   initramfs/base-<key>.cpio.gz   busybox + perf + shared libraries
#   tree/<id>/src/<name>/     per-kernel copies of one work tree
#   tree/<id>/ksft-tree/<srcver>/  linux-source-6.12's selftests framework
#                             with the tree's vpmu added, and its install
#   tree/<id>/out/<run>/      its serial logs and initrds of the last runs
#   out                       link to the tree/<id>/out that ran last

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=$(cd "$VM_DIR/../../.." && pwd)
CACHE=${VPMU_CACHE:-$HOME/.cache/vpmu}
# What a run builds from this work tree and what it leaves (tree copies,
# serial logs, initrds) is the tree's own, so that two work trees (git
# worktrees, say) can test at once with one cache: tree/<id>/src and
# tree/<id>/out, <id> a checksum of the tree's path.  $CACHE/out links to
# the out/ of the tree that ran last.
VM_TREE=$CACHE/tree/$(printf '%s' "$TOP" | cksum | cut -d' ' -f1)
VM_SRC=$VM_TREE/src
VM_OUT=$VM_TREE/out
LINUX_SRC_PKG=linux-source-6.1
LINUX_SRC_TAR=/usr/src/linux-source-6.1.tar.xz

# --- kernel flavours --------------------------------------------------------

# Every kernel flavour the harness runs, one row each, in the order the
# tiers run them (make vm-check: the stock set; make debug-check: the
# debug set).  The one place they are listed: vm-check.sh, check.sh,
# prepare_kernel and flavour_name read it.  Columns:
#
#   flavour   what vm-check.sh and vm-run.sh --kernel take ("debug" is
#             debug-6.1)
#   name      its runs' name, in their result line "NAME: N passed, N
#             failed"; a 7.x kernel's is its version's (vm-7.3), known
#             once the kernel is found
#   set       stock or debug: which set of vm-check.sh runs it
#   kernel    6.1, 6.12, 6.12-rt: the newest bookworm kernel of that
#             series (resolve_stock); 7.x: the newest 7.x of
#             trixie-backports, its module built in the trixie root
#             (resolve_newest); debug-SERIES: built here from
#             linux-source-SERIES (build_debug_kernel), 15 min to 2 GB
#   suite     all: every selftest; kselftest: every selftest, built,
#             installed and run as linux-source-6.12's kernel tree does
#             (build_ksft_tree, vpmu_kselftest=1); else the vpmu_test=
#             list of the programs to run
#   params    the rest of the line: the guest's kernel command line words,
#             and the harness's own: @slub, stock_cmdline's slub_debug=;
#             @smp=S, QEMU's -smp S (default 2); @tcg=T, TCG single- or
#             multi-threaded (default VPMU_TCG_THREAD, else single);
#             @timeout=S, the guest's time when more than the set's
#             (VPMU_VM_TIMEOUT or 600 s, VPMU_DEBUG_TIMEOUT or 900 s; each
#             program has two thirds of it)
#
# vm-6.12-mttcg: the tests where two CPUs must really overlap (overflow
# interrupts on both at once), each vCPU on a host thread of its own;
# multi-threaded TCG is only trusted on 6.12 (6.1 guests hang under it
# even without vpmu).  vm-6.1-cpus64: two CPUs present, 64 possible (the
# rest could be hot-added): what the module costs on a machine that
# declares many more CPUs than it has (vpmu_mem), and the tests that go
# over every possible CPU's engine and files; no slub_debug, whose red
# zones triple what a page-sized object costs: what is measured is the
# kernel as shipped.  vm-6.12-notc: the suite once more with the
# engines' translation cache off (vpmu.ko tc=0: the microword interpreter
# alone), to compare with vm-6.12: the same tests, the same counts; but
# for those whose outcome does not depend on how the engine runs
# programs, which vm-6.12 and the rest cover: module and image loading
# (vpmu_registered, vpmu_load_unload, vpmu_ucode*, vpmu_reload_stress,
# vpmu_unload_busy, vpmu_perf_reload, vpmu_lifetime*), the ABI, version
# and perf-surface scripts, perf's validation of groups, hotplug, the
# memory measures (vpmu_mem*, which tc=0 changes by design), the
# uhist readers' concurrency and the stress tier (vpmu_stress.sh).
# debug-SERIES-fault: the fault tier (vpmu_fault, testing.rst "Fault
# injection") on its own, twenty minutes on 6.12 (a module load fails
# ~900 sites with the default parameters, then ~500 of vpmu_init()'s with
# each of two other sets), beside the rest of the debug set.
# kcsan-6.12: 6.12 with KCSAN instead of KASAN (debug-kcsan.config), the
# stress tier and the tests where CPUs, interrupts and sysfs readers meet
# (testing.rst, "Data races").
#
# The order is the order kernels become ready in (vm-check.sh boots a
# kernel's guests as soon as it is): the flavours of the two stock kernels
# fetched first before those whose kernels take longer to fetch or build
# (6.12-rt, then 7.x and its trixie build root); debug-6.1 before the
# 6.12 runs, because build-debug-kernel.sh builds 6.1 first.
VM_FLAVOURS='
6.1               vm-6.1            stock  6.1         all        @slub
6.12              vm-6.12           stock  6.12        kselftest  @slub
6.12-notc         vm-6.12-notc      stock  6.12        all        @slub vpmu_params=tc=0 vpmu_skip=vpmu_registered,vpmu_load_unload,vpmu_ucode,vpmu_reload_stress,vpmu_unload_busy,vpmu_perf_reload,vpmu_lifetime,vpmu_abi,vpmu_version,vpmu_perf_surface,vpmu_perf_names,vpmu_perf_groups,vpmu_hotplug,vpmu_mem,vpmu_uhist_readers,vpmu_stress,vpmu_fault
6.12-mttcg        vm-6.12-mttcg     stock  6.12        vpmu_lifetime,vpmu_cpu_sampling @slub @tcg=multi
6.1-cpus64        vm-6.1-cpus64     stock  6.1         vpmu_mem,vpmu_registered,vpmu_run,vpmu_snapshot,vpmu_uhist,vpmu_hu,vpmu_hotplug possible_cpus=64 @smp=2,maxcpus=64
6.12-rt           vm-6.12-rt        stock  6.12-rt     all        @slub
7.x               vm-7.x            stock  7.x         all        @slub
debug-6.1         debug-6.1         debug  debug-6.1   all        vpmu_skip=vpmu_fault
debug-6.12-fault  debug-6.12-fault  debug  debug-6.12  vpmu_fault @timeout=2700
debug-6.12        debug-6.12        debug  debug-6.12  all        vpmu_skip=vpmu_fault
debug-6.1-fault   debug-6.1-fault   debug  debug-6.1   vpmu_fault @timeout=1500
kcsan-6.12        kcsan-6.12        debug  debug-6.12-kcsan vpmu_stress,vpmu_reload_stress,vpmu_uhist_readers,vpmu_lifetime,vpmu_cpu_sampling,vpmu_hotplug,vpmu_perf_narrow,vpmu_inherit,vpmu_snapshot,vpmu_unload_busy,vpmu_gate
'

# flavour_row FLAVOUR - FLAVOUR's row of VM_FLAVOURS (nothing if there is
# none).
flavour_row() {
	local f=$1

	[ "$f" = debug ] && f=debug-6.1
	awk -v f="$f" '$1 == f' <<<"$VM_FLAVOURS"
}

# flavours SET - the flavours of SET (stock or debug), in order, one a
# line.
flavours() {
	awk -v s="$1" '$3 == s { print $1 }' <<<"$VM_FLAVOURS"
}

# flavour_names SET - the names of their runs, in order (a 7.x run's as
# the last prepare_kernel of it found, else vm-7.x).
flavour_names() {
	local f

	for f in $(flavours "$1"); do
		VPMU_RUN_NAME='' flavour_name "$f"
	done
}

# The record of one run, which prepare_kernel fills in for run_kernel,
# build_initrd, run_guest and analyse_log:
#
#   flavour name       the table's
#   kver kdesc         the kernel's version, and with its origin
#   vmlinuz kdir       the kernel and the tree modules build against
#   module             vpmu.ko, or empty: built in
#   cmdline            the guest's kernel command line words
#   timeout mem smp tcg   host timeout (s), guest memory, -smp, TCG threads
#   kmemleak           1: kmemleak must be active (the debug kernels)
#   ksft               the kselftest install of build_ksft_tree, if any
#   selftests          a directory of more selftests for the guest, if any
#   initrd             the initramfs build_initrd made
declare -gA VM_RUN=()

log() { printf '%s\n' "vm: $*" >&2; }
die() { printf '%s\n' "vm: error: $*" >&2; exit 1; }

# --- packages -------------------------------------------------------------

# apt_get, apt_retry, pkg_installed
# shellcheck source=../../pkg/apt.sh
. "$TOP/tools/pkg/apt.sh"

# ensure_pkgs PKG... - install the missing ones; apt-get update only when
# the first install attempt fails (stale or missing package lists).
ensure_pkgs() {
	local missing=() p

	for p in "$@"; do
		pkg_installed "$p" || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing ${missing[*]}"
	mkdir -p "$CACHE"
	: >"$CACHE/apt.log"
	apt_retry "$CACHE/apt.log" install "${missing[@]}" ||
		{ tail -20 "$CACHE/apt.log" >&2; die "cannot install ${missing[*]}"; }
}

ensure_host_deps() {
	mkdir -p "$VM_OUT"
	# the link to the last run's logs (a directory before trees had theirs)
	[ -L "$CACHE/out" ] || rm -rf "$CACHE/out"
	ln -sfn "$VM_OUT" "$CACHE/out"
	ensure_pkgs qemu-system-x86 busybox-static cpio gzip xz-utils rsync \
		kmod linux-perf make gcc libc6-dev "$LINUX_SRC_PKG"
	# RV32 C samples (with picolibc too) and random programs, and their
	# reference (vpmu_rv32_stat.sh): built on the host, run in the guest.
	ensure_pkgs gcc-riscv64-unknown-elf qemu-user \
		picolibc-riscv64-unknown-elf
}

ensure_debug_build_deps() {
	ensure_pkgs bc bison flex libelf-dev libssl-dev dwarves python3 \
		build-essential patch
}

# newest_pkg REGEX - newest package name matching REGEX in the apt lists.
newest_pkg() {
	local name

	name=$(apt-cache search --names-only "$1" 2>/dev/null |
		awk '{ print $1 }' | grep -E "$1" | sort -V | tail -n 1) || true
	if [ -z "$name" ] && [ -z "${VPMU_APT_UPDATED:-}" ]; then
		log "no package matches $1; running apt-get update"
		apt_get update >>"$CACHE/apt.log" 2>&1 || true
		VPMU_APT_UPDATED=1
		name=$(apt-cache search --names-only "$1" 2>/dev/null |
			awk '{ print $1 }' | grep -E "$1" | sort -V | tail -n 1) || true
	fi
	[ -n "$name" ] || die "no package matches $1"
	printf '%s\n' "$name"
}

# --- stock kernels --------------------------------------------------------

# resolve_stock SERIES - sets KVER, IMG_PKG for the newest bookworm kernel
# of SERIES (6.1, 6.12 or 6.12-rt, the PREEMPT_RT flavour); the ABI number
# is never hard-coded.
resolve_stock() {
	case "$1" in
	6.1)	IMG_PKG=$(newest_pkg '^linux-image-6\.1\.0-[0-9]+-amd64-unsigned$') ;;
	6.12)	IMG_PKG=$(newest_pkg '^linux-image-6\.12\.[0-9]+\+deb12-amd64-unsigned$') ;;
	6.12-rt) IMG_PKG=$(newest_pkg '^linux-image-6\.12\.[0-9]+\+deb12-rt-amd64-unsigned$') ;;
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
			(cd "$CACHE/debs" && apt_get update >/dev/null 2>&1 &&
			 apt-get download "$IMG_PKG" >/dev/null) ||
			die "cannot download $IMG_PKG"
		# -H: debs/ may be a link to a shared cache.
		deb=$(find -H "$CACHE/debs" -name "${IMG_PKG}_*.deb" | sort -V | tail -n 1)
		rm -rf "$kdir/root"
		dpkg-deb -x "$deb" "$kdir/root"
		cp "$kdir/root/boot/vmlinuz-$KVER" "$VMLINUZ.tmp"
		mv "$VMLINUZ.tmp" "$VMLINUZ"
	fi
	ensure_pkgs "linux-headers-$KVER"
	KDIR=/usr/src/linux-headers-$KVER
	KDESC="$KVER (Debian $(dpkg-query -W -f='${Version}' "linux-headers-$KVER"))"
}

# --- the newest kernel: a Debian trixie build root ---------------------------

# host_mirror - the Debian mirror the host's apt uses for bookworm (so the
# build root comes from the same place); defaults to deb.debian.org.
host_mirror() {
	local m

	m=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		awk '$1 == "deb" && $3 ~ /^bookworm(-updates)?$/ { print $2; exit }')
	if [ -z "$m" ]; then
		m=$(awk '/^URIs:/ { u = $2 } /^Suites:/ && / bookworm( |$)/ {
			print u; exit }' /etc/apt/sources.list.d/*.sources 2>/dev/null)
	fi
	printf '%s\n' "${m:-http://deb.debian.org/debian}"
}

# trixie_root - a Debian trixie + trixie-backports build root made with
# mmdebstrap --variant=buildd (gcc, make, libc of trixie: the 7.x headers'
# host tools need them), cached in $CACHE/trixie-root; sets TRIXIE_ROOT.
# Takes ~2 minutes and ~600 MB the first time.
trixie_root() {
	local mirror

	TRIXIE_ROOT=$CACHE/trixie-root
	[ -f "$TRIXIE_ROOT.done" ] && return 0
	ensure_pkgs mmdebstrap
	mirror=$(host_mirror)
	log "creating the trixie build root from $mirror (log: $TRIXIE_ROOT.log)"
	rm -rf "$TRIXIE_ROOT"
	if ! mmdebstrap --variant=buildd --include=kmod,rsync,xz-utils,bc \
			trixie "$TRIXIE_ROOT" \
			"deb $mirror trixie main" \
			"deb $mirror trixie-backports main" \
			>"$TRIXIE_ROOT.log" 2>&1; then
		tail -n 20 "$TRIXIE_ROOT.log" >&2
		die "mmdebstrap trixie failed (log: $TRIXIE_ROOT.log)"
	fi
	touch "$TRIXIE_ROOT.done"
}

# in_root CMD... - run CMD in the trixie build root, in a private mount
# namespace with its own /proc (mmdebstrap made /dev's nodes; nothing of the
# host is bind-mounted, so removing the root can never reach the host).
in_root() {
	# shellcheck disable=SC2016 # $0 and $@ are the inner shell's
	unshare --mount --fork --pid sh -c \
		'mount -t proc proc "$0/proc" && exec chroot "$0" "$@"' \
		"$TRIXIE_ROOT" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

# trixie_lists - the trixie build root, its package lists refreshed when
# older than a day.
trixie_lists() {
	trixie_root
	if [ -z "$(find "$TRIXIE_ROOT/var/lib/apt/lists" -maxdepth 1 \
			-name '*Packages*' -mmin -1440 2>/dev/null | head -n 1)" ]; then
		in_root apt-get update >>"$TRIXIE_ROOT.log" 2>&1 ||
			die "apt-get update in the trixie root failed ($TRIXIE_ROOT.log)"
	fi
}

# resolve_newest - the newest 7.x amd64 kernel ABI in trixie-backports (or
# trixie); sets KVER, IMG_PKG, and fetches the image into the cache and the
# headers into the build root; sets VMLINUZ and KDIR (a path in the root).
resolve_newest() {
	local kdir deb

	trixie_lists
	IMG_PKG=$(in_root apt-cache search --names-only \
			'^linux-image-7\.[0-9.]+\+deb13-amd64(-unsigned)?$' |
		awk '{ print $1 }' | sort -V | tail -n 1)
	[ -n "$IMG_PKG" ] || die "no linux-image-7.*+deb13-amd64 in trixie(-backports)"
	KVER=${IMG_PKG#linux-image-}
	KVER=${KVER%-unsigned}
	kdir=$CACHE/kernels/$KVER
	VMLINUZ=$kdir/vmlinuz
	if [ ! -s "$VMLINUZ" ]; then
		# Newer image packages only depend on linux-binary-KVER (signed)
		# or linux-binary-unsigned-KVER, which hold vmlinuz.
		local p bin=
		for p in "linux-binary-unsigned-$KVER" "linux-binary-$KVER" \
			 "linux-image-$KVER-unsigned" "linux-image-$KVER"; do
			if in_root apt-cache show "$p" >/dev/null 2>&1; then
				bin=$p
				break
			fi
		done
		[ -n "$bin" ] || die "no package with the vmlinuz of $KVER"
		log "downloading $bin (trixie root)"
		rm -rf "$TRIXIE_ROOT/tmp/debs"
		mkdir -p "$TRIXIE_ROOT/tmp/debs" "$kdir"
		in_root sh -c "cd /tmp/debs && apt-get download $bin" \
			>>"$TRIXIE_ROOT.log" 2>&1 || die "cannot download $bin"
		deb=$(find "$TRIXIE_ROOT/tmp/debs" -name "${bin}_*.deb" |
			sort -V | tail -n 1)
		rm -rf "$kdir/root"
		dpkg-deb -x "$deb" "$kdir/root"
		# /boot/vmlinuz-KVER, or /usr/lib/modules/KVER/vmlinuz[.unsigned]
		cp "$(find "$kdir/root" -type f \( -name "vmlinuz-$KVER" -o \
			-name vmlinuz -o -name vmlinuz.unsigned \) | head -n 1)" \
			"$VMLINUZ.tmp"
		mv "$VMLINUZ.tmp" "$VMLINUZ"
		rm -rf "$kdir/root" "$TRIXIE_ROOT/tmp/debs"
	fi
	if [ ! -d "$TRIXIE_ROOT/usr/src/linux-headers-$KVER" ]; then
		log "installing linux-headers-$KVER (trixie root)"
		in_root apt-get install -y --no-install-recommends \
			"linux-headers-$KVER" >>"$TRIXIE_ROOT.log" 2>&1 ||
			{ tail -n 20 "$TRIXIE_ROOT.log" >&2
			  die "cannot install linux-headers-$KVER in the trixie root"; }
	fi
	KDIR=/usr/src/linux-headers-$KVER
	# shellcheck disable=SC2016 # ${Version} is dpkg-query's
	KDESC="$KVER (Debian $(in_root dpkg-query -W -f='${Version}' \
		"linux-headers-$KVER"), built in trixie with $(in_root gcc -dumpfullversion | sed 's/^/gcc /'))"
}

# build_module_in_root NAME KDIR - build vpmu.ko in the trixie root, from a
# tree copy inside it; sets MODULE_KO.
build_module_in_root() {
	local name=$1 kdir=$2 src=$TRIXIE_ROOT/build/$1

	mkdir -p "$src"
	rsync -rlpD --checksum --delete --exclude=/.git --filter=':- .gitignore' \
		"$TOP/" "$src/"
	log "building vpmu.ko for $name (trixie root)"
	if ! in_root make -C "/build/$name" modules KDIR="$kdir" \
			>"$src/.vpmu-build.log" 2>&1; then
		tail -n 40 "$src/.vpmu-build.log" >&2
		die "module build for $name failed (log: $src/.vpmu-build.log)"
	fi
	MODULE_KO=$src/drivers/perf/vpmu/vpmu.ko
	[ -f "$MODULE_KO" ] || die "no $MODULE_KO after build"
}

# --- source tree copies and builds ----------------------------------------

# sync_tree NAME - copy the work tree (minus .git and anything .gitignore'd,
# so build products never travel) to $VM_SRC/NAME; echoes the copy.
# Build products inside the copy are protected from --delete by the same
# filter, so rebuilds are incremental.
sync_tree() {
	local dst=$VM_SRC/$1

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
# its own tree copy; sets MODULE_KO.  Runs that share a copy (the two
# self-check runs, started at once) build one after the other: two makes
# in one tree race (vpmu-as rewritten while the other runs it).
build_module() {
	local name=$1 kdir=$2 src lock

	mkdir -p "$VM_SRC"
	exec {lock}>"$VM_SRC/$name.lock"
	flock "$lock"
	src=$(sync_tree "$name")
	log "building vpmu.ko for $name"
	if ! make -C "$src" modules KDIR="$kdir" >"$src/.vpmu-build.log" 2>&1; then
		tail -n 40 "$src/.vpmu-build.log" >&2
		die "module build for $name failed (log: $src/.vpmu-build.log)"
	fi
	exec {lock}>&-
	MODULE_KO=$src/drivers/perf/vpmu/vpmu.ko
	[ -f "$MODULE_KO" ] || die "no $MODULE_KO after build"
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

# --- the kselftest target in a kernel tree ----------------------------------

# The kernel source whose tools/testing/selftests builds and installs vpmu's
# kselftests for the vm-6.12 run (prepare_kernel).
KSFT_TREE_PKG=linux-source-6.12

# build_ksft_tree - $KSFT_TREE_PKG's tools/testing/selftests (and the few
# files tools/pkg/in-tree.sh edits), vpmu added by in-tree.sh from the
# build_userspace copy, then, as a kernel developer would: "make -C
# tools/testing/selftests TARGETS=vpmu" and kselftest_install.sh (for
# TARGETS=vpmu only); fails unless its kselftest-list.txt lists the vpmu
# programs.  The random RV32 programs of this tree's build are added (a
# kernel tree cannot make them).  Sets KSFT_TREE_INSTALL.
build_ksft_tree() {
	local ver dir tree s log

	ensure_pkgs "$KSFT_TREE_PKG"
	ver=$(dpkg-query -W -f='${Version}' "$KSFT_TREE_PKG")
	dir=$VM_TREE/ksft-tree/$ver
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
	       make -C "$tree/tools/testing/selftests" TARGETS=vpmu &&
	       (cd "$tree/tools/testing/selftests" &&
		MAKEFLAGS="TARGETS=vpmu" ./kselftest_install.sh "$dir/install"); \
	     } >"$log" 2>&1; then
		tail -n 40 "$log" >&2
		die "the vpmu kselftests do not build in $KSFT_TREE_PKG's tree ($log)"
	fi
	grep -qx 'vpmu:vpmu_registered' "$dir/install/kselftest-list.txt" ||
		die "kselftest_install.sh listed no vpmu tests ($log)"
	if [ -d "$USER_SRC/selftests/vpmu/rv32" ]; then
		cp -a "$USER_SRC/selftests/vpmu/rv32" "$dir/install/vpmu/"
	fi
	KSFT_TREE_INSTALL=$dir/install
}

# --- debug kernel ---------------------------------------------------------

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
	echo "$sum" >"$dir/.vpmu-built"
	log "$KVER: kernel rebuilt with vpmu in $((SECONDS - start))s"
}

# build_debug_kernel SERIES - tinyconfig + the debug fragments from Debian's
# linux-source-SERIES, cached by key under $CACHE/debug-kernel; sets
# VMLINUZ, KDIR, KVER (debug-SERIES).  Takes ~15-25 min cold on 2 cores.
# A series whose fragments set CONFIG_PERF_VPMU=y carries vpmu built in:
# it is added to the tree before the first build and brought up to date,
# incrementally, every time after.
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
		debug_vpmu_sum "$tree" >"$dir/.vpmu-built"
	fi
	touch "$dir/.done"
	exec {lock}>&-
	log "debug kernel $key ready"
}

# build_series_selftests TREE - the kselftests DBG_PATCHES add or change
# (tools/testing/selftests/DIR/NAME.c), built static against TREE's
# headers into TREE/.vpmu-selftests/DIR_NAME.
build_series_selftests() {
	local tree=$1 src name

	rm -rf "$tree/.vpmu-selftests"
	mkdir -p "$tree/.vpmu-selftests"
	[ ${#DBG_PATCHES[@]} -gt 0 ] || return 0
	make -C "$tree" ARCH=x86_64 headers
	for src in $(sed -n 's|^+++ b/\(tools/testing/selftests/.*\.c\)$|\1|p' \
			"${DBG_PATCHES[@]}" | sort -u); do
		name=${src#tools/testing/selftests/}
		name=${name%.c}
		gcc -O2 -g -Wall -static -isystem "$tree/usr/include" \
			-I"$tree/tools/testing/selftests" \
			-o "$tree/.vpmu-selftests/${name//\//_}" "$tree/$src" \
			-lpthread || return 1
	done
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
	# kselftest's runner runs each test under "timeout --foreground",
	# which busybox's timeout lacks (its link is replaced, not written
	# through).
	rm -f "$root/usr/bin/timeout"
	copy_elf "$root" /usr/bin/timeout
	echo 'root:x:0:0:root:/root:/bin/sh' >"$root/etc/passwd"
	echo 'root:x:0:' >"$root/etc/group"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet |
		gzip -1) >"$BASE_CPIO.tmp"
	mv "$BASE_CPIO.tmp" "$BASE_CPIO"
	rm -rf "$root"
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

# build_initrd OUTDIR KO [EXTRA_KO...] - base + an overlay with /init, the
# module (none if KO is ""), tools, selftests, share/,
# $VPMU_EXTRA_SELFTESTS and the run's VM_RUN[selftests]; sets
# VM_RUN[initrd].
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
	for f in "$USER_SRC"/tools/vpmu/vpmu-*; do
		if [ ! -f "$f" ] || [ ! -x "$f" ]; then
			continue
		fi
		copy_elf "$root" "$f" "/opt/vpmu/bin/$(basename "$f")"
	done
	install_kselftest "$root/opt/vpmu/kselftest"
	ln -s kselftest/vpmu "$root/opt/vpmu/selftests"
	# shellcheck disable=SC2206 # a list of paths, split on blanks
	extra=(${VPMU_EXTRA_SELFTESTS:-})
	if [ -n "${VM_RUN[selftests]:-}" ]; then
		for f in "${VM_RUN[selftests]}"/*; do
			if [ -f "$f" ]; then
				extra+=("$f")
			fi
		done
	fi
	for f in "${extra[@]}"; do
		install -m 0755 "$f" "$root/opt/vpmu/selftests/"
		echo "vpmu:${f##*/}" >>"$root/opt/vpmu/kselftest/kselftest-list.txt"
	done
	if [ -d "$USER_SRC/tools/vpmu/share" ]; then
		cp -r "$USER_SRC/tools/vpmu/share" "$root/opt/vpmu/share"
	fi
	# perf annotate of RV32 samples runs the cross objdump, and
	# vpmu_perf_names.sh reads symbol tables with it (when installed).
	f=$(command -v riscv64-unknown-elf-objdump || true)
	[ -z "$f" ] || copy_elf "$root" "$f" /usr/bin/riscv64-unknown-elf-objdump
	initrd=$out/initrd.gz
	cp "$BASE_CPIO" "$initrd.tmp"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet |
		gzip -1) >>"$initrd.tmp"
	mv "$initrd.tmp" "$initrd"
	VM_RUN[initrd]=$initrd
}

# --- running a guest ------------------------------------------------------

# run_guest MODE [CMDLINE...] - boot the run VM_RUN describes (its kernel,
# initramfs, memory, CPUs, TCG threads, under its timeout); serial output
# goes to $OUT/serial.log.  MODE "shell" keeps stdio interactive; other
# modes echo the guest's part of the log.  Sets QEMU_RC.
run_guest() {
	local mode=$1 name=${VM_RUN[name]} tmo=${VM_RUN[timeout]} append
	shift

	append="console=ttyS0 printk.time=1 loglevel=5 softlockup_panic=1"
	append+=" panic=-1 vpmu_mode=$mode"
	# A TCG guest on a loaded host can miss the timer interrupts the
	# kernel's IO-APIC check waits for and panic with "IO-APIC + timer
	# doesn't work" before init runs (seen on 6.1 with four guests on
	# two cores).  no_timer_check makes the kernel trust the IO-APIC
	# timer route, which QEMU's i440fx always wires.
	append+=" no_timer_check"
	# perf's enabled and running times come from local_clock().  QEMU's
	# default CPU is an AMD without an invariant TSC, so with two CPUs the
	# kernel calls the TSC unsynchronised and sched_clock unstable, and
	# 6.1 then clamps local_clock() to the tick: an event whose whole life
	# fits in one jiffy reads enabled = running = 0, and a per-task event
	# that never got a counter can read as "fully on the counters" (seen
	# as rare stress failures on loaded hosts).  TCG's TSC is the host's
	# clock, the same on every vCPU: tsc=reliable is true here.
	append+=" tsc=reliable $*"
	# Extra kernel command line (slub_debug=FZPU, vpmu_stress_seed=N).
	[ -n "${VPMU_APPEND:-}" ] && append+=" $VPMU_APPEND"
	# shellcheck disable=SC2054 # commas are QEMU's, not array separators
	local qemu=(timeout -k 10 "$tmo" qemu-system-x86_64
		-accel "tcg,thread=${VM_RUN[tcg]}"
		-smp "${VM_RUN[smp]}" -m "${VM_RUN[mem]}"
		-nographic -no-reboot -nic none
		-kernel "${VM_RUN[vmlinuz]}" -initrd "${VM_RUN[initrd]}"
		-append "$append")
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
# SLUB debugging (slub_debug=FZPU) reports as "BUG <cache> (<taint>): <what>"
# (no colon after BUG), then "INFO:"/"FIX <cache>:" lines; the "what"s below
# are listed too in case a kernel changes the header.
SPLAT_RE+='|BUG [^ ]+ \(.*\): |FIX [^ ]+: |Poison overwritten|Redzone overwritten'
SPLAT_RE+='|Object already free|Freepointer corrupt|Slab cache still has objects'
BENIGN_RE='module verification failed: signature and/or required key missing'
BENIGN_RE+='|loading out-of-tree module taints kernel'

# fault_reports LOG - the line numbers of the splat lines of the reports
# that LOG has while vpmu_fault runs and that its injected failures cause
# outside vpmu (testing.rst, "Fault injection"); anywhere else each is a
# splat:
# - warn_alloc()'s allocation-failure reports ("vmalloc error: ..." or
#   "page allocation failure: ...", the task's CPU line, "Hardware name",
#   then the trace): a vmalloc() or a page allocation that fails says so
#   with a stack dump; its "Call Trace" line;
# - remove_proc_entry()'s "name '...'" WARNING from unregister_irq_proc():
#   request_irq() ignores a /proc/irq/N/ file it could not make
#   (register_irq_proc()), and freeing the line warns that the file is
#   not there; its "WARNING:" and "Call Trace" lines.
fault_reports() {
	awk '
		/^VPMU-RUN / { fault = ($2 == "vpmu_fault"); at = pw = 0 }
		/^VPMU-TEST / { fault = 0 }
		!fault { next }
		/(vmalloc error: |page allocation failure: ).*mode:0x/ { at = NR }
		at && /Call Trace/ && NR - at <= 6 { print NR; at = 0 }
		/\] name \x27[^\x27]*\x27$/ { nm = NR }
		nm && /WARNING: .* remove_proc_entry\+/ && NR - nm <= 2 {
			pw = NR; pt = 0
		}
		pw && /Call Trace/ && NR - pw <= 20 { pt = NR }
		pw && pt && /unregister_irq_proc\+/ && NR - pt <= 8 {
			print pw; print pt; pw = 0
		}
		pw && NR - pw > 30 { pw = 0 }
	' "$1"
}

# The kernel's own races whose stacks pass through vpmu only because vpmu
# calls a scheduling point: both racing functions the kernel's, on its
# own per-CPU data.  "A / B", as a KCSAN report names them, either order.
#   rcu_all_qs / rcu_disable_urgency_upon_qs: cond_resched() reads
#   rcu_data.rcu_urgent_qs plainly while RCU's softirq clears it on the
#   same CPU (6.12); vpmu_run_chunks() calls cond_resched() between
#   chunks (CI's kcsan-6.12, vpmu_machine_run+0xc19 in the read's stack).
KCSAN_KERNEL_RACES='rcu_all_qs / rcu_disable_urgency_upon_qs'

# kcsan_foreign LOG - the line numbers of the "BUG: KCSAN:" lines of the
# KCSAN reports in LOG that have no vpmu frame (a function vpmu_* or one
# of the module's, "[vpmu]") in either stack, or that name one of
# KCSAN_KERNEL_RACES: the kernel's own races, which vpmu neither causes
# nor can annotate (testing.rst, "Data races").  A report runs from its
# "BUG: KCSAN:" line to the "=====" line that closes it.
kcsan_foreign() {
	awk -v races="$KCSAN_KERNEL_RACES" '
		BEGIN {
			n = split(races, r, "\n")
			for (i = 1; i <= n; i++) {
				split(r[i], ab, " / ")
				known[ab[1] " / " ab[2]] = 1
				known[ab[2] " / " ab[1]] = 1
			}
		}
		/\] BUG: KCSAN: / {
			at = NR
			pair = $0
			sub(/.*BUG: KCSAN: [a-z-]* in /, "", pair)
			sub(/[ \r]+$/, "", pair)
			ours = !(pair in known) ? 0 : -1
			next
		}
		at && ours >= 0 &&
		/(^|[] ])vpmu_[A-Za-z0-9_.]*\+0x|\[vpmu\]/ { ours = 1 }
		at && /\] =+$/ { if (ours <= 0) print at; at = 0 }
	' "$1"
}

# log_splats LOG - the line numbers of LOG's kernel lines that are splats
# (SPLAT_RE, kmemleak's reports), but for BENIGN_RE, fault_reports and
# kcsan_foreign.
log_splats() {
	{ grep -nE "\[ *[0-9]+\.[0-9]+\].*($SPLAT_RE)" "$1"
	  grep -n 'unreferenced object' "$1"; } |
		grep -vE "$BENIGN_RE" | sort -n -t: -k1,1 | cut -d: -f1 | uniq |
		grep -vxF -f <(fault_reports "$1"; kcsan_foreign "$1") || true
}

# analyse_log NAME - decide pass/fail from $OUT/serial.log and $QEMU_RC;
# prints the reasons, then "NAME: N passed, N failed"; returns 1 on failure.
analyse_log() {
	local name=$1 log=$OUT/serial.log res passed=0 failed=0 skipped=0
	local reasons=() splats ln

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
		if [ -n "${VM_RUN[kmemleak]:-}" ] &&
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
	splats=$(log_splats "$log")
	local foreign
	foreign=$(kcsan_foreign "$log")
	if [ -n "$foreign" ]; then
		log "$name: $(wc -l <<<"$foreign") KCSAN reports without vpmu in them (the kernel's own races), not counted:"
		for ln in $foreign; do
			sed -n "${ln}p" "$log" >&2
		done
	fi
	# The matched lines themselves, for the self-check.
	for ln in $splats; do
		printf '%s:%s\n' "$ln" "$(sed -n "${ln}p" "$log")"
	done >"$OUT/splats"
	if [ -n "$splats" ]; then
		reasons+=("kernel splat in the serial log")
		failed=$((failed + 1))
		log "$name: offending kernel log lines ($log):"
		# Each offending line with context; overlapping blocks merged,
		# at most 10 blocks.
		local from shown=0 blocks=0
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

# Kernel command line of the stock kernels: SLUB's consistency checks (F),
# red zones (Z), poisoning (P) and alloc/free tracking (U) on every cache,
# so a use after free or overflow the driver causes is reported ("BUG
# <cache> (...): Poison overwritten") even without KASAN.  The benchmarks
# and the demo turn it off (VPMU_SLUB_DEBUG=): it slows every allocation.
stock_cmdline() {
	local flags=${VPMU_SLUB_DEBUG-FZPU}

	[ -n "$flags" ] && echo "slub_debug=$flags"
	return 0
}

# newest_name KVER - "7.3" for 7.3.4+deb13-amd64: the newest kernel's runs
# are named by its version (vm-7.3).
newest_name() {
	local v=${1%%[-+]*}

	echo "${v%.*}"
}

# prepare_kernel FLAVOUR - fetch or build FLAVOUR's kernel (its row of
# VM_FLAVOURS) and build its module; fills in VM_RUN, the run's record
# (above), and sets OUT, its output directory.
prepare_kernel() {
	local row flavour name kernel suite params w cmdline=()
	# What the kernel fetchers and module builders set stays here: the
	# run's record is what callers get.
	local KVER KDIR VMLINUZ KDESC IMG_PKG MODULE_KO KSFT_TREE_INSTALL

	row=$(flavour_row "$1")
	[ -n "$row" ] || die "unknown kernel $1 ($(flavours stock |
		paste -sd' ') $(flavours debug | paste -sd' '))"
	read -r flavour name _ kernel suite params <<<"$row"
	VM_RUN=([flavour]=$flavour [timeout]=${VPMU_VM_TIMEOUT:-600} [mem]=1G
		[smp]=2 [tcg]=${VPMU_TCG_THREAD:-single})
	case "$kernel" in
	7.x)
		resolve_newest
		name=vm-$(newest_name "$KVER")
		echo "$name" >"$VM_OUT/$flavour.name" ;;
	debug-*)
		build_debug_kernel "${kernel#debug-}"
		VM_RUN[selftests]=$KDIR/.vpmu-selftests
		VM_RUN[kmemleak]=1
		VM_RUN[timeout]=${VPMU_DEBUG_TIMEOUT:-900}
		VM_RUN[mem]=2G
		if debug_vpmu_builtin; then
			KDESC+=", vpmu built in"
		fi ;;
	*)
		resolve_stock "$kernel"
		fetch_stock_kernel ;;
	esac
	for w in $params; do
		case "$w" in
		@slub)	w=$(stock_cmdline)
			if [ -n "$w" ]; then
				cmdline+=("$w")
			fi ;;
		@smp=*)	VM_RUN[smp]=${w#@smp=} ;;
		@tcg=*)	VM_RUN[tcg]=${w#@tcg=} ;;
		@timeout=*)
			if [ "${w#@timeout=}" -gt "${VM_RUN[timeout]}" ]; then
				VM_RUN[timeout]=${w#@timeout=}
			fi ;;
		@*)	die "VM_FLAVOURS: $flavour: unknown $w" ;;
		*)	cmdline+=("$w") ;;
		esac
	done
	case "$suite" in
	all)	;;
	kselftest)
		build_ksft_tree
		VM_RUN[ksft]=$KSFT_TREE_INSTALL
		cmdline+=(vpmu_kselftest=1) ;;
	*)	cmdline+=("vpmu_test=$suite") ;;
	esac
	VM_RUN+=([name]=$name [kver]=$KVER [kdir]=$KDIR [vmlinuz]=$VMLINUZ
		 [cmdline]="${cmdline[*]}")
	log "$name: kernel $KDESC${cmdline[*]:+, ${cmdline[*]}}"
	if [ -n "${VPMU_MODULE_KO:-}" ]; then
		# A module built elsewhere (the pkg tier's DKMS build).
		[ -f "$VPMU_MODULE_KO" ] || die "no module $VPMU_MODULE_KO"
		MODULE_KO=$VPMU_MODULE_KO
		log "$name: module $MODULE_KO, not built here"
	elif [[ "$kernel" == debug-* ]] && debug_vpmu_builtin; then
		MODULE_KO=
		log "$name: vpmu is built into the kernel: no module"
	elif [ "$kernel" = 7.x ]; then
		build_module_in_root "$name" "$KDIR"
	else
		build_module "$name" "$KDIR"
	fi
	# Self-check runs report under their own name, same kernel and build.
	VM_RUN+=([module]=$MODULE_KO [kdesc]=$KDESC
		 [name]=${VPMU_RUN_NAME:-$name})
	OUT=$VM_OUT/${VM_RUN[name]}
	mkdir -p "$OUT"
	echo "$KDESC" >"$OUT/kernel"
}

# run_kernel FLAVOUR MODE [CMDLINE...] - build everything for one kernel
# and boot it.  $VPMU_EXTRA_MODULE_DIRS names module source dirs to build
# against the same kernel and load after vpmu.ko (selfcheck injectors).
run_kernel() {
	local flavour=$1 mode=$2 d extra=()
	shift 2

	prepare_kernel "$flavour"
	for d in ${VPMU_EXTRA_MODULE_DIRS:-}; do
		extra+=("$(build_extra_module "$d" "$(basename "$d")-${VM_RUN[kver]}" \
			"${VM_RUN[kdir]}")")
	done
	build_initrd "$OUT" "${VM_RUN[module]}" "${extra[@]}"
	# shellcheck disable=SC2086 # the command line is a word list
	# (run_guest adds $VPMU_APPEND)
	run_guest "$mode" "vpmu_test_timeout=$((VM_RUN[timeout] * 2 / 3))" \
		${VM_RUN[cmdline]} "$@"
}

# flavour_name FLAVOUR - the summary-line name of a kernel flavour: the
# table's, or a 7.x kernel's as prepare_kernel found it.
flavour_name() {
	local flavour name kernel

	if [ -n "${VPMU_RUN_NAME:-}" ]; then
		echo "$VPMU_RUN_NAME"
		return
	fi
	read -r flavour name _ kernel _ <<<"$(flavour_row "$1")"
	if [ -z "$flavour" ]; then
		case "$1" in
		debug-*) echo "$1" ;;
		*)	echo "vm-$1" ;;
		esac
	elif [ "$kernel" = 7.x ]; then
		cat "$VM_OUT/$flavour.name" 2>/dev/null || echo "$name"
	else
		echo "$name"
	fi
}

# check_kernel FLAVOUR [CMDLINE...] - run the suite on one kernel; always
# prints "NAME: N passed, N failed", even when the harness itself broke.
check_kernel() {
	local name rc=0 start stamp

	name=$(flavour_name "$1")
	start=$SECONDS
	stamp=$(date +%s)
	rm -f "$VM_OUT/$name/summary" "$VM_OUT/$name/splats"
	"$VM_DIR/run-kernel.sh" "$@" || rc=1
	# 7.x is named by the version the run found; a summary older than
	# this run is not its result.
	name=$(flavour_name "$1")
	if [ ! -s "$VM_OUT/$name/summary" ] ||
	   [ "$(stat -c %Y "$VM_OUT/$name/summary")" -lt "$stamp" ]; then
		echo "$name: FAIL: harness error before a result (see above)"
		echo "$name: 0 passed, 1 failed"
		rc=1
	fi
	log "$name: took $((SECONDS - start))s"
	return $rc
}

# selfcheck_inject KERNEL NAME WANT UNWANTED SPLATS ENV... - one run of
# the harness on KERNEL with a failure injected through the ENV words
# (NAME=value: VPMU_APPEND, VPMU_EXTRA_SELFTESTS, VPMU_EXTRA_MODULE_DIRS),
# reported as selfcheck-NAME; WANT must appear in its FAIL lines and
# UNWANTED must not; every |-separated regex of SPLATS (may be empty)
# must match a kernel line the harness flagged.  selfcheck.sh and
# kcsan-selfcheck.sh.
selfcheck_inject() {
	local kernel=$1 name=$2 want=$3 unwanted=$4 splats=$5 out rc=0 re
	shift 5

	out=$VM_OUT/selfcheck-$name.txt
	log "self-check: $name"
	(
		export VPMU_RUN_NAME="selfcheck-$name"
		# shellcheck disable=SC2163 # exports the NAME=value words given
		export "$@"
		check_kernel "$kernel"
	) >"$out" 2>&1 || rc=$?
	sed 's/^/  | /' "$out" | grep -E 'FAIL|passed,|WARNING|not ok' || true
	if [ "$rc" = 0 ]; then
		echo "self-check $name: the run passed; the harness missed it"
		return 1
	fi
	if ! grep -q "^selfcheck-$name: FAIL: $want" "$out"; then
		echo "self-check $name: failed, but not for \"$want\""
		return 1
	fi
	if grep -q "^selfcheck-$name: FAIL: $unwanted" "$out"; then
		echo "self-check $name: also failed for \"$unwanted\""
		return 1
	fi
	local IFS='|'
	for re in $splats; do
		if ! grep -qE "$re" "$VM_OUT/selfcheck-$name/splats"; then
			echo "self-check $name: no flagged kernel line matches \"$re\""
			return 1
		fi
	done
	echo "self-check $name: caught ($want)"
}
