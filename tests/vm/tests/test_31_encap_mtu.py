# SPDX-License-Identifier: GPL-2.0
"""Encapsulation when the path to the first segment is narrower than the
seg6x route: fragmentation, Packet Too Big, routes that loop through each
other, the HMAC text limit of inline routes."""
import os
import socket
import subprocess

from scapy.all import IP, UDP, Ether, IPv6, Raw

from conftest import ctl, enable, load_module, stats, wait_until
from lib.netns import Tap, ip_batch, udp_socket
from lib.srv6 import NH_ROUTING, eth_ipv6
from lib.topo import addr4, addr6, mac, sid

A_SRC = addr6(1, "A")
B6 = addr6(4, "B")
PORT = 5000
SEGS2 = f"{sid('R2')},{sid('R3')}"
OVERHEAD2 = 40 + 8 + 2 * 16          # outer IPv6 + SRH with two segments


def narrow_first_segment(c, mtu):
    """R1 reaches the first segment (R2) through a route with a small MTU."""
    ip_batch(c.ns["R1"], [
        f"route replace {sid('R2')}/128 via {addr6(2, 'R2')} "
        f"dev {c.iface('R1', 'R2')} mtu {mtu}"])


def outer_frames_r1_r2(c):
    return Tap(c.ns["R2"], c.iface("R2", "R1"))


def test_ipv4_no_df_fragmented_to_the_narrower_path(chain):
    """Used to recurse lwt input -> ip_do_fragment -> lwt input until the
    kernel panicked: fragments were cut to the seg6x route's MTU, then
    found too big for the route to the first segment."""
    c = chain
    enable(c, "R2", "R3")
    narrow_first_segment(c, 1300)
    ctl("route", "replace", "10.0.4.0/24", "mode", "encap", "segs", SEGS2,
        "dev", c.iface("R1", "R2"), ns=c.ns["R1"])
    rx = udp_socket(c.ns["B"], socket.AF_INET, addr4(4, "B"), PORT)
    tap = outer_frames_r1_r2(c)
    payload = os.urandom(1400 - 20 - 8)
    Tap(c.ns["A"], c.iface("A", "R1")).send(
        Ether(dst=mac(1, 1), src=mac(1, 0)) /
        IP(src=addr4(1, "A"), dst=addr4(4, "B"), flags=0) /
        UDP(sport=4000, dport=PORT) / Raw(payload))
    assert rx.recvfrom(4096)[0] == payload       # reassembled by B
    outer = tap.collect(lambda f: (eth_ipv6(f) or {}).get("nh") == NH_ROUTING,
                        count=2, incoming_only=True)
    assert len(outer) == 2
    assert all(len(f) - 14 <= 1300 for f in outer)
    assert stats(c.ns["R1"])["encap"] == 2


def test_ipv4_df_gets_frag_needed_for_the_narrower_path(chain):
    c = chain
    narrow_first_segment(c, 1300)
    ctl("route", "replace", "10.0.4.0/24", "mode", "encap", "segs", SEGS2,
        "dev", c.iface("R1", "R2"), ns=c.ns["R1"])
    a = Tap(c.ns["A"], c.iface("A", "R1"))
    a.send(Ether(dst=mac(1, 1), src=mac(1, 0)) /
           IP(src=addr4(1, "A"), dst=addr4(4, "B"), flags="DF") /
           UDP(sport=4000, dport=PORT) / Raw(b"x" * (1400 - 28)))

    def frag_needed(f):
        return (f[12:14] == b"\x08\x00" and f[23] == 1 and f[34] == 3 and
                f[35] == 4)
    got = a.collect(frag_needed, incoming_only=True)
    assert len(got) == 1
    assert int.from_bytes(got[0][40:42], "big") == 1300 - OVERHEAD2


def test_ipv6_below_minimum_mtu_fragments_the_outer_packet(chain):
    """Room below 1280 bytes: a source cannot shrink its packets further,
    so the outer packet is fragmented (RFC 2473 7.1) instead of sending a
    Packet Too Big that cannot be honoured."""
    c = chain
    enable(c, "R2", "R3")
    narrow_first_segment(c, 1300)               # room 1220 < 1280
    ctl("route", "add", f"{B6}/128", "mode", "encap", "segs", SEGS2,
        "dev", c.iface("R1", "R2"), "via", addr6(2, "R2"), ns=c.ns["R1"])
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    data = os.urandom(1280 - 40 - 8)
    Tap(c.ns["A"], c.iface("A", "R1")).send(
        Ether(dst=mac(1, 1), src=mac(1, 0)) /
        IPv6(src=A_SRC, dst=B6) / UDP(sport=4000, dport=PORT) / Raw(data))
    assert rx.recvfrom(4096)[0] == data
    assert stats(c.ns["R2"])["end"] == 1
    assert stats(c.ns["R3"])["decap"] == 1


def test_route_mtu_below_the_minimum_fragments_small_packets(chain):
    """A packet that fits 1280 bytes once encapsulated fits any IPv6 link,
    so seg6x skips the MTU lookup for it, but not when the route to the
    first segment carries an MTU of its own: below 1280 bytes (ip route
    accepts one), the outer packet is fragmented, not dropped."""
    c = chain
    enable(c, "R2", "R3")
    narrow_first_segment(c, 1000)
    ctl("route", "add", f"{B6}/128", "mode", "encap", "segs", SEGS2,
        "dev", c.iface("R1", "R2"), "via", addr6(2, "R2"), ns=c.ns["R1"])
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    tap = outer_frames_r1_r2(c)
    data = os.urandom(1100 - 40 - 8)            # 1180 bytes encapsulated
    Tap(c.ns["A"], c.iface("A", "R1")).send(
        Ether(dst=mac(1, 1), src=mac(1, 0)) /
        IPv6(src=A_SRC, dst=B6) / UDP(sport=4000, dport=PORT) / Raw(data))
    assert rx.recvfrom(4096)[0] == data

    def srh_then_fragment(f):     # the Fragment header follows the SRH
        h = eth_ipv6(f) or {}
        return h.get("nh") == NH_ROUTING and h["payload"][:1] == b"\x2c"
    first = tap.collect(srh_then_fragment, incoming_only=True)
    assert len(first) == 1 and len(first[0]) - 14 <= 1000
    assert stats(c.ns["R1"])["encap"] == 1


def test_routes_through_each_other_drop_and_do_not_pin(chain):
    """Two seg6x routes whose first segments route through each other:
    dropped as unroutable, and the module still unloads afterwards."""
    c = chain
    x, y = "fc00:77::1", "fc00:77::2"
    dev = c.iface("R1", "R2")
    for dst, seg in ((x, y), (y, x)):
        ctl("route", "add", f"{dst}/128", "mode", "encap", "segs", seg,
            "dev", dev, ns=c.ns["R1"])
    ctl("route", "add", f"{B6}/128", "mode", "encap", "segs", x,
        "dev", dev, ns=c.ns["R1"])
    Tap(c.ns["A"], c.iface("A", "R1")).send(
        Ether(dst=mac(1, 1), src=mac(1, 0)) /
        IPv6(src=A_SRC, dst=B6) / UDP(sport=4000, dport=PORT) / Raw(b"l"))
    assert wait_until(
        lambda: stats(c.ns["R1"])["drop"]["no_route"] >= 1)
    ctl("route", "flush", "all", ns=c.ns["R1"])
    c.destroy()
    assert wait_until(lambda: subprocess.run(
        ["modprobe", "-r", "seg6x"]).returncode == 0, timeout=10)
    load_module()


def test_inline_hmac_list_limit(chain):
    """An inline route's list holds the destination too: with an HMAC the
    in-tree seg6 verifies at most 14 entries, so 13 route segments."""
    c = chain
    segs13 = ",".join(f"fc00:99::{i}" for i in range(1, 14))
    segs14 = segs13 + ",fc00:99::14"
    p = ctl("route", "replace", "fc00:4::/64", "mode", "inline", "segs",
            segs13, "hmac", "7", "dev", c.iface("R1", "R2"), ns=c.ns["R1"],
            check=False)
    assert p.returncode == 0, p.stderr
    p = ctl("route", "replace", "fc00:4::/64", "mode", "inline", "segs",
            segs14, "hmac", "7", "dev", c.iface("R1", "R2"), ns=c.ns["R1"],
            check=False)
    assert p.returncode in (1, 2) and "13" in p.stderr
    # the route is still the 13-segment one
    r = [x for x in ctl("route", "show", ns=c.ns["R1"], js=True)
         if x["dst"] == "fc00:4::/64"]
    assert len(r) == 1 and len(r[0]["segs"]) == 13
