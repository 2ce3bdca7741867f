# shellcheck shell=bash
# Sourced by the benchmarks' in-VM scripts (bench-vm.sh through
# lib-topo.sh, siit-pktgen-vm.sh, nat64-sessions-vm.sh, stateful-vm.sh):
# the namespaces, veth pairs and device settings they all make.

nsx() { local ns=$1; shift; ip netns exec "$ns" "$@"; }

# bench_netns NS...: new namespaces, quiet on IPv6 (no DAD, no router
# solicitations, no RAs taken); with BENCH_NO_LL=1 no link-local address
# either (addr_gen_mode 1).
bench_netns() {
	local ns
	for ns; do
		ip netns add "$ns"
		nsx "$ns" sysctl -qw net.ipv6.conf.all.accept_dad=0 \
			net.ipv6.conf.default.accept_dad=0 \
			net.ipv6.conf.all.router_solicitations=0 \
			net.ipv6.conf.default.router_solicitations=0 \
			net.ipv6.conf.all.accept_ra=0 net.ipv6.conf.default.accept_ra=0
		[ -z "${BENCH_NO_LL:-}" ] ||
			nsx "$ns" sysctl -qw net.ipv6.conf.default.addr_gen_mode=1
	done
}

# bench_netns_del NS...: gone, if they were there.
bench_netns_del() {
	local ns
	for ns; do ip netns del "$ns" 2>/dev/null || true; done
}

# bench_veth NS1 MAC1 NS2 DEV2 MAC2: eth0 in NS1, its peer DEV2 in NS2.
bench_veth() {
	ip link add eth0 netns "$1" address "$2" type veth \
		peer name "$4" netns "$3" address "$5"
}

# ethtool_set NS IFACE CMD VALUE: one legacy ethtool "set" ioctl (the
# machine has no ethtool): 0x17 ETHTOOL_STXCSUM, 0x2c ETHTOOL_SGRO.
ethtool_set() {
	nsx "$1" /usr/bin/python3 - "$2" "$3" "$4" <<'EOT'
import ctypes, fcntl, socket, struct, sys
ev = ctypes.create_string_buffer(
    struct.pack("II", int(sys.argv[2], 0), int(sys.argv[3])), 8)
ifr = struct.pack("16sP16x", sys.argv[1].encode(), ctypes.addressof(ev))
fcntl.ioctl(socket.socket(socket.AF_INET, socket.SOCK_DGRAM), 0x8946, ifr)
EOT
}
