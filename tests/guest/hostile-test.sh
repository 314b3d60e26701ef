#!/bin/sh
# hostile-test: the suites of careless and hostile use, in one boot, as one
# TAP stream (busybox sh, as root, armpmu loaded). Each suite's tests are
# numbered on from the one before; a suite that dies or loses its plan is a
# failed test of its own. Exits 1 if a test failed.
#
#   sh hostile-test.sh [--calls N] [--seed N] [--functional CPU] [--kernel-checks]
#                      [--no-counting] [--wrap] [--soak SECS] [--rounds N]
#                      [--reloads N]
#
# --functional CPU: armpmu-test --cpu CPU, task-test and callchain-test first
# (the debug kernel's lane);
# --kernel-checks: debug-checks.sh last, for a debug kernel's reports;
# --no-counting: QEMU's model of this board's PMU never counts (Cortex-A8,
# A9): fuzz and stress-test check everything but counts; --wrap and --soak
# SECS: isolation-test's long checks (a wrap across CPU hotplug, 5 s, with
# armpmu loaded again with poll_ms=100 for it; lab programs counting while
# CPU 1 goes off and on, SECS); --rounds N: race-test's rotations and
# armed execs (default race-test's own, 2000); --reloads N: stress-test's
# unloads and loads of the module (default its own, 100).
#
# Order matters: badinput-test and fuzz need the node udev gave to group
# armpmu; stress-test unloads and loads the module, so it comes after them.

calls=100000 seed=1 functional='' kernel_checks='' no_counting='' wrap='' soak='' rounds='' reloads=''
while [ $# -gt 0 ]; do
	case $1 in
	--calls) calls=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--functional) functional=$2; shift 2 ;;
	--kernel-checks) kernel_checks=1; shift ;;
	--no-counting) no_counting=--no-counting; shift ;;
	--wrap) wrap=--wrap; shift ;;
	--soak) soak="--soak $2"; shift 2 ;;
	--rounds) rounds="--rounds $2"; shift 2 ;;
	--reloads) reloads="--reloads $2"; shift 2 ;;
	*) echo "usage: sh hostile-test.sh [--calls N] [--seed N] [--functional CPU]" \
		"[--kernel-checks] [--no-counting] [--wrap] [--soak SECS] [--rounds N]" \
		"[--reloads N]" >&2; exit 2 ;;
	esac
done

n=0 failed=0 tally=/tmp/hostile-test.tally

# suite COMMAND...: runs it, renumbering its TAP from n + 1.
suite() {
	echo "# -- $*"
	started=$(date +%s)
	{ "$@" 2>&1; echo "@@status=$?"; } | awk -v base="$n" -v tally="$tally" -v name="$1" '
		/^@@status=/ { status = substr($0, 10); next }
		/^(not )?ok [0-9]+/ {
			run++
			if ($1 == "not") { bad++; sub(/^not ok [0-9]+/, "not ok " base + run) }
			else sub(/^ok [0-9]+/, "ok " base + run)
			print; fflush(); next
		}
		/^1\.\.[0-9]+$/ { plan = substr($0, 4); next }
		{ print; fflush() }
		END {
			if (plan == "" || plan != run || (status != 0 && status != 1)) {
				run++; bad++
				printf "not ok %d - %s ran to completion\n", base + run, name
				printf "# plan \"%s\", %d tests seen, exit status %s\n", plan, run - 1, status
			}
			print run, bad + 0 > tally
		}'
	read -r run bad <"$tally"
	n=$((n + run)) failed=$((failed + bad))
	echo "# -- $1: $(($(date +%s) - started)) s"
}

# reload [OPTION...]: armpmu unloaded and loaded with these module options;
# udev, which the boarding script stopped, gives the new node its group.
reload() {
	modprobe -r armpmu || return
	/lib/systemd/systemd-udevd --daemon 2>/dev/null
	modprobe armpmu "$@" || echo "# armpmu did not load again (options: $*)"
	udevadm settle --timeout=10 2>/dev/null
	udevadm control --exit 2>/dev/null
}

[ -z "$functional" ] || suite armpmu-test --cpu "$functional"
# Task mode's probe runs under the runqueue lock: the debug kernel's lockdep sees it.
[ -z "$functional" ] || suite task-test
# Call chains of hostile frames, walked under the debug kernel's checks.
[ -z "$functional" ] || suite callchain-test
suite badinput-test
# Who a file may count: the attacks as lab, against the opener's credentials.
# --wrap's try needs CPU 1 back within a poll period: the longest there is.
[ -z "$wrap" ] || reload poll_ms=100
# shellcheck disable=SC2086 # one word or none each
suite isolation-test $no_counting $wrap $soak
[ -z "$wrap" ] || reload
# shellcheck disable=SC2086 # $no_counting: one word or none
suite fuzz --calls "$calls" --seed "$seed" $no_counting
# ...and again while CPUs go offline and come back under the files.
# shellcheck disable=SC2086
suite fuzz --calls "$calls" --seed $((seed + 1)) --cpu-hotplug $no_counting
# A sampled forking, threading program while CPU 1 goes off and on.
[ -n "$no_counting" ] || suite sample-test --hostile
# Claims racing CPU 1 going offline: nothing of a closed file left behind.
# shellcheck disable=SC2086
suite race-test $no_counting $rounds
# shellcheck disable=SC2086
suite stress-test --seed "$seed" $no_counting $reloads
[ -z "$kernel_checks" ] || suite sh ./debug-checks.sh
echo "1..$n"
echo "# $n tests, $failed failed"
[ "$failed" -eq 0 ]
