"""Footguns of a careless setup (issue 27): X-Forwarded-For from a peer
that is no --trusted-proxy is ignored, as before, but now counted in
/metrics and said in the log, once a minute at most, so that a TCP proxy
set up without the flag (every client in one rate-limit bucket) shows.
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
    t.ok(r.status == 200 and time.monotonic() - t0 < 0.1, 'a bystander\'s /healthz within 100 ms')
finally:
    d.cleanup()

p = Daemon(args=['--trusted-proxy', '127.0.0.1'])
try:
    p.get('/api/games', headers={'X-Forwarded-For': '198.51.100.1'})
    t.eq(metric(p, 'arcaded_forwarded_untrusted_total'), 0.0, 'from a trusted proxy: not counted')
    t.ok(not any('X-Forwarded-For from' in ln for ln in p.read_log().splitlines()), 'nor warned')
finally:
    p.cleanup()
t.done()
