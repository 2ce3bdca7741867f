"""Real traffic through the translator: ping, TCP, UDP, HTTP, iperf3.

The hosts' own stacks send these, with their offloads (checksum offload,
TSO/GSO), so the translator sees CHECKSUM_PARTIAL and GSO packets here,
unlike the crafted frames of the other files. xl computes the checksums of
what it sends in software (see Topology), so a wrong checksum makes the
receiver drop the packet and the transfer fail.
"""

import http.server
import json
import os
import shutil
import socket
import subprocess
import time

import pytest

import ternlib
from ternlib import (H4, H4_6, H6, H6_4, Thread, check_checksums, in_netns,
                     is_ip4, is_ip6, sha256, tcp_exchange)

XLAT_ONLY = {"xlat-6to4", "xlat-4to6"}


class IngressCount:
    """Counts the TCP/UDP frames reaching the translator's interfaces from
    the hosts (the packets its hooks see: one counter each), to compare the
    counters with: c.expect(n.expected())."""

    def __init__(self, topo, proto=6):
        self.proto = proto
        self.caps = {"xlat-6to4": ternlib.Capture(topo.xl, "v6"),
                     "xlat-4to6": ternlib.Capture(topo.xl, "v4")}

    def __enter__(self):
        for cap in self.caps.values():
            cap.__enter__()
        return self

    def __exit__(self, *exc):
        for cap in self.caps.values():
            cap.close()

    def expected(self):
        want = {"xlat-6to4": is_ip6(src=H6, dst=H4_6, nh=self.proto),
                "xlat-4to6": is_ip4(src=H4, dst=H6_4, proto=self.proto)}
        n, last = {}, None
        # Until the last frames of the connection (FIN, ACK) are in.
        for _ in range(20):
            for k, cap in self.caps.items():
                cap.settle(0.3)
                n[k] = len(cap.matching(want[k]))
            if n == last:
                break
            last = dict(n)
        for k in n:
            assert n[k] > 0, "no %s frame seen" % k
        return n


def ping(ns, dst, count=3, size=56):
    r = ns.exec("ping", "-c", count, "-i", "0.2", "-W", "5", "-s", size, dst,
                check=False, timeout=60)
    assert r.rc == 0, r.out + r.err
    assert "%d received" % count in r.out, r.out
    return r.out


@pytest.mark.parametrize("size", [56, 1400])
def test_ping_from_ipv6_host(xlat, size):
    c = xlat.counters()
    ping(xlat.h6, H4_6, size=size)
    c.expect({"xlat-6to4": 3, "xlat-4to6": 3})


@pytest.mark.parametrize("size", [56, 1400])
def test_ping_from_ipv4_host(xlat, size):
    c = xlat.counters()
    ping(xlat.h4, H6_4, size=size)
    c.expect({"xlat-4to6": 3, "xlat-6to4": 3})


def test_ping_replies_are_translated_echo(xlat):
    """What h6 gets back for its ping is an ICMPv6 echo reply from h4's
    pool6 address, with valid checksums."""
    with xlat.cap6() as cap:
        ping(xlat.h6, H4_6, count=1)
        f = cap.one(is_ip6(src=H4_6, dst=H6, nh=58))
    raw = ternlib.ip_bytes(f)
    assert raw[40] == 129
    check_checksums(f)


MB = 1 << 20


@pytest.mark.bulk
def test_tcp_1mb_each_way_from_ipv6_host(xlat):
    up, down = os.urandom(MB), os.urandom(MB)
    c = xlat.counters()
    with IngressCount(xlat) as n:
        got_up, got_down = tcp_exchange(xlat.h4, socket.AF_INET, "0.0.0.0",
                                        xlat.h6, socket.AF_INET6, H4_6, up,
                                        down)
        assert sha256(got_up) == sha256(up)
        assert sha256(got_down) == sha256(down)
        c.expect(n.expected())


@pytest.mark.bulk
def test_tcp_1mb_each_way_from_ipv4_host(xlat):
    up, down = os.urandom(MB), os.urandom(MB)
    c = xlat.counters()
    with IngressCount(xlat) as n:
        got_up, got_down = tcp_exchange(xlat.h6, socket.AF_INET6, H6,
                                        xlat.h4, socket.AF_INET, H6_4, up,
                                        down)
        assert sha256(got_up) == sha256(up)
        assert sha256(got_down) == sha256(down)
        c.expect(n.expected())


def test_tcp_translated_segments_have_valid_checksums(xlat):
    """Samples the wire on both hosts during a transfer."""
    data = os.urandom(200000)
    with xlat.cap4() as cap4, xlat.cap6() as cap6:
        got_up, got_down = tcp_exchange(xlat.h4, socket.AF_INET, "0.0.0.0",
                                        xlat.h6, socket.AF_INET6, H4_6,
                                        data, data)
        to_h4 = cap4.wait(is_ip4(src=H6_4, dst=H4, proto=6), count=20)
        to_h6 = cap6.wait(is_ip6(src=H4_6, dst=H6, nh=6), count=20)
    assert got_up == data and got_down == data
    for f in to_h4[:50] + to_h6[:50]:
        check_checksums(f)


UDP_SIZES = [1, 8, 100, 1000, 1232, 1233, 1400, 1452]


def udp_echo(server_ns, server_family, client_ns, client_family, dst):
    srv = ternlib.Netns.socket(server_ns, server_family, socket.SOCK_DGRAM)
    srv.bind(("0.0.0.0" if server_family == socket.AF_INET else "::", 0))
    srv.settimeout(10)
    port = srv.getsockname()[1]

    def serve():
        for _ in UDP_SIZES:
            data, peer = srv.recvfrom(65535)
            srv.sendto(data[::-1], peer)

    t = Thread(serve)
    t.start()
    cl = ternlib.Netns.socket(client_ns, client_family, socket.SOCK_DGRAM)
    cl.settimeout(10)
    try:
        for n in UDP_SIZES:
            msg = os.urandom(n)
            cl.sendto(msg, (dst, port))
            back, peer = cl.recvfrom(65535)
            assert back == msg[::-1]
            assert peer[0] == dst and peer[1] == port
        t.join(20)
    finally:
        cl.close()
        srv.close()


def test_udp_echo_from_ipv6_host(xlat):
    c = xlat.counters()
    udp_echo(xlat.h4, socket.AF_INET, xlat.h6, socket.AF_INET6, H4_6)
    n = len(UDP_SIZES)
    c.expect({"xlat-6to4": n, "xlat-4to6": n})


def test_udp_echo_from_ipv4_host(xlat):
    c = xlat.counters()
    udp_echo(xlat.h6, socket.AF_INET6, xlat.h4, socket.AF_INET, H6_4)
    n = len(UDP_SIZES)
    c.expect({"xlat-6to4": n, "xlat-4to6": n})


class _Handler(http.server.BaseHTTPRequestHandler):
    blob = b""

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", str(len(self.blob)))
        self.end_headers()
        self.wfile.write(self.blob)

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        answer = sha256(body).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


@pytest.mark.bulk
def test_http_with_curl_from_ipv6_host(xlat, tmp_path):
    _Handler.blob = os.urandom(MB)
    with in_netns(xlat.h4.name):
        server = http.server.ThreadingHTTPServer(("0.0.0.0", 0), _Handler)
    t = Thread(server.serve_forever)
    t.start()
    c = xlat.counters()
    try:
        n = IngressCount(xlat).__enter__()
        url = "http://[%s]:%d/blob" % (H4_6, server.server_address[1])
        out = tmp_path / "blob"
        r = xlat.h6.exec("curl", "-sS", "-g", "--noproxy", "*",
                         "--max-time", "120", "-o", out, url, check=False,
                         timeout=150)
        assert r.rc == 0, r.err
        assert sha256(out.read_bytes()) == sha256(_Handler.blob)
        up = tmp_path / "up"
        up.write_bytes(os.urandom(MB))
        r = xlat.h6.exec("curl", "-sS", "-g", "--noproxy", "*",
                         "--max-time", "120", "-H", "Expect:",
                         "--data-binary", "@%s" % up,
                         url, check=False, timeout=150)
        assert r.rc == 0, r.err
        assert r.out == sha256(up.read_bytes())
        c.expect(n.expected())
    finally:
        n.__exit__()
        server.shutdown()
        server.server_close()


def _wait_listening(ns, port, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        r = ns.exec("ss", "-Hltn", "sport = :%d" % port, check=False)
        if r.out.strip():
            return
        time.sleep(0.2)
    raise AssertionError("iperf3 server did not start")


@pytest.mark.parametrize("reverse", [False, True], ids=["6to4", "4to6"])
def test_iperf3_from_ipv6_host(xlat, reverse):
    # test/deps.sh installs it: missing is a failure, not a skip.
    assert shutil.which("iperf3"), "iperf3 is not installed"
    port = 5201 + reverse
    # iperf3 keeps an unlinked file in $TMPDIR, which a 9p /tmp (as in the
    # test VM) does not support.
    tmp = "TMPDIR=/dev/shm" if os.path.isdir("/dev/shm") else "TMPDIR=/tmp"
    server = xlat.h4.popen("env", tmp, "iperf3", "-4", "-s", "-1", "-p",
                           port, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    n = IngressCount(xlat).__enter__()
    try:
        _wait_listening(xlat.h4, port)
        c = xlat.counters()
        args = ["env", tmp, "iperf3", "-c", H4_6, "-p", port, "-n", "2M",
                "-J"]
        if reverse:
            args.append("-R")
        r = xlat.h6.exec(*args, check=False, timeout=180)
        assert r.rc == 0, r.out[-2000:] + r.err
        res = json.loads(r.out)
        assert "error" not in res, res["error"]
        sent = res["end"]["sum_sent"]["bytes"]
        received = res["end"]["sum_received"]["bytes"]
        # -n 2M: the sender sends exactly that much; the receiver's tally
        # stops when the test ends and may miss bytes still in flight
        # (seen on the slow debug kernel). Exact delivery of a stream is
        # asserted by the sha256 transfer tests.
        assert sent >= 2 * MB, sent
        assert 0 < received <= sent, (received, sent)
        server.wait(timeout=20)     # -1: it ends after the one test
        c.expect(n.expected())
    finally:
        n.__exit__()
        if server.poll() is None:
            server.kill()
        server.wait()
