# SPDX-License-Identifier: GPL-2.0
"""The constants of uapi/linux/seg6x.h, read from the header itself.

Every enum member and every numeric or string #define of the header
becomes a module attribute of the same name (SEG6X_CMD_SID_SET,
SEG6X_SID_PREFIX, SEG6X_BEHAVIOR_END_DT6, SEG6X_FLV_PSP...), so that the
tests and fuzzers never carry a copy that can go stale. The parser knows
exactly what the header uses: enum members with or without "= value",
where a value is a number or an earlier name plus or minus a number, and
"#define NAME value" lines whose value is a number, a string, or an
expression of earlier names, numbers, + - | << and parentheses.

SEG6X_BEHAVIOR_LIST(X), the one list of behaviours, gives BEHAVIOR_NAMES
({SEG6X_BEHAVIOR_END_X: "End.X", ...}, seg6ctl's spelling),
BEHAVIOR_STATS ({SEG6X_BEHAVIOR_END_X: SEG6X_STAT_SID_END_X, ...}) and
BEHAVIOR_RULES ({SEG6X_BEHAVIOR_END_X: (required, optional, flavors)}, the
masks of SEG6X_SID_BIT_* and SEG6X_FLV_*), all in the list's order.
"""
import os
import re

HEADER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "../../../../uapi/linux/seg6x.h")

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"


def _strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def _eval(expr, names):
    """An integer expression of numbers and known names (+ - | << ())."""
    expr = expr.strip()
    if not re.fullmatch(r"(?:[A-Za-z0-9_+\-|() \t]|<<)*", expr):
        raise ValueError(f"unsupported expression {expr!r}")
    def name(m):
        n = m.group(0)
        if re.fullmatch(r"0[xX][0-9a-fA-F]+|\d+", n):
            return str(int(n, 0))
        if n not in names:
            raise ValueError(f"unknown name {n!r} in {expr!r}")
        return str(names[n])
    return int(eval(re.sub(r"0[xX][0-9a-fA-F]+|" + _NAME + r"|\d+", name,
                           expr), {"__builtins__": {}}))


def parse(text):
    """{name: value} of every enum member and #define of `text`."""
    names = {}
    text = text.replace("\\\n", " ")      # continued #define lines
    for line in text.splitlines():
        m = re.match(r"\s*#define\s+(" + _NAME + r")\s+(.+?)\s*$",
                     _strip_comments(line))
        if not m or "(" in m.group(1):
            continue
        n, v = m.groups()
        if v.startswith('"'):
            names[n] = v.strip('"')
        elif not n.startswith("_"):
            try:
                names[n] = _eval(v, names)
            except ValueError:
                pass            # not a constant (a macro of something else)
    body = _strip_comments(text)
    for m in re.finditer(r"enum\s+" + _NAME + r"\s*\{(.*?)\}", body, re.S):
        val = -1
        for item in m.group(1).split(","):
            item = item.strip()
            if not item:
                continue
            if "=" in item:
                n, e = (s.strip() for s in item.split("=", 1))
                val = _eval(e, names)
            else:
                n, val = item, val + 1
            names[n] = val
    # the #defines made of enum members (SEG6X_CMD_MAX...) come last
    for line in text.splitlines():
        m = re.match(r"\s*#define\s+(" + _NAME + r")\s+(.+?)\s*$",
                     _strip_comments(line))
        if m and m.group(1) not in names and "(" not in m.group(1):
            try:
                names[m.group(1)] = _eval(m.group(2), names)
            except ValueError:
                pass
    return names


def parse_list(text, macro, names):
    """[(arg, ...)] of the X(...) entries of "#define MACRO(X)" in `text`:
    each argument a string or an expression of `names` (its value)."""
    m = re.search(r"^\s*#define\s+" + macro + r"\(X\)((?:[^\n]*\\\n)*[^\n]*)",
                  text, re.M)
    if not m:
        raise ValueError(f"no #define {macro}(X) in the header")
    body = _strip_comments(m.group(1).replace("\\\n", " "))
    out = []
    for entry in re.findall(r"\bX\(((?:[^()]|\([^()]*\))*)\)", body):
        args = []
        for a in (a.strip() for a in entry.split(",")):
            args.append(a[1:-1] if a.startswith('"') else _eval(a, names))
        out.append(tuple(args))
    return out


def _load():
    with open(HEADER) as f:
        text = f.read()
    names = parse(text)
    return names, parse_list(text, "SEG6X_BEHAVIOR_LIST", names)


CONSTANTS, _BEHAVIOR_LIST = _load()
globals().update(CONSTANTS)

# {behaviour number: its name}, {...: its SEG6X_STAT_*}, {...: its rules}
BEHAVIOR_NAMES = {b: name for b, name, *_ in _BEHAVIOR_LIST}
BEHAVIOR_STATS = {b: stat for b, _, stat, *_ in _BEHAVIOR_LIST}
BEHAVIOR_RULES = {b: tuple(rules) for b, _, _, *rules in _BEHAVIOR_LIST}


def members(prefix, skip=("UNSPEC", "PAD", "MAX")):
    """{value: name without prefix} of the constants named PREFIX*, with
    the placeholder members left out: members("SEG6X_STAT_") gives the
    counters, members("SEG6X_BEHAVIOR_") the behaviours."""
    out = {}
    for n, v in CONSTANTS.items():
        if n.startswith(prefix) and isinstance(v, int):
            rest = n[len(prefix):]
            if rest in skip or rest.startswith("_"):
                continue
            out.setdefault(v, rest)
    return out
