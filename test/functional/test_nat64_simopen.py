"""TCP simultaneous open through NAT64 (RFC 6146 3.5.2.2).

An IPv4 SYN to a pool4 transport address without BIB entry (with
address-dependent filtering: or with one whose sessions do not know its
peer, test_nat64_rfc6146.py) is kept for TCP_INCOMING_SYN (6 s) unless
drop-externally-initiated-tcp drops it (counter syn-stored; `tern stats`
shows stored-syns). Then either an IPv6 SYN opens that session (the stored
SYN is discarded unanswered; the IPv4 peer's retransmission finds the V6
INIT session and establishes it), or the time runs out and the IPv4 peer
hears ICMP Port Unreachable quoting its SYN. At most max-stored-syns wait.

Port selection depends only on the IPv6 transport address (RFC 6056 keyed
hash), so the test learns the IPv4 transport address of an IPv6 host's
port with a first SYN, flushes, and has the IPv4 side aim at it.
"""

import time

from scapy.layers.inet import ICMP, IP, TCP, IPerror, TCPerror

import ternlib
from ternlib import SINK4, cli_ok, is_ip4, is_ip6
from test_nat64 import (CLIENT, POOL4_NET, _nat64_module, nat,  # noqa: F401
                        out64, out46, tcp6, tcp_state)


def stored(topo):
    return ternlib.stats(topo.xl, "n")["stored-syns"]


def syn4(dst, dport, sport=80, seq=5000, src=SINK4):
    return IP(src=src, dst=dst, ttl=64) / \
        TCP(sport=sport, dport=dport, flags="S", seq=seq, window=1000)


def is_port_unreach(f):
    return ICMP in f and (f[ICMP].type, f[ICMP].code) == (3, 3)


def test_stored_syn_answered_with_port_unreachable(nat):
    a4, p4 = str(POOL4_NET[2]), 50100
    c = nat.counters()
    with nat.cap4() as cap4, nat.cap6() as cap6:
        t0 = time.monotonic()
        nat.send4(syn4(a4, p4, sport=33400, seq=123))
        c.expect({"syn-stored": 1})
        assert stored(nat) == 1
        e = cap4.one(is_port_unreach, timeout=60)
        waited = time.monotonic() - t0
        assert cap6.matching(is_ip6()) == []
    # Held TCP_INCOMING_SYN (6 s, RFC 6146 3.5.2.2) less the worker's
    # half-second period at most; how much later it comes is the VM's.
    assert waited >= 5.5, waited
    assert e[IP].dst == SINK4
    q = e[IPerror]
    assert (q.src, q.dst, q.proto) == (SINK4, a4, 6)
    t = e[TCPerror]
    assert (t.sport, t.dport, t.seq) == (33400, p4, 123)
    assert stored(nat) == 0
    # Not a packet: no counter moved for the answer.
    c.expect({"syn-stored": 1})


def test_simultaneous_open(nat):
    f = out64(nat, tcp6("S", sport=45100))
    a4, p4 = f[IP].src, f[TCP].sport
    cli_ok(nat.xl, "-i", "n", "session", "flush")
    c = nat.counters()
    with nat.cap4() as cap4:
        # The IPv4 side first: stored.
        nat.send4(syn4(a4, p4))
        c.expect({"syn-stored": 1})
        assert stored(nat) == 1
        # The IPv6 SYN makes the same transport address and session.
        nat.send6(tcp6("S", sport=45100))
        g = cap4.one(is_ip4(dst=SINK4, proto=6))
        assert (g[IP].src, g[TCP].sport, g[TCP].dport) == (a4, p4, 80)
        assert stored(nat) == 0
        assert tcp_state(nat, 45100) == ["V6_INIT"]
        # The IPv4 peer's retransmission goes through and establishes.
        h = out46(nat, syn4(a4, p4))
        assert (h[TCP].sport, h[TCP].dport, str(h[TCP].flags)) == \
            (80, 45100, "S")
        assert tcp_state(nat, 45100) == ["ESTABLISHED"]
        # The discarded SYN is never answered.
        cap4.none(is_port_unreach,
                  proof=lambda: c.expect({"syn-stored": 1, "xlat-6to4": 1,
                                          "xlat-4to6": 1}),
                  wait=7.5)


def test_no_store_when_policy_drops(nat):
    """drop-externally-initiated-tcp drops the SYN; address-dependent
    filtering does not (no BIB entry, nothing to filter on: stored)."""
    a4 = str(POOL4_NET[2])
    nat.set("drop-externally-initiated-tcp", "true")
    c = nat.counters()
    nat.send4(syn4(a4, 50110))
    c.expect({"drop-no-session": 1})
    assert stored(nat) == 0
    nat.set("drop-externally-initiated-tcp", "false")
    nat.set("address-dependent-filtering", "true")
    with nat.cap4() as cap4:
        nat.send4(syn4(a4, 50111))
        c.expect({"drop-no-session": 1, "syn-stored": 1})
        assert stored(nat) == 1
        # Answered after 6 s, as any stored SYN (none left for the next).
        e = cap4.one(is_port_unreach, timeout=12)
    assert e[TCPerror].dport == 50111
    assert stored(nat) == 0


def test_not_a_syn_not_stored(nat):
    c = nat.counters()
    nat.send4(IP(src=SINK4, dst=str(POOL4_NET[2])) /
              TCP(sport=80, dport=50120, flags="A"))
    c.expect({"drop-no-session": 1})
    assert stored(nat) == 0


def test_store_full(nat):
    """max-stored-syns 2: the third pair is dropped, and so is a
    retransmission of a stored pair while the store is full (refused
    before any copy); the first copy stays and is answered."""
    nat.set("max-stored-syns", "2")
    a4 = str(POOL4_NET[2])
    c = nat.counters()
    with nat.cap4() as cap4:
        for port in (50130, 50131, 50132, 50130):
            nat.send4(syn4(a4, port))
        c.expect({"syn-stored": 2, "drop-syn-store-full": 2})
        assert stored(nat) == 2
        got = cap4.wait(is_port_unreach, count=2, timeout=12)
        cap4.settle(1)
    assert sorted(f[TCPerror].dport for f in got) == [50130, 50131]
    assert len(cap4.matching(is_port_unreach)) == 2
    assert stored(nat) == 0


def test_store_bytes(nat):
    """The store keeps 256 bytes per max-stored-syns, each SYN as much of
    it as an ICMP error quotes (548 bytes) with a 72-byte header, in a
    1024-byte kmalloc object: with max-stored-syns 3 (768 bytes) a SYN of
    1064 bytes does not fit; with 4 (1024) it does, and its answer quotes
    its first 548 bytes, total length as it came."""
    a4 = str(POOL4_NET[2])
    big = syn4(a4, 50150, sport=33410, seq=77) / (bytes(range(256)) * 4)
    raw = bytes(big)
    assert len(raw) == 1064
    nat.set("max-stored-syns", "3")
    c = nat.counters()
    nat.send4(big)
    c.expect({"drop-syn-store-full": 1})
    assert stored(nat) == 0
    nat.set("max-stored-syns", "4")
    with nat.cap4() as cap4:
        nat.send4(big)
        c.expect({"drop-syn-store-full": 1, "syn-stored": 1})
        assert stored(nat) == 1
        e = cap4.one(is_port_unreach, timeout=12)
    assert e[IP].dst == SINK4
    assert e[IPerror].len == 1064
    assert bytes(e[ICMP].payload) == raw[:548]
    assert stored(nat) == 0


def test_zz_stored_syn_left_at_removal(nat):
    """Last of the module: a SYN still stored when the namespace and its
    instance go (the fixture's teardown); it holds neither the device nor
    the conntrack entry, so neither removal waits for it."""
    c = nat.counters()
    nat.send4(syn4(str(POOL4_NET[2]), 50140))
    c.expect({"syn-stored": 1})
    assert stored(nat) == 1
