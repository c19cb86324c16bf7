# SPDX-License-Identifier: GPL-2.0
"""How long to wait for something that should happen.

Waits are tuned for a stock kernel under TCG. A debug kernel (KASAN,
lockdep, kmemleak) runs the same paths several times slower:
SEG6X_TIME_FACTOR stretches every wait instead of each test guessing.
"""
import os

FACTOR = max(1.0, float(os.environ.get("SEG6X_TIME_FACTOR", "1") or 1))


def scaled(seconds):
    return seconds * FACTOR
