# record-test.sh: pmuctl record and pmuctl report in a booted board, as
# lab. Sourced by pmuctl-test.sh before its look at the kernel log (it
# shares its TAP numbering and helpers: n, failed, out, expect, check,
# absent, as_lab, icount); not run alone.
#
# The recorded program is sample-test --work (tests/guest/sample-test.c):
# work_a and work_b, loops of their own, one doing three times the work of
# the other. Under icount (the deb-icount lanes, tests/host/deb-board) time
# is instructions: the split is 25/75 within 2 points. Without, a busy
# host's time makes any split (seen: 31/47, with start-up's page faults
# at 20%): work_b's share must only be the larger. Also: perf record's progress lines, perf.data.old, a program of
# 4 threads and a forked child (each thread its rows), a let-go at a
# set-user-ID exec said, -p of root's process refused, pmuctl report's
# columns and errors.

rec=/tmp/record-test
rm -rf "$rec"
mkdir -p "$rec"
chown lab "$rec"
# About 0.16 s of work_a and work_b at one instruction a nanosecond.
rec_n=20000000

# share FILE SYMBOL: SYMBOL's first column in pmuctl report's table, as an integer percent.
rec_share() {
	sed -n "s/^ *\([0-9]*\)\.\([0-9]*\)%.*\[\.\] $2\$/\1/p" "$1" | head -n 1
}
# near VALUE WANT SLACK
rec_near() {
	[ -n "$1" ] && [ "$1" -ge $(($2 - $3)) ] && [ "$1" -le $(($2 + $3)) ]
}

expect 0 '^\[ perf record: Captured and wrote [0-9.]+ MB [^ ]*p\.data \([0-9]+ samples\) \]$' \
	"lab: pmuctl record of a 1:3 program: perf record's closing line" \
	as_lab "cd $rec && pmuctl record -F 1000 -o $rec/p.data -- sample-test --work ratio $rec_n"
cp "$out" "$rec/record.out"
check "lab: pmuctl record: perf record's wake-up line" \
	grep -Eq '^\[ perf record: Woken up [0-9]+ times to write data \]$' "$rec/record.out"
check "lab: pmuctl record: nothing lost" absent 'lost' "$rec/record.out"
expect 0 '\[\.\] work_b$' "lab: pmuctl report names work_b" \
	as_lab pmuctl report -i "$rec/p.data" --sort sym
cp "$out" "$rec/report.out"
sed 's/^/#   /' "$rec/report.out"
a=$(rec_share "$rec/report.out" work_a)
b=$(rec_share "$rec/report.out" work_b)
if [ -n "$icount" ]; then
	check "lab: work_a has 25% of the time within 2 points ($a)" rec_near "$a" 25 2
	check "lab: work_b has 75% of the time within 2 points ($b)" rec_near "$b" 75 2
else
	check "lab: work_b has more of the time than work_a ($b, $a)" \
		[ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt "$a" ]
fi
# instructions where the core may count them: QEMU counts them only under
# icount, and says so through PMCEID on the ARMv8 cores; an ARMv7 core has
# no PMCEID to say it, so pmuctl records them there all the same.
rec_events='cpu-clock:u, cycles:u'
[ -n "$icount" ] && rec_events='cpu-clock:u, cycles:u, instructions:u'
[ -z "$icount" ] && [ "$(uname -m)" != aarch64 ] && rec_events='cpu-clock:u, cycles:u(, instructions:u)?'
check "lab: pmuctl report: a column per event of the group" grep -Eq \
	"^# Samples: .* of events 'anon group \\{ $rec_events \\}'$" "$rec/report.out"
expect 0 '^( +[0-9.]+%)+ +sample-test +sample-test +\[\.\] work_b$' \
	"lab: pmuctl report's default rows: command, file, symbol" as_lab pmuctl report -i "$rec/p.data"
expect 0 "^# Samples: .* of event 'cycles:u'$" "lab: pmuctl report -e cycles: its column alone" \
	as_lab pmuctl report -i "$rec/p.data" -e cycles
expect 1 'no such event' "lab: pmuctl report -e of an event not recorded" \
	as_lab pmuctl report -i "$rec/p.data" -e branch-misses

# perf record's habit: the old file kept as FILE.old.
expect 0 'Captured and wrote' "lab: pmuctl record again" \
	as_lab "cd $rec && pmuctl record -q -F 500 -e cycles -- sample-test --work spin 1000000 && pmuctl record -F 500 -e cycles -- sample-test --work spin 1000000"
check "lab: pmuctl record keeps the old perf.data as perf.data.old" \
	test -s "$rec/perf.data" -a -s "$rec/perf.data.old"

# 4 threads and a forked child: each thread its samples.
expect 0 'Captured and wrote' "lab: pmuctl record of 4 threads and a forked child" \
	as_lab "cd $rec && pmuctl record -F 1000 -o $rec/t.data -- sample-test --work threads $rec_n"
expect 0 '\[\.\] work_a$' "lab: pmuctl report of the threads" \
	as_lab pmuctl report -i "$rec/t.data" --sort pid,sym
rec_tids=$(grep -oE ' [0-9]+:sample-test ' "$out" | sort -u | wc -l)
check "lab: samples of 6 threads: the main one, 4 more and the child's ($rec_tids)" \
	[ "$rec_tids" -ge 6 ]

# A set-user-ID exec lets the thread go, and says so.
mkdir -p /tmp/sample-test
cp "$(command -v sample-test)" /tmp/sample-test/suid
chmod 4755 /tmp/sample-test/suid
expect 0 'was let go' "lab: pmuctl record says a thread was let go at a set-user-ID exec" \
	as_lab "cd $rec && pmuctl record -F 1000 -o $rec/s.data -- sample-test --work suid $rec_n"
as_lab pmuctl report -i "$rec/s.data" --sort comm >"$out" 2>&1
check "lab: no sample of the set-user-ID program" absent 'sample-suid' "$out"
rm -f /tmp/sample-test/suid

# Another user's process.
spin 300000000 &
rec_spin=$!
expect 1 'cannot record' "lab: pmuctl record -p of root's process: refused" \
	as_lab "cd $rec && pmuctl record -o $rec/p2.data -p $rec_spin"
kill "$rec_spin" 2>/dev/null
wait "$rec_spin" 2>/dev/null
expect 2 'nothing to record' "pmuctl record without a command: a usage error" pmuctl record
