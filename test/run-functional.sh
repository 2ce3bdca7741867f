#!/usr/bin/env bash
# Runs the functional suite (inside the VM, module loaded by in-vm.sh).
top=$(cd "$(dirname "$0")/.." && pwd)
krel=$(uname -r)
cd "$top" || exit 1
export PYTHONDONTWRITEBYTECODE=1
exec /usr/bin/python3 -m pytest test/functional -p no:cacheprovider -q -rfE \
	--junitxml="$top/.build/results/functional-$krel.xml" \
	-o junit_suite_name="functional-$krel" "$@"
