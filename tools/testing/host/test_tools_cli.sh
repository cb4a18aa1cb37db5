#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_tools_cli.sh - the command-line conventions all six tools share
# (Documentation/vpmu/toolchain.rst, "Command-line conventions"), tool by
# tool (TAP):
#
#   - --version prints "TOOL (vpmu) VERSION", VERSION debian/changelog's
#     (or VPMU_VERSION);
#   - --help exits 0 and lists --version;
#   - an unknown option, a missing option argument and a missing operand
#     print one line and "Try 'TOOL --help' for more information.", and
#     exit 125;
#   - a file that cannot be read exits 125 with "TOOL: FILE: reason"
#     (vpmu-run's and vpmu-sim's program file: 127, as env(1) has it);
#   - an image too short for its header, or with a bad magic number, is
#     reported the same way by every tool that reads one;
#   - the man page documents the exit statuses 0, 1, 124 and 125 (every
#     row: test_exit_status.sh) and --version;
#   - bash completion completes every long option --help lists, and the
#     arguments of options that take a file or a word from a list.
#
# Against the tree's tools, or installed ones (VPMU_BIN, VPMU_SHARE: man
# pages and completion then come from under VPMU_BIN's prefix).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/tap.sh"
TOOLS="vpmu-as vpmu-dis vpmu-run vpmu-load vpmu-sim vpmu-hist"
# shellcheck disable=SC2086 # the list of tools
tap_build $TOOLS
# The version the tools were built with: debian/changelog's, or the one
# the caller names (the package tier runs this where no changelog is).
VERSION=${VPMU_VERSION:-$(sed -n '1s/^vpmu (\([^ ]*\)) .*/\1/p' "$TOP/debian/changelog")}
if [ -n "${VPMU_BIN:-}" ]; then
	MAN=$(dirname "$VPMU_BIN")/share/man/man1
	COMP=$(dirname "$VPMU_BIN")/share/bash-completion/completions
else
	MAN=$TOP/tools/vpmu/man
	COMP=
fi

# usage_error NAME EXPECTED-FIRST-LINE TOOL ARGS...: exactly that line and
# the Try line on stderr, nothing on stdout, exit 125.
usage_error() {
	local name=$1 want=$2 t=$3
	shift 3
	"$BIN/$t" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	[ $rc = 125 ] && [ ! -s "$tmp/out" ] &&
	[ "$(cat "$tmp/err")" = "$want
Try '$t --help' for more information." ]
	local r=$?
	[ $r = 0 ] || { echo "# exit $rc, stderr:"; sed 's/^/# /' "$tmp/err"; }
	ok $r "$t: $name: one line, Try '$t --help', exit 125"
}

# The operands each tool needs to get as far as reading its first file.
declare -A missing=(
	[vpmu-as]="$tmp/nope.vus"
	[vpmu-dis]="$tmp/nope.vpmu"
	[vpmu-run]="$tmp/nope.vprg"
	[vpmu-load]="$tmp/nope.vpmu"
	[vpmu-sim]="$tmp/nope.vprg"
	[vpmu-hist]="-m $tmp/nope.vpmu $tmp/nope.vuhs"
)
declare -A nofile=(
	[vpmu-as]="$tmp/nope.vus" [vpmu-dis]="$tmp/nope.vpmu"
	[vpmu-run]="$tmp/nope.vprg" [vpmu-load]="$tmp/nope.vpmu"
	[vpmu-sim]="$tmp/nope.vprg" [vpmu-hist]="$tmp/nope.vpmu"
)

for t in $TOOLS; do
	out=$("$BIN/$t" --version 2>"$tmp/err")
	rc=$?
	[ $rc = 0 ] && [ "$out" = "$t (vpmu) $VERSION" ] && [ ! -s "$tmp/err" ]
	ok $? "$t --version: \"$t (vpmu) $VERSION\", exit 0"
	"$BIN/$t" --help >"$tmp/out" 2>"$tmp/err" && [ ! -s "$tmp/err" ] &&
	grep -q -- '--version' "$tmp/out"
	ok $? "$t --help: exit 0, lists --version"
	usage_error "unknown option" "$t: unrecognized option '--no-such-option'" \
		"$t" --no-such-option x
	usage_error "unknown short option" "$t: invalid option -- 'Z'" "$t" -Z x
	o=--image
	[ "$t" = vpmu-load ] && o=--chunk
	usage_error "option without its argument" \
		"$t: option '$o' requires an argument" "$t" "$o"
	# shellcheck disable=SC2086 # word-split on purpose
	"$BIN/$t" ${missing[$t]} >"$tmp/out" 2>"$tmp/err"
	rc=$?
	want=125
	case $t in vpmu-run | vpmu-sim) want=127 ;; esac
	[ $rc = $want ] && [ "$(cat "$tmp/err")" = "$t: ${nofile[$t]}: No such file or directory" ]
	r=$?
	[ $r = 0 ] || { echo "# exit $rc, stderr:"; sed 's/^/# /' "$tmp/err"; }
	ok $r "$t: a missing file: \"$t: FILE: No such file or directory\", exit $want"
done

# One wording per image fault: each tool that reads an image says the same
# about a truncated one and about one with a bad magic number (the engine
# validator's reason and its details: vpmu_img_rejected()).
head -c 40 "$SHARE/build/default.vpmu" >"$tmp/trunc.vpmu"
head -c 400 /dev/zero >"$tmp/zero.vpmu"
declare -A img_args=(
	[vpmu-as]="-m IMG -o $tmp/x.vprg $SHARE/samples/sum.s"
	[vpmu-dis]="IMG" [vpmu-load]="--check IMG"
	[vpmu-run]="-m IMG $SHARE/build/sum.vprg"
	[vpmu-sim]="-m IMG $SHARE/build/sum.vprg"
	[vpmu-hist]="--simulate -m IMG $SHARE/build/sum.vprg"
)
for f in "trunc.vpmu:image shorter than its header (image is 40 bytes, header needs 160)" \
	 "zero.vpmu:bad magic number (magic 0x00000000, expected 0x$(od -An -tx4 -N4 "$SHARE/build/default.vpmu" | tr -d ' '))"; do
	img=$tmp/${f%%:*}
	for t in $TOOLS; do
		# shellcheck disable=SC2086 # word-split on purpose
		"$BIN/$t" ${img_args[$t]//IMG/$img} >/dev/null 2>"$tmp/err"
		rc=$?
		want=125
		[ "$t" = vpmu-load ] && want=1
		[ $rc = $want ] && [ "$(cat "$tmp/err")" = "$t: $img: ${f#*:}" ]
		r=$?
		[ $r = 0 ] || { echo "# exit $rc, stderr:"; sed 's/^/# /' "$tmp/err"; }
		ok $r "$t: ${f%%:*}: \"$t: FILE: ${f#*:}\", exit $want"
	done
done
usage_error "no operand" "vpmu-as: no source file given" vpmu-as
usage_error "no operand" "vpmu-dis: no image given" vpmu-dis
usage_error "no operand" "vpmu-run: no program file given" vpmu-run
usage_error "no operand" "vpmu-load: give one IMAGE, --default or --status" vpmu-load
usage_error "no operand" "vpmu-sim: no program file given" vpmu-sim
usage_error "no operand" "vpmu-hist: no image given (-m IMAGE)" vpmu-hist
usage_error "bad format" "vpmu-as: bad format 'x' (bin, c or elf)" vpmu-as -f x "$tmp/a.vus"
usage_error "bad budget" "vpmu-run: bad budget '0' (1..2^40 cycles)" vpmu-run -b 0 x.vprg
usage_error "bad chunk" "vpmu-load: bad chunk size '0'" vpmu-load -c 0 x.vpmu
usage_error "bad sort order" "vpmu-hist: bad sort order (count or addr) 'x'" vpmu-hist -m x -s x h

# ---- man pages: the exit statuses and --version --------------------------
for t in $TOOLS; do
	m=$MAN/$t.1
	[ -f "$m" ] || m=$m.gz
	if [ ! -f "$m" ]; then
		skip "man $t: exit statuses" "no man page under $MAN"
		continue
	fi
	zcat -f "$m" | awk '
		/^\.SH / { sec = $2 }
		sec == "EXIT" && /^\.B (0|1|124|125)$/ { seen[$2] = 1 }
		/(\\-\\-|--)version/ { v = 1 }
		END { exit !(seen[0] && seen[1] && seen[124] && seen[125] && v) }'
	ok $? "man $t: EXIT STATUS has 0, 1, 124 and 125; --version is documented"
done

# ---- bash completion ------------------------------------------------------
BC=/usr/share/bash-completion/bash_completion
# shellcheck source=../../pkg/apt.sh
. "$TOP/tools/pkg/apt.sh"
[ -f "$BC" ] || apt_install_missing bash-completion
# complete FILE TOOL WORD...: what bash completes for the last WORD.
complete_words() {
	local file=$1
	shift
	(
		cd "$tmp/files" || exit 1
		# shellcheck disable=SC1090 # bash-completion and the tools' file
		. "$BC" && . "$file" || exit 1
		compopt() { :; }
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		COMPREPLY=()
		_vpmu_tools "$1" "${COMP_WORDS[COMP_CWORD]}" \
			"${COMP_WORDS[COMP_CWORD - 1]}"
		printf '%s\n' "${COMPREPLY[@]}" | sort -u
	)
}
mkdir -p "$tmp/files"
touch "$tmp/files/"{a.vus,b.s,c.vpmu,d.vprg,e.elf,f.expect,g.txt}
if [ ! -f "$BC" ]; then
	skip "bash completion" "no bash-completion ($BC)"
else
	for t in $TOOLS; do
		f=${COMP:+$COMP/$t}
		f=${f:-$TOP/tools/vpmu/completion/vpmu}
		if [ ! -f "$f" ]; then
			ok 1 "$t: bash completion file $f"
			continue
		fi
		"$BIN/$t" --help |
			sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}\(--[a-z][-a-z]*=\{0,1\}\).*/\2/p' |
			sort -u >"$tmp/want"
		PATH=$BIN:$PATH complete_words "$f" "$t" -- >"$tmp/got"
		cmp -s "$tmp/want" "$tmp/got"
		r=$?
		[ $r = 0 ] || diff "$tmp/want" "$tmp/got" | sed 's/^/# /'
		ok $r "$t: bash completion of '--' is every long option of --help"
	done
	f=${COMP:+$COMP/vpmu-as}
	f=${f:-$TOP/tools/vpmu/completion/vpmu}
	[ "$(PATH=$BIN:$PATH complete_words "$f" vpmu-as -m '' | tr '\n' ' ')" = "c.vpmu e.elf " ]
	ok $? "vpmu-as -m completes images: .vpmu and .elf files"
	[ "$(PATH=$BIN:$PATH complete_words "$f" vpmu-as '' | tr '\n' ' ')" = "a.vus b.s " ]
	ok $? "vpmu-as completes sources: .vus and .s files"
	[ "$(PATH=$BIN:$PATH complete_words "$f" vpmu-as -f '' | tr '\n' ' ')" = "bin c elf " ]
	ok $? "vpmu-as -f completes bin, c, elf"
	[ "$(PATH=$BIN:$PATH complete_words "$f" vpmu-run -e '' | tr '\n' ' ')" = "f.expect " ]
	ok $? "vpmu-run -e completes .expect files"
	[ "$(PATH=$BIN:$PATH complete_words "$f" vpmu-run '' | tr '\n' ' ')" = "d.vprg e.elf " ]
	ok $? "vpmu-run completes programs: .vprg and .elf files"
	[ "$(PATH=$BIN:$PATH complete_words "$f" vpmu-hist --sort '' | tr '\n' ' ')" = "addr count " ]
	ok $? "vpmu-hist --sort completes count, addr"
fi

tap_done
