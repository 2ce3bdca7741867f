"""The operator's look-ups of a NAT64: `tern bib list` and `tern session
list` filtered in the kernel (TERN_A_FILTER) by the IPv4 transport address
(--ipv4 ADDR4[:PORT]), an IPv6 prefix (--ipv6 PREFIX6) and a subscriber
(--subscriber ADDR6: the prefix max-sessions-per-subscriber counts), each
alone and together (AND); filtered dumps that span several messages and
walk past thousands of entries that do not match; the refusals of bad
filters, with their exact messages; the listing printed as it is read
(a header line, then one line per entry)."""

import errno
import socket
import struct

import pytest

import genl
import ternlib
from genl import ATTR, nest, nla, prefix
from ternlib import assert_error, cli, cli_json, cli_ok
from ternlib.nat64 import (CLIENT, _nat64_module, nat, udp6,  # noqa: F401
                           udp6_frames, wait_until)
from test_nat64_cli import (POOL4_ADDR, PROTOS, bib_nest, instance_attr,
                            nat64, pool4_add)  # noqa: F401

FILTER = genl.enum("tern_filter_attr")
BIB = genl.enum("tern_bib_attr")
POOL4_ADDR2 = "192.0.2.2"


def bib(ns, *args):
    return cli_json(ns, "bib", "list", *args)


def key(e):
    return (e["protocol"], e["address6"], e["port6"], e["address4"],
            e["port4"])


def entry(proto, a6, p6, a4, p4):
    return {"protocol": proto, "address6": a6, "port6": p6, "address4": a4,
            "port4": p4, "static": True, "sessions": 0}


def by_proto(entries):
    """The entries in dump order: TCP, UDP, then ICMP; within one, sorted
    (the order of the hash table is not the test's business)."""
    rank = {"tcp": 0, "udp": 1, "icmp": 2}
    return sorted(entries, key=lambda e: (rank[e["protocol"]], key(e)))


def in_order(got):
    """GOT, the protocols in dump order, each sorted."""
    rank = {"tcp": 0, "udp": 1, "icmp": 2}
    ranks = [rank[e["protocol"]] for e in got]
    assert ranks == sorted(ranks), got
    return by_proto(got)


def filter_nest(*parts):
    return nest(ATTR["TERN_A_FILTER"], *parts)


def f_addr4(a):
    return nla(FILTER["TERN_FILTER_ADDR4"], socket.inet_pton(socket.AF_INET,
                                                             a))


def f_port4(p):
    return nla(FILTER["TERN_FILTER_PORT4"], struct.pack("=H", p))


def f_sub(a):
    return nla(FILTER["TERN_FILTER_SUBSCRIBER"],
               socket.inet_pton(socket.AF_INET6, a))


def f_prefix6(a, plen):
    return prefix(FILTER["TERN_FILTER_PREFIX6"], a, plen)


# ---------------------------------------------------------------------------
# BIB entries (static: made over netlink, many quickly).


@pytest.fixture
def four(nat64):
    """Four static entries in two subscribers' /56, on two pool4
    addresses."""
    for p in ("tcp", "udp", "icmp"):
        pool4_add(nat64, POOL4_ADDR2, 32, PROTOS[p],
                  0 if p == "icmp" else 1024, 65535)
    for args in (("2001:db8:1:200::1#1000", "192.0.2.1#2000", "--udp"),
                 ("2001:db8:1:2ff::2#1001", "192.0.2.1#2001", "--udp"),
                 ("2001:db8:1:300::1#1000", "192.0.2.2#2000", "--udp"),
                 ("2001:db8:1:200::1#1000", "192.0.2.2#2001", "--tcp")):
        cli_ok(nat64, "bib", "add", *args)
    return nat64


A = entry("udp", "2001:db8:1:200::1", 1000, "192.0.2.1", 2000)
B = entry("udp", "2001:db8:1:2ff::2", 1001, "192.0.2.1", 2001)
C = entry("udp", "2001:db8:1:300::1", 1000, "192.0.2.2", 2000)
D = entry("tcp", "2001:db8:1:200::1", 1000, "192.0.2.2", 2001)


@pytest.mark.kernel
@pytest.mark.parametrize("args,want", [
    ((), [D, A, B, C]),
    (("--ipv4", "192.0.2.1"), [A, B]),
    (("--ipv4", "192.0.2.2"), [D, C]),
    (("--ipv4", "192.0.2.2:2000"), [C]),
    (("--ipv4", "192.0.2.2#2001"), [D]),
    (("--ipv4", "192.0.2.1:2000", "--udp"), [A]),
    (("--ipv4", "192.0.2.1:2000", "--tcp"), []),
    (("--ipv6", "2001:db8:1:200::/56"), [D, A, B]),
    (("--ipv6", "2001:db8:1:200::1"), [D, A]),          # /128
    (("--ipv6", "2001:db8:1:200::1/128", "--udp"), [A]),
    (("--ipv6", "::/0"), [D, A, B, C]),
    (("--ipv6", "2001:db8:1:200::/56", "--ipv4", "192.0.2.2"), [D]),
    (("--ipv6", "2001:db8:1:200::/56", "--ipv4", "192.0.2.1:2001"), [B]),
    # A static entry is its own subscriber (/128), whatever
    # subscriber-prefix-len says.
    (("--subscriber", "2001:db8:1:200::1"), [D, A]),
    (("--subscriber", "2001:db8:1:2ff::2"), [B]),
    (("--subscriber", "2001:db8:1:200::2"), []),
    (("--subscriber", "2001:db8:1:200::1", "--ipv4", "192.0.2.1"), [A]),
    (("--subscriber", "2001:db8:1:200::1", "--ipv6", "2001:db8:1:300::/56"),
     []),
    (("--ipv4", "198.51.100.1"), []),                   # nothing matches
])
def test_bib_filters(four, args, want):
    assert in_order(bib(four, *args)) == want


@pytest.mark.kernel
def test_bib_filter_text_streamed(four):
    """Text: a header once, then one line per entry; nothing at all when
    nothing matches."""
    lines = cli_ok(four, "bib", "list", "--ipv4", "192.0.2.2").splitlines()
    assert [line.split() for line in lines] == [
        ["PROTO", "IPV6", "IPV4", "KIND", "SESSIONS"],
        ["tcp", "2001:db8:1:200::1#1000", "192.0.2.2#2001", "static", "0",
         "sessions"],
        ["udp", "2001:db8:1:300::1#1000", "192.0.2.2#2000", "static", "0",
         "sessions"]]
    assert cli_ok(four, "bib", "list", "--ipv4", "198.51.100.1") == ""
    assert cli_ok(four, "bib", "list", "--ipv4", "198.51.100.1",
                  "--json") == "[]\n"
    # JSON: one array, the elements as they come (one line).
    out = cli_ok(four, "bib", "list", "--ipv4", "192.0.2.1", "--json")
    assert out.count("\n") == 1 and out.startswith("[{") and \
        out.endswith("}]\n")


@pytest.mark.kernel
def test_session_list_filter_on_empty_table(four):
    assert cli_json(four, "session", "list", "--ipv4", "192.0.2.1") == []
    assert cli_ok(four, "session", "list", "--subscriber", "::1") == ""


N_MANY = 5000
N_A = 3000          # of them under 2001:db8:a::/64, the rest under b


def many6(i):
    return ("2001:db8:a::%x" if i < N_A else "2001:db8:b::%x") % (i + 1)


@pytest.mark.kernel
def test_filtered_dump_in_parts(nat64):
    """A filtered dump of more entries than one message holds resumes
    where it stopped: every match once; a filter that matches one entry
    (or none) of thousands walks them all (in stretches) and ends."""
    g = ternlib.genl_in(nat64)
    try:
        for i in range(N_MANY):
            err, text, _ = g.tern("TERN_CMD_BIB_ADD", instance_attr(),
                                  bib_nest(PROTOS["udp"], many6(i), 7000,
                                           POOL4_ADDR, 10000 + i))
            assert err == 0, "entry %d: errno %d (%s)" % (i, err, text)

        def dump(*filt):
            err, text, replies = g.tern(
                "TERN_CMD_BIB_GET", instance_attr(),
                filter_nest(*filt), dump=True)
            assert err == 0, text
            out = []
            for r in replies:
                b = genl.attrs(genl.payload_attrs(r)[ATTR["TERN_A_BIB"]])
                out.append(struct.unpack("=H", b[BIB["TERN_BIB_PORT4"]])[0])
            return out

        got = dump(f_prefix6("2001:db8:a::", 64))
        assert g.parts > 1
        assert sorted(got) == list(range(10000, 10000 + N_A))
        got = dump(f_prefix6("2001:db8:b::", 64))
        assert g.parts > 1
        assert sorted(got) == list(range(10000 + N_A, 10000 + N_MANY))
        assert dump(f_addr4(POOL4_ADDR), f_port4(10000 + N_MANY - 1)) == \
            [10000 + N_MANY - 1]
        assert dump(f_addr4(POOL4_ADDR), f_port4(10000)) == [10000]
        assert dump(f_addr4(POOL4_ADDR2)) == []
        assert dump(f_sub(many6(N_MANY - 1))) == [10000 + N_MANY - 1]
        assert sorted(dump()) == list(range(10000, 10000 + N_MANY))
    finally:
        g.close()
    # The CLI reads it as it comes: the same entries.
    got = bib(nat64, "--ipv6", "2001:db8:b::/64", "--udp")
    assert sorted(e["port4"] for e in got) == \
        list(range(10000 + N_A, 10000 + N_MANY))
    assert all(e["address6"].startswith("2001:db8:b::") for e in got)
    lines = cli_ok(nat64, "bib", "list", "--ipv4",
                   "192.0.2.1:%d" % (10000 + N_MANY - 1)).splitlines()
    assert [line.split() for line in lines] == [
        ["PROTO", "IPV6", "IPV4", "KIND", "SESSIONS"],
        ["udp", "%s#7000" % many6(N_MANY - 1),
         "192.0.2.1#%d" % (10000 + N_MANY - 1), "static", "0", "sessions"]]


# ---------------------------------------------------------------------------
# Refusals.


@pytest.mark.kernel
@pytest.mark.parametrize("cmd", ["TERN_CMD_BIB_GET", "TERN_CMD_SESSION_GET"])
@pytest.mark.parametrize("parts,want", [
    ((f_port4(80),), (errno.EINVAL,
     "a port filter needs its IPv4 address (TERN_FILTER_ADDR4)")),
    ((f_prefix6("2001:db8:1:2a0::", 56),), (errno.EINVAL,
     "the IPv6 prefix has bits set past its length")),
    ((f_prefix6("2001:db8::", 129),), (errno.ERANGE,
     "integer out of range")),
    ((nest(FILTER["TERN_FILTER_PREFIX6"],
           nla(genl.PFX["TERN_PREFIX_LEN"], bytes([64]))),),
     (errno.EINVAL, "a prefix needs both an address and a length")),
])
def test_bad_filter_refused(nat64, cmd, parts, want):
    g = ternlib.genl_in(nat64)
    try:
        err, text, replies = g.tern(cmd, instance_attr(), filter_nest(*parts),
                                    dump=True)
    finally:
        g.close()
    assert (err, text) == want
    assert replies == []


BAD_LEN = (errno.EINVAL, "invalid attribute length")
BAD_SIZE = (errno.ERANGE, "binary attribute size out of range")


@pytest.mark.kernel
@pytest.mark.parametrize("attr,payload,want", [
    ("TERN_FILTER_ADDR4", b"\xc0\x00\x02", BAD_SIZE),
    ("TERN_FILTER_ADDR4", bytes(16), BAD_SIZE),
    ("TERN_FILTER_SUBSCRIBER", b"\x20\x01\x0d\xb8", BAD_SIZE),
    ("TERN_FILTER_PORT4", b"\x50", BAD_LEN),
], ids=["addr4-3", "addr4-16", "subscriber-4", "port4-1"])
def test_bad_filter_length_refused(nat64, attr, payload, want):
    g = ternlib.genl_in(nat64)
    try:
        err, text, _ = g.tern("TERN_CMD_BIB_GET", instance_attr(),
                              filter_nest(f_addr4(POOL4_ADDR)
                                          if attr == "TERN_FILTER_PORT4"
                                          else b"",
                                          nla(FILTER[attr], payload)),
                              dump=True)
    finally:
        g.close()
    assert (err, text) == want


@pytest.mark.kernel
def test_filter_refused_on_flush(nat64):
    """A flush takes no filter (it would remove what the operator did not
    look at): the attribute is refused, nothing removed."""
    cli_ok(nat64, "bib", "add", "2001:db8::2#1", "192.0.2.1#2000", "--udp")
    g = ternlib.genl_in(nat64)
    try:
        err, _, _ = g.tern("TERN_CMD_SESSION_FLUSH", instance_attr(),
                           filter_nest(f_addr4(POOL4_ADDR)))
    finally:
        g.close()
    assert err == errno.EINVAL
    assert len(bib(nat64)) == 1


@pytest.mark.kernel
def test_bad_filter_through_cli(nat64):
    for c in ("bib", "session"):
        r = cli(nat64, c, "list", "--ipv6", "2001:db8:1:2a0::/56")
        assert assert_error(r, 1) == \
            "tern: the IPv6 prefix has bits set past its length"
        assert r.out == ""
        r = cli(nat64, c, "list", "--ipv6", "2001:db8:1:2a0::/56", "--json")
        assert assert_error(r, 1) == \
            "tern: the IPv6 prefix has bits set past its length"
        assert r.out == ""


@pytest.mark.kernel
def test_filter_on_siit_refused(ns):
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6",
           ternlib.POOL6)
    r = cli(ns, "session", "list", "--ipv4", "192.0.2.1")
    assert assert_error(r, 1) == ("tern: BIB entries and sessions are NAT64 "
                                  "objects: this instance is not a NAT64")


# ---------------------------------------------------------------------------
# Sessions made by traffic (the standard NAT64 topology, instance "n").

SUB_A1 = CLIENT                    # 2001:db8:6::99
SUB_A2 = "2001:db8:6::98"          # the same /64
SUB_B = "2001:db8:6:1::5"          # another /64, the same /56
N_BULK = 700


def sess(topo, *args):
    return cli_json(topo.xl, "-i", "n", "session", "list", *args,
                    changing=True)


def skey(s):
    return (s["protocol"], s["address6"], s["port6"], s["address4"],
            s["port4"], s["remote4"], s["remote-port4"])


@pytest.mark.kernel
def test_session_filters(nat):
    nat.set("subscriber-prefix-len", "64")
    flows = [(SUB_A1, 40000), (SUB_A1, 40001), (SUB_A2, 40000),
             (SUB_B, 40000), (SUB_B, 40002)]
    for src, sport in flows:
        nat.send6(udp6(src=src, sport=sport))
    wait_until(lambda: len(sess(nat)) == len(flows), ternlib.TIMEOUT)
    every = sess(nat)
    assert sorted((s["address6"], s["port6"]) for s in every) == \
        sorted(flows)

    def want(pred):
        return sorted(skey(s) for s in every if pred(s))

    def got(*args):
        return sorted(skey(s) for s in sess(nat, *args))

    # The subscriber is the /64 (subscriber-prefix-len) of the address.
    assert got("--subscriber", "2001:db8:6::1") == \
        want(lambda s: s["address6"] in (SUB_A1, SUB_A2))
    assert got("--subscriber", SUB_B) == \
        want(lambda s: s["address6"] == SUB_B)
    assert got("--subscriber", "2001:db8:7::1") == []
    assert got("--ipv6", "2001:db8:6::/56") == want(lambda s: True)
    assert got("--ipv6", SUB_A1) == want(lambda s: s["address6"] == SUB_A1)
    assert got("--ipv6", "2001:db8:6:1::/64") == \
        want(lambda s: s["address6"] == SUB_B)
    # The IPv4 side: the BIB entry's (from pool4), not the peer's.
    one = next(s for s in every if s["address6"] == SUB_B and
               s["port6"] == 40002)
    a4, p4 = one["address4"], one["port4"]
    assert got("--ipv4", "%s:%d" % (a4, p4)) == [skey(one)]
    assert got("--ipv4", a4) == want(lambda s: s["address4"] == a4)
    assert got("--ipv4", ternlib.SINK4) == []
    assert got("--ipv4", a4, "--subscriber", SUB_A1) == \
        want(lambda s: s["address4"] == a4 and
             s["address6"] in (SUB_A1, SUB_A2))
    assert got("--ipv4", "%s:%d" % (a4, p4), "--ipv6", SUB_A1) == []
    assert got("--udp", "--subscriber", SUB_B) == \
        want(lambda s: s["address6"] == SUB_B)
    assert got("--tcp", "--subscriber", SUB_B) == []
    # Text: a header, then the sessions.
    r = cli(nat.xl, "-i", "n", "session", "list", "--ipv4",
            "%s:%d" % (a4, p4))
    assert r.rc == 0
    lines = r.out.splitlines()
    assert lines[0].split() == ["PROTO", "IPV6", "IPV4", "REMOTE4", "STATE",
                                "EXPIRES"]
    assert [line.split()[:5] for line in lines[1:]] == [
        ["udp", "%s#40002" % SUB_B, "%s#%d" % (a4, p4),
         "%s#4000" % ternlib.SINK4, "-"]]


@pytest.mark.kernel
def test_session_filter_in_parts(nat):
    """More sessions of one host than a dump message holds, among as many
    of another: the filtered dump lists each of them once."""
    for src in (SUB_A1, SUB_B):
        for f in udp6_frames(range(41000, 41000 + N_BULK),
                             payload=ternlib.PAYLOAD[:8], src=src):
            nat.senders["h6"].sock.send(f)
    wait_until(lambda: ternlib.stats(nat.xl, "n")["sessions"] == 2 * N_BULK,
               ternlib.TIMEOUT)
    g = ternlib.genl_in(nat.xl)
    try:
        err, text, replies = g.tern(
            "TERN_CMD_SESSION_GET", nla(ATTR["TERN_A_INSTANCE"], b"n\0"),
            filter_nest(f_prefix6(SUB_A1, 128)), dump=True)
        assert err == 0, text
        assert g.parts > 1
    finally:
        g.close()
    assert len(replies) == N_BULK
    got = sess(nat, "--ipv6", SUB_A1)
    assert sorted(s["port6"] for s in got) == \
        list(range(41000, 41000 + N_BULK))
    assert {s["address6"] for s in got} == {SUB_A1}
