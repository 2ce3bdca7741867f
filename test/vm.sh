#!/usr/bin/env bash
# Boots a kernel in a virtme-ng VM (software emulation) with the host's
# filesystem shared and runs test/in-vm.sh CMD... there, as root, from the
# repository root. .build/results is writable from the guest.
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
mkdir -p "$top/.build/results"
cd "$top"
# The guest gets the command line as one string: quote each word.
cmd=$(printf '%q ' "$top/test/in-vm.sh" "$@")
exec timeout "${VM_TIMEOUT:-2400}" vng --run "$kernel" --disable-kvm --force-9p \
	--cpus 2 --memory "${VM_MEMORY:-2G}" --user root \
	--rwdir="$top/.build/results" -- "$cmd"
