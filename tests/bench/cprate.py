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
  - count that all N are there, and once all four cases are installed,
    time the flush of each (ip -6 route flush proto boot; seg6ctl route
    flush / sid flush).

Each case runs -r times, interleaved with the others; rows give the
medians of the times (and every run's wall clock seconds), and the
memory of the first run (later runs reuse the pages that flushes freed).

Prints a table and writes $SEG6X_OUT/cprate.json (a list of rows:
kernel, what, impl, n, seconds, per_second, bytes_per_entry, ...).
Under TCG only ratios between rows of one run mean something.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "../.."))
SEG6CTL = os.path.join(REPO, "tools/seg6ctl/seg6ctl")
TMP = "/tmp/cprate"
DEV = "d0"
DEV_ADDR, NEXTHOP = "fc00:ff::1/64", "fc00:ff::2"
SEGS = "fc00:e1::1,fc00:e1::2"
MEMINFO_KEYS = ("Slab", "SUnreclaim", "Percpu")
# (sid?, impl): routes then SIDs, in-tree first
CASES = [(sid, impl) for sid in (False, True) for impl in ("in-tree", "seg6x")]


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


def ns_name(case):
    sid, impl = case
    return f"cp-{'sid' if sid else 'route'}-{impl}"


def fresh_netns(ns):
    """A new namespace with d0 up and its next hop on-link."""
    subprocess.run(["ip", "netns", "del", ns], stderr=subprocess.DEVNULL)
    sh("ip", "netns", "add", ns)
    sh("ip", "-n", ns, "link", "add", DEV, "type", "dummy")
    sh("ip", "-n", ns, "link", "set", DEV, "up")
    # nodad: the address is usable at once, as the next hop's subnet
    sh("ip", "-n", ns, "-6", "addr", "add", DEV_ADDR, "dev", DEV, "nodad")


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


def install_cmd(ns, impl, path):
    if impl == "in-tree":
        return ["ip", "-n", ns, "-6", "-b", path]
    return [SEG6CTL, "-n", ns, "-b", path]


def flush_cmd(ns, impl, sid):
    # ip route add's routes are proto boot; d0's own routes are kernel's
    if impl == "in-tree":
        return ["ip", "-n", ns, "-6", "route", "flush", "proto", "boot"]
    return [SEG6CTL, "-n", ns, "sid" if sid else "route", "flush"]


def count(ns, impl, sid):
    """Entries installed, as each tool lists them."""
    if impl == "in-tree":
        text = sh("ip", "-n", ns, "-6", "route", "show", "proto", "boot",
                  out=True)
        word = "seg6local" if sid else "encap seg6"
        return sum(word in ln for ln in text.splitlines())
    text = sh(SEG6CTL, "-n", ns, "sid" if sid else "route", "show",
              out=True)
    return sum(1 for ln in text.splitlines() if ln.strip())


def med(xs):
    return statistics.median(xs)


def row(what, impl, n, runs, mem=None):
    """One result of @runs [(wall, user, sys)...]: their medians."""
    wall = med(r[0] for r in runs)
    r = {"kernel": os.uname().release, "what": what, "impl": impl, "n": n,
         "seconds": round(wall, 3), "per_second": round(n / wall, 1),
         "runs": [round(x[0], 3) for x in runs],
         "user_seconds": med(x[1] for x in runs),
         "sys_seconds": med(x[2] for x in runs),
         "cpus": os.cpu_count(), "bytes_per_entry": None}
    if mem:
        for k in MEMINFO_KEYS:
            r[k.lower() + "_per_entry"] = round(mem[k] / n, 1)
        r["bytes_per_entry"] = round((mem["Slab"] + mem["Percpu"]) / n, 1)
    return r


def settle():
    """Lets the kernel finish what earlier steps left to RCU and
    workqueues (freeing, a namespace's teardown), so that it is not
    charged to the next timed step."""
    time.sleep(2)


def progress(ns, what, timing):
    """A line per step on stderr: a long run shows where it is."""
    print(f"cprate: {ns} {what}: {timing[0]:.2f} s (user {timing[1]:.2f}, "
          f"sys {timing[2]:.2f})", file=sys.stderr, flush=True)


def install(case, n, path):
    """Installs @case's batch in a fresh namespace: (timing, memory)."""
    sid, impl = case
    ns = ns_name(case)
    fresh_netns(ns)
    settle()
    before = meminfo()
    timing = timed(install_cmd(ns, impl, path))
    after = meminfo()
    got = count(ns, impl, sid)
    if got != n:
        sys.exit(f"cprate: {ns}: {got} installed, not {n}")
    progress(ns, "add", timing)
    return timing, {k: after[k] - before[k] for k in MEMINFO_KEYS}


def flush(case):
    sid, impl = case
    ns = ns_name(case)
    settle()
    timing = timed(flush_cmd(ns, impl, sid))
    left = count(ns, impl, sid)
    if left:
        sys.exit(f"cprate: {ns}: flush left {left}")
    progress(ns, "flush", timing)
    return timing


def one_run(n, paths):
    """Every case once: {case: (install timing, memory, flush timing)}.
    All are installed before any is flushed: memory freed by a flush
    would be reused by the next install (slab and per-CPU pages stay
    allocated once freed), and make it look smaller."""
    got = {c: install(c, n, paths[c]) for c in CASES}
    res = {c: (got[c][0], got[c][1], flush(c)) for c in CASES}
    for c in CASES:
        sh("ip", "netns", "del", ns_name(c))
    return res


def fmt(x, spec):
    return "-" if x is None else format(x, spec)


def print_table(rows, reps):
    print(f"kernel {rows[0]['kernel']}, {rows[0]['cpus']} CPU(s), "
          f"n={rows[0]['n']}, medians of {reps} runs")
    print(f"{'what':<11} {'impl':<8} {'seconds':>8} {'min-max':>11} {'per_s':>9} "
          f"{'ratio':>6} {'user':>6} {'sys':>6} {'slab/e':>7} "
          f"{'unrecl/e':>8} {'pcpu/e':>7} {'B/entry':>8}")
    ref = {}
    for r in rows:
        if r["impl"] == "in-tree":
            ref[r["what"]] = r["per_second"]
        ratio = r["per_second"] / ref[r["what"]] if r["what"] in ref else None
        spread = f"{min(r['runs']):.2f}-{max(r['runs']):.2f}"
        print(f"{r['what']:<11} {r['impl']:<8} {r['seconds']:>8.2f} "
              f"{spread:>11} "
              f"{r['per_second']:>9.0f} {fmt(ratio, '.2f'):>6} "
              f"{r['user_seconds']:>6.2f} {r['sys_seconds']:>6.2f} "
              f"{fmt(r.get('slab_per_entry'), '.0f'):>7} "
              f"{fmt(r.get('sunreclaim_per_entry'), '.0f'):>8} "
              f"{fmt(r.get('percpu_per_entry'), '.0f'):>7} "
              f"{fmt(r['bytes_per_entry'], '.0f'):>8}")
    print("ratio: seg6x's rate over in-tree's (>1: seg6ctl faster); "
          "B/entry = (Slab + Percpu) / n")


def run_all(n, reps):
    """Every case @reps times, interleaved so that a slow spell of the
    host hits all of them alike; one add and one flush row per case.
    Memory comes from the first run only: later ones install into pages
    that earlier runs freed."""
    paths = {c: write_batch(c[1], c[0], n) for c in CASES}
    runs = [one_run(n, paths) for _ in range(reps)]
    rows = []
    for sid, impl in CASES:
        obj = "sid" if sid else "route"
        ms = [r[(sid, impl)] for r in runs]
        rows.append(row(f"{obj} add", impl, n, [m[0] for m in ms], ms[0][1]))
        rows.append(row(f"{obj} flush", impl, n, [m[2] for m in ms]))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=100000,
                    help="routes and SIDs to install (default 100000)")
    ap.add_argument("-r", type=int, default=3,
                    help="repetitions of each case; medians (default 3)")
    args = ap.parse_args()
    os.makedirs(TMP, exist_ok=True)
    # the SID table must hold them all (module/params.c: sid_max)
    sh("modprobe", "seg6x", f"sid_max={max(2 * args.n, 262144)}")
    rows = run_all(args.n, args.r)
    rows.sort(key=lambda r: (r["what"], r["impl"] != "in-tree"))
    print_table(rows, args.r)
    out = os.environ.get("SEG6X_OUT", ".")
    with open(os.path.join(out, "cprate.json"), "w") as f:
        json.dump(rows, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
