# SPDX-License-Identifier: GPL-2.0
"""BGP SRv6 L3VPN (RFC 9252) from FRR's zebra into seg6x through
seg6x-fpmd, end to end.

    h1 -- r1 ===== core 2001:db8:12::/64 ===== r2 -- h2
           \\
            ===== 2001:db8:13::/64 ===== r3 (h2's prefixes too; joins
                                              for the multi-homing step)

The CEs h1 and h2 sit in VRF vrf10 (table 10) of their PE. Each PE runs
its own zebra (with dplane_fpm_nl, `fpm address 127.0.0.1`) and bgpd,
from config files, pid files, vty and zserv sockets of its own in a
per-test directory, and seg6x-fpmd listening on 127.0.0.1:2620 in its
namespace. BGP IPv4/IPv6 VPN between the core addresses exchanges the
CE prefixes with SIDs from each PE's locator (`sid vpn export auto`).

zebra also programs the in-tree seg6/seg6local itself: the test checks
that seg6x, not the in-tree seg6, carries the traffic (the encap routes
in table 10 are seg6x's, seg6x counts every packet), and that zebra and
the daemon do not fight over them.
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

import functools

import pytest

from conftest import REPO, SEG6CTL, ctl, wait_until
from lib.netns import inside, ip_batch, read_sysctl, sh, sysctl
from lib.timing import scaled

ZEBRA = "/usr/lib/frr/zebra"
BGPD = "/usr/lib/frr/bgpd"
VTYSH = "/usr/bin/vtysh"
FPMD = os.path.join(REPO, "tools/fpmd/seg6x-fpmd")
UPGRADE = os.path.join(REPO, "tools/upgrade/seg6x-upgrade")

pytestmark = pytest.mark.skipif(
    not (os.access(ZEBRA, os.X_OK) and os.access(BGPD, os.X_OK) and
         os.access(VTYSH, os.X_OK)),
    reason="FRR is not installed (/usr/lib/frr/zebra, bgpd, vtysh): "
           "tests/vm/setup.sh installs Debian's frr without starting it")

PE = {
    "r1": {"n": 1, "core": "2001:db8:12::1", "peer": "2001:db8:12::2",
           "ce": "h1", "loc": "2001:db8:1:1::/64",
           "remote_loc": "2001:db8:2:2::/64"},
    "r2": {"n": 2, "core": "2001:db8:12::2", "peer": "2001:db8:12::1",
           "ce": "h2", "loc": "2001:db8:2:2::/64",
           "remote_loc": "2001:db8:1:1::/64"},
}
# A second egress for h2's prefixes, started only by the multi-homing step:
# an iBGP peer of r1 alone, announcing them from a dummy device of its
# own vrf10 with SIDs of its own locator. r1 runs no seg6x-fpmd for it.
R3 = {"n": 3, "core": "2001:db8:13::3", "peer": "2001:db8:13::1",
      "loc": "2001:db8:3:3::/64"}
R1_R3 = "2001:db8:13::1"
CE4 = {"h1": "192.168.1", "h2": "192.168.2"}
CE6 = {"h1": "2001:db8:c1", "h2": "2001:db8:c2"}
NAMESPACES = ("r1", "r2", "r3", "h1", "h2")


def zebra_conf(pe, d):
    p = R3 if pe == "r3" else PE[pe]
    return f"""\
hostname {pe}-zebra
log file {d}/zebra.log informational
!
fpm address 127.0.0.1
!
vrf vrf10
exit-vrf
!
segment-routing
 srv6
  locators
   locator loc1
    prefix {p['loc']}
   exit
  exit
 exit
exit
!
"""


def neighbor_conf(peer):
    return f"""\
 neighbor {peer} remote-as 65000
 neighbor {peer} timers 3 10
 neighbor {peer} timers connect 2
 ! IPv4 VPN routes with the IPv6 next hop of the core (RFC 8950)
 neighbor {peer} capability extended-nexthop
"""


def bgpd_conf(pe, d):
    p = R3 if pe == "r3" else PE[pe]
    n = p["n"]
    peers = [p["peer"]] + ([R3["core"]] if pe == "r1" else [])
    af = ""
    for fam in ("ipv4", "ipv6"):
        af += f"""\
 address-family {fam} unicast
  redistribute connected
  sid vpn export auto
  rd vpn export 65000:{10 + n}
  rt vpn both 65000:10
  export vpn
  import vpn
 exit-address-family
"""
    activate = "".join(f"  neighbor {x} activate\n" for x in peers)
    return f"""\
hostname {pe}-bgpd
log file {d}/bgpd.log informational
!
router bgp 65000
 bgp router-id 10.0.0.{n}
 no bgp default ipv4-unicast
 no bgp ebgp-requires-policy
{"".join(neighbor_conf(x) for x in peers)} !
 segment-routing srv6
  locator loc1
 exit
 !
 address-family ipv4 vpn
{activate} exit-address-family
 !
 address-family ipv6 vpn
{activate} exit-address-family
exit
!
router bgp 65000 vrf vrf10
 bgp router-id 10.0.0.{n}
 no bgp ebgp-requires-policy
{af}exit
!
"""


class Lab:
    def __init__(self, base, logdir):
        self.base = base            # sockets, pid files (guest tmpfs)
        self.logdir = logdir        # logs (shared with the host if any)
        self.fpmd = {}
        self.fpmd_logs = {}
        self.failed = None

    def dir(self, pe):
        return os.path.join(self.base, pe)

    def log(self, pe, name):
        return os.path.join(self.logdir, f"{pe}-{name}.log")

    # topology
    def build(self):
        ip_batch(None, [f"netns add {n}" for n in NAMESPACES])
        for ns in NAMESPACES:
            sysctl(ns, "net.ipv6.conf.default.accept_dad", 0)
            sysctl(ns, "net.ipv6.conf.all.accept_dad", 0)
        for pe in PE:
            sysctl(pe, "net.ipv6.conf.all.forwarding", 1)
            sysctl(pe, "net.ipv4.ip_forward", 1)
        ip_batch(None, [
            "link add r1-r2 netns r1 type veth peer name r2-r1 netns r2",
            "link add r1-h1 netns r1 type veth peer name h1-r1 netns h1",
            "link add r2-h2 netns r2 type veth peer name h2-r2 netns h2",
            "link add r1-r3 netns r1 type veth peer name r3-r1 netns r3"])
        self.build_r3()
        for pe, p in PE.items():
            ce = p["ce"]
            other = "r2" if pe == "r1" else "r1"
            ip_batch(pe, [
                "link set lo up",
                f"link set {pe}-{other} up",
                f"addr add {p['core']}/64 dev {pe}-{other} nodad",
                "link add vrf10 type vrf table 10", "link set vrf10 up",
                f"link set {pe}-{ce} master vrf10", f"link set {pe}-{ce} up",
                f"addr add {CE4[ce]}.1/24 dev {pe}-{ce}",
                f"addr add {CE6[ce]}::1/64 dev {pe}-{ce} nodad",
                # the other PE's locator: no IGP in this lab
                f"route add {p['remote_loc']} via {p['peer']}"])
            # What zebra needs for the in-tree End.DT4 it installs too
            # (the vrf module is there once a VRF device exists).
            sysctl(pe, "net.vrf.strict_mode", 1)
            ip_batch(ce, [
                "link set lo up", f"link set {ce}-{pe} up",
                f"addr add {CE4[ce]}.2/24 dev {ce}-{pe}",
                f"addr add {CE6[ce]}::2/64 dev {ce}-{pe} nodad",
                f"route add default via {CE4[ce]}.1",
                f"route add ::/0 via {CE6[ce]}::1"])

    def build_r3(self):
        sysctl("r3", "net.ipv6.conf.all.forwarding", 1)
        ip_batch("r1", ["link set r1-r3 up",
                        f"addr add {R1_R3}/64 dev r1-r3 nodad",
                        f"route add {R3['loc']} via {R3['core']}"])
        ip_batch("r3", [
            "link set lo up", "link set r3-r1 up",
            f"addr add {R3['core']}/64 dev r3-r1 nodad",
            "link add vrf10 type vrf table 10", "link set vrf10 up",
            "link add c2 type dummy", "link set c2 master vrf10",
            "link set c2 up",
            f"addr add {CE4['h2']}.1/24 dev c2",
            f"addr add {CE6['h2']}::1/64 dev c2 nodad",
            f"route add {PE['r1']['loc']} via {R3['peer']}"])
        sysctl("r3", "net.vrf.strict_mode", 1)

    # daemons
    def start_fpmd(self, pe, verbose=True):
        f = open(self.log(pe, "fpmd"), "a")
        self.fpmd[pe] = subprocess.Popen(
            ["ip", "netns", "exec", pe, FPMD] + (["-v"] if verbose else []),
            stdout=f,
            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        self.fpmd_logs[pe] = f
        # listening once the port is taken
        assert wait_until(lambda: ":2620 " in sh(
            ["ip", "netns", "exec", pe, "ss", "-Hltn"]).stdout, 30), \
            f"seg6x-fpmd in {pe} does not listen"

    def stop_fpmd(self, pe):
        p = self.fpmd.pop(pe, None)
        if p:
            p.send_signal(signal.SIGTERM)
            try:
                p.wait(scaled(20))
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        f = self.fpmd_logs.pop(pe, None)
        if f:
            f.close()

    def start_frr(self, pe, daemons=("zebra", "bgpd")):
        d = self.dir(pe)
        os.makedirs(d, exist_ok=True)
        # As user frr (the default): Debian's FRR insists that the daemons'
        # user is in group frrvty, which root is not.
        shutil.chown(d, "frr", "frr")
        common = ["-d", "-P", "0",
                  "--vty_socket", d, "-z", f"{d}/zserv.api"]
        for name in daemons:
            conf = f"{d}/{name}.conf"
            with open(conf, "w") as f:
                f.write((zebra_conf if name == "zebra" else bgpd_conf)(
                    pe, d))
            extra = ["-M", "dplane_fpm_nl"] if name == "zebra" else []
            binary = ZEBRA if name == "zebra" else BGPD
            sh(["ip", "netns", "exec", pe, binary, *common, *extra,
                "-f", conf, "-i", f"{d}/{name}.pid"])
            if name == "zebra":
                assert wait_until(
                    lambda: os.path.exists(f"{d}/zserv.api"), 30), \
                    f"zebra in {pe} did not start"

    def stop_frr(self, pe, daemons=("bgpd", "zebra")):
        d = self.dir(pe)
        for name in daemons:
            try:
                pid = int(open(f"{d}/{name}.pid").read())
            except (OSError, ValueError):
                continue
            try:
                os.kill(pid, signal.SIGTERM)
            except ProcessLookupError:
                continue
            if not wait_until(lambda: not os.path.exists(f"/proc/{pid}"),
                              20, 0.2):
                os.kill(pid, signal.SIGKILL)

    def vtysh(self, pe, daemon, cmd):
        p = sh([VTYSH, "--vty_socket", self.dir(pe), "-d", daemon,
                "-c", cmd], check=False)
        return p.stdout

    def vtysh_json(self, pe, daemon, cmd):
        try:
            return json.loads(self.vtysh(pe, daemon, cmd) or "null")
        except ValueError:
            return None

    def destroy(self):
        for pe in list(PE) + ["r3"]:
            self.stop_frr(pe)
            self.stop_fpmd(pe)
            for name in ("zebra", "bgpd"):
                src = os.path.join(self.dir(pe), f"{name}.log")
                if os.path.exists(src):
                    shutil.copyfile(src, self.log(pe, name))
        for ns in NAMESPACES:
            sh(["ip", "netns", "del", ns], check=False)


def step(fn):
    """A step of the lab's story: once one failed, the next are skipped
    (they would only wait out their timeouts on a broken lab)."""
    @functools.wraps(fn)
    def run(lab):
        if lab.failed:
            pytest.skip(f"an earlier step failed: {lab.failed}")
        try:
            fn(lab)
        except BaseException:
            lab.failed = fn.__name__
            raise
    return run


def established(lab, pe):
    peer = PE[pe]["peer"]
    j = lab.vtysh_json(pe, "bgpd", f"show bgp neighbors {peer} json")
    return bool(j) and j.get(peer, {}).get("bgpState") == "Established"


def fpmd_routes(pe):
    return {(r["dst"], str(r["table"])): r
            for r in ctl("route", "show", "table", "all", ns=pe, js=True)}


def fpmd_sids(pe):
    return {s["sid"]: s for s in ctl("sid", "show", ns=pe, js=True)}


def remote(pe):
    return "h2" if pe == "r1" else "h1"


def vpn_routes_ok(pe):
    """The remote CE prefixes are seg6x routes of fpmd's in table 10,
    through the remote PE's locator."""
    rt = fpmd_routes(pe)
    ce = remote(pe)
    loc = PE["r2" if pe == "r1" else "r1"]["loc"].split("::")[0]
    for dst in (f"{CE4[ce]}.0/24", f"{CE6[ce]}::/64"):
        r = rt.get((dst, "10"))
        if not r or r.get("owner") != "fpmd" or r["mode"] != "encap" or \
                len(r["segs"]) != 1 or not r["segs"][0].startswith(loc):
            return False
    return True


def vpn_seg(pe, dst):
    return fpmd_routes(pe)[(dst, "10")]["segs"][0]


def sids_ok(pe):
    s = [x for x in fpmd_sids(pe).values() if x.get("owner") == "fpmd"]
    return sorted(x["behavior"] for x in s) == ["End.DT4", "End.DT6"] and \
        all(x.get("vrf") == "vrf10" for x in s)


def ping(src, dst, count=3):
    v6 = ":" in dst
    p = sh(["ip", "netns", "exec", src, "ping", "-6" if v6 else "-4", "-n",
            "-q", "-c", str(count), "-i", "0.2", "-W", str(int(scaled(3))),
            dst], check=False)
    return p.returncode == 0


@pytest.fixture(scope="module")
def lab():
    if not os.path.exists("/sys/module/seg6x"):
        sh(["modprobe", "seg6x"])
    base = tempfile.mkdtemp(prefix="frr-lab-")
    os.chmod(base, 0o755)           # the daemons run as user frr
    out = os.environ.get("SEG6X_OUT")
    logdir = os.path.join(out, "frr") if out else os.path.join(base, "log")
    shutil.rmtree(logdir, ignore_errors=True)
    os.makedirs(logdir)
    lab = Lab(base, logdir)
    try:
        lab.build()
        for pe in PE:
            # seg6x on in the PEs (their SIDs, and encap); the in-tree
            # seg6_enabled stays off everywhere.
            ctl("iface", "set", "default", "seg6_enabled", "1", ns=pe)
            lab.start_fpmd(pe)
            lab.start_frr(pe)
        yield lab
    finally:
        lab.destroy()
        shutil.rmtree(base, ignore_errors=True)


@step
def test_bgp_established(lab):
    assert wait_until(lambda: established(lab, "r1") and
                      established(lab, "r2"), 180, 1), \
        lab.vtysh("r1", "bgpd", "show bgp summary")


@step
def test_sids_and_routes_in_seg6x(lab):
    for pe in PE:
        assert wait_until(lambda: sids_ok(pe) and vpn_routes_ok(pe),
                          120, 1), (pe, fpmd_sids(pe), fpmd_routes(pe),
                                    lab.vtysh(pe, "bgpd",
                                              "show bgp ipv4 vpn"),
                                    lab.vtysh(pe, "zebra",
                                              "show ip route vrf vrf10"))
    for pe in PE:
        # zebra programmed the in-tree SIDs too (seg6x's come first)
        # and its in-tree encap route was replaced by seg6x's route.
        loc = PE[pe]["loc"].split("::")[0]
        six = sh(["ip", "-n", pe, "-6", "route", "show", "table", "all"]
                 ).stdout
        assert "seg6local" in six and loc in six
        tbl = sh(["ip", "-n", pe, "route", "show", "table", "10"]).stdout + \
            sh(["ip", "-n", pe, "-6", "route", "show", "table", "10"]).stdout
        assert "encap seg6 " not in tbl, tbl
    # zebra keeps its BGP routes selected (no kernel route won over them)
    j = lab.vtysh_json("r1", "zebra", "show ip route vrf vrf10 json")
    assert j["192.168.2.0/24"][0]["protocol"] == "bgp", j


@step
def test_ping_through_seg6x(lab):
    # the in-tree seg6 is off on the core links: seg6x is on its own
    for pe, other in (("r1", "r2"), ("r2", "r1")):
        assert read_sysctl(pe, f"net.ipv6.conf.{pe}-{other}.seg6_enabled") \
            == "0"
    for src, dst in (("h1", "192.168.2.2"), ("h1", "2001:db8:c2::2"),
                     ("h2", "192.168.1.2"), ("h2", "2001:db8:c1::2")):
        assert wait_until(lambda: ping(src, dst, 1), 60, 1), (src, dst)
    before = {pe: ctl("stats", ns=pe, js=True) for pe in PE}
    assert ping("h1", "192.168.2.2", 5) and ping("h1", "2001:db8:c2::2", 5)
    after = {pe: ctl("stats", ns=pe, js=True) for pe in PE}

    def delta(pe, *path):
        a, b = after[pe], before[pe]
        for k in path:
            a, b = a[k], b[k]
        return a - b
    # 5 echo requests each way over IPv4 and IPv6, and their replies:
    # every one encapsulated and decapsulated by seg6x (a packet is
    # decapsulated once: the in-tree seg6local handled none).
    for pe in PE:
        assert delta(pe, "encap") == 10, (before[pe], after[pe])
        assert delta(pe, "sid", "End.DT4") == 5, (before[pe], after[pe])
        assert delta(pe, "sid", "End.DT6") == 5, (before[pe], after[pe])


def tcp_transfer(src, dst_ns, dst, size=4 << 20):
    """@size random bytes over TCP from netns @src to @dst in @dst_ns:
    whether they arrived whole."""
    fam = socket.AF_INET6 if ":" in dst else socket.AF_INET
    with inside(dst_ns):
        srv = socket.socket(fam, socket.SOCK_STREAM)
        srv.bind((dst, 0))
        srv.listen(1)
    srv.settimeout(scaled(60))
    data, got = os.urandom(size), []

    def serve():
        c, _ = srv.accept()
        c.settimeout(scaled(60))
        buf = bytearray()
        while True:
            b = c.recv(1 << 16)
            if not b:
                break
            buf += b
        got.append(bytes(buf))
        c.close()
    t = threading.Thread(target=serve)
    t.start()
    with inside(src):
        cl = socket.create_connection((dst, srv.getsockname()[1]),
                                      timeout=scaled(30))
    cl.sendall(data)
    cl.shutdown(socket.SHUT_WR)
    t.join(scaled(120))
    cl.close()
    srv.close()
    return bool(got) and got[0] == data


@step
def test_tcp_through_seg6x(lab):
    """TCP (TSO/GSO on the veths) across the VPN: the GSO packets are
    encapsulated by seg6x at r1, segmented correctly, decapsulated at r2
    and delivered whole; the VPN routes count them; r2 drops nothing."""
    before = ctl("stats", ns="r2", js=True)["drop"]
    prefixes = (f"{CE4['h2']}.0/24", f"{CE6['h2']}::/64")

    def vpn_routes():
        rs = ctl("-s", "route", "show", "table", "10", ns="r1", js=True)
        return {r["dst"]: r for r in rs if r["dst"] in prefixes}

    for dst in ("192.168.2.2", "2001:db8:c2::2"):
        assert tcp_transfer("h1", "h2", dst), dst
    first = vpn_routes()
    # The first full-size segments do not fit once encapsulated: the
    # route refuses them with ICMP fragmentation needed / packet too big
    # (path MTU discovery), counted as its errors; how many depends on
    # what TCP had in flight. Once h1 knows the path MTU, every segment
    # fits: a second transfer adds no error.
    for dst in ("192.168.2.2", "2001:db8:c2::2"):
        assert tcp_transfer("h1", "h2", dst), dst
    second = vpn_routes()
    for p in prefixes:
        assert first[p]["packets"] > 0 and first[p]["errors"] <= 32, first[p]
        assert second[p]["errors"] == first[p]["errors"], second[p]
        assert second[p]["packets"] > first[p]["packets"]
    assert first[prefixes[1]]["bytes"] > 4 << 20
    assert ctl("stats", ns="r2", js=True)["drop"] == before


@step
def test_late_intree_route_is_replaced(lab):
    """zebra's own kernel install of the in-tree route landing after
    seg6x-fpmd's (as zebra does it: same table, prefix, metric and
    protocol bgp): the daemon puts its route back, and zebra keeps its BGP
    route selected (it ignores notifications of its own protocol)."""
    seg = vpn_seg("r1", "192.168.2.0/24")
    sh(["ip", "-n", "r1", "route", "replace", "192.168.2.0/24", "table",
        "10", "proto", "bgp", "metric", "20", "encap", "seg6", "mode",
        "encap", "segs", seg, "dev", "r1-r2"])
    assert wait_until(lambda: "encap seg6 " not in sh(
        ["ip", "-n", "r1", "route", "show", "table", "10",
         "192.168.2.0/24"]).stdout and vpn_routes_ok("r1"), 5, 0.1), \
        sh(["ip", "-n", "r1", "route", "show", "table", "10"]).stdout
    j = lab.vtysh_json("r1", "zebra", "show ip route vrf vrf10 json")
    assert j["192.168.2.0/24"][0]["protocol"] == "bgp", j
    assert ping("h1", "192.168.2.2", 2)


@step
def test_withdraw_leaves_seg6x(lab):
    assert vpn_routes_ok("r1")
    sh(["ip", "-n", "r2", "addr", "del", "192.168.2.1/24", "dev", "r2-h2"])
    t0 = time.monotonic()
    gone = wait_until(lambda: ("192.168.2.0/24", "10") not in
                      fpmd_routes("r1"), 5, 0.1)
    took = time.monotonic() - t0
    assert gone, fpmd_routes("r1")
    assert took <= scaled(5)
    assert ("2001:db8:c2::/64", "10") in fpmd_routes("r1")
    sh(["ip", "-n", "r2", "addr", "add", "192.168.2.1/24", "dev", "r2-h2"])
    assert wait_until(lambda: vpn_routes_ok("r1"), 60, 0.5), \
        fpmd_routes("r1")
    assert wait_until(lambda: ping("h1", "192.168.2.2", 1), 30, 1)


@step
def test_fpmd_restart_sweeps_only_its_own(lab):
    pe = "r1"
    # by hand: a route and a SID without owner, which must survive; and
    # a stale entry of fpmd's that zebra will not send again
    ctl("route", "add", "10.99.0.0/24", "mode", "encap", "segs",
        "2001:db8:2:2::99", "dev", "r1-r2", "table", "10", ns=pe)
    ctl("sid", "add", "2001:db8:1:1:99::", "behavior", "End", ns=pe)
    ctl("route", "add", "10.98.0.0/24", "mode", "encap", "segs",
        "2001:db8:2:2::98", "dev", "r1-r2", "table", "10", "owner", "fpmd",
        ns=pe)
    lab.stop_fpmd(pe)
    # a withdraw while the daemon is away
    sh(["ip", "-n", "r2", "addr", "del", "2001:db8:c2::1/64", "dev",
        "r2-h2"])
    assert wait_until(lambda: "2001:db8:c2::/64" not in
                      (lab.vtysh_json(pe, "zebra",
                                      "show ipv6 route vrf vrf10 json")
                       or {}), 30, 0.5)
    lab.start_fpmd(pe)

    def converged():
        rt = fpmd_routes(pe)
        return ("10.98.0.0/24", "10") not in rt and \
            ("2001:db8:c2::/64", "10") not in rt and \
            ("192.168.2.0/24", "10") in rt and sids_ok(pe)
    # zebra reconnects, replays; the sweep follows 2 s of quiet
    assert wait_until(converged, 60, 0.5), fpmd_routes(pe)
    rt = fpmd_routes(pe)
    assert rt[("10.99.0.0/24", "10")].get("owner") is None
    assert "2001:db8:1:1:99::/128" in fpmd_sids(pe)
    sh(["ip", "-n", "r2", "addr", "add", "2001:db8:c2::1/64", "dev",
        "r2-h2", "nodad"])
    assert wait_until(lambda: vpn_routes_ok(pe), 60, 0.5), fpmd_routes(pe)
    assert wait_until(lambda: ping("h1", "2001:db8:c2::2", 1), 30, 1)
    ctl("route", "del", "10.99.0.0/24", "table", "10", ns=pe)
    ctl("sid", "del", "2001:db8:1:1:99::", ns=pe)


@step
def test_zebra_restart(lab):
    pe = "r1"
    lab.stop_frr(pe)
    lab.start_frr(pe)
    assert wait_until(lambda: established(lab, pe), 180, 1)
    assert wait_until(lambda: vpn_routes_ok(pe) and sids_ok(pe), 120, 1), \
        (fpmd_routes(pe), fpmd_sids(pe))
    assert wait_until(lambda: ping("h1", "192.168.2.2", 1) and
                      ping("h1", "2001:db8:c2::2", 1), 60, 1)


@step
def test_bgp_flap_under_traffic(lab):
    """The BGP session reset while h1 pings h2: zebra withdraws the VPN
    routes and sends them again; seg6x ends with exactly zebra's routes
    and SIDs, and the pings get through again."""
    pinger = subprocess.Popen(
        ["ip", "netns", "exec", "h1", "ping", "-q", "-i", "0.2", "-w",
         str(int(scaled(120))), "192.168.2.2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        lab.vtysh("r1", "bgpd", "clear bgp *")
        # (the reset may be over before the first look: no assert)
        wait_until(lambda: not established(lab, "r1"), 20, 0.2)
        assert wait_until(lambda: established(lab, "r1") and
                          established(lab, "r2"), 180, 1)
        for pe in PE:
            assert wait_until(lambda: vpn_routes_ok(pe) and sids_ok(pe),
                              120, 1), (fpmd_routes(pe), fpmd_sids(pe))
        assert wait_until(lambda: ping("h1", "192.168.2.2", 1) and
                          ping("h1", "2001:db8:c2::2", 1), 60, 1)
    finally:
        pinger.kill()
        pinger.wait()
    for pe in PE:
        fpmd = {k for k, r in fpmd_routes(pe).items()
                if r.get("owner") == "fpmd"}
        ce = remote(pe)
        assert fpmd == {(f"{CE4[ce]}.0/24", "10"), (f"{CE6[ce]}::/64", "10")}
        tbl = sh(["ip", "-n", pe, "route", "show", "table", "10"]).stdout
        assert "encap seg6 " not in tbl, tbl


@step
def test_module_swapped_by_seg6x_upgrade(lab):
    """The module reloaded under FRR with seg6x-upgrade(8): each PE's own
    configuration (its policy) comes from its file, the VPN routes and
    SIDs from zebra's replay once seg6x-fpmd is back; traffic resumes."""
    d = tempfile.mkdtemp(prefix="seg6x-conf-")
    for pe in PE:
        with open(os.path.join(d, f"{pe}.conf"), "w") as f:
            f.write("iface set default seg6_enabled 1\n")
        lab.stop_fpmd(pe)
    env = dict(os.environ, SEG6X_CONFDIR=d, SEG6X_SEG6CTL=SEG6CTL)
    p = subprocess.run([UPGRADE, "--reload"], env=env, capture_output=True,
                       text=True, timeout=scaled(120))
    assert p.returncode == 0, p.stdout + p.stderr
    for pe in PE:
        assert ctl("iface", "show", "default", ns=pe,
                   js=True)[0]["seg6_enabled"] == 1
        lab.start_fpmd(pe)
    for pe in PE:
        assert wait_until(lambda: vpn_routes_ok(pe) and sids_ok(pe), 120, 1), \
            (fpmd_routes(pe), fpmd_sids(pe))
    assert wait_until(lambda: ping("h1", "192.168.2.2", 1) and
                      ping("h1", "2001:db8:c2::2", 1), 60, 1)
    shutil.rmtree(d)


def egress(pe, dst):
    """(device, first segment) of fpmd's route @dst at @pe, or None."""
    r = fpmd_routes(pe).get((dst, "10")) or {}
    if r.get("owner") != "fpmd" or "nexthops" in r:
        return None
    return r["dev"], r["segs"][0]


@step
def test_multihomed_site_fails_over(lab):
    """h2's prefixes announced by r3 too, with r3's SIDs (a site homed to
    two PEs). FRR 8.4 keeps one of the two imported VPN paths (both
    "sourced, local"; the best by router ID: r2's) and forms no ECMP from
    them. Withdrawn at r2, the seg6x route moves to r3's SID and link
    within 5 s; back at r2, it returns."""
    dst = f"{CE6['h2']}::/64"
    r2 = ("r1-r2", PE["r2"]["loc"].split("::")[0])
    r3 = ("r1-r3", R3["loc"].split("::")[0])

    def via(pe):
        e = egress("r1", dst)
        return bool(e) and e[0] == pe[0] and e[1].startswith(pe[1])
    lab.start_frr("r3")
    try:
        assert wait_until(lambda: "2001:db8:13::3" in lab.vtysh(
            "r1", "bgpd", f"show bgp vrf vrf10 ipv6 unicast {dst}"), 120, 1)
        assert via(r2), fpmd_routes("r1")
        sh(["ip", "-n", "r2", "addr", "del", f"{CE6['h2']}::1/64", "dev",
            "r2-h2"])
        t0 = time.monotonic()
        assert wait_until(lambda: via(r3), 5, 0.1), fpmd_routes("r1")
        took = time.monotonic() - t0
        assert took <= scaled(5)
        # the route a packet from h1 takes is seg6x's (zebra's own may
        # stay beside it: see docs/frr.md)
        got = sh(["ip", "-n", "r1", "-6", "route", "get", f"{CE6['h2']}::2",
                  "from", f"{CE6['h1']}::2", "iif", "r1-h1"]).stdout
        assert "encap seg6 " not in got and "r1-r3" in got, got
        sh(["ip", "-n", "r2", "addr", "add", f"{CE6['h2']}::1/64", "dev",
            "r2-h2", "nodad"])
        assert wait_until(lambda: via(r2), 60, 0.5), fpmd_routes("r1")
    finally:
        lab.stop_frr("r3")
    assert wait_until(lambda: vpn_routes_ok("r1") and sids_ok("r1"), 60,
                      0.5), fpmd_routes("r1")
    assert wait_until(lambda: ping("h1", "192.168.2.2", 1) and
                      ping("h1", "2001:db8:c2::2", 1), 60, 1)


@step
def test_fpmd_still_running(lab):
    for pe in PE:
        assert lab.fpmd[pe].poll() is None, f"seg6x-fpmd died in {pe}"
