#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vpmu_rv32_stat.sh - RV32 C on the kernel's engine (busybox sh): the C
# samples (share/build/rv32/*.elf, rv32c/*.elf for rv32imac and rv32libc/*.elf
# with picolibc when built)
# and random programs run by vpmu-run
# under the rv32im image, their ecalls served between resumed runs
# (VPMU_RUN_F_RESUME), must agree exactly with
#
#   - vpmu-sim, the same engine as host C, run here on the same binary:
#     output, exit status, cycles and x0..x31 at the exit (--stats), and
#     every count perf stat gives for vpmu-run: cycles, uops, insns and
#     the RV32 tags (1 decode, 2 alu, 3 load, 4 store, 5 branch, 6 taken,
#     7 jump, 8 muldiv, 9 ecall), all twelve in the same run as the
#     output (the module is reloaded with nr_counters=12 for this test,
#     and as it was after).  Where that cannot be done (vpmu built in),
#     three events a run: the twelve on the first sample of each kind
#     (rv32im, rv32imac, picolibc), cycles, uops and insns on the rest
#     (each tag's count of every sample is compared on the kernels where
#     vpmu is a module: a run costs seconds on a debug kernel, and the
#     engine counts the same whatever the kernel);
#   - qemu-riscv32, for the random programs, RV32IM, RV32IMC and RV32IMAC
#     (rv32/ beside this script, with qemu-riscv32's results made on the
#     host, where the installation has them): output, exit status, x0..x31
#     at the exit ecall
#     and the instructions executed (tag 1; insns, the retired ones, is
#     one less: the exit ecall does not retire).
#
# And the programs that read their own counters (rv32libc/csr/*.elf,
# picolibc) print what perf stat counts on the same counter.
#
# TAP output; skips without perf, the tools, root (to load
# the image) or the built samples.

SHARE=${VPMU_SHARE:-/usr/share/vpmu}
RUN=$(command -v vpmu-run || echo vpmu-run)
SIM=$(command -v vpmu-sim || echo vpmu-sim)
LOAD=$(command -v vpmu-load || echo vpmu-load)
IMG=$SHARE/build/rv32im.vpmu
ELFS=$SHARE/build/rv32
REF=$(dirname "$0")/rv32
T=/tmp/vpmu_rv32_stat.$$
OUT=$T.stat
# The TAP helpers, beside this script (installed as a TEST_FILES).
# shellcheck source=vpmu_tap.sh
. "$(dirname "$0")/vpmu_tap.sh"

command -v perf >/dev/null 2>&1 || skip_all "no perf"
for t in "$RUN" "$SIM" "$LOAD"; do
	[ -x "$t" ] || skip_all "no $t"
done
[ -f "$IMG" ] || skip_all "no $IMG"
[ -f "$ELFS/fib.elf" ] || skip_all "no $ELFS/*.elf (no cross compiler?)"
[ "$(id -u)" = 0 ] || skip_all "loading the image needs root"
SETS="cycles,uops,insns tag1,tag2,tag3 tag4,tag5,tag6 tag7,tag8,tag9"
reloaded=
if vpmu_loadable && rmmod vpmu 2>/dev/null; then
	# shellcheck disable=SC2086 # the run's parameters, one word each
	if vpmu_insmod ${VPMU_PARAMS:-} nr_counters=12; then
		SETS="cycles,uops,insns,tag1,tag2,tag3,tag4,tag5,tag6,tag7,tag8,tag9"
		reloaded=1
	else
		vpmu_insmod ${VPMU_PARAMS:-}
	fi
fi
cleanup() {
	rm -f "$T".*
	if [ -n "$reloaded" ]; then
		# shellcheck disable=SC2086 # as above
		rmmod vpmu && vpmu_insmod ${VPMU_PARAMS:-}
	else
		"$LOAD" --default >/dev/null 2>&1
	fi
}
trap cleanup EXIT

# The samples for rv32imac too, and those with picolibc, when $VPMU_SHARE
# has them built.
ELFS_C=$SHARE/build/rv32c
ELFS_L=$SHARE/build/rv32libc
nsamples=$(ls "$ELFS"/*.elf "$ELFS_C"/*.elf "$ELFS_L"/*.elf 2>/dev/null | wc -l)
nrand=$(ls "$REF"/r*.elf 2>/dev/null | wc -l)
ELFS_CSR=$ELFS_L/csr
ncsr=0
[ -f "$ELFS_CSR/timed.elf" ] && [ -f "$ELFS_CSR/hpm.elf" ] && ncsr=3
tap_plan $((1 + 3 * nsamples + 3 * nrand + ncsr))
SEP=';'
NL='
'

"$LOAD" "$IMG" >/dev/null
ok $? "the rv32im image loads"

# sim_counts SET - for the comma-separated events of SET, the events for
# perf stat -e (vpmu/vpmu_E/,...) on one line, and on the next the pairs
# for check: vpmu/vpmu_E/=N, N its "event NAME N" line of vpmu-sim's
# --stats (0 if not there); for tagK, the line of the name rv32im.vus
# gives tag K (--stats names the tags as the image does).  One awk for
# the set: a process costs tens of milliseconds on the debug kernels.
sim_counts() {
	awk -v set="$1" '
		$1 == "event" { v[$2] = $3 }
		END {
			split("decode alu load store branch taken jump muldiv ecall",
			      tag, " ")
			n = split(set, e, ",")
			for (i = 1; i <= n; i++) {
				name = e[i]
				if (name ~ /^tag[1-9]$/)
					name = tag[substr(name, 4) + 0]
				ev = ev (i > 1 ? "," : "") "vpmu/vpmu_" e[i] "/"
				want = want " vpmu/vpmu_" e[i] "/=" (v[name] + 0)
			}
			print ev
			print want
		}' "$T.sstats"
}

# counted_run EVENTS ELF - vpmu-run --stats ELF under perf stat -e EVENTS:
# its output in $T.kout, --stats in $T.kstats, exit status in krc, the
# counts in $OUT.  perf counts the child too; sh runs nothing on vpmu.
counted_run() {
	# shellcheck disable=SC2016 # sh -c's own arguments
	perf stat -x"$SEP" -o "$OUT" -e "$1" sh -c \
		'"$0" -q --stats "$1"; echo $? >"$2"' \
		"$RUN" "$2" "$T.krc" >"$T.kout" 2>"$T.kstats"
	krc=
	read -r krc <"$T.krc"
}

# sample_counts ELF [SETS] - each set of events of SETS (default $SETS)
# in a run of its own against vpmu-sim's counts (the output and --stats
# are the first run's).
sample_counts() {
	prc=0
	first=1
	for set in ${2:-$SETS}; do
		r=$(sim_counts "$set") ||
			{ echo "# cannot read $T.sstats"; prc=1; continue; }
		ev=${r%%"$NL"*} want=${r#*"$NL"}
		if [ -n "$first" ]; then
			counted_run "$ev" "$1"
			first=
		else
			stat -e "$ev" "$RUN" -q "$1"
		fi
		# shellcheck disable=SC2086 # one word per event
		check $want || prc=1
	done
	return $prc
}

kinds=
for elf in "$ELFS"/*.elf "$ELFS_C"/*.elf "$ELFS_L"/*.elf; do
	[ -f "$elf" ] || continue
	name=${elf##*/}
	[ "${elf%/rv32c/*}" = "$elf" ] || name="$name (rv32imac)"
	[ "${elf%/rv32libc/*}" = "$elf" ] || name="$name (picolibc)"
	"$SIM" -q -m "$IMG" --stats "$elf" >"$T.sout" 2>"$T.sstats"
	src=$?
	# Three events a run (more than one set): all the sets on a kind's
	# first sample only, the first set on the rest.
	sets=$SETS what="cycles uops insns tag1..tag9"
	case "$kinds " in
	*" ${elf%/*} "*)
		if [ "${SETS%% *}" != "$SETS" ]; then
			sets=${SETS%% *} what="cycles uops insns; three counters"
		fi ;;
	esac
	kinds="$kinds ${elf%/*}"
	sample_counts "$elf" "$sets"
	counted=$?
	cmp -s "$T.sout" "$T.kout" && [ "$src" = "$krc" ]
	ok $? "$name: vpmu-run's output and exit status ($krc) as vpmu-sim's"
	grep -E '^(exit|stop|event cycles|x[0-9]|pc)' "$T.sstats" >"$T.want"
	cmp -s "$T.want" "$T.kstats"
	rc=$?
	ok $rc "$name: cycles and x0..x31 at the exit as vpmu-sim's"
	[ $rc = 0 ] || diff "$T.want" "$T.kstats" | sed 's/^/# /'
	ok $counted "$name: perf stat counts ($what) as vpmu-sim's"
done

for elf in "$REF"/r*.elf; do
	[ -f "$elf" ] || break
	r=${elf%.elf}
	name=${r##*/}
	counted_run vpmu/vpmu_tag1/,vpmu/vpmu_insns/ "$elf"
	rrc=
	read -r rrc <"$r.rc"
	cmp -s "$r.out" "$T.kout" && [ "$krc" = "$rrc" ]
	ok $? "random $name: output and exit status ($krc) as qemu-riscv32's"
	grep '^x' "$T.kstats" | cmp -s - "$r.regs"
	ok $? "random $name: x0..x31 at the exit ecall as qemu-riscv32's"
	qn=
	read -r qn <"$r.insns"
	check "vpmu/vpmu_tag1/=$qn" "vpmu/vpmu_insns/=$((qn - 1))"
	ok $? "random $name: $qn instructions executed as qemu-riscv32, all but the exit retired"
done

# csr_run EVENT ELF [PERF-OPTION...] - vpmu-run -q ELF on CPU 0 under
# perf stat -e EVENT, its output in $T.kout.
csr_run() {
	ev=$1 elf=$2
	shift 2
	perf stat -x"$SEP" -o "$OUT" "$@" -e "$ev" taskset -c 0 "$RUN" -q \
		"$elf" >"$T.kout" 2>/dev/null
}

# timed.elf times a qsort with two clock() reads (rdcycle): a cycles
# event whose group the reads' csr tag (12) thaws and freezes counts from
# the first read to the second, the difference the program prints.
# hpm.elf reads instret, then hpmcounter3, the engine's counter 0: an
# instructions event pinned there (ctr=1) and stopped by the first read's
# tag has counted what the program printed for both.  A CPU-wide event
# (-C 0): a task's event restarts its counter from 0 each time the task is
# switched in, a CPU's stays (the full VM run switched vpmu-run out at
# times).
if [ "$ncsr" != 0 ]; then
	ev=vpmu/vpmu_cycles,trig_tag=12,frozen=1/
	csr_run "$ev" "$ELFS_CSR/timed.elf"
	"$SIM" -q -m "$IMG" "$ELFS_CSR/timed.elf" >"$T.sout"
	cmp -s "$T.sout" "$T.kout"
	ok $? "timed.elf (picolibc, clock()): vpmu-run's output as vpmu-sim's"
	c=$(sed -n 's/^qsort of [0-9]* ints: \([0-9]*\) cycles$/\1/p' \
		"$T.kout")
	check "$ev=${c:-none}"
	ok $? "timed.elf: the cycles it printed ($c) are perf stat's between its reads"
	ev=vpmu/vpmu_insns,ctr=1,stop_tag=12/
	csr_run "$ev" "$ELFS_CSR/hpm.elf" -C 0
	r=$(sed -n 's/^strlen 511; instret \([0-9]*\); hpmcounter3 \([0-9]*\)$/\1 \2/p' \
		"$T.kout")
	h=${r#* }
	[ "${h:-0}" -gt 0 ] && [ "${r% *}" = "$h" ] && check "$ev=$h"
	ok $? "hpm.elf: instret and hpmcounter3 ($r) are perf stat's count on counter 0"
fi

tap_done
