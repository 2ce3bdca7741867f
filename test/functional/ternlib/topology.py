"""The standard topology: h6 (IPv6-only) -- xl (translator) -- h4.

Topology builds the three namespaces and their links once per test file
(its addresses are in names.py), sends frames from the hosts and captures
what reaches them, and reads the translator's counters. xlat64 and xlat46
send one packet through it and return the translated frame.
"""

import time

from scapy.layers.inet import IP
from scapy.layers.inet6 import IPv6

from .commands import cli, kstats, run
from .counters import Counters
from .frames import Capture, Sender, is_ip4, is_ip6, none_on
from .names import (H4, H4_6, H4_MAC, H6, H6_4, H6_LINK, H6_MAC, POOL6,
                    SINK4, SINK6, XL4, XL4_MAC, XL6, XL6_MAC, embed)
from .netns import Netns, tx_checksum
from .packets import udp4, udp6


class Topology:
    """h6 (IPv6-only) -- xl (translator) -- h4 (IPv4-only).

      h6 eth0 2001:db8:6::2/64, 2001:db8:64::c633:6402/128 (198.51.100.2)
         route 2001:db8:64::/96 via 2001:db8:6::1
      xl v6   2001:db8:6::1/64, route 2001:db8:64::c633:6400/120 via h6
      xl v4   203.0.113.1/24
      h4 eth0 203.0.113.2/24, route 198.51.100.0/24 via 203.0.113.1

    xl's interfaces compute checksums in software (tx offload off), so the
    frames the hosts receive carry final checksums even when the translated
    packet was a CHECKSUM_PARTIAL or GSO one from a host's TCP/UDP stack:
    a wrong checksum makes the receiving host drop it.

    Neighbours are static and the hosts do not generate IPv6 noise (no
    link-local addresses, no DAD, no router solicitations; h4 has IPv6
    off), so every packet reaching xl's hooks is one a test sent.
    203.0.113.99 (SINK4) is on h4's link with h4's MAC but not h4's
    address, and 198.51.100.99 (SINK6_4) is routed to h6 but not h6's:
    frames sent there reach the capture and provoke no answer.
    """

    def __init__(self):
        self.h6 = self.xl = self.h4 = None
        self.senders = {}
        self.cleanups = []

    def build(self):
        try:
            self._build()
        except BaseException:
            self.destroy()
            raise
        return self

    def _build(self):
        self.h6, self.xl, self.h4 = Netns("h6"), Netns("xl"), Netns("h4")
        quiet6 = {"net/ipv6/conf/all/accept_dad": 0,
                  "net/ipv6/conf/default/accept_dad": 0,
                  "net/ipv6/conf/default/addr_gen_mode": 1,
                  "net/ipv6/conf/all/router_solicitations": 0,
                  "net/ipv6/conf/default/router_solicitations": 0,
                  "net/ipv6/conf/all/accept_ra": 0,
                  "net/ipv6/conf/default/accept_ra": 0}
        # Hosts do not forward, whatever new namespaces inherit from the
        # initial one (ip_forward does): h4 would send h6's IPv4 packets
        # to 198.51.100.0/24 back to xl.
        self.h6.sysctl(dict(quiet6, **{
            "net/ipv6/conf/all/forwarding": 0,
            "net/ipv4/ip_forward": 0}))
        self.xl.sysctl(dict(quiet6, **{
            "net/ipv6/conf/all/forwarding": 1,
            "net/ipv4/ip_forward": 1}))
        self.h4.sysctl({"net/ipv6/conf/all/disable_ipv6": 1,
                        "net/ipv6/conf/default/disable_ipv6": 1,
                        "net/ipv4/ip_forward": 0})
        run(["ip", "link", "add", "eth0", "netns", self.h6.name,
             "address", H6_MAC, "type", "veth", "peer", "name", "v6",
             "netns", self.xl.name, "address", XL6_MAC])
        run(["ip", "link", "add", "eth0", "netns", self.h4.name,
             "address", H4_MAC, "type", "veth", "peer", "name", "v4",
             "netns", self.xl.name, "address", XL4_MAC])
        tx_checksum(self.xl, "v6", False)
        tx_checksum(self.xl, "v4", False)
        self.xl.ip_batch([
            "link set lo up",
            "addr add %s/64 dev v6 nodad" % XL6,
            "addr add %s/24 dev v4" % XL4,
            "neigh replace %s lladdr %s dev v6 nud permanent" % (H6_LINK,
                                                                 H6_MAC),
            "neigh replace %s lladdr %s dev v4 nud permanent" % (H4, H4_MAC),
            "neigh replace %s lladdr %s dev v4 nud permanent" % (SINK4,
                                                                 H4_MAC),
            "link set v6 up",
            "link set v4 up",
            "route add %s/120 via %s dev v6" % (embed("198.51.100.0"),
                                                 H6_LINK),
        ])
        self.h4.ip_batch([
            "link set lo up",
            "addr add %s/24 dev eth0" % H4,
            "neigh replace %s lladdr %s dev eth0 nud permanent" % (XL4,
                                                                   XL4_MAC),
            "link set eth0 up",
            "route add 198.51.100.0/24 via %s" % XL4,
        ])
        # Watch for h6's multicast listener reports (sent when eth0 comes
        # up) so that the topology is handed over only once they are over.
        with Capture(self.xl, "v6") as mld:
            self.h6.ip_batch([
                "link set lo up",
                "addr add %s/64 dev eth0 nodad" % H6_LINK,
                "addr add %s/128 dev eth0 nodad" % H6,
                "neigh replace %s lladdr %s dev eth0 nud permanent" % (
                    XL6, XL6_MAC),
                "link set eth0 up",
                "route add %s via %s dev eth0 src %s" % (POOL6, XL6, H6),
            ])
            self._settle(mld)
        self.senders["h6"] = Sender(self.h6, "eth0", H6_MAC)
        self.senders["h4"] = Sender(self.h4, "eth0", H4_MAC)

    @staticmethod
    def _settle(cap, quiet=1.2, limit=8.0):
        """Returns after QUIET seconds without a frame (LIMIT at most)."""
        start = time.monotonic()
        last = start
        seen = 0
        while time.monotonic() - start < limit:
            cap._drain(0.1)
            if len(cap.frames) != seen:
                seen = len(cap.frames)
                last = time.monotonic()
            elif time.monotonic() - last >= quiet:
                return

    def destroy(self):
        while self.cleanups:
            fn = self.cleanups.pop()
            try:
                fn()
            except Exception:
                pass
        for s in self.senders.values():
            s.close()
        self.senders = {}
        for ns in (self.h6, self.xl, self.h4):
            if ns is not None:
                ns.delete()

    # Sending and capturing.

    def send6(self, pkt, dst_mac=XL6_MAC):
        """Sends PKT (IPv6) from h6 to the translator."""
        self.senders["h6"].send(pkt, dst_mac)

    def send4(self, pkt, dst_mac=XL4_MAC):
        """Sends PKT (IPv4) from h4 to the translator."""
        self.senders["h4"].send(pkt, dst_mac)

    def cap6(self):
        """Capture of what arrives at h6."""
        return Capture(self.h6, "eth0", context=self.counters_text)

    def cap4(self):
        """Capture of what arrives at h4."""
        return Capture(self.h4, "eth0", context=self.counters_text)

    def counters_text(self):
        """The translator's non-zero counters, for failure messages."""
        s = kstats(self.xl.name)
        return "translator counters (non-zero, since the instance was " \
            "added): %s" % {k: v for k, v in s.items() if v}

    # The translator.

    def tern(self, *args):
        return cli(self.xl.name, *args)

    def counters(self, instance=None):
        return Counters(self.xl, instance)

    def defer(self, fn):
        self.cleanups.append(fn)

    def temp_route(self, ns, *spec):
        ns.ip("route", "add", *spec)
        self.defer(lambda: ns.ip("route", "del", *spec, check=False))


def xlat64(topo, pkt, match=None):
    """Sends PKT from h6; returns the one translated frame h4 receives."""
    with topo.cap4() as cap:
        topo.send6(pkt)
        return cap.one(match or is_ip4(src=H6_4, dst=SINK4))


def xlat46(topo, pkt, match=None):
    with topo.cap6() as cap:
        topo.send4(pkt)
        return cap.one(match or is_ip6(src=H4_6, dst=SINK6))


def _untranslated(c, pkts, expected, match, send, cap):
    with cap() as cap_:
        for p in pkts if isinstance(pkts, list) else [pkts]:
            send(p)
        cap_.none(match, proof=lambda: c.expect(expected))


def untranslated46(topo, c, pkts, expected, match=None):
    """PKTS (a packet or a list) from h4 are not translated: once the
    counters C moved by EXPECTED, nothing matching MATCH (default: to
    SINK6) reaches h6."""
    _untranslated(c, pkts, expected, match or is_ip6(dst=SINK6),
                  topo.send4, topo.cap6)


def untranslated64(topo, c, pkts, expected, match=None):
    """The same from h6: nothing matching MATCH (default: to SINK4) at h4."""
    _untranslated(c, pkts, expected, match or is_ip4(dst=SINK4),
                  topo.send6, topo.cap4)


def both_translated(topo):
    """A UDP datagram each way (udp6(), udp4()): each translated with the
    standard addresses and counted once."""
    c = topo.counters()
    out4 = xlat64(topo, udp6())
    out6 = xlat46(topo, udp4())
    assert (out4[IP].src, out4[IP].dst) == (H6_4, SINK4)
    assert (out6[IPv6].src, out6[IPv6].dst) == (H4_6, SINK6)
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})


def nothing_out(topo, send, expected):
    """SEND(topo) bumps the EXPECTED counters, and nothing translated
    reaches h4 or h6."""
    c = topo.counters()
    with topo.cap4() as cap4, topo.cap6() as cap6:
        send(topo)
        none_on(lambda: c.expect(expected),
                (cap4, is_ip4(dst=SINK4)), (cap6, is_ip6(dst=SINK6)))
