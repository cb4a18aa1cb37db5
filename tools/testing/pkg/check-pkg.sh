#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-pkg.sh (make pkg-check; check.sh tier "pkg") - the install path,
# on this machine, as root, no VM:
#
#   1. make deb builds vpmu-dkms and vpmu-tools, versioned from
#      debian/changelog; lintian on the .changes reports nothing (pedantic
#      level; overrides must give their reason in the source);
#   2. make install / make uninstall with DESTDIR put the same files where
#      the packages put them, and take them all away again;
#   3. vpmu-tools installs; every man page renders with no groff warning;
#      the host tier's command-line tests (test_*_cli.sh) pass against the
#      installed /usr/bin tools and /usr/share/vpmu;
#   4. vpmu-dkms installs, and DKMS builds vpmu.ko for every kernel with
#      headers under /lib/modules (the VM harness's bookworm 6.1 and 6.12
#      linux-headers packages), with that kernel's vermagic, installed
#      under updates/dkms; each vpmu.ko is kept (uncompressed) in
#      $VPMU_CACHE/pkg/dkms/<kver>/vpmu.ko and its path printed
#      ("pkg: dkms module <kver> <path>"); the bookworm 6.1, 6.12 and
#      6.12-rt guests of the VM harness boot with both packages installed
#      in their root (VPMU_GUEST_ROOT: that module, loaded by modprobe,
#      the tools on PATH, /usr/share/vpmu) in place of the harness's own
#      and run the kselftests against them, every one on 6.12 (built in
#      linux-source-6.12's tree), vpmu_registered, vpmu_run and
#      vpmu_lifetime elsewhere (VPMU_PKG_VM_TESTS; VPMU_PKG_VM=0 skips
#      the boots; they run in the background, two at a time
#      (VPMU_VM_JOBS), beside the steps after them, and are reported
#      before step 6): none fails,
#      none skips for a missing file;
#      a kernel older than 6.1, or one without CONFIG_PERF_EVENTS, is
#      skipped (dkms.conf's BUILD_EXCLUSIVE_*);
#   5. the same on Debian trixie, for the newest 7.x kernel: in the VM
#      harness's trixie build root (which has that kernel's headers), dkms
#      and both packages install, DKMS builds vpmu.ko for 7.x, the 7.x
#      guest boots with it, the command-line tests pass against the tools
#      installed there, a kernel older than 6.1 is skipped by dkms 3.2
#      too, and purging leaves nothing (VPMU_PKG_TRIXIE=0
#      skips it);
#   6. purging both packages leaves no vpmu file behind.
#
# VPMU_PKG_WAIT=FILE: steps 4 to 6 wait until FILE exists (make check
# starts the tier beside the vm tier, whose kernels' headers step 4
# builds for); the command-line tests of step 3 then run before the wait
# rather than beside step 4's guests.
# Prints TAP-style lines and ends with "pkg: N passed, N failed".
#
#   --no-build            use the packages already in build/deb/
#   VPMU_PKG_KERNELS="6.1.0-56-amd64 ..."   kernels to build for (default:
#                         every /lib/modules/*/build that exists)
#
# Packages already installed (a real installation) are left alone: the
# script then refuses to run.  Before installing, the script names each
# package in $MARK; a run stopped before its purge (killed, or the machine
# stopped under it) leaves the mark, and the next run purges what it
# names first.  dkms, lintian and the build dependencies
# stay installed, as the harness's other dependencies do.
set -uo pipefail

TOP=$(cd "$(dirname "$0")/../../.." && pwd)
CACHE=${VPMU_CACHE:-$HOME/.cache/vpmu}
DEB=${VPMU_DEB_DIR:-$TOP/build/deb}
KEEP=$CACHE/pkg/dkms
build=1
[ "${1:-}" = --no-build ] && build=0

# ok STATUS NAME, the counters n and failed, and tmp, as the host tier's
# command-line tests have them.
# shellcheck source=../host/tap.sh
. "$TOP/tools/testing/host/tap.sh"
installed_here=()
MARK=${VPMU_PKG_MARK:-/var/lib/vpmu-check-pkg.installing}
boot_pids=()	# boot_bg's background boots, and where their lines go
boot_outs=()

finish() {
	echo "pkg: $((n - failed)) passed, $failed failed"
	[ "$failed" = 0 ]
	exit
}

# apt_get, apt_retry, pkg_installed
# shellcheck source=../../pkg/apt.sh
. "$TOP/tools/pkg/apt.sh"

# purge - remove what this script installed (also on an early exit).
purge() {
	[ ${#installed_here[@]} -gt 0 ] || return 0
	apt_get purge "${installed_here[@]}" >"$tmp/purge.log" 2>&1
	local rc=$?
	installed_here=()
	[ $rc = 0 ] && rm -f "$MARK"
	return $rc
}
# mark_install PKG - name PKG in $MARK before installing it.
mark_install() {
	echo "$1" >>"$MARK"
}
# purge_marked - purge what a run stopped before its purge left ($MARK).
purge_marked() {
	local pkgs

	[ -f "$MARK" ] || return 0
	mapfile -t pkgs < <(grep -E '^vpmu-(dkms|tools)$' "$MARK" | sort -u)
	echo "# pkg: purging ${pkgs[*]:-nothing}, left by a run stopped before its purge ($MARK)"
	if [ ${#pkgs[@]} -gt 0 ]; then
		apt_get purge "${pkgs[@]}" >"$tmp/purge-marked.log" 2>&1 || {
			sed 's/^/# /' "$tmp/purge-marked.log" | tail -20
			return 1
		}
	fi
	rm -f "$MARK"
}
# On an early exit: background boots (boot_bg) stopped, with the harness
# scripts they started; a guest already booted ends at its own timeout.
stop_boots() {
	local p

	for p in "${boot_pids[@]}"; do
		pkill -TERM -P "$p" 2>/dev/null
		kill "$p" 2>/dev/null
	done
}
trap 'stop_boots; purge; rm -rf "$tmp"' EXIT

if [ "$(id -u)" != 0 ]; then
	echo "# pkg: installing packages needs root"
	ok 1 "running as root"
	finish
fi
if ! purge_marked; then
	ok 1 "purge the packages a stopped run left ($MARK)"
	finish
fi
for p in vpmu-dkms vpmu-tools; do
	if pkg_installed "$p" || compgen -G '/usr/src/vpmu-*' >/dev/null; then
		echo "# pkg: $p (or /usr/src/vpmu-*) is installed already; not touching it"
		ok 1 "$p not installed before the test"
		finish
	fi
done

# --- 1. make deb, lintian -------------------------------------------------

VERSION=$(sed -n '1s/^vpmu (\([^ ]*\)) .*/\1/p' "$TOP/debian/changelog")
if [ "$build" = 1 ]; then
	"$TOP/tools/pkg/make-deb.sh" >"$tmp/deb.log" 2>&1
	rc=$?
	[ $rc = 0 ] || sed 's/^/# /' "$tmp/deb.log" | tail -30
	ok $rc "make deb"
fi
DKMS_DEB=$DEB/vpmu-dkms_${VERSION}_all.deb
TOOLS_DEB=$(ls "$DEB"/vpmu-tools_"${VERSION}"_*.deb 2>/dev/null | head -n 1)
CHANGES=$(ls "$DEB"/vpmu_"${VERSION}"_*.changes 2>/dev/null | head -n 1)
[ -f "$DKMS_DEB" ] && [ -f "$TOOLS_DEB" ] && [ -f "$CHANGES" ]
ok $? "build/deb has vpmu-dkms, vpmu-tools $VERSION and the .changes"
if [ ! -f "$DKMS_DEB" ] || [ ! -f "$TOOLS_DEB" ]; then
	finish
fi

# Each pipeline below ends in a file or a variable, not in "grep -q":
# under pipefail grep -q's early exit can kill the writer with SIGPIPE
# and fail a check whose answer was yes (it did, once, in CI).
[ "$(dpkg-deb -f "$DKMS_DEB" Architecture)" = all ] &&
	grep -q '\bdkms\b' <<<"$(dpkg-deb -f "$DKMS_DEB" Depends)"
ok $? "vpmu-dkms: Architecture all, depends on dkms"
dkms_conf=$(dpkg-deb --fsys-tarfile "$DKMS_DEB" |
	tar -xOf - "./usr/src/vpmu-$VERSION/dkms.conf" 2>/dev/null)
grep -qx "PACKAGE_VERSION=\"$VERSION\"" <<<"$dkms_conf"
ok $? "dkms.conf in /usr/src/vpmu-$VERSION says PACKAGE_VERSION=\"$VERSION\""
# The default image is assembled by the module's build (a host program,
# drivers/perf/vpmu/asm/), never shipped as generated bytes.
dkms_files=$(dpkg-deb -c "$DKMS_DEB" | awk '{ print $NF }')
d=./usr/src/vpmu-$VERSION/drivers/perf/vpmu
grep -qx "$d/ucode/default.vus" <<<"$dkms_files" &&
	grep -qx "$d/asm/vpmu_mkimage.c" <<<"$dkms_files" &&
	! grep -q 'vpmu_default_image_data\.h' <<<"$dkms_files"
ok $? "vpmu-dkms: the default microcode's source and assembler, no generated image"

pkg_installed lintian || apt_retry "$tmp/apt.log" install lintian
lintian --pedantic --display-level '>=pedantic' "$CHANGES" >"$tmp/lintian" 2>&1
rc=$?
[ $rc = 0 ] && ! grep -q '^[EWIPX]:' "$tmp/lintian"
rc=$?
sed 's/^/# /' "$tmp/lintian"
ok $rc "lintian --pedantic ${CHANGES#"$TOP"/}: no tags"

# --- 2. make install / uninstall with DESTDIR ----------------------------

# Relative paths of the files and symbolic links (the bash completion's,
# the RV32 samples') in a package, but for its Debian documentation and
# lintian overrides, or in a directory.
deb_files() { dpkg-deb -c "$1" | awk '$1 !~ /^d/ { sub("^\\./", "", $6); print $6 }' |
	grep -Ev '^usr/share/(doc|lintian)/' | sort; }
dir_files() { (cd "$1" && find . -type f -o -type l | sed 's|^\./||' | sort); }

d=$tmp/destdir
make -s -C "$TOP" install DESTDIR="$d" PREFIX=/usr >"$tmp/install.log" 2>&1
rc=$?
[ $rc = 0 ] || sed 's/^/# /' "$tmp/install.log" | tail -20
ok $rc "make install DESTDIR=... PREFIX=/usr"
# The tree's man pages are not compressed and its vpmu-sim is static;
# compare names only.
{ deb_files "$DKMS_DEB"; deb_files "$TOOLS_DEB"; } | sed 's/\.gz$//' | sort >"$tmp/pkg.list"
dir_files "$d" >"$tmp/make.list"
diff "$tmp/pkg.list" "$tmp/make.list" >"$tmp/diff" 2>&1
rc=$?
sed 's/^/# /' "$tmp/diff"
ok $rc "make install puts the packages' files (and only those) in place"
make -s -C "$TOP" uninstall DESTDIR="$d" PREFIX=/usr >/dev/null 2>&1 &&
	[ -z "$(find "$d" -type f -o -type l)" ]
ok $? "make uninstall DESTDIR=... removes every file it installed"

# --- 3. vpmu-tools -------------------------------------------------------

mark_install vpmu-tools
apt_get install "$TOOLS_DEB" >"$tmp/tools.log" 2>&1 && pkg_installed vpmu-tools
rc=$?
[ $rc = 0 ] && installed_here+=(vpmu-tools)
[ $rc = 0 ] || sed 's/^/# /' "$tmp/tools.log" | tail -20
ok $rc "install vpmu-tools"

for t in vpmu-as vpmu-dis vpmu-run vpmu-load vpmu-sim vpmu-hist vpmu-cc; do
	[ "$(dpkg -S "/usr/bin/$t" 2>/dev/null)" = "vpmu-tools: /usr/bin/$t" ] &&
		grep -q "^Usage: $t" <<<"$("/usr/bin/$t" --help)" &&
		[ "$(man -w "$t" 2>/dev/null)" = "/usr/share/man/man1/$t.1.gz" ]
	ok $? "$t: /usr/bin/$t from vpmu-tools, --help, man $t"
done
[ "$(man -w 4 vpmu 2>/dev/null)" = /usr/share/man/man4/vpmu.4.gz ]
ok $? "man 4 vpmu"

for m in $(dpkg -L vpmu-tools | grep '^/usr/share/man/.*\.gz$'); do
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$m" \
		>"$tmp/man.out" 2>"$tmp/man.err"
	rc=$?
	[ $rc = 0 ] && [ ! -s "$tmp/man.err" ] && [ -s "$tmp/man.out" ]
	rc=$?
	sed 's/^/# /' "$tmp/man.err"
	ok $rc "man --warnings -l ${m#/usr/share/man/}: renders, no warning"
done

# cli_tests WHERE DIR [CMD...] - the host tier's command-line tests
# (test_*_cli.sh and test_exit_status.sh in DIR, as CMD sees it) against
# the tools installed in /usr/bin and /usr/share/vpmu; CMD runs them
# (in_root for the trixie root; none: here).  One test each, named after
# WHERE.
cli_tests() {
	local where=$1 dir=$2 s log rc p f plan

	shift 2
	for s in test_asm_cli.sh test_run_cli.sh test_hu_cli.sh test_hist_cli.sh \
		 test_tools_cli.sh test_cc_cli.sh test_exit_status.sh; do
		log=$tmp/cli-$where-$s.log
		"$@" env VPMU_BIN=/usr/bin VPMU_SHARE=/usr/share/vpmu \
			VPMU_VERSION="$VERSION" bash "$dir/$s" >"$log" 2>&1
		rc=$?
		p=$(grep -c '^ok ' "$log")
		f=$(grep -c '^not ok ' "$log")
		plan=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log")
		grep '^not ok ' "$log" | sed 's/^/# /'
		[ $rc = 0 ] && [ "$f" = 0 ] && [ "${plan:-0}" -gt 0 ] && [ "$plan" = "$p" ]
		ok $? "$where: host $s against the installed tools ($p of ${plan:-?} passed)"
	done
}

# --- 4. vpmu-dkms --------------------------------------------------------

# In make check this tier starts beside the vm tier, whose preparations
# install the kernels' headers DKMS builds for here and make the trixie
# root of step 5: VPMU_PKG_WAIT=FILE waits until FILE exists (check.sh
# makes it once the vm tier is over).  Steps 1 to 3 need neither, and the
# tools' tests go first, before the wait (otherwise after the DKMS
# builds, beside the guests they start).
if [ -n "${VPMU_PKG_WAIT:-}" ]; then
	cli_tests bookworm "$TOP/tools/testing/host"
	t0=$SECONDS
	while [ ! -e "$VPMU_PKG_WAIT" ]; do
		sleep 2
	done
	echo "# pkg: steps 4-6 after the vm tier, $((SECONDS - t0)) s waited for it"
fi

mark_install vpmu-dkms
apt_get install "$DKMS_DEB" >"$tmp/dkms.log" 2>&1 && pkg_installed vpmu-dkms
rc=$?
[ $rc = 0 ] && installed_here+=(vpmu-dkms)
grep -E '^(Building for|Building initial|Error|.*skipped)' "$tmp/dkms.log" | sed 's/^/# /'
[ $rc = 0 ] || sed 's/^/# /' "$tmp/dkms.log" | tail -30
ok $rc "install vpmu-dkms (dkms add, and the postinst's builds)"

# guest_root KVER KO DIR - DIR as the two packages and DKMS leave a
# machine: vpmu-tools' and vpmu-dkms' files (dpkg-deb -x), KO as
# /lib/modules/KVER/updates/dkms/vpmu.ko and that kernel's modules.dep
# (depmod -b), so that modprobe and modinfo -n find it.
guest_root() {
	local k=$1 ko=$2 dir=$3

	rm -rf "$dir"
	mkdir -p "$dir/lib/modules/$k/updates/dkms"
	dpkg-deb -x "$TOOLS_DEB" "$dir" && dpkg-deb -x "$DKMS_DEB" "$dir" &&
		cp "$ko" "$dir/lib/modules/$k/updates/dkms/vpmu.ko" &&
		depmod -b "$dir" "$k" 2>/dev/null &&
		grep -qx 'updates/dkms/vpmu.ko:' "$dir/lib/modules/$k/modules.dep"
}

# Skip reasons that name a file of the installation missing: the shared
# files (/usr/share/vpmu, $VPMU_SHARE, an image, program or ELF), a tool
# or the module file.  With both packages installed there is none.
MISSING_RE='# SKIP.*\bno .*(/usr/share/vpmu|\$VPMU_SHARE|\.(vprg|vpmu|elf|vus)\b|\bvpmu-[a-z]+\b|module file)'

# boot_dkms_module KVER KO - boot the VM harness's guest of that kernel
# with the two packages installed in its root (guest_root: the
# DKMS-built module KO, loaded by modprobe; the tools on PATH; the shared
# files in /usr/share/vpmu; none of the harness's own, no VPMU_SHARE or
# VPMU_KO) and run the selftests against them: on 6.12, every one, as
# linux-source-6.12's tree builds and installs them (its flavour's
# kselftest suite); elsewhere a few (vpmu_registered, vpmu_run,
# vpmu_lifetime; VPMU_PKG_VM_TESTS for all).  None may fail, and none
# may skip for a missing file (MISSING_RE).  Kernels the harness does
# not boot (or VPMU_PKG_VM=0) are skipped.
boot_dkms_module() {
	local k=$1 ko=$2 flavour name line tests what missing
	local few=vpmu_registered,vpmu_run,vpmu_lifetime

	case $k in
	6.1.0-*-amd64)			flavour=6.1 ;;
	6.12.*+deb12-amd64)		flavour=6.12 few= ;;
	6.12.*+deb12-rt-amd64)		flavour=6.12-rt ;;
	7.*+deb13-amd64)		flavour=7.x ;;
	*)				return 0 ;;
	esac
	[ "${VPMU_PKG_VM:-1}" = 0 ] && return 0
	name=pkg-dkms-$flavour
	tests=${VPMU_PKG_VM_TESTS:-$few}
	what="every kselftest"
	[ -z "$tests" ] || what=$tests
	if ! guest_root "$k" "$ko" "$tmp/root-$k"; then
		ok 1 "$k: a root with the packages' files and modules.dep"
		return
	fi
	line=$(VPMU_GUEST_ROOT=$tmp/root-$k VPMU_RUN_NAME=$name \
		VPMU_APPEND=${tests:+vpmu_test=$tests} \
		"$TOP/tools/testing/vm/vm-check.sh" "$flavour" 2>&1 |
		tee "$tmp/vm-$k.log" | grep -E "^$name: [0-9]+ passed, [0-9]+ failed$")
	grep -E "^kernel $name:" "$tmp/vm-$k.log" | sed 's/^/# /'
	[ -n "$line" ] && [ "${line##*passed, }" = "0 failed" ] &&
		[ "${line#*: }" != "0 passed, 0 failed" ]
	local rc=$?
	[ $rc = 0 ] || grep -E 'FAIL|not ok' "$tmp/vm-$k.log" | sed 's/^/# /' | head -20
	ok $rc "$k guest, the packages installed, $what: ${line:-no result line}"
	missing=$(grep -E "$MISSING_RE" "$tmp/vm-$k.log" | sort -u)
	[ -z "$missing" ]
	rc=$?
	[ $rc = 0 ] || sed 's/^/# /' <<<"$missing"
	ok $rc "$k guest, the packages installed: no test skipped for a missing file"
}

# boot_bg KVER KO - boot_dkms_module KVER KO in the background, beside
# what the script goes on with (the next DKMS build, the trixie steps): the
# whole suite on 6.12 is half the tier's time.  The boots run two at a
# time (VPMU_VM_JOBS, as the vm tier's; TCG runs a guest on one host
# thread), each taking a free slot (a lock of its own) as one ends, so
# that the short boots go on beside the long one; each one's lines wait
# in a file for boot_report, its tests as "TAP STATUS NAME" lines.
boot_bg() {
	local out=$tmp/boot-${#boot_pids[@]}.out

	(
		slots=${VPMU_VM_JOBS:-2}
		while :; do
			for ((s = 0; s < slots; s++)); do
				exec 9>"$tmp/boot.slot.$s"
				flock -n 9 && break 2
			done
			sleep 1
		done
		ok() { printf 'TAP %s %s\n' "$1" "$2"; }
		boot_dkms_module "$@"
	) >"$out" 2>&1 &
	boot_pids+=("$!")
	boot_outs+=("$out")
}

# boot_report - wait for the background boots and report them, in the
# order boot_bg started them.
boot_report() {
	local i line

	for i in "${!boot_pids[@]}"; do
		wait "${boot_pids[$i]}"
		while IFS= read -r line; do
			case $line in
			"TAP "*)
				line=${line#TAP }
				ok "${line%% *}" "${line#* }" ;;
			*)	printf '%s\n' "$line" ;;
			esac
		done <"${boot_outs[$i]}"
	done
	boot_pids=()
	boot_outs=()
}

# keep_module KVER KO - KO, uncompressed, as $KEEP/KVER/vpmu.ko (DKMS
# compresses like the kernel's own modules: xz on 6.12 and 7.x); true if
# that copy has KVER's vermagic.  Prints where it is.
keep_module() {
	local k=$1 ko=$2

	mkdir -p "$KEEP/$k" && rm -f "$KEEP/$k/vpmu.ko"
	case $ko in
	*.xz)	xz -dc "$ko" >"$KEEP/$k/vpmu.ko" ;;
	*.zst)	zstd -qdc "$ko" >"$KEEP/$k/vpmu.ko" ;;
	*.gz)	gzip -dc "$ko" >"$KEEP/$k/vpmu.ko" ;;
	*)	cp "$ko" "$KEEP/$k/vpmu.ko" ;;
	esac && [ "$(modinfo -F vermagic "$KEEP/$k/vpmu.ko" | awk '{print $1}')" = "$k" ] &&
		echo "pkg: dkms module $k $KEEP/$k/vpmu.ko"
}

if [ -n "${VPMU_PKG_KERNELS:-}" ]; then
	kernels=$VPMU_PKG_KERNELS
else
	kernels=$(for b in /lib/modules/*/build; do
		[ -d "$b/" ] && basename "$(dirname "$b")"; done)
fi
[ -n "$kernels" ]
ok $? "kernel headers to build against: ${kernels//$'\n'/ }"

for k in $kernels; do
	# The postinst may have built it already; build only what is not.
	if ! dkms status -m vpmu -v "$VERSION" -k "$k" 2>/dev/null |
			grep -Eq ': (built|installed)'; then
		dkms build -m vpmu -v "$VERSION" -k "$k" >"$tmp/build-$k.log" 2>&1 ||
			sed 's/^/# /' "$tmp/build-$k.log" | tail -30
	fi
	ko=$(ls /var/lib/dkms/vpmu/"$VERSION"/"$k"/*/module/vpmu.ko* 2>/dev/null | head -n 1)
	[ -n "$ko" ] && [ "$(modinfo -F vermagic "$ko" | awk '{print $1}')" = "$k" ] &&
		[ "$(modinfo -F name "$ko")" = vpmu ]
	ok $? "dkms build vpmu/$VERSION -k $k: vpmu.ko with vermagic $k"
	[ -n "$ko" ] || continue
	dkms install -m vpmu -v "$VERSION" -k "$k" >"$tmp/install-$k.log" 2>&1
	inst=$(ls /lib/modules/"$k"/updates/dkms/vpmu.ko* 2>/dev/null | head -n 1)
	[ -n "$inst" ] && cmp -s "$ko" "$inst" &&
		[ "$(modinfo -k "$k" -n vpmu 2>/dev/null)" = "$inst" ]
	ok $? "dkms install -k $k: modinfo -k $k vpmu finds ${inst:-updates/dkms/vpmu.ko}"
	# Kept uncompressed, for insmod in a guest.
	keep_module "$k" "$ko"
	ok $? "DKMS-built module kept as $KEEP/$k/vpmu.ko"
	boot_bg "$k" "$KEEP/$k/vpmu.ko"
done

# The tools' tests, while the guests boot (boot_bg): here after the DKMS
# builds, so that the guests start sooner (unless they ran while the
# tier waited for the vm tier, above).
[ -n "${VPMU_PKG_WAIT:-}" ] || cli_tests bookworm "$TOP/tools/testing/host"

# A kernel older than vpmu supports (6.1) is skipped, not failed: dkms.conf's
# BUILD_EXCLUSIVE_* (dkms exits 77 and names the directive, without looking
# for the kernel's headers).
old_kernel=5.10.0-0-amd64
dkms build -m vpmu -v "$VERSION" -k "$old_kernel" >"$tmp/build-old.log" 2>&1
rc=$?
[ $rc = 77 ] && grep -q 'BUILD_EXCLUSIVE' "$tmp/build-old.log"
ok $? "dkms build -k $old_kernel: skipped as older than 6.1 (exit $rc, 77 wanted)"

# A kernel without what Kconfig's "depends on" asks (CONFIG_PERF_EVENTS)
# is skipped alike: dkms.conf's BUILD_EXCLUSIVE_CONFIG, read from the
# .config of --kernelsourcedir.
noperf_dir=$tmp/noperf-kernel
mkdir -p "$noperf_dir"
grep -v '^CONFIG_PERF_EVENTS=' "$(ls -d /lib/modules/*/build/.config | head -n 1)" \
	>"$noperf_dir/.config"
dkms build -m vpmu -v "$VERSION" -k 6.1.0-0-noperf --kernelsourcedir "$noperf_dir" \
	>"$tmp/build-noperf.log" 2>&1
rc=$?
[ $rc = 77 ] && grep -q 'BUILD_EXCLUSIVE' "$tmp/build-noperf.log"
ok $? "dkms build for a kernel without CONFIG_PERF_EVENTS: skipped (exit $rc, 77 wanted)"

# --- 5. trixie and the newest kernel ---------------------------------------

# trixie - step 5, in the VM harness's trixie build root (vm/lib/:
# packages.sh's trixie_root and in_root, kernels.sh's resolve_newest).
# The root is the harness's cache, not an installation: vpmu packages left
# there by an interrupted run are purged first, dkms stays installed
# afterwards.
trixie() {
	local k ko inst v=$VERSION r rc left

	# shellcheck source=../vm/lib.sh
	. "$TOP/tools/testing/vm/lib.sh"
	k=$(resolve_newest >"$tmp/trixie.log" 2>&1 && echo "$KVER")
	r=$CACHE/trixie-root
	# shellcheck disable=SC2034 # in_root's
	TRIXIE_ROOT=$r
	[ -n "$k" ]
	rc=$?
	[ $rc = 0 ] || sed 's/^/# /' "$tmp/trixie.log" | tail -20
	ok $rc "trixie build root with the headers of the newest kernel: ${k:-none}"
	[ -n "$k" ] || return 0

	in_root apt-get purge -y vpmu-dkms vpmu-tools >/dev/null 2>&1
	rm -rf "$r/tmp/vpmu-pkg"
	mkdir -p "$r/tmp/vpmu-pkg/tools/testing"
	cp "$DKMS_DEB" "$TOOLS_DEB" "$r/tmp/vpmu-pkg/"
	cp -r "$TOP/tools/pkg" "$r/tmp/vpmu-pkg/tools/"
	rsync -a --exclude=build "$TOP/tools/testing/host" "$r/tmp/vpmu-pkg/tools/testing/"
	{ in_root apt-get install -y --no-install-recommends dkms &&
	  in_root apt-get install -y --no-install-recommends \
		"/tmp/vpmu-pkg/$(basename "$DKMS_DEB")" \
		"/tmp/vpmu-pkg/$(basename "$TOOLS_DEB")"; } >"$tmp/trixie-apt.log" 2>&1 &&
		in_root dpkg-query -W vpmu-dkms vpmu-tools >/dev/null 2>&1
	rc=$?
	[ $rc = 0 ] || sed 's/^/# /' "$tmp/trixie-apt.log" | tail -30
	ok $rc "trixie: install dkms, vpmu-dkms and vpmu-tools ($(in_root dpkg-query -W -f='${Version}' dkms 2>/dev/null | sed 's/^/dkms /'))"
	[ $rc = 0 ] || return 0

	if ! in_root dkms status -m vpmu -v "$v" -k "$k" 2>/dev/null |
			grep -Eq ': (built|installed)'; then
		in_root dkms build -m vpmu -v "$v" -k "$k" >"$tmp/trixie-build.log" 2>&1 ||
			sed 's/^/# /' "$tmp/trixie-build.log" | tail -30
	fi
	ko=$(ls "$r"/var/lib/dkms/vpmu/"$v"/"$k"/*/module/vpmu.ko* 2>/dev/null | head -n 1)
	[ -n "$ko" ] && keep_module "$k" "$ko"
	ok $? "trixie: dkms build vpmu/$v -k $k: vpmu.ko with vermagic $k"
	# The root has the headers, not the image: dkms 3.2's depmod writes
	# no modules.dep without the kernel's own modules, so look for the
	# file rather than asking modinfo -k.
	in_root dkms install -m vpmu -v "$v" -k "$k" >"$tmp/trixie-install.log" 2>&1
	inst=$(ls "$r/lib/modules/$k/updates/dkms/"vpmu.ko* 2>/dev/null | head -n 1)
	[ -n "$inst" ] && cmp -s "$ko" "$inst" &&
		grep -q ': installed$' <<<"$(in_root dkms status -m vpmu -v "$v" -k "$k")"
	ok $? "trixie: dkms install -k $k: ${inst#"$r"}, dkms status installed"
	[ -f "$KEEP/$k/vpmu.ko" ] && boot_bg "$k" "$KEEP/$k/vpmu.ko"
	in_root dkms build -m vpmu -v "$v" -k "$old_kernel" >"$tmp/trixie-old.log" 2>&1
	rc=$?
	[ $rc = 77 ] && grep -q 'BUILD_EXCLUSIVE' "$tmp/trixie-old.log"
	ok $? "trixie: dkms build -k $old_kernel: skipped as older than 6.1 (exit $rc, 77 wanted)"

	cli_tests trixie /tmp/vpmu-pkg/tools/testing/host in_root

	in_root apt-get purge -y vpmu-dkms vpmu-tools >"$tmp/trixie-purge.log" 2>&1
	rc=$?
	rm -rf "$r/tmp/vpmu-pkg"
	left=$( { ls -d "$r"/usr/src/vpmu-* "$r"/var/lib/dkms/vpmu \
		"$r"/usr/share/vpmu "$r"/usr/lib/vpmu "$r"/usr/bin/vpmu-* \
		"$r"/usr/lib/modules/*/updates/dkms/vpmu.ko* ; } 2>/dev/null)
	[ $rc = 0 ] && [ -z "$left" ]
	rc=$?
	[ -z "$left" ] || echo "$left" | sed 's/^/# left: /'
	ok $rc "trixie: purge vpmu-dkms and vpmu-tools, nothing of vpmu left"
}

[ "${VPMU_PKG_TRIXIE:-1}" = 1 ] && trixie

# The guests' results (their roots are copies: purging does not touch them).
boot_report

# --- 6. purge ------------------------------------------------------------

purge
ok $? "purge vpmu-dkms and vpmu-tools"
left=$( { ls -d /usr/src/vpmu-* /var/lib/dkms/vpmu /usr/share/vpmu \
	/usr/lib/vpmu /usr/bin/vpmu-* /usr/share/man/man1/vpmu-* \
	/usr/share/man/man4/vpmu.4* /lib/modules/*/updates/dkms/vpmu.ko* ; } 2>/dev/null)
[ -z "$left" ]
rc=$?
[ $rc = 0 ] || echo "$left" | sed 's/^/# left: /'
ok $rc "nothing of vpmu left on the host"

finish
