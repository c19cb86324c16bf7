#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""insndiff.py OUTDIR CASE_A CASE_B [N]: where two cases of a --profile
run differ, function by function (insn/packet, B minus A), largest
differences first. OUTDIR is run.sh's (build/bench/KVER). The table of
run.sh keeps only each case's top 20; this reads every function from the
run's marks, e.g. to see what seg6x's End does that the in-tree one
does not."""
import json
import os
import sys

import insnreport as R


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__.split("\n\n")[0])
    out, a, b = sys.argv[1:4]
    n = int(sys.argv[4]) if len(sys.argv) == 5 else 40
    with open(os.path.join(out, "insn-runs.json")) as f:
        meta = json.load(f)
    marks, prof = R.read_marks(os.path.join(out, "insn-marks.txt"))
    if not prof:
        sys.exit("insndiff.py: no profile in this run (run.sh --profile)")
    syms = R.Symbols(os.path.join(out, "kallsyms"))
    R.TOP = None        # every function
    rows = {r["case"]: r for r in R.rows_of(meta, meta.pop("runs"), marks,
                                            prof, syms)}
    for c in (a, b):
        if c not in rows:
            sys.exit(f"insndiff.py: no case {c} in {out}")
    fa = {t["symbol"]: t["insn_per_packet"] for t in rows[a]["top"]}
    fb = {t["symbol"]: t["insn_per_packet"] for t in rows[b]["top"]}
    diff = sorted(((fb.get(s, 0) - fa.get(s, 0), s) for s in set(fa) | set(fb)),
                  key=lambda d: -abs(d[0]))
    print(f"{'B-A':>8} {a[:10]:>10} {b[:10]:>10}  function")
    for d, s in diff[:n]:
        if abs(d) < 0.5:
            break
        print(f"{d:8.1f} {fa.get(s, 0):10.1f} {fb.get(s, 0):10.1f}  {s}")
    print(f"{'total':>8} {rows[a]['insn_per_packet']:10.1f} "
          f"{rows[b]['insn_per_packet']:10.1f}")


if __name__ == "__main__":
    main()
