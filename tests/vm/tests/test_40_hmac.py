# SPDX-License-Identifier: GPL-2.0
"""HMAC keyring, signing, verification, interop, per-socket SRH."""
import os
import socket
import struct
import threading

import pytest
from scapy.all import UDP, Ether, IPv6, Raw

from conftest import ctl, enable, stats, wait_until
from lib.netns import Tap, inside, ip_batch, sh, sysctl, udp_socket
from lib.srv6 import (FLAG_HMAC, NH_IPV6, NH_ROUTING, a2b, eth_ipv6,
                      hmac_digest, hmac_text, hmac_tlv, parse_srh,
                      signed_srh, srh)
from lib.topo import addr6, mac, sid

A_SRC = addr6(1, "A")
B6 = addr6(4, "B")
PORT = 5000
SECRET = b"correct horse battery staple"
OTHER = b"another secret"


def set_key(ns, keyid, algo, secret=SECRET):
    ctl("hmac", "set", keyid, algo, ns=ns, input=secret.decode() + "\n")


def inner_udp(data):
    return bytes(IPv6(src=A_SRC, dst=B6) / UDP(sport=4000, dport=PORT) /
                 Raw(data))


def send(c, h, data=b"signed"):
    frame = (Ether(dst=mac(1, 1), src=mac(1, 0)) /
             IPv6(src=A_SRC, dst=sid("R2"), nh=NH_ROUTING) /
             Raw(h + inner_udp(data)))
    Tap(c.ns["A"], c.iface("A", "R1")).send(frame)


SEGS = [sid("R3"), sid("R2")]


@pytest.fixture
def hm(chain):
    """R2 and R3 run seg6x with key 7 (sha256) and key 8 (sha1)."""
    enable(chain, "R2", "R3")
    for n in ("R2", "R3"):
        set_key(chain.ns[n], 7, "sha256")
        set_key(chain.ns[n], 8, "sha1", OTHER)
    return chain


def test_keyring_cli(seg6x, tmp_path):
    sh(["ip", "netns", "add", "keys"])
    try:
        ctl("hmac", "set", "7", "sha256", ns="keys", input="s3cret\n")
        f = tmp_path / "secret"
        f.write_bytes(os.urandom(64))
        f.chmod(0o600)
        ctl("hmac", "set", "4294967295", "sha1", "secret-file", str(f),
            ns="keys")
        shown = ctl("hmac", "show", ns="keys", js=True)
        assert shown == [{"keyid": 7, "algo": "sha256"},
                         {"keyid": 4294967295, "algo": "sha1"}]
        text = ctl("hmac", "show", ns="keys").stdout
        assert "s3cret" not in text
        bad = [(["hmac", "set", "0", "sha256"], "x\n"),
               (["hmac", "set", "9", "sha256"], "\n"),
               (["hmac", "set", "9", "sha256"], "x" * 65 + "\n"),
               (["hmac", "set", "9", "md5"], "x\n"),
               (["hmac", "set", "4294967296", "sha1"], "x\n"),
               (["hmac", "set", "9", "sha1", "secret-file",
                 str(tmp_path / "missing")], ""),
               (["hmac", "set", "9", "sha1", "s3cret"], ""),
               (["hmac", "del"], "")]
        for args, stdin in bad:
            p = ctl(*args, ns="keys", input=stdin, check=False)
            assert p.returncode in (1, 2) and p.stderr.startswith("seg6ctl:")
            assert ctl("hmac", "show", ns="keys", js=True) == shown, args
        p = ctl("hmac", "del", "99", ns="keys", check=False)
        assert p.returncode == 1
        ctl("hmac", "del", "7", ns="keys")
        assert ctl("hmac", "show", ns="keys", js=True) == \
            [{"keyid": 4294967295, "algo": "sha1"}]
    finally:
        sh(["ip", "netns", "del", "keys"], check=False)


@pytest.mark.parametrize("keyid,algo,secret", [(7, "sha256", SECRET),
                                               (8, "sha1", OTHER)])
def test_valid_hmac_accepted(hm, keyid, algo, secret):
    c = hm
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    send(c, signed_srh(SEGS, 1, NH_IPV6, A_SRC, keyid, algo, secret))
    assert rx.recvfrom(2048)[0] == b"signed"
    # checked at every node the packet is addressed to (R2 and R3)
    assert stats(c.ns["R2"])["hmac_verified"] == 1
    assert stats(c.ns["R3"])["hmac_verified"] == 1


def test_keys_found_after_sets_and_deletes(hm):
    """The key set last is looked up first: the others must still be
    found, a deleted one never again, a replaced one only with its new
    secret."""
    c = hm                                      # 7 (sha256), then 8 (sha1)
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    for n in ("R2", "R3"):
        ctl("hmac", "del", "8", ns=c.ns[n])
    send(c, signed_srh(SEGS, 1, NH_IPV6, A_SRC, 8, "sha1", OTHER))
    assert wait_until(lambda: stats(c.ns["R2"])["drop"]["hmac_nokey"] == 1)
    send(c, signed_srh(SEGS, 1, NH_IPV6, A_SRC, 7, "sha256", SECRET), b"7")
    assert rx.recvfrom(2048)[0] == b"7"
    for n in ("R2", "R3"):
        set_key(c.ns[n], 7, "sha256", OTHER)
    send(c, signed_srh(SEGS, 1, NH_IPV6, A_SRC, 7, "sha256", SECRET))
    assert wait_until(
        lambda: stats(c.ns["R2"])["drop"]["hmac_invalid"] == 1)
    send(c, signed_srh(SEGS, 1, NH_IPV6, A_SRC, 7, "sha256", OTHER), b"new")
    assert rx.recvfrom(2048)[0] == b"new"
    assert stats(c.ns["R3"])["hmac_verified"] == 2


def _flip_segment(text):
    return text[:-1] + bytes([text[-1] ^ 1])


def _other_source(text):
    return a2b("fc00:1::99") + text[16:]


@pytest.mark.parametrize("case", ["segment", "source", "keyid", "flags"])
def test_tampered_hmac_dropped(hm, case):
    c = hm
    if case == "segment":
        h = signed_srh(SEGS, 1, NH_IPV6, A_SRC, 7, "sha256", SECRET,
                       tamper=_flip_segment)
    elif case == "source":
        h = signed_srh(SEGS, 1, NH_IPV6, A_SRC, 7, "sha256", SECRET,
                       tamper=_other_source)
    elif case == "keyid":
        # signed with key 7, but the TLV names key 8 (which exists)
        good = signed_srh(SEGS, 1, NH_IPV6, A_SRC, 7, "sha256", SECRET)
        h = good[:-36] + struct.pack("!I", 8) + good[-32:]
    else:
        good = signed_srh(SEGS, 1, NH_IPV6, A_SRC, 7, "sha256", SECRET)
        h = good[:5] + bytes([good[5] | 0x40]) + good[6:]
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    rx.settimeout(1.0)
    for _ in range(2):
        send(c, h)
    with pytest.raises(socket.timeout):
        rx.recvfrom(2048)
    s = stats(c.ns["R2"])
    assert s["drop"]["hmac_invalid"] == 2 and s["end"] == 0


def test_unknown_key_dropped(hm):
    c = hm
    send(c, signed_srh(SEGS, 1, NH_IPV6, A_SRC, 99, "sha256", SECRET))
    assert wait_until(lambda: stats(c.ns["R2"])["drop"]["hmac_nokey"] == 1)


def test_require_hmac_policy(hm):
    c = hm
    plain = srh(SEGS, 1, NH_IPV6)
    bad = signed_srh(SEGS, 1, NH_IPV6, A_SRC, 7, "sha256", SECRET,
                     tamper=_flip_segment)
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    # 1: an SRH without HMAC is dropped
    ctl("iface", "set", c.iface("R2", "R1"), "require_hmac", "1",
        ns=c.ns["R2"])
    send(c, plain)
    assert wait_until(
        lambda: stats(c.ns["R2"])["drop"]["hmac_missing"] == 1)
    # -1: even a wrong HMAC is ignored
    ctl("iface", "set", c.iface("R2", "R1"), "require_hmac", "-1",
        ns=c.ns["R2"])
    ctl("iface", "set", "default", "require_hmac", "-1", ns=c.ns["R3"])
    send(c, bad, b"ignored")
    assert rx.recvfrom(2048)[0] == b"ignored"
    # 0: absent is fine, present is checked
    ctl("iface", "set", c.iface("R2", "R1"), "require_hmac", "0",
        ns=c.ns["R2"])
    send(c, plain, b"no hmac")
    assert rx.recvfrom(2048)[0] == b"no hmac"


def route_with_hmac(c, keyid, mode="encap"):
    ctl("route", "add", f"{B6}/128", "mode", mode, "segs",
        f"{sid('R2')},{sid('R3')}", "hmac", keyid, "dev",
        c.iface("R1", "R2"), "via", addr6(2, "R2"), ns=c.ns["R1"])


def send_through_route(c):
    """A packet from A through R1's route, as R2 receives it: (IPv6, SRH)."""
    tap = Tap(c.ns["R2"], c.iface("R2", "R1"))
    tx = udp_socket(c.ns["A"], socket.AF_INET6, A_SRC, 0)
    tx.sendto(b"route signed", (B6, PORT))
    got = tap.collect(lambda f: (eth_ipv6(f) or {}).get("nh") == NH_ROUTING,
                      incoming_only=True)
    ip = eth_ipv6(got[0])
    return ip, parse_srh(ip["payload"])


@pytest.mark.parametrize("mode", ["encap", "inline"])
def test_route_signs(hm, mode):
    c = hm
    set_key(c.ns["R1"], 7, "sha256")
    route_with_hmac(c, 7, mode)
    ip, s = send_through_route(c)
    assert s["flags"] == FLAG_HMAC
    assert s["hdrlen"] == s["len"] // 8 - 1
    assert s["len"] == 8 + 16 * (s["le"] + 1) + 40
    tlv = s["raw"][-40:]
    assert tlv[:8] == hmac_tlv(7)[:8]
    text = hmac_text(ip["src"], s["le"], s["flags"], 7, s["segs"])
    assert tlv[8:] == hmac_digest("sha256", SECRET, text)
    assert stats(c.ns["R1"])["hmac_signed"] == 1


@pytest.mark.parametrize("nsegs", [1, 2, 3])
def test_route_signs_any_text_length(hm, nsegs):
    """HMAC texts of 38 and 54 bytes fit one SHA-256 block with their
    padding, 70 bytes do not: each is hashed as RFC 8754 2.1.2.1 says."""
    c = hm
    set_key(c.ns["R1"], 7, "sha256")
    segs = [sid("R2"), sid("R3"), addr6(3, "B")][:nsegs]
    ctl("route", "add", f"{B6}/128", "mode", "encap", "segs", ",".join(segs),
        "hmac", 7, "dev", c.iface("R1", "R2"), "via", addr6(2, "R2"),
        ns=c.ns["R1"])
    ip, s = send_through_route(c)
    assert s["le"] == nsegs - 1
    text = hmac_text(ip["src"], s["le"], s["flags"], 7, s["segs"])
    assert len(text) == 22 + 16 * nsegs
    assert s["raw"][-32:] == hmac_digest("sha256", SECRET, text)


def test_route_missing_key_drops(chain):
    c = chain
    route_with_hmac(c, 42)
    tx = udp_socket(c.ns["A"], socket.AF_INET6, A_SRC, 0)
    for _ in range(3):
        tx.sendto(b"x", (B6, PORT))
    assert wait_until(lambda: stats(c.ns["R1"])["drop"]["hmac_nokey"] == 3)
    assert stats(c.ns["R1"])["encap"] == 0


def _intree_key(ns, keyid, algo, secret):
    sh(["ip", "-n", ns, "sr", "hmac", "set", str(keyid), algo],
       input=secret.decode() + "\n")


def _intree_enable(c, node, peers, require=1):
    ns = c.ns[node]
    sysctl(ns, "net.ipv6.conf.all.seg6_enabled", 1)
    for p in peers:
        ifn = c.iface(node, p)
        sysctl(ns, f"net.ipv6.conf.{ifn}.seg6_enabled", 1)
        sysctl(ns, f"net.ipv6.conf.{ifn}.seg6_require_hmac", require)


@pytest.mark.parametrize("algo", ["sha1", "sha256"])
def test_interop_intree_verifies_seg6x(chain, algo):
    c = chain
    set_key(c.ns["R1"], 7, algo)
    route_with_hmac(c, 7)
    for n, peers in (("R2", ("R1", "R3")), ("R3", ("R2", "B"))):
        _intree_key(c.ns[n], 7, algo, SECRET)
        _intree_enable(c, n, peers)
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    tx = udp_socket(c.ns["A"], socket.AF_INET6, A_SRC, 0)
    tx.sendto(b"verified by the kernel", (B6, PORT))
    assert rx.recvfrom(2048)[0] == b"verified by the kernel"
    # and a wrong key there makes the kernel drop it
    _intree_key(c.ns["R2"], 7, algo, OTHER)
    rx.settimeout(1.0)
    tx.sendto(b"x", (B6, PORT))
    with pytest.raises(socket.timeout):
        rx.recvfrom(2048)


@pytest.mark.parametrize("algo", ["sha1", "sha256"])
def test_interop_seg6x_verifies_intree(chain, algo):
    c = chain
    enable(c, "R2", "R3", hmac=1)
    for n in ("R2", "R3"):
        set_key(c.ns[n], 7, algo)
    _intree_key(c.ns["R1"], 7, algo, SECRET)
    ip_batch(c.ns["R1"], [
        f"route add {B6}/128 encap seg6 mode encap segs "
        f"{sid('R2')},{sid('R3')} hmac 7 via {addr6(2, 'R2')} "
        f"dev {c.iface('R1', 'R2')}"])
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    tx = udp_socket(c.ns["A"], socket.AF_INET6, A_SRC, 0)
    for i in range(3):
        tx.sendto(b"kernel signed %d" % i, (B6, PORT))
    for i in range(3):
        assert rx.recvfrom(2048)[0] == b"kernel signed %d" % i
    assert stats(c.ns["R2"])["hmac_verified"] == 3
    assert stats(c.ns["R3"])["hmac_verified"] == 3


def test_key_rotation_under_traffic(hm):
    c = hm
    set_key(c.ns["R1"], 7, "sha256")
    route_with_hmac(c, 7)
    enable(c, "R2", "R3", hmac=1)
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    tx = udp_socket(c.ns["A"], socket.AF_INET6, A_SRC, 0)
    n = 300
    stop = threading.Event()

    def rotate():
        # re-keying with the secret in force: readers must never see a
        # half-installed key
        while not stop.is_set():
            for node in ("R1", "R2", "R3"):
                set_key(c.ns[node], 7, "sha256")

    th = threading.Thread(target=rotate)
    th.start()
    try:
        got = 0
        for i in range(n):
            tx.sendto(b"%d" % i, (B6, PORT))
            if i % 20 == 19:
                while got <= i - 5:
                    rx.recvfrom(2048)
                    got += 1
        while got < n:
            rx.recvfrom(2048)
            got += 1
    finally:
        stop.set()
        th.join()
    s2 = stats(c.ns["R2"])
    assert s2["drop"]["hmac_invalid"] == 0 and s2["hmac_verified"] == n


def test_per_socket_srh_signed(hm):
    c = hm
    enable(c, "B", hmac=1)
    for n in ("A", "B"):
        set_key(c.ns[n], 7, "sha256")
    enable(c, "R2", "R3", hmac=1)
    # Segment List[0] is filled by the kernel with the socket's destination
    h = srh(["::", sid("R3"), sid("R2")], sl=2, nh=0, flags=FLAG_HMAC,
            tlvs=hmac_tlv(7))
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    with inside(c.ns["A"]):
        s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_RTHDR, h)
    for i in range(4):
        s.sendto(b"app %d" % i, (B6, PORT))
    for i in range(4):
        assert rx.recvfrom(2048)[0] == b"app %d" % i
    assert stats(c.ns["A"])["hmac_signed"] == 4
    assert stats(c.ns["R2"])["hmac_verified"] == 4
    assert stats(c.ns["B"])["hmac_verified"] == 4
