"""RFC 7915 4.4 and 5.4: a packet the translator discards by policy may be
answered with Destination Unreachable, Communication Administratively
Prohibited (ICMPv4 3/13, ICMPv6 1/1), never when it is itself an ICMPv4
error or an ICMPv6 message. The global icmp-on-drop (default true: the
RFC says SHOULD) turns it off; the kernel's ICMP rate limits apply to what
is sent. A header chain Tern does not translate (RFC 7915 5.1.1) is such a
drop too.
"""

import pytest
from scapy.layers.inet import ICMP, IP, UDP, IPerror, UDPerror
from scapy.layers.inet6 import (ICMPv6DestUnreach, ICMPv6EchoRequest,
                                IPerror6, IPv6)
from scapy.packet import Raw

from ternlib import (H4, H6, H6_LINK, PAYLOAD, SINK4, SINK4_6, SINK6,
                     SINK6_4, XL4, XL6, check_checksums, cli_ok, frag6_header,
                     globals_, icmp6_message, ip6_packet, is_ip4, is_ip6,
                     none_on, udp4, udp6, udp_datagram)


def unreach6(f):
    return is_ip6(dst=H6_LINK, nh=58)(f) and ICMPv6DestUnreach in f


@pytest.fixture
def on(xlat):
    xlat.set_global("icmp-on-drop", "true")
    return xlat


def test_on_by_default_6to4(ns):
    """A new instance answers policy drops (RFC 7915 4.4, 5.4 SHOULD)."""
    cli_ok(ns, "instance", "add", "d", "--siit", "--pool6", "64:ff9b::/96")
    assert globals_(ns, "d")["icmp-on-drop"] is True
    cli_ok(ns, "instance", "remove", "d")


def test_off_by_choice_6to4(xlat):
    """h6's link address is neither in pool6 nor in the EAMT: dropped,
    and with icmp-on-drop off nothing is said."""
    xlat.set_global("icmp-on-drop", "false")
    c = xlat.counters()
    with xlat.cap6() as cap6, xlat.cap4() as cap4:
        xlat.send6(udp6(30, src=H6_LINK))
        none_on(lambda: c.expect({"drop-src-untranslatable": 1}),
                (cap6, unreach6), (cap4, is_ip4()))


def chain_after_fragment(nh=17):
    """A first fragment whose Fragment header is followed by a Destination
    Options header, then a UDP datagram (or, NH 58, an ICMPv6 echo)."""
    if nh == 58:
        l4 = icmp6_message(H6, SINK4_6, 128, 0, b"\0\1\0\1", PAYLOAD[:64])
    else:
        l4 = udp_datagram(H6, SINK4_6, 40030, 4030, PAYLOAD[:100])
    body = frag6_header(60, 0, True, 0x99) + bytes([nh, 0, 1, 4, 0, 0, 0, 0]) \
        + l4[:64]
    return ip6_packet(H6, SINK4_6, 44, body)


@pytest.mark.parametrize("setting,answered", [("true", True),
                                              ("false", False)])
def test_header_chain_refused_answered_6to4(xlat, setting, answered):
    """RFC 7915 5.1.1 drops an extension header after the Fragment header;
    like the other policy drops it is answered with ICMPv6 1/1 (5.4)
    quoting the packet, unless icmp-on-drop is off."""
    xlat.set_global("icmp-on-drop", setting)
    pkt = chain_after_fragment()
    c = xlat.counters()
    with xlat.cap6() as cap6, xlat.cap4() as cap4:
        xlat.send6(pkt)
        if answered:
            f = cap6.one(lambda f: is_ip6(dst=H6, nh=58)(f)
                         and ICMPv6DestUnreach in f)
        else:
            cap6.none(lambda f: is_ip6(dst=H6, nh=58)(f),
                      proof=lambda: c.expect({"drop-fragment": 1}))
        cap4.none(is_ip4(dst=SINK4),
                  proof=lambda: c.expect({"drop-fragment": 1}))
    c.expect({"drop-fragment": 1})
    if answered:
        assert f[IPv6].src == XL6
        du = f[ICMPv6DestUnreach]
        assert (du.type, du.code) == (1, 1)
        assert bytes(f[IPerror6])[:len(bytes(pkt))] == bytes(pkt)
        check_checksums(f)


def test_header_chain_refused_icmpv6_not_answered_6to4(xlat):
    """The same chain carrying ICMPv6: never answered (RFC 7915 5.4)."""
    xlat.set_global("icmp-on-drop", "true")
    c = xlat.counters()
    with xlat.cap6() as cap6, xlat.cap4() as cap4:
        xlat.send6(chain_after_fragment(58))
        none_on(lambda: c.expect({"drop-fragment": 1}),
                (cap6, lambda f: is_ip6(dst=H6, nh=58)(f)),
                (cap4, is_ip4(dst=SINK4)))
    c.expect({"drop-fragment": 1})


def test_untranslatable_source_answered_6to4(on):
    c = on.counters()
    with on.cap6() as cap6, on.cap4() as cap4:
        on.send6(udp6(30, src=H6_LINK, sport=40020, dport=4020))
        f = cap6.one(unreach6)
        cap4.none(is_ip4(),
                  proof=lambda: c.expect({"drop-src-untranslatable": 1}))
    assert f[IPv6].src == XL6
    du = f[ICMPv6DestUnreach]
    assert (du.type, du.code) == (1, 1)
    assert f[IPerror6].src == H6_LINK and f[IPerror6].dst == SINK4_6
    assert f[UDPerror].sport == 40020 and f[UDPerror].dport == 4020
    assert bytes(f[UDPerror].payload)[:30] == PAYLOAD[:30]
    check_checksums(f)
    c.expect({"drop-src-untranslatable": 1})


def test_icmpv6_message_not_answered_6to4(on):
    """RFC 7915 5.4: no error about an ICMPv6 message, even an echo."""
    c = on.counters()
    pkt = IPv6(src=H6_LINK, dst=SINK4_6) / ICMPv6EchoRequest(id=7, seq=1) / \
        Raw(PAYLOAD[:20])
    with on.cap6() as cap6:
        on.send6(pkt)
        cap6.none(unreach6,
                  proof=lambda: c.expect({"drop-src-untranslatable": 1}))


def test_udp_zero_checksum_answered_4to6(on):
    """amend-udp-checksum-zero is off: the datagram is dropped by policy
    (RFC 7915 4.5), and the sender told so."""
    c = on.counters()
    pkt = IP(src=H4, dst=SINK6_4, ttl=64) / \
        UDP(sport=4021, dport=40021, chksum=0) / Raw(PAYLOAD[:40])
    with on.cap4() as cap4, on.cap6() as cap6:
        on.send4(pkt)
        f = cap4.one(is_ip4(dst=H4, proto=1))
        cap6.none(is_ip6(dst=SINK6),
                  proof=lambda: c.expect({"drop-udp-csum0": 1}))
    assert f[IP].src == XL4
    assert (f[ICMP].type, f[ICMP].code) == (3, 13)
    assert f[IPerror].src == H4 and f[IPerror].dst == SINK6_4
    assert f[UDPerror].sport == 4021 and f[UDPerror].dport == 40021
    assert f[UDPerror].chksum == 0
    check_checksums(f)
    c.expect({"drop-udp-csum0": 1})


def test_denied_source_answered_4to6(on):
    """h4's address in denylist4: pool6 may not translate it."""
    cli_ok(on.xl, "denylist4", "add", "%s/32" % H4)
    on.defer(lambda: cli_ok(on.xl, "denylist4", "flush"))
    c = on.counters()
    with on.cap4() as cap4, on.cap6() as cap6:
        on.send4(udp4(30, sport=4022, dport=40022))
        f = cap4.one(is_ip4(dst=H4, proto=1))
        cap6.none(is_ip6(),
                  proof=lambda: c.expect({"drop-src-untranslatable": 1}))
    assert f[IP].src == XL4
    assert (f[ICMP].type, f[ICMP].code) == (3, 13)
    assert f[IPerror].src == H4 and f[IPerror].dst == SINK6_4
    assert f[UDPerror].sport == 4022 and f[UDPerror].dport == 40022
    check_checksums(f)
    c.expect({"drop-src-untranslatable": 1})


def test_translated_traffic_unaffected(on):
    """Only drops are answered: a translatable packet goes through as
    usual, with no error back."""
    c = on.counters()
    with on.cap6() as cap6, on.cap4() as cap4:
        on.send6(udp6(30))
        cap4.one(is_ip4(dst=SINK4))
        cap6.none(lambda f: ICMPv6DestUnreach in f,
                  proof=lambda: c.expect({"xlat-6to4": 1}))
    c.expect({"xlat-6to4": 1})
