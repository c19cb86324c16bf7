#!/bin/bash
# tests/debug/build-kernel.sh: makes sure the seg6x debug kernel is installed
# and prints its release (KVER) on stdout; everything else goes to stderr.
#
# The kernel is Debian's own 6.12 source (the linux-source-6.12 package),
# configured from x86_64 defconfig + kvm_guest.config + debug.config, and
# packaged with `make bindeb-pkg`. Work happens in $SEG6X_DEBUG_CACHE
# (default /var/cache/seg6x-debug):
#   src/       linux-source-6.12_*.deb as downloaded
#   build/     the kernel tree (kept: later config changes rebuild incrementally)
#   debs/      linux-image-KVER and linux-headers-KVER .debs
#   headers/KVER/  the headers .deb unpacked: KDIR for out-of-tree builds
#   build-time.txt  how long the last build took
#
# Steps, each skipped when its result is already there:
#   1. an installed /boot/vmlinuz-*-seg6x-debug whose /boot/config has every
#      option of debug.config, with modules.dep and unpacked headers: done;
#   2. else a cached linux-image .deb with such a config: install it;
#   3. else download the source, build (nice -n 19, -j$SEG6X_DEBUG_JOBS or 2,
#      outside any lock), install.
# Only the linux-image package is installed (dpkg -i, under
# /tmp/seg6x-vm.lock). It is built with its /etc/kernel hooks pointed at an
# empty directory, so installing it builds no initramfs and runs no DKMS;
# its headers are not installed in /lib/modules/KVER/build either, so DKMS
# (e.g. when seg6x-dkms is installed) leaves this kernel alone.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
fragment=$here/debug.config
cache=${SEG6X_DEBUG_CACHE:-/var/cache/seg6x-debug}
jobs=${SEG6X_DEBUG_JOBS:-2}
lock=/tmp/seg6x-vm.lock
suffix=seg6x-debug
# Hooks of the kernel package: a directory that has no hooks.
hookdir=/usr/lib/seg6x-debug/kernel-hooks

log() { echo "build-kernel: $*" >&2; }
die() { log "$*"; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (installs the kernel package)"

# config_ok CONFIG_FILE: every option set or unset in debug.config is so in
# CONFIG_FILE (comments and blank lines of the fragment don't matter).
config_ok() {
	awk '
	FNR == NR {
		if (match($0, /^CONFIG_[A-Za-z0-9_]+=/)) {
			k = substr($0, 1, RLENGTH - 1); want[k] = substr($0, RLENGTH + 1)
		} else if (match($0, /^# CONFIG_[A-Za-z0-9_]+ is not set/)) {
			want[$2] = "n"
		}
		next
	}
	/^CONFIG_/ { i = index($0, "="); have[substr($0, 1, i - 1)] = substr($0, i + 1) }
	END {
		bad = 0
		for (k in want) {
			h = (k in have) ? have[k] : "n"
			if (h != want[k]) { print k " wanted " want[k] ", got " h > "/dev/stderr"; bad = 1 }
		}
		exit bad
	}' "$fragment" "$1"
}

# headers_dir KVER: KDIR for out-of-tree builds against KVER.
headers_dir() { echo "$cache/headers/$1/usr/src/linux-headers-$1"; }

installed_ok() {
	local k=$1
	[ -r "/boot/vmlinuz-$k" ] && [ -r "/lib/modules/$k/modules.dep" ] &&
		[ -r "$(headers_dir "$k")/Makefile" ] &&
		config_ok "/boot/config-$k" 2>/dev/null
}

# unpack_headers KVER: the headers .deb, unpacked into the cache.
unpack_headers() {
	local k=$1 deb
	[ -r "$(headers_dir "$k")/Makefile" ] && return 0
	deb=$(compgen -G "$cache/debs/linux-headers-${k}_*.deb" | sort -V | tail -n 1) ||
		die "no linux-headers-$k .deb in $cache/debs"
	rm -rf "$cache/headers/$k"
	mkdir -p "$cache/headers/$k"
	dpkg-deb -x "$deb" "$cache/headers/$k"
}

# install_image KVER: installs the cached image .deb and unpacks the headers.
install_image() {
	local k=$1 deb
	deb=$(compgen -G "$cache/debs/linux-image-${k}_*.deb" | sort -V | tail -n 1) ||
		die "no linux-image-$k .deb in $cache/debs"
	log "installing $(basename "$deb")"
	flock "$lock" dpkg -i "$deb" >&2
	unpack_headers "$k"
	installed_ok "$k" || die "$k installed but incomplete (see above)"
}

# 1. Installed already?
for img in $(compgen -G "/boot/vmlinuz-*-$suffix" | sort -Vr); do
	k=${img#/boot/vmlinuz-}
	if [ -r "/lib/modules/$k/modules.dep" ] && config_ok "/boot/config-$k" 2>/dev/null; then
		unpack_headers "$k"
		if installed_ok "$k"; then
			log "using installed $k"
			echo "$k"
			exit 0
		fi
	fi
done

# 2. A cached package whose configuration fits?
for deb in $(compgen -G "$cache/debs/linux-image-*-${suffix}_*.deb" | sort -Vr); do
	k=$(dpkg-deb -f "$deb" Package)
	k=${k#linux-image-}
	if dpkg-deb --fsys-tarfile "$deb" | tar -xO "./boot/config-$k" >"$cache/.config-check" 2>/dev/null &&
		config_ok "$cache/.config-check" 2>/dev/null; then
		rm -f "$cache/.config-check"
		install_image "$k"
		echo "$k"
		exit 0
	fi
done
rm -f "$cache/.config-check"

# 3. Build.
log "building the debug kernel (nice -n 19, -j$jobs); this takes a while"
missing=()
# The Build-Depends of the source package bindeb-pkg generates
# (scripts/package/mkdebian; dpkg-buildpackage refuses to start without
# them, debhelper included), and what the build itself runs.
for p in build-essential debhelper bc bison flex libelf-dev libssl-dev cpio \
	kmod rsync dpkg-dev fakeroot xz-utils python3; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	log "installing build dependencies: ${missing[*]}"
	apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 ||
		{ apt-get update -q >&2 && apt-get install -y -q --no-install-recommends "${missing[@]}" >&2; } ||
		die "cannot install ${missing[*]}"
fi

mkdir -p "$cache/src" "$cache/debs" "$cache/build"
srcdeb=$(compgen -G "$cache/src/linux-source-6.12_*.deb" | sort -V | tail -n 1 || true)
if [ -z "$srcdeb" ]; then
	log "downloading linux-source-6.12"
	(cd "$cache/src" && apt-get download linux-source-6.12 >&2) ||
		{ apt-get update -q >&2 && (cd "$cache/src" && apt-get download linux-source-6.12 >&2); } ||
		die "cannot download linux-source-6.12 (bookworm-backports or -security)"
	srcdeb=$(compgen -G "$cache/src/linux-source-6.12_*.deb" | sort -V | tail -n 1)
fi
srcver=$(dpkg-deb -f "$srcdeb" Version)
tree=$cache/build/linux-source-6.12
if [ ! -r "$tree/.seg6x-source" ] || [ "$(cat "$tree/.seg6x-source")" != "$srcver" ]; then
	log "unpacking linux-source-6.12 $srcver"
	rm -rf "$tree"
	dpkg-deb --fsys-tarfile "$srcdeb" | tar -xO ./usr/src/linux-source-6.12.tar.xz |
		tar -xJ -C "$cache/build"
	echo "$srcver" >"$tree/.seg6x-source"
fi

cd "$tree"
start=$(date +%s)
make -s defconfig >&2
make -s kvm_guest.config >&2
scripts/kconfig/merge_config.sh -m .config "$fragment" >/dev/null
make -s olddefconfig >&2
config_ok .config || die "debug.config asks for options this kernel cannot have (above)"
# Before the first build `make kernelrelease` does not know LOCALVERSION
# yet (it reads include/config/auto.conf): compose it from .config.
kver=$(make -s kernelversion)$(sed -n 's/^CONFIG_LOCALVERSION="\(.*\)"$/\1/p' .config)
log "KVER $kver (Debian source $srcver)"

rm -f "$cache/build"/*.deb "$cache/build"/*.buildinfo "$cache/build"/*.changes
nice -n 19 make -j"$jobs" bindeb-pkg KDEB_HOOKDIR="$hookdir" \
	KDEB_PKGVERSION="$srcver-seg6x1" >"$cache/build.log" 2>&1 || {
	tail -n 40 "$cache/build.log" >&2
	die "kernel build failed; log: $cache/build.log"
}
end=$(date +%s)
[ "$(make -s kernelrelease)" = "$kver" ] || die "built $(make -s kernelrelease), expected $kver"
secs=$((end - start))
printf '%s: %s built in %d min %d s (make -j%s, nice -n 19, %s cores)\n' \
	"$(date -u +%Y-%m-%dT%H:%MZ)" "$kver" $((secs / 60)) $((secs % 60)) "$jobs" "$(nproc)" \
	| tee -a "$cache/build-time.txt" >&2

rm -f "$cache/debs/linux-image-${kver}"_*.deb "$cache/debs/linux-headers-${kver}"_*.deb
mv "$cache/build/linux-image-${kver}"_*.deb "$cache/build/linux-headers-${kver}"_*.deb "$cache/debs/"
# linux-libc-dev of this build would replace the system's: never install it.
rm -f "$cache/build"/*.deb "$cache/build"/*.buildinfo "$cache/build"/*.changes
rm -rf "$cache/headers/$kver"
install_image "$kver"
echo "$kver"
