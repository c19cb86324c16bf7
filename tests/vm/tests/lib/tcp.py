# SPDX-License-Identifier: GPL-2.0
"""One TCP transfer between two namespaces, checked byte for byte."""
import hashlib
import os
import socket
import threading
import time

from .netns import inside


def transfer(src_ns, dst_ns, family, dst, port, size, timeout=60):
    """`size` random bytes from src_ns to dst:port in dst_ns. Returns
    (bytes received, digest matches, seconds from connect to the
    receiver's end of stream)."""
    data = os.urandom(size)
    with inside(dst_ns):
        srv = socket.socket(family, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((dst, port))
    srv.listen(1)
    got = {}

    def serve():
        conn, _ = srv.accept()
        h, n = hashlib.sha256(), 0
        while True:
            b = conn.recv(1 << 16)
            if not b:
                break
            h.update(b)
            n += len(b)
        got["end"] = time.monotonic()
        got["n"], got["digest"] = n, h.digest()
        conn.close()

    # a daemon: a receiver left waiting by a failed transfer must not
    # keep the test run from exiting
    th = threading.Thread(target=serve, daemon=True)
    th.start()
    with inside(src_ns):
        cl = socket.socket(family, socket.SOCK_STREAM)
    cl.settimeout(timeout)
    t0 = time.monotonic()
    try:
        cl.connect((dst, port))
        cl.sendall(data)
    finally:
        cl.close()
        th.join(timeout * 2)
        srv.close()
    ok = got.get("digest") == hashlib.sha256(data).digest()
    return got.get("n"), ok, got.get("end", time.monotonic()) - t0
