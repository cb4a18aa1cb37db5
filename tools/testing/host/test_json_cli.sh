#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_json_cli.sh - vpmu-sim --json (TAP), read with Python's json
# module: every line of the output is one JSON object, and each says
# what the text output says, value for value: a run's stop, cycles,
# registers and, with -E, events; its .expect result; --hu's buckets; a
# fault's kind and address; an ELF program's --stats, on stderr; a file
# name that needs escaping.  (vpmu-run prints through the same code,
# vpmu_runner.c; its --stats object through vpmu_elf_json_*().)
set -u

. "$(dirname "$0")/tap.sh"
T=$BIN
S=$SHARE
tap_build vpmu-sim share rv32
# shellcheck source=../../pkg/apt.sh
. "$TOP/tools/pkg/apt.sh"
command -v python3 >/dev/null 2>&1 || apt_install_missing python3
if ! command -v python3 >/dev/null 2>&1; then
	echo "ok 1 - vpmu-sim --json # SKIP no python3"
	echo "1..1"
	exit 0
fi

# jcheck TEXT JSON SCRIPT: run the Python SCRIPT with t, the text output's
# lines, and js, the JSON output's objects (a line that is not a JSON
# object fails); the check passes if SCRIPT does not raise.
jcheck() {
	python3 - "$1" "$2" "$3" <<'PY'
import json, sys
t = open(sys.argv[1]).read().split('\n')
js = []
for line in open(sys.argv[2]):
    o = json.loads(line)
    assert isinstance(o, dict), line
    js.append(o)
exec(sys.argv[3])
PY
}

# A run's text lines as a dict: "stop", "cycles", registers, events.
cat >"$tmp/text.py" <<'PY'
def text_run(lines):
    d = {'regs': {}, 'events': {}}
    for l in lines:
        w = l.split()
        if not w:
            continue
        if w[0] == 'stop':
            d['stop'] = w[1]
        elif w[0] == 'cycles':
            d['cycles'] = int(w[1])
        elif w[0] == 'pc':
            d['pc'], d['ipc'], d['upc'] = (int(x, 16) for x in w[1:6:2])
            d['mode'] = w[7]
        elif w[0] == 'reg':
            d['regs'][w[1]] = int(w[2])
        elif w[0] == 'event':
            d['events'][w[1]] = int(w[2])
        elif w[:2] == ['super', 'cycles']:
            d['super_cycles'] = int(w[2])
    return d
PY
export PYTHONPATH=$tmp

sum=$S/build/sum.vprg
"$T/vpmu-sim" -E "$sum" >"$tmp/t"
"$T/vpmu-sim" -E --json "$sum" >"$tmp/j"
jcheck "$tmp/t" "$tmp/j" '
from text import text_run
assert len(js) == 1
want = text_run(t)
got = {k: js[0][k] for k in want}
assert got == want, (got, want)
assert js[0]["run"] == 1 and js[0]["regs"] == {"r2": 55}'
ok $? "vpmu-sim -E --json sum.vprg: one object, stop, cycles, pc, regs, every event as the text"

"$T/vpmu-sim" --json -n 3 -e "$S/samples/sum.expect" "$sum" >"$tmp/j"
rc=$?
"$T/vpmu-sim" -e "$S/samples/sum.expect" "$sum" >"$tmp/t"
jcheck "$tmp/t" "$tmp/j" '
import re
n = int(re.search(r": (\d+) checks passed", "\n".join(t)).group(1))
assert [o["run"] for o in js] == [1, 1, 2, 2, 3, 3], js
for o in js[1::2]:
    assert o["expect"]["passed"] == n and len(o["expect"]) == 2, o
    assert o["expect"]["file"].endswith("samples/sum.expect"), o
'
[ $? = 0 ] && [ $rc = 0 ]
ok $? "vpmu-sim --json -n 3 -e: a run object and an expect object per run, the text's check count"

"$T/vpmu-sim" --json -t -n 2 "$sum" >"$tmp/j"
jcheck /dev/null "$tmp/j" '
assert all(o["seconds"] >= 0 and "cycles_per_second" in o for o in js[:2])
assert js[2]["total"]["cycles"] == 2 * js[0]["cycles"] == 358, js'
ok $? "vpmu-sim --json -t: seconds per run, a total object"

"$T/vpmu-sim" "$S/build/fault.vprg" >"$tmp/t"
"$T/vpmu-sim" --json "$S/build/fault.vprg" >"$tmp/j"
jcheck "$tmp/t" "$tmp/j" '
import re
m = re.match(r"stop fault (\d+) \((\S+) at (0x[0-9a-f]+)\)", t[0])
o = js[0]
assert o["stop"] == "fault" and o["code"] == int(m[1]), (o, t[0])
assert o["fault"] == m[2] and o["addr"] == int(m[3], 16), (o, t[0])'
ok $? "vpmu-sim --json fault.vprg: the fault's code, kind and address as the text"

hu='par; vpmu_cycles 1000; vpmu_insns 1000'
"$T/vpmu-sim" -q --hu "$hu" "$sum" >"$tmp/t"
"$T/vpmu-sim" -q --json --hu "$hu" "$sum" >"$tmp/j"
jcheck "$tmp/t" "$tmp/j" '
want = {l.split()[1]: int(l.split()[2]) for l in t if l.startswith("hist ")}
assert want and js == [{"hist": want}], (js, want)'
ok $? "vpmu-sim --json --hu: the buckets as the text's"

elf=$S/build/rv32/fib.elf
"$T/vpmu-sim" --stats "$elf" 2>"$tmp/t" >/dev/null
"$T/vpmu-sim" --stats --json "$elf" 2>"$tmp/j" >"$tmp/out"
jcheck "$tmp/t" "$tmp/j" '
assert len(js) == 1
o = js[0]
ev = {l.split()[1]: int(l.split()[2]) for l in t if l.startswith("event ")}
regs = {l.split()[0]: int(l.split()[1], 16) for l in t if l.startswith("x")}
assert t[0] == "exit %d" % o["exit"], (t[0], o)
assert o["events"] == ev, (o["events"], ev)
assert o["regs"] == regs and len(regs) == 32
assert "pc 0x%08x" % o["pc"] in t
tc = dict(zip(*[iter([l for l in t if l.startswith("tc ")][0].split()[1:])] * 2))
assert {k: str(v) for k, v in o["tc"].items()} == tc, (o["tc"], tc)' &&
	[ -s "$tmp/out" ]
ok $? "vpmu-sim --stats --json fib.elf: exit, events, x0..x31, pc and tc on stderr as the text"

# A name JSON must escape: a quote, a backslash and a tab.
odd="$tmp/a\"b\\c	d.expect"
cp "$S/samples/sum.expect" "$odd"
"$T/vpmu-sim" --json -e "$odd" "$sum" >"$tmp/j"
jcheck "$odd" "$tmp/j" 'assert js[1]["expect"]["file"] == sys.argv[1], js[1]'
ok $? "vpmu-sim --json: a file name with a quote, a backslash and a tab, escaped"

"$T/vpmu-sim" --help | grep -q -- "--json"
ok $? "vpmu-sim --help names --json"
tap_done
