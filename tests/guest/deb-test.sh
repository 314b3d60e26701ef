#!/bin/bash
# deb-test: armpmu from its Debian packages, on a board that has nothing of
# the project (tools/pmu-vm --packages), as root in /work, where the host
# put the board's armpmu-dkms, libpmudev1 and pmuctl packages, dkms-built/
# (the module DKMS built on the host from armpmu-dkms's source for this
# board's kernel) and exact-loop; also python3-pmudev, for the board's
# python3 (Debian's, in its dpkg database). Prints TAP; exits 1 if a test
# failed.
#
#   bash deb-test.sh --exact N [--icount] [--pmuctl-suite CPU] [--then COMMAND]...
#                    [--no-purge WHY]
#
# dpkg installs the three packages. armpmu-dkms's postinst registers the
# module with DKMS, which cannot build it here: the board has no compiler
# and no kernel headers, as an emulated board under TCG should not (it
# would take many minutes). The module DKMS built on the host goes into
# this package's own DKMS tree (/var/lib/dkms/armpmu/VERSION/KERNEL/ARCH),
# where DKMS would have put it, and the board's DKMS installs it. Then
# pmuctl load, udev's node for the group the package created, an exact
# count as a member of that group (--icount: QEMU counts exactly; N is
# what exact-loop retires besides its loop), `import pmudev` from
# python3-pmudev counting as a member (--icount: a loop's count linear in
# its iterations, to the instruction), and dpkg --purge, after which
# no file of the packages is left and the module is unloaded.
#
# --pmuctl-suite CPU: before the purge, pmuctl's own suite
# (pmuctl-test.sh --cpu CPU, --icount too if given) runs against the
# packaged pmuctl and DKMS's module, its results numbered on with these.
# --then COMMAND: so does COMMAND (a test program's, run by sh -c; TAP),
# after pmuctl's suite if both are given: the driver's suites on the
# module the packages installed, as on a Raspberry Pi 2 by hand
# (tests/README.md, the packages).
# --no-purge WHY: no purge (and no look at the board's files before and
# after it); a skip says WHY (on a Raspberry Pi 2 board, DKMS's remove and
# dpkg's purge take a minute that a virt lane of the same packages and
# kernel already spends).
set -u

exact='' icount='' suite_cpu='' then=() no_purge=''
while (($#)); do
	case $1 in
	--exact) exact=$2; shift 2 ;;
	--icount) icount=1; shift ;;
	--pmuctl-suite) suite_cpu=$2; shift 2 ;;
	--then) then+=("$2"); shift 2 ;;
	--no-purge) no_purge=$2; shift 2 ;;
	*) echo "usage: deb-test.sh --exact N [--icount] [--pmuctl-suite CPU] [--then COMMAND]... [--no-purge WHY]" >&2; exit 2 ;;
	esac
done
[[ -n $exact ]] || { echo "deb-test.sh: --exact N is needed" >&2; exit 2; }

n=0 failed=0 out=/tmp/deb-test.out
export DEBIAN_FRONTEND=noninteractive
packages=(armpmu-dkms pmuctl "libpmudev1:$(dpkg --print-architecture)" python3-pmudev)
debs=(./armpmu-dkms_*.deb ./libpmudev1_*.deb ./pmuctl_*.deb ./python3-pmudev_*.deb)
kernel=$(uname -r)
arch=$(uname -m)
triplet=arm-linux-gnueabihf
[[ $arch != aarch64 ]] || triplet=aarch64-linux-gnu
version=$(dpkg-deb -f ./armpmu-dkms_*.deb Version)

report() { # report STATUS DESCRIPTION [DETAIL FILE]
	n=$((n + 1))
	if [[ $1 == 0 ]]; then
		echo "ok $n - $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - $2"
		[[ -z ${3:-} || ! -s ${3:-} ]] || head -n 20 "$3" | sed 's/^/#   /'
	fi
}
# run DESCRIPTION COMMAND...: COMMAND succeeds; its output is shown if not.
run() {
	local desc=$1
	shift
	"$@" >"$out" 2>&1
	report $? "$desc" "$out"
}
# check DESCRIPTION TEST...: a plain test.
check() {
	local desc=$1
	shift
	"$@"
	report $? "$desc"
}
# What each part takes on the board (under -icount its clock is the
# instructions' count: no figure).
took() { [[ -n $icount ]] || echo "# $1: $((SECONDS - ${2:-0})) s"; }
as_lab() { su lab -c "$*"; }
# The board's files, but for the mounts (proc, sys, dev, run, tmp) and the
# test's own directory.
files() { find / -xdev -path /work -prune -o -print | LC_ALL=C sort; }

# ---- before ----
check "the board has no pmuctl" test -z "$(command -v pmuctl)"
check "no armpmu group" test -z "$(getent group armpmu)"
check "no armpmu module for $kernel" test -z "$(modinfo -F filename armpmu 2>/dev/null)"
before_status=$(dpkg-query -W -f '${db:Status-Abbrev}' "${packages[@]}" 2>/dev/null)
check "dpkg knows none of the packages" test -z "$before_status"
[[ -n $no_purge ]] || files >/tmp/files.before

# ---- install ----
DPKG_COLORS=never dpkg -i "${debs[@]}" >/tmp/dpkg-install.out 2>&1
report $? "dpkg -i ${debs[*]#./}" /tmp/dpkg-install.out
sed 's/^/# dpkg: /' /tmp/dpkg-install.out | grep -v 'Reading database'
status=$(dpkg-query -W -f '${db:Status-Abbrev}|' "${packages[@]}" 2>&1)
check "the four packages are installed ($status)" test "$status" = "ii |ii |ii |ii |"
dpkg -L "${packages[@]}" | LC_ALL=C sort -u >/tmp/package-files
for f in /usr/bin/pmuctl "/usr/lib/$triplet/libpmudev.so.1" /usr/lib/udev/rules.d/60-armpmu.rules \
	/usr/lib/sysusers.d/armpmu.conf /etc/modules-load.d/armpmu.conf \
	/usr/share/man/man1/pmuctl.1.gz /usr/share/man/man4/armpmu.4.gz \
	"/usr/src/armpmu-$version/dkms.conf"; do
	check "installed by the packages: $f" grep -qx "$f" /tmp/package-files
done
check "the modules-load file is opt-in (its line commented out)" \
	grep -qx '#armpmu' /etc/modules-load.d/armpmu.conf
group=$(getent group armpmu)
gid=$(cut -d: -f3 <<<"$group")
check "pmuctl's postinst created the group armpmu, a system group ($group)" \
	test -n "$gid" -a "${gid:-1000}" -lt 1000
dkms status -m armpmu >"$out" 2>&1
check "armpmu-dkms's postinst added armpmu $version to DKMS ($(head -n 1 "$out"))" \
	grep -q "^armpmu/$version: added" "$out"
check "  and DKMS could not build it here: no headers for $kernel" \
	grep -q "kernel headers for this kernel does not seem to be installed\|kernel headers for this kernel do not seem to be installed" \
	/tmp/dpkg-install.out

took "the checks before, dpkg -i and its checks"
start=$SECONDS

# ---- DKMS installs the module it built on the host ----
tree=/var/lib/dkms/armpmu/$version/$kernel/$arch
mkdir -p "${tree%/*}" && cp -a dkms-built "$tree"
dkms status -m armpmu >"$out" 2>&1
check "with the host's build in the package's DKMS tree, DKMS sees it built for $kernel" \
	grep -q "^armpmu/$version, $kernel, $arch: built" "$out"
run "dkms install -m armpmu -v $version -k $kernel" dkms install -m armpmu -v "$version" -k "$kernel"
dkms status -m armpmu >"$out" 2>&1
check "dkms status: installed ($(head -n 1 "$out"))" \
	grep -q "^armpmu/$version, $kernel, $arch: installed" "$out"
check "modprobe finds DKMS's module (updates/dkms)" \
	test "$(modinfo -F filename armpmu 2>&1)" = "/lib/modules/$kernel/updates/dkms/armpmu.ko"

took "DKMS's install and its checks" "$start"

# ---- load, udev, group ----
/lib/systemd/systemd-udevd --daemon 2>/dev/null
run "pmuctl load" pmuctl load
udevadm settle --timeout=10
check "armpmu is loaded" test -d /sys/module/armpmu
node=$(stat -c '%U:%G %a' /dev/armpmu 2>&1)
check "udev (the package's rule) made /dev/armpmu root:armpmu 660 ($node)" test "$node" = "root:armpmu 660"
# udev's processes would count on this CPU too.
udevadm control --exit
LD_DEBUG=libs pmuctl --version >"$out" 2>&1
check "pmuctl runs with the package's library (/usr/lib/$triplet/libpmudev.so.1)" \
	grep -q "calling init: /usr/lib/$triplet/libpmudev.so.1" "$out"
as_lab pmuctl status >"$out" 2>&1
check "lab, not yet in the group, cannot open /dev/armpmu" grep -qi 'permission denied' "$out"
run "usermod -aG armpmu lab (the README's step)" usermod -aG armpmu lab
if [[ -n $icount ]]; then
	echo 0 >/proc/sys/kernel/randomize_va_space
	count=$(as_lab pmuctl stat -x, -e instructions:u -- exact-loop 2>&1 | cut -d, -f1)
	check "as lab, pmuctl stat counts exact-loop exactly: 200000 + $exact ($count)" \
		test "$count" = $((200000 + exact))
else
	n=$((n + 1))
	echo "ok $n - an exact count # SKIP only under -icount"
fi

# ---- Python, from python3-pmudev ----
pyext=$(grep '^/usr/lib/python3/dist-packages/pmudev\.cpython-.*\.so$' /tmp/package-files)
check "python3-pmudev installed the module for the board's python3 (${pyext:-none})" \
	test -n "$pyext" -a -f "$pyext"
# Least of 3 Region pairs (an interrupt now and then adds some dozens) for
# loops of 1000, 2000 and 3000 iterations that allocate nothing, after a
# pass over them all (the interpreter specializes the code it runs: the
# first runs of a loop cost more).
cat >/tmp/pmudev-deb.py <<'PYTHON'
import gc, sys
from itertools import repeat
import pmudev
gc.disable()
event = sys.argv[1]
r = pmudev.Region(event)
def least(n):
    seen = []
    for _ in range(3):
        t0 = r.values()[event]
        r.start()
        for _ in repeat(None, n):
            pass
        r.stop()
        seen.append(r.values()[event] - t0)
    return min(seen)
sizes = (1000, 2000, 3000)
for n in sizes:
    least(n)
counts = [least(n) for n in sizes]
print(pmudev.__file__, r.complete, *counts)
PYTHON
start=$(date +%s%N)
# QEMU counts instructions only under -icount; cycles elsewhere.
event=cycles:u
[[ -z $icount ]] || event=instructions:u
as_lab python3 /tmp/pmudev-deb.py "$event" >"$out" 2>&1
py_status=$? py_ms=$((($(date +%s%N) - start) / 1000000))
read -r file complete c1 c2 c3 <"$out"
check "as lab, python3 imports pmudev from python3-pmudev and counts $event ($py_ms ms: $(head -c 200 "$out"))" \
	test "$py_status" = 0 -a "$file" = "$pyext" -a "$complete" = True -a "${c1:-0}" -gt 0
if [[ -n $icount ]]; then
	check "  a loop's count is linear in its iterations, to the instruction ($c1, $c2, $c3)" \
		test $((c2 - c1)) = $((c3 - c2)) -a $((c2 - c1)) -gt 0
fi

# ---- suites on what the packages installed ----
# suite NAME COMMAND...: COMMAND's TAP, numbered on with these and tagged
# with NAME, and a test that it ran to its end.
suite() {
	local name=$1 start=$SECONDS line status offset=$n plan='' nots=0
	shift
	echo "# $*:"
	"$@" >/tmp/suite.out 2>&1
	status=$?
	while IFS= read -r line; do
		if [[ $line =~ ^(not\ )?ok\ ([0-9]+)(.*)$ ]]; then
			n=$((offset + BASH_REMATCH[2]))
			[[ -z ${BASH_REMATCH[1]} ]] || nots=$((nots + 1))
			echo "${BASH_REMATCH[1]}ok $n -${BASH_REMATCH[3]# -} ($name)"
		elif [[ $line =~ ^1\.\.([0-9]+)$ ]]; then
			plan=${BASH_REMATCH[1]}
		else
			printf '%s\n' "$line"
		fi
	done </tmp/suite.out
	failed=$((failed + nots))
	[[ -n $plan && $((n - offset)) == "$plan" ]] && ((status == (nots > 0)))
	report $? "$name ran to its end (exit status $status, plan ${plan:-none}, $((n - offset)) seen)"
	took "$name" "$start"
	# Each leaves armpmu loaded, as a lab would have it.
	pmuctl load >/dev/null 2>&1
}
took "the install and its checks (all of the above)"
if [[ -n $suite_cpu ]]; then
	echo "# with the packaged pmuctl:"
	suite pmuctl-test busybox sh ./pmuctl-test.sh --cpu "$suite_cpu" ${icount:+--icount}
fi
for command in "${then[@]}"; do
	suite "${command%% *}" sh -c "$command"
done
start=$SECONDS

if [[ -n $no_purge ]]; then
	n=$((n + 1))
	echo "ok $n - dpkg --purge, and nothing of the packages left # SKIP $no_purge"
	echo "1..$n"
	((failed == 0))
	exit
fi

# ---- purge ----
DPKG_COLORS=never dpkg --purge "${packages[@]}" >/tmp/dpkg-purge.out 2>&1
report $? "dpkg --purge ${packages[*]}" /tmp/dpkg-purge.out
sed 's/^/# dpkg: /' /tmp/dpkg-purge.out | grep -v 'Reading database'
status=$(dpkg-query -W -f '${db:Status-Abbrev}|' "${packages[@]}" 2>/dev/null)
check "dpkg knows them no more (purged, no configuration left)" \
	test -z "${status//[n |]/}"
check "armpmu-dkms's prerm unloaded armpmu" test ! -d /sys/module/armpmu
left=$(while IFS= read -r f; do [[ -e $f && ! -d $f ]] && echo "$f"; done </tmp/package-files)
check "no file the packages installed is left${left:+ (left: $left)}" test -z "$left"
check "no module armpmu for $kernel" test -z "$(modinfo -F filename armpmu 2>/dev/null)"
# What is on the board now and was not before: dpkg's and debconf's own
# records, and the group files' backups, only.
files >/tmp/files.after
new=$(LC_ALL=C comm -13 /tmp/files.before /tmp/files.after |
	grep -Ev '^/var/lib/dpkg(/|$)|^/var/log(/|$)|^/var/cache/debconf(/|$)|^/etc/(group|gshadow|passwd|shadow)-$')
check "nothing else is left anywhere${new:+ (new: ${new//$'\n'/ })}" test -z "$new"
echo "# the group armpmu stays, as Debian's packages leave the system groups they create: $(getent group armpmu)"
took "the purge and its checks" "$start"

echo "1..$n"
((failed == 0))
