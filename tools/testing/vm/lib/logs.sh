# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# lib/logs.sh - the VM harness's reading of a guest's serial log: the
# kernel lines that fail a run (splats), but for the reports vpmu_fault
# causes on purpose and the kernel's own KCSAN races, and the run's result
# (sourced by ../lib.sh).

# Kernel log lines that fail a run.  Matched only on kernel lines (they
# carry the printk timestamp) so test output cannot trip them, except for
# kmemleak's report which the guest cats from debugfs.
SPLAT_RE='WARNING:|BUG:|kernel BUG at|Oops|general protection|KASAN|UBSAN'
SPLAT_RE+='|possible circular locking|inconsistent lock state|INFO: lockdep'
SPLAT_RE+='|suspicious RCU usage|sleeping function called|soft lockup'
SPLAT_RE+='|detected stalls|RCU stall|hung task|blocked for more than'
SPLAT_RE+='|Call Trace|Kernel panic|double fault|stack-protector'
# SLUB debugging (slub_debug=FZPU) reports as "BUG <cache> (<taint>): <what>"
# (no colon after BUG), then "INFO:"/"FIX <cache>:" lines; the "what"s below
# are listed too in case a kernel changes the header.
SPLAT_RE+='|BUG [^ ]+ \(.*\): |FIX [^ ]+: |Poison overwritten|Redzone overwritten'
SPLAT_RE+='|Object already free|Freepointer corrupt|Slab cache still has objects'
BENIGN_RE='module verification failed: signature and/or required key missing'
BENIGN_RE+='|loading out-of-tree module taints kernel'

# fault_reports LOG - the line numbers of the splat lines of the reports
# that LOG has while vpmu_fault runs and that its injected failures cause
# outside vpmu (testing.rst, "Fault injection"); anywhere else each is a
# splat:
# - warn_alloc()'s allocation-failure reports ("vmalloc error: ..." or
#   "page allocation failure: ...", the task's CPU line, "Hardware name",
#   then the trace): a vmalloc() or a page allocation that fails says so
#   with a stack dump; its "Call Trace" line;
# - remove_proc_entry()'s "name '...'" WARNING from unregister_irq_proc():
#   request_irq() ignores a /proc/irq/N/ file it could not make
#   (register_irq_proc()), and freeing the line warns that the file is
#   not there; its "WARNING:" and "Call Trace" lines.
fault_reports() {
	awk '
		/^VPMU-RUN / { fault = ($2 == "vpmu_fault"); at = pw = 0 }
		/^VPMU-TEST / { fault = 0 }
		!fault { next }
		/(vmalloc error: |page allocation failure: ).*mode:0x/ { at = NR }
		at && /Call Trace/ && NR - at <= 6 { print NR; at = 0 }
		/\] name \x27[^\x27]*\x27$/ { nm = NR }
		nm && /WARNING: .* remove_proc_entry\+/ && NR - nm <= 2 {
			pw = NR; pt = 0
		}
		pw && /Call Trace/ && NR - pw <= 20 { pt = NR }
		pw && pt && /unregister_irq_proc\+/ && NR - pt <= 8 {
			print pw; print pt; pw = 0
		}
		pw && NR - pw > 30 { pw = 0 }
	' "$1"
}

# The kernel's own races whose stacks pass through vpmu only because vpmu
# calls a scheduling point: both racing functions the kernel's, on its
# own per-CPU data.  "A / B", as a KCSAN report names them, either order.
#   rcu_all_qs / rcu_disable_urgency_upon_qs: cond_resched() reads
#   rcu_data.rcu_urgent_qs plainly while RCU's softirq clears it on the
#   same CPU (6.12); vpmu_run_chunks() calls cond_resched() between
#   chunks (CI's kcsan-6.12, vpmu_machine_run+0xc19 in the read's stack).
KCSAN_KERNEL_RACES='rcu_all_qs / rcu_disable_urgency_upon_qs'

# kcsan_foreign LOG - the line numbers of the "BUG: KCSAN:" lines of the
# KCSAN reports in LOG that have no vpmu frame (a function vpmu_* or one
# of the module's, "[vpmu]") in either stack, or that name one of
# KCSAN_KERNEL_RACES: the kernel's own races, which vpmu neither causes
# nor can annotate (testing.rst, "Data races").  A report runs from its
# "BUG: KCSAN:" line to the "=====" line that closes it.
kcsan_foreign() {
	awk -v races="$KCSAN_KERNEL_RACES" '
		BEGIN {
			n = split(races, r, "\n")
			for (i = 1; i <= n; i++) {
				split(r[i], ab, " / ")
				known[ab[1] " / " ab[2]] = 1
				known[ab[2] " / " ab[1]] = 1
			}
		}
		/\] BUG: KCSAN: / {
			at = NR
			pair = $0
			sub(/.*BUG: KCSAN: [a-z-]* in /, "", pair)
			sub(/[ \r]+$/, "", pair)
			ours = !(pair in known) ? 0 : -1
			next
		}
		at && ours >= 0 &&
		/(^|[] ])vpmu_[A-Za-z0-9_.]*\+0x|\[vpmu\]/ { ours = 1 }
		at && /\] =+$/ { if (ours <= 0) print at; at = 0 }
	' "$1"
}

# log_splats LOG - the line numbers of LOG's kernel lines that are splats
# (SPLAT_RE, kmemleak's reports), but for BENIGN_RE, fault_reports and
# kcsan_foreign.
log_splats() {
	{ grep -nE "\[ *[0-9]+\.[0-9]+\].*($SPLAT_RE)" "$1"
	  grep -n 'unreferenced object' "$1"; } |
		grep -vE "$BENIGN_RE" | sort -n -t: -k1,1 | cut -d: -f1 | uniq |
		grep -vxF -f <(fault_reports "$1"; kcsan_foreign "$1") || true
}

# splat_head LOG LN - what the splat at LOG's line LN is, in a line for
# the reasons (CI keeps only a run's end): its kernel line, trimmed, or,
# where that is a bare "Call Trace:", the nearest line above it that says
# what happened (a WARNING, the OOM killer, an allocation failure); its
# printk timestamp dropped.
splat_head() {
	local log=$1 ln=$2 what above
	what=$(sed -n "${ln}p" "$log")
	if [[ $what == *"Call Trace:"* ]]; then
		above=$(sed -n "$((ln > 12 ? ln - 12 : 1)),${ln}p" "$log" |
			grep -E 'WARNING|BUG|invoked oom-killer|allocation failure|vmalloc error|Oops' |
			tail -n 1) || true
		what=${above:-$what}
	fi
	what=$(sed -E 's/^.*\[ *[0-9]+\.[0-9]+\] //' <<<"$what" | tr -d '\r')
	printf 'line %s: %.120s' "$ln" "$what"
}

# analyse_log NAME - decide pass/fail from $OUT/serial.log and $QEMU_RC;
# prints the reasons, then "NAME: N passed, N failed"; returns 1 on failure.
analyse_log() {
	local name=$1 log=$OUT/serial.log res passed=0 failed=0 skipped=0
	local reasons=() splats ln

	res=$(grep -E '^VPMU-RESULT passed=[0-9]+ failed=[0-9]+ skipped=[0-9]+' \
		"$log" | tail -n 1) || true
	if [ -n "$res" ]; then
		passed=$(sed -E 's/.*passed=([0-9]+).*/\1/' <<<"$res")
		failed=$(sed -E 's/.*failed=([0-9]+).*/\1/' <<<"$res")
		skipped=$(sed -E 's/.*skipped=([0-9]+).*/\1/' <<<"$res")
		if [ "$failed" -gt 0 ]; then
			reasons+=("test failures: $failed failed")
			grep -E '^(not ok [0-9]+|VPMU-TEST .* FAIL)' "$log" |
				sed 's/^/  /' >&2 || true
		fi
		if [ -n "${VM_RUN[kmemleak]:-}" ] &&
		   ! grep -q '^VPMU-KMEMLEAK begin' "$log"; then
			reasons+=("kmemleak is not active on the debug kernel")
			failed=$((failed + 1))
		fi
		if ! grep -q '^VPMU-END' "$log"; then
			reasons+=("guest did not shut down after the tests (qemu rc $QEMU_RC)")
			failed=$((failed + 1))
		fi
	else
		failed=$((failed + 1))
		if [ "$QEMU_RC" = 124 ] || [ "$QEMU_RC" = 137 ]; then
			reasons+=("guest timed out (no VPMU-RESULT line)")
		elif grep -q 'Kernel panic' "$log"; then
			reasons+=("guest kernel panicked (no VPMU-RESULT line)")
		else
			reasons+=("guest exited without a VPMU-RESULT line (qemu rc $QEMU_RC; crash?)")
		fi
	fi
	if [ -n "${TOOLS_BUILD_FAILED:-}" ]; then
		reasons+=("make tools failed (see the build output above)")
		failed=$((failed + 1))
	fi
	splats=$(log_splats "$log")
	local foreign
	foreign=$(kcsan_foreign "$log")
	if [ -n "$foreign" ]; then
		log "$name: $(wc -l <<<"$foreign") KCSAN reports without vpmu in them (the kernel's own races), not counted:"
		for ln in $foreign; do
			sed -n "${ln}p" "$log" >&2
		done
	fi
	# The matched lines themselves, for the self-check.
	for ln in $splats; do
		printf '%s:%s\n' "$ln" "$(sed -n "${ln}p" "$log")"
	done >"$OUT/splats"
	if [ -n "$splats" ]; then
		reasons+=("kernel splat in the serial log: $(splat_head "$log" \
			"${splats%%$'\n'*}")")
		failed=$((failed + 1))
		log "$name: offending kernel log lines ($log):"
		# Each offending line with context; overlapping blocks merged,
		# at most 10 blocks.
		local from shown=0 blocks=0
		for ln in $splats; do
			[ "$ln" -le "$shown" ] && continue
			[ $((blocks += 1)) -gt 10 ] && break
			from=$((ln - 3 > shown ? ln - 3 : shown + 1))
			shown=$((ln + 15))
			echo "---- $log:$ln" >&2
			sed -n "${from},${shown}p" "$log" >&2
		done
	fi
	local r
	for r in "${reasons[@]}"; do
		echo "$name: FAIL: $r"
	done
	[ "$skipped" -gt 0 ] && echo "$name: $skipped skipped"
	echo "$name: $passed passed, $failed failed"
	[ ${#reasons[@]} -eq 0 ]
}
