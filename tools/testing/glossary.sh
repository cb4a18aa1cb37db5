#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# glossary.sh - the glossary's names are the only ones used.
#
#   glossary.sh [TREE]
#
# Documentation/vpmu/architecture.rst, "Glossary", gives each concept one
# name.  This looks for the names they had before in the text files of
# TREE (default: this tree) under drivers/, include/, tools/, selftests/
# and Documentation/, and in README.md: what git tracks in a git
# checkout, else every file there.  Not the fuzz corpus (data) and not
# this file (the table).
#
# Each line of the table is an old name as a Perl regex and the name
# that replaced it.  The names of the ABI did not change: the sysfs
# hist/ and events/vpmu_histN, the vpmu-hist command, vpmu-sim's "hist"
# lines, the uapi snapshot's group field; none is in the table.  The
# uapi header keeps the histogram unit's old names as deprecated aliases:
# their definitions there, and a line of the documentation that says
# "deprecated alias", are allowed (ALLOW).
#
# Prints every use of an old name as "FILE:LINE: OLD -> NEW" and the line,
# then "glossary: N files, N faults" last; fails if there is a fault.
set -euo pipefail

TOP=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
[ -d "$TOP/drivers" ] || { echo "glossary: no tree at $TOP" >&2; exit 2; }

# OLD (Perl regex) <tab> NEW
TABLE='\bstruct vpmu_image\b	struct vpmu_cstore (the control store)
\bvpmu_image_(get|put|install|words|free_work)\b	vpmu_cstore_*()
\bcurrent_image\b	current_cs
\bvpmu_image\.[co]\b	vpmu_validate.c (the decoder)
\bvpmu_default_ucode\w*	vpmu_default_image (the built-in image)
\b_VPMU_UCODE_H\b	_VPMU_DEFAULT_IMAGE_H
\bVPMU_EV_HIST(_BASE)?\b	VPMU_EV_HU, VPMU_EV_HU_BASE (the histogram unit)
\bVPMU_HIST_BUCKETS\b	VPMU_HU_BUCKETS
\bvpmu_hist\.[cho]\b	vpmu_uhist.[ch] (the micro-PC histogram)
\b_VPMU_HIST_H\b	_VPMU_UHIST_H
\btest_hist(\.c|-san)?(?![\w.-])	test_uhist
\bHIST_TEST_\w+	UHIST_TEST_*
\buh_(hist|sink)\b	uhist_to, uhist_sink
\bvpmu_engine_group_(trigger|start_stop|gate)\b	vpmu_engine_fgroup_*() (freeze group)
\bVPMU_NR_GROUPS_MAX\b	VPMU_NR_FGROUPS_MAX
\b(gate_grp|tsrc_groups|toggle_groups|TRIG_GROUPS|TGL_GROUPS)\b	*fgroups, *_FGROUPS'

# FILE <tab> LINE (Perl regex): a use of an old name allowed there.
ALLOW='include/uapi/linux/vpmu.h	^#define VPMU_(EV_HIST(_BASE|\(b\))|HIST_BUCKETS)\s
Documentation/vpmu/architecture.rst	deprecated alias'

list_files() {
	if git -C "$TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$TOP" ls-files -- drivers include tools selftests \
			Documentation README.md
	else
		(cd "$TOP" && find drivers include tools selftests \
			Documentation README.md -type f | sort)
	fi | grep -Ev '^(tools/testing/fuzz/corpus/|tools/testing/glossary\.sh$)' |
		grep -Ev '/build/|\.(o|ko|a|png|vpmu|vprg|elf)$'
}

files=$(list_files)
nfiles=$(printf '%s\n' "$files" | grep -c .)
faults=0
hits=$(mktemp)
trap 'rm -f "$hits"' EXIT

while IFS='	' read -r old new; do
	[ -n "$old" ] || continue
	# grep -I: text files only.
	(cd "$TOP" && printf '%s\n' "$files" |
		xargs -d '\n' grep -InHP -e "$old" -- 2>/dev/null) >"$hits" || true
	while IFS= read -r hit; do
		file=${hit%%:*}
		rest=${hit#*:}
		line=${rest%%:*}
		text=${rest#*:}
		allowed=0
		while IFS='	' read -r afile are; do
			if [ "$file" = "$afile" ] &&
			   printf '%s\n' "$text" | grep -qP -e "$are"; then
				allowed=1
			fi
		done <<<"$ALLOW"
		[ "$allowed" = 0 ] || continue
		printf '%s:%s: %s -> %s\n\t%s\n' "$file" "$line" "$old" "$new" \
			"$text"
		faults=$((faults + 1))
	done <"$hits"
done <<<"$TABLE"

echo "glossary: $nfiles files, $faults faults"
[ "$faults" -eq 0 ]
