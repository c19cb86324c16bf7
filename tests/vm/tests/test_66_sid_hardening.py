# SPDX-License-Identifier: GPL-2.0
"""The SID data path under attack and under a firewall: nested
decapsulation into VRFs, local delivery after decapsulation, nft rules in
PRE_ROUTING, unload under traffic, bridged frames, binding SIDs that point
at themselves, a next segment that is a SID, SRHs hidden behind another
routing header, IPv4 options through a narrow encap path."""
import json
import os
import socket
import threading
import time

import pytest
from scapy.all import (IP, UDP, Ether, ICMP, ICMPv6EchoRequest, IPOption,
                       IPv6, Raw, fragment6)
from scapy.layers.inet6 import IPv6ExtHdrFragment

from conftest import ctl, enable, load_module, stats, unload_module, \
    wait_until
from lib.netns import Tap, inside, ip_batch, sh, udp_socket
from lib.sidnl import SidNl, ifindex
from lib.sidtest import A_SRC, SID, emit, frame_to_r2, marker, udp6
from lib.srv6 import NH_IPV4, NH_IPV6, NH_ROUTING, NH_UDP, eth_ipv6, srh
from lib.topo import addr4, addr6, mac, sid
from test_21_endpoint_safety import (BH1_MAC, BH1_NS, BH2_MAC, BH2_NS,  # noqa
                                     BR_MAC, BR_NS, bridge)
from test_62_sid_decap import _vrfs

VRF6, VRF4 = "fc00:98::2", "10.98.0.2"
PORT = 5000


def r3_in(c):
    return ("R3", c.iface("R3", "R2"))


def nest6(levels, inner, dst=SID):
    """`inner` in `levels` IPv6-in-IPv6 headers, each addressed to dst."""
    pkt = inner
    for _ in range(levels):
        pkt = bytes(IPv6(src=A_SRC, dst=dst, nh=NH_IPV6) / Raw(pkt))
    return pkt


# ---- nested decapsulation: no recursion -----------------------------------

@pytest.mark.parametrize("beh", ["End.DT6", "End.DT46"])
def test_nested_30_levels_in_one_frame(chain, beh):
    c = chain
    red, _ = _vrfs(c)
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, beh, vrf=red, count=True)
    m = marker()
    frame = frame_to_r2(nest6(30, udp6(A_SRC, "fc00:99::7", m, hlim=20)))
    assert len(frame) <= 1514
    got = emit(c, frame, r3_in(c), m, timeout=10)
    assert len(got) == 1 and eth_ipv6(got[0])["dst"] == "fc00:99::7"
    assert wait_until(lambda: nl.get(SID)["packets"] == 30)
    assert nl.get(SID)["errors"] == 0


def test_nested_1500_levels_reassembled(chain):
    """~1500 levels fit one 64 KiB datagram, sent as fragments: each level
    is decapsulated on its own pass through the backlog."""
    c = chain
    red, _ = _vrfs(c)
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End.DT6", vrf=red, count=True)
    m = marker()
    inner = nest6(1499, udp6(A_SRC, "fc00:99::7", m, hlim=20))
    pkt = (IPv6(src=A_SRC, dst=SID) / IPv6ExtHdrFragment(nh=NH_IPV6) /
           Raw(inner))
    frags = fragment6(pkt, 1400)
    assert len(frags) > 40
    tap = Tap(c.ns["R3"], c.iface("R3", "R2"))
    r1 = Tap(c.ns["R1"], c.iface("R1", "R2"))
    for f in frags:
        r1.send(frame_to_r2(f))
    got = tap.collect(lambda f: m in f, timeout=30, incoming_only=True)
    assert len(got) == 1
    assert wait_until(lambda: nl.get(SID)["packets"] == 1500, timeout=10)


# ---- local delivery after decapsulation -----------------------------------

def _vrf_local(c):
    r2 = c.ns["R2"]
    ip_batch(r2, [f"addr add {VRF6}/128 dev red",
                  f"addr add {VRF4}/32 dev red",
                  f"route add fc00:1::/64 via {addr6(2, 'R1')} dev "
                  f"{c.iface('R2', 'R1')} table 10",
                  f"route add 10.0.1.0/24 via {addr4(2, 'R1')} dev "
                  f"{c.iface('R2', 'R1')} table 10"])


def _encap(inner, fam):
    nh = NH_IPV4 if fam == 4 else NH_IPV6
    return frame_to_r2(IPv6(src=A_SRC, dst=SID, nh=NH_ROUTING) /
                       Raw(srh([SID, sid("R1")], sl=0, nh=nh) + inner))


@pytest.mark.parametrize("beh,fam", [("End.DT6", 6), ("End.DT46", 6),
                                     ("End.DT4", 4), ("End.DT46", 4)])
def test_vrf_local_delivery_ping(chain, beh, fam):
    """An echo request to an address of the VRF, through the SID, is
    answered from the VRF."""
    c = chain
    red, _ = _vrfs(c)
    _vrf_local(c)
    SidNl(c.ns["R2"]).must_add(SID, beh, vrf=red, count=True)
    m = marker()
    if fam == 6:
        inner = bytes(IPv6(src=A_SRC, dst=VRF6) /
                      ICMPv6EchoRequest(id=7, seq=1, data=m))
    else:
        inner = bytes(IP(src=addr4(1, "A"), dst=VRF4) /
                      ICMP(type=8, id=7, seq=1) / Raw(m))
    got = emit(c, _encap(inner, fam), ("R1", c.iface("R1", "R2")), m)
    assert len(got) == 1
    f = got[0]
    if fam == 6:
        ip = eth_ipv6(f)
        assert ip["src"] == VRF6 and ip["nh"] == 58
        assert ip["payload"][0] == 129          # echo reply
    else:
        assert f[12:14] == b"\x08\x00" and f[14 + 9] == 1
        assert f[14 + 20] == 0                   # echo reply


@pytest.mark.parametrize("beh,fam", [("End.DT6", 6), ("End.DT46", 6),
                                     ("End.DT4", 4), ("End.DT46", 4)])
def test_vrf_local_delivery_udp(chain, beh, fam):
    c = chain
    red, _ = _vrfs(c)
    _vrf_local(c)
    SidNl(c.ns["R2"]).must_add(SID, beh, vrf=red, count=True)
    af = socket.AF_INET6 if fam == 6 else socket.AF_INET
    with inside(c.ns["R2"]):
        s = socket.socket(af, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_BINDTODEVICE, b"red")
        s.bind((VRF6 if fam == 6 else VRF4, PORT))
    s.settimeout(3)
    m = marker()
    if fam == 6:
        inner = bytes(IPv6(src=A_SRC, dst=VRF6) /
                      UDP(sport=4000, dport=PORT) / Raw(m))
    else:
        inner = bytes(IP(src=addr4(1, "A"), dst=VRF4) /
                      UDP(sport=4000, dport=PORT) / Raw(m))
    Tap(c.ns["R1"], c.iface("R1", "R2")).send(_encap(inner, fam))
    assert s.recvfrom(2048)[0] == m
    s.close()


@pytest.mark.parametrize("proto", ["udp", "icmp"])
def test_dt6_table_local_delivery(chain, proto):
    """End.DT6 in the local table to an address of R2 itself."""
    c = chain
    SidNl(c.ns["R2"]).must_add(SID, "End.DT6", table=255)
    m = marker()
    r2 = addr6(2, "R2")
    if proto == "udp":
        rx = udp_socket(c.ns["R2"], socket.AF_INET6, r2, PORT)
        Tap(c.ns["R1"], c.iface("R1", "R2")).send(
            _encap(udp6(A_SRC, r2, m), 6))
        assert rx.recvfrom(2048)[0] == m
        return
    inner = bytes(IPv6(src=A_SRC, dst=r2) /
                  ICMPv6EchoRequest(id=7, seq=1, data=m))
    got = emit(c, _encap(inner, 6), ("R1", c.iface("R1", "R2")), m)
    assert len(got) == 1 and eth_ipv6(got[0])["payload"][0] == 129


# ---- the firewall sees SR traffic -----------------------------------------

def _nft(ns, rules):
    sh(["ip", "netns", "exec", ns, "nft", "-f", "-"], input=rules)


def _nft_counter(ns, comment):
    out = json.loads(sh(["ip", "netns", "exec", ns, "nft", "-j", "list",
                         "ruleset"]).stdout)
    for item in out["nftables"]:
        rule = item.get("rule")
        if rule and rule.get("comment") == comment:
            for e in rule["expr"]:
                if "counter" in e:
                    return e["counter"]["packets"]
    raise AssertionError(f"no rule {comment}")


def test_nft_prerouting_drop_applies_to_sids(chain):
    """An ACL confining a SID prefix to the SR domain, in a priority-0
    prerouting chain, takes effect (as with the in-tree seg6local), and
    conntrack has seen the outer flow by then."""
    c = chain
    enable(c, "R2")
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End", count=True)
    _nft(c.ns["R2"], f"""
table inet s6xacl {{
  chain pre {{
    type filter hook prerouting priority 0; policy accept;
    ip6 daddr {SID} ct state new counter comment "ct-new"
    ip6 saddr {A_SRC} ip6 daddr {{ {SID}, {sid('R2')} }} counter drop comment "acl"
  }}
}}
""")
    m = marker()
    inner = udp6(A_SRC, addr6(4, "B"), m)
    to_sid = frame_to_r2(IPv6(src=A_SRC, dst=SID, nh=NH_ROUTING) /
                         Raw(srh([sid("R3"), SID], sl=1, nh=NH_IPV6) + inner))
    assert emit(c, to_sid, r3_in(c), m, timeout=1) == []
    to_r2 = frame_to_r2(IPv6(src=A_SRC, dst=sid("R2"), nh=NH_ROUTING) /
                        Raw(srh([sid("R3"), sid("R2")], sl=1, nh=NH_IPV6) +
                            inner))
    assert emit(c, to_r2, r3_in(c), m, timeout=1) == []
    assert _nft_counter(c.ns["R2"], "acl") == 2
    assert nl.get(SID)["packets"] == 0 and stats(c.ns["R2"])["end"] == 0
    # from inside the SR domain: passes, and conntrack saw it first
    src = addr6(2, "R1")
    ok = frame_to_r2(IPv6(src=src, dst=SID, nh=NH_ROUTING) /
                     Raw(srh([sid("R3"), SID], sl=1, nh=NH_IPV6) + inner))
    assert len(emit(c, ok, r3_in(c), m)) == 1
    assert nl.get(SID)["packets"] == 1
    assert _nft_counter(c.ns["R2"], "ct-new") == 2


def test_dx4_output_seen_by_forward_and_postrouting(chain):
    c = chain
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End.DX4", nh4=addr4(3, "R3"), count=True)
    _nft(c.ns["R2"], """
table ip s6xfw {
  chain forward_c { type filter hook forward priority 0; policy accept;
    udp dport 5000 counter comment "fwd"
  }
  chain post_c { type filter hook postrouting priority 0; policy accept;
    udp dport 5000 counter comment "post"
  }
}
""")
    m = marker()
    inner = bytes(IP(src=addr4(1, "A"), dst=addr4(4, "B"), ttl=30) /
                  UDP(sport=4000, dport=PORT) / Raw(m))
    got = emit(c, _encap(inner, 4), r3_in(c), m)
    assert len(got) == 1 and got[0][:6] == bytes.fromhex(
        mac(3, 1).replace(":", ""))
    assert _nft_counter(c.ns["R2"], "fwd") == 1
    assert _nft_counter(c.ns["R2"], "post") == 1


# ---- unload under traffic --------------------------------------------------

def test_unload_keeps_interface_policy_to_the_end(chain):
    """Unsigned SR packets flood an interface that requires an HMAC while
    the module is removed: none may pass meanwhile (the in-tree seg6 drops
    them afterwards: seg6_enabled is 0 on that interface)."""
    c = chain
    r2 = c.ns["R2"]
    ctl("iface", "set", "default", "seg6_enabled", 1, "require_hmac", 0,
        ns=r2)
    ctl("iface", "set", c.iface("R2", "R1"), "seg6_enabled", 1,
        "require_hmac", 1, ns=r2)
    rx = udp_socket(c.ns["B"], socket.AF_INET6, addr6(4, "B"), PORT)
    rx.settimeout(0.5)
    frame = bytes(Ether(dst=mac(2, 1), src=mac(2, 0)) /
                  IPv6(src=A_SRC, dst=sid("R2"), nh=NH_ROUTING) /
                  Raw(srh([addr6(4, "B"), sid("R2")], sl=1, nh=NH_UDP) +
                      bytes(UDP(sport=4000, dport=PORT) / Raw(b"unsigned"))))
    tap = Tap(c.ns["R1"], c.iface("R1", "R2"))
    stop = threading.Event()
    sent = [0]

    def flood():
        while not stop.is_set():
            try:
                tap.send(frame)
                sent[0] += 1
            except OSError:
                time.sleep(0.001)
    t = threading.Thread(target=flood)
    t.start()
    try:
        assert wait_until(lambda: stats(r2)["drop"]["hmac_missing"] > 50)
        unload_module()
        time.sleep(0.5)
    finally:
        stop.set()
        t.join()
        load_module()
    got = 0
    try:
        while True:
            rx.recvfrom(2048)
            got += 1
    except socket.timeout:
        pass
    assert sent[0] > 100 and got == 0


# ---- bridged frames --------------------------------------------------------

def test_sid_leaves_bridged_frames_for_another_host_alone(bridge):
    nl = SidNl(BR_NS)
    bsid = "fc00:b0::100"
    nl.must_add(bsid, "End", count=True)

    def frame(dst_mac, m):
        return bytes(Ether(dst=dst_mac, src=BH1_MAC) /
                     IPv6(src="fc00:b0::11", dst=bsid, nh=NH_ROUTING) /
                     Raw(srh(["fc00:b0::99", bsid], sl=1, nh=NH_UDP) +
                         bytes(UDP(sport=4000, dport=PORT) / Raw(m))))
    m = b"bridged past the SID"
    tap = Tap(BH2_NS, "hv")
    Tap(BH1_NS, "hv").send(frame(BH2_MAC, m))
    got = tap.collect(lambda f: m in f, incoming_only=True)
    tap.close()
    assert len(got) == 1 and eth_ipv6(got[0])["dst"] == bsid
    assert nl.get(bsid)["packets"] == 0
    # the control: to the bridge's own MAC, the SID takes it
    Tap(BH1_NS, "hv").send(frame(BR_MAC, b"to the bridge"))
    assert wait_until(lambda: nl.get(bsid)["packets"] == 1)


# ---- binding SID pointing at itself ----------------------------------------

def test_b6_encaps_pointing_at_itself_is_bounded(chain):
    c = chain
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End.B6.Encaps", segs=[SID, SID], count=True)
    before = nl.stats()["drop_sid"]
    m = marker()
    frame = frame_to_r2(IPv6(src=A_SRC, dst=SID, nh=NH_ROUTING) /
                        Raw(srh([sid("R3"), SID], sl=1, nh=NH_IPV6) +
                            udp6(A_SRC, addr6(4, "B"), m)))
    tap3 = Tap(c.ns["R3"], c.iface("R3", "R2"))
    tap1 = Tap(c.ns["R1"], c.iface("R1", "R2"))
    tap1.send(frame)
    assert wait_until(lambda: nl.get(SID)["errors"] == 1)
    assert nl.get(SID)["packets"] == 4
    assert nl.stats()["drop_sid"] == before + 1
    assert tap3.collect(lambda f: m in f, timeout=0.5) == []
    assert tap1.collect(lambda f: m in f, timeout=0.5,
                        incoming_only=True) == []


# ---- a next segment that is a SID of this node -----------------------------

def test_implicit_end_hands_a_sid_next_segment_to_the_sid(chain):
    c = chain
    enable(c, "R2")
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End", count=True)
    m = marker()
    b6 = addr6(4, "B")
    frame = frame_to_r2(IPv6(src=A_SRC, dst=sid("R2"), nh=NH_ROUTING,
                             hlim=64) /
                        Raw(srh([b6, SID, sid("R2")], sl=2, nh=NH_UDP) +
                            bytes(UDP(sport=4000, dport=PORT) / Raw(m))))
    got = emit(c, frame, r3_in(c), m)
    assert len(got) == 1
    ip = eth_ipv6(got[0])
    # one hop for the second pass at R2, one for forwarding
    assert ip["dst"] == b6 and ip["hlim"] == 62
    assert nl.get(SID)["packets"] == 1 and stats(c.ns["R2"])["end"] == 1


# ---- an SRH behind another routing header ----------------------------------

def _hidden(dst, m):
    other_rh = bytes([NH_ROUTING, 0, 253, 0, 0, 0, 0, 0])   # type 253, SL 0
    return frame_to_r2(IPv6(src=A_SRC, dst=dst, nh=NH_ROUTING) /
                       Raw(other_rh +
                           srh([dst, sid("R1")], sl=0, nh=NH_IPV6) +
                           udp6(A_SRC, addr6(4, "B"), m)))


def test_hidden_srh_not_decapsulated(chain):
    c = chain
    ip_batch(c.ns["R2"], [f"route add fc00:4::/64 via {addr6(3, 'R3')} "
                          f"dev {c.iface('R2', 'R3')} table 100"])
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End.DT6", table=100, count=True)
    m = marker()
    assert emit(c, _hidden(SID, m), r3_in(c), m, timeout=1) == []
    assert nl.get(SID)["errors"] == 1


def test_hidden_srh_dropped_where_hmac_is_required(chain):
    c = chain
    r2 = c.ns["R2"]
    ctl("iface", "set", "default", "seg6_enabled", 1, "require_hmac", 1,
        ns=r2)
    nl = SidNl(r2)
    nl.must_add(SID, "End.DT6", table=254, count=True)
    m = marker()
    assert emit(c, _hidden(SID, m), r3_in(c), m, timeout=1) == []
    assert emit(c, _hidden(sid("R2"), m), r3_in(c), m, timeout=1) == []
    assert wait_until(lambda: stats(r2)["drop"]["hmac_missing"] == 2)


# ---- IPv4 with options through a narrow encap path -------------------------

def test_ipv4_options_narrow_path_no_empty_fragments(chain):
    """Room for the 24-byte header but not for 8 bytes of data behind it:
    dropped, not fragmented into empty pieces for ever."""
    c = chain
    r1 = c.ns["R1"]
    overhead = 40 + 8 + 2 * 16
    ip_batch(r1, [f"route replace {sid('R2')}/128 via {addr6(2, 'R2')} "
                  f"dev {c.iface('R1', 'R2')} mtu {overhead + 28}"])
    ctl("route", "replace", "10.0.4.0/24", "mode", "encap", "segs",
        f"{sid('R2')},{sid('R3')}", "dev", c.iface("R1", "R2"), ns=r1)
    tap = Tap(c.ns["R2"], c.iface("R2", "R1"))
    Tap(c.ns["A"], c.iface("A", "R1")).send(
        Ether(dst=mac(1, 1), src=mac(1, 0)) /
        IP(src=addr4(1, "A"), dst=addr4(4, "B"), flags=0,
           options=[IPOption(b"\x01\x01\x01\x00")]) /
        UDP(sport=4000, dport=PORT) / Raw(os.urandom(200)))
    assert tap.collect(lambda f: (eth_ipv6(f) or {}).get("nh") == NH_ROUTING,
                       timeout=1, incoming_only=True) == []
    # the node is still alive and answering
    assert stats(r1)["encap"] == 0


# ---- a limit on the table --------------------------------------------------

def test_sid_max_limits_the_table(chain):
    c = chain
    unload_module()
    load_module("sid_max=3")
    try:
        nl = SidNl(c.ns["R2"])
        for i in range(3):
            nl.must_add(f"fc00:e2::{i + 1}", "End")
        r = nl.add("fc00:e2::9", "End")
        assert r.error == -28                    # ENOSPC
        from lib.sidnl import extack_msg
        assert "sid_max" in extack_msg(r)
        # replacing one that exists is no new entry
        assert nl.add("fc00:e2::1", "End", replace=True).error == 0
        p = ctl("sid", "add", "fc00:e2::9", "behavior", "End",
                ns=c.ns["R2"], check=False)
        assert p.returncode != 0 and "sid_max" in p.stderr
        nl.flush()
        nl.close()
    finally:
        unload_module()
        load_module()


def test_many_sids_lookup_dump_and_device_removal(chain):
    """20,000 SIDs of three lengths (the hash grows as they come, and
    shrinks as they go): the first, the last and the longest match are
    found, a dump lists every one once, and deleting a device marks the
    one SID that uses it, and no other, dead."""
    c = chain
    r2 = c.ns["R2"]
    ip_batch(r2, ["link add d0 type dummy", "link set d0 up",
                  "link add d1 type dummy", "link set d1 up"])
    n = 20000
    lines = [f"sid add fc00:e8:{i >> 16:x}:{i & 0xffff:x}::/64 behavior End"
             for i in range(n)]
    lines += ["sid add fc00:e8::/48 behavior End",
              f"sid add fc00:e8::77/128 behavior End.X nh6 {addr6(3, 'R3')}"
              " dev d0",
              f"sid add fc00:e9::1/128 behavior End.X nh6 {addr6(3, 'R3')}"
              " dev d1"]
    ctl("-b", "-", ns=r2, input="\n".join(lines) + "\n")
    shown = ctl("sid", "show", ns=r2, js=True)
    assert len(shown) == n + 3
    assert len({s["sid"] for s in shown}) == n + 3

    # End to the first and last /64 and to the /128 inside the first
    for dst, nxt in ((f"fc00:e8:0:{n - 1:x}::5", sid("R3")),
                     ("fc00:e8::5", sid("R3")),
                     ("fc00:e8::77", sid("R3"))):
        m = marker()
        frame = frame_to_r2(IPv6(src=A_SRC, dst=dst, nh=NH_ROUTING) /
                            Raw(srh([nxt, dst], sl=1, nh=NH_IPV6) +
                                udp6(A_SRC, addr6(4, "B"), m)))
        got = emit(c, frame, r3_in(c), m)
        assert len(got) == 1, dst
        assert eth_ipv6(got[0])["dst"] == sid("R3")

    ip_batch(r2, ["link del d1"])
    dead = [s["sid"] for s in ctl("sid", "show", ns=r2, js=True)
            if s.get("dead")]
    assert dead == ["fc00:e9::1/128"]
    ctl("sid", "flush", ns=r2)
    assert ctl("sid", "show", ns=r2, js=True) == []
