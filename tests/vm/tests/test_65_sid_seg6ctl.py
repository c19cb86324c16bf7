# SPDX-License-Identifier: GPL-2.0
"""seg6ctl sid: add, replace, del, show (text and JSON with only the keys
configured), flush, save; usage errors (exit 2) before the kernel, kernel
refusals (exit 1) with the extended ack."""
import pytest

from conftest import ctl
from lib.netns import ip_batch
from lib.topo import addr6, sid

SID = "fc00:e2::100"


@pytest.fixture
def r2(chain):
    ip_batch(chain.ns["R2"], ["link add red type vrf table 10",
                              "link set red up"])
    return chain.ns["R2"]


def test_add_show_json(chain, r2):
    dev = chain.iface("R2", "R3")
    ctl("sid", "add", SID, "behavior", "End.X", "nh6", addr6(3, "R3"),
        "dev", dev, "flavors", "psp,usd", "count", ns=r2)
    ctl("sid", "add", "fc00:e2::/64", "behavior", "End.DT46", "vrf", "red",
        ns=r2)
    ctl("sid", "add", "fc00:e2::b6", "behavior", "End.B6.Encaps.Red",
        "segs", f"{sid('R3')},{sid('B')}", "hmac", 7, ns=r2)
    ctl("sid", "add", "fc00:e2:100::/48", "behavior", "End", "flavors",
        "next-csid", "lblen", 32, "nflen", 16, ns=r2)
    got = {s["sid"]: s for s in ctl("sid", "show", ns=r2, js=True)}
    assert got[SID + "/128"] == {
        "sid": SID + "/128", "behavior": "End.X", "nh6": addr6(3, "R3"),
        "dev": dev, "flavors": ["psp", "usd"],
        "packets": 0, "bytes": 0, "errors": 0}
    assert got["fc00:e2::/64"] == {"sid": "fc00:e2::/64",
                                   "behavior": "End.DT46", "vrf": "red"}
    assert got["fc00:e2::b6/128"] == {
        "sid": "fc00:e2::b6/128", "behavior": "End.B6.Encaps.Red",
        "segs": [sid("R3"), sid("B")], "hmac": 7}
    assert got["fc00:e2:100::/48"] == {
        "sid": "fc00:e2:100::/48", "behavior": "End",
        "flavors": ["next-csid"], "lblen": 32, "nflen": 16}
    one = ctl("sid", "show", "fc00:e2::/64", ns=r2, js=True)
    assert one == [got["fc00:e2::/64"]]
    text = ctl("sid", "show", SID, ns=r2).stdout
    assert text == (f"{SID}/128 behavior End.X nh6 {addr6(3, 'R3')} dev {dev} "
                    "flavors psp,usd count packets 0 bytes 0 errors 0\n")
    st = ctl("stats", ns=r2, js=True)
    assert st["sid"]["End.X"] == 0 and st["drop"]["sid"] == 0


def test_replace_del_flush(chain, r2):
    ctl("sid", "add", SID, "behavior", "End", ns=r2)
    p = ctl("sid", "add", SID, "behavior", "End.T", "table", 100, ns=r2,
            check=False)
    assert p.returncode == 1 and p.stderr.startswith("seg6ctl: ")
    assert "replace" in p.stderr
    ctl("sid", "replace", SID, "behavior", "End.T", "table", 100, ns=r2)
    assert ctl("sid", "show", ns=r2, js=True)[0]["table"] == 100
    ctl("sid", "del", SID, ns=r2)
    p = ctl("sid", "del", SID, ns=r2, check=False)
    assert p.returncode == 1 and "no such SID" in p.stderr
    ctl("sid", "add", SID, "behavior", "End", ns=r2)
    ctl("sid", "flush", ns=r2)
    assert ctl("sid", "show", ns=r2, js=True) == []


@pytest.mark.parametrize("args", [
    ["add", SID],
    ["add", SID, "behavior", "End.Y"],
    ["add", SID, "behavior", "End.X"],
    ["add", SID, "behavior", "End.T", "table", "nosuch"],
    ["add", SID, "behavior", "End", "table", "5"],
    ["add", SID, "behavior", "End", "flavors", "psp,bogus"],
    ["add", SID, "behavior", "End.DT4", "vrf", "red", "flavors", "psp"],
    ["add", SID, "behavior", "End", "lblen", "32"],
    ["add", SID, "behavior", "End", "flavors", "next-csid", "lblen", "12"],
    ["add", SID, "behavior", "End.DT6"],
    ["add", SID + "/129", "behavior", "End"],
    ["add", "10.0.0.1", "behavior", "End"],
    ["add", SID, "behavior", "End.DX4", "nh4", "fc00::1"],
    ["add", SID, "behavior", "End.B6.Encaps", "segs", ",".join(
        f"fc00::{i}" for i in range(1, 16)), "hmac", "1"],
    ["add", SID, "behavior", "End", "count", "count"],
    ["add", SID, "behavior", "End.B6.Encaps.Red", "segs", "fc00::5", "hmac",
     "3"],
    ["del"],
    ["del", SID, "extra"],
    ["show", SID, "extra"],
    ["flush", "now"],
    ["frobnicate"],
])
def test_usage_errors_exit_2(chain, r2, args):
    p = ctl("sid", *args, ns=r2, check=False)
    assert p.returncode == 2, p.stderr
    assert p.stderr.startswith("seg6ctl: ")
    assert ctl("sid", "show", ns=r2, js=True) == []


def test_kernel_refusals_exit_1(chain, r2):
    p = ctl("sid", "add", SID, "behavior", "End.DT4", "vrf",
            chain.iface("R2", "R3"), ns=r2, check=False)
    assert p.returncode == 1 and "not a VRF device" in p.stderr
    p = ctl("sid", "add", SID, "behavior", "End.DX2", "dev", "lo", ns=r2,
            check=False)
    assert p.returncode == 1 and "Ethernet" in p.stderr
    p = ctl("sid", "add", SID, "behavior", "End.X", "nh6", "fc00::1", "dev",
            "nosuchdev", ns=r2, check=False)
    assert p.returncode == 1


def test_save_round_trip(chain, r2):
    ctl("sid", "add", SID, "behavior", "End.X", "nh6", addr6(3, "R3"),
        "flavors", "psp", "count", ns=r2)
    ctl("sid", "add", "fc00:e2::/64", "behavior", "End.DT6", "vrf", "red",
        ns=r2)
    before = ctl("sid", "show", ns=r2, js=True)
    saved = ctl("save", ns=r2).stdout
    assert f"sid replace {SID}/128 behavior End.X" in saved
    assert "packets" not in saved
    ctl("sid", "flush", ns=r2)
    ctl("-b", "-", ns=r2, input=saved)
    after = ctl("sid", "show", ns=r2, js=True)
    key = lambda s: s["sid"]   # noqa: E731
    assert sorted(after, key=key) == sorted(before, key=key)


def test_owner_shown_and_saved(chain, r2):
    """A program's mark (seg6x-fpmd's) is kept by the kernel, shown, and
    replayed by save; SIDs without one show none."""
    ctl("sid", "add", SID, "behavior", "End", "owner", "fpmd", ns=r2)
    ctl("sid", "add", "fc00:e2::101", "behavior", "End", "owner", 7, ns=r2)
    ctl("sid", "add", "fc00:e2::102", "behavior", "End", ns=r2)
    got = {s["sid"]: s.get("owner") for s in ctl("sid", "show", ns=r2,
                                                  js=True)}
    assert got == {SID + "/128": "fpmd", "fc00:e2::101/128": "7",
                   "fc00:e2::102/128": None}
    assert ctl("sid", "show", SID, ns=r2).stdout == \
        f"{SID}/128 behavior End owner fpmd\n"
    saved = ctl("save", ns=r2).stdout
    assert f"sid replace {SID}/128 behavior End owner fpmd\n" in saved
    p = ctl("sid", "add", SID, "behavior", "End", "owner", "zebra", ns=r2,
            check=False)
    assert p.returncode == 2


def test_identical_replace_keeps_counters(chain, r2):
    """Re-applying a configuration changes nothing: replacing a SID with
    an identical one keeps it, and its counters; a difference (here the
    owner) makes a new SID, counting from zero."""
    from scapy.all import IPv6, Raw
    from lib.sidtest import A_SRC, emit, frame_to_r2, marker, udp6
    from lib.srv6 import NH_IPV6, NH_ROUTING, srh
    m = marker()
    segs = [sid("R3"), SID]
    frame = frame_to_r2(IPv6(src=A_SRC, dst=SID, nh=NH_ROUTING) /
                        Raw(srh(segs, sl=1, nh=NH_IPV6) +
                            udp6(A_SRC, addr6(4, "B"), m)))
    ctl("sid", "add", SID, "behavior", "End", "count", ns=r2)
    assert len(emit(chain, frame, ("R3", chain.iface("R3", "R2")), m)) == 1

    def packets():
        return ctl("sid", "show", SID, ns=r2, js=True)[0]["packets"]
    assert packets() == 1
    ctl("sid", "replace", SID, "behavior", "End", "count", ns=r2)
    assert packets() == 1
    ctl("sid", "replace", SID, "behavior", "End", "count", "owner", 9,
        ns=r2)
    assert packets() == 0
