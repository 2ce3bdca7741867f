#!/usr/bin/env bash
# Installs everything `make check` and `make demo` need on a Debian 12 machine (as root).
# Idempotent: does nothing that is already done.
set -euo pipefail

VENV=${TERN_VENV:-/opt/tern-venv}
stamp=/var/lib/tern-deps.stamp
here=$(cd "$(dirname "$0")" && pwd)

kver612() {
	apt-cache search --names-only '^linux-image-6\.12\.[0-9]+\+deb12-amd64$' |
		awk '{print $1}' | sed 's/^linux-image-//' | sort -V | tail -n 1
}

need_apt=0
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$(sha1sum "$here/deps.sh" | cut -c1-40)" ] || need_apt=1

if [ "$need_apt" = 1 ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	k612=$(kver612)
	[ -n "$k612" ] || { echo "deps: no linux-image-6.12.*+deb12-amd64 in the archive" >&2; exit 1; }
	apt-get install -y -q --no-install-recommends \
		build-essential bc flex bison libelf-dev libssl-dev kmod cpio rsync \
		autoconf automake libtool pkg-config libnl-3-dev libnl-genl-3-dev \
		libxtables-dev iptables nftables libjson-c-dev \
		dkms rpm rpmlint linux-image-amd64 linux-headers-amd64 \
		"linux-image-$k612" "linux-headers-$k612" \
		qemu-system-x86 python3 python3-venv python3-pip \
		python3-scapy python3-pytest python3-jsonschema groff-base \
		iproute2 iputils-ping tcpdump curl iperf3 keepalived procps jq udev valgrind \
		linux-source-6.1 xz-utils busybox-static
	sha1sum "$here/deps.sh" | cut -c1-40 >"$stamp"
fi

if [ ! -x "$VENV/bin/vng" ]; then
	/usr/bin/python3 -m venv "$VENV"
	"$VENV/bin/pip" install -q 'virtme-ng==1.*'
fi
echo "deps: ok"
