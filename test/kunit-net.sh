#!/usr/bin/env bash
# KUnit VM only (in-vm.sh runs it before loading a module built with
# TERN_KUNIT=1, whose suites run at load time): the test network of
# mod/tests/kt_util.h in init_net. A veth pair tern-kt0/tern-kt1 with an
# address of each family, and routes for the test destinations through
# tern-kt0, where the suites capture (and drop) the translated packets.
#
# `kunit-net.sh down` takes it down again (in-vm.sh, before the functional
# suite runs in the same VM): the veth pair goes with its routes, and
# forwarding goes back off, which namespaces created later inherit.
set -eu
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
if [ "${1:-}" = down ]; then
	ip link del tern-kt0
	sysctl -qw net.ipv4.ip_forward=0 net.ipv6.conf.all.forwarding=0
	exit 0
fi
ip link add tern-kt0 type veth peer name tern-kt1
ip link set tern-kt0 up
ip link set tern-kt1 up
ip addr add 10.255.0.1/24 dev tern-kt0
ip -6 addr add fd00:7e57::1/64 dev tern-kt0 nodad
# The IPv4 side (TEST-NET-2/3) and the IPv6 side's IPv4 view (TEST-NET-1).
for p in 192.0.2.0/24 198.51.100.0/24 203.0.113.0/24; do
	ip route add "$p" dev tern-kt0
done
# pool6 of the suites.
ip -6 route add 2001:db8:64::/96 dev tern-kt0
# A translator forwards.
sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
