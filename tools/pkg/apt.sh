# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# apt.sh - the apt helpers of make deb and of the test harness (sourced).
#
# Several parts of "make check" may install packages at once (the debug
# kernels build in the background while the host tier runs), so every
# apt-get here waits for another one's lock instead of failing.

# apt_get ARGS... - apt-get, non-interactive, without recommends, waiting
# up to 10 minutes for the dpkg lock.
apt_get() {
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 \
		-o Acquire::Retries=3 -y --no-install-recommends "$@"
}

# pkg_installed PKG - true when PKG is installed (not just unpacked).
pkg_installed() {
	[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = \
		"install ok installed" ]
}

# apt_retry LOG ARGS... - apt_get ARGS, output appended to LOG; on failure
# (stale or missing package lists on a fresh machine) run apt-get update
# once and try again.  Returns the last attempt's status.
apt_retry() {
	local log=$1

	shift
	apt_get "$@" >>"$log" 2>&1 && return 0
	echo "apt: apt-get $1 failed; running apt-get update and retrying" >>"$log"
	apt_get update >>"$log" 2>&1 || true
	apt_get "$@" >>"$log" 2>&1
}

# apt_install_missing PKG... - install the packages a test found missing,
# as root on a machine with apt; elsewhere, or with none given, nothing
# (the test then says what it lacks and skips).
apt_install_missing() {
	[ $# -gt 0 ] && [ "$(id -u)" = 0 ] &&
		command -v apt-get >/dev/null 2>&1 || return 0
	apt_retry /dev/null install "$@" || true
}
