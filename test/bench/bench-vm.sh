#!/usr/bin/env bash
# Inside the VM (started by test/bench/bench.sh; test/in-vm.sh has loaded
# tern.ko): measures every system of BENCH_SYSTEMS in namespace xl between
# the hosts h6 and h4 (test/bench/lib-topo.sh), interleaved: repetition 1
# of every system, then repetition 2 of every system, ... Appends to
# OUTDIR/results.tsv one line per figure:
#   metric  system  direction  flows  rep  value  unit
#   tput_zero_loss  highest rate with no loss (binary search), pps
#   tput_overload   received rate while pktgen sends as fast as it can, pps
#   tput_offered    what pktgen sent meanwhile (the search's upper bound), pps
#   xl_ns_per_packet  CPU 1's busy time in the overload window (wall time
#                   less its idle time, from /proc/stat) per packet
#                   received, ns: what a packet costs where all of xl's
#                   receive work runs (and the sinks' drop, the same for
#                   every system), a figure the generator does not bound
#   tcp_throughput  one iperf3 TCP connection h6 -> h4 (client on CPU 0,
#                   server on CPU 1), Mbit/s
#   tcp_bytes_per_kinsn  the bytes it carried per 1,000 instructions of
#                   the busier vCPU in its window (QEMU's count: the rate
#                   at a constant CPU speed; none without lib-hclock.sh)
#   rtt_median, rtt_min, rtt_max   ping h6 -> h4, ms
# Directions 6to4, 4to6 and bidir (both generators at once; the figure is
# the sum of both directions); flows 1 and BENCH_FLOWS.
# Every overload window (these and the paired ones below) is also one
# line of OUTDIR/raw.tsv: phase (main or pair) system direction flows rep,
# the window's length (ns), offered (packets the generators sent in it,
# and per second), received (packets, and per second), CPU 1's busy ns
# and busy ns per packet received; then the host's view of the window
# (test/bench/lib-hclock.sh; 0 without it): its length, the CPU time the
# host gave vCPU 1's thread in it and the time that thread waited for a
# host CPU (ns), and that CPU time per packet received; the instructions
# vCPU 1 executed in it, and per packet received.
#
# Usage: bench-vm.sh OUTDIR
# Settings: BENCH_SYSTEMS ("fwd tern-siit tern-siit-eamt1 tern-siit-eamt10k
# tern-nat64 tern-siit-ipt tern-siit-iptr jool-siit jool-siit-eamt1
# jool-siit-eamt10k jool-nat64 tayga"), BENCH_REPS (1: repetitions of the
# main part, whose rates describe each system; the targets are judged on the pairs, the
# TCP repetitions and the NAT64 state part), BENCH_STEPS (3, binary search
# steps after the first trial at the overload rate), BENCH_TRIAL (2,
# seconds of traffic per trial), BENCH_SECONDS (3, overload window),
# BENCH_FLOWS (64), BENCH_TCP_SECONDS (10), BENCH_PINGS (50),
# BENCH_TCP_REPS (7: TCP and ping are cheap and the noisiest, so after
# BENCH_REPS repetitions of everything they alone are repeated, still
# interleaved, up to this many, for the systems of BENCH_TCP_SYSTEMS, "fwd
# tern-siit tern-nat64": those the single-flow TCP target compares),
# BENCH_STATE_REPS (2, repetitions of the NAT64 state part),
# BENCH_SMOKE=1 (a tiny run),
# BENCH_DIRS ("6to4 4to6 bidir"), BENCH_PERF=1 (a perf profile of both
# CPUs in every overload window, by CPU and symbol, and of each TCP run,
# by CPU, command and symbol, in OUTDIR/perf.txt), BENCH_PERF_SYMOFF=RE
# (with BENCH_PERF: samples by symbol+offset, for the symbols RE matches,
# in OUTDIR/perf-symoff.txt; objdump -d of the module reads them),
# BENCH_INSN_PROF=1 (the instructions of each overload window by kernel
# function, counted by QEMU: test/bench/insn-prof.py),
# BENCH_PAIR_SYSTEMS (every system measured but fwd), BENCH_PAIR_REPS (5,
# pairs a cell for Tern's systems), BENCH_PAIR_REPS_OTHER (3, for Jool's
# and Tayga's: their added cost is 6-10 times Tern's, so the targets that
# compare with it are far from their bounds; with 5 the defaults took
# about 4 hours, now about 2).
# tern-siit-ipt is Tern SIIT in iptables mode (tern-siit-iptl: with
# iptables-legacy; tern-siit-iptr: legacy, raw table, the cheapest rule
# framework, measured by default beside the judged tern-siit-ipt;
# tern-siit-ipt0: a rule without -i), tern-siit-eamt1/-eamt10k
# Tern SIIT with an EAMT of 1 and 10,000 entries (test/bench/systems.sh).
#
# Paired capacity (after the rest): for each system of BENCH_PAIR_SYSTEMS,
# each direction and flow count, each of BENCH_PAIR_REPS repetitions, the
# system set up in xl and forwarding in xlf (lib-topo.sh) measured in
# turns: BENCH_PAIR_ROUNDS (2) rounds of one overload window each of
# BENCH_PAIR_SECONDS (1.5) seconds, forwarding's first in every other round
# (ABBA: a change of the host's speed during the pair costs both alike;
# which goes first alternates from pair to pair). Each window is a line of
# raw.tsv (phase pairpart), each side's sums one more (phase pair), and:
#   pair_fwd_ns     forwarding's busy ns per packet over its windows, ns
#   pair_ns         the system's, ns
#   capacity_vs_fwd pair_fwd_ns / pair_ns: the system's capacity against
#                   forwarding's, measured in the same seconds (what the
#                   targets are judged on: the median of the pairs)
#   added_ns        pair_ns - pair_fwd_ns: the cost the system adds to a
#                   packet over forwarding it, ns (may be below 0 in a
#                   pair when the host's speed changed between windows)
#   pair_fwd_insns, pair_insns, capacity_vs_fwd_insns, added_insns
#                   the same four of the instructions vCPU 1 executed per
#                   packet received (QEMU counts them, lib-hclock.sh): the
#                   host's speed changes from second to second, the
#                   instructions a packet costs do not
#   pair_fwd_host_ns, pair_host_ns, capacity_vs_fwd_host, added_host_ns
#                   the same four of the host's CPU time of vCPU 1 instead
#                   of CPU 1's busy time in the guest: without the time
#                   the host did not run vCPU 1 (lib-hclock.sh)
# The control (unless BENCH_PAIR_CONTROL=0): forwarding paired with
# itself, as system fwd-xl (the same routes set up in xl), BENCH_PAIR_REPS
# pairs a cell, first in every repetition: what two identical systems
# differ by in this method on this host, the spread any other system's
# figures carry.
set -euo pipefail
outdir=$1
# The generators busy CPU 0 and xl's receive work CPU 1: this script (and
# what it starts) gets ahead of them when it has something to do, so that
# its windows end on time.
renice -n -10 -p $$ >/dev/null 2>&1 || true
top=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=test/bench/lib-topo.sh
. "$top/test/bench/lib-topo.sh"
# shellcheck source=test/bench/lib-hclock.sh
. "$top/test/bench/lib-hclock.sh"
if [ -n "${BENCH_SMOKE:-}" ]; then
	: "${BENCH_SYSTEMS:=fwd tern-siit tern-siit-eamt1 tern-nat64 tern-siit-ipt}"
	: "${BENCH_REPS:=1}"
	: "${BENCH_STEPS:=2}" "${BENCH_TRIAL:=0.5}" "${BENCH_SECONDS:=1}"
	: "${BENCH_FLOWS:=16}" "${BENCH_TCP_SECONDS:=1}" "${BENCH_PINGS:=5}"
	: "${BENCH_TCP_REPS:=1}" "${BENCH_PAIR_REPS:=1}" "${BENCH_PAIR_REPS_OTHER:=1}"
	: "${BENCH_PAIR_SECONDS:=0.5}"
	pair_cells="6to4:1 4to6:$BENCH_FLOWS"
	# Each direction once, each number of flows at least once: every
	# figure of the main part, in half its windows.
	main_cells="6to4:1 4to6:$BENCH_FLOWS bidir:$BENCH_FLOWS"
fi
systems=${BENCH_SYSTEMS:-fwd tern-siit tern-siit-eamt1 tern-siit-eamt10k tern-nat64 tern-siit-ipt tern-siit-iptr jool-siit jool-siit-eamt1 jool-siit-eamt10k jool-nat64 tayga}
reps=${BENCH_REPS:-1}
tcp_reps=${BENCH_TCP_REPS:-7}
tcp_systems=" ${BENCH_TCP_SYSTEMS:-fwd tern-siit tern-nat64} "
steps=${BENCH_STEPS:-3}
trial_s=${BENCH_TRIAL:-2}
secs=${BENCH_SECONDS:-3}
NFLOWS=${BENCH_FLOWS:-64}
tcp_s=${BENCH_TCP_SECONDS:-10}
pings=${BENCH_PINGS:-50}
pair_reps=${BENCH_PAIR_REPS:-3}
pair_reps_other=${BENCH_PAIR_REPS_OTHER:-2}
pair_rounds=${BENCH_PAIR_ROUNDS:-2}
pair_secs=${BENCH_PAIR_SECONDS:-1.5}
# pair_reps_of SYSTEM: the pairs a cell of SYSTEM.
pair_reps_of() { case $1 in tern-* | fwd-xl) echo "$pair_reps" ;; *) echo "$pair_reps_other" ;; esac; }
warm=0.5
# The cells (DIR:FLOWS) of the main part and of the pairs: every
# direction with 1 flow and with NFLOWS unless the smoke chose fewer.
all_cells=
for dir in ${BENCH_DIRS:-6to4 4to6 bidir}; do
	all_cells+=" $dir:1 $dir:$NFLOWS"
done
main_cells=${main_cells:-$all_cells}
pair_cells=${pair_cells:-$all_cells}
# shellcheck source=test/bench/systems.sh
. "$top/test/bench/systems.sh"
tsv=$outdir/results.tsv
mkdir -p "$outdir"
[ -s "$tsv" ] || printf 'metric\tsystem\tdirection\tflows\trep\tvalue\tunit\n' >"$tsv"
raw=$outdir/raw.tsv
[ -s "$raw" ] || printf 'phase\tsystem\tdirection\tflows\trep\twindow_ns\toffered\toffered_pps\treceived\treceived_pps\tbusy_ns\tns_per_packet\thost_window_ns\thost_busy_ns\thost_wait_ns\thost_ns_per_packet\tinsns\tinsns_per_packet\n' >"$raw"

cleanup() {
	local ns
	for ns in h6 h4; do nsx "$ns" sh -c "echo stop >$PG/pgctrl" 2>/dev/null || true; done
	wait 2>/dev/null || true
	[ -s "$tayga_dir/pid" ] && kill "$(cat "$tayga_dir/pid")" 2>/dev/null
	topo_down
}
trap cleanup EXIT

emit() {	# METRIC SYSTEM DIRECTION FLOWS REP VALUE UNIT
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$tsv"
	say "$1 $2 $3 flows=$4 rep=$5: $6 $7"
}

# raw PHASE SYSTEM DIRECTION FLOWS REP: the last overload window's line of
# raw.tsv (what was offered and received, CPU 1's busy time; the host's
# view of the window: its length, the CPU time vCPU 1's thread had and
# waited for, that time per packet received; the instructions vCPU 1
# executed, and per packet received; lib-hclock.sh).
raw() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" \
		"$ov_win" "$ov_sent" $((ov_sent * 1000000000 / ov_win)) \
		"$ov_recv" $((ov_recv * 1000000000 / ov_win)) "$ov_busy" "$ov_ns" \
		"$ov_hwin" "$ov_hbusy" "$ov_hwait" "$ov_hns" "$ov_insn" "$ov_ipp" >>"$raw"
	say "window $1 $2 $3 flows=$4 rep=$5: offered $ov_sent, received $ov_recv in $((ov_win / 1000000)) ms, CPU 1 busy $((ov_busy / 1000000)) ms, $ov_ns ns/packet; host: vCPU 1 ran $((ov_hbusy / 1000000)) ms of $((ov_hwin / 1000000)), waited $((ov_hwait / 1000000)) ms, $ov_hns ns/packet; $ov_ipp instructions/packet"
}

# pktgen: the build of test/bench/pktgen-build.sh (BENCH_PKTGEN_KO, which
# bench.sh gives), else the kernel's own (test/in-vm.sh loads that one).
if [ -n "${BENCH_PKTGEN_KO:-}" ]; then
	rmmod pktgen 2>/dev/null || true
	insmod "$BENCH_PKTGEN_KO" || { say "insmod $BENCH_PKTGEN_KO failed"; exit 1; }
else
	modinfo pktgen >/dev/null || { say "no pktgen module for $(uname -r)"; exit 1; }
	modprobe pktgen
fi
[ "$(nproc)" -ge 2 ] || { say "needs 2 CPUs (VM_CPUS=2), has $(nproc)"; exit 1; }
run=()
for s in $systems; do
	if avail "$s"; then run+=("$s"); else
		say "skipped $s: ${sys_note[$s]}"
		printf '%s\n' "$s: ${sys_note[$s]}" >>"$outdir/skipped.txt"
	fi
done
topo_up
pg_init

# gens DIR / rxs DIR: the namespaces that send / receive in direction DIR.
gens() { case $1 in 6to4) echo h6$side ;; 4to6) echo h4$side ;; *) echo h6$side h4$side ;; esac; }
rxs() { case $1 in 6to4) echo h4$side ;; 4to6) echo h6$side ;; *) echo h4$side h6$side ;; esac; }

# conf SYSTEM DIR FLOWS: the generators of DIR for SYSTEM's packets.
conf() {
	case $2 in 6to4 | bidir) pg_conf 6to4 "${sys_src6[$1]}" $DST6 "$3" ;; esac
	case $2 in 4to6 | bidir) pg_conf 4to6 $H4 "${sys_dst4[$1]}" "$3" ;; esac
}

# snap DIR: "offered received idle" so far (sums over the namespaces of
# DIR; idle: CPU 1's, see hosts_snap).
snap() { hosts_snap "$(gens "$1")" "$(rxs "$1")"; }

clk_tck=$(getconf CLK_TCK)
prof_n=0

# overload DIR [SECS]: pktgen as fast as it goes for SECS (default secs);
# sets ov_rx (received, pps, both directions summed), ov_tx (offered per generator, pps), ov_ns
# (CPU 1's busy ns per packet received), ov_hns (the same of the host's
# CPU time of vCPU 1, lib-hclock.sh), ov_ipp (the instructions vCPU 1
# executed per packet received) and, for raw.tsv, ov_win (the window,
# ns), ov_sent and ov_recv (packets), ov_busy (ns), ov_hwin, ov_hbusy and
# ov_hwait (the host's window, vCPU 1's run and wait time in it, ns) and
# ov_insn (vCPU 1's instructions in it).
overload() {
	local dir=$1 secs=${2:-$secs} ns t0 t1 a0 b0 a1 b1 n i0 i1 busy m0 r0 w0 x0
	n=$(gens "$dir" | wc -w)
	for ns in $(gens "$dir"); do nsx "$ns" sh -c "echo start >$PG/pgctrl" & done
	sleep $warm
	[ -n "${BENCH_INSN_PROF:-}" ] && prof_n=$((prof_n + 1))
	hclock ${BENCH_INSN_PROF:+"prof w$prof_n-0"}
	m0=$hc_mono r0=$hc_run w0=$hc_wait x0=$hc_insn
	t0=$(now); read -r a0 b0 i0 < <(snap "$dir")
	if [ -n "${BENCH_PERF:-}" ]; then
		# cpu-clock samples (no PMU under emulation) of both CPUs.
		perf record -q -e cpu-clock -C 0,1 -o /tmp/bench-perf.data -- sleep "$secs" >/dev/null 2>&1
	else
		sleep "$secs"
	fi
	hclock ${BENCH_INSN_PROF:+"prof w$prof_n-1"}
	t1=$(now); read -r a1 b1 i1 < <(snap "$dir")
	for ns in $(gens "$dir"); do nsx "$ns" sh -c "echo stop >$PG/pgctrl"; done
	wait || true
	sleep 0.3
	ov_rx=$(((b1 - b0) * 1000000000 / (t1 - t0)))
	ov_tx=$(((a1 - a0) * 1000000000 / (t1 - t0) / n))
	busy=$((t1 - t0 - (i1 - i0) * 1000000000 / clk_tck))
	((busy > 0)) || busy=0
	ov_ns=0
	((b1 > b0)) && ov_ns=$((busy / (b1 - b0)))
	ov_win=$((t1 - t0)) ov_sent=$((a1 - a0)) ov_recv=$((b1 - b0)) ov_busy=$busy
	ov_hwin=$((hc_mono - m0)) ov_hbusy=$((hc_run - r0)) ov_hwait=$((hc_wait - w0)) ov_hns=0
	ov_insn=$((hc_insn - x0)) ov_ipp=0
	((b1 > b0)) && ov_hns=$((ov_hbusy / (b1 - b0))) ov_ipp=$((ov_insn / (b1 - b0)))
	if [ -n "${BENCH_INSN_PROF:-}" ]; then
		# The window's profile, and where the kernel's symbols are:
		# the modules' each window (BENCH_ALT_KO loads another tern.ko
		# elsewhere).
		hclock_prof_row "$outdir" "w$prof_n" "${cur// /_}" "$dir" "$ov_recv" "$ov_insn"
	fi
	[ -n "${BENCH_PERF:-}" ] || return 0
	perf report -q -i /tmp/bench-perf.data --stdio --sort cpu,sym --percent-limit 0.3 \
		2>/dev/null | grep . | sed "s/^/$cur $dir $ov_rx pps: /" >>"$outdir/perf.txt" || true
	[ -n "${BENCH_PERF_SYMOFF:-}" ] || return 0
	perf script -i /tmp/bench-perf.data -F ip,sym,symoff 2>/dev/null |
		awk -v re="$BENCH_PERF_SYMOFF" '$2 ~ re { n[$2]++ } END { for (s in n) print n[s], s }' |
		sort -rn | sed "s/^/$cur $dir $ov_rx pps: /" >>"$outdir/perf-symoff.txt" || true
}

# trial DIR RATE: each generator of DIR sends RATE pps for trial_s seconds
# (a fixed count); true when every packet sent arrived. Sets tr_rate to
# the rate each generator achieved (pps): pktgen falls short of RATE when
# it cannot keep up, and a zero-loss figure is what was really offered.
trial() {
	local dir=$1 rate=$2 ns cnt a0 b0 a1 b1 t0 t1 n
	cnt=$(awk -v r="$rate" -v t="$trial_s" 'BEGIN { printf "%d", r * t + 1 }')
	n=$(gens "$dir" | wc -w)
	for ns in $(gens "$dir"); do
		pgset "$ns" eth0 "count $cnt" "ratep $rate"
	done
	read -r a0 b0 _ < <(snap "$dir")
	t0=$(now)
	for ns in $(gens "$dir"); do nsx "$ns" sh -c "echo start >$PG/pgctrl" & done
	wait || true
	t1=$(now)
	sleep 0.3
	read -r a1 b1 _ < <(snap "$dir")
	# pktgen's own figure (packets over its own run time), else ours.
	tr_rate=0
	for ns in $(gens "$dir"); do
		tr_rate=$((tr_rate + $(pg_pps "$ns")))
	done
	tr_rate=$((tr_rate / n))
	[ "$tr_rate" -gt 0 ] || tr_rate=$(((a1 - a0) * 1000000000 / (t1 - t0) / n))
	[ "$tr_rate" -le "$rate" ] || tr_rate=$rate
	say "  trial $dir $rate pps/generator: sent $((a1 - a0)) (achieved $tr_rate pps/generator), received $((b1 - b0))"
	[ $((b1 - b0)) -ge $((a1 - a0)) ] && [ $((a1 - a0)) -gt 0 ]
}

# throughput SYSTEM DIR FLOWS REP: the overload rate, then the binary
# search between 0 and what pktgen offered at overload. When the system
# received less than half of that, a first trial at twice what it
# received sets the interval (below it if it lost, above it if not): a
# system that passes a small part of the offered load (Tayga) would
# otherwise have the search end above what it can pass and find no rate
# (0) though it has one.
throughput() {
	local s=$1 dir=$2 flows=$3 rep=$4 lo=0 lo_rate=0 hi mid i n
	cur="$s $flows"
	conf "$s" "$dir" "$flows"
	overload "$dir"
	raw main "$s" "$dir" "$flows" "$rep"
	emit tput_overload "$s" "$dir" "$flows" "$rep" "$ov_rx" pps
	# What pktgen could offer: a zero-loss rate as high is the generator's
	# limit, not the system's.
	emit tput_offered "$s" "$dir" "$flows" "$rep" $((ov_tx * $(gens "$dir" | wc -w))) pps
	emit xl_ns_per_packet "$s" "$dir" "$flows" "$rep" "$ov_ns" ns
	hi=$ov_tx
	n=$(gens "$dir" | wc -w)
	mid=$((2 * ov_rx / n))
	if ((mid > 0 && mid < hi)); then
		if trial "$dir" "$mid"; then
			lo=$mid lo_rate=$tr_rate
		else
			hi=$mid
		fi
	fi
	if ((hi == ov_tx)) && trial "$dir" "$hi"; then
		lo=$hi lo_rate=$tr_rate
	else
		for ((i = 0; i < steps; i++)); do
			mid=$(((lo + hi) / 2))
			if trial "$dir" "$mid"; then
				lo=$mid lo_rate=$tr_rate
			else
				hi=$mid
			fi
		done
	fi
	# The rate achieved by the best trial without loss (not its target).
	emit tput_zero_loss "$s" "$dir" "$flows" "$rep" $((lo_rate * $(gens "$dir" | wc -w))) pps
}

# NAT64: the sessions of every flow first (6->4, each port in turn, slowly),
# so that the 4->6 packets find them and the measured 6->4 packets too.
preliminary() {
	conf "$1" 6to4 "seq$NFLOWS"
	pgset h6 eth0 "count $((NFLOWS * 2))" "ratep 2000"
	nsx h6 sh -c "echo start >$PG/pgctrl"
	sleep 0.3
}

# xl_packets: "into v6 out of v4", packets so far (a super-packet counts once).
xl_packets() {
	nsx xl cat /sys/class/net/v6/statistics/rx_packets /sys/class/net/v4/statistics/tx_packets |
		paste -sd' '
}

# tcp SYSTEM REP: one iperf3 TCP connection from h6 to h4. The client is
# pinned to CPU 0 (the generators') and the server to CPU 1 (xl's receive
# work), for every system: unpinned, the scheduler's placement decided the
# figure (the same system gave about 550 or about 870 Mbit/s from one
# transfer to the next), and with the server beside xl's work what a
# packet costs the translator is on the transfer's critical CPU.
tcp() {
	local s=$1 rep=$2 pid v perf_pid rx0 tx0 rx1 tx1 json bytes i0 i1 k
	nsx h4 taskset -c 1 iperf3 -s -1 >/dev/null 2>&1 &
	pid=$!
	sleep 0.5
	if [ -n "${BENCH_PERF:-}" ]; then
		# Both CPUs, from the second second of the transfer to the end.
		(sleep 1; perf record -q -e cpu-clock -a -o /tmp/bench-tcp.data -- \
			sleep $((tcp_s > 2 ? tcp_s - 2 : 1)) >/dev/null 2>&1) &
		perf_pid=$!
		read -r rx0 tx0 < <(xl_packets)
	fi
	hclock
	i0=$hc_insn0 i1=$hc_insn
	json=$(nsx h6 taskset -c 0 timeout $((tcp_s + 20)) iperf3 -c $DST6 -B "${sys_src6[$s]}" -t "$tcp_s" -J 2>/dev/null)
	hclock
	read -r v bytes < <(/usr/bin/python3 -c 'import json, sys
try:
    r = json.loads(sys.argv[1])["end"]["sum_received"]
    print("%.1f %d" % (r["bits_per_second"] / 1e6, r["bytes"]))
except Exception:
    print("0 0")' "$json") || v=0 bytes=0
	kill $pid 2>/dev/null || true
	wait $pid 2>/dev/null || true
	if [ -n "${BENCH_PERF:-}" ]; then
		wait "$perf_pid" 2>/dev/null || true
		read -r rx1 tx1 < <(xl_packets)
		echo "$s tcp rep $rep $v Mbit/s: packets into xl's v6 $((rx1 - rx0)), out of v4 $((tx1 - tx0))" >>"$outdir/perf.txt"
		perf report -q -i /tmp/bench-tcp.data --stdio --sort cpu,comm,sym --percent-limit 0.3 \
			2>/dev/null | grep . | sed "s/^/$s tcp rep $rep $v Mbit\/s: /" >>"$outdir/perf.txt" || true
	fi
	emit tcp_throughput "$s" 6to4 1 "$rep" "$v" Mbit/s
	# The same transfer in instructions: the bytes received per 1,000
	# instructions of the busier vCPU (QEMU's count, lib-hclock.sh), the
	# rate a CPU of constant speed would carry it at, whatever the host's
	# speed did meanwhile (none without the host's counts).
	((hc_insn > 0 && bytes > 0)) || return 0
	i0=$((hc_insn0 - i0)) i1=$((hc_insn - i1))
	k=$((i0 > i1 ? i0 : i1))
	((k > 0)) && emit tcp_bytes_per_kinsn "$s" 6to4 1 "$rep" \
		"$(awk -v b="$bytes" -v k="$k" 'BEGIN { printf "%.2f", b * 1000 / k }')" B/kinsn
	say "tcp $s rep $rep: $v Mbit/s, $bytes bytes, instructions CPU 0 $i0, CPU 1 $i1"
	return 0
}

# ping SYSTEM REP: BENCH_PINGS echo requests h6 -> h4, 0.02 s apart.
rtt() {
	local s=$1 rep=$2 med mn mx
	read -r med mn mx < <(nsx h6 ping -6 -n -c "$pings" -i 0.02 -W 1 -I "${sys_src6[$s]}" $DST6 2>/dev/null |
		sed -n 's/.* time=\([0-9.]*\) ms.*/\1/p' | sort -g | awk '
		{ v[NR] = $1 }
		END { if (!NR) { print "0 0 0"; exit }
		      m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.3f %.3f %.3f\n", m, v[1], v[NR] }') || true
	emit rtt_median "$s" 6to4 1 "$rep" "${med:-0}" ms
	emit rtt_min "$s" 6to4 1 "$rep" "${mn:-0}" ms
	emit rtt_max "$s" 6to4 1 "$rep" "${mx:-0}" ms
}

# up SYSTEM WHERE: sets SYSTEM up; else takes down what it made, says so
# (and in skipped.txt, with WHERE) and fails.
up() {
	"setup_$1" && return 0
	say "$1 could not be set up ($2): skipped this time"
	printf '%s\n' "$1: setup failed in $2" >>"$outdir/skipped.txt"
	"teardown_$1" 2>/dev/null || true
	return 1
}

# measure SYSTEM REP [all]: sets SYSTEM up, measures it (everything with
# "all", else TCP and ping only) and tears it down; a system that cannot be
# set up is skipped this time (and said so in skipped.txt).
measure() {
	local s=$1 rep=$2 cell
	up "$s" "repetition $rep" || return 0
	if [ "${3:-}" = all ]; then
		sinks_drop on
		case $s in *nat64*) preliminary "$s" ;; esac
		for cell in $main_cells; do
			throughput "$s" "${cell%%:*}" "${cell#*:}" $rep
		done
		sinks_drop off
	fi
	tcp "$s" $rep
	rtt "$s" $rep
	"teardown_$s" || say "rep $rep: teardown of $s failed"
}

# pair SYSTEM DIR FLOWS REP FWD_FIRST: forwarding (in xlf) and SYSTEM (set
# up in xl, by pairs) in turns, pair_rounds rounds of two windows of
# pair_secs seconds, forwarding's first in every other round (ABBA...:
# a drift of the host's speed over the pair costs both alike), and
# forwarding's first round first when FWD_FIRST is 1. Each window is a
# line of raw.tsv (phase pairpart); the sums of each side's windows are
# the pair's two lines (phase pair, forwarding's first) and its figures.
pair() {
	local s=$1 dir=$2 flows=$3 rep=$4 r k x n f_ns=0 s_ns=0 f_hns=0 s_hns=0 f_i=0 s_i=0
	local -A w r_sent r_recv r_busy h_win h_busy h_wait h_insn
	conf "$s" "$dir" "$flows"
	side=f conf fwd "$dir" "$flows"
	for x in f s; do
		w[$x]=0 r_sent[$x]=0 r_recv[$x]=0 r_busy[$x]=0 h_win[$x]=0 h_busy[$x]=0 h_wait[$x]=0 h_insn[$x]=0
	done
	for ((r = 0; r < pair_rounds; r++)); do
		if (((r + $5) % 2)); then k="f s"; else k="s f"; fi
		for x in $k; do
			n=$s
			[ $x = f ] && n=fwd
			cur="$n $flows (pair)"
			if [ $x = f ]; then side=f overload "$dir" "$pair_secs"; else overload "$dir" "$pair_secs"; fi
			raw pairpart "$n" "$dir" "$flows" "$rep"
			w[$x]=$((w[$x] + ov_win)) r_sent[$x]=$((r_sent[$x] + ov_sent))
			r_recv[$x]=$((r_recv[$x] + ov_recv)) r_busy[$x]=$((r_busy[$x] + ov_busy))
			h_win[$x]=$((h_win[$x] + ov_hwin)) h_busy[$x]=$((h_busy[$x] + ov_hbusy))
			h_wait[$x]=$((h_wait[$x] + ov_hwait)) h_insn[$x]=$((h_insn[$x] + ov_insn))
		done
	done
	for x in f s; do
		((r_recv[$x] > 0)) || { say "pair $s $dir $flows rep $rep: no figure"; return 0; }
	done
	for x in f s; do
		n=$s
		[ $x = f ] && n=fwd
		ov_win=${w[$x]} ov_sent=${r_sent[$x]} ov_recv=${r_recv[$x]} ov_busy=${r_busy[$x]}
		ov_ns=$((ov_busy / ov_recv))
		ov_hwin=${h_win[$x]} ov_hbusy=${h_busy[$x]} ov_hwait=${h_wait[$x]}
		ov_hns=$((ov_hbusy / ov_recv)) ov_insn=${h_insn[$x]} ov_ipp=$((h_insn[$x] / ov_recv))
		raw pair "$n" "$dir" "$flows" "$rep"
		if [ $x = f ]; then
			f_ns=$ov_ns f_hns=$ov_hns f_i=$ov_ipp
		else
			s_ns=$ov_ns s_hns=$ov_hns s_i=$ov_ipp
		fi
	done
	pair_figures ns "" ns "$f_ns" "$s_ns"
	# The same of vCPU 1's instructions and of the host's CPU time of
	# vCPU 1 (none without them).
	((f_i > 0 && s_i > 0)) && pair_figures insns _insns insns "$f_i" "$s_i"
	((f_hns > 0 && s_hns > 0)) && pair_figures host_ns _host ns "$f_hns" "$s_hns"
	return 0
}

# pair_figures TAG CAP UNIT FWD SYS: a pair's four figures of one measure
# (forwarding's cost a packet FWD, the system's SYS, in UNIT; pair's s,
# dir, flows and rep): pair_fwd_TAG, pair_TAG, capacity_vs_fwdCAP and
# added_TAG (TAG ns, insns or host_ns; CAP "", _insns or _host).
pair_figures() {
	emit "pair_fwd_$1" "$s" "$dir" "$flows" "$rep" "$4" "$3"
	emit "pair_$1" "$s" "$dir" "$flows" "$rep" "$5" "$3"
	emit "capacity_vs_fwd$2" "$s" "$dir" "$flows" "$rep" \
		"$(awk -v a="$4" -v b="$5" 'BEGIN { printf "%.3f", a / b }')" x
	emit "added_$1" "$s" "$dir" "$flows" "$rep" $(($5 - $4)) "$3"
}

# pair_all SYSTEM REP J: SYSTEM set up in xl once (a NAT64 with its
# sessions), a pair in each cell of pair_cells, torn down; forwarding's
# window first in every other cell (J: the first cell's parity), so that
# the next repetition (J + 1) has it second where this one had it first.
pair_all() {
	local s=$1 rep=$2 j=$3 cell
	up "$s" "a pair" || return 0
	case $s in *nat64*) preliminary "$s" ;; esac
	for cell in $pair_cells; do
		say "pair rep $rep: $s ${cell%:*} flows=${cell#*:} (at ${SECONDS} s)"
		pair "$s" "${cell%:*}" "${cell#*:}" "$rep" $((j++ % 2))
	done
	"teardown_$s" || say "teardown of $s failed"
}

say "$(uname -r), $(nproc) CPUs, clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource), $(grep -o 'init_on_alloc=[^ ]*' /proc/cmdline || echo "init_on_alloc as built"), pktgen $(cat /sys/module/pktgen/srcversion), tern.ko $(cat /sys/module/tern/srcversion 2>/dev/null || echo none)"
say "systems: ${run[*]}; $reps repetitions (TCP and ping of$tcp_systems: $((tcp_reps > reps ? tcp_reps : reps))); search: $steps steps of ${trial_s}s; overload ${secs}s; $NFLOWS flows"
for ((rep = 1; rep <= reps; rep++)); do
	for s in "${run[@]}"; do
		say "rep $rep: $s"
		measure "$s" $rep all
	done
done
# TCP and ping only, up to BENCH_TCP_REPS repetitions in all, of the
# systems of BENCH_TCP_SYSTEMS.
for ((rep = reps + 1; rep <= tcp_reps; rep++)); do
	for s in "${run[@]}"; do
		[[ $tcp_systems == *" $s "* ]] || continue
		say "rep $rep (TCP and ping): $s"
		measure "$s" $rep
	done
done
# Paired capacity: every pair of a repetition, then the next repetition.
pairs=()
for s in ${BENCH_PAIR_SYSTEMS:-${run[*]}}; do
	[ "$s" = fwd ] && continue
	for r in "${run[@]}"; do [ "$r" = "$s" ] && pairs+=("$s"); done
done
# The control first: forwarding against itself.
if [ ${#pairs[@]} -gt 0 ] && [ "${BENCH_PAIR_CONTROL:-1}" != 0 ]; then
	pairs=(fwd-xl "${pairs[@]}")
fi
if [ ${#pairs[@]} -gt 0 ] && [[ " ${run[*]} " == *" fwd "* ]]; then
	say "paired capacity: ${pairs[*]} against fwd; $pair_reps repetitions" \
		"(not Tern's: $pair_reps_other); cells$pair_cells"
	sinks_drop on
	# Forwarding's window first in every other cell, and in the other
	# cells in the next repetition.
	maxr=$((pair_reps > pair_reps_other ? pair_reps : pair_reps_other))
	for ((rep = 1; rep <= maxr; rep++)); do
		for s in "${pairs[@]}"; do
			((rep <= $(pair_reps_of "$s"))) || continue
			pair_all "$s" "$rep" "$rep"
		done
	done
	sinks_drop off
fi
topo_down
trap - EXIT

# The stateful measurements (another script, when present) add their lines
# to the same file.
if [ -f "$top/test/bench/stateful-vm.sh" ]; then
	say "stateful measurements: test/bench/stateful-vm.sh"
	stateful=()
	for s in "${run[@]}"; do
		if [[ $s == *-nat64 ]]; then stateful+=("$s"); fi
	done
	# None asked for (stateful-vm.sh alone would measure its defaults).
	if [ ${#stateful[@]} -gt 0 ]; then
		BENCH_REPS=${BENCH_STATE_REPS:-2} \
			bash "$top/test/bench/stateful-vm.sh" "$outdir" "${stateful[@]}" || {
			say "stateful-vm.sh failed"; exit 1; }
	fi
fi
say "done: $tsv"
