#!/usr/bin/env bash
# Inside the VM (test/in-vm.sh has loaded tern.ko): load Debian's
# DKMS-built jool_siit, run the comparison, unload it.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
if ! modprobe jool_siit; then
	echo "compare-jool: cannot load jool_siit for $(uname -r) (test/compare/install-jool.sh builds it for Debian's 6.1)" >&2
	exit 1
fi
/usr/bin/python3 "$top/test/compare/compare.py"
rc=$?
modprobe -r jool_siit || true
exit $rc
