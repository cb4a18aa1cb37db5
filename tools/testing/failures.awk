# SPDX-License-Identifier: GPL-2.0
#
# failures.awk - what failed in a tier's output, by name, one line each,
# at most 20, for check.sh's summary (CI keeps only the end of a run's
# output):
#
#   - a TAP "not ok" line, its leading blanks and '#' dropped (the vm
#     tiers indent the guest's, the pkg tier comments them out), and after
#     it, in brackets, the last "FILE.c:LINE:" line of the kselftest
#     harness's before it (what was expected, where), if any since the
#     test or the host run before;
#   - a vm tier's "NAME: FAIL: REASON" line;
#
# a host run's lines prefixed by its program's name, from the "# NAME"
# line run-tests.sh prints before each run's output.

/^# [^ ]+$/ { run = substr($0, 3) ": "; why = "" }

/^[ #]*[A-Za-z0-9_.-]+\.c:[0-9]+:/ {
	why = $0
	sub(/^[ #]+/, "", why)
	next
}

/^[ #]*ok / { why = "" }

/^[ #]*not ok/ || /^[^ ]+: FAIL: / {
	sub(/^[ #]+/, "")
	print run $0 ((why != "" && /not ok/) ? " [" substr(why, 1, 100) "]" : "")
	why = ""
	if (++n == 20)
		exit
}
