# Sourced in a VM by test/demo-in-vm.sh and test/dkms-vm.sh.
# siit_topology [ARG...]: three namespaces, client (IPv6 only, its
# address 2001:db8:64::c633:6402 = 198.51.100.2 under pool6
# 2001:db8:64::/96) --- tern --- server (IPv4 only, 203.0.113.2); ARGs
# end the client's route to pool6. No instance: the caller adds it.
siit_topology() {
	local n
	for n in client tern server; do ip netns add "$n"; ip -n "$n" link set lo up; done
	ip link add eth0 netns client type veth peer name v6 netns tern
	ip link add v4 netns tern type veth peer name eth0 netns server
	ip -n client addr add 2001:db8:6::2/64 dev eth0 nodad
	ip -n client addr add 2001:db8:64::c633:6402/128 dev eth0 nodad
	ip -n client link set eth0 up
	ip -n client route add 2001:db8:64::/96 via 2001:db8:6::1 "$@"
	ip -n tern addr add 2001:db8:6::1/64 dev v6 nodad
	ip -n tern addr add 203.0.113.1/24 dev v4
	ip -n tern link set v6 up
	ip -n tern link set v4 up
	ip -n tern route add 2001:db8:64::c633:6402/128 via 2001:db8:6::2
	ip -n server addr add 203.0.113.2/24 dev eth0
	ip -n server link set eth0 up
	ip -n server route add 198.51.100.0/24 via 203.0.113.1
}
