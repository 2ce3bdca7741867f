"""Running programs, and the tern CLI in a namespace.

run() runs a command and returns Result(rc, out, err); cli() runs
`tern ARGS` inside a namespace (like `ip netns exec NS tern ARGS`), and
cli_ok/cli_json/stats/globals_/instances read its answers. kstats() and
remove_instances() do over netlink (genl.py) what the CLI would, without
starting a program. assert_error() checks a refusal; require_global and
require_command skip a test the CLI cannot run yet.
"""

import json
import os
import re
import shlex
import subprocess
from collections import namedtuple

import genl
from .names import CLI_TIMEOUT, STAT_ENUMS, TERN
from .nsenter import _genl, in_netns


Result = namedtuple("Result", "rc out err")


def _stuck(p, cmd, timeout):
    """CMD (process P) ran past TIMEOUT: what it and every blocked task
    wait on (sysrq w, into the kernel log), then a failure. A process
    stuck in the kernel does not die of SIGKILL: waiting for it, as
    subprocess.run does, would hang the test run instead of failing it."""
    try:
        with open("/proc/%d/stack" % p.pid) as f:
            stack = f.read()
    except OSError as e:
        stack = "(no stack: %s)" % e
    try:
        with open("/proc/sysrq-trigger", "w") as f:
            f.write("w")
    except OSError:
        pass
    p.kill()
    try:
        p.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    raise AssertionError("%s: still running after %d s; its kernel stack:\n%s"
                         "(blocked tasks: sysrq w in the kernel log)"
                         % (shlex.join(cmd), timeout, stack))


def run(cmd, check=True, timeout=60, input=None, env=None):
    """Runs CMD (a list); returns Result. Raises on failure if CHECK."""
    p = subprocess.Popen(cmd, stdin=None if input is None else subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env)
    try:
        out, err = p.communicate(input, timeout=timeout)
    except subprocess.TimeoutExpired:
        _stuck(p, cmd, timeout)
    r = Result(p.returncode, out, err)
    if check and r.rc != 0:
        raise AssertionError("%s: exit %d\nstdout: %s\nstderr: %s"
                             % (shlex.join(cmd), r.rc, r.out, r.err))
    return r


def module_loaded():
    return os.path.isdir("/sys/module/tern")


def cli(ns, *args, timeout=CLI_TIMEOUT, prefix=()):
    """Runs `tern ARGS` in namespace NS (None: this one); returns Result.

    Like `ip netns exec NS tern ARGS`, minus a process: the child inherits
    the namespace this thread enters for the time of the call.
    """
    cmd = list(prefix) + [TERN] + [str(a) for a in args]
    if ns is None:
        return run(cmd, check=False, timeout=timeout)
    with in_netns(str(ns)):
        return run(cmd, check=False, timeout=timeout)


def cli_ok(ns, *args, **kw):
    r = cli(ns, *args, **kw)
    assert r.rc == 0, "tern %s: exit %d, stderr %r" % (
        " ".join(map(str, args)), r.rc, r.err)
    assert r.err == "", "tern %s wrote to stderr: %r" % (
        " ".join(map(str, args)), r.err)
    return r.out


# What the CLI says of a session or BIB dump the kernel flagged as changed
# between its parts (NLM_F_DUMP_INTR): expected while traffic makes and
# removes state.
DUMP_CHANGED = ("tern: warning: the table changed while it was read: an "
                "entry may be missing or shown twice\n")


def cli_json(ns, *args, changing=False):
    """`tern ARGS --json`, parsed. CHANGING: a dump of a table that may
    change while it is read; the CLI's warning that it did is allowed."""
    if changing:
        r = cli(ns, *args, "--json")
        assert r.rc == 0 and r.err in ("", DUMP_CHANGED), \
            "tern %s: exit %d, stderr %r" % (" ".join(args), r.rc, r.err)
        out = r.out
    else:
        out = cli_ok(ns, *args, "--json")
    try:
        return json.loads(out)
    except ValueError as e:
        raise AssertionError("tern %s --json: not JSON (%s): %r"
                             % (" ".join(args), e, out))


def stats(ns, instance=None):
    """`tern stats --all --json` as one {name: value} dict: the counters of
    every group, and the table sizes of a NAT64 instance."""
    pre = ("-i", instance) if instance else ()
    return stats_flat(cli_json(ns, *pre, "stats", "--all"))


def stats_flat(groups):
    """{name: value} of `tern stats --json`'s {group: {name: value}}."""
    flat = {}
    for members in groups.values():
        assert not set(flat) & set(members), groups
        flat.update(members)
    return flat


def kstats(ns, instance=None):
    """The counters of INSTANCE (None: the only one) in namespace NS as
    {name: n}, like `tern stats --json`, but read over netlink by this
    process: Counters polls them, and a CLI run per poll is slow on the
    debug kernel. test_cli.py checks that both agree."""
    raw = _genl(str(ns)).stats(instance)
    return {name: raw.get(genl.STAT[enum], 0) for name, enum in STAT_ENUMS}


def remove_instances(ns):
    """Removes every instance of namespace NS (over netlink)."""
    g = _genl(str(ns))
    for name in g.instances():
        g.instance_del(name)
    assert g.instances() == []


def globals_(ns, instance=None):
    pre = ("-i", instance) if instance else ()
    return cli_json(ns, *pre, "global", "show")


def instances(ns):
    return cli_json(ns, "instance", "list")


def assert_error(r, rc, *words):
    """A refusal: exit RC (1: refused by the kernel, 2: usage error), one
    `tern: ` line naming WORDS."""
    assert rc in (1, 2)
    assert r.rc == rc, "exit %d, expected %d; stderr %r" % (r.rc, rc, r.err)
    lines = r.err.splitlines()
    assert len(lines) == 1, "expected one line on stderr, got %r" % r.err
    assert lines[0].startswith("tern: "), lines[0]
    for w in words:
        assert re.search(w, lines[0], re.I), \
            "stderr %r does not match %r" % (lines[0], w)
    return lines[0]


def cli_refused(ns, rc, message, *args):
    """`tern ARGS` fails with exit RC and exactly `tern: MESSAGE`."""
    r = cli(ns, *args)
    line = assert_error(r, rc)
    assert line == "tern: " + message
    assert r.out == ""


def require_global(topo, key):
    """Fails the test when the CLI cannot show global KEY (a setting the
    test needs, gone or broken: never a silent skip)."""
    r = cli(topo.xl.name, "global", "show", "--json")
    try:
        ok = r.rc == 0 and key in json.loads(r.out)
    except ValueError:
        ok = False
    assert ok, "the tern CLI does not show global %r (rc %d, %r)" % (
        key, r.rc, r.err.strip()[:200])


def require_command(topo, *words):
    """Fails the test when the CLI has no command WORDS (never a silent
    skip)."""
    r = cli(topo.xl.name, *words, "--help")
    assert r.rc == 0, "the tern CLI has no '%s' command (rc %d, %r)" % (
        " ".join(words), r.rc, r.err.strip()[:200])
