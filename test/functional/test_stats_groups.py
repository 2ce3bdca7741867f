"""`tern stats`: the counters that are not zero, grouped by what they say
of the packets (translated, passed on untranslated, dropped by cause,
other); --all shows the zeros too, --json the same groups as
{group: {name: value}}, --explain what each counter means. The group and
the meaning of a counter are one line of include/tern_names.h, beside its
name: every counter of enum tern_stat has one (checked here)."""

import re

import pytest

import genl
import ternlib
from ternlib import POOL6, cli_json, cli_ok
from ternlib.names import NAMES_HEADER

pytestmark = pytest.mark.cli


def _table():
    """[(name, desc, enum, group enum)] of tern_stat_names, and
    {group enum: (key, title)} of tern_stat_groups."""
    text = NAMES_HEADER.read_text()
    body = text[text.index("tern_stat_names[] = {"):]
    body = body[:body.index("};")]
    rows = re.findall(r'\{\s*"([^"]+)",\s*"([^"]*)",\s*(TERN_STAT_\w+),'
                      r'\s*(TERN_SG_\w+)\s*\}', body)
    gbody = text[text.index("tern_stat_groups[__TERN_SG_MAX] = {"):]
    gbody = gbody[:gbody.index("};")]
    groups = {g: (k, t) for g, k, t in re.findall(
        r'\[(TERN_SG_\w+)\] = \{\s*"([^"]+)",\s*"([^"]+)"\s*\}', gbody)}
    return rows, groups


ROWS, GROUPS = _table()
ORDER = re.findall(r"^\t(TERN_SG_\w+),", re.search(
    r"enum tern_stat_group \{(.*?)\};", NAMES_HEADER.read_text(),
    re.S).group(1), re.M)[1:]                       # not TERN_SG_NONE
TABLES_TITLE = "NAT64 tables (shown whole)"


def test_every_counter_has_one_line_with_group_and_meaning():
    counters = [e for e in genl.STAT if e not in
                ("TERN_STAT_UNSPEC", "TERN_STAT_PAD", "__TERN_STAT_MAX")]
    assert sorted(r[2] for r in ROWS) == sorted(counters)
    for name, desc, _, group in ROWS:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name), name
        assert desc.strip(), name
        assert group in ORDER, (name, group)
    assert sorted(GROUPS) == sorted(ORDER)
    assert all(k and t for k, t in GROUPS.values())
    assert ternlib.STAT_NAMES == [r[0] for r in ROWS]


def expected(values, everything=False):
    """{group key: {name: value}}: the groups in order, the counters in
    table order, zeros left out unless EVERYTHING."""
    out = {}
    for g in ORDER:
        members = {n: values[n] for n, _, _, grp in ROWS
                   if grp == g and (everything or values[n])}
        if members:
            out[GROUPS[g][0]] = members
    return out


def parse_text(out):
    """{heading: {name: value}} of the text output."""
    groups, cur = {}, None
    for line in out.splitlines():
        m = re.fullmatch(r"  ([a-z0-9-]+): +(\d+)(  .*)?", line)
        if m:
            groups[cur][m.group(1)] = int(m.group(2))
            continue
        assert line.endswith(":") and not line.startswith(" "), line
        cur = line[:-1]
        groups[cur] = {}
    return groups


def titled(exp):
    title = {k: t for k, t in GROUPS.values()}
    return {title[k]: v for k, v in exp.items()}


@pytest.mark.kernel
def test_stats_nonzero_grouped_all_json(ns):
    cli_ok(ns, "instance", "add", "t", "--siit", "--pool6", POOL6)
    assert cli_ok(ns, "stats") == \
        "Every counter is 0 (tern stats --all shows them).\n"
    assert cli_json(ns, "stats") == {}
    zeros = cli_json(ns, "stats", "--all")
    assert list(zeros) == [GROUPS[g][0] for g in ORDER]
    assert zeros == expected({r[0]: 0 for r in ROWS}, everything=True)
    # Loopback packets go through PRE_ROUTING too (and are passed).
    ternlib.run(["ip", "-n", ns.name, "link", "set", "lo", "up"])
    ns.exec("ping", "-c", "2", "-i", "0.2", "-W", "1", "127.0.0.1",
            check=False)
    k = ternlib.kstats(ns)
    assert any(k.values())
    js = cli_json(ns, "stats")
    assert js == expected(k)
    assert list(js) == list(expected(k))            # the groups' order
    assert "passed" in js and "translated" not in js
    assert parse_text(cli_ok(ns, "stats")) == titled(expected(k))
    assert cli_json(ns, "stats", "--all") == expected(k, everything=True)
    assert parse_text(cli_ok(ns, "stats", "--all")) == \
        titled(expected(k, everything=True))
    # --verbose: the meaning after each value (text only).
    desc = {n: d for n, d, _, _ in ROWS}
    for line in cli_ok(ns, "stats", "--verbose").splitlines():
        if line.startswith("  "):
            name = line.split(":")[0].strip()
            assert line.endswith("  " + desc[name]), line
    assert cli_json(ns, "stats", "--verbose") == js


@pytest.mark.kernel
def test_stats_nat64_tables_last_and_whole(ns):
    cli_ok(ns, "instance", "add", "n", "--nat64", "--pool6", POOL6)
    js = cli_json(ns, "stats")
    assert list(js) == ["tables"]
    assert js["tables"]["sessions"] == 0 and js["tables"]["bib-entries"] == 0
    lines = cli_ok(ns, "stats").splitlines()
    assert lines[0] == TABLES_TITLE + ":"
    assert [line.split(":")[0].strip() for line in lines[1:]] == [
        "bib-entries", "sessions", "table-bytes", "max-sessions",
        "stored-syns", "bucket-bytes"]


def test_stats_explain():
    """One line per counter under its group's heading, the meaning from
    the table; then the table sizes. Needs no module."""
    r = ternlib.cli(None, "stats", "--explain")
    assert r.rc == 0 and r.err == ""
    want = []
    for g in ORDER:
        want.append(GROUPS[g][1] + ":")
        want += ["  %-28s %s" % (n, d) for n, d, _, grp in ROWS if grp == g]
    lines = r.out.splitlines()
    assert lines[:len(want)] == want
    assert lines[len(want)] == TABLES_TITLE + ":"
    assert [line.split()[0] for line in lines[len(want) + 1:]] == [
        "bib-entries", "sessions", "table-bytes", "max-sessions",
        "stored-syns", "bucket-bytes"]
