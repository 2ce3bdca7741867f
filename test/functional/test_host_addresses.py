"""Addresses that become, and stop being, the translator host's own while
traffic flows. The packet path remembers its answers to "is this address
the host's?" per CPU (mod/core/host.c); each change below must be seen by
the very next packet, in both directions and for both families."""

from ternlib import (H6, H6_4, SINK4_6, SINK6_4, both_translated, nothing_out,
                     udp4, udp6)


def toggled(topo, add, delete, send, expected):
    """Twice: translated; ADD (a command in xl); SEND(topo) now bumps the
    EXPECTED counters and nothing is translated; DELETE. Then translated
    again."""
    for _ in range(2):
        both_translated(topo)
        topo.xl.ip(*add)
        try:
            nothing_out(topo, send, expected)
        finally:
            topo.xl.ip(*delete)
    both_translated(topo)


def test_ipv6_destination_becomes_local_and_back(xlat):
    """6->4: a pool6 destination assigned to the host is delivered to it."""
    addr = [SINK4_6 + "/128", "dev", "v6"]
    toggled(xlat, ["addr", "add", *addr, "nodad"], ["addr", "del", *addr],
            lambda t: t.send6(udp6(dst=SINK4_6)), {"pass-local": 1})


def test_ipv4_destination_becomes_local_and_back(xlat):
    """4->6: a destination assigned to the host is delivered to it."""
    addr = [SINK6_4 + "/32", "dev", "lo"]
    toggled(xlat, ["addr", "add", *addr], ["addr", "del", *addr],
            lambda t: t.send4(udp4(dst=SINK6_4)), {"pass-local": 1})


def test_translated_source_becomes_host_and_back(xlat):
    """6->4: a source that maps to one of the host's IPv4 addresses would
    be a martian on the IPv4 side (RFC 7915 5.1): dropped, until the
    address goes away."""
    addr = [H6_4 + "/32", "dev", "lo"]
    toggled(xlat, ["addr", "add", *addr], ["addr", "del", *addr],
            lambda t: t.send6(udp6(src=H6)), {"drop-special4": 1})


def test_local_route_added_and_removed(xlat):
    """A route of type local (no address: AnyIP) makes a destination the
    host's too, and deleting it gives the destination back."""
    route = ["local", SINK6_4 + "/32", "dev", "lo", "table", "local"]
    toggled(xlat, ["route", "add", *route], ["route", "del", *route],
            lambda t: t.send4(udp4(dst=SINK6_4)), {"pass-local": 1})
