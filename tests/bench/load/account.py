#!/usr/bin/env python3
"""An account with many runs: what its public routes cost (issue 42).

Fills one account with N runs of Stackfall (10^5 by default) on a SQLite
database, starts each ARCADED given on it (a copy each), and measures with
wrk:
  - each public route of the account alone, one connection: p50 and p99
    (the page, its first runs page, a runs page from the middle by its
    cursor, its matches);
  - /healthz alone (idle), then /healthz while 8 connections read the
    account page: the bystander's p50 and p99, and the ratio of its p99 to
    the idle p99; and, as the floor, the bystander while 8 connections read
    /healthz itself (the cheapest route: what saturating the two cores
    costs a bystander whatever the route).

The rate limits are lifted (every class at 1,000,000 a second) so that the
readers are as fast as the daemon; --default-limits keeps the daemon's
defaults instead (reads 250 a second an address: wrk is one address).

The runs are written straight into the runs table with sqlite3 (thousands a
second; the play pipeline would take hours): seeds 0..S-1 (5000 by
default), 90% ended and ranked, 5% abandoned, 5% playing, distinct
creation times, keys from the score. A binary whose schema keeps the
account summary (migration 0012, account_summary) must fill it from those
runs: the summary's tables are emptied and filled again by the migration's
own INSERT statements, timed (a later migration's row stays, so the daemon
starts on the schema it made).

usage: account.py [NAME=]ARCADED... [--runs N] [--seeds S] [--duration SEC]
                  [--readers N] [--default-limits] [--keep DIR]
"""
import argparse
import os
import random
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))

ACCOUNT = 'heavy'
LIMITS = ['--rate-limit', ','.join('%s=1000000/s' % c for c in
                                   ('accounts', 'puzzles', 'runs', 'moves', 'reads', 'verify')),
          '--connections-per-address', '100000']


def to_ms(text):
    m = re.match(r'([\d.]+)(us|ms|s)', text)
    v, unit = float(m.group(1)), m.group(2)
    return v / 1000.0 if unit == 'us' else v * 1000.0 if unit == 's' else v


def wrk(url, connections, duration):
    cmd = ['wrk', '-t%d' % min(connections, 2), '-c%d' % connections, '-d%ds' % duration,
           '--timeout', '30s', '--latency', url]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    m = re.search(r'Non-2xx or 3xx responses: (\d+)', out)
    if m:
        sys.exit('account.py: %s answered %s non-2xx:\n%s' % (url, m.group(1), out))
    return dict(n=int(re.search(r'(\d+) requests in', out).group(1)),
                p50=to_ms(re.search(r'\s50%\s+(\S+)', out).group(1)),
                p99=to_ms(re.search(r'\s99%\s+(\S+)', out).group(1)))


def start(arcaded, db, log, limits):
    t0 = time.monotonic()
    p = subprocess.Popen([arcaded, '--listen', '127.0.0.1:0', '--db', db] + limits,
                         stdout=subprocess.PIPE, stderr=log)
    line = p.stdout.readline().decode()
    if 'serving on' not in line:
        sys.exit('account.py: %s did not start; see %s' % (arcaded, log.name))
    return p, line.split('serving on ')[1].split()[0], time.monotonic() - t0


def stop(p):
    p.terminate()
    p.wait(timeout=30)


def fill(db, nruns, nseeds):
    """The account and its runs; the summary (if any) left for the daemon."""
    rng = random.Random(42)
    con = sqlite3.connect(db)
    con.execute('INSERT INTO accounts (name, created_at) VALUES (?, ?)', (ACCOUNT, 1))
    account = con.execute('SELECT id FROM accounts WHERE name = ?', (ACCOUNT,)).fetchone()[0]
    ids = rng.sample(range(1, 2 ** 53), nruns)
    rows = []
    for i, rid in enumerate(ids):
        k = rng.random()
        over, reason = (1, 'piece_limit') if k < 0.90 else (1, 'abandoned') if k < 0.95 else (0, None)
        score = rng.randrange(0, 40000, 10)
        lines, pieces = score // 300, rng.randrange(10, 500)
        created = 1700000000000 + i * 7
        rows.append((rid, 'stackfall', 'stackfall-v1', account, rng.randrange(nseeds), 1,
                     'over' if over else 'playing', over, reason, pieces, b'\x00' * 16,
                     score, lines, pieces, score, lines, -pieces, created,
                     created + 5 if over else None))
    con.executemany(
        'INSERT INTO runs (id, game, rules, account_id, seed, seed_chosen, status, over, '
        'end_reason, step, state, score, lines, pieces, rank1, rank2, rank3, created_at, ended_at) '
        'VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)', rows)
    tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    if 'account_seeds' in tables:
        # The summary filled from these runs by the migration's own
        # statements (its INSERTs), as a daemon migrating a database of
        # them would: later migrations stay applied.
        with open(os.path.join(ROOT, 'migrations', '0012_account_summary.sql')) as f:
            sql = re.sub(r'--[^\n]*', '', f.read())
        con.execute('DELETE FROM account_seeds')
        con.execute('DELETE FROM account_games')
        t0 = time.monotonic()
        for stmt in sql.split(';'):
            if stmt.strip().upper().startswith('INSERT'):
                con.execute(stmt)
        print('the summary filled from %d runs in %.2f s' % (nruns, time.monotonic() - t0), flush=True)
    con.commit()
    # A cursor from the middle of the account's runs, as a 'next' link has it.
    at, rid = con.execute('SELECT created_at, id FROM runs WHERE account_id = ? '
                          'ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?',
                          (account, nruns // 2)).fetchone()
    con.close()
    return '%d.%d' % (at, rid)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('arcaded', nargs='+', help='[NAME=]PATH of a daemon to measure')
    ap.add_argument('--runs', type=int, default=100000)
    ap.add_argument('--seeds', type=int, default=5000)
    ap.add_argument('--duration', type=int, default=10)
    ap.add_argument('--readers', type=int, default=8)
    ap.add_argument('--default-limits', action='store_true',
                    help="the daemon's default rate limits instead of lifted ones")
    ap.add_argument('--keep', help='leave the databases and logs in this folder')
    args = ap.parse_args()
    limits = LIMITS[2:] if args.default_limits else LIMITS
    folder = args.keep or tempfile.mkdtemp(prefix='arcaded-account-')
    os.makedirs(folder, exist_ok=True)
    table = []
    try:
        for spec in args.arcaded:
            name, _, path = spec.rpartition('=')
            name = name or path
            db = os.path.join(folder, '%s.db' % re.sub(r'[^A-Za-z0-9]+', '_', name))
            for suffix in ('', '-wal', '-shm'):
                if os.path.exists(db + suffix):
                    os.remove(db + suffix)
            log = open(db + '.log', 'wb')
            p, url, _ = start(path, db, log, limits)      # the schema
            stop(p)
            cursor = fill(db, args.runs, args.seeds)
            p, url, took = start(path, db, log, limits)   # migrations, if any, on the runs
            routes = [('page', '/api/v1/accounts/%s' % ACCOUNT),
                      ('runs, first page', '/api/v1/accounts/%s/runs?game=stackfall' % ACCOUNT),
                      ('runs, a middle page',
                       '/api/v1/accounts/%s/runs?game=stackfall&before=%s' % (ACCOUNT, cursor)),
                      ('matches', '/api/v1/accounts/%s/matches' % ACCOUNT)]
            try:
                # Under the default limits one address gets 250 reads a
                # second: only the bystander's rows mean anything then.
                for label, route in routes if not args.default_limits else ():
                    r = wrk(url + route, 1, args.duration)
                    table.append((name, label + ' (1 client)', r))
                idle = wrk(url + '/healthz', 1, args.duration)
                table.append((name, '/healthz idle', idle))
                for label, route in (('the page', routes[0][1]), ('/healthz', '/healthz')):
                    readers = subprocess.Popen(
                        ['wrk', '-t2', '-c%d' % args.readers, '-d%ds' % (args.duration + 2),
                         '--timeout', '30s', url + route],
                        stdout=subprocess.DEVNULL)
                    time.sleep(1)
                    busy = wrk(url + '/healthz', 1, args.duration)
                    readers.wait()
                    busy['ratio'] = busy['p99'] / idle['p99']
                    table.append((name, '/healthz, %d readers of %s' % (args.readers, label), busy))
            finally:
                stop(p)
            print('%s: started in %.2f s on %d runs' % (name, took, args.runs), flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    print()
    print('| daemon | route | requests | p50 ms | p99 ms | p99 / idle |')
    print('|---|---|---|---|---|---|')
    for name, label, r in table:
        print('| %s | %s | %d | %.2f | %.2f | %s |' % (
            name, label, r['n'], r['p50'], r['p99'],
            '%.2f' % r['ratio'] if 'ratio' in r else ''))


if __name__ == '__main__':
    main()
