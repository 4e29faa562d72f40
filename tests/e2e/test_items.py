"""Items over HTTP, end to end (docs/rules/versus.md, "Items"; docs/api.md,
"Matches"): a created match with `items: true` starts with items on (10 %
a mino, the six equally likely), its rolls are the documented ones, items
are collected when their rows clear and conserved (every item placed is
either in the inventory or still on the board), a `use T` naming no seat is
refused (422) and corrected before the turn resolves, a use sent before the
other player moved survives the wait (the pending move keeps its target),
the hit is listed by target and item, the turns route never shows who used
an item on whom, and the finished match's replay (which does) verifies over
HTTP and with `arcaded verify`. Then one item at a time (item_chance 100,
the weight on that item alone): the inventory cap, clear_line, swap, blind,
add_line topping a player out, a target that is out, and transform (the
preview drawn from the target's odd stream, stacking, the count running out
and the tetrominoes back).

Where the expectations come from. Seed 7's piece stream is O Z T L I J S J
T O I L (test_versus.py, docs/stream.md), the same for both players. The
item rolls are the engine's documented ones (engine/versus/versus.h,
versus_item_roll): for stream piece k of player p, random.Random(
"versus-v1:7:items:p:k") draws per mino a random() below 0.10 for an item,
then int(random() * 6) for which. roll() below is that rule; for seed 7
it gives player 0 nothing on O (k 0), blind on Z (1), nuke and transform
on T (2), add_line on L (3), clear_line on I (4), nothing on J (5): five
items placed in DOUBLE6 below, whichever minos carry them.
"""
import json
import os
import random
import socket
import subprocess
import time

from harness import Daemon, Tap, binary, verify_cli
from matches import account, board, get, move

t = Tap()

ITEMS = ['add_line', 'clear_line', 'nuke', 'swap', 'blind', 'transform']
LETTERS = dict(zip('acnsbt', ITEMS))
SEED = 7

# test_versus.py's six placements: turn 6 clears rows 1 and 2 (a double);
# O (0), T (2), L (3), Z (1), J (5) and I (4) are placed, S (6) held.
DOUBLE6 = ['place 0 0', 'hold; place 0 3', 'place 0 6', 'hold; place 1 2', 'place 0 5',
           'hold; place 1 9']
PLACED = [0, 2, 3, 1, 5, 4]


def roll(player, index, chance=10, weights=(1, 1, 1, 1, 1, 1)):
    r = random.Random('versus-v1:%d:items:%d:%d' % (SEED, player, index))
    out = []
    for _ in range(4):
        if not r.random() * 100 < chance:
            out.append(None)
            continue
        x, j = int(r.random() * sum(weights)), 0
        while j < len(weights) - 1 and x >= weights[j]:
            x -= weights[j]
            j += 1
        out.append(ITEMS[j])
    return out


def board_items(seat):
    """The item names on a seat's board (items_text), as a sorted list."""
    return sorted(LETTERS[c] for c in seat['items_text'] if c in LETTERS)



def settings(d):
    key = account(d, 'items_settings')
    for body, why in (({'players': 2, 'items': 1}, 'items not a boolean'),
                      ({'players': 2, 'items': 'yes'}, 'items a string')):
        r = d.post('/api/matches', body, headers=key)
        t.ok(r.status == 400 and r.error_code == 'invalid_request' and 'items' in r.json['error']['message'],
             'create refuses %s: 400 invalid_request naming items' % why)
    r = d.post('/api/matches', {'players': 2}, headers=key)
    t.ok(r.status == 201 and get(d, r.json['match_id'])['items'] is False,
         'create without items: a match without them (no item fields)')

    # The settings: each bad value a 400 naming its field, nothing stored.
    lobbies = lambda: len(d.get('/api/matches?status=lobby&limit=100').json['matches'])
    before = lobbies()
    bad = [({'item_chance': 101}, 'item_chance', 'item_chance above 100'),
           ({'item_chance': -1}, 'item_chance', 'item_chance below 0'),
           ({'item_chance': '10'}, 'item_chance', 'item_chance a string'),
           ({'item_weights': [1] * 5}, 'item_weights', 'five weights'),
           ({'item_weights': [1] * 7}, 'item_weights', 'seven weights'),
           ({'item_weights': 1}, 'item_weights', 'weights not a list'),
           ({'item_weights': [0] * 6}, 'item_weights', 'every weight 0'),
           ({'item_weights': [1, 1, 101, 1, 1, 1]}, 'item_weights', 'a weight above 100'),
           ({'item_weights': [1, 1, 1, -1, 1, 1]}, 'item_weights', 'a negative weight'),
           ({'item_weights': [1, 1, 1, 1, 1.5, 1]}, 'item_weights', 'a fractional weight'),
           ({'items': False, 'item_chance': 20}, 'item_chance', 'a chance with items false'),
           ({'items': False, 'item_weights': [1] * 6}, 'item_weights', 'weights with items false')]
    for route in ('/api/matches', '/api/matches/quick'):
        for extra, field, why in bad:
            r = d.post(route, dict({'players': 2}, **extra), headers=key)
            t.ok(r.status == 400 and r.error_code == 'invalid_request' and field in r.json['error']['message'],
                 '%s refuses %s: 400 naming %s (%s)' % (route, why, field,
                                                       r.json['error']['message'] if r.json else r.status))
    t.eq(lobbies(), before, 'the refused settings opened no lobby')

    # Defaults and overrides, as the view, the list and the start show them.
    cases = [({'items': True}, {'chance': 10, 'weights': [1] * 6}),
             ({'item_chance': 25}, {'chance': 25, 'weights': [1] * 6}),
             ({'item_weights': [0, 2, 0, 0, 0, 1]}, {'chance': 10, 'weights': [0, 2, 0, 0, 0, 1]}),
             ({'items': True, 'item_chance': 0}, False),
             ({'items': False, 'item_chance': 0}, False)]
    for extra, want in cases:
        r = d.post('/api/matches', dict({'players': 2}, **extra), headers=key)
        listed = [m['items'] for m in d.get('/api/matches?status=lobby&limit=100').json['matches']
                  if r.status == 201 and m['match_id'] == r.json['match_id']]
        t.ok(r.status == 201 and r.json['items'] == want and get(d, r.json['match_id'])['items'] == want and
             listed == [want], 'create %s: stored and shown (view, list) as %s' % (extra, want))
    # Every mino clear_line (chance 100, weight only on clear_line): the
    # start rolls with the stored settings, not the defaults.
    pk = [account(d, 'items_set_a'), account(d, 'items_set_b')]
    r = d.post('/api/matches', {'players': 2, 'seed': SEED, 'item_chance': 100,
                                'item_weights': [0, 1, 0, 0, 0, 0]}, headers=pk[0])
    mid = r.json['match_id']
    assert d.post('/api/matches/%s/join' % mid, None, headers=pk[1]).status == 200
    own = get(d, mid, pk[0])['seats'][0]
    t.ok(own['current_items'] == ['clear_line'] * 4 and own['next_items'] == [['clear_line'] * 4] * 3 and
         own['current_items'] == roll(0, 0, 100, (0, 1, 0, 0, 0, 0)),
         'chance 100, clear_line only: every mino of the current piece and preview carries clear_line')
    rep = None
    assert move(d, mid, pk[0], 1, 'resign').status == 200
    assert move(d, mid, pk[1], 1, 'place 0 0').status == 200
    rr = d.get('/api/matches/%s/replay' % mid)
    if rr.status == 200:
        rep = rr.json['replay']
    t.ok(rep is not None and rep['items'] == {'chance': 100, 'weights': [0, 1, 0, 0, 0, 0]},
         'the replay carries the stored settings')

    # The queue pairs only lobbies with equal settings.
    q = [account(d, 'items_q%d' % i) for i in range(4)]
    a = d.post('/api/matches/quick', {'players': 2, 'item_chance': 30}, headers=q[0])
    b = d.post('/api/matches/quick', {'players': 2, 'item_chance': 40}, headers=q[1])
    c = d.post('/api/matches/quick', {'players': 2, 'item_chance': 30,
                                      'item_weights': [1, 1, 1, 1, 1, 2]}, headers=q[2])
    e = d.post('/api/matches/quick', {'players': 2, 'item_chance': 30, 'items': True}, headers=q[3])
    t.ok([x.status for x in (a, b, c)] == [201, 201, 201] and
         len({a.json['match_id'], b.json['match_id'], c.json['match_id']}) == 3,
         'quick: chance 30, chance 40 and chance 30 with other weights open three lobbies')
    t.ok(e.status == 200 and e.json['match_id'] == a.json['match_id'] and e.json['status'] == 'playing' and
         e.json['items'] == {'chance': 30, 'weights': [1] * 6},
         'quick: the same settings again join the first lobby, which starts with them')


def scripted(d):
    keys = [account(d, 'items_a'), account(d, 'items_b')]
    r = d.post('/api/matches', {'players': 2, 'seed': SEED, 'items': True, 'turn_seconds': 600},
               headers=keys[0])
    assert r.status == 201, r
    mid = r.json['match_id']
    r = d.post('/api/matches/%s/join' % mid, None, headers=keys[1])
    assert r.status == 200, r

    for p in (0, 1):
        own = get(d, mid, keys[p])['seats'][p]
        t.ok(own['current_items'] == roll(p, 0) and own['next_items'] == [roll(p, k) for k in (1, 2, 3)]
             and own['inventory'] == [] and own['blind'] == 0,
             'player %d sees its documented rolls at turn 0: current %s, preview %s' %
             (p, roll(p, 0), [roll(p, k) for k in (1, 2, 3)]))
    spectator = get(d, mid)
    t.ok(spectator['items'] == {'chance': 10, 'weights': [1] * 6} and spectator['queue'] is False and spectator['rated'] is False,
         'the view shows the item settings (10 %, equal weights) and that the queue did not open it')
    t.ok(all('items_text' in s and s['next_items'] is None for s in spectator['seats']) and
         spectator['seats'][0]['current_items'] == roll(0, 0),
         'a spectator sees the items of the current pieces, not the previews')

    # Turn 1: both ask `use 2` / `use 1` with empty inventories (nothing
    # placed yet, and O clears no row): the uses do nothing and, the
    # engine drawing nothing for them, the boards below are those of
    # DOUBLE6 alone. Player 0 waits (its answer cannot know yet); player
    # 1's move resolves the turn and its answer says the inventory was
    # empty; the turn's events say it for both, naming no target.
    r0 = move(d, mid, keys[0], 1, 'use 2; ' + DOUBLE6[0])
    t.ok(r0.status == 200 and r0.json['resolved'] is False and
         r0.json['use'] == {'target': 2, 'used': None, 'reason': r0.json['use']['reason']} and
         'waits' in r0.json['use']['reason'],
         'empty inventory, the turn not resolved yet: the answer says the use waits for the turn')
    r1 = move(d, mid, keys[1], 1, 'use 1; ' + DOUBLE6[0])
    t.ok(r1.status == 200 and r1.json['resolved'] is True and
         r1.json['use'] == {'target': 1, 'used': False, 'reason': 'empty inventory'},
         'empty inventory, the move that resolves the turn: answered {used: false, reason: empty inventory}')
    lt = get(d, mid)['last_turn']
    t.ok([p.get('use') for p in lt['players']] == [{'used': False, 'reason': 'empty inventory'}] * 2 and
         lt['hits'] == [] and all(p['seat'] == i for i, p in enumerate(lt['players'])),
         'the turn\'s events mark both empty uses (no target, no hit)')
    tr1 = d.get('/api/matches/%s/turns?from=1&count=1' % mid).json['turns'][0]
    t.ok(tr1['view']['last_turn'] == lt and tr1['moves'] == [DOUBLE6[0]] * 2,
         'the turns route walks the same events for turn 1, its moves without the uses')
    for turn, c in enumerate(DOUBLE6[1:], 2):
        assert move(d, mid, keys[0], turn, c).status == 200
        r = move(d, mid, keys[1], turn, c)
        assert r.status == 200, r
        t.ok('use' not in r.json and all('use' not in p for p in get(d, mid)['last_turn']['players']),
             'turn %d without uses: no use entry in the answer or the events' % turn)
    m = get(d, mid)
    for p in (0, 1):
        placed = sorted(x for k in PLACED for x in roll(p, k) if x is not None)
        seat = m['seats'][p]
        ev = m['last_turn']['players'][p]
        t.ok(ev['lines'] == 2 and ev['items_collected'] == len(seat['inventory']) and
             ev['items_discarded'] == 0 and sorted(seat['inventory'] + board_items(seat)) == placed,
             'player %d, turn 6: the double collects %d items (%s); with the %s left on the board they are '
             'the %d placed' % (p, ev['items_collected'], seat['inventory'], board_items(seat), len(placed)))
    inv0 = m['seats'][0]['inventory']
    t.ok(len(inv0) > 0, 'player 0 has an item to use (%s)' % inv0)

    # Turn 7: `use 3` names no seat of a 2-player match; corrected to use 2.
    r = move(d, mid, keys[0], 7, 'use 3; place 0 0')
    t.ok(r.status == 422 and 'use 3' in r.json['error']['message'],
         'use 3 in a 2-player match: 422 naming it (%s)' % r.json['error']['message'])
    r = move(d, mid, keys[0], 7, 'use 2; place 0 0')
    t.eq(r.status, 200, 'corrected to use 2 before the turn resolves: accepted')
    t.eq(get(d, mid)['turn'], 6, 'the turn waits for player 1')
    r = move(d, mid, keys[1], 7, 'place 0 0')
    assert r.status == 200, r
    m = get(d, mid)
    t.ok(m['turn'] == 7 and m['last_turn']['hits'] == [{'turn': 7, 'target': 1, 'item': inv0[0]}],
         'the waiting use 2 is applied: one hit, player 1 by %s (the oldest item), no user named' % inv0[0])
    t.eq(m['seats'][0]['inventory'], inv0[1:], 'the used item leaves the inventory, oldest first')
    t.ok(all('user' not in h and 'seat' not in h for h in m['last_turn']['hits']), 'a hit names no user')
    hits7 = m['last_turn']['hits']
    # Order within a turn: placements, item uses, then attacks and rising.
    # Both players' J (stream piece 7) lands flat at columns 0-2 (J 0 is
    # #../###): player 0 on AFTER6 of test_versus.py ('.........I' over
    # '...Z.J...I'), whose row 1 is free at 0-2, giving 'J........I' over
    # 'JJJZ.J...I'; player 1 the same, then the nuke removes every locked
    # block of player 1's board. Last, the double each sent on turn 6 (1
    # line, block 0 of seed 7, hole 2) rises on both boards: 'GG.GGGGGGG'.
    t.eq([x['board_text'] for x in m['seats']],
         [board('J........I', 'JJJZ.J...I', 'GG.GGGGGGG'), board('GG.GGGGGGG')],
         'nuke: player 1\'s board is empty but for the garbage that rose after it; player 0\'s is whole')
    # The turns route, while the match plays, hides the use.
    tr = d.get('/api/matches/%s/turns?from=0&count=10' % mid)
    t.ok(tr.status == 200 and len(tr.json['turns']) == 8 and
         tr.json['turns'][0]['view']['seats'][0]['current_items'] == roll(0, 0) and
         tr.json['turns'][7]['moves'] == ['place 0 0', 'place 0 0'] and
         tr.json['turns'][7]['view']['last_turn']['hits'] == hits7 and
         tr.json['turns'][6]['view']['seats'][0]['inventory'] == inv0,
         'the turns route walks the match with its items (turn 0 rolls, turn 6 inventory, turn 7 hit) '
         'and shows turn 7 without `use 2`')

    # Turn 8: player 0 resigns; the match is over.
    move(d, mid, keys[0], 8, 'resign')
    move(d, mid, keys[1], 8, 'place 0 4')
    m = get(d, mid)
    t.eq(m['status'], 'finished', 'player 0 resigns: finished')
    rr = d.get('/api/matches/%s/replay' % mid)
    rep = rr.json['replay']
    t.ok(rep['items'] == {'chance': 10, 'weights': [1] * 6} and rep['turns'][6] == ['use 2; place 0 0',
                                                                                    'place 0 0'],
         'the replay names the items setting and keeps the use of turn 7 (it is shown once the match is over)')
    v = d.post('/api/matches/replays/verify', {'replay': rep, 'certificate': rr.json['certificate']})
    t.ok(v.status == 200 and v.json['valid'] is True and v.json['turns'] == 8,
         'the replay with items verifies over HTTP')
    rc, out = verify_cli(rr.json)
    t.ok(rc == 0 and out.startswith('valid: versus-v1 match replay, 8 turns'),
         'arcaded verify re-simulates it (%s)' % out.strip().splitlines()[0])



# ---- scripted: one item everywhere (item_chance 100, one weight 100) ----
#
# With chance 100 and one weight above 0 every mino of every piece carries
# that item, so the items on a board are exactly its non-grey cells and the
# expectations follow from the boards alone. Both players play DOUBLE6
# (seed 7): after turn 6 each board is AFTER6 of test_versus.py,
# '.........I' over '...Z.J...I', the double having cleared two full rows
# of 10 item cells each, and each sent the other 1 line (block 0 of seed 7,
# hole 2) that rises at the end of turn 7 as 'GG.GGGGGGG'.

AFTER6 = ('.........I', '...Z.J...I')


def item_board(letter, *rows):
    """items_text of rows whose non-grey cells all carry `letter`."""
    return board(*[''.join(letter if c not in '.G' else '.' for c in r) for r in rows])


def one_item(d, name, item, players=2):
    keys = [account(d, '%s_%d' % (name, i)) for i in range(players)]
    weights = [100 if x == item else 0 for x in ITEMS]
    r = d.post('/api/matches', {'players': players, 'seed': SEED, 'item_chance': 100,
                                'item_weights': weights, 'turn_seconds': 600}, headers=keys[0])
    assert r.status == 201, r
    mid = r.json['match_id']
    for k in keys[1:]:
        assert d.post('/api/matches/%s/join' % mid, None, headers=k).status == 200
    return mid, keys


def double6(d, mid, keys):
    for turn, c in enumerate(DOUBLE6, 1):
        for k in keys:
            r = move(d, mid, k, turn, c)
            assert r.status == 200, r


def collection_and_cap(d):
    """Turn 6's double clears 20 item cells: 10 reach the inventory (the cap),
    10 are discarded, the 3 cells left on the board keep theirs."""
    mid, keys = one_item(d, 'cap', 'add_line')
    double6(d, mid, keys)
    m = get(d, mid)
    for p in (0, 1):
        seat, ev = m['seats'][p], m['last_turn']['players'][p]
        t.ok(ev['lines'] == 2 and ev['items_collected'] == 20 and ev['items_discarded'] == 10 and
             seat['inventory'] == ['add_line'] * 10 and seat['board_text'] == board(*AFTER6) and
             seat['items_text'] == item_board('a', *AFTER6),
             'player %d: the double collects 20 items, keeps 10 (the cap), discards 10; the 3 cells '
             'left keep theirs (collected %d, discarded %d, inventory %d)' %
             (p, ev['items_collected'], ev['items_discarded'], len(seat['inventory'])))


def clear_line(d):
    """Turn 7: player 0 places J flat at 0-2 ('J........I' over 'JJJZ.J...I')
    and uses clear_line on itself: the bottom row and its 6 items go, the
    row above drops, then the garbage rises under it."""
    mid, keys = one_item(d, 'cline', 'clear_line')
    double6(d, mid, keys)
    assert move(d, mid, keys[0], 7, 'use 1; place 0 0').status == 200
    r = move(d, mid, keys[1], 7, 'place 0 0')
    assert r.status == 200 and r.json['resolved'] is True, r
    m = get(d, mid)
    s0, s1 = m['seats']
    t.ok(s0['board_text'] == board('J........I', 'GG.GGGGGGG') and
         s0['items_text'] == item_board('c', 'J........I', 'GG.GGGGGGG') and
         s0['inventory'] == ['clear_line'] * 9,
         'clear_line on oneself: the bottom row goes with its 6 items, 2 left on the board, 9 in the inventory')
    t.ok(s1['board_text'] == board('J........I', 'JJJZ.J...I', 'GG.GGGGGGG') and
         s1['items_text'] == item_board('c', 'J........I', 'JJJZ.J...I', 'GG.GGGGGGG') and
         s1['inventory'] == ['clear_line'] * 10,
         'the other board is untouched: 8 item cells, 10 in the inventory')
    t.eq(m['last_turn']['hits'], [{'turn': 7, 'target': 0, 'item': 'clear_line'}], 'one hit, on seat 0')


def swap(d):
    """Turn 7: player 0 places J at 0-2 ('J........I' over 'JJJZ.J...I'),
    player 1 at 6-8 ('......J..I' over '...Z.JJJJI'); player 0 swaps with
    2 (seat 1): the locked cells and their items change boards, then each
    board gets its garbage row. Hold, inventories and the pieces stay."""
    mid, keys = one_item(d, 'swap', 'swap')
    double6(d, mid, keys)
    before = [get(d, mid, keys[p])['seats'][p] for p in (0, 1)]
    assert move(d, mid, keys[0], 7, 'use 2; place 0 0').status == 200
    assert move(d, mid, keys[1], 7, 'place 0 6').status == 200
    m = get(d, mid)
    p0 = ('J........I', 'JJJZ.J...I')
    p1 = ('......J..I', '...Z.JJJJI')
    s0, s1 = m['seats']
    t.ok(s0['board_text'] == board(*p1, 'GG.GGGGGGG') and s0['items_text'] == item_board('s', *p1, 'G' * 10) and
         s1['board_text'] == board(*p0, 'GG.GGGGGGG') and s1['items_text'] == item_board('s', *p0, 'G' * 10),
         'swap: both boards exchanged, their item cells with them (the garbage rises after)')
    after = [get(d, mid, keys[p])['seats'][p] for p in (0, 1)]
    t.ok(after[0]['inventory'] == ['swap'] * 9 and after[1]['inventory'] == ['swap'] * 10 and
         all(after[p]['hold'] == before[p]['hold'] and after[p]['hold_items'] == before[p]['hold_items']
             for p in (0, 1)) and after[0]['next'] == after[1]['next'],
         'swap: inventories (9 and 10), holds and the queues stay with their owners')
    t.ok(m['last_turn']['hits'] == [{'turn': 7, 'target': 1, 'item': 'swap'}] and
         d.get('/api/matches/%s/turns?from=7&count=1' % mid).json['turns'][0]['moves'] == ['place 0 0',
                                                                                           'place 0 6'],
         'hidden user: the hit names the target only, the turns route drops the use')


def first_event(d, mid):
    s = socket.create_connection(('127.0.0.1', d.port), timeout=20)
    s.sendall(('GET /api/matches/%s/events HTTP/1.1\r\nHost: x\r\n\r\n' % mid).encode())
    buf = b''
    deadline = time.monotonic() + 20
    while b'"boardText"' not in buf or not buf.rstrip().endswith(b'}'):
        if time.monotonic() > deadline:
            break
        c = s.recv(65536)
        if not c:
            break
        buf += c
    s.close()
    return buf.decode('utf-8', 'replace')


def blind(d):
    """Turn 7 as in swap() but player 0 uses blind on seat 1: seat 1's cells
    ('......J..I', '...Z.JJJJI', then its garbage row) are hidden for 4
    turns in every view, its own included; a second blind on turn 8 adds
    4 to the 3 left (7)."""
    mid, keys = one_item(d, 'blind', 'blind')
    double6(d, mid, keys)
    assert move(d, mid, keys[0], 7, 'use 2; place 0 0').status == 200
    assert move(d, mid, keys[1], 7, 'place 0 6').status == 200
    hidden = board()
    views = {'spectator': get(d, mid), 'its own key': get(d, mid, keys[1]), 'the user\'s key': get(d, mid, keys[0])}
    w = d.get('/api/matches/%s/wait?after=6' % mid)
    views['wait'] = w.json
    for name, v in views.items():
        s1 = v['seats'][1]
        t.ok(s1['blind'] == 4 and s1['board_text'] == hidden and s1['items_text'] == hidden and
             'Z.JJJJ' not in v['boardText'] and 'JJJZ.J' in v['boardText'] and
             v['seats'][0]['board_text'] == board('J........I', 'JJJZ.J...I', 'GG.GGGGGGG'),
             'blind, %s: seat 1 blind 4, its board and items all dots (boardText too); seat 0 shown' % name)
    ev = first_event(d, mid)
    t.ok('"blind":4' in ev and 'Z.JJJJ' not in ev and 'JJJZ.J' in ev,
         'blind, the events stream: seat 1 hidden there too')
    assert move(d, mid, keys[0], 8, 'use 2; place 0 3').status == 200
    assert move(d, mid, keys[1], 8, 'place 0 3').status == 200
    v = get(d, mid, keys[1])
    t.ok(v['seats'][1]['blind'] == 7 and v['seats'][1]['board_text'] == hidden,
         'a second blind on turn 8 stacks: 3 left + 4 = 7, still hidden (%s)' % v['seats'][1]['blind'])
    assert move(d, mid, keys[0], 9, 'place 0 6').status == 200
    assert move(d, mid, keys[1], 9, 'place 0 0').status == 200
    t.eq(get(d, mid)['seats'][1]['blind'], 6, 'one turn later: 6')


# Stackfall's rotation 0 shapes (docs/rules/stackfall.md), top row first.
SHAPES = {'I': ['####'], 'O': ['##', '##'], 'T': ['.#.', '###'], 'S': ['.##', '##.'],
          'Z': ['##.', '.##'], 'J': ['#..', '###'], 'L': ['..#', '###']}


def grid_of(board_text):
    """A board_text as rows bottom first, each a list of 10 booleans."""
    return [[c != '.' for c in row] for row in reversed(board_text.split('\n'))]


def height(grid):
    return max([r + 1 for r, row in enumerate(grid) if any(row)] or [0])


def drop(grid, piece, col):
    """The grid after a hard drop of piece (rotation 0) at col and its clears,
    and the top of the piece as it landed (rows counted from 1)."""
    shape = SHAPES[piece]
    cells = [(len(shape) - 1 - r, c) for r, line in enumerate(shape) for c, x in enumerate(line) if x == '#']
    # From above the board down, the piece stops where one row lower would
    # overlap a cell (or the floor).
    y = 20
    while y > 0 and not any(grid[y - 1 + r][col + c] for r, c in cells if y - 1 + r < 20):
        y -= 1
    top = y + len(shape)
    g = [row[:] for row in grid] + [[False] * 10 for _ in range(8)]
    for r, c in cells:
        g[y + r][col + c] = True
    g = [row for row in g if not all(row)]
    g = (g + [[False] * 10] * 28)[:28]
    return g, top


def add_line_out(d):
    """add_line topping a player out. After DOUBLE6 and a plain turn 7 (both
    boards 'J........I', 'JJJZ.J...I', 'GG.GGGGGGG', 10 add_lines each),
    from turn 8 on both players use add_line on seat 1 (seat 0 `use 2`,
    seat 1 `use 1`): two grey rows pushed in under seat 1's board a turn.
    Each turn the model above drops both players' pieces (seat 1 at its
    lowest landing; seat 0 within columns 0-5, so that its rows never fill
    and nothing is sent), and predicts seat 1's board: the dropped grid,
    raised two rows (their holes are the garbage stream's, so only the rows
    above them are compared). Seat 1 is out, `overflow`, in the first turn
    where its stack after the placement stands above row 18: the second
    add_line pushes a cell above row 20. It takes place 2, seat 0 wins."""
    mid, keys = one_item(d, 'addl', 'add_line')
    double6(d, mid, keys)
    for k in keys:
        assert move(d, mid, k, 7, 'place 0 0').status == 200
    m = get(d, mid)
    assert [x['board_text'] for x in m['seats']] == [board('J........I', 'JJJZ.J...I', 'GG.GGGGGGG')] * 2, m
    out_turn = None
    for turn in range(8, 20):
        views = [get(d, mid, keys[p])['seats'][p] for p in (0, 1)]
        grids = [grid_of(v['board_text']) for v in views]
        plans = []
        for p, span in ((0, 6), (1, 10)):
            piece = views[p]['current']
            width = len(SHAPES[piece][0])
            best = min(range(span - width + 1), key=lambda c: (drop(grids[p], piece, c)[1], c))
            plans.append((best,) + drop(grids[p], piece, best))
        move(d, mid, keys[0], turn, 'use 2; place 0 %d' % plans[0][0])
        r = move(d, mid, keys[1], turn, 'use 1; place 0 %d' % plans[1][0])
        assert r.status == 200, r
        m = get(d, mid)
        g1 = plans[1][1]
        if height(g1) > 18:
            out_turn = turn
            e = m['last_turn']['players'][1]
            t.ok(e['eliminated'] is True and e['end_reason'] == 'overflow' and e['place'] == 2 and
                 m['status'] == 'finished' and m['seats'][0]['place'] == 1 and m['seats'][1]['place'] == 2 and
                 m['last_turn']['hits'] == [{'turn': turn, 'target': 1, 'item': 'add_line'}] * 2,
                 'turn %d: seat 1\'s stack stands %d rows high after its placement; the add_lines push it '
                 'out: eliminated, overflow, place 2, seat 0 wins' % (turn, height(g1)))
            break
        got = grid_of(m['seats'][1]['board_text'])
        t.ok(m['seats'][1]['alive'] and got[2:] == g1[:18] and
             all(sum(row) == 9 for row in got[:2]) and len(m['last_turn']['hits']) == 2,
             'turn %d: seat 1 (%s at column %d) is its dropped board raised by two grey rows of 9 cells'
             % (turn, views[1]['current'], plans[1][0]))
    t.ok(out_turn is not None, 'add_line took seat 1 out (turn %s)' % out_turn)


def eliminated_target(d):
    """Three seats; seat 2 resigns on turn 1. On turn 2, seat 0's `use 3`
    names seat 2, out: 422; corrected to `use 2` before seat 1 moves."""
    mid, keys = one_item(d, 'elim', 'nuke', players=3)
    for k, c in zip(keys, ['place 0 0', 'place 0 0', 'resign']):
        assert move(d, mid, k, 1, c).status == 200
    r = move(d, mid, keys[0], 2, 'use 3; place 0 4')
    t.ok(r.status == 422 and 'use 3' in r.json['error']['message'],
         'use 3 names seat 2, out: 422 (%s)' % r.json['error']['message'])
    r = move(d, mid, keys[0], 2, 'use 2; place 0 4')
    t.ok(r.status == 200 and r.json['use']['used'] is None, 'corrected to use 2 before the turn resolves: 200')
    r = move(d, mid, keys[1], 2, 'place 0 4')
    m = get(d, mid)
    t.ok(r.status == 200 and m['turn'] == 2 and
         m['last_turn']['players'][0]['use'] == {'used': False, 'reason': 'empty inventory'},
         'the turn resolves with the corrected use, which finds seat 0\'s inventory empty')


ODD = 'DCUXW'  # docs/rules/versus.md, odd shapes: Dot, small L, U, Plus, W


def odd(player, index):
    """The odd shape stream piece `index` of `player` becomes under a
    Transformation (engine/versus/versus_odd.c): random.Random(
    "versus-v1:7:odd:p:k") draws int(random() * 5)."""
    return ODD[int(random.Random('versus-v1:%d:odd:%d:%d' % (SEED, player, index)).random() * 5)]


def lowest(seat, width=3):
    """A column for `place 0 C` where the board is lowest over `width`
    columns (the target of a revert test must not top out)."""
    g = grid_of(seat['board_text'])
    tops = [max([r + 1 for r in range(20) if g[r][c]] or [0]) for c in range(10)]
    return min(range(0, 10 - width + 1), key=lambda c: (max(tops[c:c + width]), c))


def transform(d):
    """Turn 7 as in blind() but with transform: after the turn seat 1's
    current piece is T (stream piece 8, untouched), its preview the stream
    pieces 9, 10, 11 (O I L) turned odd, and hold S stays. A second use on
    turn 8 adds 8 to the 7 left (15); when the count runs out the preview
    and the hold are tetrominoes again."""
    mid, keys = one_item(d, 'transform', 'transform')
    double6(d, mid, keys)
    assert move(d, mid, keys[0], 7, 'use 2; place 0 0').status == 200
    assert move(d, mid, keys[1], 7, 'place 0 6').status == 200
    own, spectator, user = get(d, mid, keys[1]), get(d, mid), get(d, mid, keys[0])['seats'][0]
    s1 = own['seats'][1]
    want = [odd(1, k) for k in (9, 10, 11)]
    t.ok(s1['transform'] == 8 and s1['current'] == 'T' and s1['hold'] == 'S' and s1['next'] == want,
         'transform: 8 turns; the current piece (T) and the hold (S) as they were, the preview %s '
         'drawn from seat 1\'s odd stream (%s, %s)' % (want, s1['current'], s1['next']))
    t.ok(spectator['seats'][1]['transform'] == 8 and spectator['seats'][1]['next'] is None and
         user['transform'] == 0 and len(user['next']) == 3 and all(c in 'IOTSZJL' for c in user['next']),
         'the others see the count, not the preview; the user\'s own preview is untouched')
    t.eq(spectator['last_turn']['hits'], [{'turn': 7, 'target': 1, 'item': 'transform'}],
         'the hit names the target and the item only')
    assert move(d, mid, keys[0], 8, 'use 2; place 0 3').status == 200
    assert move(d, mid, keys[1], 8, 'place 0 3').status == 200
    s1 = get(d, mid, keys[1])['seats'][1]
    t.ok(s1['transform'] == 15 and s1['current'] == want[0],
         'a second transform on turn 8 stacks (7 left + 8 = 15); the odd %s is now the current piece '
         '(%s, %s)' % (want[0], s1['transform'], s1['current']))
    placed_odd, turn, counts = 0, 9, []
    while s1['transform'] > 0 and turn < 40:
        m0 = get(d, mid, keys[0])['seats'][0]
        if s1['current'] in ODD:
            placed_odd += 1
        for k, seat in ((keys[0], m0), (keys[1], s1)):
            r = move(d, mid, k, turn, 'place 0 %d' % lowest(seat))
            assert r.status == 200, r
        s1 = get(d, mid, keys[1])['seats'][1]
        counts.append(s1['transform'])
        turn += 1
    t.ok(counts == list(range(14, -1, -1)) and s1['alive'],
         'the count goes down a turn at a time, 14 to 0, seat 1 still in (%s)' % counts)
    t.ok(placed_odd >= 14 and all(c in 'IOTSZJL' for c in s1['next']) and s1['hold'] == 'S',
         'back to tetrominoes at 0: the preview %s, the hold S; %d odd pieces were placed with place R C'
         % (s1['next'], placed_odd))


d = Daemon()
try:
    settings(d)
    scripted(d)
    collection_and_cap(d)
    clear_line(d)
    swap(d)
    blind(d)
    add_line_out(d)
    eliminated_target(d)
    transform(d)
finally:
    d.cleanup()
t.done()
