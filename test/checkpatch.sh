#!/usr/bin/env bash
# Runs the kernel's checkpatch.pl (taken from Debian's linux-source-6.1,
# cached in ~/.cache/tern) on every kernel source file.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/tern/checkpatch
tarball=$(ls /usr/src/linux-source-6.1.tar.xz)
if [ ! -f "$cache/scripts/checkpatch.pl" ] || [ "$tarball" -nt "$cache/scripts/checkpatch.pl" ]; then
	rm -rf "$cache"
	mkdir -p "$cache"
	tar -xmJf "$tarball" -C "$cache" --strip-components=1 --wildcards \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch'
fi
cd "$top"
rc=0
for f in mod/*.c mod/*/*.c mod/*/*.h include/*.h; do
	out=$(perl "$cache/scripts/checkpatch.pl" --no-tree --terse --show-types \
		-f "$f" || true)
	if echo "$out" | grep -qE ': (ERROR|WARNING):'; then
		echo "$out" | grep -E ': (ERROR|WARNING):'
		rc=1
	fi
done
exit $rc
