"""Entering and making network namespaces, at the level of system calls.

in_netns() runs a block of this thread inside a namespace (setns(2)
there and back); a socket opened in the block stays in that namespace.
A namespace is made like `ip netns add` without starting ip: this thread
unshares and bind-mounts its new namespace on /run/netns/NAME. Each
namespace gets one generic netlink socket (genl.py), opened on first use
and closed with the namespace. The Netns object is in netns.py.
"""

import contextlib
import ctypes
import os

import genl


_libc = ctypes.CDLL(None, use_errno=True)
CLONE_NEWNET = 0x40000000


def _setns(fd):
    if _libc.setns(fd, CLONE_NEWNET) != 0:
        e = ctypes.get_errno()
        raise OSError(e, "setns: " + os.strerror(e))


@contextlib.contextmanager
def in_netns(name):
    """Runs the block (this thread only) inside network namespace NAME."""
    own = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    try:
        target = os.open("/run/netns/%s" % name, os.O_RDONLY)
        try:
            _setns(target)
            try:
                yield
            finally:
                _setns(own)
        finally:
            os.close(target)
    finally:
        os.close(own)


# One generic netlink socket per namespace, opened on first use (a socket
# stays in the namespace it was created in) and closed with it.
_genl_socks = {}


def genl_in(ns):
    """A new genl.Genl socket in namespace NS (the caller closes it)."""
    with in_netns(str(ns)):
        return genl.Genl()


def _genl(name):
    g = _genl_socks.get(name)
    if g is None:
        g = _genl_socks[name] = genl_in(name)
    return g


def _genl_forget(name):
    g = _genl_socks.pop(name, None)
    if g is not None:
        g.close()


MS_BIND, MNT_DETACH = 0x1000, 2
NETNS_RUN_DIR = "/run/netns"


def _libc_check(ret, what):
    if ret != 0:
        e = ctypes.get_errno()
        raise OSError(e, "%s: %s" % (what, os.strerror(e)))


def _netns_add(name):
    """`ip netns add NAME` without starting ip: a new namespace (this
    thread unshares, then goes back) bind-mounted on /run/netns/NAME."""
    os.makedirs(NETNS_RUN_DIR, exist_ok=True)
    path = os.path.join(NETNS_RUN_DIR, name)
    os.close(os.open(path, os.O_RDONLY | os.O_CREAT | os.O_EXCL, 0))
    own = os.open("/proc/thread-self/ns/net", os.O_RDONLY)
    try:
        _libc_check(_libc.unshare(CLONE_NEWNET), "unshare")
        try:
            _libc_check(_libc.mount(b"/proc/thread-self/ns/net",
                                    path.encode(), None, MS_BIND, None),
                        "mount " + path)
        finally:
            _setns(own)
    except BaseException:
        os.unlink(path)
        raise
    finally:
        os.close(own)


def _netns_del(name):
    """`ip netns del NAME`: the namespace goes once nothing uses it."""
    path = os.path.join(NETNS_RUN_DIR, name)
    _libc.umount2(path.encode(), MNT_DETACH)
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


_ns_seq = 0


def unique_name(role):
    global _ns_seq
    _ns_seq += 1
    return "tern-%s-%d-%d" % (role, os.getpid(), _ns_seq)
