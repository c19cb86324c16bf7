# SPDX-License-Identifier: GPL-2.0
"""Multipath (ECMP) seg6x routes: one route, a segment list per path.

The kernel spreads flows over the paths (RTA_MULTIPATH, a seg6x
encapsulation per next hop); seg6ctl adds, shows, saves, syncs and
deletes them whole, and seg6x-fpmd turns zebra's multipath VPN routes
into them."""
import ipaddress
import json
import socket
import struct
import subprocess

from scapy.all import UDP, Ether, IPv6, Raw

from conftest import SEG6CTL, ctl, wait_until
from lib.netns import Tap, sh, sysctl
from lib.srv6 import NH_ROUTING, eth_ipv6, parse_srh
from lib.topo import addr6, mac, sid
from test_81_fpmd_stream import (  # noqa: F401 (fpm: the fixture)
    LWTUNNEL_ENCAP_SEG6, RTA_DST, RTA_ENCAP, RTA_ENCAP_TYPE, RTA_GATEWAY,
    RTA_PRIORITY, RTA_TABLE, RTM_NEWROUTE, RTPROT_BGP, SEG6_IPTUNNEL_SRH,
    fpm, fpmd_routes, frame, nla, srh)

B6 = addr6(4, "B")
PREFIX = "fc00:4::/64"
NEW = "fc00:44::/64"
# Both paths leave through R2; the second goes straight to R3's SID.
SEGS1 = [sid("R2"), sid("R3")]
SEGS2 = [sid("R3")]
RTA_MULTIPATH = 9


def multipath_add(c, verb="add", prefix=PREFIX, w1=1, w2=1):
    dev = c.iface("R1", "R2")
    ctl("route", verb, prefix,
        "nexthop", "mode", "encap", "segs", ",".join(SEGS1), "dev", dev,
        "via", addr6(2, "R2"), "weight", w1,
        "nexthop", "mode", "encap", "segs", ",".join(SEGS2), "dev", dev,
        "via", addr6(2, "R2"), "weight", w2, ns=c.ns["R1"])


def send_flows(c, n):
    """n UDP packets from A to B, each of its own flow (flow label)."""
    tap = Tap(c.ns["A"], c.iface("A", "R1"))
    for i in range(n):
        tap.send(Ether(dst=mac(1, 1), src=mac(1, 0)) /
                 IPv6(src=addr6(1, "A"), dst=B6, fl=0x1000 + 7919 * i) /
                 UDP(sport=4000 + i, dport=5000) / Raw(b"ecmp"))


def segment_lists(frames):
    out = []
    for f in frames:
        ip = eth_ipv6(f)
        if ip and ip["nh"] == NH_ROUTING:
            out.append(list(reversed(parse_srh(ip["payload"])["segs"])))
    return out


def test_multipath_route_spreads_flows(chain):
    c = chain
    ns = c.ns["R1"]
    # L4 hash: each UDP port pair is a flow of its own
    sysctl(ns, "net.ipv6.fib_multipath_hash_policy", 1)
    multipath_add(c, verb="replace")
    # the kernel keeps one route with two next hops, seg6x's encap on each
    kshow = sh(["ip", "-n", ns, "-6", "route", "show", PREFIX]).stdout
    assert kshow.count("nexthop") == 2, kshow

    shown = [r for r in ctl("route", "show", ns=ns, js=True)
             if r["dst"] == PREFIX]
    assert len(shown) == 1
    r = shown[0]
    assert r["segs"] == SEGS1 and r["via"] == addr6(2, "R2")   # the first
    assert [(p["segs"], p["weight"]) for p in r["nexthops"]] == \
        [(SEGS1, 1), (SEGS2, 1)]

    tap = Tap(c.ns["R2"], c.iface("R2", "R1"))
    send_flows(c, 32)
    got = segment_lists(tap.collect(
        lambda f: (eth_ipv6(f) or {}).get("nh") == NH_ROUTING,
        incoming_only=True, count=32))
    assert len(got) == 32
    assert all(s in (SEGS1, SEGS2) for s in got)
    assert SEGS1 in got and SEGS2 in got          # both paths carry flows

    # per path counters (-s), and the route's the sum of them
    js = json.loads(subprocess.run(
        [SEG6CTL, "-n", ns, "-j", "-s", "route", "show"],
        capture_output=True, text=True, check=True).stdout)
    r = [x for x in js if x["dst"] == PREFIX][0]
    per_path = [p["packets"] for p in r["nexthops"]]
    assert sum(per_path) == 32 and min(per_path) > 0, r
    assert r["packets"] == 32


def test_multipath_save_flush_restore_delete(chain, tmp_path):
    c = chain
    ns = c.ns["R1"]
    multipath_add(c, verb="replace", w1=3)
    ctl("route", "add", "10.0.4.0/24", "table", "100",
        "nexthop", "mode", "encap", "segs", sid("R2"), "dev",
        c.iface("R1", "R2"),
        "nexthop", "mode", "encap", "segs", sid("R3"), "dev",
        c.iface("R1", "R2"), "weight", "2", ns=ns)
    before = ctl("route", "show", "all", ns=ns, js=True)
    v4 = [r for r in before if r["dst"] == "10.0.4.0/24"][0]
    assert [p["weight"] for p in v4["nexthops"]] == [1, 2]
    assert v4["via"] is None and v4["table"] == 100

    saved = ctl("save", ns=ns).stdout
    assert saved.count("nexthop") == 4, saved
    ctl("route", "flush", "all", ns=ns)
    assert ctl("route", "show", "all", ns=ns, js=True) == []
    # the plain route the chain had for the /64 went with the replace
    script = tmp_path / "saved"
    script.write_text(saved)
    ctl("-b", str(script), ns=ns)
    assert ctl("route", "show", "all", ns=ns, js=True) == before

    # a device names a multipath route through any of its paths; the
    # delete takes every path (IPv6 keeps them as sibling routes)
    ctl("route", "del", PREFIX, "dev", c.iface("R1", "R2"), ns=ns)
    ctl("route", "del", "10.0.4.0/24", "table", "100", ns=ns)
    assert ctl("route", "show", "all", ns=ns, js=True) == []
    assert PREFIX not in sh(["ip", "-n", ns, "-6", "route", "show"]).stdout


def test_multipath_sync(chain, tmp_path):
    c = chain
    ns = c.ns["R1"]
    dev = c.iface("R1", "R2")
    conf = tmp_path / "seg6x.conf"
    # a prefix the chain has no plain route for: sync never replaces one
    conf.write_text(
        f"route replace {NEW} nexthop mode encap segs {sid('R2')} dev {dev}"
        f" via {addr6(2, 'R2')} nexthop mode encap segs {sid('R3')} dev {dev}"
        f" via {addr6(2, 'R2')}\n")
    p = subprocess.run([SEG6CTL, "-n", ns, "sync", str(conf)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    r = [x for x in ctl("route", "show", ns=ns, js=True) if x["dst"] == NEW]
    assert len(r) == 1 and len(r[0]["nexthops"]) == 2
    # in sync: nothing to do
    p = subprocess.run([SEG6CTL, "-n", ns, "sync", "--dry-run", str(conf)],
                       capture_output=True, text=True)
    assert p.returncode == 0 and p.stdout == "", p.stdout + p.stderr
    # one path changed: the route is changed whole
    conf.write_text(conf.read_text().replace(
        f"segs {sid('R3')}", f"segs {sid('R2')},{sid('R3')}"))
    p = subprocess.run([SEG6CTL, "-n", ns, "sync", str(conf)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    r = [x for x in ctl("route", "show", ns=ns, js=True) if x["dst"] == NEW]
    assert [p["segs"] for p in r[0]["nexthops"]] == \
        [[sid("R2")], [sid("R2"), sid("R3")]]
    p = subprocess.run([SEG6CTL, "-n", ns, "sync", "/dev/null"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert ctl("route", "show", ns=ns, js=True) == []


def multipath_msg(prefix, paths, table=254, metric=20):
    """zebra's RTM_NEWROUTE of a multipath VPN route (no next hop
    objects): each path (oif, gateway, segs) its own SEG6 encap."""
    net = ipaddress.IPv6Network(prefix)
    mp = b""
    for oif, gw, segs in paths:
        a = nla(RTA_GATEWAY, ipaddress.IPv6Address(gw).packed)
        a += nla(RTA_ENCAP_TYPE, struct.pack("=H", LWTUNNEL_ENCAP_SEG6))
        a += nla(RTA_ENCAP | 0x8000, nla(SEG6_IPTUNNEL_SRH, srh(segs)))
        mp += struct.pack("=HBBi", 8 + len(a), 0, 0, oif) + a
    attrs = nla(RTA_DST, net.network_address.packed)
    attrs += nla(RTA_TABLE, struct.pack("=I", table))
    attrs += nla(RTA_PRIORITY, struct.pack("=I", metric))
    attrs += nla(RTA_MULTIPATH, mp)
    rtm = struct.pack("=BBBBBBBBI", socket.AF_INET6, net.prefixlen, 0, 0,
                      min(table, 252), RTPROT_BGP, 0, 1, 0)
    body = rtm + attrs
    return struct.pack("=IHHII", 16 + len(body), RTM_NEWROUTE, 0x401, 0, 0) \
        + body


def test_fpmd_multipath_route(fpm):
    """Two PEs announce the prefix: one seg6x route of two paths, zebra's
    link-local next hops kept (the kernel joins paths with gateways);
    one PE withdrawn, a route of one path."""
    d, ns, oif = fpm
    s = d.connect()
    s.sendall(frame(multipath_msg("fc00:97::/64", [
        (oif, "fe80::1", ["fc00:ff::2"]), (oif, "fe80::2", ["fc00:ff::3"])])))
    assert wait_until(lambda: [len(r.get("nexthops", [])) for r in
                               fpmd_routes(ns)] == [2], timeout=5)
    r = fpmd_routes(ns)[0]
    assert [(p["segs"], p["via"], p["weight"]) for p in r["nexthops"]] == \
        [(["fc00:ff::2"], "fe80::1", 1), (["fc00:ff::3"], "fe80::2", 1)]
    assert r["metric"] == 20
    s.sendall(frame(multipath_msg("fc00:97::/64", [
        (oif, "fe80::2", ["fc00:ff::3"])])))
    assert wait_until(lambda: [r["segs"] for r in fpmd_routes(ns)] ==
                      [["fc00:ff::3"]], timeout=5)
    assert "nexthops" not in fpmd_routes(ns)[0]
    s.close()


def test_multipath_monitor_event(chain):
    """One event for a multipath route, with every path (the kernel
    notifies such a route whole)."""
    from test_52_monitor import Monitor
    c = chain
    ns = c.ns["R1"]
    m = Monitor(ns, "route")
    try:
        m.sync("-n", ns, "route", "replace", "fc00:55::/64", "mode", "encap",
               "segs", sid("R2"), "dev", c.iface("R1", "R2"))
        multipath_add(c, verb="replace", prefix=NEW)
        ev = m.next()
        assert (ev["object"], ev["action"]) == ("route", "add"), ev
        assert ev["route"]["dst"] == NEW
        assert [p["segs"] for p in ev["route"]["nexthops"]] == [SEGS1, SEGS2]
    finally:
        m.stop()
