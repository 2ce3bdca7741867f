"""iptables with the TERN extension of the build tree (usr/xtables/.libs,
built by `cd usr && autoreconf -fi && ./configure && make`), found through
XTABLES_LIBDIR before the system's extensions."""

from .commands import run
from .names import REPO


def _xtlibdir():
    built = REPO / "usr" / "xtables" / ".libs"
    r = run(["pkg-config", "--variable=xtlibdir", "xtables"], check=False)
    system = r.out.strip() if r.rc == 0 and r.out.strip() else \
        "/usr/lib/x86_64-linux-gnu/xtables"
    return built, "%s:%s" % (built, system)


BUILT, XTLIBDIR = _xtlibdir()


def ipt(ns, tool, *args, check=True):
    """TOOL ARGS in NS, with the extension of the build tree."""
    return ns.exec("env", "XTABLES_LIBDIR=" + XTLIBDIR, tool, "-w", *args,
                   check=check)


def ipt_raw(ns, tool, *args, check=True, input=None):
    """TOOL ARGS in NS without -w (the save/restore tools)."""
    return run(["ip", "netns", "exec", str(ns), "env",
                "XTABLES_LIBDIR=" + XTLIBDIR, tool] + list(args),
               check=check, input=input)
