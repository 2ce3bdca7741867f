"""Several NAT64 boxes behind an ECMP router, one pool (box-count, box-index).

    c6 (24 IPv6 clients) -- r -- s4 (IPv4 server 203.0.113.2)
                           |
                 b0, b1, b2 (translators)

r routes pool6 (2001:db8:64::/96) to the three boxes with one ECMP route
hashed on the 5-tuple (net.ipv6.fib_multipath_hash_policy=1), and each
share of pool4 back to its box: every box loads the same configuration
(`tern config apply`) but for box-index, pool4 is 198.51.100.0/30, .4/30
and .8/30 (12 addresses), so box k owns 198.51.100.4k/30. Neighbours are
static and the hosts quiet (no DAD, no link-local addresses).

The clients open UDP and TCP flows from 24 addresses x several ports to
the server, which echoes and records the IPv4 source it saw. Every flow
must get its reply; the flows spread over the three boxes; each box's
sessions use only addresses of its share, each flow is a session of
exactly one box, with the IPv4 address and port the server saw; in
deterministic mode each port lies in the block `tern det lookup` gives
for its subscriber on that box (running and offline).
"""

import ipaddress
import json
import socket
import threading

import pytest

from ternlib import (Netns, assert_error, cli, cli_json, cli_ok, embed, run,
                     tx_checksum)

BOXES = 3
POOL6 = "2001:db8:64::/96"
POOL4 = ["198.51.100.0/30", "198.51.100.4/30", "198.51.100.8/30"]
SERVER = "203.0.113.2"
SERVER6 = embed(SERVER, POOL6)
CLIENTS = ["2001:db8:6::%x" % (0x10 + i) for i in range(24)]
SPACE = "2001:db8:6::/120"
UDP_PORT, TCP_PORT = 7000, 7001
UDP_FLOWS, TCP_FLOWS = 4, 2          # per client address

QUIET6 = {"net/ipv6/conf/all/accept_dad": 0,
          "net/ipv6/conf/default/accept_dad": 0,
          "net/ipv6/conf/default/addr_gen_mode": 1,
          "net/ipv6/conf/all/router_solicitations": 0,
          "net/ipv6/conf/default/router_solicitations": 0,
          "net/ipv6/conf/all/accept_ra": 0,
          "net/ipv6/conf/default/accept_ra": 0}


def _mac(a, b):
    return "02:00:00:00:%02x:%02x" % (a, b)


def share(k):
    """Box K's addresses, by the documented formula (docs/deterministic.md):
    A[floor(N k / n) .. floor(N (k+1) / n)) of the 12 in ascending order."""
    addrs = [str(a) for p in POOL4 for a in ipaddress.IPv4Network(p)]
    n = len(addrs)
    return addrs[n * k // BOXES:n * (k + 1) // BOXES]


def config(k, det=False):
    g = {"box-count": BOXES, "box-index": k}
    if det:
        g.update({"det-space": SPACE, "subscriber-prefix-len": 128})
    return {"instances": [{"name": "n", "type": "nat64", "pool6": POOL6,
                           "globals": g,
                           "pool4": [{"prefix": p} for p in POOL4]}]}


class Boxes:
    def __init__(self):
        self.ns = []

    def _veth(self, a, a_dev, a_mac, b, b_dev, b_mac):
        run(["ip", "link", "add", a_dev, "netns", a.name, "address", a_mac,
             "type", "veth", "peer", "name", b_dev, "netns", b.name,
             "address", b_mac])

    def build(self, tmp):
        self.c6, self.r, self.s4 = Netns("c6"), Netns("r"), Netns("s4")
        self.ns = [self.c6, self.r, self.s4]
        self.box = [Netns("b%d" % k) for k in range(BOXES)]
        self.ns += self.box
        for ns in self.ns:
            fwd = 1 if ns is self.r or ns in self.box else 0
            ns.sysctl(dict(QUIET6, **{"net/ipv6/conf/all/forwarding": fwd,
                                      "net/ipv4/ip_forward": fwd}))
        self.r.sysctl({"net/ipv6/fib_multipath_hash_policy": 1})
        c_mac, rc_mac = _mac(0xc6, 2), _mac(0xc6, 1)
        s_mac, rs_mac = _mac(0x54, 2), _mac(0x54, 1)
        self._veth(self.c6, "eth0", c_mac, self.r, "c6", rc_mac)
        self._veth(self.s4, "eth0", s_mac, self.r, "s4", rs_mac)
        self.c6.ip_batch(
            ["link set lo up", "link set eth0 up"]
            + ["addr add %s/64 dev eth0 nodad" % a for a in CLIENTS]
            + ["neigh replace 2001:db8:6::1 lladdr %s dev eth0 nud "
               "permanent" % rc_mac,
               "route add ::/0 via 2001:db8:6::1 dev eth0"])
        self.s4.ip_batch(
            ["link set lo up", "addr add %s/24 dev eth0" % SERVER,
             "link set eth0 up",
             "neigh replace 203.0.113.1 lladdr %s dev eth0 nud permanent"
             % rs_mac, "route add default via 203.0.113.1"])
        r = ["link set lo up", "addr add 2001:db8:6::1/64 dev c6 nodad",
             "addr add 203.0.113.1/24 dev s4", "link set c6 up",
             "link set s4 up",
             "neigh replace %s lladdr %s dev s4 nud permanent"
             % (SERVER, s_mac)]
        r += ["neigh replace %s lladdr %s dev c6 nud permanent" % (a, c_mac)
              for a in CLIENTS]
        hops = []
        for k, b in enumerate(self.box):
            b_mac, rb_mac = _mac(0xb0 + k, 2), _mac(0xb0 + k, 1)
            self._veth(b, "eth0", b_mac, self.r, "b%d" % k, rb_mac)
            tx_checksum(b, "eth0", False)
            b.ip_batch([
                "link set lo up",
                "addr add 2001:db8:a:%d::2/64 dev eth0 nodad" % k,
                "addr add 10.0.%d.2/24 dev eth0" % k, "link set eth0 up",
                "neigh replace 2001:db8:a:%d::1 lladdr %s dev eth0 nud "
                "permanent" % (k, rb_mac),
                "neigh replace 10.0.%d.1 lladdr %s dev eth0 nud permanent"
                % (k, rb_mac),
                "route add default via 10.0.%d.1" % k,
                "route add ::/0 via 2001:db8:a:%d::1" % k])
            r += ["addr add 2001:db8:a:%d::1/64 dev b%d nodad" % (k, k),
                  "addr add 10.0.%d.1/24 dev b%d" % (k, k),
                  "link set b%d up" % k,
                  "neigh replace 2001:db8:a:%d::2 lladdr %s dev b%d nud "
                  "permanent" % (k, b_mac, k),
                  "neigh replace 10.0.%d.2 lladdr %s dev b%d nud permanent"
                  % (k, b_mac, k)]
            # The IPv4 return route of box k's share: a /30 here.
            net = ipaddress.IPv4Network("%s/30" % share(k)[0])
            assert [str(a) for a in net] == share(k)
            r.append("route add %s via 10.0.%d.2" % (net, k))
            hops.append("nexthop via 2001:db8:a:%d::2 dev b%d" % (k, k))
        r.append("route add %s %s" % (POOL6, " ".join(hops)))
        self.r.ip_batch(r)
        # One configuration for every box but box-index.
        for k, b in enumerate(self.box):
            path = tmp / ("box%d.json" % k)
            path.write_text(json.dumps(config(k)))
            cli_ok(b, "config", "apply", str(path))
        return self

    def destroy(self):
        for ns in self.ns:
            ns.delete()


@pytest.fixture(scope="module")
def boxes(tmp_path_factory):
    b = Boxes()
    try:
        yield b.build(tmp_path_factory.mktemp("boxes"))
    finally:
        b.destroy()


# --- Traffic ------------------------------------------------------------


def _udp_server(sock, seen, n):
    for _ in range(n):
        data, peer = sock.recvfrom(2048)
        seen[data] = peer[:2]
        sock.sendto(data, peer)


def _tcp_server(sock, seen, n):
    for _ in range(n):
        conn, peer = sock.accept()
        conn.settimeout(30)
        with conn:
            data = b""
            while True:
                chunk = conn.recv(2048)
                if not chunk:
                    break
                data += chunk
            seen[data] = peer[:2]
            conn.sendall(data[::-1])


def run_flows(boxes, base):
    """UDP and TCP flows from every client address, source ports from
    BASE; returns {(proto, addr6, port6): (addr4, port4)}, the IPv4
    source the server saw, after checking every reply."""
    udp = [(a, base + j) for a in CLIENTS for j in range(UDP_FLOWS)]
    tcp = [(a, base + 100 + j) for a in CLIENTS for j in range(TCP_FLOWS)]
    seen_u, seen_t = {}, {}
    su = boxes.s4.socket(socket.AF_INET, socket.SOCK_DGRAM)
    su.bind((SERVER, UDP_PORT))
    su.settimeout(30)
    st = boxes.s4.socket(socket.AF_INET, socket.SOCK_STREAM)
    st.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    st.bind((SERVER, TCP_PORT))
    st.listen(len(tcp))
    st.settimeout(30)
    threads = [threading.Thread(target=_udp_server,
                                args=(su, seen_u, len(udp)), daemon=True),
               threading.Thread(target=_tcp_server,
                                args=(st, seen_t, len(tcp)), daemon=True)]
    for t in threads:
        t.start()
    try:
        socks = []
        for a, p in udp:
            s = boxes.c6.socket(socket.AF_INET6, socket.SOCK_DGRAM)
            s.bind((a, p))
            s.settimeout(30)
            s.sendto(("u %s %d" % (a, p)).encode(), (SERVER6, UDP_PORT))
            socks.append(s)
        for (a, p), s in zip(udp, socks):
            data, peer = s.recvfrom(2048)
            assert data == ("u %s %d" % (a, p)).encode()
            assert peer[:2] == (SERVER6, UDP_PORT)
            s.close()
        for a, p in tcp:
            s = boxes.c6.socket(socket.AF_INET6, socket.SOCK_STREAM)
            s.settimeout(30)
            s.bind((a, p))
            s.connect((SERVER6, TCP_PORT))
            msg = ("t %s %d" % (a, p)).encode()
            s.sendall(msg)
            s.shutdown(socket.SHUT_WR)
            got = b""
            while True:
                chunk = s.recv(2048)
                if not chunk:
                    break
                got += chunk
            assert got == msg[::-1]
            s.close()
        for t in threads:
            t.join(30)
            assert not t.is_alive()
    finally:
        su.close()
        st.close()
    flows = {}
    for a, p in udp:
        flows[("udp", a, p)] = seen_u[("u %s %d" % (a, p)).encode()]
    for a, p in tcp:
        flows[("tcp", a, p)] = seen_t[("t %s %d" % (a, p)).encode()]
    return flows


def sessions_by_box(boxes):
    return [cli_json(b, "-i", "n", "session", "list", changing=True)
            for b in boxes.box]


def check_boxes(boxes, flows):
    """Every flow is a session of exactly one box, with the IPv4 source
    the server saw; every box has some; each uses its share only.
    Returns {flow: box}."""
    where = {}
    for k, sess in enumerate(sessions_by_box(boxes)):
        assert len(sess) > 0, "box %d has no session" % k
        mine = set(share(k))
        for s in sess:
            key = (s["protocol"], s["address6"], s["port6"])
            assert key in flows, s
            assert key not in where, "flow %s on boxes %d and %d" % (
                key, where[key], k)
            where[key] = k
            assert s["address4"] in mine, (k, s)
            assert (s["address4"], s["port4"]) == flows[key], s
            assert (s["remote4"], s["remote-port4"]) == (
                SERVER, UDP_PORT if s["protocol"] == "udp" else TCP_PORT)
    assert set(where) == set(flows)
    return where


def flush(boxes):
    for b in boxes.box:
        cli_ok(b, "-i", "n", "session", "flush")


# --- Tests --------------------------------------------------------------


def test_boxes_dynamic_spread_over_shares(boxes):
    flush(boxes)
    flows = run_flows(boxes, 40000)
    assert len(flows) == len(CLIENTS) * (UDP_FLOWS + TCP_FLOWS)
    where = check_boxes(boxes, flows)
    assert sorted(set(where.values())) == list(range(BOXES))
    flush(boxes)


def test_boxes_deterministic_blocks_per_box(boxes, tmp_path):
    for k, b in enumerate(boxes.box):
        path = tmp_path / ("box%d.json" % k)
        path.write_text(json.dumps(config(k, det=True)))
        cli_ok(b, "config", "apply", str(path))
    try:
        flush(boxes)
        flows = run_flows(boxes, 42000)
        where = check_boxes(boxes, flows)
        conf = tmp_path / "running.json"
        conf.write_text(cli_ok(boxes.box[0], "config", "show"))
        blocks = {}
        for a in CLIENTS:
            got = cli_json(boxes.box[1], "-i", "n", "det", "lookup", a)
            off = cli_json(boxes.box[2], "det", "lookup", "--config",
                           str(conf), a)
            assert got == off
            # One line per protocol of pool4 and box.
            assert sorted((g["protocol"], g["box"]) for g in got) == \
                sorted((p, k) for p in ("tcp", "udp", "icmp")
                       for k in range(BOXES))
            for g in got:
                assert g["subscriber"] == a + "/128"
                assert g["address4"] in share(g["box"])
                blocks[(g["protocol"], a, g["box"])] = g
        for n, ((proto, a, p), (addr4, port4)) in enumerate(flows.items()):
            g = blocks[(proto, a, where[(proto, a, p)])]
            assert addr4 == g["address4"]
            assert g["port-first"] <= port4 <= g["port-last"]
            # And back: the IPv4 transport address names the box and the
            # subscriber (offline; from the running configuration too
            # for some).
            t4 = "%s#%d" % (addr4, port4)
            back = cli_json(None, "det", "lookup", "--config", str(conf),
                            t4, "--" + proto)
            assert back == [g]
            if n % 16 == 0:
                assert cli_json(boxes.box[0], "-i", "n", "det", "lookup",
                                t4, "--" + proto) == [g]
        flush(boxes)
    finally:
        for k, b in enumerate(boxes.box):
            cli_ok(b, "-i", "n", "global", "set", "det-space", "none")


def test_boxes_settings_refused(boxes, tmp_path):
    b = boxes.box[1]
    assert_error(cli(b, "-i", "n", "global", "set", "box-index", "3"), 1,
                 "^tern: box-index 3 is not below box-count 3$")
    conf = config(1)
    conf["instances"][0]["globals"]["box-count"] = 13
    path = tmp_path / "thirteen.json"
    path.write_text(json.dumps(conf))
    r = cli(b, "config", "apply", str(path))
    assert r.rc == 1 and "box-count 13 > 12 TCP pool4 addresses (mark 0): " \
        "a box gets none" in r.err, r.err
    g = cli_json(b, "-i", "n", "global", "show")
    assert (g["box-count"], g["box-index"]) == (BOXES, 1)
