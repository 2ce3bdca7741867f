#!/usr/bin/env bash
# pktgen-build.sh KREL: builds (once) the pktgen module `make bench` loads
# in its VM: Debian's own net/core/pktgen.c (package linux-source-6.1, the
# same Debian version as the 6.1 kernels), without the cpu_relax() its
# thread runs after every packet. Prints the module's path.
#
# Why: under software emulation a PAUSE instruction (cpu_relax) makes QEMU
# leave its translated-code loop for its main loop. Profiled in the bench
# VM, that one instruction took about half of the generator's CPU, which
# kept pktgen about as fast as plain forwarding (so that forwarding's
# windows measured the generator). Without it pktgen sends the same
# packets, only faster; everything else it does is unchanged. The build is
# cached in .build/KREL/pktgen, keyed by this script and the source's
# version.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
krel=${1:?usage: pktgen-build.sh KREL}
src=/usr/src/linux-source-6.1.tar.xz
[ -f "$src" ] || { echo "pktgen-build: $src missing (apt-get install linux-source-6.1)" >&2; exit 1; }
[ -d "/lib/modules/$krel/build" ] || { echo "pktgen-build: no headers for $krel" >&2; exit 1; }
key=$( (cat "$0"; dpkg-query -W -f='${Version}' linux-source-6.1; echo "$krel") | sha1sum | cut -c1-12)
out=$top/.build/$krel/pktgen
if [ -f "$out/pktgen.ko" ] && [ "$(cat "$out/key" 2>/dev/null)" = "$key" ]; then
	echo "$out/pktgen.ko"
	exit 0
fi
rm -rf "$out"
mkdir -p "$out"
tar -xJf "$src" -C "$out" --strip-components=3 --wildcards '*/net/core/pktgen.c'
# The thread's loop: "pktgen_xmit(); if (need_resched()) pktgen_resched();
# else cpu_relax();": the else branch goes, exactly once.
perl -0pi -e '$n = s/(\t\t\tpktgen_xmit\(pkt_dev\);\n\n\t\t\tif \(need_resched\(\)\)\n\t\t\t\tpktgen_resched\(pkt_dev\);\n)\t\t\telse\n\t\t\t\tcpu_relax\(\);\n/$1/g;
	END { exit($n == 1 ? 0 : 1) }' "$out/pktgen.c" ||
	{ echo "pktgen-build: the thread loop of pktgen.c is not the one expected" >&2; exit 1; }
echo 'obj-m := pktgen.o' >"$out/Makefile"
make -s -C "/lib/modules/$krel/build" M="$out" modules >"$out/build.log" 2>&1 ||
	{ cat "$out/build.log" >&2; exit 1; }
echo "$key" >"$out/key"
echo "$out/pktgen.ko"
