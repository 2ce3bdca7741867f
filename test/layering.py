#!/usr/bin/env python3
"""Checks the layers of mod/: no cycle between files, neither of headers
(#include) nor of calls (a function of one file calling a function of
another, which calls back, directly or through others); and core/ knows
no mode (includes no siit/ or nat64/ header).

Usage: test/layering.py [--graph] [--known FILE] [MODDIR]
       test/layering.py --self-test

Calls: each file is parsed (comments, literals and preprocessor lines
left out) for the functions it defines and, in their bodies, the words
followed by "(" (not after "." or "->"). A call goes to the file that
defines the function: the caller's own file, else the .c file defining it
non-static, else the header with the static inline function. A header's
inline functions are part of the .c file of the same name beside it
(x.h is x.c's interface: core/instance.h's are core/instance.c's), a
header without one (xlat/mode.h) is a file of its own. A file calling
itself is fine. Not seen: calls through pointers, and the functions a
macro names (INDIRECT_CALL_2 in xlat/mode.h).

Prints each cycle (a strongly connected group of files) with cycles
through all of its files, each step with the calls behind it, and exits
1 if there is one. KUnit suites (mod/tests/) are left out: they call what
they test. --graph prints the file graphs as "a.c -> b.c" lines.

--known FILE: cycles listed there (one per line, "calls: a.c b.c ...",
files sorted, then "# why") are tolerated while they are being removed;
a listed cycle that no longer exists is an error too, so the list only
shrinks; one without a reason is an error.
"""

import re
import sys
from pathlib import Path

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
# Comments, string and character literals, preprocessor lines (with their
# continuations: macro bodies are not functions).
NOISE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'
                   r"'(?:\\.|[^'\\\n])*'|^[ \t]*#(?:\\\n|[^\n])*",
                   re.S | re.M)
TOKEN = re.compile(r"[A-Za-z_]\w*|->|[{}();=,.]|\S")
# Words followed by "(" that are no call of a function.
NOT_CALLS = {
    "if", "for", "while", "switch", "return", "sizeof", "typeof",
    "__typeof__", "alignof", "_Alignof", "_Static_assert", "do", "case",
    "else", "goto", "defined", "void", "char", "short", "int", "long",
    "unsigned", "signed", "bool", "const", "volatile", "struct", "union",
    "enum", "static", "inline", "__attribute__", "asm", "__asm__",
}
# Annotations between a definition's parameters and its body, or before
# its name, that look like calls.
ANNOTATIONS = {"__attribute__", "__must_hold", "__acquires", "__releases",
               "__printf", "__section", "__aligned", "__cond_lock",
               "__no_context_analysis"}


def strip(text):
    """The text without comments, literals and preprocessor lines; newlines
    kept."""
    return NOISE.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def functions(text):
    """The functions defined in C @text: (name, static, body tokens)."""
    toks = TOKEN.findall(strip(text))
    out, i, stmt = [], 0, []
    while i < len(toks):
        t = toks[i]
        if t in (";", "}"):
            stmt = []
            i += 1
            continue
        if t != "{":
            stmt.append(t)
            i += 1
            continue
        # A body: find its end.
        depth, j = 0, i
        while j < len(toks):
            if toks[j] == "{":
                depth += 1
            elif toks[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        name = None
        if "=" not in stmt and stmt and stmt[-1] == ")":
            # The first word followed by "(" that is no annotation.
            for k in range(len(stmt) - 1):
                w = stmt[k]
                if stmt[k + 1] == "(" and re.match(r"[A-Za-z_]", w) and \
                   w not in ANNOTATIONS and w not in NOT_CALLS:
                    name = w
                    break
        if name:
            out.append((name, "static" in stmt[:stmt.index(name)],
                        toks[i + 1:j]))
        stmt = []
        i = j + 1
    return out


def calls(body):
    """Words of a body followed by "(", not after "." or "->" (a member)."""
    found = set()
    for k in range(len(body) - 1):
        w = body[k]
        if body[k + 1] == "(" and re.match(r"[A-Za-z_]", w) and \
           w not in NOT_CALLS and (k == 0 or body[k - 1] not in (".", "->")):
            found.add(w)
    return found


def sources(moddir):
    return sorted(p for p in moddir.rglob("*.[ch]")
                  if "tests" not in p.relative_to(moddir).parts)


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


def owner_of(moddir, f):
    """The node a file's functions belong to: a header's inline functions
    are part of the .c file of the same name beside it, if there is one
    (x.h is x.c's interface), else of the header itself."""
    name = str(f.relative_to(moddir))
    if f.suffix == ".h" and f.with_suffix(".c").exists():
        return name[:-2] + ".c"
    return name


def call_graph(moddir, files, why=None):
    """File -> the files whose functions it calls. A call is mapped to the
    file defining the function: the caller's own (static or not), else
    the .c file that defines it non-static, else a header's inline
    function (see owner_of()). @why, if given, gets (file, file) -> the
    calls ("caller -> callee") behind each edge."""
    defs = []		# (node, name, visible elsewhere, calls)
    for f in files:
        node = owner_of(moddir, f)
        for name, static, body in functions(f.read_text()):
            defs.append((node, name, not static or f.suffix == ".h",
                         calls(body)))
    public, local = {}, {}
    for node, name, visible, _ in defs:
        local.setdefault(node, set()).add(name)
        if visible:
            public.setdefault(name, set()).add(node)
    graph = {owner_of(moddir, f): set() for f in files}
    for node, name, _, called in defs:
        for c in called:
            if c in local.get(node, ()):
                continue
            for target in public.get(c, ()):
                if target == node:
                    continue
                graph[node].add(target)
                if why is not None:
                    why.setdefault((node, target), set()).add(
                        "%s -> %s" % (name, c))
    return graph


def path_in(graph, comp, start):
    """A shortest cycle through @start in strongly connected @comp: the
    files in order, @start again at the end."""
    prev, todo = {start: None}, [start]
    while todo:
        v = todo.pop(0)
        for w in sorted(graph[v] & comp):
            if w == start:
                path = [v]
                while prev[path[-1]] is not None:
                    path.append(prev[path[-1]])
                return path[::-1] + [start]
            if w not in prev:
                prev[w] = v
                todo.append(w)
    return [start, start]


def paths_in(graph, comp):
    """Cycles that, together, go through every file of @comp."""
    comp, seen, out = set(comp), set(), []
    for start in sorted(comp):
        if start not in seen:
            path = path_in(graph, comp, start)
            seen.update(path)
            out.append(path)
    return out


# Files of a directory that must not include those of others: core/ sits
# below the modes and does not know them.
FORBIDDEN_INCLUDES = (("core/", ("siit/", "nat64/")),)


def forbidden_includes(moddir, files):
    bad = []
    for f in files:
        name = str(f.relative_to(moddir))
        for where, others in FORBIDDEN_INCLUDES:
            if not name.startswith(where):
                continue
            for inc in INCLUDE.findall(f.read_text()):
                if inc.startswith(others):
                    bad.append("%s includes %s (%s knows no %s)" %
                               (name, inc, where, " ".join(others)))
    return bad


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
    """The tolerated cycles; each needs its reason, a comment on its line."""
    known, bad = set(), []
    for line in Path(path).read_text().splitlines():
        entry, _, reason = line.partition("#")
        entry = entry.strip()
        if not entry:
            continue
        what, _, files = entry.partition(":")
        if not reason.strip():
            bad.append("known cycle without a reason (\"# why\"): %s"
                       % entry)
        known.add((what.strip(), tuple(sorted(files.split()))))
    return known, bad


def self_test():
    """The checker on small trees: the cycle of a lifecycle calling the
    hooks, which call the driver through a header's inline function, which
    reads the instance through another; gone once the accessor is in a
    header without a .c file. Exits 1 on a wrong answer."""
    import tempfile
    cases = {
        "core/inst.c": "#include \"core/inst.h\"\n"
                       "int tern_add(void)\n{\n\treturn tern_hook();\n}\n"
                       "static int tern_same(void)\n{\n\treturn 0;\n}\n",
        "core/inst.h": "static inline int tern_cfg(void)\n{\n\treturn 1;\n}\n",
        "fw/hook.c": "int tern_hook(void)\n{\n\treturn tern_any();\n}\n"
                     "/* tern_add() in a comment */\n",
        "x/x.h": "static inline int tern_any(void)\n{\n\treturn tern_x();\n}\n"
                 "#define tern_m(a) tern_add(a)\n",
        "x/x.c": "static int tern_same(void)\n{\n\treturn 0;\n}\n"
                 "int tern_x(void)\n{\n\tp->tern_add(\"tern_add(\");\n"
                 "\treturn tern_cfg() + tern_x() + tern_same();\n}\n",
        "core/b.c": "#include \"siit/s.h\"\n",
        "siit/s.h": "",
    }
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        moddir = Path(tmp)
        for name, text in cases.items():
            (moddir / name).parent.mkdir(parents=True, exist_ok=True)
            (moddir / name).write_text(text)
        files = sources(moddir)
        got = cycles(call_graph(moddir, files))
        want = [["core/inst.c", "fw/hook.c", "x/x.c"]]
        ok &= got == want
        print("%s: the circle through a header's inline functions (%s)"
              % ("ok" if got == want else "FAIL", got))
        bad = forbidden_includes(moddir, files)
        ok &= len(bad) == 1 and bad[0].startswith("core/b.c includes siit/")
        print("%s: core/ including siit/ (%s)" % ("ok" if len(bad) == 1
                                                  else "FAIL", bad))
        # The accessor in a header of its own: no cycle.
        (moddir / "core/inst.h").rename(moddir / "core/data.h")
        got = cycles(call_graph(moddir, sources(moddir)))
        ok &= got == []
        print("%s: no cycle once the accessor is in core/data.h (%s)"
              % ("ok" if got == [] else "FAIL", got))
    return 0 if ok else 1


def main(argv):
    if "--self-test" in argv:
        return self_test()
    show = "--graph" in argv
    known, errors = set(), []
    if "--known" in argv:
        i = argv.index("--known")
        known, errors = read_known(argv[i + 1])
        argv = argv[:i] + argv[i + 2:]
    args = [a for a in argv if not a.startswith("--")]
    moddir = Path(args[0]) if args else \
        Path(__file__).resolve().parents[1] / "mod"
    files = sources(moddir)
    why = {}
    bad, found = 0, set()
    for what, graph in (("#include", include_graph(moddir, files)),
                        ("calls", call_graph(moddir, files, why))):
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
            for path in paths_in(graph, comp):
                print("  " + " -> ".join(path))
                for a, b in zip(path, path[1:]):
                    print("    %s -> %s%s" % (
                        a, b, "" if what != "calls" else
                        ": " + ", ".join(sorted(why[(a, b)]))))
    for what, comp in sorted(known - found):
        bad += 1
        print("gone (remove it from the known list): %s: %s"
              % (what, " ".join(comp)))
    for line in errors + forbidden_includes(moddir, files):
        bad += 1
        print(line)
    print("%d problem(s) in %s (cycles not in the known list, forbidden "
          "includes)" % (bad, moddir))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
