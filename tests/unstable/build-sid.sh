#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-sid.sh - build seg6x against Debian sid's kernel headers (7.x).
#
# sid's headers need gcc-16, a sid linux-kbuild and glibc >= 2.38, none of
# which a bookworm host has, so the build runs in a debootstrap'd sid
# chroot. Idempotent: the chroot is created (and the compiler and headers
# installed) only when missing; every run copies module/, uapi/ and VERSION
# afresh and builds them. Nothing is loaded into any kernel.
#
# usage: build-sid.sh [PATCH]
#   PATCH  optional -p1 patch (paths a/module/..., a/uapi/...) applied to the
#          copy inside the chroot only; the source tree is never touched.
# environment:
#   SEG6X_SID_ROOT     chroot directory       (default /var/cache/seg6x-sid)
#   SEG6X_SID_MIRROR   Debian mirror          (default http://deb.debian.org/debian)
#   SEG6X_SID_REFRESH  1: apt-get update/upgrade the chroot first
#   SEG6X_SID_KVER     header version to use  (default: linux-headers-amd64's)
#   SEG6X_JOBS         make -j                (default 2)
#
# Exit status: 0 only if the module builds, modpost reports nothing, and the
# .ko's vermagic names the header version.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
ROOT=${SEG6X_SID_ROOT:-/var/cache/seg6x-sid}
MIRROR=${SEG6X_SID_MIRROR:-http://deb.debian.org/debian}
JOBS=${SEG6X_JOBS:-2}
PATCH=${1:-}
BUILD=/build/seg6x			# inside the chroot
LOG=$ROOT$BUILD.log

die() { echo "build-sid: $*" >&2; exit 1; }
say() { echo "build-sid: $*"; }

[ "$(id -u)" = 0 ] || die "must run as root (debootstrap, chroot)"
case "$ROOT" in /|"") die "refusing SEG6X_SID_ROOT='$ROOT'";; esac
[ -z "$PATCH" ] || PATCH=$(readlink -f "$PATCH")
[ -z "$PATCH" ] || [ -r "$PATCH" ] || die "cannot read patch $PATCH"

in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

# ---- 1. the chroot --------------------------------------------------------
if [ ! -e "$ROOT/.seg6x-bootstrapped" ]; then
	if [ -e "$ROOT" ]; then
		findmnt -rno TARGET | grep -q "^$ROOT" &&
			die "$ROOT is half-built and has mounts; unmount them first"
		say "removing incomplete $ROOT"
		rm -rf --one-file-system "$ROOT"
	fi
	command -v debootstrap >/dev/null || apt-get install -y debootstrap
	say "debootstrap sid into $ROOT (a few minutes)"
	debootstrap --variant=minbase sid "$ROOT" "$MIRROR"
	touch "$ROOT/.seg6x-bootstrapped"
fi

cleanup() { if mountpoint -q "$ROOT/proc"; then umount "$ROOT/proc"; fi; }
trap cleanup EXIT
mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"

# ---- 2. compiler and headers ----------------------------------------------
if [ ! -e "$ROOT/.seg6x-toolchain" ] || [ "${SEG6X_SID_REFRESH:-0}" = 1 ]; then
	say "installing make, gcc, kmod and linux-headers-amd64 in the chroot"
	# The mirror this was written against serves a sid snapshot whose
	# Release file is past Valid-Until; the signature is still checked.
	echo 'Acquire::Check-Valid-Until "false";' \
		> "$ROOT/etc/apt/apt.conf.d/90seg6x-no-valid-until"
	in_root apt-get update
	in_root apt-get install -y --no-install-recommends \
		make gcc kmod patch linux-headers-amd64
	[ "${SEG6X_SID_REFRESH:-0}" = 1 ] && in_root apt-get -y dist-upgrade
	touch "$ROOT/.seg6x-toolchain"
fi

KVER=${SEG6X_SID_KVER:-$(in_root dpkg-query -W -f '${Depends}' linux-headers-amd64 |
	sed -n 's/.*linux-headers-\([^ ,]*-amd64\).*/\1/p')}
KDIR=/usr/src/linux-headers-$KVER
[ -n "$KVER" ] && [ -f "$ROOT$KDIR/Makefile" ] || die "no headers for '$KVER' in $ROOT"
say "kernel headers: $KVER ($(in_root dpkg-query -W -f '${Version}' "linux-headers-$KVER"))"
say "compiler: $(sed -n 's/^CONFIG_CC_VERSION_TEXT=//p' "$ROOT$KDIR/.config")"

# ---- 3. a fresh copy of the sources ----------------------------------------
rm -rf --one-file-system "$ROOT$BUILD"
mkdir -p "$ROOT$BUILD"
tar -C "$TOP" --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
	--exclude='*.mod.c' --exclude='.*.cmd' --exclude='Module.symvers' \
	--exclude='modules.order' --exclude='.*.d' \
	-cf - module uapi VERSION | tar -C "$ROOT$BUILD" -xf -
if [ -n "$PATCH" ]; then
	say "applying $PATCH to the copy"
	patch -d "$ROOT$BUILD" -p1 --no-backup-if-mismatch < "$PATCH"
fi

# ---- 4. build ----------------------------------------------------------------
say "make -C $KDIR M=$BUILD/module modules (log: $LOG)"
set +e
in_root make -C "$KDIR" M="$BUILD/module" -j"$JOBS" modules 2>&1 | tee "$LOG"
rc=${PIPESTATUS[0]}
set -e
[ "$rc" = 0 ] || die "build FAILED (make exit $rc), see $LOG"

KO=$ROOT$BUILD/module/seg6x.ko
[ -f "$KO" ] || die "no seg6x.ko produced"
if grep -E 'WARNING: modpost|ERROR: modpost|undefined!' "$LOG"; then
	die "modpost complained (above)"
fi
vermagic=$(in_root modinfo -F vermagic "$BUILD/module/seg6x.ko")
say "vermagic: $vermagic"
case "$vermagic" in "$KVER "*) ;; *) die "vermagic does not start with $KVER";; esac
in_root modinfo "$BUILD/module/seg6x.ko" | grep -E '^(version|license|depends|name|vermagic):'
say "OK: seg6x.ko builds and links against $KVER"
