"""Hostile input (issue 10): corrupt ICMP messages are never made valid,
and what Tern will not translate is never answered with Time Exceeded.

Each refusal is paired with the same packet made right, which is
translated: the test proves the one difference matters.
"""

import pytest
from scapy.layers.inet import ICMP
from scapy.layers.inet6 import IPv6

from ternlib import (H4, H4_6, H6, H6_LINK, PAYLOAD, SINK4, SINK4_6, SINK6,
                     SINK6_4, XL4, XL6, check_checksums, cli_ok, embed,
                     icmp4_message, icmp6_message, ip4_packet, ip6_packet,
                     is_ip4, is_ip6, none_on, udp_datagram, xlat46, xlat64)

REMOTE4 = "203.0.113.50"            # inner destination of 4->6 errors
OTHER6 = embed("198.51.100.7")      # inner destination of 6->4 errors
ZERO4 = b"\0\0\0\0"


def corrupt(msg, at=12):
    """MSG with one bit flipped past its header: the checksum is wrong."""
    b = bytearray(msg)
    b[at] ^= 0x40
    return bytes(b)


def err4(ok=True, ttl=64, src=H4, dst=SINK6_4, qsrc=None, qdst=REMOTE4):
    """ICMPv4 Port Unreachable SRC -> DST quoting QSRC (DST) -> QDST."""
    qsrc = qsrc or dst
    inner = ip4_packet(qsrc, qdst, 17,
                       udp_datagram(qsrc, qdst, 40000, 4000,
                                    PAYLOAD[:32]), ttl=40)
    msg = icmp4_message(3, 3, ZERO4, inner)
    return ip4_packet(src, dst, 1, msg if ok else corrupt(msg, 30),
                      ttl=ttl)


def err6(ok=True, hlim=64, dst=SINK4_6, qsrc=None, qdst=OTHER6):
    """ICMPv6 Port Unreachable h6 -> DST quoting QSRC (DST) -> QDST."""
    qsrc = qsrc or dst
    inner = ip6_packet(qsrc, qdst, 17,
                       udp_datagram(qsrc, qdst, 4000, 40000,
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
    f = xlat46(topo, pkt, is_ip6(src=H4_6, dst=SINK6, nh=58))
    c.expect({counter: 1})
    return f


def passes64(topo, pkt, counter):
    c = topo.counters()
    f = xlat64(topo, pkt, is_ip4(dst=SINK4, proto=1))
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
    for troubleshooting, from pool6's mapping of that source, so that the
    IPv6 host sees who reported it (not the translator's own address, nor
    an RFC 6791 one); any other packet from it is not."""
    c = xlat.counters()
    with xlat.cap6() as cap6:
        xlat.send4(err4(src=src4))
        f = cap6.one(is_ip6(dst=SINK6, nh=58))
    c.expect({"xlat-icmp-error-4to6": 1})
    assert f[IPv6].src == embed(src4)
    check_checksums(f)
    pkt = ip4_packet(src4, SINK6_4, 17,
                     udp_datagram(src4, SINK6_4, 4000, 40000, PAYLOAD[:20]))
    refused46(xlat, pkt, "pass-special4")


# --- Item 4: the packet an error quotes -----------------------------------
#
# Each refusal beside the same error made right (the control), which is
# translated.


def test_error_quoting_packet_of_another_host_refused(xlat):
    """The packet in error must come from the error's destination (an
    error goes to the source of the packet it quotes): otherwise it would
    tell a host about a packet it never sent."""
    passes46(xlat, err4(), "xlat-icmp-error-4to6")
    refused46(xlat, err4(qsrc="198.51.100.7"), "drop-error-dest")
    passes64(xlat, err6(), "xlat-icmp-error-6to4")
    refused64(xlat, err6(qsrc=embed("203.0.113.7")), "drop-error-dest")


@pytest.mark.parametrize("dst4", ["127.0.0.1", "0.0.0.5", "224.0.0.1",
                                  "255.255.255.255"])
def test_error_quoting_special_destination_refused(xlat, dst4):
    """The quoted packet's destination follows a normal packet's rules: a
    packet toward loopback, this-network, multicast or broadcast was never
    translated, so an error about one is forged (RFC 7915 4.1's exception
    is for the error's own source, not for what it quotes)."""
    passes46(xlat, err4(), "xlat-icmp-error-4to6")
    refused46(xlat, err4(qdst=dst4), "drop-icmp-inner")
    passes64(xlat, err6(), "xlat-icmp-error-6to4")
    refused64(xlat, err6(qdst=embed(dst4)), "drop-icmp-inner")


def test_error_quoting_denylisted_destination_refused(xlat):
    """A quoted destination in denylist4 has no pool6 mapping, as for a
    normal packet."""
    cli_ok(xlat.xl, "denylist4", "add", REMOTE4 + "/32")
    cli_ok(xlat.xl, "denylist4", "add", "198.51.100.7/32")
    xlat.defer(lambda: cli_ok(xlat.xl, "denylist4", "flush"))
    refused46(xlat, err4(), "drop-icmp-inner")
    refused64(xlat, err6(), "drop-icmp-inner")
    cli_ok(xlat.xl, "denylist4", "flush")
    passes46(xlat, err4(), "xlat-icmp-error-4to6")
    passes64(xlat, err6(), "xlat-icmp-error-6to4")


def test_error_from_illegal_source_strict_wkp(xlat):
    """With the Well-Known Prefix and strict-wkp, pool6 never stands for an
    IPv4 address that is not global (RFC 6052 3.1), an illegal one
    included: an ICMPv4 error from 127.0.0.1 is translated from the
    translator's own address (no rfc6791v6-prefix), not from
    64:ff9b::7f00:1."""
    wkp, global_a, global_b = "64:ff9b::/96", "8.8.8.8", "93.184.216.34"
    xlat.set_global("pool6", wkp)
    xlat.temp_route(xlat.xl, embed(global_a, wkp) + "/128", "via", H6_LINK)
    c = xlat.counters()
    with xlat.cap6() as cap6:
        xlat.send4(err4(src="127.0.0.1", dst=global_a, qdst=global_b))
        f = cap6.one(is_ip6(dst=embed(global_a, wkp), nh=58))
    c.expect({"xlat-icmp-error-4to6": 1})
    assert f[IPv6].src == XL6
    check_checksums(f)


def test_error_quoting_nonglobal_destination_refused_strict_wkp(xlat):
    """With the Well-Known Prefix and strict-wkp, a quoted destination
    that is not global is refused, as it is for a normal packet (RFC 6052
    3.1); a global one (the control) is translated. The error's own source
    (h4, h6: not global) gets the translator's address instead."""
    wkp, global_a, global_b = "64:ff9b::/96", "8.8.8.8", "93.184.216.34"
    xlat.set_global("pool6", wkp)
    xlat.temp_route(xlat.xl, embed(global_a, wkp) + "/128", "via", H6_LINK)
    xlat.temp_route(xlat.xl, global_a + "/32", "via", H4)
    to6 = is_ip6(src=XL6, dst=embed(global_a, wkp), nh=58)
    to4 = is_ip4(src=XL4, dst=global_a, proto=1)
    c = xlat.counters()
    with xlat.cap6() as cap6, xlat.cap4() as cap4:
        xlat.send4(err4(dst=global_a, qdst=global_b))
        xlat.send6(err6(dst=embed(global_a, wkp),
                        qdst=embed(global_b, wkp)))
        cap6.one(to6)
        cap4.one(to4)
    c.expect({"xlat-icmp-error-4to6": 1, "xlat-icmp-error-6to4": 1})
    c = xlat.counters()
    with xlat.cap6() as cap6, xlat.cap4() as cap4:
        xlat.send4(err4(dst=global_a, qdst=REMOTE4))
        xlat.send6(err6(dst=embed(global_a, wkp),
                        qdst=embed("198.51.100.7", wkp)))
        none_on(lambda: c.expect({"drop-icmp-inner": 2}),
                (cap6, to6), (cap4, to4))
