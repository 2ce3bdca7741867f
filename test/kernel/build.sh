#!/usr/bin/env bash
# Builds (once) the debug/KUnit test kernel from Debian's linux-source-6.1:
# defconfig + kvm_guest.config + test/kernel/debug.config (KUnit, KASAN,
# lockdep, kmemleak, netfilter and namespaces built in). The tree is cached
# outside the repository, keyed by the config fragment, the recipe below and
# the source package version; it is rebuilt only when one of them changes.
# Prints the tree's path on stdout.
# debug.config builds PREEMPT_VOLUNTARY without PREEMPT_DYNAMIC, hence
# without Tasks RCU: 6.1's RCU-tasks boot self test (PROVE_RCU) can
# deadlock under emulation (docs/testing.md, "Guests that stop").
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=/usr/src/linux-source-6.1.tar.xz
[ -f "$src" ] || { echo "kernel/build.sh: $src missing (apt-get install linux-source-6.1)" >&2; exit 1; }
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
# The recipe: bump it when the way the tree is configured or built changes.
recipe="defconfig kvm_guest.config + debug.config; bzImage modules; v1"
key=$( (cat "$here/debug.config"; echo "$recipe $srcver") | sha1sum | cut -c1-12)
cache=${TERN_KERNEL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tern/kernel}
tree=$cache/linux-$key
if [ -f "$tree/.tern-built" ]; then
	echo "$tree"
	exit 0
fi
# A build cut short leaves a .tmp tree: start over.
rm -rf "$cache"/linux-*.tmp
mkdir -p "$tree.tmp"
echo "kernel/build.sh: unpacking $src" >&2
tar -xJf "$src" -C "$tree.tmp" --strip-components=1
cd "$tree.tmp"
make -s defconfig kvm_guest.config >&2
scripts/kconfig/merge_config.sh -m .config "$here/debug.config" >&2
make -s olddefconfig >&2
# Every requested option must have survived olddefconfig.
missing=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=n) opt=${line%%=*}; grep -q "^$opt=" .config && { echo "kernel/build.sh: $opt still set" >&2; missing=1; } ;;
	CONFIG_*) grep -qx "$line" .config || { echo "kernel/build.sh: $line not in .config" >&2; missing=1; } ;;
	esac
done <"$here/debug.config"
[ "$missing" = 0 ] || exit 1
echo "kernel/build.sh: building bzImage and modules (about 20 minutes on 2 cores)" >&2
make -s -j"$(nproc)" bzImage modules >&2
cd /
rm -rf "$tree"
mv "$tree.tmp" "$tree"
touch "$tree/.tern-built"
# Keep only the newest few trees.
ls -1dt "$cache"/linux-* 2>/dev/null | grep -v '\.tmp$' | tail -n +3 | xargs -r rm -rf
echo "$tree"
