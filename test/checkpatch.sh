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
# check FILE...: checkpatch's errors and warnings of each FILE; exit
# status 1 if there is one.
check() {
	local f out rc=0
	for f in "$@"; do
		out=$(perl "$cache/scripts/checkpatch.pl" --no-tree --terse --show-types \
			-f "$f" || true)
		if echo "$out" | grep -qE ': (ERROR|WARNING):'; then
			echo "$out" | grep -E ': (ERROR|WARNING):'
			rc=1
		fi
	done
	return $rc
}
export -f check
export cache
# Four files a process, a process per CPU (xargs exits 123 when a check
# failed).
printf '%s\n' mod/*.c mod/*/*.c mod/*/*.h include/*.h |
	xargs -P "$(nproc)" -n 4 bash -c 'check "$@"' check || exit 1
