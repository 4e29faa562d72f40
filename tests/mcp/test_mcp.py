#!/usr/bin/env python3
"""POST /mcp end to end, as TAP (suite e2e).

Starts the real daemon (tests/e2e/harness.py) and:

- runs sdk_client.mjs, the official TypeScript SDK's client (protocol
  2025-11-25, StreamableHTTPClientTransport) against it: the tools and
  resources listed, every game's prompt got (its rules and the loop of
  tools) and a run started as one says, a Duskcourt run on seed 7 played to a cleared court
  and finished with a certificate, a Stackcraft run with cap 10 played to
  its end and finished, refusals as isError results; then checks those
  runs over the plain routes (GET the run, verify its replay and its
  certificate), which must know them as ordinary runs;
- speaks the 2026-07-28 revision with raw HTTP: server/discover, the
  header checks (-32020) and versions (-32022), a tool call, prompts/list
  and prompts/get with Mcp-Name, unknown tools, prompts and methods, GET 405, a batch refused, Origin checks (403), and the
  agent check, the Bearer key and the rate limits reaching the inner
  routes as they reach the REST ones;
- a versus match's long poll (wait_match) answered through the tool after
  the request was suspended.

The SDK missing (npm ci --prefix tests/mcp) is a failure, never a skip.
"""
import base64
import json
import os
import subprocess
import sys
import threading
import time

from harness import Daemon, Tap, binary, puzzle_answer, raw_exchange

HERE = os.path.dirname(os.path.abspath(__file__))
MODERN = '2026-07-28'
META = {'io.modelcontextprotocol/protocolVersion': MODERN,
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': {'name': 'raw', 'version': '1'}}

tap = Tap()

if not os.path.isdir(os.path.join(HERE, 'node_modules', '@modelcontextprotocol', 'sdk')):
    tap.ok(False, '@modelcontextprotocol/sdk is installed (npm ci --prefix tests/mcp; ./dev test does it)')
    tap.done()

d = Daemon(args=['--mcp-origin', 'https://play.example.org'])


def rpc(method, params=None, headers=None, msg_id=1, modern=True, raw=None, name=None, conn=None):
    """One JSON-RPC request to /mcp; a modern one carries _meta and the
    three headers unless headers overrides them (None values drop one)."""
    body = {'jsonrpc': '2.0', 'id': msg_id, 'method': method, 'params': dict(params or {})}
    h = {}
    if modern:
        body['params']['_meta'] = META
        h = {'MCP-Protocol-Version': MODERN, 'Mcp-Method': method}
        if name is not None:
            h['Mcp-Name'] = name
    h.update(headers or {})
    h = {k: v for k, v in h.items() if v is not None}
    h.setdefault('Accept', 'application/json, text/event-stream')
    return d.post('/mcp', body if raw is None else None, raw=raw, headers=h, conn=conn)


def call(tool, args, headers=None, modern=True):
    return rpc('tools/call', {'name': tool, 'arguments': args}, headers=headers, modern=modern, name=tool)


def sc(r):
    return r.json['result']['structuredContent']


# ---- the official SDK client ----

p = subprocess.run(['node', os.path.join(HERE, 'sdk_client.mjs'), d.base + '/mcp', binary()],
                   capture_output=True, text=True, timeout=240, cwd=HERE)
try:
    sdk = json.loads(p.stdout.strip().splitlines()[-1])
except (ValueError, IndexError):
    sdk = {'checks': [{'ok': False, 'name': 'sdk_client.mjs printed its report (exit %d): %s' %
                       (p.returncode, (p.stderr or p.stdout)[-800:])}], 'runs': {}}
for c in sdk['checks']:
    tap.ok(c['ok'], 'SDK: ' + c['name'])
tap.ok(len(sdk['checks']) >= 40, 'the SDK client made its checks (%d)' % len(sdk['checks']))
for game, size in sorted(sdk.get('sizes', {}).items()):
    tap.diag('%s: %d calls, %d bytes of text, %d a call' % (game, size['calls'], size['bytes'],
                                                          size['bytes'] // max(size['calls'], 1)))

# The SDK's runs are ordinary runs: the plain routes know them.
for game in ('duskcourt', 'stackcraft'):
    run = sdk['runs'].get(game)
    if not tap.ok(run is not None, '%s: the SDK client reported its run' % game):
        continue
    r = d.get('/api/games/%s/runs/%s' % (game, run['runId']))
    tap.ok(r.status == 200 and r.json['certificate'] == run['certificate'] and r.json['replay'] is not None,
           '%s: GET the run shows the certificate finish_run gave, and its replay' % game)
    v = d.post('/api/games/%s/replays/verify' % game, {'replay': r.json['replay'],
                                                      'certificate': run['certificate']})
    tap.ok(v.status == 200 and v.json.get('valid') is True and v.json['certificate']['valid'] is True,
           '%s: the replay and the certificate verify on the plain route: %s' % (game, v.body[:200]))
    tap.eq(v.json.get('final'), r.json['replay']['final'], '%s: the verified final is the stored one' % game)
    if game == 'duskcourt':
        tap.ok(r.json['replay']['seed'] == 7 and r.json['score'] == run['score'] and
               r.json['review']['rating'] == 9, 'duskcourt: seed 7, the score and the review as played')
    else:
        tap.ok(len(r.json['replay']['actions']) == 10 and r.json['replay']['cap'] == 10,
               'stackcraft: 10 actions and cap 10 in the replay')
lb = d.get('/api/games/duskcourt/leaderboard?seed=7')
tap.ok(lb.status == 200 and any(e['runId'] == sdk['runs'].get('duskcourt', {}).get('runId')
                                for e in lb.json['entries']),
       'the plain leaderboard of seed 7 lists the run played over MCP')

# ---- 2026-07-28, raw HTTP ----

r = rpc('server/discover')
res = r.json.get('result', {})
tap.ok(r.status == 200 and r.header('Content-Type').startswith('application/json') and
       res.get('resultType') == 'complete' and MODERN in res.get('supportedVersions', []) and
       '2025-11-25' in res['supportedVersions'] and 'start_run' in res.get('instructions', '') and
       res.get('serverInfo', {}).get('name') == 'arcaded' and 'tools' in res.get('capabilities', {}) and
       'prompts' in res['capabilities'],
       'server/discover: resultType complete, both eras, capabilities (prompts too), serverInfo, instructions')
tap.ok(r.header('Mcp-Session-Id') is None, 'no Mcp-Session-Id is handed out')

r = rpc('tools/list')
tools = {t['name']: t for t in r.json['result']['tools']}
tap.ok(r.status == 200 and r.json['result']['resultType'] == 'complete' and len(tools) == 15,
       'tools/list (modern): 15 tools, resultType complete')
games = [g['name'] for g in d.get('/api/games').json['games']]
tap.eq(tools['start_run']['inputSchema']['properties']['game']['enum'], games,
       "the game enum is GET /api/games's list")

r = call('start_run', {'game': 'duskcourt', 'seed': 7})
res = r.json.get('result', {})
s = res.get('structuredContent', {})
tap.ok(r.status == 200 and res.get('resultType') == 'complete' and res.get('isError') is False and
       s.get('status') == 'playing' and s['state']['seed'] == 7 and len(res['content']) == 1 and
       res['content'][0]['type'] == 'text' and s['stateToken'] not in res['content'][0]['text'] and
       s['handle'].startswith(s['runId'] + '-') and len(s['handle']) <= 32 and
       ('"handle": "%s"' % s['handle']) in res['content'][0]['text'],
       'tools/call start_run (modern): a run result, its handle, and one text block with the handle, '
       'not the token')
plain = d.get('/api/games/duskcourt/runs/%s' % s['runId'])
tap.ok(plain.status == 200 and plain.json['status'] == 'playing', 'the plain route knows the MCP run')
tok = s['stateToken']

r = call('act', {'game': 'duskcourt', 'stateToken': tok, 'action': {'type': 'capture', 'from': 4, 'to': 0}})
tap.ok(r.status == 200 and sc(r)['state']['captures'] == 1, 'act with the game\'s own action object')
r2 = d.post('/api/games/duskcourt/action', {'stateToken': sc(r)['stateToken'],
                                            'action': {'type': 'capture', 'from': 0, 'to': 3}})
tap.ok(r2.status == 200 and r2.json['state']['phase'] == 'break',
       'the token an MCP result hands out plays on the REST route')

# The name in the sentinel form is decoded before it is compared.
enc = '=?base64?' + base64.b64encode(b'list_games').decode() + '?='
r = rpc('tools/call', {'name': 'list_games', 'arguments': {}}, name=enc)
tap.ok(r.status == 200 and 'result' in r.json, 'Mcp-Name in the =?base64?...?= form is decoded: %s' % r.body[:120])

# Header checks: each mismatch is 400 HeaderMismatch, and nothing runs.
runs_before = d.sql('SELECT COUNT(*) FROM runs')[0][0]
cases = [
    ('Mcp-Method names another method', {'Mcp-Method': 'tools/list'}, 'act'),
    ('Mcp-Name names another tool', {'Mcp-Name': 'get_state'}, None),
    ('Mcp-Name is missing', {'Mcp-Name': None}, None),
    ('Mcp-Method is missing', {'Mcp-Method': None}, None),
    ('MCP-Protocol-Version is missing', {'MCP-Protocol-Version': None}, None),
    ('MCP-Protocol-Version differs from _meta', {'MCP-Protocol-Version': '2025-11-25'}, None),
    ('Mcp-Name does not decode', {'Mcp-Name': '=?base64?!!!?='}, None),
]
for label, hdrs, _ in cases:
    r = rpc('tools/call', {'name': 'start_run', 'arguments': {'game': 'duskcourt'}}, name='start_run',
            headers=hdrs, msg_id=label)
    tap.ok(r.status == 400 and r.json.get('error', {}).get('code') == -32020 and r.json.get('id') == label,
           '%s: 400 -32020 HeaderMismatch: %s' % (label, r.body[:160]))
tap.eq(d.sql('SELECT COUNT(*) FROM runs')[0][0], runs_before, 'no refused request started a run')

body = {'jsonrpc': '2.0', 'id': 5, 'method': 'tools/list',
        'params': {'_meta': dict(META, **{'io.modelcontextprotocol/protocolVersion': '1900-01-01'})}}
r = d.post('/mcp', body, headers={'MCP-Protocol-Version': '1900-01-01', 'Mcp-Method': 'tools/list'})
err = r.json.get('error', {})
tap.ok(r.status == 400 and err.get('code') == -32022 and err.get('data', {}).get('requested') == '1900-01-01'
       and MODERN in err['data'].get('supported', []),
       'an unsupported _meta version: 400 -32022 listing the supported ones: %s' % r.body[:200])
r = rpc('tools/list', modern=False, headers={'MCP-Protocol-Version': '2024-01-01'})
tap.ok(r.status == 400 and r.json['error']['code'] == -32022, 'an unsupported header version: 400 -32022')
r = rpc('tools/list', modern=False, headers={'MCP-Protocol-Version': MODERN})
tap.ok(r.status == 400 and r.json['error']['code'] == -32020,
       'a 2026-07-28 header on a body without _meta: 400 -32020')
meta = dict(META)
del meta['io.modelcontextprotocol/clientCapabilities']
r = d.post('/mcp', {'jsonrpc': '2.0', 'id': 6, 'method': 'tools/list', 'params': {'_meta': meta}},
           headers={'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/list'})
tap.ok(r.status == 200 and r.json['error']['code'] == -32602,
       'a modern request without clientCapabilities: -32602')

r = call('no_such_tool', {})
tap.ok(r.json.get('error', {}).get('code') == -32602 and 'Unknown tool' in r.json['error']['message'],
       'an unknown tool: JSON-RPC error -32602')


def tool_error(r, *words):
    """A tool error (SEP-1303): a result with isError, invalid_arguments,
    whose text names every word."""
    res = r.json.get('result') or {}
    text = (res.get('content') or [{}])[0].get('text', '')
    return (r.status == 200 and res.get('isError') is True and
            res['structuredContent']['error']['code'] == 'invalid_arguments' and all(w in text for w in words))


r = call('start_run', {'game': 'duskcourt', 'colour': 'red'})
tap.ok(tool_error(r, "unknown argument 'colour'", "start_run takes 'game'"),
       'an unknown argument: a tool error naming it and what start_run takes')
r = call('start_run', {'game': 'duskcourt', 'seed': 'seven'})
tap.ok(tool_error(r, "'seed' must be an integer"), 'an argument of the wrong type: a tool error')
r = call('get_run', {'game': 'duskcourt', 'runId': '../../healthz'})
tap.ok(tool_error(r, "'runId'"), 'an id that is no id never reaches a path: a tool error')
r = rpc('nothing/here')
tap.ok(r.status == 404 and r.json['error']['code'] == -32601, 'an unknown method (modern): 404 -32601')

# ---- prompts, in the modern era ----
r = rpc('prompts/list')
res = r.json.get('result', {})
tap.ok(r.status == 200 and res.get('resultType') == 'complete' and
       [p['name'] for p in res.get('prompts', [])] == ['play_' + g for g in games] + ['play_match'] and
       isinstance(res.get('ttlMs'), int) and res.get('cacheScope') == 'public' and 'nextCursor' not in res,
       'prompts/list (modern): play_<game> in the table\'s order and play_match, one page, caching hints')
r = rpc('prompts/list', {'cursor': 'page-2'})
tap.ok(r.status == 200 and r.json.get('error', {}).get('code') == -32602, 'a cursor never handed out: -32602')
rules = d.get('/api/games/duskcourt/rules').json
r = rpc('prompts/get', {'name': 'play_duskcourt', 'arguments': {'seed': '7'}}, name='play_duskcourt')
res = r.json.get('result', {})
text = ((res.get('messages') or [{}])[0].get('content') or {}).get('text', '')
tap.ok(r.status == 200 and res.get('resultType') == 'complete' and res.get('description') ==
       'Play a game of Duskcourt' and rules['howToPlay'] in text and
       'start_run with {"game": "duskcourt", "seed": 7}' in text,
       'prompts/get play_duskcourt seed 7 (modern): the rules, and start_run with the seed')
r = rpc('prompts/get', {'name': 'play_duskcourt'}, name='play_stackfall')
tap.ok(r.status == 400 and r.json['error']['code'] == -32020, 'Mcp-Name naming another prompt: 400 -32020')
r = rpc('prompts/get', {'name': 'play_duskcourt'})
tap.ok(r.status == 400 and r.json['error']['code'] == -32020, 'a modern prompts/get without Mcp-Name: 400 -32020')
for label, params, word in (('an unknown prompt', {'name': 'play_chess'}, 'play_chess'),
                            ('a seed out of range', {'name': 'play_duskcourt', 'arguments': {'seed': '-1'}}, 'seed'),
                            ('a seed for a seedless game', {'name': 'play_hatetris', 'arguments': {'seed': '1'}},
                             'seed'),
                            ('an argument that is no string', {'name': 'play_wells', 'arguments': {'width': 4}},
                             'width'),
                            ('arguments that are no object', {'name': 'play_wells', 'arguments': ['4']}, 'arguments')):
    r = rpc('prompts/get', params, name=params['name'])
    e = r.json.get('error', {})
    tap.ok(r.status == 200 and e.get('code') == -32602 and word in e.get('message', ''),
           'prompts/get with %s: -32602 naming %s (%s)' % (label, word, e.get('message')))
r = rpc('prompts/get', {}, modern=False)
e = r.json.get('error', {})
tap.ok(e.get('code') == -32602 and 'name' in e.get('message', ''), 'prompts/get without a name: -32602 (%s)'
       % e.get('message'))
r = rpc('initialize', {'protocolVersion': MODERN})
tap.ok(r.status == 404 and r.json['error']['code'] == -32601, 'initialize is no 2026-07-28 method: 404 -32601')



def http_refusal(r, status, code):
    """A refusal of the HTTP front on /mcp as a JSON-RPC error: its
    status kept, the REST envelope in data."""
    e = (r.json or {}).get('error') or {}
    data = e.get('data') or {}
    return (r.status == status and r.json.get('jsonrpc') == '2.0' and 'id' not in r.json and
            e.get('code') == -32000 and isinstance(e.get('message'), str) and
            data.get('status') == status and data.get('error', {}).get('code') == code)


r = d.get('/mcp')
tap.ok(r.status == 405 and r.header('Allow') == 'POST', 'GET /mcp: 405 with Allow: POST')
tap.ok(http_refusal(r, 405, 'method_not_allowed'), 'as a JSON-RPC error (-32000, the envelope in data): %s'
       % r.body[:200])
r = d.request('DELETE', '/mcp')
tap.ok(http_refusal(r, 405, 'method_not_allowed'), 'DELETE /mcp: 405, a JSON-RPC error')
r = d.post('/mcp', raw=b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]')
tap.ok(r.status == 400 and r.json['error']['code'] == -32600 and 'batch' in r.json['error']['message'],
       'a batch: 400 -32600')
r = d.post('/mcp', raw=b'{"jsonrpc":"2.0","id":1,')
tap.ok(r.status == 400 and r.json['error']['code'] == -32700, 'not JSON: 400 -32700')
r = d.post('/mcp', {'jsonrpc': '1.0', 'id': 1, 'method': 'ping'})
tap.ok(r.status == 400 and r.json['error']['code'] == -32600, 'jsonrpc 1.0: 400 -32600')
r = d.post('/mcp', {'jsonrpc': '2.0', 'id': None, 'method': 'ping'})
tap.ok(r.status == 400 and r.json['error']['code'] == -32600, 'a null id: 400 -32600')
r = d.post('/mcp', {'jsonrpc': '2.0', 'method': 'notifications/initialized'})
tap.ok(r.status == 202 and r.body == '', 'a notification: 202 without a body')
r = d.post('/mcp', raw=b'{"jsonrpc":"2.0","id":1,"method":"ping"}', headers={'Content-Type': 'text/plain'})
tap.ok(http_refusal(r, 415, 'unsupported_media_type'), 'a body that is not declared JSON: 415, a JSON-RPC error')
big = json.dumps({'jsonrpc': '2.0', 'id': 1, 'method': 'ping', 'params': {'pad': 'x' * 70000}}).encode()
r = d.post('/mcp', raw=big)
tap.ok(http_refusal(r, 413, 'payload_too_large'), 'a body over --max-body: 413, a JSON-RPC error')
r = d.get('/api/games')
tap.ok(r.status == 200 and 'jsonrpc' not in r.json, 'the REST routes keep their envelope')

for origin, want in (('http://evil.example', 403), ('http://localhost:%d' % d.port, 200),
                     ('http://127.0.0.1:%d' % d.port, 200), ('http://127.0.0.1:1', 403),
                     ('https://play.example.org', 200), ('https://play.example.org.evil', 403),
                     ('null', 403)):
    r = rpc('tools/list', headers={'Origin': origin})
    tap.ok(r.status == want, 'Origin %s: %d (%d)' % (origin, want, r.status))
    if want == 403:
        tap.ok(r.json.get('error', {}).get('code') == -32600 and 'id' not in r.json,
               'the 403 carries a JSON-RPC error without an id')

# resources, in the modern era
r = rpc('resources/read', {'uri': 'arcaded://rules/stackcraft'}, name='arcaded://rules/stackcraft')
rules = d.get('/api/games/stackcraft/rules').json
tap.ok(r.status == 200 and r.json['result']['contents'][0]['text'] == rules['howToPlay'],
       'resources/read arcaded://rules/stackcraft is the rules\' howToPlay')
r = rpc('resources/read', {'uri': 'arcaded://rules/chess'}, name='arcaded://rules/chess')
tap.ok(r.json.get('error', {}).get('code') == -32602, 'an unknown resource: -32602')

# ---- the agent check, the key and the short strings, through the same pipeline ----

r = call('start_run', {'game': 'stackfall', 'seed': 3})
s = sc(r)
ac = s.get('agentCheck')
tap.ok(isinstance(ac, dict) and ac['puzzle'] and ac['token'].startswith('ac_') and ac['puzzle'] in
       r.json['result']['content'][0]['text'], 'a Stackfall result carries the puzzle, in the text too')
r = call('act', {'game': 'stackfall', 'stateToken': s['stateToken'], 'action': 'place 1 4'})
e = sc(r)
tap.ok(r.json['result']['isError'] is True and e['error']['code'] == 'agent_check_required' and
       e['error']['status'] == 428 and e.get('agentCheck', {}).get('token', '').startswith('ac_'),
       'no answer: isError 428 agent_check_required with a fresh puzzle')
ans = puzzle_answer(d, e['agentCheck']['token'])
r = call('act', {'game': 'stackfall', 'stateToken': s['stateToken'], 'action': 'place 1 4',
                 'agentCheck': {'token': e['agentCheck']['token'], 'answer': ans}})
s2 = sc(r)
tap.ok(r.json['result']['isError'] is False and s2['state']['pieces'] == 1 and s2['results'] and
       s2['boardText'] == s2['state']['board_text'],
       "'place 1 4' with the answer in agentCheck places a Stackfall piece: %s" % r.body[:200])

h = d.post('/api/v1/accounts', {'name': 'mcp_player'}).json['agentKey']
key = {'Authorization': 'Bearer ' + h}
r = call('start_run', {'game': 'hatetris', 'depth': 1}, headers=key)
s = sc(r)
tap.ok(r.json['result']['isError'] is False and s['state']['depth'] == 1, 'start_run hatetris with a Bearer key')
plain = d.get('/api/games/hatetris/runs/%s' % s['runId'])
tap.eq(plain.json.get('account'), 'mcp_player', 'the key attributes the MCP run to its account')
r = call('act', {'game': 'hatetris', 'stateToken': s['stateToken'], 'action': 'options'})
tap.ok(r.json['result']['isError'] is True and sc(r)['error']['code'] == 'unauthorized' and
       sc(r)['error']['status'] == 401, 'without the key, the owner\'s run is isError 401')
r = call('act', {'game': 'hatetris', 'stateToken': s['stateToken'], 'action': 'options'}, headers=key)
tap.ok(r.json['result']['isError'] is False and sc(r)['results'][0].get('options'),
       "'options' as a HATETRIS command, with the key: the placements")
r = call('act', {'game': 'hatetris', 'stateToken': s['stateToken'], 'action': 'options'},
         headers={'Authorization': 'Bearer arcd_nonsense'})
tap.ok(r.json['result']['isError'] is True and sc(r)['error']['status'] == 401, 'a malformed key: isError 401')

r = call('act', {'game': 'duskcourt', 'stateToken': 'v4.local.garbage', 'action': 'next'})
tap.ok(r.json['result']['isError'] is True and sc(r)['error']['code'] == 'invalid_state_token',
       'a token that does not open: isError invalid_state_token')
r = call('start_run', {'game': 'hatetris', 'seed': 4})
tap.ok(r.json['result']['isError'] is True and sc(r)['error']['status'] == 400,
       'a seed for a seedless game: the route\'s 400, as isError')
r = call('finish_run', {'game': 'duskcourt', 'stateToken': tok})
tap.ok(tool_error(r, "missing argument 'rating'", 'duskcourt run ', 'legal actions:') and
       sc(r).get('state', {}).get('phase') is not None,
       'finish_run without a rating: a tool error naming it, beside the run as it stands: %r'
       % r.json.get('result', r.json)['content'][0]['text'][:300])

# ---- legacy requests need no initialize: each POST stands alone ----
r = call('list_games', {}, modern=False, headers={'MCP-Protocol-Version': '2025-11-25'})
tap.ok(r.status == 200 and 'resultType' not in r.json['result'] and
       r.json['result']['structuredContent']['games'], 'a 2025-11-25 tools/call without initialize')

# ---- a long poll through a tool: the suspended request answers through the wrap ----
k1 = {'Authorization': 'Bearer ' + d.post('/api/v1/accounts', {'name': 'mcp_vs_a'}).json['agentKey']}
k2 = {'Authorization': 'Bearer ' + d.post('/api/v1/accounts', {'name': 'mcp_vs_b'}).json['agentKey']}
r = call('create_match', {'players': 2, 'turnSeconds': 30, 'seed': 7}, headers=k1)
mid = sc(r).get('match_id')
tap.ok(r.json['result']['isError'] is False and mid, 'create_match: a lobby')
r = call('create_match', {'players': 2, 'rated': True}, headers=k1)
tap.ok(tool_error(r, "unknown argument 'rated'"),
       'create_match with rated: a tool error, no such argument (a created match is never rated)')
ruleset = tools['create_match']['inputSchema']['properties']['rules']['enum'][-1]
r = call('create_match', {'players': 2, 'rules': ruleset}, headers=k1)
tap.ok(r.json['result']['isError'] is False and sc(r).get('rules') == ruleset,
       'create_match with rules %s (its enum\'s last): a lobby of that ruleset' % ruleset)
other = sc(r).get('match_id')
r = call('join_match', {'matchId': other}, headers=k2)
text = r.json['result']['content'][0]['text']
tap.ok(r.json['result']['isError'] is False and ('%s match %s: playing' % (ruleset, other)) in text and
       'seat 1 mcp_vs_b (you):' in text and "seat 0's board:" in text and 'pending garbage 0' in text and
       ('"turn": 1' in text) and '{"match_id"' not in text,
       'join_match of the %s match: its text draws the match, each seat\'s board, what to send: %r'
       % (ruleset, text[:300]))

# ---- create_match's items argument: the item settings, judged by the route ----
ki = {'Authorization': 'Bearer ' + d.post('/api/v1/accounts', {'name': 'mcp_items'}).json['agentKey']}
tools = {x['name']: x for x in rpc('tools/list', {}, name='tools/list').json['result']['tools']}
schema = tools['create_match']['inputSchema']['properties'].get('items', {})
tap.ok(schema.get('type') == ['boolean', 'object'] and
       schema['properties']['weights']['minItems'] == 6 == schema['properties']['weights']['maxItems'],
       'tools/list: create_match takes items, a boolean or {chance, weights} (six weights)')
for args, want in (({'items': True}, {'chance': 10, 'weights': [1] * 6}),
                   ({'items': False}, False),
                   ({'items': {'chance': 100, 'weights': [0, 0, 0, 0, 1, 0]}},
                    {'chance': 100, 'weights': [0, 0, 0, 0, 1, 0]}),
                   ({'items': {'weights': [0, 3, 0, 0, 0, 1]}}, {'chance': 10, 'weights': [0, 3, 0, 0, 0, 1]}),
                   ({'items': {'chance': 0}}, False)):
    r = call('create_match', dict({'players': 2}, **args), headers=ki)
    got = sc(r).get('items', 'absent') if r.json['result']['isError'] is False else 'refused'
    shown = d.get('/api/matches/%s' % sc(r).get('match_id')).json.get('items') if got != 'refused' else None
    tap.ok(got == want and shown == want, 'create_match %s: a lobby with items %s (%s)' % (args, want, got))
for args, field in (({'items': {'weights': [0] * 6}}, 'item_weights'),
                    ({'items': {'chance': 101}}, 'item_chance'),
                    ({'items': {'chance': 5, 'odds': 1}}, 'items'),
                    ({'items': {}}, 'items'),
                    ({'items': 'yes'}, 'items')):
    r = call('create_match', dict({'players': 2}, **args), headers=ki)
    text = json.dumps(r.json)
    refused = (r.json.get('result') or {}).get('isError') is True or 'error' in r.json
    tap.ok(refused and field in text, 'create_match %s: refused, naming %s (%s)' % (args, field, text[:200]))
r = call('join_match', {'matchId': mid}, headers=k2)
tap.ok(sc(r).get('match', sc(r)).get('status') == 'playing' or sc(r).get('status') == 'playing',
       'join_match fills the last seat: the match plays')
waited = {}


def poll():
    waited['r'] = rpc('tools/call', {'name': 'wait_match', 'arguments': {'matchId': mid, 'afterTurn': 0}},
                      name='wait_match', headers=k1, conn=d.connection(timeout=40))


t = threading.Thread(target=poll)
t.start()
t.join(0.5)
tap.ok(t.is_alive(), 'wait_match waits while the turn is open')
r = call('match_move', {'matchId': mid, 'turn': 1, 'command': 'place 0 3'}, headers=k1)
tap.ok(r.json['result']['isError'] is False and sc(r)['resolved'] is False, 'match_move: the first move is in')
first = sc(r)
r = call('match_move', {'matchId': mid, 'turn': 1, 'command': 'place 0 3'}, headers=k1)
def timeless(a):
    return dict(a, state=dict(a.get('state') or {}, deadline_in_ms=None))


tap.ok(r.json['result']['isError'] is False and timeless(sc(r)) == timeless(first),
       'the same move sent again (a resend): its first answer (the time left aside)')
r = call('match_move', {'matchId': mid, 'turn': 1, 'command': 'place 0 4'}, headers=k1)
tap.ok(r.json['result']['isError'] is True and sc(r)['error']['code'] == 'already_moved',
       'another move for the turn: isError already_moved')
r = call('match_move', {'matchId': mid, 'turn': 1, 'command': 'place 0 3'}, headers=k2)
tap.ok(r.json['result']['isError'] is False and sc(r)['resolved'] is True, 'the last move resolves the turn')
t.join(30)
w = waited.get('r')
tap.ok(w is not None and w.status == 200 and w.json['result']['isError'] is False and
       w.json['result']['structuredContent']['turn'] == 1,
       'wait_match answers after the turn resolved, through the tool: %s' % (w.body[:160] if w else None))
text = w.json['result']['content'][0]['text'] if w is not None else ''
tap.ok('versus-v1 match %s: playing' % mid in text and 'you are seat 0' in text and
       'seat 0 mcp_vs_a (you):' in text and 'pending garbage 0' in text and 'last turn 1:' in text and
       '"turn": 2' in text and '{"match_id"' not in text,
       'the wait_match text is the match drawn: the turn, your seat, every seat\'s figures, the last turn, '
       'what to send: %r' % text[:400])

d.stop()

# ---- the inner route's rate class is charged, as on the route ----
d = Daemon(rate_limits=True, args=['--rate-limit', 'runs=1/m:2,reads=off,moves=off,puzzles=off'])
results = [call('start_run', {'game': 'duskcourt'}) for _ in range(2)]
tap.ok(all(sc(x)['status'] == 'playing' for x in results), 'two runs fit the burst of 2')
r = call('start_run', {'game': 'duskcourt'})
e = sc(r)
tap.ok(r.status == 200 and r.json['result']['isError'] is True and e['error']['code'] == 'rate_limited' and
       e['error']['status'] == 429 and e['error']['ratelimit']['key'] == 'address',
       'the third start_run pays the runs class: isError 429 rate_limited: %s' % r.body[:200])
r = d.post('/api/games/duskcourt/init', {})
tap.ok(r.status == 429, 'the REST init shares the class: 429 as well')
r = rpc('tools/list')
tap.ok(r.status == 200 and 'result' in r.json, 'tools/list is a read, not a run')
r = call('list_games', {})
tap.ok(r.json['result']['isError'] is False, 'list_games is a read, not a run')
d.stop()

# ---- a method over the reads limit: 429 with Retry-After, a JSON-RPC error ----
d = Daemon(rate_limits=True, refusal_hold=True,
           args=['--rate-limit', 'reads=1/m:1,moves=off,runs=off,puzzles=off'])
first = rpc('tools/list')
r = rpc('tools/list')
e = (r.json or {}).get('error') or {}
tap.ok(first.status == 200 and http_refusal(r, 429, 'rate_limited') and r.header('Retry-After') and
       e['data'].get('ratelimit', {}).get('key') == 'address',
       'the second tools/list is over the reads limit: 429 with Retry-After, a JSON-RPC error with the '
       'ratelimit in data: %s' % r.body[:240])
# Out of reads, a client is turned away at the headers: the daemon answers
# before a byte of the body it declared arrives, so a flood of large
# messages from one address costs it no reading (RESULTS.md, "One address
# flooding /mcp").
t0 = time.monotonic()
head = raw_exchange(d.port, b'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n'
                    b'Accept: application/json, text/event-stream\r\nContent-Length: 63488\r\n\r\n')
late = time.monotonic() - t0
tap.ok(head.startswith(b'HTTP/1.1 429') and b'Retry-After' in head and 0.9 <= late < 4,
       'a third message, its 62 KB body declared but never sent, is answered 429 at the headers, '
       'held a second first (server/tarpit.h), then the connection closes: %r after %.2f s'
       % (head[:60], late))
d.stop()

# ---- an act over the moves limit: isError 429, and the run as it stands ----
d = Daemon(rate_limits=True, args=['--rate-limit', 'moves=1/m:1,reads=off,runs=off,puzzles=off'])
run = sc(call('start_run', {'game': 'duskcourt', 'seed': 7}))
cap = next(a for a in run['legalActions'] if a['type'] == 'capture')
first = sc(call('act', {'game': 'duskcourt', 'stateToken': run['stateToken'], 'action': cap}))
tap.ok(first.get('error') is None, 'the first act fits the burst of 1: %s' % json.dumps(first)[:300])
r = call('act', {'game': 'duskcourt', 'stateToken': first['stateToken'], 'action': 'next'})
e = sc(r)
tap.ok(r.json['result']['isError'] is True and e.get('error', {}).get('status') == 429 and
       e.get('stateToken') == first['stateToken'] and e.get('state') == first['state'],
       'the second act is over the moves limit: isError 429 with the newest token and the state as '
       'it stands: %s' % r.body[:240])
g = d.get('/api/games/duskcourt/runs/' + run['runId'])
moves = g.json.get('moves') if g.status == 200 else None
tap.ok((moves if isinstance(moves, int) else len(moves or [0, 0])) == 1,
       'the refused act stored nothing: the run has its one move (%r)' % (moves,))
d.stop()
tap.done()
