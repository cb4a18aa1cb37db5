# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# ccache.sh - make check's compilers through ccache (sourced by check.sh).
#
# A make check compiles the same sources again and again: the host
# tests' binaries and their planted faults in every fresh clone, the
# module for each kernel, DKMS's builds of it, the tools for the guests
# and the packages, a debug kernel whose configuration changed.  Through
# ccache a compile whose preprocessed source, flags and compiler are
# those of one before is a copy from the cache: a warm make check
# compiles only what changed (the host tier's builds: 80 CPU seconds
# cold, 15 warm).  A result depends on nothing else, so a copy is what
# the compiler would give; cold, ccache adds about 4%.
#
#   VPMU_CCACHE=0   compile without it
#   CCACHE_DIR      the cache (default $VPMU_CACHE/ccache, 5 GB at most:
#                   CCACHE_MAXSIZE)

# ccache_setup TOP - put ccache's compiler links (/usr/lib/ccache: gcc,
# gcc-12, clang, riscv64-unknown-elf-gcc, ... as Debian's ccache makes
# them for the compilers installed) first in PATH for this shell and
# what it runs, installing ccache as root when it is missing.  Without
# it (not root, no apt), nothing changes.
ccache_setup() {
	local top=$1

	[ "${VPMU_CCACHE:-1}" = 0 ] && return 0
	if ! command -v ccache >/dev/null && [ "$(id -u)" = 0 ]; then
		# shellcheck source=../pkg/apt.sh
		. "$top/tools/pkg/apt.sh"
		apt_retry /dev/null install ccache || true
	fi
	command -v ccache >/dev/null && [ -d /usr/lib/ccache ] || return 0
	# A compiler installed after ccache gets its link from a dpkg
	# trigger; one installed before, here.
	[ "$(id -u)" = 0 ] && command -v update-ccache-symlinks >/dev/null &&
		update-ccache-symlinks >/dev/null 2>&1
	case ":$PATH:" in
	*:/usr/lib/ccache:*) ;;
	*) PATH=/usr/lib/ccache:$PATH ;;
	esac
	export PATH
	export CCACHE_DIR=${CCACHE_DIR:-${VPMU_CACHE:-$HOME/.cache/vpmu}/ccache}
	export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
}

# ccache_counts - "HITS MISSES" of the cache so far ("0 0" without
# ccache): check.sh prints what one run added.
ccache_counts() {
	{ command -v ccache >/dev/null && [ "${VPMU_CCACHE:-1}" != 0 ] &&
		ccache --print-stats 2>/dev/null; } |
		awk '$1 ~ /_cache_hit$/ { h += $2 } $1 == "cache_miss" { m = $2 }
		     END { print h + 0, m + 0 }'
}
