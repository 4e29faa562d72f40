#!/usr/bin/env python3
"""check_cycles.py: no circle of modules in engine/, api/, server/ and
tools/ (docs/architecture.md, "Layers"), and every file there opens with
its own name.

A module is a .c and its .h of one basename in one folder, named by its
path from the top of the source tree without the extension
("server/store/store_sql"); a header without a .c is a module of its own.
Module A depends on module B when A's .c or .h includes B's header (an
include is resolved by its path from the including file's folder, else
by its basename among every header of the four folders, so that files may
move into subfolders), or when A's object file leaves a symbol undefined
that B's object defines (read with nm from the objects that the build's
compile_commands.json names). A strongly connected component of more than
one module is a circle: it fails, naming its modules and one edge for each
pair that has one, unless it lies inside an entry of ALLOWED below.

Prints TAP.

usage: check_cycles.py NM SOURCE_ROOT BUILD_ROOT
"""
import json
import os
import re
import subprocess
import sys

# Circles that are known and allowed for a while, each an entry of a top
# folder and the basenames of its modules; a circle whose modules all
# belong to one entry is reported as a TAP TODO, not as a failure. It is
# empty: the last circles (the Duskcourt court, dealer and solver; versus
# and its odd shapes) went when the games moved into folders of their own.
# An entry whose circle is gone is reported, so that it is taken off.
ALLOWED = []

FOLDERS = ('engine', 'api', 'server', 'tools')
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)

n = failed = 0


def ok(cond, name, todo=None):
    global n, failed
    n += 1
    if not cond and todo is None:
        failed += 1
    print('%sok %d - %s%s' % ('' if cond else 'not ', n, name,
                              ' # TODO %s' % todo if todo is not None else ''), flush=True)


def diag(text):
    print('# %s' % text, flush=True)


def source_files(root):
    """Every .c and .h of the four folders, as paths from root."""
    out = []
    for top in FOLDERS:
        for d, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if name.endswith(('.c', '.h')):
                    out.append(os.path.relpath(os.path.join(d, name), root))
    return sorted(out)


def module_of(path):
    return os.path.splitext(path)[0]


def resolve(includer, name, headers, by_base):
    """The header (a path from the root) that includer's #include "name"
    reads, or None for one outside the four folders."""
    near = os.path.normpath(os.path.join(os.path.dirname(includer), name))
    if near in headers:
        return near
    found = by_base.get(os.path.basename(name), [])
    if not found:
        return None
    # Several of one basename: the nearest to the includer.
    return max(found, key=lambda h: len(os.path.commonpath([h, includer])))


def nm_symbols(nm, obj):
    """(defined, undefined) global symbols of an object file."""
    out = subprocess.run([nm, '-g', '-P', obj], capture_output=True, text=True,
                         check=True).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2 or f[0].endswith(':'):
            continue
        if f[1] in ('U', 'w', 'v'):
            undefined.add(f[0])
        else:
            defined.add(f[0])
    return defined, undefined


def objects(root, build):
    """{source path from root: [object paths]} for the four folders."""
    with open(os.path.join(build, 'compile_commands.json')) as fh:
        commands = json.load(fh)
    out = {}
    for c in commands:
        src = os.path.relpath(os.path.normpath(os.path.join(c['directory'], c['file'])), root)
        if src.split(os.sep)[0] not in FOLDERS:
            continue
        out.setdefault(src, []).append(os.path.join(c['directory'], c['output']))
    return out


def strongly_connected(nodes, edges):
    """Tarjan's components of the graph, each a sorted list."""
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
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
            comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return comps


def allowed_entry(comp):
    """The index in ALLOWED of the entry that holds every module of comp,
    or None."""
    for i, (top, names) in enumerate(ALLOWED):
        if all(m.split(os.sep)[0] == top and os.path.basename(m) in names for m in comp):
            return i
    return None


def opening_word(path):
    """The first word of the file's opening comment, without a colon; None
    when the file does not open with a comment."""
    with open(path, encoding='utf-8', errors='replace') as fh:
        text = fh.read(4096).lstrip()
    if not text.startswith('/*'):
        return None
    words = text[2:].replace('*', ' ').split()
    return words[0].rstrip(':') if words else None


def strip_comments(text):
    """C source without its comments (strings kept: a game's name in a
    string is a name too)."""
    return re.sub(r'/\*.*?\*/|//[^\n]*', ' ', text, flags=re.S)


def main():
    nm, root, build = sys.argv[1:4]
    root = os.path.realpath(root)
    files = source_files(root)
    headers = {f for f in files if f.endswith('.h')}
    by_base = {}
    for h in sorted(headers):
        by_base.setdefault(os.path.basename(h), []).append(h)
    modules = {module_of(f) for f in files}

    # reasons[(a, b)]: why a depends on b, the first one found.
    reasons = {}
    edges = {}

    def edge(a, b, why):
        if a == b:
            return
        edges.setdefault(a, set()).add(b)
        reasons.setdefault((a, b), why)

    for f in files:
        with open(os.path.join(root, f), encoding='utf-8', errors='replace') as fh:
            text = fh.read()
        for name in INCLUDE.findall(text):
            h = resolve(f, name, headers, by_base)
            if h is not None:
                edge(module_of(f), module_of(h), '%s includes %s' % (f, h))

    objs = objects(root, build)
    missing = [o for outs in objs.values() for o in outs if not os.path.exists(o)]
    ok(len(objs) > 0 and not missing,
       'the objects of %d sources of %s are built (%d modules)' %
       (len(objs), ', '.join(FOLDERS), len(modules)))
    for o in missing[:10]:
        diag('missing: %s' % o)
    definers = {}
    needs = {}
    for src in sorted(objs):
        for o in objs[src]:
            if not os.path.exists(o):
                continue
            defined, undefined = nm_symbols(nm, o)
            for s in defined:
                definers.setdefault(s, set()).add(module_of(src))
            needs.setdefault(src, set()).update(undefined)
    for src in sorted(needs):
        for s in sorted(needs[src]):
            for m in sorted(definers.get(s, ())):
                edge(module_of(src), m, '%s calls %s' % (src, s))

    comps = [c for c in strongly_connected(modules, edges) if len(c) > 1]
    seen = set()
    bad = 0
    for comp in comps:
        i = allowed_entry(comp)
        if i is None:
            bad += 1
            ok(False, 'a circle: %s' % ', '.join(comp))
        else:
            seen.add(i)
            ok(False, 'a circle on the allow-list: %s' % ', '.join(comp),
               todo='to be taken apart as the games move into folders of their own')
        members = set(comp)
        for a in comp:
            for b in sorted(edges.get(a, ())):
                if b in members:
                    diag('%s -> %s: %s' % (a, b, reasons[(a, b)]))
    ok(bad == 0, 'no circle of modules outside the allow-list (%d modules, %d edges)' %
       (len(modules), sum(len(v) for v in edges.values())))
    for i, (top, names) in enumerate(ALLOWED):
        if i not in seen:
            diag('the allow-list\'s %s/{%s} is no circle any more: take it off' %
                 (top, ', '.join(sorted(names))))

    # The opening comment names the file.
    for top in FOLDERS:
        wrong = []
        for f in files:
            if f.split(os.sep)[0] != top:
                continue
            word = opening_word(os.path.join(root, f))
            if word != os.path.basename(f):
                wrong.append('%s (%s)' % (f, word))
        ok(not wrong, 'every file in %s/ opens with a comment that names it' % top)
        for w in wrong:
            diag('%s opens with another name' % w)

    # server/ names no game: no game or match ruleset of the list
    # (api/games.txt; a ruleset's line is "<folder> match") appears in its
    # code (strings included, comments aside) as a word or a part of an
    # identifier between underscores (game_duskcourt, "hatetris-classic",
    # versus_match).
    with open(os.path.join(root, 'api', 'games.txt'), encoding='utf-8') as f:
        games = [ln.split()[0] for ln in f if ln.strip() and not ln.lstrip().startswith('#')]
    named = []
    for f in files:
        if f.split(os.sep)[0] != 'server':
            continue
        with open(os.path.join(root, f), encoding='utf-8') as fh:
            code = strip_comments(fh.read())
        for g in games:
            for form in {g, g.replace('-', '_')}:
                if re.search(r'(?<![A-Za-z0-9])%s(?![A-Za-z0-9])' % re.escape(form), code, re.I):
                    named.append('%s (%s)' % (f, form))
    ok(len(games) >= 2 and not named, 'no file in server/ names a game of api/games.txt in its code (%d games)'
       % len(games))
    for w in named:
        diag('%s names a game' % w)

    # Nor does it include a header of a game's or a ruleset's own folders
    # (api/<folder>/, engine/<folder>/: versus.h, match.h, ...): it reaches
    # them through the descriptors (game.h, match_rules.h) alone.
    own = {}
    for g in games:
        for top in ('api', 'engine'):
            d = os.path.join(root, top, g.replace('-', '_'))
            if os.path.isdir(d):
                for h in os.listdir(d):
                    if h.endswith('.h'):
                        own[h] = '%s/%s' % (top, g.replace('-', '_'))
    included = []
    for f in files:
        if f.split(os.sep)[0] != 'server':
            continue
        with open(os.path.join(root, f), encoding='utf-8') as fh:
            for name in re.findall(r'^\s*#\s*include\s+"([^"]+)"', fh.read(), re.M):
                if os.path.basename(name) in own:
                    included.append('%s (%s of %s/)' % (f, name, own[os.path.basename(name)]))
    ok(len(own) >= 2 and not included, 'no file in server/ includes a header of a game\'s or a ruleset\'s '
       'own folders (%d headers)' % len(own))
    for w in included:
        diag('%s includes a header of a game' % w)

    # What a game must provide stays small (docs/architecture.md, "Adding a
    # game"): struct game holds at most twelve hooks, its optional ones
    # being in struct game_ext.
    with open(os.path.join(root, 'api', 'game', 'game.h'), encoding='utf-8') as fh:
        body = re.search(r'^struct game \{(.*?)^\};', strip_comments(fh.read()), re.M | re.S)
    hooks = re.findall(r'\(\*\s*(\w+)\s*\)', body.group(1)) if body else []
    ok(0 < len(hooks) <= 12, 'struct game (api/game/game.h) has at most 12 hooks: %d (%s)'
       % (len(hooks), ', '.join(hooks)))

    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
