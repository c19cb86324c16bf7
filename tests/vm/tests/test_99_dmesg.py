# SPDX-License-Identifier: GPL-2.0
"""Runs last: the kernel log of the whole session must be clean."""
from lib import kernlog
from lib.netns import sh


def test_dmesg_clean():
    bad = kernlog.reports()
    assert bad == [], "\n".join(bad)


def test_module_unloads_cleanly():
    log = kernlog.Since()
    sh(["modprobe", "-r", "seg6x"])
    bad = log.reports()
    assert bad == [], "\n".join(bad)
