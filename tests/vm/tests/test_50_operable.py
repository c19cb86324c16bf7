# SPDX-License-Identifier: GPL-2.0
"""seg6ctl on a real host: save and -b round trip, -b -force, iproute2
habits of route del, secret files that others can read."""
import os
import subprocess

import pytest

from conftest import SEG6CTL, ctl
from lib.netns import ip_batch, sh

NS = "op"
SECRET7 = "correct horse battery staple\n"
SECRET8 = "an other secret\n"


def make_ns(name=NS):
    sh(["ip", "netns", "add", name])
    ip_batch(name, [
        "link set lo up",
        "link add d0 type dummy", "link set d0 up",
        "link add d1 type dummy", "link set d1 up",
        "addr add fc00:1::1/64 dev d0 nodad",
        "addr add fc00:2::1/64 dev d1 nodad",
        "addr add 10.1.0.1/24 dev d1",
    ])


def del_ns(name=NS):
    sh(["ip", "netns", "del", name], check=False)


@pytest.fixture
def ns(seg6x):
    del_ns()
    make_ns()
    yield NS
    del_ns()


def key_file(path, secret, mode=0o600):
    path.write_text(secret)
    os.chmod(path, mode)
    return str(path)


def state(ns):
    """Everything save is meant to keep, as the JSON of the show commands."""
    return {
        "route": ctl("route", "show", "table", "all", ns=ns, js=True),
        "iface": ctl("iface", "show", ns=ns, js=True),
        "tunsrc": ctl("tunsrc", "show", ns=ns, js=True),
        "hmac": ctl("hmac", "show", ns=ns, js=True),
    }


def batch(ns, path, *opts):
    cmd = [SEG6CTL, "-n", ns, *opts, "-b", str(path)]
    return subprocess.run(cmd, capture_output=True, text=True)


def configure(ns, tmp_path):
    ctl("tunsrc", "set", "fc00:ff::1", ns=ns)
    ctl("iface", "set", "default", "seg6_enabled", "1", "require_hmac", "0",
        ns=ns)
    ctl("iface", "set", "d0", "seg6_enabled", "0", "require_hmac", "1", ns=ns)
    ctl("iface", "set", "d1", "require_hmac", "-1", ns=ns)
    ctl("hmac", "set", "7", "sha256", "secret-file",
        key_file(tmp_path / "k7", SECRET7), ns=ns)
    ctl("hmac", "set", "8", "sha1", ns=ns, input=SECRET8)
    ctl("route", "add", "fc00:4::/64", "mode", "encap",
        "segs", "fc00:ff::2,fc00:ff::3", "hmac", "7", "dev", "d0",
        "via", "fe80::2", ns=ns)
    ctl("route", "add", "fc00:5::/64", "encap", "seg6", "mode", "inline",
        "segs", "fc00:ff::4", "hmac", "8", "dev", "d1", "table", "100",
        "metric", "50", ns=ns)
    ctl("route", "add", "198.51.100.0/24", "mode", "encap",
        "segs", "fc00:ff::5", "dev", "d1", "via", "10.1.0.2",
        "table", "100", ns=ns)
    ctl("route", "add", "default", "mode", "encap", "segs", "fc00:ff::6",
        "dev", "d0", "table", "200", ns=ns)
    # Not seg6x's: save leaves it out, as route show does.
    sh(["ip", "-n", ns, "-6", "route", "add", "fc00:9::/64", "dev", "d0"])


def test_save_round_trip(ns, tmp_path):
    configure(ns, tmp_path)
    before = state(ns)
    assert len(before["route"]) == 4
    assert {r["table"] for r in before["route"]} == {254, 100, 200}
    assert before["hmac"] == [{"keyid": 7, "algo": "sha256"},
                              {"keyid": 8, "algo": "sha1"}]

    keydir = tmp_path / "keys"
    keydir.mkdir()
    saved = ctl("save", "keydir", str(keydir), ns=ns).stdout
    assert "correct horse" not in saved and "an other" not in saved
    assert "fc00:9::" not in saved
    assert saved.count("route replace ") == 4
    conf = tmp_path / "seg6x.conf"
    conf.write_text(saved)

    # The operator puts the secrets where save said they would be.
    key_file(keydir / "7", SECRET7)
    key_file(keydir / "8", SECRET8)

    # A fresh namespace with the same interfaces: nothing of seg6x left.
    del_ns()
    make_ns()
    assert state(ns) != before
    p = batch(ns, conf)
    assert p.returncode == 0, p.stderr
    assert state(ns) == before

    # Applying it again changes nothing and fails nowhere.
    p = batch(ns, conf)
    assert p.returncode == 0, p.stderr
    assert state(ns) == before
    assert ctl("save", "keydir", str(keydir), ns=ns).stdout == saved


def test_batch_force(ns, tmp_path):
    f = tmp_path / "conf"
    f.write_text("tunsrc set fc00::1\n"
                 "route add fc00:7::/64 mode encap segs fc00::9 dev nosuch0\n"
                 "# a comment\n"
                 "iface set default seg6_enabled 1\n"
                 "hmac set 9 md5\n"
                 "tunsrc set fc00::2\n")

    # Without -force: the first failing line stops the batch.
    p = batch(ns, f)
    assert p.returncode == 1
    assert p.stderr.startswith(f"seg6ctl: {f}:2: ")
    assert f"{f}:5:" not in p.stderr
    assert ctl("tunsrc", "show", ns=ns, js=True) == {"tunsrc": "fc00::1"}

    # With -force (anywhere among the options): every line runs.
    for opts in (["-force"], ["-j", "-force"]):
        ctl("tunsrc", "set", "::", ns=ns)
        p = batch(ns, f, *opts)
        assert p.returncode == 1, opts
        assert f"seg6ctl: {f}:2: cannot find device \"nosuch0\"" in p.stderr
        assert f"seg6ctl: {f}:5: unknown algorithm" in p.stderr
        assert f"{f}:1:" not in p.stderr and f"{f}:4:" not in p.stderr
        assert ctl("tunsrc", "show", ns=ns, js=True) == {"tunsrc": "fc00::2"}
        assert ctl("iface", "show", "default", ns=ns, js=True) == \
            [{"ifname": "default", "seg6_enabled": 1, "require_hmac": 0}]
    p = subprocess.run([SEG6CTL, "-n", ns, "-b", str(f), "-force"],
                       capture_output=True, text=True)
    assert p.returncode == 1 and f"{f}:5:" in p.stderr

    # Usage errors count as failures too; a clean file exits 0.
    f.write_text("tunsrc set fc00::3\n")
    assert batch(ns, f, "-force").returncode == 0


def test_route_del_only_seg6x(ns):
    ip = ["ip", "-n", ns, "-6", "route"]
    sh(ip + ["add", "fc00:9::/64", "dev", "d0"])
    p = ctl("route", "del", "fc00:9::/64", ns=ns, check=False)
    assert p.returncode == 1
    assert p.stderr == "seg6ctl: fc00:9::/64 is not a seg6x route\n"
    assert "fc00:9::/64" in sh(ip + ["show", "fc00:9::/64"]).stdout

    # A plain route and a seg6x route of one prefix: only ours goes.
    sh(ip + ["add", "fc00:8::/64", "dev", "d0", "metric", "100"])
    ctl("route", "add", "fc00:8::/64", "mode", "encap", "segs", "fc00::9",
        "dev", "d0", "metric", "200", ns=ns)
    ctl("r", "d", "fc00:8::/64", ns=ns)
    assert ctl("route", "ls", ns=ns, js=True) == []
    assert "metric 100" in sh(ip + ["show", "fc00:8::/64"]).stdout

    ctl("route", "add", "default", "mode", "encap", "segs", "fc00::9",
        "dev", "d0", ns=ns)
    assert ctl("route", "show", ns=ns, js=True)[0]["dst"] == "::/0"
    ctl("route", "delete", "default", ns=ns)
    p = ctl("route", "del", "default", ns=ns, check=False)
    assert p.returncode == 1 and p.stderr == "seg6ctl: no such route\n"


def test_route_flush_many(ns, tmp_path):
    """flush deletes every seg6x route of the table it is given (more
    than one batch of deletes, with next hops and metrics), IPv4 too, and
    leaves plain routes and other tables alone."""
    ip = ["ip", "-n", ns]
    lines = [f"route add fc00:{i:x}::/64 mode encap segs fc00::9 dev d0 "
             f"metric {100 + i}" for i in range(1, 301)]
    lines += [f"route add 10.9.{i}.0/24 mode encap segs fc00::9 dev d1 "
              f"via 10.1.0.2" for i in range(40)]
    lines += ["route add fc00:aaaa::/64 mode encap segs fc00::9 dev d0 "
              "table 100"]
    path = tmp_path / "many.batch"
    path.write_text("\n".join(lines) + "\n")
    assert batch(ns, path).returncode == 0
    sh(ip + ["-6", "route", "add", "fc00:1::/64", "dev", "d0", "metric",
             "50"])
    assert len(ctl("route", "show", ns=ns, js=True)) == 340

    ctl("route", "flush", ns=ns)
    assert ctl("route", "show", ns=ns, js=True) == []
    assert [r["table"] for r in ctl("route", "show", "table", "all",
                                    ns=ns, js=True)] == [100]
    assert "metric 50" in sh(ip + ["-6", "route", "show",
                                   "fc00:1::/64"]).stdout
    ctl("route", "flush", "table", "100", ns=ns)
    assert ctl("route", "show", "all", ns=ns, js=True) == []


def test_secret_file_mode(ns, tmp_path):
    f = key_file(tmp_path / "k", "s3cret\n", 0o644)
    p = ctl("hmac", "set", "7", "sha256", "secret-file", f, ns=ns,
            check=False)
    assert p.returncode == 1
    assert p.stderr == \
        f"seg6ctl: {f} is readable by group or others; chmod 600 {f}\n"
    p = ctl("hmac", "set", "7", "sha256", "secret-file", str(tmp_path),
            ns=ns, check=False)
    assert p.returncode == 1 and "not a regular file" in p.stderr
    assert ctl("hmac", "show", ns=ns, js=True) == []
    os.chmod(f, 0o600)
    ctl("hmac", "set", "7", "sha256", "secret-file", f, ns=ns)
    assert ctl("hmac", "show", ns=ns, js=True) == \
        [{"keyid": 7, "algo": "sha256"}]


def test_unprivileged_writes_refused(seg6x):
    for args, stdin in ((["tunsrc", "set", "fc00::1"], None),
                        (["stats", "reset"], None),
                        (["hmac", "set", "7", "sha256"], "s3cret\n"),
                        (["iface", "set", "default", "seg6_enabled", "1"],
                         None)):
        p = subprocess.run([SEG6CTL, *args], input=stdin, user=65534,
                           group=65534, extra_groups=[], capture_output=True,
                           text=True)
        assert p.returncode == 1, args
        assert "Operation not permitted" in p.stderr, args
