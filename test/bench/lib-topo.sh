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
#   h6f eth0 --veth-- v6 xlf v4 --veth-- eth0 h4f
#
# is the same again, with the same addresses and plain forwarding in xlf:
# the pairs of bench-vm.sh measure forwarding there, in turns with a
# system in xl, without setting either up between the turns.
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


# hold[NS]: a process living in host NS for the run, whose /proc/PID/net/dev
# lists NS's devices (snap reads them all in one process).
declare -A hold

# topo_side SFX: the hosts h6SFX and h4SFX and the translator's namespace
# xlSFX between them (SFX "" or f, see topo_up).
topo_side() {
	local a=h6$1 x=xl$1 b=h4$1 ns
	BENCH_NO_LL=1 bench_netns $a $x $b
	nsx $x sysctl -qw net.ipv6.conf.all.forwarding=1 net.ipv4.ip_forward=1
	bench_veth $a $H6_MAC $x v6 $XL6_MAC
	bench_veth $b $H4_MAC $x v4 $XL4_MAC
	ip -n $a -b - <<EOT
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
	ip -n $x -b - <<EOT
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
	ip -n $b -b - <<EOT
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
	ethtool_set $a eth0 0x17 0
	ethtool_set $b eth0 0x17 0
	ethtool_set $x v6 0x17 0
	ethtool_set $x v4 0x17 0
	ethtool_set $a eth0 0x2c 1
	ethtool_set $b eth0 0x2c 1
	nsx $x sh -c 'for q in /sys/class/net/v[46]/queues/rx-*/rps_cpus; do echo 2 >$q; done'
	for ns in $a $b; do
		tc -n $ns qdisc add dev eth0 ingress
		# Not a child of this shell: the scripts' bare waits do not wait
		# for it.
		hold[$ns]=$(ip netns exec $ns sleep 1000000 </dev/null >/dev/null 2>&1 & echo $!)
	done
}

# topo_up: h6 xl h4, where the systems are measured, and beside them h6f
# xlf h4f, the same with forwarding set up once (xlf routes pool6 to h4f),
# where the pairs measure forwarding in turns with a system in xl
# (bench-vm.sh).
topo_up() {
	local ns
	modprobe -q sch_ingress || true
	modprobe -q cls_matchall || true
	modprobe -q act_gact || true
	topo_side ""
	topo_side f
	nsx xlf ip route add "$POOL6" via 2001:db8:4::2 dev v4
	for ns in "${!hold[@]}"; do
		grep -q "eth0:" "/proc/${hold[$ns]}/net/dev" ||
			{ say "no eth0 in $ns's holder's /proc/net/dev"; exit 1; }
	done
	sysctl -qw net.core.netdev_max_backlog=10000 2>/dev/null || true
}

topo_down() {
	local ns
	for ns in "${!hold[@]}"; do kill "${hold[$ns]}" 2>/dev/null || true; done
	bench_netns_del h6 xl h4 h6f xlf h4f
}

# sinks_drop on|off: the hosts drop what they receive at tc ingress (rate
# measurements) or take it (TCP, ping).
sinks_drop() {
	local ns
	for ns in h6 h4 h6f h4f; do
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
	# Builtins only in the loop (read, case): a process a command took
	# about a second a pair under emulation.
	nsx "$ns" sh -c 'f=$1; shift
		for c in "$@"; do
			echo "$c" >"$f" || exit 1
			case $f in */pgctrl) continue ;; esac
			r=
			while IFS= read -r l; do
				case $l in "Result: "*) r=$l ;; esac
			done <"$f"
			case $r in "Result: OK"*) ;; *)
				echo "pktgen refused $c: $r" >&2
				exit 1 ;;
			esac
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
	for ns in h6 h4 h6f h4f; do
		pgset $ns kpktgend_0 rem_device_all
		pgset $ns kpktgend_0 "add_device eth0"
	done
}

# side: "" or f, whose hosts pg_conf (and bench-vm.sh's gens and rxs) name:
# h6 and h4 (around xl) or h6f and h4f (around xlf).
side=

# pg_conf DIR SRC DST FLOWS: the generator of direction DIR (6to4 in h6,
# 4to6 in h4; h6f and h4f when side is f) sends 64-byte UDP (pktgen's minimum) from SRC to DST, FLOWS
# flows: the IPv6 host's port pseudorandom in PORT0..PORT0+FLOWS-1 (RFC
# 4814), or sequential with FLOWS given as "seqN" (every port in turn).
pg_conf() {
	local dir=$1 src=$2 dst=$3 flows=$4 ns=h6$side mac=$XL6_MAC hp=src fp=dst
	local seq=0 a rnd
	case $flows in seq*) seq=1; flows=${flows#seq} ;; esac
	a=("dst6 $dst" "src6 $src")
	if [ "$dir" = 4to6 ]; then
		ns=h4$side mac=$XL4_MAC hp=dst fp=src
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

# hosts_snap "NS..." "NS...": "offered received idle": the packets the first
# hosts' eth0 sent (tx_packets plus tx_dropped, what veth's peer refused:
# what the generators offered) and those the second hosts' eth0 received,
# read by one process from /proc/PID/net/dev of each host's holder, so
# that all of them are read at about one instant (one process per host
# took tens of ms under emulation, a skew of thousands of packets), and
# CPU 1's idle and iowait time so far, in USER_HZ ticks (/proc/stat; the
# kernel keeps it to the microsecond while the tick is stopped).
hosts_snap() {
	local ns g= r=
	for ns in $1; do g+=" /proc/${hold[$ns]}/net/dev"; done
	for ns in $2; do r+=" /proc/${hold[$ns]}/net/dev"; done
	awk -v g="$g" -v r="$r" '
	function rd(f,   l) {
		V[2] = V[10] = V[12] = 0
		while ((getline l < f) > 0)
			if (l ~ /^ *eth0:/) { sub(/^ *eth0: */, "", l); split(l, V, " "); break }
		close(f)
	}
	BEGIN {
		n = split(g, G, " "); for (i = 1; i <= n; i++) { rd(G[i]); tx += V[10] + V[12] }
		n = split(r, R, " "); for (i = 1; i <= n; i++) { rd(R[i]); rx += V[2] }
		while ((getline l < "/proc/stat") > 0)
			if (split(l, c, " ") > 5 && c[1] == "cpu1") { idle = c[5] + c[6]; break }
		printf "%.0f %.0f %.0f\n", tx, rx, idle
	}'
}
# now: the time in ns (bash's clock: no process).
now() { local t=$EPOCHREALTIME; echo "${t/[.,]/}000"; }
