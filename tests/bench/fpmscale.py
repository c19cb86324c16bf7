#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""fpmscale.py [-n N]: N (default 10,000) BGP SRv6 L3VPN prefixes reaching
seg6x through seg6x-fpmd, timed against zebra's own kernel install of the
same routes, in the FRR lab of tests/vm/tests/test_80_frr.py (run.sh
--fpm starts it in a VM).

r2 announces N IPv4 /32s of its VRF (kernel routes in table 10, `redistribute
kernel`), then withdraws them. At r1, first without seg6x-fpmd: the time
until zebra's in-tree SRv6 routes for all N are in table 10, and until
none is; then with seg6x-fpmd: the time until all N are seg6x routes
(`encap ioam6` in `ip route`, seg6x's LWT slot on Debian), and until none
is; then without it again, and the daemon's times are set against the
mean of zebra's two rounds. The clocks start when r2's routes change.
Also the daemon's memory (VmHWM, VmRSS) with N routes and each daemon's
CPU time per phase. Writes fpmscale.json to $SEG6X_OUT."""
import argparse
import json
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../vm/tests"))

import test_80_frr as frr  # noqa: E402
from conftest import ctl, wait_until  # noqa: E402
from lib.netns import ip_batch, sh  # noqa: E402

PREFIX = "10.200"


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=10000,
                    help="prefixes (default 10000, at most 65536)")
    ap.add_argument("-t", "--timeout", type=float, default=600,
                    help="seconds to wait for each step")
    return ap.parse_args()


def lab_up():
    if not os.path.exists("/sys/module/seg6x"):
        sh(["modprobe", "seg6x"])
    base = tempfile.mkdtemp(prefix="frr-scale-")
    os.chmod(base, 0o755)
    out = os.environ.get("SEG6X_OUT") or base
    logdir = os.path.join(out, "frr")
    shutil.rmtree(logdir, ignore_errors=True)
    os.makedirs(logdir)
    lab = frr.Lab(base, logdir)
    lab.build()
    for pe in frr.PE:
        ctl("iface", "set", "default", "seg6_enabled", "1", ns=pe)
    lab.start_fpmd("r2")            # r1's starts in the second round
    for pe in frr.PE:
        lab.start_frr(pe)
    lab.vtysh("r2", "bgpd", "configure terminal\nrouter bgp 65000 vrf vrf10"
              "\naddress-family ipv4 unicast\nredistribute kernel")
    if not wait_until(lambda: frr.established(lab, "r1") and
                      frr.established(lab, "r2"), 300, 1):
        sys.exit("fpmscale.py: BGP did not come up")
    return lab, base


def r2_routes(n, verb):
    """The announced routes: r2's kernel routes in its VRF's table."""
    ip_batch("r2", [f"route {verb} {PREFIX}.{i >> 8}.{i & 255}/32 "
                    f"dev r2-h2 table 10" for i in range(n)])


def r1_counts():
    """(zebra's in-tree SRv6 routes, seg6x routes) of ours in r1's VRF."""
    out = sh(["ip", "-n", "r1", "-4", "-o", "route", "show", "table",
              "10"]).stdout
    mine = [line for line in out.splitlines()
            if line.startswith(PREFIX + ".")]
    return (sum("encap seg6 " in line for line in mine),
            sum("encap ioam6" in line for line in mine))


def timed(change, done, timeout):
    """Seconds from change() to done(), or None after `timeout`."""
    t0 = time.monotonic()
    change()
    if not wait_until(done, timeout, 0.2):
        return None
    return time.monotonic() - t0


TICK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid):
    """A process's CPU seconds (user, system), 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return (0.0, 0.0)
    return (int(fields[11]) / TICK, int(fields[12]) / TICK)


def busy_s():
    """CPU seconds the VM spent not idle."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (sum(v) - v[3] - v[4]) / TICK


def daemons(lab):
    """{name: pid} of the FRR daemons and the daemons of seg6x-fpmd."""
    pids = {}
    for pe in frr.PE:
        for name in ("zebra", "bgpd"):
            with open(f"{lab.dir(pe)}/{name}.pid") as f:
                pids[f"{name}-{pe}"] = int(f.read())
    for pe, p in lab.fpmd.items():
        pids[f"fpmd-{pe}"] = p.pid
    return pids


def phase(lab, res, key, change, done, timeout):
    """timed(), and where the CPU went meanwhile (res[key's _cpu_s])."""
    pids = daemons(lab)
    before = {k: cpu_s(p) for k, p in pids.items()}
    b0 = busy_s()
    res[key] = timed(change, done, timeout)
    cpu = {k: [round(a - b, 2) for a, b in zip(cpu_s(p), before[k])]
           for k, p in pids.items()}
    cpu["busy"] = round(busy_s() - b0, 2)
    res[key.replace("_s", "_cpu_s")] = cpu


def fpmd_memory(lab):
    pid = lab.fpmd["r1"].pid
    # the daemon is a child of ip netns exec, which execs it: same pid
    with open(f"/proc/{pid}/status") as f:
        st = dict(line.split(":", 1) for line in f if ":" in line)
    return {k: int(st[k].split()[0]) for k in ("VmHWM", "VmRSS")}


def run(args, lab):
    n, to = args.n, args.timeout
    res = {"n": n}
    phase(lab, res, "zebra_add_s", lambda: r2_routes(n, "add"),
          lambda: r1_counts()[0] == n, to)
    phase(lab, res, "zebra_del_s", lambda: r2_routes(n, "del"),
          lambda: r1_counts() == (0, 0), to)
    # not -v: a log line per route is not what a router runs with
    lab.start_fpmd("r1", verbose=False)
    time.sleep(5)                  # zebra connects and replays
    phase(lab, res, "fpmd_add_s", lambda: r2_routes(n, "add"),
          lambda: r1_counts()[1] == n, to)
    res["fpmd_kib"] = fpmd_memory(lab)
    phase(lab, res, "fpmd_del_s", lambda: r2_routes(n, "del"),
          lambda: r1_counts() == (0, 0), to)
    # zebra alone again: FRR's own cost drifts between rounds, so the
    # daemon's round is set against the mean of one before and one after
    lab.stop_fpmd("r1")
    phase(lab, res, "zebra2_add_s", lambda: r2_routes(n, "add"),
          lambda: r1_counts()[0] == n, to)
    phase(lab, res, "zebra2_del_s", lambda: r2_routes(n, "del"),
          lambda: r1_counts() == (0, 0), to)
    return res


def report(res):
    def ratio(a, b, c):
        if not (res[a] and res[b] and res[c]):
            return None
        return res[a] / ((res[b] + res[c]) / 2)
    res["add_ratio"] = ratio("fpmd_add_s", "zebra_add_s", "zebra2_add_s")
    res["del_ratio"] = ratio("fpmd_del_s", "zebra_del_s", "zebra2_del_s")
    print(f"{res['n']} VPN prefixes, seconds from r2's change to the last "
          "route at r1:")
    for what in ("add", "del"):
        z, z2, f, r = (res[f"zebra_{what}_s"], res[f"zebra2_{what}_s"],
                       res[f"fpmd_{what}_s"], res[f"{what}_ratio"])
        print(f"  {what}: zebra's kernel install {z and round(z, 1)} "
              f"(after: {z2 and round(z2, 1)}), seg6x-fpmd "
              f"{f and round(f, 1)}, ratio to their mean "
              f"{r and round(r, 2)}")
    print(f"  seg6x-fpmd memory with them: {res['fpmd_kib']} KiB")
    print("  CPU seconds per phase, [user, system] (busy: the VM's one CPU,"
          " not idle):")
    for what in ("zebra_add", "zebra_del", "fpmd_add", "fpmd_del",
                 "zebra2_add", "zebra2_del"):
        print(f"    {what}: {res.get(what + '_cpu_s')}")
    out = os.environ.get("SEG6X_OUT")
    if out:
        with open(os.path.join(out, "fpmscale.json"), "w") as f:
            json.dump(res, f, indent=2)
            f.write("\n")


def main():
    args = parse_args()
    lab, base = lab_up()
    try:
        report(run(args, lab))
    finally:
        lab.destroy()
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
