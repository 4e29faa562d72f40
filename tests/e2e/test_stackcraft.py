"""Stackcraft over HTTP, end to end: games played to a top-out and to a cap,
every answer checked against a model of the rules that shares nothing with
the C engine; refusals, stale tokens and retries, finish's summary and the
certificate's claims by the model, the leaderboard order, replays refused
with their reasons over HTTP and by arcaded verify, the episode cap flags
and the agent check. The cycle every game shares (the page withholding a
playing run's seed, finish once, verification, boards, reviews) is
tests/e2e/test_games.py.

The model is tests/stackcraft/kat_gen.py: a Python implementation of the
stackcraft-v1 rules written from the rule text (CPython's own random.Random
for the stream, orientations by turning the spawn cells, legal moves by
putting each shape at y = 0 and walking it down), the same one that wrote
the engine's known answers.
"""
import copy
import json
import os
import random
import subprocess
import sys
import threading

from harness import Daemon, Tap, binary, checked
import harness

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'stackcraft'))
import kat_gen as model  # noqa: E402

t = Tap()
SC = '/api/games/stackcraft/'
ANSWER_KEYS = {'game', 'runId', 'stateToken', 'state', 'legalActions', 'boardText'}
STATE_KEYS = {'board', 'current', 'next', 'score', 'lines', 'pieces', 'status', 'end_reason', 'cap'}
FINAL_KEYS = ('score', 'lines', 'pieces', 'status', 'end_reason')


def legal_json(board, letter):
    """The legal list the rules give for a board (colour ids) and a piece."""
    return [{'id': m[0], 'rotation': m[1], 'x': m[2], 'y': m[3], 'cells': [list(c) for c in m[4]]}
            for m in model.legal(board, model.LETTERS.index(letter))]


def after(state, action_id):
    """The state the rules give after action_id, all but `next` (which a
    hidden seed keeps to itself); None when the action is not legal."""
    moves = {m['id']: m for m in legal_json(state['board'], state['current'])}
    if state['status'] != 'playing' or action_id not in moves:
        return None
    board = [row[:] for row in state['board']]
    for x, y in moves[action_id]['cells']:
        board[y][x] = model.LETTERS.index(state['current']) + 1
    board, n = model.clear(board)
    s = dict(board=board, current=state['next'], score=state['score'] + model.POINTS[n],
             lines=state['lines'] + n, pieces=state['pieces'] + 1, cap=state['cap'])
    if not model.legal(board, model.LETTERS.index(s['current'])):
        s['status'], s['end_reason'] = 'over', 'top_out'
    elif s['cap'] is not None and s['pieces'] >= s['cap']:
        s['status'], s['end_reason'] = 'over', 'capped'
    else:
        s['status'], s['end_reason'] = 'playing', None
    return s


def stream_letters(seed, n):
    s = model.Stream(seed)
    return ''.join(model.LETTERS[s[i]] for i in range(n))


def final_of(seed, cap, actions):
    """The final summary of a replay, by the model."""
    g = model.Game(seed, cap or 0)
    for a in actions:
        g.step(a)
    return {'score': g.score, 'lines': g.lines, 'pieces': g.pieces,
            'status': 'over' if g.end else 'playing', 'end_reason': g.end}


# ---- bots: each picks one of the legal actions the server listed

def tower(state, legal, rng):
    """The highest landing: tops out fast."""
    return min(legal, key=lambda a: a['y'])['id']


def stacker(greedy):
    """A hole-and-height heuristic with a little noise. greedy clears rows
    as soon as it can; otherwise it keeps the right column as a well and
    waits for several rows at once."""
    def value(board, cells, rng):
        b = [row[:] for row in board]
        for x, y in cells:
            b[y][x] = 1
        b, n = model.clear(b)
        heights, holes = [], 0
        for x in range(model.W):
            col = [y for y in range(model.H) if b[y][x]]
            heights.append(model.H - col[0] if col else 0)
            holes += sum(1 for y in range(col[0], model.H) if not b[y][x]) if col else 0
        bump = sum(abs(heights[i] - heights[i + 1]) for i in range(model.W - 2))
        v = holes * 40 + max(heights) * 3 + bump * 2 + rng.randrange(6)
        if greedy:
            return v - 60 * n
        return v + 25 * heights[-1] - (150 * n if n >= 2 else -40 * n)

    def pick(state, legal, rng):
        return min(legal, key=lambda a: value(state['board'], a['cells'], rng))['id']
    return pick


def plan(seed, cap, bot, noise):
    """Plays a whole game on the model: the ids and the final summary."""
    g = model.Game(seed, cap)
    rng = random.Random(noise)
    ids = []
    while not g.end:
        state = {'board': g.board, 'current': model.LETTERS[g.current]}
        ids.append(bot(state, legal_json(g.board, state['current']), rng))
        g.step(ids[-1])
    return ids, (g.lines, g.score, g.pieces)


class Player:
    """One run over HTTP; every answer is checked against the model."""

    def __init__(self, d, seed=None, cap=None, checks=False):
        body = {}
        if seed is not None:
            body['seed'] = seed
        if cap is not None:
            body['cap'] = cap
        self.d, self.seed, self.checks = d, seed, checks
        r = d.post(SC + 'init', body)
        assert r.status == 200, r
        self.problems = []
        self.run = r.json['runId']
        self.currents = [r.json['state']['current']]
        self.actions = []
        self.answers = 0
        self.take(r)
        if r.json['state']['pieces'] != 0 or r.json['state']['score'] != 0 or \
                any(any(row) for row in r.json['state']['board']):
            self.problems.append('a new run is not empty')

    def take(self, r):
        body = r.json
        self.last = r
        self.answers += 1
        self.token, self.state, self.legal = body['stateToken'], body['state'], body['legalActions']
        if set(body) - {'agent_check'} != ANSWER_KEYS or body['game'] != 'stackcraft' or body['runId'] != self.run:
            self.problems.append('answer keys %r' % sorted(body))
        if set(self.state) != STATE_KEYS:
            self.problems.append('state keys %r' % sorted(self.state))
        # The text board shows the same well: a letter exactly where a cell is filled.
        lines = body['boardText'].split('\n')
        if len(lines) != 20 or any(len(l) != 10 or (l[x] != '.') != bool(self.state['board'][y][x])
                                   for y, l in enumerate(lines) for x in range(10)):
            self.problems.append('boardText is not the board: %r' % body['boardText'])
        b = self.state['board']
        if len(b) != 20 or any(len(row) != 10 or any(not 0 <= v <= 7 for v in row) for row in b):
            self.problems.append('the board is not 20 rows of 10 colour ids')
        want = [] if self.state['status'] == 'over' else legal_json(b, self.state['current'])
        if self.legal != want:
            self.problems.append('legalActions differ from the rules at move %d' % len(self.actions))
        for a in self.legal:
            # Every listed cell is where the piece lands: empty, and resting.
            if any(b[y][x] for x, y in a['cells']) or \
                    all(y + 1 < 20 and not b[y + 1][x] for x, y in a['cells']):
                self.problems.append('%s does not land where it says' % a['id'])
        if self.seed is not None:
            want = stream_letters(self.seed, self.state['pieces'] + 2)
            if self.state['current'] + self.state['next'] != want[-2:]:
                self.problems.append('current/next are not the stream of seed %d' % self.seed)

    def act(self, action_id, expect=200):
        before = self.state
        # With the agent check on, each request answers the last puzzle.
        r = self.d.post(SC + 'action', {'stateToken': self.token, 'action': action_id},
                        headers=checked(self.d, self.last) if self.checks else None)
        if r.status != expect:
            self.problems.append('%r -> %d %s' % (action_id, r.status, r.body[:200]))
            return r
        if expect == 200:
            want = after(before, action_id)
            got = {k: v for k, v in r.json['state'].items() if k != 'next'}
            if want != got:
                self.problems.append('after %s: %r, the rules give %r' % (action_id, got, want))
            self.take(r)
            self.actions.append(action_id)
            self.currents.append(self.state['current'])
        return r

    def play(self, bot, noise=0, limit=100000):
        rng = random.Random(noise)
        while self.state['status'] == 'playing' and len(self.actions) < limit:
            r = self.act(bot(self.state, self.legal, rng))
            if r.status != 200:
                break
        return self


def stored_moves(d, run):
    return d.sql('SELECT count(*) FROM moves WHERE run_id = ?', (int(run),))[0][0]


def verify_cli(doc):
    rc, out = harness.verify_cli(doc)
    return rc, out.strip()


def certificate_claims(cert):
    """The claims of a v4.public token: the payload before the 64-byte signature."""
    import base64
    body = cert[len('v4.public.'):].split('.')[0]
    raw = base64.urlsafe_b64decode(body + '=' * (-len(body) % 4))
    return json.loads(raw[:-64])


d = Daemon()
try:
    # ---- the rules document, and the agent check off by default
    r = d.get(SC + 'rules')
    t.ok(r.status == 200 and r.json['rules'] == 'stackcraft-v1' and r.json['agentCheck'] is False and
         'agent_check' not in r.json, 'rules: stackcraft-v1, the agent check off by default')

    # ---- a game to its top-out, on a seed the server chose
    # (The page of a playing run withholds its seed and replay:
    # tests/e2e/test_games.py, for every game whose future is hidden.)
    p = Player(d)
    t.ok(p.state['cap'] is None and p.state['status'] == 'playing', 'init without a cap: an uncapped run')
    p.act(p.legal[0]['id'])
    answered = [json.dumps(x) for x in (p.state, p.legal)]
    t.ok(not any('seed' in a or 'bag' in a for a in answered),
         'no seed or bag in any answer while playing')
    page = d.get(SC + 'runs/' + p.run)
    t.ok(page.json['seedChosenByClient'] is False and '"actions"' not in page.body,
         'a seed the server chose says so; no action is shown while playing')
    p.play(tower)
    t.ok(not p.problems, 'a game to its top-out: every answer as the rules say (%d answers)' % p.answers)
    for x in p.problems[:5]:
        t.diag(x)
    t.ok(p.state['status'] == 'over' and p.state['end_reason'] == 'top_out' and p.legal == [],
         'it ends as top_out after %d pieces, with no legal action' % p.state['pieces'])
    page = d.get(SC + 'runs/' + p.run).json
    rep = page['replay']
    t.ok(rep is not None and set(rep) == {'schema', 'rules', 'seed', 'cap', 'actions', 'final'} and
         rep['rules'] == 'stackcraft-v1' and rep['schema'] == 1 and rep['cap'] is None and
         rep['actions'] == p.actions, 'once over, the page shows the replay: schema, rules, seed, cap, ids, final')
    t.eq(''.join(p.currents), stream_letters(rep['seed'], len(p.currents)),
         'the pieces dealt were the stream of the seed it reveals')
    t.eq(rep['final'], final_of(rep['seed'], None, rep['actions']), 'its final summary is the model\'s')
    t.ok(page['lines'] == p.state['lines'] and page['pieces'] == p.state['pieces'] and
         page['end_reason'] == 'top_out' and page['over'] is True, 'the page summary: lines, pieces, end')
    topped = p

    # ---- a game to its cap, on a chosen seed
    c = Player(d, seed=2024, cap=25).play(stacker(True), noise=1)
    t.ok(not c.problems, 'a game to its cap: every answer as the rules say, next pieces included')
    for x in c.problems[:5]:
        t.diag(x)
    t.ok(c.state['status'] == 'over' and c.state['end_reason'] == 'capped' and c.state['pieces'] == 25 and
         c.state['cap'] == 25 and c.legal == [] and c.state['lines'] > 0,
         'it ends as capped at 25 pieces (%d lines, %d points)' % (c.state['lines'], c.state['score']))
    capped = c

    # ---- refusals: 422 illegal_action, the same token, the unchanged state
    f = Player(d, seed=31)
    while f.state['status'] == 'playing':
        piece = model.LETTERS.index(f.state['current'])
        ids = {a['id'] for a in f.legal}
        unavailable = [('r%dx%d' % (r, x)) for r, shape in enumerate(model.ORIENT[piece])
                       for x in range(11 - max(dx for dx, _ in shape) - 1)
                       if 'r%dx%d' % (r, x) not in ids]
        if unavailable:
            break
        f.act(tower(f.state, f.legal, None))
    t.ok(f.state['status'] == 'playing' and unavailable, 'a board where %s is unavailable' %
         (unavailable[:1] or '(none)'))
    token0, state0, legal0 = f.token, f.state, f.legal
    norient = len(model.ORIENT[model.LETTERS.index(f.state['current'])])
    moves0 = stored_moves(d, f.run)
    cases = [(unavailable[0], 'an unavailable placement'),
             ('r%dx0' % norient, 'a rotation the piece does not have'),
             ('r0x9', 'an x where the shape does not fit'),
             ('R0x0', 'a capital R'), ('r0x10', 'two digits'), ('r0 x0', 'a space'), (' r0x0', 'a leading blank'),
             ('', 'an empty id'), ('r0x', 'no x digit'), ('rx0', 'no rotation digit'), ('r0y0', 'y for x'),
             ('r0x0\u00e9', 'a trailing letter'), (4, 'a number'), (None, 'null'), (True, 'true'),
             ({'id': 'r0x0'}, 'an object'), (['r0x0'], 'an array')]
    for a, what in cases:
        r = d.post(SC + 'action', {'stateToken': token0, 'action': a})
        t.ok(r.status == 422 and r.error_code == 'illegal_action' and r.json['stateToken'] == token0 and
             r.json['state'] == state0 and r.json['legalActions'] == legal0 and len(r.json['error']['message']) > 8,
             '422 with the same token and state: %s (%s)' % (what, r.json['error']['message'] if r.json else r.status))
    t.eq(stored_moves(d, f.run), moves0, 'refusals store nothing')
    r = d.post(SC + 'action', {'stateToken': topped.token, 'action': 'r0x0'})
    t.ok(r.status == 422 and r.error_code == 'illegal_action' and r.json['stateToken'] == topped.token and
         r.json['state'] == topped.state and r.json['legalActions'] == [] and 'over' in r.json['error']['message'],
         'a move after the top-out: 422 with the same token and state (%s)' % r.json['error']['message'])
    r = d.post(SC + 'action', {'stateToken': capped.token, 'action': 'r0x0'})
    t.ok(r.status == 422 and r.error_code == 'illegal_action' and r.json['state'] == capped.state,
         'a move after the cap: 422 (%s)' % r.json['error']['message'])
    f.act(legal0[0]['id'])
    t.ok(not f.problems, 'after the refusals the same token still moves the run')

    # ---- 400s around the action
    dc = d.get('/api/games/duskcourt/init?seed=1').json['stateToken']
    for body, code, what in [({'stateToken': f.token}, 'invalid_request', 'no action'),
                             ({'action': 'r0x0'}, 'invalid_request', 'no stateToken'),
                             ({'stateToken': 5, 'action': 'r0x0'}, 'invalid_request', 'a stateToken not a string'),
                             ({'stateToken': f.token, 'action': 'r0x0', 'command': 'place 0 0'},
                              'invalid_request', 'an unknown field'),
                             ({'stateToken': dc, 'action': 'r0x0'}, 'invalid_state_token', 'a Duskcourt token'),
                             ({'stateToken': 'v4.local.x', 'action': 'r0x0'}, 'invalid_state_token', 'no token')]:
        r = d.post(SC + 'action', body)
        t.ok(r.status == 400 and r.error_code == code, '400 %s: %s' % (code, what))
    r = d.post('/api/games/duskcourt/action', {'stateToken': f.token, 'action': {'type': 'next'}})
    t.ok(r.status == 400 and 'another game' in r.json['error']['message'], 'a Stackcraft token on Duskcourt: 400')

    # ---- init: seeds and caps
    for v in (0, -1, 1.5, '5', None, True, 2 ** 53):
        r = d.post(SC + 'init', {'cap': v})
        t.ok(r.status == 400 and r.error_code == 'invalid_request' and 'cap' in r.json['error']['message'],
             'init refuses {"cap": %r}' % (v,))
    for q in ('0', '-1', 'x', '1.5', '', '9007199254740992'):
        r = d.get(SC + 'init?cap=' + q)
        t.ok(r.status == 400 and 'cap' in r.json['error']['message'], 'init refuses ?cap=%s' % q)
    r = d.get(SC + 'init?seed=9007199254740991&cap=9007199254740991')
    t.ok(r.status == 200 and r.json['state']['cap'] == 2 ** 53 - 1 and
         r.json['state']['current'] + r.json['state']['next'] == stream_letters(2 ** 53 - 1, 2),
         'the largest seed and cap are accepted (GET, query)')
    r = d.post(SC + 'init', {'seed': 5, 'turbo': 1})
    t.ok(r.status == 400 and 'turbo' in r.json['error']['message'], 'init refuses an unknown field')

    # ---- stale tokens and retries
    g = Player(d, seed=77)
    g0, a0, a1 = g.token, g.legal[0]['id'], g.legal[1]['id']
    r1 = d.post(SC + 'action', {'stateToken': g0, 'action': a0})
    r2 = d.post(SC + 'action', {'stateToken': g0, 'action': a0})
    t.ok(r1.status == 200 and r2.status == 200 and r2.json['state'] == r1.json['state'] and
         r2.json['legalActions'] == r1.json['legalActions'],
         'the same token and action again is a retry: 200 with the same state')
    t.eq(stored_moves(d, g.run), 1, 'a retry stores nothing')
    r3 = d.post(SC + 'action', {'stateToken': g0, 'action': a1})
    t.ok(r3.status == 409 and r3.error_code == 'stale_state_token' and r3.json['state'] == r1.json['state'] and
         r3.json['legalActions'] == r1.json['legalActions'],
         'the old token with another action: 409 with the run as it stands')
    r4 = d.post(SC + 'action', {'stateToken': r3.json['stateToken'], 'action': r1.json['legalActions'][0]['id']})
    t.eq(r4.status, 200, 'the token the 409 carries is the newest')
    r5 = d.post(SC + 'action', {'stateToken': r2.json['stateToken'], 'action': r1.json['legalActions'][0]['id']})
    t.ok(r5.status == 200 and r5.json['state'] == r4.json['state'],
         'the token answered to the retry is one of step 1: the same action with it is a retry of step 2')
    r = d.get(SC + 'state?stateToken=' + r4.json['stateToken'])
    t.ok(r.status == 200 and r.json['state'] == r4.json['state'], 'GET state: the run as it stands')
    r = d.post(SC + 'state', {'stateToken': g0})
    t.ok(r.status == 409 and r.json['state'] == r4.json['state'], 'POST state with an old token: 409, the current state')

    # 12 concurrent actions on one token: exactly one stored.
    h = Player(d, seed=88)
    tok, results, lock = h.token, [], threading.Lock()

    def shoot(a):
        r = d.post(SC + 'action', {'stateToken': tok, 'action': a})
        with lock:
            results.append((r.status, json.dumps(r.json.get('state')) if r.json else None))
    ths = [threading.Thread(target=shoot, args=(h.legal[i % len(h.legal)]['id'],)) for i in range(12)]
    [x.start() for x in ths]
    [x.join() for x in ths]
    t.eq(stored_moves(d, h.run), 1, '12 concurrent actions on one token: exactly one stored')
    t.ok(all(s in (200, 409) for s, _ in results) and len({st for s, st in results if s == 200}) == 1,
         'the others are 409 stale (or retries of the one)')

    # ---- finish: review and certificate (refused while playing, once only, the
    # page, the review listed: tests/e2e/test_games.py)
    fin = d.post(SC + 'finish', {'stateToken': capped.token, 'rating': 8, 'review': 'A tidy stack.'})
    fj = fin.json or {}
    t.ok(fin.status == 200 and fj['final'] == dict(final_of(2024, 25, capped.actions), cap=25, seed=2024,
                                                     moves=25) and
         fj['review'] == {'rating': 8, 'text': 'A tidy stack.'} and fj['certificate'].startswith('v4.public.'),
         'finish: the final summary with its cap, seed and moves, the review and a certificate')
    cert = fj['certificate']
    page = d.get(SC + 'runs/' + capped.run).json
    rep = page['replay']
    claims = certificate_claims(cert)
    t.ok(claims['game'] == 'stackcraft' and claims['rules'] == 'stackcraft-v1' and claims['seed'] == 2024 and
         claims['cap'] == 25 and claims['lines'] == capped.state['lines'] and
         claims['end_reason'] == 'capped' and claims['run'] == capped.run and claims['moves'] == 25,
         'the certificate claims the run, game, rules, seed, cap, lines and end')

    # ---- replays: a whole run's verified over HTTP and by arcaded verify in
    # tests/e2e/test_games.py; here a partial one, and refusals with reasons
    part = copy.deepcopy(rep)
    part['actions'] = part['actions'][:9]
    part['final'] = final_of(2024, 25, part['actions'])
    v = d.post(SC + 'replays/verify', part)
    rc, out = verify_cli(part)
    t.ok(v.status == 200 and rc == 0 and part['final']['status'] == 'playing', 'a partial game is a valid replay')
    top = d.get(SC + 'runs/' + topped.run).json['replay']
    rc, out = verify_cli(top)
    t.ok(d.post(SC + 'replays/verify', top).status == 200 and rc == 0, 'so is the top-out run\'s replay')

    n = len(rep['actions'])
    bad_cases = [
        (lambda b: b.update(schema=2), 0, 'schema', 'an incompatible schema'),
        (lambda b: b.update(rules='stackcraft-v2'), 0, 'stackcraft-v2', 'an incompatible rules version'),
        (lambda b: b.update(rules='stackfall-v1'), 0, 'stackfall', 'another game\'s rules'),
        (lambda b: b['actions'].__setitem__(6, 'r0x9'), 7, 'x is out of range', 'an invalid move at step 7'),
        (lambda b: b['actions'].__setitem__(2, 'r9x0'), 3, 'r9x0', 'a rotation out of range at step 3'),
        (lambda b: b['actions'].__setitem__(0, 'R0x0'), 1, 'not an action id', 'a bad id at step 1'),
        (lambda b: b['actions'].append('r0x0'), n + 1, 'over', 'a move after the cap'),
        (lambda b: b['final'].update(score=b['final']['score'] + 100), n, 'final.score', 'final score'),
        (lambda b: b['final'].update(lines=b['final']['lines'] + 1), n, 'final.lines', 'final lines'),
        (lambda b: b['final'].update(pieces=24), n, 'final.pieces', 'final pieces'),
        (lambda b: b['final'].update(status='playing'), n, 'final.status', 'final status'),
        (lambda b: b['final'].update(end_reason='top_out'), n, 'final.end_reason', 'final end_reason'),
        (lambda b: b.update(cap=None), n, 'final.status', 'the cap removed'),
        (lambda b: b.update(cap=0), 0, 'cap', 'cap 0'),
        (lambda b: b.pop('cap'), 0, 'cap', 'no cap key'),
        (lambda b: b.update(hold=None), 0, 'exactly', 'an extra key'),
        (lambda b: b['final'].pop('end_reason'), 0, 'final', 'final without end_reason'),
        (lambda b: b.update(seed=2025), None, '', 'another seed'),
    ]
    for change, step, word, what in bad_cases:
        bad = copy.deepcopy(rep)
        change(bad)
        v = d.post(SC + 'replays/verify', bad)
        rc, out = verify_cli(bad)
        msg = v.json['error']['message'] if v.json and 'error' in v.json else str(v.status)
        cli_step = ('invalid at step %d: ' % step) if step else 'invalid'
        t.ok(v.status == 422 and v.error_code == 'invalid_replay' and (step is None or v.json['step'] == step) and
             word in v.json['reason'] and rc == 1 and out.startswith(cli_step if step is not None else 'invalid'),
             'refused over HTTP and by arcaded verify: %s (step %s: %s)' % (what, v.json.get('step'), msg))
    v = d.post('/api/games/stackfall/replays/verify', rep)
    t.ok(v.status == 422 and 'stackcraft' in v.json['error']['message'], 'a Stackcraft replay is not a Stackfall one')

    # ---- the leaderboard: lines, then score, then fewer pieces
    S = 606
    games = {}
    for greedy in (True, False):
        for noise in range(6):
            for cap in (20, 30):
                ids, key = plan(S, cap, stacker(greedy), noise)
                games.setdefault(key, (ids, cap))
    keys = sorted(games)
    # Three pairs the order must decide: more lines with a lower score; the
    # same lines with different scores; the same lines and score in
    # different numbers of pieces (the tower bot's short capped runs).
    conflict = next(((a, b) for a in keys for b in keys if a[0] > b[0] and a[1] < b[1]), None)
    same_lines = next(((a, b) for a in keys for b in keys if a[0] == b[0] and a[1] > b[1]), None)
    t.ok(conflict and same_lines, 'planned runs on seed %d: %r beats %r on lines, %r beats %r on score' %
         (S, conflict and conflict[0], conflict and conflict[1], same_lines and same_lines[0],
          same_lines and same_lines[1]))
    chosen = {conflict[0], conflict[1], same_lines[0], same_lines[1]} if conflict and same_lines else set()
    runs = []
    for key in sorted(chosen):
        ids, cap = games[key]
        q = Player(d, seed=S, cap=cap)
        for a in ids:
            q.act(a)
        runs.append(q)
    for cap in (4, 6):
        runs.append(Player(d, seed=S, cap=cap).play(tower))
    runs.append(Player(d, seed=S).play(tower))
    t.ok(all(not q.problems and q.state['status'] == 'over' for q in runs),
         'the %d runs on seed %d played as planned and ended' % (len(runs), S))
    b = d.get(SC + 'leaderboard?seed=%d&limit=100' % S)
    got = [(e['runId'], e['lines'], e['score'], e['pieces']) for e in b.json['entries']]
    want = sorted(((q.run, q.state['lines'], q.state['score'], q.state['pieces']) for q in runs),
                  key=lambda e: (-e[1], -e[2], e[3], -int(e[0])))
    t.eq(got, want, 'leaderboard?seed: by lines, then score, then fewer pieces')
    t.ok(any(e[1] > f[1] and e[2] < f[2] for i, e in enumerate(got) for f in got[i + 1:]) and
         any(e[1:3] == f[1:3] and e[3] < f[3] for i, e in enumerate(got) for f in got[i + 1:]),
         'a run with more lines and fewer points ranks higher; so does one with fewer pieces')
    b = d.get(SC + 'leaderboard?limit=100')
    # Issue 30: without seed, every ended run (runs on a chosen seed included).
    t.ok(topped.run in [e['runId'] for e in b.json['entries']] and
         {q.run for q in runs} <= {e['runId'] for e in b.json['entries']},
         'without seed: every ended run, those on a chosen seed included')
    e = b.json['entries'][0] if b.json['entries'] else {}
    t.ok(set(e) == {'rank', 'runId', 'account', 'score', 'lines', 'pieces', 'seed', 'endedAt'},
         'an entry: rank, runId, account, score, lines, pieces, seed, endedAt')
finally:
    d.cleanup()

# ---- the operator's caps and the agent check
d = Daemon(args=['--cap-default', '5', '--cap-max', '8', '--agent-check', 'stackcraft=on'])
try:
    r = d.get(SC + 'rules')
    t.ok(r.json['agentCheck'] is True and r.json['agent_check']['token'].startswith('ac_'),
         'with --agent-check stackcraft=on the rules say so and carry a puzzle')
    r = d.post(SC + 'init', {'seed': 3})
    t.ok(r.status == 200 and r.json['state']['cap'] == 5 and 'agent_check' in r.json,
         '--cap-default 5: a run that asks for no cap gets 5')
    a = d.post(SC + 'action', {'stateToken': r.json['stateToken'], 'action': r.json['legalActions'][0]['id']})
    t.ok(a.status == 428 and a.error_code == 'agent_check_required', 'an action without the answer: 428')
    p = Player(d, seed=3, checks=True).play(tower)
    t.ok(p.state['end_reason'] == 'capped' and p.state['pieces'] == 5 and not p.problems,
         'with the answers, the default-capped run plays to its cap of 5')
    t.eq(d.post(SC + 'init', {'cap': 8}).json['state']['cap'], 8, 'a cap up to --cap-max is taken')
    r = d.post(SC + 'init', {'cap': 9})
    t.ok(r.status == 400 and '8' in r.json['error']['message'], 'a cap above --cap-max: 400 (%s)' %
         r.json['error']['message'])
    r = d.get(SC + 'init?cap=9')
    t.eq(r.status, 400, 'in the query too')
finally:
    d.cleanup()

rc = subprocess.run([binary(), '--cap-default', '9', '--cap-max', '8'], capture_output=True, text=True)
t.ok(rc.returncode == 2 and 'cap' in rc.stderr, 'a default cap above the maximum stops the start (%s)' %
     rc.stderr.strip())
t.done()
