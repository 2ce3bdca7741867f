"""Fragments (RFC 7915 4.1, 5.1, 5.1.1; RFC 8021 atomic fragments).

IPv4 fragments become IPv6 fragments with a Fragment header carrying the
IPv4 Identification; IPv6 fragments become IPv4 fragments with the low 16
bits of theirs; fragments are translated one by one (the translator is
stateless) and what arrives is reassembled here and compared with the
datagram the RFC expects, transport checksum included. ICMP fragments are
not translated. IPv4 packets without DF that would not fit lowest-ipv6-mtu
after translation are fragmented; a translated IPv4 packet too big for the
IPv4 next hop is fragmented there (DF clear).
"""

import struct

import pytest

import ternlib
from ternlib import (H4, H4_6, H6, H6_4, PAYLOAD, SINK4, SINK4_6, SINK6,
                     SINK6_4, XL6, assert_frame4, assert_frame6,
                     fragment6_parts, frag6_header, icmp4_message,
                     icmp6_message, inet_csum, ip4_packet, ip6_packet,
                     ip_bytes, ipv4_fields, is_ip4, is_ip6, reassemble,
                     require_global, set_mtu, tcp_segment_bytes,
                     udp_datagram, untranslated46, untranslated64)

DATA = PAYLOAD * 8                  # 16 KiB of known bytes


def frags4(datagram, proto, cuts, ident, src=H4, dst=SINK6_4, ttl=64,
           tos=0, df=False):
    """DATAGRAM (transport header + data) cut at byte offsets CUTS (each a
    multiple of 8) into IPv4 fragments."""
    bounds = [0] + list(cuts) + [len(datagram)]
    return [ip4_packet(src, dst, proto, datagram[a:b], ttl=ttl, tos=tos,
                       ident=ident, df=df, mf=b < len(datagram), offset=a)
            for a, b in zip(bounds, bounds[1:])]


def frags6(datagram, nh, cuts, ident, src=H6, dst=SINK4_6, hlim=64, tc=0,
           before=b"", before_nh=None):
    """DATAGRAM cut at CUTS into IPv6 fragments; BEFORE: extension headers
    put before the Fragment header (BEFORE_NH the first one's type)."""
    bounds = [0] + list(cuts) + [len(datagram)]
    out = []
    for a, b in zip(bounds, bounds[1:]):
        body = before + frag6_header(nh, a, b < len(datagram), ident) + \
            datagram[a:b]
        out.append(ip6_packet(src, dst, 44 if before_nh is None else
                              before_nh, body, hlim=hlim, tc=tc))
    return out


def collect6(topo, packets, count=None, send_order=None):
    """Sends PACKETS (IPv4) from h4; returns the IPv6 frames h6 gets."""
    match = is_ip6(src=H4_6, dst=SINK6)
    with topo.cap6() as cap:
        for i in (send_order or range(len(packets))):
            topo.send4(packets[i])
        cap.wait(match, count=count or len(packets))
        cap.settle(0.3)     # let stragglers arrive
        return cap.matching(match)


def collect4(topo, packets, count=None):
    match = is_ip4(src=H6_4, dst=SINK4)
    with topo.cap4() as cap:
        for p in packets:
            topo.send6(p)
        cap.wait(match, count=count or len(packets))
        cap.settle(0.3)
        return cap.matching(match)


def check_frags6(frames, ident, nh, hlim=63, tc=0, limit=1280):
    """Every frame is an IPv6 fragment from the translator: header fields,
    Fragment header (RFC 7915 4.1: ID zero-extended), at most LIMIT bytes;
    returns the reassembled datagram."""
    parts = []
    for f in frames:
        raw = ip_bytes(f)
        fields, fh, data = fragment6_parts(f)
        assert_frame6(f, tc=tc, plen=8 + len(data), nh=44, hlim=hlim,
                      src=H4_6, dst=SINK6)
        assert len(raw) <= limit, "fragment of %d bytes" % len(raw)
        assert fh == {"nh": nh, "res": 0, "offset": fh["offset"],
                      "res2": 0, "m": fh["m"], "id": ident}, fh
        parts.append((fh["offset"], fh["m"], data))
    return reassemble(parts)


def check_frags4(frames, ident, proto, ttl=63, tos=0, mtu=1500):
    """Every frame is an IPv4 fragment from the translator with
    Identification IDENT and DF clear; returns the reassembled datagram."""
    parts = []
    for f in frames:
        raw = ip_bytes(f)
        got = ipv4_fields(f)
        assert_frame4(f, tos=tos, len=len(raw), id=ident, flags=got["flags"],
                      offset=got["offset"], ttl=ttl, proto=proto, src=H6_4,
                      dst=SINK4)
        assert got["flags"] in (0, 1), "DF set or reserved bit: %d" \
            % got["flags"]
        assert len(raw) <= mtu
        parts.append((got["offset"], got["flags"] & 1, raw[20:]))
    return reassemble(parts)


# --- IPv4 fragments -> IPv6 -----------------------------------------------


@pytest.mark.parametrize("order", ["in-order", "reversed"])
def test_udp_fragments_4to6(xlat, order):
    c = xlat.counters()
    udp = udp_datagram(H4, SINK6_4, 4000, 40000, DATA[:1000])
    pkts = frags4(udp, 17, [512], ident=0xBEEF, tos=0x48)
    frames = collect6(xlat, pkts, send_order=[0, 1] if order == "in-order"
                      else [1, 0])
    assert len(frames) == 2
    for f in frames:
        # payload length = IPv4 total length - IHL*4 + 8
        assert ternlib.ipv6_fields(f)["plen"] in (512 + 8, 1008 - 512 + 8)
    got = check_frags6(frames, 0xBEEF, 17, tc=0x48)
    assert got == udp_datagram(H4_6, SINK6, 4000, 40000, DATA[:1000])
    c.expect({"xlat-4to6": 2})


def test_tcp_fragments_4to6(xlat):
    c = xlat.counters()
    seg = tcp_segment_bytes(H4, SINK6_4, 80, 40001, 1000, 2000,
                            payload=DATA[:1200])
    pkts = frags4(seg, 6, [400, 800], ident=0x0102)
    frames = collect6(xlat, pkts)
    got = check_frags6(frames, 0x0102, 6)
    assert got == tcp_segment_bytes(H4_6, SINK6, 80, 40001, 1000, 2000,
                                    payload=DATA[:1200])
    c.expect({"xlat-4to6": 3})


def test_non_first_fragment_alone_4to6(xlat):
    """A stateless translator translates a fragment without seeing the
    others: the data is copied untouched."""
    c = xlat.counters()
    udp = udp_datagram(H4, SINK6_4, 4000, 40000, DATA[:300])
    pkt = frags4(udp, 17, [64], ident=0xFFFF)[1]
    f = collect6(xlat, [pkt])[0]
    fields, fh, data = fragment6_parts(f)
    assert_frame6(f, tc=0, plen=8 + len(udp) - 64, nh=44, hlim=63,
                  src=H4_6, dst=SINK6)
    assert fh == {"nh": 17, "res": 0, "offset": 64, "res2": 0, "m": 0,
                  "id": 0xFFFF}
    assert data == udp[64:]
    c.expect({"xlat-4to6": 1})


def test_icmp_fragments_dropped_4to6(xlat):
    """RFC 7915 1.2: fragmented ICMP is not translated (the ICMPv6
    checksum needs the whole message)."""
    c = xlat.counters()
    echo = icmp4_message(8, 0, b"\x00\x01\x00\x01", DATA[:600])
    pkts = frags4(echo, 1, [304], ident=0x4444)
    untranslated46(xlat, c, pkts, {"drop-icmp-fragment": 2})
    c.expect({"drop-icmp-fragment": 2})


@pytest.mark.parametrize("amend", [False, True], ids=["default", "amend"])
def test_udp_zero_checksum_first_fragment_dropped_4to6(xlat, amend):
    """RFC 7915 4.5: a stateless translator cannot compute the checksum
    of a fragmented datagram; the first fragment is dropped, even with
    amend-udp-checksum-zero."""
    if amend:
        require_global(xlat, "amend-udp-checksum-zero")
        xlat.set_global("amend-udp-checksum-zero", "true")
    c = xlat.counters()
    udp = udp_datagram(H4, SINK6_4, 4000, 40000, DATA[:400], checksum=False)
    first = frags4(udp, 17, [200], ident=0x1111)[0]
    untranslated46(xlat, c, first, {"drop-udp-csum0": 1})
    c.expect({"drop-udp-csum0": 1})


@pytest.mark.parametrize("size", [28, 600, 1260])
def test_small_df0_packet_gets_no_fragment_header_4to6(xlat, size):
    """No atomic fragments: a DF=0 packet that fits 1280 bytes after
    translation is translated without a Fragment header (RFC 7915 4.1,
    RFC 8021)."""
    c = xlat.counters()
    udp = udp_datagram(H4, SINK6_4, 4000, 40000, DATA[:size - 28])
    pkt = ip4_packet(H4, SINK6_4, 17, udp, ident=0x3333, df=False)
    f = collect6(xlat, [pkt])[0]
    raw = assert_frame6(f, tc=0, plen=size - 20, nh=17, hlim=63, src=H4_6,
                        dst=SINK6)
    assert raw[40:] == udp_datagram(H4_6, SINK6, 4000, 40000,
                                    DATA[:size - 28])
    c.expect({"xlat-4to6": 1})


@pytest.mark.parametrize("size", [1261, 1400, 1500, 4000])
def test_df0_packet_fragmented_to_1280_4to6(xlat, size):
    """RFC 7915 4.1: DF clear and bigger than lowest-ipv6-mtu (1280) once
    translated: IPv6 fragments of at most 1280 bytes, Identification = the
    IPv4 one zero-extended, reassembling to the translated datagram."""
    if size > 1500:
        set_mtu(xlat, xlat.h4, "eth0", 9000)
        set_mtu(xlat, xlat.xl, "v4", 9000)
    c = xlat.counters()
    udp = udp_datagram(H4, SINK6_4, 4000, 40000, DATA[:size - 28])
    pkt = ip4_packet(H4, SINK6_4, 17, udp, ident=0x1357, df=False, tos=0x20)
    n = -(-(size - 20) // 1232)
    frames = collect6(xlat, [pkt], count=n)
    got = check_frags6(frames, 0x1357, 17, tc=0x20)
    assert got == udp_datagram(H4_6, SINK6, 4000, 40000, DATA[:size - 28])
    c.expect({"xlat-4to6": 1})


@pytest.mark.parametrize("size,fragmented", [(1380, False), (1381, True),
                                             (1500, True)])
def test_lowest_ipv6_mtu_4to6(xlat, size, fragmented):
    """lowest-ipv6-mtu 1400: the threshold and the fragment size follow."""
    require_global(xlat, "lowest-ipv6-mtu")
    xlat.set_global("lowest-ipv6-mtu", "1400")
    c = xlat.counters()
    udp = udp_datagram(H4, SINK6_4, 4000, 40000, DATA[:size - 28])
    want = udp_datagram(H4_6, SINK6, 4000, 40000, DATA[:size - 28])
    pkt = ip4_packet(H4, SINK6_4, 17, udp, ident=0x2222, df=False)
    if fragmented:
        frames = collect6(xlat, [pkt], count=2)
        assert check_frags6(frames, 0x2222, 17, limit=1400) == want
        # The first carries the most a multiple of 8 lets: 40 + 8 + 1352.
        assert max(len(ip_bytes(f)) for f in frames) == 1400
    else:
        f = collect6(xlat, [pkt])[0]
        raw = assert_frame6(f, tc=0, plen=size - 20, nh=17, hlim=63,
                            src=H4_6, dst=SINK6)
        assert raw[40:] == want
    c.expect({"xlat-4to6": 1})


def test_big_ipv4_fragment_refragmented_4to6(xlat):
    """An IPv4 fragment (DF clear) that becomes more than 1280 bytes is
    cut again: the pieces keep the Identification and offsets of the
    original datagram, and the whole reassembles."""
    c = xlat.counters()
    udp = udp_datagram(H4, SINK6_4, 4000, 40000, DATA[:2000])
    pkts = frags4(udp, 17, [1376], ident=0x2468)       # 1396 + 652 bytes
    frames = collect6(xlat, pkts, count=3)
    got = check_frags6(frames, 0x2468, 17)
    assert got == udp_datagram(H4_6, SINK6, 4000, 40000, DATA[:2000])
    c.expect({"xlat-4to6": 2})


# --- IPv6 fragments -> IPv4 -----------------------------------------------


def test_acceptance_too_big_then_fragments_6to4(xlat):
    """(a) An IPv6 UDP packet bigger than the IPv4 next-hop MTU (1400):
    Packet Too Big to the sender with MTU max(1280, 1400 + 20) quoting the
    packet; the same datagram sent as IPv6 fragments: IPv4 fragments with
    DF clear and the low 16 bits of the fragment Identification."""
    set_mtu(xlat, xlat.xl, "v4", 1400)
    c = xlat.counters()
    udp = udp_datagram(H6, SINK4_6, 40000, 4000, DATA[:1432])
    pkt = ip6_packet(H6, SINK4_6, 17, udp, hlim=64)
    assert len(pkt) == 1480
    with xlat.cap6() as cap6, xlat.cap4() as cap4:
        xlat.send6(pkt)
        f = cap6.one(is_ip6(dst=H6, nh=58))
        cap4.none(is_ip4(src=H6_4),
                  proof=lambda: c.expect({"drop-too-big": 1}))
    with c.explain():
        # The translator's own IPv6 stack sends this error: its flow label
        # is the kernel's choice (auto flow labels).
        fl = ternlib.ipv6_fields(f)["fl"]
        raw = assert_frame6(f, tc=0, fl=fl, plen=1240, nh=58, hlim=64,
                            src=XL6, dst=H6)
        icmp = raw[40:]
        assert (icmp[0], icmp[1]) == (2, 0)
        assert struct.unpack("!I", icmp[4:8])[0] == 1420
        assert inet_csum(ternlib.pseudo6(XL6, H6, 58, len(icmp)) + icmp) == 0
        assert icmp[8:] == pkt[:1232]
    c.expect({"drop-too-big": 1})

    c = xlat.counters()
    pkts = frags6(udp, 17, [800], ident=0x7E57F00D)
    frames = collect4(xlat, pkts)
    assert len(frames) == 2
    by_offset = {ipv4_fields(f)["offset"]: f for f in frames}
    assert sorted(by_offset) == [0, 800]
    assert_frame4(by_offset[0], tos=0, len=820, id=0xF00D, flags=1,
                  offset=0, ttl=63, proto=17, src=H6_4, dst=SINK4)
    assert_frame4(by_offset[800], tos=0, len=20 + 1440 - 800, id=0xF00D,
                  flags=0, offset=800, ttl=63, proto=17, src=H6_4,
                  dst=SINK4)
    got = check_frags4(frames, 0xF00D, 17)
    want = udp_datagram(H6_4, SINK4, 40000, 4000, DATA[:1432])
    assert got == want
    assert struct.unpack("!HH", got[:4]) == (40000, 4000)
    c.expect({"xlat-6to4": 2})


@pytest.mark.parametrize("ident", [0xABCD1234, 0x0000FFFF, 0xFFFF0000])
def test_udp_fragments_6to4(xlat, ident):
    c = xlat.counters()
    udp = udp_datagram(H6, SINK4_6, 40000, 4000, DATA[:1000])
    pkts = frags6(udp, 17, [512], ident=ident, tc=0x48, hlim=30)
    frames = collect4(xlat, pkts)
    # Total Length = fragment data + 20; ID = low 16 bits; MF = M; DF 0.
    got = check_frags4(frames, ident & 0xFFFF, 17, ttl=29, tos=0x48)
    assert sorted(ipv4_fields(f)["len"] for f in frames) == \
        sorted([20 + 512, 20 + 1008 - 512])
    assert got == udp_datagram(H6_4, SINK4, 40000, 4000, DATA[:1000])
    c.expect({"xlat-6to4": 2})


def test_tcp_fragments_6to4(xlat):
    c = xlat.counters()
    seg = tcp_segment_bytes(H6, SINK4_6, 40001, 80, 5, 6,
                            payload=DATA[:1500])
    pkts = frags6(seg, 6, [504, 1000], ident=0x01020304)
    frames = collect4(xlat, pkts)
    got = check_frags4(frames, 0x0304, 6)
    assert got == tcp_segment_bytes(H6_4, SINK4, 40001, 80, 5, 6,
                                    payload=DATA[:1500])
    c.expect({"xlat-6to4": 3})


@pytest.mark.parametrize("exts", [(0,), (60,), (0, 60)],
                         ids=["hop-by-hop", "dest-opts", "both"])
def test_extension_headers_before_fragment_header_6to4(xlat, exts):
    """Total Length = Payload Length - extension headers up to and
    including the Fragment header + 20 (RFC 7915 5.1.1)."""
    c = xlat.counters()
    before = b""
    nh = 44
    for t in reversed(exts):
        before = bytes([nh, 0, 1, 4, 0, 0, 0, 0]) + before
        nh = t
    udp = udp_datagram(H6, SINK4_6, 40000, 4000, DATA[:700])
    pkts = frags6(udp, 17, [400], ident=0x55AA55AA, before=before,
                  before_nh=nh)
    frames = collect4(xlat, pkts)
    got = check_frags4(frames, 0x55AA, 17)
    assert sorted(ipv4_fields(f)["len"] for f in frames) == [20 + 308,
                                                              20 + 400]
    assert got == udp_datagram(H6_4, SINK4, 40000, 4000, DATA[:700])
    c.expect({"xlat-6to4": 2})


def test_extension_header_after_fragment_header_dropped_6to4(xlat):
    """RFC 7915 5.1.1: the Fragment header's Next Header is an extension
    header: SHOULD be dropped."""
    c = xlat.counters()
    udp = udp_datagram(H6, SINK4_6, 40000, 4000, DATA[:100])
    body = frag6_header(60, 0, True, 0x99) + \
        bytes([17, 0, 1, 4, 0, 0, 0, 0]) + udp[:64]
    untranslated64(xlat, c, ip6_packet(H6, SINK4_6, 44, body),
                   {("drop-exthdr", "drop-fragment"): 1})
    c.expect({("drop-exthdr", "drop-fragment"): 1})


def test_icmpv6_fragments_dropped_6to4(xlat):
    c = xlat.counters()
    echo = icmp6_message(H6, SINK4_6, 128, 0, b"\x00\x01\x00\x01",
                         DATA[:600])
    pkts = frags6(echo, 58, [304], ident=0x4242)
    untranslated64(xlat, c, pkts, {"drop-icmp-fragment": 2})
    c.expect({"drop-icmp-fragment": 2})


def test_fragment_bigger_than_ipv4_mtu_refragmented_6to4(xlat):
    """DF is clear on a translated fragment: the IPv4 output fragments it
    further, the pieces keeping the Identification."""
    set_mtu(xlat, xlat.xl, "v4", 1000)
    c = xlat.counters()
    udp = udp_datagram(H6, SINK4_6, 40000, 4000, DATA[:2000])
    pkts = frags6(udp, 17, [1400], ident=0xCAFE0BAD)
    frames = collect4(xlat, pkts, count=3)
    got = check_frags4(frames, 0x0BAD, 17, mtu=1000)
    assert got == udp_datagram(H6_4, SINK4, 40000, 4000, DATA[:2000])
    c.expect({"xlat-6to4": 2})


def test_small_packet_bigger_than_ipv4_mtu_fragmented_6to4(xlat):
    """RFC 7915 5: a packet of at most 1260 bytes gets DF clear; an IPv4
    link with a smaller MTU fragments it."""
    set_mtu(xlat, xlat.xl, "v4", 1000)
    c = xlat.counters()
    udp = udp_datagram(H6, SINK4_6, 40000, 4000, DATA[:1152])   # 1200
    frames = collect4(xlat, [ip6_packet(H6, SINK4_6, 17, udp)], count=2)
    ident = ipv4_fields(frames[0])["id"]
    got = check_frags4(frames, ident, 17, mtu=1000)
    assert got == udp_datagram(H6_4, SINK4, 40000, 4000, DATA[:1152])
    c.expect({"xlat-6to4": 1})


@pytest.mark.parametrize("ident", [0x0000BEEF, 0x12345678])
def test_atomic_fragment_6to4(xlat, ident):
    """RFC 8021: a Fragment header with offset 0 and M 0 -> an unfragmented
    IPv4 packet, DF clear, Identification the low 16 bits."""
    c = xlat.counters()
    udp = udp_datagram(H6, SINK4_6, 40000, 4000, DATA[:100])
    pkt = ip6_packet(H6, SINK4_6, 44, frag6_header(17, 0, False, ident) +
                     udp)
    f = collect4(xlat, [pkt])[0]
    raw = assert_frame4(f, tos=0, len=20 + len(udp), id=ident & 0xFFFF,
                        flags=0, offset=0, ttl=63, proto=17, src=H6_4,
                        dst=SINK4)
    assert raw[20:] == udp_datagram(H6_4, SINK4, 40000, 4000, DATA[:100])
    c.expect({"xlat-6to4": 1})


# --- Other transport protocols --------------------------------------------


def test_other_protocol_fragments_4to6(xlat):
    """RFC 7915 4.5: every transport protocol is forwarded; its fragments
    are copied untouched (protocol 253, for experimentation)."""
    c = xlat.counters()
    data = DATA[:900]
    frames = collect6(xlat, frags4(data, 253, [456], ident=0x0253))
    assert check_frags6(frames, 0x0253, 253) == data
    c.expect({"xlat-4to6": 2})


def test_other_protocol_fragments_6to4(xlat):
    """RFC 7915 5.5: the same, IPv6 fragments -> IPv4 fragments."""
    c = xlat.counters()
    data = DATA[:900]
    frames = collect4(xlat, frags6(data, 253, [456], ident=0x00010253))
    assert check_frags4(frames, 0x0253, 253) == data
    c.expect({"xlat-6to4": 2})


# --- ICMPv6 errors in atomic fragments ------------------------------------


@pytest.mark.parametrize("ident", [0x0000BEEF, 0x12345678])
def test_icmp_error_atomic_fragment_6to4(xlat, ident):
    """RFC 7915 5.1.1 (item 13c): an ICMPv6 error in an atomic fragment
    (RFC 8021) gets the low 16 bits of its Identification as the IPv4 one,
    DF clear, like any atomic fragment; the rest as without the Fragment
    header (Address Unreachable -> Host Unreachable, the quote translated)."""
    c = xlat.counters()
    udp = udp_datagram(SINK4_6, H6, 4000, 40000, DATA[:32])
    inner = ip6_packet(SINK4_6, H6, 17, udp, hlim=40)
    err = icmp6_message(H6, SINK4_6, 1, 3, b"\0\0\0\0", inner)
    pkt = ip6_packet(H6, SINK4_6, 44, frag6_header(58, 0, False, ident) +
                     err, hlim=64)
    f = collect4(xlat, [pkt])[0]
    raw = assert_frame4(f, tos=0, len=20 + 8 + 20 + len(udp),
                        id=ident & 0xFFFF, flags=0, offset=0, ttl=63,
                        proto=1, src=H6_4, dst=SINK4)
    icmp = raw[20:]
    assert (icmp[0], icmp[1]) == (3, 1)
    assert icmp[4:8] == b"\0\0\0\0"
    assert inet_csum(icmp) == 0
    in4 = icmp[8:28]
    assert inet_csum(in4) == 0
    assert (in4[8], in4[9]) == (40, 17)
    assert in4[12:16] == ternlib.addr4(SINK4)
    assert in4[16:20] == ternlib.addr4(H6_4)
    assert icmp[28:] == udp_datagram(SINK4, H6_4, 4000, 40000, DATA[:32])
    c.expect({"xlat-icmp-error-6to4": 1})


# --- DF on fragments (RFC 7915 4.1, item 13a) -----------------------------


def test_df_fragment_not_cut_4to6(xlat):
    """A fragment with DF (MF set) whose translation (1448 bytes) fits the
    IPv6 MTU but not lowest-ipv6-mtu: translated whole, not cut."""
    c = xlat.counters()
    udp = udp_datagram(H4, SINK6_4, 4000, 40000, DATA[:1992])
    pkts = frags4(udp, 17, [1400], ident=0x4D46, df=True)
    frames = collect6(xlat, pkts)
    assert sorted(len(ip_bytes(f)) for f in frames) == [648, 1448]
    got = check_frags6(frames, 0x4D46, 17, limit=1448)
    assert got == udp_datagram(H4_6, SINK6, 4000, 40000, DATA[:1992])
    c.expect({"xlat-4to6": 2})


def test_df_fragment_too_big_4to6(xlat):
    """A first fragment with DF (MF set) that does not fit the IPv6 MTU
    (1400) once translated: Fragmentation Needed with MTU 1400 - 28 (its
    translation gets a Fragment header), nothing sent to IPv6."""
    set_mtu(xlat, xlat.xl, "v6", 1400)
    c = xlat.counters()
    udp = udp_datagram(H4, SINK6_4, 4000, 40000, DATA[:2792])
    pkt = frags4(udp, 17, [1400], ident=0x4D47, df=True)[0]
    assert len(pkt) == 1420
    with xlat.cap6() as cap6, xlat.cap4() as cap4:
        xlat.send4(pkt)
        f = cap4.one(is_ip4(dst=H4, proto=1))
        cap6.none(is_ip6(dst=SINK6),
                  proof=lambda: c.expect({"drop-too-big": 1}))
    raw = assert_frame4(f, src=ternlib.XL4, dst=H4, proto=1)
    icmp = raw[20:]
    assert (icmp[0], icmp[1]) == (3, 4)
    assert struct.unpack("!H", icmp[6:8])[0] == 1372
    assert icmp[8:28] == pkt[:20]
    c.expect({"drop-too-big": 1})


def test_df_nonfirst_fragment_too_big_4to6(xlat):
    """The same for a later fragment (MF clear, offset 1400): dropped and
    counted, no error (RFC 1122 3.2.2: never an ICMP error about a
    fragment other than the first; the kernel's icmp_send() holds to it)."""
    set_mtu(xlat, xlat.xl, "v6", 1400)
    c = xlat.counters()
    udp = udp_datagram(H4, SINK6_4, 4000, 40000, DATA[:2792])
    pkt = frags4(udp, 17, [1400], ident=0x4D48, df=True)[1]
    assert len(pkt) == 1420
    with xlat.cap6() as cap6, xlat.cap4() as cap4:
        xlat.send4(pkt)
        ternlib.none_on(lambda: c.expect({"drop-too-big": 1}),
                        (cap6, is_ip6(dst=SINK6)), (cap4, is_ip4(dst=H4)))
    c.expect({"drop-too-big": 1})


# --- Fragments ending past the largest datagram (item 10) -----------------


def test_fragment_past_65535_dropped_4to6(xlat):
    """The last possible offset (65528) with 1400 bytes: beyond the
    largest IPv6 datagram, and its cut pieces' offsets would wrap in 16
    bits: dropped and counted, nothing sent."""
    c = xlat.counters()
    pkt = ip4_packet(H4, SINK6_4, 17, DATA[:1400], ident=0x0F0F,
                     mf=False, offset=65528)
    untranslated46(xlat, c, pkt, {"drop-fragment": 1})
    c.expect({"drop-fragment": 1})


def test_fragment_ending_at_65535_translated_4to6(xlat):
    """Ending exactly at 65535 bytes of IPv6 datagram: translated (cut
    in two, offsets 64136 and 65368)."""
    c = xlat.counters()
    pkt = ip4_packet(H4, SINK6_4, 17, DATA[:1399], ident=0x0F10,
                     mf=False, offset=64136)
    frames = collect6(xlat, [pkt], count=2)
    parts = sorted((fragment6_parts(f)[1]["offset"],
                    fragment6_parts(f)[1]["m"], len(fragment6_parts(f)[2]))
                   for f in frames)
    assert parts == [(64136, 1, 1232), (65368, 0, 167)]
    c.expect({"xlat-4to6": 1})


@pytest.mark.parametrize("offset,n,ok", [(65528, 100, False),
                                         (64000, 1516, False),
                                         (64000, 1515, True)])
def test_fragment_past_65535_dropped_6to4(xlat, offset, n, ok):
    """An IPv6 fragment whose IPv4 translation would end past 65535 bytes
    (20 of header + offset + data): dropped and counted."""
    c = xlat.counters()
    if n > 1452:
        set_mtu(xlat, xlat.h6, "eth0", 9000)
        set_mtu(xlat, xlat.xl, "v6", 9000)
        set_mtu(xlat, xlat.xl, "v4", 9000)
        set_mtu(xlat, xlat.h4, "eth0", 9000)
    pkt = ip6_packet(H6, SINK4_6, 44, frag6_header(17, offset, False,
                                                   0x0F11) + DATA[:n])
    if ok:
        f = collect4(xlat, [pkt])[0]
        assert_frame4(f, tos=0, len=20 + n, id=0x0F11, flags=0,
                      offset=offset, ttl=63, proto=17, src=H6_4, dst=SINK4)
        c.expect({"xlat-6to4": 1})
        return
    untranslated64(xlat, c, pkt, {"drop-fragment": 1})
    c.expect({"drop-fragment": 1})
