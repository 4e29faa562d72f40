"""Ratings that cannot be farmed (--fair-ratings, on by default; docs/rules/
versus.md, "Ratings"), as TAP, on a daemon with the guards on.

The farming of issue 42: a farmer and 30 puppets on a quick-match setting
nobody else uses (turn_seconds 3517, item_chance 37); each puppet makes 3
moves, past the abort rule, then resigns. Then the same on the standard
settings, first with every account at one address, then with each puppet
on its own /64 of the farmer's /48. None of it puts the farmer in the
rankings: the odd settings rate nothing ("settings"), and on the standard
ones one network rates 6 matches a day with itself ("network_cap") and the
ratings stay provisional, their opponents all of the farmer's network.

Against that, a player who meets 5 accounts of 5 other networks, twice
each, is ranked after its tenth rated match, and not before; its
opponents, with two matches each, are not. Addresses come through
X-Forwarded-For, the test being the daemon's --trusted-proxy.
"""
from harness import Daemon, Tap

t = Tap()
d = Daemon(fair_ratings=True, args=['--trusted-proxy', '127.0.0.1'])


def account(name, addr):
    r = d.post('/api/v1/accounts', {'name': name}, headers={'X-Forwarded-For': addr})
    assert r.status == 201, r
    return {'Authorization': 'Bearer ' + r.json['agentKey'], 'X-Forwarded-For': addr}


def quick(key, **settings):
    body = {'players': 2, 'turn_seconds': 10}
    body.update(settings)
    r = d.post('/api/matches/quick', body, headers=key)
    assert r.status in (200, 201), r
    return r.json['match_id']


def move(mid, key, turn, command):
    return d.post('/api/matches/%s/move?view=full' % mid, {'turn': turn, 'command': command}, headers=key)


def farm(loser, winner, **settings):
    """A queue match: both place two pieces, then the loser resigns as the
    winner places: 3 moves each. The finished match's view."""
    mid = quick(winner, **settings)
    assert quick(loser, **settings) == mid
    for turn in (1, 2):
        move(mid, winner, turn, 'place 1 %d' % (3 * (turn - 1)))
        move(mid, loser, turn, 'place 1 %d' % (3 * (turn - 1)))
    move(mid, loser, 3, 'resign')
    return move(mid, winner, 3, 'place 1 0').json['match']


def ranked():
    return {x['account']: x for x in d.get('/api/matches/ratings?limit=100').json['ratings']}


def reasons(ms):
    out = {}
    for m in ms:
        k = 'rated' if m['rated'] else m['unrated_reason']
        out[k] = out.get(k, 0) + 1
    return out


# --- The farming script, on odd settings ----------------------------------
farmer = account('farmer', '203.0.113.7')
ms = [farm(account('puppet%02d' % i, '203.0.113.7'), farmer, turn_seconds=3517, item_chance=37)
      for i in range(30)]
t.ok(all(m['status'] == 'finished' for m in ms), '30 farmed matches on odd settings played to their end')
t.eq(reasons(ms), {'settings': 30}, 'none rated: off the standard settings (unrated_reason "settings")')
t.ok('farmer' not in ranked() and d.get('/api/matches/ratings').json['ratings'] == [],
     'no rating moved: the rankings are empty')

# --- The same on the standard settings, one address -----------------------
ms = [farm(account('pawn%02d' % i, '203.0.113.8'), farmer) for i in range(30)]
t.eq(reasons(ms), {'rated': 6, 'network_cap': 24},
     'standard settings, one network: 6 rated, then network_cap for the other 24')
t.ok('farmer' not in ranked() and ranked() == {},
     'the farmer stays provisional, out of the rankings (its opponents are all of its network)')

# --- Puppets on 30 /64s of the farmer's /48 ---------------------------------
farmer6 = account('farmer6', '2001:db8:77:ff::1')
ms = [farm(account('six%02d' % i, '2001:db8:77:%x::1' % i), farmer6) for i in range(30)]
t.eq(reasons(ms), {'rated': 6, 'network_cap': 24},
     'puppets on 30 /64s of one /48: the /48 is one network: 6 rated, 24 network_cap')
t.ok(ranked() == {}, 'the rankings are still empty')

# --- A player who meets other networks is ranked after ten --------------------
player = account('player', '198.51.100.5')
opponents = [account('rival%d' % i, '100.64.%d.9' % i if i < 4 else '2001:db8:9::1')
             for i in range(5)]
seen_before = None
for rnd in range(2):
    for i, o in enumerate(opponents):
        m = farm(o, player)
        if rnd == 1 and i == 3:
            seen_before = ranked()
t.ok(seen_before is not None and 'player' not in seen_before,
     'after 9 rated matches against 5 accounts of 5 networks: still provisional')
r = ranked()
t.ok('player' in r and r['player']['matches'] == 10 and r['player']['rank'] == 1,
     'after the tenth: ranked, first (%s)' % r.get('player'))
t.ok(not any(n.startswith('rival') for n in r), 'its opponents, two matches each, stay provisional')
t.eq(sorted(r), ['player'], 'the rankings hold the one ranked rating, not the farmers')
rows = d.sql("SELECT count(*) FROM match_seats s JOIN accounts a ON a.id = s.account_id "
             "WHERE a.name LIKE 'six%' AND s.net = 'net:2001:db8:77::/48'")
t.eq(rows[0][0], 30, "each puppet's seat holds its network, the /48")
d.stop()
d.cleanup()
t.done()
