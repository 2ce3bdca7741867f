"""Fixtures of Tern's functional tests; helpers live in the ternlib package.

Tests need tern.ko (/sys/module/tern) and the CLI ($TERN, by default
usr/cli/tern) unless marked `nomodule`. Without the module they are skipped,
or fail if TERN_REQUIRE_MODULE=1 (as the VM harness sets it). With the
module loaded they always run, and a missing CLI is a failure.
"""

import os
import re

import pytest

# Plain asserts in the helpers get pytest's detailed messages too.
pytest.register_assert_rewrite("ternlib")

import ternlib  # noqa: E402
from ternlib import Netns, Topology, cli, cli_ok  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "nomodule: runs without tern.ko (self-checks of the "
        "test topology and helpers)")


def pytest_addoption(parser):
    parser.addoption(
        "--first-param-only", action="store_true",
        help="of each parametrized test, run only the first parameter set "
        "the selection kept (the debug kernel's run: every test function, "
        "not every variant of its data)")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """--first-param-only: after -m/-k, one item per test function."""
    if not config.getoption("--first-param-only"):
        return
    seen, keep, drop = set(), [], []
    for item in items:
        base = item.nodeid.split("[", 1)[0]
        (drop if base in seen else keep).append(item)
        seen.add(base)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_runtest_setup(item):
    if item.get_closest_marker("nomodule"):
        return
    if not ternlib.module_loaded():
        msg = "tern.ko is not loaded (/sys/module/tern is absent)"
        if os.environ.get("TERN_REQUIRE_MODULE") == "1":
            pytest.fail(msg, pytrace=False)
        pytest.skip(msg)
    if not os.access(ternlib.TERN, os.X_OK):
        pytest.fail("tern.ko is loaded but the CLI %s is missing"
                    % ternlib.TERN, pytrace=False)


# Kernel messages that mean a test found a kernel bug even if it passed.
_KMSG_BAD = re.compile(r"BUG:|WARNING:|Call Trace:|KASAN|UBSAN|"
                       r"general protection|Oops|refcount_t|kmemleak|"
                       r"list_(add|del) corruption|stack-protector|"
                       r"unreferenced object|lockdep|possible .*deadlock",
                       re.I)
# pktgen's own notice when a device it sends on is unregistered before its
# thread saw the carrier go (test_lifetime deletes a namespace under
# pktgen traffic on purpose; which comes first depends on the scheduler).
KMSG_EXPECTED = re.compile(
    r"pktgen: WARNING: trying to remove a running interface")


@pytest.fixture(autouse=True)
def kernel_log_clean(request):
    """Fails a test during which the kernel logged a splat."""
    if request.node.get_closest_marker("nomodule") or \
            not ternlib.module_loaded():
        yield
        return
    try:
        fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
        os.lseek(fd, 0, os.SEEK_END)
    except OSError:
        yield
        return
    try:
        yield
        bad = []
        while True:
            try:
                rec = os.read(fd, 8192).decode(errors="replace")
            except BlockingIOError:
                break
            except OSError:         # EPIPE: records overwritten; go on
                continue
            if not rec:
                break
            msg = rec.split(";", 1)[-1].strip()
            if _KMSG_BAD.search(msg) and not KMSG_EXPECTED.search(msg):
                bad.append(msg)
        if bad:
            pytest.fail("kernel log during the test:\n" + "\n".join(bad[:40]),
                        pytrace=False)
    finally:
        os.close(fd)


@pytest.fixture(scope="module")
def topology():
    """h6 -- xl -- h4 without a translator instance."""
    topo = Topology().build()
    yield topo
    topo.destroy()


@pytest.fixture(scope="module")
def _xlat_module():
    topo = Topology().build()
    try:
        cli_ok(topo.xl, "instance", "add", "t", "--siit", "--pool6",
               ternlib.POOL6)
        # What xlat puts the globals back to after a test that set some.
        topo.baseline = ternlib.globals_(topo.xl, "t")
        yield topo
    finally:
        topo.destroy()


@pytest.fixture
def xlat(_xlat_module):
    """The topology with instance "t" (pool6 2001:db8:64::/96) in xl.

    Globals a test changes through topo.set_global() and routes added with
    topo.temp_route() are put back afterwards. The globals go back to
    what they were when the instance was made, not to what they were when
    the test first called set_global(): a test may change one by other
    means first (test_eamt.py's set_hairpin()), and a snapshot taken
    after that would put the change back for the tests after it.
    """
    topo = _xlat_module
    touched = []

    def set_global(key, value):
        touched.append(key)
        cli_ok(topo.xl, "-i", "t", "global", "set", key, value)

    topo.set_global = set_global
    yield topo
    while topo.cleanups:
        topo.cleanups.pop()()
    if touched:
        original = topo.baseline
        now = ternlib.globals_(topo.xl, "t")
        for key in now:
            if now[key] != original[key]:
                cli_ok(topo.xl, "-i", "t", "global", "set", key,
                       _cli_value(original[key]))
        assert ternlib.globals_(topo.xl, "t") == original


def _cli_value(v):
    """A value of `global show --json` as `global set` takes it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "none"
    if isinstance(v, list):
        return ",".join(str(x) for x in v)
    return str(v)


@pytest.fixture(scope="module")
def _module_ns():
    n = Netns("cli")
    yield n
    n.delete()


@pytest.fixture
def ns(_module_ns):
    """A network namespace without Tern instances: the test module's own,
    emptied of instances before and after each test (a new namespace per
    test costs seconds on the debug kernel under emulation)."""
    ternlib.remove_instances(_module_ns)
    yield _module_ns
    ternlib.remove_instances(_module_ns)


@pytest.fixture
def tern():
    """tern(ns, *args) -> Result(rc, out, err)."""
    return cli
