#!/usr/bin/env python3
"""Adds up host checks (host.tsv), JUnit files (*.xml) and KUnit KTAP
files (*.ktap) of a results directory; prints the failures and a final
'N passed, N failed' line. Exits 1 if anything failed or nothing ran."""
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

KTAP_RESULT = re.compile(r"^(\s*)(ok|not ok) \d+ (?:- )?(.*?)(?:\s+#\s*(\w+).*)?$")


def ktap_cases(path):
    """Yields (suite, case, outcome) for each test case of a KTAP file:
    the result lines one level inside a suite."""
    suite_stack = []
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        m = re.match(r"^(\s*)# Subtest: (.*)$", line)
        if m:
            suite_stack.append((len(m.group(1)), m.group(2)))
            continue
        m = KTAP_RESULT.match(line)
        if not m:
            continue
        indent = len(m.group(1))
        # Cases sit at the indentation of their "# Subtest:" line; the
        # suite's own result, one level out, closes it.
        if suite_stack and indent < suite_stack[-1][0]:
            suite_stack.pop()
            continue
        if suite_stack and indent == suite_stack[-1][0]:
            directive = (m.group(4) or "").upper()
            outcome = "skip" if directive == "SKIP" else \
                ("pass" if m.group(2) == "ok" else "fail")
            yield suite_stack[-1][1], m.group(3), outcome


def why(case):
    """The reason pytest gave for a failed case, on one line: its message
    and the last line of the test files its traceback went through (CI
    keeps only this summary)."""
    el = case.find("failure")
    if el is None:
        el = case.find("error")
    msg = " ".join((el.get("message") or "").split())[:400]
    where = re.findall(r"^(\S*test_\w+\.py:\d+):", el.text or "", re.M)
    return "%s%s" % (msg, " (at %s)" % where[-1] if where else "")


def main(resdir):
    passed, failed, skipped, failures = 0, 0, 0, []
    host = os.path.join(resdir, "host.tsv")
    if os.path.exists(host):
        for line in open(host):
            word, _, name = line.rstrip("\n").partition(" ")
            if word == "PASS":
                passed += 1
            elif word == "FAIL":
                failed += 1
                failures.append("host: " + name)
    for path in sorted(glob.glob(os.path.join(resdir, "*.xml"))):
        suite_name = os.path.basename(path)[:-4]
        for case in ET.parse(path).getroot().iter("testcase"):
            name = "%s: %s::%s" % (suite_name, case.get("classname"), case.get("name"))
            if case.find("failure") is not None or case.find("error") is not None:
                failed += 1
                failures.append(name + "\n    " + why(case))
            elif case.find("skipped") is not None:
                skipped += 1
                failures.append("skipped (counted as failed): " + name)
                failed += 1
            else:
                passed += 1
    for path in sorted(glob.glob(os.path.join(resdir, "*.ktap"))):
        label = os.path.basename(path)[:-5]
        for suite, case, outcome in ktap_cases(path):
            name = "%s: %s.%s" % (label, suite, case)
            if outcome == "pass":
                passed += 1
            else:
                failed += 1
                failures.append(("skipped (counted as failed): " if outcome == "skip" else "") + name)
    for f in failures:
        print("FAILED", f)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
