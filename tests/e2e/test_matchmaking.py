"""Finding matches and rating them fairly, end to end (docs/api.md,
"Finding a match"; docs/rules/versus.md, "Ratings"): the quick-match queue
pairing 2, 3, ..., 8 bots that arrive at the same moment (on PostgreSQL
through two daemons sharing one database), the lists of matches by status
with their cursors, created matches never rated, the farming of issue 26
(one account and three puppets that join and resign on turn 1, 30 matches)
moving no rating, the aborted rule (a player with fewer than 3 moves), the
cap of 3 rated matches a day for a pair of accounts, and the ratings'
pages."""
import threading

from harness import BACKEND, Daemon, Tap

t = Tap()


def account(d, name):
    r = d.post('/api/v1/accounts', {'name': name})
    assert r.status == 201, r
    return {'Authorization': 'Bearer ' + r.json['agentKey']}


def quick(d, key, players, seconds, **extra):
    body = {'players': players, 'turn_seconds': seconds}
    body.update(extra)
    return d.post('/api/matches/quick', body, headers=key)


def move(d, mid, key, turn, command):
    # ?view=full: these tests read the whole match from the answer.
    return d.post('/api/matches/%s/move?view=full' % mid, {'turn': turn, 'command': command}, headers=key)


def queue_pairs(daemons):
    """n bots quick-match at once for n = 2..8: one lobby each time, which
    the last of them starts. The requests alternate between the daemons."""
    for n in range(2, 9):
        keys = [account(daemons[0], 'q%d_%d' % (n, i)) for i in range(n)]
        res = [None] * n
        go = threading.Barrier(n)

        def send(i):
            go.wait()
            res[i] = quick(daemons[i % len(daemons)], keys[i], n, 30)

        ths = [threading.Thread(target=send, args=(i,)) for i in range(n)]
        for th in ths:
            th.start()
        for th in ths:
            th.join()
        ids = {r.json.get('match_id') for r in res if r.status in (200, 201)}
        m = daemons[0].get('/api/matches/%s' % ids.pop()).json if len(ids) == 1 else {}
        t.ok(all(r.status in (200, 201) for r in res) and not ids and
             sorted(r.status for r in res) == [200] * (n - 1) + [201] and m.get('status') == 'playing' and
             sorted(s['account'] for s in m['seats']) == sorted('q%d_%d' % (n, i) for i in range(n)) and
             m['rated'] is True and m['seed_chosen'] is False,
             '%d bots quick-match at once%s: one opens the lobby (201), %d join it (200), it plays' %
             (n, ' through %d daemons' % len(daemons) if len(daemons) > 1 else '', n - 1))


def lists(d):
    """GET /api/matches?status=, newest first, a page at a time."""
    pl = d.get('/api/matches?status=playing&limit=3').json
    seen, pages = [m['match_id'] for m in pl['matches']], 1
    while pl['next'] is not None and pages < 10:
        pl = d.get('/api/matches?status=playing&limit=3&before=' + pl['next']).json
        seen += [m['match_id'] for m in pl['matches']]
        pages += 1
    rows = d.sql("SELECT id FROM matches WHERE status = 'playing' ORDER BY created_at DESC, id DESC")
    t.ok(seen == [str(r[0]) for r in rows] and len(seen) == 7 and pages == 3,
         'the 7 playing matches in pages of 3 (3, 3, 1), newest first')
    first = d.get('/api/matches?status=playing&limit=1').json['matches'][0]
    t.ok(len(first['seats']) == 8 and first['players'] == 8 and first['turn_seconds'] == 30 and
         first['items'] is False and first['queue'] is True and first['rated'] is True,
         'a listed match carries its settings and its seats')
    key = account(d, 'list_lobby')
    mid = quick(d, key, 3, 45, items=True).json['match_id']
    lb = d.get('/api/matches?status=lobby').json['matches']
    t.ok([m['match_id'] for m in lb] == [mid] and lb[0]['items'] == {'chance': 10, 'weights': [1] * 6} and lb[0]['seats'] == ['list_lobby'],
         'the queue lobby is listed as lobby, with its item settings (items: true, the defaults)')
    other = account(d, 'list_lobby_b')
    r = quick(d, other, 3, 45)
    t.ok(r.status == 201 and r.json['match_id'] != mid, 'items off does not join a lobby with items on')
    r = quick(d, key, 3, 45, items=True)
    t.ok(r.status == 200 and r.json['match_id'] == mid and r.json['joined'] == 1,
         'quick-matching again while seated answers the same lobby')
    for q in ('status=x', 'limit=0', 'before=a.b'):
        t.eq(d.get('/api/matches?' + q).error_code, 'invalid_request', 'the list refuses %s: 400' % q)
    for body, why in (({'turn_seconds': 30}, 'players missing'), ({'players': 9}, 'players 9'),
                      ({'players': 2, 'items': 1}, 'items not a boolean'),
                      ({'players': 2, 'seed': 4}, 'a seed (the server draws it)')):
        t.eq(d.post('/api/matches/quick', body, headers=key).error_code, 'invalid_request',
             'quick refuses %s: 400' % why)
    t.eq(d.post('/api/matches/quick', {'players': 2}).status, 401, 'quick without a key: 401')
    r = d.post('/api/matches', {'players': 2, 'rated': True}, headers=key)
    t.ok(r.status == 400 and 'queue' in r.json['error']['message'],
         'a created match asking to be rated: 400, pointing at the queue')


def ratings_of(d):
    return {x['account']: x for x in d.get('/api/matches/ratings?limit=100').json['ratings']}


def farming(d):
    """Issue 26's farming: one account and three puppets, 30 matches in
    which the puppets resign on turn 1. Before: 2033 and about 1250."""
    keys = [account(d, 'farm_owner')] + [account(d, 'farm_puppet%d' % i) for i in range(3)]
    finished = 0
    for _ in range(30):
        mid = None
        for k in keys:
            mid = quick(d, k, 4, 37).json['match_id']
        for k in keys[1:]:
            move(d, mid, k, 1, 'resign')
        r = move(d, mid, keys[0], 1, 'place 1 0')
        finished += r.status == 200 and r.json['match']['status'] == 'finished' and \
            r.json['match']['rated'] is False
    rt = ratings_of(d)
    t.ok(finished == 30 and not any(n.startswith('farm_') for n in rt),
         '30 farmed matches finish unrated: no rating moves (owner %s)' % rt.get('farm_owner'))
    reasons = d.sql("SELECT unrated_reason, count(*) FROM matches m JOIN accounts a ON a.id = m.created_by "
                    "WHERE a.name = 'farm_owner' GROUP BY unrated_reason")
    t.eq([tuple(r) for r in reasons], [('aborted', 30)], 'each one aborted (the puppets made 1 move)')
    t.ok(r.status == 200 and r.json['match']['unrated_reason'] == 'aborted' and
         d.get('/api/matches/%s' % mid).json['unrated_reason'] == 'aborted',
         'the move answer and the view name the reason: aborted')


def pair(d, keys, seconds, moves):
    """A queue match of keys[0] and keys[1]: both place `moves - 1` pieces,
    then keys[0] resigns as keys[1] places: each sends `moves` moves."""
    mid = quick(d, keys[0], 2, seconds).json['match_id']
    quick(d, keys[1], 2, seconds)
    for turn in range(1, moves):
        move(d, mid, keys[0], turn, 'place 1 %d' % (3 * (turn - 1)))
        move(d, mid, keys[1], turn, 'place 1 %d' % (3 * (turn - 1)))
    move(d, mid, keys[0], moves, 'resign')
    return move(d, mid, keys[1], moves, 'place 1 0').json['match']


def rules(d):
    keys = [account(d, 'pair_a'), account(d, 'pair_b')]
    m = pair(d, keys, 51, 2)
    t.ok(m['status'] == 'finished' and m['rated'] is False and m['seats'][0].get('rating_after') is None and
         'pair_a' not in ratings_of(d), 'two moves each, then a resign: aborted, unrated')
    rated = [pair(d, keys, 51, 3) for _ in range(3)]
    rt = ratings_of(d)
    t.ok(all(m['rated'] is True and m['seats'][1].get('rating_after') is not None for m in rated) and
         rt['pair_a']['matches'] == 3 and rt['pair_b']['matches'] == 3 and
         rt['pair_b']['rating'] > 1500 > rt['pair_a']['rating'],
         'three moves each: rated, three times (%.1f, %.1f)' % (rt['pair_b']['rating'], rt['pair_a']['rating']))
    m = pair(d, keys, 51, 3)
    rt2 = ratings_of(d)
    t.ok(m['rated'] is False and rt2['pair_a'] == rt['pair_a'] and rt2['pair_b'] == rt['pair_b'],
         'the pair\'s fourth match of the day moves no rating')
    t.eq(d.sql('SELECT unrated_reason FROM matches WHERE id = ?', (int(m['match_id']),))[0][0], 'pair_cap',
         'its reason is pair_cap')
    t.eq(d.get('/api/matches/%s' % m['match_id']).json['unrated_reason'], 'pair_cap',
         'the single-match view shows unrated_reason pair_cap, read from the stored row')
    third = account(d, 'pair_c')
    m = pair(d, [third, keys[1]], 51, 3)
    t.ok(m['rated'] is True and m['unrated_reason'] is None and ratings_of(d)['pair_b']['matches'] == 4,
         'the cap is per pair: pair_b still rates with another account')

    full = d.get('/api/matches/ratings?limit=100').json['ratings']
    p1 = d.get('/api/matches/ratings?limit=2').json
    p2 = d.get('/api/matches/ratings?limit=2&after=' + p1['next']).json
    t.ok(len(full) == 3 and [x['account'] for x in p1['ratings'] + p2['ratings']] == [x['account'] for x in full]
         and [x['rank'] for x in p2['ratings']] == [3] and p2['next'] is None,
         'the ratings in pages of 2: the second page ranks from 3, and ends')
    t.eq(d.get('/api/matches/ratings?after=nobody').error_code, 'invalid_request',
         'a ratings cursor naming no rated account: 400')


d = Daemon()
others = []
try:
    if BACKEND == 'postgresql':
        # A second daemon on the same database, as behind a proxy.
        others.append(Daemon(args=['--db', d.db]))
    queue_pairs([d] + others)
    lists(d)
    farming(d)
    rules(d)
finally:
    for o in others:
        o.cleanup()
    d.cleanup()
t.done()
