#!/usr/bin/env python3
"""Checks that mod/ has no cycles: neither between headers (#include) nor
between source files (a function of one file calling a function of
another, which calls back, directly or through others).

Usage: test/layering.py [--graph] [--known FILE] [MODDIR]

Prints each cycle (a strongly connected group of files) and exits 1 if
there is one. KUnit suites (mod/tests/) are left out: they call what they
test. --graph prints the file graph as "a.c -> b.c" lines.

--known FILE: cycles listed there (one per line, "calls: a.c b.c ...",
files sorted) are tolerated while they are being removed; a listed cycle
that no longer exists is an error too, so the list only shrinks.
"""

import re
import sys
from pathlib import Path

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# A definition: a line that starts (no indent) with a type and a tern_
# name followed by "(", and does not end with ";" (a prototype).
DEFINITION = re.compile(
    r"^(?!static inline)[A-Za-z_][\w \t\*]*?\b(tern_\w+)\s*\([^;{]*?\)\s*\{",
    re.M | re.S)
CALL = re.compile(r"\b(tern_\w+)\s*\(")
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


def sources(moddir):
    return sorted(p for p in moddir.rglob("*.[ch]")
                  if "tests" not in p.relative_to(moddir).parts)


def strip(text):
    return COMMENT.sub("", text)


def include_graph(moddir, files):
    graph = {}
    for f in files:
        name = str(f.relative_to(moddir))
        graph[name] = set()
        for inc in INCLUDE.findall(f.read_text()):
            target = moddir / inc
            if not target.exists():
                target = f.parent / inc
            if target.exists():
                graph[name].add(str(target.resolve().relative_to(
                    moddir.resolve())))
    return graph


def call_graph(moddir, files):
    texts = {str(f.relative_to(moddir)): strip(f.read_text())
             for f in files if f.suffix == ".c"}
    owner = {}
    for name, text in texts.items():
        for fn in DEFINITION.findall(text):
            owner.setdefault(fn, name)
    graph = {}
    for name, text in texts.items():
        graph[name] = {owner[c] for c in CALL.findall(text)
                       if c in owner and owner[c] != name}
    return graph


def cycles(graph):
    """Strongly connected components with more than one file (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def read_known(path):
    known = set()
    for line in Path(path).read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            what, _, files = line.partition(":")
            known.add((what.strip(), tuple(sorted(files.split()))))
    return known


def main(argv):
    show = "--graph" in argv
    known = set()
    if "--known" in argv:
        i = argv.index("--known")
        known = read_known(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    args = [a for a in argv if not a.startswith("--")]
    moddir = Path(args[0]) if args else \
        Path(__file__).resolve().parents[1] / "mod"
    files = sources(moddir)
    bad, found = 0, set()
    for what, graph in (("#include", include_graph(moddir, files)),
                        ("calls", call_graph(moddir, files))):
        if show:
            for a in sorted(graph):
                for b in sorted(graph[a]):
                    print("%s: %s -> %s" % (what, a, b))
        for comp in cycles(graph):
            key = ("calls" if what == "calls" else "include", tuple(comp))
            found.add(key)
            tolerated = key in known
            bad += not tolerated
            print("cycle (%s)%s: %s" % (what, " [known]" if tolerated
                                        else "", " <-> ".join(comp)))
    for what, comp in sorted(known - found):
        bad += 1
        print("gone (remove it from the known list): %s: %s"
              % (what, " ".join(comp)))
    print("%d cycle(s) in %s not in the known list" % (bad, moddir))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
