"""Names and values every other module of ternlib uses (it imports none
of them): where the repository and the CLI are, the timeouts, the tables of
the API headers (counter names and global keys, as the CLI prints them),
and the addresses of the standard topology (see topology.Topology) with
the RFC 6052 mapping that computes the IPv6 ones. Packet builders take
these addresses as defaults.
"""

import ipaddress
import os
import re
from pathlib import Path


REPO = Path(__file__).resolve().parents[3]
TERN = os.environ.get("TERN") or str(REPO / "usr" / "cli" / "tern")
NAMES_HEADER = REPO / "include" / "tern_names.h"
GLOBALS_HEADER = REPO / "include" / "tern_globals.h"

# Seconds to wait for a frame that should arrive, and for one that should not.
TIMEOUT = float(os.environ.get("TERN_TEST_TIMEOUT", "8"))
QUIET = float(os.environ.get("TERN_TEST_QUIET", "0.6"))
# The debug kernel (KASAN, lockdep, kmemleak; not one of Debian's "-amd64").
DEBUG_KERNEL = not os.uname().release.endswith("-amd64")
# Seconds a CLI command may take. On the debug kernel, under emulation and
# pktgen traffic, removing a NAT64 instance (unhooking, grace periods,
# freeing its tables) once took over 30 s in a full run (make check of
# 2026-11-27, and a CI run before it); a hang is still caught.
CLI_TIMEOUT = 180 if DEBUG_KERNEL else 30


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
