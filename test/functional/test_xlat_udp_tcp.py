"""Header translation of UDP and TCP (RFC 7915 sections 4 and 5).

Packets are crafted in h6/h4, sent to xl's MAC, and the translated packet is
captured on the other host and checked field by field. They are addressed to
the sinks (see ternlib.Topology), so nothing answers them.
"""

import struct

import pytest
from scapy.layers.inet import IP, TCP, UDP, IPOption_NOP, IPOption_RR
from scapy.layers.inet6 import (IPv6, IPv6ExtHdrDestOpt, IPv6ExtHdrHopByHop,
                                IPv6ExtHdrRouting, in6_chksum)
from scapy.packet import Raw

import ternlib
from ternlib import (H4, H4_6, H6, H6_4, H6_LINK, PAYLOAD, SINK4, SINK4_6,
                     SINK6, SINK6_4, assert_ipv4, assert_ipv6, embed,
                     ip_bytes, is_ip4, is_ip6, l4_bytes, l4_payload, udp4,
                     udp6, untranslated46, xlat46, xlat64)

# --- UDP -------------------------------------------------------------------


def test_udp_6to4_header(xlat):
    c = xlat.counters()
    f = xlat64(xlat, udp6(100, hlim=64, tc=0, fl=0xABCDE))
    assert_ipv4(f, tos=0, len=128, ttl=63, proto=17, src=H6_4, dst=SINK4)
    u = f[UDP]
    assert (u.sport, u.dport, u.len) == (40000, 4000, 108)
    assert l4_payload(f) == PAYLOAD[:100]
    c.expect({"xlat-6to4": 1})


@pytest.mark.parametrize("df", [True, False], ids=["DF", "noDF"])
def test_udp_4to6_header(xlat, df):
    c = xlat.counters()
    f = xlat46(xlat, udp4(100, ttl=64, tos=0, id=0x4242,
                          flags="DF" if df else 0))
    assert_ipv6(f, tc=0, plen=108, nh=17, hlim=63, src=H4_6, dst=SINK6)
    u = f[UDP]
    assert (u.sport, u.dport, u.len) == (4000, 40000, 108)
    assert l4_payload(f) == PAYLOAD[:100]
    c.expect({"xlat-4to6": 1})


def test_udp_empty_payload_both_ways(xlat):
    c = xlat.counters()
    f = xlat64(xlat, udp6(0, hlim=10))
    assert_ipv4(f, len=28, ttl=9, proto=17)
    assert f[UDP].len == 8
    f = xlat46(xlat, udp4(0, ttl=10))
    assert_ipv6(f, plen=8, nh=17, hlim=9)
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})


def test_udp_4to6_zero_checksum_dropped(xlat):
    c = xlat.counters()
    pkt = IP(src=H4, dst=SINK6_4, ttl=64) / \
        UDP(sport=4000, dport=40000, chksum=0) / Raw(PAYLOAD[:40])
    with xlat.cap6() as cap:
        xlat.send4(pkt)
        cap.none(is_ip6(dst=SINK6),
                 proof=lambda: c.expect({"drop-udp-csum0": 1}))
    c.expect({"drop-udp-csum0": 1})


def test_udp_4to6_zero_checksum_amended(xlat):
    """RFC 7915 4.5: with amend-udp-checksum-zero, an unfragmented IPv4 UDP
    packet without a checksum is translated with a computed one."""
    xlat.set_global("amend-udp-checksum-zero", "true")
    c = xlat.counters()
    pkt = IP(src=H4, dst=SINK6_4, ttl=64) / \
        UDP(sport=4000, dport=40000, chksum=0) / Raw(PAYLOAD[:40])
    f = xlat46(xlat, pkt)
    assert_ipv6(f, plen=48, nh=17, hlim=63)    # checks the UDP checksum
    assert (f[UDP].sport, f[UDP].dport, f[UDP].len) == (4000, 40000, 48)
    assert bytes(f[UDP].payload) == PAYLOAD[:40]
    c.expect({"xlat-4to6": 1})


def test_udp_4to6_zero_checksum_amended_over_udp_length(xlat):
    """The amended checksum covers the datagram its UDP length gives, that
    length in the pseudo-header (RFC 8200 8.1), not the bytes after it in
    the IPv4 payload, which go on as they came."""
    xlat.set_global("amend-udp-checksum-zero", "true")
    c = xlat.counters()
    udp = struct.pack("!HHHH", 4000, 40000, 38, 0) + PAYLOAD[:30]
    f = xlat46(xlat, IP(src=H4, dst=SINK6_4, ttl=64, proto=17) /
               Raw(udp + b"\xee" * 10))
    raw = l4_bytes(f)
    assert f[IPv6].plen == 48
    assert raw[:6] + raw[8:] == udp[:6] + udp[8:] + b"\xee" * 10
    assert struct.unpack("!H", raw[6:8])[0] == in6_chksum(17, f[IPv6], udp)
    c.expect({"xlat-4to6": 1})


@pytest.mark.parametrize("ulen", [7, 49])
def test_udp_4to6_zero_checksum_bad_length_dropped(xlat, ulen):
    """A UDP length below the header's or past the IPv4 payload leaves no
    datagram to sum: dropped, not amended."""
    xlat.set_global("amend-udp-checksum-zero", "true")
    c = xlat.counters()
    udp = struct.pack("!HHHH", 4000, 40000, ulen, 0) + PAYLOAD[:40]
    untranslated46(xlat, c, IP(src=H4, dst=SINK6_4, ttl=64, proto=17) /
                   Raw(udp), {"drop-truncated": 1}, is_ip6(dst=SINK6))
    c.expect({"drop-truncated": 1})


def test_udp_6to4_zero_checksum_kept_zero(xlat):
    """An IPv6 UDP datagram without a checksum (RFC 6935/6936: allowed to
    tunnel endpoints that agreed to it, which a translator cannot know)
    leaves as IPv4 UDP without a checksum: 0, which means "none" there,
    not a checksum made up for data nobody summed."""
    c = xlat.counters()
    udp = struct.pack("!HHHH", 40000, 4000, 48, 0) + PAYLOAD[:40]
    f = xlat64(xlat, IPv6(src=H6, dst=SINK4_6, hlim=64, nh=17) / Raw(udp))
    raw = ip_bytes(f)
    assert (raw[:4], raw[8:10]) == (b"\x45\x00\x00\x44", b"\x3f\x11")
    assert raw[12:20] == ternlib.addr4(H6_4) + ternlib.addr4(SINK4)
    assert ternlib.inet_csum(raw[:20]) == 0
    assert l4_bytes(f) == udp
    c.expect({"xlat-6to4": 1})


# --- TCP -------------------------------------------------------------------

TCP_OPTS = [("MSS", 1440), ("SAckOK", b""), ("Timestamp", (11, 22)),
            ("NOP", None), ("WScale", 7)]


def tcp_segment(n):
    return TCP(sport=40001, dport=80, flags="PA", seq=0x01020304,
               ack=0x0A0B0C0D, window=12345, urgptr=0,
               options=TCP_OPTS) / Raw(PAYLOAD[:n])


def assert_same_tcp(sent, f):
    """The TCP header and payload of SENT (an IP/IPv6 packet) arrive
    unchanged except the checksum."""
    want = bytes(sent[TCP])
    got = l4_bytes(f)
    assert len(got) == len(want)
    assert got[:16] == want[:16] and got[18:] == want[18:]


def test_tcp_6to4(xlat):
    c = xlat.counters()
    seg = tcp_segment(300)
    pkt = IPv6(bytes(IPv6(src=H6, dst=SINK4_6, hlim=33) / seg))
    f = xlat64(xlat, pkt)
    assert_ipv4(f, len=20 + len(pkt[TCP]), ttl=32, proto=6)
    assert_same_tcp(pkt, f)
    t = f[TCP]
    assert (t.sport, t.dport, t.seq, t.ack, str(t.flags)) == \
        (40001, 80, 0x01020304, 0x0A0B0C0D, "PA")
    c.expect({"xlat-6to4": 1})


def test_tcp_4to6(xlat):
    c = xlat.counters()
    seg = tcp_segment(300)
    pkt = IP(bytes(IP(src=H4, dst=SINK6_4, ttl=33, flags="DF") / seg))
    f = xlat46(xlat, pkt)
    assert_ipv6(f, plen=len(pkt[TCP]), nh=6, hlim=32)
    assert_same_tcp(pkt, f)
    c.expect({"xlat-4to6": 1})


def test_tcp_syn_both_ways(xlat):
    c = xlat.counters()
    syn = TCP(sport=40002, dport=443, flags="S", seq=7, options=TCP_OPTS)
    pkt = IPv6(bytes(IPv6(src=H6, dst=SINK4_6) / syn))
    f = xlat64(xlat, pkt)
    assert_ipv4(f, len=20 + len(pkt[TCP]), proto=6)
    assert_same_tcp(pkt, f)
    pkt = IP(bytes(IP(src=H4, dst=SINK6_4) / syn))
    f = xlat46(xlat, pkt)
    assert_ipv6(f, plen=len(pkt[TCP]), nh=6)
    assert_same_tcp(pkt, f)
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})


# --- Fragmentation-related header fields ----------------------------------


@pytest.mark.parametrize("tot_len,df", [
    (1260, False), (1261, True), (1480, True), (600, False),
])
def test_6to4_df_threshold(xlat, tot_len, df):
    """RFC 7915 5.1: DF=0 with an Identification up to 1260 bytes (the
    packet fits any IPv6 path), DF=1 and ID 0 above."""
    c = xlat.counters()
    f = xlat64(xlat, udp6(tot_len - 28))
    assert_ipv4(f, len=tot_len, flags=2 if df else 0, proto=17)
    if df:
        assert f[IP].id == 0
    c.expect({"xlat-6to4": 1})


def test_6to4_identification_varies(xlat):
    c = xlat.counters()
    with xlat.cap4() as cap:
        for i in range(6):
            xlat.send6(udp6(20, sport=41000 + (i % 2)))
        frames = cap.wait(is_ip4(src=H6_4, dst=SINK4), count=6)
    ids = [f[IP].id for f in frames]
    assert all(int(f[IP].flags) == 0 for f in frames)
    assert len(set(ids)) == 6, "IPv4 IDs repeat: %s" % ids
    c.expect({"xlat-6to4": 6})


def test_4to6_df0_large_is_fragmented_to_1280(xlat):
    """RFC 7915 4.1: an IPv4 packet without DF that would not fit an IPv6
    path of 1280 bytes is sent as IPv6 fragments of at most 1280."""
    c = xlat.counters()
    pkt = udp4(1400 - 28, ttl=64, flags=0, id=0x1111)
    with xlat.cap6() as cap:
        xlat.send4(pkt)
        frames = cap.wait(is_ip6(src=H4_6, dst=SINK6, nh=44), count=2)
        cap.none(is_ip6(src=H4_6, dst=SINK6, nh=17),
                 proof=lambda: c.expect({"xlat-4to6": 1}))
    frames = cap.matching(is_ip6(src=H4_6, dst=SINK6, nh=44))
    assert len(frames) == 2
    parts, ident = {}, set()
    for f in frames:
        raw = ip_bytes(f)
        assert len(raw) <= 1280 and f[IPv6].hlim == 63 and f[IPv6].fl == 0
        nh, _, off_m, fid = struct.unpack("!BBHI", raw[40:48])
        assert nh == 17
        ident.add(fid)
        parts[(off_m >> 3) * 8] = (off_m & 1, raw[48:])
    assert len(ident) == 1
    data, pos = b"", 0
    for off in sorted(parts):
        assert off == pos
        more, chunk = parts[off]
        data += chunk
        pos += len(chunk)
    assert parts[max(parts)][0] == 0
    udp_bytes = bytes(pkt[UDP])
    assert len(data) == len(udp_bytes)
    assert data[:6] == udp_bytes[:6] and data[8:] == udp_bytes[8:]
    chk = ternlib.udp6_checksum(H4_6, SINK6, data[:6] + b"\0\0" + data[8:])
    assert struct.unpack("!H", data[6:8])[0] == chk
    c.expect({"xlat-4to6": 1})


# --- Extension headers and options ----------------------------------------


def test_6to4_skips_extension_headers(xlat):
    """Hop-by-Hop, Destination Options and a Routing header with Segments
    Left 0 are not translated; the IPv4 length shrinks by their size."""
    c = xlat.counters()
    exts = IPv6ExtHdrHopByHop() / IPv6ExtHdrDestOpt() / \
        IPv6ExtHdrRouting(type=0, addresses=["2001:db8::1"], segleft=0)
    assert len(bytes(exts)) == 8 + 8 + 24
    pkt = IPv6(src=H6, dst=SINK4_6, hlim=20) / exts / \
        UDP(sport=40003, dport=4000) / Raw(PAYLOAD[:77])
    f = xlat64(xlat, pkt)
    assert_ipv4(f, len=20 + 8 + 77, ttl=19, proto=17)
    assert l4_payload(f) == PAYLOAD[:77]
    c.expect({"xlat-6to4": 1})


def test_4to6_ignores_ipv4_options(xlat):
    c = xlat.counters()
    pkt = IP(src=H4, dst=SINK6_4, ttl=50,
             options=[IPOption_RR(routers=["0.0.0.0"]), IPOption_NOP()]) / \
        UDP(sport=4000, dport=40004) / Raw(PAYLOAD[:60])
    assert IP(bytes(pkt)).ihl == 7
    f = xlat46(xlat, pkt)
    assert_ipv6(f, plen=8 + 60, nh=17, hlim=49)
    assert l4_payload(f) == PAYLOAD[:60]
    c.expect({"xlat-4to6": 1})


# --- Traffic class / TOS, TTL ----------------------------------------------


@pytest.mark.parametrize("value", [0xB8, 0x48, 0x03])
def test_traffic_class_and_tos_copied(xlat, value):
    c = xlat.counters()
    f = xlat64(xlat, udp6(10, tc=value))
    assert f[IP].tos == value
    f = xlat46(xlat, udp4(10, tos=value))
    assert f[IPv6].tc == value and f[IPv6].fl == 0
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})


def test_override_tos(xlat):
    xlat.set_global("override-tos", "true")
    xlat.set_global("tos", "32")
    c = xlat.counters()
    f = xlat64(xlat, udp6(10, tc=0xB8))
    assert_ipv4(f, tos=32, proto=17)
    # Only 6->4 is affected.
    f = xlat46(xlat, udp4(10, tos=0x48))
    assert f[IPv6].tc == 0x48
    xlat.set_global("override-tos", "false")
    f = xlat64(xlat, udp6(10, tc=0xB8))
    assert f[IP].tos == 0xB8
    c.expect({"xlat-6to4": 2, "xlat-4to6": 1})


def test_zeroize_traffic_class(xlat):
    xlat.set_global("zeroize-traffic-class", "true")
    c = xlat.counters()
    f = xlat46(xlat, udp4(10, tos=0xB8))
    assert_ipv6(f, tc=0, nh=17)
    # Only 4->6 is affected.
    f = xlat64(xlat, udp6(10, tc=0x48))
    assert f[IP].tos == 0x48
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})


def test_hop_limit_2_and_ttl_2_give_1(xlat):
    c = xlat.counters()
    f = xlat64(xlat, udp6(10, hlim=2))
    assert f[IP].ttl == 1
    f = xlat46(xlat, udp4(10, ttl=2))
    assert f[IPv6].hlim == 1
    f = xlat64(xlat, udp6(10, hlim=255))
    assert f[IP].ttl == 254
    c.expect({"xlat-6to4": 2, "xlat-4to6": 1})


# --- RFC 6052 address formats ---------------------------------------------


@pytest.mark.parametrize("pool", [
    "2001:db8::/32", "2001:db8:100::/40", "2001:db8:122::/48",
    "2001:db8:122:300::/56", "2001:db8:122:344::/64",
    "2001:db8:122:344::/96",
])
def test_rfc6052_prefix_lengths(xlat, pool):
    xlat.set_global("pool6", pool)
    xlat.temp_route(xlat.xl, pool, "via", H6_LINK)
    c = xlat.counters()
    f = xlat64(xlat, udp6(30, src=embed(H6_4, pool), dst=embed(SINK4, pool)))
    assert_ipv4(f, src=H6_4, dst=SINK4, proto=17, len=58)
    f = xlat46(xlat, udp4(30), match=is_ip6(dst=embed(SINK6_4, pool)))
    assert_ipv6(f, src=embed(H4, pool), dst=embed(SINK6_4, pool), nh=17,
                plen=38)
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})


# --- Other transport protocols (RFC 7915 4.5, 5.5) --------------------------


def test_unknown_protocol_4to6_passed_through(xlat):
    """An unfragmented packet of a protocol Tern does not know (253, for
    experimentation) keeps its number as Next Header and its payload byte
    for byte."""
    c = xlat.counters()
    data = PAYLOAD[:64]
    f = xlat46(xlat, IP(src=H4, dst=SINK6_4, ttl=64, tos=0, flags="DF",
                        proto=253) / Raw(data))
    assert_ipv6(f, tc=0, plen=64, nh=253, hlim=63, src=H4_6, dst=SINK6)
    assert ip_bytes(f)[40:] == data
    c.expect({"xlat-4to6": 1})


def test_unknown_protocol_6to4_passed_through(xlat):
    c = xlat.counters()
    data = PAYLOAD[:64]
    f = xlat64(xlat, IPv6(src=H6, dst=SINK4_6, hlim=64, tc=0, fl=0,
                          nh=253) / Raw(data))
    assert_ipv4(f, tos=0, len=84, ttl=63, proto=253, src=H6_4, dst=SINK4)
    assert ip_bytes(f)[20:] == data
    c.expect({"xlat-6to4": 1})


# IPv6's numbers in IPv4 and IPv4's in IPv6: copied, they would be ICMPv6
# or IPv6 extension headers (or ICMPv4, IGMP) Tern never checked.
V6ONLY = {0: "hop-by-hop", 43: "routing", 44: "fragment", 58: "icmpv6",
          60: "dest-options"}


def other_family_dropped(topo, send, pkt):
    """PKT, sent by SEND, is dropped and counted once: nothing leaves on
    either side (no translation, no ICMP error)."""
    c = topo.counters()
    with topo.cap4() as cap4, topo.cap6() as cap6:
        send(pkt)
        ternlib.none_on(lambda: c.expect({"drop-other-family": 1}),
                        (cap4, is_ip4()), (cap6, is_ip6()))


@pytest.mark.parametrize("first", [True, False], ids=["whole", "later-frag"])
@pytest.mark.parametrize("proto", sorted(V6ONLY), ids=V6ONLY.get)
def test_ipv6_protocol_numbers_dropped_4to6(xlat, proto, first):
    """An IPv4 packet (or a later fragment) whose Protocol names ICMPv6 or
    an IPv6 extension header is dropped, counted, and not answered."""
    # What a sender would put there: an ICMPv6 echo or a header chain.
    body = bytes([17, 0, 1, 4, 0, 0, 0, 0]) + PAYLOAD[:24]
    pkt = IP(src=H4, dst=SINK6_4, ttl=64, proto=proto, id=0x4242,
             frag=0 if first else 8, flags=0 if first else "MF") / Raw(body)
    other_family_dropped(xlat, xlat.send4, pkt)


@pytest.mark.parametrize("chain", [[], [60]], ids=["direct", "after-dest"])
@pytest.mark.parametrize("nh", [1, 2], ids=["icmpv4", "igmp"])
def test_ipv4_protocol_numbers_dropped_6to4(xlat, nh, chain):
    """An IPv6 packet whose upper layer (after the extension headers Tern
    skips) is ICMPv4 or IGMP is dropped, counted, and not answered."""
    # An ICMPv4 echo request / an IGMPv2 report, checksums right.
    msg = ternlib.with_csum(bytes([8 if nh == 1 else 0x16, 0, 0, 0]) +
                            b"\x12\x34\x00\x01", 2)
    pkt = IPv6(src=H6, dst=SINK4_6, hlim=64)
    if chain:
        pkt = pkt / IPv6ExtHdrDestOpt(nh=nh)
    else:
        pkt.nh = nh
    other_family_dropped(xlat, xlat.send6, pkt / Raw(msg))
