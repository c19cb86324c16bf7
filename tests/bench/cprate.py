#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Control-plane rates of seg6x vs the in-tree seg6, inside the VM.

Runs as root in the guest (tests/bench/cprate.sh starts it). For each of
routes (encap, 2 segments, via a next hop on a dummy) and local SIDs
(End.X), and each implementation, in a fresh network namespace:

  - install N entries from one batch file (ip -6 -b, or seg6ctl -b) and
    time it: wall clock (monotonic), and user/sys of the process;
  - Slab, SUnreclaim and Percpu of /proc/meminfo before and after (page
    cache and reclaimable slab dropped first), over N: kernel memory per
    entry, at this guest's CPU count (per-CPU data scales with it);
  - time the flush of everything (ip -6 route flush proto boot; seg6ctl
    route flush / sid flush), after counting that all N are there.

Prints a table and writes $SEG6X_OUT/cprate.json (a list of rows:
kernel, what, impl, n, seconds, per_second, bytes_per_entry, ...).
Under TCG only ratios between rows of one run mean something.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "../.."))
SEG6CTL = os.path.join(REPO, "tools/seg6ctl/seg6ctl")
TMP = "/tmp/cprate"
NS = "cprate"
DEV = "d0"
DEV_ADDR, NEXTHOP = "fc00:ff::1/64", "fc00:ff::2"
SEGS = "fc00:e1::1,fc00:e1::2"
MEMINFO_KEYS = ("Slab", "SUnreclaim", "Percpu")


def sh(*argv, out=False):
    """Runs argv, failing loudly; its stdout if @out."""
    r = subprocess.run(argv, check=True, text=True,
                       stdout=subprocess.PIPE if out else None)
    return r.stdout


def prefix(i, sid):
    """Entry i's prefix: a /64 per route, a /128 per SID, all distinct."""
    hi, lo = divmod(i, 0x10000)
    if sid:
        return f"fc00:5::{hi:x}:{lo:x}/128"
    return f"2001:db8:{hi:x}:{lo:x}::/64"


def line(impl, sid, i):
    """One batch line (no program name: both -b files take OBJECT CMD)."""
    p = prefix(i, sid)
    if impl == "in-tree" and sid:
        return (f"route add {p} encap seg6local action End.X "
                f"nh6 {NEXTHOP} dev {DEV}")
    if impl == "in-tree":
        return (f"route add {p} encap seg6 mode encap segs {SEGS} "
                f"via {NEXTHOP} dev {DEV}")
    if sid:
        return f"sid add {p} behavior End.X nh6 {NEXTHOP} dev {DEV}"
    return f"route add {p} mode encap segs {SEGS} dev {DEV} via {NEXTHOP}"


def write_batch(impl, sid, n):
    path = f"{TMP}/{impl}-{'sid' if sid else 'route'}.batch"
    with open(path, "w") as f:
        for i in range(n):
            f.write(line(impl, sid, i) + "\n")
    return path


def fresh_netns():
    """A new namespace with d0 up and its next hop on-link."""
    subprocess.run(["ip", "netns", "del", NS], stderr=subprocess.DEVNULL)
    sh("ip", "netns", "add", NS)
    sh("ip", "-n", NS, "link", "add", DEV, "type", "dummy")
    sh("ip", "-n", NS, "link", "set", DEV, "up")
    # nodad: the address is usable at once, as the next hop's subnet
    sh("ip", "-n", NS, "-6", "addr", "add", DEV_ADDR, "dev", DEV, "nodad")


def meminfo():
    """Slab, SUnreclaim, Percpu in bytes, after dropping what the kernel
    may reclaim, so that dentries and page cache do not count."""
    subprocess.run(["sync"])
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")
    vals = {}
    with open("/proc/meminfo") as f:
        for ln in f:
            k, v = ln.split(":", 1)
            if k in MEMINFO_KEYS:
                vals[k] = int(v.split()[0]) * 1024
    return vals


def timed(argv):
    """Runs argv under /usr/bin/time: (wall seconds, user s, sys s)."""
    tfile = f"{TMP}/time.txt"
    t0 = time.monotonic()
    sh("/usr/bin/time", "-f", "%U %S", "-o", tfile, *argv)
    wall = time.monotonic() - t0
    with open(tfile) as f:
        user, sys_ = (float(x) for x in f.read().split()[-2:])
    return wall, user, sys_


def install_cmd(impl, path):
    if impl == "in-tree":
        return ["ip", "-n", NS, "-6", "-b", path]
    return [SEG6CTL, "-n", NS, "-b", path]


def flush_cmd(impl, sid):
    # ip route add's routes are proto boot; d0's own routes are kernel's
    if impl == "in-tree":
        return ["ip", "-n", NS, "-6", "route", "flush", "proto", "boot"]
    return [SEG6CTL, "-n", NS, "sid" if sid else "route", "flush"]


def count(impl, sid):
    """Entries installed, as each tool lists them."""
    if impl == "in-tree":
        text = sh("ip", "-n", NS, "-6", "route", "show", "proto", "boot",
                  out=True)
        word = "seg6local" if sid else "encap seg6"
        return sum(word in ln for ln in text.splitlines())
    text = sh(SEG6CTL, "-n", NS, "sid" if sid else "route", "show",
              out=True)
    return sum(1 for ln in text.splitlines() if ln.strip())


def row(what, impl, n, timing, mem=None):
    wall, user, sys_ = timing
    r = {"kernel": os.uname().release, "what": what, "impl": impl, "n": n,
         "seconds": round(wall, 3), "per_second": round(n / wall, 1),
         "user_seconds": user, "sys_seconds": sys_,
         "cpus": os.cpu_count(), "bytes_per_entry": None}
    if mem:
        for k in MEMINFO_KEYS:
            r[k.lower() + "_per_entry"] = round(mem[k] / n, 1)
        r["bytes_per_entry"] = round((mem["Slab"] + mem["Percpu"]) / n, 1)
    return r


def measure(impl, sid, n, path):
    """Install then flush in a fresh namespace: two rows."""
    obj = "sid" if sid else "route"
    fresh_netns()
    before = meminfo()
    install = timed(install_cmd(impl, path))
    after = meminfo()
    got = count(impl, sid)
    if got != n:
        sys.exit(f"cprate: {impl} {obj}: {got} installed, not {n}")
    flush = timed(flush_cmd(impl, sid))
    left = count(impl, sid)
    if left:
        sys.exit(f"cprate: {impl} {obj} flush left {left}")
    sh("ip", "netns", "del", NS)
    # the namespace's teardown runs in a workqueue: let it finish
    time.sleep(2)
    mem = {k: after[k] - before[k] for k in MEMINFO_KEYS}
    return [row(f"{obj} add", impl, n, install, mem),
            row(f"{obj} flush", impl, n, flush)]


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def print_table(rows):
    print(f"kernel {rows[0]['kernel']}, {rows[0]['cpus']} CPU(s), "
          f"n={rows[0]['n']}")
    print(f"{'what':<11} {'impl':<8} {'seconds':>8} {'per_s':>9} "
          f"{'ratio':>6} {'user':>6} {'sys':>6} {'slab/e':>7} "
          f"{'unrecl/e':>8} {'pcpu/e':>7} {'B/entry':>8}")
    ref = {}
    for r in rows:
        if r["impl"] == "in-tree":
            ref[r["what"]] = r["per_second"]
        ratio = r["per_second"] / ref[r["what"]] if r["what"] in ref else None
        print(f"{r['what']:<11} {r['impl']:<8} {r['seconds']:>8.2f} "
              f"{r['per_second']:>9.0f} {fmt(ratio, '.2f'):>6} "
              f"{r['user_seconds']:>6.2f} {r['sys_seconds']:>6.2f} "
              f"{fmt(r.get('slab_per_entry'), '.0f'):>7} "
              f"{fmt(r.get('sunreclaim_per_entry'), '.0f'):>8} "
              f"{fmt(r.get('percpu_per_entry'), '.0f'):>7} "
              f"{fmt(r['bytes_per_entry'], '.0f'):>8}")
    print("ratio: seg6x's rate over in-tree's (>1: seg6ctl faster); "
          "B/entry = (Slab + Percpu) / n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=100000,
                    help="routes and SIDs to install (default 100000)")
    args = ap.parse_args()
    n = args.n
    os.makedirs(TMP, exist_ok=True)
    # the SID table must hold them all (module/params.c: sid_max)
    sh("modprobe", "seg6x", f"sid_max={max(2 * n, 262144)}")
    rows = []
    for sid in (False, True):
        for impl in ("in-tree", "seg6x"):
            path = write_batch(impl, sid, n)
            rows += measure(impl, sid, n, path)
            os.unlink(path)
    rows.sort(key=lambda r: (r["what"], r["impl"] != "in-tree"))
    print_table(rows)
    out = os.environ.get("SEG6X_OUT", ".")
    with open(os.path.join(out, "cprate.json"), "w") as f:
        json.dump(rows, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
