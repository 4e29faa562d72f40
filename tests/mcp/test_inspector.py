#!/usr/bin/env python3
"""The MCP Inspector's CLI against the real daemon, as TAP (suite e2e).

Starts the daemon (tests/e2e/harness.py: loopback, a temporary database)
and runs `mcp-inspector --cli URL --method M` (@modelcontextprotocol/
inspector, locked in package-lock.json; ./dev test installs it) for
tools/list, prompts/list, resources/list (and resources/read of the inline
board), resources/templates/list and
prompts/get: each must exit 0 with the JSON it prints, listing every tool,
a prompt and a rules resource for every game of GET /api/games, and a
prompt's message holding the game's rules. An unknown prompt must fail
with the server's message. The Inspector's own files (it keeps a catalog
under the home directory) go to a temporary home.

The Inspector missing (npm ci --prefix tests/mcp) is a failure, never a
skip.
"""
import json
import os
import shutil
import subprocess
import tempfile

from harness import Daemon, Tap

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(HERE, 'node_modules', '@modelcontextprotocol', 'inspector')
TOOLS = ['list_games', 'get_rules', 'start_run', 'act', 'get_state', 'finish_run', 'get_run',
         'leaderboard', 'quick_match', 'create_match', 'join_match', 'match_move', 'wait_match',
         'create_account', 'my_runs']

tap = Tap()


def inspector_bin():
    """The Inspector's command line entry (its package's bin), or None."""
    try:
        with open(os.path.join(PACKAGE, 'package.json')) as f:
            bins = json.load(f).get('bin') or {}
    except (OSError, ValueError):
        return None
    entry = bins.get('mcp-inspector') if isinstance(bins, dict) else None
    path = os.path.join(PACKAGE, entry) if entry else None
    return path if path and os.path.isfile(path) else None


entry = inspector_bin()
if not tap.ok(entry is not None and shutil.which('node') is not None,
              '@modelcontextprotocol/inspector and node are installed (npm ci --prefix tests/mcp; '
              './dev test does it)'):
    tap.done()

d = Daemon()
url = d.base + '/mcp'
home = tempfile.mkdtemp(prefix='arcaded-inspector-')
env = dict(os.environ, HOME=home, MCP_CATALOG_PATH=os.path.join(home, 'mcp.json'), NO_COLOR='1')


def inspect(method, *args):
    """Runs the CLI for one method: its exit status, its stdout read as
    JSON (None when it is not), and its stderr."""
    p = subprocess.run(['node', entry, '--cli', url, '--transport', 'http', '--method', method] +
                       list(args), capture_output=True, text=True, timeout=60, env=env, cwd=HERE)
    try:
        out = json.loads(p.stdout)
    except ValueError:
        out = None
    return p.returncode, out, p.stderr


def shown(rc, out, err):
    return 'exit %d: %s %s' % (rc, json.dumps(out)[:200] if out is not None else '(no JSON)', err[-300:])


games = [g['name'] for g in d.get('/api/games').json['games']]

rc, out, err = inspect('tools/list')
names = [t.get('name') for t in (out or {}).get('tools', [])]
tap.ok(rc == 0 and out is not None, 'tools/list: exit 0 with JSON (%s)' % shown(rc, out, err))
tap.eq(names, TOOLS, 'tools/list: every tool')

rc, out, err = inspect('prompts/list')
prompts = {p.get('name'): p for p in (out or {}).get('prompts', [])}
tap.ok(rc == 0 and out is not None, 'prompts/list: exit 0 with JSON (%s)' % shown(rc, out, err))
tap.eq(sorted(prompts), sorted(['play_' + g for g in games] + ['play_match']),
       'prompts/list: play_<game> for every game of GET /api/games, and play_match')

rc, out, err = inspect('resources/list')
uris = [r.get('uri') for r in (out or {}).get('resources', [])]
tap.ok(rc == 0 and out is not None, 'resources/list: exit 0 with JSON (%s)' % shown(rc, out, err))
tap.eq(uris, ['arcaded://rules/' + g for g in games] + ['ui://arcaded/board'],
       'resources/list: the rules of every game, and the inline board')

rc, out, err = inspect('resources/read', '--uri', 'ui://arcaded/board')
contents = (out or {}).get('contents') or [{}]
tap.ok(rc == 0 and contents[0].get('mimeType') == 'text/html;profile=mcp-app'
       and contents[0].get('text', '').startswith('<!doctype html>'),
       'resources/read ui://arcaded/board: one HTML document, text/html;profile=mcp-app (exit %d)' % rc)

rc, out, err = inspect('resources/templates/list')
tap.ok(rc == 0 and [t.get('uriTemplate') for t in (out or {}).get('resourceTemplates', [])] ==
       ['arcaded://rules/{game}'], 'resources/templates/list: arcaded://rules/{game} (%s)' % shown(rc, out, err))

for g in games:
    seed = any(a['name'] == 'seed' for a in prompts.get('play_' + g, {}).get('arguments', []))
    rc, out, err = inspect('prompts/get', '--prompt-name', 'play_' + g, *(['--prompt-args', 'seed=7'] if seed else []))
    msgs = (out or {}).get('messages') or [{}]
    text = (msgs[0].get('content') or {}).get('text') or ''
    rules = d.get('/api/games/%s/rules' % g).json['howToPlay']
    tap.ok(rc == 0 and len(msgs) == 1 and msgs[0].get('role') == 'user' and rules in text and
           'start_run' in text and 'finish_run' in text and (not seed or '"seed": 7' in text),
           'prompts/get play_%s%s: the rules and the tools in one user message (%s)'
           % (g, ' seed=7' if seed else '', shown(rc, out, err)))

rc, out, err = inspect('prompts/get', '--prompt-name', 'play_match')
text = (((out or {}).get('messages') or [{}])[0].get('content') or {}).get('text') or ''
tap.ok(rc == 0 and 'create_match' in text and 'match_move' in text and 'wait_match' in text,
       'prompts/get play_match: the match tools (%s)' % shown(rc, out, err))

rc, out, err = inspect('prompts/get', '--prompt-name', 'play_chess')
tap.ok(rc != 0 and 'Unknown prompt: play_chess' in json.dumps(out) + err,
       'prompts/get play_chess fails with the server\'s message (%s)' % shown(rc, out, err))

d.stop()
shutil.rmtree(home, ignore_errors=True)
tap.done()
