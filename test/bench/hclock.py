#!/usr/bin/env python3
"""Host side of the bench's host clock (test/bench/lib-hclock.sh).

Usage: hclock.py QEMU_PID DIR

Answers the guest's requests for the CPU time its vCPU threads have had on
the host. The guest (test/bench/lib-hclock.sh, through the shared
filesystem) creates DIR/req.ID; this writes DIR/resp.ID, one line:

    MONO EXEC0 WAIT0 INSN0 EXEC1 WAIT1 INSN1 ...

MONO is the host's CLOCK_MONOTONIC (ns); EXECn and WAITn are the time the
thread of vCPU n ("CPU n/TCG", QEMU run with -name ...,debug-threads=on)
has run on a host CPU and has waited runnable for one (ns, from
/proc/PID/task/TID/schedstat; the host kernel counts neither the time it
was itself not running on its hypervisor, which it sees as steal time);
INSNn the guest instructions vCPU n has executed (DIR/insn, the counters
of test/bench/insn-count.c, QEMU's plugin; 0 without them).
A request whose text is "prof NAME" (BENCH_INSN_PROF=1) first copies the
records of the plugin's per-block profile in use (DIR/prof, see
insn-count.c) to DIR/prof-NAME.bin, read by test/bench/insn-prof.py.
Waits on inotify, so that it costs the host nothing between requests;
removes each request and the answers before it; ends when QEMU does.
"""
import ctypes
import ctypes.util
import mmap
import os
import re
import select
import struct
import sys
import time

IN_CLOSE_WRITE = 0x8
IN_MOVED_TO = 0x80


def vcpu_threads(pid):
    """{vCPU number: TID} of QEMU's process PID."""
    out = {}
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/comm" % (pid, tid)) as f:
                m = re.match(r"CPU (\d+)/", f.read())
        except OSError:
            continue
        if m:
            out[int(m.group(1))] = int(tid)
    return out


def sample(pid, threads, insn):
    """The line of a response."""
    vals = [str(time.clock_gettime_ns(time.CLOCK_MONOTONIC))]
    for n in sorted(threads):
        with open("/proc/%d/task/%d/schedstat" % (pid, threads[n])) as f:
            run, wait = f.read().split()[:2]
        i = 0
        if insn is not None and 64 * n + 8 <= len(insn):
            i = struct.unpack_from("<Q", insn, 64 * n)[0]
        vals += [run, wait, str(i)]
    return " ".join(vals) + "\n"


def counters(path):
    """The instruction counters of test/bench/insn-count.c (a map of
    PATH/insn), or None without them."""
    try:
        with open(os.path.join(path, "insn"), "rb") as f:
            return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None


def prof_snapshot(path, req):
    """With a request "prof NAME": the profile's records in use, copied to
    PATH/prof-NAME.bin."""
    try:
        with open(os.path.join(path, req)) as f:
            words = f.read().split()
    except OSError:
        return
    if len(words) != 2 or words[0] != "prof":
        return
    try:
        with open(os.path.join(path, "prof"), "rb") as f:
            m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return
    used = min(struct.unpack_from("<Q", m, 0)[0], (len(m) - 64) // 32)
    with open(os.path.join(path, "prof-%s.bin" % words[1]), "wb") as f:
        f.write(m[64:64 + 32 * used])
    m.close()


def main(argv):
    pid, path = int(argv[0]), argv[1]
    threads = {}
    for _ in range(100):
        threads = vcpu_threads(pid)
        if threads:
            break
        time.sleep(0.1)
    if not threads:
        sys.exit("hclock: no vCPU threads named 'CPU n/...' in process %d"
                 % pid)
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
    if fd < 0 or libc.inotify_add_watch(
            fd, path.encode(), IN_CLOSE_WRITE | IN_MOVED_TO) < 0:
        sys.exit("hclock: inotify on %s: %s" %
                 (path, os.strerror(ctypes.get_errno())))
    insn = counters(path)
    poll = select.poll()
    poll.register(fd, select.POLLIN)
    while os.path.exists("/proc/%d" % pid):
        if not poll.poll(2000):
            continue
        buf = os.read(fd, 65536)
        i = 0
        while i < len(buf):
            _, _, _, n = struct.unpack_from("iIII", buf, i)
            name = buf[i + 16:i + 16 + n].rstrip(b"\0").decode()
            i += 16 + n
            if not name.startswith("req."):
                continue
            if insn is None:  # QEMU's plugin had not made it yet
                insn = counters(path)
            prof_snapshot(path, name)
            line = sample(pid, threads, insn)
            tmp = os.path.join(path, ".resp.tmp")
            with open(tmp, "w") as f:
                f.write(line)
            os.rename(tmp, os.path.join(path, "resp." + name[4:]))
            # The guest asks one question at a time and has read every
            # answer before this one: they go, with the request (the
            # guest would take a process for it, tens of ms under
            # emulation).
            for old in os.listdir(path):
                if old == name or (old.startswith("resp.") and
                                   old != "resp." + name[4:]):
                    try:
                        os.unlink(os.path.join(path, old))
                    except OSError:
                        pass


if __name__ == "__main__":
    main(sys.argv[1:])
