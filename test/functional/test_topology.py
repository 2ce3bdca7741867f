"""Self-checks of the test topology and helpers; they need no tern.ko.

`pytest test/functional -m nomodule` runs them on any machine that can
create network namespaces.
"""

import os
import socket

import pytest
from scapy.layers.inet import ICMP, IP, UDP
from scapy.layers.inet6 import ICMPv6EchoRequest, IPv6
from scapy.layers.l2 import Ether
from scapy.packet import Raw

import ternlib
from ternlib import (H4, H4_MAC, H6, H6_LINK, H6_MAC, SINK4, SINK6, XL4,
                     XL4_MAC, XL6, XL6_MAC, is_ip4, is_ip6)

pytestmark = pytest.mark.nomodule


def test_topology_header_lists():
    assert ternlib.STAT_NAMES[:2] == ["xlat-6to4", "xlat-4to6"]
    for name in ("pass-local", "pass-special4", "drop-ttl", "drop-fragment",
                 "drop-udp-csum0", "drop-wkp-nonglobal", "drop-output"):
        assert name in ternlib.STAT_NAMES
    assert len(ternlib.STAT_NAMES) == len(set(ternlib.STAT_NAMES)) > 20
    assert ternlib.GLOBAL_KINDS == {
        "enabled": "BOOL", "pool6": "PREFIX6", "strict-wkp": "BOOL",
        "zeroize-traffic-class": "BOOL", "override-tos": "BOOL",
        "tos": "U8", "amend-udp-checksum-zero": "BOOL",
        "lowest-ipv6-mtu": "U32", "mtu-plateaus": "PLATEAUS",
        "rfc6791v4-prefix": "PREFIX4_OPT", "rfc6791v6-prefix": "PREFIX6_OPT",
        "eam-hairpin-mode": "HAIRPIN", "icmp-on-drop": "BOOL",
        "udp-timeout": "U32", "tcp-est-timeout": "U32",
        "tcp-trans-timeout": "U32", "icmp-timeout": "U32",
        "address-dependent-filtering": "BOOL",
        "drop-externally-initiated-tcp": "BOOL", "max-sessions": "U32",
        "max-sessions-per-subscriber": "U32",
        "max-ports-per-subscriber": "U32", "subscriber-prefix-len": "U32",
        "max-stored-syns": "U32", "log-bib": "BOOL", "log-sessions": "BOOL",
        "tcp-nosyn-with-bib": "BOOL", "tcp-rst-during-fin-rcv": "BOOL",
        "max-sessions-per-bib-from-ipv4": "U32",
        "max-static-bib-entries": "U32", "det-space": "PREFIX6_OPT",
        "det-block-size": "U32", "det-port-key": "U32",
        "port-block-size": "U32",
        "box-count": "U32", "box-index": "U32"}


@pytest.mark.parametrize("pool,expected", [
    # RFC 6052 section 2.4, 192.0.2.33 under each prefix length.
    ("2001:db8::/32", "2001:db8:c000:221::"),
    ("2001:db8:100::/40", "2001:db8:1c0:2:21::"),
    ("2001:db8:122::/48", "2001:db8:122:c000:2:2100::"),
    ("2001:db8:122:300::/56", "2001:db8:122:3c0:0:221::"),
    ("2001:db8:122:344::/64", "2001:db8:122:344:c0:2:2100:0"),
    ("2001:db8:122:344::/96", "2001:db8:122:344::c000:221"),
])
def test_topology_embed_rfc6052_examples(pool, expected):
    assert ternlib.embed("192.0.2.33", pool) == expected


def test_topology_checksum_helper():
    pkt = IP(src="192.0.2.1", dst="192.0.2.2") / UDP(sport=1, dport=2) / \
        Raw(b"abc")
    frame = Ether(bytes(Ether() / pkt))
    ternlib.check_checksums(frame)
    bad = bytearray(bytes(frame))
    bad[-1] ^= 1
    with pytest.raises(AssertionError):
        ternlib.check_checksums(Ether(bytes(bad)))
    pkt6 = IPv6(src=H6, dst=SINK6) / ICMPv6EchoRequest(id=1, seq=2,
                                                       data=b"xyz")
    ternlib.check_checksums(Ether(bytes(Ether() / pkt6)))


def test_topology_is_quiet(topology):
    """No frame reaches the translator's interfaces unless a test sends
    one (exact counter deltas depend on it)."""
    caps = [ternlib.Capture(topology.xl, "v6"),
            ternlib.Capture(topology.xl, "v4")]
    for c in caps:
        c.__enter__()
    try:
        # Nothing is sent: the window itself is the test.
        caps[0].settle(1.5)
        for c in caps:
            c.settle(0)
            assert not c.frames, ternlib._describe(c.frames)
    finally:
        for c in caps:
            c.close()


def test_topology_ping(topology):
    r = topology.h6.exec("ping", "-6", "-c", "2", "-i", "0.2", "-W", "5",
                         XL6, check=False)
    assert r.rc == 0, r.out + r.err
    r = topology.h4.exec("ping", "-4", "-c", "2", "-i", "0.2", "-W", "5",
                         XL4, check=False)
    assert r.rc == 0, r.out + r.err


def test_topology_send_and_capture(topology):
    """A frame sent from h6 arrives byte for byte at xl, and xl forwards
    packets for the sinks back to the hosts, which stay silent."""
    pkt = IPv6(src=H6, dst=SINK6, hlim=9) / UDP(sport=7, dport=9) / \
        Raw(b"hello")
    with ternlib.Capture(topology.xl, "v6") as cap:
        topology.send6(pkt)
        f = cap.one(is_ip6(dst=SINK6))
    assert bytes(f) == bytes(Ether(src=H6_MAC, dst=XL6_MAC) / pkt)

    with topology.cap6() as cap:
        topology.send6(pkt)
        f = cap.one(is_ip6(dst=SINK6))
    assert f[Ether].src == XL6_MAC and f[Ether].dst == H6_MAC
    assert f[IPv6].hlim == 8 and bytes(f[UDP].payload) == b"hello"

    pkt4 = IP(src=H4, dst=SINK4, ttl=9) / UDP(sport=7, dport=9) / \
        Raw(b"hello")
    with topology.cap4() as cap:
        topology.send4(pkt4)
        f = cap.one(is_ip4(dst=SINK4, proto=17))
    assert f[Ether].src == XL4_MAC and f[Ether].dst == H4_MAC
    assert f[IP].ttl == 8 and f[IP].src == H4
    ternlib.check_checksums(f)


def test_topology_tcpdump_capture(topology, tmp_path):
    path = tmp_path / "h4.pcap"
    pkt4 = IP(src=H4, dst=SINK4, ttl=9) / ICMP(id=5, seq=6) / Raw(b"x" * 30)
    with ternlib.TcpdumpCapture(topology.h4, "eth0", path, "icmp") as cap:
        topology.send4(pkt4)
        frames = cap.wait(is_ip4(dst=SINK4, proto=1))
    assert frames[0][ICMP].id == 5 and frames[0][IP].ttl == 8
    assert os.path.getsize(path) > 24


def test_topology_tcp_stream(topology):
    up, down = os.urandom(300000), os.urandom(200000)
    got_up, got_down = ternlib.tcp_exchange(
        topology.xl, socket.AF_INET6, XL6, topology.h6, socket.AF_INET6,
        XL6, up, down)
    assert ternlib.sha256(got_up) == ternlib.sha256(up)
    assert ternlib.sha256(got_down) == ternlib.sha256(down)
    assert H6_LINK != XL6
