"""The per-instance globals lowest-ipv6-mtu, mtu-plateaus, rfc6791v4-prefix,
rfc6791v6-prefix and eam-hairpin-mode through the CLI: set and read back
(text and JSON), syntax errors (exit 2) and the kernel's refusals (exit 1,
its extack message word for word), none of which changes anything.

A few requests the CLI cannot build (a hairpin mode it has no name for, a
plateau array of odd length, several globals in one request) are sent with
a small raw generic netlink client.
"""

import errno
import re
import socket
import struct

import pytest

import ternlib
from genl import ATTR, G, NLA_F_NESTED, PFX, nla
from ternlib import POOL6, assert_error, cli, cli_ok, globals_
from test_cli import DEFAULTS, DEFAULT_PLATEAUS


@pytest.fixture
def inst(ns):
    """NS with instance "t" (default globals)."""
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    return ns


def show_text(ns):
    """`global show` as {key: value text}; every line is "key: value"."""
    out = cli_ok(ns, "-i", "t", "global", "show")
    lines = out.splitlines()
    text = {}
    for line in lines:
        m = re.fullmatch(r"([a-z0-9-]+): (\S+)", line)
        assert m, "not a 'key: value' line: %r" % line
        text[m.group(1)] = m.group(2)
    assert len(text) == len(lines) == len(DEFAULTS), out
    return text


def set_global(ns, key, value):
    return cli(ns, "-i", "t", "global", "set", key, value)


# Not the defaults, so that a refused change of any of these is visible.
CHANGED = {"lowest-ipv6-mtu": ("1500", 1500),
           "mtu-plateaus": ("576,1500", [1500, 576]),
           "rfc6791v4-prefix": ("192.0.2.0/24", "192.0.2.0/24"),
           "rfc6791v6-prefix": ("2001:db8:6791::/64", "2001:db8:6791::/64"),
           "eam-hairpin-mode": ("simple", "simple"),
           "icmp-on-drop": ("false", False)}

# The CLI's own behaviour (parsing, output, messages): not run on the
# debug kernel, except the tests marked kernel (pytest.ini).
pytestmark = pytest.mark.cli


def change_all(ns):
    """Sets every new global to a non-default value; returns the JSON."""
    want = dict(DEFAULTS)
    for key, (value, expected) in CHANGED.items():
        assert cli_ok(ns, "-i", "t", "global", "set", key, value) == ""
        want[key] = expected
    g = globals_(ns, "t")
    assert g == want
    return g


# --- Defaults and round trips ------------------------------------------------


def test_new_globals_defaults_text_and_json(inst):
    g = globals_(inst, "t")
    assert g["lowest-ipv6-mtu"] == 1280
    assert g["mtu-plateaus"] == DEFAULT_PLATEAUS
    assert g["rfc6791v4-prefix"] is None
    assert g["rfc6791v6-prefix"] is None
    assert g["eam-hairpin-mode"] == "intrinsic"
    assert g["icmp-on-drop"] is True
    t = show_text(inst)
    assert t["lowest-ipv6-mtu"] == "1280"
    assert t["mtu-plateaus"] == \
        "65535,32000,17914,8166,4352,2002,1492,1006,508,296,68"
    assert t["rfc6791v4-prefix"] == "none"
    assert t["rfc6791v6-prefix"] == "none"
    assert t["eam-hairpin-mode"] == "intrinsic"
    assert t["icmp-on-drop"] == "true"


SIXTY_FOUR = list(range(1000, 1064))


@pytest.mark.parametrize("key,value,expected,text", [
    ("lowest-ipv6-mtu", "1500", 1500, "1500"),
    ("lowest-ipv6-mtu", "1280", 1280, "1280"),
    ("lowest-ipv6-mtu", "65535", 65535, "65535"),
    ("lowest-ipv6-mtu", "0x578", 1400, "1400"),
    ("mtu-plateaus", "1500,1280,576", [1500, 1280, 576], "1500,1280,576"),
    # Sorted descending, duplicates dropped, blanks around values allowed.
    ("mtu-plateaus", "576, 1500,1280 ,1500,576", [1500, 1280, 576],
     "1500,1280,576"),
    ("mtu-plateaus", "68", [68], "68"),
    ("mtu-plateaus", "65535,68", [65535, 68], "65535,68"),
    ("mtu-plateaus", ",".join(map(str, SIXTY_FOUR)), SIXTY_FOUR[::-1],
     ",".join(map(str, SIXTY_FOUR[::-1]))),
    ("mtu-plateaus", ",".join(["1492"] * 64), [1492], "1492"),
    ("rfc6791v4-prefix", "192.0.2.0/24", "192.0.2.0/24", "192.0.2.0/24"),
    ("rfc6791v4-prefix", "198.51.100.7/32", "198.51.100.7/32",
     "198.51.100.7/32"),
    ("rfc6791v4-prefix", "0.0.0.0/0", "0.0.0.0/0", "0.0.0.0/0"),
    ("rfc6791v6-prefix", "2001:db8:6791::/64", "2001:db8:6791::/64",
     "2001:db8:6791::/64"),
    ("rfc6791v6-prefix", "2001:db8::1/128", "2001:db8::1/128",
     "2001:db8::1/128"),
    ("rfc6791v6-prefix", "2001:DB8:0:0::/48", "2001:db8::/48",
     "2001:db8::/48"),
    ("eam-hairpin-mode", "off", "off", "off"),
    ("eam-hairpin-mode", "simple", "simple", "simple"),
    ("eam-hairpin-mode", "intrinsic", "intrinsic", "intrinsic"),
    ("eam-hairpin-mode", "Simple", "simple", "simple"),
])
def test_new_global_roundtrip(inst, key, value, expected, text):
    assert cli_ok(inst, "-i", "t", "global", "set", key, value) == ""
    want = dict(DEFAULTS)
    want[key] = expected
    assert globals_(inst, "t") == want
    assert globals_(inst) == want
    t = show_text(inst)
    assert t[key] == text
    # What `global show` prints, `global set` takes back unchanged.
    assert cli_ok(inst, "-i", "t", "global", "set", key, t[key]) == ""
    assert globals_(inst, "t") == want


@pytest.mark.parametrize("key,value", [
    ("rfc6791v4-prefix", "192.0.2.0/24"),
    ("rfc6791v6-prefix", "2001:db8:6791::/64"),
])
@pytest.mark.parametrize("word", ["none", "unset", "NONE"])
def test_rfc6791_prefix_unset(inst, key, value, word):
    cli_ok(inst, "global", "set", key, value)
    assert globals_(inst, "t")[key] == value
    assert cli_ok(inst, "global", "set", key, word) == ""
    assert globals_(inst, "t") == DEFAULTS
    assert show_text(inst)[key] == "none"
    # Unsetting what is unset is no error.
    assert cli_ok(inst, "global", "set", key, word) == ""
    assert globals_(inst, "t") == DEFAULTS


@pytest.mark.kernel
def test_new_globals_all_changed_then_back(inst):
    change_all(inst)
    t = show_text(inst)
    assert t["mtu-plateaus"] == "1500,576"
    assert t["eam-hairpin-mode"] == "simple"
    for key, value in (("lowest-ipv6-mtu", "1280"),
                       ("mtu-plateaus", ",".join(map(str, DEFAULT_PLATEAUS))),
                       ("rfc6791v4-prefix", "none"),
                       ("rfc6791v6-prefix", "unset"),
                       ("eam-hairpin-mode", "intrinsic"),
                       ("icmp-on-drop", "true")):
        cli_ok(inst, "global", "set", key, value)
    assert globals_(inst, "t") == DEFAULTS


# --- Syntax errors: exit 2, nothing sent ------------------------------------


@pytest.mark.parametrize("key,value", [
    ("lowest-ipv6-mtu", "-1"),
    ("lowest-ipv6-mtu", "4294967296"),
    ("lowest-ipv6-mtu", "1500x"),
    ("lowest-ipv6-mtu", ""),
    ("mtu-plateaus", "1500,"),
    ("mtu-plateaus", "1500,,1280"),
    ("mtu-plateaus", "65536"),
    ("mtu-plateaus", "1500 1280"),
    ("mtu-plateaus", "x"),
    ("rfc6791v4-prefix", "2001:db8::/64"),
    ("rfc6791v4-prefix", "192.0.2.0"),
    ("rfc6791v4-prefix", ""),
    ("rfc6791v6-prefix", "192.0.2.0/24"),
    ("rfc6791v6-prefix", "null"),
    ("eam-hairpin-mode", "2"),
    ("eam-hairpin-mode", "on"),
    ("eam-hairpin-mode", ""),
])
def test_new_global_bad_syntax_exit2_unchanged(inst, key, value):
    before = change_all(inst)
    line = assert_error(set_global(inst, key, value), 2)
    assert line.startswith("tern: invalid value '%s' for %s (expected "
                           % (value, key)), line
    assert globals_(inst, "t") == before


# --- Kernel refusals: exit 1, the extack message, nothing changed -----------

PLATEAU_MIN = "an MTU plateau is at least 68 (RFC 791)"
PLATEAU_COUNT = "mtu-plateaus needs 1 to 64 16-bit values"
OUT_OF_RANGE = "integer out of range"
HOST_BITS = "the prefix has bits set after its length"


@pytest.mark.parametrize("key,value,message", [
    ("mtu-plateaus", "67", PLATEAU_MIN),
    ("mtu-plateaus", "0", PLATEAU_MIN),
    ("mtu-plateaus", "1500,1280,67", PLATEAU_MIN),
    ("mtu-plateaus", "", PLATEAU_COUNT),
    ("lowest-ipv6-mtu", "1279", OUT_OF_RANGE),
    ("lowest-ipv6-mtu", "65536", OUT_OF_RANGE),
    ("lowest-ipv6-mtu", "0", OUT_OF_RANGE),
    ("lowest-ipv6-mtu", "4294967295", OUT_OF_RANGE),
    # RFC 6146 4 and RFC 5508's least lifetimes.
    ("udp-timeout", "119", OUT_OF_RANGE),
    ("tcp-est-timeout", "7439", OUT_OF_RANGE),
    ("tcp-trans-timeout", "239", OUT_OF_RANGE),
    ("icmp-timeout", "59", OUT_OF_RANGE),
    ("rfc6791v4-prefix", "192.0.2.1/24", HOST_BITS),
    ("rfc6791v4-prefix", "0.0.0.1/0", HOST_BITS),
    ("rfc6791v4-prefix", "198.51.100.128/24", HOST_BITS),
    ("rfc6791v6-prefix", "2001:db8::1/64", HOST_BITS),
    ("rfc6791v6-prefix", "2001:db8:0:0:8000::/64", HOST_BITS),
    ("rfc6791v6-prefix", "::1/0", HOST_BITS),
])
def test_new_global_refused_by_kernel_unchanged(inst, key, value, message):
    for changed in (False, True):
        before = change_all(inst) if changed else globals_(inst, "t")
        line = assert_error(set_global(inst, key, value), 1)
        assert line == "tern: " + message
        assert globals_(inst, "t") == before


@pytest.mark.kernel
def test_too_many_plateaus_refused_unchanged(inst):
    """65 distinct values: the attribute is longer than the policy allows
    (the kernel's generic policy message; the CLI does not count)."""
    before = change_all(inst)
    r = set_global(inst, "mtu-plateaus", ",".join(map(str, range(1000, 1065))))
    assert_error(r, 1)
    assert globals_(inst, "t") == before


# --- Raw generic netlink: what the CLI cannot send --------------------------


def global_set(g, *gattrs):
    """TERN_CMD_GLOBAL_SET of instance "t": (errno, extack message)."""
    return g.tern("TERN_CMD_GLOBAL_SET",
                  nla(ATTR["TERN_A_INSTANCE"], b"t\0")
                  + nla(ATTR["TERN_A_GLOBALS"] | NLA_F_NESTED,
                        b"".join(gattrs)))[:2]


@pytest.fixture
def genl(inst):
    g = ternlib.genl_in(inst)
    yield g
    g.close()


def _u8(key, v):
    return nla(G[key], struct.pack("=B", v))


def _u32(key, v):
    return nla(G[key], struct.pack("=I", v))


def _plateaus(*v):
    return nla(G["TERN_G_MTU_PLATEAUS"], struct.pack("=%dH" % len(v), *v))


def test_raw_client_sanity(inst, genl):
    """The raw client's own check: a valid set works like the CLI's."""
    assert global_set(genl, _u8("TERN_G_EAM_HAIRPIN", 0),
                           _u32("TERN_G_LOWEST_IPV6_MTU", 1400),
                           _plateaus(576, 1500, 576)) == (0, None)
    want = dict(DEFAULTS, **{"eam-hairpin-mode": "off",
                             "lowest-ipv6-mtu": 1400,
                             "mtu-plateaus": [1500, 576]})
    assert globals_(inst, "t") == want


@pytest.mark.parametrize("mode", [3, 4, 255])
def test_hairpin_mode_out_of_range_refused(inst, genl, mode):
    before = change_all(inst)
    err, msg = global_set(genl, _u8("TERN_G_EAM_HAIRPIN", mode))
    assert (err, msg) == (errno.ERANGE, OUT_OF_RANGE)
    assert globals_(inst, "t") == before


@pytest.mark.kernel
@pytest.mark.parametrize("payload", [b"\xdc", b"\xdc\x05\x00"])
def test_plateaus_odd_length_refused(inst, genl, payload):
    before = change_all(inst)
    err, msg = global_set(genl, nla(G["TERN_G_MTU_PLATEAUS"], payload))
    assert (err, msg) == (errno.EINVAL, PLATEAU_COUNT)
    assert globals_(inst, "t") == before


@pytest.mark.kernel
def test_rfc6791_prefix_half_refused(inst, genl):
    before = change_all(inst)
    half = nla(PFX["TERN_PREFIX_LEN"], b"\x18")
    err, msg = global_set(genl, nla(G["TERN_G_RFC6791V4"] | NLA_F_NESTED,
                                   half))
    assert (err, msg) == (errno.EINVAL, "a prefix needs both an address and a length")
    assert globals_(inst, "t") == before


@pytest.mark.kernel
def test_global_set_all_or_nothing(inst, genl):
    """One refused global in a request: none of the others is applied."""
    before = change_all(inst)
    v4 = nla(G["TERN_G_RFC6791V4"] | NLA_F_NESTED,
             nla(PFX["TERN_PREFIX_ADDR"], socket.inet_aton("203.0.113.0"))
             + nla(PFX["TERN_PREFIX_LEN"], b"\x18"))
    err, msg = global_set(genl, _u32("TERN_G_LOWEST_IPV6_MTU", 1300),
                               _u8("TERN_G_EAM_HAIRPIN", 0), v4,
                               _plateaus(1500, 60))
    assert (err, msg) == (errno.EINVAL, PLATEAU_MIN)
    assert globals_(inst, "t") == before
