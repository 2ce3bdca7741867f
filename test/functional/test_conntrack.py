"""The translator namespace with connection tracking (issue 10 item 9).

A rule with `-m conntrack` (iptables and ip6tables) in the translator's
namespace makes the kernel register conntrack and defragmentation there
(nf_ct_netns_get): IPv4 and IPv6 fragments are then reassembled at
PRE_ROUTING priority -400, before Tern's hook, and reach it as one
datagram. Tern must translate such a datagram as the fragmented one it
was: out as fragments, none bigger than the biggest fragment that came in
(translated); 4 -> 6 with the IPv4 Identification in the Fragment header,
6 -> 4 with DF clear and an Identification of Tern's generator
(nf_conntrack removed the Fragment header, and its Identification with
it). Before this, a reassembled IPv6 datagram got DF and, too big for the
IPv4 link, a Packet Too Big its sender could do nothing about (its
fragments were small enough already).

The fixture proves the fragments arrive reassembled: two fragments count
one translation (without the rules, two). Unfragmented packets are
translated byte for byte as without conntrack (the same packet again with
the rules removed).
"""

import shutil
import struct
import time

import pytest

import ternlib
from ternlib import (H4, H4_6, H6, H6_4, PAYLOAD, SINK4, SINK4_6, SINK6,
                     SINK6_4, XL4, assert_frame4, assert_frame6,
                     fragment6_parts, ip4_packet, ip6_packet,
                     ip_bytes, ipv4_fields, is_ip4, is_ip6, reassemble, run,
                     set_mtu, udp_datagram)

DATA = PAYLOAD * 8

# The legacy tools: iptables-nft needs nft_compat, which the debug kernel
# (test/kernel/debug.config) does not have; ip_tables and xt_conntrack it
# has, built in (and Debian's kernels load them on demand).
TOOLS = [t + "-legacy" if shutil.which(t + "-legacy") else t
         for t in ("iptables", "ip6tables")]
RULE = ["FORWARD", "-m", "conntrack", "--ctstate", "NEW,ESTABLISHED",
        "-j", "ACCEPT"]


def frags4(datagram, cuts, ident, df=False, tos=0):
    bounds = [0] + list(cuts) + [len(datagram)]
    return [ip4_packet(H4, SINK6_4, 17, datagram[a:b], ttl=64, tos=tos,
                       ident=ident, df=df, mf=b < len(datagram), offset=a)
            for a, b in zip(bounds, bounds[1:])]


def frags6(datagram, cuts, ident, tc=0):
    bounds = [0] + list(cuts) + [len(datagram)]
    return [ip6_packet(H6, SINK4_6, 44, ternlib.frag6_header(
        17, a, b < len(datagram), ident) + datagram[a:b], hlim=64, tc=tc)
        for a, b in zip(bounds, bounds[1:])]


def collect(topo, to6, packets, count):
    match = is_ip6(src=H4_6, dst=SINK6) if to6 else \
        is_ip4(src=H6_4, dst=SINK4)
    with (topo.cap6() if to6 else topo.cap4()) as cap:
        for p in packets:
            (topo.send4 if to6 else topo.send6)(p)
        cap.wait(match, count=count)
        cap.settle(0.3)
        return cap.matching(match)


def conntrack(topo, on):
    """Adds (ON) or removes the conntrack rules of the translator's
    namespace, then proves the state: two small fragments of each family
    count one translation with conntrack (reassembled), two without. The
    hooks go when the rule's destruction has run (deferred with nftables):
    the proof is tried again until then."""
    for tool in TOOLS:
        r = topo.xl.exec(tool, "-w", "-A" if on else "-D", *RULE,
                         check=False)
        assert r.rc == 0, "%s: %s" % (tool, r.err)
    want = {"xlat-4to6": 1 if on else 2, "xlat-6to4": 1 if on else 2}
    udp4 = udp_datagram(H4, SINK6_4, 4000, 40000, DATA[:100])
    udp6 = udp_datagram(H6, SINK4_6, 40000, 4000, DATA[:100])
    for attempt in range(10):
        c = topo.counters()
        collect(topo, True, frags4(udp4, [56], ident=0x0C0C + attempt), 2)
        collect(topo, False, frags6(udp6, [56], ident=0x0C0C + attempt), 2)
        if c.delta() == want:
            return
        time.sleep(0.5)
    c.expect(want)


@pytest.fixture(scope="module")
def _conntrack_module(_xlat_module):
    for mod in ("nf_conntrack", "xt_conntrack", "nf_defrag_ipv4",
                "nf_defrag_ipv6"):
        run(["modprobe", mod], check=False)     # built in: no module
    conntrack(_xlat_module, True)
    yield _xlat_module


@pytest.fixture
def ct(_conntrack_module, xlat):
    """The topology with instance "t" and conntrack in the translator."""
    return xlat


def check_frags6(frames, ident, sizes, tc=0):
    """The IPv6 fragments: exact sizes (data bytes, in offset order), ID,
    header fields; returns the reassembled datagram."""
    parts = []
    for f in frames:
        fields, fh, data = fragment6_parts(f)
        assert_frame6(f, tc=tc, plen=8 + len(data), nh=44, hlim=63,
                      src=H4_6, dst=SINK6)
        assert fh == {"nh": 17, "res": 0, "offset": fh["offset"],
                      "res2": 0, "m": fh["m"], "id": ident}, fh
        parts.append((fh["offset"], fh["m"], data))
    assert [len(p[2]) for p in sorted(parts)] == sizes
    return reassemble(parts)


def check_frags4(frames, sizes, ident=None):
    """The IPv4 fragments: DF clear, one Identification (IDENT if given),
    exact sizes (Total Length, in offset order); returns (datagram, ID)."""
    ident = ipv4_fields(frames[0])["id"] if ident is None else ident
    parts = []
    for f in frames:
        got = ipv4_fields(f)
        raw = assert_frame4(f, tos=0, len=len(ip_bytes(f)), id=ident,
                            flags=got["flags"], offset=got["offset"],
                            ttl=63, proto=17, src=H6_4, dst=SINK4)
        assert got["flags"] in (0, 1), "DF set: flags %d" % got["flags"]
        parts.append((got["offset"], got["flags"] & 1, raw[20:]))
    assert [20 + len(p[2]) for p in sorted(parts)] == sizes
    return reassemble(parts), ident


# --- IPv4 reassembled -> IPv6 fragments ----------------------------------


def test_reassembled_4to6(ct):
    """Two fragments (532 and 516 bytes): the same two IPv6 fragments as
    without conntrack (test_fragments.py), ID 0xBEEF, offsets 0 and 512."""
    c = ct.counters()
    udp = udp_datagram(H4, SINK6_4, 4000, 40000, DATA[:1000])
    frames = collect(ct, True, frags4(udp, [512], 0xBEEF, tos=0x48), 2)
    got = check_frags6(frames, 0xBEEF, [512, 496], tc=0x48)
    assert got == udp_datagram(H4_6, SINK6, 4000, 40000, DATA[:1000])
    c.expect({"xlat-4to6": 1})


def test_reassembled_big_fragments_4to6(ct):
    """Fragments of 1420 bytes: cut again at lowest-ipv6-mtu (1280, 1232
    data bytes a fragment), every piece carrying the IPv4 ID."""
    c = ct.counters()
    udp = udp_datagram(H4, SINK6_4, 4000, 40000, DATA[:2992])   # 3000
    frames = collect(ct, True, frags4(udp, [1400, 2800], 0x1357), 3)
    for f in frames:
        assert len(ip_bytes(f)) <= 1280
    got = check_frags6(frames, 0x1357, [1232, 1232, 536])
    assert got == udp_datagram(H4_6, SINK6, 4000, 40000, DATA[:2992])
    c.expect({"xlat-4to6": 1})


def test_reassembled_df_4to6(ct):
    """Fragments with DF (RFC 7915 4.1, item 13a): not cut for
    lowest-ipv6-mtu; their translation fits the IPv6 MTU (1500): IPv6
    fragments the size of the IPv4 ones + 28."""
    c = ct.counters()
    udp = udp_datagram(H4, SINK6_4, 4000, 40000, DATA[:1992])   # 2000
    frames = collect(ct, True, frags4(udp, [1400], 0x2468, df=True), 2)
    got = check_frags6(frames, 0x2468, [1400, 600])
    assert sorted(len(ip_bytes(f)) for f in frames) == [648, 1448]
    assert got == udp_datagram(H4_6, SINK6, 4000, 40000, DATA[:1992])
    c.expect({"xlat-4to6": 1})


def test_reassembled_df_too_big_4to6(ct):
    """Fragments with DF whose translation does not fit the IPv6 MTU
    (1400): Fragmentation Needed, MTU 1400 - 28 (a fragment gets a
    Fragment header), nothing translated."""
    set_mtu(ct, ct.xl, "v6", 1400)
    c = ct.counters()
    udp = udp_datagram(H4, SINK6_4, 4000, 40000, DATA[:1992])
    with ct.cap6() as cap6, ct.cap4() as cap4:
        for p in frags4(udp, [1400], 0x2469, df=True):
            ct.send4(p)
        f = cap4.one(is_ip4(dst=H4, proto=1))
        cap6.none(is_ip6(dst=SINK6),
                  proof=lambda: c.expect({"drop-too-big": 1}))
    raw = assert_frame4(f, src=XL4, dst=H4, proto=1)
    icmp = raw[20:]
    assert (icmp[0], icmp[1]) == (3, 4)
    assert struct.unpack("!H", icmp[6:8])[0] == 1372
    # The quoted header: the reassembled datagram's (ID 0x2469, to SINK6_4).
    assert struct.unpack("!H", icmp[12:14])[0] == 0x2469
    assert icmp[24:28] == bytes(map(int, SINK6_4.split(".")))
    c.expect({"drop-too-big": 1})


def test_reassembled_max_size_4to6(ct):
    """The largest IPv4 datagram (65535 bytes) ends within the largest
    IPv6 one: all of it arrives, in 1280-byte fragments."""
    set_mtu(ct, ct.h4, "eth0", 9000)
    set_mtu(ct, ct.xl, "v4", 9000)
    c = ct.counters()
    n = 65535 - 20
    udp = udp_datagram(H4, SINK6_4, 4000, 40000, (DATA * 4)[:n - 8])
    pkts = frags4(udp, range(8976, n, 8976), 0x7777)
    k = -(-n // 1232)
    frames = collect(ct, True, pkts, k)
    got = check_frags6(frames, 0x7777, [1232] * (k - 1) + [n - 1232 *
                                                            (k - 1)])
    assert got == udp_datagram(H4_6, SINK6, 4000, 40000, (DATA * 4)[:n - 8])
    c.expect({"xlat-4to6": 1})


# --- IPv6 reassembled -> IPv4 fragments ----------------------------------


def test_reassembled_6to4(ct):
    """Fragments of 848 and 688 bytes: IPv4 fragments of 820 and 660
    bytes (DF clear, offsets 0 and 800, one Identification), as their
    translation one by one would be."""
    c = ct.counters()
    udp = udp_datagram(H6, SINK4_6, 40000, 4000, DATA[:1432])
    frames = collect(ct, False, frags6(udp, [800], 0x7E57F00D), 2)
    got, ident = check_frags4(frames, [820, 660])
    assert got == udp_datagram(H6_4, SINK4, 40000, 4000, DATA[:1432])
    c.expect({"xlat-6to4": 1})


def test_reassembled_no_black_hole_6to4(ct):
    """The black hole: a 1480-byte datagram sent as fragments of 1280
    bytes, IPv4 MTU 1400. Before, the reassembled datagram got DF and a
    Packet Too Big went back; now IPv4 fragments of 1252 and 228 bytes."""
    set_mtu(ct, ct.xl, "v4", 1400)
    c = ct.counters()
    udp = udp_datagram(H6, SINK4_6, 40000, 4000, DATA[:1432])
    with ct.cap6() as cap6, ct.cap4() as cap4:
        for p in frags6(udp, [1232], 0x0000ABCD):
            ct.send6(p)
        match = is_ip4(src=H6_4, dst=SINK4)
        cap4.wait(match, count=2)
        cap6.none(is_ip6(dst=H6), proof=lambda: c.expect({"xlat-6to4": 1}))
        frames = cap4.matching(match)
    got, ident = check_frags4(frames, [1252, 228])
    assert got == udp_datagram(H6_4, SINK4, 40000, 4000, DATA[:1432])
    c.expect({"xlat-6to4": 1})


def test_reassembled_refragmented_to_mtu_6to4(ct):
    """Fragments bigger than the IPv4 MTU (1000): cut at the MTU."""
    set_mtu(ct, ct.xl, "v4", 1000)
    c = ct.counters()
    udp = udp_datagram(H6, SINK4_6, 40000, 4000, DATA[:1992])
    frames = collect(ct, False, frags6(udp, [1400], 0xCAFE0BAD), 3)
    got, ident = check_frags4(frames, [996, 996, 68])
    assert got == udp_datagram(H6_4, SINK4, 40000, 4000, DATA[:1992])
    c.expect({"xlat-6to4": 1})


def test_reassembled_too_big_for_ipv4_6to4(ct):
    """A reassembled IPv6 datagram of 65535 payload bytes would be 65555
    bytes of IPv4: dropped and counted, nothing sent either way."""
    c = ct.counters()
    udp = udp_datagram(H6, SINK4_6, 40000, 4000, (DATA * 4)[:65535 - 8])
    with ct.cap6() as cap6, ct.cap4() as cap4:
        for p in frags6(udp, range(1448, 65535, 1448), 0x0BADF00D):
            ct.send6(p)
        ternlib.none_on(lambda: c.expect({"drop-too-big": 1}),
                        (cap4, is_ip4(src=H6_4)), (cap6, is_ip6(dst=H6)))
    c.expect({"drop-too-big": 1})


# --- Unfragmented packets: the same with and without conntrack -----------


def _udp4(size, df):
    udp = udp_datagram(H4, SINK6_4, 4000, 40000, DATA[:size - 28])
    return ip4_packet(H4, SINK6_4, 17, udp, ident=0x3131, df=df, tos=0x20)


def _udp6(size):
    udp = udp_datagram(H6, SINK4_6, 40000, 4000, DATA[:size - 48])
    return ip6_packet(H6, SINK4_6, 17, udp, hlim=64)


CASES = {
    # name: (to6, packet, frames expected)
    "4to6-df": (True, lambda: _udp4(600, True), 1),
    "4to6-df0-1400": (True, lambda: _udp4(1400, False), 2),
    "6to4-600": (False, lambda: _udp6(600), 1),
    "6to4-1400": (False, lambda: _udp6(1400), 1),
}


def _normalized(f, to6):
    """The frame's IP bytes; a 6->4 DF=0 packet's Identification (the
    generator's) and header checksum zeroed."""
    raw = bytearray(ip_bytes(f))
    if not to6 and not raw[6] & 0x40:
        raw[4:6] = raw[10:12] = b"\0\0"
    return bytes(raw)


@pytest.mark.parametrize("name", sorted(CASES))
def test_unfragmented_same_as_without(ct, name):
    to6, make, n = CASES[name]
    c = ct.counters()
    with_ct = [_normalized(f, to6) for f in
               collect(ct, to6, [make()], n)]
    c.expect({"xlat-4to6" if to6 else "xlat-6to4": 1})
    conntrack(ct, False)
    try:
        c = ct.counters()
        without = [_normalized(f, to6) for f in
                   collect(ct, to6, [make()], n)]
        c.expect({"xlat-4to6" if to6 else "xlat-6to4": 1})
    finally:
        conntrack(ct, True)
    assert sorted(with_ct) == sorted(without)
    # And what it is (RFC 7915): sizes, DF, fragments.
    if name == "4to6-df":
        assert len(with_ct[0]) == 620 and with_ct[0][6] == 17
    elif name == "4to6-df0-1400":
        assert sorted(len(r) for r in with_ct) == [196, 1280]
        assert all(struct.unpack("!I", r[44:48])[0] == 0x3131
                   for r in with_ct)
    elif name == "6to4-600":
        assert len(with_ct[0]) == 580 and with_ct[0][6] & 0xE0 == 0
    else:
        assert len(with_ct[0]) == 1380 and with_ct[0][6] & 0xE0 == 0x40
