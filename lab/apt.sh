# shellcheck shell=bash
# Sourced: apt on a private configuration inside the cache. It reads the host's
# Debian mirrors but keeps its own sources, indexes and (empty) dpkg status, so
# the lab needs no foreign dpkg architecture or backports source on the host.
# It can only look up and download: its dpkg is /bin/false, because installing
# a foreign-arch kernel package would replace the host's gcc.

lab_apt_root=$lab_cache/apt

# "SUITE URI" for each Debian suite the host's own apt sources use, from both
# deb822 (*.sources) and one-line (*.list) files.
host_debian_suites() {
	local f files=()
	for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list /etc/apt/sources.list; do
		[[ -f $f ]] && files+=("$f")
	done
	((${#files[@]})) || return 0
	awk '
	function flush(  n, s, i) {
		if (types ~ /(^| )deb( |$)/ && enabled != "no") {
			n = split(suites, s, " ")
			for (i = 1; i <= n; i++) print s[i], uri
		}
		types = uri = suites = enabled = ""
	}
	FNR == 1 { flush() }
	FILENAME ~ /\.sources$/ {
		if ($0 ~ /^[ \t]*$/) { flush(); next }
		key = tolower($1)
		if (key == "types:") { $1 = ""; types = $0 }
		else if (key == "uris:") uri = $2
		else if (key == "suites:") { $1 = ""; suites = $0 }
		else if (key == "enabled:") enabled = tolower($2)
		next
	}
	$1 == "deb" {
		sub(/\[[^]]*\]/, "")
		print $3, $2
	}
	END { flush() }' "${files[@]}"
}

# Writes the private configuration once: bookworm (6.1), its security
# updates and bookworm-backports (6.12), for the host and both guest arches.
lab_apt_setup() {
	[[ -f $lab_apt_root/apt.conf ]] && return 0
	local suites archive security keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	suites=$(host_debian_suites)
	archive=$(awk '$1 !~ /-/ { print $2; exit }' <<<"$suites")
	security=$(awk '$1 ~ /-security$/ { print $2; exit }' <<<"$suites")
	[[ -n $archive ]] || die "no Debian archive in the host's apt sources"
	mkdir -p "$lab_apt_root"/{sources.list.d,preferences.d,state/lists/partial,cache/archives/partial}
	: >"$lab_apt_root/status"
	{
		printf 'Types: deb\nURIs: %s\nSuites: bookworm bookworm-backports\nComponents: main\nSigned-By: %s\n' "$archive" "$keyring"
		[[ -z $security ]] ||
			printf '\nTypes: deb\nURIs: %s\nSuites: bookworm-security\nComponents: main\nSigned-By: %s\n' "$security" "$keyring"
	} >"$lab_apt_root/sources.list.d/lab.sources"
	cat >"$lab_apt_root/apt.conf.new" <<-CONF
		Dir::Etc::SourceList "$lab_apt_root/none.list";
		Dir::Etc::SourceParts "$lab_apt_root/sources.list.d";
		Dir::Etc::Preferences "$lab_apt_root/none.pref";
		Dir::Etc::PreferencesParts "$lab_apt_root/preferences.d";
		Dir::State "$lab_apt_root/state";
		Dir::State::status "$lab_apt_root/status";
		Dir::Cache "$lab_apt_root/cache";
		Dir::Cache::pkgcache "pkgcache.bin";
		Dir::Cache::srcpkgcache "srcpkgcache.bin";
		Dir::Bin::dpkg "/bin/false";
		APT::Architectures { "amd64"; "armhf"; "arm64"; };
		APT::Sandbox::User "root";
		Acquire::Languages "none";
	CONF
	mv "$lab_apt_root/apt.conf.new" "$lab_apt_root/apt.conf"
}

lab_apt_get() { APT_CONFIG=$lab_apt_root/apt.conf apt-get -qq "$@"; }
lab_apt_cache() { APT_CONFIG=$lab_apt_root/apt.conf apt-cache "$@"; }

# Refreshes the indexes once per process, before the first download: Debian
# drops old kernel ABIs, so old indexes may name packages that are gone. A
# failed index (mirror mid-sync) is tolerated: the others still resolve.
lab_apt_update() {
	[[ -z ${lab_apt_updated:-} ]] || return 0
	lab_apt_setup
	retry lab_apt_get update >&2 || note "apt-get update failed; going on with the indexes it got"
	lab_apt_updated=1
}

# Downloads each PACKAGE[:ARCH][=VERSION] into the current directory.
lab_apt_download() {
	local pkg
	lab_apt_update
	for pkg in "$@"; do
		retry lab_apt_get download "$pkg" >&2 || die "cannot download $pkg"
	done
}
