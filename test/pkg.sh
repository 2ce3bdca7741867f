#!/usr/bin/env bash
# Packaging checks on the host: versions agree, the minimum kernel,
# `make dist` and `make distcheck` (for KREL), rpmbuild of rpm/tern.spec
# from the tarball, rpmlint, the packages' file lists. Prints "ok NAME" /
# "FAIL NAME" per check; exit status 1 if any failed.
# Usage: test/pkg.sh KREL
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
krel=$1
kdir=/lib/modules/$krel/build
ver=$(cat VERSION)
tarball=tern-$ver.tar.gz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/test/check-lib.sh"
# has LIST WORDS...: every word is a line of file LIST
has() {
	local list=$1 w
	shift
	for w; do grep -qxF -- "$w" "$list" || { echo "missing: $w" >&2; return 1; }; done
}
# lacks LIST REGEX: no line of LIST matches
lacks() { ! grep -E -- "$2" "$1" >&2; }

spec_ver=$(sed -n 's/^Version: *//p' rpm/tern.spec)
check "rpm/tern.spec's Version ($spec_ver) is VERSION's ($ver)" [ "$spec_ver" = "$ver" ]

# dkms.conf's kernels and mod/Kbuild's message for the older ones.
check "dkms.conf's BUILD_EXCLUSIVE_KERNEL takes 6.1 and later, not older" bash -c '
	kernel_source_dir=/nonexistent; . ./dkms.conf
	for k in 6.1.0-56-amd64 6.1.192 6.12.117+deb12-amd64 6.19.0 7.0.0-rc1 10.2.1; do
		[[ $k =~ $BUILD_EXCLUSIVE_KERNEL ]] || { echo "refuses $k"; exit 1; }
	done
	for k in 6.0.12-amd64 5.10.0-30-amd64 4.19.0 3.16.0; do
		[[ $k =~ $BUILD_EXCLUSIVE_KERNEL ]] && { echo "takes $k"; exit 1; }
	done
	exit 0'
# The kernel's Makefile exports VERSION and PATCHLEVEL: as 5.15 there.
mkdir -p "$tmp/old"
cp -r mod include "$tmp/old/"
make -C "$kdir" M="$tmp/old/mod" VERSION=5 PATCHLEVEL=15 modules >"$tmp/old.log" 2>&1
check "building for Linux 5.15 stops with \"tern needs Linux >= 6.1\"" \
	grep -q 'tern needs Linux >= 6.1, this is 5.15' "$tmp/old.log"

rm -f "$tarball"
make -s dist >"$tmp/dist.log" 2>&1
check "make dist makes $tarball" [ -f "$tarball" ]
tar -tzf "$tarball" | sed "s|^tern-$ver/||" | grep -v '/$' | sort >"$tmp/dist.list"
check "$tarball holds the module, include/, usr/'s autotools sources, the spec, dkms.conf, VERSION, README.md" \
	has "$tmp/dist.list" Makefile Kbuild VERSION dkms.conf README.md rpm/tern.spec \
	mod/Kbuild mod/Makefile mod/main.c include/tern_genl.h \
	usr/configure.ac usr/Makefile.am usr/cli/Makefile.am usr/cli/main.c
check "$tarball holds no test/, docs/, generated autotools files or build products" \
	lacks "$tmp/dist.list" '^(test|docs|\.build)/|^usr/(configure|Makefile\.in|Makefile|config\.h|aclocal\.m4)$|\.(o|ko)$|^usr/cli/tern$'

make distcheck KDIR="$kdir" >"$tmp/distcheck.log" 2>&1
rc=$?
check "make distcheck: module (for $krel) and CLI build, install and uninstall (DESTDIR, PREFIX=/usr) from $tarball" [ $rc = 0 ]
[ $rc = 0 ] || tail -n 30 "$tmp/distcheck.log"

# rpmbuild: --nodeps as the BuildRequires are Debian's packages here.
mkdir -p "$tmp/rpm"
rpmbuild -ta --nodeps --define "_topdir $tmp/rpm" "$tarball" >"$tmp/rpmbuild.log" 2>&1
rc=$?
check "rpmbuild -ta $tarball builds tern, tern-dkms and the source package" [ $rc = 0 ]
[ $rc = 0 ] || tail -n 30 "$tmp/rpmbuild.log"
rpm_cli=$(ls "$tmp"/rpm/RPMS/*/tern-"$ver"-*.rpm 2>/dev/null | grep -v dkms)
rpm_dkms=$(ls "$tmp"/rpm/RPMS/noarch/tern-dkms-"$ver"-*.noarch.rpm 2>/dev/null)
srpm=$(ls "$tmp"/rpm/SRPMS/tern-"$ver"-*.src.rpm 2>/dev/null)
if [ -n "$rpm_cli" ] && [ -n "$rpm_dkms" ] && [ -n "$srpm" ]; then
	rpmlint -c rpm/rpmlint.toml "$rpm_cli" "$rpm_dkms" "$srpm" rpm/tern.spec >"$tmp/rpmlint.log" 2>&1
	sed 's/^/rpmlint: /' "$tmp/rpmlint.log" | grep -E ': [EW]: |checked'
	check "rpmlint: no errors" grep -q ' 0 errors' "$tmp/rpmlint.log"

	rpm -qlp "$rpm_cli" | sort >"$tmp/tern.list"
	check "package tern has /usr/bin/tern, README.md and COPYING, no /usr/src" bash -c \
		'grep -qx /usr/bin/tern "$1" && grep -q "/usr/share/doc/tern.*/README.md" "$1" &&
		grep -q "^/usr/share/licenses/tern-[0-9.]*/COPYING$" "$1" &&
		! grep -q ^/usr/src "$1"' _ "$tmp/tern.list"
	check "package tern has libxt_TERN.so (no .la), tern.service, tern-monitor.service, bash completion, tern(8), tern-iptables(8)" bash -c \
		'grep -q "/xtables/libxt_TERN\.so$" "$1" && ! grep -q "\.la$" "$1" &&
		grep -qx /usr/share/bash-completion/completions/tern "$1" &&
		grep -q "^/usr/share/man/man8/tern\.8" "$1" &&
		grep -q "^/usr/share/man/man8/tern-iptables\.8" "$1" &&
		grep -q "/systemd/system/tern\.service$" "$1" &&
		grep -q "/systemd/system/tern-monitor\.service$" "$1"' _ "$tmp/tern.list"
	# (rpmbuild itself fails if usr/'s `make install` installs a file that
	# no package holds.)
	rpm -qlp "$rpm_dkms" | sort >"$tmp/dkms-all.list"
	grep -v '^/usr/share/licenses/' "$tmp/dkms-all.list" >"$tmp/dkms.list"
	src=/usr/src/tern-$ver
	make -s dkms-src DESTDIR="$tmp/stage" >/dev/null
	(cd "$tmp/stage" && find ".$src" | sed 's|^\.||' | sort) >"$tmp/dkms-want.list"
	check "package tern-dkms holds exactly what make dkms-src installs in $src, and COPYING" \
		bash -c 'diff "$1" "$2" && grep -q "^/usr/share/licenses/tern-dkms-[0-9.]*/COPYING$" "$3"' \
		_ "$tmp/dkms-want.list" "$tmp/dkms.list" "$tmp/dkms-all.list"
	check "package tern-dkms has dkms.conf, Kbuild, mod/, include/, not mod/tests/" \
		has "$tmp/dkms.list" "$src/dkms.conf" "$src/Kbuild" "$src/VERSION" \
		"$src/mod/Kbuild" "$src/mod/main.c" "$src/include/tern_genl.h"
	check "package tern-dkms runs dkms add/build/install after install, dkms remove before removal" \
		bash -c 'rpm -qp --scripts "$1" >"$2" && grep -q "dkms add -m tern -v" "$2" &&
			grep -q "dkms install -m tern -v" "$2" && grep -q "dkms remove -m tern -v .* --all" "$2"' \
		_ "$rpm_dkms" "$tmp/scripts"
	check "package tern-dkms is noarch, requires dkms" bash -c \
		'[ "$(rpm -qp --qf "%{ARCH}" "$1")" = noarch ] && rpm -qp --requires "$1" | grep -qx dkms' \
		_ "$rpm_dkms"
else
	check "rpmbuild made tern, tern-dkms, tern.src.rpm" false
fi
rm -f "$tarball"
exit $failed
