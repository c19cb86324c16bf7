# SPDX-License-Identifier: GPL-2.0
"""Endpoint safety: next-segment scope, the cleanup flag on unauthenticated
packets, reduced SRHs (RFC 8754 4.3.1.1), ICMPv6 errors to forged packets,
the stack's routing after the endpoint, fragments and Destination Options
around the SRH, drop reasons in the IPv6 MIB, socket signing privilege."""
import json
import socket
import struct

import pytest
from scapy.all import UDP, Ether, IPv6, IPv6ExtHdrDestOpt, Raw, fragment6
from scapy.layers.inet6 import IPv6ExtHdrFragment

from conftest import ctl, enable, stats, wait_until
from lib.netns import Tap, inside, ip_batch, sh, sysctl, udp_socket
from lib.srv6 import (FLAG_CLEANUP, FLAG_HMAC, NH_DEST, NH_IPV6, NH_ROUTING,
                      NH_UDP, eth_ipv6, hmac_tlv, parse_srh, signed_srh, srh)
from lib.topo import addr6, mac, sid

A_SRC = addr6(1, "A")
B6 = addr6(4, "B")
PORT = 5000
SECRET = b"endpoint safety secret"


def frame_from_a(dst, payload, hlim=64, nh=NH_ROUTING):
    return (Ether(dst=mac(1, 1), src=mac(1, 0)) /
            IPv6(src=A_SRC, dst=dst, nh=nh, hlim=hlim) / Raw(payload))


def udp6(src, dst, data):
    b = bytes(IPv6(src=src, dst=dst) / UDP(sport=4000, dport=PORT) /
              Raw(data))
    return b, b[40:]


def send_a(c, frame):
    Tap(c.ns["A"], c.iface("A", "R1")).send(frame)


def snmp6(ns, name):
    with inside(ns):
        with open("/proc/net/snmp6") as f:
            for line in f:
                k, v = line.split()
                if k == name:
                    return int(v)
    raise KeyError(name)


def set_key(ns, keyid=7):
    ctl("hmac", "set", keyid, "sha256", ns=ns, input=SECRET.decode() + "\n")


@pytest.fixture
def sr(chain):
    enable(chain, "R2", "R3")
    return chain


@pytest.mark.parametrize("nxt", ["ff02::1", "::", "::1", "fe80::1",
                                 "::ffff:10.0.4.11"])
def test_next_segment_scope_refused(sr, nxt):
    c = sr
    inner, _ = udp6(A_SRC, B6, b"scope")
    h = srh([nxt, sid("R2")], sl=1, nh=NH_IPV6)
    a = Tap(c.ns["A"], c.iface("A", "R1"))
    send_a(c, frame_from_a(sid("R2"), h + inner))
    assert wait_until(lambda: stats(c.ns["R2"])["drop"]["bad_srh"] == 1)
    assert stats(c.ns["R2"])["end"] == 0
    # no ICMPv6 error for it either
    assert a.collect(lambda f: (eth_ipv6(f) or {}).get("nh") == 58,
                     timeout=1, incoming_only=True) == []


def _inline(t, flags, tlvs=b""):
    _, udp = udp6(A_SRC, B6, b"cleanup")
    return srh([B6, sid("R3"), sid("R2")], sl=2, nh=NH_UDP, flags=flags,
               tag=t, tlvs=tlvs), udp


def test_cleanup_ignored_without_verified_hmac(sr):
    """A forged cleanup flag must not strip the SRH before the last
    segment, whose own HMAC policy would then never see it."""
    c = sr
    h, udp = _inline(0x1234, FLAG_CLEANUP)
    tap = Tap(c.ns["B"], c.iface("B", "R3"))
    send_a(c, frame_from_a(sid("R2"), h + udp))
    got = tap.collect(lambda f: (eth_ipv6(f) or {}).get("dst") == B6,
                      incoming_only=True)
    assert len(got) == 1
    ip = eth_ipv6(got[0])
    assert ip["nh"] == NH_ROUTING and parse_srh(ip["payload"])["sl"] == 0


def test_cleanup_honoured_with_verified_hmac(sr):
    c = sr
    for n in ("R2", "R3"):
        set_key(c.ns[n])
    _, udp = udp6(A_SRC, B6, b"cleanup")
    h = signed_srh([B6, sid("R3"), sid("R2")], sl=2, nh=NH_UDP, src=A_SRC,
                   keyid=7, algo="sha256", secret=SECRET,
                   flags=FLAG_CLEANUP)
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    tap = Tap(c.ns["B"], c.iface("B", "R3"))
    send_a(c, frame_from_a(sid("R2"), h + udp))
    got = tap.collect(lambda f: (eth_ipv6(f) or {}).get("dst") == B6,
                      incoming_only=True)
    assert len(got) == 1
    ip = eth_ipv6(got[0])
    assert ip["nh"] == NH_UDP and ip["payload"] == udp
    assert ip["hlim"] == 61
    assert rx.recvfrom(2048)[0] == b"cleanup"


def test_reduced_srh_accepted(sr):
    """H.Encaps.Red leaves the first segment out of the list: SL = LE + 1."""
    c = sr
    inner, _ = udp6(A_SRC, B6, b"reduced")
    h = srh([sid("R3")], sl=1, nh=NH_IPV6)          # LE 0, SL 1
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    send_a(c, frame_from_a(sid("R2"), h + inner))
    assert rx.recvfrom(2048)[0] == b"reduced"
    assert stats(c.ns["R2"])["end"] == 1
    assert stats(c.ns["R3"])["decap"] == 1


def test_sl_beyond_reduced_still_refused(sr):
    c = sr
    inner, _ = udp6(A_SRC, B6, b"bad")
    h = srh([sid("R3")], sl=2, nh=NH_IPV6)           # LE 0, SL 2
    a = Tap(c.ns["A"], c.iface("A", "R1"))
    send_a(c, frame_from_a(sid("R2"), h + inner))
    got = a.collect(lambda f: (eth_ipv6(f) or {}).get("nh") == 58 and
                    eth_ipv6(f)["payload"][0] == 4, incoming_only=True)
    assert len(got) == 1
    assert struct.unpack("!I", eth_ipv6(got[0])["payload"][4:8])[0] == 43


@pytest.mark.parametrize("why", ["hmac_flag", "require_hmac"])
def test_no_icmp_error_to_unauthenticated_malformed(sr, why):
    """Parameter Problem only where an unauthenticated packet could be
    accepted: otherwise forged packets would make the node a reflector."""
    c = sr
    inner, _ = udp6(A_SRC, B6, b"bad")
    flags = FLAG_HMAC if why == "hmac_flag" else 0
    if why == "require_hmac":
        ctl("iface", "set", "default", "require_hmac", "1", ns=c.ns["R2"])
    # Segments Left beyond the list, HMAC TLV at the end
    h = srh([sid("R3"), sid("R2")], sl=5, nh=NH_IPV6, flags=flags,
            tlvs=hmac_tlv(7))
    a = Tap(c.ns["A"], c.iface("A", "R1"))
    before = snmp6(c.ns["R2"], "Ip6InHdrErrors")
    send_a(c, frame_from_a(sid("R2"), h + inner))
    assert wait_until(lambda: stats(c.ns["R2"])["drop"]["bad_srh"] == 1)
    assert a.collect(lambda f: (eth_ipv6(f) or {}).get("nh") == 58,
                     timeout=1, incoming_only=True) == []
    assert snmp6(c.ns["R2"], "Ip6InHdrErrors") == before + 1


def test_stack_routes_after_the_endpoint(sr):
    """A mark the mangle table sets on the packet as it arrived (seg6x
    runs after every prerouting chain, as the in-tree seg6 does) steers
    it once its destination changed: the route seg6x hands the stack is
    the one policy routing picks."""
    c = sr
    ns = c.ns["R2"]
    sh(["ip", "netns", "exec", ns, "nft", "-f", "-"], input=f"""
table ip6 seg6xtest {{
  chain pre {{
    type filter hook prerouting priority mangle; policy accept;
    ip6 daddr {sid('R2')} meta mark set 0x42
  }}
}}
""")
    sh(["ip", "-n", ns, "-6", "rule", "add", "fwmark", "0x42", "lookup",
        "142"])
    sh(["ip", "-n", ns, "-6", "route", "add", "blackhole",
        f"{sid('R3')}/128", "table", "142"])
    inner, _ = udp6(A_SRC, B6, b"steered")
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    rx.settimeout(1.5)
    send_a(c, frame_from_a(sid("R2"), srh([sid("R3"), sid("R2")], sl=1,
                                          nh=NH_IPV6) + inner))
    with pytest.raises(socket.timeout):
        rx.recvfrom(2048)
    assert stats(c.ns["R2"])["end"] == 1
    assert stats(c.ns["R3"])["decap"] == 0


def blackhole_r3(c, *rule):
    """R2 routes sid(R3) to a blackhole for packets that match `rule`."""
    ns = c.ns["R2"]
    sh(["ip", "-n", ns, "-6", "rule", "add", *rule, "lookup", "143"])
    sh(["ip", "-n", ns, "-6", "route", "add", "blackhole",
        f"{sid('R3')}/128", "table", "143"])


def udp_behind_srh(dport, sl=1):
    """An inserted SRH (R2, then R3) in front of UDP to `dport`."""
    u = bytes(UDP(sport=4000, dport=dport) / Raw(b"ports"))
    segs = [sid("R3"), sid("R2")]
    return frame_from_a(segs[sl], srh(segs, sl=sl, nh=NH_UDP) + u)


def r3_sees(c, frame):
    """The frames of ours that reach R3 from R2 after `frame` was sent."""
    tap = Tap(c.ns["R3"], c.iface("R3", "R2"))
    send_a(c, frame)
    got = tap.collect(lambda f: (eth_ipv6(f) or {}).get("payload", b"")
                      .endswith(b"ports"), timeout=1.5, incoming_only=True)
    tap.close()
    return got


def test_fib_rules_on_ports_see_past_the_srh(sr):
    """A fib rule matching the UDP port behind the SRH steers the packet
    the End forwards, as the stack's own lookup does (fib rules' flow
    dissection walks past the routing header)."""
    c = sr
    blackhole_r3(c, "ipproto", "udp", "dport", "6000")
    got = r3_sees(c, udp_behind_srh(6000))
    assert got == []
    got = r3_sees(c, udp_behind_srh(6001))
    assert len(got) == 1 and eth_ipv6(got[0])["dst"] == sid("R3")
    assert stats(c.ns["R2"])["end"] == 2


def test_transit_sr_packet_routed_by_policy(sr):
    """An SR packet that only passes through (its destination is no
    address of R2) goes where R2's policy routing sends it: a mark from
    the mangle table to a blackhole, no mark to R3; nothing is counted
    as an End or a drop."""
    c = sr
    ns = c.ns["R2"]
    sh(["ip", "netns", "exec", ns, "nft", "-f", "-"], input="""
table ip6 seg6xtest {
  chain pre {
    type filter hook prerouting priority mangle; policy accept;
    udp dport 6000 meta mark set 0x43
  }
}
""")
    blackhole_r3(c, "fwmark", "0x43")
    got = r3_sees(c, udp_behind_srh(6000, sl=0))
    assert got == []
    got = r3_sees(c, udp_behind_srh(6001, sl=0))
    assert len(got) == 1 and eth_ipv6(got[0])["hlim"] == 62
    st = stats(ns)
    assert st["end"] == 0 and sum(st["drop"].values()) == 0


def test_transit_sr_packet_without_route_unreachable(sr):
    """No route at R2 for a transit SR packet's destination: the stack's
    ICMPv6 Destination Unreachable (no route) goes back to the source."""
    c = sr
    ns = c.ns["R2"]
    nowhere = "fc00:4::dead"     # R1 routes fc00:4::/64 to R2
    sh(["ip", "-n", ns, "-6", "route", "add", "unreachable",
        f"{nowhere}/128"])
    a = Tap(c.ns["A"], c.iface("A", "R1"))
    u = bytes(UDP(sport=4000, dport=PORT) / Raw(b"nowhere"))
    send_a(c, frame_from_a(nowhere, srh([nowhere], sl=0, nh=NH_UDP) + u))
    got = a.collect(lambda f: (eth_ipv6(f) or {}).get("nh") == 58,
                    timeout=2, incoming_only=True)
    assert len(got) == 1
    icmp = eth_ipv6(got[0])["payload"]
    assert icmp[0] == 1  # Destination Unreachable
    assert stats(ns)["end"] == 0


def test_fragmented_inner_decapsulated_without_conntrack(sr):
    c = sr
    # the inner packet fits every link; the outer one arrives in pieces
    inner, _ = udp6(A_SRC, B6, b"F" * 1300)
    pkt = (IPv6(src=A_SRC, dst=sid("R3"), nh=NH_ROUTING) /
           Raw(srh([sid("R3")], sl=0, nh=44)) /
           IPv6ExtHdrFragment(nh=NH_IPV6) / Raw(inner))
    frags = fragment6(pkt, 600)
    assert len(frags) >= 3
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    a = Tap(c.ns["A"], c.iface("A", "R1"))
    for f in frags:
        a.send(Ether(dst=mac(1, 1), src=mac(1, 0)) / f)
    assert rx.recvfrom(4096)[0] == b"F" * 1300
    assert stats(c.ns["R3"])["decap"] == 1


def test_destination_options_after_srh_decapsulated(sr):
    c = sr
    inner, _ = udp6(A_SRC, B6, b"dstopt")
    dopt = bytes(IPv6ExtHdrDestOpt(nh=NH_IPV6))
    h = srh([sid("R3")], sl=0, nh=NH_DEST)
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    send_a(c, (Ether(dst=mac(1, 1), src=mac(1, 0)) /
               IPv6(src=A_SRC, dst=sid("R3"), nh=NH_ROUTING) /
               Raw(h + dopt + inner)))
    assert rx.recvfrom(2048)[0] == b"dstopt"
    assert stats(c.ns["R3"])["decap"] == 1


def test_second_routing_header_after_srh_dropped(sr):
    c = sr
    inner, _ = udp6(A_SRC, B6, b"two")
    h = srh([sid("R3")], sl=0, nh=NH_ROUTING) + srh([B6], sl=0, nh=NH_IPV6)
    send_a(c, (Ether(dst=mac(1, 1), src=mac(1, 0)) /
               IPv6(src=A_SRC, dst=sid("R3"), nh=NH_ROUTING) /
               Raw(h + inner)))
    assert wait_until(lambda: stats(c.ns["R3"])["drop"]["bad_srh"] == 1)


UNPRIV_SENDER = r"""
import socket, sys
h = bytes.fromhex(sys.argv[1])
s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_RTHDR, h)
for i in range(3):
    s.sendto(b"unpriv", (sys.argv[2], 5000))
"""


def test_socket_signing_needs_net_admin(sr):
    """IPV6_RTHDR needs no privilege: an unprivileged process must not get
    seg6x to sign its SRH with a key of the namespace."""
    c = sr
    set_key(c.ns["A"])
    set_key(c.ns["R2"])
    ctl("iface", "set", "default", "require_hmac", "1", ns=c.ns["R2"])
    h = srh(["::", sid("R3"), sid("R2")], sl=2, nh=0, flags=FLAG_HMAC,
            tlvs=hmac_tlv(7))
    sh(["ip", "netns", "exec", c.ns["A"], "setpriv", "--reuid=65534",
        "--regid=65534", "--clear-groups", "--inh-caps=-all",
        "/usr/bin/python3", "-c", UNPRIV_SENDER, h.hex(), B6])
    assert wait_until(
        lambda: stats(c.ns["R2"])["drop"]["hmac_invalid"] == 3)
    assert stats(c.ns["A"])["hmac_signed"] == 0


BR_NS, BH1_NS, BH2_NS = "s6xbr", "s6xbh1", "s6xbh2"
BR_MAC, BH1_MAC, BH2_MAC = "02:00:00:00:b0:00", "02:00:00:00:b0:01", \
    "02:00:00:00:b0:02"
BR6 = "fc00:b0::1"


@pytest.fixture
def bridge(seg6x):
    """A bridge with two hosts, br_netfilter on (it runs the IPv6
    PRE_ROUTING hooks on bridged frames), seg6x enabled in its
    namespace, the bridge holding BR6."""
    if sh(["modprobe", "br_netfilter"], check=False).returncode != 0:
        pytest.skip("no br_netfilter module")
    sh(["ip", "netns", "add", BR_NS])
    try:
        for ns, mac_, port in ((BH1_NS, BH1_MAC, "p1"),
                               (BH2_NS, BH2_MAC, "p2")):
            sh(["ip", "netns", "add", ns])
            ip_batch(None, [f"link add hv netns {ns} address {mac_} type veth"
                            f" peer name {port} netns {BR_NS}"])
            ip_batch(ns, ["link set hv up"])
        sysctl(BR_NS, "net.bridge.bridge-nf-call-ip6tables", 1)
        sysctl(BR_NS, "net.ipv6.conf.default.accept_dad", 0)
        ip_batch(BR_NS, [f"link add br0 address {BR_MAC} type bridge",
                         "link set p1 master br0", "link set p2 master br0",
                         "link set p1 up", "link set p2 up",
                         "link set br0 up",
                         f"addr add {BR6}/64 dev br0 nodad"])
        ctl("iface", "set", "default", "seg6_enabled", 1, ns=BR_NS)

        def forwarding():
            ports = json.loads(sh(["bridge", "-n", BR_NS, "-j", "link"]).stdout)
            return sorted(p["ifname"] for p in ports
                          if p.get("state") == "forwarding") == ["p1", "p2"]
        # a port forwards once its carrier is seen, asynchronously
        assert wait_until(forwarding)
        yield
    finally:
        for ns in (BH1_NS, BH2_NS, BR_NS):
            sh(["ip", "netns", "del", ns], check=False)
        sh(["modprobe", "-r", "br_netfilter"], check=False)


def _bridged(dst_mac, m):
    return bytes(Ether(dst=dst_mac, src=BH1_MAC) /
                 IPv6(src="fc00:b0::11", dst=BR6, nh=NH_ROUTING) /
                 Raw(srh(["fc00:b0::99", BR6], sl=1, nh=NH_UDP) +
                     bytes(UDP(sport=4000, dport=PORT) / Raw(m))))


def test_bridged_frame_for_another_host_left_alone(bridge):
    """br_netfilter marks a frame for another host's MAC PACKET_HOST while
    the IPv6 PRE_ROUTING hooks run: seg6x must still leave it alone, even
    when its IPv6 destination is the bridge's own address."""
    m = b"bridged to h2"
    tap = Tap(BH2_NS, "hv")
    Tap(BH1_NS, "hv").send(_bridged(BH2_MAC, m))
    got = tap.collect(lambda f: m in f, incoming_only=True)
    tap.close()
    assert len(got) == 1
    ip = eth_ipv6(got[0])
    assert ip["dst"] == BR6 and parse_srh(ip["payload"])["sl"] == 1
    assert stats(BR_NS)["end"] == 0
    # the control: the same packet to the bridge's own MAC is processed
    Tap(BH1_NS, "hv").send(_bridged(BR_MAC, b"to the bridge"))
    assert wait_until(lambda: stats(BR_NS)["end"] == 1)
