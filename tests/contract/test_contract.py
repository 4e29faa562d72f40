#!/usr/bin/env python3
"""The HTTP contract, checked against real answers.

Starts the real daemon twice (tests/e2e/harness.py): A with the default
agent checks (Stackfall on, Duskcourt, Stackcraft and HATETRIS off), B
with them the other way round and A's key file (so that A's tokens open on
B, whose database does not hold their runs). Plays every route of every
game in both shapes (the token routes and the seed's
/games/stackfall/api/*) and the versus matches' routes, provokes every error
status that can be provoked from outside, and records every exchange.
validate.mjs (an OpenAPI response validator, run by node) then judges each
answer against openapi.yaml: its status must be listed for its route, its
body must validate, its required headers must be there; answers that
libmicrohttpd makes itself (414, 431, 505, its HTML 400) are checked
against the entries marked as such.

TAP: one line per route and status with the number of answers validated;
one per documented (route, status) that nothing provoked, which must be
in NOT_PROVOKED_YET or NOT_PROVOKABLE; the examples of openapi.yaml; a few
promises of docs/api.md that a schema cannot state (KNOWN_BUGS lists those
the daemon breaks today, as TODO). Fails, never skips, without node or
the validator's packages (npm ci --prefix tests/contract).
"""
import http.client
import json
import os
import random
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from harness import BACKEND, Daemon, Tap, puzzle_answer, raw_exchange

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')
SPEC = os.path.join(ROOT, 'openapi.yaml')
HERE = os.path.dirname(os.path.abspath(__file__))

# Statuses the contract documents and the daemon does not answer yet.
# Each entry: status, error code, the routes ('*' every route, 'POST' every
# POST route, or a list), and the label of the requests below that provoke
# it (None: nothing can yet; then any answer with the code counts). The test
# fails once an entry is provoked: remove it then. Empty: every documented
# status is answered.
NOT_PROVOKED_YET = []

PROVOCATIONS = {label for _, _, _, label in NOT_PROVOKED_YET if label}

# Documented answers that no request from outside can bring about, and why.
NOT_PROVOKABLE = [
    ('500', ['GET /healthz', 'GET /readyz', 'GET /metrics', 'GET /api/v1/me', 'GET /api/v1/keys',
             'GET /api/games/{game}/runs/{runId}', 'GET /api/games/{game}/leaderboard',
             'GET /api/games/{game}/reviews', 'POST /api/games/{game}/replays/verify',
             'POST /api/games/{game}/replays/import', 'GET /api/games',
             'GET /api/runs/{runId}', 'GET /api/games/{game}/runs/{runId}/steps',
             'GET /api/games/{game}/runs/{runId}/live', 'GET /api/games/{game}/runs/{runId}/record',
             'GET /api/matches/ratings',
             'GET /api/matches/open', 'GET /api/matches', 'GET /api/v1/accounts/{name}', 'GET /api/v1/accounts/{name}/runs',
             'GET /api/v1/accounts/{name}/matches',
             'POST /api/matches/replays/verify', 'GET /api/matches/{id}', 'GET /api/matches/{id}/wait',
             'GET /api/matches/{id}/events', 'GET /api/matches/{id}/replay', 'GET /api/matches/{id}/turns',
             'GET /api/matches/{id}/stream', 'GET /.well-known/oauth-protected-resource',
             'GET /.well-known/oauth-protected-resource/mcp', 'GET /.well-known/oauth-authorization-server',
             'POST /oauth/register', 'POST /oauth/token'],
     'these routes only read (reader connections, which a held write lock does not block) or '
     'compute: a 500 needs an allocation to fail'),
    ('500', ['POST /api/matches/{id}/keys'],
     'keys are applied at the next tick before they are stored: a store that fails them answers '
     '503 (they were applied), so a 500 needs an allocation to fail'),
]

# Promises of docs/api.md that the daemon breaks today (see the checks at
# the end); they print as TODO. Remove an entry when the daemon keeps it.
KNOWN_BUGS = {}

# Flags every daemon of this test starts with (the harness turns the rate
# limits off unless asked: this test sends a thousand requests; daemon C
# below turns them on to provoke 429).
# during_shutdown holds one connection per operation at once, which the
# routes of issue 30 and two more games took past the default of 64 from
# one address.
DAEMON_ARGS = ['--connections-per-address', '256']
# Daemon C: every class one request an hour, so a route's second request is
# refused 429 before anything of it is read.
TINY_LIMITS = ['--rate-limit', ','.join('%s=1/h:1' % c for c in
                                         ('accounts', 'puzzles', 'runs', 'moves', 'reads', 'verify'))]
JSON_TYPE = {'Content-Type': 'application/json'}
t = Tap()
exchanges = []
rec_lock = threading.Lock()
phase = {'name': 'play'}


def ok_or_todo(cond, name, bug):
    """An assertion that is a TAP TODO while bug is in KNOWN_BUGS: its
    failure is expected, and its passing says the entry can go."""
    if bug not in KNOWN_BUGS:
        return t.ok(cond, name)
    with t.lock:
        t.n += 1
        print('%sok %d - %s # TODO known bug: %s' % ('' if cond else 'not ', t.n, name, KNOWN_BUGS[bug]),
              flush=True)
    return bool(cond)


def record(daemon, method, target, status, headers, body, label=None, op=None):
    path, _, query = target.partition('?')
    with rec_lock:
        exchanges.append({'method': method, 'path': path, 'query': query, 'status': status,
                          'headers': [[k, v] for k, v in headers], 'body': body, 'label': label,
                          'op': op, 'daemon': daemon.name, 'phase': phase['name']})


def req(d, method, target, body=None, headers=None, raw=None, label=None, op=None, conn=None):
    r = d.request(method, target, body=body, headers=headers, raw=raw, conn=conn)
    record(d, method, target, r.status, r.headers, r.body, label, op)
    return r


def parse_raw(data):
    head, _, rest = data.partition(b'\r\n\r\n')
    lines = head.decode('latin-1').split('\r\n')
    status = int(lines[0].split()[1])
    headers = []
    for line in lines[1:]:
        k, sep, v = line.partition(':')
        if sep:
            headers.append((k.strip(), v.strip()))
    length = next((int(v) for k, v in headers if k.lower() == 'content-length'), len(rest))
    return status, headers, rest[:length].decode('utf-8', 'replace')


def raw(d, method, target, data, label=None, op=None):
    """One request written byte by byte on a fresh connection (each says
    Connection: close, or is refused with a close)."""
    got = raw_exchange(d.port, data, read_timeout=5.0)
    if not got:
        t.ok(False, 'an answer to the raw request %s %s' % (method, target[:60]))
        return None
    status, headers, body = parse_raw(got)
    record(d, method, target, status, headers, body, label, op)
    return status


def fresh(d, headers=None):
    """Headers answering a fresh agent-check puzzle (GET /api/v1/agent-check)."""
    r = req(d, 'GET', '/api/v1/agent-check')
    h = dict(headers or {})
    tok = r.json['agent_check']['token']
    h['X-Agent-Check'] = tok
    h['X-Agent-Answer'] = str(puzzle_answer(d, tok))
    return h


def bearer(key):
    return {'Authorization': 'Bearer ' + key}


def name():
    return 'c_%08x' % random.getrandbits(32)


# ---------------------------------------------------------------------------
# Accounts and keys.

def play_accounts(d):
    acct = {}
    for who in ('alice', 'bob', 'carol'):
        n = name()
        r = req(d, 'POST', '/api/v1/accounts', {'name': n})
        t.eq(r.status, 201, 'account %s created' % who)
        acct[who] = {'name': n, 'key': r.json['agentKey'], 'id': r.json['keyId']}
    a = acct['alice']
    req(d, 'POST', '/api/v1/accounts', {'name': a['name'].upper()})                  # 409 name_taken
    req(d, 'POST', '/api/v1/accounts', {})                                           # 400 missing
    req(d, 'POST', '/api/v1/accounts', {'name': 'ab'})                               # 400 bad name
    req(d, 'POST', '/api/v1/accounts', {'name': name(), 'x': 1})                     # 400 unknown
    req(d, 'POST', '/api/v1/accounts', raw=b'{"name": ', headers=JSON_TYPE)
    req(d, 'POST', '/api/v1/accounts', raw=b'[1]', headers=JSON_TYPE)
    req(d, 'GET', '/api/v1/me', headers=bearer(a['key']))
    req(d, 'GET', '/api/v1/me')                                                      # 401 missing
    req(d, 'GET', '/api/v1/me', headers={'Authorization': 'Bearer nope'})            # 401 malformed
    req(d, 'GET', '/api/v1/me', headers={'Authorization': 'Basic eDp5'})             # 401 scheme
    # A second key, a third (409), revoke the second, use it (401).
    r = req(d, 'POST', '/api/v1/me/keys', {}, headers=bearer(a['key']))
    second = r.json
    req(d, 'POST', '/api/v1/me/keys', None, headers=bearer(a['key']))                # 409 key_limit
    req(d, 'POST', '/api/v1/me/keys', {'x': 1}, headers=bearer(a['key']))            # 400
    req(d, 'POST', '/api/v1/me/keys', raw=b'{', headers=dict(bearer(a['key']), **JSON_TYPE))
    req(d, 'POST', '/api/v1/me/keys', {})                                            # 401
    req(d, 'GET', '/api/v1/me', headers=bearer(second['agentKey']))                  # two keys listed
    req(d, 'DELETE', '/api/v1/me/keys/' + second['keyId'], headers=bearer(a['key']))
    req(d, 'GET', '/api/v1/me', headers=bearer(second['agentKey']))                  # 401 revoked
    req(d, 'GET', '/api/v1/me', headers=bearer(a['key']))                            # revokedAt set
    req(d, 'DELETE', '/api/v1/me/keys/' + second['keyId'], headers=bearer(a['key']))  # 404 not live
    req(d, 'DELETE', '/api/v1/me/keys/short', headers=bearer(a['key']))              # 404
    req(d, 'DELETE', '/api/v1/me/keys/' + a['id'], headers=bearer(a['key']))         # 409 only key
    req(d, 'DELETE', '/api/v1/me/keys/' + a['id'])                                   # 401
    req(d, 'GET', '/api/v1/agent-check')
    req(d, 'GET', '/api/v1/keys')
    req(d, 'GET', '/healthz')
    req(d, 'GET', '/readyz')
    req(d, 'GET', '/metrics')
    # A spare key of bob's, revoked again later under the lock (500).
    r = req(d, 'POST', '/api/v1/me/keys', {}, headers=bearer(acct['bob']['key']))
    acct['bob']['spare'] = r.json['keyId']
    return acct


# ---------------------------------------------------------------------------
# The token routes' refusals, route by route: a bad key (401), a token
# whose run this database does not hold or of the other game (404, 400), no
# answer to the agent check (428).

def token_refusals(d, game, tok, action, other_tokens, check):
    g = '/api/games/%s/' % game
    bad = {'Authorization': 'Bearer nope'}
    req(d, 'POST', g + 'init', {}, headers=bad)
    field = 'command' if game == 'stackfall' else 'action'
    for route, body in (('action', {'stateToken': tok, field: action}),
                        ('state', {'stateToken': tok}),
                        ('finish', {'stateToken': tok, 'rating': 5, 'review': 'refused'})):
        req(d, 'POST', g + route, body, headers=bad)
        for other in other_tokens:
            b = dict(body, stateToken=other)
            req(d, 'POST', g + route, b, headers=fresh(d) if check else {})
            if route == 'state':
                req(d, 'GET', g + 'state?stateToken=' + other, headers=fresh(d) if check else {})
        if check:
            req(d, 'POST', g + route, body)
    req(d, 'GET', g + 'state?stateToken=' + tok, headers=bad)
    if check:
        req(d, 'GET', g + 'state?stateToken=' + tok)


# ---------------------------------------------------------------------------
# Duskcourt on the token routes. check: whether its agent check is on.

def dc_post(d, route, body, check, headers=None):
    h = fresh(d, headers) if check else dict(headers or {})
    return req(d, 'POST', '/api/games/duskcourt/' + route, body, headers=h)


def dc_to_done(d, r, check, use_reset=True):
    """Plays the run of answer r to its end: every legal first capture
    (a reset once when offered), endRun at the first break."""
    reset_done = not use_reset
    for _ in range(64):
        st = r.json['state']
        legal = r.json['legalActions']
        if st['phase'] == 'done':
            return r
        if st['phase'] == 'break':
            act = {'type': 'endRun'}
        elif not reset_done and {'type': 'reset'} in legal:
            act, reset_done = {'type': 'reset'}, True
        else:
            act = next(a for a in legal if a['type'] == 'capture')
        r = dc_post(d, 'action', {'stateToken': r.json['stateToken'], 'action': act}, check)
        if r.status != 200:
            t.ok(False, 'duskcourt action %r answered %d' % (act, r.status))
            return r
    t.ok(False, 'a duskcourt run ends within 64 actions')
    return r


def play_duskcourt(d, acct, check, other_tokens=()):
    out = {}
    g = '/api/games/duskcourt/'
    req(d, 'GET', g + 'rules')
    req(d, 'GET', g + 'init?seed=7')
    req(d, 'GET', g + 'init')
    req(d, 'GET', g + 'init?seed=abc')                                               # 400
    req(d, 'GET', g + 'init?seed=7', headers={'Authorization': 'Bearer nope'})       # 401
    req(d, 'POST', g + 'init', {'seed': -1})                                         # 400
    req(d, 'POST', g + 'init', {'rung': 1})                                          # 400
    req(d, 'POST', g + 'init', raw=b'{"seed": 7', headers=JSON_TYPE)
    req(d, 'POST', g + 'init', raw=b'', headers=JSON_TYPE)
    req(d, 'POST', g + 'init', {})
    r = req(d, 'POST', g + 'init', {'seed': 7}, headers=bearer(acct['alice']['key']))  # attributed
    out['owned_token'] = r.json['stateToken']
    r = req(d, 'POST', g + 'init', {'seed': 7})
    t0 = r.json['stateToken']
    first = next(a for a in r.json['legalActions'] if a['type'] == 'capture')
    # Broken requests (400), refusals (422), a retry, stale tokens (409).
    dc_post(d, 'action', {'stateToken': t0}, check)                                  # missing action
    dc_post(d, 'action', {'stateToken': t0, 'action': first, 'x': 1}, check)         # unknown field
    dc_post(d, 'action', {'stateToken': 7, 'action': first}, check)                  # not a string
    dc_post(d, 'action', {'stateToken': t0, 'action': first, 'agent_check': 5}, False)
    dc_post(d, 'action', {'stateToken': 'v4.local.AAAA.BBBB', 'action': first}, check)   # 400 token
    for tok in other_tokens:
        dc_post(d, 'action', {'stateToken': tok, 'action': first}, check)           # 400/404
    dc_post(d, 'action', {'stateToken': t0, 'action': {'type': 'jump'}}, check)      # 422 grammar
    dc_post(d, 'action', {'stateToken': t0, 'action': {'type': 'next'}}, check)      # 422 phase
    r1 = dc_post(d, 'action', {'stateToken': t0, 'action': first}, check)
    dc_post(d, 'action', {'stateToken': t0, 'action': dict(reversed(list(first.items())))}, check)  # retry
    dc_post(d, 'action', {'stateToken': t0, 'action': {'type': 'reset'}}, check)     # 409 stale
    token_refusals(d, 'duskcourt', r1.json['stateToken'], first, other_tokens, check)
    if check:
        req(d, 'POST', g + 'action', {'stateToken': t0, 'action': first})            # 428 missing
        req(d, 'POST', g + 'action', {'stateToken': t0, 'action': first},
            headers={'X-Agent-Check': 'ac_unknownunknownunknow', 'X-Agent-Answer': '3'})
    sh = fresh(d) if check else {}
    req(d, 'GET', g + 'state?stateToken=' + urllib.parse.quote(r1.json['stateToken']), headers=sh)
    sh = fresh(d) if check else {}
    req(d, 'GET', g + 'state?stateToken=' + urllib.parse.quote(t0), headers=sh)       # 409
    sh = fresh(d) if check else {}
    req(d, 'GET', g + 'state', headers=sh)                                           # 400 missing
    dc_post(d, 'state', {'stateToken': r1.json['stateToken']}, check)
    dc_post(d, 'state', {'stateToken': t0}, check)                                   # 409
    dc_post(d, 'state', {}, check)                                                   # 400
    dc_post(d, 'finish', {'stateToken': r1.json['stateToken'], 'rating': 5, 'review': 'early'}, check)  # 409
    done = dc_to_done(d, r1, check)
    tok = done.json['stateToken']
    dc_post(d, 'finish', {'stateToken': tok, 'rating': 11, 'review': 'x'}, check)    # 400 rating
    dc_post(d, 'finish', {'stateToken': tok, 'rating': 8, 'review': ''}, check)      # 400 review
    dc_post(d, 'finish', {'stateToken': tok, 'rating': 8}, check)                    # 400 missing
    dc_post(d, 'finish', {'stateToken': t0, 'rating': 8, 'review': 'stale'}, check)  # 409 stale
    f = dc_post(d, 'finish', {'stateToken': tok, 'rating': 8, 'review': 'A tidy first court.'}, check)
    dc_post(d, 'finish', {'stateToken': tok, 'rating': 8, 'review': 'again'}, check)  # 409 finished
    dc_post(d, 'action', {'stateToken': tok, 'action': {'type': 'next'}}, check)     # 422 done
    out['finished'] = f.json
    # A second finished run on a server-chosen seed (leaderboards, reviews),
    # and one left at a break.
    r = req(d, 'GET', g + 'init')
    done = dc_to_done(d, r, check, use_reset=False)
    dc_post(d, 'finish', {'stateToken': done.json['stateToken'], 'rating': 6, 'review': 'Quick.'}, check)
    r = req(d, 'GET', g + 'init?seed=11')
    for _ in range(16):
        if r.json['state']['phase'] != 'playing':
            break
        act = next(a for a in r.json['legalActions'] if a['type'] == 'capture')
        r = dc_post(d, 'action', {'stateToken': r.json['stateToken'], 'action': act}, check)
    out['break_run'] = r.json['runId']
    out['playing'] = req(d, 'GET', g + 'init?seed=12').json
    return out


# ---------------------------------------------------------------------------
# Stackfall on the token routes.

def sf_post(d, route, body, check, headers=None, label=None):
    h = fresh(d, headers) if check else dict(headers or {})
    return req(d, 'POST', '/api/games/stackfall/' + route, body, headers=h, label=label)


def play_stackfall(d, acct, check, other_tokens=()):
    out = {}
    g = '/api/games/stackfall/'
    req(d, 'GET', g + 'rules')
    req(d, 'GET', g + 'init?seed=42')
    req(d, 'GET', g + 'init?seed=9007199254740992')                                  # 400
    req(d, 'GET', g + 'init', headers={'Authorization': 'Bearer ' + 'x' * 62})       # 401
    req(d, 'POST', g + 'init', {'seed': 'x'})                                        # 400
    req(d, 'POST', g + 'init', raw=b'{', headers=JSON_TYPE)
    r = req(d, 'POST', g + 'init', {'seed': 42}, headers=bearer(acct['alice']['key']))
    out['owned_token'] = r.json['stateToken']
    r = req(d, 'POST', g + 'init', {'seed': 42})
    t0 = r.json['stateToken']
    sf_post(d, 'action', {'stateToken': t0}, check)                                  # 400 missing
    sf_post(d, 'action', {'stateToken': t0, 'command': 'hold', 'action': {'type': 'hold'}}, check)
    sf_post(d, 'action', {'stateToken': t0, 'command': 5}, check)                    # 400
    sf_post(d, 'action', {'stateToken': 'v4.local.AAAA.BBBB', 'command': 'hold'}, check)
    for tok in other_tokens:
        sf_post(d, 'action', {'stateToken': tok, 'command': 'hold'}, check)
    sf_post(d, 'action', {'stateToken': t0, 'command': 'place 9 9'}, check)          # 422
    sf_post(d, 'action', {'stateToken': t0, 'command': ' ; ;'}, check)               # 422 empty
    sf_post(d, 'action', {'stateToken': t0, 'command': ';'.join(['options'] * 51)}, check)  # 422
    sf_post(d, 'action', {'stateToken': t0, 'action': {'type': 'jump'}}, check)      # 422
    sf_post(d, 'action', {'stateToken': t0, 'command': 'options; preview 1 4'}, check)
    sf_post(d, 'action', {'stateToken': t0, 'action': {'type': 'options'}}, check)
    sf_post(d, 'action', {'stateToken': t0, 'action': {'type': 'preview', 'rotation': 0, 'column': 3}}, check)
    r1 = sf_post(d, 'action', {'stateToken': t0, 'command': 'place 1 4'}, check)
    sf_post(d, 'action', {'stateToken': t0, 'command': 'PLACE 01 4'}, check)         # retry
    sf_post(d, 'action', {'stateToken': t0, 'command': 'hold'}, check)               # 409 stale
    sf_post(d, 'state', {'stateToken': t0}, check)                                   # 409 stale
    token_refusals(d, 'stackfall', r1.json['stateToken'], 'options', other_tokens, check)
    if check:
        req(d, 'POST', g + 'action', {'stateToken': t0, 'command': 'hold'})          # 428 missing
        h = fresh(d)
        h['X-Agent-Answer'] = str(int(h['X-Agent-Answer']) + 1)
        req(d, 'POST', g + 'action', {'stateToken': r1.json['stateToken'], 'command': 'hold'},
            headers=h)                                                               # 428 wrong
        h = fresh(d)
        r1 = req(d, 'POST', g + 'action', {'stateToken': r1.json['stateToken'], 'command': 'hold',
                                          'agent_check': h['X-Agent-Check'],
                                          'agent_answer': h['X-Agent-Answer']})      # body answer
    r2 = sf_post(d, 'action', {'stateToken': r1.json['stateToken'],
                               'command': 'place 0 0; hold; place 9 9'}, check)      # stops at 3rd
    r2 = sf_post(d, 'action', {'stateToken': r2.json['stateToken'],
                               'action': {'type': 'place', 'rotation': 0, 'column': 4}}, check)
    sh = fresh(d) if check else {}
    req(d, 'GET', g + 'state?stateToken=' + urllib.parse.quote(r2.json['stateToken']), headers=sh)
    sh = fresh(d) if check else {}
    req(d, 'GET', g + 'state?stateToken=' + urllib.parse.quote(t0), headers=sh)      # 409
    sf_post(d, 'state', {'stateToken': r2.json['stateToken']}, check)
    sf_post(d, 'state', {'stateToken': t0, 'y': 1}, check)                           # 400
    sf_post(d, 'finish', {'stateToken': r2.json['stateToken'], 'rating': 7, 'review': 'not yet'}, check)
    r3 = sf_post(d, 'action', {'stateToken': r2.json['stateToken'], 'command': 'resign'}, check)
    tok = r3.json['stateToken']
    sf_post(d, 'action', {'stateToken': tok, 'command': 'place 0 0'}, check)          # 422 over
    sf_post(d, 'finish', {'stateToken': tok, 'rating': 0, 'review': 'x'}, check)      # 400
    sf_post(d, 'finish', {'stateToken': r2.json['stateToken'], 'rating': 7, 'review': 'stale'}, check)
    f = sf_post(d, 'finish', {'stateToken': tok, 'rating': 7, 'review': 'Clean rules.'}, check)
    sf_post(d, 'finish', {'stateToken': tok, 'rating': 7, 'review': 'again'}, check)  # 409
    out['finished'] = f.json
    # Runs that end on a server-chosen seed, for the boards.
    for _ in range(2):
        r = req(d, 'GET', g + 'init')
        r = sf_post(d, 'action', {'stateToken': r.json['stateToken'], 'command': 'place 0 0; resign'}, check)
        sf_post(d, 'finish', {'stateToken': r.json['stateToken'], 'rating': 4, 'review': 'Short.'}, check)
    out['playing'] = req(d, 'GET', g + 'init?seed=5').json
    return out


# ---------------------------------------------------------------------------
# Stackcraft on the token routes. check: whether its agent check is on.

def sc_post(d, route, body, check, headers=None):
    h = fresh(d, headers) if check else dict(headers or {})
    return req(d, 'POST', '/api/games/stackcraft/' + route, body, headers=h)


def sc_to_end(d, r, check):
    """Plays the run of answer r to its end: the lowest landing each turn."""
    for _ in range(400):
        if r.json['state']['status'] == 'over':
            return r
        act = max(r.json['legalActions'], key=lambda a: a['y'])['id']
        r = sc_post(d, 'action', {'stateToken': r.json['stateToken'], 'action': act}, check)
        if r.status != 200:
            t.ok(False, 'stackcraft action %r answered %d' % (act, r.status))
            return r
    t.ok(False, 'a stackcraft run ends within 400 placements')
    return r


def play_stackcraft(d, acct, check, other_tokens=()):
    out = {}
    g = '/api/games/stackcraft/'
    req(d, 'GET', g + 'rules')
    req(d, 'GET', g + 'init?seed=42&cap=12')
    req(d, 'GET', g + 'init')
    req(d, 'GET', g + 'init?seed=abc')                                               # 400
    req(d, 'GET', g + 'init?cap=0')                                                  # 400 cap
    req(d, 'GET', g + 'init?seed=7', headers={'Authorization': 'Bearer nope'})       # 401
    req(d, 'POST', g + 'init', {'seed': -1})                                         # 400
    req(d, 'POST', g + 'init', {'cap': 'ten'})                                       # 400 cap
    req(d, 'POST', g + 'init', {'rung': 1})                                          # 400
    req(d, 'POST', g + 'init', raw=b'{"seed": 7', headers=JSON_TYPE)
    req(d, 'POST', g + 'init', raw=b'', headers=JSON_TYPE)
    req(d, 'POST', g + 'init', {})
    r = req(d, 'POST', g + 'init', {'seed': 42, 'cap': 12}, headers=bearer(acct['alice']['key']))
    out['owned_token'] = r.json['stateToken']
    r = req(d, 'POST', g + 'init', {'seed': 42, 'cap': 12})
    t0 = r.json['stateToken']
    first = r.json['legalActions'][0]['id']
    # Broken requests (400), refusals (422), a retry, stale tokens (409).
    sc_post(d, 'action', {'stateToken': t0}, check)                                  # missing action
    sc_post(d, 'action', {'stateToken': t0, 'action': first, 'x': 1}, check)         # unknown field
    sc_post(d, 'action', {'stateToken': 7, 'action': first}, check)                  # not a string
    sc_post(d, 'action', {'stateToken': t0, 'action': first, 'agent_check': 5}, False)
    sc_post(d, 'action', {'stateToken': 'v4.local.AAAA.BBBB', 'action': first}, check)   # 400 token
    for tok in other_tokens:
        sc_post(d, 'action', {'stateToken': tok, 'action': first}, check)           # 400/404
    sc_post(d, 'action', {'stateToken': t0, 'action': 'R0x0'}, check)                # 422 grammar
    sc_post(d, 'action', {'stateToken': t0, 'action': 'r0x9'}, check)                # 422 x
    sc_post(d, 'action', {'stateToken': t0, 'action': {'id': first}}, check)         # 422 not a string
    r1 = sc_post(d, 'action', {'stateToken': t0, 'action': first}, check)
    sc_post(d, 'action', {'stateToken': t0, 'action': first}, check)                 # retry
    sc_post(d, 'action', {'stateToken': t0, 'action': r1.json['legalActions'][-1]['id']}, check)  # 409
    token_refusals(d, 'stackcraft', r1.json['stateToken'], first, other_tokens, check)
    if check:
        req(d, 'POST', g + 'action', {'stateToken': t0, 'action': first})            # 428 missing
        req(d, 'POST', g + 'action', {'stateToken': t0, 'action': first},
            headers={'X-Agent-Check': 'ac_unknownunknownunknow', 'X-Agent-Answer': '3'})
    sh = fresh(d) if check else {}
    req(d, 'GET', g + 'state?stateToken=' + urllib.parse.quote(r1.json['stateToken']), headers=sh)
    sh = fresh(d) if check else {}
    req(d, 'GET', g + 'state?stateToken=' + urllib.parse.quote(t0), headers=sh)       # 409
    sh = fresh(d) if check else {}
    req(d, 'GET', g + 'state', headers=sh)                                           # 400 missing
    sc_post(d, 'state', {'stateToken': r1.json['stateToken']}, check)
    sc_post(d, 'state', {'stateToken': t0}, check)                                   # 409
    sc_post(d, 'state', {}, check)                                                   # 400
    sc_post(d, 'finish', {'stateToken': r1.json['stateToken'], 'rating': 5, 'review': 'early'}, check)  # 409
    done = sc_to_end(d, r1, check)
    tok = done.json['stateToken']
    sc_post(d, 'finish', {'stateToken': tok, 'rating': 11, 'review': 'x'}, check)    # 400 rating
    sc_post(d, 'finish', {'stateToken': tok, 'rating': 6}, check)                    # 400 missing
    sc_post(d, 'finish', {'stateToken': t0, 'rating': 6, 'review': 'stale'}, check)  # 409 stale
    f = sc_post(d, 'finish', {'stateToken': tok, 'rating': 6, 'review': 'Low and flat.'}, check)
    sc_post(d, 'finish', {'stateToken': tok, 'rating': 6, 'review': 'again'}, check)  # 409 finished
    sc_post(d, 'action', {'stateToken': tok, 'action': first}, check)               # 422 over
    out['finished'] = f.json
    # A run to its top-out on a server-chosen seed (leaderboards, reviews),
    # and one left playing.
    r = req(d, 'GET', g + 'init')
    for _ in range(400):
        if r.json['state']['status'] == 'over':
            break
        act = min(r.json['legalActions'], key=lambda a: a['y'])['id']
        r = sc_post(d, 'action', {'stateToken': r.json['stateToken'], 'action': act}, check)
    sc_post(d, 'finish', {'stateToken': r.json['stateToken'], 'rating': 4, 'review': 'Tall.'}, check)
    r = req(d, 'GET', g + 'init?seed=12')
    out['playing'] = sc_post(d, 'action', {'stateToken': r.json['stateToken'],
                                           'action': r.json['legalActions'][0]['id']}, check).json
    return out


# ---------------------------------------------------------------------------
# HATETRIS on the token routes (no seed; depth and cap instead).

def ht_post(d, route, body, check, headers=None):
    h = fresh(d, headers) if check else dict(headers or {})
    return req(d, 'POST', '/api/games/hatetris/' + route, body, headers=h)


def play_hatetris(d, acct, check, other_tokens=()):
    out = {}
    g = '/api/games/hatetris/'
    req(d, 'GET', g + 'rules')
    req(d, 'GET', g + 'init')
    req(d, 'GET', g + 'init?depth=2&cap=40')
    req(d, 'GET', g + 'init?seed=1')                                                 # 400 no seed
    req(d, 'GET', g + 'init?depth=3')                                                # 400
    req(d, 'GET', g + 'init', headers={'Authorization': 'Bearer nope'})              # 401
    req(d, 'POST', g + 'init', {'seed': 1})                                          # 400
    req(d, 'POST', g + 'init', {'cap': 0})                                           # 400
    req(d, 'POST', g + 'init', {'rung': 1})                                          # 400 unknown
    req(d, 'POST', g + 'init', raw=b'{"depth": ', headers=JSON_TYPE)                 # 400 json
    r = req(d, 'POST', g + 'init', {'depth': 1}, headers=bearer(acct['alice']['key']))
    out['owned_token'] = r.json['stateToken']
    r = req(d, 'POST', g + 'init', {})
    t0 = r.json['stateToken']
    ht_post(d, 'action', {'stateToken': t0}, check)                                  # 400 missing
    ht_post(d, 'action', {'stateToken': t0, 'command': 'options', 'action': {'type': 'options'}}, check)
    ht_post(d, 'action', {'stateToken': t0, 'command': 5}, check)                    # 400
    ht_post(d, 'action', {'stateToken': 'v4.local.AAAA.BBBB', 'command': 'options'}, check)
    for tok in other_tokens:
        ht_post(d, 'action', {'stateToken': tok, 'command': 'options'}, check)       # 404/400
    ht_post(d, 'action', {'stateToken': t0, 'command': 'hold'}, check)               # 422 not ours
    ht_post(d, 'action', {'stateToken': t0, 'command': 'place 0 8'}, check)          # 422
    ht_post(d, 'action', {'stateToken': t0, 'command': ' ; '}, check)                # 422 empty
    ht_post(d, 'action', {'stateToken': t0, 'command': ';'.join(['options'] * 51)}, check)  # 422
    ht_post(d, 'action', {'stateToken': t0, 'action': {'type': 'resign'}}, check)    # 422
    ht_post(d, 'action', {'stateToken': t0, 'command': 'options; preview 1 4'}, check)
    ht_post(d, 'action', {'stateToken': t0, 'action': {'type': 'preview', 'rotation': 0, 'column': 3}}, check)
    r1 = ht_post(d, 'action', {'stateToken': t0, 'command': 'place 0 0; 0 3'}, check)
    ht_post(d, 'action', {'stateToken': t0, 'command': 'PLACE 0 00\n0 3'}, check)   # retry
    ht_post(d, 'action', {'stateToken': t0, 'command': 'place 0 6'}, check)          # 409 stale
    token_refusals(d, 'hatetris', r1.json['stateToken'], 'options', other_tokens, check)
    if check:
        req(d, 'POST', g + 'action', {'stateToken': r1.json['stateToken'], 'command': 'options'})  # 428
    r2 = ht_post(d, 'action', {'stateToken': r1.json['stateToken'],
                               'command': 'place 0 6; place 9 9'}, check)            # stops at 2nd
    r2 = ht_post(d, 'action', {'stateToken': r2.json['stateToken'],
                               'action': {'type': 'place', 'rotation': 1, 'column': 8}}, check)
    sh = fresh(d) if check else {}
    req(d, 'GET', g + 'state?stateToken=' + urllib.parse.quote(r2.json['stateToken']), headers=sh)
    sh = fresh(d) if check else {}
    req(d, 'GET', g + 'state?stateToken=' + urllib.parse.quote(t0), headers=sh)      # 409
    ht_post(d, 'state', {'stateToken': r2.json['stateToken']}, check)
    ht_post(d, 'state', {'stateToken': t0}, check)                                   # 409 stale
    ht_post(d, 'state', {'stateToken': t0, 'y': 1}, check)                           # 400
    ht_post(d, 'finish', {'stateToken': r2.json['stateToken'], 'rating': 3, 'review': 'not yet'}, check)
    # A capped run ends after two placements.
    r = req(d, 'GET', g + 'init?cap=2')
    r3 = ht_post(d, 'action', {'stateToken': r.json['stateToken'], 'command': 'place 0 0; place 0 3'}, check)
    tok = r3.json['stateToken']
    ht_post(d, 'action', {'stateToken': tok, 'command': 'options'}, check)           # 422 over
    ht_post(d, 'finish', {'stateToken': tok, 'rating': 0, 'review': 'x'}, check)     # 400
    ht_post(d, 'finish', {'stateToken': r.json['stateToken'], 'rating': 3, 'review': 'stale'}, check)
    f = ht_post(d, 'finish', {'stateToken': tok, 'rating': 2, 'review': 'It always knew.'}, check)
    ht_post(d, 'finish', {'stateToken': tok, 'rating': 2, 'review': 'again'}, check)  # 409
    out['finished'] = f.json
    # A run to its top-out at depth 2, unreviewed, for the boards.
    r = req(d, 'GET', g + 'init?depth=2')
    for _ in range(60):
        if r.json['status'] != 'playing':
            break
        o = ht_post(d, 'action', {'stateToken': r.json['stateToken'], 'command': 'options'}, check)
        first = o.json['results'][0]['options'][0]['command']
        r = ht_post(d, 'action', {'stateToken': r.json['stateToken'], 'command': first}, check)
    out['playing'] = req(d, 'GET', g + 'init').json
    return out


# ---------------------------------------------------------------------------
# Wells on the token routes (the seed is the well: width and height instead).

def wl_post(d, route, body, check, headers=None):
    h = fresh(d, headers) if check else dict(headers or {})
    return req(d, 'POST', '/api/games/wells/' + route, body, headers=h)


def wl_to_end(d, r, check):
    """Plays the run of answer r to its end: a landing that completes a row,
    else the lowest."""
    for _ in range(40):
        if r.json['state']['status'] == 'over':
            return r
        act = max(r.json['legalActions'], key=lambda a: (a['line'], a['y']))['id']
        r = wl_post(d, 'action', {'stateToken': r.json['stateToken'], 'action': act}, check)
        if r.status != 200:
            t.ok(False, 'wells action %r answered %d' % (act, r.status))
            return r
    t.ok(False, 'a wells run ends within 40 landings')
    return r


def play_wells(d, acct, check, other_tokens=()):
    out = {}
    g = '/api/games/wells/'
    req(d, 'GET', g + 'rules')
    req(d, 'GET', g + 'init')
    req(d, 'GET', g + 'init?width=6&height=4')
    req(d, 'GET', g + 'init?seed=405')                                               # 400 no seed
    req(d, 'GET', g + 'init?width=6&height=6')                                       # 400 not served
    req(d, 'GET', g + 'init?width=9')                                                # 400 bounds
    req(d, 'GET', g + 'init', headers={'Authorization': 'Bearer nope'})              # 401
    req(d, 'POST', g + 'init', {'seed': 404})                                        # 400
    req(d, 'POST', g + 'init', {'width': 'four'})                                    # 400
    req(d, 'POST', g + 'init', {'cap': 3})                                           # 400 unknown
    req(d, 'POST', g + 'init', raw=b'{"width": ', headers=JSON_TYPE)                 # 400 json
    r = req(d, 'POST', g + 'init', {'width': 4, 'height': 4}, headers=bearer(acct['alice']['key']))
    out['owned_token'] = r.json['stateToken']
    r = req(d, 'POST', g + 'init', {'width': 4, 'height': 5})
    t0 = r.json['stateToken']
    first = r.json['legalActions'][0]['id']
    wl_post(d, 'action', {'stateToken': t0}, check)                                  # 400 missing
    wl_post(d, 'action', {'stateToken': t0, 'action': first, 'x': 1}, check)         # 400 unknown
    wl_post(d, 'action', {'stateToken': 'v4.local.AAAA.BBBB', 'action': first}, check)   # 400 token
    for tok in other_tokens:
        wl_post(d, 'action', {'stateToken': tok, 'action': first}, check)           # 400/404
    wl_post(d, 'action', {'stateToken': t0, 'action': 'place 0 0'}, check)           # 422 grammar
    wl_post(d, 'action', {'stateToken': t0, 'action': 'r0x3y4'}, check)              # 422 no landing
    wl_post(d, 'action', {'stateToken': t0, 'action': 7}, check)                     # 422 a number
    r1 = wl_post(d, 'action', {'stateToken': t0, 'action': first}, check)
    wl_post(d, 'action', {'stateToken': t0, 'action': first}, check)                 # retry
    wl_post(d, 'action', {'stateToken': t0, 'action': r.json['legalActions'][-1]['id']}, check)  # 409
    token_refusals(d, 'wells', r1.json['stateToken'], first, other_tokens, check)
    if check:
        req(d, 'POST', g + 'action', {'stateToken': t0, 'action': first})            # 428 missing
    sh = fresh(d) if check else {}
    req(d, 'GET', g + 'state?stateToken=' + urllib.parse.quote(r1.json['stateToken']), headers=sh)
    sh = fresh(d) if check else {}
    req(d, 'GET', g + 'state?stateToken=' + urllib.parse.quote(t0), headers=sh)      # 409
    wl_post(d, 'state', {'stateToken': r1.json['stateToken']}, check)
    wl_post(d, 'state', {'stateToken': t0}, check)                                   # 409 stale
    wl_post(d, 'finish', {'stateToken': r1.json['stateToken'], 'rating': 3, 'review': 'not yet'}, check)
    end = wl_to_end(d, r1, check)
    tok = end.json['stateToken']
    wl_post(d, 'action', {'stateToken': tok, 'action': first}, check)                # 422 over
    wl_post(d, 'finish', {'stateToken': tok, 'rating': 0, 'review': 'x'}, check)     # 400
    f = wl_post(d, 'finish', {'stateToken': tok, 'rating': 8, 'review': 'The supplier knew.'}, check)
    wl_post(d, 'finish', {'stateToken': tok, 'rating': 8, 'review': 'again'}, check)  # 409
    out['finished'] = f.json
    wl_to_end(d, req(d, 'GET', g + 'init?width=4&height=4'), check)                  # a top-out
    out['playing'] = req(d, 'GET', g + 'init').json
    return out


# HATETRIS classic on the token routes (no seed; the supplier version
# instead; keys, options and place), and its import route.

def hc_post(d, route, body, check, headers=None):
    h = fresh(d, headers) if check else dict(headers or {})
    return req(d, 'POST', '/api/games/hatetris-classic/' + route, body, headers=h)


def play_hatetris_classic(d, acct, check, other_tokens=()):
    out = {}
    g = '/api/games/hatetris-classic/'
    req(d, 'GET', g + 'rules')
    req(d, 'GET', g + 'init')
    req(d, 'GET', g + 'init?supplier=3')
    req(d, 'GET', g + 'init?seed=1')                                                 # 400 no seed
    req(d, 'GET', g + 'init?supplier=4')                                             # 400
    req(d, 'GET', g + 'init', headers={'Authorization': 'Bearer nope'})              # 401
    req(d, 'POST', g + 'init', {'seed': 1})                                          # 400
    req(d, 'POST', g + 'init', {'supplier': 'mild'})                                 # 400
    req(d, 'POST', g + 'init', {'depth': 1})                                         # 400 unknown
    req(d, 'POST', g + 'init', raw=b'{"supplier": ', headers=JSON_TYPE)              # 400 json
    r = req(d, 'POST', g + 'init', {'supplier': 0}, headers=bearer(acct['alice']['key']))
    out['owned_token'] = r.json['stateToken']
    r = req(d, 'POST', g + 'init', {})
    t0 = r.json['stateToken']
    hc_post(d, 'action', {'stateToken': t0}, check)                                  # 400 missing
    hc_post(d, 'action', {'stateToken': t0, 'command': 'options', 'action': {'type': 'options'}}, check)
    hc_post(d, 'action', {'stateToken': t0, 'command': 5}, check)                    # 400
    hc_post(d, 'action', {'stateToken': 'v4.local.AAAA.BBBB', 'command': 'options'}, check)
    for tok in other_tokens:
        hc_post(d, 'action', {'stateToken': tok, 'command': 'options'}, check)       # 404/400
    hc_post(d, 'action', {'stateToken': t0, 'command': 'keys LLX'}, check)           # 422
    hc_post(d, 'action', {'stateToken': t0, 'command': 'place 900'}, check)          # 422
    hc_post(d, 'action', {'stateToken': t0, 'action': {'type': 'hold'}}, check)      # 422
    hc_post(d, 'action', {'stateToken': t0, 'command': 'options'}, check)
    hc_post(d, 'action', {'stateToken': t0, 'action': {'type': 'options'}}, check)
    r1 = hc_post(d, 'action', {'stateToken': t0, 'command': 'keys URRRRRDDDDDDDDDDDDDDDDD'}, check)
    hc_post(d, 'action', {'stateToken': t0, 'command': 'keys URRRRRDDDDDDDDDDDDDDDDD'}, check)  # retry
    hc_post(d, 'action', {'stateToken': t0, 'command': 'keys L'}, check)             # 409 stale
    token_refusals(d, 'hatetris-classic', r1.json['stateToken'], {'type': 'options'}, other_tokens, check)
    if check:
        req(d, 'POST', g + 'action', {'stateToken': r1.json['stateToken'], 'command': 'options'})  # 428
    r2 = hc_post(d, 'action', {'stateToken': r1.json['stateToken'], 'action': {'type': 'place', 'lock': 0}}, check)
    r2 = hc_post(d, 'action', {'stateToken': r2.json['stateToken'], 'action': {'type': 'keys', 'keys': 'LLU'}},
                 check)
    sh = fresh(d) if check else {}
    req(d, 'GET', g + 'state?stateToken=' + urllib.parse.quote(r2.json['stateToken']), headers=sh)
    sh = fresh(d) if check else {}
    req(d, 'GET', g + 'state?stateToken=' + urllib.parse.quote(t0), headers=sh)      # 409
    hc_post(d, 'state', {'stateToken': r2.json['stateToken']}, check)
    hc_post(d, 'state', {'stateToken': t0}, check)                                   # 409 stale
    hc_post(d, 'state', {'stateToken': t0, 'y': 1}, check)                           # 400
    hc_post(d, 'finish', {'stateToken': r2.json['stateToken'], 'rating': 3, 'review': 'not yet'}, check)
    # Straight down until the bar: game over.
    r = req(d, 'GET', g + 'init')
    r3 = hc_post(d, 'action', {'stateToken': r.json['stateToken'], 'command': 'keys ' + 'D' * 200}, check)
    tok = r3.json['stateToken']
    hc_post(d, 'action', {'stateToken': tok, 'command': 'options'}, check)           # 422 over
    hc_post(d, 'finish', {'stateToken': tok, 'rating': 0, 'review': 'x'}, check)     # 400
    hc_post(d, 'finish', {'stateToken': r.json['stateToken'], 'rating': 3, 'review': 'stale'}, check)
    f = hc_post(d, 'finish', {'stateToken': tok, 'rating': 2, 'review': 'It hates me.'}, check)
    hc_post(d, 'finish', {'stateToken': tok, 'rating': 2, 'review': 'again'}, check)  # 409
    out['finished'] = f.json
    # A run played by options and place, unreviewed, for the boards.
    r = req(d, 'GET', g + 'init?supplier=1')
    for _ in range(60):
        if r.json['status'] != 'playing':
            break
        r = hc_post(d, 'action', {'stateToken': r.json['stateToken'], 'command': 'place 0'}, check)
    out['playing'] = req(d, 'GET', g + 'init').json
    return out


# ---------------------------------------------------------------------------
# Stackfall's seed-shaped routes.

def seed_post(d, route, body, key, check, raw_body=None, label=None):
    h = bearer(key) if key else {}
    if check and key:
        h = fresh(d, h)
    if raw_body is not None:
        h['Content-Type'] = 'application/json'
    return req(d, 'POST', '/games/stackfall/api/' + route, body, headers=h, raw=raw_body, label=label)


def play_seed(d, acct, check):
    out = {}
    a, c = acct['alice']['key'], acct['carol']['key']
    s = '/games/stackfall/api/'
    req(d, 'GET', s + 'rules')
    # carol has no game yet: 409 everywhere, 428 without an answer.
    seed_post(d, 'act', {'command': 'hold'}, c, check)
    seed_post(d, 'finish', {'rating': 5, 'review': 'nothing'}, c, check)
    req(d, 'GET', s + 'state', headers=fresh(d, bearer(c)) if check else bearer(c))
    if check:
        req(d, 'GET', s + 'state', headers=bearer(c))                                # 428, no run
    seed_post(d, 'new', {}, None, check)                                             # 401 missing
    req(d, 'POST', s + 'new', {}, headers={'Authorization': 'Bearer nope'})           # 401 bad
    seed_post(d, 'new', {'x': 1}, a, check)                                          # 400 unknown
    seed_post(d, 'new', {'seed': 'x'}, a, check, label='seed-400')                   # 400 seed
    seed_post(d, 'new', None, a, check, raw_body=b'{')                               # 400 json
    r = seed_post(d, 'new', {'seed': 42}, a, check)
    abandoned_token = r.json['stateToken']
    seed_post(d, 'act', {'command': 'place 1 4'}, a, check)
    r = seed_post(d, 'new', None, a, check)                                          # abandons
    out['abandoned'] = abandoned_token
    seed_post(d, 'act', {'command': 'options\nplace 1 4'}, a, check)
    seed_post(d, 'act', {'action': {'type': 'hold'}}, a, check)
    seed_post(d, 'act', {'stateToken': abandoned_token, 'command': 'hold'}, a, check)  # 400
    seed_post(d, 'act', {}, a, check)                                                # 400 missing
    seed_post(d, 'act', {'command': 'place 9 9'}, a, check)                          # 422
    seed_post(d, 'act', {'command': ''}, a, check)                                   # 422 empty
    if check:
        req(d, 'POST', s + 'act', {'command': 'hold'}, headers=bearer(a))            # 428 with run
    req(d, 'POST', s + 'act', {'command': 'hold'})                                   # 401
    req(d, 'GET', s + 'state', headers=fresh(d, bearer(a)) if check else bearer(a))
    req(d, 'GET', s + 'state')                                                       # 401
    seed_post(d, 'finish', {'rating': 9, 'review': 'still playing'}, a, check)       # 409 not over
    seed_post(d, 'act', {'command': 'resign'}, a, check)
    seed_post(d, 'act', {'command': 'place 0 0'}, a, check)                          # 422 over
    if check:
        req(d, 'POST', s + 'finish', {'rating': 9, 'review': 'no answer'}, headers=bearer(a))  # 428
    seed_post(d, 'finish', {'rating': 99, 'review': 'x'}, a, check, label='seed-400')  # 400
    seed_post(d, 'finish', {'rating': 9, 'review': 'x' * 2001}, a, check, label='seed-400')
    seed_post(d, 'finish', {'rating': 9, 'review': 'Played it with curl.'}, a, check)
    seed_post(d, 'finish', {'rating': 9, 'review': 'again'}, a, check)               # 409
    seed_post(d, 'finish', {'rating': 9, 'review': 'no key'}, None, check)           # 401
    # bob keeps a run going, for the lock and the shutdown below.
    seed_post(d, 'new', {}, acct['bob']['key'], check)
    return out


# ---------------------------------------------------------------------------
# Runs, boards, replays.

def play_board(d, dc, sf, sc, ht, wl, hc):
    g = '/api/games/'
    pages = {}
    for game, runs in (('duskcourt', dc), ('stackfall', sf), ('stackcraft', sc), ('hatetris', ht),
                       ('wells', wl), ('hatetris-classic', hc)):
        for which in ('finished', 'playing'):
            rid = runs[which]['runId']
            pages[(game, which)] = req(d, 'GET', g + game + '/runs/' + rid).json
        other = 'stackfall' if game == 'duskcourt' else 'duskcourt'
        req(d, 'GET', g + other + '/runs/' + runs['finished']['runId'])              # 404 other game
        req(d, 'GET', g + game + '/runs/1')                                          # 404
        req(d, 'GET', g + game + '/runs/x7')                                         # 404
        r = req(d, 'GET', g + game + '/leaderboard')
        req(d, 'GET', g + game + '/leaderboard?seed=%d' % runs['finished']['final']['seed'])
        r = req(d, 'GET', g + game + '/leaderboard?limit=1')
        if r.json.get('next'):
            req(d, 'GET', g + game + '/leaderboard?limit=1&after=' + r.json['next'])
        req(d, 'GET', g + game + '/leaderboard?limit=0')                             # 400
        req(d, 'GET', g + game + '/leaderboard?after=1.2')                           # 400
        req(d, 'GET', g + game + '/leaderboard?seed=-3')                             # 400
        req(d, 'GET', g + game + '/leaderboard?limit=500')
        r = req(d, 'GET', g + game + '/reviews')
        r = req(d, 'GET', g + game + '/reviews?limit=1')
        if r.json.get('next'):
            req(d, 'GET', g + game + '/reviews?limit=1&before=' + r.json['next'])
        req(d, 'GET', g + game + '/reviews?before=x')                                # 400
    if 'break_run' in dc:
        req(d, 'GET', g + 'duskcourt/runs/' + dc['break_run'])
    for path in ('runs/1', 'leaderboard', 'reviews'):
        req(d, 'GET', g + 'chess/' + path)                                           # 404 game
    req(d, 'POST', g + 'chess/replays/verify', {})                                   # 404
    # Verification.
    dcp, sfp = pages[('duskcourt', 'finished')], pages[('stackfall', 'finished')]
    v = g + 'duskcourt/replays/verify'
    req(d, 'POST', v, {'replay': dcp['replay'], 'certificate': dcp['certificate']})
    req(d, 'POST', v, dcp['replay'])
    req(d, 'POST', v, pages[('duskcourt', 'playing')]['replay'])                     # unfinished
    bad = json.loads(json.dumps(dcp['replay']))
    bad['final']['score'] += 1
    req(d, 'POST', v, bad)                                                           # 422 simulated
    bad = json.loads(json.dumps(dcp['replay']))
    bad['actions'][0] = {'type': 'capture', 'from': 35, 'to': 35}
    req(d, 'POST', v, bad)                                                           # 422 step 1
    req(d, 'POST', v, sfp['replay'])                                                 # 422 other game
    req(d, 'POST', v, {'replay': dcp['replay'], 'certificate': sfp['certificate']})  # 422 another
    req(d, 'POST', v, {'replay': dcp['replay'], 'certificate': 'v4.public.AAAA.BBBB'})
    req(d, 'POST', v, {'replay': dcp['replay'], 'certificate': 5})                   # 400
    req(d, 'POST', v, {'replay': dcp['replay'], 'x': 1})                             # 400
    req(d, 'POST', v, None)                                                          # 400 empty
    req(d, 'POST', v, raw=b'[1, 2]', headers=JSON_TYPE)   # 400
    req(d, 'POST', v, raw=b'{"replay": ', headers=JSON_TYPE)
    v = g + 'stackfall/replays/verify'
    req(d, 'POST', v, {'replay': sfp['replay'], 'certificate': sfp['certificate']})
    req(d, 'POST', v, sfp['replay'])
    bad = json.loads(json.dumps(sfp['replay']))
    bad['final']['lines'] += 1
    req(d, 'POST', v, bad)
    bad['schema'] = 2
    req(d, 'POST', v, bad)                                                           # 422 schema
    scp = pages[('stackcraft', 'finished')]
    v = g + 'stackcraft/replays/verify'
    req(d, 'POST', v, {'replay': scp['replay'], 'certificate': scp['certificate']})
    req(d, 'POST', v, scp['replay'])
    bad = json.loads(json.dumps(scp['replay']))
    bad['actions'] = bad['actions'][:3]
    req(d, 'POST', v, bad)                                                           # 422 simulated
    bad['final'] = {'score': 0, 'lines': 0, 'pieces': 3, 'status': 'playing', 'end_reason': None}
    req(d, 'POST', v, bad)                                                           # a partial game
    bad['actions'][1] = 'r0x9'
    req(d, 'POST', v, bad)                                                           # 422 step 2
    req(d, 'POST', v, dict(scp['replay'], cap=0))                                    # 422 cap
    req(d, 'POST', v, dcp['replay'])                                                 # 422 other game
    req(d, 'POST', v, {'replay': scp['replay'], 'certificate': dcp['certificate']})  # 422 another
    htp = pages[('hatetris', 'finished')]
    v = g + 'hatetris/replays/verify'
    req(d, 'POST', v, {'replay': htp['replay'], 'certificate': htp['certificate']})
    req(d, 'POST', v, htp['replay'])
    req(d, 'POST', v, pages[('hatetris', 'playing')]['replay'])                      # unfinished
    bad = json.loads(json.dumps(htp['replay']))
    bad['final']['lines'] += 1
    req(d, 'POST', v, bad)                                                           # 422 simulated
    bad = json.loads(json.dumps(htp['replay']))
    bad['seed'] = 5
    req(d, 'POST', v, bad)                                                           # 422 a seed
    req(d, 'POST', v, sfp['replay'])                                                 # 422 other game
    wlp = pages[('wells', 'finished')]
    v = g + 'wells/replays/verify'
    req(d, 'POST', v, {'replay': wlp['replay'], 'certificate': wlp['certificate']})
    req(d, 'POST', v, wlp['replay'])
    req(d, 'POST', v, pages[('wells', 'playing')]['replay'])                         # unfinished
    bad = json.loads(json.dumps(wlp['replay']))
    bad['final']['pieces'] += 1
    req(d, 'POST', v, bad)                                                           # 422 simulated
    bad = json.loads(json.dumps(wlp['replay']))
    bad['seed'] = 406
    req(d, 'POST', v, bad)                                                           # 422 not its well
    bad = json.loads(json.dumps(wlp['replay']))
    bad['actions'][0] = 'r3x3y3'
    req(d, 'POST', v, bad)                                                           # 422 step 1
    req(d, 'POST', v, htp['replay'])                                                 # 422 other game
    hcp = pages[('hatetris-classic', 'finished')]
    v = g + 'hatetris-classic/replays/verify'
    req(d, 'POST', v, {'replay': hcp['replay'], 'certificate': hcp['certificate']})
    req(d, 'POST', v, hcp['replay'])
    req(d, 'POST', v, pages[('hatetris-classic', 'playing')]['replay'])              # unfinished
    bad = json.loads(json.dumps(hcp['replay']))
    bad['final']['keys'] += 1
    req(d, 'POST', v, bad)                                                           # 422 simulated
    bad = json.loads(json.dumps(hcp['replay']))
    bad['actions'][0]['y'] = 3
    req(d, 'POST', v, bad)                                                           # 422 step 1
    # Records of the original: import.
    im = g + 'hatetris-classic/replays/import'
    req(d, 'POST', im, {'record': 'AAAA AAAA AAAA AAAA AAAA AAAA AAAA AAAA AAAA AAAA AAAA A2'})
    req(d, 'POST', im, {'record': 'URRRRRDDDDDDDDDDDDDDDDD', 'supplier': 3})
    hcr = req(d, 'GET', g + 'hatetris-classic/runs/%s/record' % hcp['runId']).json
    req(d, 'POST', im, {'record': hcr['base2048']})                                  # the run's export
    req(d, 'GET', g + 'hatetris-classic/runs/%s/record' % pages[('hatetris-classic', 'playing')]['runId'])  # 409
    req(d, 'GET', g + 'duskcourt/runs/%s/record' % hcp['runId'])                     # 404
    req(d, 'POST', im, {'record': 'xyz xyz'})                                        # 422
    req(d, 'POST', im, None)                                                         # 400 empty
    req(d, 'POST', im, raw=b'{"record": ', headers=JSON_TYPE)                        # 400 json
    req(d, 'POST', g + 'hatetris/replays/import', {'record': 'D'})                   # 404 no records
    req(d, 'POST', g + 'chess/replays/import', {'record': 'D'})                      # 404 game
    # What the pages read (docs/web.md): the table, a run by its id alone,
    # its steps and its live head.
    req(d, 'GET', '/api/games')
    for game, runs in (('duskcourt', dc), ('stackfall', sf), ('stackcraft', sc), ('hatetris', ht),
                       ('wells', wl), ('hatetris-classic', hc)):
        other = 'stackfall' if game == 'duskcourt' else 'duskcourt'
        for which in ('finished', 'playing'):
            rid = runs[which]['runId']
            req(d, 'GET', '/api/runs/' + rid)
            req(d, 'GET', g + game + '/runs/' + rid + '/live')
            req(d, 'GET', g + game + '/runs/' + rid + '/steps?count=3')  # 409 for a playing Stackfall or Stackcraft run
        rid = runs['finished']['runId']
        req(d, 'GET', g + game + '/runs/' + rid + '/steps')
        req(d, 'GET', g + game + '/runs/' + rid + '/steps?from=2&count=1000')       # capped at 200
        req(d, 'GET', g + game + '/runs/' + rid + '/steps?from=100000')             # past the end
        req(d, 'GET', g + game + '/runs/' + rid + '/steps?count=0')                 # 400
        req(d, 'GET', g + game + '/runs/' + rid + '/steps?from=x')                  # 400
        req(d, 'GET', g + other + '/runs/' + rid + '/steps')                        # 404 other game
        req(d, 'GET', g + other + '/runs/' + rid + '/live')                         # 404 other game
        req(d, 'GET', g + game + '/runs/x7/live')                                   # 404
    req(d, 'GET', '/api/runs/1')                                                     # 404
    req(d, 'GET', '/api/runs/x7')                                                    # 404
    for path in ('runs/1/steps', 'runs/1/live'):
        req(d, 'GET', g + 'chess/' + path)                                           # 404 game
    return pages


# ---------------------------------------------------------------------------
# Versus matches: the lobby, moves and their refusals, the reads, the
# replay and its verification, ratings. Turns last a minute, so that no
# deadline fires while the database is locked below.

def play_matches(d, acct):
    m = '/api/matches'
    a, b, c = (bearer(acct[w]['key']) for w in ('alice', 'bob', 'carol'))
    bad = {'Authorization': 'Bearer nope'}
    req(d, 'POST', m, {'players': 2})                                                # 401
    req(d, 'POST', m, {'players': 2}, headers=bad)                                   # 401
    req(d, 'POST', m, {'players': 9}, headers=a)                                     # 400
    req(d, 'POST', m, {'players': 2, 'seed': 5, 'rated': True}, headers=a)           # 400 rated + seed
    req(d, 'POST', m, {'players': 2, 'x': 1}, headers=a)                             # 400 unknown
    req(d, 'POST', m, raw=b'{"players": ', headers=dict(a, **JSON_TYPE))             # 400 invalid_json
    lobbyist = bearer(req(d, 'POST', '/api/v1/accounts', {'name': 'lobbyist'}).json['agentKey'])
    for _ in range(11):
        req(d, 'POST', m, {'players': 8}, headers=lobbyist)                          # 10 x 201, 409
    req(d, 'POST', m + '/quick', {'players': 8}, headers=lobbyist)                   # 409 too_many_lobbies
    fin = req(d, 'POST', m, {'players': 2, 'turn_seconds': 60, 'seed': 7}, headers=a).json['match_id']
    f = m + '/' + fin
    req(d, 'GET', f)                                                                 # the lobby
    req(d, 'POST', f + '/move', {'turn': 1, 'command': 'place 0 0'}, headers=a)      # 409 not started
    req(d, 'POST', f + '/join', {}, headers=a)                                       # 409 already_joined
    req(d, 'POST', f + '/join', {'x': 1}, headers=b)                                 # 400
    req(d, 'POST', f + '/join', {}, headers=bad)                                     # 401
    req(d, 'POST', m + '/1/join', {}, headers=b)                                     # 404
    req(d, 'POST', f + '/join', None, headers=b)                                     # starts it
    req(d, 'POST', f + '/join', None, headers=c)                                     # 409 match_full
    req(d, 'POST', f + '/move', {'turn': 1, 'command': 'place 0 0'}, headers=c)      # 403
    req(d, 'POST', f + '/move', {'turn': 1, 'command': 'place 0 0'}, headers=bad)    # 401
    req(d, 'POST', m + '/1/move', {'turn': 1, 'command': 'place 0 0'}, headers=a)    # 404
    req(d, 'POST', f + '/move', {'turn': 1, 'command': 'place 0 9'}, headers=a)      # 422 illegal
    req(d, 'POST', f + '/move', {'turn': 1, 'command': 'hold'}, headers=a)           # 422 invalid
    req(d, 'POST', f + '/move', {'turn': 1, 'command': ''}, headers=a)               # 422 empty
    req(d, 'POST', f + '/move', {'turn': 2, 'command': 'place 0 0'}, headers=a)      # 409 wrong_turn
    req(d, 'POST', f + '/move', {'command': 'place 0 0'}, headers=a)                 # 400 no turn
    req(d, 'POST', f + '/move', {'turn': 1}, headers=a)                              # 400 no command
    req(d, 'POST', f + '/move', raw=b'{"turn": ', headers=dict(a, **JSON_TYPE))      # 400 invalid_json
    req(d, 'POST', f + '/move', {'turn': 1, 'command': 'place 0 0'}, headers=a)      # waits for b
    req(d, 'POST', f + '/move', {'turn': 1, 'command': 'place 0 2'}, headers=a)      # 409 already_moved
    req(d, 'GET', f, headers=a)                                                      # you: 0, a preview
    req(d, 'GET', f, headers=bad)                                                    # 401
    req(d, 'GET', m + '/1')                                                          # 404
    req(d, 'GET', m + '/x7')                                                         # 404
    req(d, 'GET', f + '/replay')                                                     # 409 not over
    req(d, 'POST', f + '/move', {'turn': 1, 'command': 'place 0 4'}, headers=b)      # resolves turn 1
    req(d, 'GET', f + '/wait?after=0', headers=a)                                    # at once
    req(d, 'GET', f + '/wait')                                                       # 400
    req(d, 'GET', f + '/wait?after=x')                                               # 400
    req(d, 'GET', f + '/wait?after=0', headers=bad)                                  # 401
    req(d, 'GET', m + '/1/wait?after=0')                                             # 404
    req(d, 'GET', m + '/1/events')                                                   # 404
    req(d, 'GET', m + '/1/replay')                                                   # 404
    req(d, 'POST', f + '/move', {'turn': 2, 'command': 'resign'}, headers=a)
    req(d, 'POST', f + '/move', {'turn': 2, 'command': 'place 0 0'}, headers=b)      # the end
    req(d, 'POST', f + '/move', {'turn': 3, 'command': 'place 0 0'}, headers=b)      # 409 match_over
    req(d, 'POST', f + '/join', None, headers=c)                                     # 409 match_over
    req(d, 'GET', f, headers=b)
    req(d, 'GET', f + '/wait?after=1')                                               # over: at once
    req(d, 'GET', f + '/events')                                                     # one event, then the end
    # A match turn by turn, as the match page draws it.
    req(d, 'GET', f + '/turns')                                                      # turns 0 to 2
    req(d, 'GET', f + '/turns?from=1&count=1000')                                    # capped at 200
    req(d, 'GET', f + '/turns?from=3')                                               # past the end
    req(d, 'GET', f + '/turns?count=0')                                              # 400
    req(d, 'GET', f + '/turns?from=x')                                               # 400
    req(d, 'GET', m + '/1/turns')                                                    # 404
    req(d, 'GET', m + '/x7/turns')                                                   # 404
    page = req(d, 'GET', f + '/replay').json
    v = m + '/replays/verify'
    req(d, 'POST', v, {'replay': page['replay'], 'certificate': page['certificate']})
    req(d, 'POST', v, page['replay'])
    bad_replay = json.loads(json.dumps(page['replay']))
    bad_replay['turns'][0][0] = 'place 0 9'
    req(d, 'POST', v, bad_replay)                                                    # 422 turn 1
    bad_replay = json.loads(json.dumps(page['replay']))
    bad_replay['final']['turns'] = 5
    req(d, 'POST', v, bad_replay)                                                    # 422 simulated_final
    req(d, 'POST', v, {'replay': page['replay'], 'certificate': 'v4.public.AAAA.BBBB'})  # 422
    req(d, 'POST', v, {'replay': page['replay'], 'x': 1})                            # 400
    req(d, 'POST', v, {'replay': page['replay'], 'certificate': 5})                  # 400
    req(d, 'POST', v, None)                                                          # 400
    req(d, 'POST', v, raw=b'[1]', headers=JSON_TYPE)                                 # 400
    # A rated match comes from the queue (the seed is the server's); three
    # moves each, the fewest that rate.
    req(d, 'POST', m, {'players': 2, 'rated': True}, headers=b)                      # 400 rated: queue only
    req(d, 'POST', m + '/quick', {'players': 2, 'items': 1}, headers=b)              # 400
    req(d, 'POST', m + '/quick', {'players': 2})                                     # 401
    rated = req(d, 'POST', m + '/quick', {'players': 2, 'turn_seconds': 60}, headers=b).json['match_id']
    req(d, 'POST', m + '/quick', {'players': 2, 'turn_seconds': 60}, headers=c)     # 200: joined, it starts
    for turn in (1, 2):
        for k in (b, c):
            req(d, 'POST', m + '/' + rated + '/move', {'turn': turn, 'command': 'place 1 %d' % (3 * turn)},
                headers=k)
    req(d, 'POST', m + '/' + rated + '/move', {'turn': 3, 'command': 'resign'}, headers=b)
    req(d, 'POST', m + '/' + rated + '/move', {'turn': 3, 'command': 'place 1 0'}, headers=c)
    req(d, 'GET', m + '/' + rated)                                                   # rating_before/after
    req(d, 'GET', m + '/ratings')
    req(d, 'GET', m + '/ratings?limit=1')
    req(d, 'GET', m + '/ratings?after=bob')
    req(d, 'GET', m + '/ratings?after=nobody')                                       # 400
    req(d, 'GET', m + '/ratings?limit=0')                                            # 400
    req(d, 'GET', m + '?status=finished&limit=1')
    req(d, 'GET', m + '?status=x')                                                   # 400
    # Three players: one resigns, then its moves are 409 player_out; the
    # match goes on (the operations below use it).
    playing = req(d, 'POST', m, {'players': 3, 'turn_seconds': 60, 'seed': 7}, headers=a).json['match_id']
    p = m + '/' + playing
    req(d, 'POST', p + '/join', None, headers=b)
    req(d, 'POST', p + '/join', None, headers=c)
    req(d, 'POST', p + '/move', {'turn': 1, 'command': 'resign'}, headers=a)
    req(d, 'POST', p + '/move', {'turn': 1, 'command': 'place 0 0'}, headers=b)
    req(d, 'POST', p + '/move', {'turn': 1, 'command': 'hold; place 0 4'}, headers=c)
    req(d, 'POST', p + '/move', {'turn': 2, 'command': 'place 0 0'}, headers=a)      # 409 player_out
    req(d, 'GET', p, headers=c)                                                      # last_turn: resigned
    req(d, 'GET', p + '/turns?from=1', headers=c)                                    # playing: turn 1 so far
    lobby = req(d, 'POST', m, {'players': 2, 'turn_seconds': 60}, headers=a).json['match_id']
    req(d, 'GET', m + '/' + lobby + '/turns')                                        # a lobby: no turn
    # An ActionBlocks match (actionblocks-v1): its own shapes, the view,
    # events, move answers, turns page and replay of its fragment
    # (api/actionblocks/actionblocks.yaml).
    ab = req(d, 'POST', m, {'players': 2, 'turn_seconds': 60, 'seed': 7, 'rules': 'actionblocks-v1'},
             headers=a).json['match_id']
    q = m + '/' + ab
    req(d, 'GET', q)                                                                 # its lobby
    req(d, 'POST', q + '/join', None, headers=b)                                     # starts it
    req(d, 'POST', q + '/move', {'turn': 1, 'command': 'keys DL'}, headers=a)        # 422 after the lock
    req(d, 'POST', q + '/move', {'turn': 1, 'command': 'keys Q'}, headers=a)         # 422 invalid
    req(d, 'POST', q + '/move', {'turn': 1, 'command': 'keys SD'}, headers=a)        # waits for b
    req(d, 'POST', q + '/move?view=full', {'turn': 1, 'command': 'D'}, headers=b)    # resolves turn 1
    req(d, 'GET', q, headers=a)                                                      # you: 0, the previews
    req(d, 'GET', q + '/wait?after=0', headers=b)
    req(d, 'POST', q + '/move', {'turn': 2, 'command': 'resign'}, headers=a)
    req(d, 'POST', q + '/move?view=full', {'turn': 2, 'command': 'keys LLD'}, headers=b)  # the end
    req(d, 'GET', q + '/events')
    req(d, 'GET', q + '/turns')
    page = req(d, 'GET', q + '/replay').json
    req(d, 'POST', v, {'replay': page['replay'], 'certificate': page['certificate']})
    bad_replay = json.loads(json.dumps(page['replay']))
    bad_replay['turns'][0][0] = 'keys DL'
    req(d, 'POST', v, bad_replay)                                                    # 422 turn 1
    rt = play_realtime(d, m, a, b, c, f, v)
    return {'finished': fin, 'playing': playing, 'lobby': lobby, 'realtime': rt}


def play_realtime(d, m, a, b, c, f, v):
    """An ActionBlocks match in real time ("clock": "ticks"): its keys, its
    stream and its replay. Nobody opens a stream, so both seats are out
    together 2 s after the start; the result shows for 4 s, then it is
    finished."""
    req(d, 'POST', m, {'players': 2, 'rules': 'versus-v1', 'clock': 'ticks'}, headers=a)  # 422
    req(d, 'POST', m, {'players': 2, 'rules': 'actionblocks-v1', 'clock': 'now'}, headers=a)  # 400
    rt = req(d, 'POST', m, {'players': 2, 'seed': 7, 'rules': 'actionblocks-v1', 'clock': 'ticks'},
             headers=a).json['match_id']
    r = m + '/' + rt
    req(d, 'POST', r + '/keys', {'keys': 'L'}, headers=a)                           # 409 not started
    req(d, 'POST', r + '/join', None, headers=b)                                     # starts it
    req(d, 'POST', r + '/keys', {'keys': 'LLXD'}, headers=a)                        # 200 with its tick
    req(d, 'POST', r + '/keys', {'keys': 'LQ'}, headers=a)                          # 422
    req(d, 'POST', r + '/keys', {'keys': 'L'}, headers=c)                           # 403
    req(d, 'POST', r + '/keys', {'keys': 'L'})                                      # 401
    req(d, 'POST', r + '/keys', {'kees': 'L'}, headers=a)                           # 400
    req(d, 'POST', m + '/1/keys', {'keys': 'L'}, headers=a)                         # 404
    req(d, 'POST', f + '/keys', {'keys': 'L'}, headers=a)                           # 409 wrong_clock
    req(d, 'POST', r + '/move', {'turn': 1, 'command': 'D'}, headers=a)              # 409 wrong_clock
    req(d, 'GET', f + '/stream')                                                     # 409 wrong_clock
    req(d, 'GET', m + '/1/stream')                                                   # 404
    req(d, 'GET', r + '/stream', headers={'Authorization': 'Bearer nope'})           # 401
    req(d, 'GET', r, headers=a)                                                      # the live view
    req(d, 'GET', r + '/turns')                                                      # 409 wrong_clock
    for _ in range(100):
        if d.get(r).json['status'] == 'finished':
            break
        time.sleep(0.2)
    req(d, 'GET', r + '/stream')                                                     # one frame, the end
    req(d, 'POST', r + '/keys', {'keys': 'L'}, headers=a)                           # 409 match_over
    page = req(d, 'GET', r + '/replay').json
    req(d, 'POST', v, {'replay': page['replay'], 'certificate': page['certificate']})
    bad_replay = json.loads(json.dumps(page['replay']))
    bad_replay['inputs'][0][2] = 'Q'
    req(d, 'POST', v, bad_replay)                                                    # 422 input 1
    return rt


# ---------------------------------------------------------------------------
# An account's page, its runs and matches, and the open matches (issue 30),
# after the games and matches above have given the accounts some history.

def play_history(d, acct):
    a = '/api/v1/accounts/' + acct['alice']['name']
    req(d, 'GET', a)
    req(d, 'GET', '/api/v1/accounts/' + acct['bob']['name'].upper())                # any case
    req(d, 'GET', '/api/v1/accounts/nobody_here')                                   # 404
    for game in ('stackfall', 'duskcourt', 'stackcraft', 'hatetris'):
        r = req(d, 'GET', a + '/runs?game=%s&limit=2' % game)
        if r.status == 200 and r.json['next']:
            req(d, 'GET', a + '/runs?game=%s&limit=2&before=%s' % (game, r.json['next']))
    req(d, 'GET', a + '/runs')                                                      # 400 no game
    req(d, 'GET', a + '/runs?game=duskcourt&before=x')                              # 400
    req(d, 'GET', '/api/v1/accounts/nobody_here/runs?game=duskcourt')               # 404
    for who in ('alice', 'bob', 'carol'):
        req(d, 'GET', '/api/v1/accounts/%s/matches' % acct[who]['name'])
    r = req(d, 'GET', a + '/matches?limit=1')
    if r.status == 200 and r.json['next']:
        req(d, 'GET', a + '/matches?limit=1&before=' + r.json['next'])
    req(d, 'GET', a + '/matches?limit=0')                                           # 400
    req(d, 'GET', '/api/v1/accounts/nobody_here/matches')                           # 404
    req(d, 'GET', '/api/matches/open')
    req(d, 'GET', '/api/matches/open?status=playing&limit=1')
    req(d, 'GET', '/api/matches/open?status=finished')                              # 400


# ---------------------------------------------------------------------------
# Every route: HEAD, 405, 413, libmicrohttpd's refusals, and the requests
# that provoke what the hardening work will refuse (labels).

# The operations of the document with a request for each: method, path
# (concrete), whether a key is sent.
def operations(acct, tokens):
    sf, dc, sc, ht = tokens['stackfall'], tokens['duskcourt'], tokens['stackcraft'], tokens['hatetris']
    wl = tokens['wells']
    hc = tokens['hatetris-classic']
    return [
        ('GET /healthz', 'GET', '/healthz', None),
        ('GET /readyz', 'GET', '/readyz', None),
        ('GET /metrics', 'GET', '/metrics', None),
        ('POST /api/v1/accounts', 'POST', '/api/v1/accounts', {'name': None}),
        ('GET /api/v1/me', 'GET', '/api/v1/me', None),
        ('POST /api/v1/me/keys', 'POST', '/api/v1/me/keys', {}),
        ('DELETE /api/v1/me/keys/{id}', 'DELETE', '/api/v1/me/keys/' + acct['bob']['spare'], None),
        ('GET /api/v1/agent-check', 'GET', '/api/v1/agent-check', None),
        ('GET /api/v1/keys', 'GET', '/api/v1/keys', None),
        ('GET /api/v1/accounts/{name}', 'GET', '/api/v1/accounts/' + acct['alice']['name'], None),
        ('GET /api/v1/accounts/{name}/runs', 'GET',
         '/api/v1/accounts/' + acct['alice']['name'] + '/runs?game=duskcourt', None),
        ('GET /api/v1/accounts/{name}/matches', 'GET', '/api/v1/accounts/' + acct['alice']['name'] + '/matches',
         None),
        ('GET /api/games/duskcourt/init', 'GET', '/api/games/duskcourt/init?seed=3', None),
        ('POST /api/games/duskcourt/init', 'POST', '/api/games/duskcourt/init', {}),
        ('POST /api/games/duskcourt/action', 'POST', '/api/games/duskcourt/action',
         {'stateToken': dc, 'action': {'type': 'next'}}),
        ('GET /api/games/duskcourt/state', 'GET', '/api/games/duskcourt/state?stateToken=' + dc, None),
        ('POST /api/games/duskcourt/state', 'POST', '/api/games/duskcourt/state', {'stateToken': dc}),
        ('POST /api/games/duskcourt/finish', 'POST', '/api/games/duskcourt/finish',
         {'stateToken': dc, 'rating': 5, 'review': 'fine'}),
        ('GET /api/games/duskcourt/rules', 'GET', '/api/games/duskcourt/rules', None),
        ('GET /api/games/stackfall/init', 'GET', '/api/games/stackfall/init?seed=3', None),
        ('POST /api/games/stackfall/init', 'POST', '/api/games/stackfall/init', {}),
        ('POST /api/games/stackfall/action', 'POST', '/api/games/stackfall/action',
         {'stateToken': sf, 'command': 'options'}),
        ('GET /api/games/stackfall/state', 'GET', '/api/games/stackfall/state?stateToken=' + sf, None),
        ('POST /api/games/stackfall/state', 'POST', '/api/games/stackfall/state', {'stateToken': sf}),
        ('POST /api/games/stackfall/finish', 'POST', '/api/games/stackfall/finish',
         {'stateToken': sf, 'rating': 5, 'review': 'fine'}),
        ('GET /api/games/stackfall/rules', 'GET', '/api/games/stackfall/rules', None),
        ('GET /api/games/stackcraft/init', 'GET', '/api/games/stackcraft/init?seed=3&cap=5', None),
        ('POST /api/games/stackcraft/init', 'POST', '/api/games/stackcraft/init', {}),
        ('POST /api/games/stackcraft/action', 'POST', '/api/games/stackcraft/action',
         {'stateToken': sc, 'action': 'r0x0'}),
        ('GET /api/games/stackcraft/state', 'GET', '/api/games/stackcraft/state?stateToken=' + sc, None),
        ('POST /api/games/stackcraft/state', 'POST', '/api/games/stackcraft/state', {'stateToken': sc}),
        ('POST /api/games/stackcraft/finish', 'POST', '/api/games/stackcraft/finish',
         {'stateToken': sc, 'rating': 5, 'review': 'fine'}),
        ('GET /api/games/stackcraft/rules', 'GET', '/api/games/stackcraft/rules', None),
        ('GET /api/games/hatetris/init', 'GET', '/api/games/hatetris/init?depth=2', None),
        ('POST /api/games/hatetris/init', 'POST', '/api/games/hatetris/init', {}),
        ('POST /api/games/hatetris/action', 'POST', '/api/games/hatetris/action',
         {'stateToken': ht, 'command': 'options'}),
        ('GET /api/games/hatetris/state', 'GET', '/api/games/hatetris/state?stateToken=' + ht, None),
        ('POST /api/games/hatetris/state', 'POST', '/api/games/hatetris/state', {'stateToken': ht}),
        ('POST /api/games/hatetris/finish', 'POST', '/api/games/hatetris/finish',
         {'stateToken': ht, 'rating': 5, 'review': 'fine'}),
        ('GET /api/games/hatetris/rules', 'GET', '/api/games/hatetris/rules', None),
        ('GET /api/games/wells/init', 'GET', '/api/games/wells/init?width=4&height=4', None),
        ('POST /api/games/wells/init', 'POST', '/api/games/wells/init', {}),
        ('POST /api/games/wells/action', 'POST', '/api/games/wells/action',
         {'stateToken': wl, 'action': 'r0x0y7'}),
        ('GET /api/games/wells/state', 'GET', '/api/games/wells/state?stateToken=' + wl, None),
        ('POST /api/games/wells/state', 'POST', '/api/games/wells/state', {'stateToken': wl}),
        ('POST /api/games/wells/finish', 'POST', '/api/games/wells/finish',
         {'stateToken': wl, 'rating': 5, 'review': 'fine'}),
        ('GET /api/games/wells/rules', 'GET', '/api/games/wells/rules', None),
        ('GET /api/games/hatetris-classic/init', 'GET', '/api/games/hatetris-classic/init?supplier=1', None),
        ('POST /api/games/hatetris-classic/init', 'POST', '/api/games/hatetris-classic/init', {}),
        ('POST /api/games/hatetris-classic/action', 'POST', '/api/games/hatetris-classic/action',
         {'stateToken': hc, 'command': 'options'}),
        ('GET /api/games/hatetris-classic/state', 'GET', '/api/games/hatetris-classic/state?stateToken=' + hc,
         None),
        ('POST /api/games/hatetris-classic/state', 'POST', '/api/games/hatetris-classic/state',
         {'stateToken': hc}),
        ('POST /api/games/hatetris-classic/finish', 'POST', '/api/games/hatetris-classic/finish',
         {'stateToken': hc, 'rating': 5, 'review': 'fine'}),
        ('GET /api/games/hatetris-classic/rules', 'GET', '/api/games/hatetris-classic/rules', None),
        ('POST /games/stackfall/api/new', 'POST', '/games/stackfall/api/new', {}),
        ('POST /games/stackfall/api/act', 'POST', '/games/stackfall/api/act', {'command': 'options'}),
        ('GET /games/stackfall/api/state', 'GET', '/games/stackfall/api/state', None),
        ('POST /games/stackfall/api/finish', 'POST', '/games/stackfall/api/finish',
         {'rating': 5, 'review': 'fine'}),
        ('GET /games/stackfall/api/rules', 'GET', '/games/stackfall/api/rules', None),
        ('GET /api/games/{game}/runs/{runId}', 'GET', '/api/games/stackfall/runs/' + tokens['sf_run'], None),
        ('GET /api/games/{game}/leaderboard', 'GET', '/api/games/duskcourt/leaderboard', None),
        ('GET /api/games/{game}/reviews', 'GET', '/api/games/stackfall/reviews', None),
        ('POST /api/games/{game}/replays/verify', 'POST', '/api/games/duskcourt/replays/verify',
         {'replay': None}),
        ('POST /api/games/{game}/replays/import', 'POST', '/api/games/hatetris-classic/replays/import',
         {'record': 'D'}),
        ('GET /api/games', 'GET', '/api/games', None),
        ('GET /api/runs/{runId}', 'GET', '/api/runs/' + tokens['sf_run'], None),
        ('GET /api/games/{game}/runs/{runId}/steps', 'GET',
         '/api/games/duskcourt/runs/' + tokens['dc_run'] + '/steps?count=2', None),
        ('GET /api/games/{game}/runs/{runId}/live', 'GET', '/api/games/stackfall/runs/' + tokens['sf_run'] + '/live',
         None),
        ('GET /api/games/{game}/runs/{runId}/record', 'GET',
         '/api/games/hatetris-classic/runs/' + tokens['hc_run'] + '/record', None),
        ('POST /api/matches', 'POST', '/api/matches', {'players': 2, 'turn_seconds': 60}),
        ('GET /api/matches/ratings', 'GET', '/api/matches/ratings', None),
        ('GET /api/matches/open', 'GET', '/api/matches/open', None),
        ('GET /api/matches', 'GET', '/api/matches?status=finished', None),
        ('POST /api/matches/quick', 'POST', '/api/matches/quick', {'players': 5, 'turn_seconds': 60}),
        ('POST /api/matches/replays/verify', 'POST', '/api/matches/replays/verify', {'replay': None}),
        ('GET /api/matches/{id}', 'GET', '/api/matches/' + tokens['matches']['finished'], None),
        ('POST /api/matches/{id}/join', 'POST', '/api/matches/' + tokens['matches']['lobby'] + '/join', {}),
        ('POST /api/matches/{id}/move', 'POST', '/api/matches/' + tokens['matches']['playing'] + '/move',
         {'turn': 2, 'command': 'place 0 0'}),
        ('GET /api/matches/{id}/wait', 'GET', '/api/matches/' + tokens['matches']['finished'] + '/wait?after=0',
         None),
        ('GET /api/matches/{id}/events', 'GET', '/api/matches/' + tokens['matches']['finished'] + '/events',
         None),
        ('POST /api/matches/{id}/keys', 'POST', '/api/matches/' + tokens['matches']['realtime'] + '/keys',
         {'keys': 'L'}),
        ('GET /api/matches/{id}/stream', 'GET', '/api/matches/' + tokens['matches']['realtime'] + '/stream',
         None),
        ('GET /api/matches/{id}/replay', 'GET', '/api/matches/' + tokens['matches']['finished'] + '/replay',
         None),
        ('GET /api/matches/{id}/turns', 'GET', '/api/matches/' + tokens['matches']['finished'] + '/turns?count=2',
         None),
        ('POST /mcp', 'POST', '/mcp', {'jsonrpc': '2.0', 'id': 1, 'method': 'ping'}),
        ('GET /.well-known/oauth-protected-resource', 'GET', '/.well-known/oauth-protected-resource', None),
        ('GET /.well-known/oauth-protected-resource/mcp', 'GET', '/.well-known/oauth-protected-resource/mcp',
         None),
        ('GET /.well-known/oauth-authorization-server', 'GET', '/.well-known/oauth-authorization-server', None),
        ('POST /oauth/register', 'POST', '/oauth/register', {'redirect_uris': ['http://127.0.0.1:9/cb']}),
        ('POST /oauth/token', 'POST', '/oauth/token', {}),
    ]


def play_oauth(d):
    """The OAuth routes of /mcp (docs/mcp.md): the metadata, a registration,
    a code exchanged, and their refusals."""
    import base64
    import hashlib
    import re
    import urllib.parse
    form = {'Content-Type': 'application/x-www-form-urlencoded'}
    for path in ('/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp',
                 '/.well-known/oauth-authorization-server'):
        req(d, 'GET', path)
        req(d, 'GET', path, headers={'Host': 'a b'})
    req(d, 'POST', '/oauth/register', {'redirect_uris': ['javascript:x']})
    cb = 'http://127.0.0.1:9/cb'
    client = req(d, 'POST', '/oauth/register', {'redirect_uris': [cb]}).json['client_id']
    key = req(d, 'POST', '/api/v1/accounts', {'name': name()}).json['agentKey']
    verifier = 'v' * 50
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b'=').decode()
    page = d.get('/oauth/authorize?' + urllib.parse.urlencode({
        'response_type': 'code', 'client_id': client, 'redirect_uri': cb, 'code_challenge': challenge,
        'code_challenge_method': 'S256'}))
    sealed = re.search(r'name="request" value="([^"]+)"', page.body).group(1)
    r = d.post('/oauth/authorize', raw=urllib.parse.urlencode({'request': sealed, 'agent_key': key}).encode(),
               headers=form)
    code = urllib.parse.parse_qs(urllib.parse.urlparse(r.header('Location')).query)['code'][0]
    token = {'grant_type': 'authorization_code', 'client_id': client, 'code': code, 'code_verifier': verifier,
             'redirect_uri': cb}
    for fields in (token, token, dict(token, client_id='nobody')):
        req(d, 'POST', '/oauth/token', raw=urllib.parse.urlencode(fields).encode(), headers=form)
    raw(d, 'POST', '/oauth/token', declared_too_large('POST', '/oauth/token', form).replace(
        b'Content-Type: application/json\r\n', b''))
    req(d, 'POST', '/mcp', {'jsonrpc': '2.0', 'id': 1, 'method': 'ping'},
        headers={'Authorization': 'Bearer v4.local.expired'})


MCP_META = {'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {}}
MCP_START = {'jsonrpc': '2.0', 'id': 2, 'method': 'tools/call',
             'params': {'name': 'start_run', 'arguments': {'game': 'duskcourt', 'seed': 3}}}


def mcp_modern(d, method, params, name=None, headers=None, msg_id=1):
    h = {'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': method}
    if name:
        h['Mcp-Name'] = name
    h.update(headers or {})
    return req(d, 'POST', '/mcp', {'jsonrpc': '2.0', 'id': msg_id, 'method': method,
                                   'params': dict(params, _meta=MCP_META)}, headers=h)


def play_mcp(d):
    """POST /mcp in both revisions (docs/mcp.md): results, refusals as
    tool results, and the transport's errors."""
    req(d, 'POST', '/mcp', {'jsonrpc': '2.0', 'id': 1, 'method': 'initialize',
                            'params': {'protocolVersion': '2025-11-25', 'capabilities': {}}})
    req(d, 'POST', '/mcp', {'jsonrpc': '2.0', 'method': 'notifications/initialized'})
    r = req(d, 'POST', '/mcp', MCP_START)
    tok = r.json['result']['structuredContent']['stateToken']
    req(d, 'POST', '/mcp', {'jsonrpc': '2.0', 'id': 3, 'method': 'tools/call', 'params': {
        'name': 'act', 'arguments': {'game': 'duskcourt', 'stateToken': tok, 'action': '15x14'}}})
    req(d, 'POST', '/mcp', {'jsonrpc': '2.0', 'id': 4, 'method': 'tools/call',
                            'params': {'name': 'no_such_tool', 'arguments': {}}})
    mcp_modern(d, 'server/discover', {})
    mcp_modern(d, 'tools/call', {'name': 'start_run', 'arguments': {'game': 'duskcourt'}}, name='start_run')
    mcp_modern(d, 'tools/call', {'name': 'start_run', 'arguments': {'game': 'duskcourt'}}, name='act')
    mcp_modern(d, 'prompts/list', {})
    mcp_modern(d, 'prompts/get', {'name': 'play_duskcourt', 'arguments': {'seed': '7'}}, name='play_duskcourt')
    mcp_modern(d, 'initialize', {'protocolVersion': '2026-07-28'})
    mcp_modern(d, 'ping', {}, headers={'Origin': 'http://evil.example'})
    req(d, 'POST', '/mcp', raw=b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]', headers=JSON_TYPE)
    req(d, 'POST', '/mcp', raw=b'{"jsonrpc":"2.0",', headers=JSON_TYPE)
    req(d, 'POST', '/mcp', {'jsonrpc': '2.0', 'id': 5, 'method': 'tools/list', 'params': {'_meta': dict(
        MCP_META, **{'io.modelcontextprotocol/protocolVersion': '1900-01-01'})}},
        headers={'MCP-Protocol-Version': '1900-01-01', 'Mcp-Method': 'tools/list'})


def body_for(body):
    if body is None:
        return None
    b = dict(body)
    if 'name' in b:
        b['name'] = name()
    if 'replay' in b:
        b = {'schema': 1, 'rules': 'duskcourt-v1', 'seed': 1, 'actions': [], 'final': {}}
    return b


def request_bytes(method, target, headers=None, body=b'', version='HTTP/1.1'):
    lines = ['%s %s %s' % (method, target, version), 'Host: 127.0.0.1', 'Connection: close']
    for k, v in (headers or {}).items():
        lines.append('%s: %s' % (k, v))
    if body or method in ('POST', 'PUT', 'PATCH'):
        lines.append('Content-Length: %d' % len(body))
    return ('\r\n'.join(lines) + '\r\n\r\n').encode() + body


def declared_too_large(method, target, headers):
    """Headers that announce a 1 MiB body, which is never sent."""
    lines = ['%s %s HTTP/1.1' % (method, target), 'Host: 127.0.0.1', 'Content-Type: application/json',
             'Content-Length: 1048576'] + ['%s: %s' % kv for kv in headers.items()]
    return ('\r\n'.join(lines) + '\r\n\r\n').encode()


def play_every_route(d, ops, keys):
    seen_paths = set()
    for op, method, target, body in ops:
        path = target.split('?')[0]
        key = keys.get(op)
        h = bearer(key) if key else {}
        # HEAD on every GET route.
        if method == 'GET':
            req(d, 'HEAD', target, headers=h)
        # A method the path does not take.
        template = op.split(' ', 1)[1]
        if template not in seen_paths:
            seen_paths.add(template)
            for m in ('PUT', 'PATCH', 'OPTIONS'):
                req(d, m, target, headers=h)
            if method != 'DELETE':
                req(d, 'DELETE', target, headers=h)
            if method != 'GET':
                req(d, 'HEAD', target, headers=h)
        # 413: declared too large (refused before the body), or a body that
        # is really sent on a GET (read, then refused).
        if method in ('POST', 'DELETE'):
            raw(d, method, target, declared_too_large(method, target, h))
        else:
            raw(d, method, target, request_bytes(method, target, h, b'x' * 70000))
        # libmicrohttpd's own refusals.
        pad = ('&' if '?' in target else '?') + 'pad=' + 'a' * 20000
        raw(d, method, target + pad, request_bytes(method, target + pad, h))
        raw(d, method, target, request_bytes(method, target, dict(h, **{'X-Pad': 'b' * 20000})))
        raw(d, method, target, request_bytes(method, target, h, version='HTTP/2.0'))
        # Framing before routing: a transfer coding other than chunked is 501.
        raw(d, method, target, request_bytes(method, target, h).replace(
            b'Connection: close\r\n', b'Connection: close\r\nTransfer-Encoding: gzip\r\n').replace(
            b'Content-Length: 0\r\n', b''))
        raw(d, method, target, request_bytes(method, target, h).replace(
            b'Connection: close\r\n', b'Connection: close\r\nBad Header\r\n'))
        # A NUL byte in the path, and in the query (400 with the hardening).
        data = json.dumps(body_for(body)).encode() if body is not None else b''
        hb = dict(h, **({'Content-Type': 'application/json'} if body is not None else {}))
        nul_path = path + '%00x' + ('?' + target.split('?', 1)[1] if '?' in target else '')
        raw(d, method, nul_path, request_bytes(method, nul_path, hb, data), label='nul', op=op)
        nul_query = target + ('&' if '?' in target else '?') + 'q=%00'
        raw(d, method, nul_query, request_bytes(method, nul_query, hb, data), label='nul', op=op)
        # A body that is not application/json (415 with the hardening).
        if method == 'POST':
            raw(d, method, target, request_bytes(method, target, dict(h, **{
                'Content-Type': 'text/plain'}), b'{"unknown_field": 1}'), label='media-type', op=op)


# ---------------------------------------------------------------------------
# 500 and 503: a held write lock makes every store job fail (after the
# writer's 5 s busy timeout), and a stopping daemon answers 503.

def under_lock(d, jobs):
    """Runs the requests of jobs (callables) at once while another
    connection holds the database's write lock."""
    with d.write_lock():
        phase['name'] = 'lock'
        try:
            threads = [threading.Thread(target=j) for j in jobs]
            for th in threads:
                th.start()
            for th in threads:
                th.join(60)
        finally:
            phase['name'] = 'play'


def lock_jobs(d, ops, keys, check_on):
    jobs = []
    for op, method, target, body in ops:
        key = keys.get(op)
        h = bearer(key) if key else {}
        if check_on(op):
            h['X-Agent-Check'] = 'ac_' + 'A' * 22
            h['X-Agent-Answer'] = '1'

        def job(method=method, target=target, body=body, h=h):
            req(d, method, target, body_for(body), headers=h)
        jobs.append(job)
    return jobs


def during_shutdown(d, ops, keys):
    conns = []
    for op, method, target, body in ops:
        c = d.connection(timeout=15)
        req(d, 'GET', '/healthz', conn=c)
        conns.append((c, op, method, target, body))
    # A request in flight keeps the daemon draining (up to 4 s) while the
    # open connections bring their last request.
    slow = socket.create_connection(('127.0.0.1', d.port), timeout=10)
    slow.sendall(b'POST /api/v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n'
                 b'Content-Length: 100\r\n\r\n{')
    time.sleep(0.2)
    phase['name'] = 'shutdown'
    d.send_signal(signal.SIGTERM)
    time.sleep(0.2)
    for c, op, method, target, body in conns:
        key = keys.get(op)
        try:
            req(d, method, target, body_for(body), headers=bearer(key) if key else {}, conn=c)
        except (OSError, http.client.HTTPException) as e:
            t.ok(False, 'an answer from the stopping daemon to %s (%s)' % (op, e))
        c.close()
    slow.close()
    try:
        d.proc.wait(15)
    except subprocess.TimeoutExpired:
        pass
    phase['name'] = 'play'


# ---------------------------------------------------------------------------

def validator_present():
    """node and the validator's packages; their absence fails the test."""
    node = shutil.which(os.environ.get('NODE', 'node'))
    found = t.ok(node is not None, 'node is installed (the validator runs on node)')
    packages = ('openapi-backend', 'ajv', 'ajv-formats')
    return t.ok(all(os.path.isdir(os.path.join(HERE, 'node_modules', p)) for p in packages),
                'the validator is installed (npm ci --prefix tests/contract)') and found and node


def validate(node):
    # CONTRACT_EXCHANGES=FILE keeps the recorded exchanges, to run
    # validate.mjs on them by hand.
    keep = os.environ.get('CONTRACT_EXCHANGES')
    with (open(keep, 'w') if keep else tempfile.NamedTemporaryFile('w', suffix='.json', delete=False)) as f:
        json.dump(exchanges, f)
        path = f.name
    try:
        p = subprocess.run([node, os.path.join(HERE, 'validate.mjs'), SPEC, path],
                           capture_output=True, text=True, timeout=300)
    finally:
        if not keep:
            os.unlink(path)
    if not t.ok(p.returncode == 0, 'the validator ran on %d exchanges' % len(exchanges)):
        t.diag(p.stderr[-3000:])
        return None
    return json.loads(p.stdout)


def routes_of(spec_ops, routes):
    if routes == '*':
        return set(spec_ops)
    if routes == 'POST':
        return {o for o in spec_ops if o.startswith('POST ')}
    return set(routes)


def report(out):
    documented = {(d['op'], d['status']) for d in out['documented']}
    spec_ops = {d['op'] for d in out['documented']}
    groups = {}
    for r in out['results']:
        groups.setdefault((r['op'], r['status']), []).append(r)
    observed = set()
    t.diag('%d answers from %d routes and statuses, validated against openapi.yaml:'
           % (len(out['results']), len(groups)))
    for (op, status), rs in sorted(groups.items()):
        bad = [r for r in rs if r['problems']]
        mhd = ' (libmicrohttpd)' if any(r.get('mhd') for r in rs) else ''
        if t.ok(not bad, '%s %s: %d answers valid%s' % (op, status, len(rs) - len(bad), mhd)):
            # What the hardening's provocations get today does not count:
            # it changes as the hardening lands.
            for r in rs:
                if exchanges[r['i']]['label'] not in PROVOCATIONS:
                    observed.update((c, status) for c in r.get('covers', []))
        for r in bad[:5]:
            ex = exchanges[r['i']]
            target = ex['path'] + ('?' + ex['query'] if ex['query'] else '')
            t.diag('%s %s -> %d (%s, daemon %s)' % (ex['method'], target[:120], ex['status'],
                                                   ex['label'] or ex['phase'], ex['daemon']))
            for p in r['problems'][:8]:
                t.diag('    ' + p[:300])
            t.diag('    body: ' + ex['body'][:300])
    # Coverage: every documented (route, status) was provoked, or is listed.
    pending = set()
    for status, code, routes, label in NOT_PROVOKED_YET:
        for o in routes_of(spec_ops, routes):
            pending.add((o, status))
    cannot = set()
    for status, routes, _ in NOT_PROVOKABLE:
        for o in routes_of(spec_ops, routes):
            cannot.add((o, status))
    missing = sorted(documented - observed - pending - cannot)
    t.ok(not missing, 'every documented route and status was provoked or is listed (%d of %d provoked)'
         % (len(documented & observed), len(documented)))
    for o, s in missing:
        t.diag('never provoked: %s %s' % (o, s))
    wrong = sorted(cannot & observed)
    t.ok(not wrong, 'what NOT_PROVOKABLE lists was not provoked')
    for o, s in wrong:
        t.diag('provoked after all: %s %s' % (o, s))
    # The hardening's statuses: provoked now means the list is out of date.
    t.diag('documented, not provoked yet (NOT_PROVOKED_YET):')
    for status, code, routes, label in NOT_PROVOKED_YET:
        rs = routes_of(spec_ops, routes)
        if label is not None:
            hits = [e for e in exchanges if e['label'] == label and str(e['status']) == status]
        else:
            hits = [e for e in exchanges if error_code(e) == code]
        where = routes if isinstance(routes, str) else '%d routes' % len(rs)
        how = '' if label is None else ' (provoked by the requests labelled %r)' % label
        t.diag('  %s %s on %s%s' % (status, code, where, how))
        t.ok(not hits, '%s %s is not answered yet (else remove it from NOT_PROVOKED_YET)' % (status, code))
    t.diag('documented, cannot be provoked from outside (NOT_PROVOKABLE):')
    for status, routes, why in NOT_PROVOKABLE:
        t.diag('  %s on %s: %s' % (status, ', '.join(routes), why))
    # Closed shapes: a field added anywhere in an answer makes it invalid.
    t.ok(not out['openPlaces'], 'every object of every answer is closed to other fields (%d places tried)'
         % out['checkedPlaces'])
    for w in out['openPlaces'][:20]:
        t.diag('open to any field: ' + w)
    # The examples of the document.
    t.ok(not out['examples'], 'every example in openapi.yaml validates (%d do not)' % len(out['examples']))
    for e in out['examples'][:20]:
        t.diag('%s: %s' % (e['where'], '; '.join(e['errors'][:4])))


def error_code(e):
    try:
        return json.loads(e['body'])['error']['code']
    except (ValueError, KeyError, TypeError):
        return None


def body_json(e):
    try:
        return json.loads(e['body'])
    except ValueError:
        return None


def docs_checks():
    """Promises of docs/api.md that depend on the daemon's configuration,
    which the schema cannot state."""
    def game_of(e):
        p = e['path']
        if p.startswith('/games/stackfall/') or p.startswith('/api/games/stackfall/'):
            return 'stackfall'
        if p.startswith('/api/games/duskcourt/'):
            return 'duskcourt'
        if p.startswith('/api/games/stackcraft/'):
            return 'stackcraft'
        if p.startswith('/api/games/hatetris/'):
            return 'hatetris'
        if p.startswith('/api/games/wells/'):
            return 'wells'
        return None
    on = {('A', 'stackfall'): True, ('A', 'duskcourt'): False, ('A', 'stackcraft'): False,
          ('A', 'hatetris'): False, ('A', 'wells'): False,
          ('B', 'stackfall'): False, ('B', 'duskcourt'): True, ('B', 'stackcraft'): True,
          ('B', 'hatetris'): True, ('B', 'wells'): True}
    plays = [e for e in exchanges if e['phase'] == 'play' and e['label'] is None and e['method'] != 'HEAD'
             and game_of(e) and not e['path'].endswith('/replays/verify') and '/runs/' not in e['path']
             and not e['path'].endswith('/leaderboard') and not e['path'].endswith('/reviews')]
    # 2xx game answers carry agent_check exactly when the game's check is on.
    wrong = [e for e in plays if 200 <= e['status'] < 300 and isinstance(body_json(e), dict)
             and ('agent_check' in body_json(e)) != on[(e['daemon'], game_of(e))]]
    t.ok(not wrong, 'game answers (2xx) carry agent_check exactly when the game\'s check is on')
    for e in wrong[:5]:
        t.diag('%s %s daemon %s -> %d' % (e['method'], e['path'], e['daemon'], e['status']))
    # Answers decided after the check carry one when it is on (409, 422,
    # 428, 404 run_not_found, 400 invalid_state_token).
    after = {'stale_state_token', 'run_not_over', 'already_finished', 'no_current_run', 'illegal_action',
             'invalid_command', 'too_many_commands', 'empty_command', 'game_over', 'agent_check_required',
             'run_not_found', 'invalid_state_token'}
    wrong = [e for e in plays if error_code(e) in after and on[(e['daemon'], game_of(e))]
             and 'agent_check' not in body_json(e)]
    t.ok(not wrong, 'errors decided after the check carry a fresh agent_check when it is on')
    for e in wrong[:5]:
        t.diag('%s %s daemon %s -> %d %s' % (e['method'], e['path'], e['daemon'], e['status'],
                                             e['body'][:200]))
    # The seed's routes: a 400 from the handler carries one too; a 401
    # never does (a client without a key is handed nothing).
    seed = [e for e in exchanges if e['phase'] == 'play' and e['path'].startswith('/games/stackfall/api/')
            and e['daemon'] == 'A' and error_code(e) in ('invalid_request', 'unauthorized')
            and e['label'] in (None, 'seed-400')]
    plain = [e for e in seed if error_code(e) == 'invalid_request' and 'agent_check' not in body_json(e)]
    ok_or_todo(not plain, 'the seed\'s routes answer 400 with a fresh agent_check (%d answers)'
               % len([e for e in seed if error_code(e) == 'invalid_request']), 'seed-400-puzzle')
    for e in plain[:5]:
        t.diag('%s %s -> %d %s' % (e['method'], e['path'], e['status'], e['body'][:160]))
    unauth = [e for e in exchanges if e['status'] == 401 and isinstance(body_json(e), dict)]
    given = [e for e in unauth if 'agent_check' in body_json(e)]
    t.ok(unauth and not given, 'no 401 hands out a puzzle (%d answers)' % len(unauth))
    for e in given[:5]:
        t.diag('%s %s -> %d %s' % (e['method'], e['path'], e['status'], e['body'][:160]))
    # 405 answers name the route's methods.
    def allow(e):
        return next((v for k, v in e['headers'] if k.lower() == 'allow'), None)
    def allow_field(e):
        b = body_json(e) or {}
        # /mcp's refusals are JSON-RPC errors: the envelope is their data.
        return (b.get('error', {}).get('data') or {}).get('allow') if 'jsonrpc' in b else b.get('allow')
    wrong = [e for e in exchanges if e['status'] == 405 and e['method'] != 'HEAD'
             and allow_field(e) != allow(e)]
    t.ok(not wrong, '405 answers carry the same list in Allow and allow')


def main():
    node = validator_present()
    if not node:
        t.done()
    random.seed()
    a = Daemon(args=DAEMON_ARGS)
    a.name = 'A'
    b = Daemon(args=DAEMON_ARGS + ['--agent-check', 'stackfall=off', '--agent-check', 'duskcourt=on',
                                   '--agent-check', 'stackcraft=on', '--agent-check', 'hatetris=on',
                                   '--agent-check', 'wells=on',
                                   '--agent-check', 'hatetris-classic=on',
                                   '--key-file', os.path.join(a.folder, 'arcaded.key')])
    b.name = 'B'
    try:
        acct = play_accounts(a)
        acct_b = play_accounts(b)
        # B's tokens open on A but their runs are not stored there (404).
        b_dc = req(b, 'GET', '/api/games/duskcourt/init?seed=1').json['stateToken']
        b_sf = req(b, 'GET', '/api/games/stackfall/init?seed=1').json['stateToken']
        b_sc = req(b, 'GET', '/api/games/stackcraft/init?seed=1').json['stateToken']
        b_ht = req(b, 'GET', '/api/games/hatetris/init').json['stateToken']
        b_wl = req(b, 'GET', '/api/games/wells/init').json['stateToken']
        b_hc = req(b, 'GET', '/api/games/hatetris-classic/init').json['stateToken']
        dc = play_duskcourt(a, acct, False, other_tokens=[b_dc, b_sf])
        sf = play_stackfall(a, acct, True, other_tokens=[b_sf, b_dc])
        sc = play_stackcraft(a, acct, False, other_tokens=[b_sc, b_dc])
        ht = play_hatetris(a, acct, False, other_tokens=[b_ht, b_sf])
        wl = play_wells(a, acct, False, other_tokens=[b_wl, b_sc])
        hc = play_hatetris_classic(a, acct, False, other_tokens=[b_hc, b_sf])
        seed = play_seed(a, acct, True)
        # The abandoned run's old token: 409 with the run as it ended.
        sf_post(a, 'action', {'stateToken': seed['abandoned'], 'command': 'hold'}, True)
        play_board(a, dc, sf, sc, ht, wl, hc)
        matches = play_matches(a, acct)
        play_history(a, acct)
        play_mcp(a)
        play_oauth(a)
        # Another account's key on a run begun with an agent key: 403 on
        # every route that acts on it.
        for game, owned, act in (('stackfall', sf['owned_token'], {'command': 'options'}),
                                 ('duskcourt', dc['owned_token'], {'action': {'type': 'next'}}),
                                 ('stackcraft', sc['owned_token'], {'action': 'r0x0'}),
                                 ('hatetris', ht['owned_token'], {'command': 'options'}),
                                 ('wells', wl['owned_token'], {'action': 'r0x0y6'}),
                                 ('hatetris-classic', hc['owned_token'], {'command': 'options'})):
            g = '/api/games/%s/' % game
            bob = bearer(acct['bob']['key'])
            h = fresh(a, bob) if game == 'stackfall' else bob
            req(a, 'POST', g + 'action', dict(act, stateToken=owned), headers=h, label='owner')
            h = fresh(a, bob) if game == 'stackfall' else bob
            req(a, 'GET', g + 'state?stateToken=' + owned, headers=h, label='owner')
            h = fresh(a, bob) if game == 'stackfall' else bob
            req(a, 'POST', g + 'state', {'stateToken': owned}, headers=h, label='owner')
            h = fresh(a, bob) if game == 'stackfall' else bob
            req(a, 'POST', g + 'finish', {'stateToken': owned, 'rating': 5, 'review': 'not mine'},
                headers=h, label='owner')
        # B: Duskcourt with its check on, Stackfall with it off.
        a_dc = req(a, 'GET', '/api/games/duskcourt/init?seed=2').json['stateToken']
        a_sf = req(a, 'GET', '/api/games/stackfall/init?seed=2').json['stateToken']
        a_sc = req(a, 'GET', '/api/games/stackcraft/init?seed=2').json['stateToken']
        a_ht = req(a, 'GET', '/api/games/hatetris/init').json['stateToken']
        a_wl = req(a, 'GET', '/api/games/wells/init').json['stateToken']
        a_hc = req(a, 'GET', '/api/games/hatetris-classic/init').json['stateToken']
        dc_b = play_duskcourt(b, acct_b, True, other_tokens=[a_dc, a_sf])
        sf_b = play_stackfall(b, acct_b, False, other_tokens=[a_sf])
        sc_b = play_stackcraft(b, acct_b, True, other_tokens=[a_sc, a_sf])
        ht_b = play_hatetris(b, acct_b, True, other_tokens=[a_ht])
        wl_b = play_wells(b, acct_b, True, other_tokens=[a_wl])
        hc_b = play_hatetris_classic(b, acct_b, True, other_tokens=[a_hc])
        play_seed(b, acct_b, False)
        play_board(b, dc_b, sf_b, sc_b, ht_b, wl_b, hc_b)
        # Every route: HEAD, 405, 413, libmicrohttpd's refusals, labels.
        tokens = {'duskcourt': dc['playing']['stateToken'], 'stackfall': sf['playing']['stateToken'],
                  'stackcraft': sc['playing']['stateToken'], 'hatetris': ht['playing']['stateToken'],
                  'wells': wl['playing']['stateToken'],
                  'hatetris-classic': hc['playing']['stateToken'],
                  'sf_run': sf['playing']['runId'],
                  'dc_run': dc['finished']['runId'], 'hc_run': hc['finished']['runId'],
                  'matches': matches}
        ops = operations(acct, tokens)
        keyed = ('GET /api/v1/me', 'POST /api/v1/me', 'DELETE', 'POST /games', 'GET /games',
                 'POST /api/matches')
        keys = {op: acct['bob']['key'] for op, *_ in ops if op.startswith(keyed)}
        play_every_route(a, ops, keys)
        # Unlisted paths.
        req(a, 'GET', '/no/such/route')
        req(a, 'GET', '/api/games/chess/init')
        req(a, 'DELETE', '/api/games/chess/init')
        req(a, 'GET', '/games/duskcourt/api/state')
        req(a, 'GET', '/api/v1/me/keys/')
        # 500 (and readyz's 503) while the database refuses writes.
        # A tool whose route's store job fails: the JSON-RPC -32603 with its 500.
        under_lock(a, lock_jobs(a, ops, keys, lambda op: 'stackfall' in op and
                                ('/action' in op or '/state' in op or '/finish' in op or '/act' in op)) +
                   [lambda: req(a, 'POST', '/mcp', MCP_START)])
        tokens_b = {'duskcourt': dc_b['playing']['stateToken'], 'stackfall': sf_b['playing']['stateToken'],
                    'stackcraft': sc_b['playing']['stateToken'], 'hatetris': ht_b['playing']['stateToken'],
                    'wells': wl_b['playing']['stateToken'],
                    'hatetris-classic': hc_b['playing']['stateToken'],
                    'sf_run': sf_b['playing']['runId'], 'dc_run': dc_b['finished']['runId'],
                    'hc_run': hc_b['finished']['runId'], 'matches': matches}
        ops_b = [o for o in operations(acct_b, tokens_b)
                 if o[0] in ('GET /api/games/duskcourt/rules', 'GET /api/games/stackcraft/rules',
                             'GET /api/games/hatetris/rules', 'GET /api/games/wells/rules',
                             'GET /api/games/hatetris-classic/rules')]
        under_lock(b, lock_jobs(b, ops_b, {}, lambda op: False))
        # 429 on every limited route, from daemon C. With A's key file and
        # A's runs (A's database on PostgreSQL, a copy of it on SQLite), A's
        # tokens open there and their runs read: the 429 carry the run.
        phase['name'] = 'limits'
        if BACKEND == 'postgresql':
            c_db, c_folder = ['--db', a.db], None
        else:
            c_db, c_folder = [], tempfile.mkdtemp(prefix='arcaded-e2e-')
            src = sqlite3.connect(os.path.join(a.folder, 'arcaded.db'))
            dst = sqlite3.connect(os.path.join(c_folder, 'arcaded.db'))
            src.backup(dst)
            dst.close()
            src.close()
        c = Daemon(args=DAEMON_ARGS + TINY_LIMITS + c_db + ['--key-file', os.path.join(a.folder, 'arcaded.key')],
                   rate_limits=True, folder=c_folder)
        c.name = 'C'
        try:
            for op, method, target, body in ops:
                if op in ('GET /healthz', 'GET /readyz', 'GET /metrics'):
                    continue
                for _ in range(2):
                    data = json.dumps(body_for(body)).encode() if body is not None else None
                    r = req(c, method, target, raw=data, headers=dict(keys.get(op) and bearer(keys[op]) or {},
                            **({'Content-Type': 'application/json'} if data is not None else {})), op=op)
                    if r.status == 429:
                        break
            shown = {x['op'] for x in exchanges if x['daemon'] == 'C' and x['status'] == 429 and
                     '"stateToken"' in x['body']}
            want = {'%s /api/games/%s/%s' % (m, g, r) for g in ('duskcourt', 'stackfall', 'stackcraft', 'hatetris',
                                                                   'wells', 'hatetris-classic')
                    for m, r in (('POST', 'action'), ('GET', 'state'), ('POST', 'state'), ('POST', 'finish'))}
            want |= {'POST /games/stackfall/api/act', 'GET /games/stackfall/api/state',
                     'POST /games/stackfall/api/finish'}
            t.ok(shown == want, 'the 429 of every route that plays on or reads a run carries the run (%d of %d; '
                 'others: %s)' % (len(shown & want), len(want), sorted(shown - want)))
            rc, _ = c.stop()
            t.eq(rc, 0, 'daemon C stopped cleanly (exit status 0)')
        finally:
            c.cleanup()
        # 403 from daemon M, whose /metrics is for another range than loopback.
        m = Daemon(args=DAEMON_ARGS + ['--metrics-allow', '10.0.0.0/8'])
        m.name = 'M'
        try:
            r = req(m, 'GET', '/metrics')
            t.eq(r.status, 403, '/metrics for a client outside --metrics-allow: 403')
        finally:
            m.cleanup()
        # 503 busy from daemon D: one verifier, one waiting at most.
        dd = Daemon(args=DAEMON_ARGS + ['--verify-workers', '1', '--verify-queue', '1'])
        dd.name = 'D'
        try:
            replay = json.dumps({'replay': {'schema': 1, 'rules': 'duskcourt-v1', 'seed': 5,
                                            'actions': [], 'final': {}}}).encode()
            busy = []

            def verify_once():
                r = req(dd, 'POST', '/api/games/duskcourt/replays/verify', raw=replay,
                        headers={'Content-Type': 'application/json'},
                        op='POST /api/games/{game}/replays/verify')
                busy.append(r.status)
            for _ in range(20):
                ths = [threading.Thread(target=verify_once) for _ in range(8)]
                [th.start() for th in ths]
                [th.join() for th in ths]
                if 503 in busy:
                    break
            t.ok(503 in busy, 'concurrent verifications on one worker meet 503 busy (%d of %d)' %
                 (busy.count(503), len(busy)))
            rc, _ = dd.stop()
            t.eq(rc, 0, 'daemon D stopped cleanly (exit status 0)')
        finally:
            dd.cleanup()
        # 410 run_expired from daemon E, whose tokens live 1 s: the newest
        # token of an anonymous run of each game, once that has passed.
        e = Daemon(args=DAEMON_ARGS + ['--token-ttl', '1', '--agent-check', 'stackfall=off'])
        e.name = 'E'
        try:
            expired = []
            plays = {'duskcourt': ('seed=3', {'action': {'type': 'next'}}),
                     'stackfall': ('seed=3', {'command': 'options'}),
                     'stackcraft': ('seed=3&cap=5', {'action': 'r0x0'}),
                     'hatetris': ('depth=2', {'command': 'options'}),
                     'wells': ('width=4&height=4', {'action': 'r0x0y6'}),
                     'hatetris-classic': ('supplier=0', {'command': 'options'})}
            toks = {g: req(e, 'GET', '/api/games/%s/init?%s' % (g, q), op='GET /api/games/%s/init' % g)
                    .json['stateToken'] for g, (q, _) in plays.items()}
            time.sleep(2.2)
            for g, (_, move) in plays.items():
                base, tok = '/api/games/%s/' % g, toks[g]
                expired += [req(e, 'POST', base + 'action', dict(move, stateToken=tok), op='POST %saction' % base),
                            req(e, 'GET', base + 'state?stateToken=' + tok, op='GET %sstate' % base),
                            req(e, 'POST', base + 'state', {'stateToken': tok}, op='POST %sstate' % base),
                            req(e, 'POST', base + 'finish', {'stateToken': tok, 'rating': 5, 'review': 'fine'},
                                op='POST %sfinish' % base)]
            t.ok(all(r.status == 410 for r in expired),
                 'the newest token of an anonymous run, expired: 410 on every token route (%s)' %
                 sorted({r.status for r in expired}))
            rc, _ = e.stop()
            t.eq(rc, 0, 'daemon E stopped cleanly (exit status 0)')
        finally:
            e.cleanup()
        # 429 quota_exceeded from daemon Q, whose day holds 2 runs, 1 review and 1 match.
        q = Daemon(args=DAEMON_ARGS + ['--runs-per-day', '2', '--reviews-per-day', '1',
                                       '--matches-per-day', '1'])
        q.name = 'Q'
        try:
            ht = '/api/games/hatetris/'
            done = []
            for _ in range(2):
                r = req(q, 'GET', ht + 'init?cap=1')
                o = req(q, 'POST', ht + 'action', {'stateToken': r.json['stateToken'], 'command': 'options'})
                r = req(q, 'POST', ht + 'action', {'stateToken': r.json['stateToken'],
                                                   'command': o.json['results'][0]['options'][0]['command']})
                done.append(r.json['stateToken'])
            over = [req(q, 'GET', ht + 'init'),
                    req(q, 'POST', '/api/games/duskcourt/init', {})]
            fins = [req(q, 'POST', ht + 'finish', {'stateToken': tok, 'rating': 5, 'review': 'fine'}) for tok in done]
            qk = bearer(req(q, 'POST', '/api/v1/accounts', {'name': name()})
                        .json['agentKey'])
            made = [req(q, 'POST', '/api/matches', {'players': 2}, headers=qk)
                    for _ in range(2)]
            t.ok([r.error_code for r in over] == ['quota_exceeded'] * 2 and fins[0].status == 200 and
                 fins[1].error_code == 'quota_exceeded' and made[0].status == 201 and
                 made[1].error_code == 'quota_exceeded',
                 'past the day\'s quotas: 429 quota_exceeded on init, finish and creating a match')
            rc, _ = q.stop()
            t.eq(rc, 0, 'daemon Q stopped cleanly (exit status 0)')
        finally:
            q.cleanup()
        phase['name'] = 'play'
        # 503 from a daemon that is stopping, on every route.
        during_shutdown(a, ops, keys)
        t.eq(a.proc.returncode, 0, 'daemon A stopped cleanly (exit status 0)')
        rc, _ = b.stop()
        t.eq(rc, 0, 'daemon B stopped cleanly (exit status 0)')
        for d in (a, b):
            log = d.read_log()
            t.ok('Sanitizer' not in log and 'runtime error' not in log,
                 'daemon %s logged no sanitizer report' % d.name)
    finally:
        a.cleanup()
        b.cleanup()
    out = validate(node)
    if out is not None:
        report(out)
    docs_checks()
    t.done()


main()
