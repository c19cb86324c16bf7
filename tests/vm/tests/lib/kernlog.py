# SPDX-License-Identifier: GPL-2.0
"""What counts as a kernel report in the log, in one place.

The VM suite (test_99_dmesg), the fuzzers and the churn test run in the
guest and import this; make check-debug runs it on the host as a filter
(``kernlog.py -n < dmesg.txt``) over the guest's saved log. A checker
added here is therefore caught everywhere at once.
"""
import io
import re
import subprocess
import sys

REPORT = re.compile(
    # sanitizers and the generic splats
    r"KASAN:|KFENCE:|UBSAN:|BUG:|WARNING:|Oops|general protection|"
    r"kernel BUG|Call Trace|"
    # lockdep and RCU
    r"possible circular locking|possible recursive locking|"
    r"inconsistent lock state|suspicious RCU usage|RCU stall|"
    # reference counts, object and list debugging, leaks
    r"refcount_t:|ref_tracker:|ODEBUG:|list_(add|del) corruption|"
    r"unreferenced object|"
    # hangs
    r"blocked for more than|hung_task|soft lockup|hard LOCKUP")


def dmesg():
    """The kernel log as a list of lines (needs root or dmesg_restrict=0)."""
    out = subprocess.run(["dmesg"], capture_output=True, check=True).stdout
    return out.decode(errors="replace").splitlines()


def reports(lines=None):
    """The report lines among ``lines`` (default: the whole kernel log)."""
    return [ln for ln in (dmesg() if lines is None else lines)
            if REPORT.search(ln)]


class Since:
    """Marks the end of the kernel log now; ``reports()`` then returns
    only what was logged after the mark."""

    def __init__(self):
        self.base = len(dmesg())

    def reports(self):
        return reports(dmesg()[self.base:])


def main(argv):
    """Filter: print the report lines of stdin (``-n``: with their line
    numbers, as grep -n does); exit 1 if there are any."""
    numbered = "-n" in argv
    found = 0
    # a console log can hold anything, valid UTF-8 or not
    lines = io.TextIOWrapper(sys.stdin.buffer, errors="replace")
    for n, ln in enumerate(lines, 1):
        if REPORT.search(ln):
            found += 1
            sys.stdout.write(f"{n}:{ln}" if numbered else ln)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
