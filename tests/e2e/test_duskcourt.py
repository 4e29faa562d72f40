"""Duskcourt over HTTP, end to end: runs driven by the engine's solver up
the ladder, then down to the last life, every refusal, stale tokens, retries,
concurrency, the finish's checks of rating and review, tampering and a
restart. The cycle every game shares (init, state, finish, replay,
certificate, boards) is tests/e2e/test_games.py."""
import json
import random
import subprocess
import threading

from harness import run_binary, Daemon, Tap, binary

t = Tap()
ACTION = '/api/games/duskcourt/action'


def deal(seed, rung, k):
    out = subprocess.run([binary(), 'deal', str(seed), str(rung), str(k)], capture_output=True,
                         check=True).stdout
    return json.loads(out)


def captures(board, size, king_survives):
    """Every legal capture, by the reach rules of docs/rules/duskcourt.md,
    written here from the rules text (not from the engine)."""
    out = []
    lines = {'Q': [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
             'R': [(1, 0), (-1, 0), (0, 1), (0, -1)], 'B': [(1, 1), (1, -1), (-1, 1), (-1, -1)]}
    steps = {'K': [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc],
             'N': [(2, 1), (2, -1), (-2, 1), (-2, -1), (1, 2), (1, -2), (-1, 2), (-1, -2)],
             'P': [(1, -1), (1, 1)]}
    for i, c in enumerate(board):
        if c in (None, '#'):
            continue
        r0, c0 = divmod(i, size)
        targets = []
        if c in lines:
            for dr, dc in lines[c]:
                r, cc = r0 + dr, c0 + dc
                while 0 <= r < size and 0 <= cc < size:
                    if board[r * size + cc] is not None:
                        targets.append(r * size + cc)
                        break
                    r, cc = r + dr, cc + dc
        else:
            for dr, dc in steps[c]:
                r, cc = r0 + dr, c0 + dc
                if 0 <= r < size and 0 <= cc < size:
                    targets.append(r * size + cc)
        for j in targets:
            if board[j] in (None, '#') or (king_survives and board[j] == 'K'):
                continue
            out.append({'type': 'capture', 'from': i, 'to': j})
    return sorted(out, key=lambda a: (a['from'], a['to']))


def pay(rung):
    return 10 + 2 * (rung - 1)


class Player:
    """Plays one run and checks every answer against the rules."""

    def __init__(self, d, seed=None):
        self.d = d
        r = d.get('/api/games/duskcourt/init' + ('?seed=%d' % seed if seed is not None else ''))
        assert r.status == 200, r
        self.r = r
        self.run = r.json['runId']
        self.token = r.json['stateToken']
        self.state = r.json['state']
        self.legal = r.json['legalActions']
        self.problems = []
        self.states = [json.dumps(self.state)]
        self.actions = []

    def act(self, action, expect=200):
        before = self.state
        r = self.d.post(ACTION, {'stateToken': self.token, 'action': action})
        if r.status != expect:
            self.problems.append('%s -> %d %s' % (action, r.status, r.body[:200]))
            return r
        if expect == 200:
            self.check(before, action, r.json)
            self.token = r.json['stateToken']
            self.state = r.json['state']
            self.legal = r.json['legalActions']
            self.states.append(json.dumps(self.state))
            self.actions.append(action)
        return r

    def check(self, s0, a, body):
        """The state after a against docs/rules/duskcourt.md (scoring included)."""
        s1 = body['state']
        p = self.problems
        if a not in self.legal:
            p.append('applied an action that was not in legalActions: %r' % a)
        if body['runId'] != self.run:
            p.append('runId changed')
        if a['type'] == 'capture':
            depth = s0['captures'] + 1
            paid = pay(s0['rung']) if depth > s0['paidDepth'] else 0
            board = list(s0['board'])
            board[a['to']] = board[a['from']]
            board[a['from']] = None
            idols = sum(1 for c in board if c not in (None, '#'))
            if s1['board'] != board:
                p.append('capture %r did not move the idol' % a)
            if s1['captures'] != depth or s1['paidDepth'] != max(depth, s0['paidDepth']):
                p.append('captures/paidDepth wrong after %r' % a)
            if idols == 1:
                r = s0['rung']
                streak = s0['streak'] + 1
                award = {'capture': paid, 'clear': 40 * r, 'streak': 10 * r * min(streak, 5),
                         'clean': 0 if s0['resetUsed'] else 20 * r}
                award['total'] = sum(award.values())
                want = dict(phase='break', lastResult='clear', streak=streak, lives=s0['lives'],
                            score=s0['score'] + award['total'], lastAward=award)
            elif not captures(board, s0['size'], s0['kingSurvives']):
                want = dict(lastResult='stuck', streak=0, lives=s0['lives'] - 1,
                            score=s0['score'] + paid, lastAward=s0['lastAward'],
                            phase='done' if s0['lives'] == 1 else 'break')
            else:
                want = dict(phase='playing', score=s0['score'] + paid, lives=s0['lives'],
                            streak=s0['streak'], lastResult=s0['lastResult'])
            for k, v in want.items():
                if s1[k] != v:
                    p.append('after %r: %s is %r, expected %r' % (a, k, s1[k], v))
        elif a['type'] == 'reset':
            if s1['board'] != s0['dealt'] or not s1['resetUsed'] or s1['captures'] != 0 or \
                    s1['score'] != s0['score'] or s1['paidDepth'] != s0['paidDepth']:
                p.append('reset did not restore the court as the rules say')
        elif a['type'] == 'next':
            rung = s0['rung'] + (1 if s0['lastResult'] == 'clear' else 0)
            if s1['phase'] != 'playing' or s1['rung'] != rung or \
                    s1['courtsDealt'] != s0['courtsDealt'] + 1 or s1['board'] != s1['dealt'] or \
                    s1['resetUsed'] or s1['captures'] != 0 or s1['paidDepth'] != 0 or \
                    s1['score'] != s0['score'] or s1['lastResult'] != s0['lastResult']:
                p.append('next did not deal as the rules say: %r' % s1)
            ladder_check(s1, p)
        elif a['type'] == 'endRun':
            if s1['phase'] != 'done' or s1['score'] != s0['score']:
                p.append('endRun did not end the run keeping the score')
        if s1['phase'] == 'done' and body['legalActions']:
            p.append('legal actions offered after done')
        if s1['phase'] == 'break' and body['legalActions'] != [{'type': 'next'}, {'type': 'endRun'}]:
            p.append('a break must offer next then endRun')
        if s1['phase'] == 'playing':
            want = captures(s1['board'], s1['size'], s1['kingSurvives'])
            if s1['captures'] > 0 and not s1['resetUsed']:
                want = want + [{'type': 'reset'}]
            if body['legalActions'] != want:
                p.append('legalActions differ from the reach rules after %r' % a)


def ladder_check(s, p):
    r = s['rung']
    if r <= 10:
        size, idols, king, boulders = {1: (4, 3, False, 0), 2: (4, 4, False, 0), 3: (4, 5, False, 0),
                                       4: (5, 5, False, 0), 5: (5, 6, False, 0), 6: (6, 6, False, 0),
                                       7: (6, 7, False, 0), 8: (6, 8, False, 0), 9: (6, 8, True, 0),
                                       10: (6, 8, False, 2)}[r]
    else:
        size, idols, king, boulders = 6, min(9 + (r - 11) // 2, 12), True, 2 + (r - 11) % 3
    got_idols = sum(1 for c in s['dealt'] if c not in (None, '#'))
    got_boulders = [i for i, c in enumerate(s['dealt']) if c == '#']
    if (s['size'], got_idols, s['kingSurvives'], len(got_boulders)) != (size, idols, king, boulders):
        p.append('rung %d dealt size %d, %d idols, king %s, %d boulders' %
                 (r, s['size'], got_idols, s['kingSurvives'], len(got_boulders)))
    if got_boulders != s['boulders']:
        p.append('boulders do not list the # squares')
    if king and s['dealt'].count('K') != 1:
        p.append('a kingSurvives court needs exactly one K')


def stored_moves(d, run):
    return d.sql('SELECT count(*) FROM moves WHERE run_id = ?', (int(run),))[0][0]


# arcaded deal: court k of a seed at a rung, with one way through.
c = deal(7, 1, 0)
t.ok(c['size'] == 4 and len(c['board']) == 16 and sum(1 for x in c['board'] if x) == 3 and
     len(c['solution']) == 2, 'arcaded deal 7 1 0 prints a 4x4 court with 3 idols and a way through')
p = subprocess.run([binary(), 'deal', '7', '0', '0'], capture_output=True, text=True)
t.ok(p.returncode == 2 and 'RUNG' in p.stderr, 'arcaded deal refuses rung 0: %s' % p.stderr.strip())

# The who-wins solver on the daemon's command line (tools/solve_cli.c):
# the seed's 4 x 3 well is the supplier's, its strategy checks.
rc, out, err = run_binary(['solve', '4', '3', '--memory', '16M'])
t.ok(rc == 0 and 'winner: supplier' in out, 'arcaded solve 4 3: the supplier wins (%s)' % out.strip().replace('\n', '; '))

d = Daemon()
try:
    # ---- a run up the ladder with the solver, then down to the last life
    p = Player(d, seed=7)
    t.ok(p.r.json['game'] == 'duskcourt' and set(p.r.json) == {'game', 'runId', 'stateToken', 'state',
                                                                'legalActions', 'boardText'},
         'init answers {game, runId, stateToken, state, legalActions, boardText}')
    # The court as text: each row's squares, then their indices.
    st = p.r.json['state']
    n = st['size']
    rows = p.r.json['boardText'].split('\n')
    want = [' '.join(c or '.' for c in st['board'][r * n:(r + 1) * n]) + '  ' +
            ''.join('%3d' % (r * n + c) for c in range(n)) for r in range(n)]
    t.ok(rows == want, 'boardText draws the court row by row with its index grid:\n' +
         p.r.json['boardText'])
    s = p.state
    t.ok(s['phase'] == 'playing' and s['rung'] == 1 and s['lives'] == 3 and s['seed'] == 7 and
         s['courtsDealt'] == 1 and s['score'] == 0 and s['lastResult'] is None,
         'a run opens at rung 1, playing, 3 lives, its court dealt')
    t.eq(list(s), ['phase', 'rung', 'size', 'board', 'dealt', 'boulders', 'kingSurvives', 'resetUsed',
                   'captures', 'paidDepth', 'lives', 'streak', 'score', 'lastResult', 'lastAward',
                   'seed', 'courtsDealt'], 'the state has exactly the fields of docs/rules/duskcourt.md, in order')
    ladder_check(s, p.problems)
    seen_king = seen_boulders = False
    used_reset = False
    while p.state['rung'] <= 12 and not p.problems:
        s = p.state
        sol = deal(7, s['rung'], s['courtsDealt'] - 1)
        if sol['board'] != s['board']:
            p.problems.append('the court in play is not court k of the seed at this rung')
            break
        seen_king |= s['kingSurvives']
        seen_boulders |= bool(s['boulders'])
        moves = sol['solution']
        if s['rung'] == 3 and not used_reset:
            # Start, reset, and replay: the replay pays nothing until it goes deeper.
            p.act(moves[0])
            p.act({'type': 'reset'})
            used_reset = True
        for m in moves:
            p.act(m)
        if p.state['lastResult'] != 'clear':
            p.problems.append('the solver\'s way through did not clear rung %d' % s['rung'])
            break
        p.act({'type': 'next'})
    t.eq(p.problems, [], 'solver-driven play through HTTP agrees with the rules at every step')
    t.ok(p.state['rung'] == 13, 'climbed past rung 12 (now %d)' % p.state['rung'])
    t.ok(seen_king and seen_boulders, 'jackal courts and boulder courts were played')
    t.ok(p.state['streak'] == 12 and p.state['lastAward']['streak'] == 10 * 12 * 5,
         'the streak award is capped at 5')

    # Lose all three lives: random captures until the court is stuck.
    rng = random.Random(1)
    lost = 0
    guard = 0
    while p.state['phase'] != 'done' and guard < 500 and not p.problems:
        guard += 1
        if p.state['phase'] == 'break':
            if p.state['lastResult'] == 'stuck':
                lost += 1
            p.act({'type': 'next'})
            continue
        caps = [a for a in p.legal if a['type'] == 'capture']
        p.act(rng.choice(caps))
    t.eq(p.problems, [], 'random play down to the last life agrees with the rules')
    t.ok(p.state['phase'] == 'done' and p.state['lives'] == 0 and p.legal == [],
         'the run is done after the third stuck court, with no legal actions')
    t.eq(p.state['lastResult'], 'stuck', 'the last resolution was stuck')

    # After done everything is refused.
    for a in ({'type': 'next'}, {'type': 'endRun'}, {'type': 'reset'},
              {'type': 'capture', 'from': 0, 'to': 1}):
        r = d.post(ACTION, {'stateToken': p.token, 'action': a})
        t.ok(r.status == 422 and r.error_code == 'illegal_action' and r.json['legalActions'] == [] and
             r.json['stateToken'] == p.token, 'after done, %s is refused with 422' % a['type'])

    # ---- finish (its answer, once only: tests/e2e/test_games.py)
    d.post('/api/games/duskcourt/finish', {'stateToken': p.token, 'rating': 8,
                                           'review': 'Tense ladder; the jackal courts are great.'})
    d.post('/api/games/duskcourt/finish', {'stateToken': p.token, 'rating': 8, 'review': 'again'})
    n = d.sql('SELECT count(*) FROM reviews WHERE run_id = ?', (int(p.run),))[0][0]
    t.eq(n, 1, 'a finished run, finished again: one review stored')
    t.eq(stored_moves(d, p.run), len(p.actions), 'every applied action is a stored move')

    # ---- determinism: same seed, same actions, byte-identical states
    q = Player(d, seed=7)
    for a in p.actions:
        q.act(a)
    t.ok(q.states == p.states and not q.problems,
         'same seed and same actions give byte-identical state objects (%d states)' % len(p.states))

    # ---- refusals
    f = Player(d, seed=123)
    token0, state0 = f.token, f.state
    dealt = state0['dealt']
    size = state0['size']
    empty = [i for i, c in enumerate(dealt) if c is None]
    idols = [i for i, c in enumerate(dealt) if c not in (None, '#')]
    legal_caps = {(a['from'], a['to']) for a in f.legal if a['type'] == 'capture'}
    unreachable = next((a, b) for a in idols for b in idols if a != b and (a, b) not in legal_caps)
    refusals = [
        ({'type': 'next'}, 'next while playing'),
        ({'type': 'endRun'}, 'endRun while playing'),
        ({'type': 'reset'}, 'reset before any capture'),
        ({'type': 'capture', 'from': empty[0], 'to': idols[0]}, 'a capture from an empty square'),
        ({'type': 'capture', 'from': idols[0], 'to': empty[0]}, 'a capture onto an empty square'),
        ({'type': 'capture', 'from': unreachable[0], 'to': unreachable[1]}, 'a take out of reach'),
        ({'type': 'capture', 'from': idols[0], 'to': idols[0]}, 'a capture onto itself'),
        ({'type': 'capture', 'from': 0, 'to': size * size}, 'an index off this court'),
        ({'type': 'capture', 'from': 0, 'to': 36}, 'an index over 35'),
        ({'type': 'capture', 'from': -1, 'to': 3}, 'a negative index'),
        ({'type': 'capture', 'from': '0', 'to': 3}, 'a string index'),
        ({'type': 'capture', 'from': 1.5, 'to': 3}, 'a fractional index'),
        ({'type': 'capture', 'from': 0}, 'a capture without to'),
        ({'type': 'capture', 'from': 0, 'to': 1, 'via': 2}, 'an extra field'),
        ({'type': 'reset', 'from': 1}, 'reset with a field'),
        ({'type': 'jump'}, 'an unknown type'),
        ({'kind': 'capture'}, 'no type'),
        ('capture', 'an action that is not an object'),
        (None, 'a null action'),
    ]
    for a, what in refusals:
        r = d.post(ACTION, {'stateToken': token0, 'action': a})
        good = (r.status == 422 and r.error_code == 'illegal_action' and r.json['stateToken'] == token0 and
                r.json['state'] == state0 and r.json['legalActions'] == f.legal and
                len(r.json['error']['message']) > 10)
        t.ok(good, 'refused with 422, the legal list, the same state and token: %s (%s)' %
             (what, r.json['error']['message'] if r.json and 'error' in r.json else r.status))
    t.eq(stored_moves(d, f.run), 0, 'refusals store nothing')
    r = d.post(ACTION, {'stateToken': token0, 'action': f.legal[0]})
    t.ok(r.status == 200 and r.json['state']['courtsDealt'] == state0['courtsDealt'],
         'after the refusals the same token still moves the run; the stream cursor did not move')
    token1 = r.json['stateToken']
    r = d.post(ACTION, {'stateToken': token1, 'action': {'type': 'reset'}})
    token2 = r.json['stateToken'] if r.status == 200 else token1
    t.eq(r.status, 200, 'reset after a capture is allowed')
    r = d.post(ACTION, {'stateToken': token2, 'action': f.legal[0]})
    token3 = r.json['stateToken']
    r = d.post(ACTION, {'stateToken': token3, 'action': {'type': 'reset'}})
    t.ok(r.status == 422 and 'once' in r.json['error']['message'], 'a second reset on a court is refused')

    # A jackal court: a capture onto the K is refused.
    k = Player(d, seed=7)
    for a in p.actions:
        if k.state['rung'] == 9 and k.state['phase'] == 'playing':
            break
        k.act(a)
    board = k.state['board']
    kpos = board.index('K')
    onto_k = None
    for frm, c in enumerate(board):
        if c in (None, '#', 'K'):
            continue
        onto_k = {'type': 'capture', 'from': frm, 'to': kpos}
        break
    r = d.post(ACTION, {'stateToken': k.token, 'action': onto_k})
    t.ok(k.state['kingSurvives'] and r.status == 422 and r.error_code == 'illegal_action',
         'a capture onto the jackal that must stand last is refused: %s' %
         (r.json['error']['message'] if r.json else r.status))

    # ---- 400s: broken around the action
    bad = [
        (b'not json', 'invalid_json', 'a body that is not JSON'),
        (json.dumps({'action': {'type': 'next'}}).encode(), 'invalid_request', 'no stateToken'),
        (json.dumps({'stateToken': 5, 'action': {'type': 'next'}}).encode(), 'invalid_request',
         'a stateToken that is not a string'),
        (json.dumps({'stateToken': token0}).encode(), 'invalid_request', 'no action'),
        (json.dumps({'stateToken': token0, 'action': {'type': 'next'}, 'x': 1}).encode(),
         'invalid_request', 'an unknown top-level field'),
        (json.dumps({'stateToken': 'v4.local.garbage', 'action': {'type': 'next'}}).encode(),
         'invalid_state_token', 'a damaged token'),
        (json.dumps({'stateToken': 'hello', 'action': {'type': 'next'}}).encode(),
         'invalid_state_token', 'a token that is no token'),
    ]
    for raw, code, what in bad:
        r = d.request('POST', ACTION, raw=raw)
        t.ok(r.status == 400 and r.error_code == code, '400 %s: %s' % (code, what))
    for q in ('-1', '9007199254740992', 'abc', '1.5', '', '07'):
        r = d.get('/api/games/duskcourt/init?seed=' + q)
        t.ok(r.status == 400 and 'seed' in r.json['error']['message'], 'init refuses seed=%r' % q)
    for v in (-1, 2 ** 53, 'seven', 1.5, None, True):
        r = d.post('/api/games/duskcourt/init', {'seed': v})
        t.ok(r.status == 400 and 'seed' in r.json['error']['message'], 'init refuses {"seed": %r}' % (v,))
    r = d.post('/api/games/duskcourt/init', {'seed': 2 ** 53 - 1})
    t.ok(r.status == 200 and r.json['state']['seed'] == 2 ** 53 - 1, 'the largest seed is accepted')
    r = d.post('/api/games/duskcourt/init', {})
    r2 = d.get('/api/games/duskcourt/init')
    t.ok(r.status == 200 and r2.status == 200 and r.json['state']['seed'] != r2.json['state']['seed'],
         'without a seed the server picks one')
    runs_before = d.sql('SELECT count(*) FROM runs')[0][0]
    d.get('/api/games/duskcourt/init?seed=x')
    t.eq(d.sql('SELECT count(*) FROM runs')[0][0], runs_before, 'a refused init stores nothing')

    # Tampered tokens: every single-character change is refused.
    g = Player(d, seed=99)
    while len(g.legal) < 2:
        g = Player(d, seed=int(g.state['seed']) + 1)
    tok = g.token
    rnd = random.Random(5)
    refused = 0
    positions = rnd.sample(range(10, len(tok)), 60)
    for i in positions:
        c = tok[i]
        alt = 'A' if c != 'A' else 'B'
        r = d.post(ACTION, {'stateToken': tok[:i] + alt + tok[i + 1:], 'action': g.legal[0]})
        refused += r.status == 400 and r.error_code == 'invalid_state_token'
    t.eq(refused, len(positions), 'tampered tokens are refused with 400 invalid_state_token')
    r = d.post(ACTION, {'stateToken': tok[:-5], 'action': g.legal[0]})
    t.eq(r.status, 400, 'a truncated token is refused')

    # ---- stale tokens and retries
    g0 = g.token
    a0 = g.legal[0]
    r1 = d.post(ACTION, {'stateToken': g0, 'action': a0})
    t.eq(r1.status, 200, 'the first use of a token moves the run')
    r2 = d.post(ACTION, {'stateToken': g0, 'action': dict(reversed(list(a0.items())))})
    t.ok(r2.status == 200 and r2.json['state'] == r1.json['state'],
         'the same token and action again (keys reordered) is a retry: 200, same state')
    t.eq(stored_moves(d, g.run), 1, 'a retry stores nothing')
    r3 = d.post(ACTION, {'stateToken': r2.json['stateToken'], 'action': r1.json['legalActions'][0]})
    t.eq(r3.status, 200, 'the token answered to a retry works')
    other = next(a for a in g.legal if a != a0)
    r4 = d.post(ACTION, {'stateToken': g0, 'action': other})
    t.ok(r4.status == 409 and r4.error_code == 'stale_state_token' and r4.json['state'] == r3.json['state']
         and r4.json['legalActions'] == r3.json['legalActions'],
         'an older token with another action: 409 with the run as it stands')
    r5 = d.post(ACTION, {'stateToken': r4.json['stateToken'], 'action': r3.json['legalActions'][0]})
    t.eq(r5.status, 200, 'the token carried by the 409 is the newest')
    r6 = d.post(ACTION, {'stateToken': g0, 'action': a0})
    t.eq(r6.status, 409, 'a retry of anything but the newest step is stale')

    # A lost life cannot be taken back by replaying an old token.
    h = Player(d, seed=4242)
    saved = None
    for _ in range(400):
        if h.state['phase'] == 'break':
            if h.state['lastResult'] == 'stuck':
                break
            saved = h.token
            h.act({'type': 'next'})
            continue
        saved = h.token
        h.act(random.Random(len(h.actions)).choice([a for a in h.legal if a['type'] == 'capture']))
    lives = h.state['lives']
    r = d.post(ACTION, {'stateToken': saved, 'action': {'type': 'reset'}})
    t.ok(h.state['lastResult'] == 'stuck' and r.status in (409, 422) and
         d.post('/api/games/duskcourt/state', {'stateToken': h.token}).json['state']['lives'] == lives,
         'a lost life cannot be undone with the token from before it')

    # 20 concurrent actions on one token: exactly one applied.
    c = Player(d, seed=31337)
    tok = c.token
    results = []
    lock = threading.Lock()

    def shoot(a):
        r = d.post(ACTION, {'stateToken': tok, 'action': a})
        with lock:
            results.append((r.status, json.dumps(r.json.get('state')) if r.json else None, a))
    caps = [a for a in c.legal if a['type'] == 'capture']
    ths = [threading.Thread(target=shoot, args=(caps[i % len(caps)],)) for i in range(20)]
    [th.start() for th in ths]
    [th.join() for th in ths]
    oks = [x for x in results if x[0] == 200]
    t.eq(stored_moves(d, c.run), 1, '20 concurrent actions on one token: exactly one stored')
    t.ok(len(oks) >= 1 and len({x[1] for x in oks}) == 1 and len({json.dumps(x[2]) for x in oks}) == 1,
         'every 200 among them is the one applied action (or its retry)')
    t.ok(all(x[0] in (200, 409) for x in results), 'the others are 409 stale')

    # ---- state (by GET and POST, and without a token: tests/e2e/test_games.py)
    r = d.get('/api/games/duskcourt/state?stateToken=' + g0)
    t.ok(r.status == 409 and r.json['state'] == r5.json['state'], 'state with an old token: 409 with the current state')

    # ---- finish rules (finish while playing: tests/e2e/test_games.py)
    for body, what in [({'rating': 0, 'review': 'x'}, 'rating 0'), ({'rating': 11, 'review': 'x'}, 'rating 11'),
                       ({'rating': 5.5, 'review': 'x'}, 'rating 5.5'), ({'rating': '5', 'review': 'x'}, 'rating "5"'),
                       ({'review': 'x'}, 'no rating'), ({'rating': 5}, 'no review'),
                       ({'rating': 5, 'review': ''}, 'an empty review'),
                       ({'rating': 5, 'review': 'x' * 2001}, 'a review of 2001 characters'),
                       ({'rating': 5, 'review': 7}, 'a review that is not a string')]:
        body['stateToken'] = p.token
        r = d.post('/api/games/duskcourt/finish', body)
        t.ok(r.status == 400 and r.error_code == 'invalid_request', 'finish refuses %s with 400' % what)
    e = Player(d, seed=5)
    e.act(e.legal[0])
    while e.state['phase'] == 'playing':
        e.act(e.legal[0])
    e.act({'type': 'endRun'})
    r = d.post('/api/games/duskcourt/finish', {'stateToken': e.token, 'rating': 10,
                                               'review': '\u00e9' * 2000})
    t.ok(r.status == 200 and r.json['review']['rating'] == 10,
         'a run ended with endRun finishes; a review of 2000 two-byte characters is accepted')

    # ---- rules
    r = d.get('/api/games/duskcourt/rules')
    t.ok(r.status == 200 and r.json['rules'] == 'duskcourt-v1' and len(r.json['ladder']) >= 11 and
         r.json['ladder'][8] == {'rung': 9, 'size': 6, 'idols': 8, 'minDecoys': 2, 'kingSurvives': True,
                                 'boulders': 0},
         'rules answer the ladder table and the grammar')

    # ---- a restart in the middle of a run
    m = Player(d, seed=77)
    m.act(m.legal[0])
    second = m.legal[0]
    twin = Player(d, seed=77)
    twin.act(m.actions[0])
    twin.act(second)
    d.restart()
    r = d.post(ACTION, {'stateToken': m.token, 'action': second})
    t.ok(r.status == 200 and r.json['state'] == twin.state,
         'after a restart the run continues from its latest token, as if nothing happened')
finally:
    d.cleanup()

# ---- the agent check, when the operator turns it on for Duskcourt
d = Daemon(args=['--agent-check', 'duskcourt=on'])
try:
    r = d.get('/api/games/duskcourt/init?seed=3')
    ac = r.json.get('agent_check') if r.json else None
    t.ok(r.status == 200 and ac and ac['token'].startswith('ac_'), 'with the check on, init carries a puzzle')
    r2 = d.post(ACTION, {'stateToken': r.json['stateToken'], 'action': r.json['legalActions'][0]})
    t.ok(r2.status == 428 and r2.error_code == 'agent_check_required' and r2.json['agent_check']['token'] != ac['token'],
         'an action without an answer: 428 with a fresh puzzle')
    r3 = d.post(ACTION, {'stateToken': r.json['stateToken'], 'action': r.json['legalActions'][0],
                         'agent_check': ac['token'], 'agent_answer': -12345})
    t.ok(r3.status == 428 and 'wrong' in r3.json['error']['message'], 'a wrong answer: 428')
    r4 = d.post(ACTION, {'stateToken': r.json['stateToken'], 'action': r.json['legalActions'][0],
                         'agent_check': ac['token'], 'agent_answer': -12345})
    t.ok(r4.status == 428 and 'used' in r4.json['error']['message'], 'a spent puzzle: 428')
    t.eq(d.sql('SELECT count(*) FROM moves')[0][0], 0, 'nothing moved without a right answer')
finally:
    d.cleanup()

t.done()
