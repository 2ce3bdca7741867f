#!/usr/bin/env bash
# Runs inside the VM: loads tern.ko built for the running kernel, runs
# CMD..., unloads the module, and fails if the kernel logged a warning,
# BUG, oops, KASAN, lockdep or kmemleak report. Prints the kernel log on
# failure.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
krel=$(uname -r)
# test/run-kunit.sh needs the build with the KUnit suites (build-mod.sh
# TERN_KUNIT=1); its results are named apart, so that a functional run on
# the same kernel may go on at the same time in another VM.
build=$krel
tag=${VM_TAG:-$krel}
if [ "$(basename "${1:-}")" = run-kunit.sh ]; then
	build=$krel-kunit
	tag=$krel-kunit
fi
export VM_TAG=$tag
ko=$top/.build/$build/mod/tern.ko
export TERN=$top/usr/cli/tern
export TERN_REQUIRE_MODULE=1
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH

# Only what the kernel logged from the module's load on: an emulated boot
# of the debug kernel now and then logs a report of its own before that.
boot_lines=0
kernel_problems() {
	dmesg | tail -n +$((boot_lines + 1)) | grep -E 'WARNING:|BUG:|Oops|general protection fault|KASAN:|possible (recursive|circular) locking|inconsistent lock state|suspicious RCU usage|suspected memory leak|kernel BUG|Call Trace:'
}

t0=$(date +%s)
stamp() { echo "in-vm: $* (+$(($(date +%s) - t0))s)" >&2; }

status=ok
results=$top/.build/results
rc=0
for m in veth tun nf_defrag_ipv4 nf_defrag_ipv6 pktgen; do
	modprobe -q "$m" 2>/dev/null || true
done
if [ -d /sys/kernel/debug ] && ! mountpoint -q /sys/kernel/debug; then
	mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
fi
# The KUnit suites run when the module loads: their test network first
# (only for test/run-kunit.sh, i.e. on the debug kernel).
if [ "$(basename "${1:-}")" = run-kunit.sh ] && ! bash "$top/test/kunit-net.sh"; then
	echo "in-vm: test/kunit-net.sh failed" >&2
	status="kunit-net.sh failed"
	rc=1
fi
boot_lines=$(dmesg | wc -l)
stamp "loading $ko"
if ! insmod "$ko"; then
	echo "in-vm: cannot load $ko" >&2
	status="insmod failed"
	rc=1
else
	# The VM's console may lose output at power-off: keep a copy on the
	# shared results directory too.
	"$@" 2>&1 | tee "$results/run-$tag.log"
	rc=${PIPESTATUS[0]}
	stamp "command done (exit $rc)"
	if ! rmmod tern; then
		echo "in-vm: rmmod tern failed" >&2
		status="rmmod failed"
		rc=1
	fi
fi
if [ -w /sys/kernel/debug/kmemleak ]; then
	stamp "kmemleak scan"
	echo scan >/sys/kernel/debug/kmemleak
	sleep 1
	echo scan >/sys/kernel/debug/kmemleak
	leaks=$(cat /sys/kernel/debug/kmemleak)
	if [ -n "$leaks" ]; then
		echo "in-vm: kmemleak reports leaks:" >&2
		echo "$leaks" >&2
		status="kmemleak reports leaks"
		rc=1
	fi
fi
stamp "checking the kernel log"
if kernel_problems >/dev/null; then
	echo "in-vm: the kernel log shows problems:" >&2
	kernel_problems >&2
	status="kernel log shows problems"
	rc=1
fi
echo "$status" >"$results/vm-$tag.status"
dmesg >"$results/dmesg-$tag.log"
if [ "$rc" != 0 ]; then
	echo "----- kernel log ($tag) -----" >&2
	dmesg >&2
fi
sync
exit "$rc"
