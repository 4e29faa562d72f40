"""The daemon on the open internet: each attack measured against the old
main, rerun against the real daemon, now failing.

  connections   one address cannot take every connection; trickling a byte at
                a time does not hold one past --request-timeout
  ownership     a run begun with an agent key answers only that key: no
                takeover with another account's key or an old token
  expiry        stateTokens expire
  logs          a percent-encoded newline or escape cannot forge a log line
  verify        replay verification runs on a bounded pool, 503 when full,
                /healthz answered meanwhile
  methods       HEAD changes nothing; a body that is not JSON is 415; a %00 is 400
  retention     expired puzzles and runs that never got a move are deleted
  puzzles       a puzzle is bound to whoever it was issued to

(Rate limits and the cost of guessing puzzles are in test_ratelimit.py.)
Clients that must come from another address bind 127.0.0.2: the whole of
127.0.0.0/8 reaches the loopback daemon.
"""
import json
import os
import resource
import socket
import threading
import time

from harness import Daemon, Tap, checked

t = Tap()
DC = '/api/games/duskcourt/'
SF = '/api/games/stackfall/'


def raise_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, 8192)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return min(want, hard)


def connect(port, source='127.0.0.1', timeout=5.0):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(('127.0.0.1', port))
    return s


def healthz_from(port, source, timeout=5.0):
    """GET /healthz from a given source address: (status, seconds)."""
    t0 = time.monotonic()
    try:
        s = connect(port, source, timeout)
        s.sendall(b'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
        data = b''
        while True:
            c = s.recv(4096)
            if not c:
                break
            data += c
        s.close()
        status = int(data.split(b' ', 2)[1]) if data.startswith(b'HTTP/1.1 ') else 0
    except OSError:
        status = 0
    return status, time.monotonic() - t0


def closed_by_server(s, within):
    """True when the server closes (or resets) s within `within` seconds."""
    s.settimeout(within)
    try:
        return s.recv(1) == b''
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False
    except OSError:
        return True


def count(d, sql, *args):
    return d.sql(sql, args)[0][0]


# ---- connections: a per-address quota -------------------------------------
limit = raise_fd_limit()
d = Daemon(args=['--connections-per-address', '64'])
try:
    socks, refused = [], 0
    attempts = min(300, limit - 100)
    for _ in range(attempts):
        try:
            s = connect(d.port)
            socks.append(s)
        except OSError:
            refused += 1
    # libmicrohttpd accepts and then closes a refused connection: count the
    # ones the server closed at once.
    time.sleep(0.3)
    open_ones = [s for s in socks if not closed_by_server(s, 0.01)]
    t.ok(len(open_ones) <= 64 + 2,
         '%d connections from one address: at most its quota of 64 stay open (%d did)' %
         (attempts, len(open_ones)))
    results = [healthz_from(d.port, '127.0.0.2') for _ in range(3)]
    t.ok(all(st == 200 for st, _ in results),
         'another address\'s /healthz answers 3 of 3 while the first holds its quota (%s)' %
         ', '.join('%d in %.3fs' % r for r in results))
    for s in socks:
        s.close()
    # The daemon frees the address's slots as it sees the closes (slower
    # under ASan): until then a new connection from it is still refused.
    m, until = None, time.monotonic() + 10
    while m is None:
        try:
            m = d.get('/metrics').body
        except (ConnectionError, OSError):
            if time.monotonic() > until:
                raise
            time.sleep(0.1)
    t.ok('arcaded_connections_refused_total' in m and
         'arcaded_connections_refused_total 0\n' not in m, 'metrics count the refused connections')
finally:
    d.cleanup()

# ---- connections: a request that trickles in is cut at its deadline -------
d = Daemon(args=['--connection-limit', '100', '--connection-timeout', '3', '--request-timeout', '2',
                 '--connections-per-address', '200'])
try:
    socks = [connect(d.port) for _ in range(100)]
    stop = threading.Event()
    cut = []

    def trickle(s):
        """One header byte every 1.5 s, for as long as the server listens."""
        data = b'GET /healthz HTTP/1.1\r\nHost: x\r\nX-Padding: ' + b'a' * 64
        t0 = time.monotonic()
        for i in range(len(data)):
            if stop.is_set():
                return
            try:
                s.sendall(data[i:i + 1])
            except OSError:
                cut.append(time.monotonic() - t0)
                return
            if closed_by_server(s, 1.5):
                cut.append(time.monotonic() - t0)
                return
    ths = [threading.Thread(target=trickle, args=(s,)) for s in socks]
    [th.start() for th in ths]
    [th.join(15) for th in ths]
    stop.set()
    t.eq(len(cut), 100, 'all 100 trickling connections are cut')
    t.ok(cut and max(cut) < 9.0,
         'each within a few seconds of its first byte, though bytes kept coming (latest %.1f s; '
         'deadline 2 s, checked every 0.25 s)' % (max(cut) if cut else -1))
    st, took = healthz_from(d.port, '127.0.0.2')
    t.eq(st, 200, 'the slots are free again: /healthz answers')
    for s in socks:
        s.close()
finally:
    d.cleanup()

# ---- ownership: no takeover of a run begun with an agent key ---------------
d = Daemon(args=['--agent-check', 'stackfall=off'])
try:
    alice = d.post('/api/v1/accounts', {'name': 'alice'}).json['agentKey']
    mallory = d.post('/api/v1/accounts', {'name': 'mallory'}).json['agentKey']
    A = {'Authorization': 'Bearer ' + alice}
    M = {'Authorization': 'Bearer ' + mallory}
    first = d.post(SF + 'init', {'seed': 11}, headers=A)
    tok0 = first.json['stateToken']
    r = d.post(SF + 'action', {'stateToken': tok0, 'command': 'place 0 0'}, headers=A)
    t.eq(r.status, 200, 'the owner plays')
    tok1 = r.json['stateToken']
    r = d.post(SF + 'action', {'stateToken': tok0, 'command': 'place 0 4'})
    t.ok(r.status == 401 and r.error_code == 'unauthorized' and 'stateToken' not in r.json,
         'the first token without a key: 401, and no newer token handed out')
    r = d.post(SF + 'action', {'stateToken': tok0, 'command': 'place 0 4'}, headers=M)
    t.ok(r.status == 403 and r.error_code == 'forbidden' and 'stateToken' not in r.json,
         'the first token with another account\'s key: 403, and no newer token')
    r = d.post(SF + 'action', {'stateToken': tok1, 'command': 'resign'}, headers=M)
    t.ok(r.status == 403, 'the newest token with another key cannot resign the run')
    r = d.get(SF + 'state?stateToken=' + tok1, headers=M)
    t.eq(r.status, 403, 'nor read its state')
    r = d.post(SF + 'action', {'stateToken': tok1, 'command': 'resign'}, headers=A)
    t.eq(r.json['status'], 'over', 'the owner resigns')
    fin = d.post(SF + 'finish', {'stateToken': r.json['stateToken'], 'rating': 1,
                                 'review': 'Written by someone else.'}, headers=M)
    t.eq(fin.status, 403, 'another account cannot publish a rating and review under the owner\'s name')
    fin = d.post(SF + 'finish', {'stateToken': r.json['stateToken'], 'rating': 8, 'review': 'Mine.'},
                 headers=A)
    t.eq(fin.status, 200, 'the owner finishes')
    t.eq(count(d, 'SELECT count(*) FROM reviews'), 1, 'one review stored, the owner\'s')
    r = d.post(SF + 'action', {'stateToken': tok0, 'command': 'place 0 4'}, headers=A)
    t.ok(r.status == 409 and 'stateToken' in r.json, 'the owner with an old token: 409 with the newest')
    # An anonymous run stays a bearer-token run.
    anon = d.post(SF + 'init', {'seed': 12})
    r = d.post(SF + 'action', {'stateToken': anon.json['stateToken'], 'command': 'place 0 0'}, headers=M)
    t.eq(r.status, 200, 'an anonymous run is played by whoever holds its token')
finally:
    d.cleanup()

# ---- expiry: stateTokens stop opening -------------------------------------
# An anonymous run whose newest token has expired is over for good: 410
# run_expired. An older token of a run, or a token of an account's run,
# keeps the token error; the seed's account routes carry no token and do
# not expire.
d = Daemon(args=['--token-ttl', '2'])
try:
    r = d.get(DC + 'init?seed=7')
    tok = r.json['stateToken']
    t.eq(d.post(DC + 'state', {'stateToken': tok}).status, 200, 'a fresh token opens')
    r1 = d.post(DC + 'action', {'stateToken': tok, 'action': r.json['legalActions'][0]})
    tok1 = r1.json['stateToken']
    key = d.post('/api/v1/accounts', {'name': 'pauser'}).json['agentKey']
    A = {'Authorization': 'Bearer ' + key}
    owned = d.get(DC + 'init?seed=8', headers=A).json['stateToken']
    sf = d.get(SF + 'init?seed=3')
    seed_run = d.post('/games/stackfall/api/new', {}, headers=A)
    moves = d.sql('SELECT count(*) FROM moves')[0][0]
    time.sleep(3.2)
    r = d.post(DC + 'state', {'stateToken': tok1})
    t.ok(r.status == 410 and r.error_code == 'run_expired' and
         'can no longer be continued' in r.json['error']['message'] and 'stateToken' not in r.json,
         'after its lifetime an anonymous run\'s newest token is 410 run_expired: %s' % r.json)
    r = d.post(DC + 'action', {'stateToken': tok1, 'action': r1.json['legalActions'][0]})
    t.ok(r.status == 410 and r.error_code == 'run_expired', 'an action on it too')
    t.eq(d.sql('SELECT count(*) FROM moves')[0][0], moves, 'and nothing is stored')
    r = d.post(DC + 'state', {'stateToken': tok})
    t.ok(r.status == 400 and r.error_code == 'invalid_state_token' and 'expired' in r.json['error']['message'],
         'an older token of the run (a newer one may still live): 400 "expired"')
    r = d.post(DC + 'state', {'stateToken': owned}, headers=A)
    t.ok(r.status == 400 and r.error_code == 'invalid_state_token' and 'expired' in r.json['error']['message'],
         'an account\'s run: 400 "expired", as before')
    r = d.post(SF + 'action', {'stateToken': sf.json['stateToken'], 'command': 'place 0 4'}, headers=checked(d, sf))
    t.ok(r.status == 410 and r.error_code == 'run_expired' and 'agent_check' in r.json and
         d.sql('SELECT count(*) FROM agent_checks WHERE token = ?', (sf.json['agent_check']['token'],))[0][0] == 0,
         'with the agent check on (Stackfall): the answer is judged first, spent, and a fresh puzzle comes along')
    r = d.get('/games/stackfall/api/state', headers=checked(d, seed_run, A))
    t.ok(r.status == 200 and r.json.get('runId') == seed_run.json['runId'],
         'the seed\'s account routes carry no token: the account\'s run plays on (%d)' % r.status)
finally:
    d.cleanup()

# ---- logs: nothing from a request can forge a line --------------------------
d = Daemon()
try:
    forged = '2026-01-01T00:00:00.000Z error FORGED'
    r = d.get('/x%0a2026-01-01T00:00:00.000Z%20error%20FORGED%1b[31m')
    t.eq(r.status, 404, 'the forging path is an ordinary 404')
    time.sleep(0.2)
    log = d.read_log()
    t.ok(not any(line.startswith(forged) for line in log.splitlines()), 'no forged line in the log')
    t.ok('\\x0a2026-01-01' in log and '\\x1b' in log and '\x1b' not in log,
         'the newline and the escape are written as \\xHH')
finally:
    d.cleanup()
# Behind a trusted proxy, only an address that parses is believed.
d = Daemon(args=['--trusted-proxy', '127.0.0.1'])
try:
    d.get('/healthz', headers={'X-Forwarded-For': '203.0.113.9, error FORGED'})
    d.get('/healthz', headers={'X-Forwarded-For': '203.0.113.9'})
    time.sleep(0.2)
    log = d.read_log()
    t.ok('FORGED' not in log and 'from 127.0.0.1' in log and 'from 203.0.113.9' in log,
         'a forwarded-for value that is no address is not logged (the peer is); an address is')
    # /metrics: loopback only by default, the forwarded client counting.
    r = d.get('/metrics', headers={'X-Forwarded-For': '203.0.113.9'})
    t.ok(r.status == 403 and r.json['error']['code'] == 'forbidden' and 'metrics-allow' in r.json['error']['message'],
         '/metrics for a client on the internet behind the proxy: 403 forbidden naming --metrics-allow (%d)' % r.status)
    t.ok(d.get('/metrics', headers={'X-Forwarded-For': '127.0.0.5'}).status == 200 and d.get('/metrics').status == 200,
         '/metrics for a loopback client, forwarded or not: 200')
finally:
    d.cleanup()
d = Daemon(args=['--metrics-allow', '10.0.0.0/8', '--metrics-allow', '2001:db8::/32'])
try:
    r = d.get('/metrics')
    t.ok(r.status == 403 and r.json['error']['code'] == 'forbidden',
         '--metrics-allow names the ranges served, replacing loopback: 403 to 127.0.0.1 (%d)' % r.status)
finally:
    d.cleanup()

# ---- methods, types and NUL bytes -------------------------------------------
d = Daemon()
try:
    before = count(d, 'SELECT count(*) FROM runs')
    r = d.request('HEAD', DC + 'init?seed=3')
    t.ok(r.status == 405 and 'HEAD' not in (r.header('Allow') or ''),
         'HEAD on init is 405 (Allow: %s)' % r.header('Allow'))
    t.eq(count(d, 'SELECT count(*) FROM runs'), before, 'and made no run')
    r = d.request('HEAD', '/api/v1/agent-check')
    t.eq(r.status, 405, 'HEAD on agent-check (which stores a puzzle) is 405')
    r = d.request('HEAD', '/healthz')
    t.ok(r.status == 200 and r.body == '', 'HEAD /healthz: 200 without a body')
    r = d.post('/api/v1/accounts', raw=b'{"name": "formpost"}', headers={'Content-Type': 'text/plain'})
    t.ok(r.status == 415 and r.error_code == 'unsupported_media_type', 'a JSON body sent as text/plain: 415')
    r = d.post(DC + 'init', raw=b'{"seed": 1}',
               headers={'Content-Type': 'application/x-www-form-urlencoded'})
    t.eq(r.status, 415, 'a form post (what a cross-site page can send without a preflight): 415')
    t.eq(count(d, "SELECT count(*) FROM accounts WHERE name = 'formpost'"), 0, 'nothing was created')
    r = d.post('/api/v1/accounts', {'name': 'jsonpost'},
               headers={'Content-Type': 'Application/JSON; charset=utf-8'})
    t.eq(r.status, 201, 'application/json with parameters, any case: accepted')
    r = d.get('/healthz%00')
    t.eq(r.status, 400, '/healthz%00: 400, not the health answer')
    r = d.get(DC + 'init?seed=1%00')
    t.ok(r.status == 400 and r.error_code == 'invalid_request', 'init?seed=1%00: 400, no run for seed 1')
    r = d.get(DC + 'rules?x=%00')
    t.eq(r.status, 400, 'a %00 in any query argument: 400')
finally:
    d.cleanup()

# ---- verification off the HTTP threads -----------------------------------------
d = Daemon(args=['--verify-workers', '1', '--verify-queue', '1'])
try:
    # A long Duskcourt replay: every `next` deals a court again when verified.
    r = d.get(DC + 'init?seed=21')
    for _ in range(400):
        st = r.json['state']
        if st['phase'] == 'done':
            break
        legal = r.json['legalActions']
        if st['phase'] == 'break':
            a = {'type': 'next'}
        else:
            a = [x for x in legal if x['type'] == 'capture'][0]
        r = d.post(DC + 'action', {'stateToken': r.json['stateToken'], 'action': a})
    if r.json['state']['phase'] == 'break':
        r = d.post(DC + 'action', {'stateToken': r.json['stateToken'], 'action': {'type': 'endRun'}})
    doc = d.get(DC + 'runs/' + r.json['runId']).json
    body = json.dumps({'replay': doc['replay']}).encode()
    t.diag('a replay of %d actions, %d bytes' % (len(doc['replay']['actions']), len(body)))
    # The requests are made to arrive together, whatever the machine's load:
    # each connection sends its headers and all of its body but the last
    # byte, then the last bytes go out back to back. With one worker and a
    # queue of one, at most two of a volley can be admitted while the first
    # verifies; a volley is repeated (at most 5) until one is refused.
    statuses, health = [], []

    def volley(n):
        conns = []
        for _ in range(n):
            c = d.connection(timeout=60)
            c.putrequest('POST', DC + 'replays/verify')
            c.putheader('Content-Type', 'application/json')
            c.putheader('Content-Length', str(len(body)))
            c.endheaders()
            c.send(body[:-1])
            conns.append(c)
        for c in conns:
            c.send(body[-1:])
        health.append(d.get('/healthz').status)
        out = []
        for c in conns:
            rr = c.getresponse()
            text = rr.read().decode()
            code = json.loads(text).get('error', {}).get('code') if rr.status != 200 else None
            out.append((rr.status, rr.getheader('Retry-After'), code))
            c.close()
        return out

    rounds = 0
    while rounds < 5 and not any(s[0] == 503 for s in statuses):
        statuses += volley(16)
        rounds += 1
    ok200 = [s for s in statuses if s[0] == 200]
    busy = [s for s in statuses if s[0] == 503]
    t.ok(len(ok200) >= 1 and all(s[0] in (200, 503) for s in statuses),
         '16 verifications arriving at once on 1 worker with a queue of 1 (%d volleys): each verified or '
         'refused (%d verified, %d refused)' % (rounds, len(ok200), len(busy)))
    t.ok(busy and all(s[1] == '1' and s[2] == 'busy' for s in busy),
         'the refused ones: 503 busy with Retry-After: 1')
    t.ok(health and all(h == 200 for h in health), '/healthz answers while the workers verify')
finally:
    d.cleanup()

# ---- retention -------------------------------------------------------------
d = Daemon(args=['--unplayed-retention', '2'])
try:
    idle = d.get(DC + 'init?seed=1').json
    played = d.get(DC + 'init?seed=2').json
    cap = [a for a in played['legalActions'] if a['type'] == 'capture'][0]
    played = d.post(DC + 'action', {'stateToken': played['stateToken'], 'action': cap}).json
    fresh = d.get('/api/v1/agent-check').json['agent_check']['token']
    d.sql('UPDATE agent_checks SET expires_at = ? WHERE token = ?',
          (int(time.time() * 1000) - 120000, fresh))
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline and d.get(DC + 'runs/' + idle['runId']).status != 404:
        time.sleep(0.25)
    t.eq(d.get(DC + 'runs/' + idle['runId']).status, 404, 'a run that never got a move is deleted')
    t.eq(d.get(DC + 'runs/' + played['runId']).status, 200, 'a run with a move is kept')
    t.eq(count(d, 'SELECT count(*) FROM agent_checks WHERE token = ?', fresh), 0,
         'an expired puzzle is deleted')
finally:
    d.cleanup()

# ---- puzzles bound to whoever they were issued to ------------------------------
d = Daemon()
try:
    a_key = d.post('/api/v1/accounts', {'name': 'issued'}).json['agentKey']
    b_key = d.post('/api/v1/accounts', {'name': 'thief'}).json['agentKey']
    new = d.post('/games/stackfall/api/new', {}, headers={'Authorization': 'Bearer ' + a_key})
    ac = new.json['agent_check']
    answer = d.sql('SELECT answer FROM agent_checks WHERE token = ?', (ac['token'],))[0][0]
    d.post('/games/stackfall/api/new', {}, headers={'Authorization': 'Bearer ' + b_key})
    r = d.post('/games/stackfall/api/act', {'command': 'options'}, headers={
        'Authorization': 'Bearer ' + b_key, 'X-Agent-Check': ac['token'], 'X-Agent-Answer': str(answer)})
    t.ok(r.status == 428, 'a puzzle issued to one account, answered right by another: 428')
    r = d.post('/games/stackfall/api/act', {'command': 'options'}, headers={
        'Authorization': 'Bearer ' + a_key, 'X-Agent-Check': ac['token'], 'X-Agent-Answer': str(answer)})
    t.eq(r.status, 428, 'and it is spent: the first presentation consumed it')
    anon = d.get('/api/v1/agent-check').json['agent_check']
    answer = d.sql('SELECT answer FROM agent_checks WHERE token = ?', (anon['token'],))[0][0]
    # The same puzzle presented from another address (127.0.0.2).
    s = connect(d.port, '127.0.0.2')
    req = ('POST /games/stackfall/api/act HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer %s\r\n'
           'X-Agent-Check: %s\r\nX-Agent-Answer: %d\r\nContent-Type: application/json\r\n'
           'Content-Length: 22\r\nConnection: close\r\n\r\n{"command": "options"}' %
           (b_key, anon['token'], answer)).encode()
    s.sendall(req)
    got = b''
    while True:
        c = s.recv(65536)
        if not c:
            break
        got += c
    s.close()
    t.ok(got.startswith(b'HTTP/1.1 428'), 'a puzzle issued anonymously to one address, from another: 428')
finally:
    d.cleanup()

t.done()
