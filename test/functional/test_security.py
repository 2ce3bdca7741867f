"""Hostile input (issue 10): corrupt ICMP messages are never made valid,
and what Tern will not translate is never answered with Time Exceeded.

Each refusal is paired with the same packet made right, which is
translated: the test proves the one difference matters.
"""

import pytest
from scapy.layers.inet import ICMP
from scapy.layers.inet6 import IPv6

from ternlib import (H4, H4_6, H6, PAYLOAD, SINK4, SINK4_6, SINK6, SINK6_4,
                     XL4, XL6, check_checksums, cli_ok, embed,
                     icmp4_message, icmp6_message, ip4_packet, ip6_packet,
                     is_ip4, is_ip6, none_on, udp_datagram)

REMOTE4 = "203.0.113.50"            # inner destination of 4->6 errors
OTHER6 = embed("198.51.100.7")      # inner destination of 6->4 errors
ZERO4 = b"\0\0\0\0"


def corrupt(msg, at=12):
    """MSG with one bit flipped past its header: the checksum is wrong."""
    b = bytearray(msg)
    b[at] ^= 0x40
    return bytes(b)


def err4(ok=True, ttl=64, src=H4, dst=SINK6_4):
    """ICMPv4 Port Unreachable SRC -> DST quoting DST -> REMOTE4."""
    inner = ip4_packet(dst, REMOTE4, 17,
                       udp_datagram(dst, REMOTE4, 40000, 4000,
                                    PAYLOAD[:32]), ttl=40)
    msg = icmp4_message(3, 3, ZERO4, inner)
    return ip4_packet(src, dst, 1, msg if ok else corrupt(msg, 30),
                      ttl=ttl)


def err6(ok=True, hlim=64, dst=SINK4_6):
    """ICMPv6 Port Unreachable h6 -> DST quoting DST -> OTHER6."""
    inner = ip6_packet(dst, OTHER6, 17,
                       udp_datagram(dst, OTHER6, 4000, 40000,
                                    PAYLOAD[:32]), hlim=40)
    msg = icmp6_message(H6, dst, 1, 4, ZERO4, inner)
    return ip6_packet(H6, dst, 58, msg if ok else corrupt(msg, 50),
                      hlim=hlim)


def echo4(ok=True, ttl=64, type_=8):
    msg = icmp4_message(type_, 0, b"\x12\x34\x00\x01", PAYLOAD[:40])
    return ip4_packet(H4, SINK6_4, 1, msg if ok else corrupt(msg), ttl=ttl)


def echo6(ok=True, hlim=64):
    msg = icmp6_message(H6, SINK4_6, 128, 0, b"\x12\x34\x00\x01",
                        PAYLOAD[:40])
    return ip6_packet(H6, SINK4_6, 58, msg if ok else corrupt(msg),
                      hlim=hlim)


def refused46(topo, pkt, counter):
    """PKT from h4: nothing reaches h6, nothing comes back to h4."""
    c = topo.counters()
    with topo.cap6() as cap6, topo.cap4() as cap4:
        topo.send4(pkt)
        none_on(lambda: c.expect({counter: 1}),
                (cap6, is_ip6(dst=SINK6)), (cap4, is_ip4(dst=H4)))


def refused64(topo, pkt, counter):
    c = topo.counters()
    with topo.cap4() as cap4, topo.cap6() as cap6:
        topo.send6(pkt)
        none_on(lambda: c.expect({counter: 1}),
                (cap4, is_ip4(dst=SINK4)), (cap6, is_ip6(dst=H6)))


def passes46(topo, pkt, counter):
    c = topo.counters()
    with topo.cap6() as cap6:
        topo.send4(pkt)
        f = cap6.one(is_ip6(src=H4_6, dst=SINK6, nh=58))
    c.expect({counter: 1})
    return f


def passes64(topo, pkt, counter):
    c = topo.counters()
    with topo.cap4() as cap4:
        topo.send6(pkt)
        f = cap4.one(is_ip4(dst=SINK4, proto=1))
    c.expect({counter: 1})
    return f


# --- Item 5: checksums of what Tern rebuilds -------------------------------


def test_icmpv4_error_with_bad_checksum_dropped(xlat):
    passes46(xlat, err4(), "xlat-icmp-error-4to6")
    refused46(xlat, err4(ok=False), "drop-bad-checksum")


def test_icmpv6_error_with_bad_checksum_dropped(xlat):
    passes64(xlat, err6(), "xlat-icmp-error-6to4")
    refused64(xlat, err6(ok=False), "drop-bad-checksum")


def test_icmpv4_echo_with_bad_checksum_dropped(xlat):
    passes46(xlat, echo4(), "xlat-4to6")
    refused46(xlat, echo4(ok=False), "drop-bad-checksum")


def test_icmpv6_echo_with_bad_checksum_dropped(xlat):
    passes64(xlat, echo6(), "xlat-6to4")
    refused64(xlat, echo6(ok=False), "drop-bad-checksum")


# --- Item 6: validity before the TTL / hop limit ---------------------------


def test_ttl1_bad_checksum_not_answered_4to6(xlat):
    refused46(xlat, echo4(ok=False, ttl=1), "drop-bad-checksum")


def test_hlim1_bad_checksum_not_answered_6to4(xlat):
    refused64(xlat, echo6(ok=False, hlim=1), "drop-bad-checksum")


@pytest.mark.parametrize("type_", [13, 17])     # timestamp, mask request
def test_ttl1_untranslatable_icmp_not_answered_4to6(xlat, type_):
    refused46(xlat, echo4(ttl=1, type_=type_), "drop-icmp-info")


def test_ttl1_bad_error_not_answered(xlat):
    """An ICMP error is never answered; one with a wrong checksum and TTL
    1 is counted as what it is."""
    refused46(xlat, err4(ok=False, ttl=1), "drop-bad-checksum")
    refused64(xlat, err6(ok=False, hlim=1), "drop-bad-checksum")


def test_ttl1_translatable_still_answered(xlat):
    """The control: a good echo with TTL 1 gets Time Exceeded."""
    c = xlat.counters()
    with xlat.cap4() as cap4:
        xlat.send4(echo4(ttl=1))
        f = cap4.one(is_ip4(dst=H4, proto=1))
    assert (f[ICMP].type, f[ICMP].code) == (11, 0)
    c.expect({"drop-ttl": 1})


# --- Item 4: where translated packets and errors may go ---------------------


@pytest.mark.parametrize("dst4", ["127.0.0.1", "0.0.0.5", "224.0.0.1",
                                  "255.255.255.255", XL4])
def test_error_toward_special_or_own_ipv4_refused(xlat, dst4):
    """An ICMPv6 error whose destination maps to an IPv4 address this host
    must never send to (loopback, this-network, multicast, broadcast) or
    to the host itself: never translated (it was delivered to the host,
    forged, or sent to 127.0.0.1 from an RFC 6791 source)."""
    refused64(xlat, err6(dst=embed(dst4)), "drop-error-dest")


def test_packet_toward_own_ipv4_refused(xlat):
    """A translated packet is never delivered to the translator itself:
    its answer would leave untranslated."""
    pkt = ip6_packet(H6, embed(XL4), 17,
                     udp_datagram(H6, embed(XL4), 40000, 4000, PAYLOAD[:20]))
    refused64(xlat, pkt, "drop-to-self")


def test_error_toward_own_ipv6_refused(xlat):
    """The same 4->6: an EAM maps 198.51.100.250 to the translator's own
    IPv6 address."""
    cli_ok(xlat.xl, "eamt", "add", XL6 + "/128", "198.51.100.250/32")
    xlat.defer(lambda: cli_ok(xlat.xl, "eamt", "flush"))
    refused46(xlat, err4(dst="198.51.100.250"), "drop-error-dest")
    pkt = ip4_packet(H4, "198.51.100.250", 17,
                     udp_datagram(H4, "198.51.100.250", 4000, 40000,
                                  PAYLOAD[:20]))
    refused46(xlat, pkt, "drop-to-self")


@pytest.mark.parametrize("src4", ["127.0.0.1", "0.0.0.0"])
def test_error_from_illegal_source_translated(xlat, src4):
    """RFC 7915 4.1: an ICMPv4 error from an illegal source is translated
    for troubleshooting, from the translator's own IPv6 address (no RFC
    6791 pool is set); any other packet from it is not."""
    c = xlat.counters()
    with xlat.cap6() as cap6:
        xlat.send4(err4(src=src4))
        f = cap6.one(is_ip6(dst=SINK6, nh=58))
    c.expect({"xlat-icmp-error-4to6": 1})
    assert f[IPv6].src == XL6
    check_checksums(f)
    pkt = ip4_packet(src4, SINK6_4, 17,
                     udp_datagram(src4, SINK6_4, 4000, 40000, PAYLOAD[:20]))
    refused46(xlat, pkt, "pass-special4")
