"""The EAMT (RFC 7757), denylist4, `tern address query` and EAM
hairpinning: CLI and kernel refusals with their exact messages, then
traffic through the standard topology with exact addresses and counters.

eam-hairpin-mode and a request the CLI cannot build (a prefix of the wrong
family) go to the kernel through a small generic netlink client below.
"""

import json

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.packet import Raw

import ternlib
from genl import ATTR, EAM, G, HAIRPIN, nest, nla, prefix
from ternlib import cli_refused as refused
from ternlib import (H4, H4_6, H6, H6_4, H6_LINK, H6_MAC, PAYLOAD,
                     POOL6, SINK4, SINK4_6, SINK6, assert_error,
                     assert_frame4, assert_frame6, assert_ipv4, assert_ipv6,
                     cli, cli_json, cli_ok, embed, icmp4_message,
                     icmp6_message, ip4_packet, ip6_packet, is_ip4,
                     is_ip6, none_on, udp_datagram)

# The EAM of the tests: h6's link subnet <-> the IPv4 block h4 routes to xl.
EAM6, EAM4 = "2001:db8:6::/120", "198.51.100.0/24"
HP6 = "2001:db8:6::63"          # 198.51.100.99 through EAM6/EAM4

def set_hairpin(ns, mode, instance="t"):
    """Sets eam-hairpin-mode to MODE (an enum tern_hairpin_mode name, some
    of which the CLI has no word for)."""
    g = ternlib.genl_in(ns)
    try:
        err, text = g.tern("TERN_CMD_GLOBAL_SET",
                           nla(ATTR["TERN_A_INSTANCE"],
                               instance.encode() + b"\0")
                           + nest(ATTR["TERN_A_GLOBALS"],
                                  nla(G["TERN_G_EAM_HAIRPIN"],
                                      bytes([HAIRPIN[mode]]))))[:2]
    finally:
        g.close()
    assert err == 0, "setting eam-hairpin-mode: errno %d %s" % (err, text)


# ---------------------------------------------------------------------------
# Fixtures.


@pytest.fixture
def inst(ns):
    """A namespace with instance "t" (pool6 2001:db8:64::/96)."""
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    return ns


@pytest.fixture
def tables(xlat):
    """The standard topology; its EAMT, denylist4 and eam-hairpin-mode are
    put back afterwards."""
    yield xlat
    cli_ok(xlat.xl, "eamt", "flush")
    cli_ok(xlat.xl, "denylist4", "flush")
    set_hairpin(xlat.xl, "TERN_HAIRPIN_INTRINSIC")


def eamt(ns):
    return cli_json(ns, "eamt", "list")


def deny(ns):
    return cli_json(ns, "denylist4", "list")


# --- EAMT through the CLI --------------------------------------------------


def test_eamt_add_list_remove_flush(inst):
    assert eamt(inst) == []
    cli_ok(inst, "eamt", "add", EAM6, EAM4)
    cli_ok(inst, "eamt", "add", "192.0.2.1", "2001:db8:7::1")   # any order
    cli_ok(inst, "-i", "t", "eamt", "add", "2001:db8:8::/104",
           "10.0.0.0/8")
    want = [{"prefix6": "2001:db8:8::/104", "prefix4": "10.0.0.0/8"},
            {"prefix6": "2001:db8:7::1/128", "prefix4": "192.0.2.1/32"},
            {"prefix6": EAM6, "prefix4": EAM4}]
    assert eamt(inst) == want                   # in IPv4 order
    assert cli_ok(inst, "eamt", "list") == (
        "IPV6-PREFIX       IPV4-PREFIX\n"
        "2001:db8:8::/104  10.0.0.0/8\n"
        "2001:db8:7::1/128 192.0.2.1/32\n"
        "2001:db8:6::/120  198.51.100.0/24\n")
    cli_ok(inst, "eamt", "remove", "10.0.0.0/8")
    assert eamt(inst) == want[1:]
    cli_ok(inst, "eamt", "remove", "2001:db8:7::1/128")
    assert eamt(inst) == want[2:]
    cli_ok(inst, "eamt", "remove", EAM4, EAM6)
    assert eamt(inst) == []
    cli_ok(inst, "eamt", "add", EAM6, EAM4)
    cli_ok(inst, "eamt", "add", "2001:db8:7::1", "192.0.2.1")
    cli_ok(inst, "eamt", "flush")
    assert eamt(inst) == []
    cli_ok(inst, "eamt", "flush")               # flushing nothing is fine


OVERLAP4 = "the IPv4 prefix overlaps EAMT entry %s %s" % (EAM6, EAM4)
OVERLAP6 = "the IPv6 prefix overlaps EAMT entry %s %s" % (EAM6, EAM4)
SUFFIX = ("the IPv6 suffix must be at least as long as the IPv4 suffix: "
          "IPv6 length <= 96 + IPv4 length (RFC 7757)")


@pytest.mark.cli
@pytest.mark.parametrize("p6,p4,message", [
    ("2001:db8:7::/124", "198.51.100.16/28", OVERLAP4),    # inside
    ("2001:db8:7::/112", "198.51.0.0/16", OVERLAP4),       # around
    ("2001:db8:7::1", "198.51.100.255", OVERLAP4),
    ("2001:db8:6::80/121", "192.0.2.0/25", OVERLAP6),
    ("2001:db8::/96", "0.0.0.0/0", OVERLAP4),
    ("2001:db8:6::/112", "192.0.0.0/16", OVERLAP6),
    (EAM6, EAM4, "this EAMT entry already exists"),
    ("2001:db8:7::/121", "192.0.2.0/24", SUFFIX),
    ("2001:db8:7::/128", "192.0.2.0/24", SUFFIX),
    ("2001:db8:7::/97", "0.0.0.0/0", SUFFIX),
    ("2001:db8:7::1/120", "192.0.2.0/24",
     "the IPv6 prefix has bits set after its length"),
    ("2001:db8:7::/120", "192.0.2.1/24",
     "the IPv4 prefix has bits set after its length"),
])
def test_eamt_add_refused(inst, p6, p4, message):
    cli_ok(inst, "eamt", "add", EAM6, EAM4)
    refused(inst, 1, message, "eamt", "add", p6, p4)
    assert eamt(inst) == [{"prefix6": EAM6, "prefix4": EAM4}]


# An entry inside EAM6/EAM4 on both sides (RFC 7757 3.2: longest prefix).
NEST6, NEST4 = "2001:db8:6::f8/125", "198.51.100.8/29"


@pytest.mark.cli
def test_eamt_nested_needs_force(inst):
    """An entry inside another is refused without --force; with it, both
    are listed as overlapping, an address takes the entry of the longest
    prefix covering it (so 198.51.100.9 -> 2001:db8:6::f9, whose way back
    is 198.51.100.9 again, but 2001:db8:6::9 -> 198.51.100.9 too); an
    equal prefix is refused even with --force; removing the inner entry
    uncovers the outer one."""
    cli_ok(inst, "eamt", "add", EAM6, EAM4)
    refused(inst, 1, OVERLAP4, "eamt", "add", NEST6, NEST4)
    cli_ok(inst, "eamt", "add", NEST6, NEST4, "--force")
    assert eamt(inst) == [
        {"prefix6": EAM6, "prefix4": EAM4, "force": True},
        {"prefix6": NEST6, "prefix4": NEST4, "force": True}]
    assert cli_ok(inst, "eamt", "list") == "".join(
        "%-18s %s\n" % row for row in [
            ("IPV6-PREFIX", "IPV4-PREFIX"), (EAM6, EAM4 + " overlaps"),
            (NEST6, NEST4 + " overlaps")])
    taken = "the %s prefix is taken by EAMT entry %s %s"
    refused(inst, 1, taken % ("IPv4", EAM6, EAM4),
            "eamt", "add", "2001:db8:8::/120", EAM4, "-f")
    refused(inst, 1, taken % ("IPv6", EAM6, EAM4),
            "eamt", "add", "--force", EAM6, "192.0.2.0/24")
    for addr, out, via in [("198.51.100.9", "2001:db8:6::f9", NEST6),
                           ("2001:db8:6::f9", "198.51.100.9", NEST6),
                           ("198.51.100.20", "2001:db8:6::14", EAM6),
                           ("2001:db8:6::9", "198.51.100.9", EAM6)]:
        q = cli_json(inst, "address", "query", addr)
        assert (q["translated"], q["eam"]["prefix6"]) == (out, via), addr
    cli_ok(inst, "eamt", "remove", NEST4)
    assert eamt(inst) == [{"prefix6": EAM6, "prefix4": EAM4}]
    q = cli_json(inst, "address", "query", "198.51.100.9")
    assert q["translated"] == "2001:db8:6::9"


@pytest.mark.cli
@pytest.mark.parametrize("p6,p4", [
    ("2001:db8:7::/120", "192.0.2.0/25"),
    ("2001:db8:7::/64", "192.0.2.0/24"),
    ("2001:db8:1c6:3364::/72", "192.0.2.0/24"),
])
def test_eamt_add_longer_ipv6_suffix(inst, p6, p4):
    """RFC 7757 3.2: an IPv6 suffix at least as long as the IPv4 one is
    accepted (the IPv4 suffix bits go right after the IPv6 prefix)."""
    cli_ok(inst, "eamt", "add", p6, p4)
    assert eamt(inst) == [{"prefix6": p6, "prefix4": p4}]


@pytest.mark.cli
@pytest.mark.parametrize("args,message", [
    (["198.51.100.0/25"], "no EAMT entry has this IPv4 prefix"),
    (["203.0.113.0/24"], "no EAMT entry has this IPv4 prefix"),
    (["2001:db8:6::/121"], "no EAMT entry has this IPv6 prefix"),
    (["2001:db8:9::/120"], "no EAMT entry has this IPv6 prefix"),
    (["2001:db8:7::/120", EAM4],
     "the IPv6 and IPv4 prefixes belong to different EAMT entries"),
])
def test_eamt_remove_refused(inst, args, message):
    cli_ok(inst, "eamt", "add", EAM6, EAM4)
    cli_ok(inst, "eamt", "add", "2001:db8:7::/120", "192.0.2.0/24")
    before = eamt(inst)
    refused(inst, 1, message, "eamt", "remove", *args)
    assert eamt(inst) == before


def test_eamt_remove_from_empty_table(inst):
    refused(inst, 1, "no EAMT entry has this IPv6 prefix", "eamt", "remove",
            EAM6)


@pytest.mark.cli
@pytest.mark.parametrize("args", [
    ["eamt", "add", "192.0.2.0/24", "198.51.100.0/24"],
    ["eamt", "add", EAM6, "2001:db8:7::/120"],
    ["eamt", "remove", "192.0.2.0/24", "198.51.100.0/24"],
])
def test_eamt_family_usage_error(inst, args):
    r = cli(inst, *args)
    assert_error(r, 2, "needs one IPv6 and one IPv4 prefix")
    assert eamt(inst) == []


@pytest.mark.parametrize("p6,p4", [
    (("192.0.2.0", 24), ("192.0.2.0", 24)),
    (("2001:db8:7::", 120), ("2001:db8:7::", 120)),
], ids=["ipv4-as-prefix6", "ipv6-as-prefix4"])
def test_eamt_kernel_refuses_wrong_family(inst, p6, p4):
    """A request with an IPv4 address where the IPv6 prefix goes (or the
    reverse), which the CLI never sends: the nested policy refuses it."""
    g = ternlib.genl_in(inst)
    try:
        err, text, _ = g.tern("TERN_CMD_EAMT_ADD", nest(
            ATTR["TERN_A_EAM"], prefix(EAM["TERN_EAM_PREFIX6"], *p6),
            prefix(EAM["TERN_EAM_PREFIX4"], *p4)))
    finally:
        g.close()
    assert (err, text) == (34, "binary attribute size out of range")
    assert eamt(inst) == []


def test_eamt_needs_both_prefixes_kernel(inst):
    g = ternlib.genl_in(inst)
    try:
        err, text, _ = g.tern("TERN_CMD_EAMT_ADD", nest(
            ATTR["TERN_A_EAM"], prefix(EAM["TERN_EAM_PREFIX4"],
                                       "192.0.2.0", 24)))
        assert (err, text) == (22, "an EAMT entry needs an IPv6 and an "
                               "IPv4 prefix")
        err, text, _ = g.tern("TERN_CMD_EAMT_DEL", nest(ATTR["TERN_A_EAM"]))
        assert (err, text) == (22, "name the EAMT entry by its IPv6 or "
                               "IPv4 prefix")
        cli_ok(inst, "eamt", "add", EAM6, EAM4)
        err, text, _ = g.tern("TERN_CMD_EAMT_DEL", nest(
            ATTR["TERN_A_EAM"], prefix(EAM["TERN_EAM_PREFIX4"],
                                       "198.51.100.0", 24),
            nla(EAM["TERN_EAM_FORCE"], b"")))
        assert (err, text) == (22, "force is for adding an EAMT entry")
        assert eamt(inst) == [{"prefix6": EAM6, "prefix4": EAM4}]
        cli_ok(inst, "eamt", "flush")
        err, text, _ = g.tern("TERN_CMD_ADDR_QUERY",
                              nla(ATTR["TERN_A_ADDR"], b"\1\2\3"))
        assert (err, text) == (22, "an address has 4 (IPv4) or 16 (IPv6) "
                               "bytes")
    finally:
        g.close()
    assert eamt(inst) == []


@pytest.mark.cli
def test_tables_need_an_instance(ns):
    for args in (["eamt", "add", EAM6, EAM4], ["eamt", "list"],
                 ["eamt", "flush"], ["denylist4", "add", "192.0.2.0/24"],
                 ["denylist4", "list"], ["address", "query", "192.0.2.1"]):
        refused(ns, 1, "no instance in this namespace", *args)
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    refused(ns, 1, "no instance by that name in this namespace",
            "-i", "u", "eamt", "list")


def test_tables_are_per_instance_and_go_with_it(inst):
    cli_ok(inst, "eamt", "add", EAM6, EAM4)
    cli_ok(inst, "denylist4", "add", "192.0.2.0/24")
    cli_ok(inst, "instance", "remove", "t")
    cli_ok(inst, "instance", "add", "t", "--siit", "--pool6", POOL6)
    assert eamt(inst) == [] and deny(inst) == []


def test_eamt_many_entries_dump_in_parts(inst):
    """A dump bigger than the largest buffer the kernel fills for one
    (32 KiB): it comes in several parts, and the CLI lists every entry
    once. (The entries go in over netlink: 1000 CLI runs would take many
    minutes on the debug kernel.)"""
    n = 1000
    g = ternlib.genl_in(inst)
    try:
        for i in range(n):
            assert g.eamt_add(("2001:db8:7::%x" % i, 128),
                              ("10.0.%d.%d" % (i // 256, i % 256), 32)) \
                == (0, None)
        err, _, replies = g.tern("TERN_CMD_EAMT_GET",
                                 nla(ATTR["TERN_A_INSTANCE"], b"t\0"),
                                 dump=True)
        assert err == 0 and len(replies) == n
        assert sum(len(m) for m in replies) > 32768
        assert g.parts > 1, "the dump came in one part"
    finally:
        g.close()
    lst = eamt(inst)
    assert len(lst) == n
    assert lst[0] == {"prefix6": "2001:db8:7::/128", "prefix4": "10.0.0.0/32"}
    assert lst[n - 1] == {"prefix6": "2001:db8:7::3e7/128",
                          "prefix4": "10.0.3.231/32"}
    assert len({e["prefix4"] for e in lst}) == n


# --- denylist4 through the CLI ---------------------------------------------


def test_denylist4_add_list_remove_flush(inst):
    assert deny(inst) == []
    cli_ok(inst, "denylist4", "add", "198.51.100.0/24")
    cli_ok(inst, "denylist4", "add", "192.0.2.7")
    cli_ok(inst, "-i", "t", "denylist4", "add", "10.0.0.0/8")
    assert deny(inst) == ["10.0.0.0/8", "192.0.2.7/32", "198.51.100.0/24"]
    assert cli_ok(inst, "denylist4", "list") == \
        "PREFIX\n10.0.0.0/8\n192.0.2.7/32\n198.51.100.0/24\n"
    cli_ok(inst, "denylist4", "remove", "192.0.2.7/32")
    assert deny(inst) == ["10.0.0.0/8", "198.51.100.0/24"]
    cli_ok(inst, "denylist4", "flush")
    assert deny(inst) == []


@pytest.mark.cli
@pytest.mark.parametrize("args,message", [
    (["add", "198.51.100.128/25"],
     "the prefix overlaps denylist4 entry 198.51.100.0/24"),
    (["add", "198.0.0.0/8"],
     "the prefix overlaps denylist4 entry 198.51.100.0/24"),
    (["add", "198.51.100.0/24"], "this prefix is already in denylist4"),
    (["add", "192.0.2.1/24"], "the prefix has bits set after its length"),
    (["remove", "198.51.100.0/25"], "this prefix is not in denylist4"),
    (["remove", "192.0.2.0/24"], "this prefix is not in denylist4"),
])
def test_denylist4_refused(inst, args, message):
    cli_ok(inst, "denylist4", "add", "198.51.100.0/24")
    refused(inst, 1, message, "denylist4", *args)
    assert deny(inst) == ["198.51.100.0/24"]


# --- tern address query ----------------------------------------------------


@pytest.mark.cli
@pytest.mark.parametrize("addr,out", [
    ("198.51.100.2", "198.51.100.2 -> 2001:db8:64::c633:6402 via pool6 "
     "2001:db8:64::/96"),
    ("2001:db8:64::c633:6402", "2001:db8:64::c633:6402 -> 198.51.100.2 "
     "via pool6 2001:db8:64::/96"),
    ("192.0.2.5", "192.0.2.5 -> 2001:db8:6::5 via eamt 2001:db8:6::/120 "
     "192.0.2.0/24"),
    ("2001:db8:6::ab", "2001:db8:6::ab -> 192.0.2.171 via eamt "
     "2001:db8:6::/120 192.0.2.0/24"),
    # The EAMT wins over pool6 (its IPv6 prefix is inside pool6).
    ("2001:db8:64::a00:5", "2001:db8:64::a00:5 -> 203.0.113.5 via eamt "
     "2001:db8:64::a00:0/120 203.0.113.0/24"),
    ("10.0.0.5", "10.0.0.5 -> 2001:db8:64::a00:5 via pool6 "
     "2001:db8:64::/96"),
    ("203.0.113.5", "203.0.113.5 -> 2001:db8:64::a00:5 via eamt "
     "2001:db8:64::a00:0/120 203.0.113.0/24"),
    ("198.18.0.1", "198.18.0.1 not translated: in denylist4"),
    ("2001:db8:64::c612:1", "2001:db8:64::c612:1 not translated: in "
     "denylist4"),
    ("2001:db8:99::1", "2001:db8:99::1 not translated: no mapping"),
    ("127.0.0.1", "127.0.0.1 not translated: special IPv4 address "
     "(RFC 6890)"),
    ("2001:db8:64::e000:1", "2001:db8:64::e000:1 not translated: special "
     "IPv4 address (RFC 6890)"),
])
def test_address_query(inst, addr, out):
    cli_ok(inst, "eamt", "add", "2001:db8:6::/120", "192.0.2.0/24")
    cli_ok(inst, "eamt", "add", "2001:db8:64::a00:0/120", "203.0.113.0/24")
    cli_ok(inst, "denylist4", "add", "198.18.0.0/15")
    # denylist4 does not touch the EAMT.
    cli_ok(inst, "denylist4", "add", "192.0.2.0/24")
    assert cli_ok(inst, "address", "query", addr) == out + "\n"


@pytest.mark.cli
def test_address_query_json(inst):
    cli_ok(inst, "eamt", "add", "2001:db8:6::/120", "192.0.2.0/24")
    cli_ok(inst, "denylist4", "add", "198.18.0.0/15")
    q = cli_json(inst, "address", "query", "192.0.2.9")
    assert q == {"address": "192.0.2.9", "translated": "2001:db8:6::9",
                 "via": "eamt", "reason": None,
                 "eam": {"prefix6": "2001:db8:6::/120",
                         "prefix4": "192.0.2.0/24"}, "pool6": None,
                 "local": False}
    q = cli_json(inst, "address", "query", "2001:db8:64::cb00:7101")
    assert q == {"address": "2001:db8:64::cb00:7101",
                 "translated": "203.0.113.1", "via": "pool6",
                 "reason": None, "eam": None, "pool6": POOL6,
                 "local": False}
    q = cli_json(inst, "-i", "t", "address", "query", "198.19.1.1")
    assert q == {"address": "198.19.1.1", "translated": None, "via": "none",
                 "reason": "denylist4", "eam": None, "pool6": None,
                 "local": False}
    q = cli_json(inst, "address", "query", "::1")
    assert q["via"] == "none" and q["reason"] == "no-mapping"
    q = cli_json(inst, "address", "query", "240.0.0.1")
    assert q["reason"] == "special4"


def test_address_query_local(inst):
    """The packet path passes packets addressed to the host itself
    (pass-local); the query says so on a second line and in "local"."""
    inst.ip("link", "set", "lo", "up")
    inst.ip("addr", "add", "198.51.100.2/32", "dev", "lo")
    inst.ip("addr", "add", "2001:db8:64::c633:6402/128", "dev", "lo",
            "nodad")
    assert cli_ok(inst, "address", "query", "198.51.100.2") == (
        "198.51.100.2 -> 2001:db8:64::c633:6402 via pool6 2001:db8:64::/96\n"
        "198.51.100.2 is an address of this host: packets to it are "
        "delivered here, not translated\n")
    assert cli_ok(inst, "address", "query", "2001:db8:64::c633:6402") == (
        "2001:db8:64::c633:6402 -> 198.51.100.2 via pool6 "
        "2001:db8:64::/96\n"
        "2001:db8:64::c633:6402 is an address of this host: packets to it "
        "are delivered here, not translated\n")
    assert cli_json(inst, "address", "query", "198.51.100.2")["local"] is True
    assert cli_json(inst, "address", "query", "198.51.100.3")["local"] is \
        False


@pytest.mark.cli
def test_address_query_wkp_nonglobal(ns):
    cli_ok(ns, "instance", "add", "w", "--siit", "--pool6", "64:ff9b::/96")
    assert cli_ok(ns, "address", "query", "10.1.2.3") == (
        "10.1.2.3 not translated: non-global IPv4 address with the "
        "Well-Known Prefix (strict-wkp)\n")
    assert cli_ok(ns, "address", "query", "64:ff9b::a01:203") == (
        "64:ff9b::a01:203 not translated: non-global IPv4 address with the "
        "Well-Known Prefix (strict-wkp)\n")
    assert cli_ok(ns, "address", "query", "8.8.8.8") == \
        "8.8.8.8 -> 64:ff9b::808:808 via pool6 64:ff9b::/96\n"
    # An EAM is no Well-Known Prefix mapping.
    cli_ok(ns, "eamt", "add", "2001:db8:6::/120", "10.1.2.0/24")
    assert cli_ok(ns, "address", "query", "10.1.2.3") == \
        "10.1.2.3 -> 2001:db8:6::3 via eamt 2001:db8:6::/120 10.1.2.0/24\n"


# --- Traffic ---------------------------------------------------------------


def udp6_from(src, dst, n=60, hlim=64):
    return IPv6(src=src, dst=dst, hlim=hlim, tc=0, fl=0) / \
        UDP(sport=40000, dport=4000) / Raw(PAYLOAD[:n])


def udp4_to(dst, src=H4, n=60, ttl=64):
    return IP(src=src, dst=dst, ttl=ttl, tos=0) / \
        UDP(sport=4000, dport=40000) / Raw(PAYLOAD[:n])


def neigh6(topo, addr):
    """Lets xl send to ADDR on h6's link (h6's MAC); undone afterwards."""
    topo.xl.ip("-6", "neigh", "replace", addr, "lladdr", H6_MAC, "dev", "v6",
               "nud", "permanent")
    topo.defer(lambda: topo.xl.ip("-6", "neigh", "del", addr, "dev", "v6",
                                  check=False))


def test_eam_traffic_both_ways(tables):
    t = tables
    cli_ok(t.xl, "eamt", "add", EAM6, EAM4)
    neigh6(t, HP6)
    c = t.counters()
    with t.cap4() as cap:
        t.send6(udp6_from(H6_LINK, SINK4_6))
        f = cap.one(is_ip4(dst=SINK4))
    assert_ipv4(f, src="198.51.100.2", dst=SINK4, ttl=63, proto=17, len=88)
    assert bytes(f[UDP].payload)[:60] == PAYLOAD[:60]
    with t.cap6() as cap:
        t.send4(udp4_to("198.51.100.99"))
        f = cap.one(is_ip6(src=H4_6))
    assert_ipv6(f, src=H4_6, dst=HP6, hlim=63, nh=17, plen=68)
    assert bytes(f[UDP].payload)[:60] == PAYLOAD[:60]
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})


def test_eam_nested_entry_traffic(tables):
    """Packets through an entry nested inside another (added with
    --force): the longest prefix covering an address maps it, the
    source from IPv6 and the destination from IPv4 alike; addresses
    outside the inner entry still take the outer one."""
    t = tables
    cli_ok(t.xl, "eamt", "add", EAM6, EAM4)
    cli_ok(t.xl, "eamt", "add", NEST6, NEST4, "--force")
    neigh6(t, "2001:db8:6::f9")
    neigh6(t, HP6)
    c = t.counters()
    with t.cap4() as cap:
        t.send6(udp6_from("2001:db8:6::f9", SINK4_6))
        f = cap.one(is_ip4(dst=SINK4))
    assert_ipv4(f, src="198.51.100.9", dst=SINK4, ttl=63, proto=17, len=88)
    with t.cap6() as cap:
        t.send4(udp4_to("198.51.100.9"))
        f = cap.one(is_ip6(src=H4_6))
    assert_ipv6(f, src=H4_6, dst="2001:db8:6::f9", hlim=63, nh=17, plen=68)
    with t.cap6() as cap:
        t.send4(udp4_to("198.51.100.99"))
        f = cap.one(is_ip6(src=H4_6))
    assert_ipv6(f, src=H4_6, dst=HP6, hlim=63, nh=17, plen=68)
    c.expect({"xlat-6to4": 1, "xlat-4to6": 2})


def test_eam_suffix_kept_both_ways(tables):
    """A /124 <-> /28 entry: the low 4 bits go across unchanged."""
    t = tables
    cli_ok(t.xl, "eamt", "add", "2001:db8:6::30/124", "198.51.100.80/28")
    neigh6(t, "2001:db8:6::3b")
    c = t.counters()
    with t.cap4() as cap:
        t.send6(udp6_from("2001:db8:6::3b", SINK4_6))
        f = cap.one(is_ip4(dst=SINK4))
    assert f[IP].src == "198.51.100.91"
    with t.cap6() as cap:
        t.send4(udp4_to("198.51.100.91"))
        f = cap.one(is_ip6(src=H4_6))
    assert_ipv6(f, src=H4_6, dst="2001:db8:6::3b", hlim=63, nh=17)
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})


def test_eam_longer_ipv6_suffix_both_ways(tables):
    """198.51.100.0/24 <-> 2001:db8:6::/72 (IPv6 suffix 56 bits, IPv4 8):
    the IPv4 suffix is bits 72-79 of the IPv6 address, the bits after it
    zero 4 -> 6 and ignored 6 -> 4 (RFC 7757 3.2)."""
    t = tables
    cli_ok(t.xl, "eamt", "add", "2001:db8:6::/72", EAM4)
    neigh6(t, "2001:db8:6:0:63::")
    c = t.counters()
    with t.cap4() as cap:
        t.send6(udp6_from("2001:db8:6:0:5:abcd:1:2", SINK4_6))
        f = cap.one(is_ip4(dst=SINK4))
    assert_ipv4(f, src="198.51.100.5", dst=SINK4, ttl=63, proto=17, len=88)
    with t.cap6() as cap:
        t.send4(udp4_to("198.51.100.99"))
        f = cap.one(is_ip6(src=H4_6))
    assert_ipv6(f, src=H4_6, dst="2001:db8:6:0:63::", hlim=63, nh=17,
                plen=68)
    assert bytes(f[UDP].payload)[:60] == PAYLOAD[:60]
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})
    assert cli_ok(t.xl, "address", "query", "2001:db8:6:0:5:abcd:1:2") == (
        "2001:db8:6:0:5:abcd:1:2 -> 198.51.100.5 via eamt 2001:db8:6::/72 "
        "198.51.100.0/24\n")


def test_eamt_only_instance_without_pool6(tables):
    """pool6 is optional (RFC 7757 deployments): an instance with only an
    EAMT translates what its entries cover, and nothing by pool6."""
    t = tables
    cli_ok(t.xl, "instance", "remove", "t")
    try:
        cli_ok(t.xl, "instance", "add", "t", "--siit")
        assert ternlib.instances(t.xl) == [
            {"name": "t", "type": "siit", "framework": "netfilter",
             "pool6": None, "status": "enabled", "rules": 0,
             "passed-no-instance": 0}]
        assert ternlib.globals_(t.xl, "t")["pool6"] is None
        cli_ok(t.xl, "eamt", "add", EAM6, EAM4)
        cli_ok(t.xl, "eamt", "add", "2001:db8:46::/120", "203.0.113.0/24")
        neigh6(t, HP6)
        c = t.counters()
        with t.cap4() as cap:
            t.send6(udp6_from(H6_LINK, "2001:db8:46::63"))
            f = cap.one(is_ip4(dst=SINK4))
        with t.cap4() as cap:
            # pool6 forms map nothing: passed to the host, not translated.
            t.send6(udp6_from(H6_LINK, SINK4_6))
            cap.none(is_ip4(dst=SINK4), proof=lambda: c.expect(
                {"xlat-6to4": 1, "pass-no-mapping": 1}))
        assert_ipv4(f, src="198.51.100.2", dst=SINK4, ttl=63, proto=17)
        with t.cap6() as cap:
            t.send4(udp4_to("198.51.100.99"))
            f = cap.one(is_ip6(dst=HP6))
        assert_ipv6(f, src="2001:db8:46::2", dst=HP6, hlim=63, nh=17)
        c.expect({"xlat-6to4": 1, "xlat-4to6": 1, "pass-no-mapping": 1})
        assert cli_ok(t.xl, "address", "query", "192.0.2.1").endswith(
            "no mapping\n")
    finally:
        ternlib.remove_instances(t.xl)
        cli_ok(t.xl, "instance", "add", "t", "--siit", "--pool6", POOL6)


def test_eamt_takes_precedence_over_pool6(tables):
    """H6 (2001:db8:64::c633:6402, pool6 form of 198.51.100.2) inside an
    EAM whose IPv4 side is 192.0.2.0/24: the EAMT wins both ways."""
    t = tables
    cli_ok(t.xl, "eamt", "add", "2001:db8:64::c633:6400/120", "192.0.2.0/24")
    c = t.counters()
    with t.cap4() as cap:
        t.send6(udp6_from(H6, SINK4_6))
        f = cap.one(is_ip4(dst=SINK4))
    assert f[IP].src == "192.0.2.2"
    with t.cap6() as cap:
        t.send4(udp4_to("192.0.2.99"))
        f = cap.one(is_ip6(src=H4_6))
    assert_ipv6(f, src=H4_6, dst=SINK6, hlim=63, nh=17)
    # And 198.51.100.99 (pool6 maps it to SINK6 too) still goes by pool6.
    with t.cap6() as cap:
        t.send4(udp4_to("198.51.100.99"))
        f = cap.one(is_ip6(src=H4_6))
    assert f[IPv6].dst == SINK6
    c.expect({"xlat-6to4": 1, "xlat-4to6": 2})


def neither_way(t, counter):
    """A UDP packet each way (H6 -> SINK4, H4 -> 198.51.100.99), neither
    translated: @counter counts both. Returns the counters."""
    c = t.counters()
    with t.cap4() as cap4, t.cap6() as cap6:
        t.send6(udp6_from(H6, SINK4_6))
        t.send4(udp4_to("198.51.100.99"))
        none_on(lambda: c.expect({counter: 2}),
                (cap4, is_ip4(proto=17)),
                (cap6, is_ip6(nh=17)))
    c.expect({counter: 2})
    return c


def test_denylist4_destination_both_ways(tables):
    t = tables
    cli_ok(t.xl, "denylist4", "add", "203.0.113.0/24")
    cli_ok(t.xl, "denylist4", "add", "198.51.100.0/24")
    neither_way(t, "pass-no-mapping")


def test_denylist4_source_both_ways(tables):
    t = tables
    cli_ok(t.xl, "denylist4", "add", "198.51.100.2/32")   # H6's
    cli_ok(t.xl, "denylist4", "add", "203.0.113.2/32")    # H4's
    c = neither_way(t, "drop-src-untranslatable")
    # The others still go through.
    cli_ok(t.xl, "denylist4", "remove", "203.0.113.2/32")
    with t.cap6() as cap:
        t.send4(udp4_to("198.51.100.99"))
        f = cap.one(is_ip6(src=H4_6))
    assert f[IPv6].dst == SINK6
    c.expect({"drop-src-untranslatable": 2, "xlat-4to6": 1})


def test_denylist4_does_not_affect_eamt(tables):
    t = tables
    cli_ok(t.xl, "denylist4", "add", EAM4)
    cli_ok(t.xl, "eamt", "add", EAM6, EAM4)
    neigh6(t, HP6)
    c = t.counters()
    with t.cap6() as cap:
        t.send4(udp4_to("198.51.100.99"))
        f = cap.one(is_ip6(src=H4_6))
    assert f[IPv6].dst == HP6
    with t.cap4() as cap:
        t.send6(udp6_from(H6_LINK, SINK4_6))
        f = cap.one(is_ip4(dst=SINK4))
    assert f[IP].src == "198.51.100.2"
    c.expect({"xlat-6to4": 1, "xlat-4to6": 1})


# --- Hairpinning -----------------------------------------------------------


@pytest.fixture
def hairpin(tables):
    """h6 (2001:db8:6::2 = 198.51.100.2 by EAM6/EAM4) about to talk to
    198.51.100.99 (2001:db8:6::63 by the same EAM) through its pool6 form.
    xl routes 198.51.100.0/24 to h4, so what is not hairpinned shows up
    there; 2001:db8:6::63 resolves to h6's MAC."""
    t = tables
    cli_ok(t.xl, "eamt", "add", EAM6, EAM4)
    t.temp_route(t.xl, "198.51.100.0/24", "via", H4)
    neigh6(t, HP6)
    return t


HAIRPIN_MODES = ["TERN_HAIRPIN_OFF", "TERN_HAIRPIN_SIMPLE",
                 "TERN_HAIRPIN_INTRINSIC"]


# The markers of send_watch(): one datagram each way behind the packet
# under test. MARK6 (198.51.100.98 by EAM6/EAM4) is on h6's link, nobody's.
MARK6, MARK6_4 = "2001:db8:6::62", "198.51.100.98"
MARK_PORTS = (47001, 47002)
MARK_DATA = b"send_watch marker"
MARKS = {"xlat-6to4": 1, "xlat-4to6": 1}        # what they count


def is_mark(f):
    return UDP in f and (f[UDP].sport, f[UDP].dport) == MARK_PORTS


def marked(expected, n=1):
    """EXPECTED counter deltas plus those of N send_watch() calls."""
    d = dict(expected)
    for k, v in MARKS.items():
        d[k] = d.get(k, 0) + n * v
    return d


def send_watch(t, pkt):
    """Sends PKT from h6; returns (frames at h4, frames at h6) that are UDP,
    markers left out.

    The captures end on markers, not after a time: right behind PKT, h6
    sends H6_LINK -> SINK4_6 (translated to h4, where PKT goes if it is
    not hairpinned); once that arrived, h4 sends H4 -> 198.51.100.98
    (translated to h6 like a hairpinned PKT, to MARK6). xl handles PKT,
    hairpin pass included, before the first marker, and the second is
    sent after the first arrived: whatever PKT made reached the captures
    before the markers, and the captures were live. Each marker is checked
    field by field; the markers count MARKS (see marked())."""
    neigh6(t, MARK6)
    m6 = IPv6(src=H6_LINK, dst=SINK4_6, hlim=64, tc=0, fl=0) / \
        UDP(sport=MARK_PORTS[0], dport=MARK_PORTS[1]) / Raw(MARK_DATA)
    m4 = IP(src=H4, dst=MARK6_4, ttl=64, tos=0) / \
        UDP(sport=MARK_PORTS[0], dport=MARK_PORTS[1]) / Raw(MARK_DATA)
    with t.cap4() as cap4, t.cap6() as cap6:
        t.send6(pkt)
        t.send6(m6)
        got4 = cap4.one(lambda f: is_ip4(proto=17)(f) and is_mark(f))
        t.send4(m4)
        got6 = cap6.one(lambda f: is_ip6(nh=17)(f) and is_mark(f))
    assert_ipv4(got4, src="198.51.100.2", dst=SINK4, ttl=63, proto=17,
                tos=0, len=28 + len(MARK_DATA))
    assert_ipv6(got6, src=H4_6, dst=MARK6, hlim=63, nh=17, tc=0,
                plen=8 + len(MARK_DATA))
    for f in (got4, got6):
        assert bytes(f[UDP].payload) == MARK_DATA
    return ([f for f in cap4.matching(is_ip4(proto=17)) if not is_mark(f)],
            [f for f in cap6.matching(is_ip6(nh=17)) if not is_mark(f)])


def hairpin_watch(t, mode, pkt):
    """send_watch(PKT) in hairpinning MODE; the counters first."""
    set_hairpin(t.xl, mode)
    c = t.counters()
    return (c,) + send_watch(t, pkt)


def not_hairpinned(c, at4, at6, **kw):
    """The packet of send_watch() left on IPv4, 198.51.100.2 -> .99."""
    assert at6 == [] and len(at4) == 1
    assert_ipv4(at4[0], src="198.51.100.2", dst="198.51.100.99", ttl=63,
                proto=17, **kw)
    c.expect(marked({"xlat-6to4": 1}))


def hairpinned(c, at4, at6, src, **kw):
    """The packet of send_watch() came back on IPv6, SRC -> HP6."""
    assert at4 == [] and len(at6) == 1
    assert_ipv6(at6[0], src=src, dst=HP6, hlim=63, nh=17, plen=68, **kw)
    c.expect(marked({"xlat-hairpin": 1, "xlat-4to6": 1}))


@pytest.mark.parametrize("mode", HAIRPIN_MODES)
def test_hairpin_to_pool6_address_of_eam(hairpin, mode):
    t = hairpin
    c, at4, at6 = hairpin_watch(t, mode, udp6_from(H6_LINK, SINK6))
    if mode == "TERN_HAIRPIN_OFF":
        not_hairpinned(c, at4, at6, len=88)
        return
    # simple: both addresses back by the EAMT; intrinsic: the source by
    # pool6, so that 2001:db8:6::63 answers through the translator.
    src = H6_LINK if mode == "TERN_HAIRPIN_SIMPLE" else H6
    hairpinned(c, at4, at6, src, tc=0)
    assert bytes(at6[0][UDP].payload)[:60] == PAYLOAD[:60]


@pytest.mark.parametrize("mode", HAIRPIN_MODES)
def test_hairpin_to_eam_address(hairpin, mode):
    """Destination mapped by the EAMT itself: only simple hairpins it."""
    t = hairpin
    c, at4, at6 = hairpin_watch(t, mode, udp6_from(H6_LINK, HP6))
    if mode != "TERN_HAIRPIN_SIMPLE":
        not_hairpinned(c, at4, at6)
        return
    hairpinned(c, at4, at6, H6_LINK)


@pytest.mark.parametrize("mode", HAIRPIN_MODES[1:])
def test_hairpin_to_host_address_not_delivered(hairpin, mode):
    """The hairpinned destination 198.51.100.99 is an address of the
    translator itself: the second pass leaves the IPv4 packet to the host
    (pass-local), and a translated packet never goes there: dropped
    (drop-to-self), neither delivered nor sent on."""
    t = hairpin
    set_hairpin(t.xl, mode)
    t.xl.ip("addr", "add", "198.51.100.99/32", "dev", "lo")
    t.defer(lambda: t.xl.ip("addr", "del", "198.51.100.99/32", "dev", "lo",
                            check=False))
    c = t.counters()
    dst = HP6 if mode == "TERN_HAIRPIN_SIMPLE" else SINK6
    at4, at6 = send_watch(t, udp6_from(H6_LINK, dst))
    assert at4 == [] and at6 == []
    c.expect(marked({"pass-local": 1, "drop-to-self": 1}))


def test_hairpin_intrinsic_reply_comes_back(hairpin):
    """A (2001:db8:6::4d = 198.51.100.77) writes to B's pool6 address
    (SINK6, B = 2001:db8:6::63 = 198.51.100.99); B gets it from A's pool6
    address, and B's answer there hairpins too and reaches A from SINK6,
    the address A wrote to: the path is symmetric."""
    t = hairpin
    a6, a6_pool = "2001:db8:6::4d", embed("198.51.100.77")
    neigh6(t, a6)
    c = t.counters()
    at4, at6 = send_watch(t, udp6_from(a6, SINK6))
    assert at4 == [] and len(at6) == 1
    assert_ipv6(at6[0], src=a6_pool, dst=HP6, hlim=63, nh=17)
    at4, at6 = send_watch(t, udp6_from(HP6, a6_pool))
    assert at4 == [] and len(at6) == 1
    assert_ipv6(at6[0], src=SINK6, dst=a6, hlim=63, nh=17)
    c.expect(marked({"xlat-hairpin": 2, "xlat-4to6": 2}, n=2))


def test_hairpin_other_traffic_untouched(hairpin):
    """Not towards an EAM: the ordinary path, in every mode."""
    t = hairpin
    for mode in ("TERN_HAIRPIN_SIMPLE", "TERN_HAIRPIN_INTRINSIC"):
        set_hairpin(t.xl, mode)
        c = t.counters()
        with t.cap4() as cap:
            t.send6(udp6_from(H6_LINK, SINK4_6))
            f = cap.one(is_ip4(dst=SINK4))
        assert f[IP].src == "198.51.100.2"
        c.expect({"xlat-6to4": 1})


@pytest.mark.parametrize("mode", HAIRPIN_MODES[1:])
def test_hairpin_needs_no_ipv4_route(tables, mode):
    """The U-turn never leaves on IPv4: no IPv4 route toward the EAM's
    prefix is needed (the hairpin fixture has one; this test has none)."""
    t = tables
    cli_ok(t.xl, "eamt", "add", EAM6, EAM4)
    neigh6(t, HP6)
    assert t.xl.ip("route", "get", "198.51.100.99", check=False).rc != 0
    c, at4, at6 = hairpin_watch(t, mode, udp6_from(H6_LINK, SINK6))
    src = H6_LINK if mode == "TERN_HAIRPIN_SIMPLE" else H6
    hairpinned(c, at4, at6, src, tc=0)


# --- Hairpinned ICMPv6 errors (RFC 7757 4.2) ------------------------------
#
# h6 as A (2001:db8:6::2 = 198.51.100.2) wrote to B (2001:db8:6::63 =
# 198.51.100.99) through B's pool6 address SINK6; in intrinsic mode that
# packet reached B as H6 -> HP6 (A's pool6 address). An error about it
# comes back to H6 from a router on B's side (an address no mapping
# covers: its IPv4 source is from the RFC 6791 pool) or from B itself.

ROUTER6 = "2001:db8:6::1:99"            # outside EAM6 and pool6
RFC6791_4 = "192.0.2.1"                 # the whole RFC 6791 pool (/32)
ZERO4 = b"\0\0\0\0"


def quoted6(src, dst, n=32, hlim=40):
    """The packet in error: a UDP datagram SRC -> DST of N payload bytes."""
    return ip6_packet(src, dst, 17,
                      udp_datagram(src, dst, 40000, 4000, (PAYLOAD * 2)[:n]),
                      hlim=hlim)


def hairpin_error(t, sender, type_=1, code=4, rest=ZERO4, n=32):
    """The ICMPv6 error SENDER -> H6 quoting H6 -> HP6, and its source."""
    t.set_global("rfc6791v4-prefix", RFC6791_4 + "/32")
    src = ROUTER6 if sender == "router" else HP6
    quote = quoted6(H6, HP6, n)[:1280 - 48]
    return ip6_packet(src, H6, 58, icmp6_message(src, H6, type_, code, rest,
                                                 quote), hlim=64)


def error_hairpinned(t, c, pkt):
    """The ICMPv6 error PKT from h6 comes back to H6_LINK, hairpinned
    (nothing on IPv4); returns it."""
    with t.cap4() as cap4, t.cap6() as cap6:
        t.send6(pkt)
        f = cap6.one(is_ip6(dst=H6_LINK, nh=58))
        none_on(lambda: c.expect({"xlat-hairpin": 1,
                                  "xlat-icmp-error-4to6": 1}),
                (cap4, is_ip4(proto=1)))
    return f


@pytest.mark.parametrize("sender", ["router", "host"])
@pytest.mark.parametrize("mode", HAIRPIN_MODES)
def test_hairpin_icmp_error(hairpin, mode, sender):
    """Port Unreachable about A's hairpinned packet. off: it leaves as an
    ICMPv4 error along the IPv4 route (toward h4). simple and intrinsic:
    translated to IPv4, then back to IPv6 (xlat-hairpin, then
    xlat-icmp-error-4to6), the packet in error translated twice; intrinsic
    maps back by pool6 the error's source and the quoted destination, so
    A gets the packet it sent (H6_LINK -> SINK6) quoted exactly."""
    t = hairpin
    set_hairpin(t.xl, mode)
    pkt = hairpin_error(t, sender)
    src4 = RFC6791_4 if sender == "router" else "198.51.100.99"
    c = t.counters()
    if mode == "TERN_HAIRPIN_OFF":
        with t.cap4() as cap4:
            t.send6(pkt)
            f = cap4.one(is_ip4(dst=H6_4, proto=1))
        raw = assert_frame4(f, tos=0, len=20 + 8 + 60, flags=0, offset=0,
                            ttl=63, proto=1, src=src4, dst=H6_4)
        ident = int.from_bytes(raw[32:34], "big")   # from the generator
        inner = ip4_packet(H6_4, "198.51.100.99", 17,
                           udp_datagram(H6_4, "198.51.100.99", 40000, 4000,
                                        PAYLOAD[:32]), ttl=40, ident=ident)
        assert raw[20:] == icmp4_message(3, 3, ZERO4, inner)
        c.expect({"xlat-icmp-error-6to4": 1})
        return
    f = error_hairpinned(t, c, pkt)
    if mode == "TERN_HAIRPIN_SIMPLE":
        src6 = embed(RFC6791_4) if sender == "router" else HP6
        dst6 = HP6
    else:
        src6 = embed(RFC6791_4) if sender == "router" else SINK6
        dst6 = SINK6
    want = icmp6_message(src6, H6_LINK, 1, 4, ZERO4,
                         quoted6(H6_LINK, dst6))
    raw = assert_frame6(f, tc=0, plen=len(want), nh=58, hlim=63, src=src6,
                        dst=H6_LINK)
    assert raw[40:] == want


def test_hairpin_packet_too_big(hairpin):
    """Packet Too Big (MTU 1400) from a router about a 1300-byte packet:
    Fragmentation Needed with MTU 1380 on the way, Packet Too Big with
    MTU 1400 back, the packet in error cut to 548 bytes by the IPv4 pass
    (DF set: more than 1260 bytes) and quoted whole as far as it goes."""
    t = hairpin
    pkt = hairpin_error(t, "router", 2, 0, (1400).to_bytes(4, "big"),
                        n=1300 - 48)
    c = t.counters()
    f = error_hairpinned(t, c, pkt)
    quote = quoted6(H6_LINK, SINK6, 1300 - 48)[:40 + 576 - 48]
    want = icmp6_message(embed(RFC6791_4), H6_LINK, 2, 0,
                         (1400).to_bytes(4, "big"), quote)
    raw = assert_frame6(f, tc=0, plen=len(want), nh=58, hlim=63,
                        src=embed(RFC6791_4), dst=H6_LINK)
    assert raw[40:] == want


@pytest.mark.parametrize("mode,dst", [("TERN_HAIRPIN_INTRINSIC", SINK6),
                                      ("TERN_HAIRPIN_SIMPLE", HP6)])
def test_hairpin_too_big_on_way_back(hairpin, mode, dst):
    """A 1348-byte hairpin (DF as IPv4: more than 1260 bytes) too big for
    the route to B (MTU 1280) is dropped by the way back, whose
    Fragmentation Needed (MTU 1260) would go to A's IPv4 address, the
    translator's own: A gets it translated, as an error about a
    hairpinned packet, Packet Too Big with MTU 1280 from the address it
    wrote to, quoting its packet as sent (548 bytes as IPv4, 568 as
    IPv6)."""
    t = hairpin
    set_hairpin(t.xl, mode)
    t.temp_route(t.xl, HP6 + "/128", "dev", "v6", "mtu", "1280")
    pkt = udp6_from(H6_LINK, dst, n=1300)
    c = t.counters()
    with t.cap4() as cap4, t.cap6() as cap6:
        t.send6(pkt)
        f = cap6.one(is_ip6(dst=H6_LINK, nh=58))
        none_on(lambda: c.expect({"drop-too-big": 1, "xlat-hairpin": 1,
                                  "xlat-icmp-error-4to6": 1}),
                (cap4, is_ip4()), (cap6, is_ip6(dst=HP6)))
    want = icmp6_message(dst, H6_LINK, 2, 0, (1280).to_bytes(4, "big"),
                         bytes(pkt)[:568])
    raw = assert_frame6(f, tc=0, plen=len(want), nh=58, hlim=63, src=dst,
                        dst=H6_LINK)
    assert raw[40:] == want


def test_hairpin_error_without_ipv4_route(tables):
    """An error that hairpins needs no IPv4 route, like any packet; the
    same error with hairpinning off has none to leave by: drop-no-route."""
    t = tables
    cli_ok(t.xl, "eamt", "add", EAM6, EAM4)
    pkt = hairpin_error(t, "router")
    c = t.counters()
    with t.cap6() as cap6:
        t.send6(pkt)
        f = cap6.one(is_ip6(dst=H6_LINK, nh=58))
    assert f[IPv6].src == embed(RFC6791_4)
    c.expect({"xlat-hairpin": 1, "xlat-icmp-error-4to6": 1})
    set_hairpin(t.xl, "TERN_HAIRPIN_OFF")
    c = t.counters()
    with t.cap4() as cap4, t.cap6() as cap6:
        t.send6(pkt)
        none_on(lambda: c.expect({"drop-no-route": 1}),
                (cap4, is_ip4(proto=1)), (cap6, is_ip6(dst=H6_LINK, nh=58)))


@pytest.mark.cli
def test_tables_cli_in_traffic_namespace_json_consistent(tables):
    t = tables
    cli_ok(t.xl, "eamt", "add", EAM6, EAM4)
    assert json.loads(cli_ok(t.xl, "-i", "t", "eamt", "list", "--json")) == \
        [{"prefix6": EAM6, "prefix4": EAM4}]
    assert cli_ok(t.xl, "address", "query", H6_4) == \
        "198.51.100.2 -> 2001:db8:6::2 via eamt %s %s\n" % (EAM6, EAM4)
