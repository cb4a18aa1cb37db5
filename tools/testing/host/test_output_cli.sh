#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_output_cli.sh - what the tools' -o does to what is already there
# (TAP), through vpmu-as: a regular file is replaced whole and keeps its
# mode, a symlink's target is written and the link stays, a FIFO is
# written into, a device node is written into and stays a device (as
# root), and a failed run leaves what was there.
set -u

. "$(dirname "$0")/tap.sh"
AS=$BIN/vpmu-as
tap_build vpmu-as

"$AS" -o "$tmp/want.vpmu" "$UCODE_SRC"; ok $? "assemble default.vus"

echo old >"$tmp/reg"
chmod 0600 "$tmp/reg"
"$AS" -o "$tmp/reg" "$UCODE_SRC" && cmp -s "$tmp/reg" "$tmp/want.vpmu" &&
	[ "$(stat -c %a "$tmp/reg")" = 600 ]
ok $? "a regular file: replaced, its mode 0600 kept"

rm -f "$tmp/new"
(umask 077 && "$AS" -o "$tmp/new" "$UCODE_SRC") &&
	[ "$(stat -c %a "$tmp/new")" = 600 ]
ok $? "a new file: the mode the umask leaves (0600 under 077)"

echo old >"$tmp/target"
ln -s target "$tmp/link"
"$AS" -o "$tmp/link" "$UCODE_SRC" && [ -L "$tmp/link" ] &&
	cmp -s "$tmp/target" "$tmp/want.vpmu"
ok $? "a symlink: its target written, the link kept"

mkfifo "$tmp/fifo"
timeout 20 cat "$tmp/fifo" >"$tmp/fifo.out" &
reader=$!
"$AS" -o "$tmp/fifo" "$UCODE_SRC"
rc=$?
wait "$reader"
[ "$rc" = 0 ] && [ -p "$tmp/fifo" ] && cmp -s "$tmp/fifo.out" "$tmp/want.vpmu"
ok $? "a FIFO: written into, still a FIFO"

if [ "$(id -u)" = 0 ] && mknod "$tmp/null" c 1 3 2>/dev/null; then
	"$AS" -o "$tmp/null" "$UCODE_SRC" && [ -c "$tmp/null" ]
	ok $? "a device node (a copy of /dev/null, as root): still a device"
else
	skip "a device node" "needs root and mknod"
fi

echo old >"$tmp/keep"
printf 'bogus\n' >"$tmp/bad.s"
! "$AS" -o "$tmp/keep" "$tmp/bad.s" 2>/dev/null &&
	[ "$(cat "$tmp/keep")" = old ] && [ -z "$(ls "$tmp"/keep.tmp* 2>/dev/null)" ]
ok $? "a failed run leaves the file as it was, and no temporary file"

tap_done
