"""Randomized comparison of Tern with Jool 4.1.9 (SIIT) on RFC 7915 traffic.

Runs inside a VM on Debian's 6.1 kernel with tern.ko loaded (test/in-vm.sh)
and Debian's DKMS-built jool_siit available. Two identical topologies of
test/functional/ternlib.py (h6 -- xl -- h4), one with a Tern instance in
its xl, one with a Jool instance, configured alike. Every generated packet
(valid and invalid, seeded) goes into both; what comes out of each
translator's namespace (the translated frames at the far host, the errors
sent back to the sending host) is captured and compared field by field.
Disagreements are grouped into classes; the command succeeds only if every
class is in test/compare/allowlist.txt (the deliberate, documented
differences, each pointing at docs/conformance/rfc7915.md).

Environment: COMPARE_SEED (default: random, printed), COMPARE_PACKETS
(per direction, default 2000), COMPARE_VERBOSE=1 (every disagreement).
"""

import ipaddress
import os
import random
import re
import select
import socket
import struct
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "functional"))

import ternlib as tl  # noqa: E402
from ternlib import (H4, H6, H6_LINK, POOL6, SINK4, SINK4_6,  # noqa: E402
                     SINK6_4, XL4, XL6, addr4, addr6, embed, frag6_header,
                     inet_csum, pseudo4, pseudo6, run)

EAM6, EAM4 = "2001:db8:6:e::/120", "192.0.2.0/24"
MARK = b"TERNCMPMARK"
ETH_P_ALL = 3
PACKET_OUTGOING = 4

# ---------------------------------------------------------------------------
# Setup.


def sh(ns, *cmd):
    return run(["ip", "netns", "exec", str(ns)] + [str(c) for c in cmd])


def prepare(topo):
    """Routes and sysctls both topologies share: xl sends everything it
    forwards or translates to the hosts (default routes), answers without
    rate limits; the hosts answer nothing."""
    topo.xl.ip_batch([
        "route add default via %s dev v4" % tl.H4,
        "route add default via %s dev v6" % H6_LINK,
    ])
    for key, val in (("net/ipv4/icmp_ratelimit", 0),
                     ("net/ipv6/icmp/ratelimit", 0),
                     ("net/ipv4/icmp_msgs_per_sec", 1000000),
                     ("net/ipv4/icmp_msgs_burst", 1000000)):
        try:
            topo.xl.sysctl({key: val})
        except OSError:
            pass
    topo.h4.sysctl({"net/ipv4/icmp_echo_ignore_all": 1,
                    "net/ipv4/icmp_ratelimit": 1000000,
                    "net/ipv4/icmp_ratemask": 0})
    topo.h6.sysctl({"net/ipv6/icmp/echo_ignore_all": 1,
                    "net/ipv6/icmp/ratelimit": 1000000})


# Tern's globals as Jool's are by default, where they differ.
TERN_SET = [(k, v) for k, v in
            [("icmp-on-drop", os.environ.get("COMPARE_ICMP_ON_DROP"))] if v]
JOOL_SET = []


def setup_tern(topo):
    tl.cli_ok(topo.xl, "instance", "add", "t", "--siit", "--pool6", POOL6)
    tl.cli_ok(topo.xl, "-i", "t", "eamt", "add", EAM6, EAM4)
    for k, v in TERN_SET:
        tl.cli_ok(topo.xl, "-i", "t", "global", "set", k, v)
    return tl.cli_ok(topo.xl, "-i", "t", "global", "show")


def setup_jool(topo):
    sh(topo.xl, "jool_siit", "instance", "add", "--netfilter", "--pool6",
       POOL6)
    sh(topo.xl, "jool_siit", "eamt", "add", EAM6, EAM4)
    for k, v in JOOL_SET:
        sh(topo.xl, "jool_siit", "global", "update", k, v)
    return sh(topo.xl, "jool_siit", "global", "display").out


class Tap:
    """Raw frames arriving at a host's eth0 (bytes, in order)."""

    def __init__(self, ns):
        with tl.in_netns(str(ns)):
            self.s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW,
                                   socket.htons(ETH_P_ALL))
        self.s.setsockopt(socket.SOL_SOCKET, 33, 32 << 20)
        self.s.bind(("eth0", ETH_P_ALL))
        self.s.setblocking(False)
        self.frames = []

    def drain(self, timeout):
        r, _, _ = select.select([self.s], [], [], timeout)
        while r:
            try:
                data, addr = self.s.recvfrom(65535)
            except BlockingIOError:
                break
            if addr[2] == PACKET_OUTGOING:
                continue
            self.frames.append(data)

    def take(self):
        f, self.frames = self.frames, []
        return f


class Side:
    def __init__(self, name, topo):
        self.name, self.topo = name, topo
        self.tap4, self.tap6 = Tap(topo.h4), Tap(topo.h6)
        with tl.in_netns(str(topo.h6)):
            self.tx6 = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
        self.tx6.bind(("eth0", 0))
        with tl.in_netns(str(topo.h4)):
            self.tx4 = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, 0)
        self.tx4.bind(("eth0", 0))
        self.eth6 = bytes.fromhex(tl.XL6_MAC.replace(":", "")) + \
            bytes.fromhex(tl.H6_MAC.replace(":", "")) + b"\x86\xdd"
        self.eth4 = bytes.fromhex(tl.XL4_MAC.replace(":", "")) + \
            bytes.fromhex(tl.H4_MAC.replace(":", "")) + b"\x08\x00"

    def send6(self, pkt, etype=None):
        eth = self.eth6 if etype is None else self.eth6[:12] + etype
        self.tx6.send(eth + pkt)

    def send4(self, pkt, etype=None):
        eth = self.eth4 if etype is None else self.eth4[:12] + etype
        self.tx4.send(eth + pkt)


def udp6(src, dst, payload, sport=40000, dport=9):
    u = tl.udp_datagram(src, dst, sport, dport, payload)
    return tl.ip6_packet(src, dst, 17, u)


def udp4(src, dst, payload, sport=9, dport=40000):
    u = tl.udp_datagram(src, dst, sport, dport, payload)
    return tl.ip4_packet(src, dst, 17, u, ident=1)


def marker6(i):
    return udp6(H6, SINK4_6, MARK + struct.pack("!I", i))


def marker4(i):
    return udp4(H4, SINK6_4, MARK + struct.pack("!I", i))


def mark_of(frame):
    k = frame.find(MARK)
    if k < 0 or len(frame) < k + len(MARK) + 4:
        return None
    return struct.unpack("!I", frame[k + len(MARK):k + len(MARK) + 4])[0]


# ---------------------------------------------------------------------------
# The generator. Each packet: (direction, bytes, ethertype or None, kind,
# traits). 6to4 packets are sent by h6, 4to6 ones by h4.

SPECIAL4 = ["0.0.0.0", "0.1.2.3", "10.1.2.3", "100.64.0.1", "127.0.0.1",
            "169.254.1.1", "172.16.0.1", "192.0.0.1", "192.0.2.200",
            "192.168.1.1", "198.18.0.1", "224.0.0.1", "239.1.2.3",
            "240.0.0.1", "255.255.255.255", "203.0.113.255",
            "203.0.113.1"]
SPECIAL6 = ["::", "::1", "fe80::1", "ff02::1", "ff0e::1", "fc00::1",
            "2001:db8:6::1", "2001:db8:99::1", "64:ff9b::c000:201",
            "::ffff:192.0.2.1", "2001::1", "2002:c000:201::1"]
SIZES = [1232, 1240, 1252, 1259, 1260, 1261, 1272, 1279, 1280, 1281,
         1300, 1420, 1452, 1472, 1479, 1480, 1500]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def pay(self, n):
        r = self.r
        return bytes(r.getrandbits(8) for _ in range(n)) if n < 64 else \
            (tl.PAYLOAD * (n // len(tl.PAYLOAD) + 1))[
                (o := r.randrange(256)):o + n]

    def plen(self, hdr, tr):
        """A payload length: small, or making the packet one of SIZES."""
        r = self.r
        if self.a == "size":
            tr.append("size~%d" % (s := r.choice(SIZES)))
            return max(0, s - hdr)
        return r.choice([0, 1, 7, 8, 20, r.randrange(0, 600)])

    # addresses
    def pub4(self):
        r = self.r
        return "%d.%d.%d.%d" % (r.choice([8, 45, 93, 151, 185, 203]),
                                r.randrange(256), r.randrange(256),
                                r.randrange(1, 255))

    def src6(self, tr):
        r = self.r
        if self.a != "src":
            return H6 if r.random() < 0.7 else \
                embed("198.51.100.%d" % r.randrange(3, 250)) \
                if r.random() < 0.6 else "2001:db8:6:e::%x" % r.randrange(1, 255)
        if r.random() < 0.6:
            a = r.choice(SPECIAL4)
            tr.append("src=pool6(%s)" % a)
            return embed(a)
        a = r.choice(SPECIAL6)
        tr.append("src=%s" % a)
        return a

    def dst6(self, tr):
        r = self.r
        if self.a != "dst":
            return SINK4_6 if r.random() < 0.7 else embed(self.pub4())
        if r.random() < 0.6:
            a = r.choice(SPECIAL4)
            tr.append("dst=pool6(%s)" % a)
            return embed(a)
        a = r.choice(SPECIAL6 + [XL6])
        tr.append("dst=%s" % a)
        return a

    def src4(self, tr):
        r = self.r
        if self.a != "src":
            return H4 if r.random() < 0.6 else self.pub4()
        a = r.choice(SPECIAL4)
        tr.append("src=%s" % a)
        return a

    def dst4(self, tr):
        r = self.r
        if self.a != "dst":
            x = r.random()
            return SINK6_4 if x < 0.6 else \
                "198.51.100.%d" % r.randrange(3, 250) if x < 0.85 else \
                "192.0.2.%d" % r.randrange(1, 255)
        a = r.choice(SPECIAL4 + [XL4])
        tr.append("dst=%s" % a)
        return a

    # transport
    def l4(self, fam, src, dst, kind, n, tr, bad=False):
        r = self.r
        ps = (lambda p, ln: pseudo6(src, dst, p, ln)) if fam == 6 else \
            (lambda p, ln: pseudo4(src, dst, p, ln))
        data = self.pay(n)
        if kind == "udp":
            u = struct.pack("!HHHH", r.randrange(1024, 65536),
                            r.choice([53, 9, 4000, r.randrange(65536)]),
                            8 + n, 0) + data
            if fam == 4 and self.a == "csum0":
                tr.append("udp-csum0")
                return 17, u
            c = inet_csum(ps(17, len(u)) + u) or 0xFFFF
            return 17, u[:6] + struct.pack("!H", c) + u[8:]
        if kind == "tcp":
            opts = b""
            if r.random() < 0.3:
                opts = b"\x02\x04\x05\xb4\x01\x03\x03\x07"
            t = struct.pack("!HHIIBBHHH", r.randrange(1024, 65536), 80,
                            r.getrandbits(32), r.getrandbits(32),
                            (5 + len(opts) // 4) << 4,
                            r.choice([0x02, 0x10, 0x18, 0x11, 0x04,
                                      r.getrandbits(8)]),
                            r.getrandbits(16), 0,
                            r.choice([0, 0, r.getrandbits(16)])) + opts + data
            return 6, tl.with_csum(t, 16, ps(6, len(t)))
        if kind == "echo":
            p = 58 if fam == 6 else 1
            t = r.choice([128, 129]) if fam == 6 else r.choice([8, 0])
            code = 0
            if self.a == "code":
                code = r.randrange(1, 256)
                tr.append("echo-code")
            m = struct.pack("!BBHHH", t, code, 0, r.getrandbits(16),
                            r.getrandbits(16)) + data
            return p, tl.with_csum(m, 2, ps(58, len(m)) if fam == 6 else b"")
        if kind == "info":
            p = 58 if fam == 6 else 1
            t = r.choice([130, 131, 132, 133, 134, 135, 136, 137, 143, 139,
                          200, r.randrange(128, 256)]) if fam == 6 else \
                r.choice([13, 14, 15, 16, 17, 18, 9, 10, 6, 30, 40,
                          r.randrange(19, 256)])
            tr.append("type=%d" % t)
            m = struct.pack("!BBH", t, r.randrange(3) and 0 or
                            r.randrange(256), 0) + self.pay(4) + data
            return p, tl.with_csum(m, 2, ps(58, len(m)) if fam == 6 else b"")
        # another protocol
        p = r.choice([132, 33, 47, 50, 253, 59 if fam == 6 else 4])
        tr.append("proto=%d" % p)
        return p, data

    # ICMP errors
    def err_body(self, fam, osrc, odst, tr, inner_err=False):
        """An error's type, code, 4 bytes and quoted packet, from ODST's
        point of view (the quote goes ODST -> elsewhere)."""
        r = self.r
        itr = []
        ikind = "error" if self.a == "inerr" and not inner_err else \
            r.choice(["udp", "udp", "tcp", "tcp", "echo", "other"])
        if fam == 6:
            t, c = r.choice([(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5),
                             (1, 6), (1, 7), (2, 0), (3, 0), (3, 1), (4, 0),
                             (4, 1), (4, 2), (4, 3), (r.randrange(5, 128),
                                                     r.randrange(256)),
                             (r.randrange(1, 5), r.randrange(256))])
            isrc, idst = odst, embed(self.pub4()) if r.random() < 0.8 else \
                self.dst6(itr)
            if ikind == "error":
                body = self.err_body(6, idst, isrc, [], True)
                ip, l4b = 58, body
            else:
                ip, l4b = self.l4(6, isrc, idst, ikind,
                                  r.choice([0, 8, 32, 100, 400, 1200]), itr)
            inner = self.ip6(isrc, idst, ip, l4b, itr, inner=True)
            rest = b"\0\0\0\0"
            if t == 2:
                rest = struct.pack("!I", r.choice([0, 68, 1000, 1279, 1280,
                                                   1400, 1500, 9000,
                                                   r.getrandbits(32)]))
            elif t == 4:
                rest = struct.pack("!I", r.choice(
                    [0, 4, 6, 7, 8, 9, 24, 39, 40, 41, r.randrange(256),
                     r.getrandbits(32)]))
        else:
            t, c = r.choice([(3, x) for x in range(16)] +
                            [(11, 0), (11, 1), (12, 0), (12, 1), (12, 2),
                             (4, 0), (5, 0), (5, 1),
                             (r.randrange(3, 20), r.randrange(256))])
            isrc = odst
            idst = self.pub4() if r.random() < 0.8 else self.dst4(itr)
            if ikind == "error":
                body = self.err_body(4, idst, isrc, [], True)
                ip, l4b = 1, body
            else:
                ip, l4b = self.l4(4, isrc, idst, ikind,
                                  r.choice([0, 8, 32, 100, 400, 1200]), itr)
            inner = self.ip4(isrc, idst, ip, l4b, itr, inner=True)
            rest = b"\0\0\0\0"
            if (t, c) == (3, 4):
                rest = struct.pack("!HH", 0, r.choice(
                    [0, 68, 576, 1000, 1280, 1400, 1492, 1500, 65535,
                     r.getrandbits(16)]))
            elif t == 12:
                rest = bytes([r.choice([0, 1, 2, 3, 8, 9, 10, 12, 16, 19, 20,
                                        r.randrange(256)])]) + b"\0\0\0"
        tr.append("err %d/%d quoting %s%s" % (t, c, ikind,
                                              "," + ",".join(itr) if itr
                                              else ""))
        # truncated quotes, RFC 4884
        x = {"cut": 0, "4884": 0.3}.get(self.a, 1) if not inner_err else 1
        if x < 0.25:
            cut = r.choice([0, 1, 8, 19, 20, 28, 39, 40, 47, 48, 60, 100])
            inner = inner[:cut]
            tr.append("quote-cut-%d" % cut)
        elif x < 0.5 and t in ((1, 3, 11, 12) if fam == 4 else (1, 3)):
            q = inner[:128].ljust(128, b"\0")
            ext = struct.pack("!BBH", 0x20, 0, 0) + struct.pack(
                "!HBB", 8, 1, 1) + self.pay(4)
            ext = ext[:2] + struct.pack("!H", inet_csum(ext)) + ext[4:]
            words = 128 // (4 if fam == 4 else 8) if r.random() < 0.8 \
                else r.randrange(1, 256)
            tr.append("rfc4884 len=%d" % words)
            if fam == 4:
                rest = bytes([rest[0], words]) + rest[2:]
            else:
                rest = bytes([words]) + rest[1:]
            inner = q + ext
        return struct.pack("!BBH", t, c, 0) + rest + inner

    def ip6(self, src, dst, nh, l4b, tr, inner=False, hlim=None):
        """IPv6 packet with an optional extension header chain."""
        r = self.r
        chain = b""
        fid = None
        if self.a == "ext" and not inner:
            hs = r.sample(["hbh", "dst", "rt0", "rt1", "frag", "dst2"],
                          r.randrange(1, 4))
            if r.random() < 0.7 and "hbh" in hs:
                hs.remove("hbh")
                hs.insert(0, "hbh")
            tr.append("ext=" + "+".join(hs))
            nxt = nh
            for h in reversed(hs):
                if h in ("hbh", "dst", "dst2"):
                    opt = r.choice([b"\x01\x04\0\0\0\0", b"\x00" * 6,
                                    b"\x01\x0c" + b"\0" * 12 + b"\x01\x02\0\0\0\0"[:0]])
                    ln = 2 + len(opt)
                    opt += b"\0" * ((-ln) % 8)
                    body = bytes([nxt, (2 + len(opt)) // 8 - 1]) + opt
                    code = 0 if h == "hbh" else 60
                elif h in ("rt0", "rt1"):
                    body = bytes([nxt, 2, r.choice([0, 2, 3, 4]),
                                  0 if h == "rt0" else r.randrange(1, 3)]) + \
                        b"\0" * 4 + addr6("2001:db8::1")
                    code = 43
                else:
                    fid = r.getrandbits(32)
                    body = frag6_header(nxt, 0, False, fid)
                    code = 44
                chain = body + chain
                nxt = code
            nh = nxt
        if hlim is None:
            hlim = r.randrange(3, 256) if inner else 64
        tc = fl = 0
        if self.a == "tos" and not inner:
            tc, fl = r.getrandbits(8), r.getrandbits(20)
            tr.append("tc=%d,fl=%d" % (tc, fl))
        return tl.ip6_packet(src, dst, nh, chain + l4b, hlim=hlim, tc=tc,
                             fl=fl)

    def ip4(self, src, dst, proto, l4b, tr, inner=False, ttl=None):
        r = self.r
        opts = b""
        if self.a == "ext" and not inner:
            opts = r.choice([b"\x01\x01\x01\x00", b"\x07\x07\x04" + b"\0" * 5,
                             b"\x94\x04\0\0", b"\x83\x07\x04" +
                             addr4("192.0.2.9") + b"\0",
                             b"\x89\x07\x04" + addr4("192.0.2.9") + b"\0",
                             b"\x44\x0c\x05\x00" + b"\0" * 8])
            tr.append("ipopt=%02x" % opts[0])
        if ttl is None:
            ttl = r.randrange(3, 256) if inner else 64
        df = r.random() < 0.5
        tos = 0
        if self.a == "tos" and not inner:
            tos = r.getrandbits(8)
            tr.append("tos=%d" % tos)
        return tl.ip4_packet(src, dst, proto, l4b, ttl=ttl,
                             tos=tos,
                             ident=r.getrandbits(16), df=df, options=opts)

    def packet(self, direction):
        r = self.r
        tr = []
        anoms = ["none", "none", "none", "src", "dst", "ttl", "csum",
                 "garbage", "ext", "tos", "size"]
        kind = r.choice(["udp", "udp", "udp", "tcp", "tcp", "echo", "echo",
                         "info", "error", "error", "error", "error", "other",
                         "frag", "frag"])
        fam = 6 if direction == "6to4" else 4
        if kind == "error":
            anoms += ["cut", "4884", "inerr"]
        if kind == "echo":
            anoms += ["code"]
        if kind == "udp" and fam == 4:
            anoms += ["csum0"]
        self.a = r.choice(anoms)
        if self.a == "size" and kind == "error":
            self.a = "none"
        src = self.src6(tr) if fam == 6 else self.src4(tr)
        dst = self.dst6(tr) if fam == 6 else self.dst4(tr)
        hl = r.choice([0, 1, 2]) if self.a == "ttl" else 64
        if hl != 64:
            tr.append("ttl=%d" % hl)
        fkind = kind
        if kind == "frag":
            fkind = r.choice(["udp", "tcp", "echo", "other"])
        if kind == "error":
            l4p, l4b = (58 if fam == 6 else 1), self.err_body(fam, src, dst,
                                                              tr)
            if fam == 6:
                l4b = tl.with_csum(l4b, 2, pseudo6(src, dst, 58, len(l4b)))
            else:
                l4b = tl.with_csum(l4b, 2)
        else:
            hdr = (48 if fam == 6 else 28) + (12 if fkind == "tcp" else 0)
            l4p, l4b = self.l4(fam, src, dst, fkind, self.plen(hdr, tr), tr)
        if self.a == "csum" and l4p in (6, 17, 1, 58) and len(l4b) >= 8:
            b = bytearray(l4b)
            k = {6: 16, 17: 6, 1: 2, 58: 2}[l4p]
            b[k] ^= 1 << r.randrange(8)
            l4b = bytes(b)
            tr.append("bad-csum")
        if fam == 6:
            if kind == "frag":
                l4b = self.frag6(l4p, l4b, tr)
                l4p = 44
            pkt = self.ip6(src, dst, l4p, l4b, tr, hlim=hl)
        else:
            pkt = self.ip4(src, dst, l4p, l4b, tr, ttl=hl)
            if kind == "frag":
                pkt = self.frag4(pkt, tr)
        pkt = self.garble(fam, pkt, tr)
        return pkt[:1500], self.label(kind, fkind, tr), tr

    SPECIAL4 = ("0.", "127.", "169.254.", "240.", "255.") + tuple(
        "%d." % n for n in range(224, 240))

    def label(self, kind, fkind, tr):
        """What the class of a disagreement about this packet is keyed by:
        its kind (an error's type, a fragment's place) and its anomaly; an
        error quoting a never-translated address says so at the end."""
        key = self.label_base(kind, fkind, tr)
        err = next((t for t in tr if t.startswith("err ")), "")
        for t in err.partition(" quoting ")[2].split(",")[1:]:
            name, _, addr = t.partition("=")
            addr = addr[6:-1] if addr.startswith("pool6(") else addr
            if name in ("src", "dst") and addr.startswith(self.SPECIAL4):
                return "%s [quote %s]" % (key, t)
        return key

    def label_base(self, kind, fkind, tr):
        def trait(prefix):
            return next((t for t in tr if t.startswith(prefix)), "?")
        base = kind
        if kind == "error":
            base = "error type %s" % trait("err ").split()[1].split("/")[0]
        elif kind == "frag":
            base = "%s %s" % (fkind, trait("frag-"))
        a = self.a
        if a in ("src", "dst"):
            return "%s, %s" % (base, trait(a + "="))
        if a == "ext":
            return "%s, %s" % (base, trait("ext=") if "ext=" in str(tr)
                               else trait("ipopt="))
        if a == "ttl":
            return "%s, %s" % (base, trait("ttl="))
        if a == "csum":
            return "%s, bad checksum" % base
        if a == "garbage":
            return "%s, %s" % (base, trait("garbage:"))
        if a == "tos":
            return "%s, random TOS/Traffic Class/Flow Label" % base
        if a == "size":
            return "%s, %s" % (base, trait("size~"))
        if a == "cut":
            return "%s, quote cut to %s bytes" % (
                base, trait("quote-cut-").split("-")[-1])
        if a == "4884":
            t = trait("rfc4884")
            return "%s, RFC 4884 %s" % (base, "length 32 words" if
                                         t.endswith("=32") else
                                         "length 16 words" if
                                         t.endswith("=16") else
                                         "wrong length" if t != "?" else
                                         "not applicable")
        if a == "inerr":
            return "%s quoting an ICMP error" % base
        if a == "code":
            return "%s, nonzero code" % base
        if a == "csum0":
            return "%s, zero checksum" % base
        return base

    def frag6(self, nh, data, tr):
        r = self.r
        which = r.choice(["first", "middle", "last", "atomic"])
        tr.append("frag-" + which)
        fid = r.choice([r.getrandbits(32), r.getrandbits(16), 0])
        if which == "atomic":
            return frag6_header(nh, 0, False, fid) + data
        n = max(8, len(data) // 16 * 8)
        if which == "first":
            return frag6_header(nh, 0, True, fid) + data[:n]
        off = r.randrange(1, 100) * 8
        return frag6_header(nh, off, which == "middle", fid) + data[n:] \
            + (self.pay(8) if len(data) <= n else b"")

    def frag4(self, pkt, tr):
        r = self.r
        which = r.choice(["first", "middle", "last"])
        tr.append("frag-" + which)
        ihl = (pkt[0] & 15) * 4
        data = pkt[ihl:]
        n = max(8, len(data) // 16 * 8)
        if which == "first":
            mf, off, data = True, 0, data[:n]
        else:
            mf, off = which == "middle", r.randrange(1, 100) * 8
            data = data[n:] or self.pay(8)
        ff = (0x2000 if mf else 0) | (off >> 3) | (pkt[6] << 8 & 0x4000)
        h = bytearray(pkt[:ihl])
        h[2:4] = struct.pack("!H", ihl + len(data))
        h[6:8] = struct.pack("!H", ff)
        h[10:12] = b"\0\0"
        h[10:12] = struct.pack("!H", inet_csum(bytes(h)))
        return bytes(h) + data

    def garble(self, fam, pkt, tr):
        r = self.r
        if self.a != "garbage":
            return pkt
        b = bytearray(pkt)
        what = r.choice(["len+", "len-", "byte", "reserved", "ihl",
                         "hdr-csum"] if fam == 4 else
                        ["len+", "len-", "byte", "byte", "version"])
        tr.append("garbage:" + what)
        if fam == 4:
            if what == "len+":
                b[2:4] = struct.pack("!H", len(b) + r.randrange(1, 40))
            elif what == "len-":
                ihl = (b[0] & 15) * 4
                b[2:4] = struct.pack("!H", max(0, len(b) - r.randrange(
                    1, max(2, len(b) - ihl + 8))))
            elif what == "byte":
                k = r.randrange(20, len(b)) if len(b) > 20 else 0
                b[k] = r.getrandbits(8)
            elif what == "reserved":
                b[6] |= 0x80
            elif what == "ihl":
                b[0] = 0x40 | r.choice([0, 4, 6, 15])
            if what != "hdr-csum":
                b[10:12] = b"\0\0"
                ihl = max(20, (b[0] & 15) * 4)
                b[10:12] = struct.pack("!H", inet_csum(bytes(b[:ihl])))
            else:
                b[10] ^= 0x10
        else:
            if what == "len+":
                b[4:6] = struct.pack("!H", len(b) - 40 + r.randrange(1, 40))
            elif what == "len-":
                b[4:6] = struct.pack("!H", max(0, len(b) - 40 -
                                               r.randrange(1, 40)))
            elif what == "byte":
                k = r.randrange(40, len(b)) if len(b) > 40 else 7
                b[k] = r.getrandbits(8)
            else:
                b[0] = (b[0] & 15) | (r.choice([4, 5, 7]) << 4)
        return bytes(b)


# ---------------------------------------------------------------------------
# Fields of a captured frame.


def csum_state(actual, correct):
    """A verifiable checksum as 'ok' or its distance from the right one
    (kept by incremental updates, so two translators agree on it)."""
    if actual == correct or {actual, correct} == {0, 0xFFFF}:
        return "ok"
    return "bad%+d" % (((~correct & 0xFFFF) - (~actual & 0xFFFF)) % 0xFFFF)


def fields_l4(f, p, proto, data, ps, whole):
    """Transport fields of DATA (PROTO) under prefix P; PS(proto, len) is
    the pseudo-header; WHOLE: the segment is complete (checksum
    verifiable)."""
    if proto == 17 and len(data) >= 8:
        sp, dp, ln, c = struct.unpack("!HHHH", data[:8])
        f.update({p + "udp.sport": sp, p + "udp.dport": dp,
                  p + "udp.len": ln})
        if whole and c != 0:
            f[p + "udp.csum"] = csum_state(c, inet_csum(
                ps(17, len(data)) + data[:6] + b"\0\0" + data[8:]) or 0xFFFF)
        else:
            f[p + "udp.csum"] = c
        f[p + "udp.data"] = data[8:]
    elif proto == 6 and len(data) >= 20:
        v = struct.unpack("!HHIIBBHHH", data[:20])
        for k, x in zip(("sport", "dport", "seq", "ack", "doff", "flags",
                         "win", "csum", "urp"), v):
            f[p + "tcp." + k] = x
        if whole:
            f[p + "tcp.csum"] = csum_state(v[7], inet_csum(
                ps(6, len(data)) + data[:16] + b"\0\0" + data[18:]))
        f[p + "tcp.data"] = data[20:]
    elif proto in (1, 58) and len(data) >= 4:
        t, c, s = struct.unpack("!BBH", data[:4])
        f.update({p + "icmp.type": t, p + "icmp.code": c})
        if whole:
            pre = ps(58, len(data)) if proto == 58 else b""
            f[p + "icmp.csum"] = csum_state(s, inet_csum(
                pre + data[:2] + b"\0\0" + data[4:]))
        else:
            f[p + "icmp.csum"] = s
        f[p + "icmp.rest"] = data[4:8]
        err = t < 128 if proto == 58 else t in (3, 4, 5, 11, 12)
        if err and not p and len(data) > 8:
            fields_ip(f, "in.", data[8:], inner=True)
        else:
            f[p + "icmp.data"] = data[8:]
    else:
        f[p + "l4.data"] = data


def fields_ip(f, p, b, inner=False):
    if not b:
        f[p + "empty"] = True
        return
    v = b[0] >> 4
    f[p + "ip.version"] = v
    if v == 4 and len(b) >= 20:
        ihl = (b[0] & 15) * 4
        tos, tl_, ident, ff, ttl, proto, c = struct.unpack("!BHHHBBH",
                                                           b[1:12])
        src, dst = b[12:16], b[16:20]
        f.update({p + "ip.ihl": ihl, p + "ip.tos": tos, p + "ip.len": tl_,
                  p + "ip.id": ident, p + "ip.df": ff >> 14 & 1,
                  p + "ip.mf": ff >> 13 & 1, p + "ip.rsv": ff >> 15,
                  p + "ip.offset": ff & 0x1FFF, p + "ip.ttl": ttl,
                  p + "ip.proto": proto,
                  p + "ip.src": str(ipaddress.IPv4Address(src)),
                  p + "ip.dst": str(ipaddress.IPv4Address(dst)),
                  p + "ip.options": b[20:ihl]})
        f[p + "ip.csum"] = csum_state(c, inet_csum(
            b[:10] + b"\0\0" + b[12:ihl])) if len(b) >= ihl else c
        data = b[ihl:tl_] if not inner else b[ihl:]
        whole = not inner and ff & 0x3FFF == 0
        if ff & 0x1FFF == 0:
            fields_l4(f, p, proto, data,
                      lambda pr, ln: pseudo4(f[p + "ip.src"], f[p + "ip.dst"],
                                             pr, ln), whole)
        else:
            f[p + "frag.data"] = data
    elif v == 6 and len(b) >= 40:
        first, plen, nh, hl = struct.unpack("!IHBB", b[:8])
        f.update({p + "ip.tc": first >> 20 & 0xFF, p + "ip.flow":
                  first & 0xFFFFF, p + "ip.len": plen, p + "ip.hlim": hl,
                  p + "ip.src": str(ipaddress.IPv6Address(b[8:24])),
                  p + "ip.dst": str(ipaddress.IPv6Address(b[24:40]))})
        data = b[40:40 + plen] if not inner else b[40:]
        chain = []
        whole = not inner
        while nh in (0, 43, 44, 60) and len(data) >= 8:
            if nh == 44:
                fo = struct.unpack("!H", data[2:4])[0]
                f[p + "frag.id"] = struct.unpack("!I", data[4:8])[0]
                f[p + "frag.offset"] = fo >> 3
                f[p + "frag.m"] = fo & 1
                f[p + "frag.res"] = (data[1], fo >> 1 & 3)
                chain.append(44)
                nh, data = data[0], data[8:]
                if fo & 0xFFF9:
                    whole = False
                    if fo >> 3:
                        break
                continue
            n = (data[1] + 1) * 8
            chain.append((nh, data[:n]))
            nh, data = data[0], data[n:]
        f[p + "ip.chain"] = tuple(chain)
        f[p + "ip.nh"] = nh
        if f.get(p + "frag.offset"):
            f[p + "frag.data"] = data
        else:
            fields_l4(f, p, nh, data,
                      lambda pr, ln: pseudo6(f[p + "ip.src"], f[p + "ip.dst"],
                                             pr, ln), whole)
    else:
        f[p + "ip.raw"] = b


def frame_fields(frame, fam_in, back, ctx):
    """Fields of FRAME (an Ethernet frame) for comparison."""
    f = {"eth.type": frame[12:14]}
    fields_ip(f, "", frame[14:])
    # Values each side picks on its own: the Identification of an IPv4
    # header made from an IPv6 one without a Fragment header, the flow
    # label of errors the kernel sends. Compared as zero or not.
    # The raw values are kept aside ("raw." keys, not compared) so that a
    # difference in bytes no field shows can be told from these.
    norm = [p + "ip.id" for p in ("", "in.") if p + "ip.id" in f and
            (back or fam_in == 6) and not ctx.get(p + "frag")]
    if back:
        norm += [k for k in ("ip.id", "ip.flow") if k in f]
    for k in set(norm):
        f["raw." + k] = f[k]
        f[k] = "zero" if f[k] == 0 else "set"
    return f


def in_ctx(pkt, fam):
    """Whether the sent IPv6 packet (and the one it quotes) have a
    Fragment header: then the IPv4 Identification is theirs."""
    ctx = {}
    if fam != 6:
        return ctx
    f = {}
    try:
        fields_ip(f, "", pkt)
    except Exception:
        return ctx
    ctx["frag"] = "frag.id" in f
    ctx["in.frag"] = "in.frag.id" in f
    return ctx


# ---------------------------------------------------------------------------
# Comparison and classes.


def short(v):
    if isinstance(v, bytes):
        return v.hex() if len(v) <= 24 else "%s..(%d bytes)" % (
            v[:16].hex(), len(v))
    return str(v)


def icmp_name(f):
    if "icmp.type" in f:
        return "ICMPv%s %d/%d" % ("6" if f.get("ip.version") == 6 else "4",
                                  f["icmp.type"], f["icmp.code"])
    return {6: "IPv6", 4: "IPv4"}.get(f.get("ip.version"), "frame")


def passed(frame, sent):
    """FRAME is SENT forwarded by the kernel (TTL or Hop Limit one less)."""
    b = bytearray(frame[14:])
    if not b or len(b) < len(sent) or b[0] >> 4 != sent[0] >> 4:
        return False
    if b[0] >> 4 == 6:
        b[7] += 1
        return bytes(b[:len(sent)]) == sent
    b[8] = (b[8] + 1) & 0xFF
    return bytes(b[:8]) == sent[:8] and b[9] == sent[9] and \
        bytes(b[12:len(sent)]) == sent[12:]


def outcome(out, fam, ctx, sent):
    """What a translator did with SENT, in words."""
    fwd, back = out
    parts = []
    if fwd:
        parts.append("translates" + (" (%d frames)" % len(fwd)
                                     if len(fwd) > 1 else ""))
    for x in back:
        if passed(x, sent):
            parts.append("passes it on untranslated")
        else:
            parts.append("answers %s" % icmp_name(
                frame_fields(x, fam, True, ctx)))
    return " + ".join(parts) or "drops"


def compare(fam, ctx, out_t, out_j, sent):
    """OUT_*: (forward frames, back frames). Returns a list of
    (class text, detail) disagreements."""
    ot, oj = outcome(out_t, fam, ctx, sent), outcome(out_j, fam, ctx, sent)
    if ot != oj:
        return [("Tern %s, Jool %s" % (ot, oj), "Tern: %s | Jool: %s" % (
            " ".join(x[14:].hex() for x in out_t[0] + out_t[1]) or "-",
            " ".join(x[14:].hex() for x in out_j[0] + out_j[1]) or "-"))]
    diffs = []
    for where, ft, fj in (("fwd", out_t[0], out_j[0]),
                          ("back", out_t[1], out_j[1])):
        what = "translate" if where == "fwd" else "answer"
        for a, b in zip(ft, fj):
            fa = frame_fields(a, fam, where == "back", ctx)
            fb = frame_fields(b, fam, where == "back", ctx)
            keys = sorted(k for k in set(fa) | set(fb)
                          if not k.startswith("raw."))
            bad = [k for k in keys if fa.get(k) != fb.get(k)]
            raw_same = all(fa.get(k) == fb.get(k) for k in set(fa) | set(fb)
                           if k.startswith("raw."))
            if bad:
                diffs.append((
                    "both %s, fields differ: %s" % (what, ", ".join(bad)),
                    "; ".join("%s Tern %s Jool %s" % (
                        k, short(fa.get(k)), short(fb.get(k)))
                        for k in bad[:6]) + " | Tern %s | Jool %s" % (
                            a[14:].hex(), b[14:].hex())))
            elif a != b and raw_same:
                diffs.append(("both %s, bytes differ (no field)" % what,
                              "Tern %s Jool %s" % (a.hex(), b.hex())))
    return diffs


def crashes_jool(d, pkt):
    """Whether PKT would crash Jool. Jool 4.1.9 panics the kernel (a negative length to skb_copy_bits in
    handle_icmp_extension) on an ICMPv6 error whose RFC 4884 length is
    shorter than the 128 bytes of quote RFC 4884 requires; ICMPv4 errors
    with the same fault are kept from it too. Such packets go to Tern
    only."""
    f = {}
    try:
        fields_ip(f, "", pkt)
    except Exception:
        return False
    # Jool 4.1.9 also loops for ever (soft lockup in ttp46_ipv6_external)
    # on IPv4 options whose length is below 2.
    opts = f.get("ip.options", b"")
    k = 0
    while k < len(opts):
        if opts[k] == 0:
            break
        if opts[k] == 1:
            k += 1
            continue
        if k + 1 >= len(opts) or opts[k + 1] < 2:
            return True
        k += opts[k + 1]
    rest = f.get("icmp.rest", b"")
    if len(rest) < 4 or "in.ip.version" not in f:
        return False
    words = rest[0] * 8 if d == "6to4" else rest[1] * 4
    return 0 < words < 128


def load_allowlist():
    allow = []
    for line in (HERE / "allowlist.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        pat, _, ref = line.partition("\t")
        allow.append((re.compile(pat.strip()), ref.strip()))
    return allow


def main():
    seed = int(os.environ.get("COMPARE_SEED") or random.randrange(1 << 31))
    count = int(os.environ.get("COMPARE_PACKETS", "2000"))
    verbose = os.environ.get("COMPARE_VERBOSE") == "1"
    print("compare-jool: seed %d (COMPARE_SEED=%d replays it), %d packets "
          "each way" % (seed, seed, count), flush=True)
    t0 = time.monotonic()
    topos = {}
    try:
        for name in ("tern", "jool"):
            topos[name] = tl.Topology().build()
            prepare(topos[name])
        print("--- tern global show (after setting %s)\n%s" % (
            TERN_SET, setup_tern(topos["tern"])))
        print("--- jool_siit global display\n%s" % setup_jool(topos["jool"]),
              flush=True)
        sides = {n: Side(n, t) for n, t in topos.items()}
        gen = Gen(seed)
        pkts = []
        for d in ("6to4", "4to6"):
            for _ in range(count):
                pkts.append((d,) + gen.packet(d))
        gen.r.shuffle(pkts)
        # Debugging a run: only packets [COMPARE_FROM, COMPARE_TO), only
        # one translator (COMPARE_ONLY=tern|jool), each packet written
        # (and synced) to COMPARE_TRACE before it is sent.
        lo = int(os.environ.get("COMPARE_FROM") or 0)
        hi = int(os.environ.get("COMPARE_TO") or len(pkts))
        only = os.environ.get("COMPARE_ONLY")
        trace = os.environ.get("COMPARE_TRACE")
        trace = open(trace, "w") if trace else None
        if only:
            sides = {only: sides[only]}
        pkts = pkts[lo:hi]
        classes = defaultdict(list)
        agree = 0
        skipped = 0
        batch = 40
        for start in range(0, len(pkts), batch):
            chunk = pkts[start:start + batch]
            for s in sides.values():
                for i, (d, pkt, _, _) in enumerate(chunk):
                    if trace:
                        trace.write("%s %d %s %s\n" % (s.name, lo + start + i,
                                                       d, pkt.hex()))
                        trace.flush()
                        os.fsync(trace.fileno())
                    if s.name == "jool" and crashes_jool(d, pkt):
                        pass
                    elif d == "6to4":
                        s.send6(pkt)
                    else:
                        s.send4(pkt)
                    s.send6(marker6(start + i))
                    s.send4(marker4(start + i))
            outs = {}
            for n, s in sides.items():
                per = [([], []) for _ in chunk]
                for tap, is4 in ((s.tap4, True), (s.tap6, False)):
                    deadline = time.monotonic() + 10
                    got = []
                    while time.monotonic() < deadline:
                        tap.drain(0.05)
                        if any(mark_of(x) == start + len(chunk) - 1
                               for x in tap.frames[-3:]):
                            break
                    tap.drain(0.02)
                    got = tap.take()
                    i = 0
                    for fr in got:
                        m = mark_of(fr)
                        if m is not None and start <= m < start + len(chunk):
                            i = m - start + 1
                            continue
                        if i >= len(chunk):
                            continue
                        if fr[12:14] not in (b"\x08\x00", b"\x86\xdd"):
                            continue
                        d = chunk[i][0]
                        fwd = (d == "6to4") == is4
                        per[i][0 if fwd else 1].append(fr)
                outs[n] = per
            for i, (d, pkt, kind, tr) in enumerate(chunk):
                fam = 6 if d == "6to4" else 4
                ctx = in_ctx(pkt, fam)
                if only:
                    continue
                if crashes_jool(d, pkt):
                    skipped += 1
                    continue
                diffs = compare(fam, ctx, outs["tern"][i], outs["jool"][i],
                                pkt)
                if not diffs:
                    agree += 1
                for cls, detail in diffs:
                    key = "%s %s: %s" % (d, kind, cls)
                    classes[key].append((pkt, tr, detail))
            done = start + len(chunk)
            if done % 400 < batch:
                print("  %d/%d packets, %d classes, %.0f s" % (
                    done, len(pkts), len(classes), time.monotonic() - t0),
                    flush=True)
    finally:
        for t in topos.values():
            t.destroy()
    allow = load_allowlist()
    print("\n=== compare-jool: seed %d, %d packets (%d each way): %d agree, "
          "%d disagree, %d classes; %d not sent to Jool (they crash "
          "Jool 4.1.9)" % (seed, len(pkts), count, agree,
                           len(pkts) - agree - skipped, len(classes),
                           skipped))
    unexplained = 0
    for key in sorted(classes, key=lambda k: -len(classes[k])):
        items = classes[key]
        # A class an entry explains without its "[quote ...]" note too.
        bare = re.sub(r" \[quote [^]]*\]:", ":", key)
        ref = next((r for p, r in allow if p.search(key) or
                    p.search(bare)), None)
        if ref is None:
            unexplained += 1
        tcount = defaultdict(int)
        for _, tr, _ in items:
            for t in set(x.split(" quoting")[0] for x in tr):
                tcount[t] += 1
        common = sorted(tcount.items(), key=lambda x: -x[1])[:4]
        print("\n[%s] %d x %s" % ("deliberate: " + ref if ref else
                                  "NOT EXPLAINED", len(items), key))
        print("  traits: %s" % ", ".join("%s (%d)" % c for c in common))
        for pkt, tr, detail in items[:3 if verbose else 1]:
            print("  example (%s): %s" % (", ".join(tr) or "plain",
                                          pkt.hex()))
            if detail:
                print("    %s" % detail[:600])
    print("\n=== %d classes, %d not in test/compare/allowlist.txt; %.0f s"
          % (len(classes), unexplained, time.monotonic() - t0))
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
