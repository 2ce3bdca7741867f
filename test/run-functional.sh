#!/usr/bin/env bash
# Runs the functional suite (inside the VM, module loaded by in-vm.sh).
# Arguments go to pytest; test files given first replace the whole suite.
top=$(cd "$(dirname "$0")/.." && pwd)
krel=$(uname -r)
cd "$top" || exit 1
export PYTHONDONTWRITEBYTECODE=1
targets=(test/functional)
[[ ${1:-} == test/functional/* ]] && targets=()
exec /usr/bin/python3 -m pytest "${targets[@]}" -p no:cacheprovider -q -rfE \
	--junitxml="$top/.build/results/functional-${VM_TAG:-$krel}.xml" \
	-o junit_suite_name="functional-${VM_TAG:-$krel}" "$@"
