# SPDX-License-Identifier: GPL-2.0
"""The local SID table over raw generic netlink (uapi/linux/seg6x.h).

Lets the tests drive the kernel side directly, and check what the kernel
itself refuses (extended ack), whatever seg6ctl would have caught first.
"""
import ipaddress
import socket
import struct

from . import uapi as U
from .netns import inside
from .nlraw import (NLM_F_DUMP, NLM_F_REQUEST,
                    SOL_NETLINK, NETLINK_CAP_ACK, Genl, attrs_dict, nest,
                    nla, parse_attrs)

CMD_SID_SET, CMD_SID_DEL = U.SEG6X_CMD_SID_SET, U.SEG6X_CMD_SID_DEL
CMD_SID_GET, CMD_SID_FLUSH = U.SEG6X_CMD_SID_GET, U.SEG6X_CMD_SID_FLUSH
A_SID = U.SEG6X_A_SID
(SID_PREFIX, SID_PREFIX_LEN, SID_BEHAVIOR, SID_NH6, SID_NH4, SID_OIF,
 SID_TABLE, SID_VRF, SID_SEGS, SID_HMAC_KEYID, SID_FLAVORS, SID_LBLEN,
 SID_NFLEN, SID_COUNT, SID_COUNTERS, SID_DEAD, SID_REPLACE) = (
    getattr(U, "SEG6X_SID_" + n) for n in (
        "PREFIX", "PREFIX_LEN", "BEHAVIOR", "NH6", "NH4", "OIF", "TABLE",
        "VRF", "SEGS", "HMAC_KEYID", "FLAVORS", "LBLEN", "NFLEN", "COUNT",
        "COUNTERS", "DEAD", "REPLACE"))
CNT_PACKETS, CNT_BYTES, CNT_ERRORS = (
    U.SEG6X_SID_CNT_PACKETS, U.SEG6X_SID_CNT_BYTES, U.SEG6X_SID_CNT_ERRORS)


# the behaviours' names of SEG6X_BEHAVIOR_LIST (seg6ctl's spelling):
# BEHAVIORS by number from 1, BEH {name: number}
BEHAVIORS = [U.BEHAVIOR_NAMES[v] for v in sorted(U.BEHAVIOR_NAMES)]
BEH = {n: v for v, n in U.BEHAVIOR_NAMES.items()}
FLV = {n.lower().replace("_", "-"): v
       for v, n in U.members("SEG6X_FLV_").items()}

# namespace counters added with the SID table: one per behaviour of the
# list, and drop.sid ({SEG6X_STAT_SID_END_X: "sid_end_x", ...})
_STATS = U.members("SEG6X_STAT_")
SID_STATS = {v: _STATS[v].lower()
             for v in list(U.BEHAVIOR_STATS.values()) + [U.SEG6X_STAT_DROP_SID]}


def a6(a):
    return ipaddress.IPv6Address(a).packed


def sid_attrs(sid, behavior=None, nh6=None, nh4=None, oif=None, table=None,
              vrf=None, segs=None, hmac=None, flavors=None, lblen=None,
              nflen=None, count=False, replace=False, raw=b""):
    pfx, _, plen = sid.partition("/")
    b = nla(SID_PREFIX, a6(pfx))
    if plen:
        b += nla(SID_PREFIX_LEN, bytes([int(plen)]))
    if behavior is not None:
        code = BEH[behavior] if isinstance(behavior, str) else behavior
        b += nla(SID_BEHAVIOR, struct.pack("=H", code))
    if nh6:
        b += nla(SID_NH6, a6(nh6))
    if nh4:
        b += nla(SID_NH4, ipaddress.IPv4Address(nh4).packed)
    if oif is not None:
        b += nla(SID_OIF, struct.pack("=I", oif))
    if table is not None:
        b += nla(SID_TABLE, struct.pack("=I", table))
    if vrf is not None:
        b += nla(SID_VRF, struct.pack("=I", vrf))
    if segs:
        b += nla(SID_SEGS, b"".join(a6(s) for s in segs))
    if hmac is not None:
        b += nla(SID_HMAC_KEYID, struct.pack("=I", hmac))
    if flavors is not None:
        if isinstance(flavors, str):
            flavors = sum(FLV[f] for f in flavors.split(","))
        b += nla(SID_FLAVORS, struct.pack("=I", flavors))
    if lblen is not None:
        b += nla(SID_LBLEN, bytes([lblen]))
    if nflen is not None:
        b += nla(SID_NFLEN, bytes([nflen]))
    if count:
        b += nla(SID_COUNT)
    if replace:
        b += nla(SID_REPLACE)
    return nest(A_SID, b + raw)


def extack_msg(reply):
    """The kernel's extended ack text of an error reply ('' if none)."""
    body = reply.extack
    for t, _, p in parse_attrs(body[20:]):
        if t == 1:
            return p.rstrip(b"\0").decode()
    return ""


def decode(body):
    a = attrs_dict(attrs_dict(body[4:])[A_SID])
    d = {"sid": f"{ipaddress.IPv6Address(a[SID_PREFIX])}/{a[SID_PREFIX_LEN][0]}",
         "behavior": U.BEHAVIOR_NAMES[struct.unpack("=H", a[SID_BEHAVIOR][:2])[0]]}
    if SID_NH6 in a:
        d["nh6"] = str(ipaddress.IPv6Address(a[SID_NH6]))
    if SID_NH4 in a:
        d["nh4"] = str(ipaddress.IPv4Address(a[SID_NH4]))
    for k, n in ((SID_OIF, "oif"), (SID_TABLE, "table"), (SID_VRF, "vrf"),
                 (SID_HMAC_KEYID, "hmac"), (SID_FLAVORS, "flavors")):
        if k in a:
            d[n] = struct.unpack("=I", a[k][:4])[0]
    if SID_SEGS in a:
        s = a[SID_SEGS]
        d["segs"] = [str(ipaddress.IPv6Address(s[i:i + 16]))
                     for i in range(0, len(s), 16)]
    if SID_COUNTERS in a:
        c = attrs_dict(a[SID_COUNTERS])
        for k, n in ((CNT_PACKETS, "packets"), (CNT_BYTES, "bytes"),
                     (CNT_ERRORS, "errors")):
            d[n] = struct.unpack("=Q", c[k])[0]
    if SID_DEAD in a:
        d["dead"] = True
    return d


class SidNl:
    """A SEG6X socket in namespace `ns`."""

    def __init__(self, ns):
        with inside(ns):
            self.g = Genl()
        self.g.sock.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)

    def close(self):
        self.g.close()

    def add(self, sid, behavior, replace=False, **kw):
        return self.g.cmd(CMD_SID_SET, sid_attrs(sid, behavior,
                                                 replace=replace, **kw))

    def must_add(self, sid, behavior, **kw):
        r = self.add(sid, behavior, **kw)
        assert r.error == 0, (r.error, extack_msg(r))

    def delete(self, sid):
        return self.g.cmd(CMD_SID_DEL, sid_attrs(sid))

    def flush(self):
        return self.g.cmd(CMD_SID_FLUSH)

    def get(self, sid):
        r = self.g.cmd(CMD_SID_GET, sid_attrs(sid))
        return decode(r.msgs[0][2]) if r.msgs else None

    def show(self):
        r = self.g.cmd(CMD_SID_GET, b"", NLM_F_REQUEST | NLM_F_DUMP)
        return [decode(b) for _, _, b in r.msgs]

    def stats(self):
        s = self.g.stats()
        for k, v in list(s.items()):
            if k.isdigit() and int(k) in SID_STATS:
                s[SID_STATS[int(k)]] = v
        return s


def ifindex(ns, name):
    with inside(ns):
        return socket.if_nametoindex(name)
