"""Lifetimes under traffic (issue 10, item 1): an instance removed and added
again, a namespace deleted, and the module unloaded while packets run
through Tern's hooks on every CPU.

pktgen threads (one per CPU) send IPv6 and IPv4 packets into a translator
namespace; the translated packets go back to the sender, which drops them.
nf_unregister_net_hooks() does not wait for packets already inside a hook:
freeing what they read without a grace period is a use-after-free that
KASAN reports on the debug kernel (and the kernel log check fails the
test). Each step also asserts the state it leaves: no instance, or one
that translates again.
"""

import os
import subprocess
import threading
import time

import pytest

import ternlib
from ternlib import (H4, H4_MAC, H6, H6_LINK, H6_MAC, POOL6, SINK4, SINK4_6,
                     SINK6_4, XL4, XL4_MAC, XL6, XL6_MAC, Netns, cli_ok, embed,
                     genl_in, kstats)

CPUS = os.cpu_count() or 1
# Between two packets of one pktgen thread: keeps the emulated CPUs able
# to run the test itself (the debug kernel, KASAN and all, is ten times
# slower: its release has no Debian flavour suffix).
DEBUG_KERNEL = not os.uname().release.endswith("-amd64")
DELAY_NS = 4000000 if DEBUG_KERNEL else 200000


def _pg_write(ns, path, line):
    with ternlib.in_netns(str(ns)):
        with open(path, "w") as f:
            f.write(line + "\n")


class Pktgen:
    """pktgen in namespace NS: on every CPU, IPv6 packets on ETH6 toward
    pool6 and IPv4 packets on ETH4 toward a pool6-mapped IPv4 address."""

    def __init__(self, ns):
        self.ns = ns
        self.thread = None
        base = "/proc/net/pktgen/"
        _pg_write(ns, base + "pgctrl", "reset")
        for cpu in range(CPUS):
            kt = base + "kpktgend_%d" % cpu
            _pg_write(ns, kt, "rem_device_all")
            for dev, conf in (("eth6", self._conf6), ("eth4", self._conf4)):
                name = "%s@%d" % (dev, cpu)
                _pg_write(ns, kt, "add_device " + name)
                for line in ["count 0", "clone_skb 0", "pkt_size 96",
                             "delay %d" % DELAY_NS] + conf():
                    _pg_write(ns, base + name, line)

    @staticmethod
    def _conf6():
        return ["dst_mac " + XL6_MAC, "src6 " + H6, "dst6 " + SINK4_6,
                "udp_src_min 9", "udp_src_max 99"]

    @staticmethod
    def _conf4():
        # IPv4 UDP without a checksum would be dropped (drop-udp-csum0).
        return ["dst_mac " + XL4_MAC, "src_min " + H4, "src_max " + H4,
                "dst_min " + SINK6_4, "dst_max " + SINK6_4,
                "udp_src_min 9", "udp_src_max 99", "flag UDPCSUM"]

    def start(self):
        # "start" returns when the threads stop.
        self.thread = threading.Thread(
            target=_pg_write, args=(self.ns, "/proc/net/pktgen/pgctrl",
                                    "start"), daemon=True)
        self.thread.start()

    def stop(self):
        if self.thread is None:
            return
        try:
            _pg_write(self.ns, "/proc/net/pktgen/pgctrl", "stop")
        except OSError:
            pass
        self.thread.join(30)
        self.thread = None


class Rig:
    """src (pktgen, both families) -- xl (instance "t")."""

    def __init__(self):
        self.src = Netns("lt-src")
        self.xl = None
        self.pg = None

    def add_xl(self):
        """A new translator namespace wired to src, with instance t."""
        self.xl = xl = Netns("lt-xl")
        src = self.src
        src.sysctl({"net/ipv4/ip_forward": 0,
                    "net/ipv6/conf/all/forwarding": 0,
                    "net/ipv6/conf/all/accept_dad": 0,
                    "net/ipv6/conf/default/accept_dad": 0})
        xl.sysctl({"net/ipv4/ip_forward": 1,
                   "net/ipv6/conf/all/forwarding": 1,
                   "net/ipv6/conf/all/accept_dad": 0,
                   "net/ipv6/conf/default/accept_dad": 0})
        for dev, mac, peer, pmac in (("eth6", H6_MAC, "v6", XL6_MAC),
                                     ("eth4", H4_MAC, "v4", XL4_MAC)):
            ternlib.run(["ip", "link", "add", dev, "netns", src.name,
                         "address", mac, "type", "veth", "peer", "name",
                         peer, "netns", xl.name, "address", pmac])
        xl.ip_batch([
            "link set lo up",
            "addr add %s/64 dev v6 nodad" % XL6,
            "addr add %s/24 dev v4" % XL4,
            "neigh replace %s lladdr %s dev v6 nud permanent" % (H6_LINK,
                                                                 H6_MAC),
            "neigh replace %s lladdr %s dev v4 nud permanent" % (SINK4,
                                                                 H4_MAC),
            "link set v6 up",
            "link set v4 up",
            "route add %s/120 via %s dev v6" % (embed("198.51.100.0"),
                                                 H6_LINK),
        ])
        src.ip_batch(["link set lo up", "link set eth6 up",
                      "link set eth4 up"])
        cli_ok(xl, "instance", "add", "t", "--siit", "--pool6", POOL6)

    def translated(self):
        s = kstats(self.xl, "t")
        return s["xlat-6to4"], s["xlat-4to6"]

    def wait_both_ways(self, timeout=60):
        """Waits until both directions are being translated."""
        a = self.translated()
        deadline = time.monotonic() + timeout
        while True:
            b = self.translated()
            if b[0] > a[0] and b[1] > a[1]:
                return b
            assert time.monotonic() < deadline, \
                "no traffic translated both ways: %s -> %s" % (a, b)
            time.sleep(0.2)

    def close(self):
        if self.pg:
            self.pg.stop()
        for n in (self.xl, self.src):
            if n is not None:
                n.delete()


@pytest.fixture
def rig():
    r = Rig()
    try:
        yield r
    finally:
        r.close()


def _instances(ns):
    g = genl_in(ns)
    try:
        return g.instances()
    finally:
        g.close()


def test_instance_removed_and_added_under_traffic(rig):
    rig.add_xl()
    rig.pg = Pktgen(rig.src)
    rig.pg.start()
    rig.wait_both_ways()
    for _ in range(8):
        cli_ok(rig.xl, "instance", "remove", "t")
        assert _instances(rig.xl) == []
        cli_ok(rig.xl, "instance", "add", "t", "--siit", "--pool6", POOL6)
        rig.wait_both_ways()


def test_namespace_deleted_under_traffic(rig):
    for _ in range(6):
        rig.add_xl()
        # New veth pairs each time: pktgen set up anew.
        rig.pg = Pktgen(rig.src)
        rig.pg.start()
        rig.wait_both_ways()
        name = rig.xl.name
        rig.xl.delete()     # the namespace goes with its veth ends
        rig.xl = None
        rig.pg.stop()
        rig.pg = None
        # The instance is gone with its namespace: nothing holds it.
        assert not os.path.exists(os.path.join(ternlib.NETNS_RUN_DIR, name))
    # Namespaces are dismantled by a worker: wait for it, then check that
    # a new namespace starts empty and the module has no user left.
    deadline = time.monotonic() + 60
    while True:
        with open("/sys/module/tern/refcnt") as f:
            refs = int(f.read())
        if refs == 0:
            break
        assert time.monotonic() < deadline, "tern.ko refcnt %d" % refs
        time.sleep(0.5)
    fresh = Netns("lt-fresh")
    try:
        assert _instances(fresh) == []
    finally:
        fresh.delete()


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
    assert _instances(rig.xl) == []
    rig.pg.stop()
