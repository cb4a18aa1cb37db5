#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test_vm_splats.sh - the VM harness's splat filter (TAP): log_splats of
# tools/testing/vm/lib/logs.sh on made-up serial logs.  The reports vpmu_fault
# causes on purpose outside vpmu (fault_reports: warn_alloc()'s stack
# dump, remove_proc_entry()'s WARNING from unregister_irq_proc()) are let
# through while vpmu_fault runs and only then, and only those: the same
# WARNING from another caller, another WARNING, or either report under
# another test is a splat.  A KCSAN report is a splat when either of its
# stacks has a vpmu frame, and only then (kcsan_foreign).  What the
# reason line says of a splat (splat_head).  And the longest programs a
# run names (slowest, lib/guest.sh).  lib.sh is
# bash's; run-tests.sh runs every test_*.sh with sh.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/tap.sh"
# shellcheck source-path=SCRIPTDIR source=../vm/lib.sh
. "$TOP/tools/testing/vm/lib.sh"

# proc_warning CALLER - remove_proc_entry()'s report, freed by CALLER
proc_warning() {
	cat <<EOF
[   66.010651] ------------[ cut here ]------------
[   66.011290] name 'smp_affinity_list'
[   66.011645] WARNING: CPU: 1 PID: 60 at fs/proc/generic.c:733 remove_proc_entry+0x137/0x268
[   66.012425] Modules linked in: vpmu(O-)
[   66.018630] RIP: 0010:remove_proc_entry+0x137/0x268
[   66.020426] Call Trace:
[   66.020501]  <TASK>
[   66.020575]  ? proc_readdir+0xe6/0xe6
[   66.023232]  $1+0x106/0x20c
[   66.025531]  free_desc+0x6d/0x118
[   66.026201]  irq_free_descs+0x30/0x44
[   66.033156]  </TASK>
[   66.033379] ---[ end trace 0000000000000000 ]---
EOF
}

# vmalloc_failure - warn_alloc()'s report of a vmalloc() that failed
vmalloc_failure() {
	cat <<'EOF'
[   40.100000] vpmu_fault: vmalloc error: size 65536, failed to allocate pages, mode:0xdc0(GFP_KERNEL|__GFP_ZERO), nodemask=(null)
[   40.100100] CPU: 0 PID: 60 Comm: vpmu_fault Not tainted 6.12.117 #1
[   40.100200] Hardware name: QEMU Standard PC (i440FX + PIIX, 1996)
[   40.100300] Call Trace:
[   40.100400]  <TASK>
[   40.100500]  dump_stack_lvl+0x5d/0x80
[   40.100600]  warn_alloc+0x164/0x190
[   40.100700]  </TASK>
EOF
}

# other_warning - a WARNING of vpmu's own
other_warning() {
	cat <<'EOF'
[   50.000000] ------------[ cut here ]------------
[   50.000100] WARNING: CPU: 0 PID: 60 at drivers/perf/vpmu/vpmu_pmu.c:100 vpmu_event_del+0x10/0x20 [vpmu]
[   50.000200] Call Trace:
[   50.000300]  <TASK>
[   50.000400]  event_sched_out+0x1/0x2
[   50.000500]  </TASK>
EOF
}

# kcsan_report FRAME1 FRAME2 - a KCSAN report, FRAMEn on top of stack n
kcsan_report() {
	cat <<EOF
[   70.000000] ==================================================================
[   70.000100] BUG: KCSAN: data-race in ${1%%+*} / ${2%%+*}
[   70.000200]
[   70.000300] write to 0xffff888004a1b2c0 of 8 bytes by interrupt on cpu 1:
[   70.000400]  $1
[   70.000500]  __handle_irq_event_percpu+0x5e/0x1a0
[   70.000600]
[   70.000700] read to 0xffff888004a1b2c0 of 8 bytes by task 80 on cpu 0:
[   70.000800]  $2
[   70.000900]  __x64_sys_ioctl+0x90/0xd0
[   70.001000]
[   70.001100] value changed: 0x0000000000000001 -> 0x0000000000000002
[   70.001200]
[   70.001300] Reported by Kernel Concurrency Sanitizer on:
[   70.001400] CPU: 0 PID: 80 Comm: vpmu_stress Not tainted 6.12.117 #1
[   70.001500] ==================================================================
EOF
}

# under TEST BODY... - a log: BODY's output while TEST runs, then the end
under() {
	local t=$1
	shift
	echo "VPMU-RUN $t"
	"$@"
	echo "VPMU-TEST $t: PASS"
}

# expect NAME N - the log $tmp/log has N splat lines
expect() {
	local got

	got=$(log_splats "$tmp/log" | wc -l)
	[ "$got" = "$2" ] || echo "# $1: $got splat lines, not $2"
	ok "$([ "$got" = "$2" ]; echo $?)" "$1"
}

under vpmu_fault proc_warning unregister_irq_proc >"$tmp/log"
expect "remove_proc_entry from unregister_irq_proc under vpmu_fault: none" 0
under vpmu_fault vmalloc_failure >"$tmp/log"
expect "warn_alloc's report under vpmu_fault: none" 0
{ under vpmu_fault proc_warning unregister_irq_proc
  under vpmu_fault vmalloc_failure; } >"$tmp/log"
expect "both under vpmu_fault: none" 0
under vpmu_run proc_warning unregister_irq_proc >"$tmp/log"
expect "remove_proc_entry under another test: WARNING and Call Trace" 2
under vpmu_run vmalloc_failure >"$tmp/log"
expect "warn_alloc's report under another test: its Call Trace" 1
under vpmu_fault proc_warning remove_proc_subtree >"$tmp/log"
expect "remove_proc_entry from another caller under vpmu_fault: both lines" 2
under vpmu_fault other_warning >"$tmp/log"
expect "vpmu's own WARNING under vpmu_fault: both lines" 2
{ under vpmu_fault proc_warning unregister_irq_proc
  proc_warning unregister_irq_proc; } >"$tmp/log"
expect "after vpmu_fault ended: the second report's two lines" 2
under vpmu_stress.sh kcsan_report "tick_sched_timer+0x1/0x2" \
	"rcu_sched_clock_irq+0x3/0x4" >"$tmp/log"
expect "KCSAN report without a vpmu frame: none" 0
under vpmu_stress.sh kcsan_report "vpmu_irq_handler+0x1/0x2 [vpmu]" \
	"perf_event_read+0x3/0x4" >"$tmp/log"
expect "KCSAN report with a vpmu frame in one stack: its BUG line" 1
under vpmu_stress.sh kcsan_report "perf_event_update_userpage+0x1/0x2" \
	"vpmu_engine_run.isra.0+0x3/0x4" >"$tmp/log"
expect "KCSAN report with vpmu_* in the other stack: its BUG line" 1
{ under vpmu_stress.sh kcsan_report "a+0x1/0x2" "b+0x1/0x2"
  under vpmu_stress.sh kcsan_report "vpmu_x+0x1/0x2" "b+0x1/0x2"; } >"$tmp/log"
expect "a foreign report, then one of vpmu's: one BUG line" 1
# RCU's own race, reached through vpmu's cond_resched() (CI's kcsan-6.12)
under vpmu_stress.sh kcsan_report "rcu_disable_urgency_upon_qs+0x45/0x62" \
	"rcu_all_qs+0x19/0xf3
[   70.000810]  __cond_resched+0x4b/0x50
[   70.000820]  vpmu_machine_run+0xc19/0xdb2 [vpmu]" >"$tmp/log"
expect "a kernel race of KCSAN_KERNEL_RACES under a vpmu frame: none" 0
under vpmu_stress.sh kcsan_report "rcu_all_qs+0x19/0xf3" \
	"vpmu_x+0x1/0x2" >"$tmp/log"
expect "one of its functions racing with vpmu's: its BUG line" 1

# splat_head: the splat's own line, or above a bare "Call Trace:" what
# happened (here the OOM killer's report), without its timestamp.
printf '%s\r\n' "[  301.000100] vpmu_memcg invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0" \
	"[  301.000200] CPU: 0 UID: 65534 PID: 812 Comm: vpmu_memcg" \
	"[  301.000300] Call Trace:" "[  301.000400]  <TASK>" \
	"[  302.000000] WARNING: CPU: 1 PID: 9 at mm/x.c:1 f+0x1/0x2" >"$tmp/log"
got=$(splat_head "$tmp/log" 3)
[ "$got" = "line 3: vpmu_memcg invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0" ]
ok $? "splat_head: above a Call Trace, the OOM killer's line: '$got'"
got=$(splat_head "$tmp/log" 5)
[ "$got" = "line 5: WARNING: CPU: 1 PID: 9 at mm/x.c:1 f+0x1/0x2" ]
ok $? "splat_head: a WARNING's own line: '$got'"

# slowest (lib/guest.sh): a run's five longest programs, from the guest's
# VPMU-TIME lines only, longest first; nothing from a log without them.
{ echo "VPMU-RUN a"; echo "VPMU-TIME a 3s"; echo "[ 1.0] VPMU-TIME k 99s"
  for t in b:40 c:7 d:12 e:1 f:25; do echo "VPMU-TIME ${t%:*} ${t#*:}s"; done
} >"$tmp/log"
got=$(slowest "$tmp/log" 2>&1)
[ "$got" = ", the longest programs: b 40s, f 25s, d 12s, c 7s, a 3s" ]
ok $? "slowest: the five longest programs of a run: '$got'"
echo "VPMU-RUN a" >"$tmp/log"
got=$(slowest "$tmp/log" 2>&1)
[ -z "$got" ]
ok $? "slowest: nothing for a log without times: '$got'"
tap_done
