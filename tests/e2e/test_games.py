"""Every game on the table through the common route cycle, end to end.

The games come from GET /api/games (checked against api/games.txt), and
what a player may send from each game's GET .../rules: no game is named in
the walk but in the two small tables below. For each game two runs are
played, one begun with an agent key and one without: init, moves chosen
from what the answers offer (the first of `legalActions`, or the first
placement `options` lists, sent as the rules' `place` action; the keyless
run takes the last instead, so that the two replays differ), state by
GET and POST, finish refused while the run plays, the run played to its end
(or ended at once by the rules' resign/endRun action after MOVES moves, or
by an init cap), a move after the end refused, finish (once), the run's
page, its replay verified over HTTP and by arcaded verify (and a damaged one
refused), its certificate's claims and signature, the leaderboard (with the
seed and without), the reviews and the HTML run page.

Each game's own rules, refusals and figures stay in its own script
(test_<game>.py).
"""
import base64
import copy
import hashlib
import json
import os

from harness import Daemon, Tap, checked, verify_cli

t = Tap()

# What the walk knows beyond what the daemon says: init options that bound a
# run whose first-choice play could go on long (a cap on placed pieces).
INIT = {'stackcraft': {'cap': 12}, 'hatetris': {'cap': 12}}
# Actions that end a run at once, when the rules or the legal list offer one.
ENDERS = ('resign', 'endRun')
MOVES = 25      # moves before the walk ends a run by an ender, when it can
REQUESTS = 600  # at most this many requests for one run
GAMES_TXT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'api', 'games.txt')


def listed_games():
    with open(GAMES_TXT, encoding='utf-8') as f:
        return [x.strip() for x in f if x.strip() and not x.startswith('#') and len(x.split()) == 1]


def canonical_hash(v):
    text = json.dumps(v, sort_keys=True, separators=(',', ':'), ensure_ascii=False)
    return hashlib.blake2b(text.encode(), digest_size=32).hexdigest()


def certificate_parts(cert):
    """The claims and the footer of a v4.public token (the payload is the
    claims' JSON and a 64-byte signature)."""
    parts = cert[len('v4.public.'):].split('.')
    unb64 = lambda s: base64.urlsafe_b64decode(s + '=' * (-len(s) % 4))
    footer = json.loads(unb64(parts[1])) if len(parts) > 1 else {}
    return json.loads(unb64(parts[0])[:-64]), footer


def without(answer, *keys):
    return {k: v for k, v in answer.items() if k not in keys}


class Walk:
    """One run of one game, its moves chosen from what the answers offer."""

    def __init__(self, d, game, rules, key=None, pick=0):
        self.d, self.name, self.pick = d, game['name'], pick
        self.base = '/api/games/%s/' % self.name
        self.auth = {'Authorization': 'Bearer ' + key} if key else {}
        actions = rules.get('actions') if isinstance(rules.get('actions'), list) else []
        self.types = [a['type'] for a in actions]
        self.place = next((a for a in actions if a['type'] == 'place'), None)
        self.moves = 0
        self.requests = 0
        self.problems = []
        self.carrier = None    # the newest answer that carried a puzzle
        self.sent = None       # the last move sent
        r = self.request('init', INIT.get(self.name, {}), guarded=False)
        self.init = r
        if r.status == 200:
            self.run = r.json['runId']
            self.take(r)

    def request(self, route, body, guarded=True, method='POST'):
        h = checked(self.d, self.carrier, self.auth) if guarded and self.carrier else dict(self.auth)
        self.requests += 1
        r = self.d.request(method, self.base + route, body=body, headers=h)
        if isinstance(r.json, dict) and r.json.get('agent_check'):
            self.carrier = r
        return r

    def take(self, r):
        self.last = r
        self.token = r.json['stateToken']

    @property
    def answer(self):
        return self.last.json

    def playing(self):
        a = self.answer
        if 'legalActions' in a:
            return bool(a['legalActions'])
        return a['status'] == 'playing'

    def act(self, action):
        r = self.request('action', {'stateToken': self.token, 'action': action})
        if r.status != 200:
            self.problems.append('%r -> %d %s' % (action, r.status, r.body[:200]))
        else:
            self.take(r)
        return r

    def choose(self):
        """The next move: an ender once MOVES moves are made (when there is
        one), else the first legal action or the first option's placement."""
        a = self.answer
        if 'legalActions' in a:
            legal = a['legalActions']
            end = [x for x in legal if x.get('type') in ENDERS]
            pick = end[0] if end and self.moves >= MOVES else legal[self.pick]
            return pick['id'] if 'id' in pick else pick
        enders = [x for x in self.types if x in ENDERS]
        if enders and self.moves >= MOVES:
            return {'type': enders[0]}
        r = self.act({'type': 'options'})
        opts = r.json['results'][0].get('options') if r.status == 200 else None
        if not opts:
            # No placement for this piece: a hold gives another, or the run ends.
            return {'type': 'hold'} if 'hold' in self.types and a.get('can_hold') else \
                {'type': enders[0] if enders else 'options'}
        return dict({k: opts[self.pick][k] for k in self.place if k != 'type'}, type='place')

    def move(self):
        self.sent = self.choose()
        r = self.act(self.sent)
        if r.status == 200:
            self.moves += 1
        return r

    def play_out(self):
        while self.playing() and not self.problems and self.requests < REQUESTS:
            self.move()
        return not self.playing()

    def finish(self, rating, review):
        return self.request('finish', {'stateToken': self.token, 'rating': rating, 'review': review})


d = Daemon()
try:
    key = d.post('/api/v1/accounts', {'name': 'walker'}).json['agentKey']
    g = d.get('/api/games')
    games = g.json['games'] if g.status == 200 else []
    t.eq([x['name'] for x in games], listed_games(), 'GET /api/games lists the games of api/games.txt, in order')
    r = d.get('/api/games/no-such-game/init')
    t.ok(r.status == 404 and r.error_code == 'not_found', 'a game not on the table: 404 not_found')
    kids = {k['kid'] for k in d.get('/api/v1/keys').json['keys']}

    for game in games:
        name = game['name']
        rr = d.get('/api/games/%s/rules' % name)
        rules = rr.json if rr.status == 200 else {}
        t.ok(rr.status == 200 and rules.get('rules') == game['rules'] and rules.get('game', name) == name and
             isinstance(rules.get('agentCheck'), bool) and rules.get('howToPlay'),
             '%s: GET rules answers %s, the agent check\'s setting and how to play' % (name, game['rules']))

        # ---- init, with a key and without
        w = Walk(d, game, rules, key)
        a = Walk(d, game, rules, pick=-1)
        ok = w.init.status == 200 and a.init.status == 200
        t.ok(ok and all(x.answer['game'] == name and x.answer['runId'] and x.playing() and
                        x.token.startswith('v4.local.') for x in (w, a)) and w.run != a.run,
             '%s: init with a key and without: two playing runs, each with its runId and stateToken' % name)
        if not ok:
            t.diag('%r %r' % (w.init, a.init))
            continue
        t.eq('agent_check' in w.answer, rules['agentCheck'],
             '%s: init carries a puzzle exactly when the rules say the check is on' % name)

        # ---- a move, then the state by GET and POST
        tok0 = w.token
        r = w.move()
        t.ok(r.status == 200 and w.token != tok0 and w.answer['runId'] == w.run,
             '%s: the first move chosen from the answer is taken, with a new token (%s)' %
             (name, r.body[:200] if r.status != 200 else 'move %d' % w.moves))
        seen = without(w.answer, 'agent_check', 'results')
        sg = w.request('state?stateToken=' + w.token, None, method='GET')
        sp = w.request('state', {'stateToken': w.token})
        t.ok(sg.status == 200 and sp.status == 200 and without(sg.json, 'agent_check', 'results') == seen and
             without(sp.json, 'agent_check', 'results') == seen,
             '%s: GET and POST state answer the run as the move left it' % name)
        r = w.request('state', {})
        r2 = w.request('state', None, method='GET')
        t.ok(r.status == 400 and r.error_code == 'invalid_request' and r2.status == 400,
             '%s: state without a token, by POST and by GET: 400' % name)

        # ---- the run's page while it plays; finish refused
        page = d.get(w.base + 'runs/' + w.run)
        hidden = page.json.get('replay') is None and 'withheld' in page.json and 'seed' not in page.json
        t.ok(page.status == 200 and page.json['over'] is False and page.json['endedAt'] is None and
             page.json['moves'] == 1 and hidden == game['hidesFuture'],
             '%s: the page of a playing run: one move, its seed and replay %s' %
             (name, 'withheld (hidesFuture)' if game['hidesFuture'] else 'shown')) or t.diag(page.body[:400])
        r = w.finish(5, 'Too soon.')
        t.ok(r.status == 409 and r.error_code == 'run_not_over', '%s: finish while playing: 409 run_not_over' % name)

        # ---- to the end; a move after it is refused
        t.ok(w.play_out() and a.play_out() and not w.problems and not a.problems,
             '%s: both runs played to their end (%d and %d moves)' % (name, w.moves, a.moves))
        for x in (w.problems + a.problems)[:3]:
            t.diag(x)
        end = w.token
        r = w.request('action', {'stateToken': end, 'action': w.sent})
        t.ok(r.status == 422 and r.error_code in ('game_over', 'illegal_action') and r.json['stateToken'] == end,
             '%s: the last move again after the end: 422 %s, the same token' % (name, r.error_code))

        # ---- finish, once
        fin = w.finish(7, 'Walked by test_games.py.')
        fj = fin.json if fin.status == 200 else {}
        t.ok(fin.status == 200 and fj['game'] == name and fj['runId'] == w.run and
             fj['review'] == {'rating': 7, 'text': 'Walked by test_games.py.'} and
             fj['certificate'].startswith('v4.public.') and fj['verifyWith'] == '/api/v1/keys' and
             fj['final']['moves'] == w.moves and (fj['final']['seed'] == 0 or not game['seedless']),
             '%s: finish answers the final summary (seed, moves), the review and a certificate' % name)
        r = w.finish(7, 'Again.')
        t.ok(r.status == 409 and r.error_code == 'already_finished', '%s: a second finish: 409 already_finished' % name)
        afin = a.finish(4, 'Anonymous.')
        t.eq(afin.status, 200, '%s: the run without a key finishes too' % name)
        if fin.status != 200:
            continue
        cert = fj['certificate']

        # ---- the page, its replay, verification
        page = d.get(w.base + 'runs/' + w.run).json
        rep = page['replay']
        t.ok(page['over'] is True and page['account'] == 'walker' and page['certificate'] == cert and
             page['review']['rating'] == 7 and isinstance(rep, dict) and rep['schema'] == 1 and
             rep['rules'] == game['rules'] and len(rep['actions']) == page['moves'] == w.moves and
             all(fj['final'].get(k) == v for k, v in rep['final'].items()) and fj['final']['seed'] == rep['seed'],
             '%s: the ended run\'s page: account, review, certificate and a replay agreeing with finish' % name)
        v = d.post(w.base + 'replays/verify', {'replay': rep, 'certificate': cert})
        t.ok(v.status == 200 and v.json['valid'] is True and v.json['game'] == name and
             v.json['actions'] == len(rep['actions']) and v.json['final'] == rep['final'] and
             v.json['replayHash'] == canonical_hash(rep) and v.json['certificate']['valid'] is True,
             '%s: the replay and its certificate verify over HTTP' % name)
        v = d.post(w.base + 'replays/verify', rep)
        t.ok(v.status == 200 and v.json['valid'] is True and 'certificate' not in v.json,
             '%s: the replay alone verifies' % name)
        rc, out = verify_cli(page)
        t.ok(rc == 0 and out.startswith('valid: %s replay, %d actions' % (name, len(rep['actions']))),
             '%s: arcaded verify plays the saved page again (%s)' % (name, out.strip()))
        bad = copy.deepcopy(rep)
        field = next(k for k, x in bad['final'].items() if isinstance(x, int) and not isinstance(x, bool))
        bad['final'][field] += 1
        v = d.post(w.base + 'replays/verify', bad)
        rc, out = verify_cli(bad)
        t.ok(v.status == 422 and v.error_code == 'invalid_replay' and v.json['reason'] and rc == 1 and
             out.startswith('invalid'), '%s: a replay with final.%s off by one: 422 invalid_replay and arcaded '
             'verify refuses it (%s)' % (name, field, v.json['reason'] if v.json else v.status))
        other = d.get(a.base + 'runs/' + a.run).json
        v = d.post(w.base + 'replays/verify', {'replay': rep, 'certificate': other['certificate']})
        t.ok(v.status == 422 and v.error_code == 'invalid_replay',
             '%s: the replay with another run\'s certificate: 422 invalid_replay' % name)
        cut = cert[:30] + ('A' if cert[30] != 'A' else 'B') + cert[31:]
        v = d.post(w.base + 'replays/verify', {'replay': rep, 'certificate': cut})
        t.ok(v.status == 422 and v.error_code == 'invalid_replay',
             '%s: the replay with a damaged certificate: 422 invalid_replay' % name)

        # ---- the certificate's claims
        claims, footer = certificate_parts(cert)
        t.ok(claims['run'] == w.run and claims['game'] == name and claims['rules'] == game['rules'] and
             claims['account'] == 'walker' and claims['seed'] == rep['seed'] and claims['moves'] == w.moves and
             claims['score'] == page['score'] and claims['replay'] == canonical_hash(rep) and
             claims['iss'] == 'arcaded' and footer.get('kid') in kids,
             '%s: the certificate claims the run, game, rules, account, seed, moves, score and replay hash, '
             'signed by a key of /api/v1/keys' % name)

        # ---- boards, reviews and pages
        board = d.get(w.base + 'leaderboard?limit=100').json['entries']
        mine = [e for e in board if e['runId'] == w.run]
        anon = [e for e in board if e['runId'] == a.run]
        t.ok(len(mine) == 1 and len(anon) == 1 and mine[0]['account'] == 'walker' and anon[0]['account'] is None and
             mine[0]['seed'] == rep['seed'] and mine[0]['score'] == page['score'] and
             all(mine[0][f] == page[f] for f in game['boardFields']) and
             [e['rank'] for e in board] == list(range(1, len(board) + 1)),
             '%s: the leaderboard ranks both runs, with their account (or none), seed, score and %s' %
             (name, ', '.join(game['boardFields'])))
        seeded = d.get(w.base + 'leaderboard?limit=100&seed=%d' % rep['seed']).json['entries']
        t.ok(w.run in [e['runId'] for e in seeded] and all(e['seed'] == rep['seed'] for e in seeded),
             '%s: leaderboard?seed=%d: the run, and only runs on that seed' % (name, rep['seed']))
        rv = d.get(w.base + 'reviews?limit=100').json
        t.ok(any(x['text'] == 'Walked by test_games.py.' and x['rating'] == 7 for x in rv['reviews']),
             '%s: the keyed run\'s review is listed' % name)
        any_game = d.get('/api/runs/' + w.run)
        html = d.get('/runs/' + w.run)
        t.ok(any_game.status == 200 and any_game.json['game'] == name and any_game.json['runId'] == w.run and
             html.status == 200 and html.header('Content-Type').startswith('text/html'),
             '%s: /api/runs/{runId} finds the run whatever its game, and /runs/{runId} is its HTML page' % name)
finally:
    d.cleanup()
t.done()
