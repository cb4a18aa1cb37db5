# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib/guest.sh - one run of the VM harness: a flavour's kernel and module
# prepared (prepare_kernel), its guest booted under QEMU (run_kernel,
# run_guest), its result reported whatever happens (check_kernel), and
# the self-check's runs with a failure injected (sourced by ../lib.sh).

# The record of one run, which prepare_kernel fills in for run_kernel,
# build_initrd, run_guest and analyse_log:
#
#   flavour name       the table's
#   kver kdesc         the kernel's version, and with its origin
#   vmlinuz kdir       the kernel and the tree modules build against
#   module             vpmu.ko, or empty: built in
#   cmdline            the guest's kernel command line words
#   timeout mem smp tcg   host timeout (s), guest memory, -smp, TCG threads
#   kmemleak           1: kmemleak must be active (the debug kernels)
#   ksft               the kselftest install of build_ksft_tree, if any
#   selftests          a directory of more selftests for the guest, if any
#   initrd             the initramfs build_initrd made
declare -gA VM_RUN=()

# run_guest MODE [CMDLINE...] - boot the run VM_RUN describes (its kernel,
# initramfs, memory, CPUs, TCG threads, under its timeout); serial output
# goes to $OUT/serial.log, and the seconds QEMU ran (from its slot on,
# not the wait for one) to $OUT/guest-seconds.  MODE "shell" keeps stdio
# interactive; other modes echo the guest's part of the log.  Sets
# QEMU_RC.
# shellcheck disable=SC2034 # QEMU_RC: analyse_log's (logs.sh)
run_guest() {
	local mode=$1 name=${VM_RUN[name]} tmo=${VM_RUN[timeout]} append t0
	shift

	append="console=ttyS0 printk.time=1 loglevel=5 softlockup_panic=1"
	append+=" panic=-1 vpmu_mode=$mode"
	# A TCG guest on a loaded host can miss the timer interrupts the
	# kernel's IO-APIC check waits for and panic with "IO-APIC + timer
	# doesn't work" before init runs (seen on 6.1 with four guests on
	# two cores).  no_timer_check makes the kernel trust the IO-APIC
	# timer route, which QEMU's i440fx always wires.
	append+=" no_timer_check"
	# perf's enabled and running times come from local_clock().  QEMU's
	# default CPU is an AMD without an invariant TSC, so with two CPUs the
	# kernel calls the TSC unsynchronised and sched_clock unstable, and
	# 6.1 then clamps local_clock() to the tick: an event whose whole life
	# fits in one jiffy reads enabled = running = 0, and a per-task event
	# that never got a counter can read as "fully on the counters" (seen
	# as rare stress failures on loaded hosts).  TCG's TSC is the host's
	# clock, the same on every vCPU: tsc=reliable is true here.
	append+=" tsc=reliable $*"
	# Extra kernel command line (slub_debug=FZPU, vpmu_stress_seed=N).
	[ -n "${VPMU_APPEND:-}" ] && append+=" $VPMU_APPEND"
	# shellcheck disable=SC2054 # commas are QEMU's, not array separators
	local qemu=(timeout -k 10 "$tmo" qemu-system-x86_64
		-accel "tcg,thread=${VM_RUN[tcg]}"
		-smp "${VM_RUN[smp]}" -m "${VM_RUN[mem]}"
		-nographic -no-reboot -nic none
		-kernel "${VM_RUN[vmlinuz]}" -initrd "${VM_RUN[initrd]}"
		-append "$append")
	if [ "$mode" = shell ]; then
		log "booting $name (timeout ${tmo}s, log: $OUT/serial.log)"
		set +e
		"${qemu[0]}" --foreground "${qemu[@]:1}"
		QEMU_RC=$?
		set -e
		return 0
	fi
	rm -f "$OUT/guest-seconds"
	guest_slot_take "$name"
	t0=$SECONDS
	# A guest holding a slot runs at the default priority, whatever
	# started it: the tiers check.sh runs beside others run at nice 19,
	# and a guest starved by the other tier's builds would miss its
	# timeouts.  (As root; otherwise nice says it cannot and goes on.)
	if [ "$(nice)" -gt 0 ]; then
		qemu=(nice -n "-$(nice)" "${qemu[@]}")
	fi
	log "booting $name (timeout ${tmo}s, log: $OUT/serial.log)"
	set +e
	"${qemu[@]}" </dev/null 2>&1 | tr -d '\r' | tee "$OUT/serial.log" |
		if [ -n "${VPMU_VERBOSE:-}" ]; then cat; else
			sed -n '/^VPMU-BEGIN/,$p'; fi
	QEMU_RC=${PIPESTATUS[0]}
	set -e
	exec {GUEST_SLOT}>&-
	echo "$((SECONDS - t0))" >"$OUT/guest-seconds"
}

# guest_slot_take NAME - wait for one of the machine's guest slots and
# hold it (on the descriptor GUEST_SLOT, which run_guest closes when the
# guest ends): VPMU_GUEST_SLOTS guests at most (default: one per CPU,
# TCG running each on one host thread) boot at once on this machine,
# whatever starts them: the vm and debug tiers' runs, the pkg tier's
# boots and the self-checks beside them (check.sh), a second make check
# in another work tree.  A slot is a lock file in $CACHE/guest-slots;
# the guest's timeout starts once it has one.  An interactive shell
# (vm-run.sh --shell) takes none.
guest_slot_take() {
	local n=${VPMU_GUEST_SLOTS:-$(nproc)} dir=$CACHE/guest-slots s said=

	mkdir -p "$dir"
	while :; do
		for ((s = 0; s < n; s++)); do
			exec {GUEST_SLOT}>"$dir/slot.$s"
			flock -n "$GUEST_SLOT" && return 0
			exec {GUEST_SLOT}>&-
		done
		if [ -z "$said" ]; then
			log "$1: waiting for one of $n guest slots"
			said=1
		fi
		sleep 1
	done
}

# Kernel command line of the stock kernels: SLUB's consistency checks (F),
# red zones (Z), poisoning (P) and alloc/free tracking (U) on every cache,
# so a use after free or overflow the driver causes is reported ("BUG
# <cache> (...): Poison overwritten") even without KASAN.  The benchmarks
# and the demo turn it off (VPMU_SLUB_DEBUG=): it slows every allocation.
stock_cmdline() {
	local flags=${VPMU_SLUB_DEBUG-FZPU}

	[ -n "$flags" ] && echo "slub_debug=$flags"
	return 0
}

# prepare_kernel FLAVOUR - fetch or build FLAVOUR's kernel (its row of
# VM_FLAVOURS) and build its module; fills in VM_RUN, the run's record
# (above), and sets OUT, its output directory.
# shellcheck disable=SC2034 # IMG_PKG: kernels.sh's, local to a run
prepare_kernel() {
	local row flavour name kernel suite params w cmdline=()
	# What the kernel fetchers and module builders set stays here: the
	# run's record is what callers get.
	local KVER KDIR VMLINUZ KDESC IMG_PKG MODULE_KO KSFT_TREE_INSTALL

	row=$(flavour_row "$1")
	[ -n "$row" ] || die "unknown kernel $1 ($(flavours stock |
		paste -sd' ') $(flavours debug | paste -sd' '))"
	read -r flavour name _ kernel suite params <<<"$row"
	VM_RUN=([flavour]=$flavour [timeout]=${VPMU_VM_TIMEOUT:-600} [mem]=1G
		[smp]=2 [tcg]=${VPMU_TCG_THREAD:-single})
	case "$kernel" in
	7.x)
		resolve_newest
		name=vm-$(newest_name "$KVER")
		echo "$name" >"$VM_OUT/$flavour.name" ;;
	series)
		# make series SERIES_CHECK=1's boot (tools/pkg/series.sh).
		[ -f "${VPMU_SERIES_KERNEL:-}" ] &&
		[ -f "${VPMU_SERIES_KSFT:-}/kselftest-list.txt" ] &&
		[ -n "${VPMU_SERIES_KVER:-}" ] ||
			die "the series flavour boots make series SERIES_CHECK=1's kernel:" \
			    "VPMU_SERIES_KERNEL, VPMU_SERIES_KSFT, VPMU_SERIES_KVER"
		VMLINUZ=$VPMU_SERIES_KERNEL
		KDIR=${VMLINUZ%/arch/x86/boot/bzImage}
		KVER=series-$VPMU_SERIES_KVER
		KDESC="Linux $VPMU_SERIES_KVER with make series' patches, vpmu built in"
		name=$KVER ;;
	debug-*)
		build_debug_kernel "${kernel#debug-}"
		VM_RUN[selftests]=$KDIR/.vpmu-selftests
		VM_RUN[kmemleak]=1
		VM_RUN[timeout]=${VPMU_DEBUG_TIMEOUT:-900}
		VM_RUN[mem]=2G
		if debug_vpmu_builtin; then
			KDESC+=", vpmu built in"
		fi ;;
	*)
		resolve_stock "$kernel"
		fetch_stock_kernel ;;
	esac
	for w in $params; do
		case "$w" in
		@slub)	w=$(stock_cmdline)
			if [ -n "$w" ]; then
				cmdline+=("$w")
			fi ;;
		@smp=*)	VM_RUN[smp]=${w#@smp=} ;;
		@tcg=*)	VM_RUN[tcg]=${w#@tcg=} ;;
		@timeout=*)
			if [ "${w#@timeout=}" -gt "${VM_RUN[timeout]}" ]; then
				VM_RUN[timeout]=${w#@timeout=}
			fi ;;
		@*)	die "VM_FLAVOURS: $flavour: unknown $w" ;;
		*)	cmdline+=("$w") ;;
		esac
	done
	case "$suite" in
	all)	;;
	kselftest)
		if [ "$kernel" = series ]; then
			series_ksft
		else
			build_ksft_tree
		fi
		VM_RUN[ksft]=$KSFT_TREE_INSTALL
		cmdline+=(vpmu_kselftest=1) ;;
	*)	cmdline+=("vpmu_test=$suite") ;;
	esac
	VM_RUN+=([name]=$name [kver]=$KVER [kdir]=$KDIR [vmlinuz]=$VMLINUZ
		 [cmdline]="${cmdline[*]}")
	log "$name: kernel $KDESC${cmdline[*]:+, ${cmdline[*]}}"
	if [ -n "${VPMU_GUEST_ROOT:-}" ]; then
		# An installation's files, the module among them (the pkg
		# tier's packages; build_initrd).
		MODULE_KO=
		log "$name: vpmu installed from $VPMU_GUEST_ROOT, nothing built here"
	elif [ -n "${VPMU_MODULE_KO:-}" ]; then
		# A module built elsewhere (the pkg tier's DKMS build).
		[ -f "$VPMU_MODULE_KO" ] || die "no module $VPMU_MODULE_KO"
		MODULE_KO=$VPMU_MODULE_KO
		log "$name: module $MODULE_KO, not built here"
	elif { [[ "$kernel" == debug-* ]] && debug_vpmu_builtin; } ||
	     [ "$kernel" = series ]; then
		MODULE_KO=
		log "$name: vpmu is built into the kernel: no module"
	elif [ "$kernel" = 7.x ]; then
		build_module_in_root "$name" "$KDIR"
	else
		# One copy and build a kernel: the flavours of one kernel
		# (vm-6.12, vm-6.12-notc, vm-6.12-mttcg) load the same
		# module, with their own parameters.
		build_module "mod-$kernel" "$KDIR"
	fi
	# Self-check runs report under their own name, same kernel and build.
	VM_RUN+=([module]=$MODULE_KO [kdesc]=$KDESC
		 [name]=${VPMU_RUN_NAME:-$name})
	OUT=$VM_OUT/${VM_RUN[name]}
	mkdir -p "$OUT"
	echo "$KDESC" >"$OUT/kernel"
}

# run_kernel FLAVOUR MODE [CMDLINE...] - build everything for one kernel
# and boot it.  $VPMU_EXTRA_MODULE_DIRS names module source dirs to build
# against the same kernel and load after vpmu.ko (selfcheck injectors).
run_kernel() {
	local flavour=$1 mode=$2 d extra=()
	shift 2

	prepare_kernel "$flavour"
	for d in ${VPMU_EXTRA_MODULE_DIRS:-}; do
		extra+=("$(build_extra_module "$d" "$(basename "$d")-${VM_RUN[kver]}" \
			"${VM_RUN[kdir]}")")
	done
	build_initrd "$OUT" "${VM_RUN[module]}" "${extra[@]}"
	# shellcheck disable=SC2086 # the command line is a word list
	# (run_guest adds $VPMU_APPEND)
	run_guest "$mode" "vpmu_test_timeout=$((VM_RUN[timeout] * 2 / 3))" \
		${VM_RUN[cmdline]} "$@"
}

# slowest LOG - ", the longest programs: NAME Ns, ..." from the guest's
# VPMU-TIME lines in LOG (its five longest), or nothing.
slowest() {
	local top

	top=$(awk '/^VPMU-TIME / { print $3 + 0, $2 }' "$1" 2>/dev/null |
		sort -rn | head -n 5 | awk '{ printf "%s%s %ds", (NR > 1 ? ", " : ""), $2, $1 }')
	[ -z "$top" ] || echo ", the longest programs: $top"
}

# check_kernel FLAVOUR [CMDLINE...] - run the suite on one kernel; always
# prints "NAME: N passed, N failed", even when the harness itself broke.
check_kernel() {
	local name rc=0 start stamp

	name=$(flavour_name "$1")
	start=$SECONDS
	stamp=$(date +%s)
	rm -f "$VM_OUT/$name/summary" "$VM_OUT/$name/splats"
	"$VM_DIR/run-kernel.sh" "$@" || rc=1
	# 7.x is named by the version the run found; a summary older than
	# this run is not its result.
	name=$(flavour_name "$1")
	if [ ! -s "$VM_OUT/$name/summary" ] ||
	   [ "$(stat -c %Y "$VM_OUT/$name/summary")" -lt "$stamp" ]; then
		echo "$name: FAIL: harness error before a result (see above)"
		echo "$name: 0 passed, 1 failed"
		rc=1
	fi
	log "$name: took $((SECONDS - start))s$(slowest "$VM_OUT/$name/serial.log")"
	return $rc
}

# selfcheck_inject KERNEL NAME WANT UNWANTED SPLATS ENV... - one run of
# the harness on KERNEL with a failure injected through the ENV words
# (NAME=value: VPMU_APPEND, VPMU_EXTRA_SELFTESTS, VPMU_EXTRA_MODULE_DIRS),
# reported as selfcheck-NAME; WANT must appear in its FAIL lines and
# UNWANTED must not; every |-separated regex of SPLATS (may be empty)
# must match a kernel line the harness flagged.  selfcheck.sh and
# kcsan-selfcheck.sh.
selfcheck_inject() {
	local kernel=$1 name=$2 want=$3 unwanted=$4 splats=$5 out rc=0 re
	shift 5

	out=$VM_OUT/selfcheck-$name.txt
	log "self-check: $name"
	(
		export VPMU_RUN_NAME="selfcheck-$name"
		# shellcheck disable=SC2163 # exports the NAME=value words given
		export "$@"
		check_kernel "$kernel"
	) >"$out" 2>&1 || rc=$?
	sed 's/^/  | /' "$out" | grep -E 'FAIL|passed,|WARNING|not ok' || true
	if [ "$rc" = 0 ]; then
		echo "self-check $name: the run passed; the harness missed it"
		return 1
	fi
	if ! grep -q "^selfcheck-$name: FAIL: $want" "$out"; then
		echo "self-check $name: failed, but not for \"$want\""
		return 1
	fi
	if grep -q "^selfcheck-$name: FAIL: $unwanted" "$out"; then
		echo "self-check $name: also failed for \"$unwanted\""
		return 1
	fi
	local IFS='|'
	for re in $splats; do
		if ! grep -qE "$re" "$VM_OUT/selfcheck-$name/splats"; then
			echo "self-check $name: no flagged kernel line matches \"$re\""
			return 1
		fi
	done
	echo "self-check $name: caught ($want)"
}
