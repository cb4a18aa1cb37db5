#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make-deb.sh (make deb) - build the vpmu-dkms and vpmu-tools packages.
#
# The tree (the files git knows, uncommitted changes included; the whole
# directory but build/ when it is not a git checkout) is copied to
# build/deb/vpmu-VERSION/ and built there with "dpkg-buildpackage -us -uc
# -b", so the working tree is never cleaned or written by the build.  The
# .deb, .changes and .buildinfo files land in build/deb/ (VPMU_DEB_DIR
# overrides it).  The build dependencies (debian/control) are installed
# with apt when missing, as the rest of the harness does.
#
# The last line names the .changes file:  "deb: build/deb/vpmu_V_ARCH.changes"
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${VPMU_DEB_DIR:-$TOP/build/deb}

log() { printf '%s\n' "deb: $*" >&2; }
die() { printf '%s\n' "deb: error: $*" >&2; exit 1; }

# apt_get, apt_retry, pkg_installed
# shellcheck source=apt.sh
. "$TOP/tools/pkg/apt.sh"

# build_deps SRCDIR - install what debian/control's Build-Depends lists,
# when dpkg-checkbuilddeps finds something missing; apt-get update only
# when the first attempt fails (stale or missing package lists).
build_deps() {
	local log=$OUT/apt.log

	: >"$log"
	pkg_installed dpkg-dev || apt_retry "$log" install dpkg-dev ||
		{ tail -20 "$log" >&2; die "cannot install dpkg-dev"; }
	(cd "$1" && dpkg-checkbuilddeps) >/dev/null 2>&1 && return 0
	log "installing the build dependencies (apt-get build-dep)"
	apt_retry "$log" build-dep "$1" ||
		{ tail -20 "$log" >&2; die "cannot install the build dependencies"; }
}

# copy_tree DEST - the source tree, without build outputs.
copy_tree() {
	mkdir -p "$1"
	if git -C "$TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		# Tracked and new (not ignored) files; deleted ones are skipped.
		git -C "$TOP" ls-files -z --cached --others --exclude-standard |
			(cd "$TOP" && xargs -0 -r sh -c \
				'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh) |
			tar -C "$TOP" --null -T - -cf - | tar -C "$1" -xf -
	else
		tar -C "$TOP" --exclude=./build -cf - . | tar -C "$1" -xf -
	fi
}

VERSION=$(sed -n '1s/^vpmu (\([^)]*\)).*/\1/p' "$TOP/debian/changelog")
[ -n "$VERSION" ] || die "no version in debian/changelog"
SRC=$OUT/vpmu-$VERSION

mkdir -p "$OUT"
build_deps "$TOP"
rm -rf "$SRC"
rm -f "$OUT"/vpmu*_"$VERSION"_*.deb "$OUT"/vpmu_"$VERSION"_*.changes \
	"$OUT"/vpmu_"$VERSION"_*.buildinfo
copy_tree "$SRC"
(cd "$SRC" && find . -type f | sort) >"$OUT/tree.before"
log "building vpmu $VERSION in $SRC"
if ! (cd "$SRC" && dpkg-buildpackage -us -uc -b) >"$OUT/build.log" 2>&1; then
	tail -40 "$OUT/build.log" >&2
	die "dpkg-buildpackage failed (log: $OUT/build.log)"
fi
# "debian/rules clean" takes the tree back to the source as copied: what
# the build made and left would end up in a source package.
(cd "$SRC" && debian/rules clean) >>"$OUT/build.log" 2>&1 ||
	die "debian/rules clean failed (log: $OUT/build.log)"
left=$(cd "$SRC" && find . -type f | sort | comm -13 "$OUT/tree.before" -)
[ -z "$left" ] || die "debian/rules clean left: ${left//$'\n'/ }"
rm -f "$OUT/tree.before"
rm -rf "$SRC"
changes=$(ls "$OUT"/vpmu_"$VERSION"_*.changes)
for f in "$OUT"/vpmu*_"$VERSION"_*.deb; do
	log "built ${f#"$TOP"/}"
done
echo "deb: ${changes#"$TOP"/}"
