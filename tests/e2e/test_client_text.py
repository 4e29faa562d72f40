"""Client text never breaks an answer. Error messages quote what the
client sent (an unknown field, an action type, a rules name, an account
name in the path) up to a number of characters; a cap counted in bytes
used to fall inside a two- or three-byte character, the message was no
longer UTF-8, and the answer became a 500 "out of memory". Each site is
sent a name whose last character before the cap is two bytes (é), then
three (€), then one past the cap, and bytes that are no UTF-8 at all: the
answer keeps its route's own status, its body is valid UTF-8 JSON in the
error envelope, and the quote is whole characters; MCP answers each with
a result or a JSON-RPC error.
"""
import json
import urllib.parse

from harness import Daemon, Tap

t = Tap()
DC = '/api/games/duskcourt/'
SF = '/api/games/stackfall/'
HC = '/api/games/hatetris-classic/'


def raw(d, method, path, body=None):
    """(status, body bytes): the answer's bytes as sent, not decoded."""
    conn = d.connection()
    try:
        data = json.dumps(body, ensure_ascii=False).encode() if body is not None else None
        conn.request(method, path, body=data, headers={'Content-Type': 'application/json'} if data else {})
        r = conn.getresponse()
        return r.status, r.read()
    finally:
        conn.close()


def envelope(data):
    """The error's message if data is UTF-8 JSON in the error envelope."""
    try:
        doc = json.loads(data.decode('utf-8', 'strict'))
        return doc['error']['message'] if isinstance(doc['error']['code'], str) else None
    except (UnicodeDecodeError, ValueError, KeyError, TypeError):
        return None


def names(cap):
    """Names around a cap of characters: its last character two bytes or
    three, and one character past it."""
    return [('a two-byte character at the cap', 'a' * (cap - 1) + '\u00e9'),
            ('a three-byte character at the cap', 'a' * (cap - 1) + '\u20ac'),
            ('a three-byte character past the cap', 'a' * cap + '\u20ac\u20ac')]


def site(what, want_status, send, cap):
    for label, name in names(cap):
        status, data = send(name)
        msg = envelope(data)
        t.ok(status == want_status and msg is not None,
             '%s, %s: %d with a UTF-8 error envelope (got %d, %r)' % (what, label, want_status, status, data[:160]))
        if msg is not None:
            quoted = name if len(name) <= cap else name[:cap] + '...'
            t.ok(quoted in msg, '%s, %s: the message quotes it whole, cut after %d characters (%r)'
                 % (what, label, cap, msg))


d = Daemon(args=['--agent-check', 'stackfall=off', '--agent-check', 'duskcourt=off',
              '--agent-check', 'hatetris-classic=off'])
try:
    # Any body route: the field list of jsonbody_known.
    site('an unknown field of /init', 400, lambda n: raw(d, 'POST', DC + 'init', {n: 1}), 60)

    r = d.post(DC + 'init', {'seed': 1})
    tok = r.json['stateToken']
    site('a Duskcourt action type', 422,
         lambda n: raw(d, 'POST', DC + 'action', {'stateToken': tok, 'action': {'type': n}}), 40)
    site('a field of a Duskcourt action', 422,
         lambda n: raw(d, 'POST', DC + 'action', {'stateToken': tok, 'action': {'type': 'next', n: 1}}), 40)

    r = d.post(SF + 'init', {'seed': 1})
    t.ok(r.status == 200, 'a Stackfall run to act on (%d)' % r.status)
    sf = r.json.get('stateToken')
    site('a field of a Stackfall action', 422,
         lambda n: raw(d, 'POST', SF + 'action', {'stateToken': sf, 'action': {'type': 'hold', n: 1}}), 40)

    r = d.post(HC + 'init', {})
    t.ok(r.status == 200, 'a HATETRIS classic run to act on (%d)' % r.status)
    hc = r.json.get('stateToken')
    site('a HATETRIS classic action type', 422,
         lambda n: raw(d, 'POST', HC + 'action', {'stateToken': hc, 'action': {'type': n}}), 20)
    site('a field of a HATETRIS classic action', 422,
         lambda n: raw(d, 'POST', HC + 'action', {'stateToken': hc, 'action': {'type': 'options', n: 1}}), 40)

    site('the rules of a replay to verify', 422,
         lambda n: raw(d, 'POST', DC + 'replays/verify', {'replay': {'schema': 1, 'rules': n, 'seed': 1,
                                                                     'actions': []}}), 40)

    site('an account name in the path', 404,
         lambda n: raw(d, 'GET', '/api/v1/accounts/' + urllib.parse.quote(n)), 40)
    for path in ('/api/v1/accounts/%ff', '/api/v1/accounts/a%c3', '/api/v1/accounts/%e2%82'):
        status, data = raw(d, 'GET', path)
        t.ok(status == 404 and envelope(data) is not None,
             '%s (bytes that are no character): 404 with a UTF-8 error envelope (%d, %r)' % (path, status, data[:120]))
    # MCP: every request is answered with a result or a JSON-RPC error,
    # valid UTF-8, whatever the names it quotes.
    mh = {'Content-Type': 'application/json', 'Accept': 'application/json, text/event-stream',
          'MCP-Protocol-Version': '2025-11-25'}

    def mcp(body):
        conn = d.connection()
        try:
            conn.request('POST', '/mcp', body=json.dumps(body, ensure_ascii=False).encode(), headers=mh)
            r = conn.getresponse()
            return r.status, r.read()
        finally:
            conn.close()

    def mcp_site(what, make, cap):
        for label, name in names(cap):
            status, data = mcp(make(name))
            try:
                doc = json.loads(data.decode('utf-8', 'strict'))
            except (UnicodeDecodeError, ValueError):
                doc = None
            answered = isinstance(doc, dict) and ('error' in doc or 'result' in doc)
            t.ok(status < 500 and answered, '%s, %s: a result or a JSON-RPC error, UTF-8 (%d, %r)'
                 % (what, label, status, data[:160]))

    mcp_site('MCP: an unknown method', lambda n: {'jsonrpc': '2.0', 'id': 1, 'method': n}, 100)
    mcp_site('MCP: an unknown tool', lambda n: {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/call',
                                                'params': {'name': n, 'arguments': {}}}, 80)
    mcp_site('MCP: an unknown argument', lambda n: {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/call',
                                                    'params': {'name': 'start_run',
                                                               'arguments': {'game': 'duskcourt', n: 1}}}, 60)
    mcp_site('MCP: an unknown prompt', lambda n: {'jsonrpc': '2.0', 'id': 1, 'method': 'prompts/get',
                                                  'params': {'name': n}}, 80)
    mcp_site('MCP: an unknown resource', lambda n: {'jsonrpc': '2.0', 'id': 1, 'method': 'resources/read',
                                                    'params': {'uri': 'arcaded://' + n}}, 90)

    # Path text that is no UTF-8 never reaches the database (PostgreSQL
    # refuses it with an error, which was a 500): a key id of the right
    # length with a byte that is no character.
    key = d.post('/api/v1/accounts', {'name': 'quoter'}).json['agentKey']
    conn = d.connection()
    conn.request('DELETE', '/api/v1/me/keys/%ff' + 'a' * 15, headers={'Authorization': 'Bearer ' + key})
    r = conn.getresponse()
    data = r.read()
    conn.close()
    t.ok(r.status == 404 and envelope(data) is not None,
         'DELETE /api/v1/me/keys/%%ffaaa... (16 bytes, one no character): 404 in the envelope (%d, %r)'
         % (r.status, data[:120]))
    t.ok(d.get('/healthz').status == 200 and d.proc.poll() is None, 'the daemon is up after all of it')
    t.ok('out of memory' not in d.read_log(), 'and its log never says "out of memory"')
finally:
    d.cleanup()

t.done()
