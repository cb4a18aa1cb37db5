#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vpmu_version.sh - the release vpmu was built from (MODULE_VERSION) where
# users look for it (busybox sh):
#
#   1. /sys/module/vpmu/version is a release number (0.1.0), module or
#      built in;
#   2. the module file's modinfo "version=" is the same (what modinfo
#      prints; busybox's modinfo needs modules.dep, so the .modinfo
#      strings are read as modinfo reads them), when there is a file;
#   3. vpmu-load --status prints it on its "module" line.
#
# TAP output; skips without the module.

KO=${VPMU_KO:-$(modinfo -n vpmu 2>/dev/null)}
LOAD=$(command -v vpmu-load || echo vpmu-load)
V=/sys/module/vpmu/version
# shellcheck source=vpmu_tap.sh
. "$(dirname "$0")/vpmu_tap.sh"

[ -d /sys/module/vpmu ] || skip_all "vpmu is not loaded"
tap_plan 3

version=$(cat "$V" 2>/dev/null)
echo "# $V: '$version'"
echo "$version" | grep -qE '^[0-9]+(\.[0-9]+)+([~+-][0-9A-Za-z.~+-]+)?$'
ok $? "$V is a release number"

if [ -f "$KO" ] && [ -f /sys/module/vpmu/initstate ]; then
	case "$KO" in
	*.ko) modinfo=$(tr '\000' '\n' <"$KO" | sed -n 's/^version=//p') ;;
	*) modinfo=$(modinfo -F version "$KO") ;;	# compressed
	esac
	echo "# $KO: version=$modinfo"
	[ -n "$version" ] && [ "$modinfo" = "$version" ]
	ok $? "the module file's modinfo version is $V"
else
	skip "the module file's modinfo version" "no module file (built in?)"
fi

if [ -x "$LOAD" ]; then
	line=$("$LOAD" --status | grep '^module ')
	echo "# vpmu-load --status: '$line'"
	[ -n "$version" ] && [ "$(echo "$line" | awk '{ print $2 }')" = "$version" ]
	ok $? "vpmu-load --status prints it"
else
	skip "vpmu-load --status prints it" "no $LOAD"
fi
tap_done
