#!/usr/bin/env bash
# Host-only check of test/bench/report.py, judge.py and doc-tables.py (make check): the
# verdicts judge.py gives a fixed TSV must be report-test/judge-expected.md
# and the table report.py makes of the fixed report-test/results.tsv must
# be report-test/expected.md, byte for byte; --check must pass on it and
# fail on a figure of 0, on a system without one of the metrics every
# system must have, on a system
# without its paired capacity against forwarding or its added cost, on a
# NAT64 system without a stateful figure (tear-down to the last byte, the
# one-entry ratio and CPU 1's ns a packet there, whether the generator set
# a figure: the flags and offered/received ratios, the fill's rate and
# cost a session and slab bytes a session, these last at every size it has throughput with
# sessions for), on pairs without their control (forwarding paired with
# itself) and on a missing or incomplete raw.tsv (the log of every
# overload window, and of a NAT64 system's stateful windows, the one-entry
# cell's included).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
# passes FILE WHAT, fails FILE WHAT: report.py --check must pass FILE, must
# fail on it (its tables go to $tmp/out); WHAT ends the line printed.
passes() {
	$py "$here/report.py" --check --no-plots "$1" "$tmp/out" >/dev/null
	echo "ok    report.py --check passes $2"
}
fails() {
	if $py "$here/report.py" --check --no-plots "$1" "$tmp/out" >/dev/null 2>&1; then
		echo "FAIL  report.py --check did not fail $2"; exit 1
	fi
	echo "ok    report.py --check fails $2"
}
$py "$here/report.py" --no-plots "$here/report-test/results.tsv" "$tmp/a" >/dev/null
diff -u "$here/report-test/expected.md" "$tmp/a/results.md"
echo "ok    report.py: the table of report-test/results.tsv is expected.md"
# doc-tables.py: the medians and ranges docs/performance.md shows, worked
# out by hand for report-test/doc-tables.tsv (a repetition the generator
# set among them, left out), byte for byte.
$py "$here/doc-tables.py" "$here/report-test/doc-tables.tsv" >"$tmp/doc.md"
diff -u "$here/report-test/doc-tables-expected.md" "$tmp/doc.md"
echo "ok    doc-tables.py: the tables of report-test/doc-tables.tsv are doc-tables-expected.md"
# judge.py applies the targets' rules: report-test/judge.tsv has a cell of
# each verdict (met, inside the spread, not met, not judged: every
# repetition generator-bound), sizes that differ between the systems'
# tear-downs and a negative added cost; its verdicts, byte for byte.
$py "$here/judge.py" "$here/report-test/judge.tsv" >"$tmp/judge.md"
diff -u "$here/report-test/judge-expected.md" "$tmp/judge.md"
echo "ok    judge.py: the verdicts on report-test/judge.tsv are judge-expected.md"
# A part of a run (the header alone here): every target "not judged".
head -1 "$here/report-test/judge.tsv" >"$tmp/judge-none.tsv"
$py "$here/judge.py" "$tmp/judge-none.tsv" >"$tmp/judge-none.md"
n=$(sed '/^### Every cell/q' "$tmp/judge-none.md" | grep -c '| not judged |$')
[ "$n" = 12 ] || { echo "FAIL  judge.py on an empty run: $n targets not judged, not 12"; exit 1; }
echo "ok    judge.py: on a run without figures every target is not judged"
# Tear-down at 1M, the rule's size, though Tern has a larger one (10M)
# that Jool lacks (one figure each: inside the spread at best, below).
{
	head -1 "$here/report-test/judge.tsv"
	printf 'teardown_free_rate\ttern-nat64\t6to4\t1000000\t1\t400000\tsessions/s\n'
	printf 'teardown_free_rate\ttern-nat64\t6to4\t10000000\t1\t300000\tsessions/s\n'
	printf 'teardown_free_rate\tjool-nat64\t6to4\t1000000\t1\t200000\tsessions/s\n'
} >"$tmp/judge-td.tsv"
$py "$here/judge.py" "$tmp/judge-td.tsv" >"$tmp/judge-td.md"
grep -q '^| tear-down to the last byte ≥ Jool | tern-nat64 / jool-nat64, 6→4, 1000000 | 2.00 | 2.00 | ≥ 1.00 | inside the spread |$' "$tmp/judge-td.md" ||
	{ echo "FAIL  judge.py: tear-down not judged at the size both systems have"; exit 1; }
echo "ok    judge.py: tear-down judged at 1M, the size of its rule"
# A reference of 0 (a failed measurement writes it: Jool's slab never back
# to its baseline) is no figure: not judged, never met (1/0 is no pass).
grep -v '10000000' "$tmp/judge-td.tsv" | sed '$s/\t200000\t/\t0\t/' >"$tmp/judge-zero.tsv"
$py "$here/judge.py" "$tmp/judge-zero.tsv" >"$tmp/judge-zero.md"
grep -q '^| tear-down to the last byte ≥ Jool | tern-nat64 / jool-nat64, 6→4, 1000000 | - | - | ≥ 1.00 | not judged |$' "$tmp/judge-zero.md" ||
	{ echo "FAIL  judge.py: a reference of 0 judged"; exit 1; }
echo "ok    judge.py: a reference figure of 0 is not judged"
# One figure a side has no spread: at best inside it (the tear-down above:
# 2.00 from one figure each; here 90,000 over Jool's two).
{
	head -1 "$here/report-test/judge.tsv"
	printf 'conn_rate\ttern-nat64\t6to4\t20000\t1\t90000\tsessions/s\n'
	printf 'conn_rate\tjool-nat64\t6to4\t20000\t1\t30000\tsessions/s\n'
	printf 'conn_rate\tjool-nat64\t6to4\t20000\t2\t31000\tsessions/s\n'
} >"$tmp/judge-one.tsv"
$py "$here/judge.py" "$tmp/judge-one.tsv" >"$tmp/judge-one.md"
grep -q '^| connection establishment ≥ 2 × Jool | tern-nat64 / jool-nat64, 6→4, 20000 | 2.95 | 2.90 | ≥ 2.00 | inside the spread |$' "$tmp/judge-one.md" ||
	{ echo "FAIL  judge.py: one figure on a side judged met"; exit 1; }
echo "ok    judge.py: a side of one figure is inside the spread at best"
# 10M over 10k with a 10k repetition the generator set: the 10k rate is
# then a lower bound, the ratio only a bound: not judged.
{
	head -1 "$here/report-test/judge.tsv"
	for r in 1:0 2:1; do
		printf 'tput_sessions\ttern-nat64\t6to4\t10000\t%s\t100000\tpps\n' "${r%:*}"
		printf 'tput_sessions_gen_bound\ttern-nat64\t6to4\t10000\t%s\t%s\tflag\n' "${r%:*}" "${r#*:}"
		printf 'tput_sessions\ttern-nat64\t6to4\t10000000\t%s\t95000\tpps\n' "${r%:*}"
		printf 'tput_sessions_gen_bound\ttern-nat64\t6to4\t10000000\t%s\t0\tflag\n' "${r%:*}"
	done
} >"$tmp/judge-10m.tsv"
$py "$here/judge.py" "$tmp/judge-10m.tsv" >"$tmp/judge-10m.md"
grep -q '^| 10M sessions ≥ 0.9 × 10k | tern-nat64, 10000000 / 10000 sessions | - | - | ≥ 0.90 | not judged |$' "$tmp/judge-10m.md" ||
	{ echo "FAIL  judge.py: 10M over a generator-set 10k judged"; exit 1; }
sed 's/\t2\t1\tflag$/\t2\t0\tflag/' "$tmp/judge-10m.tsv" >"$tmp/judge-10m-ok.tsv"
$py "$here/judge.py" "$tmp/judge-10m-ok.tsv" >"$tmp/judge-10m-ok.md"
grep -q '^| 10M sessions ≥ 0.9 × 10k | tern-nat64, 10000000 / 10000 sessions | 0.95 | 0.95 | ≥ 0.90 | met |$' "$tmp/judge-10m-ok.md" ||
	{ echo "FAIL  judge.py: 10M over 10k not judged without the generator"; exit 1; }
sed 's/\t95000\tpps$/\t80000\tpps/' "$tmp/judge-10m.tsv" >"$tmp/judge-10m-miss.tsv"
$py "$here/judge.py" "$tmp/judge-10m-miss.tsv" >"$tmp/judge-10m-miss.md"
grep -q '^| 10M sessions ≥ 0.9 × 10k | tern-nat64, 10000000 / 10000 sessions | 0.80 | 0.80 | ≥ 0.90 | not met |$' "$tmp/judge-10m-miss.md" ||
	{ echo "FAIL  judge.py: 10M below 0.9 x a generator-set 10k not a miss"; exit 1; }
echo "ok    judge.py: 10M over 10k not judged when the generator set a 10k repetition, unless it misses anyway"
# One BIB entry: repetitions paired by their number (rep 1 lacks its
# 65,535 figure), a window the generator set (rep 3's one-session window
# received all it was offered) left out with its repetition: judged on
# rep 2 alone, 6000/5000 = 1.20, one figure: inside the spread.
{
	head -1 "$here/report-test/judge.tsv"
	printf 'one_entry_insns\ttern-nat64\t4to6\t1\t1\t7000\tinsns\n'
	printf 'one_entry_insns\ttern-nat64\t4to6\t1\t2\t6000\tinsns\n'
	printf 'one_entry_insns\ttern-nat64\t4to6\t65535\t2\t5000\tinsns\n'
	printf 'one_entry_insns\ttern-nat64\t4to6\t1\t3\t9000\tinsns\n'
	printf 'one_entry_insns\ttern-nat64\t4to6\t65535\t3\t3000\tinsns\n'
} >"$tmp/judge-entry.tsv"
{
	printf 'phase\tsystem\tdirection\tflows\trep\twindow_ns\toffered\toffered_pps\treceived\treceived_pps\tbusy_ns\tns_per_packet\n'
	for w in 1:1:1000:600 1:2:1000:600 65535:2:1000:600 1:3:1000:1000 65535:3:1000:600; do
		IFS=: read -r f n o v <<<"$w"
		printf 'entry\ttern-nat64\t4to6\t%s\t%s\t1000000000\t%s\t0\t%s\t0\t1000000000\t5000\n' "$f" "$n" "$o" "$v"
	done
} >"$tmp/judge-entry-raw.tsv"
$py "$here/judge.py" "$tmp/judge-entry.tsv" "$tmp/judge-entry-raw.tsv" >"$tmp/judge-entry.md"
grep -q '^| one BIB entry: 65,535 sessions ≥ 0.9 × 1 session | tern-nat64, 65535 sessions / 1 | 1.20 | 1.20 | ≥ 0.90 | inside the spread |$' "$tmp/judge-entry.md" ||
	{ echo "FAIL  judge.py: one-entry repetitions not paired by number or the generator's window kept"; exit 1; }
echo "ok    judge.py: one BIB entry paired by repetition, windows the generator set left out"
# With raw.tsv, a pair whose window the generator set (received >= 99 % of
# what it offered: forwarding's in rep 2, given in either order; in rep 3
# one of Tern's two windows, `pairpart`, though its side's sum, `pair`,
# received 98 %) is left out: the cell is judged on rep 1 alone (0.80,
# not met), not on the median of the three (0.95, met).
{
	head -1 "$here/report-test/judge.tsv"
	for r in 1:0.800 2:0.950 3:1.000; do
		printf 'capacity_vs_fwd\ttern-siit\t6to4\t1\t%s\t%s\tx\n' "${r%:*}" "${r#*:}"
	done
} >"$tmp/judge-gen.tsv"
{
	printf 'phase\tsystem\tdirection\tflows\trep\twindow_ns\toffered\toffered_pps\treceived\treceived_pps\tbusy_ns\tns_per_packet\n'
	w() { printf '%s\t%s\t6to4\t1\t%s\t1000000000\t%s\t0\t%s\t0\t1000000000\t5000\n' "${p:-pair}" "$@"; }
	w fwd 1 1000 900; w tern-siit 1 1000 800
	w tern-siit 2 1000 800; w fwd 2 1000 990
	p=pairpart w fwd 3 500 450; p=pairpart w tern-siit 3 500 495
	p=pairpart w tern-siit 3 500 485; p=pairpart w fwd 3 500 450
	w fwd 3 1000 900; w tern-siit 3 1000 980
} >"$tmp/judge-gen-raw.tsv"
$py "$here/judge.py" "$tmp/judge-gen.tsv" "$tmp/judge-gen-raw.tsv" >"$tmp/judge-gen.md"
grep -q '^| SIIT ≥ 0.9 × forwarding | tern-siit, 6→4, 1 | 0.80 | 0.80 | ≥ 0.90 | not met |$' "$tmp/judge-gen.md" &&
	grep -q '^Pairs left out (.*): 2 of 3\.$' "$tmp/judge-gen.md" ||
	{ echo "FAIL  judge.py: pairs the generator set not left out"; exit 1; }
$py "$here/judge.py" "$tmp/judge-gen.tsv" >"$tmp/judge-gen-all.md"
grep -q '^| SIIT ≥ 0.9 × forwarding | tern-siit, 6→4, 1 | 0.95 | 0.80 | ≥ 0.90 | inside the spread |$' "$tmp/judge-gen-all.md" ||
	{ echo "FAIL  judge.py: without raw.tsv every pair counts"; exit 1; }
echo "ok    judge.py: with raw.tsv, pairs whose window the generator set are left out"
# A cell whose every pair was left out is still a cell: not judged, and
# the target met only where judged (4->6 met, 6->4 all the generator's).
{
	cat "$tmp/judge-gen.tsv"
	for r in 1:0.950 2:0.960; do
		printf 'capacity_vs_fwd\ttern-siit\t4to6\t1\t%s\t%s\tx\n' "${r%:*}" "${r#*:}"
	done
} | grep -v '	6to4	1	1	' >"$tmp/judge-left.tsv"
{
	cat "$tmp/judge-gen-raw.tsv"
	for n in 1 2; do
		printf 'pair\t%s\t4to6\t1\t%s\t1000000000\t1000\t0\t800\t0\t1000000000\t5000\n' fwd $n tern-siit $n
	done
} >"$tmp/judge-left-raw.tsv"
$py "$here/judge.py" "$tmp/judge-left.tsv" "$tmp/judge-left-raw.tsv" >"$tmp/judge-left.md"
grep -q '^| SIIT ≥ 0.9 × forwarding | tern-siit, 6→4, 1 | - | - | ≥ 0.90 | not judged |$' "$tmp/judge-left.md" &&
	grep -q '^| SIIT ≥ 0.9 × forwarding | .* | tern-siit, 4→6, 1 | 0.95 | 0.95 | \*\*met where judged\*\* (1 of 1; 1 not judged) |$' "$tmp/judge-left.md" ||
	{ echo "FAIL  judge.py: a cell left out whole not reported"; exit 1; }
# The control's table too (every fwd-xl pair of 6->4 left out).
sed 's/tern-siit/fwd-xl/' "$tmp/judge-left.tsv" | sed 's/^capacity_vs_fwd\t/added_ns\t/' >"$tmp/judge-ctl.tsv"
sed 's/^added_ns\t/pair_fwd_ns\t/' "$tmp/judge-ctl.tsv" | tail -n +2 >>"$tmp/judge-ctl.tsv"
sed 's/tern-siit/fwd-xl/' "$tmp/judge-left-raw.tsv" >"$tmp/judge-ctl-raw.tsv"
$py "$here/judge.py" "$tmp/judge-ctl.tsv" "$tmp/judge-ctl-raw.tsv" >"$tmp/judge-ctl.md"
grep -q '^| 6→4, 1 | 0 | - | - | - |$' "$tmp/judge-ctl.md" ||
	{ echo "FAIL  judge.py: the control's cell left out whole not shown"; exit 1; }
echo "ok    judge.py: a cell whose every pair was left out is reported not judged"
# With CPU 1's instructions in the run (capacity_vs_fwd_insns), the pair
# targets are judged on them, and on the host's CPU time and the guest's
# busy time in tables of their own after the rest; without the
# instructions, on the host's CPU time.
{
	head -1 "$here/report-test/judge.tsv"
	for r in 1:0.80:0.95:0.92 2:0.82:0.96:0.93 3:0.81:0.97:0.94; do
		IFS=: read -r n g h i <<<"$r"
		printf 'capacity_vs_fwd\ttern-siit\t6to4\t1\t%s\t%s\tx\n' "$n" "$g"
		printf 'capacity_vs_fwd_host\ttern-siit\t6to4\t1\t%s\t%s\tx\n' "$n" "$h"
		printf 'capacity_vs_fwd_insns\ttern-siit\t6to4\t1\t%s\t%s\tx\n' "$n" "$i"
	done
} >"$tmp/judge-insn.tsv"
cell='^| SIIT ≥ 0.9 × forwarding | tern-siit, 6→4, 1 |'
$py "$here/judge.py" "$tmp/judge-insn.tsv" >"$tmp/judge-insn.md"
sed '/^### Control/q; /^### The pair targets/q' "$tmp/judge-insn.md" |
	grep -q "$cell 0.93 | 0.92 | ≥ 0.90 | met |\$" &&
	sed -n '/^### The pair targets on the host/,/^### The pair targets on CPU 1.s busy/p' "$tmp/judge-insn.md" |
	grep -q "$cell 0.96 | 0.95 | ≥ 0.90 | met |\$" &&
	sed -n '/^### The pair targets on CPU 1.s busy time in the guest/,$p' "$tmp/judge-insn.md" |
	grep -q "$cell 0.81 | 0.80 | ≥ 0.90 | not met |\$" ||
	{ echo "FAIL  judge.py: the pair targets not judged on the instructions, the host's and guest's times beside"; exit 1; }
grep -v '_insns' "$tmp/judge-insn.tsv" >"$tmp/judge-host.tsv"
$py "$here/judge.py" "$tmp/judge-host.tsv" >"$tmp/judge-host.md"
sed '/^### Control/q; /^### The pair targets/q' "$tmp/judge-host.md" |
	grep -q "$cell 0.96 | 0.95 | ≥ 0.90 | met |\$" ||
	{ echo "FAIL  judge.py: without instructions, the pair targets not judged on the host's CPU time"; exit 1; }
echo "ok    judge.py: pair targets judged on CPU 1's instructions (else the host's CPU time), the other measures beside"
# With the TCP transfers in instructions (tcp_bytes_per_kinsn), the TCP
# target is judged on them (met here), and on Mbit/s (not met here) in a
# table of its own after, not judged.
{
	head -1 "$here/report-test/judge.tsv"
	for r in 1:800:100:95 2:500:101:96 3:900:99:97; do
		IFS=: read -r n f b t <<<"$r"
		printf 'tcp_throughput\tfwd\t6to4\t1\t%s\t%s\tMbit/s\n' "$n" "$f"
		printf 'tcp_throughput\ttern-siit\t6to4\t1\t%s\t%s\tMbit/s\n' "$n" $((f * 7 / 10))
		printf 'tcp_bytes_per_kinsn\tfwd\t6to4\t1\t%s\t%s\tB/kinsn\n' "$n" "$b"
		printf 'tcp_bytes_per_kinsn\ttern-siit\t6to4\t1\t%s\t%s\tB/kinsn\n' "$n" "$t"
	done
} >"$tmp/judge-tcp.tsv"
$py "$here/judge.py" "$tmp/judge-tcp.tsv" >"$tmp/judge-tcp.md"
tcp='^| single-flow TCP ≥ 0.9 × forwarding | tern-siit / fwd, 6→4, 1 |'
sed '/^### Single-flow TCP in Mbit/q' "$tmp/judge-tcp.md" |
	grep -q "$tcp 0.96 | 0.94 | ≥ 0.90 | met |\$" &&
	sed -n '/^### Single-flow TCP in Mbit/,$p' "$tmp/judge-tcp.md" |
	grep -q "$tcp 0.70 | 0.39 | ≥ 0.90 | not met |\$" ||
	{ echo "FAIL  judge.py: single-flow TCP not judged on instructions, Mbit/s beside"; exit 1; }
echo "ok    judge.py: single-flow TCP judged on bytes per instruction, Mbit/s shown beside"
# A complete smoke file: every MUST metric for both systems, the paired
# figures of the Tern one (its added cost below 0: a difference may be),
# all above 0; its raw.tsv beside it, with a window of each system in the
# main part and in the pairs.
{
	printf 'metric\tsystem\tdirection\tflows\trep\tvalue\tunit\n'
	printf 'capacity_vs_fwd\ttern-siit\t6to4\t1\t1\t0.8\tx\n'
	printf 'added_ns\ttern-siit\t6to4\t1\t1\t-3\tns\n'
	printf 'capacity_vs_fwd\tfwd-xl\t6to4\t1\t1\t1.01\tx\n'
	printf 'added_ns\tfwd-xl\t6to4\t1\t1\t-1\tns\n'
	printf 'capacity_vs_fwd_host\ttern-siit\t6to4\t1\t1\t0.9\tx\n'
	printf 'added_host_ns\ttern-siit\t6to4\t1\t1\t2\tns\n'
	printf 'capacity_vs_fwd_host\tfwd-xl\t6to4\t1\t1\t0.99\tx\n'
	printf 'added_host_ns\tfwd-xl\t6to4\t1\t1\t-2\tns\n'
	printf 'capacity_vs_fwd_insns\ttern-siit\t6to4\t1\t1\t0.9\tx\n'
	printf 'added_insns\ttern-siit\t6to4\t1\t1\t300\tinsns\n'
	printf 'capacity_vs_fwd_insns\tfwd-xl\t6to4\t1\t1\t1.0\tx\n'
	printf 'added_insns\tfwd-xl\t6to4\t1\t1\t-3\tinsns\n'
	for s in fwd tern-siit; do
		for m in xl_ns_per_packet tput_zero_loss tput_overload tcp_throughput \
			tcp_bytes_per_kinsn rtt_median; do
			printf '%s\t%s\t6to4\t1\t1\t5\tx\n' $m $s
		done
	done
} >"$tmp/ok.tsv"
{
	printf 'phase\tsystem\tdirection\tflows\trep\twindow_ns\toffered\toffered_pps\treceived\treceived_pps\tbusy_ns\tns_per_packet\thost_window_ns\thost_busy_ns\thost_wait_ns\thost_ns_per_packet\tinsns\tinsns_per_packet\n'
	for w in main:fwd main:tern-siit pair:fwd pair:tern-siit pair:fwd-xl; do
		printf '%s\t%s\t6to4\t1\t1\t1000000000\t9\t9\t8\t8\t40\t5\t1000000000\t32\t1\t4\t24000\t3000\n' "${w%:*}" "${w#*:}"
	done
} >"$tmp/raw.tsv"
cp "$tmp/raw.tsv" "$tmp/raw.ok"
passes "$tmp/ok.tsv" "a complete file"
sed '$s/\t5\tx$/\t0\tx/' "$tmp/ok.tsv" >"$tmp/zero.tsv"
fails "$tmp/zero.tsv" "on a figure of 0"
grep -v '^tcp_throughput	tern-siit' "$tmp/ok.tsv" >"$tmp/miss.tsv"
fails "$tmp/miss.tsv" "on a missing metric"
grep -v '^tcp_bytes_per_kinsn	tern-siit' "$tmp/ok.tsv" >"$tmp/miss-tcp.tsv"
fails "$tmp/miss-tcp.tsv" "on a system without its TCP transfer in instructions"
grep -v '^capacity_vs_fwd' "$tmp/ok.tsv" >"$tmp/nopair.tsv"
fails "$tmp/nopair.tsv" "on a Tern system without capacity_vs_fwd"
grep -v '^added_ns' "$tmp/ok.tsv" >"$tmp/noadd.tsv"
fails "$tmp/noadd.tsv" "on a paired system without added_ns"
grep -v '^capacity_vs_fwd_host' "$tmp/ok.tsv" >"$tmp/nohost.tsv"
fails "$tmp/nohost.tsv" "on a paired system without the host's figures"
grep -v '^added_insns' "$tmp/ok.tsv" >"$tmp/noinsn.tsv"
fails "$tmp/noinsn.tsv" "on a paired system without its instructions"
# The control (forwarding paired with itself) has the pairs' figures
# only, and pairs without it are not a run's.
grep -v 'fwd-xl' "$tmp/ok.tsv" >"$tmp/nocontrol.tsv"
fails "$tmp/nocontrol.tsv" "on pairs without the control (fwd-xl)"
# A NAT64 system: every stateful figure, each one missing in turn fails.
{
	cat "$tmp/ok.tsv"
	for m in tput_zero_loss tput_overload tcp_throughput tcp_bytes_per_kinsn \
		rtt_median capacity_vs_fwd \
		added_ns capacity_vs_fwd_host added_host_ns capacity_vs_fwd_insns \
		added_insns conn_rate conn_real \
		tput_sessions teardown_seconds teardown_free_seconds \
		tput_one_entry one_entry_ratio one_entry_ns one_entry_host_ns \
		one_entry_insns \
		tput_offered tput_sessions_zero_loss conn_offered_ratio \
		tput_sessions_offered_ratio sessions_fill_rate sessions_fill_step_insns \
		sessions_fill_step_ns slab_bytes_per_session \
		slab_obj_bytes_per_session; do
		printf '%s\ttern-nat64\t6to4\t1\t1\t5\tx\n' $m
	done
	for m in conn_gen_bound tput_sessions_gen_bound \
		tput_sessions_zero_loss_gen_bound; do
		printf '%s\ttern-nat64\t6to4\t1\t1\t0\tflag\n' $m
	done
} >"$tmp/nat.tsv"
# Its stateful windows: a conn step, a tput_sessions window, a zero-loss
# trial, each with what was offered and received, and a one-entry window
# (4->6).
for p in pair conn sessions zl; do
	printf '%s\ttern-nat64\t6to4\t1\t1\t1000000000\t9\t9\t8\t8\t40\t5\t1000000000\t32\t1\t4\t24000\t3000\n' $p >>"$tmp/raw.tsv"
done
printf 'entry\ttern-nat64\t4to6\t1\t1\t1000000000\t9\t9\t8\t8\t40\t5\t1000000000\t32\t1\t4\t24000\t3000\n' >>"$tmp/raw.tsv"
passes "$tmp/nat.tsv" "a complete NAT64 system"
for m in teardown_free_seconds one_entry_ratio one_entry_ns one_entry_host_ns \
	one_entry_insns conn_gen_bound \
	conn_offered_ratio tput_sessions_gen_bound tput_sessions_offered_ratio \
	tput_sessions_zero_loss_gen_bound sessions_fill_rate \
	sessions_fill_step_insns sessions_fill_step_ns \
	slab_bytes_per_session slab_obj_bytes_per_session; do
	grep -v "^$m	tern-nat64" "$tmp/nat.tsv" >"$tmp/nat-$m.tsv"
	fails "$tmp/nat-$m.tsv" "on a NAT64 system without $m"
done
# The fill's rate and cost a session and the slab bytes a session at
# every size of tput_sessions: a second size with all of them passes, one
# without any one of them fails.
for m in tput_sessions sessions_fill_rate sessions_fill_step_insns \
	sessions_fill_step_ns slab_bytes_per_session \
	slab_obj_bytes_per_session; do
	printf '%s\ttern-nat64\t6to4\t10000000\t1\t5\tx\n' $m
done | cat "$tmp/nat.tsv" - >"$tmp/nat-2.tsv"
passes "$tmp/nat-2.tsv" "a NAT64 system with its per-size figures at two sizes"
for m in sessions_fill_rate sessions_fill_step_insns sessions_fill_step_ns \
	slab_bytes_per_session slab_obj_bytes_per_session; do
	grep -v "^$m	tern-nat64	6to4	10000000" "$tmp/nat-2.tsv" >"$tmp/nat-2-$m.tsv"
	fails "$tmp/nat-2-$m.tsv" "on a NAT64 system without $m at one of its sizes"
done
cp "$tmp/raw.tsv" "$tmp/raw.nat"
for p in conn sessions zl entry; do
	grep -v "^$p	tern-nat64" "$tmp/raw.nat" >"$tmp/raw.tsv"
	fails "$tmp/nat.tsv" "on a NAT64 system without a window of phase $p in raw.tsv"
done
cp "$tmp/raw.ok" "$tmp/raw.tsv"
grep -v '^pair	fwd' "$tmp/raw.ok" >"$tmp/raw.tsv"
fails "$tmp/ok.tsv" "on a raw.tsv without forwarding's paired window"
rm "$tmp/raw.tsv"
fails "$tmp/ok.tsv" "without raw.tsv"
cp "$tmp/raw.ok" "$tmp/raw.tsv"
# tput_zero_loss may be 0 in a cell (no loss-free rate found there), not in
# every cell of a system; a flag may be 0.
{
	cat "$tmp/ok.tsv"
	printf 'tput_zero_loss\ttern-siit\t4to6\t1\t1\t0\tpps\n'
	printf 'conn_gen_bound\ttern-siit\t6to4\t1\t1\t0\tflag\n'
} >"$tmp/some.tsv"
passes "$tmp/some.tsv" "a zero-loss rate of 0 in one cell and a flag of 0"
sed 's/^\(tput_zero_loss\ttern-siit\t6to4\t1\t1\t\)5/\10/' "$tmp/some.tsv" >"$tmp/none.tsv"
fails "$tmp/none.tsv" "on a system whose zero-loss rates are all 0"
