"""Lifetimes under traffic (issue 10, item 1): an instance removed and added
again, a namespace deleted, and the module unloaded while packets run
through Tern's hooks on every CPU.

pktgen threads (one per CPU) send IPv6 and IPv4 packets into a translator
namespace; the translated packets go back to the sender, which drops them.
nf_unregister_net_hooks() does not wait for packets already inside a hook:
freeing what they read without a grace period is a use-after-free that
KASAN reports on the debug kernel (and the kernel log check fails the
test). Each step also asserts the state it leaves: no instance, or one
that translates again.
"""

import os
import subprocess
import time

import pytest

import ternlib
from ternlib import H6_LINK, POOL6, Netns, cli_ok, embed
from ternlib.pktgen import Pktgen, PktgenRig, fresh_instances


class Rig(PktgenRig):
    """src (pktgen, both families) -- xl (SIIT instance "t")."""

    PREFIX = "lt"
    INSTANCE = "t"
    NEIGH6 = H6_LINK
    ROUTES = ("route add %s/120 via %s dev v6" % (embed("198.51.100.0"),
                                                  H6_LINK),)

    def add_instance(self):
        cli_ok(self.xl, "instance", "add", "t", "--siit", "--pool6", POOL6)


@pytest.fixture
def rig():
    r = Rig()
    try:
        yield r
    finally:
        r.close()


def test_instance_removed_and_added_under_traffic(rig):
    rig.add_xl()
    rig.pg = Pktgen(rig.src)
    rig.pg.start()
    rig.wait_both_ways()
    for _ in range(8):
        cli_ok(rig.xl, "instance", "remove", "t")
        assert fresh_instances(rig.xl) == []
        cli_ok(rig.xl, "instance", "add", "t", "--siit", "--pool6", POOL6)
        rig.wait_both_ways()


def test_namespace_deleted_under_traffic(rig):
    for _ in range(6):
        rig.add_xl()
        # New veth pairs each time: pktgen set up anew.
        rig.pg = Pktgen(rig.src)
        rig.pg.start()
        rig.wait_both_ways()
        name = rig.xl.name
        rig.xl.delete()     # the namespace goes with its veth ends
        rig.xl = None
        rig.pg.stop()
        rig.pg = None
        # The instance is gone with its namespace: nothing holds it.
        assert not os.path.exists(os.path.join(ternlib.NETNS_RUN_DIR, name))
    # Namespaces are dismantled by a worker: wait for it, then check that
    # a new namespace starts empty and the module has no user left.
    deadline = time.monotonic() + 60
    while True:
        with open("/sys/module/tern/refcnt") as f:
            refs = int(f.read())
        if refs == 0:
            break
        assert time.monotonic() < deadline, "tern.ko refcnt %d" % refs
        time.sleep(0.5)
    fresh = Netns("lt-fresh")
    try:
        assert fresh_instances(fresh) == []
    finally:
        fresh.delete()


def _module_path():
    rel = os.uname().release
    return str(ternlib.REPO / ".build" / rel / "mod" / "tern.ko")


def test_rmmod_under_traffic(rig):
    """The last test of the file: unloads the module with an instance
    translating on every CPU, then loads it again (test/in-vm.sh unloads it
    at the end)."""
    ko = _module_path()
    assert os.path.exists(ko), ko
    rig.add_xl()
    rig.pg = Pktgen(rig.src)
    rig.pg.start()
    rig.wait_both_ways()
    ternlib._genl_socks.clear()
    r = subprocess.run(["rmmod", "tern"], capture_output=True, text=True,
                       timeout=120)
    loaded = subprocess.run(["insmod", ko], capture_output=True, text=True,
                            timeout=120)
    assert r.returncode == 0, r.stderr
    assert loaded.returncode == 0, loaded.stderr
    # The namespace survived; its instance did not.
    assert fresh_instances(rig.xl) == []
    rig.pg.stop()
