"""The documentation's commands, run as written (docs/testing.md, "The
documentation's commands").

Every ```sh block of README.md, docs/*.md and docs/recipes/*.md is either
run here or marked `not-run: REASON`. The runnable blocks of one file run
in order, as one script under `set -e -o pipefail`, in a directory of
their own:

    ```sh             the VM's own (initial) network namespace
    ```sh on=NS       in network namespace NS, as `ip netns exec NS bash`
                      would: what you type on that box (a router)
    ```sh not-run: REASON   never run; REASON says why and which test
                      covers those commands instead

A file passes when its script exits 0: the recipes end with the traffic
that shows translation working (a ping, an HTTP transfer) and a check of
Tern's counters that fails when nothing was translated (grep for a
non-zero value), then delete their namespaces. Whatever the script
leaves behind (namespaces, processes in them, instances of the initial
namespace) is removed here, and a recipe that passed must have left
nothing. `modprobe tern` resolves to a check that the module the harness
loaded is there (test/functional/docs-bin/modprobe); `tern` is the CLI of the build
tree, and iptables finds the TERN extension of the build tree
(XTABLES_LIBDIR).
"""

import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

import pytest

import ternlib
from ternlib import REPO

DOCS = REPO / "docs"
FENCE = re.compile(r"^```(\S*)[ \t]*(.*)$")
SHELLS = {"bash", "shell", "zsh", "console", "shell-session"}


def doc_files():
    files = [REPO / "README.md"] + sorted(DOCS.glob("*.md")) + \
        sorted((DOCS / "recipes").glob("*.md"))
    return [f for f in files if f.is_file()]


def blocks(path):
    """[(line, lang, info, text)] of the fenced blocks of PATH."""
    out, cur = [], None
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if cur is None:
            m = FENCE.match(line)
            if m:
                cur = (n, m.group(1), m.group(2).strip(), [])
        elif line.startswith("```"):
            out.append((cur[0], cur[1], cur[2], "\n".join(cur[3]) + "\n"))
            cur = None
        else:
            cur[3].append(line)
    assert cur is None, "%s:%d: unclosed code block" % (path, cur[0])
    return out


def runnable(path):
    """[(line, netns or None, text)] of PATH's blocks to run; fails on a
    shell block that is neither run nor marked not-run with a reason."""
    rel = path.relative_to(REPO)
    out = []
    for line, lang, info, text in blocks(path):
        where = "%s:%d" % (rel, line)
        assert lang not in SHELLS, \
            "%s: shell commands go in ```sh blocks (run, or marked " \
            "not-run: REASON), not ```%s" % (where, lang)
        if lang != "sh":
            continue
        if info.startswith("not-run"):
            assert re.match(r"not-run: \S.{10,}", info), \
                "%s: not-run needs a reason: `not-run: REASON`" % where
            continue
        m = re.fullmatch(r"(?:on=([A-Za-z0-9_-]+))?", info)
        assert m, "%s: unknown marker %r (sh, sh on=NS, sh not-run: " \
            "REASON)" % (where, info)
        out.append((line, m.group(1), text))
    return out


def netns_list():
    r = subprocess.run(["ip", "netns", "list"], capture_output=True,
                       text=True, check=True)
    return {ln.split()[0] for ln in r.stdout.splitlines() if ln.strip()}


def instances_here():
    r = subprocess.run([ternlib.TERN, "-j", "instance", "list"],
                       capture_output=True, text=True)
    if r.returncode:
        return set()
    return {i["name"] for i in json.loads(r.stdout or "[]")
            if i.get("type") not in (None, "-")}


def script(path, workdir):
    """The shell script of PATH's runnable blocks (each in a file of
    WORKDIR, sourced, or run in its namespace)."""
    lines = ["set -e -o pipefail"]
    for i, (line, ns, text) in enumerate(runnable(path)):
        f = Path(workdir, ".block%02d.sh" % i)
        f.write_text("set -e -o pipefail\n" + text)
        where = "%s:%d" % (path.relative_to(REPO), line)
        if ns:
            lines.append("echo '### %s (on %s)'" % (where, ns))
            lines.append("ip netns exec %s bash %s" % (ns, f))
        else:
            lines.append("echo '### %s'" % where)
            lines.append(". %s" % f)
    return "\n".join(lines) + "\n"


def _xtlibdir():
    r = subprocess.run(["pkg-config", "--variable=xtlibdir", "xtables"],
                       capture_output=True, text=True)
    system = r.stdout.strip() or "/usr/lib/x86_64-linux-gnu/xtables"
    return "%s:%s" % (REPO / "usr" / "xtables" / ".libs", system)


def _params():
    out = []
    for f in doc_files():
        try:
            if not runnable(f):
                continue
        except AssertionError:      # test_shell_blocks_are_marked says
            pass
        rel = str(f.relative_to(REPO))
        marks = []
        # iptables is iptables-nft on Debian 12: nft_compat, which the
        # debug kernel leaves out.
        if re.search(r"^\s*(ip6?tables|iptables-save)\b", f.read_text(),
                     re.M):
            marks.append(pytest.mark.nft)
        out.append(pytest.param(rel, marks=marks, id=rel))
    return out


@pytest.mark.nomodule
@pytest.mark.parametrize("path", doc_files(),
                         ids=lambda p: str(p.relative_to(REPO)))
def test_shell_blocks_are_marked(path):
    """Every ```sh block is run below or says why not (no module
    needed: the markers alone)."""
    runnable(path)


def test_recipes_exist():
    """The quick start and the recipes have commands to run (a renamed
    directory must not turn this file into a test of nothing)."""
    names = {p.values[0] for p in _params()}
    for must in ("docs/quickstart.md", "docs/recipes/siit.md",
                 "docs/recipes/nat64.md", "docs/recipes/464xlat.md",
                 "docs/recipes/iptables.md", "docs/recipes/config.md"):
        assert must in names, (must, sorted(names))


@pytest.mark.parametrize("rel", _params())
def test_doc_commands(rel):
    path = REPO / rel
    before_ns = netns_list()
    before_inst = instances_here()
    env = dict(os.environ)
    env["PATH"] = "%s:%s:%s" % (REPO / "test" / "functional" / "docs-bin",
                                Path(ternlib.TERN).parent, env["PATH"])
    env["XTABLES_LIBDIR"] = _xtlibdir()
    with tempfile.TemporaryDirectory() as d:
        body = script(path, d)
        try:
            p = subprocess.run(["bash", "-c", body], cwd=d, env=env,
                               capture_output=True, text=True,
                               timeout=600)
        finally:
            left_ns = netns_list() - before_ns
            left_inst = instances_here() - before_inst
            for ns in left_ns:
                subprocess.run("ip netns pids %s | xargs -r kill" % ns,
                               shell=True)
                subprocess.run(["ip", "netns", "del", ns])
            for name in left_inst:
                subprocess.run([ternlib.TERN, "instance", "remove", name])
    assert p.returncode == 0, "%s: the commands failed (exit %d)\n%s\n%s" % (
        rel, p.returncode, p.stdout[-6000:], p.stderr[-4000:])
    assert "###" in p.stdout
    assert not left_ns and not left_inst, \
        "%s left behind namespaces %s, instances %s" % (
            rel, sorted(left_ns), sorted(left_inst))


@pytest.mark.nomodule
def test_cli_md_lists_the_commands_of_the_help():
    """docs/cli.md's table names exactly the command groups of `tern
    --help` (the rest of the reference is the help itself)."""
    r = subprocess.run([ternlib.TERN, "--help"], capture_output=True,
                       text=True, check=True)
    body = r.stdout.split("Commands:", 1)[1].split("\n\n", 1)[0]
    helped = {ln.split()[0] for ln in body.splitlines() if ln.strip()}
    table = (DOCS / "cli.md").read_text().split("## Commands", 1)[1]
    listed = set(re.findall(r"^\| `([a-z0-9]+)` \|", table, re.M))
    assert listed == helped, (sorted(listed - helped), sorted(helped - listed))
