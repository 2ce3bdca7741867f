#!/usr/bin/env bash
# The DKMS lifecycle, on this host and in VMs: `make dkms-src` installs
# the module's sources in /usr/src/tern-VERSION (what package tern-dkms
# holds), `dkms add`, then for each kernel `dkms build` and `dkms
# install`; a VM of each kernel (side by side) loads the installed module
# with `modprobe tern` and translates a ping (test/dkms-vm.sh); then
# `dkms remove --all` must leave no module, no DKMS state, no modules.dep
# line. Prints "ok NAME" / "FAIL NAME" per check; exit status 1 if any
# failed. Needs the CLI built (usr/cli/tern). Usage: test/dkms.sh KREL...
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
res=$top/.build/results
cd "$top" || exit 1
mkdir -p "$res"
ver=$(cat VERSION)
src=/usr/src/tern-$ver
. "$top/test/check-lib.sh"
cleanup() {
	dkms remove "tern/$ver" --all >/dev/null 2>&1
	rm -rf "$src"
}

conf_ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
check "dkms.conf's PACKAGE_VERSION ($conf_ver) is VERSION's ($ver)" [ "$conf_ver" = "$ver" ]

cleanup
trap cleanup EXIT
make -s dkms-src >/dev/null
check "make dkms-src: $src has dkms.conf, VERSION, mod/, include/ and no test/, docs/, usr/, mod/tests/" \
	bash -c '[ -f "$1/dkms.conf" ] && [ -f "$1/VERSION" ] && [ -f "$1/mod/Kbuild" ] &&
		[ -f "$1/include/tern_genl.h" ] && [ ! -e "$1/test" ] && [ ! -e "$1/docs" ] &&
		[ ! -e "$1/usr" ] && [ ! -e "$1/mod/tests" ]' _ "$src"
check "dkms add tern/$ver" dkms add "tern/$ver"

vm_kernels=()
for k in "$@"; do
	check "dkms build tern/$ver -k $k" dkms build "tern/$ver" -k "$k" || continue
	check "dkms install tern/$ver -k $k" dkms install "tern/$ver" -k "$k" || continue
	ko=$(ls /lib/modules/"$k"/updates/dkms/tern.ko* 2>/dev/null | head -n 1)
	check "dkms installed /lib/modules/$k/updates/dkms/tern.ko* with vermagic $k" \
		bash -c '[ -n "$1" ] && modinfo -F vermagic "$1" | grep -q "^$2 "' _ "$ko" "$k" &&
		vm_kernels+=("$k")
done

# The VMs (one vCPU each, side by side) share this host's /lib/modules
# (test/vm.sh): they see DKMS's module.
pids=()
for k in "${vm_kernels[@]}"; do
	ko=$(ls /lib/modules/"$k"/updates/dkms/tern.ko* | head -n 1)
	VM_CPUS=1 VM_TAG=dkms-$k VM_KO=$ko bash test/vm.sh "$k" test/dkms-vm.sh >"$res/vm-dkms-$k.console" 2>&1 &
	pids+=($!)
done
[ ${#pids[@]} -gt 0 ] && wait "${pids[@]}"
for k in "${vm_kernels[@]}"; do
	check "VM $k: modprobe tern loads DKMS's module, it translates a ping, a TERN rule (iptables and ip6tables, legacy and nft) loads it when unloaded, kernel log clean" \
		bash -c '[ "$(cat "$1/vm-dkms-$2.status" 2>/dev/null)" = ok ] &&
			grep -q "^dkms-vm: ok" "$1/run-dkms-$2.log"' _ "$res" "$k" ||
		{ grep -E '^dkms-vm|^in-vm' "$res/vm-dkms-$k.console" | tail -n 20; }
done

check "dkms remove tern/$ver --all" dkms remove "tern/$ver" --all
check "nothing of tern left in /lib/modules/*/updates/dkms, modules.dep, /var/lib/dkms" \
	bash -c '! ls /lib/modules/*/updates/dkms/tern* >/dev/null 2>&1 &&
		! grep -qs "updates/dkms/tern\." /lib/modules/*/modules.dep &&
		[ ! -e /var/lib/dkms/tern ]'
# The sources are the package's (tern-dkms), removed with it, not by dkms.
rm -rf "$src"
check "no /usr/src/tern-* once the sources are removed" bash -c '! ls -d /usr/src/tern-* >/dev/null 2>&1'
exit $failed
