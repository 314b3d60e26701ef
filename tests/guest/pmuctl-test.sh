#!/bin/sh
# pmuctl-test: every pmuctl subcommand, succeeding and failing, in a guest
# (busybox sh, as root, armpmu loaded, pmuctl on PATH). Prints TAP; exits 1
# if a test failed.
#
#   sh pmuctl-test.sh --cpu cortex-a7|cortex-a15|cortex-a53|cortex-a72 [--icount] [--perf [--hotspot]]
#
# --icount: QEMU counts exactly; stat's counts of a known loop are then
# checked to the instruction.
# --perf: Debian's perf is on the board (tools/pmu-vm --perf): pmuctl
# record's files are held against perf report and perf script
# (record-test.sh), and a board without perf fails.
# --hotspot: Hotspot's parser is there too (tools/pmu-vm --hotspot): it
# reads a pmuctl record file (record-test.sh), and a board without it fails.

cpu='' icount='' perf='' hotspot=''
while [ $# -gt 0 ]; do
	case $1 in
	--cpu) cpu=$2; shift 2 ;;
	--icount) icount=1; shift ;;
	--perf) perf=1; shift ;;
	--hotspot) hotspot=1; shift ;;
	*) echo "usage: pmuctl-test.sh --cpu CPU [--icount] [--perf [--hotspot]]" >&2; exit 2 ;;
	esac
done
[ -z "$hotspot" ] || [ -n "$perf" ] || { echo "pmuctl-test: --hotspot needs --perf" >&2; exit 2; }
case $cpu in
# exact: the user instructions exact-loop retires besides its loop (its
# source says why); 32-bit ARM on the armhf boards, AArch64 on the others.
cortex-a7) core=Cortex-A7 counters=4 exact=6 ;;
cortex-a15) core=Cortex-A15 counters=6 exact=6 ;;
cortex-a53) core=Cortex-A53 counters=6 exact=7 ;;
cortex-a72) core=Cortex-A72 counters=6 exact=7 ;;
*) echo "pmuctl-test: unknown CPU '$cpu'" >&2; exit 2 ;;
esac

n=0 failed=0 out=/tmp/pmuctl-test.out
ncpus=$(nproc)

# expect STATUS PATTERN DESCRIPTION COMMAND...: COMMAND exits with STATUS
# and its output (stdout and stderr) matches the extended regex PATTERN.
expect() {
	want=$1 pattern=$2 desc=$3
	shift 3
	"$@" >"$out" 2>&1
	got=$?
	n=$((n + 1))
	if [ "$got" = "$want" ] && grep -Eq -- "$pattern" "$out"; then
		echo "ok $n - $desc"
	else
		failed=$((failed + 1))
		echo "not ok $n - $desc"
		echo "# exit status $got (expected $want), output (expected /$pattern/):"
		head -n 15 "$out" | sed 's/^/#   /'
	fi
}

# check DESCRIPTION TEST...: a plain test.
check() {
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc"
	else
		failed=$((failed + 1))
		echo "not ok $n - $desc"
	fi
}

# skip DESCRIPTION REASON: a test that cannot be judged here, and why.
skip() {
	n=$((n + 1))
	echo "ok $n - $1 # SKIP $2"
}

# absent PATTERN FILE: no line of FILE matches the extended regex.
absent() { ! grep -Eq -- "$1" "$2"; }

as_lab() { su -s /bin/sh lab -c "$*"; }
as_guest() { su -s /bin/sh guest -c "$*"; }

# udev gives the node to the group (60-armpmu.rules), also after a reload.
expect_udev_node() {
	udevadm settle --timeout=10
	expect 0 '^root:armpmu 660$' "$1" stat -c '%U:%G %a' /dev/armpmu
}
expect_udev_node "udev made /dev/armpmu root:armpmu 0660"

# ---- help and usage ----
expect 0 'stat' "pmuctl --help lists the subcommands" pmuctl --help
expect 0 '^pmuctl [0-9]' "pmuctl --version" pmuctl --version
for sub in load unload status info list stat reset; do
	expect 0 "Usage: pmuctl $sub" "pmuctl $sub --help" pmuctl $sub --help
done
expect 2 "unknown subcommand 'frobnicate'" "an unknown subcommand is a usage error" pmuctl frobnicate
expect 2 'no command to run; without one perf counts the whole system until Ctrl-C, which needs CAP_PERFMON' \
	"lab: stat without a command: what perf would do, and what lab can do instead" as_lab pmuctl stat
check "  a command, or lab's own processes" grep -q 'pmuctl stat -p PID' "$out"
expect 2 "-r needs a count" "stat -r 0 is a usage error" pmuctl stat -r 0 -- true
expect 2 "no CPU '99'" "stat -C 99 is a usage error" pmuctl stat -C 99 -- true
expect 2 'one at a time' "stat -C 0 -a is a usage error" pmuctl stat -C 0 -a -- true
expect 2 "needs a process ID, not '0'" "stat -p 0 is a usage error" pmuctl stat -p 0
expect 2 '-r repeats a command that says how long' "stat -p with -r but no command is a usage error" \
	pmuctl stat -r 2 -p 1
# One message for a missing argument or an unknown option (not getopt's
# and then "unknown option" too).
expect 2 "^pmuctl stat: option -e needs an argument$" "stat -e without its argument: one message" \
	pmuctl stat -e
check "  getopt's own message is not there too" absent 'requires an argument|unknown option' "$out"
check "  and it is one line, and the hint" [ "$(wc -l <"$out")" = 2 ]
expect 2 "^pmuctl stat: option '--event' needs an argument$" "stat --event without its argument" \
	pmuctl stat --event
expect 2 "^pmuctl reset: option -f needs an argument$" "reset -f without its argument" pmuctl reset -f
expect 2 "^pmuctl list: unknown option -z$" "an unknown option is named" pmuctl list -z
expect 2 "^pmuctl stat: unknown option '--frob'$" "an unknown long option is named" \
	pmuctl stat --frob -- true
expect 2 "^pmuctl stat: option '--json' takes no argument$" "--json=1 is refused, saying why" \
	pmuctl stat --json=1 -- true
expect 2 "-e '': an event name is empty" "stat -e '' is a usage error (not the default events)" \
	pmuctl stat -e '' -- true
expect 2 "-e 'cycles,,instructions': an event name is empty" "stat -e with an empty name between commas" \
	pmuctl stat -e cycles,,instructions -- true

# ---- info, list, status ----
expect 0 "^0 +$core +0x410f" "info names the core from MIDR" pmuctl info
expect 0 " $counters +yes" "info: $counters counters, filtering" pmuctl info
expect 0 'CPU_CYCLES +0x0011' "list shows CPU_CYCLES" pmuctl list
expect 0 "^CPU 0 \\($core\\)" "list -C 0 names the CPU and its core" pmuctl list -C 0
expect 2 "no CPU '99'" "list -C 99 is a usage error" pmuctl list -C 99
if [ "$counters" = 4 ] || [ "$cpu" = cortex-a15 ]; then
	expect 0 "architecture's common events" "list says the ARMv7 core cannot tell" pmuctl list
else
	expect 0 'the common events it implements' "list gives what the ARMv8 core implements" pmuctl list
	# The name alone: L1D_CACHE_REFILL_RD (0x42) is listed, QEMU cannot say.
	check "list leaves out what the core does not implement" absent '^  L1D_CACHE_REFILL ' "$out"
fi
expect 0 'armpmu loaded, 0 open files, poll_ms=50' "status: the module and its parameter" pmuctl status
expect 0 'group armpmu, mode 0660' "status: the device's group and mode" pmuctl status
expect 0 '^0 +online +- +clear +none' "status: CPU 0 online, free" pmuctl status

# ---- stat ----
expect 0 '[0-9] +instructions|<not supported> +instructions' \
	"stat counts cycles and instructions by default" pmuctl stat -- true
expect 0 "^ Performance counter stats for 'true' \\(with its threads and children, $core\\):" \
	"stat's header: the command, its threads and children, the core (no CPU)" pmuctl stat -- true
check "  cycles too" grep -Eq '^ +[0-9,]+ +cycles' "$out"
expect 0 'seconds time elapsed' "stat prints the elapsed time" pmuctl stat -- true
expect 0 '^ +[0-9,]+ +cycles:u( +#  +[0-9.]+ GHz)?$' "lab: stat's cycles are user mode only (:u)" as_lab pmuctl stat -- true
expect 1 'did you mean.*instructions' "a typo gets the closest names" pmuctl stat -e instructons -- true
expect 1 'did you mean.*L1D_CACHE_REFILL' "a typoed architectural name too" pmuctl stat -e L1D_CACHE_REFIL -- true
too_many=CPU_CYCLES
i=0
while [ $i -lt "$counters" ]; do
	too_many=$too_many,CPU_CYCLES
	i=$((i + 1))
done
# More events than counters take turns (armpmu(4)): a loop that lasts
# several poll periods (50 ms) loads each set, and each count is scaled,
# with the share of the time it was counted. Under icount 100,000,000
# instructions are 100 ms; without, QEMU runs them in as little as 50 ms,
# so ten times as many.
if [ -n "$icount" ]; then
	long_loop="exact-loop $(seq 499 | tr '\n' ' ')"
else
	long_loop="exact-loop $(seq 4999 | tr '\n' ' ')"
fi
expect 0 '^[0-9]+,,CPU_CYCLES,[0-9]+,[0-9.]+,,$' \
	"$((counters + 1)) events on $counters counters are multiplexed" \
	pmuctl stat -x, -e $too_many -- $long_loop
check "  each a scaled count, counted part of the time (0 < share < 100%)" \
	[ "$(awk -F, '$1 > 0 && $5 > 0 && $5 < 100' "$out" | wc -l)" = $((counters + 1)) ]
expect 0 '^ +[0-9,]+ +CPU_CYCLES +\([0-9][0-9.]*%\)$' \
	"  the table shows perf's share column" pmuctl stat -e $too_many -- $long_loop
expect 1 'group 1: .*a group is counted together or not at all' \
	"a {} group larger than the counters is refused" pmuctl stat -e "{$too_many}" -- true
expect 3 'exited with status 3' "a failing command: counts printed, its status returned" \
	pmuctl stat -e CPU_CYCLES -- sh -c 'exit 3'
check "  and the counts are there" grep -Eq '^ +[0-9,]+ +CPU_CYCLES' "$out"
expect 137 'CPU_CYCLES' "a command killed by SIGKILL: 128 + 9" pmuctl stat -e CPU_CYCLES -- sh -c 'kill -9 $$'
check "  the table names the signal, as a shell does" grep -q 'The command was killed by SIGKILL (Killed)\.' "$out"
expect 143 "^pmuctl stat: sh: killed by SIGTERM \(Terminated\)$" "-x, of a command killed by SIGTERM: the signal named" \
	pmuctl stat -x, -e CPU_CYCLES -- sh -c 'kill -TERM $$'
# A command that cannot be executed: perf's words, a shell's status, and
# no counts (nothing of it ran).
expect 127 "^pmuctl stat: Workload failed: No such file or directory \('no-such-command'\)$" \
	"a command that does not exist: 127, perf's words" pmuctl stat -- no-such-command
check "  and no counts" absent 'cycles|instructions|elapsed' "$out"
printf 'echo script-ran\nexit 4\n' >/tmp/no-hashbang
chmod 644 /tmp/no-hashbang
expect 126 "^pmuctl stat: Workload failed: Permission denied \('/tmp/no-hashbang'\)$" \
	"lab: a file that is not executable: 126, perf's words" as_lab pmuctl stat -- /tmp/no-hashbang
check "  and no counts" absent 'cycles|instructions|elapsed' "$out"
expect 126 "Workload failed: Permission denied \('/tmp'\)" \
	"a directory: the exec fails in the child: 126" pmuctl stat -x, -- /tmp
check "  and no counts" absent 'cycles|instructions' "$out"
chmod 755 /tmp/no-hashbang
expect 4 '^script-ran$' "lab: a script without #! runs through /bin/sh, as execvp does" \
	as_lab pmuctl stat -e cycles -- /tmp/no-hashbang
check "  and is counted, its status returned" grep -Eq '^ +[0-9,]+ +cycles:u$' "$out"
# perf stat's fields: value, unit, event, [variance,] ns counted, % counted,
# metric value, metric unit.
expect 0 '^[0-9]+;;CPU_CYCLES;[0-9]+;100\.00;;$' "-x';' prints perf stat's 7 fields" \
	pmuctl stat -x';' -e CPU_CYCLES -- true
expect 0 '^[0-9]+,,cycles,[0-9]+\.[0-9][0-9]%,[0-9]+,100\.00,,$' \
	"-x, with -r 3 adds perf's variance field: 8" pmuctl stat -x, -r 3 -e cycles -- true
expect 0 '^\{"counter-value" : "[0-9]+\.000000", "unit" : "", "event" : "cycles", "event-runtime" : [0-9]+, "pcnt-running" : 100\.00, "metric-value" : 0\.000000, "metric-unit" : ""\}$' \
	"--json prints perf stat -j's object" pmuctl stat --json -e cycles -- true
expect 0 '\(3 runs, with its threads' "-r 3: the table says 3 runs" pmuctl stat -r 3 -- true
check "  and gives each count's relative standard deviation" grep -Eq '\( \+- +[0-9.]+% \)$' "$out"
# Counting starts at the command's exec (ENABLE_ON_EXEC): nothing of
# pmuctl's is counted, so nothing is calibrated or taken off.
expect 0 'seconds time elapsed' "stat counts from the command's exec" pmuctl stat -e CPU_CYCLES -- true
check "  nothing is taken off, and no note says so" absent 'Taken off|calibrat|empty runs' "$out"
expect 0 '^ +[0-9,]+ +CPU_CYCLES$' "--no-calibrate is still accepted (it does nothing now)" \
	pmuctl stat --no-calibrate -e CPU_CYCLES -- true
pmuctl stat -o /tmp/counts -- true >"$out" 2>&1
status=$?
check "-o writes the counts to a file, nothing to the terminal" test $status = 0 -a ! -s "$out"
check "  and the file has them" grep -q 'seconds time elapsed' /tmp/counts
# ---- perf's options (issue 20) ----
# perf's default software lines, from the command's resource usage.
expect 0 '^ +[0-9]+\.[0-9]{2} msec task-clock +#  +[0-9]+\.[0-9]{3} CPUs utilized$' \
	"stat's default: perf's task-clock line, CPUs utilized" pmuctl stat -- true
check "  context-switches, with a rate" grep -Eq '^ +[0-9]+ +context-switches +#  +[0-9.]+ [KM]?/sec$' "$out"
check "  page-faults, with a rate" grep -Eq '^ +[0-9]+ +page-faults +#  +[0-9.]+ [KM]?/sec$' "$out"
check "  cpu-migrations, from the driver, with a rate" \
	grep -Eq '^ +[0-9]+ +cpu-migrations +#  +[0-9.]+ [KM]?/sec$' "$out"
check "  the software lines in perf's order" sh -c "grep -Eo 'task-clock|context-switches|cpu-migrations|page-faults' '$out' | tr '\n' ' ' | grep -qx 'task-clock context-switches cpu-migrations page-faults '"
check "  seconds user and seconds sys, as perf prints them" \
	grep -Eq '^ +[0-9]+\.[0-9]{9} seconds sys$' "$out"
tc=$(awk '/msec task-clock/ { print $1 }' "$out")
el=$(awk '/seconds time elapsed/ { print $1 }' "$out")
check "  task-clock ($tc ms) within the time elapsed ($el s)" awk "BEGIN { exit !($tc > 0 && $tc / 1000 <= $el) }"
expect 0 '^[0-9]+\.[0-9]{2},msec,task-clock,[0-9]+,100\.00,[0-9]+\.[0-9]{3},CPUs utilized$' \
	"-x, -e task-clock,page-faults: perf's fields" pmuctl stat -x, -e task-clock,page-faults -- true
check "  page-faults with its rate" grep -Eq '^[0-9]+,,page-faults,[0-9]+,100\.00,[0-9]+\.[0-9]{3},[KM]?/sec$' "$out"
expect 0 '^[0-9]+,,cpu-migrations,[0-9]+,100\.00,,$' \
	"-x, -e cpu-migrations: the driver's count, perf's fields (no rate without task-clock)" \
	pmuctl stat -x, -e cpu-migrations -- true
expect 2 'no system-wide count of CPU migrations' "-a -e cpu-migrations is refused, not a 0" \
	pmuctl stat -a -e cpu-migrations -- true
expect 0 '^ +[0-9]+\.[0-9]+ \+- [0-9]+\.[0-9]+ seconds time elapsed  \( \+- +[0-9]+\.[0-9]{2}% \)$' \
	"-r 3: perf's +- line for the elapsed time" pmuctl stat -r 3 -- true
check "  and no user/sys lines (perf prints them for one run)" absent 'seconds user' "$out"
# Groups, perf's PMU syntax, refused modifiers.
expect 0 '^ +[0-9,]+ +CPU_CYCLES$' "-e '{cycles,CPU_CYCLES}': a group, counted" \
	pmuctl stat -e '{cycles,CPU_CYCLES}' -- true
expect 1 "group 1: $((counters + 1)) events, $((counters + 1)) of them for event counters, but a $core has $counters" \
	"a group larger than the $counters counters is refused, saying so" \
	pmuctl stat -e "{$too_many}" -- true
expect 0 '^[0-9]+,,cycles:u,' "-e '{cycles,CPU_CYCLES}:u': the group's modifier on each" \
	pmuctl stat -x, -e '{cycles,CPU_CYCLES}:u' -- true
check "  CPU_CYCLES too" grep -Eq '^[0-9]+,,CPU_CYCLES:u,' "$out"
expect 2 "cycles:p: ':p' asks for precise sampling" ":p is refused, saying why" pmuctl stat -e cycles:p -- true
expect 2 "':G' and ':H' count in a KVM guest or host only" ":G is refused, saying why" \
	pmuctl stat -e instructions:G -- true
case $cpu in
cortex-a7) pmu=armv7_cortex_a7 other=armv8_cortex_a72 ;;
cortex-a15) pmu=armv7_cortex_a15 other=armv7_cortex_a7 ;;
cortex-a53) pmu=armv8_cortex_a53 other=armv7_cortex_a7 ;;
cortex-a72) pmu=armv8_cortex_a72 other=armv7_cortex_a7 ;;
esac
expect 0 '^[0-9]+,,cpu/event=0x11/,[0-9]+,100\.00,,$' "-e cpu/event=0x11/: perf's PMU syntax" \
	pmuctl stat -x, -e cpu/event=0x11/ -- true
expect 0 "^[0-9]+,,$pmu/event=0x11/u,[0-9]+,100\\.00,,\$" "-e $pmu/event=0x11/u: the core's own PMU name" \
	pmuctl stat -x, -e "$pmu/event=0x11/u" -- true
expect 1 "$other/event=0x11/: that PMU is a" "-e $other/...: another core's PMU is refused" \
	pmuctl stat -e "$other/event=0x11/" -- true
# --passes: more events than counters, the command run once per set that
# fits (each pass also counting INST_RETIRED, to check they ran alike).
expect 0 "\\(2 passes, with its threads and children, $core\\)" \
	"--passes: $((counters + 1)) events in 2 passes, said in the header" \
	as_lab pmuctl stat --passes -e "$too_many" -- exact-loop
check "  a line for each event, without perf's percentage (each exact in its pass)" \
	[ "$(grep -Ec '^ +[0-9,]+ +CPU_CYCLES:u$' "$out")" = $((counters + 1)) ]
check "  and a note of the passes, and whether they ran alike" \
	grep -Eq '^ Counted in 2 passes of the command, each exact' "$out"
expect 0 '^[0-9]+,,CPU_CYCLES:u,[0-9]+,100\.00,,$' "--passes -x,: perf's fields, counted all of the time" \
	as_lab pmuctl stat --passes -x, -e "$too_many" -- exact-loop
check "  a line for each event, each a number" \
	[ "$(grep -Ec '^[1-9][0-9]*,,CPU_CYCLES:u,[0-9]+,100\.00,,$' "$out")" = $((counters + 1)) ]
expect 0 '^ +[0-9,]+ +CPU_CYCLES$' "--passes with events that fit: one pass, as without" \
	pmuctl stat --passes -e CPU_CYCLES -- true
check "  and no note of passes" absent 'passes' "$out"
expect 2 'not with -p, -t, -C or -a' "--passes -a is refused" pmuctl stat --passes -a -e cycles -- true
expect 2 'no -r, -I or -D' "--passes -r 2 is refused" pmuctl stat --passes -r 2 -e cycles -- true
# -o's header and --append.
pmuctl stat -o /tmp/counts -e cycles -- true >/dev/null 2>&1
check "-o: perf's '# started on' header first" grep -Eq '^# started on [A-Z][a-z]{2} ' /tmp/counts
pmuctl stat -o /tmp/counts --append -e cycles -- true >/dev/null 2>&1
check "  --append: a second header and table after the first" \
	[ "$(grep -c '^# started on' /tmp/counts)" = 2 -a "$(grep -c 'seconds time elapsed' /tmp/counts)" = 2 ]
# -I, -D.
expect 0 '^#           time             counts unit events$' "-I 100: perf's header" \
	pmuctl stat -I 100 -e cycles -- sleep 0.35
# While sleep sleeps its counters are never loaded: <not counted>, as perf.
check "  an interval a line, its time first" \
	[ "$(grep -Ec '^ +[0-9]+\.[0-9]{9} +([0-9,]+|<not counted>) +cycles' "$out")" -ge 3 ]
check "  and no total after them, as perf" absent 'seconds time elapsed' "$out"
expect 0 '^ +[0-9]+\.[0-9]{9},[0-9]+,,cycles,[0-9]+,[0-9]+\.[0-9]{2},,$' "-I 100 -x,: the time as perf's first field" \
	pmuctl stat -I 100 -x, -e cycles -- sleep 0.25
expect 0 '^\{"interval" : [0-9]+\.[0-9]{9}, "counter-value" : "[0-9]+\.[0-9]{6}", ' "-I 100 -j: perf's interval key first" \
	pmuctl stat -I 100 -j -e cycles -- sleep 0.25
# -I's default lines: perf's software lines, each interval's (the driver's
# task-clock, context-switches and cpu-migrations; page-faults from /proc),
# then cycles and instructions.
expect 0 '^ +[0-9]+\.[0-9]{9} +[0-9]+\.[0-9]{2} msec task-clock +#  +[0-9]+\.[0-9]{3} CPUs utilized$' \
	"-I 100 without -e: each interval's task-clock, from the driver, as perf's" \
	pmuctl stat -I 100 -- sh -c 'sleep 0.1; i=0; while [ $i -lt 3000 ]; do i=$((i + 1)); done; sleep 0.1'
for ev in context-switches cpu-migrations page-faults; do
	check "  and its $ev, with a rate" grep -Eq "^ +[0-9]+\.[0-9]{9} +[0-9]+ +$ev +#  +[0-9.]+ [KM]?/sec\$" "$out"
done
check "  the command's execs: at least 10 page faults in all" \
	awk '/ page-faults / { n += $2 } END { exit !(n >= 10) }' "$out"
check "  each interval's task-clock within its time, times the CPUs" \
	awk -v c="$ncpus" '/msec task-clock/ { if ($2 / 1000 > ($1 - last) * c + 0.001) exit 1; last = $1 }' "$out"
check "  the shell's waits: at least 2 context switches in all" \
	awk '/ context-switches / { n += $2 } END { exit !(n >= 2) }' "$out"
# Each interval's page faults from /proc, the whole run's (--summary) from
# the command's resource usage: the same kernel counts, so they add up.
pmuctl stat -I 50 --summary -x, -e page-faults -- \
	sh -c 'sleep 0.1; cat '"$(command -v pmuctl)"' >/dev/null; sleep 0.1; ls / >/dev/null' >"$out" 2>&1
# An interval the command ran in none of is <not counted> (its faults,
# seen after the driver's look, go to the next), as perf's; -x's fifth
# field, the time counted, is the command's time on a CPU in that interval.
parts=$(awk -F, '$1 ~ /^ *[0-9]/ && $4 == "page-faults" { n++; s += $2 } END { print n + 0, s + 0 }' "$out")
whole=$(awk -F, '$1 ~ /^ *summary$/ && $4 == "page-faults" { print $2 }' "$out")
check "-I 50 -e page-faults: ${parts% *} intervals add up to --summary's count exactly (${parts#* }, $whole)" \
	[ "${parts% *}" -ge 3 -a "${parts#* }" = "$whole" -a "${whole:-0}" -gt 0 ]
check "  --summary -x,: its line begins with perf's 16-column \"summary\" field" \
	grep -Eq '^         summary,[0-9]+,,page-faults,[0-9]+,100\.00,,$' "$out"
check "  each interval that counted faults has its time counted, more than 0 ns" \
	awk -F, '$1 ~ /^ *[0-9]/ && $4 == "page-faults" && $2 ~ /^[1-9]/ && $5 + 0 <= 0 { bad = 1 } END { exit bad }' "$out"
expect 0 '^Events enabled$' "-D 100: counting starts after 100 ms, said as perf says it" \
	pmuctl stat -D 100 -e cycles -- sleep 0.3
check "  Events disabled before" grep -q '^Events disabled$' "$out"
check "  and the counts" grep -Eq '^ +[0-9,]+ +cycles$' "$out"
# -C lists, -A, and the command never pinned.
if [ "$ncpus" -gt 1 ]; then
	expect 0 "Cpus_allowed_list:[[:space:]]+0-$((ncpus - 1))\$" "root: -C 1 does not pin the command (as perf)" \
		pmuctl stat -C 1 -e cycles -- grep Cpus_allowed_list /proc/self/status
	expect 0 '\(everything on CPUs 0,1, ' "root: -C 0,1 counts both" pmuctl stat -C 0,1 -e cycles -- true
	expect 0 '\(everything on CPUs 0-1, ' "root: -C 0-1 too" pmuctl stat -C 0-1 -e cycles -- true
	expect 0 '^CPU0 +[0-9,]+ +cycles$' "root: -A -C 0-1: a line per CPU, perf's CPU0 first" \
		pmuctl stat -A -C 0-1 -e cycles -- true
	check "  and CPU1's" grep -Eq '^CPU1 +[0-9,]+ +cycles$' "$out"
	expect 0 '^CPU1,[0-9]+,,cycles,[0-9]+,100\.00,,$' "root: -A -x,: the CPU as perf's first field" \
		pmuctl stat -A -a -x, -e cycles -- true
	expect 0 '^CPU0 +[0-9]+\.[0-9]{2} msec cpu-clock +#  +[0-9]+\.[0-9]{3} CPUs utilized$' \
		"root: -A -a without -e: each CPU's cpu-clock line, as perf's" pmuctl stat -A -a -- sleep 0.2
	check "  CPU1's too" grep -Eq '^CPU1 +[0-9]+\.[0-9]{2} msec cpu-clock ' "$out"
	check "  no system-wide line without a per-CPU source" absent 'context-switches|page-faults' "$out"
fi
# -a's default software lines, as perf's: cpu-clock from the CPU files'
# time, context switches and page faults from the system's totals (/proc).
expect 0 '^ +[0-9]+\.[0-9]{2} msec cpu-clock +#  +[0-9]+\.[0-9]{3} CPUs utilized$' \
	"root: -a: perf's cpu-clock line, CPUs utilized" pmuctl stat -a -- sleep 0.3
check "  context-switches, with a rate of cpu-clock" \
	grep -Eq '^ +[0-9]+ +context-switches +#  +[0-9.]+ [KM]?/sec$' "$out"
check "  page-faults, with a rate" grep -Eq '^ +[0-9]+ +page-faults +#  +[0-9.]+ [KM]?/sec$' "$out"
check "  no task-clock, cpu-migrations or user and sys seconds (as perf -a; no source)" \
	absent 'task-clock|cpu-migrations|seconds user' "$out"
cc=$(awk '/msec cpu-clock/ { print $1 }' "$out")
el=$(awk '/seconds time elapsed/ { print $1 }' "$out")
cs=$(awk '/context-switches/ { print $1 }' "$out")
check "  cpu-clock ($cc ms) is the time elapsed ($el s) on each of $ncpus CPUs, within 20%" \
	awk "BEGIN { t = $el * $ncpus * 1000; exit !($cc >= 0.8 * t && $cc <= 1.2 * t) }"
check "  sleep's own switches at least ($cs)" [ "$cs" -ge 1 ]
expect 0 '^[0-9]+\.[0-9]{2},msec,cpu-clock,[0-9]+,100\.00,[0-9]+\.[0-9]{3},CPUs utilized$' \
	"root: -a -x,: cpu-clock in perf's fields" pmuctl stat -a -x, -- true
# -I: the same lines at every interval, as perf's -a -I.
expect 0 '^ +[0-9]+\.[0-9]{9} +[0-9]+\.[0-9]{2} msec cpu-clock +#  +[0-9]+\.[0-9]{3} CPUs utilized$' \
	"root: -a -I 100: each interval's cpu-clock, as perf's" pmuctl stat -a -I 100 -- sleep 0.25
for ev in context-switches page-faults; do
	check "  and its $ev, the system's, with a rate" \
		grep -Eq "^ +[0-9]+\.[0-9]{9} +[0-9]+ +$ev +#  +[0-9.]+ [KM]?/sec\$" "$out"
done
check "  sleep's switches: at least 1 in all" \
	awk '/ context-switches / { n += $2 } END { exit !(n >= 1) }' "$out"
expect 0 '^ +[0-9]+\.[0-9]{9} +[0-9]+\.[0-9]{2} msec cpu-clock ' "root: -C 0 -I 100: each interval's cpu-clock" \
	pmuctl stat -C 0 -I 100 -- sleep 0.25
expect 0 '^ +[0-9]+\.[0-9]{2} msec cpu-clock ' "root: -C 0: cpu-clock" pmuctl stat -C 0 -- true
check "  alone: /proc keeps no context switches or page faults per CPU" \
	absent 'context-switches|page-faults' "$out"
expect 2 'not per CPU' "-C 0 -e context-switches is refused, saying why" \
	pmuctl stat -C 0 -e context-switches -- true
expect 0 '^ +[0-9]+\.[0-9]{2} msec cpu-clock +#  +[0-9]+\.[0-9]{3} CPUs utilized$' \
	"-e cpu-clock of a command: its time on a CPU, as perf's" pmuctl stat -e cpu-clock -- true
expect 0 '^ +[0-9,]+ +cycles +#  +[0-9]+\.[0-9]{3} GHz$' "cycles: perf's GHz, over task-clock" \
	pmuctl stat -- exact-loop
check "  and with -x, in perf's metric fields" sh -c "pmuctl stat -x, -- exact-loop 2>&1 | grep -Eq '^[0-9]+,,cycles,[0-9]+,100\.00,[0-9]+\.[0-9]{3},GHz\$'"
# -p and -t lists.
spin 300000000 &
s1=$!
spin 300000000 &
s2=$!
expect 0 "^ Performance counter stats for process id '$s1,$s2' \\(its 2 threads and what they started" \
	"-p PID,PID: both processes, until both exit" pmuctl stat -e cycles -p "$s1,$s2"
check "  neither is running after" [ ! -d /proc/$s1 -a ! -d /proc/$s2 ]
spin 300000000 &
s1=$!
expect 0 "^ Performance counter stats for thread id '$s1' \\(the thread and what it started" \
	"-t TID: the thread" pmuctl stat -e cycles -t "$s1"
wait
# A command after -p or -t says how long (perf's way): the targets are
# counted while it runs, not it; -r runs it again, -I prints as it runs.
sh -c 'while :; do :; done' &
s1=$!
expect 0 "^ Performance counter stats for process id '$s1' \\(its thread and what it started" \
	"-p PID -- sleep 0.3: the process, while the command runs" pmuctl stat -e cycles -p "$s1" -- sleep 0.3
check "  its cycles" grep -Eq '^ +[1-9][0-9,]* +cycles$' "$out"
el=$(awk '/seconds time elapsed/ { print $1 }' "$out")
check "  for the command's time ($el s), and the process lives on" \
	awk "BEGIN { exit !($el >= 0.3 && $el < 5) }"
check "  (it is still running)" [ -d /proc/$s1 ]
expect 0 "^ Performance counter stats for thread id '$s1' \\(" "-t TID -- sleep 0.2: the thread" \
	pmuctl stat -e cycles -t "$s1" -- sleep 0.2
expect 0 "^ Performance counter stats for process id '$s1' \\(3 runs, " "-r 3 -p PID -- sleep 0.1: 3 runs" \
	pmuctl stat -r 3 -e cycles -p "$s1" -- sleep 0.1
check "  each count with perf's +-" grep -Eq '^ +[1-9][0-9,]* +cycles +\( \+- +[0-9.]+% \)$' "$out"
expect 0 '^ +[0-9]+\.[0-9]{9} +[1-9][0-9,]* +cycles' "-I 100 -p PID -- sleep 0.35: an interval a line" \
	pmuctl stat -I 100 -e cycles -p "$s1" -- sleep 0.35
check "  at least 3" [ "$(grep -Ec '^ +[0-9]+\.[0-9]{9} +[0-9,]+ +cycles' "$out")" -ge 3 ]
expect 3 'seconds time elapsed' "-p PID -- a command that fails: its status" \
	pmuctl stat -e cycles -p "$s1" -- sh -c 'sleep 0.1; exit 3'
expect 127 'Workload failed' "-p PID -- no-such-command: 127, no counts" \
	pmuctl stat -e cycles -p "$s1" -- no-such-command
kill $s1
wait
spin 300000000 &
s1=$!
expect 0 '^ +[0-9]+\.[0-9]{9} +[0-9,]+ +cycles' "-I 50 -p PID: intervals until the process exits" \
	pmuctl stat -I 50 -e cycles -p "$s1"
wait

expect 1 'counting kernel mode needs CAP_PERFMON' "lab cannot count kernel mode (:k)" \
	as_lab pmuctl stat -e CPU_CYCLES:k -- true
# A set-user-ID program lab runs is not lab's to count: the driver lets
# the thread go at that exec (ARMPMU_COUNTS_EXEC_LEFT), and stat says so
# rather than show what it counted before as the program's count.
cp "$(command -v spin)" /usr/local/bin/suid-spin
chown root:root /usr/local/bin/suid-spin
chmod 4755 /usr/local/bin/suid-spin
expect 0 'Not counted: the command executed a program this user may not count' \
	"lab: a set-user-ID root program is not counted, and the note says why" \
	as_lab pmuctl stat -e cycles -- suid-spin 100000
check "  each count <not counted>" grep -Eq '^ +<not counted> +cycles:u' "$out"
check "  never a number" absent '^ +[0-9,]+ +cycles' "$out"
expect 0 '^<not counted>,,cycles:u,' "lab: -x, of it: <not counted>" \
	as_lab pmuctl stat -x, -e cycles -- suid-spin 100000
check "  and the reason on stderr" grep -q 'not counted: the command executed a program this user may not count' "$out"
expect 0 '^ +[0-9,]+ +cycles$' "root may count the same program: a number" \
	pmuctl stat -e cycles -- suid-spin 100000
rm /usr/local/bin/suid-spin
if [ "$ncpus" -gt 1 ]; then
	expect 0 '\(everything on CPU 1, ' "root: -C 1 counts on CPU 1" pmuctl stat -C 1 -- true
fi
expect 0 "\\(everything on CPU 0, $core\\)" "root: -C 0 counts CPU 0 (CPU mode)" pmuctl stat -C 0 -- true
expect 0 '^[0-9]+,,cycles,[0-9]+,100\.00,,$' "root: -a counts every CPU (-x,)" \
	pmuctl stat -x, -a -e cycles -- true
expect 0 "everything on all $ncpus CPUs" "  and the table says how many" pmuctl stat -a -- true
rule="whole-CPU counting needs CAP_PERFMON or CAP_SYS_ADMIN, or armpmu's cpu_mode_for_all=1"
expect 1 "$rule" "lab: -C 0 is refused, naming the rule" as_lab pmuctl stat -C 0 -- true
expect 1 "$rule" "lab: -a is refused, naming the rule" as_lab pmuctl stat -a -- true

# An event the core does not implement (ARMv8's STALL_FRONTEND: not on
# ARMv7, and QEMU's ARMv8 cores report it missing): perf's <not supported>
# line in its place, the rest counted, status 0.
expect 0 '^ +[0-9,]+ +cycles:u$' "lab: -e cycles,STALL_FRONTEND,CPU_CYCLES: the rest counted" \
	as_lab pmuctl stat -e cycles,STALL_FRONTEND,CPU_CYCLES -- true
check "  <not supported> in its place, with the mode implied, as perf names it" \
	sh -c "grep -Eo '<not supported> +STALL_FRONTEND:u|[0-9] +(cycles|CPU_CYCLES):u' '$out' | sed 's/^[0-9] *//; s/  */ /g' | tr '\n' ' ' | grep -qx 'cycles:u <not supported> STALL_FRONTEND:u CPU_CYCLES:u '"
expect 0 '^<not supported>,,STALL_FRONTEND,0,100\.00,,$' "-x, -e '{CPU_CYCLES,STALL_FRONTEND}': a group without it" \
	pmuctl stat -x, -e '{CPU_CYCLES,STALL_FRONTEND}' -- true
check "  CPU_CYCLES counted" grep -Eq '^[0-9]+,,CPU_CYCLES,[0-9]+,100\.00,,$' "$out"
if [ "$counters" != 4 ]; then
	expect 0 '^ +<not supported> +r10$' "-e r10 (BR_MIS_PRED, which QEMU's $core lacks): a raw number is checked too" \
		pmuctl stat -e cycles,r10 -- true
fi

# No command (issue 28): as perf, the whole system until Ctrl-C.
expect 0 "^ Performance counter stats for 'system wide' \\(everything on all $ncpus CPUs" \
	"root: stat without a command counts the whole system (--timeout 300 ends it)" \
	pmuctl stat --timeout 300 -e cycles
check "  its cycles" grep -Eq '^ +[1-9][0-9,]* +cycles$' "$out"
# (SIGINT before pmuctl takes it would be ignored, as in any background
# job of a script: time to start on a busy machine, and --timeout should
# it be missed all the same.)
pmuctl stat --timeout 30000 -e cycles >"$out" 2>&1 &
stat_pid=$!
sleep 2
kill -INT $stat_pid
wait $stat_pid
status=$?
check "root: stat without a command until SIGINT: 130, as perf (got $status)" [ "$status" = 130 ]
check "  and the counts" grep -Eq '^ +[1-9][0-9,]* +cycles$' "$out"
expect 0 "^ Performance counter stats for 'CPU\\(s\\) 0' \\(everything on CPU 0, " \
	"root: -C 0 without a command: perf's 'CPU(s) 0' header" pmuctl stat -C 0 --timeout 200 -e cycles
expect 0 "^ Performance counter stats for 'system wide' " "root: -a -- true: perf's 'system wide' header" \
	pmuctl stat -a -e cycles -- true
expect 2 '-r repeats a command' "-a -r 2 without a command is refused" pmuctl stat -a -r 2

# ---- perf's further options (issue 28) ----
expect 0 '^ +([0-9,]+|<not supported>|<not counted>) +L1D_CACHE( |$)' "-d: perf's detailed events, by Arm's names" \
	pmuctl stat -d -- true
check "  the last level cache's misses too" grep -Eq ' LL_CACHE_MISS_RD( |$)' "$out"
check "  after the defaults" grep -Eq ' cycles( +#  +[0-9.]+ GHz)?$' "$out"
expect 0 ' L1I_TLB_REFILL( |$)' "-dd: the instruction side and the TLBs too" pmuctl stat -dd -- true
expect 0 '^pmuctl stat: STALL_FRONTEND: <not supported>: ' "-v: why an event is <not supported>" \
	pmuctl stat -v -e cycles,STALL_FRONTEND -- true
pmuctl stat --quiet -e cycles -- true >"$out" 2>&1
status=$?
check "--quiet: nothing printed, status 0" [ $status = 0 -a ! -s "$out" ]
expect 0 '^ +[0-9]{4,} +cycles$' "--no-big-num: no thousands' separators" \
	pmuctl stat --no-big-num -e cycles -- true
expect 0 '^ +[0-9]{1,3}(,[0-9]{3})+ +cycles$' "-B: separators (the default)" pmuctl stat -B -e cycles -- true
expect 0 '^ +[0-9]+\.[0-9]{9} +' "-I 100 --interval-count 2: two intervals" \
	pmuctl stat -I 100 --interval-count 2 -e cycles -- sleep 0.6
check "  exactly" [ "$(grep -Ec '^ +[0-9]+\.[0-9]{9} +' "$out")" = 2 ]
expect 0 "$(printf '\033')\\[H" "--interval-clear: perf's clear screen" \
	pmuctl stat -I 100 --interval-clear -e cycles -- sleep 0.25
expect 0 'seconds time elapsed' "--summary: -I's totals at the end" \
	pmuctl stat -I 100 --summary -e cycles -- sleep 0.25
check "  after the intervals" grep -Eq '^ +[0-9]+\.[0-9]{9} +' "$out"
expect 0 'Stopped by --timeout after 200 ms' "--timeout 200: the command stopped (SIGTERM), status 0" \
	pmuctl stat --timeout 200 -e cycles -- sleep 5
el=$(awk '/seconds time elapsed/ { print $1 }' "$out")
check "  after 0.2 s ($el)" awk "BEGIN { exit !($el >= 0.2 && $el < 3) }"
rm -f /tmp/prepost
expect 0 'seconds time elapsed' "--pre, --post: around each run" \
	pmuctl stat -r 2 --pre 'echo pre >>/tmp/prepost' --post 'echo post >>/tmp/prepost' -e cycles -- true
check "  twice each, in turn" [ "$(tr '\n' ' ' </tmp/prepost)" = 'pre post pre post ' ]
expect 1 "--pre: 'false' exited with status 1" "--pre failing: no run" pmuctl stat --pre false -e cycles -- true
expect 0 '# Table of individual measurements:' "-r 3 --table: each run's time, as perf's" \
	pmuctl stat -r 3 --table -e cycles -- true
check "  3 rows, then perf's final result" sh -c "[ \$(grep -Ec '^ +[0-9.]+ \\([-+][0-9.]+\\) #+\$' '$out') = 3 ] && grep -q '# Final result:' '$out'"
sh -c 'pmuctl stat --log-fd 3 -e cycles -- true 3>/tmp/logfd' >"$out" 2>&1
check "--log-fd 3: nothing on stderr" [ ! -s "$out" ]
check "  the counts on descriptor 3" grep -Eq '^ +[0-9,]+ +cycles$' /tmp/logfd
expect 0 '^[0-9]+,,CPU_CYCLES:u,' "root: --all-user: each event without a modifier in user mode" \
	pmuctl stat --all-user -x, -e cycles,CPU_CYCLES,cpu/event=0x11/ -- true
check "  cycles:u" grep -Eq '^[0-9]+,,cycles:u,' "$out"
check "  and PMU syntax's modifier after the slash" grep -Eq '^[0-9]+,,cpu/event=0x11/u,' "$out"
expect 0 '^[0-9]+,,CPU_CYCLES:k,' "root: --all-kernel: kernel mode" pmuctl stat --all-kernel -x, -e CPU_CYCLES -- true
expect 0 '^[0-9]+,,cycles,' "--no-scale: multiplexed counts unscaled" \
	pmuctl stat --no-scale -x, -e "cycles,$too_many" -- $long_loop
check "  each below the cycle counter's (counted all along), share under 100%" \
	awk -F, '$3 == "cycles" { c = $1 } $3 == "CPU_CYCLES" { n++; if (!($1 < 0.99 * c && $5 < 100)) bad++ } END { exit !(n > 0 && !bad) }' "$out"
expect 0 'seconds time elapsed' "-n: the time alone" pmuctl stat -n -- true
check "  nothing counted" absent 'cycles|instructions|task-clock|Not counted' "$out"
expect 0 'its first thread alone' "-i: the command's first thread alone, not its children" \
	pmuctl stat -i -e cycles:u -- true
pmuctl stat -i -x, -e cycles:u -- sh -c 'spin 30000000; true' >"$out" 2>&1
one=$(cut -d, -f1 "$out" | head -n 1)
pmuctl stat -x, -e cycles:u -- sh -c 'spin 30000000; true' >"$out" 2>&1
all=$(cut -d, -f1 "$out" | head -n 1)
check "  so fewer cycles ($one) than with its child ($all)" [ "$one" -lt $((all / 2)) ]
expect 0 '^S0-D0-C[0-9]+ +1 +[0-9,]+ +cycles$' "root: -a --per-core: perf's S0-D0-Cn prefix" \
	pmuctl stat -a --per-core -e cycles -- true
expect 0 "^S0 +$ncpus +[0-9,]+ +cycles\$" "root: -a --per-socket: the one socket" \
	pmuctl stat -a --per-socket -e cycles -- true
check "  said to be one" grep -q "all $ncpus CPUs counted are in one socket" "$out"
expect 0 "^S0-D0-CLS[0-9]+,$ncpus,[0-9]+,,cycles," "root: -a --per-cluster -x,: perf's fields" \
	pmuctl stat -a --per-cluster -x, -e cycles -- true
check "  one cluster, said" grep -q "in one cluster" "$out"
expect 2 'no cgroup filter' "-G is refused, saying why" pmuctl stat -G foo -- true
expect 1 "made for the Cortex-A76.*a $core's pipeline is not the N1's.*STALL_SLOT" \
	"--topdown on a $core: refused, saying why" pmuctl stat --topdown -- true
expect 2 'level 1 alone' "--td-level 2 is refused" pmuctl stat --td-level 2 -- true
expect 0 '^  frontend bound  = STALL_FRONTEND / CPU_CYCLES$' "explain topdown: the formulas" pmuctl explain topdown
check "  and their source" grep -q 'Neoverse N1 Core: Performance Analysis Methodology' "$out"
pmuctl stat -x, -M ipc -- true 2>&1 | cut -d, -f3 >/tmp/ipc.events
pmuctl stat -x, -M Default -- true 2>&1 | cut -d, -f3 | sed 's/-M Default:/-M ipc:/' >/tmp/default.events
check "-M Default: perf's name, -M ipc's events (or its refusal, naming Default)" \
	sh -c '[ -s /tmp/ipc.events ] && cmp -s /tmp/ipc.events /tmp/default.events'
expect 2 'no --control' "-D -1 is refused, saying why" pmuctl stat -D -1 -- true

# ---- metrics and -M groups ----
expect 0 '^  ipc +instructions per cycle' "stat -M list lists the metric groups" pmuctl stat -M list
expect 0 '^  cache +' "stat --help lists them too" pmuctl stat --help
expect 2 "no metric group 'nope'" "an unknown group is a usage error" pmuctl stat -M nope -- true
expect 1 "-M stall: this $core does not implement STALL_FRONTEND, STALL_BACKEND" \
	"-M stall is refused, naming the core and the events it lacks" pmuctl stat -M stall -- true
if [ "$counters" = 4 ]; then
	expect 0 '^ +(<not counted>|[0-9,]+) +L2D_CACHE_REFILL(:[uk])?( +#.*)?( +\([0-9.]+%\))?$' \
		"-M cache, too large for $counters counters, is multiplexed" pmuctl stat -M cache -- true
	expect 0 '#  +[0-9]+\.[0-9]{4}  refills per L1D access$' "-M l1d prints refills per access" \
		pmuctl stat -M l1d -- true
	check "  and per 1000 instructions" grep -Eq '#  +[0-9]+\.[0-9]{2}  L1D refills per 1000 insns$' "$out"
	expect 0 '' "-M l1d -x,: perf's fields" pmuctl stat -x, -M l1d -- true
	check "  every line with 7 fields" [ "$(awk -F, 'NF != 7' "$out" | wc -l)" = 0 ]
	check "  the metrics in perf's metric columns" \
		grep -Eq '^,,,,,[0-9]+\.[0-9]{2},L1D refills per 1000 insns$' "$out"
else
	expect 1 "-M cache: this $core does not implement .*L1D_CACHE" \
		"-M cache: QEMU's $core reports no L1D_CACHE (PMCEID0): refused" pmuctl stat -M cache -- true
fi
if pmuctl list | grep -q '^  INST_RETIRED '; then
	expect 0 '^ +[0-9,]+ +INST_RETIRED:u +#  +[0-9]+\.[0-9][0-9]  insn per cycle$' \
		"lab: -M ipc prints IPC after '#' on the instructions line" as_lab pmuctl stat -M ipc -- exact-loop
	expect 0 '^[0-9]+,,INST_RETIRED:u,[0-9]+,100\.00,[0-9]+\.[0-9][0-9],insn per cycle$' \
		"lab: -M ipc -x,: IPC in perf's metric columns" as_lab pmuctl stat -x, -M ipc -- exact-loop
	check "  every line with 7 fields" [ "$(awk -F, 'NF != 7' "$out" | wc -l)" = 0 ]
	expect 0 '^\{"counter-value" : "[0-9]+\.000000", "unit" : "", "event" : "INST_RETIRED:u", "event-runtime" : [0-9]+, "pcnt-running" : 100\.00, "metric-value" : [0-9]+\.[0-9]{6}, "metric-unit" : "insn per cycle"\}$' \
		"lab: -M ipc --json: IPC as perf's metric-value and metric-unit" \
		as_lab pmuctl stat --json -M ipc -- exact-loop
	check "  every line one object of perf's keys" \
		[ "$(grep -Evc '^\{"counter-value" : .*"metric-unit" : "[^"]*"\}$' "$out")" = 0 ]
	expect 0 '^ +[0-9,]+ +INST_RETIRED +#' \
		"-M ipc with -e beyond the $counters counters: multiplexed, the metric still shown" \
		pmuctl stat -e "$too_many" -M ipc -- $long_loop
	# A metric only from counts of the same modifiers (perf's rule).
	expect 0 '^ +[0-9,]+ +r08:k$' "root: -e cycles:u,INST_RETIRED:k,r08,r08:k: no IPC across modes" \
		pmuctl stat -e cycles:u,INST_RETIRED:k,r08,r08:k -- true
	check "  on none of them" absent 'insn per cycle' "$out"
	expect 0 '^ +[0-9,]+ +INST_RETIRED:k +#  +[0-9]+\.[0-9][0-9]  insn per cycle$' \
		"root: -e cycles:k,INST_RETIRED:k,r08: IPC of the same mode" pmuctl stat -e cycles:k,INST_RETIRED:k,r08 -- true
	check "  not on r08 (both modes)" grep -Eq '^ +[0-9,]+ +r08$' "$out"
	expect 0 '^ +insn per cycle $' "lab: --metric-only -M ipc: the metric's unit as the header" \
		as_lab pmuctl stat --metric-only -M ipc -- exact-loop
	check "  its value below" grep -Eq '^ +[0-9]+\.[0-9]{2} $' "$out"
	check "  and no count lines" absent 'INST_RETIRED' "$out"
	if [ -n "$icount" ]; then
		# Under icount a cycle is an instruction: user-only, IPC is exactly 1.
		expect 0 '#  +1\.00  insn per cycle$' "icount: -M ipc:u of exact-loop is exactly 1.00" \
			pmuctl stat -M ipc:u -- exact-loop
		expect 0 ',INST_RETIRED:u,[0-9]+,100\.00,1\.00,insn per cycle$' "  and so in -x," \
			pmuctl stat -x, -M ipc:u -- exact-loop
		expect 0 '"metric-value" : 1\.000000, "metric-unit" : "insn per cycle"' "  and in --json" \
			pmuctl stat --json -M ipc:u -- exact-loop
	fi
else
	expect 1 "-M ipc: this $core does not implement INST_RETIRED" \
		"-M ipc without INST_RETIRED (QEMU without icount) is refused" pmuctl stat -M ipc -- true
	expect 1 "-M Default: this $core does not implement INST_RETIRED" \
		"  and -M Default, by the name typed" pmuctl stat -M Default -- true
	expect 0 '^<not supported>,,instructions,0,100\.00,,$' \
		"the default instructions: perf's <not supported> line in -x," pmuctl stat -x, -- true
	expect 0 '^<not supported>,,instructions,0,100\.00,,$' \
		"-e cycles,instructions where the core lacks INST_RETIRED: perf's <not supported>, cycles counted" \
		pmuctl stat -x, -e cycles,instructions -- true
	check "  cycles counted" grep -Eq '^[0-9]+,,cycles,' "$out"
fi

# ---- -p PID ----
# pid_of FILE: the process ID a lab shell wrote to FILE, once it has.
pid_of() {
	while [ ! -s "$1" ]; do sleep 0.1; done
	cat "$1"
}
rm -f /tmp/spin.pid
as_lab 'echo $$ >/tmp/spin.pid; exec spin 300000000' &
spinner=$!
expect 0 "^ Performance counter stats for process id '[0-9]+' \\(its thread and what it started" \
	"lab: -p counts a running process of lab's until it exits" \
	as_lab pmuctl stat -e cycles -p "$(pid_of /tmp/spin.pid)"
check "  and the cycles are there" grep -Eq '^ +[1-9][0-9,]* +cycles:u$' "$out"
wait $spinner
expect 1 'no process 999999' "-p of no process" pmuctl stat -p 999999
sleep 600 &
sleeper=$!
expect 1 'not allowed to count process' "lab: -p of root's process is refused" \
	as_lab pmuctl stat -p $sleeper
pmuctl stat -e cycles -p $sleeper >"$out" 2>&1 &
stat_pid=$!
# A background job starts with SIGINT ignored, and a SIGINT sent before
# pmuctl has its handler is lost (then it waits for the sleep): wait for
# the handler (SigCgt's bit for signal 2), 30 s at most, on a busy host.
i=0
while [ $i -lt 300 ] && ! sed -n 's/^SigCgt:.*\(.\)$/\1/p' /proc/$stat_pid/status 2>/dev/null |
	grep -q '[2367abef]'; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.5
kill -INT $stat_pid
wait $stat_pid
status=$?
check "-p ends on SIGINT with a shell's status 130, as perf (got $status)" [ "$status" = 130 ]
check "  printing the counts so far" grep -q 'Interrupted: the counts so far' "$out"
# A target that never runs while counted: its software lines are perf's
# <not counted>, not a 0 (the driver saw it on no CPU).
expect 0 '^<not counted>,,page-faults,0,100\.00,,$' \
	"-p of a sleeping process -e page-faults: <not counted>, as perf's" \
	pmuctl stat -x, -e page-faults,task-clock -p $sleeper -- sleep 0.2
check "  and its task-clock" grep -Eq '^<not counted>,msec,task-clock,0,100\.00,,$' "$out"
kill $sleeper
# -p's software lines come from the driver: a shell that waits for 5 sleeps
# is switched out at least 5 times while counted; its page faults from
# /proc (its own and its reaped children's: 5 sleeps' execs).
sh -c 'sleep 0.5; for i in 1 2 3 4 5; do sleep 0.1; done' &
napper=$!
sleep 0.2
expect 0 '^ +[0-9]+\.[0-9]{2} msec task-clock +#  +[0-9]+\.[0-9]{3} CPUs utilized$' \
	"-p: perf's default task-clock line, from the driver" pmuctl stat -p $napper
check "  context-switches, at least the 5 sleeps' waits" \
	awk '/ context-switches / { n = $1 } END { exit !(n >= 5) }' "$out"
check "  cpu-migrations, with a rate" grep -Eq '^ +[0-9]+ +cpu-migrations +#  +[0-9.]+ [KM]?/sec$' "$out"
check "  page-faults, with a rate" grep -Eq '^ +[0-9]+ +page-faults +#  +[0-9.]+ [KM]?/sec$' "$out"
check "  at least 5 page faults: the 5 sleeps' execs, reaped by the shell" \
	awk '/ page-faults / { n = $1 } END { exit !(n >= 5) }' "$out"
tc=$(awk '/msec task-clock/ { print $1 }' "$out")
el=$(awk '/seconds time elapsed/ { print $1 }' "$out")
check "  task-clock ($tc ms) within the time elapsed ($el s) times the CPUs" \
	awk "BEGIN { exit !($tc / 1000 <= $el * $ncpus) }"
# -p's page faults, and -t's (the thread's own), against /proc's own totals
# before and after: the shell's own faults and its reaped child's.
# The shell runs cat once the counted command says go.
rm -f /tmp/go
sh -c 'while [ ! -e /tmp/go ]; do sleep 0.05; done; cat '"$(command -v pmuctl)"' >/dev/null; sleep 5' &
napper=$!
sleep 0.2
faults() { sed 's/.*) //' /proc/$1/stat | awk '{ print $8 + $9 + $10 + $11 }'; }
f0=$(faults $napper)
pmuctl stat -x, -e page-faults -p $napper -- sh -c 'touch /tmp/go; sleep 0.5' >"$out" 2>&1
f1=$(faults $napper)
pf=$(awk -F, '$3 == "page-faults" { print $1 }' "$out")
check "-p PID -e page-faults: cat's, reaped by the shell ($pf; /proc: $f0 then $f1)" \
	[ "${pf:-0}" -ge 5 -a "${pf:-0}" -le "$((f1 - f0))" ]
# The shell waits in its sleep 5: its thread runs not at all while counted.
expect 0 '^<not counted>,,page-faults,0,100\.00,,$' \
	"-t TID -e page-faults of a thread that never ran: <not counted>, as perf's" \
	pmuctl stat -x, -e page-faults -t $napper -- sleep 0.1
kill $napper
sh -c 'while :; do :; done' &
spinning=$!
expect 0 '^[0-9]+,,page-faults,[1-9][0-9]*,100\.00,,$' \
	"-t TID -e page-faults of a running thread: the thread's own, from /proc, its time counted" \
	pmuctl stat -x, -e page-faults -t $spinning -- sleep 0.1
kill $spinning
rm -f /tmp/go

# ---- --per-thread ----
# family N named: the main thread, loop-1 to loop-4 (loop-i runs i * N
# trips) and a forked child, each counted on lines of its own. pmuctl
# reads the threads' names every 10 ms while they live: loop-1 runs
# 2 x N instructions, some 20 ms under icount at N = 10,000,000 (more
# with the others beside it on the one CPU); without icount QEMU runs
# them faster, so five times as many.
pt_trips=10000000
[ -n "$icount" ] || pt_trips=50000000
expect 0 '^ +loop-4-[0-9]+ +[0-9.]+ msec task-clock +#' \
	"--per-thread: each thread's task-clock, named COMM-TID as perf names it" \
	as_lab pmuctl stat --per-thread -- family $pt_trips named
for ev in task-clock context-switches cpu-migrations 'cycles:u'; do
	check "  6 lines of $ev: the main thread, loop-1 to loop-4, the child" \
		[ "$(grep -Ec "^ +(family|loop-[1-4])-[0-9]+ +[0-9.,]+ +(msec )?$ev( |\$)" "$out")" = 6 ]
done
check "  no page-faults line (no per-thread source), never a 0" [ "$(grep -c page-faults "$out")" = 0 ]
as_lab pmuctl stat --per-thread -x, -e cycles:u -- family $pt_trips named >"$out" 2>&1
check "-x,: a line per thread, the thread first, from the largest count down" \
	awk -F, '$1 !~ /^(family|loop-[1-4])-[0-9]+$/ || (NR > 1 && $2 > last) { exit 1 } { last = $2 } END { exit NR != 6 }' "$out"
as_lab pmuctl stat --per-thread -j -e cycles:u -- family $pt_trips named >"$out" 2>&1
check "-j: a \"thread\" key first in each of the 6 objects" \
	[ "$(grep -c '^{"thread" : "\(family\|loop-[1-4]\)-[0-9]*", "counter-value" : ' "$out")" = 6 ]
expect 0 '^ +true-[0-9]+ +[0-9,]+ +cycles:u' \
	"--per-thread: a command too brief to be seen alive still has its name" \
	as_lab pmuctl stat --per-thread -e cycles:u -- true
# A thread that never runs while counted: <not counted>, its software
# lines too, as perf prints it (not 0.00 msec and 0 switches).
sleep 600 &
sleeper=$!
expect 0 "^ +sleep-$sleeper +<not counted> +msec task-clock" \
	"-p --per-thread of an idle process: <not counted>, as perf" \
	pmuctl stat --per-thread -p $sleeper -- sleep 0.3
check "  its context-switches too" grep -Eq "^ +sleep-$sleeper +<not counted> +context-switches" "$out"
kill $sleeper
expect 2 "no per-thread counts of multiplexed events" \
	"--per-thread with more events than counters is refused, saying why" \
	pmuctl stat --per-thread -e $too_many -- true
expect 2 '--per-thread counts threads' "--per-thread -a is refused" pmuctl stat --per-thread -a -- true
expect 2 'page faults have no per-thread source' "--per-thread -e page-faults is refused, not a 0" \
	pmuctl stat --per-thread -e page-faults -- true
rm -f /tmp/spin.pid
# A spin that outlives the count (the command after -p says how long):
# no race with its end on a busy machine.
as_lab 'echo $$ >/tmp/spin.pid; exec spin 3000000000' &
spinner=$!
expect 0 "^ +spin-$(pid_of /tmp/spin.pid) +[0-9,]+ +cycles:u\$" \
	"lab: -p --per-thread: the process's thread on its line" \
	as_lab pmuctl stat --per-thread -e cycles -p "$(pid_of /tmp/spin.pid)" -- sleep 0.3
kill "$(cat /tmp/spin.pid)"
wait $spinner

# ---- permissions ----
expect 1 "for group 'armpmu'; ask an administrator to add you" \
	"guest (not in the group): the message names the group" as_guest pmuctl stat -- true
expect 1 "group 'armpmu'" "guest: info says the same" as_guest pmuctl info

# ---- a busy CPU, and reset ----
# A holder's command lasts until the test lets it go: a fixed sleep can
# end before the step it holds for on a starved host, and a fixed wait for
# it to start can end too early (both were seen beside a busy CI run).
hold='while [ ! -e /tmp/let-go ]; do sleep 0.1; done'
let_go() { touch /tmp/let-go; }
# Waits (up to 60 s) until pmuctl status shows a line matching $1.
until_status() {
	local tries=0
	until pmuctl status | grep -Eq "$1"; do
		tries=$((tries + 1))
		[ "$tries" -lt 600 ] || return 1
		sleep 0.1
	done
}
rm -f /tmp/let-go
pmuctl stat -C 0 -e CPU_CYCLES -- sh -c "$hold" >/tmp/holder.out 2>&1 &
holder=$!
until_status '^0 +online +pid '
expect 0 '^0 +online +pid [0-9]+ \(pmuctl\), user root' "status shows who owns CPU 0" pmuctl status
expect 1 "CPU 0's PMU is owned by another program" "stat -C 0 on the owned CPU is refused" \
	pmuctl stat -C 0 -- true
if [ "$ncpus" -gt 1 ]; then
	expect 0 'with its threads and children' "task mode needs no free CPU" pmuctl stat -- true
else
	# Task mode's counters never get the CPU: counted 0% of the time, so
	# perf's <not counted>, never a 0 and never a metric of it.
	expect 0 'Not counted: the threads ran, but their counters could never be loaded' \
		"one CPU, owned by a CPU-mode file: task-mode counts are <not counted>, and why" \
		pmuctl stat -e cycles,instructions -- true
	check "  each count <not counted> with its share, 0.00%" \
		grep -Eq '^ +<not counted> +cycles +\(0\.00%\)$' "$out"
	check "  never a number" absent '^ +[0-9,]+ +(cycles|instructions)' "$out"
	check "  and no IPC" absent 'insn per cycle' "$out"
	expect 0 '^\{"counter-value" : "<not counted>", "unit" : "", "event" : "instructions", "event-runtime" : 0, "pcnt-running" : 0\.00, "metric-value" : 0\.000000, "metric-unit" : ""\}$' \
		"  --json: perf's <not counted>, pcnt-running 0.00, no metric" \
		pmuctl stat --json -e cycles,instructions -- true
	expect 0 '^<not counted>,,instructions,0,0\.00,,$' "  -x,: perf's <not counted> line, no metric" \
		pmuctl stat -x, -e cycles,instructions -- true
	expect 3 '^ +<not counted> +cycles:u +\(0\.00%\)$' \
		"  lab: <not counted> too, and the command's status is kept" \
		as_lab "pmuctl stat -e cycles -- sh -c 'exit 3'"
fi
expect 1 'in use \(' "unload is refused while a file is open" pmuctl unload
expect 1 'only an administrator' "lab may not reset a CPU" as_lab pmuctl reset -C 0
expect 0 'CPU 0: PMU released from pid [0-9]+ \(uid 0\)' "root resets CPU 0" pmuctl reset -C 0
let_go
wait $holder
holder_status=$?
check "the released owner fails (status $holder_status)" [ "$holder_status" = 1 ]
check "  saying an administrator released its PMU" grep -q 'administrator released' /tmp/holder.out
expect 0 'no one owns its PMU' "reset of a free CPU says so" pmuctl reset -C 0
expect 0 'no file counts anything' "reset without options, no file open: says so" pmuctl reset
expect 1 'only an administrator \(CAP_SYS_ADMIN\) may release files' \
	"lab: reset without options, no file open: refused, saying so" as_lab pmuctl reset
expect 2 "no CPU '99'" "reset -C 99 is a usage error" pmuctl reset -C 99
expect 0 '^0 +online +- ' "after reset, CPU 0 is free" pmuctl status

# ---- task-mode files: seen and ended by an administrator ----
rm -f /tmp/let-go
as_lab "pmuctl stat -e cycles -- sh -c '$hold'" >/tmp/lab-holder.out 2>&1 &
lab_holder=$!
until_status ' task +pid [0-9]+ \(pmuctl\), user lab '
expect 0 '^[0-9]+ +task +pid [0-9]+ \(pmuctl\), user lab +thread [0-9]+( and [0-9]+ more)? +([0-9]+,)*cycle +counting' \
	"status lists lab's task-mode file: owner, threads, counters" pmuctl status
file_id=$(pmuctl status | awk '$2 == "task" && / user lab / { print $1; exit }')
expect 1 'only an administrator' "lab may not end a file" as_lab pmuctl reset -f "$file_id"
expect 0 "file $file_id: its threads released from pid [0-9]+ \(uid 1000\)" \
	"root ends lab's task-mode file" pmuctl reset -f "$file_id"
let_go
wait $lab_holder
holder_status=$?
check "the ended file's pmuctl fails (status $holder_status)" [ "$holder_status" = 1 ]
check "  saying an administrator released its PMU" grep -q 'administrator released' /tmp/lab-holder.out
expect 1 "no open file $file_id counts anything" "reset -f of a file that is gone" \
	pmuctl reset -f "$file_id"
expect 2 "no file 'x'" "reset -f x is a usage error" pmuctl reset -f x
expect 2 '-C and -f' "reset -C with -f is a usage error" pmuctl reset -C 0 -f 1
expect 0 'whole-CPU counting: CAP_PERFMON or CAP_SYS_ADMIN only' \
	"status says who may count whole CPUs" pmuctl status

# ---- unload and load ----
# The lab stops udev after boot (it would count in the exact lanes):
# back for the new node, and stopped again below.
/lib/systemd/systemd-udevd --daemon
expect 0 'armpmu unloaded' "unload" pmuctl unload
check "/dev/armpmu is gone" [ ! -e /dev/armpmu ]
expect 0 'armpmu is not loaded' "status says the module is not loaded" pmuctl status
expect 1 'module is not loaded \(pmuctl load' "stat without the module says to load it" pmuctl stat -- true
expect 1 'armpmu is not loaded' "unload of an unloaded module" pmuctl unload
expect 1 'only root may load' "lab cannot load the module" as_lab pmuctl load poll_ms=20
# The parameters come in the module's own order (modinfo's), which is the
# order of their declarations in the link, not a promise.
# Its six, in any order, and nothing else.
params='(cpu_mode_for_all|poll_ms|sample_max_stack|sample_rate_max|sample_ring_kb_max|sample_ring_user_kb)'
expect 2 "armpmu has no parameter 'bogus' \(it has: $params, $params, $params, $params, $params, $params\)" "an unknown parameter is refused" \
	pmuctl load bogus=1
expect 2 'PARAM=VALUE' "a parameter without a value is refused" pmuctl load poll_ms
expect 1 'out of range' "poll_ms=500 is refused by the module" pmuctl load poll_ms=500
check "  and libkmod's own log lines stay off the terminal" absent 'libkmod' "$out"
release=$(uname -r)
mv "/lib/modules/$release" /lib/modules/hidden
expect 1 "module is not installed for kernel" "a missing module is named" pmuctl load
check "  and libkmod's own log lines stay off the terminal" absent 'libkmod' "$out"
mv /lib/modules/hidden "/lib/modules/$release"
# The modprobe.d files' options apply, as modprobe applies them; those
# given on the command line come after them, and win.
mkdir -p /etc/modprobe.d
echo 'options armpmu poll_ms=30 cpu_mode_for_all=1' >/etc/modprobe.d/armpmu-test.conf
expect 0 "^armpmu loaded \(with modprobe.d's poll_ms=30 cpu_mode_for_all=1\)$" \
	"load applies the options of /etc/modprobe.d" pmuctl load
check "  poll_ms is 30" [ "$(cat /sys/module/armpmu/parameters/poll_ms)" = 30 ]
check "  cpu_mode_for_all is Y" [ "$(cat /sys/module/armpmu/parameters/cpu_mode_for_all)" = Y ]
pmuctl unload >/dev/null
expect 0 "^armpmu loaded with poll_ms=20 \(after modprobe.d's poll_ms=30 cpu_mode_for_all=1\)$" \
	"load poll_ms=20 with modprobe.d's poll_ms=30: both said" pmuctl load poll_ms=20
check "  and the command line's wins" [ "$(cat /sys/module/armpmu/parameters/poll_ms)" = 20 ]
rm /etc/modprobe.d/armpmu-test.conf
pmuctl unload >/dev/null
# A line libkmod cannot parse: modprobe would print libkmod's complaint.
echo 'frobnicate armpmu' >/etc/modprobe.d/armpmu-bad.conf
expect 0 '^armpmu loaded$' "load with a bad modprobe.d line: loaded" pmuctl load
check "  and libkmod's own log line stays off the terminal" absent 'libkmod' "$out"
rm /etc/modprobe.d/armpmu-bad.conf
pmuctl unload >/dev/null
expect 0 'armpmu loaded with poll_ms=20' "load poll_ms=20" pmuctl load poll_ms=20
check "  and the parameter took" [ "$(cat /sys/module/armpmu/parameters/poll_ms)" = 20 ]
expect 0 'already loaded' "load of a loaded module says so" pmuctl load
expect 1 'unload it first' "load with other parameters while loaded is refused" pmuctl load poll_ms=30
expect_udev_node "after pmuctl load, udev made the new node root:armpmu 0660 again"
udevadm control --exit

# ---- exact counts ----
# As lab, in task mode, with a busy process beside it on the one CPU: the
# counts hold the command's work and nothing of the neighbour's.
stat_u() { as_lab pmuctl stat -x, -e instructions:u "$@" 2>&1 | cut -d, -f1; }
if [ -n "$icount" ]; then
	# A program's C start-up walks its arguments and environment on a
	# stack that ASLR places anew each run, and the string routines' trips
	# depend on that alignment: two runs of one program can differ by a
	# few instructions. Exact comparisons of whole programs need it off.
	echo 0 >/proc/sys/kernel/randomize_va_space
	spin 1000000000 &
	neighbour=$!
	a=$(stat_u -- spin 100000)
	b=$(stat_u -- spin 300000)
	echo "# spin 100000: $a, spin 300000: $b instructions:u"
	check "stat -x, instructions:u: two runs differ by exactly the loop's 400000 instructions" \
		[ "$((b - a))" = 400000 ]
	c=$(stat_u -- spin 100000)
	check "the same run twice counts the same ($a, $c)" [ "$a" = "$c" ]
	# exact-loop retires 200000 * argc + $exact user instructions in all.
	one=$(stat_u -- exact-loop)
	two=$(stat_u -- exact-loop x)
	raw=$(stat_u --no-calibrate -- exact-loop)
	echo "# exact-loop: $one, with a second argument $two, with --no-calibrate $raw"
	check "counted from its exec, a whole program of 200000 + $exact instructions counts exactly that ($one)" \
		[ "$one" = $((200000 + exact)) ]
	check "and with twice the loop, 400000 + $exact ($two)" [ "$two" = $((400000 + exact)) ]
	check "--no-calibrate changes nothing ($raw)" [ "$raw" = "$one" ]
	# --passes: under icount a user cycle is a user instruction, so every
	# pass's CPU_CYCLES:u is exactly exact-loop's instructions.
	evs=CPU_CYCLES:u
	i=0
	while [ $i -lt "$counters" ]; do
		evs=$evs,CPU_CYCLES:u
		i=$((i + 1))
	done
	as_lab pmuctl stat --passes -x, -e "$evs" -- exact-loop >"$out" 2>&1
	status=$?
	vals=$(cut -d, -f1 "$out" | sort -u | tr '\n' ' ')
	echo "# --passes, $((counters + 1)) x CPU_CYCLES:u of exact-loop: $vals"
	check "--passes: $((counters + 1)) CPU_CYCLES:u in 2 passes, each exactly $((200000 + exact)) ($vals)" \
		[ "$status" = 0 -a "$vals" = "$((200000 + exact)) " -a "$(grep -c CPU_CYCLES "$out")" = $((counters + 1)) ]
	as_lab pmuctl stat --passes -e "$evs" -- exact-loop >"$out" 2>&1
	check "  the reference, INST_RETIRED:u, exactly that in both passes: they ran alike" \
		grep -Eq "^ 200,00$exact in every pass: the passes ran alike" "$out"
	# Multiplexed: 4 more events than counters (8 on the A7, 10 on the
	# A72), each of the loop's user instructions (a user cycle is one),
	# every scaled count within 1% of the exact one; a {} group's members
	# share their share of the time.
	mux=CPU_CYCLES:u
	i=1
	while [ $i -lt $((counters + 4)) ]; do
		[ $((i % 2)) = 1 ] && mux=$mux,INST_RETIRED:u || mux=$mux,CPU_CYCLES:u
		i=$((i + 1))
	done
	whole=$((100000000 + exact))
	as_lab pmuctl stat -x, -e "$mux" -- $long_loop >"$out" 2>&1
	echo "# multiplexed, $((counters + 4)) events of $whole instructions:"
	sed 's/^/#   /' "$out"
	check "multiplexed: $((counters + 4)) events on $counters counters, each scaled within 1% of $whole, counted part of the time" \
		[ "$(awk -F, -v w=$whole '$1 > 0 && ($1 - w) * 100 <= w && (w - $1) * 100 <= w && $5 > 0 && $5 < 100' "$out" | wc -l)" = $((counters + 4)) ]
	as_lab pmuctl stat -x, -e "{INST_RETIRED:u,CPU_CYCLES:u},$mux" -- $long_loop >"$out" 2>&1
	check "  a {} group's two members counted for the same time" \
		[ "$(sed -n 1p "$out" | cut -d, -f4)" = "$(sed -n 2p "$out" | cut -d, -f4)" ]
	# A command that runs a longer loop each time it is run.
	printf '%s\n' '#!/bin/sh' 'n=$(cat /tmp/pass.n 2>/dev/null || echo 0)' \
		'echo $((n + 1)) >/tmp/pass.n' 'i=0' 'while [ $i -lt $n ]; do i=$((i + 1)); done' \
		>/tmp/vary.sh
	chmod 755 /tmp/vary.sh
	rm -f /tmp/pass.n
	expect 1 '--passes: INST_RETIRED:u differed between the 2 passes' \
		"--passes of a command that differs each run: exit status 1, said" \
		as_lab pmuctl stat --passes -x, -e "$evs" -- /tmp/vary.sh
	rm -f /tmp/pass.n
	expect 1 '^ Not one program: INST_RETIRED:u counted from [0-9,]+ to [0-9,]+ across the 2 passes' \
		"  and the table's note says it" as_lab pmuctl stat --passes -e "$evs" -- /tmp/vary.sh
	# A group is never split; one with no counter left for the reference is refused.
	expect 1 "with one kept in each pass for INST_RETIRED:u" \
		"--passes: a group of all $counters counters and no INST_RETIRED:u is refused, saying why" \
		as_lab pmuctl stat --passes -e "{${evs#CPU_CYCLES:u,}}" -- true
	grp=$(echo "${evs#CPU_CYCLES:u,}" | sed 's/CPU_CYCLES:u$/INST_RETIRED:u/')
	expect 0 '\(2 passes, ' "  with INST_RETIRED:u in it, that group is its pass's reference" \
		as_lab pmuctl stat --passes -e "CPU_CYCLES:u,{$grp}" -- exact-loop
	check "  exact in both passes" [ "$(grep -Ec "^ +200,00$exact +(CPU_CYCLES|INST_RETIRED):u( |\$)" "$out")" = $((counters + 1)) ]
	# -I: the intervals' counts add up to the whole run's, exactly.
	whole=$(stat_u -- spin 30000000)
	parts=$(as_lab pmuctl stat -I 10 -x, -e instructions:u -- spin 30000000 2>&1 |
		awk -F, '{ n++; s += $2 } END { print n, s }')
	echo "# spin 30000000: $whole instructions:u; -I 10: ${parts% *} intervals, ${parts#* } in all"
	check "-I 10: ${parts% *} intervals add up to the whole count exactly (${parts#* }, $whole)" \
		[ "${parts#* }" = "$whole" -a "${parts% *}" -ge 2 ]
	# family N: 4 threads and a forked child, each loop_n(N).
	f1=$(stat_u -- family 100000)
	f3=$(stat_u -- family 300000)
	f3b=$(stat_u -- family 300000)
	echo "# family 100000: $f1, family 300000: $f3 and $f3b instructions:u"
	check "4 threads and a child: every loop counted once, exactly 5 x 400000 more ($f3 - $f1)" \
		[ "$((f3 - f1))" = 2000000 ]
	check "  and the same run twice counts the same ($f3, $f3b)" [ "$f3" = "$f3b" ]
	# --per-thread: family N named's threads, each exact: between N and
	# 3N, loop-i's count grows by exactly 2 instructions x i x 2N, the
	# child's by 2 x 2N, the main thread's not at all (by tid: the main
	# thread's is the lowest, the child's the highest).
	pt() {
		as_lab pmuctl stat --per-thread -x, -e instructions:u -- family "$1" named 2>&1 |
			awk -F, '{ k = split($1, t, "-"); print t[k], $1, $2 }' | sort -n
	}
	pt $pt_trips >/tmp/pt.1
	pt $((3 * pt_trips)) >/tmp/pt.3
	whole=$(stat_u -- family $pt_trips named)
	sed 's/^/# N: /' /tmp/pt.1
	sed 's/^/# 3N: /' /tmp/pt.3
	i=0
	while [ $i -le 5 ]; do
		a=$(sed -n "$((i + 1))p" /tmp/pt.1) b=$(sed -n "$((i + 1))p" /tmp/pt.3)
		case $i in
		0) who="the main thread" k=0 ;;
		5) who="the child" k=1 ;;
		*) who="loop-$i" k=$i ;;
		esac
		grow=$((2 * k * 2 * pt_trips))
		check "--per-thread: $who (${a#* }) grows by exactly $grow with 3N (${b##* })" \
			[ "$((${b##* } - ${a##* }))" = "$grow" ]
		i=$((i + 1))
	done
	check "  the loop-i lines are loop-1 to loop-4 in the order they were created" \
		[ "$(sed -n '2,5p' /tmp/pt.1 | awk '{ sub(/-[0-9]+$/, "", $2); printf "%s ", $2 }')" = "loop-1 loop-2 loop-3 loop-4 " ]
	check "  the 6 threads' counts add up to the whole run's ($whole), exactly" \
		[ "$(awk '{ s += $3 } END { print s }' /tmp/pt.1)" = "$whole" ]
	# -p: a process released after pmuctl has attached to it; the
	# shell's part is the same in both, so the loops' difference is exact.
	for trips in 100000 300000; do
		rm -f /tmp/go /tmp/target.pid
		mkfifo /tmp/go
		chmod 666 /tmp/go
		as_lab "echo \$\$ >/tmp/target.pid; read x </tmp/go; exec spin $trips" &
		target=$!
		as_lab pmuctl stat -x, -e instructions:u -p "$(pid_of /tmp/target.pid)" \
			>/tmp/p-$trips.out 2>&1 &
		stat_pid=$!
		sleep 0.5	# attached and started: the target blocks in open()
		echo go >/tmp/go
		wait $target
		wait $stat_pid
		eval "p_$trips=\$(cut -d, -f1 /tmp/p-$trips.out)"
	done
	echo "# -p of spin 100000: $p_100000, of spin 300000: $p_300000 instructions:u"
	check "-p PID: two runs differ by exactly the loop's 400000 instructions" \
		[ "$((p_300000 - p_100000))" = 400000 ]
	kill $neighbour
	wait $neighbour 2>/dev/null
fi

# ---- agreement with perf ----
# perf stat's way, the reference: perf-count opens an inherited
# instructions counter, disabled, enable_on_exec, on a forked child that
# waits on a pipe before its exec. pmuctl stat must agree: within 1% in
# user and kernel mode together and in kernel mode alone (as root),
# exactly in user mode (ASLR off). Only
# arm64 boards give perf the PMU, and only -icount counts instructions.
# Both start in the exec and let an exiting task go before exit_mm().
# Each count is the least of three runs, after one that warms the page
# cache for both: a timer tick that lands in a run adds thousands of
# instructions to it (perf's own count of true(1) moves from 309,000 to
# 316,000 between runs of one boot), and none lands in the least.
if [ -n "$icount" ] && [ "$(uname -m)" = aarch64 ]; then
	head -c 819200 /dev/zero >/tmp/md5.data
	# least: the smallest of the numbers on standard input.
	least() { sort -n | head -n 1; }
	# counts MODIFIER COMMAND...: "perf pmuctl" counts of COMMAND.
	counts() {
		mod=$1
		shift
		flag=''
		[ "$mod" = uk ] || flag=-$mod
		: >/tmp/perf.counts
		: >/tmp/pmuctl.counts
		for i in 0 1 2 3; do
			# perf is the oracle only where it counted: a failed
			# perf-count (or a count of 0) leaves no number of its.
			rm -f /tmp/perf.count
			perf-count $flag -o /tmp/perf.count "$@" >/dev/null || rm -f /tmp/perf.count
			pmuctl stat -x, -e "instructions:$mod" -o /tmp/pmuctl.count -- "$@" >/dev/null
			[ "$i" = 0 ] && continue
			grep -sE '^[1-9][0-9]*$' /tmp/perf.count >>/tmp/perf.counts
			# -o's file starts with perf's "# started on" header.
			grep -E '^[0-9<]' /tmp/pmuctl.count | cut -d, -f1 >>/tmp/pmuctl.counts
		done
		# Three runs of perf's, or no oracle.
		if [ "$(wc -l </tmp/perf.counts)" = 3 ]; then
			echo "$(least </tmp/perf.counts) $(least </tmp/pmuctl.counts)" \
				"$(($(sort -n /tmp/perf.counts | tail -n 1) - $(least </tmp/perf.counts)))"
		else
			echo "none $(least </tmp/pmuctl.counts)"
		fi
	}
	# within_1 A B [SPREAD]: A and B differ by at most 1% of B, or SPREAD.
	within_1() {
		d=$(($1 > $2 ? $1 - $2 : $2 - $1))
		[ $((d * 100)) -le "$2" ] || [ "$d" -le "${3:-0}" ]
	}
	# near MOD WHAT TEST CMD...: perf's and pmuctl's counts of CMD in
	# mode MOD held to TEST (a command given perf's, pmuctl's and perf's
	# spread over its runs), or skipped if perf did not count.
	near() {
		mod=$1 what=$2 test=$3
		shift 3
		set -- "$*" $(counts "$mod" "$@")
		echo "# $1, instructions:$mod: perf $2 (spread ${4:-none}), pmuctl $3"
		if [ "$2" = none ]; then
			skip "root: $1, $what" "perf did not count in every run here: no oracle"
		else
			check "root: $1, $what ($3, perf $2, spread $4)" $test "$3" "$2" "$4"
		fi
	}
	equal() { [ "$1" = "$2" ]; }
	near_1() { within_1 "$1" "$2"; }
	for cmd in /bin/true 'busybox md5sum /tmp/md5.data'; do
		near uk "user and kernel mode: pmuctl within 1% of perf" near_1 $cmd
		near u "user mode: pmuctl's count is perf's" equal $cmd
		# Kernel mode alone, where the end of counting at an exit
		# shows (exit_mm's teardown, which perf leaves out, is about
		# 135,000 instructions of true(1)'s 300,000): within 1%,
		# or within perf's own spread over its runs if that is wider.
		# true(1) alone, a few seconds: an md5sum's kernel-mode count
		# moves by 2-3% between runs (perf-parity.sh --icount has it).
		if [ "$cmd" = /bin/true ]; then
			near k "kernel mode: pmuctl within 1% of perf, or perf's spread" within_1 $cmd
		fi
	done
fi

# ---- pmuctl record and report (tests/guest/record-test.sh, when added) ----
[ ! -f ./record-test.sh ] || . ./record-test.sh

# ---- beside Debian's perf stat (tests/guest/perf-parity.sh, when added, on perf's boards) ----
# Its checks (the lines a perf user reads, compared), numbered on as ours;
# the time they took, in a comment (CI's cost).
if [ -f ./perf-parity.sh ] && command -v perf >/dev/null; then
	t0=$(cut -d' ' -f1 /proc/uptime)
	sh ./perf-parity.sh --quick ${icount:+--icount} >"$out" 2>&1
	echo "# perf-parity --quick: $(awk -v t0="$t0" '{ printf "%.1f", $1 - t0 }' /proc/uptime) s"
	while IFS= read -r line; do
		case $line in
		'ok '*) n=$((n + 1)); echo "ok $n - perf parity: ${line#ok * - }" ;;
		'not ok '*)
			n=$((n + 1)) failed=$((failed + 1))
			echo "not ok $n - perf parity: ${line#not ok * - }"
			;;
		'#'*) echo "$line" ;;
		esac
	done <"$out"
	got=$(grep -c '^\(not \)\{0,1\}ok ' "$out") plan=$(sed -n 's/^1\.\.//p' "$out")
	check "perf parity ran to its plan ($got checks of ${plan:-no plan})" \
		[ "$got" = "${plan:-none}" -a "$got" -gt 0 ]
fi

# ---- the kernel log ----
dmesg >"$out"
check "dmesg has no WARNING, BUG, Oops or scheduling while atomic" \
	absent 'WARNING:|BUG:|Oops|Internal error|Call trace|scheduling while atomic' "$out"

echo "1..$n"
echo "# $n tests, $failed failed"
[ "$failed" = 0 ]
