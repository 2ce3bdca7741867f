#!/usr/bin/env bash
# Throughput of Tern SIIT 6->4 against plain IPv6 forwarding, measured with
# the kernel's pktgen in one VM (see test/bench/README.md). Builds nothing:
# takes a built tern.ko (default: this tree's build for Debian's 6.1 kernel,
# `bash test/build-mod.sh 6.1.0-56-amd64`) and this tree's usr/cli/tern.
#
# Usage: test/bench/siit-pktgen.sh [TERN_KO [TERN_KO_B]]
#   With TERN_KO_B (another build, e.g. of an older commit), its windows are
#   interleaved with the others in the same VM (fwd, tern, tern-b, fwd...):
#   a before/after comparison measured in one run.
#   BENCH_REPS=3     repetitions per system (interleaved fwd, tern, fwd, ...)
#   BENCH_SECONDS=5  length of one measuring window
#   BENCH_WARMUP=1   seconds of traffic before each window
#   VM_CPUS=2        (at least 2: pktgen on CPU 0, forwarding on CPU 1)
#   BENCH_NAT64=1    a third system: the same packets through a NAT64
#                    instance (one established session)
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
ko=${1:-$top/.build/6.1.0-56-amd64/mod/tern.ko}
if [ ! -f "$ko" ]; then
	echo "siit-pktgen: no $ko; build it: bash test/build-mod.sh 6.1.0-56-amd64" >&2
	exit 1
fi
ko=$(cd "$(dirname "$ko")" && pwd)/$(basename "$ko")
ko_b=${2:-}
if [ -n "$ko_b" ]; then
	[ -f "$ko_b" ] || { echo "siit-pktgen: no $ko_b" >&2; exit 1; }
	ko_b=$(cd "$(dirname "$ko_b")" && pwd)/$(basename "$ko_b")
fi
if [ ! -x "$top/usr/cli/tern" ]; then
	echo "siit-pktgen: no usr/cli/tern; build it:" \
		"(cd usr && autoreconf -fi && ./configure -q && make -s)" >&2
	exit 1
fi
krel=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
tag=bench-$krel
out=$top/.build/results/bench-siit-pktgen-$tag.md
rm -f "$out"
rc=0
VM_BENCH=${VM_BENCH:-1} VM_CPUS=${VM_CPUS:-2} VM_TAG=$tag VM_KO=$ko BENCH_NAT64=${BENCH_NAT64:-} BENCH_PERF=${BENCH_PERF:-} BENCH_PERF_OFF=${BENCH_PERF_OFF:-} bash "$top/test/vm.sh" "$krel" \
	test/bench/siit-pktgen-vm.sh "${BENCH_REPS:-3}" "${BENCH_SECONDS:-5}" \
	"${BENCH_WARMUP:-1}" $ko_b || rc=$?
# The console may lose the end of the output at power off: the table again.
if [ -s "$out" ]; then
	echo
	echo "tern.ko: $ko ($(modinfo -F srcversion "$ko"))"
	[ -z "$ko_b" ] || echo "tern-b:  $ko_b ($(modinfo -F srcversion "$ko_b"))"
	git -C "$top" log -1 --format='tree: %h %s' 2>/dev/null | cut -c1-100 || true
	cat "$out"
fi
exit "$rc"
