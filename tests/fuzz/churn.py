#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Configuration churn under traffic, then a clean module unload.

Runs as root in the VM. Two lib/topo chains A - R1 - R2 - R3 - B:

  stable  its configuration is never touched: an IPv6 flow and an IPv4
          flow, each encapsulated at R1 (HMAC key 7 on the IPv6 route),
          End at R2, decapsulated at R3, with R2 and R3 requiring HMAC.
          Every packet sent must arrive, in the end, exactly once.
  churn   traffic through every seg6x path -- IPv6 and IPv4 encap, inline
          insertion, End, decap, local delivery at B, HMAC signing on
          routes and on a socket's IPV6_RTHDR, HMAC verification -- while
          the main loop, seeded, keeps changing things: routes added,
          replaced, deleted; keys rotated and deleted; policies flipped;
          interfaces (dummies, veths into R2) and whole namespaces
          created, configured and destroyed; `modprobe -r seg6x`
          attempted at least every 15 s (it must fail: routes exist).
At the end both chains go away, and `modprobe -r seg6x` must succeed.
No WARNING/BUG/Oops/KASAN/UBSAN may appear in the kernel log.
"""
import argparse
import os
import random
import socket
import struct
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "../.."))
sys.path.insert(0, os.path.join(REPO, "tests/vm/tests"))
sys.path.insert(0, HERE)

from lib import kernlog  # noqa: E402
from lib.netns import inside, ip_batch, sh  # noqa: E402
from lib.topo import Chain, addr4, addr6, sid  # noqa: E402
from lib import pktlib as P  # noqa: E402

SEG6CTL = os.path.join(REPO, "tools/seg6ctl/seg6ctl")
B6 = addr6(4, "B")
B6_INLINE = "fc00:4::bb"
B4 = addr4(4, "B")
PORT = 6000


def ctl(ns, *args, input=None, check=True):
    p = subprocess.run([SEG6CTL] + (["-n", ns] if ns else []) +
                       [str(a) for a in args], input=input,
                       capture_output=True, text=True)
    if check and p.returncode:
        raise RuntimeError(f"seg6ctl -n {ns} {' '.join(map(str, args))}: "
                           f"{p.stderr.strip()}")
    return p


def secret(r):
    return "%032x" % r.getrandbits(128)


class Flow:
    """UDP datagrams numbered 0.. from one namespace to another."""

    def __init__(self, name, src_ns, dst_ns, family, dst, pps, rthdr=None):
        self.name, self.dst, self.pps = name, dst, pps
        with inside(src_ns):
            self.tx = socket.socket(family, socket.SOCK_DGRAM)
        if rthdr is not None:
            self.tx.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_RTHDR,
                               rthdr)
        with inside(dst_ns):
            self.rx = socket.socket(family, socket.SOCK_DGRAM)
            self.rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 8 << 20)
            self.rx.bind((dst, PORT))
        self.rx.settimeout(0.2)
        self.sent = 0
        self.send_errors = 0
        self.got = set()
        self.dups = 0
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=self._send, daemon=True),
                        threading.Thread(target=self._recv, daemon=True)]

    def start(self):
        for t in self.threads:
            t.start()

    def _send(self):
        period = 1.0 / self.pps
        nxt = time.monotonic()
        while not self.stop.is_set():
            try:
                self.tx.sendto(struct.pack("!I", self.sent) + b"x" * 60,
                               (self.dst, PORT))
                self.sent += 1
            except OSError:
                self.send_errors += 1      # e.g. no route for a moment
            nxt += period
            d = nxt - time.monotonic()
            if d > 0:
                time.sleep(d)
            else:
                nxt = time.monotonic()

    def _recv(self):
        while True:
            try:
                data = self.rx.recv(2048)
            except socket.timeout:
                if self.stop.is_set() and self.drained:
                    return
                continue
            n = struct.unpack("!I", data[:4])[0]
            if n in self.got:
                self.dups += 1
            self.got.add(n)

    drained = False

    def finish(self):
        self.stop.set()
        self.threads[0].join()
        end = time.monotonic() + 5
        while len(self.got) < self.sent and time.monotonic() < end:
            time.sleep(0.1)
        self.drained = True
        self.threads[1].join()

    def report(self):
        lost = self.sent - len(self.got)
        return (f"{self.name}: sent {self.sent}, received {len(self.got)}, "
                f"lost {lost}, duplicates {self.dups}, "
                f"send errors {self.send_errors}")


def configure_sr(c, keyid_secret, require_hmac, hmac_route=True):
    ns = c.ns
    for n in ("A", "R1", "R2", "R3", "B"):
        ctl(ns[n], "hmac", "set", 7, "sha256", input=keyid_secret)
    for n in ("R2", "R3", "B"):
        ctl(ns[n], "iface", "set", "default", "seg6_enabled", 1,
            "require_hmac", require_hmac)
    ctl(ns["R1"], "route", "add", f"{B6}/128", "mode", "encap", "segs",
        f"{sid('R2')},{sid('R3')}", *(["hmac", 7] if hmac_route else []),
        "dev", "r1-r2", "via", addr6(2, "R2"))
    ctl(ns["R1"], "route", "add", f"{B4}/32", "mode", "encap", "segs",
        f"{sid('R2')},{sid('R3')}", *(["hmac", 7] if hmac_route else []),
        "dev", "r1-r2", "via", addr6(2, "R2"))


class Churn:
    def __init__(self, args):
        self.args = args
        self.r = random.Random(f"{args.seed}:churn")
        self.actions = {}
        self.spent = {}     # seconds per action: a slow kernel shows here
        self.failures = []
        self.nsn = 0

    def log(self, *a):
        print(*a, flush=True)

    def fail(self, why):
        self.failures.append(why)
        self.log("FAIL", why)

    def setup(self):
        with open("/proc/sys/net/core/netdev_max_backlog", "w") as f:
            f.write("100000")
        if not os.path.exists("/sys/module/seg6x"):
            sh(["modprobe", "seg6x"])
        sh(["modprobe", "dummy"], check=False)
        # stable: never touched after this
        self.s = s = Chain()
        configure_sr(s, "stable secret", 1)
        # churn
        self.c = c = Chain()
        self.key = secret(self.r)
        configure_sr(c, self.key, 0)
        ip_batch(c.ns["B"], [f"addr add {B6_INLINE}/64 dev b-r3 nodad"])
        ctl(c.ns["R1"], "route", "add", f"{B6_INLINE}/128", "mode",
            "inline", "segs", f"{sid('R2')},{sid('R3')}", "dev", "r1-r2",
            "via", addr6(2, "R2"))
        ctl(c.ns["A"], "tunsrc", "set", addr6(1, "A"))
        # the socket-signed flow: Segment List[0] is the destination
        rthdr = P.srh([bytes(16), P.a2b(sid("R3")), P.a2b(sid("R2"))], 2,
                      0, flags=P.FLAG_HMAC, tlvs=P.hmac_tlv(7, bytes(32)))
        self.flows = [
            Flow("stable-ipv6", s.ns["A"], s.ns["B"], socket.AF_INET6, B6,
                 100),
            Flow("stable-ipv4", s.ns["A"], s.ns["B"], socket.AF_INET, B4,
                 60),
            Flow("churn-encap6", c.ns["A"], c.ns["B"], socket.AF_INET6, B6,
                 40),
            Flow("churn-encap4", c.ns["A"], c.ns["B"], socket.AF_INET, B4,
                 40),
            Flow("churn-inline", c.ns["A"], c.ns["B"], socket.AF_INET6,
                 B6_INLINE, 40),
        ]
        # a socket's own SRH, signed by A's output hook (a_socket_signed)
        with inside(c.ns["A"]):
            self.sig = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        self.sig.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_RTHDR, rthdr)

    # ------------------------------------------------------------ actions
    def a_route_replace(self):
        r = self.r
        segs = r.choice([[sid("R2"), sid("R3")], [sid("R3")],
                         [sid("R2"), sid("R3"), sid("R3")]])
        dst, mode = r.choice([(f"{B6}/128", "encap"), (f"{B4}/32", "encap"),
                              (f"{B6_INLINE}/128", "inline")])
        extra = ["hmac", 7] if r.random() < 0.5 else []
        ctl(self.c.ns["R1"], "route", "replace", dst, "mode", mode, "segs",
            ",".join(segs), *extra, "dev", "r1-r2", "via", addr6(2, "R2"),
            check=False)

    def a_route_del_add(self):
        r = self.r
        dst, mode = r.choice([(f"{B6}/128", "encap"), (f"{B4}/32", "encap"),
                              (f"{B6_INLINE}/128", "inline")])
        ns = self.c.ns["R1"]
        ctl(ns, "route", "del", dst, check=False)
        time.sleep(r.random() * 0.05)
        ctl(ns, "route", "add", dst, "mode", mode, "segs",
            f"{sid('R2')},{sid('R3')}", "dev", "r1-r2", "via",
            addr6(2, "R2"), check=False)

    def a_key_rotate(self):
        self.key = secret(self.r)
        for n in ("A", "R1", "R2", "R3", "B"):
            ctl(self.c.ns[n], "hmac", "set", 7, "sha256", input=self.key,
                check=False)

    def a_key_del(self):
        n = self.r.choice(["A", "R1", "R2", "R3", "B"])
        ctl(self.c.ns[n], "hmac", "del", 7, check=False)
        if self.r.random() < 0.7:
            ctl(self.c.ns[n], "hmac", "set", 7, "sha256", input=self.key,
                check=False)
        # keys that come and go
        k = self.r.randint(100, 120)
        ctl(self.c.ns[n], "hmac", "set", k, self.r.choice(["sha1",
                                                           "sha256"]),
            input=secret(self.r), check=False)
        ctl(self.c.ns[n], "hmac", "del", self.r.randint(100, 120),
            check=False)

    def a_policy(self):
        r = self.r
        n = r.choice(["R2", "R3", "B", "R1"])
        what = r.choice([("seg6_enabled", r.choice([0, 1, 1])),
                         ("require_hmac", r.choice([-1, 0, 1]))])
        dev = r.choice(["default", {"R1": "r1-r2", "R2": "r2-r1",
                                    "R3": "r3-r2", "B": "b-r3"}[n]])
        ctl(self.c.ns[n], "iface", "set", dev, *what, check=False)

    def a_dummy(self):
        r = self.r
        ns = self.c.ns[r.choice(["R1", "R2"])]
        name = f"dz{r.randint(0, 3)}"
        if sh(["ip", "-n", ns, "link", "show", name],
              check=False).returncode:
            ip_batch(ns, [f"link add {name} type dummy",
                          f"link set {name} up",
                          f"addr add fc00:7{name[-1]}::1/64 dev {name} "
                          "nodad"])
        ctl(ns, "iface", "set", name, "seg6_enabled", r.choice([0, 1]),
            check=False)
        ctl(ns, "route", "replace", f"fc00:77:{name[-1]}::/64", "mode",
            "encap", "segs", sid("R3"), "dev", name, check=False)
        if r.random() < 0.6:
            sh(["ip", "-n", ns, "link", "del", name], check=False)

    def a_namespace(self):
        """A namespace attached to R2 with a veth, configured, used by a
        few SR packets, and destroyed (sometimes while they fly)."""
        r = self.r
        self.nsn += 1
        x = f"sxchurn{self.nsn}"
        r2 = self.c.ns["R2"]
        peer = f"r2-x{self.nsn % 4}"
        sh(["ip", "-n", r2, "link", "del", peer], check=False)
        sh(["ip", "netns", "add", x])
        ip_batch(None, [f"link add x0 netns {x} address 02:00:00:00:99:00 "
                        f"type veth peer name {peer} netns {r2} "
                        "address 02:00:00:00:99:01"])
        ip_batch(x, ["link set lo up", "link set x0 up",
                     "addr add fc00:90::2/64 dev x0 nodad",
                     "route add default via fc00:90::1 dev x0",
                     "neigh add fc00:90::1 lladdr 02:00:00:00:99:01 dev x0 "
                     "nud permanent"])
        ip_batch(r2, [f"link set {peer} up",
                      f"addr add fc00:90::1/64 dev {peer} nodad"])
        ctl(r2, "iface", "set", peer, "seg6_enabled", 1, "require_hmac",
            r.choice([-1, 0]), check=False)
        ctl(x, "hmac", "set", 7, "sha256", input=self.key, check=False)
        ctl(x, "iface", "set", "default", "seg6_enabled", 1, check=False)
        ctl(x, "route", "add", "fc00:91::/64", "mode", "encap", "segs",
            sid("R2"), "dev", "x0", "via", "fc00:90::1", check=False)
        with inside(x):
            t = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
            t.bind(("x0", 0))
        eth = bytes.fromhex("020000009901020000009900") + b"\x86\xdd"
        inner = P.ipv6(P.a2b("fc00:90::2"), P.a2b(B6), P.NH_UDP,
                       P.udp(1, 9, b"ns"))
        for _ in range(r.randint(1, 20)):
            h = P.srh([P.a2b(sid("R3"))], 1, P.NH_IPV6)
            t.send(eth + P.ipv6(P.a2b("fc00:90::2"), P.a2b(sid("R2")),
                                P.NH_ROUTING, h + inner))
        t.close()
        if r.random() < 0.5:
            time.sleep(r.random() * 0.1)
        sh(["ip", "netns", "del", x], check=False)

    def a_modprobe_r(self):
        p = subprocess.run(["modprobe", "-r", "seg6x"], capture_output=True,
                           text=True)
        if p.returncode == 0 or not os.path.exists("/sys/module/seg6x"):
            self.fail("modprobe -r seg6x succeeded while routes use it")
            sh(["modprobe", "seg6x"], check=False)

    def a_stats_reset(self):
        ctl(self.c.ns[self.r.choice(["R2", "R3", "B"])], "stats", "reset",
            check=False)

    def a_tunsrc(self):
        ctl(self.c.ns["R1"], "tunsrc", "set",
            self.r.choice(["::", sid("R1"), addr6(2, "R1")]), check=False)

    def a_none(self):
        time.sleep(0.2)

    def a_socket_signed(self):
        for i in range(self.r.randint(1, 10)):
            try:
                self.sig.sendto(b"signed %d" % i, (B6, PORT + 1))
            except OSError:
                pass

    ACTIONS = [("route_replace", 6), ("route_del_add", 4),
               ("key_rotate", 3), ("key_del", 2), ("policy", 5),
               ("dummy", 2), ("namespace", 1), ("modprobe_r", 1),
               ("stats_reset", 1), ("tunsrc", 1), ("socket_signed", 3)]

    def run(self):
        t0 = time.monotonic()
        klog = kernlog.Since()
        # seg6x routes elsewhere (left over by an earlier test) would keep
        # the module loaded whatever this test does
        if os.path.exists("/sys/module/seg6x") and \
                subprocess.run(["modprobe", "-r", "seg6x"],
                               capture_output=True).returncode:
            self.fail(f"seg6x is in use before the churn (refcnt "
                      f"{refcnt()}; named namespaces: "
                      f"{os.listdir('/run/netns')}): the unload check "
                      "at the end would mean nothing")
        self.setup()
        for f in self.flows:
            f.start()
        acts = [(a, w) for a, w in self.ACTIONS
                if not self.args.actions or a in self.args.actions]
        names = [a for a, _ in acts] or ["none"]
        weights = [w for _, w in acts] or [1]
        end = time.monotonic() + self.args.duration
        next_unload = time.monotonic() + 15
        while time.monotonic() < end:
            a = self.r.choices(names, weights)[0]
            if time.monotonic() > next_unload and "modprobe_r" in names:
                a, next_unload = "modprobe_r", time.monotonic() + 15
            t = time.monotonic()
            try:
                getattr(self, "a_" + a)()
            except Exception as e:       # noqa: BLE001
                self.fail(f"action {a}: {e!r}")
            self.actions[a] = self.actions.get(a, 0) + 1
            self.spent[a] = self.spent.get(a, 0) + time.monotonic() - t
            time.sleep(self.r.random() * 0.05)
        for f in self.flows:
            f.finish()
        for f in self.flows:
            f.tx.close()
            f.rx.close()
        self.sig.close()
        for f in self.flows:
            self.log(f.report())
            if f.name.startswith("stable"):
                if f.sent == 0 or len(f.got) != f.sent or f.dups:
                    missing = sorted(set(range(f.sent)) - f.got)[:20]
                    self.fail(f"{f.report()}; first missing: {missing}")
            elif not f.got:
                self.fail(f"no packet at all got through: {f.report()}")
        # tear down; the module must then unload
        for ch in (self.c, self.s):
            ch.destroy()
        unloaded = False
        t1 = time.monotonic()
        seen = []
        while time.monotonic() < t1 + self.args.unload_wait:
            p = subprocess.run(["modprobe", "-r", "seg6x"],
                               capture_output=True, text=True)
            if p.returncode == 0 and not os.path.exists("/sys/module/seg6x"):
                unloaded = True
                break
            ref = refcnt()
            if not seen or seen[-1][1] != ref:
                seen.append((round(time.monotonic() - t1, 1), ref))
            time.sleep(0.5)
        if unloaded:
            self.log(f"module unloaded {time.monotonic() - t1:.1f} s after "
                     f"the teardown (reference counts seen: {seen})")
        else:
            self.fail(f"modprobe -r seg6x {self.args.unload_wait} s after "
                      "the teardown: "
                      f"{p.stderr.strip()}; module reference count over "
                      f"time (s, refcnt): {seen}; named namespaces left: "
                      f"{os.listdir('/run/netns')}")
        splats = klog.reports()
        if splats:
            self.fail("kernel log:\n" + "\n".join(splats[:60]))
        sh(["modprobe", "seg6x"], check=False)
        st = sum(f.sent for f in self.flows)
        res = "PASS" if not self.failures else "FAIL"
        self.log("actions (count, seconds): " + ", ".join(
            f"{k} {v} {self.spent[k]:.1f}"
            for k, v in sorted(self.actions.items())))
        self.log(f"churn: seed {self.args.seed}: "
                 f"{sum(self.actions.values())} changes in "
                 f"{self.args.duration} s, {st} packets in "
                 f"{len(self.flows)} flows, stable flows lost "
                 f"{sum(f.sent - len(f.got) for f in self.flows if f.name.startswith('stable'))}"
                 f", module unloaded: {'yes' if unloaded else 'NO'}, "
                 f"{len(self.failures)} failures, "
                 f"{time.monotonic() - t0:.0f} s: {res}")
        return 0 if not self.failures else 1


def unique_chain_names():
    """Chains named after this process: leftovers of an interrupted run
    cannot collide with ours."""
    import itertools
    import lib.topo
    lib.topo._ids = itertools.count(os.getpid() * 10)


def refcnt():
    try:
        with open("/sys/module/seg6x/refcnt") as f:
            return int(f.read())
    except OSError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--duration", type=int, default=180)
    ap.add_argument("--unload-wait", type=int, default=90,
                    help="seconds the module has to unload after teardown")
    ap.add_argument("--actions", type=lambda v: v.split(","),
                    help="only these actions (comma-separated; 'none': "
                    "traffic only)")
    args = ap.parse_args()
    unique_chain_names()
    return Churn(args).run()


if __name__ == "__main__":
    sys.exit(main())
