"""The NAT64 tables' hash arrays follow max-sessions (docs/design.md,
tables: sizing): `global set max-sessions` raised and lowered under live
sessions; the flows keep translating both ways with the same mappings, no
session is lost, and `tern stats` bucket-bytes says the arrays' new size
(two session arrays of max-sessions buckets rounded up to a power of two,
at least 1024; two BIB arrays of half that, at least 1024; one array of
peer records and one of subscriber records of a quarter, at least 1024;
8 bytes a bucket). Growing happens at once, shrinking only at a quarter
or less.
"""

from scapy.layers.inet import IP, UDP

from ternlib import SINK4_6, assert_ipv6, cli_json, is_ip6
from ternlib.nat64 import (CLIENT, _nat64_module, nat,  # noqa: F401
                           out46, out64, udp4, udp6)

OTHER4 = "203.0.113.77"            # a second IPv4 peer (on h4's link)

PORTS = range(44000, 44020, 2)


def stats(topo):
    return cli_json(topo.xl, "-i", "n", "stats")["tables"]


def bucket_bytes(sess_buckets):
    return (2 * (sess_buckets + max(sess_buckets // 2, 1024)) +
            2 * max(sess_buckets // 4, 1024)) * 8


def check_flows(topo, maps):
    for sport, (src4, sport4) in maps.items():
        f = out64(topo, udp6(sport=sport))
        assert (f[IP].src, f[UDP].sport) == (src4, sport4)
        g = out46(topo, udp4(src4, sport4, n=30))
        assert_ipv6(g, src=SINK4_6, dst=CLIENT)
        assert (g[UDP].sport, g[UDP].dport) == (4000, sport)


def check_filtering(topo, maps):
    """Address-dependent filtering through the moved peer records: the
    known peer passes from another port (a session of its own), another
    address does not."""
    for sport, (src4, sport4) in maps.items():
        g = out46(topo, udp4(src4, sport4, rport=4001))
        assert (g[UDP].sport, g[UDP].dport) == (4001, sport)
        c = topo.counters()
        with topo.cap6() as cap:
            topo.send4(udp4(src4, sport4, src=OTHER4))
            cap.none(is_ip6(dst=CLIENT),
                     proof=lambda: c.expect({"drop-filtered": 1}))


def test_max_sessions_resizes_live_tables(nat):
    # Sessions made with address-dependent filtering on have peer records,
    # which move too.
    nat.set("address-dependent-filtering", "true")
    nat.set("max-sessions", "1024")
    s = stats(nat)
    assert s["bucket-bytes"] == bucket_bytes(1024)
    maps = {}
    for sport in PORTS:
        f = out64(nat, udp6(sport=sport))
        maps[sport] = (f[IP].src, f[UDP].sport)
    assert stats(nat)["sessions"] == len(PORTS)
    c = nat.counters()

    # Raised: the arrays grow at once.
    nat.set("max-sessions", "1000000")
    s = stats(nat)
    assert s["bucket-bytes"] == bucket_bytes(1 << 20)
    assert s["max-sessions"] == 1000000
    assert (s["sessions"], s["bib-entries"]) == (len(PORTS), len(PORTS))
    check_flows(nat, maps)

    # Lowered to half, then to a bit over a quarter: kept (hysteresis).
    nat.set("max-sessions", "524288")
    nat.set("max-sessions", "262145")
    assert stats(nat)["bucket-bytes"] == bucket_bytes(1 << 20)

    # Lowered to a quarter or less: they shrink.
    nat.set("max-sessions", "2000")
    s = stats(nat)
    assert s["bucket-bytes"] == bucket_bytes(2048)
    assert (s["sessions"], s["bib-entries"]) == (len(PORTS), len(PORTS))
    check_flows(nat, maps)
    n = 2 * len(PORTS)
    c.expect({"xlat-6to4": n, "xlat-4to6": n})
    check_filtering(nat, maps)
    assert stats(nat)["sessions"] == 2 * len(PORTS)
