"""pool4 (NAT64, RFC 6146 3.5.1.1) through the CLI and netlink: add, list
(exact JSON and text), remove, flush; overlaps, bad ranges and the host's
ephemeral ports refused with their exact messages; refusal on a SIIT
instance.
"""

import json
import socket
import struct

import pytest

import ternlib
from genl import ATTR, nest, nla, prefix, enum
from ternlib import POOL6, assert_error, cli, cli_json, cli_ok
from ternlib import cli_refused as refused
from ternlib.nsenter import in_netns

# The CLI's own behaviour (parsing, output, messages): not run on the
# debug kernel, except the tests marked kernel (pytest.ini).
pytestmark = pytest.mark.cli

P4 = enum("tern_pool4_attr")

TCP = {"protocol": "tcp", "port-min": 1024, "port-max": 65535, "mark": 0}
UDP = dict(TCP, protocol="udp")
ICMP = {"protocol": "icmp", "port-min": 0, "port-max": 65535, "mark": 0}


def entry(kind, prefix_, **kw):
    """An element of `pool4 list --json`; port_min=N is key "port-min"."""
    e = dict(kind, prefix=prefix_)
    e.update({k.replace("_", "-"): v for k, v in kw.items()})
    return e


def pool(ns):
    return cli_json(ns, "pool4", "list")


@pytest.fixture
def nat64(ns):
    """Namespace NS with NAT64 instance "n"."""
    r = cli(ns, "instance", "add", "n", "--nat64", "--pool6", "64:ff9b::/96")
    assert r.rc == 0, "instance add --nat64: exit %d, %r" % (r.rc, r.err)
    return ns


@pytest.fixture
def local4(nat64):
    """An interface with 192.0.2.1/24 in the namespace (a veth: the debug
    kernel has no dummy driver); its ip_local_port_range is put back
    afterwards."""
    path = "/proc/sys/net/ipv4/ip_local_port_range"
    with in_netns(str(nat64)):
        with open(path) as f:
            saved = f.read()
    nat64.ip("link", "add", "tp0", "type", "veth", "peer", "name", "tp1")
    nat64.ip("addr", "add", "192.0.2.1/24", "dev", "tp0")
    nat64.ip("link", "set", "tp0", "up")
    yield nat64
    nat64.ip("link", "del", "tp0")
    with in_netns(str(nat64)):
        with open(path, "w") as f:
            f.write(saved)


def set_port_range(ns, lo, hi):
    ns.sysctl({"net/ipv4/ip_local_port_range": "%d %d" % (lo, hi)})


# --- add, list, remove, flush -----------------------------------------------


@pytest.mark.kernel
def test_pool4_add_list_remove_flush(nat64):
    ns = nat64
    assert pool(ns) == []
    assert cli_ok(ns, "pool4", "list") == "PROTO PREFIX PORTS       MARK\n"
    cli_ok(ns, "pool4", "add", "203.0.113.0/24")        # all three
    cli_ok(ns, "-i", "n", "pool4", "add", "198.51.100.7", "5000-5999",
           "--udp", "--mark", "7")
    cli_ok(ns, "pool4", "add", "198.51.100.7", "80", "--tcp", "--icmp")
    want = [entry(TCP, "198.51.100.7/32", port_min=80, port_max=80),
            entry(UDP, "198.51.100.7/32", port_min=5000, port_max=5999,
                  mark=7),
            entry(ICMP, "198.51.100.7/32", port_min=80, port_max=80),
            entry(TCP, "203.0.113.0/24"),
            entry(UDP, "203.0.113.0/24"),
            entry(ICMP, "203.0.113.0/24")]
    assert pool(ns) == want     # by address, length, protocol, mark, ports
    assert cli_ok(ns, "pool4", "list") == (
        "PROTO PREFIX          PORTS       MARK\n"
        "tcp   198.51.100.7/32 80-80       0\n"
        "udp   198.51.100.7/32 5000-5999   7\n"
        "icmp  198.51.100.7/32 80-80       0\n"
        "tcp   203.0.113.0/24  1024-65535  0\n"
        "udp   203.0.113.0/24  1024-65535  0\n"
        "icmp  203.0.113.0/24  0-65535     0\n")
    cli_ok(ns, "pool4", "remove", "203.0.113.0/24", "--udp")
    assert pool(ns) == want[:4] + want[5:]
    cli_ok(ns, "pool4", "remove", "203.0.113.0/24")     # tcp and icmp
    assert pool(ns) == want[:3]
    cli_ok(ns, "pool4", "remove", "198.51.100.7", "5000-5999", "--mark", "7")
    assert pool(ns) == [want[0], want[2]]
    cli_ok(ns, "pool4", "flush")
    assert pool(ns) == []
    cli_ok(ns, "pool4", "flush")        # flushing nothing is fine


@pytest.mark.kernel
def test_pool4_several_ranges(nat64):
    ns = nat64
    cli_ok(ns, "pool4", "add", "203.0.113.0/24", "1024-2047", "--tcp")
    cli_ok(ns, "pool4", "add", "203.0.113.0/24", "2048-4000", "--tcp")
    cli_ok(ns, "pool4", "add", "203.0.113.0/24", "1024-2047", "--tcp",
           "--mark", "1")
    cli_ok(ns, "pool4", "add", "203.0.113.128/25", "1-1023", "--tcp")
    want = [entry(TCP, "203.0.113.0/24", port_min=1024, port_max=2047),
            entry(TCP, "203.0.113.0/24", port_min=2048, port_max=4000),
            entry(TCP, "203.0.113.0/24", port_min=1024, port_max=2047,
                  mark=1),
            entry(TCP, "203.0.113.128/25", port_min=1, port_max=1023)]
    assert pool(ns) == want
    # With its ports, only that entry goes.
    cli_ok(ns, "pool4", "remove", "203.0.113.0/24", "2048-4000", "--tcp")
    assert pool(ns) == [want[0], want[2], want[3]]
    cli_ok(ns, "pool4", "add", "203.0.113.0/24", "2048-4000", "--tcp")
    # Without, every range of the prefix (for the mark).
    cli_ok(ns, "pool4", "remove", "203.0.113.0/24", "--tcp")
    assert pool(ns) == [want[2], want[3]]


# --- refusals -----------------------------------------------------------------


def test_pool4_overlaps_refused(nat64):
    ns = nat64
    cli_ok(ns, "pool4", "add", "203.0.113.0/24", "1024-2047", "--tcp")
    cli_ok(ns, "pool4", "add", "203.0.113.0/24", "5000-5100", "--udp")
    before = pool(ns)
    refused(ns, 1, "overlaps pool4 entry TCP 203.0.113.0/24 1024-2047 mark 0",
            "pool4", "add", "203.0.113.128/25", "2000-3000", "--tcp")
    refused(ns, 1, "overlaps pool4 entry TCP 203.0.113.0/24 1024-2047 mark 0",
            "pool4", "add", "203.0.0.0/16", "2047", "--tcp")
    refused(ns, 1, "this entry is already in pool4",
            "pool4", "add", "203.0.113.0/24", "1024-2047", "--tcp")
    # All or nothing: TCP goes in, UDP is refused, TCP is taken out again.
    refused(ns, 1, "overlaps pool4 entry UDP 203.0.113.0/24 5000-5100 mark 0",
            "pool4", "add", "203.0.113.0/24", "5050-6000")
    assert pool(ns) == before


@pytest.mark.parametrize("args,message", [
    (["203.0.112.0/15"],
     "the prefix length must be 16 to 32 (a /16 is 65536 addresses)"),
    (["203.0.113.0/33"], None),
    (["203.0.113.1/24", "--tcp"],
     "the IPv4 prefix has bits set after its length"),
    (["203.0.113.0/24", "2000-1000", "--tcp"],
     "the port range is empty: the first port is after the last"),
    (["203.0.113.0/24", "9-8", "--icmp"],
     "the port range is empty: the first port is after the last"),
    (["203.0.113.0/24", "0-100", "--udp"],
     "TCP and UDP ports are 1 to 65535 (not 0)"),
    (["203.0.113.0/24", "0"], "TCP and UDP ports are 1 to 65535 (not 0)"),
    (["203.0.113.0/24", "1-65536"], None),
    (["203.0.113.0/24", "--mark", "-1"], None),
    (["203.0.113.0/24", "--sctp"], None),
])
def test_pool4_bad_entries_refused(nat64, args, message):
    r = cli(nat64, "pool4", "add", *args)
    if message is None:                 # the CLI's usage error
        assert_error(r, 2)
    else:
        assert assert_error(r, 1) == "tern: " + message
    assert r.out == ""
    assert pool(nat64) == []


def test_pool4_address_limit(nat64):
    cli_ok(nat64, "pool4", "add", "10.0.0.0/16", "--icmp")
    cli_ok(nat64, "pool4", "add", "10.0.0.0/16", "--tcp")  # same addresses
    refused(nat64, 1, "pool4 would hold more than 65536 addresses",
            "pool4", "add", "10.1.0.0/32", "--udp")
    assert len(pool(nat64)) == 2


def test_pool4_remove_refused(nat64):
    ns = nat64
    refused(ns, 1, "no pool4 entry has prefix 203.0.113.0/24 for any "
            "protocol (mark 0)", "pool4", "remove", "203.0.113.0/24")
    cli_ok(ns, "pool4", "add", "203.0.113.0/24", "--tcp")
    before = pool(ns)
    refused(ns, 1, "no pool4 entry has prefix 203.0.113.0/24 for udp "
            "(mark 0)", "pool4", "remove", "203.0.113.0/24", "--tcp", "--udp")
    refused(ns, 1, "no pool4 entry has prefix 203.0.113.0/24 for any "
            "protocol (mark 3)", "pool4", "remove", "203.0.113.0/24",
            "--mark", "3")
    refused(ns, 1, "no pool4 entry has prefix 203.0.113.0/24 and these "
            "ports for tcp (mark 0)", "pool4", "remove", "203.0.113.0/24",
            "1-5", "--tcp")
    refused(ns, 1, "no pool4 entry has prefix 203.0.113.0/25 for any "
            "protocol (mark 0)", "pool4", "remove", "203.0.113.0/25")
    assert pool(ns) == before


def ephemeral(lo, hi, addr="192.0.2.1"):
    return ("ports %d-%d of local %s are in net.ipv4.ip_local_port_range"
            % (lo, hi, addr))


@pytest.mark.kernel
def test_pool4_host_ephemeral_ports_refused(local4):
    ns = local4
    set_port_range(ns, 32768, 60999)
    refused(ns, 1, ephemeral(32768, 60999), "pool4", "add", "192.0.2.0/24",
            "--tcp")
    refused(ns, 1, ephemeral(32768, 40000), "pool4", "add", "192.0.2.1",
            "1024-40000", "--udp")
    refused(ns, 1, ephemeral(32768, 60999), "pool4", "add", "192.0.2.1")
    assert pool(ns) == []               # not even ICMP
    # Around the range, other addresses, ICMP: fine.
    cli_ok(ns, "pool4", "add", "192.0.2.1", "1024-32767", "--tcp")
    cli_ok(ns, "pool4", "add", "192.0.2.1", "61000-65535", "--udp")
    cli_ok(ns, "pool4", "add", "192.0.2.0/24", "--icmp")
    cli_ok(ns, "pool4", "add", "198.51.100.0/24")
    set_port_range(ns, 40000, 40100)
    refused(ns, 1, ephemeral(40000, 40100), "pool4", "add", "192.0.2.0/25",
            "30000-50000", "--tcp", "--mark", "1")
    cli_ok(ns, "pool4", "add", "192.0.2.0/25", "40101-50000", "--tcp",
           "--mark", "1")
    assert len(pool(ns)) == 7


def test_pool4_refused_on_siit(ns):
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    for args in (["add", "203.0.113.0/24"],
                 ["add", "203.0.113.0/24", "--icmp"],
                 ["remove", "203.0.113.0/24", "--tcp"],
                 ["list"], ["list", "--json"], ["flush"]):
        refused(ns, 1, "pool4 is for NAT64 instances", "pool4", *args)


def test_eamt_and_denylist4_refused_on_nat64(ns):
    """A NAT64 instance reads neither the EAMT nor denylist4 (it maps by
    pool6 and pool4): both are refused, not kept to no effect (an EAMT
    entry never applied, a denylisted IPv4 address reached all the
    same); nothing is left of the refused additions."""
    cli_ok(ns, "instance", "add", "n", "--nat64", "--pool6", "64:ff9b::/96")
    for args in (["eamt", "add", "2001:db8:6::/120", "198.51.100.0/24"],
                 ["eamt", "remove", "2001:db8:6::/120"],
                 ["eamt", "list"], ["eamt", "list", "--json"],
                 ["eamt", "flush"],
                 ["denylist4", "add", "10.0.0.0/8"],
                 ["denylist4", "remove", "10.0.0.0/8"],
                 ["denylist4", "list", "--json"], ["denylist4", "flush"]):
        refused(ns, 1, "the EAMT and denylist4 are for SIIT instances "
                "(NAT64 maps by pool6 and pool4)", *args)
    shown = json.loads(cli_ok(ns, "config", "show"))["instances"]
    assert [sorted(i) for i in shown] == \
        [["bib", "framework", "globals", "name", "pool4", "pool6", "type"]]


def test_pool4_unknown_instance(nat64):
    r = cli(nat64, "-i", "nope", "pool4", "list")
    assert_error(r, 1, "no instance by that name")


# --- requests the CLI does not send ------------------------------------------


def request(ns, cmd, *parts):
    g = ternlib.genl_in(ns)
    try:
        return g.tern(cmd, nla(ATTR["TERN_A_INSTANCE"], b"n\0"), *parts)[:2]
    finally:
        g.close()


def p4(*parts):
    return nest(ATTR["TERN_A_POOL4"], *parts)


def proto(n):
    return nla(P4["TERN_POOL4_PROTO"], bytes([n]))


def u16(attr, v):
    return nla(P4[attr], struct.pack("=H", v))


PFX = prefix(P4["TERN_POOL4_PREFIX"], "203.0.113.0", 24)


@pytest.mark.kernel
@pytest.mark.parametrize("cmd,parts,message", [
    ("TERN_CMD_POOL4_ADD", [PFX, proto(2)],
     "the protocol must be TCP (6), UDP (17) or ICMP (1)"),
    ("TERN_CMD_POOL4_ADD", [PFX],
     "missing the protocol of the entry (TERN_POOL4_PROTO)"),
    ("TERN_CMD_POOL4_ADD", [proto(6)],
     "missing the IPv4 prefix of the entry (TERN_POOL4_PREFIX)"),
    ("TERN_CMD_POOL4_DEL", [PFX, proto(6), u16("TERN_POOL4_PORT_MIN", 5)],
     "a removal names both ports of the range, or none (all ranges)"),
], ids=["proto-2", "no-proto", "no-prefix", "del-one-port"])
def test_pool4_netlink_refusals(nat64, cmd, parts, message):
    err, text = request(nat64, cmd, p4(*parts))
    assert (err, text) == (22, message)
    assert pool(nat64) == []


@pytest.mark.kernel
def test_pool4_netlink_defaults(nat64):
    """Without ports, TCP/UDP get 1024-65535 and ICMP 0-65535."""
    for n in (6, 17, 1):
        assert request(nat64, "TERN_CMD_POOL4_ADD", p4(PFX, proto(n))) \
            == (0, None)
    assert pool(nat64) == [entry(TCP, "203.0.113.0/24"),
                           entry(UDP, "203.0.113.0/24"),
                           entry(ICMP, "203.0.113.0/24")]
