#!/usr/bin/env bash
# Runs inside the VM: loads tern.ko built for the running kernel, runs
# CMD..., unloads the module, and fails if the kernel logged a warning,
# BUG, oops, KASAN, lockdep or kmemleak report. Prints the kernel log on
# failure.
#
# test/run-kunit.sh as CMD needs the build with the KUnit suites
# (build-mod.sh TERN_KUNIT=1, in .build/KREL-kunit); its results are named
# KREL-kunit. With VM_KUNIT=1 the KUnit suites run first (that build,
# loaded, collected, unloaded), then CMD with the plain build: one boot of
# the debug kernel for both. VM_TAG names CMD's results (default KREL).
# VM_KO: the tern.ko to load for CMD instead of .build/KREL/mod/tern.ko.
set -u
# test/vm.sh's sign that the guest booted (its boot watchdog).
[ -n "${VM_STARTED:-}" ] && : >"$VM_STARTED"
# VM_HOLD=FILE: wait (up to 20 minutes) for FILE before anything else, so
# that another VM can boot while this one sits idle (test/check.sh).
if [ -n "${VM_HOLD:-}" ]; then
	for _ in $(seq 1200); do
		[ -e "$VM_HOLD" ] && break
		sleep 1
	done
fi
top=$(cd "$(dirname "$0")/.." && pwd)
krel=$(uname -r)
tag=${VM_TAG:-$krel}
kunit=${VM_KUNIT:-0}
build=$krel
if [ "$(basename "${1:-}")" = run-kunit.sh ]; then
	build=$krel-kunit
	tag=$krel-kunit
	kunit=0
fi
export VM_TAG=$tag
export TERN=$top/usr/cli/tern
export TERN_REQUIRE_MODULE=1
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
results=$top/.build/results

# Only what the kernel logged from the first module load on: an emulated
# boot of the debug kernel now and then logs a report of its own before.
boot_lines=0
kernel_problems() {
	dmesg | tail -n +$((boot_lines + 1)) | grep -E 'WARNING:|BUG:|Oops|general protection fault|KASAN:|UBSAN:|KFENCE:|possible (recursive|circular) locking|inconsistent lock state|suspicious RCU usage|suspected memory leak|kernel BUG|Call Trace:' |
		grep -v 'pktgen: WARNING: trying to remove a running interface'
}

t0=$(date +%s)
stamp() { echo "in-vm: $* (+$(($(date +%s) - t0))s)" >&2; }

# The guest's half of test/vm.sh's stall watchdog (VM_STALL_TIMEOUT):
# when CMD's output and the kernel log have stood still for all but two
# minutes of it, the stacks of every task running or waiting in the kernel
# (state R or D) go into the kernel log, and sysrq w adds the blocked
# ones'; then .stalled-TAG tells test/vm.sh, which prints the end of that
# log and stops the guest. A hang then shows where it is, not only that
# nothing moved.
stall_dump() {
	local log=$1 limit=$(( ${VM_STALL_TIMEOUT:-0} - 120 )) seen='' now last=$SECONDS p st
	[ "$limit" -gt 0 ] || return 0
	while sleep 5; do
		now=$(stat -c %s "$log" "$results/dmesg-live-$tag.log" 2>/dev/null | tr '\n' ' ')
		[ "$now" != "$seen" ] && seen=$now last=$SECONDS
		[ $((SECONDS - last)) -ge "$limit" ] || continue
		{
			echo "tern-stall: no progress for ${limit}s; tasks in R or D state:"
			for p in /proc/[0-9]*; do
				[ "${p#/proc/}" = "$BASHPID" ] && continue
				st=$(sed 's/.*) //; s/ .*//' "$p/stat" 2>/dev/null)
				[ "$st" = R ] || [ "$st" = D ] || continue
				echo "tern-stall: ${p#/proc/} $(cat "$p/comm" 2>/dev/null) $st"
				sed 's/^/tern-stall:   /' "$p/stack" 2>/dev/null
			done
		} | while IFS= read -r line; do echo "$line" >/dev/kmsg; done
		echo 1 >/proc/sys/kernel/sysrq
		echo w >/proc/sysrq-trigger
		sleep 5
		: >"$results/.stalled-$tag"
		return 0
	done
}

# with_module BUILD TAG CMD...: loads .build/BUILD/mod/tern.ko, runs CMD
# (its output also in run-TAG.log: the console may lose output at power
# off), unloads. Sets $rc and $status.
with_module() {
	local ko=$top/.build/$1/mod/tern.ko t=$2
	[ "$1" = "$krel" ] && ko=${VM_KO:-$ko}
	shift 2
	stamp "loading $ko"
	if ! insmod "$ko"; then
		echo "in-vm: cannot load $ko" >&2
		status="insmod failed"
		rc=1
		return
	fi
	: >"$results/run-$t.log"
	stall_dump "$results/run-$t.log" &
	local dog=$!
	VM_TAG=$t "$@" 2>&1 | tee "$results/run-$t.log"
	rc=${PIPESTATUS[0]}
	kill "$dog" 2>/dev/null
	stamp "$* done (exit $rc)"
	if ! rmmod tern; then
		echo "in-vm: rmmod tern failed" >&2
		status="rmmod failed"
		rc=1
	fi
}

# x_tables: tern.ko needs it (the target TERN), and insmod loads no
# dependency.
for m in x_tables veth tun nf_defrag_ipv4 nf_defrag_ipv6 pktgen; do
	modprobe -q "$m" 2>/dev/null || true
done
if [ -d /sys/kernel/debug ] && ! mountpoint -q /sys/kernel/debug; then
	mount -t debugfs none /sys/kernel/debug 2>/dev/null || true
fi
# No kmemleak scan every 10 minutes on the guest's one CPU (each takes
# about half a minute under emulation): the scans at the end find every
# leak of the run.
[ -w /sys/kernel/debug/kmemleak ] && echo scan=off >/sys/kernel/debug/kmemleak

# The kernel log as it comes, where the host can read it while the VM
# runs: what a VM that stopped making progress logged last.
dmesg -w >"$results/dmesg-live-$tag.log" 2>/dev/null &
follower=$!
stamp "started"

status=ok rc=0
kstatus=ok krc=0
boot_lines=$(dmesg | wc -l)
# The KUnit suites run when the module loads: their test network first
# (test/kunit-net.sh), taken down afterwards.
if [ "$kunit" = 1 ] || [ "$build" = "$krel-kunit" ]; then
	if ! bash "$top/test/kunit-net.sh"; then
		echo "in-vm: test/kunit-net.sh failed" >&2
		kstatus="kunit-net.sh failed"
		krc=1
	fi
fi
if [ "$kunit" = 1 ]; then
	with_module "$krel-kunit" "$krel-kunit" "$top/test/run-kunit.sh"
	kstatus=$status krc=$rc
	status=ok rc=0
	bash "$top/test/kunit-net.sh" down
fi
if [ "$krc" = 0 ] || [ "$kunit" = 1 ]; then
	with_module "$build" "$tag" "$@"
fi
if [ "$build" = "$krel-kunit" ] && [ "$krc" != 0 ]; then
	status=$kstatus rc=$krc
fi

problem=''
if [ -w /sys/kernel/debug/kmemleak ]; then
	stamp "kmemleak scan"
	echo scan >/sys/kernel/debug/kmemleak
	sleep 1
	echo scan >/sys/kernel/debug/kmemleak
	leaks=$(cat /sys/kernel/debug/kmemleak)
	if [ -n "$leaks" ]; then
		echo "in-vm: kmemleak reports leaks:" >&2
		echo "$leaks" >&2
		problem="kmemleak reports leaks"
	fi
fi
stamp "checking the kernel log"
if kernel_problems >/dev/null; then
	echo "in-vm: the kernel log shows problems:" >&2
	kernel_problems >&2
	problem="kernel log shows problems"
fi
# A report cannot be told apart between the KUnit and the CMD run of one
# VM: it fails both.
if [ -n "$problem" ]; then
	[ "$status" = ok ] && status=$problem
	[ "$kstatus" = ok ] && kstatus=$problem
	rc=1 krc=1
fi
kill "$follower" 2>/dev/null
echo "$status" >"$results/vm-$tag.status"
dmesg >"$results/dmesg-$tag.log"
if [ "$kunit" = 1 ]; then
	echo "$kstatus" >"$results/vm-$krel-kunit.status"
	dmesg >"$results/dmesg-$krel-kunit.log"
	[ "$krc" != 0 ] && rc=1
fi
if [ "$rc" != 0 ]; then
	echo "----- kernel log ($tag) -----" >&2
	dmesg >&2
fi
sync
exit "$rc"
