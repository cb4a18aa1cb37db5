# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib/kernels.sh - the kernels the VM harness boots but does not build:
# the newest bookworm kernel of a stock series and the newest 7.x of
# trixie-backports, found in the package lists, downloaded and extracted
# into the cache (sourced by ../lib.sh; the debug kernels are debug.sh's).

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
	local kdir=$CACHE/kernels/$KVER deb lock

	VMLINUZ=$kdir/vmlinuz
	# One fetch of a kernel at a time (the self-check and the vm tier
	# start at once): the others wait and find it.
	mkdir -p "$kdir"
	exec {lock}>"$kdir.lock"
	flock "$lock"
	if [ ! -s "$VMLINUZ" ]; then
		mkdir -p "$CACHE/debs"
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
	exec {lock}>&-
	ensure_pkgs "linux-headers-$KVER"
	KDIR=/usr/src/linux-headers-$KVER
	KDESC="$KVER (Debian $(dpkg-query -W -f='${Version}' "linux-headers-$KVER"))"
}

# --- the newest kernel, from trixie-backports -------------------------------

# resolve_newest - the newest 7.x amd64 kernel ABI in trixie-backports (or
# trixie); sets KVER, IMG_PKG, and fetches the image into the cache and the
# headers into the build root; sets VMLINUZ and KDIR (a path in the root).
# shellcheck disable=SC2034 # KDIR, KDESC: prepare_kernel's (guest.sh)
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
