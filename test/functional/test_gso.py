"""TCP GSO super-packets cross the translator whole.

The hosts' TCP stacks hand their veth devices GSO packets of many segments,
and veth passes them to xl as they are. Tern translates such a packet once
(TCPV4 <-> TCPV6 GSO type); xl's output device, whose checksum offload is
off (see ternlib.Topology), cuts it into wire-sized segments afterwards.
So the number of packets Tern translated must be far below the number of
segments the far host receives, and the data must arrive intact.
"""

import json
import os
import shutil
import socket
import subprocess
import time

import pytest

import ternlib

from scapy.layers.inet import IP, TCP
from scapy.layers.inet6 import IPv6, IPv6ExtHdrFragment

from ternlib import (H4, H4_6, H6, H6_4, XL6, Capture, kstats, link_stats,
                     sha256, snmp, tcp_exchange)

MB = 1 << 20
MSS_MAX = 1460          # the largest segment either side can carry (MTU 1500)
RATIO = 4               # "far fewer": at least this many segments per xlat


@pytest.fixture(autouse=True)
def big_tso_frames(xlat):
    """The hosts' TCP builds GSO packets of at least 16 segments. Left to
    itself it sizes them from its pacing rate (about 1 ms of data, at
    least tcp_min_tso_segs = 2): on the debug kernel under emulation the
    rate is low enough for 2-segment packets, which would say nothing
    about the translator."""
    key = "net/ipv4/tcp_min_tso_segs"
    for ns in (xlat.h6, xlat.h4):
        ns.sysctl({key: 16})
    yield
    for ns in (xlat.h6, xlat.h4):
        ns.sysctl({key: 2})


class Flow:
    """Counters around a transfer whose data goes from SRC_NS to DST_NS
    (the receiving host's eth0 frames and TCP InSegs, the translator's
    xlat counter of that direction)."""

    def __init__(self, topo, dst_ns, counter):
        self.topo, self.dst_ns, self.counter = topo, dst_ns, counter

    def __enter__(self):
        self.link0 = link_stats(self.dst_ns, "eth0")
        self.tcp0 = snmp(self.dst_ns)
        self.xlat0 = kstats(self.topo.xl)
        return self

    def __exit__(self, *exc):
        link1 = link_stats(self.dst_ns, "eth0")
        tcp1 = snmp(self.dst_ns)
        xlat1 = kstats(self.topo.xl)
        self.frames = link1["rx_packets"] - self.link0["rx_packets"]
        self.insegs = tcp1["InSegs"] - self.tcp0["InSegs"]
        self.xlat = xlat1[self.counter] - self.xlat0[self.counter]
        self.drops = {k: xlat1[k] - self.xlat0[k] for k in xlat1
                      if k.startswith("drop-") and xlat1[k] != self.xlat0[k]}

    def check(self, nbytes):
        """NBYTES of data went through: at least NBYTES/1460 segments
        reached the far host as frames, and Tern translated at most
        1/RATIO as many packets."""
        info = "frames %d, InSegs %d, %s %d, drops %s" % (
            self.frames, self.insegs, self.counter, self.xlat, self.drops)
        assert not self.drops, info
        assert self.frames >= nbytes // MSS_MAX, \
            "fewer frames than segments of data: " + info
        assert self.xlat > 0, info
        assert self.xlat * RATIO <= self.frames, \
            "Tern translated about one packet per segment: " + info
        return info


@pytest.mark.parametrize("way", ["6to4", "4to6"])
def test_gso_tcp_intact_and_unsegmented(xlat, way):
    """8 MB from a client on one side to a server on the other."""
    if way == "6to4":
        server = (xlat.h4, socket.AF_INET, H4)
        client = (xlat.h6, socket.AF_INET6, H4_6)
    else:
        server = (xlat.h6, socket.AF_INET6, H6)
        client = (xlat.h4, socket.AF_INET, H6_4)
    data = os.urandom(8 * MB)
    with Flow(xlat, server[0], "xlat-" + way) as flow:
        got, back = tcp_exchange(*server, *client, data, b"done")
    assert len(got) == len(data) and sha256(got) == sha256(data)
    assert back == b"done"
    print(flow.check(len(data)))


def test_gso_tcp_6to4_small_segments_df0(xlat):
    """h6's path MTU to the IPv4 host is 1280, so its segments translate to
    1260-byte IPv4 packets, which RFC 7915 5.1 sends with DF=0 and an
    Identification. DF is decided per segment, not on the super-packet's
    size, and each super-packet reserves one ID per segment (segmentation
    counts up from the first): no ID repeats within the flow."""
    xlat.temp_route(xlat.h6, H4_6 + "/128", "via", XL6, "dev", "eth0",
                    "src", H6, "mtu", "1280")
    data = os.urandom(1 * MB)
    with Capture(xlat.h4, "eth0") as cap, \
            Flow(xlat, xlat.h4, "xlat-6to4") as flow:
        got, back = tcp_exchange(xlat.h4, socket.AF_INET, H4, xlat.h6,
                                 socket.AF_INET6, H4_6, data, b"done")
    assert len(got) == len(data) and sha256(got) == sha256(data)
    assert back == b"done"
    info = flow.check(len(data))
    segs = [f for f in cap.frames if IP in f and f[IP].src == H6_4
            and TCP in f and f[IP].len > 40]
    assert len(segs) >= len(data) // 1220, "%d segments, %s" % (len(segs),
                                                                info)
    assert max(f[IP].len for f in segs) == 1260, info
    for f in segs:
        assert int(f[IP].flags) == 0 and f[IP].frag == 0, f.summary()
    ids = [f[IP].id for f in segs]
    assert len(set(ids)) == len(ids), \
        "%d IDs repeated, %s" % (len(ids) - len(set(ids)), info)


def _snmp6(ns):
    out = ns.exec("cat", "/proc/net/snmp6").out
    return {k: int(v) for k, v in (line.split() for line in out.splitlines())}


def test_gso_tcp_4to6_df0_fragmented(xlat):
    """The IPv4 host sends with DF=0 (ip_no_pmtu_disc), so its 1500-byte
    segments, 1520 in IPv6, must be fragmented to lowest-ipv6-mtu (1280,
    RFC 7915 4.1). Tern still translates each super-packet once, cuts it
    into segments itself and fragments those: the IPv6 host reassembles
    the data intact, nothing is dropped, and each segment's fragments carry
    its own IPv4 ID: the IDs of one super-packet's segments are consecutive
    (the sender numbers them so); between super-packets Linux may skip
    some."""
    data = os.urandom(1 * MB)
    xlat.h4.sysctl({"net/ipv4/ip_no_pmtu_disc": 1})
    try:
        reasm0 = _snmp6(xlat.h6)
        with Capture(xlat.h6, "eth0") as cap, \
                Flow(xlat, xlat.h6, "xlat-4to6") as flow:
            got, back = tcp_exchange(xlat.h6, socket.AF_INET6, H6, xlat.h4,
                                     socket.AF_INET, H6_4, data, b"done")
        reasm1 = _snmp6(xlat.h6)
    finally:
        xlat.h4.sysctl({"net/ipv4/ip_no_pmtu_disc": 0})
    assert len(got) == len(data) and sha256(got) == sha256(data)
    assert back == b"done"
    info = flow.check(len(data))
    frags = [f for f in cap.frames
             if IPv6 in f and IPv6ExtHdrFragment in f and f[IPv6].src == H4_6]
    nseg = len(data) // MSS_MAX
    assert len(frags) >= 2 * nseg, "%d fragments, %s" % (len(frags), info)
    for f in frags:
        assert len(f[IPv6]) <= 1280, f.summary()
        assert f[IPv6ExtHdrFragment].nh == 6
    # Segments: the first fragments (offset 0), each with a last one (M=0)
    # of the same ID, none an ID of another (an ID reused). Within a
    # super-packet IDs go up by one, so in ID order all but one step per
    # translated packet is 1. ID order, not arrival order: with two CPUs
    # two super-packets may be translated at once and their fragments
    # interleave.
    firsts = [f[IPv6ExtHdrFragment].id for f in frags
              if f[IPv6ExtHdrFragment].offset == 0]
    lasts = {f[IPv6ExtHdrFragment].id for f in frags
             if f[IPv6ExtHdrFragment].m == 0}
    assert len(firsts) >= nseg and set(firsts) <= lasts
    assert all(i < 0x10000 for i in firsts)
    assert len(set(firsts)) == len(firsts), \
        "an ID on two segments: %s" % info
    base = firsts[0]
    firsts.sort(key=lambda i: (i - base + 0x8000) & 0xffff)
    steps = [(b - a) & 0xffff for a, b in zip(firsts, firsts[1:])]
    assert steps.count(1) >= len(firsts) - flow.xlat, \
        "ID steps: %d of 1 in %d, %s" % (steps.count(1), len(steps), info)
    reasm = reasm1["Ip6ReasmOKs"] - reasm0["Ip6ReasmOKs"]
    assert reasm == len(firsts), "ReasmOKs %d, %s" % (reasm, info)


def _iperf_env():
    # iperf3 keeps an unlinked file in $TMPDIR; the VM's 9p /tmp cannot.
    return "TMPDIR=/dev/shm" if os.path.isdir("/dev/shm") else "TMPDIR=/tmp"


def _listening(ns, port, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if ns.exec("ss", "-Hltn", "sport = :%d" % port,
                   check=False).out.strip():
            return
        time.sleep(0.2)
    raise AssertionError("iperf3 server did not start")


@pytest.mark.bulk
@pytest.mark.parametrize("direction", ["6to4", "4to6"])
def test_gso_iperf3(xlat, direction):
    """A real iperf3 flow (-n 16M) from the IPv6 host to the IPv4 host and
    back (the server is always the receiver)."""
    assert shutil.which("iperf3"), "iperf3 is missing (test/deps.sh)"
    if direction == "6to4":
        srv_ns, bind, cli_ns, target, counter = (xlat.h4, H4, xlat.h6, H4_6,
                                                 "xlat-6to4")
    else:
        srv_ns, bind, cli_ns, target, counter = (xlat.h6, H6, xlat.h4, H6_4,
                                                 "xlat-4to6")
    port = 5301 if direction == "6to4" else 5302
    server = srv_ns.popen("env", _iperf_env(), "iperf3", "-s", "-1", "-B",
                          bind, "-p", port, "-J", stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    try:
        _listening(srv_ns, port)
        with Flow(xlat, srv_ns, counter) as flow:
            r = cli_ns.exec("env", _iperf_env(), "iperf3", "-c", target,
                            "-p", port, "-n", "16M", "-J", check=False,
                            timeout=300)
            out, err = server.communicate(timeout=60)
        assert r.rc == 0, r.out[-2000:] + r.err
        client = json.loads(r.out)
        assert "error" not in client, client["error"]
        sent = client["end"]["sum_sent"]["bytes"]
        assert sent >= 16 * MB
        srv = json.loads(out)
        assert "error" not in srv, srv["error"]
        # The server's own count of what it read off the socket; its
        # tally may stop before the last bytes in flight (see
        # test_traffic.py), so exact delivery is left to the tests above.
        received = srv["end"]["sum_received"]["bytes"]
        assert sent // 2 <= received <= sent, (received, sent)
        print(flow.check(received))
    finally:
        if server.poll() is None:
            server.kill()
        server.wait()


SOL_PACKET, PACKET_VNET_HDR = 263, 15
VIRTIO_GSO_TCPV4, VIRTIO_GSO_TCPV6 = 1, 4


@pytest.mark.parametrize("direction", ["6to4", "4to6"])
def test_gso_clone_seen_by_tap_unchanged(xlat, direction):
    """A packet socket on the translator's ingress keeps a clone of each
    super-packet, sharing its skb_shared_info: Tern must give the packet
    its own before switching the GSO type (issue 10 item 8), so what the
    tap reads (its virtio header, made when it reads) still says TCPV6 for
    IPv6 frames and TCPV4 for IPv4 ones."""
    if direction == "6to4":
        iface, want, ver = "v6", VIRTIO_GSO_TCPV6, 6
        args = (xlat.h4, socket.AF_INET, H4, xlat.h6, socket.AF_INET6, H4_6)
    else:
        iface, want, ver = "v4", VIRTIO_GSO_TCPV4, 4
        args = (xlat.h6, socket.AF_INET6, H6, xlat.h4, socket.AF_INET, H6_4)
    with ternlib.in_netns(xlat.xl.name):
        sock = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
    try:
        sock.setsockopt(SOL_PACKET, PACKET_VNET_HDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, 33, 16 << 20)   # SO_RCVBUFFORCE
        sock.bind((iface, 0x0003))
        data = os.urandom(2 * MB)
        # Nothing is read until the transfer is over: Tern has long
        # translated every clone the socket holds.
        got, _ = tcp_exchange(*args, data, b"done")
        assert sha256(got) == sha256(data)
        sock.setblocking(False)
        types = []
        while True:
            try:
                frame = sock.recv(1 << 17)
            except BlockingIOError:
                break
            gso_type = frame[1] & 0x7f
            etype = int.from_bytes(frame[10 + 12:10 + 14], "big")
            if gso_type and etype == (0x86DD if ver == 6 else 0x0800):
                types.append(gso_type)
    finally:
        sock.close()
    assert types, "no GSO frame seen on xl's %s" % iface
    assert set(types) == {want}, "GSO types seen by the tap: %s" % \
        sorted(set(types))
