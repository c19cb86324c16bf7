#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""insnreport.py OUTDIR: instructions per packet from a run.sh --insn run.

Reads what the guest (insnrun.py) and the plugin (insn/insn.c) left in
OUTDIR: insn-runs.json, insn-marks.txt and, when profiled, kallsyms.
Prints the table and writes OUTDIR/insn.json.

A case's insn/packet is (insns(2N) - insns(N)) / (out(2N) - out(N)) of
each repetition (its N and its 2N run), and of those slopes the median:
one disturbed repetition (timers, deferred work, an allocator's slow
path taken in one run and not in the other) cannot move it. With fewer
than three repetitions, of each length the run with the fewest
instructions. The spread of the slopes shows how much they varied. The
increment is
its count minus that of its router's reference: `fwd` for R1, `fwd-r2`
for R2, whose generators also pay for tc pedit and pktgen's queue_xmit
(bench.py); `vs fwd` subtracts `fwd` for all.
"""
import bisect
import json
import os
import sys

TOP = 20


def impl(case):
    if case.startswith("seg6x"):
        return "seg6x"
    if case.startswith("seg6"):
        return "in-tree"
    return "plain"


def pair_key(case):
    """What a seg6x case and its in-tree counterpart have in common."""
    for p in ("seg6x-", "seg6local-", "seg6-"):
        if case.startswith(p):
            return case[len(p):]
    return None


def read_marks(path):
    """({marker id: count}, {marker id: {pc: insns}})"""
    marks, prof = {}, {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if w and w[0] == "mark":
                marks[int(w[1])] = int(w[2])
            elif w and w[0] == "prof":
                prof.setdefault(int(w[1]), {})[int(w[2], 16)] = int(w[3])
    return marks, prof


class Symbols:
    """Kernel text symbols from the guest's /proc/kallsyms."""

    def __init__(self, path):
        syms = []
        with open(path) as f:
            for line in f:
                w = line.split()
                if len(w) >= 3 and w[1] in "tTwW":
                    mod = " " + w[3] if len(w) > 3 else ""
                    syms.append((int(w[0], 16), w[2] + mod))
        syms.sort()
        self.addrs = [a for a, _ in syms]
        self.names = [n for _, n in syms]

    def name(self, pc):
        if pc < 1 << 63:
            return "[user]"
        i = bisect.bisect_right(self.addrs, pc) - 1
        return self.names[i] if i >= 0 else "[kernel ?]"


def by_symbol(prof, syms):
    out = {}
    for pc, n in prof.items():
        s = syms.name(pc)
        out[s] = out.get(s, 0) + n
    return out


def insns(r, marks):
    return marks[r["end"]] - marks[r["start"]]


def slope(short, long_, marks):
    return ((insns(long_, marks) - insns(short, marks)) /
            (long_["out"] - short["out"]))


def median_pair(short, long_, marks):
    """The repetition whose slope is the median (the lower middle one of
    an even count), as its (short run, long run)."""
    both = sorted(set(short) & set(long_),
                  key=lambda i: slope(short[i], long_[i], marks))
    i = both[(len(both) - 1) // 2]
    return short[i], long_[i]


def slopes(runs, marks):
    """{case: (short run, long run)}: the repetition with the median
    slope, or with fewer than three, of each length the complete run
    with the fewest instructions; {case: [insn/packet of each
    repetition]}; {case: runs left out}"""
    by, left = {}, {}
    for r in runs:
        if r["out"] != r["packets"]:
            # a run that did not forward what pktgen was told to send
            # (seen once: none at all) says nothing about a packet's cost
            left[r["case"]] = left.get(r["case"], 0) + 1
            print(f"insnreport.py: {r['case']}: a run of {r['packets']} "
                  f"packets forwarded {r['out']}, left out "
                  f"(pktgen: {'; '.join(r.get('pktgen', []))})")
            continue
        by.setdefault(r["case"], {}).setdefault(r["packets"], {})[
            r["rep"]] = r
    best, reps = {}, {}
    for case, sizes in by.items():
        if len(sizes) != 2:
            sys.exit(f"insnreport.py: {case}: no complete run of each "
                     "length")
        short, long_ = (sizes[n] for n in sorted(sizes))
        reps[case] = [slope(short[i], long_[i], marks)
                      for i in sorted(set(short) & set(long_))]
        if len(reps[case]) >= 3:
            best[case] = median_pair(short, long_, marks)
        else:
            best[case] = tuple(min(d.values(),
                                   key=lambda r: insns(r, marks))
                               for d in (short, long_))
    return best, reps, left


def profile(short, long_, prof, syms):
    """Top functions of a case, insn/packet: the slope of each function
    between the short and the long run."""
    a = by_symbol(prof.get(short["end"], {}), syms)
    b = by_symbol(prof.get(long_["end"], {}), syms)
    npk = long_["out"] - short["out"]
    tot = {s: b.get(s, 0) - a.get(s, 0) for s in set(a) | set(b)}
    top = sorted(tot.items(), key=lambda kv: -kv[1])[:TOP]
    return [{"symbol": s, "insn_per_packet": round(n / npk, 1)}
            for s, n in top]


def rows_of(meta, runs, marks, prof, syms):
    best, reps, left = slopes(runs, marks)
    rows = []
    for c in meta["cases"]:
        name = c["case"]
        short, long_ = best[name]
        est, v = slope(short, long_, marks), reps[name]
        row = dict(c, impl=impl(name), insn_per_packet=round(est, 1),
                   runs=[round(x, 1) for x in v],
                   spread_pct=round(100 * (max(v) - min(v)) / est, 2),
                   out_bytes=round(long_["out_bytes"] / max(1, long_["out"])),
                   left_out=left.get(name, 0))
        if syms:
            row["top"] = profile(short, long_, prof, syms)
        rows.append(row)
    ref = {r["case"]: r["insn_per_packet"] for r in rows}
    for r in rows:
        # the case's own reference (insnrun.py names it), or as before
        base = r.get("reference") or ("fwd" if r["router"] == "R1"
                                      else "fwd-r2")
        r["reference"] = base
        r["increment"] = round(r["insn_per_packet"] - ref[base], 1)
        r["increment_vs_fwd"] = round(r["insn_per_packet"] - ref["fwd"], 1)
    return rows


def ratios(rows):
    """seg6x over in-tree, of the increments and of the totals."""
    by = {}
    for r in rows:
        if pair_key(r["case"]):
            by.setdefault(pair_key(r["case"]), {})[r["impl"]] = r
    out = []
    for key, p in by.items():
        if "seg6x" in p and "in-tree" in p:
            x, t = p["seg6x"], p["in-tree"]
            out.append({
                "pair": key, "in-tree": t["case"], "seg6x": x["case"],
                "increment_ratio": round(x["increment"] / t["increment"], 3)
                if t["increment"] else None,
                "total_ratio": round(x["insn_per_packet"] /
                                     t["insn_per_packet"], 3)})
    return out


def print_table(meta, rows, pairs):
    print(f"\nseg6x instructions per packet on {meta['kernel']}: slope of "
          f"{meta['packets']} -> {2 * meta['packets']} packets, "
          f"{meta['reps']} repetitions; one vCPU: pktgen + router")
    hdr = (f"{'case':<17} {'at':<3} {'insn/pkt':>9} {'spread%':>7} "
           f"{'+ref':>7} {'ref':<11} {'vs fwd':>7} {'B/pkt':>5}  what")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        bad = "!" if r["out_bytes"] != r["expected_bytes"] else " "
        print(f"{r['case']:<17} {r['router']:<3} {r['insn_per_packet']:>9.1f} "
              f"{r['spread_pct']:>7.2f} {r['increment']:>7.1f} "
              f"{r['reference']:<11} {r['increment_vs_fwd']:>7.1f} "
              f"{r['out_bytes']:>4}{bad}  {r['what']}")
    print("insn/pkt: the median of the repetitions' slopes; "
          "spread%: max - min\nof the repetitions' own slopes over it; "
          "+ref: minus the router's reference (ref);\nvs fwd: minus fwd's")
    for p in pairs:
        print(f"{p['seg6x']} / {p['in-tree']}: increment x"
              f"{p['increment_ratio']}, total x{p['total_ratio']}")
    noisy = [r["case"] for r in rows if r["spread_pct"] > 1]
    if noisy:
        print("note: repetitions differ by more than 1% in " +
              ", ".join(noisy) + ": something else ran during one (the "
              "median repetition counts)")
    left = [r["case"] for r in rows if r["left_out"]]
    if left:
        print("WARNING: runs that did not forward every packet were left "
              "out in " + ", ".join(left))
    for r in rows:
        if "top" in r:
            print(f"\n{r['case']}: top {TOP} functions, insn/packet")
            for t in r["top"]:
                print(f"  {t['insn_per_packet']:>9.1f}  {t['symbol']}")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: insnreport.py OUTDIR")
    out = sys.argv[1]
    with open(os.path.join(out, "insn-runs.json")) as f:
        meta = json.load(f)
    marks, prof = read_marks(os.path.join(out, "insn-marks.txt"))
    ks = os.path.join(out, "kallsyms")
    syms = Symbols(ks) if os.path.exists(ks) and prof else None
    rows = rows_of(meta, meta.pop("runs"), marks, prof, syms)
    pairs = ratios(rows)
    print_table(meta, rows, pairs)
    with open(os.path.join(out, "insn.json"), "w") as f:
        json.dump(dict(meta, cases=rows, pairs=pairs), f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
