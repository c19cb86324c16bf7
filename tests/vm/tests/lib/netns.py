# SPDX-License-Identifier: GPL-2.0
"""Network namespaces from one Python process.

Entering a namespace with setns() costs microseconds, where spawning
`ip netns exec NS python3 ...` costs seconds under TCG (scapy's import
alone takes 3-6 s). A socket keeps the namespace it was created in.
"""
import contextlib
import ctypes
import os
import select
import socket
import subprocess
import time

from lib.timing import scaled

_libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNET = 0x40000000
ETH_P_ALL = 0x0003


def _setns(fd):
    if _libc.setns(fd, CLONE_NEWNET) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))


@contextlib.contextmanager
def inside(ns):
    """Run the body with this thread in namespace `ns`."""
    orig = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    fd = os.open(f"/run/netns/{ns}", os.O_RDONLY)
    try:
        _setns(fd)
        yield
    finally:
        _setns(orig)
        os.close(fd)
        os.close(orig)


def sh(cmd, check=True, input=None):
    """Run a command (list or string); return CompletedProcess."""
    shell = isinstance(cmd, str)
    p = subprocess.run(cmd, shell=shell, input=input, capture_output=True,
                       text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"command failed ({p.returncode}): {cmd}\n"
                             f"stdout: {p.stdout}\nstderr: {p.stderr}")
    return p


def ip_batch(ns, lines):
    """Apply `ip` commands in one process (inside ns, or the root ns)."""
    args = ["ip"] + (["-n", ns] if ns else []) + ["-b", "-"]
    sh(args, input="\n".join(lines) + "\n")


def sysctl(ns, name, value):
    path = "/proc/sys/" + name.replace(".", "/")
    with inside(ns):
        with open(path, "w") as f:
            f.write(str(value))


def read_sysctl(ns, name):
    path = "/proc/sys/" + name.replace(".", "/")
    with inside(ns):
        with open(path) as f:
            return f.read().strip()


class Tap:
    """A raw AF_PACKET socket on one interface of a namespace."""

    def __init__(self, ns, ifname):
        with inside(ns):
            self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                                      socket.htons(ETH_P_ALL))
            self.sock.bind((ifname, 0))
        self.sock.setblocking(False)
        self.drain()

    def drain(self):
        while True:
            try:
                self.sock.recv(65535)
            except BlockingIOError:
                return

    def send(self, frame):
        self.sock.send(bytes(frame))

    def frames(self, timeout=3.0, incoming_only=False):
        """Yield raw frames until `timeout` passes without a match."""
        end = time.monotonic() + scaled(timeout)
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            r, _, _ = select.select([self.sock], [], [], left)
            if not r:
                return
            data, addr = self.sock.recvfrom(65535)
            if incoming_only and addr[2] == socket.PACKET_OUTGOING:
                continue
            yield data

    def collect(self, match, count=1, timeout=3.0, incoming_only=False):
        """Frames for which match(frame_bytes) is true, up to `count`."""
        got = []
        for f in self.frames(timeout, incoming_only):
            if match(f):
                got.append(f)
                if len(got) >= count:
                    break
        return got

    def close(self):
        self.sock.close()


def udp_socket(ns, family, addr, port):
    with inside(ns):
        s = socket.socket(family, socket.SOCK_DGRAM)
        s.bind((addr, port))
    s.settimeout(scaled(3.0))
    return s
