#!/usr/bin/env bash
# make demo: builds Tern, boots a VM on a Debian kernel and shows an
# IPv6-only client reaching an IPv4-only web server through Tern (SIIT).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
echo "== installing dependencies (test/deps.sh)"
bash test/deps.sh >/dev/null
read -r -a kernels <<<"$(bash test/kernels.sh)"
k=${DEMO_KERNEL:-${kernels[1]}}
echo "== building tern.ko for $k and the tern CLI"
bash test/build-mod.sh "$k" >/dev/null
(cd usr && { [ -f configure ] || autoreconf -fi >/dev/null 2>&1; } &&
	{ [ -f Makefile ] || ./configure -q; } && make -s) >/dev/null
echo "== booting $k in a VM (software emulation: about a minute)"
bash test/vm.sh "$k" test/demo-in-vm.sh
