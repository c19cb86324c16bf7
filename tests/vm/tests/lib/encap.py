# SPDX-License-Identifier: GPL-2.0
"""R1 of the chain as an SRv6 headend, seg6x's or the in-tree seg6's."""
import socket

from .netns import sh
from .topo import addr6, sid


def headend(c, impl, family, seg6ctl):
    """R1 encapsulates B's prefix (IPv6 or IPv4) towards R2 and R3 with
    `impl` ("seg6x" through `seg6ctl(*args, ns=...)`, or "in-tree");
    each call replaces the route the previous one installed."""
    v6 = family == socket.AF_INET6
    dst = "fc00:4::/64" if v6 else "10.0.4.0/24"
    dev, via = c.iface("R1", "R2"), addr6(2, "R2")
    segs = f"{sid('R2')},{sid('R3')}"
    if impl == "seg6x":
        nh = ["via", via] if v6 else []
        seg6ctl("route", "replace", dst, "mode", "encap", "segs", segs,
                "dev", dev, *nh, ns=c.ns["R1"])
    else:
        sh(["ip", "-n", c.ns["R1"], "-6" if v6 else "-4", "route",
            "replace", dst, "encap", "seg6", "mode", "encap", "segs", segs,
            "dev", dev])
