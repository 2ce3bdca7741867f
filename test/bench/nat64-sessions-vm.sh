#!/usr/bin/env bash
# Runs inside the VM (started by test/bench/nat64-sessions.sh, tern.ko
# loaded by test/in-vm.sh): fills a NAT64 instance with COUNT UDP sessions
# and measures what they cost and how they are listed and freed.
#
#   gen eth0 --veth-- v6 xl v4 --veth-- eth0 sink
#
# gen's .build/gen6 (test/bench/gen6.c, AF_PACKET) sends one UDP/IPv6
# frame per flow from 2001:db8:6::I port 4000 (I = 1..COUNT in the low 32
# bits: every frame a new source transport address, so its own BIB entry
# and session) to 2001:db8:64::cb00:7163 (203.0.113.99) port 5000. xl has
# the instance (--nat64 --pool6 2001:db8:64::/96, pool4 198.18.0.0/22 UDP,
# max-sessions above COUNT, udp-timeout a day: nothing expires during the
# run); the translated packets go to sink, which drops them at tc ingress.
#
# Flows are sent in chunks of CHUNK; after each, the script waits for xl's
# backlog to drain (sessions stop growing) and sends the chunk again when
# veth dropped some of it (a resent frame of a flow that has its session
# only refreshes it), so that sessions end at exactly COUNT.
#
# Measured and printed (also in .build/results/bench-nat64-sessions-TAG.md):
# tern stats (sessions, bib-entries, table-bytes); tern session list, JSON
# (entries counted) and text (`wc -l`: one line per session), and how long
# each takes; Tern's slab caches (tern_session, tern_bib, tern_bib_pair) and
# MemAvailable before the instance, with COUNT sessions and after
# `tern instance remove` (timed); with FLUSH=1 a second fill and the time of
# `tern session flush` of COUNT sessions. Fails only when the sessions
# cannot be made to reach COUNT or the counts disagree; no timing verdict.
#
# Usage: nat64-sessions-vm.sh [COUNT [CHUNK [FLUSH]]]
set -euo pipefail
count=${1:-1000000}
chunk=${2:-50000}
flush=${3:-1}
top=$(cd "$(dirname "$0")/../.." && pwd)
tern=${TERN:-$top/usr/cli/tern}
gen6=$top/.build/gen6
results=$top/.build/results
out=$results/bench-nat64-sessions-${VM_TAG:-$(uname -r)}.md

XL6_MAC=02:00:00:00:06:01 GEN_MAC=02:00:00:00:06:02
XL4_MAC=02:00:00:00:04:01 SINK_MAC=02:00:00:00:04:02
POOL6=2001:db8:64::/96
POOL4=198.18.0.0/22
DST4=203.0.113.99

say() { echo "bench: $*" >&2; }
# shellcheck source=test/bench/lib-ns.sh
. "$top/test/bench/lib-ns.sh"
# Lines of the report: on the console and in $out.
rep() { echo "$*" | tee -a "$out"; }

cleanup() {
	bench_netns_del gen xl sink
}
trap cleanup EXIT

[ -x "$gen6" ] || { say "no $gen6 (built by nat64-sessions.sh)"; exit 1; }
modprobe -q sch_ingress || true
modprobe -q cls_matchall || true
modprobe -q act_gact || true
: >"$out"

# --- topology (as in siit-pktgen-vm.sh) -------------------------------------
bench_netns gen xl sink
nsx xl sysctl -qw net.ipv6.conf.all.forwarding=1 net.ipv4.ip_forward=1
bench_veth gen $GEN_MAC xl v6 $XL6_MAC
bench_veth sink $SINK_MAC xl v4 $XL4_MAC
ip -n gen -b - <<EOT
link set lo up
addr add 2001:db8:6::ffff:0:0/64 dev eth0 nodad
link set eth0 up
EOT
# gen's sources 2001:db8:6::I are on xl's link 2001:db8:6::/64: replies
# would route back to gen (none come: sink drops everything).
ip -n xl -b - <<EOT
link set lo up
addr add 2001:db8:6::1/64 dev v6 nodad
addr add 203.0.113.1/24 dev v4
link set v6 up
link set v4 up
neigh replace $DST4 lladdr $SINK_MAC dev v4 nud permanent
EOT
ip -n sink -b - <<EOT
link set lo up
addr add 203.0.113.2/24 dev eth0
link set eth0 up
EOT
tc -n sink qdisc add dev eth0 ingress
tc -n sink filter add dev eth0 ingress pref 1 matchall action drop
# gen6 on CPU 0, xl's receive work on CPU 1 (RPS on v6). A chunk sent at
# once waits in CPU 1's backlog: room for all of it, so that few are
# dropped (the resend loop below takes care of those).
nsx xl sh -c 'for q in /sys/class/net/v6/queues/rx-*/rps_cpus; do echo 2 >$q; done'
sysctl -qw net.core.netdev_max_backlog=$((chunk * 2))

# --- measures ---------------------------------------------------------------
now() { date +%s%N; }
ms() { echo $((($2 - $1) / 1000000)); }
tstat() {	# KEY: one value of tern stats --json (its groups merged)
	nsx xl "$tern" stats --json | python3 -c \
		'import json, sys; print({k: v for g in json.load(sys.stdin).values() for k, v in g.items()}.get(sys.argv[1], 0))' "$1"
}
meminfo() { awk -v k="$1:" '$1 == k { printf "%.0f\n", $2 * 1024 }' /proc/meminfo; }
# slab NAME: "objects object_size slab_size bytes_of_its_slabs" of a slab
# cache, from /sys/kernel/slab (SLUB): right even when the cache is merged
# with another one of the same size (then the counts include the other
# users; the differences are Tern's).
slab() {
	local d=/sys/kernel/slab/$1
	[ -e "$d" ] || { echo "0 0 0 0"; return; }
	echo "$(cut -d' ' -f1 "$d/objects") $(cat "$d/object_size") $(cat "$d/slab_size")" \
		"$(($(cut -d' ' -f1 "$d/slabs") * (4096 << $(cat "$d/order"))))"
}
# snap LABEL: the slab caches and MemAvailable, kept as $snap_LABEL_*
snap() {
	local so ss sz sb bo bs bz bb po ps pz pb
	read -r so ss sz sb < <(slab tern_session)
	read -r bo bs bz bb < <(slab tern_bib)
	read -r po ps pz pb < <(slab tern_bib_pair)
	eval "snap_$1_so=$so snap_$1_sz=$sz snap_$1_sb=$sb"
	eval "snap_$1_bo=$bo snap_$1_bz=$bz snap_$1_bb=$bb"
	eval "snap_$1_po=$po snap_$1_pz=$pz snap_$1_pb=$pb"
	eval "snap_$1_avail=$(meminfo MemAvailable)"
	say "$1: tern_session $so objects (object $ss B, slot $sz B, slabs $sb B);" \
		"tern_bib $bo objects (object $bs B, slot $bz B, slabs $bb B);" \
		"tern_bib_pair $po objects (object $ps B, slot $pz B, slabs $pb B);" \
		"MemAvailable $(meminfo MemAvailable) B"
}

add_instance() {
	nsx xl "$tern" instance add big --nat64 --pool6 $POOL6 >/dev/null
	nsx xl "$tern" pool4 add $POOL4 --udp >/dev/null
	nsx xl "$tern" global set max-sessions $((count + count / 10)) >/dev/null
	nsx xl "$tern" global set udp-timeout 86400 >/dev/null
}

# fill: COUNT new flows, chunk by chunk, each chunk sent again until all its
# sessions exist. Sets fill_ms and fill_sent.
fill() {
	local first n want s prev tries t0
	fill_sent=0
	t0=$(now)
	for ((first = 1; first <= count; first += chunk)); do
		n=$((count - first + 1 < chunk ? count - first + 1 : chunk))
		want=$((first + n - 1))
		for ((tries = 1; ; tries++)); do
			nsx gen taskset -c 0 "$gen6" -i eth0 -m $XL6_MAC \
				-n "$n" -f "$first" >/dev/null
			fill_sent=$((fill_sent + n))
			prev=-1
			while s=$(tstat sessions) && [ "$s" -lt "$want" ] &&
				[ "$s" != "$prev" ]; do
				prev=$s
				sleep 1
			done
			[ "$s" -ge "$want" ] && break
			say "flows $first-$want: $s sessions after try $tries, sending again"
			if [ "$tries" -ge 10 ]; then
				say "sessions stuck at $s"
				nsx xl "$tern" stats
				exit 1
			fi
		done
		say "$s sessions ($(ms "$t0" "$(now)") ms)"
	done
	fill_ms=$(ms "$t0" "$(now)")
}

bytes_per() {	# SESSION_SLAB_BYTES BIB_SLAB_BYTES SESSIONS
	awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.1f", (a + b) / n }'
}
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }

say "$(uname -r), $(nproc) CPUs, $(mib "$(meminfo MemTotal)") RAM," \
	"tern.ko $(cat /sys/module/tern/srcversion), $count flows in chunks of $chunk"

# --- first fill -------------------------------------------------------------
sleep 2
snap base
add_instance
snap empty
fill
sleep 2		# the backlog's skbs freed
snap full
sess=$(tstat sessions)
bib=$(tstat bib-entries)
tbytes=$(tstat table-bytes)
maxs=$(tstat max-sessions)

# The JSON is one line (an array): its bytes timed, then its entries
# counted by a JSON parser (a second listing, not timed).
t0=$(now)
json_bytes=$(nsx xl "$tern" session list --udp --json | wc -c)
list_json_ms=$(ms "$t0" "$(now)")
read -r json_n json_lines < <(nsx xl "$tern" session list --udp --json |
	python3 -c 'import json, sys; t = sys.stdin.read()
print(len(json.loads(t)), t.count("\n"))')
t0=$(now)
text_lines=$(nsx xl "$tern" session list --udp | tail -n +2 | wc -l)
list_text_ms=$(ms "$t0" "$(now)")
line=$(nsx xl "$tern" session list --udp | sed -n 2p || true)

t0=$(now)
nsx xl "$tern" instance remove big
remove_ms=$(ms "$t0" "$(now)")
sleep 3		# instance remove freed everything; settle the slab counts
snap removed

# Hash tables (mod/nat64/table.c tern_tables_alloc): sized at instance add
# from max-sessions, which is then 0: the automatic value, RAM / 32 / 128
# (nat64.c). ns = roundup_pow_of_two(clamp(auto / 2, 2^10, 2^20)) session
# buckets (two arrays: by IPv6 and by IPv4), ns / 2 BIB buckets (two
# arrays), clamp(ns / 16, 256, 2^16) subscriber buckets, 8 bytes each.
auto=$(($(meminfo MemTotal) / 32 / 128))
ns=$((auto / 2)); ((ns < 1024)) && ns=1024; ((ns > 1048576)) && ns=1048576
p=1; while ((p < ns)); do p=$((p * 2)); done; ns=$p
nb=$((ns / 2 > 1024 ? ns / 2 : 1024))
nsub=$((ns / 16)); ((nsub < 256)) && nsub=256; ((nsub > 65536)) && nsub=65536
hbytes=$(((2 * ns + 2 * nb + nsub) * 8))

d_so=$((snap_full_so - snap_empty_so)) d_bo=$((snap_full_bo - snap_empty_bo))
d_sb=$((snap_full_sb - snap_empty_sb)) d_bb=$((snap_full_bb - snap_empty_bb))
d_po=$((snap_full_po - snap_empty_po)) d_pb=$((snap_full_pb - snap_empty_pb))
# A BIB entry made with its first session is one object of both.
d_bb=$((d_bb + d_pb))
rep "| measure | value |"
rep "|---|---:|"
rep "| flows sent (frames, with resends) | $fill_sent in $fill_ms ms |"
rep "| tern stats: sessions / bib-entries / max-sessions | $sess / $bib / $maxs |"
rep "| tern stats: table-bytes | $tbytes ($(bytes_per "$tbytes" 0 "$sess") B a session) |"
rep "| session list --udp --json: entries in the array | $json_n ($json_lines line, $json_bytes bytes) in $list_json_ms ms |"
rep "| session list --udp \| wc -l (one line a session) | $text_lines in $list_text_ms ms |"
rep "| tern_session slab: objects added × slot size | $d_so × $snap_full_sz = $((d_so * snap_full_sz)) B |"
rep "| tern_bib slab: objects added × slot size | $d_bo × $snap_full_bz = $((d_bo * snap_full_bz)) B |"
rep "| tern_bib_pair slab (a BIB entry with its first session): objects added × slot size | $d_po × $snap_full_pz = $((d_po * snap_full_pz)) B |"
rep "| slab bytes per session (session + its BIB entry) | $(bytes_per $((d_so * snap_full_sz + d_po * snap_full_pz)) $((d_bo * snap_full_bz)) "$sess") B |"
rep "| slab pages added (the three caches) per session | $(bytes_per "$d_sb" "$d_bb" "$sess") B ($(mib $((d_sb + d_bb)))) |"
rep "| hash tables (from the code: $ns + $ns session, $nb + $nb BIB, $nsub subscriber buckets × 8 B) | $(mib "$hbytes") ($(bytes_per "$hbytes" 0 "$sess") B a session) |"
rep "| MemAvailable: before instance / empty instance / $sess sessions | $(mib "$snap_base_avail") / $(mib "$snap_empty_avail") / $(mib "$snap_full_avail") |"
rep "| MemAvailable taken by the instance with its sessions | $(mib $((snap_base_avail - snap_full_avail))) ($(bytes_per $((snap_base_avail - snap_full_avail)) 0 "$sess") B a session) |"
rep "| tern instance remove | $remove_ms ms |"
rep "| after remove: tern_session / tern_bib / tern_bib_pair objects (before: $snap_base_so / $snap_base_bo / $snap_base_po) | $snap_removed_so / $snap_removed_bo / $snap_removed_po |"
rep "| after remove: MemAvailable (before: $(mib "$snap_base_avail")) | $(mib "$snap_removed_avail") |"
say "one line of session list: $line"

bad=0
[ "$sess" = "$count" ] && [ "$json_n" = "$count" ] && [ "$text_lines" = "$count" ] &&
	[ "$bib" = "$count" ] || { say "counts disagree"; bad=1; }

# --- second fill: session flush ---------------------------------------------
if [ "$flush" = 1 ]; then
	add_instance
	fill
	sleep 2
	snap full2
	t0=$(now)
	nsx xl "$tern" session flush --udp
	flush_ms=$(ms "$t0" "$(now)")
	after=$(tstat sessions)
	sleep 3
	snap flushed
	nsx xl "$tern" instance remove big
	sleep 3
	snap removed2
	rep "| second fill | $fill_sent frames in $fill_ms ms |"
	rep "| tern session flush of $count sessions | $flush_ms ms (sessions after: $after) |"
	rep "| after flush: tern_session / tern_bib / tern_bib_pair objects (full: $snap_full2_so / $snap_full2_bo / $snap_full2_po) | $snap_flushed_so / $snap_flushed_bo / $snap_flushed_po |"
	rep "| after remove: tern_session / tern_bib / tern_bib_pair objects; MemAvailable | $snap_removed2_so / $snap_removed2_bo / $snap_removed2_po; $(mib "$snap_removed2_avail") |"
fi
rep ""
rep "$(uname -r), $(nproc) vCPUs (emulated), $(mib "$(meminfo MemTotal)") RAM;" \
	"slab slot sizes: tern_session $snap_full_sz B, tern_bib $snap_full_bz B," \
	"tern_bib_pair $snap_full_pz B" \
	"($(readlink /sys/kernel/slab/tern_session 2>/dev/null || echo unmerged)," \
	"$(readlink /sys/kernel/slab/tern_bib 2>/dev/null || echo unmerged)," \
	"$(readlink /sys/kernel/slab/tern_bib_pair 2>/dev/null || echo unmerged))"
nsx gen cat /sys/class/net/eth0/statistics/tx_dropped >/dev/null 2>&1 || true
exit "$bad"
