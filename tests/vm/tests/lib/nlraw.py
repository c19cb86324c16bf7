# SPDX-License-Identifier: GPL-2.0
"""Raw netlink from Python: messages built byte by byte.

Used by the fuzzers (tests/fuzz) and by tests that need to send what no
tool would: the SEG6X generic netlink family and rtnetlink route
messages carrying seg6x's RTA_ENCAP nest. Nothing here validates: a
message is whatever bytes the caller builds.
"""
import os
import select
import socket
import struct

from lib.timing import scaled

NETLINK_ROUTE = 0
NETLINK_GENERIC = 16

NLMSG_NOOP, NLMSG_ERROR, NLMSG_DONE = 1, 2, 3
NLM_F_REQUEST, NLM_F_MULTI, NLM_F_ACK = 0x1, 0x2, 0x4
NLM_F_ROOT, NLM_F_MATCH = 0x100, 0x200
NLM_F_DUMP = NLM_F_ROOT | NLM_F_MATCH
NLM_F_REPLACE, NLM_F_EXCL, NLM_F_CREATE, NLM_F_APPEND = \
    0x100, 0x200, 0x400, 0x800
NLA_F_NESTED, NLA_F_NET_BYTEORDER = 0x8000, 0x4000
NLA_TYPE_MASK = 0x3FFF

SOL_NETLINK = 270
NETLINK_EXT_ACK = 11
NETLINK_CAP_ACK = 10

GENL_ID_CTRL = 0x10
CTRL_CMD_GETFAMILY = 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2

RTM_NEWROUTE, RTM_DELROUTE, RTM_GETROUTE = 24, 25, 26
RTA_DST, RTA_OIF, RTA_GATEWAY, RTA_PRIORITY, RTA_TABLE = 1, 4, 5, 6, 15
RTA_ENCAP_TYPE, RTA_ENCAP, RTA_VIA = 21, 22, 18
RT_TABLE_MAIN = 254
RTPROT_BOOT, RTPROT_STATIC = 3, 4
RT_SCOPE_UNIVERSE, RT_SCOPE_LINK = 0, 253
RTN_UNICAST = 1

# uapi/linux/seg6x.h, read from the header (lib/uapi.py): every SEG6X_*
# name of it is available here too
from lib import uapi  # noqa: E402
from lib.uapi import *  # noqa: E402,F401,F403

# Genl.stats() keys: the namespace counters by their seg6ctl -j names
# (drop reasons without "drop."); the SID ones stay numbered (lib/sidnl.py).
STAT_NAMES = {v: n.lower().removeprefix("drop_")
              for v, n in uapi.members("SEG6X_STAT_").items()
              if not n.startswith("SID_") and n != "DROP_SID"}


def nla(atype, payload=b""):
    """One attribute, padded to 4 bytes."""
    payload = bytes(payload)
    b = struct.pack("=HH", 4 + len(payload), atype) + payload
    return b + b"\0" * (-len(b) % 4)


def nest(atype, *attrs):
    return nla(atype | NLA_F_NESTED, b"".join(attrs))


def nlmsg(mtype, flags, seq, payload, pid=0):
    return struct.pack("=IHHII", 16 + len(payload), mtype, flags, seq,
                       pid) + payload


def genlhdr(cmd, version=1):
    return struct.pack("=BBH", cmd, version, 0)


def rtmsg(family, dst_len, table=RT_TABLE_MAIN, protocol=RTPROT_BOOT,
          scope=RT_SCOPE_UNIVERSE, rtype=RTN_UNICAST, flags=0, src_len=0,
          tos=0):
    return struct.pack("=BBBBBBBBI", family, dst_len, src_len, tos,
                       table, protocol, scope, rtype, flags)


def parse_attrs(b):
    """[(type without flags, flags, payload)] of a buffer of attributes.
    Stops at the first malformed one (as nla_for_each_attr does)."""
    out = []
    off = 0
    while off + 4 <= len(b):
        ln, at = struct.unpack_from("=HH", b, off)
        if ln < 4 or off + ln > len(b):
            break
        out.append((at & NLA_TYPE_MASK, at & ~NLA_TYPE_MASK,
                    b[off + 4:off + ln]))
        off += (ln + 3) & ~3
    return out


def attrs_dict(b):
    """Last attribute of each type wins, as nla_parse() does."""
    return {t: p for t, _, p in parse_attrs(b)}


class Reply:
    """What the kernel answered one request: data messages and the
    error code of the final ack (0, -errno, or None without one)."""

    def __init__(self):
        self.msgs = []      # (type, flags, payload)
        self.error = None
        self.extack = b""

    def __repr__(self):
        return f"Reply(error={self.error}, msgs={len(self.msgs)})"


class Netlink:
    """A netlink socket; request() sends one datagram and collects the
    answer to it (matched by sequence number)."""

    def __init__(self, proto, timeout=2.0):
        timeout = scaled(timeout)
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, proto)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        try:
            self.sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        except OSError:
            pass
        self.sock.bind((0, 0))
        self.pid = self.sock.getsockname()[0]
        self.seq = (os.getpid() & 0xFFFF) << 16
        self.timeout = timeout

    def close(self):
        self.sock.close()

    def next_seq(self):
        self.seq = (self.seq + 1) & 0xFFFFFFFF
        return self.seq

    def drain(self):
        while select.select([self.sock], [], [], 0)[0]:
            self.sock.recv(1 << 20)

    def send_raw(self, data):
        self.sock.sendto(data, (0, 0))

    def collect(self, seq, timeout=None, expect_reply=True):
        """Messages answering `seq`, up to the ack / DONE / an error.
        Without expect_reply, returns after a short quiet period."""
        r = Reply()
        wait = self.timeout if timeout is None else timeout
        while True:
            # the kernel answers a request (and the first part of a
            # dump) before sendmsg() returns: without a reply to wait
            # for, whatever is queued now is all there is
            rd = select.select([self.sock], [], [],
                               wait if expect_reply else 0)[0]
            if not rd:
                return r
            data = self.sock.recv(1 << 20)
            off = 0
            done = False
            while off + 16 <= len(data):
                ln, mt, fl, sq, _ = struct.unpack_from("=IHHII", data, off)
                if ln < 16:
                    break
                body = data[off + 16:off + ln]
                off += (ln + 3) & ~3
                if sq != seq:
                    continue
                if mt == NLMSG_ERROR:
                    r.error = struct.unpack_from("=i", body)[0]
                    r.extack = body
                    done = True
                elif mt == NLMSG_DONE:
                    if len(body) >= 4:
                        r.error = struct.unpack_from("=i", body)[0]
                    else:
                        r.error = 0
                    done = True
                else:
                    r.msgs.append((mt, fl, body))
            if done:
                return r

    def request(self, mtype, flags, payload, expect_reply=True,
                timeout=None):
        seq = self.next_seq()
        self.send_raw(nlmsg(mtype, flags, seq, payload))
        return self.collect(seq, timeout, expect_reply)


class Genl(Netlink):
    def __init__(self, name=SEG6X_GENL_NAME, timeout=2.0):
        super().__init__(NETLINK_GENERIC, timeout)
        self.family = self.resolve(name)

    def resolve(self, name):
        r = self.request(GENL_ID_CTRL, NLM_F_REQUEST | NLM_F_ACK,
                         genlhdr(CTRL_CMD_GETFAMILY) +
                         nla(CTRL_ATTR_FAMILY_NAME, name.encode() + b"\0"))
        for _, _, body in r.msgs:
            a = attrs_dict(body[4:])
            if CTRL_ATTR_FAMILY_ID in a:
                return struct.unpack("=H", a[CTRL_ATTR_FAMILY_ID][:2])[0]
        raise OSError(-(r.error or 2), f"genl family {name} not found")

    def cmd(self, cmd, attrs=b"", flags=NLM_F_REQUEST | NLM_F_ACK,
            version=1):
        return self.request(self.family, flags,
                            genlhdr(cmd, version) + attrs)

    def dump(self, cmd, attrs=b""):
        return self.cmd(cmd, attrs, NLM_F_REQUEST | NLM_F_DUMP)

    # -- decoded reads of seg6x state --------------------------------
    def info(self):
        r = self.cmd(SEG6X_CMD_INFO_GET)
        a = attrs_dict(r.msgs[0][2][4:])
        return {"lwt_type": struct.unpack("=H", a[SEG6X_A_LWT_TYPE][:2])[0],
                "allow_inline": a[SEG6X_A_ALLOW_INLINE][0]}

    def stats(self):
        r = self.cmd(SEG6X_CMD_STATS_GET)
        if r.error or not r.msgs:
            raise OSError(-(r.error or 5), "stats")
        a = attrs_dict(r.msgs[0][2][4:])
        out = {}
        for t, _, p in parse_attrs(a[SEG6X_A_STATS]):
            if len(p) == 8:
                out[STAT_NAMES.get(t, str(t))] = struct.unpack("=Q", p)[0]
        return out

    def tunsrc(self):
        r = self.cmd(SEG6X_CMD_TUNSRC_GET)
        return attrs_dict(r.msgs[0][2][4:])[SEG6X_A_TUNSRC]

    def keys(self):
        r = self.dump(SEG6X_CMD_HMAC_GET)
        out = {}
        for _, _, body in r.msgs:
            a = attrs_dict(body[4:])
            out[struct.unpack("=I", a[SEG6X_A_HMAC_KEYID])[0]] = \
                a[SEG6X_A_HMAC_ALGO][0]
        return out

    def ifaces(self):
        """{ifindex: (enabled, require_hmac, explicit)} incl. 0 = default"""
        r = self.dump(SEG6X_CMD_IFACE_GET)
        out = {}
        for _, _, body in r.msgs:
            a = attrs_dict(body[4:])
            idx = struct.unpack("=I", a[SEG6X_A_IFINDEX])[0]
            out[idx] = (a[SEG6X_A_SEG6_ENABLED][0],
                        struct.unpack("=b", a[SEG6X_A_REQUIRE_HMAC][:1])[0],
                        a.get(SEG6X_A_IFACE_EXPLICIT, b"\0")[0])
        return out


def rt():
    return Netlink(NETLINK_ROUTE)
