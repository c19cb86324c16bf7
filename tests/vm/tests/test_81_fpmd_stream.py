# SPDX-License-Identifier: GPL-2.0
"""seg6x-fpmd fed by a hand-made FPM stream (no FRR): a route that turned
from SRv6 to plain is zebra's, and the daemon's delete leaves it alone,
as it leaves a seg6x route set by hand at the place of one of its own;
a stream of mangled frames never stops the daemon nor changes what it
installed from the good ones."""
import ipaddress
import json
import os
import random
import socket
import struct
import subprocess

import pytest

from conftest import REPO, ctl, wait_until
from lib.netns import inside, ip_batch, sh, sysctl

FPMD = os.path.join(REPO, "tools/fpmd/seg6x-fpmd")
RTM_NEWROUTE, RTM_DELROUTE = 24, 25
RTA_DST, RTA_OIF, RTA_GATEWAY, RTA_PRIORITY, RTA_TABLE = 1, 4, 5, 6, 15
RTA_ENCAP_TYPE, RTA_ENCAP = 21, 22
LWTUNNEL_ENCAP_SEG6, SEG6_IPTUNNEL_SRH, SEG6_IPTUN_MODE_ENCAP = 5, 1, 1
RTPROT_BGP = 186
PREFIX = "fc00:99::/64"
SEG = "fc00:ff::2"


def nla(kind, data):
    n = 4 + len(data)
    return struct.pack("=HH", n, kind) + data + b"\0" * ((4 - n % 4) % 4)


def srh(segs):
    """A struct seg6_iptunnel_encap: mode, then an SRH (path order in)."""
    n = len(segs)
    body = b"".join(ipaddress.IPv6Address(s).packed for s in reversed(segs))
    hdr = struct.pack("=BBBBBBH", 0, 2 * n, 4, n - 1, n - 1, 0, 0)
    return struct.pack("=i", SEG6_IPTUN_MODE_ENCAP) + hdr + body


def route_msg(kind, prefix, oif=0, segs=None, table=254, metric=20):
    """An RTM_NEWROUTE / RTM_DELROUTE as zebra writes it."""
    net = ipaddress.IPv6Network(prefix)
    attrs = nla(RTA_DST, net.network_address.packed)
    attrs += nla(RTA_TABLE, struct.pack("=I", table))
    attrs += nla(RTA_PRIORITY, struct.pack("=I", metric))
    if kind == RTM_NEWROUTE:
        attrs += nla(RTA_OIF, struct.pack("=I", oif))
        if segs:
            attrs += nla(RTA_ENCAP_TYPE, struct.pack("=H", LWTUNNEL_ENCAP_SEG6))
            attrs += nla(RTA_ENCAP | 0x8000, nla(SEG6_IPTUNNEL_SRH, srh(segs)))
    rtm = struct.pack("=BBBBBBBBI", socket.AF_INET6, net.prefixlen, 0, 0,
                      min(table, 252), RTPROT_BGP, 0, 1, 0)
    body = rtm + attrs
    return struct.pack("=IHHII", 16 + len(body), kind, 0x400 | 0x1, 0, 0) + body


def frame(*msgs):
    """FPM: version 1, type 1 (netlink), 16-bit length with the header."""
    payload = b"".join(msgs)
    return struct.pack("!BBH", 1, 1, 4 + len(payload)) + payload


class Daemon:
    def __init__(self, ns):
        self.ns = ns
        self.p = subprocess.Popen(["ip", "netns", "exec", ns, FPMD, "-v"],
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True)
        assert wait_until(lambda: ":2620 " in sh(
            ["ip", "netns", "exec", ns, "ss", "-Hltn"]).stdout, timeout=10)

    def connect(self):
        with inside(self.ns):
            s = socket.create_connection(("127.0.0.1", 2620))
        return s

    def stop(self):
        self.p.terminate()
        return self.p.communicate(timeout=10)[0]


@pytest.fixture
def fpm(seg6x):
    ns = "fpmdstream"
    sh(["ip", "netns", "add", ns])
    ip_batch(ns, ["link set lo up", "link add d0 type dummy",
                  "link set d0 up", "address add fc00:1::1/64 dev d0"])
    d = Daemon(ns)
    oif = json.loads(sh(["ip", "-n", ns, "-j", "link", "show", "d0"])
                     .stdout)[0]["ifindex"]
    yield d, ns, oif
    log = d.stop()
    sh(["ip", "netns", "del", ns])
    assert "Segmentation" not in log and "abort" not in log.lower(), log


def fpmd_routes(ns):
    return [r for r in ctl("route", "show", "all", ns=ns, js=True)
            if r.get("owner") == "fpmd"]


def test_plain_route_that_replaced_ours_is_not_deleted(fpm):
    d, ns, oif = fpm
    s = d.connect()
    s.sendall(frame(route_msg(RTM_NEWROUTE, PREFIX, oif, [SEG])))
    assert wait_until(lambda: [r["dst"] for r in fpmd_routes(ns)] == [PREFIX])
    # zebra turns the route plain in the kernel itself (same place)
    sh(["ip", "-n", ns, "-6", "route", "replace", PREFIX, "dev", "d0",
        "proto", "bgp", "metric", "20"])
    assert fpmd_routes(ns) == []
    # then tells the daemon: the delete of the SRv6 route, and a plain new
    s.sendall(frame(route_msg(RTM_DELROUTE, PREFIX),
                    route_msg(RTM_NEWROUTE, PREFIX, oif)))
    s.sendall(frame(route_msg(RTM_NEWROUTE, "fc00:98::/64", oif, [SEG])))
    assert wait_until(lambda: [r["dst"] for r in fpmd_routes(ns)] ==
                      ["fc00:98::/64"])
    plain = sh(["ip", "-n", ns, "-6", "route", "show", PREFIX]).stdout
    assert "proto bgp metric 20" in plain and "encap" not in plain, plain
    s.close()


def test_intree_route_through_nexthop_object_is_replaced(fpm):
    """zebra's in-tree route through a kernel next hop object (nhid), as
    zebra installs where it can, replacing ours, with the kernel's
    nexthop_compat_mode off (its notifications then carry the object's id
    alone): the encap is the object's, and the daemon puts its route back;
    a plain route through an object stays (zebra's own answer to a route
    that lost its SID)."""
    d, ns, oif = fpm
    sysctl(ns, "net.ipv4.nexthop_compat_mode", 0)
    s = d.connect()
    s.sendall(frame(route_msg(RTM_NEWROUTE, PREFIX, oif, [SEG])))
    assert wait_until(lambda: [r["dst"] for r in fpmd_routes(ns)] == [PREFIX])
    sh(["ip", "-n", ns, "-6", "nexthop", "add", "id", "51", "encap", "seg6",
        "mode", "encap", "segs", SEG, "dev", "d0"])
    sh(["ip", "-n", ns, "-6", "route", "replace", PREFIX, "nhid", "51",
        "proto", "bgp", "metric", "20"])
    assert wait_until(lambda: [r["dst"] for r in fpmd_routes(ns)] == [PREFIX]
                      and "nhid" not in sh(["ip", "-n", ns, "-6", "route",
                                            "show", PREFIX]).stdout, 5)
    # a plain object: not an SRv6 route, the place is not ours any more
    sh(["ip", "-n", ns, "-6", "nexthop", "add", "id", "52", "dev", "d0"])
    sh(["ip", "-n", ns, "-6", "route", "replace", PREFIX, "nhid", "52",
        "proto", "bgp", "metric", "20"])
    s.sendall(frame(route_msg(RTM_NEWROUTE, "fc00:98::/64", oif, [SEG])))
    assert wait_until(lambda: "fc00:98::/64" in
                      [r["dst"] for r in fpmd_routes(ns)])
    assert PREFIX not in [r["dst"] for r in fpmd_routes(ns)]
    assert "nhid 52" in sh(["ip", "-n", ns, "-6", "route", "show",
                            PREFIX]).stdout
    s.close()


def test_route_by_hand_that_replaced_ours_is_not_deleted(fpm):
    """The operator's own seg6x route took the place of the daemon's: the
    FPM delete that follows leaves it (the kernel deletes by place)."""
    d, ns, oif = fpm
    s = d.connect()
    s.sendall(frame(route_msg(RTM_NEWROUTE, PREFIX, oif, [SEG])))
    assert wait_until(lambda: [r["dst"] for r in fpmd_routes(ns)] == [PREFIX])
    ctl("route", "replace", PREFIX, "mode", "encap", "segs", "fc00:ff::3",
        "dev", "d0", "metric", "20", ns=ns)
    s.sendall(frame(route_msg(RTM_DELROUTE, PREFIX)))
    # a later route: the delete before it has been dealt with
    s.sendall(frame(route_msg(RTM_NEWROUTE, "fc00:98::/64", oif, [SEG])))
    assert wait_until(lambda: [r["dst"] for r in fpmd_routes(ns)] ==
                      ["fc00:98::/64"])
    mine = [r for r in ctl("route", "show", "all", ns=ns, js=True)
            if r["dst"] == PREFIX]
    assert len(mine) == 1 and mine[0]["segs"] == ["fc00:ff::3"], mine
    assert mine[0].get("owner") != "fpmd"
    s.close()


def test_mangled_frames(fpm):
    d, ns, oif = fpm
    rnd = random.Random(81)
    good = [route_msg(RTM_NEWROUTE, f"fc00:9{i}::/64", oif, [SEG, "fc00:ff::3"])
            for i in range(4)]
    s = d.connect()
    s.sendall(frame(*good))
    assert wait_until(lambda: len(fpmd_routes(ns)) == 4)
    s.close()
    # Each mangled stream on its own connection: a broken frame header
    # makes the daemon drop the connection, as it should.
    for i in range(300):
        msg = bytearray(rnd.choice(good) if i % 3 else
                        route_msg(RTM_DELROUTE, "fc00:90::/64"))
        for _ in range(rnd.randint(1, 8)):
            msg[rnd.randrange(len(msg))] = rnd.randrange(256)
        data = frame(bytes(msg))
        if i % 7 == 0:
            data = data[:rnd.randrange(len(data))]
        try:
            c = d.connect()
            c.sendall(data)
            c.close()
        except OSError:
            pass
        assert d.p.poll() is None, d.stop()
    # still serving: a good stream is mapped
    s = d.connect()
    s.sendall(frame(*good))
    s.sendall(frame(route_msg(RTM_NEWROUTE, "fc00:97::/64", oif, [SEG])))
    assert wait_until(lambda: "fc00:97::/64" in
                      [r["dst"] for r in fpmd_routes(ns)], timeout=10)
    s.close()
    assert d.p.poll() is None
