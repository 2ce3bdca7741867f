"""Deterministic NAT64 (RFC 7422): det-space, det-block-size.

The standard NAT64 topology (ternlib.nat64): pool4 198.51.100.16/30 (4
addresses, TCP and UDP ports 1024-65535). Each test turns deterministic
mode on with det-space 2001:db8:6::/120 and subscriber-prefix-len 128
(256 subscribers, one per address) and det-block-size 4: subscriber i
owns ports 1024 + (i div 4) * 4 .. + 3 of address i mod 4. Every BIB
entry must lie in the block `tern det lookup` gives for its subscriber,
computed from the running configuration and, offline, from the file
`tern config show` writes.
"""

import ipaddress
import json

from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.inet6 import ICMPv6DestUnreach, IPv6
from scapy.packet import Raw

from ternlib import assert_error, cli, cli_json, cli_ok
from ternlib.frames import is_ip4, is_ip6
from ternlib.names import H6_MAC, SINK4, SINK4_6
from ternlib.nat64 import (_nat64_module, all_bib, all_sessions,  # noqa
                           nat, out46, out64, tcp_state, udp6)

SPACE = "2001:db8:6::/120"
SUBS = ["2001:db8:6::1", "2001:db8:6::2", "2001:db8:6::5",
        "2001:db8:6::99"]


def _det_on(topo, block=4, sources=SUBS):
    topo.xl.ip_batch(["neigh replace %s lladdr %s dev v6 nud permanent"
                      % (s, H6_MAC) for s in sources])
    topo.set("subscriber-prefix-len", "128")
    topo.set("det-block-size", str(block))
    cli_ok(topo.xl, "-i", "n", "global", "set", "det-space", SPACE)
    topo.defer(lambda: cli_ok(topo.xl, "-i", "n", "global", "set",
                              "det-space", "none"))


def _expected(sub, block=4):
    """The block of SUB by the documented formula, independently."""
    i = int(ipaddress.IPv6Address(sub)) & 0xff
    addr = str(ipaddress.IPv4Address("198.51.100.16") + i % 4)
    first = 1024 + (i // 4) * block
    return addr, first, first + block - 1


def _lookup(topo, *args):
    return cli_json(topo.xl, "-i", "n", "det", "lookup", *args)


def test_det_bib_entries_in_their_block(nat, tmp_path):
    _det_on(nat)
    conf = tmp_path / "tern.json"
    conf.write_text(cli_ok(nat.xl, "config", "show"))
    c = nat.counters()
    got = {}
    for k, sub in enumerate(SUBS):
        f = out64(nat, udp6(src=sub, sport=40000 + k))
        got[sub] = (f[IP].src, f[UDP].sport)
    c.expect({"xlat-6to4": len(SUBS)})
    bib = cli_json(nat.xl, "-i", "n", "bib", "list", "--udp", changing=True)
    assert sorted((b["address6"], b["port6"]) for b in bib) == \
        sorted((s, 40000 + k) for k, s in enumerate(SUBS))
    for b in bib:
        sub = b["address6"]
        addr, first, last = _expected(sub)
        assert got[sub][0] == b["address4"] == addr
        assert first <= b["port4"] <= last
        assert got[sub][1] == b["port4"]
        # The subscriber's block, running and offline, as the formula.
        want = [{"protocol": "udp", "subscriber": sub + "/128",
                 "index": int(ipaddress.IPv6Address(sub)) & 0xff,
                 "address4": addr, "port-first": first,
                 "port-last": last, "box": 0}]
        assert _lookup(nat, sub, "--udp") == want
        assert _lookup(nat, "--config", str(conf), sub, "--udp") == want
        # And back: the IPv4 transport address names the subscriber.
        t4 = "%s#%d" % (b["address4"], b["port4"])
        assert _lookup(nat, t4, "--udp") == want
        assert _lookup(nat, "--config", str(conf), t4, "--udp") == want


def test_det_block_exhausted_refused_and_counted(nat):
    sub = "2001:db8:6::7"
    _det_on(nat, sources=[sub, "2001:db8:6::99"])
    addr, first, last = _expected(sub)
    ports = set()
    for k in range(4):
        f = out64(nat, udp6(src=sub, sport=41000 + k))
        assert f[IP].src == addr
        ports.add(f[UDP].sport)
    assert ports == set(range(first, last + 1))
    # The fifth flow: the block is full; refused, never another block.
    c = nat.counters()
    with nat.cap4() as cap4, nat.cap6() as cap6:
        nat.send6(udp6(src=sub, sport=41004))
        e = cap6.one(is_ip6(dst=sub))
        cap4.none(is_ip4(dst=SINK4),
                  proof=lambda: c.expect({"drop-det-block-full": 1}))
    assert (e[ICMPv6DestUnreach].type, e[ICMPv6DestUnreach].code) == (1, 3)
    # Another subscriber still gets its own block.
    addr, first, last = _expected("2001:db8:6::99")
    f = out64(nat, udp6(src="2001:db8:6::99", sport=41005))
    assert f[IP].src == addr and first <= f[UDP].sport <= last


def test_det_outside_space_refused_and_counted(nat):
    out = "2001:db8:6::1:1"
    _det_on(nat, sources=[out])
    c = nat.counters()
    with nat.cap4() as cap4:
        nat.send6(udp6(src=out, sport=42000))
        cap4.none(is_ip4(dst=SINK4),
                  proof=lambda: c.expect({"drop-det-outside-space": 1}))
    assert cli_json(nat.xl, "-i", "n", "bib", "list", changing=True) == []
    assert_error(cli(nat.xl, "-i", "n", "det", "lookup", out), 1,
                 "outside det-space")


def test_det_unsatisfiable_config_refused(nat, tmp_path):
    _det_on(nat)
    # 2^28 subscribers do not fit 4 addresses x 16128 blocks of 4 ports.
    assert_error(cli(nat.xl, "-i", "n", "global", "set", "det-space",
                     "2001:db8:6::/100"), 1,
                 "det: 268435456 subscribers > TCP: 4 addrs x 16128 "
                 "blocks of 4")
    assert_error(cli(nat.xl, "-i", "n", "global", "set", "det-block-size",
                     "65000"), 1,
                 "det-block-size 65000 is more than the 64512 TCP ports")
    # A pool4 entry of another mark is refused while the mode is on.
    assert_error(cli(nat.xl, "-i", "n", "pool4", "add", "203.0.113.1",
                     "2000-3000", "--udp", "--mark", "5"), 1,
                 r"mark 0 only \(not 5\)")
    g = cli_json(nat.xl, "-i", "n", "global", "show")
    assert (g["det-space"], g["det-block-size"]) == (SPACE, 4)
    pool = cli_json(nat.xl, "-i", "n", "pool4", "list")
    assert all(p["mark"] == 0 for p in pool)
    # tern config apply: the whole file refused, nothing changed.
    conf = json.loads(cli_ok(nat.xl, "config", "show"))
    conf["instances"][0]["globals"]["det-space"] = "2001:db8:6::/100"
    path = tmp_path / "tern.json"
    path.write_text(json.dumps(conf))
    r = cli(nat.xl, "config", "apply", str(path))
    assert r.rc == 1 and "det: 268435456 subscribers > TCP" in r.err, r.err
    g = cli_json(nat.xl, "-i", "n", "global", "show")
    assert g["det-space"] == SPACE


# Failover (docs/deterministic.md): a TCP segment that is not a SYN, of a
# flow another box had, rebuilds the session with the other box's port.
REB = "2001:db8:6::5"
DATA = b"rebuilt-flow-data"


def _seg6(flags, seq=2000, ack=7000, data=b""):
    return IPv6(src=REB, dst=SINK4_6, hlim=64) / \
        TCP(sport=45000, dport=80, flags=flags, seq=seq, ack=ack,
            window=1000) / Raw(data)


def _same_config_new_instance(topo, tmp_path):
    """Instance "n" replaced by a new one from its own configuration (a
    standby box: the same settings, no state, another random key)."""
    conf = tmp_path / "standby.json"
    conf.write_text(cli_ok(topo.xl, "config", "show"))
    cli_ok(topo.xl, "instance", "remove", "n")
    cli_ok(topo.xl, "config", "apply", str(conf))
    assert all_bib(topo) == [] and all_sessions(topo) == []


def test_det_tcp_rebuilt_from_ipv6_with_the_first_boxs_port(nat, tmp_path):
    _det_on(nat, sources=[REB])
    nat.set("tcp-nosyn-with-bib", "true")
    addr, first, last = _expected(REB)
    # The flow's SYN on the first box: its IPv4 transport address.
    syn = out64(nat, _seg6("S", seq=1999, ack=0))
    t4 = (syn[IP].src, syn[TCP].sport)
    assert t4[0] == addr and first <= t4[1] <= last
    _same_config_new_instance(nat, tmp_path)
    c = nat.counters()
    # From IPv4 first: nothing to rebuild from, dropped and counted.
    with nat.cap6() as cap6:
        nat.send4(IP(src=SINK4, dst=t4[0], ttl=64) /
                  TCP(sport=80, dport=t4[1], flags="A", seq=7000, ack=2000,
                      window=1000))
        cap6.none(is_ip6(dst=REB),
                  proof=lambda: c.expect({"drop-no-session": 1}))
    # The standby sees the flow's next IPv6 segment: data, an ACK.
    f = out64(nat, _seg6("PA", data=DATA))
    assert (f[IP].src, f[TCP].sport) == t4
    assert (f[IP].dst, f[TCP].dport, f[IP].ttl) == (SINK4, 80, 63)
    assert (f[TCP].seq, f[TCP].ack, str(f[TCP].flags)) == (2000, 7000, "PA")
    assert bytes(f[TCP].payload) == DATA
    c.expect({"drop-no-session": 1, "xlat-6to4": 1, "tcp-rebuilt": 1})
    bib = all_bib(nat)
    assert [(b["address6"], b["port6"], b["address4"], b["port4"])
            for b in bib] == [(REB, 45000, t4[0], t4[1])]
    assert tcp_state(nat, 45000) == ["V6_REBUILT"]
    # More IPv6 segments leave it so; the server's answer passes and
    # makes it ESTABLISHED.
    out64(nat, _seg6("A", seq=2000 + len(DATA)))
    assert tcp_state(nat, 45000) == ["V6_REBUILT"]
    r = out46(nat, IP(src=SINK4, dst=t4[0], ttl=64) /
              TCP(sport=80, dport=t4[1], flags="A", seq=7000,
                  ack=2000 + len(DATA), window=1000),
              match=is_ip6(dst=REB))
    assert (r[IPv6].src, r[TCP].sport, r[TCP].dport) == (SINK4_6, 80, 45000)
    assert (r[TCP].seq, r[TCP].ack, str(r[TCP].flags)) == \
        (7000, 2000 + len(DATA), "A")
    assert tcp_state(nat, 45000) == ["ESTABLISHED"]
    c.expect({"drop-no-session": 1, "xlat-6to4": 2, "xlat-4to6": 1,
              "tcp-rebuilt": 1})


def test_det_no_rebuild_without_tcp_nosyn_with_bib(nat):
    _det_on(nat, sources=[REB])
    c = nat.counters()
    with nat.cap4() as cap4:
        nat.send6(_seg6("PA", data=DATA))
        cap4.none(is_ip4(dst=SINK4),
                  proof=lambda: c.expect({"drop-tcp-nosyn": 1}))
    assert all_sessions(nat) == [] and all_bib(nat) == []
