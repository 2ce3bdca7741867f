#!/usr/bin/env bash
# Inside the debug-kernel VM, after in-vm.sh loaded a tern.ko built with
# TERN_KUNIT=1 (its suites ran at load time): collects each suite's KTAP
# results from debugfs into .build/results/kunit-KREL.ktap. Fails unless
# every suite and case the sources build ran and passed (test/summarize.py
# checks them against mod/Kbuild and mod/tests/*_test.c).
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/.build/results/kunit-$(uname -r).ktap
: >"$out"
n=0
for d in /sys/kernel/debug/kunit/tern_*; do
	[ -f "$d/results" ] || continue
	cat "$d/results" >>"$out"
	n=$((n + 1))
done
cat "$out"
if [ "$n" = 0 ]; then
	echo "run-kunit: no tern KUnit suite ran (module built without TERN_KUNIT=1?)" >&2
	exit 1
fi
/usr/bin/python3 "$top/test/summarize.py" "$out" >&2
