#!/usr/bin/env python3
"""openapi.yaml is linted by a real OpenAPI linter (@redocly/cli, installed
by ./dev test from tests/openapi/package-lock.json) and names every route of
the route table in server/routes.c with the same methods, but the HTML
pages, which are not part of the JSON contract. A route pattern
with {game} that openapi.yaml does not describe as such must be described
for every game on the game table (each game's answers have their own
schema), read from the descriptors in api/<game>/*_json.c. Its ErrorCode enum names
every code of the error table (api/json/errors.c). Prints TAP."""
import os
import re
import subprocess
import sys

root = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
n = 0
failed = 0


def ok(cond, name):
    global n, failed
    n += 1
    failed += 0 if cond else 1
    print('%sok %d - %s' % ('' if cond else 'not ', n, name), flush=True)


spec_path = os.path.join(root, 'openapi.yaml')
with open(spec_path) as f:
    spec = f.read()

# The route table, read from its source.
with open(os.path.join(root, 'server', 'routes.c')) as f:
    source = f.read()
table = source[source.index('const struct route routes[]'):]
table = table[:table.index('};')]
entries = re.findall(r'(?:PLAIN|GAME|SEED|FORM)\(\s*((?:HTTP_[A-Z]+\s*\|?\s*)+),\s*"([^"]+)",\s*\w+,\s*"([^"]+)"', table)
ok(len(entries) >= 3, 'the route table has routes (%d)' % len(entries))
# The HTML pages and their static files (metrics labels page_* and static)
# are for people, not part of the JSON contract (docs/web.md).
pages = [pattern for _, pattern, label in entries if label.startswith('page_') or label == 'static']
ok(all(not p.startswith('/api/') for p in pages), 'no page route under /api/ (%s)' % ', '.join(pages))
routes = [(methods, pattern) for methods, pattern, label in entries if pattern not in pages]

# The paths of openapi.yaml with their methods (top-level `paths:` keys).
paths = {}
current = None
in_paths = False
for line in spec.splitlines():
    if re.match(r'^paths:\s*$', line):
        in_paths = True
        continue
    if in_paths and re.match(r'^\S', line):
        in_paths = False
    if not in_paths:
        continue
    m = re.match(r'^  (/\S*):\s*$', line)
    if m:
        current = m.group(1)
        paths[current] = set()
        continue
    m = re.match(r'^    (get|post|put|delete|patch):\s*$', line)
    if m and current:
        paths[current].add(m.group(1).upper())

# The games: every descriptor's name, and which have the seed's account
# routes (an abandon hook).
games, account_games = [], []
api_dir = os.path.join(root, 'api')
adapters = []
for folder in sorted(os.listdir(api_dir)):
    if os.path.isdir(os.path.join(api_dir, folder)):
        adapters += [os.path.join(api_dir, folder, n)
                     for n in sorted(os.listdir(os.path.join(api_dir, folder))) if n.endswith('_json.c')]
for path in adapters:
    with open(path) as f:
        text = f.read()
    m = re.search(r'const struct game game_\w+ = \{(.*?)\n\};', text, re.S)
    if not m:
        continue
    gname = re.search(r'\.name = "([a-z0-9-]+)"', m.group(1)).group(1)
    games.append(gname)
    if '.abandon =' in m.group(1):
        account_games.append(gname)
ok(len(games) >= 2, 'the game table has games (%s)' % ', '.join(games))

for methods, pattern in routes:
    # HEAD is GET without its body: openapi.yaml describes the GET.
    wanted = {m.strip()[5:] for m in methods.split('|') if m.strip()} - {'HEAD'}
    if '{game}' in pattern and pattern not in paths:
        for g in account_games if pattern.startswith('/games/') else games:
            concrete = pattern.replace('{game}', g)
            ok(concrete in paths and wanted <= paths[concrete],
               'openapi.yaml describes %s %s' % ('|'.join(sorted(wanted)), concrete))
        continue
    ok(pattern in paths and wanted <= paths[pattern],
       'openapi.yaml describes %s %s' % ('|'.join(sorted(wanted)), pattern))

# Every code of the error table (api/json/errors.c) is in the ErrorCode enum.
with open(os.path.join(root, 'api', 'json', 'errors.c')) as f:
    table_codes = re.findall(r'\]\s*=\s*\{\s*"([a-z_]+)",', f.read())
m = re.search(r'^    ErrorCode:\n(?:      .*\n)*?      enum:\n((?:        - [a-z_]+\n)+)', spec, re.M)
enum = re.findall(r'- ([a-z_]+)', m.group(1)) if m else []
ok(len(table_codes) >= 10 and m is not None, 'the error table (%d codes) and the ErrorCode enum (%d) are read'
   % (len(table_codes), len(enum)))
missing = [c for c in table_codes if c not in enum]
ok(not missing, 'the ErrorCode enum names every code of api/json/errors.c' +
   (' (missing: %s)' % ', '.join(missing) if missing else ''))

redocly = os.path.join(here, 'node_modules', '.bin', 'redocly')
if not os.path.exists(redocly):
    ok(False, '@redocly/cli is installed (npm ci --prefix tests/openapi): a linter that cannot run fails')
else:
    p = subprocess.run([redocly, 'lint', spec_path, '--config', os.path.join(root, 'redocly.yaml'),
                        '--format', 'stylish'], capture_output=True, text=True, cwd=root)
    good = p.returncode == 0
    ok(good, 'openapi.yaml passes redocly lint')
    if not good:
        for line in (p.stdout + p.stderr).splitlines()[-40:]:
            print('# ' + line)

print('1..%d' % n)
sys.exit(1 if failed else 0)
