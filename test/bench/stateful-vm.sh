#!/usr/bin/env bash
# Runs inside the VM (booted by test/bench/stateful.sh or make bench, with
# tern.ko loaded as test/in-vm.sh does): the stateful NAT64 measurements of
# the methodology of Lencse et al. (../shared/seeds/001: preliminary and
# real phase) for Tern NAT64 and Jool NAT64, interleaved (per repetition
# every system once, A B A B ...):
#
#   gen eth0 --veth-- v6 xl v4 --veth-- eth0 sink
#
# gen's .build/gen6 (test/bench/gen6.c) sends UDP/IPv6 frames (open loop,
# -o, for the rates: a frame veth refuses because xl's backlog is full is
# lost; closed loop for the fills: resent until taken) from
# 2001:db8:7::I port 4000 (I in the low 32 bits: one flow, one BIB entry
# and one session per I) to 2001:db8:64::cb00:7163 (203.0.113.99) port
# 5000; xl routes 2001:db8:7::/64 to gen (one permanent neighbour entry),
# so that replies translated 4->6 reach gen. xl has the instance (pool6
# 2001:db8:64::/96, pool4 198.18.0.0/22 ports 1024-65535 UDP, UDP sessions
# living a day). Frames are counted by tc at ingress (flower on UDP, then
# dropped) at sink (6->4) and at gen (4->6). gen6 runs on CPU 0; xl's
# receive work goes to CPU 1 (RPS on v6 and v4); xl's packets to sink and
# gen go to a NAPI ring of sink's and gen's eth0 (GRO on), not into CPU
# 1's backlog behind gen6's (see the topology below).
#
# Per repetition and system:
# 1. conn_rate: the maximum connection establishment rate (non-validated,
#    as the paper recommends after finding validation changed nothing): a
#    binary search over the offered rate R (upper end: the rate gen6 offers
#    unpaced) of CONN_N frames, each a new flow, into a fresh instance; a
#    step passes when all CONN_N frames reach sink. netdev_max_backlog
#    is set to its default 1000 for the steps (make bench's main part
#    leaves 10000), which lets a step pass up to R = C / (1 - 1000 /
#    CONN_N) for a translator of capacity C (5 % over for 20000).
# 2. conn_real: the real phase on a fresh instance: CONN_N new flows at
#    half that rate while .build/resp (test/bench/resp.c) learns the four-
#    tuples arriving at sink; then resp sends one reply per learned tuple
#    (from the server to the pool4 transport address) at half that rate;
#    the value is the fraction of CONN_N replies that arrive at gen, 4->6.
# 3. tput_sessions: the instance filled with S sessions (each S of
#    SESSIONS in turn, adding flows to the ones there), in chunks sent at
#    once into a backlog with room for them (a chunk is resent when some of
#    it did not reach sink; test/bench/stateful-scale.sh: the fill timed,
#    sessions_fill_rate, and the slab bytes a session,
#    slab_bytes_per_session and slab_obj_bytes_per_session, at each S; a
#    size that would not fit in the VM's memory is skipped, with the
#    larger ones, and said so in skipped.txt); then gen6 sends unpaced
#    over the S flows in scrambled order (gen6 -F) for TPUT_SECS + 4 s
#    and the rate received at sink over TPUT_SECS seconds, from one
#    second after the first frames arrived, is the value
#    (tput_sessions). Then the highest rate
#    without loss over those S flows (tput_sessions_zero_loss): a binary
#    search of BENCH_STEPS trials of BENCH_ZL_SECS seconds each below the
#    rate gen6 offered unpaced; a trial passes when all its frames reach
#    sink.
# 4. teardown: with the largest S in the table, the time of `tern session
#    flush --udp` (Tern) and of `jool pool4 flush` (Jool 4.1.9 has no
#    session flush; pool4 flush without --quick flushes the BIB, and the
#    sessions with it, in the same request), minus the time of the same
#    command on the emptied table (the paper's "net" deletion time);
#    teardown_rate = S / that. Tear-down is done when the memory is back,
#    not when the command returns (Tern frees its peer records after an RCU
#    grace period, a system may free in the background): from the start of
#    the same flush until the objects in use in the system's slab caches
#    (Tern: tern_session, tern_bib, tern_bib_pair, tern_peer; Jool 4.1.9: session_nodes,
#    bib_nodes) are back to their count before the fill, polled every
#    10 ms, less the same empty-table time: teardown_free_seconds, and
#    teardown_free_rate = S / that.
# 5. one_entry: the 4->6 rate to one BIB entry with 1 and with 65535
#    sessions of one IPv4 peer, their ratio, and CPU 1's busy ns a packet
#    in each (test/bench/stateful-entry.sh).
#
# Appends to OUTDIR/results.tsv (header written when the file is new):
#   metric system direction flows rep value unit
# and, per window (each conn step, each tput_sessions window, each zero-
# loss trial, each one-entry window: phases conn, sessions, zl, entry), a
# line to OUTDIR/raw.tsv in bench-vm.sh's format: what gen offered (gen's
# eth0 tx_packets + tx_dropped: what xl's full backlog refused counts as
# offered), what sink received, CPU 1's busy time (entry, 4->6: what
# gen4 offered from sink, what gen received). Beside each figure, whether
# the generator or the system set it: conn_gen_bound (1: even the unpaced
# step lost nothing, so conn_rate is gen6's rate, a lower bound) and
# conn_offered_ratio (that step's offered / received); tput_offered (what
# gen6 offered a second in the tput_sessions window),
# tput_sessions_offered_ratio (offered / received in it) and
# tput_sessions_gen_bound (1: the system received all but 1 % at most of
# it, so the generator set tput_sessions); tput_sessions_zero_loss_gen_bound
# (1: no trial lost a frame, so the search's figure is bounded by gen6's
# unpaced rate). report.py judges those figures only from the repetitions
# whose flag is 0.
# Usage: stateful-vm.sh OUTDIR [SYSTEMS...]   (tern-nat64 jool-nat64)
# Environment: BENCH_SMOKE=1 (2,000 then 10,000 sessions, one repetition),
#   BENCH_REPS (3), BENCH_CONN_N (20000), BENCH_SESSIONS
#   ("10000 100000 1000000 10000000"), BENCH_TPUT_SECS (5), BENCH_STEPS (8),
#   BENCH_CHUNK (50000), BENCH_FILL_CHUNK (500000), BENCH_ZL_SECS (2), BENCH_PERF=1 (perf profiles: of both CPUs in
#   each tput_sessions window, OUTDIR/perf-sessions-SYSTEM-S-REP.txt; of
#   the full flush of tput_teardown, perf-teardown-SYSTEM-S-REP.txt, perf's
#   own cost then in that teardown figure), BENCH_ENTRY_PORTS (65535),
#   BENCH_PARTS (the parts measured: "conn tput entry"),
#   BENCH_JOOL_MAX_SESSIONS (1000000: Jool's larger sizes are skipped),
#   BENCH_TEARDOWN_AT (1000000: a system whose table went past it is
#   filled again to it after its tear-down, and torn down again),
#   BENCH_STATE_BACKLOG (1000: netdev_max_backlog in the windows),
#   BENCH_INSN_PROF=1 (each tput_sessions window's instructions by kernel
#   function, as the main part's: insn-prof.tsv, SYSTEM@S).
set -euo pipefail
outdir=${1:?usage: stateful-vm.sh OUTDIR [SYSTEMS...]}
shift
systems=("$@")
[ ${#systems[@]} -gt 0 ] || systems=(tern-nat64 jool-nat64)
top=$(cd "$(dirname "$0")/../.." && pwd)
tern=${TERN:-$top/usr/cli/tern}
gen6=$top/.build/gen6
resp=$top/.build/resp
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	reps=1 conn_n=2000 sizes="2000 10000" tput_secs=1 steps=2 chunk=2000 zl_secs=1
else
	reps=${BENCH_REPS:-3} conn_n=${BENCH_CONN_N:-20000}
	sizes=${BENCH_SESSIONS:-10000 100000 1000000 10000000}
	tput_secs=${BENCH_TPUT_SECS:-5} steps=${BENCH_STEPS:-8}
	zl_secs=${BENCH_ZL_SECS:-2}
	chunk=${BENCH_CHUNK:-50000}
fi
jool_max=${BENCH_JOOL_MAX_SESSIONS:-1000000}
teardown_also=${BENCH_TEARDOWN_AT:-1000000}
largest=0
for s in $sizes; do ((s > largest)) && largest=$s; done

XL6_MAC=02:00:00:00:06:01 GEN_MAC=02:00:00:00:06:02
XL4_MAC=02:00:00:00:04:01 SINK_MAC=02:00:00:00:04:02
POOL6=2001:db8:64::/96 POOL4=198.18.0.0/22 SRC96=2001:db8:7::
DST4=203.0.113.99

say() { echo "stateful: $*" >&2; }
# shellcheck source=test/bench/lib-ns.sh
. "$top/test/bench/lib-ns.sh"
# shellcheck source=test/bench/lib-hclock.sh
. "$top/test/bench/lib-hclock.sh"
cleanup() {
	[ -n "${resp_pid:-}" ] && kill "$resp_pid" 2>/dev/null
	bench_netns_del gen xl sink
}
trap cleanup EXIT

for b in "$gen6" "$resp" "$top/.build/gen4"; do
	[ -x "$b" ] || { say "no $b (built by test/bench/stateful.sh --build)"; exit 1; }
done
mkdir -p "$outdir"
tsv=$outdir/results.tsv
[ -s "$tsv" ] || printf 'metric\tsystem\tdirection\tflows\trep\tvalue\tunit\n' >"$tsv"
emit() {	# METRIC SYSTEM DIRECTION FLOWS REP VALUE UNIT
	local IFS=$'\t'
	echo "$*" >>"$tsv"
	say "$*"
}
for m in sch_ingress cls_flower cls_matchall act_gact; do modprobe -q "$m" || true; done

# --- systems ------------------------------------------------------------------
have=()
for sys in "${systems[@]}"; do
	case $sys in
	tern-nat64) have+=("$sys") ;;
	jool-nat64)
		if modprobe jool 2>/dev/null; then
			have+=("$sys")
		else
			say "jool-nat64 skipped: no jool module for $(uname -r)" \
				"(test/compare/install-jool.sh builds it for Debian's 6.1)"
		fi ;;
	*) say "unknown system $sys, skipped" ;;
	esac
done
[ ${#have[@]} -gt 0 ] || { say "no system to measure"; exit 1; }

sys_up() {	# SYSTEM: a fresh instance "st" in xl
	case $1 in
	tern-nat64)
		nsx xl "$tern" instance add st --nat64 --pool6 $POOL6 >/dev/null
		nsx xl "$tern" -i st pool4 add $POOL4 1024-65535 --udp >/dev/null
		nsx xl "$tern" -i st global set max-sessions \
			$((largest + largest / 10 + conn_n + entry_ports)) >/dev/null
		nsx xl "$tern" -i st global set udp-timeout 86400 >/dev/null ;;
	jool-nat64)
		nsx xl jool instance add st --netfilter --pool6 $POOL6 >/dev/null
		nsx xl jool -i st pool4 add $POOL4 1024-65535 --udp \
			--force >/dev/null
		nsx xl jool -i st global update udp-timeout 24:00:00 >/dev/null ;;
	esac
}
sys_down() {
	case $1 in
	tern-nat64) nsx xl "$tern" instance remove st ;;
	jool-nat64) nsx xl jool instance remove st ;;
	esac
}
sys_flush() {	# the tear-down command (see above)
	case $1 in
	tern-nat64) nsx xl "$tern" -i st session flush --udp ;;
	jool-nat64) nsx xl jool -i st pool4 flush ;;
	esac
}
sys_sessions() {	# SYSTEM [EXPECTED]: the UDP session count, "-" if dear
	case $1 in
	tern-nat64) nsx xl "$tern" -i st stats --json | python3 -c \
		'import json, sys; print(json.load(sys.stdin)["tables"].get("sessions", 0))' ;;
	jool-nat64)	# a listing: not for more than 100000
		if [ "${2:-0}" -le 100000 ]; then
			nsx xl jool -i st session display --udp --numeric --csv \
				--no-headers | wc -l
		else
			echo -
		fi ;;
	esac
}

# --- topology -----------------------------------------------------------------
bench_netns gen xl sink
nsx xl sysctl -qw net.ipv6.conf.all.forwarding=1 net.ipv4.ip_forward=1
bench_veth gen $GEN_MAC xl v6 $XL6_MAC
bench_veth sink $SINK_MAC xl v4 $XL4_MAC
ip -n gen -b - <<EOT
link set lo up
addr add 2001:db8:6::2/64 dev eth0 nodad
link set eth0 up
EOT
ip -n xl -b - <<EOT
link set lo up
addr add 2001:db8:6::1/64 dev v6 nodad
addr add 203.0.113.1/24 dev v4
link set v6 up
link set v4 up
neigh replace $DST4 lladdr $SINK_MAC dev v4 nud permanent
neigh replace 2001:db8:6::2 lladdr $GEN_MAC dev v6 nud permanent
route add ${SRC96}/64 via 2001:db8:6::2 dev v6
EOT
ip -n sink -b - <<EOT
link set lo up
addr add 203.0.113.2/24 dev eth0
link set eth0 up
EOT
# Counted and dropped at ingress: UDP of the family expected (pref 1, whose
# counter is read), everything else (pref 2).
for e in sink:ip gen:ipv6; do
	tc -n "${e%:*}" qdisc add dev eth0 ingress
	tc -n "${e%:*}" filter add dev eth0 ingress pref 1 protocol "${e#*:}" \
		flower ip_proto udp action drop
	tc -n "${e%:*}" filter add dev eth0 ingress pref 2 matchall action drop
done
nsx xl sh -c 'for q in /sys/class/net/v[46]/queues/rx-*/rps_cpus; do echo 2 >$q; done'
# xl's packets to sink and to gen must not wait in CPU 1's backlog behind
# the generator's, which an open-loop generator keeps full when the
# translator is the slower: there they were refused, so that a slow
# translator's received rate collapsed under overload (Jool's to 900 pps
# out of 26k offered) and a paced trial lost translated packets to the
# generator's bursts. As in siit-pktgen-vm.sh: GRO on sink's and gen's
# eth0 gives them a veth NAPI ring each (polled on CPU 1, where xl
# sends), which veth uses for packets from a device without TSO (xl's v4
# and v6: tx checksum offload off, and with it TSO; the translated
# packets are CHECKSUM_NONE, nothing is computed for them).
ethtool_set xl v4 0x17 0
ethtool_set xl v6 0x17 0
ethtool_set sink eth0 0x2c 1
ethtool_set gen eth0 0x2c 1
# The backlog the windows run with (tput_sessions, its zero-loss trials,
# the one-entry cell): BENCH_STATE_BACKLOG, the kernel's default 1000,
# whatever ran before (make bench's main part leaves 10000). The fills and
# the connection steps set their own and come back to it.
backlog0=${BENCH_STATE_BACKLOG:-1000}
sysctl -qw net.core.netdev_max_backlog="$backlog0"

count() {	# NS [PREF]: UDP frames (pref 2: others) counted at its eth0's ingress
	tc -n "$1" -s filter show dev eth0 ingress pref "${2:-1}" |
		awk '/Sent .* pkt/ { for (i = 1; i < NF; i++) if ($(i + 1) == "pkt") { print $i; exit } }'
}
settle() {	# NS: waits until its count stops growing, prints it
	local a b
	b=$(count "$1")
	while :; do
		sleep 0.5
		a=$(count "$1")
		[ "$a" = "$b" ] && break
		b=$a
	done
	echo "$a"
}
gen() { nsx gen taskset -c 0 "$gen6" -i eth0 -m $XL6_MAC -s $SRC96 "$@"; }
# gen_stop NAME PID: stops the generator NAME (gen6, gen4: the only one
# running) started in the background as PID, which prints what it sent;
# waits for it. A window that closes after a generator's own -t would
# measure nothing, so the generators run until told.
gen_stop() {
	pkill -TERM -x "$1" || :
	wait "$2"
}
# offered [NS]: what NS (default gen) offered to xl: veth counts a frame xl's
# full backlog refused as NS's tx_dropped, not tx_packets (the system's
# loss, so offered).
offered() {
	nsx "${1:-gen}" sh -c 'cd /sys/class/net/eth0/statistics &&
		echo $(($(cat tx_packets) + $(cat tx_dropped)))'
}
# CPU 1's idle and iowait time (USER_HZ ticks).
cpu1_idle() { awk '$1 == "cpu1" { print $5 + $6 }' /proc/stat; }
clk_tck=$(getconf CLK_TCK)
# snap: "time offered received(sink) cpu1-idle host-time vcpu1-run
# vcpu1-wait vcpu1-insns" for win (6->4; the last four from the host,
# lib-hclock.sh). snap4: the same 4->6, sink's generator (gen4) offering
# and gen receiving.
snap() { hclock "${1:-}"; echo "$(now) $(offered) $(count sink) $(cpu1_idle) $hc_mono $hc_run $hc_wait $hc_insn"; }
snap4() { hclock; echo "$(now) $(offered sink) $(count gen) $(cpu1_idle) $hc_mono $hc_run $hc_wait $hc_insn"; }
# win PHASE SYSTEM FLOWS REP SNAP0 SNAP1 [WINDOW_NS]: one line of
# OUTDIR/raw.tsv (the format of bench-vm.sh's: phase system direction
# flows rep window_ns offered offered_pps received received_pps busy_ns
# ns_per_packet host_window_ns host_busy_ns host_wait_ns
# host_ns_per_packet insns insns_per_packet) for what was offered and received between the two
# snaps, and CPU 1's busy time (and the host's view, lib-hclock.sh); the
# rates over WINDOW_NS when given (a
# trial's: gen6's own run, the snaps spanning its settling too); the
# direction is win_dir's (6to4 unless set: 4to6 with snap4's). Sets
# w_off, w_recv (packets), w_off_pps, w_recv_pps, w_busy (CPU 1's busy
# ns), w_nspp (CPU 1's busy ns a packet received, ns_per_packet), w_hnspp
# (host_ns_per_packet), w_ipp (insns_per_packet), w_insn (insns).
raw=$outdir/raw.tsv
win() {
	local t0 o0 r0 i0 m0 x0 y0 z0 t1 o1 r1 i1 m1 x1 y1 z1 w busy hw hb hy hz
	read -r t0 o0 r0 i0 m0 x0 y0 z0 <<<"$5"
	read -r t1 o1 r1 i1 m1 x1 y1 z1 <<<"$6"
	w=${7:-$((t1 - t0))}
	((w > 0)) || w=1
	busy=$((t1 - t0 - (i1 - i0) * 1000000000 / clk_tck))
	((busy > 0)) || busy=0
	w_busy=$busy w_off=$((o1 - o0)) w_recv=$((r1 - r0))
	w_off_pps=$((w_off * 1000000000 / w)) w_recv_pps=$((w_recv * 1000000000 / w))
	w_nspp=0 w_hnspp=0 w_ipp=0
	((w_recv > 0)) && w_nspp=$((busy / w_recv))
	hw=$((m1 - m0)) hb=$((x1 - x0)) hy=$((y1 - y0)) hz=$((z1 - z0)) w_insn=$hz
	((w_recv > 0)) && w_hnspp=$((hb / w_recv)) w_ipp=$((hz / w_recv))
	[ -s "$raw" ] || printf 'phase\tsystem\tdirection\tflows\trep\twindow_ns\toffered\toffered_pps\treceived\treceived_pps\tbusy_ns\tns_per_packet\thost_window_ns\thost_busy_ns\thost_wait_ns\thost_ns_per_packet\tinsns\tinsns_per_packet\n' >"$raw"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" \
		"${win_dir:-6to4}" "$3" "$4" "$w" "$w_off" "$w_off_pps" "$w_recv" \
		"$w_recv_pps" "$busy" "$w_nspp" "$hw" "$hb" "$hy" "$w_hnspp" "$hz" "$w_ipp" >>"$raw"
	say "window $1 $2 flows=$3 rep=$4: offered $w_off ($w_off_pps pps)," \
		"received $w_recv ($w_recv_pps pps) in $((w / 1000000)) ms," \
		"CPU 1 busy $((busy / 1000000)) ms"
}
# gen_bound OFFERED RECEIVED: 1 when the system received all but 1 % at
# most of what the generator offered (the generator, not the system,
# set the rate), else 0. ratio OFFERED RECEIVED: offered / received.
gen_bound() { echo $((${2} * 100 >= ${1} * 99 ? 1 : 0)); }
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / (b > 0 ? b : 1) }'
}
# The open-loop rates: gen6 never waits for its socket buffer (-x), so
# that its rate does not follow the translator's (beside Jool, a blocking
# gen6 sent at Jool's pace with both CPUs half idle). Not in the smoke:
# its 2-step searches would find no passing rate.
ox=-o
[ "${BENCH_SMOKE:-0}" = 1 ] || ox="-o -x"
now() { date +%s%N; }
# diag snap DIR | diag report DIR0 DIR1 CPU PACKETS: test/bench/cpu1-diag.py,
# on CPU 0.
diag() { taskset -c 0 /usr/bin/python3 "$top/test/bench/cpu1-diag.py" "$@" || :; }
# perf_on PERF-RECORD-ARGS...: with BENCH_PERF, perf records (in the
# background, until perf_off) into /tmp/st-perf.data; it takes seconds to
# start under emulation, hence the wait. perf_off FILE REPORT-ARGS...:
# stops it and writes its report to FILE.
perf_pid=
perf_on() {
	[ -n "${BENCH_PERF:-}" ] || return 0
	perf record -q "$@" -e cpu-clock -o /tmp/st-perf.data -- \
		sleep 600 >/dev/null 2>&1 &
	perf_pid=$!
	sleep 6
}
perf_off() {
	local f=$1
	shift
	[ -n "$perf_pid" ] || return 0
	kill -INT "$perf_pid" 2>/dev/null || true
	wait "$perf_pid" || true
	perf_pid=
	perf report -q -i /tmp/st-perf.data --stdio "$@" 2>/dev/null | grep . \
		>"$f" || true
}

# --- 1. connection establishment rate -----------------------------------------
# conn_step SYSTEM RATE (0: unpaced): 0 when all conn_n frames reached sink.
# Sets step_rate (the rate gen6 achieved).
conn_step() {
	local c0 out got s0 gt
	sys_up "$1"
	c0=$(count sink)
	s0=$(snap)
	out=$(gen $ox -n "$conn_n" -r "$2")
	step_rate=$(awk '{ printf "%d", $1 / ($(NF - 1) > 0 ? $(NF - 1) : 1e-9) }' <<<"$out")
	gt=$(awk '{ printf "%.0f", $(NF - 1) * 1e9 }' <<<"$out")
	got=$(($(settle sink) - c0))
	win conn "$1" "$conn_n" "$rep" "$s0" "$(snap)" "$gt"
	step_off=$w_off step_recv=$w_recv
	sys_down "$1"
	say "$1: $conn_n new flows offered at ${2:-0} pps (gen6: $out): $got arrived"
	[ "$got" = "$conn_n" ]
}
# bisect HI CMD...: the highest RATE below HI for which `CMD... RATE`
# passes, in BENCH_STEPS halvings (0 if none did); sets found.
bisect() {
	local lo=0 hi=$1 mid i
	shift
	for ((i = 0; i < steps; i++)); do
		mid=$(((lo + hi) / 2))
		((mid > 0)) || break
		if "$@" "$mid"; then lo=$mid; else hi=$mid; fi
	done
	found=$lo
}
conn_rate() {	# SYSTEM REP: sets conn_pps
	local off recv
	conn_bound=0
	# The kernel's default, whatever BENCH_STATE_BACKLOG says (10000 let
	# a step pass at up to twice the capacity).
	sysctl -qw net.core.netdev_max_backlog=1000
	if conn_step "$1" 0; then
		say "$1: no loss even unpaced: the rate is gen6's, a lower bound"
		conn_pps=$step_rate
		conn_bound=1
	fi
	off=$step_off recv=$step_recv
	((conn_bound)) || { bisect "$step_rate" conn_step "$1"; conn_pps=$found; }
	sysctl -qw net.core.netdev_max_backlog="$backlog0"
	emit conn_rate "$1" 6to4 "$conn_n" "$2" "$conn_pps" sessions/s
	# 1: no step lost a frame, gen6 (unpaced) set conn_rate: a lower bound.
	emit conn_gen_bound "$1" 6to4 "$conn_n" "$2" "$conn_bound" flag
	# The unpaced step: what gen6 offered over what reached sink (1.000:
	# the system took all the generator could give).
	emit conn_offered_ratio "$1" 6to4 "$conn_n" "$2" "$(ratio "$off" "$recv")" ratio
}

# --- 2. real phase ---------------------------------------------------------------
conn_real() {	# SYSTEM REP
	local r=$((conn_pps / 2)) got c0 out pid log=$outdir/resp-$1-$2.log
	((r >= 500)) || r=500
	sys_up "$1"
	# ip netns exec forks: resp's own pid is the one it prints.
	nsx sink taskset -c 0 "$resp" -i eth0 -m $XL4_MAC -r $r >"$log" 2>&1 &
	pid=$!
	while ! grep -q ready "$log"; do
		kill -0 "$pid" 2>/dev/null || { say "resp failed: $(cat "$log")"; exit 1; }
		sleep 0.1
	done
	resp_pid=$(awk '/^ready/ { print $2 }' "$log")
	c0=$(count sink)
	gen -n "$conn_n" -f $((largest + 1)) -r $r >/dev/null
	got=$(($(settle sink) - c0))
	c0=$(count gen)
	kill -USR1 "$resp_pid"
	wait "$pid"
	resp_pid=
	out=$(settle gen)
	say "$1: real phase: $got of $conn_n preliminary frames at sink;" \
		"resp: $(tail -1 "$log"); $((out - c0)) replies at gen," \
		"sessions $(sys_sessions "$1" "$conn_n")"
	sys_down "$1"
	emit conn_real "$1" 4to6 "$conn_n" "$2" \
		"$(awk -v a=$((out - c0)) -v n="$conn_n" 'BEGIN { printf "%.4f", a / n }')" \
		replied/sessions
}

# --- 3. throughput over established sessions, 4. tear-down ----------------------
# slab_caches SYSTEM: the slab caches of its session and BIB tables.
slab_caches() {
	case $1 in
	tern-nat64) echo tern_session tern_bib tern_bib_pair tern_peer ;;
	jool-nat64) echo session_nodes bib_nodes ;;
	esac
}
# slab_dirs SYSTEM: their directories in /sys/kernel/slab, each once. SLUB
# merges a cache with others of the same size and flags (the name is then
# a link to the merged cache, ":0000056" say): its counts include the
# other users', which the baseline takes in.
slab_dirs() {
	local c
	for c in $(slab_caches "$1"); do
		[ -e "/sys/kernel/slab/$c/objects" ] && readlink -f "/sys/kernel/slab/$c"
	done | sort -u
}
# slab_used DIRS...: objects in use (SLUB's "objects": its slabs' objects
# less the free ones on the node's partial lists), summed.
slab_used() {
	local d n o=0
	for d; do read -r n _ <"$d/objects"; o=$((o + n)); done
	echo $o
}
# slab_slack DIRS...: objects SLUB still counts as used once they are all
# free: those of each CPU's active slab and per-CPU partial slabs (up to
# cpu_partial free objects, then their slabs): per CPU, two slabs and
# cpu_partial objects.
slab_slack() {
	local d o=0 per cp
	for d; do
		read -r per <"$d/objs_per_slab"
		cp=0
		[ ! -r "$d/cpu_partial" ] || read -r cp <"$d/cpu_partial"
		o=$((o + $(nproc) * (2 * per + cp)))
	done
	echo $o
}
# slab_back LIMIT DIRS...: waits until slab_used DIRS is LIMIT at most;
# fails after 300 s.
slab_back() {
	local lim=$1 end=$(($(now) + 300000000000))
	shift
	while (($(slab_used "$@") > lim)); do
		(($(now) < end)) || return 1
		sleep 0.01
	done
}
# zl_trial SYSTEM S RATE: 0 when all of RATE x zl_secs frames over the S
# flows (scrambled, as in the overload window) reached sink.
zl_trial() {
	local n=$(($3 * zl_secs)) c0 got out s0 gt
	c0=$(count sink)
	s0=$(snap)
	out=$(gen $ox -n "$n" -F "$2" -r "$3")
	got=$(($(settle sink) - c0))
	gt=$(awk '{ printf "%.0f", $(NF - 1) * 1e9 }' <<<"$out")
	win zl "$1" "$2" "$rep" "$s0" "$(snap)" "$gt"
	say "$1: $2 sessions, $n frames at $3 pps (gen6: $out): $got arrived"
	[ "$got" = "$n" ] && return 0
	zl_lost=1
	return 1
}
# zero_loss SYSTEM S REP HI: the highest rate of zl_trial without loss
# below HI (what gen6 offered unpaced).
zero_loss() {
	zl_lost=0
	bisect "$4" zl_trial "$1" "$2"
	emit tput_sessions_zero_loss "$1" 6to4 "$2" "$3" "$found" pps
	# 1: no trial lost a frame, so the figure is bounded by what gen6
	# offered unpaced (the search's upper end), not by the system.
	emit tput_sessions_zero_loss_gen_bound "$1" 6to4 "$2" "$3" \
		$((1 - zl_lost)) flag
}
# The windows profiled (BENCH_INSN_PROF=1), named st1, st2...
prof_st=0
tput_teardown() {	# SYSTEM REP
	local filled=0 s c0 c2 s1 s2 pid pps offered dirs base slack pn
	sys_up "$1"
	mapfile -t dirs < <(slab_dirs "$1")
	base=$(slab_used "${dirs[@]}") slack=$(slab_slack "${dirs[@]}")
	scale_start "${dirs[@]}"
	for s in $sizes; do
		if [[ $1 == jool-* ]] && ((s > jool_max)); then
			scale_skip "$1" "$s" "BENCH_JOOL_MAX_SESSIONS is $jool_max (Jool" \
				"makes some 13k sessions a second here: 10M would take 13 minutes" \
				"a repetition)"
			break
		fi
		scale_room "$1" "$s" "$filled" || break
		fill_timed "$1" $((filled + 1)) "$s" || {
			scale_skip "$1" "$s" "the fill could not make them"; break; }
		filled=$s
		scale_emit "$1" "$s" "$2" "${dirs[@]}"
		c0=$(count sink)
		# Both CPUs: gen6's (0) and the translator's (1).
		perf_on -C 0,1
		# gen6 sends until the window has closed (SIGTERM; -t only
		# bounds a run whose stop went wrong): on a slow host this
		# script's own commands can take seconds each, and a fixed
		# -t ended gen6 before a late window opened.
		gen $ox -n 4000000000 -F "$s" -t $((tput_secs + 600)) >"$outdir/gen.out" &
		pid=$!
		# The window opens a second after the first frames reach sink:
		# starting gen6 alone can take seconds under emulation.
		while [ "$(count sink)" = "$c0" ] && kill -0 $pid 2>/dev/null; do
			sleep 0.2
		done
		sleep 1
		# BENCH_INSN_PROF=1: QEMU's per-block counts at both ends
		# (test/bench/insn-prof.py, as the main part's windows).
		pn=
		[ -z "${BENCH_INSN_PROF:-}" ] || pn=st$((++prof_st))
		diag snap /tmp/st-diag0
		s1=$(snap ${pn:+"prof $pn-0"})
		sleep "$tput_secs"
		s2=$(snap ${pn:+"prof $pn-1"})
		diag snap /tmp/st-diag1
		gen_stop gen6 $pid
		perf_off "$outdir/perf-sessions-$1-$s-$2.txt" --sort cpu,sym --percent-limit 0.3
		win sessions "$1" "$s" "$2" "$s1" "$s2"
		# What CPU 1 did besides the receive work, from just before
		# the window to just after it (the log only).
		diag report /tmp/st-diag0 /tmp/st-diag1 1 "$w_recv" |
			while read -r l; do say "$1@$s rep $2: $l"; done
		[ -z "$pn" ] || hclock_prof_row "$outdir" "$pn" "$1@$s" 6to4 "$w_recv" "$w_insn"
		pps=$w_recv_pps offered=$w_off_pps
		c2=$(settle sink)
		say "$1: $s flows (sessions $(sys_sessions "$1" "$s")): $pps pps;" \
			"gen6: $(cat "$outdir/gen.out"); $((c2 - c0)) arrived in all;" \
			"translated packets sink refused so far (xl's v4" \
			"tx_dropped): $(nsx xl cat /sys/class/net/v4/statistics/tx_dropped);" \
			"other frames at gen (ICMP errors...): $(count gen 2)"
		emit tput_sessions "$1" 6to4 "$s" "$2" "$pps" pps
		# What gen6 offered a second in the same window; their ratio,
		# and 1 when the system received it all (but 1 %): the
		# generator, not the translator, set tput_sessions.
		emit tput_offered "$1" 6to4 "$s" "$2" "$offered" pps
		emit tput_sessions_offered_ratio "$1" 6to4 "$s" "$2" \
			"$(ratio "$w_off" "$w_recv")" ratio
		emit tput_sessions_gen_bound "$1" 6to4 "$s" "$2" \
			"$(gen_bound "$w_off" "$w_recv")" flag
		zero_loss "$1" "$s" "$2" "$offered"
	done
	teardown_at "$1" "$2" "$filled"
	# And at BENCH_TEARDOWN_AT when the table went past it (Tern to 10M
	# while Jool stops at 1M): refilled from empty to it, flushed again,
	# so that both systems' tear-down is timed at the same size.
	if ((filled > teardown_also && teardown_also > 0)); then
		fill_timed "$1" 1 "$teardown_also" && teardown_at "$1" "$2" "$teardown_also"
	fi
	sys_down "$1"
}

# teardown_at SYSTEM REP S: the flush of the S sessions in the table,
# timed to its return and to the last byte (dirs, base and slack are
# tput_teardown's).
teardown_at() {
	local used t1 t2 t3 t_full t_empty t_empty_max net i t_free free_net
	used=$(slab_used "${dirs[@]}")
	perf_on -a
	t1=$(now); sys_flush "$1"; t2=$(now)
	slab_used "${dirs[@]}" >/tmp/st-slab-at-return
	t3=
	if [ ${#dirs[@]} -gt 0 ] && slab_back $((base + slack)) "${dirs[@]}"; then
		t3=$(now)
		t_free=$((t3 - t1))	# t1 is reused below
	fi
	perf_off "$outdir/perf-teardown-$1-$3-$2.txt" --no-children --sort sym --percent-limit 0.5
	t_full=$((t2 - t1))
	if [ -n "$t3" ]; then
		i="back $(((t3 - t1) / 1000)) us after the flush began"
	else
		i="NOT back in 300 s (or no slab cache of $1 found)"
	fi
	say "$1: slab objects in use (${dirs[*]}): $base before the fill," \
		"$used before the flush, $(cat /tmp/st-slab-at-return) when it" \
		"returned, $(slab_used "${dirs[@]}") now (done at $base + $slack): $i"
	say "$1: after flush: sessions $(sys_sessions "$1")"
	# The same command on the emptied table, three times: the least is
	# the overhead (process start, netlink round trip) subtracted, the
	# most less the least its noise.
	t_empty= t_empty_max=0
	for i in 1 2 3; do
		t1=$(now); sys_flush "$1"; t2=$(now)
		[ -z "$t_empty" ] || ((t2 - t1 < t_empty)) && t_empty=$((t2 - t1))
		((t2 - t1 <= t_empty_max)) || t_empty_max=$((t2 - t1))
	done
	net=$((t_full - t_empty))
	say "$1: flush of $3 sessions $((t_full / 1000)) us, of none" \
		"$((t_empty / 1000)) us (least of 3, most $((t_empty_max / 1000)) us)"
	if ((net <= t_empty_max - t_empty || net < 1000000)); then
		# Inside the noise of the empty one (or under a millisecond,
		# which the log and the figures' six decimals cannot tell
		# from 0): the whole time, a bound.
		say "$1: the flush is below the noise of the empty one:" \
			"its whole time written (the rate is a lower bound)"
		net=$t_full
	fi
	emit teardown_seconds "$1" 6to4 "$3" "$2" \
		"$(awk -v t=$net 'BEGIN { printf "%.6f", t / 1e9 }')" s
	emit teardown_rate "$1" 6to4 "$3" "$2" \
		"$(awk -v t=$net -v n="$3" 'BEGIN { printf "%.0f", t ? n / (t / 1e9) : 0 }')" \
		sessions/s
	# To the last byte: 0 when the memory did not come back.
	free_net=0
	if [ -n "$t3" ]; then
		free_net=$((t_free - t_empty))
		((free_net <= t_empty_max - t_empty || free_net < 1000000)) ||
			free_net=$t_free
	fi
	emit teardown_free_seconds "$1" 6to4 "$3" "$2" \
		"$(awk -v t=$free_net 'BEGIN { printf "%.6f", t / 1e9 }')" s
	emit teardown_free_rate "$1" 6to4 "$3" "$2" \
		"$(awk -v t=$free_net -v n="$3" 'BEGIN { printf "%.0f", t ? n / (t / 1e9) : 0 }')" \
		sessions/s
}

# shellcheck source=test/bench/stateful-scale.sh
. "$top/test/bench/stateful-scale.sh"
# shellcheck source=test/bench/stateful-entry.sh
. "$top/test/bench/stateful-entry.sh"

parts=" ${BENCH_PARTS:-conn tput entry} "
say "$(uname -r), $(nproc) CPUs, clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource), $(grep -o 'init_on_alloc=[^ ]*' /proc/cmdline || echo "init_on_alloc as built"), systems ${have[*]}, $reps repetitions," \
	"conn $conn_n flows, sessions $sizes, parts$parts"
for ((rep = 1; rep <= reps; rep++)); do
	for sys in "${have[@]}"; do
		if [[ $parts == *" conn "* ]]; then
			conn_rate "$sys" "$rep"
			conn_real "$sys" "$rep"
		fi
		[[ $parts != *" tput "* ]] || tput_teardown "$sys" "$rep"
		[[ $parts != *" entry "* ]] || one_entry "$sys" "$rep"
	done
done
say "done: $tsv"
