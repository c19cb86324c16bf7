#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""insntable.py OUTDIR...: the seg6x/in-tree pairs of --insn runs (one
OUTDIR per kernel, build/bench/KVER) as one Markdown table: each pair's
SRv6 increments (insn/packet over the router's plain forwarding) and
their ratio, a column group per kernel. For docs/performance.md and the
README, so that the published numbers are the runs' own."""
import json
import os
import sys


def load(out):
    with open(os.path.join(out, "insn.json")) as f:
        d = json.load(f)
    inc = {r["case"]: r["increment"] for r in d["cases"]}
    return d["kernel"], inc, d["pairs"]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.split("\n\n")[0])
    runs = [load(o) for o in sys.argv[1:]]
    head = "| case |"
    rule = "|---|"
    for k, _, _ in runs:
        head += f" {k}: in-tree | seg6x | ratio |"
        rule += "---:|---:|---:|"
    print(head)
    print(rule)
    for p in runs[0][2]:
        line = f"| {p['pair']} |"
        for _, inc, pairs in runs:
            q = next((x for x in pairs if x["pair"] == p["pair"]), None)
            if q is None:
                line += " | | |"
                continue
            line += (f" {inc[q['in-tree']]:.0f} | {inc[q['seg6x']]:.0f} |"
                     f" {q['increment_ratio']:.2f} |")
        print(line)


if __name__ == "__main__":
    main()
