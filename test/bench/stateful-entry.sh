# shellcheck shell=bash
# Sourced by test/bench/stateful-vm.sh (its topology, sys_up, count,
# settle, snap4, win, emit): the one-entry cell. A static UDP BIB entry
# ENTRY6#4000 <-> ENTRY4#4000; .build/gen4 (test/bench/gen4.c) in sink
# sends from one IPv4 address, DST4, to ENTRY4#4000 over P source ports,
# first each port once (closed loop: P sessions of that one entry, made
# from IPv4), then unpaced over the P ports (open loop) for
# TPUT_SECS + 4 s; the rate translated 4->6 received at gen over
# TPUT_SECS seconds, from a second after the first frames arrived, is
# tput_one_entry (flows = P), for P = 1 then ENTRY_PORTS (65535; the
# smoke 2000). one_entry_ratio is the second over the first: a peer's
# sessions of one entry, however many, should not slow its packets (a
# hash chain of them would: the target is 0.9 at least). Each P's window
# is a line of raw.tsv (phase entry, direction 4to6: offered is what gen4
# sent, sink's eth0 tx_packets + tx_dropped; received, what reached gen),
# and CPU 1's busy ns a packet received in it is one_entry_ns (flows =
# P). gen4 cycles P frames (65535 against 1), which may itself set the
# ratio: offered against received and the ns a packet tell whether the
# generator or the system set each rate.
ENTRY6=2001:db8:7::1 ENTRY4=198.18.0.1
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	entry_ports=2000
else
	entry_ports=${BENCH_ENTRY_PORTS:-65535}
fi
gen4() { nsx sink taskset -c 0 "$top/.build/gen4" -i eth0 -m $XL4_MAC \
	-s $DST4 -d $ENTRY4 -p 4000 "$@"; }

one_entry() {	# SYSTEM REP
	local p c0 s1 s2 pid pps r1=0 tries got
	sys_up "$1"
	case $1 in
	# Tern bounds the sessions opened from IPv4 on one BIB entry (4096
	# by default): the cell wants all P of them, so at the most it allows.
	tern-nat64) nsx xl "$tern" -i st bib add $ENTRY6#4000 $ENTRY4#4000 \
		--udp >/dev/null
		nsx xl "$tern" -i st global set max-sessions-per-bib-from-ipv4 \
			65535 >/dev/null ;;
	jool-nat64) nsx xl jool -i st bib add $ENTRY6#4000 $ENTRY4#4000 \
		--udp >/dev/null ;;
	esac
	for p in 1 "$entry_ports"; do
		sysctl -qw net.core.netdev_max_backlog=$((p * 2 > 1000 ? p * 2 : 1000))
		for ((tries = 1; tries <= 5; tries++)); do
			c0=$(count gen)
			gen4 -n "$p" -P "$p" >/dev/null
			got=$(($(settle gen) - c0))
			[ "$got" = "$p" ] && break
			say "$1: one entry, $p ports: $got arrived, sending again"
		done
		sysctl -qw net.core.netdev_max_backlog="$backlog0"
		c0=$(count gen)
		gen4 $ox -n 4000000000 -P "$p" -t $((tput_secs + 600)) \
			>"$outdir/gen4.out" &
		pid=$!
		while [ "$(count gen)" = "$c0" ] && kill -0 $pid 2>/dev/null; do
			sleep 0.2
		done
		sleep 1
		s1=$(snap4)
		sleep "$tput_secs"
		s2=$(snap4)
		gen_stop gen4 $pid
		win_dir=4to6 win entry "$1" "$p" "$2" "$s1" "$s2"
		pps=$w_recv_pps
		settle gen >/dev/null
		say "$1: one entry, $p ports (sessions $(sys_sessions "$1" "$p")):" \
			"$pps pps 4->6; gen4: $(cat "$outdir/gen4.out")"
		emit tput_one_entry "$1" 4to6 "$p" "$2" "$pps" pps
		# CPU 1's busy ns a packet received in that window.
		emit one_entry_ns "$1" 4to6 "$p" "$2" "$w_nspp" ns
		# The same of the host's CPU time of vCPU 1, and CPU 1's
		# instructions a packet (lib-hclock.sh).
		if ((w_hnspp > 0)); then
			emit one_entry_host_ns "$1" 4to6 "$p" "$2" "$w_hnspp" ns
		fi
		if ((w_ipp > 0)); then
			emit one_entry_insns "$1" 4to6 "$p" "$2" "$w_ipp" insns
		fi
		[ "$p" = 1 ] && r1=$pps
	done
	sys_down "$1"
	emit one_entry_ratio "$1" 4to6 "$entry_ports" "$2" \
		"$(awk -v a="$pps" -v b="$r1" 'BEGIN { printf "%.3f", b ? a / b : 0 }')" \
		ratio
}
