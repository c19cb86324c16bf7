#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Seeded packet fuzzer for seg6x's endpoint and encapsulation paths.

Runs as root in the VM (tests/fuzz/run-all.sh). Topology: lib/topo.Chain
A - R1 - R2 - R3 - B with 9000-byte links. Frames are written straight
onto R1's link to R2 with AF_PACKET (R2 is the endpoint under test) or
onto A's link to R1 (R1's seg6x routes encapsulate them), and captured
on R3's link from R2.

Packet i of seed S is generated from random.Random(f"{S}:{phase}:{i}")
alone, so `--show I` rebuilds any packet without replaying the rest.

Invariants, per batch of packets:
  endpoint phases: every packet whose SRH seg6x's walker reaches is
    addressed to R2 and arrives on an interface of R2, so the sum of
    R2's terminal counters (end, decap, local, disabled and every drop
    except no_route / hop_limit, which follow an `end`) grows by exactly
    the number of such packets. No packet names an address of R2
    anywhere but in its destination, so no packet is processed twice.
  encap phase: R1's encap + inline counters grow by the number of
    packets sent through its seg6x routes, and R2 processes every one
    of them as a valid SRH (end, no drop; HMAC verified where signed).
  every phase: every packet R2 forwards with End (source A) or R1
    encapsulated, captured on R3's link, carries a valid SRH (type 4,
    SL <= LE + 1, Hdr Ext Len consistent, TLVs tiling, DA = List[SL]),
    and its HMAC is right where R1 signed it; inline insertion leaves a
    Hop-by-Hop header first (RFC 8200 4.1).
  nest phase: IPv6-in-IPv6 nested up to 200 levels, each level to one of
    R2's End.DT6/End.DT46 (VRF) or End.DX6 SIDs or not: the SIDs'
    packets + errors grow by exactly the levels R2 decapsulates
    (nest_count), every level on its own pass through the backlog.
  shapes phase: SR packets to R2 whose next segment is a SID, binding
    SIDs leading back to themselves or to a decapsulating SID, End SIDs
    followed by binding SIDs, nested in IPv6-in-IPv6: each packet moves
    R2's terminal counters at least once (loops are bounded).
  at the end: no WARNING/BUG/Oops/KASAN/UBSAN in the kernel log.
A batch whose counters are off is replayed packet by packet to name
the packets responsible (minimal cases: single packets, printed in hex).
"""
import argparse
import json
import os
import random
import re
import socket
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "../.."))
sys.path.insert(0, os.path.join(REPO, "tests/vm/tests"))
sys.path.insert(0, HERE)

from lib import kernlog  # noqa: E402
from lib.netns import inside, ip_batch, sh, sysctl  # noqa: E402
from lib.nlraw import Genl  # noqa: E402
from lib.sidnl import SidNl  # noqa: E402
from lib.topo import Chain, addr4, addr6, mac, sid  # noqa: E402
from lib import pktlib as P  # noqa: E402

SEG6CTL = os.path.join(REPO, "tools/seg6ctl/seg6ctl")

A_SRC = P.a2b(addr6(1, "A"))
INNER_SRC = P.a2b("fc00:1::100")
TUNSRC = P.a2b(sid("R1"))
R2_LOCAL = [P.a2b(a) for a in (sid("R2"), addr6(2, "R2"), addr6(3, "R2"),
                                "fc00:2::", "fc00:3::")]
KEYS = {7: ("sha256", b"fuzz key seven, sha256"),
        9: ("sha1", b"fuzz key nine")}
# segments R2 may be asked to forward to
GOOD_SEGS = [P.a2b(a) for a in (sid("R3"), sid("B"), addr6(3, "R3"),
                                addr6(4, "B"), sid("R1"), addr6(4, "R3"))]
JUNK_SEGS = [P.a2b(a) for a in ("ff02::1", "::", "::1", "fe80::1",
                                "::ffff:10.0.4.11", "2001:db8::1",
                                "fc00:99::1")]
INNER_DST = [P.a2b(a) for a in (addr6(4, "B"), sid("R3"), sid("B"),
                                addr6(3, "R3"))]
# encapsulating routes at R1 (dst prefixes not otherwise routed)
ENC6_DST, INL6_DST, ENC4_DST = "fc00:40::b", "fc00:44::b", "10.0.40.11"
TERMINAL_SKIP = {"encap", "inline", "hmac_signed", "hmac_verified",
                 "no_route", "hop_limit"}

# R2's SIDs in the nest phase (decapsulating into VRF red, table 10, or
# out to R3): the fuzzer's model of each
NEST_SIDS = {P.a2b("fc00:e2::1"): "End.DT6", P.a2b("fc00:e2::2"): "End.DT46",
             P.a2b("fc00:e2::3"): "End.DX6"}
NEST_OTHER = [P.a2b(a) for a in (addr6(4, "B"), "fc00:e2::9", sid("R3"))]

# share of --count per phase (name, share, R2 require_hmac or None)
PHASES = [("end-verify", 0.24), ("end-require", 0.18),
          ("end-ignore", 0.14), ("disabled", 0.05), ("loop", 0.05),
          ("nest", 0.04), ("shapes", 0.02), ("encap", 0.28)]
# R2's SIDs in the shapes phase: a binding SID whose policy leads back to
# itself, one that leads to a decapsulating SID, and a plain End
SHAPE_DT6, SHAPE_B6_SELF, SHAPE_B6_DT6, SHAPE_END = (
    P.a2b(a) for a in ("fc00:e2::1", "fc00:e2::4", "fc00:e2::5",
                       "fc00:e2::6"))
BATCH = 50
PACKET_VNET_HDR = 15
SOL_PACKET = 263


def ctl(ns, *args, input=None):
    p = subprocess.run([SEG6CTL, "-n", ns] + [str(a) for a in args],
                       input=input, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(f"seg6ctl {' '.join(map(str, args))}: "
                           f"{p.stderr.strip()}")
    return p.stdout


def terminal_sum(st):
    return sum(v for k, v in st.items() if k not in TERMINAL_SKIP)


# ---------------------------------------------------------------- packets
class Pkt:
    """One fuzzed packet: the frames that carry it and what to expect."""
    __slots__ = ("idx", "frames", "counted", "big", "kind", "ip",
                 "no_check")

    def __init__(self, idx):
        self.idx = idx
        self.frames = []        # (bytes, linear length or None)
        self.counted = False    # reaches seg6x's SRH walker at R2
        self.big = False
        self.kind = ""
        self.ip = b""           # the (reassembled) IPv6 packet
        self.no_check = False   # forwarded copy legitimately not an SRH


def rand_seg(r, loop=False):
    x = r.random()
    if loop and x < 0.3:
        return r.choice(R2_LOCAL[:3])
    if x < 0.75:
        return r.choice(GOOD_SEGS)
    if x < 0.92:
        return r.choice(JUNK_SEGS)
    return bytes(r.getrandbits(8) for _ in range(16))


def pad_opts(r, n):
    """Option bytes the stack accepts in a Hop-by-Hop header (it parses
    them before PRE_ROUTING): unknown options of type 0x1e (action bits
    00: skip), each followed by at most 5 bytes of padding, so that no
    run of padding exceeds 7 bytes (RFC 4942) once ext_opts() pads the
    header; at most 4 options (net.ipv6.max_hbh_opts_number is 8)."""
    out = b""
    for _ in range(min(4, (n + 7) // 8)):
        k = r.randint(0, 6)
        out += bytes([0x1e, k]) + bytes(r.getrandbits(8) for _ in range(k))
        if r.random() < 0.3:
            out += b"\0"
        elif r.random() < 0.3:
            out += bytes([1, r.randint(0, 3)])
            out += b"\0" * out[-1]
    if out and out[-1] == 0 or (len(out) >= 2 and out[-2] == 1):
        out += bytes([0x1e, 0])
    return out


def inner_payload(r, idx, kind, big_pad=0):
    """(next header, bytes) of what follows the SRH."""
    data = struct.pack("!I", idx) + b"F" * (r.randint(0, 64) + big_pad)
    if kind == "ipv6":
        dst = r.choice(INNER_DST)
        return P.NH_IPV6, P.ipv6(INNER_SRC, dst, P.NH_UDP,
                                 P.udp(4000, 5000, data),
                                 hlim=r.randint(1, 255),
                                 fl=idx & 0xFFFFF)
    if kind == "nested":
        dst = r.choice(INNER_DST)
        segs = [r.choice(GOOD_SEGS) for _ in range(r.randint(1, 3))]
        h = P.srh(segs, r.randint(0, len(segs)), P.NH_UDP,
                  flags=r.choice([0, P.FLAG_HMAC, P.FLAG_CLEANUP]))
        return P.NH_IPV6, P.ipv6(INNER_SRC, dst, P.NH_ROUTING,
                                 h + P.udp(4000, 5000, data),
                                 fl=idx & 0xFFFFF)
    if kind == "ipv4":
        opts = b""
        if r.random() < 0.3:
            opts = b"\x01" * (4 * r.randint(1, 3))   # NOPs
        return P.NH_IPV4, P.ipv4(addr4(1, "A"), r.choice(
            [addr4(4, "B"), addr4(3, "R3")]), 17, P.udp(4000, 5000, data),
            ttl=r.randint(1, 255), df=r.random() < 0.5, options=opts,
            ident=idx & 0xFFFF)
    if kind == "udp":
        return P.NH_UDP, P.udp(4000, 5000, data)
    if kind == "icmp6":
        return P.NH_ICMP6, struct.pack("!BBHHH", 128, 0, 0, 1,
                                       idx & 0xFFFF) + data
    if kind == "none":
        return P.NH_NONE, data
    if kind == "destopt":
        nh, rest = inner_payload(r, idx, "ipv6", big_pad)
        return P.NH_DEST, P.ext_opts(nh, pad_opts(r, r.randint(0, 12))) \
            + rest
    if kind == "srh2":
        nh, rest = inner_payload(r, idx, "ipv6", big_pad)
        segs = [r.choice(GOOD_SEGS) for _ in range(r.randint(1, 2))]
        return P.NH_ROUTING, P.srh(segs, r.randint(0, 2), nh) + rest
    # random bytes behind a random next header
    return r.getrandbits(8), bytes(r.getrandbits(8)
                                   for _ in range(r.randint(0, 80))) + data


def make_tlvs(r, segs_le, flags, sign_ctx):
    """TLVs after the segment list; may sign (sign_ctx filled later)."""
    c = r.random()
    mac32 = bytes(32)
    if c < 0.35:
        return b""
    keyid = r.choice([7, 7, 9, 3, r.getrandbits(32)])
    if c < 0.75:
        sign_ctx["keyid"] = keyid if r.random() < 0.8 else None
        t = P.hmac_tlv(keyid, mac32)
        pre = r.random()
        if pre < 0.15:
            return bytes([P.TLV_PADN, 6]) + bytes(6) + t
        if pre < 0.25:
            return b"\0" * 8 + t                      # Pad1 x 8
        if pre < 0.35:
            return t + bytes([P.TLV_PADN, 6]) + bytes(6)  # HMAC not last
        if pre < 0.45:
            return t[:r.randint(2, 39)]               # truncated TLV
        return t
    if c < 0.85:
        k = r.choice([6, 14, 22])
        return bytes([P.TLV_PADN, k]) + bytes(k)
    # overlapping / overrunning / junk TLVs
    out = b""
    for _ in range(r.randint(1, 3)):
        out += bytes([r.getrandbits(8), r.getrandbits(8)]) + \
            bytes(r.getrandbits(8) for _ in range(r.randint(0, 14)))
    return out + b"\0" * (-len(out) % 8)


def gen_sr(r, idx, src, dst, loop=False, allow_frag=True, allow_big=True,
           hlim_min=1, allow_trunc=True):
    """A fuzzed SR packet (IPv6 bytes) and how to send it."""
    pk = Pkt(idx)
    kind = r.choices(["ipv6", "nested", "ipv4", "udp", "icmp6", "none",
                      "destopt", "srh2", "random"],
                     [34, 8, 15, 14, 5, 4, 8, 5, 7])[0]
    pk.kind = kind
    frag = None
    big = allow_big and kind in ("ipv6", "ipv4", "udp", "nested",
                                 "destopt") and r.random() < 0.07
    if allow_frag and not big and r.random() < 0.07:
        frag = r.choice(["before", "after"])
    pad = r.randint(4200, 7600) if big else \
        r.randint(128, 1500) if frag else 0
    nh_in, rest = inner_payload(r, idx, kind, pad)

    n = r.choices([1, 2, 3, 4, 6, 8, 14, 20, 40],
                  [20, 25, 18, 12, 8, 6, 5, 4, 2])[0]
    segs = [rand_seg(r, loop) for _ in range(n)]
    le = n - 1
    c = r.random()
    sl = r.randint(0, le + 1) if c < 0.85 else r.getrandbits(8)
    flags = r.choice([0, 0, P.FLAG_HMAC, P.FLAG_CLEANUP,
                      P.FLAG_HMAC | P.FLAG_CLEANUP, r.getrandbits(8)])
    sign = {}
    tlvs = make_tlvs(r, le, flags, sign)
    if "keyid" in sign and r.random() < 0.85:
        flags |= P.FLAG_HMAC
    tag = r.getrandbits(16) if r.random() < 0.3 else 0
    if frag == "after" and (len(segs) * 16 + len(tlvs)) % 8:
        frag = "before"     # the Fragment header must follow the SRH
    hdrlen = None
    if r.random() < 0.2 and frag != "after":
        body = (len(segs) * 16 + len(tlvs)) // 8
        hdrlen = r.choice([body - 1, body + 1, body - 2, body + 2,
                           r.getrandbits(8), 2 * n - 1, 0]) & 0xFF
    if r.random() < 0.12:
        le = r.choice([le - 1, le + 1, r.getrandbits(8), 0]) & 0xFF
    srh_nh = P.NH_FRAG if frag == "after" else nh_in
    keyid = sign.get("keyid")
    if keyid in KEYS:
        algo, secret = KEYS[keyid]
        lst = [(segs + [bytes(16)] * 256)[i] for i in range(le + 1)]
        mac = P.hmac_mac(algo, secret, src, le, flags, keyid, lst)
        tlvs = tlvs.replace(P.hmac_tlv(keyid, bytes(32)),
                            P.hmac_tlv(keyid, mac))
    h = bytearray(P.srh(segs, sl, srh_nh, le=le, flags=flags, tag=tag,
                        hdrlen=hdrlen, tlvs=tlvs))
    if r.random() < 0.12 and frag != "after":      # bit flips
        for _ in range(r.randint(1, 3)):
            b = r.randrange(len(h))
            if b != 2 or r.random() < 0.2:         # mostly keep type 4
                h[b] ^= 1 << r.randrange(8)
    h = bytes(h)

    # extension headers in front of the SRH
    before = []                                    # (nh value, bytes)
    if r.random() < 0.2:
        before.append(P.NH_HOP)
    for _ in range(r.choices([0, 1, 2, 3, 8], [70, 18, 7, 3, 2])[0]):
        before.append(P.NH_DEST)
    chain = b""
    nhs = before + [P.NH_ROUTING]
    first_nh = nhs[0]
    for i, t in enumerate(before):
        nxt = nhs[i + 1]
        if frag == "before" and i == len(before) - 1:
            nxt = P.NH_FRAG
        opts = pad_opts(r, r.randint(0, 20))
        if t == P.NH_DEST and r.random() < 0.3:
            opts = bytes(r.getrandbits(8) for _ in range(r.randint(0, 20)))
        chain += P.ext_opts(nxt, opts)
    if frag == "before" and not before:
        first_nh = P.NH_FRAG

    hlim = r.randint(hlim_min, 255)
    tc = r.getrandbits(8)
    fl = idx & 0xFFFFF
    whole = chain + h + rest            # payload as seg6x would see it
    if allow_trunc and not frag and not big and r.random() < 0.1:
        whole = whole[:r.randint(0, len(whole))]  # truncated
    # the reassembled / unfragmented packet
    plain_first = first_nh if frag != "before" or before else P.NH_ROUTING
    if frag == "after":
        h2 = h[:0] + bytes([nh_in]) + h[1:]
        plain = P.ipv6(src, dst, plain_first, chain + h2 + rest, hlim, tc,
                       fl)
    else:
        plain = P.ipv6(src, dst, plain_first, whole, hlim, tc, fl)
    if frag == "before":
        # the last header in front named the Fragment header: undo
        plain = _rename_before_frag(plain, len(before))
    pk.ip = plain
    pk.counted = P.find_srh(plain) is not None and P.stack_accepts(plain)
    pk.big = big

    if frag:
        pk.frames = [(f, None) for f in
                     fragment(r, src, dst, first_nh, hlim, tc, fl, chain,
                              h, rest, frag, nh_in, idx)]
    else:
        pkt = P.ipv6(src, dst, first_nh, whole, hlim, tc, fl)
        lin = None
        if big and len(pkt) > 8990:                 # the links' MTU: 9000
            pk.big = big = False
            pkt = pkt[:40] + pkt[40:8990]
            pkt = pkt[:4] + struct.pack("!H", len(pkt) - 40) + pkt[6:]
            pk.ip = pkt
            pk.counted = P.find_srh(pkt) is not None and \
                P.stack_accepts(pkt)
        if big:
            lin = 14 + r.randint(0, 40 + len(chain) + len(h) + 16)
        pk.frames = [(pkt, lin)]
    return pk


def _rename_before_frag(pkt, nbefore):
    """In a packet built for 'frag before SRH', set the Next Header that
    names the Fragment header back to Routing (what reassembly does)."""
    b = bytearray(pkt)
    if nbefore == 0:
        b[6] = P.NH_ROUTING
        return bytes(b)
    off = 40
    for i in range(nbefore):
        if i == nbefore - 1:
            b[off] = P.NH_ROUTING
        off += (b[off + 1] + 1) * 8
    return bytes(b)


def fragment(r, src, dst, first_nh, hlim, tc, fl, chain, h, rest, where,
             nh_in, idx):
    """Fragments (IPv6 bytes) of the packet; the Fragment header goes
    in front of the SRH or right behind it. The first fragment always
    holds the whole header chain, as RFC 8200 requires."""
    if where == "before":
        unfrag, frag_nh, body = chain, P.NH_ROUTING, h + rest
        need = len(h) + 96
    else:
        unfrag, frag_nh, body = chain + h, nh_in, rest
        need = 96
    first = max(8, (min(len(body), need) + 7) // 8 * 8)
    cuts = [0, first]
    while cuts[-1] < len(body):
        cuts.append(cuts[-1] + 8 * r.randint(1, 64))
    cuts[-1] = len(body)
    cuts = sorted(set(c for c in cuts if c <= len(body)))
    if len(cuts) < 2:
        cuts = [0, len(body)]
    out = []
    ident = 0x5e600000 | (idx & 0xFFFFF)
    for a, b in zip(cuts, cuts[1:]):
        more = 1 if b < len(body) else 0
        fh = struct.pack("!BBHI", frag_nh, 0, a | more, ident)
        out.append(P.ipv6(src, dst, first_nh, unfrag + fh + body[a:b],
                          hlim, tc, fl))
    if r.random() < 0.3:
        out.reverse()
    return out


def has_r2_address(pk):
    return any(a in pk.ip[40:] for a in R2_LOCAL)


def r2_counts(phase, frames):
    """How many SR packets R2's terminal counters record for IPv6
    `frames` in an endpoint phase. seg6x reassembles the SR packets it
    processes (pktlib.hook_sees): those with an SRH it reaches, and those
    with one it cannot see behind where HMACs are required (it drops
    them, hmac_missing); nothing on a disabled interface."""
    def gathers(f):
        w = P.walk_srh(f)
        if phase == "disabled" or w == "none":
            return False
        return w != "hidden" or phase == "end-require"
    return sum(P.find_srh(p) is not None or
               (phase == "end-require" and P.srh_hidden(p))
               for p in P.hook_sees(frames, gathers))


def gen_endpoint(seed, phase, idx):
    """A packet for the endpoint phases (retried until it names no
    address of R2 besides its destination, except in the loop phase)."""
    loop = phase == "loop"
    for attempt in range(50):
        r = random.Random(f"{seed}:{phase}:{idx}:{attempt}")
        dst = r.choice(R2_LOCAL[:3])
        pk = gen_sr(r, idx, A_SRC, dst, loop=loop)
        if loop or not has_r2_address(pk):
            break
    eth = bytes.fromhex(mac(2, 1).replace(":", "")) + \
        bytes.fromhex(mac(2, 0).replace(":", "")) + b"\x86\xdd"
    pk.counted = r2_counts(phase, [f for f, _ in pk.frames])
    pk.frames = [(eth + f, lin) for f, lin in pk.frames]
    pk.no_check = loop
    return pk


def nest_count(pkt):
    """How many decapsulations R2's SIDs count (packets or errors) for
    the IPv6 packet `pkt`: one per level addressed to a SID, from the
    outside in, until a level leaves R2 (End.DX6, or a destination that
    is no SID), is no IPv6 packet the SID takes (an error, counted), or
    claims more bytes than it has (the stack drops it before the hook
    sees it again)."""
    n = 0
    while True:
        if len(pkt) < 40 or pkt[0] >> 4 != 6:
            return n
        plen = struct.unpack_from("!H", pkt, 4)[0]
        if 40 + plen > len(pkt):
            return n
        pkt = pkt[:40 + plen]
        beh = NEST_SIDS.get(pkt[24:40])
        if beh is None:
            return n
        n += 1
        nh, off = pkt[6], 40
        if nh == P.NH_ROUTING:          # only ever SL 0, one segment
            nh, off = pkt[40], 40 + (pkt[41] + 1) * 8
        if nh != 41 or len(pkt) < off + 40 or pkt[off] >> 4 != 6 or \
                beh == "End.DX6":
            return n
        pkt = pkt[off:]


def gen_nest(seed, idx):
    """IPv6-in-IPv6 nested up to hundreds of levels deep, each level to
    one of R2's decapsulating SIDs (into a VRF, or out to R3) or not,
    some with an SRH (Segments Left 0), the innermost UDP or IPv4 or
    junk; sometimes cut short, sometimes sent as fragments."""
    r = random.Random(f"{seed}:nest:{idx}")
    pk = Pkt(idx)
    pk.kind = "nest"
    depth = r.choice([1, 2, 3, r.randint(4, 40), r.randint(40, 200)])
    vrf_sids = [a for a, b in NEST_SIDS.items() if b != "End.DX6"]
    dx6 = [a for a, b in NEST_SIDS.items() if b == "End.DX6"]
    stop = r.choice([0.02, 0.1, 0.3])   # share of levels leaving R2
    kind = r.choice(["udp6", "udp6", "ipv4", "junk"])
    if kind == "udp6":
        pkt = P.ipv6(INNER_SRC, r.choice(NEST_OTHER), P.NH_UDP,
                     P.udp(4000, 5000, struct.pack("!I", idx)),
                     hlim=r.randint(1, 64), fl=idx & 0xFFFFF)
        nh = 41
    elif kind == "ipv4":
        pkt = P.ipv4(addr4(1, "A"), addr4(4, "B"), 17,
                     P.udp(4000, 5000, struct.pack("!I", idx)))
        nh = 4
    else:
        pkt = bytes(r.getrandbits(8) for _ in range(r.randint(0, 60)))
        nh = r.choice([41, 4, 59, 17])
    for _ in range(depth):
        dst = r.choice(vrf_sids) if r.random() >= stop else \
            r.choice(dx6 + NEST_OTHER)
        if r.random() < 0.15:
            pkt = P.srh([dst], 0, nh) + pkt
            nh = P.NH_ROUTING
        pkt = P.ipv6(INNER_SRC, dst, nh, pkt, hlim=r.randint(1, 255),
                     fl=idx & 0xFFFFF)
        nh = 41
    if r.random() < 0.1 and len(pkt) > 80:
        # cut short inside: the outer length stays right
        cut = r.randint(80, len(pkt) - 1)
        pkt = bytearray(pkt[:cut])
        pkt[4:6] = struct.pack("!H", cut - 40)
        pkt = bytes(pkt)
    pk.ip = pkt
    pk.counted = nest_count(pkt)
    eth = bytes.fromhex(mac(2, 1).replace(":", "")) + \
        bytes.fromhex(mac(2, 0).replace(":", "")) + b"\x86\xdd"
    if len(pkt) > 8000 or (len(pkt) > 600 and r.random() < 0.3):
        # fragments of the outer packet, in order or reversed: R2
        # reassembles them, the packet being to a SID
        size = r.choice([576, 1232, 4000])
        body, ident, frames, a = pkt[40:], r.getrandbits(32), [], 0
        while a < len(body):
            b = min(len(body), a + size)
            more = int(b < len(body))
            fh = struct.pack("!BBHI", pkt[6], 0, a | more, ident)
            frames.append(P.ipv6(INNER_SRC, pkt[24:40], 44,
                                 fh + body[a:b], hlim=pkt[7]))
            a = b
        if r.random() < 0.3:
            frames.reverse()
        pk.frames = [(eth + f, None) for f in frames]
    else:
        pk.frames = [(eth + pkt, None)]
    return pk


def gen_shapes(seed, idx):
    """The SID paths that once made the kernel loop or recurse, fuzzed:
    an SR packet to an address of R2 whose next segment is a SID (End,
    then the SID table), binding SIDs leading back to themselves or to a
    decapsulating SID, End SIDs whose next segment is a binding SID,
    nested in IPv6-in-IPv6 to the End.DT6 SID, in random order and
    sizes. Each packet is processed by at least one SID or End of R2
    (counted), and by a bounded number of them."""
    r = random.Random(f"{seed}:shapes:{idx}")
    pk = Pkt(idx)
    pk.kind = "shapes"
    inner = P.ipv6(INNER_SRC, r.choice(NEST_OTHER), P.NH_UDP,
                   P.udp(4000, 5000, struct.pack("!I", idx) +
                         b"s" * r.randint(0, 600)),
                   hlim=r.randint(10, 64), fl=idx & 0xFFFFF)
    first = r.choice([P.a2b(addr6(2, "R2")), SHAPE_B6_SELF, SHAPE_B6_DT6,
                      SHAPE_END])
    nxt = r.choice([SHAPE_DT6, SHAPE_B6_SELF, SHAPE_B6_DT6, SHAPE_END])
    # Segment List[0] is the last segment: the inner destination
    segs = [inner[24:40], nxt, first]
    h = P.srh(segs, 1 + r.randint(0, 1) if first != nxt else 1, 41)
    pkt = P.ipv6(INNER_SRC, segs[h[3]], P.NH_ROUTING, h + inner,
                 hlim=r.randint(20, 255), fl=idx & 0xFFFFF)
    for _ in range(r.choice([0, 0, 1, 3])):
        pkt = P.ipv6(INNER_SRC, SHAPE_DT6, 41, pkt, hlim=r.randint(20, 255),
                     fl=idx & 0xFFFFF)
    pk.ip = pkt
    pk.counted = 1
    eth = bytes.fromhex(mac(2, 1).replace(":", "")) + \
        bytes.fromhex(mac(2, 0).replace(":", "")) + b"\x86\xdd"
    pk.frames = [(eth + pkt, None)]
    return pk


def gen_encap(seed, idx):
    """A packet for R1's seg6x routes: a fuzzed SR packet (or IPv4) as the
    inner packet, from A's link."""
    r = random.Random(f"{seed}:encap:{idx}")
    eth = bytes.fromhex(mac(1, 1).replace(":", "")) + \
        bytes.fromhex(mac(1, 0).replace(":", ""))
    pk = Pkt(idx)
    if r.random() < 0.2:
        pk.kind = "ipv4"
        opts = b"\x01" * (4 * r.randint(0, 2))
        data = struct.pack("!I", idx) + b"v" * r.randint(0, 1200)
        ip = P.ipv4(addr4(1, "A"), ENC4_DST, r.choice([17, 6, 1, 47]),
                    P.udp(4000, 5000, data), ttl=r.randint(2, 255),
                    df=r.random() < 0.5, ident=idx & 0xFFFF, options=opts,
                    mf=r.random() < 0.1, frag_off=8 * r.randint(0, 3))
        pk.frames = [(eth + b"\x08\x00" + ip, None)]
        pk.counted = True
        return pk
    for attempt in range(50):
        r = random.Random(f"{seed}:encap:{idx}:{attempt}")
        dst = P.a2b(r.choice([ENC6_DST, INL6_DST]))
        pk = gen_sr(r, idx, A_SRC, dst, allow_frag=False, allow_big=False,
                    hlim_min=2)
        # inline keeps the packet's own header chain: a Fragment header in
        # it (random bytes behind the SRH) is for R2's reassembly to hold
        # (pktlib.defrag: R2 processes the SRH), so R1 would count it and
        # R2 never see it
        held = dst == P.a2b(INL6_DST) and not P.defrag([pk.ip])
        if len(pk.frames[0][0]) <= 1400 and len(pk.ip) >= 40 and \
                not has_r2_address(pk) and not held:
            break
    pk.frames = [(eth + b"\x86\xdd" + f, None) for f, _ in pk.frames]
    pk.counted = P.stack_accepts(pk.ip)
    return pk


# ---------------------------------------------------------------- runner
class Fuzzer:
    def __init__(self, args):
        self.args = args
        self.seed = args.seed
        self.failures = []
        self.kinds = {}
        self.sent_packets = 0
        self.sent_frames = 0
        self.captured = 0
        self.checked = 0

    def log(self, *a):
        print(*a, flush=True)

    def setup(self):
        if not os.path.exists("/sys/module/seg6x"):
            sh(["modprobe", "seg6x"])
        with open("/proc/sys/net/core/netdev_max_backlog", "w") as f:
            f.write("100000")
        self.c = c = Chain(mtu=9000)
        ns = c.ns
        for n in ("R3", "B"):       # they answer R2's output: less noise
            sysctl(ns[n], "net.ipv6.icmp.ratelimit", 1000)
        for n in ("R1", "R2"):
            for k, (algo, secret) in KEYS.items():
                ctl(ns[n], "hmac", "set", k, algo, input=secret.decode())
        ctl(ns["R1"], "tunsrc", "set", sid("R1"))
        # R1's encapsulating routes; their dst prefixes exist nowhere else
        ctl(ns["R1"], "route", "add", "fc00:40::/64", "mode", "encap",
            "segs", f"{sid('R2')},{sid('R3')}", "hmac", 7, "dev", "r1-r2",
            "via", addr6(2, "R2"))
        ctl(ns["R1"], "route", "add", "fc00:44::/64", "mode", "inline",
            "segs", f"{sid('R2')},{sid('R3')}", "dev", "r1-r2", "via",
            addr6(2, "R2"))
        ctl(ns["R1"], "route", "add", "10.0.40.0/24", "mode", "encap",
            "segs", f"{sid('R2')},{sid('R3')}", "hmac", 9, "dev", "r1-r2",
            "via", addr6(2, "R2"))
        ctl(ns["R2"], "iface", "set", "default", "seg6_enabled", 1)
        with inside(ns["R1"]):
            self.tx = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
            self.tx.bind(("r1-r2", 0))
            self.txv = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
            self.txv.setsockopt(SOL_PACKET, PACKET_VNET_HDR, 1)
            self.txv.bind(("r1-r2", 0))
            self.g1 = Genl()
        with inside(ns["A"]):
            self.txa = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
            self.txa.bind(("a-r1", 0))
        with inside(ns["R2"]):
            self.g2 = Genl()
        self.sids = SidNl(ns["R2"])
        ip_batch(ns["R2"], ["link add red type vrf table 10",
                            "link set red up",
                            f"route add fc00:4::/64 via {addr6(3, 'R3')} "
                            f"dev {c.iface('R2', 'R3')} table 10"])
        with inside(ns["R3"]):
            self.cap = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                                     socket.htons(0x86dd))
            self.cap.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF,
                                32 << 20)
            self.cap.bind(("r3-r2", 0))
        self.cap.setblocking(False)

    def configure(self, phase):
        ns = self.c.ns["R2"]
        req = {"end-verify": 0, "end-require": 1, "end-ignore": -1,
               "disabled": 0, "loop": 0, "nest": 0, "shapes": 0,
               "encap": 0}[phase]
        ctl(ns, "iface", "set", "default", "seg6_enabled", 1,
            "require_hmac", req)
        ctl(ns, "iface", "set", "r2-r1", "seg6_enabled",
            0 if phase == "disabled" else 1)
        ctl(ns, "sid", "flush")
        if phase == "nest":
            ctl(ns, "sid", "add", "fc00:e2::1", "behavior", "End.DT6",
                "vrf", "red", "count")
            ctl(ns, "sid", "add", "fc00:e2::2", "behavior", "End.DT46",
                "vrf", "red", "count")
            ctl(ns, "sid", "add", "fc00:e2::3", "behavior", "End.DX6",
                "nh6", addr6(3, "R3"), "count")
        if phase == "shapes":
            ctl(ns, "-b", "-", input="\n".join([
                "sid add fc00:e2::1 behavior End.DT6 vrf red count",
                "sid add fc00:e2::4 behavior End.B6.Encaps segs "
                "fc00:e2::4 count",
                "sid add fc00:e2::5 behavior End.B6.Encaps segs "
                "fc00:e2::1 count",
                "sid add fc00:e2::6 behavior End count"]) + "\n")

    def send(self, pk):
        for f, lin in pk.frames:
            try:
                if lin is not None:
                    vh = struct.pack("<BBHHHH", 0, 0, lin, 0, 0, 0)
                    self.txv.send(vh + f)
                elif f[:6] == bytes.fromhex(mac(1, 1).replace(":", "")):
                    self.txa.send(f)
                else:
                    self.tx.send(f)
            except OSError as e:
                # not sent: the expected counts would be wrong
                self.fail("send", pk, f"cannot send a frame: {e}")
                raise
            self.sent_frames += 1

    def settle(self, read, want, exact=True, timeout=3.0):
        """Poll read() until it equals `want` (or is >= with exact=False)
        or stops moving; return the last value."""
        end = time.monotonic() + timeout
        last, still = None, time.monotonic()
        while True:
            v = read()
            if v == want or (not exact and v >= want):
                return v
            if v != last:
                last, still = v, time.monotonic()
            now = time.monotonic()
            if now > end or now - still > 0.6:
                return v
            time.sleep(0.003)

    def run_phase(self, phase, count):
        self.configure(phase)
        self.log(f"-- phase {phase}: {count} packets")
        gen = (lambda i: gen_encap(self.seed, i)) if phase == "encap" else \
            (lambda i: gen_nest(self.seed, i)) if phase == "nest" else \
            (lambda i: gen_shapes(self.seed, i)) if phase == "shapes" else \
            (lambda i: gen_endpoint(self.seed, phase, i))
        i = 0
        while i < count:
            batch = [gen(j) for j in range(i, min(i + BATCH, count))]
            self.run_batch(phase, batch)
            i += len(batch)
            if (i // BATCH) % 100 == 0:
                self.log(f"   {phase}: {i}/{count}")
            if len(self.failures) > 5000:
                break           # something is badly wrong: stop here
        self.drain_capture(phase, final=True)

    def counters(self, phase):
        if phase == "nest":
            return sum(e.get("packets", 0) + e.get("errors", 0)
                       for e in self.sids.show())
        s2 = self.g2.stats()
        if phase == "encap":
            s1 = self.g1.stats()
            return (s1["encap"] + s1["inline"], s2["end"],
                    s2["bad_srh"] + s2["hmac_invalid"] + s2["hmac_nokey"] +
                    s2["hmac_missing"], s2["hmac_verified"])
        return terminal_sum(s2)

    def run_batch(self, phase, batch):
        before = self.counters(phase)
        for pk in batch:
            self.send(pk)
        self.sent_packets += len(batch)
        n = sum(pk.counted for pk in batch)
        ok = self.check_counts(phase, before, n)
        self.drain_capture(phase)
        if not ok:
            self.shrink(phase, batch)

    def check_counts(self, phase, before, n):
        if phase == "encap":
            want = (before[0] + n, before[1] + n)
            got = self.settle(lambda: self.counters(phase)[:2], want)
            drops = self.counters(phase)[2] - before[2]
            return got == want and drops == 0
        if phase in ("loop", "shapes"):
            got = self.settle(lambda: self.counters(phase), before + n,
                              exact=False)
            return got >= before + n
        got = self.settle(lambda: self.counters(phase), before + n)
        return got == before + n

    def shrink(self, phase, batch):
        """Replay the batch packet by packet: the minimal cases."""
        culprits = []
        for pk in batch:
            before = self.counters(phase)
            self.send(pk)
            if not self.check_counts(phase, before, int(pk.counted)):
                after = self.counters(phase)
                culprits.append(pk)
                self.fail(phase, pk, f"counters {before} -> {after}, "
                          f"expected +{int(pk.counted)}")
            self.drain_capture(phase)
        if not culprits:
            self.fail(phase, None, "batch counters off, no single packet "
                      "reproduces it (idx %d..%d)" %
                      (batch[0].idx, batch[-1].idx))

    def fail(self, phase, pk, why):
        # one kind of failure (phase + reason without the specifics) is
        # printed three times, then only counted
        kind = phase + ":" + (pk.kind + ":" if pk else "") + \
            re.sub(r"\(flow label \d+\)|[0-9a-f]{16,}|\d+", "N",
                   why)[:120]
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        rec = {"seed": self.seed, "phase": phase, "why": why}
        if pk is not None:
            rec.update(idx=pk.idx, kind=pk.kind,
                       frames=[f.hex() for f, _ in pk.frames],
                       linear=[lin for _, lin in pk.frames])
        self.failures.append(rec)
        if self.kinds[kind] <= 3:
            self.log("FAIL", json.dumps(rec))

    def drain_capture(self, phase, final=False):
        deadline = time.monotonic() + (0.5 if final else 0)
        while True:
            try:
                f = self.cap.recv(65535)
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    return
                time.sleep(0.02)
                continue
            self.captured += 1
            self.check_forwarded(phase, f)

    def check_forwarded(self, phase, f):
        ip = f[14:]
        if len(ip) < 40 or ip[0] >> 4 != 6:
            return
        src = ip[8:24]
        idx = struct.unpack("!I", ip[:4])[0] & 0xFFFFF
        if src == A_SRC and phase not in ("encap",):
            keys = {}
        elif src == TUNSRC or (src == A_SRC and phase == "encap"):
            keys = KEYS
        else:
            return                  # decapsulated inner packets etc.
        problems = []
        plen = struct.unpack("!H", ip[4:6])[0]
        if plen + 40 != len(ip):
            problems.append(f"payload length {plen} for {len(ip) - 40} "
                            "bytes")
        off = P.walk_first_rh(ip)
        if off is not None and ip[off + 2] == 4:
            problems += P.check_srh(ip, off)
            if not problems and ip[off + 5] & P.FLAG_HMAC and keys:
                p = P.check_hmac(ip, off, keys)
                if p:
                    problems.append(p)
        elif src == TUNSRC:
            problems.append("encapsulated packet without an SRH")
        if phase == "encap" and src == A_SRC and ip[6] != P.NH_HOP and \
                gen_encap(self.seed, idx).ip[6] == P.NH_HOP:
            # inline insertion: RFC 8200 4.1 keeps Hop-by-Hop first
            problems.append("SRH inserted in front of the Hop-by-Hop "
                            "header")
        self.checked += 1
        if problems and phase != "loop":
            if phase != "encap":
                pk = gen_endpoint(self.seed, phase, idx)
                if pk.no_check or self._cleanup_ok(pk):
                    return
            self.fail(phase, None, f"forwarded packet (flow label {idx}): "
                      f"{'; '.join(problems)}: {f.hex()}")

    @staticmethod
    def _cleanup_ok(pk):
        # an authenticated cleanup pops the SRH: what follows it is the
        # sender's business
        o = P.find_srh(pk.ip)
        return o is not None and pk.ip[o[0] + 5] & P.FLAG_CLEANUP

    def run(self):
        t0 = time.monotonic()
        klog = kernlog.Since()
        self.setup()
        plan = []
        left = self.args.count
        for k, (name, share) in enumerate(PHASES):
            if self.args.phase and name not in self.args.phase:
                continue
            plan.append((name, max(1, int(self.args.count * share))))
        if not self.args.phase:
            # the rounding remainder goes to the first phase
            plan[0] = (plan[0][0], plan[0][1] + left -
                       sum(c for _, c in plan))
        try:
            for name, cnt in plan:
                self.run_phase(name, cnt)
            s1, s2 = self.g1.stats(), self.g2.stats()
        finally:
            # the routes at R1 would keep the module from unloading
            if not self.args.keep:
                self.c.destroy()
        splats = klog.reports()
        if splats:
            self.fail("dmesg", None, "kernel log:\n" + "\n".join(splats[:40]))
        dt = time.monotonic() - t0
        res = "PASS" if not self.failures else "FAIL"
        self.log(f"fuzz_packets: seed {self.seed}: {self.sent_packets} "
                 f"packets ({self.sent_frames} frames) sent, "
                 f"{self.captured} forwarded frames captured, "
                 f"{self.checked} checked, {len(self.failures)} failures, "
                 f"{dt:.0f} s: {res}")
        for k, n in sorted(self.kinds.items()):
            self.log(f"failure kind ({n}x): {k}")
        self.log("R1 last-phase counters:", json.dumps(s1))
        self.log("R2 last-phase counters:", json.dumps(s2))
        if self.args.out:
            with open(self.args.out, "w") as f:
                json.dump({"seed": self.seed, "packets": self.sent_packets,
                           "frames": self.sent_frames,
                           "failures": self.failures}, f, indent=1)
        return 0 if not self.failures else 1


def show(args):
    for ph in args.phase or ["end-verify"]:
        i = args.show
        pk = gen_encap(args.seed, i) if ph == "encap" else \
            gen_nest(args.seed, i) if ph == "nest" else \
            gen_shapes(args.seed, i) if ph == "shapes" else \
            gen_endpoint(args.seed, ph, i)
        print(json.dumps({"phase": ph, "idx": i, "kind": pk.kind,
                          "counted": pk.counted,
                          "frames": [f.hex() for f, _ in pk.frames],
                          "linear": [lin for _, lin in pk.frames]},
                         indent=1))


def unique_chain_names():
    """Chains named after this process: leftovers of an interrupted run
    cannot collide with ours."""
    import itertools
    import lib.topo
    lib.topo._ids = itertools.count(os.getpid() * 10)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=100000,
                    help="packets in all (split over the phases)")
    ap.add_argument("--phase", action="append",
                    choices=[p for p, _ in PHASES],
                    help="run only this phase (repeatable)")
    ap.add_argument("--show", type=int, metavar="IDX",
                    help="print packet IDX of --seed/--phase and exit")
    ap.add_argument("--out", help="write a JSON summary here")
    ap.add_argument("--keep", action="store_true",
                    help="leave the namespaces in place")
    args = ap.parse_args()
    if args.show is not None:
        show(args)
        return 0
    unique_chain_names()
    return Fuzzer(args).run()


if __name__ == "__main__":
    sys.exit(main())
