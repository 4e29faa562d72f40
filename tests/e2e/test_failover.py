"""Failover (issue 28): a primary and a synchronous hot standby (two
throwaway clusters on unix sockets, tests/e2e/pgtest.py), two daemons on
one multi-host URL with target_session_attrs=read-write, bots playing
Duskcourt and Stackfall runs and versus matches on both daemons; the
primary is killed with SIGKILL, the standby promoted. Asserted: every
error a client saw was a 503 with Retry-After (database_unavailable or
outcome_unknown), a request resent after outcome_unknown got its first
answer, every acknowledged (200) action is on the new primary exactly once
(a run's step count equals its acknowledged actions; each acknowledged
versus move is stored for its seat and turn), and both daemons answer
again by themselves. Then a dead synchronous standby: a write's COMMIT
waits for it until --db-statement-timeout and is answered 503
outcome_unknown (committed on the primary, not confirmed by the standby),
the same request resent gets its first answer, /readyz says the database
is unavailable. Bounded: the bots stop by themselves after a fixed time,
the whole test takes well under 90 s.
"""
import json
import os
import random
import threading
import time
import urllib.parse

import pgtest
from harness import BACKEND, Daemon, Tap

t = Tap()
BEFORE_S = 4.0     # play this long on the first primary
# From the kill to the promotion: longer than the retry budget, so that
# both kinds of 503 are met (FAILOVER_OUTAGE_S: for measuring others).
OUTAGE_S = float(os.environ.get('FAILOVER_OUTAGE_S', '3.0'))
AFTER_S = 5.0      # play this long on the new one
RETRY = '2'        # --db-retry-seconds


def bail_out(why):
    print('Bail out! %s' % why)
    raise SystemExit(1)


class Log:
    """What every bot saw, with the time of each acknowledgement."""

    def __init__(self):
        self.mu = threading.Lock()
        self.errors = {}       # (status, code, has Retry-After) -> count
        self.problems = []
        self.acks = []         # monotonic times of 200s to writes
        self.unknown = 0       # outcome_unknown answers
        self.resent_ok = 0     # resends after outcome_unknown answered 2xx
        self.requests = 0
        self.full = 0          # boards full (a piece that does not fit): a new game

    def error(self, r):
        key = (r.status, r.error_code, r.header('Retry-After') is not None)
        with self.mu:
            self.errors[key] = self.errors.get(key, 0) + 1

    def problem(self, text):
        with self.mu:
            if len(self.problems) < 20:
                self.problems.append(text)


def send(log, d, method, path, body, headers, until):
    """One request, sent again while it is answered 503 (the same request:
    after outcome_unknown that is how its outcome is learnt). Answers the
    first other answer, or None when the time is up."""
    unknown = False
    while time.monotonic() < until + 15:
        try:
            r = d.request(method, path, body, headers=headers)
        except OSError as e:
            log.problem('%s %s: %s' % (method, path, e))
            return None
        with log.mu:
            log.requests += 1
        if r.status != 503:
            done = 200 <= r.status < 300  # a match's create answers 201
            if unknown:
                # The first answer: done, or the refusal of a piece that
                # does not fit (a refusal decided inside a batch whose
                # commit was cut is answered outcome_unknown too).
                fits = not (r.status == 422 and 'does not fit' in r.body)
                with log.mu:
                    log.resent_ok += done or not fits
                if not done and fits:
                    log.problem('resent after outcome_unknown: %s %s -> %r' % (method, path, r))
            if done and method == 'POST':
                with log.mu:
                    log.acks.append(time.monotonic())
            return r
        log.error(r)
        if r.error_code == 'outcome_unknown':
            unknown = True
            with log.mu:
                log.unknown += 1
        if r.header('Retry-After') is None or r.error_code not in ('database_unavailable',
                                                                   'outcome_unknown'):
            log.problem('%s %s: %r' % (method, path, r))
        time.sleep(0.1)
    return None


def board_full(log, r):
    """A piece refused for not fitting (422): the bots' simple columns
    filled the board. Not an error of the outage: the bot starts anew."""
    if r is not None and r.status == 422 and 'does not fit' in r.body:
        with log.mu:
            log.full += 1
        return True
    return False


def refused(log, r, what):
    if r is not None and r.status != 200:
        log.error(r)
        log.problem('%s: %r' % (what, r))


def duskcourt_bot(log, d, seed, until, runs):
    """Duskcourt runs, anonymous: every acknowledged action counted."""
    rng = random.Random(seed)
    while time.monotonic() < until:
        r = send(log, d, 'GET', '/api/games/duskcourt/init?seed=%d' % rng.randint(1, 10**9), None, {},
                 until)
        if r is None or r.status != 200:
            refused(log, r, 'duskcourt init')
            return
        run = int(r.json['runId'])
        runs[run] = 0
        while time.monotonic() < until:
            legal = r.json.get('legalActions') or []
            if not legal:
                break
            caps = [a for a in legal if a['type'] == 'capture']
            kinds = {a['type'] for a in legal}
            action = rng.choice(caps) if caps else {'type': 'next'} if 'next' in kinds else \
                {'type': 'endRun'} if 'endRun' in kinds else legal[0]
            r2 = send(log, d, 'POST', '/api/games/duskcourt/action',
                      {'stateToken': r.json['stateToken'], 'action': action}, {}, until)
            if r2 is None or r2.status != 200:
                refused(log, r2, 'duskcourt action')
                return
            runs[run] += 1
            r = r2


def stackfall_bot(log, d, seed, until, runs):
    """Stackfall runs, a piece a request at columns that always fit."""
    col = seed % 7
    while time.monotonic() < until:
        r = send(log, d, 'POST', '/api/games/stackfall/init', {}, {}, until)
        if r is None or r.status != 200:
            refused(log, r, 'stackfall init')
            return
        run = int(r.json['runId'])
        runs[run] = 0
        while time.monotonic() < until and r.json['status'] == 'playing':
            col = (col + 3) % 7
            r2 = send(log, d, 'POST', '/api/games/stackfall/action',
                      {'stateToken': r.json['stateToken'], 'command': 'place 0 %d' % col}, {}, until)
            if board_full(log, r2):
                break
            if r2 is None or r2.status != 200:
                refused(log, r2, 'stackfall action')
                return
            runs[run] += 1
            r = r2


def versus_bot(log, d, other, seed, until, moves):
    """Versus matches of two players, one on each daemon, to their end."""
    keys = []
    for i in range(2):
        r = send(log, d, 'POST', '/api/v1/accounts', {'name': 'fo_%d_%d' % (seed, i)}, {}, until)
        if r is None or r.status != 201:
            refused(log, r, 'account')
            return
        keys.append({'Authorization': 'Bearer ' + r.json['agentKey']})
    daemons = [d, other]
    while time.monotonic() < until:
        r = send(log, d, 'POST', '/api/matches', {'players': 2, 'turn_seconds': 60}, keys[0], until)
        if r is None or r.status != 201:
            refused(log, r, 'match')
            return
        mid = int(r.json['match_id'])
        r = send(log, other, 'POST', '/api/matches/%s/join' % mid, None, keys[1], until)
        if r is None or r.status != 200:
            refused(log, r, 'join')
            return
        turn = 1
        while time.monotonic() < until:
            done = False
            for seat in range(2):
                command = 'place 0 %d' % ((turn * 3 + seat * 2) % 7)
                r = send(log, daemons[seat], 'POST', '/api/matches/%s/move' % mid,
                         {'turn': turn, 'command': command}, keys[seat], until)
                if r is not None and r.status == 409 and r.error_code == 'match_over' or \
                        board_full(log, r):
                    done = True
                    break
                if r is None or r.status != 200:
                    refused(log, r, 'move')
                    return
                moves.append((mid, turn, seat, r.json['move']))
                if r.json['state']['status'] != 'playing':
                    done = True
                    break
            if done:
                break
            turn += 1


def sync_pair():
    """A primary and its synchronous standby, a database on both: (primary,
    standby, dbname)."""
    primary = pgtest.Cluster({'synchronous_commit': 'on', 'full_page_writes': 'on',
                              'max_wal_senders': '4'})
    dbname = 'failover'
    primary.psql(primary.url('postgres'), 'CREATE DATABASE %s' % dbname)
    # The standby must not wait for a standby of its own once promoted.
    try:
        standby = pgtest.Cluster({'synchronous_commit': 'on', 'full_page_writes': 'on',
                                  'synchronous_standby_names': "''", 'hot_standby': 'on'},
                                 replica_of=primary, name='standby1')
    except Exception:
        primary.stop()
        raise
    # Synchronous from now on: a commit waits for the standby's flush.
    primary.psql(primary.url('postgres'), "ALTER SYSTEM SET synchronous_standby_names = 'standby1'")
    primary.psql(primary.url('postgres'), 'SELECT pg_reload_conf()')
    for _ in range(100):
        rows = primary.psql(primary.url('postgres'),
                            "SELECT sync_state FROM pg_stat_replication WHERE application_name = "
                            "'standby1'")
        if rows == [['sync']]:
            break
        time.sleep(0.1)
    return primary, standby, dbname, rows


def dead_standby():
    """The synchronous standby dies: a COMMIT waiting for it is cut by
    --db-statement-timeout and answered outcome_unknown."""
    primary, standby, dbname, _ = sync_pair()
    d = None
    try:
        d = Daemon(args=['--db', primary.url(dbname) + '&target_session_attrs=read-write',
                         '--db-statement-timeout', '1'])
        r = d.get('/api/games/duskcourt/init?seed=5')
        t.eq(r.status, 200, 'a run begun while the standby answers')
        body = {'stateToken': r.json['stateToken'], 'action': r.json['legalActions'][0]}
        standby.kill()
        t0 = time.monotonic()
        r1 = d.post('/api/games/duskcourt/action', body)
        took = time.monotonic() - t0
        t.ok(r1.status == 503 and r1.error_code == 'outcome_unknown' and
             r1.header('Retry-After') is not None and took < 4,
             'a move whose COMMIT waits for the dead standby: 503 outcome_unknown with Retry-After '
             'after %.2f s, not a hang (%d %s)' % (took, r1.status, r1.error_code))
        r2 = d.post('/api/games/duskcourt/action', body)
        t.ok(r2.status == 200 or (r2.status == 503 and r2.error_code in ('outcome_unknown',
                                                                          'database_unavailable')),
             'the same move resent: its first answer, or 503 again (%d %s)' % (r2.status, r2.error_code))
        step = primary.psql(primary.url(dbname), 'SELECT step FROM runs WHERE id = %s' % r.json['runId'])
        t.eq(step, [['1']], 'the move is on the primary once')
        t0 = time.monotonic()
        rz = d.get('/readyz')
        t.ok(rz.status == 503 and rz.error_code == 'database_unavailable' and
             time.monotonic() - t0 < 4, '/readyz with the standby dead: 503 database_unavailable in '
             '%.2f s' % (time.monotonic() - t0))
        t.ok('not confirmed by the synchronous standby' in d.read_log(), 'the daemon logs why')
    finally:
        if d is not None:
            d.stop()
            d.cleanup()
        standby.stop()
        primary.stop()


def main():
    if BACKEND != 'postgresql':
        bail_out('the failover test runs on PostgreSQL (registered as e2e-pg-failover)')
    primary = standby = None
    daemons = []
    try:
        primary, standby, dbname, rows = sync_pair()
        t.eq(rows, [['sync']], 'the standby streams from the primary as its synchronous standby')
        url = 'postgresql://%s@/%s?host=%s&target_session_attrs=read-write' % (
            pgtest.Cluster.SUPERUSER, dbname,
            urllib.parse.quote('%s,%s' % (primary.dir, standby.dir), safe=''))
        args = ['--db', url, '--agent-check', 'stackfall=off', '--db-retry-seconds', RETRY,
                '--threads', '8']
        daemons.append(Daemon(args=args))
        daemons.append(Daemon(args=args))
        a, b = daemons
        line = [l for l in a.read_log().splitlines() if 'serving on' in l]
        t.ok(line and 'host=%s,%s' % (primary.dir, standby.dir) in line[0] and
             'target_session_attrs=read-write' in line[0],
             'the startup line names both hosts and target_session_attrs')

        log = Log()
        runs, moves = {}, []
        t0 = time.monotonic()
        until = t0 + BEFORE_S + OUTAGE_S + AFTER_S
        bots = []
        for i, d in enumerate([a, b, a, b]):
            bots.append(threading.Thread(target=duskcourt_bot if i < 2 else stackfall_bot,
                                         args=(log, d, 100 + i, until, runs)))
        bots.append(threading.Thread(target=versus_bot, args=(log, a, b, 7, until, moves)))
        bots.append(threading.Thread(target=versus_bot, args=(log, b, a, 8, until, moves)))
        for th in bots:
            th.start()
        time.sleep(BEFORE_S)
        acked_before = len(log.acks)
        kill_at = time.monotonic()
        primary.kill()
        time.sleep(OUTAGE_S / 2)
        rz0 = time.monotonic()
        rz = a.get('/readyz')
        rz_took = time.monotonic() - rz0
        gauge_down = 'arcaded_store_reachable 0' in a.get('/metrics').body
        time.sleep(max(0.0, OUTAGE_S - (time.monotonic() - kill_at)))
        promote_at = time.monotonic()
        standby.promote()
        promoted = time.monotonic()
        for th in bots:
            th.join(60)
        alive = [th for th in bots if th.is_alive()]
        t.ok(not alive, 'every bot stopped by itself')
        t.ok(acked_before > 20, '%d writes acknowledged on the first primary' % acked_before)
        t.ok(rz.status == 503 and rz.error_code == 'database_unavailable' and
             rz.header('Retry-After') is not None and rz_took < float(RETRY) + 4.5,
             '/readyz during the outage: 503 database_unavailable with Retry-After in %.2f s (%d %s)' %
             (rz_took, rz.status, rz.error_code))
        t.ok(gauge_down, '/metrics says arcaded_store_reachable 0 meanwhile')
        after = [x for x in log.acks if x > promote_at]
        t.ok(len(after) > 20, '%d writes acknowledged on the new primary' % len(after))
        # The longest time without an acknowledged write around the kill.
        acks = sorted(x for x in log.acks if kill_at - 1 <= x)
        gaps = [(q - p, p) for p, q in zip(acks, acks[1:])]
        gap, gap_at = max(gaps) if gaps else (float('inf'), kill_at)
        t.diag('no write acknowledged for %.2f s, from %.2f s after the kill; the standby promoted '
               '%.2f s after the kill (pg_ctl promote took %.2f s); the first ack %.2f s after it' %
               (gap, gap_at - kill_at, promote_at - kill_at, promoted - promote_at,
                min(after) - promoted if after else float('inf')))
        t.diag('requests %d, errors by status, code, Retry-After: %s; outcome_unknown %d, resent '
               'and answered 2xx %d; boards filled %d' % (log.requests, sorted(log.errors.items()),
                                                          log.unknown, log.resent_ok, log.full))
        t.ok(not log.problems, 'every error a client saw was a 503 with Retry-After '
             '(database_unavailable or outcome_unknown), and every resend got its first answer: %s' %
             log.problems[:5])
        t.ok(log.resent_ok == log.unknown, 'every outcome_unknown got its first answer when resent '
             '(%d)' % log.unknown)
        if OUTAGE_S > float(RETRY) + 0.5:
            t.ok(sum(n for (s, c, ra), n in log.errors.items() if c == 'database_unavailable') > 0,
                 'an outage longer than --db-retry-seconds was answered 503 database_unavailable')

        # Every acknowledged action on the new primary, once.
        new = standby.url(dbname)
        ids = ','.join(str(r) for r in runs) or '0'
        steps = {int(i): int(s) for i, s in standby.psql(new, 'SELECT id, step FROM runs WHERE id IN (%s)'
                                                         % ids)}
        lost = [(r, n, steps.get(r)) for r, n in runs.items() if steps.get(r) != n]
        t.ok(not lost, '%d runs, %d acknowledged actions: each run\'s step count on the new primary '
             'equals its acknowledged actions (0 lost, none twice) %s' %
             (len(runs), sum(runs.values()), lost[:5]))
        stored = {}
        for mid, turn, text in standby.psql(new, 'SELECT match_id, turn, moves FROM match_turns'):
            stored[(int(mid), int(turn))] = text
        pend = {int(m): (int(turn), pen) for m, turn, pen in
                standby.psql(new, 'SELECT id, turn, pending FROM matches')}
        missing = []
        for mid, turn, seat, text in moves:
            if (mid, turn) in stored:
                if json.loads(stored[(mid, turn)])[seat] != text:
                    missing.append((mid, turn, seat, text))
            elif pend.get(mid, (0, ''))[0] + 1 != turn or pend[mid][1] in ('', '\\x'):
                missing.append((mid, turn, seat, text))
        t.ok(moves and not missing, '%d acknowledged versus moves, each stored for its turn and seat '
             'on the new primary %s' % (len(moves), missing[:5]))
        for name, d in (('a', a), ('b', b)):
            r = d.get('/readyz')
            t.ok(r.status == 200, 'daemon %s is ready again on the new primary (%d)' % (name, r.status))
            t.ok('reconnected' in d.read_log(), 'daemon %s logs its reconnection' % name)
            t.ok('arcaded_store_reachable 1' in d.get('/metrics').body,
                 'and its /metrics says arcaded_store_reachable 1')
    finally:
        for d in daemons:
            d.stop()
            text = d.read_log()
            t.ok('runtime error' not in text and 'Sanitizer' not in text,
                 'a daemon\'s log holds no sanitizer report')
            d.cleanup()
        for c in (standby, primary):
            if c is not None:
                c.stop()
    dead_standby()
    t.done()


main()
