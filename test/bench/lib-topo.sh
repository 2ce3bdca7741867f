# shellcheck shell=bash disable=SC2034,SC2016
# Sourced by test/bench/bench-vm.sh (inside the VM): the namespaces, the
# pktgen generators and the counters of `make bench`.
#
#   h6 eth0 --veth-- v6 xl v4 --veth-- eth0 h4
#
# h6 is the IPv6 host, h4 the IPv4 host; both generate (pktgen, thread
# kpktgend_0 of their namespace, CPU 0) and both receive (a tc ingress
# drop while rates are measured, counted by their eth0 rx_packets). xl is
# the system under test; its receive work runs on CPU 1 (RPS on v6 and v4).
#
# Addresses (pool6 2001:db8:64::/96 for every translator):
#   h6  2001:db8:6::2 (NAT64 side host), 2001:db8:64::c633:6402 (SIIT:
#       198.51.100.2), 198.51.100.2 (plain IPv4 forwarding only)
#   h4  203.0.113.99 = 2001:db8:64::cb00:7163, 2001:db8:4::2
#   xl  2001:db8:6::1 + 198.51.100.1 on v6, 203.0.113.1 + 2001:db8:4::1 on v4
#   NAT64 pool4 192.0.2.1 (Tern, Jool); Tayga maps 2001:db8:6::2 to 192.0.2.2
# UDP: the IPv6 host's ports PORT0..PORT0+FLOWS-1 to port 5000 (6->4), and
# back to them from port 5000 (4->6); for NAT64 static BIB entries bind
# 2001:db8:6::2#P to 192.0.2.1#P for every P of them.

PG=/proc/net/pktgen
H6_MAC=02:00:00:00:06:02 XL6_MAC=02:00:00:00:06:01
XL4_MAC=02:00:00:00:04:01 H4_MAC=02:00:00:00:04:02
POOL6=2001:db8:64::/96
SIIT6=2001:db8:64::c633:6402	# 198.51.100.2
NAT6=2001:db8:6::2
DST6=2001:db8:64::cb00:7163	# 203.0.113.99
H4=203.0.113.99
SIIT4=198.51.100.2
PORT0=2000

say() { echo "bench: $*" >&2; }
# shellcheck source=test/bench/lib-ns.sh
. "$top/test/bench/lib-ns.sh"


topo_up() {
	local ns
	BENCH_NO_LL=1 bench_netns h6 xl h4
	nsx xl sysctl -qw net.ipv6.conf.all.forwarding=1 net.ipv4.ip_forward=1
	bench_veth h6 $H6_MAC xl v6 $XL6_MAC
	bench_veth h4 $H4_MAC xl v4 $XL4_MAC
	ip -n h6 -b - <<EOT
link set lo up
addr add $NAT6/64 dev eth0 nodad
addr add $SIIT6/128 dev eth0 nodad
addr add $SIIT4/24 dev eth0
link set eth0 up
neigh replace 2001:db8:6::1 lladdr $XL6_MAC dev eth0 nud permanent
neigh replace 198.51.100.1 lladdr $XL6_MAC dev eth0 nud permanent
route add 2001:db8:64::/96 via 2001:db8:6::1 dev eth0
route add 2001:db8:4::/64 via 2001:db8:6::1 dev eth0
EOT
	ip -n xl -b - <<EOT
link set lo up
addr add 2001:db8:6::1/64 dev v6 nodad
addr add 198.51.100.1/24 dev v6
addr add 203.0.113.1/24 dev v4
addr add 2001:db8:4::1/64 dev v4 nodad
link set v6 up
link set v4 up
neigh replace $NAT6 lladdr $H6_MAC dev v6 nud permanent
neigh replace $SIIT4 lladdr $H6_MAC dev v6 nud permanent
neigh replace $H4 lladdr $H4_MAC dev v4 nud permanent
neigh replace 2001:db8:4::2 lladdr $H4_MAC dev v4 nud permanent
route add 2001:db8:64::c633:6400/120 via $NAT6 dev v6
EOT
	ip -n h4 -b - <<EOT
link set lo up
addr add $H4/24 dev eth0
addr add 2001:db8:4::2/64 dev eth0 nodad
addr add $DST6/128 dev eth0 nodad
link set eth0 up
neigh replace 203.0.113.1 lladdr $XL4_MAC dev eth0 nud permanent
neigh replace 2001:db8:4::1 lladdr $XL4_MAC dev eth0 nud permanent
route add 198.51.100.0/24 via 203.0.113.1 dev eth0
route add 192.0.2.0/24 via 203.0.113.1 dev eth0
route add 2001:db8:6::/64 via 2001:db8:4::1 dev eth0
route add 2001:db8:64::c633:6400/120 via 2001:db8:4::1 dev eth0
EOT
	# The hosts compute their checksums (tx checksum offload off, and with
	# it TSO): xl receives CHECKSUM_NONE packets, as from a NIC without
	# offloads. GRO on the hosts' eth0 gives xl's packets to them a veth
	# NAPI ring of their own (xl's v6/v4 without TSO), so that they do not
	# wait in CPU 1's backlog behind the generators' packets.
	ethtool_set h6 eth0 0x17 0
	ethtool_set h4 eth0 0x17 0
	ethtool_set xl v6 0x17 0
	ethtool_set xl v4 0x17 0
	ethtool_set h6 eth0 0x2c 1
	ethtool_set h4 eth0 0x2c 1
	nsx xl sh -c 'for q in /sys/class/net/v[46]/queues/rx-*/rps_cpus; do echo 2 >$q; done'
	sysctl -qw net.core.netdev_max_backlog=10000 2>/dev/null || true
	modprobe -q sch_ingress || true
	modprobe -q cls_matchall || true
	modprobe -q act_gact || true
	for ns in h6 h4; do
		tc -n $ns qdisc add dev eth0 ingress
	done
}

topo_down() {
	local ns
	bench_netns_del h6 xl h4
}

# sinks_drop on|off: the hosts drop what they receive at tc ingress (rate
# measurements) or take it (TCP, ping).
sinks_drop() {
	local ns
	for ns in h6 h4; do
		tc -n $ns filter del dev eth0 ingress 2>/dev/null || true
		[ "$1" = on ] && tc -n $ns filter add dev eth0 ingress pref 1 matchall action drop
	done
	return 0
}

# --- pktgen ------------------------------------------------------------------
# pgset NS FILE COMMAND...: the commands in turn, in one process of NS
# (each fails the run if pktgen refuses it).
pgset() {
	local ns=$1 f=$2
	shift 2
	nsx "$ns" sh -c 'f=$1; shift
		for c in "$@"; do
			echo "$c" >"$f" || exit 1
			case $f in */pgctrl) continue ;; esac
			grep -q "^Result: OK" "$f" || {
				echo "pktgen refused $c: $(grep "^Result:" "$f")" >&2
				exit 1
			}
		done' pgset "$PG/$f" "$@" || { say "pktgen ($ns $f)"; exit 1; }
}

# pg_pps NS: the rate (pps) pktgen reports for its last run in NS, or 0.
pg_pps() {
	nsx "$1" cat "$PG/eth0" 2>/dev/null | awk '
		/^Result: OK:/ { f = 1 }
		f { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+pps$/) {
			sub("pps", "", $i); print $i; found = 1; exit } }
		END { if (!found) print 0 }'
}

pg_init() {
	local ns
	for ns in h6 h4; do
		pgset $ns kpktgend_0 rem_device_all
		pgset $ns kpktgend_0 "add_device eth0"
	done
}

# pg_conf DIR SRC DST FLOWS: the generator of direction DIR (6to4 in h6,
# 4to6 in h4) sends 64-byte UDP (pktgen's minimum) from SRC to DST, FLOWS
# flows: the IPv6 host's port pseudorandom in PORT0..PORT0+FLOWS-1 (RFC
# 4814), or sequential with FLOWS given as "seqN" (every port in turn).
pg_conf() {
	local dir=$1 src=$2 dst=$3 flows=$4 ns=h6 mac=$XL6_MAC hp=src fp=dst
	local seq=0 a rnd
	case $flows in seq*) seq=1; flows=${flows#seq} ;; esac
	a=("dst6 $dst" "src6 $src")
	if [ "$dir" = 4to6 ]; then
		ns=h4 mac=$XL4_MAC hp=dst fp=src
		a=("dst_min $dst" "dst_max $dst" "src_min $src" "src_max $src")
	fi
	rnd="!UDP${hp^^}_RND"
	if [ "$flows" -gt 1 ] && [ $seq = 0 ]; then rnd="UDP${hp^^}_RND"; fi
	pgset $ns eth0 "count 0" "clone_skb 0" "pkt_size 64" "delay 0" "${a[@]}" \
		"dst_mac $mac" \
		"udp_${hp}_min $PORT0" "udp_${hp}_max $((PORT0 + flows - 1))" \
		"udp_${fp}_min 5000" "udp_${fp}_max 5000" \
		"flag UDPCSUM" "flag NO_TIMESTAMP" "flag $rnd"
}

# counters NS: "tx rx" of NS's eth0 (tx counts what veth's peer refused:
# what the generator offered).
counters() {
	nsx "$1" sh -c 'cd /sys/class/net/eth0/statistics &&
		echo $(($(cat tx_packets) + $(cat tx_dropped))) $(cat rx_packets)'
}
now() { date +%s%N; }
