"""The day's storage quota (issue 27): runs begun, runs finished with a
review and versus matches created are counted per client address (an
IPv6 /64), per IPv6 /56 at four times the figure, and per account, for
the UTC day. Past a figure: 429 quota_exceeded with Retry-After until
00:00 UTC and nothing stored; what stored nothing (a finish too early, a
lobby refused) is given back. The defaults are on (a daemon without the
flags says them in --help). Addresses come through X-Forwarded-For from
the test itself as a --trusted-proxy.
"""
import re
import time

from harness import BACKEND, Daemon, Tap, run_binary

t = Tap()
DC = '/api/games/duskcourt/'
SF = '/api/games/stackfall/'


def via(addr, headers=None):
    h = dict(headers or {})
    h['X-Forwarded-For'] = addr
    return h


def metric(d, name):
    for ln in d.get('/metrics').body.splitlines():
        if ln.startswith(name + ' '):
            return float(ln.split()[-1])
    return None


def to_midnight():
    return 86400 - int(time.time()) % 86400


def refused(r, cls, key, limit):
    """A 429 quota_exceeded naming cls, key and limit, waiting until 00:00 UTC."""
    q = (r.json or {}).get('quota') or {}
    wait = int(r.header('Retry-After') or 0)
    name = '"%s-day-%s"' % (cls, key)
    return (r.status == 429 and r.error_code == 'quota_exceeded' and q.get('class') == cls and
            q.get('key') == key and q.get('limit') == limit and abs(wait - to_midnight()) <= 2 and
            q.get('seconds') == wait and r.header('RateLimit-Policy') == '%s;q=%d;w=86400' % (name, limit) and
            r.header('RateLimit') == '%s;r=0;t=%d' % (name, wait))


def finishable(d, headers):
    """A Duskcourt run played to its first break and ended: its token."""
    r = d.get(DC + 'init?seed=5', headers=headers)
    while r.status == 200 and r.json['state']['phase'] == 'playing':
        cap = [a for a in r.json['legalActions'] if a['type'] == 'capture'][0]
        r = d.post(DC + 'action', {'stateToken': r.json['stateToken'], 'action': cap}, headers=headers)
    r = d.post(DC + 'action', {'stateToken': r.json['stateToken'], 'action': {'type': 'endRun'}},
               headers=headers)
    return r.json['stateToken']


help_text = run_binary(['--help'])[1]
t.ok(all(re.search(r'--%s-per-day N .*default %d\)' % (name, n), help_text)
         for name, n in (('runs', 10000), ('reviews', 10000), ('matches', 2000))),
     '--help names the three quotas and their defaults (10000, 10000, 2000)')

d = Daemon(args=['--trusted-proxy', '127.0.0.1', '--runs-per-day', '3', '--reviews-per-day', '2',
                 '--matches-per-day', '2', '--agent-check', 'stackfall=off'])
try:
    # ---- runs, per address
    A = '192.0.2.10'
    got = [d.post(SF + 'init', {}, headers=via(A)) for _ in range(3)]
    t.ok(all(r.status == 200 for r in got), 'an address begins its 3 runs of the day')
    before = d.sql('SELECT count(*) FROM runs')[0][0]
    r = d.post(SF + 'init', {}, headers=via(A))
    t.ok(refused(r, 'runs', 'address', 3), 'the 4th: 429 quota_exceeded, Retry-After until 00:00 UTC '
         '(%s %s %s)' % (r.status, r.header('Retry-After'), r.body[:200]))
    t.eq(d.sql('SELECT count(*) FROM runs')[0][0], before, 'and no run stored')
    r = d.get(DC + 'init?seed=1', headers=via(A))
    t.ok(refused(r, 'runs', 'address', 3), 'every game counts against the same figure')
    t.eq(d.post(SF + 'init', {}, headers=via('192.0.2.11')).status, 200, 'another address has its own')
    t.ok(d.post(SF + 'action', {'stateToken': got[0].json['stateToken'], 'action': {'type': 'options'}},
                headers=via(A)).status in (200, 422) and
         d.post(SF + 'state', {'stateToken': got[0].json['stateToken']}, headers=via(A)).status == 200,
         'the address still plays and reads its runs: moves are not counted')

    # ---- runs, per /56: 16 /64s of one /56 begin 4 x 3 = 12
    ok56 = 0
    for hop in range(16):
        for _ in range(3):
            r = d.post(SF + 'init', {}, headers=via('2001:db8:0:12%02x::1' % hop))
            ok56 += r.status == 200
    t.eq(ok56, 12, 'the /64s of one IPv6 /56 begin 12 runs, four times an address\'s figure')
    t.ok(refused(r, 'runs', 'network', 12), 'then 429 naming the network')
    t.eq(d.post(SF + 'init', {}, headers=via('2001:db8:0:1300::1')).status, 200, 'the next /56 has its own')

    # ---- runs, per account: one key from many addresses
    acc = d.post('/api/v1/accounts', {'name': 'quota_acct'}, headers=via('198.51.100.1'))
    key = {'Authorization': 'Bearer ' + acc.json['agentKey']}
    keyed = [d.post(SF + 'init', {}, headers=via('198.51.100.%d' % (2 + i), key)).status for i in range(3)]
    t.eq(keyed, [200, 200, 200], 'a key begins 3 runs from 3 addresses')
    t.eq([d.post(SF + 'init', {}, headers=via('198.51.100.9')).status for _ in range(2)], [200, 200],
         'another address begins 2 runs without the key')
    r = d.post(SF + 'init', {}, headers=via('198.51.100.9', key))
    t.ok(refused(r, 'runs', 'account', 3), 'then one with the key: 429 naming the account')
    t.eq([d.post(SF + 'init', {}, headers=via('198.51.100.9')).status for _ in range(2)], [200, 429],
         'the address was not charged for that refusal: its 3rd passes, its 4th does not')
    r = d.post('/games/stackfall/api/new', {}, headers=via('198.51.100.10', key))
    t.ok(refused(r, 'runs', 'account', 3), 'the seed\'s account route new counts the same runs: 429 (%s)'
         % r.body[:120])

    # ---- reviews: a finish that stores nothing gives its charge back
    B = '203.0.113.5'
    early = d.get(DC + 'init?seed=2', headers=via('203.0.113.6'))
    outs = [d.post(DC + 'finish', {'stateToken': early.json['stateToken'], 'rating': 3, 'review': 'Early.'},
                   headers=via(B)).error_code for _ in range(4)]
    t.eq(outs, ['run_not_over'] * 4, 'four finishes of a run not over: 409, nothing stored')
    toks = [finishable(d, via('203.0.113.%d' % (20 + i))) for i in range(3)]
    fins = [d.post(DC + 'finish', {'stateToken': tk, 'rating': 4, 'review': 'Run %d.' % i},
                   headers=via(B)) for i, tk in enumerate(toks)]
    t.eq([f.status for f in fins[:2]], [200, 200], 'the address still finishes 2 runs with a review')
    t.ok(refused(fins[2], 'reviews', 'address', 2), 'the 3rd: 429 quota_exceeded (%s)' % fins[2].body[:160])
    t.eq(d.sql('SELECT count(*) FROM reviews')[0][0], 2, 'two reviews stored')
    again = d.post(DC + 'finish', {'stateToken': toks[2], 'rating': 4, 'review': 'Elsewhere.'},
                   headers=via('203.0.113.99'))
    t.eq(again.status, 200, 'the run refused stays as it was: finished later from another address')

    # ---- matches, per account
    m = d.post('/api/v1/accounts', {'name': 'quota_lobby'}, headers=via('198.51.100.50'))
    mk = {'Authorization': 'Bearer ' + m.json['agentKey']}
    made = [d.post('/api/matches', {'players': 2}, headers=via('198.51.100.%d' % (51 + i), mk)).status
            for i in range(2)]
    t.eq(made, [201, 201], 'an account creates its 2 matches of the day')
    r = d.post('/api/matches', {'players': 2}, headers=via('198.51.100.60', mk))
    t.ok(refused(r, 'matches', 'account', 2), 'the 3rd: 429 quota_exceeded (%s)' % r.body[:160])
    t.eq(d.sql('SELECT count(*) FROM matches')[0][0], 2, 'two matches stored')
    bad = d.post('/api/matches', {'players': 9}, headers=via('198.51.100.61', mk))
    t.eq(bad.error_code, 'invalid_request', 'a bad body is refused 400 before the quota')
    # The queue: a quick match may open a lobby, so it needs a match left in
    # the day's quota; one that joins a lobby gives it back.
    r = d.post('/api/matches/quick', {'players': 3}, headers=via('198.51.100.62', mk))
    t.ok(refused(r, 'matches', 'account', 2), 'a quick match by an account out of quota: 429 too (%s)' % r.body[:160])
    q = d.post('/api/v1/accounts', {'name': 'quota_queue'}, headers=via('198.51.100.70'))
    qk = {'Authorization': 'Bearer ' + q.json['agentKey']}
    t.eq(d.post('/api/matches/quick', {'players': 3}, headers=via('198.51.100.71', qk)).status, 201,
         'another account opens the queue lobby')
    o = d.post('/api/v1/accounts', {'name': 'quota_join'}, headers=via('198.51.100.80'))
    ok = {'Authorization': 'Bearer ' + o.json['agentKey']}
    t.eq(d.post('/api/matches/quick', {'players': 3}, headers=via('198.51.100.81', ok)).status, 200,
         'a third account joins it')
    t.eq([d.post('/api/matches', {'players': 2}, headers=via('198.51.100.%d' % (82 + i), ok)).status
          for i in range(2)], [201, 201], 'and still creates its 2 matches of the day: the join was given back')
    t.eq(d.sql('SELECT count(*) FROM matches')[0][0], 5, 'matches stored: 2, the queue lobby, then 2')

    t.ok((metric(d, 'arcaded_quota_refused_total{class="runs"}') or 0) >= 4 and
         (metric(d, 'arcaded_quota_refused_total{class="reviews"}') or 0) >= 1 and
         (metric(d, 'arcaded_quota_refused_total{class="matches"}') or 0) >= 1,
         '/metrics counts the refusals by class')
    t0 = time.monotonic()
    h = d.get('/healthz')
    ms = (time.monotonic() - t0) * 1000
    t.ok(h.status == 200 and ms < 2000, 'a bystander\'s /healthz answered (%.1f ms)' % ms)
finally:
    d.cleanup()

# 0 turns a quota off.
z = Daemon(args=['--runs-per-day', '0'])
try:
    t.ok(all(z.get(DC + 'init?seed=%d' % i).status == 200 for i in range(30)), '--runs-per-day 0: no quota')
finally:
    z.cleanup()
t.diag('backend %s' % BACKEND)
t.done()
