"""TCP without session through NAT64 (RFC 6146 3.5.2.2, state CLOSED).

A TCP segment other than a SYN opens no session. RFC 6146: "if there is
a corresponding entry in the TCP BIB, other packets SHOULD be translated
and forwarded if the security policy allows to do so. The state remains
unchanged." Tern's policy is the setting tcp-nosyn-with-bib: off (the
default) drops them (drop-tcp-nosyn, test_nat64.py::
test_tcp_without_session_must_be_syn); on translates them through the BIB
entry of their flow, both ways, and makes no session. The BIB entries here
are static (an IPv4 client reaching an IPv6 server).

The other behaviour of the section left to the packet path, the probe of
an established session whose lifetime ran out (tcp-est-timeout, 7440 s at
least), is asserted byte for byte by the KUnit suite tern_nat64_probe.
"""

import pytest
from scapy.layers.inet import IP, TCP
from scapy.layers.inet6 import IPv6
from scapy.packet import Raw

import ternlib
from ternlib import (PAYLOAD, SINK4, SINK4_6, assert_ipv4, assert_ipv6,
                     cli_json, is_ip4, is_ip6)
from ternlib.nat64 import static_bib as add_static_bib
from test_nat64 import (CLIENT, POOL4_NET, _nat64_module, nat,  # noqa: F401
                        out64, out46, tcp6, tcp_state)

A4 = str(POOL4_NET[3])


def static_bib(topo, port6, port4):
    add_static_bib(topo, "%s#%d" % (CLIENT, port6), "%s#%d" % (A4, port4),
                   "--tcp")


def bib_tcp(topo):
    return [(b["address6"], b["port6"], b["address4"], b["port4"],
             b["static"], b["sessions"])
            for b in cli_json(topo.xl, "-i", "n", "bib", "list", "--tcp")]


def seg6(port6, flags, seq=7000, ack=9000, n=0):
    return IPv6(src=CLIENT, dst=SINK4_6, hlim=64) / \
        TCP(sport=port6, dport=80, flags=flags, seq=seq, ack=ack,
            window=1000) / Raw(PAYLOAD[:n])


def seg4(port4, flags, sport=33500, seq=5000, ack=1000, n=0):
    return IP(src=SINK4, dst=A4, ttl=64) / \
        TCP(sport=sport, dport=port4, flags=flags, seq=seq, ack=ack,
            window=2000) / Raw(PAYLOAD[:n])


def test_setting_defaults_off(nat):
    assert ternlib.globals_(nat.xl, "n")["tcp-nosyn-with-bib"] is False
    assert ternlib.stats(nat.xl, "n")["tcp-probes"] == 0


def test_off_drops_both_ways_even_with_bib(nat):
    static_bib(nat, 8100, 2100)
    c = nat.counters()
    with nat.cap4() as cap4, nat.cap6() as cap6:
        nat.send6(seg6(8100, "A"))
        nat.send4(seg4(2100, "A"))
        ternlib.none_on(lambda: c.expect({"drop-tcp-nosyn": 2}),
                        (cap4, is_ip4(dst=SINK4, proto=6)),
                        (cap6, is_ip6(dst=CLIENT, nh=6)))
    assert tcp_state(nat, 8100) == []


@pytest.mark.parametrize("flags", ["A", "PA", "FA", "R"])
def test_on_6to4_through_the_bib_entry(nat, flags):
    nat.set("tcp-nosyn-with-bib", "true")
    static_bib(nat, 8101, 2101)
    n = 10 if "P" in flags else 0
    c = nat.counters()
    f = out64(nat, seg6(8101, flags, seq=7001, ack=9001, n=n))
    assert_ipv4(f, len=40 + n, ttl=63, proto=6, src=A4, dst=SINK4)
    t = f[TCP]
    assert (t.sport, t.dport, t.seq, t.ack, str(t.flags), t.window) == \
        (2101, 80, 7001, 9001, flags, 1000)
    assert bytes(t.payload) == PAYLOAD[:n]
    c.expect({"xlat-6to4": 1})
    # The state stays CLOSED: no session, the BIB as it was.
    assert tcp_state(nat, 8101) == []
    assert bib_tcp(nat) == [(CLIENT, 8101, A4, 2101, True, 0)]


@pytest.mark.parametrize("flags", ["A", "PA", "FA", "R"])
def test_on_4to6_through_the_bib_entry(nat, flags):
    nat.set("tcp-nosyn-with-bib", "true")
    static_bib(nat, 8102, 2102)
    n = 12 if "P" in flags else 0
    c = nat.counters()
    g = out46(nat, seg4(2102, flags, sport=33501, seq=5002, ack=1002, n=n))
    assert_ipv6(g, plen=20 + n, nh=6, hlim=63, src=SINK4_6, dst=CLIENT)
    t = g[TCP]
    assert (t.sport, t.dport, t.seq, t.ack, str(t.flags), t.window) == \
        (33501, 8102, 5002, 1002, flags, 2000)
    assert bytes(t.payload) == PAYLOAD[:n]
    c.expect({"xlat-4to6": 1})
    assert tcp_state(nat, 8102) == []
    assert bib_tcp(nat) == [(CLIENT, 8102, A4, 2102, True, 0)]


def test_on_without_bib_entry_still_dropped(nat):
    """No BIB entry: nothing to translate through; none is made."""
    nat.set("tcp-nosyn-with-bib", "true")
    c = nat.counters()
    with nat.cap4() as cap4, nat.cap6() as cap6:
        nat.send6(seg6(8103, "A"))
        nat.send4(seg4(2103, "A"))
        ternlib.none_on(lambda: c.expect({"drop-tcp-nosyn": 1,
                                          "drop-no-session": 1}),
                        (cap4, is_ip4(dst=SINK4, proto=6)),
                        (cap6, is_ip6(dst=CLIENT, nh=6)))
    assert bib_tcp(nat) == []
    assert tcp_state(nat, 8103) == []


def test_on_with_address_dependent_filtering(nat):
    """The security policy still applies: with address-dependent filtering
    an IPv4 peer no session of the BIB entry knows is filtered."""
    nat.set("tcp-nosyn-with-bib", "true")
    nat.set("address-dependent-filtering", "true")
    static_bib(nat, 8104, 2104)
    c = nat.counters()
    with nat.cap6() as cap6:
        nat.send4(seg4(2104, "A"))
        cap6.none(is_ip6(dst=CLIENT, nh=6),
                  proof=lambda: c.expect({"drop-filtered": 1}))
    # From the IPv6 side it goes out (filtering is of the IPv4 side).
    f = out64(nat, seg6(8104, "A", seq=7004, ack=9004))
    assert (f[IP].src, f[TCP].sport, f[TCP].seq, f[TCP].ack) == \
        (A4, 2104, 7004, 9004)
    c.expect({"drop-filtered": 1, "xlat-6to4": 1})
    assert tcp_state(nat, 8104) == []


def test_on_syn_still_opens_a_session(nat):
    """The setting changes only segments that open nothing."""
    nat.set("tcp-nosyn-with-bib", "true")
    syn = out64(nat, tcp6("S", sport=45100))
    assert str(syn[TCP].flags) == "S"
    assert tcp_state(nat, 45100) == ["V6_INIT"]
