#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# in-tree.sh KSRC - add vpmu to a kernel source tree, as an upstream patch
# would (make in-tree KSRC=...):
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
# The generated version header is made here first ("make version-h": the
# kernel tree has no debian/changelog).  A file whose content is already in
# the tree is not touched, so running it again after a change to vpmu
# leaves only the changed files newer than the kernel's build and an
# incremental kernel build recompiles just those.  Prints how many files it
# changed.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
KSRC=${1:?usage: in-tree.sh KERNEL_SOURCE_TREE}
changed=0

[ -f "$KSRC/drivers/perf/Kconfig" ] && [ -f "$KSRC/drivers/perf/Makefile" ] ||
	{ echo "in-tree: $KSRC is not a kernel source tree" >&2; exit 1; }

make -s -C "$TOP" version-h

# put SRC DEST - copy SRC to KSRC/DEST (executable if SRC is) unless it
# already holds the same.
put() {
	local mode=0644

	[ -x "$TOP/$1" ] && mode=0755
	if ! cmp -s "$TOP/$1" "$KSRC/$2" ||
	   [ "$(stat -c %a "$KSRC/$2")" != "${mode#0}" ]; then
		install -D -m "$mode" "$TOP/$1" "$KSRC/$2"
		changed=$((changed + 1))
	fi
}

# put_dir SRCDIR DESTDIR PATTERN... - put the files of SRCDIR (not below)
# that match a PATTERN.
put_dir() {
	local src=$1 dst=$2 f
	shift 2

	for f in $(cd "$TOP/$src" && for p in "$@"; do
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

put_dir drivers/perf/vpmu drivers/perf/vpmu '*.[ch]' Kconfig Makefile .gitignore
put_dir drivers/perf/vpmu/engine drivers/perf/vpmu/engine '*.[ch]'
put_dir drivers/perf/vpmu/asm drivers/perf/vpmu/asm '*.[ch]'
put_dir drivers/perf/vpmu/ucode drivers/perf/vpmu/ucode default.vus
put include/uapi/linux/vpmu.h include/uapi/linux/vpmu.h
add_line drivers/perf/Kconfig 'source "drivers/perf/vpmu/Kconfig"' '^endmenu'
add_line drivers/perf/Makefile 'obj-$(CONFIG_PERF_VPMU) += vpmu/'

# The kselftests (the built programs are not sources).
put_dir selftests/vpmu tools/testing/selftests/vpmu '*.[ch]' '*.sh' \
	Makefile config settings .gitignore
if [ -f "$KSRC/tools/testing/selftests/Makefile" ]; then
	add_line tools/testing/selftests/Makefile 'TARGETS += vpmu' \
		'^TARGETS \+= [w-z]'
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
		"$TOP/include/uapi/linux/vpmu.h" | tr a-f A-F)
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

# add_maintainers - vpmu's MAINTAINERS entry, in alphabetical order among
# the entries (before the first whose name sorts after it).
add_maintainers() {
	local f=$KSRC/MAINTAINERS name='VPMU EMULATED MICROCODED PMU DRIVER' who

	[ -f "$f" ] || return 0
	grep -qxF "$name" "$f" && return 0
	who=$(sed -n 's/^Maintainer: //p' "$TOP/debian/control")
	awk -v name="$name" -v who="$who" '
	function entry() {
		print name
		print "M:\t" who
		print "L:\tlinux-perf-users@vger.kernel.org"
		print "S:\tMaintained"
		print "F:\tDocumentation/ABI/testing/sysfs-bus-event_source-devices-vpmu*"
		print "F:\tDocumentation/ABI/testing/sysfs-module-vpmu"
		print "F:\tDocumentation/admin-guide/perf/vpmu.rst"
		print "F:\tdrivers/perf/vpmu/"
		print "F:\tinclude/uapi/linux/vpmu.h"
		print "F:\ttools/testing/selftests/vpmu/"
		print ""
	}
	{ line[NR] = $0 }
	END {
		for (i = 1; i <= NR; i++) {
			if (!done && i > 1 && line[i - 1] == "" &&
			    line[i + 1] ~ /^[A-Z]:\t/ && toupper(line[i]) > name &&
			    started) {
				entry()
				done = 1
			}
			if (line[i] ~ /^Maintainers List/)
				started = 1
			print line[i]
		}
	}' "$f" >"$f.tmp"
	grep -qxF "$name" "$f.tmp" || { echo "in-tree: no place in MAINTAINERS" >&2; exit 1; }
	mv "$f.tmp" "$f"
	changed=$((changed + 1))
}

# The kernel's document (the project's own, Documentation/vpmu, names
# files of this repository and stays here) in the perf admin guide's
# toctree.
put Documentation/admin-guide/perf/vpmu.rst Documentation/admin-guide/perf/vpmu.rst
if [ -f "$KSRC/Documentation/admin-guide/perf/index.rst" ]; then
	add_line Documentation/admin-guide/perf/index.rst '   vpmu'
fi
put_dir Documentation/ABI/testing Documentation/ABI/testing '*-vpmu' '*-vpmu_hu'
add_ioctl_number
add_maintainers
echo "in-tree: $changed files changed in $KSRC"
