#!/usr/bin/env python3
"""What else a vCPU did in a window: the guest's own counters at both ends.

    cpu1-diag.py snap DIR          (in the guest: the counters into DIR)
    cpu1-diag.py report DIR0 DIR1 [CPU] [PACKETS]

`snap` copies /proc/interrupts, /proc/softirqs, /proc/vmstat and every
thread's /proc/PID/task/TID/stat (one `grep -H` pass, so that it costs
the window's ends little). `report` prints, for CPU (default 1): the
interrupts and softirqs it took in between (with a packet count, each a
packet), the threads that ran most (CPU time in ms, the CPU each was last
on) and the memory-management events of /proc/vmstat (compaction, page
migration, huge pages, reclaim) that moved. A window's CPU 1 instructions
a packet (raw.tsv) count all of it; these tell which part was not the
receive work: a diagnostic for the log, no figure of the report.
"""
import os
import subprocess
import sys

VMSTAT = ("compact_", "pgmigrate_", "thp_", "pgscan", "pgsteal",
          "kswapd", "pgalloc_", "pgfree", "numa_")


def snap(d):
    os.makedirs(d, exist_ok=True)
    for name in ("interrupts", "softirqs", "vmstat"):
        with open("/proc/" + name) as f, open(os.path.join(d, name), "w") as o:
            o.write(f.read())
    with open(os.path.join(d, "tasks"), "w") as o:
        subprocess.run("grep -H '' /proc/[0-9]*/task/[0-9]*/stat",
                       shell=True, stdout=o, stderr=subprocess.DEVNULL,
                       check=False)


def per_cpu_table(path, cpu):
    """NAME -> the count of CPU's column (interrupts, softirqs)."""
    out = {}
    with open(path) as f:
        lines = f.read().splitlines()
    ncpu = len(lines[0].split())
    for line in lines[1:]:
        name, _, rest = line.partition(":")
        cols = rest.split()
        if len(cols) > cpu and cols[cpu].isdigit():
            desc = " ".join(cols[ncpu:])
            key = name.strip() + (" (" + desc + ")" if desc else "")
            out[key] = int(cols[cpu])
    return out


def tasks(path):
    """TID -> (comm, ticks of user and system time, last CPU)."""
    out = {}
    with open(path) as f:
        for line in f:
            fname, _, stat = line.partition(":")
            if ")" not in stat:
                continue
            tid = fname.split("/")[4]
            comm = stat[stat.index("(") + 1:stat.rindex(")")]
            rest = stat[stat.rindex(")") + 2:].split()
            # Fields 14, 15 and 39 of proc(5); rest[0] is field 3.
            try:
                out[tid] = (comm, int(rest[11]) + int(rest[12]),
                            int(rest[36]))
            except (IndexError, ValueError):
                continue
    return out


def vmstat(path):
    out = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.partition(" ")
            if k.startswith(VMSTAT):
                out[k] = int(v)
    return out


def report(d0, d1, cpu, packets):
    per = (lambda n: " (%.3f a packet)" % (n / packets)) if packets else \
        (lambda n: "")
    for name in ("interrupts", "softirqs"):
        a = per_cpu_table(os.path.join(d0, name), cpu)
        b = per_cpu_table(os.path.join(d1, name), cpu)
        moved = sorted(((b[k] - a.get(k, 0), k) for k in b
                        if b[k] != a.get(k, 0)), reverse=True)
        print("CPU %d %s: %s" % (cpu, name, "; ".join(
            "%s %d%s" % (k, n, per(n)) for n, k in moved[:8]) or "none"))
    hz = os.sysconf("SC_CLK_TCK")
    a, b = tasks(os.path.join(d0, "tasks")), tasks(os.path.join(d1, "tasks"))
    ran = sorted(((v[1] - a.get(t, (None, 0))[1], v[0], t, v[2])
                  for t, v in b.items()), reverse=True)
    print("threads that ran most: %s" % ("; ".join(
        "%s[%s] %d ms, last on CPU %d" % (c, t, n * 1000 // hz, p)
        for n, c, t, p in ran[:8] if n > 0) or "none"))
    a, b = vmstat(os.path.join(d0, "vmstat")), vmstat(os.path.join(d1, "vmstat"))
    moved = ["%s +%d" % (k, b[k] - a.get(k, 0)) for k in sorted(b)
             if b[k] != a.get(k, 0) and not k.startswith(("pgalloc_", "pgfree", "numa_"))]
    alloc = sum(b[k] - a.get(k, 0) for k in b if k.startswith("pgalloc_"))
    print("vmstat: pages allocated %d; %s" % (alloc, ", ".join(moved) or
                                             "no compaction, migration, huge-page or reclaim event"))


def main(argv):
    if len(argv) == 3 and argv[1] == "snap":
        snap(argv[2])
    elif len(argv) in (4, 5, 6) and argv[1] == "report":
        cpu = int(argv[4]) if len(argv) > 4 else 1
        packets = int(argv[5]) if len(argv) > 5 else 0
        report(argv[2], argv[3], cpu, packets)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
