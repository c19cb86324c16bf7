#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""goodput.py [-s MB] [-r ROUNDS]: TCP goodput through an SRv6
encapsulation path, the in-tree seg6 against seg6x as the headend, in one
VM (run.sh --goodput starts it):

    A --> R1 (H.Encaps, 2 segments) --> R2 (End) --> R3 (decap) --> B

Veth offloads stay on (A sends TSO super-packets, R1 encapsulates them
as GSO packets). A's MTU is 1400 so that the encapsulated segments fit
the links without path MTU discovery (the in-tree seg6 tells the inner
source nothing). Rounds alternate which headend goes first; each
transfer is checked byte for byte. Prints MB/s per round, the medians
and their ratio, and writes goodput.json to $SEG6X_OUT."""
import argparse
import json
import os
import socket
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "../vm/tests"))

from conftest import ctl, load_module, module_loaded, stats  # noqa: E402
from lib.encap import headend  # noqa: E402
from lib.netns import sh  # noqa: E402
from lib.tcp import transfer  # noqa: E402
from lib.topo import Chain, addr6  # noqa: E402

IMPLS = ("in-tree", "seg6x")


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-s", "--size", type=int, default=32,
                    help="MB per transfer (default 32)")
    ap.add_argument("-r", "--rounds", type=int, default=5,
                    help="transfers per headend (default 5)")
    return ap.parse_args()


def setup():
    if not module_loaded():
        load_module()
    c = Chain()
    for n in ("R2", "R3"):
        ctl("iface", "set", "default", "seg6_enabled", 1, ns=c.ns[n])
    sh(["ip", "-n", c.ns["A"], "link", "set", c.iface("A", "R1"),
        "mtu", "1400"])
    return c


def one(c, impl, size, port):
    headend(c, impl, socket.AF_INET6, ctl)
    n, ok, secs = transfer(c.ns["A"], c.ns["B"], socket.AF_INET6,
                           addr6(4, "B"), port, size)
    if n != size or not ok:
        sys.exit(f"goodput.py: {impl}: {n} of {size} bytes, "
                 f"{'intact' if ok else 'corrupted'}")
    return size / secs / 1e6


def main():
    args = parse_args()
    c = setup()
    size = args.size << 20
    mbs = {i: [] for i in IMPLS}
    try:
        for r in range(args.rounds):
            order = IMPLS if r % 2 == 0 else IMPLS[::-1]
            for impl in order:
                v = one(c, impl, size, 6000 + r * 2 + IMPLS.index(impl))
                mbs[impl].append(v)
                print(f"round {r + 1} {impl:8} {v:8.1f} MB/s", flush=True)
        drops = sum(stats(c.ns["R3"])["drop"].values())
    finally:
        c.destroy()
    med = {i: statistics.median(v) for i, v in mbs.items()}
    ratio = med["seg6x"] / med["in-tree"]
    print(f"\nmedian MB/s: in-tree {med['in-tree']:.1f}, seg6x "
          f"{med['seg6x']:.1f}; seg6x / in-tree x{ratio:.3f}; "
          f"seg6x drops at R3: {drops}")
    out = os.environ.get("SEG6X_OUT")
    if out:
        with open(os.path.join(out, "goodput.json"), "w") as f:
            json.dump({"kernel": os.uname().release, "size": size,
                       "mb_per_s": mbs, "median": med, "ratio": ratio}, f,
                      indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
