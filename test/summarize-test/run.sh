#!/usr/bin/env bash
# Self-test of test/summarize.py's KUnit accounting (make check runs it
# as a host check): each directory of samples/ holds a KTAP file as
# test/run-kunit.sh collects it (debugfs, 6.1) and `want`, summarize.py's
# exact output and exit status for it, against the suites and cases the
# fixed sources of src/ build. Among them: a suite whose suite_init
# failed (no case line, only its own "not ok"), a suite or a case that
# did not run, a run cut short. Then the suites of the real mod/ must all
# be found (one per tests/*_test.o of mod/Kbuild, each with its cases).
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
rc=0
for d in "$here"/samples/*/; do
	name=$(basename "$d")
	got=$(/usr/bin/python3 "$top/test/summarize.py" --src "$here/src" "$d"; echo "exit $?")
	if [ "$got" = "$(cat "$d/want")" ]; then
		echo "ok    $name"
	else
		echo "FAIL  $name"
		diff <(echo "$got") "$d/want" | sed 's/^/      | /'
		rc=1
	fi
done
objs=$(grep -o 'tests/[a-z0-9_]*_test\.o' "$top/mod/Kbuild" | sort -u | wc -l)
if list=$(/usr/bin/python3 "$top/test/summarize.py" --list-kunit) &&
	[ "$(echo "$list" | wc -l)" -ge "$objs" ] &&
	! echo "$list" | awk 'NF < 2 { bad = 1 } END { exit !bad }'; then
	echo "ok    mod/: $objs suites, $(echo "$list" | awk '{ n += NF - 1 } END { print n }') cases"
else
	echo "FAIL  mod/: the KUnit suites of the $objs tests/*_test.o are not all found"
	echo "$list" | sed 's/^/      | /'
	rc=1
fi
exit $rc
