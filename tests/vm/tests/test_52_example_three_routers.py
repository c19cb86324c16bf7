# SPDX-License-Identifier: GPL-2.0
"""examples/three-routers, set up as its README says: `ip -b rN.ip` and
`seg6ctl -b rN.conf` on each router. The two sites reach each other over
IPv4 and IPv6 through R1's signed H.Encaps, R2's End and R3's
End.DT4/End.DT6 into VRF red (and back the mirror way); R2 drops what is
not signed; the files are what `seg6ctl save` prints back.

    a --eth0 R1 eth1-- --eth0 R2 eth1-- --eth0 R3 eth1-- b
"""
import os
import subprocess

import pytest

from conftest import REPO, ctl, module_loaded, load_module, wait_until
from lib.netns import ip_batch, sh, sysctl

EXAMPLE = os.path.join(REPO, "examples/three-routers")
ROUTERS = ["r1", "r2", "r3"]
NODES = ["a"] + ROUTERS + ["b"]
# (node, its interface, peer, the peer's interface), as in the README
LINKS = [("a", "eth0", "r1", "eth0"), ("r1", "eth1", "r2", "eth0"),
         ("r2", "eth1", "r3", "eth0"), ("r3", "eth1", "b", "eth0")]
# the sites' hosts: the README's commands
SITES = {
    "a": ["link set eth0 up", "address add 10.1.0.2/24 dev eth0",
          "address add 2001:db8:a::2/64 dev eth0",
          "route add default via 10.1.0.1",
          "-6 route add default via 2001:db8:a::1"],
    "b": ["link set eth0 up", "address add 10.3.0.2/24 dev eth0",
          "address add 2001:db8:b::2/64 dev eth0",
          "route add default via 10.3.0.1",
          "-6 route add default via 2001:db8:b::1"],
}
KEYS = "/etc/seg6x/keys/"


def build(ns):
    ip_batch(None, [f"netns add {ns[n]}" for n in NODES])
    for n in NODES:
        # before the interfaces exist, so they inherit it
        sysctl(ns[n], "net.ipv6.conf.default.accept_dad", 0)
        sysctl(ns[n], "net.ipv6.conf.all.accept_dad", 0)
        sysctl(ns[n], "net.ipv6.conf.all.forwarding", 1)
        sysctl(ns[n], "net.ipv4.ip_forward", 1)
    for i, (left, lif, right, rif) in enumerate(LINKS):
        # named in the root namespace first: eth0 may exist there
        tl, tr = f"ex3l{i}", f"ex3r{i}"
        ip_batch(None, [f"link add {tl} netns {ns[left]} type veth "
                        f"peer name {tr} netns {ns[right]}"])
        ip_batch(ns[left], [f"link set {tl} name {lif}"])
        ip_batch(ns[right], [f"link set {tr} name {rif}"])
    for r in ROUTERS:
        sh(["ip", "-n", ns[r], "-b", os.path.join(EXAMPLE, f"{r}.ip")])
    for site, lines in SITES.items():
        # "-6 route ..." is not a batch line: run each on its own
        for line in lines:
            sh(["ip", "-n", ns[site]] + line.split())


def conf_for(router, keydir):
    """rN.conf with the key file moved where this test can write it."""
    with open(os.path.join(EXAMPLE, f"{router}.conf")) as f:
        return f.read().replace(KEYS, f"{keydir}/")


def apply(ns, router, keydir):
    path = os.path.join(keydir, f"{router}.conf")
    with open(path, "w") as f:
        f.write(conf_for(router, keydir))
    ctl("-b", path, ns=ns[router])


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    if not module_loaded():
        load_module()
    ns = {n: f"ex3{os.getpid()}{n}" for n in NODES}
    keydir = str(tmp_path_factory.mktemp("keys"))
    key = os.path.join(keydir, "7")
    with open(key, "w") as f:
        f.write("the secret all three routers share\n")
    os.chmod(key, 0o600)
    try:
        build(ns)
        for r in ROUTERS:
            apply(ns, r, keydir)
        yield ns, keydir
    finally:
        for n in NODES:
            sh(["ip", "netns", "del", ns[n]], check=False)


def ping(ns, dst):
    p = subprocess.run(["ip", "netns", "exec", ns, "ping", "-n", "-q",
                        "-c", "1", "-W", "2", dst], capture_output=True)
    return p.returncode == 0


def sid_packets(ns, router):
    return {s["sid"]: s["packets"]
            for s in ctl("sid", "show", ns=ns[router], js=True)}


def test_sites_reach_each_other(lab):
    ns, _ = lab
    for dst in ("10.3.0.2", "2001:db8:b::2"):
        # the first may wait for neighbour discovery on four links
        assert wait_until(lambda: ping(ns["a"], dst), 15, 0.5), dst
    for dst in ("10.1.0.2", "2001:db8:a::2"):
        assert wait_until(lambda: ping(ns["b"], dst), 15, 0.5), dst

    r2 = ctl("stats", ns=ns["r2"], js=True)
    assert sid_packets(ns, "r2")["fc00:0:2::100/128"] >= 4
    assert r2["hmac_verified"] >= 4
    assert r2["drop"]["hmac_missing"] == 0 and r2["drop"]["hmac_invalid"] == 0
    for r, node in (("r3", "3"), ("r1", "1")):
        got = sid_packets(ns, r)
        assert got[f"fc00:0:{node}::d4/128"] >= 2, (r, got)
        assert got[f"fc00:0:{node}::d6/128"] >= 2, (r, got)
        assert ctl("stats", ns=ns[r], js=True)["hmac_signed"] >= 2


def test_r2_drops_unsigned(lab):
    """R1's IPv6 route without its HMAC: R2's interface policy drops
    every packet; the example's file, applied again, puts it right."""
    ns, keydir = lab
    assert wait_until(lambda: ping(ns["a"], "2001:db8:b::2"), 15, 0.5)
    before = ctl("stats", ns=ns["r2"], js=True)["drop"]["hmac_missing"]
    ctl("route", "replace", "2001:db8:b::/64", "mode", "encap", "segs",
        "fc00:0:2::100,fc00:0:3::d6", "dev", "eth1", "table", "100",
        ns=ns["r1"])
    assert not ping(ns["a"], "2001:db8:b::2")
    after = ctl("stats", ns=ns["r2"], js=True)["drop"]["hmac_missing"]
    assert after > before
    apply(ns, "r1", keydir)
    assert wait_until(lambda: ping(ns["a"], "2001:db8:b::2"), 10, 0.5)


def test_files_are_what_save_prints(lab):
    """Each command of rN.conf is one that `seg6ctl save` prints (routes
    up to the metric that save adds)."""
    ns, keydir = lab
    for r in ROUTERS:
        saved = ctl("save", "keydir", keydir, ns=ns[r]).stdout.splitlines()
        for line in conf_for(r, keydir).splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            assert any(s == line or s.startswith(line + " metric ")
                       for s in saved), (r, line, saved)
