#!/usr/bin/env bash
# Runs in a VM booted with ipv6.disable=1 (test/check.sh, through
# test/in-vm.sh, which loaded tern.ko and unloads it afterwards): the
# kernel has no IPv6 routing then, so tern refuses every instance, with
# one line and exit status 1, from `instance add` and from `config apply`
# (which changes nothing). Prints "ok NAME" or "FAIL NAME" per check.
set -uo pipefail
T=${TERN:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
want="IPv6 is disabled on this host (ipv6.disable=1)"
failed=0

# check NAME EXPECTED-STDERR CMD...: exit status 1 and that stderr, exactly.
check() {
	local name=$1 exp=$2 err rc
	shift 2
	err=$("$@" 2>&1 >/dev/null)
	rc=$?
	if [ "$rc" = 1 ] && [ "$err" = "$exp" ]; then
		echo "ok $name"
	else
		echo "FAIL $name"
		echo "  exit $rc, stderr: $err" >&2
		echo "  wanted exit 1, stderr: $exp" >&2
		failed=1
	fi
}

if [ -e /proc/sys/net/ipv6 ]; then
	echo "FAIL ipv6-off: the guest has IPv6 (booted without ipv6.disable=1?)"
	exit 1
fi
check "ipv6-off: instance add refused (SIIT)" "tern: $want" \
	"$T" instance add s --siit --pool6 64:ff9b::/96
check "ipv6-off: instance add refused (NAT64, iptables)" "tern: $want" \
	"$T" instance add n --nat64 --pool6 64:ff9b::/96 --iptables
printf '{"instances": [{"name": "s", "type": "siit"}]}\n' >"$tmp/c.json"
check "ipv6-off: config apply refused" \
	"tern: $tmp/c.json:1: instance \"s\": $want" \
	"$T" config apply "$tmp/c.json"
n=$("$T" instance list --json)
if [ "$n" = "[]" ]; then
	echo "ok ipv6-off: no instance made"
else
	echo "FAIL ipv6-off: no instance made"
	echo "  instance list --json: $n" >&2
	failed=1
fi
exit "$failed"
