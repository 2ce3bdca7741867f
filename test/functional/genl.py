"""A small generic netlink client for Tern's family, in Python.

The tests use it where they need what the CLI cannot send (requests the CLI
refuses to build) and where they read the kernel's state many times without
testing the CLI: counters are read over netlink rather than by starting the
tern binary, which costs a second or more per run on the debug kernel under
emulation. Enumerations come from include/tern_genl.h, the API header.
"""

import re
import socket
import struct
from pathlib import Path

API_HEADER = Path(__file__).resolve().parents[2] / "include" / "tern_genl.h"

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_EXT_ACK = 11
NLM_F_REQUEST, NLM_F_ACK, NLM_F_DUMP = 0x1, 0x4, 0x300
NLM_F_CAPPED, NLM_F_ACK_TLVS = 0x100, 0x200
NLM_F_DUMP_INTR = 0x10
NLMSG_ERROR, NLMSG_DONE = 2, 3
NLA_F_NESTED = 0x8000
NLMSGERR_ATTR_MSG = 1
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 0x10, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME = 1, 2
GENL_HDRLEN = 4


def enum(name):
    """{enumerator: value} of an enum of include/tern_genl.h."""
    text = API_HEADER.read_text()
    body = re.search(r"enum %s \{(.*?)\};" % name, text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    values, n = {}, 0
    for m in re.finditer(r"(\w+)\s*(?:=\s*(\w+))?\s*,", body):
        if m.group(2) is not None:
            n = int(m.group(2), 0)
        values[m.group(1)] = n
        n += 1
    return values


CMD = enum("tern_cmd")
ATTR = enum("tern_attr")
G = enum("tern_global")
PFX = enum("tern_prefix_attr")
EAM = enum("tern_eam_attr")
HAIRPIN = enum("tern_hairpin_mode")
STAT = enum("tern_stat")


def nla(atype, payload=b""):
    """One netlink attribute, padded."""
    n = 4 + len(payload)
    return struct.pack("=HH", n, atype) + payload + b"\0" * (-n % 4)


def nest(atype, *parts):
    """A nested attribute of PARTS."""
    return nla(atype | NLA_F_NESTED, b"".join(parts))


def prefix(atype, addr, plen):
    """A nested enum tern_prefix_attr attribute: ADDR (text) / PLEN."""
    fam = socket.AF_INET6 if ":" in addr else socket.AF_INET
    return nest(atype,
                nla(PFX["TERN_PREFIX_ADDR"], socket.inet_pton(fam, addr)),
                nla(PFX["TERN_PREFIX_LEN"], bytes([plen])))


def attrs(data, off=0, end=None):
    """{type: payload} of the attributes in DATA[OFF:END] (flags masked)."""
    end = len(data) if end is None else end
    out = {}
    while off + 4 <= end:
        n, t = struct.unpack_from("=HH", data, off)
        if n < 4:
            break
        out[t & 0x3fff] = data[off + 4:off + n]
        off += (n + 3) & ~3
    return out


def payload_attrs(msg):
    """The attributes of a generic netlink reply message."""
    return attrs(msg, 16 + GENL_HDRLEN, len(msg))


class Genl:
    """A generic netlink socket of Tern's family, in the network namespace
    of the calling thread (ternlib.genl_in opens one in another)."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                                  NETLINK_GENERIC)
        self.sock.settimeout(10)
        self.sock.bind((0, 0))
        self.sock.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.seq = 0
        err, _, replies = self.request(
            GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
            nla(CTRL_ATTR_FAMILY_NAME, b"tern\0"), version=2)
        assert err == 0 and replies, "no generic netlink family tern: %d" % err
        a = payload_attrs(replies[0])
        self.family = struct.unpack("=H", a[CTRL_ATTR_FAMILY_ID])[0]

    def close(self):
        self.sock.close()

    def request(self, family, cmd, attrs_=b"", version=1, dump=False,
                reserved=0, extra_flags=0, between=None):
        """Returns (errno, extack message or None, [reply messages]); a
        dump's errno is the one its NLMSG_DONE carries (0: complete).
        RESERVED (genlmsghdr) and EXTRA_FLAGS (nlmsg_flags) make requests
        the kernel must refuse. BETWEEN() runs once, after the first part
        of a dump was read and before the kernel fills the next; self.intr
        says whether a reply was flagged NLM_F_DUMP_INTR."""
        self.seq += 1
        flags = NLM_F_REQUEST | NLM_F_ACK | (NLM_F_DUMP if dump else 0) | \
            extra_flags
        payload = struct.pack("=BBH", cmd, version, reserved) + attrs_
        self.sock.send(struct.pack("=IHHII", 16 + len(payload), family,
                                   flags, self.seq, 0) + payload)
        replies = []
        self.intr = False
        # How many reads (one per message buffer the kernel filled) brought
        # replies: a dump too big for one buffer comes in several parts.
        self.parts = 0
        while True:
            data = self.sock.recv(1 << 20)
            off = 0
            before = len(replies)
            while off + 16 <= len(data):
                length, typ, flags, seq, _ = struct.unpack_from("=IHHII",
                                                                data, off)
                msg = data[off:off + length]
                off += (length + 3) & ~3
                if seq != self.seq:
                    continue
                if flags & NLM_F_DUMP_INTR:
                    self.intr = True
                if typ == NLMSG_DONE:
                    if len(replies) > before:
                        self.parts += 1
                    # The error that ended the dump, if any (and its
                    # extack message, after the errno).
                    err = -struct.unpack_from("=i", msg, 16)[0] \
                        if length >= 20 else 0
                    text = None
                    if err and flags & NLM_F_ACK_TLVS:
                        a = attrs(msg, 20, length)
                        if NLMSGERR_ATTR_MSG in a:
                            text = a[NLMSGERR_ATTR_MSG].rstrip(
                                b"\0").decode()
                    return err, text, replies
                if typ != NLMSG_ERROR:
                    replies.append(msg)
                    continue
                err = -struct.unpack_from("=i", msg, 16)[0]
                text = None
                if flags & NLM_F_ACK_TLVS:
                    olen = 16 if flags & NLM_F_CAPPED else \
                        struct.unpack_from("=I", msg, 20)[0]
                    a = attrs(msg, 20 + ((olen + 3) & ~3), length)
                    if NLMSGERR_ATTR_MSG in a:
                        text = a[NLMSGERR_ATTR_MSG].rstrip(b"\0").decode()
                return err, text, replies
            if len(replies) > before:
                self.parts += 1
                if between is not None:
                    between()
                    between = None

    def tern(self, cmd, *parts, dump=False, between=None):
        """A request of Tern's family, attributes PARTS: (errno, extack
        message, replies)."""
        return self.request(self.family, CMD[cmd], b"".join(parts),
                            dump=dump, between=between)

    def stats(self, instance=None):
        """{enum tern_stat value: count} of INSTANCE (None: the only one)."""
        req = nla(ATTR["TERN_A_INSTANCE"], instance.encode() + b"\0") \
            if instance else b""
        err, text, replies = self.tern("TERN_CMD_STATS_GET", req)
        assert err == 0 and len(replies) == 1, \
            "TERN_CMD_STATS_GET: errno %d (%s)" % (err, text)
        nested = payload_attrs(replies[0])[ATTR["TERN_A_STATS"]]
        return {t: struct.unpack("=Q", v)[0]
                for t, v in attrs(nested).items()
                if t != STAT["TERN_STAT_PAD"]}

    def instances(self):
        """The names of the namespace's instances (TERN_CMD_INSTANCE_GET;
        not the names iptables rules use without an instance: no TYPE)."""
        err, text, replies = self.tern("TERN_CMD_INSTANCE_GET", dump=True)
        assert err == 0, "TERN_CMD_INSTANCE_GET: errno %d (%s)" % (err, text)
        return [a[ATTR["TERN_A_INSTANCE"]].rstrip(b"\0").decode()
                for a in map(payload_attrs, replies)
                if ATTR["TERN_A_TYPE"] in a]

    def instance_del(self, name):
        err, text, _ = self.tern("TERN_CMD_INSTANCE_DEL",
                                 nla(ATTR["TERN_A_INSTANCE"],
                                     name.encode() + b"\0"))
        assert err == 0, "TERN_CMD_INSTANCE_DEL %s: errno %d (%s)" % (
            name, err, text)

    def eamt_add(self, prefix6, prefix4, instance="t"):
        """TERN_CMD_EAMT_ADD of PREFIX6 and PREFIX4, each (address text,
        length): (errno, extack message)."""
        return self.tern("TERN_CMD_EAMT_ADD",
                         nla(ATTR["TERN_A_INSTANCE"],
                             instance.encode() + b"\0")
                         + nest(ATTR["TERN_A_EAM"],
                                prefix(EAM["TERN_EAM_PREFIX6"], *prefix6),
                                prefix(EAM["TERN_EAM_PREFIX4"], *prefix4)))[:2]
