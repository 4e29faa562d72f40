#!/usr/bin/env python3
"""openapi.yaml is linted by a real OpenAPI linter (@redocly/cli, installed
by ./dev test from tests/openapi/package-lock.json) and names every route of
the route table in server/routes.c with the same methods. Prints TAP."""
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
routes = re.findall(r'\{\s*((?:HTTP_[A-Z]+\s*\|?\s*)+),\s*"([^"]+)"', table)
ok(len(routes) >= 3, 'the route table has routes (%d)' % len(routes))

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

for methods, pattern in routes:
    wanted = {m.strip()[5:] for m in methods.split('|') if m.strip()}
    ok(pattern in paths and wanted <= paths[pattern],
       'openapi.yaml describes %s %s' % ('|'.join(sorted(wanted)), pattern))

redocly = os.path.join(here, 'node_modules', '.bin', 'redocly')
if not os.path.exists(redocly):
    n += 1
    print('ok %d # skip @redocly/cli is not installed (npm ci --prefix tests/openapi)' % n)
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
