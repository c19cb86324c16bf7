#!/bin/bash
# test-packages.sh [--no-restore] — the Debian packages, end to end. As root:
#   1. installs the build dependencies (debhelper, dh-dkms, lintian, ...)
#   2. builds seg6x-dkms and seg6ctl with dpkg-buildpackage from a copy of
#      the working tree (uncommitted changes included)
#   3. lintian -EI on the .changes: any E: or W: line fails
#   4. installs both packages on this machine: DKMS builds the module for
#      every installed kernel with headers (never loaded into this one),
#      also when the running kernel has no headers;
#      checks dkms status and /lib/modules/K/updates/dkms/seg6x.ko* for
#      each test kernel (tests/vm/kernels.sh)
#   5. boots each test kernel in the VM: plain "modprobe seg6x" loads the
#      DKMS-built module, the packaged seg6ctl talks to it, the if-up hooks
#      bring routes back after the interface went down (guest-pkg.sh)
#   6. purges both packages and checks that the module is gone from every
#      kernel
#   7. puts back the developer's DKMS install (make dkms-install) for each
#      test kernel if there was one before, unless --no-restore
#      (make check installs it right after).
# Prints "packages: passed" or what failed; exits non-zero on any failure.
# SEG6X_VM_LOCK=FILE: hold flock(1) on FILE from installing to restoring,
# when other users share this machine's DKMS state and VMs.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
repo=$(pwd)

restore=1
case ${1:-} in
--no-restore) restore=0 ;;
"") ;;
*) echo "usage: $0 [--no-restore]" >&2; exit 2 ;;
esac
[ "$(id -u)" = 0 ] || { echo "test-packages.sh: run as root" >&2; exit 2; }

export DEBIAN_FRONTEND=noninteractive
version=$(cat VERSION)
mapfile -t kernels < <(tests/vm/kernels.sh)
[ ${#kernels[@]} -gt 0 ] || { echo "test-packages.sh: no test kernels" >&2; exit 1; }

failures=()
fail() { echo "FAIL: $*" >&2; failures+=("$*"); }
info() { printf -- '-- %s\n' "$*"; }

work=$(mktemp -d /tmp/seg6x-pkg.XXXXXX)
finish() {
	if [ ${#failures[@]} -eq 0 ]; then
		echo "packages: passed"
		rm -rf "$work"
		exit 0
	fi
	echo "packages: FAILED (${#failures[@]}: ${failures[*]}); logs in $work"
	exit 1
}

# --- 1. build dependencies -----------------------------------------------
build_deps=(build-essential fakeroot debhelper dh-dkms lintian dkms pkgconf
	libnl-3-dev libnl-genl-3-dev libcmocka-dev python3-prometheus-client)
missing=()
for p in "${build_deps[@]}"; do
	dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^ii' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	info "installing ${missing[*]}"
	if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >"$work/apt.log" 2>&1; then
		apt-get update -q >>"$work/apt.log" 2>&1
		apt-get install -y -q --no-install-recommends "${missing[@]}" >>"$work/apt.log" 2>&1 ||
			{ fail "apt-get install ${missing[*]}"; tail -n 20 "$work/apt.log" >&2; finish; }
	fi
fi

# --- 2. build ------------------------------------------------------------
# A copy of the working tree without VCS data and build products.
info "dpkg-buildpackage -b -us -uc (log: $work/build.log)"
mkdir "$work/src"
tar -C "$repo" --exclude=./.git --exclude=./build --exclude='*.o' --exclude='*.ko' \
	--exclude='*.mod' --exclude='*.mod.c' --exclude='.*.cmd' \
	--exclude=Module.symvers --exclude=modules.order \
	--exclude=./debian/seg6x-dkms --exclude=./debian/seg6ctl \
	--exclude=./debian/.debhelper --exclude=./debian/files -cf - . |
	tar -C "$work/src" -xf -
if ! (cd "$work/src" && dpkg-buildpackage -b -us -uc) >"$work/build.log" 2>&1; then
	fail "dpkg-buildpackage"
	tail -n 30 "$work/build.log" >&2
	finish
fi
changes=$(echo "$work"/seg6x_"$version"_*.changes)
deb_dkms=$work/seg6x-dkms_${version}_all.deb
deb_ctl=$(echo "$work"/seg6ctl_"$version"_*.deb)
for f in "$changes" "$deb_dkms" "$deb_ctl"; do
	[ -f "$f" ] || { fail "not built: $f"; finish; }
done
grep -qE '^\[ +OK +\]' "$work/build.log" || fail "the unit tests did not run at package build"

# --- 3. lintian -----------------------------------------------------------
info "lintian -EI $(basename "$changes")"
lintian -EI "$changes" 2>/dev/null | tee "$work/lintian.log"
if grep -qE '^[EW]: ' "$work/lintian.log"; then
	fail "lintian reported errors or warnings"
fi

# --- 4..7: this machine's DKMS and packages, and the VM --------------------
if [ -n "${SEG6X_VM_LOCK:-}" ]; then
	exec 9>>"$SEG6X_VM_LOCK"
	info "waiting for $SEG6X_VM_LOCK"
	flock 9
fi

# Installed, half-installed or with conffiles left ("rc"): anything but
# "not installed".
pkg_installed() {
	local st
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null)
	[ -n "$st" ] && [ "${st:1:1}" != n ]
}

# Start clean: a previous run's packages, any DKMS registration of seg6x
# (the developer's "make dkms-install") and its sources in /usr/src.
had_dev=0
for p in seg6ctl seg6x-dkms; do
	if pkg_installed "$p"; then
		info "purging $p left over from an earlier run"
		dpkg -P "$p" >>"$work/dpkg.log" 2>&1 || fail "dpkg -P $p (leftover)"
	fi
done
for v in $(dkms status -m seg6x 2>/dev/null | sed -n 's|^seg6x/\([^,:]*\)[,:].*|\1|p' | sort -u); do
	had_dev=1
	info "removing the DKMS install seg6x/$v"
	dkms remove "seg6x/$v" --all >>"$work/dkms.log" 2>&1 || fail "dkms remove seg6x/$v"
done
if [ -d "/usr/src/seg6x-$version" ]; then
	had_dev=1
	rm -rf "/usr/src/seg6x-$version"
fi

# Modules DKMS does not know of (a hand-made "make install", a debug
# kernel's own build) are not the packages' to remove: note them, leave
# them, and judge the purge only by what appeared after this point.
mapfile -t foreign < <(find /lib/modules -name 'seg6x.ko*' 2>/dev/null | sort)
if [ ${#foreign[@]} -gt 0 ]; then
	info "seg6x modules not managed by DKMS, left alone: ${foreign[*]}"
fi
is_foreign() {
	local f
	for f in "${foreign[@]}"; do
		[ "$f" = "$1" ] && return 0
	done
	return 1
}

# DKMS's own postinst builds for the running kernel and the newest one,
# or for every kernel when the running one has no /lib/modules directory
# (a chroot or container, such as CI). Give the running kernel an empty
# directory, as on a real host whose running kernel lacks headers: the
# installation must not fail, and seg6x-dkms's postinst must still build
# for every test kernel.
fake_kdir=""
if [ ! -e "/lib/modules/$(uname -r)" ]; then
	fake_kdir=/lib/modules/$(uname -r)
	mkdir "$fake_kdir"
	trap 'rmdir "$fake_kdir" 2>/dev/null' EXIT
fi

# As README.md says: apt install ./seg6x-dkms_*.deb ./seg6ctl_*.deb
info "apt-get install $(basename "$deb_dkms") $(basename "$deb_ctl")"
if apt-get install -y -q --no-install-recommends "$deb_dkms" "$deb_ctl" \
	>"$work/install.log" 2>&1; then
	grep -E 'Building (for|initial)|skipped|installed for|could not' "$work/install.log" | sed 's/^/   /'
else
	fail "apt-get install"
	cat "$work/install.log" >&2
fi

if [ -n "$fake_kdir" ]; then
	rmdir "$fake_kdir" || fail "$fake_kdir is not empty after the installation"
	trap - EXIT
fi

for k in "${kernels[@]}"; do
	st=$(dkms status -m seg6x -v "$version" -k "$k" 2>/dev/null)
	echo "   dkms status: ${st:-nothing for $k}"
	grep -q ': installed' <<<"$st" || fail "dkms status: seg6x not installed for $k"
	ko=$(compgen -G "/lib/modules/$k/updates/dkms/seg6x.ko*" | head -n 1)
	[ -n "$ko" ] || fail "no /lib/modules/$k/updates/dkms/seg6x.ko*"
	[ "$(modinfo -k "$k" -n seg6x 2>/dev/null)" = "$ko" ] ||
		fail "modinfo -k $k seg6x is not the DKMS module ($ko)"
	[ "$(modinfo -k "$k" -F version seg6x 2>/dev/null)" = "$version" ] ||
		fail "modinfo -k $k: version is not $version"
done
[ "$(/usr/sbin/seg6ctl -V 2>&1)" = "seg6ctl $version" ] || fail "/usr/sbin/seg6ctl -V"
hooks="/etc/network/if-up.d/seg6x /etc/networkd-dispatcher/carrier.d/50-seg6x
	/etc/networkd-dispatcher/degraded.d/50-seg6x
	/etc/networkd-dispatcher/routable.d/50-seg6x
	/etc/NetworkManager/dispatcher.d/50-seg6x"
units_metrics="/lib/systemd/system/seg6x-metrics.service
	/lib/systemd/system/seg6x-metrics.timer"
# shellcheck disable=SC2086 # word splitting of $hooks is wanted
for f in /usr/share/man/man7/seg6x.7.gz /usr/share/man/man8/seg6ctl.8.gz \
	/usr/share/bash-completion/completions/seg6ctl /lib/systemd/system/seg6x.service \
	/lib/systemd/system/seg6x@.service $units_metrics $hooks \
	/usr/share/doc/seg6ctl/examples/seg6x.conf; do
	[ -e "$f" ] || fail "not installed: $f"
done
# Installed disabled: nothing links to the units.
if compgen -G "/etc/systemd/system/*.wants/seg6x*" >/dev/null; then
	fail "a seg6x unit was enabled by the installation"
fi

for k in "${kernels[@]}"; do
	info "VM $k: modprobe seg6x, seg6ctl, if-up hooks"
	out=$work/vm-$k
	mkdir -p "$out"
	tests/vm/run-vm.sh "$k" -t "${SEG6X_PKG_VM_TIMEOUT:-300}" -o "$out" -- \
		tests/pkg/guest-pkg.sh "$version" 2>&1 | sed 's/^/   /'
	rc=${PIPESTATUS[0]}
	[ "$rc" = 0 ] || fail "VM checks on $k (exit $rc)"
done

info "apt-get purge seg6ctl seg6x-dkms"
apt-get purge -y -q seg6ctl seg6x-dkms >"$work/purge.log" 2>&1 ||
	{ fail "apt-get purge"; cat "$work/purge.log" >&2; }
[ -z "$(dkms status -m seg6x 2>/dev/null)" ] || fail "dkms still lists seg6x after purge"
while read -r f; do
	is_foreign "$f" || fail "left after purge: $f"
done < <(find /lib/modules -name 'seg6x.ko*' 2>/dev/null | sort)
for d in /lib/modules/*/; do
	k=$(basename "$d")
	ko=$(modinfo -k "$k" -n seg6x 2>/dev/null) || continue
	is_foreign "$ko" || fail "modinfo -k $k still finds seg6x after purge ($ko)"
done
# shellcheck disable=SC2086
for f in "/usr/src/seg6x-$version" /usr/sbin/seg6ctl /lib/systemd/system/seg6x.service \
	/lib/systemd/system/seg6x@.service $units_metrics $hooks; do
	[ ! -e "$f" ] || fail "left after purge: $f"
done
echo "   after purge: no seg6x in dkms status, none of its modules in /lib/modules"

if [ "$had_dev" = 1 ] && [ "$restore" = 1 ]; then
	info "restoring the developer DKMS install"
	for k in "${kernels[@]}"; do
		make -s KVER="$k" dkms-install >>"$work/dkms.log" 2>&1 ||
			fail "make dkms-install for $k"
	done
fi
finish
