"""Offload metadata from an untrusted device (issue 10 item 7).

The translator's namespace gets a tun device with IFF_VNET_HDR, whose
writer claims a GSO type and size and CHECKSUM_PARTIAL offsets for each
packet in a struct virtio_net_hdr. The kernel's own checks at injection
(virtio_net_hdr_to_skb) refuse some lies; those that reach Tern must be
dropped and counted (drop-bad-gso), never translated into something the
output path chokes on (skb_warn_bad_offload, a checksum written into the
IPv4 header). Consistent super-packets are translated whole; a UDP
fragmentation offload one is the datagram it stands for, translated once
and sent as the fragments its segmentation would make; BIG TCP
super-packets too long for the other family are segmented in software
and each segment translated. Every test also fails on a kernel WARNING
(conftest's kernel_log_clean).
"""

import errno
import os
import socket
import struct

import pytest

from ternlib import (GSO_ECN, GSO_NONE, GSO_TCPV4, GSO_TCPV6, GSO_UDP,
                     GSO_UDP_L4, H4, H4_6, H6, H6_4, PAYLOAD, SINK4, SINK4_6,
                     SINK6, SINK6_4, any_ip, check_checksums, frag6_header,
                     icmp4_message, icmp6_message, in_netns, inet_csum,
                     inject, ip4_packet, ip6_packet, ip_bytes, is_ip4,
                     is_ip6, none_on, pseudo, sha256, tcp_exchange,
                     tcp_segment_bytes, tx_checksum, udp_datagram, vnet,
                     vnet_tun)

TUN = "tvn0"

KVER = tuple(int(x) for x in os.uname().release.split("-")[0].split(".")[:2])
# 6.12's virtio_net_hdr_to_skb knows UDP_L4 and refuses a checksum start
# inside the minimal IP header; 6.1's does neither.
NEW_VIRTIO = KVER >= (6, 12)


@pytest.fixture(scope="module")
def tun(_xlat_module):
    """A tun device with IFF_VNET_HDR in the translator's namespace: what
    is written to it is received by xl."""
    fd = vnet_tun(_xlat_module.xl, TUN)
    try:
        yield fd
    finally:
        os.close(fd)


# Packets. Addresses are those of the standard topology: 6->4 goes to
# SINK4 (on h4's link), 4->6 to SINK6 (routed to h6); neither answers.

SEQ, ACK = 0x01020304, 0x0A0B0C0D


def partial_tcp(src, dst, payload, pseudo_fn=pseudo):
    """A TCP segment as a CHECKSUM_PARTIAL sender leaves it: the checksum
    field holds the (uncomplemented) pseudo-header sum."""
    t = tcp_segment_bytes(src, dst, 40000, 4000, SEQ, ACK, flags=0x18,
                          payload=payload)
    n = len(t)
    ps = inet_csum(pseudo_fn(src, dst, 6, n)) ^ 0xFFFF
    return t[:16] + struct.pack("!H", ps) + t[18:]


def tcp6(n=3000, frag=None):
    seg = partial_tcp(H6, SINK4_6, (PAYLOAD * (n // len(PAYLOAD) + 1))[:n])
    if frag is not None:
        return ip6_packet(H6, SINK4_6, 44, frag6_header(6, 0, True, frag)
                          + seg)
    return ip6_packet(H6, SINK4_6, 6, seg)


def tcp4(n=3000, mf=False, df=True, ident=0x2345):
    data = (PAYLOAD * (n // len(PAYLOAD) + 1))[:n]
    return ip4_packet(H4, SINK6_4, 6, partial_tcp(H4, SINK6_4, data),
                      df=df, mf=mf, ident=ident)


def udp6(n=1000):
    data = (PAYLOAD * (n // len(PAYLOAD) + 1))[:n]
    return ip6_packet(H6, SINK4_6, 17,
                      udp_datagram(H6, SINK4_6, 40000, 4000, data))


def udp4(n=1000, ident=0x1234):
    data = (PAYLOAD * (n // len(PAYLOAD) + 1))[:n]
    return ip4_packet(H4, SINK6_4, 17,
                      udp_datagram(H4, SINK6_4, 4000, 40000, data),
                      ident=ident)


def echo6(n=1000):
    return ip6_packet(H6, SINK4_6, 58, icmp6_message(
        H6, SINK4_6, 128, 0, b"\x12\x34\x00\x01", PAYLOAD[:n]))


def echo4(n=1000):
    return ip4_packet(H4, SINK6_4, 1, icmp4_message(
        8, 0, b"\x12\x34\x00\x01", PAYLOAD[:n]))


def err4(seed=None, n=500):
    """Port Unreachable from H4 about a UDP datagram SINK6_4 sent it: N
    bytes of its payload quoted. SEED: the checksum field as a
    CHECKSUM_PARTIAL sender leaves it (None: the right checksum)."""
    inner = ip4_packet(SINK6_4, H4, 17, udp_datagram(
        SINK6_4, H4, 40000, 4000, (PAYLOAD * (n // len(PAYLOAD) + 1))[:n]))
    m = icmp4_message(3, 3, b"\0\0\0\0", inner)
    if seed is not None:
        m = m[:2] + struct.pack("!H", seed) + m[4:]
    return ip4_packet(H4, SINK6_4, 1, m)


def err6(seed=None, n=500):
    """The same from H6 about a datagram SINK4_6 sent it (ICMPv6)."""
    inner = ip6_packet(SINK4_6, H6, 17, udp_datagram(
        SINK4_6, H6, 4000, 40000, (PAYLOAD * (n // len(PAYLOAD) + 1))[:n]))
    m = icmp6_message(H6, SINK4_6, 1, 4, b"\0\0\0\0", inner)
    if seed is not None:
        m = m[:2] + struct.pack("!H", seed) + m[4:]
    return ip6_packet(H6, SINK4_6, 58, m)


def err6_seed(n=500):
    """What a CHECKSUM_PARTIAL sender leaves in err6()'s field: the
    uncomplemented sum of its pseudo-header."""
    return inet_csum(pseudo(H6, SINK4_6, 58, len(err6(n=n)) - 40)) ^ 0xFFFF


# Inconsistent metadata that the kernel lets through to Tern (6.1 and
# 6.12 unless said): (name, direction, virtio header, packet).
BAD = [
    ("tcp6_gso_on_icmpv6_partial", "6to4",
     vnet(GSO_TCPV6, 100, (40, 16)), echo6()),
    ("tcp6_gso_on_udp", "6to4", vnet(GSO_TCPV6, 100, (40, 16)), udp6()),
    ("tcp4_gso_on_ipv6_tcp", "6to4", vnet(GSO_TCPV4, 100), tcp6()),
    ("tcp6_gso_on_a_fragment", "6to4", vnet(GSO_TCPV6, 100, (48, 16)),
     tcp6(frag=0x777)),
    ("tcp6_gso_csum_start_off_the_header", "6to4",
     vnet(GSO_TCPV6, 100, (44, 16)), tcp6()),
    ("udp6_partial_start_in_the_ipv6_header", "6to4",
     vnet(csum=(24, 6)), udp6()),
    ("tcp4_gso_on_icmp_partial", "4to6", vnet(GSO_TCPV4, 100, (20, 16)),
     echo4()),
    ("tcp4_gso_on_udp", "4to6", vnet(GSO_TCPV4 | GSO_ECN, 100, (20, 16)),
     udp4()),
    ("tcp4_gso_on_a_fragment", "4to6", vnet(GSO_TCPV4, 100, (20, 16)),
     tcp4(mf=True, df=False)),
    ("udp4_partial_at_the_tcp_offset", "4to6", vnet(csum=(20, 16)),
     udp4()),
    ("udp_fragmentation_offload_on_tcp", "4to6", vnet(GSO_UDP, 1000),
     tcp4()),
    # A writer's (tun: SKB_GSO_DODGY) TCP super-packet whose checksum is
    # not CHECKSUM_PARTIAL: segmentation would write each segment a valid
    # checksum, whatever the field held (here the pseudo-header sum,
    # wrong as a full one).
    ("tcp6_gso_checksum_not_partial", "6to4", vnet(GSO_TCPV6, 100), tcp6()),
    ("tcp4_gso_checksum_not_partial", "4to6", vnet(GSO_TCPV4, 100), tcp4()),
    # An error would be rebuilt whole, with a checksum of its own.
    ("tcp4_gso_on_an_icmpv6_error", "6to4", vnet(GSO_TCPV4, 100, (40, 16)),
     err6()),
]
# What only one of the kernels lets through.
if NEW_VIRTIO:
    BAD.append(("udp_l4_gso_on_tcp", "4to6",
                vnet(GSO_UDP_L4, 100, (20, 6)), tcp4()))
else:
    BAD.append(("udp4_partial_start_in_the_ipv4_header", "4to6",
                vnet(csum=(10, 6)), udp4()))
    BAD.append(("tcp6_gso_on_an_icmp_error", "4to6",
                vnet(GSO_TCPV6, 100, (20, 16)), err4()))

# What the kernel itself refuses at injection (write() fails with EINVAL).
REFUSED = [
    ("gso_size_0", "4to6", vnet(GSO_TCPV4, 0, (20, 16)), tcp4()),
    ("tcp_gso_csum_offset_not_tcp", "4to6", vnet(GSO_TCPV4, 100, (20, 6)),
     tcp4()),
    ("partial_csum_past_the_end", "6to4", vnet(csum=(40, 2000)), udp6()),
]
if NEW_VIRTIO:
    REFUSED.append(("udp4_partial_start_in_the_ipv4_header", "4to6",
                    vnet(csum=(10, 6)), udp4()))
    REFUSED.append(("tcp6_gso_on_an_icmp_error", "4to6",
                    vnet(GSO_TCPV6, 100, (20, 16)), err4()))
else:
    REFUSED.append(("udp_l4_gso", "4to6", vnet(GSO_UDP_L4, 100, (20, 6)),
                    udp4()))


def _control(xlat, direction):
    """A plain packet through the tun device, translated: the proof that
    what was written before it has been handled."""
    if direction == "6to4":
        return udp6(40), "xlat-6to4", xlat.cap4, is_ip4(src=H6_4, dst=SINK4)
    return udp4(40), "xlat-4to6", xlat.cap6, is_ip6(src=H4_6, dst=SINK6)


@pytest.mark.parametrize("name,direction,hdr,pkt", BAD,
                         ids=[c[0] for c in BAD])
def test_inconsistent_metadata_dropped(xlat, tun, name, direction, hdr,
                                       pkt):
    ctl, counter, capture, match = _control(xlat, direction)
    c = xlat.counters()
    with capture() as cap:
        assert inject(tun, hdr, pkt) == 0, "the kernel refused it"

        def proof():
            c.expect({"drop-bad-gso": 1})
            assert inject(tun, vnet(), ctl) == 0
            cap.wait(match)
            c.expect({"drop-bad-gso": 1, counter: 1})
        # Nothing but the control packet (40 bytes of UDP payload), not
        # even a mangled frame.
        ctl_len = len(ctl) + (-20 if direction == "6to4" else 20)
        none_on(proof, (cap, lambda f: any_ip(f) and not (
            match(f) and len(ip_bytes(f)) == ctl_len)))


@pytest.mark.parametrize("name,direction,hdr,pkt", REFUSED,
                         ids=[c[0] for c in REFUSED])
def test_refused_by_the_kernel(xlat, tun, name, direction, hdr, pkt):
    ctl, counter, capture, match = _control(xlat, direction)
    c = xlat.counters()
    with capture() as cap:
        assert inject(tun, hdr, pkt) == errno.EINVAL
        assert inject(tun, vnet(), ctl) == 0
        cap.one(match)
    c.expect({counter: 1})


@pytest.mark.parametrize("seed", ["right", "wrong"])
@pytest.mark.parametrize("direction", ["6to4", "4to6"])
def test_partial_icmp_error_checked_as_sent(xlat, tun, direction, seed):
    """An ICMP error whose checksum the device is to complete
    (CHECKSUM_PARTIAL) is checked as the device would have sent it: with
    the right seed in its field (ICMPv4: 0; ICMPv6: its pseudo-header's
    sum) it is translated; with a wrong one it is corrupt, dropped
    (drop-bad-checksum), not rebuilt into a valid error."""
    if direction == "6to4":
        right = err6_seed()
        pkt = err6(right if seed == "right" else right ^ 0x0101)
        hdr, capture = vnet(csum=(40, 2)), xlat.cap4
        match = is_ip4(src=H6_4, dst=SINK4, proto=1)
        counter = "xlat-icmp-error-6to4"
    else:
        pkt = err4(0 if seed == "right" else 0x0101)
        hdr, capture = vnet(csum=(20, 2)), xlat.cap6
        match = is_ip6(src=H4_6, dst=SINK6)
        counter = "xlat-icmp-error-4to6"
    c = xlat.counters()
    with capture() as cap:
        assert inject(tun, hdr, pkt) == 0
        if seed == "wrong":
            cap.none(match,
                     proof=lambda: c.expect({"drop-bad-checksum": 1}))
            c.expect({"drop-bad-checksum": 1})
            return
        f = cap.one(match)
    c.expect({counter: 1})
    check_checksums(f)
    raw = ip_bytes(f)
    l4 = raw[20:] if direction == "6to4" else raw[40:]
    assert l4[:2] == (b"\x03\x03" if direction == "6to4" else b"\x01\x04")
    # The quote: the translated datagram's payload, intact.
    assert l4.endswith((PAYLOAD * (500 // len(PAYLOAD) + 1))[:500])


def _tcp_segments(frames, v6):
    """(seq, flags, payload) of each captured TCP segment, by seq."""
    out = []
    for f in frames:
        raw = ip_bytes(f)
        l4 = raw[40:] if v6 else raw[20:]
        seq, = struct.unpack("!I", l4[4:8])
        out.append((seq, l4[13], l4[(l4[12] >> 4) * 4:]))
    return sorted(out)


@pytest.mark.parametrize("direction", ["6to4", "4to6"])
def test_consistent_tcp_superpacket_translated_whole(xlat, tun, direction):
    """A TCP super-packet of 3 segments of 1000 bytes, CHECKSUM_PARTIAL
    as virtio sends it: translated once (one counter), segmented by xl's
    output device; the far host gets the 3 segments, checksums right."""
    data = (PAYLOAD * 2)[:3000]
    if direction == "6to4":
        pkt, hdr = tcp6(3000), vnet(GSO_TCPV6, 1000, (40, 16))
        counter, capture = "xlat-6to4", xlat.cap4
        match = is_ip4(src=H6_4, dst=SINK4, proto=6)
    else:
        pkt, hdr = tcp4(3000), vnet(GSO_TCPV4, 1000, (20, 16))
        counter, capture = "xlat-4to6", xlat.cap6
        match = is_ip6(src=H4_6, dst=SINK6, nh=6)
    c = xlat.counters()
    with capture() as cap:
        assert inject(tun, hdr, pkt) == 0
        frames = cap.wait(match, 3)
        cap.settle(0.3)
        frames = cap.matching(match)
    c.expect({counter: 1})
    assert len(frames) == 3
    for f in frames:
        check_checksums(f)
        raw = ip_bytes(f)
        if direction == "6to4":
            ver, tot, ident, ff, ttl = struct.unpack("!BxHHHB", raw[:9])
            assert (ver, tot, ff, ttl) == (0x45, 1040, 0, 63)
        else:
            plen, nh, hlim = struct.unpack("!HBB", raw[4:8])
            assert (plen, nh, hlim) == (1020, 6, 63)
    if direction == "6to4":
        ids = sorted(struct.unpack("!H", ip_bytes(f)[4:6])[0]
                     for f in frames)
        assert ids[1] == (ids[0] + 1) & 0xFFFF and \
            ids[2] == (ids[0] + 2) & 0xFFFF, ids
    segs = _tcp_segments(frames, direction == "4to6")
    assert [s[0] for s in segs] == [SEQ, SEQ + 1000, SEQ + 2000]
    # PSH only on the last segment, ACK on all.
    assert [s[1] for s in segs] == [0x10, 0x10, 0x18]
    assert b"".join(s[2] for s in segs) == data


def test_gso_size_above_payload_is_a_plain_packet(xlat, tun):
    """virtio_net_hdr_to_skb makes a 'super-packet' of one segment a plain
    packet: translated as such."""
    c = xlat.counters()
    with xlat.cap4() as cap:
        assert inject(tun, vnet(GSO_TCPV6, 4000, (40, 16)), tcp6(1000)) == 0
        f = cap.one(is_ip4(src=H6_4, dst=SINK4, proto=6))
    c.expect({"xlat-6to4": 1})
    check_checksums(f)
    assert len(ip_bytes(f)) == 1040


def _frag_fields(f, v6):
    raw = ip_bytes(f)
    if v6:
        assert raw[6] == 44, "no Fragment header"
        nh, _, fo, ident = struct.unpack("!BBHI", raw[40:48])
        return ident, fo & ~7, fo & 1, nh, raw[48:]
    ident, ff = struct.unpack("!HH", raw[4:8])
    assert not ff & 0x4000, "DF set on a fragment"
    return ident, (ff & 0x1FFF) * 8, (ff >> 13) & 1, raw[9], raw[20:]


def ufo_udp(src, dst, sport, dport, data, csum):
    """A UDP datagram whose checksum is the sender's (CSUM "sender"), left
    to the device ("partial": the uncomplemented pseudo-header sum) or
    wrong ("corrupt")."""
    u = udp_datagram(src, dst, sport, dport, data)
    if csum == "partial":
        ps = inet_csum(pseudo(src, dst, 17, len(u))) ^ 0xFFFF
        return u[:6] + struct.pack("!H", ps) + u[8:]
    if csum == "corrupt":
        return u[:6] + struct.pack("!H", struct.unpack("!H", u[6:8])[0]
                                   ^ 0x0101) + u[8:]
    return u


def ufo_fragments(xlat, tun, direction, csum, n, gso_size=1000):
    """Injects a UDP fragmentation offload super-packet of N data bytes
    (gso_size GSO_SIZE) in DIRECTION with checksum CSUM (ufo_udp()); returns
    the translated datagram as the checksum-right bytes it should be, the
    fragments' fields (_frag_fields()) in offset order, and the counter
    deltas' checker."""
    data = (PAYLOAD * (n // len(PAYLOAD) + 1))[:n]
    if direction == "6to4":
        l3, counter, capture = 40, "xlat-6to4", xlat.cap4
        pkt = ip6_packet(H6, SINK4_6, 17, ufo_udp(H6, SINK4_6, 40000, 4000,
                                                   data, csum))
        match = is_ip4(src=H6_4, dst=SINK4, proto=17)
        want = udp_datagram(H6_4, SINK4, 40000, 4000, data)
    else:
        l3, counter, capture = 20, "xlat-4to6", xlat.cap6
        pkt = ip4_packet(H4, SINK6_4, 17, ufo_udp(H4, SINK6_4, 4000, 40000,
                                                  data, csum),
                         ident=0x1234, df=False)
        match = is_ip6(src=H4_6, dst=SINK6)
        want = udp_datagram(H4_6, SINK6, 4000, 40000, data)
    count = -(-(n + 8) // gso_size)
    hdr = vnet(GSO_UDP, gso_size, (l3, 6) if csum == "partial" else None)
    c = xlat.counters()
    with capture() as cap:
        assert inject(tun, hdr, pkt) == 0
        cap.wait(match, count)
        cap.settle(0.3)
        frames = cap.matching(match)
    c.expect({counter: 1})
    assert len(frames) == count
    parts = sorted((_frag_fields(f, direction == "4to6") for f in frames),
                   key=lambda p: p[1])
    return want, parts


@pytest.mark.parametrize("csum", ["sender", "partial"])
@pytest.mark.parametrize("direction", ["6to4", "4to6"])
def test_udp_fragmentation_offload_translated_whole(xlat, tun, direction,
                                                    csum):
    """UDP fragmentation offload (virtio GSO_UDP): the super-packet (a
    3000-byte datagram, gso_size 1000) is the datagram the sender's IP
    layer would send as fragments of 1000 bytes. It is translated once,
    whole (counted once, not segmented), and leaves as those fragments:
    3 fragments with one Identification (4->6: the IPv4 one), offsets 0,
    1000, 2000, and the datagram's checksum right for the new family,
    whether the sender wrote it or left it to the device."""
    want, parts = ufo_fragments(xlat, tun, direction, csum, 3000 - 8)
    assert [p[1] for p in parts] == [0, 1000, 2000]
    assert [p[2] for p in parts] == [1, 1, 0]
    assert [p[3] for p in parts] == [17, 17, 17]
    assert [len(p[4]) for p in parts] == [1000, 1000, 1000]
    assert len({p[0] for p in parts}) == 1
    if direction == "4to6":
        assert parts[0][0] == 0x1234
    assert b"".join(p[4] for p in parts) == want


@pytest.mark.parametrize("direction", ["6to4", "4to6"])
def test_udp_fragmentation_offload_corrupt_checksum_kept(xlat, tun,
                                                         direction):
    """A UFO datagram with a wrong checksum the sender wrote leaves with a
    wrong one: translated whole, its checksum is updated, never computed
    (segmenting would have computed it over the data)."""
    want, parts = ufo_fragments(xlat, tun, direction, "corrupt", 3000 - 8)
    got = b"".join(p[4] for p in parts)
    assert [p[1] for p in parts] == [0, 1000, 2000]
    assert got[:6] == want[:6] and got[8:] == want[8:]
    assert got[6:8] != want[6:8]


@pytest.mark.parametrize("direction", ["6to4", "4to6"])
def test_udp_fragmentation_offload_one_segment_not_fragmented(xlat, tun,
                                                              direction):
    """A UFO super-packet no longer than gso_size is a datagram that was
    never to be fragmented: it leaves whole, as one packet (4->6: no
    Fragment header; 6->4: not a fragment)."""
    data = PAYLOAD[:500]
    if direction == "6to4":
        pkt = ip6_packet(H6, SINK4_6, 17, udp_datagram(H6, SINK4_6, 40000,
                                                       4000, data))
        capture, match = xlat.cap4, is_ip4(src=H6_4, dst=SINK4)
    else:
        pkt = ip4_packet(H4, SINK6_4, 17, udp_datagram(H4, SINK6_4, 4000,
                                                       40000, data),
                         df=False)
        capture, match = xlat.cap6, is_ip6(src=H4_6, dst=SINK6)
    with capture() as cap:
        assert inject(tun, vnet(GSO_UDP, 1000), pkt) == 0
        frame = cap.one(match)
    raw = ip_bytes(frame)
    if direction == "6to4":
        assert struct.unpack("!H", raw[6:8])[0] & 0x3FFF == 0
        assert raw[20:] == udp_datagram(H6_4, SINK4, 40000, 4000, data)
    else:
        assert raw[6] == 17
        assert raw[40:] == udp_datagram(H4_6, SINK6, 4000, 40000, data)


BIG = 185000            # BIG TCP: super-packets up to this size
RTM_NEWLINK, NLMSG_ERROR, NLM_F_REQUEST, NLM_F_ACK = 16, 2, 1, 4
IFLA_GSO_MAX_SIZE, IFLA_GSO_IPV4_MAX_SIZE = 41, 63


def set_gso_max_size(ns, dev, size, ipv4=False):
    """`ip link set DEV gso_max_size SIZE` (or gso_ipv4_max_size, which
    Debian 12's iproute2 does not know) over rtnetlink."""
    with in_netns(ns.name):
        s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0)
        index = socket.if_nametoindex(dev)
    try:
        attr = struct.pack("HHI", 8, IFLA_GSO_IPV4_MAX_SIZE if ipv4
                           else IFLA_GSO_MAX_SIZE, size)
        body = struct.pack("BxHiII", 0, 0, index, 0, 0) + attr
        s.send(struct.pack("IHHII", 16 + len(body), RTM_NEWLINK,
                           NLM_F_REQUEST | NLM_F_ACK, 1, 0) + body)
        reply = s.recv(4096)
        kind, = struct.unpack("H", reply[4:6])
        err, = struct.unpack("i", reply[16:20])
        assert kind == NLMSG_ERROR and err == 0, (kind, err)
    finally:
        s.close()


@pytest.mark.parametrize("direction", ["6to4"] + (
    ["4to6"] if KVER >= (6, 3) else []))     # IPv4 BIG TCP came in 6.3
def test_big_tcp_superpackets_segmented(xlat, direction):
    """BIG TCP: the sender's device takes super-packets of up to 185000
    bytes (an IPv6 one carries a Jumbo Payload option, an IPv4 one a
    Total Length of 0). Their translation cannot say its length in the
    other family's header (IPv4 Total Length, IPv6 Payload Length, both
    16 bits): Tern segments them in software and translates the segments.
    The data arrives intact, some super-packets took that path, and
    nothing is dropped (before: dropped as too big, or a truncated IPv6
    Payload Length)."""
    if direction == "6to4":
        sender, ipv4 = xlat.h6, False
        args = (xlat.h4, socket.AF_INET, H4, xlat.h6, socket.AF_INET6, H4_6)
        counter = "xlat-6to4"
    else:
        sender, ipv4 = xlat.h4, True
        args = (xlat.h6, socket.AF_INET6, H6, xlat.h4, socket.AF_INET, H6_4)
        counter = "xlat-4to6"
    data = os.urandom(8 << 20)
    set_gso_max_size(sender, "eth0", BIG)
    if ipv4:
        set_gso_max_size(sender, "eth0", BIG, ipv4=True)
    # The stack sizes super-packets from its pacing rate, low under
    # emulation: ask for at least 100 segments (about 145000 bytes).
    sender.sysctl({"net/ipv4/tcp_min_tso_segs": 100})
    # xl's egress keeps super-packets whole (TSO on, BIG TCP): what Tern
    # sends is what the receiver gets, Payload Length included.
    egress = "v4" if direction == "6to4" else "v6"
    tx_checksum(xlat.xl, egress, True)
    if egress == "v6":
        set_gso_max_size(xlat.xl, egress, BIG)
    try:
        c = xlat.counters()
        got, back = tcp_exchange(*args, data, b"done", timeout=90)
        d = c.delta()
    finally:
        sender.sysctl({"net/ipv4/tcp_min_tso_segs": 2})
        tx_checksum(xlat.xl, egress, False)
        if egress == "v6":
            set_gso_max_size(xlat.xl, egress, 65536)
        set_gso_max_size(sender, "eth0", 65536)
        if ipv4:
            set_gso_max_size(sender, "eth0", 65536, ipv4=True)
    print(d)
    assert sha256(got) == sha256(data) and back == b"done"
    drops = {k: v for k, v in d.items() if k.startswith("drop-")}
    assert not drops, d
    assert d.get("gso-segmented", 0) > 0, d
    # A segmented super-packet carried more than 65535 bytes of TCP
    # payload: at least 46 segments of at most 1440 bytes.
    assert d[counter] >= 46 * d["gso-segmented"], d
