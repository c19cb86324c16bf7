# SPDX-License-Identifier: GPL-2.0
"""Configuration that survives: a seg6x.conf applied with seg6ctl sync (as
seg6x.service does), a module reload followed by sync, and an interface
that goes down and up again, its seg6x routes brought back by the
interface hook."""
import os
import socket
import subprocess

import pytest

from conftest import REPO, SEG6CTL, ctl, load_module, unload_module, \
    wait_until
from lib.netns import sh, sysctl, udp_socket
from lib.topo import addr6, sid

A_SRC = addr6(1, "A")
B6 = addr6(4, "B")
PORT = 5000
HOOK = os.path.join(REPO, "tools/hooks/seg6x-reapply")


@pytest.fixture
def confs(chain, tmp_path):
    return write_confs(chain, tmp_path)


def write_confs(c, tmp_path):
    """One seg6x.conf per router, as an operator would write them."""
    key = tmp_path / "key7"
    key.write_text("persistent secret\n")
    os.chmod(key, 0o600)
    keyline = f"hmac set 7 sha256 secret-file {key}"
    files = {
        "R1": [keyline, f"tunsrc set {sid('R1')}",
               f"route replace {B6}/128 mode encap segs "
               f"{sid('R2')},{sid('R3')} hmac 7 dev {c.iface('R1', 'R2')} "
               f"via {addr6(2, 'R2')}"],
        "R2": [keyline, "iface set default seg6_enabled 1 require_hmac 1"],
        "R3": [keyline, "iface set default seg6_enabled 1 require_hmac 1"],
    }
    paths = {}
    for node, lines in files.items():
        p = tmp_path / f"{node}.conf"
        p.write_text("# seg6x configuration\n" + "\n".join(lines) + "\n")
        paths[node] = str(p)
    return c, paths


def apply(c, paths):
    for node, path in paths.items():
        ctl("sync", path, ns=c.ns[node])


def flows(c, tag):
    rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
    with_tx = udp_socket(c.ns["A"], socket.AF_INET6, A_SRC, 0)
    try:
        with_tx.sendto(tag, (B6, PORT))
        return rx.recvfrom(2048)[0] == tag
    except socket.timeout:
        return False
    finally:
        rx.close()
        with_tx.close()


def test_conf_applied_then_reload_restores(confs):
    c, paths = confs
    apply(c, paths)
    assert flows(c, b"configured")
    assert ctl("stats", ns=c.ns["R2"], js=True)["hmac_verified"] == 1

    # what an operator does to reload: routes pin the module
    ctl("route", "flush", "all", ns=c.ns["R1"])
    unload_module()
    load_module()
    assert ctl("route", "show", ns=c.ns["R1"], js=True) == []
    apply(c, paths)                         # as seg6x.service does
    assert flows(c, b"restored")
    # through the SR path again, not plain forwarding
    assert ctl("stats", ns=c.ns["R2"], js=True)["hmac_verified"] == 1


def test_interface_down_up_restores_routes(confs):
    c, paths = confs
    apply(c, paths)
    r1 = c.ns["R1"]
    dev = c.iface("R1", "R2")
    # keep the link's addresses across down/up, as a configured host would
    sysctl(r1, f"net.ipv6.conf.{dev}.keep_addr_on_down", 1)
    assert flows(c, b"before")

    sh(["ip", "-n", r1, "link", "set", dev, "down"])
    assert ctl("route", "show", ns=r1, js=True) == []   # the kernel's doing
    sh(["ip", "-n", r1, "link", "set", dev, "up"])
    # ifupdown brings its own static route back; the seg6x one is ours
    sh(["ip", "-n", r1, "route", "replace", f"{sid('R2')}/128", "via",
        addr6(2, "R2"), "dev", dev])
    env = dict(os.environ, IFACE=dev, SEG6X_CONF=paths["R1"],
               SEG6X_SEG6CTL=SEG6CTL)
    p = subprocess.run(["ip", "netns", "exec", r1, HOOK], env=env,
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    routes = ctl("route", "show", ns=r1, js=True)
    assert [r["dst"] for r in routes] == [f"{B6}/128"]
    before = ctl("stats", ns=c.ns["R2"], js=True)["hmac_verified"]
    assert wait_until(lambda: flows(c, b"after"), timeout=5)
    assert ctl("stats", ns=c.ns["R2"], js=True)["hmac_verified"] > before
