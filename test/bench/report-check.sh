#!/usr/bin/env bash
# Host-only check of test/bench/report.py (make check): the table it makes
# of the fixed report-test/results.tsv must be report-test/expected.md,
# byte for byte; --check must pass on it and fail on a figure of 0, on
# a system without one of the metrics every system must have and on a
# Tern system without its paired capacity against forwarding.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
py=/usr/bin/python3
$py "$here/report.py" --no-plots "$here/report-test/results.tsv" "$tmp/a" >/dev/null
diff -u "$here/report-test/expected.md" "$tmp/a/results.md"
echo "ok    report.py: the table of report-test/results.tsv is expected.md"
# A complete smoke file: every MUST metric for both systems, the paired
# capacity of the Tern one, all above 0.
{
	printf 'metric\tsystem\tdirection\tflows\trep\tvalue\tunit\n'
	printf 'capacity_vs_fwd\ttern-siit\t6to4\t1\t1\t0.8\tx\n'
	for s in fwd tern-siit; do
		for m in tput_zero_loss tput_overload tcp_throughput rtt_median; do
			printf '%s\t%s\t6to4\t1\t1\t5\tx\n' $m $s
		done
	done
} >"$tmp/ok.tsv"
$py "$here/report.py" --check --no-plots "$tmp/ok.tsv" "$tmp/b" >/dev/null
echo "ok    report.py --check passes a complete file"
sed '$s/\t5\tx$/\t0\tx/' "$tmp/ok.tsv" >"$tmp/zero.tsv"
if $py "$here/report.py" --check --no-plots "$tmp/zero.tsv" "$tmp/c" >/dev/null 2>&1; then
	echo "FAIL  report.py --check passed a figure of 0"; exit 1
fi
echo "ok    report.py --check fails on a figure of 0"
grep -v '^tcp_throughput	tern-siit' "$tmp/ok.tsv" >"$tmp/miss.tsv"
if $py "$here/report.py" --check --no-plots "$tmp/miss.tsv" "$tmp/d" >/dev/null 2>&1; then
	echo "FAIL  report.py --check passed a system without tcp_throughput"; exit 1
fi
echo "ok    report.py --check fails on a missing metric"
grep -v '^capacity_vs_fwd' "$tmp/ok.tsv" >"$tmp/nopair.tsv"
if $py "$here/report.py" --check --no-plots "$tmp/nopair.tsv" "$tmp/g" >/dev/null 2>&1; then
	echo "FAIL  report.py --check passed a Tern system without capacity_vs_fwd"; exit 1
fi
echo "ok    report.py --check fails on a Tern system without capacity_vs_fwd"
# tput_zero_loss may be 0 in a cell (no loss-free rate found there), not in
# every cell of a system; a flag may be 0.
{
	cat "$tmp/ok.tsv"
	printf 'tput_zero_loss\ttern-siit\t4to6\t1\t1\t0\tpps\n'
	printf 'conn_gen_bound\ttern-siit\t6to4\t1\t1\t0\tflag\n'
} >"$tmp/some.tsv"
$py "$here/report.py" --check --no-plots "$tmp/some.tsv" "$tmp/e" >/dev/null
echo "ok    report.py --check passes a zero-loss rate of 0 in one cell and a flag of 0"
sed 's/^\(tput_zero_loss\ttern-siit\t6to4\t1\t1\t\)5/\10/' "$tmp/some.tsv" >"$tmp/none.tsv"
if $py "$here/report.py" --check --no-plots "$tmp/none.tsv" "$tmp/f" >/dev/null 2>&1; then
	echo "FAIL  report.py --check passed a system whose zero-loss rates are all 0"; exit 1
fi
echo "ok    report.py --check fails on a system whose zero-loss rates are all 0"
