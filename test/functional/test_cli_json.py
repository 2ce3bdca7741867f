"""The tern CLI's JSON output, option placement and version handshake.

--json output is built with json-c: every key is kebab-case, strings are
escaped; -j/--json may come before the command or after it, short options
combine; `tern --version` names the CLI's, the module's and the netlink
API's versions, and a CLI of another API refuses to run.
"""

import json
import os
import re
import subprocess

import pytest

import ternlib
from ternlib import POOL6, REPO, assert_error, cli, cli_json, cli_ok, in_netns

pytestmark = pytest.mark.cli

KEBAB = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
VERSION = (REPO / "VERSION").read_text().strip()
API = int(re.search(r"#define TERN_GENL_API_VERSION\t+(\d+)\n",
                    (REPO / "include" / "tern_genl.h").read_text()).group(1))


def keys(v):
    """Every object key in the JSON value V, nested ones too."""
    if isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from keys(x)
    elif isinstance(v, list):
        for x in v:
            yield from keys(x)


def test_every_key_kebab_case(ns):
    cli_ok(ns, "instance", "add", "s", "--siit", "--pool6", POOL6)
    cli_ok(ns, "-i", "s", "eamt", "add", "2001:db8:6::/120", "198.51.100.0/24")
    cli_ok(ns, "-i", "s", "denylist4", "add", "192.0.2.0/24")
    outs = {
        "eamt list": cli_json(ns, "-i", "s", "eamt", "list"),
        "denylist4 list": cli_json(ns, "-i", "s", "denylist4", "list"),
        "address query": cli_json(ns, "-i", "s", "address", "query",
                                  "198.51.100.7"),
    }
    cli_ok(ns, "instance", "remove", "s")
    cli_ok(ns, "instance", "add", "n", "--nat64", "--pool6", POOL6)
    cli_ok(ns, "-i", "n", "pool4", "add", "203.0.113.1", "--tcp")
    cli_ok(ns, "-i", "n", "bib", "add", "2001:db8::2#40000",
           "203.0.113.1#2000", "--tcp")
    outs.update({
        "instance list": cli_json(ns, "instance", "list"),
        "global show": cli_json(ns, "-i", "n", "global", "show"),
        "stats": cli_json(ns, "-i", "n", "stats"),
        "pool4 list": cli_json(ns, "-i", "n", "pool4", "list"),
        "bib list": cli_json(ns, "-i", "n", "bib", "list"),
        "session list": cli_json(ns, "-i", "n", "session", "list"),
    })
    for what, out in outs.items():
        bad = [k for k in keys(out) if not KEBAB.fullmatch(k)]
        assert bad == [], (what, bad)
    assert outs["pool4 list"] == [{
        "protocol": "tcp", "prefix": "203.0.113.1/32", "port-min": 1024,
        "port-max": 65535, "mark": 0}]
    assert outs["bib list"] == [{
        "protocol": "tcp", "address6": "2001:db8::2", "port6": 40000,
        "address4": "203.0.113.1", "port4": 2000, "static": True,
        "sessions": 0}]
    assert outs["address query"]["eam"] == {"prefix6": "2001:db8:6::/120",
                                            "prefix4": "198.51.100.0/24"}
    assert outs["denylist4 list"] == ["192.0.2.0/24"]
    assert outs["session list"] == []


def test_strings_escaped(ns):
    """An instance name with a slash and JSON's own punctuation (quotes,
    backslashes and control characters are not in names: the kernel
    refuses them, test_cli.py::test_instance_name_refused) comes back
    exactly."""
    name = 'a/b{c},[d]:'
    cli_ok(ns, "instance", "add", name, "--siit", "--pool6", POOL6)
    assert [i["name"] for i in cli_json(ns, "instance", "list")] == [name]


@pytest.mark.parametrize("args", [
    ["-j", "instance", "list"],
    ["--json", "instance", "list"],
    ["instance", "list", "-j"],
    ["instance", "list", "--json"],
])
def test_json_before_or_after_the_command(ns, args):
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    out = cli_ok(ns, *args)
    assert out.count("\n") == 1
    assert json.loads(out) == [{"name": "t", "type": "siit",
                                "framework": "netfilter", "pool6": POOL6,
                                "status": "enabled", "rules": 0,
                                "passed-no-instance": 0}]


@pytest.mark.parametrize("args", [
    ["-i", "t", "global", "show", "--json"],
    ["-j", "-i", "t", "global", "show"],
    ["-jit", "global", "show"],
    ["-ji", "t", "global", "show"],
    ["global", "show", "-jit"],
    ["--json", "global", "show", "--instance=t"],
])
def test_combined_short_options(ns, args):
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    cli_ok(ns, "-i", "t", "global", "set", "tos", "7")
    assert json.loads(cli_ok(ns, *args))["tos"] == 7


def test_stats_jv(ns):
    """-jv: JSON (-v only adds descriptions to text)."""
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    assert json.loads(cli_ok(ns, "stats", "-jv", "--all")) == \
        cli_json(ns, "stats", "--all")


def test_version(ns):
    r = cli(ns, "--version")
    assert (r.rc, r.err) == (0, "")
    assert r.out == ("tern %s (CLI, netlink API %d)\n"
                     "module: tern %s (netlink API %d)\n"
                     % (VERSION, API, VERSION, API))
    assert open("/sys/module/tern/version").read().strip() == VERSION


@pytest.fixture(scope="module")
def other_api_cli(tmp_path_factory):
    """The CLI built again for netlink API API + 1: usr/cli/tern-api-next
    (test/check.sh builds it on the host: compiling here, under emulation,
    takes minutes), else compiled here."""
    built = REPO / "usr" / "cli" / "tern-api-next"
    if built.exists() and all(built.stat().st_mtime >= p.stat().st_mtime
                              for p in (REPO / "usr" / "cli").glob("*.[ch]")):
        return str(built)
    out = tmp_path_factory.mktemp("cli") / "tern"
    flags = subprocess.run(
        ["pkg-config", "--cflags", "--libs", "libnl-genl-3.0", "json-c"],
        capture_output=True, text=True, check=True).stdout.split()
    src = sorted(str(p) for p in (REPO / "usr" / "cli").glob("*.c"))
    subprocess.run(["gcc", "-O0", "-DHAVE_CONFIG_H",
                    "-DTERN_GENL_API_VERSION_OVERRIDE=%d" % (API + 1),
                    "-I", str(REPO / "usr"), "-I", str(REPO / "include"),
                    *src, "-o", str(out), *flags], check=True)
    return str(out)


MISMATCH = ("tern: the loaded tern module speaks netlink API %d, this CLI "
            "speaks %d; install the tern CLI that comes with the module "
            "(tern --version shows both)\n" % (API, API + 1))


@pytest.mark.parametrize("args", [
    ["instance", "list", "--json"],
    ["instance", "add", "t", "--siit", "--pool6", POOL6],
    ["global", "show"],
    ["monitor"],
])
def test_other_api_refused(ns, other_api_cli, args):
    """A CLI of another netlink API says so and stops (exit 1) before
    sending anything: no instance is added."""
    with in_netns(str(ns)):
        r = ternlib.run([other_api_cli, *args], check=False)
    assert (r.rc, r.out, r.err) == (1, "", MISMATCH)
    assert cli_json(ns, "instance", "list") == []


def test_other_api_version_says_both(ns, other_api_cli):
    with in_netns(str(ns)):
        r = ternlib.run([other_api_cli, "--version"], check=False)
    assert r.rc == 1
    assert r.out == ("tern %s (CLI, netlink API %d)\n"
                     "module: tern %s (netlink API %d)\n"
                     % (VERSION, API + 1, VERSION, API))
    assert_error(r, 1, "speaks netlink API %d, this CLI speaks %d"
                 % (API, API + 1))


def test_version_needs_no_privilege(ns):
    """The version is no secret: an unprivileged user gets it."""
    r = cli(ns, "--version", prefix=["setpriv", "--reuid", "65534",
                                     "--regid", "65534", "--clear-groups",
                                     "--inh-caps=-all"])
    assert (r.rc, r.err) == (0, ""), r.err
    assert r.out.endswith("module: tern %s (netlink API %d)\n"
                          % (VERSION, API))
    assert os.path.exists("/sys/module/tern")
