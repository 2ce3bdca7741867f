#!/usr/bin/env bash
# make compare-jool: a randomized comparison of Tern with Jool 4.1.9 (SIIT)
# on RFC 7915 traffic, in one VM on Debian's 6.1 kernel. Installs Jool
# (test/compare/install-jool.sh), builds tern.ko and the CLI if needed,
# then runs test/compare/compare.py in the VM.
#
# COMPARE_PACKETS (per direction, default 2000; 50 for a smoke run),
# COMPARE_SEED (replay a run), COMPARE_VERBOSE=1 (3 examples per class).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
export VM_CPUS=${VM_CPUS:-1}
bash test/deps.sh
bash test/compare/install-jool.sh
k61=$(bash test/kernels.sh | cut -d' ' -f1)
bash test/build-mod.sh "$k61" >/dev/null
if [ ! -f usr/Makefile ]; then
	(cd usr && autoreconf -fi && ./configure -q)
fi
make -s -C usr >/dev/null
seed=${COMPARE_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
VM_TAG=compare-$k61 VM_TIMEOUT=${VM_TIMEOUT:-1800} bash test/vm.sh "$k61" \
	env COMPARE_SEED="$seed" COMPARE_PACKETS="${COMPARE_PACKETS:-2000}" \
	COMPARE_VERBOSE="${COMPARE_VERBOSE:-0}" \
	COMPARE_ICMP_ON_DROP="${COMPARE_ICMP_ON_DROP:-}" \
	COMPARE_FROM="${COMPARE_FROM:-}" COMPARE_TO="${COMPARE_TO:-}" \
	COMPARE_ONLY="${COMPARE_ONLY:-}" COMPARE_TRACE="${COMPARE_TRACE:-}" bash test/compare/in-vm.sh
