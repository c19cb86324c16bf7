# SPDX-License-Identifier: GPL-2.0
"""Shared helpers of the SID table tests (test_60_sid_*)."""
import random

from scapy.all import UDP, Ether, IPv6, Raw

from .netns import Tap, ip_batch
from .sidnl import SidNl
from .topo import addr6, mac

A_SRC = addr6(1, "A")
SID = "fc00:e2::100"          # a SID of R2 that is no address of R2


def marker():
    return b"sid-%08x" % random.getrandbits(32)


def frame_to_r2(pkt):
    """An Ethernet frame R1 sends to R2 on link 2 (bytes of `pkt`)."""
    return bytes(Ether(dst=mac(2, 1), src=mac(2, 0), type=0x86DD)) + \
        bytes(pkt)


def udp6(src, dst, m, hlim=64):
    return bytes(IPv6(src=src, dst=dst, hlim=hlim, fl=0x12345, tc=0x28) /
                 UDP(sport=4000, dport=5000) / Raw(m))


def emit(c, frame, cap, m, count=1, timeout=3.0):
    """Send `frame` from R1 into R2; frames with `m` seen at `cap`
    (node, ifname) coming in."""
    tap = Tap(c.ns[cap[0]], cap[1])
    Tap(c.ns["R1"], c.iface("R1", "R2")).send(frame)
    got = tap.collect(lambda f: m in f, count=count, timeout=timeout,
                      incoming_only=True)
    tap.close()
    return got


def intree(c, route):
    """Install an in-tree seg6local route on R2 (`route`: ip args)."""
    ip_batch(c.ns["R2"], ["route add " + route])


def intree_del(c, route):
    ip_batch(c.ns["R2"], ["route del " + route])


def compare(c, frame, m, route, sid_args, cap=None, r2=None):
    """The frame R2 emits for `frame` with the in-tree seg6local `route`,
    then with a seg6x SID (`sid_args` for SidNl.add); both returned."""
    cap = cap or ("R3", c.iface("R3", "R2"))
    intree(c, route)
    ref = emit(c, frame, cap, m)
    intree_del(c, route)
    nl = r2 or SidNl(c.ns["R2"])
    nl.must_add(*sid_args[0], **sid_args[1])
    got = emit(c, frame, cap, m)
    return ref, got, nl
