#!/usr/bin/env bash
# Boots a kernel in a virtme-ng VM (software emulation) with the host's
# filesystem shared (virtiofs, or 9p) and runs test/in-vm.sh CMD... there,
# as root, from the repository root. .build/results is writable from the
# guest.
#
# Usage: test/vm.sh KREL CMD...          (Debian kernel /boot/vmlinuz-KREL)
#        VM_KERNEL=/path/bzImage test/vm.sh KREL CMD...
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
krel=$1
shift
kernel=${VM_KERNEL:-/boot/vmlinuz-$krel}
venv=${TERN_VENV:-/opt/tern-venv}
export PATH=$venv/bin:$PATH
# The guest's root: virtiofs when a virtiofsd can serve it (with Debian's
# C daemon through test/vm-tools/virtiofsd), else 9p. VM_FS=9p forces 9p.
fs=(--force-9p)
if [ "${VM_FS:-}" != 9p ]; then
	if command -v virtiofsd >/dev/null || [ -x /usr/libexec/virtiofsd ]; then
		fs=()
	elif [ -x /usr/lib/qemu/virtiofsd ]; then
		export PATH=$top/test/vm-tools:$PATH
		fs=()
	fi
fi
mkdir -p "$top/.build/results"
cd "$top"
# The guest gets the command line as one string: quote each word.
cmd=$(printf '%q ' "$top/test/in-vm.sh" "$@")
# VM_TAG names this run's results (default: the kernel release), so that
# two VMs on the same kernel can run side by side.
[ -n "${VM_TAG:-}" ] && cmd="env VM_TAG=$(printf '%q' "$VM_TAG") $cmd"
exec timeout "${VM_TIMEOUT:-2400}" vng --run "$kernel" --disable-kvm "${fs[@]}" \
	--cpus "${VM_CPUS:-2}" --memory "${VM_MEMORY:-2G}" --user root \
	--rwdir="$top/.build/results" -- "$cmd"
