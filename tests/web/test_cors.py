#!/usr/bin/env python3
"""CORS on POST /mcp (docs/mcp.md, "Origin"), as TAP.

Over HTTP: a preflight (OPTIONS /mcp) from an Origin the operator lists
(--mcp-origin) is 204 with the method, the protocol's request headers and
the origin; one from any other Origin is 403 with no CORS header; a
preflight is answered before keys and rate limits (a client out of reads
still gets its preflights); every answer to the listed origin, refusals
included, carries Access-Control-Allow-Origin, Vary and the headers a page
may read; other routes are unchanged (OPTIONS is 405 there).

In Debian's chromium (cors.mjs, playwright-core from tests/web): a page of
the listed origin calls /mcp with headers that need a preflight and reads
the answer, its status and its X-Request-Id, the refusal of a bad key
included; a page of another origin cannot (fetch fails). Chromium or the
npm packages missing is a failure, never a skip.
"""
import http.server
import json
import os
import subprocess
import tempfile
import threading

from harness import Daemon, Tap

HERE = os.path.dirname(os.path.abspath(__file__))
CHROMIUM = os.environ.get('CHROMIUM', '/usr/bin/chromium')
t = Tap()


class Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        page = b'<!doctype html><title>another site</title>'
        self.send_response(200)
        self.send_header('Content-Type', 'text/html')
        self.send_header('Content-Length', str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def log_message(self, *args):
        pass


def site():
    """A page on loopback, on a port of its own: an origin other than the daemon's."""
    s = http.server.ThreadingHTTPServer(('127.0.0.1', 0), Page)
    threading.Thread(target=s.serve_forever, daemon=True).start()
    return 'http://127.0.0.1:%d' % s.server_address[1]


ALLOWED, OTHER = site(), site()
PING = {'jsonrpc': '2.0', 'id': 1, 'method': 'ping'}
ACAO = 'Access-Control-Allow-Origin'

d = Daemon(rate_limits=True, args=['--mcp-origin', ALLOWED,
                                   '--rate-limit', 'reads=1/m:2,moves=off,runs=off,puzzles=off'])


def preflight(origin):
    return d.request('OPTIONS', '/mcp', headers={'Origin': origin, 'Access-Control-Request-Method': 'POST',
                                                 'Access-Control-Request-Headers': 'authorization, content-type'})


r = preflight(ALLOWED)
t.eq(r.status, 204, 'a preflight from the listed origin: 204')
t.eq(r.header(ACAO), ALLOWED, '... allowing that origin')
t.eq(r.header('Access-Control-Allow-Methods'), 'POST', '... the method POST')
want = {'authorization', 'content-type', 'accept', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'}
got = {h.strip().lower() for h in (r.header('Access-Control-Allow-Headers') or '').split(',')}
t.ok(want <= got, '... the headers the protocol uses (%s)' % sorted(got))
t.eq(r.header('Vary'), 'Origin', '... Vary: Origin')
r = preflight(OTHER)
t.ok(r.status == 403 and r.header(ACAO) is None, 'a preflight from another origin: 403, no CORS header (%d)' % r.status)

r = d.post('/mcp', PING, headers={'Origin': OTHER})
t.ok(r.status == 403 and r.header(ACAO) is None, 'a POST from another origin: 403, no CORS header')
# Reads are 2 a minute here: pings spend them, preflights do not.
pings = [d.post('/mcp', PING, headers={'Origin': ALLOWED}) for _ in range(3)]
t.eq([p.status for p in pings], [200, 200, 429], 'pings from the listed origin spend reads: 200, 200, 429')
t.ok(all(p.header(ACAO) == ALLOWED for p in pings), 'every answer to that origin carries it, the 429 too')
t.ok('Retry-After' in (pings[2].header('Access-Control-Expose-Headers') or ''),
     "... and lets the page read Retry-After (%s)" % pings[2].header('Access-Control-Expose-Headers'))
t.eq([preflight(ALLOWED).status for _ in range(10)], [204] * 10,
     'a client out of reads still gets its preflights: answered before rate limits')
r = d.post('/mcp', PING)
t.ok(r.status == 429 and r.header(ACAO) is None, 'no Origin (not a browser): no CORS header')
r = d.request('OPTIONS', '/mcp')
t.ok(r.status == 405 and r.header(ACAO) is None, 'OPTIONS /mcp without an Origin is no preflight: 405 (%d)' % r.status)
r = d.request('OPTIONS', '/api/games', headers={'Origin': ALLOWED})
t.ok(r.status == 405 and r.header(ACAO) is None, 'OPTIONS elsewhere is still 405, without CORS (%d)' % r.status)
d.stop()
d.cleanup()

# ---- In chromium ----
if not os.access(CHROMIUM, os.X_OK):
    t.ok(False, 'chromium is installed at %s (apt-get install chromium; ./dev test does it)' % CHROMIUM)
    t.done()
if not os.path.isdir(os.path.join(HERE, 'node_modules', 'playwright-core')):
    t.ok(False, 'playwright-core is installed (npm ci --prefix tests/web; ./dev test does it)')
    t.done()
d = Daemon(args=['--mcp-origin', ALLOWED])
work = tempfile.mkdtemp(prefix='arcaded-cors-')
plan = {
    'chromium': CHROMIUM,
    'url': d.base + '/mcp',
    'calls': [
        {'name': 'ping', 'origin': ALLOWED, 'key': None, 'body': PING},
        {'name': 'tools', 'origin': ALLOWED, 'key': None,
         'body': {'jsonrpc': '2.0', 'id': 2, 'method': 'tools/list'}},
        {'name': 'bad key', 'origin': ALLOWED, 'key': 'arcd_not_a_key',
         'body': {'jsonrpc': '2.0', 'id': 3, 'method': 'tools/call',
                  'params': {'name': 'my_runs', 'arguments': {'game': 'stackcraft'}}}},
        {'name': 'other', 'origin': OTHER, 'key': 'arcd_not_a_key', 'body': PING},
    ],
}
with open(os.path.join(work, 'plan.json'), 'w') as f:
    json.dump(plan, f)
p = subprocess.run(['node', os.path.join(HERE, 'cors.mjs'), os.path.join(work, 'plan.json'),
                    os.path.join(work, 'result.json')], capture_output=True, text=True, timeout=300)
try:
    with open(os.path.join(work, 'result.json')) as f:
        seen = json.load(f)
except (OSError, ValueError):
    seen = {'launch': {'ok': False, 'error': p.stderr[-500:]}, 'calls': []}
t.ok(seen['launch'] and seen['launch']['ok'], 'chromium started headless (%s)' % seen['launch'])
calls = {c['name']: c for c in seen['calls']}


def body(c):
    try:
        return json.loads(c.get('body') or '')
    except ValueError:
        return {}


c = calls.get('ping', {})
t.ok(c.get('ok') and c.get('status') == 200 and body(c).get('result') == {} and c.get('requestId'),
     "the listed origin's page calls /mcp after a preflight and reads the answer and X-Request-Id (%s)" % c)
c = calls.get('tools', {})
t.ok(c.get('ok') and c.get('status') == 200 and len(body(c).get('result', {}).get('tools', [])) > 5,
     "... and lists the tools (%d)" % len(body(c).get('result', {}).get('tools', [])))
c = calls.get('bad key', {})
res = body(c).get('result', {})
t.ok(c.get('ok') and c.get('status') == 200 and res.get('isError') is True and
     'unauthorized' in json.dumps(res.get('structuredContent')),
     '... and, its Authorization header let through, reads the refusal of a bad key (%s)' % (
         (c.get('body') or c.get('error', ''))[:160]))
c = calls.get('other', {})
t.ok(c and not c.get('ok') and 'Failed to fetch' in c.get('error', ''),
     "another origin's page cannot call it: fetch fails (%s)" % c.get('error'))
d.stop()
d.cleanup()
t.done()
