#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vpmu_abi.sh - the ABI files (Documentation/ABI/testing/*-vpmu, installed
# beside this script, TEST_FILES) against the sysfs of the running vpmu
# (busybox sh):
#
#   1. every file of the two PMUs' directories (vpmu, vpmu_hu), of
#      /sys/module/vpmu/parameters
#      and /sys/module/vpmu/version has a What: entry ("N" in a What: is
#      a number; a What: ending in "/" covers the files of its
#      directory), but the perf core's and the driver core's own files
#      (power/, uevent, perf_event_mux_interval_ms, nr_addr_filters);
#   2. every format/ file of vpmu holds what its row of the ABI's format
#      table says, and every row has its file;
#   3. every What: exists (N = 0), but the benchmark build's parameters.
#
# TAP output; skips without the module or the ABI files.

PMU=/sys/bus/event_source/devices/vpmu
HU=/sys/bus/event_source/devices/vpmu_hu
MOD=/sys/module/vpmu
DIR=$(dirname "$0")
# Installed beside this script; run from the source, the tree's own
# (selftests/vpmu here, tools/testing/selftests/vpmu in a kernel tree).
ABIDIR=$DIR
for d in "$DIR/../../Documentation/ABI/testing" \
	 "$DIR/../../../../Documentation/ABI/testing"; do
	[ -f "$ABIDIR/sysfs-module-vpmu" ] || ABIDIR=$d
done
ABI="$ABIDIR/sysfs-bus-event_source-devices-vpmu
     $ABIDIR/sysfs-bus-event_source-devices-vpmu_hu $ABIDIR/sysfs-module-vpmu"
T=/tmp/vpmu_abi.$$
# shellcheck source=vpmu_tap.sh
. "$DIR/vpmu_tap.sh"

[ -d "$PMU" ] || skip_all "no vpmu PMU"
[ -d "$HU" ] || skip_all "no vpmu_hu PMU"
for f in $ABI; do
	[ -f "$f" ] || skip_all "no $f"
done
trap 'rm -f "$T".*' EXIT
tap_plan 3

# Every What: path, one a line.
# shellcheck disable=SC2086 # $ABI is a list of files
sed -n 's/^What:[[:space:]]*//p' $ABI >"$T.what"

# 1. The files there are, each matched against the What: lines as regexes.
sed -e 's/[.]/[.]/g' -e 's/N/[0-9]+/g' -e 's|/$|/.+|' -e 's/^/^/' \
	-e 's/$/$/' "$T.what" >"$T.re"
{ find "$PMU/" -type f; find "$HU/" -type f; find "$MOD/parameters" -type f
  [ -f "$MOD/version" ] && echo "$MOD/version"; } |
	sed -e "s|^$PMU//*|$PMU/|" -e "s|^$HU//*|$HU/|" |
	grep -vE "^($PMU|$HU)/(power/|uevent$|perf_event_mux_interval_ms$|nr_addr_filters$)" |
	sort >"$T.files"
grep -vE -f "$T.re" "$T.files" >"$T.undoc"
[ -s "$T.files" ] && [ ! -s "$T.undoc" ]
rc=$?
sed 's/^/# no ABI entry: /' "$T.undoc"
ok $rc "every sysfs file of vpmu and vpmu_hu has an ABI entry ($(wc -l <"$T.files") files)"

# 2. The format table: rows "NAME  configN:BITS  meaning" of its entry.
sp='[[:space:]]\{1,\}'
sed -n "s/^$sp\([a-z_0-9]\{1,\}\)$sp\(config[0-9]*:[0-9,-]\{1,\}\)[[:space:]].*/\1 \2/p" \
	"$ABIDIR/sysfs-bus-event_source-devices-vpmu" | sort >"$T.rows"
for f in "$PMU"/format/*; do
	echo "${f##*/} $(cat "$f")"
done | sort >"$T.fmt"
diff "$T.rows" "$T.fmt" >"$T.diff"
rc=$?
sed 's/^/# /' "$T.diff"
ok $rc "format/ files as the ABI's table ($(wc -l <"$T.fmt") fields)"

# 3. Every entry there.
: >"$T.missing"
while read -r w; do
	case "$w" in
	*/bench_chunk_*) continue ;;	# the benchmark build's only
	esac
	p=$(echo "$w" | sed 's/N/0/g')
	[ -e "$p" ] || echo "$w" >>"$T.missing"
done <"$T.what"
[ ! -s "$T.missing" ]
rc=$?
sed 's/^/# missing: /' "$T.missing"
ok $rc "every ABI entry exists ($(wc -l <"$T.what") entries)"
tap_done
