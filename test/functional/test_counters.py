"""Which packets are translated, passed or dropped, and the counter each
one bumps (exactly one per packet reaching a hook)."""

import pytest
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.inet6 import (ICMPv6EchoRequest, IPv6, IPv6ExtHdrDestOpt,
                                IPv6ExtHdrFragment, IPv6ExtHdrHopByHop)
from scapy.packet import Raw

from ternlib import (H4, H4_6, H6, H6_4, H6_LINK, POOL6, SINK4, SINK4_6,
                     SINK6, SINK6_4, XL4, XL6, Netns, assert_ipv4,
                     assert_ipv6, cli_ok, embed, globals_, is_ip4, is_ip6,
                     none_on, snmp6, stats, udp4, udp6, wait_snmp6,
                     xlat46, xlat64)

WKP = "64:ff9b::/96"
GLOBAL_A, GLOBAL_B = "8.8.8.8", "93.184.216.34"


def any4(f):
    return is_ip4()(f)


def any6_unicast(f):
    return is_ip6()(f) and not f[IPv6].dst.startswith("ff")


def not_translated(topo, send, expected):
    """Sends with SEND(topo); checks EXPECTED counters and that nothing
    comes out on either side (but ICMP errors back to the sender)."""
    c = topo.counters()
    with topo.cap4() as cap4, topo.cap6() as cap6:
        send(topo)
        none_on(lambda: c.expect(expected),
                (cap4, lambda f: any4(f) and f[IP].src != XL4),
                (cap6, lambda f: any6_unicast(f) and f[IPv6].src != XL6))


# --- Passed ----------------------------------------------------------------


def test_destination_outside_pool6_passed(xlat):
    not_translated(xlat, lambda t: t.send6(udp6(dst="2001:db8:99::1")),
                   {"pass-no-mapping": 1})


@pytest.mark.parametrize("dst", [
    "0.1.2.3", "127.0.0.2", "169.254.0.9", "224.0.0.9", "239.1.2.3",
    "240.0.0.1", "255.255.255.255",
])
def test_special_ipv4_destination_passed(xlat, dst):
    not_translated(xlat, lambda t: t.send4(udp4(dst=dst)),
                   {"pass-special4": 1})


@pytest.mark.parametrize("src", ["0.0.0.7", "127.0.0.1", "169.254.3.3",
                                 "224.1.1.1"])
def test_special_ipv4_source_passed(xlat, src):
    not_translated(xlat, lambda t: t.send4(udp4(src=src)),
                   {"pass-special4": 1})


@pytest.mark.parametrize("addr4,side", [
    ("127.0.0.1", "dst"), ("169.254.1.1", "dst"), ("224.0.0.5", "dst"),
    ("255.255.255.255", "dst"), ("0.0.0.1", "src"), ("240.0.0.2", "src"),
])
def test_special_ipv4_embedded_in_ipv6_dropped(xlat, addr4, side):
    kw = {side: embed(addr4)}
    not_translated(xlat, lambda t: t.send6(udp6(**kw)),
                   {"drop-special4": 1})


def test_to_translator_ipv4_address_passed(xlat):
    c = xlat.counters()
    r = xlat.h4.exec("ping", "-4", "-c", "2", "-i", "0.2", "-W", "5", XL4,
                     check=False)
    assert r.rc == 0, r.out + r.err
    c.expect({"pass-local": 2})


def test_to_translator_ipv6_address_in_pool6_passed(xlat):
    local = embed("198.51.100.1")
    xlat.xl.ip("addr", "add", local + "/128", "dev", "v6", "nodad")
    xlat.defer(lambda: xlat.xl.ip("addr", "del", local + "/128", "dev", "v6",
                                  check=False))
    c = xlat.counters()
    with xlat.cap4() as cap4:
        xlat.send6(udp6(dst=local))
        cap4.none(any4, proof=lambda: c.expect({"pass-local": 1}))


def test_to_translator_ipv6_address_outside_pool6_passed(xlat):
    c = xlat.counters()
    r = xlat.h6.exec("ping", "-6", "-c", "2", "-i", "0.2", "-W", "5", XL6,
                     check=False)
    assert r.rc == 0, r.out + r.err
    # Outside pool6 it is not the translator's business either way.
    c.expect({("pass-local", "pass-no-mapping"): 2})


def test_frames_to_other_hosts_passed(xlat):
    """Broadcast and multicast frames are not addressed to this host."""
    def send(t):
        t.send4(udp4(), dst_mac="ff:ff:ff:ff:ff:ff")
        t.send6(udp6(), dst_mac="33:33:00:00:00:01")
    not_translated(xlat, send, {"pass-otherhost": 2})


def test_disabled_instance_passes_everything(xlat):
    xlat.set_global("enabled", "false")
    not_translated(xlat, lambda t: (t.send6(udp6()), t.send4(udp4())),
                   {"pass-disabled": 2})
    xlat.set_global("enabled", "true")
    c = xlat.counters()
    xlat64(xlat, udp6())
    xlat46(xlat, udp4())
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})


# --- Dropped ---------------------------------------------------------------


def test_source_outside_pool6_dropped(xlat):
    not_translated(xlat, lambda t: t.send6(udp6(src=H6_LINK)),
                   {"drop-src-untranslatable": 1})


@pytest.mark.parametrize("pkt,counter", [
    (IPv6(src=H6, dst=SINK4_6) / IPv6ExtHdrFragment(id=7, m=1, offset=0) /
     IPv6ExtHdrFragment(id=8, nh=17, m=0, offset=0) /
     UDP(sport=1, dport=2) / Raw(b"f" * 64), "drop-fragment"),
    (IPv6(src=H6, dst=SINK4_6) / IPv6ExtHdrFragment(id=7, nh=60, m=1) /
     Raw(b"\x11\x00" + b"\x01\x04\0\0\0\0" + b"f" * 64),
     "drop-fragment"),
    (IPv6(src=H6, dst=SINK4_6) / IPv6ExtHdrFragment(id=7, nh=58, m=1) /
     Raw(b"\x80\x00\0\0\0\1\0\1" + b"f" * 64), "drop-icmp-fragment"),
    (IPv6(src=H6, dst=SINK4_6) / IPv6ExtHdrFragment(id=7, nh=58, offset=9) /
     Raw(b"f" * 64), "drop-icmp-fragment"),
    (IP(src=H4, dst=SINK6_4, flags="MF", id=99, proto=1) /
     Raw(b"\x08\x00\0\0\0\1\0\1" + b"f" * 64), "drop-icmp-fragment"),
    (IP(src=H4, dst=SINK6_4, frag=9, id=99, proto=1) / Raw(b"f" * 64),
     "drop-icmp-fragment"),
    (IP(src=H4, dst=SINK6_4, flags="MF", id=99) /
     UDP(sport=1, dport=2, chksum=0) / Raw(b"f" * 64), "drop-udp-csum0"),
], ids=["v6-two-fragment-headers", "v6-exthdr-after-fragment",
        "v6-icmp-first", "v6-icmp-later", "v4-icmp-first", "v4-icmp-later",
        "v4-udp-csum0"])
def test_untranslatable_fragments_dropped(xlat, pkt, counter):
    send = (lambda t: t.send6(pkt)) if IPv6 in pkt else \
        (lambda t: t.send4(pkt))
    not_translated(xlat, send, {counter: 1})


@pytest.mark.parametrize("pkt", [
    IPv6(src=H6, dst=SINK4_6, nh=17) / Raw(b"abcd"),
    IPv6(src=H6, dst=SINK4_6, nh=6) / Raw(b"a" * 19),
    IPv6(src=H6, dst=SINK4_6, nh=58) / Raw(b"\x80\0\0"),
    IP(src=H4, dst=SINK6_4, proto=6) / Raw(b"a" * 10),
    IP(src=H4, dst=SINK6_4, proto=17) / Raw(b"a" * 7),
], ids=["v6-udp", "v6-tcp", "v6-icmp", "v4-tcp", "v4-udp"])
def test_truncated_transport_header_dropped(xlat, pkt):
    send = (lambda t: t.send6(pkt)) if IPv6 in pkt else \
        (lambda t: t.send4(pkt))
    not_translated(xlat, send, {"drop-truncated": 1})


def test_hop_by_hop_not_first_dropped(xlat):
    pkt = IPv6(src=H6, dst=SINK4_6) / IPv6ExtHdrDestOpt() / \
        IPv6ExtHdrHopByHop() / UDP(sport=1, dport=2) / Raw(b"x" * 8)
    not_translated(xlat, lambda t: t.send6(pkt), {"drop-exthdr": 1})


def test_extension_header_past_the_end_dropped(xlat):
    # A Destination Options header claiming 48 bytes in a 16-byte payload.
    pkt = IPv6(src=H6, dst=SINK4_6, nh=60) / \
        Raw(bytes([17, 5, 1, 4, 0, 0, 0, 0]) + b"\0" * 8)
    not_translated(xlat, lambda t: t.send6(pkt),
                   {("drop-exthdr", "drop-truncated"): 1})


def test_no_route_for_translated_packet_dropped(xlat):
    def send(t):
        t.send6(udp6(dst=embed("10.1.2.3")))    # xl has no IPv4 route
        t.send4(udp4(dst="192.0.2.77"))         # nor an IPv6 one for this
    not_translated(xlat, send, {"drop-no-route": 2})


# --- Well-Known Prefix (RFC 6052 3.1) -------------------------------------


def wkp(addr4):
    return embed(addr4, WKP)


def test_wkp_strict_drops_non_global(xlat):
    xlat.set_global("pool6", WKP)

    def send(t):
        t.send6(udp6(src=wkp(H6_4), dst=wkp(SINK4)))        # both
        t.send6(udp6(src=wkp(GLOBAL_A), dst=wkp(SINK4)))    # destination
        t.send6(udp6(src=wkp(H6_4), dst=wkp(GLOBAL_B)))     # source
        t.send4(udp4(src=H4, dst=SINK6_4))
        t.send4(udp4(src=GLOBAL_A, dst=SINK6_4))
        t.send4(udp4(src=H4, dst=GLOBAL_B))
    not_translated(xlat, send, {"drop-wkp-nonglobal": 6})


def test_wkp_strict_translates_global(xlat):
    xlat.set_global("pool6", WKP)
    xlat.temp_route(xlat.xl, GLOBAL_B + "/32", "via", H4)
    xlat.temp_route(xlat.xl, wkp(GLOBAL_B) + "/128", "via", H6_LINK)
    c = xlat.counters()
    f = xlat64(xlat, udp6(src=wkp(GLOBAL_A), dst=wkp(GLOBAL_B)),
               match=is_ip4(src=GLOBAL_A, dst=GLOBAL_B))
    assert_ipv4(f, proto=17, len=128)
    f = xlat46(xlat, udp4(src=GLOBAL_A, dst=GLOBAL_B),
               match=is_ip6(src=wkp(GLOBAL_A), dst=wkp(GLOBAL_B)))
    assert_ipv6(f, nh=17, plen=108)
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})


def test_wkp_not_strict_translates_non_global(xlat):
    xlat.set_global("pool6", WKP)
    xlat.set_global("strict-wkp", "false")
    xlat.temp_route(xlat.xl, wkp("198.51.100.0") + "/120", "via", H6_LINK)
    c = xlat.counters()
    f = xlat64(xlat, udp6(src=wkp(H6_4), dst=wkp(SINK4)))
    assert_ipv4(f, proto=17, src=H6_4, dst=SINK4)
    f = xlat46(xlat, udp4(), match=is_ip6(src=wkp(H4), dst=wkp(SINK6_4)))
    assert_ipv6(f, nh=17)
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})


def test_network_specific_prefix_ignores_strict_wkp(xlat):
    """strict-wkp concerns 64:ff9b::/96 only: documentation addresses under
    2001:db8:64::/96 are translated with strict-wkp on."""
    assert globals_(xlat.xl, "t")["strict-wkp"] is True
    c = xlat.counters()
    xlat64(xlat, udp6(src=embed("10.0.0.1"), dst=SINK4_6),
           match=is_ip4(src="10.0.0.1", dst=SINK4))
    c.expect({"xlat-6to4": 1})


# --- Bookkeeping -----------------------------------------------------------


def test_every_packet_bumps_exactly_one_counter(xlat):
    c = xlat.counters()
    with xlat.cap4() as cap4, xlat.cap6() as cap6:
        for i in range(3):
            xlat.send6(udp6(sport=42000 + i))
        for i in range(2):
            xlat.send4(IP(src=H4, dst=SINK6_4) /
                       TCP(sport=80, dport=42000 + i, flags="A"))
        xlat.send6(IPv6(src=H6, dst=SINK4_6) / ICMPv6EchoRequest(id=1))
        xlat.send6(udp6(dst="2001:db8:99::1"))                # no mapping
        xlat.send6(udp6(src=H6_LINK))                         # bad source
        xlat.send4(udp4(dst="169.254.1.1"))                   # special
        xlat.send4(IP(src=H4, dst=SINK6_4) /
                   UDP(sport=1, dport=2, chksum=0))           # csum 0
        xlat.send4(IP(src=H4, dst=SINK6_4, flags="MF", proto=1) /
                   Raw(b"\x08\0\0\0\0\1\0\1"))          # ICMP fragment
        xlat.send6(IPv6(src=H6, dst=SINK4_6, nh=17) / Raw(b"ab"))
        xlat.send4(udp4(ttl=1))                               # TTL
        c.expect({"xlat-6to4": 4, "xlat-4to6": 2, "pass-no-mapping": 1,
                  "drop-src-untranslatable": 1, "pass-special4": 1,
                  "drop-udp-csum0": 1, "drop-icmp-fragment": 1,
                  "drop-truncated": 1, "drop-ttl": 1})
        assert len(cap4.wait(is_ip4(src=H6_4, dst=SINK4), count=4)) == 4
        assert len(cap6.wait(is_ip6(src=H4_6, dst=SINK6), count=2)) == 2


def test_counters_belong_to_their_instance(xlat):
    other = Netns("other")
    try:
        cli_ok(other, "instance", "add", "t", "--siit", "--pool6", POOL6)
        c = xlat.counters()
        xlat64(xlat, udp6())
        xlat46(xlat, udp4())
        c.expect({"xlat-6to4": 1, "xlat-4to6": 1})
        assert all(v == 0 for v in stats(other, "t").values())
        # -i t and the default instance are the same; setting a global
        # does not reset the counters.
        xlat.set_global("tos", "5")
        s = stats(xlat.xl, "t")
        assert s == stats(xlat.xl)
        assert s["xlat-6to4"] >= 1 and s["xlat-4to6"] >= 1
    finally:
        other.delete()


def test_instance_removal_stops_translation(xlat):
    """Without the instance xl routes the packets as IPv6 (and has no
    route for them); added again, the instance translates."""
    cli_ok(xlat.xl, "instance", "remove", "t")
    before = snmp6(xlat.xl, "Ip6InNoRoutes")
    try:
        with xlat.cap4() as cap4:
            xlat.send6(udp6())
            # xl routes the packet as IPv6 and has no route for it.
            cap4.none(any4, proof=lambda: wait_snmp6(
                xlat.xl, "Ip6InNoRoutes", before + 1))
    finally:
        cli_ok(xlat.xl, "instance", "add", "t", "--siit", "--pool6", POOL6)
    c = xlat.counters()
    xlat64(xlat, udp6())
    c.expect({"xlat-6to4": 1})
