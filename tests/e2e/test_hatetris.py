"""HATETRIS over HTTP, end to end.

The expected pieces come from tests/hatetris/data/hatetris_kat.txt, which
the naive model of tests/hatetris/naive.h wrote from the rule text alone:
each known-answer run is played here one command per request (and again in
batches), and the pieces the server supplies, its refusals, the final lines,
pieces and end must be the model's. Then: init options and their refusals,
422 refusals that change nothing, stale tokens and retries, depth 2, the
cap, replays of depth 2 and of a cap verified and damaged ones refused, the
leaderboard's order, and the seen-board table: written with every placement, and used
(a board planted in a run's history makes the supplier avoid the piece
that would rebuild it). The cycle every game shares (finish, certificate,
a whole run verified, boards) is tests/e2e/test_games.py.
"""
import json
import os
import re
import subprocess

from harness import Daemon, Tap, binary, verify_cli

t = Tap()
HT = '/api/games/hatetris/'
FIELDS = ['game', 'runId', 'stateToken', 'status', 'end_reason', 'lines', 'pieces', 'current', 'depth',
          'cap', 'board_text', 'results']
KAT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'hatetris', 'data', 'hatetris_kat.txt')


def load_kat():
    runs = []
    with open(KAT) as f:
        for line in f:
            if line.startswith('#') or not line.strip():
                continue
            depth, cap, supplied, lines, pieces, end, refused, commands = line.rstrip('\n').split('|')
            runs.append(dict(depth=int(depth), cap=int(cap), supplied=supplied, lines=int(lines),
                             pieces=int(pieces), end=end, refused=int(refused), commands=commands.split(';')))
    return runs


def board_key(board_text):
    """The 25-byte key of hatetris_board_key, from the text (top row first):
    cell (row r from the bottom, column c) is bit 10r + c."""
    key = bytearray(25)
    rows = board_text.split('\n')
    for i, row in enumerate(rows):
        r = len(rows) - 1 - i
        for c, ch in enumerate(row):
            if ch != '.':
                bit = 10 * r + c
                key[bit // 8] |= 1 << (bit % 8)
    return bytes(key)



class Run:
    """One HATETRIS run through the token routes, keeping what it saw."""

    def __init__(self, d, depth=1, cap=0):
        self.d = d
        q = []
        if depth != 1:
            q.append('depth=%d' % depth)
        if cap:
            q.append('cap=%d' % cap)
        r = d.get(HT + 'init' + ('?' + '&'.join(q) if q else ''))
        if r.status != 200:
            raise RuntimeError('init: %r' % r)
        self.last = r
        self.token = r.json['stateToken']
        self.run = r.json['runId']
        self.supplied = r.json['current']
        self.refused = 0
        self.problems = []

    def send(self, command=None, action=None):
        body = {'stateToken': self.token}
        if command is not None:
            body['command'] = command
        if action is not None:
            body['action'] = action
        before = self.last.json
        r = self.d.post(HT + 'action', body)
        if r.status == 200:
            placed = r.json['pieces'] - before['pieces']
            if placed == 0 and r.json['stateToken'] != self.token:
                self.problems.append('%r changed nothing but answered a new token' % command)
            # The supplied pieces: one per placement, each message names it.
            for res in r.json['results']:
                m = re.match(r'placed .*; next piece ([IOTSZJL])', res['message'])
                if res['ok'] and m:
                    self.supplied += m.group(1)
            if not self.supplied.endswith(r.json['current']):
                self.problems.append('the last message and current disagree after %r' % command)
            self.token = r.json['stateToken']
            self.last = r
        elif r.status == 422:
            self.refused += 1
            same = {k: r.json.get(k) for k in FIELDS[3:11]} == {k: before.get(k) for k in FIELDS[3:11]}
            if r.json.get('stateToken') != self.token or not same:
                self.problems.append('the refusal of %r changed something' % command)
        else:
            self.problems.append('%r -> %d %s' % (command, r.status, r.body[:200]))
        return r


def check_kat(d, k, name, batch=1, refusing=()):
    g = Run(d, k['depth'], k['cap'])
    pending = []
    for c in k['commands']:
        if c in refusing:
            if pending:
                g.send('; '.join(pending))
                pending = []
            g.send(c)
            continue
        pending.append(c)
        if len(pending) >= batch:
            g.send('; '.join(pending))
            pending = []
    if pending:
        g.send('; '.join(pending))
    st = g.last.json
    t.eq(g.supplied, k['supplied'], '%s: the pieces supplied are the model\'s' % name)
    t.eq((st['lines'], st['pieces'], st['end_reason'] or 'playing', g.refused),
         (k['lines'], k['pieces'], k['end'], k['refused']),
         '%s: lines, pieces, end and refusals are the model\'s' % name)
    t.eq(g.problems, [], '%s: every answer consistent (refusals change nothing, tokens move only on a move)'
         % name)
    return g


kats = load_kat()
d = Daemon()
try:
    # ---- init
    r = d.get(HT + 'init')
    t.eq(list(r.json), FIELDS, 'init answers exactly the documented fields, in order')
    t.ok(r.status == 200 and r.json['current'] == 'S' and r.json['depth'] == 1 and r.json['cap'] is None and
         r.json['status'] == 'playing' and r.json['end_reason'] is None and r.json['lines'] == 0 and
         r.json['pieces'] == 0 and r.json['results'] == [] and
         r.json['board_text'] == '\n'.join(['.' * 10] * 20),
         'a new run: the empty board, and S first (the rules page works it out)')
    t.ok('agent_check' not in r.json and 'next' not in r.json and 'hold' not in r.json,
         'no agent_check (off by default), no next, no hold')
    rules = d.get(HT + 'rules')
    t.ok(rules.status == 200 and rules.json['rules'] == 'hatetris-v1' and rules.json['agentCheck'] is False and
         rules.json['supplier']['order'] == list('SZOILJT'), 'GET rules: hatetris-v1, the order, no agent check')
    p = d.post(HT + 'init', {'depth': 2, 'cap': 30})
    t.ok(p.status == 200 and p.json['depth'] == 2 and p.json['cap'] == 30 and p.json['current'] == 'S',
         'POST init with {"depth": 2, "cap": 30}')
    p = d.get(HT + 'init?depth=2')
    t.ok(p.status == 200 and p.json['depth'] == 2, 'GET init?depth=2')
    for path, body, what in [('init?seed=4', None, 'a seed in the query'), ('init', {'seed': 4}, 'a seed in the body'),
                             ('init?depth=3', None, 'depth 3'), ('init?depth=0', None, 'depth 0'),
                             ('init?depth=x', None, 'depth x'), ('init', {'depth': '2'}, 'depth as a string'),
                             ('init?cap=0', None, 'cap 0'), ('init?cap=4294967296', None, 'cap over 32 bits'),
                             ('init', {'colour': 1}, 'an unknown field')]:
        r = d.post(HT + path, body) if body is not None else d.get(HT + path)
        t.ok(r.status == 400 and r.error_code == 'invalid_request',
             'init refuses %s: 400 (%s)' % (what, r.json['error']['message'] if r.json else r.status))

    # ---- the known answers, one command per request
    chosen = [i for i, k in enumerate(kats) if k['lines'] >= 3 or k['cap'] or (k['depth'] == 2 and i % 2)]
    played = {}
    for i in chosen:
        k = kats[i]
        name = 'known run %d (depth %d%s, %d lines)' % (i + 1, k['depth'],
                                                       ', cap %d' % k['cap'] if k['cap'] else '', k['lines'])
        played[i] = check_kat(d, k, name)

    # ---- the same runs in batches of up to 7 commands (refused ones alone)
    for i in [i for i in chosen if kats[i]['lines'] >= 3][:3]:
        k = kats[i]
        alone = Run(d, k['depth'], k['cap'])
        refusing = set()
        for c in k['commands']:
            if alone.send(c).status == 422:
                refusing.add(c)
        check_kat(d, k, 'known run %d in batches' % (i + 1), batch=7, refusing=refusing)

    # ---- refusals
    g = Run(d)
    tok = g.token
    for cmd, code, what in [('hold', 'invalid_command', 'hold'), ('resign', 'invalid_command', 'resign'),
                            ('place 4 0', 'invalid_command', 'rotation 4'), ('place 0 8', 'invalid_command',
                                                                              'a column the piece leaves'),
                            ('jump', 'invalid_command', 'an unknown command'), (' ; ', 'empty_command', 'nothing'),
                            (';'.join(['options'] * 51), 'too_many_commands', '51 commands')]:
        r = g.send(cmd)
        t.ok(r.status == 422 and r.error_code == code and r.json['stateToken'] == tok and
             r.json['pieces'] == 0, '%s is refused: 422 %s with the unchanged state (%s)' %
             (what, code, r.json['error']['message'] if r.json else r.status))
    for action, what in [({'type': 'hold'}, 'a hold action'), ({'type': 'place', 'rotation': 0}, 'no column'),
                         ({'type': 'place', 'rotation': 0, 'column': 1, 'x': 1}, 'an extra field')]:
        r = g.send(action=action)
        t.ok(r.status == 422 and r.error_code == 'invalid_command' and r.json['stateToken'] == tok,
             '%s is refused: 422 (%s)' % (what, r.json['error']['message']))
    r = d.post(HT + 'action', {'stateToken': tok, 'command': 'options', 'action': {'type': 'options'}})
    t.ok(r.status == 400, 'both command and action: 400')
    r = g.send(action={'type': 'place', 'rotation': 0, 'column': 4})
    t.ok(r.status == 200 and r.json['pieces'] == 1 and r.json['results'][0]['command'] == 'place 0 4',
         'a structured place action places, shown in canonical form')
    r = g.send('options; preview 1 0')
    t.ok(r.status == 200 and len(r.json['results'][0]['options']) > 0 and
         set(r.json['results'][1]['preview']) == {'board_text', 'lines', 'holes', 'max_height', 'bumpiness'},
         'options and preview answer like Stackfall\'s')
    t.eq(g.problems, [], 'refusals and look-ups changed nothing')

    # ---- stale tokens and retries
    tok0 = g.token
    first = g.send('place 0 0; 1 8')
    again = d.post(HT + 'action', {'stateToken': tok0, 'command': 'PLACE 0 00\n1 8'})
    t.ok(again.status == 200 and again.json['board_text'] == first.json['board_text'] and
         again.json['current'] == first.json['current'] and again.json['pieces'] == first.json['pieces'] and
         again.json['results'] == [dict(x, command=y) for x, y in zip(first.json['results'], ['PLACE 0 00', '1 8'])],
         'the same batch again, spelt otherwise: a retry, answered the same')
    stale = d.post(HT + 'action', {'stateToken': tok0, 'command': 'place 0 4'})
    t.ok(stale.status == 409 and stale.error_code == 'stale_state_token' and
         stale.json['pieces'] == first.json['pieces'] and stale.json['stateToken'] != tok0,
         'another command on the older token: 409 with the run as it stands')
    n = d.sql('SELECT count(*) FROM moves WHERE run_id = ?', (int(g.run),))[0][0]
    t.eq(n, 3, 'the retry stored nothing twice')

    # ---- the seen-board table is written: one row per distinct board, at its first step
    k = played[max(played, key=lambda i: kats[i]['lines'])]
    actions = d.get(HT + 'runs/' + k.run).json['replay']['actions']
    boards = []
    probe = Run(d, kats[max(played, key=lambda i: kats[i]['lines'])]['depth'])
    for a in actions:
        boards.append(board_key(probe.send('place %d %d' % (a['rotation'], a['column'])).json['board_text']))
    rows = d.sql('SELECT fact, step FROM run_facts WHERE run_id = ?', (int(k.run),))
    first_step = {}
    for i, b in enumerate(boards):
        first_step.setdefault(b, i + 1)
    t.eq(sorted((bytes(f), s) for f, s in rows), sorted(first_step.items()),
         'run_facts holds the key of every board the run left, at the first step that left it (%d rows)' % len(rows))

    # ---- ... and used: a board planted in a run's history makes the supplier avoid it
    # Two runs play the same placements (a run has no seed: the same moves give
    # the same run). Once the runs have 2 lines, run A makes one more placement
    # and is given piece Q; the board Q leaves at its first option is planted in
    # run B's history, and B's same placement must then be given another piece.
    ki = max(played, key=lambda i: kats[i]['lines'])
    a_run, b_run = Run(d, kats[ki]['depth']), Run(d, kats[ki]['depth'])
    planted = None
    for a in actions:
        cmd = 'place %d %d' % (a['rotation'], a['column'])
        if a_run.last.json['lines'] >= 2 and planted is None:
            ra = a_run.send(cmd)
            q = ra.json['current']
            opt = a_run.send('options').json['results'][0]['options'][0]
            pv = a_run.send('preview %d %d' % (opt['rotation'], opt['column'])).json['results'][0]['preview']
            d.sql('INSERT INTO run_facts (run_id, fact, step) VALUES (?, ?, 1)',
                  (int(b_run.run), board_key(pv['board_text'])))
            rb = b_run.send(cmd)
            planted = (q, rb.json['current'], ra.json['board_text'] == rb.json['board_text'])
            break
        a_run.send(cmd)
        b_run.send(cmd)
    t.ok(planted is not None and planted[2] and planted[0] != planted[1],
         'a board planted in the run\'s history is avoided: the supplier gave %s instead of %s' %
         (planted[1] if planted else '?', planted[0] if planted else '?'))

    # ---- the replay of a known run (finish, the certificate and the
    # verification of a whole run: tests/e2e/test_games.py)
    best = played[max(played, key=lambda i: (kats[i]['lines'], -kats[i]['pieces']))]
    page = d.get(HT + 'runs/' + best.run).json
    rep = page['replay']
    t.ok(set(rep) == {'schema', 'rules', 'seed', 'actions', 'final', 'depth', 'cap'} and rep['seed'] == 0 and
         rep['rules'] == 'hatetris-v1' and len(rep['actions']) == page['moves'] == best.last.json['pieces'] and
         rep['final'] == {'lines': best.last.json['lines'], 'pieces': best.last.json['pieces'], 'status': 'over',
                          'end_reason': best.last.json['end_reason']},
         'the run page carries its replay: placements, depth and cap, seed 0')
    v = d.post(HT + 'replays/verify', rep)
    rc, out = verify_cli(page)
    t.ok(v.status == 200 and v.json['final'] == rep['final'] and rc == 0,
         'the known run\'s replay verifies, over HTTP and with arcaded verify (%s)' % out.strip())
    for i in [i for i in played if kats[i]['depth'] == 2][:1] + [i for i in played if kats[i]['cap']][:1]:
        rep2 = d.get(HT + 'runs/' + played[i].run).json['replay']
        v = d.post(HT + 'replays/verify', rep2)
        t.ok(v.status == 200 and rep2['depth'] == kats[i]['depth'] and
             rep2['cap'] == (kats[i]['cap'] or None), 'a depth-%d%s replay verifies' %
             (kats[i]['depth'], ', cap %d' % kats[i]['cap'] if kats[i]['cap'] else ''))
    for change, what in [(lambda b: b.update(seed=1), 'a seed'), (lambda b: b.update(depth=3), 'depth 3'),
                         (lambda b: b['actions'].insert(0, {'type': 'options'}), 'an options move'),
                         (lambda b: b.update(depth=2), 'the other depth')]:
        bad = json.loads(json.dumps(rep))
        change(bad)
        v = d.post(HT + 'replays/verify', bad)
        t.ok(v.status == 422 and v.error_code == 'invalid_replay',
             'a replay with %s does not verify (%s)' % (what, v.json['error']['message']))

    # ---- the leaderboard: lines, then fewer pieces
    lb = d.get(HT + 'leaderboard?limit=100').json
    keys = [(e['lines'], -e['pieces']) for e in lb['entries']]
    ended = [i for i in played if kats[i]['end'] != 'playing']
    t.ok(len(lb['entries']) >= len(ended) and keys == sorted(keys, reverse=True) and
         all(e['seed'] == 0 and e['score'] == e['lines'] for e in lb['entries']),
         'the leaderboard ranks ended runs by lines, then fewer pieces (%d entries)' % len(lb['entries']))
    top = lb['entries'][0]
    want = max((kats[i]['lines'], -kats[i]['pieces']) for i in ended)
    t.eq((top['lines'], -top['pieces']), want, 'its first entry is the best known run played')
finally:
    d.cleanup()

# ---- the operator's caps (--cap-default, --cap-max), shared with Stackcraft
d = Daemon(args=['--cap-default', '5', '--cap-max', '10'])
try:
    r = d.get(HT + 'init')
    t.ok(r.status == 200 and r.json['cap'] == 5, 'without a cap, a run gets --cap-default (5)')
    r = d.get(HT + 'init?cap=10')
    t.ok(r.status == 200 and r.json['cap'] == 10, 'a cap up to --cap-max is taken')
    r = d.post(HT + 'init', {'cap': 11})
    t.ok(r.status == 400 and 'from 1 to 10' in r.json['error']['message'],
         'a cap over --cap-max is 400 (%s)' % r.json['error']['message'])
    g = Run(d)
    for _ in range(5):
        g.send('options')
        opts = g.last.json['results'][0]['options'] if g.last.json['results'] else []
        g.send(opts[0]['command'] if opts else 'place 0 0')
    t.ok(g.last.json['status'] == 'over' and g.last.json['end_reason'] == 'capped' and g.last.json['pieces'] == 5,
         'that run ends as capped after 5 pieces')
finally:
    d.cleanup()
t.done()
