# shellcheck shell=bash disable=SC2034
# Sourced by test/bench/bench-vm.sh (inside the VM, after lib-topo.sh): the
# systems measured in namespace xl. For each system S:
#   setup_S / teardown_S   put it in xl / take it out again
#   sys_src6[S]            the IPv6 host's address in its packets
#   sys_dst4[S]            the IPv4 host's destination for 4->6 packets
# avail SYSTEM says whether it can run here (else a note says why).
# Every system is set up fresh for each repetition (interleaved), so
# NAT64 state does not carry over from one to the next.

tern=${TERN:-$top/usr/cli/tern}
declare -A sys_src6 sys_dst4 sys_note
for s in fwd fwd-xl tern-siit tern-siit-ipt tern-siit-iptl tern-siit-iptr tern-siit-ipt0 jool-siit; do sys_src6[$s]=$SIIT6 sys_dst4[$s]=$SIIT4; done
# SIIT with an EAMT: the IPv6 host's NAT64-side address has an entry of its
# own (EAMT_HOST6 <-> 198.51.100.2); the IPv4 host stays in pool6 form.
for s in tern-siit-eamt1 tern-siit-eamt10k jool-siit-eamt1 jool-siit-eamt10k; do
	sys_src6[$s]=$NAT6 sys_dst4[$s]=$SIIT4
done
for s in tern-nat64 jool-nat64; do sys_src6[$s]=$NAT6 sys_dst4[$s]=192.0.2.1; done
sys_src6[tayga]=$NAT6 sys_dst4[tayga]=192.0.2.2

avail() {
	case $1 in
	fwd | fwd-xl) return 0 ;;
	tern-*-alt)
		[ -f "$alt_ko" ] && [ -f "$main_ko" ] ||
			{ sys_note[$1]="no BENCH_ALT_KO module (or no $main_ko)"; return 1; } ;;
	tern-*) [ -d /sys/module/tern ] || { sys_note[$1]="tern.ko not loaded"; return 1; } ;;
	jool-siit*)
		if ! modinfo jool_siit >/dev/null 2>&1 || ! command -v jool_siit >/dev/null; then
			sys_note[$1]="no jool_siit module for $(uname -r) or no jool_siit CLI (test/compare/install-jool.sh; Jool 4.1.9 builds only for 6.1)"
			return 1
		fi ;;
	jool-nat64)
		if ! modinfo jool >/dev/null 2>&1 || ! command -v jool >/dev/null; then
			sys_note[$1]="no jool module for $(uname -r) or no jool CLI (test/compare/install-jool.sh; Jool 4.1.9 builds only for 6.1)"
			return 1
		fi ;;
	tayga)
		command -v tayga >/dev/null || [ -x /usr/sbin/tayga ] ||
			{ sys_note[$1]="tayga not installed (apt-get install tayga)"; return 1; } ;;
	*) sys_note[$1]="unknown system"; return 1 ;;
	esac
}

# The static BIB entries of the NAT64 flows: PORT0..PORT0+NFLOWS-1.
nat64_ports() { seq "$PORT0" $((PORT0 + NFLOWS - 1)); }

# fwd: no translator; xl routes pool6 to h4 (IPv6 forwarding) and
# 198.51.100.0/24 to h6 (connected: IPv4 forwarding for 4->6).
setup_fwd() { nsx xl ip route add "$POOL6" via 2001:db8:4::2 dev v4 || return 1; }
teardown_fwd() { nsx xl ip route del "$POOL6" via 2001:db8:4::2 dev v4; }
# fwd-xl: the same forwarding as a system of its own, for the pairs'
# control (bench-vm.sh): in xl, paired with forwarding in xlf.
setup_fwd-xl() { setup_fwd; }
teardown_fwd-xl() { teardown_fwd; }

setup_tern-siit() { nsx xl "$tern" instance add bench --siit --pool6 "$POOL6" >/dev/null || return 1; }
teardown_tern-siit() { nsx xl "$tern" instance remove bench >/dev/null; }

# tern-siit-ipt: the same SIIT instance in iptables mode, given what
# arrives on xl's two links by one rule each (mangle PREROUTING, the
# extension from the build tree; iptables-nft, Debian's default).
xt_env() { nsx xl env XTABLES_LIBDIR="$top/usr/xtables/.libs:/usr/lib/x86_64-linux-gnu/xtables" "$@"; }
# xt_setup SUFFIX TABLE [IN]: the instance, and a rule of ip6tables and
# iptables (SUFFIX "" or -legacy) in TABLE's PREROUTING for each link,
# matching its interface with IN set.
xt_setup() {
	nsx xl "$tern" instance add bench --siit --pool6 "$POOL6" --iptables >/dev/null || return 1
	xt_env "ip6tables$1" -t "$2" -A PREROUTING ${3:+-i v6} -j TERN --instance bench || return 1
	xt_env "iptables$1" -t "$2" -A PREROUTING ${3:+-i v4} -j TERN --instance bench || return 1
}
# xt_teardown SUFFIX TABLE: the rules and the instance.
xt_teardown() {
	xt_env "ip6tables$1" -t "$2" -F PREROUTING
	xt_env "iptables$1" -t "$2" -F PREROUTING
	if [ -z "$1" ]; then
		# An empty base chain still costs every packet a walk: remove
		# the tables iptables-nft made, so that the next system does
		# not pay it.
		nsx xl nft delete table ip6 "$2" 2>/dev/null
		nsx xl nft delete table ip "$2" 2>/dev/null
	else
		# A legacy table keeps its hooks while its module is loaded.
		modprobe -r "ip6table_$2" "iptable_$2" 2>/dev/null
	fi
	teardown_tern-siit
}
setup_tern-siit-ipt() { xt_setup "" mangle in; }
teardown_tern-siit-ipt() { xt_teardown "" mangle; }

# The same with iptables-legacy (ipt_do_table compares interface names in
# place), in the mangle table and in the raw table (which hooks only
# PREROUTING and OUTPUT; mangle hooks all five, so a translated packet
# walks the other family's mangle POSTROUTING too), and with nft but a
# rule without a match (all of a link's traffic is the instance's in the
# bench anyway): what the framework and the match cost, beside
# tern-siit-ipt.
setup_tern-siit-iptl() { xt_setup -legacy mangle in; }
teardown_tern-siit-iptl() { xt_teardown -legacy mangle; }
setup_tern-siit-iptr() { xt_setup -legacy raw in; }
teardown_tern-siit-iptr() { xt_teardown -legacy raw; }
setup_tern-siit-ipt0() { xt_setup "" mangle; }
teardown_tern-siit-ipt0() { xt_teardown "" mangle; }

setup_tern-nat64() {
	nsx xl "$tern" instance add bench --nat64 --pool6 "$POOL6" >/dev/null || return 1
	nsx xl "$tern" pool4 add 192.0.2.1/32 >/dev/null || return 1
	nat64_ports | while read -r p; do
		echo "bib add $NAT6#$p 192.0.2.1#$p --udp"
	done | nsx xl sh -c "while read -r c; do $tern \$c >/dev/null || exit 1; done"
}
teardown_tern-nat64() { teardown_tern-siit; }

setup_jool-siit() {
	modprobe jool_siit || return 1
	nsx xl jool_siit instance add bench --netfilter --pool6 "$POOL6" >/dev/null || return 1
}
teardown_jool-siit() {
	nsx xl jool_siit instance remove bench >/dev/null
	modprobe -r jool_siit
}

setup_jool-nat64() {
	modprobe jool || return 1
	nsx xl jool instance add bench --netfilter --pool6 "$POOL6" >/dev/null || return 1
	local p
	for p in --tcp --udp --icmp; do
		nsx xl jool -i bench pool4 add $p 192.0.2.1 1024-65535 >/dev/null || return 1
	done
	nat64_ports | while read -r p; do
		echo "-i bench bib add $NAT6#$p 192.0.2.1#$p --udp"
	done | nsx xl sh -c "while read -r c; do jool \$c >/dev/null || exit 1; done"
}
teardown_jool-nat64() {
	nsx xl jool instance remove bench >/dev/null
	modprobe -r jool
}

# SIIT with an EAMT (RFC 7757), pool6 as tern-siit: eamt1 has one entry,
# the IPv6 host's (NAT6/128 <-> SIIT4/32); eamt10k has 10,000, the host's
# and 9,999 others (2001:db8:e0::N/128 <-> 100.64.N/32, none the traffic
# uses), given at once (tern config apply, jool_siit file handle: 10,000
# CLI calls would take minutes under emulation). The traffic is the same
# as tern-siit's but for the IPv6 host's address: 6->4 its source, 4->6
# its destination, go through the EAMT; the IPv4 host through pool6 after
# an EAMT miss.
EAMT_N=10000
# eamt_json FORMAT N: the JSON of an instance "bench" with N entries, for
# tern (config apply) or jool (file handle).
eamt_json() {
	/usr/bin/python3 - "$1" "$2" "$POOL6" "$NAT6" "$SIIT4" <<'EOT'
import json, sys
fmt, n, pool6, host6, host4 = sys.argv[1], int(sys.argv[2]), *sys.argv[3:]
pairs = [(host6 + "/128", host4 + "/32")]
for i in range(1, n):
    pairs.append(("2001:db8:e0::%x/128" % i,
                  "100.64.%d.%d/32" % (i >> 8, i & 255)))
if fmt == "tern":
    doc = {"instances": [{"name": "bench", "type": "siit", "pool6": pool6,
                          "eamt": [{"prefix6": a, "prefix4": b}
                                   for a, b in pairs]}]}
else:
    doc = {"instance": "bench", "framework": "netfilter",
           "global": {"pool6": pool6},
           "eamt": [{"ipv6 prefix": a, "ipv4 prefix": b} for a, b in pairs]}
json.dump(doc, sys.stdout)
EOT
}
setup_tern-siit-eamt1() {
	setup_tern-siit || return 1
	nsx xl "$tern" -i bench eamt add "$NAT6/128" "$SIIT4/32" >/dev/null || return 1
}
teardown_tern-siit-eamt1() { teardown_tern-siit; }
setup_tern-siit-eamt10k() {
	eamt_json tern $EAMT_N >/tmp/bench-eamt.json || return 1
	nsx xl "$tern" config apply /tmp/bench-eamt.json >/dev/null || return 1
	[ "$(nsx xl "$tern" -i bench eamt list | grep -c /128)" = $EAMT_N ] ||
		{ say "tern-siit-eamt10k: not $EAMT_N EAMT entries"; return 1; }
}
teardown_tern-siit-eamt10k() { teardown_tern-siit; }
setup_jool-siit-eamt1() {
	setup_jool-siit || return 1
	nsx xl jool_siit -i bench eamt add "$NAT6/128" "$SIIT4/32" >/dev/null || return 1
}
teardown_jool-siit-eamt1() { teardown_jool-siit; }
setup_jool-siit-eamt10k() {
	modprobe jool_siit || return 1
	eamt_json jool $EAMT_N >/tmp/bench-eamt.json || return 1
	nsx xl jool_siit file handle /tmp/bench-eamt.json >/dev/null || return 1
	[ "$(nsx xl jool_siit -i bench eamt display --csv --no-headers | grep -c /128)" = $EAMT_N ] ||
		{ say "jool-siit-eamt10k: not $EAMT_N EAMT entries"; return 1; }
}
teardown_jool-siit-eamt10k() { teardown_jool-siit; }

# BENCH_ALT_KO (another tern.ko for this kernel, a module before a change
# say): every Tern system S of BENCH_SYSTEMS named S-alt is S with that
# module loaded in place of BENCH_MAIN_KO (default this tree's build, the
# one the VM loaded), swapped at its setup and back at its teardown, so
# that the two modules are measured in the same run, paired with
# forwarding's windows alike.
alt_ko=${BENCH_ALT_KO:-}
main_ko=${BENCH_MAIN_KO:-$top/.build/$(uname -r)/mod/tern.ko}
tern_load() { rmmod tern && insmod "$1"; }
for s in ${systems:-}; do
	case $s in
	tern-*-alt)
		b=${s%-alt}
		sys_src6[$s]=${sys_src6[$b]:-} sys_dst4[$s]=${sys_dst4[$b]:-}
		eval "setup_$s() { tern_load \"\$alt_ko\" || return 1; setup_$b; }"
		eval "teardown_$s() { teardown_$b; tern_load \"\$main_ko\"; }" ;;
	esac
done

# Tayga: user space, tun device "nat64" in xl, the process pinned to CPU 1
# (where xl's receive work runs: the generators have CPU 0; without the
# pin it would get a CPU of its own and rank falsely high). It maps
# 2001:db8:6::2 to 192.0.2.2 (a static map, so 4->6 works without a
# preliminary pass) under the network-specific prefix 2001:db8:64::/96
# (Tayga refuses documentation IPv4 under 64:ff9b::/96).
tayga_dir=/tmp/bench-tayga
setup_tayga() {
	rm -rf $tayga_dir
	mkdir -p $tayga_dir/data
	cat >$tayga_dir/tayga.conf <<EOT
tun-device nat64
ipv4-addr 192.0.2.254
prefix $POOL6
dynamic-pool 192.0.2.128/25
map 192.0.2.2 $NAT6
data-dir $tayga_dir/data
EOT
	nsx xl tayga -c $tayga_dir/tayga.conf --mktun >/dev/null || return 1
	nsx xl ip link set nat64 up || return 1
	nsx xl ip route add "$POOL6" dev nat64 || return 1
	nsx xl ip route add 192.0.2.0/24 dev nat64 || return 1
	nsx xl taskset -c 1 tayga -c $tayga_dir/tayga.conf -p $tayga_dir/pid || return 1
	for _ in $(seq 50); do [ -s $tayga_dir/pid ] && break; sleep 0.1; done
}
teardown_tayga() {
	[ -s $tayga_dir/pid ] && kill "$(cat $tayga_dir/pid)" 2>/dev/null
	sleep 0.3
	nsx xl ip link del nat64 2>/dev/null || true
}
