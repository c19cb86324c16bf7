# SPDX-License-Identifier: GPL-2.0
"""Building and parsing SRv6 packets byte by byte.

The SRH is built by hand (not with scapy's layer) so that tests control
every field, including the malformed ones; scapy builds and checks the
rest (Ethernet, IPv6, payloads) and computes upper-layer checksums.
"""
import hashlib
import hmac as _hmac
import ipaddress
import struct

from scapy.all import IPv6, Raw  # noqa: F401  (re-exported for tests)

NH_IPV4, NH_IPV6, NH_ROUTING, NH_UDP, NH_ICMP6, NH_DEST = 4, 41, 43, 17, 58, 60

FLAG_CLEANUP = 0x80
FLAG_HMAC = 0x08


def a2b(a):
    return ipaddress.IPv6Address(a).packed


def b2a(b):
    return str(ipaddress.IPv6Address(bytes(b)))


def srh(segments, sl, nh, last_entry=None, flags=0, tag=0, hdrlen=None,
        tlvs=b""):
    """An SRH; `segments` in wire order (Segment List[0] first)."""
    body = b"".join(a2b(s) for s in segments) + tlvs
    if last_entry is None:
        last_entry = len(segments) - 1
    if hdrlen is None:
        hdrlen = len(body) // 8
    return struct.pack("!BBBBBBH", nh, hdrlen, 4, sl, last_entry, flags,
                       tag) + body


def hmac_tlv(keyid, mac=b"\0" * 32):
    return struct.pack("!BBHI", 5, 38, 0, keyid) + mac


def hmac_text(src, last_entry, flags, keyid, segments):
    return (a2b(src) + bytes([last_entry, flags]) + struct.pack("!I", keyid)
            + b"".join(a2b(s) for s in segments))


def hmac_digest(algo, secret, text):
    d = _hmac.new(secret, text, {"sha1": hashlib.sha1,
                                 "sha256": hashlib.sha256}[algo]).digest()
    return d + b"\0" * (32 - len(d))


def signed_srh(segments, sl, nh, src, keyid, algo, secret, flags=0,
               tamper=None):
    """An SRH with a valid (or, with tamper(text)->text, a wrong) HMAC."""
    flags |= FLAG_HMAC
    text = hmac_text(src, len(segments) - 1, flags, keyid, segments)
    if tamper:
        text = tamper(text)
    return srh(segments, sl, nh, flags=flags,
               tlvs=hmac_tlv(keyid, hmac_digest(algo, secret, text)))


def parse_srh(b):
    nh, hdrlen, typ, sl, le, flags, tag = struct.unpack("!BBBBBBH", b[:8])
    segs = [b2a(b[8 + 16 * i: 24 + 16 * i]) for i in range(le + 1)]
    return {"nh": nh, "hdrlen": hdrlen, "type": typ, "sl": sl, "le": le,
            "flags": flags, "tag": tag, "segs": segs,
            "len": (hdrlen + 1) * 8, "raw": b[:(hdrlen + 1) * 8]}


def parse_ipv6(b):
    """Fields of an IPv6 header at b[0:40] and what follows."""
    vtf, plen, nh, hlim = struct.unpack("!IHBB", b[:8])
    return {"tc": (vtf >> 20) & 0xFF, "fl": vtf & 0xFFFFF, "plen": plen,
            "nh": nh, "hlim": hlim, "src": b2a(b[8:24]),
            "dst": b2a(b[24:40]), "payload": b[40:]}


def eth_ipv6(frame):
    """IPv6 header dict of an Ethernet frame, or None."""
    if len(frame) < 54 or frame[12:14] != b"\x86\xdd":
        return None
    return parse_ipv6(frame[14:])
