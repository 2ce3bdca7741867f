"""Routes that change while traffic is translated. The packet path keeps
the output route of the flows it saw last per CPU (mod/core/route_cache.c)
and uses it again while the kernel says it is valid (dst_check()); each
change below must be seen by the very next packet, in both directions:
a route added over the one in use, a blackhole, a policy rule, the
device of the route removed, a route deleted, a nexthop group member
whose gateway's neighbour failed."""

import contextlib

from scapy.layers.inet import UDP
from scapy.layers.inet6 import IPv6
from scapy.packet import Raw

from ternlib import (H4_6, H4_MAC, H6_4, H6_LINK, SINK4, SINK4_6, SINK6, XL4,
                     Capture, both_translated, embed, is_ip4, is_ip6,
                     none_on, nothing_out, run, udp4, udp6)

D1_MAC = "02:00:00:00:d1:01"


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
        ])
        yield
    finally:
        topo.xl.ip("link", "del", "d0", check=False)


def out_on_d1(topo, send, match):
    """SEND(topo): translated, out d0 (seen on d1), not on h4's or h6's
    link."""
    c = topo.counters()
    with Capture(topo.h4, "d1") as d1, topo.cap4() as cap4, \
            topo.cap6() as cap6:
        send(topo)
        d1.one(match)
        none_on(lambda: c.expect({"xlat-6to4": 1} if send is send6 else
                                 {"xlat-4to6": 1}),
                (cap4, is_ip4(dst=SINK4)), (cap6, is_ip6(dst=SINK6)))


def test_blackhole_routes_added_and_removed(xlat):
    for _ in range(2):
        both_translated(xlat)
        xlat.xl.ip("route", "add", "blackhole", SINK4 + "/32")
        xlat.xl.ip("-6", "route", "add", "blackhole", SINK6 + "/128")
        try:
            nothing_out(xlat, send6, {"drop-no-route": 1})
            nothing_out(xlat, send4, {"drop-no-route": 1})
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
        nothing_out(xlat, send4, {"drop-no-route": 1})
    finally:
        xlat.xl.ip("-6", "route", "add", prefix6, "via", H6_LINK, "dev", "v6")
    both_translated(xlat)
    xlat.xl.ip("route", "del", "203.0.113.0/24", "dev", "v4")
    try:
        nothing_out(xlat, send6, {"drop-no-route": 1})
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
                nothing_out(xlat, send6, {"drop-no-route": 1})
                nothing_out(xlat, send4, {"drop-no-route": 1})
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


def test_nexthop_group_member_fails(xlat):
    """A route through a nexthop group (`ip nexthop`, as FRR installs
    routes): the kernel passes over a member whose gateway's neighbour
    failed, which changes no route generation. G1 leads to h4's link, G2
    over d0. A flow that goes by G1 (the group's first member: a failure
    of the second moves no flow) goes by G2 from the very next packet
    once G1's neighbour failed (with a route kept from before, it went on
    to the dead G1)."""
    with side_link(xlat):
        xlat.xl.ip_batch([
            "neigh replace 203.0.113.50 lladdr %s dev v4 nud permanent"
            % H4_MAC,
            "neigh replace 192.0.2.200 lladdr %s dev d0 nud permanent"
            % D1_MAC,
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
                    c.expect({"xlat-6to4": 1})
                    d1.settle(0.3)
                    cap4.settle(0.1)
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
                    d1.one(match)
                    none_on(lambda: c.expect({"xlat-6to4": 1}),
                            (cap4, match))
        finally:
            xlat.xl.ip_batch(["route del %s/32" % SINK4, "nexthop flush"])
    both_translated(xlat)
