"""hatetris-classic over HTTP, end to end.

The original HATETRIS key for key (docs/rules/hatetris-classic.md): init and
its supplier option, the spec's worked example B played by keys, options and
place (and that place is the keys of its path), refusals that change
nothing, a bot playing to game over one placement per request with the run
facts it leaves checked against the counts the rules define, its replay
refused when a lock is moved, the published
records (tests/hatetris_classic/data/records.json) replaying to their line
counts through the import route and arcaded verify, and the same records
played live in many small requests, each reading the run's facts from the
store, to the same lines, keys and pieces; their stored replays (one move per
lock) verify. Then the counts themselves: wells planted in a run's history
with count 1 and 2 turn the supplier exactly as the current rule says, and
the 2022 rule (seen or not) does not see the 2. The cycle every game
shares (finish, certificate, a whole run verified, boards) is
tests/e2e/test_games.py.
"""
import json
import os
import random
import struct
import subprocess
import tempfile

from harness import Daemon, Tap, binary

t = Tap()
HC = '/api/games/hatetris-classic/'
FIELDS = ['game', 'runId', 'stateToken', 'status', 'end_reason', 'lines', 'pieces', 'keys', 'current', 'x',
          'y', 'o', 'supplier', 'board_text', 'results']
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'hatetris_classic', 'data', 'records.json')
RECORDS = json.load(open(DATA, encoding='utf-8'))['cases']
EMPTY = '\n'.join(['.' * 10] * 20)


def hex_keys(s):
    """The keys of a hex record (two keys a digit, L=0 R=1 D=2 U=3)."""
    out = []
    for ch in s:
        if ch in ' #':
            continue
        d = int(ch, 16)
        out.append('LRDU'[d >> 2] + 'LRDU'[d & 3])
    return ''.join(out)


def well_key(board_text):
    """hclassic_well_key from a well's text (top row first): cell (row r
    from the top, column c) is bit 10r + c."""
    key = bytearray(25)
    for r, row in enumerate(board_text.rstrip('\n').split('\n')):
        for c, ch in enumerate(row):
            if ch == '#':
                bit = 10 * r + c
                key[bit // 8] |= 1 << (bit % 8)
    return bytes(key)


def fact(board_text, n):
    return well_key(board_text) + struct.pack('<I', n)


def run_cli(args, data=None):
    with tempfile.NamedTemporaryFile('w', suffix='.txt', delete=False, encoding='utf-8') as f:
        f.write(data)
    try:
        p = subprocess.run([binary()] + args + [f.name], capture_output=True, text=True)
        return p.returncode, p.stdout + p.stderr
    finally:
        os.unlink(f.name)


class Run:
    def __init__(self, d, supplier=None):
        self.d = d
        r = d.get(HC + 'init' + ('?supplier=%d' % supplier if supplier is not None else ''))
        if r.status != 200:
            raise RuntimeError('init: %r' % r)
        self.last = r
        self.token = r.json['stateToken']
        self.run = r.json['runId']

    def send(self, command=None, action=None):
        body = {'stateToken': self.token}
        if command is not None:
            body['command'] = command
        if action is not None:
            body['action'] = action
        r = self.d.post(HC + 'action', body)
        if r.status == 200:
            self.token = r.json['stateToken']
            self.last = r
        return r

    def options(self):
        return self.send('options').json['results'][0]['options']


d = Daemon()
try:
    # ---- init and rules
    r = d.get(HC + 'init')
    t.eq(list(r.json), FIELDS, 'init answers exactly the documented fields, in order')
    t.ok(r.status == 200 and r.json['current'] == 'S' and (r.json['x'], r.json['y'], r.json['o']) == (3, 0, 0) and
         r.json['pieces'] == 1 and r.json['keys'] == 0 and r.json['supplier'] == 'current' and
         r.json['board_text'] == '\n'.join(['.' * 10, '.....@@...', '....@@....'] + ['.' * 10] * 17),
         'a new run: S at its spawn (3, 0, 0) in the bar, the current supplier')
    rules = d.get(HC + 'rules')
    t.ok(rules.status == 200 and rules.json['rules'] == 'hatetris-classic' and
         rules.json['supplier']['order'] == list('SZOILJT') and rules.json['agentCheck'] is False,
         'GET rules: hatetris-classic, the order S Z O I L J T')
    for q, name in [(1, '2022'), (2, '2021'), (3, 'mild')]:
        r = d.post(HC + 'init', {'supplier': q})
        t.ok(r.status == 200 and r.json['supplier'] == name, 'init {"supplier": %d}: the %s supplier' % (q, name))
    for path, body, what in [('init?supplier=4', None, 'supplier 4'), ('init', {'supplier': 'mild'}, 'a name'),
                             ('init?seed=1', None, 'a seed'), ('init', {'colour': 1}, 'an unknown field')]:
        r = d.post(HC + path, body) if body is not None else d.get(HC + path)
        t.ok(r.status == 400 and r.error_code == 'invalid_request', 'init refuses %s: 400' % what)

    # ---- example B: 23 keys, the S locks on rows 17-19, the next is S
    g = Run(d)
    tok0 = g.token
    r = g.send('keys URRRRRDDDDDDDDDDDDDDDDD')
    rows = r.json['board_text'].split('\n')
    t.ok(r.status == 200 and rows[17:20] == ['........#.', '........##', '.........#'] and
         r.json['current'] == 'S' and r.json['keys'] == 23 and r.json['pieces'] == 2 and
         r.json['results'][0]['played'] == {'applied': 23, 'ignored': 0, 'locks': 1, 'lines': 0},
         'example B: URRRRR + 17 D locks the S on rows 17-19 and S comes next')
    again = d.post(HC + 'action', {'stateToken': tok0, 'command': 'keys URRRRRDDDDDDDDDDDDDDDDD'})
    t.ok(again.status == 200 and again.json['board_text'] == r.json['board_text'],
         'the same keys again on the older token: a retry, answered the same')
    stale = d.post(HC + 'action', {'stateToken': tok0, 'command': 'keys L'})
    t.ok(stale.status == 409 and stale.error_code == 'stale_state_token', 'other keys on it: 409 stale')
    t.eq([a for (a,) in d.sql('SELECT action FROM moves WHERE run_id = ? ORDER BY step', (int(g.run),))],
         ['{"keys":23,"o":1,"type":"lock","x":7,"y":16}'], 'one stored move for the lock, with its 23 keys')

    # ---- options, place, and keys through several pieces
    opts = g.options()
    t.ok(g.last.json['stateToken'] == g.token and len(opts) >= 17 and
         all(set(o) == {'lock', 'x', 'y', 'o', 'keys', 'lines', 'over', 'top', 'board_text'} for o in opts) and
         [o['lock'] for o in opts] == list(range(len(opts))) and all(o['keys'].endswith('D') for o in opts),
         'options: %d locks, each with a shortest path ending in its D, and nothing changes' % len(opts))
    twin = Run(d)
    twin.send('keys URRRRRDDDDDDDDDDDDDDDDD')
    k = max(range(len(opts)), key=lambda i: len(opts[i]['keys']))
    pl = g.send(action={'type': 'place', 'lock': k})
    ks = twin.send('keys ' + opts[k]['keys'])
    t.ok(pl.status == 200 and ks.status == 200 and pl.json['board_text'] == ks.json['board_text'] and
         pl.json['keys'] == ks.json['keys'] and pl.json['current'] == ks.json['current'],
         'place %d plays its path (%d keys): the same as sending them' % (k, len(opts[k]['keys'])))
    t.eq(pl.json['board_text'].replace('@', '.'), opts[k]['board_text'], 'options shows the well its lock leaves')
    r = twin.send('LLR')
    t.ok(r.status == 200 and r.json['x'] == 2 and r.json['keys'] == ks.json['keys'] + 3 and
         r.json['results'][0]['played']['locks'] == 0, 'keys alone ("LLR") move the piece; no lock')

    # ---- refusals change nothing
    tok = twin.token
    for body, code, what in [({'command': 'keys LLX'}, 'invalid_command', 'a key that is not L R D U'),
                             ({'command': 'keys lldd'}, 'invalid_command', 'lower case keys'),
                             ({'command': 'jump'}, 'invalid_command', 'an unknown command'),
                             ({'command': 'place 500'}, 'invalid_command', 'a lock options does not list'),
                             ({'action': {'type': 'place', 'lock': -1}}, 'invalid_command', 'lock -1'),
                             ({'action': {'type': 'keys'}}, 'invalid_command', 'keys without keys'),
                             ({'command': 'keys ' + 'L' * 16385}, 'invalid_command', 'more than 16384 keys')]:
        body['stateToken'] = tok
        r = d.post(HC + 'action', body)
        t.ok(r.status == 422 and r.error_code == code and r.json['stateToken'] == tok and
             r.json['keys'] == twin.last.json['keys'] and r.json['board_text'] == twin.last.json['board_text'],
             'refused, nothing changed: %s (%s)' % (what, r.json['error']['message'] if r.error_code else r.body[:200]))
    fresh = Run(d)
    r = fresh.send('keys ' + hex_keys([c for c in RECORDS if c['pieces'] == 100][0]['replay']))
    t.ok(r.status == 422 and r.error_code == 'invalid_command' and r.json['keys'] == 0 and
         'at most 64 locks' in r.json['error']['message'],
         'a record of 100 locks in one action: more than 64, refused whole')
    r = d.post(HC + 'action', {'stateToken': tok, 'command': 'keys L', 'action': {'type': 'options'}})
    t.ok(r.status == 400 and r.error_code == 'invalid_request', 'both command and action: 400')

    # ---- a bot plays to game over, one placement a request (highest top, then most lines)
    bot = Run(d)
    wells = []   # the well after each lock, and whether it ended the run
    for _ in range(400):
        opts = bot.options()
        best = max(opts, key=lambda o: (not o['over'], o['lines'], o['top'], -o['lock']))
        r = bot.send('place %d' % best['lock'])
        if r.status != 200:
            break
        wells.append((best['board_text'], best['over']))
        if r.json['status'] == 'over':
            break
    st = bot.last.json
    t.ok(st['status'] == 'over' and st['end_reason'] == 'top_out' and st['x'] is None and
         st['pieces'] == len(wells), 'the bot played %d pieces to game over (%d lines)' % (st['pieces'], st['lines']))
    r = bot.send('keys D')
    t.ok(r.status == 422 and r.error_code == 'game_over', 'keys after the end: 422 game_over')
    # The facts: count(W) = n recorded by the call that made it n (the
    # empty start well's first call is implicit).
    seen, want = {EMPTY: 1}, set()
    for step, (w, over) in enumerate(wells, 1):
        if over:
            continue
        seen[w] = seen.get(w, 0) + 1
        want.add((fact(w, seen[w]), step))
    rows = d.sql('SELECT fact, step FROM run_facts WHERE run_id = ?', (int(bot.run),))
    t.eq(sorted((bytes(f), s) for f, s in rows), sorted(want),
         'run_facts holds (well, count) for every supplier call after a lock (%d rows)' % len(rows))
    # (Finish, the certificate and a whole run verified: tests/e2e/test_games.py.)
    page = d.get(HC + 'runs/' + bot.run).json
    rep = page['replay']
    t.ok(rep['rules'] == 'hatetris-classic' and rep['supplier'] == 0 and len(rep['actions']) == len(wells) and
         rep['final'] == {'lines': st['lines'], 'pieces': st['pieces'], 'keys': st['keys'], 'status': 'over',
                          'end_reason': 'top_out'}, 'its replay: one move per lock, the final with keys')
    # ---- the finished run exported in the original's four encodings, each imported again
    t.ok('record' not in page, 'the run\'s answer itself is unchanged: no record in it')
    rr = d.get(HC + 'runs/' + bot.run + '/record')
    rec = rr.json if rr.status == 200 else {}
    t.ok(rr.status == 200 and set(rec) == {'runId', 'game', 'keys', 'raw', 'hex', 'base65536', 'base2048'} and
         rec['runId'] == bot.run and rec['game'] == 'hatetris-classic' and len(rec['raw']) == rec['keys'] and
         set(rec['raw']) <= set('LRDU') and rec['raw'].count('D') >= st['pieces'],
         'GET .../runs/{id}/record: %d keys, in raw, hex, Base65536 and Base2048 (%s)' %
         (rec.get('keys', -1), rr.body[:200]))
    for name, enc in [('raw', 'raw'), ('hex', 'hex'), ('base65536', 'Base65536'), ('base2048', 'Base2048')]:
        r = d.post(HC + 'replays/import', {'record': rec.get(name, '')})
        got = r.json if r.status == 200 else {}
        t.ok(r.status == 200 and got['encoding'] == enc and
             (got['lines'], got['pieces'], got['status'], got['end_reason']) ==
             (st['lines'], st['pieces'], 'over', 'top_out') and got['keys_played'] == rec['keys'],
             'its %s export imports again: %d lines, %d pieces, top_out (%s)' %
             (enc, st['lines'], st['pieces'], r.body[:200] if r.status != 200 else got['encoding']))
    rc, out = run_cli(['verify'], rec.get('base2048', ''))
    t.ok(rc == 0 and ('%d lines' % st['lines']) in out, 'and arcaded verify plays the exported record (%s)' % out.strip())
    r = d.get(HC + 'runs/' + fresh.run + '/record')
    t.ok(r.status == 409 and r.json['error']['code'] == 'run_not_over', 'a playing run is not exported: 409 run_not_over')
    other = d.get('/api/games/hatetris/init')
    r = d.get('/api/games/hatetris/runs/' + other.json['runId'] + '/record')
    t.ok(r.status == 404 and r.json['error']['code'] == 'not_found',
         'another game has no record to export: 404 not_found (%s)' % r.body[:120])
    r = d.get(HC + 'runs/' + other.json['runId'] + '/record')
    t.ok(r.status == 404 and r.json['error']['code'] == 'run_not_found', 'another game\'s run under this game: 404 run_not_found')
    r = d.get(HC + 'runs/99999999/record')
    t.ok(r.status == 404 and r.json['error']['code'] == 'run_not_found', 'no such run: 404 run_not_found')
    for change, what in [(lambda b: b['actions'][0].update(x=9), 'a lock the piece cannot reach'),
                         (lambda b: b['actions'][0].update(y=5), 'a lock where the piece does not lock'),
                         (lambda b: b['actions'][0].update(keys=1), 'fewer keys than its path'),
                         (lambda b: b['final'].update(keys=1), 'a wrong count of keys in the final'),
                         (lambda b: b.update(supplier=4), 'supplier 4')]:
        bad = json.loads(json.dumps(rep))
        change(bad)
        v = d.post(HC + 'replays/verify', bad)
        t.ok(v.status == 422 and v.error_code == 'invalid_replay', 'a replay with %s does not verify' % what)

    # ---- the published records: import and arcaded verify
    for c in RECORDS:
        r = d.post(HC + 'replays/import', {'record': c['replay']})
        got = r.json if r.status == 200 else {}
        t.ok(r.status == 200 and got['lines'] == c['lines'] and got['encoding'] == c['encoding'] and
             got['keys'] == c['keys'] and got['keys_played'] == c['keys_played'] and
             got['pieces'] == c['pieces'] and got['status'] == 'over' and
             got['piece_sequence'] == c['piece_sequence'],
             'import %s (%s): %d lines, %d keys played, %d pieces' % (c['name'], c['encoding'], c['lines'],
                                                                   c['keys_played'], c['pieces']))
        rc, out = run_cli(['verify'], c['replay'])
        t.ok(rc == 0 and ', %d lines, %d pieces, over' % (c['lines'], c['pieces']) in out and c['encoding'] in out,
             'arcaded verify %s (%s): %s' % (c['name'], c['encoding'], out.strip()))
    for body, what in [({'record': 'xyz xyz'}, 'not a replay'), ({'record': 5}, 'not a string'),
                       ({'record': 'LLDD', 'supplier': 9}, 'supplier 9'), ({'record': 'D', 'x': 1}, 'a stray field')]:
        r = d.post(HC + 'replays/import', body)
        t.ok(r.status == 422 and r.error_code == 'invalid_replay', 'import refuses %s: 422' % what)
    r = d.post('/api/games/hatetris/replays/import', {'record': 'D'})
    t.ok(r.status == 404, 'a game without records to import: 404')

    # ---- the records played live, in small requests: facts read from the store each time
    rnd = random.Random(24)
    for c in [c for c in RECORDS if c['encoding'] == 'hex']:
        keys = hex_keys(c['replay'])
        g = Run(d)
        i = 0
        while i < len(keys) and g.last.json['status'] == 'playing':
            n = rnd.randint(1, 90)
            r = g.send('keys ' + keys[i:i + n])
            if r.status != 200:
                break
            i += n
        st = g.last.json
        t.ok((st['lines'], st['keys'], st['pieces'], st['status']) == (c['lines'], c['keys_played'], c['pieces'], 'over'),
             '%s played live in requests of 1-90 keys: %d lines, %d keys, %d pieces' %
             (c['name'], st['lines'], st['keys'], st['pieces']))
        rep = d.get(HC + 'runs/' + g.run).json['replay']
        v = d.post(HC + 'replays/verify', rep)
        t.ok(v.status == 200 and rep['final']['keys'] == c['keys_played'] and
             len([a for a in rep['actions'] if a['type'] == 'lock']) == c['pieces'],
             '... its replay (a move per lock, %d moves) verifies' % len(rep['actions']))
        rec = d.get(HC + 'runs/' + g.run + '/record').json
        r = d.post(HC + 'replays/import', {'record': rec.get('base2048', '')})
        got = r.json if r.status == 200 else {}
        t.ok(r.status == 200 and (got['lines'], got['pieces'], got['status']) == (c['lines'], c['pieces'], 'over') and
             got['piece_sequence'] == c['piece_sequence'],
             '... its export (%d keys, Base2048) imports again: %d lines, %d pieces, the published pieces' %
             (rec.get('keys', -1), c['lines'], c['pieces']))

    # ---- counts, not seen/not seen: planted wells turn the supplier
    # Every run plays the same prefix of a record to 2 lines (a run has no
    # seed), then locks the live piece at its options' lock 0, on well W. The
    # first run is given P1; P1's landings (its options at the spawn) are
    # planted in the next run's history, which is given P2, and so on until
    # every piece's landings on W are known.
    c = [c for c in RECORDS if c['encoding'] == 'hex' and c['lines'] >= 11][0]
    keys = hex_keys(c['replay'])
    probe, prefix = Run(d), ''
    for i in range(0, len(keys), 10):
        probe.send('keys ' + keys[i:i + 10])
        prefix = keys[:i + 10]
        if probe.last.json['lines'] >= 2:
            break

    def given(plants, supplier=None):
        g = Run(d, supplier)
        g.send('keys ' + prefix)
        for f in plants:
            d.sql('INSERT INTO run_facts (run_id, fact, step) VALUES (?, ?, 1)', (int(g.run), f))
        r = g.send('place 0')
        return r.json['current'], g.options()

    landings, order = {}, []
    while len(order) < 7:
        plants = [fact(o['board_text'], 1) for p in order for o in landings[p]]
        p, opts = given(plants)
        if p in landings:
            break
        order.append(p)
        landings[p] = opts
    t.eq(len(order), 7, 'planting the landings of the pieces given so far turns the supplier each time: %s'
         % ''.join(order))
    ones = [fact(o['board_text'], 1) for p in order for o in landings[p]]
    t.eq(given(ones)[0], order[0], 'every piece with a landing counted once: rating and order again, %s' % order[0])
    twos = ones + [fact(o['board_text'], 2) for o in landings[order[0]]]
    t.eq(given(twos)[0], order[1], '%s\'s landings counted twice: the current supplier gives %s (largest count, '
         'smallest first)' % (order[0], order[1]))
    t.eq(given(twos, 1)[0], order[0], 'the 2022 supplier (seen or not) does not see the 2: %s' % order[0])

    # ---- the leaderboard
    lb = d.get(HC + 'leaderboard?limit=100').json
    ranks = [(e['lines'], -e['pieces']) for e in lb['entries']]
    t.ok(len(ranks) >= 6 and ranks == sorted(ranks, reverse=True) and lb['entries'][0]['lines'] == 28,
         'the leaderboard ranks ended runs by lines, then fewer pieces (SDA 28 first)')
finally:
    d.cleanup()
t.done()
