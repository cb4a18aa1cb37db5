#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_selftest_paths.sh - the selftests find vpmu where it is installed
# (TAP): vpmu_lib.c (selftest_paths.c) and vpmu_tap.sh take the data
# files from $VPMU_SHARE, by default /usr/share/vpmu (vpmu-tools'), the
# tools from PATH, and the module file from $VPMU_KO, by default the one
# "modinfo -n vpmu" names (a stand-in modinfo here), loading it with
# insmod or, without VPMU_KO, modprobe (stand-ins that log their
# arguments); and no file in selftests/vpmu names the VM harness's
# /opt/vpmu.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/tap.sh"

SELF=$TOP/selftests/vpmu
fake=$tmp/bin
mkdir -p "$fake"
# modinfo -n vpmu: $FAKE_KO, or nothing and exit 1 when unset.
cat >"$fake/modinfo" <<'SH'
#!/bin/sh
[ -n "${FAKE_KO:-}" ] || { echo "modinfo: ERROR: Module vpmu not found." >&2; exit 1; }
echo "$FAKE_KO"
SH
for t in insmod modprobe; do
	printf '#!/bin/sh\necho "%s $*" >>"$FAKE_LOG"\n' "$t" >"$fake/$t"
done
printf '#!/bin/sh\n' >"$fake/vpmu-run"
chmod +x "$fake"/*
touch "$tmp/vpmu.ko" "$tmp/vpmu.ko.xz"

lib=()
for f in $(ksft_lib_srcs); do
	lib+=("$SELF/$f")
done
gcc -O2 -Wall -Wextra -Wno-unused-parameter -I"$SELF" \
	-idirafter "$TOP/include/uapi" -o "$tmp/paths" \
	"$TOP/tools/testing/host/selftest_paths.c" "${lib[@]}" 2>"$tmp/cc.log"
ok $? "selftest_paths.c builds with the selftests' library"
sed 's/^/# /' "$tmp/cc.log"

paths() {	# paths [VAR=VALUE...]: selftest_paths with a clean environment
	env -i PATH="$fake:/usr/bin:/bin" "$@" "$tmp/paths" vpmu-run vpmu-nothere
}
has() {	# has LINE FILE
	grep -qxF -- "$1" "$2"
}

paths >"$tmp/out"
has "share /usr/share/vpmu/build/sum.vprg" "$tmp/out"
ok $? "C: the data files in /usr/share/vpmu by default"
paths VPMU_SHARE=/opt/x >"$tmp/out"
has "share /opt/x/build/sum.vprg" "$tmp/out"
ok $? "C: \$VPMU_SHARE overrides"
has "ko " "$tmp/out" && has "flags 0" "$tmp/out"
ok $? "C: no VPMU_KO and modinfo finds none: no module file"
paths FAKE_KO="$tmp/vpmu.ko.xz" >"$tmp/out"
has "ko $tmp/vpmu.ko.xz" "$tmp/out" && has "flags 4" "$tmp/out"
ok $? "C: the module file modinfo -n names, compressed: finit_module decompresses"
paths FAKE_KO="$tmp/vpmu.ko.xz" VPMU_KO=/opt/x/vpmu.ko >"$tmp/out"
has "ko /opt/x/vpmu.ko" "$tmp/out" && has "flags 0" "$tmp/out"
ok $? "C: \$VPMU_KO overrides"
has "tool vpmu-run 1" "$tmp/out" && has "tool vpmu-nothere 0" "$tmp/out"
ok $? "C: the tools from PATH"
sed 's/^/# /' "$tmp/out"

tap_sh() {	# tap_sh [VAR=VALUE...] -- SHELL-COMMAND: with vpmu_tap.sh sourced
	local vars=()

	while [ "$1" != -- ]; do vars+=("$1"); shift; done
	shift
	env -i PATH="$fake:/usr/bin:/bin" FAKE_LOG="$tmp/log" "${vars[@]}" \
		sh -c ". '$SELF/vpmu_tap.sh'; $1"
}
: >"$tmp/log"
tap_sh FAKE_KO="$tmp/vpmu.ko" -- 'vpmu_loadable && vpmu_insmod tc=0 nr_counters=12'
ok $? "sh: no VPMU_KO, modinfo finds one: loadable, and loaded"
has "modprobe vpmu tc=0 nr_counters=12" "$tmp/log"
ok $? "sh: ... with modprobe vpmu and the parameters"
: >"$tmp/log"
tap_sh VPMU_KO="$tmp/vpmu.ko" -- 'vpmu_loadable && vpmu_insmod tc=0'
has "insmod $tmp/vpmu.ko tc=0" "$tmp/log"
ok $? "sh: VPMU_KO: insmod of that file"
tap_sh -- 'vpmu_loadable'
[ $? != 0 ]
ok $? "sh: no VPMU_KO, modinfo finds none: not loadable"
tap_sh VPMU_KO=/nonexistent/vpmu.ko -- 'vpmu_loadable'
[ $? != 0 ]
ok $? "sh: VPMU_KO naming no file: not loadable"

# Nothing in the selftests names the harness's layout (its /init sets
# VPMU_SHARE and VPMU_KO, and puts /opt/vpmu/bin on PATH).
grep -rln '/opt/vpmu' "$SELF" >"$tmp/opt"
[ ! -s "$tmp/opt" ]
ok $? "no file in selftests/vpmu names /opt/vpmu"
sed 's/^/# /' "$tmp/opt"
tap_done
