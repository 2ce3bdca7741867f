#!/usr/bin/env bash
# The demo proper, inside the VM (tern.ko already loaded by in-vm.sh).
set -euo pipefail
T=${TERN:?}
run() { echo; echo "\$ $*"; "$@"; }

# client (IPv6 only) --- tern (SIIT) --- server (IPv4 only)
. "$(dirname "${BASH_SOURCE[0]}")/siit-topology.sh"
siit_topology
mkdir -p /tmp/demo-www
echo "<h1>Hello from an IPv4-only server</h1>" >/tmp/demo-www/index.html
ip netns exec server /usr/bin/python3 -m http.server -b 203.0.113.2 -d /tmp/demo-www 80 \
	>/dev/null 2>&1 &
trap 'kill $(jobs -p) 2>/dev/null; for n in client tern server; do ip netns del $n; done' EXIT

echo "Topology: client (IPv6 only, 2001:db8:64::c633:6402) -- tern -- server (IPv4 only, 203.0.113.2)"
echo "pool6 2001:db8:64::/96: the client reaches the server at 2001:db8:64::203.0.113.2"
run ip netns exec tern "$T" instance add demo --siit --pool6 2001:db8:64::/96
run ip netns exec tern "$T" instance list
run ip netns exec client ping -c 3 2001:db8:64::cb00:7102
for i in $(seq 50); do
	ip netns exec server ss -ltn | grep -q 203.0.113.2:80 && break
	sleep 0.2
done
run ip netns exec client curl -sS -m 10 'http://[2001:db8:64::cb00:7102]/'
run ip netns exec tern "$T" stats

# The same client and server through stateful NAT64 (RFC 6146): the client
# now uses only its own address 2001:db8:6::2; Tern gives its flows
# transport addresses of pool4 (198.51.100.1) and keeps them as sessions.
echo
echo "== NAT64: the client's flows leave from pool4 198.51.100.1"
run ip netns exec tern "$T" instance remove demo
ip -n client addr del 2001:db8:64::c633:6402/128 dev eth0
ip -n client route replace 2001:db8:64::/96 via 2001:db8:6::1 src 2001:db8:6::2
run ip netns exec tern "$T" instance add demo --nat64 --pool6 2001:db8:64::/96
run ip netns exec tern "$T" pool4 add 198.51.100.1/32
run ip netns exec client ping -c 3 2001:db8:64::cb00:7102
run ip netns exec client curl -sS -m 10 'http://[2001:db8:64::cb00:7102]/'
ip netns exec server iperf3 -s -1 -B 203.0.113.2 >/dev/null 2>&1 &
for i in $(seq 50); do
	ip netns exec server ss -ltn | grep -q 203.0.113.2:5201 && break
	sleep 0.2
done
run ip netns exec client iperf3 -c 2001:db8:64::cb00:7102 -t 3 -f m
run ip netns exec tern "$T" session list
run ip netns exec tern "$T" bib list
run ip netns exec tern "$T" stats
