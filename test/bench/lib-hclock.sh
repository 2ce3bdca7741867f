# shellcheck shell=bash
# The host's clock of CPU 1, for the bench's scripts in the VM.
#
# CPU 1's busy time seen from the guest (wall time less idle, /proc/stat)
# counts the time the host did not run the vCPU at all: its thread
# waiting for a host CPU (on these 2-CPU hosts, behind the other vCPU,
# QEMU's main thread, virtiofsd), or the host's own vCPU stolen by its
# hypervisor. hclock asks the host (test/bench/hclock.py, started by
# test/vm.sh with VM_BENCH=1, answering through the files of the shared
# directory BENCH_HCLOCK) for the CPU time the thread of vCPU 1 has had
# so far, which counts neither.
#
# hclock: sets hc_mono (the host's monotonic clock, ns), hc_run (vCPU 1's
# thread's run time on the host so far, ns) and hc_wait (its time waiting
# runnable for a host CPU, ns), hc_insn and hc_insn0 (the instructions
# vCPU 1 and vCPU 0 have executed so far); all 0 without the host's answer (no
# BENCH_HCLOCK, or none within 5 s: said once, and once more by each
# subshell that asks). hclock TEXT sends TEXT with the request ("prof
# NAME": hclock.py first saves the per-block profile, BENCH_INSN_PROF=1).
# Call it just before the guest's own snapshot at
# both ends of a window: the host's sample is then taken about as long
# (a round trip measured at 11-16 ms) before each snapshot.
hc_seq=0 hc_off=
hc_mono=0 hc_run=0 hc_wait=0 hc_insn=0 hc_insn0=0
exec {hc_fd}<> <(:)
hclock() {
	local d=${BENCH_HCLOCK:-} n l i
	hc_mono=0 hc_run=0 hc_wait=0 hc_insn=0 hc_insn0=0
	[ -n "$d" ] && [ -z "$hc_off" ] || return 0
	# Unique in a subshell too ($(snap) calls it there).
	n=$BASHPID-$((++hc_seq))
	printf '%s' "${1:-}" >"$d/req.$n"
	for ((i = 0; i < 2500; i++)); do
		l=
		read -r l 2>/dev/null <"$d/resp.$n" || true
		[ -n "$l" ] && break
		read -r -t 0.002 -u "$hc_fd" || true
	done
	if [ -z "$l" ]; then
		hc_off=1
		echo "bench: no answer from the host's clock (test/bench/hclock.py) in $d: host figures are 0" >&2
		return 0
	fi
	# MONO EXEC0 WAIT0 INSN0 EXEC1 WAIT1 INSN1 ...
	read -r hc_mono _ _ hc_insn0 hc_run hc_wait hc_insn _ <<<"$l"
}

# hclock_prof_row OUTDIR NAME SYSTEM DIRECTION RECEIVED INSNS: a window
# profiled with BENCH_INSN_PROF=1 (hclock "prof NAME-0" and "prof NAME-1"
# at its ends): its line of OUTDIR/insn-prof.tsv, the kernel's symbols
# once (OUTDIR/kallsyms) and the modules' at it (OUTDIR/kallsyms-NAME),
# for test/bench/insn-prof.py.
hclock_prof_row() {
	local out=$1
	shift
	printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$out/insn-prof.tsv"
	[ -s "$out/kallsyms" ] || grep -vF '[' /proc/kallsyms >"$out/kallsyms"
	grep -F '[' /proc/kallsyms >"$out/kallsyms-$1"
}
