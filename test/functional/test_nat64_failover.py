"""Failover of deterministic NAT64 (RFC 7422) with VRRP (keepalived).

    client6 --br0-- boxA --br0-- server4
               \\--- boxB ---/

client6 (2001:db8:6::10) routes 64:ff9b::/96 to fe80::1, server4
(203.0.113.100) routes pool4 198.51.100.1 to 203.0.113.1; both are VRRP
virtual addresses that keepalived moves between boxA (priority 150) and
boxB (100), two instances (one a link) in a sync group. Both boxes run
the same Tern configuration: deterministic mode and tcp-nosyn-with-bib,
so that boxB rebuilds each session from the flow's next IPv6 packet with
the IPv4 port boxA had given it (docs/scale-out.md, "Failover with
VRRP", has this configuration).

An iperf3 TCP transfer and a UDP stream of numbered datagrams (100 a
second) run client6 -> server4; boxA is killed mid-transfer (its links
go down, its keepalived gets SIGKILL). The TCP transfer must complete
without reset and with bytes received after the kill, the UDP stream
must resume with the same IPv4 source, and boxB must hold the BIB
entries boxA had. The outage (the largest gap between UDP arrivals) is
printed, not bounded.
"""

import json
import os
import signal
import socket
import struct
import subprocess
import threading
import time

import pytest

from ternlib import Netns, cli_json, cli_ok, run, stats
from ternlib.netns import tx_checksum

CLIENT6 = "2001:db8:6::10"
SERVER4 = "203.0.113.100"
SERVER4_6 = "64:ff9b::cb00:7164"
POOL4 = "198.51.100.1"
VIP4 = "203.0.113.1"
VIP6 = "fe80::1"
BOXES = {"A": ("2001:db8:6::a", "203.0.113.2", 150),
         "B": ("2001:db8:6::b", "203.0.113.3", 100)}
UDP_PORT = 6000
UDP_RATE = 100          # datagrams a second
KILL_AFTER = 6.0        # seconds of transfer before boxA dies
IPERF_TIME = 20

# The configuration of both boxes (docs/deterministic.md shows it).
TERN_SETUP = [
    ("instance", "add", "n", "--nat64", "--pool6", "64:ff9b::/96"),
    ("pool4", "add", POOL4),
    ("-i", "n", "global", "set", "strict-wkp", "false"),
    ("-i", "n", "global", "set", "subscriber-prefix-len", "128"),
    ("-i", "n", "global", "set", "det-port-key", "4242"),
    ("-i", "n", "global", "set", "det-space", "2001:db8:6::/120"),
    ("-i", "n", "global", "set", "tcp-nosyn-with-bib", "true"),
]

KEEPALIVED_CONF = """\
global_defs {
    router_id box%(name)s
    vrrp_version 3
    vrrp_garp_master_delay 1
    vrrp_garp_master_repeat 3
}

vrrp_sync_group NAT64 {
    group {
        V4
        V6
    }
}

# The IPv4 next hop of pool4 (server4: 198.51.100.1 via 203.0.113.1).
vrrp_instance V4 {
    state BACKUP
    interface e4
    virtual_router_id 51
    priority %(prio)d
    advert_int 1
    virtual_ipaddress {
        203.0.113.1/24 dev e4
    }
}

# The IPv6 next hop of 64:ff9b::/96 (client6: via fe80::1).
vrrp_instance V6 {
    state BACKUP
    interface e6
    virtual_router_id 52
    priority %(prio)d
    advert_int 1
    virtual_ipaddress {
        fe80::1/64 dev e6
    }
}
"""


def _has_addr(ns, dev, addr):
    out = run(["ip", "-n", ns.name, "-j", "addr", "show", "dev", dev]).out
    return any(a.get("local") == addr
               for i in json.loads(out) for a in i.get("addr_info", []))


def _wait(cond, timeout, what):
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "not in %ds: %s" % (timeout, what)
        time.sleep(0.2)


class Failover:
    def __init__(self, tmp_path):
        self.tmp = tmp_path
        self.ns = {}
        self.ka = {}

    def build(self):
        for role in ("c6", "A", "B", "s4"):
            self.ns[role] = Netns(role)
        c6, s4 = self.ns["c6"], self.ns["s4"]
        quiet = {"net/ipv6/conf/all/accept_dad": 0,
                 "net/ipv6/conf/default/accept_dad": 0,
                 "net/ipv6/conf/all/accept_ra": 0,
                 "net/ipv6/conf/default/accept_ra": 0}
        c6.sysctl(dict(quiet, **{"net/ipv6/conf/all/forwarding": 0,
                                 "net/ipv4/ip_forward": 0}))
        s4.sysctl(dict(quiet, **{"net/ipv4/ip_forward": 0,
                                 "net/ipv4/conf/all/rp_filter": 0,
                                 "net/ipv4/conf/default/rp_filter": 0}))
        for host in (c6, s4):
            host.ip("link", "add", "br0", "type", "bridge",
                    "mcast_snooping", "0", "stp_state", "0")
        for name in BOXES:
            box = self.ns[name]
            box.sysctl(dict(quiet, **{"net/ipv6/conf/all/forwarding": 1,
                                      "net/ipv4/ip_forward": 1}))
            for dev, host in (("e6", c6), ("e4", s4)):
                port = "%s%s" % (dev, name.lower())
                run(["ip", "link", "add", dev, "netns", box.name, "type",
                     "veth", "peer", "name", port, "netns", host.name])
                host.ip("link", "set", port, "master", "br0", "up")
                tx_checksum(box, dev, False)
            a6, a4, _ = BOXES[name]
            box.ip_batch(["link set lo up",
                          "addr add %s/64 dev e6 nodad" % a6,
                          "addr add %s/24 dev e4" % a4,
                          "link set e6 up", "link set e4 up"])
            for args in TERN_SETUP:
                cli_ok(box, *args)
        c6.ip_batch(["link set lo up", "link set br0 up",
                     "addr add %s/64 dev br0 nodad" % CLIENT6,
                     "route add 64:ff9b::/96 via %s dev br0" % VIP6])
        s4.ip_batch(["link set lo up", "link set br0 up",
                     "addr add %s/24 dev br0" % SERVER4,
                     "route add %s/32 via %s" % (POOL4, VIP4)])
        return self

    def keepalived(self, name):
        box = self.ns[name]
        conf = self.tmp / ("keepalived-%s.conf" % name)
        conf.write_text(KEEPALIVED_CONF % {"name": name,
                                           "prio": BOXES[name][2]})
        log = open(self.tmp / ("keepalived-%s.log" % name), "w")
        pids = [self.tmp / ("keepalived-%s.%s" % (name, k))
                for k in ("pid", "vrrp.pid")]
        # -n: no fork (the Popen is the parent), -P: VRRP only, pid files
        # of our own (/run may be shared with the host's).
        p = box.popen("keepalived", "-n", "-l", "-D", "-G", "-P",
                      "-f", conf, "-p", pids[0], "-r", pids[1],
                      stdout=log, stderr=subprocess.STDOUT)
        self.ka[name] = (p, pids, log)

    def kill(self, name):
        """boxA dies: its links go, then its keepalived (SIGKILL, so it
        says nothing on the way out)."""
        box = self.ns[name]
        box.ip_batch(["link set e6 down", "link set e4 down"])
        p, pids, _ = self.ka[name]
        if pids[1].exists():
            try:
                os.kill(int(pids[1].read_text()), signal.SIGKILL)
            except (ProcessLookupError, ValueError):
                pass
        p.send_signal(signal.SIGKILL)
        p.wait(10)

    def master(self, name):
        box = self.ns[name]
        return _has_addr(box, "e4", VIP4) and _has_addr(box, "e6", VIP6)

    def destroy(self):
        for p, pids, log in self.ka.values():
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait(10)
            log.close()
        for ns in self.ns.values():
            ns.delete()

    def state(self):
        """What a stalled transfer leaves, most telling first and compact
        (a CI summary keeps the first 3000 characters): boxB's counters
        (those not 0), its TCP sessions, the neighbours of the four
        namespaces, both ends' TCP sockets, then the keepalived logs; a
        part that cannot be read says why (the failure stays the
        transfer's)."""
        b, out = self.ns["B"], []

        def part(name, fn):
            try:
                out.append("%s: %s" % (name, fn()))
            except Exception as e:      # a report: never the failure
                out.append("%s: unavailable: %r" % (name, e))

        def sessions():
            return "; ".join(
                "%s %s.%s %s.%s->%s.%s" % (
                    s.get("state"), s.get("address6"), s.get("port6"),
                    s.get("address4"), s.get("port4"), s.get("remote4"),
                    s.get("remote-port4"))
                for s in cli_json(b, "-i", "n", "session", "list", "--tcp",
                                  changing=True))

        def neigh(ns):
            return "; ".join(" ".join(
                str(n.get(k, "")) for k in ("dst", "dev", "lladdr", "state"))
                for n in json.loads(run(["ip", "-n", ns.name, "-j", "neigh",
                                         "show"]).out))

        def sockets(ns):
            out = run(["ip", "netns", "exec", ns.name, "ss", "-tniH"],
                      check=False).out
            skip = ("skmem", "cubic", "wscale", "ts", "sack")
            return " | ".join(" ".join(w for w in line.split()
                                       if not w.startswith(skip))
                              for line in out.splitlines())

        part("boxB", lambda: " ".join("%s=%s" % kv for kv in
                                      sorted(stats(b, "n").items()) if kv[1]))
        part("boxB tcp sessions", sessions)
        for role in ("s4", "c6", "B"):
            part(role + " neigh", lambda r=role: neigh(self.ns[r]))
        for role in ("c6", "s4"):
            part(role + " tcp", lambda r=role: sockets(self.ns[r]))
        part("keepalived", self.logs)
        return "\n".join(out)

    def logs(self):
        return "\n".join("--- keepalived %s\n%s" % (
            n, (self.tmp / ("keepalived-%s.log" % n)).read_text()[-3000:])
            for n in self.ka)


@pytest.fixture
def failover(tmp_path):
    f = Failover(tmp_path)
    try:
        yield f.build()
    finally:
        f.destroy()


def _bib(ns, proto):
    return sorted((b["address6"], b["port6"], b["address4"], b["port4"])
                  for b in cli_json(ns, "-i", "n", "bib", "list",
                                    "--" + proto, changing=True))


class UdpStream:
    """Numbered datagrams client6 -> server4 at UDP_RATE; the receiver
    keeps (number, arrival time, source) of each."""

    def __init__(self, c6, s4):
        self.rx = s4.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.rx.bind((SERVER4, UDP_PORT))
        self.rx.settimeout(0.5)
        self.tx = c6.socket(socket.AF_INET6, socket.SOCK_DGRAM)
        self.got = []
        self.sent = 0
        self.stop = threading.Event()
        self.threads = [threading.Thread(target=f, daemon=True)
                        for f in (self._send, self._recv)]

    def start(self):
        for t in self.threads:
            t.start()

    def _send(self):
        start = time.monotonic()
        while not self.stop.is_set():
            try:
                self.tx.sendto(struct.pack("!I", self.sent) + bytes(60),
                               (SERVER4_6, UDP_PORT))
            except OSError:         # no neighbour yet: lost, numbered
                pass
            self.sent += 1
            delay = start + self.sent / UDP_RATE - time.monotonic()
            if delay > 0:
                time.sleep(delay)

    def _recv(self):
        while not self.stop.is_set():
            try:
                data, src = self.rx.recvfrom(2048)
            except socket.timeout:
                continue
            self.got.append((struct.unpack("!I", data[:4])[0],
                             time.monotonic(), src))

    def finish(self):
        self.stop.set()
        for t in self.threads:
            t.join(5)
        self.rx.close()
        self.tx.close()


@pytest.mark.bulk
def test_failover_keeps_tcp_and_udp(failover, tmp_path):
    f = failover
    c6, s4, a, b = (f.ns[k] for k in ("c6", "s4", "A", "B"))
    f.keepalived("A")
    f.keepalived("B")
    try:
        _wait(lambda: f.master("A"), 40, "boxA master")
    except AssertionError:
        raise AssertionError(f.logs())
    assert not _has_addr(b, "e4", VIP4) and not _has_addr(b, "e6", VIP6)

    udp = UdpStream(c6, s4)
    srv_log = tmp_path / "iperf3-server.json"
    srv = s4.popen("iperf3", "-s", "-1", "-B", SERVER4, "-J",
                   "--logfile", srv_log,
                   stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    client = None
    try:
        _wait(lambda: "5201" in run(["ip", "netns", "exec", s4.name, "ss",
                                     "-Hltn"]).out, 20, "iperf3 server")
        udp.start()
        cli_out = open(tmp_path / "iperf3-client.json", "w")
        client = c6.popen("iperf3", "-6", "-c", SERVER4_6, "-t", IPERF_TIME,
                          "-b", "8M", "-J", stdout=cli_out,
                          stderr=subprocess.STDOUT)
        time.sleep(KILL_AFTER)
        # What boxA gave the flows, then boxA dies.
        bib_a = {p: _bib(a, p) for p in ("tcp", "udp")}
        assert len(bib_a["tcp"]) == 2, bib_a     # iperf3: control, data
        assert len(bib_a["udp"]) == 1, bib_a
        before = len(udp.got)
        assert before > 0, "no UDP through boxA before the kill"
        kill_at = time.monotonic()
        kill_wall = time.time()
        f.kill("A")
        _wait(lambda: f.master("B"), 40, "boxB master")
        try:
            rc = client.wait(IPERF_TIME + 120)
        except subprocess.TimeoutExpired:
            now = time.monotonic()
            late = [t for _, t, _ in udp.got if t > kill_at]
            raise AssertionError(
                "iperf3 not done %.0f s after the kill; UDP at server4 "
                "after it: %d datagrams, the last %s; boxA's BIB at the "
                "kill: %s\n%s"
                % (now - kill_at, len(late),
                   "%.1f s ago" % (now - late[-1]) if late else "none",
                   bib_a, f.state())) from None
        finally:
            cli_out.close()
        srv.wait(30)
        time.sleep(1)
    finally:
        udp.finish()
        for p in (srv, client):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait(10)

    # TCP: iperf3 ended without error, and the server got data after
    # the kill (every interval that starts after it, conservatively).
    out = (tmp_path / "iperf3-client.json").read_text()
    res = json.loads(out)
    assert rc == 0 and "error" not in res, out[-2000:] + f.logs()
    srv_res = json.loads(srv_log.read_text())
    assert "error" not in srv_res, srv_res.get("error")
    t0 = srv_res["start"]["timestamp"]["timesecs"]
    after = sum(i["sum"]["bytes"] for i in srv_res["intervals"]
                if i["sum"]["start"] >= kill_wall - t0 + 1)
    assert after > 0, "no TCP bytes received after the kill"
    assert res["end"]["sum_received"]["bytes"] > 0

    # UDP: resumed after the kill, from the same IPv4 transport address.
    arrivals = [t for _, t, _ in udp.got]
    late = [g for g in udp.got if g[1] > kill_at]
    assert late, "no UDP datagram after the kill"
    assert {g[2] for g in udp.got} == {(POOL4, bib_a["udp"][0][3])}
    gap = max(y - x for x, y in zip(arrivals, arrivals[1:]))
    lost = udp.sent - len({n for n, _, _ in udp.got})
    print("failover outage (largest gap between UDP arrivals): %.2f s, "
          "%d of %d datagrams lost; TCP bytes received after the kill: %d"
          % (gap, lost, udp.sent, after))

    # boxB rebuilt the BIB entries boxA had: the same IPv4 ports.
    assert {p: _bib(b, p) for p in ("tcp", "udp")} == bib_a
    st = stats(b, "n")
    assert st["tcp-rebuilt"] == 2, st
