# SPDX-License-Identifier: GPL-2.0
"""TCP through an encapsulating route when the headend must segment the
encapsulated GSO packets itself (the egress device has no TSO/GSO): the
segments carry correct outer and inner headers and checksums, for IPv6
and IPv4 inner packets, with seg6x and with the in-tree seg6 as headend
(same topology, same checks: the in-tree result is the reference)."""
import socket

import pytest

from conftest import ctl, enable, stats
from lib.encap import headend
from lib.netns import sh
from lib.tcp import transfer
from lib.topo import addr4, addr6

B6, B4 = addr6(4, "B"), addr4(4, "B")
PORT = 5002
SIZE = 2 << 20


def no_offloads(ns, dev):
    sh(["ip", "netns", "exec", ns, "ethtool", "-K", dev, "tso", "off",
        "gso", "off"])


def csum_errors(ns):
    out = sh(["ip", "netns", "exec", ns, "nstat", "-asz", "TcpInCsumErrors",
              "Ip6InHdrErrors", "IpInHdrErrors"]).stdout
    return sum(int(line.split()[1]) for line in out.splitlines()[1:])


@pytest.mark.parametrize("impl", ["seg6x", "in-tree"])
@pytest.mark.parametrize("family", [socket.AF_INET6, socket.AF_INET],
                         ids=["ipv6", "ipv4"])
def test_gso_segmented_after_encapsulation(chain, impl, family):
    c = chain
    enable(c, "R2", "R3")
    headend(c, impl, family, ctl)
    # R1 cuts the encapsulated super-packets itself; A still sends them
    no_offloads(c.ns["R1"], c.iface("R1", "R2"))
    # Room for the 80 bytes of encapsulation without path MTU discovery:
    # the in-tree seg6 sends no Packet Too Big to the inner source, so a
    # full-size segment would be lost to it (seg6x would tell A, as
    # test_80_frr's TCP shows).
    sh(["ip", "-n", c.ns["A"], "link", "set", c.iface("A", "R1"),
        "mtu", "1400"])
    before = csum_errors(c.ns["B"]), csum_errors(c.ns["R3"])
    n, ok, _ = transfer(c.ns["A"], c.ns["B"], family,
                        B6 if family == socket.AF_INET6 else B4, PORT, SIZE)
    assert n == SIZE and ok
    assert (csum_errors(c.ns["B"]), csum_errors(c.ns["R3"])) == before
    st = stats(c.ns["R3"])
    assert st["decap"] > 0 and sum(st["drop"].values()) == 0
    if impl == "seg6x":
        assert stats(c.ns["R1"])["encap"] > 0
    else:
        assert stats(c.ns["R1"])["encap"] == 0
