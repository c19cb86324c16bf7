# SPDX-License-Identifier: GPL-2.0
"""Runs last: the kernel log of the whole session must be clean."""
import re

from lib.netns import sh

BAD = re.compile(r"WARNING:|BUG:|Oops|general protection|Call Trace|"
                 r"kernel BUG|unreferenced object|refcount_t|"
                 r"UBSAN|KASAN|RCU stall|hung_task|soft lockup")


def test_dmesg_clean():
    log = sh(["dmesg"]).stdout
    bad = [line for line in log.splitlines() if BAD.search(line)]
    assert bad == [], "\n".join(bad)


def test_module_unloads_cleanly():
    sh(["modprobe", "-r", "seg6x"])
    log = sh(["dmesg"]).stdout
    assert not BAD.search(log)
