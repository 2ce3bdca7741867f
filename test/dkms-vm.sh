#!/usr/bin/env bash
# Runs in a VM (test/dkms.sh, through test/in-vm.sh, which loaded VM_KO
# and unloads tern afterwards): `modprobe tern` must load the module DKMS
# installed, and that module must translate a ping (SIIT); a TERN rule
# added before anything loaded tern (iptables-restore at boot) must load
# it (its aliases ipt_TERN, ip6t_TERN), with each iptables variant.
set -euo pipefail
T=${TERN:?}
krel=$(uname -r)
fail() { echo "dkms-vm: $*" >&2; exit 1; }
rmmod tern
how=$(modprobe -v tern)
path=$(modinfo -n tern)
case $path in
/lib/modules/"$krel"/updates/dkms/tern.ko*) ;;
*) fail "modprobe finds $path, not DKMS's module" ;;
esac
[ "$how" = "insmod $path " ] || [ "$how" = "insmod $path" ] ||
	fail "modprobe -v said \"$how\", not insmod $path"
loaded=$(cat /sys/module/tern/srcversion)
[ "$loaded" = "$(modinfo -F srcversion "$path")" ] ||
	fail "the loaded tern (srcversion $loaded) is not $path"
echo "dkms-vm: modprobe tern loaded $path (srcversion $loaded)"

# client (IPv6 only) --- tern (SIIT, pool6 2001:db8:64::/96) --- server (IPv4)
trap 'for n in client tern server; do ip netns del $n 2>/dev/null; done' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/siit-topology.sh"
siit_topology src 2001:db8:64::c633:6402
ip netns exec tern "$T" instance add dkms --siit --pool6 2001:db8:64::/96
ip netns exec client ping -c 2 -W 5 2001:db8:64::cb00:7102 ||
	fail "no ping through the DKMS-built module"
ip netns exec tern "$T" instance remove dkms
echo "dkms-vm: ping translated on $krel"

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sys=$(pkg-config --variable=xtlibdir xtables 2>/dev/null || true)
xt=$top/usr/xtables/.libs:${sys:-/usr/lib/x86_64-linux-gnu/xtables}
unload() {
	# nf_tables destroys a deleted rule (and drops its hold) later.
	for _ in $(seq 50); do
		rmmod tern 2>/dev/null && return 0
		sleep 0.2
	done
	fail "tern stays loaded: $(cat /sys/module/tern/refcnt 2>/dev/null) users"
}
for tool in iptables-legacy ip6tables-legacy iptables-nft ip6tables-nft; do
	unload
	ip netns exec tern env XTABLES_LIBDIR="$xt" "$tool" -w -t mangle \
		-A PREROUTING -j TERN --instance dkms ||
		fail "$tool -j TERN with tern unloaded: refused"
	[ -d /sys/module/tern ] || fail "$tool -j TERN did not load tern"
	[ "$(cat /sys/module/tern/srcversion)" = "$loaded" ] ||
		fail "$tool -j TERN loaded another tern"
	ip netns exec tern env XTABLES_LIBDIR="$xt" "$tool" -w -t mangle \
		-D PREROUTING -j TERN --instance dkms
	echo "dkms-vm: $tool -j TERN loaded tern by its alias"
done
echo "dkms-vm: ok, ping translated on $krel, TERN rules load tern"
