#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# seg6ctl -c -b FILE: a configuration for another machine is checked on
# this one (no kernel, no seg6x, none of its devices, namespaces or key
# files needed), and every line that is wrong is reported.
set -u
seg6ctl=${1:-../../tools/seg6ctl/seg6ctl}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "test_check: $*" >&2; exit 1; }

cat >"$dir/good.conf" <<'CONF'
# for a router with eth7, eth9 and VRF red
tunsrc set fc00::1
hmac set 7 sha256 secret-file /etc/seg6x/keys/7
iface set default seg6_enabled 1 require_hmac 1
iface set eth7 seg6-enabled 0
route add fc00:40::/64 mode encap segs fc00:ff::2,fc00:ff::3 hmac 7 dev eth7 via fe80::1 table main
route del fc00:41::/64 dev eth7
sid add fc00:e2::100 behavior End.DT6 vrf red count
sid add fc00:e2::101/64 behavior End.X nh6 fc00:2::2 dev eth9 flavors psp
CONF
"$seg6ctl" -c -n elsewhere -b "$dir/good.conf" || fail "good.conf refused"

cat >"$dir/bad.conf" <<'CONF'
route add fc00:40::/64 mode encap segs fc00:ff::2 dev eth7 via fe80::1
sid add fc00:e2::100 behavior End.Y
iface set bad/name seg6_enabled 1
route add fc00::/64 mode encap segs fc00::1,junk dev eth0
hmac set 7 md5 secret-file /k
tunsrc set ff02::1
sid add fc00::1 behavior End flavors next-csid lblen 120
CONF
out=$("$seg6ctl" -c -force -b "$dir/bad.conf" 2>&1)
[ $? = 1 ] || fail "bad.conf: exit status $? (want 1)"
for l in 2 3 4 5 6 7; do
	echo "$out" | grep -q "bad.conf:$l:" || fail "bad.conf line $l not reported: $out"
done
echo "$out" | grep -q "bad.conf:1:" && fail "bad.conf line 1 reported: $out"
echo "$out" | grep -q "6 of 7 commands failed" || fail "no summary: $out"
echo "test_check: passed"
