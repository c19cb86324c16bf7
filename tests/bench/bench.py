#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Forwarding throughput of seg6x vs the in-tree seg6, inside the VM.

Runs as root in the guest (tests/bench/run.sh starts it). Topology, with
one veth pair per generator CPU into each router:

    G ==(veths)== R1 --> r1-out (dummy: the sink)
    G ==(veths)== R2 --> r2-out (dummy: the sink)

CPU 1 is the router's: RPS on every router ingress sends all routing work
there. Every other CPU runs a pktgen thread of namespace G, flooding one
router at a time with 100-byte IPv6/UDP frames, rate unlimited; the
router's surplus is dropped at its backlog. The router forwards into a
dummy device, which frees each packet on the spot: the dummy's tx counter
is the router's throughput, and nothing downstream competes for CPU 1.

Why run.sh gives the VM 4 CPUs: under TCG, pktgen makes a packet for
about what forwarding one costs, so one generator CPU cannot saturate
plain forwarding; three can. On a 2-core host, 4 busy vCPU threads are
split 2 + 2 by the host's scheduler, so the router's vCPU always shares
its core with one generator and runs at a steady half speed. (With 3
vCPUs, whether the router has a core to itself flips from sample to
sample, and rates with it.)

R1 is measured forwarding and encapsulating. R2 is measured as a segment
endpoint: pktgen cannot build an SRH, so a tc pedit action on G's egress
rewrites its UDP packets in place into SRH packets (on the generator CPUs).

Only ratios between cases of one run mean something: under TCG, absolute
rates depend on the host and its load.
"""
import argparse
import errno
import ipaddress
import json
import os
import statistics
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "../.."))
sys.path.insert(0, os.path.join(REPO, "tests/vm/tests"))

from lib import pktlib  # noqa: E402
from lib.netns import inside, ip_batch, sh, sysctl  # noqa: E402

SEG6CTL = os.path.join(REPO, "tools/seg6ctl/seg6ctl")
SECRET = "bench secret for key 7"

# With one CPU (insnrun.py's VM) generator and router share CPU 0.
ROUTER_CPU = 1 if os.cpu_count() > 1 else 0
GEN_CPUS = [c for c in range(os.cpu_count()) if c != ROUTER_CPU] or [0]
PKT_SIZE = 100               # Ethernet frame, without FCS
# Room for the generators' bursts while the router CPU is descheduled by
# the host (TCG): a short backlog would drop while the router idles.
BACKLOG = 10000

# Namespaces: a prefix of our own, so a test run's names never clash.
# R3 is R2's twin for End.DT4, which needs a VRF: creating one adds fib
# rules to its namespace for good, which would slow every lookup of R2's
# other cases.
NS = {n: f"bx{n}" for n in ("G", "R1", "R2", "R3")}
ROUTERS = (1, 2, 3)

# D1 is reached through R1, D2 through R2. The SIDs of R1's encap routes
# lead into R1's sink; R2's SID is on its loopback; TRANSIT is a segment
# that R2 merely forwards to.
D1, D1_NET = "fc00:d1::1", "fc00:d1::/64"
D2, D2_NET = "fc00:d2::1", "fc00:d2::/64"
TRANSIT, TRANSIT_NET = "fc00:d3::1", "fc00:d3::/64"
D3, D3_NET = "fc00:d4::1", "fc00:d4::/64"
R1_SEGS = "fc00:e1::1,fc00:e1::2"
R2_SID = "fc00:ff::2"
# Local SIDs of R2 (RFC 8986): routes, not addresses, so that an in-tree
# seg6local route of the prefix is reached (a local address would win).
X_SID = "fc00:ff::10"        # End.X to R2's sink
DT6_SID = "fc00:ff::16"      # End.DT6 into the main table
DT4_SID = "fc00:ff::14"      # R3's End.DT4 into its VRF
VRF, VRF_TABLE = "vrf-b", 100   # R3's VRF, and the route of D4 in it
D4, D4_NET = "10.3.0.1", "10.3.0.0/24"
# The SRH packets of End with HMAC: an HMAC TLV after the 2 segments
HMAC_PKT_SIZE = 14 + 40 + 8 + 2 * 16 + 40


def gen_dev(k, cpu):
    """G's veth towards router Rk, fed by the pktgen thread of `cpu`."""
    return f"g{k}c{cpu}"


def in_dev(k, cpu):
    """Router Rk's end of that veth."""
    return f"r{k}c{cpu}"


def in_mac(k, cpu):
    return f"02:00:00:{k:02x}:{cpu:02x}:01"


def ctl(*args, ns, input=None):
    """seg6ctl in namespace `ns`; raises on failure."""
    sh([SEG6CTL, "-n", NS[ns]] + [str(a) for a in args], input=input)


def ip(ns, *lines):
    ip_batch(NS[ns], list(lines))


def tc(*args):
    sh(["tc", "-n", NS["G"]] + list(args))


# --- topology --------------------------------------------------------------

def build():
    sh(["modprobe", "pktgen"])
    sh(["modprobe", "seg6x"])
    with open("/proc/sys/net/core/netdev_max_backlog", "w") as f:
        f.write(str(BACKLOG))
    ip_batch(None, [f"netns add {n}" for n in NS.values()])
    for n in NS.values():
        sysctl(n, "net.ipv6.conf.default.accept_dad", 0)
        sysctl(n, "net.ipv6.conf.all.accept_dad", 0)
        sysctl(n, "net.ipv6.conf.all.forwarding", 1)
    ip_batch(None, [
        f"link add {gen_dev(k, c)} netns {NS['G']} type veth "
        f"peer name {in_dev(k, c)} netns {NS[f'R{k}']} "
        f"address {in_mac(k, c)}"
        for k in ROUTERS for c in GEN_CPUS])

    ip("G", "link set lo up",
       *[f"link set {gen_dev(k, c)} up" for k in ROUTERS for c in GEN_CPUS])
    for k in ROUTERS:
        # the sink: a dummy device frees what it is sent; it is NOARP, so
        # the next hop needs no neighbour entry
        ip(f"R{k}", "link set lo up",
           *[f"link set {in_dev(k, c)} up" for c in GEN_CPUS],
           f"link add r{k}-out type dummy", f"link set r{k}-out up",
           f"addr add fc00:{k}0::1/64 dev r{k}-out nodad")
    ip("R1",     # the route to D1 is the case's
       # the in-tree seg6 routes the outer packet by its first segment
       "route add fc00:e1::/64 via fc00:10::2 dev r1-out",
       "sr tunsrc set fc00:10::1")
    ip("R2",
       f"addr add {R2_SID}/128 dev lo",
       f"route add {D2_NET} via fc00:20::2 dev r2-out",
       f"route add {TRANSIT_NET} via fc00:20::2 dev r2-out")
    # R3: End.DT4 into a VRF, whose table routes D4 to R3's sink (the
    # in-tree End.DT4 finds the VRF by its table: strict mode); the
    # reference forwards plain IPv6 to D3 in the main table
    sh(["modprobe", "vrf"])
    sysctl(NS["R3"], "net.vrf.strict_mode", 1)
    sysctl(NS["R3"], "net.ipv4.ip_forward", 1)
    ip("R3",
       f"route add {D3_NET} via fc00:30::2 dev r3-out",
       f"link add {VRF} type vrf table {VRF_TABLE}", f"link set {VRF} up",
       f"route add {D4_NET} dev r3-out table {VRF_TABLE}")
    # the in-tree keys, once (seg6x's go with the module: set per case)
    for r in ("R1", "R2"):
        sh(["ip", "-n", NS[r], "sr", "hmac", "set", "7", "sha256"],
           input=SECRET + "\n")
    # RPS: the router's work to its CPU (nothing to move with one CPU)
    for k in ROUTERS if GEN_CPUS != [ROUTER_CPU] else ():
        # sysfs shows a namespace's devices only when mounted inside it,
        # which `ip netns exec` does
        sh(["ip", "netns", "exec", NS[f"R{k}"], "sh", "-c",
            "; ".join(f"echo {1 << ROUTER_CPU:x} > /sys/class/net/"
                      f"{in_dev(k, c)}/queues/rx-0/rps_cpus"
                      for c in GEN_CPUS)])
    for k in ROUTERS[1:]:
        for c in GEN_CPUS:
            tc("qdisc", "add", "dev", gen_dev(k, c), "clsact")
    hook_on()


def hook_on():
    """Register seg6x's PRE_ROUTING hook in every router, as on a node
    that uses seg6x. seg6x registers it at first use (an interface enabled,
    a SID added) and keeps it: without this, whether a case pays for it
    would depend on the cases run before."""
    for k in ROUTERS:
        ctl("iface", "set", "default", "seg6_enabled", 1, ns=f"R{k}")
        ctl("iface", "set", "default", "seg6_enabled", 0, ns=f"R{k}")


def destroy():
    for n in NS.values():
        sh(["ip", "netns", "del", n], check=False)


def src6(k, cpu):
    """The source address of pktgen's packets to Rk from CPU `cpu`."""
    return f"fc00:{k}::{cpu + 1}"


def add_pedit(keys, k=2):
    """Rewrite every packet G sends to Rk with tc pedit `keys`, or
    `keys(cpu)` for the generator of each CPU."""
    for c in GEN_CPUS:
        tc("filter", "add", "dev", gen_dev(k, c), "egress", "matchall",
           "action", "pedit", *(keys(c) if callable(keys) else keys))


def munge(nh, words):
    """pedit keys: the IPv6 next header `nh`, then the 32-bit `words`
    from the end of the IPv6 header on."""
    keys = ["munge", "offset", "6", "u8", "set", str(nh)]
    for i, w in enumerate(words):
        keys += ["munge", "offset", str(40 + 4 * i), "u32", "set", hex(w)]
    return keys


def addr_words(*addrs):
    """IPv6 addresses as 32-bit words, in order."""
    out = []
    for a in addrs:
        b = ipaddress.IPv6Address(a).packed
        out += [int.from_bytes(b[i:i + 4], "big") for i in (0, 4, 8, 12)]
    return out


def plain_pedit(k=2, pkt_size=PKT_SIZE, nwords=10):
    """tc pedit with as many keys as srh_pedit's and encap_pedit's (or
    `nwords` + 1) that leaves pktgen's packets plain IPv6/UDP: the
    reference case of R2 (R3), whose generators pay what they pay for
    its other cases."""
    words = [(4000 << 16) | 5000,       # UDP ports, as pktgen's
             (pkt_size - 14 - 40) << 16]    # UDP length, no checksum
    words += [0x5E6B0000 + i for i in range(nwords - 2)]    # UDP payload
    add_pedit(munge(17, words), k)


def srh_pedit(first):
    """tc pedit that makes pktgen's IPv6/UDP packets to `first` carry an
    SRH with segments (first, D2), Segments Left 1, in the bytes where
    UDP and pktgen's header were (the payload length stays right)."""
    words = [0x3B040401,        # next header 59 (none), hdrlen 4, type 4, SL 1
             0x01000000]        # last entry 1, flags 0, tag 0
    words += addr_words(D2, first)  # Segment List[0] is the last segment
    add_pedit(munge(43, words))


def hmac_pedit(first):
    """srh_pedit's SRH with the HMAC flag and an HMAC TLV (sha256, key 7,
    SECRET) after the segments: HMAC_PKT_SIZE bytes, all rewritten. The
    HMAC covers the source address, so each generator gets its own."""
    segs = [pktlib.a2b(D2), pktlib.a2b(first)]
    flags = pktlib.FLAG_HMAC

    def keys(c):
        mac = pktlib.hmac_mac("sha256", SECRET.encode(),
                              pktlib.a2b(src6(2, c)), 1, flags, 7, segs)
        srh = pktlib.srh(segs, 1, pktlib.NH_NONE, flags=flags,
                         tlvs=pktlib.hmac_tlv(7, mac))
        assert len(srh) == HMAC_PKT_SIZE - 14 - 40
        return munge(43, [int.from_bytes(srh[i:i + 4], "big")
                          for i in range(0, len(srh), 4)])
    add_pedit(keys)


def encap_pedit(outer_dst):
    """tc pedit that makes pktgen's IPv6/UDP packets to `outer_dst` an
    IPv6-in-IPv6 packet without SRH (reduced encapsulation, as for End.DT6
    with one segment): the outer next header becomes 41 and an inner IPv6
    header to D2 takes the place of UDP and pktgen's header; the inner
    payload is the 6 bytes left (next header 59)."""
    inner = [0x60000000,        # version 6
             0x00063B40]        # payload length 6, next header 59, hlim 64
    inner += addr_words("fc00:2::99", D2)
    add_pedit(munge(41, inner))


def encap4_pedit(outer_dst):
    """encap_pedit for IPv4 at R3: IPv4-in-IPv6 without SRH (next header
    4), an inner IPv4 header to D4 (protocol 253, experimental; a correct
    checksum) in place of UDP, then as many payload words as make
    encap_pedit's count. The inner packet is the 46 bytes after the
    outer header."""
    inner = pktlib.ipv4("192.0.2.1", D4, 253,
                        bytes(PKT_SIZE - 14 - 40 - 20))
    words = [int.from_bytes(inner[i:i + 4], "big") for i in range(0, 20, 4)]
    words += [0x5E6B0000 + i for i in range(5)]
    add_pedit(munge(4, words), 3)


def frag_pedit():
    """tc pedit that makes pktgen's IPv6/UDP packets first fragments
    (offset 0, M = 1) of never-completed sets, all with one
    identification: what a node that reassembled transit traffic would
    queue (and finally drop) instead of forwarding."""
    words = [0x3B000001,        # next header 59, offset 0, M = 1
             0x5E6B0001]        # identification
    add_pedit(munge(44, words))   # Fragment


def srh_pedit_del(k=2):
    for c in GEN_CPUS:
        tc("filter", "del", "dev", gen_dev(k, c), "egress")


# --- cases -----------------------------------------------------------------

class Case:
    """One configuration; out_bytes: the frame size it must send out
    (pkt_size, what pktgen sends, by default); ref: the case whose count
    insnreport.py subtracts (fwd at R1, fwd-r2 elsewhere)."""

    def __init__(self, name, router, what, setup, teardown, dst6=None,
                 out_bytes=None, pkt_size=PKT_SIZE, ref=None):
        self.name, self.router, self.what = name, router, what
        self.setup, self.teardown = setup, teardown
        self.dst6 = dst6 or (D1 if router == "R1" else R2_SID)
        self.pkt_size = pkt_size
        self.out_bytes = pkt_size if out_bytes is None else out_bytes
        self.ref = ref or ("fwd" if router == "R1" else "fwd-r2")


def r1_route(spec):
    return (lambda: ip("R1", f"route add {D1_NET} {spec}"),
            lambda: ip("R1", f"route del {D1_NET}"))


def r1_seg6x(hmac, segs=R1_SEGS, mode="encap"):
    def setup():
        ctl("tunsrc", "set", "fc00:10::1", ns="R1")
        extra = []
        if hmac:
            ctl("hmac", "set", 7, "sha256", ns="R1", input=SECRET + "\n")
            extra = ["hmac", 7]
        ctl("route", "add", D1_NET, "mode", mode, "segs", segs,
            *extra, "dev", "r1-out", "via", "fc00:10::2", ns="R1")

    def teardown():
        ctl("route", "flush", ns="R1")
        if hmac:
            ctl("hmac", "del", 7, ns="R1")
    return setup, teardown


def r1_unloaded():
    """Plain forwarding with seg6x out of the kernel."""
    return without_seg6x(*r1_route("via fc00:10::2 dev r1-out"))


def without_seg6x(setup, teardown):
    """A case run with seg6x out of the kernel: what the in-tree seg6
    costs on a node that does not run seg6x at all (elsewhere both
    implementations pay seg6x's hook, as on a node that runs both)."""
    def s():
        sh(["modprobe", "-r", "seg6x"])
        setup()
        time.sleep(1)    # let the unload's deferred work run first

    def t():
        teardown()
        sh(["modprobe", "seg6x"])
        hook_on()
    return s, t


def r1_unused():
    """Plain forwarding with seg6x loaded but never used in R1 since: it
    hooks PRE_ROUTING only in namespaces that use it, so this should cost
    what fwd-unloaded does."""
    setup, teardown = r1_route("via fc00:10::2 dev r1-out")

    def s():
        sh(["modprobe", "-r", "seg6x"])
        sh(["modprobe", "seg6x"])
        setup()

    def t():
        teardown()
        hook_on()
    return s, t


def r2_intree(on, hmac=False):
    """seg6_enabled (and with `hmac`, seg6_require_hmac: on the
    receiving interfaces, the ones the in-tree End looks at)."""
    sysctl(NS["R2"], "net.ipv6.conf.all.seg6_enabled", int(on))
    for c in GEN_CPUS:
        sysctl(NS["R2"], f"net.ipv6.conf.{in_dev(2, c)}.seg6_enabled",
               int(on))
        if hmac:
            sysctl(NS["R2"],
                   f"net.ipv6.conf.{in_dev(2, c)}.seg6_require_hmac",
                   int(on))


def r2_seg6x(on, hmac=False):
    if hmac and on:
        ctl("hmac", "set", 7, "sha256", ns="R2", input=SECRET + "\n")
    ctl("iface", "set", "default", "seg6_enabled", int(on),
        *(["require_hmac", int(on)] if hmac else []), ns="R2")
    if hmac and not on:
        ctl("hmac", "del", 7, ns="R2")


def r2_seg6local(sid, action, r="R2"):
    """An in-tree seg6local route of router `r` (the pedit is the
    caller's)."""
    dev = f"{r.lower()}-out"
    return (lambda: ip(r, f"route add {sid}/128 encap seg6local "
                       f"action {action} dev {dev}"),
            lambda: ip(r, f"route del {sid}/128"))


def r2_sid(sid, behavior, r="R2"):
    """A seg6x local SID of router `r`."""
    return (lambda: ctl("sid", "add", sid, "behavior", *behavior.split(),
                        ns=r),
            lambda: ctl("sid", "flush", ns=r))


FILL = 100000


def filled(kind, r, nh, case):
    """`case` (a setup/teardown pair) with FILL more seg6x routes (kind
    "route") or SIDs ("sid") of router `r` installed first, with one
    seg6ctl -b: what a large table costs the packet looked up in it. The
    case's own teardown flushes them with its own."""
    if kind == "route":
        lines = [f"route add fc00:6{i >> 16:03x}:{i & 0xffff:x}::/64 mode "
                 f"encap segs {R1_SEGS} dev r1-out via {nh}"
                 for i in range(FILL)]
    else:
        lines = [f"sid add fc00:5{i >> 16:03x}:{i & 0xffff:x}::1 behavior "
                 f"End.X nh6 {nh} dev r2-out" for i in range(FILL)]
    setup, teardown = case

    def s():
        sh([SEG6CTL, "-n", NS[r], "-b", "-"], input="\n".join(lines) + "\n")
        setup()
    return s, teardown


def on_r2(pedit, route, k=2):
    """Case setup/teardown: the generators' pedit, then the route/SID
    of R2 (Rk)."""
    setup, teardown = route
    return (lambda: (pedit(), setup()),
            lambda: (srh_pedit_del(k), teardown()))


def cases():
    NH2 = "fc00:20::2"           # R2's next hop on its sink
    fwd = "via fc00:10::2 dev r1-out"
    encap = f"encap seg6 mode encap segs {R1_SEGS}"
    segs1 = "fc00:e1::1"
    segs8 = ",".join(f"fc00:e1::{i}" for i in range(1, 9))
    # what encapsulation adds: outer IPv6 header, SRH with 2 segments;
    # and the HMAC TLV
    ENCAP, HMAC = 40 + 8 + 2 * 16, 40

    def srh(n):
        return 8 + 16 * n
    return [
        Case("fwd", "R1", "plain IPv6 forwarding (the reference)",
             *r1_route(fwd)),
        Case("fwd-unloaded", "R1", "plain forwarding, seg6x not loaded",
             *r1_unloaded()),
        Case("fwd-unused", "R1", "plain forwarding, seg6x loaded, unused",
             *r1_unused()),
        Case("seg6-encap", "R1", "in-tree seg6 encap, 2 segments",
             *r1_route(f"{encap} dev r1-out"),
             out_bytes=PKT_SIZE + ENCAP),
        Case("seg6-encap-alone", "R1", "in-tree seg6 encap, 2 segments, "
             "seg6x not loaded", *without_seg6x(*r1_route(f"{encap} dev "
                                                      "r1-out")),
             out_bytes=PKT_SIZE + ENCAP, ref="fwd-unloaded"),
        Case("seg6x-encap", "R1", "seg6x encap, 2 segments",
             *r1_seg6x(False), out_bytes=PKT_SIZE + ENCAP),
        Case("seg6x-encap-100k", "R1", "seg6x encap, 2 segments, among "
             f"{FILL:,} seg6x routes",
             *filled("route", "R1", "fc00:10::2", r1_seg6x(False)),
             out_bytes=PKT_SIZE + ENCAP),
        Case("seg6-encap1", "R1", "in-tree seg6 encap, 1 segment",
             *r1_route(f"encap seg6 mode encap segs {segs1} dev r1-out"),
             out_bytes=PKT_SIZE + 40 + srh(1)),
        Case("seg6x-encap1", "R1", "seg6x encap, 1 segment",
             *r1_seg6x(False, segs1), out_bytes=PKT_SIZE + 40 + srh(1)),
        Case("seg6-encap8", "R1", "in-tree seg6 encap, 8 segments",
             *r1_route(f"encap seg6 mode encap segs {segs8} dev r1-out"),
             out_bytes=PKT_SIZE + 40 + srh(8)),
        Case("seg6x-encap8", "R1", "seg6x encap, 8 segments",
             *r1_seg6x(False, segs8), out_bytes=PKT_SIZE + 40 + srh(8)),
        # H.Insert: the original destination becomes Segment List[0], so
        # the SRH has 3 segments, and there is no outer header
        Case("seg6-inline", "R1", "in-tree seg6 inline (H.Insert), 2 segments",
             *r1_route(f"encap seg6 mode inline segs {R1_SEGS} dev r1-out"),
             out_bytes=PKT_SIZE + srh(3)),
        Case("seg6x-inline", "R1", "seg6x inline (H.Insert), 2 segments",
             *r1_seg6x(False, mode="inline"), out_bytes=PKT_SIZE + srh(3)),
        Case("seg6-encap-hmac", "R1", "in-tree seg6 encap + HMAC sha256",
             *r1_route(f"{encap} hmac 7 dev r1-out"),
             out_bytes=PKT_SIZE + ENCAP + HMAC),
        Case("seg6x-encap-hmac", "R1", "seg6x encap + HMAC sha256",
             *r1_seg6x(True), out_bytes=PKT_SIZE + ENCAP + HMAC),
        # R2's cases cost their generators tc pedit and queue_xmit: this
        # one too, so that it is their reference
        Case("fwd-r2", "R2", "plain forwarding at R2 (its reference)",
             plain_pedit, srh_pedit_del, dst6=D2),
        Case("fwd-r2-alone", "R2", "plain forwarding at R2, seg6x not "
             "loaded", *without_seg6x(plain_pedit, srh_pedit_del), dst6=D2),
        # End changes no size: that packets come out at all shows it
        # worked (R2 would drop them at local delivery otherwise)
        Case("fwd-srh", "R2", "transit forwarding of SRH packets",
             lambda: srh_pedit(TRANSIT), srh_pedit_del, dst6=TRANSIT),
        # transit fragments through a namespace where seg6x is enabled:
        # forwarded as they are, with no reassembly to pay (or to hold
        # them for ever)
        Case("fwd-frag", "R2", "transit fragments, seg6x enabled at R2",
             lambda: (frag_pedit(), r2_seg6x(True)),
             lambda: (srh_pedit_del(), r2_seg6x(False)), dst6=TRANSIT),
        Case("seg6-end", "R2", "in-tree seg6 End (seg6_enabled sysctls)",
             lambda: (srh_pedit(R2_SID), r2_intree(True)),
             lambda: (srh_pedit_del(), r2_intree(False))),
        Case("seg6-end-alone", "R2", "in-tree seg6 End, seg6x not loaded",
             *without_seg6x(lambda: (srh_pedit(R2_SID), r2_intree(True)),
                            lambda: (srh_pedit_del(), r2_intree(False))),
             ref="fwd-r2-alone"),
        Case("seg6x-end", "R2", "seg6x End (seg6_enabled 1)",
             lambda: (srh_pedit(R2_SID), r2_seg6x(True)),
             lambda: (srh_pedit_del(), r2_seg6x(False))),
        # End with a required HMAC: longer packets (SRH + HMAC TLV), and
        # a reference of their own with as long a pedit; what comes out
        # shows that the HMAC was accepted (it is required)
        Case("fwd-r2-hmac", "R2", "plain forwarding at R2, as long as "
             "end-hmac's (their reference)",
             lambda: plain_pedit(pkt_size=HMAC_PKT_SIZE,
                                 nwords=(HMAC_PKT_SIZE - 54) // 4),
             srh_pedit_del, dst6=D2, pkt_size=HMAC_PKT_SIZE),
        Case("seg6-end-hmac", "R2", "in-tree End, HMAC sha256 required",
             lambda: (hmac_pedit(R2_SID), r2_intree(True, hmac=True)),
             lambda: (srh_pedit_del(), r2_intree(False, hmac=True)),
             pkt_size=HMAC_PKT_SIZE, ref="fwd-r2-hmac"),
        Case("seg6x-end-hmac", "R2", "seg6x End, HMAC sha256 required",
             lambda: (hmac_pedit(R2_SID), r2_seg6x(True, hmac=True)),
             lambda: (srh_pedit_del(), r2_seg6x(False, hmac=True)),
             pkt_size=HMAC_PKT_SIZE, ref="fwd-r2-hmac"),
        Case("seg6local-endx", "R2", "in-tree seg6local End.X",
             *on_r2(lambda: srh_pedit(X_SID),
                    r2_seg6local(X_SID, f"End.X nh6 {NH2}")),
             dst6=X_SID),
        Case("seg6x-endx", "R2", "seg6x SID End.X",
             *on_r2(lambda: srh_pedit(X_SID),
                    r2_sid(X_SID, f"End.X nh6 {NH2} dev r2-out")),
             dst6=X_SID),
        Case("seg6x-endx-100k", "R2", f"seg6x SID End.X among {FILL:,} SIDs",
             *on_r2(lambda: srh_pedit(X_SID),
                    filled("sid", "R2", NH2,
                           r2_sid(X_SID, f"End.X nh6 {NH2} dev r2-out"))),
             dst6=X_SID),
        # End.DT6 takes the outer header off: 40 bytes less come out
        Case("seg6local-enddt6", "R2", "in-tree seg6local End.DT6 table 254",
             *on_r2(lambda: encap_pedit(DT6_SID),
                    r2_seg6local(DT6_SID, "End.DT6 table 254")),
             dst6=DT6_SID, out_bytes=PKT_SIZE - 40),
        Case("seg6x-enddt6", "R2", "seg6x SID End.DT6 table 254",
             *on_r2(lambda: encap_pedit(DT6_SID),
                    r2_sid(DT6_SID, "End.DT6 table 254")),
             dst6=DT6_SID, out_bytes=PKT_SIZE - 40),
        # End.DT4 at R3, the namespace with a VRF, and its reference
        Case("fwd-r3", "R3", "plain forwarding at R3 (its VRF's fib rules)",
             lambda: plain_pedit(3), lambda: srh_pedit_del(3), dst6=D3,
             ref="fwd-r3"),
        Case("seg6local-enddt4", "R3", f"in-tree seg6local End.DT4 "
             f"vrftable {VRF_TABLE}",
             *on_r2(lambda: encap4_pedit(DT4_SID),
                    r2_seg6local(DT4_SID, f"End.DT4 vrftable {VRF_TABLE}",
                                 "R3"), 3),
             dst6=DT4_SID, out_bytes=PKT_SIZE - 40, ref="fwd-r3"),
        Case("seg6x-enddt4", "R3", f"seg6x SID End.DT4 vrf {VRF}",
             *on_r2(lambda: encap4_pedit(DT4_SID),
                    r2_sid(DT4_SID, f"End.DT4 vrf {VRF}", "R3"), 3),
             dst6=DT4_SID, out_bytes=PKT_SIZE - 40, ref="fwd-r3"),
    ]


# --- generator and counters ------------------------------------------------

class Pktgen:
    """pktgen of namespace G (/proc/net/pktgen is per namespace)."""

    def __init__(self):
        self.runner = None
        self.devs = {}           # the device of each pktgen thread

    def _use(self, cpu, dev):
        """Make `dev` the one device of CPU `cpu`'s pktgen thread."""
        if self.devs.get(cpu) == dev:
            return
        self._write(f"kpktgend_{cpu}", "rem_device_all")
        # the thread lets go of its devices when it next runs: until then
        # adding one of them fails (EBUSY)
        for _ in range(50):
            try:
                self._write(f"kpktgend_{cpu}", f"add_device {dev}")
                break
            except OSError as e:
                if e.errno != errno.EBUSY:
                    raise
                time.sleep(0.1)
        else:
            raise RuntimeError(f"pktgen: {dev} stays busy")
        self.devs[cpu] = dev

    def _write(self, name, cmd):
        # /proc/thread-self/net, not /proc/net (the namespace of the
        # thread group leader): start() writes from another thread
        with inside(NS["G"]):
            with open(f"/proc/thread-self/net/pktgen/{name}", "wb",
                      buffering=0) as f:
                # pgctrl overwrites the last byte with NUL: end with \n
                f.write(cmd.encode() + b"\n")

    def result(self):
        """The "Result:" line of each device's pktgen file."""
        out = []
        with inside(NS["G"]):
            for dev in self.devs.values():
                with open(f"/proc/thread-self/net/pktgen/{dev}") as f:
                    out += [ln.strip() for ln in f if "Result:" in ln]
        return out

    def configure(self, router, dst6, count=0, pkt_size=PKT_SIZE):
        """count: packets per generator CPU; 0: until stopped."""
        k = int(router[1])
        for c in GEN_CPUS:
            dev = gen_dev(k, c)
            self._use(c, dev)
            for cmd in (f"count {count}",
                        "clone_skb 0",      # a fresh skb each time: the
                                            # router modifies and keeps it
                        f"pkt_size {pkt_size}", "delay 0",
                        "flag NO_TIMESTAMP",
                        f"dst_mac {in_mac(k, c)}",
                        f"src6 {src6(k, c)}", f"dst6 {dst6}",
                        "udp_src_min 4000", "udp_src_max 4000",
                        "udp_dst_min 5000", "udp_dst_max 5000",
                        # R2's (R3's) SRH is added by tc egress, which
                        # start_xmit (cheaper) would skip
                        "xmit_mode " + ("queue_xmit" if k != 1
                                        else "start_xmit")):
                self._write(dev, cmd)

    def start(self):
        # writing "start" returns only once pktgen stops: use a thread
        self.runner = threading.Thread(
            target=self._write, args=("pgctrl", "start"), daemon=True)
        self.runner.start()

    def run(self):
        """Send the configured count; returns when pktgen is done."""
        self._write("pgctrl", "start")

    def stop(self):
        self._write("pgctrl", "stop")
        self.runner.join(timeout=10)


def netdev(ns):
    """{ifname: (rx_dropped, tx_bytes, tx_packets)}"""
    with inside(NS[ns]):
        with open("/proc/thread-self/net/dev") as f:
            lines = f.readlines()[2:]
    out = {}
    for line in lines:
        name, rest = line.split(":", 1)
        v = [int(x) for x in rest.split()]
        out[name.strip()] = (v[3], v[8], v[9])
    return out


def idle_secs(cpu):
    """Idle + iowait time of `cpu` so far (precise on NO_HZ kernels)."""
    with open("/proc/stat") as f:
        for line in f:
            v = line.split()
            if v[0] == f"cpu{cpu}":
                return (int(v[4]) + int(v[5])) / os.sysconf("SC_CLK_TCK")
    raise RuntimeError(f"cpu{cpu} not in /proc/stat")


def snapshot(router):
    return netdev(router), idle_secs(ROUTER_CPU), time.monotonic()


def measure(case, gen, secs, warmup):
    r = case.router
    k = int(r[1])
    case.setup()
    try:
        gen.configure(r, case.dst6, pkt_size=case.pkt_size)
        gen.start()
        time.sleep(warmup)
        c0, idle0, t0 = snapshot(r)
        time.sleep(secs)
        c1, idle1, t1 = snapshot(r)
        gen.stop()
    finally:
        case.teardown()

    def delta(dev, i):
        return c1[dev][i] - c0[dev][i]
    dropped = sum(delta(in_dev(k, c), 0) for c in GEN_CPUS)
    out_bytes, out = delta(f"r{k}-out", 1), delta(f"r{k}-out", 2)
    return {"pps": out / (t1 - t0),
            # the router CPU's busy share: below 100% the generators, not
            # the router, set the pace
            "busy": min(1.0, max(0.0, 1 - (idle1 - idle0) / (t1 - t0))),
            # offered packets dropped at the router's backlog (what it
            # accepted came out: the backlog is bounded)
            "drop": dropped / max(1, out + dropped),
            # frame size leaving the router: tells plain, encapsulated
            # and signed packets apart
            "bytes": out_bytes / out if out else 0.0}


# --- report ----------------------------------------------------------------

def summarize(cs, samples):
    rows = []
    for c in cs:
        ss = samples[c.name]
        pps = [s["pps"] for s in ss]

        def med(key):
            return statistics.median(s[key] for s in ss)
        rows.append({
            "case": c.name, "router": c.router, "what": c.what,
            "kpps": [round(x / 1000, 2) for x in pps],
            "median_kpps": round(statistics.median(pps) / 1000, 2),
            "min_kpps": round(min(pps) / 1000, 2),
            "max_kpps": round(max(pps) / 1000, 2),
            "cpu_pct": round(100 * med("busy"), 1),
            "drop_pct": round(100 * med("drop"), 1),
            "out_bytes": round(med("bytes")),
            "expected_bytes": c.out_bytes,
            "pkt_size": c.pkt_size,
        })
    ref = next(r for r in rows if r["case"] == "fwd")["median_kpps"]
    for r in rows:
        r["ratio"] = round(r["median_kpps"] / ref, 3) if ref else 0.0
    return rows


def print_table(rows, meta):
    sizes = "/".join(str(n) for n in sorted({r["pkt_size"] for r in rows}))
    print(f"\nseg6x forwarding benchmark on {meta['kernel']}: "
          f"{meta['reps']} x {meta['secs']:g} s per case, interleaved; "
          f"{sizes}-byte frames; router on CPU {ROUTER_CPU}, pktgen on "
          f"CPU {','.join(map(str, GEN_CPUS))}")
    hdr = (f"{'case':<17} {'at':<3} {'kpps':>6} {'min':>6} {'max':>6} "
           f"{'vs fwd':>6} {'cpu%':>4} {'drop%':>5} {'B/pkt':>5}  what")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        bad = "!" if r["out_bytes"] != r["expected_bytes"] else " "
        print(f"{r['case']:<17} {r['router']:<3} {r['median_kpps']:>6.1f} "
              f"{r['min_kpps']:>6.1f} {r['max_kpps']:>6.1f} "
              f"{r['ratio']:>6.2f} {r['cpu_pct']:>4.0f} "
              f"{r['drop_pct']:>5.0f} {r['out_bytes']:>4}{bad}  "
              f"{r['what']}")
    print("kpps: packets/s out of the router, thousands (median, min, max); "
          "vs fwd: median / fwd's\ncpu%: router CPU busy; drop%: offered "
          "packets its backlog dropped; B/pkt: frame size out")
    low = [r["case"] for r in rows if r["cpu_pct"] < 95]
    if low:
        print("WARNING: router CPU not saturated in " + ", ".join(low) +
              ": the generators set the rate there (see SEG6X_VM_SMP)")
    bad = [r["case"] for r in rows if r["out_bytes"] != r["expected_bytes"]]
    if bad:
        print("WARNING: unexpected frame size out in " + ", ".join(bad) +
              ": those cases did not do what they say")
    spread = [r["case"] for r in rows if r["median_kpps"] and
              (r["max_kpps"] - r["min_kpps"]) / r["median_kpps"] > 0.3]
    if spread:
        print("note: samples spread by more than 30% in " +
              ", ".join(spread) + " (a busy host?)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-r", "--reps", type=int,
                    default=int(os.environ.get("SEG6X_BENCH_REPS", 5)),
                    help="samples per case (default 5)")
    ap.add_argument("-s", "--secs", type=float,
                    default=float(os.environ.get("SEG6X_BENCH_SECS", 3)),
                    help="length of one sample in seconds (default 3)")
    ap.add_argument("-w", "--warmup", type=float, default=0.5,
                    help="seconds of traffic before a sample (default 0.5)")
    ap.add_argument("-k", "--cases", help="comma-separated subset "
                    "(fwd is always measured: it is the reference)")
    args = ap.parse_args()

    if os.geteuid() != 0 or not os.environ.get("SEG6X_VM"):
        sys.exit("bench.py: runs in the VM, as root: use tests/bench/run.sh")
    if os.cpu_count() < 2:
        sys.exit("bench.py: needs at least 2 CPUs (generator and router)")

    cs = cases()
    if args.cases:
        want = set(args.cases.split(",")) | {"fwd"}
        unknown = want - {c.name for c in cs}
        if unknown:
            sys.exit(f"bench.py: unknown case(s): {', '.join(unknown)}")
        cs = [c for c in cs if c.name in want]

    # keep this process and its children off the router's CPU
    os.sched_setaffinity(0, GEN_CPUS)
    destroy()
    build()
    gen = Pktgen()
    samples = {c.name: [] for c in cs}
    try:
        for rep in range(args.reps):
            # rotate the order, so that no case always follows the same one
            order = cs[rep % len(cs):] + cs[:rep % len(cs)]
            for c in order:
                s = measure(c, gen, args.secs, args.warmup)
                samples[c.name].append(s)
                print(f"  rep {rep + 1}/{args.reps} {c.name:<17} "
                      f"{s['pps'] / 1000:6.1f} kpps  cpu "
                      f"{100 * s['busy']:3.0f}%  drop "
                      f"{100 * s['drop']:3.0f}%  {s['bytes']:4.0f} B",
                      flush=True)
    finally:
        destroy()

    meta = {"kernel": os.uname().release, "reps": args.reps,
            "secs": args.secs, "pkt_size": PKT_SIZE,
            "cpus": os.cpu_count(), "router_cpu": ROUTER_CPU,
            "generator_cpus": GEN_CPUS}
    rows = summarize(cs, samples)
    print_table(rows, meta)
    out = os.environ.get("SEG6X_OUT")
    if out:
        with open(os.path.join(out, "bench.json"), "w") as f:
            json.dump(dict(meta, cases=rows), f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
