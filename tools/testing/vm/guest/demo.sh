#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - in-guest demo (busybox sh): load vpmu.ko and show, with perf,
# that the PMU is there.  Runs /opt/vpmu/share/demo.sh too when present.

PMU=/sys/bus/event_source/devices/vpmu

run() {
	echo
	echo "guest# $*"
	"$@" 2>&1
}

echo "VPMU-BEGIN demo, kernel $(uname -r)"
run insmod /opt/vpmu/vpmu.ko
run ls "$PMU"
run cat "$PMU/type"
run sh -c "perf list 2>/dev/null | grep -i vpmu || echo '(no vpmu events listed yet)'"
run sh -c "perf list pmu 2>/dev/null | head -n 40"
[ -d "$PMU/events" ] && run ls "$PMU/events"
[ -d "$PMU/format" ] && run grep . "$PMU"/format/*
if [ -x /opt/vpmu/share/demo.sh ] || [ -f /opt/vpmu/share/demo.sh ]; then
	run sh /opt/vpmu/share/demo.sh
fi
echo
echo "VPMU-DEMO done"
