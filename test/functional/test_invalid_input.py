"""Packets the randomized comparison with Jool 4.1.9 (make compare-jool)
found Tern translating where no router may: sources and destinations that
are the translator's own or its subnet's broadcast (RFC 1812 5.3.7), ICMPv4
errors with an unexpired source route (RFC 7915 4.1), and packets ending
inside their TCP header (RFC 1858).

Each refusal is paired with the same packet made right, which is
translated.
"""

import time

import pytest
from scapy.layers.inet import IP

from ternlib import (H4, H6, PAYLOAD, SINK4, SINK4_6, SINK6, SINK6_4, TIMEOUT,
                     XL4, addr4, embed, frag6_header, icmp4_message, ip4_packet,
                     ip6_packet, is_ip4, is_ip6, none_on, pseudo,
                     tcp_segment_bytes, udp_datagram, untranslated46,
                     untranslated64, with_csum, xlat46, xlat64)

BCAST4 = "203.0.113.255"    # the broadcast address of the IPv4 link (/24)
REMOTE4 = "203.0.113.50"


def udp4(src=H4, dst=SINK6_4):
    return ip4_packet(src, dst, 17, udp_datagram(src, dst, 4100, 41000,
                                                 PAYLOAD[:24]))


def udp6(src=H6, dst=SINK4_6):
    return ip6_packet(src, dst, 17, udp_datagram(src, dst, 4100, 41000,
                                                 PAYLOAD[:24]))


def translated46(topo, pkt, counter="xlat-4to6"):
    c = topo.counters()
    f = xlat46(topo, pkt, is_ip6(dst=SINK6))
    c.expect({counter: 1})
    return f


def translated64(topo, pkt, counter="xlat-6to4"):
    c = topo.counters()
    f = xlat64(topo, pkt, is_ip4(dst=SINK4))
    c.expect({counter: 1})
    return f


def refused46(topo, pkt, counter):
    """PKT from h4 is not translated: nothing reaches h6; COUNTER moves."""
    untranslated46(topo, topo.counters(), pkt, {counter: 1})


# What the host's own answer to a martian it was handed may move (its ICMP
# error to itself over lo, say): packets of the host, passed untranslated.
HOST_ANSWERS = {"pass-local", "pass-otherhost"}


def left_to_host46(topo, pkt, counter):
    """PKT from h4 is passed to the host untranslated (COUNTER, exactly
    once): nothing reaches h6. The host's own answer to it, if any, is
    passed too, and counted apart."""
    c = topo.counters()

    def proof():
        deadline = time.monotonic() + TIMEOUT
        d = c.delta()
        while d.get(counter, 0) < 1 and time.monotonic() < deadline:
            time.sleep(0.1)
            d = c.delta()
        assert d.get(counter, 0) == 1, d
        assert set(d) - {counter} <= HOST_ANSWERS, d
        assert all(d[k] == 1 for k in set(d) & HOST_ANSWERS), d

    with topo.cap6() as cap6:
        topo.send4(pkt)
        none_on(proof, (cap6, is_ip6(dst=SINK6)))


def refused64(topo, pkt, counter):
    untranslated64(topo, topo.counters(), pkt, {counter: 1})


# --- The translator's own addresses and its subnet's broadcast ---------------


@pytest.mark.parametrize("src", [XL4, BCAST4])
def test_source_of_the_host_not_translated_4to6(xlat, src):
    """A packet "from" the translator's address or the link's broadcast is
    a martian: left to the host, which drops it (RFC 1812 5.3.7)."""
    translated46(xlat, udp4())
    left_to_host46(xlat, udp4(src=src), "pass-special4")


def test_destination_subnet_broadcast_not_translated_4to6(xlat):
    translated46(xlat, udp4())
    left_to_host46(xlat, udp4(dst=BCAST4), "pass-special4")


@pytest.mark.parametrize("src4", [XL4, BCAST4])
def test_pool6_source_of_the_host_dropped_6to4(xlat, src4):
    """An IPv6 source whose IPv4 form is the translator's address or the
    IPv4 link's broadcast would reach the IPv4 side as a martian."""
    translated64(xlat, udp6())
    refused64(xlat, udp6(src=embed(src4)), "drop-special4")


# --- ICMPv4 errors with an unexpired source route -----------------------------


def lsrr(route):
    """A Loose Source Route option with one address left, padded."""
    return b"\x83\x07\x04" + addr4(route) + b"\x00"


def err4(options=b""):
    """ICMPv4 Port Unreachable h4 -> SINK6_4 quoting SINK6_4 -> REMOTE4."""
    inner = ip4_packet(SINK6_4, REMOTE4, 17,
                       udp_datagram(SINK6_4, REMOTE4, 40000, 4000,
                                    PAYLOAD[:32]), ttl=40)
    return ip4_packet(H4, SINK6_4, 1, icmp4_message(3, 3, b"\0" * 4, inner),
                      options=options)


def test_icmpv4_error_with_source_route_dropped(xlat):
    """RFC 7915 4.1: MUST drop; no error is sent about an error."""
    translated46(xlat, err4(), "xlat-icmp-error-4to6")
    c = xlat.counters()
    with xlat.cap6() as cap6, xlat.cap4() as cap4:
        xlat.send4(err4(options=lsrr("198.51.100.7")))
        none_on(lambda: c.expect({"drop-srcroute": 1}),
                (cap6, is_ip6(dst=SINK6)), (cap4, is_ip4(dst=H4)))


# --- Packets ending inside their TCP header -----------------------------------


def tcp_bytes(src, dst, doff_words):
    """A TCP header of 24 bytes (one option word) whose data offset says
    DOFF_WORDS 32-bit words."""
    t = bytearray(tcp_segment_bytes(src, dst, 40100, 80, 1, 0, flags=0x10,
                                    options=b"\x02\x04\x05\xb4"))
    t[12] = doff_words << 4
    return with_csum(bytes(t), 16, pseudo(src, dst, 6, len(t)))


@pytest.mark.parametrize("mf", [False, True])
def test_tcp_header_cut_dropped_4to6(xlat, mf):
    """A first fragment (or a packet) that ends inside the TCP header its
    data offset announces is malformed: a filter behind the translator
    could not see the whole header (RFC 1858)."""
    translated46(xlat, ip4_packet(H4, SINK6_4, 6, tcp_bytes(H4, SINK6_4, 6),
                                  mf=mf, ident=7))
    refused46(xlat, ip4_packet(H4, SINK6_4, 6, tcp_bytes(H4, SINK6_4, 7),
                               mf=mf, ident=8), "drop-truncated")


@pytest.mark.parametrize("frag", [False, True])
def test_tcp_header_cut_dropped_6to4(xlat, frag):
    def pkt(doff):
        t = tcp_bytes(H6, SINK4_6, doff)
        if frag:
            return ip6_packet(H6, SINK4_6, 44,
                              frag6_header(6, 0, True, 0x77) + t)
        return ip6_packet(H6, SINK4_6, 6, t)
    translated64(xlat, pkt(6))
    refused64(xlat, pkt(7), "drop-truncated")


# --- IPv6 Payload Length 0 -----------------------------------------------


def hop_by_hop(nh):
    return bytes([nh, 0, 1, 4, 0, 0, 0, 0])    # one PadN option


def test_payload_length_zero_without_jumbo_option_dropped_6to4(xlat):
    """Payload Length 0 before a Hop-by-Hop header without a Jumbo Payload
    option: the kernel leaves such a packet as long as its frame, so its
    length is unknown (here 24 bytes of the frame's tail that a sender
    put after the datagram). Dropped, not translated with a length made
    up from the frame. The same packet with its Payload Length right is
    translated (the control), its datagram only."""
    dgram = udp_datagram(H6, SINK4_6, 4100, 41000, PAYLOAD[:24])
    body = hop_by_hop(17) + dgram
    f = translated64(xlat, ip6_packet(H6, SINK4_6, 0, body + bytes(24),
                                      plen=len(body)))
    assert f[IP].len == 20 + len(dgram)
    refused64(xlat, ip6_packet(H6, SINK4_6, 0, body + bytes(24), plen=0),
              "drop-truncated")
