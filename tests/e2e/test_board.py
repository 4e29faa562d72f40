"""Replays, verification, leaderboards and reviews, end to end."""
import copy
import json
import os
import subprocess

from harness import Daemon, Tap, binary, verify_cli

t = Tap()
DC = '/api/games/duskcourt/'
SF = '/api/games/stackfall/'



def dc_run(d, seed, captures, end=True, key=None):
    """A Duskcourt run on seed: `captures` first legal captures, then endRun
    at the next break (or, if the court is still in play, nothing)."""
    h = {'Authorization': 'Bearer ' + key} if key else {}
    r = d.get(DC + 'init?seed=%d' % seed, headers=h)
    for _ in range(captures):
        legal = [a for a in r.json['legalActions'] if a['type'] == 'capture']
        if not legal:
            break
        r = d.post(DC + 'action', {'stateToken': r.json['stateToken'], 'action': legal[0]})
    if end:
        while r.json['state']['phase'] == 'playing':
            legal = [a for a in r.json['legalActions'] if a['type'] == 'capture']
            r = d.post(DC + 'action', {'stateToken': r.json['stateToken'], 'action': legal[0]})
        if r.json['state']['phase'] == 'break':
            r = d.post(DC + 'action', {'stateToken': r.json['stateToken'], 'action': {'type': 'endRun'}})
    return r


def sf_run(d, commands, seed=None):
    r = d.post(SF + 'init', {} if seed is None else {'seed': seed})
    for c in commands:
        r2 = d.post(SF + 'action', {'stateToken': r.json['stateToken'], 'command': c})
        if r2.status == 200:
            r = r2
    return r


d = Daemon(args=['--agent-check', 'stackfall=off'])
try:
    # ---- a finished Duskcourt run: its replay verifies, over HTTP and with arcaded verify
    r = dc_run(d, 7, 2)
    run = r.json['runId']
    fin = d.post(DC + 'finish', {'stateToken': r.json['stateToken'], 'rating': 9, 'review': 'Good.'})
    cert = fin.json['certificate']
    g = d.get(DC + 'runs/' + run)
    t.ok(g.status == 200 and g.json['runId'] == run and g.json['over'] is True and
         g.json['review']['rating'] == 9 and g.json['certificate'] == cert,
         'GET runs/{runId} answers the summary, the review and the certificate')
    rep = g.json['replay']
    t.ok(rep and set(rep) == {'schema', 'rules', 'seed', 'actions', 'final'} and rep['schema'] == 1 and
         rep['rules'] == 'duskcourt-v1' and rep['seed'] == 7 and len(rep['actions']) == g.json['moves'],
         'the run carries its replay {schema, rules, seed, actions, final}')
    v = d.post(DC + 'replays/verify', rep)
    t.ok(v.status == 200 and v.json['valid'] is True and v.json['final'] == rep['final'],
         'the exported Duskcourt replay verifies over HTTP')
    rc, out = verify_cli(g.json)
    t.ok(rc == 0 and out.startswith('valid: duskcourt replay'), 'and with arcaded verify (%s)' % out.strip())
    v = d.post(DC + 'replays/verify', {'replay': rep, 'certificate': cert})
    t.ok(v.status == 200 and v.json['certificate']['valid'] is True and
         v.json['certificate']['claims']['run'] == run,
         'the certificate names this replay: a certificate plus a replay is evidence')

    def tampered(change, what, step_expected):
        bad = copy.deepcopy(rep)
        change(bad)
        v = d.post(DC + 'replays/verify', bad)
        rc, out = verify_cli(bad)
        if v.status != 422:
            t.diag(repr(v))
        t.ok(v.status == 422 and v.error_code == 'invalid_replay' and v.json['step'] == step_expected and
             rc == 1 and 'invalid' in out,
             'tampering refused with its step (%s): %s' % (what, v.json['error']['message'] if v.json else v.status))
    tampered(lambda b: b['actions'].__setitem__(0, {'type': 'next'}), 'an action changed', 1)
    tampered(lambda b: b['actions'].pop(1), 'an action removed', len(rep['actions']) - 1)
    tampered(lambda b: b['actions'].append({'type': 'next'}), 'an action added', len(rep['actions']) + 1)
    tampered(lambda b: b['final'].update({'score': b['final']['score'] + 10}), 'the final score raised',
             len(rep['actions']))
    tampered(lambda b: b.update({'rules': 'duskcourt-v2'}), 'a wrong rules version', 0)
    tampered(lambda b: b.update({'schema': 2}), 'an unknown schema', 0)
    tampered(lambda b: b.update({'seed': 8}), 'another seed', 1)
    bad = copy.deepcopy(rep)
    bad['final']['score'] += 10
    v = d.post(DC + 'replays/verify', {'replay': bad, 'certificate': cert})
    t.eq(v.status, 422, 'a certificate does not cover a changed replay')
    v = d.post(SF + 'replays/verify', rep)
    t.ok(v.status == 422 and 'stackfall' in v.json['error']['message'], 'a Duskcourt replay is not a Stackfall one')

    # Partial games verify.
    p = dc_run(d, 11, 1, end=False)
    g = d.get(DC + 'runs/' + p.json['runId'])
    t.ok(g.json['over'] is False and g.json['replay']['seed'] == 11, 'a playing Duskcourt run shows its (public) seed')
    v = d.post(DC + 'replays/verify', g.json['replay'])
    t.ok(v.status == 200 and v.json['valid'], 'a partial game verifies')

    # ---- Stackfall: seeds are withheld while playing, shown once over
    s = sf_run(d, ['place 0 0', 'place 1 8'])
    g = d.get(SF + 'runs/' + s.json['runId'])
    t.ok(g.status == 200 and g.json['replay'] is None and 'seed' not in g.json and
         '"actions"' not in g.body and g.json['moves'] == 2,
         'a playing Stackfall run withholds its seed and moves (but says how many)')
    s2 = d.post(SF + 'action', {'stateToken': s.json['stateToken'], 'command': 'hold; place 1 0; resign'})
    g = d.get(SF + 'runs/' + s.json['runId'])
    rep = g.json['replay']
    t.ok(rep and isinstance(rep['seed'], int) and [a['type'] for a in rep['actions']] ==
         ['place', 'place', 'hold', 'place', 'resign'] and rep['final']['status'] == 'over',
         'once over, the Stackfall replay shows its seed and moves')
    v = d.post(SF + 'replays/verify', rep)
    rc, out = verify_cli(rep)
    t.ok(v.status == 200 and rc == 0, 'the exported Stackfall replay verifies (HTTP and CLI)')
    for change, what, step in [
            (lambda b: b['actions'][0].update({'column': 12}), 'an action changed', 1),
            (lambda b: b['actions'].pop(), 'an action removed', 4),
            (lambda b: b['actions'].insert(3, {'type': 'hold'}), 'an action added', 4),
            (lambda b: b['final'].update({'score': 999}), 'the final score raised', 5),
            (lambda b: b.update({'rules': 'stackcraft-v1'}), 'a wrong rules version', 0)]:
        bad = copy.deepcopy(rep)
        change(bad)
        v = d.post(SF + 'replays/verify', bad)
        t.ok(v.status == 422 and v.json['step'] == step,
             'Stackfall tampering refused with its step (%s): %s' % (what, v.json['error']['message']))
    t.eq(d.get(SF + 'runs/123').status, 404, 'an unknown run: 404')
    t.eq(d.get(DC + 'runs/' + s.json['runId']).status, 404, 'a run asked for under the other game: 404')
    t.eq(d.get('/api/games/chess/leaderboard').status, 404, 'an unknown game: 404')

    # ---- leaderboards
    made = []
    for caps in (0, 1, 2, 1, 0, 2, 1):
        made.append(dc_run(d, 500 + len(made), caps).json)  # client-chosen seeds
    chosen = []
    for i in range(6):
        r = d.get(DC + 'init')  # server-chosen seeds
        while r.json['state']['phase'] == 'playing':
            legal = [a for a in r.json['legalActions'] if a['type'] == 'capture']
            r = d.post(DC + 'action', {'stateToken': r.json['stateToken'], 'action': legal[i % len(legal)]})
        if r.json['state']['phase'] == 'break':
            r = d.post(DC + 'action', {'stateToken': r.json['stateToken'], 'action': {'type': 'endRun'}})
        chosen.append(r.json)
    b = d.get(DC + 'leaderboard?limit=100')
    ids = [e['runId'] for e in b.json['entries']]
    # Issue 30: without seed, every ended run, whoever chose its seed (this
    # board held only the server's seeds before), each entry naming its seed.
    ended = dict({x['runId']: x['state']['seed'] for x in chosen + made}, **{run: 7})
    t.ok(b.status == 200 and set(ids) >= set(ended) and p.json['runId'] not in ids and
         all(e['seed'] == ended[e['runId']] for e in b.json['entries'] if e['runId'] in ended),
         'without seed the board holds every ended run, chosen seeds or not, with its seed; not a playing one')
    scores = [(e['score'], e['rung']) for e in b.json['entries']]
    t.ok(scores == sorted(scores, reverse=True), 'Duskcourt: best score first, then rung')
    t.ok([e['rank'] for e in b.json['entries']] == list(range(1, len(ids) + 1)), 'entries are ranked 1, 2, ...')
    b = d.get(DC + 'leaderboard?seed=503')
    t.ok(b.status == 200 and [e['runId'] for e in b.json['entries']] == [made[3]['runId']] and b.json['seed'] == 503,
         'with seed, every finished run on that seed (client-chosen included)')
    # Paging without duplicates or gaps.
    full = [e['runId'] for e in d.get(DC + 'leaderboard?limit=100').json['entries']]
    paged, cursor, pages = [], None, 0
    while True:
        q = DC + 'leaderboard?limit=2' + ('&after=' + cursor if cursor else '')
        page = d.get(q).json
        paged += [e['runId'] for e in page['entries']]
        pages += 1
        cursor = page['next']
        if cursor is None or pages > 20:
            break
    t.ok(paged == full and len(set(paged)) == len(paged), 'paging by 2 gives the whole board, no duplicate or gap')
    t.eq(d.get(DC + 'leaderboard?limit=500').status, 200, 'a limit over 100 is capped, not refused')
    for q in ('limit=0', 'limit=x', 'seed=-1', 'after=1.2', 'after=a.b.c.d.e'):
        t.eq(d.get(DC + 'leaderboard?' + q).status, 400, 'leaderboard refuses %s with 400' % q)

    # Stackfall order: score, then lines, then fewer pieces.
    s_runs = []
    for cmds in (['place 0 0', 'resign'], ['place 0 0', 'place 1 4', 'resign'], ['resign'],
                 ['place 1 0', 'place 1 2', 'place 1 4', 'resign']):
        s_runs.append(sf_run(d, cmds, seed=77).json)
    b = d.get(SF + 'leaderboard?seed=77')
    keys = [(e['score'], e['lines'], -e['pieces']) for e in b.json['entries']]
    t.ok(len(keys) == 4 and keys == sorted(keys, reverse=True) and
         b.json['entries'][0]['pieces'] == min(e['pieces'] for e in b.json['entries'] if e['score'] == keys[0][0]),
         'Stackfall: best score, then lines, then fewer pieces (%r)' % keys)

    # ---- reviews: a keyed run's listed at once, an anonymous run's once it has 10 moves
    short = 0
    for i, x in enumerate(made[:5]):
        rr = d.post(DC + 'finish', {'stateToken': x['stateToken'], 'rating': i + 1, 'review': 'review %d' % i})
        short += rr.status == 200
    key = {'Authorization': 'Bearer ' + d.post('/api/v1/accounts', {'name': 'reviewer'}).json['agentKey']}
    texts = []
    for i in range(5):
        r = d.get(DC + 'init?seed=%d' % (600 + i), headers=key)
        while r.json['state']['phase'] == 'playing':
            legal = [a for a in r.json['legalActions'] if a['type'] == 'capture']
            r = d.post(DC + 'action', {'stateToken': r.json['stateToken'], 'action': legal[0]}, headers=key)
        if r.json['state']['phase'] == 'break':
            r = d.post(DC + 'action', {'stateToken': r.json['stateToken'], 'action': {'type': 'endRun'}},
                       headers=key)
        rr = d.post(DC + 'finish', {'stateToken': r.json['stateToken'], 'rating': 6 + i % 5,
                                    'review': 'keyed %d' % i}, headers=key)
        if rr.status == 200:
            texts.append('keyed %d' % i)
    rv = d.get(DC + 'reviews?limit=100')
    got = [x['text'] for x in rv.json['reviews']]
    steps = dict(d.sql('SELECT id, step FROM runs'))
    t.ok(short == 5 and all(steps[int(x['runId'])] < 10 for x in made[:5]),
         'five anonymous runs of fewer than 10 moves finished with their reviews')
    t.ok(rv.status == 200 and got == list(reversed(texts)) and len(texts) == 5,
         'only the keyed runs\' reviews are listed, newest first (%r)' % got)
    t.ok(rv.json['count'] == 11, 'the count is of every review stored, listed or not')
    t.ok(abs(rv.json['averageRating'] - (9 + sum(range(1, 6)) + sum(6 + i % 5 for i in range(5))) / 11) < 1e-9,
         'and so is the average rating')
    t.ok(set(rv.json['reviews'][0]) == {'runId', 'account', 'rating', 'text', 'createdAt'} and
         rv.json['reviews'][0]['account'] == 'reviewer',
         'each review has run id, account, rating, text and time')
    long_run, played = d.get(DC + 'init?seed=700').json, 0
    while long_run['state']['phase'] != 'done':
        la = long_run['legalActions']
        if long_run['state']['phase'] == 'break':
            act = {'type': 'endRun'} if played >= 10 else {'type': 'next'}
        else:
            act = [a for a in la if a['type'] == 'capture'][0]
        long_run = d.post(DC + 'action', {'stateToken': long_run['stateToken'], 'action': act}).json
        played += 1
    lr = d.post(DC + 'finish', {'stateToken': long_run['stateToken'], 'rating': 5, 'review': 'played long'})
    n_long = dict(d.sql('SELECT id, step FROM runs'))[int(long_run['runId'])]
    listed = [x['text'] for x in d.get(DC + 'reviews?limit=100').json['reviews']]
    t.ok(lr.status == 200 and n_long >= 10 and listed[0] == 'played long',
         'an anonymous run of %d moves (10 at least): its review is listed' % n_long)
    t.eq(d.sql('SELECT count(*) FROM reviews v JOIN runs r ON r.id = v.run_id '
               'WHERE (v.id < 0) != (v.account_id IS NULL AND r.step < 10)')[0][0], 0,
         'unlisted reviews, and only they, are stored under negative ids (the feed reads positive '
         'ids along its index, never the unlisted ones)')
    paged, cursor = [], None
    for _ in range(10):
        page = d.get(DC + 'reviews?limit=2' + ('&before=' + cursor if cursor else '')).json
        paged += [x['runId'] for x in page['reviews']]
        cursor = page['next']
        if cursor is None:
            break
    t.eq(paged, [x['runId'] for x in d.get(DC + 'reviews?limit=100').json['reviews']],
         'reviews page by cursor without duplicates or gaps')
    t.eq(d.get(SF + 'reviews').json['count'], 0, 'reviews are per game')
finally:
    d.cleanup()
t.done()
