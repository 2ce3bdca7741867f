#!/usr/bin/python3
"""Judges a `make bench` results.tsv by the targets' rules (docs/
performance.md, "Rules"), every cell, and prints the verdicts as Markdown.

Usage: judge.py RESULTS.TSV [RAW.TSV]

Each rule compares a figure with a bound in every cell it has (direction
and flows, size, pair of systems). A cell's verdict:
- "met": the figure passes even with the spread set against it: the worst
  repetition (or pair) of the numerator over the best of the denominator
  (for a bound from above, the numerator's highest over the
  denominator's lowest; from below, its lowest over the highest);
- "inside the spread": the medians pass, that worst pairing does not;
- "not met": the medians do not pass;
- "not judged": the run has no figure the rule accepts (a cell whose every
  repetition the generator set, see report.py's GEN_FLAGS; under a
  lower bound, a reference figure of 0 or less, which a failed
  measurement writes).
A side of fewer than 2 figures has no spread to set against it: such a
cell is "inside the spread" at best. A target's verdict is its worst
cell's (not met, then inside the spread, then met), "not judged" only
when no cell was judged, and says how many cells were not judged (a cell
the run measured whose every pair or repetition was left out is one).
The first table gives each target with its closest cell, the second
every cell.

After them, the control (forwarding paired with itself, system fwd-xl):
per cell, its added cost over forwarding's as the rule "added cost <= 15 %
of forwarding's" computes it, and the lowest and highest pair: how far
two identical systems differ in this method on this host. It judges
nothing.

With RAW.TSV (bench-vm.sh's log of every window), a pair counts only when
the generator set neither of its windows: each received less than 99 % of
what was offered (GEN_SHARE, the rule of the stateful figures' flags);
the figures of PAIR_METRICS of the other pairs are left out, and the
verdicts say how many. The one-BIB-entry figures of a window (phase
entry) the generator set are left out too, and its repetition's ratio.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import (CONTROL, GEN_FLAGS, flows_key, load, load_raw,  # noqa
                    median)

SIIT_PAIRS = [("tern-siit", "jool-siit"),
              ("tern-siit-eamt1", "jool-siit-eamt1"),
              ("tern-siit-eamt10k", "jool-siit-eamt10k")]
TERN_PAIRED = ["tern-siit", "tern-siit-eamt1", "tern-siit-eamt10k",
               "tern-nat64", "tern-siit-ipt"]
RANK = {"not met": 0, "inside the spread": 1, "met": 2, "not judged": 3}
# The figures of a pair (bench-vm.sh's pair()); a window the generator set:
# received at least GEN_SHARE of what was offered.
PAIR_METRICS = ["capacity_vs_fwd", "added_ns", "pair_fwd_ns", "pair_ns",
                "capacity_vs_fwd_host", "added_host_ns", "pair_fwd_host_ns",
                "pair_host_ns", "capacity_vs_fwd_insns", "added_insns",
                "pair_fwd_insns", "pair_insns"]
# The pairs' figures of each measure (bench-vm.sh): CPU 1's instructions
# (INSN), the host's CPU time of vCPU 1 (HOST) and CPU 1's busy time in
# the guest (GUEST: every run before 2026-12-03). The pair targets are
# judged on the first of MEASURES the run has, and shown on the others
# after the rest.
INSN = {"cap": "capacity_vs_fwd_insns", "add": "added_insns",
        "fwd": "pair_fwd_insns", "name": "CPU 1's instructions"}
HOST = {"cap": "capacity_vs_fwd_host", "add": "added_host_ns",
        "fwd": "pair_fwd_host_ns", "name": "the host's CPU time of vCPU 1"}
GUEST = {"cap": "capacity_vs_fwd", "add": "added_ns", "fwd": "pair_fwd_ns",
         "name": "CPU 1's busy time in the guest"}
MEASURES = [INSN, HOST, GUEST]
GEN_SHARE = 0.99
# The one-BIB-entry figures of a window (raw.tsv phase entry, per flows);
# one_entry_ratio (at 65,535) is of both windows of its repetition.
ENTRY_METRICS = ["tput_one_entry", "one_entry_ns", "one_entry_host_ns",
                 "one_entry_insns"]


def gen_set(w):
    return int(w["received"]) >= GEN_SHARE * int(w["offered"])


def gen_pairs(raw):
    """{(system, direction, flows, rep): True if the generator set a
    window of that pair}: raw.tsv's pair lines come two by two, the
    system's and forwarding's in either order (a window that could not be
    set up is not logged: its neighbour pairs with the next window), each
    the sum of its side's windows, logged before them one by one
    (`pairpart`): a window is judged alone, as a sum could hide it."""
    w, parts = [], []
    for x in raw:
        if x["phase"] == "pair":
            w.append((x, parts))
            parts = []
        elif x["phase"] == "pairpart":
            parts.append(x)
    out, i = {}, 0
    key = ("system", "direction", "flows", "rep")
    while i + 1 < len(w):
        (a, pa), (b, pb) = w[i], w[i + 1]
        same = all(a[k] == b[k] for k in key[1:])
        if same and (a["system"] == "fwd") != (b["system"] == "fwd"):
            s = b if a["system"] == "fwd" else a
            k = (s["system"], s["direction"], s["flows"], s["rep"])
            mine = [p for p in pa + pb
                    if p["system"] in (a["system"], b["system"]) and
                    all(p[f] == a[f] for f in key[1:])]
            out[k] = gen_set(a) or gen_set(b) or any(map(gen_set, mine))
            i += 2
        else:
            i += 1
    return out


def gen_entries(raw):
    """{(system, direction, flows, rep): True if the generator set that
    one-BIB-entry window}."""
    return {(w["system"], w["direction"], w["flows"], w["rep"]): gen_set(w)
            for w in raw if w["phase"] == "entry"}


class Rows:
    def __init__(self, rows, raw=None):
        self.v = {}
        self.reps = {}  # the same, {rep: value}
        self.measured = set()  # every cell the run has, left out or not
        self.all = {}  # every value, none left out
        self.gen_left = set()  # cells with a repetition the generator set
        self.pairs = [0, 0]  # left out, in all
        flag = {(r["metric"], r["system"], r["direction"], r["flows"],
                 r["rep"]): r["value"] for r in rows}
        gen = gen_pairs(raw) if raw is not None else None
        entry = gen_entries(raw) if raw is not None else {}
        for r in rows:
            k = (r["metric"], r["system"], r["direction"], r["flows"])
            self.measured.add(k)
            self.all.setdefault(k, []).append(r["value"])
            f = GEN_FLAGS.get(r["metric"])
            if f and flag.get((f,) + k[1:] + (r["rep"],)) == 1:
                self.gen_left.add(k)
                continue  # the generator set it: not the system's figure
            if gen is not None and r["metric"] in PAIR_METRICS:
                out = gen.get(k[1:] + (r["rep"],), True)
                if r["metric"] == "capacity_vs_fwd":  # once a pair
                    self.pairs[0] += out
                    self.pairs[1] += 1
                if out:
                    continue  # a window of its pair was the generator's
            if r["metric"] in ENTRY_METRICS and entry.get(k[1:] +
                                                          (r["rep"],)):
                continue
            if r["metric"] == "one_entry_ratio" and any(
                    v for e, v in entry.items() if e[0] == r["system"] and
                    e[1] == r["direction"] and e[3] == r["rep"]):
                continue  # one of its two windows was the generator's
            self.v.setdefault(k, []).append(r["value"])
            self.reps.setdefault(k, {})[r["rep"]] = r["value"]

    def get(self, metric, system, cell):
        return self.v.get((metric, system) + cell, [])

    def every(self, metric, system, cell):
        return self.all.get((metric, system) + cell, [])

    def gen_set_any(self, metric, system, cell):
        return (metric, system) + cell in self.gen_left

    def by_rep(self, metric, system, cell):
        return self.reps.get((metric, system) + cell, {})

    def cells(self, metric, system):
        """Every cell the run measured, those left out whole too (their
        get() is empty: not judged)."""
        return sorted({k[2:] for k in self.measured
                       if k[:2] == (metric, system)},
                      key=lambda c: (c[0], flows_key(c[1])))


def verdict(med, worst, bound, upper, spread=True):
    """spread: both sides had the figures to show one (2 or more)."""
    def ok(x):
        return x <= bound if upper else x >= bound
    if not ok(med):
        return "not met"
    return "met" if ok(worst) and spread else "inside the spread"


def ratio(a, b):
    return a / b if b > 0 else float("inf")


def cmp_cell(label, num, den, bound, upper, fixed=False):
    """A cell comparing the values num over den (lists; fixed: den is a
    constant, not measured). Under a lower bound a reference of 0 or less
    is a failed measurement: not judged (under an upper bound, infinity
    does not pass)."""
    if not num or not den or (not upper and min(den) <= 0):
        return (label, None, None, bound, upper, "not judged")
    med = ratio(median(num), median(den))
    worst = ratio(max(num), min(den)) if upper else \
        ratio(min(num), max(den))
    spread = len(num) >= 2 and (fixed or len(den) >= 2)
    return (label, med, worst, bound, upper,
            verdict(med, worst, bound, upper, spread))


def cell_name(cell):
    d, f = cell
    d = {"6to4": "6→4", "4to6": "4→6", "bidir": "both ways"}.get(d, d)
    return "%s, %s" % (d, f)


def added_vs_jool(r, m, pairs, bound):
    out = []
    for t, j in pairs:
        out += same_cells(r, m["add"], t, j, bound, True)
    return out


def added_vs_fwd(r, m):
    out = []
    for t in TERN_PAIRED:
        for c in r.cells(m["add"], t):
            out.append(cmp_cell("%s, %s" % (t, cell_name(c)),
                                r.get(m["add"], t, c),
                                r.get(m["fwd"], t, c), 0.15, True))
    return out or [cmp_cell("Tern", [], [], 0.15, True)]


def same_cells(r, metric, a, b, bound, upper):
    """A cell per (direction, flows) either system has: a over b."""
    cells = sorted(set(r.cells(metric, a)) | set(r.cells(metric, b)),
                   key=lambda c: (c[0], flows_key(c[1])))
    return [cmp_cell("%s / %s, %s" % (a, b, cell_name(c)),
                     r.get(metric, a, c), r.get(metric, b, c), bound, upper)
            for c in cells] or [cmp_cell("%s / %s" % (a, b), [], [], bound,
                                         upper)]


def teardown(r):
    """At 1M sessions (the rule's size), both systems; else not judged."""
    t, j = "tern-nat64", "jool-nat64"
    c = [x for x in r.cells("teardown_free_rate", t) if x[1] == "1000000"]
    if not c:
        return [cmp_cell("%s / %s, 1000000" % (t, j), [], [], 1, False)]
    return [cmp_cell("%s / %s, %s" % (t, j, cell_name(c[0])),
                     r.get("teardown_free_rate", t, c[0]),
                     r.get("teardown_free_rate", j, c[0]), 1, False)]


def sessions_scale(r):
    t = "tern-nat64"
    sizes = [c for c in r.cells("tput_sessions", t) if c[1].isdigit()]
    big = [c for c in sizes if int(c[1]) == 10000000]
    small = [c for c in sizes if int(c[1]) == 10000]
    label = "%s, 10000000 / 10000 sessions" % t
    if not big or not small:
        return [cmp_cell(label, [], [], 0.9, False)]
    c = cmp_cell(label, r.get("tput_sessions", t, big[0]),
                 r.get("tput_sessions", t, small[0]), 0.9, False)
    if r.gen_set_any("tput_sessions", t, small[0]):
        # A 10k repetition at the generator's rate: 10k is at least
        # that, the ratio at most what all of them give: a miss then
        # is one, a pass is not judged.
        every = cmp_cell(label, r.get("tput_sessions", t, big[0]),
                         r.every("tput_sessions", t, small[0]), 0.9, False)
        c = every if every[5] == "not met" else \
            (label, None, None, 0.9, False, "not judged")
    return [c]


def slab(r):
    out = []
    for s in ("tern-nat64",):
        for c in r.cells("slab_bytes_per_session", s):
            v = r.get("slab_bytes_per_session", s, c)
            if not v:
                out.append(("%s, %s sessions" % (s, c[1]), None, None, 128,
                            True, "not judged"))
                continue
            med, worst = median(v), max(v)
            out.append(("%s, %s sessions" % (s, c[1]), med, worst, 128, True,
                        verdict(med, worst, 128, True, len(v) >= 2)))
    return out or [("tern-nat64", None, None, 128, True, "not judged")]


def one_entry(r):
    """Judged on ONE_ENTRY_MEASURE when the run has it (each repetition's
    instructions a packet with one session over those with 65,535: a
    pair measured side by side, as the pair targets' ratios), else on the
    4->6 rate (one_entry_ratio)."""
    t, m = "tern-nat64", ONE_ENTRY_MEASURE
    cells = r.cells(m, t)
    if len(cells) >= 2:
        one, many = cells[0], cells[-1]
        label = "%s, %s sessions / %s" % (t, many[1], one[1])
        a, b = r.by_rep(m, t, one), r.by_rep(m, t, many)
        each = [a[k] / b[k] for k in a if k in b and b[k] > 0]
        if not each:
            return [(label, None, None, 0.9, False, "not judged")]
        med, worst = median(each), min(each)
        return [(label, med, worst, 0.9, False,
                 verdict(med, worst, 0.9, False, len(each) >= 2))]
    return one_entry_rate(r)


def one_entry_rate(r):
    t = "tern-nat64"
    cells = r.cells("tput_one_entry", t)
    if len(cells) < 2 or not r.get("one_entry_ratio", t, cells[-1]):
        return [("%s" % t, None, None, 0.9, False, "not judged")]
    one, many = cells[0], cells[-1]
    if min(r.get("tput_one_entry", t, one) or [0]) <= 0:
        return [("%s" % t, None, None, 0.9, False, "not judged")]
    med = median(r.get("one_entry_ratio", t, many))
    worst = ratio(min(r.get("tput_one_entry", t, many)),
                  max(r.get("tput_one_entry", t, one)))
    return [("%s, %s sessions / %s" % (t, many[1], one[1]), med, worst, 0.9,
             False, verdict(med, worst, 0.9, False,
                            len(r.get("tput_one_entry", t, many)) >= 2 and
                            len(r.get("tput_one_entry", t, one)) >= 2))]


def at_least(r, metric, system, bound):
    """A cell per (direction, flows): the system's figure itself >= bound
    (a ratio already: its worst repetition is its lowest)."""
    return [cmp_cell("%s, %s" % (system, cell_name(c)),
                     r.get(metric, system, c), [1.0], bound, False, True)
            for c in r.cells(metric, system)] or \
        [cmp_cell(system, [], [], bound, False)]


def pair_targets(m):
    """The targets judged on the pairs, on the figures of measure m."""
    return [
        ("SIIT ≥ 0.9 × forwarding",
         "%s of tern-siit, median of the pairs" % m["cap"],
         lambda r: at_least(r, m["cap"], "tern-siit", 0.9)),
        ("NAT64 ≥ 0.75 × forwarding",
         "%s of tern-nat64, median of the pairs" % m["cap"],
         lambda r: at_least(r, m["cap"], "tern-nat64", 0.75)),
        ("Tern SIIT's added cost ≤ 0.25 × Jool SIIT's",
         "%s, median of the pairs, per mode (pool6, 1 and 10k EAMT "
         "entries)" % m["add"],
         lambda r: added_vs_jool(r, m, SIIT_PAIRS, 0.25)),
        ("Tern NAT64's added cost ≤ 0.35 × Jool NAT64's",
         "%s, median of the pairs" % m["add"],
         lambda r: added_vs_jool(r, m, [("tern-nat64", "jool-nat64")],
                                 0.35)),
        ("added cost ≤ 15 % of forwarding's",
         "%s over %s, every Tern system" % (m["add"], m["fwd"]),
         lambda r: added_vs_fwd(r, m)),
        ("iptables mode ≥ 0.95 × netfilter mode",
         "%s, tern-siit-ipt over tern-siit" % m["cap"],
         lambda r: same_cells(r, m["cap"], "tern-siit-ipt", "tern-siit",
                              0.95, False)),
    ]


OTHER_TARGETS = [
    ("connection establishment ≥ 2 × Jool",
     "conn_rate, repetitions the system set",
     lambda r: same_cells(r, "conn_rate", "tern-nat64", "jool-nat64", 2,
                          False)),
    ("tear-down to the last byte ≥ Jool",
     "teardown_free_rate, 1M sessions", teardown),
    ("10M sessions ≥ 0.9 × 10k",
     "tput_sessions (overload), repetitions the system set",
     sessions_scale),
    ("≤ 128 bytes of slab a UDP session",
     "slab_bytes_per_session, every size, every repetition", slab),
    ("one BIB entry: 65,535 sessions ≥ 0.9 × 1 session",
     "one_entry_insns, 1 session's over 65,535's, median of the "
     "repetitions (before 2026-12-04: one_entry_ratio)", one_entry),
    ("single-flow TCP ≥ 0.9 × forwarding",
     "tcp_bytes_per_kinsn (runs before 2026-12-04: tcp_throughput), "
     "median of the repetitions",
     lambda r: tcp_cells(r, TCP_MEASURE if r.cells(TCP_MEASURE, "fwd")
                         else "tcp_throughput")),
]
# The single-flow TCP target's measure: the bytes carried per 1,000
# instructions of the busier vCPU (since 2026-12-04, after a miss in
# Mbit/s, guest time: those are shown after, not judged).
TCP_MEASURE = "tcp_bytes_per_kinsn"
# The one-BIB-entry target's measure: instructions of CPU 1 a packet
# (since 2026-12-04, after verdicts inside the spread in the 4->6 rate,
# guest time: shown after, not judged).
ONE_ENTRY_MEASURE = "one_entry_insns"


def tcp_cells(r, metric):
    return same_cells(r, metric, "tern-siit", "fwd", 0.9, False) + \
        same_cells(r, metric, "tern-nat64", "fwd", 0.9, False)


def num(x):
    if x is None:
        return "-"
    if x == float("inf"):
        return "∞"
    return "%.1f" % x if abs(x) >= 10 else "%.2f" % x


def closest(cells):
    """The cell that decides the target: the worst verdict, then the least
    margin of the median."""
    judged = [c for c in cells if c[5] != "not judged"] or cells

    def key(c):
        margin = 0 if c[1] is None else (
            c[3] - c[1] if c[4] else c[1] - c[3]) / c[3]
        return (RANK[c[5]], margin)
    return min(judged, key=key)


def control(r, m, named):
    """The control's lines on measure m (none without its pairs); named:
    the measure said in the title."""
    cells = r.cells(m["add"], CONTROL)
    if not cells:
        return []
    out = ["", "### Control: forwarding paired with itself" +
           (", on %s" % m["name"] if named else ""), "",
           "What two identical systems differ by in this method on this "
           "host (%s against fwd); it judges nothing." % CONTROL, "",
           "| cell | pairs | added cost over forwarding's (median) "
           "| lowest pair | highest pair |", "|---|---:|---:|---:|---:|"]
    for c in cells:
        add, fwd = r.get(m["add"], CONTROL, c), r.get(m["fwd"], CONTROL, c)
        if not add or not fwd:
            out.append("| %s | 0 | - | - | - |" % cell_name(c))
            continue
        each = [a / f for a, f in zip(add, fwd) if f > 0]
        out.append("| %s | %d | %s | %s | %s |" % (
            cell_name(c), len(add), num(ratio(median(add), median(fwd))),
            num(min(each)) if each else "-",
            num(max(each)) if each else "-"))
    return out


def main(argv):
    if len(argv) not in (1, 2):
        sys.exit("usage: judge.py RESULTS.TSV [RAW.TSV]")
    raw = None
    if len(argv) == 2:
        raw = load_raw(argv[1])
        if raw is None:
            sys.exit("judge.py: no %s" % argv[1])
    r = Rows(load(argv[0]), raw)
    have = [x for x in MEASURES if any(k[0] == x["cap"] for k in r.v)] or \
        [GUEST]
    m, others = have[0], have[1:]
    head, detail = judge(r, pair_targets(m) + OTHER_TARGETS)
    note = []
    if raw is not None:
        note = ["", "Pairs left out (the generator set a window of the pair:"
                " it received %d %% or more of what was offered): %d of %d." %
                (round(GEN_SHARE * 100), r.pairs[0], r.pairs[1])]
    if others:
        note += ["", "The pair targets are judged on %s; on %s they come "
                 "out as in the last tables." % (
                     m["name"], " and on ".join(x["name"] for x in others))]
    out = ["## Targets", ""] + head + note + ["", "### Every cell", ""] + \
        detail + control(r, m, bool(others))
    if r.cells(TCP_MEASURE, "fwd"):
        thead, tdetail = judge(r, [(
            "single-flow TCP ≥ 0.9 × forwarding", "tcp_throughput (Mbit/s, "
            "the measure before 2026-12-04)",
            lambda r: tcp_cells(r, "tcp_throughput"))])
        out += ["", "### Single-flow TCP in Mbit/s (shown, not judged)", "",
                "The rate in the guest's time, which the host's speed sets "
                "as much as the system:", ""] + thead + \
            ["", "Every cell:", ""] + tdetail
    if r.cells(ONE_ENTRY_MEASURE, "tern-nat64"):
        ohead, _ = judge(r, [(
            "one BIB entry: 65,535 sessions ≥ 0.9 × 1 session",
            "one_entry_ratio (the 4→6 rate, the measure before "
            "2026-12-04)", one_entry_rate)])
        out += ["", "### One BIB entry in the 4→6 rate (shown, not judged)",
                ""] + ohead
    for x in others:
        ghead, gdetail = judge(r, pair_targets(x))
        out += control(r, x, True) + \
            ["", "### The pair targets on %s" % x["name"], ""] + \
            ghead + ["", "Every cell:", ""] + gdetail
    print("\n".join(out))


def judge(r, targets):
    """The summary table's and the every-cell table's lines."""
    head = ["| target | figure | closest cell | median | worst pairing "
            "| verdict |", "|---|---|---|---:|---:|---|"]
    detail = ["| target | cell | median | worst pairing | bound | verdict |",
              "|---|---|---:|---:|---:|---|"]
    for name, figure, rule in targets:
        cells = rule(r)
        c = closest(cells)
        v = c[5]
        if v != "not judged":
            n = sum(x[5] == v for x in cells if x[5] != "not judged")
            m = sum(x[5] != "not judged" for x in cells)
            left = len(cells) - m
            if v == "met" and left:
                v = "**met where judged** (%d of %d; %d not judged)" % (
                    m, m, left)
            elif v != "met":
                v = "**%s** (%d of %d%s)" % (
                    v, n, m, "; %d not judged" % left if left else "")
            else:
                v = "met (%d of %d)" % (m, m)
        head.append("| %s | %s | %s | %s | %s | %s |" % (
            name, figure, c[0], num(c[1]), num(c[2]), v))
        for x in cells:
            detail.append("| %s | %s | %s | %s | %s%s | %s |" % (
                name, x[0], num(x[1]), num(x[2]), "≤ " if x[4] else "≥ ",
                num(x[3]), x[5]))
    return head, detail


if __name__ == "__main__":
    main(sys.argv[1:])
