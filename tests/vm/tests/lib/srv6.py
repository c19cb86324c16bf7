# SPDX-License-Identifier: GPL-2.0
"""SRv6 packets for the VM tests, addresses as strings.

The SRH and its HMAC come from lib/pktlib.py (bytes, shared with the
fuzzers), so that tests control every field, including the malformed
ones; scapy builds and checks the rest (Ethernet, IPv6, payloads) and
computes upper-layer checksums.
"""
import struct

from scapy.all import IPv6, Raw  # noqa: F401  (re-exported for tests)

from . import pktlib as P
from .pktlib import FLAG_CLEANUP, FLAG_HMAC, a2b, b2a  # noqa: F401

NH_IPV4, NH_IPV6, NH_ROUTING, NH_UDP, NH_ICMP6, NH_DEST = (
    P.NH_IPV4, P.NH_IPV6, P.NH_ROUTING, P.NH_UDP, P.NH_ICMP6, P.NH_DEST)


def srh(segments, sl, nh, last_entry=None, flags=0, tag=0, hdrlen=None,
        tlvs=b""):
    """An SRH; `segments` in wire order (Segment List[0] first)."""
    return P.srh([a2b(s) for s in segments], sl, nh, le=last_entry,
                 flags=flags, tag=tag, hdrlen=hdrlen, tlvs=tlvs)


def hmac_tlv(keyid, mac=b"\0" * 32):
    return P.hmac_tlv(keyid, mac)


def hmac_text(src, last_entry, flags, keyid, segments):
    return P.hmac_text(a2b(src), last_entry, flags, keyid,
                       [a2b(s) for s in segments])


def hmac_digest(algo, secret, text):
    return P.hmac_digest(algo, secret, text)


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
