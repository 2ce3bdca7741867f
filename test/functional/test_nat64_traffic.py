"""Stateful NAT64 under load, with fragments and conntrack.

The topology and instance "n" are those of test_nat64.py (ternlib.nat64:
pool6 2001:db8:64::/96, pool4 198.51.100.16/30, the IPv6 client CLIENT
that h6 does not answer for, the IPv4 peer SINK4 nobody answers for),
built once for this file. Malformed packets are in test_nat64_malformed.py,
instances and namespaces removed under NAT64 traffic in test_lifetime.py.

Every test asserts exact counter deltas (every other counter unchanged)
and the session tables it leaves; the kernel log check of conftest.py
fails any test during which KASAN, lockdep or a WARN spoke.
"""

import struct
import threading
import time

import pytest
from scapy.layers.inet import ICMP, IP, TCP, UDP
from scapy.layers.inet6 import ICMPv6EchoReply, ICMPv6EchoRequest, IPv6
from scapy.packet import Raw

import ternlib
from ternlib import (H4, H4_MAC, H6_MAC, PAYLOAD, SINK4, SINK4_6, XL4,
                     XL4_MAC, XL6_MAC, Sender, assert_frame4, assert_frame6,
                     assert_ipv4, assert_ipv6, cli_ok, fragment6_parts,
                     icmp6_message, inet_csum, ip6_packet, ipv4_fields,
                     is_ip4, is_ip6, kstats, pseudo, reassemble, run,
                     udp_datagram)
from ternlib.nat64 import (CLIENT, _nat64_module, all_bib,  # noqa: F401
                           all_sessions, assert_empty, frags4, frags6,
                           in_pool4, nat, out46, out64, sessions, tables,
                           tcp4, tcp6, tcp_state, udp4, udp6, udp6_frames,
                           wait_all, wait_until)
from test_conntrack import RULE, TOOLS


# --- Raw frames, built with struct ------------------------------------------


def _eth(dst_mac, src_mac, etype):
    return bytes.fromhex(dst_mac.replace(":", "")) + \
        bytes.fromhex(src_mac.replace(":", "")) + struct.pack("!H", etype)


ETH6 = _eth(XL6_MAC, H6_MAC, 0x86DD)
ETH4 = _eth(XL4_MAC, H4_MAC, 0x0800)


def echo6_frames(ids, src=CLIENT, dst=SINK4_6):
    frames = []
    for i in ids:
        m = icmp6_message(src, dst, 128, 0, struct.pack("!HH", i, 1),
                          PAYLOAD[:8])
        frames.append(ETH6 + ip6_packet(src, dst, 58, m))
    return frames


def send_frames(topo, frames, chunk=500, counter="xlat-6to4"):
    """Sends FRAMES from h6, CHUNK at a time, each chunk once the
    translator has counted the one before (no backlog overflow)."""
    sock = topo.senders["h6"].sock
    c = topo.counters()
    done = 0
    for i in range(0, len(frames), chunk):
        for f in frames[i:i + chunk]:
            sock.send(f)
        done += len(frames[i:i + chunk])
        deadline = time.monotonic() + ternlib.TIMEOUT
        while kstats(topo.xl, "n")[counter] - c.before[counter] < done:
            assert time.monotonic() < deadline, \
                "%s: %s of %d" % (counter, c.delta(), done)
            time.sleep(0.05)
    return c


# --- 1. Many flows of one IPv6 host ------------------------------------------

FLOWS = 10000
FLOW_PORTS = range(20000, 20000 + FLOWS)


def test_10000_udp_flows_paired_pooling(nat):
    """10,000 source ports of CLIENT: 10,000 sessions and BIB entries,
    all on one IPv4 address of pool4 (paired pooling: each parity class
    of 198.51.100.x has 32256 ports for its 5,000 ports, so the 32 probes
    of one address never all collide), distinct ports keeping the parity
    and class of the IPv6 one."""
    c = send_frames(nat, udp6_frames(FLOW_PORTS))
    c.expect({"xlat-6to4": FLOWS})
    got = sessions(nat, "udp")
    assert len(got) == FLOWS
    assert sorted(s["port6"] for s in got) == list(FLOW_PORTS)
    assert {(s["protocol"], s["address6"], s["remote4"], s["remote-port4"])
            for s in got} == {("udp", CLIENT, SINK4, 4000)}
    pairs = {(s["address4"], s["port4"]) for s in got}
    assert len(pairs) == FLOWS
    addrs = {a for a, _ in pairs}
    assert len(addrs) == 1 and in_pool4(addrs.pop())
    for s in got:
        assert 1024 <= s["port4"] <= 65535
        assert s["port4"] % 2 == s["port6"] % 2
    assert tables(nat) == (FLOWS, FLOWS)
    # Replies to 50 of them reach the right IPv6 port.
    sample = got[::FLOWS // 50]
    assert len(sample) == 50
    c = nat.counters()
    match = is_ip6(src=SINK4_6, dst=CLIENT)
    with nat.cap6() as cap:
        for s in sample:
            nat.send4(udp4(s["address4"], s["port4"], n=20))
        frames = wait_all(cap, match, 50)
    assert sorted((f[UDP].sport, f[UDP].dport) for f in frames) == \
        sorted((4000, s["port6"]) for s in sample)
    for f in frames:
        assert_ipv6(f, plen=28, nh=17, hlim=63, src=SINK4_6, dst=CLIENT)
        assert bytes(f[UDP].payload) == PAYLOAD[:20]
    c.expect({"xlat-4to6": 50})
    assert tables(nat) == (FLOWS, FLOWS)


# --- 2. Fragments: reassembled by nf_defrag, translated with the session ----

DATA = PAYLOAD * 4


def test_fragments_6to4_through_session(nat):
    """Three IPv6 fragments (504, 504 and 492 data bytes) of a datagram
    CLIENT#50000: one session; IPv4 fragments of 524, 524 and 512 bytes
    (no bigger than the biggest one that came in, translated), DF clear,
    one Identification, reassembling to the datagram from the session's
    transport address with a valid checksum."""
    c = nat.counters()
    udp = udp_datagram(CLIENT, SINK4_6, 50000, 4000, DATA[:1492])
    match = is_ip4(dst=SINK4)
    with nat.cap4() as cap:
        for p in frags6(udp, [504, 1008], 0x7E57F00D):
            nat.send6(p)
        frames = wait_all(cap, match, 3)
    c.expect({"xlat-6to4": 1})
    s = sessions(nat, "udp")
    assert len(s) == 1 and s[0]["port6"] == 50000
    a4, p4 = s[0]["address4"], s[0]["port4"]
    assert in_pool4(a4)
    ident = ipv4_fields(frames[0])["id"]
    parts = []
    for f in frames:
        got = ipv4_fields(f)
        raw = assert_frame4(f, tos=0, id=ident, ttl=63, proto=17, src=a4,
                            dst=SINK4)
        assert got["flags"] in (0, 1), "DF set: flags %d" % got["flags"]
        parts.append((got["offset"], got["flags"] & 1, raw[20:]))
    assert [len(p[2]) + 20 for p in sorted(parts)] == [524, 524, 512]
    datagram = reassemble(parts)
    assert datagram == udp_datagram(a4, SINK4, p4, 4000, DATA[:1492])
    assert inet_csum(pseudo(a4, SINK4, 17, len(datagram)) + datagram) == 0
    assert tables(nat) == (1, 1)


def test_fragments_4to6_through_session(nat):
    """The reply, as two IPv4 fragments (512 and 496 data bytes, ID
    0xBEEF): two IPv6 fragments of the same data sizes, Identification
    0xBEEF, reassembling to the datagram to CLIENT#50002."""
    f = out64(nat, udp6(sport=50002))
    a4, p4 = f[IP].src, f[UDP].sport
    c = nat.counters()
    udp = udp_datagram(SINK4, a4, 4000, p4, DATA[:1000])
    match = is_ip6(dst=CLIENT)
    with nat.cap6() as cap:
        for p in frags4(udp, [512], 0xBEEF, a4):
            nat.send4(p)
        frames = wait_all(cap, match, 2)
    c.expect({"xlat-4to6": 1})
    parts = []
    for g in frames:
        fields, fh, data = fragment6_parts(g)
        assert_frame6(g, tc=0, plen=8 + len(data), nh=44, hlim=63,
                      src=SINK4_6, dst=CLIENT)
        assert fh == {"nh": 17, "res": 0, "offset": fh["offset"],
                      "res2": 0, "m": fh["m"], "id": 0xBEEF}, fh
        parts.append((fh["offset"], fh["m"], data))
    assert [len(p[2]) for p in sorted(parts)] == [512, 496]
    datagram = reassemble(parts)
    assert datagram == udp_datagram(SINK4_6, CLIENT, 4000, 50002,
                                    DATA[:1000])
    assert inet_csum(pseudo(SINK4_6, CLIENT, 17, len(datagram)) +
                     datagram) == 0
    assert tables(nat) == (1, 1)


# --- 3. The main flows, without and with conntrack in the translator --------


def conntrack_on(topo):
    """Legacy iptables rules with -m conntrack in xl (test_conntrack.py);
    proven by the entry a ping of xl leaves (nf_conntrack_count)."""
    for mod in ("nf_conntrack", "xt_conntrack"):
        run(["modprobe", mod], check=False)     # built in: no module
    for tool in TOOLS:
        r = topo.xl.exec(tool, "-w", "-A", *RULE, check=False)
        assert r.rc == 0, "%s: %s" % (tool, r.err)
        topo.defer(lambda tool=tool: topo.xl.exec(tool, "-w", "-D", *RULE))
    with topo.cap4() as cap:
        topo.send4(IP(src=H4, dst=XL4) / ICMP(id=77, seq=1))
        cap.one(is_ip4(src=XL4, dst=H4, proto=1))
    r = topo.xl.exec("cat", "/proc/sys/net/netfilter/nf_conntrack_count")
    assert int(r.out) >= 1


@pytest.mark.parametrize("conntrack", [False, True],
                         ids=["plain", "conntrack"])
def test_main_flows(nat, conntrack):
    """UDP and ICMP echo both ways and a TCP handshake, with exact fields
    and counters, and the sessions they leave."""
    if conntrack:
        conntrack_on(nat)
    c = nat.counters()
    # UDP
    f = out64(nat, udp6(sport=51000))
    assert_ipv4(f, len=92, ttl=63, proto=17, dst=SINK4)
    a4 = f[IP].src
    assert in_pool4(a4)
    assert f[UDP].dport == 4000 and f[UDP].sport % 2 == 0
    assert bytes(f[UDP].payload) == PAYLOAD[:64]
    g = out46(nat, udp4(a4, f[UDP].sport, n=30))
    assert_ipv6(g, plen=38, nh=17, hlim=63, src=SINK4_6, dst=CLIENT)
    assert (g[UDP].sport, g[UDP].dport) == (4000, 51000)
    assert bytes(g[UDP].payload) == PAYLOAD[:30]
    # ICMP echo
    req = IPv6(src=CLIENT, dst=SINK4_6, hlim=64) / \
        ICMPv6EchoRequest(id=0x5151, seq=3, data=PAYLOAD[:40])
    e = out64(nat, req)
    assert_ipv4(e, len=68, ttl=63, proto=1, src=a4, dst=SINK4)
    assert (e[ICMP].type, e[ICMP].code, e[ICMP].seq) == (8, 0, 3)
    assert bytes(e[ICMP].payload) == PAYLOAD[:40]
    r = out46(nat, IP(src=SINK4, dst=a4, ttl=64) /
              ICMP(type=0, id=e[ICMP].id, seq=3) / Raw(PAYLOAD[:40]))
    assert_ipv6(r, plen=48, nh=58, hlim=63, src=SINK4_6, dst=CLIENT)
    assert (r[ICMPv6EchoReply].id, r[ICMPv6EchoReply].seq,
            bytes(r[ICMPv6EchoReply].data)) == (0x5151, 3, PAYLOAD[:40])
    # TCP handshake
    syn = out64(nat, tcp6("S", sport=51002))
    assert_ipv4(syn, len=40, ttl=63, proto=6, src=a4, dst=SINK4)
    assert (syn[TCP].dport, syn[TCP].seq, str(syn[TCP].flags)) == \
        (80, 1000, "S")
    assert tcp_state(nat, 51002) == ["V6_INIT"]
    sa = out46(nat, tcp4(syn, "SA", ack=1001))
    assert_ipv6(sa, plen=20, nh=6, hlim=63, src=SINK4_6, dst=CLIENT)
    assert (sa[TCP].sport, sa[TCP].dport, sa[TCP].ack, str(sa[TCP].flags)) \
        == (80, 51002, 1001, "SA")
    ack = out64(nat, tcp6("A", sport=51002, seq=1001, ack=5001))
    assert (ack[TCP].sport, ack[TCP].ack) == (syn[TCP].sport, 5001)
    assert tcp_state(nat, 51002) == ["ESTABLISHED"]
    c.expect({"xlat-6to4": 4, "xlat-4to6": 3})
    got = sorted((s["protocol"], s["port6"], s["address4"], s["port4"])
                 for s in all_sessions(nat))
    assert got == sorted([("udp", 51000, a4, f[UDP].sport),
                          ("icmp", 0x5151, a4, e[ICMP].id),
                          ("tcp", 51002, a4, syn[TCP].sport)])
    assert tables(nat) == (3, 3)


# --- 4. Flushes and expiry under traffic -------------------------------------


class Traffic:
    """A thread sending FRAMES from h6 in a loop (its own socket), a
    pause after each 64, until stop(); returns how many it sent."""

    def __init__(self, topo, frames):
        self.sender = Sender(topo.h6, "eth0", H6_MAC)
        self.frames = frames
        self.stopped = threading.Event()
        self.thread = ternlib.Thread(self._run)
        self.thread.start()

    def _run(self):
        n = 0
        while not self.stopped.is_set():
            for f in self.frames:
                self.sender.sock.send(f)
                n += 1
                if n % 64 == 0:
                    time.sleep(0.002)
                    if self.stopped.is_set():
                        break
        return n

    def stop(self):
        self.stopped.set()
        try:
            return self.thread.join(60)
        finally:
            self.sender.close()


def _quiesce(topo):
    """Waits until the counters stop moving (the last frames handled)."""
    last = None
    while True:
        now = kstats(topo.xl, "n")
        if now == last:
            return
        last = now
        time.sleep(0.3)


def _consistent(topo):
    """Once traffic stopped: the table sizes of `tern stats` are the
    lengths of the lists."""
    _quiesce(topo)
    n_sess, n_bib = tables(topo)
    assert n_sess == len(all_sessions(topo))
    assert n_bib == len(all_bib(topo))
    return n_sess, n_bib


def _only_translated(c, sent):
    d = c.delta()
    assert set(d) == {"xlat-6to4"}, d
    assert 0 < d["xlat-6to4"] <= sent, (d, sent)


def _flows(topo):     # {(protocol, IPv6 port or identifier)}
    return {(s["protocol"], s["port6"]) for s in all_sessions(topo)}


def _marks(udp=(), icmp=()):
    """{(protocol, port6): frame} of UDP flows and echo identifiers."""
    return dict(zip([("udp", p) for p in udp] + [("icmp", i) for i in icmp],
                    udp6_frames(udp) + echo6_frames(icmp)))


def _seen_once(topo, frames):
    """Sends FRAMES ({(protocol, port6): frame}) from h6, once each (none
    can come after), until the session list has shown each flow's
    session; returns how many it sent."""
    for f in frames.values():
        topo.senders["h6"].sock.send(f)
    seen = set()
    deadline = time.monotonic() + 60
    while seen != set(frames):
        assert time.monotonic() < deadline, sorted(set(frames) - seen)
        seen |= _flows(topo) & set(frames)
    return len(frames)


def test_session_flush_under_traffic(nat):
    """Three flushes while 400 UDP flows and 128 echo identifiers go on.
    Before each, 100 other UDP flows and 32 identifiers are sent once and
    seen in the session list: right after the flush, and once traffic
    stops, no session of theirs is left (the flush removed them and
    nothing remakes them), only the flows going on have made theirs."""
    live = _marks(range(30000, 30400), range(0x100, 0x180))
    marks = _marks(range(31000, 31100), range(0x200, 0x220))
    c = nat.counters()
    t = Traffic(nat, list(live.values()))
    live = set(live)
    n_marks = 0
    try:
        for _ in range(3):
            n_marks += _seen_once(nat, marks)
            cli_ok(nat.xl, "-i", "n", "session", "flush")
            assert _flows(nat) <= live
            wait_until(lambda: _flows(nat) & live, 60)
    finally:
        sent = t.stop()
    _only_translated(c, sent + n_marks)
    n_sess, n_bib = _consistent(nat)
    got = _flows(nat)
    assert got <= live and len(got) == n_sess > 0 and n_bib == n_sess
    assert {(b["protocol"], b["port6"]) for b in all_bib(nat)} == got
    cli_ok(nat.xl, "-i", "n", "session", "flush")
    assert_empty(nat)
    assert all_bib(nat) == []


@pytest.mark.timer
def test_icmp_timeout_expiry_under_traffic(nat):
    """icmp-timeout 60 (the least RFC 5508 allows) with echo requests of 256 identifiers going on:
    sessions expire and are made again. 32 other identifiers sent once
    expire under it: a list comes without them, with every UDP session
    and some of the identifiers going on. Once traffic stops, every ICMP
    session goes, the UDP ones stay."""
    nat.set("icmp-timeout", "60")
    udp = udp6_frames(range(32000, 32100))
    send_frames(nat, udp)
    udp_flows = {("udp", p) for p in range(32000, 32100)}
    live = _marks(icmp=range(0x1000, 0x1100))
    marks = _marks(icmp=range(0x2000, 0x2020))
    c = nat.counters()
    t = Traffic(nat, list(live.values()))
    live = set(live)
    try:
        n_marks = _seen_once(nat, marks)

        def expired():
            got = _flows(nat)
            return not got & set(marks) and udp_flows <= got and got & live
        wait_until(expired, 120)
    finally:
        sent = t.stop()
    _only_translated(c, sent + n_marks)
    wait_until(lambda: sessions(nat, "icmp") == [] and
               tables(nat) == (100, 100), 90)
    _consistent(nat)
    assert sorted(s["port6"] for s in sessions(nat, "udp")) == \
        list(range(32000, 32100))
    # The UDP sessions were not touched: they still translate.
    c = nat.counters()
    send_frames(nat, udp)
    c.expect({"xlat-6to4": 100})
    assert tables(nat) == (100, 100)
