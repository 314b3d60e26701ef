#!/bin/sh
# armpmu's benchmark inside an emulated board (bench/run boots it): the
# four parts of armpmu-bench, each in a process of its own.
#
#   sh ./guest.sh [--perf]      (root, in the folder with bench_userenr.ko
#                                and bench_tick.ko)
#
# 1. armpmu: the null system call and /dev/armpmu's operations, as lab,
#    in the default mode (task mode: the file counts the calling thread);
# 2. direct: user-mode reads of the same counters, as lab, while the
#    test-only module bench_userenr.ko opens the PMU to user mode (then
#    unloaded);
# 2b. samples: what one sample costs, armpmu's as lab (sample-bench
#    armpmu) and perf's cpu-clock:u as root (sample-bench perf), then
#    the floor of both, a timer tick that only re-arms, as root, while
#    the test-only module bench_tick.ko is loaded (sample-bench tick);
# 3. perf (--perf, arm64 boards): perf_event_open's reads, as lab, with
#    perf_event_paranoid at -1 and no armpmu file open;
# 4. switch: context switches, as lab, plain, with armpmu's probe hooked
#    and with one side counted in task mode (raw ioctls). It waits until
#    no task-mode file has been open for longer than the driver keeps its
#    probe, and checks that nothing is open. Its two processes run
#    SCHED_FIFO, so lab gets RLIMIT_RTPRIO 1 (busybox su keeps limits).
#    With --perf, last, the same side counted by perf with the same events
#    (perf_event_paranoid is still -1 from part 3).
# Prints armpmu-bench's @bench lines, and whether the kernel isolates its
# page tables (KPTI, arm64) as "@bench-info kpti=on|off": its log says so
# at boot ("detected: Kernel page table isolation"), and nothing else does
# on a core that is not vulnerable (sysfs says "Not affected" either way).
# Exits non-zero if a part failed.
status=0
if dmesg | grep -q 'detected: Kernel page table isolation'; then
	echo '@bench-info kpti=on'
else
	echo '@bench-info kpti=off'
fi
su lab -c 'armpmu-bench armpmu' || status=1
if insmod ./bench_userenr.ko; then
	su lab -c 'armpmu-bench direct' || status=1
	rmmod bench_userenr || status=1
else
	echo "bench: bench_userenr.ko did not load" >&2
	status=1
fi
su lab -c 'sample-bench armpmu' || status=1
sample-bench perf || status=1
if insmod ./bench_tick.ko; then
	sample-bench tick || status=1
	rmmod bench_tick || status=1
else
	echo "bench: bench_tick.ko did not load" >&2
	status=1
fi
if [ "$1" = --perf ]; then
	sysctl -q -w kernel.perf_event_paranoid=-1 || status=1
	su lab -c 'armpmu-bench perf' || status=1
fi
switch='armpmu-bench switch'
[ "$1" = --perf ] && switch="$switch --perf"
(ulimit -r 1 && su lab -c "$switch") || status=1
exit $status
