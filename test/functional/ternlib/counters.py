"""Counter deltas of a Tern instance, read over netlink (commands.kstats).

Counters.expect() waits for the deltas a test expects and asserts them
exactly: every other counter unchanged. It is also the usual proof of a
check that nothing arrived (frames.none_on).
"""

import contextlib
import time

from .commands import kstats
from .names import TIMEOUT


class Counters:
    """Counter deltas of an instance from the time of creation."""

    def __init__(self, ns, instance=None):
        self.ns, self.instance = str(ns), instance
        self.before = kstats(self.ns, instance)

    def delta(self):
        now = kstats(self.ns, self.instance)
        assert set(now) == set(self.before)
        return {k: now[k] - self.before[k] for k in now
                if now[k] != self.before[k]}

    @contextlib.contextmanager
    def explain(self):
        """Adds the counter deltas to an assertion failing in the block."""
        try:
            yield
        except AssertionError as e:
            try:
                d = self.delta()
            except Exception as e2:      # keep the original failure
                d = "unavailable (%s)" % e2
            raise AssertionError("%s\ncounter deltas: %s" % (e, d)) from None

    def expect(self, expected, timeout=None, settle=0):
        """Waits until the deltas reach EXPECTED ({name: n}); then asserts
        they equal it exactly (every other counter unchanged).

        Call it once the packets have had their effect (the translated
        frame was captured, or a capture stayed quiet for a while), or pass
        SETTLE seconds to wait before the final reading.

        A value may be a tuple of names to mean "exactly one packet, counted
        in one of these": {("pass-local", "pass-no-mapping"): 1}.
        """
        deadline = time.monotonic() + (TIMEOUT if timeout is None
                                       else timeout)

        def reached(d):
            for k, n in expected.items():
                got = sum(d.get(x, 0) for x in k) if isinstance(k, tuple) \
                    else d.get(k, 0)
                if got < n:
                    return False
            return True

        d = self.delta()
        while not reached(d) and time.monotonic() < deadline:
            time.sleep(0.1)
            d = self.delta()
        if settle:
            time.sleep(settle)
            d = self.delta()
        want, rest = {}, dict(d)
        for k, n in expected.items():
            if isinstance(k, tuple):
                hit = {x: rest.pop(x) for x in k if x in rest}
                assert sum(hit.values()) == n and len(hit) <= 1, \
                    "expected %d in one of %s, counter deltas %s" % (n, k, d)
            else:
                want[k] = n
                rest.pop(k, None)
        for k, n in want.items():
            assert d.get(k, 0) == n, "counter %s: delta %d, expected %d " \
                "(all deltas %s)" % (k, d.get(k, 0), n, d)
        assert not rest, "unexpected counter deltas %s (expected %s)" % (
            rest, expected)
        return d
