#!/usr/bin/env bash
# make check-debug: the whole functional suite on the debug kernel (KUnit
# kernel with KASAN, lockdep, kmemleak), in two VMs side by side, each
# with half of the test files. Hours under emulation (docs/testing.md),
# which is why `make check` runs only the packet-path subset there
# (test/functional/debug-kernel.list). A KASAN, lockdep or kmemleak report
# in either VM fails the run. Ends with "N passed, N failed".
# Assumes `make check` (or test/deps.sh and the CLI build) ran before.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
res=$top/.build/results
log=$top/.build/logs
out=$top/.build/results-debug
mkdir -p "$res" "$log"
rm -rf "$out"
mkdir -p "$out"

tree=$(bash test/kernel/build.sh 2>"$log/kernel-build.log") || {
	tail -n 20 "$log/kernel-build.log"
	echo "0 passed, 1 failed"
	exit 1
}
krel=$(make -s -C "$tree" kernelrelease)
if ! bash test/build-mod.sh "$krel" "$tree" >"$log/build-$krel.log" 2>&1; then
	tail -n 20 "$log/build-$krel.log"
	echo "0 passed, 1 failed"
	exit 1
fi
if [ ! -x usr/cli/tern ]; then
	echo "check-debug: build the CLI first (make check, or usr/: autoreconf -fi && ./configure && make)" >&2
	exit 1
fi

# Two halves of about the same running time (measured on Debian's 6.1).
half_a=(test_eamt.py test_icmp_errors.py test_fragments.py test_traffic.py
	test_topology.py)
half_b=()
for f in test/functional/test_*.py; do
	f=${f##*/}
	case " ${half_a[*]} " in *" $f "*) ;; *) half_b+=("$f") ;; esac
done

export VM_KERNEL=$tree/arch/x86/boot/bzImage VM_MEMORY=3G VM_CPUS=1 VM_TIMEOUT=5400
pids=()
for h in a b; do
	if [ $h = a ]; then files=("${half_a[@]}"); else files=("${half_b[@]}"); fi
	rm -f "$res/functional-$krel-$h.xml" "$res/vm-$krel-$h.status"
	echo "-- $krel, half $h: ${files[*]} (the log is in $log/vm-$krel-debug-$h.log)"
	VM_TAG=$krel-$h bash test/vm.sh "$krel" test/run-functional.sh \
		"${files[@]/#/test/functional/}" >"$log/vm-$krel-debug-$h.log" 2>&1 &
	pids+=($!)
done
wait "${pids[@]}"

for h in a b; do
	tag=$krel-$h
	grep -E '^(FAILED|ERROR) |passed|failed' "$res/run-$tag.log" 2>/dev/null | tail -n 30
	st=$(cat "$res/vm-$tag.status" 2>/dev/null || echo "no status (VM failed)")
	if [ "$st" = ok ]; then
		echo "PASS VM $tag: module loads and unloads, no KASAN/lockdep/kmemleak report" >>"$out/host.tsv"
	else
		echo "      | $st; kernel log: $res/dmesg-$tag.log"
		grep -E 'WARNING:|BUG:|Oops|KASAN|lockdep|leak' "$res/dmesg-$tag.log" 2>/dev/null |
			head -n 20 | sed 's/^/      | /'
		echo "FAIL VM $tag: module loads and unloads, no KASAN/lockdep/kmemleak report" >>"$out/host.tsv"
	fi
	if [ -f "$res/functional-$tag.xml" ]; then
		cp "$res/functional-$tag.xml" "$out/"
	else
		echo "FAIL functional suite produced results on $tag" >>"$out/host.tsv"
	fi
done
/usr/bin/python3 test/summarize.py "$out"
