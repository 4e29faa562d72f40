"""Wells over HTTP, end to end: bots against the perfect supplier.

The bots: a random one, a greedy one (fullest rows, then lowest), a
hole-avoiding one, and the solved bot, which asks tests/wells/wells_oracle
(the engine's value table, built in that process, apart from the daemon's)
for the landing of least value. On 4 x 4, which the supplier wins, no bot
completes a row in 1,000 pieces and more. On 4 x 5, the smallest well the
player wins, the solved bot completes a row in exactly the number of
landings the solver gives the empty well, and no bot ever completes one
sooner. Then: every answer's shape, refusals that change nothing, the
solved run's finish, certificate claims and replay (forged ones refused),
and the leaderboard of one well (?seed=100W+H). The cycle every game
shares (verification of a whole run, boards) is tests/e2e/test_games.py.
"""
import base64
import json
import os
import random
import subprocess
import time

from harness import Daemon, Tap

t = Tap()
WL = '/api/games/wells/'
STATE_KEYS = {'width', 'height', 'well', 'current', 'pieces', 'line_in', 'status', 'end_reason', 'board_text'}
ANSWER_KEYS = {'game', 'runId', 'stateToken', 'state', 'legalActions'}
ORACLE = os.environ.get('WELLS_ORACLE')


class Oracle:
    def __init__(self):
        self.p = subprocess.Popen([ORACLE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, line):
        self.p.stdin.write(line + '\n')
        self.p.stdin.flush()
        return self.p.stdout.readline().strip()

    def value(self, w, h, rows):
        """The well's value as the state shows it: None for never."""
        v = int(self.ask('value %d %d %s' % (w, h, ' '.join(map(str, rows)))))
        return None if v == 255 else v

    def best(self, w, h, piece, rows):
        return self.ask('best %d %d %s %s' % (w, h, piece, ' '.join(map(str, rows)))).split()

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def rows_of(state):
    """The well proper's rows as bit masks, top first."""
    return [sum(1 << c for c, ch in enumerate(row) if ch != '.') for row in state['well'][4:]]


class Run:
    def __init__(self, d, width, height):
        self.d, self.width, self.height = d, width, height
        r = d.post(WL + 'init', {'width': width, 'height': height})
        assert r.status == 200, r
        self.run = r.json['runId']
        self.problems = []
        self.line_ins = []
        self.take(r)

    def take(self, r):
        body = r.json
        if set(body) - {'agent_check'} != ANSWER_KEYS or body['game'] != 'wells' or body['runId'] != self.run:
            self.problems.append('answer keys %r' % sorted(body))
        self.token, self.state, self.legal = body['stateToken'], body['state'], body['legalActions']
        if set(self.state) != STATE_KEYS:
            self.problems.append('state keys %r' % sorted(self.state))
        self.line_ins.append(self.state['line_in'])

    def act(self, action_id):
        r = self.d.post(WL + 'action', {'stateToken': self.token, 'action': action_id})
        if r.status != 200:
            self.problems.append('action %s: %d %s' % (action_id, r.status, r.body[:200]))
            return False
        self.take(r)
        return True

    def play(self, bot):
        while self.state['status'] == 'playing' and not self.problems:
            self.act(bot(self))
        return self


def greedy(run):
    rows = rows_of(run.state)

    def score(a):
        after = list(rows)
        for y, x in a['cells']:
            after[y - 4] |= 1 << x
        return (a['line'], sum(bin(r).count('1') ** 2 for r in after), a['y'])
    return max(run.legal, key=score)['id']


def flat(run):
    """Avoids covering empty cells; then lowest."""
    rows = rows_of(run.state)

    def holes(a):
        cells = {(y, x) for y, x in a['cells']}
        n = 0
        for y, x in cells:
            below = y + 1
            if below - 4 < run.height and (below, x) not in cells and not (rows[below - 4] >> x & 1):
                n += 1
        return (a['line'], -n, a['y'])
    return max(run.legal, key=holes)['id']


def randomly(seed):
    rng = random.Random(seed)
    return lambda run: rng.choice(run.legal)['id']


def solved(oracle):
    def bot(run):
        got = oracle.best(run.width, run.height, run.state['current'], rows_of(run.state))
        return got[0]
    return bot


def certificate_claims(cert):
    body = cert[len('v4.public.'):].split('.')[0]
    raw = base64.urlsafe_b64decode(body + '=' * (-len(body) % 4))
    return json.loads(raw[:-64])


def action_micros(d):
    """The microseconds of every answered POST .../wells/action in the log."""
    out = []
    for line in d.read_log().splitlines():
        if 'POST /api/games/wells/action 200' in line:
            for word in line.split():
                if word.endswith('us') and word[:-2].isdigit():
                    out.append(int(word[:-2]))
    return out


oracle = Oracle()
d = Daemon()
try:
    # ---- the rules, and the wells served
    r = d.get(WL + 'rules')
    t.ok(r.status == 200 and r.json['rules'] == 'wells-v1' and
         [(s['width'], s['height'], s['seed']) for s in r.json['sizes']] ==
         [(4, 4, 404), (4, 5, 405), (4, 6, 406), (6, 4, 604)] and r.json['agentCheck'] is False,
         'rules: wells-v1 serves 4x4, 4x5, 4x6 and 6x4, seeds 100W+H, the agent check off')

    # ---- bad inits: a clear error, nothing stored
    before = d.sql('SELECT count(*) FROM runs')[0][0]
    for body, why in (({'width': 5, 'height': 5}, 'a well not served'), ({'width': 6, 'height': 5}, '6 x 5'),
                      ({'width': 3}, 'a width under 4'), ({'height': 9}, 'a height over 6'),
                      ({'seed': 405}, 'a seed'), ({'width': 'four'}, 'a width that is no number'),
                      ({'depth': 2}, 'an option of another game')):
        r = d.post(WL + 'init', body)
        t.ok(r.status == 400 and r.error_code == 'invalid_request' and r.json['error']['message'],
             'init with %s: 400 invalid_request (%s)' % (why, r.json['error']['message'] if r.json else r.body))
    t.eq(d.sql('SELECT count(*) FROM runs')[0][0], before, 'the refused inits stored no run')

    # ---- a run's shape
    run = Run(d, 4, 5)
    s = run.state
    t.ok(s['width'] == 4 and s['height'] == 5 and s['well'] == ['....'] * 9 and s['pieces'] == 0 and
         s['status'] == 'playing' and s['end_reason'] is None and s['current'] in 'OIJLSTZ' and
         not run.problems, 'init 4 x 5: the empty well (9 rows with the buffer), a piece, playing')
    rows = s['board_text'].split('\n')
    t.ok(len(rows) == 20 and all(len(x) == 10 for x in rows) and rows[11:] == ['....######'] * 9 and
         rows[:11] == ['#' * 10] * 11, 'board_text frames the well in a 10 x 20 board for the pages')
    t.eq(s['line_in'], oracle.value(4, 5, [0] * 5), 'line_in of the empty 4 x 5 well is the solver\'s value')
    t.ok(all(set(a) == {'id', 'rotation', 'x', 'y', 'cells', 'line'} and len(a['cells']) == 4 and
             a['id'] == 'r%dx%dy%d' % (a['rotation'], a['x'], a['y']) for a in run.legal) and run.legal,
         'legalActions: %d landings, each with its id, orientation, x, y, cells and line' % len(run.legal))

    # ---- refusals change nothing
    tok = run.token
    for bad, code in (('r9x9y9', 'illegal_action'), ('place 0 0', 'illegal_action'), (7, 'illegal_action')):
        r = d.post(WL + 'action', {'stateToken': tok, 'action': bad})
        t.ok(r.status == 422 and r.error_code == code and r.json['stateToken'] == tok and
             r.json['state'] == s, 'action %r: 422 %s with the run unchanged' % (bad, code))
    r = d.post(WL + 'action', {'stateToken': tok})
    t.ok(r.status == 400 and r.error_code == 'invalid_request', 'an action without "action": 400')
    r = d.post(WL + 'state', {'stateToken': tok})
    t.ok(r.status == 200 and r.json['state'] == s and r.json['stateToken'] == tok, 'state: the run unchanged')

    # ---- 4 x 4: the supplier wins; no bot completes a row in 1,000 pieces
    bots = [('random', randomly(1)), ('greedy', greedy), ('flat', flat), ('solved', solved(oracle))]
    total, lines, runs, bad = 0, 0, 0, []
    for name, bot in bots:
        n = 0
        while n < 260:
            q = Run(d, 4, 4).play(bot)
            bad += q.problems
            runs += 1
            n += q.state['pieces']
            lines += q.state['end_reason'] == 'line'
            if q.state['line_in'] is not None or q.problems:
                bad.append('line_in %r on 4 x 4' % q.state['line_in'])
            if q.problems:
                break
        total += n
    t.ok(not bad and total >= 1000 and lines == 0,
         '4 x 4: %d runs of four bots (random, greedy, flat, solved), %d pieces, %d lines' %
         (runs, total, lines))
    if bad:
        t.diag(bad[:3])

    # ---- 4 x 5: the player wins; the solved bot in exactly the solver's value, no bot sooner
    v = oracle.value(4, 5, [0] * 5)
    q = Run(d, 4, 5).play(solved(oracle))
    t.ok(not q.problems and q.state['end_reason'] == 'line' and q.state['pieces'] == v and
         q.line_ins == list(range(v, -1, -1)),
         '4 x 5: the solved bot completes a row in exactly %d landings (the solver\'s value), line_in '
         'counting down %r' % (v, q.line_ins))
    solved_run = q
    earliest, nlines, nruns, bad = None, 0, 0, []
    for name, bot in [('random %d' % i, randomly(100 + i)) for i in range(40)] + \
            [('greedy', greedy), ('flat', flat), ('solved', solved(oracle))]:
        q = Run(d, 4, 5).play(bot)
        bad += q.problems
        nruns += 1
        if q.state['end_reason'] == 'line':
            nlines += 1
            earliest = q.state['pieces'] if earliest is None else min(earliest, q.state['pieces'])
    t.ok(not bad and nlines >= 1 and earliest == v,
         '4 x 5: %d runs, %d with a line, none sooner than %d landings (the earliest: %r)' %
         (nruns, nlines, v, earliest))

    # ---- finish, certificate, replay (what every game shares, the replay and
    # its certificate verified among them: tests/e2e/test_games.py)
    r = d.post(WL + 'finish', {'stateToken': solved_run.token, 'rating': 9, 'review': 'Three landings, no fewer.'})
    fj = r.json or {}
    t.ok(r.status == 200 and fj['final']['lines'] == 1 and fj['final']['pieces'] == v and
         fj['final']['end_reason'] == 'line' and fj['final']['seed'] == 405 and
         fj['certificate'].startswith('v4.public.'), 'finish: the final summary (seed 405) and a certificate')
    cert = fj['certificate']
    claims = certificate_claims(cert)
    page = d.get(WL + 'runs/' + solved_run.run).json
    rep = page['replay']
    t.ok(claims['game'] == 'wells' and claims['rules'] == 'wells-v1' and claims['seed'] == 405 and
         claims['width'] == 4 and claims['height'] == 5 and claims['lines'] == 1 and
         claims['pieces'] == v and claims['end_reason'] == 'line',
         'the certificate claims the well, the line and the pieces')
    t.ok(rep['seed'] == 405 and rep['width'] == 4 and rep['height'] == 5 and len(rep['actions']) == v and
         rep['final']['lines'] == 1, 'the replay: seed 405, the well, %d landing ids, the final' % v)
    forged = json.loads(json.dumps(rep))
    forged['actions'][0] = run.legal[-1]['id'] if run.legal[-1]['id'] != rep['actions'][0] else run.legal[0]['id']
    r = d.post(WL + 'replays/verify', forged)
    t.ok(r.status == 422 and r.error_code == 'invalid_replay', 'a replay with another first landing does '
         'not verify: 422 invalid_replay (%s)' % r.json['error']['message'])
    forged = json.loads(json.dumps(rep))
    forged['seed'] = 406
    r = d.post(WL + 'replays/verify', forged)
    t.ok(r.status == 422 and r.error_code == 'invalid_replay',
         'nor one whose seed is not its well (%s)' % r.json['error']['message'])
    steps = d.get(WL + 'runs/' + solved_run.run + '/steps')
    t.ok(steps.status == 200 and len(steps.json['steps']) == v + 1 and
         all(len(x['view']['state']['board_text']) == 219 for x in steps.json['steps']),
         'the run\'s steps: the start and each landing, each with its framed board')

    # ---- the leaderboard of one well: a line first, then fewer pieces; no line: more pieces
    b = d.get(WL + 'leaderboard?seed=405&limit=100')
    got = [(e['lines'], e['pieces']) for e in b.json['entries']]
    t.ok(b.status == 200 and got and got[0] == (1, v) and
         got == sorted(got, key=lambda e: (-e[0], e[1] if e[0] else -e[1])),
         'leaderboard?seed=405: %d runs, a line before no line, fewer pieces first among lines' % len(got))
    b4 = d.get(WL + 'leaderboard?seed=404&limit=100')
    t.ok(b4.status == 200 and b4.json['entries'] and all(e['lines'] == 0 and e['seed'] == 404
                                                          for e in b4.json['entries']),
         'leaderboard?seed=404: the 4 x 4 runs alone, none with a line')

    # ---- the two bigger wells: their tables are built at their first init
    firsts = []
    for w, h in ((4, 6), (6, 4)):
        t0 = time.monotonic()
        a = Run(d, w, h)
        t1 = time.monotonic()
        b = Run(d, w, h).play(greedy)
        t2 = time.monotonic()
        firsts.append('%dx%d: first init %.0f ms, then a whole greedy run of %d landings in %.0f ms' %
                      (w, h, (t1 - t0) * 1e3, b.state['pieces'], (t2 - t1) * 1e3))
        t.ok(not a.problems and not b.problems and a.state['line_in'] == oracle.value(w, h, [0] * h) and
             b.state['status'] == 'over', '%d x %d: init and a greedy run; line_in %r as the solver says' %
             (w, h, a.state['line_in']))
    t.diag('; '.join(firsts))

    # ---- figures
    us = sorted(action_micros(d))
    if us:
        t.diag('wells actions: %d, median %d us, p99 %d us, max %d us (the daemon\'s log)' %
               (len(us), us[len(us) // 2], us[int(len(us) * 0.99)], us[-1]))
finally:
    d.stop()
    oracle.close()
t.done()
