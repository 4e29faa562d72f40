"""Stackfall over HTTP, end to end, in both route shapes: games to the end
with a simple policy (scores checked against the rules, pieces against
arcaded stream), the piece limit, top-out, resign, hold, batches, the agent
check on every guarded route, bad input, and a restart. The cycle every
game shares (finish, replay, certificate, boards) is tests/e2e/test_games.py."""
import json
import subprocess
import threading
import time

from harness import Daemon, Tap, binary, checked, puzzle_answer

t = Tap()
TOKEN_ROUTES = '/api/games/stackfall/'
SEED_ROUTES = '/games/stackfall/api/'
FIELDS = ['game', 'runId', 'stateToken', 'status', 'end_reason', 'score', 'lines', 'level', 'pieces',
          'current', 'next', 'hold', 'can_hold', 'combo', 'back_to_back', 'board_text', 'results',
          'agent_check']


def stream(seed, n):
    return subprocess.run([binary(), 'stream', str(seed), str(n)], capture_output=True,
                          check=True).stdout.decode().strip()


class Rules:
    """Stackfall's scoring, from docs/rules/stackfall.md, fed one placement at a time."""

    def __init__(self):
        self.score = 0
        self.lines = 0
        self.combo = -1
        self.b2b = False

    def placed(self, n, empty_after):
        level = 1 + self.lines // 10
        base = [0, 100, 300, 500, 800][n] * level
        tetris_b2b = n == 4 and self.b2b
        if tetris_b2b:
            base = 1200 * level
        self.combo = self.combo + 1 if n > 0 else -1
        bonus = 50 * self.combo * level if self.combo >= 1 else 0
        perfect = 0
        if n > 0 and empty_after:
            perfect = (3200 if tetris_b2b else [800, 1200, 1800, 2000][n - 1]) * level
        if n > 0:
            self.b2b = n == 4
        self.score += base + bonus + perfect
        self.lines += n


def pick(options, worst=False):
    key = lambda o: (o['holes'], o['max_height'], o['bumpiness'], -o['lines'])
    return (max if worst else min)(options, key=key)


class Game:
    """One game through either route shape, checking every answer."""

    def __init__(self, d, shape, key=None, seed=None, check=True):
        self.d = d
        self.shape = shape
        self.key = key
        self.check = check
        self.problems = []
        self.rules = Rules()
        body = {} if seed is None else {'seed': seed}
        if shape == 'token':
            r = d.post(TOKEN_ROUTES + 'init', body, headers=self.auth())
        else:
            r = d.post(SEED_ROUTES + 'new', body, headers=self.auth())
        self.last = r
        if r.status != 200:
            raise RuntimeError('new game: %r' % r)
        self.seen = [r.json['current']] + r.json['next']
        self.token = r.json['stateToken']
        self.run = r.json['runId']
        self.drawn = 1
        self.holds = 0

    def auth(self):
        return {'Authorization': 'Bearer ' + self.key} if self.key else {}

    def headers(self):
        return checked(self.d, self.last, self.auth()) if self.check else self.auth()

    def send(self, command=None, action=None, expect=200):
        body = {}
        if command is not None:
            body['command'] = command
        if action is not None:
            body['action'] = action
        if self.shape == 'token':
            body['stateToken'] = self.token
            r = self.d.post(TOKEN_ROUTES + 'action', body, headers=self.headers())
        else:
            r = self.d.post(SEED_ROUTES + 'act', body, headers=self.headers())
        if r.status != expect:
            self.problems.append('%r -> %d %s' % (body, r.status, r.body[:300]))
        if isinstance(r.json, dict) and r.json.get('agent_check'):
            self.last = r
        if r.status == 200:
            self.token = r.json['stateToken']
        return r

    def observe_draws(self, before, after, draws):
        """Appends the pieces that entered the preview."""
        if draws:
            self.seen += after['next'][3 - draws:]

    def place_with(self, choose):
        """options, then the chosen placement: checks score and stream."""
        r = self.send('options')
        if r.status != 200:
            return None
        before_hold = r.json
        opts = r.json['results'][0]['options']
        if not opts:
            # No placement for this piece, but the game goes on: hold gives one.
            r = self.send('hold')
            if r.status == 200 and r.json['status'] == 'playing':
                self.observe_draws(before_hold, r.json, 1 if before_hold['hold'] is None else 0)
                self.holds += 1
            return r.json if r.status == 200 else None
        o = choose(opts)
        before = r.json
        r = self.send('place %d %d' % (o['rotation'], o['column']))
        if r.status != 200:
            return None
        after = r.json
        n = after['lines'] - before['lines']
        if n != o['lines']:
            self.problems.append('options said %d lines, the placement cleared %d' % (o['lines'], n))
        empty = set(after['board_text']) <= {'.', '\n'}
        self.rules.placed(n, empty)
        if after['score'] != self.rules.score:
            self.problems.append('score %d after %d pieces, the rules say %d' %
                                 (after['score'], after['pieces'], self.rules.score))
        if after['level'] != 1 + after['lines'] // 10:
            self.problems.append('level %d with %d lines' % (after['level'], after['lines']))
        if after['combo'] != self.rules.combo or after['back_to_back'] != self.rules.b2b:
            self.problems.append('combo/back_to_back differ from the rules')
        if after['status'] == 'playing':
            self.observe_draws(before, after, 1)
        return after


# arcaded stream: what a bot author checks a seed with.
t.eq(stream(42, 21), 'TIZJSOLTJLSOIZLJOSIZT', 'arcaded stream 42 21 prints the fixture of docs/stream.md')
p = subprocess.run([binary(), 'stream', '42', 'x'], capture_output=True, text=True)
t.ok(p.returncode == 2 and 'COUNT' in p.stderr, 'arcaded stream refuses a bad COUNT: %s' % p.stderr.strip())

d = Daemon()
try:
    # Accounts for the seed routes.
    key = d.post('/api/v1/accounts', {'name': 'stacker'}).json['agentKey']
    key2 = d.post('/api/v1/accounts', {'name': 'stacker2'}).json['agentKey']

    # ---- a game to the 150-piece limit through the token routes
    g = Game(d, 'token', seed=42)
    r = g.last
    t.eq(list(r.json), FIELDS, 'init answers exactly the fields of docs/rules/stackfall.md, in order')
    t.ok(r.json['status'] == 'playing' and r.json['pieces'] == 0 and r.json['combo'] == -1 and
         r.json['hold'] is None and r.json['can_hold'] is True and r.json['results'] == [] and
         len(r.json['board_text']) == 20 * 11 - 1, 'a new game: playing, empty board, nothing held')
    t.ok('seed' not in r.body and '"42"' not in r.body, 'the seed appears nowhere in a playing game\'s answer')
    while g.last.json['status'] == 'playing' and not g.problems:
        if g.place_with(pick) is None:
            break
    end = g.last.json if g.last.status == 200 else {}
    r = g.send('options', expect=422)
    t.eq(g.problems[:-1] if r.status == 422 else g.problems, [],
         'a whole game by the token routes agrees with the scoring rules at every placement')
    st_r = d.post(TOKEN_ROUTES + 'state', {'stateToken': g.token}, headers=checked(d, r))
    state = st_r.json
    t.ok(state['status'] == 'over' and state['end_reason'] == 'piece_limit' and state['pieces'] == 150,
         'the game ends at the 150-piece limit (%s, %s pieces)' % (state['end_reason'], state['pieces']))
    t.eq(''.join(g.seen[:150]), stream(42, 150)[:len(g.seen[:150])],
         'the pieces dealt are arcaded stream 42 150')
    t.ok(r.status == 422 and r.error_code == 'game_over', 'after the end every command is refused: game_over')
    t.ok(state['can_hold'] is False, 'can_hold is false after the end')
    # (Finish by the token routes, once, and the replay, certificate and
    # boards after it: tests/e2e/test_games.py, for every game.)

    # ---- the seed's own routes: a game to the end with the same policy
    s = Game(d, 'seed', key=key, seed=7)
    while s.last.json.get('status') == 'playing' and not s.problems:
        if s.place_with(pick) is None:
            break
    t.eq(s.problems, [], 'a whole game by the seed routes agrees with the rules')
    st = d.get(SEED_ROUTES + 'state', headers=s.headers())
    t.ok(st.status == 200 and st.json['status'] == 'over' and st.json['pieces'] == 150,
         'GET /games/stackfall/api/state answers the account\'s game')
    fin = d.post(SEED_ROUTES + 'finish', {'rating': 9, 'review': 'Seed-style finish.'},
                 headers=checked(d, st, s.auth()))
    t.ok(fin.status == 200 and fin.json['certificate'].startswith('v4.public.'),
         'POST /games/stackfall/api/finish finishes the latest run')

    # ---- top-out: the worst placement every time
    w = Game(d, 'token', seed=5)
    while w.last.json.get('status') == 'playing' and not w.problems:
        if w.place_with(lambda o: pick(o, worst=True)) is None:
            break
    st = w.last.json
    t.ok(st['status'] == 'over' and st['end_reason'] == 'top_out' and st['pieces'] < 150,
         'stacking high tops out (%s after %d pieces)' % (st['end_reason'], st['pieces']))
    t.eq(w.problems, [], 'the top-out game agrees with the rules')

    # ---- resign
    rs = Game(d, 'seed', key=key2)
    r = rs.send('place 0 0; resign')
    t.ok(r.status == 200 and r.json['status'] == 'over' and r.json['end_reason'] == 'resigned' and
         r.json['pieces'] == 1, 'resign ends the game at once, keeping what was placed')

    # ---- hold rules
    h = Game(d, 'token', seed=42)
    first = h.last.json
    r = h.send('hold')
    t.ok(r.status == 200 and r.json['hold'] == first['current'] and r.json['current'] == first['next'][0] and
         r.json['can_hold'] is False, 'hold into an empty slot takes the next piece')
    r2 = h.send('hold', expect=422)
    t.ok(r2.status == 422 and r2.error_code == 'invalid_command' and 'hold' in r2.json['error']['message'],
         'a second hold for the same piece is refused')
    t.ok(r2.json['stateToken'] == h.token and r2.json['hold'] == r.json['hold'],
         'the refused hold changed nothing and answers the same token')
    r3 = h.send('place 1 0')
    r4 = h.send('hold')
    t.ok(r4.status == 200 and r4.json['hold'] == r3.json['current'] and r4.json['current'] == r.json['hold'],
         'after a placement, hold swaps the current and held pieces')
    r5 = h.send(action={'type': 'place', 'rotation': 1, 'column': 3})
    t.ok(r5.status == 200 and r5.json['pieces'] == 2, 'a structured action places too')

    # ---- batches
    b = Game(d, 'token', seed=11)
    r = b.send('place 0 0\nplace 1 7;  preview 0 3 ;options;; hold')
    t.ok(r.status == 200 and [x['ok'] for x in r.json['results']] == [True] * 5 and r.json['pieces'] == 2,
         'several commands run in order, new lines and semicolons both separate, empty ones skipped')
    pv = r.json['results'][2]['preview']
    t.ok(set(pv) == {'board_text', 'lines', 'holes', 'max_height', 'bumpiness'}, 'preview answers its board and figures')
    t.ok(len(r.json['results'][3]['options']) > 0 and
         set(r.json['results'][3]['options'][0]) == {'rotation', 'column', 'command', 'lines', 'holes',
                                                     'max_height', 'bumpiness'}, 'options answer their list')
    pieces = r.json['pieces']
    r = b.send('place 1 0; place 9 9; place 1 4', expect=200)
    t.ok(r.status == 200 and [x['ok'] for x in r.json['results']] == [True, False] and
         r.json['pieces'] == pieces + 1 and 'rotation' in r.json['results'][1]['message'],
         'a batch failing in the middle keeps what ran before and stops there')
    tok = b.token
    r = b.send('place 8 8; place 1 0', expect=422)
    t.ok(r.status == 422 and r.error_code == 'invalid_command' and len(r.json['results']) == 1 and
         r.json['stateToken'] == tok, 'a batch failing at its first command: 422, nothing changed')
    r = b.send(';'.join(['options'] * 51), expect=422)
    t.ok(r.status == 422 and r.error_code == 'too_many_commands', 'the 51st command is refused, whole')
    r = b.send(';'.join(['options'] * 50))
    t.ok(r.status == 200 and len(r.json['results']) == 50, '50 commands are accepted')
    t.eq(r.json['stateToken'], tok, 'options and preview alone do not advance the run: the token stays newest')
    r = b.send(' ; \n ;', expect=422)
    t.ok(r.status == 422 and r.error_code == 'empty_command', 'no command at all: 422 empty_command')
    for cmd, what in [('jump 1 2', 'an unknown command'), ('place 4 0', 'rotation out of range'),
                      ('place 0 10', 'column out of range'), ('place a b', 'non-numeric arguments'),
                      ('place -1 2', 'a sign'), ('place 1', 'a missing column'), ('place 1 2 3', 'an extra word'),
                      ('preview 0 99', 'preview out of range')]:
        r = b.send(cmd, expect=422)
        t.ok(r.status == 422 and r.error_code == 'invalid_command' and r.json['results'][0]['ok'] is False and
             r.json['stateToken'] == tok, '%s is refused with its reason: %s' %
             (what, r.json['error']['message'] if r.json else r.status))
    moves = d.sql('SELECT count(*) FROM moves WHERE run_id = ?', (int(b.run),))[0][0]
    t.eq(moves, 4, 'each applied command that changes the game is one stored move')

    # Retries and stale tokens.
    tok0 = b.token
    r1 = b.send('place 1 4')
    again = d.post(TOKEN_ROUTES + 'action', {'stateToken': tok0, 'command': '  PLACE 01 4 '},
                   headers=checked(d, r1))
    t.ok(again.status == 200 and again.json['board_text'] == r1.json['board_text'] and
         again.json['pieces'] == r1.json['pieces'], 'the same commands again once parsed (PLACE 01 4) are a retry')
    stale = d.post(TOKEN_ROUTES + 'action', {'stateToken': tok0, 'command': 'place 0 0'},
                   headers=checked(d, again))
    t.ok(stale.status == 409 and stale.error_code == 'stale_state_token' and
         stale.json['pieces'] == r1.json['pieces'] and stale.json['stateToken'] != tok0,
         'other commands on an older token: 409 with the game as it stands and its newest token')
    b.last = stale

    # ---- bad input
    r = d.post(TOKEN_ROUTES + 'action', {'stateToken': b.token}, headers=checked(d, stale))
    t.ok(r.status == 400 and 'command' in r.json['error']['message'], 'no command: 400 naming it')
    r = d.post(TOKEN_ROUTES + 'action', {'stateToken': b.token, 'command': 5}, headers=checked(d, stale))
    t.ok(r.status == 400, 'a command that is not a string: 400')
    r = d.request('POST', TOKEN_ROUTES + 'action', raw=b'{"stateToken": ', headers=checked(d, stale))
    t.ok(r.status == 400 and r.error_code == 'invalid_json', 'a body that is not JSON: 400')
    spent_probe = d.post(TOKEN_ROUTES + 'action', {'stateToken': b.token, 'command': 'options'},
                         headers=checked(d, stale))
    t.eq(spent_probe.status, 200, 'malformed requests before it did not spend the puzzle')
    b.last = spent_probe
    bad_tok = d.post(TOKEN_ROUTES + 'action', {'stateToken': 'v4.local.nope', 'command': 'options'},
                     headers=checked(d, spent_probe))
    t.ok(bad_tok.status == 400 and bad_tok.error_code == 'invalid_state_token' and 'agent_check' in bad_tok.json,
         'a damaged token: 400 (after the check, so it carries the next puzzle)')
    r = d.post(SEED_ROUTES + 'act', {'command': 'options'})
    t.ok(r.status == 401 and 'agent_check' not in r.json, 'the seed routes without a key: 401, with no puzzle')
    for body, what in [({'command': 5}, 'a command that is not a string'),
                       ({'command': 'options', 'action': {'type': 'hold'}}, 'both command and action'),
                       ({'command': 'options', 'agent_check': 7}, 'an agent_check that is not a string'),
                       ({'command': 'options', 'agent_answer': [1]}, 'an agent_answer that is a list')]:
        r = d.post(SEED_ROUTES + 'act', body, headers={'Authorization': 'Bearer arcd_bad'})
        t.ok(r.status == 400, 'a malformed body is a 400 even with a bad key (body before key): %s' % what)
    r = d.post(SEED_ROUTES + 'act', {'command': 'options'}, headers={'Authorization': 'Bearer arcd_nope'})
    t.ok(r.status == 401 and 'agent_check' not in r.json, 'a malformed key: 401, with no puzzle')
    dk = d.post('/api/v1/accounts', {'name': 'nogame'}).json['agentKey']
    r = d.get(SEED_ROUTES + 'state', headers=checked(d, bad_tok, {'Authorization': 'Bearer ' + dk}))
    t.ok(r.status == 409 and r.error_code == 'no_current_run', 'an account without a game: 409 no_current_run')
    # Duskcourt tokens are not Stackfall tokens.
    dc = d.get('/api/games/duskcourt/init?seed=1').json['stateToken']
    # (The puzzle r carries was issued to dk's account: only that key can use it.)
    r = d.post(TOKEN_ROUTES + 'action', {'stateToken': dc, 'command': 'options'},
               headers=checked(d, r, {'Authorization': 'Bearer ' + dk}))
    t.ok(r.status == 400 and 'another game' in r.json['error']['message'], 'a token of the other game: 400')

    # ---- the agent check on every guarded route
    n = Game(d, 'seed', key=key)
    guarded = [
        ('POST', TOKEN_ROUTES + 'action', {'stateToken': n.token, 'command': 'options'}, False),
        ('GET', TOKEN_ROUTES + 'state?stateToken=' + n.token, None, False),
        ('POST', TOKEN_ROUTES + 'state', {'stateToken': n.token}, False),
        ('POST', TOKEN_ROUTES + 'finish', {'stateToken': n.token, 'rating': 5, 'review': 'x'}, False),
        ('POST', SEED_ROUTES + 'act', {'command': 'options'}, True),
        ('GET', SEED_ROUTES + 'state', None, True),
        ('POST', SEED_ROUTES + 'finish', {'rating': 5, 'review': 'x'}, True),
    ]
    auth = {'Authorization': 'Bearer ' + key}
    for method, path, body, seed_route in guarded:
        r = d.request(method, path, body=body, headers=dict(auth))
        ac = r.json.get('agent_check') if r.json else None
        t.ok(r.status == 428 and r.error_code == 'agent_check_required' and ac and
             set(ac) == {'puzzle', 'token', 'expires_in'} and ac['expires_in'] > 590,
             '%s %s without an answer: 428 with a fresh puzzle' % (method, path.split('?')[0]))
        # (Its answer is read before the wrong one deletes the puzzle.)
        right = dict(auth, **{'X-Agent-Check': ac['token'], 'X-Agent-Answer': str(puzzle_answer(d, ac['token']))})
        wrong = dict(auth, **{'X-Agent-Check': ac['token'], 'X-Agent-Answer': '-1'})
        r2 = d.request(method, path, body=body, headers=wrong)
        t.ok(r2.status == 428 and 'wrong' in r2.json['error']['message'], '... a wrong answer: 428')
        r3 = d.request(method, path, body=body, headers=right)
        t.ok(r3.status == 428, '... the right answer to a puzzle already spent by a wrong one: 428')
        ac2 = r3.json['agent_check']
        ans = puzzle_answer(d, ac2['token'])
        r4 = d.request(method, path, body=body, headers=dict(auth, **{'X-Agent-Check': ac2['token'],
                                                                      'X-Agent-Answer': '%d.00' % ans}))
        t.ok(r4.status != 428, '... a right answer ("%d.00") passes (%d)' % (ans, r4.status))
        r5 = d.request(method, path, body=body, headers=dict(auth, **{'X-Agent-Check': ac2['token'],
                                                                      'X-Agent-Answer': str(ans)}))
        t.ok(r5.status == 428, '... and works once')
    # Body fields, numbers and numeric strings.
    fresh = d.get('/api/v1/agent-check').json['agent_check']
    r = d.post(SEED_ROUTES + 'act', {'command': 'options', 'agent_check': fresh['token'],
                                     'agent_answer': str(puzzle_answer(d, fresh['token']))}, headers=auth)
    t.eq(r.status, 200, 'the answer in the body as agent_check/agent_answer (a numeric string)')
    fresh = r.json['agent_check']
    r = d.post(SEED_ROUTES + 'act', {'command': 'options', 'agent_check': fresh['token'],
                                     'agent_answer': puzzle_answer(d, fresh['token'])}, headers=auth)
    t.eq(r.status, 200, 'the answer in the body as a JSON number')
    # A malformed request or a bad key does not spend the puzzle.
    fresh = r.json['agent_check']
    hdr = {'X-Agent-Check': fresh['token'], 'X-Agent-Answer': str(puzzle_answer(d, fresh['token']))}
    d.request('POST', SEED_ROUTES + 'act', raw=b'{oops', headers=dict(auth, **hdr))
    d.post(SEED_ROUTES + 'act', {'command': 'options'}, headers=dict(hdr, Authorization='Bearer arcd_bad'))
    d.post(SEED_ROUTES + 'act', {'command': 7}, headers=dict(auth, **hdr))
    r = d.post(SEED_ROUTES + 'act', {'command': 'options'}, headers=dict(auth, **hdr))
    t.eq(r.status, 200, 'a malformed body, a bad key or a command of the wrong type before it did not spend the puzzle')
    # The seed's routes ignore fields they do not know (its bots may send
    # more than the seed lists); the common fields' types are still checked.
    fresh = r.json['agent_check']
    hdr = {'X-Agent-Check': fresh['token'], 'X-Agent-Answer': str(puzzle_answer(d, fresh['token']))}
    r = d.post(SEED_ROUTES + 'act', {'command': 'options', 'note': 'thinking', 'extra': [1]},
               headers=dict(auth, **hdr))
    t.eq(r.status, 200, 'act with fields the seed does not list: they are ignored (%s)' % r.body[:80])
    fresh = r.json['agent_check']
    hdr = {'X-Agent-Check': fresh['token'], 'X-Agent-Answer': str(puzzle_answer(d, fresh['token']))}
    r = d.post(SEED_ROUTES + 'act', {'command': 'options', 'agent_check': 5}, headers=dict(auth, **hdr))
    t.eq(r.status, 400, 'a common field of the wrong type is still refused on the seed\'s routes')
    r = d.post(SEED_ROUTES + 'act', {'command': 'options'}, headers=dict(auth, **hdr))
    t.eq(r.status, 200, '... and did not spend the puzzle')
    # An answer that is no number at all is a malformed request: 400 with
    # "the answer is a number", on both shapes, in a header or the body,
    # and the puzzle is still there to answer.
    fresh = r.json['agent_check']
    words = [('POST', SEED_ROUTES + 'act', {'command': 'options'}, {'X-Agent-Answer': 'seventeen'}),
             ('GET', SEED_ROUTES + 'state', None, {'X-Agent-Answer': ''}),
             ('POST', TOKEN_ROUTES + 'action', {'stateToken': n.token, 'command': 'options'},
              {'X-Agent-Answer': '17 apples'}),
             ('POST', SEED_ROUTES + 'act', {'command': 'options', 'agent_check': fresh['token'],
                                            'agent_answer': 'seventeen'}, {}),
             ('POST', TOKEN_ROUTES + 'state', {'stateToken': n.token, 'agent_check': fresh['token'],
                                               'agent_answer': 'x17'}, {})]
    for method, path, body, extra in words:
        hdr = dict(auth, **extra)
        if extra:
            hdr['X-Agent-Check'] = fresh['token']
        r = d.request(method, path, body=body, headers=hdr)
        t.ok(r.status == 400 and r.error_code == 'invalid_request' and
             'the answer is a number' in r.json['error']['message'],
             '%s %s with a non-numeric answer (%r): 400 "the answer is a number"' %
             (method, path, extra.get('X-Agent-Answer', (body or {}).get('agent_answer'))))
    t.eq(d.sql('SELECT count(*) FROM agent_checks WHERE token = ?', (fresh['token'],))[0][0], 1,
         '... and none of them spent the puzzle')
    r = d.post(SEED_ROUTES + 'act', {'command': 'options'}, headers=dict(auth, **{
        'X-Agent-Check': fresh['token'], 'X-Agent-Answer': str(puzzle_answer(d, fresh['token']))}))
    t.eq(r.status, 200, '... which its right answer then passes')
    r2 = d.post(SEED_ROUTES + 'act', {'command': 'options'}, headers=dict(auth, **{
        'X-Agent-Check': r.json['agent_check']['token'], 'X-Agent-Answer': '17.5'}))
    t.ok(r2.status == 428 and 'wrong' in r2.json['error']['message'],
         'a number that is not whole (17.5) is still judged: a wrong answer, 428')
    r = r2
    # Expiry.
    fresh = r.json['agent_check']
    # Expired a second ago: inside the minute the retention sweep leaves an
    # expired puzzle alone (at 0 a sweep in between could delete it, and the
    # answer would be 'unknown', not 'expired').
    d.sql('UPDATE agent_checks SET expires_at = ? WHERE token = ?',
          (int(time.time() * 1000) - 1000, fresh['token']))
    r = d.post(SEED_ROUTES + 'act', {'command': 'options'}, headers=dict(auth, **{
        'X-Agent-Check': fresh['token'], 'X-Agent-Answer': str(puzzle_answer(d, fresh['token']))}))
    t.ok(r.status == 428 and 'expired' in r.json['error']['message'], 'an expired puzzle: 428')
    # Twenty parallel requests with one right answer: exactly one passes.
    fresh = r.json['agent_check']
    ans = str(puzzle_answer(d, fresh['token']))
    statuses = []
    lock = threading.Lock()

    def go():
        rr = d.post(SEED_ROUTES + 'act', {'command': 'options'}, headers=dict(auth, **{
            'X-Agent-Check': fresh['token'], 'X-Agent-Answer': ans}))
        with lock:
            statuses.append(rr.status)
    ths = [threading.Thread(target=go) for _ in range(20)]
    [x.start() for x in ths]
    [x.join() for x in ths]
    t.ok(statuses.count(200) == 1 and statuses.count(428) == 19,
         'twenty parallel requests with one right answer: exactly one passes (%s)' % sorted(statuses))

    # ---- new abandons the unfinished run; restart mid-game
    m = Game(d, 'seed', key=key2, seed=3)
    m.send('place 0 0')
    old = m.run
    m2 = Game(d, 'seed', key=key2, seed=3)
    row = d.sql('SELECT status, end_reason FROM runs WHERE id = ?', (int(old),))[0]
    t.eq(tuple(row), ('over', 'abandoned'), 'new ends the account\'s unfinished game as abandoned')
    boards = [d.get('/api/games/stackfall/leaderboard?limit=100').json,
              d.get('/api/games/stackfall/leaderboard?seed=3&limit=100').json]
    t.ok(all(old not in [e['runId'] for e in b['entries']] for b in boards),
         'an abandoned run is not ranked, with seed or without (issue 30)')
    m2.send('place 1 0')
    before = d.get(SEED_ROUTES + 'state', headers=m2.headers())
    m2.last = before
    d.restart()
    after = d.get(SEED_ROUTES + 'state', headers=m2.headers())
    t.ok(after.status == 200 and after.json['board_text'] == before.json['board_text'] and
         after.json['runId'] == m2.run, 'after a restart the account\'s game continues')
    m2.last = after
    r = m2.send('place 1 5')
    t.ok(r.status == 200 and r.json['pieces'] == 2, '... and takes its next command')

    # ---- rules
    r = d.get(SEED_ROUTES + 'rules')
    t.ok(r.status == 200 and r.json['rules'] == 'stackfall-v1' and len(r.json['pieces']) == 7 and
         r.json['pieces']['I'][0]['columns'] == [0, 6] and 'agent_check' in r.json,
         'rules answer the pieces, their column ranges and a puzzle')
finally:
    d.cleanup()

t.done()
