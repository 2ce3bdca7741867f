"""Routes that change while traffic is translated. The packet path keeps
the output route of the flows it saw last per CPU (mod/core/route_cache.c)
and uses it again while the kernel says it is valid (dst_check()); each
change below must be seen by the very next packet, in both directions:
a route added over the one in use, a blackhole, a policy rule, the
device of the route removed, a route deleted."""

import contextlib

from ternlib import (H4_6, H6_4, H6_LINK, SINK4, SINK6, XL4, Capture,
                     both_translated, embed, is_ip4, is_ip6, none_on,
                     nothing_out, run, udp4, udp6)

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
