#!/usr/bin/env python3
"""openapi.yaml is generated (api/openapi/generate.py): the committed file
must be exactly what its sources make, so that an edit of the file alone,
which the next generation would drop, fails here; and the sources stay a
fraction of what they make. Also: every game of the
game table (the descriptors in api/<game>/*_json.c) is on the one list of
games, api/games.txt, with its fragment in its folder, and the generator refuses a broken source instead of
writing a contract with a hole in it. Prints TAP."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

root = sys.argv[1]
api_dir = os.path.join(root, 'api')
src = os.path.join(api_dir, 'openapi')
# The suite's TAP writer (tests/e2e/harness.py); nothing here starts a daemon.
sys.path.insert(0, os.path.join(root, 'tests', 'e2e'))
from harness import Tap  # noqa: E402

t = Tap()
ok, diag = t.ok, t.diag


p = subprocess.run([sys.executable, os.path.join(src, 'generate.py'), '--check'],
                   capture_output=True, text=True)
diag(p.stdout + p.stderr)
ok(p.returncode == 0, 'openapi.yaml is what api/openapi/generate.py makes of its sources')

# --check itself: an openapi.yaml edited alone (one description changed)
# is stale, and the summary names the line.
with open(os.path.join(root, 'openapi.yaml')) as f:
    committed = f.read()
with tempfile.TemporaryDirectory() as tmp:
    stale = os.path.join(tmp, 'openapi.yaml')
    with open(stale, 'w') as f:
        f.write(committed.replace('  title: arcaded\n', '  title: arcaded, edited by hand\n', 1))
    p = subprocess.run([sys.executable, os.path.join(src, 'generate.py'), '--check', '--out', stale],
                       capture_output=True, text=True)
    with open(stale) as f:
        untouched = 'edited by hand' in f.read()
ok(p.returncode == 1 and 'edited by hand' in p.stdout and untouched,
   '--check fails on an openapi.yaml edited alone, shows the line and writes nothing')

# The figure the generation is for: what is written by hand against what
# comes out. The sources are under half of it (one source per shape: a
# game's fragment holds only its own shapes, and what many places say
# alike is a shared block), and the bound asserted is half, so that a
# change that writes by hand what a template, a kind or a shared block
# could say shows here.
written = 0
for d, _, names in os.walk(api_dir):
    for name in names:
        if name.endswith(('.in', '.yaml')) and name != 'games.def.in':
            written += os.path.getsize(os.path.join(d, name))
out = os.path.getsize(os.path.join(root, 'openapi.yaml'))
diag('sources %d bytes, openapi.yaml %d bytes (%.1f%%); two thirds of it is %d bytes, half %d'
     % (written, out, 100.0 * written / out, out * 2 // 3, out // 2))
ok(0 < written and written * 2 < out,
   'the sources (%d bytes) are under half of the contract they make (%d bytes)' % (written, out))

games = []
for folder in sorted(os.listdir(api_dir)):
    if not os.path.isdir(os.path.join(api_dir, folder)):
        continue
    for name in sorted(os.listdir(os.path.join(api_dir, folder))):
        if name.endswith('_json.c'):
            with open(os.path.join(api_dir, folder, name)) as f:
                m = re.search(r'const struct game game_\w+ = \{.*?\.name = "([a-z0-9-]+)"', f.read(), re.S)
            if m:
                games.append(m.group(1))
with open(os.path.join(api_dir, 'games.txt')) as f:
    listed = [l.split('#', 1)[0].strip() for l in f
              if l.split('#', 1)[0].strip() and len(l.split('#', 1)[0].split()) == 1]
ok(len(games) >= 2 and sorted(games) == sorted(listed),
   'games.txt names the games of the game table (%s; listed: %s)' % (', '.join(games), ', '.join(listed)))


def broken(name, edit):
    """The generator on a copy of the sources with one edit: it must stop
    (exit 2) and name the problem, and write nothing."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, 'api', 'openapi')
        shutil.copytree(api_dir, os.path.join(tmp, 'api'),
                        ignore=shutil.ignore_patterns('*.c', '*.h', 'meson.build'))
        edit(copy)
        out_path = os.path.join(tmp, 'openapi.yaml')
        p = subprocess.run([sys.executable, os.path.join(copy, 'generate.py'), '--out', out_path],
                           capture_output=True, text=True)
        diag(p.stderr)
        ok(p.returncode == 2 and 'generate.py:' in p.stderr and not os.path.exists(out_path),
           'the generator refuses %s' % name)


def fragment(copy, game):
    """A game's fragment in the copy of api/ whose openapi/ folder is copy."""
    return os.path.join(os.path.dirname(copy), game.replace('-', '_'), game + '.yaml')


def replace_in(path, old, new):
    with open(path) as f:
        text = f.read()
    assert old in text, (path, old)
    with open(path, 'w') as f:
        f.write(text.replace(old, new, 1))


broken('a misspelt placeholder',
       lambda d: replace_in(os.path.join(d, 'game.yaml.in'), 'get{{Game}}Init', 'get{{Gmae}}Init'))
broken('a block that no source uses',
       lambda d: replace_in(fragment(d, listed[0]), '#> tag_description', '#> tag_descripton'))
broken('a block of kinds.yaml.in for a kind no game has',
       lambda d: replace_in(os.path.join(d, 'kinds.yaml.in'), '#> state.Stale_description', '#> stat.Stale_description'))
broken('a one-line value that no source uses',
       lambda d: replace_in(fragment(d, listed[0]), '#> summary:', '#> sumary:'))
broken('an include without an argument its block needs',
       lambda d: replace_in(os.path.join(d, 'paths.yaml.in'), '{{>error code=', '{{>error cod='))
broken('an include with an argument its block does not take',
       lambda d: replace_in(os.path.join(d, 'paths.yaml.in'), '{{>error code=', '{{>error kode=x code='))
broken('a {{#json}} without its {{/json}}',
       lambda d: replace_in(os.path.join(d, 'paths.yaml.in'), '        {{/json}}\n', ''))
broken('a game without its fragment',
       lambda d: os.remove(fragment(d, listed[-1])))

t.done()
