#!/bin/sh
# Runs last in a lane on the debug kernel (tools/pmu-vm --kernel debug): asks
# kmemleak for leaks and reads the kernel log for any report of lockdep,
# KASAN, KFENCE, the atomic-context and preemption checks, or any warning,
# BUG or oops, after the suite has exercised armpmu. It first checks that
# the debug features are really on, so that a kernel without them cannot
# pass. Prints TAP; exits 1 if anything failed.
#
#   sh ./debug-checks.sh
#
# POSIX sh: it runs under the guest's busybox.

n=0 failures=0
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
debugfs=/sys/kernel/debug

ok() { # NAME
	n=$((n + 1))
	echo "ok $n - $1"
}
not_ok() { # NAME [DIAGNOSTICS FILE]
	n=$((n + 1))
	failures=$((failures + 1))
	echo "not ok $n - $1"
	[ -z "${2:-}" ] || sed 's/^/# /' "$2"
}
check() { # NAME COMMAND...: ok if COMMAND succeeds; its output is the diagnostic
	name=$1
	shift
	if "$@" >"$tmp/diag" 2>&1; then
		ok "$name"
	else
		not_ok "$name" "$tmp/diag"
	fi
}

# Fails with the matching kernel log lines, each with the lines that follow
# it (a report's detail), for the lines of $tmp/dmesg that match the
# extended regular expression $1.
log_has_none() {
	if grep -E -q "$1" "$tmp/dmesg"; then
		grep -E -A 12 "$1" "$tmp/dmesg" | head -n 80
		echo "(first lines shown; all of it: dmesg)"
		return 1
	fi
	echo "no line matches: $1"
}

# ---- The debug features are on ----

mounted_debugfs() {
	grep -q " $debugfs debugfs " /proc/mounts && return 0
	mount -t debugfs debugfs "$debugfs"
}
check "debugfs is mounted at $debugfs" mounted_debugfs
dmesg >"$tmp/dmesg"

lockdep_on() {
	[ -r /proc/lockdep ] || { echo "no /proc/lockdep: no lockdep in this kernel"; return 1; }
	# debug_locks drops to 0 when lockdep turns itself off (after its first
	# report, or a KASAN report without kasan_multi_shot): then nothing
	# after that point was checked.
	grep -E 'debug_locks:' /proc/lockdep_stats | grep -E -q ':[[:space:]]+1$' ||
		{ grep -E 'debug_locks:' /proc/lockdep_stats; echo "lockdep has turned itself off"; return 1; }
}
check "lockdep is on and still checking (/proc/lockdep, debug_locks 1)" lockdep_on

kasan_on() {
	grep -E 'KernelAddressSanitizer initialized' "$tmp/dmesg" ||
		{ echo "no 'KernelAddressSanitizer initialized' in the log"; return 1; }
}
check "KASAN is on (its init line in the kernel log)" kasan_on

kfence_on() {
	grep -E 'kfence: initialized' "$tmp/dmesg" || { echo "no 'kfence: initialized' in the log"; return 1; }
	grep -E -q 'enabled: 1' "$debugfs/kfence/stats" ||
		{ cat "$debugfs/kfence/stats"; echo "KFENCE is not enabled"; return 1; }
}
check "KFENCE is on (init line, $debugfs/kfence/stats)" kfence_on

kmemleak_on() {
	[ -w "$debugfs/kmemleak" ] || { echo "no $debugfs/kmemleak"; return 1; }
	grep -E 'kmemleak: Kernel memory leak detector initialized' "$tmp/dmesg" ||
		{ echo "kmemleak did not say it started"; return 1; }
	! grep -E 'kmemleak: .*(disabled|Cannot allocate)' "$tmp/dmesg"
}
check "kmemleak is on ($debugfs/kmemleak)" kmemleak_on

# ---- kmemleak ----

# kmemleak reports only objects older than about 5 s that two scans found
# unreferenced and unchanged: scan, let the last objects age, scan again.
kmemleak_clean() {
	echo scan >"$debugfs/kmemleak" || { echo "the first scan failed"; return 1; }
	sleep 6
	echo scan >"$debugfs/kmemleak" || { echo "the second scan failed"; return 1; }
	cat "$debugfs/kmemleak" >"$tmp/leaks" || { echo "cannot read the report"; return 1; }
	if [ -s "$tmp/leaks" ]; then
		echo "$(grep -c '^unreferenced object' "$tmp/leaks") suspected leaks:"
		cat "$tmp/leaks"
		return 1
	fi
	echo "no suspected leak"
}
check "kmemleak finds no leak after two scans" kmemleak_clean

# ---- The kernel log, read after the scans (which log what they find) ----

dmesg >"$tmp/dmesg"
check "no lockdep report in the kernel log" log_has_none \
	'possible circular locking|possible recursive locking|inconsistent lock state|possible irq lock inversion|suspicious RCU usage|lock held when returning|lock held at task exit|held lock freed|bad unlock balance|Invalid wait context|trying to register non-static key|DEBUG_LOCKS_WARN_ON|turning off the locking correctness validator|BUG: MAX_LOCK'
check "no sleeping or preemption bug (atomic context, smp_processor_id)" log_has_none \
	'BUG: sleeping function called from invalid context|scheduling while atomic|BUG: using (smp_processor_id|__this_cpu_)|BUG: workqueue leaked lock'
check "no KASAN report" log_has_none 'BUG: KASAN'
check "no KFENCE report" log_has_none 'BUG: KFENCE'
check "no kmemleak report in the kernel log" log_has_none 'kmemleak: .*new suspected memory leaks'
check "no WARNING" log_has_none 'WARNING:'
check "no BUG, oops or call trace" log_has_none 'BUG:|Oops|Internal error|Call trace|Kernel panic'

echo "1..$n"
[ "$failures" -eq 0 ]
