#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# sparse-cached.sh ARGS... - sparse ARGS, as Kbuild's CHECK (make C=2
# CHECK=.../sparse-cached.sh), with its result kept by content: what
# sparse printed and its exit status are stored under a hash of sparse's
# version, ARGS and the file as sparse's own preprocessor sees it (sparse
# -E, a tenth of a second where checking vpmu_interp.c takes two
# minutes), and a later call with the same hash prints them again
# instead of checking.  Sparse's output depends on nothing else, so a
# result found is the one a run would give.
#
#   VPMU_SPARSE        the sparse to run (default: sparse)
#   VPMU_SPARSE_CACHE  where results are kept (required)
#   VPMU_SPARSE_ROOT   the tree being built: its path in ARGS and in what
#                      sparse prints is kept as @ROOT@, so that copies of
#                      one tree in other places share results
#
# A result is written to a temporary name and renamed: two builds at
# once never read half of one.  Each result is touched when used; lint.sh
# removes those unused for 30 days.

sparse=${VPMU_SPARSE:-sparse}
cache=${VPMU_SPARSE_CACHE:?sparse-cached.sh: VPMU_SPARSE_CACHE not set}
root=${VPMU_SPARSE_ROOT:-}

# rel - stdin with the tree's path as @ROOT@.
rel() {
	if [ -n "$root" ]; then
		sed "s|$root|@ROOT@|g"
	else
		cat
	fi
}

mkdir -p "$cache" || exit 1
tmp=$cache/.$$
# No cache for what cannot be preprocessed: sparse itself says why.
if ! "$sparse" -E "$@" >"$tmp.i" 2>/dev/null; then
	rm -f "$tmp.i"
	exec "$sparse" "$@"
fi
key=$({ echo "sparse-cached 1"; "$sparse" --version 2>&1
	printf '%s\n' "$@" | rel; rel <"$tmp.i"; } | sha256sum | cut -c1-40)
rm -f "$tmp.i"
entry=$cache/$key
if [ -f "$entry.rc" ]; then
	touch "$entry.rc"
	if [ -n "$root" ]; then
		sed "s|@ROOT@|$root|g" "$entry.err" >&2
	else
		cat "$entry.err" >&2
	fi
	exit "$(cat "$entry.rc")"
fi
"$sparse" "$@" >"$tmp.err" 2>&1
rc=$?
rel <"$tmp.err" >"$tmp.rel"
cat "$tmp.err" >&2
mv "$tmp.rel" "$entry.err"
echo "$rc" >"$tmp.rc"
mv "$tmp.rc" "$entry.rc"
rm -f "$tmp.err"
exit "$rc"
