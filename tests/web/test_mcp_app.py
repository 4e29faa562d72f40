#!/usr/bin/env python3
"""The inline board of MCP hosts (docs/mcp.md, "An inline board"), as TAP.

Over MCP: the capability of the MCP Apps extension in initialize and in
server/discover; every play tool (the run and match tools) names the
resource in _meta.ui.resourceUri (and the flat ui/resourceUri) in both
revisions, and each such URI resolves with resources/read to one HTML
document of the MIME type SEP-1865 requires, with its _meta.ui.csp
declaring no domain; resources/list lists it; the document loads nothing
from outside and carries its own policy.

Then real results: a run of every game on the table, started and played a
few moves through tools/call, and versus and ActionBlocks matches between
two accounts (their lobby, a move, a wait after the turn resolved). In
Debian's chromium (mcp_app.mjs, playwright-core from tests/web) a page
plays the host for each result: the view must open with ui/initialize
and ui/notifications/initialized, answer a ping, and draw the result: the
cells of a run's well, or of Duskcourt's court, equal to the result's
board (the text board for a game the view has no drawing of), the
figures equal to the state's; each seat of a match with its board and
score. No console error (a refused script or style would be one), no
request. Screenshots go to WEB_OUT. Chromium or the npm packages missing
is a failure, never a skip.
"""
import json
import os
import subprocess
import tempfile

from harness import Daemon, Tap, puzzle_answer

HERE = os.path.dirname(os.path.abspath(__file__))
CHROMIUM = os.environ.get('CHROMIUM', '/usr/bin/chromium')
URI = 'ui://arcaded/board'
MIME = 'text/html;profile=mcp-app'
MODERN = '2026-07-28'
META = {'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': {'name': 'test_mcp_app', 'version': '1'}}
PLAY_TOOLS = {'start_run', 'act', 'get_state', 'finish_run', 'quick_match', 'create_match', 'join_match',
              'match_move', 'wait_match'}
t = Tap()
d = Daemon()


def rpc(method, params=None, key=None, modern=False, name=None):
    body = {'jsonrpc': '2.0', 'id': 1, 'method': method, 'params': dict(params or {})}
    h = {'Accept': 'application/json, text/event-stream'}
    if modern:
        body['params']['_meta'] = META
        h.update({'MCP-Protocol-Version': MODERN, 'Mcp-Method': method})
        if name is not None:
            h['Mcp-Name'] = name
    if key:
        h['Authorization'] = 'Bearer ' + key
    r = d.post('/mcp', body, headers=h)
    return r.json


def call(tool, args, key=None):
    return rpc('tools/call', {'name': tool, 'arguments': args}, key=key)['result']


# ---- the capability, the tools' _meta, the resource ----

init = rpc('initialize', {'protocolVersion': '2025-11-25', 'capabilities': {},
                          'clientInfo': {'name': 'test_mcp_app', 'version': '1'}})['result']
ext = {'io.modelcontextprotocol/ui': {'mimeTypes': [MIME]}}
t.eq(init['capabilities'].get('extensions'), ext, 'initialize declares the MCP Apps extension and its MIME type')
disc = rpc('server/discover', modern=True)['result']
t.eq(disc['capabilities'].get('extensions'), ext, 'server/discover (2026-07-28) declares it too')

html = None
for modern in (False, True):
    era = '2026-07-28' if modern else '2025-11-25'
    tools = rpc('tools/list', modern=modern)['result']['tools']
    linked = {x['name']: x['_meta'] for x in tools if '_meta' in x}
    t.eq(set(linked), PLAY_TOOLS, '%s: the play tools, and only they, carry _meta' % era)
    t.ok(all(m == {'ui': {'resourceUri': URI}, 'ui/resourceUri': URI} for m in linked.values()),
         '%s: each names %s in _meta.ui.resourceUri and the flat ui/resourceUri' % (era, URI))
    for name, m in sorted(linked.items()):
        r = rpc('resources/read', {'uri': m['ui']['resourceUri']}, modern=modern, name=m['ui']['resourceUri'])
        contents = r.get('result', {}).get('contents', [])
        ok = (len(contents) == 1 and contents[0]['uri'] == URI and contents[0]['mimeType'] == MIME
              and contents[0]['text'].startswith('<!doctype html>'))
        t.ok(ok, '%s: %s\'s resourceUri resolves by resources/read: one HTML document, %s' % (era, name, MIME))
        if ok:
            html = contents[0]['text']
            t.eq(contents[0].get('_meta'), {'ui': {'csp': {'connectDomains': [], 'resourceDomains': []},
                                                   'prefersBorder': True}},
                 '%s: %s\'s resource declares no domain in _meta.ui.csp' % (era, name))
    listed = [x for x in rpc('resources/list', modern=modern)['result']['resources'] if x['uri'] == URI]
    t.ok(len(listed) == 1 and listed[0]['mimeType'] == MIME, '%s: resources/list lists it' % era)

if html is None:
    t.ok(False, 'the resource could be read')
    t.done()
low = html.lower()
style = low[low.index('<style>'):low.index('</style>')]
t.ok('<link' not in low and '<script src' not in low and '<img' not in low and '<iframe' not in low
     and 'url(' not in style and '@import' not in style,
     'the document loads nothing: no link, script src, img or frame; no url() or @import in its style '
     '(%d bytes)' % len(html))
t.ok("connect-src 'none'" in html and "script-src 'sha256-" in html and "default-src 'none'" in html,
     'it carries its own policy: its one script and style by hash, no connection')

# ---- real results ----

cases = []
games = call('list_games', {})['structuredContent']['games']
for g in games:
    name = g['name']
    args = {'game': name, 'seed': 7}
    r = call('start_run', args)
    if r['isError']:
        args = {'game': name}
        r = call('start_run', args)
    t.ok(not r['isError'], '%s: start_run' % name)
    handle = r['structuredContent'].get('handle')
    last = ('start_run', args, r)
    for k in range(3):
        sc = r['structuredContent']
        legal = sc.get('legalActions') or []
        if legal:
            action = legal[0]
        elif name == 'stackfall':
            action = 'place 0 %d' % (3 * k)
        else:
            break
        a = {'game': name, 'handle': handle, 'action': action}
        if sc.get('agentCheck'):
            token = sc['agentCheck']['token']
            a['agentCheck'] = {'token': token, 'answer': puzzle_answer(d, token)}
        r = call('act', a)
        if r['isError']:
            break
        last = ('act', a, r)
    cases.append({'name': name, 'tool': last[0], 'args': last[1], 'result': last[2], 'kind': 'run'})


def account(n):
    return d.post('/api/v1/accounts', {'name': n}).json['agentKey']


ka, kb = account('alice'), account('bobby')
for rules, moves in (('versus-v1', ('place 0 0', 'place 1 5')), ('actionblocks-v1', ('keys D', 'keys LLD'))):
    c = call('create_match', {'players': 2, 'seed': 5, 'rules': rules}, ka)
    mid = c['structuredContent']['match_id']
    cases.append({'name': rules + '-lobby', 'tool': 'create_match', 'args': {'players': 2}, 'result': c,
                  'kind': 'match'})
    call('join_match', {'matchId': mid}, kb)
    m = call('match_move', {'matchId': mid, 'turn': 1, 'command': moves[0]}, ka)
    cases.append({'name': rules + '-move', 'tool': 'match_move', 'args': {'matchId': mid}, 'result': m,
                  'kind': 'match'})
    call('match_move', {'matchId': mid, 'turn': 1, 'command': moves[1]}, kb)
    w = call('wait_match', {'matchId': mid, 'afterTurn': 0}, ka)
    t.ok(not w['isError'] and w['structuredContent']['turn'] == 1, '%s: a match played one turn' % rules)
    cases.append({'name': rules, 'tool': 'wait_match', 'args': {'matchId': mid, 'afterTurn': 0}, 'result': w,
                  'kind': 'match'})

# ---- in chromium ----

node_modules = os.path.join(HERE, 'node_modules', 'playwright-core')
if not os.path.isdir(node_modules) or not os.path.exists(CHROMIUM):
    t.ok(False, 'chromium (%s) and playwright-core (npm ci --prefix tests/web) are installed' % CHROMIUM)
    t.done()

with tempfile.TemporaryDirectory() as tmp:
    plan = os.path.join(tmp, 'plan.json')
    res = os.path.join(tmp, 'result.json')
    with open(plan, 'w') as f:
        json.dump({'chromium': CHROMIUM, 'html': html, 'cases': cases, 'out': os.environ.get('WEB_OUT')}, f)
    p = subprocess.run(['node', os.path.join(HERE, 'mcp_app.mjs'), plan, res], capture_output=True, text=True,
                       timeout=240)
    if p.returncode != 0 or not os.path.exists(res):
        t.ok(False, 'mcp_app.mjs ran (%d): %s' % (p.returncode, p.stderr[-2000:]))
        t.done()
    with open(res) as f:
        got = json.load(f)

if not t.ok(got['launch']['ok'], 'chromium started'):
    t.diag(got['launch'].get('error'))
    t.done()


def rows_of(state):
    """The board as the view's cells() reads it, top row first."""
    if isinstance(state.get('board_text'), str):
        return state['board_text'].split('\n')
    b = state.get('board')
    if isinstance(b, list) and b and all(isinstance(r, str) for r in b):
        return b
    if isinstance(b, list) and b and all(isinstance(r, list) for r in b):
        return [''.join('.' if c in (None, 0, '.') else str(c)[0] for c in r) for r in b]
    return None


def figure(v):
    if v is None:
        return '-'
    if isinstance(v, bool):
        return 'yes' if v else 'no'
    if isinstance(v, list):
        return ' '.join(str(x) for x in v) if v else '-'
    return str(v)


for c, g in zip(cases, got['cases']):
    name = c['name']
    if not t.ok(g['ok'], '%s: the view drew the %s result' % (name, c['tool'])):
        t.diag(g.get('error'))
        t.diag(json.dumps(g.get('log'))[:2000])
        continue
    log = [m.get('method') for m in g['log'] if 'method' in m]
    t.ok(log[:2] == ['ui/initialize', 'ui/notifications/initialized']
         and g['log'][0]['params'].get('protocolVersion') == '2026-01-26'
         and any(m.get('id') == 'ping-1' and m.get('result') == {} for m in g['log']),
         '%s: ui/initialize (2026-01-26), then initialized; a ping answered (%s)' % (name, log))
    t.eq(g['errors'], [], '%s: no console error (no refused script or style)' % name)
    t.eq(g['requests'], [], '%s: no request made' % name)
    v = g['drawn']
    t.ok(v['csp'] and "connect-src 'none'" in v['csp'] and not v['external'], '%s: its own policy, nothing loaded'
         % name)
    sc = c['result']['structuredContent']
    if c['kind'] == 'run':
        state = sc['state']
        t.eq(v['kind'], 'run', '%s: drawn as a run' % name)
        t.ok(v['status'] == 'Status: %s' % sc['status'], '%s: its status (%s)' % (name, v['status']))
        rows = rows_of(state)
        if v['view'] == 'court':
            t.eq(v['courtCells'], ','.join('.' if x is None else x for x in state['board']),
                 '%s: the court\'s squares are the result\'s board' % name)
            t.eq(v['figures'].get('Score'), str(state['score']), '%s: the court\'s score' % name)
        elif v['view'] == 'well':
            t.eq(v['wellCells'], ''.join(rows), '%s: the well\'s 200 cells are the result\'s board (%d filled)'
                 % (name, len(''.join(rows).replace('.', ''))))
            shown = {k: figure(x) for k, x in state.items() if k in v['figures']}
            t.ok(shown and all(v['figures'][k] == x for k, x in shown.items())
                 and {'lines', 'pieces'} & set(shown),
                 '%s: the figures are the state\'s (%s)' % (name, ', '.join('%s %s' % kv for kv in shown.items())))
        else:
            t.eq(v['text'], sc.get('boardText', ''), '%s: the board as text' % name)
    else:
        t.eq(v['kind'], 'match', '%s: drawn as a match' % name)
        body = sc['state'] if 'state' in sc else sc
        seats = [body['seat']] if 'seat' in body else body['seats']
        played = [s for s in seats if rows_of(s) is not None]
        t.eq([s['seat'] for s in v['seats']], [s['seat'] for s in played],
             '%s: a card for every seat with a board (%d)' % (name, len(played)))
        for s, shown in zip(played, v['seats']):
            t.ok(shown['cells'] == ''.join(rows_of(s)) and shown['score'] == str(s['score'])
                 and s['account'] in shown['name'],
                 '%s: seat %d (%s): its board (%d filled) and score %s' % (
                     name, s['seat'], s['account'], len(''.join(rows_of(s)).replace('.', '')), s['score']))
        if not played:
            t.ok('lobby' in v['status'], '%s: the lobby said (%s)' % (name, v['status']))

kinds = {c['name']: g['drawn']['view'] for c, g in zip(cases, got['cases']) if g['ok'] and c['kind'] == 'run'}
t.diag('views drawn: %s' % kinds)
d.stop()
t.done()
