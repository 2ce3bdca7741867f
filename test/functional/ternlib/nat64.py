"""Stateful NAT64 on the standard topology (test_nat64*.py).

Instance "n" of type NAT64 in xl, pool6 2001:db8:64::/96 and pool4
198.51.100.16/30. CLIENT is the IPv6 client: on h6's link with h6's MAC
but not h6's address, so that h6 answers nothing Tern sends it. The
fixtures build the topology once per test file (_nat64_module) and give
each test an instance without sessions (nat); the flows and session
reads below are the ones the NAT64 tests share.

Not re-exported by the package (its udp6/udp4 are other builders than
packets'): tests import from ternlib.nat64.
"""

import ipaddress
import struct
import time

import pytest
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.inet6 import IPv6
from scapy.packet import Raw

from .commands import cli_json, cli_ok, globals_
from .frames import is_ip4, is_ip6
from .names import H6_MAC, POOL6, SINK4, SINK4_6, XL6_MAC
from .packets import (PAYLOAD, frag6_header, inet_csum, ip4_packet,
                      ip6_packet, pseudo)
from .topology import Topology

POOL4 = "198.51.100.16/30"
POOL4_NET = ipaddress.IPv4Network(POOL4)
CLIENT = "2001:db8:6::99"


def wait_until(cond, timeout):
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.2)


def in_pool4(addr):
    return ipaddress.IPv4Address(addr) in POOL4_NET


@pytest.fixture(scope="module")
def _nat64_module():
    topo = Topology().build()
    try:
        topo.xl.ip_batch(["neigh replace %s lladdr %s dev v6 nud permanent"
                          % (CLIENT, H6_MAC)])
        cli_ok(topo.xl, "instance", "add", "n", "--nat64", "--pool6", POOL6)
        cli_ok(topo.xl, "pool4", "add", POOL4)
        yield topo
    finally:
        topo.destroy()


@pytest.fixture
def nat(_nat64_module):
    """The NAT64 topology, without sessions before and after each test;
    the settings a test changes with nat.set() are put back."""
    topo = _nat64_module
    changed = {}
    original = globals_(topo.xl, "n")

    def set_global(key, value):
        changed.setdefault(key, original[key])
        cli_ok(topo.xl, "-i", "n", "global", "set", key, value)

    topo.set = set_global
    cli_ok(topo.xl, "-i", "n", "session", "flush")
    yield topo
    while topo.cleanups:
        topo.cleanups.pop()()
    for key, value in changed.items():
        if isinstance(value, bool):
            value = "true" if value else "false"
        cli_ok(topo.xl, "-i", "n", "global", "set", key, str(value))
    cli_ok(topo.xl, "-i", "n", "session", "flush")


def out64(topo, pkt, match=None):
    """Sends PKT from h6; returns the one frame h4 receives for SINK4."""
    with topo.cap4() as cap:
        topo.send6(pkt)
        return cap.one(match or is_ip4(dst=SINK4))


def out46(topo, pkt, match=None):
    """Sends PKT from h4; returns the one frame h6 receives for CLIENT."""
    with topo.cap6() as cap:
        topo.send4(pkt)
        return cap.one(match or is_ip6(dst=CLIENT))


def _fold(s):
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def udp6_frames(ports, dport=4000, payload=PAYLOAD[:16], src=CLIENT,
                dst=SINK4_6, sport=None):
    """Ethernet frames h6 -> xl of UDP datagrams SRC#port -> DST#DPORT,
    one per port of PORTS (with SPORT given: SRC#SPORT -> DST#port); the
    checksum of the datagram of port 0 adjusted by each port (no
    per-packet sum of the whole datagram, nor scapy: thousands of frames
    in a fraction of a second)."""
    n = 8 + len(payload)
    fixed = dport if sport is None else sport
    base = struct.pack("!HHHH", 0, fixed, n, 0) + payload
    s0 = (~inet_csum(pseudo(src, dst, 17, n) + base)) & 0xFFFF
    head = bytes.fromhex((XL6_MAC + H6_MAC).replace(":", "")) + \
        struct.pack("!H", 0x86DD) + ip6_packet(src, dst, 17, b"", plen=n)
    frames = []
    for p in ports:
        c = (~_fold(s0 + p)) & 0xFFFF or 0xFFFF
        pair = (p, fixed) if sport is None else (fixed, p)
        frames.append(head + struct.pack("!HHHH", *pair, n, c) + payload)
    return frames


def udp6(sport=40000, dport=4000, n=64, src=CLIENT, dst=SINK4_6):
    return IPv6(src=src, dst=dst, hlim=64) / UDP(sport=sport, dport=dport) \
        / Raw(PAYLOAD[:n])


def udp4(src4, sport4, rport=4000, n=64, src=SINK4):
    return IP(src=src, dst=src4, ttl=64) / UDP(sport=rport, dport=sport4) \
        / Raw(PAYLOAD[:n])


def tcp6(flags, sport=45000, seq=1000, ack=0):
    return IPv6(src=CLIENT, dst=SINK4_6, hlim=64) / \
        TCP(sport=sport, dport=80, flags=flags, seq=seq, ack=ack,
            window=1000)


def tcp4(f, flags, seq=5000, ack=0, src=SINK4):
    return IP(src=src, dst=f[IP].src, ttl=64) / \
        TCP(sport=80, dport=f[TCP].sport, flags=flags, seq=seq, ack=ack,
            window=1000)


def static_bib(topo, t6, t4, proto):
    """A static BIB entry T6 - T4 ("ADDR#PORT") of PROTO ("--tcp") in
    instance "n", removed at the end of the test."""
    cli_ok(topo.xl, "-i", "n", "bib", "add", t6, t4, proto)
    topo.defer(lambda: cli_ok(topo.xl, "-i", "n", "bib", "remove", t4,
                              proto))


def wait_all(cap, match, count):
    """The frames of CAP matching MATCH, once COUNT came and stragglers had
    0.3 s more."""
    cap.wait(match, count=count)
    cap.settle(0.3)
    return cap.matching(match)


def frags6(datagram, cuts, ident, src=CLIENT, dst=SINK4_6):
    """The UDP @datagram as IPv6 fragments cut at offsets @cuts."""
    bounds = [0] + list(cuts) + [len(datagram)]
    return [ip6_packet(src, dst, 44, frag6_header(
        17, a, b < len(datagram), ident) + datagram[a:b], hlim=64)
        for a, b in zip(bounds, bounds[1:])]


def frags4(datagram, cuts, ident, dst, src=SINK4):
    """The same as IPv4 fragments to @dst."""
    bounds = [0] + list(cuts) + [len(datagram)]
    return [ip4_packet(src, dst, 17, datagram[a:b], ttl=64, ident=ident,
                       mf=b < len(datagram), offset=a)
            for a, b in zip(bounds, bounds[1:])]


def sessions(topo, proto):
    return cli_json(topo.xl, "-i", "n", "session", "list", "--" + proto,
                    changing=True)


def tcp_state(topo, port6):
    return [s["state"] for s in sessions(topo, "tcp")
            if s["port6"] == port6]


def tables(topo):
    """`tern stats --json`'s table sizes: (sessions, bib-entries)."""
    s = cli_json(topo.xl, "-i", "n", "stats")["tables"]
    return s["sessions"], s["bib-entries"]


def all_sessions(topo):
    return cli_json(topo.xl, "-i", "n", "session", "list", changing=True)


def all_bib(topo):
    return cli_json(topo.xl, "-i", "n", "bib", "list", changing=True)


def assert_empty(topo):
    assert all_sessions(topo) == []
    assert tables(topo) == (0, 0)
