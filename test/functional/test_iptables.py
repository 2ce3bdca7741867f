"""iptables mode: instances that translate what `-j TERN --instance NAME`
rules hand them (fw/xt.c, usr/xtables/libxt_TERN.c).

In the translator namespace xl of the standard topology, three iptables
instances side by side: SIIT "siit" (pool6 2001:db8:64::/96, the
topology's), NAT64 "na" (pool6 2001:db8:a::/96, pool4 192.0.2.16/30) and
NAT64 "nb" (pool6 2001:db8:b::/96, pool4 192.0.2.32/30), each chosen by
destination prefix in the mangle table's PREROUTING chain of iptables and
ip6tables ("nb"'s IPv4 rule by input interface too). Every translation is
checked field by field and counted by its instance only. A rule naming no
iptables instance lets its packets go on to the next rule and counts them
(`tern instance list`). The instance under a rule can be removed and made
again while packets flow. iptables-save / iptables-restore keep the rules,
with iptables-legacy and (where the kernel has nft_compat: not the debug
kernel) iptables-nft.

iptables finds the extension in the build tree (usr/xtables/.libs, built
by `cd usr && autoreconf -fi && ./configure && make`) through
XTABLES_LIBDIR.
"""

import ipaddress
import json
import os
import re
import shutil
import subprocess
import time

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.packet import Raw

import ternlib
from ternlib import (H4, H4_6, H6, H6_4, H6_MAC, PAYLOAD, SINK4, SINK4_6,
                     SINK6, SINK6_4, Counters, Netns, Thread, Topology, cli,
                     cli_json, cli_ok, embed, is_ip4, is_ip6, none_on, snmp6,
                     wait_snmp6)
from ternlib.xtables import BUILT, ipt, ipt_raw

CLIENT = "2001:db8:6::99"       # on h6's link, h6's MAC, nobody's address
NAT = {"na": ("2001:db8:a::/96", "192.0.2.16/30"),
       "nb": ("2001:db8:b::/96", "192.0.2.32/30")}


def have_nft_compat():
    subprocess.run(["modprobe", "-q", "nft_compat"], check=False)
    return os.path.isdir("/sys/module/nft_compat")


# The tools of a variant: {"iptables-save": "iptables-legacy-save", ...}.
def tools(kind):
    return {fam + sub: "%s-%s%s" % (fam, kind, sub)
            for fam in ("iptables", "ip6tables")
            for sub in ("", "-save", "-restore")}


LEGACY = tools("legacy")


def listing(ns):
    """{name: row} of `tern instance list --json`."""
    return {i["name"]: i for i in cli_json(ns, "instance", "list")}


def rule_state(ns, name):
    row = listing(ns).get(name)
    return row and (row["status"], row["rules"], row["passed-no-instance"])


def wait_rules(ns, name, state):
    """Rules go when their destruction ran (deferred with nftables)."""
    deadline = time.monotonic() + ternlib.TIMEOUT
    while rule_state(ns, name) != state and time.monotonic() < deadline:
        time.sleep(0.1)
    assert rule_state(ns, name) == state


@pytest.fixture(scope="module")
def rig():
    if not (BUILT / "libxt_TERN.so").exists():
        pytest.fail("%s/libxt_TERN.so is not built (cd usr && autoreconf "
                    "-fi && ./configure && make)" % BUILT, pytrace=False)
    topo = Topology().build()
    try:
        xl = topo.xl
        xl.ip_batch(["neigh replace %s lladdr %s dev v6 nud permanent"
                     % (CLIENT, H6_MAC)])
        cli_ok(xl, "instance", "add", "siit", "--siit", "--pool6",
               ternlib.POOL6, "--iptables")
        for name, (pool6, pool4) in NAT.items():
            cli_ok(xl, "instance", "add", name, "--nat64", "--pool6", pool6,
                   "--iptables")
            cli_ok(xl, "-i", name, "pool4", "add", pool4)
        v6, v4 = LEGACY["ip6tables"], LEGACY["iptables"]
        rules = [
            (v6, "-d", ternlib.POOL6, "-j", "TERN", "--instance", "siit"),
            (v6, "-d", NAT["na"][0], "-j", "TERN", "--instance", "na"),
            (v6, "-d", NAT["nb"][0], "-j", "TERN", "--instance", "nb"),
            (v4, "-d", "198.51.100.0/24", "-j", "TERN", "--instance",
             "siit"),
            (v4, "-d", NAT["na"][1], "-j", "TERN", "--instance", "na"),
            (v4, "-i", "v4", "-d", NAT["nb"][1], "-j", "TERN", "--instance",
             "nb"),
        ]
        for tool, *spec in rules:
            ipt(xl, tool, "-t", "mangle", "-A", "PREROUTING", *spec)
        yield topo
    finally:
        topo.destroy()


@pytest.fixture
def xt(rig):
    """The rig; NAT64 sessions flushed, extra rules removed afterwards."""
    for name in NAT:
        cli_ok(rig.xl, "-i", name, "session", "flush")
    yield rig
    while rig.cleanups:
        rig.cleanups.pop()()


def counters(topo):
    return {n: Counters(topo.xl, n) for n in ("siit", "na", "nb")}


def expect(cs, name, deltas):
    """NAME's counters moved by DELTAS, the other instances' not at all."""
    cs[name].expect(deltas)
    for other, c in cs.items():
        if other != name:
            c.expect({})


def udp(v6, src, dst, sport, dport, n=64):
    l3 = IPv6(src=src, dst=dst, hlim=64) if v6 else \
        IP(src=src, dst=dst, ttl=64, flags="DF")
    return l3 / UDP(sport=sport, dport=dport) / Raw(PAYLOAD[:n])


def siit_exchange(topo):
    """One datagram each way through "siit"."""
    cs = counters(topo)
    with topo.cap4() as cap:
        topo.send6(udp(True, H6, SINK4_6, 40000, 4000))
        f = cap.one(is_ip4(src=H6_4, dst=SINK4))
    assert (f[IP].ttl, f[UDP].sport, f[UDP].dport, bytes(f[UDP].payload)) \
        == (63, 40000, 4000, PAYLOAD[:64])
    with topo.cap6() as cap:
        topo.send4(udp(False, H4, SINK6_4, 4000, 40000))
        f = cap.one(is_ip6(src=H4_6, dst=SINK6))
    assert (f[IPv6].hlim, f[UDP].sport, f[UDP].dport,
            bytes(f[UDP].payload)) == (63, 4000, 40000, PAYLOAD[:64])
    expect(cs, "siit", {"xlat-6to4": 1, "xlat-4to6": 1})


def test_instances_listed(xt):
    rows = listing(xt.xl)
    assert sorted(rows) == ["na", "nb", "siit"]
    for name, row in rows.items():
        assert (row["framework"], row["status"], row["rules"],
                row["passed-no-instance"]) == ("iptables", "enabled", 2, 0)
    assert [rows[n]["type"] for n in ("siit", "na", "nb")] == \
        ["siit", "nat64", "nat64"]
    text = cli_ok(xt.xl, "instance", "list")
    assert text.splitlines()[0].split() == \
        ["NAME", "TYPE", "FRAMEWORK", "POOL6", "STATUS"]
    assert "enabled, 2 rules" in text


def test_siit_instance(xt):
    siit_exchange(xt)


@pytest.mark.parametrize("name", ["na", "nb"])
def test_nat64_instance(xt, name):
    pool6, pool4 = NAT[name]
    cs = counters(xt)
    with xt.cap4() as cap:
        xt.send6(udp(True, CLIENT, embed(SINK4, pool6), 41000, 4000))
        f = cap.one(is_ip4(dst=SINK4))
    assert ipaddress.IPv4Address(f[IP].src) in \
        ipaddress.IPv4Network(pool4)
    assert (f[IP].ttl, f[UDP].dport, bytes(f[UDP].payload)) == \
        (63, 4000, PAYLOAD[:64])
    src4, port4 = f[IP].src, f[UDP].sport
    with xt.cap6() as cap:
        xt.send4(udp(False, SINK4, src4, 4000, port4))
        g = cap.one(is_ip6(dst=CLIENT))
    assert (g[IPv6].src, g[IPv6].hlim, g[UDP].sport, g[UDP].dport,
            bytes(g[UDP].payload)) == \
        (embed(SINK4, pool6), 63, 4000, 41000, PAYLOAD[:64])
    expect(cs, name, {"xlat-6to4": 1, "xlat-4to6": 1})
    sess = cli_json(xt.xl, "-i", name, "session", "list", changing=True)
    assert [(s["address4"], s["port4"]) for s in sess] == [(src4, port4)]
    other = "nb" if name == "na" else "na"
    assert cli_json(xt.xl, "-i", other, "session", "list",
                    changing=True) == []


@pytest.mark.parametrize("name", ["na", "nb"])
def test_hairpin_stays_in_instance(xt, name):
    """RFC 6146 3.8 in an iptables instance: an IPv6 host reaches another
    (here itself, from another port) at its IPv4 transport address of this
    instance's pool4; the packet comes back translated by the same
    instance (no IPv4 rule, no other instance sees it)."""
    pool6, pool4 = NAT[name]
    with xt.cap4() as cap:
        xt.send6(udp(True, CLIENT, embed(SINK4, pool6), 47002, 4000))
        b = cap.one(is_ip4(dst=SINK4))
    cs = counters(xt)
    with xt.cap6() as cap:
        xt.send6(udp(True, CLIENT, embed(b[IP].src, pool6), 47000,
                     b[UDP].sport))
        f = cap.one(is_ip6(dst=CLIENT))
    mine = [s for s in cli_json(xt.xl, "-i", name, "session", "list",
                                changing=True) if s["port6"] == 47000]
    assert len(mine) == 1
    assert ipaddress.IPv4Address(mine[0]["address4"]) in \
        ipaddress.IPv4Network(pool4)
    assert (f[IPv6].src, f[IPv6].hlim, f[UDP].sport, f[UDP].dport,
            bytes(f[UDP].payload)) == \
        (embed(mine[0]["address4"], pool6), 63, mine[0]["port4"], 47002,
         PAYLOAD[:64])
    expect(cs, name, {"xlat-hairpin": 1, "xlat-4to6": 1})


def test_no_rule_no_translation(xt):
    """Without a rule nothing reaches an instance: 2001:db8:c::/96 has
    none (and no route: nothing comes out)."""
    cs = counters(xt)
    before = snmp6(xt.xl, "Ip6InNoRoutes")
    with xt.cap4() as cap4:
        xt.send6(udp(True, CLIENT, embed(SINK4, "2001:db8:c::/96"), 1, 2))
        # Handled: the kernel found no route for it (no instance took it).
        none_on(lambda: (wait_snmp6(xt.xl, "Ip6InNoRoutes", before + 1),
                         [c.expect({}) for c in cs.values()]),
                (cap4, is_ip4()))


@pytest.mark.parametrize("netfilter", [False, True],
                         ids=["missing", "netfilter-instance"])
def test_rule_without_iptables_instance(xt, netfilter):
    """A rule naming no iptables instance (none at all, or a netfilter
    one) passes its packets on to the next rule, untouched, and counts
    them; the next rule's instance translates them."""
    name = "nf" if netfilter else "ghost"
    if netfilter:
        # No pool6, no EAMT: its hooks would pass everything anyway.
        cli_ok(xt.xl, "instance", "add", "nf", "--siit", "--netfilter")
        xt.defer(lambda: cli_ok(xt.xl, "instance", "remove", "nf"))
    spec = ("-d", ternlib.POOL6, "-j", "TERN", "--instance", name)
    ipt(xt.xl, LEGACY["ip6tables"], "-t", "mangle", "-I", "PREROUTING", "1",
        *spec)
    xt.defer(lambda: ipt(xt.xl, LEGACY["ip6tables"], "-t", "mangle", "-D",
                         "PREROUTING", *spec))
    status = "enabled" if netfilter else "no-instance"
    assert rule_state(xt.xl, name) == (status, 1, 0)
    row = listing(xt.xl)[name]
    if not netfilter:
        assert (row["type"], row["framework"], row["pool6"]) == \
            (None, None, None)
        assert "ghost - - - no instance, 1 rule" in \
            " ".join(cli_ok(xt.xl, "instance", "list").split())
        # Not configuration: config show leaves it out (it failed on it).
        shown = json.loads(cli_ok(xt.xl, "config", "show"))
        assert sorted(i["name"] for i in shown["instances"]) == \
            sorted(["siit"] + list(NAT))
    nf = Counters(xt.xl, "nf") if netfilter else None
    cs = counters(xt)
    with xt.cap4() as cap:
        xt.send6(udp(True, H6, SINK4_6, 40000, 4000))
        f = cap.one(is_ip4(src=H6_4, dst=SINK4))
    assert bytes(f[UDP].payload) == PAYLOAD[:64]
    expect(cs, "siit", {"xlat-6to4": 1})
    if nf:
        nf.expect({})
    assert rule_state(xt.xl, name) == (status, 1, 1)
    assert "passed (no instance)" in cli_ok(xt.xl, "instance", "list")


def _flood(topo, stop):
    n = 0
    pkt = bytes(udp(True, H6, SINK4_6, 40001, 4000, n=32))
    while not stop:
        topo.send6(pkt)
        n += 1
        time.sleep(0.001)
    return n


def test_instance_removed_and_made_again(xt):
    """The rule outlives its instance: while it is gone the rule's packets
    pass (counted in the slot); a new instance of the name takes over.
    Also under a stream of packets, several times over."""
    xl = xt.xl

    def recreate():
        cli_ok(xl, "instance", "add", "siit", "--siit", "--pool6",
               ternlib.POOL6, "--iptables")

    cli_ok(xl, "instance", "remove", "siit")
    assert rule_state(xl, "siit") == ("no-instance", 2, 0)
    others = {n: Counters(xl, n) for n in NAT}
    with xt.cap4() as cap:
        xt.send6(udp(True, H6, SINK4_6, 40000, 4000))
        none_on(lambda: wait_rules(xl, "siit", ("no-instance", 2, 1)),
                (cap, is_ip4()))
    recreate()
    assert rule_state(xl, "siit") == ("enabled", 2, 1)
    siit_exchange(xt)
    for c in others.values():
        c.expect({})

    stop = []
    flood = Thread(_flood, xt, stop)
    flood.start()
    try:
        for _ in range(3):
            cli_ok(xl, "instance", "remove", "siit")
            time.sleep(0.2)
            recreate()
            time.sleep(0.2)
    finally:
        stop.append(True)
        sent = flood.join()
    assert sent > 0
    _, rules, missed = rule_state(xl, "siit")
    assert rules == 2 and missed >= 1
    # The last instance made is the one that translates.
    siit_exchange(xt)
    assert Counters(xl, "siit").before["xlat-6to4"] >= 1


@pytest.mark.parametrize("kind", [
    "legacy", pytest.param("nft", marks=pytest.mark.nft)])
def test_save_restore(kind):
    """iptables-save shows the rule as it was given (no kernel pointer),
    iptables-restore brings it back, -C finds it; with nft_compat, `nft
    list ruleset` shows the xtables target."""
    if kind == "nft" and not have_nft_compat():
        pytest.skip("no nft_compat in this kernel")
    t = tools(kind)
    ns = Netns("ipt")
    try:
        rules = {
            "iptables": "-A PREROUTING -d 192.0.2.0/24 -j TERN "
                        "--instance abc",
            "ip6tables": "-A PREROUTING -d 2001:db8:c::/96 -j TERN "
                         "--instance abc",
        }
        for fam, rule in rules.items():
            ipt(ns, t[fam], "-t", "mangle", *rule.split())
            ipt(ns, t[fam], "-t", "mangle", "-C", *rule.split()[1:])
        wait_rules(ns, "abc", ("no-instance", 2, 0))
        saved = {}
        for fam, rule in rules.items():
            out = ipt_raw(ns, t[fam + "-save"], "-t", "mangle").out
            lines = [x for x in out.splitlines() if x.startswith("-A")]
            assert lines == [rule]
            saved[fam] = out
            lst = ipt(ns, t[fam], "-t", "mangle", "-n", "-L",
                      "PREROUTING").out
            assert "TERN" in lst and "instance abc" in lst
        if kind == "nft":
            # An xtables target: `xt target TERN` (nftables 1.0.6, which
            # shows it only if libxtables finds the extension: hence
            # XTABLES_LIBDIR), `xt target "TERN"` in later versions.
            nft = ipt_raw(ns, "nft", "list", "ruleset").out
            for daddr in ("ip daddr 192.0.2.0/24",
                          "ip6 daddr 2001:db8:c::/96"):
                line = [x for x in nft.splitlines() if daddr in x]
                assert len(line) == 1, nft
                assert re.search(r'^\s*%s counter packets \d+ bytes \d+ '
                                 r'xt target "?TERN"?$' % daddr, line[0]), nft
        for fam in rules:
            ipt(ns, t[fam], "-t", "mangle", "-F")
        wait_rules(ns, "abc", None)
        for fam, rule in rules.items():
            ipt_raw(ns, t[fam + "-restore"], input=saved[fam])
            out = ipt_raw(ns, t[fam + "-save"], "-t", "mangle").out
            assert [x for x in out.splitlines() if x.startswith("-A")] == \
                [rule]
        wait_rules(ns, "abc", ("no-instance", 2, 0))
        cli_ok(ns, "instance", "add", "abc", "--siit", "--iptables")
        assert rule_state(ns, "abc") == ("enabled", 2, 0)
        for fam, rule in rules.items():
            ipt(ns, t[fam], "-t", "mangle", "-D", *rule.split()[1:])
        wait_rules(ns, "abc", ("enabled", 0, 0))
        cli_ok(ns, "instance", "remove", "abc")
        assert listing(ns) == {}
    finally:
        ns.delete()


def test_help_and_refusals():
    ns = Netns("ipt")
    try:
        ipt4 = LEGACY["iptables"]
        r = ipt(ns, ipt4, "-j", "TERN", "--help")
        assert "TERN target options:" in r.out
        assert "--instance NAME" in r.out
        base = ("-t", "mangle", "-A", "PREROUTING", "-j", "TERN")
        for args, msg in [
                ((), "TERN: --instance NAME is required"),
                (("--instance", ""), "TERN: --instance needs a NAME"),
                (("--instance", "x" * 16),
                 'TERN: instance name "%s" is too long (16 characters, '
                 'at most 15)' % ("x" * 16)),
                (("--instance", "a b"), 'TERN: invalid instance name '
                 '"a b"')]:
            r = ipt(ns, ipt4, *base, *args, check=False)
            assert r.rc == 2 and msg in r.err, r
        # The kernel: only PREROUTING of raw and mangle.
        for table, chain in [("nat", "PREROUTING"), ("filter", "INPUT"),
                             ("mangle", "FORWARD")]:
            r = ipt(ns, ipt4, "-t", table, "-A", chain, "-j", "TERN",
                    "--instance", "x", check=False)
            assert r.rc != 0, (table, chain, r)
        tables = 0
        for table in ("raw", "mangle"):
            r = ipt(ns, ipt4, "-t", table, "-A", "PREROUTING", "-j", "TERN",
                    "--instance", "x", check=False)
            if r.rc == 3 and "Table does not exist" in r.err:
                continue            # no raw table in the debug kernel
            assert r.rc == 0, r
            tables += 1
            assert rule_state(ns, "x") == ("no-instance", 1, 0)
            ipt(ns, ipt4, "-t", table, "-F")
            wait_rules(ns, "x", None)
        assert tables >= 1
        # A netfilter instance beside the iptables ones; one at most.
        cli_ok(ns, "instance", "add", "p", "--siit", "--iptables")
        cli_ok(ns, "instance", "add", "q", "--siit", "--iptables")
        cli_ok(ns, "instance", "add", "r", "--siit")
        r = cli(ns, "instance", "add", "s", "--siit", "--netfilter")
        ternlib.assert_error(r, 1, "already has a netfilter instance")
        assert {n: (i["framework"], i["rules"])
                for n, i in listing(ns).items()} == \
            {"p": ("iptables", 0), "q": ("iptables", 0),
             "r": ("netfilter", 0)}
        assert shutil.which(ipt4)
    finally:
        ternlib.remove_instances(ns)
        ns.delete()
