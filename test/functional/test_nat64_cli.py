"""NAT64 tables through the CLI: static BIB entries (`tern bib`), sessions
(`tern session`) and the table sizes of `tern stats`, with the kernel's
refusals and their exact messages. pool4, which a static
BIB entry's IPv4 side must belong to, is filled over generic netlink: the
tests do not depend on the pool4 CLI.
"""

import errno
import socket
import struct

import pytest

import genl
import ternlib
from genl import ATTR, nest, nla, prefix
from ternlib import POOL6, assert_error, cli, cli_json, cli_ok

NAT64_POOL6 = "64:ff9b::/96"
NOT_NAT64 = ("BIB entries and sessions are NAT64 objects: "
             "this instance is not a NAT64")
IN_BIB = "the IPv6 or IPv4 transport address is already in the BIB"
POOL4_ADDR = "192.0.2.1"        # pool4: 192.0.2.1/32, ports 1024-65535
PROTOS = {"tcp": socket.IPPROTO_TCP, "udp": socket.IPPROTO_UDP,
          "icmp": socket.IPPROTO_ICMP}
TABLES = ("bib-entries", "sessions", "table-bytes", "max-sessions",
          "stored-syns", "bucket-bytes")

P4 = genl.enum("tern_pool4_attr")
BIB = genl.enum("tern_bib_attr")


def instance_attr(name="t"):
    return nla(ATTR["TERN_A_INSTANCE"], name.encode() + b"\0")


def tern_genl(ns, cmd, *parts, dump=False):
    """(errno, extack message, replies) of one request in namespace NS."""
    g = ternlib.genl_in(ns)
    try:
        return g.tern(cmd, *parts, dump=dump)
    finally:
        g.close()


def pool4_add(ns, addr, plen, proto, pmin, pmax):
    err, text, _ = tern_genl(
        ns, "TERN_CMD_POOL4_ADD", instance_attr(),
        nest(ATTR["TERN_A_POOL4"],
             prefix(P4["TERN_POOL4_PREFIX"], addr, plen),
             nla(P4["TERN_POOL4_PROTO"], bytes([proto])),
             nla(P4["TERN_POOL4_PORT_MIN"], struct.pack("=H", pmin)),
             nla(P4["TERN_POOL4_PORT_MAX"], struct.pack("=H", pmax))))
    assert err == 0, "pool4 add %s/%d: errno %d (%s)" % (addr, plen, err,
                                                          text)

# The CLI's own behaviour (parsing, output, messages): not run on the
# debug kernel, except the tests marked kernel (pytest.ini).
pytestmark = pytest.mark.cli


def bib_nest(proto, a6=None, p6=None, a4=None, p4=None):
    parts = [nla(BIB["TERN_BIB_PROTO"], bytes([proto]))]
    if a6 is not None:
        parts += [nla(BIB["TERN_BIB_ADDR6"],
                      socket.inet_pton(socket.AF_INET6, a6)),
                  nla(BIB["TERN_BIB_PORT6"], struct.pack("=H", p6))]
    if a4 is not None:
        parts += [nla(BIB["TERN_BIB_ADDR4"],
                      socket.inet_pton(socket.AF_INET, a4)),
                  nla(BIB["TERN_BIB_PORT4"], struct.pack("=H", p4))]
    return nest(ATTR["TERN_A_BIB"], *parts)


def entry(proto, a6, p6, a4, p4, static=True, sessions=0):
    """An element of `tern bib list --json`."""
    return {"protocol": proto, "address6": a6, "port6": p6,
            "address4": a4, "port4": p4, "static": static,
            "sessions": sessions}


def bib(ns, *args):
    return cli_json(ns, "bib", "list", *args)


def sessions(ns, *args):
    return cli_json(ns, "session", "list", *args)


def refused(ns, message, *args):
    """`tern ARGS` fails with exit 1 and exactly `tern: MESSAGE`."""
    r = cli(ns, *args)
    assert assert_error(r, 1) == "tern: " + message
    assert r.out == ""


# ---------------------------------------------------------------------------
# Fixtures.


@pytest.fixture
def nat64(ns):
    """A namespace with NAT64 instance "t" whose pool4 is 192.0.2.1#1024-
    65535 for TCP and UDP and 192.0.2.1#0-65535 for ICMP."""
    r = cli(ns, "instance", "add", "t", "--nat64", "--pool6", NAT64_POOL6)
    assert r.rc == 0 and r.err == "", r
    pool4_add(ns, POOL4_ADDR, 32, PROTOS["tcp"], 1024, 65535)
    pool4_add(ns, POOL4_ADDR, 32, PROTOS["udp"], 1024, 65535)
    pool4_add(ns, POOL4_ADDR, 32, PROTOS["icmp"], 0, 65535)
    return ns


@pytest.fixture
def siit(ns):
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    return ns


# ---------------------------------------------------------------------------
# BIB.


@pytest.mark.kernel
def test_bib_static_bounded(nat64):
    """max-static-bib-entries bounds `bib add`; a removal makes room."""
    cli_ok(nat64, "-i", "t", "global", "set", "max-static-bib-entries", "2")
    cli_ok(nat64, "bib", "add", "2001:db8::2#40000", "192.0.2.1#61000",
           "--tcp")
    cli_ok(nat64, "bib", "add", "2001:db8::2#40000", "192.0.2.1#61000",
           "--udp")
    r = cli(nat64, "bib", "add", "2001:db8::2#40001", "192.0.2.1#61001",
            "--tcp")
    assert_error(r, 1, r"too many static BIB entries "
                 r"\(max-static-bib-entries\)")
    assert sorted(e["port4"] for e in bib(nat64)) == [61000, 61000]
    cli_ok(nat64, "bib", "remove", "192.0.2.1#61000", "--udp")
    cli_ok(nat64, "bib", "add", "2001:db8::2#40001", "192.0.2.1#61001",
           "--tcp")
    assert sorted(e["port4"] for e in bib(nat64)) == [61000, 61001]


@pytest.mark.kernel
def test_bib_add_list_remove(nat64):
    assert bib(nat64) == []
    assert cli_ok(nat64, "bib", "list") == ""
    cli_ok(nat64, "bib", "add", "2001:db8::2#40000", "192.0.2.1#61000",
           "--tcp")
    cli_ok(nat64, "bib", "add", "--udp", "192.0.2.1:1053",     # any order
           "[2001:db8::3]:5353")
    cli_ok(nat64, "-i", "t", "bib", "add", "2001:db8::2#7",
           "192.0.2.1#7", "--icmp")
    tcp = entry("tcp", "2001:db8::2", 40000, POOL4_ADDR, 61000)
    udp = entry("udp", "2001:db8::3", 5353, POOL4_ADDR, 1053)
    icmp = entry("icmp", "2001:db8::2", 7, POOL4_ADDR, 7)
    assert bib(nat64) == [tcp, udp, icmp]       # TCP, UDP, then ICMP
    assert bib(nat64, "--tcp") == [tcp]
    assert bib(nat64, "--udp") == [udp]
    assert bib(nat64, "-i", "t", "--icmp") == [icmp]
    lines = cli_ok(nat64, "bib", "list").splitlines()
    assert [line.split() for line in lines] == [
        ["PROTO", "IPV6", "IPV4", "KIND", "SESSIONS"],
        ["tcp", "2001:db8::2#40000", "192.0.2.1#61000", "static", "0",
         "sessions"],
        ["udp", "2001:db8::3#5353", "192.0.2.1#1053", "static", "0",
         "sessions"],
        ["icmp", "2001:db8::2#7", "192.0.2.1#7", "static", "0",
         "sessions"]]

    cli_ok(nat64, "bib", "remove", "2001:db8::2#40000", "--tcp")
    assert bib(nat64) == [udp, icmp]
    cli_ok(nat64, "bib", "remove", "192.0.2.1:1053", "--udp")
    assert bib(nat64) == [icmp]
    cli_ok(nat64, "bib", "remove", "192.0.2.1#7", "2001:db8::2#7", "--icmp")
    assert bib(nat64) == []


@pytest.mark.parametrize("a6,a4", [
    ("2001:db8::2#40000", "192.0.2.1#61000"),      # the same entry
    ("2001:db8::2#40000", "192.0.2.1#61001"),      # its IPv6 side
    ("2001:db8::9#40000", "192.0.2.1#61000"),      # its IPv4 side
])
def test_bib_add_conflict_refused(nat64, a6, a4):
    cli_ok(nat64, "bib", "add", "2001:db8::2#40000", "192.0.2.1#61000",
           "--tcp")
    before = bib(nat64)
    refused(nat64, IN_BIB, "bib", "add", a6, a4, "--tcp")
    assert bib(nat64) == before
    # Another protocol's BIB is another table.
    cli_ok(nat64, "bib", "add", a6, a4, "--udp")
    assert bib(nat64, "--udp") == [
        entry("udp", a6.split("#")[0], int(a6.split("#")[1]),
              a4.split("#")[0], int(a4.split("#")[1]))]


@pytest.mark.parametrize("a4,proto", [
    ("198.51.100.1#61000", "--tcp"),    # not a pool4 address
    ("192.0.2.1#80", "--tcp"),          # a port outside the range
    ("192.0.2.1#1023", "--udp"),
    ("192.0.2.2#5000", "--icmp"),
])
def test_bib_add_outside_pool4_refused(nat64, a4, proto):
    refused(nat64, "%s is not in pool4 (for this protocol)" % a4,
            "bib", "add", "2001:db8::2#40000", a4, proto)
    assert bib(nat64) == []


def test_bib_remove_refused(nat64):
    cli_ok(nat64, "bib", "add", "2001:db8::2#40000", "192.0.2.1#61000",
           "--tcp")
    before = bib(nat64)
    refused(nat64, "no such BIB entry",
            "bib", "remove", "2001:db8::2#40001", "--tcp")
    refused(nat64, "no such BIB entry",
            "bib", "remove", "192.0.2.1#61000", "--udp")
    refused(nat64, "no BIB entry has both these transport addresses",
            "bib", "remove", "2001:db8::2#40000", "192.0.2.1#61001", "--tcp")
    assert bib(nat64) == before


@pytest.mark.kernel
def test_bib_dump_in_parts(nat64):
    """More entries than one dump message buffer holds: each is listed
    once, whichever part carries it."""
    n = 600
    g = ternlib.genl_in(nat64)
    try:
        for i in range(n):
            err, text, _ = g.tern("TERN_CMD_BIB_ADD", instance_attr(),
                                  bib_nest(PROTOS["udp"], "2001:db8::2",
                                           10000 + i, POOL4_ADDR, 20000 + i))
            assert err == 0, "entry %d: errno %d (%s)" % (i, err, text)
        err, text, replies = g.tern("TERN_CMD_BIB_GET", dump=True)
        assert err == 0, text
        assert len(replies) == n
        assert g.parts > 1
    finally:
        g.close()
    got = bib(nat64)
    assert len(got) == n
    assert sorted((e["port6"], e["port4"]) for e in got) == \
        [(10000 + i, 20000 + i) for i in range(n)]
    assert bib(nat64, "--tcp") == []
    cli_ok(nat64, "session", "flush")           # static entries stay
    assert len(bib(nat64, "--udp")) == n


# ---------------------------------------------------------------------------
# Sessions.


@pytest.mark.kernel
def test_session_list_empty_and_flush(nat64):
    assert sessions(nat64) == []
    for p in ("--tcp", "--udp", "--icmp"):
        assert sessions(nat64, p) == []
    assert cli_ok(nat64, "session", "list") == ""
    cli_ok(nat64, "bib", "add", "2001:db8::2#40000", "192.0.2.1#61000",
           "--tcp")
    cli_ok(nat64, "session", "flush")
    cli_ok(nat64, "session", "flush", "--udp")
    cli_ok(nat64, "-i", "t", "session", "flush", "--tcp")
    # Static BIB entries are not dynamic state.
    assert bib(nat64) == [entry("tcp", "2001:db8::2", 40000, POOL4_ADDR,
                                61000)]
    assert sessions(nat64) == []


# ---------------------------------------------------------------------------
# Stats.


@pytest.mark.kernel
def test_stats_table_sizes(nat64):
    s = cli_json(nat64, "stats")["tables"]
    for k in TABLES:
        assert type(s[k]) is int, (k, s)
    assert s["bib-entries"] == 0 and s["sessions"] == 0
    assert s["stored-syns"] == 0
    # max-sessions 0 (the default): the limit derived from RAM, in force.
    assert s["max-sessions"] >= 1024
    cli_ok(nat64, "-i", "t", "global", "set", "max-sessions", "5000")
    assert cli_json(nat64, "stats")["tables"]["max-sessions"] == 5000
    cli_ok(nat64, "-i", "t", "global", "set", "max-sessions", "0")
    cli_ok(nat64, "bib", "add", "2001:db8::2#40000", "192.0.2.1#61000",
           "--tcp")
    cli_ok(nat64, "bib", "add", "2001:db8::2#40000", "192.0.2.1#61000",
           "--udp")
    s = cli_json(nat64, "stats")["tables"]
    assert s["bib-entries"] == 2 and s["sessions"] == 0
    assert s["table-bytes"] > 0
    # The table sizes are shown whole (zeros too), last, in text as well.
    lines = cli_ok(nat64, "stats").splitlines()
    head = lines.index("NAT64 tables (shown whole):")
    plain = {}
    for line in lines[head + 1:]:
        name, value = line.split(":")
        plain[name.strip()] = int(value)
    assert plain == s
    verbose = cli_ok(nat64, "stats", "--verbose")
    assert any(line.startswith("  bib-entries:") and " 2 " in line
               for line in verbose.splitlines()), verbose


def test_stats_siit_has_no_table_sizes(siit):
    s = cli_json(siit, "stats", "--all")
    assert "tables" not in s
    assert not set(TABLES) & set(ternlib.stats_flat(s))


# ---------------------------------------------------------------------------
# Refusals on a SIIT instance and by the policies.


@pytest.mark.parametrize("args", [
    ["bib", "add", "2001:db8::2#40000", "192.0.2.1#61000", "--tcp"],
    ["bib", "remove", "192.0.2.1#61000", "--tcp"],
    ["bib", "list"],
    ["bib", "list", "--icmp", "--json"],
    ["session", "list"],
    ["session", "list", "--udp", "--json"],
    ["session", "flush"],
    ["session", "flush", "--tcp"],
], ids=lambda a: "_".join(a).replace("#", "-"))
def test_refused_on_siit(siit, args):
    refused(siit, NOT_NAT64, *args)
    refused(siit, NOT_NAT64, "-i", "t", *args)


def test_refused_without_instance(ns):
    refused(ns, "no instance in this namespace", "bib", "list")
    refused(ns, "no instance in this namespace", "session", "flush")


BAD_PROTO = "the protocol must be TCP (6), UDP (17) or ICMP (1)"


@pytest.mark.parametrize("proto", [0, 2, 16, 18, 58, 132, 255])
def test_policy_protocol_values(siit, proto):
    want = (errno.EINVAL, BAD_PROTO)
    for cmd in ("TERN_CMD_BIB_GET", "TERN_CMD_SESSION_GET",
                "TERN_CMD_SESSION_FLUSH"):
        err, text, _ = tern_genl(siit, cmd,
                                 nla(ATTR["TERN_A_PROTO"], bytes([proto])),
                                 dump=cmd.endswith("_GET"))
        assert (err, text) == want, cmd
    err, text, _ = tern_genl(siit, "TERN_CMD_BIB_ADD", instance_attr(),
                             bib_nest(proto, "2001:db8::2", 1, "192.0.2.1",
                                      1))
    assert (err, text) == want


# One attribute of a complete, valid BIB entry (TCP 2001:db8::2#40000 ->
# 192.0.2.1#61000, in pool4) made bad; what the kernel's policy (the
# netlink core, from mod/nl/nat64.c's tern_bib_policy) says of it. Each bad
# payload would read as the valid value without the policy (the address's
# first bytes, the port's low ones, a flag or a count the handler ignores).
GOOD_BIB = {
    "TERN_BIB_PROTO": bytes([socket.IPPROTO_TCP]),
    "TERN_BIB_ADDR6": socket.inet_pton(socket.AF_INET6, "2001:db8::2"),
    "TERN_BIB_PORT6": struct.pack("=H", 40000),
    "TERN_BIB_ADDR4": socket.inet_pton(socket.AF_INET, POOL4_ADDR),
    "TERN_BIB_PORT4": struct.pack("=H", 61000),
}
BAD_LEN = (errno.EINVAL, "invalid attribute length")
BAD_SIZE = (errno.ERANGE, "binary attribute size out of range")


@pytest.mark.kernel
@pytest.mark.parametrize("cmd", ["TERN_CMD_BIB_ADD", "TERN_CMD_BIB_DEL"])
@pytest.mark.parametrize("attr,payload,want", [
    ("TERN_BIB_PROTO", bytes([socket.IPPROTO_TCP, 0]),
     (errno.ERANGE, "Attribute failed policy validation")),
    ("TERN_BIB_ADDR6", GOOD_BIB["TERN_BIB_ADDR6"] + bytes(1), BAD_SIZE),
    ("TERN_BIB_ADDR6", GOOD_BIB["TERN_BIB_ADDR6"][:4], BAD_SIZE),
    ("TERN_BIB_PORT6", struct.pack("=I", 40000), BAD_LEN),
    ("TERN_BIB_ADDR4", GOOD_BIB["TERN_BIB_ADDR4"] + bytes(12), BAD_SIZE),
    ("TERN_BIB_ADDR4", GOOD_BIB["TERN_BIB_ADDR4"][:3], BAD_SIZE),
    ("TERN_BIB_PORT4", GOOD_BIB["TERN_BIB_PORT4"][:1], BAD_LEN),
    ("TERN_BIB_STATIC", b"",
     (errno.EINVAL, "STATIC is only in the replies of BIB dumps")),
    ("TERN_BIB_SESSIONS", bytes(4),
     (errno.EINVAL, "SESSIONS is only in the replies of BIB dumps")),
], ids=lambda v: "%d-bytes" % len(v) if isinstance(v, bytes) else
    errno.errorcode[v[0]] if isinstance(v, tuple) else v)
def test_policy_bib_attributes(nat64, cmd, attr, payload, want):
    """The request is valid but for ATTR (the same without it, or with
    its good value, is done): refused with the policy's exact message,
    and the BIB is as it was."""
    def request(bad):
        a = dict(GOOD_BIB)
        a[attr] = payload if bad else a.get(attr)
        return nest(ATTR["TERN_A_BIB"],
                    *(nla(BIB[k], v) for k, v in a.items() if v is not None))

    there = cmd == "TERN_CMD_BIB_DEL"
    the_entry = [entry("tcp", "2001:db8::2", 40000, POOL4_ADDR, 61000)]
    if there:
        err, text, _ = tern_genl(nat64, "TERN_CMD_BIB_ADD", instance_attr(),
                                 request(False))
        assert (err, text) == (0, None)
    assert tern_genl(nat64, cmd, instance_attr(), request(True))[:2] == want
    assert bib(nat64) == (the_entry if there else [])
    assert tern_genl(nat64, cmd, instance_attr(), request(False))[:2] == \
        (0, None)
    assert bib(nat64) == ([] if there else the_entry)


@pytest.mark.parametrize("cmd", ["TERN_CMD_BIB_ADD", "TERN_CMD_BIB_DEL"])
def test_bib_request_needs_its_entry(siit, cmd):
    err, text, _ = tern_genl(siit, cmd, instance_attr())
    assert (err, text) == (errno.EINVAL, "missing the BIB entry (TERN_A_BIB)")
    err, text, _ = tern_genl(siit, cmd, instance_attr(),
                             nest(ATTR["TERN_A_BIB"]))
    assert (err, text) == (
        errno.EINVAL, "a BIB entry needs a protocol (TERN_BIB_PROTO)")
