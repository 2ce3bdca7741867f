#!/usr/bin/env bash
# make bench: Tern beside plain forwarding, Jool and Tayga, measured in one
# VM (Debian's 6.1 kernel, 2 vCPUs, software emulation) and one run by
# test/bench/bench-vm.sh, then tabulated and plotted by test/bench/report.py
# into .build/bench/DATE/ (results.tsv, results.md, *.png, bench.log).
#
# Installs what it needs (Jool 4.1.9 through test/compare/install-jool.sh:
# it builds only for 6.1, which is why the run is on 6.1; Tayga, iperf3,
# python3-matplotlib from Debian), builds tern.ko for 6.1 and the CLI.
#
# BENCH_SMOKE=1: the smoke run of `make check` (installs nothing; fwd, Tern
# SIIT (pool6, EAMT of 1 and 10,000 entries, iptables mode) and Tern NAT64
# plus what of Jool and Tayga is installed when BENCH_SYSTEMS says so; one
# short trial per measurement); its results go to
# .build/results/bench-smoke-KREL/ and it fails unless every metric has a
# figure above 0 for every system, every system but forwarding with its
# paired capacity against forwarding (capacity_vs_fwd) and added cost
# (added_ns), every NAT64 system with its stateful figures (tear-down to
# the last byte and the one-entry ratio among them), and raw.tsv logs
# their overload windows (report.py --check). Other settings: see
# bench-vm.sh.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
smoke=${BENCH_SMOKE:-}
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no kernel to name before test/deps.sh installs it.
[ -n "$smoke" ] || bash test/deps.sh >/dev/null
k61=$(bash test/kernels.sh | cut -d' ' -f1)
if [ -z "$smoke" ]; then
	bash test/compare/install-jool.sh ||
		echo "bench: Jool could not be installed: its systems are skipped" >&2
	missing=()
	for p in tayga iperf3 python3-matplotlib; do
		[ "$(dpkg-query -W -f='${Status}' $p 2>/dev/null)" = "install ok installed" ] ||
			missing+=("$p")
	done
	[ ${#missing[@]} = 0 ] || apt-get -y -q -o DPkg::Lock::Timeout=900 \
		install --no-install-recommends "${missing[@]}" >/dev/null
	bash test/build-mod.sh "$k61" >/dev/null
fi
[ -f ".build/$k61/mod/tern.ko" ] || bash test/build-mod.sh "$k61" >/dev/null
if [ ! -x usr/cli/tern ] || [ ! -f usr/xtables/.libs/libxt_TERN.so ]; then
	[ -f usr/Makefile ] || (cd usr && autoreconf -fi && ./configure -q)
	make -s -C usr >/dev/null
fi
# pktgen without its per-packet cpu_relax() (test/bench/pktgen-build.sh;
# BENCH_STOCK_PKTGEN=1: the kernel's own).
BENCH_PKTGEN_KO=
[ -n "${BENCH_STOCK_PKTGEN:-}" ] || BENCH_PKTGEN_KO=$(bash test/bench/pktgen-build.sh "$k61")
# The stateful measurements' generators and responder (.build/gen6, gen4,
# resp).
bash test/bench/stateful.sh --build

tag=bench${smoke:+-smoke}-$k61
vmout=$top/.build/results/$tag
rm -rf "$vmout" "$top/.build/results/vm-$tag.status"
mkdir -p "$vmout"
echo "bench: Debian $k61 (Jool 4.1.9 builds only for 6.1), 2 vCPUs under software emulation"
vars=()
for v in BENCH_SMOKE BENCH_SYSTEMS BENCH_REPS BENCH_STEPS BENCH_TRIAL \
	BENCH_SECONDS BENCH_FLOWS BENCH_TCP_SECONDS BENCH_PINGS BENCH_TCP_REPS \
	BENCH_CONN_N BENCH_SESSIONS BENCH_TPUT_SECS BENCH_CHUNK BENCH_FILL_CHUNK BENCH_DIRS BENCH_PERF \
	BENCH_ZL_SECS BENCH_ENTRY_PORTS BENCH_PAIR_SYSTEMS BENCH_PAIR_REPS \
	BENCH_PERF_SYMOFF BENCH_PARTS BENCH_ALT_KO BENCH_MAIN_KO BENCH_TCP_SYSTEMS \
	BENCH_PAIR_REPS_OTHER BENCH_PAIR_CONTROL BENCH_PAIR_ROUNDS BENCH_PAIR_SECONDS BENCH_STATE_REPS BENCH_JOOL_MAX_SESSIONS \
	BENCH_TEARDOWN_AT BENCH_STATE_BACKLOG BENCH_PKTGEN_KO BENCH_INSN_PROF; do
	[ -n "${!v:-}" ] && vars+=("$v=${!v}")
done
rc=0
# A loaded host stretches a run a lot (one repetition took 39 minutes
# on a host running 5-7 other VMs; a full run alone on a slow host needed
# more than 3 hours): generous limits.
timeout=14400
[ -n "$smoke" ] && timeout=3600
# 10M NAT64 sessions need room (test/bench/stateful-vm.sh): Tern's about
# 1.3 GB of slab and 0.4 GB of hash arrays, Jool's some 4 GB (measured
# below 1M sessions, it is skipped at 10M when they would not fit), a
# backlog of up to 1M frames during the fill; the smoke's 10,000 need
# little.
mem=8G
[ -n "$smoke" ] && mem=4G
VM_BENCH=${VM_BENCH:-1} VM_MEMORY=${VM_MEMORY:-$mem} VM_CPUS=2 VM_TAG=$tag VM_TIMEOUT=${VM_TIMEOUT:-$timeout} bash test/vm.sh "$k61" \
	env "${vars[@]}" bash test/bench/bench-vm.sh "$vmout" || rc=$?
st=$(cat "$top/.build/results/vm-$tag.status" 2>/dev/null || echo "no status (VM failed)")
if [ "$rc" != 0 ] || [ "$st" != ok ]; then
	echo "bench: the VM run failed (exit $rc, $st); log: .build/results/run-$tag.log" >&2
	exit 1
fi
if [ -n "$smoke" ]; then
	dest=$vmout
else
	dest=$top/.build/bench/$(date -u +%Y%m%d-%H%M%S)
	mkdir -p "$dest"
	cp "$vmout"/* "$dest/"
	cp "$top/.build/results/run-$tag.log" "$dest/bench.log"
fi
{
	echo "Debian $k61, 2 vCPUs (software emulation), tern.ko $(modinfo -F srcversion ".build/$k61/mod/tern.ko")"
	git log -1 --format='tree: %h %s' 2>/dev/null | cut -c1-100 || true
} >"$dest/about.txt"
# BENCH_INSN_PROF=1: each window's instructions by kernel function.
if [ -n "${BENCH_INSN_PROF:-}" ] && [ -s "$vmout/insn-prof.tsv" ]; then
	/usr/bin/python3 test/bench/insn-prof.py "$vmout" "$top/.build/results/hclock-$tag" >"$dest/insn-prof.md" ||
		echo "bench: insn-prof.py failed" >&2
fi
/usr/bin/python3 test/bench/report.py ${smoke:+--check} "$dest/results.tsv" "$dest"
# The targets' verdicts by the rules of docs/performance.md.
# Pairs whose window the generator set are left out (raw.tsv).
/usr/bin/python3 test/bench/judge.py "$dest/results.tsv" "$dest/raw.tsv" >"$dest/targets.md"
echo "bench: results in $dest (results.md, targets.md, results.tsv, plots)"
