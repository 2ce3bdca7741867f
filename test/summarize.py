#!/usr/bin/env python3
"""Adds up host checks (host.tsv) and JUnit files (*.xml) of a results
directory; prints the failures and a final 'N passed, N failed' line.
Exits 1 if anything failed or nothing ran."""
import glob
import os
import sys
import xml.etree.ElementTree as ET


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
                failures.append(name)
            elif case.find("skipped") is not None:
                skipped += 1
                failures.append("skipped (counted as failed): " + name)
                failed += 1
            else:
                passed += 1
    for f in failures:
        print("FAILED", f)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
