#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Seeded netlink fuzzer for the SEG6X generic netlink family and for
RTM_NEWROUTE / RTM_DELROUTE with seg6x's RTA_ENCAP nest.

Runs as root in the VM. Three parts, --count messages in all:
  root     (60 %) in a fresh namespace: random and mutated messages
           (unknown commands, wrong attribute types and lengths, missing,
           duplicate and unknown attributes, stray nesting, huge values,
           bad headers). A model follows every write the kernel
           acknowledged with 0, parsing the message as the kernel does
           (last duplicate wins); every 250 messages and at the end the
           namespace's state (tunsrc, keys, interface policies, seg6x
           routes, local SIDs: every command of uapi/linux/seg6x.h is
           sent) is compared with the model, at the end through
           `seg6ctl -j` as well.
  unpriv   (20 %) the same messages from uid 65534 without capabilities
           in that namespace (setpriv): every write must be refused with
           EPERM, the reads must work, and the state must not change.
  userns   (20 %) inside `unshare -Urn`: the caller owns that namespace,
           so writes succeed there (model checked the same way), and
           nothing changes outside it.
Then: nothing changed in the initial namespace; kernel log clean.
"""
import argparse
import ipaddress
import json
import os
import random
import socket
import struct
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "../.."))
sys.path.insert(0, os.path.join(REPO, "tests/vm/tests"))

from lib import kernlog  # noqa: E402
from lib import nlraw as N  # noqa: E402
from lib.netns import inside, sh  # noqa: E402
from lib.sidnl import BEH  # noqa: E402

SEG6CTL = os.path.join(REPO, "tools/seg6ctl/seg6ctl")
NS = "sx-fznl"
WRITES = {N.SEG6X_CMD_TUNSRC_SET, N.SEG6X_CMD_HMAC_SET, N.SEG6X_CMD_HMAC_DEL,
          N.SEG6X_CMD_IFACE_SET, N.SEG6X_CMD_STATS_RESET,
          N.SEG6X_CMD_SID_SET, N.SEG6X_CMD_SID_DEL, N.SEG6X_CMD_SID_FLUSH}
READS = {N.SEG6X_CMD_INFO_GET, N.SEG6X_CMD_TUNSRC_GET, N.SEG6X_CMD_HMAC_GET,
         N.SEG6X_CMD_IFACE_GET, N.SEG6X_CMD_STATS_GET, N.SEG6X_CMD_SID_GET}
# every command of the header must be one or the other
assert WRITES | READS == set(range(1, N.SEG6X_CMD_MAX + 1))
SID_PREFIXES = ["fc00:e2::1", "fc00:e2::", "fc00:e2::100", "fc00:e3::1"]
EPERM = 1
PREFIX6 = [f"fc00:a{i}::" for i in range(6)]
PREFIX4 = [f"10.200.{i}.0" for i in range(6)]
ADDRS = ["fc00:ff::1", "::", "2001:db8::5", "fc00:a1::7", "ff02::1", "::1",
         "::ffff:1.2.3.4", "fe80::1"]
CHECK_EVERY = 250


def u8(v):
    return struct.pack("=B", v & 0xFF)


def s8(v):
    return struct.pack("=b", v)


def u16(v):
    return struct.pack("=H", v & 0xFFFF)


def u32(v):
    return struct.pack("=I", v & 0xFFFFFFFF)


def ifindex(name):
    try:
        return socket.if_nametoindex(name)
    except OSError:
        return 0


# ------------------------------------------------------------ generator
class Gen:
    """Messages: (socket kind 'genl'|'rt', bytes without the nlmsghdr
    fields the sender fills, nlmsg type, flags, header mutation)."""

    def __init__(self, r, family, slot, ifidx):
        self.r = r
        self.family = family
        self.slot = slot
        self.ifidx = ifidx      # interfaces of the namespace

    def value(self, kind):
        r = self.r
        if kind == "addr":
            a = r.choice(ADDRS + ["random"])
            return os.urandom(16) if a == "random" else \
                ipaddress.IPv6Address(a).packed
        if kind == "keyid":
            return u32(r.choice([1, 2, 3, 5, 7, 11, 0, 0xFFFFFFFF,
                                 r.getrandbits(32)]))
        if kind == "algo":
            return u8(r.choice([1, 2, 1, 2, 0, 3, 255]))
        if kind == "secret":
            return bytes(r.getrandbits(8) for _ in range(
                r.choice([1, 8, 32, 64, 0, 65, 200])))
        if kind == "ifindex":
            return u32(r.choice(self.ifidx + [0, 0, 999, 0x7FFFFFFF,
                                              0x80000000, 0xFFFFFFFF]))
        if kind == "enabled":
            return u8(r.choice([0, 1, 0, 1, 2, 255]))
        if kind == "hmac":
            return s8(r.choice([-1, 0, 1, -1, 0, 1, 2, -2, 127]))
        return bytes(r.getrandbits(8) for _ in range(r.randint(0, 20)))

    def valid_attrs(self, cmd):
        r = self.r
        A = []
        if cmd == N.SEG6X_CMD_TUNSRC_SET:
            A = [(N.SEG6X_A_TUNSRC, self.value("addr"))]
        elif cmd == N.SEG6X_CMD_HMAC_SET:
            A = [(N.SEG6X_A_HMAC_KEYID, self.value("keyid")),
                 (N.SEG6X_A_HMAC_ALGO, self.value("algo")),
                 (N.SEG6X_A_HMAC_SECRET, self.value("secret"))]
        elif cmd == N.SEG6X_CMD_HMAC_DEL:
            A = [(N.SEG6X_A_HMAC_KEYID, self.value("keyid"))]
        elif cmd == N.SEG6X_CMD_IFACE_SET:
            A = [(N.SEG6X_A_IFINDEX, self.value("ifindex"))]
            c = r.random()
            if c < 0.8:
                A.append((N.SEG6X_A_SEG6_ENABLED, self.value("enabled")))
            if c > 0.4:
                A.append((N.SEG6X_A_REQUIRE_HMAC, self.value("hmac")))
        elif cmd == N.SEG6X_CMD_IFACE_GET:
            A = [(N.SEG6X_A_IFINDEX, self.value("ifindex"))]
        elif cmd in (N.SEG6X_CMD_SID_SET, N.SEG6X_CMD_SID_DEL,
                     N.SEG6X_CMD_SID_GET):
            S = self.sid_key()
            if cmd == N.SEG6X_CMD_SID_SET:
                S += self.sid_attrs()
            r.shuffle(S)
            if r.random() < 0.3:
                S = self.mutate_attrs(S)
            A = [(N.SEG6X_A_SID | N.NLA_F_NESTED, self.pack(S))]
        r.shuffle(A)
        return A

    def sid_key(self):
        r = self.r
        pfx = r.choice(SID_PREFIXES + ["random"])
        S = [(N.SEG6X_SID_PREFIX, os.urandom(16) if pfx == "random" else
              ipaddress.IPv6Address(pfx).packed)]
        if r.random() < 0.5:
            S.append((N.SEG6X_SID_PREFIX_LEN, u8(r.choice(
                [128, 64, 48, 127, 1, 0, 129, 255, r.randint(1, 128)]))))
        return S

    def sid_attrs(self):
        """A behaviour and a random choice of attributes: the kernel
        decides which combinations it takes."""
        r = self.r
        beh = r.choice(list(range(1, N.SEG6X_BEHAVIOR_MAX + 1)) * 3 +
                       [0, N.SEG6X_BEHAVIOR_MAX + 1, 0xFFFF])
        S = [(N.SEG6X_SID_BEHAVIOR, u16(beh))]
        pool = [
            (N.SEG6X_SID_NH6, lambda: self.value("addr")),
            (N.SEG6X_SID_NH4, lambda: bytes([10, 99, 0, r.randint(0, 255)])),
            (N.SEG6X_SID_OIF, lambda: self.value("ifindex")),
            (N.SEG6X_SID_TABLE, lambda: u32(r.choice([254, 10, 0, 999]))),
            (N.SEG6X_SID_VRF, lambda: self.value("ifindex")),
            (N.SEG6X_SID_SEGS, lambda: b"".join(
                self.value("addr") for _ in range(r.choice([1, 2, 0, 65])))),
            (N.SEG6X_SID_HMAC_KEYID, lambda: self.value("keyid")),
            (N.SEG6X_SID_FLAVORS, lambda: u32(r.choice(
                [1, 2, 4, 8, 3, 0, 16, r.getrandbits(32)]))),
            (N.SEG6X_SID_LBLEN, lambda: u8(r.choice([32, 48, 0, 7, 200]))),
            (N.SEG6X_SID_NFLEN, lambda: u8(r.choice([16, 8, 0, 9, 200]))),
            (N.SEG6X_SID_COUNT, lambda: b""),
            (N.SEG6X_SID_REPLACE, lambda: b""),
            (N.SEG6X_SID_COUNTERS, lambda: self.value("raw")),
            (N.SEG6X_SID_DEAD, lambda: u8(1)),
        ]
        for t, v in r.sample(pool, r.choice([0, 1, 1, 2, 3])):
            S.append((t, v()))
        return S

    def mutate_attrs(self, A):
        r = self.r
        for _ in range(r.randint(1, 3)):
            m = r.randrange(9)
            if m == 0 and A:                       # drop one
                A.pop(r.randrange(len(A)))
            elif m == 1 and A:                     # duplicate
                t, _ = r.choice(A)
                A.append((t, self.value(r.choice(
                    ["addr", "keyid", "algo", "enabled", "hmac", "raw"]))))
            elif m == 2 and A:                     # wrong length
                i = r.randrange(len(A))
                t, v = A[i]
                A[i] = (t, r.choice([v[:-1], v + b"\0", b"", v * 3,
                                     v + bytes(r.randint(1, 300))]))
            elif m == 3:                           # unknown / reply-only
                A.append((r.choice([0, 1, 2, 3, 4, 10, 13, 14, 15, 16, 17,
                                    18, 19, 200, 0x3FFF]),
                          self.value("raw")))
            elif m == 4 and A:                     # nested flag on a leaf
                i = r.randrange(len(A))
                A[i] = (A[i][0] | N.NLA_F_NESTED, A[i][1])
            elif m == 5 and A:                     # byte-order flag
                i = r.randrange(len(A))
                A[i] = (A[i][0] | N.NLA_F_NET_BYTEORDER, A[i][1])
            elif m == 6:                           # a nest of junk
                A.append((r.choice([N.SEG6X_A_STATS, N.SEG6X_A_TUNSRC,
                                    N.SEG6X_A_HMAC_SECRET]) | N.NLA_F_NESTED,
                          N.nla(r.randint(0, 20), self.value("raw")) +
                          N.nla(1, u32(r.getrandbits(32)))))
            elif m == 7 and A:                     # huge values
                i = r.randrange(len(A))
                A[i] = (A[i][0], b"\xff" * len(A[i][1]))
            else:                                  # value from elsewhere
                if A:
                    i = r.randrange(len(A))
                    A[i] = (A[i][0], self.value(r.choice(
                        ["addr", "keyid", "ifindex", "raw", "secret"])))
        return A

    @staticmethod
    def pack(A, tail=b""):
        return b"".join(N.nla(t, v) for t, v in A) + tail

    def genl(self):
        r = self.r
        c = r.random()
        flags = N.NLM_F_REQUEST | N.NLM_F_ACK
        version = 1
        if c < 0.75:
            cmd = r.choice(sorted(WRITES) * 3 + sorted(READS))
            A = self.valid_attrs(cmd)
            if r.random() < 0.6:
                A = self.mutate_attrs(A)
            body = self.pack(A)
        else:
            cmd = r.choice(list(range(0, N.SEG6X_CMD_MAX + 2)) +
                           [255, r.getrandbits(8)])
            A = [(r.randint(0, 25), self.value(r.choice(
                ["addr", "keyid", "raw", "secret", "enabled"])))
                for _ in range(r.randint(0, 5))]
            body = self.pack(A)
            if r.random() < 0.3:                   # a malformed attribute
                body += struct.pack("=HH", r.choice([2, 3, 400, 0xFFFF]),
                                    r.randint(1, 20)) + b"\0" * 4
        if cmd in (N.SEG6X_CMD_HMAC_GET, N.SEG6X_CMD_IFACE_GET,
                   N.SEG6X_CMD_SID_GET) and r.random() < 0.6:
            flags = N.NLM_F_REQUEST | N.NLM_F_DUMP
        if r.random() < 0.05:
            flags |= N.NLM_F_DUMP
        if r.random() < 0.05:
            version = r.getrandbits(8)
        hdr = N.genlhdr(cmd, version)
        if r.random() < 0.03:
            hdr = hdr[:r.randint(0, 3)]             # short genl header
            body = b""
        mut = None
        x = r.random()
        if x < 0.03:
            flags &= ~N.NLM_F_REQUEST               # not a request
        elif x < 0.05:
            mut = "long"                            # nlmsg_len > datagram
        elif x < 0.07:
            mut = "short"                           # trailing < 16 bytes
        return ("genl", hdr + body, self.family, flags, mut)

    def encap(self):
        r = self.r
        A = [(N.SEG6X_IPTUN_MODE, u8(r.choice([1, 1, 2, 0, 3]))),
             (N.SEG6X_IPTUN_SEGS, b"".join(
                 self.value("addr") if r.random() < 0.2 else
                 ipaddress.IPv6Address(r.choice(
                     ["fc00:ff::2", "fc00:ff::3", "fc00:b::1"])).packed
                 for _ in range(r.choice([1, 2, 3, 14, 15, 64, 65, 0]))))]
        if r.random() < 0.4:
            A.append((N.SEG6X_IPTUN_HMAC_KEYID, self.value("keyid")))
        if r.random() < 0.5:
            A = self.mutate_attrs(A)
        return self.pack(A)

    def route(self):
        r = self.r
        v6 = r.random() < 0.7
        fam = socket.AF_INET6 if v6 else socket.AF_INET
        i = r.randrange(len(PREFIX6))
        dst = ipaddress.ip_address(PREFIX6[i] if v6 else PREFIX4[i]).packed
        plen = 64 if v6 else 24
        if r.random() < 0.1:
            plen = r.choice([48, 128, 129, 255, 32, 33])
        scope = N.RT_SCOPE_UNIVERSE if v6 else N.RT_SCOPE_LINK
        if r.random() < 0.7:
            op = N.RTM_NEWROUTE
            flags = N.NLM_F_REQUEST | N.NLM_F_ACK | N.NLM_F_CREATE | \
                r.choice([N.NLM_F_EXCL, N.NLM_F_REPLACE])
            A = [(N.RTA_DST, dst), (N.RTA_OIF, u32(r.choice(self.ifidx)))]
            et = self.slot if r.random() < 0.9 else \
                r.choice([0, 5, 7, 0xFFFF, r.getrandbits(16)])
            if r.random() < 0.95:
                A.append((N.RTA_ENCAP_TYPE, u16(et)))
            if r.random() < 0.95:
                A.append((N.RTA_ENCAP | N.NLA_F_NESTED, self.encap()))
            if r.random() < 0.05:
                A.append((N.RTA_ENCAP | N.NLA_F_NESTED, self.encap()))
            if r.random() < 0.05:
                A.append((N.RTA_ENCAP, b"\x01\x02"))   # not even a nest
            body = N.rtmsg(fam, plen, protocol=N.RTPROT_STATIC, scope=scope)
        else:
            op = N.RTM_DELROUTE
            flags = N.NLM_F_REQUEST | N.NLM_F_ACK
            A = [(N.RTA_DST, dst)]
            if r.random() < 0.3:
                A.append((N.RTA_OIF, u32(r.choice(self.ifidx))))
            body = N.rtmsg(fam, plen, protocol=0, scope=255, rtype=0)
        return ("rt", body + self.pack(A), op, flags, None)

    def next(self):
        return self.route() if self.r.random() < 0.3 else self.genl()


# ---------------------------------------------------------------- model
class Model:
    """seg6x state of one namespace as the accepted writes made it."""

    def __init__(self, st):
        self.tunsrc, self.keys, ifaces, self.routes, self.sids = st
        self.default = ifaces[0][:2]
        self.own = {}           # ifindex -> [enabled|None, hmac|None]
        self.slot = None

    def apply_genl(self, cmd, attrs):
        a = N.attrs_dict(attrs)
        if cmd == N.SEG6X_CMD_TUNSRC_SET:
            self.tunsrc = a[N.SEG6X_A_TUNSRC]
        elif cmd == N.SEG6X_CMD_HMAC_SET:
            self.keys[struct.unpack("=I", a[N.SEG6X_A_HMAC_KEYID])[0]] = \
                a[N.SEG6X_A_HMAC_ALGO][0]
        elif cmd == N.SEG6X_CMD_HMAC_DEL:
            self.keys.pop(struct.unpack("=I", a[N.SEG6X_A_HMAC_KEYID])[0],
                          None)
        elif cmd == N.SEG6X_CMD_SID_FLUSH:
            self.sids = {}
        elif cmd in (N.SEG6X_CMD_SID_SET, N.SEG6X_CMD_SID_DEL):
            sa = N.attrs_dict(a[N.SEG6X_A_SID])
            key = sid_key(sa[N.SEG6X_SID_PREFIX],
                          sa.get(N.SEG6X_SID_PREFIX_LEN, b"\x80")[0])
            if cmd == N.SEG6X_CMD_SID_DEL:
                self.sids.pop(key, None)
            else:
                self.sids[key] = struct.unpack(
                    "=H", sa[N.SEG6X_SID_BEHAVIOR][:2])[0]
        elif cmd == N.SEG6X_CMD_IFACE_SET:
            idx = struct.unpack("=I", a[N.SEG6X_A_IFINDEX])[0]
            en = a.get(N.SEG6X_A_SEG6_ENABLED)
            hm = a.get(N.SEG6X_A_REQUIRE_HMAC)
            en = en[0] if en is not None else None
            hm = struct.unpack("=b", hm[:1])[0] if hm is not None else None
            if idx == 0:
                self.default = (en if en is not None else self.default[0],
                                hm if hm is not None else self.default[1])
            else:
                o = self.own.setdefault(idx, [None, None])
                if en is not None:
                    o[0] = en
                if hm is not None:
                    o[1] = hm

    def apply_route(self, op, flags, payload):
        fam, plen = payload[0], payload[1]
        a = N.attrs_dict(payload[12:])
        dst = a.get(N.RTA_DST, b"")
        key = route_key(fam, dst, plen)
        if op == N.RTM_DELROUTE:
            self.routes.pop(key, None)
            return
        et = a.get(N.RTA_ENCAP_TYPE)
        enc = a.get(N.RTA_ENCAP)
        if et is not None and struct.unpack("=H", et[:2])[0] == self.slot \
                and enc is not None:
            e = N.attrs_dict(enc)
            segs = e[N.SEG6X_IPTUN_SEGS]
            kid = e.get(N.SEG6X_IPTUN_HMAC_KEYID)
            self.routes[key] = (
                e[N.SEG6X_IPTUN_MODE][0],
                tuple(segs[i:i + 16] for i in range(0, len(segs), 16)),
                struct.unpack("=I", kid)[0] if kid else None)
        else:
            self.routes[key] = "other"

    def ifaces(self, existing):
        out = {0: (self.default[0], self.default[1], 0)}
        for idx in existing:
            o = self.own.get(idx, [None, None])
            out[idx] = (o[0] if o[0] is not None else self.default[0],
                        o[1] if o[1] is not None else self.default[1],
                        (1 if o[0] is not None else 0) |
                        (2 if o[1] is not None else 0))
        return out

    def state(self, existing):
        return (self.tunsrc, dict(self.keys), self.ifaces(existing),
                {k: v for k, v in self.routes.items() if v != "other"},
                dict(self.sids))


def sid_key(prefix, plen):
    return str(ipaddress.IPv6Network((prefix, plen), strict=False))


def kernel_sids(g):
    """{prefix/len: behaviour} of the namespace's SID table."""
    out = {}
    for _, _, body in g.dump(N.SEG6X_CMD_SID_GET).msgs:
        sa = N.attrs_dict(N.attrs_dict(body[4:])[N.SEG6X_A_SID])
        out[sid_key(sa[N.SEG6X_SID_PREFIX],
                    sa[N.SEG6X_SID_PREFIX_LEN][0])] = \
            struct.unpack("=H", sa[N.SEG6X_SID_BEHAVIOR][:2])[0]
    return out


def route_key(fam, dst, plen):
    ln = 16 if fam == socket.AF_INET6 else 4
    dst = (dst + bytes(16))[:ln]
    if fam == socket.AF_INET6:
        n = ipaddress.ip_network((dst, min(plen, 128)), strict=False)
    else:
        n = ipaddress.ip_network((dst, min(plen, 32)), strict=False)
    return str(n)


def kernel_routes(slot, rt):
    """seg6x routes of rt's namespace's main table, decoded."""
    out = {}
    for fam in (socket.AF_INET6, socket.AF_INET):
        r = rt.request(N.RTM_GETROUTE, N.NLM_F_REQUEST | N.NLM_F_DUMP,
                       N.rtmsg(fam, 0, table=0, protocol=0, rtype=0))
        for _, _, body in r.msgs:
            if body[4] != N.RT_TABLE_MAIN:
                continue
            a = N.attrs_dict(body[12:])
            et = a.get(N.RTA_ENCAP_TYPE)
            if et is None or struct.unpack("=H", et)[0] != slot:
                continue
            e = N.attrs_dict(a[N.RTA_ENCAP])
            segs = e[N.SEG6X_IPTUN_SEGS]
            kid = e.get(N.SEG6X_IPTUN_HMAC_KEYID)
            out[route_key(body[0], a.get(N.RTA_DST, b""), body[1])] = (
                e[N.SEG6X_IPTUN_MODE][0],
                tuple(segs[i:i + 16] for i in range(0, len(segs), 16)),
                struct.unpack("=I", kid)[0] if kid else None)
    return out


def kernel_state(g, slot, rt):
    return (g.tunsrc(), g.keys(), g.ifaces(), kernel_routes(slot, rt),
            kernel_sids(g))


def seg6ctl_state(ns=None):
    """The same state through seg6ctl -j, in the model's terms."""
    def j(*a):
        cmd = [SEG6CTL] + (["-n", ns] if ns else []) + ["-j"] + list(a)
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode:
            raise RuntimeError(f"{cmd}: {p.stderr}")
        return json.loads(p.stdout or "null")
    tun = ipaddress.IPv6Address(j("tunsrc", "show")["tunsrc"]).packed
    keys = {k["keyid"]: {"sha1": 1, "sha256": 2}.get(k["algo"], k["algo"])
            for k in j("hmac", "show") or []}
    ifs = {}
    for i in j("iface", "show") or []:
        idx = 0 if i["ifname"] == "default" else ifindex(i["ifname"])
        ifs[idx] = (i["seg6_enabled"], i["require_hmac"])
    routes = {}
    for rt in j("route", "show") or []:
        routes[str(ipaddress.ip_network(rt["dst"], strict=False))] = (
            {"encap": 1, "inline": 2}[rt["mode"]],
            tuple(ipaddress.IPv6Address(s).packed for s in rt["segs"]),
            rt["hmac"])
    sids = {str(ipaddress.IPv6Network(e["sid"], strict=False)):
            BEH[e["behavior"]] for e in j("sid", "show") or []}
    return tun, keys, ifs, routes, sids


def diff(want, got):
    names = ["tunsrc", "keys", "ifaces", "routes", "sids"]
    out = []
    for n, w, g in zip(names, want, got):
        if w != g:
            out.append(f"{n}: model {w!r} kernel {g!r}")
    return out


# ---------------------------------------------------------------- driver
class Runner:
    def __init__(self, seed, part, count, check_model=True, unpriv=False):
        self.seed, self.part, self.count = seed, part, count
        self.unpriv = unpriv
        self.check_model = check_model
        self.g = N.Genl()
        self.rt = N.rt()
        self.slot = self.g.info()["lwt_type"]
        self.ifidx = [i for i in (ifindex("lo"), ifindex("d0"),
                                  ifindex("d1")) if i]
        # every device of the namespace (the Runner is made in it): the
        # iface dump lists them all, including those the kernel makes in
        # each namespace (sit0 where SIT is built in)
        self.all_ifidx = sorted(i for i, _ in socket.if_nameindex())
        self.failures = []
        self.sent = 0
        self.acked0 = 0
        self.errors = {}
        self.log = []           # recent messages (hex) for reproduction

    def fail(self, why):
        self.failures.append(why)
        print("FAIL", self.part, why, flush=True)

    def existing(self):
        return list(self.all_ifidx)

    def run(self):
        r = random.Random(f"{self.seed}:{self.part}")
        gen = Gen(r, self.g.family, self.slot, self.ifidx)
        model = None
        if self.check_model:
            model = Model(kernel_state(self.g, self.slot, self.rt))
            model.slot = self.slot
        for i in range(self.count):
            kind, payload, mtype, flags, mut = gen.next()
            sock = self.g if kind == "genl" else self.rt
            seq = sock.next_seq()
            msg = N.nlmsg(mtype, flags, seq, payload)
            if mut == "long":
                msg = msg[:0] + struct.pack("=I", len(msg) + 64) + msg[4:]
            elif mut == "short" and len(payload) > 4:
                cut = r.randint(1, min(15, len(payload) - 1))
                msg = struct.pack("=I", len(msg) - cut) + msg[4:]
                payload = payload[:len(payload) - cut]
            self.log.append(msg.hex())
            self.log = self.log[-CHECK_EVERY:]
            expect = mut != "long" and bool(flags & N.NLM_F_REQUEST) and \
                bool(flags & (N.NLM_F_ACK | N.NLM_F_DUMP))
            sock.send_raw(msg)
            rep = sock.collect(seq, expect_reply=expect)
            self.sent += 1
            self.errors[rep.error] = self.errors.get(rep.error, 0) + 1
            executed = rep.error == 0 and mut != "long" and \
                bool(flags & N.NLM_F_REQUEST)
            is_write, cmd = self.classify(kind, payload, mtype, flags)
            if executed and is_write:
                self.acked0 += 1
                if self.unpriv:
                    self.fail(f"write accepted without privilege: "
                              f"{msg.hex()}")
                elif model is not None:
                    if kind == "genl":
                        model.apply_genl(cmd, payload[4:])
                    else:
                        model.apply_route(mtype, flags, payload)
            if self.unpriv and is_write and mut is None and \
                    flags & N.NLM_F_REQUEST and rep.error not in (-EPERM,):
                if not (kind == "genl" and (len(payload) < 4 or
                                            cmd not in WRITES)):
                    self.fail(f"write answered {rep.error}, not -EPERM: "
                              f"{msg.hex()}")
            if model is not None and (i + 1) % CHECK_EVERY == 0:
                self.compare(model, i)
        if model is not None:
            self.compare(model, self.count - 1)
        if self.unpriv:
            self.reads_work()
        return model

    def classify(self, kind, payload, mtype, flags):
        if kind == "rt":
            return mtype in (N.RTM_NEWROUTE, N.RTM_DELROUTE), None
        if len(payload) < 4:
            return False, None
        cmd = payload[0]
        dump = (flags & N.NLM_F_DUMP) == N.NLM_F_DUMP
        return cmd in WRITES and not dump, cmd

    def compare(self, model, i):
        got = kernel_state(self.g, self.slot, self.rt)
        want = model.state(self.existing())
        d = diff(want, got)
        if d:
            self.fail(f"state after message {i} differs from the model: "
                      + "; ".join(d) + " -- messages since the last "
                      "check: " + " ".join(self.log))
            # carry on from what the kernel has
            model.tunsrc, model.keys, ifs, routes, sids = got
            model.routes = dict(routes)
            model.sids = dict(sids)
            model.default = ifs[0][:2]
            model.own = {k: [v[0] if v[2] & 1 else None,
                             v[1] if v[2] & 2 else None]
                         for k, v in ifs.items() if k and v[2]}

    def reads_work(self):
        g = self.g
        for name, fn in (("info", g.info), ("stats", g.stats),
                         ("tunsrc", g.tunsrc), ("keys", g.keys),
                         ("ifaces", g.ifaces),
                         ("sids", lambda: kernel_sids(g))):
            try:
                fn()
            except Exception as e:     # noqa: BLE001
                self.fail(f"unprivileged read {name} failed: {e!r}")

    def summary(self):
        return {"part": self.part, "sent": self.sent,
                "acked0_writes": self.acked0,
                "errors": {str(k): v for k, v in sorted(
                    self.errors.items(), key=lambda x: str(x[0]))},
                "failures": self.failures}


def setup_ns():
    sh(["ip", "netns", "del", NS], check=False)
    sh(["ip", "netns", "add", NS])
    sh(["ip", "-n", NS, "-b", "-"], input="\n".join([
        "link set lo up",
        "link add d0 type dummy", "link add d1 type dummy",
        "link set d0 up", "link set d1 up",
        "addr add fc00:99::1/64 dev d0 nodad",
        "addr add 10.99.0.1/24 dev d0"]) + "\n")


def child_main(args):
    """--child userns|unpriv: runs one part, prints its summary as JSON."""
    if args.child == "userns":
        subprocess.run(["ip", "-b", "-"], check=True, text=True, input="\n".join([
            "link set lo up", "link add d0 type dummy",
            "link add d1 type dummy", "link set d0 up", "link set d1 up",
            "addr add fc00:99::1/64 dev d0 nodad"]) + "\n")
        run = Runner(args.seed, "userns", args.count)
        model = run.run()
        # and through seg6ctl, as an operator would see it
        want = model.state(run.existing())
        got = seg6ctl_state()
        d = diff(want[:2] + ({k: v[:2] for k, v in want[2].items()},) +
                 want[3:], got)
        if d:
            run.fail("seg6ctl -j shows another state than the model: " +
                     "; ".join(d))
    else:
        run = Runner(args.seed, "unpriv", args.count, check_model=False,
                     unpriv=True)
        run.run()
    print("CHILD " + json.dumps(run.summary()), flush=True)
    return 0


def userns_cmd():
    """`unshare -Urn`, or its equivalent where it cannot work: the kernel
    refuses a new user namespace to a chrooted process (the test VM runs
    everything chrooted into the host's root, mounted at /newroot), so
    there, start from PID 1's root with the initramfs's static busybox
    and chroot back from inside the new user (and mount) namespace."""
    if subprocess.run(["unshare", "-Urn", "true"],
                      capture_output=True).returncode == 0:
        return ["unshare", "-Urn"]
    if os.path.exists("/proc/1/root/newroot/usr/bin/python3"):
        return ["nsenter", "-t", "1", "-r", "/bin/busybox", "unshare",
                "-U", "-r", "-n", "-m", "/bin/busybox", "chroot",
                "/newroot"]
    return ["unshare", "-Urn"]


def run_child(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if line.startswith("CHILD "):
            return json.loads(line[6:]), p
    return {"failures": [f"child {cmd} exited {p.returncode}: "
                         f"{p.stdout[-2000:]}{p.stderr[-2000:]}"],
            "sent": 0}, p


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--child", choices=["userns", "unpriv"])
    args = ap.parse_args()
    if args.child:
        return child_main(args)

    t0 = time.monotonic()
    klog = kernlog.Since()
    if not os.path.exists("/sys/module/seg6x"):
        sh(["modprobe", "seg6x"])
    sh(["modprobe", "dummy"], check=False)
    g0 = N.Genl()
    slot = g0.info()["lwt_type"]
    rt0 = N.rt()
    init_before = kernel_state(g0, slot, rt0)
    setup_ns()
    n_root = int(args.count * 0.6)
    n_unpriv = int(args.count * 0.2)
    n_userns = args.count - n_root - n_unpriv
    failures = []
    summaries = []

    with inside(NS):
        run = Runner(args.seed, "root", n_root)
    # the sockets stay in NS; run() only uses them and the model
    model = run.run()
    summaries.append(run.summary())
    failures += run.failures
    with inside(NS):
        want = model.state(run.existing())
        got = seg6ctl_state(NS)
    d = diff(want[:2] + ({k: v[:2] for k, v in want[2].items()},) +
             want[3:], got)
    if d:
        failures.append("root: seg6ctl -j shows another state than the "
                        "model: " + "; ".join(d))
    with inside(NS):
        ns_before = kernel_state(run.g, slot, run.rt)

    py = sys.executable
    me = os.path.abspath(__file__)
    s, _ = run_child(["ip", "netns", "exec", NS, "setpriv", "--reuid",
                      "65534", "--regid", "65534", "--clear-groups",
                      "--inh-caps=-all", py, me, "--child", "unpriv",
                      "--seed", str(args.seed), "--count", str(n_unpriv)])
    summaries.append(s)
    failures += [f"unpriv: {f}" for f in s["failures"]]
    s, _ = run_child(userns_cmd() + [py, me, "--child", "userns",
                                     "--seed", str(args.seed),
                                     "--count", str(n_userns)])
    summaries.append(s)
    failures += [f"userns: {f}" for f in s["failures"]]

    with inside(NS):
        ns_after = kernel_state(run.g, slot, run.rt)
    d = diff(ns_before, ns_after)
    if d:
        failures.append("the unprivileged / user-namespace parts changed "
                        "the namespace they must not touch: " +
                        "; ".join(d))
    d = diff(init_before, kernel_state(g0, slot, rt0))
    if d:
        failures.append("the initial namespace changed: " + "; ".join(d))
    sh(["ip", "netns", "del", NS], check=False)
    splats = klog.reports()
    if splats:
        failures.append("kernel log:\n" + "\n".join(splats[:40]))
    for s in summaries:
        print(json.dumps(s)[:2000])
    for f in failures:
        print("FAIL", f[:4000])
    total = sum(s.get("sent", 0) for s in summaries)
    res = "PASS" if not failures else "FAIL"
    print(f"fuzz_netlink: seed {args.seed}: {total} messages sent "
          f"(root {summaries[0]['sent']}, unpriv {summaries[1].get('sent')},"
          f" userns {summaries[2].get('sent')}), "
          f"{sum(s.get('acked0_writes', 0) for s in summaries)} writes "
          f"accepted, {len(failures)} failures, "
          f"{time.monotonic() - t0:.0f} s: {res}", flush=True)
    return 0 if not failures else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        if "--child" not in sys.argv:
            # its seg6x routes would keep the module from unloading
            sh(["ip", "netns", "del", NS], check=False)
