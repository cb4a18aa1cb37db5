#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# kdoc-refs.sh - check what the kernel documents of the vpmu series refer
# to: only files a kernel tree has once the series is applied.
#
#   kdoc-refs.sh [FILE...]
#
# Reads Documentation/admin-guide/perf/vpmu.rst of this tree, the one
# kernel document the series adds, and every FILE given besides.  Each
# path-like token (drivers/..., include/..., tools/..., Documentation/...,
# arch/..., kernel/..., scripts/... and the kernel's other top-level
# directories, not preceded by "/" or a word character, so that /sys/...
# and /proc/... are left alone; a trailing "." or "," dropped; "*" as a
# glob) and each :doc:`TARGET` (Documentation/TARGET.rst if TARGET starts
# with "/", else relative to Documentation/admin-guide/perf/) is a
# reference, and it must be
#
#   - one of the series' own files, at its place in this tree: a path
#     under drivers/perf/vpmu/, include/uapi/linux/vpmu.h, under
#     tools/testing/selftests/vpmu/ (here selftests/vpmu/),
#     Documentation/admin-guide/perf/vpmu.rst, or a file of
#     Documentation/ABI/testing/ whose name has "vpmu" in it; or
#   - a file or directory of a kernel tree: the listing in
#     $VPMU_KTREE_LIST (one path a line) if that file exists, else the
#     file list of /usr/src/linux-source-6.12.tar.xz (the first path
#     component stripped), made once and cached in
#     ${VPMU_CACHE:-$HOME/.cache/vpmu}/kdoc/linux-6.12.list, else the
#     small allowlist below (a "#" line says so).
#
# Nor may a document name this project's own things, which a kernel tree
# does not have: tools/vpmu, the tools (vpmu-as, vpmu-dis, vpmu-sim,
# vpmu-run, vpmu-hist, vpmu-load, vpmu-cc), its make targets (make check
# and the other targets of its top-level Makefile that Kbuild lacks),
# debian/, DKMS, Documentation/vpmu/ or a README (a bare one: a path
# ending in /README is checked as a path).  :ref: labels are not checked:
# that needs the kernel's whole documentation.
#
# Prints each fault as "FILE:LINE: reason", then
# "kdoc-refs: N files, N references, N faults"; fails if there is one.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/../.." && pwd)
DOC=Documentation/admin-guide/perf/vpmu.rst
TARBALL=/usr/src/linux-source-6.12.tar.xz
CACHE=${VPMU_CACHE:-$HOME/.cache/vpmu}/kdoc
LIST=$CACHE/linux-6.12.list

# Kernel files the documents may name, for a machine with neither a
# listing nor the linux-source package: each also makes its directories
# known.
ALLOWLIST='
Documentation/ABI/testing/sysfs-bus-event_source-devices-events
Documentation/ABI/testing/sysfs-bus-event_source-devices-format
Documentation/admin-guide/perf-security.rst
Documentation/admin-guide/perf/index.rst
Documentation/userspace-api/ioctl/ioctl-number.rst
drivers/perf/Kconfig
drivers/perf/Makefile
tools/perf/Makefile
tools/testing/selftests/Makefile
tools/testing/selftests/lib.mk
tools/testing/selftests/kselftest_harness.h
tools/testing/selftests/run_kselftest.sh
'

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The kernel listing, into $work/ktree; a note on stdout if it is the
# allowlist.
if [ -n "${VPMU_KTREE_LIST:-}" ] && [ -f "$VPMU_KTREE_LIST" ]; then
	cp "$VPMU_KTREE_LIST" "$work/ktree"
elif [ -f "$TARBALL" ]; then
	if [ ! -s "$LIST" ] || [ "$TARBALL" -nt "$LIST" ]; then
		mkdir -p "$CACHE"
		tar -tJf "$TARBALL" | sed -e 's|^[^/]*/||' -e 's|/$||' |
			grep -v '^$' >"$LIST.tmp.$$"
		mv "$LIST.tmp.$$" "$LIST"
	fi
	cp "$LIST" "$work/ktree"
else
	printf '%s\n' "$ALLOWLIST" | grep -v '^$' >"$work/ktree"
	echo "# no kernel tree listing; neither \$VPMU_KTREE_LIST nor $TARBALL:" \
		"checking against kdoc-refs.sh's allowlist of" \
		"$(wc -l <"$work/ktree") files"
fi

# This tree's files where the series' own paths map to, as the same kind
# of listing.
(cd "$TOP" && find drivers/perf/vpmu include/uapi/linux/vpmu.h \
	selftests/vpmu Documentation/admin-guide/perf Documentation/ABI/testing \
	2>/dev/null) >"$work/own"

files=("$TOP/$DOC")
for f in "$@"; do
	[ -f "$f" ] || { echo "kdoc-refs: no file $f" >&2; exit 2; }
	[ "$(realpath "$f")" = "$(realpath "$TOP/$DOC")" ] || files+=("$f")
done

# Shown as given, or relative to the tree for the default document; one
# a line, in the order of the files.
names=$(for f in "${files[@]}"; do printf '%s\n' "${f#"$TOP"/}"; done)

NAMES=$names awk -v nfiles="${#files[@]}" '
BEGIN {
	split(ENVIRON["NAMES"], name, "\n")
	for (i = 3; i < ARGC; i++)
		shown[ARGV[i]] = name[i - 2]
	prefix = "(Documentation|drivers|include|tools|arch|kernel|scripts|" \
		 "lib|mm|fs|net|block|samples|security|sound|virt|init|ipc|" \
		 "crypto|certs|rust|io_uring|usr)/"
	forbid[1] = "tools/vpmu([^A-Za-z0-9_.-]|$)"
	why[1] = "tools/vpmu is not in a kernel tree"
	forbid[2] = "vpmu-(as|dis|sim|run|hist|load|cc)([^A-Za-z0-9_]|$)"
	why[2] = "names a tool of the vpmu project, not of the kernel"
	forbid[3] = "make[ \t]+(check|demo|deb|in-tree|pkg-check|vm-check|" \
		    "debug-check|host-check|bench|vm-bench|perf-bench|" \
		    "feature-bench|chunk-bench|ucode|version-h)([^A-Za-z0-9_/-]|$)"
	why[3] = "a make target of the vpmu project, not of Kbuild"
	forbid[4] = "(^|[^A-Za-z0-9_])debian/"
	why[4] = "debian/ is the vpmu project'"'"'s packaging"
	forbid[5] = "[Dd][Kk][Mm][Ss]"
	why[5] = "DKMS is for out-of-tree builds"
	forbid[6] = "Documentation/vpmu([^A-Za-z0-9_.-]|$)"
	why[6] = "Documentation/vpmu/ is not part of the series"
	forbid[7] = "(^|[^/A-Za-z0-9_])README"
	why[7] = "the vpmu project'"'"'s README is not in a kernel tree"
	nforbid = 7
	refs = 0
	faults = 0
}

# Make @p and its parent directories known in @set.
function add(set, p,    d) {
	set[p] = 1
	d = p
	while (sub(/\/[^\/]*$/, "", d))
		set[d] = 1
}

# Is @p (a glob if it has "*") a file or directory of @set?
function has(set, p,    re, k) {
	sub(/\/$/, "", p)
	if (index(p, "*") == 0)
		return (p in set)
	re = p
	gsub(/[.+]/, "\\\\&", re)
	gsub(/\*/, "[^/]*", re)
	re = "^" re "$"
	for (k in set)
		if (k ~ re)
			return 1
	return 0
}

# The place of the series path @p in this tree, or "" if @p is not one.
function own(p,    base) {
	if (p ~ /^drivers\/perf\/vpmu(\/|$)/ || p == "include/uapi/linux/vpmu.h" ||
	    p == "Documentation/admin-guide/perf/vpmu.rst")
		return p
	if (p ~ /^tools\/testing\/selftests\/vpmu(\/|$)/) {
		sub(/^tools\/testing\//, "", p)
		return p
	}
	if (p ~ /^Documentation\/ABI\/testing\/[^\/]+$/) {
		base = p
		sub(/.*\//, "", base)
		if (base ~ /vpmu/)
			return p
	}
	return ""
}

function fault(msg) {
	printf "%s:%d: %s\n", shown[FILENAME], FNR, msg
	faults++
}

# Check reference @p (@how: how the text wrote it).
function check(p, how,    m, k) {
	refs++
	for (k = 1; k <= nforbid; k++)
		if (p ~ forbid[k]) {
			fault(how ": " why[k])
			return
		}
	m = own(p)
	if (m != "") {
		if (!has(ownset, m))
			fault(how ": a file of the series, but there is no " \
			      m " in this tree")
		return
	}
	if (!has(kset, p))
		fault(how ": neither a file of the series nor in the kernel tree")
}

# Resolve a :doc: target against Documentation/admin-guide/perf/.
function docpath(t,    n, part, out, i, j) {
	if (t ~ /^\//)
		return "Documentation" t ".rst"
	n = split("Documentation/admin-guide/perf/" t, part, "/")
	j = 0
	for (i = 1; i <= n; i++) {
		if (part[i] == "..") {
			if (j > 0)
				j--
		} else if (part[i] != "." && part[i] != "") {
			out[++j] = part[i]
		}
	}
	t = out[1]
	for (i = 2; i <= j; i++)
		t = t "/" out[i]
	return t ".rst"
}

FILENAME == ARGV[1] { add(kset, $0); next }
FILENAME == ARGV[2] { add(ownset, $0); next }
{
	line = $0

	# :doc: targets first, then removed from the line.
	while (match(line, /:doc:`[^`]*`/)) {
		t = substr(line, RSTART + 6, RLENGTH - 7)
		line = substr(line, 1, RSTART - 1) " " substr(line, RSTART + RLENGTH)
		if (match(t, /<[^>]*>$/))
			t = substr(t, RSTART + 1, RLENGTH - 2)
		check(docpath(t), ":doc:`" t "`")
	}

	# Path-like tokens; what is left of the line is searched for the
	# project-only names after them.
	rest = ""
	s = line
	re = "(^|[^A-Za-z0-9_./-])" prefix "[A-Za-z0-9_.+,*/-]*"
	while (match(s, re)) {
		tok = substr(s, RSTART, RLENGTH)
		lead = substr(tok, 1, 1)
		if (lead !~ /[A-Za-z]/) {
			rest = rest substr(s, 1, RSTART)
			tok = substr(tok, 2)
		} else {
			rest = rest substr(s, 1, RSTART - 1)
		}
		s = substr(s, RSTART + RLENGTH)
		sub(/[.,]+$/, "", tok)
		check(tok, tok)
		rest = rest " "
	}
	rest = rest s
	for (k = 1; k <= nforbid; k++) {
		s = rest
		while (match(s, forbid[k])) {
			tok = substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
			gsub(/^[^A-Za-z]+|[^A-Za-z0-9]+$/, "", tok)
			fault(tok ": " why[k])
		}
	}
}
END {
	printf "kdoc-refs: %d files, %d references, %d faults\n", nfiles,
	       refs, faults
	exit faults > 0
}
' "$work/ktree" "$work/own" "${files[@]}"
