"""NAT64 at max-sessions under a spray from IPv4 (early drop), the bound
on sessions opened from IPv4 on one BIB entry, and a flow that bound
refuses evicting nothing.

The standard NAT64 topology (ternlib.nat64): CLIENT never answers, so the
sessions IPv4 peers open toward it never see traffic both ways.
"""

import re

from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

from ternlib import cli_json, cli_ok
from ternlib.frames import is_ip6
from ternlib.names import XL4_MAC, XL6_MAC
from ternlib.nat64 import (CLIENT, _nat64_module, nat, out46,  # noqa: F401
                           out64, sessions, udp4, udp6, wait_until)


def _buckets(n):
    """Session buckets of a table sized for N sessions (nat64/table.c)."""
    b = 1024
    while b < n:
        b *= 2
    return b


def test_outside_spray_evicted_for_new_inside_flow(nat):
    # The table was sized for the limit derived from RAM (max-sessions 0).
    auto = cli_json(nat.xl, "-i", "n", "stats")["tables"]["max-sessions"]
    # Attempts at max-sessions 4 read 4096 chains each, from where the
    # last stopped: that many attempts read them all.
    attempts = _buckets(auto) // 4096 + 1
    nat.set("max-sessions", "4")
    a = out64(nat, udp6(sport=46000))
    out46(nat, udp4(a[IP].src, a[UDP].sport))      # answered: assured
    c = nat.counters()
    # Three IPv4 peers open sessions toward the known BIB entry: full.
    with nat.cap6() as cap:
        for port in (5001, 5002, 5003):
            nat.send4(udp4(a[IP].src, a[UDP].sport, rport=port))
        cap.wait(is_ip6(dst=CLIENT), 3)
    c.expect({"xlat-4to6": 3})
    assert len(sessions(nat, "udp")) == 4

    # A new inside flow: its packets are refused until an attempt finds
    # one of the three, then translated; one session was evicted.
    c = nat.counters()
    frame = bytes(Ether(src=nat.senders["h6"].src_mac, dst=XL6_MAC) /
                  udp6(sport=46002))
    for _ in range(attempts):
        nat.senders["h6"].sock.send(frame)
    wait_until(lambda: sum(c.delta().get(k, 0) for k in
                           ("xlat-6to4", "drop-max-sessions")) == attempts,
               30)
    d = c.delta()
    assert d.get("xlat-6to4", 0) >= 1, d
    assert d.get("evict-unconfirmed", 0) == 1, d
    assert set(d) <= {"evict-unconfirmed", "xlat-6to4",
                      "drop-max-sessions"}, d
    # The answered session stayed, two of the three sprayed ones too.
    s = {(x["port6"], x["remote-port4"]) for x in sessions(nat, "udp")}
    assert len(s) == 4
    assert {(46000, 4000), (46002, 4000)} <= s
    assert len(s & {(46000, p) for p in (5001, 5002, 5003)}) == 2
    # `tern stats` says what was evicted and why.
    out = cli_ok(nat.xl, "-i", "n", "stats")
    assert re.search(r"^  evict-unconfirmed: *[1-9]", out, re.M), out


def test_sessions_per_bib_from_ipv4_bounded(nat):
    nat.set("max-sessions-per-bib-from-ipv4", "2")
    a = out64(nat, udp6(sport=46100))
    c = nat.counters()
    with nat.cap6() as cap:
        for port in (5101, 5102, 5103):
            nat.send4(udp4(a[IP].src, a[UDP].sport, rport=port))
        cap.wait(is_ip6(dst=CLIENT), 2)
    c.expect({"xlat-4to6": 2, "drop-bib-sessions-from-ipv4": 1})
    # The inside host still opens sessions on its entry.
    out64(nat, udp6(sport=46100, dport=4001))
    assert len(sessions(nat, "udp")) == 4


def test_refused_flow_evicts_nothing(nat):
    """At max-sessions, a new flow its own limit refuses (sessions opened
    from IPv4 on one BIB entry) takes no other session's place: the
    unanswered inside flow stays however often it is tried."""
    auto = cli_json(nat.xl, "-i", "n", "stats")["tables"]["max-sessions"]
    attempts = _buckets(auto) // 4096 + 1
    nat.set("max-sessions", "3")
    nat.set("max-sessions-per-bib-from-ipv4", "1")
    out64(nat, udp6(sport=46200))                   # never answered
    a = out64(nat, udp6(sport=46201))
    out46(nat, udp4(a[IP].src, a[UDP].sport))       # answered: assured
    # The entry's one session from IPv4, answered from inside: assured.
    out46(nat, udp4(a[IP].src, a[UDP].sport, rport=5201))
    out64(nat, udp6(sport=46201, dport=5201))
    assert len(sessions(nat, "udp")) == 3

    c = nat.counters()
    for i in range(attempts):
        nat.senders["h4"].sock.send(bytes(
            Ether(src=nat.senders["h4"].src_mac, dst=XL4_MAC) /
            udp4(a[IP].src, a[UDP].sport, rport=5300 + i % 1000)))
    c.expect({"drop-bib-sessions-from-ipv4": attempts}, timeout=60)
    s = {(x["port6"], x["remote-port4"]) for x in sessions(nat, "udp")}
    assert s == {(46200, 4000), (46201, 4000), (46201, 5201)}
