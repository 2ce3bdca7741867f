#!/usr/bin/env bash
# Builds tern.ko for kernel release $1 in .build/$1/mod (source tree untouched;
# with TERN_KUNIT=1, the build carrying the KUnit suites, in .build/$1-kunit).
# Usage: test/build-mod.sh KREL [KDIR] [extra make args...]
set -euo pipefail
krel=$1
kdir=${2:-/lib/modules/$krel/build}
shift $(( $# >= 2 ? 2 : 1 ))
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/.build/$krel
for a in "$@"; do
	[ "$a" = TERN_KUNIT=1 ] && out=$top/.build/$krel-kunit
done
mkdir -p "$out"
rsync -a --delete --exclude '*.o' --exclude '*.ko' --exclude '*.cmd' \
	"$top/mod/" "$out/mod/" 2>/dev/null || true
rsync -a --delete "$top/include/" "$out/include/"
cp "$top/VERSION" "$out/VERSION"	# read by mod/Kbuild
make -s -j"$(nproc)" -C "$kdir" M="$out/mod" W=1 "$@" modules
