#!/usr/bin/env bash
# Boots a kernel in a virtme-ng VM (software emulation) with the host's
# filesystem shared (virtiofs, or 9p) and runs test/in-vm.sh CMD... there,
# as root, from the repository root. .build/results is writable from the
# guest.
#
# Usage: test/vm.sh KREL CMD...          (Debian kernel /boot/vmlinuz-KREL)
#        VM_KERNEL=/path/bzImage test/vm.sh KREL CMD...
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
krel=$1
shift
kernel=${VM_KERNEL:-/boot/vmlinuz-$krel}
venv=${TERN_VENV:-/opt/tern-venv}
export PATH=$venv/bin:$PATH
mkdir -p "$top/.build/results"
# virtme-ng's guest tools (its init, the virtiofsd it starts) as seen
# through a directory of links of our own: test/vm-tools/bin/virtme-run
# makes virtme-ng use it, so that two of them can be ours.
real=$(python3 -c 'from virtme import resources; print(resources.find_guest_tools())')
guest=$(mktemp -d "$top/.build/vm-guest.XXXXXX")
trap 'rm -rf "$guest"' EXIT
ln -s "$real"/* "$guest/"
rm "$guest/bin"
mkdir "$guest/bin"
ln -s "$real"/bin/* "$guest/bin/"
export TERN_GUEST_TOOLS=$guest PATH=$top/test/vm-tools/bin:$PATH
# The guest's root: virtiofs when a virtiofsd can serve it (with Debian's
# C daemon through test/vm-tools/virtiofsd), else 9p. VM_FS=9p forces 9p.
fs=(--force-9p)
if [ "${VM_FS:-}" != 9p ]; then
	if command -v virtiofsd >/dev/null || [ -x /usr/libexec/virtiofsd ]; then
		fs=()
	elif [ -x /usr/lib/qemu/virtiofsd ]; then
		ln -s "$top/test/vm-tools/virtiofsd" "$guest/bin/virtiofsd"
		fs=()
	fi
fi
# VM_UDEV=0: no udev in the guest (test/vm-tools/init-noudev runs before
# virtme-ng-init); it takes minutes on the debug kernel.
kopts=
if [ "${VM_UDEV:-1}" = 0 ]; then
	rm "$guest/bin/virtme-ng-init"
	ln -s "$top/test/vm-tools/init-noudev" "$guest/bin/virtme-ng-init"
	kopts="tern_init=$real/bin/virtme-ng-init"
fi
cd "$top"
# The guest gets the command line as one string: quote each word.
cmd=$(printf '%q ' "$top/test/in-vm.sh" "$@")
# Settings of test/in-vm.sh: VM_TAG names this run's results (default: the
# kernel release), so that two VMs on the same kernel can run side by side;
# VM_KUNIT=1 runs the KUnit suites first; VM_KO loads that tern.ko instead
# of .build/KREL/mod/tern.ko (not for the KUnit build).
for v in VM_TAG VM_KUNIT VM_KO VM_HOLD VM_STALL_TIMEOUT TERN_FUZZ_REQUESTS BENCH_NAT64 BENCH_PERF BENCH_PERF_OFF; do
	[ -n "${!v:-}" ] && cmd="env $v=$(printf '%q' "${!v}") $cmd"
done
# VM_VERBOSE=1: the guest's kernel log on the console too. VM_APPEND: more
# kernel command line. VM_QEMU_OPTS: more QEMU arguments (e.g. "-monitor
# unix:SOCK,server,nowait" to look at a guest that stopped).
# VM_BENCH=1: the guest the measurements of test/bench want, without two
# costs that only software emulation makes large, which weighed on the
# generators most (profiled in the bench VM):
# - tsc=reliable: the guest keeps the TSC as its clock; without it, it
#   finds the emulated TSCs out of step and reads the HPET instead, an
#   emulated MMIO access (about 1 µs) that pktgen's rate-limited trials
#   and gen6 made per packet;
# - init_on_alloc=0: no zeroing of every allocation (Debian's default
#   zeroes them): with QEMU's CPU "max" the kernel's memset is a REP
#   STOSB, which the emulator runs a byte a step, and zeroing each new
#   skb took a third of pktgen's CPU (a translator that allocates a
#   packet per packet saves it too; Tern does not allocate).
# (vng keeps only one --append: all of it goes in one.)
[ "${VM_BENCH:-}" = 1 ] && kopts="$kopts tsc=reliable init_on_alloc=0"
kopts="$kopts ${VM_APPEND:-}"
append=()
[ -n "${kopts// /}" ] && append+=(--append "${kopts# }")
[ -n "${VM_QEMU_OPTS:-}" ] && append+=("--qemu-opts=$VM_QEMU_OPTS")
# VM_PIN=1: each vCPU's thread on a host CPU of its own (vCPU n on host
# CPU n, where the host has that many), for experiments: on these 2-CPU
# hosts it did not make `make bench` steadier (docs/performance.md), so
# nothing sets it.
# VM_BENCH=1 also has the guest's bench ask the host how much CPU time
# each vCPU's thread had (test/bench/hclock.py, through the files of
# .build/results/hclock-TAG; BENCH_HCLOCK in the guest names it).
if [ "${VM_PIN:-}" = 1 ] || [ "${VM_BENCH:-}" = 1 ]; then
	append+=("--qemu-opts=-name virtme-ng,debug-threads=on")
fi
# And QEMU counts the instructions of each vCPU (test/bench/insn-count.c,
# a TCG plugin; hclock.py reads its counters).
hclock=
if [ "${VM_BENCH:-}" = 1 ]; then
	hclock=$top/.build/results/hclock-${VM_TAG:-$krel}
	rm -rf "$hclock"
	mkdir -p "$hclock"
	cmd="env BENCH_HCLOCK=$(printf '%q' "$hclock") $cmd"
	plugin=$top/.build/insn-count.so
	if [ ! -f "$plugin" ] || [ "$top/test/bench/insn-count.c" -nt "$plugin" ]; then
		gcc -O2 -Wall -shared -fPIC -fvisibility=hidden -o "$plugin" \
			"$top/test/bench/insn-count.c"
	fi
	# BENCH_INSN_PROF=1: per translation block too (insn-count.c).
	append+=("--qemu-opts=-plugin $plugin,out=$hclock/insn${BENCH_INSN_PROF:+,prof=$hclock/prof}")
fi
# qemu_of PID: the QEMU process below PID (none yet: false).
qemu_of() {
	local procs=("$1") p
	while [ ${#procs[@]} -gt 0 ]; do
		p=${procs[0]}
		procs=("${procs[@]:1}")
		[ "$(cat /proc/"$p"/comm 2>/dev/null)" = qemu-system-x86 ] && echo "$p" && return 0
		mapfile -t -O ${#procs[@]} procs < <(pgrep -P "$p" || true)
	done
	return 1
}
# pin_vcpus PID: pins the vCPU threads ("CPU n/TCG") of the QEMU below
# PID; true once it found them.
pin_vcpus() {
	local q t comm n found=''
	q=$(qemu_of "$1") || return 1
	for t in /proc/"$q"/task/*; do
		comm=$(cat "$t/comm" 2>/dev/null) || continue
		[[ $comm =~ ^CPU\ ([0-9]+)/ ]] || continue
		n=${BASH_REMATCH[1]} found=1
		if [ "$n" -lt "$(nproc)" ]; then
			taskset -p -c "$n" "${t##*/}" >/dev/null || true
		fi
	done
	[ -n "$found" ]
}

# Watchdogs. An emulated guest can stop for good, idle, every task
# waiting (seen with the debug kernel on a loaded host: a deadlock of the
# kernel's RCU-tasks boot self test, now configured out; docs/testing.md).
# So:
# - VM_BOOT_TIMEOUT (s): a guest that has not started test/in-vm.sh by
#   then is stopped and booted again, up to VM_BOOT_TRIES boots;
# - VM_STALL_TIMEOUT (s; default 0, off): a guest whose output (this
#   script's stdout, when that is a file) and kernel log (in-vm.sh's
#   dmesg-live) stand still that long is stopped, the last of its kernel
#   log printed; two minutes before that the guest logs the kernel stacks
#   of its running and blocked tasks (test/in-vm.sh) and is stopped then;
# - VM_TIMEOUT (s): the limit of one boot, whatever it does.
# VM_STARTED_FILE: the file the guest touches once booted (default: a
# new one), for a caller that waits for the boot.
started=${VM_STARTED_FILE:-$(mktemp "$top/.build/results/.started.XXXXXX")}
trap 'rm -rf "$guest" "$started"' EXIT
cmd="env VM_STARTED=$(printf '%q' "$started") $cmd"
# The guest gets its command through the kernel command line, which holds
# 2048 bytes (x86): a long one (twenty test files) was cut there and the
# guest ran nothing. So the command goes in a file the guest reads (the
# host's filesystem is shared) and the command line names the file.
printf '%s\n' "$cmd" >"$guest/cmd"
cmd="bash $guest/cmd"
out=$(readlink -f /proc/$$/fd/1 2>/dev/null || true)
[ -f "$out" ] || out=''
live=$top/.build/results/dmesg-live-${VM_TAG:-$krel}.log
[ "$(basename "${1:-}")" = run-kunit.sh ] && live=$top/.build/results/dmesg-live-$krel-kunit.log
stalled=$(dirname "$live")/.stalled-$(basename "$live" .log | sed 's/^dmesg-live-//')
progress() {
	{ [ -n "$out" ] && stat -c %s "$out"; stat -c %s "$live"; } 2>/dev/null | tr '\n' ' ' || true
}
# What the watchdogs did, printed when the last boot is over: QEMU opens
# this script's stdout again, truncating it, at every boot.
notes=()
boot_timeout=${VM_BOOT_TIMEOUT:-600} tries=${VM_BOOT_TRIES:-3}
stall_timeout=${VM_STALL_TIMEOUT:-0}
rc=1
for try in $(seq "$tries"); do
	rm -f "$started" "$live" "$stalled"
	timeout "${VM_TIMEOUT:-2400}" vng ${VM_VERBOSE:+--verbose} --run "$kernel" --disable-kvm "${fs[@]}" \
		"${append[@]}" --cpus "${VM_CPUS:-2}" --memory "${VM_MEMORY:-2G}" \
		--user root --rwdir="$top/.build/results" -- "$cmd" </dev/null &
	pid=$!
	t0=$SECONDS last=$SECONDS seen='' why='' pinned='' hpid=''
	while kill -0 "$pid" 2>/dev/null; do
		sleep 2
		if [ "${VM_PIN:-}" = 1 ] && [ -z "$pinned" ] && pin_vcpus "$pid"; then
			pinned=1
		fi
		if [ -n "$hclock" ] && [ -z "$hpid" ] && q=$(qemu_of "$pid"); then
			python3 "$top/test/bench/hclock.py" "$q" "$hclock" &
			hpid=$!
		fi
		if [ ! -e "$started" ]; then
			[ $((SECONDS - t0)) -ge "$boot_timeout" ] && why=boot && break
			continue
		fi
		now=$(progress)
		[ "$now" != "$seen" ] && seen=$now last=$SECONDS
		[ "$stall_timeout" -gt 0 ] && [ $((SECONDS - last)) -ge "$stall_timeout" ] &&
			why=stall && break
		[ -e "$stalled" ] && why=stall && break
	done
	if [ -z "$why" ]; then
		rc=0
		wait "$pid" || rc=$?
		break
	fi
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	if [ "$why" = stall ]; then
		notes+=("the guest made no progress for ${stall_timeout}s (or logged its stacks two minutes before); stopped. Its kernel log ended:")
		mapfile -t -O ${#notes[@]} notes < <(tail -n 200 "$live" 2>/dev/null | sed 's/^/| /')
		rc=124
		break
	fi
	notes+=("the guest had not started the command after ${boot_timeout}s (boot $try of $tries); stopped")
	rc=124
done
if [ ${#notes[@]} -gt 0 ]; then
	err=$(readlink -f /proc/$$/fd/2 2>/dev/null || true)
	if [ -f "$err" ]; then
		printf 'vm.sh: %s\n' "${notes[@]}" >>"$err"
	else
		printf 'vm.sh: %s\n' "${notes[@]}" >&2
	fi
fi
exit "$rc"
