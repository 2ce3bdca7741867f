#!/usr/bin/env bash
# The stateful NAT64 measurements (connection establishment rate with its
# real phase, throughput, fill rate and slab bytes a session with
# 10k/100k/1M/10M sessions, tear-down rate) of Tern NAT64 and Jool NAT64
# in one VM on Debian's 6.1: builds .build/gen6 and .build/resp, boots the
# VM (test/vm.sh, 2 vCPUs, VM_MEMORY=8G: 10M sessions) running
# test/bench/stateful-vm.sh, and prints the TSV it wrote. See
# test/bench/README.md and docs/performance.md.
#
# Usage: test/bench/stateful.sh [--build] [TERN_KO [SYSTEMS...]]
#   --build: only compile .build/gen6, gen4 and resp (for make bench).
#   TERN_KO: default this tree's build for 6.1 (test/build-mod.sh).
#   SYSTEMS: default tern-nat64 jool-nat64 (Jool needs
#   test/compare/install-jool.sh).
#   BENCH_SMOKE, BENCH_REPS, BENCH_CONN_N, BENCH_SESSIONS, BENCH_TPUT_SECS,
#   BENCH_STEPS, BENCH_CHUNK, BENCH_FILL_CHUNK, BENCH_ZL_SECS, BENCH_PERF, BENCH_ENTRY_PORTS,
#   BENCH_PARTS, BENCH_JOOL_MAX_SESSIONS, BENCH_TEARDOWN_AT, BENCH_STATE_BACKLOG,
#   BENCH_INSN_PROF: see stateful-vm.sh.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$top/.build"
for p in gen6 gen4 resp; do
	cc -O2 -Wall -Wextra -o "$top/.build/$p" "$top/test/bench/$p.c"
done
[ "${1:-}" = --build ] && exit 0
ko=${1:-$top/.build/$(bash "$top/test/kernels.sh" | cut -d' ' -f1)/mod/tern.ko}
[ $# -gt 0 ] && shift
systems=("$@")
[ ${#systems[@]} -gt 0 ] || systems=(tern-nat64 jool-nat64)
if [ ! -f "$ko" ]; then
	echo "stateful: no $ko; build it: bash test/build-mod.sh KREL" >&2
	exit 1
fi
ko=$(cd "$(dirname "$ko")" && pwd)/$(basename "$ko")
if [ ! -x "$top/usr/cli/tern" ]; then
	echo "stateful: no usr/cli/tern; build it:" \
		"(cd usr && autoreconf -fi && ./configure -q && make -s)" >&2
	exit 1
fi
krel=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
tag=${VM_TAG:-stateful-$krel}
# The guest writes only below .build/results.
out=$top/.build/results/$tag
rm -rf "$out"
mkdir -p "$out"
envs=()
for v in BENCH_SMOKE BENCH_REPS BENCH_CONN_N BENCH_SESSIONS BENCH_TPUT_SECS \
	BENCH_STEPS BENCH_CHUNK BENCH_FILL_CHUNK BENCH_ZL_SECS BENCH_PERF BENCH_ENTRY_PORTS \
	BENCH_PARTS BENCH_JOOL_MAX_SESSIONS BENCH_TEARDOWN_AT BENCH_STATE_BACKLOG BENCH_INSN_PROF; do
	[ -n "${!v:-}" ] && envs+=("$v=${!v}")
done
rc=0
VM_BENCH=${VM_BENCH:-1} VM_CPUS=${VM_CPUS:-2} VM_MEMORY=${VM_MEMORY:-8G} VM_TAG=$tag VM_KO=$ko \
	bash "$top/test/vm.sh" "$krel" env "${envs[@]}" \
	bash "$top/test/bench/stateful-vm.sh" "$out" "${systems[@]}" || rc=$?
echo
echo "tern.ko: $ko ($(modinfo -F srcversion "$ko"))"
git -C "$top" log -1 --format='tree: %h %s' 2>/dev/null | cut -c1-100 || true
if [ -s "$out/results.tsv" ]; then
	cat "$out/results.tsv"
else
	echo "stateful: no $out/results.tsv" >&2
	rc=1
fi
exit "$rc"
