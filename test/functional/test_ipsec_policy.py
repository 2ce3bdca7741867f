"""IPsec output policies apply to translated packets of both families, as
they do to the host's own: the route of a translated packet is asked of
xfrm too (a policy that blocks refuses it: no route, answered as such).
The IPv4 lookup always asked; the IPv6 one did not, so translated IPv6
packets went out in the clear past a policy meant to protect them."""

import pytest

from ternlib import (SINK4, SINK6, both_translated, is_ip4, is_ip6, udp4,
                     udp6)


@pytest.fixture
def blocked(xlat):
    def block(*spec):
        xlat.xl.ip("xfrm", "policy", "add", *spec, "dir", "out", "action",
                   "block")
    xlat.defer(lambda: xlat.xl.ip("xfrm", "policy", "flush", check=False))
    return block


@pytest.mark.parametrize("direction", ["4to6", "6to4"])
def test_output_policy_applies(xlat, blocked, direction):
    """A policy that blocks the translated packet's destination: the IPv6
    one (4->6) was bypassed before; the IPv4 one (6->4) is the control."""
    if direction == "4to6":
        dst, send, cap, pkt = SINK6 + "/128", xlat.send4, xlat.cap6, udp4()
        match = is_ip6(dst=SINK6)
    else:
        dst, send, cap, pkt = SINK4 + "/32", xlat.send6, xlat.cap4, udp6()
        match = is_ip4(dst=SINK4)
    both_translated(xlat)
    blocked("dst", dst)
    c = xlat.counters()
    with cap() as capture:
        send(pkt)
        capture.none(match, proof=lambda: c.expect({"drop-no-route": 1}))
    xlat.xl.ip("xfrm", "policy", "flush")
    both_translated(xlat)
