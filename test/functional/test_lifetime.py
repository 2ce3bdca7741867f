"""Lifetimes under traffic (issue 10, item 1): an instance removed and added
again, a namespace deleted, and the module unloaded while packets run
through Tern's hooks on every CPU, and pool4 emptied under NAT64 traffic.

pktgen threads (one per CPU) send IPv6 and IPv4 packets into a translator
namespace; the translated packets go back to the sender, which drops them.
nf_unregister_net_hooks() does not wait for packets already inside a hook:
freeing what they read without a grace period is a use-after-free that
KASAN reports on the debug kernel (and the kernel log check fails the
test). Each step also asserts the state it leaves: no instance, or one
that translates again. The removals run under SIIT traffic (instance "t")
and under NAT64 traffic (instance "n", sessions made and found on every
CPU).
"""

import os
import subprocess
import time

import pytest

import ternlib
from ternlib import (H6_LINK, POOL6, SINK4, SINK4_6, XL4_MAC, XL6_MAC, Netns,
                     cli_json, cli_ok, embed)
from ternlib.nat64 import CLIENT, wait_until
from ternlib.pktgen import DEBUG_KERNEL, Pktgen, PktgenRig, fresh_instances
from ternlib.xtables import ipt

CGROUPS = "/sys/fs/cgroup"
KMEMLEAK = "/sys/kernel/debug/kmemleak"


class Charged:
    """Where the memory of the instances added with PREFIX (a `tern
    instance add` run in a memory cgroup of its own) is charged: their
    per-CPU memory (counters, host and route caches, GFP_KERNEL_ACCOUNT)
    shows in the cgroup's memory.stat as "percpu" bytes until it is
    freed. A kernel without the memory controller (the debug kernel) has
    kmemleak instead: no object of tern.ko may be left unreferenced."""

    def __init__(self, name):
        self.path = None
        try:
            with open(os.path.join(CGROUPS, "cgroup.controllers")) as f:
                memcg = "memory" in f.read().split()
        except FileNotFoundError:
            memcg = False
        if not memcg:
            assert os.path.exists(KMEMLEAK), \
                "neither a memory cgroup nor kmemleak to see instances by"
            return
        with open(os.path.join(CGROUPS, "cgroup.subtree_control"), "w") as f:
            f.write("+memory")
        self.path = os.path.join(CGROUPS, name)
        os.makedirs(self.path, exist_ok=True)

    @property
    def prefix(self):
        if self.path is None:
            return ()
        return ("sh", "-c", 'echo $$ >"$0/cgroup.procs" && exec "$@"',
                self.path)

    def percpu(self):
        with open(os.path.join(self.path, "memory.stat")) as f:
            return dict(line.split() for line in f)["percpu"]

    def assert_live(self):
        if self.path is not None:
            assert int(self.percpu()) > 0

    def assert_freed(self):
        """Every instance added is freed: the charge back to 0 bytes (the
        namespaces are dismantled by a worker: waits for it), or no
        object of tern.ko in a kmemleak scan."""
        if self.path is not None:
            wait_until(lambda: self.percpu() == "0", 60)
            return
        time.sleep(6)           # kmemleak reports objects 5 s old
        with open(KMEMLEAK, "w") as f:
            f.write("scan")
        with open(KMEMLEAK) as f:
            leaks = f.read()
        assert "[tern]" not in leaks, leaks

    def close(self):
        if self.path is not None:
            os.rmdir(self.path)


@pytest.fixture
def charged():
    c = Charged("tern-lifetime")
    try:
        yield c
    finally:
        c.close()


class Rig(PktgenRig):
    """src (pktgen, both families) -- xl (SIIT instance "t")."""

    PREFIX = "lt"
    INSTANCE = "t"
    NEIGH6 = H6_LINK
    ROUTES = ("route add %s/120 via %s dev v6" % (embed("198.51.100.0"),
                                                  H6_LINK),)
    # Before `tern instance add`: Charged.prefix
    cli_prefix = ()

    def add_instance(self):
        cli_ok(self.xl, "instance", "add", "t", "--siit", "--pool6", POOL6,
               prefix=self.cli_prefix)


@pytest.fixture
def rig():
    r = Rig()
    try:
        yield r
    finally:
        r.close()


def namespace_round(rig, charged, pktgen):
    """RIG's xl added with traffic both ways (a new PKTGEN: new veth pairs
    each time), then its namespace deleted with its veth ends."""
    rig.add_xl()
    charged.assert_live()
    rig.pg = pktgen(rig.src)
    rig.pg.start()
    rig.wait_both_ways()
    name = rig.xl.name
    rig.xl.delete()     # the namespace goes with its veth ends
    rig.xl = None
    rig.pg.stop()
    rig.pg = None
    # The instance is gone with its namespace: nothing holds it.
    assert not os.path.exists(os.path.join(ternlib.NETNS_RUN_DIR, name))


def all_freed(charged, fresh_name):
    """Namespaces are dismantled by a worker: wait for it, then check that
    the instances were freed and a new namespace starts empty."""
    charged.assert_freed()
    fresh = Netns(fresh_name)
    try:
        assert fresh_instances(fresh) == []
    finally:
        fresh.delete()


def test_instance_removed_and_added_under_traffic(rig):
    rig.add_xl()
    rig.pg = Pktgen(rig.src)
    rig.pg.start()
    rig.wait_both_ways()
    for _ in range(8):
        cli_ok(rig.xl, "instance", "remove", "t")
        assert fresh_instances(rig.xl) == []
        cli_ok(rig.xl, "instance", "add", "t", "--siit", "--pool6", POOL6)
        rig.wait_both_ways()


def test_namespace_deleted_under_traffic(rig, charged):
    """Each instance is freed with its namespace: the memory charged for
    it is returned (or kmemleak finds none of it left). Six rounds, two on
    the debug kernel (each costs half a minute of namespace setup there)."""
    rig.cli_prefix = charged.prefix
    for _ in range(2 if DEBUG_KERNEL else 6):
        namespace_round(rig, charged, Pktgen)
    all_freed(charged, "lt-fresh")


def test_namespaces_deleted_in_a_batch(charged):
    """Namespaces die in batches (containers by the hundred): the kernel
    runs every pre-exit of a batch, one grace period, then every exit.
    Twelve namespaces (two on the debug kernel, where each costs half a
    minute of set-up), each with a SIIT netfilter instance and a NAT64
    iptables instance under a TERN rule with a static BIB entry, deleted
    one right after the other: every
    instance is freed (the memory charged for them back to 0 bytes, or
    kmemleak finds none of it) and a new namespace starts empty."""
    spaces = []
    try:
        for _ in range(2 if DEBUG_KERNEL else 12):
            ns = Netns("bt")
            spaces.append(ns)
            cli_ok(ns, "instance", "add", "s", "--siit", "--pool6", POOL6,
                   prefix=charged.prefix)
            cli_ok(ns, "instance", "add", "n", "--nat64", "--iptables",
                   "--pool6", POOL6, prefix=charged.prefix)
            cli_ok(ns, "-i", "n", "pool4", "add", RIG_POOL4, RIG_PORTS,
                   "--udp")
            cli_ok(ns, "-i", "n", "bib", "add", CLIENT + "#2000",
                   RIG_POOL4 + "#2000", "--udp")
            ipt(ns, "iptables-legacy", "-t", "mangle", "-A", "PREROUTING",
                "-j", "TERN", "--instance", "n")
            assert {i["name"]: (i["framework"], i["rules"])
                    for i in cli_json(ns, "instance", "list")} == \
                {"s": ("netfilter", 0), "n": ("iptables", 1)}
        charged.assert_live()
        while spaces:
            spaces.pop().delete()
    finally:
        for ns in spaces:
            ns.delete()
    all_freed(charged, "bt-fresh")


# --- The same under NAT64 traffic ------------------------------------------

RIG_POOL4 = "198.51.100.20"
RIG_PORTS = "1024-5119"
# Rounds of removal and deletion (fewer on the debug kernel: each costs
# seconds of namespace setup there).
ROUNDS = 2 if DEBUG_KERNEL else 4


class NatPktgen(Pktgen):
    """On every CPU: UDP from CLIENT, 2,000 source ports (new sessions),
    and UDP from SINK4 to every port of RIG_POOL4's range (the ones bound
    find their session, the others none)."""

    @staticmethod
    def _conf6():
        return ["dst_mac " + XL6_MAC, "src6 " + CLIENT, "dst6 " + SINK4_6,
                "udp_src_min 10000", "udp_src_max 11999",
                "udp_dst_min 4000", "udp_dst_max 4000", "flag UDPCSUM"]

    @staticmethod
    def _conf4():
        return ["dst_mac " + XL4_MAC, "src_min " + SINK4,
                "src_max " + SINK4, "dst_min " + RIG_POOL4,
                "dst_max " + RIG_POOL4, "udp_src_min 4000",
                "udp_src_max 4000", "udp_dst_min 1024",
                "udp_dst_max 5119", "flag UDPCSUM"]


class NatRig(PktgenRig):
    """src (pktgen, both families) -- xl (NAT64 instance "n")."""

    PREFIX = "nt"
    INSTANCE = "n"
    NEIGH6 = CLIENT
    WAIT = 120
    cli_prefix = ()

    def add_instance(self):
        cli_ok(self.xl, "instance", "add", "n", "--nat64", "--pool6", POOL6,
               prefix=self.cli_prefix)
        cli_ok(self.xl, "-i", "n", "pool4", "add", RIG_POOL4, RIG_PORTS,
               "--udp")

    def start_traffic(self):
        """xl with instance "n", NatPktgen on every CPU, both directions
        translated."""
        self.add_xl()
        self.pg = NatPktgen(self.src)
        self.pg.start()
        self.wait_both_ways()

    def tables(self):
        """Instance "n"'s (sessions, BIB entries)."""
        s = cli_json(self.xl, "-i", "n", "stats")["tables"]
        return s["sessions"], s["bib-entries"]


@pytest.fixture
def nat_rig():
    r = NatRig()
    try:
        yield r
    finally:
        r.close()


def test_nat64_instance_removed_and_added_under_traffic(nat_rig):
    nat_rig.start_traffic()
    for _ in range(ROUNDS):
        assert min(nat_rig.tables()) > 0
        cli_ok(nat_rig.xl, "instance", "remove", "n")
        assert fresh_instances(nat_rig.xl) == []
        nat_rig.add_instance()
        nat_rig.wait_both_ways()


def test_nat64_namespace_deleted_under_traffic(nat_rig, charged):
    nat_rig.cli_prefix = charged.prefix
    for _ in range(ROUNDS - 1):
        namespace_round(nat_rig, charged, NatPktgen)
    all_freed(charged, "nt-fresh")


def test_nat64_pool4_removed_under_traffic(nat_rig):
    """pool4's only entry removed while sessions are made and found on
    every CPU: when the command returns, no BIB entry or session is left
    (the packets that read the old pool4 are done before the flush, and
    none can make one from the new, empty pool4); added back, both
    directions translate again. On the debug kernel KASAN and lockdep
    watch the flush racing the packets."""
    nat_rig.start_traffic()
    for _ in range(ROUNDS):
        assert min(nat_rig.tables()) > 0
        cli_ok(nat_rig.xl, "-i", "n", "pool4", "remove", RIG_POOL4,
               RIG_PORTS, "--udp")
        assert nat_rig.tables() == (0, 0)
        assert cli_json(nat_rig.xl, "-i", "n", "session", "list", "--udp",
                        changing=True) == []
        cli_ok(nat_rig.xl, "-i", "n", "pool4", "add", RIG_POOL4, RIG_PORTS,
               "--udp")
        nat_rig.wait_both_ways()


def _module_path():
    rel = os.uname().release
    return str(ternlib.REPO / ".build" / rel / "mod" / "tern.ko")


def test_rmmod_under_traffic(rig):
    """The last test of the file: unloads the module with an instance
    translating on every CPU, then loads it again (test/in-vm.sh unloads it
    at the end)."""
    ko = _module_path()
    assert os.path.exists(ko), ko
    rig.add_xl()
    rig.pg = Pktgen(rig.src)
    rig.pg.start()
    rig.wait_both_ways()
    ternlib._genl_socks.clear()
    r = subprocess.run(["rmmod", "tern"], capture_output=True, text=True,
                       timeout=120)
    loaded = subprocess.run(["insmod", ko], capture_output=True, text=True,
                            timeout=120)
    assert r.returncode == 0, r.stderr
    assert loaded.returncode == 0, loaded.stderr
    # The namespace survived; its instance did not.
    assert fresh_instances(rig.xl) == []
    rig.pg.stop()
