# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib/packages.sh - the VM harness's packages: what the host installs
# (apt, through tools/pkg/apt.sh), the newest package of a name, and the
# Debian trixie build root, made from the host's mirror, where the newest
# kernel's module builds (sourced by ../lib.sh).

# apt_get, apt_retry, pkg_installed
# shellcheck source=../../../pkg/apt.sh
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

# --- the Debian trixie build root -------------------------------------------

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
