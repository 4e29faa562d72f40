"""Two daemons on one PostgreSQL database behind the shipped nginx site.

A throwaway PostgreSQL cluster (tests/e2e/pgtest.py) holds one database;
two arcaded daemons serve it on unix sockets, with one key file between
them. deploy/nginx.conf runs substituted as tests/ops/test_nginx.py does
(its substitute() and unsubstitute()), plus one more line in each upstream:
the commented second server for daemons on PostgreSQL is uncommented with
the second daemon's socket. nginx balances round-robin, so consecutive
requests alternate between the daemons, except those naming a versus match,
which stay on the daemon the match's id hashes to; which daemon served each
request is read from the daemons' own access logs by request id.

Through nginx it plays Duskcourt runs and a Stackfall account game whose
requests alternate between the daemons, and checks that every promise of
the API holds across them: a token sealed by one opens on the other; of 20
parallel different actions on one token, split between the daemons,
exactly one is applied and 19 are answered 409 with the newest token; the
applied request sent again (to either daemon) is answered as the first
time and stores nothing; a puzzle presented 20 times at once is spent once;
a name claimed 20 times at once is taken once; leaderboards, reviews and
run pages read the same from both daemons; every finished run's replay and
certificate verify on the daemon that did not finish it.

PostgreSQL or nginx missing, or not starting, is a failure, never a skip.
"""
import json
import os
import random
import re
import shutil
import tempfile
import threading
import time

import pgtest
from harness import Daemon, Tap
from test_nginx import (Nginx, SITE, daemon_access, free_port, request, run_as, substitute,
                        unsubstitute, wait_for)

SECOND = '/run/arcaded-2/arcaded.sock'


def site_for(text, sockets, folder, port):
    """test_nginx's substitution, and the second PostgreSQL upstream line
    uncommented with the second daemon's socket."""
    out = substitute(text, sockets[:1], folder, port)
    lines = []
    for line in out.split('\n'):
        if line.strip().startswith('#server unix:' + SECOND):
            line = line.replace('#server unix:' + SECOND, 'server unix:' + sockets[1])
        lines.append(line)
    return '\n'.join(lines)


def unsite(text, sockets, folder, port):
    out = text.replace('server unix:' + sockets[1], '#server unix:' + SECOND)
    return unsubstitute(out, sockets[:1], folder, port)


class Both:
    """nginx in front, and the two daemons behind it."""

    def __init__(self, t, port, a, b, cluster, url):
        self.t, self.port, self.a, self.b = t, port, a, b
        self.cluster, self.url = cluster, url
        self.lock = threading.Lock()
        self.n = 0

    def call(self, method, path, body=None, headers=None):
        """One request through nginx, each from the next loopback address:
        the site's per-address limits are for clients, and this is many
        bots at once (puzzles here are bound to an account, not an
        address)."""
        h = dict(headers or {})
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            h.setdefault('Content-Type', 'application/json')
        with self.lock:
            self.n += 1
            k = self.n
        source = '127.0.%d.%d' % (1 + (k // 250) % 250, 1 + k % 250)
        return request(self.port, method, path, headers=h, body=data, source=source)

    def served_by(self, rid):
        """'a' or 'b': the daemon whose access log holds request id rid."""
        def find():
            for name, d in (('a', self.a), ('b', self.b)):
                if any(e[3] == rid for e in daemon_access(d.read_log())):
                    return name
            return None
        return wait_for(find, timeout=3.0)

    def sql(self, query):
        return [tuple(pgtest.typed(f) for f in r) for r in self.cluster.psql(self.url, query)]

    def answer(self, token):
        rows = self.sql("SELECT answer FROM agent_checks WHERE token = %s" % pgtest.literal(token))
        return str(rows[0][0]) if rows else None


def x_sql(cluster, url, query):
    return [tuple(pgtest.typed(f) for f in r) for r in cluster.psql(url, query)]


def lost_connections(t, x, a, b, rng):
    """PostgreSQL drops every connection of both daemons while a client
    plays: each move answered 200 is stored, the others are answered with
    an error and stored nowhere, and both daemons go on serving."""
    applied, failed, r = {}, 0, None
    for i in range(60):
        if i % 10 == 5:
            x.sql('SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity '
                  'WHERE datname = current_database() AND pid <> pg_backend_pid()')
        legal = (r.json.get('legalActions') or []) if r is not None else []
        caps = [c for c in legal if c['type'] == 'capture']
        action = rng.choice(caps) if caps else {'type': 'next'} if any(
            c['type'] == 'next' for c in legal) else None
        if action is None:
            r = x.call('GET', '/api/games/duskcourt/init?seed=%d' % (21 + i))
            if r.status != 200:
                failed += 1
                r = None
            else:
                applied[r.json['runId']] = 0
            continue
        r2 = x.call('POST', '/api/games/duskcourt/action',
                    {'stateToken': r.json['stateToken'], 'action': action})
        if r2.status == 200:
            applied[r.json['runId']] += 1
            r = r2
        else:
            failed += 1
    stored = {str(k): v for k, v in x.sql('SELECT id, step FROM runs WHERE id IN (%s)' % ', '.join(
        str(int(k)) for k in applied))}
    t.ok(stored == applied and sum(applied.values()) > 30,
         'connections dropped 6 times under play: %d moves answered 200 over %d runs, %d requests '
         'answered otherwise; every run stores exactly its answered moves'
         % (sum(applied.values()), len(applied), failed))
    if stored != applied:
        t.diag('stored %r, answered %r' % (stored, applied))
    t.ok(all(d.get('/readyz').status == 200 for d in (a, b)),
         'both daemons reconnected and take writes')
    x.sql('SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity '
          'WHERE datname = current_database() AND pid <> pg_backend_pid()')
    reads = [d.get('/api/games/duskcourt/leaderboard?limit=5').status for d in (a, b) for _ in range(3)]
    t.eq(reads, [200] * 6, 'reads right after their connections were dropped are answered '
         '(a reader reconnects and runs its statement again)')


def versus(t, x):
    """Versus matches through nginx on two daemons: every request that names
    a match goes to the one daemon its id hashes to (its long polls, streams
    and deadlines live there), and the matches spread over both daemons."""
    def post(path, body, key):
        return x.call('POST', path, body, headers={'Authorization': 'Bearer ' + key})

    keys = [x.call('POST', '/api/v1/accounts', {'name': 'vs_%d' % i}).json['agentKey']
            for i in range(4)]
    homes, sticky, played = {}, [], None
    # Matches until each daemon holds one (the chance that 40 random ids all
    # hash to one daemon is 2^-39).
    for i in range(40):
        creator, joiner = keys[(2 * i) % 4], keys[(2 * i + 1) % 4]
        r = post('/api/matches', {'players': 2, 'turn_seconds': 30}, creator)
        if r.status != 201:
            t.ok(False, 'a match is created through nginx (%r)' % r)
            return
        mid = r.json['match_id']
        ids = []
        if played is None:
            # The first one is played: a long poll for turn 1 on the daemon
            # of the match is answered by the other player's move.
            j = post('/api/matches/%s/join' % mid, {}, joiner)
            ids.append(j.header('X-Request-Id'))
            m1 = post('/api/matches/%s/move' % mid, {'turn': 1, 'command': 'place 0 0'}, creator)
            ids.append(m1.header('X-Request-Id'))
            got = {}

            def poll():
                t0 = time.monotonic()
                got['r'] = x.call('GET', '/api/matches/%s/wait?after=0' % mid)
                got['took'] = time.monotonic() - t0
            th = threading.Thread(target=poll)
            th.start()
            time.sleep(1.0)
            m2 = post('/api/matches/%s/move' % mid, {'turn': 1, 'command': 'place 0 4'}, joiner)
            ids.append(m2.header('X-Request-Id'))
            th.join()
            w = got['r']
            ids.append(w.header('X-Request-Id'))
            ids.append(x.call('GET', '/api/matches/%s' % mid).header('X-Request-Id'))
            played = (j.status, m1.status, m2.status, w.status, w.json.get('turn') if w.json else None,
                      got['took'])
        else:
            ids.append(x.call('GET', '/api/matches/%s' % mid).header('X-Request-Id'))
            ids.append(x.call('GET', '/api/matches/%s' % mid).header('X-Request-Id'))
        ids.append(r.header('X-Request-Id'))
        where = [x.served_by(rid) for rid in ids[:-1]]
        sticky.append(len(set(where)) == 1 and None not in where)
        homes[mid] = where[0]
        if len(set(homes.values())) == 2 and i >= 3:
            break
    t.ok(played is not None and played[:5] == (200, 200, 200, 200, 1) and played[5] < 5,
         'a match played through nginx on two daemons: join, the two moves of turn 1, and a long '
         'poll answered by the second move (%s)' % (played,))
    t.ok(all(sticky), 'every request naming a match went to one daemon (%d matches)' % len(sticky))
    t.ok(set(homes.values()) == {'a', 'b'},
         'the matches are spread over both daemons (%s)' % sorted(homes.values()))


def overdue(t, a, b):
    """A match started on daemon a, whose turn deadline only a armed: a is
    stopped (SIGSTOP) before it fires, and b's scan for overdue deadlines
    resolves the turn in its place."""
    import signal
    h = [{'Authorization': 'Bearer ' + a.post('/api/v1/accounts', {'name': 'late_%d' % i}).json['agentKey']}
         for i in range(2)]
    mid = a.post('/api/matches', {'players': 2, 'turn_seconds': 2}, headers=h[0]).json['match_id']
    j = a.post('/api/matches/%s/join' % mid, {}, headers=h[1])
    t0 = time.monotonic()
    a.send_signal(signal.SIGSTOP)
    m = {}
    try:
        while time.monotonic() - t0 < 15:
            r = b.get('/api/matches/%s' % mid)
            m = r.json if r.status == 200 else {}
            if m.get('turn', 0) >= 1:
                break
            time.sleep(0.25)
    finally:
        a.send_signal(signal.SIGCONT)
    took = time.monotonic() - t0
    t.ok(j.status == 200 and m.get('turn', 0) >= 1 and took < 10,
         'a daemon stopped after starting a match: the other daemon\'s scan fires the turn\'s '
         'deadline (turn %s after %.1f s; deadline 2 s, scan for 2 s late)' % (m.get('turn'), took))
    t.ok(a.get('/readyz').status == 200 and a.get('/api/matches/%s' % mid).json['turn'] >= 1,
         'the stopped daemon, continued, sees the turn resolved (its own deadline found it done)')


def deadlock(t, x, a, cluster, url):
    """A deadlock between a daemon's batch and another session: the daemon
    is chosen as the victim, runs its batch again, and the finish is
    answered 200 once, stored once."""
    import subprocess
    r = a.get('/api/games/duskcourt/init?seed=3')
    while r.status == 200 and not r.json['state'].get('over') and r.json.get('legalActions'):
        legal = r.json['legalActions']
        kinds = {c['type'] for c in legal}
        action = {'type': 'endRun'} if 'endRun' in kinds else legal[0]
        r = a.post('/api/games/duskcourt/action', {'stateToken': r.json['stateToken'], 'action': action})
    run, token = int(r.json['runId']), r.json['stateToken']
    psql = subprocess.Popen([os.path.join(pgtest.bindir(), 'psql'), '-X', '-q', '-d', url],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def say(sql):
        psql.stdin.write(sql + '\n')
        psql.stdin.flush()
    # The other session holds the review count, which a finish writes last;
    # it looks for deadlocks only after 10 s, the daemon's session after
    # PostgreSQL's default 1 s: the daemon is the one aborted.
    say("SET deadlock_timeout = '10s';")
    say("BEGIN; INSERT INTO review_stats (game, count, total) VALUES ('duskcourt', 0, 0) "
        "ON CONFLICT (game) DO UPDATE SET count = review_stats.count;")
    say('\\echo holding')
    psql.stdout.readline()
    out = {}
    th = threading.Thread(target=lambda: out.update(r=a.post('/api/games/duskcourt/finish', {
        'stateToken': token, 'rating': 5, 'review': 'through a deadlock'})))
    th.start()
    # The finish locks the run, then waits for the count; now this session
    # asks for the run: each waits for the other.
    wait_for(lambda: x_sql(cluster, url, "SELECT count(*) FROM pg_locks WHERE NOT granted")[0][0] > 0)
    say('SELECT 1 FROM runs WHERE id = %d FOR UPDATE;' % run)
    say('\\echo got')
    while psql.stdout.readline().strip() != 'got':
        pass
    say('ROLLBACK;')
    psql.stdin.close()
    psql.wait(30)
    psql.stdout.close()
    th.join(30)
    fin = out.get('r')
    t.ok(fin is not None and fin.status == 200 and fin.json.get('certificate'),
         'a finish caught in a deadlock is run again and answered 200 (%r)' % fin)
    if not t.ok(wait_for(lambda: 'runs again (40P01)' in a.read_log()),
                'the daemon logs the batch it ran again after the deadlock'):
        t.diag('\n'.join(l for l in a.read_log().splitlines() if 'access' not in l)[-1500:])
    t.eq(x_sql(cluster, url, 'SELECT count(*) FROM reviews WHERE run_id = %d' % run), [(1,)],
         'and the review is stored once')


def play_duskcourt(x, seed, rng):
    """One Duskcourt run through nginx to its end and a review; returns
    (runId, [daemon per request], problems)."""
    served, problems = [], []
    r = x.call('GET', '/api/games/duskcourt/init?seed=%d' % seed)
    if r.status != 200:
        return None, served, ['init: %r' % r]
    served.append(x.served_by(r.header('X-Request-Id')))
    run = r.json['runId']
    for _ in range(300):
        legal = r.json.get('legalActions') or []
        phase = r.json['state'].get('phase')
        if not legal:
            break
        caps = [a for a in legal if a['type'] == 'capture']
        kinds = {a['type'] for a in legal}
        if caps:
            action = rng.choice(caps)
        elif 'next' in kinds and r.json['state'].get('rung', 1) < 3:
            action = {'type': 'next'}
        elif 'endRun' in kinds:
            action = {'type': 'endRun'}
        else:
            action = legal[0]
        r2 = x.call('POST', '/api/games/duskcourt/action',
                    {'stateToken': r.json['stateToken'], 'action': action})
        served.append(x.served_by(r2.header('X-Request-Id')))
        if r2.status != 200:
            problems.append('action %r in phase %s: %r' % (action, phase, r2))
            break
        r = r2
    r2 = x.call('POST', '/api/games/duskcourt/finish',
                {'stateToken': r.json['stateToken'], 'rating': rng.randint(1, 10),
                 'review': 'played across two daemons'})
    served.append(x.served_by(r2.header('X-Request-Id')))
    if r2.status != 200 or not r2.json.get('certificate'):
        problems.append('finish: %r' % r2)
    return run, served, problems


def alternation(served):
    """The share of consecutive requests served by different daemons."""
    pairs = list(zip(served, served[1:]))
    return sum(1 for p, q in pairs if p != q) / max(len(pairs), 1)


def parallel(n, fn):
    out = [None] * n
    ths = [threading.Thread(target=lambda i=i: out.__setitem__(i, fn(i))) for i in range(n)]
    for th in ths:
        th.start()
    for th in ths:
        th.join()
    return out


def main():
    t = Tap()
    try:
        cluster = pgtest.Cluster()
    except RuntimeError as e:
        t.ok(False, 'a throwaway PostgreSQL cluster starts: %s' % e)
        t.done()
    t.ok(True, 'a throwaway PostgreSQL cluster starts (unix socket only, as %s)' %
         ('nobody' if os.getuid() == 0 else 'this user'))
    scratch = tempfile.mkdtemp(prefix='arcaded-scaleout-')
    os.chmod(scratch, 0o711)
    a = b = n = None
    try:
        url = cluster.create_db('scaleout')
        key = os.path.join(scratch, 'shared.key')
        folders = []
        for name in ('a', 'b'):
            f = os.path.join(scratch, name)
            os.mkdir(f)
            os.chmod(f, 0o711)
            folders.append(f)
        args = ['--db', url, '--key-file', key]
        a = Daemon(folder=folders[0], listen='unix:' + os.path.join(folders[0], 'arcaded.sock'), args=args)
        b = Daemon(folder=folders[1], listen='unix:' + os.path.join(folders[1], 'arcaded.sock'), args=args)
        for d in (a, b):
            os.chown(d.socket_path, -1, run_as()[1])
        logs = wait_for(lambda: (lambda ls: ls if len(ls) == 2 else None)(
            [l for l in (d.read_log() for d in (a, b)) if 'serving on' in l])) or []
        t.ok(len(logs) == 2 and all('database postgresql://arcaded@/' in l for l in logs) and
             not any(':' + 'password' in l for l in logs),
             'both daemons start on one PostgreSQL database with one key file, and log its URL '
             'without a password')
        t.eq(x_sql(cluster, url, 'SELECT version, count(*) FROM schema_migrations GROUP BY version '
                   'HAVING count(*) <> 1'), [], 'each migration was applied once')
        with open(SITE) as f:
            text = f.read()
        port = free_port()
        nd = os.path.join(scratch, 'nginx')
        site = site_for(text, [a.socket_path, b.socket_path], nd, port)
        t.ok(unsite(site, [a.socket_path, b.socket_path], nd, port) == text,
             'the site runs as shipped but for paths, ports and the second upstream line')
        t.ok(site.count('server unix:' + a.socket_path) == 2 and
             site.count('server unix:' + b.socket_path) == 2 and
             not re.search(r'^\s*server unix:' + re.escape(b.socket_path) + r'.*backup', site, re.M),
             'both daemons are active servers of both upstreams, arcaded and arcaded_matches '
             '(no backup)')
        n = Nginx(nd, site)
        n.start([port])
        x = Both(t, port, a, b, cluster, url)
        rng = random.Random(20261130)

        # Games whose requests alternate between the daemons.
        runs, served, problems = [], [], []
        for seed in (7, 11, 12, 7):
            run, s, p = play_duskcourt(x, seed, rng)
            runs.append(run)
            served += s
            problems += p
        t.eq(problems, [], 'four Duskcourt runs played to a review through nginx, every answer 200')
        t.ok(None not in served and served.count('a') > 10 and served.count('b') > 10,
             'both daemons served them (a: %d, b: %d requests)' % (served.count('a'), served.count('b')))
        share = alternation(served)
        t.ok(share >= 0.9, 'consecutive requests of a run alternate between the daemons '
             '(%.0f%% of %d pairs): each token sealed by one daemon is opened by the other'
             % (100 * share, len(served) - 1))
        moves = x.sql('SELECT count(*) FROM runs r WHERE step <> '
                      '(SELECT count(*) FROM moves m WHERE m.run_id = r.id)')
        t.eq(moves, [(0,)], 'every stored head counts exactly its stored moves')

        # Every finished run verifies on both daemons, certificate included.
        bad = []
        for run in runs:
            pages = [d.get('/api/games/duskcourt/runs/%s' % run) for d in (a, b)]
            if pages[0].status != 200 or pages[0].body != pages[1].body:
                bad.append('run %s page differs: %r / %r' % (run, pages[0], pages[1]))
                continue
            body = {'replay': pages[0].json['replay'], 'certificate': pages[0].json['certificate']}
            for d in (a, b):
                v = d.post('/api/games/duskcourt/replays/verify', body)
                if not (v.status == 200 and v.json.get('valid') and
                        (v.json.get('certificate') or {}).get('valid')):
                    bad.append('run %s on %s: %r' % (run, d.socket_path, v))
        t.eq(bad, [], 'each run page reads the same from both daemons, and its replay and '
             'certificate verify on each')
        for path in ('/api/games/duskcourt/leaderboard?limit=10', '/api/games/duskcourt/leaderboard?seed=7',
                     '/api/games/duskcourt/reviews?limit=10'):
            ra, rb = a.get(path), b.get(path)
            t.ok(ra.status == 200 and ra.body == rb.body, '%s reads the same from both daemons' % path)
        rv = a.get('/api/games/duskcourt/reviews?limit=100').json
        t.eq(rv.get('count'), len(runs), 'the review count is every finish, whichever daemon took it')

        # An account: created once out of 20 parallel claims of one name.
        got = parallel(20, lambda i: x.call('POST', '/api/v1/accounts', {'name': 'Shared_Name'}))
        codes = sorted(r.status for r in got)
        t.ok(codes.count(201) == 1 and codes.count(409) == 19 and
             all(r.error_code == 'name_taken' for r in got if r.status == 409),
             'twenty parallel claims of one name through nginx: one account, 19 name_taken (%s)'
             % codes)
        owners = {x.served_by(r.header('X-Request-Id')) for r in got}
        t.ok(owners == {'a', 'b'}, 'the claims reached both daemons (%s)' % sorted(map(str, owners)))
        keyres = next(r for r in got if r.status == 201)
        auth = {'Authorization': 'Bearer ' + keyres.json['agentKey']}
        t.eq(x.sql("SELECT count(*) FROM accounts WHERE lower(name) = 'shared_name'"), [(1,)],
             'one row holds the name')

        # Stackfall, token routes, agent check on: 20 different placements at once.
        r = x.call('POST', '/api/games/stackfall/init', {'seed': 5}, headers=auth)
        ok = r.status == 200
        tok, ac = (r.json['stateToken'], r.json['agent_check']) if ok else (None, None)
        r = x.call('POST', '/api/games/stackfall/action', {'stateToken': tok, 'command': 'options'},
                   headers=dict(auth, **{'X-Agent-Check': ac['token'],
                                         'X-Agent-Answer': x.answer(ac['token'])})) if ok else r
        opts = [o['command'] for o in r.json['results'][0]['options']] if r.status == 200 else []
        t.ok(len(opts) >= 20 and r.json['stateToken'] == tok,
             'a Stackfall run with the agent check on offers %d placements' % len(opts))
        puzzles = []
        for _ in range(20):
            p = x.call('GET', '/api/v1/agent-check', headers=auth)
            puzzles.append((p.json['agent_check']['token'], x.answer(p.json['agent_check']['token']))
                           if p.status == 200 else (None, None))

        def place(i):
            return x.call('POST', '/api/games/stackfall/action',
                          {'stateToken': tok, 'command': opts[i % len(opts)]},
                          headers=dict(auth, **{'X-Agent-Check': puzzles[i][0],
                                                'X-Agent-Answer': puzzles[i][1]}))
        got = parallel(20, place) if len(opts) >= 20 else []
        codes = sorted(r.status for r in got)
        won = [i for i, r in enumerate(got) if r.status == 200]
        stale = [r for r in got if r.status == 409]
        t.ok(len(won) == 1 and len(stale) == 19 and
             all(r.error_code == 'stale_state_token' for r in stale),
             'twenty parallel different placements on one token, across two daemons: one applied, '
             '19 answered 409 (%s)' % codes)
        where = {x.served_by(r.header('X-Request-Id')) for r in got}
        t.ok(where == {'a', 'b'}, 'the twenty reached both daemons (%s)' % sorted(map(str, where)))
        def view(j):
            return tuple(j.get(k) for k in ('board_text', 'pieces', 'score', 'current', 'next', 'hold'))
        newest = view(got[won[0]].json) if won else None
        t.ok(stale and all(view(r.json) == newest and r.json.get('stateToken') for r in stale),
             'every 409 shows the run as the winner left it, with a token for it (the losers were '
             'judged after the winner\'s commit, on either daemon)')
        runid = got[won[0]].json['runId'] if won else '0'
        t.eq(x.sql('SELECT step, (SELECT count(*) FROM moves WHERE run_id = %d) FROM runs WHERE id = %d'
                   % (int(runid), int(runid))), [(1, 1)], 'the run stored exactly one move')

        # The winner's request again, on each daemon: the same answer, nothing stored.
        if won:
            i = won[0]
            retries = []
            for d in (a, b):
                p = d.get('/api/v1/agent-check', headers=auth)
                pt = p.json['agent_check']['token']
                retries.append(d.post('/api/games/stackfall/action',
                                      {'stateToken': tok, 'command': opts[i % len(opts)]},
                                      headers=dict(auth, **{'X-Agent-Check': pt,
                                                            'X-Agent-Answer': x.answer(pt)})))
            first = got[i].json
            t.ok(all(r.status == 200 and view(r.json) == view(first) and
                     r.json['results'] == first['results'] for r in retries),
                 'the applied request sent again to each daemon is answered as the first time '
                 '(%s)' % [r.status for r in retries])
            t.eq(x.sql('SELECT step FROM runs WHERE id = %d' % int(runid)), [(1,)],
                 'and stores nothing more')

        # A puzzle presented 20 times at once through nginx: spent once.
        p = x.call('GET', '/api/v1/agent-check', headers=auth)
        pt = p.json['agent_check']['token']
        ans = x.answer(pt)
        seed_state = parallel(20, lambda i: x.call('GET', '/games/stackfall/api/state', headers=dict(
            auth, **{'X-Agent-Check': pt, 'X-Agent-Answer': ans})))
        codes = sorted(r.status for r in seed_state)
        t.ok(codes.count(200) == 1 and codes.count(428) == 19,
             'one puzzle presented twenty times at once across both daemons passes once (%s)' % codes)

        # Stackfall's seed routes, alternating: place pieces, resign, finish.
        g_served, g_bad = [], []
        r = x.call('POST', '/games/stackfall/api/new', {'seed': 9}, headers=auth)
        for step in range(12):
            if r.status != 200:
                g_bad.append(r)
                break
            ac = r.json['agent_check']
            cmd = 'place %d %d' % (step % 2, (step * 3) % 7) if step < 11 else 'resign'
            r = x.call('POST', '/games/stackfall/api/act', {'command': cmd}, headers=dict(
                auth, **{'X-Agent-Check': ac['token'], 'X-Agent-Answer': x.answer(ac['token'])}))
            g_served.append(x.served_by(r.header('X-Request-Id')))
            if r.json and r.json.get('status') == 'over':
                break
        if r.status == 200:
            ac = r.json['agent_check']
            r = x.call('POST', '/games/stackfall/api/finish', {'rating': 6, 'review': 'two daemons'},
                       headers=dict(auth, **{'X-Agent-Check': ac['token'],
                                             'X-Agent-Answer': x.answer(ac['token'])}))
        t.ok(not g_bad and r.status == 200 and r.json.get('certificate'),
             'a Stackfall game on the account routes, its requests alternating (%.0f%%), ends with a '
             'certificate (%r)' % (100 * alternation(g_served), r))
        sf = r.json.get('runId') if r.status == 200 else None
        if sf:
            page = a.get('/api/games/stackfall/runs/%s' % sf)
            v = b.post('/api/games/stackfall/replays/verify',
                       {'replay': page.json['replay'], 'certificate': page.json['certificate']})
            t.ok(v.status == 200 and v.json.get('valid') and v.json['certificate']['valid'],
                 'its replay and certificate, read from one daemon, verify on the other')

        versus(t, x)
        overdue(t, a, b)
        lost_connections(t, x, a, b, rng)
        deadlock(t, x, a, cluster, url)

        n.stop()
        n = None
        rcs = (a.stop()[0], b.stop()[0])
        t.eq(rcs, (0, 0), 'both daemons exit 0')
        errors = [l for d in (a, b) for l in d.read_log().splitlines()
                  if ' error ' in l.lower() or 'postgresql:' in l]
        t.diag('daemon log lines about the database: %d' % len(errors))
        for l in errors[:8]:
            t.diag('  ' + l[:200])

        # Two daemons started at the same moment on a new database: the
        # migrations are applied once, by whichever gets there first.
        url2 = cluster.create_db('race')
        starters = parallel(2, lambda i: Daemon(folder=folders[i], args=['--db', url2, '--key-file', key]))
        t.ok(all(d.get('/readyz').status == 200 for d in starters),
             'two daemons started at once on a new database both serve')
        nmig = len([f for f in os.listdir(os.path.join(os.path.dirname(SITE), '..', 'migrations', 'pg'))
                    if f.endswith('.sql')])
        t.eq(x_sql(cluster, url2, 'SELECT count(*), count(DISTINCT version) FROM schema_migrations'),
             [(nmig, nmig)], 'each of the %d migrations recorded once' % nmig)
        for d in starters:
            d.stop()
    finally:
        if n is not None:
            n.stop()
        for d in (a, b):
            if d is not None:
                d.cleanup()
        cluster.stop()
        shutil.rmtree(scratch, ignore_errors=True)
    t.done()


if __name__ == '__main__':
    main()
