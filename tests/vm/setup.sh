#!/bin/bash
# setup.sh — install what the VM tests need on a Debian 12 (bookworm) host.
# Run as root; idempotent. A second run installs nothing and touches no
# network. SEG6X_KERNELS="KVER ..." installs exactly those kernels instead
# of the default pair (newest bookworm 6.1, newest bookworm-backports 6.12).
set -euo pipefail

if [ "$(id -u)" != 0 ]; then
	echo "setup.sh: must run as root" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# run-vm.sh boots with its own tiny initramfs, so skip initramfs-tools' slow
# per-kernel initrd generation. INITRD=Yes restores it (e.g. on a machine
# that should boot these kernels itself).
export INITRD=${INITRD:-No}

host_pkgs=(qemu-system-x86 busybox-static dkms kmod iproute2 python3-scapy
	python3-pytest libnl-3-dev libnl-genl-3-dev libcmocka-dev pkg-config
	sparse make gcc procps tcpdump ethtool iputils-ping nftables util-linux
	# the unit tests and test_53_metrics.py parse seg6ctl's Prometheus output
	python3-prometheus-client
	# run-vm.sh: unpack .ko.xz modules and the kernel image (6.1 xz, 6.12 zstd)
	xz-utils zstd)
# Installed, never started on this host: the FRR lab (test_80_frr.py) runs
# zebra and bgpd in the guest's namespaces only. Debian's frr package
# enables and starts frr.service when it is installed: see install_quietly.
quiet_pkgs=(frr)

log() { echo "setup.sh: $*" >&2; }

# --- apt sources ------------------------------------------------------------
apt_sources=(/etc/apt/sources.list /etc/apt/sources.list.d/*.list
	/etc/apt/sources.list.d/*.sources)

have_backports() {
	grep -qsE '^[^#]*[[:space:]]bookworm-backports([[:space:]]|$)' "${apt_sources[@]}"
}

# The mirror URI already used for bookworm (one-line or deb822 format), so
# backports come from the same place as everything else.
bookworm_mirror() {
	{
		awk '$1 == "deb" { sub(/\[[^]]*\] */, ""); if ($3 == "bookworm") print $2 }' \
			/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null
		awk 'BEGIN { RS = "" } {
			uri = ""; ok = 0
			n = split($0, l, "\n")
			for (i = 1; i <= n; i++) {
				if (l[i] ~ /^URIs:/) { split(l[i], f, " "); uri = f[2] }
				if (l[i] ~ /^Suites:/ && l[i] ~ /[ \t]bookworm([ \t]|$)/) ok = 1
			}
			if (ok && uri != "") print uri
		}' /etc/apt/sources.list.d/*.sources 2>/dev/null
	} | head -n 1
}

need_update=0
if ! have_backports; then
	mirror=$(bookworm_mirror)
	if [ -z "$mirror" ]; then
		log "no bookworm entry in the apt sources; add bookworm-backports by hand"
		exit 1
	fi
	opt=""
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -r "$keyring" ] && opt="[signed-by=$keyring] "
	echo "deb ${opt}${mirror} bookworm-backports main" \
		>/etc/apt/sources.list.d/bookworm-backports.list
	log "added bookworm-backports ($mirror)"
	need_update=1
fi

# --- which kernel packages ---------------------------------------------------
# Prints "linux-image-X linux-headers-X" pairs; empty if the apt lists can't
# tell (never updated). Works offline from the current lists. The metapackage
# linux-image-amd64 names the concrete ABI package: take its highest 6.1.x
# version from bookworm/bookworm-security and its highest 6.12.x from
# bookworm-backports (bookworm-security also carries 6.12 builds; we stick
# to backports). Two apt-cache calls: each costs ~1 s on Docker-style hosts
# without a pkgcache.
kernel_pkgs() {
	local k v versions args=()
	if [ -n "${SEG6X_KERNELS:-}" ]; then
		for k in $SEG6X_KERNELS; do echo "linux-image-$k linux-headers-$k"; done
		return
	fi
	versions=$(apt-cache madison linux-image-amd64 2>/dev/null | awk -F'|' '
		{ gsub(/ /, "", $2) }
		$2 ~ /^6\.1\./ && $3 ~ / bookworm(-security|-updates)?\// { print "a " $2 }
		$2 ~ /^6\.12\./ && $3 ~ / bookworm-backports\// { print "b " $2 }' |
		sort -k1,1 -k2V | awk '{ v[$1] = $2 } END { for (s in v) print v[s] }')
	for v in $versions; do args+=("linux-image-amd64=$v"); done
	[ ${#args[@]} -gt 0 ] || return 0
	apt-cache depends "${args[@]}" 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-6\.1(\.0-[0-9]+|2\.[0-9]+\+deb12)-amd64$/ {
			h = $2; sub(/^linux-image-/, "linux-headers-", h); print $2, h }'
}

# Prints the packages from "$@" that aren't installed.
not_installed() {
	local p installed
	# (dpkg-query fails for names it has never heard of; that's "missing")
	installed=$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "$@" 2>/dev/null |
		awk '$2 == "ii" { print $1 }' || true)
	for p in "$@"; do
		grep -qxF "$p" <<<"$installed" || echo "$p"
	done
}

missing_pkgs() {
	local kpkgs
	kpkgs=$(kernel_pkgs)
	# Expect both kernels unless the caller chose them.
	if [ -z "${SEG6X_KERNELS:-}" ] && [ "$(wc -w <<<"$kpkgs")" -lt 4 ]; then
		echo "?unresolved-kernels"
	fi
	# shellcheck disable=SC2086
	not_installed "${host_pkgs[@]}" "${quiet_pkgs[@]}" $kpkgs
}

# apt-get install "$@" with no service started: a policy-rc.d that says
# 101 ("action not allowed") to invoke-rc.d while it runs (any existing
# one is put back afterwards), then frr.service disabled, stopped and
# masked so that no boot starts it either.
install_quietly() {
	local guard=/usr/sbin/policy-rc.d saved=/usr/sbin/policy-rc.d.seg6x-saved
	[ -e "$guard" ] && mv "$guard" "$saved"
	printf '#!/bin/sh\n# tests/vm/setup.sh: no service starts during its install\nexit 101\n' >"$guard"
	chmod 0755 "$guard"
	# shellcheck disable=SC2064
	trap "rm -f '$guard'; [ -e '$saved' ] && mv '$saved' '$guard'" EXIT
	apt-get install -y -qq --no-install-recommends "$@"
	rm -f "$guard"
	[ -e "$saved" ] && mv "$saved" "$guard"
	trap - EXIT
	systemctl disable --now frr.service >/dev/null 2>&1 ||
		systemctl disable frr.service >/dev/null 2>&1 || true
	systemctl mask frr.service >/dev/null 2>&1 || true
	if pgrep -x zebra >/dev/null || pgrep -x bgpd >/dev/null; then
		log "warning: FRR daemons run on this host (not started by setup.sh)"
	fi
}

missing=$(missing_pkgs)
if [ -z "$missing" ] && [ "$need_update" = 0 ]; then
	log "nothing to do"
	exit 0
fi

# Something is missing: refresh the lists (and re-resolve the kernels, which
# may have moved on) before installing.
log "apt-get update"
apt-get update -qq
missing=$(missing_pkgs)
if grep -qxF '?unresolved-kernels' <<<"$missing"; then
	log "cannot resolve the 6.1 and 6.12 kernel packages from apt:"
	kernel_pkgs >&2
	exit 1
fi
quiet=$(grep -xF "${quiet_pkgs[@]/#/-e}" <<<"$missing" || true)
missing=$(grep -vxF "${quiet_pkgs[@]/#/-e}" <<<"$missing" || true)
if [ -n "$missing" ]; then
	log "installing: ${missing//$'\n'/ }"
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing
fi
if [ -n "$quiet" ]; then
	log "installing, never started here: ${quiet//$'\n'/ }"
	# shellcheck disable=SC2086
	install_quietly $quiet
fi
log "kernels for the VM tests:"
"$(dirname "${BASH_SOURCE[0]}")/kernels.sh" >&2
