#!/usr/bin/env bash
# Runs inside the VM (started by test/bench/siit-pktgen.sh, tern.ko loaded
# by test/in-vm.sh): measures the packets per second that reach a sink
# through namespace xl, which either forwards them as IPv6 (no Tern
# instance) or translates them to IPv4 with a Tern SIIT instance.
#
#   gen eth0 --veth-- v6 xl v4 --veth-- eth0 sink
#
# gen's pktgen (kpktgend_0, CPU 0) sends UDP/IPv6 packets of pktgen's
# smallest size (pkt_size 64, grown to pktgen's 16-byte header: 78-byte
# frames) from 2001:db8:64::c633:6402 (198.51.100.2) to
# 2001:db8:64::cb00:7163 (203.0.113.99), the same packets for both systems:
#   fwd   no instance in xl: route 2001:db8:64::/96 to sink, IPv6 forwarding;
#   tern  instance "bench" (--siit --pool6 2001:db8:64::/96) in xl: the
#         packets leave xl as IPv4 to 203.0.113.99.
# xl's receive work runs on CPU 1 (RPS on v6). sink drops everything at tc
# ingress (the same cheap drop for IPv4 and IPv6); the measure is sink's
# eth0 rx_packets over the window. Each repetition adds (tern) or has no
# instance (fwd), starts pktgen, waits WARMUP s, counts for SECONDS s, stops.
#
# Printed per repetition, to judge the result: pktgen's offered rate (what
# gen's eth0 sent plus what xl's full backlog refused), xl's own count of
# the system (Ip6OutForwDatagrams or Tern's xlat-6to4) per second, what
# sink refused, and how busy each CPU was. Fails if xl did not forward or
# translate during a window; no other verdict.
#
# With KO_B, a third system "ternb": the same instance on that other
# tern.ko, swapped in for its windows (the one test/in-vm.sh loaded is put
# back after each).
#
# Usage: siit-pktgen-vm.sh [REPS [SECONDS [WARMUP [KO_B]]]]
set -euo pipefail
reps=${1:-3}
secs=${2:-5}
warm=${3:-1}
ko_b=${4:-}
ko_a=${VM_KO:-}
top=$(cd "$(dirname "$0")/../.." && pwd)
tern=${TERN:-$top/usr/cli/tern}
results=$top/.build/results
out=$results/bench-siit-pktgen-${VM_TAG:-$(uname -r)}.md
PG=/proc/net/pktgen

GEN_MAC=02:00:00:00:06:02 XL6_MAC=02:00:00:00:06:01
XL4_MAC=02:00:00:00:04:01 SINK_MAC=02:00:00:00:04:02
POOL6=2001:db8:64::/96
SRC6=2001:db8:64::c633:6402     # 198.51.100.2
DST6=2001:db8:64::cb00:7163     # 203.0.113.99
DST4=203.0.113.99

say() { echo "bench: $*" >&2; }
# shellcheck source=test/bench/lib-ns.sh
. "$top/test/bench/lib-ns.sh"

cleanup() {
	[ -n "${pg_pid:-}" ] && { nsx gen sh -c "echo stop >$PG/pgctrl" || true; wait "$pg_pid" || true; }
	bench_netns_del gen xl sink
}
trap cleanup EXIT

modinfo pktgen >/dev/null || { say "no pktgen module for $(uname -r)"; exit 1; }
modprobe pktgen
say "pktgen: $(modinfo -F filename pktgen), version $(modinfo -F version pktgen)"
modprobe -q sch_ingress || true
modprobe -q cls_matchall || true
modprobe -q act_gact || true
[ "$(nproc)" -ge 2 ] || { say "needs 2 CPUs (VM_CPUS=2), has $(nproc)"; exit 1; }

# --- topology ---------------------------------------------------------------
BENCH_NO_LL=1 bench_netns gen xl sink
nsx xl sysctl -qw net.ipv6.conf.all.forwarding=1 net.ipv4.ip_forward=1
nsx gen sysctl -qw net.ipv6.conf.all.forwarding=0 net.ipv4.ip_forward=0
nsx sink sysctl -qw net.ipv6.conf.all.forwarding=0 net.ipv4.ip_forward=0
bench_veth gen $GEN_MAC xl v6 $XL6_MAC
bench_veth sink $SINK_MAC xl v4 $XL4_MAC
ip -n gen -b - <<EOT
link set lo up
addr add 2001:db8:6::2/64 dev eth0 nodad
addr add $SRC6/128 dev eth0 nodad
neigh replace 2001:db8:6::1 lladdr $XL6_MAC dev eth0 nud permanent
link set eth0 up
EOT
ip -n xl -b - <<EOT
link set lo up
addr add 2001:db8:6::1/64 dev v6 nodad
addr add 203.0.113.1/24 dev v4
addr add 2001:db8:4::1/64 dev v4 nodad
link set v6 up
link set v4 up
neigh replace 2001:db8:6::2 lladdr $GEN_MAC dev v6 nud permanent
neigh replace $DST4 lladdr $SINK_MAC dev v4 nud permanent
neigh replace 2001:db8:4::2 lladdr $SINK_MAC dev v4 nud permanent
route add $POOL6 via 2001:db8:4::2 dev v4
route add 2001:db8:64::c633:6400/120 via 2001:db8:6::2 dev v6
EOT
ip -n sink -b - <<EOT
link set lo up
addr add 203.0.113.2/24 dev eth0
link set eth0 up
EOT
tc -n sink qdisc add dev eth0 ingress
tc -n sink filter add dev eth0 ingress pref 1 matchall action drop

# gen computes the UDP checksums (tx checksum offload off on its eth0, and
# with it TSO): xl receives CHECKSUM_NONE packets, as from a NIC without
# offloads.
ethtool_set gen eth0 0x17 0
# pktgen alone on CPU 0, xl's receive work on CPU 1 (RPS on xl's v6): gen's
# packets wait in CPU 1's backlog (a full one drops, counted as gen's
# tx_dropped). xl's forwarding or translation, its transmit to sink and
# sink's receive run on CPU 1 too. xl's packets to sink must not wait in
# that backlog behind gen's, which pktgen keeps full: GRO on sink's eth0
# makes veth hand them to a NAPI instance of eth0 (a ring of its own, polled
# on CPU 1 where xl sends; a full ring would count as xl's v4 tx_dropped,
# printed), which veth does only for packets from a device without TSO
# (xl's v4: tx checksum offload off, and with it TSO; the packets are
# CHECKSUM_NONE, so it computes nothing).
nsx xl sh -c 'for q in /sys/class/net/v6/queues/rx-*/rps_cpus; do echo 2 >$q; done'
ethtool_set xl v4 0x17 0
ethtool_set sink eth0 0x2c 1
sysctl -qw net.core.netdev_max_backlog=10000 2>/dev/null || true

# --- pktgen in gen ----------------------------------------------------------
pgset() {	# FILE COMMAND
	nsx gen sh -c "echo '$2' >$PG/$1"
	if [ "$1" != pgctrl ] && ! nsx gen grep -q '^Result: OK' "$PG/$1"; then
		say "pktgen refused '$2': $(nsx gen grep '^Result:' "$PG/$1")"
		exit 1
	fi
}
pgset kpktgend_0 rem_device_all
pgset kpktgend_0 "add_device eth0"
for c in "count 0" "clone_skb 0" "pkt_size 64" "delay 0" \
	"dst6 $DST6" "src6 $SRC6" "dst_mac $XL6_MAC" \
	"udp_src_min 4000" "udp_src_max 4000" \
	"udp_dst_min 5000" "udp_dst_max 5000" \
	"flag UDPCSUM" "flag NO_TIMESTAMP"; do
	pgset eth0 "$c"
done

# --- systems ----------------------------------------------------------------
setup_fwd() { :; }
setup_tern() { nsx xl "$tern" instance add bench --siit --pool6 $POOL6 >/dev/null; }
teardown_fwd() { :; }
teardown_tern() { nsx xl "$tern" instance remove bench >/dev/null; }
# NAT64: the same packets through a NAT64 instance; they leave from pool4
# 192.0.2.1 (one flow: one established session after the first packet).
setup_nat64() {
	nsx xl "$tern" instance add bench --nat64 --pool6 $POOL6 >/dev/null
	nsx xl "$tern" pool4 add 192.0.2.1/32 --udp >/dev/null
}
teardown_nat64() { teardown_tern; }
xl_count_nat64() { xl_count_tern; }
setup_ternb() { rmmod tern; insmod "$ko_b"; setup_tern; }
teardown_ternb() { teardown_tern; rmmod tern; insmod "$ko_a"; }
# What xl itself counted for the system: IPv6 forwarded, or translated.
xl_count_fwd() { nsx xl awk '$1 == "Ip6OutForwDatagrams" { print $2 }' /proc/net/snmp6; }
xl_count_ternb() { xl_count_tern; }
xl_count_tern() {
	nsx xl "$tern" stats --json | /usr/bin/python3 -c \
		'import json, sys; print(json.load(sys.stdin).get("translated", {}).get("xlat-6to4", 0))'
}
rx() { nsx sink cat /sys/class/net/eth0/statistics/rx_packets; }
# Packets xl sent to sink that sink refused (its NAPI ring full).
sinkdrop() { nsx xl cat /sys/class/net/v4/statistics/tx_dropped; }
# What pktgen offered: veth counts a packet the peer's backlog refused as
# tx_dropped, not tx_packets.
tx() {
	nsx gen sh -c 'cd /sys/class/net/eth0/statistics &&
		echo $(($(cat tx_packets) + $(cat tx_dropped)))'
}
now() { date +%s%N; }
# "cpuN busy idle" jiffies of CPU 0 and CPU 1, from /proc/stat.
cpus() { awk '$1 ~ /^cpu[01]$/ { print $1, $2 + $3 + $4 + $7 + $8 + $9, $5 + $6 }' /proc/stat; }
# busy percent of CPU N between two cpus() outputs
busy() {
	awk -v c=cpu$1 -v a="$2" -v b="$3" 'BEGIN {
		split(a, x, "\n"); split(b, y, "\n")
		for (i in x) { split(x[i], p, " "); split(y[i], q, " ")
			if (p[1] == c) { u = q[2] - p[2]; d = q[3] - p[3] } }
		printf "%.0f\n", (u + d) ? 100 * u / (u + d) : 0 }'
}

# measure SYSTEM: sets m_pps (sink's receive rate), m_gen (pktgen's rate)
# and m_xl (xl's rate by its own counter of the system, a cross-check).
measure() {
	local s=$1 r0 r1 g0 g1 x0 x1 t0 t1 c0 c1 d0 d1
	"setup_$s"
	nsx gen sh -c "echo start >$PG/pgctrl" &
	pg_pid=$!
	sleep "$warm"
	t0=$(now); c0=$(cpus); r0=$(rx); g0=$(tx); x0=$("xl_count_$s"); d0=$(sinkdrop)
	if [ -n "${BENCH_PERF:-}" ]; then
		# Where CPU 1 (xl's receive work) spends its cycles: sampled by
		# the cpu-clock timer (no PMU under emulation), summed by symbol.
		perf record -q -e cpu-clock -C 1 -g -o "/tmp/perf-$s.data" -- sleep "$secs" >/dev/null 2>&1
		perf report -q -i "/tmp/perf-$s.data" --stdio --no-children -g none \
			--sort sym --percent-limit 0.7 2>/dev/null | grep . |
			sed "s/^/perf $s: /" >>"$results/bench-perf-${VM_TAG:-x}.txt"
		[ "$BENCH_PERF" = 1 ] || for sym in $BENCH_PERF; do
			perf report -q -i "/tmp/perf-$s.data" --stdio --no-children \
				-S "$sym" -g caller,2,callee --percent-limit 0.5 2>/dev/null |
				grep . | head -60 | sed "s/^/perf $s $sym: /" >>"$results/bench-perf-${VM_TAG:-x}.txt"
		done
		# Samples by offset in these functions (objdump -d tern.ko
		# tells which instructions): where inside them the time goes.
		for sym in ${BENCH_PERF_OFF:-}; do
			perf script -i "/tmp/perf-$s.data" -F ip,sym,symoff -G 2>/dev/null |
				awk -v f="$sym" '$2 ~ "^" f "\\+" { print $2 }' | sort | uniq -c |
				sort -rn | head -40 | sed "s/^/perf $s off: /" >>"$results/bench-perf-${VM_TAG:-x}.txt"
		done
	else
		sleep "$secs"
	fi
	t1=$(now); c1=$(cpus); r1=$(rx); g1=$(tx); x1=$("xl_count_$s"); d1=$(sinkdrop)
	pgset pgctrl stop
	wait "$pg_pid" || true
	pg_pid=
	"teardown_$s"
	sleep 0.5	# let the backlog drain before the next window
	m_pps=$(((r1 - r0) * 1000000000 / (t1 - t0)))
	m_gen=$(((g1 - g0) * 1000000000 / (t1 - t0)))
	m_xl=$(((x1 - x0) * 1000000000 / (t1 - t0)))
	m_sd=$(((d1 - d0) * 1000000000 / (t1 - t0)))
	m_cpu0=$(busy 0 "$c0" "$c1")
	m_cpu1=$(busy 1 "$c0" "$c1")
}

declare -A pps gen cpu1
systems="fwd tern${BENCH_NAT64:+ nat64}"
if [ -n "$ko_b" ]; then
	[ -n "$ko_a" ] || { say "KO_B needs VM_KO (the first tern.ko)"; exit 1; }
	systems="fwd tern ternb${BENCH_NAT64:+ nat64}"
	say "tern-b: $ko_b ($(modinfo -F srcversion "$ko_b"))"
fi
say "$(uname -r), $(nproc) CPUs, tern.ko $(cat /sys/module/tern/srcversion 2>/dev/null), $reps x (${secs}s + ${warm}s warm-up) per system"
bad=0
for ((i = 1; i <= reps; i++)); do
	for s in $systems; do
		measure "$s"
		pps[$s]+="$m_pps "
		gen[$s]+="$m_gen "
		cpu1[$s]+="$m_cpu1 "
		say "rep $i $s: sink $m_pps pps; pktgen $m_gen pps; xl counted $m_xl pps; sink refused $m_sd pps; busy: CPU 0 $m_cpu0%, CPU 1 $m_cpu1%"
		if [ "$m_xl" -le 0 ]; then
			say "rep $i $s: xl did not $s a single packet"
			bad=1
		fi
	done
done
[ "$bad" = 0 ] || exit 1

stats() {	# "v v v..." -> "median min max"
	tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '
		{ v[NR] = $1 }
		END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		      printf "%.0f %d %d\n", m, v[1], v[NR] }'
}
row() {	# SYSTEM LABEL
	local m l h gm c
	read -r m l h < <(stats "${pps[$1]}")
	read -r gm _ _ < <(stats "${gen[$1]}")
	read -r c _ _ < <(stats "${cpu1[$1]}")
	echo "| $2 | $m | $l-$h | $gm | $c% | $reps |"
	eval "med_$1=$m"
}
{
	echo "| system | median pps at sink | min-max | pktgen offered (median) | CPU 1 busy (median) | runs |"
	echo "|---|---:|---:|---:|---:|---:|"
	row fwd "IPv6 forwarding"
	row tern "Tern SIIT 6->4"
	[ -z "$ko_b" ] || row ternb "Tern SIIT 6->4, tern-b"
	[ -z "${BENCH_NAT64:-}" ] || row nat64 "Tern NAT64 6->4 (one session)"
	echo
	for t in $systems; do
		[ "$t" = fwd ] && continue
		awk -v t="$(eval echo \$med_$t)" -v f="$med_fwd" -v n="$t" \
			'BEGIN { printf "%s/forwarding (medians): %.3f\n", n, t / f }'
		# Each window over the fwd window just before it: the host's
		# load drifts less within a round than across the run.
		paste -d' ' <(tr ' ' '\n' <<<"${pps[fwd]}") <(tr ' ' '\n' <<<"${pps[$t]}") |
			awk 'NF == 2 { printf "%.3f\n", $2 / $1 }' | sort -n | awk -v n="$t" '
			{ v[NR] = $1 }
			END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
			      printf "%s/forwarding (median of the %d rounds): %.3f (%.3f-%.3f)\n", n, NR, m, v[1], v[NR] }'
	done
	echo
	echo "$(uname -r), $(nproc) vCPUs (emulated), 78-byte UDP/IPv6 frames" \
		"(58 bytes as IPv4), ${secs} s windows after ${warm} s of traffic," \
		"fwd and tern interleaved"
} | tee "$out"
