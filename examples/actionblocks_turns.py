#!/usr/bin/env python3
"""A starter bot for ActionBlocks on the turn clock (rules actionblocks-v1).

What it does: with an agent key (a new account unless --key is given) it
creates an ActionBlocks match and prints its id, or joins the one given with
--join. Each turn it reads its own well from the match view (the 20 visible
rows, top first, and the hidden buffer above them), its falling piece, its
hold and its previews. It tries every way of turning the piece (X, XX, Z)
and shifting it (L or R up to five times), with and without holding first,
on its own copy of the well with the SRS kicks, hard-drops each, and sends
the keys (`keys XLLD`) that clear the most rows, then leave the fewest holes
and the lowest, flattest stack. Then it waits for the turn with the long
poll (GET .../wait?after=TURN) and plays on to the end of the match, and
prints every seat's place. A 429 is waited out as its Retry-After says
(arcaded_client.py, which also holds the options every starter takes).
With --resign-after N it resigns on turn N + 1 (a short match for a test).

Run two of them, in two shells, with a daemon serving (./dev up):

    python3 examples/actionblocks_turns.py                  # prints: match 123...
    python3 examples/actionblocks_turns.py --join 123...

The server's address comes from --url, else the ARCADED_URL environment
variable, else http://127.0.0.1:8080. Exit status 0 when the match ended;
1 with a message on anything else. The rules: docs/rules/actionblocks.md.
"""
from arcaded_client import command, connect, match_result, options

# Each piece in its spawn state, top row first; turning the box a quarter
# clockwise gives the next state. A position is the box's top-left cell,
# x from the left, y upwards from the bottom row 0.
SPAWN = {'I': ['....', '####', '....', '....'], 'O': ['##', '##'], 'T': ['.#.', '###', '...'],
         'S': ['.##', '##.', '...'], 'Z': ['##.', '.##', '...'], 'J': ['#..', '###', '...'],
         'L': ['..#', '###', '...']}
# The SRS kick tests after (0, 0), per quarter turn, y up; reversed turns negate them.
KICKS = {'JLSTZ': {(0, 1): [(-1, 0), (-1, 1), (0, -2), (-1, -2)], (1, 2): [(1, 0), (1, -1), (0, 2), (1, 2)],
                   (2, 3): [(1, 0), (1, 1), (0, -2), (1, -2)], (3, 0): [(-1, 0), (-1, -1), (0, 2), (-1, 2)]},
         'I': {(0, 1): [(-2, 0), (1, 0), (-2, -1), (1, 2)], (1, 2): [(-1, 0), (2, 0), (-1, 2), (2, -1)],
               (2, 3): [(2, 0), (-1, 0), (2, 1), (-1, -2)], (3, 0): [(1, 0), (-2, 0), (1, -2), (-2, 1)]}}


def cells(letter, x, y, rot):
    box = SPAWN[letter]
    for _ in range(rot):
        box = [''.join(box[len(box) - 1 - c][r] for c in range(len(box))) for r in range(len(box))]
    return [(x + c, y - r) for r, line in enumerate(box) for c, ch in enumerate(line) if ch == '#']


def fits(well, letter, x, y, rot):
    return all(0 <= cx < 10 and 0 <= cy < 40 and (cx, cy) not in well for cx, cy in cells(letter, x, y, rot))


def turn(well, letter, x, y, rot, clockwise):
    """The piece after an X (clockwise) or a Z, with the first kick that fits."""
    to = (rot + (1 if clockwise else 3)) % 4
    table = KICKS['I' if letter == 'I' else 'JLSTZ']
    tests = table[(rot, to)] if clockwise else [(-dx, -dy) for dx, dy in table[(to, rot)]]
    for dx, dy in [(0, 0)] + (tests if letter != 'O' else []):
        if fits(well, letter, x + dx, y + dy, to):
            return x + dx, y + dy, to
    return x, y, rot


def spawn(well, letter):
    x = 4 if letter == 'O' else 3
    return (x, 20, 0) if fits(well, letter, x, 20, 0) else (x, 21, 0)


def land(well, letter, keys, x, y, rot):
    """The well after the keys (turns, shifts, then the hard drop) and the rows cleared."""
    for k in keys:
        if k in 'XZ':
            x, y, rot = turn(well, letter, x, y, rot, k == 'X')
        elif fits(well, letter, x + (1 if k == 'R' else -1), y, rot):
            x += 1 if k == 'R' else -1
    while fits(well, letter, x, y - 1, rot):
        y -= 1
    after = well | set(cells(letter, x, y, rot))
    full = [r for r in range(40) if all((c, r) in after for c in range(10))]
    left = sorted({r for _, r in after} - set(full))
    return {(c, left.index(r)) for c, r in after if r in left}, len(full)


def judge(well, lines):
    heights = [max([y + 1 for cx, y in well if cx == x] or [0]) for x in range(10)]
    holes = sum(1 for x in range(10) for y in range(heights[x]) if (x, y) not in well)
    return (-lines, holes, max(heights), sum(abs(a - b) for a, b in zip(heights, heights[1:])))


def choose(seat):
    """The keys for this turn's piece."""
    well = {(x, 19 - i) for i, row in enumerate(seat['board']) for x, ch in enumerate(row) if ch != '.'}
    top = 19 + len(seat['buffer'])
    well |= {(x, top - i) for i, row in enumerate(seat['buffer']) for x, ch in enumerate(row) if ch != '.'}
    p = seat['piece']
    options = [('', p['letter'], (p['x'], p['y'], p['rotation']))]
    other = seat['hold'] or (seat['next'] or [None])[0]
    if other:
        options.append(('C', other, spawn(well, other)))
    best = None
    for hold, letter, pos in options:
        for turns in ('', 'X', 'XX', 'Z'):
            for shift in range(-5, 6):
                keys = turns + ('L' * -shift if shift < 0 else 'R' * shift)
                key = judge(*land(well, letter, keys, *pos))
                if best is None or key < best[0]:
                    best = (key, hold + keys + 'D')
    return 'keys ' + best[1]


def main():
    ap = options('An ActionBlocks turn-clock starter bot.')
    ap.add_argument('--join', metavar='MATCH_ID', help='join this match instead of creating one')
    ap.add_argument('--players', type=int, default=2)
    ap.add_argument('--seed', type=int)
    ap.add_argument('--turn-seconds', type=int, default=10)
    ap.add_argument('--resign-after', type=int, metavar='N', help='resign once N turns are played')
    args = ap.parse_args()
    c = connect(args, need_key=True, prefix='abbot')
    if args.join:
        view = c.ok('POST', '/api/matches/%s/join' % args.join, {})
    else:
        body = {'rules': 'actionblocks-v1', 'players': args.players, 'turn_seconds': args.turn_seconds}
        if args.seed is not None:
            body['seed'] = args.seed
        view = c.ok('POST', '/api/matches', body)
    mid, me = view['match_id'], view['you']
    print('match %s, seat %d' % (mid, me), flush=True)
    while view['status'] != 'finished':
        seat = view['seats'][me]
        if view['status'] == 'playing' and seat['alive'] and not seat['moved'] and seat['piece']:
            turn_no = view['turn'] + 1
            late = args.resign_after is not None and turn_no > args.resign_after
            status, reply = c.call('POST', '/api/matches/%s/move' % mid,
                                   {'turn': turn_no, 'command': 'resign' if late else choose(seat)})
            if status >= 300 and reply['error']['code'] not in ('wrong_turn', 'match_over', 'player_out'):
                raise RuntimeError('move for turn %d: %d %s' % (turn_no, status, reply.get('error')))
            if status >= 300 or reply['resolved']:
                view = c.ok('GET', '/api/matches/%s' % mid)  # the turn is over: read on
                continue
        view = c.ok('GET', '/api/matches/%s/wait?after=%d' % (mid, view['turn']))
    match_result(view)


if __name__ == '__main__':
    command(main)
