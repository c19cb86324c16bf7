#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Guest instructions per forwarded packet, inside the VM.

Runs as root in a one-CPU guest under qemu with the libinsn.so plugin
(tests/bench/run.sh --insn starts it). For every case of bench.py, with
its topology and setup, pktgen sends a fixed count of packets, once N and
once 2N, and the guest executes a marker before and after each run: the
plugin writes its instruction count at every marker (insn/insn.c), so
the host gets the instructions of each run, and

    insn/packet = (insns(2N) - insns(N)) / (out(2N) - out(N))

where out is what the router forwarded (its sink's tx counter). What each
run costs regardless of its length (pktgen's start and stop, these
markers, the Python around them) cancels out in the difference; what
remains is the whole path of a packet: pktgen building and sending it,
the veth, the router, the sink.

Writes $SEG6X_OUT/insn-runs.json (which markers delimit which run) and,
with --profile, $SEG6X_OUT/kallsyms for the host to name the addresses.
tests/bench/insnreport.py, on the host, computes and prints the table.
"""
import argparse
import ctypes
import json
import mmap
import os
import shutil
import sys
import time

import bench

# the cases measured by default: the reference of each router, and the
# in-tree/seg6x pairs
DEFAULT_CASES = ["fwd", "seg6-encap", "seg6x-encap",
                 "fwd-r2", "fwd-srh", "seg6-end", "seg6x-end"]


class Markers:
    """The marker NOPs that libinsn.so reports: marker i is
    `nopl 0x5e6b0000+i(%rax); ret` at offset 8 i of an executable page."""

    SLOTS = mmap.PAGESIZE // 8

    def __init__(self):
        self.page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ |
                              mmap.PROT_WRITE | mmap.PROT_EXEC)
        self.fns = []
        for i in range(self.SLOTS):
            code = bytes([0x0f, 0x1f, 0x80, i & 0xff, i >> 8, 0x6b, 0x5e,
                          0xc3])
            self.page[8 * i:8 * i + 8] = code
            addr = ctypes.addressof(ctypes.c_char.from_buffer(self.page,
                                                              8 * i))
            self.fns.append(ctypes.CFUNCTYPE(None)(addr))
        self.next = 0

    def mark(self):
        """Execute the next marker; returns its id."""
        if self.next >= self.SLOTS:
            raise RuntimeError("insnrun.py: out of markers")
        i = self.next
        self.next += 1
        self.fns[i]()
        return i


def sink_count(case):
    """(packets, bytes) the router of `case` has sent to its sink."""
    k = int(case.router[1])
    _, tx_bytes, tx_packets = bench.netdev(case.router)[f"r{k}-out"]
    return tx_packets, tx_bytes


def one_run(case, gen, marks, count):
    """Send `count` packets between two markers; the run's record."""
    gen.configure(case.router, case.dst6, count=count,
                  pkt_size=case.pkt_size)
    pk0, by0 = sink_count(case)
    t0 = time.monotonic()
    start = marks.mark()
    gen.run()
    end = marks.mark()
    t1 = time.monotonic()
    pk1, by1 = sink_count(case)
    return {"case": case.name, "packets": count, "start": start,
            "end": end, "out": pk1 - pk0, "out_bytes": by1 - by0,
            "secs": t1 - t0, "pktgen": gen.result()}


def measure(case, gen, marks, n, reps):
    """Runs of n and 2n packets, `reps` times, after a warm-up run (the
    first packets of a case allocate and resolve what later ones reuse)."""
    runs = []
    case.setup()
    try:
        one_run(case, gen, marks, max(1, n // 10))
        for rep in range(reps):
            for count in (n, 2 * n):
                r = one_run(case, gen, marks, count)
                r["rep"] = rep
                runs.append(r)
                print(f"  {case.name:<17} rep {rep + 1}/{reps} "
                      f"{count:>6} packets: {r['out']:>6} out, "
                      f"{r['secs']:.1f} s", flush=True)
    finally:
        case.teardown()
    return runs


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", "--packets", type=int,
                    default=int(os.environ.get("SEG6X_BENCH_PACKETS",
                                               20000)),
                    help="N: the short run's packets (the long one sends "
                    "2N; default 20000)")
    ap.add_argument("-r", "--reps", type=int,
                    default=int(os.environ.get("SEG6X_BENCH_REPS", 3)),
                    help="N/2N pairs per case (default 3)")
    ap.add_argument("-k", "--cases", help="comma-separated cases, or all "
                    "(default "
                    f"{','.join(DEFAULT_CASES)}; the references fwd, and "
                    "each case's own (fwd-r2, fwd-r2-hmac, fwd-r3), are "
                    "always measured)")
    ap.add_argument("--profile", action="store_true",
                    help="also save /proc/kallsyms for the profile")
    return ap.parse_args()


def select(names):
    cs = bench.cases()
    if names == "all":
        names = ",".join(c.name for c in cs)
    want = set(names.split(",") if names else DEFAULT_CASES) | {"fwd"}
    unknown = want - {c.name for c in cs}
    if unknown:
        sys.exit(f"insnrun.py: unknown case(s): {', '.join(unknown)}")
    # each case's reference (fwd-r2 is fwd-r2-hmac's)
    for _ in range(2):
        want |= {c.ref for c in cs if c.name in want}
    return [c for c in cs if c.name in want]


def main():
    args = parse_args()
    if os.geteuid() != 0 or not os.environ.get("SEG6X_VM"):
        sys.exit("insnrun.py: runs in the VM, as root: use "
                 "tests/bench/run.sh --insn")
    if os.cpu_count() != 1:
        sys.exit("insnrun.py: needs a one-CPU guest (the plugin's count "
                 "is exact only then)")
    cs = select(args.cases)
    marks = Markers()
    bench.destroy()
    bench.build()
    gen = bench.Pktgen()
    runs = []
    try:
        for c in cs:
            runs += measure(c, gen, marks, args.packets, args.reps)
    finally:
        bench.destroy()
    out = os.environ["SEG6X_OUT"]
    meta = {"kernel": os.uname().release, "packets": args.packets,
            "reps": args.reps, "pkt_size": bench.PKT_SIZE,
            "cases": [{"case": c.name, "router": c.router, "what": c.what,
                       "expected_bytes": c.out_bytes,
                       "pkt_size": c.pkt_size, "reference": c.ref}
                      for c in cs]}
    with open(os.path.join(out, "insn-runs.json"), "w") as f:
        json.dump(dict(meta, runs=runs), f, indent=2)
        f.write("\n")
    if args.profile:
        shutil.copyfile("/proc/kallsyms", os.path.join(out, "kallsyms"))


if __name__ == "__main__":
    main()
