"""Network namespaces as objects, and what the tests read or set in one.

Netns is a named namespace (made and entered through nsenter.py) with
shortcuts for ip, sysctl, sockets and the CLI in it. The rest reads or
sets a namespace's kernel state: transmit checksum offload, MTU, link
statistics, /proc/net/snmp and snmp6.
"""

import ctypes
import fcntl
import json
import socket
import struct
import subprocess
import time

from .commands import cli, run
from .frames import ETH_P_ALL
from .names import TIMEOUT
from .nsenter import _genl_forget, _netns_add, _netns_del, in_netns, \
    unique_name


class Netns:
    """A named network namespace (`ip netns add`)."""

    def __init__(self, role):
        self.name = unique_name(role)
        _netns_add(self.name)

    def __str__(self):
        return self.name

    def delete(self):
        _genl_forget(self.name)
        _netns_del(self.name)

    def exec(self, *cmd, check=True, timeout=60):
        return run(["ip", "netns", "exec", self.name] + [str(c) for c in cmd],
                   check=check, timeout=timeout)

    def popen(self, *cmd, **kw):
        return subprocess.Popen(["ip", "netns", "exec", self.name]
                                + [str(c) for c in cmd], **kw)

    def ip(self, *args, check=True):
        return run(["ip", "-n", self.name] + [str(a) for a in args],
                   check=check)

    def ip_batch(self, lines):
        run(["ip", "-n", self.name, "-batch", "-"], input="\n".join(lines)
            + "\n")

    def sysctl(self, settings):
        """Writes {"net/ipv6/conf/all/forwarding": 1, ...} in this ns."""
        with in_netns(self.name):
            for key, value in settings.items():
                with open("/proc/sys/" + key, "w") as f:
                    f.write("%s\n" % value)

    def socket(self, *args):
        with in_netns(self.name):
            return socket.socket(*args)

    def packet_socket(self, iface):
        """AF_PACKET socket on IFACE that receives every frame from now on."""
        with in_netns(self.name):
            s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
        s.bind((iface, ETH_P_ALL))
        return s

    def tern(self, *args, **kw):
        return cli(self.name, *args, **kw)


SIOCETHTOOL = 0x8946
ETHTOOL_GTXCSUM, ETHTOOL_STXCSUM = 0x16, 0x17


def tx_checksum(ns, iface, on=None):
    """Reads, or sets if ON is given, IFACE's transmit checksum offload
    (`ethtool -K IFACE tx on|off`, without needing ethtool)."""
    cmd = ETHTOOL_GTXCSUM if on is None else ETHTOOL_STXCSUM
    ev = ctypes.create_string_buffer(struct.pack("II", cmd, 1 if on else 0),
                                     8)
    ifr = struct.pack("16sP16x", iface.encode(), ctypes.addressof(ev))
    with in_netns(str(ns)):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        fcntl.ioctl(s, SIOCETHTOOL, ifr)
    finally:
        s.close()
    return bool(struct.unpack("II", ev.raw)[1])


def set_mtu(topo, ns, dev, mtu):
    """Sets DEV's MTU in NS for the rest of the test (put back to 1500)."""
    ns.ip("link", "set", dev, "mtu", str(mtu))
    topo.defer(lambda: ns.ip("link", "set", dev, "mtu", "1500",
                             check=False))


def link_stats(ns, dev):
    """{"rx_packets", "rx_bytes", "tx_packets", "tx_bytes"} of DEV in NS."""
    out = json.loads(Netns.exec(ns, "ip", "-j", "-s", "link", "show",
                                "dev", dev).out)[0]
    s = out["stats64"]
    return {"rx_packets": s["rx"]["packets"], "rx_bytes": s["rx"]["bytes"],
            "tx_packets": s["tx"]["packets"], "tx_bytes": s["tx"]["bytes"]}


# ---------------------------------------------------------------------------
# The kernel's own counters of a namespace (/proc/net/snmp, snmp6).

def snmp6(ns, name):
    """A counter of /proc/net/snmp6 in NS (e.g. Ip6OutNoRoutes)."""
    with open("/proc/net/snmp6") if ns is None else _ns_open(ns, "snmp6") \
            as f:
        for line in f:
            k, v = line.split()
            if k == name:
                return int(v)
    raise KeyError(name)


def _ns_open(ns, what):
    with in_netns(str(ns)):
        return open("/proc/self/net/" + what)


def wait_snmp6(ns, name, at_least, timeout=None):
    """Waits until snmp6 counter NAME of NS reaches AT_LEAST."""
    deadline = time.monotonic() + (TIMEOUT if timeout is None else timeout)
    while True:
        v = snmp6(ns, name)
        if v >= at_least:
            return v
        assert time.monotonic() < deadline, \
            "%s in %s: %d, expected at least %d" % (name, ns, v, at_least)
        time.sleep(0.1)


def snmp(ns, proto="Tcp"):
    """The PROTO line pair of /proc/net/snmp in NS as a dict."""
    out = Netns.exec(ns, "cat", "/proc/net/snmp").out
    rows = [line.split()[1:] for line in out.splitlines()
            if line.startswith(proto + ":")]
    return dict(zip(rows[0], (int(v) for v in rows[1])))
