"""Requests made of the cases that broke answers before (issue 42), thrown
at a live daemon: every route of the table and the MCP endpoint, with
names and values whose last character before a message's cap is two,
three or four bytes wide, bytes that are no UTF-8, control characters,
deep and wide JSON, bodies near the size limit, and paths with the same.
Whatever comes in, no answer is a 5xx (the outages are not provoked
here), every JSON answer is valid UTF-8 JSON, and MCP answers every
request with a result or an error.

The count is the first argument (the suite runs 100,000 on the plain
build and 5,000 under the sanitizers; suite long another 100,000 of
another seed: ./dev bench long). The generator is seeded, so a
failure names the request that made it.
"""
import json
import random
import sys

from harness import Daemon, Tap

N = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 42
t = Tap()
rng = random.Random(SEED)

GAMES = ['stackfall', 'duskcourt', 'stackcraft', 'hatetris', 'wells', 'hatetris-classic']
WIDE = ['\u00e9', '\u20ac', '\U0001f600', '\u0416']
CAPS = [20, 40, 60, 80, 100]


def text():
    """A string of one of the shapes that matter."""
    k = rng.randrange(8)
    if k == 0:
        cap = rng.choice(CAPS)
        return 'a' * (cap - 1 + rng.randrange(-1, 2)) + rng.choice(WIDE) + rng.choice(['', 'b', '\u20ac'])
    if k == 1:
        return ''.join(rng.choice(WIDE + ['x', '"', '\\', '\n', '\t', '\x01', '\u202e']) for _ in
                       range(rng.randrange(1, 40)))
    if k == 2:
        return rng.choice(['action', 'command', 'stateToken', 'type', 'keys', 'seed', 'name', 'rules',
                           'players', 'turn', 'handle', 'game', 'cap', 'review', 'rating'])
    if k == 3:
        return 'x' * rng.randrange(200, 3000)
    return ''.join(chr(rng.randrange(32, 127)) for _ in range(rng.randrange(0, 20)))


def value(depth=0):
    k = rng.randrange(9 if depth < 4 else 5)
    if k == 0:
        return rng.choice([None, True, False])
    if k == 1:
        return rng.choice([0, 1, -1, 7, 2 ** 53, -2 ** 63, 10 ** 20, 1.5])
    if k in (2, 3, 4):
        return text()
    if k in (5, 6):
        return {text(): value(depth + 1) for _ in range(rng.randrange(0, 6))}
    return [value(depth + 1) for _ in range(rng.randrange(0, 6))]


def path():
    g = rng.choice(GAMES + [text()[:30] or 'x'])
    return rng.choice([
        '/api/games/%s/init' % g, '/api/games/%s/action' % g, '/api/games/%s/state' % g,
        '/api/games/%s/finish' % g, '/api/games/%s/rules' % g, '/api/games/%s/replays/verify' % g,
        '/games/stackfall/api/act', '/api/v1/accounts', '/api/v1/accounts/%s' % g, '/api/matches',
        '/api/matches/quick', '/api/matches/1/move', '/api/matches/1/keys', '/api/matches/replays/verify',
        '/api/runs/%s' % g, '/mcp', '/mcp', '/mcp', '/api/game/%s/init' % g])


def mcp_body():
    method = rng.choice(['tools/call', 'tools/call', 'prompts/get', 'resources/read', 'initialize',
                         'ping', text()])
    params = rng.choice([
        {'name': rng.choice(['start_run', 'act', 'get_state', 'finish_run', 'create_match',
                             'quick_match', 'my_runs', text()]),
         'arguments': {text(): value() for _ in range(rng.randrange(0, 4))}},
        {'name': text()}, {'uri': 'arcaded://' + text()}, value()])
    msg = {'jsonrpc': '2.0', 'method': method, 'params': params}
    if rng.randrange(4):
        msg['id'] = rng.choice([1, 'x', text()])
    return msg


def quote_path(p):
    out = []
    for ch in p:
        if ch.isascii() and (ch.isalnum() or ch in '/-._'):
            out.append(ch)
        else:
            out.extend('%%%02x' % b for b in ch.encode('utf-8', 'surrogatepass'))
    return ''.join(out)


d = Daemon()
bad, not_json, first, statuses = 0, 0, None, {}
conn = d.connection()
try:
    for i in range(N):
        p = path()
        method = 'GET' if rng.randrange(5) == 0 else 'POST'
        body = mcp_body() if p == '/mcp' else {text(): value() for _ in range(rng.randrange(0, 5))}
        raw = json.dumps(body, ensure_ascii=False).encode('utf-8', 'surrogatepass')
        if rng.randrange(10) == 0:
            # Bytes that are no UTF-8 inside a string.
            at = rng.randrange(len(raw) + 1)
            raw = raw[:at] + rng.choice([b'\xff', b'\xc3', b'\xe2\x82', b'\xed\xa0\x80']) + raw[at:]
        headers = {'Content-Type': 'application/json'}
        if p == '/mcp':
            headers.update({'Accept': 'application/json, text/event-stream',
                            'MCP-Protocol-Version': rng.choice(['2025-11-25', '2026-07-28'])})
        try:
            conn.request(method, quote_path(p), body=raw if method == 'POST' else None, headers=headers)
            r = conn.getresponse()
            data = r.read()
        except Exception as e:  # the daemon closed: a new connection, counted
            conn.close()
            conn = d.connection()
            bad += 1
            first = first or (p, repr(e))
            continue
        statuses[r.status] = statuses.get(r.status, 0) + 1
        if r.status >= 500:
            bad += 1
            first = first or (p, r.status, data[:200], raw[:200])
        ctype = r.getheader('Content-Type') or ''
        if 'json' in ctype and data:
            try:
                doc = json.loads(data.decode('utf-8', 'strict'))
            except (UnicodeDecodeError, ValueError):
                not_json += 1
                first = first or (p, r.status, 'not JSON', data[:200])
                doc = None
            # MCP answers a request with a result or an error, never neither.
            if p == '/mcp' and isinstance(doc, dict) and 'id' in doc and 'result' not in doc and \
                    'error' not in doc:
                bad += 1
                first = first or (p, r.status, 'neither result nor error', data[:200], raw[:200])
        if r.getheader('Connection', '').lower() == 'close':
            conn.close()
            conn = d.connection()
    t.diag('statuses: %s' % sorted(statuses.items()))
    t.ok(bad == 0, '%d requests of broken text, seed %d: no 5xx, no MCP answer without result or error, no '
         'dropped connection (%d; first: %r)'
         % (N, SEED, bad, first))
    t.ok(not_json == 0, 'every JSON answer is valid UTF-8 JSON (%d are not)' % not_json)
    t.ok(d.get('/healthz').status == 200 and d.proc.poll() is None, 'the daemon is up after them')
finally:
    conn.close()
    d.cleanup()
t.done()
