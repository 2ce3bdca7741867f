"""The netlink family against hostile requests (issue 10, item 3 and the
fuzzer): strict validation from command 0, and thousands of random and
mutated requests of every command, after each of which a refused request
has left the configuration byte for byte as it was.
"""

import errno
import os
import random
import socket
import struct

import pytest

import genl
from genl import ATTR, CMD, EAM, G, NLA_F_NESTED, PFX, nest, nla, prefix
from ternlib import POOL6, Netns, cli_ok, genl_in

T = nla(ATTR["TERN_A_INSTANCE"], b"t\0")
N_REQUESTS = int(os.environ.get("TERN_FUZZ_REQUESTS", "2000"))
SO_SNDBUFFORCE = 32
NETLINK_CAP_ACK = 10


@pytest.fixture
def nl():
    ns = Netns("nl")
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    g = genl_in(ns)
    try:
        yield ns, g
    finally:
        g.close()
        ns.delete()


def _no_instance_refused(g, cmd_name, **kw):
    return g.request(g.family, CMD[cmd_name], T, **kw)


@pytest.mark.parametrize("cmd", sorted(c for c in CMD if c != "TERN_CMD_UNSPEC"))
def test_reserved_header_field_refused(nl, cmd):
    """genlmsghdr.reserved must be 0 for every command (it was not checked
    while resv_start_op exempted them all)."""
    _, g = nl
    err, text, _ = g.request(g.family, CMD[cmd], T, reserved=1)
    assert err == errno.EINVAL and text and "reserved" in text, (err, text)


def test_reserved_nlmsg_flags_refused(nl):
    """Only the flags the core gives a meaning to: NLM_F_CREATE (0x400) on
    a request is refused, not ignored."""
    _, g = nl
    err, text, _ = g.request(g.family, CMD["TERN_CMD_GLOBAL_GET"], T,
                             extra_flags=0x400)
    assert err == errno.EINVAL and text, (err, text)


def test_unknown_attribute_refused(nl):
    _, g = nl
    err, text, _ = g.request(g.family, CMD["TERN_CMD_GLOBAL_GET"],
                             T + nla(genl.ATTR["TERN_A_QUERY"] + 5, b"x"))
    assert err == errno.EINVAL and text, (err, text)
    err, text, _ = g.request(
        g.family, CMD["TERN_CMD_GLOBAL_SET"],
        T + nest(ATTR["TERN_A_GLOBALS"], nla(len(G) + 3, b"\1")))
    assert err == errno.EINVAL and text, (err, text)


def test_config_apply_beyond_instance_limit_refused(nl):
    """TERN_CMD_CONFIG_APPLY with 13 million empty instances (52 MB, as a
    namespace's administrator may send with SO_SNDBUFFORCE; room for them
    would be 2.4 GB, more than any kernel allocation may take): refused
    at the 4097th, before any allocation, with E2BIG and a message, no
    warning nor oops in the kernel log (the VM's check), the
    configuration as it was."""
    _, g = nl
    before = snapshot(g)
    g.sock.setsockopt(socket.SOL_SOCKET, SO_SNDBUFFORCE, 1 << 27)
    g.sock.setsockopt(genl.SOL_NETLINK, NETLINK_CAP_ACK, 1)
    g.sock.settimeout(300)      # 13 million attributes validated, counted
    req = nla(ATTR["TERN_A_CONFIG"] | NLA_F_NESTED) * 13000000
    err, text, _ = g.request(g.family, CMD["TERN_CMD_CONFIG_APPLY"], req)
    del req
    assert (err, text) == (errno.E2BIG, "more instances than a namespace "
                           "holds (4096)")
    assert snapshot(g) == before


# --- The fuzzer --------------------------------------------------------------


def snapshot(g):
    """The configuration as the kernel reports it, byte for byte (replies
    without their netlink headers)."""
    parts = []
    for cmd, dump in (("TERN_CMD_INSTANCE_GET", True),
                      ("TERN_CMD_GLOBAL_GET", False),
                      ("TERN_CMD_EAMT_GET", True),
                      ("TERN_CMD_DENY4_GET", True)):
        req = b"" if cmd == "TERN_CMD_INSTANCE_GET" else T
        err, text, replies = g.request(g.family, CMD[cmd], req, dump=dump)
        parts.append((cmd, err, tuple(m[16:] for m in replies)))
    return parts


class Gen:
    """Random and mutated requests of every command."""

    def __init__(self, seed):
        self.r = random.Random(seed)

    def blob(self, lo=0, hi=24):
        n = self.r.randint(lo, hi)
        if self.r.random() < 0.02:
            n = self.r.choice([255, 256, 1024, 4000])
        return bytes(self.r.getrandbits(8) for _ in range(n))

    def garbage(self, depth=0):
        """Random attributes, some nested, types in and out of range."""
        out = b""
        for _ in range(self.r.randint(0, 4)):
            t = self.r.randint(0, 16)
            if depth < 2 and self.r.random() < 0.3:
                out += nla(t | NLA_F_NESTED, self.garbage(depth + 1))
            else:
                out += nla(t | (NLA_F_NESTED if self.r.random() < 0.05
                                else 0), self.blob())
        return out

    def prefix6(self, at):
        return prefix(at, "2001:db8:%x::" % self.r.randint(0, 0xffff),
                      self.r.choice([32, 40, 48, 56, 64, 96, 120, 128,
                                     self.r.randint(0, 255)]))

    def prefix4(self, at):
        return prefix(at, "%d.%d.%d.0" % (self.r.choice([192, 198, 203, 10,
                                                         127, 0, 224]),
                                          self.r.randint(0, 255),
                                          self.r.randint(0, 255)),
                      self.r.choice([8, 16, 24, 28, 32,
                                     self.r.randint(0, 255)]))

    def globals_(self):
        out = b""
        for _ in range(self.r.randint(1, 3)):
            g = self.r.randint(0, len(G))
            kind = self.r.random()
            if kind < 0.4:
                v = struct.pack("=B", self.r.choice([0, 1, 2, 255]))
            elif kind < 0.6:
                v = struct.pack("=I", self.r.choice([0, 1279, 1280, 1500,
                                                     65535, 65536,
                                                     2 ** 32 - 1]))
            elif kind < 0.75:
                v = b"".join(struct.pack("=H", self.r.randint(0, 70000)
                                         % 65536)
                             for _ in range(self.r.randint(0, 70)))
            elif kind < 0.9:
                v = self.prefix6(PFX["TERN_PREFIX_ADDR"])[4:] \
                    if self.r.random() < 0.5 else b""
                out += nla(g | NLA_F_NESTED, v)
                continue
            else:
                v = self.blob()
            out += nla(g, v)
        return nest(ATTR["TERN_A_GLOBALS"], out)

    def template(self, cmd):
        """A plausible request of CMD (often valid)."""
        r = self.r
        inst = T if r.random() < 0.8 else \
            nla(ATTR["TERN_A_INSTANCE"], r.choice([b"u\0", b"\0", b"t",
                                                   b"x" * 20 + b"\0"]))
        if cmd == "TERN_CMD_INSTANCE_ADD":
            return inst + nla(ATTR["TERN_A_TYPE"], bytes([r.choice([1, 2,
                                                                   0, 3])])) \
                + self.prefix6(ATTR["TERN_A_POOL6"]) \
                + (self.globals_() if r.random() < 0.3 else b"")
        if cmd == "TERN_CMD_GLOBAL_SET":
            return inst + self.globals_()
        if cmd in ("TERN_CMD_EAMT_ADD", "TERN_CMD_EAMT_DEL",
                   "TERN_CMD_EAMT_GET"):
            parts = []
            if r.random() < 0.9:
                parts.append(self.prefix6(EAM["TERN_EAM_PREFIX6"]))
            if r.random() < 0.9:
                parts.append(self.prefix4(EAM["TERN_EAM_PREFIX4"]))
            return inst + nest(ATTR["TERN_A_EAM"], *parts)
        if cmd.startswith("TERN_CMD_DENY4"):
            return inst + self.prefix4(ATTR["TERN_A_PREFIX4"])
        if cmd == "TERN_CMD_ADDR_QUERY":
            return inst + nla(ATTR["TERN_A_ADDR"],
                              self.blob(r.choice([4, 16]), 16))
        return inst

    def mutate(self, data):
        b = bytearray(data)
        for _ in range(self.r.randint(1, 4)):
            if not b:
                break
            op = self.r.random()
            i = self.r.randrange(len(b))
            if op < 0.5:
                b[i] = self.r.getrandbits(8)
            elif op < 0.7:
                del b[i:]
            else:
                b[i:i] = self.blob(1, 8)
        return bytes(b)

    def request(self):
        cmds = sorted(CMD, key=CMD.get)
        r = self.r
        if r.random() < 0.05:
            cmd = r.choice([CMD["TERN_CMD_UNSPEC"], len(cmds) + 1, 200])
            name = None
        else:
            name = r.choice(cmds[1:])
            cmd = CMD[name]
        kind = r.random()
        if name is None or kind < 0.25:
            body = self.garbage()
        elif kind < 0.7:
            body = self.template(name)
        else:
            body = self.mutate(self.template(name))
        dump = r.random() < 0.2
        return name, cmd, body, dump


def test_fuzz_refusals_change_nothing(nl):
    ns, g = nl
    seed = int(os.environ.get("TERN_FUZZ_SEED", "0")) or \
        random.SystemRandom().randint(1, 2 ** 31)
    print("netlink fuzz seed %d (TERN_FUZZ_SEED=%d reproduces), %d requests"
          % (seed, seed, N_REQUESTS))
    gen = Gen(seed)
    before = snapshot(g)
    refused = accepted = 0
    silent = []
    for i in range(N_REQUESTS):
        name, cmd, body, dump = gen.request()
        err, text, _ = g.request(g.family, cmd, body, dump=dump)
        after = snapshot(g)
        if err:
            refused += 1
            assert after == before, (
                "request %d (seed %d) %s refused with errno %d (%s) but "
                "changed the configuration; body %s" % (
                    i, seed, name or cmd, err, text, body.hex()))
            # A refused request of a real command says why.
            if name and err in (errno.EINVAL, errno.ERANGE, errno.E2BIG) \
                    and not text:
                silent.append((name, err, body.hex()))
        else:
            accepted += 1
        # The next request starts from AFTER, unless it is changed here
        # (a snapshot costs four dumps: most of this loop's time).
        before = after
        if not any(p[0] == "TERN_CMD_GLOBAL_GET" and p[1] == 0
                   for p in after):
            # Instance t went away (a valid delete): back for what follows.
            g.request(g.family, CMD["TERN_CMD_INSTANCE_DEL"], T)
            cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
            before = snapshot(g)
        elif len(after[2][2]) > 100:
            g.request(g.family, CMD["TERN_CMD_EAMT_FLUSH"], T)
            before = snapshot(g)
    print("refused %d, accepted %d" % (refused, accepted))
    assert refused > N_REQUESTS // 2 and accepted > 0
    assert not silent, "refused without an extack message: %s" % silent[:5]
