#!/usr/bin/env bash
# make check: installs what it needs, builds everything, runs every test
# (host checks, then the functional suite in a VM per kernel) and ends
# with "N passed, N failed". Exit status 0 only if nothing failed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
res=$top/.build/results
log=$top/.build/logs
cd "$top" || exit 1
rm -rf "$res" "$log"
mkdir -p "$res" "$log"

# record NAME RC [LOGFILE]: one host-side check.
record() {
	if [ "$2" = 0 ]; then
		echo "PASS $1" >>"$res/host.tsv"
		echo "ok    $1"
	else
		echo "FAIL $1" >>"$res/host.tsv"
		echo "FAIL  $1"
		[ -n "${3:-}" ] && [ -f "$3" ] && tail -n 40 "$3" | sed 's/^/      | /'
	fi
}

step() { echo; echo "== $*"; }

step "dependencies"
if ! bash test/deps.sh >"$log/deps.log" 2>&1; then
	tail -n 40 "$log/deps.log"
	echo "0 passed, 1 failed"
	exit 1
fi
read -r -a kernels <<<"$(bash test/kernels.sh)"
echo "kernels: ${kernels[*]}"

step "module builds (W=1, warnings are failures)"
for k in "${kernels[@]}"; do
	bash test/build-mod.sh "$k" >"$log/build-$k.log" 2>&1
	rc=$?
	grep -qi 'warning:' "$log/build-$k.log" && rc=1
	record "build tern.ko W=1 for $k" "$rc" "$log/build-$k.log"
done

step "CLI build"
(cd usr && autoreconf -fi && ./configure -q && make -s) >"$log/cli.log" 2>&1
record "build tern CLI (autotools, libnl-genl-3)" $? "$log/cli.log"

step "CLI offline checks"
if [ -x usr/tests/cli-offline.sh ] || [ -f usr/tests/cli-offline.sh ]; then
	bash usr/tests/cli-offline.sh >"$log/cli-offline.log" 2>&1
	while read -r word name; do
		case $word in
		ok) record "cli: $name" 0 ;;
		FAIL) record "cli: $name" 1 ;;
		esac
	done <"$log/cli-offline.log"
fi

step "checkpatch"
bash test/checkpatch.sh >"$log/checkpatch.log" 2>&1
record "checkpatch.pl --no-tree -f clean on mod/ and include/" $? "$log/checkpatch.log"

step "DKMS"
for k in "${kernels[@]}"; do
	bash test/dkms.sh "$k" >"$log/dkms-$k.log" 2>&1
	record "dkms add . && dkms build for $k" $? "$log/dkms-$k.log"
done

step "functional suite in VMs"
for k in "${kernels[@]}"; do
	echo "-- $k (booting a VM under software emulation; the log is in $log/vm-$k.log)"
	bash test/vm.sh "$k" test/run-functional.sh >"$log/vm-$k.log" 2>&1
	grep -E '^(FAILED|ERROR) |passed|failed' "$res/run-$k.log" 2>/dev/null | tail -n 30
	[ -f "$res/functional-$k.xml" ] ||
		record "functional suite produced results on $k" 1 "$log/vm-$k.log"
	st=$(cat "$res/vm-$k.status" 2>/dev/null || echo "no status (VM failed)")
	if [ "$st" != ok ]; then
		echo "      | $st; kernel log: $res/dmesg-$k.log"
		grep -E 'WARNING:|BUG:|Oops|KASAN|lockdep|leak' "$res/dmesg-$k.log" 2>/dev/null |
			head -n 20 | sed 's/^/      | /'
	fi
	record "VM $k: module loads and unloads, kernel log clean" \
		"$([ "$st" = ok ] && echo 0 || echo 1)" "$log/vm-$k.log"
done

step "KUnit on the debug kernel (KUnit, KASAN, lockdep, kmemleak)"
if tree=$(bash test/kernel/build.sh 2>"$log/kernel-build.log"); then
	krel=$(make -s -C "$tree" kernelrelease)
	bash test/build-mod.sh "$krel" "$tree" TERN_KUNIT=1 >"$log/build-$krel.log" 2>&1
	rc=$?
	grep -qi 'warning:' "$log/build-$krel.log" && rc=1
	record "build tern.ko W=1 with KUnit suites for the debug kernel $krel" "$rc" "$log/build-$krel.log"
	if [ "$rc" = 0 ]; then
		VM_KERNEL=$tree/arch/x86/boot/bzImage VM_MEMORY=3G \
			bash test/vm.sh "$krel" test/run-kunit.sh >"$log/vm-$krel.log" 2>&1
		[ -s "$res/kunit-$krel.ktap" ] ||
			record "KUnit suites ran on $krel" 1 "$log/vm-$krel.log"
		grep -E '^\s*not ok' "$res/kunit-$krel.ktap" 2>/dev/null | sed 's/^/      | /'
		st=$(cat "$res/vm-$krel.status" 2>/dev/null || echo "no status (VM failed)")
		[ "$st" = ok ] || echo "      | $st; kernel log: $res/dmesg-$krel.log"
		record "VM $krel (debug): module loads and unloads, no KASAN/lockdep/kmemleak report" \
			"$([ "$st" = ok ] && echo 0 || echo 1)" "$log/vm-$krel.log"
		# The packet-path part of the functional suite on the debug
		# kernel (the whole suite takes ~6x longer there than on
		# Debian's kernels: see docs/testing.md).
		echo "-- functional suite (packet path) on $krel"
		# Without the KUnit suites: they ran above, and would run again.
		bash test/build-mod.sh "$krel" "$tree" >>"$log/build-$krel.log" 2>&1
		VM_KERNEL=$tree/arch/x86/boot/bzImage VM_MEMORY=3G VM_TIMEOUT=2400 \
			bash test/vm.sh "$krel" test/run-functional.sh \
			$(cat test/functional/debug-kernel.list) \
			>"$log/vm-$krel-functional.log" 2>&1
		grep -E '^(FAILED|ERROR) |passed|failed' "$res/run-$krel.log" 2>/dev/null | tail -n 30
		[ -f "$res/functional-$krel.xml" ] ||
			record "functional suite produced results on $krel" 1 "$log/vm-$krel-functional.log"
		st=$(cat "$res/vm-$krel.status" 2>/dev/null || echo "no status (VM failed)")
		if [ "$st" != ok ]; then
			echo "      | $st; kernel log: $res/dmesg-$krel.log"
			grep -E 'WARNING:|BUG:|Oops|KASAN|lockdep|leak' "$res/dmesg-$krel.log" 2>/dev/null |
				head -n 20 | sed 's/^/      | /'
		fi
		record "VM $krel (debug) functional run: no KASAN/lockdep/kmemleak report" \
			"$([ "$st" = ok ] && echo 0 || echo 1)" "$log/vm-$krel-functional.log"
	fi
else
	record "build the debug kernel (test/kernel/build.sh)" 1 "$log/kernel-build.log"
fi

step "summary"
/usr/bin/python3 test/summarize.py "$res"
