#!/usr/bin/env python3
"""Adds up host checks (host.tsv), JUnit files (*.xml) and KUnit KTAP
files (*.ktap) of a results directory; prints the failures and a final
'N passed, N failed' line. Exits 1 if anything failed or nothing ran."""
import argparse
import glob
import os
import re
import sys
import xml.etree.ElementTree as ET

KTAP_RESULT = re.compile(r"^(\s*)(ok|not ok) \d+ (?:- )?(.*?)(?:\s+#\s*(\w+).*)?$")
KTAP_SUBTEST = re.compile(r"^(\s*)# Subtest: (.*)$")
TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ktap_results(path):
    """Yields (suite, case, outcome) for each result line of a KTAP file:
    a case's (case set) and a suite's own (case None, whether or not any
    case line came: a suite whose suite_init failed prints none). A
    parameterised case's parameter lines are summed up by its own line.
    A suite whose result line never came is yielded as "unfinished"."""
    stack = []          # the open subtests: (indentation, name)
    for line in open(path, errors="replace"):
        line = line.rstrip("\n")
        m = KTAP_SUBTEST.match(line)
        if m:
            stack.append((len(m.group(1)), m.group(2)))
            continue
        m = KTAP_RESULT.match(line)
        if not m:
            continue
        indent = len(m.group(1))
        # A result line closes the subtests opened deeper than it (its
        # own "# Subtest:" sits one level in); it belongs to the rest.
        while stack and stack[-1][0] > indent:
            stack.pop()
        # Deeper than any open subtest: a parameter's line whose header
        # the log lost (6.1's debugfs keeps only a parameterised case's
        # last parameter line, without its "# Subtest:").
        if stack and indent > stack[-1][0]:
            continue
        directive = (m.group(4) or "").upper()
        outcome = "skip" if directive == "SKIP" else \
            ("pass" if m.group(2) == "ok" else "fail")
        if not stack:
            yield m.group(3), None, outcome
        elif len(stack) == 1:
            yield stack[0][1], m.group(3), outcome
    for _, name in stack[:1]:
        yield name, None, "unfinished"


def kunit_built(src):
    """{suite: [case, ...]} of the KUnit suites a TERN_KUNIT=1 build of
    the module in SRC (mod/) carries: the tests/*_test.o of its Kbuild,
    each file's kunit_test_suite(s) and their case arrays. Raises
    ValueError where a file does not read as expected."""
    kbuild = open(os.path.join(src, "Kbuild")).read()
    objs = re.findall(r"\btests/(\w+_test)\.o\b", kbuild)
    if not objs:
        raise ValueError("%s/Kbuild lists no tests/*_test.o" % src)
    built = {}
    for obj in objs:
        path = os.path.join(src, "tests", obj + ".c")
        text = re.sub(r"/\*.*?\*/|//[^\n]*", "", open(path).read(), flags=re.S)
        regs = re.findall(r"\bkunit_test_suites?\(([^;]*)\)\s*;", text)
        names = [n.strip().lstrip("&") for r in regs for n in r.split(",")]
        if not names:
            raise ValueError("%s: no kunit_test_suite()" % path)
        for var in names:
            m = re.search(r"struct kunit_suite %s\s*=\s*\{(.*?)\};" % var,
                          text, re.S)
            name = m and re.search(r'\.name\s*=\s*"([^"]+)"', m.group(1))
            arr = m and re.search(r"\.test_cases\s*=\s*(\w+)", m.group(1))
            cases = arr and re.search(
                r"struct kunit_case %s\[\]\s*=\s*\{(.*?)\};" % arr.group(1),
                text, re.S)
            if not (name and cases):
                raise ValueError("%s: suite %s: no .name or cases"
                                 % (path, var))
            got = re.findall(r"\bKUNIT_CASE(?:_PARAM)?\w*\(\s*(\w+)",
                             cases.group(1))
            if not got:
                raise ValueError("%s: suite %s has no case" % (path, var))
            built[name.group(1)] = got
    return built


def kunit_count(path, built, label):
    """(passed, failed, failure lines) of one KTAP file against BUILT
    ({suite: cases}, None: not checked): every case counts; a suite's
    own not ok with no failed case in it (its suite_init failed), a suite
    without its result line, a suite or case built but absent, and one
    that ran but was not built count as failed."""
    passed, failed, failures = 0, 0, []
    ran = {}            # suite: {case: outcome}
    own = {}            # suite: its own outcome
    for suite, case, outcome in ktap_results(path):
        if case is None:
            own[suite] = outcome
            ran.setdefault(suite, {})
            continue
        ran.setdefault(suite, {})[case] = outcome
        name = "%s: %s.%s" % (label, suite, case)
        if outcome == "pass":
            passed += 1
        else:
            failed += 1
            failures.append(("skipped (counted as failed): "
                             if outcome == "skip" else "") + name)
    for suite in sorted(ran):
        cases = ran[suite]
        bad = [c for c, o in cases.items() if o != "pass"]
        if suite not in own:
            own[suite] = "unfinished"
        if own[suite] == "unfinished":
            failed += 1
            failures.append("%s: suite %s: no result line (cut short)"
                            % (label, suite))
        elif own[suite] != "pass" and not bad:
            failed += 1
            failures.append("%s: suite %s: not ok, no case failed (suite "
                            "init failed?), %d of its cases ran"
                            % (label, suite, len(cases)))
        if built is None:
            continue
        if suite not in built:
            failed += 1
            failures.append("%s: suite %s ran but is not in the sources"
                            % (label, suite))
            continue
        for case in built[suite]:
            if case not in cases:
                failed += 1
                failures.append("%s: %s.%s built but did not run"
                                % (label, suite, case))
        for case in sorted(set(cases) - set(built[suite])):
            failed += 1
            failures.append("%s: %s.%s ran but is not in the sources"
                            % (label, suite, case))
    for suite in sorted(set(built or ()) - set(ran)):
        failed += 1
        failures.append("%s: suite %s built but did not run (%d cases)"
                        % (label, suite, len(built[suite])))
    return passed, failed, failures


def why(case):
    """The reason pytest gave for a failed case, on one line: its message
    and the last line of the test files its traceback went through (CI
    keeps only this summary)."""
    el = case.find("failure")
    if el is None:
        el = case.find("error")
    msg = " ".join((el.get("message") or "").split())[:3000]
    where = re.findall(r"^(\S*test_\w+\.py:\d+):", el.text or "", re.M)
    return "%s%s" % (msg, " (at %s)" % where[-1] if where else "")


def main(resdir, src):
    passed, failed, skipped, failures = 0, 0, 0, []
    host = os.path.join(resdir, "host.tsv")
    if os.path.isfile(resdir):      # one KTAP file, alone
        ktaps, host, xmls = [resdir], "", []
    else:
        ktaps = sorted(glob.glob(os.path.join(resdir, "*.ktap")))
        xmls = sorted(glob.glob(os.path.join(resdir, "*.xml")))
    if os.path.exists(host):
        for line in open(host):
            word, _, name = line.rstrip("\n").partition(" ")
            if word == "PASS":
                passed += 1
            elif word == "FAIL":
                failed += 1
                failures.append("host: " + name)
    for path in xmls:
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
    built = None
    if ktaps:
        try:
            built = kunit_built(src)
        except (OSError, ValueError) as e:
            failed += 1
            failures.append("the KUnit suites built, from %s: %s" % (src, e))
    for path in ktaps:
        p, f, fl = kunit_count(path, built, os.path.basename(path)[:-5])
        passed += p
        failed += f
        failures += fl
    for f in failures:
        print("FAILED", f)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("resdir", nargs="?",
                    help="results directory (host.tsv, *.xml, *.ktap), or one "
                    "KTAP file")
    ap.add_argument("--src", default=os.path.join(TOP, "mod"),
                    help="the module's sources, for the KUnit suites and "
                    "cases built (default: mod/ of this tree)")
    ap.add_argument("--list-kunit", action="store_true",
                    help="print the KUnit suites and cases built, one "
                    "suite a line")
    a = ap.parse_args()
    if a.list_kunit:
        for suite, cases in sorted(kunit_built(a.src).items()):
            print(suite, *cases)
        sys.exit(0)
    if not a.resdir:
        ap.error("a results directory is needed")
    sys.exit(main(a.resdir, a.src))
