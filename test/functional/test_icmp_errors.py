"""ICMP error translation both ways (RFC 7915 sections 4.2, 4.3, 5.2, 5.3,
with RFC 4884 extensions, RFC 1191 plateaus and RFC 6791 sources).

An error is crafted byte by byte on one host, with a packet in error that
is whole (so its transport checksum is known), and the translated error is
captured on the other host. What the RFC expects is computed independently
(ternlib.xlat_inner_4to6/6to4) and the whole ICMP message is compared byte
by byte, after the outer header has been checked field by field.

Roles in the standard topology:
  4->6: a router at 203.0.113.2 (h4) reports about a packet that the IPv6
        host 198.51.100.99 (SINK6_4, routed to h6, not h6's own address,
        so the error provokes nothing there) sent to 203.0.113.50.
  6->4: a router at 2001:db8:64::c633:6402 (h6's pool6 address) reports
        about a packet that 203.0.113.99 (SINK4, on h4's link, not h4's)
        sent to 198.51.100.7.
"""

import ipaddress
import struct
import time

import pytest

import ternlib
from ternlib import (H4, H4_6, H6, H6_4, H6_LINK, PAYLOAD, SINK4, SINK4_6,
                     SINK6, SINK6_4, XL4, XL6, Topology, assert_frame4,
                     assert_frame6, cli_ok, embed, frag6_header, globals_,
                     icmp4_message, icmp6_message, inet_csum, ip4_packet,
                     ip6_packet, ip_bytes, is_ip4, is_ip6, none_on, pseudo4,
                     pseudo6, require_global, set_mtu, tcp_segment_bytes,
                     udp_datagram, with_csum, xlat_inner_4to6,
                     xlat_inner_6to4)

REMOTE4 = "203.0.113.50"            # inner destination of 4->6 errors
REMOTE4_6 = embed(REMOTE4)
OTHER6_4 = "198.51.100.7"           # inner destination of 6->4 errors
OTHER6 = embed(OTHER6_4)

ZERO4 = b"\0\0\0\0"
MIN_MTU6 = 1280                     # size limit of a translated ICMPv6 error
MIN_MTU4 = 576                      # size limit of a translated ICMPv4 error


def assert_same_bytes(got, want, what="ICMP message"):
    """Byte-exact comparison with a readable failure."""
    if got == want:
        return
    n = min(len(got), len(want))
    first = next((i for i in range(n) if got[i] != want[i]), n)
    raise AssertionError(
        "%s differs: %d bytes, expected %d; first difference at byte %d\n"
        "  got:      %s\n  expected: %s" % (
            what, len(got), len(want), first,
            got[max(0, first - 8):first + 24].hex(" "),
            want[max(0, first - 8):first + 24].hex(" ")))


# --- Packets in error ------------------------------------------------------


def inner4_udp(n=64, ttl=40, tos=0x28, ident=0x5151, df=True, options=b"",
               sport=40000, dport=4000):
    """A whole IPv4 UDP packet SINK6_4 -> REMOTE4 (the packet in error of
    a 4->6 error), N bytes of payload."""
    return ip4_packet(SINK6_4, REMOTE4, 17,
                      udp_datagram(SINK6_4, REMOTE4, sport, dport,
                                   (PAYLOAD * 40)[:n]),
                      ttl=ttl, tos=tos, ident=ident, df=df, options=options)


def inner6_udp(n=64, hlim=40, tc=0x28, exts=(), sport=4000, dport=40000):
    """A whole IPv6 UDP packet SINK4_6 -> OTHER6 (the packet in error of a
    6->4 error). EXTS: next-header values of 8-byte extension headers
    (0 Hop-by-Hop, 60 Destination Options) put before the UDP header."""
    payload = udp_datagram(SINK4_6, OTHER6, sport, dport, (PAYLOAD * 40)[:n])
    nh = 17
    for t in reversed(exts):
        payload = bytes([nh, 0, 1, 4, 0, 0, 0, 0]) + payload    # PadN
        nh = t
    return ip6_packet(SINK4_6, OTHER6, nh, payload, hlim=hlim, tc=tc)


def hdrs6_len(pkt):
    """IPv6 header + the skipped extension headers of PKT."""
    nh, off = pkt[6], 40
    while nh in ternlib.IPV6_SKIPPED_EXTHDRS:
        nh, off = pkt[off], off + (pkt[off + 1] + 1) * 8
    return off


# --- 4->6 ------------------------------------------------------------------


def error4(type_, code, inner, rest=ZERO4, quote=None, ttl=64, tos=0,
           src=H4, dst=SINK6_4, tail=b""):
    """ICMPv4 error from SRC to DST quoting the first QUOTE bytes of INNER
    (all of it by default), followed by TAIL."""
    body = (inner if quote is None else inner[:quote]) + tail
    return ip4_packet(src, dst, 1, icmp4_message(type_, code, rest, body),
                      ttl=ttl, tos=tos, ident=0x0E0E)


def quote46(inner, quote=None, limit=MIN_MTU6 - 48):
    """The translated packet in error RFC 7915 4.3 expects for a quote of
    QUOTE bytes of INNER, truncated to LIMIT bytes."""
    x = xlat_inner_4to6(inner)
    if quote is not None:
        x = x[:quote - (inner[0] & 15) * 4 + 40]
    return x[:limit]


def expected46(type6, code6, inner, rest6=ZERO4, quote=None, src=H4_6):
    return icmp6_message(src, SINK6, type6, code6, rest6,
                         quote46(inner, quote))


def xlat46_error(topo, pkt, src6=H4_6):
    with topo.cap6() as cap:
        topo.send4(pkt)
        return cap.one(is_ip6(src=src6, dst=SINK6, nh=58))


def check46(topo, pkt, want, ttl=64, tos=0, src6=H4_6):
    """Sends PKT (an ICMPv4 error sent with TTL and TOS) from h4; asserts
    h6 receives exactly the ICMPv6 message WANT in a correct IPv6 header,
    counted as a translated ICMP error. Returns the IPv6 packet."""
    c = topo.counters()
    f = xlat46_error(topo, pkt, src6)
    with c.explain():
        raw = assert_frame6(f, tc=tos, plen=len(want), nh=58, hlim=ttl - 1,
                            src=src6, dst=SINK6)
        assert_same_bytes(raw[40:], want)
    c.expect({"xlat-icmp-error-4to6": 1})
    return raw


def dropped46(topo, pkt, counter):
    """PKT from h4 is not translated, no ICMP error comes back, and
    COUNTER (a name or a tuple of names, one of which) counts it."""
    c = topo.counters()
    with topo.cap6() as cap6, topo.cap4() as cap4:
        topo.send4(pkt)
        none_on(lambda: c.expect({counter: 1}),
                (cap6, is_ip6(dst=SINK6)), (cap4, is_ip4(dst=H4, proto=1)))


def test_acceptance_host_unreachable_tcp_4to6(xlat):
    """ICMPv4 Destination Unreachable (Host Unreachable) quoting a TCP
    segment -> ICMPv6 Destination Unreachable (No route), every field."""
    ts = struct.pack("!BBBBII", 1, 1, 8, 10, 0x01020304, 0x0A0B0C0D)
    seg = tcp_segment_bytes(SINK6_4, REMOTE4, 40123, 443, seq=0x11223344,
                            ack=0x55667788, flags=0x18, window=501,
                            payload=PAYLOAD[:40], options=ts)
    inner = ip4_packet(SINK6_4, REMOTE4, 6, seg, ttl=57, tos=0x10,
                       ident=0x2222, df=True)
    pkt = error4(3, 1, inner, ttl=64, tos=0xC0)
    c = xlat.counters()
    f = xlat46_error(xlat, pkt)
    with c.explain():
        raw = ip_bytes(f)
        # Outer IPv6 header.
        assert assert_frame6(f) == raw
        first = struct.unpack("!I", raw[:4])[0]
        assert first >> 28 == 6
        assert (first >> 20) & 0xFF == 0xC0            # TOS copied
        assert first & 0xFFFFF == 0                     # flow label
        plen = struct.unpack("!H", raw[4:6])[0]
        assert plen == 8 + 40 + len(seg) == len(raw) - 40
        assert raw[6] == 58 and raw[7] == 63
        assert raw[8:24] == ternlib.addr6(H4_6)
        assert raw[24:40] == ternlib.addr6(SINK6)
        # ICMPv6 header.
        icmp = raw[40:]
        assert (icmp[0], icmp[1]) == (1, 0)
        assert icmp[4:8] == ZERO4
        assert inet_csum(pseudo6(H4_6, SINK6, 58, len(icmp)) + icmp) == 0
        # Inner IPv6 header.
        in6 = icmp[8:48]
        first = struct.unpack("!I", in6[:4])[0]
        assert first >> 28 == 6
        assert (first >> 20) & 0xFF == 0x10
        assert first & 0xFFFFF == 0
        assert struct.unpack("!H", in6[4:6])[0] == len(seg)    # payload len
        assert in6[6] == 6                                       # TCP
        assert in6[7] == 57                                      # TTL kept
        assert in6[8:24] == ternlib.addr6(SINK6)
        assert in6[24:40] == ternlib.addr6(REMOTE4_6)
        # Inner TCP: unchanged except its checksum, valid for IPv6.
        tcp = icmp[48:]
        assert len(tcp) == len(seg)
        sport, dport, seq, ack = struct.unpack("!HHII", tcp[:12])
        assert (sport, dport, seq, ack) == (40123, 443, 0x11223344,
                                            0x55667788)
        assert tcp[12:16] == seg[12:16] and tcp[18:] == seg[18:]
        assert inet_csum(pseudo6(SINK6, REMOTE4_6, 6, len(tcp)) + tcp) == 0
        want = tcp_segment_bytes(SINK6, REMOTE4_6, 40123, 443, 0x11223344,
                                 0x55667788, 0x18, 501, PAYLOAD[:40], ts)
        assert tcp[16:18] == want[16:18]
        assert_same_bytes(icmp, expected46(1, 0, inner))
    c.expect({"xlat-icmp-error-4to6": 1})


@pytest.mark.parametrize("code4,code6", [
    (0, 0), (1, 0), (5, 0), (6, 0), (7, 0), (8, 0), (11, 0), (12, 0),
    (9, 1), (10, 1), (13, 1), (15, 1), (3, 4)])
def test_dest_unreach_4to6(xlat, code4, code6):
    """RFC 7915 4.2: Destination Unreachable codes -> type 1."""
    inner = inner4_udp()
    check46(xlat, error4(3, code4, inner), expected46(1, code6, inner))


def test_protocol_unreachable_4to6(xlat):
    """Code 2 -> Parameter Problem, Unrecognized Next Header, pointer 6."""
    inner = inner4_udp()
    check46(xlat, error4(3, 2, inner),
            expected46(4, 1, inner, struct.pack("!I", 6)))


@pytest.mark.parametrize("code", [14, 16, 255])
def test_dest_unreach_untranslatable_codes_4to6(xlat, code):
    """Code 14 (Host Precedence Violation) and unknown codes: dropped."""
    dropped46(xlat, error4(3, code, inner4_udp()), "drop-icmp-error")


@pytest.mark.parametrize("code", [0, 1])
def test_time_exceeded_4to6(xlat, code):
    inner = inner4_udp()
    check46(xlat, error4(11, code, inner), expected46(3, code, inner))


# RFC 7915 Figure 3: IPv4 header byte -> IPv6 header byte.
POINTER_4TO6 = {0: 0, 1: 1, 2: 4, 3: 4, 8: 7, 9: 6, 12: 8, 13: 8, 14: 8,
                15: 8, 16: 24, 17: 24, 18: 24, 19: 24}


@pytest.mark.parametrize("code", [0, 2])
@pytest.mark.parametrize("ptr4", sorted(POINTER_4TO6))
def test_param_problem_4to6(xlat, code, ptr4):
    inner = inner4_udp()
    pkt = error4(12, code, inner, rest=bytes([ptr4, 0, 0, 0]))
    check46(xlat, pkt, expected46(4, 0, inner,
                                  struct.pack("!I", POINTER_4TO6[ptr4])))


@pytest.mark.parametrize("ptr4", [4, 5, 6, 7, 10, 11, 20, 27])
def test_param_problem_unmapped_pointer_4to6(xlat, ptr4):
    """Identification, flags/offset, checksum, options: no IPv6 field."""
    pkt = error4(12, 0, inner4_udp(), rest=bytes([ptr4, 0, 0, 0]))
    dropped46(xlat, pkt, "drop-icmp-error")


@pytest.mark.parametrize("code", [1, 3, 200])
def test_param_problem_other_codes_4to6(xlat, code):
    """Code 1 (Missing a Required Option) and unknown codes: dropped."""
    pkt = error4(12, code, inner4_udp(), rest=bytes([0, 0, 0, 0]))
    dropped46(xlat, pkt, "drop-icmp-error")


@pytest.mark.parametrize("type4", [4, 5], ids=["source-quench", "redirect"])
def test_untranslated_error_types_4to6(xlat, type4):
    rest = ternlib.addr4(H4) if type4 == 5 else ZERO4
    dropped46(xlat, error4(type4, 1, inner4_udp(), rest=rest),
              "drop-icmp-error")


@pytest.mark.parametrize("type4", [1, 6, 42])
def test_unknown_types_4to6(xlat, type4):
    """Unassigned/obsolete types are dropped (silently, RFC 7915 4.2);
    counted as an untranslatable error or an ICMP type without
    counterpart (test_icmp.py counts type 1 as drop-icmp-other)."""
    dropped46(xlat, error4(type4, 0, inner4_udp()),
              ("drop-icmp-error", "drop-icmp-other"))


@pytest.mark.parametrize("type4", [9, 10, 13, 14, 15, 16, 17, 18])
def test_informational_other_than_echo_4to6(xlat, type4):
    """Router advertisement/solicitation, timestamp, information and
    address mask requests/replies: dropped."""
    pkt = ip4_packet(H4, SINK6_4, 1,
                     icmp4_message(type4, 0, b"\x12\x34\x00\x01", ZERO4 * 3))
    dropped46(xlat, pkt, "drop-icmp-info")


@pytest.mark.parametrize("dst", ["224.0.0.22", SINK6_4],
                         ids=["multicast", "unicast"])
def test_igmp_not_translated_4to6(xlat, dst):
    """RFC 7915 4.2: IGMP messages SHOULD be silently dropped (single-hop,
    or multicast routing that must not cross a translator)."""
    igmp = with_csum(bytes([0x16, 0, 0, 0]) + ternlib.addr4("239.1.2.3"), 2)
    pkt = ip4_packet(H4, dst, 2, igmp, ttl=1 if dst != SINK6_4 else 64,
                     options=bytes([148, 4, 0, 0]))     # Router Alert
    c = xlat.counters()
    with xlat.cap6() as cap:
        xlat.send4(pkt)
        # A multicast destination is never translated; a unicast one is
        # IGMP, dropped.
        cap.none(is_ip6(src=H4_6), proof=lambda: c.expect(
            {"pass-special4" if dst != SINK6_4 else "drop-igmp": 1}))


# Frag Needed -> Packet Too Big: MTU = max(1280, min(m + 20, IPv6 next-hop
# MTU, MTU of the IPv4 interface the error came in on + 20)).
@pytest.mark.parametrize("m,mtu4,mtu6,want", [
    (1400, 1500, 1500, 1420),
    (1000, 1500, 1500, 1280),
    (68, 1500, 1500, 1280),
    (1500, 1500, 1500, 1500),       # the IPv6 next hop
    (1480, 1500, 1400, 1400),       # the IPv6 next hop
    (1480, 1300, 1500, 1320),       # the interface it came in on
    (1480, 1200, 1500, 1280),
    (8000, 9000, 9000, 8020),
])
def test_frag_needed_to_packet_too_big(xlat, m, mtu4, mtu6, want):
    if mtu4 != 1500:
        set_mtu(xlat, xlat.xl, "v4", mtu4)
    if mtu6 != 1500:
        set_mtu(xlat, xlat.xl, "v6", mtu6)
    inner = inner4_udp(1472, ident=0x7777)            # 1500 bytes, DF
    pkt = error4(3, 4, inner, rest=struct.pack("!HH", 0, m), quote=100)
    check46(xlat, pkt, expected46(2, 0, inner, struct.pack("!I", want),
                                  quote=100))


# m == 0 (a pre-RFC 1191 router): the greatest plateau below the Total
# Length of the packet in error stands for m.
@pytest.mark.parametrize("total,big,want", [
    (1500, True, 1512),             # 1492
    (2002, True, 1512),             # 1492 (strictly below)
    (2003, True, 2022),             # 2002
    (5000, True, 4372),             # 4352
    (9000, True, 8186),             # 8166
    (40000, True, 9000),            # 32000, then the IPv6 next hop
    (5000, False, 1500),            # 4352, then the IPv6 next hop
])
def test_frag_needed_mtu_zero_uses_plateaus(xlat, total, big, want):
    if big:
        set_mtu(xlat, xlat.xl, "v4", 9000)
        set_mtu(xlat, xlat.xl, "v6", 9000)
    inner = inner4_udp(total - 28)
    pkt = error4(3, 4, inner, rest=ZERO4, quote=200)
    check46(xlat, pkt, expected46(2, 0, inner, struct.pack("!I", want),
                                  quote=200))


@pytest.mark.parametrize("total,want", [(1450, 1420), (1600, 1520),
                                        (1501, 1520)])
def test_frag_needed_mtu_zero_configured_plateaus(xlat, total, want):
    require_global(xlat, "mtu-plateaus")
    xlat.set_global("mtu-plateaus", "1500,1400")
    assert globals_(xlat.xl, "t")["mtu-plateaus"] == [1500, 1400]
    set_mtu(xlat, xlat.xl, "v4", 9000)
    set_mtu(xlat, xlat.xl, "v6", 9000)
    inner = inner4_udp(total - 28)
    pkt = error4(3, 4, inner, rest=ZERO4, quote=200)
    check46(xlat, pkt, expected46(2, 0, inner, struct.pack("!I", want),
                                  quote=200))


# --- The packet in error, 4->6 -------------------------------------------


def test_inner_echo_request_4to6(xlat):
    """An ICMPv4 echo request in error becomes an ICMPv6 echo request
    with the checksum over the IPv6 pseudo-header."""
    echo = icmp4_message(8, 0, b"\xAB\xCD\x00\x07", PAYLOAD[:56])
    inner = ip4_packet(SINK6_4, REMOTE4, 1, echo, ttl=1, ident=9, df=True)
    want = expected46(3, 0, inner)
    assert want[8 + 40] == 128
    check46(xlat, error4(11, 0, inner), want)


def test_inner_echo_reply_4to6(xlat):
    echo = icmp4_message(0, 0, b"\x00\x01\x00\x02", PAYLOAD[:20])
    inner = ip4_packet(SINK6_4, REMOTE4, 1, echo, ttl=9, df=False)
    want = expected46(1, 1, inner)
    assert want[8 + 40] == 129
    check46(xlat, error4(3, 10, inner), want)


@pytest.mark.parametrize("quote", [28, 36, 100])
def test_inner_udp_quoted_in_part_4to6(xlat, quote):
    """Only the start of a longer packet is quoted: the inner lengths are
    the declared ones, the inner UDP checksum (in the quoted bytes) is
    updated as for the whole packet."""
    inner = inner4_udp(1000)
    want = expected46(1, 0, inner, quote=quote)
    assert len(want) == 8 + quote + 20
    assert struct.unpack("!H", want[12:14])[0] == 1008   # payload length
    check46(xlat, error4(3, 1, inner, quote=quote), want)


def test_inner_tcp_quoted_without_checksum_4to6(xlat):
    """RFC 792's minimum quote (header + 8 bytes) of a TCP segment: ports
    and sequence number, no checksum to update."""
    seg = tcp_segment_bytes(SINK6_4, REMOTE4, 40001, 80, 7, 9,
                            payload=PAYLOAD[:500])
    inner = ip4_packet(SINK6_4, REMOTE4, 6, seg, ttl=3)
    want = expected46(1, 0, inner, quote=28)
    assert want[48:] == seg[:8]
    check46(xlat, error4(3, 0, inner, quote=28), want)


@pytest.mark.parametrize("ttl,tos", [(1, 0xB8), (0, 0x03), (255, 0)])
def test_inner_ttl_and_tos_copied_4to6(xlat, ttl, tos):
    """The packet in error's TTL is not decremented (RFC 7915 4.3) nor
    checked; its TOS becomes the traffic class."""
    inner = inner4_udp(ttl=ttl, tos=tos)
    want = expected46(3, 0, inner)
    assert want[8 + 7] == ttl
    check46(xlat, error4(11, 0, inner), want)


def test_inner_ipv4_options_removed_4to6(xlat):
    opts = bytes([7, 7, 4, 0, 0, 0, 0]) + b"\x01"      # Record Route, NOP
    inner = inner4_udp(50, options=opts)
    assert (inner[0] & 15) == 7
    want = expected46(1, 0, inner)
    assert struct.unpack("!H", want[12:14])[0] == 58
    check46(xlat, error4(3, 1, inner), want)


@pytest.mark.parametrize("df,ident", [(True, 0), (False, 0xFEDC)])
def test_inner_without_fragment_header_4to6(xlat, df, ident):
    """An unfragmented packet in error gets no Fragment header, DF or
    not."""
    inner = inner4_udp(30, df=df, ident=ident)
    want = expected46(1, 0, inner)
    assert want[8 + 6] == 17
    check46(xlat, error4(3, 1, inner), want)


def test_outer_ttl_decremented_and_tos_copied_4to6(xlat):
    inner = inner4_udp()
    check46(xlat, error4(3, 1, inner, ttl=2, tos=0xB8),
            expected46(1, 0, inner), ttl=2, tos=0xB8)


def test_outer_ttl_1_not_translated_nor_answered_4to6(xlat):
    """No Time Exceeded about an ICMP error (RFC 1812 4.3.2.7)."""
    dropped46(xlat, error4(3, 1, inner4_udp(), ttl=1), "drop-ttl")


@pytest.mark.parametrize("type4,code", [(3, 1), (11, 0), (12, 0), (3, 4)])
def test_error_in_error_dropped_4to6(xlat, type4, code):
    """An ICMP error quoting an ICMP error: RFC 7915 4.3 stops at the
    first embedded header."""
    quoted = ip4_packet(REMOTE4, SINK6_4, 1,
                        icmp4_message(type4, code, ZERO4, inner4_udp()[:28]))
    inner = ip4_packet(SINK6_4, REMOTE4, 1,
                       icmp4_message(type4, code, ZERO4, quoted[:28]))
    dropped46(xlat, error4(3, 1, inner), "drop-icmp-inner")


@pytest.mark.parametrize("variant", ["short", "version6", "ihl4",
                                     "ihl-beyond-quote", "protocol-fragment"])
def test_malformed_inner_dropped_4to6(xlat, variant):
    """The last: an IPv6 extension header's number (Fragment) as the
    quoted Protocol, refused as a packet with it would be."""
    inner = bytearray(inner4_udp())
    quote = None
    if variant == "short":
        quote = 12
    elif variant == "version6":
        inner[0] = 0x65
    elif variant == "ihl4":
        inner[0] = 0x44
    elif variant == "protocol-fragment":
        inner[9] = 44
    else:
        inner[0] = 0x4F             # 60-byte header, 28 bytes quoted
        quote = 28
    inner = bytes(inner)
    dropped46(xlat, error4(3, 1, inner, quote=quote), "drop-icmp-inner")


# --- Size limits and RFC 4884, 4->6 --------------------------------------


@pytest.mark.parametrize("n,truncated", [(1400 - 28, True),
                                         (1212 - 28, False),
                                         (1213 - 28, True)])
def test_size_limit_1280_4to6(xlat, n, truncated):
    """A translated ICMPv6 error is at most 1280 bytes (RFC 4443 2.4(c)):
    the packet in error is cut."""
    inner = inner4_udp(n)
    want = expected46(3, 0, inner)
    assert len(want) == (MIN_MTU6 - 40 if truncated else 8 + 40 + n + 8)
    raw = check46(xlat, error4(11, 0, inner), want)
    assert len(raw) <= MIN_MTU6


def icmp_extension(payload=4):
    """An RFC 4884 extension structure (version 2) with one object (MPLS
    label stack, class 1, C-Type 1) of PAYLOAD bytes, checksummed."""
    body = bytes((0x10 + i) & 0xFF for i in range(payload))
    obj = struct.pack("!HBB", 4 + payload, 1, 1) + body
    return with_csum(b"\x20\x00\x00\x00" + obj, 2)


def pad(data, unit, minimum=128):
    n = max(len(data), minimum)
    n += -n % unit
    return data + b"\0" * (n - len(data))


@pytest.mark.parametrize("type4,type6", [(3, 1), (11, 3)],
                         ids=["unreach", "timex"])
def test_rfc4884_extension_4to6(xlat, type4, type6):
    """The ICMPv4 length attribute (32-bit words, byte 5) -> the ICMPv6 one
    (64-bit words, byte 4): the translated datagram zero-padded to a
    multiple of 8 (at least 128 bytes), then the extension, unchanged."""
    inner = inner4_udp(100)                 # 128 bytes: 32 words
    ext = icmp_extension()
    pkt = error4(type4, 1 if type4 == 3 else 0, inner,
                 rest=bytes([0, 32, 0, 0]), tail=ext)
    x = pad(xlat_inner_4to6(inner), 8)
    assert len(x) == 152
    want = icmp6_message(H4_6, SINK6, type6, 0, bytes([19, 0, 0, 0]),
                         x + ext)
    check46(xlat, pkt, want)


def test_rfc4884_longest_datagram_4to6(xlat):
    """255 words (1020 bytes) of datagram: 1040 translated, 130 words."""
    inner = inner4_udp(1020 - 28)
    ext = icmp_extension(40)
    pkt = error4(3, 1, inner, rest=bytes([0, 255, 0, 0]), tail=ext)
    x = pad(xlat_inner_4to6(inner), 8)
    assert len(x) == 1040
    check46(xlat, pkt, icmp6_message(H4_6, SINK6, 1, 0,
                                     bytes([130, 0, 0, 0]), x + ext))


def test_rfc4884_extension_kept_quote_cut_4to6(xlat):
    """With its extension the ICMPv6 error would exceed 1280 bytes: the
    quote is cut (to a multiple of 8) so that the extension still fits
    (RFC 7915 4.2), the length attribute says how much is left."""
    inner = inner4_udp(1020 - 28)
    ext = icmp_extension(296)               # 8 + 1040 + 304 > 1232
    pkt = error4(3, 1, inner, rest=bytes([0, 255, 0, 0]), tail=ext)
    x = xlat_inner_4to6(inner)
    assert 48 + len(x) + len(ext) > MIN_MTU6
    keep = (MIN_MTU6 - 48 - len(ext)) // 8 * 8
    assert 128 <= keep < len(x)
    raw = check46(xlat, pkt, icmp6_message(H4_6, SINK6, 1, 0,
                                           bytes([keep // 8, 0, 0, 0]),
                                           x[:keep] + ext))
    assert len(raw) <= MIN_MTU6


def test_rfc4884_extension_dropped_when_alone_too_big_4to6(xlat):
    """Only an extension that does not fit beside a 128-byte quote goes
    (the length attribute is then 0)."""
    inner = inner4_udp(200 - 28)                    # 50 words
    ext = icmp_extension(1232 - 128 - 8 + 4)        # 128 + ext > 1232
    pkt = error4(3, 1, inner, rest=bytes([0, 50, 0, 0]), tail=ext)
    x = xlat_inner_4to6(inner)
    assert 128 + len(ext) > MIN_MTU6 - 48
    check46(xlat, pkt, icmp6_message(H4_6, SINK6, 1, 0, ZERO4, x))


# --- 6->4 ------------------------------------------------------------------


def error6(type_, code, inner, rest=ZERO4, quote=None, hlim=64, tc=0,
           src=H6, dst=SINK4_6, tail=b""):
    """ICMPv6 error from SRC to DST quoting the first QUOTE bytes of INNER
    (all of it by default), followed by TAIL."""
    body = (inner if quote is None else inner[:quote]) + tail
    return ip6_packet(src, dst, 58,
                      icmp6_message(src, dst, type_, code, rest, body),
                      hlim=hlim, tc=tc)


def quote64(inner, quote=None, limit=MIN_MTU4 - 28):
    x = xlat_inner_6to4(inner)
    if quote is not None:
        x = x[:quote - hdrs6_len(inner) + 20]
    return x[:limit]


def expected64(type4, code4, inner, rest4=ZERO4, quote=None):
    return icmp4_message(type4, code4, rest4, quote64(inner, quote))


def xlat64_error(topo, pkt, src4=H6_4):
    with topo.cap4() as cap:
        topo.send6(pkt)
        return cap.one(is_ip4(src=src4, dst=SINK4, proto=1))


def adopt_inner_id(want, got):
    """RFC 7915 5.3 with 5.1: a packet in error of at most 1260 bytes gets
    DF clear and an Identification from the translator's generator, which
    no test can predict. WANT (an ICMPv4 error message built with ID 0)
    takes the ID of GOT (the message received), with both checksums
    recomputed; every other byte stays compared. Packets in error with DF
    or a fragment are left alone (their ID is known)."""
    if len(want) < 28 or len(got) < 28 or want[8] != 0x45 or \
            want[12:16] != b"\0\0\0\0":
        return want
    w = bytearray(want)
    w[12:14] = got[12:14]
    w[18:20] = b"\0\0"
    w[18:20] = struct.pack("!H", inet_csum(bytes(w[8:28])))
    w[2:4] = b"\0\0"
    w[2:4] = struct.pack("!H", inet_csum(bytes(w)))
    return bytes(w)


def check64(topo, pkt, want, hlim=64, tc=0, src4=H6_4):
    """Sends PKT (an ICMPv6 error sent with HLIM and TC) from h6; asserts
    h4 receives exactly the ICMPv4 message WANT in a correct IPv4 header
    (DF clear: at most 576 bytes), counted as a translated ICMP error.
    Returns the IPv4 packet."""
    c = topo.counters()
    f = xlat64_error(topo, pkt, src4)
    with c.explain():
        raw = assert_frame4(f, tos=tc, len=20 + len(want), flags=0,
                            offset=0, ttl=hlim - 1, proto=1, src=src4,
                            dst=SINK4)
        assert_same_bytes(raw[20:], adopt_inner_id(want, raw[20:]))
    c.expect({"xlat-icmp-error-6to4": 1})
    return raw


def dropped64(topo, pkt, counter):
    c = topo.counters()
    with topo.cap4() as cap4, topo.cap6() as cap6:
        topo.send6(pkt)
        none_on(lambda: c.expect({counter: 1}),
                (cap4, is_ip4(dst=SINK4)), (cap6, is_ip6(nh=58)))


def test_host_unreachable_tcp_6to4(xlat):
    """The mirror of the 4->6 acceptance test, every field."""
    seg = tcp_segment_bytes(SINK4_6, OTHER6, 443, 40123, seq=0xA1B2C3D4,
                            ack=0x01020304, flags=0x12, window=65535,
                            payload=PAYLOAD[:24])
    inner = ip6_packet(SINK4_6, OTHER6, 6, seg, hlim=51, tc=0x20)
    pkt = error6(1, 3, inner, hlim=64, tc=0xC0)
    c = xlat.counters()
    f = xlat64_error(xlat, pkt)
    with c.explain():
        raw = assert_frame4(f, tos=0xC0, len=20 + 8 + 20 + len(seg),
                            flags=0, offset=0, ttl=63, proto=1, src=H6_4,
                            dst=SINK4)
        icmp = raw[20:]
        assert (icmp[0], icmp[1]) == (3, 1)
        assert icmp[4:8] == ZERO4
        assert inet_csum(icmp) == 0
        in4 = icmp[8:28]
        assert inet_csum(in4) == 0                      # inner checksum
        assert in4[0] == 0x45 and in4[1] == 0x20
        assert struct.unpack("!H", in4[2:4])[0] == 20 + len(seg)
        assert struct.unpack("!H", in4[6:8])[0] == 0   # <= 1260: DF clear
        assert (in4[8], in4[9]) == (51, 6)
        assert in4[12:16] == ternlib.addr4(SINK4)
        assert in4[16:20] == ternlib.addr4(OTHER6_4)
        tcp = icmp[28:]
        assert struct.unpack("!HHII", tcp[:12]) == (443, 40123, 0xA1B2C3D4,
                                                    0x01020304)
        assert tcp[12:16] == seg[12:16] and tcp[18:] == seg[18:]
        assert inet_csum(pseudo4(SINK4, OTHER6_4, 6, len(tcp)) + tcp) == 0
        assert_same_bytes(icmp, adopt_inner_id(expected64(3, 1, inner), icmp))
    c.expect({"xlat-icmp-error-6to4": 1})


@pytest.mark.parametrize("code6,code4", [(0, 1), (2, 1), (3, 1), (1, 10),
                                         (4, 3)])
def test_dest_unreach_6to4(xlat, code6, code4):
    inner = inner6_udp()
    check64(xlat, error6(1, code6, inner), expected64(3, code4, inner))


@pytest.mark.parametrize("code", [5, 6, 7, 8, 200])
def test_dest_unreach_untranslatable_codes_6to4(xlat, code):
    dropped64(xlat, error6(1, code, inner6_udp()), "drop-icmp-error")


@pytest.mark.parametrize("code", [0, 1])
def test_time_exceeded_6to4(xlat, code):
    inner = inner6_udp()
    check64(xlat, error6(3, code, inner), expected64(11, code, inner))


# RFC 7915 Figure 6: IPv6 header byte -> IPv4 header byte.
POINTER_6TO4 = dict([(0, 0), (1, 1), (4, 2), (5, 2), (6, 9), (7, 8)]
                    + [(i, 12) for i in range(8, 24)]
                    + [(i, 16) for i in range(24, 40)])


@pytest.mark.parametrize("ptr6", [0, 1, 4, 5, 6, 7, 8, 15, 23, 24, 31, 39])
def test_param_problem_6to4(xlat, ptr6):
    inner = inner6_udp()
    pkt = error6(4, 0, inner, rest=struct.pack("!I", ptr6))
    check64(xlat, pkt, expected64(12, 0, inner,
                                  bytes([POINTER_6TO4[ptr6], 0, 0, 0])))


@pytest.mark.parametrize("ptr6", [2, 3, 40, 41, 1000, 0xFFFFFFFF])
def test_param_problem_unmapped_pointer_6to4(xlat, ptr6):
    """Flow label, anything past the IPv6 header: no IPv4 field."""
    pkt = error6(4, 0, inner6_udp(), rest=struct.pack("!I", ptr6))
    dropped64(xlat, pkt, "drop-icmp-error")


def test_param_problem_next_header_6to4(xlat):
    """Code 1 (Unrecognized Next Header) -> Protocol Unreachable, no
    pointer."""
    inner = inner6_udp()
    pkt = error6(4, 1, inner, rest=struct.pack("!I", 40))
    check64(xlat, pkt, expected64(3, 2, inner))


@pytest.mark.parametrize("code", [2, 3, 10])
def test_param_problem_other_codes_6to4(xlat, code):
    pkt = error6(4, code, inner6_udp(), rest=struct.pack("!I", 42))
    dropped64(xlat, pkt, "drop-icmp-error")


@pytest.mark.parametrize("type6", [5, 100, 127])
def test_unknown_error_types_6to4(xlat, type6):
    dropped64(xlat, error6(type6, 0, inner6_udp()),
              ("drop-icmp-error", "drop-icmp-other"))


@pytest.mark.parametrize("type6", [130, 131, 132, 133, 134, 135, 136, 137,
                                   143])
def test_informational_other_than_echo_6to4(xlat, type6):
    """MLD and Neighbor Discovery: single-hop, dropped."""
    pkt = ip6_packet(H6, SINK4_6, 58,
                     icmp6_message(H6, SINK4_6, type6, 0, ZERO4, ZERO4 * 5))
    dropped64(xlat, pkt, "drop-icmp-info")


# PTB -> Frag Needed: MTU = min(max(m, 1280) - 20, IPv4 next-hop MTU, MTU
# of the IPv6 interface it came in on - 20), never below 68.
@pytest.mark.parametrize("m,mtu4,mtu6,want", [
    (1400, 1500, 1500, 1380),
    (1280, 1500, 1500, 1260),
    (1500, 1400, 1500, 1400),       # the IPv4 next hop
    (1300, 1000, 1500, 1000),
    (9000, 9000, 1500, 1480),       # the interface it came in on
    (8000, 9000, 9000, 7980),
    # Below 1280 (no IPv6 link is smaller, RFC 8200 5): as 1280, never 68.
    (0, 1500, 1500, 1260),
    (80, 1500, 1500, 1260),
    (1000, 1500, 1500, 1260),
    (0, 1000, 1500, 1000),
])
def test_packet_too_big_to_frag_needed(xlat, m, mtu4, mtu6, want):
    if mtu4 != 1500:
        set_mtu(xlat, xlat.xl, "v4", mtu4)
    if mtu6 != 1500:
        set_mtu(xlat, xlat.xl, "v6", mtu6)
    inner = inner6_udp(1444)                        # 1492 bytes
    pkt = error6(2, 0, inner, rest=struct.pack("!I", m), quote=200)
    check64(xlat, pkt, expected64(3, 4, inner, struct.pack("!HH", 0, want),
                                  quote=200))


@pytest.mark.parametrize("m,mtu6,want", [(1400, 1500, 1372),
                                         (1500, 1400, 1372),
                                         (0, 1500, 1252)])
def test_packet_too_big_about_a_fragment_to_frag_needed(xlat, m, mtu6, want):
    """RFC 7915 5.2: the MTU takes the packet in error's Fragment header
    into account: an IPv4 fragment's translation carries 48 bytes of
    headers for its 20, so 28 come off, not 20 (with 20, the sender's
    fragments of the size it learned would still not fit)."""
    if mtu6 != 1500:
        set_mtu(xlat, xlat.xl, "v6", mtu6)
    udp = udp_datagram(SINK4_6, OTHER6, 4000, 40000, (PAYLOAD * 40)[:1400])
    inner = ip6_packet(SINK4_6, OTHER6, 44,
                       frag6_header(17, 0, True, 0x1234) + udp[:1344])
    pkt = error6(2, 0, inner, rest=struct.pack("!I", m), quote=200)
    f = xlat64_error(xlat, pkt)
    l4 = ip_bytes(f)[20:]
    assert l4[:2] == b"\x03\x04"
    assert struct.unpack("!HH", l4[4:8]) == (0, want)
    assert inet_csum(l4) == 0
    # The packet in error: the fragment it was (ID, MF), in IPv4.
    assert struct.unpack("!HH", l4[8 + 4:8 + 8]) == (0x1234, 0x2000)


# --- The packet in error, 6->4 -------------------------------------------


@pytest.mark.parametrize("type6,type4", [(128, 8), (129, 0)])
def test_inner_echo_6to4(xlat, type6, type4):
    echo = icmp6_message(SINK4_6, OTHER6, type6, 0, b"\x12\x34\x00\x05",
                         PAYLOAD[:56])
    inner = ip6_packet(SINK4_6, OTHER6, 58, echo, hlim=1)
    want = expected64(11, 0, inner)
    assert want[8 + 9] == 1 and want[8 + 20] == type4
    check64(xlat, error6(3, 0, inner), want)


@pytest.mark.parametrize("quote", [48, 56, 200])
def test_inner_udp_quoted_in_part_6to4(xlat, quote):
    inner = inner6_udp(1000)
    want = expected64(3, 1, inner, quote=quote)
    assert len(want) == 8 + quote - 20
    assert struct.unpack("!H", want[10:12])[0] == 1028   # total length
    check64(xlat, error6(1, 0, inner, quote=quote), want)


@pytest.mark.parametrize("exts", [(0,), (60,), (0, 60)],
                         ids=["hop-by-hop", "dest-opts", "both"])
def test_inner_extension_headers_6to4(xlat, exts):
    """The packet in error's extension headers are not translated; its
    IPv4 Total Length does not count them."""
    inner = inner6_udp(64, exts=exts)
    want = expected64(3, 1, inner)
    assert struct.unpack("!H", want[10:12])[0] == 20 + 8 + 64
    check64(xlat, error6(1, 0, inner), want)


@pytest.mark.parametrize("hlim,tc", [(1, 0xB8), (0, 0x03), (255, 0)])
def test_inner_fields_6to4(xlat, hlim, tc):
    """Inner: TTL = hop limit (not decremented), TOS = traffic class,
    DF clear (at most 1260 bytes), valid header checksum."""
    inner = inner6_udp(hlim=hlim, tc=tc)
    want = expected64(11, 0, inner)
    in4 = want[8:28]
    assert (in4[1], in4[8]) == (tc, hlim)
    assert in4[4:8] == b"\x00\x00\x00\x00" and inet_csum(in4) == 0
    raw = check64(xlat, error6(3, 0, inner), want)
    assert inet_csum(raw[28:48]) == 0


@pytest.mark.parametrize("n,df", [(1232, False), (1233, True)],
                         ids=["1260-bytes", "1261-bytes"])
def test_inner_df_and_identification_6to4(xlat, n, df):
    """RFC 7915 5.3: the packet in error is translated like a normal packet
    (5.1), judged by its declared size though the quote is cut: at most
    1260 bytes once translated, DF clear and the flow's next
    Identification each time (two errors quoting it: the second ID after
    the first, past the step the generator adds below the jiffies between
    them, as Linux's does); larger, DF set and ID 0."""
    inner = inner6_udp(n)                   # 40 + 8 + n bytes
    assert len(inner) - 20 == (1260 if not df else 1261)
    ids = []
    start = time.monotonic()
    for _ in range(2):
        raw = check64(xlat, error6(3, 0, inner, quote=200),
                      expected64(11, 0, inner, quote=200))
        in4 = raw[28:48]
        assert struct.unpack("!H", in4[2:4])[0] == len(inner) - 20
        assert struct.unpack("!H", in4[6:8])[0] == (0x4000 if df else 0)
        ids.append(struct.unpack("!H", in4[4:6])[0])
    # Jiffies between the two reservations: at most this many (HZ <= 1000).
    gap = int((time.monotonic() - start) * 1000) + 2
    if df:
        assert ids == [0, 0]
    else:
        assert 1 <= (ids[1] - ids[0]) & 0xFFFF <= gap, (ids, gap)


def test_outer_hop_limit_decremented_and_tc_copied_6to4(xlat):
    inner = inner6_udp()
    check64(xlat, error6(1, 4, inner, hlim=2, tc=0xB8),
            expected64(3, 3, inner), hlim=2, tc=0xB8)


def test_outer_hop_limit_1_not_translated_nor_answered_6to4(xlat):
    dropped64(xlat, error6(1, 4, inner6_udp(), hlim=1), "drop-ttl")


@pytest.mark.parametrize("type6,code", [(1, 4), (2, 0), (3, 0), (4, 0)])
def test_error_in_error_dropped_6to4(xlat, type6, code):
    quoted = ip6_packet(OTHER6, SINK4_6, 58,
                        icmp6_message(OTHER6, SINK4_6, type6, code, ZERO4,
                                      inner6_udp()[:48]))
    inner = ip6_packet(SINK4_6, OTHER6, 58,
                       icmp6_message(SINK4_6, OTHER6, type6, code, ZERO4,
                                     quoted[:48]))
    dropped64(xlat, error6(1, 4, inner), "drop-icmp-inner")


@pytest.mark.parametrize("variant", ["short", "version4", "dst-not-pool6",
                                     "exthdr-beyond-quote", "upper-igmp"])
def test_malformed_inner_dropped_6to4(xlat, variant):
    """The last: IGMP as the quoted packet's upper layer, refused as a
    packet with it would be."""
    inner = inner6_udp()
    quote = None
    if variant == "short":
        quote = 30
    elif variant == "version4":
        inner = b"\x45" + inner[1:]
    elif variant == "upper-igmp":
        inner = inner[:6] + b"\x02" + inner[7:]
    elif variant == "dst-not-pool6":
        inner = inner[:24] + ternlib.addr6(H6_LINK) + inner[40:]
    else:
        inner = inner6_udp(64, exts=(0,))
        quote = 44
    dropped64(xlat, error6(1, 4, inner, quote=quote), "drop-icmp-inner")


# --- Size limits and RFC 4884, 6->4 --------------------------------------


@pytest.mark.parametrize("n,truncated", [(1000 - 48, True), (568 - 48, False),
                                         (569 - 48, True)])
def test_size_limit_576_6to4(xlat, n, truncated):
    """A translated ICMPv4 error is at most 576 bytes (RFC 1812 4.3.2.3)."""
    inner = inner6_udp(n)
    want = expected64(11, 0, inner)
    assert len(want) == (MIN_MTU4 - 20 if truncated else 8 + 20 + 8 + n)
    raw = check64(xlat, error6(3, 0, inner), want)
    assert len(raw) <= MIN_MTU4


@pytest.mark.parametrize("n,words6,words4", [(104, 19, 33), (88, 17, 32)],
                         ids=["152-bytes", "136-bytes-padded-to-128"])
@pytest.mark.parametrize("type6,type4", [(1, 3), (3, 11)],
                         ids=["unreach", "timex"])
def test_rfc4884_extension_6to4(xlat, n, words6, words4, type6, type4):
    """The ICMPv6 length attribute (64-bit words, byte 4) -> the ICMPv4 one
    (32-bit words, byte 5): the translated datagram zero-padded to a
    multiple of 4 (at least 128 bytes), then the extension, unchanged."""
    inner = inner6_udp(n)
    assert len(inner) == words6 * 8
    ext = icmp_extension()
    pkt = error6(type6, 0, inner, rest=bytes([words6, 0, 0, 0]), tail=ext)
    x = pad(xlat_inner_6to4(inner), 4)
    assert len(x) == words4 * 4
    code4 = 1 if type4 == 3 else 0
    check64(xlat, pkt, icmp4_message(type4, code4, bytes([0, words4, 0, 0]),
                                     x + ext))


def test_rfc4884_extension_kept_quote_cut_6to4(xlat):
    """Past 576 bytes the quote is cut (to a multiple of 4), the extension
    kept (RFC 7915 5.2)."""
    inner = inner6_udp(600 - 48)                    # 75 words
    ext = icmp_extension()
    pkt = error6(1, 0, inner, rest=bytes([75, 0, 0, 0]), tail=ext)
    x = xlat_inner_6to4(inner)
    assert 28 + len(x) + len(ext) > MIN_MTU4
    keep = (MIN_MTU4 - 28 - len(ext)) // 4 * 4
    raw = check64(xlat, pkt, icmp4_message(3, 1, bytes([0, keep // 4, 0, 0]),
                                           x[:keep] + ext))
    assert len(raw) == 28 + keep + len(ext) <= MIN_MTU4


def test_rfc4884_extension_dropped_when_alone_too_big_6to4(xlat):
    inner = inner6_udp(600 - 48)
    ext = icmp_extension(548 - 128 - 8 + 4)         # 128 + ext > 548
    pkt = error6(1, 0, inner, rest=bytes([75, 0, 0, 0]), tail=ext)
    x = xlat_inner_6to4(inner)
    assert 128 + len(ext) > MIN_MTU4 - 28
    check64(xlat, pkt, icmp4_message(3, 1, ZERO4, x[:MIN_MTU4 - 28]))


# --- RFC 6791: errors from routers without a translatable address --------


def test_rfc6791_pool_6to4(xlat):
    """An ICMPv6 error from 2001:db8:6::2 (not under pool6) gets its IPv4
    source from rfc6791v4-prefix."""
    require_global(xlat, "rfc6791v4-prefix")
    xlat.set_global("rfc6791v4-prefix", "192.0.2.77/32")
    inner = inner6_udp()
    check64(xlat, error6(3, 0, inner, src=H6_LINK),
            expected64(11, 0, inner), src4="192.0.2.77")


def test_rfc6791_pool_prefix_6to4(xlat):
    """A pool of several addresses: the source is one of them, the same
    for errors from the same router (Tern: chosen by a hash of its
    address)."""
    require_global(xlat, "rfc6791v4-prefix")
    xlat.set_global("rfc6791v4-prefix", "192.0.2.64/29")
    inner = inner6_udp()
    pkt = error6(3, 0, inner, src=H6_LINK)
    with xlat.cap4() as cap:
        xlat.send6(pkt)
        f = cap.one(is_ip4(dst=SINK4, proto=1))
    src = ternlib.ipv4_fields(f)["src"]
    assert ipaddress.IPv4Address(src) in \
        ipaddress.IPv4Network("192.0.2.64/29"), src
    check64(xlat, pkt, expected64(11, 0, inner), src4=src)


def test_rfc6791_unset_uses_translator_address_6to4(xlat):
    """rfc6791v4-prefix unset: the translator's IPv4 address on the
    interface the error leaves by."""
    require_global(xlat, "rfc6791v4-prefix")
    assert globals_(xlat.xl, "t")["rfc6791v4-prefix"] is None
    inner = inner6_udp()
    check64(xlat, error6(1, 1, inner, src=H6_LINK),
            expected64(3, 10, inner), src4=XL4)


def deny4_add(topo, prefix):
    """Adds PREFIX to denylist4 of instance "t"."""
    cli_ok(topo.xl, "denylist4", "add", prefix)


@pytest.fixture
def denied_router():
    """A topology of its own where h4's address 203.0.113.2 is in
    denylist4, so pool6 does not translate it."""
    topo = Topology().build()
    try:
        cli_ok(topo.xl, "instance", "add", "t", "--siit", "--pool6",
               ternlib.POOL6)
        deny4_add(topo, "%s/32" % H4)
        yield topo
    finally:
        topo.destroy()


@pytest.mark.parametrize("pool", [None, "2001:db8:ffff::77/128"],
                         ids=["unset", "pool"])
def test_rfc6791_4to6(denied_router, pool):
    """An ICMPv4 error from an IPv4 address pool6 may not translate gets
    its IPv6 source from rfc6791v6-prefix, or is the translator's own
    IPv6 address on the way out."""
    topo = denied_router
    if pool:
        require_global(topo, "rfc6791v6-prefix")
        cli_ok(topo.xl, "global", "set", "rfc6791v6-prefix", pool)
    src6 = pool.split("/")[0] if pool else XL6
    inner = inner4_udp()
    check46(topo, error4(3, 1, inner), expected46(1, 0, inner, src=src6),
            src6=src6)
