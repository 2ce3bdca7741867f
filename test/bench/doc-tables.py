#!/usr/bin/python3
"""Prints the two tables docs/performance.md shows of a `make bench` run,
from its report, with the pairs judge.py leaves out (with RAW.TSV) and
the repetitions the generator set left out here too.

Usage: doc-tables.py RESULTS.TSV [RAW.TSV]

1. Cost added over forwarding, in instructions: per cell, forwarding's
   instructions a packet (median of every pair of the cell) and each
   system's added cost as a share of forwarding's in the same pair: the
   median of the pairs, with the lowest and highest pair for Tern and
   the control.
2. NAT64 state: each figure's median over the repetitions the system (not
   the generator) set, the range in brackets, and Tern's over Jool's.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from judge import Rows  # noqa: E402
from report import CONTROL, load, load_raw, median  # noqa: E402

COLUMNS = [(CONTROL, "control", True), ("tern-siit", "Tern SIIT", True),
           ("tern-siit-eamt1", "Tern EAMT 1", True),
           ("tern-siit-eamt10k", "Tern EAMT 10k", True),
           ("tern-nat64", "Tern NAT64", True),
           ("tern-siit-ipt", "Tern iptables", True),
           ("tern-siit-iptr", "Tern iptables legacy raw", True),
           ("jool-siit", "Jool SIIT", False),
           ("jool-siit-eamt1", "Jool EAMT 1", False),
           ("jool-siit-eamt10k", "Jool EAMT 10k", False),
           ("jool-nat64", "Jool NAT64", False), ("tayga", "Tayga", False)]
CELLS = [(d, f) for d in ("6to4", "4to6", "bidir") for f in ("1", "64")]
DIR_NAME = {"6to4": "6→4", "4to6": "4→6", "bidir": "both ways"}

# (metric, label with the size's place, format)
STATE = [
    ("conn_rate", "establishment (sessions/s, %s new flows)", "%d"),
    ("tput_sessions", "overload throughput, %s sessions (pps)", "%d"),
    ("tput_sessions_zero_loss", "zero-loss throughput, %s sessions (pps)",
     "%d"),
    ("sessions_fill_step_rate", "establishment, the table growing from "
     "the size before to %s (sessions/s)", "%d"),
    ("sessions_fill_step_insns", "establishment, the table growing from "
     "the size before to %s: CPU 1 instructions a new session", "%d"),
    ("slab_bytes_per_session", "slab bytes a session, %s", "%.1f"),
    ("teardown_rate", "tear-down of %s sessions, until the flush returned "
     "(sessions/s)", "%d"),
    ("teardown_free_rate", "tear-down of %s sessions, to the last byte "
     "(sessions/s)", "%d"),
    ("one_entry_ratio", "one BIB entry: %s sessions over 1 (4→6 rate)",
     "%.2f"),
    ("one_entry_ns", "one BIB entry, %s: CPU 1 ns a packet", "%d"),
    ("one_entry_insns", "one BIB entry, %s: CPU 1 instructions a packet",
     "%d"),
]


def size(flows):
    n = int(flows)
    for div, unit in ((1000000, "M"), (1000, "k")):
        if n >= div and n % div == 0:
            return "%d%s" % (n // div, unit)
    return "{:,}".format(n)


def fmt(fm, x):
    return "{:,}".format(round(x)) if fm == "%d" else fm % x


def pct(x):
    return "%+d %%" % round(100 * x) if round(100 * x) else "+0 %"


def added_table(r):
    # A system the run did not measure has no column.
    cols = [c for c in COLUMNS
            if any(r.get("added_insns", c[0], cell) for cell in CELLS)]
    head = ["cell", "fwd"] + [c[1] for c in cols]
    out = ["| " + " | ".join(head) + " |",
           "|---|" + "---:|" * (len(head) - 1)]
    for d, f in CELLS:
        fwd = []
        for s, _, _ in cols:
            fwd += r.get("pair_fwd_insns", s, (d, f))
        if not fwd:
            continue
        row = ["%s, %s flow%s" % (DIR_NAME[d], f, "" if f == "1" else "s"),
               "{:,}".format(round(median(fwd)))]
        for s, _, spread in cols:
            add = r.get("added_insns", s, (d, f))
            base = r.get("pair_fwd_insns", s, (d, f))
            each = [a / b for a, b in zip(add, base) if b > 0]
            if not each:
                row.append("–")
                continue
            cell = pct(median(each))
            if spread:
                cell += " (%s..%s)" % (pct(min(each))[:-2],
                                        pct(max(each))[:-2])
            row.append(cell)
        out.append("| " + " | ".join(row) + " |")
    return out


def state_table(r):
    out = ["| measurement | Tern NAT64 | Jool NAT64 | Tern / Jool |",
           "|---|---:|---:|---:|"]
    for metric, label, fm in STATE:
        keys = {k[2:] for k in r.v if k[0] == metric and
                k[1] in ("tern-nat64", "jool-nat64")}
        for d, flows in sorted(keys, key=lambda k: int(k[1])):
            n = size(flows)
            if "one BIB entry, " in label:
                n += " session" if flows == "1" else " sessions"
            row, meds = [label % n], []
            for s in ("tern-nat64", "jool-nat64"):
                v = r.get(metric, s, (d, flows))
                if not v:
                    row.append("–")
                    meds.append(None)
                    continue
                m = median(v)
                meds.append(m)
                row.append("%s (%s-%s)" % (fmt(fm, m), fmt(fm, min(v)),
                                           fmt(fm, max(v))))
            row.append("%.2f" % (meds[0] / meds[1])
                       if None not in meds and meds[1] else "")
            out.append("| " + " | ".join(row) + " |")
    return out


def main(argv):
    if len(argv) not in (1, 2):
        sys.exit("usage: doc-tables.py RESULTS.TSV [RAW.TSV]")
    raw = None
    if len(argv) == 2:
        raw = load_raw(argv[1])
        if raw is None:
            sys.exit("doc-tables.py: no %s" % argv[1])
    r = Rows(load(argv[0]), raw)
    print("\n".join(added_table(r) + [""] + state_table(r)))


if __name__ == "__main__":
    main(sys.argv[1:])
