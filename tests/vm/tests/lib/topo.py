# SPDX-License-Identifier: GPL-2.0
"""A linear chain of namespaces joined by veth pairs.

    A --1-- R1 --2-- R2 --3-- R3 --4-- B

Link k carries fc00:k::/64 and 10.0.k.0/24; a node's host part is its
number (A = 0xa / 10, R1 = 1, R2 = 2, R3 = 3, B = 0xb / 11). Each node
also has a loopback address fc00:ff::N (a SID). Static routes and static
neighbours make the topology ready at once (no DAD, no NDP races), and
MAC addresses are fixed so tests can write Ethernet frames themselves.
"""
import itertools

from .netns import ip_batch, sh, sysctl

_ids = itertools.count(1)

HOST = {"A": 0xA, "R1": 1, "R2": 2, "R3": 3, "B": 0xB}
HOST4 = {"A": 10, "R1": 1, "R2": 2, "R3": 3, "B": 11}


def addr6(link, node):
    return f"fc00:{link}::{HOST[node]:x}"


def addr4(link, node):
    return f"10.0.{link}.{HOST4[node]}"


def sid(node):
    return f"fc00:ff::{HOST[node]:x}"


def mac(link, side):
    return f"02:00:00:00:{link:02x}:{side:02x}"


class Chain:
    names = ["A", "R1", "R2", "R3", "B"]

    def __init__(self, mtu=1500):
        run = next(_ids)
        self.ns = {n: f"sx{run}{n}" for n in self.names}
        self.mtu = mtu
        self._build()

    # interface of `node` towards `peer`
    @staticmethod
    def ifname(node, peer):
        return f"{node}-{peer}".lower()

    def link_of(self, pos):
        """(link number, left node, right node) for link `pos` (1..4)."""
        return pos, self.names[pos - 1], self.names[pos]

    def _build(self):
        root = []
        for n in self.names:
            root.append(f"netns add {self.ns[n]}")
        ip_batch(None, root)

        for n in self.names:
            ns = self.ns[n]
            # before the interfaces exist, so they inherit it
            sysctl(ns, "net.ipv6.conf.default.accept_dad", 0)
            sysctl(ns, "net.ipv6.conf.all.accept_dad", 0)
            sysctl(ns, "net.ipv6.conf.all.forwarding", 1)
            sysctl(ns, "net.ipv4.ip_forward", 1)
            sysctl(ns, "net.ipv6.icmp.ratelimit", 0)
            sysctl(ns, "net.ipv4.icmp_ratelimit", 0)

        links = []
        for k in range(1, 5):
            _, left, right = self.link_of(k)
            links.append(
                f"link add {self.ifname(left, right)} netns {self.ns[left]} "
                f"address {mac(k, 0)} mtu {self.mtu} type veth peer name "
                f"{self.ifname(right, left)} netns {self.ns[right]} "
                f"address {mac(k, 1)} mtu {self.mtu}")
        ip_batch(None, links)

        for p, n in enumerate(self.names):
            cmds = ["link set lo up",
                    f"addr add {sid(n)}/128 dev lo"]
            sides = []
            if p > 0:
                sides.append((p, self.names[p - 1], 0))      # left link
            if p < 4:
                sides.append((p + 1, self.names[p + 1], 1))  # right link
            for k, peer, peer_side in sides:
                ifn = self.ifname(n, peer)
                cmds += [f"link set {ifn} up",
                         f"addr add {addr6(k, n)}/64 dev {ifn} nodad",
                         f"addr add {addr4(k, n)}/24 dev {ifn}",
                         f"neigh add {addr6(k, peer)} lladdr "
                         f"{mac(k, peer_side)} dev {ifn} nud permanent",
                         f"neigh add {addr4(k, peer)} lladdr "
                         f"{mac(k, peer_side)} dev {ifn} nud permanent"]
            cmds += self._routes(p, n)
            ip_batch(self.ns[n], cmds)

    def _routes(self, p, n):
        cmds = []
        for k in range(1, 5):
            if k == p or k == p + 1:
                continue                      # directly connected
            if k < p:
                via6, via4, dev = (addr6(p, self.names[p - 1]),
                                   addr4(p, self.names[p - 1]),
                                   self.ifname(n, self.names[p - 1]))
            else:
                via6, via4, dev = (addr6(p + 1, self.names[p + 1]),
                                   addr4(p + 1, self.names[p + 1]),
                                   self.ifname(n, self.names[p + 1]))
            cmds.append(f"route add fc00:{k}::/64 via {via6} dev {dev}")
            cmds.append(f"route add 10.0.{k}.0/24 via {via4} dev {dev}")
        for q, other in enumerate(self.names):
            if q == p:
                continue
            nb = self.names[p - 1] if q < p else self.names[p + 1]
            k = p if q < p else p + 1
            cmds.append(f"route add {sid(other)}/128 via {addr6(k, nb)} "
                        f"dev {self.ifname(n, nb)}")
        return cmds

    def iface(self, node, peer):
        return self.ifname(node, peer)

    def destroy(self):
        for ns in self.ns.values():
            sh(["ip", "netns", "del", ns], check=False)
