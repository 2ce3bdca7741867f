"""The tern CLI against the kernel: instances, globals, stats, refusals.

Each test gets a fresh network namespace (fixture `ns`), so instances of
one test never meet another's.
"""

import ipaddress
import json
import os
import re
import shlex
import time

import pytest

import ternlib
from ternlib import (GLOBAL_KINDS, POOL6, STAT_NAMES, Netns, assert_error,
                     cli, cli_ok, globals_, instances, stats)

# The CLI's own behaviour (parsing, output, messages): not run on the
# debug kernel, except the tests marked kernel (pytest.ini).
pytestmark = pytest.mark.cli

DEFAULT_PLATEAUS = [65535, 32000, 17914, 8166, 4352, 2002, 1492, 1006, 508,
                    296, 68]
DEFAULTS = {"enabled": True, "pool6": POOL6, "strict-wkp": True,
            "zeroize-traffic-class": False, "override-tos": False, "tos": 0,
            "amend-udp-checksum-zero": False, "lowest-ipv6-mtu": 1280,
            "mtu-plateaus": DEFAULT_PLATEAUS, "rfc6791v4-prefix": None,
            "rfc6791v6-prefix": None, "eam-hairpin-mode": "intrinsic",
            "icmp-on-drop": True, "udp-timeout": 300,
            "tcp-est-timeout": 7440, "tcp-trans-timeout": 240,
            "icmp-timeout": 60, "address-dependent-filtering": False,
            "drop-externally-initiated-tcp": False, "max-sessions": 0,
            "max-sessions-per-subscriber": 0, "max-ports-per-subscriber": 0,
            "subscriber-prefix-len": 56, "max-stored-syns": 64,
            "log-bib": False, "log-sessions": False,
            "tcp-nosyn-with-bib": False, "tcp-rst-during-fin-rcv": False,
            "max-sessions-per-bib-from-ipv4": 4096,
            "max-static-bib-entries": 65536, "det-space": None,
            "det-block-size": 0, "det-port-key": 0,
            "port-block-size": 0,
            "box-count": 1, "box-index": 0}
ALLOWED_LENGTHS = ("32", "40", "48", "56", "64", "96")


def add(ns, name="t", pool=POOL6, *extra):
    return cli(ns, "instance", "add", name, "--siit", "--pool6", pool, *extra)


def same_prefix(a, b):
    return ipaddress.IPv6Network(a) == ipaddress.IPv6Network(b)


def assert_no_instances(ns):
    assert instances(ns) == []


# --- Usage -----------------------------------------------------------------


def test_help_exits_zero():
    r = cli(None, "--help")
    assert r.rc == 0 and r.err == ""
    for words in ("instance add", "instance list", "instance remove",
                  "global show", "global set", "stats"):
        assert words in r.out, words


@pytest.mark.parametrize("args", [
    [],
    ["frobnicate"],
    ["instance"],
    ["instance", "add", "t"],
    ["instance", "add", "t", "--siit", "--pool6"],
    ["instance", "add", "t", "--siit", "--pool6", "not-a-prefix"],
    ["instance", "add", "t", "--siit", "--pool6", "192.0.2.0/24"],
    ["instance", "add", "t", "--siit", "--pool6", "2001:db8::/129"],
    ["stats", "--bogus"],
], ids=lambda a: "_".join(a) or "none")
def test_usage_error_exit2_nothing_added(ns, args):
    r = cli(ns, *args)
    assert_error(r, 2)
    assert r.out == ""
    assert_no_instances(ns)


# --- Instances -------------------------------------------------------------


@pytest.mark.kernel
def test_instance_add_list_remove(ns):
    assert_no_instances(ns)
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6,
           "--netfilter")
    lst = instances(ns)
    assert len(lst) == 1
    assert {k: lst[0][k] for k in ("name", "type", "framework")} == \
        {"name": "t", "type": "siit", "framework": "netfilter"}
    assert same_prefix(lst[0]["pool6"], POOL6)
    plain = cli_ok(ns, "instance", "list")
    assert re.search(r"\bt\b", plain) and "siit" in plain and \
        "netfilter" in plain and "2001:db8:64::/96" in plain
    cli_ok(ns, "instance", "remove", "t")
    assert_no_instances(ns)
    # The name is free again.
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    assert [i["name"] for i in instances(ns)] == ["t"]


def test_instance_list_json_exact(ns):
    cli_ok(ns, "instance", "add", "edge-1", "--siit", "--pool6",
           "2001:db8:a::/64")
    lst = instances(ns)
    assert len(lst) == 1
    assert set(lst[0]) == {"name", "type", "framework", "pool6", "status",
                           "rules", "passed-no-instance"}
    assert (lst[0]["status"], lst[0]["rules"],
            lst[0]["passed-no-instance"]) == ("enabled", 0, 0)
    assert lst[0]["name"] == "edge-1" and lst[0]["type"] == "siit"
    assert lst[0]["framework"] == "netfilter"
    assert same_prefix(lst[0]["pool6"], "2001:db8:a::/64")


@pytest.mark.parametrize("pool", [
    "2001:db8::/32", "2001:db8:100::/40", "2001:db8:122::/48",
    "2001:db8:122:300::/56", "2001:db8:122:344::/64",
    "2001:db8:122:344::/96", "64:ff9b::/96",
    # u-octet zero, bits 72-79 set: allowed.
    "2001:db8:1:2:ff::/96",
])
def test_pool6_valid_lengths_accepted(ns, pool):
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", pool)
    assert same_prefix(globals_(ns, "t")["pool6"], pool)
    assert same_prefix(instances(ns)[0]["pool6"], pool)


@pytest.mark.parametrize("pool", [
    "64:ff9b::/95", "2001:db8::/95", "2001:db8::/33", "2001:db8::/16",
    "2001:db8:64::/97",
    "2001:db8:64::/128", "::/0",
])
def test_pool6_bad_length_refused(ns, pool):
    r = add(ns, "t", pool)
    line = assert_error(r, 1)
    for n in ALLOWED_LENGTHS:
        assert re.search(r"\b%s\b" % n, line), \
            "message does not name length %s: %r" % (n, line)
    assert_no_instances(ns)


@pytest.mark.parametrize("pool", [
    "2001:db8:64::1/96", "2001:db8:1::/32", "2001:db8:0:1::/56",
    "2001:db8::8000:0:0:0/64",
])
def test_pool6_host_bits_refused(ns, pool):
    assert_error(add(ns, "t", pool), 1)
    assert_no_instances(ns)


@pytest.mark.parametrize("pool", [
    "2001:db8:1:2:100::/96", "2001:db8:1:2:ff00::/96",
])
def test_pool6_u_octet_refused(ns, pool):
    assert_error(add(ns, "t", pool), 1)
    assert_no_instances(ns)


def test_nat64_needs_pool6(ns):
    r = cli(ns, "instance", "add", "t", "--nat64")
    assert_error(r, 1, "NAT64 instance needs pool6")
    assert_no_instances(ns)


def test_nat64_instance_added(ns):
    cli_ok(ns, "instance", "add", "t", "--nat64", "--pool6", "64:ff9b::/96")
    assert [(i["name"], i["type"]) for i in instances(ns)] == \
        [("t", "nat64")]


def test_duplicate_name_refused(ns):
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    before = instances(ns)
    assert_error(add(ns, "t", "2001:db8:99::/96"), 1)
    assert instances(ns) == before
    assert same_prefix(globals_(ns, "t")["pool6"], POOL6)


BAD_CHARS = "an instance name has printable characters, no blanks or quotes$"


@pytest.mark.kernel
@pytest.mark.parametrize("name,message", [
    ("a" * 16, "an instance name has 1 to 15 characters$"),
    ("a b", BAD_CHARS), ("a'b", BAD_CHARS), ('a"b', BAD_CHARS),
    ("a\\b", BAD_CHARS), ("caf\u00e9", BAD_CHARS),
])
def test_instance_name_refused(ns, name, message):
    """The kernel checks an instance name's length and characters (those
    iptables-save writes back unquoted: the TERN target names it)."""
    assert_error(add(ns, name, POOL6), 1, message)
    assert_no_instances(ns)


def test_instance_name_punctuation_accepted(ns):
    cli_ok(ns, "instance", "add", "edge-1.a_b:c", "--siit", "--pool6", POOL6)
    assert [i["name"] for i in instances(ns)] == ["edge-1.a_b:c"]


def test_completion_offers_instances(ns):
    """bash completion (usr/completion/tern) offers the namespace's
    instances after -i and after `instance remove`."""
    for name in ("edge-1", "edge-2", "core"):
        cli_ok(ns, "instance", "add", name, "--siit", "--pool6", POOL6,
               "--iptables")
    script = (". %s; comp() { COMP_WORDS=(%s \"$@\"); "
              "COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _tern; "
              "echo \"${COMPREPLY[*]}\"; }; comp -i e; comp -i ''; "
              "comp instance remove c" % (ternlib.REPO / "usr" / "completion" /
                                          "tern", ternlib.TERN))
    r = ns.exec("bash", "-c", script)
    assert r.out.splitlines() == ["edge-1 edge-2", "edge-1 edge-2 core",
                                  "core"]


@pytest.mark.kernel
def test_second_netfilter_instance_refused(ns):
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    before = instances(ns)
    assert_error(add(ns, "u", "2001:db8:99::/96"), 1)
    assert instances(ns) == before
    assert_error(cli(ns, "-i", "u", "stats"), 1)


@pytest.mark.kernel
def test_instances_are_per_namespace(ns):
    other = Netns("cli")
    try:
        cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
        assert instances(other) == []
        # The same name (and a netfilter instance) in another namespace.
        cli_ok(other, "instance", "add", "t", "--siit", "--pool6",
               "2001:db8:99::/96")
        assert same_prefix(globals_(ns, "t")["pool6"], POOL6)
        assert same_prefix(globals_(other, "t")["pool6"], "2001:db8:99::/96")
        cli_ok(other, "instance", "remove", "t")
        assert [i["name"] for i in instances(ns)] == ["t"]
    finally:
        other.delete()


def test_instance_name_length(ns):
    r = add(ns, "a" * 16)
    assert_error(r, 1, "name")
    assert_no_instances(ns)
    assert_error(add(ns, ""), 1, "name")
    assert_no_instances(ns)
    cli_ok(ns, "instance", "add", "b" * 15, "--siit", "--pool6", POOL6)
    assert [i["name"] for i in instances(ns)] == ["b" * 15]


@pytest.mark.parametrize("args", [
    ["instance", "remove", "nope"],
    ["-i", "nope", "stats"],
    ["-i", "nope", "global", "show"],
    ["-i", "nope", "global", "set", "enabled", "false"],
])
def test_unknown_instance_refused(ns, args):
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    assert_error(cli(ns, *args), 1)
    assert globals_(ns, "t") == DEFAULTS
    assert [i["name"] for i in instances(ns)] == ["t"]


def test_commands_without_instance_refused(ns):
    for args in (["stats"], ["global", "show"],
                 ["global", "set", "tos", "1"], ["instance", "remove", "t"]):
        assert_error(cli(ns, *args), 1)
    assert_no_instances(ns)


# --- Globals ---------------------------------------------------------------


def test_global_show_defaults(ns):
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    g = globals_(ns, "t")
    assert set(g) == set(GLOBAL_KINDS)
    assert g == DEFAULTS
    # Without -i: the only instance of the namespace.
    assert globals_(ns) == g
    plain = cli_ok(ns, "global", "show")
    for key in GLOBAL_KINDS:
        line = [l for l in plain.splitlines() if re.match(
            r"\s*%s:" % re.escape(key), l)]
        assert len(line) == 1, (key, plain)
    assert re.search(r"strict-wkp\W+true", plain)
    assert re.search(r"pool6\W+2001:db8:64::/96", plain)


@pytest.mark.parametrize("key,value,expected", [
    ("enabled", "false", False),
    ("strict-wkp", "false", False),
    ("strict-wkp", "off", False),
    ("zeroize-traffic-class", "true", True),
    ("override-tos", "yes", True),
    ("amend-udp-checksum-zero", "on", True),
    ("icmp-on-drop", "no", False),
    ("tos", "184", 184),
    ("tos", "0x20", 32),
    ("pool6", "2001:db8:1::/48", "2001:db8:1::/48"),
    ("pool6", "64:ff9b::/96", "64:ff9b::/96"),
])
def test_global_set_roundtrip(ns, key, value, expected):
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    out = cli_ok(ns, "-i", "t", "global", "set", key, value)
    assert out == ""
    g = globals_(ns, "t")
    want = dict(DEFAULTS)
    want[key] = expected
    if key == "pool6":
        assert same_prefix(g.pop("pool6"), expected)
        want.pop("pool6")
    assert g == want


@pytest.mark.parametrize("args", [
    ["global", "set", "frobnicate", "1"],
    ["global", "set", "strict-wkp", "maybe"],
    ["global", "set", "enabled", ""],
    ["global", "set", "tos", "256"],
    ["global", "set", "tos", "-1"],
    ["global", "set", "tos", "abc"],
    ["global", "set", "pool6", "not-a-prefix"],
    ["global", "set", "pool6", "198.51.100.0/24"],
    ["global", "set", "enabled"],
    ["global", "set"],
])
def test_global_set_bad_value_exit2_unchanged(ns, args):
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    assert_error(cli(ns, *args), 2)
    assert globals_(ns, "t") == DEFAULTS


@pytest.mark.parametrize("pool", [
    "2001:db8:1::/95", "2001:db8:1::/128", "2001:db8:1::1/96",
    "2001:db8:1:2:100::/96",
])
def test_global_set_bad_pool6_refused_unchanged(ns, pool):
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    assert_error(cli(ns, "global", "set", "pool6", pool), 1)
    assert globals_(ns, "t") == DEFAULTS


# --- Stats -----------------------------------------------------------------


def test_stats_json_names_and_zero(ns):
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    s = stats(ns, "t")
    assert set(s) == set(STAT_NAMES)
    assert all(type(v) is int for v in s.values())
    assert all(v == 0 for v in s.values()), s
    assert stats(ns) == s


def test_stats_plain_matches_json(ns):
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    # Some traffic so that not every number is zero: loopback packets go
    # through PRE_ROUTING too (and are passed).
    ternlib.run(["ip", "-n", ns.name, "link", "set", "lo", "up"])
    ns.exec("ping", "-c", "2", "-i", "0.2", "-W", "1", "127.0.0.1",
            check=False)
    plain = cli_ok(ns, "stats", "--all")
    js = stats(ns)
    seen = {}
    for line in plain.splitlines():
        m = re.match(r"\s*([a-z0-9-]+):?\s+(\d+)\b", line)
        if m:
            seen[m.group(1)] = int(m.group(2))
    assert set(seen) == set(STAT_NAMES), plain
    assert seen == js
    assert sum(js.values()) >= 4
    # What the tests read over netlink (ternlib.kstats) is the same.
    assert ternlib.kstats(ns) == js


# --- Rights and namespaces -------------------------------------------------


@pytest.mark.kernel
@pytest.mark.parametrize("args", [
    ["instance", "list"],
    ["instance", "add", "u", "--siit", "--pool6", POOL6],
    ["stats"],
    ["global", "set", "enabled", "false"],
])
def test_no_cap_net_admin_refused(ns, args):
    """A new user namespace's root has no rights on a namespace owned by
    the initial user namespace."""
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    r = cli(ns, *args, prefix=["unshare", "--user", "--map-root-user"])
    assert_error(r, 1, r"permi|not permitted")
    assert [i["name"] for i in instances(ns)] == ["t"]
    assert globals_(ns, "t") == DEFAULTS


@pytest.mark.kernel
def test_user_namespace_owner_may_add():
    """Root of a user namespace may configure a network namespace that
    user namespace owns."""
    t = shlex.quote(ternlib.TERN)
    script = ("set -e; {t} instance add u --siit --pool6 {p}; "
              "{t} global set tos 7; {t} instance list --json; "
              "{t} global show --json").format(t=t, p=POOL6)
    r = ternlib.run(["unshare", "--user", "--map-root-user", "--net", "sh",
                     "-c", script], check=False)
    assert r.rc == 0, r.err
    assert r.err == ""
    dec = json.JSONDecoder()
    lst, end = dec.raw_decode(r.out)
    g, _ = dec.raw_decode(r.out[end:].lstrip())
    assert [i["name"] for i in lst] == ["u"]
    assert g["tos"] == 7


@pytest.mark.kernel
def test_instance_dies_with_its_namespace():
    """Deleting a namespace removes its instance; the module stays usable
    (and the kernel log stays clean, see conftest)."""
    for _ in range(3):
        n = Netns("gone")
        cli_ok(n, "instance", "add", "t", "--siit", "--pool6", POOL6)
        ternlib.run(["ip", "-n", n.name, "link", "set", "lo", "up"])
        n.exec("ping", "-c", "1", "-W", "1", "127.0.0.1", check=False)
        n.delete()
    # Namespaces are torn down asynchronously; use the module meanwhile.
    time.sleep(0.5)
    n = Netns("after")
    try:
        cli_ok(n, "instance", "add", "t", "--siit", "--pool6", POOL6)
        assert [i["name"] for i in instances(n)] == ["t"]
        assert set(stats(n, "t")) == set(STAT_NAMES)
        cli_ok(n, "instance", "remove", "t")
        assert instances(n) == []
    finally:
        n.delete()
    assert os.path.isdir("/sys/module/tern")
