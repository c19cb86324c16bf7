# SPDX-License-Identifier: GPL-2.0
"""SRH encapsulation and insertion on routes (seg6x LWT)."""
import os
import socket
import struct
import subprocess

import pytest
from scapy.all import IP, UDP, Ether, IPv6, Raw

from conftest import (ctl, enable, load_module, module_loaded, stats,
                      unload_module, wait_until)
from lib.netns import Tap, ip_batch, sh, sysctl, udp_socket
from lib.tcp import transfer
from lib.srv6 import NH_IPV4, NH_IPV6, NH_ROUTING, NH_UDP, eth_ipv6, \
    parse_srh
from lib.topo import addr4, addr6, mac, sid

A_SRC = addr6(1, "A")
B6 = addr6(4, "B")
PORT = 5000


def route_add(c, *args, node="R1", verb="add"):
    ctl("route", verb, *args, ns=c.ns[node])


def encap_route(c, segs, dst=f"{B6}/128", mode="encap", extra=()):
    # the chain already has routes for the /64s: replace those
    verb = "add" if dst.endswith("/128") else "replace"
    route_add(c, dst, "mode", mode, "segs", ",".join(segs),
              "dev", c.iface("R1", "R2"), "via", addr6(2, "R2"), *extra,
              verb=verb)


def send_udp6_from_a(c, data, tc=0, fl=0, hlim=64, dst=B6):
    frame = (Ether(dst=mac(1, 1), src=mac(1, 0)) /
             IPv6(src=A_SRC, dst=dst, tc=tc, fl=fl, hlim=hlim) /
             UDP(sport=4000, dport=PORT) / Raw(data))
    Tap(c.ns["A"], c.iface("A", "R1")).send(frame)
    return bytes(frame)[14:]


def on_r1_r2_link(c):
    return Tap(c.ns["R2"], c.iface("R2", "R1"))


def srh_pkt(f):
    ip = eth_ipv6(f)
    return ip and ip["nh"] == NH_ROUTING


@pytest.mark.parametrize("nsegs", [1, 2, 8])
def test_encap_fields(chain, nsegs):
    c = chain
    segs = [sid("R2")] + [f"fc00:99::{i}" for i in range(1, nsegs)]
    encap_route(c, segs)
    tap = on_r1_r2_link(c)
    inner = send_udp6_from_a(c, b"encap me", tc=0x28, fl=0x12345)
    got = tap.collect(srh_pkt, incoming_only=True)
    assert len(got) == 1
    ip = eth_ipv6(got[0])
    s = parse_srh(ip["payload"])
    assert ip["dst"] == segs[0]
    assert ip["src"] == addr6(2, "R1")        # auto: the interface's
    assert ip["tc"] == 0x28 and ip["fl"] == 0x12345
    assert ip["hlim"] == 63                    # inner 64, forwarded once
    assert ip["plen"] == s["len"] + len(inner)
    assert s["type"] == 4 and s["nh"] == NH_IPV6
    assert s["sl"] == s["le"] == nsegs - 1
    assert s["segs"] == list(reversed(segs))
    assert s["hdrlen"] == 2 * nsegs and s["flags"] == 0
    assert ip["payload"][s["len"]:] == inner
    assert stats(c.ns["R1"])["encap"] == 1


def test_encap_explicit_tunsrc(chain):
    c = chain
    ctl("tunsrc", "set", sid("R1"), ns=c.ns["R1"])
    encap_route(c, [sid("R2"), sid("R3")])
    tap = on_r1_r2_link(c)
    send_udp6_from_a(c, b"x")
    ip = eth_ipv6(tap.collect(srh_pkt, incoming_only=True)[0])
    assert ip["src"] == sid("R1")


def test_inline_fields(chain):
    c = chain
    encap_route(c, [sid("R2"), sid("R3")], mode="inline")
    tap = on_r1_r2_link(c)
    orig = send_udp6_from_a(c, b"inline me")
    ip = eth_ipv6(tap.collect(srh_pkt, incoming_only=True)[0])
    s = parse_srh(ip["payload"])
    assert ip["src"] == A_SRC and ip["dst"] == sid("R2")
    assert ip["hlim"] == 63
    assert s["nh"] == NH_UDP and s["sl"] == s["le"] == 2
    assert s["segs"] == [B6, sid("R3"), sid("R2")]
    assert ip["payload"][s["len"]:] == orig[40:]
    assert ip["plen"] == len(orig) - 40 + s["len"]
    assert stats(c.ns["R1"])["inline"] == 1


def test_inline_end_to_end(chain):
    c = chain
    enable(c, "R2", "R3", "B")
    encap_route(c, [sid("R2"), sid("R3")], mode="inline")
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    send_udp6_from_a(c, b"inline all the way")
    assert rx.recvfrom(2048)[0] == b"inline all the way"
    assert stats(c.ns["B"])["local"] == 1


def test_ipv4_in_ipv6(chain):
    c = chain
    enable(c, "R2", "R3")
    route_add(c, "10.0.4.0/24", "mode", "encap", "segs",
              f"{sid('R2')},{sid('R3')}", "dev", c.iface("R1", "R2"),
              verb="replace")
    tap = on_r1_r2_link(c)
    rx = udp_socket(c.ns["B"], socket.AF_INET, addr4(4, "B"), PORT)
    frame = (Ether(dst=mac(1, 1), src=mac(1, 0)) /
             IP(src=addr4(1, "A"), dst=addr4(4, "B"), ttl=50, tos=0x20) /
             UDP(sport=4000, dport=PORT) / Raw(b"v4 over srv6"))
    Tap(c.ns["A"], c.iface("A", "R1")).send(frame)
    ip = eth_ipv6(tap.collect(srh_pkt, incoming_only=True)[0])
    s = parse_srh(ip["payload"])
    assert s["nh"] == NH_IPV4 and ip["dst"] == sid("R2")
    assert ip["hlim"] == 49 and ip["tc"] == 0x20
    assert ip["payload"][s["len"]:] == bytes(frame)[14:]
    data, peer = rx.recvfrom(2048)
    assert data == b"v4 over srv6" and peer[0] == addr4(1, "A")


def test_ping_udp_tcp_end_to_end(chain):
    c = chain
    enable(c, "R2", "R3")
    encap_route(c, [sid("R2"), sid("R3")], dst="fc00:4::/64")
    p = sh(["ip", "netns", "exec", c.ns["A"], "ping", "-6", "-c", "3",
            "-i", "0.2", "-W", "2", B6], check=False)
    assert p.returncode == 0, p.stdout

    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    tx = udp_socket(c.ns["A"], socket.AF_INET6, A_SRC, 0)
    tx.sendto(b"udp through seg6x", (B6, PORT))
    assert rx.recvfrom(2048)[0] == b"udp through seg6x"

    # a few MB of TCP with the veths' offloads (TSO, checksum) on
    n, intact, _ = transfer(c.ns["A"], c.ns["B"], socket.AF_INET6, B6,
                            5001, 4 << 20)
    assert n == 4 << 20 and intact
    assert stats(c.ns["R1"])["encap"] > 0
    assert stats(c.ns["R3"])["decap"] == stats(c.ns["R2"])["end"]


def test_interop_seg6x_encap_intree_endpoints(chain):
    c = chain
    for n in ("R2", "R3"):
        sysctl(c.ns[n], "net.ipv6.conf.all.seg6_enabled", 1)
        for peer in (("R1", "R3") if n == "R2" else ("R2", "B")):
            sysctl(c.ns[n], f"net.ipv6.conf.{c.iface(n, peer)}.seg6_enabled",
                   1)
    encap_route(c, [sid("R2"), sid("R3")])
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    send_udp6_from_a(c, b"seg6x to in-tree")
    assert rx.recvfrom(2048)[0] == b"seg6x to in-tree"
    # seg6x is not enabled there (so not even hooked): the in-tree seg6
    # did the work
    assert stats(c.ns["R2"])["end"] == 0
    assert stats(c.ns["R2"])["drop"]["disabled"] == 0


def test_route_show_replace_delete(chain):
    c = chain
    ns = c.ns["R1"]
    encap_route(c, [sid("R2"), sid("R3")], dst="fc00:4::/64")
    route_add(c, "10.0.4.0/24", "mode", "encap", "segs", sid("R2"), "dev",
              c.iface("R1", "R2"), "metric", "7")
    shown = ctl("route", "show", ns=ns, js=True)
    assert {"dst": "fc00:4::/64", "mode": "encap",
            "segs": [sid("R2"), sid("R3")], "hmac": None,
            "dev": c.iface("R1", "R2"), "via": addr6(2, "R2"),
            "table": 254, "metric": 1024} in shown
    v4 = [r for r in shown if r["dst"] == "10.0.4.0/24"][0]
    assert v4["segs"] == [sid("R2")] and v4["metric"] == 7
    assert len(shown) == 2          # only seg6x routes
    # iproute2 does not know the encap but must not choke on it
    assert sh(["ip", "-n", ns, "-6", "route", "show"]).returncode == 0

    ctl("route", "replace", "fc00:4::/64", "mode", "inline", "segs",
        sid("R3"), "dev", c.iface("R1", "R2"), "via", addr6(2, "R2"), ns=ns)
    r = [r for r in ctl("route", "show", ns=ns, js=True)
         if r["dst"] == "fc00:4::/64"]
    assert len(r) == 1 and r[0]["mode"] == "inline"
    assert r[0]["segs"] == [sid("R3")]

    ctl("route", "del", "fc00:4::/64", ns=ns)
    assert [r["dst"] for r in ctl("route", "show", ns=ns, js=True)] == \
        ["10.0.4.0/24"]


def test_module_pinned_by_routes(chain):
    c = chain
    encap_route(c, [sid("R2")], dst="fc00:4::/64")
    p = subprocess.run(["modprobe", "-r", "seg6x"], capture_output=True)
    assert p.returncode != 0 and module_loaded()
    ctl("route", "flush", ns=c.ns["R1"])
    assert ctl("route", "show", ns=c.ns["R1"], js=True) == []
    c.destroy()
    unload_module()
    load_module()


def test_pmtu_packet_too_big(chain):
    c = chain
    encap_route(c, [sid("R2"), sid("R3")])    # 40 + 8 + 32 = 80 bytes
    a = Tap(c.ns["A"], c.iface("A", "R1"))
    send_udp6_from_a(c, b"z" * (1500 - 40 - 8 - 79))   # one byte too big

    def ptb(f):
        ip = eth_ipv6(f)
        return ip and ip["nh"] == 58 and ip["payload"][0] == 2
    got = a.collect(ptb, incoming_only=True)
    assert len(got) == 1
    ip = eth_ipv6(got[0])
    assert struct.unpack("!I", ip["payload"][4:8])[0] == 1500 - 80
    # a packet that fits goes through
    tap = on_r1_r2_link(c)
    send_udp6_from_a(c, b"z" * (1500 - 40 - 8 - 80))
    got = tap.collect(srh_pkt, incoming_only=True)
    assert len(got) == 1 and len(got[0]) == 14 + 1500


BAD_ROUTES = [
    (["fc00:4::/64", "mode", "encap", "segs", "", "dev", "r1-r2"], 2),
    (["fc00:4::/64", "mode", "encap", "segs",
      ",".join(f"fc00:9::{i:x}" for i in range(65)), "dev", "r1-r2"], 2),
    (["fc00:4::/64", "mode", "encap", "segs", "fc00::zz", "dev", "r1-r2"], 2),
    (["fc00:4::/64", "mode", "encap", "segs", "fc00::1", "dev", "nosuch"],
     1),
    (["10.0.4.0/24", "mode", "inline", "segs", "fc00::1", "dev", "r1-r2"],
     None),
    (["fc00:4::/64", "mode", "encap", "segs", "fc00::1", "hmac", "abc",
      "dev", "r1-r2"], 2),
    (["fc00:4::/64", "mode", "sideways", "segs", "fc00::1", "dev", "r1-r2"],
     2),
    (["fc00:4::/64", "mode", "encap", "segs", "ff02::1", "dev", "r1-r2"],
     None),
]


@pytest.mark.parametrize("args,code", BAD_ROUTES)
def test_bad_routes_rejected(chain, args, code):
    c = chain
    p = ctl("route", "add", *args, ns=c.ns["R1"], check=False)
    assert p.returncode != 0 and p.stderr.startswith("seg6ctl:"), p
    if code is not None:
        assert p.returncode == code, p
    assert ctl("route", "show", ns=c.ns["R1"], js=True) == []


def test_inline_refused_when_not_allowed():
    unload_module()
    load_module("allow_inline=0")
    try:
        sh(["ip", "netns", "add", "noinl"])
        ip_batch("noinl", ["link add d0 type dummy", "link set d0 up"])
        p = ctl("route", "add", "fc00:4::/64", "mode", "inline", "segs",
                "fc00::1", "dev", "d0", ns="noinl", check=False)
        assert p.returncode == 1 and "allow_inline" in p.stderr
        assert ctl("route", "show", ns="noinl", js=True) == []
    finally:
        sh(["ip", "netns", "del", "noinl"], check=False)
        wait_until(lambda: subprocess.run(["modprobe", "-r", "seg6x"])
                   .returncode == 0)
        load_module()


@pytest.mark.parametrize("df", [True, False])
def test_pmtu_ipv4(chain, df):
    c = chain
    enable(c, "R2", "R3")
    route_add(c, "10.0.4.0/24", "mode", "encap", "segs",
              f"{sid('R2')},{sid('R3')}", "dev", c.iface("R1", "R2"),
              verb="replace")
    rx = udp_socket(c.ns["B"], socket.AF_INET, addr4(4, "B"), PORT)
    a = Tap(c.ns["A"], c.iface("A", "R1"))
    payload = os.urandom(1500 - 20 - 8)        # a full-size IPv4 packet
    a.send(Ether(dst=mac(1, 1), src=mac(1, 0)) /
           IP(src=addr4(1, "A"), dst=addr4(4, "B"), flags="DF" if df else 0)
           / UDP(sport=4000, dport=PORT) / Raw(payload))
    if df:
        def frag_needed(f):
            return (f[12:14] == b"\x08\x00" and f[23] == 1 and
                    f[34] == 3 and f[35] == 4)
        got = a.collect(frag_needed, incoming_only=True)
        assert len(got) == 1
        assert struct.unpack("!H", got[0][40:42])[0] == 1500 - 80
    else:
        # fragmented before encapsulation, reassembled by B
        assert rx.recvfrom(4096)[0] == payload
        assert stats(c.ns["R1"])["encap"] == 2
