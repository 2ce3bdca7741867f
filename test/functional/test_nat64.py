"""Stateful NAT64 (RFC 6146) through the standard topology.

xl runs instance "n" of type NAT64 with pool6 2001:db8:64::/96 and pool4
198.51.100.16/30 (every protocol: TCP/UDP ports 1024-65535, ICMP
identifiers 0-65535). h6 is the IPv6-only client 2001:db8:6::2; it reaches
IPv4 hosts at their RFC 6052 addresses. h4 routes 198.51.100.0/24 to xl, so
the frames of the IPv4 side are crafted in h4 with the IPv4 peer's address
(SINK4, which nobody answers) and captured there.

Each test asserts the exact fields NAT64 rewrites (addresses, ports or
identifiers, checksums by assert_ipv4/assert_ipv6) and the exact counter
deltas.
"""

import ipaddress
import time

import pytest

from scapy.layers.inet import ICMP, IP, TCP, UDP, IPerror, UDPerror
from scapy.layers.inet6 import (ICMPv6DestUnreach, ICMPv6EchoReply,
                                ICMPv6EchoRequest, IPerror6, IPv6)
from scapy.packet import Raw

from ternlib import (PAYLOAD, SINK4, SINK4_6, assert_ipv4, assert_ipv6, cli,
                     cli_json, cli_ok, embed, in_netns, is_ip4, is_ip6)
from ternlib.nat64 import (CLIENT, POOL4, POOL4_NET,  # noqa: F401
                           _nat64_module, in_pool4, nat, out46, out64,
                           sessions, static_bib, tcp4, tcp6, tcp_state,
                           udp4, udp6, wait_until)

OTHER4 = "203.0.113.77"         # a second IPv4 peer (on h4's link)


# --- UDP -------------------------------------------------------------------


def test_udp_6to4_gets_pool4_address_and_port(nat):
    c = nat.counters()
    f = out64(nat, udp6())
    assert_ipv4(f, len=92, ttl=63, proto=17, dst=SINK4)
    assert in_pool4(f[IP].src)
    u = f[UDP]
    # RFC 4787 REQ-3/4: parity and range class of the IPv6 port kept.
    assert u.dport == 4000 and u.len == 72
    assert u.sport >= 1024 and u.sport % 2 == 0
    assert bytes(u.payload) == PAYLOAD[:64]
    c.expect({"xlat-6to4": 1})


def test_udp_reply_reaches_the_ipv6_host(nat):
    c = nat.counters()
    f = out64(nat, udp6(sport=40002))
    src4, sport4 = f[IP].src, f[UDP].sport
    g = out46(nat, udp4(src4, sport4, n=30))
    assert_ipv6(g, plen=38, nh=17, hlim=63, src=SINK4_6, dst=CLIENT)
    assert (g[UDP].sport, g[UDP].dport) == (4000, 40002)
    assert bytes(g[UDP].payload) == PAYLOAD[:30]
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})


def test_udp_session_reused_and_paired_pooling(nat):
    """The same flow keeps its transport address; another port of the same
    IPv6 host gets the same IPv4 address (RFC 6146 3.5.1.1 paired)."""
    a = out64(nat, udp6(sport=41000))
    b = out64(nat, udp6(sport=41000))
    assert (a[IP].src, a[UDP].sport) == (b[IP].src, b[UDP].sport)
    c = out64(nat, udp6(sport=41001))
    assert c[IP].src == a[IP].src and c[UDP].sport != a[UDP].sport
    assert c[UDP].sport % 2 == 1
    got = sessions(nat, "udp")
    assert len(got) == 2
    mine = sorted((s["port6"], s["port4"]) for s in got)
    assert mine == sorted([(41000, a[UDP].sport), (41001, c[UDP].sport)])


def test_udp_endpoint_independent_filtering(nat):
    """RFC 4787: with filtering off (the default), another IPv4 peer may
    send to the mapping; it becomes a session of its own."""
    c = nat.counters()
    f = out64(nat, udp6(sport=42000))
    g = out46(nat, udp4(f[IP].src, f[UDP].sport, rport=5555, src=OTHER4),
              match=is_ip6(dst=CLIENT))
    assert g[IPv6].src == embed(OTHER4)
    assert (g[UDP].sport, g[UDP].dport) == (5555, 42000)
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})
    assert len(sessions(nat, "udp")) == 2


def test_udp_address_dependent_filtering(nat):
    nat.set("address-dependent-filtering", "true")
    f = out64(nat, udp6(sport=42002))
    c = nat.counters()
    with nat.cap6() as cap:
        nat.send4(udp4(f[IP].src, f[UDP].sport, rport=5555, src=OTHER4))
        cap.none(is_ip6(dst=CLIENT),
                 proof=lambda: c.expect({"drop-filtered": 1}))
    # The known peer still gets through, from another port too (the
    # filter is on its address): a session of its own.
    out46(nat, udp4(f[IP].src, f[UDP].sport))
    g = out46(nat, udp4(f[IP].src, f[UDP].sport, rport=4001))
    assert (g[UDP].sport, g[UDP].dport) == (4001, 42002)
    c.expect({"drop-filtered": 1, "xlat-4to6": 2})
    assert len(sessions(nat, "udp")) == 2


def test_ipv4_without_mapping_dropped(nat):
    """RFC 6146 3.5.1: UDP to no BIB entry is dropped, and its sender hears
    Host Unreachable (from the translator, quoting its packet)."""
    c = nat.counters()
    with nat.cap6() as cap, nat.cap4() as cap4:
        nat.send4(udp4(str(POOL4_NET[1]), 50001))
        e = cap4.one(is_ip4(dst=SINK4))
        cap.none(is_ip6(), proof=lambda: c.expect({"drop-no-session": 1}))
    assert (e[ICMP].type, e[ICMP].code) == (3, 1)
    assert (e[IPerror].dst, e[UDPerror].dport) == (str(POOL4_NET[1]), 50001)


def test_ipv4_outside_pool4_passed(nat):
    c = nat.counters()
    nat.send4(udp4("198.51.100.99", 50001))
    c.expect({"pass-no-mapping": 1})


def test_max_sessions_refuses_new_flows_only(nat):
    nat.set("max-sessions", "2")
    a = out64(nat, udp6(sport=43000))
    a2 = out64(nat, udp6(sport=43002))
    # Both answered: neither is evicted for a new flow (early drop).
    out46(nat, udp4(a[IP].src, a[UDP].sport))
    out46(nat, udp4(a2[IP].src, a2[UDP].sport))
    c = nat.counters()
    with nat.cap4() as cap, nat.cap6() as cap6:
        nat.send6(udp6(sport=43004))
        e = cap6.one(is_ip6(dst=CLIENT))
        cap.none(is_ip4(dst=SINK4),
                 proof=lambda: c.expect({"drop-max-sessions": 1}))
    # RFC 6146 3.5.1.1: Destination Unreachable, Address Unreachable.
    assert (e[ICMPv6DestUnreach].type, e[ICMPv6DestUnreach].code) == (1, 3)
    assert e[IPerror6][UDPerror].sport == 43004
    # An existing flow goes on both ways.
    b = out64(nat, udp6(sport=43000))
    assert (b[IP].src, b[UDP].sport) == (a[IP].src, a[UDP].sport)
    out46(nat, udp4(a[IP].src, a[UDP].sport))
    c.expect({"drop-max-sessions": 1, "xlat-6to4": 1, "xlat-4to6": 1})


def test_session_flush(nat):
    f = out64(nat, udp6(sport=44000))
    assert len(sessions(nat, "udp")) == 1
    cli_ok(nat.xl, "-i", "n", "session", "flush")
    assert sessions(nat, "udp") == []
    c = nat.counters()
    with nat.cap6() as cap:
        nat.send4(udp4(f[IP].src, f[UDP].sport))
        cap.none(is_ip6(), proof=lambda: c.expect({"drop-no-session": 1}))


# --- ICMP ------------------------------------------------------------------


def test_icmp_echo_identifier_mapped_both_ways(nat):
    c = nat.counters()
    req = IPv6(src=CLIENT, dst=SINK4_6, hlim=64) / \
        ICMPv6EchoRequest(id=0x1234, seq=7, data=PAYLOAD[:40])
    f = out64(nat, req)
    assert_ipv4(f, len=68, ttl=63, proto=1, dst=SINK4)
    assert in_pool4(f[IP].src)
    e = f[ICMP]
    assert (e.type, e.code, e.seq) == (8, 0, 7)
    assert bytes(e.payload) == PAYLOAD[:40]
    rep = IP(src=SINK4, dst=f[IP].src, ttl=64) / \
        ICMP(type=0, id=e.id, seq=7) / Raw(PAYLOAD[:40])
    g = out46(nat, rep)
    assert_ipv6(g, plen=48, nh=58, hlim=63, src=SINK4_6, dst=CLIENT)
    r = g[ICMPv6EchoReply]
    assert (r.id, r.seq, bytes(r.data)) == (0x1234, 7, PAYLOAD[:40])
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})
    s = sessions(nat, "icmp")
    assert len(s) == 1 and s[0]["port6"] == 0x1234 and \
        s[0]["port4"] == e.id


@pytest.mark.timer
def test_icmp_session_expires(nat):
    """icmp-timeout: an idle session is gone after it (the expiry worker
    or the lookup), and the late reply is dropped. 60 s, the least RFC
    5508 allows (test_timeouts_below_rfc_refused).

    No fixed wait: the session reports the lifetime it was given
    (expires-ms: icmp-timeout, less the time since the request was sent),
    then it is polled until it is gone, and no poll may find it gone
    before icmp-timeout had run from the request (less a second for the
    kernel's clock: a list that ends earlier was read earlier); gone
    within 30 s after that, with its BIB entry."""
    nat.set("icmp-timeout", "60")
    req = IPv6(src=CLIENT, dst=SINK4_6, hlim=64) / \
        ICMPv6EchoRequest(id=0x4321, seq=1)
    sent = time.monotonic()
    f = out64(nat, req)
    s = sessions(nat, "icmp")
    read = time.monotonic()
    assert [(x["port6"], x["port4"]) for x in s] == [(0x4321, f[ICMP].id)]
    # The kernel counts lifetimes in jiffies, which may lag the monotonic
    # clock by a tick, more when an emulated timer interrupt comes late:
    # SLACK, small beside the 60 s the session must live.
    slack = 1.0
    left = s[0]["expires-ms"]
    assert 60000 - (read - sent + slack) * 1000 <= left <= 60000, \
        "expires-ms %d, %.3f s after the request" % (left, read - sent)
    expiry = sent + 60 - slack
    while True:
        s = sessions(nat, "icmp")
        now = time.monotonic()
        if s == []:
            assert now >= expiry, "session gone %.3f s after the request, " \
                "icmp-timeout 60" % (now - sent)
            break
        assert [(x["port6"], x["port4"]) for x in s] == \
            [(0x4321, f[ICMP].id)]
        assert now < sent + 90, "session still there %.1f s after the " \
            "request: %s" % (now - sent, s)
        time.sleep(1.0 if now < expiry - 1 else 0.2)
    # The expiry worker may remove the entry while the list reads it.
    wait_until(lambda: cli_json(nat.xl, "-i", "n", "bib", "list",
                                "--icmp", changing=True) == [] and
               sessions(nat, "icmp") == [],
               timeout=max(sent + 90 - time.monotonic(), 1))
    c = nat.counters()
    with nat.cap6() as cap:
        nat.send4(IP(src=SINK4, dst=f[IP].src) /
                  ICMP(type=0, id=f[ICMP].id, seq=1))
        cap.none(is_ip6(), proof=lambda: c.expect({"drop-no-session": 1}))


# --- TCP -------------------------------------------------------------------


def test_tcp_handshake_and_close(nat):
    c = nat.counters()
    syn = out64(nat, tcp6("S"))
    assert_ipv4(syn, len=40, ttl=63, proto=6, dst=SINK4)
    t = syn[TCP]
    assert (t.dport, t.seq, str(t.flags)) == (80, 1000, "S")
    assert t.sport >= 1024
    assert tcp_state(nat, 45000) == ["V6_INIT"]
    sa = out46(nat, tcp4(syn, "SA", ack=1001))
    assert_ipv6(sa, plen=20, nh=6, hlim=63, src=SINK4_6, dst=CLIENT)
    assert (sa[TCP].sport, sa[TCP].dport, sa[TCP].ack) == (80, 45000, 1001)
    assert tcp_state(nat, 45000) == ["ESTABLISHED"]
    out64(nat, tcp6("A", seq=1001, ack=5001))
    out64(nat, tcp6("FA", seq=1001, ack=5001))
    assert tcp_state(nat, 45000) == ["V6_FIN_RCV"]
    out46(nat, tcp4(syn, "FA", seq=5001, ack=1002))
    assert tcp_state(nat, 45000) == ["V4_FIN_V6_FIN_RCV"]
    c.expect({"xlat-6to4": 3, "xlat-4to6": 2})


def test_tcp_rst_moves_to_trans(nat):
    syn = out64(nat, tcp6("S", sport=45002))
    out46(nat, tcp4(syn, "SA", ack=1001))
    out46(nat, tcp4(syn, "R", seq=5001))
    assert tcp_state(nat, 45002) == ["TRANS"]


@pytest.mark.parametrize("fin_from6", [True, False], ids=["fin6", "fin4"])
@pytest.mark.parametrize("option", [False, True], ids=["rfc", "option"])
def test_tcp_rst_during_fin_rcv(nat, option, fin_from6):
    """One side's FIN, then the other side's RST. RFC 6146 3.5.2.2 keeps
    the state (V6 or V4 FIN RCV) and gives the session TCP_EST;
    tcp-rst-during-fin-rcv keeps the state and gives TCP_TRANS. The RST is
    translated either way."""
    port = 45020 + 2 * option + fin_from6
    if option:
        nat.set("tcp-rst-during-fin-rcv", "true")
    syn = out64(nat, tcp6("S", sport=port))
    out46(nat, tcp4(syn, "SA", ack=1001))
    if fin_from6:
        out64(nat, tcp6("FA", sport=port, seq=1001, ack=5001))
        fin_state = "V6_FIN_RCV"
    else:
        out46(nat, tcp4(syn, "FA", seq=5001, ack=1001))
        fin_state = "V4_FIN_RCV"
    assert tcp_state(nat, port) == [fin_state]
    c = nat.counters()
    if fin_from6:
        g = out46(nat, tcp4(syn, "R", seq=5001))
        assert (g[TCP].dport, str(g[TCP].flags)) == (port, "R")
    else:
        f = out64(nat, tcp6("R", sport=port, seq=1001))
        assert (f[TCP].sport, str(f[TCP].flags)) == (syn[TCP].sport, "R")
    c.expect({"xlat-4to6" if fin_from6 else "xlat-6to4": 1})
    s, = [x for x in sessions(nat, "tcp") if x["port6"] == port]
    assert s["state"] == fin_state
    if option:
        assert 200000 < s["expires-ms"] <= 240000, s
    else:
        assert 7400000 < s["expires-ms"] <= 7440000, s


def test_tcp_without_session_must_be_syn(nat):
    c = nat.counters()
    with nat.cap4() as cap:
        nat.send6(tcp6("A", sport=45004))
        cap.none(is_ip4(), proof=lambda: c.expect({"drop-tcp-nosyn": 1}))
    assert tcp_state(nat, 45004) == []


def test_static_bib_inbound_tcp(nat):
    """An IPv4 client reaches the IPv6 server through a static BIB entry
    (RFC 6146 3.5.2.2: V4 INIT, then ESTABLISHED with the server's SYN)."""
    a4 = str(POOL4_NET[2])
    static_bib(nat, "%s#8080" % CLIENT, "%s#2080" % a4, "--tcp")
    c = nat.counters()
    syn = IP(src=SINK4, dst=a4, ttl=64) / \
        TCP(sport=33333, dport=2080, flags="S", seq=77)
    g = out46(nat, syn)
    assert_ipv6(g, plen=20, nh=6, hlim=63, src=SINK4_6, dst=CLIENT)
    assert (g[TCP].sport, g[TCP].dport, g[TCP].seq) == (33333, 8080, 77)
    assert tcp_state(nat, 8080) == ["V4_INIT"]
    sa = IPv6(src=CLIENT, dst=SINK4_6, hlim=64) / \
        TCP(sport=8080, dport=33333, flags="SA", seq=9, ack=78)
    f = out64(nat, sa)
    assert (f[IP].src, f[TCP].sport, f[TCP].dport) == (a4, 2080, 33333)
    assert tcp_state(nat, 8080) == ["ESTABLISHED"]
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})


# The Well-Known Prefix (RFC 6052 3.1): with strict-wkp it stands for
# global IPv4 addresses only.
WKP = "64:ff9b::/96"
GLOBAL4 = "8.8.8.8"             # 64:ff9b::808:808
ROUTER4 = "10.1.2.3"            # an IPv4 router that is not global
RFC6791_6 = "2001:db8:6791::/64"


def test_wkp_non_global_ipv4_peer(nat):
    """With pool6 64:ff9b::/96 and strict-wkp the IPv6 side cannot name an
    IPv4 address that is not global: such a peer (SINK4, in TEST-NET-3)
    reaching a static BIB entry makes no session, a UDP datagram or a TCP
    SYN alike (drop-special4), where a global peer is translated from the
    address the prefix embeds; an ICMPv4 error about that peer's session
    from a router that is not global gets an RFC 6791 source, never the
    prefix's form of the router."""
    nat.set("pool6", WKP)
    nat.set("rfc6791v6-prefix", RFC6791_6)
    nat.set("icmp-on-drop", "false")
    a4 = str(POOL4_NET[2])
    static_bib(nat, "%s#6001" % CLIENT, "%s#6001" % a4, "--udp")
    static_bib(nat, "%s#6001" % CLIENT, "%s#6001" % a4, "--tcp")
    c = nat.counters()
    with nat.cap6() as cap:
        nat.send4(IP(src=SINK4, dst=a4, ttl=64) /
                  UDP(sport=4000, dport=6001) / Raw(PAYLOAD[:20]))
        nat.send4(IP(src=SINK4, dst=a4, ttl=64) /
                  TCP(sport=4000, dport=6001, flags="S", seq=1))
        cap.none(is_ip6(), proof=lambda: c.expect({"drop-special4": 2}))
    assert sessions(nat, "udp") == [] and sessions(nat, "tcp") == []

    g = out46(nat, IP(src=GLOBAL4, dst=a4, ttl=64) /
              UDP(sport=4000, dport=6001) / Raw(PAYLOAD[:20]))
    assert_ipv6(g, nh=17, hlim=63, src="64:ff9b::808:808", dst=CLIENT)
    assert (g[UDP].sport, g[UDP].dport) == (4000, 6001)
    assert [(s["remote4"], s["remote-port4"])
            for s in sessions(nat, "udp")] == [(GLOBAL4, 4000)]

    quoted = IP(src=a4, dst=GLOBAL4, ttl=63) / UDP(sport=6001, dport=4000) / \
        Raw(PAYLOAD[:20])
    c = nat.counters()
    with nat.cap6() as cap:
        nat.send4(IP(src=ROUTER4, dst=a4, ttl=64) / ICMP(type=11, code=0) /
                  Raw(bytes(quoted)))
        e = cap.one(is_ip6(dst=CLIENT))
    c.expect({"xlat-icmp-error-4to6": 1})
    assert e[IPv6].nh == 58 and ipaddress.IPv6Address(e[IPv6].src) in \
        ipaddress.IPv6Network(RFC6791_6)
    q = e[IPerror6]
    assert (q.src, q.dst, q[UDPerror].sport, q[UDPerror].dport) == \
        (CLIENT, "64:ff9b::808:808", 6001, 4000)


def test_drop_externally_initiated_tcp(nat):
    nat.set("drop-externally-initiated-tcp", "true")
    a4 = str(POOL4_NET[2])
    static_bib(nat, "%s#8081" % CLIENT, "%s#2081" % a4, "--tcp")
    c = nat.counters()
    with nat.cap6() as cap:
        nat.send4(IP(src=SINK4, dst=a4) /
                  TCP(sport=33334, dport=2081, flags="S"))
        cap.none(is_ip6(), proof=lambda: c.expect({"drop-ext-tcp": 1}))


# --- configuration -----------------------------------------------------------


@pytest.mark.parametrize("block", [0, 8], ids=["ports", "blocks"])
@pytest.mark.parametrize("left", [[], ["--tcp"], ["--udp", "--mark", "5"]],
                         ids=["empty", "other-protocol", "other-mark"])
def test_no_pool4_drops_and_counts(nat, left, block):
    """A UDP flow (mark 0) when pool4 is empty, or has entries for TCP
    only, or for UDP with another mark: drop-no-pool4 (not
    drop-pool4-full: nothing of pool4 is in use), answered with ICMPv6
    address unreachable, with port blocks as without."""
    if block:
        nat.set("port-block-size", str(block))
    # One error per case to CLIENT: the namespace's limit of a burst of 6.
    with in_netns(str(nat.xl)):
        with open("/proc/sys/net/ipv6/icmp/ratelimit") as f:
            old = f.read().strip()
    nat.xl.sysctl({"net/ipv6/icmp/ratelimit": 0})
    nat.defer(lambda: nat.xl.sysctl({"net/ipv6/icmp/ratelimit": old}))
    cli_ok(nat.xl, "-i", "n", "pool4", "flush")
    nat.defer(lambda: cli_ok(nat.xl, "-i", "n", "pool4", "add", POOL4))
    if left:
        nat.defer(lambda: cli_ok(nat.xl, "-i", "n", "pool4", "flush"))
        cli_ok(nat.xl, "-i", "n", "pool4", "add", POOL4, *left)
    c = nat.counters()
    with nat.cap4() as cap, nat.cap6() as cap6:
        nat.send6(udp6(sport=46000))
        err = cap6.one(is_ip6(dst=CLIENT))
        cap.none(is_ip4(), proof=lambda: c.expect({"drop-no-pool4": 1}))
    assert (err[ICMPv6DestUnreach].type, err[ICMPv6DestUnreach].code) == \
        (1, 3)
    assert err[IPerror6].src == CLIENT
    assert err[UDPerror].sport == 46000


def test_parity_used_up_takes_the_other(nat):
    """pool4 of one address, UDP ports 2000-2003: flows from even IPv6
    ports get the two even ports, then the two odd ones (the parity is
    kept while it can be: RFC 4787 REQ-4 is a RECOMMENDED, the address
    RFC 6146's SHOULD), and a fifth is refused."""
    a4 = str(POOL4_NET[1])

    def restore():
        cli_ok(nat.xl, "-i", "n", "pool4", "flush")
        cli_ok(nat.xl, "-i", "n", "pool4", "add", POOL4)
    cli_ok(nat.xl, "-i", "n", "pool4", "flush")
    nat.defer(restore)
    cli_ok(nat.xl, "-i", "n", "pool4", "add", a4, "2000-2003", "--udp")
    got = [out64(nat, udp6(sport=46100 + 2 * i)) for i in range(4)]
    assert [f[IP].src for f in got] == [a4] * 4
    ports = [f[UDP].sport for f in got]
    assert sorted(ports[:2]) == [2000, 2002]
    assert sorted(ports[2:]) == [2001, 2003]
    c = nat.counters()
    with nat.cap4() as cap:
        nat.send6(udp6(sport=46108))
        cap.none(is_ip4(), proof=lambda: c.expect({"drop-pool4-full": 1}))


def test_nat64_needs_pool6(nat):
    r = cli(nat.xl, "instance", "add", "m", "--nat64")
    assert r.rc != 0 and "pool6" in r.err


def test_hairpinning(nat):
    """RFC 6146 3.8: an IPv6 host reaches another one (here: itself, from
    another port) at its IPv4 transport address; the packet comes back
    from the pool6 address of the sender's IPv4 transport address."""
    b = out64(nat, udp6(sport=47002))        # the "server" mapping
    c = nat.counters()
    pkt = udp6(sport=47000, dport=b[UDP].sport, dst=embed(b[IP].src))
    with nat.cap6() as cap:
        nat.send6(pkt)
        f = cap.one(is_ip6(dst=CLIENT))
    u = f[UDP]
    assert u.dport == 47002
    mine = [s for s in sessions(nat, "udp") if s["port6"] == 47000]
    assert len(mine) == 1
    assert f[IPv6].src == embed(mine[0]["address4"])
    assert u.sport == mine[0]["port4"]
    assert_ipv6(f, plen=72, nh=17, hlim=63, dst=CLIENT)
    c.expect({"xlat-hairpin": 1, "xlat-4to6": 1})


# --- ICMP errors through sessions ---------------------------------------------


def test_icmp_error_4to6_through_session(nat):
    """RFC 6146 3.5.4: an ICMPv4 error about a packet Tern sent from pool4
    reaches the IPv6 host with the quoted packet as it sent it."""
    f = out64(nat, udp6(sport=48000, n=16))
    src4, sport4 = f[IP].src, f[UDP].sport
    quoted = bytes(f[IP])
    c = nat.counters()
    err = IP(src=SINK4, dst=src4, ttl=64) / ICMP(type=3, code=3) / \
        Raw(quoted)
    with nat.cap6() as cap:
        nat.send4(err)
        g = cap.one(is_ip6(dst=CLIENT))
    assert_ipv6(g, nh=58, hlim=63, src=SINK4_6, dst=CLIENT)
    e = g[ICMPv6DestUnreach]
    assert (e.type, e.code) == (1, 4)
    q = e[IPerror6]
    assert (q.src, q.dst, q.nh) == (CLIENT, SINK4_6, 17)
    assert (q[UDPerror].sport, q[UDPerror].dport) == (48000, 4000)
    c.expect({"xlat-icmp-error-4to6": 1})


def test_icmp_error_6to4_through_session(nat):
    """The IPv6 host answers a packet of the IPv4 peer with an error: the
    peer gets it from the host's IPv4 transport address, quoting what it
    sent."""
    f = out64(nat, udp6(sport=48002))
    src4, sport4 = f[IP].src, f[UDP].sport
    g = out46(nat, udp4(src4, sport4, n=16))
    c = nat.counters()
    err = IPv6(src=CLIENT, dst=SINK4_6, hlim=64) / \
        ICMPv6DestUnreach(code=4) / Raw(bytes(g[IPv6]))
    h = out64(nat, err, match=is_ip4(dst=SINK4))
    assert_ipv4(h, proto=1, ttl=63, src=src4, dst=SINK4)
    e = h[ICMP]
    assert (e.type, e.code) == (3, 3)
    q = h[IPerror]
    assert (q.src, q.dst, q.proto) == (SINK4, src4, 17)
    assert (q[UDPerror].sport, q[UDPerror].dport) == (4000, sport4)
    c.expect({"xlat-icmp-error-6to4": 1})


def test_icmp_error_without_session_dropped(nat):
    c = nat.counters()
    quoted = IP(src=str(POOL4_NET[1]), dst=SINK4) / \
        UDP(sport=50003, dport=4000)
    with nat.cap6() as cap:
        nat.send4(IP(src=SINK4, dst=str(POOL4_NET[1])) /
                  ICMP(type=3, code=3) / Raw(bytes(quoted)))
        cap.none(is_ip6(), proof=lambda: c.expect({"drop-no-session": 1}))
