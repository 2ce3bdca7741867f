"""Port blocks (port-block-size): RFC 7422's logging reduction, dynamic.

The standard NAT64 topology (ternlib.nat64): pool4 198.51.100.16/30, TCP
and UDP ports 1024-65535. With port-block-size 256 and
subscriber-prefix-len 64, 4 subscribers (2001:db8:6:K::1) open 2,500 UDP
sessions each, from 2,500 source ports: each needs ceil(2500 / 256) = 10
blocks, 40 in all, and `tern monitor` must tell exactly 40 block-add
events (no more: a subscriber gets a new block only when its blocks are
full), every session's IPv4 transport address lying in a block of its own
subscriber. A flush returns them all: 40 block-del events, and the
counters block-allocations and block-releases say the same.

The frames are prepared once (the UDP source port and checksum patched in
a template) and sent from h6's packet socket; the ones the emulated links
drop are sent again until every session exists. The VM runs with one CPU:
two CPUs racing for the last port of a block could each make the other
open one more block (documented), and the count is asserted exactly.
"""

import ipaddress
import math
import struct
import time

from scapy.layers.inet import UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Ether
from scapy.packet import Raw

from ternlib import assert_error, cli, cli_json, cli_ok
from ternlib.names import H6_MAC, SINK4_6, XL6_MAC
from ternlib.nat64 import (_nat64_module, nat, tables,  # noqa: F401
                           wait_until)
from test_nat64_events import Monitor

SIZE = 256
SUBS = ["2001:db8:6:%d::1" % k for k in range(1, 5)]
PER_SUB = 2500
BASE_PORT = 20000
SESSIONS = len(SUBS) * PER_SUB


def _frame_bytes(src):
    """The template frame of SRC and the offsets of its UDP source port
    and checksum."""
    f = Ether(src=H6_MAC, dst=XL6_MAC) / IPv6(src=src, dst=SINK4_6,
                                              hlim=64) / \
        UDP(sport=BASE_PORT, dport=4000) / Raw(b"blocks!!")
    raw = bytearray(bytes(f))
    return raw, 14 + 40, 14 + 40 + 6


def _csum_patch(cs, old, new):
    """RFC 1624: the checksum CS with 16-bit word OLD replaced by NEW."""
    s = (~cs & 0xffff) + (~old & 0xffff) + new
    s = (s & 0xffff) + (s >> 16)
    s = (s & 0xffff) + (s >> 16)
    r = ~s & 0xffff
    return r or 0xffff


def _frames(src, ports):
    raw, po, co = _frame_bytes(src)
    (cs,) = struct.unpack_from("!H", raw, co)
    out = []
    for p in ports:
        b = bytearray(raw)
        struct.pack_into("!H", b, po, p)
        struct.pack_into("!H", b, co, _csum_patch(cs, BASE_PORT, p))
        out.append(bytes(b))
    return out


def _send_until_all(topo, want):
    """Sends the frame of every (subscriber, port) of WANT that has no
    session yet, until all have one."""
    sock = topo.senders["h6"].sock
    for _ in range(8):
        have = {(s["address6"], s["port6"]) for s in
                cli_json(topo.xl, "-i", "n", "session", "list", "--udp",
                         changing=True)}
        missing = sorted(want - have)
        if not missing:
            return
        by_sub = {}
        for a6, p in missing:
            by_sub.setdefault(a6, []).append(p)
        for a6, ports in by_sub.items():
            for i, fr in enumerate(_frames(a6, ports)):
                sock.send(fr)
                # Leave the emulated CPU time to take them (the backlog).
                if i % 200 == 199:
                    time.sleep(0.05)
        # Until the count stops moving.
        last = -1
        while tables(topo)[0] != last:
            last = tables(topo)[0]
            time.sleep(0.5)
    raise AssertionError("sessions missing after 8 rounds")


def _blocks_on(topo):
    topo.xl.ip_batch(["neigh replace %s lladdr %s dev v6 nud permanent"
                      % (s, H6_MAC) for s in SUBS])
    topo.set("subscriber-prefix-len", "64")
    topo.set("port-block-size", str(SIZE))


def _events(mon, kind):
    """Events before the next marker; all must be of KIND."""
    evs = mon.marker()
    assert {e["event"] for e in evs} <= {kind}, evs
    return evs


def test_blocks_10k_sessions(nat):
    _blocks_on(nat)
    nat.set("log-bib", "true")
    mon = Monitor(nat)
    try:
        mon.join()
        # Block events only: no BIB event per session.
        cli_ok(nat.xl, "-i", "n", "global", "set", "log-bib", "false")
        c = nat.counters()
        want = {(str(ipaddress.IPv6Address(s)), BASE_PORT + i)
                for s in SUBS for i in range(PER_SUB)}
        t0 = time.monotonic()
        _send_until_all(nat, want)
        took = time.monotonic() - t0
        cli_ok(nat.xl, "-i", "n", "global", "set", "log-bib", "true")
        adds = _events(mon, "block-add")
        per_sub = math.ceil(PER_SUB / SIZE)
        assert len(adds) == len(SUBS) * per_sub, adds
        blocks = {}
        for e in adds:
            assert e["protocol"] == "udp"
            assert e["port-max"] - e["port-min"] == SIZE - 1
            assert e["port-min"] % SIZE == 0
            blocks.setdefault(e["prefix6"], []).append(
                (e["address4"], e["port-min"], e["port-max"]))
        assert sorted(blocks) == sorted("%s/64" % ipaddress.IPv6Network(
            s + "/64", strict=False).network_address for s in SUBS)
        assert all(len(b) == per_sub for b in blocks.values())
        # Blocks never overlap.
        every = [b for bs in blocks.values() for b in bs]
        assert len({(a, lo) for a, lo, _ in every}) == len(every)
        # Every session in a block of its own subscriber.
        sess = cli_json(nat.xl, "-i", "n", "session", "list", "--udp",
                        changing=True)
        assert len(sess) == SESSIONS
        for s in sess:
            pfx = "%s/64" % ipaddress.IPv6Network(s["address6"] + "/64",
                                                   strict=False) \
                .network_address
            assert any(a == s["address4"] and lo <= s["port4"] <= hi
                       for a, lo, hi in blocks[pfx]), s
        d = c.delta()
        assert (d.get("block-allocations", 0), d.get("block-releases", 0),
                d.get("drop-block-refused", 0)) == (len(adds), 0, 0)
        # Flushed: every block returned (no BIB event meanwhile).
        cli_ok(nat.xl, "-i", "n", "global", "set", "log-bib", "false")
        cli_ok(nat.xl, "-i", "n", "session", "flush")
        cli_ok(nat.xl, "-i", "n", "global", "set", "log-bib", "true")
        dels = _events(mon, "block-del")
        assert sorted((e["address4"], e["port-min"]) for e in dels) == \
            sorted((a, lo) for a, lo, _ in every)
        d = c.delta()
        assert (d.get("block-allocations", 0),
                d.get("block-releases", 0)) == (len(adds), len(adds))
        print("events per 10k sessions: %d (%d block-add, %d block-del; "
              "%d bib-add + %d bib-del without blocks); sent in %.1f s"
              % ((len(adds) + len(dels)) * 10000 // SESSIONS, len(adds),
                 len(dels), SESSIONS, SESSIONS, took))
    finally:
        rc, err = mon.stop()
    assert (rc, err) == (0, ""), (rc, err)


def test_blocks_refused_past_max_ports(nat):
    _blocks_on(nat)
    nat.set("port-block-size", "64")
    nat.set("max-ports-per-subscriber", "64")
    sub = SUBS[0]
    want = {(sub, BASE_PORT + i) for i in range(64)}
    _send_until_all(nat, want)
    c = nat.counters()
    nat.senders["h6"].sock.send(_frames(sub, [BASE_PORT + 64])[0])
    c.expect({"drop-block-refused": 1})
    assert tables(nat)[0] == 64


def test_blocks_and_det_space_refused(nat):
    _blocks_on(nat)
    assert_error(cli(nat.xl, "-i", "n", "global", "set", "det-space",
                     "2001:db8:6::/120"), 1,
                 "det-space and port-block-size 256: one or the other")
    g = cli_json(nat.xl, "-i", "n", "global", "show")
    assert (g["det-space"], g["port-block-size"]) == (None, SIZE)
