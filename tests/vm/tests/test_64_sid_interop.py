# SPDX-License-Identifier: GPL-2.0
"""An SRv6 L3VPN path across both implementations: H.Encaps at R1,
End.X at R2, End.DT46 into a VRF at R3, IPv6 and IPv4 from A to B; once
with the in-tree seg6 at the edges and seg6x SIDs, once the other way
round."""
import socket


from conftest import ctl
from lib.netns import ip_batch, sysctl, udp_socket
from lib.sidnl import SidNl, ifindex
from lib.topo import addr4, addr6

SID2 = "fc00:e2::100"       # End.X at R2
SID3 = "fc00:e3::46"        # End.DT46 at R3


def _vrf_r3(c):
    """VRF green (table 30) on R3 reaching B on link 4."""
    ip_batch(c.ns["R3"], [
        "link add green type vrf table 30", "link set green up",
        f"route add fc00:4::/64 dev {c.iface('R3', 'B')} table 30",
        f"route add 10.0.4.0/24 dev {c.iface('R3', 'B')} table 30"])


def _core_routes(c):
    # R1 reaches R2's SIDs; R2 reaches nothing of R3's SIDs on its own
    ip_batch(c.ns["R1"], [f"route add fc00:e2::/32 via {addr6(2, 'R2')} "
                          f"dev {c.iface('R1', 'R2')}"])


def _send_both(c):
    rx6 = udp_socket(c.ns["B"], socket.AF_INET6, addr6(4, "B"), 5000)
    rx4 = udp_socket(c.ns["B"], socket.AF_INET, addr4(4, "B"), 5000)
    for fam, dst, rx in ((socket.AF_INET6, addr6(4, "B"), rx6),
                         (socket.AF_INET, addr4(4, "B"), rx4)):
        src = addr6(1, "A") if fam == socket.AF_INET6 else addr4(1, "A")
        tx = udp_socket(c.ns["A"], fam, src, 0)
        tx.sendto(b"vpn " + dst.encode(), (dst, 5000))
        data, peer = rx.recvfrom(2048)
        assert data == b"vpn " + dst.encode() and peer[0] == src


def test_intree_edges_seg6x_sids(chain):
    c = chain
    _core_routes(c)
    _vrf_r3(c)
    segs = f"{SID2},{SID3}"
    ip_batch(c.ns["R1"], [
        f"route replace fc00:4::/64 encap seg6 mode encap segs {segs} "
        f"dev {c.iface('R1', 'R2')}",
        f"route replace 10.0.4.0/24 encap seg6 mode encap segs {segs} "
        f"dev {c.iface('R1', 'R2')}"])
    r2, r3 = SidNl(c.ns["R2"]), SidNl(c.ns["R3"])
    r2.must_add(SID2, "End.X", nh6=addr6(3, "R3"), count=True)
    r3.must_add(SID3, "End.DT46", vrf=ifindex(c.ns["R3"], "green"),
                count=True)
    _send_both(c)
    assert r2.get(SID2)["packets"] == 2
    assert r3.get(SID3)["packets"] == 2


def test_seg6x_edge_intree_sids(chain):
    c = chain
    _core_routes(c)
    _vrf_r3(c)
    sysctl(c.ns["R3"], "net.vrf.strict_mode", 1)
    segs = f"{SID2},{SID3}"
    for pfx in ("fc00:4::/64", "10.0.4.0/24"):
        ctl("route", "replace", pfx, "mode", "encap", "segs", segs, "dev",
            c.iface("R1", "R2"), "via", addr6(2, "R2") if ":" in pfx
            else addr4(2, "R2"), ns=c.ns["R1"])
    ip_batch(c.ns["R2"], [
        f"route add {SID2}/128 encap seg6local action End.X nh6 "
        f"{addr6(3, 'R3')} count dev {c.iface('R2', 'R3')}"])
    ip_batch(c.ns["R3"], [
        f"route add {SID3}/128 encap seg6local action End.DT46 vrftable 30 "
        f"count dev {c.iface('R3', 'R2')}"])
    _send_both(c)
    assert ctl("stats", ns=c.ns["R1"], js=True)["encap"] == 2
