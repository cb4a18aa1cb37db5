#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# func-lengths.sh - list long C functions and check the length limits.
#
#   tools/testing/func-lengths.sh [-n N] [-l LOOP] [FILE...]
#
# Prints "file:function:lines" for every function of N lines or more
# (default 100), longest first.  A function's lines run from the first line
# of its definition to its closing brace, both counted.  Exits 1 if any
# function exceeds 100 lines, other than the interpreter loop LOOP (default
# vpmu_interp), which may have up to 350; 2 on bad usage.  Without FILE
# arguments it reads every *.c and *.h under drivers/, tools/vpmu/ and
# selftests/vpmu/ but what a build writes there (build/ directories).
#
# Functions are found the way kernel style writes them: the definition
# starts at column 0, its body opens with "{" alone at column 0 and closes
# with "}" at column 0.

set -e
usage() {
	echo "usage: $0 [-n N] [-l LOOP] [FILE...]" >&2
	exit 2
}

min=100
loop=vpmu_interp
while getopts n:l:h opt; do
	case $opt in
	n) min=$OPTARG ;;
	l) loop=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
case $min in '' | *[!0-9]*) usage ;; esac

if [ $# -eq 0 ]; then
	top=$(cd "$(dirname "$0")/../.." && pwd)
	cd "$top"
	# the paths have no blanks: split the list into arguments
	# shellcheck disable=SC2046
	set -- $(find drivers tools/vpmu selftests/vpmu -name build -prune -o \
		-name '*.[ch]' -print | LC_ALL=C sort)
fi

out=$(awk -v loop="$loop" '
	FNR == 1 { infn = 0; start = 0; prev = "" }
	# The start of a top-level definition: an identifier at column 0.
	!infn && /^[A-Za-z_]/ {
		# "static int\nname(...)": the type line starts it
		if (!(prev ~ /^[A-Za-z_]/ && prev !~ /[;(){}=,]/))
			start = FNR
		sig = ""
	}
	!infn && start { sig = sig " " $0 }
	!infn && /^\{/ && start {
		infn = 1
		name = sig
		sub(/\(.*/, "", name)
		n = split(name, w, /[^A-Za-z0-9_]+/)
		name = w[n] != "" ? w[n] : w[n - 1]
	}
	infn && /^\}/ {
		len = FNR - start + 1
		lim = name == loop ? 350 : 100
		printf "%d %s:%s:%d %d\n", len, FILENAME, name, len, (len > lim)
		infn = 0
		start = 0
	}
	!infn && /;[ \t]*$/ { start = 0 }
	{ prev = $0 }
' "$@" | sort -k1,1nr)

# longest first: "len file:function:len over"
echo "$out" | awk -v min="$min" 'NF && $1 >= min { print $2 }'
if echo "$out" | grep -q ' 1$'; then
	echo "$out" | awk '$3 == 1 { print "over the limit: " $2 }' >&2
	exit 1
fi
exit 0
