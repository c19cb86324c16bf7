# SPDX-License-Identifier: GPL-2.0
"""Decapsulating SID behaviours (RFC 8986 4.4-4.9): End.DX6, End.DX4,
End.DT6 (table, VRF), End.DT4 and End.DT46 (VRF), End.DX2. Compared
byte for byte with the in-tree seg6local where it behaves the same."""
import socket

import pytest
from scapy.all import IP, UDP, Ether, IPv6, Raw

from lib.netns import Tap, ip_batch, sysctl, udp_socket
from lib.sidnl import SidNl, ifindex
from lib.sidtest import (A_SRC, SID, compare, emit, frame_to_r2, marker,
                         udp6)
from lib.srv6 import NH_IPV4, NH_IPV6, NH_ROUTING, eth_ipv6, srh
from lib.timing import scaled
from lib.topo import addr4, addr6, mac, sid

B6 = addr6(4, "B")
NH_ETH = 143


def encap(inner, nh, with_srh=True, sl=0):
    if with_srh:
        h = srh([SID, sid("R1")], sl=sl, nh=nh)
        return frame_to_r2(IPv6(src=A_SRC, dst=SID, nh=NH_ROUTING) /
                           Raw(h + inner))
    return frame_to_r2(IPv6(src=A_SRC, dst=SID, nh=nh) / Raw(inner))


def udp4(dst, m, ttl=30):
    return bytes(IP(src=addr4(1, "A"), dst=dst, ttl=ttl, tos=0x10) /
                 UDP(sport=4000, dport=5000) / Raw(m))


def r3_in(c):
    return ("R3", c.iface("R3", "R2"))


@pytest.mark.parametrize("with_srh", [True, False])
def test_dx6_same_as_intree(chain, with_srh):
    c, m = chain, marker()
    inner = udp6(A_SRC, B6, m, hlim=20)
    frame = encap(inner, NH_IPV6, with_srh)
    ref, got, nl = compare(
        c, frame, m, f"{SID}/128 encap seg6local action End.DX6 nh6 "
        f"{addr6(3, 'R3')} dev {c.iface('R2', 'R3')}",
        ((SID, "End.DX6"), {"nh6": addr6(3, "R3"), "count": True}))
    assert len(ref) == 1 and got == ref
    ip = eth_ipv6(got[0])
    assert ip["dst"] == B6 and ip["hlim"] == 19
    assert nl.get(SID)["packets"] == 1
    assert nl.stats()["sid_end_dx6"] == 1


def test_dx6_refuses_sl_not_zero_and_wrong_payload(chain):
    c = chain
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End.DX6", nh6=addr6(3, "R3"), count=True)
    tap = Tap(c.ns["R1"], c.iface("R1", "R2"))
    m = marker()
    tap.send(encap(udp6(A_SRC, B6, m), NH_IPV6, sl=1))
    err = tap.collect(lambda f: m in f and eth_ipv6(f) and
                      eth_ipv6(f)["nh"] == 58, incoming_only=True)
    assert len(err) == 1     # Parameter Problem, pointer to SL
    icmp = eth_ipv6(err[0])["payload"]
    assert icmp[:2] == b"\x04\x00" and icmp[4:8] == b"\0\0\0\x2b"
    tap.send(encap(udp4(addr4(4, "B"), marker()), NH_IPV4))
    import time
    time.sleep(scaled(0.3))
    assert nl.get(SID)["errors"] == 2
    assert nl.stats()["drop_sid"] == 2


def test_dx4_same_as_intree_when_inner_dst_is_nh4(chain):
    c, m = chain, marker()
    inner = udp4(addr4(3, "R3"), m)
    frame = encap(inner, NH_IPV4)
    ref, got, nl = compare(
        c, frame, m, f"{SID}/128 encap seg6local action End.DX4 nh4 "
        f"{addr4(3, 'R3')} dev {c.iface('R2', 'R3')}",
        ((SID, "End.DX4"), {"nh4": addr4(3, "R3")}))
    assert len(ref) == 1 and got == ref
    assert got[0][:6] == bytes.fromhex(mac(3, 1).replace(":", ""))


def test_dx4_forwards_to_nh4_not_inner_destination(chain):
    """RFC 8986 4.5: the inner packet goes to nh4's link-layer address
    (the in-tree seg6local resolves the inner destination instead)."""
    c, m = chain, marker()
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End.DX4", nh4=addr4(3, "R3"), count=True)
    rx = udp_socket(c.ns["B"], socket.AF_INET, addr4(4, "B"), 5000)
    # 10.0.4.11 is not on R2's links: only nh4 gets it there
    got = emit(c, encap(udp4(addr4(4, "B"), m), NH_IPV4), r3_in(c), m)
    assert len(got) == 1
    f = got[0]
    assert f[:6] == bytes.fromhex(mac(3, 1).replace(":", ""))
    assert f[12:14] == b"\x08\x00" and f[14 + 8] == 29       # TTL - 1
    data, peer = rx.recvfrom(2048)
    assert data == m and nl.get(SID)["packets"] == 1


def test_dt6_table_same_as_intree(chain):
    c, m = chain, marker()
    ip_batch(c.ns["R2"], [f"route add fc00:4::/64 via {addr6(3, 'R3')} "
                          f"dev {c.iface('R2', 'R3')} table 100"])
    inner = udp6(A_SRC, B6, m, hlim=20)
    frame = encap(inner, NH_IPV6)
    ref, got, nl = compare(
        c, frame, m, f"{SID}/128 encap seg6local action End.DT6 table 100 "
        f"dev {c.iface('R2', 'R1')}", ((SID, "End.DT6"), {"table": 100}))
    assert len(ref) == 1 and got == ref


def _vrfs(c):
    """Two VRFs on R2 holding the same prefixes 10.99.0.0/24 and
    fc00:99::/64: red towards R3, blue back towards R1."""
    r2 = c.ns["R2"]
    ip_batch(r2, [
        "link add red type vrf table 10", "link set red up",
        "link add blue type vrf table 20", "link set blue up",
        f"route add 10.99.0.0/24 via {addr4(3, 'R3')} dev "
        f"{c.iface('R2', 'R3')} table 10",
        f"route add 10.99.0.0/24 via {addr4(2, 'R1')} dev "
        f"{c.iface('R2', 'R1')} table 20",
        f"route add fc00:99::/64 via {addr6(3, 'R3')} dev "
        f"{c.iface('R2', 'R3')} table 10",
        f"route add fc00:99::/64 via {addr6(2, 'R1')} dev "
        f"{c.iface('R2', 'R1')} table 20"])
    return ifindex(r2, "red"), ifindex(r2, "blue")


@pytest.mark.parametrize("beh,fam", [("End.DT4", 4), ("End.DT46", 4),
                                     ("End.DT46", 6), ("End.DT6", 6)])
def test_dt_vrf_same_prefix_two_vrfs(chain, beh, fam):
    c = chain
    red, blue = _vrfs(c)
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, beh, vrf=red, count=True)
    nl.must_add("fc00:e2::200", beh, vrf=blue, count=True)

    def pkt(m, s):
        inner = udp4("10.99.0.7", m) if fam == 4 else \
            udp6(A_SRC, "fc00:99::7", m, hlim=20)
        nh = NH_IPV4 if fam == 4 else NH_IPV6
        h = srh([s, sid("R1")], sl=0, nh=nh)
        return frame_to_r2(IPv6(src=A_SRC, dst=s, nh=NH_ROUTING) /
                           Raw(h + inner)), inner

    m = marker()
    frame, inner = pkt(m, SID)
    got = emit(c, frame, r3_in(c), m)
    assert len(got) == 1
    m2 = marker()
    frame2, _ = pkt(m2, "fc00:e2::200")
    got2 = emit(c, frame2, ("R1", c.iface("R1", "R2")), m2)
    assert len(got2) == 1
    assert nl.get(SID)["packets"] == 1
    assert nl.get("fc00:e2::200")["packets"] == 1

    # the same frame as the in-tree seg6local (which needs strict mode)
    sysctl(c.ns["R2"], "net.vrf.strict_mode", 1)
    nl.flush()
    route = (f"{SID}/128 encap seg6local action {beh} vrftable 10 dev "
             f"{c.iface('R2', 'R1')}")
    ip_batch(c.ns["R2"], ["route add " + route])
    m3 = marker()
    frame3, _ = pkt(m3, SID)
    ref = emit(c, frame3, r3_in(c), m3)
    ip_batch(c.ns["R2"], ["route del " + route])
    nl.must_add(SID, beh, vrf=red)
    mine = emit(c, frame3, r3_in(c), m3)
    assert len(ref) == 1 and mine == ref


def test_dt46_refuses_other_payloads(chain):
    c = chain
    red, _ = _vrfs(c)
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End.DT4", vrf=red, count=True)
    tap = Tap(c.ns["R1"], c.iface("R1", "R2"))
    tap.send(encap(udp6(A_SRC, "fc00:99::7", marker()), NH_IPV6))
    import time
    time.sleep(scaled(0.3))
    assert nl.get(SID)["errors"] == 1


def test_dx2_l2_frame_out_of_its_device(chain):
    c = chain
    m = marker()
    l2 = bytes(Ether(dst="02:aa:bb:cc:dd:ee", src="02:11:22:33:44:55") /
               IP(src="192.168.7.1", dst="192.168.7.2") /
               UDP(sport=1, dport=2) / Raw(m))
    frame = encap(l2, NH_ETH)
    ref, got, nl = compare(
        c, frame, m, f"{SID}/128 encap seg6local action End.DX2 oif "
        f"{c.iface('R2', 'R3')} dev {c.iface('R2', 'R1')}",
        ((SID, "End.DX2"),
         {"oif": ifindex(c.ns["R2"], c.iface("R2", "R3")), "count": True}))
    assert len(ref) == 1 and got == ref and got[0] == l2
    # nothing out of the other device
    m2 = marker()
    tap = Tap(c.ns["R1"], c.iface("R1", "R2"))
    l2b = l2.replace(m, m2)
    tap.send(encap(l2b, NH_ETH, with_srh=False))
    assert len(tap.collect(lambda f: m2 in f and f[:6] != bytes.fromhex(
        mac(2, 1).replace(":", "")), incoming_only=True, timeout=1)) == 0
    assert nl.get(SID)["packets"] == 2
