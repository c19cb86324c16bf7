#!/bin/bash
# guest-pkg.sh VERSION — runs in the VM (tests/vm/run-vm.sh) after the
# seg6x-dkms and seg6ctl packages were installed on the host: the module
# DKMS built for this kernel loads with plain modprobe, the packaged
# seg6ctl (/usr/sbin) talks to it, and the packaged if-up hooks bring a
# route back after its interface went down and up.
set -uo pipefail
version=$1
k=$(uname -r)
seg6ctl=/usr/sbin/seg6ctl
status=0
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; status=1; }

path=$(modinfo -n seg6x 2>&1)
case $path in
"/lib/modules/$k/updates/dkms/seg6x.ko"*) ok "modinfo -n seg6x: $path" ;;
*) fail "modinfo -n seg6x: $path (expected the DKMS module)" ;;
esac

if modprobe seg6x; then
	ok "modprobe seg6x"
else
	fail "modprobe seg6x"
	exit 1
fi
[ "$(cat /sys/module/seg6x/version 2>/dev/null)" = "$version" ] ||
	fail "/sys/module/seg6x/version is not $version"
"$seg6ctl" info || fail "seg6ctl info"
"$seg6ctl" -j info | grep -q "\"version\": *\"$version\"" ||
	fail "seg6ctl -j info: version is not $version"

# A change through seg6ctl loads the module itself (the genl family
# alias); a read never does (a metrics poller must not bring it back).
if modinfo -F alias seg6x | grep -q 'family-SEG6X$'; then
	modprobe -r seg6x || fail "modprobe -r seg6x"
	if ! "$seg6ctl" info >/dev/null 2>&1 && [ ! -d /sys/module/seg6x ]; then
		ok "seg6ctl info left the module unloaded"
	else
		fail "seg6ctl info loaded the module"
	fi
	if "$seg6ctl" stats reset && [ -d /sys/module/seg6x ]; then
		ok "seg6ctl stats reset loaded the module (genl family alias)"
	else
		fail "seg6ctl stats reset did not load the module"
		modprobe seg6x
	fi
fi

# if-up hooks: a route through an interface comes back when it comes up.
dev=seg6xpkg0
conf=${SEG6X_OUT:-/tmp}/seg6x.conf
if ! { ip link add "$dev" type dummy && ip link set "$dev" up &&
	ip -6 addr add fc00:51::1/64 dev "$dev" nodad; }; then
	fail "dummy interface"
fi
cat >"$conf" <<EOF
# written by guest-pkg.sh
tunsrc set fc00:51::1
route replace fc00:52::/64 mode encap segs fc00:51::2,fc00:53::1 dev $dev via fc00:51::2
EOF
has_route() { "$seg6ctl" -j route show | grep -q '"fc00:52::/64"'; }
for hook in /etc/network/if-up.d/seg6x /etc/networkd-dispatcher/carrier.d/50-seg6x \
	/etc/networkd-dispatcher/degraded.d/50-seg6x \
	/etc/networkd-dispatcher/routable.d/50-seg6x \
	/etc/NetworkManager/dispatcher.d/50-seg6x; do
	ip link set "$dev" down
	! has_route || fail "the route survived $dev going down"
	ip link set "$dev" up
	ip -6 addr replace fc00:51::1/64 dev "$dev" nodad
	case $hook in
	*/NetworkManager/*)	# arguments: the interface and the action
		SEG6X_CONF=$conf "$hook" "$dev" down || fail "$hook down exited non-zero"
		! has_route || fail "$hook acted on \"down\""
		SEG6X_CONF=$conf "$hook" "$dev" up ;;
	*)	SEG6X_CONF=$conf IFACE=$dev "$hook" ;;
	esac || fail "$hook exited non-zero"
	if has_route; then
		ok "$hook brought the route back"
	else
		fail "$hook did not bring the route back"
	fi
done
"$seg6ctl" route show
# Without the configuration file the hook does nothing, successfully.
SEG6X_CONF=/nonexistent IFACE=$dev /etc/network/if-up.d/seg6x ||
	fail "the hook failed without a configuration file"

# Routes pin the module; once flushed it unloads.
if modprobe -r seg6x 2>/dev/null; then
	fail "modprobe -r seg6x succeeded with a route in place"
fi
"$seg6ctl" route flush all || fail "seg6ctl route flush all"
if modprobe -r seg6x && [ ! -d /sys/module/seg6x ]; then
	ok "modprobe -r seg6x"
else
	fail "modprobe -r seg6x after route flush"
fi

[ "$status" = 0 ] && echo "guest-pkg: all checks passed on $k"
exit "$status"
