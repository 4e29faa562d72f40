#!/usr/bin/env python3
"""What one stored thing costs on disk, for README's "What a flood can
store": a run begun and kept (HATETRIS: an init with a cap of one piece, that piece
placed, and
a finish with a review of 3 characters, 2,000 ASCII characters or 2,000
emoji), a run begun and never played (deleted after
--unplayed-retention), a versus match created (a lobby) and one
started.

Each case is done N times on a fresh daemon (harness.py, SQLite or, with
ARCADED_TEST_DATABASE=postgresql, PostgreSQL) and the growth of every
table and index is divided by N: SQLite's dbstat (pages in use, b-tree
pages at their fill), PostgreSQL's pg_total_relation_size (heap, indexes,
TOAST). Usage: ARCADED=build/server/arcaded PYTHONPATH=tests/e2e
python3 tests/bench/storage.py [N]
"""
import random
import sys

from harness import BACKEND, Daemon

N = int(sys.argv[1]) if len(sys.argv) > 1 else 400
HT = '/api/games/hatetris/'


def used(d):
    if BACKEND == 'postgresql':
        return d.sql("SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                     "JOIN pg_namespace n ON n.oid = c.relnamespace "
                     "WHERE n.nspname = 'public' AND c.relkind = 'r'")[0][0]
    return d.sql("SELECT sum(pgsize - unused) FROM dbstat")[0][0]


def kept_run(d, review):
    r = d.get(HT + 'init?cap=1')
    o = d.post(HT + 'action', {'stateToken': r.json['stateToken'], 'command': 'options'})
    place = o.json['results'][0]['options'][0]['command']
    r = d.post(HT + 'action', {'stateToken': r.json['stateToken'], 'command': place})
    f = d.post(HT + 'finish', {'stateToken': r.json['stateToken'], 'rating': 7, 'review': review})
    assert f.status == 200, f


def case(name, setup, step):
    d = Daemon(args=['--agent-check', 'stackfall=off', '--matches-per-day', '0', '--runs-per-day', '0',
                     '--reviews-per-day', '0'])
    try:
        ctx = setup(d)
        before = used(d)
        for i in range(N):
            step(d, ctx, i)
        after = used(d)
        print('| %s | %d | %.0f |' % (name, N, (after - before) / N), flush=True)
    finally:
        d.cleanup()


def accounts(d):
    keys = []
    for i in range(N // 10 + 1):
        r = d.post('/api/v1/accounts', {'name': 'lobby_%d' % i})
        keys.append({'Authorization': 'Bearer ' + r.json['agentKey']})
    return keys


def accounts_b(d):
    keys = []
    for i in range(N // 10 + 1):
        r = d.post('/api/v1/accounts', {'name': 'joiner_%d' % i})
        keys.append({'Authorization': 'Bearer ' + r.json['agentKey']})
    return keys


def lobby(d, keys, i):
    r = d.post('/api/matches', {'players': 2}, headers=keys[i // 10])
    assert r.status == 201, r


def move(d, ctx, i):
    """One HATETRIS placement (the first option), a new run when one ends."""
    if ctx.get('token') is None:
        ctx['token'] = d.get(HT + 'init').json['stateToken']
    o = d.post(HT + 'action', {'stateToken': ctx['token'], 'command': 'options'})
    r = d.post(HT + 'action', {'stateToken': ctx['token'],
                               'command': o.json['results'][0]['options'][0]['command']})
    ctx['token'] = r.json['stateToken'] if r.json.get('status') == 'playing' else None


def started(d, keys, i):
    r = d.post('/api/matches', {'players': 2}, headers=keys[i // 10])
    j = d.post('/api/matches/%s/join' % r.json['match_id'], None, headers=keys[-1 - i // 10])
    assert r.status == 201 and j.status == 200, (r, j)


print('%s, bytes per item (N items, growth / N)' % BACKEND)
print('| what | N | bytes each |')
print('|---|---|---|')
case('run kept, review of 3 characters', lambda d: None, lambda d, c, i: kept_run(d, 'Ok.'))
# Drawn at random, so that PostgreSQL's TOAST compression cannot shrink them
# the way it shrinks 2,000 times the same letter.
rng = random.Random(27)
ascii_review = lambda: ''.join(rng.choice('abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ.,')
                               for _ in range(2000))
emoji_review = lambda: ''.join(chr(rng.randrange(0x1f300, 0x1f650)) for _ in range(2000))
case('run kept, review of 2,000 ASCII characters', lambda d: None,
     lambda d, c, i: kept_run(d, ascii_review()))
case('run kept, review of 2,000 emoji (8,000 bytes)', lambda d: None,
     lambda d, c, i: kept_run(d, emoji_review()))
case('move (a HATETRIS placement; a new run when one ends)', lambda d: {}, move)
case('run begun, never played', lambda d: None, lambda d, c, i: d.get(HT + 'init'))
case('match created (a lobby)', accounts, lobby)
case('match created and started (two players)', lambda d: accounts(d) + accounts_b(d), started)
