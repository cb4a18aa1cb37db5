#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# in-tree.sh [--part PART]... KSRC - add vpmu to a kernel source tree, as
# an upstream patch would (make in-tree KSRC=...):
#
#   drivers/perf/vpmu/            the driver, its Kconfig (PERF_VPMU) and
#                                 Makefile, the default microcode's source
#                                 and the assembler that Kbuild builds as a
#                                 host program to make its image, and the
#                                 generated version header
#   drivers/perf/Kconfig          sources drivers/perf/vpmu/Kconfig
#   drivers/perf/Makefile         obj-$(CONFIG_PERF_VPMU) += vpmu/
#   include/uapi/linux/vpmu.h     the uapi header
#   tools/testing/selftests/vpmu/ the kselftests; TARGETS += vpmu in
#                                 tools/testing/selftests/Makefile
#   Documentation/admin-guide/perf/vpmu.rst (in that directory's toctree),
#   Documentation/ABI/testing/*-vpmu, *-vpmu_hu
#   Documentation/userspace-api/ioctl/ioctl-number.rst  vpmu's ioctl code
#   MAINTAINERS                   vpmu's entry
#
# Then "make menuconfig" (Device Drivers, Performance monitor support)
# or scripts/config --module PERF_VPMU (or --enable) and build the kernel.
#
# --part adds only a part (given again, several), as one patch of the
# series does (tools/pkg/series.sh): uapi (the header, its ioctl code),
# engine (engine/, asm/ and ucode/ of drivers/perf/vpmu, not yet built),
# driver (the rest of drivers/perf/vpmu and the Kconfig and Makefile lines
# that build it), docs, selftests; each with its lines of vpmu's
# MAINTAINERS entry.  The files come from this
# tree, or from $VPMU_SRC, a tree of the same layout (series_src.py's).
#
# The generated version header is made here first ("make version-h": the
# kernel tree has no debian/changelog), unless the files come from
# $VPMU_SRC.  A file whose content is already in
# the tree is not touched, so running it again after a change to vpmu
# leaves only the changed files newer than the kernel's build and an
# incremental kernel build recompiles just those.  Prints how many files it
# changed.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
SRC=${VPMU_SRC:-$TOP}
PARTS=
while [ "${1:-}" = --part ]; do
	case ${2:-} in
	uapi|engine|driver|docs|selftests) PARTS="$PARTS $2 " ;;
	*) echo "in-tree: no part '${2:-}'" >&2; exit 1 ;;
	esac
	shift 2
done
KSRC=${1:?usage: in-tree.sh [--part PART]... KERNEL_SOURCE_TREE}
[ $# -eq 1 ] || { echo "in-tree: usage: in-tree.sh [--part PART]... KERNEL_SOURCE_TREE" >&2; exit 1; }
changed=0

[ -f "$KSRC/drivers/perf/Kconfig" ] && [ -f "$KSRC/drivers/perf/Makefile" ] ||
	{ echo "in-tree: $KSRC is not a kernel source tree" >&2; exit 1; }

[ "$SRC" != "$TOP" ] || make -s -C "$TOP" version-h

# part NAME - is NAME one of the parts to add (all when none was named)?
part() {
	case ${PARTS:- $1 } in *" $1 "*) return 0 ;; esac
	return 1
}

# put SRC DEST - copy SRC to KSRC/DEST (executable if SRC is) unless it
# already holds the same.
put() {
	local mode=0644

	[ -x "$SRC/$1" ] && mode=0755
	if ! cmp -s "$SRC/$1" "$KSRC/$2" ||
	   [ "$(stat -c %a "$KSRC/$2")" != "${mode#0}" ]; then
		install -D -m "$mode" "$SRC/$1" "$KSRC/$2"
		changed=$((changed + 1))
	fi
}

# put_dir SRCDIR DESTDIR PATTERN... - put the files of SRCDIR (not below)
# that match a PATTERN.
put_dir() {
	local src=$1 dst=$2 f
	shift 2

	for f in $(cd "$SRC/$src" && for p in "$@"; do
			find . -maxdepth 1 -type f -name "$p"; done | sort -u); do
		f=${f#./}
		# Kbuild's output when the module was built here
		case $f in *.mod.c|vpmu_default_image_data.h) continue ;; esac
		put "$src/$f" "$dst/$f"
	done
}

# add_line FILE LINE [BEFORE] - add LINE to KSRC/FILE once: before the
# first line matching the extended regex BEFORE, or at the end.
add_line() {
	local file=$KSRC/$1 line=$2 before=${3:-} n

	grep -qxF "$line" "$file" && return 0
	if [ -n "$before" ]; then
		n=$(grep -n -E -- "$before" "$file" | head -n 1 | cut -d: -f1)
		[ -n "$n" ] || { echo "in-tree: no '$before' in $file" >&2; exit 1; }
		sed -i "${n}i $line" "$file"
	else
		printf '%s\n' "$line" >>"$file"
	fi
	changed=$((changed + 1))
}

if part engine; then
	put_dir drivers/perf/vpmu/engine drivers/perf/vpmu/engine '*.[ch]'
	put_dir drivers/perf/vpmu/asm drivers/perf/vpmu/asm '*.[ch]'
	put_dir drivers/perf/vpmu/ucode drivers/perf/vpmu/ucode default.vus
fi
if part driver; then
	put_dir drivers/perf/vpmu drivers/perf/vpmu '*.[ch]' Kconfig Makefile \
		.gitignore
	add_line drivers/perf/Kconfig 'source "drivers/perf/vpmu/Kconfig"' \
		'^endmenu'
	add_line drivers/perf/Makefile 'obj-$(CONFIG_PERF_VPMU) += vpmu/'
fi
if part uapi; then
	put include/uapi/linux/vpmu.h include/uapi/linux/vpmu.h
fi

# The kselftests (the built programs are not sources).
if part selftests; then
	put_dir selftests/vpmu tools/testing/selftests/vpmu '*.[ch]' '*.sh' \
		Makefile config settings .gitignore
	if [ -f "$KSRC/tools/testing/selftests/Makefile" ]; then
		add_line tools/testing/selftests/Makefile 'TARGETS += vpmu' \
			'^TARGETS \+= [w-z]'
	fi
fi

# add_ioctl_number - vpmu's ioctl code (VPMU_IOC_MAGIC) in the kernel's
# table of them, Documentation/userspace-api/ioctl/ioctl-number.rst: a
# row in the code's order, aligned on the table's columns (its first
# border line gives them).
add_ioctl_number() {
	local f=$KSRC/Documentation/userspace-api/ioctl/ioctl-number.rst code

	[ -f "$f" ] || return 0
	grep -q 'uapi/linux/vpmu\.h' "$f" && return 0
	code=$(sed -n 's/^#define VPMU_IOC_MAGIC[[:space:]]*0x\([0-9a-fA-F]*\).*/\1/p' \
		"$SRC/include/uapi/linux/vpmu.h" | tr a-f A-F)
	[ -n "$code" ] || { echo "in-tree: no VPMU_IOC_MAGIC" >&2; exit 1; }
	awk -v code="0x$code" -v seq=00-2F -v hdr=uapi/linux/vpmu.h \
	    -v what='vpmu, the emulated microcoded PMU' '
	function pad(s, n) { while (length(s) < n) s = s " "; return s }
	/^====  *=====/ {
		borders++
		if (borders == 1)
			for (i = 2; i <= length($0); i++)
				if (substr($0, i, 1) == "=" &&
				    substr($0, i - 1, 1) == " ")
					col[++ncol] = i - 1
		if (borders == 3 && !done) {
			print row()
			done = 1
		}
	}
	borders == 2 && !done && /^0x[0-9A-Fa-f][0-9A-Fa-f] / &&
	    toupper(substr($0, 3, 2)) > toupper(substr(code, 3, 2)) {
		print row()
		done = 1
	}
	{ print }
	function row() {
		return pad(pad(pad(code, col[1]) seq, col[2]) hdr, col[3]) what
	}' "$f" >"$f.tmp"
	mv "$f.tmp" "$f"
	changed=$((changed + 1))
}

# add_maintainers F... - vpmu's MAINTAINERS entry, with the file patterns
# F among its F: lines (sorted, each once, none under a directory the
# entry also has): made in alphabetical order
# among the entries (before the first whose name sorts after it) if it is
# not there, else given the patterns it lacks (its other lines kept as
# they are).  Each part adds its own, as
# each patch of the series does, so that no patch adds a file MAINTAINERS
# does not cover.
add_maintainers() {
	local f=$KSRC/MAINTAINERS name='VPMU EMULATED MICROCODED PMU DRIVER' who

	[ -f "$f" ] || return 0
	who=$(sed -n 's/^Maintainer: //p' "$TOP/debian/control")
	printf '%s\n' "$@" | LC_ALL=C awk -v name="$name" -v who="$who" '
	FNR == NR { want["F:\t" $0] = 1; next }
	function entry(   k, n, i, j, t, fl) {
		print name
		if (nhdr)
			for (i = 1; i <= nhdr; i++)
				print hdr[i]
		else {
			print "M:\t" who
			print "L:\tlinux-perf-users@vger.kernel.org"
			print "S:\tMaintained"
		}
		n = 0
		for (k in want)
			fl[++n] = k
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && fl[j - 1] > fl[j]; j--) {
				t = fl[j]; fl[j] = fl[j - 1]; fl[j - 1] = t
			}
		for (i = 1; i <= n; i++) {
			# a path under a directory the entry has goes
			for (j = 1; j <= n; j++)
				if (j != i && fl[j] ~ /\/$/ &&
				    index(fl[i], fl[j]) == 1)
					break
			if (j > n)
				print fl[i]
		}
	}
	FNR == 1 { nwant = NR - 1 }
	{ line[NR - nwant] = $0 }
	END {
		n = NR - nwant
		for (i = 1; i <= n; i++) {
			if (line[i] == name) {
				for (i++; i <= n && line[i] != ""; i++)
					if (line[i] ~ /^F:\t/)
						want[line[i]] = 1
					else
						hdr[++nhdr] = line[i]
				entry()
				done = 1
			} else if (!done && i > 1 && line[i - 1] == "" &&
				   line[i + 1] ~ /^[A-Z]:\t/ &&
				   toupper(line[i]) > name && started) {
				entry()
				print ""
				done = 1
			}
			if (line[i] ~ /^Maintainers List/)
				started = 1
			if (i <= n)
				print line[i]
		}
	}' - "$f" >"$f.tmp"
	grep -qxF "$name" "$f.tmp" || { echo "in-tree: no place in MAINTAINERS" >&2; exit 1; }
	if cmp -s "$f" "$f.tmp"; then
		rm -f "$f.tmp"
	else
		mv "$f.tmp" "$f"
		changed=$((changed + 1))
	fi
}

# The kernel's document (the project's own, Documentation/vpmu, names
# files of this repository and stays here) in the perf admin guide's
# toctree.
if part docs; then
	put Documentation/admin-guide/perf/vpmu.rst \
		Documentation/admin-guide/perf/vpmu.rst
	if [ -f "$KSRC/Documentation/admin-guide/perf/index.rst" ]; then
		add_line Documentation/admin-guide/perf/index.rst '   vpmu'
	fi
	put_dir Documentation/ABI/testing Documentation/ABI/testing \
		'*-vpmu' '*-vpmu_hu'
fi
if part uapi; then
	add_ioctl_number
	add_maintainers include/uapi/linux/vpmu.h
fi
if part engine; then
	add_maintainers drivers/perf/vpmu/asm/ drivers/perf/vpmu/engine/ \
		drivers/perf/vpmu/ucode/
fi
if part driver; then
	add_maintainers drivers/perf/vpmu/
fi
if part docs; then
	add_maintainers Documentation/admin-guide/perf/vpmu.rst \
		'Documentation/ABI/testing/sysfs-bus-event_source-devices-vpmu*' \
		Documentation/ABI/testing/sysfs-module-vpmu
fi
if part selftests; then
	add_maintainers tools/testing/selftests/vpmu/
fi
echo "in-tree: $changed files changed in $KSRC"
