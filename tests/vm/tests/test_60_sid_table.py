# SPDX-License-Identifier: GPL-2.0
"""Local SID table: configuration over generic netlink (add, replace,
delete, dump, flush), the kernel's validation with extended ack, and
devices going away under a SID."""
import errno
import time

import pytest
from scapy.all import IPv6, Raw

from lib.netns import ip_batch
from lib.sidnl import SidNl, extack_msg, ifindex
from lib.sidtest import A_SRC, SID, frame_to_r2, marker, udp6
from lib.srv6 import NH_IPV6, srh
from lib.timing import scaled
from lib.topo import addr6, sid


@pytest.fixture
def r2(chain):
    nl = SidNl(chain.ns["R2"])
    yield nl
    nl.close()


def test_add_show_del_flush(chain, r2):
    eth = ifindex(chain.ns["R2"], chain.iface("R2", "R3"))
    r2.must_add(SID, "End")
    r2.must_add("fc00:e2::/64", "End.X", nh6=addr6(3, "R3"), oif=eth,
                flavors="psp,usd", count=True)
    r2.must_add("fc00:e2::200", "End.B6.Encaps.Red",
                segs=[sid("R3"), sid("B")])
    got = {s["sid"]: s for s in r2.show()}
    assert got[SID + "/128"] == {"sid": SID + "/128", "behavior": "End"}
    assert got["fc00:e2::/64"] == {
        "sid": "fc00:e2::/64", "behavior": "End.X", "nh6": addr6(3, "R3"),
        "oif": eth, "flavors": 5, "packets": 0, "bytes": 0, "errors": 0}
    assert got["fc00:e2::200/128"]["segs"] == [sid("R3"), sid("B")]
    assert r2.get("fc00:e2::1/64")["behavior"] == "End.X"   # masked

    r = r2.add(SID, "End.T", table=100)
    assert r.error == -errno.EEXIST and "replace" in extack_msg(r)
    r = r2.add(SID, "End.T", table=100, replace=True)
    assert r.error == 0, extack_msg(r)
    assert r2.get(SID)["behavior"] == "End.T"

    assert r2.delete(SID).error == 0
    r = r2.delete(SID)
    assert r.error == -errno.ENOENT and extack_msg(r) == "no such SID"
    assert r2.flush().error == 0
    assert r2.show() == []


@pytest.mark.parametrize("beh,kw,msg", [
    ("End.X", {}, "this behavior needs nh6"),
    ("End.T", {}, "this behavior needs table"),
    ("End.DX4", {}, "this behavior needs nh4"),
    ("End.DT4", {}, "this behavior needs vrf"),
    ("End.DT46", {}, "this behavior needs vrf"),
    ("End.DX2", {}, "this behavior needs dev"),
    ("End.B6.Encaps", {}, "this behavior needs segs"),
    ("End.DT6", {}, "End.DT6 needs a table or a vrf (one of them)"),
    ("End.DT6", {"table": 10, "vrf": 1}, "End.DT6 needs a table or a vrf (one of them)"),
    ("End.DX6", {"nh6": "fc00::1", "flavors": "psp"},
     "flavors are defined for End, End.X and End.T only"),
    ("End", {"table": 5}, "attribute not used by this behavior"),
    ("End", {"flavors": 0x40}, "unknown flavor"),
    ("End", {"lblen": 32}, "lblen and nflen go with the next-csid flavor"),
    ("End", {"flavors": "next-csid", "lblen": 12},
     "lblen and nflen must be multiples of 8 from 8 to 120, together at most 128"),
    ("End.X", {"nh6": "fc00::1", "flavors": "next-csid", "lblen": 120,
               "nflen": 16},
     "lblen and nflen must be multiples of 8 from 8 to 120, together at most 128"),
    ("End.X", {"nh6": "ff02::1"}, "nh6 must be a unicast address"),
    ("End.DT4", {"vrf": 1}, "not a VRF device"),
    ("End.DX2", {"oif": 1}, "End.DX2 needs an Ethernet device"),
    ("End.DX6", {"nh6": "fc00::1", "oif": 999}, "no such interface in this namespace"),
    ("End.B6.Encaps", {"segs": ["ff02::2"]}, "segments must be unicast addresses"),
    ("End.B6.Encaps.Red", {"segs": ["fc00::2"], "hmac": 3},
     "a reduced SRH with hmac needs 2 segments or more"),
    (99, {}, None),
])
def test_kernel_validation(chain, r2, beh, kw, msg):
    r = r2.add(SID, beh, **kw)
    assert r.error in (-errno.EINVAL, -errno.ENODEV, -errno.ERANGE)
    if msg:
        assert extack_msg(r) == msg
    assert r2.show() == []


def test_rules_of_the_uapi_list(chain, r2):
    """The module enforces each behaviour's line of SEG6X_BEHAVIOR_LIST
    (the rules seg6ctl checks offline too): the required attributes
    suffice, each one is needed, any other is refused, and flavours only
    where the line gives some."""
    from lib import uapi
    ns = chain.ns["R2"]
    ip_batch(ns, ["link add red type vrf table 10", "link set red up"])
    value = {
        uapi.SEG6X_SID_NH6: ("nh6", "fc00::1"),
        uapi.SEG6X_SID_NH4: ("nh4", "10.0.0.1"),
        uapi.SEG6X_SID_OIF: ("oif", ifindex(ns, chain.iface("R2", "R3"))),
        uapi.SEG6X_SID_TABLE: ("table", 100),
        uapi.SEG6X_SID_VRF: ("vrf", ifindex(ns, "red")),
        uapi.SEG6X_SID_SEGS: ("segs", [sid("R3"), sid("B")]),
        uapi.SEG6X_SID_HMAC_KEYID: ("hmac", 3),
    }

    def kw(bits):
        return dict(value[a] for a in value if bits & (1 << a))

    assert len(uapi.BEHAVIOR_RULES) == uapi.SEG6X_BEHAVIOR_MAX
    for b, (req, opt, flv) in uapi.BEHAVIOR_RULES.items():
        name = uapi.BEHAVIOR_NAMES[b]
        base = req
        if b == uapi.SEG6X_BEHAVIOR_END_DT6:    # one of its two optional
            base = 1 << uapi.SEG6X_SID_TABLE
        r = r2.add(SID, name, **kw(base))
        assert r.error == 0, (name, extack_msg(r))
        assert r2.delete(SID).error == 0
        for a in value:
            bit = 1 << a
            if req & bit:
                r = r2.add(SID, name, **kw(req & ~bit))
                assert r.error == -errno.EINVAL, (name, value[a][0])
            elif not opt & bit:
                r = r2.add(SID, name, **kw(base | bit))
                assert r.error == -errno.EINVAL, (name, value[a][0])
                assert extack_msg(r) == "attribute not used by this behavior"
        r = r2.add(SID, name, flavors="psp", **kw(base))
        assert (r.error == 0) == bool(flv & uapi.SEG6X_FLV_PSP), name
        r2.delete(SID)
    assert r2.show() == []


def test_reply_only_attributes_refused(chain, r2):
    from lib.nlraw import nla
    from lib.sidnl import SID_DEAD
    r = r2.add(SID, "End", raw=nla(SID_DEAD, b"\1"))
    assert r.error == -errno.EINVAL and r2.show() == []


def test_writes_need_privilege_reads_do_not(chain, r2):
    import os
    from lib.netns import _setns
    from lib.nlraw import Genl, NLM_F_DUMP, NLM_F_REQUEST
    from lib.sidnl import CMD_SID_GET, CMD_SID_SET, sid_attrs
    r2.must_add(SID, "End")
    pid = os.fork()
    if pid == 0:
        code = 9
        try:
            _setns(os.open(f"/run/netns/{chain.ns['R2']}", os.O_RDONLY))
            os.setgid(65534)
            os.setuid(65534)
            g = Genl()
            w = g.cmd(CMD_SID_SET, sid_attrs("fc00:e2::7", "End"))
            d = g.cmd(CMD_SID_GET, b"", NLM_F_REQUEST | NLM_F_DUMP)
            code = 0 if (w.error == -errno.EPERM and d.error == 0 and
                         len(d.msgs) == 1) else 1
        finally:
            os._exit(code)
    _, st = os.waitpid(pid, 0)
    assert os.WEXITSTATUS(st) == 0
    assert [s["sid"] for s in r2.show()] == [SID + "/128"]


def test_dead_device_drops_and_counts(chain, r2):
    """Deleting the interface (or VRF) a SID uses, under traffic: the SID
    drops and counts, nothing crashes, replace revives it."""
    c = chain
    ip_batch(c.ns["R2"], ["link add dx0 type veth peer name dx1",
                          "link set dx0 up", "link set dx1 up",
                          "link add red type vrf table 10",
                          "link set red up"])
    dx0 = ifindex(c.ns["R2"], "dx0")
    red = ifindex(c.ns["R2"], "red")
    r2.must_add(SID, "End.DX6", nh6=addr6(3, "R3"), oif=dx0, count=True)
    r2.must_add("fc00:e2::101", "End.DT4", vrf=red, count=True)
    r2.must_add("fc00:e2::102", "End.X", nh6=addr6(3, "R3"), oif=dx0,
                count=True)
    frames = []
    for s in (SID, "fc00:e2::101", "fc00:e2::102"):
        m = marker()
        inner = udp6(A_SRC, addr6(4, "B"), m)
        h = srh([s], sl=0, nh=NH_IPV6) if s != "fc00:e2::102" else \
            srh([addr6(4, "B"), s], sl=1, nh=NH_IPV6)
        frames.append(frame_to_r2(IPv6(src=A_SRC, dst=s, nh=43) /
                                  Raw(h + inner)))
    import threading
    from lib.netns import Tap
    tap = Tap(c.ns["R1"], c.iface("R1", "R2"))
    stop = threading.Event()

    def blast():
        while not stop.is_set():
            for f in frames:
                try:
                    tap.send(f)
                except BlockingIOError:
                    time.sleep(0.001)
    sender = threading.Thread(target=blast)
    sender.start()
    try:
        time.sleep(scaled(0.3))
        # deleted while packets keep coming
        ip_batch(c.ns["R2"], ["link del dx0", "link del red"])
        time.sleep(scaled(0.3))
    finally:
        stop.set()
        sender.join()
    for _ in range(20):
        for f in frames:
            tap.send(f)
    time.sleep(scaled(0.5))
    got = {s["sid"]: s for s in r2.show()}
    for s in (SID, "fc00:e2::101", "fc00:e2::102"):
        e = got[s + "/128"]
        assert e.get("dead") is True
        assert e["errors"] >= 20
    assert r2.stats()["drop_sid"] >= 60
    # replace with a live device: works again
    r = r2.add(SID, "End.DX6", nh6=addr6(3, "R3"), replace=True)
    assert r.error == 0, extack_msg(r)
    assert "dead" not in r2.get(SID)
    # and deleting the SIDs afterwards is clean
    assert r2.flush().error == 0
