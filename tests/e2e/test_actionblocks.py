"""ActionBlocks (actionblocks-v1) matches over HTTP, end to end: a 2-player
match created with "rules": "actionblocks-v1", joined and played to its
end by simple bots; its replay verified over HTTP and with `arcaded
verify`, its certificate checked; the view's shape (the 20 visible rows
top first, the buffer's rows, the piece, hold, the preview for its owner
only); soft and hard drop points; a move with keys after the lock refused
422 in the error envelope with nothing changed; the longest move (256
keys) stored and played; block out and lock out eliminating.

Where the expectations come from: docs/rules/actionblocks.md. A piece
spawns with its box's top row at y 21 and moves down one row at once, so
on an empty board its lowest cell is on row 19 (every piece's spawn state
has its lowest cells on the box's second row): a hard drop from there
falls 19 rows (+2 each, 38 points), a soft drop first falls one (+1) and
the hard drop 18 (+36), 37 points.
"""
import functools
import json

from harness import Daemon, Tap, verify_cli
import matches
from matches import account
from matches import get as view

t = Tap()
RULES = 'actionblocks-v1'
# Every match here is an ActionBlocks one, and a move's answer carries the
# whole view.
new_match = functools.partial(matches.new_match, rules=RULES)
move = functools.partial(matches.move, view='full')


def shape_ok(seat, own):
    b = seat.get('board')
    return (isinstance(b, list) and len(b) == 20 and all(isinstance(r, str) and len(r) == 10 for r in b)
            and isinstance(seat.get('buffer'), list)
            and (seat['piece'] is None or set(seat['piece']) == {'letter', 'x', 'y', 'rotation'})
            and ((isinstance(seat['next'], list) and len(seat['next']) == 5) if own else seat['next'] is None)
            and all(k in seat for k in ('hold', 'score', 'lines', 'level', 'combo', 'back_to_back',
                                        'pending', 'missed', 'lines_sent', 'lines_received', 'alive',
                                        'place', 'end_reason')))


def basics(d, keys):
    # Seed 3: with the moves below, seat 1's 12th piece spawns onto its
    # stack (block out); found by playing these bots on the engine.
    mid, r = new_match(d, keys, seed=3)
    m = r.json
    t.ok(m['rules'] == RULES and m['status'] == 'playing' and m['turn'] == 0,
         'a match created with rules actionblocks-v1 and joined is playing at turn 0')
    v0, v1, vs = view(d, mid, keys[0]), view(d, mid, keys[1]), view(d, mid)
    t.ok(shape_ok(v0['seats'][0], True) and shape_ok(v0['seats'][1], False) and
         shape_ok(vs['seats'][0], False) and shape_ok(v1['seats'][1], True),
         'each seat sees its own 5 previews and nobody else\'s; boards are 20 rows of 10, buffer, piece')
    p = v0['seats'][0]['piece']
    t.ok(p['y'] == 20 and p['rotation'] == 0 and p['x'] in (3, 4) and v0['seats'][0]['buffer'] == [] and
         all(row == '.' * 10 for row in v0['seats'][0]['board']),
         'the first piece stands at its spawn, one row down (y 20), on an empty board (%s)' % p)
    # A soft drop and a hard drop: 1 + 2 x 18 = 37 points; a hard drop alone 38.
    a = move(d, mid, keys[0], 1, 'keys SD')
    t.ok(a.status == 200 and a.json['move'] == 'keys SD' and a.json['resolved'] is False,
         'seat 0 sends keys SD: taken, the turn waits for seat 1')
    b = move(d, mid, keys[1], 1, 'D')
    t.ok(b.status == 200 and b.json['move'] == 'keys D' and b.json['resolved'] is True,
         'seat 1 sends D, read as keys D: the turn resolves')
    ev = b.json['match']['last_turn']['players']
    t.ok(ev[0]['drop_points'] == 37 and ev[0]['locked'] and ev[0]['points'] == 0 and
         b.json['match']['seats'][0]['score'] == 37,
         'soft then hard drop: 1 + 2 x 18 = 37 points (%s)' % ev[0]['drop_points'])
    t.ok(ev[1]['drop_points'] == 38 and b.json['match']['seats'][1]['score'] == 38,
         'hard drop from spawn: 2 x 19 = 38 points (%s)' % ev[1]['drop_points'])
    board = b.json['match']['seats'][0]['board']
    t.ok(board[-1] != '.' * 10 and board[0] == '.' * 10,
         'the locked piece shows on the bottom rows of board, whose first row is the top (y 19)')
    # Keys after the lock: refused, nothing changed.
    before = view(d, mid, keys[0])
    r = move(d, mid, keys[0], 2, 'keys DL')
    t.ok(r.status == 422 and isinstance(r.json.get('error'), dict) and r.json['error'].get('code') and
         'message' in r.json['error'],
         'keys after the lock: 422 in the error envelope (%s: %s)' % (
             r.json.get('error', {}).get('code'), r.json.get('error', {}).get('message')))
    after = view(d, mid, keys[0])
    t.ok(after['turn'] == before['turn'] == 1 and after['seats'][0]['moved'] is False and
         after['seats'] == before['seats'],
         'and nothing changed: turn 1, seat 0 has not moved')
    r = move(d, mid, keys[0], 2, 'keys Q')
    t.ok(r.status == 422 and r.error_code == 'invalid_command', 'a key not of the grammar: 422 invalid_command')
    r = move(d, mid, keys[0], 2, 'keys ' + 'L' * 256 + 'D')
    t.ok(r.status == 422 and r.error_code == 'invalid_command', '257 keys: 422 invalid_command')
    # The longest move, 256 keys, kept as the turn's pending move (a row's
    # pending moves hold 8 of them), then played as sent.
    longest = 'keys ' + 'L' * 255 + 'D'
    r = move(d, mid, keys[0], 2, longest)
    t.ok(r.status == 200 and r.json['move'] == longest and r.json['resolved'] is False and
         r.json['state']['seat']['moved'] is True,
         '256 keys (255 L against the wall, then D): taken and stored while the turn waits')
    r = move(d, mid, keys[1], 2, 'keys D')
    ev = r.json['match']['last_turn']['players'][0]
    t.ok(r.status == 200 and r.json['resolved'] is True and ev['action'] == 'keys' and ev['locked'] and
         r.json['match']['seats'][0]['piece'] is not None,
         'and the turn resolves with it: its piece locked at the left wall')
    return mid


def play_out(d, mid, keys, first_turn):
    """Seat 0 spreads its pieces left and right; seat 1 hard-drops every
    piece where it spawns, so it blocks out first."""
    plans = ['keys LLLLD', 'keys RRRRD', 'keys LD', 'keys RRD', 'keys XLLLLD', 'keys XRRRRD', 'keys D']
    turn, m = first_turn, None
    while turn < 400:
        v = view(d, mid)
        if v['status'] == 'finished':
            return v
        for seat, key in enumerate(keys):
            if not v['seats'][seat]['alive']:
                continue
            cmd = plans[turn % len(plans)] if seat == 0 else 'keys D'
            r = move(d, mid, key, turn, cmd)
            if r.status == 422:
                r = move(d, mid, key, turn, 'keys D')
            assert r.status == 200, r
            m = r.json
        turn += 1
    return view(d, mid)


def main():
    d = Daemon()
    try:
        keys = [account(d, 'abalice'), account(d, 'abbob')]
        mid = basics(d, keys)
        m = play_out(d, mid, keys, 3)
        t.ok(m['status'] == 'finished' and m['end'] in ('last_standing', 'all_out'),
             'the match plays to its end (%s after %d turns)' % (m['end'], m['turn']))
        t.eq(m['turn'], 12, 'seed 3: the end comes in turn 12')
        t.ok(m['seats'][1]['end_reason'] == 'block_out' and m['seats'][1]['alive'] is False and
             m['seats'][1]['place'] in (1, 2),
             'seat 1, dropping every piece at its spawn, is out by block out (%s)' % m['seats'][1]['end_reason'])
        t.ok(m['seed'] is not None and isinstance(m['certificate'], str) and m['certificate'].startswith('v4.public.'),
             'finished: the seed is shown and the certificate is there')
        r = d.get('/api/matches/%s/replay' % mid)
        rep, cert = r.json['replay'], r.json['certificate']
        t.ok(r.status == 200 and rep['rules'] == RULES and len(rep['turns']) == m['turn'] and
             rep['turns'][0] == ['keys SD', 'keys D'] and rep['turns'][1][0] == 'keys ' + 'L' * 255 + 'D',
             'the replay names its rules and holds every turn as the moves\' canonical text')
        v = d.post('/api/matches/replays/verify', {'replay': rep, 'certificate': cert})
        t.ok(v.status == 200 and v.json['valid'] is True and v.json['certificate']['valid'] is True and
             v.json['certificate']['claims']['match'] == mid and
             v.json['certificate']['claims']['rules'] == RULES and v.json['final'] == rep['final'],
             'its replay verifies over HTTP, and its certificate names the match and the rules')
        rc, out = verify_cli(r.json)
        t.ok(rc == 0 and out.startswith('valid: %s match replay, %d turns' % (RULES, len(rep['turns']))),
             'and with arcaded verify (%s)' % out.strip()[:70])
        bad = json.loads(json.dumps(rep))
        bad['turns'][1][0] = 'keys DL'
        v = d.post('/api/matches/replays/verify', {'replay': bad})
        t.ok(v.status == 422 and v.error_code == 'invalid_replay' and v.json.get('turn') == 2,
             'a replay with keys after a lock is refused at its turn 2 (%s)' % v.json.get('error', {}).get('message'))
        # Seed 1 (found with the engine: these bots on it): seat 1's stack
        # under the spawn reaches row 19, so its 12th piece cannot move down
        # from its spawn and locks wholly in the buffer.
        lo, _ = new_match(d, keys, seed=1)
        m2 = play_out(d, lo, keys, 1)
        last = m2['last_turn']['players'][1]
        t.ok(m2['status'] == 'finished' and m2['turn'] == 12 and m2['end'] == 'last_standing' and
             m2['seats'][1]['end_reason'] == 'lock_out' and last['eliminated'] and
             last['end_reason'] == 'lock_out' and [s['place'] for s in m2['seats']] == [1, 2] and
             m2['seats'][1]['buffer'] != [],
             'lock out: a piece locked wholly in the buffer takes seat 1 out in turn 12, place 2 '
             '(its buffer rows now shown: %s)' % m2['seats'][1]['buffer'])
        tw = d.get('/api/matches/%s/turns' % mid)
        t.ok(tw.status == 200 and tw.json['turns'][0]['view']['seats'][0]['score'] == 0 and
             tw.json['turns'][1]['view']['seats'][0]['score'] == 37,
             'the turns page walks the match (turn 1: seat 0 scored 37)')
    finally:
        d.stop()
        d.cleanup()
    t.done()


main()
