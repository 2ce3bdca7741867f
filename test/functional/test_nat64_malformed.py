"""Stateful NAT64: malformed and truncated packets, bad checksums.

The topology and instance "n" are those of test_nat64.py (ternlib.nat64:
pool6 2001:db8:64::/96, pool4 198.51.100.16/30, the IPv6 client CLIENT,
the IPv4 peer SINK4), built once for this file. Every packet is refused
with exactly one counter, nothing leaves the translator, and no session
or BIB entry is left behind.
"""

import struct

import pytest
from scapy.layers.inet import ICMP, IP, UDP
from scapy.layers.inet6 import ICMPv6EchoRequest, IPv6

from ternlib import (PAYLOAD, SINK4, SINK4_6, addr4, icmp4_message,
                     icmp6_message, ip4_packet, ip6_packet, is_ip4, is_ip6,
                     none_on, pseudo, udp_datagram, with_csum)
from ternlib.nat64 import (CLIENT, POOL4_NET, _nat64_module,  # noqa: F401
                           all_sessions, assert_empty, nat, out64, sessions,
                           static_bib, udp6)

A4 = str(POOL4_NET[1])      # a pool4 address (no session: nothing bound)


def _tcp(src, dst, doff=5, length=20, flags=0x02):
    t = bytearray(struct.pack("!HHIIBBHHH", 52000, 80, 1, 0, 0, flags,
                              1000, 0, 0))
    t[12] = doff << 4
    t = with_csum(bytes(t), 16, pseudo(src, dst, 6, 20))
    return t[:length]


def _udp(src, dst, sport=52000, dport=4000, n=20):
    return udp_datagram(src, dst, sport, dport, PAYLOAD[:n])


def _p6(nh, payload, plen=None):
    return ip6_packet(CLIENT, SINK4_6, nh, payload, plen=plen)


def _p4(proto, payload, total_length=None, dst=A4):
    return ip4_packet(SINK4, dst, proto, payload, total_length=total_length)


def _bad_csum(msg):
    m = bytearray(msg)
    m[2] ^= 0x5A
    return bytes(m)


def _err6(quote, csum_ok=True):
    m = icmp6_message(CLIENT, SINK4_6, 1, 4, b"\0" * 4, quote)
    return _p6(58, m if csum_ok else _bad_csum(m))


def _err4(quote, csum_ok=True):
    m = icmp4_message(3, 3, b"\0" * 4, quote)
    return _p4(1, m if csum_ok else _bad_csum(m))


# What a quoted packet of the session that is not there would be.
QUOTE6 = ip6_packet(SINK4_6, CLIENT, 17, _udp(SINK4_6, CLIENT, 4000, 52000))
QUOTE4 = ip4_packet(A4, SINK4, 17, _udp(A4, SINK4, 52000, 4000))
GARBAGE = bytes(range(0x50, 0x80))

MALFORMED6 = {
    # name: (IPv6 packet from CLIENT, the counter)
    "udp-cut": (_p6(17, _udp(CLIENT, SINK4_6)[:4]), "drop-truncated"),
    "tcp-cut": (_p6(6, _tcp(CLIENT, SINK4_6, length=12)), "drop-truncated"),
    "tcp-doff4": (_p6(6, _tcp(CLIENT, SINK4_6, doff=4)), "drop-truncated"),
    "tcp-doff-past-end": (_p6(6, _tcp(CLIENT, SINK4_6, doff=15)),
                          "drop-truncated"),
    "echo-cut": (_p6(58, icmp6_message(CLIENT, SINK4_6, 128, 0)[:4]),
                 "drop-truncated"),
    "echo-bad-csum": (_p6(58, _bad_csum(icmp6_message(
        CLIENT, SINK4_6, 128, 0, b"\x12\x34\0\1", PAYLOAD[:8]))),
        "drop-bad-checksum"),
    # Payload Length 4 of 28 UDP bytes: the stack trims the rest off.
    "udp-plen-short": (_p6(17, _udp(CLIENT, SINK4_6), plen=4),
                       "drop-truncated"),
    "error-cut": (_p6(58, icmp6_message(CLIENT, SINK4_6, 1, 4)[:4]),
                  "drop-truncated"),
    "error-bad-csum": (_err6(QUOTE6, csum_ok=False), "drop-bad-checksum"),
    "error-quotes-garbage": (_err6(GARBAGE), "drop-icmp-inner"),
    "error-quote-cut": (_err6(QUOTE6[:42]), "drop-icmp-inner"),
    "error-quotes-no-session": (_err6(QUOTE6), "drop-no-session"),
}

MALFORMED4 = {
    # name: (IPv4 packet from SINK4 to a pool4 address, the counter)
    "udp-cut": (_p4(17, _udp(SINK4, A4)[:4]), "drop-truncated"),
    "tcp-cut": (_p4(6, _tcp(SINK4, A4, length=12)), "drop-truncated"),
    "tcp-doff4": (_p4(6, _tcp(SINK4, A4, doff=4)), "drop-truncated"),
    "tcp-doff-past-end": (_p4(6, _tcp(SINK4, A4, doff=15)),
                          "drop-truncated"),
    "echo-cut": (_p4(1, icmp4_message(8, 0)[:4]), "drop-truncated"),
    # Total Length 24 of 48 bytes: the stack trims the rest off.
    "udp-totlen-short": (_p4(17, _udp(SINK4, A4), total_length=24),
                         "drop-truncated"),
    "error-cut": (_p4(1, icmp4_message(3, 3)[:4]), "drop-truncated"),
    "error-bad-csum": (_err4(QUOTE4, csum_ok=False), "drop-bad-checksum"),
    "error-quotes-garbage": (_err4(GARBAGE), "drop-icmp-inner"),
    "error-quote-cut": (_err4(QUOTE4[:22]), "drop-icmp-inner"),
    "error-quotes-no-session": (_err4(QUOTE4), "drop-no-session"),
}


def _refused(topo, send, pkt, counter):
    c = topo.counters()
    with topo.cap4() as cap4, topo.cap6() as cap6:
        send(pkt)
        none_on(lambda: c.expect({counter: 1}), (cap4, is_ip4()),
                (cap6, is_ip6()))
    assert_empty(topo)


@pytest.mark.parametrize("name", sorted(MALFORMED6))
def test_malformed_6to4(nat, name):
    pkt, counter = MALFORMED6[name]
    _refused(nat, nat.send6, pkt, counter)


@pytest.mark.parametrize("name", sorted(MALFORMED4))
def test_malformed_4to6(nat, name):
    pkt, counter = MALFORMED4[name]
    _refused(nat, nat.send4, pkt, counter)


def test_bad_icmp_checksum_4to6_with_session(nat):
    """An ICMPv4 echo reply of a session with a wrong checksum: dropped
    and counted, nothing reaches CLIENT; the session stays the only one."""
    e = out64(nat, IPv6(src=CLIENT, dst=SINK4_6, hlim=64) /
              ICMPv6EchoRequest(id=0x6161, seq=1))
    a4, id4 = e[IP].src, e[ICMP].id
    c = nat.counters()
    bad = _bad_csum(icmp4_message(0, 0, struct.pack("!HH", id4, 1)))
    with nat.cap6() as cap6, nat.cap4() as cap4:
        nat.send4(_p4(1, bad, dst=a4))
        none_on(lambda: c.expect({"drop-bad-checksum": 1}),
                (cap4, is_ip4()), (cap6, is_ip6()))
    assert [(s["protocol"], s["port6"]) for s in all_sessions(nat)] == \
        [("icmp", 0x6161)]


def test_udp_csum0_4to6_creates_no_session(nat):
    """An IPv4 UDP datagram without checksum to a static BIB entry is
    dropped (drop-udp-csum0: amend-udp-checksum-zero is off) before any
    session is made for it."""
    a4 = str(POOL4_NET[2])
    static_bib(nat, "%s#6000" % CLIENT, "%s#6000" % a4, "--udp")
    c = nat.counters()
    pkt = _p4(17, udp_datagram(SINK4, a4, 4000, 6000, PAYLOAD[:20],
                               checksum=False), dst=a4)
    with nat.cap6() as cap6:
        nat.send4(pkt)
        none_on(lambda: c.expect({"drop-udp-csum0": 1}),
                (cap6, is_ip6()))
    assert sessions(nat, "udp") == []


def _dest_opts(nh, size):
    """An IPv6 Destination Options header of SIZE bytes (one PadN)."""
    return bytes([nh, size // 8 - 1, 1, size - 4]) + bytes(size - 4)


# An RFC 4884 extension structure: version 2, one object (MPLS label).
EXT = with_csum(b"\x20\0\0\0" + b"\0\x08\x01\x01" + b"\x00\x01\x41\x40", 2)


def _rfc4884_error6(body):
    """ICMPv6 Destination Unreachable (port) from CLIENT whose Length
    says the original datagram is 128 bytes (16 words) of BODY."""
    return _p6(58, icmp6_message(CLIENT, SINK4_6, 1, 4, b"\x10\0\0\0", body))


def _session_quote(nat, sport, dopts):
    """A UDP session of CLIENT#SPORT: (its IPv4 transport address, a
    packet SINK4 sent in it as CLIENT got it, with a Destination Options
    header of DOPTS bytes before the UDP header)."""
    f = out64(nat, udp6(sport=sport))
    udp = _udp(SINK4_6, CLIENT, 4000, sport, n=8)
    return ((f[IP].src, f[UDP].sport),
            ip6_packet(SINK4_6, CLIENT, 60, _dest_opts(17, dopts) + udp))


def test_rfc4884_error_6to4_session_in_quote(nat):
    """The control of the test below: an error with an RFC 4884 extension
    whose quote holds the UDP header is translated through the session:
    the quote without its Destination Options, padded to 128 bytes, the
    extension after it unchanged."""
    (src4, sport4), inner = _session_quote(nat, 48010, 8)
    assert len(inner) == 40 + 8 + 16
    c = nat.counters()
    h = out64(nat, _rfc4884_error6(inner + bytes(128 - len(inner)) + EXT),
              match=is_ip4(dst=SINK4, proto=1))
    raw = bytes(h[IP])
    icmp = raw[(raw[0] & 15) * 4:]
    assert icmp[:2] == b"\x03\x03" and icmp[5] == 128 // 4
    q = icmp[8:]
    assert (q[9], q[12:16], q[16:20]) == (17, addr4(SINK4), addr4(src4))
    assert struct.unpack("!HH", q[20:24]) == (4000, sport4)
    assert q[36:128] == bytes(92) and q[128:] == EXT
    assert h[IP].src == src4
    c.expect({"xlat-icmp-error-6to4": 1})


def test_rfc4884_error_6to4_session_only_past_quote(nat):
    """The error's Length says its quote is 128 bytes: the quoted IPv6
    header and its Destination Options. The quoted UDP header of the
    session comes after, where the extension is. The session is looked
    up in the quote alone: refused as a quote without a transport header,
    not translated through the session."""
    _, inner = _session_quote(nat, 48012, 88)
    assert len(inner) == 40 + 88 + 16
    c = nat.counters()
    with nat.cap4() as cap4, nat.cap6() as cap6:
        nat.send6(_rfc4884_error6(inner))
        none_on(lambda: c.expect({"drop-icmp-inner": 1}),
                (cap4, is_ip4()), (cap6, is_ip6()))
