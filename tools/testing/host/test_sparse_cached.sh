#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# test_sparse_cached.sh - tools/testing/sparse-cached.sh, the lint tier's
# CHECK (TAP), against a stand-in sparse that logs each check it makes,
# prints a warning naming the file (as sparse does, by its path) and
# exits as $FAKE_RC says:
#
#   1. the first call checks, the second with the same file and arguments
#      does not, and prints the same warning and exit status;
#   2. a copy of the tree elsewhere (VPMU_SPARSE_ROOT) reuses the result,
#      its warning naming the copy's path;
#   3. a changed file, a changed header it includes, other arguments or
#      another sparse version check again;
#   4. a file sparse cannot preprocess is checked, and nothing is kept.
set -u

. "$(dirname "$0")/tap.sh"

WRAP=$TOP/tools/testing/sparse-cached.sh
fake=$tmp/sparse
cat >"$fake" <<'EOF'
#!/bin/sh
# the last argument is the file; -I DIR adds DIR to the search path
if [ "$1" = --version ]; then echo "${FAKE_VERSION:-0.6.4}"; exit 0; fi
last=
for a in "$@"; do last=$a; done
if [ "$1" = -E ]; then
	[ -f "$last" ] || exit 1
	inc=$(sed -n 's/^#include "\(.*\)"$/\1/p' "$last")
	grep -v '^#include' "$last"
	[ -z "$inc" ] || cat "$(dirname "$last")/$inc"
	exit 0
fi
echo "check $last" >>"$FAKE_LOG"
[ -f "$last" ] || { echo "$last: no such file" >&2; exit 1; }
echo "$last:1:1: warning: something" >&2
exit "${FAKE_RC:-0}"
EOF
chmod +x "$fake"
export VPMU_SPARSE="$fake" VPMU_SPARSE_CACHE="$tmp/cache" FAKE_LOG="$tmp/log"

mkdir -p "$tmp/a" "$tmp/b"
printf '#include "x.h"\nint f(void);\n' >"$tmp/a/f.c"
echo "int x;" >"$tmp/a/x.h"
cp "$tmp/a/f.c" "$tmp/a/x.h" "$tmp/b/"

# checks - how many checks the stand-in made so far
checks() { wc -l <"$tmp/log" 2>/dev/null || echo 0; }

# call ROOT ARGS... - the wrapper in ROOT; its stderr into $tmp/err, its
# exit status into $rc
call() {
	r=$1
	shift
	VPMU_SPARSE_ROOT=$r "$WRAP" "$@" 2>"$tmp/err"
	rc=$?
}

: >"$tmp/log"
FAKE_RC=3 call "$tmp/a" -Wall "$tmp/a/f.c"
[ "$(checks)" -eq 1 ] && [ "$rc" = 3 ] &&
	grep -qxF "$tmp/a/f.c:1:1: warning: something" "$tmp/err"
ok $? "a first call checks: its warning and exit status 3"
FAKE_RC=0 call "$tmp/a" -Wall "$tmp/a/f.c"
[ "$(checks)" -eq 1 ] && [ "$rc" = 3 ] &&
	grep -qxF "$tmp/a/f.c:1:1: warning: something" "$tmp/err"
ok $? "the same call again: no check, the same warning and status"
call "$tmp/b" -Wall "$tmp/b/f.c"
[ "$(checks)" -eq 1 ] && [ "$rc" = 3 ] &&
	grep -qxF "$tmp/b/f.c:1:1: warning: something" "$tmp/err"
ok $? "a copy of the tree elsewhere: no check, the warning names the copy"

echo "int g(void);" >>"$tmp/b/f.c"
call "$tmp/b" -Wall "$tmp/b/f.c"
[ "$(checks)" -eq 2 ] && [ "$rc" = 0 ]
ok $? "a changed file is checked again"
echo "int y;" >>"$tmp/a/x.h"
call "$tmp/a" -Wall "$tmp/a/f.c"
[ "$(checks)" -eq 3 ]
ok $? "a changed header it includes: checked again"
call "$tmp/a" -Wall -Wextra "$tmp/a/f.c"
[ "$(checks)" -eq 4 ]
ok $? "other arguments: checked again"
FAKE_VERSION=0.6.5 call "$tmp/a" -Wall "$tmp/a/f.c"
[ "$(checks)" -eq 5 ]
ok $? "another sparse version: checked again"
before=$(find "$tmp/cache" -type f | wc -l)
call "$tmp/a" -Wall "$tmp/a/none.c"
call "$tmp/a" -Wall "$tmp/a/none.c"
[ "$(checks)" -eq 7 ] && [ "$rc" = 1 ] &&
	[ "$(find "$tmp/cache" -type f | wc -l)" = "$before" ] &&
	grep -qF "none.c: no such file" "$tmp/err"
ok $? "a file that cannot be preprocessed: checked each time, nothing kept"
tap_done
