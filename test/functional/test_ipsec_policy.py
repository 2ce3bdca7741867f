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


def test_ipv6_output_policy_applies_4to6(xlat, blocked):
    both_translated(xlat)
    blocked("dst", SINK6 + "/128")
    c = xlat.counters()
    with xlat.cap6() as cap6:
        xlat.send4(udp4())
        cap6.none(is_ip6(dst=SINK6),
                  proof=lambda: c.expect({"drop-no-route": 1}))
    xlat.xl.ip("xfrm", "policy", "flush")
    both_translated(xlat)


def test_ipv4_output_policy_applies_6to4(xlat, blocked):
    both_translated(xlat)
    blocked("dst", SINK4 + "/32")
    c = xlat.counters()
    with xlat.cap4() as cap4:
        xlat.send6(udp6())
        cap4.none(is_ip4(dst=SINK4),
                  proof=lambda: c.expect({"drop-no-route": 1}))
    xlat.xl.ip("xfrm", "policy", "flush")
    both_translated(xlat)
