"""Helpers for Tern's functional tests.

Network namespaces, raw frames in and out of them, the tern CLI, counters
and checksums. The tests run as root under Debian's /usr/bin/python3 (with
python3-scapy), inside a VM whose kernel has tern.ko loaded.

Frames are sent and captured from this process: it enters a namespace with
setns(2) just long enough to open an AF_PACKET socket there (a socket stays
in the namespace it was created in), so no per-packet process is started and
a capture is listening as soon as its socket exists. TcpdumpCapture is the
same thing done with tcpdump, for the self-check and for debugging.
"""

import contextlib
import ctypes
import fcntl
import hashlib
import ipaddress
import json
import os
import re
import select
import shlex
import signal
import socket
import struct
import subprocess
import threading
import time
from collections import namedtuple
from pathlib import Path

from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Ether
from scapy.packet import Raw
from scapy.utils import rdpcap

import genl

REPO = Path(__file__).resolve().parents[2]
TERN = os.environ.get("TERN") or str(REPO / "usr" / "cli" / "tern")
NAMES_HEADER = REPO / "include" / "tern_names.h"
GLOBALS_HEADER = REPO / "include" / "tern_globals.h"

# Seconds to wait for a frame that should arrive, and for one that should not.
TIMEOUT = float(os.environ.get("TERN_TEST_TIMEOUT", "8"))
QUIET = float(os.environ.get("TERN_TEST_QUIET", "0.6"))

# ---------------------------------------------------------------------------
# The API header: counter names and global keys, as the CLI prints them.


def _names_table(table):
    """Returns the entries of a table of include/tern_names.h as tuples
    of its quoted strings and its last (enum) field."""
    text = NAMES_HEADER.read_text()
    body = text[text.index(table + "[] = {"):]
    body = body[:body.index("};")]
    return re.findall(r'\{\s*((?:"[^"]*",\s*)+)(\w+)(?:,\s*(\w+))?\s*\}', body)


def _strings(group):
    return re.findall(r'"([^"]*)"', group)


STAT_NAMES = [_strings(e[0])[0] for e in _names_table("tern_stat_names")]
STAT_ENUMS = [(_strings(e[0])[0], e[1])
              for e in _names_table("tern_stat_names")]


def _globals_table():
    """The settings of include/tern_globals.h: {key: kind}, in order."""
    text = GLOBALS_HEADER.read_text()
    body = text[text.index("tern_globals[] = {"):]
    body = body[:body.index("};")]
    return {key: kind for key, kind in re.findall(
        r'\.key = "([^"]+)".*?\.kind = TERN_KIND_(\w+)', body, re.S)}


GLOBAL_KINDS = _globals_table()

# ---------------------------------------------------------------------------
# Addresses of the standard topology (see Topology).

POOL6 = "2001:db8:64::/96"
H6_MAC, XL6_MAC = "02:00:00:00:06:02", "02:00:00:00:06:01"
XL4_MAC, H4_MAC = "02:00:00:00:04:01", "02:00:00:00:04:02"
H6_LINK, XL6 = "2001:db8:6::2", "2001:db8:6::1"
XL4, H4 = "203.0.113.1", "203.0.113.2"
H6_4 = "198.51.100.2"          # the IPv6 host as IPv4 hosts see it
SINK4 = "203.0.113.99"         # on the IPv4 link, nobody's: h4 drops it
SINK6_4 = "198.51.100.99"      # routed to h6, not its own: h6 drops it


def embed(addr4, pool=POOL6):
    """RFC 6052 address of ADDR4 under POOL (any of the six lengths)."""
    net = ipaddress.IPv6Network(pool)
    v4 = ipaddress.IPv4Address(addr4).packed
    p = bytearray(net.network_address.packed)
    n = net.prefixlen // 8
    if n == 12:
        p[12:16] = v4
    else:
        # Bits 64-71 (byte 8) are the u-octet and stay zero.
        octets = list(v4)
        pos = n
        for b in octets:
            if pos == 8:
                pos += 1
            p[pos] = b
            pos += 1
    return str(ipaddress.IPv6Address(bytes(p)))


H6 = embed(H6_4)               # 2001:db8:64::c633:6402, h6's own
H4_6 = embed(H4)               # 2001:db8:64::cb00:7102, h4 as h6 sees it
SINK4_6 = embed(SINK4)         # 2001:db8:64::cb00:7163
SINK6 = embed(SINK6_4)         # 2001:db8:64::c633:6463

# ---------------------------------------------------------------------------
# Processes.

Result = namedtuple("Result", "rc out err")


def run(cmd, check=True, timeout=60, input=None, env=None):
    """Runs CMD (a list); returns Result. Raises on failure if CHECK."""
    p = subprocess.run(cmd, input=input, capture_output=True, text=True,
                       timeout=timeout, env=env)
    r = Result(p.returncode, p.stdout, p.stderr)
    if check and r.rc != 0:
        raise AssertionError("%s: exit %d\nstdout: %s\nstderr: %s"
                             % (shlex.join(cmd), r.rc, r.out, r.err))
    return r


def module_loaded():
    return os.path.isdir("/sys/module/tern")


def cli(ns, *args, timeout=30, prefix=()):
    """Runs `tern ARGS` in namespace NS (None: this one); returns Result.

    Like `ip netns exec NS tern ARGS`, minus a process: the child inherits
    the namespace this thread enters for the time of the call.
    """
    cmd = list(prefix) + [TERN] + [str(a) for a in args]
    if ns is None:
        return run(cmd, check=False, timeout=timeout)
    with in_netns(str(ns)):
        return run(cmd, check=False, timeout=timeout)


def cli_ok(ns, *args, **kw):
    r = cli(ns, *args, **kw)
    assert r.rc == 0, "tern %s: exit %d, stderr %r" % (
        " ".join(map(str, args)), r.rc, r.err)
    assert r.err == "", "tern %s wrote to stderr: %r" % (
        " ".join(map(str, args)), r.err)
    return r.out


def cli_json(ns, *args):
    out = cli_ok(ns, *args, "--json")
    try:
        return json.loads(out)
    except ValueError as e:
        raise AssertionError("tern %s --json: not JSON (%s): %r"
                             % (" ".join(args), e, out))


def stats(ns, instance=None):
    pre = ("-i", instance) if instance else ()
    return cli_json(ns, *pre, "stats")


def kstats(ns, instance=None):
    """The counters of INSTANCE (None: the only one) in namespace NS as
    {name: n}, like `tern stats --json`, but read over netlink by this
    process: Counters polls them, and a CLI run per poll is slow on the
    debug kernel. test_cli.py checks that both agree."""
    raw = _genl(str(ns)).stats(instance)
    return {name: raw.get(genl.STAT[enum], 0) for name, enum in STAT_ENUMS}


def remove_instances(ns):
    """Removes every instance of namespace NS (over netlink)."""
    g = _genl(str(ns))
    for name in g.instances():
        g.instance_del(name)
    assert g.instances() == []


def globals_(ns, instance=None):
    pre = ("-i", instance) if instance else ()
    return cli_json(ns, *pre, "global", "show")


def instances(ns):
    return cli_json(ns, "instance", "list")


def assert_error(r, rc, *words):
    """A refusal: exit RC (1: refused by the kernel, 2: usage error), one
    `tern: ` line naming WORDS."""
    assert rc in (1, 2)
    assert r.rc == rc, "exit %d, expected %d; stderr %r" % (r.rc, rc, r.err)
    lines = r.err.splitlines()
    assert len(lines) == 1, "expected one line on stderr, got %r" % r.err
    assert lines[0].startswith("tern: "), lines[0]
    for w in words:
        assert re.search(w, lines[0], re.I), \
            "stderr %r does not match %r" % (lines[0], w)
    return lines[0]


# ---------------------------------------------------------------------------
# Network namespaces.

_libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNET = 0x40000000


def _setns(fd):
    if _libc.setns(fd, CLONE_NEWNET) != 0:
        e = ctypes.get_errno()
        raise OSError(e, "setns: " + os.strerror(e))


@contextlib.contextmanager
def in_netns(name):
    """Runs the block (this thread only) inside network namespace NAME."""
    own = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    try:
        target = os.open("/run/netns/%s" % name, os.O_RDONLY)
        try:
            _setns(target)
            try:
                yield
            finally:
                _setns(own)
        finally:
            os.close(target)
    finally:
        os.close(own)


# One generic netlink socket per namespace, opened on first use (a socket
# stays in the namespace it was created in) and closed with it.
_genl_socks = {}


def genl_in(ns):
    """A new genl.Genl socket in namespace NS (the caller closes it)."""
    with in_netns(str(ns)):
        return genl.Genl()


def _genl(name):
    g = _genl_socks.get(name)
    if g is None:
        g = _genl_socks[name] = genl_in(name)
    return g


def _genl_forget(name):
    g = _genl_socks.pop(name, None)
    if g is not None:
        g.close()


MS_BIND, MNT_DETACH = 0x1000, 2
NETNS_RUN_DIR = "/run/netns"


def _libc_check(ret, what):
    if ret != 0:
        e = ctypes.get_errno()
        raise OSError(e, "%s: %s" % (what, os.strerror(e)))


def _netns_add(name):
    """`ip netns add NAME` without starting ip: a new namespace (this
    thread unshares, then goes back) bind-mounted on /run/netns/NAME."""
    os.makedirs(NETNS_RUN_DIR, exist_ok=True)
    path = os.path.join(NETNS_RUN_DIR, name)
    os.close(os.open(path, os.O_RDONLY | os.O_CREAT | os.O_EXCL, 0))
    own = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    try:
        _libc_check(_libc.unshare(CLONE_NEWNET), "unshare")
        try:
            _libc_check(_libc.mount(b"/proc/thread-self/ns/net",
                                    path.encode(), None, MS_BIND, None),
                        "mount " + path)
        finally:
            _setns(own)
    except BaseException:
        os.unlink(path)
        raise
    finally:
        os.close(own)


def _netns_del(name):
    """`ip netns del NAME`: the namespace goes once nothing uses it."""
    path = os.path.join(NETNS_RUN_DIR, name)
    _libc.umount2(path.encode(), MNT_DETACH)
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


_ns_seq = 0


def unique_name(role):
    global _ns_seq
    _ns_seq += 1
    return "tern-%s-%d-%d" % (role, os.getpid(), _ns_seq)


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


ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4
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


class Sender:
    """Sends raw Ethernet frames out of IFACE in namespace NS."""

    def __init__(self, ns, iface, src_mac):
        with in_netns(str(ns)):
            self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
        self.sock.bind((iface, 0))
        self.src_mac = src_mac

    def send(self, pkt, dst_mac):
        """PKT: an IP/IPv6 scapy packet (or bytes of one) or an Ether frame."""
        if isinstance(pkt, Ether):
            frame = pkt
        else:
            if isinstance(pkt, (bytes, bytearray)):
                ver = pkt[0] >> 4
                etype = 0x86DD if ver == 6 else 0x0800
                frame = Ether(src=self.src_mac, dst=dst_mac, type=etype) / \
                    bytes(pkt)
            else:
                frame = Ether(src=self.src_mac, dst=dst_mac) / pkt
        self.sock.send(bytes(frame))

    def close(self):
        self.sock.close()


# ---------------------------------------------------------------------------
# Captures.


def _describe(frames, limit=12):
    if not frames:
        return "  (nothing captured)"
    out = ["  " + f.summary() for f in frames[:limit]]
    if len(frames) > limit:
        out.append("  ... %d more" % (len(frames) - limit))
    return "\n".join(out)


class Capture:
    """Frames arriving on IFACE in NS (AF_PACKET), from __enter__ on.

    match(frame) -> bool selects the frames a test is about; everything else
    (stray multicast, frames the host sends) is ignored.
    """

    def __init__(self, ns, iface, outgoing=False, context=None):
        self.ns, self.iface, self.outgoing = str(ns), iface, outgoing
        self.context = context      # () -> str, added to failure messages
        self.frames = []
        self.sock = None

    def _fail(self, msg):
        if self.context is not None:
            try:
                msg += "\n" + self.context()
            except Exception as e:
                msg += "\n(context unavailable: %s)" % e
        raise AssertionError(msg)

    def __enter__(self):
        with in_netns(self.ns):
            self.sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
        # SO_RCVBUFFORCE: beyond net.core.rmem_max (we are root).
        self.sock.setsockopt(socket.SOL_SOCKET, 33, 8 << 20)
        self.sock.bind((self.iface, ETH_P_ALL))
        self.sock.setblocking(False)
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.sock is not None:
            self._drain(0)
            self.sock.close()
            self.sock = None

    def _drain(self, timeout):
        """Reads what is queued, waiting at most TIMEOUT for the first."""
        if self.sock is None:
            return
        r, _, _ = select.select([self.sock], [], [], max(timeout, 0))
        while r:
            try:
                data, addr = self.sock.recvfrom(65535)
            except BlockingIOError:
                break
            if addr[0] != self.iface:
                continue
            if addr[2] == PACKET_OUTGOING and not self.outgoing:
                continue
            self.frames.append(Ether(data))

    def matching(self, match):
        return [f for f in self.frames if match(f)]

    def wait(self, match, count=1, timeout=None):
        """Waits until COUNT frames satisfy MATCH; returns them."""
        deadline = time.monotonic() + (TIMEOUT if timeout is None
                                       else timeout)
        while True:
            got = self.matching(match)
            if len(got) >= count:
                return got
            left = deadline - time.monotonic()
            if left <= 0:
                self._fail(
                    "expected %d matching frame(s) on %s/%s, got %d; "
                    "captured:\n%s" % (count, self.ns, self.iface, len(got),
                                       _describe(self.frames)))
            self._drain(min(left, 0.2))

    def one(self, match, timeout=None):
        """Waits for a matching frame; also checks no second one follows."""
        got = self.wait(match, 1, timeout)
        self._drain(0.1)
        got = self.matching(match)
        if len(got) != 1:
            self._fail("expected one frame, got %d:\n%s" % (
                len(got), _describe(got)))
        return got[0]

    def settle(self, wait):
        """Keeps reading for WAIT s (stragglers of what was awaited)."""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            self._drain(deadline - time.monotonic())

    def none(self, match, proof, wait=None):
        """Checks that no frame satisfying MATCH arrives.

        PROOF() runs first, inside the capture window, and must block until
        what the test sent has been handled: the exact counter deltas
        (lambda: c.expect({...})), or the arrival of a control frame sent
        after it. Then the window stays open WAIT s more (QUIET) for a
        frame that was on its way. A check without proof could pass
        because nothing had been handled yet.
        """
        none_on(proof, (self, match), wait=wait)


def none_on(proof, *pairs, wait=None):
    """Capture.none for several (capture, match) PAIRS with one PROOF."""
    if not callable(proof):
        raise TypeError("none(): proof must be a callable that waits for "
                        "the packets to have been handled")
    proof()
    deadline = time.monotonic() + (QUIET if wait is None else wait)
    while time.monotonic() < deadline:
        for cap, _ in pairs:
            cap._drain(min(0.05, max(deadline - time.monotonic(), 0)))
    for cap, match in pairs:
        got = cap.matching(match)
        if got:
            cap._fail("expected no such frame, got:\n" + _describe(got))


class TcpdumpCapture:
    """The same as Capture, through `tcpdump -U -w` in the namespace."""

    def __init__(self, ns, iface, path, bpf="", direction="in"):
        self.ns, self.iface, self.path, self.bpf = str(ns), iface, path, bpf
        self.direction = direction
        self.proc = None

    def __enter__(self):
        cmd = ["ip", "netns", "exec", self.ns, "tcpdump", "-n", "-U",
               "-Q", self.direction, "-i", self.iface, "-w", str(self.path)
               ] + self.bpf.split()
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True)
        # tcpdump says "listening on IFACE" once its socket is bound.
        deadline = time.monotonic() + 20
        seen = ""
        while "listening on" not in seen:
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.stop()
                raise AssertionError("tcpdump did not start: %r" % seen)
            r, _, _ = select.select([self.proc.stderr], [], [], 0.2)
            if r:
                seen += self.proc.stderr.readline()
        return self

    def __exit__(self, *exc):
        self.stop()

    def stop(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def frames(self):
        try:
            return list(rdpcap(str(self.path)))
        except (FileNotFoundError, EOFError):
            return []
        except Exception:           # a partial record while tcpdump writes
            return []

    def wait(self, match, count=1, timeout=None):
        deadline = time.monotonic() + (TIMEOUT if timeout is None
                                       else timeout)
        while True:
            got = [f for f in self.frames() if match(f)]
            if len(got) >= count:
                return got
            if time.monotonic() > deadline:
                raise AssertionError("tcpdump: expected %d frame(s), got:\n%s"
                                     % (count, _describe(self.frames())))
            time.sleep(0.1)


# Frame predicates.

def is_ip4(src=None, dst=None, proto=None):
    def match(f):
        if IP not in f or f[Ether].type != 0x0800:
            return False
        ip = f[IP]
        return ((src is None or ip.src == src)
                and (dst is None or ip.dst == dst)
                and (proto is None or ip.proto == proto))
    return match


def is_ip6(src=None, dst=None, nh=None):
    def match(f):
        if IPv6 not in f or f[Ether].type != 0x86DD:
            return False
        ip = f[IPv6]
        return ((src is None or ip.src == src)
                and (dst is None or ip.dst == dst)
                and (nh is None or ip.nh == nh))
    return match


def any_ip(f):
    return Ether in f and f[Ether].type in (0x0800, 0x86DD) and \
        not (f[Ether].type == 0x86DD and IPv6 in f
             and f[IPv6].dst.startswith("ff02:"))


# ---------------------------------------------------------------------------
# Checksums, from the bytes on the wire.


def inet_csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return ~s & 0xFFFF


def ip_bytes(frame):
    """The IP packet of FRAME, without Ethernet padding."""
    raw = bytes(frame[Ether].payload)
    if raw[0] >> 4 == 4:
        return raw[:struct.unpack("!H", raw[2:4])[0]]
    return raw[:40 + struct.unpack("!H", raw[4:6])[0]]


def l4_bytes(frame):
    """The transport header and payload of FRAME (no extension headers)."""
    raw = ip_bytes(frame)
    if raw[0] >> 4 == 4:
        return raw[(raw[0] & 15) * 4:]
    return raw[40:]


def l4_payload(frame):
    """What follows the UDP/TCP/ICMP header of FRAME."""
    raw = ip_bytes(frame)
    if raw[0] >> 4 == 4:
        proto, l4 = raw[9], raw[(raw[0] & 15) * 4:]
    else:
        proto, l4 = raw[6], raw[40:]
    if proto == 6:
        return l4[(l4[12] >> 4) * 4:]
    return l4[8:]


def check_checksums(frame):
    """Asserts the IPv4 header checksum and the L4 checksum are valid.

    Checked twice: by summing the bytes on the wire (RFC 1071, with the
    pseudo-header), and by letting scapy recompute the field.
    """
    raw = ip_bytes(frame)
    if raw[0] >> 4 == 4:
        ihl = (raw[0] & 15) * 4
        assert inet_csum(raw[:ihl]) == 0, "bad IPv4 header checksum"
        proto, l4 = raw[9], raw[ihl:]
        pseudo = raw[12:20] + struct.pack("!BBH", 0, proto, len(l4))
    else:
        # Translated packets carry no extension headers.
        proto, l4 = raw[6], raw[40:]
        pseudo = raw[8:40] + struct.pack("!IxxxB", len(l4), proto)
    if proto == 1:
        assert inet_csum(l4) == 0, "bad ICMP checksum"
    elif proto in (6, 17, 58):
        if proto == 17:
            assert l4[6:8] != b"\0\0", "UDP checksum is zero"
        assert inet_csum(pseudo + l4) == 0, "bad L4 checksum (proto %d)" % proto
    # scapy's own recomputation must give the same values.
    cls = IP if raw[0] >> 4 == 4 else IPv6
    pkt = cls(raw)
    again = cls(raw)
    if cls is IP:
        del again.chksum
    layer = again.payload
    for field in ("chksum", "cksum"):
        if field in layer.fields:
            delattr(layer, field)
    again = cls(bytes(again))
    if cls is IP:
        assert again.chksum == pkt.chksum, "scapy: IPv4 header checksum"
    for field in ("chksum", "cksum"):
        if field in pkt.payload.fields:
            assert getattr(again.payload, field) == \
                getattr(pkt.payload, field), "scapy: L4 %s" % field


def udp6_checksum(src, dst, udp_bytes, nh=17):
    """L4 checksum of UDP_BYTES (checksum field zero) over IPv6 SRC, DST."""
    pseudo = (ipaddress.IPv6Address(src).packed
              + ipaddress.IPv6Address(dst).packed
              + struct.pack("!IxxxB", len(udp_bytes), nh))
    c = inet_csum(pseudo + udp_bytes)
    return c or 0xFFFF


# ---------------------------------------------------------------------------
# Packets of the standard topology and their translations.

PAYLOAD = bytes(range(256)) * 8


def udp6(n=100, sport=40000, dport=4000, src=H6, dst=SINK4_6, **kw):
    return IPv6(src=src, dst=dst, **kw) / UDP(sport=sport, dport=dport) / \
        Raw(PAYLOAD[:n])


def udp4(n=100, sport=4000, dport=40000, src=H4, dst=SINK6_4, **kw):
    return IP(src=src, dst=dst, **kw) / UDP(sport=sport, dport=dport) / \
        Raw(PAYLOAD[:n])


def xlat64(topo, pkt, match=None):
    """Sends PKT from h6; returns the one translated frame h4 receives."""
    with topo.cap4() as cap:
        topo.send6(pkt)
        return cap.one(match or is_ip4(src=H6_4, dst=SINK4))


def xlat46(topo, pkt, match=None):
    with topo.cap6() as cap:
        topo.send4(pkt)
        return cap.one(match or is_ip6(src=H4_6, dst=SINK6))


def assert_ipv4(f, **want):
    ip = f[IP]
    got = {"version": ip.version, "ihl": ip.ihl, "tos": ip.tos,
           "len": ip.len, "flags": int(ip.flags), "frag": ip.frag,
           "ttl": ip.ttl, "proto": ip.proto, "src": ip.src, "dst": ip.dst}
    want = dict({"version": 4, "ihl": 5, "flags": 0, "frag": 0}, **want)
    assert {k: got[k] for k in want} == want
    assert f[Ether].src == XL4_MAC and f[Ether].dst == H4_MAC
    check_checksums(f)


def assert_ipv6(f, **want):
    ip = f[IPv6]
    got = {"version": ip.version, "tc": ip.tc, "fl": ip.fl, "plen": ip.plen,
           "nh": ip.nh, "hlim": ip.hlim, "src": ip.src, "dst": ip.dst}
    want = dict({"version": 6, "fl": 0}, **want)
    assert {k: got[k] for k in want} == want
    assert f[Ether].src == XL6_MAC and f[Ether].dst == H6_MAC
    check_checksums(f)


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


# ---------------------------------------------------------------------------
# Counters.


class Counters:
    """Counter deltas of an instance from the time of creation."""

    def __init__(self, ns, instance=None):
        self.ns, self.instance = str(ns), instance
        self.before = kstats(self.ns, instance)

    def delta(self):
        now = kstats(self.ns, self.instance)
        assert set(now) == set(self.before)
        return {k: now[k] - self.before[k] for k in now
                if now[k] != self.before[k]}

    @contextlib.contextmanager
    def explain(self):
        """Adds the counter deltas to an assertion failing in the block."""
        try:
            yield
        except AssertionError as e:
            try:
                d = self.delta()
            except Exception as e2:      # keep the original failure
                d = "unavailable (%s)" % e2
            raise AssertionError("%s\ncounter deltas: %s" % (e, d)) from None

    def expect(self, expected, timeout=None, settle=0):
        """Waits until the deltas reach EXPECTED ({name: n}); then asserts
        they equal it exactly (every other counter unchanged).

        Call it once the packets have had their effect (the translated
        frame was captured, or a capture stayed quiet for a while), or pass
        SETTLE seconds to wait before the final reading.

        A value may be a tuple of names to mean "exactly one packet, counted
        in one of these": {("pass-local", "pass-no-mapping"): 1}.
        """
        deadline = time.monotonic() + (TIMEOUT if timeout is None
                                       else timeout)

        def reached(d):
            for k, n in expected.items():
                got = sum(d.get(x, 0) for x in k) if isinstance(k, tuple) \
                    else d.get(k, 0)
                if got < n:
                    return False
            return True

        d = self.delta()
        while not reached(d) and time.monotonic() < deadline:
            time.sleep(0.1)
            d = self.delta()
        if settle:
            time.sleep(settle)
            d = self.delta()
        want, rest = {}, dict(d)
        for k, n in expected.items():
            if isinstance(k, tuple):
                hit = {x: rest.pop(x) for x in k if x in rest}
                assert sum(hit.values()) == n and len(hit) <= 1, \
                    "expected %d in one of %s, counter deltas %s" % (n, k, d)
            else:
                want[k] = n
                rest.pop(k, None)
        for k, n in want.items():
            assert d.get(k, 0) == n, "counter %s: delta %d, expected %d " \
                "(all deltas %s)" % (k, d.get(k, 0), n, d)
        assert not rest, "unexpected counter deltas %s (expected %s)" % (
            rest, expected)
        return d


# ---------------------------------------------------------------------------
# The topology.


class Topology:
    """h6 (IPv6-only) -- xl (translator) -- h4 (IPv4-only).

      h6 eth0 2001:db8:6::2/64, 2001:db8:64::c633:6402/128 (198.51.100.2)
         route 2001:db8:64::/96 via 2001:db8:6::1
      xl v6   2001:db8:6::1/64, route 2001:db8:64::c633:6400/120 via h6
      xl v4   203.0.113.1/24
      h4 eth0 203.0.113.2/24, route 198.51.100.0/24 via 203.0.113.1

    xl's interfaces compute checksums in software (tx offload off), so the
    frames the hosts receive carry final checksums even when the translated
    packet was a CHECKSUM_PARTIAL or GSO one from a host's TCP/UDP stack:
    a wrong checksum makes the receiving host drop it.

    Neighbours are static and the hosts do not generate IPv6 noise (no
    link-local addresses, no DAD, no router solicitations; h4 has IPv6
    off), so every packet reaching xl's hooks is one a test sent.
    203.0.113.99 (SINK4) is on h4's link with h4's MAC but not h4's
    address, and 198.51.100.99 (SINK6_4) is routed to h6 but not h6's:
    frames sent there reach the capture and provoke no answer.
    """

    def __init__(self):
        self.h6 = self.xl = self.h4 = None
        self.senders = {}
        self.cleanups = []

    def build(self):
        try:
            self._build()
        except BaseException:
            self.destroy()
            raise
        return self

    def _build(self):
        self.h6, self.xl, self.h4 = Netns("h6"), Netns("xl"), Netns("h4")
        quiet6 = {"net/ipv6/conf/all/accept_dad": 0,
                  "net/ipv6/conf/default/accept_dad": 0,
                  "net/ipv6/conf/default/addr_gen_mode": 1,
                  "net/ipv6/conf/all/router_solicitations": 0,
                  "net/ipv6/conf/default/router_solicitations": 0,
                  "net/ipv6/conf/all/accept_ra": 0,
                  "net/ipv6/conf/default/accept_ra": 0}
        # Hosts do not forward, whatever new namespaces inherit from the
        # initial one (ip_forward does): h4 would send h6's IPv4 packets
        # to 198.51.100.0/24 back to xl.
        self.h6.sysctl(dict(quiet6, **{
            "net/ipv6/conf/all/forwarding": 0,
            "net/ipv4/ip_forward": 0}))
        self.xl.sysctl(dict(quiet6, **{
            "net/ipv6/conf/all/forwarding": 1,
            "net/ipv4/ip_forward": 1}))
        self.h4.sysctl({"net/ipv6/conf/all/disable_ipv6": 1,
                        "net/ipv6/conf/default/disable_ipv6": 1,
                        "net/ipv4/ip_forward": 0})
        run(["ip", "link", "add", "eth0", "netns", self.h6.name,
             "address", H6_MAC, "type", "veth", "peer", "name", "v6",
             "netns", self.xl.name, "address", XL6_MAC])
        run(["ip", "link", "add", "eth0", "netns", self.h4.name,
             "address", H4_MAC, "type", "veth", "peer", "name", "v4",
             "netns", self.xl.name, "address", XL4_MAC])
        tx_checksum(self.xl, "v6", False)
        tx_checksum(self.xl, "v4", False)
        self.xl.ip_batch([
            "link set lo up",
            "addr add %s/64 dev v6 nodad" % XL6,
            "addr add %s/24 dev v4" % XL4,
            "neigh replace %s lladdr %s dev v6 nud permanent" % (H6_LINK,
                                                                 H6_MAC),
            "neigh replace %s lladdr %s dev v4 nud permanent" % (H4, H4_MAC),
            "neigh replace %s lladdr %s dev v4 nud permanent" % (SINK4,
                                                                 H4_MAC),
            "link set v6 up",
            "link set v4 up",
            "route add %s/120 via %s dev v6" % (embed("198.51.100.0"),
                                                 H6_LINK),
        ])
        self.h4.ip_batch([
            "link set lo up",
            "addr add %s/24 dev eth0" % H4,
            "neigh replace %s lladdr %s dev eth0 nud permanent" % (XL4,
                                                                   XL4_MAC),
            "link set eth0 up",
            "route add 198.51.100.0/24 via %s" % XL4,
        ])
        # Watch for h6's multicast listener reports (sent when eth0 comes
        # up) so that the topology is handed over only once they are over.
        with Capture(self.xl, "v6") as mld:
            self.h6.ip_batch([
                "link set lo up",
                "addr add %s/64 dev eth0 nodad" % H6_LINK,
                "addr add %s/128 dev eth0 nodad" % H6,
                "neigh replace %s lladdr %s dev eth0 nud permanent" % (
                    XL6, XL6_MAC),
                "link set eth0 up",
                "route add %s via %s dev eth0 src %s" % (POOL6, XL6, H6),
            ])
            self._settle(mld)
        self.senders["h6"] = Sender(self.h6, "eth0", H6_MAC)
        self.senders["h4"] = Sender(self.h4, "eth0", H4_MAC)

    @staticmethod
    def _settle(cap, quiet=1.2, limit=8.0):
        """Returns after QUIET seconds without a frame (LIMIT at most)."""
        start = time.monotonic()
        last = start
        seen = 0
        while time.monotonic() - start < limit:
            cap._drain(0.1)
            if len(cap.frames) != seen:
                seen = len(cap.frames)
                last = time.monotonic()
            elif time.monotonic() - last >= quiet:
                return

    def destroy(self):
        while self.cleanups:
            fn = self.cleanups.pop()
            try:
                fn()
            except Exception:
                pass
        for s in self.senders.values():
            s.close()
        self.senders = {}
        for ns in (self.h6, self.xl, self.h4):
            if ns is not None:
                ns.delete()

    # Sending and capturing.

    def send6(self, pkt, dst_mac=XL6_MAC):
        """Sends PKT (IPv6) from h6 to the translator."""
        self.senders["h6"].send(pkt, dst_mac)

    def send4(self, pkt, dst_mac=XL4_MAC):
        """Sends PKT (IPv4) from h4 to the translator."""
        self.senders["h4"].send(pkt, dst_mac)

    def cap6(self):
        """Capture of what arrives at h6."""
        return Capture(self.h6, "eth0", context=self.counters_text)

    def cap4(self):
        """Capture of what arrives at h4."""
        return Capture(self.h4, "eth0", context=self.counters_text)

    def counters_text(self):
        """The translator's non-zero counters, for failure messages."""
        s = kstats(self.xl.name)
        return "translator counters (non-zero, since the instance was " \
            "added): %s" % {k: v for k, v in s.items() if v}

    # The translator.

    def tern(self, *args):
        return cli(self.xl.name, *args)

    def counters(self, instance=None):
        return Counters(self.xl, instance)

    def defer(self, fn):
        self.cleanups.append(fn)

    def temp_route(self, ns, *spec):
        ns.ip("route", "add", *spec)
        self.defer(lambda: ns.ip("route", "del", *spec, check=False))


# ---------------------------------------------------------------------------
# Streams between namespaces.


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def recv_all(sock):
    chunks = []
    while True:
        b = sock.recv(1 << 16)
        if not b:
            return b"".join(chunks)
        chunks.append(b)


class Thread(threading.Thread):
    """A thread whose exception or result is collected by join()."""

    def __init__(self, fn, *args):
        super().__init__(daemon=True)
        self.fn, self.args = fn, args
        self.result = self.error = None

    def run(self):
        try:
            self.result = self.fn(*self.args)
        except BaseException as e:      # reported by join()
            self.error = e

    def join(self, timeout=None):
        super().join(timeout)
        if self.is_alive():
            raise AssertionError("thread %s still running" % self.fn.__name__)
        if self.error is not None:
            raise self.error
        return self.result


def tcp_exchange(server_ns, server_family, server_addr, client_ns,
                 client_family, connect_addr, up, down, timeout=120):
    """One TCP connection: the client sends UP and half-closes, the server
    answers DOWN and closes. Returns (what the server got, what the client
    got)."""
    srv = Netns.socket(server_ns, server_family, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((server_addr, 0))
    srv.listen(1)
    srv.settimeout(timeout)
    port = srv.getsockname()[1]

    def serve():
        conn, _ = srv.accept()
        conn.settimeout(timeout)
        got = recv_all(conn)
        conn.sendall(down)
        conn.close()
        return got

    t = Thread(serve)
    t.start()
    try:
        c = Netns.socket(client_ns, client_family, socket.SOCK_STREAM)
        c.settimeout(timeout)
        c.connect((connect_addr, port))
        sender = Thread(lambda: (c.sendall(up), c.shutdown(socket.SHUT_WR)))
        sender.start()
        got = recv_all(c)
        sender.join(timeout)
        c.close()
        return t.join(timeout), got
    finally:
        srv.close()


# ---------------------------------------------------------------------------
# Raw packets, for the ICMP error and fragment tests (RFC 7915 sections 4
# and 5). They are built byte by byte, and the translation the RFC expects
# is computed here from the original bytes, independently of scapy and of
# the translator: a test compares what arrives with it field by field and
# byte by byte.


def addr4(a):
    return ipaddress.IPv4Address(a).packed


def addr6(a):
    return ipaddress.IPv6Address(a).packed


def extract(addr6_, pool=POOL6):
    """The IPv4 address embedded in ADDR6_ under POOL (RFC 6052); inverse
    of embed()."""
    net = ipaddress.IPv6Network(pool)
    b = ipaddress.IPv6Address(addr6_).packed
    n = net.prefixlen // 8
    if n == 12:
        v4 = b[12:16]
    else:
        v4 = bytes(b[i] for i in range(n, 16) if i != 8)[:4]
    return str(ipaddress.IPv4Address(v4))


def pseudo4(src, dst, proto, length):
    return addr4(src) + addr4(dst) + struct.pack("!BBH", 0, proto, length)


def pseudo6(src, dst, nh, length):
    return addr6(src) + addr6(dst) + struct.pack("!IxxxB", length, nh)


def pseudo(src, dst, proto, length):
    """The pseudo-header of the family of SRC (IPv6 if it has a colon)."""
    if ":" in src:
        return pseudo6(src, dst, proto, length)
    return pseudo4(src, dst, proto, length)


def with_csum(data, off, pre=b""):
    """DATA with the 16-bit checksum at OFF computed over PRE + DATA."""
    d = bytearray(data)
    d[off:off + 2] = b"\0\0"
    d[off:off + 2] = struct.pack("!H", inet_csum(pre + bytes(d)))
    return bytes(d)


def ip4_packet(src, dst, proto, payload, ttl=64, tos=0, ident=0, df=False,
               mf=False, offset=0, options=b"", total_length=None):
    """IPv4 packet; OFFSET in bytes (a multiple of 8); TOTAL_LENGTH, if
    given, is written instead of the real length (a declared length)."""
    assert len(options) % 4 == 0 and offset % 8 == 0
    ihl = 5 + len(options) // 4
    tl = ihl * 4 + len(payload) if total_length is None else total_length
    ff = (0x4000 if df else 0) | (0x2000 if mf else 0) | (offset >> 3)
    hdr = struct.pack("!BBHHHBBH4s4s", 0x40 | ihl, tos, tl, ident, ff, ttl,
                      proto, 0, addr4(src), addr4(dst)) + options
    return with_csum(hdr, 10) + payload


def ip6_packet(src, dst, nh, payload, hlim=64, tc=0, fl=0, plen=None):
    first = (6 << 28) | (tc << 20) | fl
    return struct.pack("!IHBB16s16s", first,
                       len(payload) if plen is None else plen, nh, hlim,
                       addr6(src), addr6(dst)) + payload


def frag6_header(nh, offset, more, ident):
    """IPv6 Fragment header; OFFSET in bytes (a multiple of 8)."""
    assert offset % 8 == 0
    return struct.pack("!BBHI", nh, 0, offset | (1 if more else 0), ident)


def udp_datagram(src, dst, sport, dport, payload, checksum=True):
    """UDP header + PAYLOAD with the checksum of the family of SRC."""
    n = 8 + len(payload)
    u = struct.pack("!HHHH", sport, dport, n, 0) + payload
    if not checksum:
        return u
    c = inet_csum(pseudo(src, dst, 17, n) + u) or 0xFFFF
    return u[:6] + struct.pack("!H", c) + u[8:]


def tcp_segment_bytes(src, dst, sport, dport, seq, ack, flags=0x18,
                      window=29200, payload=b"", options=b""):
    assert len(options) % 4 == 0
    doff = (20 + len(options)) // 4
    t = struct.pack("!HHIIBBHHH", sport, dport, seq, ack, doff << 4, flags,
                    window, 0, 0) + options + payload
    return with_csum(t, 16, pseudo(src, dst, 6, len(t)))


def icmp4_message(type_, code, rest=b"\0\0\0\0", body=b""):
    return with_csum(struct.pack("!BBH", type_, code, 0) + rest + body, 2)


def icmp6_message(src, dst, type_, code, rest=b"\0\0\0\0", body=b""):
    m = struct.pack("!BBH", type_, code, 0) + rest + body
    return with_csum(m, 2, pseudo6(src, dst, 58, len(m)))


ECHO_4TO6 = {8: 128, 0: 129}
ECHO_6TO4 = {128: 8, 129: 0}
IPV6_SKIPPED_EXTHDRS = (0, 43, 60)      # Hop-by-Hop, Routing, Dest. Options


def _l4_for(proto, seg, src, dst, l4len):
    """SEG (a whole transport segment) with the checksum it has over the
    pseudo-header of SRC/DST (L4LEN long), and the ICMP echo type of the
    other family. PROTO is the new protocol (58 or 1 for ICMP)."""
    if proto == 17:
        if seg[6:8] == b"\0\0":
            return seg
        ulen = struct.unpack("!H", seg[4:6])[0]
        c = inet_csum(pseudo(src, dst, 17, ulen) + seg[:6] + b"\0\0"
                      + seg[8:]) or 0xFFFF
        return seg[:6] + struct.pack("!H", c) + seg[8:]
    if proto == 6:
        return with_csum(seg, 16, pseudo(src, dst, 6, l4len))
    if proto == 58:
        seg = bytes([ECHO_4TO6.get(seg[0], seg[0])]) + seg[1:]
        return with_csum(seg, 2, pseudo6(src, dst, 58, l4len))
    if proto == 1:
        seg = bytes([ECHO_6TO4.get(seg[0], seg[0])]) + seg[1:]
        return with_csum(seg, 2)
    return seg


def xlat_inner_4to6(pkt, pool=POOL6):
    """What RFC 7915 4.3 (with 4.1) makes of the whole IPv4 packet PKT as
    the packet in error of an ICMPv4 error: an IPv6 header with the
    declared length translated (Total Length - IHL*4), the TTL and TOS
    kept, ICMP 1 -> 58, addresses mapped with POOL; no options; the
    transport checksum as it is over the new pseudo-header. PKT must be
    whole (the translator updates the checksum incrementally, which gives
    the same value)."""
    ihl = (pkt[0] & 15) * 4
    tos, tl = pkt[1], struct.unpack("!H", pkt[2:4])[0]
    ttl, proto = pkt[8], pkt[9]
    src = embed(str(ipaddress.IPv4Address(pkt[12:16])), pool)
    dst = embed(str(ipaddress.IPv4Address(pkt[16:20])), pool)
    nh = 58 if proto == 1 else proto
    seg = _l4_for(nh, pkt[ihl:], src, dst, len(pkt) - ihl)
    return ip6_packet(src, dst, nh, seg, hlim=ttl, tc=tos, plen=tl - ihl)


def xlat_inner_6to4(pkt, pool=POOL6):
    """What RFC 7915 5.3 (with 5.1) makes of the whole IPv6 packet PKT as
    the packet in error of an ICMPv6 error: an IPv4 header (IHL 5, Total
    Length = Payload Length + 20 minus the skipped extension headers, DF
    and ID 0 above 1260 bytes, else DF clear and an Identification from the
    translator's generator, here 0: check64 adopts the one it got, TTL =
    Hop Limit, TOS = Traffic Class, 58 -> 1), extension headers removed,
    the transport checksum over the new pseudo-header."""
    tc = ((pkt[0] & 15) << 4) | (pkt[1] >> 4)
    plen, nh, hlim = struct.unpack("!HBB", pkt[4:8])
    src = extract(str(ipaddress.IPv6Address(pkt[8:24])), pool)
    dst = extract(str(ipaddress.IPv6Address(pkt[24:40])), pool)
    off = 40
    while nh in IPV6_SKIPPED_EXTHDRS:
        nh, hlen = pkt[off], (pkt[off + 1] + 1) * 8
        off += hlen
    proto = 1 if nh == 58 else nh
    seg = _l4_for(proto, pkt[off:], src, dst, len(pkt) - off)
    tot = plen - (off - 40) + 20
    return ip4_packet(src, dst, proto, seg, ttl=hlim, tos=tc, ident=0,
                      df=tot > 1260, total_length=tot)


def ipv6_fields(frame):
    """The IPv6 header of FRAME as a dict (from the bytes on the wire)."""
    raw = ip_bytes(frame)
    first = struct.unpack("!I", raw[:4])[0]
    return {"version": first >> 28, "tc": (first >> 20) & 0xFF,
            "fl": first & 0xFFFFF, "plen": struct.unpack("!H", raw[4:6])[0],
            "nh": raw[6], "hlim": raw[7],
            "src": str(ipaddress.IPv6Address(raw[8:24])),
            "dst": str(ipaddress.IPv6Address(raw[24:40]))}


def ipv4_fields(frame):
    """The IPv4 header of FRAME as a dict; "offset" in bytes, "flags" as
    the 3-bit field (DF 2, MF 1)."""
    raw = ip_bytes(frame)
    ff = struct.unpack("!H", raw[6:8])[0]
    return {"version": raw[0] >> 4, "ihl": raw[0] & 15, "tos": raw[1],
            "len": struct.unpack("!H", raw[2:4])[0],
            "id": struct.unpack("!H", raw[4:6])[0], "flags": ff >> 13,
            "offset": (ff & 0x1FFF) * 8, "ttl": raw[8], "proto": raw[9],
            "src": str(ipaddress.IPv4Address(raw[12:16])),
            "dst": str(ipaddress.IPv4Address(raw[16:20]))}


def _frame_from_xl(frame, to_h6):
    e = frame[Ether]
    assert (e.src, e.dst) == ((XL6_MAC, H6_MAC) if to_h6
                              else (XL4_MAC, H4_MAC)), \
        "frame %s -> %s" % (e.src, e.dst)


def assert_frame6(frame, **want):
    """FRAME, sent by the translator to h6, has the IPv6 header fields WANT
    (version 6 and flow label 0 unless given); if it carries ICMPv6 (no
    extension header), its checksum is valid. Returns the IPv6 packet."""
    _frame_from_xl(frame, True)
    got = ipv6_fields(frame)
    want = dict({"version": 6, "fl": 0}, **want)
    assert {k: got[k] for k in want} == want
    raw = ip_bytes(frame)
    assert len(raw) == 40 + got["plen"]
    if got["nh"] == 58:
        assert inet_csum(raw[8:40] + struct.pack(
            "!IxxxB", got["plen"], 58) + raw[40:]) == 0, "bad ICMPv6 checksum"
    return raw


def assert_frame4(frame, **want):
    """FRAME, sent by the translator to h4, has the IPv4 header fields WANT
    (version 4 and IHL 5 unless given) and a valid header checksum; an
    unfragmented ICMP message has a valid checksum. Returns the packet."""
    _frame_from_xl(frame, False)
    got = ipv4_fields(frame)
    want = dict({"version": 4, "ihl": 5}, **want)
    assert {k: got[k] for k in want} == want
    raw = ip_bytes(frame)
    ihl = got["ihl"] * 4
    assert inet_csum(raw[:ihl]) == 0, "bad IPv4 header checksum"
    if got["proto"] == 1 and got["offset"] == 0 and not got["flags"] & 1:
        assert inet_csum(raw[ihl:]) == 0, "bad ICMP checksum"
    return raw


def fragment6_parts(frame):
    """(IPv6 fields, Fragment header dict, fragment data) of FRAME, whose
    IPv6 header is followed directly by a Fragment header."""
    f = ipv6_fields(frame)
    raw = ip_bytes(frame)
    assert f["nh"] == 44, "no Fragment header: next header %d" % f["nh"]
    nh, res, om, ident = struct.unpack("!BBHI", raw[40:48])
    return f, {"nh": nh, "res": res, "offset": om & 0xFFF8,
               "res2": (om >> 1) & 3, "m": om & 1, "id": ident}, raw[48:]


def reassemble(parts):
    """PARTS: [(offset, more, data)], in any order. Asserts they cover one
    datagram without holes or overlaps, the last one with more == 0 and
    the others with more == 1; returns the datagram."""
    parts = sorted(parts)
    data = b""
    for i, (off, more, chunk) in enumerate(parts):
        assert off == len(data), "fragment at %d, expected %d (offsets %s)" \
            % (off, len(data), [p[0] for p in parts])
        last = i == len(parts) - 1
        assert more == (0 if last else 1), \
            "fragment at %d: more %d" % (off, more)
        if not last:
            assert len(chunk) % 8 == 0
        data += chunk
    return data


def set_mtu(topo, ns, dev, mtu):
    """Sets DEV's MTU in NS for the rest of the test (put back to 1500)."""
    ns.ip("link", "set", dev, "mtu", str(mtu))
    topo.defer(lambda: ns.ip("link", "set", dev, "mtu", "1500",
                             check=False))


def require_global(topo, key):
    """Skips the test when the CLI cannot show or set global KEY yet."""
    import pytest
    r = cli(topo.xl.name, "global", "show", "--json")
    try:
        ok = r.rc == 0 and key in json.loads(r.out)
    except ValueError:
        ok = False
    if not ok:
        pytest.skip("the tern CLI cannot handle global %r yet (rc %d, %r)"
                    % (key, r.rc, r.err.strip()[:200]))


def require_command(topo, *words):
    """Skips the test when the CLI has no command WORDS yet."""
    import pytest
    r = cli(topo.xl.name, *words, "--help")
    if r.rc != 0:
        pytest.skip("the tern CLI has no '%s' command yet (rc %d, %r)"
                    % (" ".join(words), r.rc, r.err.strip()[:200]))


def link_stats(ns, dev):
    """{"rx_packets", "rx_bytes", "tx_packets", "tx_bytes"} of DEV in NS."""
    out = json.loads(Netns.exec(ns, "ip", "-j", "-s", "link", "show",
                                "dev", dev).out)[0]
    s = out["stats64"]
    return {"rx_packets": s["rx"]["packets"], "rx_bytes": s["rx"]["bytes"],
            "tx_packets": s["tx"]["packets"], "tx_bytes": s["tx"]["bytes"]}


def snmp(ns, proto="Tcp"):
    """The PROTO line pair of /proc/net/snmp in NS as a dict."""
    out = Netns.exec(ns, "cat", "/proc/net/snmp").out
    rows = [line.split()[1:] for line in out.splitlines()
            if line.startswith(proto + ":")]
    return dict(zip(rows[0], (int(v) for v in rows[1])))
