#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vpmu_stress.sh - the stress tier: vpmu_stress with several seeds, one
# TAP case per seed.
#
# The seeds are BASE, BASE+1, ... so every run of the suite is the same;
# the kernel command line (the VM harness passes $VPMU_APPEND) or the
# environment changes them:
#   vpmu_stress_seed=N      BASE (default 1)
#   vpmu_stress_seeds=N     how many seeds (default 3)
#   vpmu_stress_seconds=S   per seed (default 20)
#   vpmu_stress_verbose=1   print every operation, not only failures
# VPMU_STRESS_SEED, VPMU_STRESS_SEEDS, VPMU_STRESS_SECONDS and
# VPMU_STRESS_VERBOSE in the environment override the command line.

dir=$(dirname "$0")
# Beside this script: a TEST_GEN_FILES, which the runners do not run on
# its own, and the TAP helpers.
bin=$dir/vpmu_stress
# shellcheck source=vpmu_tap.sh
. "$dir/vpmu_tap.sh"
base=1
seeds=3
seconds=20
verbose=
if [ -r /proc/cmdline ]; then
	read -r cmdline </proc/cmdline
	for arg in $cmdline; do
		case "$arg" in
		vpmu_stress_seed=*) base=${arg#*=} ;;
		vpmu_stress_seeds=*) seeds=${arg#*=} ;;
		vpmu_stress_seconds=*) seconds=${arg#*=} ;;
		vpmu_stress_verbose=*) verbose=${arg#*=} ;;
		esac
	done
fi
base=${VPMU_STRESS_SEED:-$base}
seeds=${VPMU_STRESS_SEEDS:-$seeds}
seconds=${VPMU_STRESS_SECONDS:-$seconds}
verbose=${VPMU_STRESS_VERBOSE:-$verbose}

tap_plan "$seeds"
i=0
while [ "$i" -lt "$seeds" ]; do
	seed=$((base + i))
	i=$((i + 1))
	set -- --seed "$seed" --seconds "$seconds"
	[ -n "$verbose" ] && [ "$verbose" != 0 ] && set -- "$@" --verbose
	"$bin" "$@"
	rc=$?
	case $rc in
	0) ok 0 "vpmu_stress --seed $seed" ;;
	4) skip "vpmu_stress --seed $seed" ;;
	*) ok 1 "vpmu_stress --seed $seed (exit status $rc)" ;;
	esac
done
tap_done
