# SPDX-License-Identifier: GPL-2.0
"""seg6x-upgrade: the module swapped without a reboot, under traffic, from
the namespaces' configuration files; refused (nothing changed) when a
namespace's state has no file."""
import os
import shutil
import socket
import subprocess
import threading
import time

import pytest

from conftest import REPO, SEG6CTL, ctl, module_loaded, wait_until
from lib.netns import sh, udp_socket
from test_51_persistence import A_SRC, B6, PORT, apply, flows, write_confs

UPGRADE = os.path.join(REPO, "tools/upgrade/seg6x-upgrade")


@pytest.fixture
def confs(chain, tmp_path):
    return write_confs(chain, tmp_path)


def confdir_of(c, paths, tmp_path, nodes):
    """The files as seg6x-upgrade finds them: /etc/seg6x/NETNS.conf."""
    d = tmp_path / "etc-seg6x"
    d.mkdir(exist_ok=True)
    for node in nodes:
        shutil.copy(paths[node], d / f"{c.ns[node]}.conf")
    return str(d)


def upgrade(confdir, *args):
    env = dict(os.environ, SEG6X_CONFDIR=confdir, SEG6X_SEG6CTL=SEG6CTL)
    return subprocess.run([UPGRADE] + list(args), env=env,
                          capture_output=True, text=True, timeout=120)


def test_refused_without_a_file(confs, tmp_path):
    c, paths = confs
    apply(c, paths)
    before = ctl("save", ns=c.ns["R2"]).stdout
    # R2 holds keys and a policy, but has no file: they would be lost
    d = confdir_of(c, paths, tmp_path, ["R1", "R3"])
    p = upgrade(d, "--reload")
    assert p.returncode == 1, p.stdout + p.stderr
    assert f"namespace {c.ns['R2']} has seg6x" in p.stderr
    assert module_loaded()
    assert ctl("save", ns=c.ns["R2"]).stdout == before
    assert [r["dst"] for r in ctl("route", "show", ns=c.ns["R1"], js=True)] \
        == [f"{B6}/128"]
    p = upgrade(d, "--reload", "--check")
    assert p.returncode == 1


def test_nothing_to_do_without_a_new_version(confs, tmp_path):
    c, paths = confs
    apply(c, paths)
    d = confdir_of(c, paths, tmp_path, ["R1", "R2", "R3"])
    p = upgrade(d)
    assert p.returncode == 0 and "nothing to do" in p.stdout
    p = upgrade(d, "--reload", "--check")
    assert p.returncode == 0 and "would apply" in p.stdout
    assert ctl("route", "show", ns=c.ns["R1"], js=True) != []


class Flow:
    """UDP from A to B, one numbered packet per millisecond."""

    def __init__(self, c):
        self.rx = udp_socket(c.ns["B"], socket.AF_INET6, B6, PORT)
        self.rx.settimeout(0.2)
        self.tx = udp_socket(c.ns["A"], socket.AF_INET6, A_SRC, 0)
        self.sent = 0
        self.got = set()
        self.last = -1          # the highest number received
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._send),
                        threading.Thread(target=self._recv)]
        for t in self.threads:
            t.start()

    def _send(self):
        while not self.stop.is_set():
            self.tx.sendto(b"%d" % self.sent, (B6, PORT))
            self.sent += 1
            time.sleep(0.001)

    def _recv(self):
        while True:
            try:
                n = int(self.rx.recvfrom(64)[0])
                self.got.add(n)
                self.last = max(self.last, n)
            except socket.timeout:
                if self.stop.is_set():
                    return

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join()
        self.rx.close()
        self.tx.close()


def test_upgrade_under_traffic(confs, tmp_path):
    c, paths = confs
    apply(c, paths)
    # only the seg6x route leads to B: no plain route to fall back on
    sh(["ip", "-n", c.ns["R1"], "route", "del", "fc00:4::/64"])
    assert flows(c, b"before")
    d = confdir_of(c, paths, tmp_path, ["R1", "R2", "R3"])
    verified = ctl("stats", ns=c.ns["R2"], js=True)["hmac_verified"]
    flow = Flow(c)
    try:
        assert wait_until(lambda: len(flow.got) > 100, timeout=10)
        p = upgrade(d, "--reload")
        mark = flow.sent
        assert wait_until(lambda: flow.last > mark, timeout=10), \
            "traffic did not resume"
        time.sleep(0.3)
    finally:
        flow.finish()
    assert p.returncode == 0, p.stdout + p.stderr
    assert "loaded; seg6x traffic was interrupted for" in p.stdout
    lost = flow.sent - len(flow.got)
    report = (f"upgrade under traffic: {lost} of {flow.sent} packets lost "
              f"(one per ms); {p.stdout.strip()}\n")
    print(report)
    # The run's output directory (run-vm.sh -o) keeps the figure.
    if os.environ.get("SEG6X_OUT"):
        with open(os.path.join(os.environ["SEG6X_OUT"], "upgrade-loss.txt"),
                  "a") as f:
            f.write(f"{os.environ.get('SEG6X_KVER', '')}: {report}")
    assert 0 < lost < flow.sent
    # back on the SR path, with its keys: R2 verifies HMACs again
    after = ctl("stats", ns=c.ns["R2"], js=True)
    assert after["hmac_verified"] > 0
    assert verified > 0
    assert [r["dst"] for r in ctl("route", "show", ns=c.ns["R1"], js=True)] \
        == [f"{B6}/128"]
