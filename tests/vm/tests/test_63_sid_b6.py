# SPDX-License-Identifier: GPL-2.0
"""Binding SIDs: End.B6.Encaps and End.B6.Encaps.Red (RFC 8986 4.13,
4.14), received SRH advanced first; HMAC on the new SRH."""
import pytest
from scapy.all import IPv6, Raw

from conftest import ctl
from lib.netns import ip_batch
from lib.sidnl import SidNl
from lib.sidtest import (A_SRC, SID, compare, emit, frame_to_r2, marker,
                         udp6)
from lib.srv6 import (NH_IPV6, NH_ROUTING, eth_ipv6, hmac_digest, hmac_text,
                      parse_srh, srh)
from lib.topo import addr6, sid

B6 = addr6(4, "B")
TUNSRC = "fc00:2::2"
SECRET = b"b6 secret"


def _frame(m):
    inner = udp6(A_SRC, B6, m, hlim=40)
    h = srh([sid("B"), SID], sl=1, nh=NH_IPV6, tag=0x77)
    return (frame_to_r2(IPv6(src=A_SRC, dst=SID, nh=NH_ROUTING, hlim=50,
                             fl=0xabcde, tc=0x48) / Raw(h + inner)),
            h, inner)


def _tunsrc(c):
    ip_batch(c.ns["R2"], [f"sr tunsrc set {TUNSRC}"])
    ctl("tunsrc", "set", TUNSRC, ns=c.ns["R2"])


def test_b6_encaps_same_as_intree(chain):
    c, m = chain, marker()
    _tunsrc(c)
    frame, h, inner = _frame(m)
    ref, got, nl = compare(
        c, frame, m, f"{SID}/128 encap seg6local action End.B6.Encaps srh "
        f"segs {sid('R3')},{sid('B')} dev {c.iface('R2', 'R1')}",
        ((SID, "End.B6.Encaps"), {"segs": [sid("R3"), sid("B")],
                                  "count": True}))
    assert len(ref) == 1 and got == ref
    ip = eth_ipv6(got[0])
    assert ip["src"] == TUNSRC and ip["dst"] == sid("R3")
    assert ip["hlim"] == 49 and ip["tc"] == 0x48 and ip["fl"] == 0xabcde
    s = parse_srh(ip["payload"])
    assert s["sl"] == 1 and s["le"] == 1 and s["nh"] == NH_IPV6
    old = parse_srh(ip["payload"][s["len"] + 40:])
    assert old["sl"] == 0                       # advanced first
    assert ip["payload"][s["len"]:][24:40] == bytes.fromhex(
        "fc00" + "00ff" + "0" * 20 + "000b")   # inner DA = next segment
    assert nl.stats()["sid_end_b6_encaps"] == 1


@pytest.mark.parametrize("n", [1, 3])
def test_b6_encaps_red(chain, n):
    c, m = chain, marker()
    _tunsrc(c)
    segs = [sid("R3"), "fc00:99::1", sid("B")][:n]
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End.B6.Encaps.Red", segs=segs)
    frame, h, inner = _frame(m)
    got = emit(c, frame, ("R3", c.iface("R3", "R2")), m)
    assert len(got) == 1
    ip = eth_ipv6(got[0])
    assert ip["dst"] == sid("R3") and ip["src"] == TUNSRC
    if n == 1:
        assert ip["nh"] == NH_IPV6
        assert ip["payload"][:40][24:40] == bytes.fromhex(
            "fc0000ff00000000000000000000000b")
    else:
        s = parse_srh(ip["payload"])
        # the first segment only in the DA: SL = LE + 1
        assert s["le"] == n - 2 and s["sl"] == n - 1
        assert s["segs"] == list(reversed(segs[1:]))


def test_b6_encaps_hmac(chain):
    c, m = chain, marker()
    _tunsrc(c)
    ctl("hmac", "set", 9, "sha256", ns=c.ns["R2"], input=SECRET.decode())
    nl = SidNl(c.ns["R2"])
    nl.must_add(SID, "End.B6.Encaps", segs=[sid("R3"), sid("B")], hmac=9)
    frame, h, inner = _frame(m)
    got = emit(c, frame, ("R3", c.iface("R3", "R2")), m)
    assert len(got) == 1
    s = parse_srh(eth_ipv6(got[0])["payload"])
    text = hmac_text(TUNSRC, 1, s["flags"], 9, s["segs"])
    assert s["raw"][-32:] == hmac_digest("sha256", SECRET, text)
    # the key gone: dropped, counted
    ctl("hmac", "del", 9, ns=c.ns["R2"])
    m2 = marker()
    frame, _, _ = _frame(m2)
    assert emit(c, frame, ("R3", c.iface("R3", "R2")), m2, timeout=1) == []
    assert nl.stats()["hmac_nokey"] == 1
