# SPDX-License-Identifier: GPL-2.0
"""Monitoring: seg6ctl stats format prometheus read by the Prometheus
client's parser as an unprivileged poller would, reads that never load
the module, the shell lines of seg6x-metrics.service, and drops counted
per interface."""
import json
import os
import socket
import shlex
import shutil
import subprocess
import tempfile

from prometheus_client.parser import text_string_to_metric_families
from scapy.all import UDP, Ether, IPv6, Raw

from conftest import (REPO, SEG6CTL, ctl, enable, load_module,
                      module_loaded, stats, unload_module, wait_until)
from lib.netns import Tap, sh, udp_socket
from lib.srv6 import NH_IPV6, NH_ROUTING, srh
from lib.topo import addr6, mac, sid

NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
          "--inh-caps=-all"]
PROM = ["stats", "show", "format", "prometheus"]
UNIT = os.path.join(REPO, "tools/systemd/seg6x-metrics.service")


def parse(text):
    """{(sample name, frozenset of labels): value}; counters only."""
    values = {}
    for family in text_string_to_metric_families(text):
        assert family.type == "counter", family.name
        for s in family.samples:
            key = (s.name, frozenset(s.labels.items()))
            assert key not in values, key
            values[key] = s.value
    return values


def as_nobody(ns=None):
    """stats format prometheus by uid 65534 without capabilities, in
    namespace ns (entered by root: -n needs CAP_SYS_ADMIN)."""
    netns = ["ip", "netns", "exec", ns] if ns else []
    return subprocess.run(netns + NOBODY + [SEG6CTL] + PROM,
                          capture_output=True, text=True)


def matches_json(values, js, labels=frozenset()):
    """Every counter of `seg6ctl -j stats` has its sample, same value."""
    for k, v in js.items():
        if not isinstance(v, dict):
            assert values[(f"seg6x_{k}_total", labels)] == v, k
    for group, metric, label in (("drop", "drops", "reason"),
                                 ("sid", "sid_behavior_packets",
                                  "behavior")):
        for k, v in js[group].items():
            if group == "drop" and k == "disabled":   # JSON's old name
                continue
            key = (f"seg6x_{metric}_total", labels | {(label, k)})
            assert values[key] == v, key


def test_prometheus_as_nobody(chain):
    c = chain
    enable(c, "R2", "R3")
    ctl("sid", "add", sid("R2"), "behavior", "End", "count", ns=c.ns["R2"])
    ctl("route", "replace", "fc00:4::/64", "mode", "encap", "segs",
        f"{sid('R2')},{sid('R3')}", "dev", c.iface("R1", "R2"),
        "via", addr6(2, "R2"), ns=c.ns["R1"])
    p = sh(["ip", "netns", "exec", c.ns["A"], "ping", "-6", "-c", "3",
            "-i", "0.2", "-W", "2", addr6(4, "B")], check=False)
    assert p.returncode == 0, p.stdout

    p = as_nobody(c.ns["R1"])
    assert p.returncode == 0, p.stderr
    v = parse(p.stdout)
    assert v[("seg6x_encap_total", frozenset())] == 3
    matches_json(v, stats(c.ns["R1"]))

    p = as_nobody(c.ns["R2"])
    assert p.returncode == 0, p.stderr
    v = parse(p.stdout)
    counted = frozenset({("sid", f"{sid('R2')}/128")})
    assert v[("seg6x_sid_packets_total", counted)] == 3
    assert v[("seg6x_sid_errors_total", counted)] == 0
    matches_json(v, stats(c.ns["R2"]))

    # -n (as root): every sample says which namespace
    p = ctl(*PROM, ns=c.ns["R3"])
    netns = frozenset({("netns", c.ns["R3"])})
    v = parse(p.stdout)
    assert all(labels >= netns for _, labels in v)
    matches_json(v, stats(c.ns["R3"]), netns)
    assert v[("seg6x_decap_total", netns)] == 3


def test_pollers_never_load_the_module(seg6x):
    unload_module()
    try:
        for p in (as_nobody(), ctl(*PROM, check=False),
                  ctl("stats", check=False),
                  ctl("stats", "show", js=True, check=False)):
            assert p.returncode == 1, p.stderr
            assert p.stdout == ""
            assert p.stderr.startswith(
                "seg6ctl: the seg6x module is not loaded"), p.stderr
            assert not module_loaded()
    finally:
        load_module()


def unit_scripts(rundir):
    """ExecCondition, ExecStart, ExecStartPost of seg6x-metrics.service:
    the sh -c scripts, $$ as systemd passes it, with this tree's seg6ctl
    and @rundir for its RuntimeDirectory."""
    scripts = {}
    with open(UNIT) as f:
        for line in f:
            key, _, val = line.strip().partition("=")
            if key in ("ExecCondition", "ExecStart", "ExecStartPost"):
                argv = shlex.split(val.lstrip("+"))
                assert argv[:2] == ["/bin/sh", "-c"], line
                scripts[key] = (argv[2].replace("$$", "$")
                                .replace("/usr/sbin/seg6ctl", SEG6CTL)
                                .replace("/run/seg6x-metrics", rundir))
    assert len(scripts) == 3
    return scripts


def test_textfile_collector_unit(seg6x):
    """What the unit runs, as it runs it: condition and rename as root,
    seg6ctl as an unprivileged user (DynamicUser=) writing to its own
    runtime directory."""
    textfile = tempfile.mkdtemp()
    rundir = tempfile.mkdtemp(dir="/run")
    os.chown(rundir, 65534, 65534)
    env = dict(os.environ, DIR=textfile)
    s = unit_scripts(rundir)

    def run(key, user=()):
        return subprocess.run(list(user) + ["/bin/sh", "-c", s[key]],
                              env=env, capture_output=True, text=True)
    try:
        assert run("ExecCondition").returncode == 0
        p = run("ExecStart", NOBODY)
        assert p.returncode == 0, p.stderr
        assert run("ExecStartPost").returncode == 0
        assert os.listdir(textfile) == ["seg6x.prom"]
        with open(os.path.join(textfile, "seg6x.prom")) as f:
            assert ("seg6x_encap_total", frozenset()) in parse(f.read())
        # without the module: the stale file goes, the run is skipped
        unload_module()
        assert run("ExecCondition").returncode == 1
        assert os.listdir(textfile) == [] and not module_loaded()
        # without node_exporter's directory: skipped, nothing written
        env["DIR"] = os.path.join(textfile, "none")
        load_module()
        assert run("ExecCondition").returncode == 1
    finally:
        shutil.rmtree(textfile)
        shutil.rmtree(rundir)
        if not module_loaded():
            load_module()


def iface_show(ns, *args, text=False):
    """seg6ctl -s iface show [IFNAME]: JSON, or the text lines."""
    p = subprocess.run([SEG6CTL, "-n", ns, "-s"] + ([] if text else ["-j"]) +
                       ["iface", "show"] + list(args),
                       capture_output=True, text=True, check=True)
    return p.stdout if text else json.loads(p.stdout)


def drops_by_iface(ns):
    return {i["ifname"]: i.get("drop") for i in iface_show(ns)}


def only(drop, reason, n):
    """Interface counters with @n in @reason and nothing elsewhere."""
    return drop[reason] == n and all(
        v == 0 for k, v in drop.items() if k != reason)


def test_drops_per_interface(chain):
    """A drop in the endpoint hook counts in the namespace and on the
    interface the packet came in on, nowhere else: -s iface show, the
    Prometheus export, and stats reset for both."""
    c = chain
    enable(c, "R2", "R3")
    r2, port = c.ns["R2"], c.iface("R2", "R1")
    ctl("iface", "set", port, "require_hmac", "1", ns=r2)
    inner = IPv6(src=addr6(1, "A"), dst=addr6(4, "B")) / UDP() / Raw(b"x")
    frame = (Ether(dst=mac(1, 1), src=mac(1, 0)) /
             IPv6(src=addr6(1, "A"), dst=sid("R2"), nh=NH_ROUTING) /
             Raw(srh([sid("R3"), sid("R2")], 1, NH_IPV6) + bytes(inner)))
    tap = Tap(c.ns["A"], c.iface("A", "R1"))
    for _ in range(3):
        tap.send(frame)
    assert wait_until(lambda: stats(r2)["drop"]["hmac_missing"] == 3)

    d = drops_by_iface(r2)
    assert d.pop("default") is None         # the policy, not a device
    assert only(d.pop(port), "hmac_missing", 3)
    assert d and all(only(o, "hmac_missing", 0) for o in d.values()), d
    assert "drop" not in ctl("iface", "show", port, ns=r2, js=True)[0]
    assert only(iface_show(r2, port)[0]["drop"], "hmac_missing", 3)
    line = iface_show(r2, port, text=True)
    assert " drop hmac_missing 3 " in line, line

    p = as_nobody(r2)
    assert p.returncode == 0, p.stderr
    v = parse(p.stdout)
    key = frozenset({("ifname", port), ("reason", "hmac_missing")})
    assert v[("seg6x_iface_drops_total", key)] == 3
    assert v[("seg6x_iface_drops_total",
              frozenset({("ifname", port), ("reason", "bad_srh")}))] == 0

    ctl("stats", "reset", ns=r2)
    assert only(drops_by_iface(r2)[port], "hmac_missing", 0)
    assert stats(r2)["drop"]["hmac_missing"] == 0


def test_route_drops_per_interface(chain):
    """A route that cannot sign (its key is missing) drops forwarded
    packets: counted on the interface they arrived on."""
    c = chain
    r1 = c.ns["R1"]
    ctl("route", "add", f"{addr6(4, 'B')}/128", "mode", "encap", "segs",
        f"{sid('R2')},{sid('R3')}", "hmac", 42, "dev", c.iface("R1", "R2"),
        "via", addr6(2, "R2"), ns=r1)
    tx = udp_socket(c.ns["A"], socket.AF_INET6, addr6(1, "A"), 0)
    for _ in range(2):
        tx.sendto(b"x", (addr6(4, "B"), 5000))
    assert wait_until(lambda: stats(r1)["drop"]["hmac_nokey"] == 2)
    d = drops_by_iface(r1)
    assert only(d[c.iface("R1", "A")], "hmac_nokey", 2)
    assert only(d[c.iface("R1", "R2")], "hmac_nokey", 0)
