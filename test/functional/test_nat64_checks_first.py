"""NAT64: what is not translated leaves no state, and pool4's transport
addresses are the NAT64's even on an address of the host.

- A packet that fails a check of the translator (TTL or hop limit, an
  untranslatable source route, no route, too big for the route's MTU)
  creates no BIB entry and no session, in either direction; a source
  route is refused before the TTL is looked at.
- With pool4 on an address the host owns, a packet to a port of a pool4
  range is the NAT64's, state or no state (UDP: Host Unreachable, TCP SYN:
  kept for a simultaneous open); the host gets its other ports; a
  translated packet (a hairpin) is never delivered to the host itself.
"""

import itertools
import threading

import pytest
from scapy.layers.inet import ICMP, IP, TCP, UDP, IPerror, TCPerror, UDPerror
from scapy.layers.inet6 import (ICMPv6DestUnreach, ICMPv6PacketTooBig,
                                ICMPv6TimeExceeded, IPerror6, IPv6)
from scapy.packet import Raw

from ternlib import (PAYLOAD, SINK4, assert_frame6, cli, cli_json,
                     cli_ok, embed, icmp6_message, ip4_packet, is_ip4, is_ip6,
                     udp_datagram)
from ternlib.nat64 import (CLIENT, POOL4_NET, _nat64_module,  # noqa: F401
                           nat, out64, sessions, tables, udp6,
                           udp6_frames, wait_until)

# An address pool4 does not hold, for a second instance-owned range.
HOST4 = "198.51.100.20"
HOST4_RANGE = (10000, 20000)


def is_icmp4(type_, code):
    return lambda f: ICMP in f and f[IP].dst == SINK4 and \
        (f[ICMP].type, f[ICMP].code) == (type_, code)


def udp_bib(topo, sport):
    """A UDP flow of CLIENT from SPORT: its IPv4 transport address."""
    f = out64(topo, udp6(sport=sport))
    return f[IP].src, f[UDP].sport


def icmp4_answer(nat, pkt, type_, code, counter, sessions):
    """PKT from SINK4 is answered with ICMP TYPE_/CODE and counted as
    COUNTER; SESSIONS sessions after. Returns the answer."""
    c = nat.counters()
    with nat.cap4() as cap4:
        nat.send4(pkt)
        e = cap4.one(is_icmp4(type_, code))
    c.expect({counter: 1})
    assert nat_sessions(nat) == sessions
    return e


# --- 4->6 ------------------------------------------------------------------


def test_ttl1_from_outside_makes_no_session(nat):
    """Endpoint-independent filtering would open a session for a new peer
    port; with TTL 1 the packet gets Time Exceeded and opens nothing."""
    a4, p4 = udp_bib(nat, 41000)
    assert nat_sessions(nat) == 1
    pkt = IP(src=SINK4, dst=a4, ttl=1) / UDP(sport=5555, dport=p4) / \
        Raw(b"x" * 8)
    e = icmp4_answer(nat, pkt, 11, 0, "drop-ttl", sessions=1)
    assert (e[IPerror].dst, e[UDPerror].dport) == (a4, p4)


def test_source_route_refused_before_ttl(nat):
    """An unexpired loose source route cannot be translated: Source Route
    Failed (3/5), even at TTL 1, and no session."""
    a4, p4 = udp_bib(nat, 41002)
    # LSRR: type 131, length 7, pointer 4 (unexpired), one address; NOP.
    lsrr = bytes([131, 7, 4, 192, 0, 2, 9, 1])
    pkt = ip4_packet(SINK4, a4, 17, udp_datagram(SINK4, a4, 5556, p4, b"x"),
                     ttl=1, options=lsrr)
    icmp4_answer(nat, pkt, 3, 5, "drop-srcroute", sessions=1)


def test_no_route_4to6_makes_no_session(nat):
    """The IPv6 host of the BIB entry has no route any more: Host
    Unreachable, and the session the packet would have opened is gone."""
    a4, p4 = udp_bib(nat, 41004)
    spec = ["unreachable", CLIENT + "/128"]
    nat.temp_route(nat.xl, *spec)
    pkt = IP(src=SINK4, dst=a4, ttl=64) / UDP(sport=5557, dport=p4)
    icmp4_answer(nat, pkt, 3, 1, "drop-no-route", sessions=1)


def test_too_big_4to6_makes_no_session(nat):
    """DF set and too big for the route to the IPv6 host (MTU 1280):
    Fragmentation Needed with the IPv4 size that fits (1260), and the
    session the packet would have opened is gone."""
    a4, p4 = udp_bib(nat, 41006)
    nat.temp_route(nat.xl, CLIENT + "/128", "dev", "v6", "mtu", "1280")
    pkt = IP(src=SINK4, dst=a4, ttl=64, flags="DF") / \
        UDP(sport=5558, dport=p4) / Raw(b"x" * 1300)
    e = icmp4_answer(nat, pkt, 3, 4, "drop-too-big", sessions=1)
    assert e[ICMP].nexthopmtu == 1260


# --- 6->4 ------------------------------------------------------------------


def test_hop_limit_1_makes_no_session(nat):
    c = nat.counters()
    pkt = udp6(sport=41010)
    pkt[IPv6].hlim = 1
    with nat.cap6() as cap6:
        nat.send6(pkt)
        e = cap6.one(lambda f: ICMPv6TimeExceeded in f)
    assert e[IPv6].dst == CLIENT
    c.expect({"drop-ttl": 1})
    assert tables(nat) == (0, 0)


def test_no_route_6to4_makes_no_session(nat):
    """No IPv4 route to the destination: No Route (1/0) back, and neither
    the session nor the BIB entry made for the packet stays."""
    nat.temp_route(nat.xl, "unreachable", "192.0.2.0/24")
    c = nat.counters()
    pkt = udp6(sport=41012, dst=embed("192.0.2.77"))
    with nat.cap6() as cap6:
        nat.send6(pkt)
        e = cap6.one(lambda f: ICMPv6DestUnreach in f)
    assert (e[ICMPv6DestUnreach].type, e[ICMPv6DestUnreach].code) == (1, 0)
    c.expect({"drop-no-route": 1})
    assert tables(nat) == (0, 0)
    # The same flow with a route is translated and keeps its session.
    out64(nat, udp6(sport=41012))
    assert tables(nat) == (1, 1)


def test_too_big_6to4_makes_no_session(nat):
    """The translated packet (1320 bytes, DF: above 1260) does not fit the
    route's MTU (1300): Packet Too Big with the IPv6 size that fits
    (1320), and neither the session nor the BIB entry made for it stays;
    a datagram that fits goes out through a session of the same flow."""
    nat.temp_route(nat.xl, "192.0.2.0/24", "via", "203.0.113.2", "mtu", "1300")
    c = nat.counters()
    pkt = udp6(sport=41014, dst=embed("192.0.2.78"), n=1292)
    with nat.cap6() as cap6:
        nat.send6(pkt)
        e = cap6.one(lambda f: ICMPv6PacketTooBig in f)
    assert (e[IPv6].dst, e[ICMPv6PacketTooBig].mtu) == (CLIENT, 1320)
    c.expect({"drop-too-big": 1})
    assert tables(nat) == (0, 0)
    with nat.cap4() as cap4:
        nat.send6(udp6(sport=41014, dst=embed("192.0.2.78"), n=1200))
        cap4.one(is_ip4(dst="192.0.2.78"))
    assert tables(nat) == (1, 1)


def hairpin_answered(nat, pkt, type_, code, rest, counters):
    """PKT, a hairpin CLIENT sends, is dropped by its way back to IPv6;
    the ICMPv4 error that way owes it (addressed to pool4, the
    translator's own) reaches CLIENT translated, as an error about a
    hairpinned packet does: ICMPv6 TYPE_/CODE/REST from the pool6 address
    PKT was sent to, hop limit 63, quoting PKT as CLIENT sent it (as much
    as the 576-byte ICMPv4 error held: 548 bytes, 568 as IPv6). COUNTERS
    and the error's translation are counted; nothing else reaches
    CLIENT."""
    c = nat.counters()
    with nat.cap6() as cap6:
        nat.send6(pkt)
        e = cap6.one(is_ip6(dst=CLIENT, nh=58))
        cap6.none(is_ip6(dst=CLIENT, nh=17), proof=lambda: c.expect(
            dict(counters, **{"xlat-hairpin": 1,
                              "xlat-icmp-error-4to6": 1})))
    want = icmp6_message(pkt[IPv6].dst, CLIENT, type_, code, rest,
                         bytes(pkt)[:568])
    raw = assert_frame6(e, tc=0, plen=len(want), nh=58, hlim=63,
                        src=pkt[IPv6].dst, dst=CLIENT)
    assert raw[40:] == want


def test_hairpin_too_big_answered_and_makes_no_session(nat):
    """A hairpin (RFC 6146 3.8: CLIENT to its own IPv4 transport address
    of another flow) whose translation back to IPv6 is too big for the
    route to the destination (MTU 1280, the packet 1348 bytes, DF: more
    than 1260 as IPv4) is dropped, and its sender gets Packet Too Big
    with MTU 1280 (the Fragmentation Needed of the way back, 1260,
    translated); neither the session its way out made nor the one its way
    back made stays, only the other flow's."""
    b = out64(nat, udp6(sport=47012))
    assert tables(nat) == (1, 1)
    nat.temp_route(nat.xl, CLIENT + "/128", "dev", "v6", "mtu", "1280")
    pkt = udp6(sport=47010, dport=b[UDP].sport, dst=embed(b[IP].src),
               n=1300)
    hairpin_answered(nat, pkt, 2, 0, (1280).to_bytes(4, "big"),
                     {"drop-too-big": 1})
    assert [s["port6"] for s in sessions(nat, "udp")] == [47012]
    assert tables(nat) == (1, 1)


def test_hairpin_to_unbound_port_answered(nat):
    """A UDP hairpin to a pool4 transport address no BIB entry binds: the
    way back finds no session (RFC 6146 3.5.1: Host Unreachable) and the
    sender hears it as No Route (RFC 7915 4.2: 1/0); the session its way
    out made goes."""
    b = out64(nat, udp6(sport=47014))
    free = b[UDP].sport + 1 if b[UDP].sport < 65535 else b[UDP].sport - 1
    pkt = udp6(sport=47016, dport=free, dst=embed(b[IP].src))
    hairpin_answered(nat, pkt, 1, 0, b"\0\0\0\0",
                     {"drop-no-session": 1})
    assert [s["port6"] for s in sessions(nat, "udp")] == [47014]


@pytest.mark.parametrize("amend", [False, True])
def test_hairpin_udp_zero_checksum_kept(nat, amend):
    """IPv6 UDP with a zero checksum (RFC 6936: middleboxes forward it)
    leaves on IPv4 with 0, "none" there (rfc7915.md 5-50a); a hairpin
    takes it back to IPv6 as it came: with checksum 0, neither dropped as
    IPv4 UDP without checksum (drop-udp-csum0) nor given a checksum over
    data nobody summed (amend-udp-checksum-zero)."""
    nat.set("amend-udp-checksum-zero", "true" if amend else "false")
    b = out64(nat, udp6(sport=47022))
    pkt = udp6(sport=47020, dport=b[UDP].sport, dst=embed(b[IP].src))
    pkt[UDP].chksum = 0
    c = nat.counters()
    with nat.cap6() as cap6:
        nat.send6(pkt)
        f = cap6.one(is_ip6(dst=CLIENT, nh=17))
    c.expect({"xlat-hairpin": 1, "xlat-4to6": 1})
    assert (f[UDP].dport, f[UDP].chksum) == (47022, 0)
    assert bytes(f[UDP].payload) == bytes(pkt[UDP].payload)


# --- pool4 on an address of the host --------------------------------------


def host_pool4(topo):
    """HOST4 on xl's loopback and in pool4 with TCP, UDP and ICMP ranges
    HOST4_RANGE; both taken back afterwards."""
    lo, hi = HOST4_RANGE
    topo.xl.ip("addr", "add", HOST4 + "/32", "dev", "lo")
    topo.defer(lambda: topo.xl.ip("addr", "del", HOST4 + "/32", "dev", "lo",
                                  check=False))
    cli_ok(topo.xl, "-i", "n", "pool4", "add", HOST4, "%d-%d" % (lo, hi),
           "--tcp", "--udp", "--icmp")
    topo.defer(lambda: cli_ok(topo.xl, "-i", "n", "pool4", "remove", HOST4,
                              "--tcp", "--udp", "--icmp"))


def test_udp_to_pool4_port_of_host_address_is_nat64s(nat):
    """No BIB entry: RFC 6146 3.5.1 Host Unreachable from the NAT64, not
    the host's own Port Unreachable."""
    host_pool4(nat)
    icmp4_answer(nat, IP(src=SINK4, dst=HOST4, ttl=64) /
                 UDP(sport=5000, dport=15000) / Raw(b"x" * 8),
                 3, 1, "drop-no-session", sessions=0)


def test_tcp_syn_to_pool4_port_of_host_address_is_stored(nat):
    """Kept for a simultaneous open, then answered by the NAT64 with Port
    Unreachable quoting it (RFC 6146 3.5.2.2), not by the host's stack
    (which would answer at once with a RST)."""
    host_pool4(nat)
    c = nat.counters()
    with nat.cap4() as cap4:
        nat.send4(IP(src=SINK4, dst=HOST4, ttl=64) /
                  TCP(sport=5001, dport=15001, flags="S", seq=7))
        c.expect({"syn-stored": 1})
        e = cap4.one(is_icmp4(3, 3), timeout=12)
        assert cap4.matching(lambda f: TCP in f and f[IP].src == HOST4) == []
    assert (e[IP].src, e[IPerror].dst) == (HOST4, HOST4)
    assert (e[TCPerror].sport, e[TCPerror].dport, e[TCPerror].seq) == \
        (5001, 15001, 7)


def test_other_ports_of_host_address_are_the_hosts(nat):
    """A port outside every pool4 range reaches the host, which answers
    itself (nothing listens: its own Port Unreachable, 3/3); so does a
    ping whose identifier is outside the ICMP range."""
    host_pool4(nat)
    c = nat.counters()
    with nat.cap4() as cap4:
        nat.send4(IP(src=SINK4, dst=HOST4, ttl=64) /
                  UDP(sport=5002, dport=30000) / Raw(b"x" * 8))
        cap4.one(is_icmp4(3, 3))
        nat.send4(IP(src=SINK4, dst=HOST4, ttl=64) /
                  ICMP(type=8, id=40000, seq=1) / Raw(b"ping"))
        cap4.one(lambda f: ICMP in f and f[ICMP].type == 0 and
                 f[ICMP].id == 40000)
    c.expect({"pass-local": 2})


@pytest.mark.parametrize("proto", [58, 44], ids=["icmpv6", "fragment"])
def test_other_family_protocol_to_host_address_is_the_hosts(nat, proto):
    """A protocol number of IPv6 (which Tern would drop, not translate) to
    the host's pool4 address is the host's to judge: passed, and the host
    answers it has no such protocol (its own Protocol Unreachable)."""
    host_pool4(nat)
    c = nat.counters()
    with nat.cap4() as cap4:
        nat.send4(IP(src=SINK4, dst=HOST4, ttl=64, proto=proto) /
                  Raw(b"x" * 16))
        e = cap4.one(is_icmp4(3, 2))
    assert (e[IP].src, e[IPerror].proto) == (HOST4, proto)
    c.expect({"pass-local": 1})


def test_hairpin_to_host_port_not_delivered_to_host(nat):
    """An IPv6 host sends to the host-owned pool4 address at a port no
    pool4 range holds: translated to IPv4, the packet would be the host's
    (a hairpin's second pass passes it); it is dropped, never delivered
    to the translator itself, and the session made for it goes."""
    host_pool4(nat)
    c = nat.counters()
    with nat.cap6() as cap6, nat.cap4() as cap4:
        nat.send6(udp6(sport=41020, dport=30000, dst=embed(HOST4)))
        # The second pass says why it would pass (pass-local), the
        # drop what became of the packet.
        cap4.none(is_ip4(), proof=lambda: c.expect(
            {"pass-local": 1, "drop-to-self": 1}))
        assert cap6.matching(is_ip6(dst=CLIENT)) == []
    assert tables(nat) == (0, 0)


def pool4_on_host(topo):
    """Each address of pool4 on xl's loopback (as /32s: a /30 would make
    two of them a subnet's network and broadcast addresses)."""
    for a in POOL4_NET:
        topo.xl.ip("addr", "add", "%s/32" % a, "dev", "lo")
        topo.defer(lambda a=a: topo.xl.ip("addr", "del", "%s/32" % a, "dev",
                                          "lo", check=False))


def nat_sessions(topo):
    return len(sessions(topo, "udp"))


# --- pool4 entries removed ---------------------------------------------------


def test_pool4_remove_takes_its_bib_entries_and_sessions(nat):
    """Removing pool4's UDP range removes the dynamic UDP BIB entries made
    from it with their sessions (outbound traffic would keep them alive,
    and the address in use, for ever); static entries and the other
    protocols' state stay."""
    a4, p4 = udp_bib(nat, 41030)
    out64(nat, IPv6(src=CLIENT, dst=embed(SINK4), hlim=64) /
          TCP(sport=41031, dport=80, flags="S", seq=1))
    static = ("2001:db8:6::98#5353", "198.51.100.17#1053")
    cli_ok(nat.xl, "-i", "n", "bib", "add", *static, "--udp")
    nat.defer(lambda: cli_ok(nat.xl, "-i", "n", "bib", "remove", static[0],
                             "--udp"))
    assert (len(sessions(nat, "udp")), len(sessions(nat, "tcp"))) == (1, 1)
    cli_ok(nat.xl, "-i", "n", "pool4", "remove", str(POOL4_NET), "--udp")
    nat.defer(lambda: cli_ok(nat.xl, "-i", "n", "pool4", "add",
                             str(POOL4_NET), "--udp"))
    assert sessions(nat, "udp") == []
    assert len(sessions(nat, "tcp")) == 1
    bib = cli_json(nat.xl, "-i", "n", "bib", "list", "--udp")
    assert [(b["address4"], b["port4"], b["static"]) for b in bib] == \
        [("198.51.100.17", 1053, True)]
    # The flow's next packet finds no UDP entry in pool4: refused.
    c = nat.counters()
    with nat.cap4() as cap4:
        nat.send6(udp6(sport=41030))
        cap4.none(is_ip4(dst=SINK4),
                  proof=lambda: c.expect({"drop-no-pool4": 1}))
    assert (a4, p4) != ("198.51.100.17", 1053)


def test_pool4_remove_under_new_flows_leaves_nothing(nat):
    """CLIENT#41040 keeps opening flows to new peers (every one a new
    session on its one BIB entry) while pool4 loses its UDP range: once
    the removal returns, no UDP session or BIB entry is left. A session
    made while the removal's walk ran, in a bucket it had passed, kept the
    entry and its address alive; now such a session is undone at once (its
    packet dropped), and the walk waits for packets that read the old
    pool4. Four rounds, each against flows arriving the whole time.

    That they did is read from the counters, at three moments: right
    before `pool4 remove` starts (the flood is being translated, and all
    its 4000 sessions exist for the walk), once it has returned, and once
    the flood has been refused again after that. Only the old pool4
    translates a packet (xlat-6to4); only the new one, without UDP range,
    refuses one (drop-no-pool4: pool4 has no UDP entry; it also counts
    the packet of a session undone at once). Translations after the first
    reading and refusals before the second: the stream was being handled on both
    sides of the moment the kernel published the new pool4, inside the
    command; refusals after the second: it outlasted the command (the walk
    ends before the command returns). Nothing is translated after the
    command returned, and every frame sent is counted once, either
    way."""
    frames = udp6_frames(range(10000, 14000), payload=PAYLOAD[:8],
                         sport=41040)
    sock = nat.senders["h6"].sock
    nat.defer(lambda: cli(nat.xl, "-i", "n", "pool4", "add", str(POOL4_NET),
                          "--udp"))
    for _ in range(4):
        out64(nat, udp6(sport=41040))
        stop = threading.Event()
        sent = [0]

        def flood():
            for f in itertools.cycle(frames):
                if stop.is_set():
                    return
                sock.send(f)
                sent[0] += 1

        c = nat.counters()
        t = threading.Thread(target=flood)
        t.start()
        try:
            wait_until(lambda: c.delta().get("xlat-6to4", 0) >= len(frames),
                       timeout=60)
            before = c.delta()
            cli_ok(nat.xl, "-i", "n", "pool4", "remove", str(POOL4_NET),
                   "--udp")
            during = c.delta()
            wait_until(lambda: c.delta().get("drop-no-pool4", 0) >
                       during.get("drop-no-pool4", 0), timeout=60)
        finally:
            stop.set()
            t.join()
        wait_until(lambda: sum(c.delta().values()) >= sent[0], timeout=30)
        after = c.delta()
        what = "deltas before the removal %s, when it returned %s, at the " \
            "end %s; %d frames sent" % (before, during, after, sent[0])
        assert set(before) == {"xlat-6to4"}, what
        assert during["xlat-6to4"] > before["xlat-6to4"], what
        assert during.get("drop-no-pool4", 0) > 0, what
        assert after["drop-no-pool4"] > during["drop-no-pool4"], what
        assert after["xlat-6to4"] == during["xlat-6to4"], what
        assert set(after) == {"xlat-6to4", "drop-no-pool4"}, what
        assert sum(after.values()) == sent[0], what
        assert sessions(nat, "udp") == []
        assert cli_json(nat.xl, "-i", "n", "bib", "list", "--udp") == []
        cli_ok(nat.xl, "-i", "n", "pool4", "add", str(POOL4_NET), "--udp")
        cli_ok(nat.xl, "-i", "n", "session", "flush")


# --- ICMP errors about hairpinned flows ---------------------------------------


@pytest.mark.parametrize("pool4_on", ["routed", "host"])
def test_ptb_about_hairpinned_flow_hairpins(nat, pool4_on):
    """RFC 6146 3.8 with 3.5.4: CLIENT#47000 reaches CLIENT#47002 through
    the latter's IPv4 transport address; a Packet Too Big about that
    hairpinned packet, sent by its receiver to the sender's pool6 address,
    goes back to the sender too, as if from the receiver's pool6 address,
    quoting the packet as the sender sent it. Whether or not pool4's
    addresses are the host's."""
    if pool4_on == "host":
        pool4_on_host(nat)
    b = out64(nat, udp6(sport=47002))              # B's mapping
    b4, bp4 = b[IP].src, b[UDP].sport
    pkt = udp6(sport=47000, dport=bp4, dst=embed(b4))
    with nat.cap6() as cap:
        nat.send6(pkt)
        h = cap.one(is_ip6(dst=CLIENT))
    a6, ap4 = h[IPv6].src, h[UDP].sport               # A as B sees it
    quoted = bytes(h[IPv6])[:48 + 8]
    c = nat.counters()
    err = IPv6(src=CLIENT, dst=a6, hlim=64) / ICMPv6PacketTooBig(mtu=1400) \
        / Raw(quoted)
    with nat.cap6() as cap:
        nat.send6(err)
        g = cap.one(lambda f: ICMPv6PacketTooBig in f)
    assert (g[IPv6].src, g[IPv6].dst) == (embed(b4), CLIENT)
    q = g[IPerror6]
    assert (q.src, q.dst) == (CLIENT, embed(b4))
    assert (q[UDPerror].sport, q[UDPerror].dport) == (47000, bp4)
    assert ap4 != bp4
    c.expect({"xlat-hairpin": 1, "xlat-icmp-error-4to6": 1})


@pytest.mark.parametrize("pool4_on", ["routed", "host"])
def test_simultaneous_open_between_ipv6_hosts(nat, pool4_on):
    """RFC 6146 3.5.2.2 through a hairpin (3.8): A's SYN to B's IPv4
    transport address, which has no BIB entry yet, is kept (not handed to
    the host, whose address pool4 may be); B's SYN to A's reaches A, and
    A's next SYN reaches B: the connection opens both ways."""
    if pool4_on == "host":
        pool4_on_host(nat)
    # Port selection depends on the IPv6 transport address only: learn
    # both mappings, then start from empty tables.
    maps = {}
    for port in (45010, 45012):
        f = out64(nat, IPv6(src=CLIENT, dst=embed(SINK4), hlim=64) /
                  TCP(sport=port, dport=80, flags="S", seq=1))
        maps[port] = (f[IP].src, f[TCP].sport)
    cli_ok(nat.xl, "-i", "n", "session", "flush")
    (a4, ap4), (b4, bp4) = maps[45010], maps[45012]

    def syn(sport, dst4, dport, seq):
        return IPv6(src=CLIENT, dst=embed(dst4), hlim=64) / \
            TCP(sport=sport, dport=dport, flags="S", seq=seq)

    c = nat.counters()
    with nat.cap6() as cap:
        nat.send6(syn(45010, b4, bp4, 100))
        cap.none(is_ip6(dst=CLIENT),
                 proof=lambda: c.expect({"syn-stored": 1,
                                         "xlat-hairpin": 1}))
    with nat.cap6() as cap:
        nat.send6(syn(45012, a4, ap4, 200))
        f = cap.one(lambda g: TCP in g and g[TCP].dport == 45010)
    assert (f[IPv6].src, f[TCP].sport, f[TCP].seq) == (embed(b4), bp4, 200)
    with nat.cap6() as cap:
        nat.send6(syn(45010, b4, bp4, 100))
        f = cap.one(lambda g: TCP in g and g[TCP].dport == 45012)
    assert (f[IPv6].src, f[TCP].sport, f[TCP].seq) == (embed(a4), ap4, 100)
