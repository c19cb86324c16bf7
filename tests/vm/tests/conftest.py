# SPDX-License-Identifier: GPL-2.0
"""Fixtures for the VM test suite (runs as root inside the guest)."""
import json
import os
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from lib.netns import sh  # noqa: E402
from lib.topo import Chain  # noqa: E402
from lib.timing import scaled  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(__file__), "../../.."))
SEG6CTL = os.path.join(REPO, "tools/seg6ctl/seg6ctl")
VERSION = open(os.path.join(REPO, "VERSION")).read().strip()


def ctl(*args, ns=None, input=None, check=True, js=False):
    """Run seg6ctl; with js=True return the parsed JSON output."""
    cmd = [SEG6CTL] + (["-n", ns] if ns else []) + (["-j"] if js else [])
    cmd += [str(a) for a in args]
    p = subprocess.run(cmd, input=input, capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"{' '.join(cmd)} -> {p.returncode}\n"
                             f"{p.stdout}{p.stderr}")
    if js and p.returncode == 0:
        return json.loads(p.stdout)
    return p


def stats(ns):
    return ctl("stats", "show", ns=ns, js=True)


def load_module(*params):
    sh(["modprobe", "seg6x"] + list(params))


def unload_module(timeout=10.0):
    """modprobe -r, retried while namespaces that a test deleted (with
    routes that pin the module) are still being torn down: the kernel
    dismantles them asynchronously."""
    import time
    end = time.monotonic() + scaled(timeout)
    while True:
        p = subprocess.run(["modprobe", "-r", "seg6x"], capture_output=True,
                           text=True)
        if p.returncode == 0 or time.monotonic() > end:
            break
        time.sleep(0.2)
    if p.returncode != 0:
        raise AssertionError(f"modprobe -r seg6x -> {p.returncode}\n"
                             f"{p.stdout}{p.stderr}")


def module_loaded():
    return os.path.exists("/sys/module/seg6x")


@pytest.fixture
def seg6x():
    """seg6x loaded with default parameters."""
    if not module_loaded():
        load_module()
    yield
    # leave it loaded for the next test; tests that need other
    # parameters reload it themselves


@pytest.fixture
def chain(seg6x):
    c = Chain()
    yield c
    c.destroy()


def enable(c, *nodes, hmac=None):
    """Turn seg6x on (namespace default) in the given nodes."""
    for n in nodes:
        args = ["iface", "set", "default", "seg6_enabled", "1"]
        if hmac is not None:
            args += ["require_hmac", str(hmac)]
        ctl(*args, ns=c.ns[n])


def wait_until(cond, timeout=3.0, step=0.05):
    """Poll cond() until true (packets are processed asynchronously)."""
    import time
    end = time.monotonic() + scaled(timeout)
    while True:
        v = cond()
        if v or time.monotonic() > end:
            return v
        time.sleep(step)
