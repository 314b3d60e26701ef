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
# set-user-ID exec said (a copy of sample-test, and /usr/bin/passwd), -p of lab's own process recorded and of root's
# refused (EACCES), pmuctl report's columns and errors; with --perf,
# Debian's perf report, perf script and perf annotate reading the file.

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
	# The instructions' weights add up to what pmuctl stat counts for the
	# same program, within one period's worth (1 ms at -F 1000: 10^6
	# instructions): the counts after the last sample are in none.
	rec_w=$(as_lab pmuctl report -i "$rec/p.data" -e instructions 2>&1 |
		sed -n 's/^# Event count (approx.): \([0-9]*\)$/\1/p')
	rec_c=$(as_lab pmuctl stat -x, -e instructions:u -- sample-test --work ratio $rec_n 2>&1 |
		cut -d, -f1)
	check "lab: the samples' instructions add up to pmuctl stat's count within a period (${rec_w:-none}, ${rec_c:-none})" \
		awk -v w="$rec_w" -v c="$rec_c" 'BEGIN { d = w - c; exit !(w > 0 && c > 0 && d <= 1000000 && d >= -1000000) }'
else
	check "lab: work_b has more of the time than work_a ($b, $a)" \
		test -n "$a" -a -n "$b" -a "${b:-0}" -gt "${a:-0}"
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

# Debian's perf reads the same file (pmuctl-test.sh --perf: the arm64
# pmuctl lane boots with it): perf report and perf script exit 0 with
# nothing on stderr and no warning, and perf report gives work_a and
# work_b the shares pmuctl report gives them, in every column. perf's own
# cpu-clock:u recording of the same program is the comparison: printed
# beside them, and work_b the larger there too (without icount a busy
# host's time moves either split by several points).
if [ -n "$perf" ]; then
	# rec_row FILE SYMBOL: the percentages of SYMBOL's row of a report.
	rec_row() {
		sed -n "s/^ *\([0-9.]*%[0-9. %]*\) \[\.\] $2 *\$/\1/p" "$1" | head -n 1
	}
	# rec_same ROW ROW: as many columns, each within 0.02 points.
	rec_same() {
		[ -n "$1" ] && echo "$1|$2" | awk -F'|' '{
			n = split($1, x, " "); m = split($2, y, " ")
			if (n != m) exit 1
			for (i = 1; i <= n; i++) { d = x[i] - y[i]; if (d < -0.02 || d > 0.02) exit 1 }
		}'
	}
	# rec_clean STATUS ERRFILE: exit 0 and nothing on stderr.
	rec_clean() { [ "$1" = 0 ] && [ ! -s "$2" ]; }
	# rec_all PATTERN FILE: FILE has lines, and every one matches.
	rec_all() { [ -s "$2" ] && ! grep -Evq -- "$1" "$2"; }
	rec_t0=$(cut -d' ' -f1 /proc/uptime)
	check "perf is on the board (tools/pmu-vm --perf)" sh -c 'command -v perf >/dev/null'
	as_lab "perf report --stdio -i $rec/p.data --sort sym" >"$rec/perf-report.out" 2>"$rec/perf.err"
	check "lab: perf report of pmuctl record's file: exit 0, nothing on stderr" \
		rec_clean $? "$rec/perf.err"
	sed 's/^/#   /' "$rec/perf.err" "$rec/perf-report.out" | head -n 20
	check "  no warning or error in its report" absent '[Ww]arn|WARN|[Ee]rror|ERROR' "$rec/perf-report.out"
	check "  the group's events, as pmuctl report names them" grep -Eq \
		"^# Samples: .* of events 'anon group \\{ $rec_events \\}'\$" "$rec/perf-report.out"
	for sym in work_b work_a; do
		x=$(rec_row "$rec/report.out" $sym)
		y=$(rec_row "$rec/perf-report.out" $sym)
		echo "# $sym: pmuctl report $x, perf report $y"
		check "  $sym: perf report's shares are pmuctl report's ($y; $x)" rec_same "$x" "$y"
	done
	as_lab "perf script -i $rec/p.data" >"$rec/perf-script.out" 2>"$rec/perf.err"
	check "lab: perf script of pmuctl record's file: exit 0, nothing on stderr" \
		rec_clean $? "$rec/perf.err"
	check "  every line a sample of sample-test by an event of the group" \
		rec_all '^ *sample-test +[0-9]+ \[[0-9]+\] +[0-9.]+: +[0-9]+ +(cpu-clock|cycles|instructions):u: +[0-9a-f]+ ' \
		"$rec/perf-script.out"
	check "  work_b's samples in the program" grep -Eq ' work_b\+0x[0-9a-f]+ \([^)]*sample-test\)$' "$rec/perf-script.out"
	echo "# perf script: $(grep -c ' cpu-clock:u: ' "$rec/perf-script.out") cpu-clock:u samples"
	# perf annotate disassembles with objdump (lab/perf-root puts it there).
	rec_t1=$(cut -d' ' -f1 /proc/uptime)
	as_lab "perf annotate --stdio -i $rec/p.data work_b" >"$rec/perf-annotate.out" 2>"$rec/perf.err"
	check "lab: perf annotate --stdio of pmuctl record's file: exit 0, nothing on stderr" \
		rec_clean $? "$rec/perf.err"
	sed 's/^/#   /' "$rec/perf.err" "$rec/perf-annotate.out" | head -n 16
	check "  no warning or error in it" absent '[Ww]arn|WARN|[Ee]rror|ERROR' "$rec/perf-annotate.out"
	check "  work_b's code, of the group's events" grep -Eq \
		"Disassembly of sample-test for anon group \\{ $rec_events \\} \\([0-9]+ samples" \
		"$rec/perf-annotate.out"
	check "  its loop's subs with samples on it" grep -Eq \
		'^ +[0-9.]*[1-9][0-9.]*( +[0-9.]+)* +: +[0-9a-f]+:[[:space:]]+subs[[:space:]]' \
		"$rec/perf-annotate.out"
	echo "# perf annotate took $(awk -v t="$rec_t1" '{ printf "%.1f", $1 - t }' /proc/uptime) s"
	# perf's own recording, as root with perf's paranoia lowered meanwhile.
	rec_paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
	echo -1 >/proc/sys/kernel/perf_event_paranoid
	expect 0 'Captured and wrote' "root: perf record -e cpu-clock:u of the same program" \
		sh -c "cd $rec && perf record -e cpu-clock:u -F 1000 -o $rec/perf-own.data -- sample-test --work ratio $rec_n"
	echo "$rec_paranoid" >/proc/sys/kernel/perf_event_paranoid
	perf report --stdio -i "$rec/perf-own.data" --sort sym >"$rec/perf-own.out" 2>&1
	pa=$(rec_row "$rec/perf-own.out" work_a)
	pb=$(rec_row "$rec/perf-own.out" work_b)
	echo "# time shares, work_a and work_b: pmuctl record $a% $b%, perf record $pa $pb"
	check "root: perf's own recording gives work_b the larger share too ($pb, $pa)" \
		awk -v a="$pa" -v b="$pb" 'BEGIN { exit !(a != "" && b + 0 > a + 0) }'
	echo "# perf's checks took $(awk -v t="$rec_t0" '{ printf "%.1f", $1 - t }' /proc/uptime) s"

	# A library dlopen()ed after the program starts (tests/guest/dlopen/):
	# dlopen-work spends a third of its rounds in before_open, its own,
	# then opens the library and spends the rest in its late_work. pmuctl
	# record finds the library in a later look at /proc/PID/maps than the
	# one that found the program: its MMAP2 is dated after the program's,
	# and both reports name the library and late_work in their first row
	# (a look at the start only would leave late_work's samples unnamed).
	# rec_first PATTERN FILE: the first row of a report's table (the most
	# samples) matches.
	rec_first() { grep -E '^ +[0-9.]+%' "$2" | head -n 1 | grep -Eq -- "$1"; }
	rec_t1=$(cut -d' ' -f1 /proc/uptime)
	rec_lib='^( +[0-9.]+%)+ +libdlopen-late\.so +\[\.\] late_work$'
	expect 0 'Captured and wrote' "lab: pmuctl record of a program that dlopen()s a library after it starts" \
		as_lab "cd $rec && pmuctl record -F 1000 -o $rec/d.data -- dlopen-work /usr/local/lib/libdlopen-late.so 30000000"
	as_lab "pmuctl report -i $rec/d.data --sort dso,sym" >"$rec/d-report.out" 2>&1
	grep '%' "$rec/d-report.out" | head -n 3 | sed 's/^/#   /'
	check "lab: pmuctl report's first row: the library's late_work" rec_first "$rec_lib" "$rec/d-report.out"
	as_lab "perf report --stdio -i $rec/d.data --sort dso,sym" >"$rec/d-perf.out" 2>"$rec/perf.err"
	check "lab: perf report of it: exit 0, nothing on stderr" rec_clean $? "$rec/perf.err"
	check "  its first row: the library's late_work" rec_first "$rec_lib" "$rec/d-perf.out"
	check "  and the program's before_open" \
		grep -Eq '^( +[0-9.]+%)+ +dlopen-work +\[\.\] before_open$' "$rec/d-perf.out"
	as_lab "perf script --show-mmap-events -F comm,tid,time,event,ip,sym,dso -i $rec/d.data" \
		>"$rec/d-script.out" 2>"$rec/perf.err"
	check "lab: perf script --show-mmap-events of it: exit 0, nothing on stderr" \
		rec_clean $? "$rec/perf.err"
	grep MMAP2 "$rec/d-script.out" | sed 's/^/#   /'
	# The times of the program's MMAP2, the library's and late_work's first sample.
	rec_times=$(awk '
		{ for (i = 1; i < NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = substr($i, 1, length($i) - 1); break } }
		/ PERF_RECORD_MMAP2 .* \/usr\/local\/bin\/dlopen-work$/ && p == "" { p = t }
		/ PERF_RECORD_MMAP2 .* \/usr\/local\/lib\/libdlopen-late\.so$/ && l == "" { l = t }
		/ late_work(\+0x[0-9a-f]+)? \(\/usr\/local\/lib\/libdlopen-late\.so\)$/ && w == "" { w = t }
		END { print p, l, w }' "$rec/d-script.out")
	check "  the library's MMAP2 after the program's, and before late_work's first sample ($rec_times)" \
		awk -v t="$rec_times" 'BEGIN { n = split(t, x, " "); exit !(n == 3 && x[1] < x[2] && x[2] <= x[3]) }'
	echo "# the dlopen()ed library's checks took $(awk -v t="$rec_t1" '{ printf "%.1f", $1 - t }' /proc/uptime) s"

	# Hotspot reads perf.data with its parser, hotspot-perfparser
	# (pmuctl-test.sh --hotspot: bookworm's hotspot 1.3's), and draws its
	# flame graph and per-function views from what the parser writes: its
	# own stream, whose string table names each symbol and file. The
	# parser reads the recording above as lab: exit 0, no error, late_work
	# and its library named. On stderr it notes only a feature of the
	# header that this version does not read at all ("N 0": CLOCKID and
	# SAMPLE_TIME; of perf record's own files it notes SAMPLE_TIME too)
	# and its buffering; an error it finds (an ELF file it cannot find,
	# records out of time order) it writes there as well as in the stream.
	if [ -n "$hotspot" ]; then
		rec_t1=$(cut -d' ' -f1 /proc/uptime)
		rec_pp=/usr/lib/aarch64-linux-gnu/libexec/hotspot-perfparser
		check "Hotspot's parser is on the board (tools/pmu-vm --hotspot)" test -x "$rec_pp"
		as_lab "$rec_pp --input $rec/d.data --output $rec/d.stream" >"$rec/pp.out" 2>"$rec/pp.err"
		check "lab: hotspot-perfparser reads pmuctl record's file: exit 0" [ $? = 0 ]
		sed 's/^/#   /' "$rec/pp.out" "$rec/pp.err"
		check "  nothing on stderr but its notes of features it skips and of its buffering" \
			rec_all '^(feature not properly read PerfHeader::[A-Z_]+ [0-9]+ 0|FINISHED_ROUND detected\. Switching to automatic buffering)$' \
			"$rec/pp.err"
		strings -a "$rec/d.stream" >"$rec/pp-strings.out" 2>&1
		check "  its output names late_work and its library" \
			sh -c "grep -q 'late_work\$' $rec/pp-strings.out && grep -q 'libdlopen-late\\.so' $rec/pp-strings.out"
		echo "# hotspot-perfparser took $(awk -v t="$rec_t1" '{ printf "%.1f", $1 - t }' /proc/uptime) s"
	fi
fi

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
# The same with Debian's set-user-ID passwd (which stops at once here: the
# board has no PAM configuration).
as_lab "cd $rec && pmuctl record -F 1000 -o $rec/pw.data -- /usr/bin/passwd" </dev/null >"$out" 2>&1
cp "$out" "$rec/passwd.out"
check "lab: pmuctl record -- /usr/bin/passwd: the thread let go at the exec, said" \
	grep -q 'was let go' "$rec/passwd.out"
check "  and the file written" grep -q 'Captured and wrote' "$rec/passwd.out"
as_lab pmuctl report -i "$rec/pw.data" --sort comm >"$out" 2>&1
check "lab: no sample of passwd" absent passwd "$out"

# -p: perf's rule (ptrace's read check). Lab's own process is recorded
# until it ends; root's is refused, EACCES, said in one line with the rule.
expect 0 'Captured and wrote' "lab: pmuctl record -p of its own process: recorded" \
	as_lab "cd $rec && { spin 300000000 & pmuctl record -o $rec/p3.data -p \$!; }"
# Root's process lives until killed: a spin of fixed length could end
# before lab's record reaches it on a starved host ("no process").
sleep 600 &
rec_spin=$!
expect 1 "^pmuctl record: not allowed to record process $rec_spin: Permission denied: it must be yours \\(and not set-user-ID\\), or you need CAP_SYS_PTRACE\$" \
	"lab: pmuctl record -p of root's process: EACCES, and the rule" \
	as_lab "cd $rec && pmuctl record -o $rec/p2.data -p $rec_spin"
check "  in one line" [ "$(wc -l <"$out")" = 1 ]
kill "$rec_spin" 2>/dev/null
wait "$rec_spin" 2>/dev/null
expect 2 'nothing to record' "pmuctl record without a command: a usage error" pmuctl record

# A program that ends a few milliseconds after its exec: its mappings read
# all the same (pmuctl record looks every millisecond at first), so that
# its samples are named, none [unknown].
expect 0 'Captured and wrote' "lab: pmuctl record of a program of a few milliseconds" \
	as_lab "cd $rec && pmuctl record -F 10000 -o $rec/short.data -- sample-test --work spin 2000000"
as_lab pmuctl report -i "$rec/short.data" >"$out" 2>&1
cp "$out" "$rec/short-report.out"
sed 's/^/#   /' "$rec/short-report.out" | grep '%' | head -n 4
check "  its samples named by function: work_a among them" grep -q '\[\.\] work_a$' "$rec/short-report.out"
check "  and none in [unknown]" absent '\[unknown\]' "$rec/short-report.out"

# -g: call chains (callchain-test --work chain: leaf <- middle <- outer <-
# top, each its own function). On AArch64 the frame records the driver
# walks, the leaf's caller from lr where its unwind table says so; perf
# report --children and perf script must see the whole chain. On AArch32
# no frames: said.
expect 0 'Captured and wrote' "lab: pmuctl record -g of a program of four calls deep" \
	as_lab "cd $rec && pmuctl record -g -F 1000 -o $rec/g.data -- callchain-test --work chain"
cp "$out" "$rec/g.out"
if [ "$(uname -m)" != aarch64 ]; then
	check "  AArch32: the samples' lack of callers said" \
		grep -q 'samples of 32-bit code have no callers' "$rec/g.out"
fi
expect 2 "--call-graph dwarf: not here yet" "pmuctl record --call-graph dwarf: refused, with what is" \
	as_lab "cd $rec && pmuctl record --call-graph dwarf -o $rec/g2.data -- true"
as_lab pmuctl report -i "$rec/g.data" >"$out" 2>&1
check "lab: pmuctl report of a file with call chains: the leaf first" \
	grep -Eq '^ +[0-9.]+%( +[0-9.]+%)* +callchain-test +callchain-test +\[\.\] leaf$' "$out"
if [ -n "$perf" ] && [ "$(uname -m)" = aarch64 ]; then
	as_lab "perf script -i $rec/g.data -F event,ip,sym" >"$rec/g-script.out" 2>"$rec/perf.err"
	check "lab: perf script of pmuctl record -g's file: exit 0, nothing on stderr" \
		rec_clean $? "$rec/perf.err"
	# Each cpu-clock sample in the leaf: the next three frames middle, outer, top.
	rec_chains=$(awk '
		/cpu-clock:u:/ { n = 0; inblock = 1; next }
		inblock && NF >= 2 { f[++n] = $2; next }
		inblock && NF == 0 {
			if (n && f[1] == "leaf") { leaf++; good += f[2] == "middle" && f[3] == "outer" && f[4] == "top" }
			inblock = 0
		}
		END { print leaf + 0, good + 0 }' "$rec/g-script.out")
	echo "# perf script: samples in the leaf, and with middle, outer, top above it: $rec_chains"
	check "  every sample in the leaf: middle, outer, top above it" \
		sh -c "set -- $rec_chains; [ \$1 -ge 10 ] && [ \$1 = \$2 ]"
	as_lab "perf report -i $rec/g.data --children --stdio --sort sym -g none" \
		>"$rec/g-report.out" 2>"$rec/perf.err"
	check "lab: perf report --children of it: exit 0, nothing on stderr" rec_clean $? "$rec/perf.err"
	sed 's/^/#   /' "$rec/g-report.out" | grep -E '\] (leaf|middle|outer|top|main)$'
	rec_leaf=$(sed -n 's/^ *\([0-9]*\)\.[0-9]*%.*\[\.\] leaf$/\1/p' "$rec/g-report.out" | head -n 1)
	for sym in middle outer top main; do
		x=$(sed -n "s/^ *\\([0-9]*\\)\\.[0-9]*%.*\\[\\.\\] $sym\$/\\1/p" "$rec/g-report.out" | head -n 1)
		check "  $sym's children hold the leaf's samples ($x%, the leaf $rec_leaf%)" \
			sh -c "[ -n '$x' ] && [ -n '$rec_leaf' ] && [ '$x' -ge '$rec_leaf' ] && [ '$rec_leaf' -ge 50 ]"
	done
fi
