"""Versus matches over HTTP, end to end: scripted 2-, 3- and 4-player
matches whose garbage, cancelling, targeting, arrival, holes, places and
missed turns are checked against expectations worked out by hand; the
lobby and the errors of every route; long polls, event streams, the turn
cap, a restart in mid-turn, moves racing deadlines; the boards side by
side (boardText) against the seats they show; replays (HTTP and
`arcaded verify`), certificates and Glicko-2 ratings.

Where the expectations come from. Every match below is on seed 7, whose
piece stream is (docs/stream.md, CPython's random.Random; `arcaded stream 7
12` prints the same)

    turn-order index  0 1 2 3 4 5 6 7 8 9 10 11
    piece             O Z T L I J S J T O I  L

and whose garbage holes for blocks 0-5 are 2, 2, 7, 7, 0, 0
(docs/rules/versus.md gives them; python3 -c 'import random; print([int(
random.Random(f"versus-v1:7:garbage:{k}").random() * 10) for k in
range(6)])' prints them). The placements were chosen with a throwaway
search; each board, count and place written below was then worked out by
hand from docs/rules/stackfall.md (shapes, the drop from above, clears) and
docs/rules/versus.md (attacks, cancelling, targeting, rising, places), as
the comments show. Shapes used (top row first; a rotation is placed by its
leftmost column; a piece lands on the highest filled cell under it):

    O 0  ##/##      T 0  .#./###   T 2  ###/.#.   L 0  ..#/###
    L 1  #./#./##   Z 0  ##./.##   Z 1  .#/##/#.  J 0  #../###
    J 2  ###/..#    S 0  .##/##.   S 1  #./##/.#  I 1  vertical, 4 rows
"""
import copy
import functools
import json
import math
import os
import re
import socket
import subprocess
import threading
import time

from harness import Daemon, Tap, binary, verify_cli
import matches
from matches import account, board, get, new_match

t = Tap()
# A move asks the whole match view in the answer too: these tests read it.
move = functools.partial(matches.move, view='full')


def play_turn(d, mid, keys, turn, commands):
    """Sends commands[i] for player i (None: nothing sent); answers the
    answers. The last mover's answer holds the resolved turn."""
    out = []
    for k, c in zip(keys, commands):
        if c is not None:
            out.append(move(d, mid, k, turn, c))
    return out


def wait(d, mid, after, key=None, timeout=40):
    r = d.request('GET', '/api/matches/%s/wait?after=%d' % (mid, after), headers=key or {},
                  conn=d.connection(timeout=timeout))
    assert r.status == 200, r
    return r.json


def seat_events(m, seat):
    return m['last_turn']['players'][seat]


def board_text_of(m):
    """The view's boardText as docs/api.md describes it, rebuilt from the
    view's own seats: a 12-character column a seat, a line of names, a
    line of states, the 20 rows of each board two blanks apart, every line
    without its trailing blanks."""
    cols = []
    for s in m['seats']:
        if not s['alive']:
            state = '#%d %s' % (s['place'], s['end_reason'])
        elif s['place'] is not None:
            state = '#%d %d' % (s['place'], s['score'])
        elif s['pending']:
            state = '%d +%d' % (s['score'], s['pending'])
        else:
            state = '%d' % s['score']
        cols.append((('%d %s' % (s['seat'], s['account']))[:11], state[:11], s['board_text'].split('\n')))
    lines = [''.join(c[0].ljust(12) for c in cols).rstrip(), ''.join(c[1].ljust(12) for c in cols).rstrip()]
    lines += ['  '.join(c[2][row] for c in cols) for row in range(20)]
    return '\n'.join(lines)


def board_text_shape(m):
    """22 lines; with n seats, board rows 12n - 2 wide, headers at most 12n - 1."""
    lines = (m.get('boardText') or '').split('\n')
    n = len(m['seats'])
    return (len(lines) == 22 and all(len(x) == 12 * n - 2 for x in lines[2:]) and
            all(0 < len(x) <= 12 * n - 1 for x in lines[:2]))



# The same six placements for everybody (2- and 4-player matches). With
# the stream above:
#   1 place 0 3 ... O at columns 0-1, rows 1-2.
#   2 hold; place 0 3: Z goes to hold, T (index 2) lands flat at 3-5:
#     row 1 columns 3-5, row 2 column 4.
#   3 place 0 6: L flat at 6-8: row 1 columns 6-8, row 2 column 8.
#   4 hold; place 1 2: I (index 4) is swapped for the held Z; Z 1 at column
#     2: column 2 is empty and column 3 is 1 high, so it lands with column
#     2 in rows 1-2 and column 3 in rows 2-3.
#   5 place 0 5: J on columns 5-7, all 1 high: row 2 columns 5-7, row 3
#     column 5.
#   6 hold; place 1 9: S (index 6) is swapped for the held I, which drops
#     into column 9, rows 1-4. Rows 1 (OOZTTTLLLI) and 2 (OOZZTJJJLI) are
#     full: a double, 300 points, combo 0, attack 1. Rows 3-4 fall to 1-2.
#   7 place 0 0: J (index 7) flat at 0-2 on the floor: row 1 columns 0-2,
#     row 2 column 0; nothing clears.
DOUBLE6 = ['place 0 0', 'hold; place 0 3', 'place 0 6', 'hold; place 1 2', 'place 0 5',
           'hold; place 1 9']
AFTER6 = board('.........I',
               '...Z.J...I')


def grey(hole):
    return ''.join('.' if c == hole else 'G' for c in range(10))


def after7(hole):
    # Turn 7's J, then the one queued grey row rises under everything.
    return board('J........I',
                 'JJJZ.J...I',
                 grey(hole))


def two_players(d):
    """Two players trade doubles in turn 6 and both take a grey row in turn 7."""
    keys = [account(d, 'vs2_a'), account(d, 'vs2_b')]
    lobby = d.post('/api/matches', {'players': 2, 'turn_seconds': 30, 'seed': 7}, headers=keys[0])
    mid = lobby.json['match_id']
    t.ok(lobby.status == 201 and lobby.json['status'] == 'lobby' and lobby.json['joined'] == 1 and
         lobby.json['seats'][0]['account'] == 'vs2_a' and lobby.json['seed'] is None,
         'create: a lobby with its creator in seat 0, the seed withheld')
    t.ok('boardText' in lobby.json and lobby.json['boardText'] is None, 'the lobby has no boardText (null)')
    r = move(d, mid, keys[0], 1, 'place 0 0')
    t.eq((r.status, r.error_code), (409, 'match_not_started'), 'a move in the lobby: 409 match_not_started')
    t.eq(d.post('/api/matches/%s/join' % mid, None, headers=keys[0]).error_code, 'already_joined',
         'the creator cannot join twice: 409 already_joined')

    # A long poll in the lobby answers when the last seat fills.
    got = {}

    def poll():
        t0 = time.monotonic()
        got['m'] = wait(d, mid, 0)
        got['s'] = time.monotonic() - t0

    th = threading.Thread(target=poll)
    th.start()
    time.sleep(0.3)
    r = d.post('/api/matches/%s/join' % mid, None, headers=keys[1])
    th.join(30)
    t.ok(r.status == 200 and r.json['status'] == 'playing' and r.json['turn'] == 0 and
         r.json['you'] == 1 and 0 < r.json['deadline_in_ms'] <= 30000,
         'the second seat starts the match: playing, turn 0, a deadline')
    t.ok(got.get('m', {}).get('status') == 'playing' and got['s'] < 10,
         'a long poll begun in the lobby answers at the start (%.2f s)' % got.get('s', -1))
    me = r.json['seats'][1]
    other = r.json['seats'][0]
    t.ok(me['current'] == 'O' and me['next'] == ['Z', 'T', 'L'] and other['current'] == 'O' and
         other['next'] is None and other['hold'] is None,
         'a player sees its own preview (Z T L) and not the other\'s; current pieces are public')
    t.eq(get(d, mid)['seats'][1]['next'], None, 'a spectator sees no preview')

    d3 = account(d, 'vs2_c')
    t.eq(d.post('/api/matches/%s/join' % mid, None, headers=d3).error_code, 'match_full',
         'a third account finds no seat: 409 match_full')
    t.eq(move(d, mid, d3, 1, 'place 0 0').error_code, 'not_a_player',
         'a move from an account without a seat: 403 not_a_player')

    # Turn 1, with the refusals a player may make and correct.
    r = move(d, mid, keys[0], 1, 'place 0 9')
    t.ok(r.status == 422 and r.error_code == 'illegal_action' and 'columns 0-8' in r.json['error']['message'],
         'O at column 9 does not fit: 422 illegal_action, naming the columns 0-8')
    t.eq(move(d, mid, keys[0], 1, 'hold').error_code, 'invalid_command', 'hold alone: 422 invalid_command')
    t.eq(move(d, mid, keys[0], 1, '').error_code, 'empty_command', 'no command: 422 empty_command')
    r = move(d, mid, keys[0], 2, 'place 0 0')
    t.ok(r.status == 409 and r.error_code == 'wrong_turn' and r.json['turn'] == 1,
         'a move for turn 2 while turn 1 is open: 409 wrong_turn, turn 1 named')
    r = move(d, mid, keys[0], 1, 'place 0 4', view='every')
    t.ok(r.status == 400 and r.error_code == 'invalid_request' and 'view' in r.json['error']['message'],
         'a move asking an unknown view (?view=every): 400 invalid_request naming the query')
    r = move(d, mid, keys[0], 1, 'place 0 0')
    t.ok(r.status == 200 and r.json['resolved'] is False and r.json['move'] == 'place 0 0' and
         r.json['match']['seats'][0]['moved'] is True and r.json['match']['seats'][1]['moved'] is False,
         'the corrected move is taken and waits for the other player')
    t.eq(move(d, mid, keys[0], 1, 'place 0 2').error_code, 'already_moved',
         'a second move in the same turn: 409 already_moved')
    r = move(d, mid, keys[0], 1, 'place 0 0')
    t.ok(r.status == 200 and r.json['resolved'] is False and r.json['move'] == 'place 0 0',
         'the same move sent again (its answer lost) gets its first answer, 200, not already_moved')
    r = move(d, mid, keys[1], 1, 'PLACE 00 0', view=None)
    t.ok(r.status == 200 and r.json['resolved'] is True and r.json['move'] == 'place 0 0' and
         r.json['state']['turn'] == 1, 'the last move resolves the turn at once (its canonical text shown)')
    view = get(d, mid, keys[1])
    st = r.json['state']
    t.ok('match' not in r.json and st['status'] == 'playing' and st['end'] is None and
         st['seat'] == view['seats'][1] and st['seat']['seat'] == 1 and st['seat']['moved'] is False and
         0 <= st['deadline_in_ms'] <= 1000 * view['turn_seconds'],
         'by default the answer holds the mover\'s own seat after the turn, as GET shows it, not the match')
    t.eq(move(d, mid, keys[1], 1, 'place 0 2').error_code, 'wrong_turn',
         'a move for a turn already resolved: 409 wrong_turn')
    r = move(d, mid, keys[1], 1, 'place 0 0')
    t.ok(r.status == 200 and r.json['resolved'] is True and r.json['move'] == 'place 0 0',
         'the move that resolved a turn, sent again, gets 200 resolved, not wrong_turn')
    r = move(d, mid, keys[0], 1, 'place 0 0')
    t.ok(r.status == 200 and r.json['resolved'] is True,
         'and so does the first player\'s, once the turn is resolved')

    for turn in range(2, 7):
        play_turn(d, mid, keys, turn, [DOUBLE6[turn - 1]] * 2)
    m = get(d, mid)
    e0, e1 = seat_events(m, 0), seat_events(m, 1)
    t.ok(m['turn'] == 6 and all(s['board_text'] == AFTER6 for s in m['seats']),
         'turn 6: both doubles clear rows 1-2 (boards as worked out by hand)')
    t.ok((e0['lines'], e0['points'], e0['combo'], e0['attack'], e0['cancelled'], e0['sent'], e0['target']) ==
         (2, 300, 0, 1, 0, 1, 1) and
         (e1['lines'], e1['attack'], e1['cancelled'], e1['sent'], e1['target']) == (2, 1, 0, 1, 0),
         'each double is worth 1 line, nothing to cancel: player 0 sends to 1, player 1 to 0')
    t.ok(e0['received'] == 1 and e1['received'] == 1 and e0['risen'] == [] and
         all(s['pending'] == 1 for s in m['seats']),
         'both blocks wait in the queues (pending 1): sent this turn, they do not rise yet')
    t.ok('hole' not in json.dumps(e0) and 'hole' not in json.dumps(e1),
         'the hole of a block on its way is not shown')

    play_turn(d, mid, keys, 7, ['place 0 0', 'place 0 0'])
    m = get(d, mid)
    # Blocks 0 and 1 are the turn-6 sends of players 0 and 1, holes 2 and 2.
    t.ok(m['seats'][0]['board_text'] == after7(2) and m['seats'][1]['board_text'] == after7(2),
         'turn 7: each grey row rises under the board, open at column 2')
    t.ok(seat_events(m, 0)['risen'] == [{'lines': 1, 'hole': 2}] and
         seat_events(m, 1)['risen'] == [{'lines': 1, 'hole': 2}] and
         all(s['pending'] == 0 for s in m['seats']),
         'and the turn reports it: risen [{lines 1, hole 2}], the queues empty')

    r = play_turn(d, mid, keys, 8, ['resign', 'place 0 4'])[-1]
    m = r.json['match']
    t.ok(m['status'] == 'finished' and m['end'] == 'last_standing' and m['seed'] == 7 and
         [(s['place'], s['end_reason']) for s in m['seats']] == [(2, 'resigned'), (1, None)],
         'player 0 resigns: player 1 wins, place 1 and 2, the seed shown at last')
    t.ok([(s['score'], s['lines'], s['lines_sent'], s['lines_received']) for s in m['seats']] ==
         [(300, 2, 1, 1), (300, 2, 1, 1)], 'results: 300 points, 2 lines, 1 line sent and 1 received each')
    t.eq(move(d, mid, keys[1], 9, 'place 0 0').error_code, 'match_over', 'a move after the end: 409 match_over')
    return mid


def three_players(d):
    """Player 0's double lands in player 1's queue; player 1 clears a
    triple before it rises, cancelling it and sending the rest on."""
    keys = [account(d, 'vs3_%d' % i) for i in range(3)]
    mid, _ = new_match(d, keys, turn_seconds=30, seed=7)
    # Player 0 (double in turn 7):
    #   1 O at 0-1.  2 hold (Z); T flat at 4-6: row 1 4-6, row 2 5.
    #   3 L 1 at 2: column 2 rows 1-3, column 3 row 1.
    #   4 hold (I for Z); Z 0 at 6: column 6 is 1 high, 7-8 empty: row 1
    #     columns 7-8, row 2 columns 6-7.
    #   5 J 2 at 6: columns 6-7 are 2 high, 8 is 1: column 8 rows 2-3, row 3
    #     columns 6-8.
    #   6 S 0 at 3: columns 3-4 are 1 high, 5 is 2: row 2 columns 3-4, row 3
    #     columns 4-5.
    #   7 hold (J for I); I into column 9: rows 1 OOLLTTTZZI and 2
    #     OOLSSTZZJI clear, row 3 ..L.SSJJJI and row 4 .........I fall.
    p0 = ['place 0 0', 'hold; place 0 4', 'place 1 2', 'hold; place 0 6', 'place 2 6', 'place 0 3',
          'hold; place 1 9', 'place 0 0', 'place 0 4', 'place 1 3']
    # Player 1 (triple in turn 8):
    #   2 hold (Z); T flat at 2-4: row 1 2-4, row 2 3.
    #   3 L 1 at 5: column 5 rows 1-3, column 6 row 1.
    #   4 hold (I for Z); Z 0 at 6: row 1 columns 7-8, row 2 columns 6-7.
    #   5 J 2 at 0: columns 0-1 are 2 high, 2 is 1: column 2 row 2, row 3
    #     columns 0-2.
    #   6 S 1 at 3: column 3 is 2 high, 4 is 1: column 4 rows 2-3, column 3
    #     rows 3-4.
    #   7 J 2 at 6: column 8 row 2, row 3 columns 6-8. Nothing clears.
    #   8 hold (T for I); I into column 9: rows 1-3 OOTTTLLZZI, OOJTSLZZJI,
    #     JJJSSLJJJI clear; row 4 ...S.....I falls to row 1.
    p1 = ['place 0 0', 'hold; place 0 2', 'place 1 5', 'hold; place 0 6', 'place 2 0', 'place 1 3',
          'place 2 6', 'hold; place 1 9', 'place 0 0', 'resign']
    # Player 2 stacks without clearing: player 0's first six placements,
    # then 7 J 0 at 2 (columns 2-4 are 3, 2 and 3 high: row 4 columns 2-4,
    # row 5 column 2), 8 T 0 at 5 (columns 5-7 are 3 high: row 4 columns
    # 5-7, row 5 column 6), 9 O at 0 (columns 0-1 are 2 high: rows 3-4).
    p2 = p0[:6] + ['place 0 2', 'place 0 5', 'place 0 0', 'resign']
    for turn in range(1, 8):
        play_turn(d, mid, keys, turn, [p0[turn - 1], p1[turn - 1], p2[turn - 1]])
    m = get(d, mid)
    e = seat_events(m, 0)
    t.ok((e['lines'], e['attack'], e['sent'], e['target']) == (2, 1, 1, 1) and
         m['seats'][0]['board_text'] == board('.........I', '..L.SSJJJI'),
         'turn 7: player 0 doubles (board as worked out) and sends its line to player 1, the next seat')
    t.ok(m['seats'][1]['pending'] == 1 and seat_events(m, 1)['risen'] == [] and
         seat_events(m, 1)['lines'] == 0 and
         m['seats'][1]['board_text'] == board('...S......', 'JJJSSLJJJ.', 'OOJTSLZZJ.', 'OOTTTLLZZ.'),
         'player 1 cleared nothing, yet the block sent this turn waits: pending 1, nothing risen')

    play_turn(d, mid, keys, 8, [p0[7], p1[7], p2[7]])
    m = get(d, mid)
    e = seat_events(m, 1)
    t.ok((e['lines'], e['points'], e['attack'], e['cancelled'], e['sent'], e['target']) ==
         (3, 500, 2, 1, 1, 2) and m['seats'][1]['board_text'] == board('...S.....I') and
         m['seats'][1]['pending'] == 0,
         'turn 8: player 1\'s triple is worth 2 lines: 1 cancels its queue, 1 goes on to player 2')
    t.ok(seat_events(m, 2)['received'] == 1 and m['seats'][2]['pending'] == 1 and
         seat_events(m, 2)['risen'] == [],
         'player 2 receives it; it waits for player 2\'s next placement')

    play_turn(d, mid, keys, 9, [p0[8], p1[8], p2[8]])
    m = get(d, mid)
    t.ok(m['seats'][2]['board_text'] == board('..J...T...', 'OOJJJTTT..', 'OOL.SSJJJ.', 'OOLSSTZZJ.',
                                              'OOLLTTTZZ.', grey(2)) and
         seat_events(m, 2)['risen'] == [{'lines': 1, 'hole': 2}] and m['seats'][2]['pending'] == 0,
         'turn 9: it rises under player 2\'s board, open at column 2 (block 1 of seed 7)')

    r = play_turn(d, mid, keys, 10, [p0[9], p1[9], p2[9]])[-1]
    m = r.json['match']
    t.ok(m['status'] == 'finished' and m['end'] == 'last_standing' and
         [s['place'] for s in m['seats']] == [1, 2, 2] and
         [s['end_reason'] for s in m['seats']] == [None, 'resigned', 'resigned'],
         'players 1 and 2 resign in the same turn: they share place 2, player 0 wins')
    t.ok([(s['score'], s['lines'], s['lines_sent'], s['lines_received']) for s in m['seats']] ==
         [(300, 2, 1, 0), (500, 3, 1, 1), (0, 0, 0, 1)],
         'results: scores 300/500/0, lines sent 1/1/0 and received 0/1/1')
    return mid


def four_players(d):
    """All four double in turn 6 (targets 1, 2, 3, 0); players drop out by
    resigning and by missing three turns; an attack skips a player out."""
    keys = [account(d, 'vs4_%d' % i) for i in range(4)]
    mid, _ = new_match(d, keys, turn_seconds=2, seed=7)
    for turn in range(1, 7):
        play_turn(d, mid, keys, turn, [DOUBLE6[turn - 1]] * 4)
    m = get(d, mid)
    ev = m['last_turn']['players']
    # Senders in match order: blocks 0-3 go 0->1, 1->2, 2->3 and 3->0 (the
    # cursor starts at the sender itself and walks forward, wrapping).
    t.eq([(e['sent'], e['target']) for e in ev], [(1, 1), (1, 2), (1, 3), (1, 0)],
         'turn 6: four doubles, each sent to the next seat, the last wrapping to seat 0')
    t.ok(all(s['pending'] == 1 for s in m['seats']) and all(e['received'] == 1 for e in ev),
         'every player has one line queued')

    play_turn(d, mid, keys, 7, ['place 0 0'] * 4)
    m = get(d, mid)
    # Holes of blocks 0-3: 2, 2, 7, 7. Player 0 takes block 3, 1 block 0,
    # 2 block 1, 3 block 2.
    t.eq([s['board_text'] for s in m['seats']], [after7(7), after7(2), after7(2), after7(7)],
         'turn 7: the grey rows rise with holes 7, 2, 2, 7 (blocks 3, 0, 1, 2)')

    # Turn 8: player 2 resigns, player 3 sends nothing. Players 0 and 1:
    # hold (T for the held S); S 1 at 3: column 3 is 2 high, 4 is 1 (the
    # grey row): column 4 rows 2-3, column 3 rows 3-4. Player 3's missed
    # turn drops its T at rotation 0, column 3: columns 3-5 are 2, 1 and 2
    # high, so row 3 columns 3-5 and row 4 column 4.
    t0 = time.monotonic()
    play_turn(d, mid, keys, 8, ['hold; place 1 3', 'hold; place 1 3', 'resign', None])
    m = wait(d, mid, 7)
    took = time.monotonic() - t0
    e3 = seat_events(m, 3)
    t.ok(m['turn'] == 8 and 1.0 < took < 10, 'turn 8 waits for its deadline (%.2f s, turn_seconds 2)' % took)
    t.ok(e3['action'] == 'dropped' and (e3['piece'], e3['rotation'], e3['column']) == ('T', 0, 3) and
         m['seats'][3]['missed'] == 1 and
         m['seats'][3]['board_text'] == board('....T.....', 'J..TTT...I', 'JJJZ.J...I', grey(7)),
         'player 3 missed turn 8: its T dropped at rotation 0, column 3; missed 1')
    t.ok(m['seats'][2]['alive'] is False and m['seats'][2]['place'] == 4 and
         m['seats'][2]['end_reason'] == 'resigned', 'player 2 resigned in turn 8: place 4 of 4')
    t.eq(m['seats'][0]['board_text'], board('...S......', 'J..SS....I', 'JJJZSJ...I', grey(7)),
         'player 0\'s S as worked out')
    t.ok(board_text_shape(m), 'boardText: 22 lines, the board rows 4 * 12 - 2 wide, the headers no wider '
         'than 4 * 12 - 1')
    t.eq(m['boardText'], board_text_of(m), 'boardText sets the four boards side by side under the seats\' '
         'names and states (a player out, lines queued, grey rows)')
    t.eq(m['boardText'].split('\n')[:2], ['0 vs4_0     1 vs4_1     2 vs4_2     3 vs4_3',
         '%-12d%-12d#4 resigned %d' % (m['seats'][0]['score'], m['seats'][1]['score'],
                                          m['seats'][3]['score'])],
         'its headers: seat and name, then the score, or the place and reason of the resigned player')
    t.eq(get(d, mid, keys[0])['boardText'], m['boardText'], 'a player and a spectator see the same boardText')

    # Turn 9: player 0 swaps the held T back and lays it upside down at 6:
    # its stem fills the hole at column 7 of the grey row and its top row
    # completes row 2: a double (combo 0: attack 1). Player 0's cursor is
    # at 1: seat 2 is out, so the line goes to seat 3 (block 4, hole 0).
    # Player 1 drops its O on columns 0-1 (3 and 2 high: rows 4-5).
    # Player 3 misses again: its O drops at column 4 (4 and 3 high: rows 5-6).
    play_turn(d, mid, keys, 9, ['hold; place 2 6', 'place 0 0', None, None])
    m = wait(d, mid, 8)
    e0, e3 = seat_events(m, 0), seat_events(m, 3)
    t.ok((e0['lines'], e0['attack'], e0['sent'], e0['target']) == (2, 1, 1, 3) and
         m['seats'][0]['board_text'] == board('...S......', 'J..SS....I'),
         'turn 9: player 0 clears the grey row and the next; the line skips seat 2 (out) for seat 3')
    t.ok(e3['action'] == 'dropped' and e3['piece'] == 'O' and e3['column'] == 4 and
         m['seats'][3]['missed'] == 2 and m['seats'][3]['pending'] == 1,
         'player 3 misses turn 9 too (missed 2) and has the line queued')
    t.eq(m['boardText'].split('\n')[1].split()[-2:], [str(m['seats'][3]['score']), '+1'],
         'boardText shows the line queued for player 3 beside its score ("+1")')

    play_turn(d, mid, keys, 10, ['place 0 0', 'place 1 8', None, None])
    m = wait(d, mid, 9)
    e3 = seat_events(m, 3)
    t.ok(e3['action'] == 'timed_out' and m['seats'][3]['alive'] is False and
         m['seats'][3]['end_reason'] == 'missed' and m['seats'][3]['place'] == 3 and
         m['seats'][3]['pending'] == 0,
         'turn 10: the third missed turn in a row takes player 3 out (missed), place 3; its queue goes')
    r = play_turn(d, mid, keys, 11, ['place 0 0', 'resign', None, None])[-1]
    m = r.json['match']
    t.ok(m['status'] == 'finished' and [s['place'] for s in m['seats']] == [1, 2, 4, 3] and
         [s['end_reason'] for s in m['seats']] == [None, 'resigned', 'resigned', 'missed'],
         'player 1 resigns in turn 11: places 1, 2, 4, 3')
    t.ok([(s['lines_sent'], s['lines_received']) for s in m['seats']] == [(2, 1), (1, 1), (1, 1), (1, 2)],
         'lines sent and received: 2/1, 1/1, 1/1, 1/2')
    t.ok(board_text_shape(m) and m['boardText'] == board_text_of(m) and
         m['boardText'].split('\n')[1].startswith('#1 %d' % m['seats'][0]['score']),
         'at the end boardText shows the winner as "#1 SCORE" and every other seat\'s place and reason')
    return mid


def replays(d, mids):
    for mid in mids:
        r = d.get('/api/matches/%s/replay' % mid)
        rep, cert = r.json['replay'], r.json['certificate']
        v = d.post('/api/matches/replays/verify', {'replay': rep, 'certificate': cert})
        t.ok(r.status == 200 and v.status == 200 and v.json['valid'] is True and
             v.json['certificate']['valid'] is True and v.json['certificate']['claims']['match'] == mid and
             v.json['final'] == rep['final'],
             'match %s: its replay verifies over HTTP, and its certificate names it' % mid)
        rc, out = verify_cli(r.json)
        t.ok(rc == 0 and out.startswith('valid: versus-v1 match replay, %d turns' % len(rep['turns'])),
             'and with arcaded verify (%s)' % out.strip()[:60])
    # Tampering with the 4-player replay.
    rep = d.get('/api/matches/%s/replay' % mids[-1]).json['replay']
    t.ok(rep['turns'][7] == ['hold; place 1 3', 'hold; place 1 3', 'resign', 'missed'] and
         rep['turns'][8][2] is None, 'the replay marks missed turns, and null for a player out')
    bad = copy.deepcopy(rep)
    bad['turns'][4][1] = 'place 0 9'
    v = d.post('/api/matches/replays/verify', bad)
    t.ok(v.status == 422 and v.error_code == 'invalid_replay' and v.json['turn'] == 5,
         'a move changed to an illegal one is refused with its turn (5): %s' % v.json.get('reason'))
    rc, out = verify_cli(bad)
    t.ok(rc == 1 and out.startswith('invalid at turn 5'), 'arcaded verify refuses it too (%s)' % out.strip()[:50])
    bad = copy.deepcopy(rep)
    bad['turns'][8][0] = 'place 0 0'
    v = d.post('/api/matches/replays/verify', bad)
    t.ok(v.status == 422 and v.json['turn'] == len(rep['turns']) and 'final' in v.json['reason'],
         'a legal move changed: the final summary differs, refused at the last turn')
    bad = copy.deepcopy(rep)
    bad['final']['players'][0]['place'] = 2
    v = d.post('/api/matches/replays/verify', bad)
    t.ok(v.status == 422 and 'final.players[0].place' in v.json['reason'], 'a changed place is named')
    bad = copy.deepcopy(rep)
    bad['turns'][8][2] = 'place 0 0'
    t.eq(d.post('/api/matches/replays/verify', bad).json.get('turn'), 9,
         'a move for a player already out is refused at its turn')
    bad = copy.deepcopy(rep)
    bad['turns'].append(['place 0 0', None, None, None])
    t.eq(d.post('/api/matches/replays/verify', bad).json.get('turn'), len(rep['turns']) + 1,
         'a turn after the end is refused')
    other = d.get('/api/matches/%s/replay' % mids[0]).json
    v = d.post('/api/matches/replays/verify', {'replay': rep, 'certificate': other['certificate']})
    t.ok(v.status == 422 and 'another replay' in v.json['reason'],
         'a certificate of another match is refused')


def errors(d):
    key = account(d, 'vs_err')
    t.eq(d.post('/api/matches', {'players': 9}, headers=key).error_code, 'invalid_request', 'players 9: 400')
    t.eq(d.post('/api/matches', {}, headers=key).error_code, 'invalid_request', 'players missing: 400')
    t.eq(d.post('/api/matches', {'players': 2, 'turn_seconds': 0}, headers=key).error_code,
         'invalid_request', 'turn_seconds 0: 400')
    t.eq(d.post('/api/matches', {'players': 2, 'color': 1}, headers=key).error_code, 'invalid_request',
         'an unknown field: 400')
    t.eq(d.post('/api/matches', {'players': 2, 'seed': 5, 'rated': True}, headers=key).error_code,
         'invalid_request', 'a rated match with a chosen seed: 400')
    t.eq(d.post('/api/matches', {'players': 2, 'rated': True}, headers=key).error_code,
         'invalid_request', 'a created match asking to be rated: 400 (rated matches are the queue\'s)')
    t.eq(d.post('/api/matches', {'players': 2}).status, 401, 'no agent key: 401')
    t.eq(d.get('/api/matches/123').error_code, 'match_not_found', 'an unknown match: 404')
    t.eq(d.get('/api/matches/abc').error_code, 'match_not_found', 'a malformed id: 404')
    t.eq(d.get('/api/matches/123/wait').error_code, 'invalid_request', 'wait without after: 400')
    r = d.post('/api/matches', {'players': 2, 'rules': 'versus-v9'}, headers=key)
    t.ok(r.error_code == 'invalid_request' and r.json['error']['message'].startswith("field 'rules' must be one of: versus-v1"),
         'rules no ruleset of ours has: 400, naming the rulesets (%s)' % r.json['error'].get('message'))
    t.eq(d.post('/api/matches', {'players': 2, 'rules': 1}, headers=key).error_code, 'invalid_request',
         'rules not a string: 400')
    r = d.post('/api/matches', {'players': 2, 'rules': 'versus-v1'}, headers=key)
    t.ok(r.status == 201 and r.json['rules'] == 'versus-v1', 'rules versus-v1 named: the match plays by it')
    mid = d.post('/api/matches', {'players': 2}, headers=key).json['match_id']
    t.eq(d.get('/api/matches/%s' % mid).json['rules'], 'versus-v1', 'no rules: versus-v1, the default')
    t.eq(d.get('/api/matches/%s/replay' % mid).error_code, 'match_not_over', 'the replay of a lobby: 409')
    t.eq(d.post('/api/matches/replays/verify', {'schema': 1, 'rules': 'versus-v1'}).status, 422,
         'a replay without its fields: 422')


def lobbies(d):
    """An account has at most 10 matches waiting for players; the 11th is
    refused and creates nothing, until one of them starts."""
    key, other = account(d, 'vs_lobbies'), account(d, 'vs_lobbies_b')

    def waiting():
        return d.sql("SELECT count(*) FROM matches m JOIN accounts a ON a.id = m.created_by "
                     "WHERE a.name = 'vs_lobbies' AND m.status = 'lobby'")[0][0]

    made = [d.post('/api/matches', {'players': 2}, headers=key) for _ in range(10)]
    t.ok(all(r.status == 201 for r in made) and waiting() == 10, 'one account opens 10 lobbies')
    r = d.post('/api/matches', {'players': 3}, headers=key)
    t.ok(r.status == 409 and r.error_code == 'too_many_lobbies' and '10' in r.json['error']['message'],
         'the 11th: 409 too_many_lobbies, naming the bound (%s)' % r.json['error']['message'])
    t.eq(waiting(), 10, 'and nothing was created')
    t.eq(d.post('/api/matches/%s/join' % made[0].json['match_id'], None, headers=other).status, 200,
         'another account takes the last seat of one: it starts')
    t.eq(d.post('/api/matches', {'players': 2}, headers=key).status, 201,
         'then the account may open one more')
    t.eq(d.post('/api/matches', {'players': 2}, headers=other).status, 201,
         'the bound is per account: the other opens its own')


def streams(d):
    """Server-Sent Events: the start and every turn, then the end."""
    keys = [account(d, 'vs_sse_a'), account(d, 'vs_sse_b')]
    r = d.post('/api/matches', {'players': 2, 'turn_seconds': 30, 'seed': 7}, headers=keys[0])
    mid = r.json['match_id']
    s = socket.create_connection(('127.0.0.1', d.port), timeout=20)
    s.sendall(('GET /api/matches/%s/events HTTP/1.1\r\nHost: x\r\n\r\n' % mid).encode())
    buf = b''
    while b'event: match' not in buf:
        buf += s.recv(65536)
    t.ok(b'text/event-stream' in buf and b'"status":"lobby"' in buf,
         'the stream opens with the match as it stands (the lobby)')
    d.post('/api/matches/%s/join' % mid, None, headers=keys[1])
    play_turn(d, mid, keys, 1, ['place 0 0', 'place 0 4'])
    play_turn(d, mid, keys, 2, ['resign', 'place 0 0'])
    deadline = time.monotonic() + 20
    while b'"status":"finished"' not in buf and time.monotonic() < deadline:
        c = s.recv(65536)
        if not c:
            break
        buf += c
    text = buf.decode('utf-8', 'replace')
    t.ok('"status":"playing"' in text and
         '"turn":1' in text and '"status":"finished"' in text,
         'then the start, turn 1, and the end')
    t.ok('"next":["' not in text, 'a stream shows nobody\'s preview')
    # The server ends the stream after the last event: the chunked body's
    # terminator follows.
    while not buf.endswith(b'0\r\n\r\n') and time.monotonic() < deadline:
        c = s.recv(65536)
        if not c:
            break
        buf += c
    t.ok(buf.endswith(b'0\r\n\r\n'), 'and the stream ends with the match')
    s.close()


def races(d):
    """The last move and the deadline race for the same turn, twelve times:
    each turn resolves exactly once. The late player alternates, so that
    nobody misses two turns in a row."""
    keys = [account(d, 'vs_race_a'), account(d, 'vs_race_b')]
    mid, r = new_match(d, keys, turn_seconds=1, seed=11)
    outcomes = {'move': 0, 'deadline': 0}
    turns = 12

    def upright(m, seat):
        # Rotation 1 of every piece is at most 2 wide: stand it where the
        # two columns under it are lowest.
        rows = m['seats'][seat]['board_text'].split('\n')
        h = [next((20 - i for i, row in enumerate(rows) if row[c] != '.'), 0) for c in range(10)]
        return 'place 1 %d' % min(range(9), key=lambda c: max(h[c], h[c + 1]))

    for turn in range(1, turns + 1):
        m = get(d, mid)
        if m['status'] != 'playing':
            break
        early, late = turn % 2, 1 - turn % 2
        move(d, mid, keys[early], turn, upright(m, early))
        # Sleep until about the deadline, give or take 20 ms.
        time.sleep(max(0.0, m['deadline_in_ms'] / 1000.0 - 0.02 + 0.004 * (turn % 10)))
        r = move(d, mid, keys[late], turn, upright(m, late))
        if r.status == 200:
            outcomes['move'] += 1
        elif r.error_code == 'wrong_turn':
            outcomes['deadline'] += 1
        m = wait(d, mid, turn - 1)
        if m['turn'] != turn:
            break
    m = get(d, mid)
    t.ok(m['turn'] == turns and outcomes['move'] + outcomes['deadline'] == turns,
         'twelve turns, each resolved once (%d by the last move, %d by the deadline)' %
         (outcomes['move'], outcomes['deadline']))
    move(d, mid, keys[0], turns + 1, 'resign')
    move(d, mid, keys[1], turns + 1, upright(m, 1))
    rep = d.get('/api/matches/%s/replay' % mid).json['replay']
    t.ok(len(rep['turns']) == turns + 1 and d.post('/api/matches/replays/verify', rep).status == 200,
         'the replay holds one entry a turn and verifies')


def together(d):
    """Both moves of a turn sent at the same moment, many times."""
    keys = [account(d, 'vs_tog_a'), account(d, 'vs_tog_b')]
    mid, _ = new_match(d, keys, turn_seconds=30, seed=7)
    resolved = 0
    for turn in range(1, 7):
        res = [None, None]

        def send(i):
            res[i] = move(d, mid, keys[i], turn, DOUBLE6[turn - 1])

        ths = [threading.Thread(target=send, args=(i,)) for i in range(2)]
        for th in ths:
            th.start()
        for th in ths:
            th.join()
        resolved += sum(1 for r in res if r.status == 200 and r.json['resolved'])
        if not all(r.status == 200 for r in res):
            break
    m = get(d, mid)
    t.ok(resolved == 6 and m['turn'] == 6 and all(s['board_text'] == AFTER6 for s in m['seats']),
         'six turns of simultaneous moves: each resolved by exactly one of its two moves')


def glicko2_pair(win):
    """Glicko-2 (Glickman's example paper), one game between two new
    players, tau 0.5: a naive transcription, independent of engine/glicko2.c."""
    mu, phi, sigma, tau = 0.0, 350 / 173.7178, 0.06, 0.5
    g = 1 / math.sqrt(1 + 3 * phi * phi / math.pi ** 2)
    e = 1 / (1 + math.exp(-g * (mu - mu)))
    v = 1 / (g * g * e * (1 - e))
    s = 1.0 if win else 0.0
    delta = v * g * (s - e)
    a = math.log(sigma * sigma)

    def f(x):
        ex = math.exp(x)
        return ex * (delta ** 2 - phi ** 2 - v - ex) / (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / tau ** 2
    A = a
    if delta ** 2 > phi ** 2 + v:
        B = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        B = a - k * tau
    fa, fb = f(A), f(B)
    while abs(B - A) > 0.000001:
        C = A + (A - B) * fa / (fb - fa)
        fc = f(C)
        if fc * fb <= 0:
            A, fa = B, fb
        else:
            fa /= 2
        B, fb = C, fc
    sigma2 = math.exp(A / 2)
    phistar = math.sqrt(phi * phi + sigma2 * sigma2)
    phi2 = 1 / math.sqrt(1 / phistar ** 2 + 1 / v)
    mu2 = mu + phi2 * phi2 * g * (s - e)
    return 1500 + 173.7178 * mu2, 173.7178 * phi2


def ratings(d):
    # Rated matches come from the queue (tests/e2e/test_matchmaking.py has
    # the rest); each player sends 3 moves, the fewest that rate.
    keys = [account(d, 'vs_rate_a'), account(d, 'vs_rate_b')]
    mid = d.post('/api/matches/quick', {'players': 2, 'turn_seconds': 59}, headers=keys[0]).json['match_id']
    r = d.post('/api/matches/quick', {'players': 2, 'turn_seconds': 59}, headers=keys[1])
    t.ok(r.json['match_id'] == mid and r.json['rated'] is True and r.json['seed_chosen'] is False,
         'a rated match from the queue, the seed drawn by the server')
    for turn in (1, 2):
        move(d, mid, keys[0], turn, 'place 1 %d' % (3 * turn))
        move(d, mid, keys[1], turn, 'place 1 %d' % (3 * turn))
    move(d, mid, keys[0], 3, 'resign')
    r = move(d, mid, keys[1], 3, 'place 1 0')
    t.ok(r.status == 200 and r.json['match']['status'] == 'finished', 'player 0 resigns on turn 3')
    rt = {x['account']: x for x in d.get('/api/matches/ratings').json['ratings']}
    win, lose = glicko2_pair(True), glicko2_pair(False)
    a, b = rt.get('vs_rate_b'), rt.get('vs_rate_a')
    t.ok(a is not None and b is not None and abs(a['rating'] - win[0]) < 0.01 and
         abs(a['rd'] - win[1]) < 0.01 and abs(b['rating'] - lose[0]) < 0.01 and a['matches'] == 1,
         'ratings: the winner %.2f, the loser %.2f (independent Glicko-2: %.2f, %.2f)' %
         (a['rating'] if a else 0, b['rating'] if b else 0, win[0], lose[0]))
    m = r.json['match']
    t.ok(abs(m['seats'][1]['rating_after'] - win[0]) < 0.01 and m['seats'][1]['rating_before'] == 1500,
         'the match shows each player\'s rating before and after')


d = Daemon()
try:
    errors(d)
    lobbies(d)
    m2 = two_players(d)
    m3 = three_players(d)
    m4 = four_players(d)
    replays(d, [m2, m3, m4])
    streams(d)
    together(d)
    races(d)
    ratings(d)
    t.ok(d.get('/readyz').status == 200, 'the daemon is ready after all that')
finally:
    d.cleanup()

# The turn cap, and deadlines armed again after a restart.
d = Daemon(args=['--match-turn-cap', '3'])
try:
    keys = [account(d, 'cap_a'), account(d, 'cap_b')]
    mid, _ = new_match(d, keys, turn_seconds=30, seed=7)
    for turn in range(1, 4):
        r = play_turn(d, mid, keys, turn, [DOUBLE6[turn - 1]] * 2)[-1]
    m = r.json['match']
    t.ok(m['status'] == 'finished' and m['end'] == 'turn_cap' and m['turn'] == 3 and
         [s['place'] for s in m['seats']] == [1, 1] and m['turn_cap'] == 3,
         '--match-turn-cap 3: the match ends after turn 3, both players sharing place 1')
    rep = d.get('/api/matches/%s/replay' % mid).json['replay']
    t.ok(rep['turn_cap'] == 3 and rep['final']['end'] == 'turn_cap' and
         d.post('/api/matches/replays/verify', rep).status == 200, 'its replay names the cap and verifies')

    mid, _ = new_match(d, keys, turn_seconds=3, seed=7)
    move(d, mid, keys[0], 1, 'place 0 0')
    d.restart()
    t0 = time.monotonic()
    m = wait(d, mid, 0)
    t.ok(m['turn'] == 1 and seat_events(m, 1)['action'] == 'dropped' and
         seat_events(m, 0)['action'] == 'placed' and time.monotonic() - t0 < 10,
         'after a restart the deadline fires: the stored move counts, the other is missed')
finally:
    d.cleanup()

# A lobby nobody fills is deleted after --unplayed-retention; a started match
# is kept.
d = Daemon(args=['--unplayed-retention', '2'])
try:
    keys = [account(d, 'old_a'), account(d, 'old_b'), account(d, 'old_c')]
    lobby = d.post('/api/matches', {'players': 3}, headers=keys[0]).json['match_id']
    d.post('/api/matches/%s/join' % lobby, None, headers=keys[1])
    started, _ = new_match(d, keys[:2], turn_seconds=60)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and d.get('/api/matches/%s' % lobby).status != 404:
        time.sleep(0.25)
    t.eq(d.get('/api/matches/%s' % lobby).error_code, 'match_not_found',
         'a lobby still waiting after the retention is deleted: 404')
    t.eq(d.sql('SELECT count(*) FROM match_seats WHERE match_id = ?', (int(lobby),))[0][0], 0,
         'with its seats (the creator\'s and the one joined)')
    t.eq(d.get('/api/matches/%s' % started).status, 200, 'a started match is kept')
    t.eq(d.post('/api/matches/%s/join' % lobby, None, headers=keys[2]).error_code, 'match_not_found',
         'joining the deleted lobby: 404')
    metrics = d.get('/metrics').body
    t.ok(re.search(r'^arcaded_retention_deleted_total\{kind="lobbies"\} [1-9]', metrics, re.M) is not None,
         '/metrics counts the deleted lobbies')
finally:
    d.cleanup()
t.done()
