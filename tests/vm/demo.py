#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The seg6x demo, run inside the VM by `make demo`.

    A --- R1 --- R2 --- R3 --- B

R1 steers A's traffic for B into an SRv6 policy (seg6x encap route,
HMAC-signed), R2 is a segment endpoint, R3 the egress that decapsulates.
Every step prints the command and what seg6x reports.
"""
import os
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "tests"))
os.environ["PYTHONDONTWRITEBYTECODE"] = "1"

from lib.netns import Tap, sh, udp_socket  # noqa: E402
from lib.srv6 import NH_IPV6, NH_ROUTING, eth_ipv6, parse_srh, signed_srh  # noqa: E402
from lib.topo import Chain, addr6, mac, sid  # noqa: E402

SEG6CTL = os.path.join(HERE, "../../tools/seg6ctl/seg6ctl")
SECRET = b"demo secret"


def say(text):
    print(f"\n## {text}", flush=True)


def run(*args, ns=None, input=None):
    cmd = [SEG6CTL] + (["-n", ns] if ns else []) + [str(a) for a in args]
    shown = " ".join(["seg6ctl"] + cmd[1:])
    print(f"$ {shown}", flush=True)
    p = subprocess.run(cmd, input=input, capture_output=True, text=True)
    sys.stdout.write(p.stdout + p.stderr)
    if p.returncode:
        sys.exit(f"demo: command failed ({p.returncode})")
    return p.stdout


def describe(frame):
    ip = eth_ipv6(frame)
    if not ip:
        return "(not IPv6)"
    out = f"IPv6 {ip['src']} > {ip['dst']} hlim {ip['hlim']}"
    if ip["nh"] == NH_ROUTING:
        s = parse_srh(ip["payload"])
        out += (f" | SRH SL {s['sl']} LE {s['le']} segs "
                f"[{', '.join(s['segs'])}] flags {s['flags']:#04x}")
        if s["nh"] == NH_IPV6:
            inner = eth_ipv6(b"\0" * 12 + b"\x86\xdd" +
                             ip["payload"][s["len"]:])
            out += f" | inner {inner['src']} > {inner['dst']}"
    return out


def main():
    sh(["modprobe", "seg6x"])
    say("seg6x is loaded into the VM's stock kernel " + os.uname().release)
    run("info")

    c = Chain()
    ns = c.ns
    say("Each network namespace has its own tunnel source")
    run("tunsrc", "set", sid("R1"), ns=ns["R1"])
    run("tunsrc", "show", ns=ns["R1"])
    run("tunsrc", "show", ns=ns["R2"])

    say("Endpoints R2 and R3 accept SR packets and require a valid HMAC")
    for n in ("R1", "R2", "R3"):
        run("hmac", "set", 7, "sha256", ns=ns[n], input=SECRET.decode())
    for n in ("R2", "R3"):
        run("iface", "set", "default", "seg6_enabled", 1, "require_hmac", 1,
            ns=ns[n])
    run("iface", "show", ns=ns["R2"])

    say("R1 steers traffic for B through R2 and R3 (encap, HMAC key 7)")
    b6 = addr6(4, "B")
    run("route", "add", f"{b6}/128", "mode", "encap", "segs",
        f"{sid('R2')},{sid('R3')}", "hmac", 7, "dev", c.iface("R1", "R2"),
        "via", addr6(2, "R2"), ns=ns["R1"])
    run("route", "show", ns=ns["R1"])

    say("A sends a UDP datagram to B; watch it hop by hop")
    links = [("A -> R1", "R1", "A"), ("R1 -> R2", "R2", "R1"),
             ("R2 -> R3", "R3", "R2"), ("R3 -> B", "B", "R3")]
    taps = [(name, Tap(ns[node], c.iface(node, peer)))
            for name, node, peer in links]
    rx = udp_socket(ns["B"], socket.AF_INET6, b6, 5000)
    tx = udp_socket(ns["A"], socket.AF_INET6, addr6(1, "A"), 0)
    tx.sendto(b"hello through SRv6", (b6, 5000))
    data, peer = rx.recvfrom(2048)
    time.sleep(0.2)
    for name, tap in taps:
        frames = tap.collect(lambda f: eth_ipv6(f) is not None and
                             eth_ipv6(f)["nh"] in (17, NH_ROUTING),
                             timeout=0.5, incoming_only=True)
        for f in frames[:1]:
            print(f"  {name:9} {describe(f)}")
    print(f"  B received {data!r} from {peer[0]}")

    say("A forged packet (wrong HMAC) sent straight to R2 is dropped")
    h = signed_srh([sid("R3"), sid("R2")], 1, NH_IPV6, addr6(1, "A"), 7,
                   "sha256", b"not the secret")
    from scapy.all import UDP, Ether, IPv6, Raw
    inner = bytes(IPv6(src=addr6(1, "A"), dst=b6) / UDP(dport=5000) /
                  Raw(b"forged"))
    Tap(ns["A"], c.iface("A", "R1")).send(
        Ether(dst=mac(1, 1), src=mac(1, 0)) /
        IPv6(src=addr6(1, "A"), dst=sid("R2"), nh=NH_ROUTING) / Raw(h + inner))
    time.sleep(0.5)
    for n in ("R1", "R2", "R3"):
        say(f"Counters at {n}")
        run("stats", ns=ns[n])
    c.destroy()
    say("done")


if __name__ == "__main__":
    main()
