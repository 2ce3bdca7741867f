#!/usr/bin/env bash
# Runs in a VM (test/dkms.sh, through test/in-vm.sh, which loaded VM_KO
# and unloads tern afterwards): `modprobe tern` must load the module DKMS
# installed, and that module must translate a ping (SIIT).
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
echo "dkms-vm: ok, ping translated on $krel"
