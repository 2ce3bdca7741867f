"""Packets built for the tests, and the translations RFC 7915 expects.

Checksum arithmetic (RFC 1071, pseudo-headers); scapy packets of the
standard topology (udp6, udp4); raw packets for the ICMP error and
fragment tests (RFC 7915 sections 4 and 5), built byte by byte; and the
translation the RFC expects of a packet quoted in an ICMP error
(xlat_inner_4to6, xlat_inner_6to4), computed here from the original
bytes, independently of scapy and of the translator: a test compares what
arrives with it field by field and byte by byte (see checks.py).
"""

import ipaddress
import struct

from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.packet import Raw

from .names import H4, H6, POOL6, SINK4_6, SINK6_4, embed, extract


# ---------------------------------------------------------------------------
# Checksums.


def inet_csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def addr4(a):
    return ipaddress.IPv4Address(a).packed


def addr6(a):
    return ipaddress.IPv6Address(a).packed


def pseudo4(src, dst, proto, length):
    return addr4(src) + addr4(dst) + struct.pack("!BBH", 0, proto, length)


def pseudo6(src, dst, nh, length):
    return addr6(src) + addr6(dst) + struct.pack("!IxxxB", length, nh)


def pseudo(src, dst, proto, length):
    """The pseudo-header of the family of SRC (IPv6 if it has a colon)."""
    if ":" in src:
        return pseudo6(src, dst, proto, length)
    return pseudo4(src, dst, proto, length)


def with_csum(data, off, pre=b""):
    """DATA with the 16-bit checksum at OFF computed over PRE + DATA."""
    d = bytearray(data)
    d[off:off + 2] = b"\0\0"
    d[off:off + 2] = struct.pack("!H", inet_csum(pre + bytes(d)))
    return bytes(d)


def udp6_checksum(src, dst, udp_bytes, nh=17):
    """L4 checksum of UDP_BYTES (checksum field zero) over IPv6 SRC, DST."""
    pseudo = (ipaddress.IPv6Address(src).packed
              + ipaddress.IPv6Address(dst).packed
              + struct.pack("!IxxxB", len(udp_bytes), nh))
    c = inet_csum(pseudo + udp_bytes)
    return c or 0xFFFF


# ---------------------------------------------------------------------------
# Packets of the standard topology.

PAYLOAD = bytes(range(256)) * 8


def udp6(n=100, sport=40000, dport=4000, src=H6, dst=SINK4_6, **kw):
    return IPv6(src=src, dst=dst, **kw) / UDP(sport=sport, dport=dport) / \
        Raw(PAYLOAD[:n])


def udp4(n=100, sport=4000, dport=40000, src=H4, dst=SINK6_4, **kw):
    return IP(src=src, dst=dst, **kw) / UDP(sport=sport, dport=dport) / \
        Raw(PAYLOAD[:n])


# ---------------------------------------------------------------------------
# Raw packets, byte by byte.


def ip4_packet(src, dst, proto, payload, ttl=64, tos=0, ident=0, df=False,
               mf=False, offset=0, options=b"", total_length=None):
    """IPv4 packet; OFFSET in bytes (a multiple of 8); TOTAL_LENGTH, if
    given, is written instead of the real length (a declared length)."""
    assert len(options) % 4 == 0 and offset % 8 == 0
    ihl = 5 + len(options) // 4
    tl = ihl * 4 + len(payload) if total_length is None else total_length
    ff = (0x4000 if df else 0) | (0x2000 if mf else 0) | (offset >> 3)
    hdr = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, tos, tl, ident, ff, ttl,
                      proto, 0, addr4(src), addr4(dst)) + options
    return with_csum(hdr, 10) + payload


def ip6_packet(src, dst, nh, payload, hlim=64, tc=0, fl=0, plen=None):
    first = (6 << 28) | (tc << 20) | fl
    return struct.pack("!IHBB16s16s", first,
                       len(payload) if plen is None else plen, nh, hlim,
                       addr6(src), addr6(dst)) + payload


def frag6_header(nh, offset, more, ident):
    """IPv6 Fragment header; OFFSET in bytes (a multiple of 8)."""
    assert offset % 8 == 0
    return struct.pack("!BBHI", nh, 0, offset | (1 if more else 0), ident)


def udp_datagram(src, dst, sport, dport, payload, checksum=True):
    """UDP header + PAYLOAD with the checksum of the family of SRC."""
    n = 8 + len(payload)
    u = struct.pack("!HHHH", sport, dport, n, 0) + payload
    if not checksum:
        return u
    c = inet_csum(pseudo(src, dst, 17, n) + u) or 0xFFFF
    return u[:6] + struct.pack("!H", c) + u[8:]


def tcp_segment_bytes(src, dst, sport, dport, seq, ack, flags=0x18,
                      window=29200, payload=b"", options=b""):
    assert len(options) % 4 == 0
    doff = (20 + len(options)) // 4
    t = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, doff << 4, flags,
                    window, 0, 0) + options + payload
    return with_csum(t, 16, pseudo(src, dst, 6, len(t)))


def icmp4_message(type_, code, rest=b"\0\0\0\0", body=b""):
    return with_csum(struct.pack("!BBH", type_, code, 0) + rest + body, 2)


def icmp6_message(src, dst, type_, code, rest=b"\0\0\0\0", body=b""):
    m = struct.pack("!BBH", type_, code, 0) + rest + body
    return with_csum(m, 2, pseudo6(src, dst, 58, len(m)))


# ---------------------------------------------------------------------------
# The translation of a packet quoted in an ICMP error.

ECHO_4TO6 = {8: 128, 0: 129}
ECHO_6TO4 = {128: 8, 129: 0}
IPV6_SKIPPED_EXTHDRS = (0, 43, 60)      # Hop-by-Hop, Routing, Dest. Options


def _l4_for(proto, seg, src, dst, l4len):
    """SEG (a whole transport segment) with the checksum it has over the
    pseudo-header of SRC/DST (L4LEN long), and the ICMP echo type of the
    other family. PROTO is the new protocol (58 or 1 for ICMP)."""
    if proto == 17:
        if seg[6:8] == b"\0\0":
            return seg
        ulen = struct.unpack("!H", seg[4:6])[0]
        c = inet_csum(pseudo(src, dst, 17, ulen) + seg[:6] + b"\0\0"
                      + seg[8:]) or 0xFFFF
        return seg[:6] + struct.pack("!H", c) + seg[8:]
    if proto == 6:
        return with_csum(seg, 16, pseudo(src, dst, 6, l4len))
    if proto == 58:
        seg = bytes([ECHO_4TO6.get(seg[0], seg[0])]) + seg[1:]
        return with_csum(seg, 2, pseudo6(src, dst, 58, l4len))
    if proto == 1:
        seg = bytes([ECHO_6TO4.get(seg[0], seg[0])]) + seg[1:]
        return with_csum(seg, 2)
    return seg


def xlat_inner_4to6(pkt, pool=POOL6):
    """What RFC 7915 4.3 (with 4.1) makes of the whole IPv4 packet PKT as
    the packet in error of an ICMPv4 error: an IPv6 header with the
    declared length translated (Total Length - IHL*4), the TTL and TOS
    kept, ICMP 1 -> 58, addresses mapped with POOL; no options; the
    transport checksum as it is over the new pseudo-header. PKT must be
    whole (the translator updates the checksum incrementally, which gives
    the same value)."""
    ihl = (pkt[0] & 15) * 4
    tos, tl = pkt[1], struct.unpack("!H", pkt[2:4])[0]
    ttl, proto = pkt[8], pkt[9]
    src = embed(str(ipaddress.IPv4Address(pkt[12:16])), pool)
    dst = embed(str(ipaddress.IPv4Address(pkt[16:20])), pool)
    nh = 58 if proto == 1 else proto
    seg = _l4_for(nh, pkt[ihl:], src, dst, len(pkt) - ihl)
    return ip6_packet(src, dst, nh, seg, hlim=ttl, tc=tos, plen=tl - ihl)


def xlat_inner_6to4(pkt, pool=POOL6):
    """What RFC 7915 5.3 (with 5.1) makes of the whole IPv6 packet PKT as
    the packet in error of an ICMPv6 error: an IPv4 header (IHL 5, Total
    Length = Payload Length + 20 minus the skipped extension headers, DF
    and ID 0 above 1260 bytes, else DF clear and an Identification from the
    translator's generator, here 0: check64 adopts the one it got, TTL =
    Hop Limit, TOS = Traffic Class, 58 -> 1), extension headers removed,
    the transport checksum over the new pseudo-header."""
    tc = ((pkt[0] & 15) << 4) | (pkt[1] >> 4)
    plen, nh, hlim = struct.unpack("!HBB", pkt[4:8])
    src = extract(str(ipaddress.IPv6Address(pkt[8:24])), pool)
    dst = extract(str(ipaddress.IPv6Address(pkt[24:40])), pool)
    off = 40
    while nh in IPV6_SKIPPED_EXTHDRS:
        nh, hlen = pkt[off], (pkt[off + 1] + 1) * 8
        off += hlen
    proto = 1 if nh == 58 else nh
    seg = _l4_for(proto, pkt[off:], src, dst, len(pkt) - off)
    tot = plen - (off - 40) + 20
    return ip4_packet(src, dst, proto, seg, ttl=hlim, tos=tc, ident=0,
                      df=tot > 1260, total_length=tot)
