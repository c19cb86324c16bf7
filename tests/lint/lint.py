#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""make lint: structural checks of module/ and tools/ that no compiler
makes. Exit status 1 if any fails.

  functions   no C function body longer than 60 lines (kernel style: a
              function does one thing and fits on a screen or two);
  includes    no circle in the #include graph of a tree, taking FILE.c
              and FILE.h as one node: if a.c includes b.h and b.c
              includes a.h, the two files depend on each other and
              neither can be read, tested or reused alone.
"""
import glob
import os
import re
import sys

MAX_LINES = 60
TREES = ("module", "tools")
TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "../.."))


def functions(path):
    """(body lines, name, line) of each function defined in `path`: a
    line at column 0 naming NAME(...) whose body's braces sit at column
    0, as kernel style writes them."""
    lines = open(path).read().split("\n")
    out, i = [], 0
    while i < len(lines):
        m = re.match(r"^[A-Za-z_][^;=]*?\b([A-Za-z_][A-Za-z0-9_]*)\s*\(",
                     lines[i])
        if m and not lines[i].startswith("#"):
            j = i
            while j < len(lines) and lines[j] != "{" and j - i < 8 and \
                    not lines[j].rstrip().endswith(";"):
                j += 1
            if j < len(lines) and lines[j] == "{":
                k = j + 1
                while k < len(lines) and lines[k] != "}":
                    k += 1
                out.append((k - j - 1, m.group(1), i + 1))
                i = k
        i += 1
    return out


def include_graph(tree):
    g = {}
    for p in glob.glob(os.path.join(TOP, tree, "**", "*.[ch]"),
                       recursive=True):
        n = os.path.splitext(os.path.basename(p))[0]
        g.setdefault(n, set())
        for m in re.finditer(r'#include "([A-Za-z0-9_]+)\.h"', open(p).read()):
            if m.group(1) != n:
                g[n].add(m.group(1))
    return g


def circles(g):
    """Strongly connected components of more than one node (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))
    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def main():
    bad = 0
    for tree in TREES:
        for p in sorted(glob.glob(os.path.join(TOP, tree, "**", "*.c"),
                                  recursive=True)):
            for n, name, line in functions(p):
                if n > MAX_LINES:
                    print(f"{os.path.relpath(p, TOP)}:{line}: {name}() has "
                          f"{n} lines (at most {MAX_LINES})")
                    bad += 1
        for c in circles(include_graph(tree)):
            print(f"{tree}/: include circle: {' <-> '.join(c)}")
            bad += 1
    print(f"lint: {bad} problem(s) in {', '.join(TREES)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
