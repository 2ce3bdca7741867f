#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Checks of the tern CLI that need no kernel module: help at every level,
# usage errors (exit 2, one "tern: " line on stderr, nothing on stdout) and
# the parsing of prefixes and global values. Arguments that parse get as
# far as looking up the netlink family, which fails with the "not loaded"
# message (exit 1); those checks are skipped when the module is loaded, so
# nothing is ever changed.
#
# Usage: usr/tests/cli-offline.sh          (TERN=path/to/tern to override)
# Prints "ok NAME", "FAIL NAME" or "SKIP NAME" per check and "N passed,
# N failed, N skipped"; exit 0 only if every check ran and passed.

here=$(cd "$(dirname "$0")" && pwd)
TERN=${TERN:-$here/../cli/tern}
NOT_LOADED="tern: the tern kernel module is not loaded (modprobe tern)"

passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() {
	echo "ok $1${2:+ # $2}"
	passed=$((passed + 1))
}

fail() {
	echo "FAIL $1: $2"
	failed=$((failed + 1))
}

# A check that could not run is not a pass: make check counts it failed.
skipped=0
skip() {
	echo "SKIP $1: $2"
	skipped=$((skipped + 1))
}

# run ARGS...: sets $rc, $out, $err
run() {
	"$TERN" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	out=$(cat "$tmp/out")
	err=$(cat "$tmp/err")
	errlines=$(wc -l <"$tmp/err")
}

# help NAME ARGS...: exit 0, usage on stdout, nothing on stderr
help() {
	local name=$1
	shift
	run "$@"
	if [ "$rc" != 0 ]; then
		fail "$name" "exit $rc"
	elif [ -n "$err" ]; then
		fail "$name" "stderr: $err"
	elif ! grep -q '^Usage: tern' "$tmp/out"; then
		fail "$name" "no usage on stdout"
	else
		ok "$name"
	fi
}

# usage NAME REGEX ARGS...: exit 2, nothing on stdout, one line on stderr
# that starts with "tern: " and matches REGEX (grep -E)
usage() {
	local name=$1 re=$2
	shift 2
	run "$@"
	if [ "$rc" != 2 ]; then
		fail "$name" "exit $rc, stderr: $err"
	elif [ -n "$out" ]; then
		fail "$name" "stdout: $out"
	elif [ "$errlines" != 1 ] || [ "${err#tern: }" = "$err" ]; then
		fail "$name" "stderr is not one 'tern: ' line: $err"
	elif ! grep -qE -- "$re" "$tmp/err"; then
		fail "$name" "stderr does not match '$re': $err"
	else
		ok "$name"
	fi
}

# says NAME RC MESSAGE ARGS...: exit RC, nothing on stdout, the one line
# "tern: MESSAGE" on stderr
says() {
	local name=$1 want_rc=$2 msg=$3
	shift 3
	run "$@"
	if [ "$rc" = "$want_rc" ] && [ "$err" = "tern: $msg" ] && [ -z "$out" ]; then
		ok "$name"
	else
		fail "$name" "exit $rc, stdout: $out, stderr: $err"
	fi
}

# parses NAME ARGS...: the arguments are accepted and the CLI goes on to
# the kernel, which is absent (exit 1, the "not loaded" line)
module_loaded=
probe() {
	run instance list
	if [ "$err" = "$NOT_LOADED" ]; then
		ok probe-not-loaded-message
	elif [ -d /sys/module/tern ]; then
		module_loaded=1
		skip probe-not-loaded-message "tern.ko is loaded"
	else
		fail probe-not-loaded-message "exit $rc, stderr: $err"
	fi
}
parses() {
	local name=$1
	shift
	if [ -n "$module_loaded" ]; then
		skip "$name" "the tern family is present"
		return
	fi
	run "$@"
	if [ "$rc" != 1 ] || [ "$err" != "$NOT_LOADED" ] || [ -n "$out" ]; then
		fail "$name" "exit $rc, stdout: $out, stderr: $err"
	else
		ok "$name"
	fi
}

if [ ! -x "$TERN" ]; then
	echo "FAIL binary: $TERN is not executable"
	echo "0 passed, 1 failed"
	exit 1
fi

probe

# --- help and version
help help-top --help
help help-top-short -h
help help-word help
help help-instance instance --help
help help-instance-word instance help
help help-instance-add instance add --help
help help-instance-add-short instance add -h
help help-instance-add-wins instance add x --bogus --help
help help-instance-list instance list --help
help help-instance-remove instance remove --help
help help-global global --help
help help-global-show global show --help
help help-global-set global set --help
help help-global-set-wins -i x global set nope nope --help
help help-stats stats --help
help help-stats-short stats -h

run --help
for w in "instance add" "instance list" "instance remove" "global show" \
	 "global set" "stats" "eamt add" "eamt remove" "eamt list" \
	 "eamt flush" "denylist4 add" "denylist4 remove" "denylist4 list" \
	 "denylist4 flush" "address query" "bib add" "bib remove" "bib list" \
	 "session list" "session flush" "pool4 add" "pool4 remove" \
	 "pool4 list" "pool4 flush" "monitor"; do
	if grep -q "$w" "$tmp/out"; then
		ok "help-top-mentions-${w// /-}"
	else
		fail "help-top-mentions-${w// /-}" "missing"
	fi
done

run global set --help
missing=
for key in enabled pool6 strict-wkp zeroize-traffic-class override-tos tos \
	   amend-udp-checksum-zero lowest-ipv6-mtu mtu-plateaus \
	   rfc6791v4-prefix rfc6791v6-prefix eam-hairpin-mode icmp-on-drop; do
	grep -q "^  $key " "$tmp/out" || missing="$missing $key"
done
if [ -z "$missing" ]; then
	ok help-global-set-lists-keys
else
	fail help-global-set-lists-keys "missing:$missing"
fi

run --version
if [ "$rc" = 0 ] && [ -z "$err" ] && grep -qE '^tern [0-9]' "$tmp/out"; then
	ok version
else
	fail version "exit $rc, stdout: $out, stderr: $err"
fi

# --- usage errors: top level
usage no-command 'missing command'
usage unknown-command "unknown command 'frobnicate'" frobnicate
usage unknown-option "unknown option '--bogus'" --bogus
usage i-without-value "'-i' needs a value" -i
usage i-twice 'more than once' -i a stats -i b
usage i-with-instance-list 'does not apply' -i a instance list
usage i-with-instance-add 'does not apply' -i a instance add t --siit --pool6 64:ff9b::/96

# --- usage errors: instance
usage instance-no-sub "'instance' needs a command" instance
usage instance-unknown-sub "unknown command 'instance frob'" instance frob
usage add-no-name 'needs an instance NAME' instance add
usage add-no-type 'needs --siit or --nat64' instance add t
usage add-pool6-no-value "'--pool6' needs a value" instance add t --siit --pool6
usage add-both-types 'mutually exclusive' instance add t --siit --nat64 --pool6 64:ff9b::/96
usage add-both-frameworks 'mutually exclusive' instance add t --siit --pool6 64:ff9b::/96 --netfilter --iptables
usage add-two-names "unexpected argument 'u'" instance add t u --siit --pool6 64:ff9b::/96
usage add-unknown-option "unknown option '--frob'" instance add t --siit --pool6 64:ff9b::/96 --frob
usage add-pool6-twice 'more than once' instance add t --siit --pool6 64:ff9b::/96 --pool6 64:ff9b::/96
usage list-extra "unexpected argument 'x'" instance list x
usage list-unknown-option "unknown option '--frob'" instance list --frob
usage remove-no-name 'needs an instance NAME' instance remove
usage remove-two-names "unexpected argument 'b'" instance remove a b

# --- prefix syntax (--pool6): only syntax; lengths are the kernel's call
for p in garbage 2001:db8:: 2001:db8::/129 2001:db8::/ 2001:db8::/-1 \
	 2001:db8::/+96 2001:db8::/96x 2001:db8::/0x60 "2001:db8::/ 96" \
	 2001:db8::/1000 /96 192.0.2.0/24 ::ffff:192.0.2.0/999 \
	 2001:db8::1::1/96 fe80::1%lo/64 ""; do
	usage "pool6-rejects-'$p'" "invalid --pool6 '.*' \(expected ADDR/LEN" \
		instance add t --siit --pool6 "$p"
done
for p in 64:ff9b::/96 2001:db8::/32 2001:db8::/95 2001:db8::1/96 ::/0 \
	 ::/128 2001:db8::/000 ::ffff:192.0.2.0/120; do
	parses "pool6-accepts-$p" instance add t --siit --pool6 "$p"
done
parses pool6-equals-form instance add t --siit --pool6=64:ff9b::/96
parses add-nat64-goes-to-kernel instance add t --nat64 --pool6 64:ff9b::/96
parses add-iptables instance add t --siit --pool6 64:ff9b::/96 --iptables
parses add-options-first instance add --netfilter --pool6 64:ff9b::/96 --siit t
parses add-dashdash-name instance add --siit --pool6 64:ff9b::/96 -- -t
parses add-long-name-goes-to-kernel instance add aaaaaaaaaaaaaaaa --siit --pool6 64:ff9b::/96

# --- usage errors: global
usage global-no-sub "'global' needs a command" global
usage global-unknown-sub "unknown command 'global frob'" global frob
usage show-extra "unexpected argument 'x'" global show x
usage show-unknown-option "unknown option '--frob'" global show --frob
usage set-nothing 'needs KEY and VALUE' global set
usage set-unknown-key "unknown global 'frobnicate' \(known: enabled, pool6" global set frobnicate 1
usage set-no-value "'global set enabled' needs a VALUE" global set enabled
# Every key, however many (they are those of global set --help), after a
# key of any length.
keys=$("$TERN" global set --help | sed -n '/^Keys:/,/^$/{s/^  \([a-z0-9-]*\) .*/\1/p}' |
	paste -sd, - | sed 's/,/, /g')
says set-unknown-key-lists-all 2 "unknown global 'foo' (known: $keys)" global set foo 1
long=$(printf 'k%.0s' {1..2000})
says set-unknown-long-key 2 "unknown global '$long' (known: $keys)" global set "$long" 1
usage set-extra "unexpected argument 'x'" global set enabled on x

for v in maybe 2 -1 "" tru 'on ' enabled; do
	usage "bool-rejects-'$v'" "invalid value '.*' for strict-wkp \(expected true/false, on/off, yes/no or 1/0\)" \
		global set strict-wkp "$v"
done
for v in true false on off yes no 1 0 TRUE Off; do
	parses "bool-accepts-$v" global set enabled "$v"
done

for v in 256 -1 1000 0x100 0x 0x1g abc 12a "" " 1" 1.5 +1; do
	usage "u8-rejects-'$v'" "invalid value '.*' for tos \(expected an integer 0\.\.255, decimal or 0x hex\)" \
		global set tos "$v"
done
for v in 0 255 184 0x20 0xff 0XFF 007; do
	parses "u8-accepts-$v" global set tos "$v"
done

for v in nope 198.51.100.0/24 2001:db8::/129 2001:db8::; do
	usage "prefix6-rejects-'$v'" "invalid value '.*' for pool6 \(expected an IPv6 prefix ADDR/LEN" \
		global set pool6 "$v"
done
parses prefix6-accepts global set pool6 2001:db8:1::/48
parses prefix6-len-not-checked global set pool6 2001:db8:1::/47

# U32: syntax only; the kernel owns the range (lowest-ipv6-mtu 1280..65535)
for v in 4294967296 -1 1280.0 abc 0x 0x1g "" " 1280" 1280x +1280 99999999999; do
	usage "u32-rejects-'$v'" "invalid value '.*' for lowest-ipv6-mtu \(expected an integer 0\.\.4294967295, decimal or 0x hex\)" \
		global set lowest-ipv6-mtu "$v"
done
for v in 1280 1500 65535 0 1279 65536 4294967295 0x500 0XFFFFFFFF; do
	parses "u32-accepts-$v" global set lowest-ipv6-mtu "$v"
done

# PLATEAUS: comma-separated 0..65535; "" is an empty list (the kernel
# refuses it, as it refuses values under 68 and more than 64 values)
for v in abc 1500, ,1500 1500,,1280 65536 1500,65536 -1 1500:1280 \
	 "1500 1280" 0x5dc 1500.0 +1500 "1500;1280"; do
	usage "plateaus-rejects-'$v'" "invalid value '.*' for mtu-plateaus \(expected comma-separated integers 0\.\.65535, e\.g\. 1500,1280,576\)" \
		global set mtu-plateaus "$v"
done
for v in 1500 1500,1280,576 "1500, 1280, 576" " 1500 " 65535,68 0 67 "" \
	 576,1500,576 "$(seq -s, 100 199)"; do
	parses "plateaus-accepts-'${v:0:20}'" global set mtu-plateaus "$v"
done
usage plateaus-too-many-for-buffer "invalid value" \
	global set mtu-plateaus "$(seq -s, 1000 2100)"

# PREFIX4_OPT / PREFIX6_OPT: a prefix of the family, or none/unset
for v in nope 2001:db8::/64 192.0.2.0/33 192.0.2.0 192.0.2.0/ "" non; do
	usage "prefix4opt-rejects-'$v'" "invalid value '.*' for rfc6791v4-prefix \(expected an IPv4 prefix ADDR/LEN.*, or none\)" \
		global set rfc6791v4-prefix "$v"
done
for v in 192.0.2.0/24 192.0.2.1/32 0.0.0.0/0 192.0.2.1/24 none unset NONE Unset; do
	parses "prefix4opt-accepts-$v" global set rfc6791v4-prefix "$v"
done
for v in nope 192.0.2.0/24 2001:db8::/129 2001:db8:: "" null; do
	usage "prefix6opt-rejects-'$v'" "invalid value '.*' for rfc6791v6-prefix \(expected an IPv6 prefix ADDR/LEN.*, or none\)" \
		global set rfc6791v6-prefix "$v"
done
for v in 2001:db8:6791::/64 2001:db8::1/128 ::/0 2001:db8::1/64 none unset; do
	parses "prefix6opt-accepts-$v" global set rfc6791v6-prefix "$v"
done

# HAIRPIN: names only
for v in 0 1 2 3 on true simpl intrinsic2 "" " off"; do
	usage "hairpin-rejects-'$v'" "invalid value '.*' for eam-hairpin-mode \(expected off, simple or intrinsic\)" \
		global set eam-hairpin-mode "$v"
done
for v in off simple intrinsic OFF Intrinsic; do
	parses "hairpin-accepts-$v" global set eam-hairpin-mode "$v"
done

# --- -i forms
parses i-before-command -i t global show
parses i-long --instance t global show
parses i-long-equals --instance=t global show
parses i-attached -it stats
parses i-after-command global show -i t
parses i-after-set global set -i t tos 1
parses i-after-stats stats --instance t --json

# --- stats and json flags
usage stats-extra "unexpected argument 'x'" stats x
usage stats-unknown-option "unknown option '--frob'" stats --frob
parses stats-plain stats
parses stats-verbose stats -v
parses stats-json stats --json
parses stats-all stats --all
parses stats-all-short-json stats -a -j

# --- stats --explain: needs no module; every counter of the table of
# include/tern_names.h once, with its meaning, under a group heading
run stats --explain
names=$(awk '/tern_stat_names\[\] = \{/ { t = 1 } t && /^\t\{ "/ { sub(/^\t\{ "/, ""); sub(/".*/, ""); print } t && /^\};/ { exit }' \
	"$here/../../include/tern_names.h")
shown=$(sed -n 's/^  \([a-z0-9-]*\)  *[^ ].*$/\1/p' <<<"$out" | sed '/^\(bib-entries\|sessions\|table-bytes\|max-sessions\|stored-syns\|bucket-bytes\)$/d')
if [ "$rc" != 0 ] || [ -n "$err" ]; then
	fail stats-explain "exit $rc, stderr: $err"
elif [ -z "$names" ] || [ "$(sort <<<"$names")" != "$(sort <<<"$shown")" ]; then
	fail stats-explain "counters shown differ from tern_names.h: $(diff <(sort <<<"$names") <(sort <<<"$shown") | tr '\n' ' ')"
elif [ "$(grep -c '^[A-Z].*:$' <<<"$out")" != 8 ] ||
     ! grep -qx 'Translated:' <<<"$out" ||
     ! grep -qx 'Dropped (NAT64): no state, or state refused:' <<<"$out" ||
     ! grep -qxE '  drop-ttl +Dropped: TTL or Hop Limit exceeded \(Time Exceeded sent\)' <<<"$out"; then
	fail stats-explain "groups or lines: $out"
else
	ok stats-explain
fi
# Each counter under the heading of its group (two samples of each kind).
group_of() {	# COUNTER: the heading it is under in --explain
	awk -v c="$1" '/^[A-Z].*:$/ { h = $0 } $1 == c { print h }' <<<"$out"
}
if [ "$(group_of xlat-hairpin)" = "Translated:" ] &&
   [ "$(group_of pass-local)" = "Passed on untranslated:" ] &&
   [ "$(group_of drop-truncated)" = "Dropped: malformed or inconsistent:" ] &&
   [ "$(group_of drop-special4)" = "Dropped: not to be translated:" ] &&
   [ "$(group_of drop-no-route)" = "Dropped: could not be sent on:" ] &&
   [ "$(group_of drop-subscriber-sessions)" = "Dropped (NAT64): no state, or state refused:" ] &&
   [ "$(group_of tcp-probes)" = "Other outcomes and events:" ] &&
   [ "$(group_of sessions)" = "NAT64 tables (shown whole):" ]; then
	ok stats-explain-groups
else
	fail stats-explain-groups "$out"
fi
run -i t stats --explain --json
if [ "$rc" = 0 ] && grep -qx 'Translated:' <<<"$out"; then ok stats-explain-any-options; else fail stats-explain-any-options "exit $rc: $err"; fi

# --- bib list and session list filters (the kernel applies them)
for c in "bib list" "session list"; do
	n=${c% *}
	# shellcheck disable=SC2086
	{
	parses "$n-filter-ipv4" $c --ipv4 192.0.2.7
	parses "$n-filter-ipv4-port" $c --ipv4 192.0.2.7:40123
	parses "$n-filter-ipv4-hash-port" $c --ipv4=192.0.2.7#40123
	parses "$n-filter-ipv6-prefix" $c --ipv6 2001:db8:1:200::/56
	parses "$n-filter-ipv6-address" $c --ipv6 2001:db8:1:200::1
	parses "$n-filter-subscriber" $c --subscriber 2001:db8:1:200::1
	parses "$n-filter-all" $c --udp --ipv4 192.0.2.7:1 --ipv6 ::/0 --subscriber :: -j
	usage "$n-filter-ipv4-bad" "^tern: '$c': invalid --ipv4 '192.0.2' \\(expected ADDR4\\[:PORT\\]\\)$" $c --ipv4 192.0.2
	usage "$n-filter-ipv4-v6" "^tern: '$c': invalid --ipv4 '\\[::1\\]:80' \\(expected ADDR4\\[:PORT\\]\\)$" $c --ipv4 '[::1]:80'
	usage "$n-filter-ipv4-port-bad" "invalid --ipv4 '192.0.2.7:65536'" $c --ipv4 192.0.2.7:65536
	usage "$n-filter-ipv6-len" "^tern: '$c': invalid --ipv6 '2001:db8::/129' \\(expected PREFIX6\\)$" $c --ipv6 2001:db8::/129
	usage "$n-filter-ipv6-v4" "invalid --ipv6 '192.0.2.0/24'" $c --ipv6 192.0.2.0/24
	usage "$n-filter-subscriber-prefix" "invalid --subscriber '2001:db8::/56' \\(expected ADDR6\\)" $c --subscriber 2001:db8::/56
	usage "$n-filter-twice" "^tern: '$c': --ipv6 given more than once$" $c --ipv6 ::1 --ipv6 ::2
	usage "$n-filter-no-value" "option '--subscriber' needs a value \\(ADDR6\\)" $c --subscriber
	}
done
usage bib-add-no-filter "unknown option '--ipv4' for 'bib add'" bib add 2001:db8::2#80 192.0.2.1#80 --tcp --ipv4 192.0.2.1
parses global-show-json global show -j
parses instance-list instance list
parses instance-list-json instance list --json
parses instance-remove instance remove t

# --- eamt, denylist4, address query
help help-eamt eamt --help
help help-eamt-word eamt help
help help-eamt-add eamt add --help
help help-eamt-remove eamt remove --help
help help-eamt-list eamt list --help
help help-eamt-flush eamt flush --help
help help-denylist4 denylist4 --help
help help-denylist4-add denylist4 add --help
help help-denylist4-remove denylist4 remove -h
help help-denylist4-list denylist4 list --help
help help-denylist4-flush denylist4 flush --help
help help-address address --help
help help-address-query address query --help
usage eamt-no-sub "'eamt' needs a command" eamt
usage eamt-unknown-sub "unknown command 'eamt frob'" eamt frob
usage eamt-add-nothing "'eamt add' needs PREFIX6 and PREFIX4" eamt add
usage eamt-add-one "'eamt add' needs PREFIX6 and PREFIX4" eamt add 2001:db8::/120
usage eamt-add-two-v4 "needs one IPv6 and one IPv4 prefix, not two IPv4 ones" eamt add 192.0.2.0/24 198.51.100.0/24
usage eamt-add-two-v6 "needs one IPv6 and one IPv4 prefix, not two IPv6 ones" eamt add 2001:db8::/120 2001:db8:1::/120
usage eamt-add-three "unexpected argument '10.0.0.0/8'" eamt add 2001:db8::/120 192.0.2.0/24 10.0.0.0/8
usage eamt-add-bad-prefix "invalid prefix 'nope' \(expected ADDR/LEN, IPv6 or IPv4\)" eamt add nope 192.0.2.0/24
usage eamt-add-bad-len "invalid prefix '192.0.2.0/33'" eamt add 2001:db8::/120 192.0.2.0/33
usage eamt-add-unknown-option "unknown option '--frob'" eamt add 2001:db8::/120 192.0.2.0/24 --frob
usage eamt-add-json "unknown option '--json'" eamt add 2001:db8::/120 192.0.2.0/24 --json
parses eamt-add-force eamt add 2001:db8::/120 192.0.2.0/24 --force
parses eamt-add-force-short eamt add -f 2001:db8::/120 192.0.2.0/24
usage eamt-remove-force "unknown option '--force'" eamt remove 192.0.2.0/24 --force
usage eamt-remove-nothing "'eamt remove' needs PREFIX6 or PREFIX4" eamt remove
usage eamt-remove-two-v4 "not two IPv4 ones" eamt remove 192.0.2.0/24 192.0.2.0/24
usage eamt-list-extra "unexpected argument 'x'" eamt list x
usage eamt-flush-extra "unexpected argument 'x'" eamt flush x
usage eamt-i-twice 'more than once' -i a eamt list -i b
usage denylist4-no-sub "'denylist4' needs a command" denylist4
usage denylist4-unknown-sub "unknown command 'denylist4 frob'" denylist4 frob
usage denylist4-add-nothing "'denylist4 add' needs PREFIX4" denylist4 add
usage denylist4-add-v6 "invalid prefix '2001:db8::/96' \(expected an IPv4 prefix" denylist4 add 2001:db8::/96
usage denylist4-add-garbage "invalid prefix 'x' \(expected an IPv4 prefix" denylist4 add x
usage denylist4-add-two "unexpected argument '10.0.0.0/8'" denylist4 add 192.0.2.0/24 10.0.0.0/8
usage denylist4-remove-nothing "'denylist4 remove' needs PREFIX4" denylist4 remove
usage denylist4-list-extra "unexpected argument 'x'" denylist4 list x
usage denylist4-flush-extra "unexpected argument 'x'" denylist4 flush x
usage address-no-sub "'address' needs a command: query" address
usage address-unknown-sub "unknown command 'address frob'" address frob
usage address-query-nothing "'address query' needs an ADDR" address query
usage address-query-prefix "invalid address '192.0.2.0/24'" address query 192.0.2.0/24
usage address-query-garbage "invalid address 'nope'" address query nope
usage address-query-two "unexpected argument '192.0.2.2'" address query 192.0.2.1 192.0.2.2
parses eamt-add eamt add 2001:db8::/120 192.0.2.0/24
parses eamt-add-v4-first eamt add 192.0.2.0/24 2001:db8::/120
parses eamt-add-bare -i t eamt add 2001:db8::1 192.0.2.1
parses eamt-add-len-not-checked eamt add 2001:db8::/64 192.0.2.0/24
parses eamt-remove-v6 eamt remove 2001:db8::/120
parses eamt-remove-v4 eamt remove 192.0.2.0/24 -i t
parses eamt-remove-both eamt remove 2001:db8::/120 192.0.2.0/24
parses eamt-list eamt list
parses eamt-list-json eamt list --json
parses eamt-flush eamt flush
parses denylist4-add denylist4 add 192.0.2.0/24
parses denylist4-add-bare denylist4 add 192.0.2.1
parses denylist4-remove denylist4 remove 192.0.2.0/24
parses denylist4-list-json denylist4 list -j
parses denylist4-flush --instance t denylist4 flush
parses address-query-v4 address query 192.0.2.1
parses address-query-v6 address query 2001:db8::1 --json

# --- bib, session (NAT64)
help help-bib bib --help
help help-bib-word bib help
help help-bib-add bib add --help
help help-bib-remove bib remove -h
help help-bib-list bib list --help
help help-session session --help
help help-session-list session list --help
help help-session-flush session flush --help
usage bib-no-sub "'bib' needs a command: add, remove or list" bib
usage bib-unknown-sub "unknown command 'bib frob'" bib frob
usage bib-flush-unknown "unknown command 'bib flush'" bib flush
usage bib-add-nothing "'bib add' needs ADDR6#PORT and ADDR4#PORT" bib add --tcp
usage bib-add-one "'bib add' needs ADDR6#PORT and ADDR4#PORT" bib add 2001:db8::2#80 --tcp
usage bib-add-no-proto "'bib add' needs --tcp, --udp or --icmp" bib add 2001:db8::2#80 192.0.2.1#80
usage bib-add-two-protos "--tcp, --udp and --icmp are mutually exclusive" bib add 2001:db8::2#80 192.0.2.1#80 --tcp --icmp
usage bib-add-two-v6 "needs one IPv6 and one IPv4 transport address, not two IPv6 ones" bib add 2001:db8::2#80 2001:db8::3#80 --tcp
usage bib-add-two-v4 "not two IPv4 ones" bib add 192.0.2.2#80 192.0.2.1#80 --udp
usage bib-add-three "unexpected argument '192.0.2.2#80'" bib add 2001:db8::2#80 192.0.2.1#80 192.0.2.2#80 --tcp
usage bib-add-unknown-option "unknown option '--sctp'" bib add 2001:db8::2#80 192.0.2.1#80 --sctp
usage bib-add-json "unknown option '--json'" bib add 2001:db8::2#80 192.0.2.1#80 --tcp --json
for t in 2001:db8::2 192.0.2.1 2001:db8::2#65536 192.0.2.1#-1 192.0.2.1# \
	 192.0.2.1#80x 192.0.2.1#0x50 "192.0.2.1# 80" 192.0.2.0/24#80 \
	 2001:db8::2:80 "[2001:db8::2]#80" "[2001:db8::2]" "[192.0.2.1]:80" \
	 192.0.2.1:80:1 nope#80 ""; do
	usage "taddr-rejects-'$t'" "invalid transport address '.*' \(expected ADDR6#PORT, \[ADDR6\]:PORT, ADDR4#PORT or ADDR4:PORT\)" \
		bib add "$t" 198.51.100.1#80 --tcp
done
usage bib-remove-nothing "'bib remove' needs ADDR6#PORT or ADDR4#PORT" bib remove --udp
usage bib-remove-no-proto "'bib remove' needs --tcp, --udp or --icmp" bib remove 192.0.2.1#80
usage bib-remove-two-v4 "not two IPv4 ones" bib remove 192.0.2.1#80 192.0.2.1#81 --tcp
usage bib-list-extra "unexpected argument 'x'" bib list x
usage bib-list-two-protos "mutually exclusive" bib list --udp --tcp
usage bib-list-unknown-option "unknown option '--frob'" bib list --frob
usage bib-i-twice 'more than once' -i a bib list -i b
usage session-no-sub "'session' needs a command: list or flush" session
usage session-unknown-sub "unknown command 'session frob'" session frob
usage session-list-extra "unexpected argument 'x'" session list x
usage session-list-two-protos "mutually exclusive" session list --icmp --udp
usage session-flush-extra "unexpected argument 'x'" session flush x
usage session-flush-json "unknown option '--json'" session flush --json
usage session-flush-two-protos "mutually exclusive" session flush --tcp --udp
for t in 2001:db8::2#80 "[2001:db8::2]:80" 2001:db8::2#0 2001:db8::2#65535 \
	 ::ffff:192.0.2.1#80 "[::]:1"; do
	parses "taddr6-accepts-$t" bib add "$t" 192.0.2.1#80 --tcp
done
for t in 192.0.2.1#80 192.0.2.1:80 0.0.0.0#0 192.0.2.1#00080; do
	parses "taddr4-accepts-$t" bib add 2001:db8::2#80 "$t" --udp
done
parses bib-add-v4-first bib add 192.0.2.1#80 2001:db8::2#80 --icmp
parses bib-add-proto-first -i t bib add --tcp 2001:db8::2#80 192.0.2.1#80
parses bib-add-proto-twice bib add 2001:db8::2#80 192.0.2.1#80 --tcp --tcp
parses bib-remove-v6 bib remove 2001:db8::2#80 --tcp
parses bib-remove-v4 bib remove 192.0.2.1:80 --udp -i t
parses bib-remove-both bib remove 2001:db8::2#80 192.0.2.1#80 --icmp
parses bib-list bib list
parses bib-list-tcp-json bib list --tcp --json
parses bib-list-icmp bib list --icmp -j --instance t
parses session-list session list
parses session-list-udp-json session list --udp --json
parses session-flush session flush
parses session-flush-icmp -i t session flush --icmp
# --- monitor (NAT64 events)
help help-monitor monitor --help
help help-monitor-short monitor -h
help help-monitor-word monitor help
help help-monitor-wins monitor --bogus --help
run monitor --help
for w in log-bib log-sessions bib-add bib-del session-add session-del \
	 events-dropped SIGINT time-ns remote-port4 lost; do
	if grep -q -- "$w" "$tmp/out"; then
		ok "help-monitor-mentions-$w"
	else
		fail "help-monitor-mentions-$w" "missing"
	fi
done
usage monitor-extra "unexpected argument 'x' for 'monitor'" monitor x
usage monitor-unknown-option "unknown option '--tcp' for 'monitor'" monitor --tcp
usage monitor-i-twice 'more than once' -i a monitor -i b
usage monitor-i-missing "option '(-i|--instance)' needs a value" monitor -i
parses monitor monitor
parses monitor-json monitor --json
parses monitor-json-short -i t monitor -j
parses monitor-i-after monitor --json --instance t
run global set --help
for key in log-bib log-sessions; do
	if grep -q "^  $key " "$tmp/out"; then
		ok "global-set-help-mentions-$key"
	else
		fail "global-set-help-mentions-$key" "missing"
	fi
done
# --- pool4
help help-pool4 pool4 --help
help help-pool4-word pool4 help
help help-pool4-add pool4 add --help
help help-pool4-add-wins pool4 add x --bogus -h
help help-pool4-remove pool4 remove --help
help help-pool4-list pool4 list --help
help help-pool4-flush pool4 flush -h
usage pool4-no-sub "'pool4' needs a command: add, remove, list or flush" pool4
usage pool4-unknown-sub "unknown command 'pool4 frob'" pool4 frob
usage pool4-add-nothing "'pool4 add' needs PREFIX4" pool4 add
usage pool4-add-only-opts "'pool4 add' needs PREFIX4" pool4 add --tcp --mark 1
usage pool4-add-v6 "invalid prefix '2001:db8::/96' \(expected an IPv4 prefix" pool4 add 2001:db8::/96
usage pool4-add-garbage "invalid prefix 'x' \(expected an IPv4 prefix" pool4 add x
usage pool4-add-bad-len "invalid prefix '192.0.2.0/33'" pool4 add 192.0.2.0/33
usage pool4-add-ports-garbage "invalid ports 'x' \(expected MIN-MAX or PORT" pool4 add 192.0.2.0/24 x
usage pool4-add-ports-big "invalid ports '1-65536'" pool4 add 192.0.2.0/24 1-65536
usage pool4-add-ports-three "invalid ports '1-2-3'" pool4 add 192.0.2.0/24 1-2-3
usage pool4-add-ports-open "invalid ports '1024-'" pool4 add 192.0.2.0/24 1024-
usage pool4-add-ports-hex "invalid ports '0x10'" pool4 add 192.0.2.0/24 0x10
usage pool4-add-ports-negative "invalid ports '-1-5'" pool4 add 192.0.2.0/24 -1-5
usage pool4-add-three "unexpected argument '5'" pool4 add 192.0.2.0/24 1-4 5
usage pool4-add-mark-missing "option '--mark' needs a value" pool4 add 192.0.2.0/24 --mark
usage pool4-add-mark-garbage "invalid mark 'x'" pool4 add 192.0.2.0/24 --mark x
usage pool4-add-mark-big "invalid mark '4294967296'" pool4 add 192.0.2.0/24 --mark 4294967296
usage pool4-add-mark-negative "invalid mark '-1'" pool4 add 192.0.2.0/24 --mark=-1
usage pool4-add-unknown-option "unknown option '--sctp' for 'pool4 add'" pool4 add 192.0.2.0/24 --sctp
usage pool4-add-json "unknown option '--json'" pool4 add 192.0.2.0/24 --json
usage pool4-remove-nothing "'pool4 remove' needs PREFIX4" pool4 remove
usage pool4-remove-v6 "invalid prefix '2001:db8::1'" pool4 remove 2001:db8::1
usage pool4-remove-bad-ports "invalid ports '5-x'" pool4 remove 192.0.2.0/24 5-x --udp
usage pool4-list-extra "unexpected argument 'x'" pool4 list x
usage pool4-list-option "unknown option '--tcp'" pool4 list --tcp
usage pool4-flush-extra "unexpected argument 'x'" pool4 flush x
usage pool4-i-twice 'more than once' -i a pool4 flush --instance b
parses pool4-add pool4 add 192.0.2.0/24
parses pool4-add-bare pool4 add 192.0.2.1
parses pool4-add-range pool4 add 192.0.2.0/24 1024-2047 --tcp
parses pool4-add-one-port pool4 add 192.0.2.1 80 --udp --tcp
parses pool4-add-icmp pool4 add 192.0.2.1 0-65535 --icmp
parses pool4-add-mark -i t pool4 add --mark 0x10 192.0.2.1 --icmp
parses pool4-add-mark-eq pool4 add 192.0.2.1 --mark=4294967295
parses pool4-add-len-not-checked pool4 add 10.0.0.0/8 0-0
parses pool4-add-reversed-not-checked pool4 add 192.0.2.1 9-5 --tcp
parses pool4-add-dashdash pool4 add --tcp -- 192.0.2.1 7
parses pool4-remove pool4 remove 192.0.2.0/24
parses pool4-remove-ports pool4 remove 192.0.2.0/24 1024-2047 --tcp --mark 3
parses pool4-list pool4 list
parses pool4-list-json pool4 list --json -i t
parses pool4-flush pool4 flush

# --- -j/--json before or after the command, combined short options
parses j-before-command -j session list
parses json-before-command --json bib list --udp
parses j-after-command session list --json
parses j-both -j stats --json
parses j-before-instance-list -j instance list
parses j-before-ignored -j eamt flush
parses jv-combined stats -jv
parses av-combined stats -av
parses ja-combined stats -ja
parses jav-combined stats -jav
usage ja-not-for-eamt "unknown option '-a' for 'eamt list'" eamt list -ja
# The value of an option is never split, -a in it or not.
says config-value-not-split 1 "-av: No such file or directory" det lookup --config -av 192.0.2.4#1
parses vj-combined stats -vj
parses jit-combined -jit stats
parses ji-separate -ji t stats
parses jit-after global show -jit
parses i-value-not-split -i -jv stats
usage jx-unknown "unknown option '-jx'" -jx stats
usage jv-before "unknown option '-v'" -jv stats
usage jv-not-for-eamt "unknown option '-v' for 'eamt list'" eamt list -jv
run -jh
if [ "$rc" = 0 ] && grep -q '^Usage: tern' "$tmp/out"; then
	ok help-combined-jh
else
	fail help-combined-jh "exit $rc"
fi

# --- every usage line of 'tern --help' and of each command's help is
# accepted: with all its optional parts (the first of each choice) and
# without them
usage_parses() {	# NAME USAGE
	local form l
	# stats --explain prints the counters' meanings, module or not.
	if [[ $2 == *--explain* ]]; then
		# shellcheck disable=SC2086
		run $2
		if [ "$rc" = 0 ] && [ -z "$err" ] && grep -q '^  xlat-6to4 ' "$tmp/out"; then
			ok "$1-explain"
		else
			fail "$1-explain" "exit $rc, stderr: $err"
		fi
		return
	fi
	for form in all bare; do
		l=$2
		[ $form = bare ] && l=$(sed -E 's/ \[[^]]*\]//g' <<<"$l")
		# det lookup --config reads a file, not the module: its own
		# checks are below.
		l=${l/ \[--config FILE\]/}
		l=$(sed -E 's/[][()]//g; s/([^ |]+)(\|[^ |]+)+/\1/g' <<<"$l")
		l=$(sed -E 's/ADDR6#PORT/2001:db8::2#80/g; s/ADDR4#PORT/192.0.2.1#80/g;
			s/ADDR4:PORT/192.0.2.1:80/g; s/\bADDR6\b/2001:db8::2/g;
			s/\bADDR4\b/192.0.2.1/g;
			s/PREFIX6/2001:db8::\/120/g; s/PREFIX4/192.0.2.0\/24/g;
			s/PREFIX/64:ff9b::\/96/g; s/\bADDR\b/192.0.2.1/g;
			s/KEY VALUE/tos 1/; s/\bNAME\b/t/g; s/\bPORTS\b/1024-2047/g;
			s/\bN\b/1/g; s|FILE\.\.\.|'"$tmp/empty.json"'|g' <<<"$l")
		# shellcheck disable=SC2086
		parses "$1-$form-${l// /_}" $l
	done
}
# FILE... of config apply: a configuration without instances.
echo '{"instances": []}' >"$tmp/empty.json"
run --help
sed -n '/^Commands:/,/^$/{/^  /s/^  //p}' "$tmp/out" >"$tmp/usages"
[ -s "$tmp/usages" ] || fail help-usages "no usage line in tern --help"
while read -r line; do
	usage_parses help-usage "$line"
done <"$tmp/usages"
for c in "instance add" "instance list" "instance remove" "global show" \
	 "global set" stats "eamt add" "eamt remove" "eamt list" "eamt flush" \
	 "denylist4 add" "denylist4 remove" "denylist4 list" "denylist4 flush" \
	 "address query" "bib add" "bib remove" "bib list" "session list" \
	 "session flush" "pool4 add" "pool4 remove" "pool4 list" \
	 "pool4 flush" monitor "config apply" "config show" "det lookup"; do
	# shellcheck disable=SC2086
	run $c --help
	# "Usage: tern ..." and its continuation lines, up to the blank line
	line=$(awk 'NR == 1 { sub(/^Usage: tern /, ""); u = $0; next }
		    /^$/ { exit } { sub(/^ +/, ""); u = u " " $0 }
		    END { print u }' "$tmp/out")
	usage_parses "cmd-usage" "$line"
done

# --- configuration files (tern det lookup --config reads them as config
# apply does, without the module) and tern config show (against a
# stand-in for the module): cli-offline-config.sh
# shellcheck source=usr/tests/cli-offline-config.sh
. "$here/cli-offline-config.sh"

# --- --version without the module
run --version
if [ -n "$module_loaded" ]; then
	skip version-not-loaded "tern.ko is loaded"
elif [ "$rc" = 0 ] && [ -z "$err" ] &&
     [ "$out" = "tern $(cat "$here/../../VERSION") (CLI, netlink API $(sed -n 's/^#define TERN_GENL_API_VERSION\t*\([0-9]*\)$/\1/p' "$here/../../include/tern_genl.h"))
module: not loaded" ]; then
	ok version-not-loaded
else
	fail version-not-loaded "exit $rc, stdout: $out, stderr: $err"
fi

# --- one line even if the input has a newline
usage newline-masked "unknown command 'a\?b'" "$(printf 'a\nb')"

# --- bash completion (completion/tern), from the CLI's own help
# shellcheck source=usr/completion/tern
. "$here/../completion/tern"
comp() {	# NAME WANT WORDS...: completing the last of WORDS offers WANT
	local name=$1 want=$2 got
	shift 2
	COMP_WORDS=("$TERN" "$@")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	_tern
	got=
	[ ${#COMPREPLY[@]} = 0 ] || got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
	if [ "$got" = "$want" ]; then ok "$name"; else fail "$name" "offered '$got', want '$want'"; fi
}
comp complete-commands "address bib config denylist4 det eamt global instance monitor pool4 session stats " ""
comp complete-det-lookup-options "--config --help --icmp --json --tcp --udp " det lookup --
echo '{}' >"$tmp/comp-det.json"
comp complete-det-config-file "$tmp/comp-det.json " det lookup --config "$tmp/comp-d"
comp complete-command-prefix "instance " ins
comp complete-options-first "--help --instance --json --version " --
comp complete-verbs "add flush list remove " pool4 ""
comp complete-verbs-after-i "add list remove " -i t instance ""
comp complete-pool4-add-options "--help --icmp --mark --tcp --udp " pool4 add 192.0.2.0/24 --
comp complete-stats-options "--all --explain --help --json --verbose " -j stats --
comp complete-bib-options "--help --icmp --ipv4 --ipv6 --json --subscriber --tcp --udp " bib list --
comp complete-session-options "--help --icmp --ipv4 --ipv6 --json --subscriber --tcp --udp " session list --
comp complete-bib-add-options "--help --icmp --tcp --udp " bib add --
comp complete-global-key "strict-wkp " global set stri
comp complete-global-keys-all "$("$TERN" global set --help | sed -n '/^Keys:/,/^$/{s/^  \([a-z0-9-]*\) .*/\1/p}' | sort | tr '\n' ' ')" global set ""
comp complete-global-bool "false true " global set enabled ""
comp complete-global-u32-none "" global set max-sessions ""
echo '{"instances": []}' >"$tmp/comp-file.json"
comp complete-config-file "$tmp/comp-file.json " config apply "$tmp/comp-f"

# --- the manual pages: tern(8) made from the CLI's help has every usage
# line and every setting; both pages render without a groff warning
if sh "$here/../man/tern.8.sh" "$TERN" >"$tmp/tern.8" 2>"$tmp/man.err"; then
	ok man-generated
else
	fail man-generated "$(cat "$tmp/man.err")"
fi
missing=$(while read -r u; do grep -qxF "tern [-i NAME] [-j] $u" "$tmp/tern.8" || echo "$u"; done <"$tmp/usages")
if [ -z "$missing" ]; then ok man-every-usage-line; else fail man-every-usage-line "missing: $missing"; fi
missing=$("$TERN" global set --help | sed -n '/^Keys:/,/^$/{s/^  \([a-z0-9-]*\) .*/\1/p}' |
	while read -r k; do grep -q "^  $k " "$tmp/tern.8" || echo "$k"; done)
if [ -z "$missing" ]; then ok man-every-setting; else fail man-every-setting "missing: $missing"; fi
for page in "$tmp/tern.8" "$here/../man/tern-iptables.8"; do
	if command -v groff >/dev/null; then
		w=$(groff -man -Tutf8 -ww "$page" 2>&1 >/dev/null)
		if [ -z "$w" ]; then ok "man-renders-${page##*/}"; else fail "man-renders-${page##*/}" "$w"; fi
	else
		skip "man-renders-${page##*/}" "no groff"
	fi
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ] && [ "$skipped" = 0 ]
