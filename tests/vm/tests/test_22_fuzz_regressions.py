# SPDX-License-Identifier: GPL-2.0
"""Cases found by the fuzzers in tests/fuzz, kept as regular tests, and a
short run of each fuzzer with a fixed seed (the long runs are
tests/fuzz/run-all.sh)."""
import argparse
import os
import subprocess
import sys

import pytest

from conftest import REPO

FUZZ = os.path.join(REPO, "tests/fuzz")
sys.path.insert(0, FUZZ)
import fuzz_packets as FP  # noqa: E402


# Minimal cases from fuzz_packets.py failures: (name, phase, frames in hex,
# expected growth of R2's terminal counters). Replayed through the same
# harness as the fuzzer, so the invariants checked are the fuzzer's.
CASES = []


def _fuzzer(seed, count, phases=None):
    return FP.Fuzzer(argparse.Namespace(seed=seed, count=count,
                                        phase=phases, out=None, keep=False,
                                        show=None))


@pytest.mark.parametrize("name,phase,frames,want",
                         CASES, ids=[c[0] for c in CASES])
def test_fuzz_case(seg6x, name, phase, frames, want):
    f = _fuzzer(0, 0)
    f.setup()
    try:
        f.configure(phase)
        pk = FP.Pkt(0)
        pk.frames = [(bytes.fromhex(h), None) for h in frames]
        before = f.counters(phase)
        f.send(pk)
        assert f.check_counts(phase, before, want), \
            f"counters {before} -> {f.counters(phase)}, expected +{want}"
        f.drain_capture(phase, final=True)
        assert f.failures == []
    finally:
        f.c.destroy()


def test_short_packet_fuzz(seg6x):
    """400 fuzzed packets over every phase (seed 22)."""
    assert _fuzzer(22, 400).run() == 0


def test_short_netlink_fuzz(seg6x):
    """300 fuzzed netlink messages, root, unprivileged and user namespace
    (seed 22)."""
    p = subprocess.run([sys.executable, os.path.join(FUZZ, "fuzz_netlink.py"),
                        "--seed", "22", "--count", "300"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout[-4000:] + p.stderr[-2000:]
