#!/usr/bin/env bash
# Prints the kernel releases Tern is tested on: Debian's default 6.1
# (linux-image-amd64) and the newest installed 6.12.
set -euo pipefail
k61=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null |
	grep -o 'linux-image-6\.1\.[^ ,]*-amd64' | head -n 1 | sed 's/^linux-image-//')
k612=$(ls /boot/vmlinuz-6.12.*-amd64 2>/dev/null | sed 's|^/boot/vmlinuz-||' |
	grep -v -- '-rt-\|-cloud-' | sort -V | tail -n 1)
[ -n "$k61" ] && [ -n "$k612" ] || { echo "kernels.sh: 6.1 or 6.12 kernel missing (run test/deps.sh)" >&2; exit 1; }
echo "$k61 $k612"
