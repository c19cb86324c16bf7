# SPDX-License-Identifier: GPL-2.0
"""seg6ctl monitor (change events, seen by an unprivileged listener) and
per-route counters (seg6ctl -s route show)."""
import json
import queue
import re
import subprocess
import threading
import time

from conftest import SEG6CTL, ctl, wait_until
from lib.netns import ip_batch
from lib.timing import scaled
from test_30_encap import B6, encap_route, send_udp6_from_a
from lib.topo import addr6, sid

SECRET = "monitor-s3cret"
SID = "fc00:e2::100"


class Monitor:
    """seg6ctl monitor as nobody in namespace @ns; lines in a queue."""

    def __init__(self, ns, *args, js=True):
        cmd = ["ip", "netns", "exec", ns, "setpriv", "--reuid=65534",
               "--regid=65534", "--clear-groups", "--inh-caps=-all", SEG6CTL]
        cmd += (["-j"] if js else []) + ["monitor"] + list(args)
        self.js = js
        self.p = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            self.seen.append(line)
            self.lines.put(line)

    def next(self, timeout=5.0):
        try:
            line = self.lines.get(timeout=scaled(timeout))
        except queue.Empty:
            raise AssertionError("no event; monitor stderr: " +
                                 (self.stop() or ""))
        return json.loads(line) if self.js else line

    def none(self, wait=0.5):
        time.sleep(scaled(wait))
        assert self.lines.empty(), self.lines.get()

    def stop(self):
        self.p.terminate()
        try:
            return self.p.communicate(timeout=5)[1]
        except subprocess.TimeoutExpired:
            self.p.kill()
            return ""

    def sync(self, *change):
        """Wait until subscribed: make a change until it shows."""
        def seen():
            ctl(*change)
            return not self.lines.empty()
        assert wait_until(seen, timeout=5.0), "monitor never subscribed"
        # An earlier change's event can show only after a later change
        # was made: that one's event is still on its way. Drain until
        # the monitor has been quiet for a moment, or the test takes it
        # for the event of its own change.
        while True:
            try:
                self.lines.get(timeout=scaled(0.3))
            except queue.Empty:
                break


def test_every_event_unprivileged(chain):
    c = chain
    ns = c.ns["R2"]
    ip_batch(ns, ["link add red type vrf table 10", "link set red up"])
    m = Monitor(ns)
    try:
        m.sync("-n", ns, "tunsrc", "set", "fc00::5eed")
        ctl("tunsrc", "set", addr6(2, "R2"), ns=ns)
        ev = m.next()
        assert ev["object"] == "tunsrc" and ev["action"] == "set"
        assert ev["tunsrc"] == addr6(2, "R2")
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z",
                            ev["time"])

        ctl("hmac", "set", 7, "sha256", ns=ns, input=SECRET + "\n")
        ev = m.next()
        assert (ev["object"], ev["action"]) == ("hmac", "set")
        assert ev["hmac"] == {"keyid": 7, "algo": "sha256"}
        ctl("hmac", "del", 7, ns=ns)
        ev = m.next()
        assert (ev["object"], ev["action"], ev["hmac"]) == \
            ("hmac", "del", {"keyid": 7})

        ctl("iface", "set", c.iface("R2", "R1"), "seg6_enabled", 1,
            "require_hmac", 1, ns=ns)
        ev = m.next()
        assert (ev["object"], ev["action"]) == ("iface", "set")
        assert ev["iface"] == {"ifname": c.iface("R2", "R1"),
                               "seg6_enabled": 1, "require_hmac": 1}

        ctl("stats", "reset", ns=ns)
        ev = m.next()
        assert (ev["object"], ev["action"]) == ("stats", "reset")
        assert "stats" not in ev

        ctl("sid", "add", SID, "behavior", "End.DT6", "vrf", "red", "count",
            ns=ns)
        ev = m.next()
        assert (ev["object"], ev["action"]) == ("sid", "add")
        assert ev["sid"] == {"sid": SID + "/128", "behavior": "End.DT6",
                             "vrf": "red"}
        # an identical replace changes nothing, so says nothing
        ctl("sid", "replace", SID, "behavior", "End.DT6", "vrf", "red",
            "count", ns=ns)
        m.none()
        ctl("sid", "del", SID, ns=ns)
        ev = m.next()
        assert (ev["object"], ev["action"]) == ("sid", "del")
        assert ev["sid"]["sid"] == SID + "/128"
        ctl("sid", "flush", ns=ns)
        ev = m.next()
        assert (ev["object"], ev["action"]) == ("sid", "flush")

        # routes: seg6x's only
        ip_batch(ns, ["route add fc00:77::/64 dev " + c.iface("R2", "R3")])
        ctl("route", "add", "fc00:78::/64", "mode", "encap", "segs",
            sid("R3"), "dev", c.iface("R2", "R3"), ns=ns)
        ev = m.next()
        assert (ev["object"], ev["action"]) == ("route", "add")
        assert ev["route"]["dst"] == "fc00:78::/64"
        assert ev["route"]["segs"] == [sid("R3")]
        ctl("route", "del", "fc00:78::/64", ns=ns)
        ev = m.next()
        assert (ev["object"], ev["action"], ev["route"]["dst"]) == \
            ("route", "del", "fc00:78::/64")
        m.none()
    finally:
        err = m.stop()
    assert err == "", err
    # the secret never reaches a listener
    assert SECRET not in "".join(m.seen)


def test_text_and_filter(chain):
    ns = chain.ns["R2"]
    m = Monitor(ns, "sid", js=False)
    try:
        m.sync("-n", ns, "sid", "flush")
        ctl("stats", "reset", ns=ns)          # not watched
        ctl("sid", "add", SID, "behavior", "End", ns=ns)
        line = m.next()
        assert re.fullmatch(r"\[\S+Z\] sid add " + re.escape(SID) +
                            r"/128 behavior End\n", line), line
        ctl("tunsrc", "set", "fc00::1", ns=ns)  # not watched
        ctl("sid", "flush", ns=ns)
        assert m.next().endswith("] sid flush \n")
        m.none()
    finally:
        m.stop()


def test_monitor_usage():
    p = ctl("monitor", "bogus", check=False)
    assert p.returncode == 2 and "cannot watch" in p.stderr


def test_route_counters(chain):
    c = chain
    ns = c.ns["R1"]
    encap_route(c, [sid("R2"), sid("R3")])
    sent = [send_udp6_from_a(c, b"count me %d" % i) for i in range(3)]

    def shown():
        r = [r for r in ctl("-s", "route", "show", ns=ns, js=True)
             if r["dst"] == B6 + "/128"]
        return r[0] if r and r[0]["packets"] == 3 else None
    r = wait_until(shown)
    assert r, ctl("-s", "route", "show", ns=ns).stdout
    assert r["bytes"] == sum(len(p) for p in sent) and r["errors"] == 0
    text = ctl("-s", "route", "show", ns=ns).stdout
    assert " packets 3 bytes %d errors 0\n" % r["bytes"] in text
    # counters are state: not without -s, never in save
    plain = ctl("route", "show", ns=ns, js=True)
    assert all("packets" not in r for r in plain)
    assert "packets" not in ctl("save", ns=ns).stdout
    # ip's spelling of the option
    assert "packets 3" in ctl("-stats", "route", "show", ns=ns).stdout
