# SPDX-License-Identifier: GPL-2.0
"""Byte-level IPv6 / SRH building, walking and checking: the one SRH and
HMAC implementation of the tests. The fuzzers (tests/fuzz) use it
directly; the VM tests through lib/srv6.py, which takes addresses as
strings.

No scapy: under TCG its import alone costs seconds and building 100,000
packets through it minutes. Everything here works on `bytes`.
"""
import hashlib
import hmac as _hmac
import ipaddress
import struct

NH_HOP, NH_IPV4, NH_TCP, NH_UDP, NH_IPV6 = 0, 4, 6, 17, 41
NH_ROUTING, NH_FRAG, NH_ICMP6, NH_NONE, NH_DEST = 43, 44, 58, 59, 60

FLAG_CLEANUP = 0x80
FLAG_HMAC = 0x08
TLV_PAD1, TLV_PADN, TLV_HMAC = 0, 4, 5


def a2b(a):
    return ipaddress.IPv6Address(a).packed


def b2a(b):
    return str(ipaddress.IPv6Address(bytes(b)))


def ipv6(src, dst, nh, payload, hlim=64, tc=0, fl=0):
    """IPv6 header (Payload Length = len(payload)) + payload."""
    vtf = (6 << 28) | ((tc & 0xFF) << 20) | (fl & 0xFFFFF)
    return struct.pack("!IHBB", vtf, len(payload), nh, hlim) + src + dst + \
        payload


def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ipv4(src, dst, proto, payload, ttl=64, tos=0, ident=0, df=False,
         mf=False, frag_off=0, options=b""):
    """IPv4 header with a correct checksum + payload."""
    ihl = 5 + len(options) // 4
    fl = (0x4000 if df else 0) | (0x2000 if mf else 0) | (frag_off >> 3)
    h = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, tos,
                    ihl * 4 + len(payload), ident, fl, ttl, proto, 0,
                    ipaddress.IPv4Address(src).packed,
                    ipaddress.IPv4Address(dst).packed) + options
    h = h[:10] + struct.pack("!H", csum(h)) + h[12:]
    return h + payload


def udp(sport, dport, data):
    return struct.pack("!HHHH", sport, dport, 8 + len(data), 0) + data


def ext_opts(nh, body):
    """A Hop-by-Hop / Destination Options header; body padded to 8n+6
    with a PadN (or Pad1) option."""
    need = (-(len(body) + 2)) % 8
    if need == 1:
        body += b"\0"
    elif need:
        body += bytes([1, need - 2]) + b"\0" * (need - 2)
    return bytes([nh, (len(body) + 2) // 8 - 1]) + body


def srh(segs, sl, nh, le=None, flags=0, tag=0, hdrlen=None, tlvs=b""):
    """An SRH from raw 16-byte segments in wire order (List[0] first)."""
    body = b"".join(segs) + tlvs
    if le is None:
        le = len(segs) - 1
    if hdrlen is None:
        hdrlen = len(body) // 8
    return struct.pack("!BBBBBBH", nh, hdrlen & 0xFF, 4, sl & 0xFF,
                       le & 0xFF, flags & 0xFF, tag) + body


def hmac_tlv(keyid, mac):
    return struct.pack("!BBHI", TLV_HMAC, 38, 0, keyid) + mac


def hmac_text(src, le, flags, keyid, segs):
    """What the HMAC covers (RFC 8754 2.1.2.1): source address, Last
    Entry, flags, key id and the segment list (raw 16-byte segments)."""
    return src + bytes([le & 0xFF, flags & 0xFF]) + \
        struct.pack("!I", keyid) + b"".join(segs)


def hmac_digest(algo, secret, text):
    """The HMAC field: the digest, zero-padded to 32 bytes."""
    d = _hmac.new(secret, text, {"sha1": hashlib.sha1,
                                 "sha256": hashlib.sha256}[algo]).digest()
    return d + b"\0" * (32 - len(d))


def hmac_mac(algo, secret, src, le, flags, keyid, segs):
    return hmac_digest(algo, secret,
                       hmac_text(src, le, flags, keyid, segs))


def walk_srh(pkt, max_ext=8):
    """seg6x's walk to a type-4 routing header in an IPv6 packet (bytes
    from the IPv6 header), as module/srh.c does it: (srh offset, offset of
    the Next Header byte naming it) when found; "none" when the chain ends
    without a routing header; "hidden" where it cannot tell (-EPROTO):
    Hop-by-Hop out of place, a chain cut short, a first routing header of
    another type, more option headers than it walks."""
    if len(pkt) < 40:
        return "none"
    nh = pkt[6]
    off, nhoff = 40, 6
    for i in range(max_ext):
        if nh not in (NH_HOP, NH_DEST, NH_ROUTING):
            return "none"
        if nh == NH_HOP and i > 0:
            return "hidden"
        if off + 4 > len(pkt):
            return "hidden"
        if nh == NH_ROUTING:
            return (off, nhoff) if pkt[off + 2] == 4 else "hidden"
        nhoff = off
        nh = pkt[off]
        off += (pkt[off + 1] + 1) * 8
    return "hidden" if nh in (NH_HOP, NH_DEST, NH_ROUTING) else "none"


def find_srh(pkt, max_ext=8):
    """(srh offset, offset of the Next Header byte naming it), or None."""
    w = walk_srh(pkt, max_ext)
    return w if isinstance(w, tuple) else None


def srh_hidden(pkt, max_ext=8):
    """True where seg6x cannot tell whether an SRH is there: an interface
    that requires an HMAC drops such packets (hmac_missing)."""
    return walk_srh(pkt, max_ext) == "hidden"


NH_AUTH = 51
_EXT = (NH_HOP, NH_ROUTING, NH_FRAG, NH_AUTH, NH_NONE, NH_DEST)


def _ext_len(pkt, off, nh):
    return (pkt[off + 1] + 2) * 4 if nh == NH_AUTH else (pkt[off + 1] + 1) * 8


def _find_frag(pkt):
    """(offset of the Fragment header, offset of the Next Header byte that
    names it) as nf_defrag_ipv6 finds them (find_prev_fhdr), or None."""
    nh, off, nhoff = pkt[6], 40, 6
    while nh != NH_FRAG:
        if nh not in _EXT or nh == NH_NONE or len(pkt) - off < 2:
            return None
        step = _ext_len(pkt, off, nh)
        nhoff, nh = off, pkt[off]
        off += step
    return (off, nhoff) if off <= len(pkt) else None


def _upper_truncated(pkt, fhoff):
    """ipv6frag_thdr_truncated(): a first fragment whose header chain
    (and the start of its upper-layer header) does not fit in it."""
    nh, off = NH_FRAG, fhoff
    while nh in _EXT:
        if nh == NH_NONE or off + 2 > len(pkt):
            return False
        if nh == NH_FRAG:
            if off + 4 > len(pkt):
                return False
            if struct.unpack_from("!H", pkt, off + 2)[0] & ~7 & 0xFFFF:
                return False
            step = 8
        else:
            step = _ext_len(pkt, off, nh)
        nh = pkt[off]
        off += step
    off += {NH_TCP: 20, NH_UDP: 8, NH_ICMP6: 4}.get(nh, 1)
    return off > len(pkt)


def defrag(frames):
    """The IPv6 packets (bytes) that a PRE_ROUTING hook behind
    nf_defrag_ipv6 sees for `frames` sent in that order: frames that are
    not fragments, or that reassembly leaves alone, as they are; a
    complete fragment set as the one packet it reassembles to. Models
    net/ipv6/netfilter/nf_conntrack_reasm.c (6.1 to 7.x): RFC 8200 4.5
    first fragments missing part of the header chain pass unreassembled,
    incomplete sets are held (until they time out), overlaps and
    inconsistent ends drop the fragment, a non-final fragment whose end is
    not a multiple of 8 kills its queue and passes unreassembled."""
    seen, queues = [], {}
    for f in frames:
        if len(f) < 40 or not stack_accepts(f):
            continue            # dropped by ip6_rcv_core, before PRE_ROUTING
        if f[4:6] == b"\0\0":   # jumbo: nf_defrag leaves it alone
            seen.append(f)
            continue
        loc = _find_frag(f)
        if loc is None or _upper_truncated(f, loc[0]):
            seen.append(f)
            continue
        fhoff, nhoff = loc
        if fhoff + 8 > len(f):
            continue
        fnh, _, foff, ident = struct.unpack_from("!BBHI", f, fhoff)
        offset, more = foff & ~7, foff & 1
        end = offset + struct.unpack_from("!H", f, 4)[0] - (fhoff + 8 - 40)
        if end > 65535:
            continue
        key = (f[8:40], ident)
        q = queues.setdefault(key, {"len": 0, "last": False, "parts": {},
                                    "first": None, "done": False})
        if q["done"]:
            continue
        if not more:
            if end < q["len"] or (q["last"] and end != q["len"]):
                continue
            q["last"], q["len"] = True, end
        else:
            if end & 7:
                del queues[key]
                seen.append(f)
                continue
            if end > q["len"]:
                if q["last"]:
                    continue
                q["len"] = end
        if end == offset:
            continue
        data = f[fhoff + 8:fhoff + 8 + end - offset]
        if offset in q["parts"] and len(q["parts"][offset]) == len(data):
            continue                                    # duplicate
        if any(offset < o + len(d) and o < end
               for o, d in q["parts"].items()):
            del queues[key]                             # overlap: killed
            continue
        q["parts"][offset] = data
        if offset == 0:
            q["first"] = (f[:fhoff], nhoff, fnh)
        if q["first"] and q["last"] and \
                sum(len(d) for d in q["parts"].values()) == q["len"]:
            head, nhoff, fnh = q["first"]
            body = b"".join(q["parts"][o] for o in sorted(q["parts"]))
            pkt = bytearray(head + body)
            pkt[nhoff] = fnh
            pkt[4:6] = struct.pack("!H", len(pkt) - 40)
            q["done"] = True
            if len(pkt) - 40 <= 65535:
                seen.append(bytes(pkt))
    return seen


def hook_sees(frames, gathers):
    """The IPv6 packets seg6x's hook sees for `frames` (sent in that
    order) at a node without conntrack: seg6x reassembles only the
    packets it processes itself (`gathers(frame)` true), with the
    reassembly of nf_defrag_ipv6 (modelled by defrag()); the others,
    fragments included, reach it as they are."""
    own = [f for f in frames if gathers(f)]
    rest = [f for f in frames if not gathers(f)
            and len(f) >= 40 and stack_accepts(f)]
    return defrag(own) + rest


def stack_accepts(pkt):
    """Would the IPv6 input path (ip6_rcv_core) take this packet? Only
    what the fuzzers can get wrong is checked: a Hop-by-Hop header that
    does not fit in the packet (its options are always valid ones)."""
    if pkt[6] != NH_HOP:
        return True
    return len(pkt) >= 48 and 40 + (pkt[41] + 1) * 8 <= len(pkt)


def tlvs_tile(b):
    """RFC 8754 TLVs filling `b` exactly (Pad1 is one byte)."""
    p = 0
    while p < len(b):
        if b[p] == TLV_PAD1:
            p += 1
            continue
        if len(b) - p < 2 or len(b) - p < 2 + b[p + 1]:
            return False
        p += 2 + b[p + 1]
    return True


def check_srh(pkt, off):
    """Problems (list of strings) with the SRH at `off` of an IPv6
    packet that a node forwarded: what any SR endpoint would accept."""
    bad = []
    if off + 8 > len(pkt):
        return ["SRH header truncated"]
    nh, hdrlen, typ, sl, le, flags, tag = struct.unpack_from("!BBBBBBH",
                                                            pkt, off)
    ln = (hdrlen + 1) * 8
    if typ != 4:
        bad.append(f"type {typ}")
    if off + ln > len(pkt):
        bad.append(f"SRH ({ln} bytes) beyond the packet")
        return bad
    if hdrlen < 2 * (le + 1):
        bad.append(f"hdrlen {hdrlen} < 2*(LE {le}+1)")
        return bad
    if sl > le + 1:
        bad.append(f"SL {sl} > LE {le} + 1")
    elif sl <= le:
        seg = pkt[off + 8 + 16 * sl: off + 24 + 16 * sl]
        if seg != pkt[24:40]:
            bad.append(f"DA {b2a(pkt[24:40])} != Segment List[{sl}] "
                       f"{b2a(seg)}")
    if not tlvs_tile(pkt[off + 8 + 16 * (le + 1): off + ln]):
        bad.append("TLVs do not tile the header")
    return bad


def walk_first_rh(pkt):
    """Offset of the first routing header of an IPv6 packet, skipping
    HBH/DestOpt and stopping at a non-first fragment; or None."""
    nh, off = pkt[6], 40
    for _ in range(16):
        if off + 8 > len(pkt):
            return None
        if nh == NH_ROUTING:
            return off
        if nh in (NH_HOP, NH_DEST):
            nh, off = pkt[off], off + (pkt[off + 1] + 1) * 8
        elif nh == NH_FRAG:
            if struct.unpack_from("!H", pkt, off + 2)[0] & 0xFFF8:
                return None
            nh, off = pkt[off], off + 8
        else:
            return None
    return None


def check_hmac(pkt, off, keys):
    """For an SRH with the H flag: is the trailing HMAC TLV right for a
    key in `keys` ({keyid: (algo, secret)})? Returns a problem or None."""
    hdrlen, le, flags = pkt[off + 1], pkt[off + 4], pkt[off + 5]
    end = off + (hdrlen + 1) * 8
    tlv = pkt[end - 40:end]
    if tlv[0] != TLV_HMAC or tlv[1] != 38:
        return "H flag without an HMAC TLV at the end"
    keyid = struct.unpack("!I", tlv[4:8])[0]
    if keyid not in keys:
        return None
    algo, secret = keys[keyid]
    segs = [pkt[off + 8 + 16 * i: off + 24 + 16 * i] for i in range(le + 1)]
    want = hmac_mac(algo, secret, pkt[8:24], le, flags, keyid, segs)
    return None if tlv[8:40] == want else f"wrong HMAC (key {keyid})"
