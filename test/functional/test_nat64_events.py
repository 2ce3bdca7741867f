"""NAT64 events (`tern monitor`, the generic netlink group "events"):
BIB entries and sessions made and removed, sent only when log-bib /
log-sessions ask for them, never at the cost of translation.

`tern monitor --json` runs in the translator's namespace as a child
process; a reader thread collects its lines. The monitor has joined the
group once it prints the event of a marker: a static BIB entry added (and
removed) by the test with log-bib on. Events of one socket come in the
order the kernel sent them, so what comes before the marker's is exactly
what the packets made.
"""

import contextlib
import ipaddress
import json
import os
import queue
import re
import select
import signal
import socket
import struct
import subprocess
import threading
import time
import types

import pytest

import genl
import ternlib
from ternlib import SINK4, Netns, cli_ok, in_netns
from ternlib.names import TERN, TIMEOUT
from test_nat64 import (CLIENT, POOL4_NET, _nat64_module, nat,  # noqa: F401
                        out64, sessions, udp6, wait_until)
from ternlib.nat64 import udp6_frames
from scapy.layers.inet import IP, TCP, UDP
from scapy.layers.inet6 import IPv6

# The marker: a static UDP BIB entry no flow of these tests uses.
MARK6, MARK6_PORT = "2001:db8:6::77", 7
MARK4, MARK4_PORT = str(POOL4_NET[3]), 65001
# Its IPv4 address in instance "other" (test_monitor_instance_filter).
OTHER4 = "203.0.113.9"


def mark4(inst):
    return MARK4 if inst == "n" else OTHER4


def add_remove_marker(topo, inst="n"):
    cli_ok(topo.xl, "-i", inst, "bib", "add", "%s#%d" % (MARK6, MARK6_PORT),
           "%s#%d" % (mark4(inst), MARK4_PORT), "--udp")
    cli_ok(topo.xl, "-i", inst, "bib", "remove", "%s#%d" %
           (MARK6, MARK6_PORT), "--udp")


def marker_event(event, inst="n"):
    return bib_event(event, MARK6, MARK6_PORT, mark4(inst), MARK4_PORT,
                     static=event == "bib-add", inst=inst)


class Monitor:
    """`tern [-i NAME] monitor --json` in namespace NS, lines collected."""

    def __init__(self, topo, *args, json=True):
        self.topo = topo
        with in_netns(str(topo.xl)):
            self.p = subprocess.Popen([TERN, *args, "monitor"] +
                                      (["--json"] if json else []),
                                      stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True)
        self.lines = queue.Queue()
        self.t = threading.Thread(target=self._read, daemon=True)
        self.t.start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def next(self, timeout=TIMEOUT):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError("no event within %ss" % timeout)
        assert line is not None, "tern monitor ended: %s" % self.p.stderr.read()
        ev = json.loads(line)
        # The time is the kernel's, now; both forms agree.
        assert abs(ev["time-ns"] / 1e9 - time.time()) < 60, ev
        t = time.strftime("%Y-%m-%dT%H:%M:%S",
                          time.gmtime(ev["time-ns"] // 10**9))
        assert ev["time"] == "%s.%03dZ" % (t, ev["time-ns"] // 10**6 % 1000)
        del ev["time"], ev["time-ns"]
        return ev

    def marker(self):
        """Adds and removes the marker entry; returns the events that came
        before its bib-add (log-bib must be on)."""
        add_remove_marker(self.topo)
        before = []
        while True:
            ev = self.next()
            if ev == marker_event("bib-add"):
                break
            before.append(ev)
        assert self.next() == marker_event("bib-del")
        return before

    def join(self, inst="n"):
        """Waits until the monitor hears the group: markers (of instance
        INST) until the bib-del of one comes (it may have joined between
        add and del)."""
        deadline = time.monotonic() + TIMEOUT
        end = marker_event("bib-del", inst)
        while True:
            assert time.monotonic() < deadline, "tern monitor hears nothing"
            add_remove_marker(self.topo, inst)
            try:
                while self.next(timeout=1) != end:
                    pass
                return
            except AssertionError:
                assert self.p.poll() is None, self.p.stderr.read()

    def stop(self):
        self.p.terminate()
        rc = self.p.wait(timeout=10)
        err = self.p.stderr.read()
        self.p.stdout.close()
        self.p.stderr.close()
        return rc, err


def bib_event(event, a6, p6, a4, p4, static=False, proto="udp",
              inst="n"):
    return {"instance": inst, "event": event, "protocol": proto,
            "address6": a6, "port6": p6, "address4": a4, "port4": p4,
            "static": static}


def sess_event(event, s):
    return {"instance": "n", "event": event, "protocol": s["protocol"],
            "address6": s["address6"], "port6": s["port6"],
            "address4": s["address4"], "port4": s["port4"],
            "remote4": s["remote4"], "remote-port4": s["remote-port4"],
            "state": s["state"]}


@pytest.fixture
def mon(nat):
    """tern monitor in the translator's namespace, log-bib on while it
    joins; stopped (SIGTERM: exit 0, nothing on stderr) after the test."""
    nat.set("log-bib", "true")
    m = Monitor(nat)
    m.join()
    yield m
    rc, err = m.stop()
    assert (rc, err) == (0, ""), (rc, err)


def test_settings_off_by_default(nat):
    g = ternlib.globals_(nat.xl, "n")
    assert (g["log-bib"], g["log-sessions"]) == (False, False)


def test_udp_flow_events(nat, mon):
    nat.set("log-sessions", "true")
    f = out64(nat, udp6(sport=40000))
    [s] = sessions(nat, "udp")
    assert (s["address4"], s["port4"]) == (f[IP].src, f[UDP].sport)
    assert mon.marker() == [
        bib_event("bib-add", CLIENT, 40000, s["address4"], s["port4"]),
        sess_event("session-add", s),
    ]
    assert (s["remote4"], s["remote-port4"], s["state"]) == \
        (SINK4, 4000, None)
    cli_ok(nat.xl, "-i", "n", "session", "flush")
    assert mon.marker() == [
        sess_event("session-del", s),
        bib_event("bib-del", CLIENT, 40000, s["address4"], s["port4"]),
    ]


def test_bib_only_without_log_sessions(nat, mon):
    f = out64(nat, udp6(sport=40010))
    out64(nat, udp6(sport=40010, dport=4001))
    b = (CLIENT, 40010, f[IP].src, f[UDP].sport)
    # Two sessions, one BIB entry: one bib-add.
    assert mon.marker() == [bib_event("bib-add", *b)]
    cli_ok(nat.xl, "-i", "n", "session", "flush")
    assert mon.marker() == [bib_event("bib-del", *b)]


def test_tcp_session_event_has_its_state(nat, mon):
    nat.set("log-sessions", "true")
    out64(nat, IPv6(src=CLIENT, dst=ternlib.SINK4_6) /
          TCP(sport=40030, dport=80, flags="S"))
    [s] = sessions(nat, "tcp")
    assert s["state"] == "V6_INIT"
    assert mon.marker() == [
        bib_event("bib-add", CLIENT, 40030, s["address4"], s["port4"],
                  proto="tcp"),
        sess_event("session-add", s),
    ]


def test_text_lines(nat, mon):
    """Without --json: one line per event; SIGINT ends it (exit 0)."""
    nat.set("log-sessions", "true")
    text = Monitor(nat, json=False)
    try:
        # Joined once a marker's line comes (those lines are skipped
        # below: the flow's come after them).
        deadline = time.monotonic() + TIMEOUT
        while True:
            add_remove_marker(nat)
            try:
                text.lines.get(timeout=1)
                break
            except queue.Empty:
                assert time.monotonic() < deadline, "tern monitor hears nothing"
        f = out64(nat, udp6(sport=40040))
        a4 = "%s#%d" % (f[IP].src, f[UDP].sport)
        mon.marker()
        lines = []
        while len(lines) < 4:
            line = text.lines.get(timeout=TIMEOUT)
            if lines or MARK6 not in line:
                lines.append(line)
    finally:
        text.p.send_signal(signal.SIGINT)
        assert text.p.wait(timeout=10) == 0
        assert text.p.stderr.read() == ""
    stamp = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z "
    want = ["bib-add udp %s#40040 %s" % (CLIENT, a4),
            "session-add udp %s#40040 %s -> %s#4000" % (CLIENT, a4, SINK4),
            "bib-add udp %s#%d %s#%d static" % (MARK6, MARK6_PORT, MARK4,
                                               MARK4_PORT),
            "bib-del udp %s#%d %s#%d" % (MARK6, MARK6_PORT, MARK4,
                                        MARK4_PORT)]
    for line, w in zip(lines, want):
        assert re.fullmatch(stamp + re.escape(w) + "\n", line), (line, w)


def test_nothing_with_logging_off(nat, mon):
    """The control: the same flow and flush with log-bib and log-sessions
    false print nothing (the markers, with log-bib on again, come first)."""
    nat.set("log-bib", "false")
    out64(nat, udp6(sport=40020))
    cli_ok(nat.xl, "-i", "n", "session", "flush")
    nat.set("log-bib", "true")
    assert mon.marker() == []


def test_monitor_instance_filter():
    """-i NAME: the events of another instance are not printed. In a
    namespace of its own (one instance at a time), `monitor -i other`
    prints a marker of instance "other" (proof it joined the group);
    "other" is then replaced by "n", whose marker a monitor of every
    instance prints, and "n" by "other" again, whose marker is the next
    event `monitor -i other` prints."""
    topo = types.SimpleNamespace(xl=Netns("ev-filter"))
    mons = []

    def instance(name):
        cli_ok(topo.xl, "instance", "add", name, "--nat64", "--pool6",
               "64:ff9b::/96")
        cli_ok(topo.xl, "-i", name, "pool4", "add", mark4(name))
        cli_ok(topo.xl, "-i", name, "global", "set", "log-bib", "true")

    try:
        instance("other")
        every, other = Monitor(topo), Monitor(topo, "-i", "other")
        mons = [every, other]
        every.join("other")
        other.join("other")
        # One more entry, on another IPv6 port: each monitor reads up to
        # its bib-del, which leaves none of the joins' events to read.
        sync = "%s#%d" % (MARK6, MARK6_PORT + 1)
        cli_ok(topo.xl, "-i", "other", "bib", "add", sync,
               "%s#%d" % (OTHER4, MARK4_PORT), "--udp")
        cli_ok(topo.xl, "-i", "other", "bib", "remove", sync, "--udp")
        for m in mons:
            while m.next() != bib_event("bib-del", MARK6, MARK6_PORT + 1,
                                        OTHER4, MARK4_PORT, inst="other"):
                pass
        cli_ok(topo.xl, "instance", "remove", "other")
        instance("n")
        add_remove_marker(topo, "n")
        assert every.next() == marker_event("bib-add", "n")
        assert every.next() == marker_event("bib-del", "n")
        cli_ok(topo.xl, "instance", "remove", "n")
        instance("other")
        add_remove_marker(topo, "other")
        assert other.next() == marker_event("bib-add", "other")
        assert other.next() == marker_event("bib-del", "other")
    finally:
        for m in mons:
            assert m.stop() == (0, "")
        topo.xl.delete()


# --- A listener that never reads -------------------------------------------

CTRL_ATTR_MCAST_GROUPS = 7
CTRL_ATTR_MCAST_GRP_NAME, CTRL_ATTR_MCAST_GRP_ID = 1, 2
NETLINK_ADD_MEMBERSHIP, NETLINK_BROADCAST_ERROR = 1, 4


def events_group(ns):
    """The id of the family's group "events" in namespace NS."""
    g = ternlib.genl_in(str(ns))
    try:
        err, _, replies = g.request(
            genl.GENL_ID_CTRL, genl.CTRL_CMD_GETFAMILY,
            genl.nla(genl.CTRL_ATTR_FAMILY_NAME, b"tern\0"), version=2)
        assert err == 0
        a = genl.payload_attrs(replies[0])
        for grp in genl.attrs(a[CTRL_ATTR_MCAST_GROUPS]).values():
            ga = genl.attrs(grp)
            if ga[CTRL_ATTR_MCAST_GRP_NAME] == b"events\0":
                return struct.unpack("=I", ga[CTRL_ATTR_MCAST_GRP_ID])[0]
    finally:
        g.close()
    raise AssertionError("no group 'events'")


def send_flows(nat, first):
    """1000 new UDP flows from CLIENT (ports FIRST on), a datagram each:
    2000 events with log-bib and log-sessions."""
    for f in udp6_frames(range(first, first + 1000),
                         payload=ternlib.PAYLOAD[:8]):
        nat.senders["h6"].sock.send(f)


@pytest.mark.parametrize("broadcast_error", [False, True])
def test_full_listener_does_not_slow_translation(nat, broadcast_error):
    """A listener with a tiny receive buffer that never reads: 1000 new
    flows are all translated (exactly as many xlat-6to4 as packets, no
    drop) and the events it could not take are counted: as events nobody
    got (-ESRCH), or with NETLINK_BROADCAST_ERROR as its own (-ENOBUFS)."""
    nat.set("log-bib", "true")
    nat.set("log-sessions", "true")
    grp = events_group(nat.xl)
    with in_netns(str(nat.xl)):
        sk = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW,
                           genl.NETLINK_GENERIC)
    try:
        sk.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1)
        sk.bind((0, 0))
        sk.setsockopt(genl.SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, grp)
        if broadcast_error:
            sk.setsockopt(genl.SOL_NETLINK, NETLINK_BROADCAST_ERROR, 1)
        c = nat.counters()
        send_flows(nat, 20000)
        wait_until(lambda: c.delta().get("xlat-6to4", 0) >= 1000, 30)
        time.sleep(0.5)
        d = c.delta()
        assert d.get("xlat-6to4") == 1000, d
        assert d.get("events-dropped", 0) > 0, d
        assert set(d) == {"xlat-6to4", "events-dropped"}, d
        # 2000 events (a BIB entry and a session per flow): at most a few
        # fit in the buffer.
        assert d["events-dropped"] > 1900, d
        assert len(sessions(nat, "udp")) == 1000
    finally:
        sk.close()


@contextlib.contextmanager
def monitor_on_pipe(nat):
    """tern monitor --json writing to a pipe (log-bib and log-sessions
    on), once it is listening (a marker's bib-del read): (process, the
    read end, the write end, the test's to keep or close)."""
    nat.set("log-bib", "true")
    nat.set("log-sessions", "true")
    r, w = os.pipe()
    with in_netns(str(nat.xl)):
        p = subprocess.Popen([TERN, "monitor", "--json"], stdout=w,
                             stderr=subprocess.PIPE, text=True)
    fds = [r, w]
    try:
        got, deadline = b"", time.monotonic() + TIMEOUT
        while b'"bib-del"' not in got:
            assert time.monotonic() < deadline, "tern monitor hears nothing"
            add_remove_marker(nat)
            if select.select([r], [], [], 1)[0]:
                got += os.read(r, 1 << 16)
        yield p, r, fds
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        p.stderr.close()
        for fd in fds:
            os.close(fd)


def terminated_in_write(p):
    """Once P is blocked writing to its pipe: SIGTERM, and (exit status,
    stderr) within 10 s."""
    wchan = "/proc/%d/wchan" % p.pid
    wait_until(lambda: open(wchan).read() == "pipe_write", 30)
    p.terminate()
    rc = p.wait(timeout=10)
    return rc, p.stderr.read()


def test_monitor_stops_while_its_output_is_blocked(nat):
    """tern monitor writing to a pipe nobody reads any more (a pager
    paused, a journal stalled): blocked in its write, SIGTERM still ends
    it at once, exit 0 and nothing on stderr but, if the burst outran its
    receive buffer, the warning that events were lost (the signal was let
    in only while it waited for events: it stayed blocked)."""
    with monitor_on_pipe(nat) as (p, r, fds):
        os.close(fds.pop())
        # Then never read again: 2000 events, far more than a pipe holds.
        c = nat.counters()
        send_flows(nat, 20000)
        wait_until(lambda: c.delta().get("xlat-6to4", 0) >= 1000, 30)
        rc, err = terminated_in_write(p)
        assert rc == 0
        assert set(err.splitlines()) <= {LOST_WARNING}, err


# --- Events lost by the monitor itself --------------------------------------

LOST_WARNING = "tern: warning: events lost (the receive buffer was full)"


def test_lost_events_said_in_the_stream(nat, mon):
    """A monitor that cannot keep up (stopped while 1000 flows make 2000
    events, more than its receive buffer holds) says so in its output: a
    record {"event": "lost"} (instance null: it watches every instance),
    before the events that came after; and on stderr."""
    nat.set("log-sessions", "true")
    c = nat.counters()
    mon.p.send_signal(signal.SIGSTOP)
    try:
        send_flows(nat, 21000)
        wait_until(lambda: c.delta().get("xlat-6to4", 0) >= 1000, 30)
    finally:
        mon.p.send_signal(signal.SIGCONT)
    assert c.delta().get("events-dropped", 0) > 0
    # What fitted in the buffer and the loss, then markers until one gets
    # through (while the buffer drains, theirs may be lost too).
    evs = []
    deadline = time.monotonic() + 60
    end = marker_event("bib-del")
    while end not in evs:
        assert time.monotonic() < deadline, "no marker after the loss"
        add_remove_marker(nat)
        try:
            while evs[-1:] != [end]:
                evs.append(mon.next(timeout=2))
        except AssertionError:
            assert mon.p.poll() is None, mon.p.stderr.read()
    lost = [ev for ev in evs if ev["event"] == "lost"]
    assert {ev["event"] for ev in evs} <= \
        {"bib-add", "session-add", "bib-del", "lost"}, evs
    assert lost and lost[0] == {"instance": None, "event": "lost"}, lost
    assert all(ev == lost[0] for ev in lost)
    rc, err = mon.stop()
    assert rc == 0
    assert err.splitlines() == [LOST_WARNING] * len(lost), err
    mon.stop = lambda: (0, "")      # stopped: the fixture's check is done


def test_monitor_stops_while_its_lost_line_is_blocked(nat):
    """The 'lost' line (and the warning before it) is written with SIGINT
    and SIGTERM let in, as every event is: a monitor whose output pipe is
    full when it finds events lost ends at once on SIGTERM, exit 0, the
    warning its only word on stderr."""
    with monitor_on_pipe(nat) as (p, r, fds):
        # Stopped: its receive buffer overflows while the test fills the
        # pipe; let go, it finds the loss first and blocks writing it.
        p.send_signal(signal.SIGSTOP)
        try:
            c = nat.counters()
            send_flows(nat, 22000)
            wait_until(lambda: c.delta().get("xlat-6to4", 0) >= 1000, 30)
            assert c.delta().get("events-dropped", 0) > 0
            # A file description of its own (O_NONBLOCK is one's, and the
            # monitor's stdout is the write end's).
            fill = os.open("/proc/self/fd/%d" % fds[1],
                           os.O_WRONLY | os.O_NONBLOCK)
            try:
                while True:
                    os.write(fill, b"x" * 4096)
            except BlockingIOError:
                pass
            finally:
                os.close(fill)
        finally:
            p.send_signal(signal.SIGCONT)
        assert terminated_in_write(p) == (0, LOST_WARNING + "\n")
