"""ICMP: echo translation, the errors the translator sends, and the ICMP
messages it does not translate (RFC 7915 sections 4.2, 4.3, 5.1, 5.2)."""

import pytest

import ternlib
from scapy.layers.inet import (ICMP, IP, UDP, IPerror, IPOption_LSRR,
                               IPOption_SSRR, UDPerror)
from scapy.layers.inet6 import (ICMPv6DestUnreach, ICMPv6EchoReply,
                                ICMPv6EchoRequest, ICMPv6PacketTooBig,
                                ICMPv6ParamProblem, ICMPv6TimeExceeded,
                                ICMPv6Unknown, IPerror6, IPv6,
                                IPv6ExtHdrRouting)
from scapy.packet import Raw

from ternlib import (H4, H4_6, H6, H6_4, PAYLOAD, SINK4, SINK4_6, SINK6,
                     SINK6_4, XL4, XL6, assert_ipv4, assert_ipv6,
                     check_checksums, inet_csum, ip_bytes, is_ip4, is_ip6,
                     l4_payload, none_on, udp4, udp6, untranslated46,
                     untranslated64, xlat46, xlat64)

# --- Echo ------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 57, 1000])
@pytest.mark.parametrize("cls6,type4", [(ICMPv6EchoRequest, 8),
                                        (ICMPv6EchoReply, 0)],
                         ids=["request", "reply"])
def test_echo_6to4(xlat, cls6, type4, n):
    c = xlat.counters()
    pkt = IPv6(src=H6, dst=SINK4_6, hlim=64) / \
        cls6(id=0x1234, seq=0xBEEF, data=PAYLOAD[:n])
    f = xlat64(xlat, pkt)
    assert_ipv4(f, len=20 + 8 + n, ttl=63, proto=1, src=H6_4, dst=SINK4)
    icmp = f[ICMP]
    assert (icmp.type, icmp.code, icmp.id, icmp.seq) == (type4, 0, 0x1234,
                                                         0xBEEF)
    assert l4_payload(f) == PAYLOAD[:n]
    c.expect({"xlat-6to4": 1})


@pytest.mark.parametrize("n", [0, 57, 1000])
@pytest.mark.parametrize("type4,type6", [(8, 128), (0, 129)],
                         ids=["request", "reply"])
def test_echo_4to6(xlat, type4, type6, n):
    c = xlat.counters()
    pkt = IP(src=H4, dst=SINK6_4, ttl=64, flags="DF") / \
        ICMP(type=type4, id=0x4321, seq=9) / Raw(PAYLOAD[:n])
    f = xlat46(xlat, pkt)
    assert_ipv6(f, plen=8 + n, nh=58, hlim=63, tc=0, src=H4_6, dst=SINK6)
    raw = ip_bytes(f)
    assert (raw[40], raw[41]) == (type6, 0)
    assert raw[44:48] == b"\x43\x21\x00\x09"
    assert l4_payload(f) == PAYLOAD[:n]
    c.expect({"xlat-4to6": 1})


@pytest.mark.parametrize("code", [1, 0x80, 255])
@pytest.mark.parametrize("cls6,type4", [(ICMPv6EchoRequest, 8),
                                        (ICMPv6EchoReply, 0)],
                         ids=["request", "reply"])
def test_echo_nonzero_code_6to4(xlat, cls6, type4, code):
    """RFC 7915 5.2 adjusts the Type of an echo; the only Code RFC 792
    defines for it is 0: a nonzero one leaves as 0, the checksum right."""
    c = xlat.counters()
    pkt = IPv6(src=H6, dst=SINK4_6, hlim=64) / \
        cls6(code=code, id=0x1234, seq=7, data=PAYLOAD[:24])
    f = xlat64(xlat, pkt)
    raw = ip_bytes(f)
    assert (raw[20], raw[21]) == (type4, 0)
    assert inet_csum(raw[20:]) == 0
    assert raw[24:28] == b"\x12\x34\x00\x07"
    c.expect({"xlat-6to4": 1})


@pytest.mark.parametrize("code", [1, 0x80, 255])
@pytest.mark.parametrize("type4,type6", [(8, 128), (0, 129)],
                         ids=["request", "reply"])
def test_echo_nonzero_code_4to6(xlat, type4, type6, code):
    """RFC 7915 4.2, the other way: Code 0 (RFC 4443 4.1, 4.2)."""
    c = xlat.counters()
    pkt = IP(src=H4, dst=SINK6_4, ttl=64) / \
        ICMP(type=type4, code=code, id=0x4321, seq=9) / Raw(PAYLOAD[:24])
    f = xlat46(xlat, pkt)
    raw = ip_bytes(f)
    assert (raw[40], raw[41]) == (type6, 0)
    assert raw[44:48] == b"\x43\x21\x00\x09"
    check_checksums(f)
    c.expect({"xlat-4to6": 1})


# --- Errors the translator sends -------------------------------------------


@pytest.mark.parametrize("hlim", [1, 0])
def test_hop_limit_exceeded_6to4(xlat, hlim):
    c = xlat.counters()
    pkt = udp6(30, hlim=hlim, sport=40010, dport=4010)
    with xlat.cap6() as cap6, xlat.cap4() as cap4:
        xlat.send6(pkt)
        f = cap6.one(lambda f: is_ip6(dst=H6, nh=58)(f)
                     and ICMPv6TimeExceeded in f)
        cap4.none(is_ip4(dst=SINK4),
                  proof=lambda: c.expect({"drop-ttl": 1}))
    assert f[IPv6].src == XL6
    te = f[ICMPv6TimeExceeded]
    assert (te.type, te.code) == (3, 0)
    assert f[IPerror6].src == H6 and f[IPerror6].dst == SINK4_6
    assert f[UDPerror].sport == 40010 and f[UDPerror].dport == 4010
    check_checksums(f)
    c.expect({"drop-ttl": 1})


@pytest.mark.parametrize("ttl", [1, 0])
def test_ttl_exceeded_4to6(xlat, ttl):
    c = xlat.counters()
    pkt = udp4(30, ttl=ttl, sport=4011, dport=40011)
    with xlat.cap6() as cap6, xlat.cap4() as cap4:
        xlat.send4(pkt)
        f = cap4.one(is_ip4(dst=H4, proto=1))
        cap6.none(is_ip6(dst=SINK6),
                  proof=lambda: c.expect({"drop-ttl": 1}))
    assert f[IP].src == XL4
    assert (f[ICMP].type, f[ICMP].code) == (11, 0)
    assert f[IPerror].src == H4 and f[IPerror].dst == SINK6_4
    assert f[UDPerror].sport == 4011 and f[UDPerror].dport == 40011
    check_checksums(f)
    c.expect({"drop-ttl": 1})


def test_routing_header_segments_left_param_problem(xlat):
    """RFC 7915 5.1: not translated; Parameter Problem pointing at the
    Segments Left field (40 + 3)."""
    c = xlat.counters()
    pkt = IPv6(src=H6, dst=SINK4_6) / \
        IPv6ExtHdrRouting(type=0, addresses=[H4_6], segleft=1) / \
        UDP(sport=40012, dport=4012) / Raw(b"r" * 20)
    with xlat.cap6() as cap6, xlat.cap4() as cap4:
        xlat.send6(pkt)
        f = cap6.one(lambda f: is_ip6(dst=H6, nh=58)(f)
                     and ICMPv6ParamProblem in f)
        cap4.none(is_ip4(src=H6_4),
                  proof=lambda: c.expect({"drop-routing-hdr": 1}))
    pp = f[ICMPv6ParamProblem]
    assert (pp.type, pp.code, pp.ptr) == (4, 0, 43)
    assert f[IPv6].src == XL6
    check_checksums(f)
    c.expect({"drop-routing-hdr": 1})


def test_packet_too_big_4to6(xlat):
    """An IPv4 packet with DF that does not fit the IPv6 MTU (1500): no
    translation, Fragmentation Needed with MTU 1500 - 20."""
    c = xlat.counters()
    pkt = udp4(1500 - 28, flags="DF", ttl=64)
    with xlat.cap6() as cap6, xlat.cap4() as cap4:
        xlat.send4(pkt)
        f = cap4.one(is_ip4(dst=H4, proto=1))
        cap6.none(is_ip6(dst=SINK6),
                  proof=lambda: c.expect({"drop-too-big": 1}))
    assert f[IP].src == XL4
    icmp = f[ICMP]
    assert (icmp.type, icmp.code, icmp.nexthopmtu) == (3, 4, 1480)
    assert f[IPerror].dst == SINK6_4
    check_checksums(f)
    c.expect({"drop-too-big": 1})


def test_packet_too_big_6to4(xlat):
    """A 6->4 packet that gets DF and does not fit the IPv4 MTU: Packet Too
    Big with that MTU + 20."""
    xlat.xl.ip("link", "set", "v4", "mtu", "1400")
    xlat.defer(lambda: xlat.xl.ip("link", "set", "v4", "mtu", "1500"))
    c = xlat.counters()
    pkt = udp6(1480 - 48, hlim=64)     # 1480 bytes of IPv6, 1460 of IPv4
    with xlat.cap6() as cap6, xlat.cap4() as cap4:
        xlat.send6(pkt)
        f = cap6.one(lambda f: is_ip6(dst=H6, nh=58)(f)
                     and ICMPv6PacketTooBig in f)
        cap4.none(is_ip4(src=H6_4),
                  proof=lambda: c.expect({"drop-too-big": 1}))
    assert f[ICMPv6PacketTooBig].mtu == 1420
    assert f[IPv6].src == XL6
    check_checksums(f)
    # A packet that fits is translated.
    f = xlat64(xlat, udp6(1400 - 28, hlim=64))
    assert_ipv4(f, len=1400, flags=2, proto=17)
    c.expect({"drop-too-big": 1, "xlat-6to4": 1})


@pytest.mark.parametrize("opt", [IPOption_LSRR, IPOption_SSRR])
def test_unexpired_source_route_refused(xlat, opt):
    """RFC 7915 4.1: Destination Unreachable, Source Route Failed."""
    c = xlat.counters()
    pkt = IP(src=H4, dst=SINK6_4, ttl=64,
             options=[opt(routers=["198.51.100.7"])]) / \
        UDP(sport=4013, dport=40013) / Raw(b"s" * 20)
    with xlat.cap6() as cap6, xlat.cap4() as cap4:
        xlat.send4(pkt)
        f = cap4.one(is_ip4(dst=H4, proto=1))
        cap6.none(is_ip6(dst=SINK6),
                  proof=lambda: c.expect({"drop-srcroute": 1}))
    assert (f[ICMP].type, f[ICMP].code) == (3, 5)
    check_checksums(f)
    c.expect({"drop-srcroute": 1})


def test_expired_source_route_translated(xlat):
    """Pointer past the end: the route is done; the option is ignored."""
    c = xlat.counters()
    pkt = IP(src=H4, dst=SINK6_4, ttl=64,
             options=[IPOption_LSRR(routers=["198.51.100.7"], pointer=8)]) / \
        UDP(sport=4014, dport=40014) / Raw(b"e" * 20)
    # scapy sums a source-routed packet over the route's last address; the
    # route is over, so the real destination is the IPv4 destination.
    pkt[UDP].chksum = IP(bytes(IP(src=H4, dst=SINK6_4) / pkt[UDP]))[UDP].chksum
    f = xlat46(xlat, pkt)
    assert_ipv6(f, plen=28, nh=17, hlim=63)
    c.expect({"xlat-4to6": 1})


# --- Messages that are not translated --------------------------------------


@pytest.mark.parametrize("type6", [139, 140, 200])
def test_icmpv6_informational_dropped(xlat, type6):
    c = xlat.counters()
    pkt = IPv6(src=H6, dst=SINK4_6) / \
        ICMPv6Unknown(type=type6, code=0, msgbody=b"\0" * 12)
    untranslated64(xlat, c, pkt, {"drop-icmp-info": 1}, is_ip4(src=H6_4))
    c.expect({"drop-icmp-info": 1})


@pytest.mark.parametrize("type4", [13, 15, 17])
def test_icmpv4_informational_dropped(xlat, type4):
    c = xlat.counters()
    pkt = IP(src=H4, dst=SINK6_4) / ICMP(type=type4) / Raw(b"\0" * 12)
    untranslated46(xlat, c, pkt, {"drop-icmp-info": 1}, is_ip6(src=H4_6))
    c.expect({"drop-icmp-info": 1})


def test_icmp_types_without_counterpart_dropped(xlat):
    c = xlat.counters()
    with xlat.cap6() as cap6, xlat.cap4() as cap4:
        xlat.send6(IPv6(src=H6, dst=SINK4_6) /
                   ICMPv6Unknown(type=100, code=0, msgbody=b"\0" * 8))
        xlat.send4(IP(src=H4, dst=SINK6_4) / ICMP(type=1) / Raw(b"\0" * 8))
        none_on(lambda: c.expect({"drop-icmp-other": 2}),
                (cap4, is_ip4(src=H6_4)),
                (cap6, is_ip6(src=H4_6)))
    c.expect({"drop-icmp-other": 2})


QUOTE6 = IPerror6(src=SINK4_6, dst=H6) / UDPerror(sport=4000, dport=40000)
QUOTE4 = IPerror(src=SINK6_4, dst=H4) / UDPerror(sport=40000, dport=4000)


@pytest.mark.parametrize("err", [
    ICMPv6DestUnreach(code=5), ICMPv6DestUnreach(code=6),
    ICMPv6DestUnreach(code=7), ICMPv6ParamProblem(code=2, ptr=6),
    ICMPv6ParamProblem(code=0, ptr=2), ICMPv6ParamProblem(code=0, ptr=40),
], ids=["unreach-5", "unreach-6", "unreach-7", "paramprob-2",
        "paramprob-ptr2", "paramprob-ptr40"])
def test_icmpv6_errors_without_equivalent_dropped(xlat, err):
    icmpv6_error_dropped(xlat, IPv6(src=H6, dst=SINK4_6) / err / QUOTE6,
                         "drop-icmp-error")


def test_icmpv6_error_with_hop_limit_1_dropped(xlat):
    """An ICMPv6 error (one with an ICMPv4 equivalent) whose hop limit
    runs out here: dropped as any such packet, no Time Exceeded about it
    (never an ICMP error about an ICMP error)."""
    icmpv6_error_dropped(xlat, IPv6(src=H6, dst=SINK4_6, hlim=1) /
                         ICMPv6TimeExceeded(code=0) / QUOTE6, "drop-ttl")


def icmpv6_error_dropped(xlat, pkt, counter):
    """PKT, an ICMPv6 error from h6, is dropped and counted in COUNTER:
    nothing translated, no ICMPv6 error back."""
    c = xlat.counters()
    with xlat.cap4() as cap, xlat.cap6() as cap6:
        xlat.send6(pkt)
        cap.none(is_ip4(src=H6_4), proof=lambda: c.expect({counter: 1}))
        cap6.none(is_ip6(dst=H6, nh=58), proof=lambda: c.expect({counter: 1}))
    c.expect({counter: 1})


@pytest.mark.parametrize("type4,code,ptr", [
    (5, 1, 0), (4, 0, 0), (3, 14, 0), (3, 16, 0), (12, 1, 0), (12, 0, 4),
    (12, 0, 10), (12, 0, 20),
], ids=["redirect", "source-quench", "unreach-14", "unreach-16",
        "paramprob-1", "paramprob-ptr4", "paramprob-ptr10",
        "paramprob-ptr20"])
def test_icmpv4_errors_without_equivalent_dropped(xlat, type4, code, ptr):
    c = xlat.counters()
    icmp = ICMP(type=type4, code=code)
    if type4 == 12:
        icmp.ptr = ptr
    pkt = IP(src=H4, dst=SINK6_4) / icmp / QUOTE4
    untranslated46(xlat, c, pkt, {"drop-icmp-error": 1}, is_ip6(src=H4_6))
    c.expect({"drop-icmp-error": 1})


def _sysctl_read(ns, key):
    with ternlib.in_netns(str(ns)):
        with open("/proc/sys/" + key) as f:
            return f.read().strip()


@pytest.mark.parametrize("family", [4, 6])
def test_own_errors_rate_limited(xlat, family):
    """Tern's own ICMP errors go through the kernel's rate-limited senders:
    20 packets with TTL/hop limit 1 from one new source in a burst are all
    counted, but the source gets at most the kernel's burst of 6 Time
    Exceeded messages (one more per 10 s of net.ipv4.icmp_ratelimit /
    net.ipv6.icmp.ratelimit, set to 10 s here)."""
    key = "net/ipv4/icmp_ratelimit" if family == 4 else \
        "net/ipv6/icmp/ratelimit"
    old = _sysctl_read(xlat.xl, key)
    xlat.xl.sysctl({key: 10000})
    xlat.defer(lambda: xlat.xl.sysctl({key: old}))
    c = xlat.counters()
    if family == 4:
        src = "203.0.113.77"        # on h4's link: h4's MAC, a new peer
        xlat.xl.ip("neigh", "replace", src, "lladdr", ternlib.H4_MAC, "dev",
                   "v4", "nud", "permanent")
        xlat.defer(lambda: xlat.xl.ip("neigh", "del", src, "dev", "v4",
                                      check=False))
        pkts = [udp4(20, src=src, ttl=1, sport=4100 + i) for i in range(20)]
        err = is_ip4(dst=src, proto=1)
    else:
        src = ternlib.embed("198.51.100.77")    # routed to h6, a new peer
        pkts = [udp6(20, src=src, hlim=1, sport=40100 + i)
                for i in range(20)]
        err = is_ip6(dst=src, nh=58)
    with (xlat.cap4() if family == 4 else xlat.cap6()) as cap:
        for p in pkts:
            (xlat.send4 if family == 4 else xlat.send6)(p)
        cap.wait(err)
        cap.settle(ternlib.QUIET)
        c.expect({"drop-ttl": 20})
        cap.settle(ternlib.QUIET)
        got = cap.matching(err)
    assert 1 <= len(got) <= 6, "%d errors for 20 packets" % len(got)
