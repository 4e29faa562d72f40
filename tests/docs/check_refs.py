#!/usr/bin/env python3
"""Every reference to a document resolves inside the repository.

Scans the tracked text files (C, headers, Python, shell, meson, YAML, Markdown,
Lua, SQL, JavaScript, the deploy files) and fails on:

- a relative Markdown link (or reference definition) whose file, or whose
  #anchor in another Markdown file, does not exist;
- a path written from the repository's root (docs/..., tests/..., engine/...,
  migrations/..., deploy/..., api/..., server/...) that names a file (it ends
  in an extension) which does not exist; a glob must match something, and a
  path with a placeholder such as NNNN or {game} needs its folder to exist;
- names that must never appear, because a clone of the repository has nothing
  behind them: the design folder and the house-style file kept outside the
  tree, the user's rule-text files, and the bare names of the four documents
  that now live in docs/ unless written as a docs/ path that exists (or, inside
  docs/, as a relative link that resolves).

URLs are left alone, and so are words that merely look like paths (URL paths
such as /api/v1/keys, build outputs such as build/server/arcaded). Each
dangling reference is printed with its file and line. Prints TAP: a few
self-checks of the matcher, then one test point per scanned file.

usage: check_refs.py [SOURCE_ROOT]
"""
import fnmatch
import glob
import os
import re
import subprocess
import sys


# This file has to spell the forbidden names to look for them.
SELF = 'tests/docs/check_refs.py'

TEXT_SUFFIXES = ('.c', '.h', '.py', '.sh', '.build', '.yaml', '.yml', '.md', '.lua', '.sql',
                 '.mjs', '.js', '.service', '.conf')
TOP_DIRS = ('engine', 'api', 'server', 'tests', 'docs', 'migrations', 'deploy')

URL = re.compile(r'[a-zA-Z][a-zA-Z0-9+.-]*://[^\s)>\]"\'`]+')
PATH = re.compile(r'(?<![\w/.-])(?:\./)?((?:%s)/[\w./*{}<>-]*[\w*}>])' % '|'.join(TOP_DIRS))
DOC_NAME = re.compile(r'(?<![\w-])(?:api|duskcourt|stackfall|stream)\.md\b')
PATH_TOKEN = re.compile(r'[\w./{}<>*-]+')
FORBIDDEN = [
    (re.compile(r'(?<![\w-])spec/'), 'the spec folder is not in the repository'),
    (re.compile(r'\.\./shared\b'), 'a path outside the repository'),
    (re.compile(r'/work/shared\b'), 'a path outside the repository'),
    (re.compile(r'(?<![\w-])seeds/'), 'the rule texts are not in the repository'),
    (re.compile(r'\bSTYLE\.md\b'), 'the house style is docs/style.md'),
    (re.compile(r'\b\d{3}_[0-9a-f]{16}(?:\.txt)?\b'), 'a rule-text file that is not in the repository'),
]
MD_LINK = re.compile(r'!?\[((?:[^\]\\]|\\.)*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)')
MD_REFDEF = re.compile(r'^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$')
FENCE = re.compile(r'^\s{0,3}(```|~~~)')
HEADING = re.compile(r'^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$')
PLACEHOLDER = re.compile(r'[{<]|(?<![A-Za-z])([A-Z])\1{2,}(?![A-Za-z])')


def slug(text):
    """GitHub's anchor for a heading."""
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', text).strip().lower()
    return re.sub(r'[^\w\- ]', '', text).replace(' ', '-')


class Tree:
    """The files of the checkout, and the anchors of its Markdown files."""

    def __init__(self, root, files):
        self.root = root
        self.files = set(files)
        self.dirs = {os.path.dirname(f) for f in files}
        for d in list(self.dirs):
            while d:
                d = os.path.dirname(d)
                self.dirs.add(d)
        self._anchors = {}

    def exists(self, rel):
        rel = os.path.normpath(rel)
        return rel in self.files or rel in self.dirs or os.path.exists(os.path.join(self.root, rel))

    def glob(self, pattern):
        pattern = os.path.normpath(pattern)
        return any(fnmatch.fnmatchcase(f, pattern) for f in self.files) or \
            bool(glob.glob(os.path.join(self.root, pattern)))

    def anchors(self, rel):
        rel = os.path.normpath(rel)
        if rel not in self._anchors:
            found, seen, fenced = set(), {}, False
            try:
                with open(os.path.join(self.root, rel), encoding='utf-8') as f:
                    for line in f:
                        if FENCE.match(line):
                            fenced = not fenced
                            continue
                        m = None if fenced else HEADING.match(line)
                        if m:
                            s = slug(m.group(2))
                            n = seen.get(s, 0)
                            seen[s] = n + 1
                            found.add(s if n == 0 else '%s-%d' % (s, n))
            except OSError:
                pass
            self._anchors[rel] = found
        return self._anchors[rel]


def url_spans(line):
    return [m.span() for m in URL.finditer(line)]


def inside(pos, spans):
    return any(a <= pos < b for a, b in spans)


def enclosing_token(line, start, end):
    for m in PATH_TOKEN.finditer(line):
        if m.start() <= start and end <= m.end():
            return m.group(0)
    return line[start:end]


def check_path(tree, path):
    """Why a root-relative path does not resolve, or None."""
    path = path.rstrip('.')
    if not re.search(r'\.[A-Za-z*][A-Za-z0-9]*$', path.rsplit('/', 1)[-1]):
        return None  # a folder, a module (engine/bag), a URL path (api/v1/keys), a build output
    m = PLACEHOLDER.search(path)
    if m:
        folder = path[:m.start()].rsplit('/', 1)[0]
        return None if tree.exists(folder) else 'folder %s does not exist' % folder
    if any(c in path for c in '*?['):
        return None if tree.glob(path) else 'nothing matches %s' % path
    return None if tree.exists(path) else 'no such file'


def check_link(tree, rel, target):
    """Why a Markdown link target of file rel does not resolve, or None."""
    if re.match(r'[a-zA-Z][a-zA-Z0-9+.-]*:', target):
        return None  # a URL, mailto:...
    path, _, anchor = target.partition('#')
    if path.startswith('/'):
        return 'a link from the site root cannot be followed in a clone'
    dest = os.path.normpath(os.path.join(os.path.dirname(rel), path)) if path else rel
    if dest.startswith('..'):
        return 'the link leaves the repository'
    if path and not tree.exists(dest):
        return 'no such file %s' % dest
    if anchor and dest.endswith('.md') and anchor.lower() not in tree.anchors(dest):
        return 'no heading #%s in %s' % (anchor, dest)
    return None


def doc_name_ok(tree, rel, token):
    """Whether a token holding one of the four document names is a real path."""
    token = token.rstrip('.')
    if token.startswith('./'):
        token = token[2:]
    path = token.split('#', 1)[0]
    if path.startswith('docs/') and tree.exists(path):
        return True
    if rel.endswith('.md') and rel.startswith('docs/'):
        dest = os.path.normpath(os.path.join(os.path.dirname(rel), path))
        return dest.startswith('docs/') and tree.exists(dest)
    return False


def check_lines(tree, rel, lines):
    """Yields (line number, reference, why) for every dangling reference."""
    fenced = False
    is_md = rel.endswith('.md')
    for no, line in enumerate(lines, 1):
        fence = is_md and FENCE.match(line) is not None
        prose = is_md and not fenced and not fence
        if fence:
            fenced = not fenced
        spans = url_spans(line)
        # The text of a Markdown link that resolves may name its target ([api.md](../api.md)).
        linked = [m.span(1) for m in MD_LINK.finditer(line)
                  if prose and check_link(tree, rel, m.group(2)) is None]
        for rx, why in FORBIDDEN:
            for m in rx.finditer(line):
                if not inside(m.start(), spans):
                    yield no, enclosing_token(line, m.start(), m.end()), why
        for m in DOC_NAME.finditer(line):
            if inside(m.start(), spans) or inside(m.start(), linked):
                continue
            token = enclosing_token(line, m.start(), m.end())
            if not doc_name_ok(tree, rel, token):
                yield no, token, 'the documents live in docs/: write docs/... (a path that exists)'
        for m in PATH.finditer(line):
            if inside(m.start(), spans):
                continue
            why = check_path(tree, m.group(1))
            if why:
                yield no, m.group(1), why
        if not prose:
            continue
        text = re.sub(r'`[^`]*`', '', line)
        targets = [m.group(2) for m in MD_LINK.finditer(text)]
        m = MD_REFDEF.match(text)
        if m:
            targets.append(m.group(1))
        for target in targets:
            why = check_link(tree, rel, target)
            if why:
                yield no, target, why


def tracked_files(root):
    try:
        out = subprocess.run(['git', '-C', root, 'ls-files', '-z'], capture_output=True,
                             check=True).stdout.decode('utf-8', 'replace')
        files = [f for f in out.split('\0') if f]
        if files:
            return [f for f in files if os.path.isfile(os.path.join(root, f))]
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []  # not a git checkout (a release tarball): walk the tree
    for d, subdirs, names in os.walk(root):
        subdirs[:] = [s for s in subdirs if not s.startswith(('.', 'build')) and s != 'node_modules']
        files += [os.path.relpath(os.path.join(d, n), root) for n in names]
    return files


def is_text(root, rel):
    if rel.endswith(TEXT_SUFFIXES):
        return True
    if '.' in os.path.basename(rel):
        return False
    try:
        with open(os.path.join(root, rel), 'rb') as f:
            first = f.readline(200)
    except OSError:
        return False
    return first.startswith(b'#!') and (b'sh' in first or b'python' in first)


n = failed = 0


def ok(cond, name, notes=()):
    global n, failed
    n += 1
    failed += 0 if cond else 1
    print('%sok %d - %s' % ('' if cond else 'not ', n, name), flush=True)
    for note in notes:
        print('# ' + note, flush=True)


def self_checks(tree):
    """The matcher against lines whose verdict is known, so that a pass means it looked."""
    def flagged(rel, line):
        return [ref for _, ref, _ in check_lines(tree, rel, [line])]

    sp, st = 'sp' + 'ec/', 'STY' + 'LE.md'
    bad = [
        ('engine/x.c', '/* see %sstackfall.md */' % sp),
        ('engine/x.c', '/* the layers (%s) */' % st),
        ('engine/x.c', '/* duskcourt' + '.md\'s ladder */'),
        ('tests/x.py', '# ../docs/' + 'api.md'),
        ('tests/x.py', '# see tests/no_such_file.py'),
        ('tests/x.py', '# ../../shared/seeds/00' + '1_44f2eeb4f239a00c.txt'),
        ('docs/x.md', 'see [the rules](rules/nothing.md)'),
        ('docs/x.md', 'see [fields](rules/stackfall.md#no-such-heading)'),
        ('docs/rules/x.md', 'see api' + '.md'),
        ('docs/rules/x.md', 'see [api' + '.md](api.md)'),
    ]
    for rel, line in bad:
        ok(flagged(rel, line), 'flags %r in %s' % (line, rel))
    good = [
        ('engine/x.c', '/* the rules of docs/rules/stackfall.md */'),
        ('tests/x.py', 'GET /api/v1/keys and /games/stackfall/api/state'),
        ('tests/x.py', './build/server/arcaded stream 42 21'),
        ('tests/x.py', 'api/ may use jansson; the spec says so; a special spec.'),
        ('tests/x.py', 'https://github.com/paseto-standard/paseto-spec/blob/master/docs/x/api.md'),
        ('README.md', '`migrations/NNNN_name.sql`, tests/bench/load/*.lua, engine/bag'),
        ('docs/README.md', '| [stream.md](stream.md) | [api](api.md#retries) |'),
        ('docs/rules/x.md', 'see [the stream](../stream.md#fixtures)'),
        ('docs/rules/x.md', 'see [api' + '.md](../api.md#runid)'),
    ]
    for rel, line in good:
        ok(not flagged(rel, line), 'leaves %r in %s alone' % (line, rel))


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), '..', '..'))
    files = sorted(tracked_files(root))
    tree = Tree(root, files)
    self_checks(tree)
    scan = [f for f in files if f != SELF and is_text(root, f)]
    ok(len(scan) > 20 and any(f.startswith('docs/') for f in scan),
       'found the repository\'s text files (%d to scan)' % len(scan))
    for rel in scan:
        with open(os.path.join(root, rel), encoding='utf-8', errors='replace') as f:
            found = list(check_lines(tree, rel, f.read().splitlines()))
        ok(not found, rel, ['%s:%d: %s -- %s' % (rel, no, ref, why) for no, ref, why in found])
    print('1..%d' % n)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
