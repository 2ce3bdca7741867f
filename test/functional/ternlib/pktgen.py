"""pktgen under a translator namespace made and unmade at will.

PktgenRig wires a sender namespace src to a translator namespace xl (eth6
-- v6, eth4 -- v4, the MACs of the standard topology) and Pktgen sends
from src, on every CPU, IPv6 packets on eth6 and IPv4 packets on eth4;
the translated packets go back to src, which drops them. Lifetime tests
(test_lifetime.py, SIIT and NAT64) remove the instance, delete xl
or unload the module while the packets run through Tern's hooks.
"""

import os
import threading
import time

from .commands import kstats, run
from .names import (DEBUG_KERNEL, H4, H4_MAC, H6, H6_MAC, SINK4, SINK4_6,
                    SINK6_4, XL4,
                    XL4_MAC, XL6, XL6_MAC)
from .netns import Netns
from .nsenter import genl_in, in_netns

CPUS = os.cpu_count() or 1
# Between two packets of one pktgen thread: keeps the emulated CPUs able
# to run the test itself. The debug kernel (KASAN and all: its release has
# no Debian flavour suffix) is ten times slower, and its CPU must not be
# saturated: kmemleak frees every object it tracks through call_rcu(), so
# each packet queues RCU callbacks; a pktgen thread behind its schedule
# sends without sleeping, and a saturated CPU invoked the callbacks slower
# than packets queued them (a backlog of 11.6k and growing at 4 ms in a
# 1-vCPU guest). A synchronize_rcu() waits for the callbacks queued before
# its own: an instance removal under that traffic waited more than 180 s
# on a loaded host, and returned once pktgen stopped.
DELAY_NS = 20000000 if DEBUG_KERNEL else 200000
PGDIR = "/proc/net/pktgen/"


def _pg_write(ns, path, line):
    with in_netns(str(ns)):
        with open(path, "w") as f:
            f.write(line + "\n")


def _pg_clear(ns, kt, sentinel):
    """Removes every device of pktgen thread KT, and returns once the
    thread has: "rem_device_all" only sets a flag, which the thread reads
    when it next wakes (every 100 ms, later on a busy emulated CPU), and a
    device added before that would be removed with the others. SENTINEL, a
    device added first, is gone when the thread has done it."""
    _pg_write(ns, kt, "add_device " + sentinel)
    _pg_write(ns, kt, "rem_device_all")
    deadline = time.monotonic() + 60
    while True:
        with in_netns(str(ns)):
            with open(kt) as f:
                devices = f.read().split()
        if sentinel not in devices:
            return
        assert time.monotonic() < deadline, \
            "pktgen thread %s did not remove its devices" % kt
        time.sleep(0.05)


class Pktgen:
    """pktgen in namespace NS: on every CPU, the IPv6 packets of _conf6()
    on eth6 and the IPv4 packets of _conf4() on eth4 (by default UDP from
    H6 toward pool6 and from H4 toward a pool6-mapped IPv4 address)."""

    def __init__(self, ns):
        self.ns = ns
        self.thread = None
        for cpu in range(CPUS):
            kt = PGDIR + "kpktgend_%d" % cpu
            _pg_clear(ns, kt, "eth4@s%d" % cpu)
            for dev, conf in (("eth6", self._conf6), ("eth4", self._conf4)):
                name = "%s@%d" % (dev, cpu)
                _pg_write(ns, kt, "add_device " + name)
                for line in ["count 0", "clone_skb 0", "pkt_size 96",
                             "delay %d" % DELAY_NS] + conf():
                    _pg_write(ns, PGDIR + name, line)

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
            target=_pg_write, args=(self.ns, PGDIR + "pgctrl", "start"),
            daemon=True)
        self.thread.start()

    def stop(self):
        if self.thread is None:
            return
        try:
            _pg_write(self.ns, PGDIR + "pgctrl", "stop")
        except OSError:
            pass
        self.thread.join(30)
        self.thread = None


class PktgenRig:
    """src (pktgen, both families) -- xl (one instance, INSTANCE).

    A subclass names its namespaces (PREFIX-src, PREFIX-xl), the IPv6
    neighbour xl knows on v6 (NEIGH6), the routes xl adds (ROUTES) and
    how the instance is added (add_instance()); WAIT is how long
    wait_both_ways() waits, in seconds."""

    PREFIX = None
    INSTANCE = None
    NEIGH6 = None
    ROUTES = ()
    WAIT = 60

    def __init__(self):
        self.src = Netns(self.PREFIX + "-src")
        self.xl = None
        self.pg = None

    def add_xl(self):
        """A new translator namespace wired to src, with the instance."""
        self.xl = xl = Netns(self.PREFIX + "-xl")
        quiet = {"net/ipv6/conf/all/accept_dad": 0,
                 "net/ipv6/conf/default/accept_dad": 0}
        self.src.sysctl(dict(quiet, **{"net/ipv4/ip_forward": 0,
                                       "net/ipv6/conf/all/forwarding": 0}))
        xl.sysctl(dict(quiet, **{"net/ipv4/ip_forward": 1,
                                 "net/ipv6/conf/all/forwarding": 1}))
        for dev, mac, peer, pmac in (("eth6", H6_MAC, "v6", XL6_MAC),
                                     ("eth4", H4_MAC, "v4", XL4_MAC)):
            run(["ip", "link", "add", dev, "netns", self.src.name,
                 "address", mac, "type", "veth", "peer", "name", peer,
                 "netns", xl.name, "address", pmac])
        xl.ip_batch([
            "link set lo up",
            "addr add %s/64 dev v6 nodad" % XL6,
            "addr add %s/24 dev v4" % XL4,
            "neigh replace %s lladdr %s dev v6 nud permanent" % (
                self.NEIGH6, H6_MAC),
            "neigh replace %s lladdr %s dev v4 nud permanent" % (SINK4,
                                                                 H4_MAC),
            "link set v6 up",
            "link set v4 up",
        ] + list(self.ROUTES))
        self.src.ip_batch(["link set lo up", "link set eth6 up",
                           "link set eth4 up"])
        self.add_instance()

    def add_instance(self):
        raise NotImplementedError

    def translated(self):
        s = kstats(self.xl, self.INSTANCE)
        return s["xlat-6to4"], s["xlat-4to6"]

    def wait_both_ways(self):
        """Waits until both directions are being translated."""
        a = self.translated()
        deadline = time.monotonic() + self.WAIT
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


def fresh_instances(ns):
    """The instances of namespace NS, read over a socket of its own (not
    the cached one, which a module unload leaves dead)."""
    g = genl_in(ns)
    try:
        return g.instances()
    finally:
        g.close()
