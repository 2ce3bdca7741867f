#!/usr/bin/python3
"""The instructions of each overload window by kernel function, per packet
received (make bench with BENCH_INSN_PROF=1).

Usage: insn-prof.py OUTDIR HCLOCKDIR [TOP]

OUTDIR is the bench's output in the VM's results (insn-prof.tsv: a line a
window, "NAME SYSTEM DIRECTION RECEIVED INSNS"; kallsyms: the guest's
/proc/kallsyms); HCLOCKDIR holds QEMU's per-block counts at both ends of
each window (NAME-0, NAME-1: prof-NAME-0.bin, prof-NAME-1.bin, copied by
test/bench/hclock.py from test/bench/insn-count.c's profile). A block's
instructions are those it executed in full: a block left early (an
interrupt, a fault) counts whole, as in the figures of the run.

Prints Markdown: for each direction and each system, the median of its
windows of the instructions vCPU 1 executed per packet in each kernel
function (TOP functions, 40 by default, by the largest of any system),
beside forwarding's; user space counts as one line. The row "measured"
is the median of the windows' own counts (insn-prof.tsv); "all" below it
is the profile's sum, which differs when the profile missed blocks
(insn-count.c ran out of records) or the window was short: copying the
profile takes a good part of a second, so its two ends are not quite the
counter's (within 2 % in 6 s windows, up to 20 % in the smoke's 0.5 s).
"""
import array
import bisect
import os
import statistics
import sys

USER = "[user space]"


def load_syms(*paths):
    """Sorted (address, name) of the text symbols of kallsyms files (the
    kernel's, the modules' at a window; a missing second one is none)."""
    out = []
    lines = []
    for i, path in enumerate(paths):
        try:
            with open(path) as f:
                lines += f.readlines()
        except OSError:
            if i == 0:
                raise
    for line in lines:
        w = line.split()
        if len(w) < 3 or w[1] not in "tTwW":
            continue
        a = int(w[0], 16)
        if a:
            out.append((a, w[2] + (" " + w[3] if len(w) > 3 else "")))
    out.sort()
    return [a for a, _ in out], [n for _, n in out]


def load_prof(path):
    a = array.array("Q")
    with open(path, "rb") as f:
        a.frombytes(f.read())
    return a


def window(hdir, name, addrs, names):
    """{function: instructions of vCPU 1} between the window's two ends
    (addrs, names: the kernel's symbols and the modules' then)."""
    a = load_prof(os.path.join(hdir, "prof-%s-0.bin" % name))
    b = load_prof(os.path.join(hdir, "prof-%s-1.bin" % name))
    va, i1b = b[0::4], b[3::4]
    i1a = a[3::4]
    out = {}
    cache = {}
    for k in range(len(va)):
        d = i1b[k] - (i1a[k] if k < len(i1a) else 0)
        if not d:
            continue
        v = va[k]
        fn = cache.get(v)
        if fn is None:
            if v < 0xffff800000000000:
                fn = USER
            else:
                j = bisect.bisect_right(addrs, v) - 1
                fn = names[j] if j >= 0 else "[kernel ?]"
                # x86-64's module area, a module not in the listing.
                if v >= 0xffffffffc0000000 and "[" not in fn:
                    fn = "[module ?]"
            cache[v] = fn
        out[fn] = out.get(fn, 0) + d
    return out


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit("usage: insn-prof.py OUTDIR HCLOCKDIR [TOP]")
    outdir, hdir = argv[0], argv[1]
    top = int(argv[2]) if len(argv) == 3 else 40
    core = os.path.join(outdir, "kallsyms")
    per = {}  # (direction, system) -> [{function: insns a packet}]
    measured = {}  # (direction, system) -> [insns a packet]
    with open(os.path.join(outdir, "insn-prof.tsv")) as f:
        for line in f:
            name, system, d, recv, insns = line.split("\t")
            # "SYSTEM_FLOWS_(pair)": a system's cells apart.
            system = " ".join(system.split("_")[:2])
            if int(recv) <= 0:
                continue
            try:
                addrs, names = load_syms(core, os.path.join(
                    outdir, "kallsyms-" + name))
                w = window(hdir, name, addrs, names)
            except OSError:
                continue
            per.setdefault((d, system), []).append(
                {k: v / int(recv) for k, v in w.items()})
            measured.setdefault((d, system), []).append(
                int(insns) / int(recv))
    print("# Instructions of vCPU 1 per packet received, by kernel "
          "function\n")
    print("Median of each system's overload windows (`make bench` with "
          "BENCH_INSN_PROF=1).\n")
    for d in sorted({k[0] for k in per}):
        systems = sorted({k[1] for k in per if k[0] == d},
                         key=lambda s: (s != "fwd", s))
        med = {}
        for s in systems:
            ws = per[(d, s)]
            fns = set().union(*ws)
            med[s] = {fn: statistics.median(w.get(fn, 0) for w in ws)
                      for fn in fns}
        fns = sorted(set().union(*med.values()),
                     key=lambda fn: -max(m.get(fn, 0) for m in med.values()))
        print("## %s\n" % d)
        print("| function | " + " | ".join(
            "%s (%d)" % (s, len(per[(d, s)])) for s in systems) + " |")
        print("|---|" + "---:|" * len(systems))
        print("| measured | " + " | ".join(
            "%.0f" % statistics.median(measured[(d, s)])
            for s in systems) + " |")
        print("| **all** | " + " | ".join(
            "%.0f" % sum(med[s].values()) for s in systems) + " |")
        for fn in fns[:top]:
            print("| %s | " % fn + " | ".join(
                "%.0f" % med[s].get(fn, 0) for s in systems) + " |")
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
