#!/usr/bin/python3
"""Turns the results.tsv of `make bench` into results.md and PNG plots.

Usage: report.py [--check] [--no-plots] RESULTS.TSV OUTDIR

RESULTS.TSV has the header  metric system direction flows rep value unit
(tab-separated), one line per figure of one repetition. results.md gets,
per metric, a table with a row per (direction, flows) and a column per
system: the median of the repetitions and their range (min-max), then the
ratios of the medians Tern/forwarding and Tern/Jool (Tern SIIT against
Jool SIIT, Tern NAT64 against Jool NAT64). Metrics it does not know are
tabulated the same way, after the known ones. about.txt and skipped.txt
beside the TSV, when present, are quoted at the top.

Plots (python3-matplotlib; left out with a note when it is missing): a
bar chart per metric (median per system, min-max as error bars) and, from
the metrics of SESSION_PLOTS (throughput, fill rate, slab bytes a
session), a line against the number of sessions.

raw.tsv beside RESULTS.TSV (bench-vm.sh's log of every overload window,
and stateful-vm.sh's of its stateful ones: phase system direction flows
rep window_ns offered offered_pps received received_pps busy_ns
ns_per_packet host_window_ns host_busy_ns host_wait_ns host_ns_per_packet
insns insns_per_packet; runs before 2026-12-03 lack the last six) is
summed up in results.md per phase and system (the
one-entry phase, entry, per flows too: its two cells differ in kind).

--check (the smoke run of make check): fails unless every system of the
file has a figure for every metric of MUST, every system but forwarding
the paired ones of MUST_PAIRED (capacity_vs_fwd and added_ns, from the
guest's busy time, from the host's CPU time of vCPU 1 and from its
instructions), every NAT64 system (*-nat64) the stateful
ones of MUST_NAT64 (with, beside each figure, whether the generator set
it) and, at every size it has tput_sessions for, those of MUST_PER_SIZE
(fill rate, slab bytes a session), and every figure is above 0 (flags, unit "flag", and
the added costs, differences, aside; tput_zero_loss and xl_ns_per_packet above
0 in one cell of every system at least; tput_sessions_zero_loss may be
0); and raw.tsv must be there with a window received in (received > 0)
of every system in the main part (xl_ns_per_packet) and of every paired
system and forwarding in the pairs, and of every NAT64 system a window of
each stateful phase it has a figure of (conn, sessions, zl, entry).

The figures of GEN_FLAGS (conn_rate, tput_sessions,
tput_sessions_zero_loss) are judged only from the repetitions the system
set: a repetition whose flag says the generator set it is left out of the
cell's median and counted ("gen N/M"); a cell with only such shows their
median as ">=" (a lower bound), its ratios as bounds.
"""
import csv
import os
import sys
import statistics
import textwrap

KNOWN = ["tput_zero_loss", "tput_overload", "tput_offered", "xl_ns_per_packet",
         "capacity_vs_fwd_insns", "added_insns", "pair_fwd_insns",
         "pair_insns",
         "capacity_vs_fwd_host", "added_host_ns", "pair_fwd_host_ns",
         "pair_host_ns",
         "capacity_vs_fwd", "added_ns", "pair_fwd_ns", "pair_ns",
         "tcp_throughput", "tcp_bytes_per_kinsn",
         "rtt_median", "rtt_min", "rtt_max", "conn_rate", "conn_real",
         "teardown_rate", "teardown_free_rate", "teardown_seconds",
         "teardown_free_seconds",
         "tput_sessions", "tput_sessions_zero_loss",
         "conn_gen_bound", "conn_offered_ratio", "tput_sessions_gen_bound",
         "tput_sessions_offered_ratio", "tput_sessions_zero_loss_gen_bound",
         "sessions_fill_rate", "sessions_fill_step_rate",
         "sessions_fill_step_insns", "sessions_fill_step_ns",
         "slab_bytes_per_session", "slab_obj_bytes_per_session",
         "tput_one_entry", "one_entry_ratio", "one_entry_ns",
         "one_entry_insns", "one_entry_host_ns"]
TITLES = {
    "tput_zero_loss": "Throughput with zero loss (binary search), 64-byte UDP",
    "tput_overload": "Received rate at overload (pktgen at its maximum)",
    "tput_offered": "Offered by pktgen at overload (the search's bound)",
    "xl_ns_per_packet": "CPU 1 (all of xl's receive work) busy per packet "
                        "received at overload; lower is better, and the "
                        "inverse of Tern/fwd estimates Tern's capacity "
                        "against forwarding's",
    "capacity_vs_fwd": "Capacity against forwarding, paired: forwarding's "
                       "xl_ns_per_packet over the system's, from overload "
                       "windows next to each other (every pair here; "
                       "targets.md judges on capacity_vs_fwd_insns, pairs "
                       "the generator set left out)",
    "added_ns": "Cost added over forwarding, paired: the system's "
                "xl_ns_per_packet less forwarding's in the same pair "
                "(median of the pairs; the ratios are of these medians: "
                "Tern's added cost over Jool's per mode)",
    "pair_fwd_ns": "Forwarding's xl_ns_per_packet in the pairs with the "
                   "system",
    "pair_ns": "The system's xl_ns_per_packet in its pairs with forwarding",
    "capacity_vs_fwd_insns": "Capacity against forwarding, paired, from "
                             "the instructions CPU 1 executed per packet "
                             "received (QEMU counts them; the host's "
                             "speed, which changes from second to second, "
                             "does not change them): forwarding's "
                             "pair_fwd_insns over the system's pair_insns "
                             "(median of the pairs)",
    "added_insns": "Cost added over forwarding, paired, in instructions "
                   "CPU 1 executed per packet received: pair_insns less "
                   "pair_fwd_insns (median of the pairs; the ratios are of "
                   "these medians)",
    "pair_fwd_insns": "Forwarding's instructions of CPU 1 per packet "
                      "received in the pairs with the system",
    "pair_insns": "The system's instructions of CPU 1 per packet received "
                  "in its pairs with forwarding",
    "capacity_vs_fwd_host": "Capacity against forwarding, paired, from the "
                            "host's CPU time of vCPU 1 (the time the host "
                            "ran it; its preemption and steal left out): "
                            "forwarding's pair_fwd_host_ns over the "
                            "system's pair_host_ns (median of the pairs)",
    "added_host_ns": "Cost added over forwarding, paired, from the host's "
                     "CPU time of vCPU 1: pair_host_ns less "
                     "pair_fwd_host_ns (median of the pairs; the ratios "
                     "are of these medians)",
    "pair_fwd_host_ns": "Forwarding's host CPU time of vCPU 1 per packet "
                        "received in the pairs with the system",
    "pair_host_ns": "The system's host CPU time of vCPU 1 per packet "
                    "received in its pairs with forwarding",
    "tcp_throughput": "Single-flow TCP (iperf3)",
    "tcp_bytes_per_kinsn": "The same transfer: bytes received per 1,000 "
                           "instructions of the busier vCPU (the rate at "
                           "a constant CPU speed)",
    "rtt_median": "ICMP echo RTT, median",
    "rtt_min": "ICMP echo RTT, minimum",
    "rtt_max": "ICMP echo RTT, maximum",
    "conn_rate": "NAT64 connection establishment rate",
    "conn_real": "NAT64 real phase: replies that came back per session "
                 "made",
    "teardown_rate": "NAT64 connection tear-down rate, until the flush "
                     "command returned",
    "teardown_free_rate": "NAT64 connection tear-down rate, until the "
                          "slab memory of the tables was back to its "
                          "count before the fill",
    "teardown_seconds": "NAT64 tear-down time, until the flush command "
                        "returned (less the same command on an empty "
                        "table)",
    "teardown_free_seconds": "NAT64 tear-down time, until the slab memory "
                             "of the tables was back (less the same "
                             "command on an empty table)",
    "tput_sessions": "Throughput with established sessions (flows = sessions)",
    "tput_sessions_zero_loss": "Zero-loss throughput with established "
                               "sessions (binary search)",
    "conn_gen_bound": "conn_rate set by the generator (1: even the "
                      "unpaced step lost nothing)",
    "conn_offered_ratio": "Connection establishment, unpaced step: "
                          "offered over received (1: the generator set "
                          "the rate)",
    "tput_sessions_gen_bound": "tput_sessions set by the generator (1: the "
                               "system received all but 1 % of what was "
                               "offered in the window)",
    "tput_sessions_offered_ratio": "Throughput with sessions: offered over "
                                   "received in the window",
    "tput_sessions_zero_loss_gen_bound": "tput_sessions_zero_loss set by "
                                         "the generator (1: no trial lost "
                                         "a frame)",
    "sessions_fill_rate": "NAT64 sessions made a second while filling the "
                          "table to that size from empty (closed loop, "
                          "chunks of new flows; flows = sessions)",
    "sessions_fill_step_rate": "The same while the table grew from the "
                               "size before to that size (from "
                               "sessions_fill_rate of both sizes)",
    "sessions_fill_step_insns": "Instructions CPU 1 executed a session "
                                "made while the table grew from the size "
                                "before to that size (the fill's chunks, "
                                "resends included; the generator's start "
                                "and the polls do not enter)",
    "sessions_fill_step_ns": "CPU 1's busy ns a session made while the "
                             "table grew from the size before to that "
                             "size (as sessions_fill_step_insns)",
    "slab_bytes_per_session": "Slab memory a UDP session with its BIB "
                              "entry: pages of the tables' slab caches "
                              "with the sessions less with the empty "
                              "instance, over the sessions (target: 128 "
                              "at most)",
    "slab_obj_bytes_per_session": "The same from the objects in use x "
                                  "their slot size (the slabs' unused "
                                  "room left out)",
    "tput_one_entry": "4->6 rate to one BIB entry whose sessions are all "
                      "with one IPv4 address, one a source port "
                      "(flows = sessions)",
    "one_entry_ratio": "That rate with 65535 sessions over the rate with "
                       "one (target: 0.9 at least)",
    "one_entry_ns": "CPU 1 (xl's receive work) busy per packet received "
                    "in tput_one_entry's window (flows = sessions); with "
                    "its offered and received (raw.tsv, phase entry), "
                    "whether the generator or the system set that rate",
    "one_entry_insns": "The instructions CPU 1 executed per packet "
                       "received in tput_one_entry's window",
    "one_entry_host_ns": "The host's CPU time of vCPU 1 per packet "
                         "received in tput_one_entry's window",
}
# Throughput against the number of sessions: plotted as lines.
SESSION_PLOTS = ["tput_sessions", "tput_sessions_zero_loss",
                 "sessions_fill_rate", "sessions_fill_step_rate",
                 "sessions_fill_step_insns",
                 "slab_bytes_per_session",
                 "slab_obj_bytes_per_session"]
SYSTEMS = ["fwd", "fwd-xl", "tern-siit", "tern-siit-eamt1", "tern-siit-eamt10k",
           "tern-nat64", "tern-siit-ipt", "tern-siit-iptl", "tern-siit-iptr",
           "tern-siit-ipt0", "jool-siit", "jool-siit-eamt1",
           "jool-siit-eamt10k", "jool-nat64", "tayga"]
DIRS = ["6to4", "4to6", "bidir"]
MUST = ["tput_zero_loss", "tput_overload", "tcp_throughput",
        "tcp_bytes_per_kinsn", "rtt_median"]
# What every system but forwarding must have besides (bench-vm.sh pairs
# each with forwarding).
MUST_PAIRED = ["capacity_vs_fwd", "added_ns", "capacity_vs_fwd_host",
               "added_host_ns", "capacity_vs_fwd_insns", "added_insns"]
# The pairs' control (bench-vm.sh): forwarding paired with itself; it has
# the pairs' figures only, and a run with pairs has it.
CONTROL = "fwd-xl"
# What every NAT64 system must have (test/bench/stateful-vm.sh).
MUST_NAT64 = ["conn_rate", "conn_real", "tput_sessions", "teardown_seconds",
              "teardown_free_seconds", "tput_one_entry", "one_entry_ratio",
              "one_entry_ns", "one_entry_host_ns", "one_entry_insns",
              "conn_gen_bound", "conn_offered_ratio",
              "tput_offered", "tput_sessions_zero_loss",
              "tput_sessions_gen_bound", "tput_sessions_offered_ratio",
              "tput_sessions_zero_loss_gen_bound",
              "sessions_fill_rate", "slab_bytes_per_session",
              "slab_obj_bytes_per_session"]
# The figures judged only where the system, not the generator, set them:
# metric -> its flag (1: the generator set that repetition's figure, a
# lower bound for the system). Such repetitions are left out of the
# median; a cell with no other shows the median of its generator-bound
# ones as ">=", and its ratios as bounds (or "-").
GEN_FLAGS = {"conn_rate": "conn_gen_bound",
             "tput_sessions": "tput_sessions_gen_bound",
             "tput_sessions_zero_loss": "tput_sessions_zero_loss_gen_bound"}
# The stateful windows raw.tsv must have of a NAT64 system (phase: the
# metric that shows the system measured).
RAW_NAT64 = {"conn": "conn_rate", "sessions": "tput_sessions",
             "zl": "tput_sessions_zero_loss", "entry": "tput_one_entry"}
# What every NAT64 system must have at every size it has tput_sessions
# for (test/bench/stateful-scale.sh).
MUST_PER_SIZE = ["sessions_fill_rate", "sessions_fill_step_insns",
                 "sessions_fill_step_ns", "slab_bytes_per_session",
                 "slab_obj_bytes_per_session"]
# Differences: any sign.
ANY_SIGN = ["added_ns", "added_host_ns", "added_insns"]
# (numerator, denominator) pairs of the ratio columns
RATIOS = [("tern-siit", "fwd"), ("tern-siit-eamt1", "fwd"),
          ("tern-siit-eamt10k", "fwd"), ("tern-nat64", "fwd"),
          ("tern-siit-ipt", "fwd"), ("tern-siit-ipt", "tern-siit"),
          ("tern-siit-iptl", "tern-siit"), ("tern-siit-iptr", "tern-siit"),
          ("tern-siit-ipt0", "tern-siit"),
          ("tern-siit-eamt1", "tern-siit"),
          ("tern-siit", "jool-siit"), ("tern-siit-eamt1", "jool-siit-eamt1"),
          ("tern-siit-eamt10k", "jool-siit-eamt10k"),
          ("tern-nat64", "jool-nat64")]


def load(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    for r in rows:
        r["value"] = float(r["value"])
    return rows + fill_steps(rows)


def fill_steps(rows):
    """sessions_fill_step_rate, from sessions_fill_rate (S over the time
    the fill from empty to S took; the sizes of a repetition are filled
    one after the other): the sessions a second while the table grew from
    the size before to S, (S - P) over (S / rate(S) - P / rate(P))."""
    fills = {}
    for r in rows:
        if r["metric"] == "sessions_fill_rate" and r["value"] > 0:
            fills.setdefault((r["system"], r["direction"], r["rep"]),
                             []).append(r)
    out = []
    for each in fills.values():
        size, secs = 0, 0.0
        for r in sorted(each, key=lambda r: int(r["flows"])):
            s = int(r["flows"])
            t = s / r["value"]
            if t > secs:
                out.append(dict(r, metric="sessions_fill_step_rate",
                                value=float(round((s - size) / (t - secs)))))
            size, secs = s, t
    return out


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


# Shown with one decimal whatever their size: near their target (128 B).
ONE_DECIMAL = ["slab_bytes_per_session", "slab_obj_bytes_per_session"]
# Followed by the ratio of the largest size's median to the smallest's,
# per system and direction (the target: 10M sessions over 10k).
SIZE_RATIOS = ["tput_sessions", "tput_sessions_zero_loss"]


def fmt(x, metric=None):
    if metric in ONE_DECIMAL:
        return "%.1f" % x
    if abs(x) >= 100:
        return "%d" % round(x)
    if abs(x) >= 10:
        return "%.1f" % x
    return "%.3f" % x


def order(items, known):
    return ([k for k in known if k in items] +
            sorted(k for k in items if k not in known))


def flows_key(f):
    try:
        return (0, int(f))
    except ValueError:
        return (1, f)


def group(rows):
    """{metric: {(direction, flows): {system: [values]}}}, units."""
    data, units = {}, {}
    for r in rows:
        m = data.setdefault(r["metric"], {})
        m.setdefault((r["direction"], r["flows"]), {}).setdefault(
            r["system"], []).append(r["value"])
        units[r["metric"]] = r["unit"]
    return data, units


def gen_bound(rows):
    """{metric: {(direction, flows): {system: [bool per value]}}} for the
    metrics of GEN_FLAGS, aligned with group()'s lists: True where that
    repetition's flag is 1 (the generator set the figure)."""
    flag = {(r["metric"], r["system"], r["direction"], r["flows"], r["rep"]):
            r["value"] == 1 for r in rows}
    out = {}
    for r in rows:
        f = GEN_FLAGS.get(r["metric"])
        if f is None:
            continue
        out.setdefault(r["metric"], {}).setdefault(
            (r["direction"], r["flows"]), {}).setdefault(
            r["system"], []).append(flag.get(
                (f, r["system"], r["direction"], r["flows"], r["rep"]),
                False))
    return out


def judged(v, g):
    """(value, bound) of a cell: the median of the repetitions the system
    set (bound False), else of the generator-bound ones (bound True)."""
    sys_set = [x for x, b in zip(v, g) if not b]
    if sys_set:
        return median(sys_set), False
    return median(v), True


def table(metric, cells, unit, gcells=None):
    systems = order({s for c in cells.values() for s in c}, SYSTEMS)
    ratios = [(a, b) for a, b in RATIOS if a in systems and b in systems]
    keys = sorted(cells, key=lambda k: (
        DIRS.index(k[0]) if k[0] in DIRS else len(DIRS), k[0],
        flows_key(k[1])))
    out = ["### %s: %s (%s)" % (metric, TITLES.get(metric, metric), unit), ""]
    head = ["direction", "flows"] + systems + ["%s/%s" % r for r in ratios]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "---|" * 2 + "---:|" * (len(head) - 2))
    for k in keys:
        c = cells[k]
        g = (gcells or {}).get(k, {})
        line = [k[0], k[1]]
        val = {}
        for s in systems:
            if s not in c:
                line.append("-")
                continue
            v = c[s]
            val[s] = judged(v, g.get(s, [False] * len(v)))
            cell = fmt(val[s][0], metric)
            if val[s][1]:
                cell = ">=" + cell
            if len(v) > 1:
                cell += " (%s-%s)" % (fmt(min(v), metric),
                                      fmt(max(v), metric))
            n = sum(g.get(s, []))
            if n:
                cell += " gen %d/%d" % (n, len(v))
            line.append(cell)
        for a, b in ratios:
            if a in c and b in c and val[b][0] != 0 and \
               not (val[a][1] and val[b][1]):
                # A generator-bound numerator is a lower bound, so is
                # the ratio; a generator-bound denominator, an upper one.
                pre = ">=" if val[a][1] else "<=" if val[b][1] else ""
                line.append("%s%.2f" % (pre, val[a][0] / val[b][0]))
            else:
                line.append("-")
        out.append("| " + " | ".join(line) + " |")
    if gcells:
        out += ["", "Repetitions where the generator, not the system, set "
                "the figure (%s = 1; \"gen N/M\") are left out of the "
                "median; \">=\" marks a cell that has only such, the "
                "system's figure being above it." % GEN_FLAGS[metric]]
    if metric in SIZE_RATIOS:
        out += size_ratios(cells, systems, gcells)
    return out


def size_ratios(cells, systems, gcells=None):
    """Lines: the largest size's figure over the smallest's (each judged
    as its table cell: generator-bound repetitions out; a bound shown as
    such)."""
    out = []
    for d in sorted({k[0] for k in cells}):
        for s in systems:
            sizes = sorted(
                (int(k[1]), judged(cells[k][s],
                                   (gcells or {}).get(k, {}).get(
                                       s, [False] * len(cells[k][s]))))
                for k in cells
                if k[0] == d and s in cells[k] and flows_key(k[1])[0] == 0)
            if len(sizes) < 2 or sizes[0][1][0] == 0:
                continue
            (lo, (a, abound)), (hi, (b, bbound)) = sizes[0], sizes[-1]
            if abound and bbound:
                continue
            pre = ">=" if bbound else "<=" if abound else ""
            out.append("- %s %s: %d sessions over %d: %s%.2f" % (
                s, d, hi, lo, pre, b / a))
    return [""] + out if out else []


def plots(data, units, outdir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return [], "no plots: python3-matplotlib is not installed"
    made = []
    for metric in order(data, KNOWN):
        cells = data[metric]
        systems = order({s for c in cells.values() for s in c}, SYSTEMS)
        keys = sorted(cells, key=lambda k: (
            DIRS.index(k[0]) if k[0] in DIRS else len(DIRS), k[0],
            flows_key(k[1])))
        fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(keys) + 3), 4))
        if metric in SESSION_PLOTS:
            for s in systems:
                for d in sorted({k[0] for k in keys}):
                    pts = [(int(k[1]), cells[k][s]) for k in keys
                           if k[0] == d and s in cells[k]]
                    if not pts:
                        continue
                    x = [p[0] for p in pts]
                    y = [median(p[1]) for p in pts]
                    lo = [median(p[1]) - min(p[1]) for p in pts]
                    hi = [max(p[1]) - median(p[1]) for p in pts]
                    ax.errorbar(x, y, yerr=[lo, hi], marker="o", capsize=3,
                                label="%s %s" % (s, d))
            ax.set_xscale("log")
            ax.set_xlabel("established sessions")
            ax.set_ylim(bottom=0)
        else:
            width = 0.8 / max(1, len(systems))
            for i, s in enumerate(systems):
                xs, ys, lo, hi = [], [], [], []
                for j, k in enumerate(keys):
                    if s in cells[k]:
                        v = cells[k][s]
                        xs.append(j + i * width)
                        ys.append(median(v))
                        lo.append(median(v) - min(v))
                        hi.append(max(v) - median(v))
                ax.bar(xs, ys, width, yerr=[lo, hi], capsize=2, label=s)
            ax.set_xticks([j + width * (len(systems) - 1) / 2
                           for j in range(len(keys))])
            ax.set_xticklabels(["%s\n%s flow%s" % (d, f, "" if f == "1"
                                                    else "s")
                                for d, f in keys])
        ax.set_ylabel(units[metric])
        # Long titles wrap rather than run off the figure.
        ax.set_title(textwrap.fill(TITLES.get(metric, metric), 110),
                     fontsize=10)
        ax.legend(fontsize=7)
        fig.tight_layout()
        name = "%s.png" % metric
        fig.savefig(os.path.join(outdir, name), dpi=80)
        plt.close(fig)
        made.append(name)
    return made, None


SOME_POSITIVE = ["tput_zero_loss", "xl_ns_per_packet"]
# May be 0 everywhere in the smoke: two trials of a second on a busy host.
MAY_BE_ZERO = ["tput_sessions_zero_loss"]


def load_raw(path):
    """The lines of raw.tsv, or None when there is none."""
    if not os.path.exists(path):
        return None
    with open(path, newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


RAW_COLS = ["phase", "system", "direction", "flows", "rep", "window_ns",
            "offered", "offered_pps", "received", "received_pps", "busy_ns",
            "ns_per_packet", "host_window_ns", "host_busy_ns",
            "host_wait_ns", "host_ns_per_packet", "insns", "insns_per_packet"]
# Before the host's view of each window was logged (runs published
# before 2026-12-03).
RAW_COLS_OLD = RAW_COLS[:12]


def check_raw(raw, rows):
    """What raw.tsv lacks: a window received in, per system and phase."""
    if raw is None:
        return ["no raw.tsv beside the results"]
    bad = []
    if raw and list(raw[0].keys()) not in (RAW_COLS, RAW_COLS_OLD):
        return ["raw.tsv: columns %s, not %s" % (list(raw[0].keys()),
                                                 RAW_COLS)]
    want = {("main", r["system"]) for r in rows
            if r["metric"] == "xl_ns_per_packet"}
    paired = {r["system"] for r in rows if r["metric"] == "capacity_vs_fwd"}
    want |= {("pair", s) for s in paired}
    if paired:
        want.add(("pair", "fwd"))
    # The stateful part's windows: each NAT64 system's offered and
    # received, per phase whose figure it has.
    for phase, m in RAW_NAT64.items():
        want |= {(phase, r["system"]) for r in rows if r["metric"] == m}
    for phase, s in sorted(want):
        if not any(w["phase"] == phase and w["system"] == s and
                   int(w["received"]) > 0 and int(w["offered"]) > 0
                   for w in raw):
            bad.append("raw.tsv: no %s window of %s received in" % (phase, s))
    return bad


# The phases of raw.tsv summed up per flows too: the one-entry cell's
# windows with one session and with 65535 differ in kind (gen4 cycles 1
# frame or 65535), not only in size.
PER_FLOWS = ["entry"]


def window_summary(raw):
    """Per phase and system of raw.tsv (and flows, for PER_FLOWS): how
    many windows, what the generator offered over what the system
    received, and how busy CPU 1 (the one receiving) was: a window whose
    CPU 1 was not busy, or whose generator offered little more than was
    received, was bounded by the generator, not by the system."""
    groups = {}
    for w in raw:
        try:
            o, r = int(w["offered"]), int(w["received"])
            b, t = int(w["busy_ns"]), int(w["window_ns"])
        except ValueError:
            continue
        if r > 0 and t > 0:
            f = w["flows"] if w["phase"] in PER_FLOWS else None
            groups.setdefault((w["phase"], w["system"], f), []).append(
                (o / r, b / t))
    if not groups:
        return []
    out = ["### Windows: offered over received, and CPU 1's busy share "
           "(median (min-max))", "",
           "| phase | system | windows | offered / received | "
           "CPU 1 busy |", "|---|---|---:|---:|---:|"]

    def mm(v, f):
        v = sorted(v)
        return "%s (%s-%s)" % (f % statistics.median(v), f % v[0],
                                f % v[-1])

    def key(g):
        phase, s, f = g[0]
        return (phase, s, flows_key(f or ""))
    for (phase, s, f), v in sorted(groups.items(), key=key):
        # A phase whose busy time runs past its window (the connection
        # steps count until the backlog drained) has no share to show.
        busy = [x[1] for x in v]
        if f is not None:
            phase = "%s, %s flow%s" % (phase, f, "" if f == "1" else "s")
        out.append("| %s | %s | %d | %s | %s |" % (
            phase, s, len(v), mm([x[0] for x in v], "%.2f"),
            "–" if max(busy) > 1.02 else
            mm([100 * b for b in busy], "%.0f%%")))
    return out + [""]


def check(rows, data, raw):
    bad = []
    systems = {r["system"] for r in rows}
    for s in sorted(systems):
        must = MUST_PAIRED if s == CONTROL else \
            MUST + (MUST_PAIRED if s != "fwd" else []) + \
            (MUST_NAT64 if s.endswith("-nat64") else [])
        for m in must:
            if not any(s in c for c in data.get(m, {}).values()):
                bad.append("no %s for %s" % (m, s))
        if not s.endswith("-nat64"):
            continue
        sizes = {k for k, c in data.get("tput_sessions", {}).items()
                 if s in c}
        for m in MUST_PER_SIZE:
            for k in sorted(sizes - {k for k, c in data.get(m, {}).items()
                                     if s in c}):
                bad.append("no %s for %s with %s sessions" % (m, s, k[1]))
    if any(r["metric"] == "capacity_vs_fwd" for r in rows) and \
       CONTROL not in systems:
        bad.append("no control pairs (%s: forwarding against itself)" %
                   CONTROL)
    # A zero-loss search may find no rate without loss in a cell (one
    # packet lost at the lowest trial on a busy host): it must find one
    # in some cell of every system, which shows the search works.
    for m in SOME_POSITIVE:
        for s in sorted(systems):
            if any(r["metric"] == m and r["system"] == s for r in rows) and \
               not any(r["metric"] == m and r["system"] == s and
                       r["value"] > 0 for r in rows):
                bad.append("no %s above 0 for %s" % (m, s))
    for r in rows:
        # A flag (conn_gen_bound: the generator set the figure) may be 0.
        if r["unit"] == "flag" or \
           r["metric"] in SOME_POSITIVE + MAY_BE_ZERO + ANY_SIGN:
            continue
        if not r["value"] > 0:
            bad.append("%s %s %s flows %s rep %s: %s" % (
                r["metric"], r["system"], r["direction"], r["flows"],
                r["rep"], r["value"]))
    return bad + check_raw(raw, rows)


def main(argv):
    opts = [a for a in argv if a.startswith("--")]
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 2 or set(opts) - {"--check", "--no-plots"}:
        sys.exit("usage: report.py [--check] [--no-plots] RESULTS.TSV OUTDIR")
    tsv, outdir = args
    rows = load(tsv)
    raw = load_raw(os.path.join(os.path.dirname(os.path.abspath(tsv)),
                                "raw.tsv"))
    data, units = group(rows)
    gdata = gen_bound(rows)
    os.makedirs(outdir, exist_ok=True)
    out = ["# Tern benchmark", ""]
    for name in ("about.txt", "skipped.txt"):
        p = os.path.join(os.path.dirname(os.path.abspath(tsv)), name)
        if os.path.exists(p):
            with open(p) as f:
                if name == "skipped.txt":
                    out.append("Skipped:")
                out += ["- " + line.rstrip() for line in f if line.strip()]
            out.append("")
    out += ["Each cell: the median of the repetitions and (min-max); "
            "ratios are of the medians.", ""]
    if raw is not None:
        out += ["Every overload window (offered, received, CPU 1's busy "
                "time): raw.tsv, %d windows." % len(raw), ""]
        out += window_summary(raw)
    for metric in order(data, KNOWN):
        out += table(metric, data[metric], units[metric],
                     gdata.get(metric)) + [""]
    if "--no-plots" not in opts:
        made, note = plots(data, units, outdir)
        out += ["![%s](%s)" % (n[:-4], n) for n in made]
        if note:
            out.append(note)
        out.append("")
    with open(os.path.join(outdir, "results.md"), "w") as f:
        f.write("\n".join(out).rstrip() + "\n")
    print("\n".join(out))
    if "--check" in opts:
        bad = check(rows, data, raw)
        for b in bad:
            print("report: " + b, file=sys.stderr)
        if bad:
            sys.exit(1)


if __name__ == "__main__":
    main(sys.argv[1:])
