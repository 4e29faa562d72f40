"""Held connections have their own budget (issue 27): long polls and event
streams are bounded per client address (an IPv6 /64), per IPv6 /56 and
per account; a closed client's slot is free again within a second; a
stream ends when its match is over or gone; and at --connection-limit a
new client is answered 503 at once (counted), while /healthz is still
answered. Each flood is short and bounded, and during each a bystander's
/healthz is answered (its time is printed; ./dev load measures it).

Clients that must come from another address bind 127.0.0.x (the whole of
127.0.0.0/8 reaches the loopback daemon); IPv6 prefixes come through a
trusted proxy's X-Forwarded-For, since the loopback has one IPv6 address.
"""
import json
import resource
import socket
import time

from harness import Daemon, Tap

t = Tap()


def raise_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, 8192)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def connect(port, source='127.0.0.1', timeout=5.0):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.bind((source, 0))
    s.connect(('127.0.0.1', port))
    return s


def send_get(port, path, source='127.0.0.1', headers=None):
    s = connect(port, source)
    extra = ''.join('%s: %s\r\n' % kv for kv in (headers or {}).items())
    s.sendall(('GET %s HTTP/1.1\r\nHost: x\r\n%s\r\n' % (path, extra)).encode())
    return s


def read_answer(s, timeout=15.0):
    """A whole (non-streamed) answer: (status, headers dict, body json or None)."""
    s.settimeout(timeout)
    data = b''
    try:
        while b'\r\n\r\n' not in data:
            c = s.recv(65536)
            if not c:
                break
            data += c
        head, _, body = data.partition(b'\r\n\r\n')
        lines = head.decode('latin-1').split('\r\n')
        status = int(lines[0].split(' ')[1]) if lines and lines[0].startswith('HTTP/1.1') else 0
        hdrs = {}
        for ln in lines[1:]:
            k, _, v = ln.partition(':')
            hdrs[k.strip().lower()] = v.strip()
        n = int(hdrs.get('content-length', '0') or 0)
        while len(body) < n:
            c = s.recv(65536)
            if not c:
                break
            body += c
        try:
            js = json.loads(body[:n] or b'null')
        except ValueError:
            js = None
        return status, hdrs, js
    except (OSError, ValueError, IndexError):
        return 0, {}, None


def healthz_ms(port, source='127.0.0.9'):
    """A bystander's GET /healthz: (status, milliseconds)."""
    t0 = time.monotonic()
    try:
        s = send_get(port, '/healthz', source, {'Connection': 'close'})
        status, _, _ = read_answer(s, 5.0)
        s.close()
    except OSError:
        status = 0
    return status, (time.monotonic() - t0) * 1000


def quick_health(port, name):
    # Answered, not starved: the flood holds no thread and no slot the
    # bystander needs. How fast is a benchmark's figure (./dev load), not
    # this test's: on two cores shared with the rest of the suite a fixed
    # 100 ms failed now and then, so the bound only tells "answered" from
    # "waiting behind the flood" (whose holds last 25 s).
    status, ms = healthz_ms(port)
    t.ok(status == 200 and ms < 2000, '%s: a bystander\'s /healthz answered 200 in %.1f ms' % (name, ms))


def account(d, name):
    r = d.post('/api/v1/accounts', {'name': name})
    assert r.status == 201, r
    return r.json['agentKey']


def lobby(d, key):
    r = d.post('/api/matches', {'players': 2}, headers={'Authorization': 'Bearer ' + key})
    assert r.status == 201, r
    return r.json['match_id']


def held_open(s, within=0.3):
    """True when s got no answer within `within` seconds (still held)."""
    s.settimeout(within)
    try:
        return s.recv(1, socket.MSG_PEEK) == b'' and False
    except socket.timeout:
        return True
    except OSError:
        return False


def is_held_429(status, hdrs, js, key):
    rl = (js or {}).get('ratelimit') or {}
    return (status == 429 and (js or {}).get('error', {}).get('code') == 'rate_limited' and
            rl.get('key') == key and hdrs.get('retry-after') == str(rl.get('seconds')))


def metric(d, name, labels=''):
    text = d.get('/metrics').body
    for ln in text.splitlines():
        if ln.startswith(name + labels + ' ') or (not labels and ln.startswith(name + ' ')):
            return float(ln.split()[-1])
    return None


def long_polls(d):
    key = account(d, 'held_lp')
    mid = lobby(d, key)
    wait = '/api/matches/%s/wait?after=0' % mid
    held = [send_get(d.port, wait, '127.0.0.2') for _ in range(8)]
    t.ok(all(held_open(s) for s in held), 'one address holds 8 long polls (the default)')
    s = send_get(d.port, wait, '127.0.0.2')
    st, h, js = read_answer(s)
    t.ok(is_held_429(st, h, js, 'address'),
         'the 9th from that address: 429 rate_limited, key address, Retry-After (%s %s)' % (st, js))
    s.close()
    quick_health(d.port, '8 long polls held')
    other = send_get(d.port, wait, '127.0.0.3')
    t.ok(held_open(other), 'another address still long-polls')
    other.close()
    # The account's bound: 8 from 8 addresses with the same key.
    auth = {'Authorization': 'Bearer ' + key}
    keyed = [send_get(d.port, wait, '127.0.0.%d' % (20 + i), auth) for i in range(8)]
    t.ok(all(held_open(s) for s in keyed), 'one account holds 8 long polls from 8 addresses')
    s = send_get(d.port, wait, '127.0.0.40', auth)
    st, h, js = read_answer(s)
    t.ok(is_held_429(st, h, js, 'account'), 'the 9th with that key: 429, key account (%s %s)' % (st, js))
    s.close()
    # A client that leaves gives its slot back within a second.
    for s in held[:2]:
        s.close()
    t0, ok = time.monotonic(), False
    while time.monotonic() - t0 < 1.0 and not ok:
        s = send_get(d.port, wait, '127.0.0.2')
        ok = held_open(s, 0.1)
        if not ok:
            s.close()
            time.sleep(0.05)
    t.ok(ok, 'two closed by their client: a new long poll from that address is held again '
         'within a second (%.2f s)' % (time.monotonic() - t0))
    t.ok(metric(d, 'arcaded_held_refused_total', '{kind="long_poll"}') >= 2,
         '/metrics counts the long polls refused')
    for s in held + keyed:
        s.close()
    if ok:
        s.close()


def ipv6_prefixes(d):
    key = account(d, 'held_v6')
    mid = lobby(d, key)
    wait = '/api/matches/%s/wait?after=0' % mid

    def via(addr):
        return send_get(d.port, wait, '127.0.0.1', {'X-Forwarded-For': addr})

    same64 = [via('2001:db8:1:100::%x' % (i + 1)) for i in range(8)]
    t.ok(all(held_open(s) for s in same64), '8 long polls from 8 addresses of one /64')
    s = via('2001:db8:1:100::ff')
    st, h, js = read_answer(s)
    t.ok(is_held_429(st, h, js, 'address'), 'hopping inside the /64 does not help: 429 (%s)' % st)
    s.close()
    # The /56 2001:db8:1:1xx:: holds 256 /64s; it may hold 4 x 8 long polls.
    more = [via('2001:db8:1:1%02x::1' % (1 + i // 8)) for i in range(24)]
    t.ok(all(held_open(s) for s in more), '24 more from three other /64s of the /56: 32 held')
    s = via('2001:db8:1:1f0::1')
    st, h, js = read_answer(s)
    t.ok(is_held_429(st, h, js, 'address'), 'a 33rd from a fresh /64 of the same /56: 429 (%s)' % st)
    s.close()
    s = via('2001:db8:1:200::1')
    t.ok(held_open(s), 'the next /56 is another client')
    quick_health(d.port, '33 long polls from one /56')
    for x in same64 + more + [s]:
        x.close()


def streams(d):
    key = account(d, 'held_sse')
    mid = lobby(d, key)
    ev = '/api/matches/%s/events' % mid

    def opened(s):
        s.settimeout(3)
        buf = b''
        try:
            while b'event: match' not in buf and b'\r\n\r\n{' not in buf:
                c = s.recv(65536)
                if not c:
                    break
                buf += c
        except OSError:
            pass
        return b' 200 ' in buf.split(b'\r\n', 1)[0]

    held = [send_get(d.port, ev, '127.0.0.5') for _ in range(4)]
    t.ok(all(opened(s) for s in held), 'one address holds 4 event streams (the default)')
    s = send_get(d.port, ev, '127.0.0.5')
    st, h, js = read_answer(s)
    t.ok(is_held_429(st, h, js, 'address'), 'the 5th: 429 rate_limited, Retry-After (%s %s)' % (st, js))
    s.close()
    quick_health(d.port, '4 streams held')
    before = metric(d, 'arcaded_match_streams')
    held[0].close()
    t0, after = time.monotonic(), before
    while time.monotonic() - t0 < 1.0 and after >= before:
        time.sleep(0.05)
        after = metric(d, 'arcaded_match_streams')
    t.ok(after < before, 'a stream closed by its client frees its slot within a second (%.2f s)' %
         (time.monotonic() - t0))
    s = send_get(d.port, ev, '127.0.0.5')
    t.ok(opened(s), 'and the address may open one again')
    # A match that is no longer stored (a lobby swept) ends its streams at
    # the next heartbeat (15 s).
    d.sql('DELETE FROM match_seats WHERE match_id = ?', (int(mid),))
    d.sql('DELETE FROM matches WHERE id = ?', (int(mid),))
    s.settimeout(20)
    buf, t0 = b'', time.monotonic()
    try:
        while not buf.endswith(b'0\r\n\r\n') and time.monotonic() - t0 < 20:
            c = s.recv(65536)
            if not c:
                break
            buf += c
    except OSError:
        pass
    t.ok(b'event: closed' in buf and buf.endswith(b'0\r\n\r\n'),
         'a stream on a match gone from the store ends with event: closed (%.1f s)' %
         (time.monotonic() - t0))
    for x in held + [s]:
        x.close()


def connection_limit():
    """The first round's attack, scaled: more long polls from several
    addresses than --connection-limit. New clients are answered 503 and
    counted, never left hanging; /healthz is answered."""
    d = Daemon(args=['--connection-limit', '64', '--long-polls-per-address', '8'])
    try:
        key = account(d, 'held_cl')
        mid = lobby(d, key)
        wait = '/api/matches/%s/wait?after=0' % mid
        socks = []
        for a in range(10):
            for _ in range(8):
                socks.append(send_get(d.port, wait, '127.0.1.%d' % (a + 1)))
        # Until the daemon has taken every one in (64 held, the rest answered
        # 503 from the headroom): a loaded machine may take a while. The
        # /metrics reads below are connections too: one that came in while a
        # long poll arrived took its place (the poll was shed), so a poll is
        # sent again for each place left free once all are counted.
        t0, sent, extra = time.monotonic(), len(socks), 0
        while time.monotonic() - t0 < 20:
            held, shed = metric(d, 'arcaded_match_waiters') or 0, metric(d, 'arcaded_connections_shed_total') or 0
            if held >= 64 and held + shed >= sent:
                break
            if held + shed >= sent and extra < 16:
                socks.append(send_get(d.port, wait, '127.0.2.%d' % (extra + 1)))
                sent, extra = sent + 1, extra + 1
            time.sleep(0.1)
        t.diag('connections open: %s; long polls held: %s; shed: %s; sent again: %d (after %.1f s)' % (
               metric(d, 'arcaded_connections_open'), metric(d, 'arcaded_match_waiters'),
               metric(d, 'arcaded_connections_shed_total'), extra, time.monotonic() - t0))
        t0 = time.monotonic()
        s = send_get(d.port, '/api/games', '127.0.0.10')
        st, h, js = read_answer(s, 5.0)
        ms = (time.monotonic() - t0) * 1000
        s.close()
        t.ok(st == 503 and (js or {}).get('error', {}).get('code') == 'busy' and h.get('retry-after') and
             h.get('connection') == 'close',
             '80 long polls over a limit of 64: a new client gets 503 busy, Retry-After, closed, in '
             '%.0f ms (%s)' % (ms, st))
        quick_health(d.port, 'at the connection limit')
        t.ok((metric(d, 'arcaded_connections_shed_total') or 0) >= 1,
             '/metrics counts the connections answered 503')
        # A connection in the headroom that says nothing is cut after 2 s:
        # waited for up to 10 s, since a loaded machine may run the cut
        # late; what is asserted is that it comes, and never an answer.
        idle = connect(d.port, '127.0.0.11')
        idle.settimeout(10)
        t0 = time.monotonic()
        try:
            gone = idle.recv(1) == b''
        except ConnectionResetError:
            gone = True
        except OSError:
            gone = False
        t.ok(gone, 'a silent connection over the limit is closed without an answer (after %.1f s; '
             'the cut is at 2 s, waited for up to 10)' % (time.monotonic() - t0))
        idle.close()
        for x in socks:
            x.close()
    finally:
        d.cleanup()


raise_fd_limit()
d = Daemon(args=['--trusted-proxy', '127.0.0.1'])
try:
    long_polls(d)
    ipv6_prefixes(d)
    streams(d)
finally:
    d.cleanup()
connection_limit()
t.done()
