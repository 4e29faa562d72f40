#!/usr/bin/env python3
"""A starter bot for versus matches (/api/matches/...): Stackfall side by side.

What it does: with an agent key (a new account unless --key is given) it
joins the quick-match queue for two players with items on, or with --create
creates a match and prints its id, or takes a seat in the match --join names.
Each turn it reads its own board from the match view (`board_text`, top row
first), tries every rotation and column of its current piece on a copy of the
board, and sends the placement that clears the most lines, then leaves the
fewest holes and the lowest stack; when it holds an item it uses the oldest
on the seat it hurts or helps most (`use 2; place 0 4`). Then it waits for
the turn to resolve with the long poll (GET .../wait?after=TURN, at most 25 s
a call), plays on until the match is over, and prints every seat's place.
With --resign-after N it resigns on turn N + 1 (a short match for a test).

Run two of them side by side, with a daemon serving (./dev up): they meet in
the queue and play each other.

    python3 examples/versus_bot.py & python3 examples/versus_bot.py
    python3 examples/versus_bot.py --create --seed 7      # prints: match 123...
    python3 examples/versus_bot.py --join 123...          # in another shell

The options every starter takes (--url, --key, --new-account) are in
arcaded_client.py; two bots need two accounts. Exit status 0 when the match
ended; 1 with a message on anything else. The rules: docs/rules/versus.md.
"""
from arcaded_client import ApiError, command, connect, match_result, options

# Every shape's rotations, top row first, as docs/rules/stackfall.md and
# (the odd shapes an item's transform deals) docs/rules/versus.md draw them;
# a placement's column is that of the shape's leftmost cell.
SHAPES = {
    'I': [['####'], ['#', '#', '#', '#']] * 2,
    'O': [['##', '##']] * 4,
    'T': [['.#.', '###'], ['#.', '##', '#.'], ['###', '.#.'], ['.#', '##', '.#']],
    'S': [['.##', '##.'], ['#.', '##', '.#']] * 2,
    'Z': [['##.', '.##'], ['.#', '##', '#.']] * 2,
    'J': [['#..', '###'], ['##', '#.', '#.'], ['###', '..#'], ['.#', '.#', '##']],
    'L': [['..#', '###'], ['#.', '#.', '##'], ['###', '#..'], ['##', '.#', '.#']],
    'D': [['#']] * 4,
    'C': [['#.', '##'], ['##', '#.'], ['##', '.#'], ['.#', '##']],
    'U': [['#.#', '###'], ['##', '#.', '##'], ['###', '#.#'], ['##', '.#', '##']],
    'X': [['.#.', '###', '.#.']] * 4,
    'W': [['#..', '##.', '.##'], ['.##', '##.', '#..'], ['##.', '.##', '..#'], ['..#', '.##', '##.']],
}


def drop(rows, shape, col):
    """The board (a list of 20 lists, top first) after dropping shape with its
    leftmost cell in col, and the lines cleared; None when it does not fit."""
    cells = [(y, x) for y, line in enumerate(shape) for x, ch in enumerate(line) if ch == '#']
    if col + len(shape[0]) > 10:
        return None
    top = -len(shape)  # start above the board and fall until something is below
    while all(y + top + 1 < 20 and (y + top + 1 < 0 or not rows[y + top + 1][x + col]) for y, x in cells):
        top += 1
    if top < 0:
        return None  # some of it would stay above the 20 rows
    after = [list(r) for r in rows]
    for y, x in cells:
        after[y + top][x + col] = True
    kept = [r for r in after if not all(r)]
    return [[False] * 10 for _ in range(20 - len(kept))] + kept, 20 - len(kept)


def judge(rows, lines):
    heights, holes = [], 0
    for x in range(10):
        column = [rows[y][x] for y in range(20)]
        top = next((y for y, v in enumerate(column) if v), 20)
        heights.append(20 - top)
        holes += sum(1 for v in column[top:] if not v)
    return (-lines, holes, max(heights), sum(abs(a - b) for a, b in zip(heights, heights[1:])))


def stack(seat):
    """The height of a seat's stack, from its board_text."""
    lines = seat['board_text'].splitlines()
    return next((20 - y for y, line in enumerate(lines) if line.strip('.')), 0)


# === The policy: the one function to edit ====================================
def choose(view, me):
    """This turn's commands for seat `me`, from the match view: the best
    first, then the others to try when the server refuses one (a board hidden
    by a `blind` item shows empty, so a placement may not fit after all)."""
    seat = view['seats'][me]
    rows = [[ch != '.' for ch in line] for line in seat['board_text'].splitlines()]
    ranked = []
    for rot, shape in enumerate(SHAPES[seat['current']]):
        for col in range(10):
            result = drop(rows, shape, col)
            if result is not None:
                ranked.append((judge(*result), 'place %d %d' % (rot, col)))
    moves = [move for _, move in sorted(ranked)]
    # Items: a move may first use the oldest one on a target: 1 is this seat,
    # 2, 3, ... the others in seat order. Those that help go on this seat,
    # those that hurt on the tallest opponent; a swap takes a lower board.
    others = [s for s in view['seats'] if s['seat'] != me]
    alive = [(stack(s), 2 + i) for i, s in enumerate(others) if s['alive']]
    item, target = (seat.get('inventory') or [None])[0], None
    if item in ('clear_line', 'nuke'):
        target = 1
    elif item in ('add_line', 'blind', 'transform') and alive:
        target = max(alive)[1]
    elif item == 'swap' and alive:
        target = min(alive)[1] if min(alive)[0] < stack(seat) else 1  # on itself it does nothing
    if target is not None:
        moves = ['use %d; %s' % (target, move) for move in moves]
    return moves + ['resign']
# ==============================================================================


def main():
    ap = options('A versus starter bot: the quick-match queue and the long poll.')
    ap.add_argument('--create', action='store_true', help='create a match and print its id (not the queue)')
    ap.add_argument('--join', metavar='MATCH_ID', help='join this match instead of the queue')
    ap.add_argument('--players', type=int, default=2)
    ap.add_argument('--seed', type=int, help='with --create: the seed (default: the server draws one)')
    ap.add_argument('--turn-seconds', type=int, default=10)
    ap.add_argument('--no-items', action='store_true', help='a match without items')
    ap.add_argument('--resign-after', type=int, metavar='N', help='resign once N turns are played')
    args = ap.parse_args()
    c = connect(args, need_key=True, prefix='vsbot')
    settings = {'players': args.players, 'turn_seconds': args.turn_seconds, 'items': not args.no_items}
    if args.join:
        view = c.post('/api/matches/%s/join' % args.join)
    elif args.create:
        view = c.post('/api/matches', dict(settings, **({} if args.seed is None else {'seed': args.seed})))
    else:
        view = c.post('/api/matches/quick', settings)
    mid, me = view['match_id'], view['you']
    print('match %s, seat %d%s' % (mid, me, ' (the queue)' if view['queue'] else ''))
    seated = 0
    while view['status'] != 'finished':
        if view['status'] == 'lobby' and view['joined'] != seated:  # say why nothing happens yet
            seated = view['joined']
            print('in the lobby: %d of %d players, waiting for the others' % (seated, view['players']))
        seat = view['seats'][me]
        if view['status'] == 'playing' and seat['alive'] and not seat['moved']:
            turn = view['turn'] + 1
            late = args.resign_after is not None and turn > args.resign_after
            for move in ['resign'] if late else choose(view, me):
                status, reply = c.call('POST', '/api/matches/%s/move?view=full' % mid,
                                       {'turn': turn, 'command': move})
                if status != 422 or reply['error']['code'] != 'illegal_action':
                    break  # else the next move: this one does not fit
            if status == 409 and reply['error']['code'] in ('wrong_turn', 'match_over', 'player_out'):
                view = c.get('/api/matches/%s' % mid)  # the turn moved on without us
                continue
            if status >= 300:
                raise ApiError('POST', '/api/matches/%s/move (turn %d)' % (mid, turn), status, reply)
            view = reply['match']  # the whole view, as ?view=full asks
            if reply['resolved']:
                continue
        view = c.get('/api/matches/%s/wait?after=%d' % (mid, view['turn']))
    match_result(view)


if __name__ == '__main__':
    command(main)
