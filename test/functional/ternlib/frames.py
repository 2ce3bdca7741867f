"""Raw frames in and out of namespaces.

Frames are sent and captured from this process: it enters a namespace with
setns(2) just long enough to open an AF_PACKET socket there (a socket stays
in the namespace it was created in), so no per-packet process is started and
a capture is listening as soon as its socket exists. TcpdumpCapture is the
same thing done with tcpdump, for the self-check and for debugging.

Sender sends frames; Capture collects them and waits for the ones a
predicate (is_ip4, is_ip6, any_ip) selects; Capture.none and none_on check
that nothing of the kind arrived, with a proof that what was sent has
been handled. vnet_tun opens a tun device whose writer states each
packet's offload metadata (struct virtio_net_hdr, vnet()) as a virtio
guest would; inject writes one.
"""

import fcntl
import os
import select
import signal
import socket
import struct
import subprocess
import time

from scapy.layers.inet import IP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Ether
from scapy.utils import rdpcap

from .names import QUIET, TIMEOUT
from .nsenter import in_netns


ETH_P_ALL = 0x0003
PACKET_OUTGOING = 4

TUNSETIFF = 0x400454CA
IFF_TUN, IFF_NO_PI, IFF_VNET_HDR = 0x0001, 0x1000, 0x4000
F_NEEDS_CSUM = 1
GSO_NONE, GSO_TCPV4, GSO_UDP, GSO_TCPV6, GSO_UDP_L4 = 0, 1, 3, 4, 5
GSO_ECN = 0x80


def vnet(gso_type=GSO_NONE, gso_size=0, csum=None, hdr_len=0):
    """struct virtio_net_hdr (little endian); CSUM = (start, offset)."""
    flags, start, off = (0, 0, 0) if csum is None else (F_NEEDS_CSUM,) + csum
    return struct.pack("<BBHHHH", flags, gso_type, hdr_len, gso_size, start,
                       off)


def vnet_tun(ns, name):
    """A tun device NAME (IFF_TUN | IFF_NO_PI | IFF_VNET_HDR) made in
    namespace NS, up: what is written to the returned descriptor (a
    vnet() header, then an IP packet) is received by NS."""
    with in_netns(str(ns)):
        fd = os.open("/dev/net/tun", os.O_RDWR | os.O_NONBLOCK)
        fcntl.ioctl(fd, TUNSETIFF, struct.pack(
            "16sH22x", name.encode(), IFF_TUN | IFF_NO_PI | IFF_VNET_HDR))
    try:
        subprocess.run(["ip", "-n", str(ns), "link", "set", name, "up"],
                       check=True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def inject(fd, hdr, pkt):
    """Writes HDR + PKT; returns 0, or the errno of a refusal."""
    try:
        os.write(fd, hdr + pkt)
    except OSError as e:
        return e.errno
    return 0


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
                # The header as bytes: scapy's Ether costs a millisecond
                # a frame under emulation.
                etype = 0x86DD if pkt[0] >> 4 == 6 else 0x0800
                self.sock.send(bytes.fromhex((dst_mac + self.src_mac)
                                             .replace(":", "")) +
                               struct.pack("!H", etype) + bytes(pkt))
                return
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
