#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fault-selfcheck.sh [FLAVOUR] - prove the fault tier notices a broken
# error path.  Copies the work tree to $VPMU_CACHE/fault-selfcheck/,
# applies selfcheck/fault/broken.diff there (five error paths broken on
# purpose, each marked BROKEN: a freeze control leaked when a per-task
# state cannot be had, EINVAL for a failed allocation of a histogram-unit
# program, the program a /dev/vpmu file keeps for a resume dropped when
# the resumed run's memory cannot be had, EINVAL for a failed load with
# more than three counters, an events/ tag alias that cannot be made
# ignored by the image loader) and runs vpmu_fault on FLAVOUR (default
# debug-6.12-fault).  The run must fail, and for those five reasons:
#
#   hu_ioctl: site N: Invalid argument, not ENOMEM
#   resume: site N (...) changed things
#   a kmemleak report ("unreferenced object") among the flagged lines
#   insmod nr_counters=16 ...: site N: Invalid argument, not ENOMEM
#   events/: N tag aliases, not M ... (image_load_tags)
#
# Prints "fault self-check: ok" and exits 0 only then.  Not part of
# make check (14 minutes idle); testing.rst, "Fault injection".
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
flavour=${1:-debug-6.12-fault}
copy=${VPMU_CACHE:-$HOME/.cache/vpmu}/fault-selfcheck/src

mkdir -p "$copy"
rsync -rlpD --checksum --delete --exclude=/.git \
	--filter=':- .gitignore' "$top/" "$copy/"
patch -s -d "$copy" -p1 <"$here/selfcheck/fault/broken.diff"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
rc=0
"$copy/tools/testing/vm/vm-run.sh" --kernel "$flavour" >"$out" 2>&1 || rc=$?
# The copy's run directory: lib.sh's VM_OUT for that tree, the run's name.
run_dir=$(bash -c '. "$1/tools/testing/vm/lib.sh"
	echo "$VM_OUT/$(flavour_name "$2")"' _ "$copy" "$flavour")
log=$run_dir/serial.log
grep -E 'FAIL|passed,' "$out" | sed 's/^/  | /' || true

bad=0
want() {	# want WHAT PATTERN FILE
	if grep -qE "$2" "$3"; then
		echo "caught: $1"
	else
		echo "MISSED: $1"
		bad=1
	fi
}
if [ "$rc" = 0 ]; then
	echo "MISSED: the run passed"
	bad=1
fi
want "EINVAL from a failed allocation (hu_ioctl)" \
	'hu_ioctl: site [0-9]+: Invalid argument, not ENOMEM' "$log"
want "the kept program lost by a failed resume (resume)" \
	'resume: site [0-9]+ \(.*\) changed things' "$log"
want "the leaked freeze control (kmemleak)" \
	'unreferenced object' "$run_dir/splats"
want "EINVAL from a failed load with 16 counters (insmod_params)" \
	'insmod nr_counters=16 [^:]*: site [0-9]+: Invalid argument, not ENOMEM' "$log"
want "the tag alias a load could not make (image_load_tags)" \
	'events/: [0-9]+ tag aliases, not [0-9]+; generation' "$log"
if [ "$bad" = 0 ]; then
	echo "fault self-check: ok"
else
	echo "fault self-check: FAILED (serial log: $log)"
fi
exit $bad
