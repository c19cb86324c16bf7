# SPDX-License-Identifier: GPL-2.0
"""SR endpoint data plane (End, cleanup, decap, local delivery,
policy, validation, interop with the in-tree seg6, counters)."""
import random
import socket
import struct

import pytest
from scapy.all import IP, UDP, Ether, ICMPv6EchoRequest, IPv6, Raw

from conftest import ctl, enable, stats, wait_until
from lib.netns import Tap, ip_batch, read_sysctl, udp_socket
from lib.srv6 import (NH_IPV4, NH_IPV6, NH_ROUTING, NH_UDP,
                      eth_ipv6, parse_srh, srh)
from lib.topo import addr4, addr6, mac, sid
from lib.timing import scaled

A_SRC = addr6(1, "A")
B6 = addr6(4, "B")
PORT = 5000


def tag():
    return random.randint(1, 0xFFFF)


def frame_from_a(dst, payload, hlim=64, nh=NH_ROUTING):
    return (Ether(dst=mac(1, 1), src=mac(1, 0)) /
            IPv6(src=A_SRC, dst=dst, nh=nh, hlim=hlim) / Raw(payload))


def udp6(src, dst, data, dport=PORT):
    """IPv6+UDP bytes (checksum over src/dst), and the UDP part alone."""
    b = bytes(IPv6(src=src, dst=dst) / UDP(sport=4000, dport=dport) /
              Raw(data))
    return b, b[40:]


def has_tag(t):
    def match(f):
        ip = eth_ipv6(f)
        if not ip or ip["nh"] != NH_ROUTING:
            return False
        return parse_srh(ip["payload"])["tag"] == t
    return match


@pytest.fixture
def sr(chain):
    """The chain with seg6x enabled on R2 and R3."""
    enable(chain, "R2", "R3")
    return chain


def test_end_then_decap_ipv6_udp(sr):
    c, t = sr, tag()
    inner, _ = udp6(A_SRC, B6, b"hello over srv6")
    h = srh([sid("R3"), sid("R2")], sl=1, nh=NH_IPV6, tag=t)
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    tap = Tap(c.ns["R3"], c.iface("R3", "R2"))
    a = Tap(c.ns["A"], c.iface("A", "R1"))
    a.send(frame_from_a(sid("R2"), h + inner))

    got = tap.collect(has_tag(t), incoming_only=True)
    assert len(got) == 1
    ip = eth_ipv6(got[0])
    s = parse_srh(ip["payload"])
    # R2 advanced the segment; forwarding by R1 and R2 took two hops
    assert ip["dst"] == sid("R3") and ip["src"] == A_SRC
    assert ip["hlim"] == 62
    assert ip["plen"] == len(h) + len(inner)
    assert s["sl"] == 0 and s["le"] == 1 and s["nh"] == NH_IPV6
    assert s["raw"][:3] == h[:3] and s["raw"][4:] == h[4:]
    assert ip["payload"][len(h):] == inner
    data, peer = rx.recvfrom(2048)
    assert data == b"hello over srv6" and peer[0] == A_SRC
    assert stats(c.ns["R2"])["end"] == 1
    assert stats(c.ns["R3"])["decap"] == 1


def test_icmpv6_echo_through_the_chain(sr):
    c = sr
    inner = bytes(IPv6(src=A_SRC, dst=B6) / ICMPv6EchoRequest(id=77, seq=1,
                                                             data=b"ping"))
    h = srh([sid("R3"), sid("R2")], sl=1, nh=NH_IPV6)
    a = Tap(c.ns["A"], c.iface("A", "R1"))
    a.send(frame_from_a(sid("R2"), h + inner))

    def reply(f):
        ip = eth_ipv6(f)
        return (ip and ip["nh"] == 58 and ip["src"] == B6 and
                ip["payload"][0] == 129)
    got = a.collect(reply, incoming_only=True)
    assert len(got) == 1
    icmp = eth_ipv6(got[0])["payload"]
    assert struct.unpack("!HH", icmp[4:8]) == (77, 1)
    assert icmp[8:] == b"ping"


def test_decap_ipv4_inner(sr):
    c = sr
    inner = bytes(IP(src=addr4(1, "A"), dst=addr4(4, "B"), ttl=30) /
                  UDP(sport=4000, dport=PORT) / Raw(b"v4 inside"))
    h = srh([sid("R3"), sid("R2")], sl=1, nh=NH_IPV4)
    rx = udp_socket(c.ns["B"], socket.AF_INET, addr4(4, "B"), PORT)
    Tap(c.ns["A"], c.iface("A", "R1")).send(frame_from_a(sid("R2"),
                                                         h + inner))
    data, peer = rx.recvfrom(2048)
    assert data == b"v4 inside" and peer[0] == addr4(1, "A")
    assert stats(c.ns["R3"])["decap"] == 1


def test_looped_back_local_segment(sr):
    c, t = sr, tag()
    ip_batch(c.ns["R2"], ["addr add fc00:ff::22/128 dev lo"])
    inner, _ = udp6(A_SRC, B6, b"looped")
    h = srh([sid("R3"), "fc00:ff::22", sid("R2")], sl=2, nh=NH_IPV6, tag=t)
    tap = Tap(c.ns["R3"], c.iface("R3", "R2"))
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    Tap(c.ns["A"], c.iface("A", "R1")).send(frame_from_a(sid("R2"),
                                                         h + inner))
    got = tap.collect(has_tag(t), incoming_only=True)
    assert len(got) == 1
    ip = eth_ipv6(got[0])
    # one hop at R1, one for the local loop, one forwarding at R2
    assert ip["hlim"] == 61 and ip["dst"] == sid("R3")
    assert parse_srh(ip["payload"])["sl"] == 0
    assert rx.recvfrom(2048)[0] == b"looped"
    assert stats(c.ns["R2"])["end"] == 2


def test_loop_hop_limit_guard(sr):
    c = sr
    ip_batch(c.ns["R2"], ["addr add fc00:ff::22/128 dev lo"])
    segs = [sid("R3")] + ["fc00:ff::22", sid("R2")] * 4
    h = srh(segs, sl=len(segs) - 1, nh=NH_IPV6)
    inner, _ = udp6(A_SRC, B6, b"x")
    Tap(c.ns["A"], c.iface("A", "R1")).send(
        frame_from_a(sid("R2"), h + inner, hlim=4))
    assert wait_until(
        lambda: stats(c.ns["R2"])["drop"]["hop_limit"] == 1)
    s = stats(c.ns["R2"])
    assert s["end"] == 3   # hop limit 3 at R2: two local passes, then drop


def test_nested_srh_after_decap(sr):
    c = sr
    inner, _ = udp6(A_SRC, B6, b"nested")
    inner_sr = (bytes(IPv6(src=A_SRC, dst=sid("R2"), nh=NH_ROUTING)) +
                srh([sid("R3"), sid("R2")], sl=1, nh=NH_IPV6) + inner)
    # fix the inner header's payload length (scapy left it at 0)
    inner_sr = (inner_sr[:4] + struct.pack("!H", len(inner_sr) - 40) +
                inner_sr[6:])
    outer = srh([sid("R2")], sl=0, nh=NH_IPV6)
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    Tap(c.ns["A"], c.iface("A", "R1")).send(frame_from_a(sid("R2"),
                                                         outer + inner_sr))
    assert rx.recvfrom(2048)[0] == b"nested"
    s2, s3 = stats(c.ns["R2"]), stats(c.ns["R3"])
    assert (s2["decap"], s2["end"], s3["decap"]) == (1, 1, 1)


def test_local_delivery_with_kernel_sysctl_off(sr):
    c = sr
    assert read_sysctl(c.ns["R3"], "net.ipv6.conf.all.seg6_enabled") == "0"
    _, udp = udp6(A_SRC, sid("R3"), b"for R3 itself")
    h = srh([sid("R3"), sid("R2")], sl=1, nh=NH_UDP)
    rx = udp_socket(c.ns["R3"], socket.AF_INET6, sid("R3"), PORT)
    Tap(c.ns["A"], c.iface("A", "R1")).send(frame_from_a(sid("R2"),
                                                         h + udp))
    assert rx.recvfrom(2048)[0] == b"for R3 itself"
    assert stats(c.ns["R3"])["local"] == 1


@pytest.mark.parametrize("how", ["default", "iface"])
def test_disabled_leaves_packet_to_the_kernel(chain, how):
    c = chain
    enable(c, "R3")
    # seg6x hooks a namespace once something in it is enabled: only
    # then does it see (and count) what it leaves to the stack
    enable(c, "R2")
    if how == "iface":
        ctl("iface", "set", c.iface("R2", "R1"), "seg6_enabled", "0",
            ns=c.ns["R2"])
    else:
        ctl("iface", "set", "default", "seg6_enabled", "0", ns=c.ns["R2"])
    inner, _ = udp6(A_SRC, B6, b"nope")
    h = srh([sid("R3"), sid("R2")], sl=1, nh=NH_IPV6)
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    rx.settimeout(1.5)
    Tap(c.ns["A"], c.iface("A", "R1")).send(frame_from_a(sid("R2"),
                                                         h + inner))
    with pytest.raises(socket.timeout):
        rx.recvfrom(2048)
    s = stats(c.ns["R2"])
    assert s["passed"] == 1 and s["end"] == 0
    assert s["drop"]["disabled"] == 1       # its former name, kept for now
    assert stats(c.ns["R3"])["decap"] == 0


def _param_problem(f):
    ip = eth_ipv6(f)
    return ip and ip["nh"] == 58 and ip["payload"][0] == 4


MALFORMED = {
    # name: (srh bytes, expected ICMP pointer or None for silent drop)
    "sl_beyond_last_entry": (srh([sid("R3"), sid("R2")], sl=5, nh=NH_IPV6),
                             43),
    "hdrlen_too_small_for_sl": (srh([sid("R3"), sid("R2")], sl=1,
                                    nh=NH_IPV6, hdrlen=2), 43),
    "hdrlen_inconsistent_with_le": (srh([sid("R3"), sid("R2")], sl=0,
                                        nh=NH_IPV6, hdrlen=2), 41),
    "zero_segments": (srh([], sl=0, nh=NH_IPV6, last_entry=0), 43),
    "bad_tlv_length": (srh([sid("R3"), sid("R2")], sl=1, nh=NH_IPV6,
                           tlvs=bytes([6, 30, 0, 0, 0, 0, 0, 0])), 41),
}


@pytest.mark.parametrize("case", sorted(MALFORMED) + ["truncated"])
def test_malformed_srh_dropped(sr, case):
    c = sr
    inner, _ = udp6(A_SRC, B6, b"bad")
    if case == "truncated":
        # Hdr Ext Len promises two segments, the packet holds one
        h = srh([sid("R2")], sl=0, nh=NH_IPV6, hdrlen=4)
        payload, pointer = h, None
    else:
        h, pointer = MALFORMED[case]
        payload = h + inner
    a = Tap(c.ns["A"], c.iface("A", "R1"))
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    rx.settimeout(1.0)
    for _ in range(3):
        a.send(frame_from_a(sid("R2"), payload))
    errors = a.collect(_param_problem, count=3, timeout=2,
                       incoming_only=True)
    if pointer is None:
        assert errors == []
    else:
        assert len(errors) == 3
        ip = eth_ipv6(errors[0])
        assert ip["src"] == sid("R2")
        assert ip["payload"][1] == 0                     # code 0
        assert struct.unpack("!I", ip["payload"][4:8])[0] == pointer
    with pytest.raises(socket.timeout):
        rx.recvfrom(2048)
    assert stats(c.ns["R2"])["drop"]["bad_srh"] == 3
    # the node still works
    good = srh([sid("R3"), sid("R2")], sl=1, nh=NH_IPV6)
    rx.settimeout(scaled(3))
    a.send(frame_from_a(sid("R2"), good + inner))
    assert rx.recvfrom(2048)[0] == b"bad"


def test_interop_intree_encap_seg6x_endpoints(sr):
    c = sr
    ip_batch(c.ns["R1"], [
        f"route replace {B6}/128 encap seg6 mode encap segs "
        f"{sid('R2')},{sid('R3')} via {addr6(2, 'R2')} dev {c.iface('R1', 'R2')}"])
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    tx = udp_socket(c.ns["A"], socket.AF_INET6, A_SRC, 0)
    for i in range(5):
        tx.sendto(b"from the in-tree encap %d" % i, (B6, PORT))
    for i in range(5):
        assert rx.recvfrom(2048)[0] == b"from the in-tree encap %d" % i
    assert stats(c.ns["R2"])["end"] == 5
    assert stats(c.ns["R3"])["decap"] == 5


def test_counters_match_packets_sent(sr):
    c = sr
    n = 7
    inner, _ = udp6(A_SRC, B6, b"count")
    h = srh([sid("R3"), sid("R2")], sl=1, nh=NH_IPV6)
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    a = Tap(c.ns["A"], c.iface("A", "R1"))
    for _ in range(n):
        a.send(frame_from_a(sid("R2"), h + inner))
    for _ in range(n):
        rx.recvfrom(2048)
    s2, s3 = stats(c.ns["R2"]), stats(c.ns["R3"])
    assert s2["end"] == n and s3["decap"] == n
    assert s2["decap"] == 0 and s3["end"] == 0
    assert all(v == 0 for v in s2["drop"].values())
    ctl("stats", "reset", ns=c.ns["R2"])
    assert stats(c.ns["R2"])["end"] == 0
