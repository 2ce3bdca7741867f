"""tern config apply/show: the whole configuration of a namespace as a
JSON file, applied as one transaction (docs/config.md).

Every piece a file holds is checked through the CLI's own list commands;
a file with a bad entry at its end changes nothing and the error names
the file, line and entry; show's output applied again changes nothing;
an apply that keeps a NAT64 instance keeps its sessions; an instance the
file drops is removed. The systemd units' ExecStart and ExecStop lines
run as the service would run them (no systemd in the test VM).
"""

import json
import os
import re
import shlex
import textwrap
import threading

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether

import ternlib
from ternlib import POOL6, assert_error, cli, cli_json, cli_ok
from ternlib.commands import run, stats
from ternlib.nat64 import CLIENT, in_pool4, out64, udp6, wait_until
from ternlib.names import H6_MAC, XL6_MAC
from ternlib.nsenter import in_netns
from ternlib.topology import Topology

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
POOL4 = "198.51.100.16/30"

NAT64 = {
    "name": "n",
    "type": "nat64",
    "pool6": POOL6,
    "globals": {"udp-timeout": 600, "log-bib": True,
                "mtu-plateaus": [1500, 1280],
                "rfc6791v4-prefix": "192.0.2.0/30"},
    "pool4": [
        {"prefix": POOL4},
        {"prefix": "198.51.100.32/32", "protocols": ["udp"],
         "ports": "2000-3000", "mark": 7},
    ],
    "bib": [{"protocol": "udp", "ipv6": "2001:db8:6::5#53",
             "ipv4": "198.51.100.17#1053"}],
}

SIIT = {
    "name": "s",
    "type": "siit",
    "pool6": POOL6,
    "globals": {"eam-hairpin-mode": "simple", "rfc6791v6-prefix": None},
    "eamt": [{"prefix6": "2001:db8:100::/120", "prefix4": "192.0.2.0/24"},
             {"prefix6": "2001:db8:200::/128", "prefix4": "198.18.0.1/32"}],
    "denylist4": ["203.0.113.0/28", "198.19.0.0/16"],
}


@pytest.fixture(scope="module")
def _topo():
    topo = Topology().build()
    try:
        topo.xl.ip_batch(["neigh replace %s lladdr %s dev v6 nud permanent"
                          % (CLIENT, H6_MAC)])
        yield topo
    finally:
        topo.destroy()


@pytest.fixture
def topo(_topo, tmp_path):
    """The topology without instances, and a directory for files."""
    _topo.tmp = tmp_path
    yield _topo
    cli_ok(_topo.xl, "config", "apply", write(tmp_path, "empty.json", []))


def write(d, name, instances, text=None):
    path = os.path.join(str(d), name)
    with open(path, "w") as f:
        f.write(text if text is not None else
                json.dumps({"instances": instances}, indent=2) + "\n")
    return path


def kebab(entries):
    return [{k.replace("_", "-"): v for k, v in e.items()} for e in entries]


def show(topo):
    out = cli_ok(topo.xl, "config", "show")
    return out, json.loads(out)


def line_of(path, text):
    with open(path) as f:
        for i, line in enumerate(f, 1):
            if text in line:
                return i
    raise AssertionError("%r not in %s" % (text, path))


def check_nat64(topo):
    """Every piece of NAT64 as the list commands show it."""
    insts = cli_json(topo.xl, "instance", "list")
    assert [(i["name"], i["type"], i["pool6"]) for i in insts] == \
        [("n", "nat64", POOL6)]
    g = cli_json(topo.xl, "-i", "n", "global", "show")
    assert (g["udp-timeout"], g["log-bib"], g["mtu-plateaus"],
            g["rfc6791v4-prefix"]) == (600, True, [1500, 1280],
                                       "192.0.2.0/30")
    assert g["tcp-est-timeout"] == 7440          # a default
    pool = sorted((e["protocol"], e["prefix"], e["port-min"], e["port-max"],
                   e["mark"])
                  for e in kebab(cli_json(topo.xl, "-i", "n", "pool4",
                                          "list")))
    assert pool == [("icmp", POOL4, 0, 65535, 0),
                    ("tcp", POOL4, 1024, 65535, 0),
                    ("udp", POOL4, 1024, 65535, 0),
                    ("udp", "198.51.100.32/32", 2000, 3000, 7)]
    bib = kebab(cli_json(topo.xl, "-i", "n", "bib", "list"))
    assert [(b["protocol"], b["address6"], b["port6"], b["address4"],
             b["port4"], b["static"]) for b in bib] == \
        [("udp", "2001:db8:6::5", 53, "198.51.100.17", 1053, True)]


def test_apply_nat64(topo):
    cli_ok(topo.xl, "config", "apply", write(topo.tmp, "n.json", [NAT64]))
    check_nat64(topo)


def test_apply_siit_removes_nat64(topo):
    cli_ok(topo.xl, "config", "apply", write(topo.tmp, "n.json", [NAT64]))
    cli_ok(topo.xl, "config", "apply", write(topo.tmp, "s.json", [SIIT]))
    insts = cli_json(topo.xl, "instance", "list")
    assert [(i["name"], i["type"]) for i in insts] == [("s", "siit")]
    g = cli_json(topo.xl, "-i", "s", "global", "show")
    assert (g["eam-hairpin-mode"], g["rfc6791v6-prefix"]) == ("simple", None)
    eamt = kebab(cli_json(topo.xl, "-i", "s", "eamt", "list"))
    assert sorted((e["prefix6"], e["prefix4"]) for e in eamt) == \
        [("2001:db8:100::/120", "192.0.2.0/24"),
         ("2001:db8:200::/128", "198.18.0.1/32")]
    assert sorted(cli_json(topo.xl, "-i", "s", "denylist4", "list")) == \
        ["198.19.0.0/16", "203.0.113.0/28"]


def test_two_instances(topo):
    """A NAT64 and a SIIT instance in one file (the SIIT one on
    iptables: one netfilter instance per namespace)."""
    siit = dict(SIIT, framework="iptables")
    r = cli(topo.xl, "config", "apply",
            write(topo.tmp, "two.json", [NAT64, siit]))
    assert r.rc == 0, r.err
    assert sorted(i["name"] for i in cli_json(topo.xl, "instance",
                                               "list")) == ["n", "s"]
    assert len(cli_json(topo.xl, "-i", "s", "eamt", "list")) == 2
    assert len(cli_json(topo.xl, "-i", "n", "bib", "list")) == 1


def test_two_netfilter_instances_refused(topo):
    path = write(topo.tmp, "two.json", [NAT64, SIIT])
    before, _ = show(topo)
    r = cli(topo.xl, "config", "apply", path)
    assert_error(r, 1)
    assert r.err == ('tern: %s:%d: instance "s": at most one netfilter '
                     'instance per namespace\n'
                     % (path, line_of(path, '"name": "s"') - 1))
    assert show(topo)[0] == before


def test_bad_entry_changes_nothing(topo):
    """The last EAMT entry is refused by the kernel (its IPv6 suffix is
    shorter than its IPv4 one): nothing of the file takes effect."""
    cli_ok(topo.xl, "config", "apply", write(topo.tmp, "s.json", [SIIT]))
    before, _ = show(topo)
    bad = dict(SIIT, globals={"enabled": False},
               denylist4=["203.0.113.0/28"],
               eamt=SIIT["eamt"] + [{"prefix6": "2001:db8:300::/120",
                                     "prefix4": "198.18.1.0/16"}])
    path = write(topo.tmp, "bad.json", [bad])
    r = cli(topo.xl, "config", "apply", path)
    assert_error(r, 1)
    assert r.err == (
        'tern: %s:%d: instance "s", eamt entry 3: the IPv6 suffix must be '
        'at least as long as the IPv4 suffix: IPv6 length <= 96 + IPv4 '
        'length (RFC 7757)\n' % (path, line_of(path, "2001:db8:300::") - 1))
    assert show(topo)[0] == before


@pytest.mark.parametrize("key,entry", [
    ("eamt", {"prefix6": "2001:db8:300::/120", "prefix4": "198.18.1.0/24"}),
    ("denylist4", "10.0.0.0/8")])
def test_siit_lists_refused_for_nat64(topo, key, entry):
    """A NAT64 instance takes no EAMT or denylist4 (it would read neither):
    the file is refused, naming the entry; nothing of it takes effect."""
    cli_ok(topo.xl, "config", "apply", write(topo.tmp, "n.json", [NAT64]))
    before, _ = show(topo)
    path = write(topo.tmp, "bad.json",
                 [dict(NAT64, globals={"enabled": False}, **{key: [entry]})])
    r = cli(topo.xl, "config", "apply", path)
    assert_error(r, 1)
    assert r.err.startswith('tern: %s:' % path)
    assert r.err.endswith('instance "n", %s entry 1: the EAMT and denylist4 '
                          'are for SIIT instances (NAT64 maps by pool6 and '
                          'pool4)\n' % key)
    assert show(topo)[0] == before


def test_overlap_names_entry(topo):
    bad = dict(SIIT, eamt=SIIT["eamt"] + [{"prefix6": "2001:db8:300::/120",
                                           "prefix4": "192.0.2.128/25"}])
    path = write(topo.tmp, "bad.json", [bad])
    r = cli(topo.xl, "config", "apply", path)
    assert r.err == ('tern: %s:%d: instance "s", eamt entry 3: overlaps '
                     'EAMT entry 2001:db8:100::/120 192.0.2.0/24\n'
                     % (path, line_of(path, "2001:db8:300::") - 1))
    assert cli_json(topo.xl, "instance", "list") == []


def test_nested_eamt_entries(topo):
    """An EAMT entry inside another needs "force": true on one of the two;
    config show marks both, and applying what it shows gives the same."""
    inner = {"prefix6": "2001:db8:300::/125", "prefix4": "192.0.2.8/29",
             "force": True}
    conf = dict(SIIT, eamt=SIIT["eamt"] + [inner])
    cli_ok(topo.xl, "config", "apply", write(topo.tmp, "nest.json", [conf]))
    out, shown = show(topo)
    outer = dict(SIIT["eamt"][0], force=True)
    assert shown["instances"][0]["eamt"] == [outer, inner,
                                             SIIT["eamt"][1]]
    q = cli_json(topo.xl, "-i", "s", "address", "query", "192.0.2.9")
    assert q["translated"] == "2001:db8:300::1"
    cli_ok(topo.xl, "config", "apply", write(topo.tmp, "again.json", [],
                                             text=out))
    assert show(topo)[0] == out
    cli_ok(topo.xl, "instance", "remove", "s")
    del inner["force"]
    path = write(topo.tmp, "bad.json", [conf])
    r = cli(topo.xl, "config", "apply", path)
    assert r.err == ('tern: %s:%d: instance "s", eamt entry 3: overlaps '
                     'EAMT entry 2001:db8:100::/120 192.0.2.0/24\n'
                     % (path, line_of(path, "2001:db8:300::") - 1))
    inner.update(force=True, prefix6="2001:db8:300::/120",
                 prefix4="192.0.2.0/24")
    path = write(topo.tmp, "same.json", [conf])
    r = cli(topo.xl, "config", "apply", path)
    assert r.err == ('tern: %s:%d: instance "s", eamt entry 3: same prefix '
                     'as EAMT entry 2001:db8:100::/120 192.0.2.0/24\n'
                     % (path, line_of(path, "2001:db8:300::") - 1))
    inner.update(force="yes", prefix6="2001:db8:300::/125",
                 prefix4="192.0.2.8/29")
    path = write(topo.tmp, "bad2.json", [conf])
    r = cli(topo.xl, "config", "apply", path)
    assert r.err == ('tern: %s:%d: instance "s": eamt entry 3: "force" is '
                     'true or false\n'
                     % (path, line_of(path, "2001:db8:300::") - 1))
    assert cli_json(topo.xl, "instance", "list") == []


def test_pool4_overlap_names_entry(topo):
    """Two pool4 entries of one file overlap: the kernel names the entry
    the second clashes with, read before the table holding it is freed
    (the debug kernel's KASAN checks that), and nothing takes effect."""
    cli_ok(topo.xl, "config", "apply", write(topo.tmp, "n.json", [NAT64]))
    before, _ = show(topo)
    bad = dict(NAT64, globals={"enabled": False},
               pool4=NAT64["pool4"] + [{"prefix": "198.51.100.17/32",
                                        "protocols": ["tcp"],
                                        "ports": "4000-4001"}])
    path = write(topo.tmp, "bad.json", [bad])
    r = cli(topo.xl, "config", "apply", path)
    assert_error(r, 1)
    assert r.err == ('tern: %s:%d: instance "n", pool4 entry 3: overlaps '
                     'pool4 entry TCP %s 1024-65535 mark 0\n'
                     % (path, line_of(path, "198.51.100.17/32") - 1, POOL4))
    assert show(topo)[0] == before


def test_syntax_error_names_line(topo):
    text = textwrap.dedent("""\
        {"instances": [
          {"name": "s", "type": "siit", "pool6": "%s",
           "denylist4": ["203.0.113.0/28",
                         "203.0.113.0/33"]}
        ]}
        """ % POOL6)
    path = write(topo.tmp, "bad.json", None, text)
    r = cli(topo.xl, "config", "apply", path)
    assert_error(r, 1)
    assert r.err.startswith('tern: %s:4: instance "s": denylist4 entry 2: '
                            % path)
    path = write(topo.tmp, "bad2.json", None, '{"instances": [\n  {,\n]}\n')
    r = cli(topo.xl, "config", "apply", path)
    assert_error(r, 1, re.escape(path) + ":2: not valid JSON")


# Files json-c parses that config apply must refuse whole, and what it
# says: (name, text, message after "tern: PATH").
DEEP = "[" * 100000
BAD_FILES = [
    # A key with an escape, then text with brackets in a string: the
    # line tagger lost its place and recursed until the stack ran out.
    ("escaped-key", '{"x\\u0041": {"k": "a %s"}}' % DEEP,
     ":1: a key that is empty, longer than 255 characters or written "
     "with an escape (\\)"),
    # json-c decodes it to "instances": its names, given twice, went
    # unchecked (the second applied).
    ("escaped-key-duplicates",
     '{"\\u0069nstances": [{"name": "a", "name": "b", "type": "siit"}]}',
     ":1: a key that is empty, longer than 255 characters or written "
     "with an escape (\\)"),
    ("null", "null\n", ":1: expected an object, not null"),
    # One line: the first problem only (each string member said its own).
    ("two-wrong-types",
     '{"instances": [{"name": "a", "type": 1, "framework": 2}]}',
     ':1: instance "a": "type" is a string'),
    # A global of the wrong JSON type: what a file takes, not the CLI's
    # forms ("1/0", "decimal or 0x hex", "comma-separated").
    ("bool-as-int",
     '{"instances": [{"name": "a", "type": "siit", "globals": '
     '{"enabled": 1}}]}',
     ':1: instance "a": invalid value for enabled (expected true or false)'),
    ("int-as-string",
     '{"instances": [{"name": "a", "type": "siit", "globals": '
     '{"tos": "5"}}]}',
     ':1: instance "a": invalid value for tos (expected an integer 0..255)'),
    ("plateaus-as-string",
     '{"instances": [{"name": "a", "type": "siit", "globals": '
     '{"mtu-plateaus": "1500,1280"}}]}',
     ':1: instance "a": invalid value for mtu-plateaus (expected an array '
     'of integers 0..65535, e.g. [1500, 1280, 576])'),
    ("duplicate-key",
     '{"instances": [\n{"name": "a", "type": "siit",\n "type": "nat64"}\n]}',
     ":3: a key appears twice in the object that ends here"),
    ("duplicate-null-key",
     '{"instances": [{"name": "a", "pool6": null, "pool6": null}]}',
     ":1: a key appears twice in the object that ends here"),
    ("nul-in-name",
     '{"instances": [{"name": "a\\u0000b", "type": "siit"}]}',
     ":1: a string holds a NUL character (\\u0000)"),
    ("nul-byte", '{"instances": []}\n\0{"instances": [1]}',
     ":2: a NUL byte"),
    ("empty-protocols",
     '{"instances": [{"name": "d", "type": "nat64", "pool6": "%s",\n'
     ' "pool4": [{"prefix": "192.0.2.0/24", "protocols": []}]}]}' % POOL6,
     ':2: instance "d": pool4 entry 1: "protocols" is an array of "tcp", '
     '"udp", "icmp" (left out: all three)'),
    ("null-string", '{"instances": [{"name": "a", "type": "siit", '
     '"pool6": null}]}', ': instance "a": "pool6" is a string'),
]


@pytest.mark.parametrize("name,text,says", BAD_FILES,
                         ids=[b[0] for b in BAD_FILES])
def test_bad_file_refused_whole(topo, name, text, says):
    """config apply and det lookup --config refuse each file with one line
    (its line number where one is known) and exit status 1, never crash;
    the running configuration is as it was."""
    cli_ok(topo.xl, "config", "apply", write(topo.tmp, "s.json", [SIIT]))
    before, _ = show(topo)
    path = os.path.join(str(topo.tmp), name + ".json")
    with open(path, "wb") as f:
        f.write(text.encode())
    for args in (("config", "apply", path),
                 ("det", "lookup", "--config", path, "192.0.2.1#2000")):
        r = cli(topo.xl, *args)
        assert (r.rc, r.out, r.err) == (1, "", "tern: %s%s\n" % (path, says))
    assert show(topo)[0] == before


def test_det_lookup_file_held_to_apply(topo):
    """det lookup --config reads what config apply would take: a float
    name, a protocol that is null, a subscriber-prefix-len out of range
    are refused with apply's message (it crashed on the first two and
    truncated the third to 8 bits)."""
    base = {"name": "d", "type": "nat64", "pool6": POOL6,
            "globals": {"det-space": "2001:db8::/56",
                        "subscriber-prefix-len": 64},
            "pool4": [{"prefix": "192.0.2.0/24"}]}
    cases = [
        (dict(base, name=1.5), 'instance: "name" is a string'),
        (dict(base, pool4=[{"prefix": "192.0.2.0/24",
                            "protocols": [None]}]),
         'instance "d": pool4 entry 1: a protocol is "tcp", "udp" or '
         '"icmp"'),
        (dict(base, globals=dict(base["globals"],
                                 **{"subscriber-prefix-len": 312})),
         'instance "d": subscriber-prefix-len is 32 to 128'),
    ]
    for inst, says in cases:
        path = write(topo.tmp, "d.json", [inst])
        r = cli(topo.xl, "det", "lookup", "--config", path,
                "192.0.2.1#2000")
        assert (r.rc, r.out) == (1, "")
        assert r.err.endswith(says + "\n") and r.err.count("\n") == 1
    path = write(topo.tmp, "d.json", [base])
    assert cli(topo.xl, "det", "lookup", "--config", path,
               "192.0.2.1#2000").rc == 0


def test_show_of_many_instances_applies(topo):
    """config show's output of 300 iptables instances, every global
    shown and no list, is applied again as it is (the request was sized
    at 128 bytes an instance, a third of what one takes: "does not
    fit")."""
    cli_ok(topo.xl, "config", "apply", write(topo.tmp, "s.json", [SIIT]))
    one = {k: v for k, v in show(topo)[1]["instances"][0].items()
           if k not in ("eamt", "denylist4")}
    assert len(one["globals"]) > 20
    many = [dict(one, name="i%d" % i, framework="iptables")
            for i in range(300)]
    path = write(topo.tmp, "many.json", many)
    cli_ok(topo.xl, "config", "apply", path)
    out, shown = show(topo)
    assert len(shown["instances"]) == 300
    path = write(topo.tmp, "shown.json", None, out)
    cli_ok(topo.xl, "config", "apply", path)
    assert show(topo)[0] == out


def test_instance_cap(topo):
    """A namespace holds 4096 instances: a file of 4097 is refused whole
    (the error names the 4097th), instance add past 4096 is refused, and
    an apply that drops them all removes them all (one grace period for
    all of them, not one each)."""
    many = [{"name": "i%d" % i, "type": "siit", "framework": "iptables"}
            for i in range(4097)]
    path = write(topo.tmp, "over.json", many)
    r = cli(topo.xl, "config", "apply", path)
    assert_error(r, 1)
    assert r.err == ('tern: %s:%d: instance "i4096": more instances than '
                     'a namespace holds (4096)\n'
                     % (path, line_of(path, '"name": "i4096"') - 1))
    assert cli_json(topo.xl, "instance", "list") == []
    cli_ok(topo.xl, "config", "apply", write(topo.tmp, "full.json",
                                             many[:4096]))
    r = cli(topo.xl, "instance", "add", "x", "--siit", "--iptables")
    assert_error(r, 1)
    assert r.err == ("tern: this namespace has 4096 instances, the most "
                     "it holds\n")
    names = [i["name"] for i in cli_json(topo.xl, "instance", "list")]
    assert names == ["i%d" % i for i in range(4096)]
    cli_ok(topo.xl, "config", "apply", write(topo.tmp, "one.json",
                                             many[4095:4096]))
    assert [i["name"] for i in cli_json(topo.xl, "instance", "list")] == \
        ["i4095"]


def _csum_add(c, old, new):
    """A 16-bit Internet checksum C with 16-bit word OLD replaced by NEW
    (RFC 1624)."""
    x = (~c & 0xffff) + (~old & 0xffff) + new
    x = (x & 0xffff) + (x >> 16)
    x = (x & 0xffff) + (x >> 16)
    return ~x & 0xffff


class Churn(threading.Thread):
    """UDP from h6, each datagram from a new (address, port): a new
    dynamic BIB entry each, checksums kept right."""

    def __init__(self, topo):
        super().__init__(daemon=True)
        self.topo, self.stop, self.sent = topo, threading.Event(), 0
        self.frame = bytearray(bytes(
            Ether(src=H6_MAC, dst=XL6_MAC) / udp6(sport=1, n=8)))
        self.last_word = int.from_bytes(self.frame[36:38], "big")

    def run(self):
        f, sock = self.frame, self.topo.senders["h6"].sock
        # Ether 14, IPv6 40: source address word 7 at 14 + 8 + 14, UDP
        # source port at 54, checksum at 60.
        for word in range(1, 65536):
            f[36:38] = word.to_bytes(2, "big")
            for port in range(1024, 1124):
                if self.stop.is_set():
                    return
                c = int.from_bytes(f[60:62], "big")
                c = _csum_add(c, int.from_bytes(f[54:56], "big"), port)
                f[54:56] = port.to_bytes(2, "big")
                # The address word changed once per hundred ports.
                if port == 1024:
                    c = _csum_add(c, self.last_word, word)
                    self.last_word = word
                f[60:62] = c.to_bytes(2, "big")
                sock.send(bytes(f))
                self.sent += 1


def test_show_lists_static_entries_whole_under_traffic(topo):
    """config show lists every static BIB entry once while traffic makes
    dynamic entries between the parts of its dump: the kernel lists the
    static ones alone, in an order new dynamic entries do not move (it
    read the whole BIB by position: a warning, exit 0, and an entry could
    be left out of the file, or be in it twice)."""
    statics = [{"protocol": "udp", "ipv6": "2001:db8:6::5#%d" % (1000 + i),
                "ipv4": "198.51.100.17#%d" % (20000 + i)}
               for i in range(1500)]
    cli_ok(topo.xl, "config", "apply",
           write(topo.tmp, "n.json", [dict(NAT64, bib=statics)]))
    churn = Churn(topo)
    churn.start()
    try:
        wait_until(lambda: stats(topo.xl, "n")["bib-entries"] > 1600, 60)
        for _ in range(3):
            before = stats(topo.xl, "n")["bib-entries"]
            r = cli(topo.xl, "config", "show")
            after = stats(topo.xl, "n")["bib-entries"]
            assert (r.rc, r.err) == (0, "")
            assert after > before, "no dynamic entry made meanwhile"
            bib = json.loads(r.out)["instances"][0]["bib"]
            assert sorted(bib, key=lambda b: b["ipv6"]) == \
                sorted(statics, key=lambda b: b["ipv6"])
    finally:
        churn.stop.set()
        churn.join(10)


def test_round_trip_keeps_sessions(topo):
    cli_ok(topo.xl, "config", "apply", write(topo.tmp, "n.json", [NAT64]))
    f = out64(topo, udp6(sport=40001))
    src4, sport4 = f[IP].src, f[UDP].sport
    assert in_pool4(src4)

    def session():
        return [(s["address6"], s["port6"], s["address4"], s["port4"])
                for s in kebab(cli_json(topo.xl, "-i", "n", "session",
                                        "list", changing=True))]
    want = [(CLIENT, 40001, src4, sport4)]
    assert session() == want

    first, conf = show(topo)
    assert [i["name"] for i in conf["instances"]] == ["n"]
    path = write(topo.tmp, "shown.json", None, first)
    cli_ok(topo.xl, "config", "apply", path)
    second, _ = show(topo)
    assert second == first
    cli_ok(topo.xl, "config", "apply", path)
    assert show(topo)[0] == first
    assert session() == want

    changed = dict(NAT64, globals=dict(NAT64["globals"], **{
        "udp-timeout": 900}))
    cli_ok(topo.xl, "config", "apply", write(topo.tmp, "c.json", [changed]))
    assert cli_json(topo.xl, "-i", "n", "global",
                    "show")["udp-timeout"] == 900
    assert session() == want
    check_bib = kebab(cli_json(topo.xl, "-i", "n", "bib", "list",
                               changing=True))
    assert sorted(b["static"] for b in check_bib) == [False, True]


def test_large_tables(topo):
    """Tens of thousands of EAMT entries go in one request."""
    n = 30000
    eamt = [{"prefix6": "2001:db8:%x:%x::/64" % (i >> 8, i & 255),
             "prefix4": "10.%d.%d.0/24" % (i >> 8, i & 255)}
            for i in range(n)]
    deny = ["198.%d.%d.0/24" % (18 + (i >> 8), i & 255) for i in range(512)]
    big = dict(SIIT, eamt=eamt, denylist4=deny)
    path = write(topo.tmp, "big.json", [big])
    cli_ok(topo.xl, "config", "apply", path)
    _, conf = show(topo)
    assert len(conf["instances"][0]["eamt"]) == n
    assert len(conf["instances"][0]["denylist4"]) == 512
    assert len(cli_json(topo.xl, "-i", "s", "eamt", "list")) == n
    q = cli_json(topo.xl, "-i", "s", "address", "query", "10.117.47.5")
    assert q["translated"] == "2001:db8:75:2f:500::"
    # The same with a bad last entry: refused, and named.
    big["eamt"].append({"prefix6": "2001:db8:ffff::/104",
                        "prefix4": "10.0.0.0/8"})
    path = write(topo.tmp, "big2.json", [big])
    r = cli(topo.xl, "config", "apply", path)
    assert r.err == ('tern: %s:%d: instance "s", eamt entry %d: overlaps '
                     'EAMT entry 2001:db8::/64 10.0.0.0/24\n'
                     % (path, line_of(path, "2001:db8:ffff::") - 1, n + 1))


def schema():
    with open(os.path.join(ROOT, "docs", "config.schema.json")) as f:
        return f.read()


@pytest.mark.nomodule
def test_schema_follows_globals():
    """docs/config.schema.json is what test/config-schema.py makes of
    include/tern_globals.h, and the files of these tests are valid."""
    r = run(["python3", os.path.join(ROOT, "test", "config-schema.py")])
    assert r.out == schema()
    try:
        import jsonschema
    except ImportError:
        pytest.skip("python3-jsonschema is not installed")
    s = json.loads(schema())
    jsonschema.validate({"instances": [NAT64, SIIT]}, s)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"instances": [dict(SIIT, globals={
            "udp-timeout": 5})]}, s)
    # What the kernel and the CLI refuse: a quote or a backslash in a
    # name, a pool4 entry of no protocol.
    for name in ('a"b', "a\\b", "a b"):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"instances": [dict(SIIT, name=name)]}, s)
    jsonschema.validate({"instances": [dict(SIIT, name="x-1.y_[]~!")]}, s)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"instances": [dict(NAT64, pool4=[
            {"prefix": "198.51.100.32/32", "protocols": []}])]}, s)


def unit_lines(key):
    """The KEY= lines of systemd/tern.service, with the paths of this
    tree (the service's wrapper and CLI as installed)."""
    out = []
    with open(os.path.join(ROOT, "systemd", "tern.service.in")) as f:
        for line in f:
            if line.startswith(key + "="):
                v = line.split("=", 1)[1].strip()
                v = v.replace("@libexecdir@/tern/tern-service",
                              os.path.join(ROOT, "systemd", "tern-service"))
                out.append(shlex.split(v))
    return out


def test_service_start_stop(topo):
    """ExecStart applies every file of the configuration directory
    (together), ExecStop removes the instances."""
    d = topo.tmp / "etc"
    d.mkdir()
    write(d, "10-nat64.json", [NAT64])
    write(d, "README", None, "not a configuration\n")
    env = dict(os.environ, TERN_CONFIG_DIR=str(d), TERN=ternlib.TERN)
    starts, stops = unit_lines("ExecStart"), unit_lines("ExecStop")
    assert len(starts) == 1 and len(stops) == 1
    with in_netns(str(topo.xl)):
        run(starts[0], env=env)
    check_nat64(topo)
    with in_netns(str(topo.xl)):
        run(stops[0], env=env)
    assert cli_json(topo.xl, "instance", "list") == []


def test_service_dangling_link_fails(topo):
    """A dangling link among the files (a configuration removed, its link
    left) fails the start with apply's one line, nothing applied; it was
    taken for an empty directory: exit 0, the other file not applied."""
    d = topo.tmp / "etc"
    d.mkdir()
    os.symlink(str(topo.tmp / "gone.json"), str(d / "00-old.json"))
    write(d, "10-nat64.json", [NAT64])
    env = dict(os.environ, TERN_CONFIG_DIR=str(d), TERN=ternlib.TERN)
    with in_netns(str(topo.xl)):
        r = run(unit_lines("ExecStart")[0], check=False, env=env)
    assert (r.rc, r.out, r.err) == (
        1, "", "tern: %s: No such file or directory\n" % (d / "00-old.json"))
    assert cli_json(topo.xl, "instance", "list") == []
