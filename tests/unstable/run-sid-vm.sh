#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-sid-vm.sh - run the seg6x VM test suite on Debian sid's 7.x kernel.
#
# An experiment, not part of CI. Steps (each is skipped when already done):
#   1. build-sid.sh: sid chroot + seg6x.ko built against sid's headers.
#   2. In the chroot, `apt-get download` linux-image-$KVER and the split
#      packages that carry the kernel (linux-base-, linux-binary-,
#      linux-modules-$KVER) into $ROOT/debs.
#   3. `dpkg -x` them into a staging dir on the host, then copy the module
#      tree to /lib/modules/$KVER and the kernel and config to
#      /boot/{vmlinuz,config}-$KVER. dpkg -i is never used: the host gets
#      files for a kernel it never runs, nothing else.
#   4. Install the chroot-built seg6x.ko as
#      /lib/modules/$KVER/updates/dkms/seg6x.ko (where the suite expects the
#      DKMS module), then `depmod -b / $KVER`.
#   5. tests/vm/run-vm.sh $KVER -t $TIMEOUT -o $OUT -- tests/vm/guest-tests.sh
#
# Nothing is loaded into the host kernel and no host sysctl is touched: the
# module is only ever loaded inside the qemu guest.
#
# usage: run-sid-vm.sh [PYTEST_ARGS...]    run steps 1-5
#        run-sid-vm.sh --remove            delete what step 3/4 put on the host
# environment:
#   SEG6X_SID_ROOT     chroot (default /var/cache/seg6x-sid), as build-sid.sh
#   SEG6X_SID_KVER     kernel release (default: the one linux-headers-amd64
#                      in the chroot points at, as build-sid.sh)
#   SEG6X_SID_STAGE    dpkg -x staging dir (default /var/cache/seg6x-sid-stage)
#   SEG6X_SID_OUT      run-vm.sh -o dir   (default /var/tmp/seg6x-sid-vm)
#   SEG6X_SID_TIMEOUT  guest timeout, s   (default 1500)
#   SEG6X_SID_NOBUILD  1: skip build-sid.sh, reuse the chroot's last seg6x.ko
# Exit status: run-vm.sh's (the suite's), or 1 when preparation fails.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
ROOT=${SEG6X_SID_ROOT:-/var/cache/seg6x-sid}
STAGE=${SEG6X_SID_STAGE:-/var/cache/seg6x-sid-stage}
OUT=${SEG6X_SID_OUT:-/var/tmp/seg6x-sid-vm}
TIMEOUT=${SEG6X_SID_TIMEOUT:-1500}
STAMP_NAME=.seg6x-sid-installed		# in /lib/modules/$KVER

die() { echo "run-sid-vm: $*" >&2; exit 1; }
say() { echo "run-sid-vm: $*"; }

[ "$(id -u)" = 0 ] || die "must run as root"
case "$ROOT" in /|"") die "refusing SEG6X_SID_ROOT='$ROOT'";; esac
case "$STAGE" in /|"") die "refusing SEG6X_SID_STAGE='$STAGE'";; esac

in_root() { chroot "$ROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

kver_from_chroot() {
	[ -e "$ROOT/.seg6x-toolchain" ] || return 0
	in_root dpkg-query -W -f '${Depends}' linux-headers-amd64 2>/dev/null |
		sed -n 's/.*linux-headers-\([^ ,]*-amd64\).*/\1/p'
}

# Refuses to touch a kernel the host runs or one dpkg installed.
check_ours() {
	[ "$(uname -r)" != "$KVER" ] || die "the host runs $KVER; refusing to touch it"
	local moddir=/lib/modules/$KVER
	if [ -d "$moddir" ] && [ ! -e "$moddir/$STAMP_NAME" ] &&
		[ ! -e "$moddir/$STAMP_NAME.partial" ]; then
		die "$moddir exists but was not installed by this script; leaving it alone"
	fi
	if dpkg-query -S "/boot/vmlinuz-$KVER" >/dev/null 2>&1; then
		die "/boot/vmlinuz-$KVER belongs to a dpkg package; leaving it alone"
	fi
}

# ---- --remove ----------------------------------------------------------------
if [ "${1:-}" = --remove ]; then
	KVER=${SEG6X_SID_KVER:-$(kver_from_chroot)}
	[ -n "$KVER" ] || die "cannot tell the kernel version; set SEG6X_SID_KVER"
	check_ours
	say "removing /lib/modules/$KVER, /boot/{vmlinuz,config}-$KVER, $STAGE"
	rm -rf --one-file-system "/lib/modules/$KVER" "$STAGE"
	rm -f "/boot/vmlinuz-$KVER" "/boot/config-$KVER"
	rm -rf "$TOP/build/vm/$KVER"
	exit 0
fi

# ---- 1. chroot and seg6x.ko ----------------------------------------------------
if [ "${SEG6X_SID_NOBUILD:-0}" != 1 ]; then
	"$HERE/build-sid.sh"
fi
KO=$ROOT/build/seg6x/module/seg6x.ko
[ -f "$KO" ] || die "no $KO (run build-sid.sh)"
KVER=${SEG6X_SID_KVER:-$(kver_from_chroot)}
[ -n "$KVER" ] || die "cannot tell the kernel version; set SEG6X_SID_KVER"
case "$(in_root modinfo -F vermagic /build/seg6x/module/seg6x.ko)" in
"$KVER "*) ;;
*) die "$KO was not built for $KVER" ;;
esac
check_ours

# ---- 2. the kernel packages ------------------------------------------------------
IMAGE=linux-image-$KVER
# In 7.2 linux-image-$KVER is a metapackage; the files are in these.
PKGS="$IMAGE $(in_root apt-cache show --no-all-versions "$IMAGE" |
	sed -n 's/^Depends: //p' | tr ',|' '\n\n' | sed 's/(.*//; s/ //g' |
	grep -xF -e "linux-base-$KVER" -e "linux-binary-$KVER" -e "linux-modules-$KVER" |
	sort -u | tr '\n' ' ')" ||
	die "apt in the chroot does not know $IMAGE (try SEG6X_SID_REFRESH=1 build-sid.sh)"
VERSION=$(in_root apt-cache show --no-all-versions "$IMAGE" | sed -n 's/^Version: //p')
DEBS=""
mkdir -p "$ROOT/debs"
for p in $PKGS; do
	deb=$(ls "$ROOT/debs/${p}_${VERSION}_"*.deb 2>/dev/null | head -n 1 || true)
	if [ -z "$deb" ]; then
		say "apt-get download $p=$VERSION"
		in_root sh -c "cd /debs && apt-get -q download '$p=$VERSION'"
		deb=$(ls "$ROOT/debs/${p}_${VERSION}_"*.deb | head -n 1)
	fi
	DEBS="$DEBS $deb"
done
say "kernel $KVER from $VERSION: $PKGS"

# ---- 3. kernel and modules onto the host -----------------------------------------
# shellcheck disable=SC2086 # $DEBS: paths without blanks, one word each
STAMP="$VERSION $(cat $DEBS | md5sum | cut -c1-16)"
MODDIR=/lib/modules/$KVER
changed=0
if [ "$(cat "$MODDIR/$STAMP_NAME" 2>/dev/null || true)" != "$STAMP" ] ||
	[ ! -s "/boot/vmlinuz-$KVER" ]; then
	say "dpkg -x into $STAGE"
	rm -rf --one-file-system "$STAGE"
	mkdir -p "$STAGE"
	for d in $DEBS; do dpkg -x "$d" "$STAGE"; done
	src=$STAGE/usr/lib/modules/$KVER
	[ -s "$src/vmlinuz" ] && [ -f "$src/config" ] && [ -d "$src/kernel" ] ||
		die "the packages lack vmlinuz, config or kernel/ under usr/lib/modules/$KVER"
	say "installing $MODDIR and /boot/{vmlinuz,config}-$KVER"
	rm -rf --one-file-system "$MODDIR"
	mkdir -p "$MODDIR"
	touch "$MODDIR/$STAMP_NAME.partial"
	cp -a "$src/." "$MODDIR/"
	install -m 644 "$src/vmlinuz" "/boot/vmlinuz-$KVER"
	# run-vm.sh looks for CONFIG_PVH in /boot/config-KVER; 7.2 ships the
	# config only in /usr/lib/modules/KVER/config.
	install -m 644 "$src/config" "/boot/config-$KVER"
	echo "$STAMP" >"$MODDIR/$STAMP_NAME"
	rm -f "$MODDIR/$STAMP_NAME.partial"
	changed=1
fi

# ---- 4. seg6x.ko where the suite expects the DKMS module ------------------------
DST=$MODDIR/updates/dkms/seg6x.ko
if ! cmp -s "$KO" "$DST"; then
	say "installing $DST"
	install -D -m 644 "$KO" "$DST"
	changed=1
fi
if [ "$changed" = 1 ] || [ ! -s "$MODDIR/modules.dep" ]; then
	say "depmod -b / $KVER"
	depmod -b / "$KVER"
fi
[ "$(modinfo -k "$KVER" -n seg6x)" = "$DST" ] || die "modinfo -k $KVER does not find $DST"

# ---- 5. the suite in a VM ------------------------------------------------------------
mkdir -p "$OUT"
say "tests/vm/run-vm.sh $KVER -t $TIMEOUT -o $OUT -- tests/vm/guest-tests.sh $*"
cd "$TOP"
set +e
tests/vm/run-vm.sh "$KVER" -t "$TIMEOUT" -o "$OUT" -- tests/vm/guest-tests.sh "$@"
rc=$?
set -e
say "exit status $rc; guest output, dmesg and junit XML in $OUT"
exit "$rc"
