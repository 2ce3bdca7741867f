#!/usr/bin/env bash
# A NAT64 instance filled with 1,000,000 UDP sessions in one VM (see
# test/bench/README.md and docs/performance.md): the counts of tern stats
# and tern session list, the memory a session takes (slab caches,
# MemAvailable, hash tables), the time of the listing, of instance remove
# and of session flush, and that remove gives everything back. Builds
# .build/gen6 (test/bench/gen6.c, the generator); takes a built tern.ko
# (default: this tree's build for Debian's 6.1 kernel,
# `bash test/build-mod.sh 6.1.0-56-amd64`) and this tree's usr/cli/tern.
#
# Usage: test/bench/nat64-sessions.sh [TERN_KO]
#   BENCH_COUNT=1000000  sessions
#   BENCH_CHUNK=50000    flows sent at once (xl's backlog has room for two)
#   BENCH_FLUSH=1        a second fill, for the time of session flush
#   VM_MEMORY=4G, VM_CPUS=2 (the generator on CPU 0, xl on CPU 1)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
ko=${1:-$top/.build/6.1.0-56-amd64/mod/tern.ko}
if [ ! -f "$ko" ]; then
	echo "nat64-sessions: no $ko; build it: bash test/build-mod.sh 6.1.0-56-amd64" >&2
	exit 1
fi
ko=$(cd "$(dirname "$ko")" && pwd)/$(basename "$ko")
if [ ! -x "$top/usr/cli/tern" ]; then
	echo "nat64-sessions: no usr/cli/tern; build it:" \
		"(cd usr && autoreconf -fi && ./configure -q && make -s)" >&2
	exit 1
fi
mkdir -p "$top/.build"
cc -O2 -Wall -o "$top/.build/gen6" "$top/test/bench/gen6.c"
krel=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
tag=${VM_TAG:-bench-$krel}
out=$top/.build/results/bench-nat64-sessions-$tag.md
rm -f "$out"
rc=0
VM_BENCH=${VM_BENCH:-1} VM_CPUS=${VM_CPUS:-2} VM_MEMORY=${VM_MEMORY:-4G} VM_TAG=$tag VM_KO=$ko \
	bash "$top/test/vm.sh" "$krel" test/bench/nat64-sessions-vm.sh \
	"${BENCH_COUNT:-1000000}" "${BENCH_CHUNK:-50000}" "${BENCH_FLUSH:-1}" ||
	rc=$?
# The console may lose the end of the output at power off: the table again.
if [ -s "$out" ]; then
	echo
	echo "tern.ko: $ko ($(modinfo -F srcversion "$ko"))"
	git -C "$top" log -1 --format='tree: %h %s' 2>/dev/null | cut -c1-100 || true
	cat "$out"
fi
exit "$rc"
