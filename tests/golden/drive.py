#!/usr/bin/env python3
"""The golden session: one scripted, deterministic conversation with the
real daemon, every request and answer of it an exchange of the corpus.

    ARCADED=build/server/arcaded python3 tests/golden/drive.py --record tests/golden/corpus.jsonl

records the corpus (tests/golden/README.md); test_golden.py plays the same
session and compares each exchange with it. The session starts one daemon
through tests/e2e/harness.py (SQLite, or PostgreSQL when
ARCADED_TEST_DATABASE=postgresql), with fixed seeds and options, and plays:
every game of the table on the token routes (anonymous and with an agent
key), Stackfall's seed-shaped routes, the routes around a run (state,
finish, the run, steps, live, record, replays verified, leaderboards,
reviews, accounts), refusals of every kind, versus matches of 2, 4 and 8
players with and without items, and the MCP endpoint's methods and tools.
Each move is chosen by a fixed policy from the previous answer, so the
session is the same as long as the answers are.

An exchange (one JSON object a line in the corpus): `n`, `kind` (what the
session was doing), `method`, `path`, `headers` (those the session sent),
`body` (JSON, or {"raw": text} for a body that is not), `status`,
`answer_headers` (Content-Type, Retry-After, Allow, WWW-Authenticate,
Cache-Control, RateLimit-Policy when present), `answer` (the JSON, or the
text of an answer that is not JSON, or the length and SHA-256 of a long
text such as the OpenAPI file), `form` ("compact" when the answer's text is
exactly the compact JSON Python writes for it, else "other", and then
`answer_text`, the text itself), all normalised (normalise.py).
"""
import argparse
import hashlib
import json
import os
import sqlite3
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(1, os.path.join(os.path.dirname(HERE), 'e2e'))

import harness  # noqa: E402
from harness import Daemon  # noqa: E402
from normalise import Normaliser  # noqa: E402

BIG = 4096  # a request body or a text answer longer than this is kept as its digest
ANSWER_HEADERS = ('Content-Type', 'Retry-After', 'Allow', 'WWW-Authenticate', 'Cache-Control',
                  'RateLimit-Policy')
GAMES_AT_RECORDING = ['stackfall', 'duskcourt', 'stackcraft', 'hatetris', 'wells', 'hatetris-classic']
MCP_MODERN = '2026-07-28'
MCP_META = {'io.modelcontextprotocol/protocolVersion': MCP_MODERN,
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': {'name': 'golden', 'version': '1'}}


class Answers:
    """The stored answers of agent-check puzzles, read from the daemon's
    database: SQLite directly, PostgreSQL through one psql kept open."""

    def __init__(self, d):
        self.d = d
        self.psql = None
        if harness.BACKEND == 'postgresql':
            import pgtest
            self.psql = subprocess.Popen([os.path.join(pgtest.bindir(), 'psql'), '-X', '-q', '-A', '-t',
                                          '-d', d.db], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         text=True)

    def get(self, token):
        if self.psql is None:
            with sqlite3.connect(self.d.db, timeout=10) as db:
                rows = db.execute('SELECT answer FROM agent_checks WHERE token = ?', (token,)).fetchall()
            return rows[0][0] if rows else None
        self.psql.stdin.write("SELECT answer FROM agent_checks WHERE token = '%s';\n\\echo __end__\n"
                              % token.replace("'", "''"))
        self.psql.stdin.flush()
        got = None
        while True:
            line = self.psql.stdout.readline()
            if not line or line.strip() == '__end__':
                break
            if line.strip():
                got = int(line.strip())
        return got

    def close(self):
        if self.psql is not None:
            self.psql.stdin.close()
            self.psql.wait(30)
            self.psql.stdout.close()


def _mask(v, secret):
    """v with every agent_answer or agentCheck answer equal to secret
    replaced by <answer>."""
    if isinstance(v, dict):
        return {k: ('<answer>' if k in ('agent_answer', 'answer') and str(x) == str(secret) else
                    _mask(x, secret)) for k, x in v.items()}
    if isinstance(v, list):
        return [_mask(x, secret) for x in v]
    return v


class Stop(Exception):
    """Raised by a sink to end the session early."""


class Session:
    def __init__(self, d, sink):
        self.d = d
        self.sink = sink
        self.norm = Normaliser()
        self.n = 0
        self.kind = ''
        self.keys = {}        # account name -> agent key
        self.puzzles = {}     # who (an account name or None) -> the newest agent_check token
        self.answers = Answers(d)

    # ---- one exchange ----

    def call(self, method, path, body=None, raw=None, who=None, headers=None, ctype=None, check=False,
             secret=None):
        """One request. who: the account whose agent key goes along (None:
        no key). check: answer the agent check with who's newest puzzle
        (a number: send that answer instead of the right one). secret: the
        right answer of a puzzle sent in the body, shown as <answer>."""
        h = {}
        if who is not None:
            h['Authorization'] = 'Bearer ' + self.keys.get(who, who)
        if check is not False:
            tok = self.puzzle(who)
            h['X-Agent-Check'] = tok
            ans = self.answers.get(tok) if check is True else check
            h['X-Agent-Answer'] = str(ans if ans is not None else 0)
        if ctype is not None:
            h['Content-Type'] = ctype
        h.update(headers or {})
        data = raw
        if data is None and body is not None:
            data = json.dumps(body).encode()
        if data is not None:
            h.setdefault('Content-Type', 'application/json')
        r = self.d.request(method, path, raw=data, headers=h)
        # The right answer to a puzzle differs between recordings (the
        # puzzle is random): it is shown as <answer>; a wrong one as sent.
        if check is True:
            h['X-Agent-Answer'] = '<answer>'
        if isinstance(r.json, dict):
            ac = r.json.get('agent_check')
            if isinstance(ac, dict) and ac.get('token'):
                self.puzzles[who] = ac['token']
            res = r.json.get('result')
            sc = res.get('structuredContent') if isinstance(res, dict) else None
            if isinstance(sc, dict) and isinstance(sc.get('agentCheck'), dict):
                self.puzzles[('mcp', who)] = sc['agentCheck'].get('token')
        self.n += 1
        if raw is not None:
            shown = {'raw': raw.decode('utf-8', 'replace')}   # as sent: JSON or not, duplicates kept
        else:
            shown = body
        if secret is not None:
            shown = _mask(shown, secret)
        if raw is not None and len(raw) > BIG:
            shown = {'raw_bytes': len(raw), 'sha256': hashlib.sha256(raw).hexdigest()}
        ah = {}
        for name in ANSWER_HEADERS:
            v = r.header(name)
            if v is not None:
                ah[name] = v
        ex = {'n': self.n, 'kind': self.kind, 'method': method, 'path': path, 'headers': h,
              'body': shown, 'status': r.status, 'answer_headers': ah,
              'answer': r.json if r.json is not None or not r.body else r.body}
        if r.json is not None:
            # The answer is kept as JSON, readable; whether its text is
            # exactly the compact form of that JSON (no blank outside
            # strings, UTF-8 unescaped, numbers as Python writes them) is
            # kept too, so that a change of form shows.
            compact = json.dumps(r.json, separators=(',', ':'), ensure_ascii=False)
            ex['form'] = 'compact' if compact == r.body else 'other'
            if compact != r.body:
                ex['answer_text'] = r.body
        if path == '/openapi.yaml' and isinstance(ex['answer'], str):
            # The contract is served as committed: whether it is that file's
            # bytes, not the bytes themselves (the contract has its own
            # tests, openapi-generated and openapi-lint, and may change
            # where an issue changes it without any answer changing).
            with open(os.path.join(os.path.dirname(os.path.dirname(HERE)), 'openapi.yaml'),
                      encoding='utf-8') as f:
                ex['answer'] = {'is_the_committed_openapi_yaml': r.body == f.read()}
        elif isinstance(ex['answer'], str) and len(ex['answer']) > BIG:
            # A large answer that is not JSON (the OpenAPI text, a page):
            # its length and digest, which change with any byte.
            b = r.body.encode('utf-8')
            ex['answer'] = {'text_bytes': len(b), 'sha256': hashlib.sha256(b).hexdigest()}
        self.sink(self.norm.exchange(ex))
        return r

    def get(self, path, **kw):
        return self.call('GET', path, **kw)

    def post(self, path, body=None, **kw):
        return self.call('POST', path, body=body, **kw)

    def puzzle(self, who):
        if not self.puzzles.get(who):
            self.get('/api/v1/agent-check', who=who)
        return self.puzzles.get(who) or 'ac_none'

    def account(self, name):
        r = self.post('/api/v1/accounts', {'name': name})
        if r.status == 201:
            self.keys[name] = r.json['agentKey']
        return r

    # ---- the whole session ----

    def run(self):
        try:
            self.kind = 'service'
            self.service()
            self.kind = 'accounts'
            self.accounts()
            for game in ('stackfall', 'duskcourt', 'stackcraft', 'hatetris', 'wells', 'hatetris-classic'):
                self.kind = game
                self.game(game)
            self.kind = 'stackfall-seed'
            self.seed_routes()
            self.kind = 'errors'
            self.errors()
            self.kind = 'versus'
            self.versus()
            self.kind = 'mcp'
            self.mcp()
            self.kind = 'boards'
            self.boards()
        finally:
            self.answers.close()

    def service(self):
        self.get('/healthz')
        self.get('/readyz')
        self.get('/api/games')
        self.call('HEAD', '/api/games')
        self.get('/api/v1/keys')
        self.get('/api/v1/agent-check')
        for g in GAMES_AT_RECORDING + ['chess']:
            self.get('/api/games/%s/rules' % g)
        self.get('/games/stackfall/api/rules')
        self.get('/openapi.yaml')
        for page in ('/', '/verify', '/compare'):
            self.get(page)

    def accounts(self):
        for name in ('alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi', 'ivan'):
            self.account(name)
        self.post('/api/v1/accounts', {'name': 'ALICE'})          # 409 name_taken
        self.post('/api/v1/accounts', {'name': 'a'})              # 400, too short
        self.post('/api/v1/accounts', {'name': 'bad name!'})
        self.post('/api/v1/accounts', {'name': 7})
        self.post('/api/v1/accounts', {})
        self.post('/api/v1/accounts', {'name': 'zed', 'colour': 'red'})
        self.get('/api/v1/me', who='alice')
        self.get('/api/v1/me')                                      # 401
        self.get('/api/v1/me', headers={'Authorization': 'Bearer arcd_nonsense'})
        self.get('/api/v1/me', headers={'Authorization': 'Basic abc'})
        r = self.post('/api/v1/me/keys', None, who='heidi')
        second = r.json.get('keyId') if r.status == 201 else None
        self.post('/api/v1/me/keys', None, who='heidi')               # 409 key_limit
        self.get('/api/v1/me', who='heidi')
        if second:
            self.call('DELETE', '/api/v1/me/keys/%s' % second, who='heidi')
            self.call('DELETE', '/api/v1/me/keys/%s' % second, who='heidi')
        self.call('DELETE', '/api/v1/me/keys/0000000000000000', who='heidi')
        self.get('/api/v1/me', who='heidi')
        self.get('/api/v1/accounts/alice')
        self.get('/api/v1/accounts/ALICE')
        self.get('/api/v1/accounts/nobody')

    # ---- the single-player games ----

    def game(self, game):
        anon = getattr(self, 'play_' + game.replace('-', '_'))(None, 1)
        keyed = getattr(self, 'play_' + game.replace('-', '_'))('alice', 2)
        for who, (run, tok) in ((None, anon), ('alice', keyed)):
            self.after_run(game, who, run, tok)
        self.boards_of(game)

    def check_on(self, game):
        return game == 'stackfall'

    def act(self, game, who, tok, body):
        b = dict(body, stateToken=tok)
        return self.post('/api/games/%s/action' % game, b, who=who, check=self.check_on(game))

    def start(self, game, who, body, query=''):
        r = self.post('/api/games/%s/init%s' % (game, query), body, who=who)
        return r, r.json.get('runId'), r.json.get('stateToken')

    def play_stackfall(self, who, variant):
        g = 'stackfall'
        seed = 11 if variant == 1 else 12
        r, run, tok = self.start(g, who, {'seed': seed})
        self.get('/api/games/%s/state?stateToken=%s' % (g, tok), who=who, check=True)
        limit = 150 if variant == 1 else 45
        for i in range(limit):
            if i % 13 == 5:
                self.act(g, who, tok, {'command': 'place 7 7'})               # refused
            if i % 17 == 3:
                self.post('/api/games/%s/action' % g, {'stateToken': tok, 'command': 'options'},
                          who=who, check=0)                                 # a wrong answer: 428
            r = self.act(g, who, tok, {'command': 'options'})
            if r.status != 200:
                break
            opts = r.json['results'][0].get('options') or []
            if not opts:
                r = self.act(g, who, tok, {'command': 'hold'})
                tok = r.json.get('stateToken', tok)
                if r.json.get('status') != 'playing':
                    break
                continue
            o = min(opts, key=lambda o: (o['holes'], o['max_height'], o['bumpiness'], -o['lines'],
                                         o['rotation'], o['column']))
            if i % 5 == 1:
                body = {'action': {'type': 'place', 'rotation': o['rotation'], 'column': o['column']}}
            elif i % 7 == 2:
                body = {'command': 'preview %d %d; place %d %d' % (o['rotation'], o['column'],
                                                                   o['rotation'], o['column'])}
            elif i % 11 == 4:
                body = {'command': '%d %d' % (o['rotation'], o['column'])}
            else:
                body = {'command': 'place %d %d' % (o['rotation'], o['column'])}
            r = self.act(g, who, tok, body)
            tok = r.json.get('stateToken', tok)
            if r.json.get('status') != 'playing':
                break
        if r.json.get('status') == 'playing':
            r = self.act(g, who, tok, {'command': 'resign'})
            tok = r.json.get('stateToken', tok)
        self.act(g, who, tok, {'command': 'place 0 0'})                     # game_over
        return run, tok

    def play_duskcourt(self, who, variant):
        g = 'duskcourt'
        r, run, tok = self.start(g, who, {'seed': 7 if variant == 1 else 21})
        for i in range(200):
            legal = r.json.get('legalActions') or []
            if not legal:
                break
            if i % 9 == 4:
                self.act(g, who, tok, {'action': {'type': 'capture', 'from': 0, 'to': 0}})
            if i == 60:
                a = {'type': 'endRun'}
            else:
                caps = [a for a in legal if a['type'] == 'capture']
                a = caps[(i * 7) % len(caps)] if caps else legal[0]
            r = self.act(g, who, tok, {'action': a})
            tok = r.json.get('stateToken', tok)
        self.act(g, who, tok, {'action': {'type': 'next'}})
        return run, tok

    def play_stackcraft(self, who, variant):
        g = 'stackcraft'
        r, run, tok = self.start(g, who, {'seed': 5 if variant == 1 else 6, 'cap': 60 if variant == 1 else 25})
        for i in range(100):
            legal = r.json.get('legalActions') or []
            if not legal:
                break
            if i % 8 == 3:
                self.act(g, who, tok, {'action': 'r9x9'})
            a = max(legal, key=lambda a: (a['y'], -a['x'], -a['rotation']))
            r = self.act(g, who, tok, {'action': a['id']})
            tok = r.json.get('stateToken', tok)
        return run, tok

    def play_hatetris(self, who, variant):
        g = 'hatetris'
        body = {'depth': 1} if variant == 1 else {'depth': 2, 'cap': 12}
        r, run, tok = self.start(g, who, body)
        for i in range(80):
            if r.json.get('status') != 'playing':
                break
            if i % 6 == 2:
                self.act(g, who, tok, {'command': 'hold'})
            r = self.act(g, who, tok, {'command': 'options'})
            opts = r.json.get('results', [{}])[0].get('options') or []
            if not opts:
                break
            o = min(opts, key=lambda o: (o['holes'], o['max_height'], o['bumpiness'], -o['lines'],
                                         o['rotation'], o['column']))
            cmd = {'action': {'type': 'place', 'rotation': o['rotation'], 'column': o['column']}} \
                if i % 4 == 1 else {'command': 'place %d %d' % (o['rotation'], o['column'])}
            r = self.act(g, who, tok, cmd)
            tok = r.json.get('stateToken', tok)
        return run, tok

    def play_wells(self, who, variant):
        g = 'wells'
        body = {'width': 4, 'height': 5} if variant == 1 else {'width': 4, 'height': 4}
        r, run, tok = self.start(g, who, body)
        for i in range(40):
            legal = r.json.get('legalActions') or []
            if not legal:
                break
            if i % 5 == 2:
                self.act(g, who, tok, {'action': 'r0x0y0'})
            lines = [a for a in legal if a.get('line')]
            a = lines[0] if lines else legal[(i * 3) % len(legal)]
            r = self.act(g, who, tok, {'action': a['id']})
            tok = r.json.get('stateToken', tok)
        return run, tok

    def play_hatetris_classic(self, who, variant):
        g = 'hatetris-classic'
        r, run, tok = self.start(g, who, {'supplier': 0 if variant == 1 else 3})
        for i in range(70):
            if r.json.get('status') != 'playing':
                break
            if i % 10 == 3:
                self.act(g, who, tok, {'command': 'place 9999'})
            if i % 10 == 6:
                r = self.act(g, who, tok, {'command': 'keys LLU'})
                tok = r.json.get('stateToken', tok)
            r = self.act(g, who, tok, {'command': 'options'})
            opts = r.json.get('results', [{}])[0].get('options') or []
            if not opts:
                break
            if variant == 1:
                o = min(opts, key=lambda o: (o['over'], -o['lines'], -o['top'], o['lock']))
            else:
                o = opts[(i * 5) % len(opts)]
            r = self.act(g, who, tok, {'command': 'place %d' % o['lock']} if i % 3
                         else {'action': {'type': 'place', 'lock': o['lock']}})
            tok = r.json.get('stateToken', tok)
        return run, tok

    def after_run(self, game, who, run, tok):
        """Everything around a run that is over: state, finish, the run's
        pages, its replay verified and refused, the record."""
        base = '/api/games/%s/' % game
        check = self.check_on(game)
        self.post(base + 'state', {'stateToken': tok}, who=who, check=check)
        self.post(base + 'finish', {'stateToken': tok, 'rating': 11, 'review': 'x'}, who=who, check=check)
        self.post(base + 'finish', {'stateToken': tok, 'rating': 8, 'review': ''}, who=who, check=check)
        f = self.post(base + 'finish', {'stateToken': tok, 'rating': 8,
                                        'review': 'golden run of %s, %s' % (game, who or 'anonymous')},
                      who=who, check=check)
        self.post(base + 'finish', {'stateToken': tok, 'rating': 8, 'review': 'again'}, who=who, check=check)
        page = self.get(base + 'runs/%s' % run)
        self.call('HEAD', base + 'runs/%s' % run)
        self.get('/api/runs/%s' % run)
        self.get(base + 'runs/%s/steps' % run)
        self.get(base + 'runs/%s/steps?from=3&count=4' % run)
        self.get(base + 'runs/%s/steps?from=-1' % run)
        self.get(base + 'runs/%s/live' % run)
        self.get(base + 'runs/%s/record' % run)
        self.get('/runs/%s' % run)
        replay = page.json.get('replay') if isinstance(page.json, dict) else None
        cert = f.json.get('certificate') if isinstance(f.json, dict) else None
        if replay:
            self.post(base + 'replays/verify', replay)
            self.post(base + 'replays/verify', {'replay': replay, 'certificate': cert})
            bad = json.loads(json.dumps(replay))
            if isinstance(bad.get('final'), dict):
                for k in ('score', 'lines', 'pieces'):
                    if isinstance(bad['final'].get(k), int):
                        bad['final'][k] += 1
                        break
            self.post(base + 'replays/verify', bad)
            short = dict(replay, actions=replay.get('actions', [])[:3])
            self.post(base + 'replays/verify', short)
            if cert:
                self.post(base + 'replays/verify', {'replay': short, 'certificate': cert})
                self.post(base + 'replays/verify', {'replay': replay, 'certificate': cert[:-4] + 'AAAA'})
            self.post(base + 'replays/verify', dict(replay, rules='other-v9'))
        if game == 'hatetris-classic':
            rec = self.get(base + 'runs/%s/record' % run)
            if rec.status == 200:
                for enc in ('raw', 'hex', 'base65536', 'base2048'):
                    self.post(base + 'replays/import', {'record': rec.json.get(enc, '')})
            self.post(base + 'replays/import', {'record': 'Z!'})
        else:
            self.post(base + 'replays/import', {'record': 'D'})

    def boards_of(self, game):
        base = '/api/games/%s/' % game
        self.get(base + 'leaderboard')
        self.get(base + 'leaderboard?limit=1')
        lb = self.get(base + 'leaderboard?limit=1')
        nxt = lb.json.get('next') if isinstance(lb.json, dict) else None
        if nxt:
            self.get(base + 'leaderboard?limit=1&after=%s' % nxt)
        seed = {'stackfall': 11, 'duskcourt': 7, 'stackcraft': 5, 'hatetris': 0, 'wells': 405,
                'hatetris-classic': 0}[game]
        self.get(base + 'leaderboard?seed=%d' % seed)
        self.get(base + 'leaderboard?seed=999999')
        self.get(base + 'leaderboard?limit=0')
        self.get(base + 'leaderboard?after=garbage')
        self.get(base + 'reviews')
        self.get(base + 'reviews?limit=1')
        self.get(base + 'reviews?limit=abc')
        self.get('/api/v1/accounts/alice/runs?game=%s' % game)

    # ---- Stackfall's seed-shaped routes ----

    def seed_routes(self):
        s = '/games/stackfall/api/'
        self.post(s + 'new', {})                                      # 401
        self.get(s + 'state', who='bob', check=True)                  # 409 no_current_run
        self.post(s + 'finish', {'rating': 5, 'review': 'none'}, who='bob', check=True)
        self.post(s + 'new', {'seed': 31, 'note': 'ignored'}, who='bob')
        self.get(s + 'state', who='bob', check=True)
        self.get(s + 'state', who='bob', check=0)                     # 428
        self.get(s + 'state', who='bob')                              # 428, no answer
        for i in range(40):
            r = self.post(s + 'act', {'command': 'options'}, who='bob', check=True)
            opts = (r.json.get('results') or [{}])[0].get('options') or []
            if r.status != 200 or not opts or r.json.get('status') != 'playing':
                break
            o = min(opts, key=lambda o: (o['holes'], o['max_height'], o['bumpiness'], -o['lines'],
                                         o['rotation'], o['column']))
            if i % 6 == 2:
                self.post(s + 'act', {'command': 'place 9 9'}, who='bob', check=True)
            if i % 4 == 0:
                body = {'action': {'type': 'place', 'rotation': o['rotation'], 'column': o['column']}}
            else:
                body = {'command': 'place %d %d' % (o['rotation'], o['column']), 'note': 'x'}
            r = self.post(s + 'act', body, who='bob', check=True)
        self.post(s + 'finish', {'rating': 5, 'review': 'too early'}, who='bob', check=True)
        self.post(s + 'act', {'command': 'resign'}, who='bob', check=True)
        self.post(s + 'finish', {'rating': 6, 'review': 'seed-shaped golden run'}, who='bob', check=True)
        self.post(s + 'finish', {'rating': 6, 'review': 'twice'}, who='bob', check=True)
        self.post(s + 'act', {'command': 'place 0 0'}, who='bob', check=True)
        r = self.post(s + 'new', {'seed': 32}, who='bob')
        self.post(s + 'act', {'command': '0 3; 1 5; 2 0'}, who='bob', check=True)
        self.post(s + 'act', {'command': ';'.join(['options'] * 51)}, who='bob', check=True)
        self.post(s + 'act', {'command': ''}, who='bob', check=True)
        self.post(s + 'act', {}, who='bob', check=True)
        self.post(s + 'new', {'seed': 33}, who='bob')                  # the previous run is abandoned
        self.get('/api/games/stackfall/runs/%s' % r.json.get('runId'))
        self.get(s + 'rules', who='bob')
        self.get('/api/v1/accounts/bob')
        self.get('/api/v1/accounts/bob/runs?game=stackfall')
        self.get('/api/v1/accounts/bob/runs?game=stackfall&limit=2')

    # ---- refusals ----

    def errors(self):
        g = '/api/games/'
        self.post(g + 'chess/init', {})
        self.get(g + 'chess/leaderboard')
        self.get('/api/nothing')
        self.get('/api/games/duskcourt/runs/12')
        self.get('/api/games/duskcourt/runs/abc')
        self.get('/api/runs/0012')
        r = self.post(g + 'duskcourt/init', {'seed': 3})
        tok = r.json.get('stateToken')
        run = r.json.get('runId')
        self.post(g + 'duskcourt/init', raw=b'{"seed": ')
        self.post(g + 'duskcourt/init', raw=b'{"seed": 1, "seed": 2}')
        self.post(g + 'duskcourt/init', raw=b'[1, 2]')
        self.post(g + 'duskcourt/init?seed=6', raw=b'   ')
        self.post(g + 'duskcourt/init', {'seed': 'three'})
        self.post(g + 'duskcourt/init', {'seed': -1})
        self.post(g + 'duskcourt/init', {'seed': 2 ** 60})
        self.post(g + 'duskcourt/init', {'colour': 'red'})
        self.get(g + 'duskcourt/init?seed=4')
        self.get(g + 'duskcourt/init?seed=x')
        self.post(g + 'duskcourt/init', raw=b'{"seed": 5}', ctype='text/plain')
        self.post(g + 'duskcourt/init', raw=b'{"seed": 5, "pad": "' + b'x' * 70000 + b'"}')
        self.post(g + 'hatetris/init', {'seed': 1})
        self.post(g + 'hatetris/init', {'depth': 3})
        self.post(g + 'hatetris/init', {'cap': 0})
        self.post(g + 'wells/init', {'width': 5, 'height': 5})
        self.post(g + 'wells/init', {'seed': 405})
        self.post(g + 'stackcraft/init', {'seed': 1, 'cap': 0})
        self.post(g + 'stackcraft/init', {'seed': 1, 'cap': 'ten'})
        self.post(g + 'hatetris-classic/init', {'supplier': 4})
        self.get(g + 'duskcourt/action')
        self.call('DELETE', g + 'duskcourt/init')
        self.call('HEAD', g + 'duskcourt/init')
        self.call('PUT', g + 'duskcourt/finish', body={})
        self.call('PATCH', '/api/v1/accounts', body={})
        self.post(g + 'duskcourt/action', {'stateToken': tok})
        self.post(g + 'duskcourt/action', {'stateToken': tok, 'action': 'capture'})
        self.post(g + 'duskcourt/action', {'stateToken': tok, 'action': {'type': 'fly'}})
        self.post(g + 'duskcourt/action', {'stateToken': tok, 'action': {'type': 'capture', 'from': 'a'}})
        self.post(g + 'duskcourt/action', {'stateToken': 5, 'action': {'type': 'reset'}})
        self.post(g + 'duskcourt/action', {'action': {'type': 'reset'}})
        damaged = tok[:20] + ('A' if tok[20] != 'A' else 'B') + tok[21:]
        self.post(g + 'duskcourt/action', {'stateToken': damaged, 'action': {'type': 'reset'}})
        self.post(g + 'duskcourt/action', {'stateToken': 'v4.local.AAAA', 'action': {'type': 'reset'}})
        self.post(g + 'duskcourt/action', {'stateToken': 'not a token', 'action': {'type': 'reset'}})
        self.post(g + 'stackcraft/action', {'stateToken': tok, 'action': 'r0x0'})
        self.get(g + 'duskcourt/state?stateToken=%s' % damaged)
        self.get(g + 'duskcourt/state')
        r2 = self.post(g + 'duskcourt/action', {'stateToken': tok, 'action': r.json['legalActions'][0]})
        self.post(g + 'duskcourt/action', {'stateToken': tok, 'action': r.json['legalActions'][0]})  # a retry
        self.post(g + 'duskcourt/action', {'stateToken': tok, 'action': {'type': 'endRun'}})         # stale
        self.post(g + 'duskcourt/state', {'stateToken': tok})
        self.post(g + 'duskcourt/finish', {'stateToken': r2.json.get('stateToken'), 'rating': 5,
                                           'review': 'not over'})
        self.post(g + 'duskcourt/finish', {'stateToken': r2.json.get('stateToken'), 'rating': 5,
                                           'review': 'bad \u202e text'})
        self.post(g + 'duskcourt/finish', {'stateToken': r2.json.get('stateToken'), 'rating': 5.5,
                                           'review': 'half'})
        # a keyed run: another account's key, no key, a bad key
        r = self.post(g + 'stackcraft/init', {'seed': 9, 'cap': 3}, who='carol')
        ktok = r.json.get('stateToken')
        self.post(g + 'stackcraft/action', {'stateToken': ktok, 'action': 'r0x0'}, who='dave')
        self.post(g + 'stackcraft/action', {'stateToken': ktok, 'action': 'r0x0'})
        self.post(g + 'stackcraft/action', {'stateToken': ktok, 'action': 'r0x0'},
                  headers={'Authorization': 'Bearer arcd_0000000000000000_00000000000000000000000000000000'
                                            '00000000'})
        self.post(g + 'stackcraft/action', {'stateToken': ktok, 'action': 'r0x0'}, who='carol')
        # the agent check on Stackfall
        r = self.post(g + 'stackfall/init', {'seed': 77})
        stok = r.json.get('stateToken')
        self.post(g + 'stackfall/action', {'stateToken': stok, 'command': 'options'})          # 428
        self.post(g + 'stackfall/action', {'stateToken': stok, 'command': 'options'}, check=0)
        self.post(g + 'stackfall/action', {'stateToken': stok, 'command': 'options'},
                  headers={'X-Agent-Check': 'ac_x', 'X-Agent-Answer': 'seventeen'})
        self.post(g + 'stackfall/action', {'stateToken': stok, 'command': 'options',
                                           'agent_check': self.puzzle(None), 'agent_answer': 'x17'})
        tokp = self.puzzle(None)
        right = self.answers.get(tokp)
        self.post(g + 'stackfall/action', {'stateToken': stok, 'command': 'place 0 4',
                                           'agent_check': tokp, 'agent_answer': '%s' % right},
                  secret=right)
        self.post(g + 'stackfall/action', {'stateToken': stok, 'command': 'fly away'}, check=True)
        self.post(g + 'stackfall/action', {'stateToken': stok, 'command': 'place 0 4'}, check=True)  # stale
        self.get('/api/games/stackfall/runs/%s' % r.json.get('runId'))
        self.get('/api/games/stackfall/runs/%s/steps' % r.json.get('runId'))
        self.get('/api/games/stackfall/runs/%s/live' % r.json.get('runId'))
        self.get('/api/games/duskcourt/runs/%s/record' % run)
        self.get('/api/v1/accounts/alice/runs')
        self.get('/api/v1/accounts/alice/runs?game=chess')
        self.get('/api/v1/accounts/alice/runs?game=duskcourt&before=nonsense')
        self.get('/api/v1/accounts/alice/runs?game=duskcourt&limit=0')
        self.get('/api/games/duskcourt/runs/%s%%00' % run)

    # ---- versus ----

    def match_move(self, mid, who, turn, command, view=None):
        q = '?view=' + view if view else ''
        return self.post('/api/matches/%s/move%s' % (mid, q), {'turn': turn, 'command': command}, who=who)

    def place_somewhere(self, mid, who, turn, seat, prefix=''):
        """Places the seat's piece: the first column (from a fixed start)
        that the answer does not refuse."""
        for k in range(10):
            c = (turn * 3 + seat * 2 + k) % 10
            rot = (turn + seat) % 4 if k < 5 else 0
            r = self.match_move(mid, who, turn, '%splace %d %d' % (prefix, rot, c))
            if r.status == 200 or r.status == 409:
                return r
            if prefix and 'column' not in json.dumps(r.json):
                prefix = ''                 # the item was refused: place without it
        return self.match_move(mid, who, turn, 'resign')

    def one_match(self, players, seed, items, turns):
        names = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'][:players]
        body = {'players': players, 'turn_seconds': 3600, 'seed': seed}
        body.update(items)
        has_items = bool(items.get('items') or items.get('item_chance'))
        r = self.post('/api/matches', body, who=names[0])
        mid = r.json.get('match_id')
        self.get('/api/matches/%s' % mid)
        self.match_move(mid, names[0], 1, 'place 0 0')                      # 409 match_not_started
        for n in names[1:]:
            self.post('/api/matches/%s/join' % mid, None, who=n)
        self.post('/api/matches/%s/join' % mid, None, who=names[1])           # already_joined
        self.post('/api/matches/%s/join' % mid, None, who='ivan')             # match_full
        self.get('/api/matches/%s' % mid, who=names[0])
        self.get('/api/matches/%s/replay' % mid)                              # 409 match_not_over
        out = set()
        for turn in range(1, turns + 1):
            for seat, n in enumerate(names):
                if seat in out:
                    continue
                if turn == 2 and seat == 0:
                    self.match_move(mid, n, turn + 1, 'place 0 0')            # wrong_turn
                    self.match_move(mid, n, turn, 'jump')                     # invalid_command
                    self.match_move(mid, n, turn, 'place 0 12')               # illegal_action
                    self.match_move(mid, n, turn, '')                         # empty_command
                # use T: 1 is the mover, 2.. the others in seat order
                prefix = 'use %d; ' % (1 + (turn + seat) % players) if has_items and turn % 3 == 0 else ''
                r = self.place_somewhere(mid, n, turn, seat, prefix)
                if turn == 3 and seat == 1:
                    self.match_move(mid, n, turn, r.json.get('move', 'place 0 0'))  # resend: 200
                    self.match_move(mid, n, turn, 'place 1 1')                # already_moved
                state = r.json.get('state') if isinstance(r.json, dict) else None
                if isinstance(state, dict) and state.get('status') == 'finished':
                    break
            view = self.get('/api/matches/%s' % mid, who=names[turn % players])
            if isinstance(view.json, dict):
                for s in view.json.get('seats', []):
                    if s.get('alive') is False:
                        out.add(s['seat'])
                if view.json.get('status') == 'finished':
                    break
            if turn % 3 == 1:
                self.get('/api/matches/%s/wait?after=%d' % (mid, turn - 1), who=names[0])
            if turn == 1:
                self.match_move(mid, names[-1], turn + 1, 'place 0 0', view='wrong')
        self.match_move(mid, 'ivan', 99, 'place 0 0')                             # not_a_player
        # every seat resigns but the last
        view = self.get('/api/matches/%s' % mid)
        turn = view.json.get('turn', 0) + 1
        for seat, n in enumerate(names[:-1]):
            if seat not in out:
                r = self.match_move(mid, n, turn, 'resign', view='full' if seat == 0 else None)
        last = self.match_move(mid, names[-1], turn, 'place 0 0')
        self.get('/api/matches/%s' % mid)
        self.get('/api/matches/%s' % mid, who=names[-1])
        rep = self.get('/api/matches/%s/replay' % mid)
        self.get('/api/matches/%s/turns' % mid)
        self.get('/api/matches/%s/turns?from=2&count=3' % mid)
        self.get('/api/matches/%s/turns?count=x' % mid)
        self.get('/api/matches/%s/wait?after=0' % mid)
        self.get('/matches/%s' % mid)
        if rep.status == 200:
            replay, cert = rep.json.get('replay'), rep.json.get('certificate')
            self.post('/api/matches/replays/verify', replay)
            self.post('/api/matches/replays/verify', {'replay': replay, 'certificate': cert})
            bad = json.loads(json.dumps(replay))
            if bad.get('turns'):
                bad['turns'] = bad['turns'][:-1]
            self.post('/api/matches/replays/verify', bad)
            self.post('/api/matches/replays/verify', {'replay': bad, 'certificate': cert})
        self.match_move(mid, names[0], turn + 1, 'place 0 0')                # match_over
        self.post('/api/matches/%s/join' % mid, None, who='ivan')
        return mid, last

    def versus(self):
        self.one_match(2, 7, {}, 14)
        self.one_match(2, 8, {'items': True}, 12)
        self.one_match(4, 9, {'items': False}, 10)
        self.one_match(4, 10, {'items': True, 'item_chance': 40, 'item_weights': [1, 2, 3, 1, 1, 1]}, 10)
        self.one_match(8, 11, {}, 7)
        self.one_match(8, 12, {'item_chance': 60}, 7)
        # the lobby and its refusals
        self.post('/api/matches', {'players': 1}, who='alice')
        self.post('/api/matches', {'players': 9}, who='alice')
        self.post('/api/matches', {'players': 2, 'rated': True}, who='alice')
        self.post('/api/matches', {'players': 2, 'items': False, 'item_chance': 30}, who='alice')
        self.post('/api/matches', {'players': 2, 'item_weights': [0, 0, 0, 0, 0, 0]}, who='alice')
        self.post('/api/matches', {'players': 2, 'turn_seconds': 0}, who='alice')
        self.post('/api/matches', {'players': 2})                                  # 401
        r = self.post('/api/matches', {'players': 3, 'seed': 5, 'turn_seconds': 600}, who='grace')
        lobby = r.json.get('match_id')
        self.post('/api/matches/%s/join' % lobby, None, who='grace')              # already_joined
        self.post('/api/matches/%s/join' % lobby, None)
        self.match_move(lobby, 'heidi', 1, 'place 0 0')                           # not_a_player
        self.get('/api/matches/123456789')
        self.post('/api/matches/123456789/join', None, who='heidi')
        self.get('/api/matches/abc')
        # the queue: a lobby opened (201), asked for again (200), refused;
        # nobody joins it, so its seed (the server's) is never shown
        self.post('/api/matches/quick', {'players': 3, 'turn_seconds': 900}, who='ivan')
        self.post('/api/matches/quick', {'players': 3, 'turn_seconds': 900}, who='ivan')
        self.post('/api/matches/quick', {'players': 4, 'items': True, 'item_chance': 20}, who='ivan')
        self.post('/api/matches/quick', {'players': 9}, who='ivan')
        self.post('/api/matches/quick', {'players': 2, 'seed': 4}, who='ivan')
        self.post('/api/matches/quick', {'players': 2})
        self.get('/api/matches')
        self.get('/api/matches?status=finished')
        self.get('/api/matches?status=playing')
        self.get('/api/matches?status=bogus')
        self.get('/api/matches/open')
        self.get('/api/matches/ratings')
        self.get('/api/matches/ratings?limit=0')
        self.get('/api/matches/ratings?after=nobody')
        self.get('/api/v1/accounts/alice/matches')
        self.get('/api/v1/accounts/grace/matches?limit=1')
        self.get('/api/v1/accounts/alice')
        self.get('/accounts/alice')
        self.post('/api/matches/replays/verify', {'schema': 2})
        self.post('/api/matches/replays/verify', raw=b'nope')

    # ---- MCP ----

    def rpc(self, method, params=None, who=None, msg_id=1, modern=False, name=None, headers=None,
            secret=None):
        body = {'jsonrpc': '2.0', 'id': msg_id, 'method': method}
        if params is not None or modern:
            body['params'] = dict(params or {})
        h = {}
        if modern:
            body['params']['_meta'] = MCP_META
            h = {'MCP-Protocol-Version': MCP_MODERN, 'Mcp-Method': method}
            if name is not None:
                h['Mcp-Name'] = name
        h.update(headers or {})
        return self.post('/mcp', body, who=who, headers=h, secret=secret)

    def tool(self, name, args, who=None, modern=False, msg_id=1):
        secret = args.get('agentCheck', {}).get('answer') if isinstance(args.get('agentCheck'), dict) else None
        r = self.rpc('tools/call', {'name': name, 'arguments': args}, who=who, modern=modern, name=name,
                     msg_id=msg_id, secret=secret or None)
        res = r.json.get('result') if isinstance(r.json, dict) else None
        return r, (res.get('structuredContent') if isinstance(res, dict) else None) or {}

    def mcp(self):
        self.rpc('initialize', {'protocolVersion': '2025-11-25', 'capabilities': {},
                                'clientInfo': {'name': 'golden', 'version': '1'}})
        self.rpc('initialize', {'protocolVersion': '2025-03-26', 'capabilities': {},
                                'clientInfo': {'name': 'golden', 'version': '1'}})
        self.post('/mcp', {'jsonrpc': '2.0', 'method': 'notifications/initialized'})
        self.rpc('ping')
        self.rpc('tools/list')
        self.rpc('resources/list')
        self.rpc('resources/templates/list')
        for g in GAMES_AT_RECORDING:
            self.rpc('resources/read', {'uri': 'arcaded://rules/%s' % g})
        self.rpc('resources/read', {'uri': 'arcaded://rules/chess'})
        self.rpc('prompts/list')
        self.rpc('server/discover', modern=True)
        self.rpc('tools/list', modern=True)
        self.rpc('resources/list', modern=True)
        self.rpc('resources/read', {'uri': 'arcaded://rules/wells'}, modern=True, name='arcaded://rules/wells')
        self.rpc('prompts/list', modern=True)
        self.rpc('initialize', {'protocolVersion': MCP_MODERN}, modern=True)
        self.rpc('tools/list', modern=True, headers={'Mcp-Method': 'ping'})
        self.rpc('tools/list', modern=True, headers={'MCP-Protocol-Version': '2025-11-25'})
        self.post('/mcp', {'jsonrpc': '2.0', 'id': 2, 'method': 'tools/list',
                           'params': {'_meta': dict(MCP_META, **{
                               'io.modelcontextprotocol/protocolVersion': '1900-01-01'})}},
                  headers={'MCP-Protocol-Version': '1900-01-01', 'Mcp-Method': 'tools/list'})
        self.rpc('tools/list', headers={'Origin': 'http://evil.example'})
        self.get('/mcp')
        self.call('DELETE', '/mcp')
        self.post('/mcp', raw=b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]')
        self.post('/mcp', raw=b'{"jsonrpc":"2.0","id":1,')
        self.post('/mcp', {'jsonrpc': '1.0', 'id': 1, 'method': 'ping'})
        self.post('/mcp', {'jsonrpc': '2.0', 'id': None, 'method': 'ping'})
        self.post('/mcp', {'jsonrpc': '2.0', 'id': 1})
        self.post('/mcp', raw=b'{"jsonrpc":"2.0","id":1,"method":"ping"}', ctype='text/plain')
        self.tool('list_games', {})
        self.tool('list_games', {}, modern=True)
        for g in GAMES_AT_RECORDING:
            self.tool('get_rules', {'game': g})
        self.tool('get_rules', {'game': 'chess'})
        self.tool('no_such_tool', {})
        self.tool('start_run', {'game': 'duskcourt', 'colour': 'red'})
        self.tool('start_run', {'game': 'duskcourt', 'seed': 'seven'})
        self.tool('get_run', {'game': 'duskcourt', 'runId': '../../healthz'})
        self.tool('start_run', {})
        # a game of each through the tools
        for g, args in (('duskcourt', {'seed': 7}), ('stackcraft', {'seed': 3, 'cap': 12}),
                        ('hatetris', {'depth': 1, 'cap': 8}), ('wells', {}),
                        ('hatetris-classic', {}), ('stackfall', {'seed': 4})):
            self.mcp_game(g, args, 'erin' if g in ('stackcraft', 'wells') else None)
        # a match through the tools
        r, s = self.tool('create_match', {'players': 2, 'turnSeconds': 3600, 'seed': 13}, who='frank')
        mid = s.get('match_id')
        self.tool('create_match', {'players': 2, 'rated': True}, who='frank')
        self.tool('create_match', {'players': 2, 'items': {'chance': 20, 'weights': [1, 1, 1, 1, 1, 1]},
                                   'seed': 14}, who='frank')
        self.tool('create_match', {'players': 2})
        self.tool('join_match', {'matchId': mid}, who='grace')
        self.tool('join_match', {'matchId': mid}, who='grace')
        self.tool('join_match', {'matchId': 'abc'}, who='grace')
        for turn in range(1, 4):
            for seat, n in enumerate(('frank', 'grace')):
                self.tool('match_move', {'matchId': mid, 'turn': turn,
                                         'command': 'place 0 %d' % ((turn * 4 + seat * 5) % 7)}, who=n)
            self.tool('wait_match', {'matchId': mid, 'afterTurn': turn - 1}, who='frank')
        self.tool('match_move', {'matchId': mid, 'turn': 9, 'command': 'place 0 0'}, who='frank')
        self.tool('match_move', {'matchId': mid, 'turn': 4, 'command': 'place 0 0'}, who='heidi')
        self.tool('match_move', {'matchId': mid, 'turn': '4', 'command': 'place 0 0'}, who='frank')
        self.tool('match_move', {'matchId': mid, 'turn': 4, 'command': 'resign'}, who='frank')
        self.tool('wait_match', {'matchId': mid, 'afterTurn': 0})
        self.tool('leaderboard', {'game': 'duskcourt', 'seed': 7, 'limit': 5})
        self.tool('leaderboard', {'game': 'wells', 'seed': 405})
        self.tool('leaderboard', {'game': 'stackfall', 'limit': 'x'})

    def mcp_game(self, g, args, who):
        r, s = self.tool('start_run', dict(args, game=g), who=who)
        tok = s.get('stateToken')
        run = s.get('runId')
        ac = 'stackfall' == g
        for i in range(60 if g != 'stackfall' else 25):
            if s.get('status') not in ('playing', 'break'):
                break
            legal = s.get('legalActions')
            if g in ('stackfall', 'hatetris'):
                a = 'options'
                r, s2 = self.tool('act', self.mcp_args(g, tok, a, who, ac), who=who)
                opts = ((s2.get('results') or [{}])[0].get('options')) or []
                if not opts:
                    break
                o = min(opts, key=lambda o: (o['holes'], o['max_height'], o['bumpiness'], o['rotation'],
                                             o['column']))
                a = 'place %d %d' % (o['rotation'], o['column'])
            elif g == 'hatetris-classic':
                r, s2 = self.tool('act', self.mcp_args(g, tok, 'options', who, ac), who=who)
                opts = ((s2.get('results') or [{}])[0].get('options')) or []
                if not opts:
                    break
                a = 'place %d' % min(opts, key=lambda o: (o['over'], -o['lines'], -o['top'], o['lock']))['lock']
            else:
                if not legal:
                    break
                legal = [x for x in legal if not (isinstance(x, dict) and x.get('type') in ('endRun', 'reset'))] \
                    or legal
                a = legal[i % len(legal)]
                if isinstance(a, dict) and g == 'duskcourt':
                    a = a if i % 2 else ('%dx%d' % (a['from'], a['to']) if a.get('type') == 'capture'
                                         else a['type'])
                elif isinstance(a, dict):
                    a = a.get('id')
            if i % 7 == 3:
                self.tool('act', self.mcp_args(g, tok, 'zz9', who, ac), who=who)
            r, s = self.tool('act', self.mcp_args(g, tok, a, who, ac), who=who)
            tok = s.get('stateToken', tok)
        if g in ('stackfall', 'duskcourt') and s.get('status') in ('playing', 'break'):
            r, s = self.tool('act', self.mcp_args(g, tok, 'resign' if g == 'stackfall' else 'endRun', who, ac),
                             who=who)
            tok = s.get('stateToken', tok)
        self.tool('get_state', self.mcp_args(g, tok, None, who, ac), who=who)
        self.tool('get_state', self.mcp_args(g, tok, None, who, ac, wrong=True), who=who)
        fa = self.mcp_args(g, tok, None, who, ac)
        self.tool('finish_run', dict(fa, rating=0, review='x'), who=who)
        fa = self.mcp_args(g, tok, None, who, ac)
        self.tool('finish_run', dict(fa, rating=9, review='golden over MCP'), who=who)
        self.tool('get_run', {'game': g, 'runId': run})
        self.tool('get_run', {'game': g, 'runId': '1'})
        self.tool('leaderboard', {'game': g})

    def mcp_args(self, g, tok, action, who, ac, wrong=False):
        a = {'game': g, 'stateToken': tok}
        if action is not None:
            a['action'] = action
        if ac:
            key = ('mcp', who)
            if not self.puzzles.get(key):
                self.puzzles[key] = self.puzzle(who)
            t = self.puzzles[key]
            a['agentCheck'] = {'token': t, 'answer': 0 if wrong else (self.answers.get(t) or 0)}
        return a

    def boards(self):
        for g in GAMES_AT_RECORDING:
            self.get('/api/games/%s/leaderboard' % g)
            self.get('/api/games/%s/reviews' % g)
        for name in ('alice', 'bob', 'erin', 'frank'):
            self.get('/api/v1/accounts/%s' % name)
            self.get('/api/v1/accounts/%s/matches' % name)
        self.get('/api/matches?status=finished&limit=100')
        self.get('/api/matches/ratings')


def session(sink, args=()):
    """Starts a daemon, plays the session into sink (each exchange,
    normalised), stops the daemon; answers the number of exchanges."""
    d = Daemon(args=list(args))
    try:
        s = Session(d, sink)
        try:
            s.run()
        except Stop:
            pass
        return s.n
    finally:
        d.cleanup()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--record', metavar='FILE', help='write the corpus (JSON lines) to FILE')
    a = ap.parse_args()
    out = []
    n = session(out.append)
    text = ''.join(json.dumps(e, ensure_ascii=False, sort_keys=False) + '\n' for e in out)
    if a.record:
        with open(a.record, 'w', encoding='utf-8') as f:
            f.write(text)
        print('%d exchanges written to %s' % (n, a.record))
    else:
        sys.stdout.write(text)


if __name__ == '__main__':
    main()
