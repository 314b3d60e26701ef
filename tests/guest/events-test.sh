#!/bin/sh
# events-test: a core's own events in a guest (busybox sh, as root, armpmu
# loaded, pmuctl and the examples on PATH): pmuctl list shows them, pmuctl
# stat -e takes them by name and prints another core's as <not supported>, pmuctl explain
# answers for the running core, and the lab exercises of examples/ run.
# QEMU's ARMv8 cores report (PMCEID) only SW_INCR, CPU_CYCLES and, with
# -icount, INST_RETIRED among the common events 0x00-0x3f, and nothing
# about the others: libpmudev leaves the first out and keeps the table's
# 0x40 and up. Its ARMv7 cores report nothing: the table stands. Prints
# TAP; exits 1 if a test failed.
#
#   sh events-test.sh cortex-a7|cortex-a53|cortex-a72 [--icount]
#
# --icount: QEMU counts instructions exactly; the exercises' instruction
# counts are then compared exactly.

cpu=${1:-} icount=''
[ "${2:-}" = --icount ] && icount=1
if [ $# -gt 2 ] || { [ $# = 2 ] && [ -z "$icount" ]; }; then
	echo "usage: events-test.sh CPU [--icount]" >&2
	exit 2
fi

# own: an event of the core's table above the common ones (the A7's and
# A53's IMPLEMENTATION DEFINED ones; the A72 has only the architecture's);
# foreign: another core's own event, which this one lacks; pmceid: the core
# reports its common events; counters: PMCR.N of QEMU's model of the core.
case $cpu in
cortex-a7) core=Cortex-A7 own=PREFETCH_LINEFILL own_nr=0x00c2 foreign=IC_DEP_STALL pmceid='' counters=4 ;;
cortex-a53) core=Cortex-A53 own=PREFETCH_LINEFILL own_nr=0x00c2 foreign=STALL_FRONTEND_CACHE pmceid=1 counters=6 ;;
cortex-a72) core=Cortex-A72 own=L1D_CACHE_RD own_nr=0x0040 foreign=PREFETCH_LINEFILL pmceid=1 counters=6 ;;
*) echo "events-test: unknown CPU '$cpu'" >&2; exit 2 ;;
esac

n=0 failed=0 out=/tmp/events-test.out

# verdict DESCRIPTION STATUS: one TAP line (STATUS 0: ok).
verdict() {
	n=$((n + 1))
	if [ "$2" = 0 ]; then
		echo "ok $n - $1"
	else
		failed=$((failed + 1))
		echo "not ok $n - $1"
		sed -n '1,12s/^/#   /p' "$out"
	fi
}

# runs STATUS PATTERN DESCRIPTION COMMAND...: COMMAND exits with STATUS and
# a line of its output (stdout and stderr) matches the extended regex.
runs() {
	want=$1 pattern=$2 desc=$3
	shift 3
	"$@" >"$out" 2>&1
	got=$?
	[ "$got" = "$want" ] && grep -Eq -- "$pattern" "$out"
	verdict "$desc (exit $got)" $?
}

# lacks PATTERN DESCRIPTION: no line of the last output matches.
lacks() {
	! grep -Eq -- "$1" "$out"
	verdict "$2" $?
}

# count REGION COLUMN: a region's count in the last exercise's table.
count() {
	awk -v r="$1" -v c="$2" '
		$1 == "region" { for (i = 1; i <= NF; i++) if ($i == c) col = i }
		col && $1 ~ ("^" r "[*!]*$") { print $col; exit }' "$out"
}

# ---- pmuctl list: the core's own events; what the core reports ----
runs 0 "^CPU [0-9]+ \\($core\\)" "list names the $core" pmuctl list
grep -Eq "^  $own +$own_nr" "$out"
verdict "list shows the $core's $own ($own_nr)" $?
lacks "^  $foreign " "list leaves out another core's $foreign"
if [ -n "$pmceid" ]; then
	lacks '^  L1D_CACHE_REFILL ' "list leaves out L1D_CACHE_REFILL: the core reports it missing"
else
	grep -Eq '^  L1D_CACHE_REFILL +0x0003' "$out"
	verdict "list keeps L1D_CACHE_REFILL: the ARMv7 core reports nothing" $?
fi

# ---- pmuctl stat -e: by name; another core's, or one the core lacks, not counted ----
# perf's way (pmuctl(1)): such an event's line is <not supported>, the
# others are counted, the exit status is the command's; -v says why.
runs 0 "[0-9] +$own\$" "stat -e $own counts on the $core" pmuctl stat -e "$own" -- true
runs 0 "^ +<not supported> +$foreign\$" \
	"stat -e $foreign (another core's): perf's <not supported> line" \
	pmuctl stat -e "$foreign" -- true
runs 0 "$foreign is an event of the .* not of this core \\($core\\)" \
	"stat -v -e $foreign says why: another core's, naming the $core" \
	pmuctl stat -v -e "$foreign" -- true
if [ -n "$pmceid" ]; then
	runs 0 "L1D_CACHE_REFILL \\(0x03\\) is not implemented by this core \\($core\\)" \
		"stat -v -e L1D_CACHE_REFILL: <not supported>, the core reports it missing" \
		pmuctl stat -v -e L1D_CACHE_REFILL -- true
	grep -Eq '^ +<not supported> +L1D_CACHE_REFILL$' "$out"
	verdict "  and its line is perf's <not supported>" $?
else
	# QEMU models no cache: the event programs and reads 0.
	runs 0 '^ +0 +L1D_CACHE_REFILL$' "stat -e L1D_CACHE_REFILL programs and reads 0 under QEMU" \
		pmuctl stat -e L1D_CACHE_REFILL -- true
fi

# ---- pmuctl explain ----
runs 0 "^Here: CPU [0-9]+ \\($core\\) counts it, as $own \\($own_nr\\)" \
	"explain $own: the $core counts it" pmuctl explain "$own"
grep -q '^This board is emulated (QEMU): this event programs fine and reads 0' "$out"
verdict "explain $own: recognises QEMU, where it reads 0" $?
grep -Eq "^  $core +$own_nr $own" "$out"
verdict "explain $own: the $core among the known cores" $?
runs 0 "^Here: CPU [0-9]+ \\($core\\) does not count it: not in its manual" \
	"explain $foreign: not the $core's" pmuctl explain "$foreign"
if [ -n "$pmceid" ]; then
	runs 0 "does not count it: the core reports it does not implement it" \
		"explain L1D_CACHE_REFILL: the $core reports it missing" pmuctl explain L1D_CACHE_REFILL
else
	runs 0 "^Here: CPU [0-9]+ \\($core\\) counts it, as L1D_CACHE_REFILL" \
		"explain L1D_CACHE_REFILL: the $core's table has it" pmuctl explain L1D_CACHE_REFILL
fi
runs 0 'This board is emulated \(QEMU\): it counts this event' \
	"explain cycles: QEMU counts it" pmuctl explain cycles
runs 1 "unknown event '${own}X'; did you mean $own" "explain refuses a typo with the name meant" \
	pmuctl explain "${own}X"

# ---- pmuctl regs: the registers of a CPU, decoded ----
runs 0 '^PMCR +0x41[0-9a-f]{6}  IMP 0x41 \(Arm\) ' "regs decodes PMCR: IMP 0x41 (Arm)" pmuctl regs -C 0
n_regs=$(awk '$1 == "PMCR" { for (i = 1; i < NF; i++) if ($i == "N") print $(i + 1) }' "$out")
rows=$(grep -Ec '^[0-9]+ +0x[0-9a-f]{4} ' "$out")
grep -Eq '^cycles +- +\(cycle counter\) ' "$out"
cycles_row=$?
pmuctl info >"$out" 2>&1
n_info=$(awk '$1 == "0" { print $5 }' "$out")
echo "# CPU 0: PMCR.N $n_regs, $rows counter rows; pmuctl info: $n_info counters"
[ "$n_regs" = "$counters" ] && [ "$n_info" = "$counters" ] && [ "$rows" = "$counters" ] &&
	[ "$cycles_row" = 0 ]
verdict "regs: PMCR.N, pmuctl info and the table agree: $counters counters and the cycle counter" $?
runs 0 '^PMUSERENR +0x00000000  EN 0 SW 0 CR 0 ER 0$' "regs: PMUSERENR is 0: user mode may not touch the PMU" \
	pmuctl regs -C 0
cpus=$(grep -c '^processor' /proc/cpuinfo)
pmuctl stat -e "$own" -- true >/dev/null 2>&1
for c in $(seq 0 $((cpus - 1))); do
	runs 0 '^PMCNTENSET +0x00000000  enabled: none$' \
		"regs -C $c: nothing is enabled once pmuctl stat is done" pmuctl regs -C "$c"
done
# A counted program busy on CPU 1: its counters are in that PMU whenever
# it runs there, and regs reads CPU 1 by a cross-call from CPU 0.
if [ "$cpus" -ge 2 ] && command -v taskset >/dev/null; then
	rm -f /tmp/regs-spin.pid
	taskset -c 1 pmuctl stat -e "$own,cycles" -- \
		sh -c 'echo $$ >/tmp/regs-spin.pid; exec spin 4000000000' >/dev/null 2>&1 &
	stat_pid=$!
	seen=1
	for try in 1 2 3 4 5 6 7 8 9 10; do
		sleep 1
		[ -s /tmp/regs-spin.pid ] || continue
		taskset -c 0 pmuctl regs -C 1 >"$out" 2>&1
		grep -Eq "^[0-9]+ +$own_nr +$own +.* yes +no +no\$" "$out" &&
			grep -Eq '^cycles .* yes +no +no$' "$out" && seen=0 && break
	done
	[ -s /tmp/regs-spin.pid ] && kill "$(cat /tmp/regs-spin.pid)"
	wait "$stat_pid"
	verdict "regs -C 1 shows the counted spin's $own and cycle counter enabled, no interrupt (look $try)" $seen
	sed 's/^/# /' "$out"
else
	echo "ok $((n += 1)) - regs of a counted program # SKIP one CPU or no taskset"
fi
runs 1 "^pmuctl regs shows every user's counts on CPU 0: it needs root or CAP_PERFMON\$" \
	"regs as lab is refused, saying why" su -s /bin/sh lab -c 'pmuctl regs -C 0'

# ---- the lab exercises ----
# exercise NAME FIRST SECOND: runs, exits 0, both regions counted cycles.
exercise() {
	runs 0 "^$3[*!]* +[0-9]" "$1 runs and prints its two regions" "$1"
	for r in "$2" "$3"; do
		c=$(count "$r" cycles:u)
		[ "${c:-0}" -gt 0 ]
		verdict "$1: region $r counted cycles:u (${c:-none})" $?
	done
}
exercise cache-walk rows columns
exercise branch-predict sorted random
exercise loop-unroll rolled unrolled
if [ -n "$icount" ]; then
	runs 0 '^unrolled' "loop-unroll, counted exactly" loop-unroll
	rolled=$(count rolled instructions:u) unrolled=$(count unrolled instructions:u)
	echo "# loop-unroll: rolled $rolled, unrolled $unrolled instructions:u"
	[ -n "$unrolled" ] && [ "$unrolled" -gt 0 ] && [ "$unrolled" -lt "$rolled" ]
	verdict "loop-unroll: the unrolled loop retires fewer instructions" $?
	runs 0 '^columns' "cache-walk, counted exactly" cache-walk
	rows=$(count rows instructions:u) columns=$(count columns instructions:u)
	echo "# cache-walk: rows $rows, columns $columns instructions:u"
	[ -n "$rows" ] && [ "$rows" -gt 0 ] && [ "$rows" = "$columns" ]
	verdict "cache-walk: both walks retire the same instructions" $?
	runs 0 '^random' "branch-predict, counted exactly" branch-predict
	sorted=$(count sorted instructions:u) random=$(count random instructions:u)
	echo "# branch-predict: sorted $sorted, random $random instructions:u"
	[ -n "$sorted" ] && [ "$sorted" -gt 0 ] && [ "$sorted" = "$random" ]
	verdict "branch-predict: sorted and random retire the same instructions" $?
	runs 0 '^byte table' "popcount counts itself with raw ioctls, unbound" popcount
	every=$(awk '$1 == "every" { print $4 }' "$out")
	lowest=$(awk '$1 == "clear" { print $4 }' "$out")
	[ -n "$lowest" ] && [ "$lowest" -gt 0 ] && [ "$lowest" -lt "$every" ]
	verdict "popcount: clearing the lowest set bit retires fewer instructions ($lowest) than testing every bit ($every)" $?
	# Kernel mode, where counting ends at an exit: pmuctl's count of
	# true(1) within 1% of perf's counter opened as perf stat opens it
	# (perf-count -k), or of that counter's spread if wider; the least
	# of 3 runs each, after one that warms the page cache (a tick in a
	# run adds thousands). pmuctl-test checks it on 6.12 (deb-icount).
	# About 3.5 s of the lane (host time; the guest's clock is icount's).
	if [ "$(uname -m)" = aarch64 ]; then
		: >/tmp/perf.k
		: >/tmp/pmuctl.k
		for i in 0 1 2 3; do
			perf-count -k -o /tmp/perf.one /bin/true >/dev/null || echo 0 >/tmp/perf.one
			pmuctl stat -x, -e instructions:k -o /tmp/pmuctl.one -- /bin/true >/dev/null
			[ "$i" = 0 ] && continue
			cat /tmp/perf.one >>/tmp/perf.k
			grep -E '^[0-9]' /tmp/pmuctl.one | cut -d, -f1 >>/tmp/pmuctl.k
		done
		p=$(sort -n /tmp/perf.k | head -n 1) k=$(sort -n /tmp/pmuctl.k | head -n 1)
		spread=$(($(sort -n /tmp/perf.k | tail -n 1) - p))
		d=$((${k:-0} > p ? ${k:-0} - p : p - ${k:-0}))
		[ "$p" -gt 0 ] && { [ $((d * 100)) -le "$p" ] || [ "$d" -le "$spread" ]; }
		verdict "true(1)'s instructions:k within 1% of perf's counter, or its spread (pmuctl ${k:-none}, perf $p, spread $spread)" $?
	fi
elif [ -n "$pmceid" ]; then
	runs 0 'not counted: INST_RETIRED \(0x08\) is not implemented' \
		"loop-unroll leaves out instructions, which this board does not count" loop-unroll
fi
runs 0 '^columns' "cache-walk takes events by name" cache-walk cycles:u "$own:u"
runs 1 "$foreign is an event of the" "an exercise refuses another core's event" \
	cache-walk "$foreign"

echo "1..$n"
echo "# $n tests, $failed failed"
[ "$failed" = 0 ]
