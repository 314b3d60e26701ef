#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The libpmudev lanes' suite with Python: libpmudev-test (as root, its
# options as given), then pmudev-test.py as lab: with --icount its exact
# counts (plain python3), and on every board its exception paths under
# python3 -X dev, as a user outside the device's group, and with
# /dev/armpmu hidden; with PMUDEV_GROWTH=N in the environment also N
# counters opened and closed without growth (a board without -icount:
# 100,000 take minutes). Their TAP as one, numbered through,
# the plan at the end; nothing may be said on stderr. Exit status: 1 if a
# test failed, a part's own status if it did not finish (no plan), else 0.
#
#   sh libpmudev-suite.sh --cpu CORE [--icount] [...]   (in /work, as root)
tmp=$(mktemp -d)
status=0

# Part N's output from FILE, renumbered from OFFSET; sets count.
fold() {
	awk -v off="$2" '
		/^1\.\.[0-9]+$/ { plan = 1; next }
		/^(not )?ok [0-9]+/ {
			n++
			sub(/^(not )?ok [0-9]+/, (($1 == "not") ? "not ok " : "ok ") (off + n))
		}
		{ print }
		END { print n + 0 > "/dev/stderr"; exit plan ? 0 : 3 }
	' "$1" 2>"$tmp/count" || { echo "# $1: no plan: it did not finish"; status=$3; }
	count=$(cat "$tmp/count")
}

part() { # NAME COMMAND...: its output, errors and status in $tmp
	name=$1
	shift
	"$@" >"$tmp/$name.tap" 2>"$tmp/$name.err"
	echo $? >"$tmp/$name.status"
}

part lib libpmudev-test "$@"
icount=
for a in "$@"; do [ "$a" = --icount ] && icount=--icount; done
cpu=$2
test=$PWD/pmudev-test.py
parts="lib"
if [ -n "$icount" ]; then
	part exact su lab -c "PYTHONHASHSEED=0 python3 $test --cpu $cpu --exact"
	part dev su lab -c "python3 -X dev $test --cpu $cpu --errors --growth 1000"
	parts="$parts exact dev"
else
	part dev su lab -c "python3 -X dev $test --cpu $cpu --errors --growth 1000"
	parts="$parts dev"
fi
if [ -n "${PMUDEV_GROWTH:-}" ]; then
	part growth su lab -c "python3 $test --cpu $cpu --growth $PMUDEV_GROWTH"
	parts="$parts growth"
fi
part noaccess su guest -c "python3 $test --no-access"
mv /dev/armpmu /dev/.armpmu-hidden
part nodevice su lab -c "python3 $test --no-device"
mv /dev/.armpmu-hidden /dev/armpmu

total=0
for name in $parts noaccess nodevice; do
	s=$(cat "$tmp/$name.status")
	fold "$tmp/$name.tap" "$total" "$s"
	total=$((total + count))
	# Anything the part said on stderr (-X dev's warnings, a traceback).
	if [ -s "$tmp/$name.err" ]; then
		sed 's/^/# stderr: /' "$tmp/$name.err"
		[ "$name" = lib ] || {
			total=$((total + 1))
			echo "not ok $total - pmudev-test.py, $name: nothing on stderr"
			status=1
		}
	fi
	[ "$s" = 0 ] || [ "$status" != 0 ] || status=$s
done
echo "1..$total"
rm -rf "$tmp"
exit "$status"
