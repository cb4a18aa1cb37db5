#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_build_twice.sh - a fresh tree's second build rebuilds nothing
# (TAP).  The top Makefile's ucode and version-h targets build vpmu-as
# and the image in a copy of the tree's files and write the version header
# (what "make modules" does before Kbuild); made again, vpmu-as's objects
# must be up to date.  They were not while the generated headers (the
# version, and the image's that an in-place module build writes) counted
# among their prerequisites, and the VM harness, building one tree copy
# from two runs at once, raced on the rebuild ("vpmu-as: Text file busy").
set -u

. "$(dirname "$0")/tap.sh"

copy=$tmp/tree
mkdir -p "$copy"
if git -C "$TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$TOP" && git ls-files -z | xargs -0 cp --parents -t "$copy")
else
	rsync -a --exclude=/.git --filter=':- .gitignore' "$TOP/" "$copy/"
fi
make -s -C "$copy" ucode version-h >"$tmp/first.log" 2>&1
ok $? "first build: ucode and version-h"
make -n -C "$copy/tools/vpmu" ucode >"$tmp/second.log" 2>&1
rebuilt=$(grep -cE '^(cc|gcc) ' "$tmp/second.log")
[ "$rebuilt" = 0 ] || head -n 3 "$tmp/second.log" | sed 's/^/# /'
ok "$([ "$rebuilt" = 0 ]; echo $?)" "second build compiles nothing ($rebuilt compiles)"
tap_done
