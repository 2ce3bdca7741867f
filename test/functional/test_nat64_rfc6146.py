"""RFC 6146 rows of docs/conformance/rfc6146.md not shown elsewhere.

The topology and instance "n" are those of test_nat64.py (ternlib.nat64).
ICMP errors about ICMP errors (3.4), fragments (3.4, 4: nf_defrag_ipv4
and nf_defrag_ipv6 reassemble them before Tern's hook, with the kernel's
timeouts and memory limits), other protocols (3.4), address-dependent
filtering of TCP SYNs and ICMP queries (3.5.2.2, 3.5.3), paired address
pooling kept when pool4 grows (3.5.1.1), sources inside Pref64::/n
(3.5). Every test asserts exact counter deltas.
"""

import ipaddress
import time

import pytest
from scapy.layers.inet import ICMP, IP, TCP, UDP, IPerror
from scapy.layers.inet6 import (ICMPv6DestUnreach, ICMPv6EchoRequest,
                                IPv6)
from scapy.packet import Raw

import ternlib
from ternlib import (PAYLOAD, SINK4, SINK4_6, H4_MAC, assert_frame4,
                     assert_frame6, cli_json, cli_ok, embed, fragment6_parts,
                     ipv4_fields, is_ip4, is_ip6, reassemble, udp_datagram)
from ternlib.netns import snmp
from ternlib.nat64 import (CLIENT, POOL4_NET, _nat64_module,  # noqa: F401
                           frags4, frags6, nat, out46, out64, sessions,
                           tables, udp4, udp6, udp6_frames, wait_all,
                           wait_until)

OTHER4 = "203.0.113.77"         # a second IPv4 peer (on h4's link)
DATA = PAYLOAD * 4


def other_peer(topo):
    """OTHER4 reachable from xl (its frames captured in h4) for the test."""
    topo.xl.ip("neigh", "replace", OTHER4, "lladdr", H4_MAC, "dev", "v4",
               "nud", "permanent")
    topo.defer(lambda: topo.xl.ip("neigh", "del", OTHER4, "dev", "v4",
                                  check=False))


def stored(topo):
    return ternlib.stats(topo.xl, "n")["stored-syns"]


# --- 3.4: an ICMP error about an ICMP error -----------------------------------


def test_icmp_error_about_icmp_error_4to6_dropped(nat):
    """An ICMPv4 error quoting an ICMPv4 error Tern sent from an ICMP
    session's address: silently discarded (drop-icmp-inner)."""
    req = IPv6(src=CLIENT, dst=SINK4_6, hlim=64) / \
        ICMPv6EchoRequest(id=0x2001, seq=1)
    f = out64(nat, req)
    a4 = f[IP].src
    inner = IP(src=a4, dst=SINK4, ttl=63) / ICMP(type=3, code=3) / \
        IP(src=SINK4, dst=a4) / UDP(sport=4000, dport=1234)
    c = nat.counters()
    with nat.cap6() as cap6, nat.cap4() as cap4:
        nat.send4(IP(src=SINK4, dst=a4, ttl=64) / ICMP(type=3, code=1) /
                  Raw(bytes(inner)))
        ternlib.none_on(lambda: c.expect({"drop-icmp-inner": 1}),
                        (cap6, is_ip6()), (cap4, is_ip4(dst=SINK4)))


def test_icmp_error_about_icmp_error_6to4_dropped(nat):
    """The same from the IPv6 side: an ICMPv6 error quoting an ICMPv6
    error sent to the IPv6 host of a session."""
    f = out64(nat, udp6(sport=48100))
    g = out46(nat, udp4(f[IP].src, f[UDP].sport, n=16))
    inner = IPv6(src=SINK4_6, dst=CLIENT, hlim=63) / \
        ICMPv6DestUnreach(code=4) / Raw(bytes(g[IPv6]))
    c = nat.counters()
    with nat.cap4() as cap4, nat.cap6() as cap6:
        nat.send6(IPv6(src=CLIENT, dst=SINK4_6, hlim=64) /
                  ICMPv6DestUnreach(code=1) / Raw(bytes(inner)))
        ternlib.none_on(lambda: c.expect({"drop-icmp-inner": 1}),
                        (cap4, is_ip4()), (cap6, is_ip6(dst=CLIENT)))


# --- 3.4, 4: fragments, out of order, kept at least 2 s ------------------------


def test_fragments_out_of_order_kept_6to4(nat):
    """The first datagram of a new flow as three IPv6 fragments, last
    first, the first one 2.5 s after the others (FRAGMENT_MIN is 2 s): one
    session, and the whole datagram out from its transport address."""
    udp = udp_datagram(CLIENT, SINK4_6, 50300, 4000, DATA[:1200])
    last, middle, first = reversed(frags6(udp, [400, 800], 0x6146))
    c = nat.counters()
    match = is_ip4(dst=SINK4)
    with nat.cap4() as cap:
        nat.send6(last)
        nat.send6(middle)
        time.sleep(2.5)
        assert cap.matching(match) == []
        nat.send6(first)
        frames = wait_all(cap, match, 2)
    c.expect({"xlat-6to4": 1})
    s = sessions(nat, "udp")
    assert [x["port6"] for x in s] == [50300]
    a4, p4 = s[0]["address4"], s[0]["port4"]
    parts = []
    for f in frames:
        got = ipv4_fields(f)
        raw = assert_frame4(f, ttl=63, proto=17, src=a4, dst=SINK4)
        parts.append((got["offset"], got["flags"] & 1, raw[20:]))
    assert reassemble(parts) == udp_datagram(a4, SINK4, p4, 4000,
                                             DATA[:1200])


def test_fragments_out_of_order_kept_4to6(nat):
    """The reply as two IPv4 fragments, the second first, the first 2.5 s
    later: the datagram reaches the IPv6 host (as fragments of the same
    sizes, Identification kept)."""
    f = out64(nat, udp6(sport=50302))
    a4, p4 = f[IP].src, f[UDP].sport
    udp = udp_datagram(SINK4, a4, 4000, p4, DATA[:1000])
    first, second = frags4(udp, [512], 0x6146, a4)
    c = nat.counters()
    match = is_ip6(dst=CLIENT)
    with nat.cap6() as cap:
        nat.send4(second)
        time.sleep(2.5)
        assert cap.matching(match) == []
        nat.send4(first)
        frames = wait_all(cap, match, 2)
    c.expect({"xlat-4to6": 1})
    parts = []
    for g in frames:
        _, fh, data = fragment6_parts(g)
        assert_frame6(g, nh=44, hlim=63, src=SINK4_6, dst=CLIENT)
        assert (fh["nh"], fh["id"]) == (17, 0x6146)
        parts.append((fh["offset"], fh["m"], data))
    assert reassemble(parts) == udp_datagram(SINK4_6, CLIENT, 4000, 50302,
                                             DATA[:1000])


# --- 3.4: resources of fragments waiting are limited ---------------------------

FRAG_LIMITS = {
    4: ("net/ipv4/ipfrag_low_thresh", "net/ipv4/ipfrag_high_thresh"),
    6: ("net/netfilter/nf_conntrack_frag6_low_thresh",
        "net/netfilter/nf_conntrack_frag6_high_thresh"),
}


def limit_frag_memory(topo, family):
    """The kernel's reassembly memory limit of xl's namespace for FAMILY,
    lowered to 1 byte for the test (the first queue fills it)."""
    low, high = FRAG_LIMITS[family]
    was = {k: topo.xl.exec("cat", "/proc/sys/" + k).out.strip()
           for k in (low, high)}
    topo.xl.sysctl({low: 0})
    topo.xl.sysctl({high: 1})

    def restore():
        topo.xl.sysctl({high: was[high]})
        topo.xl.sysctl({low: was[low]})
    topo.defer(restore)
    return restore


def test_fragment_memory_limited_4to6(nat):
    """A datagram's fragments waiting fill the limit (ipfrag_high_thresh):
    the fragments of another are refused by the kernel's reassembly
    (IpReasmFails) and never reach Tern; below the limit they do."""
    f = out64(nat, udp6(sport=50304))
    a4, p4 = f[IP].src, f[UDP].sport
    udp = udp_datagram(SINK4, a4, 4000, p4, DATA[:1000])
    restore = limit_frag_memory(nat, 4)
    c = nat.counters()
    fails = snmp(nat.xl, "Ip")["ReasmFails"]
    with nat.cap6() as cap:
        nat.send4(frags4(udp, [512], 0x0A, a4)[0])     # waits, alone
        for p in frags4(udp, [512], 0x0B, a4):
            nat.send4(p)
        wait_until(
            lambda: snmp(nat.xl, "Ip")["ReasmFails"] - fails == 2, 8)
        cap.none(is_ip6(dst=CLIENT), proof=lambda: c.expect({}))
    restore()
    with nat.cap6() as cap:
        for p in frags4(udp, [512], 0x0C, a4):
            nat.send4(p)
        cap.wait(is_ip6(dst=CLIENT), count=2)
    c.expect({"xlat-4to6": 1})


def test_fragment_memory_limited_6to4(nat):
    """The same for IPv6 (nf_conntrack_frag6_high_thresh): refused
    fragments reach neither Tern nor the IPv4 side."""
    out64(nat, udp6(sport=50306))
    udp = udp_datagram(CLIENT, SINK4_6, 50306, 4000, DATA[:1000])
    restore = limit_frag_memory(nat, 6)
    c = nat.counters()
    with nat.cap4() as cap:
        nat.send6(frags6(udp, [512], 0x0A)[0])         # waits, alone
        for p in frags6(udp, [512], 0x0B):
            nat.send6(p)
        # The control: a whole datagram passes the same hook after them.
        nat.send6(udp6(sport=50306))
        cap.wait(is_ip4(dst=SINK4))
        c.expect({"xlat-6to4": 1})
        cap.settle(0.6)
        assert len(cap.matching(is_ip4(dst=SINK4))) == 1
    restore()
    with nat.cap4() as cap:
        for p in frags6(udp, [512], 0x0C):
            nat.send6(p)
        cap.wait(is_ip4(dst=SINK4), count=2)
    c.expect({"xlat-6to4": 2})


# --- 3.4: other protocols --------------------------------------------------------


@pytest.mark.parametrize("proto", [47, 132])
def test_other_protocol_not_translated(nat, proto):
    """GRE, SCTP: not translated either way; icmp-on-drop answers them
    (Communication Administratively Prohibited), as every policy drop."""
    a4 = str(POOL4_NET[1])
    c = nat.counters()
    with nat.cap4() as cap4, nat.cap6() as cap6:
        nat.send6(IPv6(src=CLIENT, dst=SINK4_6, nh=proto, hlim=64) /
                  Raw(PAYLOAD[:32]))
        e6 = cap6.one(is_ip6(dst=CLIENT, nh=58))
        nat.send4(IP(src=SINK4, dst=a4, proto=proto, ttl=64) /
                  Raw(PAYLOAD[:32]))
        e4 = cap4.one(is_ip4(dst=SINK4, proto=1))
        ternlib.none_on(lambda: c.expect({"drop-src-untranslatable": 1,
                                          "drop-no-session": 1}),
                        (cap4, is_ip4(dst=SINK4, proto=proto)),
                        (cap6, is_ip6(dst=CLIENT, nh=proto)))
    assert (e6[ICMPv6DestUnreach].type, e6[ICMPv6DestUnreach].code) == (1, 1)
    assert (e4[ICMP].type, e4[ICMP].code) == (3, 13)
    assert (e4[IPerror].dst, e4[IPerror].proto) == (a4, proto)
    assert tables(nat) == (0, 0)


# --- 3.5.2.2, 3.5.3, 3.5.1: address-dependent filtering ---------------------------


def test_adf_syn_from_unknown_peer_stored(nat):
    """Address-dependent filtering: a V4 SYN from a peer no session of the
    BIB entry knows is handled as one without BIB entry: stored, not
    refused; the IPv6 host's SYN to that peer opens the session (the
    stored SYN is discarded) and the peer's retransmission establishes
    it."""
    nat.set("address-dependent-filtering", "true")
    other_peer(nat)
    f = out64(nat, IPv6(src=CLIENT, dst=SINK4_6, hlim=64) /
              TCP(sport=45300, dport=80, flags="S", seq=1, window=1000))
    a4, p4 = f[IP].src, f[TCP].sport
    syn4 = IP(src=OTHER4, dst=a4, ttl=64) / \
        TCP(sport=80, dport=p4, flags="S", seq=700, window=1000)
    c = nat.counters()
    with nat.cap6() as cap6, nat.cap4() as cap4:
        nat.send4(syn4)
        ternlib.none_on(lambda: c.expect({"syn-stored": 1}),
                        (cap6, is_ip6(dst=CLIENT)),
                        (cap4, is_ip4(dst=OTHER4, proto=1)))
    assert stored(nat) == 1
    g = out64(nat, IPv6(src=CLIENT, dst=embed(OTHER4), hlim=64) /
              TCP(sport=45300, dport=80, flags="S", seq=2, window=1000),
              match=is_ip4(dst=OTHER4, proto=6))
    assert (g[IP].src, g[TCP].sport, g[TCP].dport) == (a4, p4, 80)
    assert stored(nat) == 0
    h = out46(nat, syn4)
    assert (h[IPv6].src, h[TCP].sport, h[TCP].dport, str(h[TCP].flags)) \
        == (embed(OTHER4), 80, 45300, "S")
    states = {s["remote4"]: s["state"] for s in sessions(nat, "tcp")}
    assert states == {SINK4: "V6_INIT", OTHER4: "ESTABLISHED"}
    c.expect({"syn-stored": 1, "xlat-6to4": 1, "xlat-4to6": 1})


@pytest.mark.parametrize("proto", ["icmp", "udp"])
def test_adf_unknown_peer_answered_code_13(nat, proto):
    """Address-dependent filtering, an ICMP query (or UDP) from a peer no
    session of the BIB entry knows: discarded (drop-filtered), and the
    peer gets ICMPv4 Destination Unreachable code 13 quoting it."""
    nat.set("address-dependent-filtering", "true")
    other_peer(nat)
    if proto == "icmp":
        f = out64(nat, IPv6(src=CLIENT, dst=SINK4_6, hlim=64) /
                  ICMPv6EchoRequest(id=0x2003, seq=1))
        a4 = f[IP].src
        pkt = IP(src=OTHER4, dst=a4, ttl=64) / \
            ICMP(type=8, id=f[ICMP].id, seq=1)
    else:
        f = out64(nat, udp6(sport=48104))
        a4 = f[IP].src
        pkt = udp4(a4, f[UDP].sport, src=OTHER4)
    c = nat.counters()
    with nat.cap6() as cap6, nat.cap4() as cap4:
        nat.send4(pkt)
        e = cap4.one(is_ip4(dst=OTHER4, proto=1))
        cap6.none(is_ip6(dst=CLIENT),
                  proof=lambda: c.expect({"drop-filtered": 1}))
    assert (e[ICMP].type, e[ICMP].code) == (3, 13)
    assert (e[IPerror].src, e[IPerror].dst) == (OTHER4, a4)
    assert e[IPerror].proto == (1 if proto == "icmp" else 17)
    assert len(sessions(nat, proto)) == 1


@pytest.mark.parametrize("nosyn", [False, True], ids=["syn", "ack"])
def test_adf_tcp_refusal_silent(nat, nosyn):
    """Address-dependent filtering and icmp-on-drop off: TCP from a peer no
    session of the BIB entry knows is discarded without an answer (RFC
    6146 3.5.2.2: as if there were no BIB entry). A SYN while
    drop-externally-initiated-tcp is on is that policy's drop
    (drop-ext-tcp), an ACK while tcp-nosyn-with-bib is on the filter's
    (drop-filtered); neither is stored."""
    nat.set("address-dependent-filtering", "true")
    nat.set("icmp-on-drop", "false")
    nat.set("tcp-nosyn-with-bib" if nosyn else
            "drop-externally-initiated-tcp", "true")
    other_peer(nat)
    f = out64(nat, IPv6(src=CLIENT, dst=SINK4_6, hlim=64) /
              TCP(sport=45302, dport=80, flags="S", seq=1, window=1000))
    a4, p4 = f[IP].src, f[TCP].sport
    pkt = IP(src=OTHER4, dst=a4, ttl=64) / \
        TCP(sport=80, dport=p4, flags="A" if nosyn else "S", seq=700,
            ack=2 if nosyn else 0, window=1000)
    c = nat.counters()
    with nat.cap6() as cap6, nat.cap4() as cap4:
        nat.send4(pkt)
        ternlib.none_on(
            lambda: c.expect({"drop-filtered" if nosyn else "drop-ext-tcp": 1}),
            (cap6, is_ip6(dst=CLIENT)), (cap4, is_ip4(dst=OTHER4)))
    assert stored(nat) == 0
    assert [s["remote4"] for s in sessions(nat, "tcp")] == [SINK4]


# --- 3.5.1.1: paired address pooling when pool4 grows -------------------------

GROWN = ipaddress.IPv4Network("198.51.100.32/28")   # added by the test
HOSTS = ["2001:db8:6::%x" % (0x1000 + i) for i in range(24)]
FRESH = ["2001:db8:6::%x" % (0x2000 + i) for i in range(24)]


def bib_addr4(topo):
    """{(address6, port6): address4} of the UDP BIB entries."""
    return {(b["address6"], b["port6"]): b["address4"]
            for b in cli_json(topo.xl, "-i", "n", "bib", "list", "--udp",
                              changing=True)}


def from_hosts(topo, hosts, sport, blocks=False):
    """One UDP datagram HOST#SPORT -> SINK4 from each of HOSTS: each
    translated (with BLOCKS, each a port block of its own too), nothing
    else counted."""
    c = topo.counters()
    sock = topo.senders["h6"].sock
    for h in hosts:
        sock.send(udp6_frames([sport], src=h)[0])
    wait_until(lambda: c.delta().get("xlat-6to4", 0) >= len(hosts),
               ternlib.TIMEOUT)
    c.expect({"xlat-6to4": len(hosts),
              **({"block-allocations": len(hosts)} if blocks else {})})


@pytest.mark.parametrize("block", [0, 1], ids=["ports", "blocks"])
def test_paired_pooling_kept_when_pool4_grows(nat, block):
    """RFC 6146 3.5.1.1 (paired): hosts with BIB entries on an address of
    pool4 get their new ones on that address after pool4 grew from 4 to
    20 addresses, where the hash alone would move about four in five of
    them; hosts new to the instance spread over the 20 (subscribers of a
    /128 each: subscriber-prefix-len 128). The same with port blocks of
    one port (port-block-size 1: each new BIB entry a new block)."""
    nat.set("subscriber-prefix-len", "128")
    if block:
        nat.set("port-block-size", str(block))
    from_hosts(nat, HOSTS, 40000, block)
    before = bib_addr4(nat)
    assert sorted(before) == sorted((h, 40000) for h in HOSTS)
    assert all(ipaddress.IPv4Address(a) in POOL4_NET
               for a in before.values())
    cli_ok(nat.xl, "-i", "n", "pool4", "add", str(GROWN), "--udp")
    nat.defer(lambda: cli_ok(nat.xl, "-i", "n", "pool4", "remove",
                             str(GROWN), "--udp"))
    from_hosts(nat, HOSTS, 40001, block)
    from_hosts(nat, FRESH, 40000, block)
    after = bib_addr4(nat)
    assert len(after) == 3 * len(HOSTS)
    assert {h: after[(h, 40001)] for h in HOSTS} == \
        {h: before[(h, 40000)] for h in HOSTS}
    assert any(ipaddress.IPv4Address(after[(h, 40000)]) in GROWN
               for h in FRESH)


# --- 3.5: sources inside Pref64::/n -----------------------------------------------

# Inside pool6, and routed to h6 by xl: an error sent to it would be seen.
PREF64_SRC = embed("198.51.100.5")


def test_source_inside_pref64_silently_dropped(nat):
    """A UDP datagram from a source inside Pref64::/n: not translated, no
    state, no ICMPv6 error (not even by icmp-on-drop)."""
    c = nat.counters()
    with nat.cap4() as cap4, nat.cap6() as cap6:
        nat.send6(udp6(sport=48106, src=PREF64_SRC))
        ternlib.none_on(lambda: c.expect({"drop-src-untranslatable": 1}),
                        (cap4, is_ip4()), (cap6, is_ip6(nh=58)))
    assert tables(nat) == (0, 0)


def test_icmp_error_from_inside_pref64_dropped(nat):
    """An ICMPv6 error about a session's packet from a source inside
    Pref64::/n: silently discarded, not translated with another source."""
    f = out64(nat, udp6(sport=48108))
    g = out46(nat, udp4(f[IP].src, f[UDP].sport, n=16))
    c = nat.counters()
    with nat.cap4() as cap4:
        nat.send6(IPv6(src=PREF64_SRC, dst=SINK4_6, hlim=64) /
                  ICMPv6DestUnreach(code=4) / Raw(bytes(g[IPv6])))
        cap4.none(is_ip4(), proof=lambda: c.expect(
            {"drop-src-untranslatable": 1}))
