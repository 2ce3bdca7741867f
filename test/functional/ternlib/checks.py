"""Checks of the frames the translator sends, from the bytes on the wire.

ip_bytes and the *_fields readers take a captured frame apart without
trusting scapy's parsing; check_checksums verifies the IPv4 header and
transport checksums (by summing and through scapy); assert_ipv4/6 and
assert_frame4/6 assert a translated frame's header fields, its Ethernet
addresses (xl to h4 or h6) and its checksums; fragment6_parts and
reassemble take IPv6 fragments apart and put them back together.
"""

import ipaddress
import struct

from scapy.layers.inet import IP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Ether

from .names import H4_MAC, H6_MAC, XL4_MAC, XL6_MAC
from .packets import inet_csum


def ip_bytes(frame):
    """The IP packet of FRAME, without Ethernet padding."""
    raw = bytes(frame[Ether].payload)
    if raw[0] >> 4 == 4:
        return raw[:struct.unpack("!H", raw[2:4])[0]]
    return raw[:40 + struct.unpack("!H", raw[4:6])[0]]


def l4_bytes(frame):
    """The transport header and payload of FRAME (no extension headers)."""
    raw = ip_bytes(frame)
    if raw[0] >> 4 == 4:
        return raw[(raw[0] & 15) * 4:]
    return raw[40:]


def l4_payload(frame):
    """What follows the UDP/TCP/ICMP header of FRAME."""
    raw = ip_bytes(frame)
    if raw[0] >> 4 == 4:
        proto, l4 = raw[9], raw[(raw[0] & 15) * 4:]
    else:
        proto, l4 = raw[6], raw[40:]
    if proto == 6:
        return l4[(l4[12] >> 4) * 4:]
    return l4[8:]


def check_checksums(frame):
    """Asserts the IPv4 header checksum and the L4 checksum are valid.

    Checked twice: by summing the bytes on the wire (RFC 1071, with the
    pseudo-header), and by letting scapy recompute the field.
    """
    raw = ip_bytes(frame)
    if raw[0] >> 4 == 4:
        ihl = (raw[0] & 15) * 4
        assert inet_csum(raw[:ihl]) == 0, "bad IPv4 header checksum"
        proto, l4 = raw[9], raw[ihl:]
        pseudo = raw[12:20] + struct.pack("!BBH", 0, proto, len(l4))
    else:
        # Translated packets carry no extension headers.
        proto, l4 = raw[6], raw[40:]
        pseudo = raw[8:40] + struct.pack("!IxxxB", len(l4), proto)
    if proto == 1:
        assert inet_csum(l4) == 0, "bad ICMP checksum"
    elif proto in (6, 17, 58):
        if proto == 17:
            assert l4[6:8] != b"\0\0", "UDP checksum is zero"
        assert inet_csum(pseudo + l4) == 0, "bad L4 checksum (proto %d)" % proto
    # scapy's own recomputation must give the same values.
    cls = IP if raw[0] >> 4 == 4 else IPv6
    pkt = cls(raw)
    again = cls(raw)
    if cls is IP:
        del again.chksum
    layer = again.payload
    for field in ("chksum", "cksum"):
        if field in layer.fields:
            delattr(layer, field)
    again = cls(bytes(again))
    if cls is IP:
        assert again.chksum == pkt.chksum, "scapy: IPv4 header checksum"
    for field in ("chksum", "cksum"):
        if field in pkt.payload.fields:
            assert getattr(again.payload, field) == \
                getattr(pkt.payload, field), "scapy: L4 %s" % field


def assert_ipv4(f, **want):
    ip = f[IP]
    got = {"version": ip.version, "ihl": ip.ihl, "tos": ip.tos,
           "len": ip.len, "flags": int(ip.flags), "frag": ip.frag,
           "ttl": ip.ttl, "proto": ip.proto, "src": ip.src, "dst": ip.dst}
    want = dict({"version": 4, "ihl": 5, "flags": 0, "frag": 0}, **want)
    assert {k: got[k] for k in want} == want
    assert f[Ether].src == XL4_MAC and f[Ether].dst == H4_MAC
    check_checksums(f)


def assert_ipv6(f, **want):
    ip = f[IPv6]
    got = {"version": ip.version, "tc": ip.tc, "fl": ip.fl, "plen": ip.plen,
           "nh": ip.nh, "hlim": ip.hlim, "src": ip.src, "dst": ip.dst}
    want = dict({"version": 6, "fl": 0}, **want)
    assert {k: got[k] for k in want} == want
    assert f[Ether].src == XL6_MAC and f[Ether].dst == H6_MAC
    check_checksums(f)


def ipv6_fields(frame):
    """The IPv6 header of FRAME as a dict (from the bytes on the wire)."""
    raw = ip_bytes(frame)
    first = struct.unpack("!I", raw[:4])[0]
    return {"version": first >> 28, "tc": (first >> 20) & 0xFF,
            "fl": first & 0xFFFFF, "plen": struct.unpack("!H", raw[4:6])[0],
            "nh": raw[6], "hlim": raw[7],
            "src": str(ipaddress.IPv6Address(raw[8:24])),
            "dst": str(ipaddress.IPv6Address(raw[24:40]))}


def ipv4_fields(frame):
    """The IPv4 header of FRAME as a dict; "offset" in bytes, "flags" as
    the 3-bit field (DF 2, MF 1)."""
    raw = ip_bytes(frame)
    ff = struct.unpack("!H", raw[6:8])[0]
    return {"version": raw[0] >> 4, "ihl": raw[0] & 15, "tos": raw[1],
            "len": struct.unpack("!H", raw[2:4])[0],
            "id": struct.unpack("!H", raw[4:6])[0], "flags": ff >> 13,
            "offset": (ff & 0x1FFF) * 8, "ttl": raw[8], "proto": raw[9],
            "src": str(ipaddress.IPv4Address(raw[12:16])),
            "dst": str(ipaddress.IPv4Address(raw[16:20]))}


def _frame_from_xl(frame, to_h6):
    e = frame[Ether]
    assert (e.src, e.dst) == ((XL6_MAC, H6_MAC) if to_h6
                              else (XL4_MAC, H4_MAC)), \
        "frame %s -> %s" % (e.src, e.dst)


def assert_frame6(frame, **want):
    """FRAME, sent by the translator to h6, has the IPv6 header fields WANT
    (version 6 and flow label 0 unless given); if it carries ICMPv6 (no
    extension header), its checksum is valid. Returns the IPv6 packet."""
    _frame_from_xl(frame, True)
    got = ipv6_fields(frame)
    want = dict({"version": 6, "fl": 0}, **want)
    assert {k: got[k] for k in want} == want
    raw = ip_bytes(frame)
    assert len(raw) == 40 + got["plen"]
    if got["nh"] == 58:
        assert inet_csum(raw[8:40] + struct.pack(
            "!IxxxB", got["plen"], 58) + raw[40:]) == 0, "bad ICMPv6 checksum"
    return raw


def assert_frame4(frame, **want):
    """FRAME, sent by the translator to h4, has the IPv4 header fields WANT
    (version 4 and IHL 5 unless given) and a valid header checksum; an
    unfragmented ICMP message has a valid checksum. Returns the packet."""
    _frame_from_xl(frame, False)
    got = ipv4_fields(frame)
    want = dict({"version": 4, "ihl": 5}, **want)
    assert {k: got[k] for k in want} == want
    raw = ip_bytes(frame)
    ihl = got["ihl"] * 4
    assert inet_csum(raw[:ihl]) == 0, "bad IPv4 header checksum"
    if got["proto"] == 1 and got["offset"] == 0 and not got["flags"] & 1:
        assert inet_csum(raw[ihl:]) == 0, "bad ICMP checksum"
    return raw


def fragment6_parts(frame):
    """(IPv6 fields, Fragment header dict, fragment data) of FRAME, whose
    IPv6 header is followed directly by a Fragment header."""
    f = ipv6_fields(frame)
    raw = ip_bytes(frame)
    assert f["nh"] == 44, "no Fragment header: next header %d" % f["nh"]
    nh, res, om, ident = struct.unpack("!BBHI", raw[40:48])
    return f, {"nh": nh, "res": res, "offset": om & 0xFFF8,
               "res2": (om >> 1) & 3, "m": om & 1, "id": ident}, raw[48:]


def reassemble(parts):
    """PARTS: [(offset, more, data)], in any order. Asserts they cover one
    datagram without holes or overlaps, the last one with more == 0 and
    the others with more == 1; returns the datagram."""
    parts = sorted(parts)
    data = b""
    for i, (off, more, chunk) in enumerate(parts):
        assert off == len(data), "fragment at %d, expected %d (offsets %s)" \
            % (off, len(data), [p[0] for p in parts])
        last = i == len(parts) - 1
        assert more == (0 if last else 1), \
            "fragment at %d: more %d" % (off, more)
        if not last:
            assert len(chunk) % 8 == 0
        data += chunk
    return data
