#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh - the guest-side part of "make demo" (busybox sh, module loaded):
# the vpmu events perf knows, then exact counts of a sample program with
# perf stat, per task and CPU-wide.  The expected counts are the sample's
# .expect lines, printed alongside.

SHARE=${VPMU_SHARE:-/opt/vpmu/share}
RUN=/opt/vpmu/bin/vpmu-run
SUM=$SHARE/build/sum.vprg
SORT=$SHARE/build/sort.vprg

run() {
	echo
	echo "guest# $1"
	eval "$1" 2>&1
}

run "perf list 2>/dev/null | grep vpmu"
run "grep . /sys/bus/event_source/devices/vpmu/format/*"
# Four events at once need four counters (the default is three, and perf
# would multiplex and scale): reload the module with one more.
run "rmmod vpmu && insmod /opt/vpmu/vpmu.ko nr_counters=4 && grep . /sys/bus/event_source/devices/vpmu/caps/*"
run "grep -E '^event (cycles|uops|insns|tag1) ' $SHARE/samples/sum.expect"
run "perf stat -e vpmu/vpmu_cycles/,vpmu/vpmu_uops/,vpmu/vpmu_insns/,vpmu/vpmu_tag1/ $RUN $SUM"
# A raw event number, a tag by number, and the 14-bit counter (ctr=3)
# wrapping many times in one run of the sort loop, counted exactly.
run "perf stat -e vpmu/event=2/,vpmu/tag=5/,vpmu/vpmu_cycles,ctr=3/ $RUN -q -b 1000003 $SHARE/build/sortloop.vprg"
# Privilege filters: the syscall sample spends 13 of its 39 cycles in
# supervisor mode.
run "perf stat -e vpmu/vpmu_cycles/u,vpmu/vpmu_cycles/k,vpmu/vpmu_cycles/ $RUN $SHARE/build/syscall.vprg"
# CPU-wide: every run on CPU 1 while perf watches it, whoever runs it.
run "perf stat -a -C 1 -e vpmu/vpmu_insns/,vpmu/vpmu_dc_miss/ -- taskset -c 1 $RUN -n 3 -q $SORT"
# The engines translate the microcode paths of hot instructions once and
# replay them (vpmu.ko tc=1, the default); with tc=0 they interpret every
# microword.  The counts are the same; the time is not.
LOOP="perf stat -e vpmu/vpmu_cycles/,vpmu/vpmu_uops/,vpmu/vpmu_insns/ $RUN -q -b 20000003 $SHARE/build/sortloop.vprg"
run "$LOOP"
run "rmmod vpmu && insmod /opt/vpmu/vpmu.ko nr_counters=4 tc=0 && cat /sys/module/vpmu/parameters/tc"
run "$LOOP"
rmmod vpmu && insmod /opt/vpmu/vpmu.ko nr_counters=4
