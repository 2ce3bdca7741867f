"""Routes that change while traffic is translated. The packet path keeps
the output route of the flows it saw last per CPU (mod/core/route_cache.c)
and uses it again while the kernel says it is valid (dst_check()); each
change below must be seen by the very next packet, in both directions:
a route added over the one in use, a blackhole, a policy rule, the
device of the route removed, a route deleted, a nexthop group member
whose gateway's neighbour failed."""

import contextlib

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Ether
from scapy.packet import Raw

from ternlib import (H4, H4_6, H4_MAC, H6, H6_4, H6_LINK, SINK4, SINK4_6,
                     SINK6, XL4, Capture, _describe, assert_ipv4, assert_ipv6,
                     both_translated, check_checksums, embed, ipv4_fields,
                     is_ip4, is_ip6, run, udp4, udp6)

D1_MAC = "02:00:00:00:d1:01"

# Markers: a datagram that must arrive, sent behind the packet under test,
# ends a capture instead of a time (mark()). Each has routes of its own,
# which no test changes: MARK4 out v4 to h4's MAC, MARK6 (198.51.100.98
# by pool6) to h6, MARK_D0 out d0 (side_link()) to d1; nobody's address.
MARK4, MARK_D0 = "203.0.113.98", "203.0.113.97"
MARK6_4 = "198.51.100.98"
MARK6 = embed(MARK6_4)
MARK_PORTS = (47001, 47002)
MARK_DATA = b"route_changes marker"


@pytest.fixture(autouse=True)
def marker_routes(xlat):
    xlat.xl.ip_batch([
        "neigh replace %s lladdr %s dev v4 nud permanent" % (MARK4, H4_MAC),
        "route replace %s/32 dev v4" % MARK4,
        "route replace %s/128 via %s dev v6" % (MARK6, H6_LINK),
    ])
    yield
    xlat.xl.ip("route", "del", MARK4 + "/32", check=False)
    xlat.xl.ip("-6", "route", "del", MARK6 + "/128", check=False)
    xlat.xl.ip("neigh", "del", MARK4, "dev", "v4", check=False)


def _ports(f):
    return UDP in f and (f[UDP].sport, f[UDP].dport) == MARK_PORTS


def is_mark4(dst=MARK4):
    return lambda f: is_ip4(src=H6_4, dst=dst, proto=17)(f) and _ports(f)


def is_mark6(f):
    return is_ip6(src=H4_6, dst=MARK6, nh=17)(f) and _ports(f)


def mark64(t, dst=MARK4):
    """A marker from h6, translated to DST (out v4, or out d0 for
    MARK_D0)."""
    t.send6(IPv6(src=H6, dst=embed(dst), hlim=64, tc=0, fl=0) /
            UDP(sport=MARK_PORTS[0], dport=MARK_PORTS[1]) / Raw(MARK_DATA))


def mark46(t):
    """A marker from h4, translated to MARK6 (to h6)."""
    t.send4(IP(src=H4, dst=MARK6_4, ttl=64, tos=0) /
            UDP(sport=MARK_PORTS[0], dport=MARK_PORTS[1]) / Raw(MARK_DATA))


def check_mark4(f, dst=MARK4):
    """The marker of mark64(), exactly, as it left xl."""
    if dst == MARK_D0:
        assert f[Ether].dst == D1_MAC
        got = ipv4_fields(f)
        assert {k: got[k] for k in ("ihl", "tos", "len", "flags", "offset",
                                    "ttl", "proto", "src", "dst")} == {
            "ihl": 5, "tos": 0, "len": 28 + len(MARK_DATA), "flags": 0,
            "offset": 0, "ttl": 63, "proto": 17, "src": H6_4, "dst": dst}
        check_checksums(f)
    else:
        assert_ipv4(f, tos=0, len=28 + len(MARK_DATA), ttl=63, proto=17,
                    src=H6_4, dst=dst)
    assert bytes(f[UDP].payload) == MARK_DATA


def check_mark6(f):
    assert_ipv6(f, tc=0, plen=8 + len(MARK_DATA), nh=17, hlim=63, src=H4_6,
                dst=MARK6)
    assert bytes(f[UDP].payload) == MARK_DATA


def mark(t, from6, cap4, cap6):
    """Ends the captures CAP4 (h4) and CAP6 (h6) of a packet just sent
    from h6 (FROM6) or h4: a marker from the same host right behind it,
    awaited where it goes, then one from the other host, awaited. xl
    handles the packet before the first marker (same link, in order), and
    the second leaves only after the first arrived: what the packet made,
    on either link, has reached the captures by then, and both captures
    were seen to be live. Returns the counters the markers add."""
    steps = [(mark64, cap4, is_mark4(), check_mark4),
             (mark46, cap6, is_mark6, check_mark6)]
    for send, cap, match, check in steps if from6 else steps[::-1]:
        send(t)
        check(cap.one(match))
    return {"xlat-6to4": 1, "xlat-4to6": 1}


def plus(a, b):
    return {k: a.get(k, 0) + b.get(k, 0) for k in set(a) | set(b)}


def assert_none(cap, match):
    got = cap.matching(match)
    if got:
        cap._fail("expected no such frame, got:\n" + _describe(got))


def nothing_out_marked(topo, send, expected):
    """SEND(topo) bumps the EXPECTED counters, and nothing translated
    reaches h4 or h6 until markers sent behind it arrived (mark())."""
    c = topo.counters()
    with topo.cap4() as cap4, topo.cap6() as cap6:
        send(topo)
        marks = mark(topo, send is send6, cap4, cap6)
        c.expect(plus(expected, marks))
        assert_none(cap4, is_ip4(dst=SINK4))
        assert_none(cap6, is_ip6(dst=SINK6))


def send6(t):
    t.send6(udp6())


def send4(t):
    t.send4(udp4())


@contextlib.contextmanager
def side_link(topo):
    """A second link from xl (d0) to h4's namespace (d1, up, no address):
    frames xl routes out d0 are seen on d1 only. Removed on exit (if the
    test has not removed it), with the routes over it."""
    run(["ip", "link", "add", "d0", "netns", topo.xl.name, "type", "veth",
         "peer", "name", "d1", "netns", topo.h4.name, "address", D1_MAC])
    try:
        topo.h4.ip("link", "set", "d1", "up")
        topo.xl.ip_batch([
            "link set d0 up",
            "neigh replace %s lladdr %s dev d0 nud permanent" % (SINK4,
                                                                 D1_MAC),
            "neigh replace %s lladdr %s dev d0 nud permanent" % (SINK6,
                                                                 D1_MAC),
            "neigh replace %s lladdr %s dev d0 nud permanent" % (MARK_D0,
                                                                 D1_MAC),
            "route replace %s/32 dev d0" % MARK_D0,
        ])
        yield
    finally:
        topo.xl.ip("link", "del", "d0", check=False)


def out_on_d1(topo, send, match):
    """SEND(topo): translated, out d0 (seen on d1), not on h4's or h6's
    link (until the markers of mark() arrived there)."""
    c = topo.counters()
    with Capture(topo.h4, "d1") as d1, topo.cap4() as cap4, \
            topo.cap6() as cap6:
        send(topo)
        d1.one(match)
        marks = mark(topo, send is send6, cap4, cap6)
        c.expect(plus({"xlat-6to4": 1} if send is send6 else
                      {"xlat-4to6": 1}, marks))
        assert_none(cap4, is_ip4(dst=SINK4))
        assert_none(cap6, is_ip6(dst=SINK6))


def test_blackhole_routes_added_and_removed(xlat):
    for _ in range(2):
        both_translated(xlat)
        xlat.xl.ip("route", "add", "blackhole", SINK4 + "/32")
        xlat.xl.ip("-6", "route", "add", "blackhole", SINK6 + "/128")
        try:
            nothing_out_marked(xlat, send6, {"drop-no-route": 1})
            nothing_out_marked(xlat, send4, {"drop-no-route": 1})
        finally:
            xlat.xl.ip("route", "del", "blackhole", SINK4 + "/32")
            xlat.xl.ip("-6", "route", "del", "blackhole", SINK6 + "/128")
    both_translated(xlat)


def test_more_specific_route_then_its_device_removed(xlat):
    """A /32 (/128) over another device takes over from the next packet;
    the device removed, the packets go the old way again."""
    both_translated(xlat)
    with side_link(xlat):
        both_translated(xlat)       # routes in use, none over d0 yet
        xlat.xl.ip("route", "add", SINK4 + "/32", "dev", "d0")
        xlat.xl.ip("-6", "route", "add", SINK6 + "/128", "dev", "d0")
        out_on_d1(xlat, send6, is_ip4(src=H6_4, dst=SINK4))
        out_on_d1(xlat, send4, is_ip6(src=H4_6, dst=SINK6))
        # Again: now from the routes kept.
        out_on_d1(xlat, send6, is_ip4(src=H6_4, dst=SINK4))
        out_on_d1(xlat, send4, is_ip6(src=H4_6, dst=SINK6))
        xlat.xl.ip("link", "del", "d0")
        both_translated(xlat)
    both_translated(xlat)


def test_route_deleted_and_added_back(xlat):
    """The route to SINK6's prefix, then the one to SINK4's link, deleted:
    no route from the next packet on; added back: translated again."""
    prefix6 = embed("198.51.100.0") + "/120"
    both_translated(xlat)
    xlat.xl.ip("-6", "route", "del", prefix6)
    try:
        nothing_out_marked(xlat, send4, {"drop-no-route": 1})
    finally:
        xlat.xl.ip("-6", "route", "add", prefix6, "via", H6_LINK, "dev", "v6")
    both_translated(xlat)
    xlat.xl.ip("route", "del", "203.0.113.0/24", "dev", "v4")
    try:
        nothing_out_marked(xlat, send6, {"drop-no-route": 1})
    finally:
        xlat.xl.ip("route", "add", "203.0.113.0/24", "dev", "v4", "proto",
                   "kernel", "scope", "link", "src", XL4)
    both_translated(xlat)


def test_policy_rule_added_and_removed(xlat):
    """A rule sending SINK4's and SINK6's packets to a table of blackholes:
    the next packet follows it, and the next after the rule is gone does
    not (with a rule of one's own, nothing is kept)."""
    for fam in ("-4", "-6"):
        xlat.xl.ip(fam, "route", "add", "blackhole", "default", "table", "100")
    for _ in range(2):
        both_translated(xlat)
        xlat.xl.ip("rule", "add", "to", SINK4, "lookup", "100",
                   "pref", "100")
        xlat.xl.ip("-6", "rule", "add", "to", SINK6, "lookup", "100",
                   "pref", "100")
        try:
            for _ in range(2):
                nothing_out_marked(xlat, send6, {"drop-no-route": 1})
                nothing_out_marked(xlat, send4, {"drop-no-route": 1})
        finally:
            xlat.xl.ip("rule", "del", "pref", "100")
            xlat.xl.ip("-6", "rule", "del", "pref", "100")
    both_translated(xlat)
    for fam in ("-4", "-6"):
        xlat.xl.ip(fam, "route", "del", "blackhole", "default", "table", "100")



def from_source(i):
    """A datagram from pool6's 198.51.100.I to SINK4: a flow of its own
    (the multipath hash is of the addresses)."""
    pkt = IPv6(src=embed("198.51.100.%d" % i), dst=SINK4_6, hlim=64) / \
        UDP(sport=40000, dport=4000) / Raw(b"nexthops")
    return lambda t: t.send6(pkt)


# Two gateways, G1 on h4's link and G2 over d0 (side_link()), whose
# frames reach h4 (v4) and d1.
GATEWAY_NEIGHBOURS = [
    "neigh replace 203.0.113.50 lladdr %s dev v4 nud permanent" % H4_MAC,
    "neigh replace 192.0.2.200 lladdr %s dev d0 nud permanent" % D1_MAC,
]


def by_markers(t, d1, cap4):
    """Markers from h6 out d0 and out v4 (behind a packet sent from h6),
    each awaited on its link: two xlat-6to4."""
    mark64(t, MARK_D0)
    mark64(t, MARK4)
    check_mark4(d1.one(is_mark4(MARK_D0)), MARK_D0)
    check_mark4(cap4.one(is_mark4(MARK4)), MARK4)


def test_nexthop_group_member_fails(xlat):
    """A route through a nexthop group (`ip nexthop`, as FRR installs
    routes): the kernel passes over a member whose gateway's neighbour
    failed, which changes no route generation. G1 leads to h4's link, G2
    over d0. A flow that goes by G1 (the group's first member: a failure
    of the second moves no flow) goes by G2 from the very next packet
    once G1's neighbour failed (with a route kept from before, it went on
    to the dead G1)."""
    with side_link(xlat):
        xlat.xl.ip_batch(GATEWAY_NEIGHBOURS + [
            "nexthop add id 1 via 203.0.113.50 dev v4",
            "nexthop add id 2 via 192.0.2.200 dev d0 onlink",
            "nexthop add id 10 group 1/2",
            "route add %s/32 nhid 10" % SINK4,
        ])
        try:
            found = None
            for i in range(10, 60):
                match = is_ip4(src="198.51.100.%d" % i, dst=SINK4)
                c = xlat.counters()
                with Capture(xlat.h4, "d1") as d1, xlat.cap4() as cap4:
                    from_source(i)(xlat)
                    # Behind it, a marker each way it can go: it left xl
                    # before them, so it is in a capture by now.
                    by_markers(xlat, d1, cap4)
                    c.expect({"xlat-6to4": 3})
                    by1, by2 = cap4.matching(match), d1.matching(match)
                assert len(by1) + len(by2) == 1
                if by1:
                    found = i
                    break
            assert found is not None, "50 flows, none by G1"
            send, match = from_source(found), is_ip4(
                src="198.51.100.%d" % found, dst=SINK4)
            with xlat.cap4() as cap4:
                send(xlat)
                cap4.one(match)
            xlat.xl.ip("neigh", "replace", "203.0.113.50", "dev", "v4",
                       "nud", "failed")
            for _ in range(2):
                c = xlat.counters()
                with Capture(xlat.h4, "d1") as d1, xlat.cap4() as cap4:
                    send(xlat)
                    by_markers(xlat, d1, cap4)
                    d1.one(match)
                    c.expect({"xlat-6to4": 3})
                    assert_none(cap4, match)
        finally:
            xlat.xl.ip_batch(["route del %s/32" % SINK4, "nexthop flush"])
    both_translated(xlat)


def kernel_gateway(topo, i):
    """The gateway the kernel's own multipath hash picks for a packet
    from 198.51.100.I to SINK4 arriving on v6 (policy 0 hashes the
    addresses, as for the translated packet's output route)."""
    out = topo.xl.ip("-4", "route", "get", SINK4, "from",
                     "198.51.100.%d" % i, "iif", "v6").out
    words = out.split()
    assert "via" in words, "ip route get: %r" % out
    return words[words.index("via") + 1]


def test_multipath_route_each_source_its_path(xlat):
    """A multipath route to SINK4 (G1 on h4's link, G2 over d0): each
    translated source goes by the gateway the kernel's hash gives it, the
    first packets and the next ones alike. A route kept for one source
    serves others only where the route has one path: kept by destination
    alone, every flow would follow the first one's gateway."""
    gateways = {"203.0.113.50": "v4", "192.0.2.200": "d0"}
    sources = range(10, 34)
    with side_link(xlat):
        xlat.xl.ip_batch(GATEWAY_NEIGHBOURS + [
            "route add %s/32 nexthop via 203.0.113.50 dev v4 nexthop via "
            "192.0.2.200 dev d0 onlink" % SINK4,
        ])
        try:
            want = {i: gateways[kernel_gateway(xlat, i)] for i in sources}
            assert set(want.values()) == {"v4", "d0"}, \
                "%d sources, one gateway: the test would show nothing" % \
                len(want)
            for _ in range(2):
                c = xlat.counters()
                with Capture(xlat.h4, "d1") as d1, xlat.cap4() as cap4:
                    for i in sources:
                        from_source(i)(xlat)
                    by_markers(xlat, d1, cap4)
                    c.expect({"xlat-6to4": len(want) + 2})
                    for i in sources:
                        match = is_ip4(src="198.51.100.%d" % i, dst=SINK4)
                        got = {"v4": len(cap4.matching(match)),
                               "d0": len(d1.matching(match))}
                        assert got == {k: int(k == want[i]) for k in got}, \
                            "198.51.100.%d: %s, the kernel: %s" % (
                                i, got, want[i])
        finally:
            xlat.xl.ip("route", "del", SINK4 + "/32")
    both_translated(xlat)
