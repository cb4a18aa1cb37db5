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
\b(gate_grp|tsrc_groups|toggle_groups|TRIG_GROUPS|TGL_GROUPS)\b	*fgroups, *_FGROUPS
\b(H|Q|V|HP)_[A-Z][A-Z0-9_]*\b	VPMU_HANDLER_*, VPMU_SEQ_HANDLER_*, VPMU_SHAPE_*, VPMU_HPROP_* (engine names)
\bTH_(?!LOG\b)[A-Z][A-Z0-9_]*\b	VPMU_TC_OP_* (engine names)
\bR_(PC|IR|IPC|DS|FLAGS|SINK|ZERO|NREGS|IMM0)\b	VPMU_RF_* (engine names)
\bP_(SPECIAL|FLAGS|LOAD|STORE|MODE)\b	VPMU_COMMIT_* (engine names)
\bX_(CHUNK|HALT|TRAP|FAULT|CTR)\b	VPMU_INTERP_* (engine names)
\bstruct vpmu_(top|tb|tblk|trec|tword|tlink|tpairs?|usample|pstate|tc_tr)\b	struct vpmu_tc_op, _trans, _block, _exit, _checked, _link, _pairs, vpmu_uhist_sampler, vpmu_prog_state, vpmu_tc_builder
\b(fsh|flim|lz_a|lz_b)\b	dp.fetch_shift, dp.fetch_lim, dp.lazy_a, dp.lazy_b
\bvpmu_engine_(run|build|interp|count|tc|translate|hu|event|int)\.[ch]\b	engine/vpmu_run.c, vpmu_uop_build.c, vpmu_interp.c, ... (architecture.rst, "Inside the engine core")
\bVPMU_SEM_\w+	vpmu_alu(), vpmu_load(), vpmu_cmp_holds()'

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
			   grep -qP -e "$are" <<<"$text"; then
				allowed=1
			fi
		done <<<"$ALLOW"
		[ "$allowed" = 0 ] || continue
		printf '%s:%s: %s -> %s\n\t%s\n' "$file" "$line" "$old" "$new" \
			"$text"
		faults=$((faults + 1))
	done <"$hits"
done <<<"$TABLE"

# The engine's naming rule (architecture.rst, "Glossary"): every name an
# engine header declares at file scope begins with vpmu_ or VPMU_ (the
# header guards _VPMU_*); vpmu_port.h spells the kernel's own for the
# host build, as vpmu_dispatch.h does __annotate_jump_table, and X is a
# list's parameter, #undef'd where it is used.
engine=$TOP/drivers/perf/vpmu/engine
for h in "$engine"/*.h; do
	[ "${h##*/}" = vpmu_port.h ] && continue
	while IFS= read -r hit; do
		printf '%s: %s: not vpmu_ or VPMU_ (the engine'"'"'s names)\n' \
			"${h#"$TOP"/}" "$hit"
		faults=$((faults + 1))
	done < <(grep -nE '^#define [A-Za-z_][A-Za-z0-9_]*|^(static (inline|__always_inline) )?[a-z].*\b[a-z_0-9]+\(|^(struct|enum|union) [a-z_0-9]+ \{' "$h" |
		grep -vE '^[0-9]+:#define (VPMU_|_VPMU_|X\b|__annotate_jump_table$)' |
		grep -vE '^[0-9]+:(static (inline|__always_inline) )?[^(]*\bvpmu_[a-z_0-9]+\(' |
		grep -vE '^[0-9]+:(struct|enum|union) vpmu_' |
		grep -vE '^[0-9]+:[a-z].*;$' || true)
done

echo "glossary: $nfiles files, $faults faults"
[ "$faults" -eq 0 ]
