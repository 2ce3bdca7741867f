"""pool6 removed from a running SIIT instance (`global set pool6 none`):
an instance left with its EAMT alone goes on translating what the EAMT
maps, passes what only pool6 mapped, and keeps its counters; a NAT64
instance, whose IPv4 peers are the addresses pool6 embeds, refuses."""

from scapy.layers.inet import IP

from ternlib import (H6, H6_4, POOL6, SINK4, SINK4_6, cli, cli_ok, embed,
                     globals_, is_ip4, udp6, xlat64)
from ternlib.nat64 import _nat64_module, nat  # noqa: F401


def test_siit_pool6_none_keeps_eamt_and_counters(xlat):
    cli_ok(xlat.xl, "-i", "t", "eamt", "add", H6 + "/128", H6_4 + "/32")
    cli_ok(xlat.xl, "-i", "t", "eamt", "add", SINK4_6 + "/128",
           SINK4 + "/32")
    xlat.defer(lambda: cli_ok(xlat.xl, "-i", "t", "eamt", "flush"))
    c = xlat.counters()
    xlat64(xlat, udp6())
    xlat.set_global("pool6", "none")
    assert globals_(xlat.xl, "t")["pool6"] is None
    # The EAMT maps both addresses: translated as before.
    f = xlat64(xlat, udp6())
    assert (f[IP].src, f[IP].dst) == (H6_4, SINK4)
    # Only pool6 mapped this destination: passed untranslated now.
    with xlat.cap4() as cap4:
        xlat.send6(udp6(dst=embed("203.0.113.77")))
        cap4.none(is_ip4(), proof=lambda: c.expect(
            {"xlat-6to4": 2, "pass-no-mapping": 1}))
    # Back, and pool6 maps again.
    xlat.set_global("pool6", POOL6)
    assert globals_(xlat.xl, "t")["pool6"] == POOL6


def test_nat64_pool6_none_refused(nat):
    before = globals_(nat.xl, "n")["pool6"]
    r = cli(nat.xl, "-i", "n", "global", "set", "pool6", "none")
    assert r.rc == 1, (r.rc, r.out, r.err)
    assert "a NAT64 instance needs pool6" in r.err
    assert globals_(nat.xl, "n")["pool6"] == before
