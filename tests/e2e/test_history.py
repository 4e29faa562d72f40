"""What bot authors read to see how their bots do (issue 30), end to end:
the open matches (GET /api/matches/open?status=), an account's public page
(GET /api/v1/accounts/{name}), its runs of one game and its matches, each
checked against the runs and matches played here and against the rows in
the database; paging without gap or duplicate, the bounds, the refusals,
and that no key material and no withheld seed shows."""
import json

from harness import Daemon, Tap

t = Tap()
DC = '/api/games/duskcourt/'
SF = '/games/stackfall/api/'
ACC = '/api/v1/accounts/'


def account(d, name):
    r = d.post('/api/v1/accounts', {'name': name})
    assert r.status == 201, r
    return {'Authorization': 'Bearer ' + r.json['agentKey']}, r.json


def dc_run(d, seed, captures, key, end=True):
    """A Duskcourt run of the key's account: `captures` first legal
    captures, then the court played out and endRun at the break."""
    r = d.get(DC + 'init?seed=%d' % seed, headers=key)
    for _ in range(captures):
        legal = [a for a in r.json['legalActions'] if a['type'] == 'capture']
        if not legal:
            break
        r = d.post(DC + 'action', {'stateToken': r.json['stateToken'], 'action': legal[0]}, headers=key)
    if end:
        while r.json['state']['phase'] == 'playing':
            legal = [a for a in r.json['legalActions'] if a['type'] == 'capture']
            r = d.post(DC + 'action', {'stateToken': r.json['stateToken'], 'action': legal[-1]}, headers=key)
        if r.json['state']['phase'] == 'break':
            r = d.post(DC + 'action', {'stateToken': r.json['stateToken'], 'action': {'type': 'endRun'}},
                       headers=key)
    return r.json


d = Daemon(args=['--agent-check', 'stackfall=off'])
try:
    alice, made = account(d, 'alice')
    bob, _ = account(d, 'bob_bot')

    # ---- runs: Duskcourt on two seeds, one left playing; Stackfall abandoned and playing
    runs = [dc_run(d, 500, k, alice) for k in (0, 1, 2)] + [dc_run(d, 501, k, alice) for k in (0, 3)]
    playing = dc_run(d, 502, 1, alice, end=False)
    r = d.post(SF + 'new', {'seed': 9}, headers=alice)
    t.eq(r.status, 200, 'a Stackfall run on the seed routes')
    abandoned = r.json['runId']
    d.post(SF + 'act', {'command': 'place 0 0'}, headers=alice)
    r = d.post(SF + 'new', {'seed': 9}, headers=alice)
    sf_playing = r.json['runId']
    dc_runs = d.sql("SELECT id, seed, score, rank1, rank2, rank3, over, created_at FROM runs "
                    "WHERE game = 'duskcourt' ORDER BY created_at DESC, id DESC")

    # ---- the account's page
    p = d.get(ACC + 'alice')
    t.eq(p.status, 200, 'GET /api/v1/accounts/alice: 200')
    page = p.json
    t.ok(page['name'] == 'alice' and page['createdAt'] == made['createdAt'] and page['rating'] is None,
         'the page names the account, its creation time, and no rating before a rated match')
    text = json.dumps(page)
    t.ok(made['agentKey'] not in text and made['keyId'] not in text and 'key' not in text.lower(),
         'no key material on the public page')
    games = {g['game']: g for g in page['games']}
    t.ok({'stackfall', 'duskcourt'} <= set(games) and games['duskcourt']['runs'] == 6 and
         games['stackfall']['runs'] == 2 and games['stackcraft']['runs'] == 0,
         'every game of the table, with the account\'s count of runs (%r)' %
         {g: x['runs'] for g, x in games.items()})
    best = games['duskcourt']['bestPerSeed']
    want = {}
    for row in dc_runs:
        rid, seed, score, k1, k2, k3, over, _ = row
        if over and (seed not in want or (k1, k2, k3, rid) > want[seed][1:]):
            want[seed] = (str(rid), k1, k2, k3, rid)
    t.eq({b['seed']: b['runId'] for b in best}, {s: w[0] for s, w in want.items()},
         'best per seed: the best ended run on each seed by the leaderboard\'s keys (playing runs left out)')
    t.ok([b['seed'] for b in best] == sorted(want, key=lambda s: want[s][1:], reverse=True) and
         {b['seed']: b['runs'] for b in best} == {500: 3, 501: 2} and
         all('rung' in b and 'lives' in b for b in best),
         'best first, each with its count of ranked runs on the seed and the game\'s figures')
    t.eq(games['stackfall']['bestPerSeed'], [], 'an abandoned run is no best: Stackfall has none yet')
    t.eq(d.get(ACC + 'ALICE').json.get('name'), 'alice', 'names are matched whatever their case')
    r = d.get(ACC + 'nobody')
    t.ok(r.status == 404 and r.error_code == 'account_not_found' and 'nobody' in r.json['error']['message'],
         'an unknown account: 404 account_not_found in the envelope')
    for path in ('nobody/runs?game=duskcourt', 'nobody/matches'):
        t.eq(d.get(ACC + path).error_code, 'account_not_found', 'and so for %s' % path)

    # ---- its runs, newest first, paged
    r = d.get(ACC + 'alice/runs?game=duskcourt&limit=100')
    got = [x['runId'] for x in r.json['runs']]
    t.eq(got, [str(x[0]) for x in dc_runs], 'runs of one game: every one, newest first (as the rows say)')
    x = next(e for e in r.json['runs'] if e['runId'] == runs[4]['runId'])
    t.ok(x['seed'] == 501 and x['over'] is True and x['score'] == runs[4]['state']['score'] and
         x['seedChosenByClient'] is True and x['endedAt'] is not None and r.json['next'] is None,
         'a run: its seed, score, end and times; no next after the last page')
    y = next(e for e in r.json['runs'] if e['runId'] == playing['runId'])
    t.ok(y['over'] is False and y['seed'] == 502 and y['endedAt'] is None,
         'a playing Duskcourt run shows its seed (Duskcourt\'s future is public)')
    paged, cursor = [], None
    for _ in range(10):
        q = ACC + 'alice/runs?game=duskcourt&limit=2' + ('&before=' + cursor if cursor else '')
        pg = d.get(q).json
        paged += [e['runId'] for e in pg['runs']]
        cursor = pg['next']
        if cursor is None:
            break
    t.ok(paged == got, 'paging by 2 gives every run, no duplicate or gap')
    sf = d.get(ACC + 'alice/runs?game=stackfall').json['runs']
    t.ok([e['runId'] for e in sf] == [sf_playing, abandoned] and sf[0]['seed'] is None and
         sf[1]['seed'] == 9 and sf[1]['endReason'] == 'abandoned',
         'Stackfall: the playing run\'s seed is withheld (null), the abandoned run shows its end')
    for q, why in (('', 'no game'), ('?game=chess', 'an unknown game'), ('?game=duskcourt&limit=0', 'limit 0'),
                   ('?game=duskcourt&before=x', 'a bad cursor'), ('?game=duskcourt&before=1.-2', 'a negative id')):
        r = d.get(ACC + 'alice/runs' + q)
        t.ok(r.status == 400 and r.error_code == 'invalid_request', 'runs refuse %s: 400 (%s)' %
             (why, r.json['error']['message']))
    t.eq(len(d.get(ACC + 'alice/runs?game=duskcourt&limit=500').json['runs']), 6, 'a limit over 100 is capped')

    # ---- open matches, and an account's matches
    r = d.post('/api/matches/quick', {'players': 2, 'turn_seconds': 60}, headers=alice)
    lobby = r.json['match_id']
    r = d.post('/api/matches', {'players': 3}, headers=bob)
    lobby3 = r.json['match_id']
    ls = d.get('/api/matches/open?status=lobby').json
    t.ok([m['match_id'] for m in ls['matches']] == [lobby3, lobby] and ls['matches'][1]['seats'] == ['alice'] and
         ls['matches'][1]['joined'] == 1 and ls['matches'][1]['players'] == 2 and ls['next'] is None,
         'the lobbies, newest first, each with its seats\' names and how many it waits for')
    d.post('/api/matches/quick', {'players': 2, 'turn_seconds': 60}, headers=bob)
    pl = d.get('/api/matches/open?status=playing').json
    t.ok([m['match_id'] for m in pl['matches']] == [lobby] and pl['matches'][0]['seats'] == ['alice', 'bob_bot']
         and [m['match_id'] for m in d.get('/api/matches/open').json['matches']] == [lobby3],
         'a full lobby starts: listed as playing, no longer in the lobby (the default status)')
    pg = d.get('/api/matches/open?status=lobby&limit=1').json
    t.ok(len(pg['matches']) == 1 and pg['next'] and
         d.get('/api/matches/open?status=lobby&limit=1&before=' + pg['next']).json['matches'] == [],
         'the open matches page with a cursor')
    for q in ('status=x', 'limit=0', 'before=a.b'):
        t.eq(d.get('/api/matches/open?' + q).error_code, 'invalid_request', 'open matches refuse %s: 400' % q)
    for turn in (1, 2):  # three moves each: the fewest that rate
        for k in (alice, bob):
            d.post('/api/matches/%s/move' % lobby, {'turn': turn, 'command': 'place 1 %d' % (3 * turn)}, headers=k)
    d.post('/api/matches/%s/move' % lobby, {'turn': 3, 'command': 'resign'}, headers=alice)
    r = d.post('/api/matches/%s/move?view=full' % lobby, {'turn': 3, 'command': 'place 1 0'}, headers=bob)
    t.eq(r.json['match']['status'], 'finished', 'alice resigns: the rated match is over')
    t.eq([m['match_id'] for m in d.get('/api/matches?status=finished').json['matches']], [lobby],
         'it is listed as finished')
    t.eq(d.get('/api/matches/open?status=playing').json['matches'], [], 'a finished match is not open')
    am = d.get(ACC + 'alice/matches').json
    m = am['matches'][0] if am['matches'] else {}
    seat = r.json['match']['seats'][0]
    t.ok(len(am['matches']) == 1 and m['match_id'] == lobby and m['seat'] == 0 and m['place'] == 2 and
         m['status'] == 'finished' and m['rated'] is True and
         abs(m['rating_before'] - 1500) < 1e-9 and abs(m['rating_after'] - seat['rating_after']) < 1e-9,
         'the account\'s matches: its seat, place and rating before and after (the rating history)')
    bm = d.get(ACC + 'bob_bot/matches').json['matches']
    t.ok([x['match_id'] for x in bm] == [lobby3, lobby] and bm[0]['place'] is None and
         bm[0]['rating_after'] is None, 'bob\'s: newest first, the lobby without results')
    p = d.get(ACC + 'alice').json
    t.ok(p['rating'] is not None and abs(p['rating']['rating'] - seat['rating_after']) < 1e-6 and
         p['rating']['matches'] == 1, 'after a rated match the page shows the rating')
    t.eq(d.get(ACC + 'alice/matches?before=zz').error_code, 'invalid_request', 'matches refuse a bad cursor')
finally:
    d.cleanup()
t.done()
