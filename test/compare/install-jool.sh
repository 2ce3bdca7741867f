#!/usr/bin/env bash
# Installs Debian's Jool 4.1.9 (jool-dkms, jool-tools) for the comparison
# in test/compare/, idempotently, and leaves apt/dpkg clean.
#
# Jool 4.1.9 builds only for Debian's 6.1 kernel (on 6.12 its genl ops do
# not match the kernel's genl_split_ops), and jool-dkms' postinst builds
# for the newest installed kernel, so a plain `apt-get install jool-dkms`
# fails when the 6.12 headers are there and leaves dpkg half-configured.
# So the package is unpacked, its dkms.conf restricted to 6.1
# (BUILD_EXCLUSIVE_KERNEL, which makes DKMS skip other kernels cleanly),
# then configured; the module is built for 6.1 explicitly. Nothing of Jool
# is copied into this tree.
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "install-jool.sh: run as root" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive
APT="apt-get -y -q -o DPkg::Lock::Timeout=900"
ver=4.1.9
conf=/usr/src/jool-dkms-$ver/dkms.conf
k61=$(bash "$(dirname "$0")/../kernels.sh" | cut -d' ' -f1)

restrict() {
	[ -f "$conf" ] || return 0
	grep -q '^BUILD_EXCLUSIVE_KERNEL=' "$conf" ||
		echo 'BUILD_EXCLUSIVE_KERNEL="^6\.1\."' >>"$conf"
}

installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }

# A previous plain install may have left jool-dkms half-configured.
if dpkg-query -W -f='${Status}' jool-dkms 2>/dev/null | grep -qv 'not-installed' &&
   ! installed jool-dkms; then
	restrict
	dpkg --configure -a
fi

if ! installed jool-tools; then
	$APT install --no-install-recommends jool-tools libxtables12 >/dev/null
fi
if ! installed jool-dkms; then
	tmp=$(mktemp -d); chmod 755 "$tmp"
	(cd "$tmp" && $APT download jool-dkms=$ver-1 >/dev/null 2>&1 ||
		apt-get download jool-dkms=$ver-1)
	dpkg --unpack "$tmp"/jool-dkms_*.deb >/dev/null
	restrict
	dpkg --configure jool-dkms
	rm -rf "$tmp"
fi
restrict

mod=$(ls /lib/modules/"$k61"/updates/dkms/jool_siit.ko* 2>/dev/null | head -n 1 || true)
if [ -z "$mod" ]; then
	dkms install -m jool-dkms -v $ver -k "$k61" >/dev/null
	mod=$(ls /lib/modules/"$k61"/updates/dkms/jool_siit.ko* | head -n 1)
fi
if [ -n "$(dpkg --audit)" ]; then
	echo "install-jool.sh: dpkg --audit is not empty:" >&2; dpkg --audit >&2; exit 1
fi
echo "jool: $(jool_siit --version 2>/dev/null | head -n 1), module $mod"
