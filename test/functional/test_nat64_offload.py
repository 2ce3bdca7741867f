"""Stateful NAT64 and offload metadata from a virtio guest (a tun device
with IFF_VNET_HDR in xl, as test_offload.py has for SIIT).

A UDP fragmentation offload super-packet (virtio GSO_UDP) stands for a
datagram its sender's IP layer would send as fragments. Segmented before
translation, only its first fragment would carry the ports NAT64 maps;
the others could not be translated and the datagram would be lost. It is
translated once, whole, by the session its ports name, and leaves as the
fragments its segmentation would make (gso_size bytes each), one
Identification for all of them.

An IPv6 BIG TCP super-packet (a Jumbo Payload option, more than 65535
bytes) cannot be one IPv4 packet: its session is made by the
super-packet, then it is segmented in software and each segment
translated through that session. A segment that is dropped after all (no
route, too big for the route) takes back what was made for it: the first
one the super-packet's session, each later one the session it made
again. A flow none of whose packets was translated leaves no session.
"""

import ipaddress
import os
import struct

import pytest

from ternlib import (GSO_TCPV6, GSO_UDP, PAYLOAD, SINK4, SINK4_6,
                     check_checksums, embed, fragment6_parts, inet_csum,
                     inject, ip4_packet, ip6_packet, ip_bytes, ipv4_fields,
                     is_ip4, is_ip6, l4_bytes, l4_payload, pseudo,
                     reassemble, tcp_segment_bytes, udp_datagram, vnet,
                     vnet_tun)
from ternlib.nat64 import (CLIENT, _nat64_module, in_pool4,  # noqa: F401
                           nat, out64, sessions, udp6, wait_all)

DATA = (PAYLOAD * 40)[:3000 - 8]


@pytest.fixture(scope="module")
def ntun(_nat64_module):
    fd = vnet_tun(_nat64_module.xl, "tvn0")
    try:
        yield fd
    finally:
        os.close(fd)


def partial(udp, src, dst):
    """UDP datagram UDP as a CHECKSUM_PARTIAL sender leaves it."""
    ps = inet_csum(pseudo(src, dst, 17, len(udp))) ^ 0xFFFF
    return udp[:6] + struct.pack("!H", ps) + udp[8:]


def fragments4(frames):
    """(Identification, datagram) of IPv4 fragments FRAMES."""
    fields = [ipv4_fields(f) for f in frames]
    assert {f["flags"] & 2 for f in fields} == {0}, "DF set on a fragment"
    ids = {f["id"] for f in fields}
    assert len(ids) == 1, ids
    return ids.pop(), reassemble([(f["offset"], f["flags"] & 1,
                                   ip_bytes(fr)[20:])
                                  for f, fr in zip(fields, frames)])


@pytest.mark.parametrize("csum", ["sender", "partial"])
def test_ufo_6to4_whole_datagram_through_one_session(nat, ntun, csum):
    """6->4: one session (CLIENT#40000), and all three fragments out from
    its pool4 transport address, 1000 bytes each, one Identification;
    the datagram they make has the session's port and a right
    checksum."""
    udp = udp_datagram(CLIENT, SINK4_6, 40000, 4000, DATA)
    if csum == "partial":
        udp = partial(udp, CLIENT, SINK4_6)
    hdr = vnet(GSO_UDP, 1000, (40, 6) if csum == "partial" else None)
    c = nat.counters("n")
    match = is_ip4(dst=SINK4, proto=17)
    with nat.cap4() as cap:
        assert inject(ntun, hdr, ip6_packet(CLIENT, SINK4_6, 17, udp,
                                            hlim=64)) == 0
        frames = wait_all(cap, match, 3)
    c.expect({"xlat-6to4": 1})
    assert len(frames) == 3
    assert [len(ip_bytes(f)) - 20 for f in frames] == [1000] * 3
    src4 = ipv4_fields(frames[0])["src"]
    assert in_pool4(src4)
    assert {ipv4_fields(f)["src"] for f in frames} == {src4}
    _, datagram = fragments4(frames)
    s = sessions(nat, "udp")
    assert len(s) == 1
    assert (s[0]["port6"], s[0]["address4"]) == (40000, src4)
    assert datagram == udp_datagram(src4, SINK4, s[0]["port4"], 4000, DATA)


def test_ufo_4to6_whole_datagram_through_the_session(nat, ntun):
    """4->6: to the session's pool4 transport address, the three
    fragments reach CLIENT#40000 with the IPv4 Identification in their
    Fragment header; the datagram they make has a right checksum."""
    f = out64(nat, udp6())
    src4 = ipv4_fields(f)["src"]
    port4 = struct.unpack("!H", ip_bytes(f)[20:22])[0]
    udp = udp_datagram(SINK4, src4, 4000, port4, DATA)
    pkt = ip4_packet(SINK4, src4, 17, udp, ident=0x2345, ttl=64)
    c = nat.counters("n")
    match = is_ip6(src=SINK4_6, dst=CLIENT)
    with nat.cap6() as cap:
        assert inject(ntun, vnet(GSO_UDP, 1000), pkt) == 0
        frames = wait_all(cap, match, 3)
    c.expect({"xlat-4to6": 1})
    assert len(frames) == 3
    parts = [fragment6_parts(fr) for fr in frames]
    assert {p[1]["id"] for p in parts} == {0x2345}
    assert {p[1]["nh"] for p in parts} == {17}
    assert [len(p[2]) for p in parts] == [1000] * 3
    datagram = reassemble([(p[1]["offset"], p[1]["m"], p[2]) for p in parts])
    assert datagram == udp_datagram(SINK4_6, CLIENT, 4000, 40000, DATA)


BIG = 66000             # TCP payload of the BIG TCP super-packets
ISN = 1000
UNROUTED4 = "192.0.2.99"    # xl has no route to it


def big_syn(dst6, gso_size):
    """An IPv6 BIG TCP super-packet from CLIENT#45000 to DST6#80: a SYN
    with BIG bytes of data, a Jumbo Payload option (Payload Length 0),
    CHECKSUM_PARTIAL; and its virtio header (TCPV6, GSO_SIZE)."""
    data = (PAYLOAD * (BIG // len(PAYLOAD) + 1))[:BIG]
    t = tcp_segment_bytes(CLIENT, dst6, 45000, 80, ISN, 0, flags=0x02,
                          payload=data)
    ps = inet_csum(ipaddress.IPv6Address(CLIENT).packed +
                   ipaddress.IPv6Address(dst6).packed +
                   struct.pack("!IxxxB", len(t), 6)) ^ 0xFFFF
    t = t[:16] + struct.pack("!H", ps) + t[18:]
    hbh = struct.pack("!BBBBI", 6, 0, 0xC2, 4, 8 + len(t))
    pkt = ip6_packet(CLIENT, dst6, 0, hbh + t, plen=0)
    return pkt, vnet(GSO_TCPV6, gso_size, (48, 16), 48 + 20), data


def test_big_tcp_6to4_segments_through_the_session_it_made(nat, ntun):
    """The super-packet's SYN makes one session; its 48 segments (1400
    bytes of data each, the last 200) leave from that session's pool4
    transport address, in sequence, checksums right, the data whole."""
    pkt, hdr, data = big_syn(SINK4_6, 1400)
    c = nat.counters("n")
    match = is_ip4(dst=SINK4, proto=6)
    with nat.cap4() as cap:
        assert inject(ntun, hdr, pkt) == 0
        frames = wait_all(cap, match, 48)
    c.expect({"gso-segmented": 1, "xlat-6to4": 48})
    assert len(frames) == 48
    s = sessions(nat, "tcp")
    assert len(s) == 1 and s[0]["port6"] == 45000
    got = []
    for f in frames:
        check_checksums(f)
        assert ipv4_fields(f)["src"] == s[0]["address4"]
        sport, dport, seq = struct.unpack("!HHI", l4_bytes(f)[:8])
        assert (sport, dport) == (s[0]["port4"], 80)
        got.append((seq, l4_payload(f)))
    got.sort()
    assert [g[0] for g in got] == [ISN + 1400 * i for i in range(48)]
    assert b"".join(g[1] for g in got) == data


@pytest.mark.parametrize("why", ["no-route", "too-big"])
def test_big_tcp_6to4_segments_dropped_leave_no_session(nat, ntun, why):
    """Every segment (16000 bytes of data: 5) dropped after the session
    was made, for want of a route to the IPv4 destination or as too big
    for the route (1500 bytes, DF): each is counted, nothing leaves, and
    no session is left (each segment took back the one made for it)."""
    dst4 = UNROUTED4 if why == "no-route" else SINK4
    pkt, hdr, _ = big_syn(embed(dst4), 16000)
    c = nat.counters("n")
    with nat.cap4() as cap:
        assert inject(ntun, hdr, pkt) == 0
        cap.none(is_ip4(proto=6),
                 proof=lambda: c.expect({"gso-segmented": 1,
                                         "drop-" + why: 5}))
    assert sessions(nat, "tcp") == []
