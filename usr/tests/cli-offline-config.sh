# SPDX-License-Identifier: GPL-2.0-only
#
# Part of cli-offline.sh (sourced: its helpers, $TERN and $tmp): the
# configuration files, which tern det lookup --config reads and checks as
# tern config apply does, without the module; and tern config show against
# fake_kernel.c, a stand-in for the module preloaded into the CLI.

# --- tern det lookup --config: the deterministic mapping from a file, no
# module (docs/config.md has the formula these numbers follow)
cat >"$tmp/det.json" <<'EOF'
{"instances": [{"name": "n", "type": "nat64", "pool6": "64:ff9b::/96",
  "globals": {"det-space": "2001:db8:100::/40", "subscriber-prefix-len": 56},
  "pool4": [{"prefix": "192.0.2.4/30"},
            {"prefix": "198.51.100.7", "protocols": ["icmp"]}]}]}
EOF
# det_in FILE NAME WANT ARGS...: det lookup --config FILE ARGS: exit 0,
# stdout WANT, nothing on stderr
det_in() {
	local file=$1 name=$2 want=$3
	shift 3
	run det lookup --config "$file" "$@"
	if [ "$rc" = 0 ] && [ "$out" = "$want" ] && [ -z "$err" ]; then
		ok "$name"
	else
		fail "$name" "exit $rc, stdout: $out, stderr: $err"
	fi
}
# det_out NAME WANT ARGS...: det_in of det.json
det_out() { det_in "$tmp/det.json" "$@"; }
# det_err NAME RC MESSAGE ARGS...: exit RC, the one line MESSAGE
det_err() {
	local name=$1 want_rc=$2 msg=$3
	shift 3
	run det lookup "$@"
	if [ "$rc" = "$want_rc" ] && [ "$err" = "tern: $msg" ] && [ -z "$out" ]; then
		ok "$name"
	else
		fail "$name" "exit $rc, stdout: $out, stderr: $err"
	fi
}
# 65536 subscribers; TCP/UDP: 4 addresses x blocks of 3 ports from 1024;
# ICMP: 5 addresses x blocks of 4 identifiers from 0. 2001:db8:101:200::
# is subscriber 0x0102 = 258: address 258 mod 4 = 2, block 258 div 4 = 64.
det_out det-lookup-prefix "tcp 2001:db8:101:200::/56 192.0.2.6 1216-1218
udp 2001:db8:101:200::/56 192.0.2.6 1216-1218
icmp 2001:db8:101:200::/56 192.0.2.7 204-207" 2001:db8:101:200::/56
det_out det-lookup-address-inside "tcp 2001:db8:101:200::/56 192.0.2.6 1216-1218" \
	2001:db8:101:2ff:1::1 --tcp
det_out det-lookup-ipv4-back "tcp 2001:db8:101:200::/56 192.0.2.6 1216-1218
udp 2001:db8:101:200::/56 192.0.2.6 1216-1218
icmp 2001:db8:105:f200::/56 192.0.2.6 1216-1219" 192.0.2.6#1218
det_out det-lookup-ipv4-colon "icmp 2001:db8:101:200::/56 192.0.2.7 204-207" \
	192.0.2.7:207 --icmp
det_out det-lookup-json '[{"protocol":"udp","subscriber":"2001:db8:100:100::/56","index":1,"address4":"192.0.2.5","port-first":1024,"port-last":1026,"box":0}]' \
	192.0.2.5#1024 --udp --json
det_err det-outside-space 1 "2001:db8:200::/56 is outside det-space" \
	--config "$tmp/det.json" 2001:db8:200::/56
det_err det-no-block 1 "no subscriber's block holds 192.0.2.9#1027" \
	--config "$tmp/det.json" 192.0.2.9#1027
det_err det-shorter 2 "2001:db8:100::/48 is shorter than a subscriber (/56)" \
	--config "$tmp/det.json" 2001:db8:100::/48
det_err det-not-taddr 2 "det lookup: '192.0.2.1' is not ADDR4#PORT, ADDR4:PORT or an IPv6 address or prefix" \
	--config "$tmp/det.json" 192.0.2.1
sed 's|"subscriber-prefix-len": 56|&, "det-block-size": 4|' "$tmp/det.json" >"$tmp/det-short.json"
det_err det-unsatisfiable 1 "det: 65536 subscribers > tcp: 4 addrs x 16128 blocks of 4" \
	--config "$tmp/det-short.json" 2001:db8:101:200::/56
sed 's|"det-space": "2001:db8:100::/40", ||' "$tmp/det.json" >"$tmp/det-off.json"
det_err det-off 1 'instance "n": deterministic mode is off (no det-space)' \
	-i n --config "$tmp/det-off.json" 2001:db8:101:200::/56
det_err det-no-instance 1 "$tmp/det-off.json: no instance has det-space" \
	--config "$tmp/det-off.json" 2001:db8:101:200::/56
sed 's|/40|/20|' "$tmp/det.json" >"$tmp/det-long.json"
det_err det-too-many-bits 1 "det-space /20, subscriber-prefix-len 56: need 0 to 32 bits" \
	--config "$tmp/det-long.json" 2001:db8:101:200::/56

# Three boxes (box-count 3), TCP pool4 192.0.2.0/28: shares of 16 addresses
# at floor(16k/3): box 0 192.0.2.0-4, box 1 .5-.9, box 2 .10-.15; each box
# maps all 65536 subscribers over its share: boxes 0 and 1 blocks of
# floor(64512 / ceil(65536/5)) = 4 ports, box 2 of floor(64512 / 10923) = 5.
# Subscriber 258: boxes 0 and 1: address 258 mod 5 = 3, block 51; box 2:
# address 258 mod 6 = 0, block 43.
cat >"$tmp/det-boxes.json" <<'EOF'
{"instances": [{"name": "n", "type": "nat64", "pool6": "64:ff9b::/96",
  "globals": {"det-space": "2001:db8:100::/40", "subscriber-prefix-len": 56,
              "box-count": 3, "box-index": 1},
  "pool4": [{"prefix": "192.0.2.0/28", "protocols": ["tcp"]}]}]}
EOF
# det_box NAME WANT ARGS...: det_in of the three-box file
det_box() { det_in "$tmp/det-boxes.json" "$@"; }
det_box det-boxes-prefix "tcp 2001:db8:101:200::/56 192.0.2.3 1228-1231 box 0
tcp 2001:db8:101:200::/56 192.0.2.8 1228-1231 box 1
tcp 2001:db8:101:200::/56 192.0.2.10 1239-1243 box 2" 2001:db8:101:200::/56
det_box det-boxes-ipv4-box1 "tcp 2001:db8:101:200::/56 192.0.2.8 1228-1231 box 1" \
	192.0.2.8#1230
det_box det-boxes-ipv4-box2 "tcp 2001:db8:101:200::/56 192.0.2.10 1239-1243 box 2" \
	192.0.2.10:1243
det_box det-boxes-ipv4-box0-edge "tcp 2001:db8:100:400::/56 192.0.2.4 1024-1027 box 0" \
	192.0.2.4#1027
det_box det-boxes-json '[{"protocol":"tcp","subscriber":"2001:db8:100:200::/56","index":2,"address4":"192.0.2.12","port-first":1024,"port-last":1028,"box":2}]' \
	192.0.2.12#1024 --json
sed 's|"box-count": 3|"box-count": 17|' "$tmp/det-boxes.json" >"$tmp/det-boxes17.json"
det_err det-boxes-empty-share 1 "box-count 17 > 16 tcp pool4 addresses (mark 0): a box gets none" \
	--config "$tmp/det-boxes17.json" 2001:db8:101:200::/56
sed 's|"box-index": 1|"box-index": 3|' "$tmp/det-boxes.json" >"$tmp/det-boxes-idx.json"
det_err det-boxes-index 1 "box-index 3 is not below box-count 3" \
	--config "$tmp/det-boxes-idx.json" 2001:db8:101:200::/56
# Blocks of 5 fit box 2's 6 addresses, not the 5 of the smallest share.
sed 's|"subscriber-prefix-len": 56|&, "det-block-size": 5|' "$tmp/det-boxes.json" >"$tmp/det-boxes-short.json"
det_err det-boxes-smallest-share 1 "det: 65536 subscribers > tcp box: 5 addrs x 12902 blocks of 5" \
	--config "$tmp/det-boxes-short.json" 2001:db8:101:200::/56

det_out det-lookup-dashdash "tcp 2001:db8:101:200::/56 192.0.2.6 1216-1218" \
	--tcp -- 192.0.2.6#1218
det_err det-dashdash-ends-options 2 "det lookup: '--tcp' is not ADDR4#PORT, ADDR4:PORT or an IPv6 address or prefix" \
	--config "$tmp/det.json" -- --tcp
det_err det-read-error 1 "$tmp: Is a directory" --config "$tmp" 192.0.2.6#1218

# --- the checks of a file's entries, as config apply makes them
# file_err NAME MESSAGE JSON: det lookup --config of a file of JSON: exit
# 1, the one line MESSAGE, where FILE stands for the file's path
file_err() {
	printf '%s\n' "$3" >"$tmp/$1.json"
	det_err "$1" 1 "${2//FILE/$tmp/$1.json}" --config "$tmp/$1.json" \
		192.0.2.4#1024
}
# nat64 POOL4-ENTRY [BIB-ENTRY]: a NAT64 instance, the entries on line 3
nat64() {
	printf '%s\n' '{"instances": [{"name": "n", "type": "nat64", "pool6": "64:ff9b::/96",' \
		'  "globals": {"det-space": "2001:db8:100::/40", "subscriber-prefix-len": 56},' \
		"  \"pool4\": [$1], \"bib\": [${2:-}]}]}"
}
# siit EAMT-ENTRY: a SIIT instance, the entry on line 3 (entry 2)
siit() {
	printf '%s\n' '{"instances": [{"name": "s", "type": "siit",' \
		'  "eamt": [{"prefix6": "2001:db8::/120", "prefix4": "192.0.2.0/24"},' \
		"           $1]}]}"
}
# null is no value of these keys (a null has no line)
file_err pool4-null-ports 'FILE: instance "n": pool4 entry 1: "ports" is "MIN-MAX" or a port, 0..65535' \
	"$(nat64 '{"prefix": "192.0.2.4/30", "ports": null}')"
file_err pool4-null-protocols 'FILE: instance "n": pool4 entry 1: "protocols" is an array of "tcp", "udp", "icmp" (left out: all three)' \
	"$(nat64 '{"prefix": "192.0.2.4/30", "protocols": null}')"
file_err pool4-null-mark 'FILE: instance "n": pool4 entry 1: "mark" is 0..4294967295' \
	"$(nat64 '{"prefix": "192.0.2.4/30", "mark": null}')"
file_err pool4-protocol-twice 'FILE:3: instance "n": pool4 entry 1: "udp" is twice in "protocols"' \
	"$(nat64 '{"prefix": "192.0.2.4/30", "protocols": ["udp", "tcp", "udp"]}')"
# What tern.ko refuses of a pool4 entry, refused in its words as config
# apply reports them (the entry after a comma).
file_err pool4-host-bits 'FILE:3: instance "n", pool4 entry 1: the IPv4 prefix has bits set after its length' \
	"$(nat64 '{"prefix": "192.0.2.77/24"}')"
file_err pool4-wraps 'FILE:3: instance "n", pool4 entry 1: the IPv4 prefix has bits set after its length' \
	"$(nat64 '{"prefix": "255.255.255.200/24"}')"
file_err pool4-too-short 'FILE:3: instance "n", pool4 entry 1: the prefix length must be 16 to 32 (a /16 is 65536 addresses)' \
	"$(nat64 '{"prefix": "10.0.0.0/8"}')"
file_err pool4-ports-reversed 'FILE:3: instance "n", pool4 entry 1: the port range is empty: the first port is after the last' \
	"$(nat64 '{"prefix": "192.0.2.4/30", "ports": "65535-1"}')"
file_err pool4-port-0 'FILE:3: instance "n", pool4 entry 1: TCP and UDP ports are 1 to 65535 (not 0)' \
	"$(nat64 '{"prefix": "192.0.2.4/30", "ports": "0-99", "protocols": ["icmp", "udp"]}')"
nat64 '{"prefix": "192.0.2.4/30", "ports": "0-65535", "protocols": ["icmp"]}' >"$tmp/icmp-0.json"
det_in "$tmp/icmp-0.json" pool4-icmp-0 "icmp 2001:db8:100::/56 192.0.2.4 0-3" 192.0.2.4#0
# Every error of an entry names it, in its list, counted from 1.
file_err eamt-entry-unknown-key 'FILE:3: instance "s": eamt entry 2: unknown key "ttl"' \
	"$(siit '{"prefix6": "2001:db8:1::/120", "prefix4": "198.51.100.0/24", "ttl": 1}')"
file_err eamt-entry-not-string 'FILE:3: instance "s": eamt entry 2: "prefix4" is a string' \
	"$(siit '{"prefix6": "2001:db8:1::/120", "prefix4": 5}')"
file_err eamt-entry-missing 'FILE:3: instance "s": eamt entry 2: missing "prefix4"' \
	"$(siit '{"prefix6": "2001:db8:1::/120"}')"
file_err eamt-entry-force-not-bool 'FILE:3: instance "s": eamt entry 2: "force" is true or false' \
	"$(siit '{"prefix6": "2001:db8:1::/120", "prefix4": "198.51.100.0/24", "force": 1}')"
file_err eamt-entry-not-object 'FILE:3: instance "s": eamt entry 2: expected an object' \
	"$(siit '"2001:db8:1::/120"')"
file_err pool4-entry-unknown-key 'FILE:3: instance "n": pool4 entry 1: unknown key "port"' \
	"$(nat64 '{"prefix": "192.0.2.4/30", "port": 80}')"
file_err bib-entry-not-string 'FILE:3: instance "n": bib entry 2: "protocol" is a string' \
	"$(nat64 '{"prefix": "192.0.2.4/30"}' '{"protocol": "tcp", "ipv6": "2001:db8::1#80", "ipv4": "192.0.2.4#80"}, {"protocol": 6}')"
file_err bib-entry-null 'FILE: instance "n": bib entry 1: "ipv4" is a string' \
	"$(nat64 '{"prefix": "192.0.2.4/30"}' '{"protocol": "tcp", "ipv6": "2001:db8::1#80", "ipv4": null}')"

# --- tern config show against fake_kernel.c (its scenarios: replies a
# module could send that the CLI must refuse, not misread)
fake_so=$tmp/fake_kernel.so
fake_why=
if ! nl_flags=$(pkg-config --cflags --libs libnl-genl-3.0 2>/dev/null); then
	fake_why="pkg-config does not know libnl-genl-3.0"
else
	# shellcheck disable=SC2086
	${CC:-cc} -shared -fPIC -o "$fake_so" -I"$here/../../include" \
		"$here/fake_kernel.c" $nl_flags -ldl 2>"$tmp/cc.err" ||
		fake_why="cannot build fake_kernel.c: $(head -n 1 "$tmp/cc.err")"
fi
# shown NAME SCENARIO RC MESSAGE: config show against SCENARIO: exit RC,
# nothing on stdout, the one line "tern: MESSAGE"
shown() {
	if [ -n "$fake_why" ]; then
		skip "$1" "$fake_why"
		return
	fi
	TERN_FAKE=$2 LD_PRELOAD=$fake_so "$TERN" config show \
		>"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ "$rc" = "$3" ] && [ "$(cat "$tmp/err")" = "tern: $4" ] &&
	   [ ! -s "$tmp/out" ]; then
		ok "$1"
	else
		fail "$1" "exit $rc, stdout: $(cat "$tmp/out"), stderr: $(cat "$tmp/err")"
	fi
}
if [ -n "$fake_why" ]; then
	skip show-fake-kernel "$fake_why"
elif TERN_FAKE=none LD_PRELOAD=$fake_so "$TERN" config show >"$tmp/out" 2>"$tmp/err" &&
     [ ! -s "$tmp/err" ] && grep -q '"framework":"netfilter"' "$tmp/out"; then
	ok show-fake-kernel
else
	fail show-fake-kernel "stdout: $(cat "$tmp/out"), stderr: $(cat "$tmp/err")"
fi
# A value of a newer module is no value of a file: not written as another.
shown show-unknown-type type 1 'instance "t" has type 9, which this CLI does not know (install the tern CLI that comes with the module)'
shown show-unknown-framework framework 1 'instance "t" has framework 9, which this CLI does not know (install the tern CLI that comes with the module)'
# A prefix without its address: malformed, not out of memory (nor unset).
shown show-bad-pool6 pool6 1 "malformed reply from the kernel: bad pool6"
shown show-bad-eam-prefix eam 1 "malformed reply from the kernel: bad prefix4"
shown show-bad-rfc6791-prefix rfc6791 1 "malformed reply from the kernel: bad rfc6791v4-prefix"
shown show-pool4-fails pool4 1 "Operation not permitted (need CAP_NET_ADMIN in this network namespace)"
# ... and what it had read is freed (the split argv is the process's).
if [ -n "$fake_why" ]; then
	skip show-pool4-fails-frees "$fake_why"
elif ! command -v valgrind >/dev/null; then
	skip show-pool4-fails-frees "no valgrind"
else
	printf '%s\n' '{' '   split-argv' '   Memcheck:Leak' \
		'   match-leak-kinds: definite' '   ...' \
		'   fun:args_split_short' '}' >"$tmp/vg.supp"
	TERN_FAKE=pool4 LD_PRELOAD=$fake_so valgrind -q --leak-check=full \
		--errors-for-leak-kinds=definite --error-exitcode=9 \
		--suppressions="$tmp/vg.supp" "$TERN" config show \
		>"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	if [ "$rc" = 1 ] && [ "$(cat "$tmp/err")" = "tern: Operation not permitted (need CAP_NET_ADMIN in this network namespace)" ]; then
		ok show-pool4-fails-frees
	else
		fail show-pool4-fails-frees "exit $rc, stderr: $(cat "$tmp/err")"
	fi
fi
