# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib/flavours.sh - the VM harness's kernel flavours: the one table of
# them, which every tier reads, and the names of their runs (sourced by
# ../lib.sh, first: debug.sh reads the table as it is sourced).

# Every kernel flavour the harness runs, one row each, in the order the
# tiers run them (make vm-check: the stock set; make debug-check: the
# debug set).  The one place they are listed: vm-check.sh, check.sh,
# prepare_kernel and flavour_name read it.  Columns:
#
#   flavour   what vm-check.sh and vm-run.sh --kernel take ("debug" is
#             debug-6.1)
#   name      its runs' name, in their result line "NAME: N passed, N
#             failed"; a 7.x kernel's is its version's (vm-7.3), known
#             once the kernel is found
#   set       stock or debug: which set of vm-check.sh runs it; series:
#             none (make series SERIES_CHECK=1 runs it)
#   kernel    6.1, 6.12, 6.12-rt: the newest bookworm kernel of that
#             series (resolve_stock); 7.x: the newest 7.x of
#             trixie-backports, its module built in the trixie root
#             (resolve_newest); debug-SERIES: built here from
#             linux-source-SERIES (build_debug_kernel), 15 min to 2 GB;
#             series: the kernel make series SERIES_CHECK=1 built with
#             its patches, vpmu built in ($VPMU_SERIES_KERNEL, for Linux
#             $VPMU_SERIES_KVER), its kselftests installed from that
#             tree ($VPMU_SERIES_KSFT)
#   suite     all: every selftest; kselftest: every selftest, built,
#             installed and run as linux-source-6.12's kernel tree does
#             (build_ksft_tree, vpmu_kselftest=1); else the vpmu_test=
#             list of the programs to run
#   params    the rest of the line: the guest's kernel command line words,
#             and the harness's own: @slub, stock_cmdline's slub_debug=;
#             @smp=S, QEMU's -smp S (default 2); @tcg=T, TCG single- or
#             multi-threaded (default VPMU_TCG_THREAD, else single);
#             @timeout=S, the guest's time when more than the set's
#             (VPMU_VM_TIMEOUT or 600 s, VPMU_DEBUG_TIMEOUT or 900 s; each
#             program has two thirds of it)
#
# vm-6.12-mttcg: the tests where two CPUs must really overlap (overflow
# interrupts on both at once), each vCPU on a host thread of its own;
# multi-threaded TCG is only trusted on 6.12 (6.1 guests hang under it
# even without vpmu).  vm-6.1-cpus64: two CPUs present, 64 possible (the
# rest could be hot-added): what the module costs on a machine that
# declares many more CPUs than it has (vpmu_mem), and the tests that go
# over every possible CPU's engine and files; no slub_debug, whose red
# zones triple what a page-sized object costs: what is measured is the
# kernel as shipped.  vm-6.12-notc: the suite once more with the
# engines' translation cache off (vpmu.ko tc=0: the microword interpreter
# alone), to compare with vm-6.12: the same tests, the same counts; but
# for those whose outcome does not depend on how the engine runs
# programs, which vm-6.12 and the rest cover: module and image loading
# (vpmu_registered, vpmu_load_unload, vpmu_ucode*, vpmu_reload_stress,
# vpmu_unload_busy, vpmu_perf_reload, vpmu_lifetime*), the ABI, version
# and perf-surface scripts, perf's validation of groups, hotplug, the
# memory measures (vpmu_mem*, which tc=0 changes by design), the
# uhist readers' concurrency and the stress tier (vpmu_stress.sh).
# debug-SERIES-fault: the fault tier (vpmu_fault, testing.rst "Fault
# injection") on its own, five minutes on 6.12 (a module load fails ~330
# sites from the module loader's last with the default parameters, then
# as many with each of two other sets), beside the rest of the debug set;
# an hour's limit, of which the program has two thirds (insmod 900 s,
# insmod_params 1,500 s: a busy machine takes twice the time).
# slub_debug=A;-,kmemleak_object marks every slab cache but kmemleak's
# own for failslab, and vpmu_fault then turns failslab's cache-filter
# on: kmemleak's metadata, an allocation after each of vpmu's whose
# failure kmemleak absorbs and no vpmu code sees, is no fault point
# (half of every walk's points; vpmu_fault 652 s to 275 s on 6.12).
# debug-6.1 and debug-6.12 run the whole suite under KASAN, lockdep and
# kmemleak, but for two perf-tool scripts on debug-6.1: there a perf
# command costs one to two seconds (its start-up under KASAN and TCG), and
# vpmu_perf_names.sh and vpmu_perf_surface.sh run dozens each (166-183 s
# apiece in a make check, 48 and 49 s alone on debug-6.12 since the
# scripts spare perf list, BPF events and kallsyms) to test what perf
# report, annotate and list make of what vpmu gives (ELF files, sysfs
# names), which no kernel changes: they run under KASAN on debug-6.12 and
# on every stock kernel, 6.1's included.  A
# whole-suite run takes 770-1,150 s of guest time on a busy machine, so
# 2,400 s rather than the set's 900 (a run cut short at the end loses its
# kmemleak scan and fails, as one did at 925 s beside a second make
# check, and debug-6.12 at 1,500 s in December 2026: its programs took
# 1.5 times the run before's, its perf scripts 190-230 s each against
# 60-70 on debug-6.1 in the same make check).
# vpmu_stress_seconds=8: the stress tier's three seeds (each its own
# module parameters) run 8 s each rather than 20 on the stock kernels and
# debug-6.1, where the stress adds a kernel to what every other test
# covers; they run 20 s each where the kernel looks for what stress finds,
# debug-6.12 (KASAN, lockdep, kmemleak, the module reloaded by each seed)
# and kcsan-6.12 (data races).  62 s a run went to 26: 180 s of guest
# time in every make check.
# kcsan-6.12: 6.12 with KCSAN instead of KASAN (debug-kcsan.config), the
# stress tier and the tests where CPUs, interrupts and sysfs readers meet
# (testing.rst, "Data races").
# The fault flavours boot with rcupdate.rcu_expedited=1: a module load that
# fails and every unload wait for RCU grace periods (the module loader's
# clean-up, free_module(), lockdep's removal of the module's keys), and
# expedited ones do not wait for each CPU's next tick (a load refused by
# vpmu_init() went from 1.0 s to 0.46 s on debug-6.12, a load and unload
# from 0.9 to 0.5, ten of each through busybox; vpmu_fault, whose walks
# load the module ~2,100 times, 1,221 s in a make check whose every other
# guest ran 13-33% slower than in the one before, where it took 1,394).
# Not on the whole-suite flavours: there the perf tool pays for them
# (vpmu_perf_stat.sh on debug-6.1 136 s with, 109 s without, one after
# the other on an idle machine).  A grace period is still one: no test
# sees a difference but the time.
#
# series: the kselftest suite as vm-6.12 runs it (460-520 s there), on the
# kernel make series SERIES_CHECK=1 built, which a person may run beside
# other work: twice the stock guests' time.
#
# The order is the order kernels become ready in (vm-check.sh boots a
# kernel's guests as soon as it is; of those ready, the one whose guest
# ran longest last time first, $VPMU_CACHE/vm-times; in this order when
# none has run yet): the flavours of the two stock kernels
# fetched first before those whose kernels take longer to fetch or build
# (6.12-rt, then 7.x and its trixie build root); debug-6.1 before the
# 6.12 runs, because build-debug-kernel.sh builds 6.1 first.  Two guests
# run at a time, each started in this order as one ends: debug-6.1 and the
# long debug-6.12-fault first, then debug-6.12 beside the latter, then
# kcsan-6.12 before the short debug-6.1-fault, which fills the end of the
# lane debug-6.12-fault took (the other way round, kcsan-6.12 started
# last, alone, after debug-6.12-fault had ended: 125 s more by the guest
# times of the make check before).
VM_FLAVOURS='
6.1               vm-6.1            stock  6.1         all        @slub vpmu_stress_seconds=8
6.12              vm-6.12           stock  6.12        kselftest  @slub vpmu_stress_seconds=8
6.12-notc         vm-6.12-notc      stock  6.12        all        @slub vpmu_params=tc=0 vpmu_skip=vpmu_registered,vpmu_load_unload,vpmu_ucode,vpmu_reload_stress,vpmu_unload_busy,vpmu_perf_reload,vpmu_lifetime,vpmu_abi,vpmu_version,vpmu_perf_surface,vpmu_perf_names,vpmu_perf_groups,vpmu_hotplug,vpmu_mem,vpmu_uhist_readers,vpmu_stress,vpmu_fault
6.12-mttcg        vm-6.12-mttcg     stock  6.12        vpmu_lifetime,vpmu_cpu_sampling @slub @tcg=multi
6.1-cpus64        vm-6.1-cpus64     stock  6.1         vpmu_mem,vpmu_registered,vpmu_run,vpmu_snapshot,vpmu_uhist,vpmu_hu,vpmu_hotplug possible_cpus=64 @smp=2,maxcpus=64
6.12-rt           vm-6.12-rt        stock  6.12-rt     all        @slub vpmu_stress_seconds=8
7.x               vm-7.x            stock  7.x         all        @slub vpmu_stress_seconds=8
debug-6.1         debug-6.1         debug  debug-6.1   all        vpmu_skip=vpmu_fault,vpmu_perf_names,vpmu_perf_surface vpmu_stress_seconds=8 @timeout=2400
debug-6.12-fault  debug-6.12-fault  debug  debug-6.12  vpmu_fault rcupdate.rcu_expedited=1 slub_debug=A;-,kmemleak_object @timeout=3600
debug-6.12        debug-6.12        debug  debug-6.12  all        vpmu_skip=vpmu_fault @timeout=2400
kcsan-6.12        kcsan-6.12        debug  debug-6.12-kcsan vpmu_stress,vpmu_reload_stress,vpmu_uhist_readers,vpmu_lifetime,vpmu_cpu_sampling,vpmu_hotplug,vpmu_perf_narrow,vpmu_inherit,vpmu_snapshot,vpmu_unload_busy,vpmu_gate
debug-6.1-fault   debug-6.1-fault   debug  debug-6.1   vpmu_fault rcupdate.rcu_expedited=1 slub_debug=A;-,kmemleak_object @timeout=1500
series            series            series series      kselftest  @slub vpmu_stress_seconds=8 @timeout=1200
'

# flavour_row FLAVOUR - FLAVOUR's row of VM_FLAVOURS (nothing if there is
# none).
flavour_row() {
	local f=$1

	[ "$f" = debug ] && f=debug-6.1
	awk -v f="$f" '$1 == f' <<<"$VM_FLAVOURS"
}

# flavours SET - the flavours of SET (stock or debug), in order, one a
# line.
flavours() {
	awk -v s="$1" '$3 == s { print $1 }' <<<"$VM_FLAVOURS"
}

# flavour_names SET - the names of their runs, in order (a 7.x run's as
# the last prepare_kernel of it found, else vm-7.x).
flavour_names() {
	local f

	for f in $(flavours "$1"); do
		VPMU_RUN_NAME='' flavour_name "$f"
	done
}

# newest_name KVER - "7.3" for 7.3.4+deb13-amd64: the newest kernel's runs
# are named by its version (vm-7.3).
newest_name() {
	local v=${1%%[-+]*}

	echo "${v%.*}"
}

# flavour_name FLAVOUR - the summary-line name of a kernel flavour: the
# table's, or a 7.x kernel's as prepare_kernel found it.
flavour_name() {
	local flavour name kernel

	if [ -n "${VPMU_RUN_NAME:-}" ]; then
		echo "$VPMU_RUN_NAME"
		return
	fi
	read -r flavour name _ kernel _ <<<"$(flavour_row "$1")"
	if [ -z "$flavour" ]; then
		case "$1" in
		debug-*) echo "$1" ;;
		*)	echo "vm-$1" ;;
		esac
	elif [ "$kernel" = 7.x ]; then
		cat "$VM_OUT/$flavour.name" 2>/dev/null || echo "$name"
	elif [ "$kernel" = series ]; then
		echo "series-${VPMU_SERIES_KVER:-}"
	else
		echo "$name"
	fi
}
