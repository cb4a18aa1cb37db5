# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lint-docs.sh - the lint tier's documentation checks (sourced by lint.sh,
# which provides tap(), ensure_pkgs and the cache):
#
#   - every reStructuredText file in Documentation/, parsed as the
#     kernel's documentation build parses it (rst-lint.py: docutils, with
#     Sphinx's roles and directives as no-ops); any warning or error fails;
#   - Documentation/ABI/ through the kernel's scripts/get_abi.pl (from
#     Debian's linux-source package, extracted into the cache): "validate"
#     must print nothing and the "rest" rendering must pass rst-lint.py;
#   - every man page through "mandoc -T lint", which must print nothing.

RST_LINT=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/rst-lint.py

# ensure_get_abi - get_abi.pl of $LINUX_SRC_PKG in the cache; sets GET_ABI.
ensure_get_abi() {
	linux_src_files get_abi 2 "$LINUX_SRC_PKG/scripts/get_abi.pl"
	GET_ABI=$LINUX_SRC_FILES/get_abi.pl
}

# doc_files PATTERN... - tracked files matching the git pathspecs (every
# file matching them in an exported tree).
doc_files() {
	if git -C "$TOP" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$TOP" ls-files "$@"
	else
		local p

		for p in "$@"; do
			(cd "$TOP" && find . -path "./$p" | sed 's|^\./||')
		done | sort
	fi
}

# abi_origins RENDERED - rst-lint.py's messages on stdin, each followed by
# the ABI entry it is in (get_abi.pl's ".. LINENO FILE#LINE" comments).
abi_origins() {
	local msg line from

	while IFS= read -r msg; do
		printf '%s\n' "$msg"
		line=$(sed -nE 's/^[^:]+:([0-9]+): .*/\1/p' <<<"$msg")
		[ -n "$line" ] || continue
		from=$(head -n "$line" "$1" | grep '^\.\. LINENO ' | tail -n 1)
		[ -n "$from" ] && printf '  in the entry at %s\n' "${from##*/}"
	done
}

run_docs() {
	local f out abi

	ensure_pkgs python3-docutils mandoc
	ensure_get_abi
	out=$(mktemp)
	abi=$(mktemp -d)
	for f in $(doc_files 'Documentation/*.rst'); do
		if (cd "$TOP" && /usr/bin/python3 "$RST_LINT" "$f") >"$out" 2>&1
		then
			tap ok "rst $f"
		else
			tap fail "rst $f" "$out"
		fi
	done
	if perl "$GET_ABI" --dir "$TOP/Documentation/ABI" validate >"$out" 2>&1 &&
	   [ ! -s "$out" ]; then
		tap ok "ABI: get_abi.pl validate"
	else
		tap fail "ABI: get_abi.pl validate" "$out"
	fi
	if perl "$GET_ABI" --enable-lineno --dir "$TOP/Documentation/ABI" \
			rest >"$abi/abi.rst" 2>"$out" && [ ! -s "$out" ] &&
	   /usr/bin/python3 "$RST_LINT" "$abi/abi.rst" >"$out" 2>&1; then
		tap ok "ABI: get_abi.pl rest, as rst"
	else
		abi_origins "$abi/abi.rst" <"$out" >"$abi/why"
		tap fail "ABI: get_abi.pl rest, as rst" "$abi/why"
	fi
	for f in $(doc_files 'tools/vpmu/man/*.[1-9]'); do
		if mandoc -T lint "$TOP/$f" >"$out" 2>&1 && [ ! -s "$out" ]; then
			tap ok "mandoc -T lint $f"
		else
			tap fail "mandoc -T lint $f" "$out"
		fi
	done
	rm -rf "$out" "$abi"
}
