# SPDX-License-Identifier: GPL-2.0
"""seg6ctl sync FILE: the namespace's configuration made what FILE
declares. Added, changed, deleted, and left alone when the same (a SID's
counters go on counting); a file with an error refused whole; --dry-run
changes nothing; routes and SIDs of another owner (fpmd) untouched; a
step the kernel refuses reported with its line, the others taken."""
import json
import os
import subprocess

import pytest
from scapy.all import ICMPv6EchoRequest, IPv6

from conftest import SEG6CTL, ctl, wait_until
from lib.netns import Tap, ip_batch, sh
from lib.sidtest import A_SRC, SID, frame_to_r2, marker

NS = "sync"
SECRET = "sync secret\n"


@pytest.fixture
def ns(seg6x):
    sh(["ip", "netns", "del", NS], check=False)
    sh(["ip", "netns", "add", NS])
    ip_batch(NS, [
        "link set lo up",
        "link add d0 type dummy", "link set d0 up",
        "link add d1 type dummy", "link set d1 up",
        "addr add fc00:1::1/64 dev d0 nodad",
        "addr add 10.1.0.1/24 dev d1",
    ])
    yield NS
    sh(["ip", "netns", "del", NS], check=False)


def sync(ns, path, *args, js=False):
    cmd = [SEG6CTL, "-n", ns] + (["-j"] if js else []) + \
        ["sync", *args, str(path)]
    return subprocess.run(cmd, capture_output=True, text=True)


def write(tmp_path, text, name="seg6x.conf"):
    key = tmp_path / "k7"
    key.write_text(SECRET)
    os.chmod(key, 0o600)
    f = tmp_path / name
    f.write_text(text.replace("KEY", str(key)))
    return f


def state(ns):
    """What sync manages, as the show commands give it."""
    return {
        "route": ctl("route", "show", "all", ns=ns, js=True),
        "sid": ctl("sid", "show", ns=ns, js=True),
        "iface": ctl("iface", "show", ns=ns, js=True),
        "tunsrc": ctl("tunsrc", "show", ns=ns, js=True),
        "hmac": ctl("hmac", "show", ns=ns, js=True),
    }


def routes(ns):
    return {(r["dst"], r["table"]): r for r in
            ctl("route", "show", "all", ns=ns, js=True)}


def sids(ns):
    return {s["sid"]: s for s in ctl("sid", "show", ns=ns, js=True)}


def iface(ns, name):
    return ctl("iface", "show", name, ns=ns, js=True)[0]


V1 = """# version 1
hmac set 7 sha256 secret-file KEY
tunsrc set fc00:ff::1
iface set d0 seg6_enabled 1 require_hmac 1
route replace fc00:7::/64 mode encap segs fc00:ff::2,fc00:ff::3 hmac 7 dev d0
route add 198.51.100.0/24 mode encap segs fc00:ff::9 dev d1 table 100
sid add fc00:e2::100 behavior End count
sid add fc00:e2::200 behavior End.T table 100
"""

V2 = """# version 2: one route changed, one gone, a SID gone, one new
hmac set 7 sha256 secret-file KEY
tunsrc set fc00:ff::5
route replace fc00:7::/64 mode encap segs fc00:ff::4 hmac 7 dev d0
sid add fc00:e2::100 behavior End count
sid add fc00:e2::300/64 behavior End
"""


def test_add_change_delete_unchanged(ns, tmp_path):
    # a plain route of the namespace: never sync's
    sh(["ip", "-n", ns, "-6", "route", "add", "fc00:9::/64", "dev", "d0"])
    f = write(tmp_path, V1)
    p = sync(ns, f)
    assert p.returncode == 0, p.stderr
    r = routes(ns)
    assert r[("fc00:7::/64", 254)]["segs"] == ["fc00:ff::2", "fc00:ff::3"]
    assert r[("fc00:7::/64", 254)]["hmac"] == 7
    assert r[("198.51.100.0/24", 100)]["dev"] == "d1"
    assert set(sids(ns)) == {"fc00:e2::100/128", "fc00:e2::200/128"}
    assert ctl("hmac", "show", ns=ns, js=True) == \
        [{"keyid": 7, "algo": "sha256"}]
    assert ctl("tunsrc", "show", ns=ns, js=True) == {"tunsrc": "fc00:ff::1"}
    assert (iface(ns, "d0")["seg6_enabled"], iface(ns, "d0")["require_hmac"]) \
        == (1, 1)

    # Unchanged: only the key is set again (its secret cannot be read
    # back to compare); nothing else changes.
    before = state(ns)
    p = sync(ns, f, "--dry-run")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == [
        "~ hmac 7 sha256 # set again: the kernel gives no secret back to compare"]
    p = sync(ns, f)
    assert p.returncode == 0, p.stderr
    assert state(ns) == before

    # Version 2: changed, deleted, added; d0's own settings dropped.
    p = sync(ns, write(tmp_path, V2))
    assert p.returncode == 0, p.stderr
    r = routes(ns)
    assert set(r) == {("fc00:7::/64", 254)}
    assert r[("fc00:7::/64", 254)]["segs"] == ["fc00:ff::4"]
    assert set(sids(ns)) == {"fc00:e2::100/128", "fc00:e2::/64"}
    assert ctl("tunsrc", "show", ns=ns, js=True) == {"tunsrc": "fc00:ff::5"}
    default = iface(ns, "default")
    d0 = iface(ns, "d0")
    assert (d0["seg6_enabled"], d0["require_hmac"]) == \
        (default["seg6_enabled"], default["require_hmac"])
    assert "fc00:9::/64" in sh(["ip", "-n", ns, "-6", "route", "show",
                                "fc00:9::/64"]).stdout

    # An empty file (seg6x.service's stop): nothing of sync's left.
    p = sync(ns, "/dev/null")
    assert p.returncode == 0, p.stderr
    assert routes(ns) == {} and sids(ns) == {}
    assert ctl("hmac", "show", ns=ns, js=True) == []
    assert ctl("tunsrc", "show", ns=ns, js=True) == {"tunsrc": "::"}
    assert "fc00:9::/64" in sh(["ip", "-n", ns, "-6", "route", "show",
                                "fc00:9::/64"]).stdout


def test_saved_configuration_is_in_sync(ns, tmp_path):
    """What save prints, synced back, changes nothing but the keys."""
    p = sync(ns, write(tmp_path, V1))
    assert p.returncode == 0, p.stderr
    keydir = tmp_path / "keys"
    keydir.mkdir()
    (keydir / "7").write_text(SECRET)
    os.chmod(keydir / "7", 0o600)
    saved = tmp_path / "saved.conf"
    saved.write_text(ctl("save", "keydir", str(keydir), ns=ns).stdout)
    p = sync(ns, saved, "--dry-run")
    assert p.returncode == 0, p.stderr
    assert [x[:10] for x in p.stdout.splitlines()] == ["~ hmac 7 s"]


def _ping_sid(c):
    """An echo request from R1's side to the SID of R2 (End, SL 0: it is
    answered, and counted)."""
    m = marker()
    pkt = IPv6(src=A_SRC, dst=SID, nh=58) / ICMPv6EchoRequest(
        id=0x54, seq=1, data=m)
    Tap(c.ns["R1"], c.iface("R1", "R2")).send(frame_to_r2(pkt))


def _packets(r2):
    return ctl("sid", "show", SID, ns=r2, js=True)[0]["packets"]


def test_unchanged_sid_keeps_counting(chain, tmp_path):
    c = chain
    r2 = c.ns["R2"]
    f = write(tmp_path, f"sid add {SID} behavior End count\n"
                        f"route replace fc00:7::/64 mode encap segs "
                        f"fc00:ff::3 dev {c.iface('R2', 'R3')}\n")
    p = sync(r2, f)
    assert p.returncode == 0, p.stderr
    _ping_sid(c)
    assert wait_until(lambda: _packets(r2) == 1)

    # the same file again: no write, the counters go on
    assert sync(r2, f, "--dry-run").stdout == ""
    p = sync(r2, f)
    assert p.returncode == 0, p.stderr
    assert _packets(r2) == 1
    _ping_sid(c)
    assert wait_until(lambda: _packets(r2) == 2)

    # the SID changed: built again, its counters start over
    f = write(tmp_path, f"sid add {SID} behavior End flavors psp count\n"
                        f"route replace fc00:7::/64 mode encap segs "
                        f"fc00:ff::3 dev {c.iface('R2', 'R3')}\n")
    p = sync(r2, f)
    assert p.returncode == 0, p.stderr
    assert _packets(r2) == 0


@pytest.mark.parametrize("bad,line,code", [
    ("route replace fc00:8::/64 mode encap segs ff02::1 dev d0\n", 3, 2),
    ("route del fc00:7::/64\n", 3, 2),
    ("sid flush\n", 3, 2),
    ("stats reset\n", 3, 2),
    ("route add fc00:7::/64 mode encap segs fc00::1 dev d0\n", 3, 2),
    ("sid add fc00:e2::5 behavior End.Y\n", 3, 2),
    ("hmac set 8 sha256 secret-file /nonexistent/k8\n", 3, 1),
])
def test_file_with_error_changes_nothing(ns, tmp_path, bad, line, code):
    p = sync(ns, write(tmp_path, V1))
    assert p.returncode == 0, p.stderr
    before = state(ns)
    f = write(tmp_path, "tunsrc set fc00:ff::7\n"
                        "route add fc00:7::/64 mode encap segs fc00::2 dev d0\n"
                        + bad + "sid add fc00:e2::400 behavior End\n",
              name="bad.conf")
    p = sync(ns, f)
    assert p.returncode == code, p
    assert p.stderr.startswith(f"seg6ctl: {f}:{line}: "), p.stderr
    assert state(ns) == before
    # --dry-run refuses it alike; -c (offline) too, but for the secret
    # file, which belongs to the target machine
    assert sync(ns, f, "--dry-run").returncode == code
    p = subprocess.run([SEG6CTL, "-c", "sync", str(f)], capture_output=True,
                       text=True)
    assert p.returncode == (code if code == 2 else 0), p.stderr


def test_dry_run_changes_nothing(ns, tmp_path):
    p = sync(ns, write(tmp_path, V1))
    assert p.returncode == 0, p.stderr
    before = state(ns)
    f = write(tmp_path, V2, name="v2.conf")
    p = sync(ns, f, "--dry-run")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert "~ tunsrc fc00:ff::5" in lines
    assert "+ sid fc00:e2::/64 behavior End" in lines
    assert "- sid fc00:e2::200/128 behavior End.T table 100" in lines
    assert any(x.startswith("~ route fc00:7::/64 mode encap segs fc00:ff::4")
               for x in lines)
    assert any(x.startswith("- route 198.51.100.0/24 ") for x in lines)
    assert any(x.startswith("~ iface d0 ") for x in lines)
    assert state(ns) == before

    p = sync(ns, f, "--dry-run", js=True)
    assert p.returncode == 0, p.stderr
    plan = json.loads(p.stdout)
    assert {(s["action"], s["object"]) for s in plan} >= {
        ("change", "tunsrc"), ("add", "sid"), ("delete", "sid"),
        ("change", "route"), ("delete", "route"), ("change", "hmac")}
    assert state(ns) == before


def test_foreign_owner_untouched(ns, tmp_path):
    ctl("route", "add", "fc00:70::/64", "mode", "encap", "segs", "fc00::70",
        "dev", "d0", "owner", "fpmd", ns=ns)
    ctl("sid", "add", "fc00:e2::70", "behavior", "End", "owner", "fpmd",
        ns=ns)
    theirs = (routes(ns), sids(ns))

    p = sync(ns, write(tmp_path, V1))
    assert p.returncode == 0, p.stderr
    assert routes(ns)[("fc00:70::/64", 254)] == \
        theirs[0][("fc00:70::/64", 254)]
    assert "fc00:e2::70/128" in sids(ns)
    p = sync(ns, "/dev/null")
    assert p.returncode == 0, p.stderr
    assert (routes(ns), sids(ns)) == theirs

    # the file wants their place: refused with its line, nothing else lost
    f = write(tmp_path, "tunsrc set fc00:ff::8\n"
                        "route replace fc00:70::/64 mode encap segs fc00::1 "
                        "dev d0\n", name="clash.conf")
    p = sync(ns, f)
    assert p.returncode == 1
    assert f"seg6ctl: {f}:2: " in p.stderr and "owner fpmd" in p.stderr
    assert (routes(ns), sids(ns)) == theirs
    assert ctl("tunsrc", "show", ns=ns, js=True) == {"tunsrc": "fc00:ff::8"}
    assert sync(ns, f, "--dry-run").stdout.startswith("! route fc00:70::/64 ")

    # a file that names the owner manages its entries
    p = sync(ns, write(tmp_path, "sid add fc00:e2::70 behavior End owner "
                                 "fpmd\n", name="own.conf"))
    assert p.returncode == 0, p.stderr
    assert routes(ns) == {} and set(sids(ns)) == {"fc00:e2::70/128"}

    # --all-owners: everything is the file's
    p = sync(ns, "/dev/null", "--all-owners")
    assert p.returncode == 0, p.stderr
    assert sids(ns) == {}


def test_refused_step_reported_others_taken(ns, tmp_path):
    f = write(tmp_path, "tunsrc set fc00:ff::1\n"
                        "route replace fc00:7::/64 mode encap segs fc00::2 "
                        "dev nosuch0\n"
                        "sid add fc00:e2::100 behavior End.DX2 dev lo\n"
                        "sid add fc00:e2::200 behavior End\n")
    p = sync(ns, f)
    assert p.returncode == 1
    assert f"seg6ctl: {f}:2: " in p.stderr and "nosuch0" in p.stderr
    assert f"seg6ctl: {f}:3: " in p.stderr and "Ethernet" in p.stderr
    assert "2 of 4 changes failed" in p.stderr
    assert ctl("tunsrc", "show", ns=ns, js=True) == {"tunsrc": "fc00:ff::1"}
    assert set(sids(ns)) == {"fc00:e2::200/128"}
    assert routes(ns) == {}

    # a plain route in the place of one of the file's: not replaced
    sh(["ip", "-n", ns, "-6", "route", "add", "fc00:8::/64", "dev", "d0"])
    f = write(tmp_path, "route add fc00:8::/64 mode encap segs fc00::2 "
                        "dev d0\n", name="plain.conf")
    p = sync(ns, f)
    assert p.returncode == 1 and "not seg6x's" in p.stderr, p.stderr
    assert routes(ns) == {}
