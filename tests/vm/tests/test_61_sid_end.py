# SPDX-License-Identifier: GPL-2.0
"""SID behaviours that forward on the SRH: End, End.X, End.T, their
PSP/USP/USD flavours (RFC 8986 4.1-4.3, 4.16), upper-layer processing
(4.1.1) and per-SID counters. Where the in-tree seg6local has the same
behaviour, the frame R2 emits must equal its frame byte for byte."""
import struct

import pytest
from scapy.all import ICMPv6EchoRequest, IPv6, Raw

from conftest import ctl

from lib.netns import Tap, ip_batch
from lib.sidnl import SidNl, ifindex
from lib.sidtest import (A_SRC, SID, compare, emit, frame_to_r2, intree,
                         intree_del, marker, udp6)
from lib.srv6 import NH_ICMP6, NH_IPV6, NH_ROUTING, eth_ipv6, parse_srh, srh
from lib.timing import scaled
from lib.topo import addr6, sid

B6 = addr6(4, "B")
FAR = "fc00:99::1"       # no route for it on R2: only End.X/End.T reach it


def sr_frame(segs, sl, m, nh=NH_IPV6, hlim=64, inner=None):
    inner = inner if inner is not None else udp6(A_SRC, B6, m)
    h = srh(segs, sl=sl, nh=nh)
    return frame_to_r2(IPv6(src=A_SRC, dst=segs[sl], nh=NH_ROUTING,
                            hlim=hlim, fl=0x12345) / Raw(h + inner)), h, inner


def check_end(f, h, inner, dst, hlim=63):
    ip = eth_ipv6(f)
    s = parse_srh(ip["payload"])
    assert ip["dst"] == dst and ip["hlim"] == hlim and ip["src"] == A_SRC
    assert s["sl"] == h[3] - 1 and s["raw"][4:] == h[4:]
    assert ip["payload"][len(h):] == inner


def test_end_same_as_intree(chain):
    c, m = chain, marker()
    frame, h, inner = sr_frame([sid("R3"), SID], 1, m)
    ref, got, nl = compare(
        c, frame, m, f"{SID}/128 encap seg6local action End dev "
        f"{c.iface('R2', 'R1')}", ((SID, "End"), {"count": True}))
    assert len(ref) == 1 and got == ref
    check_end(got[0], h, inner, sid("R3"))
    e = nl.get(SID)
    assert (e["packets"], e["bytes"], e["errors"]) == (1, len(frame) - 14, 0)
    assert nl.stats()["sid_end"] == 1


def test_end_x_same_as_intree(chain):
    c, m = chain, marker()
    frame, h, inner = sr_frame([FAR, SID], 1, m)
    ref, got, nl = compare(
        c, frame, m, f"{SID}/128 encap seg6local action End.X nh6 "
        f"{addr6(3, 'R3')} dev {c.iface('R2', 'R3')}",
        ((SID, "End.X"), {"nh6": addr6(3, "R3")}))
    assert len(ref) == 1 and got == ref
    check_end(got[0], h, inner, FAR)
    # with the interface given, the same frame
    oif = ifindex(c.ns["R2"], c.iface("R2", "R3"))
    nl.must_add(SID, "End.X", nh6=addr6(3, "R3"), oif=oif, replace=True)
    assert emit(c, frame, ("R3", c.iface("R3", "R2")), m) == ref
    assert nl.stats()["sid_end_x"] == 2


def test_sid_shadows_intree_route_until_flushed(chain):
    """A seg6x SID takes the packets of an in-tree seg6local route of the
    same prefix; once `seg6ctl sid flush` removed it, the route gets them
    again (nothing of seg6x's is left in the way)."""
    c = chain
    r2 = c.ns["R2"]
    intree(c, f"{SID}/128 encap seg6local action End.X nh6 "
              f"{addr6(1, 'R1')} dev {c.iface('R2', 'R1')}")
    try:
        ctl("sid", "add", SID, "behavior", "End.X", "nh6", addr6(3, "R3"),
            ns=r2)
        m = marker()
        frame, h, inner = sr_frame([FAR, SID], 1, m)
        assert len(emit(c, frame, ("R3", c.iface("R3", "R2")), m)) == 1
        ctl("sid", "flush", ns=r2)
        assert ctl("sid", "show", ns=r2, js=True) == []
        m = marker()
        frame, h, inner = sr_frame([FAR, SID], 1, m)
        # the in-tree End.X sends it back out towards R1
        tap = Tap(c.ns["R1"], c.iface("R1", "R2"))
        Tap(c.ns["R1"], c.iface("R1", "R2")).send(frame)
        got = tap.collect(lambda f: m in f, incoming_only=True)
        tap.close()
        assert len(got) == 1
        check_end(got[0], h, inner, FAR)
    finally:
        intree_del(c, f"{SID}/128")


def test_end_t_same_as_intree(chain):
    c, m = chain, marker()
    ip_batch(c.ns["R2"], [f"route add fc00:99::/64 via {addr6(3, 'R3')}"
                          f" dev {c.iface('R2', 'R3')} table 100"])
    frame, h, inner = sr_frame([FAR, SID], 1, m)
    ref, got, nl = compare(
        c, frame, m, f"{SID}/128 encap seg6local action End.T table 100 "
        f"dev {c.iface('R2', 'R1')}", ((SID, "End.T"), {"table": 100}))
    assert len(ref) == 1 and got == ref
    check_end(got[0], h, inner, FAR)


@pytest.mark.parametrize("beh", ["End", "End.X", "End.T"])
def test_psp(chain, beh):
    """RFC 8986 4.16.1: at SL 1 -> 0 the SRH is removed; compared with
    the in-tree End where that kernel has PSP."""
    c, m = chain, marker()
    ip_batch(c.ns["R2"], [f"route add fc00:99::/64 via {addr6(3, 'R3')}"
                          f" dev {c.iface('R2', 'R3')} table 100"])
    frame, h, inner = sr_frame([FAR, SID], 1, m)
    kw = {"End": {}, "End.X": {"nh6": addr6(3, "R3")},
          "End.T": {"table": 100}}[beh]
    ref = None
    if beh == "End":
        ip_batch(c.ns["R2"], [f"route add fc00:99::/64 via "
                              f"{addr6(3, 'R3')} dev {c.iface('R2', 'R3')}"])
        route = (f"{SID}/128 encap seg6local action End flavors psp dev "
                 f"{c.iface('R2', 'R1')}")
        p = ip_batch.__globals__["sh"](
            ["ip", "-n", c.ns["R2"], "-6", "route", "add"] + route.split(),
            check=False)
        if p.returncode == 0:
            ref = emit(c, frame, ("R3", c.iface("R3", "R2")), m)
            intree_del(c, route)
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, beh, flavors="psp", **kw)
    got = emit(c, frame, ("R3", c.iface("R3", "R2")), m)
    assert len(got) == 1
    ip = eth_ipv6(got[0])
    assert ip["nh"] == NH_IPV6 and ip["dst"] == FAR and ip["hlim"] == 63
    assert ip["plen"] == len(inner) and ip["payload"] == inner
    if ref is not None:
        assert got == ref
    # PSP applies only when SL becomes 0: SL 2 -> 1 keeps the SRH
    m2 = marker()
    frame2, h2, inner2 = sr_frame([sid("B"), FAR, SID], 2, m2)
    got = emit(c, frame2, ("R3", c.iface("R3", "R2")), m2)
    assert len(got) == 1
    assert parse_srh(eth_ipv6(got[0])["payload"])["sl"] == 1


def _reply_at_r1(c, frame, match):
    tap = Tap(c.ns["R1"], c.iface("R1", "R2"))
    Tap(c.ns["R1"], c.iface("R1", "R2")).send(frame)
    got = tap.collect(match, incoming_only=True)
    tap.close()
    return got


def _echo(seq, m):
    return bytes(ICMPv6EchoRequest(id=0x77, seq=seq, data=m))


@pytest.mark.parametrize("with_srh", [False, True])
def test_ping_to_sid_answered(chain, with_srh):
    """RFC 8986 4.1.1: ICMPv6 to a SID is processed locally, with or
    without an SRH at SL 0; the SID is no address of the node."""
    c, m = chain, marker()
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End", count=True)
    icmp = IPv6(src=A_SRC, dst=SID, nh=58) / ICMPv6EchoRequest(
        id=0x77, seq=3, data=m)
    if with_srh:
        raw = bytes(icmp)
        pl = raw[40:]
        h = srh([SID, sid("R1")], sl=0, nh=NH_ICMP6)
        pkt = IPv6(src=A_SRC, dst=SID, nh=NH_ROUTING) / Raw(h + pl)
    else:
        pkt = icmp
    got = _reply_at_r1(c, frame_to_r2(pkt), lambda f: (
        eth_ipv6(f) and eth_ipv6(f)["nh"] == 58 and
        eth_ipv6(f)["payload"][0] == 129 and m in f))
    assert len(got) == 1
    ip = eth_ipv6(got[0])
    assert ip["src"] == SID and ip["dst"] == A_SRC
    assert nl.get(SID)["packets"] == 1


def test_upper_layer_other_than_icmp_refused(chain):
    """4.1.1: Parameter Problem code 4, pointer to the upper-layer
    header, counted as an error."""
    c, m = chain, marker()
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End", count=True)
    pkt = bytes(IPv6(src=A_SRC, dst=SID)) [:0] + udp6(A_SRC, SID, m)
    got = _reply_at_r1(c, frame_to_r2(pkt), lambda f: (
        eth_ipv6(f) and eth_ipv6(f)["nh"] == 58 and
        eth_ipv6(f)["payload"][0] == 4 and m in f))
    assert len(got) == 1
    icmp = eth_ipv6(got[0])["payload"]
    assert icmp[1] == 4 and struct.unpack("!I", icmp[4:8])[0] == 40
    e = nl.get(SID)
    assert e["errors"] == 1 and e["packets"] == 0
    # SL 0 with an inner IPv6 packet and no USD: the same refusal
    m2 = marker()
    frame, h, inner = sr_frame([SID, sid("R1")], 0, m2)
    got = _reply_at_r1(c, frame, lambda f: (
        eth_ipv6(f) and eth_ipv6(f)["nh"] == 58 and m2 in f))
    assert len(got) == 1
    icmp = eth_ipv6(got[0])["payload"]
    assert icmp[0] == 4 and icmp[1] == 4
    assert struct.unpack("!I", icmp[4:8])[0] == 40 + len(h)


@pytest.mark.parametrize("flv", ["usd", "usp,usd"])
def test_usd_decapsulates(chain, flv):
    """RFC 8986 4.16.3: at SL 0 (or without SRH) an inner IPv6 packet is
    decapsulated and forwarded."""
    c, m = chain, marker()
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End.X", nh6=addr6(3, "R3"), flavors=flv)
    frame, h, inner = sr_frame([SID, sid("R1")], 0, m, hlim=9)
    got = emit(c, frame, ("R3", c.iface("R3", "R2")), m)
    assert len(got) == 1
    ip = eth_ipv6(got[0])
    assert ip["dst"] == B6 and ip["src"] == A_SRC and ip["hlim"] == 63
    assert ip["payload"] == inner[40:]
    # without an SRH at all
    m2 = marker()
    inner2 = udp6(A_SRC, B6, m2)
    got = emit(c, frame_to_r2(IPv6(src=A_SRC, dst=SID, nh=41) /
                              Raw(inner2)), ("R3", c.iface("R3", "R2")), m2)
    assert len(got) == 1 and eth_ipv6(got[0])["dst"] == B6


def test_usp_pops_srh_for_local_delivery(chain):
    """RFC 8986 4.16.2: at SL 0 the SRH is removed, then 4.1.1."""
    c, m = chain, marker()
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End", flavors="usp")
    # the checksum covers the final destination, the SID
    pl = bytes(IPv6(src=A_SRC, dst=SID) / ICMPv6EchoRequest(
        id=0x77, seq=5, data=m))[40:]
    h = srh([SID, sid("R1")], sl=0, nh=NH_ICMP6)
    frame = frame_to_r2(IPv6(src=A_SRC, dst=SID, nh=NH_ROUTING) /
                        Raw(h + pl))
    got = _reply_at_r1(c, frame, lambda f: (
        eth_ipv6(f) and eth_ipv6(f)["nh"] == 58 and
        eth_ipv6(f)["payload"][0] == 129 and m in f))
    assert len(got) == 1


def test_longest_prefix_wins_and_unmatched_unchanged(chain):
    c, m = chain, marker()
    nl = SidNl(c.ns["R2"])
    nl.must_add("fc00:e2::/32", "End.X", nh6=addr6(1, "R1"), count=True)
    nl.must_add(SID, "End.X", nh6=addr6(3, "R3"), count=True)
    frame, h, inner = sr_frame([FAR, SID], 1, m)
    assert len(emit(c, frame, ("R3", c.iface("R3", "R2")), m)) == 1
    m2 = marker()
    frame, h, inner = sr_frame([FAR, "fc00:e2::5"], 1, m2)
    tap = Tap(c.ns["R1"], c.iface("R1", "R2"))
    Tap(c.ns["R1"], c.iface("R1", "R2")).send(frame)
    assert len(tap.collect(lambda f: m2 in f, incoming_only=True)) == 1
    assert nl.get(SID)["packets"] == 1
    assert nl.get("fc00:e2::/32")["packets"] == 1
    # the node's own address, matching no SID: the implicit End (off)
    m3 = marker()
    inner = udp6(A_SRC, addr6(2, "R2"), m3)
    got = emit(c, frame_to_r2(IPv6(src=A_SRC, dst=addr6(4, "B")) /
                              Raw(inner[40:])), ("R3", c.iface("R3", "R2")),
               m3)
    assert len(got) == 1 and eth_ipv6(got[0])["hlim"] == 63


def test_counters_exact(chain):
    c = chain
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End", count=True)
    tap = Tap(c.ns["R1"], c.iface("R1", "R2"))
    total = 0
    for i in range(7):
        m = marker() + b"x" * i
        frame, h, inner = sr_frame([sid("R3"), SID], 1, m)
        tap.send(frame)
        total += len(frame) - 14
    for i in range(3):      # upper layer other than ICMPv6: errors
        tap.send(frame_to_r2(udp6(A_SRC, SID, marker())))
    import time
    time.sleep(scaled(0.5))
    e = nl.get(SID)
    assert (e["packets"], e["bytes"], e["errors"]) == (7, total, 3)


@pytest.mark.parametrize("with_arg", [True, False])
def test_next_csid_same_as_intree(chain, with_arg):
    """RFC 9800 NEXT-C-SID on End (locator block 32 bits, C-SID 16): a
    non-zero argument shifts the next C-SID up, a zero one is plain End."""
    c, m = chain, marker()
    ip_batch(c.ns["R2"], [f"route add fc00:e2:f3::/48 via {addr6(3, 'R3')} "
                          f"dev {c.iface('R2', 'R3')}"])
    inner = udp6(A_SRC, B6, m)
    if with_arg:
        frame = frame_to_r2(IPv6(src=A_SRC, dst="fc00:e2:100:f3::", nh=41,
                                 fl=7) / Raw(inner))
    else:
        frame, _, _ = sr_frame([sid("R3"), "fc00:e2:100::"], 1, m)
    ref, got, nl = compare(
        c, frame, m, "fc00:e2:100::/48 encap seg6local action End flavors "
        f"next-csid lblen 32 nflen 16 dev {c.iface('R2', 'R1')}",
        (("fc00:e2:100::/48", "End"),
         {"flavors": "next-csid", "lblen": 32, "nflen": 16}))
    assert len(ref) == 1 and got == ref
    assert eth_ipv6(got[0])["dst"] == ("fc00:e2:f3::" if with_arg
                                       else sid("R3"))
    assert nl.get("fc00:e2:100::/48")["sid"] == "fc00:e2:100::/48"


def test_interface_hmac_policy_applies_to_sids(chain):
    """require_hmac of the ingress interface: an SRH without HMAC to a
    SID is dropped (hmac_missing) and counted as the SID's error."""
    from conftest import ctl
    c, m = chain, marker()
    ctl("iface", "set", c.iface("R2", "R1"), "require_hmac", 1,
        ns=c.ns["R2"])
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End", count=True)
    frame, h, inner = sr_frame([sid("R3"), SID], 1, m)
    assert emit(c, frame, ("R3", c.iface("R3", "R2")), m, timeout=1) == []
    assert nl.get(SID)["errors"] == 1
    assert nl.stats()["hmac_missing"] == 1
    # without an SRH there is nothing to verify: 4.1.1 applies
    m2 = marker()
    got = _reply_at_r1(c, frame_to_r2(
        IPv6(src=A_SRC, dst=SID) / ICMPv6EchoRequest(id=1, seq=1, data=m2)),
        lambda f: m2 in f and eth_ipv6(f)["payload"][0] == 129)
    assert len(got) == 1
