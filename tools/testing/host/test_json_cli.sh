#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_json_cli.sh - vpmu-sim --json (TAP), read with Python's json
# module: every line of the output is one JSON object, and each says
# what the text output says, value for value: a run's stop, cycles,
# registers and, with -E, events; its .expect result; --hu's buckets; a
# fault's kind and address; an ELF program's --stats, on stderr; a file
# name that needs escaping; -j for --json, as perf stat's, in every
# tool.  And vpmu-hist --json: the micro-PC report's
# header, rows (per microword and --by-label) and --top's rest, and the
# --buckets report, each against the text report of the same input.  (vpmu-run prints through the same code,
# vpmu_runner.c; its --stats object through vpmu_elf_json_*().)
set -u

. "$(dirname "$0")/tap.sh"
T=$BIN
S=$SHARE
tap_build vpmu-sim vpmu-hist vpmu-run vpmu-load share rv32
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

# --stats names a tag as the image does (rv32im.vus: .tag decode, 1,
# ...), tagK where it gives none: the names' event lines in the order of
# the tags, in the text and as --json's keys.
grep '^event' "$tmp/t" | cut -d' ' -f2 | tail -n +11 | tr '\n' ' ' >"$tmp/names"
[ "$(cat "$tmp/names")" = "decode alu load store branch taken jump muldiv ecall " ]
ok $? "vpmu-sim --stats fib.elf: the tags under the image's names"
jcheck /dev/null "$tmp/j" '
assert list(js[0]["events"])[10:] == ["decode", "alu", "load", "store",
    "branch", "taken", "jump", "muldiv", "ecall"], js[0]["events"]'
ok $? "vpmu-sim --stats --json fib.elf: the tags' keys are the image's names"
sed 's/^\.tag /.equ tag_/; s/{\([a-z]\)/{tag_\1/g; s/, \([a-z][a-z]*\)}/, tag_\1}/g' \
	"$S/ucode/rv32im.vus" >"$tmp/anon.vus"
"$T/vpmu-as" -o "$tmp/anon.vpmu" "$tmp/anon.vus" 2>"$tmp/err" || cat "$tmp/err" >&2
"$T/vpmu-sim" -m "$tmp/anon.vpmu" --stats "$elf" 2>"$tmp/t2" >/dev/null
"$T/vpmu-sim" -m "$tmp/anon.vpmu" --stats --json "$elf" 2>"$tmp/j2" >/dev/null
[ "$(grep '^event tag' "$tmp/t2" | cut -d' ' -f2 | tr '\n' ' ')" = "tag1 tag2 tag3 tag4 tag5 tag6 tag7 tag8 tag9 " ] &&
jcheck /dev/null "$tmp/j2" '
assert list(js[0]["events"])[10:] == ["tag%d" % k for k in range(1, 10)]'
ok $? "vpmu-sim --stats, --json: tagK for an image that names no tag"

# A name JSON must escape: a quote, a backslash and a tab.
odd="$tmp/a\"b\\c	d.expect"
cp "$S/samples/sum.expect" "$odd"
"$T/vpmu-sim" --json -e "$odd" "$sum" >"$tmp/j"
jcheck "$odd" "$tmp/j" 'assert js[1]["expect"]["file"] == sys.argv[1], js[1]'
ok $? "vpmu-sim --json: a file name with a quote, a backslash and a tab, escaped"

"$T/vpmu-sim" --help | grep -q -- "--json"
ok $? "vpmu-sim --help names --json"

# ---- vpmu-hist --json --------------------------------------------------
# hist_text LINES: the text report's header facts and rows.
cat >"$tmp/histtext.py" <<'PY'
import re
def hist_text(lines):
    m = re.match(r'image "(.*)" \(checksum (0x[0-9a-f]+)\), (\d+) microwords',
                 lines[0])
    head = {'image': m[1], 'checksum': int(m[2], 16), 'microwords': int(m[3])}
    m = re.match(r'interval (\d+), (\d+) samples, (\d+) microwords sampled',
                 lines[1])
    head.update(interval=int(m[1]), samples=int(m[2]), sampled=int(m[3]))
    rows, more = [], None
    for l in lines[4:]:
        m = re.match(r'\((\d+) more \w+ with (\d+) samples, ([\d.]+)%', l)
        if m:
            more = {'more': int(m[1]), 'count': int(m[2]), 'share': m[3]}
        elif l:
            rows.append(l)
    return head, rows, more
PY
img=$S/build/default.vpmu
"$T/vpmu-hist" -S -m "$img" --top=4 "$sum" >"$tmp/t" 2>/dev/null
"$T/vpmu-hist" -S -m "$img" --top=4 --json "$sum" >"$tmp/j" 2>/dev/null
jcheck "$tmp/t" "$tmp/j" '
from histtext import hist_text
head, rows, more = hist_text(t)
assert js[0] == head, (js[0], head)
assert head == {"image": "vpmu32", "checksum": 0x487c1dc4, "microwords": 149,
                "interval": 1, "samples": 179, "sampled": 18}, head
assert len(js) == 6 and len(rows) == 4
for o, l in zip(js[1:5], rows):
    w = l.split(None, 5)
    assert list(o) == ["label", "upc", "count", "share", "microword"], o
    assert [o["label"], o["upc"], o["count"], "%.2f" % o["share"]] == \
        [w[0], int(w[1], 16), int(w[2]), w[3]], (o, l)
    assert l.endswith("  " + o["microword"]), (o, l)
assert js[1] == {"label": "next", "upc": 1, "count": 22, "share": 12.2905028,
                 "microword": "ADD pc, pc, #4 ; EOI"}, js[1]
assert dict(js[5], share="%.2f" % js[5]["share"]) == more, (js[5], more)
assert js[5] == {"more": 14, "count": 121, "share": 67.5977654}, js[5]'
ok $? "vpmu-hist --json --top=4: header, rows and the rest as the text report"

"$T/vpmu-hist" -S -m "$img" -l -s addr "$sum" >"$tmp/t" 2>/dev/null
"$T/vpmu-hist" -S -m "$img" -l -s addr --json "$sum" >"$tmp/j" 2>/dev/null
jcheck "$tmp/t" "$tmp/j" '
from histtext import hist_text
head, rows, more = hist_text(t)
assert js[0] == head and more is None and len(js) == len(rows) + 1 == 8
for o, l in zip(js[1:], rows):
    w = l.split()
    hit, size = w[2].split("/")
    assert [o["label"], o["upc"], o["uwords_sampled"], o["uwords"],
            o["count"], "%.2f" % o["share"]] == \
        [w[0], int(w[1], 16), int(hit), int(size), int(w[3]), w[4]], (o, l)
assert [o["upc"] for o in js[1:]] == sorted(o["upc"] for o in js[1:])
assert sum(o["count"] for o in js[1:]) == 179'
ok $? "vpmu-hist --json --by-label --sort=addr: a row per label as the text"

cat >"$tmp/prog" <<'EOP'
seq
vpmu_insns 780
wq=1-4 780
event=2 1
EOP
printf 'C1 135\nC2 0\nC3 64\n' >"$tmp/sum3"
"$T/vpmu-hist" --buckets="$tmp/sum3" --program="$tmp/prog" --top=2 >"$tmp/t"
"$T/vpmu-hist" --buckets="$tmp/sum3" --program="$tmp/prog" --top=2 --json \
	>"$tmp/j"
jcheck "$tmp/t" "$tmp/j" '
import re
m = re.match(r"histogram-unit buckets of (\S+): (\d+) buckets, (\d+) counted", t[0])
p = re.match(r"program: (\S+), monitoring period (\d+) cycles", t[1])
assert js[0] == {"file": m[1], "buckets": int(m[2]), "total": int(m[3]),
                 "mode": p[1], "period": int(p[2])}, (js[0], t[:2])
assert js[0] == {"file": "sum3", "buckets": 3, "total": 199, "mode": "seq",
                 "period": 1561}, js[0]
rows = [l for l in t if l.startswith("C")]
assert len(js) == 4 and len(rows) == 2
for o, l in zip(js[1:3], rows):
    assert l.startswith("%-6s  %s  " % (o["bucket"], o["label"])), (o, l)
    w = l[8 + len(o["label"]):].split()
    assert [o["count"], "%.2f" % o["share"]] == [int(w[0]), w[1]], (o, l)
assert [o["bucket"] for o in js[1:3]] == ["C1", "C2"], js
assert js[1]["label"] == "vpmu_insns (780 cycles)", js[1]
m = re.match(r"\((\d+) more bucket with (\d+) counted, ([\d.]+)%", t[-2])
assert [js[3]["more"], js[3]["count"], "%.2f" % js[3]["share"]] == \
    [int(m[1]), int(m[2]), m[3]], (js[3], t[-2])
assert js[3] == {"more": 1, "count": 64, "share": 32.160804}, js[3]'
ok $? "vpmu-hist --buckets --program --json --top=2: header, rows, rest as the text"

"$T/vpmu-hist" --help | grep -q -- "--json"
ok $? "vpmu-hist --help names --json"

# -j, perf stat's short for --json (--json-output), in every tool.
"$T/vpmu-sim" --json -n 2 "$sum" >"$tmp/j" &&
	"$T/vpmu-sim" -j -n 2 "$sum" >"$tmp/j2" && cmp -s "$tmp/j" "$tmp/j2"
ok $? "vpmu-sim -j: the same lines as --json"
"$T/vpmu-hist" -S -m "$img" --json "$sum" >"$tmp/j" 2>/dev/null &&
	"$T/vpmu-hist" -S -m "$img" -j "$sum" >"$tmp/j2" 2>/dev/null &&
	cmp -s "$tmp/j" "$tmp/j2" &&
	"$T/vpmu-hist" -j --buckets="$tmp/sum3" >"$tmp/j" &&
	jcheck /dev/null "$tmp/j" 'assert js[0]["total"] == 199 and len(js) == 4'
ok $? "vpmu-hist -j: the same lines as --json, --buckets too"
bad=
for t in vpmu-sim vpmu-run vpmu-load vpmu-hist; do
	"$T/$t" --help | grep -q -- "^  -j, --json  " || bad="$bad $t"
done
[ -z "$bad" ]
ok $? "every tool's --help: -j, --json"
tap_done
