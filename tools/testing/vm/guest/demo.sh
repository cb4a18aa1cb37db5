#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - in-guest demo (busybox sh): load vpmu.ko and show, with sysfs
# and perf, that the PMU is there.  Runs /opt/vpmu/share/demo.sh too when
# present (later work puts a perf stat demo there).

PMU=/sys/bus/event_source/devices/vpmu

run() {
	echo
	echo "guest# $1"
	eval "$1" 2>&1
}

echo "VPMU-BEGIN demo, kernel $(uname -r)"
run "insmod /opt/vpmu/vpmu.ko"
run "grep vpmu /proc/modules"
run "ls $PMU"
run "cat $PMU/type"
[ -d "$PMU/format" ] && run "grep . $PMU/format/*"
[ -d "$PMU/events" ] && run "ls $PMU/events"
run "perf list 2>/dev/null | grep -i vpmu || echo '(perf list shows no vpmu events yet)'"
run "perf list pmu 2>/dev/null | head -n 40"
run "perf stat -e vpmu/config=0/ -a sleep 0.1"
if [ -f /opt/vpmu/share/demo.sh ]; then
	run "sh /opt/vpmu/share/demo.sh"
fi
echo
echo "VPMU-DEMO done"
