#!/usr/bin/env bash
# Checks that `dkms add . && dkms build tern/VERSION -k KREL` works for a
# kernel, then removes what it added. Usage: test/dkms.sh KREL
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
krel=$1
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")
# dkms.conf cannot read VERSION, the one version of module and CLI: it
# must say the same.
[ "$ver" = "$(cat "$top/VERSION")" ] ||
	{ echo "dkms.sh: dkms.conf says $ver, VERSION says $(cat "$top/VERSION")" >&2; exit 1; }
cleanup() {
	dkms remove "tern/$ver" --all >/dev/null 2>&1 || true
	rm -rf "/usr/src/tern-$ver"
}
cleanup
trap cleanup EXIT
cd "$top"
dkms add .
dkms build "tern/$ver" -k "$krel"
ko=$(find "/var/lib/dkms/tern/$ver/$krel" -name 'tern.ko*' | head -n 1)
[ -n "$ko" ] || { echo "dkms.sh: no tern.ko built for $krel" >&2; exit 1; }
modinfo -F vermagic "$ko" | grep -q "^$krel " ||
	{ echo "dkms.sh: $ko has the wrong vermagic" >&2; exit 1; }
echo "dkms.sh: built $ko"
