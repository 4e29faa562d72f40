"""arcaded copy: a SQLite database moved into an empty PostgreSQL one.

A daemon on SQLite gets accounts (one with a revoked key), Duskcourt and
Stackfall runs finished with reviews and certificates, unfinished runs and
live puzzles. Every run page, both games' leaderboards and reviews are
read from it; then it stops and `arcaded copy` moves its database into a
throwaway PostgreSQL cluster. A daemon on the copy, with the same key file,
must answer every one of those pages byte for byte as the SQLite daemon
did, verify every finished run's replay and certificate, accept the old
agent keys and stateTokens (an unfinished run goes on), and hand out new
ids past the copied ones. Copying into a database that is not empty is
refused. A database whose only review is unlisted (stored under a
negative id) copies too, and its copy lists the next review.
"""
import os
import random
import shutil

import pgtest
from harness import Daemon, Tap, run_binary

SF = '/api/games/stackfall/'


def answer(d, r):
    ac = r.json.get('agent_check') if r.json else None
    if not ac:
        return {}
    return {'X-Agent-Check': ac['token'],
            'X-Agent-Answer': str(d.sql('SELECT answer FROM agent_checks WHERE token = ?',
                                        (ac['token'],))[0][0])}


def duskcourt(d, seed, rng, finish=True):
    r = d.get('/api/games/duskcourt/init?seed=%d' % seed)
    for _ in range(200):
        legal = r.json.get('legalActions') or []
        caps = [a for a in legal if a['type'] == 'capture']
        kinds = {a['type'] for a in legal}
        if not finish and len(caps) and rng.random() < 0.3:
            return r
        action = rng.choice(caps) if caps else {'type': 'endRun'} if 'endRun' in kinds else (
            legal[0] if legal else None)
        if action is None:
            break
        r = d.post('/api/games/duskcourt/action', {'stateToken': r.json['stateToken'], 'action': action})
    return d.post('/api/games/duskcourt/finish', {'stateToken': r.json['stateToken'],
                                                  'rating': rng.randint(1, 10), 'review': 'seed %d' % seed})


def stackfall(d, key, seed, rng):
    auth = {'Authorization': 'Bearer ' + key}
    r = d.post(SF + 'init', {'seed': seed}, headers=auth)
    for i in range(8):
        r = d.post(SF + 'action', {'stateToken': r.json['stateToken'],
                                   'command': 'place %d %d' % (rng.randint(0, 3), rng.randint(0, 6))},
                   headers=dict(auth, **answer(d, r)))
    r = d.post(SF + 'action', {'stateToken': r.json['stateToken'], 'command': 'resign'},
               headers=dict(auth, **answer(d, r)))
    return d.post(SF + 'finish', {'stateToken': r.json['stateToken'], 'rating': rng.randint(1, 10),
                                  'review': 'stackfall seed %d' % seed}, headers=dict(auth, **answer(d, r)))


def main():
    t = Tap()
    rng = random.Random(7)
    d = Daemon()
    pg = cluster = None
    try:
        keys = []
        for name in ('copy_one', 'copy_two'):
            r = d.post('/api/v1/accounts', {'name': name})
            keys.append(r.json['agentKey'])
        r2 = d.post('/api/v1/me/keys', headers={'Authorization': 'Bearer ' + keys[0]})
        d.request('DELETE', '/api/v1/me/keys/' + r2.json['keyId'],
                  headers={'Authorization': 'Bearer ' + keys[0]})
        finished, statuses = [], []
        for seed in (7, 7, 8, 9, 10):
            r = duskcourt(d, seed, rng)
            statuses.append(r.status)
            finished.append(('duskcourt', r.json.get('runId')))
        for i, seed in enumerate((3, 3, 4)):
            r = stackfall(d, keys[i % 2], seed, rng)
            statuses.append(r.status)
            finished.append(('stackfall', r.json.get('runId')))
        t.eq(statuses, [200] * 8, 'eight runs of both games finished with reviews on SQLite')
        open_run = duskcourt(d, 30, rng, finish=False)
        t.ok(open_run.status == 200, 'and one Duskcourt run left playing')
        paths = ['/api/games/%s/runs/%s' % (g, run) for g, run in finished]
        paths.append('/api/games/duskcourt/runs/%s' % open_run.json['runId'])
        for g in ('duskcourt', 'stackfall'):
            paths += ['/api/games/%s/leaderboard?limit=100' % g, '/api/games/%s/leaderboard?seed=7' % g,
                      '/api/games/%s/leaderboard?seed=3' % g, '/api/games/%s/reviews?limit=100' % g]
        before = {p: d.get(p) for p in paths}
        t.ok(all(r.status == 200 for r in before.values()), 'the pages read on SQLite')
        me_before = d.get('/api/v1/me', headers={'Authorization': 'Bearer ' + keys[0]}).body
        d.stop()

        cluster = pgtest.Cluster()
        url = cluster.create_db('copy')
        rc, out, err = run_binary(['copy', '--from', d.db, '--to', url], timeout=120)
        t.ok(rc == 0 and 'moves: ' in out and 'copied' in out,
             'arcaded copy exits 0 and reports each table: %s' % (out + err).strip().replace('\n', '; '))
        rc, out, err = run_binary(['copy', '--from', d.db, '--to', url], timeout=120)
        t.ok(rc == 1 and 'empty' in err, 'copying into a database that is not empty is refused: %s'
             % err.strip())

        pg = Daemon(args=['--db', url, '--key-file', os.path.join(d.folder, 'arcaded.key')])
        after = {p: pg.get(p) for p in paths}
        diff = [p for p in paths if after[p].status != 200 or after[p].body != before[p].body]
        t.eq(diff, [], 'every run page, leaderboard and review page reads byte for byte the same '
             'from the copy (%d pages)' % len(paths))
        bad = []
        for g, run in finished:
            page = after['/api/games/%s/runs/%s' % (g, run)].json
            v = pg.post('/api/games/%s/replays/verify' % g,
                        {'replay': page['replay'], 'certificate': page['certificate']})
            if not (v.status == 200 and v.json['valid'] and v.json['certificate']['valid']):
                bad.append((run, v.body[:100]))
        t.eq(bad, [], 'the daemon on the copy verifies every finished run\'s replay and certificate')
        t.eq(pg.get('/api/v1/me', headers={'Authorization': 'Bearer ' + keys[0]}).body, me_before,
             'an agent key made on SQLite works on the copy, its revoked key still listed as revoked')
        legal = [a for a in open_run.json['legalActions'] if a['type'] == 'capture']
        r = pg.post('/api/games/duskcourt/action', {'stateToken': open_run.json['stateToken'],
                                                    'action': legal[0]})
        t.ok(r.status == 200, 'a stateToken issued on SQLite plays on the copy (%d)' % r.status)
        r = pg.post('/api/v1/accounts', {'name': 'after_copy'})
        t.ok(r.status == 201, 'a new account on the copy gets an id past the copied ones')
        # A run of 10 moves at least: an anonymous run's review is listed from there.
        r, played = pg.get('/api/games/duskcourt/init?seed=7'), 0
        while r.json['state']['phase'] != 'done' and played < 200:
            legal = r.json['legalActions']
            caps = [a for a in legal if a['type'] == 'capture']
            act = rng.choice(caps) if caps else {'type': 'endRun' if played >= 10 else 'next'}
            r = pg.post('/api/games/duskcourt/action', {'stateToken': r.json['stateToken'], 'action': act})
            played += 1
        r = pg.post('/api/games/duskcourt/finish', {'stateToken': r.json['stateToken'], 'rating': 6,
                                                   'review': 'after the copy'})
        reviews = pg.get('/api/games/duskcourt/reviews?limit=1').json
        t.ok(r.status == 200 and reviews['reviews'][0]['runId'] == r.json['runId'],
             'a new review on the copy comes first in the newest-first list')
        t.eq(pg.stop()[0], 0, 'the daemon on the copy exits 0')

        # libpq's environment: a URL with neither host nor user.
        dbname = url.split('/')[3].split('?')[0]
        env_d = Daemon(args=['--db', 'postgresql:///' + dbname, '--key-file',
                             os.path.join(d.folder, 'arcaded.key')],
                       env={'PGHOST': cluster.dir, 'PGUSER': cluster.SUPERUSER})
        r = env_d.get(paths[0])
        t.ok(r.status == 200 and r.body == before[paths[0]].body,
             'a daemon given postgresql:///%s finds the server and the role in PGHOST and PGUSER' % dbname)
        env_d.cleanup()

        # A database whose only review is unlisted (an anonymous run ended
        # early: its review is stored under the run's id negated). The copy
        # used to fail moving the review sequence to that negative id.
        h = Daemon()
        try:
            r, played = h.get('/api/games/duskcourt/init?seed=5'), 0
            while r.json['state']['phase'] != 'done' and played < 60:
                legal = r.json['legalActions']
                act = {'type': 'endRun'} if any(a['type'] == 'endRun' for a in legal) else legal[0]
                r = h.post('/api/games/duskcourt/action', {'stateToken': r.json['stateToken'], 'action': act})
                played += 1
            r = h.post('/api/games/duskcourt/finish', {'stateToken': r.json['stateToken'], 'rating': 3,
                                                      'review': 'too short to list'})
            hidden = h.sql('SELECT count(*) FROM reviews WHERE id < 0')[0][0]
            t.ok(r.status == 200 and hidden == 1, 'a run ended at once: its review is unlisted (%d, %d)'
                 % (r.status, hidden))
            h.stop()
            url2 = cluster.create_db('copyhidden')
            rc, out, err = run_binary(['copy', '--from', h.db, '--to', url2], timeout=120)
            t.ok(rc == 0, 'a database whose reviews are all unlisted copies: %s' % (out + err).strip()[-200:])
            h2 = Daemon(args=['--db', url2, '--key-file', os.path.join(h.folder, 'arcaded.key')])
            try:
                r, played = h2.get('/api/games/duskcourt/init?seed=8'), 0
                while r.json['state']['phase'] != 'done' and played < 200:
                    caps = [a for a in r.json['legalActions'] if a['type'] == 'capture']
                    act = rng.choice(caps) if caps else {'type': 'endRun' if played >= 10 else 'next'}
                    r = h2.post('/api/games/duskcourt/action', {'stateToken': r.json['stateToken'],
                                                                'action': act})
                    played += 1
                r = h2.post('/api/games/duskcourt/finish', {'stateToken': r.json['stateToken'], 'rating': 6,
                                                           'review': 'listed on the copy'})
                listed = h2.get('/api/games/duskcourt/reviews?limit=5').json['reviews']
                t.ok(r.status == 200 and [x['runId'] for x in listed] == [r.json['runId']],
                     'and a listed review on the copy takes a positive id and is the one listed')
            finally:
                h2.cleanup()
        finally:
            h.cleanup()
    finally:
        d.cleanup()
        if pg is not None:
            pg.cleanup()
        if cluster is not None:
            cluster.stop()
    t.done()


if __name__ == '__main__':
    main()
