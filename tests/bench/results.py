#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""results.py OUTDIR: OUTDIR/bench-results.json from the benchmark's
results there, the latest of each kind: bench.json (run.sh: packets per
second) and insn.json (run.sh --insn: instructions per packet).

One entry per kernel and case: {"kernel", "case", "impl" (plain |
in-tree | seg6x), "insn_per_packet", "increment" (over its router's
reference case), "runs" (insn/packet of each repetition), "pps" (median),
"pps_samples"};
what a kind of run did not measure is null (or an empty list). Results of
different kernels (SEG6X_BENCH_OUT shared) make separate entries.
"""
import json
import os
import sys

from insnreport import impl


def load(out, name):
    p = os.path.join(out, name)
    if not os.path.exists(p):
        return None
    with open(p) as f:
        return json.load(f)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: results.py OUTDIR")
    out = sys.argv[1]
    pps, insn = load(out, "bench.json"), load(out, "insn.json")
    entries = {}
    for src in (insn, pps):
        for c in (src or {}).get("cases", []):
            entries.setdefault((src["kernel"], c["case"]), {
                "kernel": src["kernel"], "case": c["case"],
                "impl": impl(c["case"]), "insn_per_packet": None,
                "increment": None, "runs": [], "pps": None,
                "pps_samples": []})
    for c in (insn or {}).get("cases", []):
        entries[insn["kernel"], c["case"]].update(insn_per_packet=c["insn_per_packet"],
                                  increment=c["increment"], runs=c["runs"])
    for c in (pps or {}).get("cases", []):
        entries[pps["kernel"], c["case"]].update(
            pps=round(c["median_kpps"] * 1000),
            pps_samples=[round(k * 1000) for k in c["kpps"]])
    with open(os.path.join(out, "bench-results.json"), "w") as f:
        json.dump(list(entries.values()), f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
