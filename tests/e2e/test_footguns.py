"""Footguns of a careless setup (issue 27): X-Forwarded-For from a peer
that is no --trusted-proxy is ignored, as before, but now counted in
/metrics and said in the log, once a minute at most, so that a TCP proxy
set up without the flag (every client in one rate-limit bucket) shows.
And reviews that the public feed would show as nothing, or that reorder
the page's text, are refused 400: white space alone, control characters,
bidirectional overrides and isolates. A wrong path's 404 names the
closest route when one is near.
"""
import time

from harness import Daemon, Tap

t = Tap()


def metric(d, name):
    for ln in d.get('/metrics').body.splitlines():
        if ln.startswith(name + ' '):
            return float(ln.split()[-1])
    return None


d = Daemon()
try:
    for i in range(5):
        d.get('/api/games', headers={'X-Forwarded-For': '198.51.100.%d' % (i + 1)})
    t.eq(metric(d, 'arcaded_forwarded_untrusted_total'), 5.0,
         'five requests with X-Forwarded-For from a peer not trusted: counted')
    time.sleep(0.2)
    warned = [ln for ln in d.read_log().splitlines() if 'X-Forwarded-For from' in ln]
    t.eq(len(warned), 1, 'the log warns once, not once a request')
    t.ok(warned and '--trusted-proxy' in warned[0] and '127.0.0.1' in warned[0],
         'naming the peer and the flag: %s' % (warned[0] if warned else None))
    t.ok(not any('198.51.100' in ln for ln in warned), 'and not the forged address')
    t0 = time.monotonic()
    r = d.get('/healthz')
    ms = (time.monotonic() - t0) * 1000
    t.ok(r.status == 200 and ms < 2000, 'a bystander\'s /healthz answered (%.1f ms)' % ms)
finally:
    d.cleanup()

SF = '/api/games/stackfall/'
r = Daemon(args=['--agent-check', 'stackfall=off'])
try:
    tok = r.post(SF + 'init', {}).json['stateToken']
    for name, text in [('white space alone', ' \t\n\u3000\u00a0 '), ('a control character', 'nice\x07game'),
                       ('an escape sequence', '\x1b[2Jgone'), ('a C1 control', 'a\u0085b'),
                       ('a right-to-left override', 'good \u202egame'), ('a bidi isolate', 'x\u2067y'),
                       ('zero-width characters alone', '\u200b\u200d\u2060\ufeff'),
                       ('Hangul fillers and a direction mark alone', '\u3164\u115f \u200e'),
                       ('variation selectors alone', '\ufe0f\U000e0100'),
                       ('tag characters (invisible text)', 'ok\U000e0041\U000e0042')]:
        f = r.post(SF + 'finish', {'stateToken': tok, 'rating': 5, 'review': text})
        t.ok(f.status == 400 and f.error_code == 'invalid_request',
             'a review of %s: 400 (%s)' % (name, f.json['error']['message'] if f.json else f.status))
    t.eq(r.sql('SELECT count(*) FROM reviews')[0][0], 0, 'none stored')
    f = r.post(SF + 'finish', {'stateToken': tok, 'rating': 5,
                               'review': 'Fine.\n\tTwo lines, \u00e9t\u00e9 \U0001f600 \U0001f469\u200d\U0001f4bb'})
    t.ok(f.status == 409 and f.error_code == 'run_not_over',
         'a review with a newline, a tab, accents and emoji (one joined by a ZWJ) passes the check (the run, not over, '
         'is what refuses it: 409 run_not_over)')
finally:
    r.cleanup()

# A wrong path names the closest route (issue 44): a typo, a segment cut
# short, a trailing slash; nothing close, no hint.
h = Daemon()
try:
    cases = [('/api/game/duskcourt/init', 'GET, POST /api/games/{game}/init'),
             ('/api/games/stackfall/act', 'POST /api/games/{game}/action'),
             ('/api/v1/account', 'POST /api/v1/accounts'),
             ('/api/matches/12/mov', 'POST /api/matches/{id}/move'),
             ('/api/games/', 'GET, HEAD /api/games')]
    for path, want in cases:
        r = h.get(path)
        t.ok(r.status == 404 and r.json['error']['code'] == 'not_found' and
             ('the closest is %s ' % want) in r.json['error']['message'],
             'GET %s: 404 naming the closest route, %s (%s)' % (path, want, r.json['error']['message']))
    r = h.post('/api/games/stackcraft/action', {'stateToken': 'x', 'command': 'left'})
    t.ok(r.status == 400 and r.json['error']['message'] ==
         "unknown field 'command'; this route takes stateToken, action",
         'Stackcraft sent `command`: the unknown field is named with the fields the route takes (%s)'
         % r.json['error']['message'])
    r = h.get('/nothing/like/a/route')
    t.ok(r.status == 404 and r.json['error']['message'] == 'no such route',
         'a path close to no route: 404 "no such route", no hint')
    r = h.get('/api/' + 'x' * 300)
    t.ok(r.status == 404 and r.json['error']['message'] == 'no such route', 'a long path: no hint either')
finally:
    h.cleanup()

p = Daemon(args=['--trusted-proxy', '127.0.0.1'])
try:
    p.get('/api/games', headers={'X-Forwarded-For': '198.51.100.1'})
    t.eq(metric(p, 'arcaded_forwarded_untrusted_total'), 0.0, 'from a trusted proxy: not counted')
    t.ok(not any('X-Forwarded-For from' in ln for ln in p.read_log().splitlines()), 'nor warned')
finally:
    p.cleanup()
t.done()
