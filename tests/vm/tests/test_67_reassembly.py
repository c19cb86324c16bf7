# SPDX-License-Identifier: GPL-2.0
"""Reassembly: seg6x puts together only the packets it processes itself
(SIDs, SR packets to its addresses); what a node only forwards leaves it
as it came, fragments as fragments and atomic fragments with their
Fragment header (RFC 8200 4.5), as with the in-tree seg6."""
import socket

import pytest
from scapy.all import UDP, Ether, ICMPv6PacketTooBig, IPv6, Raw, fragment6
from scapy.layers.inet6 import IPv6ExtHdrDestOpt, IPv6ExtHdrFragment

from conftest import enable, stats
from lib.netns import Tap, udp_socket
from lib.sidnl import SidNl
from lib.sidtest import SID, frame_to_r2
from lib.srv6 import NH_IPV6, NH_ROUTING, srh
from lib.topo import addr6, mac, sid

A_SRC = addr6(1, "A")
B6 = addr6(4, "B")
PORT = 5000
NH_FRAG = 44
NH_DEST = 60


def _from_a(pkt):
    return Ether(dst=mac(1, 1), src=mac(1, 0)) / pkt


def _udp(dst, data, ident):
    return (IPv6(src=A_SRC, dst=dst) / IPv6ExtHdrFragment(id=ident) /
            UDP(sport=4000, dport=PORT) / Raw(data))


def _frags_at(tap, ident):
    """IPv6 headers' Next Header and Fragment offsets of the frames with
    Fragment identification `ident` that reached `tap`."""
    got = []
    for f in tap.frames(timeout=2, incoming_only=True):
        p = Ether(f)
        if IPv6ExtHdrFragment in p and p[IPv6ExtHdrFragment].id == ident:
            got.append((p[IPv6].nh, p[IPv6ExtHdrFragment].offset,
                        p[IPv6].plen))
    return got


def _send_from_a(c, frames, watch):
    """Enable seg6x on R1-R3, send `frames` from A; a UDP socket of B and
    a tap at `watch` (node, peer) are ready before the first frame."""
    enable(c, "R1", "R2", "R3")
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    tap = Tap(c.ns[watch[0]], c.iface(*watch))
    a = Tap(c.ns["A"], c.iface("A", "R1"))
    for f in frames:
        a.send(_from_a(f))
    return rx, tap


def test_transit_fragments_forwarded_as_fragments(chain):
    """Through three seg6x namespaces, a fragmented datagram reaches B in
    the pieces A sent."""
    frags = fragment6(_udp(B6, b"T" * 3000, 0x5e6701), 1280)
    assert len(frags) == 3
    rx, tap = _send_from_a(chain, frags, ("B", "R3"))
    assert rx.recvfrom(4096)[0] == b"T" * 3000
    got = _frags_at(tap, 0x5e6701)
    assert sorted(o for _, o, _ in got) == \
        sorted(f[IPv6ExtHdrFragment].offset for f in frags)


def test_transit_atomic_fragment_keeps_its_header(chain):
    """An atomic fragment (offset 0, M = 0) is forwarded unchanged: the
    Fragment header and the Payload Length stay as sent."""
    pkt = (IPv6(src=A_SRC, dst=B6) / IPv6ExtHdrFragment(id=0x5e6702, m=0) /
           UDP(sport=4000, dport=PORT) / Raw(b"atomic"))
    plen = len(bytes(pkt)) - 40
    rx, tap = _send_from_a(chain, [pkt], ("B", "R3"))
    assert rx.recvfrom(4096)[0] == b"atomic"
    assert _frags_at(tap, 0x5e6702) == [(NH_FRAG, 0, plen)]


def test_transit_sr_fragments_reassembled_by_the_endpoint_only(chain):
    """An SR packet fragmented behind its SRH crosses R1 and R2 (which
    only forward it) in pieces; R3, its last segment, reassembles and
    decapsulates it."""
    c = chain
    inner = bytes(IPv6(src=A_SRC, dst=B6) / UDP(sport=4000, dport=PORT) /
                  Raw(b"S" * 1300))
    pkt = (IPv6(src=A_SRC, dst=sid("R3"), nh=NH_ROUTING) /
           Raw(srh([sid("R3")], sl=0, nh=NH_FRAG)) /
           IPv6ExtHdrFragment(nh=NH_IPV6, id=0x5e6703) / Raw(inner))
    frags = fragment6(pkt, 600)
    assert len(frags) >= 3
    rx, tap = _send_from_a(c, frags, ("R3", "R2"))
    assert rx.recvfrom(4096)[0] == b"S" * 1300
    got = _frags_at(tap, 0x5e6703)
    assert len(got) == len(frags)
    assert all(nh == NH_ROUTING for nh, _, _ in got)
    assert stats(c.ns["R3"])["decap"] == 1
    assert stats(c.ns["R2"])["end"] == 0


def test_sr_fragments_behind_options_reassembled(chain):
    """The Fragment header further behind the SRH, after a Destination
    Options header: R3 still finds it, reassembles and decapsulates."""
    c = chain
    inner = bytes(IPv6(src=A_SRC, dst=B6) / UDP(sport=4000, dport=PORT) /
                  Raw(b"O" * 1300))
    pkt = (IPv6(src=A_SRC, dst=sid("R3"), nh=NH_ROUTING) /
           Raw(srh([sid("R3")], sl=0, nh=NH_DEST)) /
           IPv6ExtHdrDestOpt(nh=NH_FRAG) /
           IPv6ExtHdrFragment(nh=NH_IPV6, id=0x5e6706) / Raw(inner))
    frags = fragment6(pkt, 600)
    assert len(frags) >= 3
    assert all(NH_DEST == bytes(f[IPv6])[40] for f in frags)
    rx, _ = _send_from_a(c, frags, ("R3", "R2"))
    assert rx.recvfrom(4096)[0] == b"O" * 1300
    assert stats(c.ns["R3"])["decap"] == 1


def _dx6_fragmented(c, size, ident):
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End.DX6", nh6=addr6(3, "R3"), count=True)
    inner = bytes(IPv6(src=A_SRC, dst=B6) / UDP(sport=4000, dport=PORT) /
                  Raw(b"D" * size))
    pkt = (IPv6(src=A_SRC, dst=SID) /
           IPv6ExtHdrFragment(nh=NH_IPV6, id=ident) / Raw(inner))
    frags = fragment6(pkt, 600)
    assert len(frags) >= 3
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    r1 = Tap(c.ns["R1"], c.iface("R1", "R2"))
    for f in frags:
        r1.send(frame_to_r2(f))
    return nl, rx, r1


def test_fragments_to_a_sid_reassembled(chain):
    """A SID gets the whole packet: End.DX6 of a fragmented IPv6-in-IPv6
    packet delivers the inner datagram."""
    nl, rx, _ = _dx6_fragmented(chain, 1300, 0x5e6704)
    assert rx.recvfrom(4096)[0] == b"D" * 1300
    assert nl.get(SID)["packets"] == 1


def test_inner_packet_too_big_not_fragmented(chain):
    """The decapsulated packet was never fragmented by its source: past
    the SID it is too big for the next link (1500), so the source gets a
    Packet Too Big, and no router fragments it on its way."""
    nl, rx, r1 = _dx6_fragmented(chain, 2000, 0x5e6705)
    ptb = r1.collect(lambda f: ICMPv6PacketTooBig in Ether(f),
                     incoming_only=True)
    assert len(ptb) == 1 and Ether(ptb[0])[ICMPv6PacketTooBig].mtu == 1500
    with pytest.raises(socket.timeout):
        rx.recvfrom(4096)
    assert nl.get(SID)["packets"] == 1
