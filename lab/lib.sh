# shellcheck shell=bash
# Sourced by the lab scripts: the cache's place, messages, the cache lock and
# the host packages the lab needs.

lab_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(dirname "$lab_dir")
lab_cache=${ARMPMU_LAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/armpmu-lab}

# Exit statuses shared with tools/pmu-vm's --help.
readonly LAB_BUILD_FAILED=122 LAB_FAILED=125

note() { echo "pmu-vm: $*" >&2; }
die() { note "$*"; exit "$LAB_FAILED"; }

# Every change to the cache happens under this lock, so that concurrent runs
# neither download into nor build in the same place at once. It is held until
# the script exits; lab scripts that take it must not call one another while
# holding it.
lab_lock() {
	mkdir -p "$lab_cache"
	exec 9>"$lab_cache/lock"
	flock 9
}

# Run "$@" up to three times: a mirror can be mid-sync for a minute.
retry() {
	local try
	for try in 1 2 3; do
		"$@" && return 0
		((try < 3)) && sleep $((try * 5))
	done
	return 1
}

# Every mmdebstrap of the lab runs through this, in one mode: unshare.
# Run as root, that mode unshares the mount, PID, UTS and IPC namespaces
# (not the user namespace) and runs every maintainer script and hook
# command chrooted in the new root, so a package's postinst cannot reach
# the host's files, and its mounts vanish with it. The modes are not the
# caller's to choose: mmdebstrap's chrootless mode runs maintainer scripts
# on the host with only DPKG_ROOT to redirect them, which most scripts
# ignore (run as root it once added udev's `render` group to the host's
# /etc/group), and fakechroot and proot keep the host's files one missed
# path away. Refused here, with any other --mode.
lab_mmdebstrap() {
	local arg
	for arg; do
		case $arg in
		--mode | --mode=*)
			note "lab_mmdebstrap: '$arg' refused: the lab's mmdebstrap runs in unshare mode only (lab/lib.sh says why)"
			return "$LAB_FAILED"
			;;
		esac
	done
	mmdebstrap --mode=unshare "$@"
}

# What `make demo` and `make check` need on the host, beyond what a new
# Debian machine has. The libraries and pahole (dwarves; 6.12's module build
# runs it unless CONFIG_DEBUG_INFO_BTF_MODULES= is given) are linux-kbuild's
# needs: it is extracted, not installed, so apt does not pull them in. flex
# and bison build Kconfig and dtc for lab/debug-kernel. The cross compilers
# are installed without recommends, so their C library headers are named:
# libc6-*-cross alone is only the runtime. libkmod-dev, libdw-dev (elfutils'
# libdw and libelf: pmuctl report's symbols) and pkg-config build pmuctl
# for the host; dkms builds the module from armpmu-dkms for the
# package boards (tests/host/deb-board);
# device-tree-compiler's fdtput trims the Versatile Express device tree to
# the CPUs QEMU gives (tools/pmu-vm); linux-perf's perf stat is the layout
# pmuctl stat -x and --json are held against (tests/host/stat-format-test,
# stat-layout-test, which checks JSON objects with jq).
# lab/build-deb builds the Debian packages with debhelper, dh-dkms and
# crossbuild-essential in a root of its own (mmdebstrap), not on the host.
lab_host_packages=(
	qemu-system-arm make gcc libc6-dev cpio bc kmod sparse dwarves mmdebstrap
	flex bison git pkg-config libkmod-dev libdw-dev dkms device-tree-compiler
	gcc-arm-linux-gnueabihf libc6-armhf-cross libc6-dev-armhf-cross
	gcc-aarch64-linux-gnu libc6-arm64-cross libc6-dev-arm64-cross
	libelf1 libssl3 zlib1g linux-perf jq
)
# What make check needs besides (lab/host-packages --check): lintian, which
# checks the packages (tests/host/deb-test) and brings about a hundred Perl
# packages that make demo has no use for; and clang, whose libFuzzer fuzzes
# pmuctl report's reader (tests/host/report-hostile-test).
lab_check_packages=(lintian clang)

# Installs what is missing, one package at a time (several cross packages in
# one apt-get call have failed with "held broken packages").
ensure_host_packages() {
	local pkg missing=()
	# dpkg-query's one line, not `dpkg -s | grep -q`: grep quits at the
	# Status line, dpkg then dies of SIGPIPE writing the rest of a long
	# record (libc6-dev's), and under pipefail an installed package looked
	# missing, now and then.
	for pkg in "${lab_host_packages[@]}"; do
		[[ $(dpkg-query -W -f '${Status}' "$pkg" 2>/dev/null) == 'install ok installed' ]] ||
			missing+=("$pkg")
	done
	((${#missing[@]})) || return 0
	[[ $(id -u) == 0 ]] || die "missing host packages (install them as root): ${missing[*]}"
	mkdir -p "$lab_cache"
	local log=$lab_cache/host-packages.log
	echo "armpmu lab: installing with apt-get (log: $log): ${missing[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	# One failing index makes update exit non-zero; the rest is still usable.
	retry apt-get update -qq >>"$log" 2>&1 ||
		note "apt-get update failed; going on with the indexes apt has"
	for pkg in "${missing[@]}"; do
		retry apt-get install -y -qq --no-install-recommends \
			-o DPkg::Lock::Timeout=300 "$pkg" >>"$log" 2>&1 ||
			{ tail -n 20 "$log" >&2; die "cannot install $pkg"; }
	done
}
